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

#include "refwrap.h"

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

/* The helper: a new session, a grandchild left orphaned in it. */
static _Noreturn void helper(int ready)
{
    setsid();
    if (fork() == 0) {
        record_pid();
        ssize_t ignored = write(ready, "r", 1);
        (void)ignored;
        sleep(60);
        _exit(0);
    }
    _exit(0);
}

static void leave_orphan(void)
{
    static int done;
    int p[2];
    if (done || pipe(p) != 0)
        return;
    done = 1;
    pid_t pid = fork();
    if (pid == 0)
        helper(p[1]);
    close(p[1]);
    char c;
    if (pid > 0 && read(p[0], &c, 1) != 1)
        c = 0; /* the helper died: nothing to wait for */
    close(p[0]);
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
