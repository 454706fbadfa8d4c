# SPDX-License-Identifier: MIT
# tests/module_exports.cmake - a driver module (or kmcpp.h's test module)
# exports no operator new or delete: run with `cmake -P`, -DNM=<nm>
# -DMODULE=<file.so>. kmcpp.h defines the plain forms hidden, so the
# module's calls bind to its own pool forms and the process that loads it
# keeps its own (kmcpp.module_exports, cppgpu.exports).
execute_process(COMMAND ${NM} -D --defined-only ${MODULE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "module_exports: ${NM} -D ${MODULE} failed: ${err}")
endif()
string(REGEX MATCHALL "[^\n]* _Z(nw|na|dl|da)[^\n]*" exported "${out}")
if(exported)
  message(FATAL_ERROR "module_exports: ${MODULE} exports operator new or delete:\n${exported}")
endif()
message(STATUS "module_exports: no operator new or delete exported by ${MODULE}")
