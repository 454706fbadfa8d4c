/* SPDX-License-Identifier: MIT */
/*
 * fence_16bit.c - the reference driver whose DxgkDdiInterruptRoutine
 * carries the fence ids it reports in 16-bit variables: the bug an outside
 * driver author planted, which no case found while the kit's fence ids
 * started at 1 and never reached 0x10000.
 *
 * SubmissionFenceId is a UINT (facts §4.4, §4.5), and DMA_COMPLETED must
 * name the fence of the completed submission (§5.12 N1): from id 0x10000
 * on, this driver reports the id's low 16 bits, a fence that was never
 * submitted (bug check 0x119, first parameter 1, facts §2.2). Expected
 * rule: INTR-FENCE-001, on the submit-fence.ids-* cases that start the ids
 * high (adapter first_fence); every case with low ids passes.
 *
 * The routine is the reference driver's (reference-impl/refdriver/
 * interrupt.c) with the tags read into UINT16.
 */
#include <stdint.h>

#include "refwrap.h"
#include "refdriver/refdriver.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void notify(struct rd_adapter *a, DXGK_INTERRUPT_TYPE type, uint16_t fence)
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

static BOOLEAN interrupt_routine_16bit(VOID *const MiniportDeviceContext, ULONG MessageNumber)
{
    UNREFERENCED_PARAMETER(MessageNumber);
    struct rd_adapter *a = rd_adapter_from(MiniportDeviceContext);
    if (!a || !a->started)
        return FALSE;
    ULONG status = rd_read_reg(a, WK_GPU_REG_IRQ_STATUS);
    if (status == 0)
        return FALSE;
    BOOLEAN faulted = (status & WK_GPU_IRQ_FAULT) != 0;
    /* BUG: a fence id is 32 bits; these keep the low 16. */
    uint16_t fault_tag = (uint16_t)(faulted ? rd_read_reg(a, WK_GPU_REG_FAULT_TAG) : 0);
    if (faulted)
        notify(a, DXGK_INTERRUPT_DMA_FAULTED, fault_tag);
    if (status & WK_GPU_IRQ_COMPLETED) {
        uint16_t done = (uint16_t)rd_read_reg(a, WK_GPU_REG_COMPLETED_TAG);
        if (!faulted || done != fault_tag)
            notify(a, DXGK_INTERRUPT_DMA_COMPLETED, done);
    }
    rd_write_reg(a, WK_GPU_REG_IRQ_ACK, status);
    a->dxgk.DxgkCbQueueDpc(a->dxgk.DeviceHandle); /* the DPC tells the scheduler, as the reference's */
    return TRUE;
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiInterruptRoutine = interrupt_routine_16bit;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
