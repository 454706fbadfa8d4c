# SPDX-License-Identifier: MIT
# tests/gpu_none_tests.cmake - what executes a driver's buffers (`wddmkit
# conform --gpu model|none|auto`, docs/verdicts.md "Kinds of check"),
# include()d by tests/CMakeLists.txt:
#
#   gpu.auto_marked      the reference driver's module declares
#                        WK_DRIVER_TARGETS_GPU_MODEL: the model runs, every
#                        semantic check is run but those of the
#                        SPECIAL_LOCK_TRANSFER steps the contract profile
#                        does not ask a WDDM 2.2 driver (facts P16) and
#                        those of GPU virtual addressing (specs/gpu-va.yaml:
#                        a GpuMmu driver's);
#   gpu.auto_unmarked    the same driver built without the marker is taken
#                        for other hardware: nothing executes its buffers,
#                        the semantic and encoder checks are skipped with the
#                        reason, no case fails, every contract check runs;
#   gpu.force_model      --gpu model on the unmarked module runs them all;
#   gpu.none_reference   --gpu none, reference profile: the negative cases
#                        whose rule needs execution are skips, none fails;
#   gpu.none_catches     a contract bug is still caught with --gpu none
#                        (buggy_paging_restart: PAGING-PROGRESS-001);
#   gpu.bad_value        --gpu other: a usage error.
get_target_property(_wk_refdriver_sources wk_refdriver_static SOURCES)
add_library(wk_refdriver_unmarked MODULE ${_wk_refdriver_sources})
target_include_directories(wk_refdriver_unmarked PRIVATE ${PROJECT_SOURCE_DIR}/include)
set_target_properties(wk_refdriver_unmarked PROPERTIES C_VISIBILITY_PRESET hidden POSITION_INDEPENDENT_CODE ON PREFIX "")
target_link_libraries(wk_refdriver_unmarked PRIVATE wk_gpu)
target_link_options(wk_refdriver_unmarked PRIVATE -Wl,--exclude-libs,ALL)
wk_target_warnings(wk_refdriver_unmarked)
wk_sanitize_driver_code(TARGETS wk_refdriver_unmarked)

add_test(NAME gpu.auto_marked COMMAND wddmkit conform -j 2 --quiet --driver $<TARGET_FILE:wk_refdriver>)
set_tests_properties(gpu.auto_marked PROPERTIES LABELS "conform;unit" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "gpu: +the kit's GPU model executes the driver's buffers \\(the driver declares WK_DRIVER_TARGETS_GPU_MODEL\\).*semantic +[1-9][0-9]* run(, [1-9][0-9]* skipped: (the driver reports WDDMVersion 0x2200 \\(DXGK_DRIVERCAPS\\): SPECIAL_LOCK_TRANSFER|no GPU virtual address space: the driver is not a GpuMmu driver|a context on node 1, but the driver reports 1 node)[^\n]*)?\n.*RESULT: all as expected")
add_test(NAME gpu.auto_unmarked COMMAND wddmkit conform -j 2 --quiet --driver $<TARGET_FILE:wk_refdriver_unmarked>)
set_tests_properties(gpu.auto_unmarked PROPERTIES LABELS "conform;unit" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "gpu: +none: nothing executes the driver's buffers \\(the driver does not declare WK_DRIVER_TARGETS_GPU_MODEL\\).*contract +[1-9][0-9]* run.*semantic +0 run, [1-9][0-9]* skipped: nothing executes the driver's buffers \\(--gpu none\\).*encoder +0 run, [1-9][0-9]* skipped: the case hands the driver the kit's own UMD format.*[0-9]+ pass, [0-9]+ skip\nRESULT: all as expected")
add_test(NAME gpu.force_model COMMAND wddmkit conform -j 2 --quiet --gpu model --driver $<TARGET_FILE:wk_refdriver_unmarked>)
set_tests_properties(gpu.force_model PROPERTIES LABELS "conform;unit" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "gpu: +the kit's GPU model executes the driver's buffers \\(given with --gpu; the driver does not declare WK_DRIVER_TARGETS_GPU_MODEL: a failed check.*semantic +[1-9][0-9]* run(, [1-9][0-9]* skipped: (the driver reports WDDMVersion 0x2200 \\(DXGK_DRIVERCAPS\\): SPECIAL_LOCK_TRANSFER|no GPU virtual address space: the driver is not a GpuMmu driver|a context on node 1, but the driver reports 1 node)[^\n]*)?\n.*RESULT: all as expected")
add_test(NAME gpu.none_reference COMMAND wddmkit conform -j 2 --quiet --gpu none --profile reference)
set_tests_properties(gpu.none_reference PROPERTIES LABELS "conform;unit" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "PAGING-FILL-001 is checked by executing the driver's buffers.*semantic +0 run.*RESULT: all as expected")
if(TARGET buggy_paging_restart)
  add_test(NAME gpu.none_catches COMMAND wddmkit conform -j 2 --quiet --gpu none --driver $<TARGET_FILE:buggy_paging_restart>)
  set_tests_properties(gpu.none_catches PROPERTIES LABELS "conform;unit" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "PAGING-PROGRESS-001.*RESULT: UNEXPECTED RESULTS")
