# SPDX-License-Identifier: MIT
# km_more_tests.cmake - the tests of kmstring.h, kmmemory.h and kmthread.h
# (include/wddmkit/), the headers that extend km.h. One source,
# test_km_more.c, built four ways:
#   test_km_more_tu2         a second C unit, strict C11 with no POSIX
#                            feature macro (the headers must not need one),
#                            without -fshort-wchar; linked into the three
#                            programs, it proves the weak registries are
#                            shared across units and that WCHAR strings
#                            cross between the two WCHAR spellings;
#   test_km_more             C11                       -> km.more
#   test_km_more_cxx         C++17 (test_km_more_cxx.cpp) -> km.more_cxx
#   test_km_more_short_wchar C11 with -fshort-wchar, so WCHAR is wchar_t
#                            and L"..." literals are checked -> km.more_short_wchar
#
# include()d from tests/CMakeLists.txt. Expects WK_CMOCKA_LIB (and, if set,
# WK_CMOCKA_INCLUDE) from the integrator's find_library/find_path.

get_property(_wk_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "CXX" IN_LIST _wk_langs)
  enable_language(CXX)
endif()
unset(_wk_langs)

find_package(Threads REQUIRED)

add_library(test_km_more_tu2 OBJECT ${CMAKE_CURRENT_LIST_DIR}/test_km_more.c)
target_compile_definitions(test_km_more_tu2 PRIVATE WK_KM_MORE_TU2)

add_executable(test_km_more ${CMAKE_CURRENT_LIST_DIR}/test_km_more.c
  $<TARGET_OBJECTS:test_km_more_tu2>)
add_executable(test_km_more_cxx ${CMAKE_CURRENT_LIST_DIR}/test_km_more_cxx.cpp
  $<TARGET_OBJECTS:test_km_more_tu2>)
add_executable(test_km_more_short_wchar ${CMAKE_CURRENT_LIST_DIR}/test_km_more.c
  $<TARGET_OBJECTS:test_km_more_tu2>)
target_compile_options(test_km_more_short_wchar PRIVATE -fshort-wchar)

set(_wk_targets test_km_more_tu2 test_km_more test_km_more_cxx test_km_more_short_wchar)
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

foreach(_wk_t test_km_more test_km_more_cxx test_km_more_short_wchar)
  target_link_libraries(${_wk_t} PRIVATE ${WK_CMOCKA_LIB} Threads::Threads)
  if(NOT _wk_t STREQUAL "test_km_more_tu2")
    target_link_libraries(${_wk_t} PRIVATE wk_test_child)
  else()
    target_include_directories(${_wk_t} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  endif()
endforeach()
unset(_wk_t)
unset(_wk_targets)

add_test(NAME km.more COMMAND test_km_more)
add_test(NAME km.more_cxx COMMAND test_km_more_cxx)
add_test(NAME km.more_short_wchar COMMAND test_km_more_short_wchar)
set_tests_properties(km.more km.more_cxx km.more_short_wchar PROPERTIES LABELS "unit" TIMEOUT 120)
