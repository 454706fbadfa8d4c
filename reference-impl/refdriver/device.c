/* SPDX-License-Identifier: MIT */
/*
 * device.c - DxgkDdiCreateDevice and DxgkDdiDestroyDevice.
 *
 * A device is little more than a parent for contexts. What it adds is a
 * device context allocation (SharedAcrossContexts = 1, facts 5.8 A1): 4 KiB
 * the kernel keeps resident whenever any context of the device runs, where
 * a real GPU would keep per-process state. The system device gets none
 * (facts 5.8 A2: device context allocations only for non-system devices).
 */
#include "refdriver.h"

static void fill_device_info(DXGK_DEVICEINFO *info)
{
    /* Only read from drivers that are not MultiEngineAware; filled anyway
     * with the values CreateContext reports, so both views agree. */
    RtlZeroMemory(info, sizeof(*info));
    info->DmaBufferSize = RD_DMA_BUFFER_SIZE;
    info->DmaBufferSegmentSet = 0;
    info->DmaBufferPrivateDataSize = sizeof(struct rd_dma_private);
    info->AllocationListSize = RD_ALLOCATION_LIST_SIZE;
    info->PatchLocationListSize = RD_PATCH_LIST_SIZE;
}

NTSTATUS wk_rd_create_device(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !pCreateDevice)
        return STATUS_INVALID_PARAMETER;
    struct rd_device *dev = rd_alloc(sizeof(*dev));
    if (!dev)
        return STATUS_NO_MEMORY;
    dev->magic = RD_MAGIC_DEVICE;
    dev->adapter = a;
    dev->runtime_handle = pCreateDevice->hDevice;
    dev->system_device = pCreateDevice->Flags.SystemDevice ? TRUE : FALSE;
    if (!dev->system_device) {
        NTSTATUS st = wk_rd_context_allocation_create(dev, NULL, TRUE, &dev->device_allocation);
        if (!NT_SUCCESS(st)) {
            dev->magic = 0;
            rd_free(dev);
            return st;
        }
    }
    if (pCreateDevice->pInfo)
        fill_device_info(pCreateDevice->pInfo);
    pCreateDevice->hDevice = dev;
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_destroy_device(const HANDLE hDevice)
{
    struct rd_device *dev = rd_device_from(hDevice);
    if (!dev)
        return STATUS_INVALID_PARAMETER;
    if (dev->device_allocation)
        wk_rd_context_allocation_destroy(dev->adapter, dev->device_allocation);
    dev->magic = 0;
    rd_free(dev);
    return STATUS_SUCCESS;
}
