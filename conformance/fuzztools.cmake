# SPDX-License-Identifier: MIT
# conformance/fuzztools.cmake - crash reproduction and regressions (issue
# "Fuzzing", section 2): the program -> YAML writer in the conformance
# library, and `wddmkit prog dump | repro | minimize | promote | triage`.
# include()d at the end of conformance/CMakeLists.txt; the tests are in
# tests/fuzztools_tests.cmake, the planted-bug drivers and their tests in
# examples/drivers/.
target_sources(wk_conformance PRIVATE ${CMAKE_CURRENT_LIST_DIR}/prog_yaml.c ${CMAKE_CURRENT_LIST_DIR}/patch_input.c
               ${CMAKE_CURRENT_LIST_DIR}/paging_input.c ${CMAKE_CURRENT_LIST_DIR}/render_input.c
               ${CMAKE_CURRENT_LIST_DIR}/fixture_steps.c ${CMAKE_CURRENT_LIST_DIR}/ddmin_bytes.c)
# patch_input.c, render_input.c and paging_input.c read fuzz_patch's,
# fuzz_render's and fuzz_paging's input formats, defined once in
# fuzz/seeds_lib.h.
target_include_directories(wk_conformance PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)

target_sources(wk_cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cli_fuzztools.c ${CMAKE_CURRENT_LIST_DIR}/cli_corpus.c
               ${CMAKE_CURRENT_LIST_DIR}/cli_coverage.c ${CMAKE_CURRENT_LIST_DIR}/lcov_summary.c
               ${CMAKE_CURRENT_LIST_DIR}/cli_paths.c)
# `wddmkit corpus seed` generates with fuzz/seeds_lib.c (wk_fuzz_seeds).
target_link_libraries(wk_cli PUBLIC wk_fuzz_seeds)
# promote writes into the source tree (corpus/<harness>/regressions/,
# specs/regressions/) unless WK_PROMOTE_ROOT names another root.
target_compile_definitions(wk_cli PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
