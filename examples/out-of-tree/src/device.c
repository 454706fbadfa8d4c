/* SPDX-License-Identifier: MIT */
/*
 * device.c - DxgkDdiCreateDevice, DxgkDdiCreateContext and their Destroy
 * DDIs.
 *
 * The GPU model keeps no state per device or per context (every command
 * carries its own addresses), so this driver makes no context allocations:
 * a choice the DDI leaves open (facts §5.8) and the main way it differs
 * from the reference driver, whose context allocations shift every user
 * allocation's placement. Devices and contexts are records with a magic;
 * the buffer sizes they announce are the driver's own (independent.h).
 */
#include "independent.h"

/* The sizes the kernel allocates this driver's DMA buffers and lists with:
 * one set for every context, but GDI contexts get 256 list entries, which
 * the DDI fixes (CTX-GDI-001). */
static void fill_context_info(DXGK_CONTEXTINFO *info, BOOLEAN gdi)
{
    RtlZeroMemory(info, sizeof(*info));
    info->DmaBufferSize = IND_DMA_BUFFER_SIZE;
    info->AllocationListSize = gdi ? IND_GDI_ALLOCATION_LIST_SIZE : IND_ALLOCATION_LIST_SIZE;
    info->PatchLocationListSize = IND_PATCH_LIST_SIZE;
}

static void fill_device_info(DXGK_DEVICEINFO *info)
{
    RtlZeroMemory(info, sizeof(*info));
    info->DmaBufferSize = IND_DMA_BUFFER_SIZE;
    info->AllocationListSize = IND_ALLOCATION_LIST_SIZE;
    info->PatchLocationListSize = IND_PATCH_LIST_SIZE;
}

NTSTATUS IndCreateDevice(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice)
{
    UNREFERENCED_PARAMETER(hAdapter);
    struct ind_device *d = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(*d), IND_TAG);
    if (!d)
        return STATUS_NO_MEMORY;
    d->magic = IND_DEVICE_MAGIC;
    if (pCreateDevice->pInfo)
        fill_device_info(pCreateDevice->pInfo);
    pCreateDevice->hDevice = d;
    return STATUS_SUCCESS;
}

NTSTATUS IndDestroyDevice(const HANDLE hDevice)
{
    struct ind_device *d = hDevice;
    if (!d || d->magic != IND_DEVICE_MAGIC)
        return STATUS_INVALID_HANDLE;
    d->magic = 0;
    ExFreePoolWithTag(d, IND_TAG);
    return STATUS_SUCCESS;
}

/* Out of memory is the only way it fails (CTX-CREATE-001). */
NTSTATUS IndCreateContext(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext)
{
    UNREFERENCED_PARAMETER(hDevice);
    struct ind_context *c = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(*c), IND_TAG);
    if (!c)
        return STATUS_NO_MEMORY;
    c->magic = IND_CONTEXT_MAGIC;
    fill_context_info(&pCreateContext->ContextInfo, pCreateContext->Flags.GdiContext);
    pCreateContext->hContext = c;
    return STATUS_SUCCESS;
}

NTSTATUS IndDestroyContext(const HANDLE hContext)
{
    struct ind_context *c = hContext;
    if (!c || c->magic != IND_CONTEXT_MAGIC)
        return STATUS_INVALID_HANDLE;
    c->magic = 0;
    ExFreePoolWithTag(c, IND_TAG);
    return STATUS_SUCCESS;
}

const struct ind_context *ind_context_get(HANDLE handle)
{
    const struct ind_context *c = handle;
    return c && c->magic == IND_CONTEXT_MAGIC ? c : NULL;
}
