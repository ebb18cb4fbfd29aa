#define BOOST_TEST_MODULE aem
#include <boost/test/unit_test.hpp>
