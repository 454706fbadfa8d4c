/* SPDX-License-Identifier: MIT */
/*
 * hog_processes.c - the reference driver that takes every process the user
 * may have: the first DxgkDdiRender of a case forks children until fork()
 * fails (RLIMIT_NPROC: EAGAIN) or 256 are running, holds them for
 * $WK_TEST_HOG_MS milliseconds (default 150), then renders as the
 * reference driver does. The children sleep; the case's shepherd kills them
 * when the case ends.
 *
 * While it holds them, the runner can start no other case: its fork()
 * fails with EAGAIN. Those cases must wait for the hog to end and then
 * pass, not become crashes or errors at once (issue 22;
 * tests/hostile_exhaustion.sh, cli.hostile_process_exhaustion).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void hold_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) != 0)
        ;
}

static void hog(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    for (int i = 0; i < 256; i++) {
        pid_t pid = fork();
        if (pid < 0)
            break; /* every process the user may have is taken */
        if (pid == 0) {
            pause();
            _exit(0);
        }
    }
    const char *ms = getenv("WK_TEST_HOG_MS");
    hold_ms(ms ? atol(ms) : 150);
}

static NTSTATUS hogging_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    hog();
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
}

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = hogging_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
