/* SPDX-License-Identifier: MIT */
/*
 * signals.c - SIGINT, SIGTERM, SIGHUP (a closed terminal) and SIGPIPE (a
 * closed pipe: `conform | head -3`) stop a run without losing it:
 * the handler only sets a flag and writes to a self-pipe, the scheduler's
 * poll() wakes on the pipe, stops launching, kills the children still
 * running and returns with what finished, so the caller can still write
 * every report. The flag and the pipe are the runner's one piece of
 * process-wide state, as signal handling requires; the other files read
 * them through wk_runner_caught_signal and wk_runner_signal_fd. Also the
 * names of signals, for crash verdicts and the reports.
 *
 * A stop signal sent by a case's own processes is not a stop: a hostile
 * driver can find the runner (the parent of its process's parent) and
 * SIGTERM it, which would end the run with its own case unjudged, and a
 * --resume would meet it again (docs/threat-model.md). The handler takes
 * the sender from siginfo (si_pid): a running case's shepherd or case
 * process (watched here from launch to reap; the case's pid is in the page
 * it shares with the runner), else a process whose parent chain in /proc
 * reaches the runner (a case's grandchild, or a case launched a moment
 * ago), since the runner has no other children while cases run. The known
 * pids come first because under load the case may have ended, and been
 * reaped by its shepherd, before the runner's handler runs: /proc then no
 * longer knows it. Such a signal is noted against the case's shepherd and
 * otherwise ignored; the case becomes a crash that names it when it is
 * reaped (job.c). A signal from anywhere else (a terminal's ^C, which the
 * kernel sends, the user's kill, the runner's own SIGPIPE) stops the run
 * as before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "runner_internal.h"

static volatile sig_atomic_t caught_signal;
static int signal_pipe[2] = { -1, -1 };
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))
static struct sigaction saved[STOP_SIGNALS];
static volatile pid_t owner;          /* the runner: a forked case process inherits the handler */

/* The running cases, by shepherd, and the stop signal each sent the
 * runner: at most one shepherd per slot runs at a time, so MAX_JOBS
 * entries hold them all. The main loop fills an entry at launch and frees
 * it at reap; the handler reads them and writes signo. */
static volatile struct {
    pid_t shepherd;                   /* 0: free */
    volatile const int32_t *case_pid; /* in the page shared with the case; NULL: none, or unmapped */
    sig_atomic_t signo;               /* the first stop signal the case sent; 0: none */
} cases[MAX_JOBS];

/* The entry of shepherd, else a free one when `take`; MAX_JOBS: none. */
static size_t entry_of(pid_t shepherd, int take)
{
    size_t free_entry = MAX_JOBS;
    for (size_t i = 0; i < MAX_JOBS; i++) {
        if (cases[i].shepherd == shepherd)
            return i;
        if (!cases[i].shepherd && free_entry == MAX_JOBS)
            free_entry = i;
    }
    if (take && free_entry < MAX_JOBS) {
        cases[free_entry].case_pid = NULL;
        cases[free_entry].signo = 0;
        cases[free_entry].shepherd = shepherd; /* last: the entry is whole when it is found */
    }
    return take ? free_entry : MAX_JOBS;
}

/* In the handler: the shepherd whose case sent the signal, or 0 when a
 * process outside every case did (or the kernel: si_code > 0, no sender). */
static pid_t sending_case(const siginfo_t *info)
{
    if (!info || info->si_code > 0 || info->si_pid <= 0 || info->si_pid == owner)
        return 0;
    for (size_t i = 0; i < MAX_JOBS; i++) {
        pid_t shepherd = cases[i].shepherd;
        volatile const int32_t *case_pid = cases[i].case_pid;
        if (shepherd && (info->si_pid == shepherd || (case_pid && *case_pid == info->si_pid)))
            return shepherd;
    }
    return wk_proc_child_above(info->si_pid, owner);
}

/* In the handler: notes signo against shepherd (the first signal it sent). */
static void note_case_signal(pid_t shepherd, int signo)
{
    size_t i = entry_of(shepherd, 1);
    if (i < MAX_JOBS && !cases[i].signo)
        cases[i].signo = signo;
}

