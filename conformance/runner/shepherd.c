/* SPDX-License-Identifier: MIT */
/*
 * shepherd.c - every process a case starts is found and killed
 * (isolation.h, wk_shepherd_fork).
 *
 * Why a process of its own: a process group is not enough, since a driver
 * that calls setsid() leaves it, and a double fork leaves its parent. A
 * child subreaper (PR_SET_CHILD_SUBREAPER, Linux 3.4, no privilege, works in
 * containers) receives every orphan among its descendants, whatever group
 * or session they are in. It must sit outside the driver's process, or the
 * driver could turn it off; it must not be the runner itself, or with -j N
 * orphans of different cases would arrive at one parent and could not be
 * told apart. So each launch forks a shepherd, which forks the case's
 * process and does nothing else: it waits for that process, then kills
 * and reaps whatever is left below it, then exits with the case process's
 * status. A case's verdict is therefore in as soon as its process has
 * ended, whatever its descendants were doing, and nothing outlives it.
 *
 * What it cannot do: a descendant that entered a PID namespace of its own
 * is killed with that namespace's init; one that got a descriptor to an
 * unrelated process (a socket to a daemon) has left the case.
 *
 * The driver can signal the shepherd (it is the case process's parent, of
 * the same user). The shepherd blocks every signal it can, except the
 * SIGTERM it handles, so what is left is SIGSTOP and SIGKILL, and the
 * caller watches for both: a stopped shepherd (waitpid's WUNTRACED) is
 * killed with SIGKILL, which works on a stopped process, never waited for
 * without a deadline; a killed one has not set its `done` word (below), so
 * the caller tells "the kit's shepherd was killed" from a case's process
 * killed by SIGKILL, whose shepherd mirrors it. Either way the case's
 * process dies with the shepherd (PR_SET_PDEATHSIG) and every other
 * process of the case comes to the caller, itself a child subreaper, which
 * kills them (wk_reap_strays).
 *
 * Why the caller waits for the shepherd's fork (a "start pipe"): the
 * shepherd forks too, and when that fork finds no process to spare
 * (RLIMIT_NPROC: EAGAIN), a shepherd that merely exited would read as a
 * case process that died without a result, a crash of the driver. Instead
 * it writes the errno to the start pipe and wk_shepherd_fork fails with it,
 * like any fork, so the caller can wait and retry (util/retry.h) or call the
 * case an error. A caller with other work (the runner, -j N) keeps the pipe
 * and reads it when the shepherd has exited, rather than wait a fork's time
 * per launch; the crash tools wait.
 *
 * The runner's cases have a shepherd per -j slot that lives across
 * cases (zygote.c; wk_shepherd_serve_setup below): the same process, the
 * same handler and the same sweep, but it forks each case's process
 * itself and, once the case has ended and nothing of it is left, writes
 * the status and the `done` word for the runner instead of mirroring the
 * status as it exits. The crash tools and a runner without a slot
 * process use wk_shepherd_fork: a shepherd per case.
 *
 * Why the stop handler asks who sent the signal: the case's process knows
 * its shepherd (getppid()), so a hostile driver can SIGTERM it, and the
 * case would end killed by SIGKILL, the driver's own act reported as the
 * kit's. The handler takes the sender from siginfo (si_pid) and, when it is
 * the case's process or one below it (util/ancestry.c), ignores the signal
 * and notes it where the caller can read it (the page the runner shares
 * with the case): the case runs on, and the runner names what the driver
 * did. Any other sender (the runner, PR_SET_PDEATHSIG, a user's kill)
 * ends the case as before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isolation.h"
#include "util.h"

/* The case's process, for the stop handler; 0 before it exists. */
static volatile pid_t shepherd_child;
/* Where the first stop signal the case sent its shepherd is noted; NULL:
 * nowhere (still ignored). */
static volatile int32_t *driver_signal_note;

/* The signals the shepherd stops on. SIGTERM is the kit's own (a timeout,
 * a stop, PR_SET_PDEATHSIG); the others would otherwise kill the shepherd
 * and leave the case to die of PR_SET_PDEATHSIG, misreported alike. */
static const int stop_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGPIPE };
#define STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

