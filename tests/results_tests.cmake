# SPDX-License-Identifier: MIT
# tests/results_tests.cmake - `wddmkit results` and `conform --caselist`
# (include()d by tests/CMakeLists.txt):
#   results.reader  the report reader, baseline, diff, merge and the case
#                   list on reports built in the test (tests/test_results.c);
#   results.cli     the commands on real `conform` output: a baseline that
#                   makes a failing run pass, diff's exit codes on a planted
#                   regression, fix and flake, a merge of two shards equal to
#                   the unsharded run and valid against the schema, a case
#                   list, files relative to the specs root (tests/results_cli.sh).
wk_cmocka_test(test_results results.reader 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_results.c LIBS wk_conformance)
find_path(WK_TEST_JANSSON_INCLUDE jansson.h REQUIRED)
target_include_directories(test_results SYSTEM PRIVATE ${WK_TEST_JANSSON_INCLUDE})
if(WK_BASH)
  add_test(NAME results.cli
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/results_cli.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_refdriver> $<TARGET_FILE:buggy_render_index> ${PROJECT_SOURCE_DIR}/specs
            ${PROJECT_SOURCE_DIR}/docs/json-report.schema.json ${CMAKE_CURRENT_BINARY_DIR}/results-cli)
  set_tests_properties(results.cli PROPERTIES LABELS "unit" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "results_cli: all checks passed")
endif()
