# pkg-config files for the three libraries: assbin.pc, aem.pc and assbin-converter.pc.
#
# Their prefix is the one the install really uses, so each file is finished at install time:
# `cmake --install --prefix P` and CPack's /usr (CPACK_SET_DESTDIR) both differ from the
# CMAKE_INSTALL_PREFIX seen at configure time.
#
# A static archive needs its private dependencies at every link, and with a static-only install
# `pkg-config --libs` (without --static) must still link: so zlib, libdeflate and the thread
# library are public (Requires, Libs) for a static build and private for a shared one.

function(assbin_pc_dir out dir)
    if(IS_ABSOLUTE "${dir}")
        set(${out} "${dir}" PARENT_SCOPE)
    else()
        set(${out} "\${prefix}/${dir}" PARENT_SCOPE)
    endif()
endfunction()

# assbin_install_pkg_config(NAME <module> LIBRARY <file name without lib> DESCRIPTION <text>
#     [REQUIRES <module>...] [PRIVATE_REQUIRES <module>...] [PRIVATE_LIBS <flag>...])
function(assbin_install_pkg_config)
    cmake_parse_arguments(PC "" "NAME;LIBRARY;DESCRIPTION" "REQUIRES;PRIVATE_REQUIRES;PRIVATE_LIBS" ${ARGN})
    set(libs "-L\${libdir} -l${PC_LIBRARY}")
    if(ASSBIN_SHARED)
        set(requires_private ${PC_PRIVATE_REQUIRES})
        set(libs_private ${PC_PRIVATE_LIBS})
    else()
        list(APPEND PC_REQUIRES ${PC_PRIVATE_REQUIRES})
        list(APPEND libs ${PC_PRIVATE_LIBS})
    endif()
    assbin_pc_dir(libdir "${CMAKE_INSTALL_LIBDIR}")
    assbin_pc_dir(includedir "${CMAKE_INSTALL_INCLUDEDIR}")

    set(text "prefix=@ASSBIN_PC_PREFIX@\nlibdir=${libdir}\nincludedir=${includedir}\n\n")
    string(APPEND text "Name: ${PC_NAME}\nDescription: ${PC_DESCRIPTION}\nVersion: ${assbin_VERSION}\n")
    if(PC_REQUIRES)
        list(JOIN PC_REQUIRES ", " requires)
        string(APPEND text "Requires: ${requires}\n")
    endif()
    if(requires_private)
        list(JOIN requires_private ", " requires_private)
        string(APPEND text "Requires.private: ${requires_private}\n")
    endif()
    list(JOIN libs " " libs)
    string(APPEND text "Libs: ${libs}\n")
    if(libs_private)
        list(JOIN libs_private " " libs_private)
        string(APPEND text "Libs.private: ${libs_private}\n")
    endif()
    string(APPEND text "Cflags: -I\${includedir}\n")

    set(template ${PROJECT_BINARY_DIR}/package/pkgconfig/${PC_NAME}.pc.in)
    set(output ${PROJECT_BINARY_DIR}/package/pkgconfig/${PC_NAME}.pc)
    file(WRITE ${template} "${text}")
    install(CODE "set(ASSBIN_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
        configure_file(\"${template}\" \"${output}\" @ONLY)" COMPONENT dev)
    install(FILES ${output} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endfunction()

find_package(Threads REQUIRED) # CMAKE_THREAD_LIBS_INIT: what Threads::Threads adds, often nothing
set(ASSBIN_PC_PRIVATE_REQUIRES zlib)
if(ASSBIN_USES_LIBDEFLATE)
    list(APPEND ASSBIN_PC_PRIVATE_REQUIRES libdeflate)
endif()
assbin_install_pkg_config(NAME assbin LIBRARY assbin
    DESCRIPTION "Reads, writes and compares Assimp ASSBIN dumps without Assimp"
    REQUIRES "eigen3 >= 3.3" PRIVATE_REQUIRES ${ASSBIN_PC_PRIVATE_REQUIRES} PRIVATE_LIBS ${CMAKE_THREAD_LIBS_INIT})
assbin_install_pkg_config(NAME aem LIBRARY aem
    DESCRIPTION "Reads, writes, validates and poses AEM game models"
    REQUIRES "eigen3 >= 3.3")
assbin_install_pkg_config(NAME assbin-converter LIBRARY assbin-converter
    DESCRIPTION "Converts Assimp ASSBIN scenes to AEM game models"
    REQUIRES "assbin = ${assbin_VERSION}" "aem = ${assbin_VERSION}" PRIVATE_REQUIRES libpng PRIVATE_LIBS -lmeshoptimizer -lsquish ${CMAKE_THREAD_LIBS_INIT})
