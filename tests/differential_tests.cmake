# SPDX-License-Identifier: MIT
# tests/differential_tests.cmake - what the fuzz harnesses' differential
# (fuzz/driver/differential.c) must call a finding, on drivers whose bug no
# rule sees by itself; include()d by tests/CMakeLists.txt.
#
#   fuzz.differential_render_status  a Render that takes the command buffer
#       of render.extent-past-end, which the reference driver refuses: the
#       status difference is the finding (it was excused as "a driver
#       declined within its limits", which only creations may).
#   fuzz.render_reference_outside  the same driver under fuzz_render: a
#       Render that succeeds on records whose bytes lie outside their
#       allocations, which the kit's format makes invalid (umd.h), is a
#       finding of its own (harnesses/fuzz_render.c, invalid_reference).
#   fuzz.differential_content_names_its_side  a Render that writes each
#       WRITE32 value with its low bit flipped: the bytes check fails on
#       the driver under test and holds on the reference, and the finding
#       quotes the expected and seen bytes as the driver under test's.
#   fuzz.differential_hold_catches_other_work  a Render that writes a GPU
#       NOP where the reference writes nothing: its buffer is submitted, a
#       hold catches it instead of the next render, and the content after
#       the cancel differs from the reference's, both drivers right: no
#       finding (held_work_differs).
#   conform.highest_acceptable_address  the reference driver reporting
#       HighestAcceptableAddress 0xFFFFFFFF: the high-memory cases, whose
#       system memory is at 6 GiB, are skips with the reason; the case
#       whose system memory is the default one still runs and passes.
#   fuzz.differential_out_of_reach  the same driver under fuzz_prog on the
#       seed of such a case: the driver under test is not given that
#       adapter, and that is no finding (it was "does not start on an
#       adapter the reference starts on").
wk_add_refwrap_module(wk_test_caps_32bit_dma ${CMAKE_CURRENT_LIST_DIR}/driver_build/caps_32bit_dma.c)
wk_add_refwrap_module(wk_test_nop_render_submits ${CMAKE_CURRENT_LIST_DIR}/driver_build/nop_render_submits.c)
wk_add_refwrap_module(wk_test_write32_value_off ${CMAKE_CURRENT_LIST_DIR}/driver_build/write32_value_off.c)
wk_add_refwrap_module(wk_test_render_takes_refused ${CMAKE_CURRENT_LIST_DIR}/driver_build/render_takes_refused.c)
wk_add_refwrap_module(wk_test_tall_blit_hardware ${CMAKE_CURRENT_LIST_DIR}/driver_build/tall_blit_hardware.c)
# NAME: HARNESS's replay binary on one committed INPUT (under
# corpus/HARNESS/) against the wrapper module DRIVER; PASS (and, when not
# "", FAIL) regular expressions on its output.
function(wk_diff_replay_test name harness driver input pass fail)
  if(NOT TARGET ${harness}_replay)
    return()
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -E env WK_FUZZ_NO_ABORT=1 WK_DRIVER=$<TARGET_FILE:${driver}>
            $<TARGET_FILE:${harness}_replay> ${PROJECT_SOURCE_DIR}/corpus/${harness}/${input})
  set_tests_properties(${name} PROPERTIES LABELS "unit" TIMEOUT 60 PASS_REGULAR_EXPRESSION "${pass}")
  if(fail)
    set_tests_properties(${name} PROPERTIES FAIL_REGULAR_EXPRESSION "${fail}")
  endif()
endfunction()
wk_diff_replay_test(fuzz.differential_render_status fuzz_prog wk_test_render_takes_refused
  seeds/render.extent-past-end.bin
  "signature: finding: differential: render returned WK_OK on the driver under test" "")
wk_diff_replay_test(fuzz.render_reference_outside fuzz_render wk_test_render_takes_refused
  seeds/render.extent-past-end.6.bin
  "record 0's destination, list entry 0 at offset 4093 for 4 bytes, runs past the end of its allocation" "")
wk_diff_replay_test(fuzz.differential_content_names_its_side fuzz_prog wk_test_write32_value_off
  seeds/render.after-relocation.bin
  "step 8 \\(expect_bytes\\) failed on the driver under test and held on the reference; on the driver under test: expected the listed bytes, seen byte \\+0x0 is 0xab, expected 0xaa" "")
wk_diff_replay_test(fuzz.differential_hold_catches_other_work fuzz_prog wk_test_nop_render_submits
  seeds/cancel.nop-render-not-held.bin "replay: 1 inputs ran" "FINDING")
wk_diff_replay_test(fuzz.differential_out_of_reach fuzz_prog wk_test_caps_32bit_dma
  seeds/high-memory.evict-and-page-in.bin "replay: 1 inputs ran" "FINDING")
add_test(NAME conform.highest_acceptable_address
  COMMAND wddmkit conform --driver $<TARGET_FILE:wk_test_caps_32bit_dma> --filter high-memory.*
          ${PROJECT_SOURCE_DIR}/specs/high-memory.yaml)
set_tests_properties(conform.highest_acceptable_address PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "2  the adapter's system memory reaches 0x1803fffff, above the driver's DXGK_DRIVERCAPS.HighestAcceptableAddress 0xffffffff.*3 of 3 cases in [0-9.]+ s: 1 pass, 2 skip")

