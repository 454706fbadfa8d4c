/* SPDX-License-Identifier: MIT */
/*
 * runner.c - runs step programs as isolated cases: selection, fork per
 * case, -j N with poll(), timeouts, reruns, expectations, signals.
 *
 * Why a process per case: the driver under test is hostile by assumption.
 * vidmm already turns a crash or hang *inside a DDI* into a violation, but a
 * driver can corrupt the heap, trip a sanitizer, call exit() or spin outside
 * any DDI frame; only a process boundary contains all of that. A child runs
 * wk_prog_run and writes its struct wk_case_result into a pipe, then
 * _exit(0)s. The parent believes a result only when the whole struct
 * arrived and the child exited with status 0; anything else is a crash,
 * named by its signal or exit status and the sanitizer's SUMMARY line when
 * the child printed one. Children get their own process group, so a
 * timeout kills the driver's own helpers too, and PR_SET_PDEATHSIG, so
 * none outlives a runner that was killed.
 *
 * Why poll(): one loop watches every child's result and output pipes, the
 * signal self-pipe and the nearest deadline; there are no threads and no
 * SIGCHLD handler. Results land in their case's slot (cases are sorted by
 * id before the run), so the report's order never depends on -j.
 *
 * Signals: SIGINT/SIGTERM only set a flag and write to a self-pipe (the
 * one piece of process-wide state here, as signal handling requires); the
 * loop then stops launching, kills the children still running and returns
 * with what finished, so the caller can still write every report.
 */
#define _GNU_SOURCE
#include "runner.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "expectations.h"

#define MAX_JOBS 256u

/* ------------------------------------------------------------------ */
/* Selection                                                            */
/* ------------------------------------------------------------------ */

struct keyed {
    const char *id;
    size_t index;
};

static int by_id(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int matches_any(const char *id, const char *const *globs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (globs[i] && fnmatch(globs[i], id, 0) == 0)
            return 1;
    return 0;
}

static int check_selection_args(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                                FILE *err)
{
    if (o->shard_count && (o->shard_index < 1 || o->shard_index > o->shard_count)) {
        fprintf(err, "wddmkit: --shard %u/%u: the shard index must lie in 1..%u\n", o->shard_index,
                o->shard_count, o->shard_count);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!cases[i]) {
            fprintf(err, "wddmkit: case %zu is missing\n", i);
            return 0;
        }
    return 1;
}

static int report_duplicates(const struct keyed *k, size_t n, const struct wk_prog *const *cases, FILE *err)
{
    int dup = 0;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(k[i - 1].id, k[i].id) != 0)
            continue;
        const struct wk_prog *a = cases[k[i - 1].index], *b = cases[k[i].index];
        fprintf(err, "wddmkit: duplicate case id '%s' (%s:%u and %s:%u)\n", k[i].id, a->file[0] ? a->file : "-",
                a->line, b->file[0] ? b->file : "-", b->line);
        dup = 1;
    }
    return dup;
}

