/* SPDX-License-Identifier: MIT */
/*
 * planted_fence_never_reported.c - planted bug (CATALOGUE.md, entry 31):
 * the interrupt routine tests IRQ_STATUS for the FENCE bit where it means
 * COMPLETED, so finished submissions are acknowledged and never reported.
 *
 * The bug as it happens in real drivers: two neighbouring bit constants
 * (WK_GPU_IRQ_COMPLETED 0x1, WK_GPU_IRQ_FENCE 0x4). The ISR still claims
 * and acknowledges every interrupt, so the line goes quiet, but the
 * scheduler never learns that a DMA buffer finished: its fence must be
 * reported through DxgkCbNotifyInterrupt (DXGK_INTERRUPT_DMA_COMPLETED) once
 * the GPU has run it (facts §5.3 T7), or the scheduler waits for it until a
 * timeout resets the GPU.
 *
 * Expected rule: SUBMIT-FENCE-001 (every submitted fence is reported
 * complete once the GPU has run it). The routine is the reference driver's
 * (reference-impl/refdriver/interrupt.c) with the wrong bit.
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
    BOOLEAN faulted = (status & WK_GPU_IRQ_FAULT) != 0;
    UINT fault_tag = faulted ? rd_read_reg(a, WK_GPU_REG_FAULT_TAG) : 0;
    if (faulted)
        notify(a, DXGK_INTERRUPT_DMA_FAULTED, fault_tag);
    if (status & WK_GPU_IRQ_FENCE) { /* BUG: WK_GPU_IRQ_COMPLETED was meant */
        UINT done = rd_read_reg(a, WK_GPU_REG_COMPLETED_TAG);
        if (!faulted || done != fault_tag)
            notify(a, DXGK_INTERRUPT_DMA_COMPLETED, done);
    }
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
