# SPDX-License-Identifier: MIT
# tests/planted_tests.cmake - the planted-bug catalogue
# (examples/drivers/planted/catalogue.tsv, CATALOGUE.md), include()d by
# tests/CMakeLists.txt: the conformance half of the detection matrix
# (docs/detection-matrix.md).
#
# For each entry, the whole suite in the entry's profile (contract, the
# profile any driver is judged in, unless the entry says otherwise) against
# its driver, the reference driver with one realistic bug planted into one
# DDI, judged by bench/matrix/matrix.py judge from conform's JSON report:
#
#   planted.<name>  state caught: exit 1 with the entry's rule among the
#                   rules the failing cases tripped (rules_tripped, not only
#                   the first), and nothing blaming the kit (no error
#                   verdict, a complete run, no kit invariant, no binding
#                   rule); state latent: the suite passes it.
#
# The reference driver passing the same suite is tested elsewhere (conform.*
# in tests/runner_tests.cmake). About 3 s a driver.
if(NOT TARGET planted_patch_one_past_range)
  return() # the examples are not built (WK_BUILD_EXAMPLES off)
endif()
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "planted.* not registered: no python3 (apt-get install -y python3)")
  return()
endif()
set(_catalogue ${PROJECT_SOURCE_DIR}/examples/drivers/planted/catalogue.tsv)
set(_matrix ${PROJECT_SOURCE_DIR}/bench/matrix/matrix.py)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_catalogue})

file(STRINGS ${_catalogue} _lines REGEX "^[0-9]")
foreach(_line IN LISTS _lines)
  string(REPLACE "\t" ";" _cols "${_line}")
  list(GET _cols 1 _name)
  list(GET _cols 2 _target)
  list(GET _cols 4 _rule)
  list(GET _cols 5 _profile)
  list(GET _cols 6 _state)
  add_test(NAME planted.${_name}
    COMMAND ${Python3_EXECUTABLE} ${_matrix} judge --wddmkit $<TARGET_FILE:wddmkit>
            --driver $<TARGET_FILE:${_target}> --rule ${_rule} --profile ${_profile} --state ${_state} -j 2)
  set_tests_properties(planted.${_name} PROPERTIES LABELS "unit" TIMEOUT 300)
endforeach()

# A Patch that trusts PatchOffset breaks no contract: the kernel hands Patch
# only the lists its own Render made (docs/verdicts.md, "Profiles": a bare
# Patch is stress). The catalogue holds it to PATCH-CONFINE-001 in the
# stress profile; the contract profile passes it, by design.
add_test(NAME planted.patch_offset.outside_contract
  COMMAND ${Python3_EXECUTABLE} ${_matrix} judge --wddmkit $<TARGET_FILE:wddmkit>
          --driver $<TARGET_FILE:buggy_patch_offset> --rule PATCH-CONFINE-001 --profile contract --state latent -j 2)
set_tests_properties(planted.patch_offset.outside_contract PROPERTIES LABELS "unit" TIMEOUT 300)

# The matrix tool's own checks: the catalogue reader, the judging of a
# report (every rule a case tripped; never a catch when the kit is blamed),
# the fuzz half's medians and cache (bench/matrix/test_matrix.py).
add_test(NAME bench.matrix_tool COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/bench/matrix/test_matrix.py)
set_tests_properties(bench.matrix_tool PROPERTIES LABELS "unit" TIMEOUT 30)
