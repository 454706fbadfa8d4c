/* SPDX-License-Identifier: MIT */
/*
 * adapter.cpp - DriverEntry and the adapter's life: AddDevice creates the
 * Adapter object, StartDevice keeps the kernel's interface, RemoveDevice
 * deletes it.
 *
 * Lattice's registers are not on the kit's BAR (the kit's BAR is its own
 * GPU model's), so the driver keeps a software record of what it submitted
 * and the kit retires submissions (docs/verdicts.md, "A driver for other
 * hardware"); no interrupt of Lattice's ever comes.
 */
#include "cppgpu.h"

/* The kit finds the entry point by its C name (dlsym), as Windows does
 * (DRIVER_INITIALIZE, C linkage). */
extern "C" WK_DRIVER_EXPORT DRIVER_INITIALIZE DriverEntry;

namespace cppgpu {

NTSTATUS AddDevice(const PDEVICE_OBJECT PhysicalDeviceObject, VOID **MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(PhysicalDeviceObject);
    Adapter *adapter = new (NonPagedPoolNx, CG_POOL_TAG) Adapter();
    if (!adapter)
        return STATUS_NO_MEMORY;
    const NTSTATUS status = adapter->create_segments();
    if (!NT_SUCCESS(status)) {
        delete adapter;
        return status;
    }
    *MiniportDeviceContext = adapter->handle();
    TraceEvents(TRACE_LEVEL_INFORMATION, TRACE_ADAPTER, "AddDevice: adapter %p", static_cast<void *>(adapter));
    return STATUS_SUCCESS;
}

/* Lattice's layout is fixed by its board (hardware.h): nothing to learn
 * from the kit's description of its own GPU model. A render-only adapter:
 * no video present sources, no children. */
NTSTATUS StartDevice(VOID *const MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                     DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources, ULONG *NumberOfChildren)
{
    UNREFERENCED_PARAMETER(DxgkStartInfo);
    Adapter *adapter = KernelObject::from<Adapter>(MiniportDeviceContext);
    if (!adapter || !DxgkInterface)
        return STATUS_INVALID_PARAMETER;
    adapter->start(*DxgkInterface);
    *NumberOfVideoPresentSources = 0;
    *NumberOfChildren = 0;
    return STATUS_SUCCESS;
}

NTSTATUS StopDevice(VOID *const MiniportDeviceContext)
{
    return KernelObject::from<Adapter>(MiniportDeviceContext) ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

NTSTATUS RemoveDevice(VOID *const MiniportDeviceContext)
{
    Adapter *adapter = KernelObject::from<Adapter>(MiniportDeviceContext);
    if (!adapter)
        return STATUS_INVALID_PARAMETER;
    delete adapter;
    return STATUS_SUCCESS;
}

} // namespace cppgpu

/* Render reads the kit's own user-mode command format (render.cpp): with
 * this marker the suite judges it on every case in that format, though
 * nothing executes what it builds. */
WK_DRIVER_READS_KIT_UMD;

/* No WK_DRIVER_TARGETS_GPU_MODEL: Lattice does not run the kit's command
 * set. No DxgkDdiCancelCommand: the driver is not CancelCommandAware. */
NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    using namespace cppgpu;
    WPP_INIT_TRACING(DriverObject, RegistryPath);
    DRIVER_INITIALIZATION_DATA init;
    RtlZeroMemory(&init, sizeof(init));
    init.Version = DXGKDDI_INTERFACE_VERSION;
    init.DxgkDdiAddDevice = AddDevice;
    init.DxgkDdiStartDevice = StartDevice;
    init.DxgkDdiStopDevice = StopDevice;
    init.DxgkDdiRemoveDevice = RemoveDevice;
    init.DxgkDdiInterruptRoutine = InterruptRoutine;
    init.DxgkDdiDpcRoutine = DpcRoutine;
    init.DxgkDdiQueryAdapterInfo = QueryAdapterInfo;
    init.DxgkDdiCreateDevice = CreateDevice;
    init.DxgkDdiDestroyDevice = DestroyDevice;
    init.DxgkDdiCreateContext = CreateContext;
    init.DxgkDdiDestroyContext = DestroyContext;
    init.DxgkDdiCreateAllocation = CreateAllocation;
    init.DxgkDdiDestroyAllocation = DestroyAllocation;
    init.DxgkDdiBuildPagingBuffer = BuildPagingBuffer;
    init.DxgkDdiRender = Render;
    init.DxgkDdiPatch = Patch;
    init.DxgkDdiSubmitCommand = SubmitCommand;
    return DxgkInitialize(DriverObject, RegistryPath, &init);
}
