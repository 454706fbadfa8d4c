/* SPDX-License-Identifier: MIT */
/*
 * planted_patch_ignores_allocation_offset.c - planted bug (CATALOGUE.md,
 * entry 6): DxgkDdiPatch writes the allocation's PhysicalAddress without
 * adding the patch entry's AllocationOffset.
 *
 * The bug as it happens in real drivers: Render already wrote the operand
 * as base + offset (pre-patching), so the author thinks of the offset as
 * "in the command" and has Patch write the new base only. But Patch
 * replaces the whole 8-byte operand: every reference into the middle of an
 * allocation then points at its first byte once the allocation has moved
 * (or was not resident at Render).
 *
 * Expected rule: PATCH-VALUE-001 (after Patch each listed location holds
 * PhysicalAddress + AllocationOffset; facts §5.3 T3). Everything else is the
 * reference driver's Patch (reference-impl/refdriver/patch.c).
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void put_le64(BYTE *at, UINT64 v)
{
    for (int i = 0; i < 8; i++)
        at[i] = (BYTE)(v >> (8 * i));
}

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
        a->DmaBufferSubmissionEndOffset > a->DmaBufferSize)
        return STATUS_SUCCESS;
    UINT64 end = (UINT64)a->PatchLocationListSubmissionStart + a->PatchLocationListSubmissionLength;
    if (end > a->PatchLocationListSize)
        end = a->PatchLocationListSize;
    BYTE *dma = a->pDmaBuffer;
    for (UINT64 i = a->PatchLocationListSubmissionStart; i < end; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &a->pPatchLocationList[i];
        if (!entry_in_range(a, p))
            continue;
        const DXGK_ALLOCATIONLIST *e = &a->pAllocationList[p->AllocationIndex];
        if (e->SegmentId == 0)
            continue;
        /* BUG: p->AllocationOffset is not added. */
        put_le64(dma + p->PatchOffset, (UINT64)e->PhysicalAddress.QuadPart);
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
