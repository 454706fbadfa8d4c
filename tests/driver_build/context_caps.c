/* SPDX-License-Identifier: MIT */
/*
 * context_caps.c - the reference driver whose DxgkDdiCreateContext reports
 * the DXGK_CONTEXTINFO.Caps bits WK_CONTEXT_CAPS names (the reference
 * driver reports none), and which with WK_NO_PATCH leaves DxgkDdiPatch
 * NULL (tests/driver_build_tests.cmake builds one module per variant).
 *
 * What the kit must do with each (reference-impl/vidmm/context_caps.c):
 *  - NoPatchingRequired (0x1) with the reference Patch: no Patch is called
 *    for its contexts, so the cases whose allocations are not where Render
 *    saw them (evicted, relocated, never resident, no pre-patch
 *    information) run wrong addresses and fail, the message naming the
 *    cap; the cases Render pre-patched for good still pass.
 *  - NoPatchingRequired without a Patch: not told Patch is missing
 *    (adapter-start.ddi-table passes).
 *  - no cap and no Patch: DDI-TABLE-001 names Patch, and the render cases
 *    are skipped for it.
 *  - DriverManagesResidency (0x2) or UseIoMmu (0x4): not modelled, so
 *    their render cases are skipped with the cap's name, never failed.
 */
#include "refwrap.h"

#ifndef WK_CONTEXT_CAPS
#define WK_CONTEXT_CAPS 0u
#endif

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiCreateContext(hDevice, pCreateContext);
    if (NT_SUCCESS(st))
        pCreateContext->ContextInfo.Caps.Value |= WK_CONTEXT_CAPS;
    return st;
}

static void replace(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCreateContext = create_context;
#ifdef WK_NO_PATCH
    init->DxgkDdiPatch = NULL;
#endif
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, replace);
}
