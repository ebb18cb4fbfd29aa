// Peak heap use of a stretch of code, for tests that hostile input stays within its memory bound.
// Linking heap_meter.cpp into a test executable replaces the global operator new and delete with
// counting versions (malloc underneath, so the sanitizers still see every block).
#pragma once

#include <cstddef>

namespace assbin_test {

// Starts a measurement: the bytes live now become the baseline.
void heap_meter_start();
// The most bytes live above the baseline at any moment since heap_meter_start().
size_t heap_meter_peak();

} // namespace assbin_test
