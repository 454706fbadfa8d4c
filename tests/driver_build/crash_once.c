/* SPDX-License-Identifier: MIT */
/*
 * crash_once.c - the reference driver with an intermittent crash: the
 * first DxgkDdiStartDevice called while the file WK_TEST_CRASH_ONCE_FILE
 * does not exist creates it, says so on stderr and kills its own process;
 * every later call (the rerun) finds the file and starts the device as
 * the reference driver does. A case that runs it is a flake: a crash,
 * then a pass. `conform` must fail the run unless an expectations file
 * lists the flake (tests/conform_flake.sh).
 */
#define _POSIX_C_SOURCE 200809L /* kill */

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* 1 for the one call that creates the marker: O_EXCL decides the race. */
static int first_run(void)
{
    const char *marker = getenv("WK_TEST_CRASH_ONCE_FILE");
    if (!marker || !marker[0])
        return 0;
    int fd = open(marker, O_CREAT | O_EXCL | O_WRONLY, 0600);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

static NTSTATUS crash_once_start_device(VOID *const MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                                        DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources,
                                        ULONG *NumberOfChildren)
{
    if (first_run()) {
        fputs("crash_once: first run, the driver dies in DxgkDdiStartDevice\n", stderr);
        kill(getpid(), SIGKILL); /* no handler can catch it: the case process dies */
    }
    return wk_wrap_reference.DxgkDdiStartDevice(MiniportDeviceContext, DxgkStartInfo, DxgkInterface,
                                                NumberOfVideoPresentSources, NumberOfChildren);
}

static void wrap_start(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiStartDevice = crash_once_start_device;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, wrap_start);
}
