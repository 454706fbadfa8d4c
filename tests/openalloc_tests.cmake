# SPDX-License-Identifier: MIT
# tests/openalloc_tests.cmake - allocation lists carry the handle a driver's
# DxgkDdiOpenAllocation returned (reference-impl/vidmm/openalloc.c, facts
# §5.13); include()d by tests/CMakeLists.txt.
#
#   conform.device_handles  the reference driver whose OpenAllocation
#       returns a pool object of its own per device and whose Render and
#       Patch read every list handle as that object
#       (tests/driver_build/device_handles.c) passes the render, patch and
#       smoke cases (the stress profile: smoke.patch-direct, a bare Patch
#       with the step program's list, runs too), and leaks nothing
#       (POOL-LEAK-001 at each teardown). When the kit handed
#       CreateAllocation's handle, its Render and Patch crashed on it
#       (DRV-CRASH-001 in 50 of the 99: 49 in Render, 1 in Patch).
#   conform.no_open_allocation  the reference driver without
#       OpenAllocation and CloseAllocation passes them too: its lists carry
#       CreateAllocation's handle.
wk_add_refwrap_module(wk_test_device_handles ${CMAKE_CURRENT_LIST_DIR}/driver_build/device_handles.c)
wk_add_refwrap_module(wk_test_no_open_allocation ${CMAKE_CURRENT_LIST_DIR}/driver_build/device_handles.c)
target_compile_definitions(wk_test_no_open_allocation PRIVATE WK_NO_OPEN)
foreach(way device_handles no_open_allocation)
  add_test(NAME conform.${way}
    COMMAND wddmkit conform --profile stress --driver $<TARGET_FILE:wk_test_${way}>
            ${PROJECT_SOURCE_DIR}/specs/render.yaml ${PROJECT_SOURCE_DIR}/specs/patch.yaml
            ${PROJECT_SOURCE_DIR}/specs/smoke.yaml)
  set_tests_properties(conform.${way} PROPERTIES LABELS "conform" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "101 of 101 cases in [0-9.]+ s: 73 pass, 28 skip\nRESULT: all as expected"
    FAIL_REGULAR_EXPRESSION "DRV-CRASH-001|POOL-LEAK-001")
endforeach()

# fuzz.cross_device_list: a fuzz_prog input (outsider 6's) that renders on
# device 1's context with an allocation of device 0 in the list. No kernel
# hands a driver that list (the allocation was opened on device 0 only):
# the kit refuses the render before Render, for the reference and the
# driver under test alike. The strict wrapper above refuses such a list
# itself, so without the kit's refusal the differential reports a false
# finding ("the driver under test returned WK_E_DRIVER_FAILED, the
# reference WK_OK").
add_test(NAME fuzz.cross_device_list
  COMMAND ${CMAKE_COMMAND} -E env WK_DRIVER=$<TARGET_FILE:wk_test_device_handles>
          $<TARGET_FILE:fuzz_prog_replay> ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/regressions/osprey-cross-device-list.bin)
set_tests_properties(fuzz.cross_device_list PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "replay: 1 inputs ran"
  FAIL_REGULAR_EXPRESSION "FINDING")
