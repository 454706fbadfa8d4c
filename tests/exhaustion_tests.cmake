# SPDX-License-Identifier: MIT
# tests/exhaustion_tests.cmake - a run whose processes or descriptors run
# out (issue 22: "EAGAIN/EMFILE on fork, pipe or open is retried with
# backoff for at most 10 s, then the case is error naming the errno, never
# a driver failure"; tests/hostile_exhaustion.sh). Cases wait for running
# ones to end and then pass; with nothing to wait for, they are `error`
# naming the call and the errno after --resource-wait. The process test
# needs root (to run as nobody, whose RLIMIT_NPROC is then counted alone;
# root ignores the limit itself) and is skipped otherwise.
wk_add_refwrap_module(wk_test_hog_processes ${CMAKE_CURRENT_LIST_DIR}/driver_build/hog_processes.c)

find_program(WK_BASH bash)
if(WK_BASH)
  function(wk_hostile_exhaustion name mode driver)
    wk_hostile_test(${name} hostile_exhaustion ${mode} ${PROJECT_SOURCE_DIR}/specs/smoke.yaml ${driver}
                    ${CMAKE_CURRENT_BINARY_DIR}/hostile-${name})
  endfunction()
  wk_hostile_exhaustion(fd_exhaustion fd none)
  wk_hostile_exhaustion(process_exhaustion nproc $<TARGET_FILE:wk_test_hog_processes>)
endif()