wk_status wk_runner_select(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                           size_t **index, size_t *count, FILE *err)
{
    *index = NULL;
    *count = 0;
    if (!check_selection_args(cases, n, o, err))
        return WK_E_INVALID_ARGUMENT;
    struct keyed *k = calloc(n ? n : 1, sizeof(*k));
    size_t *idx = calloc(n ? n : 1, sizeof(*idx));
    if (!k || !idx) {
        free(k);
        free(idx);
        return WK_E_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (struct keyed){ cases[i]->id, i };
    qsort(k, n, sizeof(*k), by_id);
    if (report_duplicates(k, n, cases, err)) {
        free(k);
        free(idx);
        return WK_E_INVALID_ARGUMENT;
    }
    size_t m = 0, position = 0;
    for (size_t i = 0; i < n; i++) {
        if (o->filter_count && !matches_any(k[i].id, o->filters, o->filter_count))
            continue;
        if (matches_any(k[i].id, o->excludes, o->exclude_count))
            continue;
        /* Round robin over the filtered list: every shard gets every area. */
        if (o->shard_count > 1 && position++ % o->shard_count != o->shard_index - 1)
            continue;
        idx[m++] = k[i].index;
    }
    free(k);
    *index = idx;
    *count = m;
    return WK_OK;
}

/* ------------------------------------------------------------------ */
/* Verdicts                                                             */
/* ------------------------------------------------------------------ */

static int is_failure(enum wk_verdict v)
{
    return v == WK_VERDICT_FAIL || v == WK_VERDICT_CRASH || v == WK_VERDICT_TIMEOUT;
}

enum wk_verdict wk_runner_classify(enum wk_verdict raw, const struct wk_expectation *e)
{
    if (!e)
        return raw;
    switch (e->expect) {
    case WK_VERDICT_SKIP: return WK_VERDICT_SKIP;
    case WK_VERDICT_FLAKE: return is_failure(raw) ? WK_VERDICT_FLAKE : raw;
    default:
        if (raw == e->expect)
            return WK_VERDICT_EXPECTED_FAIL;
        if (raw == WK_VERDICT_PASS)
            return WK_VERDICT_UNEXPECTED_PASS;
        return raw;
    }
}

int wk_verdict_is_unexpected(enum wk_verdict v)
{
    return is_failure(v) || v == WK_VERDICT_ERROR || v == WK_VERDICT_UNEXPECTED_PASS;
}

int wk_run_exit_code(const struct wk_run_report *rep)
{
    if (rep->stop == WK_RUN_INTERRUPTED)
        return 130;
    if (rep->spec_errors_total)
        return 2; /* the suite that ran is not the one written */
    return rep->unexpected || rep->stop == WK_RUN_TOTAL_TIMEOUT ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Signals                                                              */
/* ------------------------------------------------------------------ */

static volatile sig_atomic_t caught_signal;
static int signal_pipe[2] = { -1, -1 };
static struct sigaction saved_int, saved_term;

static void on_stop_signal(int signo)
{
    int saved = errno;
    caught_signal = signo;
    if (signal_pipe[1] >= 0) {
        ssize_t ignored = write(signal_pipe[1], "s", 1);
        (void)ignored;
    }
    errno = saved;
}

static void signals_begin(int enable)
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
    sigaction(SIGINT, &sa, &saved_int);
    sigaction(SIGTERM, &sa, &saved_term);
}

static void signals_end(int enable)
{
    if (!enable)
        return;
    sigaction(SIGINT, &saved_int, NULL);
    sigaction(SIGTERM, &saved_term, NULL);
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

/* ------------------------------------------------------------------ */
/* One attempt, in whichever process runs it                            */
/* ------------------------------------------------------------------ */

struct job {
    size_t index;                     /* into rep->cases */
    uint32_t attempt;
    pid_t pid;                        /* 0: slot free */
    int fd_result, fd_output;
    int fd_pid;                       /* pidfd: readable once the child exits; -1 */
    int result_eof;
    double start, deadline;
    size_t got;
    union {
        struct wk_case_result result;
        unsigned char bytes[sizeof(struct wk_case_result)];
    } in;
    char tail[2048];                  /* the end of what the child printed */
    size_t tail_len;
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
    int stopping;
};


static void run_attempt(const struct run *R, const struct wk_prog *p, uint32_t attempt, struct wk_case_result *r)
{
    if (R->abort_id && strcmp(R->abort_id, p->id) == 0) {
        /* Test hook WK_RUNNER_TEST_ABORT_ID: dies the way a sanitizer does. */
        fprintf(stderr, "SUMMARY: WK_RUNNER_TEST_ABORT_ID aborts case '%s'\n", p->id);
        fflush(stderr);
        abort();
    }
    struct wk_run_options ro = { R->o->driver, R->o->seed, NULL, R->o->contract };
    wk_prog_run(p, &ro, r);
    if (R->flaky_id && attempt == 0 && strcmp(R->flaky_id, p->id) == 0) {
        r->verdict = WK_VERDICT_FAIL; /* test hook WK_RUNNER_TEST_FLAKY_ID */
        snprintf(r->expected, sizeof(r->expected), "a pass");
        snprintf(r->seen, sizeof(r->seen), "a failure forced by WK_RUNNER_TEST_FLAKY_ID on the first attempt");
    }
}

static void finalize(struct run *R, size_t index, enum wk_verdict v)
{
    struct wk_run_report *rep = R->rep;
    struct wk_case_report *c = &rep->cases[index];
    c->verdict = v;
    c->finished = 1;
    c->unexpected = wk_verdict_is_unexpected(v);
    rep->finished++;
    rep->totals[v]++;
    rep->unexpected += (size_t)c->unexpected;
    if (R->o->on_done)
        R->o->on_done(R->o->ctx, rep, index);
}

/* A finished attempt: classify, rerun an unexpected failure once, finalize. */
static void attempt_done(struct run *R, size_t index, uint32_t attempt, const struct wk_case_result *r,
                         const char *tail)
{
    struct wk_case_report *c = &R->rep->cases[index];
    if (attempt > 0) {
        c->attempts = attempt + 1;
        c->rerun_verdict = r->verdict;
        enum wk_verdict first = wk_runner_classify(c->result.verdict, c->expectation);
        finalize(R, index, r->verdict == WK_VERDICT_PASS ? WK_VERDICT_FLAKE : first);
        return;
    }
    c->result = *r;
    c->seconds = r->seconds;
    c->attempts = 1;
    if (tail && (r->verdict == WK_VERDICT_CRASH || r->verdict == WK_VERDICT_TIMEOUT))
        snprintf(c->output, sizeof(c->output), "%s", tail);
    enum wk_verdict v = wk_runner_classify(r->verdict, c->expectation);
    if (is_failure(v) && !R->stopping && R->reruns) {
        R->reruns[R->rerun_tail++] = index;
        return;
    }
    finalize(R, index, v);
}

/* ------------------------------------------------------------------ */
/* Children                                                             */
/* ------------------------------------------------------------------ */

void wk_write_all(int fd, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

static _Noreturn void child_main(const struct run *R, const struct job *j, int wfd, int ofd)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != R->parent)
        _exit(127);
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    for (int i = 0; i < 2; i++)
        if (signal_pipe[i] >= 0)
            close(signal_pipe[i]);
    for (uint32_t s = 0; s < R->slots; s++) {
        const struct job *other = &R->jobs[s];
        if (other == j || !other->pid)
            continue;
        if (other->fd_result >= 0)
            close(other->fd_result);
        if (other->fd_output >= 0)
            close(other->fd_output);
        if (other->fd_pid >= 0)
            close(other->fd_pid);
    }
    dup2(ofd, STDOUT_FILENO);
    dup2(ofd, STDERR_FILENO);
    if (ofd > STDERR_FILENO)
        close(ofd);
    struct wk_case_result r;
    run_attempt(R, R->rep->cases[j->index].prog, j->attempt, &r);
    fflush(NULL);
    wk_write_all(wfd, &r, sizeof(r));
    _exit(0);
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* A descriptor that polls readable when the child exits, so the loop reaps
 * it at once instead of polling waitpid(); -1 where pidfd_open is missing. */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0)
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
#else
    (void)pid;
    return -1;
#endif
}

