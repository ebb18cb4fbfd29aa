# cmake -DREADME=README.md -DEXAMPLE=tests/consumer/read_dump.cpp -P check_readme_example.cmake
# The first ```cpp block under "## Use it as a library" in the README must be EXAMPLE byte for
# byte, and at most 15 lines: the consumer test compiles and runs the file, so the README's
# example is known to build against an installed assbin and to print what it says.
cmake_minimum_required(VERSION 3.20)
file(READ ${README} readme)
file(READ ${EXAMPLE} example)

string(FIND "${readme}" "\n## Use it as a library\n" section)
if(section EQUAL -1)
    message(FATAL_ERROR "${README}: no \"## Use it as a library\" section")
endif()
string(SUBSTRING "${readme}" ${section} -1 readme)
set(fence_open "\n```cpp\n")
string(FIND "${readme}" "${fence_open}" start)
if(start EQUAL -1)
    message(FATAL_ERROR "${README}: no ```cpp block under \"## Use it as a library\"")
endif()
string(LENGTH "${fence_open}" fence_length)
math(EXPR start "${start} + ${fence_length}")
string(SUBSTRING "${readme}" ${start} -1 readme)
string(FIND "${readme}" "\n```\n" end) # the block's closing fence
if(end EQUAL -1)
    message(FATAL_ERROR "${README}: the library example's ```cpp block is not closed")
endif()
math(EXPR end "${end} + 1") # keep the last line's newline
string(SUBSTRING "${readme}" 0 ${end} block)

if(NOT "${block}" STREQUAL "${example}")
    message(FATAL_ERROR "The README's library example differs from ${EXAMPLE}: copy the file into the "
                        "README (or the README's block into the file).\n--- README\n${block}--- ${EXAMPLE}\n${example}")
endif()
string(REGEX MATCHALL "\n" newlines "${example}")
list(LENGTH newlines lines)
if(lines GREATER 15)
    message(FATAL_ERROR "${EXAMPLE}: ${lines} lines; the README promises an example of at most 15")
endif()
message(STATUS "README example = ${EXAMPLE} (${lines} lines)")
