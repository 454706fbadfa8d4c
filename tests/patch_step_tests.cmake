# The `patch` step (conformance/spec_patch.c, prog_codec.c, prog_run.c,
# prog_yaml.c) and fuzz_patch inputs as programs (patch_input.c): loader
# diagnostics, YAML and codec round trips (reserved bits above SlotId
# included, committed encodings unchanged), runs on the reference and on
# buggy_patch_offset.so, what Patch is handed, the fuzz_patch seed corpus
# converted both ways.
add_executable(test_patch_step ${CMAKE_CURRENT_LIST_DIR}/test_patch_step.c)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_patch_step SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_patch_step PRIVATE wk_conformance ${WK_CMOCKA_LIB})
target_compile_definitions(test_patch_step PRIVATE
  WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  WK_BUGGY_PATCH="$<TARGET_FILE:buggy_patch_offset>")
add_dependencies(test_patch_step buggy_patch_offset)
wk_target_warnings(test_patch_step)
add_test(NAME prog.patch_step COMMAND test_patch_step)
set_tests_properties(prog.patch_step PROPERTIES LABELS "unit" TIMEOUT 300)
