# SPDX-License-Identifier: MIT
# tests/isolation_tests.cmake - a driver can neither forge a verdict nor
# outlive its case (issue 22; docs/threat-model.md;
# tests/hostile_isolation.sh): tests/driver_build/forge_result.c built two
# ways (a forged PASS record on every inherited fd, from Render then
# _exit(0), from an atexit handler, or from a thread that goes on forging
# while the case finishes normally), and tests/driver_build/fork_orphan.c
# (a grandchild in a session of its own, sleeping 60 s). Each through
# `conform` and `repro`, in about a second. And `conform --no-fork` runs
# DriverEntry once per process (tests/driver_build/entry_once.c: a second
# DriverEntry fails).
set(_forge_ways fd atexit thread)
set(_i 0)
foreach(way ${_forge_ways})
  math(EXPR _i "${_i} + 1")
  wk_add_refwrap_module(wk_test_forge_${way} ${CMAKE_CURRENT_LIST_DIR}/driver_build/forge_result.c)
  target_compile_definitions(wk_test_forge_${way} PRIVATE WK_TEST_FORGE=${_i})
  # the record's layout (conformance/runner/isolation.h): the best forgery
  target_include_directories(wk_test_forge_${way} PRIVATE ${PROJECT_SOURCE_DIR}/conformance
                             ${PROJECT_SOURCE_DIR}/reference-impl ${PROJECT_SOURCE_DIR}/util)
endforeach()
wk_add_refwrap_module(wk_test_fork_orphan ${CMAKE_CURRENT_LIST_DIR}/driver_build/fork_orphan.c)
wk_add_refwrap_module(wk_test_entry_once ${CMAKE_CURRENT_LIST_DIR}/driver_build/entry_once.c)

find_program(WK_BASH bash)
if(WK_BASH)
  function(wk_hostile_isolation name mode driver)
    wk_hostile_test(${name} hostile_isolation ${mode} ${PROJECT_SOURCE_DIR}/specs/smoke.yaml
                    ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/smoke.render-all-commands.bin
                    ${driver} ${CMAKE_CURRENT_BINARY_DIR}/hostile-${name})
  endfunction()
  wk_hostile_isolation(forged_fd_record forge-fd $<TARGET_FILE:wk_test_forge_fd>)
  wk_hostile_isolation(forged_atexit_record forge-atexit $<TARGET_FILE:wk_test_forge_atexit>)
  wk_hostile_isolation(forged_thread_record forge-thread $<TARGET_FILE:wk_test_forge_thread>)
  wk_hostile_isolation(setsid_orphan_killed orphan $<TARGET_FILE:wk_test_fork_orphan>)
  wk_hostile_isolation(no_fork_single_entry no-fork-entry $<TARGET_FILE:wk_test_entry_once>)
endif()

# A fuzz harness builds a new adapter whenever an input's knobs change, in
# one process: DriverEntry still runs once (fuzz/driver/adapters.c). Three
# seeds on three adapters; entry_once.c's second DriverEntry fails, which
# read as a finding ("does not start on an adapter the reference starts on").
if(TARGET fuzz_prog_replay)
  set(_seeds ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds)
  add_test(NAME cli.hostile_fuzz_single_entry
    COMMAND ${CMAKE_COMMAND} -E env WK_DRIVER=$<TARGET_FILE:wk_test_entry_once>
            $<TARGET_FILE:fuzz_prog_replay> ${_seeds}/adapter-start.reference-clean.bin
            ${_seeds}/adapter-start.eight-segments.bin ${_seeds}/adapter-start.one-memory-segment.bin)
  set_tests_properties(cli.hostile_fuzz_single_entry PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "replay: 3 inputs ran" FAIL_REGULAR_EXPRESSION "FINDING|called 2 times")
endif()

# The launchers that run the driver outside `conform` kill what it leaves
# too (tests/hostile_launchers.sh, with fork_orphan.c): `wddmkit fuzz` with
# a stand-in engine that runs the real replay binary, ending at --time or
# stopped by SIGTERM, and `wddmkit coverage` of the driver built with
# clang's coverage flags (skipped without clang and the LLVM tools).
if(WK_BASH AND TARGET fuzz_render_replay)
  function(wk_hostile_launcher name mode driver)
    wk_hostile_test(${name} hostile_launchers ${mode} $<TARGET_FILE:fuzz_render_replay> ${driver}
                    ${CMAKE_CURRENT_BINARY_DIR}/hostile-${name} ${ARGN})
  endfunction()
  wk_hostile_launcher(fuzz_orphan_killed fuzz $<TARGET_FILE:wk_test_fork_orphan>)
  wk_hostile_launcher(fuzz_stopped_orphan_killed fuzz-term $<TARGET_FILE:wk_test_fork_orphan>)
  wk_hostile_launcher(coverage_orphan_killed coverage ${PROJECT_SOURCE_DIR}
                      "$<TARGET_FILE:wk_refdriver_static> $<TARGET_FILE:wk_gpu>")
endif()

# A driver that turns on the kit's shepherd (stops it, or kills it after
# leaving an orphan that holds the case's pipes), or leaves an orphan from
# DriverEntry in the load probe (tests/hostile_shepherd.sh, with
# tests/driver_build/signal_shepherd.c built one way per WK_TEST_SHEPHERD):
# never a hang, an answer at once, nothing left.
foreach(way 1 2 3 4 5)
  wk_add_refwrap_module(wk_test_signal_shepherd_${way} ${CMAKE_CURRENT_LIST_DIR}/driver_build/signal_shepherd.c)
  target_compile_definitions(wk_test_signal_shepherd_${way} PRIVATE WK_TEST_SHEPHERD=${way})
endforeach()
if(WK_BASH)
  function(wk_hostile_shepherd name mode)
    wk_hostile_test(${name} hostile_shepherd ${mode} ${PROJECT_SOURCE_DIR}/specs/smoke.yaml
                    ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/smoke.render-all-commands.bin
                    ${CMAKE_CURRENT_BINARY_DIR}/hostile-${name} ${ARGN})
  endfunction()
  wk_hostile_shepherd(stopped_shepherd stopped $<TARGET_FILE:wk_test_signal_shepherd_1>)
  wk_hostile_shepherd(stopped_shepherd_repeated stopped-repeated $<TARGET_FILE:wk_test_signal_shepherd_1>)
  wk_hostile_shepherd(killed_shepherd_orphan killed-orphan $<TARGET_FILE:wk_test_signal_shepherd_2>)
  wk_hostile_shepherd(probe_orphan probe-orphan $<TARGET_FILE:wk_test_signal_shepherd_3>
                      $<TARGET_FILE:wk_test_signal_shepherd_4>)
  wk_hostile_shepherd(probe_stopped_parent probe-stopped $<TARGET_FILE:wk_test_signal_shepherd_5>)
endif()
