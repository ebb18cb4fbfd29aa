# assbin(1), made from the program's own --help texts, so the page and --help never disagree:
#   cmake -DPROGRAM=path/to/assbin -DOUTPUT=assbin.1 -DVERSION=0.1.0 -P AssbinManPage.cmake
# The page is the general --help (verbs, exit codes), then every verb's --help in a section of its
# own, set as preformatted text (the program lays the texts out for 73 columns when COLUMNS says so). The verbs are the
# ones the general --help lists, so a new verb gets its section without touching this file.
cmake_minimum_required(VERSION 3.20)
foreach(variable PROGRAM OUTPUT VERSION)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "AssbinManPage.cmake needs -D${variable}=...")
    endif()
endforeach()

function(help_of out_variable)
    # 73 columns: man indents the text by 7, and the page must fit an 80-column terminal.
    execute_process(COMMAND ${CMAKE_COMMAND} -E env COLUMNS=73 ${PROGRAM} ${ARGN} --help OUTPUT_VARIABLE text
                    RESULT_VARIABLE status
                    ERROR_VARIABLE errors)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "'${PROGRAM} ${ARGN} --help' exited with ${status}: ${errors}")
    endif()
    set(${out_variable} "${text}" PARENT_SCOPE)
endfunction()

# Text as roff sees it: a backslash is \e, a hyphen a minus sign (\-: options must be typed as
# shown, and a copied "-o" must stay ASCII), and a line starting with . or ' is not a request.
function(roff_escape out_variable text)
    string(REPLACE "\\" "\\e" text "${text}")
    string(REPLACE "-" "\\-" text "${text}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
    if(NOT text MATCHES "\n$")
        string(APPEND text "\n")
    endif()
    set(${out_variable} "${text}" PARENT_SCOPE)
endfunction()

help_of(general)
# The verbs: the indented words of the "verbs:" block (a summary may go on, further indented), up
# to the blank line after it.
string(REGEX MATCH "verbs:\n(  [a-z][a-z-]*[^\n]*\n|   +[^\n]*\n)+" verb_block "${general}")
string(REGEX MATCHALL "\n  [a-z][a-z-]*" verb_lines "${verb_block}")
set(verbs)
foreach(line IN LISTS verb_lines)
    string(STRIP "${line}" verb)
    list(APPEND verbs ${verb})
endforeach()
if(NOT verbs)
    message(FATAL_ERROR "no verbs found in '${PROGRAM} --help'")
endif()

roff_escape(general_roff "${general}")
set(page ".\\\" Made from the --help texts of assbin ${VERSION} (cmake/AssbinManPage.cmake); do not edit.
.TH ASSBIN 1 \"\" \"assbin ${VERSION}\" \"User Commands\"
.SH NAME
assbin \\- read, convert, inspect and compare Assimp binary scene dumps (ASSBIN) without Assimp
.SH SYNOPSIS
.B assbin
.I verb
.RI [ options ]
.br
.B assbin
.I verb
.B \\-\\-help
.SH DESCRIPTION
.nf
${general_roff}.fi
.SH VERBS
")
foreach(verb IN LISTS verbs)
    help_of(verb_help ${verb})
    roff_escape(verb_roff "${verb_help}")
    string(APPEND page ".SS \"assbin ${verb}\"\n.nf\n${verb_roff}.fi\n")
endforeach()
string(APPEND page ".SH SEE ALSO
The README and docs/ of the assbin sources: the command-line reference (docs/cli.md), the library,
Python, the file formats, testing and benchmarks.
")
file(WRITE ${OUTPUT} "${page}")
