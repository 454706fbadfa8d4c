/* SPDX-License-Identifier: MIT */
/*
 * patch.c - DxgkDdiPatch: writes the final GPU address of every allocation
 * reference of a submission into the DMA buffer, in place (facts 5.3 T1).
 *
 * The patch list is the one Render produced, but the kernel hands it back
 * with its own ranges, so each entry is bounds-checked before it is used
 * (T2, T3): AllocationIndex inside the allocation list, the 8-byte operand
 * inside [DmaBufferSubmissionStartOffset, DmaBufferSubmissionEndOffset),
 * which itself lies inside the buffer. A bad entry is skipped with a trace:
 * Patch has no failure status (T9, facts 2.2 - any error bug-checks), and a
 * skipped entry leaves the pre-patched or zero address, which the GPU model
 * reports as a fault rather than letting the write land elsewhere.
 *
 * Entries whose allocation has SegmentId 0 are not resident and are left
 * alone. Paging buffers carry no lists (T8, P17): nothing to do. Patching
 * twice writes the same bytes (T6).
 */
#include "refdriver.h"

static BOOLEAN entry_in_range(const DXGKARG_PATCH *args, const D3DDDI_PATCHLOCATIONLIST *p)
{
    if (p->AllocationIndex >= args->AllocationListSize) {
        RD_TRACE("refdriver: Patch: AllocationIndex %u >= %u\n", p->AllocationIndex,
                 args->AllocationListSize);
        return FALSE;
    }
    UINT64 end = (UINT64)p->PatchOffset + 8;
    if (p->PatchOffset < args->DmaBufferSubmissionStartOffset ||
        end > args->DmaBufferSubmissionEndOffset) {
        RD_TRACE("refdriver: Patch: PatchOffset 0x%x outside [0x%x, 0x%x)\n", p->PatchOffset,
                 args->DmaBufferSubmissionStartOffset, args->DmaBufferSubmissionEndOffset);
        return FALSE;
    }
    return TRUE;
}

/* The submission range itself must lie in the buffer. */
static BOOLEAN submission_in_buffer(const DXGKARG_PATCH *args)
{
    return args->pDmaBuffer &&
           args->DmaBufferSubmissionStartOffset <= args->DmaBufferSubmissionEndOffset &&
           args->DmaBufferSubmissionEndOffset <= args->DmaBufferSize;
}

NTSTATUS wk_rd_patch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch)
{
    const DXGKARG_PATCH *args = pPatch;
    if (!rd_adapter_from(hAdapter) || !args || args->Flags.Paging)
        return STATUS_SUCCESS;
    if (!args->pPatchLocationList || !args->pAllocationList ||
        args->PatchLocationListSubmissionLength == 0)
        return STATUS_SUCCESS;
    if (!submission_in_buffer(args)) {
        RD_TRACE("refdriver: Patch: submission range outside the DMA buffer\n");
        return STATUS_SUCCESS;
    }
    UINT64 start = args->PatchLocationListSubmissionStart;
    UINT64 end = start + args->PatchLocationListSubmissionLength;
    if (end > args->PatchLocationListSize) {
        RD_TRACE("refdriver: Patch: entries [%llu, %llu) beyond the list of %u\n",
                 (unsigned long long)start, (unsigned long long)end, args->PatchLocationListSize);
        end = args->PatchLocationListSize;
    }
    BYTE *dma = args->pDmaBuffer;
    for (UINT64 i = start; i < end; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &args->pPatchLocationList[i];
        if (!entry_in_range(args, p))
            continue;
        const DXGK_ALLOCATIONLIST *e = &args->pAllocationList[p->AllocationIndex];
        if (e->SegmentId == 0)
            continue; /* not resident: the kernel will not submit it so */
        UINT64 address = (UINT64)e->PhysicalAddress.QuadPart + p->AllocationOffset;
        rd_put_le64(dma + p->PatchOffset, address);
    }
    return STATUS_SUCCESS;
}
