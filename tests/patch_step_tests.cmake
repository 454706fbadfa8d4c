# SPDX-License-Identifier: MIT
# The `patch` step (conformance/spec/spec_patch.c, prog_codec.c, prog_run.c,
# prog_yaml.c) and fuzz_patch inputs as programs (patch_input.c): loader
# diagnostics, YAML and codec round trips (reserved bits above SlotId
# included, committed encodings unchanged), runs on the reference and on
# buggy_patch_offset.so, what Patch is handed, the fuzz_patch seed corpus
# converted both ways.
wk_cmocka_test(test_patch_step prog.patch_step 300 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_patch_step.c LIBS wk_fuzz wk_conformance)
target_compile_definitions(test_patch_step PRIVATE
  WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  WK_BUGGY_PATCH="$<TARGET_FILE:buggy_patch_offset>")
add_dependencies(test_patch_step buggy_patch_offset)
