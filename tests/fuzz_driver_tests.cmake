# tests/fuzz_driver_tests.cmake - the adapters fuzz/fuzz_driver.c keeps for
# the differential harnesses (reuse per segment-query version, rebuild after
# a finding, one live adapter of a loaded driver) and the digest's shortcut
# for repeated pages (include()d by tests/CMakeLists.txt).
add_executable(test_fuzz_driver
  ${CMAKE_CURRENT_LIST_DIR}/test_fuzz_driver.c
  ${PROJECT_SOURCE_DIR}/fuzz/fuzz_driver.c)
target_include_directories(test_fuzz_driver PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_fuzz_driver SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_fuzz_driver PRIVATE wk_refdriver_quiet wk_conformance ${WK_CMOCKA_LIB})
target_compile_definitions(test_fuzz_driver PRIVATE
  WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  WK_TEST_DRIVER="$<TARGET_FILE:buggy_render_index>")
add_dependencies(test_fuzz_driver buggy_render_index)
wk_target_warnings(test_fuzz_driver)
add_test(NAME fuzz.driver COMMAND test_fuzz_driver)
set_tests_properties(fuzz.driver PROPERTIES LABELS "unit" TIMEOUT 300)
