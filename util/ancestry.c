/* SPDX-License-Identifier: MIT */
/*
 * ancestry.c - which child of a process another process descends from
 * (util.h, wk_proc_child_above): how the runner and the case shepherd
 * tell a stop signal the driver sent them from one a user sent
 * (conformance/runner/signals.c, shepherd.c).
 *
 * Why a signal handler calls it: the sender of a signal (siginfo's si_pid)
 * is alive while it calls kill(), but may end soon after, and once its
 * parent reaps it, /proc has forgotten whose child it was. So the walk up
 * the parent chain happens in the handler, at once, with open(), read()
 * and close() only, which are safe there; no stdio, no allocation.
 */
#include <fcntl.h>
#include <unistd.h>

#include "util.h"

#define MAX_DEPTH 64 /* a deeper chain is not one a case built */

/* "/proc/<pid>/stat" into path (cap >= 32), without stdio. */
static void stat_path(char *path, pid_t pid)
{
    static const char head[] = "/proc/", tail[] = "/stat";
    char digits[16];
    int n = 0;
    unsigned long v = (unsigned long)pid;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0 && n < (int)sizeof(digits));
    size_t at = 0;
    for (size_t i = 0; head[i]; i++)
        path[at++] = head[i];
    while (n > 0)
        path[at++] = digits[--n];
    for (size_t i = 0; tail[i]; i++)
        path[at++] = tail[i];
    path[at] = '\0';
}

/* The parent in /proc/<pid>/stat: the second field after the last ")"
 * (comm, before it, may hold spaces and parentheses); -1 when unreadable. */
static pid_t parent_of(pid_t pid)
{
    char path[40], buf[512];
    stat_path(path, pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    const char *p = NULL;
    for (ssize_t i = n - 1; i >= 0 && !p; i--)
        if (buf[i] == ')')
            p = buf + i + 1;
    if (!p || p[0] != ' ' || !p[1] || p[2] != ' ')
        return -1; /* ") S PPID ..." */
    long ppid = 0;
    for (p += 3; *p >= '0' && *p <= '9'; p++)
        ppid = ppid * 10 + (*p - '0');
    return *p == ' ' ? (pid_t)ppid : -1;
}

pid_t wk_proc_child_above(pid_t pid, pid_t ancestor)
{
    if (pid <= 0 || ancestor <= 0 || pid == ancestor)
        return 0;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        pid_t parent = parent_of(pid);
        if (parent == ancestor)
            return pid;
        if (parent <= 1)
            return 0; /* init, or gone: not below ancestor */
        pid = parent;
    }
    return 0;
}
