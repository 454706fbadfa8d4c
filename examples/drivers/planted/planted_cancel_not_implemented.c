/* SPDX-License-Identifier: MIT */
/*
 * planted_cancel_not_implemented.c - planted bug (CATALOGUE.md, entry 28):
 * the driver sets CancelCommandAware but its DxgkDdiCancelCommand returns
 * STATUS_NOT_IMPLEMENTED.
 *
 * The bug as it happens in real drivers: the cap is copied with the rest of
 * the scheduling caps and the DDI is left a stub; Microsoft's render-only
 * sample does exactly that (facts §6). CancelCommand is called only on
 * drivers that set the cap, and it returns success: "a failure is bug check
 * 0x119 with first parameter 9" (facts §5.9 K2, K4; seed
 * DXGKARG_CANCELCOMMAND).
 *
 * Expected rule: CANCEL-STATUS-001 (CancelCommand returns SUCCESS). The
 * reference driver's caps are kept, CancelCommandAware included.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS buggy_cancel_command(const HANDLE hAdapter, const DXGKARG_CANCELCOMMAND *pCancelCommand)
{
    (void)hAdapter;
    (void)pCancelCommand;
    return STATUS_NOT_IMPLEMENTED; /* BUG: a stub behind an advertised cap */
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCancelCommand = buggy_cancel_command;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
