/* SPDX-License-Identifier: MIT */
/*
 * needs_runtime.c - a driver module that needs a symbol only an
 * instrumentation runtime would define (its name has a sanitizer prefix),
 * as a module built with ASan or libFuzzer's coverage needs theirs: what
 * `wddmkit driver check` and the hand-over to another build are tested
 * with (tests/driver_build.sh). Never called: the module does not load.
 */
#include "wddmkit/driver.h"

void __sanitizer_wk_test_missing(void);

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    (void)DriverObject;
    (void)RegistryPath;
    __sanitizer_wk_test_missing();
    return STATUS_UNSUCCESSFUL;
}
