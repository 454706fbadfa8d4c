/* SPDX-License-Identifier: MIT */
/*
 * job.c - one attempt of a case: the forked child that runs
 * it, the pipes it answers through, and the result record made of what
 * arrived.
 *
 * Why a process per case: the driver under test is hostile by assumption.
 * vidmm already turns a crash or hang *inside a DDI* into a violation, but a
 * driver can corrupt the heap, trip a sanitizer, call exit() or spin outside
 * any DDI frame; only a process boundary contains all of that. A child runs
 * wk_prog_run and writes its struct wk_case_result into a pipe, sealed
 * with a nonce the parent drew for this launch (result_record.c), then
 * _exit(0)s. The parent believes a result only when exactly one sealed
 * record arrived and the child exited with status 0: a record the driver
 * wrote (it holds the pipe too), or bytes after the kit's, make the case a
 * crash that says so. Anything else is a crash,
 * named by its signal or exit status and the sanitizer's SUMMARY line when
 * the child printed one (the tail of its output is kept for that), and by
 * the DDI the driver was in when it ended the process, or the thread of
 * the driver's that died of a signal (a page shared with the child, where
 * the kit stores the DDI at every call and return, and the dying thread:
 * wk_vidmm_publish_crash_slot). Each child runs under a shepherd (shepherd.c),
 * the child subreaper of everything the driver starts: when the child
 * ends, its descendants are killed (setsid() or not), so the pipes reach
 * end of file and the verdict is in at once, and none outlives its case,
 * nor a runner that was killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner_internal.h"
#include "util.h"

void wk_runner_run_attempt(const struct run *R, const struct wk_prog *p, uint32_t attempt, struct wk_case_result *r)
{
    if (R->abort_id && strcmp(R->abort_id, p->id) == 0) {
        /* Test hook WK_RUNNER_TEST_ABORT_ID: dies the way a sanitizer does. */
        fprintf(stderr, "SUMMARY: WK_RUNNER_TEST_ABORT_ID aborts case '%s'\n", p->id);
        fflush(stderr);
        abort();
    }
    struct wk_run_options ro = { .driver = R->o->driver, .seed = R->o->seed, .contract = R->o->contract,
                                 .skip_kinds = R->o->skip_kinds, .gpu = R->o->gpu, .umd = R->o->umd,
                                 .binding = R->o->binding,
                                 .stress = R->o->stress, .once = R->once };
    memcpy(ro.skip_reason, R->o->skip_reason, sizeof(ro.skip_reason));
    wk_prog_run(p, &ro, r);
    if (R->flaky_id && attempt == 0 && strcmp(R->flaky_id, p->id) == 0) {
        /* test hook WK_RUNNER_TEST_FLAKY_ID: a rule's failure, worded as
         * the kit words a violation ("RULE: DDI: ...") */
        r->verdict = WK_VERDICT_FAIL;
        snprintf(r->rule, sizeof(r->rule), "DRV-HANG-001");
        snprintf(r->expected, sizeof(r->expected), "a pass");
        snprintf(r->seen, sizeof(r->seen),
                 "DRV-HANG-001: DxgkDdiRender: a failure forced by WK_RUNNER_TEST_FLAKY_ID on the first attempt");
    }
}

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

/* What became of the result pipe while the case ran, told to the runner
 * through the shared page, since the pipe itself cannot tell it: 0 it is
 * the pipe the case started with; an errno (EBADF) when the descriptor was
 * closed; RESULT_PIPE_REPLACED when another file was put on it (dup2 of
 * /dev/null, say). Only the driver's code runs between the two looks. */
#define RESULT_PIPE_REPLACED (-1)
static int32_t result_pipe_state(int fd, const struct stat *at_start)
{
    struct stat now;
    if (fstat(fd, &now) != 0)
        return errno ? errno : EBADF;
    return now.st_dev == at_start->st_dev && now.st_ino == at_start->st_ino ? 0 : RESULT_PIPE_REPLACED;
}

