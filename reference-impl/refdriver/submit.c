/* SPDX-License-Identifier: MIT */
/*
 * submit.c - DxgkDdiSubmitCommand and DxgkDdiCancelCommand.
 *
 * Submission is four register writes and a doorbell: the model fetches the
 * DMA buffer itself. DmaBufferPhysicalAddress names the start of the whole
 * buffer (facts 5.3 T4); with DmaBufferSegmentId 0 it is a system physical
 * address, which the model reaches directly, otherwise a segment address
 * (T5) - a GPU address either way. The ring tag is the fence id, so the
 * interrupt reports it back (T7).
 *
 * Both DDIs must succeed (T9, K4; facts 2.2): they have no failure path.
 */
#include "refdriver.h"

static void note_submission(const DXGKARG_SUBMITCOMMAND *args)
{
    struct rd_dma_private *p = rd_dma_private_of(args->pDmaBufferPrivateData,
                                                 args->DmaBufferPrivateDataSize);
    if (p && p->magic == RD_MAGIC_DMA)
        p->submissions++;
}

NTSTATUS wk_rd_submit_command(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *pSubmitCommand)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    const DXGKARG_SUBMITCOMMAND *args = pSubmitCommand;
    if (!a || !args || !a->started)
        return STATUS_SUCCESS;
    UINT start = args->DmaBufferSubmissionStartOffset;
    UINT end = args->DmaBufferSubmissionEndOffset;
    if (end < start) {
        /* A kernel bug; submit nothing but still complete the fence, or
         * the scheduler would wait for it forever. */
        RD_TRACE("refdriver: SubmitCommand: end 0x%x < start 0x%x\n", end, start);
        end = start;
    }
    UINT64 addr = (UINT64)args->DmaBufferPhysicalAddress.QuadPart + start;
#ifdef RD_PLANTED_RING_FAR /* the planted bug of wk_test_gpummu_ring_far (CMakeLists.txt) */
    addr += 1ull << 40;
#endif
    /* The GpuMmu build's paging buffers of TRANSFER_VIRTUAL and FILL_VIRTUAL
     * run in the paging process, under the root its system context got; the
     * kernel maps the buffer there where its address says. */
    struct rd_dma_private *p = rd_dma_private_of(args->pDmaBufferPrivateData, args->DmaBufferPrivateDataSize);
    UINT kind = args->Flags.Paging && p && p->magic == RD_MAGIC_DMA ? p->kind : RD_DMA_NONE;
    UINT64 root = wk_rd_gpummu_submit_root(a, kind);
    if (root) {
        rd_write_reg(a, WK_GPU_REG_RING_ROOT_LO, (ULONG)root);
        rd_write_reg(a, WK_GPU_REG_RING_ROOT_HI, (ULONG)(root >> 32));
    }
    rd_write_reg(a, WK_GPU_REG_RING_ADDR_LO, (ULONG)addr);
    rd_write_reg(a, WK_GPU_REG_RING_ADDR_HI, (ULONG)(addr >> 32));
    rd_write_reg(a, WK_GPU_REG_RING_LENGTH, end - start);
    rd_write_reg(a, WK_GPU_REG_RING_TAG, args->SubmissionFenceId);
    rd_write_reg(a, WK_GPU_REG_DOORBELL, 1);
    if (root) { /* latched: the next submission runs physically again */
        rd_write_reg(a, WK_GPU_REG_RING_ROOT_LO, 0);
        rd_write_reg(a, WK_GPU_REG_RING_ROOT_HI, 0);
    }
    KIRQL irql = rd_lock_acquire(&a->lock);
    a->submitted_fence[args->NodeOrdinal % RD_MAX_NODES] = args->SubmissionFenceId;
    a->node_of_fence[args->SubmissionFenceId & 255u] = (UCHAR)(args->NodeOrdinal % RD_MAX_NODES);
    rd_lock_release(&a->lock, irql);
    note_submission(args);
    return STATUS_SUCCESS;
}

/* K1, K3: the packet never reached the hardware. The driver's only resource
 * tied to a DMA buffer is its private record, which is released by marking
 * it cancelled when the cancelled range covers it. */
NTSTATUS wk_rd_cancel_command(const HANDLE hAdapter, const DXGKARG_CANCELCOMMAND *pCancelCommand)
{
    const DXGKARG_CANCELCOMMAND *args = pCancelCommand;
    if (!rd_adapter_from(hAdapter) || !args)
        return STATUS_SUCCESS;
    struct rd_dma_private *p = rd_dma_private_of(args->pDmaBufferPrivateData,
                                                 args->DmaBufferPrivateDataSize);
    if (p && args->DmaBufferPrivateDataSubmissionStartOffset == 0 &&
        args->DmaBufferPrivateDataSubmissionEndOffset >= sizeof(*p) && p->magic == RD_MAGIC_DMA) {
        RtlZeroMemory(p, sizeof(*p));
        p->magic = RD_MAGIC_DMA;
        p->kind = RD_DMA_CANCELLED;
    }
    return STATUS_SUCCESS;
}
