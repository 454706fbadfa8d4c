/* SPDX-License-Identifier: MIT */
/*
 * planted_alloc_priority_zero.c - planted bug (CATALOGUE.md, entry 27):
 * DxgkDdiCreateAllocation copies the user-mode request's priority into
 * AllocationPriority as is: 0 when user mode asked for none.
 *
 * The bug as it happens in real drivers: the user-mode request says "0: the
 * driver's default" (include/wddmkit/umd.h, WK_ALLOCATION_REQUEST.Priority),
 * and the kernel-mode side forwards the field without applying the
 * default. AllocationPriority 0 is not a priority (facts §4.9: it is one of
 * the D3DDDI_ALLOCATIONPRIORITY levels, never 0).
 *
 * Expected rule: ALLOC-PRIO-001 (AllocationPriority is not 0). This wrapper
 * runs the reference driver's CreateAllocation and then writes the
 * request's raw priority into each allocation it described.
 */
#include <string.h>

#include "refwrap.h"
#include "wddmkit/umd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS buggy_create_allocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *pCreateAllocation)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiCreateAllocation(hAdapter, pCreateAllocation);
    if (!NT_SUCCESS(st) || !pCreateAllocation)
        return st;
    for (UINT i = 0; i < pCreateAllocation->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO *info = &pCreateAllocation->pAllocationInfo[i];
        WK_ALLOCATION_REQUEST req; /* the reference accepted it: whole and well formed */
        memcpy(&req, info->pPrivateDriverData, sizeof(req));
        info->AllocationPriority = req.Priority; /* BUG: 0 is "the default", not a priority */
    }
    return st;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCreateAllocation = buggy_create_allocation;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
