/* SPDX-License-Identifier: MIT */
/*
 * hanging_ctor.c - a driver module whose constructor never returns: a
 * hostile driver freezes whatever loads it, before DriverEntry. `driver
 * check`, `conform` and `repro` must give up after a DDI call's time and
 * say DRV-HANG-001 "while loading" (tests/driver_build_tests.cmake).
 *
 * With WK_TEST_HANG_PIDFILE set, the constructor first starts a process
 * that outlives it (a driver's helper) and writes that process's pid to
 * the file: the loader must kill it too (tests/driver_hang.sh).
 */
#define _POSIX_C_SOURCE 200809L /* fork, pause */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "wddmkit/driver.h"

static void start_lingering_helper(const char *pidfile)
{
    pid_t pid = fork();
    if (pid == 0) {
        for (;;)
            pause();
    }
    FILE *f = pid > 0 ? fopen(pidfile, "w") : NULL;
    if (f) {
        fprintf(f, "%d\n", (int)pid);
        fclose(f);
    }
}

__attribute__((constructor)) static void spin_on_load(void)
{
    const char *pidfile = getenv("WK_TEST_HANG_PIDFILE");
    if (pidfile && pidfile[0])
        start_lingering_helper(pidfile);
    for (volatile unsigned long n = 0;; n++) /* volatile: the loop is not optimised away */
        ;
}

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    (void)DriverObject;
    (void)RegistryPath;
    return STATUS_UNSUCCESSFUL;
}