/* Starts an attempt in slot j; 0 with an error verdict filled when it cannot. */
static int launch(struct run *R, struct job *j, size_t index, uint32_t attempt, struct wk_case_result *error)
{
    int rp[2] = { -1, -1 }, op[2] = { -1, -1 };
    pid_t pid;
    memset(j, 0, offsetof(struct job, in));
    j->index = index;
    j->attempt = attempt;
    j->fd_result = j->fd_output = j->fd_pid = -1;
    j->tail_len = 0;
    j->tail[0] = 0;
    if (pipe2(rp, O_CLOEXEC) != 0 || pipe2(op, O_CLOEXEC) != 0)
        goto fail;
    fflush(NULL);
    j->start = wk_now_seconds();
    pid = fork();
    if (pid < 0)
        goto fail;
    if (pid == 0)
        child_main(R, j, rp[1], op[1]);
    setpgid(pid, pid); /* also done by the child: whoever runs first */
    close(rp[1]);
    close(op[1]);
    fcntl(op[0], F_SETFL, fcntl(op[0], F_GETFL) | O_NONBLOCK);
    j->pid = pid;
    j->fd_result = rp[0];
    j->fd_output = op[0];
    j->fd_pid = open_pidfd(pid);
    j->deadline = R->o->case_timeout > 0 ? j->start + R->o->case_timeout : 0;
    R->running++;
    return 1;
fail:
    memset(error, 0, sizeof(*error));
    error->verdict = WK_VERDICT_ERROR;
    error->failed_step = -1;
    snprintf(error->expected, sizeof(error->expected), "a process for the case");
    snprintf(error->seen, sizeof(error->seen), "cannot start one: %s", strerror(errno));
    for (int i = 0; i < 2; i++) {
        close_fd(&rp[i]);
        close_fd(&op[i]);
    }
    return 0;
}

