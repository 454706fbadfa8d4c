/* SPDX-License-Identifier: MIT */
/*
 * entry_fails.c - a driver module that loads but whose DriverEntry fails:
 * the driver does not start, so an input that needs its contexts cannot be
 * decoded (tests/test_fuzztools.c, repro's "decoded input: unavailable").
 */
#include "wddmkit/driver.h"

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    (void)DriverObject;
    (void)RegistryPath;
    return STATUS_UNSUCCESSFUL;
}
