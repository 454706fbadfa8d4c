# tests/fuzz_driver_tests.cmake - the adapters fuzz/fuzz_driver.c keeps for
# the differential harnesses (reuse per segment-query version and GPU
# description, rebuild after a finding, one live adapter of a loaded driver,
# descriptions the reference refuses) and the digest's shortcut
# for repeated pages (include()d by tests/CMakeLists.txt).
wk_cmocka_test(test_fuzz_driver fuzz.driver 300
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fuzz_driver.c ${PROJECT_SOURCE_DIR}/fuzz/fuzz_driver.c
  LIBS wk_refdriver_quiet wk_conformance)
target_include_directories(test_fuzz_driver PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
target_compile_definitions(test_fuzz_driver PRIVATE
  WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  WK_TEST_DRIVER="$<TARGET_FILE:buggy_render_index>")
add_dependencies(test_fuzz_driver buggy_render_index)

# fuzz_hostile runs every spec case as the suite judges it, corruption kept.
wk_cmocka_test(test_fuzz_hostile fuzz.hostile 300
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fuzz_hostile.c ${PROJECT_SOURCE_DIR}/fuzz/fuzz_hostile.c
          ${PROJECT_SOURCE_DIR}/fuzz/fuzz_driver.c
  LIBS wk_refdriver_quiet wk_cli wk_conformance)
target_include_directories(test_fuzz_hostile PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
target_compile_definitions(test_fuzz_hostile PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