static void keep_tail(struct job *j, const char *data, size_t n)
{
    size_t cap = sizeof(j->tail) - 1;
    if (n >= cap) {
        memcpy(j->tail, data + n - cap, cap);
        j->tail_len = cap;
    } else {
        if (j->tail_len + n > cap) {
            size_t drop = j->tail_len + n - cap;
            memmove(j->tail, j->tail + drop, j->tail_len - drop);
            j->tail_len -= drop;
        }
        memcpy(j->tail + j->tail_len, data, n);
        j->tail_len += n;
    }
    j->tail[j->tail_len] = 0;
}

static void drain_output(struct job *j)
{
    char buf[4096];
    while (j->fd_output >= 0) {
        ssize_t n = read(j->fd_output, buf, sizeof(buf));
        if (n > 0) {
            keep_tail(j, buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0 || errno != EAGAIN)
            close_fd(&j->fd_output);
        return;
    }
}

static void read_result(struct job *j)
{
    unsigned char scratch[256];
    ssize_t n;
    if (j->got < sizeof(j->in.bytes))
        n = read(j->fd_result, j->in.bytes + j->got, sizeof(j->in.bytes) - j->got);
    else
        n = read(j->fd_result, scratch, sizeof(scratch)); /* more than a result: garbled */
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        close_fd(&j->fd_result);
        j->result_eof = 1;
        return;
    }
    if (j->got < sizeof(j->in.bytes))
        j->got += (size_t)n;
    else
        j->got = sizeof(j->in.bytes) + 1;
}

/* The sanitizer's one-line verdict in the child's output, if any. */
static const char *sanitizer_line(const char *tail, char *buf, size_t size)
{
    static const char *const marks[] = { "SUMMARY: ", "runtime error: ", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer" };
    for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
        const char *at = strstr(tail, marks[m]);
        if (!at)
            continue;
        while (at > tail && at[-1] != '\n')
            at--;
        size_t len = strcspn(at, "\n");
        snprintf(buf, size, "; %.*s", (int)(len < 200 ? len : 200), at);
        return buf;
    }
    return "";
}

static void crash_result(const struct job *j, int status, struct wk_case_result *r)
{
    char san[224];
    memset(r, 0, sizeof(*r));
    r->verdict = WK_VERDICT_CRASH;
    r->failed_step = -1;
    snprintf(r->expected, sizeof(r->expected), "the case runs to a verdict");
    const char *extra = sanitizer_line(j->tail, san, sizeof(san));
    if (WIFSIGNALED(status))
        snprintf(r->seen, sizeof(r->seen), "the case process was killed by %s (%s)%s", wk_run_signal_name(WTERMSIG(status)),
                 strsignal(WTERMSIG(status)), extra);
    else if (WIFEXITED(status) && j->got != sizeof(j->in.bytes))
        snprintf(r->seen, sizeof(r->seen), "the case process exited with status %d without a result%s",
                 WEXITSTATUS(status), extra);
    else
        snprintf(r->seen, sizeof(r->seen), "the case process exited with status %d after a garbled result%s",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, extra);
}

