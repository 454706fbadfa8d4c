/* SPDX-License-Identifier: MIT */
/*
 * othergpu.c - a display miniport for OtherGPU, an imaginary GPU that is
 * not the kit's GPU model: DriverEntry and the adapter's life.
 *
 * Why it exists: to try the kit as the author of a driver for other
 * hardware would (README.md). The driver writes its own 16-byte commands
 * (othergpu.h), reports its own segments (segments.c) and never touches the
 * model's registers: OtherGPU's registers are not on the kit's BAR, so it
 * keeps a software record of what it submitted and lets the kit retire
 * submissions (docs/verdicts.md, "A driver for other hardware").
 *
 * Files: commands.c (the encoder), segments.c (QueryAdapterInfo),
 * objects.c (devices, contexts, allocations), paging.c (BuildPagingBuffer),
 * render.c (Render of OtherGPU's own UMD format), submit.c (Patch,
 * SubmitCommand, interrupts).
 */
#include "othergpu.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

NTSTATUS OgAddDevice(const PDEVICE_OBJECT PhysicalDeviceObject, VOID **MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(PhysicalDeviceObject);
    struct og_adapter *a = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(*a), OG_TAG);
    if (!a)
        return STATUS_NO_MEMORY;
    RtlZeroMemory(a, sizeof(*a));
    *MiniportDeviceContext = a;
    return STATUS_SUCCESS;
}

/* OtherGPU's layout is fixed by its hardware (othergpu.h): nothing to
 * learn from the kit's description of its own GPU model. */
NTSTATUS OgStartDevice(VOID *const MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                       DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources,
                       ULONG *NumberOfChildren)
{
    UNREFERENCED_PARAMETER(DxgkStartInfo);
    struct og_adapter *a = MiniportDeviceContext;
    a->kernel = *DxgkInterface;
    a->last_submitted_fence = 0;
    *NumberOfVideoPresentSources = 0; /* render only */
    *NumberOfChildren = 0;
    return STATUS_SUCCESS;
}

NTSTATUS OgStopDevice(VOID *const MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    return STATUS_SUCCESS;
}

NTSTATUS OgRemoveDevice(VOID *const MiniportDeviceContext)
{
    ExFreePoolWithTag(MiniportDeviceContext, OG_TAG);
    return STATUS_SUCCESS;
}

/* No WK_DRIVER_TARGETS_GPU_MODEL: OtherGPU does not run the kit's
 * command set. */
WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA init;
    RtlZeroMemory(&init, sizeof(init));
    init.Version = DXGKDDI_INTERFACE_VERSION;
    init.DxgkDdiAddDevice = OgAddDevice;
    init.DxgkDdiStartDevice = OgStartDevice;
    init.DxgkDdiStopDevice = OgStopDevice;
    init.DxgkDdiRemoveDevice = OgRemoveDevice;
    init.DxgkDdiInterruptRoutine = OgInterruptRoutine;
    init.DxgkDdiDpcRoutine = OgDpcRoutine;
    init.DxgkDdiQueryAdapterInfo = OgQueryAdapterInfo;
    init.DxgkDdiCreateDevice = OgCreateDevice;
    init.DxgkDdiDestroyDevice = OgDestroyDevice;
    init.DxgkDdiCreateContext = OgCreateContext;
    init.DxgkDdiDestroyContext = OgDestroyContext;
    init.DxgkDdiCreateAllocation = OgCreateAllocation;
    init.DxgkDdiDestroyAllocation = OgDestroyAllocation;
    init.DxgkDdiBuildPagingBuffer = OgBuildPagingBuffer;
    init.DxgkDdiRender = OgRender;
    init.DxgkDdiPatch = OgPatch;
    init.DxgkDdiSubmitCommand = OgSubmitCommand;
    /* No DxgkDdiCancelCommand: not CancelCommandAware. */
    return DxgkInitialize(DriverObject, RegistryPath, &init);
}
