# SPDX-License-Identifier: MIT
# tests/report_tests.cmake - the report files as a user pipes, redirects and
# links them, and what they say about the run (include()d by
# tests/CMakeLists.txt):
#   conform.reports_pipe  --json/--junit/--tap - on stdout (console on
#                         stderr; prove, xmllint with tests/data/junit.xsd),
#                         a FIFO read by cat, symlinks kept, a bad path
#                         refused before any case runs, a report that fails
#                         at the end costing only itself (wk_test_slow_start,
#                         journal_tests.cmake), the provenance
#                         (tests/conform_reports.sh);
#   conform.json_schema   real --json output against
#                         docs/json-report.schema.json with python3-jsonschema
#                         (skipped only when the module is missing;
#                         tests/conform_json_schema.sh);
#   conform.sarif_schema  real conform --sarif and triage --sarif logs
#                         against the vendored SARIF 2.1.0 schema
#                         (tests/data/sarif/) and docs/sarif.md's mapping
#                         (tests/sarif_schema.sh).
if(WK_BASH)
  add_test(NAME conform.reports_pipe
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/conform_reports.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_refdriver> $<TARGET_FILE:wk_test_slow_start> ${PROJECT_SOURCE_DIR}/specs/smoke.yaml ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_LIST_DIR}/data/junit.xsd ${CMAKE_CURRENT_BINARY_DIR}/conform-reports)
  set_tests_properties(conform.reports_pipe PROPERTIES LABELS "unit" TIMEOUT 180
    PASS_REGULAR_EXPRESSION "conform_reports: all checks passed")
  add_test(NAME conform.json_schema
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/conform_json_schema.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_refdriver> ${PROJECT_SOURCE_DIR}/specs/smoke.yaml
            ${PROJECT_SOURCE_DIR}/docs/json-report.schema.json ${CMAKE_CURRENT_BINARY_DIR}/conform-json-schema)
  set_tests_properties(conform.json_schema PROPERTIES LABELS "unit" TIMEOUT 180 SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "conform_json_schema: all checks passed")
  add_test(NAME conform.sarif_schema
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/sarif_schema.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_test_render_abort> $<TARGET_FILE:wk_test_thread_crash_system>
            ${PROJECT_SOURCE_DIR}/specs/smoke.yaml ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/smoke.render-all-commands.bin
            ${CMAKE_CURRENT_LIST_DIR}/data/sarif/sarif-schema-2.1.0.json ${CMAKE_CURRENT_BINARY_DIR}/sarif-schema)
  set_tests_properties(conform.sarif_schema PROPERTIES LABELS "unit" TIMEOUT 180 SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "sarif_schema: all checks passed")
endif()
