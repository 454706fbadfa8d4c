/* SPDX-License-Identifier: MIT */
/*
 * patch_five_byte_slots.c - the reference driver with a Patch for a GPU
 * whose address slots are 5 bytes (40-bit bus addresses) at any byte, not
 * dword-aligned: an outsider's Finch F1 puts them at packet offsets 2 and
 * 7. Paired with the test binding TB_SLOT5 (tests/bindings/test_binding.c),
 * whose read_address decodes 5 little-endian bytes at any offset. A
 * correct driver: each entry of the submitted part with its index in the
 * list, its 5-byte slot inside [start, end) and a SegmentId gets
 * PhysicalAddress + AllocationOffset (facts 5.3 T2, T3; width and encoding
 * are the hardware's business); any other entry is skipped.
 *
 * fuzz_patch blamed Finch's correct driver with PATCH-VALUE-001 when its
 * input listed slots at +0 and +4 (5-byte slots that overlap, which no
 * Render writes): corpus/fuzz_patch/regressions/five-byte-slots-overlap.bin
 * replays clean on this module (tests/fuzz_binding_tests.cmake).
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#ifndef SLOT_BYTES
#define SLOT_BYTES 5u
#endif
/* Built with SLOT_BYTES 12 for TB_SLOT12: the address in the first 8 bytes
 * and a flags dword the hardware defines after it, which Patch writes too
 * (tests/fuzz_binding_tests.cmake). */
#define SLOT_FLAGS 0xA5u

/* Whether entry p of the submission is one to write (its index in the
 * list, its slot inside the submitted range of the buffer). */
static BOOLEAN writable(const DXGKARG_PATCH *p, const D3DDDI_PATCHLOCATIONLIST *l)
{
    UINT64 end = p->DmaBufferSubmissionEndOffset < p->DmaBufferSize ? p->DmaBufferSubmissionEndOffset
                                                                     : p->DmaBufferSize;
    return l->AllocationIndex < p->AllocationListSize && l->PatchOffset >= p->DmaBufferSubmissionStartOffset &&
           (UINT64)l->PatchOffset + SLOT_BYTES <= end;
}

static NTSTATUS patch_five_byte_slots(const HANDLE hAdapter, const DXGKARG_PATCH *p)
{
    (void)hAdapter;
    if (!p || p->Flags.Paging || !p->pDmaBuffer || !p->pPatchLocationList || !p->pAllocationList)
        return STATUS_SUCCESS;
    UINT64 last = (UINT64)p->PatchLocationListSubmissionStart + p->PatchLocationListSubmissionLength;
    if (last > p->PatchLocationListSize)
        last = p->PatchLocationListSize;
    for (UINT64 i = p->PatchLocationListSubmissionStart; i < last; i++) {
        const D3DDDI_PATCHLOCATIONLIST *l = &p->pPatchLocationList[i];
        if (!writable(p, l))
            continue;
        const DXGK_ALLOCATIONLIST *e = &p->pAllocationList[l->AllocationIndex];
        if (e->SegmentId == 0)
            continue; /* not resident */
        UINT64 address = (UINT64)e->PhysicalAddress.QuadPart + l->AllocationOffset;
        BYTE *at = (BYTE *)p->pDmaBuffer + l->PatchOffset;
        for (UINT k = 0; k < SLOT_BYTES; k++)
            at[k] = k < 8 ? (BYTE)(address >> (8 * k)) : (BYTE)SLOT_FLAGS;
    }
    return STATUS_SUCCESS;
}

static void replace_patch(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiPatch = patch_five_byte_slots;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, replace_patch);
}
