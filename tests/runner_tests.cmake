# SPDX-License-Identifier: MIT
# tests/runner_tests.cmake - the case runner of `wddmkit conform` (include()d
# by tests/CMakeLists.txt, which finds cmocka as WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
#
#   runner.isolation   crash, hang, DMA-buffer overrun, a dying case process,
#                      timeouts, -j N determinism, shards, filters, signals,
#                      expectations, and the JUnit/TAP/JSON files checked by
#                      parsers (every test of test_runner.c; one binary)
# Test hooks the runner honours (conformance/runner/runner.h):
# WK_RUNNER_TEST_ABORT_ID and WK_RUNNER_TEST_FLAKY_ID.
find_package(Threads REQUIRED)
wk_cmocka_test(test_runner runner.isolation 180 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_runner.c
               LIBS wk_conformance Threads::Threads)
target_include_directories(test_runner PRIVATE ${PROJECT_SOURCE_DIR}/conformance ${PROJECT_SOURCE_DIR}/include)

# `wddmkit conform` with a spec error among good specs: the good cases run
# and are reported, the error is in the summary and every report, exit 2.
find_program(WK_BASH bash)
add_test(NAME cli.conform_spec_errors
  COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/conform_spec_errors.sh $<TARGET_FILE:wddmkit>
          ${PROJECT_SOURCE_DIR}/specs ${CMAKE_CURRENT_BINARY_DIR}/conform-spec-errors)
set_tests_properties(cli.conform_spec_errors PROPERTIES LABELS "unit" TIMEOUT 120
  PASS_REGULAR_EXPRESSION "conform_spec_errors: all checks passed")

# The contract and reference profiles of the interpreter (prog_run.c).
wk_cmocka_test(test_profile conform.profiles 120 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_profile.c LIBS wk_conformance)
target_include_directories(test_profile PRIVATE ${PROJECT_SOURCE_DIR}/conformance ${PROJECT_SOURCE_DIR}/include)
target_compile_definitions(test_profile PRIVATE WK_SPECS_DIR="${PROJECT_SOURCE_DIR}/specs"
                                               WK_TEST_GPUMMU_DRIVER="$<TARGET_FILE:wk_refdriver_gpummu>")
add_dependencies(test_profile wk_refdriver_gpummu)

# What conform prints after the run: skip reasons grouped, covers: for a
# failed check that broke no rule, the checks by kind with the profile, the
# deprecation warning of requires: [model] (conform and spec lint).
add_test(NAME cli.conform_console
  COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/conform_console.sh $<TARGET_FILE:wddmkit>
          ${CMAKE_CURRENT_BINARY_DIR}/conform-console)
set_tests_properties(cli.conform_console PROPERTIES LABELS "unit" TIMEOUT 120
  PASS_REGULAR_EXPRESSION "conform_console: all checks passed")