_Noreturn void wk_runner_child_main(const struct run *R, const struct job *j, const struct wk_prog *p, int wfd,
                                    int ofd)
{
    if (j->case_pid)
        *j->case_pid = getpid(); /* before any driver code: the runner knows its signals */
    struct stat pipe_at_start;
    int pipe_known = fstat(wfd, &pipe_at_start) == 0;
    setpgid(0, 0); /* PR_SET_PDEATHSIG and the parent check: wk_shepherd_fork */
    wk_runner_signals_unblock(); /* held by the runner across the fork */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    for (int i = 0; i < 2; i++)
        if (wk_runner_signal_fd(i) >= 0)
            close(wk_runner_signal_fd(i));
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
        if (other->fd_start >= 0)
            close(other->fd_start);
    }
    for (uint32_t s = 0; s < R->slots && s < MAX_JOBS; s++)
        if (R->zygote[s].fd >= 0) /* a case forked here must not speak to a slot's process */
            close(R->zygote[s].fd);
    dup2(ofd, STDOUT_FILENO);
    dup2(ofd, STDERR_FILENO);
    wk_report_stdout_close_in_child(); /* a report on stdout is the runner's alone */
    if (ofd > STDERR_FILENO)
        close(ofd);
    wk_vidmm_publish_crash_slot(j->crash_slot);
    struct wk_case_result r;
    wk_runner_run_attempt(R, p, j->attempt, &r);
    fflush(NULL);
    if (pipe_known && j->result_pipe)
        *j->result_pipe = result_pipe_state(wfd, &pipe_at_start);
    wk_result_send(wfd, &j->nonce, &r);
    _exit(0); /* past any atexit handler: the record is the kit's last word */
}

void wk_runner_close_fd(int *fd)
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

/* The crash slot the child publishes in, shared across the fork: a store
 * per DDI call in the child, no system call. exit() and _exit() inside a
 * DDI pass every frame the kit has, but not this; nor does the note of a
 * driver thread that died. NULL when no page can be had (the report then
 * names no DDI and no thread). A case started by its slot's process gets
 * it from that process, as a memfd (zygote.c); one forked here, as an anonymous
 * shared mapping. */
void wk_runner_case_shared_init(volatile struct case_shared *shared)
{
    wk_vidmm_crash_slot_init(&shared->slot);
    shared->result_pipe = 0;
    shared->shepherd_done = 0;
    shared->shepherd_signal = 0;
    shared->case_pid = 0;
    shared->case_status = 0;
}

void wk_runner_job_share(struct job *j, volatile struct case_shared *shared)
{
    j->crash_slot = shared ? &shared->slot : NULL;
    j->result_pipe = shared ? &shared->result_pipe : NULL;
    j->shepherd_done = shared ? &shared->shepherd_done : NULL;
    j->shepherd_signal = shared ? &shared->shepherd_signal : NULL;
    j->case_pid = shared ? &shared->case_pid : NULL;
    j->case_status = shared ? &shared->case_status : NULL;
}

/* The seconds a case gets: --timeout, or more for a case whose adapter
 * waits longer for a DDI call (ddi_timeout_ms) than that, so the driver's
 * hang is the case's verdict, DRV-HANG-001 naming the DDI, and not a race
 * between the two timers (outsider 25: smoke.custom-adapter's 10 s DDI
 * timer against the default 10 s case timeout gave a fail, then a
 * timeout). */
static double case_seconds(const struct run *R, const struct wk_prog *prog)
{
    double t = R->o->case_timeout;
    uint32_t ddi_ms = prog ? prog->vidmm.ddi_timeout_ms : 0;
    if (ddi_ms && ddi_ms != UINT32_MAX && ddi_ms / 1000.0 + 2.0 > t)
        t = ddi_ms / 1000.0 + 2.0;
    return t;
}

