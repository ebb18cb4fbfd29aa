# cmake -DPROGRAM=... -DARGUMENT=... -DEXPECTED=... -P expect_output.cmake
# Runs PROGRAM ARGUMENT and fails unless it exits 0, writes nothing to stderr and prints EXPECTED
# (surrounding whitespace aside). CTest's PASS_REGULAR_EXPRESSION would ignore the exit code.
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${PROGRAM} ${ARGUMENT} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
string(STRIP "${output}" output)
if(NOT status EQUAL 0 OR NOT "${errors}" STREQUAL "" OR NOT "${output}" STREQUAL "${EXPECTED}")
    message(FATAL_ERROR "${PROGRAM} ${ARGUMENT}\n  exit status: ${status}\n  stderr: ${errors}\n"
                        "  printed:  ${output}\n  expected: ${EXPECTED}")
endif()
message(STATUS "${output}")
