/* SPDX-License-Identifier: MIT */
/*
 * runner_internal.h - what the files of the case runner share: the run in
 * progress (struct run), one attempt's slot (struct job) and each file's
 * functions the others call. Not part of runner.h: callers see that.
 *
 *   runner.c     the run: options into a report, the environment it
 *                describes, the cases it will run;
 *   select.c     which cases: filters, excludes, shards, duplicate ids;
 *   schedule.c   fork per case, -j N with poll(), or --no-fork;
 *   job.c        one attempt: its child, pipes and result record;
 *   zygote.c     the small process of each -j slot that forks the slot's
 *                cases and is their shepherd, fed one program a case;
 *   launch_wait.c  an attempt that found no process or descriptor waits
 *                for one (running cases end, backoff), then is an error;
 *   timeouts.c   the per-case and total deadlines, and stopping;
 *   verdicts.c   an attempt's result into a case's verdict: expectations,
 *                one rerun of an unexpected failure, flakes;
 *   signals.c    SIGINT/SIGTERM: a flag and a self-pipe; a case's own
 *                signal to the runner noted against it, not a stop;
 *   report_common.c  the helpers the report writers share.
 */
#ifndef WK_RUNNER_INTERNAL_H
#define WK_RUNNER_INTERNAL_H

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "isolation.h"
#include "runner.h"
#include "util.h"

#define MAX_JOBS 256u

/* One attempt, in whichever process runs it. */
struct job {
    size_t index;                     /* into rep->cases */
    uint32_t attempt;
    pid_t pid;                        /* the case's shepherd (isolation.h): the slot's process (zygote.c)
                                         or one forked here; 0: slot free */
    int fd_result, fd_output;
    int fd_pid;                       /* pidfd: readable once the child exits; -1 */
    int fd_start;                     /* the shepherd's start pipe (isolation.h); -1 */
    int fd_slot;                      /* the slot process's socket, not the job's (zygote.c): its word that
                                         the case ended; -1: a shepherd forked here */
    int result_eof;
    double start, deadline;
    size_t got;
    volatile struct wk_vidmm_crash_slot *crash_slot; /* shared with the child: the DDI it is in, the driver
                                         thread that died (job.c); NULL */
    volatile int32_t *result_pipe;    /* shared too, after the slot: what the child found of its result
                                         pipe when it came to answer (job.c, result_pipe_state) */
    volatile int32_t *shepherd_done;  /* shared too: 1 once the shepherd ended on its own (isolation.h) */
    volatile int32_t *shepherd_signal; /* shared too: a stop signal the case's processes sent the
                                         shepherd, which ignored it (shepherd.c); 0: none */
    volatile int32_t *case_pid;       /* shared too: the case process's pid, for the runner's stop
                                         handler (signals.c); 0 until it runs */
    volatile int32_t *case_status;    /* shared too: the case process's wait status, written by a slot's
                                         shepherd before its done word (zygote.c) */
    size_t extra;                     /* bytes that came after a record's worth */
    struct wk_result_nonce nonce;     /* this launch's: a record must carry it (isolation.h) */
    union {
        struct wk_result_record record;
        unsigned char bytes[sizeof(struct wk_result_record)];
    } in;
    char tail[2048];                  /* the end of what the child printed */
    size_t tail_len;
};

/* The page a case's processes share with the runner, fresh for each
 * launch (job.c): a store per DDI call in the case, no system call. */
struct case_shared {
    struct wk_vidmm_crash_slot slot; /* first: job->crash_slot is the mapping's address */
    int32_t result_pipe;
    int32_t shepherd_done;            /* set by the shepherd as it ends on its own (isolation.h) */
    int32_t shepherd_signal;         /* written by the shepherd: a stop signal the case sent it */
    int32_t case_pid;                /* written by the case's process, first: who it is (signals.c) */
    int32_t case_status;             /* the case process's wait status, by a slot's shepherd (zygote.c) */
};

/* Why an attempt did not start: the call and its errno. */
struct wk_launch_failure {
    const char *call;                 /* "pipe", "fork", "getrandom" */
    int err;
};

/* The attempts waiting for a process or descriptor (launch_wait.c), the
 * next to launch first: at most one per slot. */
struct launch_wait {
    uint32_t pending;
    struct {
        size_t index;
        uint32_t attempt;
    } queue[MAX_JOBS];
    int clock;                        /* the deadline runs: nothing else was running */
    struct wk_retry retry;
    double until;                     /* with nothing running: the next try (monotonic s) */
    int expired;                      /* the wait ran out: until a case starts, no more waiting */
};

struct run {
    const struct wk_runner_options *o;
    struct wk_run_report *rep;
    const char *abort_id, *flaky_id;  /* test hooks */
    pid_t parent;
    struct job *jobs;
    struct pollfd *pf;                /* 3 per slot + the signal pipe */
    uint32_t slots, running;
    size_t next;                      /* next case to launch */
    size_t *reruns;                   /* FIFO of case indices */
    size_t rerun_head, rerun_tail;
    double t0, total_deadline;        /* total_deadline 0: none */
    struct wk_vidmm_driver *once;     /* --no-fork: the driver's one load (vidmm.h); NULL */
    int stopping;
    struct launch_wait wait;
    struct {
        int fd;                       /* the socket to the slot's process (zygote.c); -1: none */
        pid_t pid;                    /* 0: none */
    } zygote[MAX_JOBS];
    int zygote_off;                   /* it cannot start in this run: cases fork from here */
    unsigned char *zygote_buf;        /* a case's program, flattened for the zygote */
    size_t zygote_cap;
};

