# SPDX-License-Identifier: MIT
# conformance/spec.cmake - the YAML spec loader and `wddmkit spec` (included
# by conformance/CMakeLists.txt). Its tests are in tests/spec_tests.cmake,
# which runs after tests/CMakeLists.txt has found cmocka.
find_library(WK_YAML_LIB yaml REQUIRED)
find_path(WK_YAML_INCLUDE yaml.h REQUIRED)

target_sources(wk_conformance PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/spec_yaml.c
  ${CMAKE_CURRENT_LIST_DIR}/spec_value.c
  ${CMAKE_CURRENT_LIST_DIR}/spec_load.c
  ${CMAKE_CURRENT_LIST_DIR}/spec_steps.c
  ${CMAKE_CURRENT_LIST_DIR}/spec_render.c
  ${CMAKE_CURRENT_LIST_DIR}/spec_patch.c
  ${CMAKE_CURRENT_LIST_DIR}/spec_checks.c
  ${CMAKE_CURRENT_LIST_DIR}/spec_set.c)
target_include_directories(wk_conformance SYSTEM PRIVATE ${WK_YAML_INCLUDE})
target_link_libraries(wk_conformance PUBLIC ${WK_YAML_LIB})

target_sources(wk_cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cli_spec.c)
target_compile_definitions(wk_cli PRIVATE WK_SPECS_DIR="${PROJECT_SOURCE_DIR}/specs")

# Every spec in the repository loads without an error.
add_test(NAME spec.lint_repo COMMAND wddmkit spec lint ${PROJECT_SOURCE_DIR}/specs)
set_tests_properties(spec.lint_repo PROPERTIES LABELS "unit")
add_test(NAME spec.mutations COMMAND wddmkit spec mutations)
set_tests_properties(spec.mutations PROPERTIES LABELS "unit"
  PASS_REGULAR_EXPRESSION "paging-advance-past-end +BuildPagingBuffer +PAGING-ADVANCE-001")
add_test(NAME spec.dump_smoke COMMAND wddmkit spec dump smoke.render-all-commands)
set_tests_properties(spec.dump_smoke PROPERTIES LABELS "unit"
  PASS_REGULAR_EXPRESSION "case smoke.render-all-commands \\(.*smoke.yaml:[0-9]+\\)")
add_test(NAME spec.dump_unknown COMMAND wddmkit spec dump smoke.no-such-case)
set_tests_properties(spec.dump_unknown PROPERTIES LABELS "unit" WILL_FAIL TRUE)
