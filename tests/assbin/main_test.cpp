// The assbin test module: reader, layout variants, truncation, validation and CLI suites.
#define BOOST_TEST_MODULE assbin
#include <boost/test/unit_test.hpp>
