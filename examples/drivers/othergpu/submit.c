/* SPDX-License-Identifier: MIT */
/*
 * submit.c - DxgkDdiPatch, DxgkDdiSubmitCommand and the interrupt path.
 *
 * Patch writes OtherGPU's address encoding (othergpu.h: 8 bytes, the valid
 * bit in the high word) at each listed PatchOffset, and only inside the
 * submission range cut to the buffer (PATCH-CONFINE-001). OtherGPU's ring
 * and interrupt registers are not on the kit's BAR (the kit's BAR is its
 * GPU model's), so SubmitCommand records the submission in the driver's
 * software ring and writes no register; no OtherGPU interrupt ever comes,
 * so InterruptRoutine claims none and the kit retires what was submitted.
 *
 * OG_BUG_PATCH_OFFSET (a planted bug): Patch does not check PatchOffset
 * against the submission range.
 */
#include "othergpu.h"

/* The 8 bytes at `offset` lie inside [SubmissionStart, SubmissionEnd)
 * and inside the buffer (64-bit: cannot wrap). */
static BOOLEAN in_submission(const DXGKARG_PATCH *p, UINT offset)
{
#ifdef OG_BUG_PATCH_OFFSET
    UNREFERENCED_PARAMETER(p);
    UNREFERENCED_PARAMETER(offset);
    return TRUE;
#else
    UINT64 end = p->DmaBufferSubmissionEndOffset;
    if (end > p->DmaBufferSize)
        end = p->DmaBufferSize;
    return offset >= p->DmaBufferSubmissionStartOffset && (UINT64)offset + 8 <= end;
#endif
}

/* OG_DMA_IN_GART: the variant asked for its DMA and paging buffers in the
 * GART (objects.c, segments.c), and OtherGPU's command processor fetches
 * them through the GART only, so anything else is a broken promise of the
 * kernel's (T5: the id is the segment the buffer is in, the address a
 * segment address). */
static void expect_gart(UINT segment, PHYSICAL_ADDRESS address)
{
#ifdef OG_DMA_IN_GART
    NT_ASSERT(segment == OG_SEGMENT_GART);
    NT_ASSERT((ULONGLONG)address.QuadPart >= OG_GART_BASE && (ULONGLONG)address.QuadPart < OG_GART_BASE + OG_GART_SIZE);
#else
    UNREFERENCED_PARAMETER(segment);
    UNREFERENCED_PARAMETER(address);
#endif
}

/* Patch cannot fail (PATCH-STATUS-001): a bad entry is skipped, an
 * allocation that is not resident (SegmentId 0) has no address yet, and a
 * paging buffer has no patch locations (the kernel hands it read-only). */
NTSTATUS OgPatch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch)
{
    UNREFERENCED_PARAMETER(hAdapter);
    const DXGKARG_PATCH *p = pPatch;
    expect_gart(p->DmaBufferSegmentId, p->DmaBufferPhysicalAddress);
    if (p->Flags.Paging || !p->pDmaBuffer || !p->pPatchLocationList || !p->pAllocationList)
        return STATUS_SUCCESS;
    UINT64 last = (UINT64)p->PatchLocationListSubmissionStart + p->PatchLocationListSubmissionLength;
    if (last > p->PatchLocationListSize)
        last = p->PatchLocationListSize;
    for (UINT64 i = p->PatchLocationListSubmissionStart; i < last; i++) {
        const D3DDDI_PATCHLOCATIONLIST *l = &p->pPatchLocationList[i];
        if (l->AllocationIndex >= p->AllocationListSize || !in_submission(p, l->PatchOffset))
            continue;
        const DXGK_ALLOCATIONLIST *e = &p->pAllocationList[l->AllocationIndex];
        if (e->SegmentId == 0)
            continue;
        og_encode_addr((BYTE *)p->pDmaBuffer + l->PatchOffset,
                       (UINT64)e->PhysicalAddress.QuadPart + l->AllocationOffset);
    }
    return STATUS_SUCCESS;
}

/* The doorbell of OtherGPU would take the range's bus address and the
 * fence; here the software ring keeps the fence. */
NTSTATUS OgSubmitCommand(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *pSubmitCommand)
{
    struct og_adapter *a = hAdapter;
    expect_gart(pSubmitCommand->DmaBufferSegmentId, pSubmitCommand->DmaBufferPhysicalAddress);
    a->last_submitted_fence = pSubmitCommand->SubmissionFenceId;
    return STATUS_SUCCESS;
}

/* Not OtherGPU's interrupt: the line the kit asserts is its model's. */
BOOLEAN OgInterruptRoutine(VOID *const MiniportDeviceContext, ULONG MessageNumber)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    UNREFERENCED_PARAMETER(MessageNumber);
    return FALSE;
}

VOID OgDpcRoutine(VOID *const MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
}
