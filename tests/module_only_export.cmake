# SPDX-License-Identifier: MIT
# tests/module_only_export.cmake - a module's dynamic symbol table defines
# exactly one symbol of its own: run with `cmake -P`, -DNM=<nm>
# -DMODULE=<file.so> -DONLY=<symbol>. A binding (wddmkit/binding.h) is
# found by its one exported object; anything else it exported could bind
# to the kit's symbols or the driver's in the process that loads it.
execute_process(COMMAND ${NM} -D --defined-only ${MODULE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "module_only_export: ${NM} -D ${MODULE} failed: ${err}")
endif()
string(REGEX MATCHALL "[^\n ]+\n" lines "${out}\n")
set(defined)
foreach(line IN LISTS lines)
  string(STRIP "${line}" name)
  if(name MATCHES "^(_init|_fini|_edata|_end|__bss_start)$" OR name STREQUAL "")
    continue()
  endif()
  list(APPEND defined ${name})
endforeach()
if(NOT defined STREQUAL "${ONLY}")
  message(FATAL_ERROR "module_only_export: ${MODULE} defines [${defined}], expected only ${ONLY}")
endif()
message(STATUS "module_only_export: ${MODULE} exports only ${ONLY}")
