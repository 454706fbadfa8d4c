# SPDX-License-Identifier: MIT
# tests/othergpu_tests.cmake - the conformance suite against a driver for
# other hardware (examples/drivers/othergpu/: its own command format and
# segments, no WK_DRIVER_TARGETS_GPU_MODEL), include()d by
# tests/CMakeLists.txt. Each test checks the exit code and the output
# (examples/drivers/expect_run.cmake).
#
#   othergpu.conform               contract profile, --gpu auto decides none:
#       exit 0, contract checks run, semantic 0 run and some skipped, no
#       failure (KIT-FINDINGS.md: what failed while the kit had limits);
#   othergpu.bug_patch_offset      Patch without the range check, stress
#       profile: PATCH-CONFINE-001 (two cases, too few for the by-rule
#       table: the failures' rule lines); in the contract profile the bare
#       Patch is skipped (outside the DDI contract) and the run passes
#       (othergpu.bug_patch_offset_contract);
#   othergpu.bug_paging_stall      INSUFFICIENT_DMA_BUFFER without progress:
#       PAGING-PROGRESS-001, the only rule in the by-rule table;
#   othergpu.bug_commit_limit      memory segment CommitLimit != Size:
#       SEG-COMMIT-001, the only rule in the by-rule table;
#   othergpu.bug_render_outputs    Render moves its outputs and fails:
#       RENDER-FAIL-001 is a choice (reference profile only) and, with
#       --gpu none, Render is never called: it passes;
#       the run passes (KIT-FINDINGS.md, 4). When the kit learns to catch
#       it, this test fails: update it and the finding.
#   othergpu.dma_in_gart           a correct variant whose DMA and paging
#       buffers are in its GART aperture (DmaBufferSegmentSet,
#       PagingBufferSegmentId), asserting so in Patch and SubmitCommand: the
#       kit maps them there with the driver's own MAP_APERTURE_SEGMENT; the
#       same verdicts as othergpu.conform.
#   othergpu.dma_too_large         the same asking for 9 MiB DMA buffers, more
#       than its 8 MiB GART or the kit's system memory holds: a limit of the
#       kit's memory, so the cases that need a context are skipped with that
#       reason, never failed (contract profile).
if(TARGET othergpu_driver)
  set(_og_expect ${PROJECT_SOURCE_DIR}/examples/drivers/expect_run.cmake)
  function(wk_othergpu_test name target code regex) # ARGN: more conform arguments
    add_test(NAME othergpu.${name}
      COMMAND ${CMAKE_COMMAND} -DEXPECT=${code} "-DREGEX=${regex}"
              "-DCOMMAND=$<TARGET_FILE:wddmkit>;conform;-j;2;--quiet;--driver;$<TARGET_FILE:${target}>;${ARGN}"
              -P ${_og_expect})
    set_tests_properties(othergpu.${name} PROPERTIES LABELS "conform;unit" TIMEOUT 300)
  endfunction()
  wk_othergpu_test(conform othergpu_driver 0
    "gpu: +none: nothing executes the driver's buffers \\(the driver does not declare WK_DRIVER_TARGETS_GPU_MODEL\\).*contract +[1-9][0-9]* run.*semantic +0 run, [1-9][0-9]* skipped: nothing executes the driver's buffers.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected")
  wk_othergpu_test(dma_in_gart othergpu_dma_in_gart 0
    "contract +[1-9][0-9]* run.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected")
  wk_othergpu_test(dma_too_large othergpu_dma_too_large 0
    "contract +[1-9][0-9]* run, [1-9][0-9]* skipped: a limit of the kit's memory: no .*DMA buffer.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected")
  wk_othergpu_test(bug_patch_offset othergpu_bug_patch_offset 1
    "fail smoke.patch-direct[^a-z]+rule: +PATCH-CONFINE-001.*RESULT: UNEXPECTED RESULTS" --profile stress)
  wk_othergpu_test(bug_patch_offset_contract othergpu_bug_patch_offset 0
    "a bare DxgkDdiPatch on a buffer and lists no Render of the driver's made.*RESULT: all as expected")
  wk_othergpu_test(bug_paging_stall othergpu_bug_paging_stall 1
    "unexpected results by rule:[^A-Z(]+PAGING-PROGRESS-001[^A-Z(]+skipped, by reason.*RESULT: UNEXPECTED RESULTS")
  wk_othergpu_test(bug_commit_limit othergpu_bug_commit_limit 1
    "unexpected results by rule:[^A-Z(]+SEG-COMMIT-001[^A-Z(]+skipped, by reason.*RESULT: UNEXPECTED RESULTS")
  wk_othergpu_test(bug_render_outputs othergpu_bug_render_outputs 0
    "RESULT: all as expected")
endif()

# Fuzzing OtherGPU (a driver for other hardware): the differential harnesses
# compare it with the reference driver on its own segments (roles, no
# contents, no size-dependent status), so the seeds raise no finding on
# the correct driver, and the planted stall is found with its rule.
# othergpu.NAME: the harness's replay binary over the corpus folders with the
# driver module; PASS and FAIL are its output's regular expressions.
function(wk_othergpu_replay_test name driver harness pass fail)
  add_test(NAME othergpu.${name}
    COMMAND ${CMAKE_COMMAND} -E env WK_FUZZ_NO_ABORT=1 WK_DRIVER=$<TARGET_FILE:${driver}>
            $<TARGET_FILE:${harness}_replay> ${ARGN})
  set_tests_properties(othergpu.${name} PROPERTIES LABELS "unit" TIMEOUT 300 PASS_REGULAR_EXPRESSION "${pass}")
  if(fail)
    set_tests_properties(othergpu.${name} PROPERTIES FAIL_REGULAR_EXPRESSION "${fail}")
  endif()
endfunction()
set(_og_corpus ${PROJECT_SOURCE_DIR}/corpus)
if(TARGET othergpu_driver AND TARGET fuzz_prog_replay AND TARGET fuzz_paging_replay)
  wk_othergpu_replay_test(fuzz_seeds_clean othergpu_driver fuzz_prog
    "replay: [1-9][0-9]* inputs ran" "FINDING" ${_og_corpus}/fuzz_prog/seeds)
  wk_othergpu_replay_test(fuzz_finds_stall othergpu_bug_paging_stall fuzz_paging
    "signature: PAGING-PROGRESS-001 in DxgkDdiBuildPagingBuffer" "" ${_og_corpus}/fuzz_paging/seeds)
endif()
# fuzz_patch builds its fixture on the driver's own segments: no finding on
# the correct driver, the planted PatchOffset bug found with its rule.
if(TARGET othergpu_driver AND TARGET fuzz_patch_replay)
  wk_othergpu_replay_test(fuzz_patch_clean othergpu_driver fuzz_patch
    "replay: [1-9][0-9]* inputs ran" "FINDING|cannot build" ${_og_corpus}/fuzz_patch/seeds)
  wk_othergpu_replay_test(fuzz_patch_finds_offset othergpu_bug_patch_offset fuzz_patch
    "signature: PATCH-CONFINE-001 in DxgkDdiPatch" ""
    ${_og_corpus}/fuzz_patch/seeds ${_og_corpus}/fuzz_patch/regressions)
endif()
