# tests/driver_build_tests.cmake - `wddmkit driver check` and the hand-over
# of repro/minimize/promote/triage/conform to a build that can load their
# --driver (conformance/cli_driver_build.c), checked by
# tests/driver_build.sh with two modules: one that needs a symbol only an
# instrumentation runtime defines, one whose constructor aborts. A third,
# whose DriverEntry fails, serves tests/test_fuzztools.c. Then the setup
# errors of conform's --driver and of repro's FILE.
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

# A --driver that does not load stops conform before the first case (it
# ran all 561, each an error or a failure), with the loader's reason; a
# folder where repro expects one input file says so. Exit code and output
# both checked (examples/drivers/expect_run.cmake).
set(_expect_run ${PROJECT_SOURCE_DIR}/examples/drivers/expect_run.cmake)
function(wk_cli_expect name code regex)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DEXPECT=${code} "-DREGEX=${regex}" "-DCOMMAND=${ARGN}"
           -P ${_expect_run})
  set_tests_properties(${name} PROPERTIES LABELS "unit" TIMEOUT 60)
endfunction()
wk_cli_expect(cli.conform_driver_missing 2 "--driver [^ ]*no-such-driver.so: .*No such file or directory"
              $<TARGET_FILE:wddmkit> conform --driver ${CMAKE_CURRENT_BINARY_DIR}/no-such-driver.so)
wk_cli_expect(cli.conform_driver_crashing_ctor 2 "crashed while loading"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_crashing_ctor>)
wk_cli_expect(cli.repro_folder 2 "a folder, where a file was expected"
              $<TARGET_FILE:wddmkit> repro ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds)
# wddmkit fuzz with a --driver that is not there says so, not that no
# build loads it (it asked every build first and blamed sanitizers).
wk_cli_expect(cli.fuzz_driver_missing 2 "--driver [^ ]*no-such-driver.so: not a readable file"
              ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
              $<TARGET_FILE:wddmkit> fuzz --harness fuzz_render --driver ${CMAKE_CURRENT_BINARY_DIR}/no-such-driver.so)
