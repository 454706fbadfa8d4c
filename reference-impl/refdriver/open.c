/* SPDX-License-Identifier: MIT */
/*
 * open.c - DxgkDdiOpenAllocation and DxgkDdiCloseAllocation: an allocation
 * bound to a device (facts 5.13).
 *
 * The reference driver keeps nothing per device for an allocation, so the
 * device-specific handle it returns, which allocation lists then carry
 * (DXGK_ALLOCATIONLIST.hDeviceSpecificAllocation, facts 4.7), is the
 * allocation object CreateAllocation made. It finds that object as the
 * WDK's example of DxgkDdiOpenAllocation does: DxgkCbGetHandleData of the
 * kernel's handle (DXGK_OPENALLOCATIONINFO.hAllocation). Closing unbinds
 * nothing: DestroyAllocation frees the object.
 */
#include "refdriver.h"

/* The allocation the kernel's handle h names, through DxgkCbGetHandleData
 * ("the private data for the allocation": CreateAllocation's hAllocation). */
static struct rd_allocation *allocation_of(const struct rd_adapter *a, D3DKMT_HANDLE h)
{
    DXGKARGCB_GETHANDLEDATA q;
    RtlZeroMemory(&q, sizeof(q));
    q.hObject = h;
    q.Type = DXGK_HANDLE_ALLOCATION;
    struct rd_allocation *alloc = rd_allocation_from(a->dxgk.DxgkCbGetHandleData(&q));
    return alloc && !alloc->context_allocation ? alloc : NULL;
}

NTSTATUS wk_rd_open_allocation(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *pOpenAllocation)
{
    struct rd_device *dev = rd_device_from(hDevice);
    if (!dev || !pOpenAllocation || !dev->adapter->dxgk.DxgkCbGetHandleData)
        return STATUS_INVALID_PARAMETER;
    const DXGKARG_OPENALLOCATION *args = pOpenAllocation;
    if (args->NumAllocations && !args->pOpenAllocation)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < args->NumAllocations; i++) {
        struct rd_allocation *alloc = allocation_of(dev->adapter, args->pOpenAllocation[i].hAllocation);
        if (!alloc) {
            RD_TRACE("refdriver: OpenAllocation: handle 0x%x names no allocation of ours\n",
                     (unsigned)args->pOpenAllocation[i].hAllocation);
            return STATUS_INVALID_PARAMETER;
        }
        args->pOpenAllocation[i].hDeviceSpecificAllocation = alloc;
    }
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_close_allocation(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *pCloseAllocation)
{
    if (!rd_device_from(hDevice) || !pCloseAllocation)
        return STATUS_INVALID_PARAMETER;
    return STATUS_SUCCESS;
}
