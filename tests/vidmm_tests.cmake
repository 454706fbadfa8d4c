# SPDX-License-Identifier: MIT
# tests/vidmm_tests.cmake - the reference video memory manager's tests
# (include()d by tests/CMakeLists.txt, which finds cmocka as
# WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
#
#   vidmm.rules      every rule of the contract catalogue tripped by a bad
#                    answer (rewriter or mutant driver) and passed by the
#                    reference driver's answer; the table is checked against
#                    wk_rules()
#   vidmm.behaviour  multipass paging, placement with banks, eviction, render,
#                    cancel, context allocations, determinism, loading the
#                    driver as a shared object
#   vidmm.kitgaps    gaps the differential fuzzers found: a render's working
#                    set larger than memory, an aperture page-in without
#                    system pages, a reset adapter against a fresh one
#   vidmm.paging_window  the paging buffer's block: resized in place, as a
#                    fresh adapter, canaries on both sides
#   vidmm.paging_patch   Patch of a paging buffer writing anywhere is caught,
#                    with the short snapshot (zero tail) and the whole one
#   vidmm.paging_checks  the byte the FILL and transfer checks name, over
#                    memory never written and over older data
#   vidmm.handles    the object tables (reused slots, generations, growth,
#                    ceiling, creation order) and the driver-handle map, then
#                    on an adapter: > 4096 allocations, a 100k churn, stale
#                    handles after reuse (the kit's and the driver's)
#   vidmm.context_caps  DXGK_CONTEXTINFO.Caps: no Patch for a context that
#                    reports NoPatchingRequired (counted), the field read from
#                    WDDM 2.0 only, the caps not modelled skipped, and what
#                    DDI-TABLE-001 says of a driver without Patch
#   vidmm.openalloc  DxgkDdiOpenAllocation after each creation (Flags.Create,
#                    the kernel handle DxgkCbGetHandleData resolves, the same
#                    private data), its handle in the allocation lists,
#                    DxgkDdiCloseAllocation once right before each destroy
#                    (device, teardown), a failed or NULL-handle open, and a
#                    driver without the DDI
# Both take WK_TEST_SEED=<n> to replay a seed.

foreach(wk_vidmm_test test_vidmm_rules test_vidmm test_vidmm_kitgaps test_paging_window test_paging_patch test_paging_checks
        test_vidmm_cpu_view test_context_caps test_vidmm_openalloc test_vidmm_gpuva test_vidmm_map2)
  add_executable(${wk_vidmm_test}
    ${CMAKE_CURRENT_LIST_DIR}/${wk_vidmm_test}.c
    ${CMAKE_CURRENT_LIST_DIR}/vidmm_test_util.c)
  target_include_directories(${wk_vidmm_test} PRIVATE
    ${PROJECT_SOURCE_DIR}/include
    ${CMAKE_CURRENT_LIST_DIR})
  if(WK_CMOCKA_INCLUDE)
    target_include_directories(${wk_vidmm_test} SYSTEM PRIVATE ${WK_CMOCKA_INCLUDE})
  endif()
  target_link_libraries(${wk_vidmm_test} PRIVATE
    wk_vidmm wk_refdriver_static wk_gpu ${WK_CMOCKA_LIB})
  wk_target_warnings(${wk_vidmm_test})
endforeach()

# The loaded-driver test dlopen()s the module build of the reference driver.
target_compile_definitions(test_vidmm PRIVATE WK_REFDRIVER_SO="$<TARGET_FILE:wk_refdriver>")
add_dependencies(test_vidmm wk_refdriver)

# The binding rows run the kit's command set through processor.h.
target_sources(test_vidmm_rules PRIVATE ${CMAKE_CURRENT_LIST_DIR}/bindings/kit_format.c)
# The GpuMmu rules' cases, and vidmm.gpuva, load the GpuMmu build of the
# reference driver.
foreach(t test_vidmm_rules test_vidmm_gpuva)
  target_compile_definitions(${t} PRIVATE WK_TEST_GPUMMU_DRIVER="$<TARGET_FILE:wk_refdriver_gpummu>")
  add_dependencies(${t} wk_refdriver_gpummu)
