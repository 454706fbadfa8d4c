/* SPDX-License-Identifier: MIT */
/*
 * outcome.c - a run in a forked child and what happened to it. Every run
 * happens in a child, so a crash of the kit or of the driver outside a
 * guarded DDI call is a result (class crash, with the top frames the child
 * prints from its signal handler), and a run past the timeout is killed
 * (class timeout). A program runs in a child of this process; an input of
 * another harness runs through that harness's replay binary
 * (<harness>_replay, with WK_DRIVER set), classified from its exit and its
 * stderr (signature.c).
 *
 * Each child runs under a shepherd (conformance's isolation.h): whatever
 * the driver starts, setsid() or not, is killed when the child ends, so the
 * pipes close and the answer is in at once, and a timeout stops them all.
 * A program's answer is the kit's sealed record: a driver that writes a
 * record of its own to the descriptors it inherited (then exits, or from an
 * atexit handler) gets a crash naming the forgery, not a pass. A program's
 * child publishes its crash slot (vidmm.h) in memory shared with this
 * process, as the case runner's children do: a driver that exits inside a
 * DDI is named with the DDI, a thread of the driver's that dies is named,
 * and the signature says so as `conform` does. While a command folds its
 * runs' output (minimize, promote: driver_log.c), a program's child writes
 * its stderr, the driver's DbgPrint lines with it, to this process too.
 */
#define _GNU_SOURCE /* REG_RIP */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "crash/crash_internal.h"

#define REPLAY_LOG_LIMIT 16384u      /* stderr kept from a replay child */

const char *const wk_crash_cls_word[] = { "pass", "fail", "crash", "timeout", "error" };
const int wk_crash_cls_exit[] = { 0, 1, 3, 4, 2 };

/* Present with a sanitizer runtime (compiler-rt), NULL otherwise. */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));


static int frames_fd = -1;

/* The faulting instruction, to start the printed frames there. */
static void *fault_pc(void *uctx)
{
#if defined(__x86_64__)
    return uctx ? (void *)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP] : NULL;
#elif defined(__aarch64__)
    return uctx ? (void *)((ucontext_t *)uctx)->uc_mcontext.pc : NULL;
#else
    (void)uctx;
    return NULL;
#endif
}

/* In the child: the top frames to the parent, then die of the signal. */
static void on_fatal(int signo, siginfo_t *info, void *uctx)
{
    (void)info;
    void *pcs[32];
    int n = backtrace(pcs, 32), start = n > 2 ? 2 : 0;
    void *pc = fault_pc(uctx);
    for (int i = 0; pc && i < n; i++)
        if ((char *)pcs[i] - (char *)pc <= 1 && (char *)pc - (char *)pcs[i] <= 1) {
            start = i;
            break;
        }
    if (frames_fd >= 0 && n > start)
        backtrace_symbols_fd(pcs + start, n - start < NFRAMES ? n - start : NFRAMES, frames_fd);
    signal(signo, SIG_DFL);
    raise(signo);
}

static void child_setup(int frames)
{
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
    void *warm[1];
    backtrace(warm, 1); /* loads the unwinder now, not inside the handler */
    frames_fd = frames;
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = on_fatal;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) { /* drivers may print; the report is the parent's */
        dup2(null, STDOUT_FILENO);
        close(null);
    }
}


static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

struct pipe_in {
    int fd;
    char *buf;
    size_t cap, len;
    size_t over;                      /* bytes past cap: counted, not kept */
};

