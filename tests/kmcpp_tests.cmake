# SPDX-License-Identifier: MIT
# tests/kmcpp_tests.cmake - the tests of include/wddmkit/kmcpp.h (operator
# new and delete of a C++ driver module over km.h's pool), include()d from
# tests/CMakeLists.txt. One source, tests/test_kmcpp.cpp, built as:
#   test_kmcpp_module  a shared object of two translation units that both
#                      include kmcpp.h, with the kernel C++ flags, as a driver
#                      module is built (the plain forms are weak and hidden:
#                      one copy, never exported);
#   test_kmcpp         the cmocka program, which links the module and checks
#                      each block's pool header (kmcpp.api).
# kmcpp.module_exports: the module exports no operator new or delete (nm -D),
# so it cannot replace the operator new of the process that loads it.
get_property(_wk_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "CXX" IN_LIST _wk_langs)
  enable_language(CXX)
endif()
unset(_wk_langs)

add_library(test_kmcpp_tu2 OBJECT ${CMAKE_CURRENT_LIST_DIR}/test_kmcpp.cpp)
target_compile_definitions(test_kmcpp_tu2 PRIVATE WK_KMCPP_TEST_MODULE=2)
add_library(test_kmcpp_module SHARED ${CMAKE_CURRENT_LIST_DIR}/test_kmcpp.cpp $<TARGET_OBJECTS:test_kmcpp_tu2>)
target_compile_definitions(test_kmcpp_module PRIVATE WK_KMCPP_TEST_MODULE=1)
add_executable(test_kmcpp ${CMAKE_CURRENT_LIST_DIR}/test_kmcpp.cpp)
target_link_libraries(test_kmcpp PRIVATE test_kmcpp_module ${WK_CMOCKA_LIB} ${CMAKE_DL_LIBS})

foreach(_wk_t test_kmcpp_tu2 test_kmcpp_module test_kmcpp)
  set_target_properties(${_wk_t} PROPERTIES
    CXX_STANDARD 17
    CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF
    POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden)
  target_include_directories(${_wk_t} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  if(WK_CMOCKA_INCLUDE)
    target_include_directories(${_wk_t} SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
  endif()
  target_compile_options(${_wk_t} PRIVATE -Wall -Wextra -Werror)
  if(COMMAND wk_target_warnings)
    wk_target_warnings(${_wk_t})
  endif()
endforeach()
unset(_wk_t)
# The module's two units are driver code: kernel C++ flags, and the
# sanitizer flags a C++ driver gets (cmake/WkSanitizers.cmake).
foreach(_wk_t test_kmcpp_tu2 test_kmcpp_module)
  target_compile_options(${_wk_t} PRIVATE -fno-exceptions -fno-rtti)
  wk_sanitize_driver_code(TARGETS ${_wk_t})
endforeach()
unset(_wk_t)

add_test(NAME kmcpp.api COMMAND test_kmcpp)
set_tests_properties(kmcpp.api PROPERTIES LABELS "unit" TIMEOUT 60)

# No _Znwm, _ZdlPv, ... among the module's dynamic symbols.
add_test(NAME kmcpp.module_exports
  COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DMODULE=$<TARGET_FILE:test_kmcpp_module>
          -P ${CMAKE_CURRENT_LIST_DIR}/module_exports.cmake)
set_tests_properties(kmcpp.module_exports PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "module_exports: no operator new or delete exported")
