# tests/fuzz_tests.cmake - the wk_vidmm entry points the fuzz harnesses
# stand on: wk_vidmm_reset and wk_vidmm_patch (include()d by
# tests/CMakeLists.txt, which finds cmocka as WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
add_executable(test_vidmm_fuzzapi
  ${CMAKE_CURRENT_LIST_DIR}/test_vidmm_fuzzapi.c
  ${CMAKE_CURRENT_LIST_DIR}/vidmm_test_util.c)
target_include_directories(test_vidmm_fuzzapi PRIVATE ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_LIST_DIR})
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_vidmm_fuzzapi SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_vidmm_fuzzapi PRIVATE wk_vidmm wk_refdriver_static wk_gpu ${WK_CMOCKA_LIB})
wk_target_warnings(test_vidmm_fuzzapi)
add_test(NAME vidmm.fuzzapi COMMAND test_vidmm_fuzzapi)
set_tests_properties(vidmm.fuzzapi PROPERTIES LABELS "unit" TIMEOUT 120)

# The command line in parse-only mode, as fuzz_cli runs it.
add_executable(test_cli_parse ${CMAKE_CURRENT_LIST_DIR}/test_cli_parse.c)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_cli_parse SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_cli_parse PRIVATE wk_cli ${WK_CMOCKA_LIB})
target_compile_definitions(test_cli_parse PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
wk_target_warnings(test_cli_parse)
add_test(NAME cli.parse_only COMMAND test_cli_parse)
set_tests_properties(cli.parse_only PROPERTIES LABELS "unit" TIMEOUT 120)