/* What wk_prog_run can answer; anything else arrived garbled. */
static int plausible(const struct wk_case_result *r)
{
    return r->verdict == WK_VERDICT_PASS || r->verdict == WK_VERDICT_FAIL || r->verdict == WK_VERDICT_SKIP ||
           r->verdict == WK_VERDICT_ERROR;
}

/* The child has exited (or was killed): turn what arrived into a result. */
static void reap(struct run *R, struct job *j, int status, int timed_out)
{
    struct wk_case_result r;
    double seconds = wk_now_seconds() - j->start;
    drain_output(j);
    close_fd(&j->fd_output);
    close_fd(&j->fd_result);
    close_fd(&j->fd_pid);
    if (timed_out) {
        memset(&r, 0, sizeof(r));
        r.verdict = WK_VERDICT_TIMEOUT;
        r.failed_step = -1;
        snprintf(r.expected, sizeof(r.expected), "a verdict within %g s", R->o->case_timeout);
        snprintf(r.seen, sizeof(r.seen), "no verdict after %.1f s: the case process was killed", seconds);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && j->got == sizeof(j->in.bytes) &&
               plausible(&j->in.result)) {
        r = j->in.result;
        r.rule[sizeof(r.rule) - 1] = 0;
        r.expected[sizeof(r.expected) - 1] = 0;
        r.seen[sizeof(r.seen) - 1] = 0;
    } else {
        crash_result(j, status, &r);
    }
    r.seconds = seconds;
    j->pid = 0;
    R->running--;
    attempt_done(R, j->index, j->attempt, &r, j->tail);
}

static void kill_job(struct job *j)
{
    kill(-j->pid, SIGKILL);
    kill(j->pid, SIGKILL);
}

static int wait_for(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

/* ------------------------------------------------------------------ */
/* The forked scheduler                                                 */
/* ------------------------------------------------------------------ */

static int out_of_time(struct run *R)
{
    if (caught_signal) {
        R->rep->stop = WK_RUN_INTERRUPTED;
        R->rep->signo = caught_signal;
        R->stopping = 1;
    } else if (R->total_deadline > 0 && wk_now_seconds() >= R->total_deadline) {
        R->rep->stop = WK_RUN_TOTAL_TIMEOUT;
        R->stopping = 1;
    }
    return R->stopping;
}

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
            finalize(R, i, WK_VERDICT_SKIP);
            continue;
        }
        *index = i;
        *attempt = 0;
        return 1;
    }
    return 0;
}

static void fill_slots(struct run *R)
{
    for (uint32_t s = 0; s < R->slots && !out_of_time(R); s++) {
        struct job *j = &R->jobs[s];
        size_t index;
        uint32_t attempt;
        if (j->pid || !next_attempt(R, &index, &attempt))
            continue;
        if (attempt == 0 && R->o->on_start)
            R->o->on_start(R->o->ctx, R->rep, index);
        struct wk_case_result error;
        if (!launch(R, j, index, attempt, &error))
            attempt_done(R, index, attempt, &error, NULL);
    }
}

static int poll_timeout_ms(const struct run *R)
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

