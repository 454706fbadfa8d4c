/* SPDX-License-Identifier: MIT */
/*
 * planted_fence_reported_again.c - planted bug (CATALOGUE.md, entry 30): a
 * "catch-up" in the DPC reports COMPLETED_TAG again when it is >= the last
 * fence the interrupt routine reported, where it means >.
 *
 * The bug as it happens in real drivers: a driver that fears a lost
 * interrupt re-reads the GPU's completed tag in its DPC and, synchronised
 * with the ISR (DxgkCbSynchronizeExecution), reports it when it is newer
 * than the last one reported. Written with >=, it reports the fence the ISR
 * just reported a second time, on every DPC. A fence id reported complete
 * that is not pending is bug check 0x119 with first parameter 1 (facts
 * §2.2, the 0x119 codes).
 *
 * Expected rule: INTR-FENCE-001 (a completed fence id is one that was
 * submitted and not yet completed). The interrupt routine is the reference
 * driver's, which records the last fence it reported in its adapter
 * (completed_fence, reference-impl/refdriver/interrupt.c); the DPC routine
 * is replaced.
 */
#include "refwrap.h"
#include "refdriver/refdriver.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Runs synchronised with the ISR. */
static BOOLEAN catch_up(PVOID context)
{
    struct rd_adapter *a = context;
    UINT done = rd_read_reg(a, WK_GPU_REG_COMPLETED_TAG);
    if (done == 0 || done < a->completed_fence) /* BUG: done == completed_fence is reported again */
        return FALSE;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n;
    RtlZeroMemory(&n, sizeof(n));
    n.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
    n.DmaCompleted.SubmissionFenceId = done;
    a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
    a->completed_fence = done;
    return TRUE;
}

static VOID buggy_dpc_routine(VOID *const MiniportDeviceContext)
{
    struct rd_adapter *a = rd_adapter_from(MiniportDeviceContext);
    if (!a)
        return;
    a->dpc_count++;
    BOOLEAN reported = FALSE;
    if (a->started && a->dxgk.DxgkCbSynchronizeExecution)
        a->dxgk.DxgkCbSynchronizeExecution(a->dxgk.DeviceHandle, catch_up, a, 0, &reported);
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiDpcRoutine = buggy_dpc_routine;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
