# tests/driver_build_tests.cmake - `wddmkit driver check` and the hand-over
# of repro/minimize/promote/triage/conform to a build that can load their
# --driver (conformance/cli_driver_build.c), checked by
# tests/driver_build.sh with two modules: one that needs a symbol only an
# instrumentation runtime defines, one whose constructor aborts. A third,
# whose DriverEntry fails, serves tests/test_fuzztools.c.
foreach(m needs_runtime crashing_ctor entry_fails)
  add_library(wk_test_${m} MODULE ${CMAKE_CURRENT_LIST_DIR}/driver_build/${m}.c)
  target_include_directories(wk_test_${m} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  set_target_properties(wk_test_${m} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
  wk_target_warnings(wk_test_${m})
endforeach()
find_program(WK_BASH bash)
if(WK_BASH AND TARGET fuzz_render_replay)
  add_test(NAME cli.driver_build
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/driver_build.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_test_needs_runtime> $<TARGET_FILE:wk_test_crashing_ctor> $<TARGET_FILE:wk_refdriver>
            $<TARGET_FILE:fuzz_render_replay> ${CMAKE_CURRENT_BINARY_DIR}/driver-build)
  set_tests_properties(cli.driver_build PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "driver_build: all checks passed")
endif()