/* Whether sender is the case's process or one below it. The case's pid
 * first: waitpid() may have reaped it (the case ended) before this handler
 * runs, and /proc then no longer knows whose child it was. */
static int from_the_case(pid_t sender)
{
    pid_t child = shepherd_child;
    return sender > 0 && ((child > 0 && sender == child) || wk_proc_child_above(sender, getpid()) > 0);
}

/* A stop signal from outside the case (the runner: a timeout or a stop;
 * PR_SET_PDEATHSIG: the runner died): the case ends now. kill() is
 * async-signal-safe, and doing it here leaves no window between a flag
 * test and a blocking wait. From the case's own processes: the driver's
 * act, noted and ignored. */
static void on_stop(int signo, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    (void)context;
    if (info && info->si_code <= 0 && from_the_case(info->si_pid)) {
        if (driver_signal_note && !*driver_signal_note)
            *driver_signal_note = signo;
    } else if (shepherd_child > 0)
        kill(shepherd_child, SIGKILL);
    errno = saved_errno;
}

/* Waits for the case's process, reaping orphans that end meanwhile. */
static int wait_case(pid_t child)
{
    for (;;) {
        int status = 0;
        pid_t p = waitpid(-1, &status, 0);
        if (p == child)
            return status;
        if (p < 0 && errno == ECHILD)
            return 0; /* cannot happen: the child is ours until reaped */
    }
}

/* Ends the shepherd as the case's process ended, without a core file. */
static _Noreturn void mirror(int status)
{
    if (WIFEXITED(status))
        _exit(WEXITSTATUS(status));
    int signo = WTERMSIG(status);
    prctl(PR_SET_DUMPABLE, 0); /* a mirrored SIGSEGV or SIGABRT dumps no core */
    struct rlimit none = { 0, 0 };
    setrlimit(RLIMIT_CORE, &none);
    signal(signo, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    kill(getpid(), signo); /* not raise(): a shepherd the zygote cloned keeps the zygote's thread id */
    _exit(128 + signo);
}

/* The shepherd needs none of the caller's descriptors, and must not keep
 * a pipe's write end open: the caller waits for end of file. */
static void close_inherited(void)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
        close((int)fd);
}

static _Noreturn void shepherd_main(pid_t child, volatile int32_t *done)
{
    close_inherited();
    int status = wait_case(child);
    shepherd_child = 0;
    wk_reap_descendants(); /* util/reap.c: each generation listed, killed, reaped */
    if (done)
        *done = 1; /* the case ended and nothing of it is left: a death from here on is the mirror */
    mirror(status);
}

static void stop_signal_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        sigaddset(set, stop_signals[i]);
}

/* In the shepherd, before it forks: its own group (a terminal's ^C goes to
 * the runner, which stops the cases), death with the runner, the stop
 * handler, every signal blocked: the driver may signal its parent, and
 * only the stop signals (handled, below, which tell the driver's from the
 * runner's), SIGSTOP and SIGKILL reach it. The stop signals stay blocked
 * until the case's pid is known, so a stop that comes early is not lost.
 * old[] and *old_mask get what to give back to the case's process. */
static void shepherd_setup(pid_t runner, struct sigaction old[STOP_SIGNALS], sigset_t *old_mask)
{
    sigset_t all, stops;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, old_mask);
    stop_signal_set(&stops);
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    wk_reap_become_subreaper();
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_stop;
    sa.sa_flags = SA_SIGINFO;
    sa.sa_mask = stops;
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        sigaction(stop_signals[i], &sa, &old[i]);
    if (getppid() != runner)
        _exit(127); /* the runner died before PDEATHSIG was armed */
}

/* In the shepherd: forks the case's process, or tells the caller why it
 * could not (the errno, on the start pipe) and exits. */
static pid_t fork_case(int start_fd)
{
    pid_t child = fork();
    if (child < 0) {
        int err = errno;
        ssize_t ignored = write(start_fd, &err, sizeof(err));
        (void)ignored;
        _exit(127);
    }
    return child;
}

int wk_shepherd_start_error(int start_fd)
{
    int err = 0;
    ssize_t n;
    if (start_fd < 0)
        return 0;
    do
        n = read(start_fd, &err, sizeof(err));
    while (n < 0 && errno == EINTR);
    close(start_fd);
    return n == (ssize_t)sizeof(err) && err > 0 ? err : 0;
}

