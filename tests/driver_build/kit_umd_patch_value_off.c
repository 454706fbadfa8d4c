/* SPDX-License-Identifier: MIT */
/*
 * kit_umd_patch_value_off.c - the reference driver declaring
 * WK_DRIVER_READS_KIT_UMD, with a Patch that writes every address one page
 * too high (the reference's Patch, then 0x1000 added to each slot it
 * patched in the submitted range): PATCH-VALUE-001, a contract rule, so it
 * is caught even when nothing executes the buffers (WK_GPU=none).
 *
 * Why: a driver for other hardware that reads the kit's user-mode format
 * (outsider 5's, with a binding that has no encoder) had its render steps
 * dropped by fuzz_prog and was refused by fuzz_render, where conform ran
 * them: a Patch bug conform caught went unseen by every fuzz harness.
 * tests/gpu_none_tests.cmake.
 */
#include "refwrap.h"

WK_DRIVER_READS_KIT_UMD;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void add_le64(BYTE *at, UINT64 delta)
{
    UINT64 v = 0;
    for (int i = 0; i < 8; i++)
        v |= (UINT64)at[i] << (8 * i);
    v += delta;
    for (int i = 0; i < 8; i++)
        at[i] = (BYTE)(v >> (8 * i));
}

static NTSTATUS patch_value_off(const HANDLE hAdapter, const DXGKARG_PATCH *a)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiPatch(hAdapter, a);
    if (!NT_SUCCESS(st) || a->Flags.Paging || !a->pDmaBuffer || !a->pPatchLocationList || !a->pAllocationList)
        return st;
    UINT64 end = (UINT64)a->PatchLocationListSubmissionStart + a->PatchLocationListSubmissionLength;
    for (UINT64 i = a->PatchLocationListSubmissionStart; i < end && i < a->PatchLocationListSize; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &a->pPatchLocationList[i];
        if (p->AllocationIndex >= a->AllocationListSize || a->pAllocationList[p->AllocationIndex].SegmentId == 0)
            continue;
        if (p->PatchOffset >= a->DmaBufferSubmissionStartOffset &&
            (UINT64)p->PatchOffset + 8 <= a->DmaBufferSubmissionEndOffset)
            add_le64((BYTE *)a->pDmaBuffer + p->PatchOffset, 0x1000); /* BUG */
    }
    return st;
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiPatch = patch_value_off;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
