/* SPDX-License-Identifier: MIT */
/*
 * slot_leftovers.c - the reference driver whose DriverEntry, in every
 * process that loads it, looks for what the process before it left and
 * then leaves as much for the next one (the shepherd of a -j slot lives
 * across cases: conformance/runner/zygote.c). One way per WK_TEST_SLOT:
 *   1  leaves a child in its own process group and a daemon in a session
 *      of its own (setsid(), double fork), both sleeping 60 s;
 *   2  lowers its parent's RLIMIT_NOFILE soft limit by one and its
 *      priority by one (prlimit, setpriority: any process of the user may).
 * Each load first checks the last one's line in $WK_TEST_SLOT_FILE and
 * appends a line for each thing it finds: "LEFTOVER case|child|daemon PID
 * (was 0)" (a process of the last load still alive), "SHARED group" (the
 * same process group), "INHERITED nofile|nice NOW (was THEN)" (a limit the
 * last load changed in its parent); then its own line, "LOAD pid ppid pgid sid daemon child
 * nofile nice". tests/hostile_slot.sh reads the file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "refwrap.h"

#ifndef WK_TEST_SLOT
#error "WK_TEST_SLOT: 1 or 2"
#endif

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

struct load {
    long pid, ppid, pgid, sid, daemon, child, nofile, nice;
};

/* A process that is there and not a zombie waiting to be reaped. */
static int alive(long pid)
{
    if (pid <= 0 || kill((pid_t)pid, 0) != 0)
        return 0;
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *close_paren = strrchr(buf, ')');
    return close_paren && close_paren[1] == ' ' && close_paren[2] != 'Z' && close_paren[2] != 'X';
}

/* The last LOAD line of the file: 1, 0 when none. */
static int last_load(const char *file, struct load *l)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return 0;
    char line[256];
    int found = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "LOAD %ld %ld %ld %ld %ld %ld %ld %ld", &l->pid, &l->ppid, &l->pgid, &l->sid, &l->daemon,
                   &l->child, &l->nofile, &l->nice) == 8)
            found = 1;
    fclose(f);
    return found;
}

static void note(const char *file, const char *what, long a, long b)
{
    FILE *f = fopen(file, "a");
    if (!f)
        return;
    fprintf(f, "%s %ld (was %ld)\n", what, a, b);
    fclose(f);
}

/* A daemon: setsid(), double fork; its pid, once it runs (0: none). */
static long leave_daemon(void)
{
    int p[2];
    if (pipe(p) != 0)
        return 0;
    pid_t helper = fork();
    if (helper == 0) {
        close(p[0]);
        setsid();
        pid_t grandchild = fork();
        if (grandchild == 0) {
            long self = (long)getpid();
            ssize_t ignored = write(p[1], &self, sizeof(self));
            (void)ignored;
            close(p[1]);
            sleep(60);
            _exit(0);
        }
        _exit(0);
    }
    close(p[1]);
    long pid = 0;
    if (helper < 0 || read(p[0], &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
        pid = 0;
    close(p[0]);
    return pid;
}

static long leave_child(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        sleep(60);
        _exit(0);
    }
    return pid > 0 ? (long)pid : 0;
}

static void none(DRIVER_INITIALIZATION_DATA *init)
{
    (void)init;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    const char *file = getenv("WK_TEST_SLOT_FILE");
    if (file) {
        struct rlimit nofile;
        getrlimit(RLIMIT_NOFILE, &nofile);
        long nice_now = getpriority(PRIO_PROCESS, 0);
        struct load last, me = { (long)getpid(), (long)getppid(), (long)getpgrp(), (long)getsid(0), 0, 0,
                                 (long)nofile.rlim_cur, nice_now };
        if (last_load(file, &last)) {
            if (alive(last.pid))
                note(file, "LEFTOVER case", last.pid, 0);
            if (alive(last.child))
                note(file, "LEFTOVER child", last.child, 0);
            if (alive(last.daemon))
                note(file, "LEFTOVER daemon", last.daemon, 0);
            if (me.pgid == last.pgid)
                note(file, "SHARED group", me.pgid, last.pgid);
            if (WK_TEST_SLOT == 2 && me.nofile != last.nofile)
                note(file, "INHERITED nofile", me.nofile, last.nofile);
            if (WK_TEST_SLOT == 2 && me.nice != last.nice)
                note(file, "INHERITED nice", me.nice, last.nice);
        }
        if (WK_TEST_SLOT == 1) {
            me.child = leave_child();
            me.daemon = leave_daemon();
        }
        if (WK_TEST_SLOT == 2) {
            struct rlimit lower = nofile;
            if (lower.rlim_cur > 64)
                lower.rlim_cur--;
            prlimit(getppid(), RLIMIT_NOFILE, &lower, NULL);
            setpriority(PRIO_PROCESS, (id_t)getppid(), (int)(nice_now < 19 ? nice_now + 1 : nice_now));
        }
        FILE *f = fopen(file, "a");
        if (f) {
            fprintf(f, "LOAD %ld %ld %ld %ld %ld %ld %ld %ld\n", me.pid, me.ppid, me.pgid, me.sid, me.daemon, me.child,
                    me.nofile, me.nice);
            fclose(f);
        }
    }
    return wk_wrap_initialize(DriverObject, RegistryPath, none);
}
