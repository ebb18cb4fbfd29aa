# Every dependency is looked for here, at configure time, and a missing one stops `cmake` with the
# Debian package that provides it — not a compiler error halfway through the build.
# scripts/install-deps.sh installs all of them.

# assbin_missing(WHAT PACKAGE): the one way this file reports a missing dependency.
function(assbin_missing what package)
    message(FATAL_ERROR "${what} was not found. On Debian or Ubuntu: apt-get install ${package} "
                        "(or run scripts/install-deps.sh, which installs every package the build needs)")
endfunction()

find_package(ZLIB QUIET)
if(NOT ZLIB_FOUND)
    assbin_missing("zlib" zlib1g-dev)
endif()
find_package(Eigen3 3.3 QUIET NO_MODULE)
if(NOT Eigen3_FOUND)
    assbin_missing("Eigen 3.3 or later" libeigen3-dev)
endif()
find_package(Boost 1.70 QUIET COMPONENTS program_options)
if(NOT Boost_FOUND)
    assbin_missing("Boost.Program_Options 1.70 or later" libboost-program-options-dev)
endif()
# The converter's mesh optimisation: weld, vertex-cache, overdraw and fetch order, mesh metrics.
find_package(meshoptimizer QUIET CONFIG)
if(NOT meshoptimizer_FOUND)
    assbin_missing("meshoptimizer" libmeshoptimizer-dev)
endif()
# BC5 compression of normal maps for the 2025 AEM layout. Found by hand: Debian's libsquish.pc
# names an include folder that does not exist.
find_path(ASSBIN_SQUISH_INCLUDE_DIR squish.h)
find_library(ASSBIN_SQUISH_LIBRARY squish)
if(NOT ASSBIN_SQUISH_INCLUDE_DIR OR NOT ASSBIN_SQUISH_LIBRARY)
    assbin_missing("libsquish" libsquish-dev)
endif()
if(NOT TARGET assbin_squish)
    add_library(assbin_squish UNKNOWN IMPORTED)
    set_target_properties(assbin_squish PROPERTIES IMPORTED_LOCATION ${ASSBIN_SQUISH_LIBRARY}
                                                   INTERFACE_INCLUDE_DIRECTORIES ${ASSBIN_SQUISH_INCLUDE_DIR})
endif()
# `assbin render`: OpenGL 3.3 core through EGL, no window system (GLVND's libOpenGL and libEGL; Mesa
# provides the driver and, without a GPU, the software rasteriser at run time).
set(OpenGL_GL_PREFERENCE GLVND)
find_package(OpenGL QUIET COMPONENTS OpenGL EGL)
if(NOT TARGET OpenGL::OpenGL OR NOT TARGET OpenGL::EGL)
    assbin_missing("OpenGL and EGL (GLVND)" "libopengl-dev libegl-dev")
endif()
# Embedded textures written as PNG (libpng at a fast deflate level: stb_image_write's own deflate was
# a tenth of a batch's time).
find_package(PNG QUIET)
if(NOT PNG_FOUND)
    assbin_missing("libpng" libpng-dev)
endif()
# `convert --skip-existing` records sources and outputs by their XXH3 hash (header-only use).
find_path(ASSBIN_XXHASH_INCLUDE_DIR xxhash.h)
if(NOT ASSBIN_XXHASH_INCLUDE_DIR)
    assbin_missing("xxHash" libxxhash-dev)
endif()
# `render` reads glTF's JSON; the tests read --json output with it (header-only).
find_package(nlohmann_json 3.10 QUIET CONFIG)
if(NOT nlohmann_json_FOUND)
    assbin_missing("nlohmann-json 3.10 or later" nlohmann-json3-dev)
endif()
find_package(PkgConfig QUIET)
# stb is header-only (stb_image to decode textures, stb_image_write to encode PNG).
find_path(ASSBIN_STB_INCLUDE_DIR stb/stb_image.h)
find_path(ASSBIN_STB_WRITE_INCLUDE_DIR stb/stb_image_write.h)
find_path(ASSBIN_STB_RESIZE_INCLUDE_DIR stb/stb_image_resize.h)
if(NOT ASSBIN_STB_INCLUDE_DIR OR NOT ASSBIN_STB_WRITE_INCLUDE_DIR OR NOT ASSBIN_STB_RESIZE_INCLUDE_DIR)
    assbin_missing("stb (stb/stb_image.h, stb/stb_image_write.h, stb/stb_image_resize.h)" libstb-dev)
endif()
if(ASSBIN_USE_LIBDEFLATE AND PkgConfig_FOUND)
    pkg_check_modules(LIBDEFLATE IMPORTED_TARGET libdeflate)
endif()
if(ASSBIN_BUILD_TESTS)
    find_package(Boost 1.70 QUIET COMPONENTS unit_test_framework)
    if(NOT Boost_UNIT_TEST_FRAMEWORK_FOUND)
        assbin_missing("Boost.Test 1.70 or later (the test suites; -DASSBIN_BUILD_TESTS=OFF builds without them)"
                       libboost-test-dev)
    endif()
endif()

# The Python module (python/): built whenever pybind11 and NumPy are found for the interpreter
# CMake uses, which is Debian's /usr/bin/python3 unless Python3_EXECUTABLE says otherwise (a pyenv
# `python3` earlier on PATH has neither Debian's NumPy nor its pybind11).
option(ASSBIN_BUILD_PYTHON "Build the Python module when pybind11 and NumPy are found" ON)
set(ASSBIN_PYTHON_MODULE OFF)
# Not in sanitizer or fuzzer builds: an instrumented module cannot be loaded by an interpreter that
# is not (the sanitizer runtime must come first in the process).
# A ThreadSanitizer build makes it: python_threads_tsan loads it with the TSan runtime preloaded.
if(ASSBIN_BUILD_PYTHON AND NOT ASSBIN_BUILD_FUZZERS AND NOT ASSBIN_SANITIZE)
    if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
        set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The Python interpreter of the module and its tests")
    endif()
    find_package(Python3 QUIET COMPONENTS Interpreter Development.Module)
    set(PYBIND11_FINDPYTHON ON)
    find_package(pybind11 2.6 QUIET CONFIG)
    set(ASSBIN_NUMPY_FOUND OFF)
    if(Python3_Interpreter_FOUND)
        execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy" RESULT_VARIABLE numpy_missing
                        OUTPUT_QUIET ERROR_QUIET)
        if(numpy_missing EQUAL 0)
            set(ASSBIN_NUMPY_FOUND ON)
        endif()
    endif()
    if(Python3_Development.Module_FOUND AND pybind11_FOUND AND ASSBIN_NUMPY_FOUND)
        set(ASSBIN_PYTHON_MODULE ON)
        message(STATUS "assbin: the Python module is built for ${Python3_EXECUTABLE} (${Python3_VERSION})")
    else()
        message(STATUS "assbin: no Python module: ${Python3_EXECUTABLE} lacks pybind11, NumPy or its headers "
                       "(apt-get install pybind11-dev python3-numpy python3-dev)")
    endif()
endif()
