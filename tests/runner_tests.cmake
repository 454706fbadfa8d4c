# tests/runner_tests.cmake - the case runner of `wddmkit conform` (include()d
# by tests/CMakeLists.txt, which finds cmocka as WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
#
#   runner.isolation   crash, hang, DMA-buffer overrun, a dying case process,
#                      timeouts, -j N determinism, shards, filters, signals,
#                      expectations, and the JUnit/TAP/JSON files checked by
#                      parsers (every test of test_runner.c; one binary)
# Test hooks the runner honours (conformance/runner.h):
# WK_RUNNER_TEST_ABORT_ID and WK_RUNNER_TEST_FLAKY_ID.
find_package(Threads REQUIRED)
add_executable(test_runner ${CMAKE_CURRENT_LIST_DIR}/test_runner.c)
target_include_directories(test_runner PRIVATE ${PROJECT_SOURCE_DIR}/conformance ${PROJECT_SOURCE_DIR}/include)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_runner SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_runner PRIVATE wk_conformance ${WK_CMOCKA_LIB} Threads::Threads)
wk_target_warnings(test_runner)
add_test(NAME runner.isolation COMMAND test_runner)
set_tests_properties(runner.isolation PROPERTIES LABELS "unit" TIMEOUT 180)
