/* SPDX-License-Identifier: MIT */
/*
 * independent.c - a display miniport for the kit's GPU model that is not
 * derived from the reference driver: DriverEntry and the adapter's life.
 *
 * Why it exists. The conformance suite (specs/) was written against
 * reference-impl/refdriver/, so a check could pin a choice the DDI leaves to
 * the driver and nobody would notice: the reference driver always makes the
 * same one. This driver was written by a first-time user from
 * docs/writing-a-driver.md and the headers alone, and makes other valid
 * choices: no context allocations, 24 KiB paging chunks with progress
 * counted in pages, its own list sizes in DXGK_CONTEXTINFO and slot count,
 * no CancelCommand. ctest conform.independent_driver runs the whole suite
 * against it: the contract profile must find no failure (else the suite, or
 * this driver, is wrong about the contract) and the reference profile must
 * find some (else that profile would not be checking the reference's own
 * choices).
 *
 * What it deliberately does not do: share code with the reference driver
 * (only the kit's headers and its command encoder, as any driver for the
 * model does), keep state per device or context, or support preemption.
 *
 * Files: segments.c (QueryAdapterInfo), device.c (devices, contexts),
 * allocation.c (allocations and their placement fields), paging.c
 * (BuildPagingBuffer), render.c (Render), submit.c (Patch, SubmitCommand,
 * interrupts).
 */
#include "independent.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

NTSTATUS IndAddDevice(const PDEVICE_OBJECT PhysicalDeviceObject, VOID **MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(PhysicalDeviceObject);
    struct ind_adapter *a = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(*a), IND_TAG);
    if (!a)
        return STATUS_NO_MEMORY;
    *MiniportDeviceContext = a;
    return STATUS_SUCCESS;
}

/* One segment of the model's description as the driver will report it.
 * FALSE for a bank table the DDI cannot carry. */
static BOOLEAN learn_segment(const struct wk_gpu_segment_desc *in, struct ind_segment *out)
{
    RtlZeroMemory(out, sizeof(*out));
    out->base = in->base;
    out->size = in->size;
    out->aperture = in->kind == WK_GPU_SEGMENT_APERTURE;
    if (out->aperture || in->bank_count < 2)
        return TRUE; /* a single bank is no banking */
    if (in->bank_count > WK_GPU_MAX_BANKS || !in->bank_ends)
        return FALSE;
    /* pBankRangeTable lists each bank's end; the model lists all but the
     * last, which ends with the segment. */
    for (UINT b = 0; b + 1 < in->bank_count; b++)
        out->bank_ends[b] = (SIZE_T)in->bank_ends[b];
    out->bank_ends[in->bank_count - 1] = (SIZE_T)in->size;
    out->bank_count = in->bank_count;
    return TRUE;
}

/* The description a miniport would learn from its PCI resources. Segment
 * ids are 5 bits, so a description of more segments cannot be reported. */
static NTSTATUS learn_adapter(struct ind_adapter *a, const struct wk_gpu_desc *d)
{
    if (!d || !d->segments || d->segment_count == 0 || d->segment_count > WK_GPU_MAX_SEGMENTS)
        return STATUS_UNSUCCESSFUL;
    a->segment_count = d->segment_count;
    a->all_segments = 0;
    a->aperture_segments = 0;
    a->aperture_bytes = 0;
    for (UINT i = 0; i < d->segment_count; i++) {
        struct ind_segment *s = &a->segments[i];
        if (!learn_segment(&d->segments[i], s))
            return STATUS_UNSUCCESSFUL;
        a->all_segments |= 1u << i;
        if (s->aperture) {
            a->aperture_segments |= 1u << i;
            a->aperture_bytes += s->size;
        }
    }
    a->sysmem_end = (d->sysmem_first_pfn + d->sysmem_pages) << WK_GPU_PAGE_SHIFT;
    a->banks_reported = FALSE;
    return STATUS_SUCCESS;
}

NTSTATUS IndStartDevice(VOID *const MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                        DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources,
                        ULONG *NumberOfChildren)
{
    UNREFERENCED_PARAMETER(DxgkStartInfo);
    struct ind_adapter *a = MiniportDeviceContext;
    a->kernel = *DxgkInterface;
    NTSTATUS status = learn_adapter(a, DxgkInterface->WkGetGpuDescription(DxgkInterface->DeviceHandle));
    if (status != STATUS_SUCCESS)
        return status;
    if (ind_read(a, WK_GPU_REG_ID) != WK_GPU_ID)
        return STATUS_UNSUCCESSFUL; /* not the hardware this driver is for */
    *NumberOfVideoPresentSources = 0; /* render only: no display */
    *NumberOfChildren = 0;
    return STATUS_SUCCESS;
}

/* Everything the adapter holds lives in its own record (the bank tables
 * included), so stopping releases nothing. */
NTSTATUS IndStopDevice(VOID *const MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    return STATUS_SUCCESS;
}

NTSTATUS IndRemoveDevice(VOID *const MiniportDeviceContext)
{
    ExFreePoolWithTag(MiniportDeviceContext, IND_TAG);
    return STATUS_SUCCESS;
}

/* This driver writes the GPU model's command set (wddmkit/driver.h). */
WK_DRIVER_TARGETS_GPU_MODEL;

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA init;
    RtlZeroMemory(&init, sizeof(init));
    init.Version = DXGKDDI_INTERFACE_VERSION;
    init.DxgkDdiAddDevice = IndAddDevice;
    init.DxgkDdiStartDevice = IndStartDevice;
    init.DxgkDdiStopDevice = IndStopDevice;
    init.DxgkDdiRemoveDevice = IndRemoveDevice;
    init.DxgkDdiInterruptRoutine = IndInterruptRoutine;
    init.DxgkDdiDpcRoutine = IndDpcRoutine;
    init.DxgkDdiQueryAdapterInfo = IndQueryAdapterInfo;
    init.DxgkDdiCreateDevice = IndCreateDevice;
    init.DxgkDdiCreateAllocation = IndCreateAllocation;
    init.DxgkDdiDestroyAllocation = IndDestroyAllocation;
    init.DxgkDdiPatch = IndPatch;
    init.DxgkDdiSubmitCommand = IndSubmitCommand;
    init.DxgkDdiBuildPagingBuffer = IndBuildPagingBuffer;
    init.DxgkDdiDestroyDevice = IndDestroyDevice;
    init.DxgkDdiRender = IndRender;
    init.DxgkDdiCreateContext = IndCreateContext;
    init.DxgkDdiDestroyContext = IndDestroyContext;
    /* No DxgkDdiCancelCommand: the driver is not CancelCommandAware, and
     * the cases that need it are skipped, not failed. */
    return DxgkInitialize(DriverObject, RegistryPath, &init);
}
