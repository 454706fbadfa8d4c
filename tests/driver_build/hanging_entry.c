/* SPDX-License-Identifier: MIT */
/*
 * hanging_entry.c - a driver module that loads but whose DriverEntry never
 * returns. `driver check`, `conform` and `repro` must give up after a DDI
 * call's time and say DRV-HANG-001 "in DriverEntry"
 * (tests/driver_build_tests.cmake).
 */
#include "wddmkit/driver.h"

/* A stand-in for a driver of the GPU model, so a harness that needs one
 * takes it (driver.h). */
WK_DRIVER_TARGETS_GPU_MODEL;

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    (void)DriverObject;
    (void)RegistryPath;
    for (volatile unsigned long n = 0;; n++) /* volatile: the loop is not optimised away */
        ;
    return STATUS_UNSUCCESSFUL;
}