endforeach()
# vidmm.gpuva's FILL left undone on other hardware: a binding without an MMU part.
target_compile_definitions(test_vidmm_gpuva PRIVATE WK_TEST_BINDING_GOOD="$<TARGET_FILE:wk_test_binding_good>")
add_dependencies(test_vidmm_gpuva wk_test_binding_good)
# vidmm.gpuva's identity-mapped buffer: the GpuMmu build that never writes RING_ROOT.
target_compile_definitions(test_vidmm_gpuva PRIVATE WK_TEST_GPUMMU_NO_ROOT_DRIVER="$<TARGET_FILE:wk_test_gpummu_no_root>")
add_dependencies(test_vidmm_gpuva wk_test_gpummu_no_root)
target_compile_definitions(test_vidmm_gpuva PRIVATE WK_TEST_GPUMMU2_DRIVER="$<TARGET_FILE:wk_refdriver_gpummu2>")
add_dependencies(test_vidmm_gpuva wk_refdriver_gpummu2)
target_compile_definitions(test_vidmm_gpuva PRIVATE WK_TEST_GPUMMU_SYSMEM_DRIVER="$<TARGET_FILE:wk_refdriver_gpummu_sysmem>"
                           WK_TEST_GPUMMU_CPU_DRIVER="$<TARGET_FILE:wk_refdriver_gpummu_cpu>")
target_compile_definitions(test_vidmm_gpuva PRIVATE WK_TEST_GPUMMU_GPUVA_DRIVER="$<TARGET_FILE:wk_refdriver_gpummu_gpuva>")
add_dependencies(test_vidmm_gpuva wk_refdriver_gpummu_sysmem wk_refdriver_gpummu_cpu wk_refdriver_gpummu_gpuva)
# SUBMITV-GPU-001's bad run: the GpuMmu build that keeps a context's first root.
target_compile_definitions(test_vidmm_rules
  PRIVATE WK_TEST_GPUMMU_ROOT_KEPT_DRIVER="$<TARGET_FILE:wk_test_gpummu_root_kept>")
add_dependencies(test_vidmm_rules wk_test_gpummu_root_kept)
# GPUMMU-ROOTSIZE-001's runs: the two-level GpuMmu build.
target_compile_definitions(test_vidmm_rules PRIVATE WK_TEST_GPUMMU2_DRIVER="$<TARGET_FILE:wk_refdriver_gpummu2>")
add_dependencies(test_vidmm_rules wk_refdriver_gpummu2)
# vidmm.gpuva: GPU virtual address spaces of a GpuMmu driver (gpuva.c): the
# GPU reads each mapped page's own allocation, an unmapped page faults after
# the FLUSH_TLB, system pages, bad requests, a reset, three planted bugs.
add_test(NAME vidmm.gpuva COMMAND test_vidmm_gpuva)
set_tests_properties(vidmm.gpuva PROPERTIES LABELS "unit" TIMEOUT 120)
# vidmm.cpu_view: MmMapIoSpace of a binding's segment BAR maps the segment's
# own memory (issue 23, "CPU view of video memory"); the binding's processor
# runs the kit's command set.
target_sources(test_vidmm_cpu_view PRIVATE ${CMAKE_CURRENT_LIST_DIR}/bindings/kit_format.c)
target_include_directories(test_vidmm_cpu_view PRIVATE ${PROJECT_SOURCE_DIR}/reference-impl)
add_test(NAME vidmm.cpu_view COMMAND test_vidmm_cpu_view)
set_tests_properties(vidmm.cpu_view PROPERTIES LABELS "unit" TIMEOUT 120)
add_test(NAME vidmm.rules COMMAND test_vidmm_rules)
add_test(NAME vidmm.behaviour COMMAND test_vidmm)
add_test(NAME vidmm.kitgaps COMMAND test_vidmm_kitgaps)
add_test(NAME vidmm.paging_window COMMAND test_paging_window)
add_test(NAME vidmm.paging_patch COMMAND test_paging_patch)
add_test(NAME vidmm.paging_checks COMMAND test_paging_checks)
add_test(NAME vidmm.context_caps COMMAND test_context_caps)
add_test(NAME vidmm.openalloc COMMAND test_vidmm_openalloc)
# vidmm.map2: MAP_APERTURE_SEGMENT2's arguments as a driver that opted in
# reads them (map_aperture2.c): the ADL's two forms, AdlOffset per chunk,
# CpuVisibleAddress, and operation 5 for a driver that did not opt in.
add_test(NAME vidmm.map2 COMMAND test_vidmm_map2)
set_tests_properties(vidmm.rules vidmm.behaviour vidmm.kitgaps vidmm.paging_window vidmm.paging_patch vidmm.paging_checks
                     vidmm.context_caps vidmm.openalloc vidmm.map2 PROPERTIES LABELS "unit" TIMEOUT 120)

