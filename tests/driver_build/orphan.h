/* SPDX-License-Identifier: MIT */
/*
 * orphan.h - how a hostile test driver leaves a process behind that its
 * case's process group and session do not hold: a helper calls setsid(),
 * forks a grandchild and exits, so the grandchild is an orphan in a
 * session of its own, sleeping 60 s with every descriptor its process had.
 * The grandchild appends its pid to the file WK_TEST_ORPHAN_FILE names, so
 * the test can check that nothing of it is left. Shared by fork_orphan.c
 * and signal_shepherd.c; a header of static functions, as refwrap.h.
 */
#ifndef WK_TEST_ORPHAN_H
#define WK_TEST_ORPHAN_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void wk_orphan_record_pid(void)
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
static _Noreturn void wk_orphan_helper(int ready)
{
    setsid();
    if (fork() == 0) {
        wk_orphan_record_pid();
        ssize_t ignored = write(ready, "r", 1);
        (void)ignored;
        sleep(60);
        _exit(0);
    }
    _exit(0);
}

/* Leaves the orphan; returns once it has written its pid (or the helper
 * died: nothing to wait for). */
static void wk_leave_orphan(void)
{
    int p[2];
    if (pipe(p) != 0)
        return;
    pid_t pid = fork();
    if (pid == 0)
        wk_orphan_helper(p[1]);
    close(p[1]);
    char c;
    if (pid > 0 && read(p[0], &c, 1) != 1)
        c = 0;
    close(p[0]);
}

#endif
