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

add_library(test_km_tu2 OBJECT ${CMAKE_CURRENT_LIST_DIR}/test_km.c)
target_compile_definitions(test_km_tu2 PRIVATE WK_KM_TEST_TU2)

add_executable(test_km ${CMAKE_CURRENT_LIST_DIR}/test_km.c
  $<TARGET_OBJECTS:test_km_tu2>)
add_executable(test_km_cxx ${CMAKE_CURRENT_LIST_DIR}/test_km_cxx.cpp
  $<TARGET_OBJECTS:test_km_tu2>)

set_target_properties(test_km_tu2 test_km test_km_cxx PROPERTIES
  C_STANDARD 11
  C_STANDARD_REQUIRED ON
  C_EXTENSIONS OFF
  CXX_STANDARD 11
  CXX_STANDARD_REQUIRED ON
  CXX_EXTENSIONS OFF)

foreach(_wk_t test_km_tu2 test_km test_km_cxx)
  target_include_directories(${_wk_t} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  if(WK_CMOCKA_INCLUDE)
    target_include_directories(${_wk_t} PRIVATE ${WK_CMOCKA_INCLUDE})
  endif()
  target_compile_options(${_wk_t} PRIVATE -Wall -Wextra -Werror)
  # The project's stricter C set (-Wshadow, -Wformat=2, ...) when available:
  # a driver may build with it, so the header must pass it too.
  if(COMMAND wk_target_warnings)
    wk_target_warnings(${_wk_t})
  endif()
endforeach()
unset(_wk_t)

foreach(_wk_t test_km test_km_cxx)
  target_link_libraries(${_wk_t} PRIVATE ${WK_CMOCKA_LIB} Threads::Threads)
  if(NOT _wk_t STREQUAL "test_km_tu2")
    target_link_libraries(${_wk_t} PRIVATE wk_test_child)
  else()
    target_include_directories(${_wk_t} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  endif()
endforeach()
unset(_wk_t)

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
