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

static void on_stop_signal(int signo)
{
    int saved_errno = errno;
    if (getpid() != owner) {
        /* a case process before it reset its handlers: die of the signal
         * as it would have, never stop the runner from inside a child */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof(dfl));
        dfl.sa_handler = SIG_DFL;
        sigaction(signo, &dfl, NULL);
        raise(signo);
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
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    owner = getpid();
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

int wk_runner_signal_fd(int end)
{
    return signal_pipe[end];
}
