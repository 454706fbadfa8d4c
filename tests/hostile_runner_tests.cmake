# SPDX-License-Identifier: MIT
# tests/hostile_runner_tests.cmake - a driver cannot rewrite the run's
# results by path, nor stop the run with a signal to the kit's processes
# (docs/threat-model.md, "Against the run"; tests/hostile_runner.sh):
# tests/driver_build/runner_attack.c built three ways (the journal
# rewritten from DriverEntry, SIGTERM to the runner, SIGTERM to the case's
# shepherd), each through `conform` in well under a second.
set(_runner_attacks journal runner shepherd)
set(_i 0)
foreach(way ${_runner_attacks})
  math(EXPR _i "${_i} + 1")
  wk_add_refwrap_module(wk_test_runner_attack_${way} ${CMAKE_CURRENT_LIST_DIR}/driver_build/runner_attack.c)
  target_compile_definitions(wk_test_runner_attack_${way} PRIVATE WK_TEST_RUNNER_ATTACK=${_i})
endforeach()

find_program(WK_BASH bash)
if(WK_BASH)
  function(wk_hostile_runner name mode driver)
    wk_hostile_test(${name} hostile_runner ${mode} ${PROJECT_SOURCE_DIR}/specs/smoke.yaml ${driver}
                    ${CMAKE_CURRENT_BINARY_DIR}/hostile-${name})
  endfunction()
  wk_hostile_runner(journal_rewrite journal $<TARGET_FILE:wk_test_runner_attack_journal>)
  wk_hostile_runner(signal_runner signal-runner $<TARGET_FILE:wk_test_runner_attack_runner>)
  wk_hostile_runner(signal_shepherd signal-shepherd $<TARGET_FILE:wk_test_runner_attack_shepherd>)
endif()
