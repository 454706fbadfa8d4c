/* SPDX-License-Identifier: MIT */
/*
 * submit.c - DxgkDdiPatch, DxgkDdiSubmitCommand and the interrupt path:
 * final addresses into a submission, the submission onto the GPU's ring,
 * and the GPU's answer back to the kernel as DMA_COMPLETED or DMA_FAULTED.
 */
#include "independent.h"

/* The model's address operands are 64-bit little-endian, whatever the
 * host's byte order. */
static void put_le64(BYTE *at, UINT64 value)
{
    for (UINT i = 0; i < 8; i++)
        at[i] = (BYTE)(value >> (8 * i));
}

/* PATCH-CONFINE-001 (facts §5.3 T2): Patch may change only the 8 bytes of
 * listed operands inside [DmaBufferSubmissionStartOffset, End). An entry
 * outside that range belongs to another piece of the buffer (or is
 * corrupt) and is skipped; the range is cut to the buffer as well. */
static BOOLEAN in_submission(const DXGKARG_PATCH *p, UINT patch_offset)
{
    UINT64 end = p->DmaBufferSubmissionEndOffset;
    if (end > p->DmaBufferSize)
        end = p->DmaBufferSize;
    return patch_offset >= p->DmaBufferSubmissionStartOffset && (UINT64)patch_offset + 8 <= end;
}

/* T3 (PATCH-VALUE-001): the operand becomes PhysicalAddress +
 * AllocationOffset. An allocation that is not resident (SegmentId 0) has
 * no address to write. */
static void patch_one(const DXGKARG_PATCH *p, const D3DDDI_PATCHLOCATIONLIST *l)
{
    if (l->AllocationIndex >= p->AllocationListSize || !in_submission(p, l->PatchOffset))
        return;
    const DXGK_ALLOCATIONLIST *e = &p->pAllocationList[l->AllocationIndex];
    if (e->SegmentId == 0)
        return;
    put_le64((BYTE *)p->pDmaBuffer + l->PatchOffset, (UINT64)e->PhysicalAddress.QuadPart + l->AllocationOffset);
}

/* T9 (PATCH-STATUS-001): Patch cannot fail, so bad entries are skipped,
 * never reported. A paging buffer has no patch locations and the kernel
 * hands it read-only: nothing to do. */
NTSTATUS IndPatch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch)
{
    UNREFERENCED_PARAMETER(hAdapter);
    const DXGKARG_PATCH *p = pPatch;
    if (p->Flags.Paging || !p->pDmaBuffer || !p->pPatchLocationList || !p->pAllocationList)
        return STATUS_SUCCESS;
    /* This submission's entries, cut to the list (64-bit: cannot wrap). */
    UINT64 end = (UINT64)p->PatchLocationListSubmissionStart + p->PatchLocationListSubmissionLength;
    if (end > p->PatchLocationListSize)
        end = p->PatchLocationListSize;
    for (UINT64 i = p->PatchLocationListSubmissionStart; i < end; i++)
        patch_one(p, &p->pPatchLocationList[i]);
    return STATUS_SUCCESS;
}

/* T4, T5: the GPU fetches the submitted range at its GPU address, and
 * reports the fence id back as COMPLETED_TAG (or FAULT_TAG). The doorbell
 * only queues it: it runs after this DDI returns. */
NTSTATUS IndSubmitCommand(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *pSubmitCommand)
{
    const struct ind_adapter *a = hAdapter;
    const DXGKARG_SUBMITCOMMAND *s = pSubmitCommand;
    UINT64 address = (UINT64)s->DmaBufferPhysicalAddress.QuadPart + s->DmaBufferSubmissionStartOffset;
    ind_write(a, WK_GPU_REG_RING_ADDR_LO, (ULONG)address);
    ind_write(a, WK_GPU_REG_RING_ADDR_HI, (ULONG)(address >> 32));
    ind_write(a, WK_GPU_REG_RING_LENGTH, s->DmaBufferSubmissionEndOffset - s->DmaBufferSubmissionStartOffset);
    ind_write(a, WK_GPU_REG_RING_TAG, s->SubmissionFenceId);
    ind_write(a, WK_GPU_REG_DOORBELL, 1);
    return STATUS_SUCCESS;
}

static void notify(const struct ind_adapter *a, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *n)
{
    a->kernel.DxgkCbNotifyInterrupt(a->kernel.DeviceHandle, n);
}

static void notify_faulted(const struct ind_adapter *a, ULONG fence)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n;
    RtlZeroMemory(&n, sizeof(n));
    n.InterruptType = DXGK_INTERRUPT_DMA_FAULTED;
    n.DmaFaulted.FaultedFenceId = fence;
    n.DmaFaulted.Status = STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE;
    notify(a, &n);
}

static void notify_completed(const struct ind_adapter *a, ULONG fence)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n;
    RtlZeroMemory(&n, sizeof(n));
    n.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
    n.DmaCompleted.SubmissionFenceId = fence;
    notify(a, &n);
}

/* A faulted submission raises COMPLETED too; it is reported once, as the
 * fault. Every status bit read is acknowledged (FENCE and OVERFLOW, which
 * need no report, included) so the line goes quiet. */
BOOLEAN IndInterruptRoutine(VOID *const MiniportDeviceContext, ULONG MessageNumber)
{
    UNREFERENCED_PARAMETER(MessageNumber);
    const struct ind_adapter *a = MiniportDeviceContext;
    const ULONG status = ind_read(a, WK_GPU_REG_IRQ_STATUS);
    if (status == 0)
        return FALSE; /* not this device's interrupt */
    const BOOLEAN faulted = (status & WK_GPU_IRQ_FAULT) != 0;
    const ULONG fault_fence = faulted ? ind_read(a, WK_GPU_REG_FAULT_TAG) : 0;
    if (faulted)
        notify_faulted(a, fault_fence);
    if (status & WK_GPU_IRQ_COMPLETED) {
        ULONG fence = ind_read(a, WK_GPU_REG_COMPLETED_TAG);
        if (!faulted || fence != fault_fence)
            notify_completed(a, fence);
    }
    ind_write(a, WK_GPU_REG_IRQ_ACK, status);
    a->kernel.DxgkCbQueueDpc(a->kernel.DeviceHandle); /* the DPC, not the ISR, tells the scheduler */
    return TRUE;
}

/* Every fence is reported from the interrupt; the DPC, queued by it, tells
 * the scheduler at DISPATCH_LEVEL (WDK DXGKCB_NOTIFY_DPC: "The display
 * miniport driver's DPC callback routine calls DXGKCB_NOTIFY_DPC"). */
VOID IndDpcRoutine(VOID *const MiniportDeviceContext)
{
    const struct ind_adapter *a = MiniportDeviceContext;
    a->kernel.DxgkCbNotifyDpc(a->kernel.DeviceHandle);
}
