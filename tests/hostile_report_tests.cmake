# SPDX-License-Identifier: MIT
# tests/hostile_report_tests.cmake - what a crash report says about a hostile
# driver (issue 22, "Precise crash reports"; tests/hostile_reports.sh): the
# end of a dying case's output, no "address" for a signal that carries none,
# the DDI a driver called exit() or _exit() in, a SIGSEGV handler of the
# driver's own that cannot turn a guard-page hit into a hang, a module
# built for another machine named as such, the same DDI named by repro and
# triage, a driver thread's crash named by its thread, not by the DDI the
# kit's thread waited in; a stack overflow, an endless loop, an output
# flood, and descriptors closed or hijacked under the kit. One build of
# tests/driver_build/render_ends.c per way its DxgkDdiRender ends, one of
# thread_crash.c per kind of thread.
set(_render_ends noisy_abort abort exit _exit segv_handler recurse spin flood close_fds hijack_fds blocked exit0 spin_blocked divide)
set(_i 0)
foreach(way ${_render_ends})
  math(EXPR _i "${_i} + 1")
  wk_add_refwrap_module(wk_test_render_${way} ${CMAKE_CURRENT_LIST_DIR}/driver_build/render_ends.c)
  target_compile_definitions(wk_test_render_${way} PRIVATE WK_TEST_RENDER_ENDS=${_i})
endforeach()
# The division must reach the CPU's SIGFPE, not UBSan's report of it (the
# asan preset sanitizes the test drivers).
target_compile_options(wk_test_render_divide PRIVATE -fno-sanitize=integer-divide-by-zero)
# tests/driver_build/thread_crash.c: Render waits for a worker that dies of
# a NULL dereference, a system thread or a raw pthread of the driver's.
set(_thread_kinds system raw spin)
set(_i 0)
foreach(kind ${_thread_kinds})
  math(EXPR _i "${_i} + 1")
  wk_add_refwrap_module(wk_test_thread_crash_${kind} ${CMAKE_CURRENT_LIST_DIR}/driver_build/thread_crash.c)
  target_compile_definitions(wk_test_thread_crash_${kind} PRIVATE WK_TEST_THREAD_CRASH=${_i})
endforeach()

# tests/driver_build/callback_from_thread.c: a callback's bad arguments from
# a thread of the driver's, seen at a case's violations check.
wk_add_refwrap_module(wk_test_callback_from_thread ${CMAKE_CURRENT_LIST_DIR}/driver_build/callback_from_thread.c)

# tests/driver_build/segment_moved.c: a segment where the hardware has no memory.
wk_add_refwrap_module(wk_test_segment_moved ${CMAKE_CURRENT_LIST_DIR}/driver_build/segment_moved.c)
# tests/driver_build/patch_const.c: DxgkDdiPatch writes to a const input.
set(_i 0)
foreach(way args alloc patch)
  math(EXPR _i "${_i} + 1")
  wk_add_refwrap_module(wk_test_patch_const_${way} ${CMAKE_CURRENT_LIST_DIR}/driver_build/patch_const.c)
  target_compile_definitions(wk_test_patch_const_${way} PRIVATE WK_TEST_PATCH_CONST=${_i})
endforeach()

find_program(WK_BASH bash)
# wk_hostile_test(NAME SCRIPT MODE ARGS...): the ctest cli.hostile_NAME, one
# MODE of the bash script SCRIPT beside this file, run as `SCRIPT wddmkit
# MODE ARGS...`; it passes when the script ends with "SCRIPT MODE: all
# checks passed" (tests/hostile_lib.sh), and is skipped when it exits 77
# (what it needs is missing here). Every hostile-driver test is registered through it.
function(wk_hostile_test name script mode)
  add_test(NAME cli.hostile_${name}
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/${script}.sh $<TARGET_FILE:wddmkit> ${mode} ${ARGN})
  set_tests_properties(cli.hostile_${name} PROPERTIES LABELS "unit" TIMEOUT 30 SKIP_RETURN_CODE 77
    PASS_REGULAR_EXPRESSION "${script} ${mode}: all checks passed")
endfunction()
if(WK_BASH)
  function(wk_hostile_report name mode driver)
    wk_hostile_test(${name} hostile_reports ${mode} ${PROJECT_SOURCE_DIR}/specs/smoke.yaml ${driver}
                    ${CMAKE_CURRENT_BINARY_DIR}/hostile-${name}
                    ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/smoke.render-all-commands.bin)
  endfunction()
  wk_hostile_report(output_tail tail $<TARGET_FILE:wk_test_render_noisy_abort>)
  wk_hostile_report(abort_no_address noaddr $<TARGET_FILE:wk_test_render_abort>)
  wk_hostile_report(exit_names_ddi exit $<TARGET_FILE:wk_test_render_exit>)
  wk_hostile_report(underscore_exit_names_ddi exit $<TARGET_FILE:wk_test_render__exit>)
  wk_hostile_report(own_segv_handler segv-handler $<TARGET_FILE:wk_test_render_segv_handler>)
  wk_hostile_report(blocked_signals segv-handler $<TARGET_FILE:wk_test_render_blocked>)
  wk_hostile_report(stack_overflow overflow $<TARGET_FILE:wk_test_render_recurse>)
  wk_hostile_report(endless_loop spin $<TARGET_FILE:wk_test_render_spin>)
  wk_hostile_report(output_flood flood $<TARGET_FILE:wk_test_render_flood>)
  wk_hostile_report(closed_fds fds $<TARGET_FILE:wk_test_render_close_fds>)
  wk_hostile_report(hijacked_fds fds $<TARGET_FILE:wk_test_render_hijack_fds>)
  wk_hostile_report(foreign_arch foreign none)
  wk_hostile_report(exit_in_ddi_repro exit-repro $<TARGET_FILE:wk_test_render_exit>)
  wk_hostile_report(exit_in_ddi_replay exit-replay $<TARGET_FILE:wk_test_render_exit>)
  wk_hostile_report(exit0_in_ddi_replay exit0-replay $<TARGET_FILE:wk_test_render_exit0>)
  wk_hostile_report(timeout_names_ddi timeout $<TARGET_FILE:wk_test_render_spin_blocked>)
  wk_hostile_report(fpe_module_offset fpe $<TARGET_FILE:wk_test_render_divide>)
  wk_hostile_report(closed_fds_replay fds-replay $<TARGET_FILE:wk_test_render_close_fds>)
  wk_hostile_report(hijacked_fds_replay fds-replay $<TARGET_FILE:wk_test_render_hijack_fds>)
  wk_hostile_report(worker_thread_crash thread-system $<TARGET_FILE:wk_test_thread_crash_system>)
  wk_hostile_report(raw_thread_crash thread-raw $<TARGET_FILE:wk_test_thread_crash_raw>)
  wk_hostile_report(spun_thread_crash thread-raw $<TARGET_FILE:wk_test_thread_crash_spin>)
endif()
