# SPDX-License-Identifier: MIT
# conformance/runner.cmake - the case runner of `wddmkit conform`: process
# isolation and scheduling (runner.c), the expectations file
# (expectations.c, libyaml), the console/JUnit/TAP/JSON reports and
# --coverage. include()d at the end of conformance/CMakeLists.txt; its tests
# are in tests/runner_tests.cmake.
if(NOT WK_YAML_LIB)
  find_library(WK_YAML_LIB yaml REQUIRED)
endif()
if(NOT WK_YAML_INCLUDE)
  find_path(WK_YAML_INCLUDE yaml.h REQUIRED)
endif()

target_sources(wk_conformance PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/runner.c
  ${CMAKE_CURRENT_LIST_DIR}/expectations.c
  ${CMAKE_CURRENT_LIST_DIR}/report_console.c
  ${CMAKE_CURRENT_LIST_DIR}/report_junit.c
  ${CMAKE_CURRENT_LIST_DIR}/report_tap.c
  ${CMAKE_CURRENT_LIST_DIR}/report_json.c
  ${CMAKE_CURRENT_LIST_DIR}/coverage.c)
target_include_directories(wk_conformance SYSTEM PRIVATE ${WK_YAML_INCLUDE})
target_link_libraries(wk_conformance PUBLIC ${WK_YAML_LIB})

# `wddmkit conform`: needs the spec loader (spec.cmake, included before this file).
target_sources(wk_cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cli_conform.c)

# The repository's specs through the runner, every report format written.
add_test(NAME conform.specs
  COMMAND wddmkit conform -j 2 --quiet --coverage
          --junit ${CMAKE_CURRENT_BINARY_DIR}/conform.junit.xml
          --tap ${CMAKE_CURRENT_BINARY_DIR}/conform.tap
          --json ${CMAKE_CURRENT_BINARY_DIR}/conform.json
          ${PROJECT_SOURCE_DIR}/specs)
set_tests_properties(conform.specs PROPERTIES LABELS "conform;unit" TIMEOUT 300)
add_test(NAME cli.conform_bad_option COMMAND wddmkit conform --shard 0/2)
set_tests_properties(cli.conform_bad_option PROPERTIES LABELS "unit" WILL_FAIL TRUE)
