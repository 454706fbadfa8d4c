/* SPDX-License-Identifier: MIT */
/*
 * version13_garbage.c - the reference driver's DDIs in a table that says
 * DXGKDDI_INTERFACE_VERSION_WDDM1_3, with garbage in every member that
 * version does not define, and a DxgkDdiEscape the kit never calls.
 *
 * A member newer than the driver's Version is absent (docs/wddm-ddi-tables.md,
 * section 1: the guards): the kit must neither call nor even read it, so
 * this driver passes the suite as the reference driver does in the contract
 * profile, and `wddmkit driver check` names Escape alone among the DDIs it
 * fills that the kit never calls (tests/driver_build_tests.cmake).
 */
#include <string.h>

#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS escape(const HANDLE hAdapter, const DXGKARG_ESCAPE *pEscape)
{
    (void)hAdapter;
    (void)pEscape;
    return STATUS_NOT_SUPPORTED;
}

/* 1.3 and garbage past its members (at DxgkDdiRenderGdi, WDDM 2.0's first). */
static void as_version_13(DRIVER_INITIALIZATION_DATA *init)
{
    init->Version = DXGKDDI_INTERFACE_VERSION_WDDM1_3;
    init->DxgkDdiEscape = escape;
    size_t from = offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderGdi);
    memset((char *)init + from, 0xA5, sizeof(*init) - from);
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, as_version_13);
}
