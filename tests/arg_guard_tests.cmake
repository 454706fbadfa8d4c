# SPDX-License-Identifier: MIT
# tests/arg_guard_tests.cmake - the structs and arrays the kit hands a driver
# by pointer sit on guarded buffers (issue 22, item 2; guard_args.c): an
# access past one is MEM-GUARD-001 naming the DDI and the argument, a read
# told from a write, where it used to land on the kit's stack (unseen, or an
# unnamed crash). One build of tests/driver_build/arg_overrun.c per access,
# each run on one smoke case (well under 2 s).
set(_arg_overruns alloc_info seg_desc create_device caps create_device_read alloc_info_before pdo
    registry_path registry_text)
set(_i 0)
foreach(way ${_arg_overruns})
  math(EXPR _i "${_i} + 1")
  wk_add_refwrap_module(wk_test_arg_${way} ${CMAKE_CURRENT_LIST_DIR}/driver_build/arg_overrun.c)
  target_compile_definitions(wk_test_arg_${way} PRIVATE WK_TEST_ARG_OVERRUN=${_i})
endforeach()

# conform on smoke.objects (a device, a context, an allocation): the exit
# code of a run with a failure or an error, and the rule's line.
function(wk_arg_guard_test way code regex)
  wk_cli_expect(vidmm.arg_guard_${way} ${code} "${regex}"
                $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_arg_${way}> --filter smoke.objects
                ${PROJECT_SOURCE_DIR}/specs/smoke.yaml)
  set_tests_properties(vidmm.arg_guard_${way} PROPERTIES TIMEOUT 10)
endfunction()
set(_guard "MEM-GUARD-001: ")
wk_arg_guard_test(alloc_info 1
  "${_guard}DxgkDdiCreateAllocation: wrote past the end of the DXGK_ALLOCATIONINFO array .pCreateAllocation->pAllocationInfo.NumAllocations.. .[0-9]+ bytes. at offset \\+[0-9]+ .guard page hit.")
wk_arg_guard_test(seg_desc 1
  "${_guard}DxgkDdiQueryAdapterInfo: wrote past the end of the DXGK_SEGMENTDESCRIPTOR[34] array .pSegmentDescriptor.NbSegment..")
wk_arg_guard_test(create_device 1
  "${_guard}DxgkDdiCreateDevice: wrote past the end of the DXGKARG_CREATEDEVICE argument .\\*pCreateDevice. .[0-9]+ bytes. at offset \\+[0-9]+")
wk_arg_guard_test(caps 1
  "${_guard}DxgkDdiQueryAdapterInfo: wrote past the end of the DXGK_DRIVERCAPS output .pOutputData. .[0-9]+ bytes. at offset \\+[0-9]+")
wk_arg_guard_test(create_device_read 1
  "${_guard}DxgkDdiCreateDevice: (read|accessed) past the end of the DXGKARG_CREATEDEVICE argument .\\*pCreateDevice.")
wk_arg_guard_test(alloc_info_before 1
  "${_guard}DxgkDdiCreateAllocation: wrote before the start of the DXGK_ALLOCATIONINFO array .pCreateAllocation->pAllocationInfo.NumAllocations.. at offset -1")
wk_arg_guard_test(pdo 1
  "${_guard}DxgkDdiAddDevice: wrote past the end of the DEVICE_OBJECT .PhysicalDeviceObject. .[0-9]+ bytes. at offset \\+[0-9]+")
wk_arg_guard_test(registry_path 1
  "${_guard}DriverEntry: wrote past the end of the UNICODE_STRING argument .\\*RegistryPath. .[0-9]+ bytes. at offset \\+[0-9]+")
wk_arg_guard_test(registry_text 1
  "${_guard}DriverEntry: wrote past the end of the registry path characters")