static void on_stop_signal(int signo, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    (void)context;
    if (getpid() != owner) {
        /* a case process before it reset its handlers: die of the signal
         * as it would have, never stop the runner from inside a child */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof(dfl));
        dfl.sa_handler = SIG_DFL;
        sigaction(signo, &dfl, NULL);
        raise(signo);
        errno = saved_errno;
        return;
    }
    pid_t shepherd = sending_case(info);
    if (shepherd > 0) {
        note_case_signal(shepherd, signo); /* the driver's, not the user's: the run goes on */
        errno = saved_errno;
        return;
    }
    if (!caught_signal)
        caught_signal = signo; /* the first: a SIGTERM's run then meets SIGPIPEs as it stops */
    if (signal_pipe[1] >= 0) {
        ssize_t ignored = write(signal_pipe[1], "s", 1);
        (void)ignored;
    }
    errno = saved_errno;
}

void wk_runner_signals_begin(int enable)
{
    caught_signal = 0;
    if (!enable)
        return;
    if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        signal_pipe[0] = signal_pipe[1] = -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_stop_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        sigaddset(&sa.sa_mask, stop_signals[i]); /* one handler at a time writes cases[] */
    owner = getpid();
    for (size_t i = 0; i < MAX_JOBS; i++) {
        cases[i].shepherd = 0;
        cases[i].case_pid = NULL;
        cases[i].signo = 0;
    }
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        sigaction(stop_signals[i], &sa, &saved[i]);
}

void wk_runner_signals_end(int enable)
{
    if (!enable)
        return;
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        sigaction(stop_signals[i], &saved[i], NULL);
    for (int i = 0; i < 2; i++) {
        if (signal_pipe[i] >= 0)
            close(signal_pipe[i]);
        signal_pipe[i] = -1;
    }
}

const char *wk_run_signal_name(int signo)
{
    static const struct { int no; const char *name; } names[] = {
        { SIGSEGV, "SIGSEGV" }, { SIGABRT, "SIGABRT" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" },
        { SIGILL, "SIGILL" }, { SIGKILL, "SIGKILL" }, { SIGTERM, "SIGTERM" }, { SIGINT, "SIGINT" },
        { SIGTRAP, "SIGTRAP" }, { SIGALRM, "SIGALRM" }, { SIGPIPE, "SIGPIPE" }, { SIGSYS, "SIGSYS" },
        { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" }, { SIGHUP, "SIGHUP" }, { SIGQUIT, "SIGQUIT" },
        { SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" },
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].no == signo)
            return names[i].name;
    return "signal";
}

int wk_runner_caught_signal(void)
{
    return caught_signal;
}

void wk_runner_signals_hold(sigset_t *old)
{
    sigset_t stops;
    sigemptyset(&stops);
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        sigaddset(&stops, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &stops, old);
}

void wk_runner_signals_unblock(void)
{
    sigset_t stops;
    sigemptyset(&stops);
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        sigaddset(&stops, stop_signals[i]);
    sigprocmask(SIG_UNBLOCK, &stops, NULL);
}

void wk_runner_signals_watch(pid_t shepherd, volatile const int32_t *case_pid)
{
    size_t i = entry_of(shepherd, 1); /* a signal from a case launched a moment ago may be in it */
    if (i < MAX_JOBS)
        cases[i].case_pid = case_pid;
}

void wk_runner_signals_unmap(pid_t shepherd)
{
    size_t i = shepherd > 0 ? entry_of(shepherd, 0) : MAX_JOBS;
    if (i < MAX_JOBS)
        cases[i].case_pid = NULL;
}

int wk_runner_signals_unwatch(pid_t shepherd)
{
    size_t i = shepherd > 0 ? entry_of(shepherd, 0) : MAX_JOBS;
    if (i == MAX_JOBS)
        return 0;
    int signo = cases[i].signo;
    cases[i].case_pid = NULL;
    cases[i].signo = 0;
    cases[i].shepherd = 0; /* last: the handler never takes a half-freed entry */
    return signo;
}

int wk_runner_signal_fd(int end)
{
    return signal_pipe[end];
}
