/* SPDX-License-Identifier: MIT */
/*
 * signal_shepherd.c - the reference driver that turns on the process above
 * it, the kit's shepherd (conformance/runner/isolation.h), or leaves a
 * process behind while it loads; one way per WK_TEST_SHEPHERD (the red
 * team's ATTACK numbers in brackets):
 *   1  Render stops its parent: kill(getppid(), SIGSTOP) [1, 18];
 *   2  Render leaves an orphan (setsid(), double fork) holding the case's
 *      pipes, then kills its parent: kill(getppid(), SIGKILL) [2, 21];
 *   3  DriverEntry leaves such an orphan, then loads normally [37];
 *   4  DriverEntry leaves such an orphan, then never returns [38];
 *   5  DriverEntry stops its parent, then loads normally [36].
 * Each orphan appends its pid to $WK_TEST_ORPHAN_FILE before its parent
 * goes on, and sleeps 60 s. The kit must answer at once, never hang, and
 * leave none of them (tests/hostile_shepherd.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orphan.h"
#include "refwrap.h"

#ifndef WK_TEST_SHEPHERD
#error "WK_TEST_SHEPHERD: 1 to 5"
#endif

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS hostile_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (WK_TEST_SHEPHERD == 1)
        kill(getppid(), SIGSTOP);
    if (WK_TEST_SHEPHERD == 2) {
        wk_leave_orphan();
        kill(getppid(), SIGKILL);
    }
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
}

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = hostile_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    if (WK_TEST_SHEPHERD == 3 || WK_TEST_SHEPHERD == 4)
        wk_leave_orphan();
    while (WK_TEST_SHEPHERD == 4)
        pause();
    if (WK_TEST_SHEPHERD == 5)
        kill(getppid(), SIGSTOP);
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
