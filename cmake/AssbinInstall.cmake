# What `cmake --install` puts under the prefix, in two components that CPack turns into two Debian
# packages (cmake/AssbinPackaging.cmake):
#   runtime  bin/assbin, its manual page and bash completion, and the shared libraries when
#            BUILD_SHARED_LIBS=ON
#   dev      the libraries to link (static, or the shared ones' namelinks), the public headers,
#            the CMake package (lib/cmake/assbin) and the pkg-config files (lib/pkgconfig)
# find_package(assbin 0.1 CONFIG REQUIRED) gives assbin::assbin, aem::aem and assbin::converter.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ASSBIN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/assbin CACHE STRING
    "Where the CMake package files go, relative to the prefix")
set(ASSBIN_LIBRARIES assbin aem assbin_converter)

# While the major version is 0 a minor release may break the ABI, so the SONAME carries
# major.minor (libassbin.so.0.1) — the same rule as the package's version check below.
set(ASSBIN_SOVERSION ${assbin_VERSION_MAJOR}.${assbin_VERSION_MINOR})
set_target_properties(${ASSBIN_LIBRARIES} PROPERTIES
    VERSION ${assbin_VERSION}
    SOVERSION ${ASSBIN_SOVERSION}
    # Static archives too, so that a user can link them into a shared library (a plugin, say).
    POSITION_INDEPENDENT_CODE ON)

get_target_property(ASSBIN_LIBRARY_TYPE assbin TYPE)
if(ASSBIN_LIBRARY_TYPE STREQUAL "SHARED_LIBRARY")
    set(ASSBIN_SHARED ON)
else()
    set(ASSBIN_SHARED OFF)
endif()
if(ASSBIN_SHARED)
    # Relative RUNPATHs, so that an installed tree runs wherever it is put (and from a package's /usr):
    # the program finds the libraries, the converter finds the other two beside it.
    file(RELATIVE_PATH ASSBIN_BIN_TO_LIB ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
    set_target_properties(assbin_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${ASSBIN_BIN_TO_LIB}")
    set_target_properties(${ASSBIN_LIBRARIES} PROPERTIES INSTALL_RPATH "$ORIGIN")
endif()

install(TARGETS assbin_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
# The manual page (tools/CMakeLists.txt makes it from --help) and the bash completion, where man and
# bash-completion look under the prefix (share/man/man1, share/bash-completion/completions).
install(FILES ${ASSBIN_MAN_PAGE}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/tools/completion/assbin.bash
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions RENAME assbin COMPONENT runtime)

# Two export sets because the namespaces differ: aem:: for the AEM library (usable alone, game
# side), assbin:: for the reader and the converter. The converter's link to aem::aem crosses the
# sets, which CMake resolves by name; the package config loads aemTargets first.
foreach(library IN LISTS ASSBIN_LIBRARIES)
    if(library STREQUAL "aem")
        set(export_set aemTargets)
    else()
        set(export_set assbinTargets)
    endif()
    install(TARGETS ${library} EXPORT ${export_set}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(EXPORT aemTargets NAMESPACE aem:: DESTINATION ${ASSBIN_INSTALL_CMAKEDIR} COMPONENT dev)
install(EXPORT assbinTargets NAMESPACE assbin:: DESTINATION ${ASSBIN_INSTALL_CMAKEDIR} COMPONENT dev)

foreach(include_dir assbin/include aem/include converter/include ${ASSBIN_GENERATED_INCLUDE_DIR})
    if(NOT IS_ABSOLUTE ${include_dir})
        set(include_dir ${PROJECT_SOURCE_DIR}/${include_dir})
    endif()
    install(DIRECTORY ${include_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
        FILES_MATCHING PATTERN "*.hpp")
endforeach()

# The package config recreates, for a static build, the private dependencies the archives need
# at the consumer's link: zlib, threads and — when this build used it — libdeflate's pkg-config
# target under the name the exported targets refer to (PkgConfig::LIBDEFLATE).
if(LIBDEFLATE_FOUND)
    set(ASSBIN_USES_LIBDEFLATE ON)
else()
    set(ASSBIN_USES_LIBDEFLATE OFF)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/assbinConfig.cmake.in
    ${PROJECT_BINARY_DIR}/package/assbinConfig.cmake
    INSTALL_DESTINATION ${ASSBIN_INSTALL_CMAKEDIR})
# SameMinorVersion: find_package(assbin 0.1) accepts 0.1.z and refuses 0.2.0, because while the
# major version is 0 a minor release may break the API (SameMajorVersion would let 0.1 take 0.9).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/assbinConfigVersion.cmake
    VERSION ${assbin_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/assbinConfig.cmake
              ${PROJECT_BINARY_DIR}/package/assbinConfigVersion.cmake
    DESTINATION ${ASSBIN_INSTALL_CMAKEDIR} COMPONENT dev)

include(AssbinPkgConfig)
include(AssbinPackaging)
