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

#include "refwrap.h"

#ifndef WK_TEST_SHEPHERD
#error "WK_TEST_SHEPHERD: 1 to 5"
#endif

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void record_pid(void)
{
    const char *file = getenv("WK_TEST_ORPHAN_FILE");
    int fd = file ? open(file, O_WRONLY | O_CREAT | O_APPEND, 0600) : -1;
    if (fd < 0)
        return;
    char line[32];
    int n = snprintf(line, sizeof(line), "%ld\n", (long)getpid());
    ssize_t ignored = write(fd, line, (size_t)n);
    (void)ignored;
    close(fd);
}

/* A grandchild in a session of its own, holding every descriptor its
 * process had; returns once it has written its pid. */
static void leave_orphan(void)
{
    int p[2];
    if (pipe(p) != 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        if (fork() == 0) {
            record_pid();
            ssize_t ignored = write(p[1], "r", 1);
            (void)ignored;
            sleep(60);
            _exit(0);
        }
        _exit(0);
    }
    close(p[1]);
    char c;
    if (pid > 0 && read(p[0], &c, 1) != 1)
        c = 0; /* the helper died: nothing to wait for */
    close(p[0]);
}

static NTSTATUS hostile_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (WK_TEST_SHEPHERD == 1)
        kill(getppid(), SIGSTOP);
    if (WK_TEST_SHEPHERD == 2) {
        leave_orphan();
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
        leave_orphan();
    while (WK_TEST_SHEPHERD == 4)
        pause();
    if (WK_TEST_SHEPHERD == 5)
        kill(getppid(), SIGSTOP);
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
