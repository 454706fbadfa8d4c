/* SPDX-License-Identifier: MIT */
/*
 * heap_overflow.c - a driver under test with a heap overflow in its own
 * code: DxgkDdiCreateDevice writes one byte past a pool block it allocated,
 * then lets the reference driver create the device.
 *
 * Why: a build that sanitizes only drivers (WK_SANITIZE_SCOPE=driver, the
 * libfuzzer-driver preset) must still catch the driver's memory errors with
 * ASan; tests/sanitize_scope.sh expects a heap-buffer-overflow report that
 * names this file.
 */
#include "refwrap.h"
#include "wddmkit/km.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#define TAG 0x7766766Fu /* "ovfw" */

static NTSTATUS overflowing_create_device(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice)
{
    volatile SIZE_T size = 16; /* volatile: the compiler does not see the overflow coming */
    volatile UCHAR *block = ExAllocatePoolWithTag(NonPagedPoolNx, size, TAG);
    if (block) {
        block[size] = 1; /* BUG: one past the bytes allocated */
        ExFreePoolWithTag((PVOID)block, TAG);
    }
    return wk_wrap_reference.DxgkDdiCreateDevice(hAdapter, pCreateDevice);
}

/* The DDI this driver replaces. */
static void plant_overflow(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCreateDevice = overflowing_create_device;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_overflow);
}
