/* SPDX-License-Identifier: MIT */
/*
 * buggy_patch_list_range.c - planted bug: DxgkDdiPatch patches every entry
 * of the patch-location list it is handed, from 0 to PatchLocationListSize,
 * instead of the submission's entries [PatchLocationListSubmissionStart,
 * + PatchLocationListSubmissionLength).
 *
 * The bug as it happens in real drivers: with one submission per Render the
 * two ranges are the same, so the author never notices; when the kit (or
 * Windows) splits a Render's DMA buffer into several submissions, Patch of
 * one piece also writes the entries of the other pieces and the unused,
 * zeroed tail of the list. The submission-range check on PatchOffset is
 * kept, so what gets written is an entry that is not this submission's,
 * inside this submission's bytes: a zeroed entry names allocation 0 at
 * offset 0, and overwrites the first command's header.
 *
 * Caught by: PATCH-CONFINE-001 (a byte outside the listed slots changed) at
 * the render step of a split render (specs/patch.yaml,
 * patch.after-relocation), reachable through `render`, unlike
 * buggy_patch_offset.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void put_le64(BYTE *at, UINT64 v)
{
    for (int i = 0; i < 8; i++)
        at[i] = (BYTE)(v >> (8 * i));
}

/* Whether entry p may be written into this submission's bytes. */
static int inside_submission(const DXGKARG_PATCH *a, const D3DDDI_PATCHLOCATIONLIST *p)
{
    return p->PatchOffset >= a->DmaBufferSubmissionStartOffset &&
           (UINT64)p->PatchOffset + 8 <= a->DmaBufferSubmissionEndOffset;
}

static NTSTATUS buggy_patch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch)
{
    const DXGKARG_PATCH *a = pPatch;
    (void)hAdapter;
    if (!a || a->Flags.Paging || !a->pDmaBuffer || !a->pPatchLocationList || !a->pAllocationList)
        return STATUS_SUCCESS;
    BYTE *dma = a->pDmaBuffer;
    /* BUG: the whole list, not [PatchLocationListSubmissionStart, +Length). */
    for (UINT i = 0; i < a->PatchLocationListSize; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &a->pPatchLocationList[i];
        if (p->AllocationIndex >= a->AllocationListSize || !inside_submission(a, p))
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