# A BLIT beyond the GPU model's rows (16384) that the reference refuses and
# a driver of other hardware takes is no finding (its hardware's limits are
# its own: include/wddmkit/umd.h), as conform skips such cases for it
# (requires: gpu-model-limits); for a driver the model runs, the limit is
# its hardware's and taking the BLIT is a finding (outsider 7).
if(TARGET fuzz_prog_replay)
  add_test(NAME fuzz.differential_model_limit_other_hardware
    COMMAND ${CMAKE_COMMAND} -E env WK_FUZZ_NO_ABORT=1 WK_GPU=none WK_DRIVER=$<TARGET_FILE:wk_test_tall_blit_hardware>
            $<TARGET_FILE:fuzz_prog_replay> ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/render.blit-beyond-limits.bin)
  set_tests_properties(fuzz.differential_model_limit_other_hardware PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "replay: 1 inputs ran" FAIL_REGULAR_EXPRESSION "FINDING|left out")
endif()
wk_diff_replay_test(fuzz.differential_model_limit_on_the_model fuzz_prog wk_test_tall_blit_hardware
  seeds/render.blit-beyond-limits.bin
  "signature: finding: differential: render returned WK_OK on the driver under test" "")

# A GpuMmu driver: from the first step the physical reference cannot take
# (the process of a program that maps) the input runs on the driver alone,
# judged by the rules. The GpuMmu build passes every seed of its address
# spaces and virtual contexts; its planted twin that keeps a context's first
# root is found where the root moves (SUBMITV-GPU-001).
wk_diff_replay_test(fuzz.gpummu_alone_passes fuzz_prog wk_refdriver_gpummu
  seeds/gpu-va-contexts.two-processes.bin "replay: 1 inputs ran" "FINDING")
# Two inputs libFuzzer found on the GpuMmu build, no findings now: a mutated
# adapter whose segment lies at 2^56, past what the GPU's entries hold (not
# modelled), and one whose segment is too small for the kit's own page
# tables (the reference, which has no address space, needs none).
wk_diff_replay_test(fuzz.gpummu_memory_past_the_entries fuzz_prog wk_refdriver_gpummu
  regressions/gpummu-memory-past-entries.bin "replay: 1 inputs ran" "FINDING")
wk_diff_replay_test(fuzz.gpummu_tables_no_room fuzz_prog wk_refdriver_gpummu
  regressions/gpummu-tables-no-room.bin "replay: 1 inputs ran" "FINDING")
# ... and one whose case made a virtual context with SystemContext in a
# process: the driver took its root for the paging process's, and its
# TRANSFER_VIRTUAL ran in the case's space. Only the kernel makes a system
# context, in the paging process: the kit refuses such a step now.
wk_diff_replay_test(fuzz.gpummu_virtual_system_context fuzz_prog wk_refdriver_gpummu
  regressions/gpummu-virtual-system-context.bin "replay: 1 inputs ran" "FINDING")
# ... and one where an allocation mapped in a space was evicted, then
# discarded: the kit left its GPU virtual addresses on the freed system
# pages, so a buffer the case made to fault there ran, and the driver was
# blamed (SUBMITV-GPU-001). The kit now asks the entries invalid.
wk_diff_replay_test(fuzz.gpummu_discarded_while_evicted fuzz_prog wk_refdriver_gpummu
  regressions/gpummu-discarded-while-evicted.bin "replay: 1 inputs ran" "FINDING")
# ... and one whose case made a COPY fault on a source past the address
# bits the page tables index: the kit's GPU refused the address
# (BAD_ADDRESS, no page fault) and the driver was blamed. Such a step is the
# case's mistake now (invalid_argument).
wk_diff_replay_test(fuzz.gpummu_fault_past_the_va_bits fuzz_prog wk_refdriver_gpummu
  regressions/gpummu-fault-past-the-va-bits.bin "replay: 1 inputs ran" "FINDING")
# A driver that reports a page fault as DMA_FAULTED: found where a virtual
# buffer faults (PAGEFAULT-NOTIFY-001).
wk_diff_replay_test(fuzz.gpummu_page_fault_judged fuzz_prog wk_test_gpummu_pf_as_fault
  seeds/gpu-va-faults.unmapped-fill.bin
  "FINDING: contract violation at step 5 \\(submit_virtual\\).*PAGEFAULT-NOTIFY-001" "")
# ... and `wddmkit minimize` keeps that finding: the calibrated program
# expects the driver's own answers from the step the physical reference
# could not take (a virtual context), as the harness judges it alone
# (fuzz/crash/calibrate.c); it kept a status mismatch before.
if(TARGET wddmkit AND TARGET wk_test_gpummu_pf_as_fault)
  add_test(NAME fuzz.gpummu_minimize_keeps_the_finding
    COMMAND wddmkit minimize ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/gpu-va-faults.unmapped-fill.bin
            -o ${CMAKE_CURRENT_BINARY_DIR}/gpummu-pf-min.bin --driver $<TARGET_FILE:wk_test_gpummu_pf_as_fault>)
  set_tests_properties(fuzz.gpummu_minimize_keeps_the_finding PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "which the reference could not take, the driver under test's own answers.*signature: fail: PAGEFAULT-NOTIFY-001 in DxgkCbNotifyInterrupt.*wrote [^\n]*gpummu-pf-min.bin")
endif()
wk_diff_replay_test(fuzz.gpummu_alone_judged_by_rules fuzz_prog wk_test_gpummu_root_kept
  seeds/gpu-va-contexts.after-root-move.bin
  "FINDING: contract violation at step 10 \\(submit_virtual\\)" "")
