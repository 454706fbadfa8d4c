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
wk_cmocka_test(test_runner runner.isolation 180 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_runner.c
               LIBS wk_conformance Threads::Threads)
target_include_directories(test_runner PRIVATE ${PROJECT_SOURCE_DIR}/conformance ${PROJECT_SOURCE_DIR}/include)
