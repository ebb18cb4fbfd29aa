# One place for the warning set every target of the project uses.
function(assbin_set_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow)
    if(ASSBIN_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()
