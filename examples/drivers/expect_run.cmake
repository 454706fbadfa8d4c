# SPDX-License-Identifier: MIT
# expect_run.cmake - runs COMMAND (a ;-list) and checks both its exit code
# (EXPECT) and its output (REGEX, on stdout and stderr together): ctest
# alone checks one or the other. Used by the planted-bug tests.
#   cmake -DEXPECT=1 -DREGEX=... -DCOMMAND=prog;arg;... -P expect_run.cmake
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${code}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'")
endif()
