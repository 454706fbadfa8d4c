# SPDX-License-Identifier: MIT
# tests/coverage_cmd_tests.cmake - `wddmkit coverage` (conformance/
# cli_coverage.c) on driver modules tests/coverage_cmd.sh builds with
# clang's coverage flags, in every preset that has the replay binaries;
# and the summary of the lcov tracefile alone (fuzz/tools/lcov_summary.c),
# in every preset.
wk_cmocka_test(test_lcov_summary cli.lcov_summary 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_lcov_summary.c LIBS wk_cli)
target_include_directories(test_lcov_summary PRIVATE ${PROJECT_SOURCE_DIR}/conformance)

find_program(WK_BASH bash)
if(NOT WK_BASH OR NOT TARGET fuzz_render_replay)
  return()
endif()
add_test(NAME cli.coverage
  COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/coverage_cmd.sh $<TARGET_FILE:wddmkit> ${PROJECT_SOURCE_DIR}
          "$<TARGET_FILE:wk_refdriver_static> $<TARGET_FILE:wk_gpu>" ${CMAKE_CURRENT_BINARY_DIR}/coverage-cmd)
set_tests_properties(cli.coverage PROPERTIES LABELS "unit" TIMEOUT 300 SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION "coverage_cmd: all checks passed")
