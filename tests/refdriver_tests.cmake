# tests/refdriver_tests.cmake - unit tests of the reference driver
# (include()d by tests/CMakeLists.txt, which finds cmocka as
# WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
#
# test_refdriver carries its own mini-kernel: it calls the driver's DDIs the
# way the kernel does and runs every DMA buffer the driver builds on a
# wk_gpu, so it needs the static build of the driver and the GPU model only.
add_executable(test_refdriver ${CMAKE_CURRENT_LIST_DIR}/test_refdriver.c)
target_include_directories(test_refdriver PRIVATE ${PROJECT_SOURCE_DIR}/include)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(test_refdriver SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(test_refdriver PRIVATE wk_refdriver_static wk_gpu ${WK_CMOCKA_LIB})
wk_target_warnings(test_refdriver)
add_test(NAME refdriver.ddi COMMAND test_refdriver)
set_tests_properties(refdriver.ddi PROPERTIES LABELS "unit" TIMEOUT 120)