static void wait_for_events(struct run *R, struct pollfd *pf)
{
    nfds_t n = 0;
    if (signal_pipe[0] >= 0)
        pf[n++] = (struct pollfd){ signal_pipe[0], POLLIN, 0 };
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (j->pid && j->fd_result >= 0)
            pf[n++] = (struct pollfd){ j->fd_result, POLLIN, 0 };
        if (j->pid && j->fd_output >= 0)
            pf[n++] = (struct pollfd){ j->fd_output, POLLIN, 0 };
        if (j->pid && j->result_eof && j->fd_pid >= 0)
            pf[n++] = (struct pollfd){ j->fd_pid, POLLIN, 0 };
    }
    if (poll(pf, n, poll_timeout_ms(R)) <= 0)
        return;
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (!j->pid)
            continue;
        for (nfds_t i = 0; i < n; i++) {
            if (!pf[i].revents)
                continue;
            if (pf[i].fd == j->fd_result)
                read_result(j);
            else if (pf[i].fd == j->fd_output)
                drain_output(j);
        }
    }
}

/* Reaps children that closed their result pipe and kills the late ones. */
static void check_children(struct run *R)
{
    double now = wk_now_seconds();
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (!j->pid)
            continue;
        int status = 0;
        if (j->result_eof && waitpid(j->pid, &status, WNOHANG) == j->pid) {
            reap(R, j, status, 0);
        } else if (j->deadline > 0 && now >= j->deadline) {
            kill_job(j);
            reap(R, j, wait_for(j->pid), 1);
        }
    }
}

/* Stops every child still running; their cases stay unfinished. */
static void abandon_children(struct run *R)
{
    for (uint32_t s = 0; s < R->slots; s++) {
        struct job *j = &R->jobs[s];
        if (!j->pid)
            continue;
        kill_job(j);
        wait_for(j->pid);
        close_fd(&j->fd_result);
        close_fd(&j->fd_output);
        close_fd(&j->fd_pid);
        j->pid = 0;
        R->running--;
    }
}

static int work_left(const struct run *R)
{
    return R->rerun_head < R->rerun_tail || R->next < R->rep->count;
}

static void run_forked(struct run *R)
{
    for (;;) {
        if (!out_of_time(R))
            fill_slots(R);
        if (R->stopping || (!R->running && !work_left(R)))
            break;
        if (!R->running)
            continue; /* every launch failed: try the next cases */
        wait_for_events(R, R->pf);
        check_children(R);
    }
    abandon_children(R);
}

/* --no-fork: one case after another in this process (for gdb); no
 * per-case timeout, and a crash ends the run, as a debugger wants. */
static void run_in_process(struct run *R)
{
    size_t index;
    uint32_t attempt;
    while (!out_of_time(R) && next_attempt(R, &index, &attempt)) {
        if (attempt == 0 && R->o->on_start)
            R->o->on_start(R->o->ctx, R->rep, index);
        struct wk_case_result r;
        double t = wk_now_seconds();
        run_attempt(R, R->rep->cases[index].prog, attempt, &r);
        r.seconds = wk_now_seconds() - t;
        attempt_done(R, index, attempt, &r, NULL);
    }
}

/* ------------------------------------------------------------------ */
/* The run                                                              */
/* ------------------------------------------------------------------ */

