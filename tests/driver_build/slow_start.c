/* SPDX-License-Identifier: MIT */
/*
 * slow_start.c - the reference driver, slowed down: DxgkDdiStartDevice
 * first sleeps WK_TEST_SLOW_START_MS milliseconds (none when unset), then
 * starts the device as the reference driver does. Its verdicts are the
 * reference driver's; only the time a case takes changes, so a test can
 * stop a run while cases are still to come (tests/conform_journal.sh).
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <stdlib.h>
#include <time.h>

#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS slow_start_device(VOID *const MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                                  DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources,
                                  ULONG *NumberOfChildren)
{
    const char *ms = getenv("WK_TEST_SLOW_START_MS");
    long n = ms ? strtol(ms, NULL, 10) : 0;
    if (n > 0) {
        struct timespec t = { n / 1000, (n % 1000) * 1000000L };
        nanosleep(&t, NULL);
    }
    return wk_wrap_reference.DxgkDdiStartDevice(MiniportDeviceContext, DxgkStartInfo, DxgkInterface,
                                                NumberOfVideoPresentSources, NumberOfChildren);
}

static void wrap_start(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiStartDevice = slow_start_device;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, wrap_start);
}