static void map_crash_slot(struct job *j)
{
    wk_runner_job_share(j, NULL);
    void *p = mmap(NULL, sizeof(struct case_shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    wk_runner_case_shared_init(p);
    wk_runner_job_share(j, p);
}

static void unmap_crash_slot(struct job *j)
{
    if (j->crash_slot)
        munmap((void *)(uintptr_t)j->crash_slot, sizeof(struct case_shared));
    if (j->pid)
        wk_runner_signals_unmap(j->pid); /* the handler reads the case's pid there */
    wk_runner_job_share(j, NULL);
}

/* Starts an attempt in slot j: 1, or 0 with the call that failed and its
 * errno in *why (the scheduler decides whether to wait: launch_wait.c). */
int wk_runner_launch(struct run *R, struct job *j, size_t index, uint32_t attempt, struct wk_launch_failure *why)
{
    int rp[2] = { -1, -1 }, op[2] = { -1, -1 };
    pid_t pid;
    memset(j, 0, offsetof(struct job, in));
    j->index = index;
    j->attempt = attempt;
    j->fd_result = j->fd_output = j->fd_pid = j->fd_start = j->fd_slot = -1;
    j->tail_len = 0;
    j->tail[0] = 0;
    why->call = "pipe";
    if (pipe2(rp, O_CLOEXEC) != 0 || pipe2(op, O_CLOEXEC) != 0)
        goto fail;
    why->call = "getrandom";
    if (wk_result_nonce_new(&j->nonce) != 0)
        goto fail;
    const struct wk_prog *prog = R->rep->cases[index].prog;
    fflush(NULL);
    j->start = wk_now_seconds();
    sigset_t mask;
    wk_runner_signals_hold(&mask);
    /* In the slot's process (zygote.c), the case's shepherd, which maps j's
     * shared page; else forked here, from this process: no slot process,
     * or a program it cannot be given. */
    uint32_t slot = (uint32_t)(j - R->jobs);
    pid = wk_zygote_ready(R, slot) ? wk_zygote_launch(R, j, prog, rp[1], op[1], &why->call) : -2;
    if (pid == -2) {
        map_crash_slot(j);
        pid = wk_shepherd_fork(&j->fd_start, &why->call, j->shepherd_done, j->shepherd_signal);
    } else if (pid > 0)
        j->start = wk_now_seconds(); /* the case's time, not a slow slot process's (replaced: zygote.c) */
    if (pid == 0)
        wk_runner_child_main(R, j, prog, rp[1], op[1]);
    if (pid > 0)
        wk_runner_signals_watch(pid, j->case_pid);
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &mask, NULL); /* a stop held meanwhile arrives now, its sender known */
    errno = fork_errno;
    if (pid < 0)
        goto fail;
    if (j->fd_slot < 0)
        setpgid(pid, pid); /* also done by the shepherd: whoever runs first (a slot's has a group) */
    close(rp[1]);
    close(op[1]);
    fcntl(op[0], F_SETFL, fcntl(op[0], F_GETFL) | O_NONBLOCK);
    j->pid = pid;
    j->fd_result = rp[0];
    j->fd_output = op[0];
    j->fd_pid = j->fd_slot < 0 ? open_pidfd(pid) : -1; /* a slot's socket says more: its end of file too */
    j->deadline = R->o->case_timeout > 0 ? j->start + case_seconds(R, prog) : 0;
    R->running++;
    return 1;
fail:
    why->err = errno;
    for (int i = 0; i < 2; i++) {
        wk_runner_close_fd(&rp[i]);
        wk_runner_close_fd(&op[i]);
    }
    unmap_crash_slot(j);
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
    /* The tail is a string from here on (reports, the journal): a NUL the
     * driver printed would end it there and lose the last lines, the ones
     * a crash report keeps it for (red team). Shown as a space. */
    for (char *z = memchr(j->tail, 0, j->tail_len); z; z = memchr(z, 0, (size_t)(j->tail + j->tail_len - z)))
        *z = ' ';
}

void wk_runner_drain_output(struct job *j)
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
            wk_runner_close_fd(&j->fd_output);
        return;
    }
}

void wk_runner_read_result(struct job *j)
{
    unsigned char scratch[256];
    ssize_t n;
    if (j->got < sizeof(j->in.bytes))
        n = read(j->fd_result, j->in.bytes + j->got, sizeof(j->in.bytes) - j->got);
    else
        n = read(j->fd_result, scratch, sizeof(scratch)); /* more than a record: counted, refused */
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        wk_runner_close_fd(&j->fd_result);
        j->result_eof = 1;
        return;
    }
    if (j->got < sizeof(j->in.bytes))
        j->got += (size_t)n;
    else
        j->extra += (size_t)n;
}

