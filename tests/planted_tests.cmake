# SPDX-License-Identifier: MIT
# tests/planted_tests.cmake - the planted-bug catalogue
# (examples/drivers/planted/CATALOGUE.md), include()d by tests/CMakeLists.txt.
#
# For each entry, the whole suite in the contract profile (the profile any
# driver is judged in) against its driver, the reference driver with one
# realistic bug planted into one DDI:
#
#   planted.<name>      caught: exit 1 with the rule CATALOGUE.md expects
#                       among the rules blamed, and nothing blaming the kit;
#   planted.<name>.gap  a bug the suite does not catch today with its rule:
#                       asserts today's state (exit code, the rule not
#                       blamed, what is seen instead), so that the test
#                       fails the day the kit closes the gap, and is then
#                       turned into planted.<name>. CATALOGUE.md says what
#                       check or case is missing.
#
# examples/drivers/planted/expect_rule.cmake reads the run's output. The
# reference driver passing the same suite is tested elsewhere
# (conform.* in tests/runner_tests.cmake). About 3 s a driver.
if(NOT TARGET planted_patch_one_past_range)
  return() # the examples are not built (WK_BUILD_EXAMPLES off)
endif()
set(_planted_check ${PROJECT_SOURCE_DIR}/examples/drivers/planted/expect_rule.cmake)

# planted.<name>: TARGET's driver caught by RULE (ARGN: conform's profile,
# contract unless given).
function(wk_planted_caught name target rule)
  set(profile contract)
  if(ARGC GREATER 3)
    set(profile ${ARGV3})
  endif()
  add_test(NAME planted.${name}
    COMMAND ${CMAKE_COMMAND} -DWANT=caught -DRULE=${rule}
            "-DCOMMAND=$<TARGET_FILE:wddmkit>;conform;--profile;${profile};--driver;$<TARGET_FILE:${target}>;-j;2;--quiet"
            -P ${_planted_check})
  set_tests_properties(planted.${name} PROPERTIES LABELS "unit" TIMEOUT 300)
endfunction()

# <test>: TARGET's driver not caught by RULE today: exit EXPECT, and the
# output matches SEEN (ARGN, optional).
function(wk_planted_state test target rule expect)
  set(seen "")
  if(ARGC GREATER 4)
    set(seen "-DSEEN=${ARGV4}")
  endif()
  add_test(NAME ${test}
    COMMAND ${CMAKE_COMMAND} -DWANT=gap -DRULE=${rule} -DEXPECT=${expect} ${seen}
            "-DCOMMAND=$<TARGET_FILE:wddmkit>;conform;--profile;contract;--driver;$<TARGET_FILE:${target}>;-j;2;--quiet"
            -P ${_planted_check})
  set_tests_properties(${test} PROPERTIES LABELS "unit" TIMEOUT 300)
endfunction()

# The four planted bugs of examples/drivers/ (their own tests, bugs.*, run
# one promoted case each; these run the whole suite).
wk_planted_caught(patch_list_range buggy_patch_list_range PATCH-CONFINE-001)
wk_planted_caught(render_index buggy_render_index MEM-GUARD-001)
wk_planted_caught(paging_restart buggy_paging_restart PAGING-PROGRESS-001)
# A Patch that trusts PatchOffset breaks no contract: the kernel hands Patch
# only the lists its own Render made (docs/verdicts.md, "Profiles": a bare
# Patch is stress). The stress profile's bare `patch` steps catch it; the
# contract profile passes it, by design (not a gap).
wk_planted_caught(patch_offset buggy_patch_offset PATCH-CONFINE-001 stress)
wk_planted_state(planted.patch_offset.outside_contract buggy_patch_offset PATCH-CONFINE-001 0
                 "RESULT: all as expected")

# The catalogue's own drivers (examples/drivers/planted/planted_<name>.c),
# each with the rule CATALOGUE.md wrote down for it.
foreach(_pair
    patch_one_past_range:PATCH-CONFINE-001
    patch_ignores_allocation_offset:PATCH-VALUE-001
    render_undocumented_status:RENDER-STATUS-001
    render_skips_prepatch:RENDER-PREPATCH-001
    render_no_command_length_check:MEM-GUARD-001
    render_private_data_overrun:MEM-GUARD-001
    paging_no_progress:PAGING-PROGRESS-002
    paging_advance_past_dma_size:PAGING-ADVANCE-001
    transfer_tail_lost:PAGING-TRANSFER-001
    transfer_mdl_offset_bytes:PAGING-TRANSFER-001
    fill_one_word_too_many:PAGING-CONFINE-001
    unmap_leaves_mapped:PAGING-UNMAP-001
    transfer_offset_as_cursor:PAGING-INPUT-001
    fence_low_dword:PAGING-FENCE-001
    ctx_dma_in_memory_segment:CTX-SEGSET-001
    gdi_context_list_size:CTX-GDI-001
    bank_ends_absolute:SEG-BANK-003
    commit_limit_zero:SEG-COMMIT-001
    segment_count_mismatch:SEG-QUERY-002
    alloc_priority_zero:ALLOC-PRIO-001
    cancel_not_implemented:CANCEL-STATUS-001
    fence_reported_again:INTR-FENCE-001
    fence_never_reported:SUBMIT-FENCE-001
    render_patch_list_overrun:RENDER-PATCH-001
    render_patch_list_unchecked:MEM-GUARD-001
    transfer_swapped:PAGING-TRANSFER-001
    fence_completed_after_fault:INTR-FENCE-001)
  string(REPLACE ":" ";" _pair ${_pair})
  list(GET _pair 0 _bug)
  list(GET _pair 1 _rule)
  wk_planted_caught(${_bug} planted_${_bug} ${_rule})
endforeach()

# The gaps (CATALOGUE.md, "Gaps"): today's state, each a check the kit lacks.
# A GART_UNMAP to page 0 faults in the GPU model (page 0 is outside its
# system memory) before PAGING-UNMAP-001 is checked: the case's rule is
# PAGING-GPU-001, PAGING-UNMAP-001 follows in its message.
wk_planted_state(planted.unmap_not_dummy.gap planted_unmap_not_dummy PAGING-UNMAP-001 1
                 "more: PAGING-UNMAP-001.*unexpected results by rule:[^A-Z]+PAGING-GPU-001")

# Latent (CATALOGUE.md, "Latent"): a Render without a DmaSize check, which no
# input reaches in this driver (its 256-entry patch list caps a pass at 6 KiB
# of its 16 KiB DMA buffer). Not a gap of the kit: the suite passes it, and
# would with any case.
wk_planted_state(planted.render_writes_past_dma_size.latent planted_render_writes_past_dma_size
                 MEM-GUARD-001 0 "RESULT: all as expected")