endif()
add_test(NAME gpu.bad_value COMMAND wddmkit conform --gpu gpu2)
set_tests_properties(gpu.bad_value PROPERTIES LABELS "unit"
  PASS_REGULAR_EXPRESSION "wddmkit conform: --gpu: expected model, none or auto, saw 'gpu2'")

# The fuzz harnesses against a driver for other hardware: the differential
# compares statuses and rules, never contents (fuzz/driver/differential.c),
# so the seeds raise no finding on a correct driver without the marker;
# fuzz_render, whose every input is the kit's own user commands, says at
# start that it cannot fuzz such a driver and exits 2.
add_test(NAME fuzz.gpu_none_prog
  COMMAND ${CMAKE_COMMAND} -E env WK_DRIVER=$<TARGET_FILE:wk_refdriver_unmarked>
          $<TARGET_FILE:fuzz_prog_replay> ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds)
set_tests_properties(fuzz.gpu_none_prog PROPERTIES LABELS "unit" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "does not declare WK_DRIVER_TARGETS_GPU_MODEL: nothing executes its buffers.*replay: [1-9][0-9]* inputs ran"
  FAIL_REGULAR_EXPRESSION "FINDING")
add_test(NAME fuzz.gpu_none_render_refused
  COMMAND sh -c "WK_DRIVER='$<TARGET_FILE:wk_refdriver_unmarked>' '$<TARGET_FILE:fuzz_render_replay>' \
'${PROJECT_SOURCE_DIR}/corpus/fuzz_render/seeds' 2>&1; echo \"exit $?\"")
set_tests_properties(fuzz.gpu_none_render_refused PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "this harness cannot fuzz .*wk_refdriver_unmarked.so: every input hands the driver the kit's own user-mode format.*exit 2")

# The cases at the GPU model's own limits (requires: gpu-model-limits) judge
# only a driver whose buffers the model runs: with --gpu none the reference
# driver, which reads the kit's UMD format, skips them with the reason
# (outsider 5's hardware blits at most 16 KiB a row and refused the 1 MiB
# row as umd.h lets it), and with the model it runs and passes them.
add_test(NAME gpu.none_model_limits_skipped
  COMMAND wddmkit conform --gpu none --umd kit --filter render.blit-at-* ${PROJECT_SOURCE_DIR}/specs/render.yaml)
set_tests_properties(gpu.none_model_limits_skipped PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "the case works at the kit's GPU's own limits.*this driver's hardware has its own.*2 of 2 cases in [0-9.]+ s: 2 skip")
add_test(NAME gpu.model_limits_run
  COMMAND wddmkit conform --filter render.blit-at-* ${PROJECT_SOURCE_DIR}/specs/render.yaml)
set_tests_properties(gpu.model_limits_run PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "2 of 2 cases in [0-9.]+ s: 2 pass")

# A driver that reads the kit's user-mode format (WK_DRIVER_READS_KIT_UMD)
# on a hardware binding with no encoder (the test binding TB_GOOD, whose
# processor runs the kit's command set) is fuzzed as conform judges it:
# fuzz_prog runs its render steps and fuzz_render runs at all. Its planted
# Patch bug (each address a page too high, PATCH-VALUE-001) is found by
# both; before, fuzz_prog ended the comparison at the first render step and
# fuzz_render exited 2 (outsider 5's driver, whose Patch bug conform caught).
wk_add_refwrap_module(wk_test_kit_umd_patch_value_off ${CMAKE_CURRENT_LIST_DIR}/driver_build/kit_umd_patch_value_off.c)
add_test(NAME fuzz.kit_umd_prog_renders
  COMMAND ${CMAKE_COMMAND} -E env WK_BINDING=$<TARGET_FILE:wk_test_binding_good> WK_FUZZ_NO_ABORT=1
          WK_DRIVER=$<TARGET_FILE:wk_test_kit_umd_patch_value_off>
          $<TARGET_FILE:fuzz_prog_replay> ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/patch.aperture-no-prepatch.bin)
set_tests_properties(fuzz.kit_umd_prog_renders PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "signature: PATCH-VALUE-001 in DxgkDdiPatch")
add_test(NAME fuzz.kit_umd_render_runs
  COMMAND ${CMAKE_COMMAND} -E env WK_BINDING=$<TARGET_FILE:wk_test_binding_good> WK_FUZZ_NO_ABORT=1
          WK_DRIVER=$<TARGET_FILE:wk_test_kit_umd_patch_value_off>
          $<TARGET_FILE:fuzz_render_replay> ${PROJECT_SOURCE_DIR}/corpus/fuzz_render/seeds)
set_tests_properties(fuzz.kit_umd_render_runs PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "signature: PATCH-VALUE-001 in DxgkDdiPatch.*replay: [1-9][0-9]* inputs ran"
  FAIL_REGULAR_EXPRESSION "cannot fuzz")