/* In the caller that does not keep the start pipe: the shepherd's word on
 * its fork, at once. End of file (the pipe closed by the shepherd's
 * close_inherited and by the case's process) is a case that started; an
 * errno is one that did not, and the shepherd, which has exited, is
 * reaped here. */
static int case_started(pid_t shepherd, int start_fd)
{
    for (;;) { /* the driver may stop the shepherd before it closed the pipe: never block on it */
        struct pollfd p = { start_fd, POLLIN, 0 };
        if (poll(&p, 1, 20) > 0)
            break;
        if (wk_shepherd_state(shepherd) == WK_SHEPHERD_STOPPED) {
            close(start_fd);
            return 1; /* it forked the case's process; the caller sees the stop and kills it */
        }
    }
    int err = wk_shepherd_start_error(start_fd);
    if (!err)
        return 1;
    while (waitpid(shepherd, NULL, 0) < 0 && errno == EINTR)
        ;
    errno = err;
    return 0;
}

pid_t wk_shepherd_fork(int *start_fd, const char **failed_call, volatile int32_t *done,
                       volatile int32_t *driver_signal)
{
    pid_t runner = getpid();
    int start[2];
    if (failed_call)
        *failed_call = "pipe";
    if (pipe2(start, O_CLOEXEC) != 0)
        return -1;
    if (failed_call)
        *failed_call = "fork";
    pid_t shepherd = fork();
    if (shepherd != 0) {
        int err = errno;
        close(start[1]);
        if (shepherd < 0) {
            close(start[0]);
            errno = err;
            return -1;
        }
        if (start_fd) {
            /* the caller reads it once the shepherd has exited; never blocks */
            fcntl(start[0], F_SETFL, fcntl(start[0], F_GETFL) | O_NONBLOCK);
            *start_fd = start[0];
            return shepherd;
        }
        return case_started(shepherd, start[0]) ? shepherd : -1;
    }
    close(start[0]);
    return wk_shepherd_become(start[1], runner, done, driver_signal);
}

pid_t wk_shepherd_become(int start_fd, pid_t runner, volatile int32_t *done, volatile int32_t *driver_signal)
{
    struct sigaction old[STOP_SIGNALS];
    sigset_t old_mask;
    driver_signal_note = driver_signal;
    shepherd_setup(runner, old, &old_mask);
    pid_t self = getpid();
    pid_t child = fork_case(start_fd);
    if (child == 0) {
        close(start_fd);
        for (size_t i = 0; i < STOP_SIGNALS; i++)
            sigaction(stop_signals[i], &old[i], NULL);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != self)
            _exit(127);
        return 0;
    }
    shepherd_child = child;
    sigset_t stops;
    stop_signal_set(&stops);
    sigprocmask(SIG_UNBLOCK, &stops, NULL); /* a pending stop kills the child now */
    shepherd_main(child, done); /* closes start[1] with every inherited descriptor */
}

/* ------------------------------------------------------------------ */
/* A shepherd that lives across cases (zygote.c: one per -j slot)       */
/* ------------------------------------------------------------------ */

/* What the case's process gets back of the shepherd's signal state. */
static struct sigaction serve_old[STOP_SIGNALS];
static sigset_t serve_old_mask;

/* What a process of the same user may change in another from outside
 * (prlimit, setpriority, sched_setaffinity, ioprio_set) and a fork hands
 * down: the case's process could change its shepherd's, and the next case
 * would start with them. Read at setup, compared before each case. */
struct inherited {
    struct rlimit limits[RLIM_NLIMITS];
    int nice;
    cpu_set_t cpus;
    long ioprio;
};
static struct inherited serve_inherited;

static void inherited_read(struct inherited *in)
{
    memset(in, 0, sizeof(*in));
    for (int r = 0; r < RLIM_NLIMITS; r++)
        getrlimit((__rlimit_resource_t)r, &in->limits[r]);
    errno = 0;
    in->nice = getpriority(PRIO_PROCESS, 0);
    sched_getaffinity(0, sizeof(in->cpus), &in->cpus);
#ifdef SYS_ioprio_get
    in->ioprio = syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0);