/* Appends what one ready fd delivers; closes it at its end. */
static void take(struct pipe_in *in)
{
    char tmp[4096];
    ssize_t r = read(in->fd, tmp, sizeof(tmp));
    if (r < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (r <= 0) {
        close(in->fd);
        in->fd = -1;
        return;
    }
    size_t n = in->cap - in->len < (size_t)r ? in->cap - in->len : (size_t)r;
    memcpy(in->buf + in->len, tmp, n);
    in->len += n;
    in->over += (size_t)r - n;
}

#define MAX_PIPES 4                  /* answer, frames, sanitizer report, stderr (while folding) */

/* How a run's shepherd ended, as watch() saw it. */
enum run_end { RUN_ENDED, RUN_LATE, RUN_STOPPED };

/* Reads what the fds deliver until the shepherd ends, the driver stops it
 * (SIGSTOP to the case's parent), or the deadline passes. The shepherd is
 * watched, not only the pipes: one the driver killed leaves them held by
 * the processes the case started, and they come to this process (a
 * subreaper) to be killed. */
static enum run_end watch(struct pipe_in *in, int count, pid_t shepherd, double deadline)
{
    for (;;) {
        struct pollfd pf[MAX_PIPES];
        int which[MAX_PIPES], n = 0;
        for (int i = 0; i < count && i < MAX_PIPES; i++)
            if (in[i].fd >= 0) {
                pf[n] = (struct pollfd){ in[i].fd, POLLIN, 0 };
                which[n++] = i;
            }
        enum wk_shepherd_state state = wk_shepherd_state(shepherd);
        if (state != WK_SHEPHERD_RUNNING)
            return state == WK_SHEPHERD_STOPPED ? RUN_STOPPED : RUN_ENDED;
        double left = deadline - now_ms();
        if (left <= 0)
            return RUN_LATE;
        int ready = poll(pf, (nfds_t)n, left > 20 ? 20 : (int)left + 1);
        for (int k = 0; ready > 0 && k < n; k++)
            if (pf[k].revents)
                take(&in[which[k]]);
    }
}

/* What is left in the pipes once nothing of the run is alive: never
 * blocks (a descriptor may have gone where the kit cannot reach). */
static void drain_rest(struct pipe_in *in, int count)
{
    for (int i = 0; i < count; i++) {
        if (in[i].fd < 0)
            continue;
        fcntl(in[i].fd, F_SETFL, fcntl(in[i].fd, F_GETFL) | O_NONBLOCK);
        for (int k = 0; k < 64 && in[i].fd >= 0; k++) {
            size_t before = in[i].len + in[i].over;
            take(&in[i]);
            if (in[i].fd >= 0 && in[i].len + in[i].over == before)
                break; /* EAGAIN */
        }
        if (in[i].fd >= 0)
            close(in[i].fd);
        in[i].fd = -1;
    }
}

/* A word the shepherd sets as it ends on its own (isolation.h), in a page
 * shared with it; NULL when none can be had (a killed shepherd then reads
 * as its case's process killed). */
/* Two words shared with the shepherd (isolation.h): [0] set once the run
 * ended and nothing of it is left, [1] a stop signal the run's own
 * processes sent the shepherd, which ignored it. */
#define SHARED_WORDS 2
static volatile int32_t *done_word_new(void)
{
    void *m = mmap(NULL, SHARED_WORDS * sizeof(int32_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    volatile int32_t *w = m;
    w[0] = w[1] = 0;
    return w;
}

static void done_word_free(volatile int32_t *w)
{
    if (w)
        munmap((void *)(uintptr_t)w, SHARED_WORDS * sizeof(int32_t));
}

/* Ends a run: a late or stopped shepherd is killed (SIGKILL works on a
 * stopped one), reaped within 2 s, and every process of the run left
 * (a killed shepherd's case) is killed; then the pipes are read to their
 * end. Says what became of the shepherd in o. */
static int finish_run(pid_t shepherd, enum run_end end, volatile int32_t *done, struct pipe_in *in, int count,
                      struct outcome *o)
{
    int status = 0;
    if (end != RUN_ENDED)
        wk_shepherd_stop(shepherd);
    if (wk_shepherd_wait(shepherd, &status, 2000) != 0)
        status = SIGKILL; /* as waitpid says of a process killed by SIGKILL */
    wk_reap_strays(NULL, 0, 2000); /* the tools run one case at a time: every other child is the case's */
    drain_rest(in, count);
    if (end == RUN_STOPPED)
        o->shepherd = SHEPHERD_STOPPED;
    else if (end == RUN_ENDED && done && !*done && WIFSIGNALED(status)) {
        o->shepherd = SHEPHERD_KILLED;
        o->shepherd_signo = WTERMSIG(status);
    }
    if (!o->shepherd && done && done[1]) { /* the driver's signal to its shepherd, whatever the run did after */
        o->shepherd = SHEPHERD_SIGNALLED;
        o->shepherd_signo = done[1];
    }
    if (o->shepherd)
        o->cls = CLS_CRASH;
    return status;
}

/* Splits what the signal handler printed into frames, without the
 * run-dependent " [0xaddr]" and the directories. */
static void parse_frames(struct outcome *o, char *text, size_t len)
{
    text[len] = '\0';
    for (char *line = strtok(text, "\n"); line && o->nframes < NFRAMES; line = strtok(NULL, "\n")) {
        char *addr = strstr(line, "[0x"); /* "module(symbol+off)[0xaddr]": the address moves */
        if (addr)
            *addr = '\0';
        for (size_t n = strlen(line); n && line[n - 1] == ' '; n--)
            line[n - 1] = '\0';
        char *paren = strchr(line, '('), *slash = NULL;
        for (char *q = line; *q && (!paren || q < paren); q++)
            if (*q == '/')
                slash = q;
        snprintf(o->frames[o->nframes++], sizeof(o->frames[0]), "%s", slash ? slash + 1 : line);
    }
}

static void classify_exit(struct outcome *o, int status)
{
    if (WIFSIGNALED(status)) {
        o->cls = CLS_CRASH;
        o->signo = WTERMSIG(status);
    } else if (!o->answered || WEXITSTATUS(status) != 0) {
        o->cls = CLS_CRASH;
        o->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
}

/* pipe(), tried again while no descriptor is to spare (r's deadline). */
static int pipe_retried(int fds[2], struct wk_retry *r)
{
    int rc;
    while ((rc = pipe(fds)) != 0 && wk_retry_again(r, errno))
        ;
    return rc;
}

/* The shepherd's fork, tried again while no process or descriptor is to
 * spare. In the child it returns 0 like a fork. */
static pid_t fork_retried(struct wk_retry *r, const char **call, volatile int32_t *done)
{
    wk_reap_become_subreaper(); /* a killed shepherd's processes come here (isolation.h) */
    pid_t pid;
    while ((pid = wk_shepherd_fork(NULL, call, done, done ? done + 1 : NULL)) < 0 && wk_retry_again(r, errno))
        ;
    return pid;
}

/* A run the kit could not start (issue 22): class error, naming the call,
 * the errno and how long it was retried, never a crash of the driver. */
static void not_started(struct outcome *o, const char *call, const struct wk_retry *r)
{
    char what[300];
    wk_retry_describe(what, sizeof(what), call, r->err ? r->err : errno, r);
    o->cls = CLS_ERROR;
    snprintf(o->sig, sizeof(o->sig), "could not start the run");
    snprintf(o->detail, sizeof(o->detail), "could not start the run: %s", what);
}

static void close_pair(int fds[2])
{
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* In the child, while the command folds its runs' output (driver_log.c):
 * stderr, the driver's DbgPrint lines with it, goes to the parent. */
static void child_stderr(int err[2])
{
    if (err[1] < 0)
        return;
    close(err[0]);
    dup2(err[1], STDERR_FILENO);
    close(err[1]);
}

/* Runs fn in a forked child that writes `answer_size` bytes to its pipe.
 * Its pipes and processes, when the system has none to spare (EMFILE,
 * EAGAIN ...), are waited for up to WK_RETRY_WAIT_DEFAULT (util/retry.h),
 * then the run is an error. */
void wk_crash_run_child(child_fn *fn, const void *arg, const char *driver, uint32_t timeout_ms, void *answer,
                        size_t answer_size, struct outcome *o)
{
    memset(o, 0, sizeof(*o));
    int res[2] = { -1, -1 }, frm[2] = { -1, -1 }, rep[2] = { -1, -1 }, err[2] = { -1, -1 };
    const char *call = "pipe";
    struct wk_retry r;
    wk_retry_begin(&r, WK_RETRY_WAIT_DEFAULT);
    if (pipe_retried(res, &r) != 0 || pipe_retried(frm, &r) != 0 || pipe_retried(rep, &r) != 0 ||
        (wk_crash_folding() && pipe_retried(err, &r) != 0)) {
        not_started(o, call, &r);
        close_pair(res);
        close_pair(frm);
        close_pair(rep);
        return;
    }
    fflush(NULL);
    volatile int32_t *done = done_word_new();
    pid_t pid = fork_retried(&r, &call, done);
    if (pid == 0) {
        close(res[0]);
        close(frm[0]);
        close(rep[0]);
        child_stderr(err);
        child_setup(frm[1]);
        /* A sanitizer's report comes to the parent, which shows it and
         * names its class in the signature. */
        if (__sanitizer_set_report_fd)
            __sanitizer_set_report_fd((void *)(intptr_t)rep[1]);
        fn(arg, res[1]);
        _exit(0);
    }
    close(res[1]);
    close(frm[1]);
    close(rep[1]);
    if (err[1] >= 0)
        close(err[1]);
    if (pid < 0) {
        close(res[0]);
        close(frm[0]);
        close(rep[0]);
        if (err[0] >= 0)
            close(err[0]);
        done_word_free(done);
        not_started(o, call, &r);
        return;
    }
    char frames[1024];
    static char report[16384], said[WK_LOG_RUN_LIMIT];
    struct pipe_in in[MAX_PIPES] = { { res[0], answer, answer_size, 0, 0 },
                                     { frm[0], frames, sizeof(frames) - 1, 0, 0 },
                                     { rep[0], report, sizeof(report) - 1, 0, 0 },
                                     { err[0], said, sizeof(said), 0, 0 } };
    int pipes = err[0] >= 0 ? 4 : 3;
    enum run_end end = watch(in, pipes, pid, now_ms() + timeout_ms);
    int status = finish_run(pid, end, done, in, pipes, o);
    done_word_free(done);
    if (pipes == 4)
        wk_crash_fold_take(driver, said, in[3].len, in[3].over);
    report[in[2].len] = '\0';
    if (in[2].len) {
        fputs(report, stderr);
        wk_crash_log_class(report, o->sanitizer, sizeof(o->sanitizer));
        wk_crash_log_frame(report, &o->frame);
    }
    o->wait_status = status;
    o->answer_len = in[0].len;
    o->answer_extra = in[0].over;
    o->answered = in[0].len == answer_size && in[0].over == 0 && !o->shepherd;
    if (WIFSIGNALED(status) && !o->shepherd) /* only the signal handler writes frames; a driver may write there too */
        parse_frames(o, frames, in[1].len);
    if (end == RUN_LATE)
        o->cls = CLS_TIMEOUT;
    else if (!o->shepherd)
        classify_exit(o, status);
}
/* A program run, the nonce its record must carry (isolation.h) and the
 * crash slot it publishes in (NULL: none could be mapped). */
struct sealed_job {
    struct job job;
    struct wk_result_nonce nonce;
    volatile struct wk_vidmm_crash_slot *slot;
};

static void run_child_fn(const void *arg, int fd)
{
    const struct sealed_job *sj = arg;
    const struct job *j = &sj->job;
    static struct wk_case_result r;
    struct wk_run_options ro = { .driver = j->driver, .seed = j->seed };
    /* The driver's hardware binding, as the harness takes it (WK_BINDING,
     * else the module's own; fuzz/driver/binding.c; never the reference's):
     * its processor runs the driver's buffers, and the driver is judged on
     * the contract profile, as the harness judges it. */
    ro.binding = j->driver ? wk_crash_binding_of(j->driver) : NULL;
    if (ro.binding)
        ro.contract = 1;
    wk_vidmm_publish_crash_slot(sj->slot);
    wk_prog_run(j->p, &ro, &r);
    fflush(NULL);
    wk_result_send(fd, &sj->nonce, &r);
    _exit(0); /* past any atexit handler: the record is the kit's last word */
}

/* A child's answer that is not the kit's sealed record is a crash of the
 * case's process, whatever it exited with: the driver spoke for the kit. */
static void refuse_forged(struct outcome *o, const struct wk_result_record *rec, const struct wk_result_nonce *n)
{
    if (!o->answer_len && !o->answer_extra)
        return; /* no answer at all: classify_exit said so */
    struct wk_case_result r;
    if (!wk_result_open(rec, o->answer_len, o->answer_extra, n, &r, o->refused, sizeof(o->refused)))
        return;
    o->answered = 0;
    if (o->cls == CLS_PASS) {
        o->cls = CLS_CRASH;
        o->exit_code = 0;
    }
}
/* Shared with the child across the fork; NULL when no page can be had
 * (the crash is then told by its exit alone). */
static volatile struct wk_vidmm_crash_slot *map_crash_slot(void)
{
    void *m = mmap(NULL, sizeof(struct wk_vidmm_crash_slot), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    wk_vidmm_crash_slot_init(m);
    return m;
}

/* What the slot says about a crashed child: the driver's thread that died,
 * or the DDI it exited in. A timeout is not a crash: its killed child's
 * DDI is not reported. */
static void read_crash_slot(struct outcome *o, volatile struct wk_vidmm_crash_slot *slot)
{
    if (!slot)
        return;
    if (o->cls == CLS_CRASH)
        o->driver_crash = wk_vidmm_crash_slot_describe(slot, o->wait_status, o->sanitizer[0] != '\0',
                                                       o->driver_crash_line, sizeof(o->driver_crash_line));
    munmap((void *)(uintptr_t)slot, sizeof(struct wk_vidmm_crash_slot));
}

/* The hardware binding a run of `driver` uses (binding.h): WK_BINDING (the
 * crash commands' --binding, which the replay binaries read too; "none":
 * none), else the driver module itself when it exports wk_binding. In the
 * run's child: the module's constructors run there. */
const char *wk_crash_binding_of(const char *driver)
{
    const char *env = getenv("WK_BINDING");
    if (env && *env)
        return strcmp(env, "none") == 0 ? NULL : env;
    const struct wk_binding *b = NULL;
    char why[256];
    return wk_vidmm_binding_exported(driver, &b, why, sizeof(why)) == WK_OK ? driver : NULL;
}

/* One run of a program in a child, with its signature. */
void wk_crash_run_program(const struct wk_prog *p, const char *driver, const struct wk_crash_options *op, struct outcome *o)
{
    struct sealed_job j = { { p, driver, op->seed }, { { 0 } }, NULL };
    static struct wk_result_record rec;
    memset(o, 0, sizeof(*o));
    if (wk_result_nonce_new(&j.nonce) != 0) {
        o->cls = CLS_ERROR;
        snprintf(o->detail, sizeof(o->detail), "no random nonce for the result record: %s", strerror(errno));
        return;
    }
    memset(&rec, 0, sizeof(rec));
    j.slot = map_crash_slot();
    wk_crash_run_child(run_child_fn, &j, driver, op->timeout_ms, &rec, sizeof(rec), o);
    refuse_forged(o, &rec, &j.nonce);
    read_crash_slot(o, j.slot);
    if (o->answered)
        o->r = rec.result;
    if (o->answered && o->cls == CLS_PASS) {
        switch (rec.result.verdict) {
        case WK_VERDICT_PASS: case WK_VERDICT_SKIP: o->cls = CLS_PASS; break;
        case WK_VERDICT_ERROR: o->cls = CLS_ERROR; break;
        default: o->cls = CLS_FAIL; break;
        }
    }
    wk_crash_make_signature(o, p);
}

/* The crash slot a replay binary publishes in (replay_main.c): a memfd of
 * a page, its mapping here in *slot; -1 when none could be made (the
 * replay then runs without one). */
static int replay_crash_slot(volatile struct wk_vidmm_crash_slot **slot)
{
    *slot = NULL;
    int fd = memfd_create("wddmkit-crash-slot", 0); /* inherited by the replay binary */
    if (fd < 0)
        return -1;
    void *m = ftruncate(fd, sysconf(_SC_PAGESIZE)) == 0
                  ? mmap(NULL, sizeof(struct wk_vidmm_crash_slot), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                  : MAP_FAILED;
    if (m == MAP_FAILED) {
        close(fd);
        return -1;
    }
    *slot = m;
    wk_vidmm_crash_slot_init(*slot);
    return fd;
}

/* Runs `<harness>_replay FILE` with WK_DRIVER in a child. */
void wk_crash_run_replay(const char *harness, const char *file, const char *driver, uint32_t timeout_ms,
                       struct outcome *o)
{
    char bin[4200];
    memset(o, 0, sizeof(*o));
    o->cls = CLS_ERROR;
    if (wk_fuzz_replay_binary(harness, bin, sizeof(bin)) != 0) {
        snprintf(o->sig, sizeof(o->sig), "no replay binary for %s", harness);
        snprintf(o->detail, sizeof(o->detail), "%.300s is missing: build the fuzz targets or set WK_REPLAY_DIR", bin);
        return;
    }
    int err[2] = { -1, -1 };
    const char *call = "pipe";
    struct wk_retry r;
    wk_retry_begin(&r, WK_RETRY_WAIT_DEFAULT);
    if (pipe_retried(err, &r) != 0) {
        not_started(o, call, &r);
        return;
    }
    fflush(NULL);
    volatile struct wk_vidmm_crash_slot *slot;
    int slot_fd = replay_crash_slot(&slot);
    volatile int32_t *done = done_word_new();
    pid_t pid = fork_retried(&r, &call, done); /* a timeout kills what the replay started too */
    if (pid == 0) {
        setpgid(0, 0);
        char fd_text[16];
        snprintf(fd_text, sizeof(fd_text), "%d", slot_fd);
        if (slot_fd >= 0)
            setenv("WK_CRASH_SLOT_FD", fd_text, 1);
        else
            unsetenv("WK_CRASH_SLOT_FD");
        int null = open("/dev/null", O_WRONLY);
        dup2(err[1], STDERR_FILENO);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        close(err[0]);
        if (driver)
            setenv("WK_DRIVER", driver, 1);
        else
            unsetenv("WK_DRIVER");
        /* A reproduction sees every finding: a campaign's known signatures
         * (wddmkit fuzz runs triage with them in its environment) are not
         * passed over here. */
        unsetenv("WK_FUZZ_IGNORE");
        unsetenv("WK_FUZZ_IGNORE_COUNTS");
        struct wk_retry x;
        wk_retry_begin(&x, WK_RETRY_WAIT_DEFAULT); /* execve too may find no memory to spare */
        do
            execl(bin, bin, file, (char *)NULL);
        while (wk_retry_again(&x, errno));
        _exit(127);
    }
    close(err[1]);
    if (slot_fd >= 0)
        close(slot_fd);
    if (pid < 0) {
        close(err[0]);
        done_word_free(done);
        if (slot)
            munmap((void *)(uintptr_t)slot, sizeof(*slot));
        not_started(o, call, &r);
        return;
    }
    static char log[REPLAY_LOG_LIMIT + 1];
    struct pipe_in in = { err[0], log, REPLAY_LOG_LIMIT, 0, 0 };
    enum run_end end = watch(&in, 1, pid, now_ms() + timeout_ms);
    int status = finish_run(pid, end, done, &in, 1, o);
    done_word_free(done);
    log[in.len] = '\0';
    if (o->shepherd) {
        wk_crash_shepherd_signature(o);
    } else if (end == RUN_LATE) {
        o->cls = CLS_TIMEOUT;
        snprintf(o->sig, sizeof(o->sig), "no answer within the timeout");
    } else {
        wk_crash_classify_replay(o, status, log);
        o->wait_status = status;
        /* a crash no finding line explains (a sanitizer report that exited
         * at once, an exit or a dead thread of the driver's): the slot
         * names the DDI or the thread, as for the program route. An exit
         * status of 0 is no pass when the slot says a DDI was running: the
         * driver's exit(0) ended the replay binary mid-input (outsider 25's
         * driver was a pass in repro and triage, a crash in conform). */
        int exited_clean = o->cls == CLS_PASS;
        if ((o->cls == CLS_CRASH || exited_clean) && !strstr(log, ": KIT INVARIANT: ")) {
            o->cls = CLS_CRASH; /* what read_crash_slot describes */
            read_crash_slot(o, slot);
            slot = NULL;
            if (o->driver_crash == WK_VIDMM_CRASH_DESCRIPTORS) {
                snprintf(o->sig, sizeof(o->sig), "DRV-CRASH-001 (descriptors taken)");
                snprintf(o->detail, sizeof(o->detail), "%.500s", o->driver_crash_line);
            } else if (o->driver_crash) {
                wk_crash_slot_signature(o);
            } else if (exited_clean) {
                o->cls = CLS_PASS;
            }
        }
    }
    if (slot)
        munmap((void *)(uintptr_t)slot, sizeof(*slot));
}

void wk_crash_print_outcome(const struct outcome *o)
{
    printf("result: %s (exit %d)\nsignature: %s\n", wk_crash_cls_word[o->cls], wk_crash_cls_exit[o->cls], o->sig);
    if (o->detail[0])
        printf("  %s\n", o->detail);
    for (uint32_t i = 0; i < o->nframes; i++)
        printf("  frame #%u: %s\n", i, o->frames[i]);
}
