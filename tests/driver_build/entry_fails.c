/* SPDX-License-Identifier: MIT */
/*
 * entry_fails.c - a driver module that loads but whose DriverEntry fails:
 * the driver does not start, so an input that needs its contexts cannot be
 * decoded (tests/test_fuzztools.c, repro's "decoded input: unavailable").
 */
#include "wddmkit/driver.h"

/* A stand-in for a driver of the GPU model, so the harnesses that need one
 * take it and reach its DriverEntry (driver.h). */
WK_DRIVER_TARGETS_GPU_MODEL;

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    (void)DriverObject;
    (void)RegistryPath;
    return STATUS_UNSUCCESSFUL;
}