/* runner.c: the report's environment (host, start time, the options it
 * prints); the journal's reports describe their run with it too. */
void wk_runner_describe(struct wk_run_report *rep, const struct wk_runner_options *o);

/* verdicts.c */
void wk_runner_finalize(struct run *R, size_t index, enum wk_verdict v);
void wk_runner_attempt_done(struct run *R, size_t index, uint32_t attempt, const struct wk_case_result *r,
                            const char *tail);
void wk_runner_settle_reruns(struct run *R);

/* job.c */
/* A shared page as a launch starts: no DDI, no thread, nothing noted. */
void wk_runner_case_shared_init(volatile struct case_shared *shared);
/* The job's pointers into its shared page (NULL: none). */
void wk_runner_job_share(struct job *j, volatile struct case_shared *shared);
/* The case's process, from its first instruction to its record: runs p. */
_Noreturn void wk_runner_child_main(const struct run *R, const struct job *j, const struct wk_prog *p, int wfd,
                                    int ofd);
void wk_runner_run_attempt(const struct run *R, const struct wk_prog *p, uint32_t attempt,
                           struct wk_case_result *r);
int wk_runner_launch(struct run *R, struct job *j, size_t index, uint32_t attempt, struct wk_launch_failure *why);
void wk_runner_close_fd(int *fd);
void wk_runner_drain_output(struct job *j);
void wk_runner_read_result(struct job *j);
void wk_runner_drain_result(struct job *j);
/* How an attempt ended, as the runner saw its shepherd. */
enum wk_attempt_end {
    WK_END_EXITED,                    /* the shepherd exited, or was killed (its done word says which) */
    WK_END_CASE_DONE,                 /* the slot's shepherd said its case ended, and lives on (zygote.c) */
    WK_END_TIMED_OUT,                 /* past --timeout: the runner killed it */
    WK_END_SHEPHERD_STOPPED,          /* the driver stopped it (SIGSTOP): the runner killed it */
};
void wk_runner_reap(struct run *R, struct job *j, int status, enum wk_attempt_end how);
void wk_runner_kill_job(struct job *j);
void wk_runner_abandon_job(struct run *R, struct job *j);
int wk_runner_wait_for(pid_t pid);
/* Kills every process that came to the runner (a subreaper) from a case
 * whose shepherd is gone, keeping the shepherds still running. */
void wk_runner_kill_strays(const struct run *R);

/* launch_wait.c */
int wk_runner_take_waiting(struct run *R, size_t *index, uint32_t *attempt);
int wk_runner_wait_to_launch(struct run *R, size_t index, uint32_t attempt, const struct wk_launch_failure *why,
                             int first);
void wk_runner_case_started(struct run *R);
void wk_runner_sleep_to_retry(struct run *R);
int wk_runner_wait_cap_ms(const struct run *R, int ms);

/* timeouts.c */
int wk_runner_out_of_time(struct run *R);
int wk_runner_poll_timeout_ms(const struct run *R);
void wk_runner_check_children(struct run *R);

/* zygote.c: 1 when slot's process runs (started now if need be), 0: fork here */
int wk_zygote_ready(struct run *R, uint32_t slot);
/* Starts j's case in its slot's process, the case's shepherd, handing it
 * the case's program and pipes: the slot process's pid, with j->fd_slot
 * and j's shared page set; -1 with errno and the call that failed; -2
 * when p cannot travel or no slot process starts (then fork here). */
pid_t wk_zygote_launch(struct run *R, struct job *j, const struct wk_prog *p, int result_fd, int output_fd,
                       const char **failed_call);
/* The slot process said j's case ended: 1 and its wait status; 0: not
 * (yet); never blocks. */
int wk_zygote_case_done(struct job *j, int *status);
/* j's slot process has died and been reaped: forgotten; the next launch
 * in the slot starts another. */
void wk_zygote_retire(struct run *R, struct job *j);
/* The slot processes' pids into keep[] (MAX_JOBS room), which the strays'
 * sweep keeps: how many. */
size_t wk_zygote_keep(const struct run *R, pid_t *keep);
void wk_zygote_stop(struct run *R);

/* schedule.c */
void wk_runner_run_forked(struct run *R);
void wk_runner_run_in_process(struct run *R);

/* signals.c: the one process-wide state of the runner */
void wk_runner_signals_begin(int enable);
void wk_runner_signals_end(int enable);
int wk_runner_caught_signal(void);        /* the stop signal caught, 0: none */
int wk_runner_signal_fd(int end);         /* the self-pipe's read (0) or write (1) end; -1: none */
/* A case's stop signals to the runner are its own, not a stop: its
 * shepherd and the case process (case_pid: in the page shared with it,
 * written by the case's process) are watched from launch to reap. Unmap
 * says the page is about to go; unwatch ends the watch and returns the
 * stop signal the case sent the runner (ignored), 0: none. */
void wk_runner_signals_watch(pid_t shepherd, volatile const int32_t *case_pid);
/* The stop signals held (blocked, the mask before in *old) from the fork of
 * a case to its watch: under load the runner may not run again until its
 * new case has signalled it, ended and been reaped by its shepherd, and
 * only the watch can name such a sender; a held signal arrives after it.
 * The case's process unblocks them (it inherits the mask). */
void wk_runner_signals_hold(sigset_t *old);
void wk_runner_signals_unblock(void);
void wk_runner_signals_unmap(pid_t shepherd);
int wk_runner_signals_unwatch(pid_t shepherd);

#endif
