/* SPDX-License-Identifier: MIT */
/*
 * planted_fence_completed_after_fault.c - planted bug (CATALOGUE.md, entry
 * 29): after reporting a faulted submission (DMA_FAULTED) the interrupt
 * routine also reports the same fence as DMA_COMPLETED.
 *
 * The bug as it happens in real drivers: the GPU sets its COMPLETED bit for
 * every finished submission, a faulted one included, and the ISR handles
 * the FAULT and COMPLETED bits in two independent branches, so the faulted
 * fence is reported twice: once as faulted (which completes it), then as
 * completed. A fence id reported complete that is not pending is bug check
 * 0x119 with first parameter 1 (facts §2.2, the 0x119 codes).
 *
 * Expected rule: INTR-FENCE-001 (a completed fence id is one that was
 * submitted and not yet completed, in order). The routine is the reference
 * driver's (reference-impl/refdriver/interrupt.c) without its exclusion of
 * the faulted fence from the DMA_COMPLETED report.
 */
#include "refwrap.h"
#include "refdriver/refdriver.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void notify(struct rd_adapter *a, DXGK_INTERRUPT_TYPE type, UINT fence)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n;
    RtlZeroMemory(&n, sizeof(n));
    n.InterruptType = type;
    if (type == DXGK_INTERRUPT_DMA_FAULTED) {
        n.DmaFaulted.FaultedFenceId = fence;
        n.DmaFaulted.Status = STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE;
    } else {
        n.DmaCompleted.SubmissionFenceId = fence;
    }
    a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
}

static BOOLEAN buggy_interrupt_routine(VOID *const MiniportDeviceContext, ULONG MessageNumber)
{
    UNREFERENCED_PARAMETER(MessageNumber);
    struct rd_adapter *a = rd_adapter_from(MiniportDeviceContext);
    if (!a || !a->started)
        return FALSE;
    ULONG status = rd_read_reg(a, WK_GPU_REG_IRQ_STATUS);
    if (status == 0)
        return FALSE;
    if (status & WK_GPU_IRQ_FAULT)
        notify(a, DXGK_INTERRUPT_DMA_FAULTED, rd_read_reg(a, WK_GPU_REG_FAULT_TAG));
    /* BUG: the faulted fence, already completed by DMA_FAULTED, is not excluded. */
    if (status & WK_GPU_IRQ_COMPLETED)
        notify(a, DXGK_INTERRUPT_DMA_COMPLETED, rd_read_reg(a, WK_GPU_REG_COMPLETED_TAG));
    rd_write_reg(a, WK_GPU_REG_IRQ_ACK, status);
    a->dxgk.DxgkCbQueueDpc(a->dxgk.DeviceHandle); /* the DPC tells the scheduler, as the reference's */
    return TRUE;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiInterruptRoutine = buggy_interrupt_routine;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
