/* SPDX-License-Identifier: MIT */
/*
 * timeouts.c - the run's deadlines: a case past --case-timeout is
 * killed (its shepherd, with SIGKILL, and every process of the case) and
 * gets a timeout verdict; a run past
 * --total-timeout, or caught by SIGINT/SIGTERM, stops launching and keeps
 * what finished. poll() sleeps until the nearest deadline, at most a
 * second, so a deadline is noticed without a timer signal.
 */
#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/wait.h>

#include "runner_internal.h"
#include "util.h"

int wk_runner_out_of_time(struct run *R)
{
    if (wk_runner_caught_signal()) {
        R->rep->stop = WK_RUN_INTERRUPTED;
        R->rep->signo = wk_runner_caught_signal();
        R->stopping = 1;
    } else if (R->total_deadline > 0 && wk_now_seconds() >= R->total_deadline) {
        R->rep->stop = WK_RUN_TOTAL_TIMEOUT;
        R->stopping = 1;
    }
    return R->stopping;
}

int wk_runner_poll_timeout_ms(const struct run *R)
{
    double now = wk_now_seconds(), wake = R->total_deadline;
    for (uint32_t s = 0; s < R->slots; s++) {
        const struct job *j = &R->jobs[s];
        if (!j->pid)
            continue;
        if (j->result_eof)
            return j->fd_pid < 0 && j->fd_slot < 0 ? 2 : 20; /* the shepherd ends next: reap it soon, or see it stopped */
        if (j->fd_pid < 0 && j->fd_slot < 0 && (wake <= 0 || now + 0.05 < wake))
            wake = now + 0.05; /* no pidfd: look at the shepherd often */
        if (j->deadline > 0 && (wake <= 0 || j->deadline < wake))
            wake = j->deadline;
    }
    if (wake <= 0)
        return 1000;
    double ms = (wake - now) * 1000.0 + 1.0;
    return ms < 0 ? 0 : ms > 1000 ? 1000 : (int)ms;
}

/* Reaps the attempts whose shepherd ended (the case's process and all it
 * started are gone, or the driver killed the shepherd: the pipes may still
 * be held, by processes the runner then kills); kills the late ones, and
 * those whose shepherd the driver stopped (SIGSTOP: it would hold the case
 * for ever, its case's process a zombie nobody reaps). */
void wk_runner_check_children(struct run *R)
{
    double now = wk_now_seconds();
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (!j->pid)
            continue;
        int status = 0;
        if (wk_zygote_case_done(j, &status)) { /* a slot's shepherd: the case ended, the shepherd lives on */
            wk_runner_reap(R, j, status, WK_END_CASE_DONE);
            continue;
        }
        enum wk_shepherd_state state = wk_shepherd_state(j->pid);
        if (state == WK_SHEPHERD_ENDED && waitpid(j->pid, &status, WNOHANG) == j->pid) {
            wk_runner_reap(R, j, status, WK_END_EXITED);
        } else if (state == WK_SHEPHERD_STOPPED) {
            wk_runner_kill_job(j);
            wk_runner_reap(R, j, wk_runner_wait_for(j->pid), WK_END_SHEPHERD_STOPPED);
        } else if (j->deadline > 0 && now >= j->deadline) {
            wk_runner_kill_job(j);
            wk_runner_reap(R, j, wk_runner_wait_for(j->pid), WK_END_TIMED_OUT);
        }
    }
}
