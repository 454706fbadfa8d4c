/* SPDX-License-Identifier: MIT */
/*
 * interrupt.c - DxgkDdiInterruptRoutine and DxgkDdiDpcRoutine.
 *
 * The ISR reads IRQ_STATUS once, reports what it found through
 * DxgkCbNotifyInterrupt, acknowledges exactly the bits it read (IRQ_ACK is
 * write-1-to-clear) and queues the DPC. It claims the interrupt only when a
 * bit was set, as a shared-line ISR must (a zero status is someone else's).
 *
 * Order of reports. The model sets COMPLETED for every finished submission,
 * faulted ones included, and keeps only the last COMPLETED_TAG and
 * FAULT_TAG. A fault is reported first (DMA_FAULTED, FaultedFenceId =
 * FAULT_TAG, STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE; a page fault of the
 * MMU as DMA_PAGE_FAULTED); COMPLETED_TAG is then
 * reported as DMA_COMPLETED unless it is the faulted fence itself, which
 * must not also be called complete. Fence ids rise, so reporting the last
 * completed one completes all before it (facts 5.3 T7).
 *
 * FENCE (a SIGNAL_MONITORED_FENCE ran; the value is already in memory),
 * OVERFLOW and GART_ERROR need no report to the scheduler; they are
 * acknowledged so the line goes quiet (an unacknowledged level interrupt
 * would storm).
 */
#include "refdriver.h"

static void notify_faulted(struct rd_adapter *a, UINT fence)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n;
    RtlZeroMemory(&n, sizeof(n));
    n.InterruptType = DXGK_INTERRUPT_DMA_FAULTED;
    n.DmaFaulted.FaultedFenceId = fence;
    n.DmaFaulted.Status = STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE;
    n.DmaFaulted.NodeOrdinal = a->node_of_fence[fence & 255u];
    n.DmaFaulted.EngineOrdinal = 0;
    a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
    a->faulted_fence = fence;
}

/* A fault of the MMU (a virtual submission's address it could not use) is
 * a page fault, forwarded as DMA_PAGE_FAULTED with the address FAULT_ADDR
 * holds (WDDM 2.0, docs/wddm-gpummu-facts.md 5.5 F2): the submission is
 * known (FAULT_TAG), so FENCE_INVALID stays clear; a write to a read-only
 * page is a write. The GPU says neither the level nor the draw. */
static int is_page_fault(UINT reason)
{
#ifdef RD_PLANTED_PAGE_FAULT_AS_FAULT /* the planted bug of wk_test_gpummu_pf_as_fault (CMakeLists.txt) */
    (void)reason;
    return 0;
#endif
    return reason < WK_GPU_FAULT_REASON_COUNT && wk_gpu_fault_is_translation((enum wk_gpu_fault_reason)reason);
}

static void notify_page_faulted(struct rd_adapter *a, UINT fence, UINT reason)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n;
    RtlZeroMemory(&n, sizeof(n));
    n.InterruptType = DXGK_INTERRUPT_DMA_PAGE_FAULTED;
    n.DmaPageFaulted.FaultedFenceId = fence;
    n.DmaPageFaulted.FaultedPrimitiveAPISequenceNumber = DXGK_PRIMITIVE_API_SEQUENCE_NUMBER_UNKNOWN;
    n.DmaPageFaulted.FaultedPipelineStage = DXGK_RENDER_PIPELINE_STAGE_UNKNOWN;
    n.DmaPageFaulted.FaultedBindTableEntry = DXGK_BIND_TABLE_ENTRY_UNKNOWN;
    n.DmaPageFaulted.PageFaultFlags = reason == WK_GPU_FAULT_VA_READ_ONLY ? DXGK_PAGE_FAULT_WRITE : 0;
    n.DmaPageFaulted.FaultedVirtualAddress = (D3DGPU_VIRTUAL_ADDRESS)rd_read_reg(a, WK_GPU_REG_FAULT_ADDR_LO) |
                                             (D3DGPU_VIRTUAL_ADDRESS)rd_read_reg(a, WK_GPU_REG_FAULT_ADDR_HI) << 32;
    n.DmaPageFaulted.NodeOrdinal = 0;
    n.DmaPageFaulted.EngineOrdinal = 0;
    n.DmaPageFaulted.FaultErrorCode.GeneralErrorCode = DXGK_GENERAL_ERROR_PAGE_FAULT;
    a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
    a->faulted_fence = fence;
}

