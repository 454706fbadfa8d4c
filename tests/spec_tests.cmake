# tests/spec_tests.cmake - the YAML spec loader's tests (include()d at the
# end of tests/CMakeLists.txt, after cmocka is found as WK_CMOCKA_LIB).
#
#   spec.loader  every error class with its exact message and position,
#                valid specs compiled field by field, specs/smoke.yaml run
#                against the reference driver (every case passes), random
#                and mutated inputs (WK_TEST_SEED=<n> replays a seed)
add_executable(test_spec_loader ${CMAKE_CURRENT_LIST_DIR}/test_spec_loader.c)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_spec_loader SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_compile_definitions(test_spec_loader PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(test_spec_loader PRIVATE wk_conformance ${WK_CMOCKA_LIB})
wk_target_warnings(test_spec_loader)
add_test(NAME spec.loader COMMAND test_spec_loader)
set_tests_properties(spec.loader PROPERTIES LABELS "unit" TIMEOUT 300)
