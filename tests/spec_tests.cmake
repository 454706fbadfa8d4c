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
