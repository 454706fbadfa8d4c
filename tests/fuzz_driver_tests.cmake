# SPDX-License-Identifier: MIT
# tests/fuzz_driver_tests.cmake - the adapters fuzz/driver/adapters.c keeps for
# the differential harnesses (reuse per segment-query version and GPU
# description, rebuild after a finding, one live adapter of a loaded driver,
# descriptions the reference refuses) and the digest's shortcut
# for repeated pages (include()d by tests/CMakeLists.txt).
wk_cmocka_test(test_fuzz_driver fuzz.driver 300
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fuzz_driver.c ${WK_FUZZ_DRIVER_SOURCES}
  LIBS wk_refdriver_quiet wk_fuzz_gate wk_fuzz wk_conformance)
target_include_directories(test_fuzz_driver PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
target_compile_definitions(test_fuzz_driver PRIVATE
  WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  WK_TEST_DRIVER="$<TARGET_FILE:buggy_render_index>")
add_dependencies(test_fuzz_driver buggy_render_index)

# fuzz_hostile runs every spec case as the suite judges it, corruption kept.
wk_cmocka_test(test_fuzz_hostile fuzz.hostile 300
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fuzz_hostile.c ${PROJECT_SOURCE_DIR}/harnesses/fuzz_hostile.c
          ${WK_FUZZ_DRIVER_SOURCES}
  LIBS wk_refdriver_quiet wk_fuzz_gate wk_cli wk_fuzz wk_conformance)
target_include_directories(test_fuzz_hostile PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
target_compile_definitions(test_fuzz_hostile PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# The coverage gate the kept-adapter harnesses pause around their state
# reuse (fuzz/gate/coverage_gate.c), on libFuzzer's counters: clang only (gcc
# has no inline 8-bit counters), and not in the AFL++ preset (its gate is
# AFL++'s own selective coverage). The asan preset runs it in CI.
if(CMAKE_C_COMPILER_ID MATCHES "Clang" AND NOT WK_FUZZ_ENGINE STREQUAL "afl")
  wk_cmocka_test(test_coverage_gate fuzz.coverage_gate 60
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_coverage_gate.c ${CMAKE_CURRENT_LIST_DIR}/coverage_gate_probe.c
    LIBS wk_fuzz_gate)
  target_include_directories(test_coverage_gate PRIVATE ${PROJECT_SOURCE_DIR}/fuzz ${CMAKE_CURRENT_LIST_DIR})
  # A module with counters of its own, loaded at run time as a WK_DRIVER
  # driver is: the gate finds them from its file (module_counters.c).
  add_library(wk_test_coverage_module MODULE ${CMAKE_CURRENT_LIST_DIR}/coverage_gate_module.c)
  target_compile_options(wk_test_coverage_module PRIVATE -fsanitize-coverage=inline-8bit-counters)
  set_target_properties(wk_test_coverage_module PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
  wk_target_warnings(wk_test_coverage_module)
  target_compile_definitions(test_coverage_gate PRIVATE WK_COVERAGE_MODULE="$<TARGET_FILE:wk_test_coverage_module>")
  add_dependencies(test_coverage_gate wk_test_coverage_module)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/coverage_gate_probe.c
                              PROPERTIES COMPILE_OPTIONS "-fsanitize-coverage=inline-8bit-counters")
  # In the libfuzzer presets everything carries counters; the test's own
  # code must not, or its edges between a snapshot and a pause would count.
  if(WK_FUZZ_ENGINE STREQUAL "libfuzzer")
    set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/test_coverage_gate.c
                                PROPERTIES COMPILE_OPTIONS "-fno-sanitize=fuzzer-no-link;-Wno-unused-command-line-argument")
  endif()
endif()

# The ELF section lookup the coverage gate reads a driver module's file
# with (fuzz/gate/elf_section.c; its harness is fuzz_elf).
wk_cmocka_test(test_elf_section fuzz.elf_section 60
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_elf_section.c LIBS wk_fuzz_gate wk_util)
target_compile_definitions(test_elf_section PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# The build-id a conformance report names a driver module by
# (fuzz/gate/elf_build_id.c; fuzzed by fuzz_elf too).
wk_cmocka_test(test_elf_build_id fuzz.elf_build_id 60
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_elf_build_id.c LIBS wk_fuzz_gate wk_util)

# The leak gate of fuzz_hostile (fuzz/gate/leak_gate.h): every case needs a
# sanitizer runtime (the asan preset, in CI); without one the test checks
# that the gate suspects nothing.
wk_cmocka_test(test_leak_gate fuzz.leak_gate 60
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_leak_gate.c LIBS wk_fuzz_gate)
target_include_directories(test_leak_gate PRIVATE ${PROJECT_SOURCE_DIR}/fuzz ${PROJECT_SOURCE_DIR}/include)

# One bug, one signature (fuzz/driver/findings.c, wk_fuzz_finding_as).
wk_cmocka_test(test_fuzz_signature fuzz.signature 60
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fuzz_signature.c ${WK_FUZZ_DRIVER_SOURCES}
  LIBS wk_refdriver_quiet wk_fuzz_gate wk_fuzz wk_conformance)
target_include_directories(test_fuzz_signature PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
