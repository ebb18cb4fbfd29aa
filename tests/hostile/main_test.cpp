// The hostile-input test module: crafted attacks on the reader and the converter, with the heap
// meter (support/heap_meter.cpp) replacing the global operator new of this executable only.
#define BOOST_TEST_MODULE hostile_input
#include <boost/test/unit_test.hpp>
