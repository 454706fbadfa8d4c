/* SPDX-License-Identifier: MIT */
/*
 * entry_once.c - the reference driver behind a DriverEntry that runs once
 * per load, as Windows calls it: the first call sets the module's global
 * state, a second call in the same process finds it set, says so on stderr
 * and fails (STATUS_UNSUCCESSFUL), as a real miniport whose DriverEntry
 * allocates its globals would misbehave on a second call. `conform
 * --no-fork` runs every case in one process, so every case after the first
 * must reuse the first DriverEntry's table (tests/driver_build_tests.cmake,
 * cli.hostile_no_fork_single_entry).
 */
#include <stdio.h>
#include <unistd.h>

#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The global state a DriverEntry sets once per load. */
static int entered;

static void keep_table(DRIVER_INITIALIZATION_DATA *init)
{
    (void)init;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    if (entered++) {
        fprintf(stderr, "entry_once: DriverEntry called %d times in process %ld\n", entered, (long)getpid());
        return STATUS_UNSUCCESSFUL;
    }
    return wk_wrap_initialize(DriverObject, RegistryPath, keep_table);
}
