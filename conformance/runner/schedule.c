/* SPDX-License-Identifier: MIT */
/*
 * schedule.c - the order and the parallelism of a run: up to -j N
 * attempts at once, a pending rerun before the next new case, cases the
 * expectations skip finished without a process.
 *
 * Why poll(): one loop watches every child's result and output pipes, the
 * signal self-pipe and the nearest deadline; there are no threads and no
 * SIGCHLD handler. Results land in their case's slot (cases are sorted by
 * id before the run), so the report's order never depends on -j. With
 * --no-fork the same order runs in this process, for a debugger. Cases
 * are started by their slot's process (zygote.c), their shepherd, when it
 * runs. An attempt
 * that found no process or descriptor to start with waits and goes first
 * (launch_wait.c).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "expectations.h"
#include "runner_internal.h"
#include "util.h"

/* The next attempt to start: a pending rerun first, then the next case.
 * Cases the expectations skip finish here without a process. */
static int next_attempt(struct run *R, size_t *index, uint32_t *attempt)
{
    if (R->rerun_head < R->rerun_tail) {
        *index = R->reruns[R->rerun_head++];
        *attempt = 1;
        return 1;
    }
    while (R->next < R->rep->count) {
        size_t i = R->next++;
        struct wk_case_report *c = &R->rep->cases[i];
        if (c->expectation && c->expectation->expect == WK_VERDICT_SKIP) {
            c->result.verdict = WK_VERDICT_SKIP;
            c->result.failed_step = -1;
            snprintf(c->result.seen, sizeof(c->result.seen), "skipped by the expectations: %s", c->expectation->reason);
            wk_runner_finalize(R, i, WK_VERDICT_SKIP);
            continue;
        }
        *index = i;
        *attempt = 0;
        return 1;
    }
    return 0;
}

/* The attempt to launch now: the one waiting for a process or descriptor
 * first (launch_wait.c), else the next. */
static int attempt_to_launch(struct run *R, size_t *index, uint32_t *attempt)
{
    if (wk_runner_take_waiting(R, index, attempt))
        return 1;
    if (!next_attempt(R, index, attempt))
        return 0;
    if (*attempt == 0 && R->o->on_start)
        R->o->on_start(R->o->ctx, R->rep, *index);
    return 1;
}

static void fill_slots(struct run *R)
{
    for (uint32_t s = 0; s < R->slots && !wk_runner_out_of_time(R); s++) {
        struct job *j = &R->jobs[s];
        size_t index;
        uint32_t attempt;
        if (j->pid || !attempt_to_launch(R, &index, &attempt))
            continue;
        struct wk_launch_failure why;
        if (!wk_runner_launch(R, j, index, attempt, &why) && wk_runner_wait_to_launch(R, index, attempt, &why, 1))
            return; /* it waits for a process or descriptor, and goes first */
    }
}

static void wait_for_events(struct run *R, struct pollfd *pf)
{
    nfds_t n = 0;
    if (wk_runner_signal_fd(0) >= 0)
        pf[n++] = (struct pollfd){ wk_runner_signal_fd(0), POLLIN, 0 };
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (j->pid && j->fd_result >= 0)
            pf[n++] = (struct pollfd){ j->fd_result, POLLIN, 0 };
        if (j->pid && j->fd_output >= 0)
            pf[n++] = (struct pollfd){ j->fd_output, POLLIN, 0 };
        if (j->pid && j->fd_pid >= 0) /* a shepherd the driver killed ends the case, pipes held or not */
            pf[n++] = (struct pollfd){ j->fd_pid, POLLIN, 0 };
        if (j->pid && j->fd_slot >= 0) /* a slot's shepherd: its word that the case ended, or its end */
            pf[n++] = (struct pollfd){ j->fd_slot, POLLIN, 0 };
    }
    if (poll(pf, n, wk_runner_wait_cap_ms(R, wk_runner_poll_timeout_ms(R))) <= 0)
        return;
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (!j->pid)
            continue;
        for (nfds_t i = 0; i < n; i++) {
            if (!pf[i].revents)
                continue;
            if (pf[i].fd == j->fd_result)
                wk_runner_read_result(j);
            else if (pf[i].fd == j->fd_output)
                wk_runner_drain_output(j);
        }
    }
}

/* Stops every child still running; their cases stay unfinished. */
static void abandon_children(struct run *R)
{
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (j->pid)
            wk_runner_abandon_job(R, j);
    }
    wk_runner_kill_strays(R); /* every process a case left, shepherd or not */
}

static int work_left(const struct run *R)
{
    return R->wait.pending || R->rerun_head < R->rerun_tail || R->next < R->rep->count;
}

void wk_runner_run_forked(struct run *R)
{
    int was_subreaper = 0;
    prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper);
    wk_reap_become_subreaper(); /* what a case left when its shepherd was killed comes here (isolation.h) */
    wk_zygote_ready(R, 0); /* the first slot's process (zygote.c; the others at their first case) */
    for (;;) {
        if (!wk_runner_out_of_time(R))
            fill_slots(R);
        if (R->stopping || (!R->running && !work_left(R)))
            break;
        if (!R->running) {
            if (R->wait.pending)
                wk_runner_sleep_to_retry(R); /* no process or descriptor, none running to free one */
            continue;
        }
        wait_for_events(R, R->pf);
        wk_runner_check_children(R);
    }
    abandon_children(R);
    wk_zygote_stop(R);
    if (!was_subreaper)
        prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* --no-fork: one case after another in this process (for gdb); no
 * per-case timeout, and a crash ends the run, as a debugger wants. */
void wk_runner_run_in_process(struct run *R)
{
    size_t index;
    uint32_t attempt;
    while (!wk_runner_out_of_time(R) && next_attempt(R, &index, &attempt)) {
        if (attempt == 0 && R->o->on_start)
            R->o->on_start(R->o->ctx, R->rep, index);
        struct wk_case_result r;
        double t = wk_now_seconds();
        wk_runner_run_attempt(R, R->rep->cases[index].prog, attempt, &r);
        r.seconds = wk_now_seconds() - t;
        wk_runner_attempt_done(R, index, attempt, &r, NULL);
    }
}
