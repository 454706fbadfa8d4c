/* SPDX-License-Identifier: MIT */
/*
 * planted_fence_low_dword.c - planted bug (CATALOGUE.md, entry 21):
 * SIGNAL_MONITORED_FENCE stores the fence value with a 32-bit write; the
 * high dword of MonitoredFenceValue is lost.
 *
 * The bug as it happens in real drivers: the hardware's "write a dword"
 * command is the one at hand for "store a value at an address", and fence
 * values are small while a test runs. Monitored fence values are 64 bits
 * (facts §5.1 P24: a GPU command that writes MonitoredFenceValue at
 * MonitoredFenceGpuVa); once one passes 2^32, or carries bits above 32 from
 * the start, the waiter reads a value the GPU never wrote.
 *
 * Expected rule: PAGING-FENCE-001 (SignalMonitoredFence stores
 * MonitoredFenceValue at MonitoredFenceGpuVa). The operation is rewritten
 * here with the model's WRITE32 in place of the reference driver's FENCE
 * command; every other operation is the reference driver's.
 */
#include "refwrap.h"
#include "wddmkit/gpu.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS signal_fence_low_dword(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, a->pDmaBuffer, a->pDmaBuffer ? a->DmaSize : 0);
    /* BUG: a dword write of a 64-bit value. */
    wk_status st = wk_gpu_emit_write32(&w, a->SignalMonitoredFence.MonitoredFenceGpuVa,
                                       (UINT)a->SignalMonitoredFence.MonitoredFenceValue);
    if (st == WK_E_NO_SPACE)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    a->pDmaBuffer = (BYTE *)a->pDmaBuffer + w.used;
    a->DmaSize -= (UINT)w.used;
    return STATUS_SUCCESS;
}

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (a && a->Operation == DXGK_OPERATION_SIGNAL_MONITORED_FENCE)
        return signal_fence_low_dword(a);
    return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiBuildPagingBuffer = buggy_build_paging_buffer;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