#endif
}

int wk_shepherd_unchanged(void)
{
    struct inherited now;
    inherited_read(&now);
    return memcmp(&now, &serve_inherited, sizeof(now)) == 0;
}

void wk_shepherd_serve_setup(void)
{
    sigset_t all, stops;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &serve_old_mask);
    stop_signal_set(&stops);
    inherited_read(&serve_inherited);
    prctl(PR_SET_PDEATHSIG, SIGTERM); /* on_stop kills the case, whose processes are then reaped here */
    wk_reap_become_subreaper();
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_stop;
    sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: a stop interrupts a wait, which then runs again */
    sa.sa_mask = stops;
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        sigaction(stop_signals[i], &sa, &serve_old[i]);
    /* Unblocked from here on: between cases (no child) on_stop only notes
     * a signal from a process still below, and kills nothing. Blocked
     * across each fork, so that none finds a case half made. */
    sigprocmask(SIG_UNBLOCK, &stops, NULL);
}

pid_t wk_shepherd_fork_case(volatile int32_t *driver_signal)
{
    sigset_t stops;
    stop_signal_set(&stops);
    sigprocmask(SIG_BLOCK, &stops, NULL);
    driver_signal_note = driver_signal;
    pid_t self = getpid();
    pid_t child = fork();
    if (child == 0) {
        for (size_t i = 0; i < STOP_SIGNALS; i++)
            sigaction(stop_signals[i], &serve_old[i], NULL);
        sigprocmask(SIG_SETMASK, &serve_old_mask, NULL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != self)
            _exit(127);
        return 0;
    }
    int err = errno;
    if (child > 0)
        shepherd_child = child;
    else
        driver_signal_note = NULL;
    sigprocmask(SIG_UNBLOCK, &stops, NULL); /* a stop that came meanwhile kills the new case now */
    errno = err;
    return child;
}

int wk_shepherd_end_case(pid_t child, volatile int32_t *done, volatile int32_t *case_status)
{
    int status = wait_case(child);
    shepherd_child = 0;
    wk_reap_descendants(); /* util/reap.c: nothing of the case is left, setsid() or not */
    if (case_status)
        *case_status = status;
    if (done)
        *done = 1; /* the case ended and nothing of it is left; its status is in *case_status */
    driver_signal_note = NULL; /* the page goes: a late note would write to nothing */
    return status;
}

/* The shepherd's group first (shepherd_setup made it one: the shepherd and
 * every process of its case still in the group), all at once, then the
 * shepherd. Killed after its shepherd, only through PR_SET_PDEATHSIG, a
 * case's process could run on for a moment, be handed to the caller (a
 * subreaper) and signal it instead: kill(getppid(), SIGSTOP) stopped
 * `wddmkit repro` itself in 2% of the runs of tests/hostile_shepherd.sh
 * "stopped" (the driver stops its parent in every Render). A process of the
 * case that left the group can still do so (docs/threat-model.md). */
void wk_shepherd_stop(pid_t shepherd)
{
    if (shepherd <= 0)
        return;
    if (getpgid(shepherd) == shepherd)
        kill(-shepherd, SIGKILL);
    kill(shepherd, SIGKILL);
}

enum wk_shepherd_state wk_shepherd_state(pid_t shepherd)
{
    siginfo_t si;
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)shepherd, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) != 0)
        return errno == ECHILD ? WK_SHEPHERD_ENDED : WK_SHEPHERD_RUNNING;
    if (si.si_pid != shepherd)
        return WK_SHEPHERD_RUNNING;
    return si.si_code == CLD_STOPPED ? WK_SHEPHERD_STOPPED : WK_SHEPHERD_ENDED;
}

int wk_shepherd_wait(pid_t shepherd, int *status, long ms)
{
    double deadline = wk_now_seconds() + (double)ms / 1000.0;
    for (;;) {
        pid_t p = waitpid(shepherd, status, WNOHANG);
        if (p == shepherd || (p < 0 && errno != EINTR))
            return p == shepherd ? 0 : -1;
        if (wk_now_seconds() >= deadline)
            return -1;
        usleep(1000);
    }
}