static void describe_environment(struct wk_run_report *rep, const struct wk_runner_options *o)
{
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(rep->host, sizeof(rep->host), "%.40s %.20s %.40s %.20s", u.nodename, u.sysname, u.release,
                 u.machine);
    else
        snprintf(rep->host, sizeof(rep->host), "unknown");
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(rep->start_time, sizeof(rep->start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
    rep->driver = o->driver;
    rep->contract = o->contract;
    rep->seed = o->seed;
    rep->has_seed = o->has_seed;
    rep->jobs = o->no_fork ? 1 : o->jobs ? o->jobs : 1;
    rep->shard_index = o->shard_index;
    rep->shard_count = o->shard_count;
    if (!rep->kit_version)
        rep->kit_version = "unknown";
}

static wk_status prepare(struct run *R, const struct wk_prog *const *cases, size_t n, FILE *err)
{
    size_t *index = NULL, count = 0;
    wk_status st = wk_runner_select(cases, n, R->o, &index, &count, err);
    if (st != WK_OK)
        return st;
    struct wk_run_report *rep = R->rep;
    rep->cases = calloc(count ? count : 1, sizeof(*rep->cases));
    R->reruns = calloc(count ? count : 1, sizeof(*R->reruns));
    R->slots = R->o->jobs < 1 ? 1 : R->o->jobs > MAX_JOBS ? MAX_JOBS : R->o->jobs;
    R->jobs = calloc(R->slots, sizeof(*R->jobs));
    R->pf = calloc(3u * R->slots + 1u, sizeof(*R->pf));
    if (!rep->cases || !R->reruns || !R->jobs || !R->pf) {
        free(index);
        return WK_E_NO_MEMORY;
    }
    rep->count = count;
    for (size_t i = 0; i < count; i++) {
        struct wk_case_report *c = &rep->cases[i];
        c->prog = cases[index[i]];
        c->result.failed_step = -1;
        c->expectation = R->o->expectations ? wk_expectations_match(R->o->expectations, c->prog->id) : NULL;
    }
    free(index);
    return WK_OK;
}

/* Cases whose rerun never started (the run stopped) keep their first verdict. */
static void settle_reruns(struct run *R)
{
    while (R->rerun_head < R->rerun_tail) {
        size_t i = R->reruns[R->rerun_head++];
        finalize(R, i, wk_runner_classify(R->rep->cases[i].result.verdict, R->rep->cases[i].expectation));
    }
}

wk_status wk_runner_run(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                        struct wk_run_report *out, FILE *err)
{
    const char *version = out->kit_version;
    memset(out, 0, sizeof(*out));
    out->kit_version = version;
    describe_environment(out, o);
    struct run R;
    memset(&R, 0, sizeof(R));
    R.o = o;
    R.rep = out;
    R.parent = getpid();
    R.abort_id = getenv("WK_RUNNER_TEST_ABORT_ID");
    R.flaky_id = getenv("WK_RUNNER_TEST_FLAKY_ID");
    wk_status st = prepare(&R, cases, n, err);
    if (st == WK_OK) {
        signals_begin(o->catch_signals);
        R.t0 = wk_now_seconds();
        R.total_deadline = o->total_timeout > 0 ? R.t0 + o->total_timeout : 0;
        if (o->no_fork)
            run_in_process(&R);
        else
            run_forked(&R);
        settle_reruns(&R);
        out->seconds = wk_now_seconds() - R.t0;
        signals_end(o->catch_signals);
    }
    free(R.reruns);
    free(R.jobs);
    free(R.pf);
    return st;
}

void wk_run_report_free(struct wk_run_report *rep)
{
    free(rep->cases);
    rep->cases = NULL;
    rep->count = 0;
}

/* ------------------------------------------------------------------ */
/* Helpers the report writers share                                     */
/* ------------------------------------------------------------------ */

FILE *wk_report_open(const char *path, char *tmp, size_t tmp_size, FILE *err)
{
    int n = snprintf(tmp, tmp_size, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= tmp_size) {
        fprintf(err, "wddmkit: %s: path too long\n", path);
        return NULL;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(err, "wddmkit: %s: cannot write %s: %s\n", path, tmp, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
    }
    return f;
}

static void sync_directory(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

wk_status wk_report_commit(FILE *f, const char *tmp, const char *path, FILE *err)
{
    int failed = fflush(f) != 0 || ferror(f);
    int saved = errno;
    if (!failed && fsync(fileno(f)) != 0 && errno != EINVAL) {
        failed = 1;
        saved = errno;
    }
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && rename(tmp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        fprintf(err, "wddmkit: %s: %s\n", path, strerror(saved ? saved : EIO));
        unlink(tmp);
        return WK_E_IO;
    }
    sync_directory(path);
    return WK_OK;
}

size_t wk_utf8_next(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    *cp = 0xFFFD;
    if (n == 0)
        return 0;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    size_t len = u[0] >= 0xF0 && u[0] <= 0xF4 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC2 && u[0] < 0xE0 ? 2 : 0;
    if (u[0] > 0xF4 || len == 0 || len > n)
        return 1;
    uint32_t c = u[0] & (0xFFu >> (len + 1));
    for (size_t i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return 1;
        c = (c << 6) | (u[i] & 0x3Fu);
    }
    static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 1;
    *cp = c;
    return len;
}

const char *wk_case_area(const struct wk_case_report *c)
{
    return c->prog->area[0] ? c->prog->area : "-";
}

void wk_report_rule(const struct wk_case_report *c, char *buf, size_t size)
{
    const struct wk_prog *p = c->prog;
    if (c->result.rule[0])
        snprintf(buf, size, "%s", c->result.rule);
    else if (p->trips[0])
        snprintf(buf, size, "%.24s (the rule the case must trip)", p->trips);
    else
        snprintf(buf, size, "%s", "");
}

void wk_report_covers(const struct wk_case_report *c, char *buf, size_t size)
{
    const struct wk_prog *p = c->prog;
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < p->cover_count && i < WK_PROG_MAX_RULES && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%.24s", i ? ", " : "", p->covers[i]);
}

void wk_report_step(const struct wk_case_report *c, char *buf, size_t size)
{
    const struct wk_prog *p = c->prog;
    int32_t i = c->result.failed_step;
    if (i < 0 || (uint32_t)i >= p->step_count) {
        snprintf(buf, size, "%s", "");
        return;
    }
    const struct wk_step *s = &p->steps[i];
    if (s->line)
        snprintf(buf, size, "%d (%s, line %u)", i, wk_step_keyword(s->kind), s->line);
    else
        snprintf(buf, size, "%d (%s)", i, wk_step_keyword(s->kind));
}

const char *wk_report_profile(const struct wk_run_report *rep)
{
    return rep->contract ? "contract" : "reference";
}

uint64_t wk_report_not_evaluated(const struct wk_run_report *rep)
{
    uint64_t n = 0;
    for (size_t i = 0; i < rep->count; i++)
        if (rep->cases[i].finished)
            n += rep->cases[i].result.not_evaluated;
    return n;
}

void wk_report_spec_error_where(const char *message, char *buf, size_t size)
{
    const char *end = strstr(message, ": ");
    int n = end ? (int)(end - message) : (int)strlen(message);
    snprintf(buf, size, "%.*s", n, message);
}

/* Appends a shell word: bare when it is safe, single-quoted otherwise. */
static void append_word(char *buf, size_t size, const char *word, int always_quote)
{
    size_t len = strlen(buf);
    int bare = !always_quote && word[0] && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                        "0123456789._/:=@%+,-") == strlen(word);
    char *out = buf + len;
    size_t room = size - len;
    if (bare) {
        snprintf(out, room, " %s", word);
        return;
    }
    size_t k = 0;
    if (k + 2 < room) {
        out[k++] = ' ';
        out[k++] = '\'';
    }
    for (const char *p = word; *p && k + 5 < room; p++) {
        if (*p == '\'') {
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = *p;
        }
    }
    if (k + 1 < room)
        out[k++] = '\'';
    out[k < room ? k : room - 1] = 0;
}

void wk_report_rerun_command(const struct wk_run_report *rep, const struct wk_case_report *c, char *buf,
                             size_t size)
{
    if (!size)
        return;
    snprintf(buf, size, "wddmkit conform --filter");
    append_word(buf, size, c->prog->id, 1);
    if (rep->driver) {
        append_word(buf, size, "--driver", 0);
        append_word(buf, size, rep->driver, 0);
    }
    if (rep->contract != (rep->driver != NULL)) { /* not the default for this driver */
        append_word(buf, size, "--profile", 0);
        append_word(buf, size, wk_report_profile(rep), 0);
    }
    if (rep->has_seed) {
        char seed[32];
        snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rep->seed);
        append_word(buf, size, "--seed", 0);
        append_word(buf, size, seed, 0);
    }
    if (c->prog->file[0])
        append_word(buf, size, c->prog->file, 0);
}
