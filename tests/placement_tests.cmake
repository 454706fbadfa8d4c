# SPDX-License-Identifier: MIT
# tests/placement_tests.cmake - the vidmm placement heap unit test (include()d
# by tests/CMakeLists.txt, which finds cmocka as WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
#
# The vidmm library target does not exist yet, so the test compiles
# reference-impl/vidmm/placement.c itself; when wk_vidmm lands, link it
# instead and drop the source from this list.
#   vidmm.placement  label unit  (WK_SEED=<n> replays the randomized runs)

wk_cmocka_test(test_placement vidmm.placement 60
  SOURCES ${PROJECT_SOURCE_DIR}/tests/test_placement.c ${PROJECT_SOURCE_DIR}/reference-impl/vidmm/placement.c)
target_include_directories(test_placement PRIVATE
  ${PROJECT_SOURCE_DIR}/include
  ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)
