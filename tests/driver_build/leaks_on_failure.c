/* SPDX-License-Identifier: MIT */
/*
 * leaks_on_failure.c - the reference driver whose DxgkDdiCreateDevice takes
 * a pool block of its own first (a per-device record a real driver keeps)
 * and, when the reference CreateDevice then fails, returns the failure
 * without freeing it: the failure path that leaks, which only a failure
 * under the driver reaches (tests/fault_injection_tests.cmake).
 *
 * With specs/fault-injection.yaml: pool-create-device-1 fails this
 * driver's own allocation, which it reports as NO_MEMORY with nothing
 * taken (a pass); pool-create-device-2 fails the reference driver's, and
 * the block leaks: POOL-LEAK-001 at teardown.
 */
#include "refwrap.h"
#include "wddmkit/km.h" /* ExAllocatePool2 */

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#define RECORD_TAG 0x4B41454Cu /* 'LEAK' */

static NTSTATUS create_device(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice)
{
    void *record = ExAllocatePool2(POOL_FLAG_NON_PAGED, 64, RECORD_TAG);
    if (!record)
        return STATUS_NO_MEMORY;
    NTSTATUS st = wk_wrap_reference.DxgkDdiCreateDevice(hAdapter, pCreateDevice);
    if (!NT_SUCCESS(st))
        return st; /* BUG: the record is not freed */
    /* A device's record would live with it; this one goes at once, so the
     * success path leaks nothing. */
    ExFreePoolWithTag(record, RECORD_TAG);
    return st;
}

static void replace(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCreateDevice = create_device;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, replace);
}
