/* SPDX-License-Identifier: MIT */
/*
 * missing_ddis.c - the reference driver whose DRIVER_INITIALIZATION_DATA
 * leaves NULL the DDIs its compile definitions name (WK_MISSING_<DDI>,
 * tests/driver_build_tests.cmake), as a driver under development does
 * before it has written them.
 *
 * What the kit must do with it (DDI-TABLE-001, facts §5.11): say which
 * DDIs are missing before any case runs, fail the one case that checks the
 * table, and skip the cases that call a missing DDI with its name; never
 * pass the run as "all as expected".
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void leave_out(DRIVER_INITIALIZATION_DATA *init)
{
#ifdef WK_MISSING_CREATE_ALLOCATION
    init->DxgkDdiCreateAllocation = NULL;
#endif
#ifdef WK_MISSING_CREATE_CONTEXT
    init->DxgkDdiCreateContext = NULL;
#endif
#ifdef WK_MISSING_STOP_DEVICE
    init->DxgkDdiStopDevice = NULL;
#endif
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, leave_out);
}
