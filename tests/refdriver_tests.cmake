# SPDX-License-Identifier: MIT
# tests/refdriver_tests.cmake - unit tests of the reference driver
# (include()d by tests/CMakeLists.txt, which finds cmocka as
# WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
#
# test_refdriver carries its own mini-kernel: it calls the driver's DDIs the
# way the kernel does and runs every DMA buffer the driver builds on a
# wk_gpu, so it needs the static build of the driver and the GPU model only.
wk_cmocka_test(test_refdriver refdriver.ddi 120 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_refdriver.c
               LIBS wk_refdriver_static wk_gpu)
target_include_directories(test_refdriver PRIVATE ${PROJECT_SOURCE_DIR}/include)
