# SPDX-License-Identifier: MIT
# tests/fence_id_tests.cmake - fence ids past 16 bits; include()d by
# tests/CMakeLists.txt.
#
#   conform.fence_16bit  a driver whose interrupt routine keeps the fence ids
#       it reports in 16 bits (driver_build/fence_16bit.c): the cases that
#       start the adapter's ids high (adapter first_fence, specs/
#       submit-fence.yaml, submit-fence.ids-*) fail with INTR-FENCE-001,
#       naming the truncated id; the cases with the kit's usual small ids
#       pass. Without first_fence every id stays below 0x10000 and the bug
#       passes every case.
#   fuzz.fence_16bit_seed, fuzz.fence_16bit_low_ids  below.
wk_add_refwrap_module(wk_test_fence_16bit ${CMAKE_CURRENT_LIST_DIR}/driver_build/fence_16bit.c)
add_test(NAME conform.fence_16bit
  COMMAND wddmkit conform --driver $<TARGET_FILE:wk_test_fence_16bit> --filter submit-fence.*
          ${PROJECT_SOURCE_DIR}/specs/submit-fence.yaml)
set_tests_properties(conform.fence_16bit PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "fail submit-fence.held-above-16-bit\n +rule: +INTR-FENCE-001.*fail submit-fence.ids-above-16-bit\n +rule: +INTR-FENCE-001.*fail submit-fence.ids-cross-16-bit\n +rule: +INTR-FENCE-001\n[^\n]*\n +seen: +INTR-FENCE-001: DxgkCbNotifyInterrupt: fence 0 reported complete, but no such fence is pending \\(last completed 65535\\).*fail submit-fence.ids-cross-31-bit\n +rule: +INTR-FENCE-001.*fail submit-fence.ids-end-at-32-bit-top\n +rule: +INTR-FENCE-001.*32 of 32 cases in [0-9.]+ s: 16 pass, 5 fail, 11 skip")
# fuzz.fence_16bit_seed: the same driver under fuzz_prog, on the seed of
# submit-fence.ids-cross-16-bit: the seed carries the first fence id
# (knob bit 4 of the program format) and the differential's finding is
# the rule's; a seed without it finds nothing (fuzz.fence_16bit_low_ids).
wk_diff_replay_test(fuzz.fence_16bit_seed fuzz_prog wk_test_fence_16bit
  seeds/submit-fence.ids-cross-16-bit.bin
  "FINDING: contract violation at step 4 \\(render\\).*signature: INTR-FENCE-001 in DxgkCbNotifyInterrupt" "")
wk_diff_replay_test(fuzz.fence_16bit_low_ids fuzz_prog wk_test_fence_16bit
  seeds/submit-fence.one-render.bin "replay: 1 inputs ran" "FINDING")
