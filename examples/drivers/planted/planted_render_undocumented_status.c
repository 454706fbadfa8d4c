/* SPDX-License-Identifier: MIT */
/*
 * planted_render_undocumented_status.c - planted bug (CATALOGUE.md, entry
 * 9): DxgkDdiRender refuses a user record with an opcode it does not know
 * with STATUS_NOT_SUPPORTED.
 *
 * The bug as it happens in real drivers: STATUS_NOT_SUPPORTED is the
 * generic NT answer to "I do not do that", and the author reaches for it.
 * Render's page lists the statuses Render may return (facts §2.2), and for
 * a command the hardware does not have it is STATUS_ILLEGAL_INSTRUCTION;
 * the kernel does not know what to make of any other.
 *
 * Expected rule: RENDER-STATUS-001 (Render returns one of the documented
 * statuses). This wrapper runs the reference driver's Render, which answers
 * STATUS_ILLEGAL_INSTRUCTION exactly for an unknown opcode, and returns the
 * buggy driver's status in its place.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS buggy_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    if (st == STATUS_ILLEGAL_INSTRUCTION)
        return STATUS_NOT_SUPPORTED; /* BUG: not a Render status */
    return st;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = buggy_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
