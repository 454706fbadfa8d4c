/* SPDX-License-Identifier: MIT */
/*
 * child_test.c - the forked-child runner of child_test.h.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid */
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_test.h"

/* Under AddressSanitizer a detected error ends a child with SIGABRT, as
 * the headers' own checks do, not with exit(1): wk_child_dies_with expects
 * an abort. Here once for every program that links the runner
 * (WK_TEST_ASAN: child_test.h). */
#ifdef WK_TEST_ASAN
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "abort_on_error=1";
}
#endif

/* Reads the child's stderr to its end, keeping what fits. */
static void drain(int fd, struct wk_child_result *r)
{
    size_t len = 0;
    for (;;) {
        char sink[512];
        size_t room = sizeof r->out - 1 - len;
        ssize_t n = room ? read(fd, r->out + len, room) : read(fd, sink, sizeof sink);
        if (n <= 0)
            break;
        if (room)
            len += (size_t)n;
    }
    r->out[len] = '\0';
}

bool wk_child_run(wk_child_fn fn, struct wk_child_result *r)
{
    int fds[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(fds) != 0)
        return false;
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        close(fds[1]);
        fn();
        fflush(stderr);
        _exit(0);
    }
    close(fds[1]);
    drain(fds[0], r);
    close(fds[0]);
    return waitpid(pid, &r->status, 0) == pid;
}

bool wk_child_dies_with(wk_child_fn fn, const char *want, const char *want2)
{
    static struct wk_child_result r; /* large; one child at a time */
    if (!wk_child_run(fn, &r)) {
        print_error("could not run the child\n");
        return false;
    }
    if (!WIFSIGNALED(r.status) || WTERMSIG(r.status) != SIGABRT) {
        print_error("child did not abort (status 0x%x); stderr:\n%s\n", (unsigned)r.status, r.out);
        return false;
    }
    if ((want && !strstr(r.out, want)) || (want2 && !strstr(r.out, want2))) {
        print_error("child stderr lacks \"%s\"%s%s; it was:\n%s\n", want ? want : "", want2 ? " / " : "",
                    want2 ? want2 : "", r.out);
        return false;
    }
    return true;
}
