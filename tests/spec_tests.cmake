# SPDX-License-Identifier: MIT
# tests/spec_tests.cmake - the YAML spec loader's tests (include()d at the
# end of tests/CMakeLists.txt, after cmocka is found as WK_CMOCKA_LIB).
#
#   spec.loader  every error class with its exact message and position,
#                valid specs compiled field by field, specs/smoke.yaml run
#                against the reference driver (every case passes), random
#                and mutated inputs (WK_TEST_SEED=<n> replays a seed)
wk_cmocka_test(test_spec_loader spec.loader 300 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_spec_loader.c LIBS wk_conformance)
target_compile_definitions(test_spec_loader PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# expect_multipass on a case that cannot reach multipass (the kit's paging
# buffer larger than the driver's sized transfer needs): a skip that says
# why, never a failure; the checks before it were judged.
add_test(NAME spec.multipass_not_reached
  COMMAND $<TARGET_FILE:wddmkit> conform ${CMAKE_CURRENT_LIST_DIR}/data/specs/multipass-not-reached.yaml)
set_tests_properties(spec.multipass_not_reached PROPERTIES LABELS "conform;unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "multipass not reached: the driver built every transfer of the case in one 65536-byte paging buffer.*contract +[1-9][0-9]* run, [1-9][0-9]* skipped.*1 of 1 cases in [0-9.]+ s: 1 skip")
