/* SPDX-License-Identifier: MIT */
/*
 * reap.c - every process below this one is found and killed (util.h,
 * wk_reap_*): the case shepherd (conformance/runner/shepherd.c) when its
 * case ends, and the launchers `wddmkit fuzz` and `wddmkit coverage` when
 * their work ends (issue 22: "Every process a driver starts is found and
 * killed").
 *
 * Why a child subreaper: a driver that forks, calls setsid() and lets the
 * parent exit leaves an orphan in no group or session of ours, which init
 * would adopt and nobody would kill. PR_SET_CHILD_SUBREAPER (Linux 3.4, no
 * privilege, works in containers) makes such orphans come to the nearest
 * subreaper above them instead, so a walk of this process's children, one
 * generation at a time, finds them all.
 *
 * The children of this process are read from
 * /proc/self/task/<tid>/children (CONFIG_PROC_CHILDREN; an orphan may be
 * adopted by any thread of the process), else by a scan of every
 * /proc/<pid>/stat for its parent. The signal handler (wk_reap_on_signals)
 * reads the main thread's children file with open() and read() only, which
 * are safe in a handler, as kill() and waitpid() are.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#define MAX_LISTED 1024

/* "/proc/self/task/<tid>/children" into path, without stdio (a handler
 * calls it). */
static void children_path(char *path, size_t cap, long tid)
{
    static const char head[] = "/proc/self/task/", tail[] = "/children";
    char digits[24];
    int n = 0;
    do
        digits[n++] = (char)('0' + tid % 10);
    while ((tid /= 10) > 0 && n < (int)sizeof(digits));
    size_t at = 0;
    for (size_t i = 0; head[i] && at + 1 < cap; i++)
        path[at++] = head[i];
    while (n > 0 && at + 1 < cap)
        path[at++] = digits[--n];
    for (size_t i = 0; tail[i] && at + 1 < cap; i++)
        path[at++] = tail[i];
    path[at] = '\0';
}

/* Appends the pids of one children file (space-separated decimals) to
 * out[*n, cap); 0 when the file is not there. */
static int read_children(long tid, pid_t *out, int *n, int cap)
{
    char path[64], buf[4096];
    children_path(path, sizeof(path), tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    long pid = 0;
    int in_number = 0;
    for (;;) {
        ssize_t got = read(fd, buf, sizeof(buf));
        if (got < 0 && errno == EINTR)
            continue;
        for (ssize_t i = 0; i <= got; i++) { /* i == got: the end of a block, or of the file */
            int digit = i < got && buf[i] >= '0' && buf[i] <= '9';
            if (digit) {
                pid = pid * 10 + (buf[i] - '0');
                in_number = 1;
            } else if (in_number && (i < got || got <= 0)) {
                if (*n < cap)
                    out[(*n)++] = (pid_t)pid;
                pid = 0;
                in_number = 0;
            }
        }
        if (got <= 0)
            break;
    }
    close(fd);
    return 1;
}

/* The parent pid in /proc/<pid>/stat (the field after the ")" of comm,
 * which may itself hold parentheses); -1 when unreadable. */
static pid_t parent_of(const char *pid)
{
    char path[300], buf[512];
    snprintf(path, sizeof(path), "/proc/%.255s/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    char *close_paren = strrchr(buf, ')');
    long ppid;
    if (!close_paren || sscanf(close_paren + 1, " %*c %ld", &ppid) != 1)
        return -1;
    return (pid_t)ppid;
}

/* Every child of this process, by a scan of /proc: the slow way, for a
 * kernel without the children files. */
static int children_scan(pid_t *out, int cap)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int n = 0;
    pid_t self = getpid();
    for (struct dirent *e; n < cap && (e = readdir(d));)
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && parent_of(e->d_name) == self)
            out[n++] = (pid_t)atol(e->d_name);
    closedir(d);
    return n;
}

