/* SPDX-License-Identifier: MIT */
/*
 * planted_gdi_context_list_size.c - planted bug (CATALOGUE.md, entry 23):
 * DxgkDdiCreateContext gives a GDI context the same AllocationListSize (64)
 * as every other context.
 *
 * The bug as it happens in real drivers: one DXGK_CONTEXTINFO is filled for
 * every kind of context, without looking at the creation flags. A GDI
 * context's list must have DXGK_ALLOCATION_LIST_SIZE_GDICONTEXT (256)
 * entries: the kernel builds GDI's hardware-accelerated commands with that
 * many (facts §5.7 X2; seed DXGK_CONTEXTINFO, AllocationListSize).
 *
 * Expected rule: CTX-GDI-001 (a GDI context has AllocationListSize 256).
 * This wrapper runs the reference driver's CreateContext and then writes the
 * buggy driver's size into the context information of a GDI context.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The reference driver's list size for every non-GDI context. */
#define ANY_CONTEXT_LIST_SIZE 64u

static NTSTATUS buggy_create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiCreateContext(hDevice, pCreateContext);
    if (NT_SUCCESS(st) && pCreateContext && pCreateContext->Flags.GdiContext)
        pCreateContext->ContextInfo.AllocationListSize = ANY_CONTEXT_LIST_SIZE; /* BUG */
    return st;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCreateContext = buggy_create_context;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
