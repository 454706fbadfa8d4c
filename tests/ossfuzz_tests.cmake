# SPDX-License-Identifier: MIT
# tests/ossfuzz_tests.cmake - the `fuzzbuild` test: oss-fuzz/build.sh run
# locally with clang and libFuzzer into a scratch $OUT, then every harness,
# seed archive, dictionary and options file checked and each harness run on
# one input (tests/oss_fuzz_build.sh). Not a unit test: it builds the
# project once more (about a minute on 2 cores). Skipped (77) without clang
# and its libFuzzer runtime, cmake/ninja, or both zip and python3.
find_program(WK_BASH bash)
if(WK_BASH)
  add_test(NAME fuzzbuild.oss_fuzz
    COMMAND ${WK_BASH} ${PROJECT_SOURCE_DIR}/tests/oss_fuzz_build.sh ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/oss-fuzz-build)
  set_tests_properties(fuzzbuild.oss_fuzz PROPERTIES LABELS "fuzzbuild" SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
# A team's driver linked into the harnesses by build.sh (WK_DRIVER_SOURCES):
# built, run, and shown to be the driver the harnesses run
# (tests/oss_fuzz_team_driver.sh). Builds the driver harnesses once more.
if(WK_BASH)
  add_test(NAME fuzzbuild.oss_fuzz_team_driver
    COMMAND ${WK_BASH} ${PROJECT_SOURCE_DIR}/tests/oss_fuzz_team_driver.sh ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/oss-fuzz-team-driver)
  set_tests_properties(fuzzbuild.oss_fuzz_team_driver PROPERTIES LABELS "fuzzbuild" SKIP_RETURN_CODE 77 TIMEOUT 600
    PASS_REGULAR_EXPRESSION "oss_fuzz_team_driver: all checks passed")
endif()
