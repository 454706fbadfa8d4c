# SPDX-License-Identifier: MIT
# expect_rule.cmake - runs `wddmkit conform` (COMMAND, a ;-list) on a
# planted-bug driver and checks which rules the run blames, for
# tests/planted_tests.cmake:
#
#   cmake -DCOMMAND=... -DRULE=ID -DWANT=caught -P expect_rule.cmake
#       exit 1 and RULE among the rules blamed;
#   cmake -DCOMMAND=... -DRULE=ID -DWANT=gap -DEXPECT=0|1 [-DSEEN=regex] -P ...
#       today's state of a gap: exit EXPECT, RULE not blamed, and the output
#       matches SEEN (what the suite does see today), so that closing the
#       gap in the kit makes the test fail.
#
# The rules blamed are read from the summary's "unexpected results by rule"
# section, and from each case's "rule:" line, since the summary prints that
# section only from 6 unexpected results on (conformance/runner/
# report_console.c). Either way, nothing may blame the kit: no case is an
# `error` (the kit could not run it), the run is complete, and no kit
# invariant or binding rule appears.
cmake_policy(SET CMP0057 NEW) # if(... IN_LIST ...)
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")

# The rule IDs blamed: the section's lines ("  12  RULE") and the cases'
# ("    rule:     RULE").
set(blamed "")
string(REGEX MATCH "\nunexpected results by rule:\n(  +[0-9]+  [^\n]*\n)+" section "${all}")
string(REGEX MATCHALL "  +[0-9]+  [A-Z]+-[A-Z]+-[0-9]+\n" lines "${section}")
string(REGEX MATCHALL "\n    rule: +[A-Z]+-[A-Z]+-[0-9]+\n" case_lines "${all}")
foreach(line IN LISTS lines case_lines)
  string(REGEX MATCH "[A-Z]+-[A-Z]+-[0-9]+" id "${line}")
  list(APPEND blamed ${id})
endforeach()
list(REMOVE_DUPLICATES blamed)

if(all MATCHES "[:,] [0-9]+ error|RESULT: INCOMPLETE|RESULT: SPEC ERRORS|KIT INVARIANT|internal invariant|BIND-[A-Z]+-[0-9]+")
  message(FATAL_ERROR "the run blames the kit (an error verdict, an incomplete run, a kit invariant or a binding rule)")
endif()
if(NOT all MATCHES "\n[0-9]+ of [0-9]+ cases in ")
  message(FATAL_ERROR "no summary line: the suite did not run (exit ${code})")
endif()

if(WANT STREQUAL "caught")
  if(NOT code EQUAL 1)
    message(FATAL_ERROR "exit code ${code}, expected 1: the planted bug is not caught")
  endif()
  if(NOT RULE IN_LIST blamed)
    message(FATAL_ERROR "caught, but not by ${RULE}: the rules blamed are '${blamed}'")
  endif()
elseif(WANT STREQUAL "gap")
  if(NOT code EQUAL EXPECT)
    message(FATAL_ERROR "exit code ${code}, the gap's state is exit ${EXPECT}: the kit changed, "
                        "update CATALOGUE.md and this test")
  endif()
  if(RULE IN_LIST blamed)
    message(FATAL_ERROR "${RULE} now catches this bug: the gap is closed, make it a caught test")
  endif()
  if(DEFINED SEEN AND NOT all MATCHES "${SEEN}")
    message(FATAL_ERROR "the output no longer matches the gap's state '${SEEN}'")
  endif()
else()
  message(FATAL_ERROR "WANT is caught or gap, not '${WANT}'")
endif()
