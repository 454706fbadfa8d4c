# SPDX-License-Identifier: MIT
# tests/mutation_tests.cmake - the fast checks of the mutation bench
# (bench/mutation/, docs/detection.md), include()d by tests/CMakeLists.txt.
# The bench itself builds and runs hundreds of mutants and is never a test;
# these build none:
#
#   bench.mutation_equivalents  every entry of the committed equivalents
#       lists (bench/mutation/equivalent-*.tsv) still pins its token (file, line, column): a stale entry fails
#       and is named with what to fix.
#   bench.mutation_tool  the site finder on tests/data/mutation/sites.c gives
#       exactly sites.expected; the equivalents check fails on a stale entry
#       and names it; literals keep base and suffix; resume refusals.
#
# The bench is Python (standard library) and reads clang's lexer: without
# python3 or clang the checks are not registered, and configure says so.
find_package(Python3 COMPONENTS Interpreter QUIET)
find_program(WK_CLANG_FOR_MUTATION clang)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "bench.mutation_* not registered: no python3 (apt-get install -y python3)")
  return()
endif()
set(_mutation ${PROJECT_SOURCE_DIR}/bench/mutation)
# Every committed list, bench/mutation/equivalent-<driver>.tsv.
file(GLOB _equivalents CONFIGURE_DEPENDS ${_mutation}/equivalent-*.tsv)
add_test(NAME bench.mutation_equivalents
  COMMAND ${Python3_EXECUTABLE} ${_mutation}/mutation.py --check-equivalents ${_equivalents}
          --source-root ${PROJECT_SOURCE_DIR})
set_tests_properties(bench.mutation_equivalents PROPERTIES LABELS "unit" TIMEOUT 20
  PASS_REGULAR_EXPRESSION "equivalents: [0-9]+ entries match the source")
if(WK_CLANG_FOR_MUTATION)
  add_test(NAME bench.mutation_tool COMMAND ${Python3_EXECUTABLE} ${_mutation}/test_mutation.py)
  set_tests_properties(bench.mutation_tool PROPERTIES LABELS "unit" TIMEOUT 30)
else()
  message(STATUS "bench.mutation_tool not registered: no clang (apt-get install -y clang)")
endif()
