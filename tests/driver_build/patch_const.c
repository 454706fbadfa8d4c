/* SPDX-License-Identifier: MIT */
/*
 * patch_const.c - the reference driver whose DxgkDdiPatch writes to an
 * input it gets as const, one way per build (WK_TEST_PATCH_CONST), after
 * patching as the reference does: MEM-GUARD-001 naming what it wrote
 * (tests/driver_build_tests.cmake, conform.patch_const_*; outsider 25's
 * driver wrote both and passed):
 *
 *   1 args   DXGKARG_PATCH's DmaBufferSubmissionEndOffset;
 *   2 alloc  pAllocationList[0].SegmentId;
 *   3 patch  pPatchLocationList[PatchLocationListSubmissionStart].PatchOffset.
 */
#include "refwrap.h"

#ifndef WK_TEST_PATCH_CONST
#error "build with -DWK_TEST_PATCH_CONST=1, 2 or 3"
#endif

WK_DRIVER_EXPORT DRIVER_INITIALIZE DriverEntry;

static NTSTATUS writing_patch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiPatch(hAdapter, pPatch);
    if (WK_TEST_PATCH_CONST == 1)
        ((DXGKARG_PATCH *)(uintptr_t)pPatch)->DmaBufferSubmissionEndOffset += 8;
    else if (WK_TEST_PATCH_CONST == 2 && pPatch->AllocationListSize)
        ((DXGK_ALLOCATIONLIST *)(uintptr_t)pPatch->pAllocationList)[0].SegmentId ^= 1;
    else if (WK_TEST_PATCH_CONST == 3 && pPatch->PatchLocationListSubmissionLength)
        ((D3DDDI_PATCHLOCATIONLIST *)(uintptr_t)pPatch->pPatchLocationList)[pPatch->PatchLocationListSubmissionStart]
            .PatchOffset += 4;
    return st;
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiPatch = writing_patch;
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
