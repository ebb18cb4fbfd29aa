#define BOOST_TEST_MODULE converter
#include <boost/test/unit_test.hpp>
