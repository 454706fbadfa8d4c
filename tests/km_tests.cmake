# SPDX-License-Identifier: MIT
# km_tests.cmake - the tests of include/wddmkit/km.h, built twice from one
# source: as C11 (test_km) and, through test_km_cxx.cpp, as C++11
# (test_km_cxx), so the header's C++ promises are checked by the same tests.
# Both link a second translation unit (test_km.c compiled with
# WK_KM_TEST_TU2), which proves the header links from several units and
# that they share one modelled IRQL.
#
# include()d from tests/CMakeLists.txt. Expects WK_CMOCKA_LIB (and, if set,
# WK_CMOCKA_INCLUDE) from the integrator's find_library/find_path.

get_property(_wk_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "CXX" IN_LIST _wk_langs)
  enable_language(CXX)
endif()
unset(_wk_langs)

find_package(Threads REQUIRED)

# The forked-child runner the km.h tests share (child_test.h).
add_library(wk_test_child STATIC ${CMAKE_CURRENT_LIST_DIR}/child_test.c)
set_target_properties(wk_test_child PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_include_directories(wk_test_child PUBLIC ${CMAKE_CURRENT_LIST_DIR})
if(WK_CMOCKA_INCLUDE)
  target_include_directories(wk_test_child PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(wk_test_child PUBLIC ${WK_CMOCKA_LIB})
wk_target_warnings(wk_test_child)

# wk_km_header_suite(NAME SOURCE CXX_SOURCE TU2_DEFINE CXX_STANDARD [SHORT_WCHAR])
# builds the programs of one header's tests, as a driver would compile the
# header: test_NAME (SOURCE as C11), test_NAME_cxx (CXX_SOURCE as C++ of
# CXX_STANDARD) and, with SHORT_WCHAR, test_NAME_short_wchar (C11 with
# -fshort-wchar: WCHAR is wchar_t). Each links test_NAME_tu2, SOURCE again
# with TU2_DEFINE, a second unit that proves the headers link from several;
# all under -Wall -Wextra -Werror and the project's stricter set (a driver
# may build with it), with cmocka, threads and the forked-child runner.
# The test names are the caller's.
function(wk_km_header_suite name source cxx_source tu2_define cxx_standard)
  cmake_parse_arguments(_suite "SHORT_WCHAR" "" "" ${ARGN})
  set(tu2 test_${name}_tu2)
  add_library(${tu2} OBJECT ${source})
  target_compile_definitions(${tu2} PRIVATE ${tu2_define})
  add_executable(test_${name} ${source} $<TARGET_OBJECTS:${tu2}>)
  add_executable(test_${name}_cxx ${cxx_source} $<TARGET_OBJECTS:${tu2}>)
  set(programs test_${name} test_${name}_cxx)
  if(_suite_SHORT_WCHAR)
    add_executable(test_${name}_short_wchar ${source} $<TARGET_OBJECTS:${tu2}>)
    target_compile_options(test_${name}_short_wchar PRIVATE -fshort-wchar)
    list(APPEND programs test_${name}_short_wchar)
  endif()
  set_target_properties(${tu2} ${programs} PROPERTIES
    C_STANDARD 11
    C_STANDARD_REQUIRED ON
    C_EXTENSIONS OFF
    CXX_STANDARD ${cxx_standard}
    CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF)
  foreach(t ${tu2} ${programs})
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/include)
    if(WK_CMOCKA_INCLUDE)
      target_include_directories(${t} PRIVATE ${WK_CMOCKA_INCLUDE})
    endif()
    target_compile_options(${t} PRIVATE -Wall -Wextra -Werror)
    if(COMMAND wk_target_warnings)
      wk_target_warnings(${t})
    endif()
  endforeach()
  foreach(t ${programs})
    target_link_libraries(${t} PRIVATE ${WK_CMOCKA_LIB} Threads::Threads wk_test_child)
  endforeach()
endfunction()

wk_km_header_suite(km ${CMAKE_CURRENT_LIST_DIR}/test_km.c ${CMAKE_CURRENT_LIST_DIR}/test_km_cxx.cpp
                   WK_KM_TEST_TU2 11)

add_test(NAME km.api COMMAND test_km)
add_test(NAME km.api_cxx COMMAND test_km_cxx)
set_tests_properties(km.api km.api_cxx PROPERTIES LABELS "unit")

# Registry reads (kmregistry.h) against a services table of the test's own.
add_executable(test_km_registry ${CMAKE_CURRENT_LIST_DIR}/test_km_registry.c)
set_target_properties(test_km_registry PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_include_directories(test_km_registry PRIVATE ${PROJECT_SOURCE_DIR}/include)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_km_registry PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_compile_options(test_km_registry PRIVATE -Wall -Wextra -Werror)
target_link_libraries(test_km_registry PRIVATE ${WK_CMOCKA_LIB} Threads::Threads)
add_test(NAME km.registry COMMAND test_km_registry)
set_tests_properties(km.registry PROPERTIES LABELS "unit")
