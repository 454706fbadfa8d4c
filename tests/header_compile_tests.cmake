# SPDX-License-Identifier: MIT
# tests/header_compile_tests.cmake - headers.compile_alone: every
# include/wddmkit/*.h compiles alone as C11 and as C++17 with -Wall -Wextra
# -Werror (tests/header_compile.cmake says why), with the build's own
# compilers and, where installed, gcc/g++ and clang/clang++ as well: the
# kit builds with either, and a driver author may use the other.
# include()d from tests/CMakeLists.txt.
set(_wk_hc_compilers c:${CMAKE_C_COMPILER} cxx:${CMAKE_CXX_COMPILER})
foreach(_wk_hc_pair "c:gcc" "cxx:g++" "c:clang" "cxx:clang++")
  string(REPLACE ":" ";" _wk_hc_split ${_wk_hc_pair})
  list(GET _wk_hc_split 0 _wk_hc_lang)
  list(GET _wk_hc_split 1 _wk_hc_name)
  string(MAKE_C_IDENTIFIER "WK_HC_${_wk_hc_name}" _wk_hc_var)
  find_program(${_wk_hc_var} ${_wk_hc_name})
  if(${_wk_hc_var})
    list(APPEND _wk_hc_compilers ${_wk_hc_lang}:${${_wk_hc_var}})
  endif()
endforeach()
list(REMOVE_DUPLICATES _wk_hc_compilers)
add_test(NAME headers.compile_alone
  COMMAND ${CMAKE_COMMAND} -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/header-compile "-DCOMPILERS=${_wk_hc_compilers}"
          -P ${CMAKE_CURRENT_LIST_DIR}/header_compile.cmake)
set_tests_properties(headers.compile_alone PROPERTIES LABELS "unit" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "header_compile: [1-9][0-9]* headers, [1-9][0-9]* compiles, all passed")
foreach(_wk_hc_v _wk_hc_compilers _wk_hc_pair _wk_hc_split _wk_hc_lang _wk_hc_name _wk_hc_var)
  unset(${_wk_hc_v})
endforeach()
