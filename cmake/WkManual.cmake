# SPDX-License-Identifier: MIT
# cmake -DWDDMKIT=EXE -DOUT=FILE -DWHAT=man|bash -P cmake/WkManual.cmake
#
# Writes the manual page (`wddmkit help --man`) or the bash completion
# (`wddmkit help --completion bash`) of the command just built into OUT:
# both come from the help text of every command (cli/cli_manual.c), so the
# installed ones cannot drift from the command. Written under a temporary
# name and renamed: a failed run leaves no half file for the next build to
# trust.
if(WHAT STREQUAL "man")
  set(_args help --man)
elseif(WHAT STREQUAL "bash")
  set(_args help --completion bash)
else()
  message(FATAL_ERROR "WkManual.cmake: WHAT must be man or bash, saw '${WHAT}'")
endif()
# A coverage build's command would write a profile here; a sanitizer
# build's must not fail the build over a leak report of this short run.
set(ENV{LLVM_PROFILE_FILE} /dev/null)
set(ENV{ASAN_OPTIONS} "detect_leaks=0:$ENV{ASAN_OPTIONS}")
execute_process(COMMAND ${WDDMKIT} ${_args} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "'${WDDMKIT} ${_args}' failed (${_rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