/* The rest of the result pipe once the shepherd has exited: its case's
 * processes are dead, so this ends at end of file, and bytes written
 * after the kit's record are counted, not missed. Non-blocking, in case a
 * descriptor escaped to a process the shepherd could not reach. */
void wk_runner_drain_result(struct job *j)
{
    if (j->fd_result < 0)
        return;
    fcntl(j->fd_result, F_SETFL, fcntl(j->fd_result, F_GETFL) | O_NONBLOCK);
    for (int i = 0; i < 64 && j->fd_result >= 0; i++) {
        size_t before = j->got + j->extra;
        wk_runner_read_result(j);
        if (j->fd_result >= 0 && j->got + j->extra == before)
            return; /* EAGAIN */
    }
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


/* Why the result pipe did not hold the kit's record ("without a result",
 * "after a result record the kit did not write ..."). */
static const char *record_problem(const struct job *j, char *why, size_t size)
{
    int32_t pipe = j->result_pipe ? *j->result_pipe : 0;
    if (j->got == 0 && j->extra == 0 && pipe == RESULT_PIPE_REPLACED)
        return "without a result: the driver put another file on the kit's result pipe";
    if (j->got == 0 && j->extra == 0 && pipe > 0) {
        snprintf(why, size, "without a result: the driver closed the kit's result pipe (%s)", strerror(pipe));
        return why;
    }
    struct wk_case_result ignored;
    const char *bad = wk_result_open(j->in.bytes, j->got, j->extra, &j->nonce, &ignored, why, size);
    return bad ? bad : "after a result";
}

/* s after what dst holds, cut to fit. */
static void append(char *dst, size_t cap, const char *s)
{
    size_t n = strlen(dst), k = strlen(s);
    if (n + 1 >= cap)
        return;
    if (k > cap - n - 1)
        k = cap - n - 1;
    memcpy(dst + n, s, k);
    dst[n + k] = '\0';
}

static void crash_result(const struct job *j, int status, struct wk_case_result *r)
{
    char why[200];
    const char *problem = record_problem(j, why, sizeof(why));
    char san[224];
    memset(r, 0, sizeof(*r));
    r->verdict = WK_VERDICT_CRASH;
    r->failed_step = -1;
    snprintf(r->expected, sizeof(r->expected), "the case runs to a verdict");
    const char *extra = sanitizer_line(j->tail, san, sizeof(san));
    enum wk_ddi ddi = wk_vidmm_crash_slot_ddi(j->crash_slot);
    int how = wk_vidmm_crash_slot_describe(j->crash_slot, status, extra[0] != '\0', r->seen, sizeof(r->seen));
    if (how) {
        /* A thread of the driver's died of a signal (named, whatever the
         * kit's thread was in), or the driver exited inside a DDI (and
         * what the result pipe held then). */
        snprintf(r->rule, sizeof(r->rule), "DRV-CRASH-001");
        if (how == WK_VIDMM_CRASH_EXIT) {
            append(r->seen, sizeof(r->seen), " ");
            append(r->seen, sizeof(r->seen), problem);
        }
        append(r->seen, sizeof(r->seen), extra);
    } else if (ddi != WK_DDI_NONE && WIFSIGNALED(status))
        snprintf(r->seen, sizeof(r->seen), "the case process was killed by %s (%s) inside %s%s",
                 wk_run_signal_name(WTERMSIG(status)), strsignal(WTERMSIG(status)), wk_ddi_name(ddi), extra);
    else if (WIFSIGNALED(status))
        snprintf(r->seen, sizeof(r->seen), "the case process was killed by %s (%s)%s", wk_run_signal_name(WTERMSIG(status)),
                 strsignal(WTERMSIG(status)), extra);
    else {
        snprintf(r->seen, sizeof(r->seen), "the case process exited with status %d ",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        append(r->seen, sizeof(r->seen), problem);
        append(r->seen, sizeof(r->seen), extra);
    }
}

/* The case's processes sent a stop signal to the kit (whom: "runner",
 * "shepherd"), which ignored it: the case is a crash that names it, whatever
 * it did besides (said after it). The attempt's own verdict would hide a
 * driver that tries to end the run or its own case without a verdict. */
static void driver_signalled_kit(struct wk_case_result *r, int signo, const char *whom)
{
    char then[sizeof(r->seen)];
    snprintf(then, sizeof(then), "%s", r->verdict != WK_VERDICT_PASS ? r->seen : "");
    r->verdict = WK_VERDICT_CRASH;
    r->failed_step = -1;
    r->rule[0] = '\0';
    snprintf(r->expected, sizeof(r->expected), "no signal from the driver to the kit's processes");
    if (signo > 0 && signo < 65)
        snprintf(r->seen, sizeof(r->seen), "the driver sent %s to the kit's %s (ignored: the %s went on)",
                 wk_run_signal_name(signo), whom, strcmp(whom, "runner") == 0 ? "run" : "case");
    else /* no signal number: the word in the page the case shares with the kit was written over */
        snprintf(r->seen, sizeof(r->seen), "the page the kit shares with the case's process was written over (the "
                 "%s's signal word holds 0x%08x, no signal): a process of the driver's wrote to the kit's memory",
                 whom, (unsigned)signo);
    if (then[0]) {
        append(r->seen, sizeof(r->seen), "; then ");
        append(r->seen, sizeof(r->seen), then);
    }
}

/* The shepherd found no process for the case (its start pipe holds the
 * errno): the attempt never ran. Its slot is free and it waits for a
 * process like a launch that failed here (launch_wait.c). */
static int never_started(struct run *R, struct job *j)
{
    struct wk_launch_failure why = { "fork", wk_shepherd_start_error(j->fd_start) };
    j->fd_start = -1;
    if (!why.err) {
        wk_runner_case_started(R);
        return 0;
    }
    wk_runner_signals_unwatch(j->pid); /* no case ran: it sent nothing */
    unmap_crash_slot(j);
    j->pid = 0;
    R->running--;
    wk_runner_wait_to_launch(R, j->index, j->attempt, &why, 0);
    return 1;
}

/* A case whose shepherd the driver stopped or killed: a crash, whatever
 * the case's process had said, since the kit could not see it end. The
 * DDI the case's process was in, when it was in one. */
static void shepherd_result(const struct job *j, int status, enum wk_attempt_end how, struct wk_case_result *r)
{
    enum wk_ddi ddi = wk_vidmm_crash_slot_ddi(j->crash_slot);
    char where[96] = "";
    if (ddi != WK_DDI_NONE)
        snprintf(where, sizeof(where), " (the case's process was in %s)", wk_ddi_name(ddi));
    memset(r, 0, sizeof(*r));
    r->verdict = WK_VERDICT_CRASH;
    r->failed_step = -1;
    snprintf(r->expected, sizeof(r->expected), "the case runs to a verdict");
    if (how == WK_END_SHEPHERD_STOPPED)
        snprintf(r->seen, sizeof(r->seen),
                 "the driver stopped the kit's shepherd (SIGSTOP to the process that watches its case)%s: "
                 "the kit killed it, the case's process and every process the case started", where);
    else
        snprintf(r->seen, sizeof(r->seen),
                 "the kit's shepherd (the process that watches the case) was killed by %s before the case's "
                 "process ended%s: a signal from the driver to its parent; the kit killed the case's process "
                 "and every process the case started", wk_run_signal_name(WTERMSIG(status)), where);
}

/* The shepherd died before it said its case had ended: it was killed. */
static int shepherd_killed(const struct job *j, int status)
{
    return j->shepherd_done && !*j->shepherd_done && WIFSIGNALED(status);
}

void wk_runner_kill_strays(const struct run *R)
{
    pid_t keep[2 * MAX_JOBS];
    size_t n = wk_zygote_keep(R, keep); /* the slots' processes are the runner's children too, and no strays */
    for (uint32_t s = 0; s < R->slots; s++)
        if (R->jobs[s].pid > 0) /* ended or not: each is reaped by its own slot, for its status */
            keep[n++] = R->jobs[s].pid;
    wk_reap_strays(keep, n, 2000);
}

/* The child has exited (or was killed): turn what arrived into a result. */
void wk_runner_reap(struct run *R, struct job *j, int status, enum wk_attempt_end how)
{
    struct wk_case_result r;
    char why[200];
    double seconds = wk_now_seconds() - j->start;
    if (how != WK_END_CASE_DONE && j->fd_slot >= 0) {
        wk_zygote_retire(R, j); /* the slot's process died, reaped by the caller: the next launch starts one */
        if (how == WK_END_EXITED && j->shepherd_done && *j->shepherd_done && j->case_status)
            status = *j->case_status; /* it died after its case had ended: the case's own status */
    }
    j->fd_slot = -1;
    pid_t shepherd = j->pid;
    j->pid = 0; /* reaped: not kept by the strays' sweep */
    if (how != WK_END_CASE_DONE)
        wk_runner_kill_strays(R); /* what a killed shepherd left, holding the pipes; a living one swept its case */
    j->pid = shepherd;
    wk_runner_drain_result(j);
    wk_runner_drain_output(j);
    wk_runner_close_fd(&j->fd_output);
    wk_runner_close_fd(&j->fd_result);
    wk_runner_close_fd(&j->fd_pid);
    if (never_started(R, j))
        return;
    if (how == WK_END_TIMED_OUT) {
        memset(&r, 0, sizeof(r));
        r.verdict = WK_VERDICT_TIMEOUT;
        r.failed_step = -1;
        snprintf(r.expected, sizeof(r.expected), "a verdict within %g s",
                 case_seconds(R, R->rep->cases[j->index].prog));
        enum wk_ddi ddi = wk_vidmm_crash_slot_ddi(j->crash_slot);
        if (ddi != WK_DDI_NONE) /* the DDI it was in: the driver's, a hang its own timer did not end */
            snprintf(r.seen, sizeof(r.seen), "no verdict after %.1f s: the case process was killed inside %s", seconds,
                     wk_ddi_name(ddi));
        else
            snprintf(r.seen, sizeof(r.seen), "no verdict after %.1f s: the case process was killed", seconds);
    } else if (how == WK_END_SHEPHERD_STOPPED || shepherd_killed(j, status)) {
        shepherd_result(j, status, how, &r);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
               !wk_result_open(j->in.bytes, j->got, j->extra, &j->nonce, &r, why, sizeof(why))) {
        /* exactly the kit's sealed record, from a child that exited 0 */
    } else {
        crash_result(j, status, &r);
    }
    int to_shepherd = j->shepherd_signal ? *j->shepherd_signal : 0;
    int to_runner = wk_runner_signals_unwatch(j->pid);
    if (to_shepherd)
        driver_signalled_kit(&r, to_shepherd, "shepherd");
    if (to_runner)
        driver_signalled_kit(&r, to_runner, "runner");
    unmap_crash_slot(j);
    r.seconds = seconds;
    j->pid = 0;
    R->running--;
    wk_runner_attempt_done(R, j->index, j->attempt, &r, j->tail);
}

/* The shepherd and, with it, the case (isolation.h, wk_shepherd_stop):
 * SIGKILL, which a shepherd the driver stopped cannot hold off. */
void wk_runner_kill_job(struct job *j)
{
    wk_shepherd_stop(j->pid);
}

/* A run that stops (a signal, --total-timeout) gives up its attempt: no
 * verdict, nothing left running. */
void wk_runner_abandon_job(struct run *R, struct job *j)
{
    wk_runner_kill_job(j);
    wk_runner_wait_for(j->pid);
    if (j->fd_slot >= 0)
        wk_zygote_retire(R, j); /* a slot's process goes with its case */
    wk_runner_signals_unwatch(j->pid); /* unjudged: what it sent the runner goes with it */
    wk_runner_close_fd(&j->fd_result);
    wk_runner_close_fd(&j->fd_output);
    wk_runner_close_fd(&j->fd_pid);
    wk_runner_close_fd(&j->fd_start);
    unmap_crash_slot(j);
    j->pid = 0;
    R->running--;
}

/* The shepherd's status; never blocks past 2 s (a process the kernel
 * holds in uninterruptible sleep): then it reads as killed by SIGKILL. */
int wk_runner_wait_for(pid_t pid)
{
    int status = 0;
    if (wk_shepherd_wait(pid, &status, 2000) != 0)
        status = SIGKILL; /* as waitpid would say of a process killed by SIGKILL */
    return status;
}
