# The binary step-program form (conformance/prog_codec.c).
add_executable(test_prog_codec ${CMAKE_CURRENT_LIST_DIR}/test_prog_codec.c)
target_link_libraries(test_prog_codec PRIVATE wk_conformance ${WK_CMOCKA_LIB})
target_compile_definitions(test_prog_codec PRIVATE WK_SPECS_DIR="${PROJECT_SOURCE_DIR}/specs")
wk_target_warnings(test_prog_codec)
add_test(NAME prog.codec COMMAND test_prog_codec)
set_tests_properties(prog.codec PROPERTIES LABELS "unit" TIMEOUT 120)
