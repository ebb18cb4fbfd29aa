// The CLI test module: exit codes, options and messages of the `assbin` program.
#define BOOST_TEST_MODULE cli
#include <boost/test/unit_test.hpp>
