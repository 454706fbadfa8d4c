# SPDX-License-Identifier: MIT
# tests/journal_tests.cmake - nothing finished is lost (include()d by
# tests/CMakeLists.txt): the journal `conform` appends each finished case
# to, the reports rendered from it on SIGPIPE, SIGTERM and after SIGKILL
# (--resume), and a resume refused for another driver, spec set or options
# (tests/conform_journal.sh). slow_start.c is the reference driver whose
# StartDevice sleeps, so a run can be stopped with cases still to come.
wk_add_refwrap_module(wk_test_slow_start ${CMAKE_CURRENT_LIST_DIR}/driver_build/slow_start.c)
if(WK_BASH)
  add_test(NAME conform.journal
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/conform_journal.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_test_slow_start> $<TARGET_FILE:wk_test_crash_once> ${PROJECT_SOURCE_DIR}/specs
            ${CMAKE_CURRENT_BINARY_DIR}/conform-journal)
  set_tests_properties(conform.journal PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "conform_journal: all checks passed")
endif()
