# Debian packages from the install components (cmake/AssbinInstall.cmake): `cpack -G DEB` in a
# build folder writes
#   assbin_<version>_<arch>.deb         the program (and the shared libraries of a shared build);
#                                       its Depends come from dpkg-shlibdeps (Debian: dpkg-dev, file)
#   libassbin-dev_<version>_<arch>.deb  libraries to link, headers, CMake package, pkg-config files
#   python3-assbin_<version>_<arch>.deb the Python module (when it is built)
set(ASSBIN_PACKAGE_CONTACT "assbin maintainers <maintainers@assbin.invalid>" CACHE STRING
    "Maintainer field of the Debian packages")

set(CPACK_PACKAGE_NAME assbin)
set(CPACK_PACKAGE_VENDOR assbin)
set(CPACK_PACKAGE_VERSION ${assbin_VERSION})
# CPackDeb puts any other summary in front of each component's description, whose first line is
# already that package's own summary; its default value is the one it leaves alone.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_CONTACT "${ASSBIN_PACKAGE_CONTACT}")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
# Install into the staging folder through DESTDIR with CMAKE_INSTALL_PREFIX=/usr, so that the
# pkg-config files, finished at install time, name /usr rather than the staging folder.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_COMPONENTS_ALL runtime dev)
if(ASSBIN_PYTHON_MODULE)
    list(APPEND CPACK_COMPONENTS_ALL python)
endif()
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME assbin)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "read and convert Assimp ASSBIN dumps without Assimp
The assbin program reads Assimp's binary scene dumps (.assbin, compressed .assbin,
shortened .assbin.regress) from every Assimp release since 3.0, without Assimp:
it summarises them, shows their chunk tree, compares them by value, rewrites them
in the current layout and converts them to AEM game models.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libassbin-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# What the CMake package and the pkg-config files look for: zlib and libdeflate (through
# pkg-config) are needed by a static build's link, and by pkg-config's Requires.private otherwise.
set(ASSBIN_DEV_DEPENDS "libeigen3-dev (>= 3.3), zlib1g-dev, libmeshoptimizer-dev, libsquish-dev, libpng-dev")
if(ASSBIN_USES_LIBDEFLATE)
    string(APPEND ASSBIN_DEV_DEPENDS ", libdeflate-dev")
endif()
string(APPEND ASSBIN_DEV_DEPENDS ", pkgconf | pkg-config")
if(ASSBIN_SHARED)
    # The namelinks point into the runtime package, which must come from this very build.
    string(APPEND ASSBIN_DEV_DEPENDS ", assbin (= ${assbin_VERSION})")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${ASSBIN_DEV_DEPENDS}")
set(CPACK_DEBIAN_DEV_DESCRIPTION "C++ libraries to read Assimp ASSBIN dumps and write AEM models
The assbin (read, write, compare dumps), aem (read, write, validate, pose AEM
models) and assbin-converter (dump to AEM model) C++20 libraries, their headers,
a CMake package and pkg-config files. find_package(assbin ${assbin_VERSION_MAJOR}.${assbin_VERSION_MINOR} CONFIG)
gives the targets assbin::assbin, aem::aem and assbin::converter.")

if(ASSBIN_PYTHON_MODULE)
    # python3-assbin_<version>_<arch>.deb: the module for Debian's python3 (its minor version: the
    # module is built for one), in /usr/lib/python3.X/dist-packages.
    math(EXPR next_minor "${Python3_VERSION_MINOR} + 1")
    set(ASSBIN_PYTHON_DEPENDS
        "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), python3 (<< ${Python3_VERSION_MAJOR}.${next_minor}), python3-numpy")
    if(ASSBIN_SHARED)
        string(APPEND ASSBIN_PYTHON_DEPENDS ", assbin (= ${assbin_VERSION})")
    endif()
    set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-assbin)
    set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
    set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS ON)
    set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "${ASSBIN_PYTHON_DEPENDS}")
    set(CPACK_DEBIAN_PYTHON_DESCRIPTION "Python module to read and convert Assimp ASSBIN dumps without Assimp
import assbin: read dumps of every Assimp release since 3.0 into scenes whose
vertex arrays are NumPy views, compare them by value, convert them to AEM game
models; assbin.aem reads, validates and poses AEM models.")
endif()

include(CPack)
