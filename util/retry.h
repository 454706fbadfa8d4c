/* SPDX-License-Identifier: MIT */
/*
 * retry.h - a call that failed for want of a process, a descriptor or
 * memory is tried again with exponential backoff, up to a deadline
 * (retry.c). Part of util.h's API; included by it.
 *
 * Why: the kit starts a process and a few pipes per case. When the user's
 * RLIMIT_NPROC or RLIMIT_NOFILE is reached (a leaking driver, the kit's own
 * -j N, another program), fork() says EAGAIN, pipe() and open() say EMFILE
 * or ENFILE, and any of them may say ENOMEM. Those are passing states: the
 * processes and descriptors come back when something ends. So the kit waits
 * a bounded time (issue 22: at most 10 s by default) before it calls the
 * case an `error` (the kit could not run it, docs/verdicts.md), never a
 * crash or a failure of the driver. Any other errno is not retried.
 *
 * Two ways to use it. Blocking, where there is nothing else to do:
 *
 *     struct wk_retry r;
 *     wk_retry_begin(&r, WK_RETRY_WAIT_DEFAULT);
 *     while (pipe2(fds, O_CLOEXEC) != 0 && wk_retry_again(&r, errno))
 *         ;
 *
 * or as a schedule, where a loop has other work (the conform runner waits
 * for its running cases meanwhile): wk_retry_pause_ms says how long to wait
 * before the next try, or that it is time to give up.
 */
#ifndef WK_UTIL_RETRY_H
#define WK_UTIL_RETRY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WK_RETRY_WAIT_DEFAULT 10.0 /* seconds: issue 22's bound */
#define WK_RETRY_FIRST_MS 1L       /* the first pause; each next one doubles */
#define WK_RETRY_CAP_MS 500L       /* ... up to this */

struct wk_retry {
    double wait;                      /* seconds allowed from the first failure; <= 0: no retry */
    double first;                     /* wk_now_seconds() at the first failure; 0: none yet */
    double last;                      /* ... at the last failure */
    long next_ms;                     /* the next pause */
    int err;                          /* the errno of the last failure */
    unsigned tries;                   /* failures seen */
};

/* Starts a retry that may wait `wait_seconds` in all. */
void wk_retry_begin(struct wk_retry *r, double wait_seconds);

/* Whether err says a resource ran out for now: EAGAIN, EMFILE, ENFILE,
 * ENOMEM (EWOULDBLOCK where it differs). */
int wk_retry_is_exhaustion(int err);

/* A call failed with err: the pause in milliseconds before the next try
 * (at least 1, never past the deadline), or -1 when it is time to give up
 * (err is not an exhaustion, or the deadline has passed). Sleeps not. */
long wk_retry_pause_ms(struct wk_retry *r, int err);

/* A call failed with err: sleeps the pause and returns 1 (try again), or
 * returns 0 (give up). errno is err on return either way. */
int wk_retry_again(struct wk_retry *r, int err);

/* Seconds from the first failure to the last (0 with none). */
double wk_retry_waited(const struct wk_retry *r);

/* The symbolic name of an errno ("EAGAIN"), or NULL when this table lacks
 * it. */
const char *wk_errno_name(int err);

/* "CALL: <strerror> (ENAME)" and, after a wait, ", retried for N.N s";
 * 1 when it fit in cap bytes, else 0 (a prefix is left). */
int wk_retry_describe(char *buf, size_t cap, const char *call, int err, const struct wk_retry *r);

#ifdef __cplusplus
}
#endif

#endif
