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

# refdriver.mmio_conform: the reference driver built with RD_MMIO reaches
# its registers the WDK way, not through WkReadRegister32: StartDevice maps
# the first memory resource of DxgkCbGetDeviceInformation's
# TranslatedResourceList with MmMapIoSpace, and every register access is
# READ_REGISTER_ULONG/WRITE_REGISTER_ULONG through that window (issue 23,
# "registers"). The whole suite must run as for the module build.
get_target_property(_wk_rd_mmio_sources wk_refdriver_static SOURCES)
add_library(wk_refdriver_mmio MODULE ${_wk_rd_mmio_sources})
target_compile_definitions(wk_refdriver_mmio PRIVATE WK_REFDRIVER_MODULE RD_MMIO)
target_include_directories(wk_refdriver_mmio PRIVATE ${PROJECT_SOURCE_DIR}/include)
set_target_properties(wk_refdriver_mmio PROPERTIES C_VISIBILITY_PRESET hidden POSITION_INDEPENDENT_CODE ON PREFIX "")
target_link_libraries(wk_refdriver_mmio PRIVATE wk_gpu)
target_link_options(wk_refdriver_mmio PRIVATE -Wl,--exclude-libs,ALL)
wk_target_warnings(wk_refdriver_mmio)
wk_sanitize_driver_code(TARGETS wk_refdriver_mmio)
add_test(NAME refdriver.mmio_conform COMMAND wddmkit conform -j 2 --quiet --driver $<TARGET_FILE:wk_refdriver_mmio>)
set_tests_properties(refdriver.mmio_conform PROPERTIES LABELS "conform;unit" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "gpu: +the kit's GPU model executes the driver's buffers.*RESULT: all as expected")

# refdriver.gpummu: the GpuMmu build (RD_GPUMMU, reference-impl/refdriver/gpummu.c)
# against the same kind of mini-kernel, linked as the static library is:
# the sources of the wk_refdriver_gpummu module, DriverEntry renamed.
get_target_property(_wk_rd_gpummu_sources wk_refdriver_gpummu SOURCES)
add_library(wk_refdriver_gpummu_static STATIC ${_wk_rd_gpummu_sources})
target_compile_definitions(wk_refdriver_gpummu_static PRIVATE DriverEntry=wk_refdriver_gpummu_DriverEntry
  WK_KM_NO_SET_SERVICES RD_GPUMMU)
target_include_directories(wk_refdriver_gpummu_static PUBLIC ${PROJECT_SOURCE_DIR}/reference-impl)
set_target_properties(wk_refdriver_gpummu_static PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_link_libraries(wk_refdriver_gpummu_static PUBLIC wk_headers wk_gpu)
wk_target_warnings(wk_refdriver_gpummu_static)
wk_sanitize_driver_code(TARGETS wk_refdriver_gpummu_static)
wk_cmocka_test(test_refdriver_gpummu refdriver.gpummu 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_refdriver_gpummu.c
               LIBS wk_refdriver_gpummu_static wk_gpu)
target_include_directories(test_refdriver_gpummu PRIVATE ${PROJECT_SOURCE_DIR}/include)
