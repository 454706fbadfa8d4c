/* SPDX-License-Identifier: MIT */
/*
 * crashing_ctor.c - a driver module whose constructor aborts as it loads: a
 * hostile driver kills the process that loads it before DriverEntry.
 * `wddmkit driver check` must load it in a child and report the crash
 * (tests/driver_build.sh).
 */
#include <stdlib.h>

#include "wddmkit/driver.h"

__attribute__((constructor)) static void die_on_load(void)
{
    abort();
}

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    (void)DriverObject;
    (void)RegistryPath;
    return STATUS_UNSUCCESSFUL;
}
