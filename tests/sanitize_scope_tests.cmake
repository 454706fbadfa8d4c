# SPDX-License-Identifier: MIT
# tests/sanitize_scope_tests.cmake - what an ASan build checks of a driver
# under test, and in WK_SANITIZE_SCOPE=driver that only the driver side is
# instrumented (tests/sanitize_scope.sh). In every ASan build: the asan
# preset in CI, libfuzzer and libfuzzer-driver.
find_program(WK_BASH bash)
if(NOT WK_BASH OR NOT WK_SANITIZE MATCHES "address" OR NOT TARGET fuzz_prog_replay)
  return()
endif()
foreach(m heap_overflow short_callback_arg)
  wk_add_refwrap_module(wk_test_${m} ${CMAKE_CURRENT_LIST_DIR}/sanitize_scope/${m}.c)
endforeach()
add_test(NAME fuzz.sanitize_scope
  COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/sanitize_scope.sh ${CMAKE_BINARY_DIR} ${WK_SANITIZE_SCOPE}
          $<TARGET_FILE:fuzz_prog_replay> $<TARGET_FILE:wk_test_heap_overflow>
          $<TARGET_FILE:wk_test_short_callback_arg> $<TARGET_FILE:wk_refdriver>
          ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/smoke.objects.bin $<TARGET_FILE:wddmkit>)
set_tests_properties(fuzz.sanitize_scope PROPERTIES LABELS "unit" TIMEOUT 120
  PASS_REGULAR_EXPRESSION "sanitize_scope: all checks passed")
