/* SPDX-License-Identifier: MIT */
/*
 * teardown_probe.c - the reference driver with its teardown DDIs wrapped:
 * each call of DestroyAllocation, DestroyContext, DestroyDevice, StopDevice
 * and RemoveDevice prints one line on stderr ("teardown_probe: <DDI>"), so
 * a test sees whether a replay ran them (tests/fuzz_teardown.sh: the
 * replay binary tears its adapters down at exit, fuzz_driver.h).
 *
 * With WK_TEST_TEARDOWN_CRASH=1 in the environment, DestroyDevice writes
 * through a null pointer after printing: the kit must report that
 * (DRV-CRASH-001) as a finding of the teardown, not let it pass unseen.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Read through a volatile, so the compiler cannot see the null write. */
static volatile uintptr_t null_base;

static void said(const char *ddi)
{
    fprintf(stderr, "teardown_probe: %s\n", ddi);
}

static NTSTATUS probe_destroy_allocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *args)
{
    said("DxgkDdiDestroyAllocation");
    return wk_wrap_reference.DxgkDdiDestroyAllocation(hAdapter, args);
}

static NTSTATUS probe_destroy_context(const HANDLE hContext)
{
    said("DxgkDdiDestroyContext");
    return wk_wrap_reference.DxgkDdiDestroyContext(hContext);
}

static NTSTATUS probe_destroy_device(const HANDLE hDevice)
{
    said("DxgkDdiDestroyDevice");
    const char *crash = getenv("WK_TEST_TEARDOWN_CRASH");
    if (crash && crash[0] == '1')
        *(volatile uint32_t *)(null_base + 0x10) = 1;
    return wk_wrap_reference.DxgkDdiDestroyDevice(hDevice);
}

static NTSTATUS probe_stop_device(VOID *const context)
{
    said("DxgkDdiStopDevice");
    return wk_wrap_reference.DxgkDdiStopDevice(context);
}

static NTSTATUS probe_remove_device(VOID *const context)
{
    said("DxgkDdiRemoveDevice");
    return wk_wrap_reference.DxgkDdiRemoveDevice(context);
}

static void wrap_teardown(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiDestroyAllocation = probe_destroy_allocation;
    init->DxgkDdiDestroyContext = probe_destroy_context;
    init->DxgkDdiDestroyDevice = probe_destroy_device;
    init->DxgkDdiStopDevice = probe_stop_device;
    init->DxgkDdiRemoveDevice = probe_remove_device;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, wrap_teardown);
}