/* The children of every thread of this process. */
static int list_children(pid_t *out, int cap)
{
    int n = 0, found = 0;
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
            found |= read_children(atol(e->d_name), out, &n, cap);
    if (d)
        closedir(d);
    return found ? n : children_scan(out, cap);
}

/* Whether this process has a child of any kind, living or not yet reaped
 * (waitid is safe in a handler). ECHILD is exact: an orphan comes to this
 * subreaper before its dead parent can be reaped, so a process with no
 * child has nothing below it at all. */
static int has_children(void)
{
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    return !(waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT | __WALL) != 0 && errno == ECHILD);
}

/* Each round kills every child listed and waits for one to end: a killed
 * process's own children come here before it can be reaped, so the next
 * round lists them. With nothing listed, a short sleep covers a
 * reparenting in flight. `list` is list_children, or in a handler the
 * main thread's file alone. A process with no child lists nothing: the
 * usual end of a case, whose process was the shepherd's only child and is
 * reaped, is one system call, not a walk of /proc (issue 26: the walk was
 * eight system calls of each case's slot process). */
static void kill_all(int (*list)(pid_t *out, int cap))
{
    pid_t kids[MAX_LISTED];
    for (;;) {
        if (!has_children())
            return;
        int n = list(kids, MAX_LISTED);
        for (int i = 0; i < n; i++)
            kill(kids[i], SIGKILL);
        pid_t p = waitpid(-1, NULL, n > 0 ? 0 : WNOHANG);
        if (p < 0 && errno == ECHILD)
            return;
        if (p < 0 && errno != EINTR)
            return; /* cannot wait: nothing more to do */
        if (p == 0)
            usleep(1000);
    }
}

int wk_reap_become_subreaper(void)
{
    return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 0 : -1;
}

void wk_reap_descendants(void)
{
    kill_all(list_children);
}

void wk_reap_exited_strays(const pid_t *keep, size_t nkeep)
{
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof(info));
        if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
            return;
        for (size_t i = 0; i < nkeep; i++)
            if (keep[i] == info.si_pid)
                return; /* the caller's own: it reaps it and reads its status */
        waitpid(info.si_pid, NULL, 0);
    }
}

static int kept(pid_t pid, const pid_t *keep, size_t nkeep)
{
    for (size_t i = 0; i < nkeep; i++)
        if (keep[i] == pid)
            return 1;
    return 0;
}

/* Each round kills the strays listed and reaps each by its pid (never
 * waitpid(-1): that could take a kept child's status); a stray reaped has
 * handed its own children to this subreaper already, so the next round
 * lists them. Ends when a round lists none, or at the deadline (a stray
 * in uninterruptible sleep). */
int wk_reap_strays(const pid_t *keep, size_t nkeep, long ms)
{
    pid_t kids[MAX_LISTED];
    double deadline = wk_now_seconds() + (double)ms / 1000.0;
    int total = 0;
    for (;;) {
        int n = list_children(kids, MAX_LISTED), strays = 0, reaped = 0;
        for (int i = 0; i < n; i++) {
            if (kept(kids[i], keep, nkeep))
                continue;
            strays++;
            kill(kids[i], SIGKILL);
            if (waitpid(kids[i], NULL, WNOHANG) == kids[i])
                reaped++;
        }
        total += reaped;
        if (strays == 0 || wk_now_seconds() >= deadline)
            return total;
        if (reaped == 0)
            usleep(1000); /* SIGKILL is on its way */
    }
}

/* ------------------------------------------------------------------ */
/* On a stop signal                                                     */
/* ------------------------------------------------------------------ */

static int main_thread_children(pid_t *out, int cap)
{
    int n = 0;
    read_children((long)getpid(), out, &n, cap);
    return n;
}

/* SIGINT, SIGTERM or SIGHUP outside the parts of the work that catch
 * them: what is below dies first, then this process, of the signal. */
static void on_stop(int signo)
{
    kill_all(main_thread_children);
    signal(signo, SIG_DFL);
    raise(signo);
}

void wk_reap_on_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}
