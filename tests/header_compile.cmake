# SPDX-License-Identifier: MIT
# tests/header_compile.cmake - every public header compiles alone, run with
# `cmake -P` by the test headers.compile_alone (tests/header_compile_tests.cmake).
#
# Why: a driver includes any one of include/wddmkit/*.h first, from C or
# from C++, and builds with warnings as errors; a header that leans on
# another one being included before it, or that warns in one language,
# breaks that driver and no other test notices. The headers are globbed
# when the test runs, so a header added later is covered without a
# reconfigure.
#
# -DINCLUDE_DIR=<include/>  -DWORK_DIR=<scratch folder>
# -DCOMPILERS=<c:/path/cc;cxx:/path/c++;...>  each C compiler builds every
#   header as C11, each C++ compiler as C++17, plain and with the kernel
#   C++ flags (-fno-exceptions -fno-rtti), all with -Wall -Wextra -Werror.
# A header that says with an #error to include another one instead
# (dispmprt.h: "include wddmkit/driver.h, which includes this header where it
# belongs") must refuse alone with exactly that message, and compile when
# included right after the header it names.
# Prints "header_compile: N headers, M compiles, all passed" or fails with
# the compiler's output for the first header that does not compile.
foreach(v INCLUDE_DIR WORK_DIR COMPILERS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "header_compile: -D${v}=... is required")
  endif()
endforeach()

file(GLOB headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/wddmkit/*.h)
list(SORT headers)
list(LENGTH headers header_count)
if(header_count EQUAL 0)
  message(FATAL_ERROR "header_compile: no header under ${INCLUDE_DIR}/wddmkit")
endif()
file(MAKE_DIRECTORY ${WORK_DIR})

set(compiles 0)
set(common -Wall -Wextra -Werror -I${INCLUDE_DIR} -c -o ${WORK_DIR}/header.o)
foreach(entry IN LISTS COMPILERS)
  string(REGEX MATCH "^(c|cxx):(.+)$" _ "${entry}")
  set(lang ${CMAKE_MATCH_1})
  set(compiler ${CMAKE_MATCH_2})
  if(lang STREQUAL "c")
    set(modes "-x|c|-std=c11") # one mode per element, its flags split at |
    set(extension c)
  else()
    set(modes "-x|c++|-std=c++17" "-x|c++|-std=c++17|-fno-exceptions|-fno-rtti")
    set(extension cpp)
  endif()
  foreach(header IN LISTS headers)
    # The header it must be included through, if it says so.
    file(STRINGS ${INCLUDE_DIR}/${header} through REGEX "^#error \"include (wddmkit/[a-z0-9_]+\\.h)")
    string(REGEX MATCH "wddmkit/[a-z0-9_]+\\.h" through "${through}")
    # Included twice: the second must be a no-op (include guard).
    string(MAKE_C_IDENTIFIER ${header} stem)
    set(alone ${WORK_DIR}/${stem}.${extension})
    file(WRITE ${alone} "#include \"${header}\"\n#include \"${header}\"\n")
    set(after ${WORK_DIR}/${stem}_after.${extension})
    file(WRITE ${after} "#include \"${through}\"\n#include \"${header}\"\n")
    foreach(mode IN LISTS modes)
      string(REPLACE "|" ";" flags "${mode}")
      string(REPLACE "|" " " shown "${mode}")
      execute_process(COMMAND ${compiler} ${flags} ${common} ${alone}
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
      if(through)
        if(rc EQUAL 0 OR NOT out MATCHES "include ${through}")
          message(FATAL_ERROR "header_compile: ${header} alone should stop at its #error \"include ${through}\" "
                              "with ${compiler} ${shown}; it gave (exit ${rc}):\n${out}")
        endif()
        execute_process(COMMAND ${compiler} ${flags} ${common} ${after}
                        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
      endif()
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "header_compile: ${header} does not compile alone with ${compiler} ${shown} "
                            "-Wall -Wextra -Werror:\n${out}")
      endif()
      math(EXPR compiles "${compiles} + 1")
    endforeach()
  endforeach()
endforeach()
message(STATUS "header_compile: ${header_count} headers, ${compiles} compiles, all passed")
