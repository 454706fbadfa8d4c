/* SPDX-License-Identifier: MIT */
/*
 * launch_wait.c - an attempt that found no process or descriptor to start
 * with waits for one, then is an `error` (issue 22: "EAGAIN/EMFILE on fork,
 * pipe or open is retried with backoff for at most 10 s, then the case is
 * error naming the errno, never a driver failure").
 *
 * A launch takes two pipes, a start pipe and two forks (job.c,
 * shepherd.c). When the user's RLIMIT_NOFILE or RLIMIT_NPROC is reached
 * (by -j N itself, by a driver whose case is running, by another program),
 * one of them fails with EMFILE, ENFILE, EAGAIN or ENOMEM. Those pass:
 *
 *   - while other cases run, the attempt waits for them: each that ends
 *     gives back two processes and four descriptors, and the scheduler tries
 *     again after every event (and at least every 500 ms), with no deadline,
 *     since what it waits for is coming;
 *   - with nothing running, it backs off (util/retry.h: 1 ms doubling to
 *     500 ms) for at most --resource-wait seconds (10 by default), counted
 *     from the first failure with nothing running;
 *   - then the case is `error`: "could not start the case: fork: Resource
 *     temporarily unavailable (EAGAIN), retried for 10.0 s". Until a case
 *     starts again, the next cases that cannot start are errors at once
 *     (one try each), so a machine that stays full costs one wait, not one
 *     per case.
 *
 * An errno that is no exhaustion (EBADF, EPERM ...) is an error at once.
 * The shepherd's own fork of the case's process may fail too: the runner
 * learns it when the shepherd has exited (its start pipe, isolation.h) and
 * queues the attempt the same way. Nothing here loses what finished: a
 * waiting attempt holds no slot, and a stop (a signal, --total-timeout)
 * leaves it "not run".
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "runner_internal.h"

/* The first waiting attempt, taken to be launched again: 1, or 0 with
 * none. */
int wk_runner_take_waiting(struct run *R, size_t *index, uint32_t *attempt)
{
    struct launch_wait *w = &R->wait;
    if (!w->pending)
        return 0;
    *index = w->queue[0].index;
    *attempt = w->queue[0].attempt;
    w->pending--;
    memmove(&w->queue[0], &w->queue[1], w->pending * sizeof(w->queue[0]));
    return 1;
}

/* A case's process started (learnt when its shepherd is reaped: only then
 * is the start pipe's word final): the resources came back, the episode is
 * over (the attempts still queued stay queued). */
void wk_runner_case_started(struct run *R)
{
    R->wait.clock = 0;
    R->wait.expired = 0;
}

/* Queues an attempt: first (the one just taken, which failed again) or
 * last (one whose shepherd found no process: its slot just freed). Never
 * more than one per slot, so the queue cannot overflow. */
static void keep_waiting(struct run *R, size_t index, uint32_t attempt, int first)
{
    struct launch_wait *w = &R->wait;
    uint32_t at = first ? 0 : w->pending;
    if (w->pending >= MAX_JOBS)
        return;
    memmove(&w->queue[at + 1], &w->queue[at], (w->pending - at) * sizeof(w->queue[0]));
    w->queue[at].index = index;
    w->queue[at].attempt = attempt;
    w->pending++;
}

static void give_error(struct run *R, size_t index, uint32_t attempt, const struct wk_launch_failure *why)
{
    struct wk_case_result r;
    char what[200];
    memset(&r, 0, sizeof(r));
    r.verdict = WK_VERDICT_ERROR;
    r.failed_step = -1;
    wk_retry_describe(what, sizeof(what), why->call, why->err, R->wait.clock ? &R->wait.retry : NULL);
    snprintf(r.expected, sizeof(r.expected), "a process for the case");
    snprintf(r.seen, sizeof(r.seen), "could not start the case: %s", what);
    wk_runner_attempt_done(R, index, attempt, &r, NULL);
}

/* A launch failed (in the runner, or in the shepherd: job.c's reap): 1
 * when the attempt waits (keep the other slots empty: the queue goes
 * first), 0 when it was given its error verdict. */
int wk_runner_wait_to_launch(struct run *R, size_t index, uint32_t attempt, const struct wk_launch_failure *why,
                             int first)
{
    struct launch_wait *w = &R->wait;
    if (wk_retry_is_exhaustion(why->err) && !w->expired) {
        if (R->running) {
            keep_waiting(R, index, attempt, first); /* a case that ends frees what this one needs */
            return 1;
        }
        if (!w->clock) {
            wk_retry_begin(&w->retry, R->o->resource_wait);
            w->clock = 1;
        }
        long pause = wk_retry_pause_ms(&w->retry, why->err);
        if (pause >= 0) {
            w->until = wk_now_seconds() + (double)pause / 1000.0;
            keep_waiting(R, index, attempt, first);
            return 1;
        }
        w->expired = 1;
    }
    give_error(R, index, attempt, why);
    return 0;
}

/* Nothing runs and an attempt waits: sleep until its next try, or a stop
 * signal (the self-pipe), whichever comes first. */
void wk_runner_sleep_to_retry(struct run *R)
{
    double left_ms = (R->wait.until - wk_now_seconds()) * 1000.0;
    if (left_ms <= 0)
        return;
    struct pollfd pf = { wk_runner_signal_fd(0), POLLIN, 0 };
    int ms = left_ms > WK_RETRY_CAP_MS ? (int)WK_RETRY_CAP_MS : (int)left_ms + 1;
    if (pf.fd >= 0)
        poll(&pf, 1, ms);
    else
        wk_sleep_ms(ms);
}

/* The scheduler's poll timeout while an attempt waits for running cases:
 * at most the backoff's cap, so a resource another program gave back is
 * taken without waiting for one of ours to end. */
int wk_runner_wait_cap_ms(const struct run *R, int ms)
{
    if (R->wait.pending && ms > WK_RETRY_CAP_MS)
        return (int)WK_RETRY_CAP_MS;
    return ms;
}
