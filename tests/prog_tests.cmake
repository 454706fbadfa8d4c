# The binary step-program form (conformance/prog_codec.c).
add_executable(test_prog_codec ${CMAKE_CURRENT_LIST_DIR}/test_prog_codec.c)
target_link_libraries(test_prog_codec PRIVATE wk_conformance ${WK_CMOCKA_LIB})
target_compile_definitions(test_prog_codec PRIVATE WK_SPECS_DIR="${PROJECT_SOURCE_DIR}/specs")
wk_target_warnings(test_prog_codec)
add_test(NAME prog.codec COMMAND test_prog_codec)
set_tests_properties(prog.codec PROPERTIES LABELS "unit" TIMEOUT 120)
# fuzz_render inputs as programs (conformance/render_input.c): the harness
# (fuzz/fuzz_render.c and fuzz_driver.c's fixture, linked in) and the
# converted program observed at wk_vidmm_render (ld --wrap) make the same
# call; the render step's new fields through YAML and the codec.
add_executable(test_render_input ${CMAKE_CURRENT_LIST_DIR}/test_render_input.c
  ${PROJECT_SOURCE_DIR}/fuzz/fuzz_render.c ${PROJECT_SOURCE_DIR}/fuzz/fuzz_driver.c)
target_include_directories(test_render_input PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_render_input SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_render_input PRIVATE wk_refdriver_quiet wk_conformance ${WK_CMOCKA_LIB})
target_link_options(test_render_input PRIVATE "LINKER:--wrap=wk_vidmm_render")
target_compile_definitions(test_render_input PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
wk_target_warnings(test_render_input)
add_test(NAME prog.render_input COMMAND test_render_input)
set_tests_properties(prog.render_input PROPERTIES LABELS "unit" TIMEOUT 300)
# The structure-aware mutator (fuzz/prog_mutator.c, its AFL++ entry points
# compiled in): outputs stay programs that round-trip, the render step's
# new fields survive and are mutated.
add_executable(test_prog_mutator ${CMAKE_CURRENT_LIST_DIR}/test_prog_mutator.c ${PROJECT_SOURCE_DIR}/fuzz/prog_mutator.c)
target_compile_definitions(test_prog_mutator PRIVATE WK_MUTATOR_AFL)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_prog_mutator SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_prog_mutator PRIVATE wk_fuzz_seeds ${WK_CMOCKA_LIB})
wk_target_warnings(test_prog_mutator)
add_test(NAME prog.mutator COMMAND test_prog_mutator)
set_tests_properties(prog.mutator PROPERTIES LABELS "unit" TIMEOUT 300)
# fuzz_patch's input parsing (fuzz/seeds_lib.h): the fast cursor, parse
# without clearing, fold's overlap adjustment, against the obvious code.
add_executable(test_fuzz_inputs ${CMAKE_CURRENT_LIST_DIR}/test_fuzz_inputs.c)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_fuzz_inputs SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_fuzz_inputs PRIVATE wk_fuzz_seeds ${WK_CMOCKA_LIB})
wk_target_warnings(test_fuzz_inputs)
add_test(NAME fuzz.inputs COMMAND test_fuzz_inputs)
set_tests_properties(fuzz.inputs PROPERTIES LABELS "unit" TIMEOUT 60)
