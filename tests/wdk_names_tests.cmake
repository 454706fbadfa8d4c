# SPDX-License-Identifier: MIT
# wdk_names_tests.cmake - the WDK names a RosKmd port found missing
# (D3DDDIFORMAT, DXGI_FORMAT, the DXGKQAITYPE values and runtime power
# types, FLOAT, FILE_OBJECT, GENERIC_*, DECLARE_CONST_UNICODE_STRING,
# RtlStringCb/CchPrintfW, MmMapLockedPagesSpecifyCache/MmUnmapLockedPages,
# KeBugCheckEx). One source, tests/test_wdk_names.c, built three ways:
#   test_wdk_names             C11                          -> km.wdk_names
#   test_wdk_names_cxx         C++17 (test_wdk_names_cxx.cpp) -> km.wdk_names_cxx
#   test_wdk_names_short_wchar C11 with -fshort-wchar (WCHAR is wchar_t,
#                              literals L"...")            -> km.wdk_names_short_wchar
# each linked with test_wdk_names_tu2, the same file with WK_WDK_NAMES_TU2:
# a C unit that includes d3dkmddi.h alone to see the whole D3DDDIFORMAT.
#
# include()d from tests/CMakeLists.txt. Expects WK_CMOCKA_LIB (and, if set,
# WK_CMOCKA_INCLUDE) from the integrator's find_library/find_path.

get_property(_wk_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "CXX" IN_LIST _wk_langs)
  enable_language(CXX)
endif()
unset(_wk_langs)

add_library(test_wdk_names_tu2 OBJECT ${CMAKE_CURRENT_LIST_DIR}/test_wdk_names.c)
target_compile_definitions(test_wdk_names_tu2 PRIVATE WK_WDK_NAMES_TU2)

add_executable(test_wdk_names ${CMAKE_CURRENT_LIST_DIR}/test_wdk_names.c
  $<TARGET_OBJECTS:test_wdk_names_tu2>)
add_executable(test_wdk_names_cxx ${CMAKE_CURRENT_LIST_DIR}/test_wdk_names_cxx.cpp
  $<TARGET_OBJECTS:test_wdk_names_tu2>)
add_executable(test_wdk_names_short_wchar ${CMAKE_CURRENT_LIST_DIR}/test_wdk_names.c
  $<TARGET_OBJECTS:test_wdk_names_tu2>)
target_compile_options(test_wdk_names_short_wchar PRIVATE -fshort-wchar)

set(_wk_targets test_wdk_names_tu2 test_wdk_names test_wdk_names_cxx test_wdk_names_short_wchar)
set_target_properties(${_wk_targets} PROPERTIES
  C_STANDARD 11
  C_STANDARD_REQUIRED ON
  C_EXTENSIONS OFF
  CXX_STANDARD 17
  CXX_STANDARD_REQUIRED ON
  CXX_EXTENSIONS OFF)

foreach(_wk_t ${_wk_targets})
  target_include_directories(${_wk_t} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  if(WK_CMOCKA_INCLUDE)
    target_include_directories(${_wk_t} PRIVATE ${WK_CMOCKA_INCLUDE})
  endif()
  target_compile_options(${_wk_t} PRIVATE -Wall -Wextra -Werror)
  # The project's stricter C set (-Wshadow, -Wformat=2, ...): a driver may
  # build with it, so the headers must pass it too.
  if(COMMAND wk_target_warnings)
    wk_target_warnings(${_wk_t})
  endif()
endforeach()

foreach(_wk_t test_wdk_names test_wdk_names_cxx test_wdk_names_short_wchar)
  target_link_libraries(${_wk_t} PRIVATE ${WK_CMOCKA_LIB})
  if(NOT _wk_t STREQUAL "test_wdk_names_tu2")
    target_link_libraries(${_wk_t} PRIVATE wk_test_child)
  else()
    target_include_directories(${_wk_t} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  endif()
endforeach()
unset(_wk_t)
unset(_wk_targets)

add_test(NAME km.wdk_names COMMAND test_wdk_names)
add_test(NAME km.wdk_names_cxx COMMAND test_wdk_names_cxx)
add_test(NAME km.wdk_names_short_wchar COMMAND test_wdk_names_short_wchar)
set_tests_properties(km.wdk_names km.wdk_names_cxx km.wdk_names_short_wchar PROPERTIES
  LABELS "unit" TIMEOUT 60)
