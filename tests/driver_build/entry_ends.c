/* SPDX-License-Identifier: MIT */
/*
 * entry_ends.c - a driver module whose DriverEntry never returns to the
 * kit, one way per build (WK_TEST_ENTRY_ENDS): the load probe must say it
 * happened in DriverEntry, not "while loading" (constructors), and a
 * DriverEntry that ends the process with status 0 must not read as a
 * module that loads (red team):
 *
 *   1 crash   writes through a NULL pointer;
 *   2 exit    _exit(0).
 */
#include <unistd.h>

#include "wddmkit/driver.h"

#ifndef WK_TEST_ENTRY_ENDS
#error "build with -DWK_TEST_ENTRY_ENDS=1 or 2"
#endif

DRIVER_INITIALIZE DriverEntry;

/* volatile: the store through it is the test, the compiler keeps it */
static volatile int *volatile null_page;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    (void)DriverObject;
    (void)RegistryPath;
    if (WK_TEST_ENTRY_ENDS == 1)
        *null_page = 1;
    else
        _exit(0);
    return STATUS_UNSUCCESSFUL;
}
