/* SPDX-License-Identifier: MIT */
/*
 * timeouts.c - the run's deadlines: a case past --case-timeout is
 * killed (its whole process group) and gets a timeout verdict; a run past
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
        if (j->result_eof && j->fd_pid < 0)
            return 2; /* the child closed its pipe: reap it soon */
        if (j->deadline > 0 && (wake <= 0 || j->deadline < wake))
            wake = j->deadline;
    }
    if (wake <= 0)
        return 1000;
    double ms = (wake - now) * 1000.0 + 1.0;
    return ms < 0 ? 0 : ms > 1000 ? 1000 : (int)ms;
}

/* Reaps children that closed their result pipe and kills the late ones. */
void wk_runner_check_children(struct run *R)
{
    double now = wk_now_seconds();
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (!j->pid)
            continue;
        int status = 0;
        if (j->result_eof && waitpid(j->pid, &status, WNOHANG) == j->pid) {
            wk_runner_reap(R, j, status, 0);
        } else if (j->deadline > 0 && now >= j->deadline) {
            wk_runner_kill_job(j);
            wk_runner_reap(R, j, wk_runner_wait_for(j->pid), 1);
        }
    }
}
