# SPDX-License-Identifier: MIT
# tests/fuzztools_tests.cmake - crash reproduction and regressions (issue
# "Fuzzing", section 2), include()d at the end of tests/CMakeLists.txt:
#
#   fuzztools.all  the program -> YAML writer round-trips every spec of the
#                  repository and generated programs; `wddmkit prog dump`,
#                  `repro` (exit codes, determinism, replay binaries),
#                  `minimize` (a padded program down to its essential
#                  steps), `triage` (grouping), `promote` (into a temporary
#                  root through WK_PROMOTE_ROOT: the files load, fail on the
#                  buggy driver and pass on the reference; fuzz_prog,
#                  fuzz_patch and fuzz_render findings, the latter two found
#                  from a <harness>-libfuzzer/ folder), each planted bug of
#                  examples/drivers/ caught, and one signature for one
#                  finding from repro, triage and minimize.
wk_cmocka_test(test_fuzztools fuzztools.all 900 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fuzztools.c LIBS wk_fuzz wk_conformance)
target_compile_definitions(test_fuzztools PRIVATE
  WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  WK_WDDMKIT="$<TARGET_FILE:wddmkit>"
  WK_REFDRIVER_SO="$<TARGET_FILE:wk_refdriver>"
  WK_BUGGY_RENDER="$<TARGET_FILE:buggy_render_index>"
  WK_BUGGY_PAGING="$<TARGET_FILE:buggy_paging_restart>"
  WK_BUGGY_PATCH="$<TARGET_FILE:buggy_patch_offset>"
  WK_ENTRY_FAILS="$<TARGET_FILE:wk_test_entry_fails>"
  WK_RENDER_TABLE="$<TARGET_FILE:wk_test_render_index_table>")
# fuzz_driver.h: the signature function every tool prints.
target_include_directories(test_fuzztools PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
add_dependencies(test_fuzztools wddmkit wk_refdriver buggy_render_index buggy_paging_restart buggy_patch_offset
                 wk_test_entry_fails wk_test_render_index_table)
if(TARGET planted_fence_low_dword)
  target_compile_definitions(test_fuzztools PRIVATE WK_PLANTED_FENCE_LOW="$<TARGET_FILE:planted_fence_low_dword>")
  add_dependencies(test_fuzztools planted_fence_low_dword)
endif()
if(TARGET fuzz_patch_replay)
  target_compile_definitions(test_fuzztools PRIVATE WK_FUZZ_REPLAY_DIR="$<TARGET_FILE_DIR:fuzz_patch_replay>")
  add_dependencies(test_fuzztools fuzz_patch_replay fuzz_render_replay)
endif()


# The corpus an AFL++ campaign of several instances ends with counts every
# instance's queue, each seed and synced input once (tests/fuzz_afl_queues.sh,
# a stand-in afl-fuzz that fills two queues as AFL++ names their entries).
find_program(WK_BASH bash)
if(WK_BASH)
  add_test(NAME cli.fuzz_afl_queues
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/fuzz_afl_queues.sh $<TARGET_FILE:wddmkit>
            ${CMAKE_CURRENT_BINARY_DIR}/fuzz-afl-queues)
  set_tests_properties(cli.fuzz_afl_queues PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "fuzz_afl_queues: all checks passed")
endif()

# Every committed regression replays to its signature in corpus/signatures.tsv,
# and so do the program regressions as committed in format version 1
# (tests/data/corpus-v1/) after `wddmkit corpus upgrade` rewrote them.
find_program(WK_BASH bash)
if(TARGET buggy_render_index AND TARGET fuzz_prog_replay AND TARGET fuzz_hostile_replay)
  # Where the manifest's drivers and bindings are: the buggy examples,
  # Heron's miniport and its planted bugs, Heron's binding.
  set(_sig_dirs $<TARGET_FILE_DIR:buggy_render_index>)
  foreach(_t wdkstyle_c heron_binding independent_driver wk_refdriver_gpummu)
    if(TARGET ${_t})
      string(APPEND _sig_dirs ":$<TARGET_FILE_DIR:${_t}>")
    endif()
  endforeach()
  add_test(NAME corpus.signatures
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/corpus_signatures.sh $<TARGET_FILE:wddmkit>
            ${PROJECT_SOURCE_DIR}/corpus "${_sig_dirs}"
            ${CMAKE_CURRENT_SOURCE_DIR}/data/corpus-v1 ${CMAKE_CURRENT_BINARY_DIR}/corpus-v1-upgraded)
  set_tests_properties(corpus.signatures PROPERTIES LABELS "corpus" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "corpus_signatures: all [0-9]+ checks keep their signatures")
endif()
# fuzz.crash_log_frame: the sanitizer frame `triage --sarif` locates a
# result at (tests/test_crash_log_frame.c).
wk_cmocka_test(test_crash_log_frame fuzz.crash_log_frame 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_crash_log_frame.c
  LIBS wk_fuzz wk_conformance)
target_include_directories(test_crash_log_frame PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
# fuzz.crash_driver_log: the runs' stderr minimize and promote print, each
# distinct line once with its counts (tests/test_crash_driver_log.c).
wk_cmocka_test(test_crash_driver_log fuzz.crash_driver_log 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_crash_driver_log.c
  LIBS wk_fuzz wk_conformance)
target_include_directories(test_crash_driver_log PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