# vidmm.bars: the device's BARs in TranslatedResourceList, register windows
# (MmMapIoSpace + READ/WRITE_REGISTER_*) onto the GPU model's registers and
# onto a binding's register model, and contiguous memory of the system pool
# at the address MmGetPhysicalAddress gives (issue 23, "registers").
wk_cmocka_test(test_vidmm_bars vidmm.bars 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_vidmm_bars.c
               LIBS wk_vidmm wk_refdriver_static wk_gpu)
target_include_directories(test_vidmm_bars PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/reference-impl
                           ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)
target_compile_definitions(test_vidmm_bars PRIVATE _GNU_SOURCE)

# vidmm.prepare: wk_vidmm_prepare_process, what the runner's slot
# processes set up once for every case they fork (handlers, parked guarded
# buffers that still end at a guard page).
wk_cmocka_test(test_vidmm_prepare vidmm.prepare 30 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_vidmm_prepare.c
               LIBS wk_vidmm wk_refdriver_static wk_gpu)
target_include_directories(test_vidmm_prepare PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/reference-impl
                           ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)

# vidmm.floor: the floor's counters (floor.c with WK_FLOOR_TIMING, as the
# bench-floor preset builds it; bench/fuzz_speed --floor reads them).
wk_cmocka_test(test_floor vidmm.floor 30
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_floor.c ${PROJECT_SOURCE_DIR}/reference-impl/vidmm/floor.c LIBS wk_vidmm)
target_compile_definitions(test_floor PRIVATE WK_FLOOR_TIMING _GNU_SOURCE)
target_include_directories(test_floor PRIVATE ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)
# vidmm.handles: handles.h is internal to wk_vidmm.
wk_cmocka_test(test_vidmm_handles vidmm.handles 300
               SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_vidmm_handles.c ${CMAKE_CURRENT_LIST_DIR}/vidmm_test_util.c
               LIBS wk_vidmm wk_refdriver_static wk_gpu)
target_include_directories(test_vidmm_handles PRIVATE ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_LIST_DIR}
                           ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)

# vidmm.system_context: the system device and context the kit creates at
# start (hSystemContext is the driver's own handle of it; kept by a reset,
# destroyed before StopDevice; a refused one fails the start), and the node
# paging runs on (DXGK_PHYSICALADAPTERCAPS.PagingNodeIndex, WDDM 1.x
# PagingNode, node 0 otherwise; INTR-ORDINAL-001 on it), with the reference
# driver wrapped by a test-only DriverEntry.
wk_cmocka_test(test_vidmm_system_context vidmm.system_context 120
               SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_vidmm_system_context.c ${CMAKE_CURRENT_LIST_DIR}/vidmm_test_util.c
               LIBS wk_vidmm wk_refdriver_static wk_gpu)
target_include_directories(test_vidmm_system_context PRIVATE ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_LIST_DIR})
