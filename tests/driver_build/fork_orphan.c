/* SPDX-License-Identifier: MIT */
/*
 * fork_orphan.c - the reference driver that leaves processes behind: the
 * first DxgkDdiRender of a case forks a helper, which calls setsid() (out
 * of the case's process group and session), forks a grandchild and exits,
 * so the grandchild is an orphan in a session of its own. The grandchild
 * appends its pid to $WK_TEST_ORPHAN_FILE, tells Render it has, and sleeps
 * 60 s holding every descriptor the case had (its result pipe among
 * them). Render then renders as the reference driver does.
 *
 * The case must get its verdict (pass) at once, not wait for the
 * grandchild or time out, and no process of the driver may be left when
 * the command ends (tests/hostile_isolation.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orphan.h"
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Once per process: the first Render's case leaves one. */
static void leave_orphan(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    wk_leave_orphan();
}

static NTSTATUS orphaning_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    leave_orphan();
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
}

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = orphaning_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