static void notify_completed(struct rd_adapter *a, UINT fence)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n;
    RtlZeroMemory(&n, sizeof(n));
    n.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
    n.DmaCompleted.SubmissionFenceId = fence;
    n.DmaCompleted.NodeOrdinal = a->node_of_fence[fence & 255u];
#ifdef RD_PLANTED_COMPLETIONS_NODE0 /* the planted bug of wk_test_two_nodes_node0 (CMakeLists.txt) */
    n.DmaCompleted.NodeOrdinal = 0;
#endif
    n.DmaCompleted.EngineOrdinal = 0;
    a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
    a->completed_fence = fence;
}

BOOLEAN wk_rd_interrupt_routine(VOID *const MiniportDeviceContext, ULONG MessageNumber)
{
    UNREFERENCED_PARAMETER(MessageNumber); /* one line-based interrupt */
    struct rd_adapter *a = rd_adapter_from(MiniportDeviceContext);
    if (!a || !a->started)
        return FALSE;
    ULONG status = rd_read_reg(a, WK_GPU_REG_IRQ_STATUS);
    if (status == 0)
        return FALSE;
    BOOLEAN faulted = (status & WK_GPU_IRQ_FAULT) != 0;
    UINT fault_tag = faulted ? rd_read_reg(a, WK_GPU_REG_FAULT_TAG) : 0;
    if (faulted) {
        UINT reason = rd_read_reg(a, WK_GPU_REG_FAULT_REASON);
        if (is_page_fault(reason))
            notify_page_faulted(a, fault_tag, reason);
        else
            notify_faulted(a, fault_tag);
    }
    if (status & WK_GPU_IRQ_COMPLETED) {
        UINT done = rd_read_reg(a, WK_GPU_REG_COMPLETED_TAG);
#ifdef RD_PLANTED_ONE_PER_INTERRUPT /* wk_test_one_per_interrupt: one buffer done per interrupt, assumed */
        done = a->completed_fence + 1;
#endif
#ifdef RD_PLANTED_REPORT_SUBMITTED /* wk_test_report_submitted: the last fence submitted, not the one done */
        done = a->submitted_fence[a->node_of_fence[done & 255u]];
#endif
        if (!faulted || done != fault_tag)
            notify_completed(a, done);
    }
    if (status & (WK_GPU_IRQ_OVERFLOW | WK_GPU_IRQ_GART_ERROR))
        RD_TRACE("refdriver: ISR: status 0x%x (queue overflow or GART error)\n", status);
    rd_write_reg(a, WK_GPU_REG_IRQ_ACK, status);
    a->dxgk.DxgkCbQueueDpc(a->dxgk.DeviceHandle); /* the DPC tells the scheduler (INTR-DPC-001) */
    return TRUE;
}

/* At DISPATCH_LEVEL, after the interrupt routine's DxgkCbQueueDpc: the
 * scheduler learns of the fences reported (WDK DXGKCB_NOTIFY_DPC: the DPC
 * routine calls it). */
VOID wk_rd_dpc_routine(VOID *const MiniportDeviceContext)
{
    struct rd_adapter *a = rd_adapter_from(MiniportDeviceContext);
    if (!a)
        return;
    a->dpc_count++;
    a->dxgk.DxgkCbNotifyDpc(a->dxgk.DeviceHandle);
}
