/* SPDX-License-Identifier: MIT */
/*
 * planted_patch_one_past_range.c - planted bug (CATALOGUE.md, entry 5):
 * DxgkDdiPatch applies one entry past the submission's part of the
 * patch-location list.
 *
 * The bug as it happens in real drivers: the loop over the submitted
 * entries is written `i <= PatchLocationListSubmissionLength` where it
 * means `<`. The entry after the last one is the next piece's first entry
 * when VidMm split the buffer (its PatchOffset is outside this piece, so the
 * range check skips it), and otherwise the unused, zeroed entry after the
 * last one Render wrote: allocation 0 at PatchOffset 0, which lies inside
 * the submission, so the address of allocation 0 is written over the first
 * command.
 *
 * Expected rule: PATCH-CONFINE-001 (Patch changes only the listed 8-byte
 * slots of the submission; facts §5.3 T2: the entries to apply are
 * pPatchLocationList[PatchLocationListSubmissionStart] and the
 * PatchLocationListSubmissionLength - 1 after it). Everything else is the
 * reference driver's Patch (reference-impl/refdriver/patch.c): the
 * AllocationIndex and PatchOffset checks are kept.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void put_le64(BYTE *at, UINT64 v)
{
    for (int i = 0; i < 8; i++)
        at[i] = (BYTE)(v >> (8 * i));
}

/* The reference's checks of one entry: a listed allocation, the 8-byte
 * operand inside [DmaBufferSubmissionStartOffset, DmaBufferSubmissionEndOffset). */
static BOOLEAN entry_in_range(const DXGKARG_PATCH *a, const D3DDDI_PATCHLOCATIONLIST *p)
{
    return p->AllocationIndex < a->AllocationListSize &&
           p->PatchOffset >= a->DmaBufferSubmissionStartOffset &&
           (UINT64)p->PatchOffset + 8 <= a->DmaBufferSubmissionEndOffset;
}

static NTSTATUS buggy_patch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch)
{
    const DXGKARG_PATCH *a = pPatch;
    (void)hAdapter;
    if (!a || a->Flags.Paging || !a->pDmaBuffer || !a->pPatchLocationList || !a->pAllocationList ||
        a->PatchLocationListSubmissionLength == 0 || a->DmaBufferSubmissionEndOffset > a->DmaBufferSize)
        return STATUS_SUCCESS;
    BYTE *dma = a->pDmaBuffer;
    /* BUG: `<=`: one entry past the submission's range. */
    for (UINT i = 0; i <= a->PatchLocationListSubmissionLength; i++) {
        UINT64 at = (UINT64)a->PatchLocationListSubmissionStart + i;
        if (at >= a->PatchLocationListSize)
            break; /* the reference's clamp to the list it was handed */
        const D3DDDI_PATCHLOCATIONLIST *p = &a->pPatchLocationList[at];
        if (!entry_in_range(a, p))
            continue;
        const DXGK_ALLOCATIONLIST *e = &a->pAllocationList[p->AllocationIndex];
        if (e->SegmentId == 0)
            continue;
        put_le64(dma + p->PatchOffset, (UINT64)e->PhysicalAddress.QuadPart + p->AllocationOffset);
    }
    return STATUS_SUCCESS;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiPatch = buggy_patch;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
