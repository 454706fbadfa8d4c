/* SPDX-License-Identifier: MIT */
/*
 * buggy_patch_offset.c - planted bug: DxgkDdiPatch writes each address at
 * PatchOffset without checking that the 8-byte operand lies inside the
 * submission range (or even inside the DMA buffer).
 *
 * The bug as it happens in real drivers: the patch list is the one the
 * driver's own Render produced, so the author trusts its offsets. But the
 * kernel hands Patch a sub-range of the buffer ([DmaBufferSubmissionStart,
 * End)) and a range of the list, and a corrupted or stale list (or a range
 * the driver did not expect) makes Patch write outside what is being
 * submitted: into a piece already on the GPU, or past the buffer.
 *
 * Caught by: PATCH-CONFINE-001 (a byte outside the listed slots of the
 * submitted range changed) or MEM-GUARD-001 (a write past the DMA buffer's
 * guard page), found by fuzz_patch. Everything else is the reference
 * driver's Patch (reference-impl/refdriver/patch.c), checks included: the
 * list range is clamped and AllocationIndex is bounded.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void put_le64(BYTE *at, UINT64 v)
{
    for (int i = 0; i < 8; i++)
        at[i] = (BYTE)(v >> (8 * i));
}

static NTSTATUS buggy_patch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch)
{
    const DXGKARG_PATCH *a = pPatch;
    (void)hAdapter;
    if (!a || a->Flags.Paging || !a->pDmaBuffer || !a->pPatchLocationList || !a->pAllocationList)
        return STATUS_SUCCESS;
    UINT64 end = (UINT64)a->PatchLocationListSubmissionStart + a->PatchLocationListSubmissionLength;
    if (end > a->PatchLocationListSize)
        end = a->PatchLocationListSize;
    BYTE *dma = a->pDmaBuffer;
    for (UINT64 i = a->PatchLocationListSubmissionStart; i < end; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &a->pPatchLocationList[i];
        if (p->AllocationIndex >= a->AllocationListSize)
            continue;
        const DXGK_ALLOCATIONLIST *e = &a->pAllocationList[p->AllocationIndex];
        if (e->SegmentId == 0)
            continue;
        /* BUG: PatchOffset is not checked against
         * [DmaBufferSubmissionStartOffset, DmaBufferSubmissionEndOffset). */
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
