/* SPDX-License-Identifier: MIT */
/*
 * runner_attack.c - the reference driver that attacks the kit's own
 * processes from its case, one way per build (WK_TEST_RUNNER_ATTACK), for
 * tests/hostile_runner.sh (docs/threat-model.md, "Against the run"):
 *
 *   1 journal   DxgkDdiRender fails; DriverEntry finds the runner (the
 *               parent of its process's parent), reads its command line
 *               and working directory in /proc, opens the run's journal
 *               by path (--json FILE + ".journal") and rewrites every
 *               "verdict": "fail" as a pass and every "unexpected": true as
 *               false. The next case's DriverEntry so launders the last
 *               case's failure before the reports are written;
 *   2 runner    DxgkDdiRender sends SIGTERM to the runner, then renders:
 *               the run would end "interrupted by SIGTERM" with this case
 *               unjudged;
 *   3 shepherd  DxgkDdiRender sends SIGTERM to its own parent, the case's
 *               shepherd, then renders: the case would read "killed by
 *               SIGKILL", the driver's act reported as the kit's.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "refwrap.h"

#ifndef WK_TEST_RUNNER_ATTACK
#error "build with -DWK_TEST_RUNNER_ATTACK=1..3"
#endif

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Reads path whole into buf (NUL-terminated); the bytes read, or -1. */
static long read_file(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    long total = 0;
    ssize_t n;
    while ((size_t)total + 1 < size && (n = read(fd, buf + total, size - 1 - (size_t)total)) > 0)
        total += n;
    close(fd);
    buf[total] = '\0';
    return total;
}

/* The parent of pid, from /proc/<pid>/stat; -1 when unreadable. */
static pid_t parent_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    if (read_file(path, buf, sizeof(buf)) <= 0)
        return -1;
    const char *p = strrchr(buf, ')');
    char state;
    int ppid = -1;
    return p && sscanf(p + 1, " %c %d", &state, &ppid) == 2 ? (pid_t)ppid : -1;
}

/* Every `from` in text becomes `to`, into out (size bytes). */
static void replace_all(const char *text, const char *from, const char *to, char *out, size_t size)
{
    size_t n = strlen(from), at = 0;
    for (const char *p = text; *p && at + 1 < size;) {
        if (strncmp(p, from, n) == 0) {
            at += (size_t)snprintf(out + at, size - at, "%s", to);
            p += n;
        } else
            out[at++] = *p++;
    }
    out[at < size ? at : size - 1] = '\0';
}

/* The runner's journal: its --json FILE, relative to its working
 * directory, + ".journal". 0 when the runner has none. */
static int journal_path(pid_t runner, char *out, size_t size)
{
    static char cmdline[16384];
    char path[64], cwd[4096];
    snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)runner);
    long n = read_file(path, cmdline, sizeof(cmdline));
    snprintf(path, sizeof(path), "/proc/%d/cwd", (int)runner);
    ssize_t c = readlink(path, cwd, sizeof(cwd) - 1);
    if (n <= 0 || c <= 0)
        return 0;
    cwd[c] = '\0';
    for (const char *a = cmdline; a + strlen(a) + 1 < cmdline + n; a += strlen(a) + 1) {
        const char *file = a + strlen(a) + 1;
        if (strcmp(a, "--json") != 0)
            continue;
        if (file[0] == '/')
            snprintf(out, size, "%s.journal", file);
        else
            snprintf(out, size, "%s/%s.journal", cwd, file);
        return 1;
    }
    return 0;
}

static void launder_journal(void)
{
    static char buf[1 << 20], half[1 << 20], out[1 << 20];
    char path[8192];
    if (!journal_path(parent_of(getppid()), path, sizeof(path)) || read_file(path, buf, sizeof(buf)) <= 0)
        return;
    replace_all(buf, "\"verdict\": \"fail\"", "\"verdict\": \"pass\"", half, sizeof(half));
    replace_all(half, "\"unexpected\": true", "\"unexpected\": false", out, sizeof(out));
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0)
        return;
    ssize_t ignored = write(fd, out, strlen(out));
    (void)ignored;
    close(fd);
}

static NTSTATUS attacking_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (WK_TEST_RUNNER_ATTACK == 1)
        return STATUS_INVALID_PARAMETER;
    if (WK_TEST_RUNNER_ATTACK == 2)
        kill(parent_of(getppid()), SIGTERM);
    if (WK_TEST_RUNNER_ATTACK == 3)
        kill(getppid(), SIGTERM);
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
}

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = attacking_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    if (WK_TEST_RUNNER_ATTACK == 1)
        launder_journal();
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
