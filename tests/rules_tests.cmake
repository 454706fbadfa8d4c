# SPDX-License-Identifier: MIT
# The contract-rule table's own consistency (IDs, sources, where checked).
add_executable(test_rules_catalogue ${CMAKE_CURRENT_LIST_DIR}/test_rules_catalogue.c)
target_include_directories(test_rules_catalogue PRIVATE ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)
target_compile_definitions(test_rules_catalogue PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(test_rules_catalogue PRIVATE wk_vidmm ${WK_CMOCKA_LIB})
wk_target_warnings(test_rules_catalogue)
add_test(NAME rules.catalogue COMMAND test_rules_catalogue)
set_tests_properties(rules.catalogue PROPERTIES LABELS "unit")
