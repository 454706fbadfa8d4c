/* SPDX-License-Identifier: MIT */
/*
 * cli_fuzztools.c - from a fuzzer's crash file to a regression test
 * (issue "Fuzzing", section 2):
 *
 *   wddmkit prog dump FILE        an input of any harness, decoded and printed
 *   wddmkit repro FILE            run it (N times, each in a forked child),
 *                                 print its semantic signature, exit by class
 *   wddmkit minimize FILE         step-level reduction keeping the signature
 *   wddmkit promote FILE          minimize, then write the regression input
 *                                 and a YAML case that fails on the buggy
 *                                 driver and passes on the reference
 *   wddmkit triage DIR            group crash files by signature
 *
 * A fuzz_prog input IS a step program (wk_prog_decode). Its expected
 * statuses are whatever bytes the fuzzer wrote, while the harness judges by
 * contract violations and by comparison with the reference driver. So a
 * program is first CALIBRATED: run step by step on the reference driver,
 * every action then expects the status the reference returned and every
 * check the reference fails is dropped. The calibrated program passes on the
 * reference by construction (unless the reference itself breaks a rule), and
 * on the driver under test it fails exactly where that driver breaks a rule
 * or answers differently: the harness's oracle as a positive case, which is
 * what promote writes as YAML. --no-calibrate runs the file's own
 * expectations.
 *
 * A fuzz_patch input is not a program, but the Patch call it makes is one
 * (patch_input.c: the harness's fixture and a `patch` step, folded for the
 * driver's context). minimize reduces that patch step (locations, list
 * entries, DMA bytes, fields) and writes it back in fuzz_patch's format;
 * promote does the same, checks the result through fuzz_patch_replay, and
 * reduces a copy step by step into the YAML case. A fuzz_render input goes
 * the same way as the program of its Render call (render_input.c: the
 * fixture with a context of the kind it renders on, and a `render` step
 * whose status is the reference's), reduced in its render step (user patch
 * locations, list entries, command-buffer words, fields).
 *
 * Every run happens in a forked child, so a crash of the kit or of the
 * driver outside a guarded DDI call is a result (class crash, with the top
 * frames the child prints from its signal handler), and a run past the
 * timeout is killed (class timeout). Inputs of the other harnesses
 * (fuzz_render, fuzz_patch, fuzz_paging...) are replayed by their replay
 * binary (build/<preset>/fuzz/<harness>_replay, or $WK_REPLAY_DIR) in a
 * child with WK_DRIVER set, and classified from its exit and its stderr.
 *
 * Exit codes: repro 0 pass, 1 fail (a rule violated, a check failed),
 * 3 crash, 4 timeout, 2 usage or I/O error; minimize 0 written, 1 the input
 * passes (nothing to keep); promote 0 written (or already there), 1 refused
 * (with the reason); triage 0 when every file of the folder ran, 2 when
 * some could not be run (each row says why); 2 always for usage and I/O
 * errors. promote writes under the source tree (WK_SOURCE_DIR), or
 * under $WK_PROMOTE_ROOT when set (tests).
 */
#define _GNU_SOURCE /* REG_RIP, open_memstream */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "cli.h"
#include "conformance.h"
#include "fuzz.h" /* wk_fuzz_signature: the harnesses' signatures are these */
#include "reference.h"

#define PROG_FILE_LIMIT (1u << 20)   /* bytes of a program file read */
#define TRIAGE_MAX_FILES 100000u
#define MINIMIZE_MAX_TESTS 20000u    /* runs one reduction may spend */
#define REPLAY_LOG_LIMIT 16384u      /* stderr kept from a replay child */
#define NFRAMES 3

/* ------------------------------------------------------------------ */
/* Options                                                              */
/* ------------------------------------------------------------------ */

enum {
    OPT_DRIVER = 1, OPT_RUNS = 2, OPT_SEED = 4, OPT_OUT = 8, OPT_HARNESS = 16, OPT_NAME = 32,
    OPT_TIMEOUT = 64, OPT_CALIBRATE = 128,
};

struct opts {
    const char *path, *driver, *out, *harness, *name;
    uint32_t runs;
    uint64_t seed;
    uint32_t timeout_ms;
    int no_calibrate;
};

static const char *const usage_lines =
    "usage: wddmkit prog dump FILE [--harness NAME]\n"
    "       wddmkit repro FILE [--driver PATH] [--runs N] [--seed N] [--harness NAME] [--timeout S] [--no-calibrate]\n"
    "       wddmkit minimize FILE [-o OUT] [--driver PATH] [--harness NAME] [--seed N] [--timeout S] [--no-calibrate]\n"
    "       wddmkit promote FILE --driver PATH [--harness NAME] [--name NAME] [--seed N] [--timeout S]\n"
    "       wddmkit triage DIR [--driver PATH] [--harness NAME] [--seed N] [--timeout S]\n"
    "A fuzz_prog input is calibrated on the reference driver first (see --no-calibrate); so is a\n"
    "fuzz_paging input, run as the program that harness makes of it. Inputs of other harnesses\n"
    "(--harness, or a corpus/<harness>/ or <harness>-<engine>/ path) run through <harness>_replay.\n"
    "fuzz_patch and fuzz_render inputs also minimize and promote, as the step program of their\n"
    "Patch or Render call (a YAML case with a `patch` or `render` step). Other inputs minimize\n"
    "as bytes (YAML lines first), each candidate replayed, keeping the signature.\n"
    "Exit codes: 0 pass, 1 fail (a rule violated, a check failed; promote: refused), 3 crash,\n"
    "4 timeout (--timeout, default 60 s a run), 2 usage or I/O error.\n"
    "Environment: WK_PROMOTE_ROOT  the root promote writes under (default: the source tree)\n"
    "             WK_REPLAY_DIR    the folder of the <harness>_replay binaries (default:\n"
    "                              ../fuzz beside the wddmkit binary)\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("wddmkit: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n", stderr);
    fputs(usage_lines, stderr);
    return 2;
}

static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end = NULL;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_value(const char *flag, const char *v, unsigned bit, struct opts *o)
{
    uint64_t n = 0;
    switch (bit) {
    case OPT_DRIVER: o->driver = v; return 0;
    case OPT_OUT: o->out = v; return 0;
    case OPT_NAME: o->name = v; return 0;
    case OPT_HARNESS:
        o->harness = v;
        if (!wk_cli_harness_name_ok(v))
            return usage_error("%s: not a harness name: '%s'", flag, v);
        return wk_cli_harness_known(v) ? 0 : usage_error("unknown harness '%s' (one of: %s)", v, wk_cli_harness_list());
    case OPT_RUNS:
        if (parse_u64(v, 1, 100000, &n))
            return usage_error("--runs: expected 1..100000, saw '%s'", v);
        o->runs = (uint32_t)n;
        return 0;
    case OPT_SEED:
        if (parse_u64(v, 0, UINT64_MAX, &n))
            return usage_error("--seed: expected an unsigned integer, saw '%s'", v);
        o->seed = n;
        return 0;
    default:
        if (parse_u64(v, 1, 3600, &n))
            return usage_error("--timeout: expected 1..3600 seconds, saw '%s'", v);
        o->timeout_ms = (uint32_t)n * 1000;
        return 0;
    }
}

/* 0: parsed; 1: --help printed; 2: a usage error printed. */
static int parse_opts(int argc, char **argv, unsigned allowed, struct opts *o)
{
    static const struct { const char *name; unsigned bit; } flags[] = {
        { "--driver", OPT_DRIVER }, { "--runs", OPT_RUNS }, { "--seed", OPT_SEED }, { "-o", OPT_OUT },
        { "--harness", OPT_HARNESS }, { "--name", OPT_NAME }, { "--timeout", OPT_TIMEOUT },
    };
    memset(o, 0, sizeof(*o));
    o->runs = 1;
    o->timeout_ms = 60000;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_lines, stdout);
            return 1;
        }
        if (strcmp(a, "--no-calibrate") == 0 && (allowed & OPT_CALIBRATE)) {
            o->no_calibrate = 1;
            continue;
        }
        size_t f = 0;
        while (f < sizeof(flags) / sizeof(flags[0]) && !(strcmp(a, flags[f].name) == 0 && (allowed & flags[f].bit)))
            f++;
        if (f < sizeof(flags) / sizeof(flags[0])) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            if (parse_value(a, argv[++i], flags[f].bit, o))
                return 2;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (o->path) {
            return usage_error("one FILE at a time ('%s' and '%s')", o->path, a);
        } else {
            o->path = a;
        }
    }
    if (!o->path)
        return usage_error("missing FILE");
    return wk_cli_parse_only ? 1 : 0; /* 1: the command returns 0 without acting */
}

/* ------------------------------------------------------------------ */
/* Programs                                                             */
/* ------------------------------------------------------------------ */

static void fix_pointers(struct wk_prog *p)
{
    p->gpu.segments = p->segments;
    for (uint32_t i = 0; i < 8; i++)
        p->segments[i].bank_ends = p->bank_ends[i];
}

/* A deep copy (render and patch payloads included), or NULL. */
static struct wk_prog *prog_dup(const struct wk_prog *src)
{
    struct wk_prog *p = malloc(sizeof(*p));
    if (!p)
        return NULL;
    memcpy(p, src, sizeof(*p));
    fix_pointers(p);
    int ok = 1;
    for (uint32_t i = 0; i < p->step_count; i++) {
        if (src->steps[i].patch) {
            p->steps[i].patch = ok ? wk_prog_patch_dup(src->steps[i].patch) : NULL;
            ok = ok && p->steps[i].patch;
        }
        if (!src->steps[i].render)
            continue;
        p->steps[i].render = ok ? malloc(sizeof(*p->steps[i].render)) : NULL;
        if (p->steps[i].render)
            memcpy(p->steps[i].render, src->steps[i].render, sizeof(*p->steps[i].render));
        ok = ok && p->steps[i].render;
    }
    if (!ok) {
        wk_prog_free(p);
        free(p);
        return NULL;
    }
    return p;
}

static void prog_del(struct wk_prog *p)
{
    if (p) {
        wk_prog_free(p);
        free(p);
    }
}

/* Reads and decodes a program file; NULL after printing why. */
/* A fuzz_prog file, or a fuzz_paging one as the program that harness runs
 * (conformance/paging_input.c). */
static struct wk_prog *load_program(const char *path, size_t *bytes, const char *harness)
{
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_cli_read_file(path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return NULL;
    struct wk_prog *p = malloc(sizeof(*p));
    if (p && strcmp(harness, "fuzz_paging") == 0)
        wk_paging_input_to_prog(data, size, p);
    else if (p)
        wk_prog_decode(data, size, p);
    else
        fprintf(stderr, "wddmkit: %s: out of memory\n", path);
    free(data);
    if (bytes)
        *bytes = size;
    return p;
}

static size_t encoded_size(const struct wk_prog *p)
{
    return wk_prog_encode(p, NULL, 0);
}

/* Writes bytes to `path` through a temporary file. */
static int save_bytes(const uint8_t *buf, size_t n, const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp)) {
        fprintf(stderr, "wddmkit: %s: path too long\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(buf, 1, n, f) == n;
    ok = (f && fclose(f) == 0) && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) {
        fprintf(stderr, "wddmkit: %s: %s\n", path, strerror(errno));
        unlink(tmp);
    }
    return ok ? 0 : -1;
}

/* Writes the binary form to `path`. */
static int save_program(const struct wk_prog *p, const char *path)
{
    size_t n = encoded_size(p);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fprintf(stderr, "wddmkit: %s: out of memory\n", path);
        return -1;
    }
    wk_prog_encode(p, buf, n);
    int st = save_bytes(buf, n, path);
    free(buf);
    return st;
}

/* ------------------------------------------------------------------ */
/* Forked children                                                      */
/* ------------------------------------------------------------------ */

enum cls { CLS_PASS, CLS_FAIL, CLS_CRASH, CLS_TIMEOUT, CLS_ERROR };
static const char *const cls_word[] = { "pass", "fail", "crash", "timeout", "error" };
static const int cls_exit[] = { 0, 1, 3, 4, 2 };

struct outcome {
    enum cls cls;
    int answered;                     /* the child sent its answer */
    int signo;                        /* the child died of this signal */
    int exit_code;                    /* or exited so without answering */
    struct wk_case_result r;          /* program runs: the answer */
    char frames[NFRAMES][200];        /* top frames of a child that died */
    uint32_t nframes;
    char sig[400];                    /* the signature (class aside) */
    char detail[512];                 /* one line: expected / seen */
    char sanitizer[200];              /* a sanitizer report's class (log_class), or "" */
    int input_refused;                /* an error of the input itself (an adapter the GPU model refuses),
                                         not of the setup: triage still ran it */
};

typedef void child_fn(const void *arg, int fd);

/* Present with a sanitizer runtime (compiler-rt), NULL otherwise. */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

static void log_class(const char *log, char *out, size_t size);

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
}

/* Reads what the fds deliver until all close or the deadline passes;
 * returns 0, or -1 at the deadline. */
static int drain(struct pipe_in *in, int count, double deadline)
{
    for (;;) {
        struct pollfd pf[3];
        int which[3], n = 0;
        for (int i = 0; i < count && i < 3; i++)
            if (in[i].fd >= 0) {
                pf[n] = (struct pollfd){ in[i].fd, POLLIN, 0 };
                which[n++] = i;
            }
        if (n == 0)
            return 0;
        double left = deadline - now_ms();
        if (left <= 0)
            return -1;
        int ready = poll(pf, (nfds_t)n, left > 1000 ? 1000 : (int)left + 1);
        if (ready < 0 && errno != EINTR)
            return -1;
        for (int k = 0; ready > 0 && k < n; k++)
            if (pf[k].revents)
                take(&in[which[k]]);
    }
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

/* Runs fn in a forked child that writes `answer_size` bytes to its pipe. */
static void run_child(child_fn *fn, const void *arg, uint32_t timeout_ms, void *answer, size_t answer_size,
                      struct outcome *o)
{
    memset(o, 0, sizeof(*o));
    int res[2], frm[2], rep[2];
    if (pipe(res) != 0 || pipe(frm) != 0 || pipe(rep) != 0) {
        o->cls = CLS_ERROR;
        snprintf(o->detail, sizeof(o->detail), "pipe: %s", strerror(errno));
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(res[0]);
        close(frm[0]);
        close(rep[0]);
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
    if (pid < 0) {
        close(res[0]);
        close(frm[0]);
        close(rep[0]);
        o->cls = CLS_ERROR;
        snprintf(o->detail, sizeof(o->detail), "fork: %s", strerror(errno));
        return;
    }
    char frames[1024];
    static char report[16384];
    struct pipe_in in[3] = { { res[0], answer, answer_size, 0 }, { frm[0], frames, sizeof(frames) - 1, 0 },
                             { rep[0], report, sizeof(report) - 1, 0 } };
    int late = drain(in, 3, now_ms() + timeout_ms);
    for (int i = 0; i < 3; i++)
        if (in[i].fd >= 0)
            close(in[i].fd);
    report[in[2].len] = '\0';
    if (in[2].len) {
        fputs(report, stderr);
        log_class(report, o->sanitizer, sizeof(o->sanitizer));
    }
    if (late)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    o->answered = in[0].len == answer_size;
    parse_frames(o, frames, in[1].len);
    if (late)
        o->cls = CLS_TIMEOUT;
    else
        classify_exit(o, status);
}

/* ------------------------------------------------------------------ */
/* Running programs: calibration, runs                                  */
/* ------------------------------------------------------------------ */

struct job {
    const struct wk_prog *p;
    const char *driver;               /* NULL: the reference driver */
    uint64_t seed;
};

struct calibration {
    int started;
    uint32_t steps;
    int32_t status[WK_PROG_MAX_STEPS];
    uint8_t check_failed[WK_PROG_MAX_STEPS];
    uint32_t cancelled[WK_PROG_MAX_STEPS];
    uint32_t nallocs;                 /* allocations the run created */
    int32_t digest_status[WK_PROG_MAX_OBJECTS];
    uint64_t digest[WK_PROG_MAX_OBJECTS];
};

static void calibrate_steps(const struct job *j, struct wk_vidmm *vm, struct calibration *c)
{
    static struct wk_prog_exec x;
    static struct wk_case_result r;
    wk_prog_exec_init(&x, j->p, vm, &r);
    for (uint32_t i = 0; i < j->p->step_count; i++) {
        int failed = 0;
        c->status[i] = wk_prog_exec_step(&x, &j->p->steps[i], &failed);
        c->check_failed[i] = (uint8_t)failed;
        c->cancelled[i] = x.last_cancelled;
    }
    c->steps = j->p->step_count;
    c->nallocs = x.nallocs;
    for (uint32_t a = 0; a < x.nallocs && a < WK_PROG_MAX_OBJECTS; a++)
        c->digest_status[a] = wk_vidmm_digest(vm, x.allocs[a], &c->digest[a]);
}

/* Child: every step of the program on the reference driver, its status,
 * and every allocation's digest at the end. */
static void calibrate_child(const void *arg, int fd)
{
    const struct job *j = arg;
    static struct calibration c;
    struct wk_vidmm_config cfg = j->p->vidmm;
    struct wk_vidmm *vm = NULL;
    struct wk_mutation_state ms;
    const struct wk_mutation *m = NULL;
    cfg.gpu = &j->p->gpu;
    cfg.seed += j->seed;
    memset(&c, 0, sizeof(c));
    if (wk_vidmm_create(&cfg, &vm) == WK_OK) {
        m = j->p->has_rewrite ? wk_mutation_find(j->p->rewrite.mutation) : NULL;
        if (m)
            wk_mutation_arm(vm, &ms, m, j->p->rewrite.call, j->p->rewrite.param);
        c.started = wk_vidmm_attach(vm, wk_refdriver_DriverEntry) == WK_OK && wk_vidmm_start(vm) == WK_OK;
    }
    if (c.started)
        calibrate_steps(j, vm, &c);
    if (vm)
        wk_vidmm_destroy(vm);
    wk_write_all(fd, &c, sizeof(c));
}

static int is_check_step(const struct wk_step *s)
{
    return wk_step_is_check(s->kind);
}

/* fuzz_prog compares only checks of content; the others read numbers a
 * correct driver may choose differently. */
static int content_check(const struct wk_step *s)
{
    return s->kind == WK_STEP_EXPECT_BYTES || s->kind == WK_STEP_EXPECT_PATTERN ||
           s->kind == WK_STEP_EXPECT_DIGEST || s->kind == WK_STEP_EXPECT_GART;
}

struct calibrated {
    uint32_t set, dropped, digests;
};

/* Keeps the steps the calibration keeps, with the reference's answers. */
static void apply_calibration(struct wk_prog *p, const struct calibration *c, struct calibrated *n)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < p->step_count; i++) {
        struct wk_step *s = &p->steps[i];
        if (is_check_step(s) && (c->check_failed[i] || !content_check(s))) {
            n->dropped++;
            continue;
        }
        if (!is_check_step(s) && s->expect_status != (wk_status)c->status[i]) {
            s->expect_status = (wk_status)c->status[i];
            n->set++;
        }
        if (s->kind == WK_STEP_CANCEL && s->has_count)
            s->count = c->cancelled[i];
        p->steps[kept++] = *s;
    }
    for (uint32_t i = kept; i < p->step_count; i++)
        memset(&p->steps[i], 0, sizeof(p->steps[i]));
    p->step_count = kept;
    for (uint32_t a = 0; a < c->nallocs && a < WK_PROG_MAX_OBJECTS && p->step_count < WK_PROG_MAX_STEPS; a++) {
        if (c->digest_status[a] != WK_OK)
            continue;
        struct wk_step *s = &p->steps[p->step_count++];
        memset(s, 0, sizeof(*s));
        s->kind = WK_STEP_EXPECT_DIGEST;
        s->allocation = a;
        s->value = c->digest[a];
        n->digests++;
    }
}

/* The program as fuzz_prog judges it (fuzz/fuzz_prog.c, fuzz_driver.c):
 * every action expects the reference's status, content checks the
 * reference fails and the other checks go, and every allocation's digest
 * is checked at the end. -1 when the reference could not run it at all. */
static int calibrate(struct wk_prog *p, const struct opts *op, struct calibrated *n)
{
    static struct calibration c;
    struct job j = { p, NULL, op->seed };
    struct outcome o;
    memset(n, 0, sizeof(*n));
    run_child(calibrate_child, &j, op->timeout_ms, &c, sizeof(c), &o);
    if (!o.answered || o.cls != CLS_PASS || !c.started || c.steps != p->step_count)
        return -1;
    apply_calibration(p, &c, n);
    return 0;
}

/* What fuzz_prog does to an input before running it (fuzz/fuzz_prog.c):
 * no answer rewrite, a paging buffer of at least one COPY (28 bytes) and
 * at most 64 KiB, the default multipass bound, and allocations past
 * WK_FUZZ_PROG_BYTES in all left out. */
static void harness_view(struct wk_prog *p, char *note, size_t size)
{
    size_t at = 0;
    note[0] = '\0';
    if (p->has_rewrite || p->trips[0])
        at += (size_t)snprintf(note + at, size - at, "; answer rewrite dropped");
    p->has_rewrite = 0;
    memset(&p->rewrite, 0, sizeof(p->rewrite));
    p->trips[0] = '\0';
    uint32_t buffer = wk_fuzz_paging_buffer(p->vidmm.paging_buffer_size);
    if (buffer != p->vidmm.paging_buffer_size)
        at += (size_t)snprintf(note + at, size - at, "; paging buffer %s to %u bytes",
                               buffer > p->vidmm.paging_buffer_size ? "raised" : "lowered", buffer);
    p->vidmm.paging_buffer_size = buffer;
    if (p->vidmm.max_passes) {
        p->vidmm.max_passes = 0;
        at += (size_t)snprintf(note + at, size - at, "; multipass bound back to the default");
    }
    uint64_t bytes = 0;
    uint32_t cut = 0;
    for (uint32_t i = 0; i < p->step_count;) {
        struct wk_step *s = &p->steps[i];
        if (s->kind == WK_STEP_CREATE_ALLOCATION && bytes + s->alloc.size > WK_FUZZ_PROG_BYTES) {
            memmove(s, s + 1, (p->step_count - i - 1) * sizeof(*s)); /* skipped: no object, no renumbering */
            memset(&p->steps[--p->step_count], 0, sizeof(*s));
            cut++;
            continue;
        }
        bytes += s->kind == WK_STEP_CREATE_ALLOCATION ? s->alloc.size : 0;
        i++;
    }
    if (cut && at < size)
        snprintf(note + at, size - at, "; %u allocation(s) past the %u MiB cap left out", cut, WK_FUZZ_PROG_BYTES >> 20);
}

static void run_child_fn(const void *arg, int fd)
{
    const struct job *j = arg;
    static struct wk_case_result r;
    struct wk_run_options ro = { j->driver, j->seed, NULL, 0 };
    wk_prog_run(j->p, &ro, &r);
    wk_write_all(fd, &r, sizeof(r));
}

static void make_signature(struct outcome *o, const struct wk_prog *p);

/* One run of a program in a child, with its signature. */
static void run_program(const struct wk_prog *p, const char *driver, const struct opts *op, struct outcome *o)
{
    struct job j = { p, driver, op->seed };
    static struct wk_case_result r;
    run_child(run_child_fn, &j, op->timeout_ms, &r, sizeof(r), o);
    if (o->answered)
        o->r = r;
    if (o->answered && o->cls == CLS_PASS) {
        switch (r.verdict) {
        case WK_VERDICT_PASS: case WK_VERDICT_SKIP: o->cls = CLS_PASS; break;
        case WK_VERDICT_ERROR: o->cls = CLS_ERROR; break;
        default: o->cls = CLS_FAIL; break;
        }
    }
    make_signature(o, p);
}

/* ------------------------------------------------------------------ */
/* Signatures                                                           */
/* ------------------------------------------------------------------ */

static void fail_signature(struct outcome *o, const struct wk_prog *p)
{
    const struct wk_case_result *r = &o->r;
    const char *kind = r->failed_step >= 0 && (uint32_t)r->failed_step < p->step_count
                           ? wk_step_keyword(p->steps[r->failed_step].kind) : "case";
    if (p->has_rewrite && r->rule[0] && strcmp(r->rule, p->trips) == 0) {
        snprintf(o->sig, sizeof(o->sig), "%s not tripped by rewrite %s", r->rule, p->rewrite.mutation);
    } else if (r->rule[0]) {
        /* The violation's message (r->seen) names the DDI and any GPU
         * fault class or signal. A sanitizer's abort inside a DDI is the
         * driver crashing: its report says what the crash was
         * (ASAN_OPTIONS=abort_on_error=1, which AFL++ and the asan preset's
         * tests set). */
        wk_fuzz_signature(o->sig, sizeof(o->sig), r->rule, r->seen, o->sanitizer);
    } else if (strncmp(r->seen, "WK_", 3) == 0) { /* a status other than expected */
        snprintf(o->sig, sizeof(o->sig), "%s: expected %s, returned %.*s", kind, r->expected, (int)strcspn(r->seen, ":"),
                 r->seen);
    } else {
        snprintf(o->sig, sizeof(o->sig), "%s: expected %s", kind, r->expected);
    }
    snprintf(o->detail, sizeof(o->detail), "step %d (%.24s): expected %.120s; seen %.300s", r->failed_step, kind,
             r->expected, r->seen);
}

/* Why a program could not run. An adapter that wk_vidmm_create refused
 * leaves no adapter to ask for its last error, so the answer read "the
 * adapter starts: WK_E_INVALID_ARGUMENT: " and stopped there; the GPU
 * model says what is wrong with the description (wk_gpu_check_desc runs
 * first in wk_vidmm_create), and fuzz_prog runs nothing for such an
 * input (fuzz_driver.c, model_takes). */
static void error_detail(struct outcome *o, const struct wk_prog *p)
{
    const struct wk_case_result *r = &o->r;
    char why[300] = "";
    size_t n = strlen(r->seen);
    int no_reason = n >= 2 && strcmp(r->seen + n - 2, ": ") == 0;
    if (no_reason && strncmp(r->seen, "WK_E_INVALID_ARGUMENT", 21) == 0 &&
        wk_gpu_check_desc(&p->gpu, why, sizeof(why)) != WK_OK) {
        o->input_refused = 1;
        snprintf(o->detail, sizeof(o->detail), "%.60s: %.40sthe GPU model refuses the adapter description: %.250s "
                 "(fuzz_prog runs nothing for such an input)", r->expected, r->seen, why);
    } else if (no_reason) {
        snprintf(o->detail, sizeof(o->detail), "%.150s: %.60sno adapter was created, so it left no reason",
                 r->expected, r->seen);
    } else {
        snprintf(o->detail, sizeof(o->detail), "%.150s: %.300s", r->expected, r->seen);
    }
}

static void make_signature(struct outcome *o, const struct wk_prog *p)
{
    char frames[3 * 200 + 16] = "";
    size_t at = 0;
    for (uint32_t i = 0; i < o->nframes; i++)
        at += (size_t)snprintf(frames + at, sizeof(frames) - at, "%s%s", i ? " < " : " at ", o->frames[i]);
    switch (o->cls) {
    case CLS_PASS:
        snprintf(o->sig, sizeof(o->sig), "%s", o->r.verdict == WK_VERDICT_SKIP ? "skip" : "pass");
        if (o->r.verdict == WK_VERDICT_SKIP)
            snprintf(o->detail, sizeof(o->detail), "skipped: %.400s", o->r.seen);
        break;
    case CLS_FAIL: fail_signature(o, p); break;
    case CLS_CRASH:
        if (o->signo)
            snprintf(o->sig, sizeof(o->sig), "%s%s", wk_fuzz_signal_name(o->signo), frames);
        else
            snprintf(o->sig, sizeof(o->sig), "exit %d%s%s", o->exit_code,
                     o->sanitizer[0] ? ": " : " without an answer (a sanitizer report?)", o->sanitizer);
        break;
    case CLS_TIMEOUT: snprintf(o->sig, sizeof(o->sig), "no answer within the timeout"); break;
    default:
        snprintf(o->sig, sizeof(o->sig), "%s", "the program could not run");
        if (o->answered)
            error_detail(o, p);
        break;
    }
}

static int same_result(const struct outcome *a, const struct outcome *b)
{
    return a->cls == b->cls && strcmp(a->sig, b->sig) == 0;
}

/* ------------------------------------------------------------------ */
/* Inputs of the other harnesses: their replay binaries                 */
/* ------------------------------------------------------------------ */

int wk_cli_replay_binary(const char *harness, char *path, size_t size)
{
    const char *dir = getenv("WK_REPLAY_DIR");
    char self[4096];
    if (!dir || !*dir) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n <= 0)
            return -1;
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (!slash)
            return -1;
        snprintf(slash, sizeof(self) - (size_t)(slash - self), "/../fuzz");
        dir = self;
    }
    if (snprintf(path, size, "%s/%s_replay", dir, harness) >= (int)size)
        return -1;
    return access(path, X_OK);
}

/* The first token of the log that names a rule of the catalogue. */
static const char *rule_in(const char *log, char *rule, size_t size)
{
    for (const char *q = log; *q; q++) {
        if (!(*q >= 'A' && *q <= 'Z') || (q > log && ((q[-1] >= 'A' && q[-1] <= 'Z') || q[-1] == '-')))
            continue;
        size_t n = strspn(q, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
        if (n < size) {
            snprintf(rule, size, "%.*s", (int)n, q);
            if (wk_rule_find(rule))
                return rule;
        }
    }
    return NULL;
}

/* A one-line class from a sanitizer report, or the first line. */
/* Addresses differ from run to run (ASLR, the stack): each 0x<hex> of a
 * sanitizer's message becomes "0x?", so that the same bug gives the same
 * signature and `minimize` can keep a smaller input that still shows it. */
static void mask_addresses(char *s)
{
    char *w = s;
    for (const char *r = s; *r;) {
        if (r[0] == '0' && r[1] == 'x' && isxdigit((unsigned char)r[2])) {
            r += 2;
            while (isxdigit((unsigned char)*r))
                r++;
            *w++ = '0', *w++ = 'x', *w++ = '?';
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
}

/* The first function of an ASan report's stack that is not the
 * sanitizer's own (an interceptor such as __asan_memcpy says nothing about
 * where the bug is), else the function of its SUMMARY line. */
/* The C library's allocation functions, first in a leak's stack. */
static int is_allocator(const char *fn)
{
    static const char *const names[] = { "malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign" };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t n = strlen(names[i]);
        if (strncmp(fn, names[i], n) == 0 && (fn[n] == ' ' || fn[n] == '\n' || fn[n] == '\0'))
            return 1;
    }
    return 0;
}

static const char *asan_function(const char *asan)
{
    for (const char *f = strstr(asan, "\n    #"); f; f = strstr(f + 1, "\n    #")) {
        const char *in = strstr(f, " in ");
        if (!in || in > f + 1 + strcspn(f + 1, "\n"))
            continue;
        in += 4;
        if (strncmp(in, "__asan", 6) != 0 && strncmp(in, "__interceptor", 13) != 0 &&
            strncmp(in, "__sanitizer", 11) != 0 && !is_allocator(in))
            return in;
    }
    const char *sum = strstr(asan, "SUMMARY: AddressSanitizer: ");
    const char *in = sum ? strstr(sum, " in ") : NULL;
    return in && in < sum + strcspn(sum, "\n") ? in + 4 : NULL;
}

/* The sanitizer's class of the failure: ASan's kind and the first function
 * of its stack that is not the sanitizer's, UBSan's message, or where
 * LeakSanitizer's first leak was allocated; addresses masked. */
static void log_class(const char *log, char *out, size_t size)
{
    const char *asan = strstr(log, "ERROR: AddressSanitizer: "), *ub = strstr(log, "runtime error: ");
    const char *lsan = strstr(log, "ERROR: LeakSanitizer: ");
    const char *leak = lsan ? strstr(lsan, " leak of ") : NULL;
    const char *fn = asan ? asan_function(asan) : leak ? asan_function(leak) : NULL;
    if (asan)
        snprintf(out, size, "AddressSanitizer: %.*s%s%.*s", (int)strcspn(asan + 25, " \n"), asan + 25, fn ? " in " : "",
                 fn ? (int)strcspn(fn, " \n") : 0, fn ? fn : "");
    else if (ub)
        snprintf(out, size, "UndefinedBehaviorSanitizer: %.*s", (int)strcspn(ub + 15, "\n"), ub + 15);
    else if (lsan)
        snprintf(out, size, "LeakSanitizer: leak%s%.*s", fn ? " allocated in " : "", fn ? (int)strcspn(fn, " \n") : 0,
                 fn ? fn : "");
    else
        out[0] = '\0';
    mask_addresses(out);
}

/* The first violation a harness report lists ("violation in <DDI>:
 * <message>", fuzz_driver.c): its rule and message, the latter cut at the
 * end of its line into msg; NULL when it lists none. What the harness
 * takes its own signature from (wk_fuzz_finding), so the two agree. */
static const char *first_violation(const char *log, char *rule, size_t rule_size, char *msg, size_t msg_size)
{
    const char *v = strstr(log, "violation in ");
    const char *colon = v ? strstr(v + 13, ": ") : NULL;
    if (!colon || colon > v + 13 + strcspn(v + 13, "\n"))
        return NULL;
    const char *m = colon + 2;
    size_t n = strspn(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
    snprintf(msg, msg_size, "%.*s", (int)strcspn(m, "\n"), m);
    if (n == 0 || n >= rule_size)
        return NULL;
    snprintf(rule, rule_size, "%.*s", (int)n, m);
    return wk_rule_find(rule) ? rule : NULL;
}

/* The harness reports a finding and aborts (fuzz/fuzz_driver.h): a rule
 * with its DDI, a differential mismatch, or a kit invariant. */
static void classify_replay(struct outcome *o, int status, const char *log)
{
    char rule[32], what[200], msg[400];
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o->cls = code == 0 ? CLS_PASS : code == 2 ? CLS_ERROR : CLS_CRASH;
    if (code == 0 || code == 2) { /* 2: an input it could not read, a driver it could not load */
        size_t n = strcspn(log, "\n");
        snprintf(o->sig, sizeof(o->sig), "%s%.*s", code == 0 ? "pass" : n ? "the replay binary could not run: " : "the replay binary could not read the input",
                 code == 0 ? 0 : (int)(n < 300 ? n : 300), log);
        return;
    }
    o->signo = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const char *finding = strstr(log, ": FINDING: "), *kit = strstr(log, ": KIT INVARIANT: ");
    log_class(log, what, sizeof(what));
    if (kit) {
        snprintf(o->sig, sizeof(o->sig), "kit invariant: %s", rule_in(kit, rule, sizeof(rule)) ? rule : "the reference misbehaved");
    } else if (finding && first_violation(finding, rule, sizeof(rule), msg, sizeof(msg))) {
        o->cls = CLS_FAIL;
        snprintf(o->r.rule, sizeof(o->r.rule), "%.23s", rule);
        wk_fuzz_signature(o->sig, sizeof(o->sig), rule, msg, what);
    } else if (finding) {
        o->cls = CLS_FAIL;
        wk_fuzz_signature(o->sig, sizeof(o->sig), NULL, finding + 11, what);
    } else {
        snprintf(o->sig, sizeof(o->sig), "%s%s%s", o->signo ? wk_fuzz_signal_name(o->signo) : "exit", what[0] ? ": " : "",
                 what);
    }
    const char *first = finding ? finding : kit ? kit : log;
    while (first > log && first[-1] != '\n') /* the whole line: "<harness>: FINDING: ..." */
        first--;
    snprintf(o->detail, sizeof(o->detail), "%.*s", (int)strcspn(first, "\n"), first);
}

/* Runs `<harness>_replay FILE` with WK_DRIVER in a child. */
static void run_replay(const char *harness, const char *file, const char *driver, uint32_t timeout_ms,
                       struct outcome *o)
{
    char bin[4200];
    memset(o, 0, sizeof(*o));
    o->cls = CLS_ERROR;
    if (wk_cli_replay_binary(harness, bin, sizeof(bin)) != 0) {
        snprintf(o->sig, sizeof(o->sig), "no replay binary for %s", harness);
        snprintf(o->detail, sizeof(o->detail), "%.300s is missing: build the fuzz targets or set WK_REPLAY_DIR", bin);
        return;
    }
    int err[2];
    if (pipe(err) != 0)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* a timeout kills what the replay started too */
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
        execl(bin, bin, file, (char *)NULL);
        _exit(127);
    }
    close(err[1]);
    static char log[REPLAY_LOG_LIMIT + 1];
    struct pipe_in in = { err[0], log, REPLAY_LOG_LIMIT, 0 };
    int late = pid < 0 ? 0 : drain(&in, 1, now_ms() + timeout_ms);
    if (in.fd >= 0)
        close(in.fd);
    log[in.len] = '\0';
    int status = 0;
    if (late)
        kill(-pid, SIGKILL);
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (pid < 0 || late) {
        o->cls = pid < 0 ? CLS_ERROR : CLS_TIMEOUT;
        snprintf(o->sig, sizeof(o->sig), "%s", pid < 0 ? "fork failed" : "no answer within the timeout");
        return;
    }
    classify_replay(o, status, log);
}

/* The harnesses whose inputs these commands read (fuzz_elf's are ELF
 * files, checked by its replay binary alone). */
static const char *const readable_harnesses[] = { "fuzz_prog",       "fuzz_render", "fuzz_patch", "fuzz_paging",
                                                  "fuzz_gpu_decode", "fuzz_spec",   "fuzz_cli",   "fuzz_hostile" };

/* The harness a path component names: the harness's name (corpus/<harness>/)
 * or the name and a '-' (wddmkit fuzz's fuzz-out/<harness>-<engine>/);
 * NULL when none does. */
static const char *path_harness(const char *path)
{
    for (size_t i = 0; i < sizeof(readable_harnesses) / sizeof(readable_harnesses[0]); i++) {
        size_t n = strlen(readable_harnesses[i]);
        for (const char *q = strstr(path, readable_harnesses[i]); q; q = strstr(q + 1, readable_harnesses[i]))
            if ((q == path || q[-1] == '/') && (q[n] == '/' || q[n] == '-'))
                return readable_harnesses[i];
    }
    return NULL;
}

/* What `wddmkit fuzz` notes in its output folder (campaign.txt, beside
 * crashes/): the harness and the driver module of its last campaign. */
struct campaign_note {
    char file[4200];
    char harness[64];
    char driver[4096];
};

/* The note of the campaign folder `dir` (a crash folder: the note is in its
 * parent; or the campaign folder itself); 0 when there is none. */
static int campaign_of(const char *dir, struct campaign_note *c)
{
    static const char *const where[] = { "/../campaign.txt", "/campaign.txt" };
    memset(c, 0, sizeof(*c));
    for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
        if (snprintf(c->file, sizeof(c->file), "%s%s", dir, where[i]) >= (int)sizeof(c->file))
            continue;
        FILE *f = fopen(c->file, "r");
        if (!f)
            continue;
        char line[4200];
        while (fgets(line, sizeof(line), f)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (strncmp(line, "harness: ", 9) == 0 && wk_cli_harness_name_ok(line + 9) && wk_cli_harness_known(line + 9))
                snprintf(c->harness, sizeof(c->harness), "%.63s", line + 9);
            else if (strncmp(line, "driver: ", 8) == 0 && strlen(line + 8) < sizeof(c->driver))
                snprintf(c->driver, sizeof(c->driver), "%s", line + 8);
        }
        fclose(f);
        return 1;
    }
    return 0;
}

/* The folder of a file (".", for a bare name) into dir. */
static void folder_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    snprintf(dir, size, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
}

/* The harness an input belongs to: --harness, else the harness its path
 * names (path_harness), else the one of the `wddmkit fuzz` campaign whose
 * folder it is in (campaign.txt: `--out` may name no harness), else
 * fuzz_prog, saying so. `path` is a file, or (triage) a folder of them. */
static const char *harness_of(const struct opts *o, const char *path)
{
    static struct campaign_note c;
    char dir[4096];
    if (o->harness)
        return o->harness;
    if (path_harness(path))
        return path_harness(path);
    folder_of(path, dir, sizeof(dir));
    if ((campaign_of(dir, &c) || campaign_of(path, &c)) && c.harness[0])
        return c.harness;
    static int told; /* once: triage asks for every file of a folder */
    if (!told++)
        fprintf(stderr, "wddmkit: %s: the path names no harness (corpus/<harness>/ or <harness>-<engine>/): read as a "
                        "fuzz_prog input; --harness NAME says which\n", path);
    return "fuzz_prog";
}

/* Inputs that are step programs, or become one (fuzz_paging's operations
 * are the program the harness runs on both adapters). */
static int is_prog(const char *harness)
{
    return strcmp(harness, "fuzz_prog") == 0 || strcmp(harness, "fuzz_paging") == 0;
}

/* ------------------------------------------------------------------ */
/* prog dump                                                            */
/* ------------------------------------------------------------------ */

static void print_decoded(const struct opts *o, const char *harness);

/* The harnesses whose inputs print_decoded or the program dump decode. */
static int decodable(const char *harness)
{
    for (size_t i = 0; i < sizeof(readable_harnesses) / sizeof(readable_harnesses[0]); i++)
        if (strcmp(harness, readable_harnesses[i]) == 0)
            return 1;
    return 0;
}

/* A file of any harness, decoded as that harness reads it (--harness, else
 * the path says, as for repro): a fuzz_prog file as written, a fuzz_paging
 * one as the program the harness makes of it, the others as repro prints
 * them. Decoding a fuzz_paging input as a fuzz_prog program printed an
 * unrelated adapter and "0 steps". */
int wk_cli_prog(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "dump") != 0)
        return usage_error("expected 'prog dump FILE [--harness NAME]'");
    struct opts o;
    int rc = parse_opts(argc - 1, argv + 1, OPT_HARNESS, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    const char *harness = harness_of(&o, o.path);
    if (!decodable(harness))
        return usage_error("--harness: prog dump decodes inputs of fuzz_prog, fuzz_paging, fuzz_render, fuzz_patch, "
                           "fuzz_gpu_decode, fuzz_spec, fuzz_cli and fuzz_hostile, not '%s'", harness);
    if (!is_prog(harness)) {
        size_t size = 0;
        uint8_t *data = NULL;
        if (wk_cli_read_file(o.path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
            return 2;
        free(data);
        printf("%s: %zu bytes, a %s input\n", o.path, size, harness);
        print_decoded(&o, harness);
        return 0;
    }
    size_t bytes = 0;
    struct wk_prog *p = load_program(o.path, &bytes, harness);
    if (!p)
        return 2;
    if (strcmp(harness, "fuzz_paging") == 0)
        printf("%s: %zu bytes, a fuzz_paging input: the program the harness runs, %u steps\n", o.path, bytes,
               p->step_count);
    else
        printf("%s: %zu bytes, %u steps%s\n", o.path, bytes, p->step_count,
               encoded_size(p) < bytes ? " (trailing bytes the decoder does not read)" : "");
    wk_prog_dump(p, stdout);
    prog_del(p);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Loading an input for a run                                           */
/* ------------------------------------------------------------------ */

/* A program file as fuzz_prog runs it: decoded, seen as the harness sees
 * it, calibrated (unless --no-calibrate: then exactly as written). Prints
 * one line about it unless quiet; NULL after printing why. */
static struct wk_prog *prepare(const struct opts *o, const char *path, int quiet, size_t *bytes)
{
    const char *harness = harness_of(o, path);
    struct wk_prog *p = load_program(path, bytes, harness);
    if (!p)
        return NULL;
    uint32_t steps = p->step_count;
    char view[160] = "", how[200] = "expectations as written (--no-calibrate)";
    struct calibrated n;
    if (!o->no_calibrate) {
        harness_view(p, view, sizeof(view));
        if (calibrate(p, o, &n) == 0)
            snprintf(how, sizeof(how), "calibrated on the reference driver: %u statuses set, %u checks dropped, "
                                       "%u end digests added", n.set, n.dropped, n.digests);
        else
            snprintf(how, sizeof(how), "the reference driver could not run it to calibrate: as written");
    }
    if (!quiet)
        printf("input: %s: %s %s, %zu bytes, %u steps%s; %s\n", path, harness,
               strcmp(harness, "fuzz_prog") == 0 ? "program" : "input as its program", *bytes, steps, view, how);
    return p;
}

static void print_outcome(const struct outcome *o)
{
    printf("result: %s (exit %d)\nsignature: %s\n", cls_word[o->cls], cls_exit[o->cls], o->sig);
    if (o->detail[0])
        printf("  %s\n", o->detail);
    for (uint32_t i = 0; i < o->nframes; i++)
        printf("  frame #%u: %s\n", i, o->frames[i]);
}

/* ------------------------------------------------------------------ */
/* repro                                                                */
/* ------------------------------------------------------------------ */

static void run_once(const struct opts *o, const char *harness, const struct wk_prog *p, struct outcome *out)
{
    if (p)
        run_program(p, o->driver, o, out);
    else
        run_replay(harness, o->path, o->driver, o->timeout_ms, out);
}

/* Runs --runs times; prints the first result and whether all agreed. */
static int repro_runs(const struct opts *o, const char *harness, const struct wk_prog *p)
{
    static struct outcome first, again;
    run_once(o, harness, p, &first);
    print_outcome(&first);
    uint32_t same = 1;
    for (uint32_t i = 1; i < o->runs; i++) {
        run_once(o, harness, p, &again);
        if (same_result(&first, &again))
            same++;
        else if (i + 1 - same <= 3) /* the first few mismatches */
            printf("  run %u differs: %s: %s\n", i + 1, cls_word[again.cls], again.sig);
    }
    if (o->runs > 1 && same == o->runs)
        printf("deterministic: %u/%u identical\n", same, o->runs);
    else if (o->runs > 1)
        printf("NOT deterministic: %u/%u identical to the first run\n", same, o->runs);
    return cls_exit[first.cls];
}

/* A crash file of a `wddmkit fuzz` folder reproduced without --driver: the
 * driver its campaign ran (campaign.txt) is named, as the file most likely
 * passes on the reference driver. */
static void note_campaign_driver(const struct opts *o)
{
    static struct campaign_note c;
    char dir[4096];
    folder_of(o->path, dir, sizeof(dir));
    if (!o->driver && campaign_of(dir, &c) && c.driver[0])
        printf("note: this file comes from a campaign with --driver %s (%s): rerun with it to reproduce what the "
               "engine saw\n", c.driver, c.file);
}

int wk_cli_repro(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, OPT_DRIVER | OPT_RUNS | OPT_SEED | OPT_HARNESS | OPT_TIMEOUT | OPT_CALIBRATE, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    const char *harness = harness_of(&o, o.path);
    struct wk_prog *p = NULL;
    size_t bytes = 0;
    if (is_prog(harness) && !(p = prepare(&o, o.path, 0, &bytes)))
        return 2;
    if (!p)
        printf("input: %s: %s input, replayed by %s_replay\n", o.path, harness, harness);
    printf("driver: %s\n", o.driver ? o.driver : "the reference driver (built in)");
    note_campaign_driver(&o);
    int code = repro_runs(&o, harness, p);
    if (p) {
        printf("program (as run):\n");
        wk_prog_dump(p, stdout);
    } else if (code != 2) {
        print_decoded(&o, harness);
    }
    prog_del(p);
    return code;
}

/* ------------------------------------------------------------------ */
/* Minimizing: edits that keep object references meaningful            */
/* ------------------------------------------------------------------ */

enum { K_DEV, K_CTX, K_ALLOC };

/* The kind a step creates when it succeeds (-1: none). */
static int creates(const struct wk_step *s)
{
    if (s->expect_status != WK_OK)
        return -1;
    return s->kind == WK_STEP_CREATE_DEVICE ? K_DEV : s->kind == WK_STEP_CREATE_CONTEXT ? K_CTX
         : s->kind == WK_STEP_CREATE_ALLOCATION ? K_ALLOC : -1;
}

static void shift(uint32_t *ref, uint32_t gone)
{
    if (*ref > gone)
        (*ref)--;
}

/* After object `gone` of `kind` disappears, later ones move down by one. */
static void shift_refs(struct wk_step *s, int kind, uint32_t gone)
{
    struct wk_prog_render *r = s->render;
    if (kind == K_DEV && (s->kind == WK_STEP_DESTROY_DEVICE || s->kind == WK_STEP_CREATE_CONTEXT))
        shift(&s->device, gone);
    if (kind == K_DEV && s->kind == WK_STEP_CREATE_ALLOCATION)
        shift(&s->alloc.device, gone);
    if (kind == K_CTX && (s->kind == WK_STEP_DESTROY_CONTEXT || s->kind == WK_STEP_EXPECT_CONTEXT_INFO))
        shift(&s->context, gone);
    if (kind == K_CTX && r)
        shift(&r->context, gone);
    if (kind == K_CTX && s->patch)
        shift(&s->patch->context, gone);
    if (kind != K_ALLOC)
        return;
    int uses = s->kind == WK_STEP_TOUCH_PHYSICAL || s->kind == WK_STEP_SIGNAL_FENCE ? s->relative
             : s->kind >= WK_STEP_DESTROY_ALLOCATION && s->kind != WK_STEP_RENDER && s->kind != WK_STEP_HOLD &&
                   s->kind != WK_STEP_CANCEL && s->kind != WK_STEP_WAIT_IDLE && s->kind != WK_STEP_EXPECT_STATS &&
                   s->kind != WK_STEP_EXPECT_CONTEXT_INFO && s->kind != WK_STEP_PATCH;
    if (uses)
        shift(&s->allocation, gone);
    for (uint32_t i = 0; r && i < r->list_length; i++)
        if (r->list_alloc[i] > gone + 1)
            r->list_alloc[i]--;
    for (uint32_t i = 0; s->patch && i < s->patch->list_length; i++)
        if (s->patch->list[i].allocation > gone + 1)
            s->patch->list[i].allocation--;
}

static void remove_step(struct wk_prog *p, uint32_t at)
{
    int kind = creates(&p->steps[at]);
    if (kind >= 0) {
        uint32_t index = 0;
        for (uint32_t i = 0; i < at; i++)
            index += creates(&p->steps[i]) == kind;
        for (uint32_t i = at + 1; i < p->step_count; i++)
            shift_refs(&p->steps[i], kind, index);
    }
    free(p->steps[at].render);
    free(p->steps[at].patch);
    memmove(&p->steps[at], &p->steps[at + 1], (p->step_count - at - 1) * sizeof(p->steps[0]));
    p->step_count--;
    memset(&p->steps[p->step_count], 0, sizeof(p->steps[0]));
}

static void remove_record(struct wk_prog_render *r, uint32_t at)
{
    memmove(&r->records[at], &r->records[at + 1], (r->record_count - at - 1) * sizeof(r->records[0]));
    r->record_count--;
}

static void remove_entry(struct wk_prog_render *r, uint32_t at)
{
    memmove(&r->list_alloc[at], &r->list_alloc[at + 1], (r->list_length - at - 1) * sizeof(r->list_alloc[0]));
    memmove(&r->list_write[at], &r->list_write[at + 1], (r->list_length - at - 1) * sizeof(r->list_write[0]));
    r->list_length--;
    for (uint32_t i = 0; i < r->record_count; i++) {
        shift(&r->records[i].src.list_index, at);
        shift(&r->records[i].dst.list_index, at);
    }
}

/* ------------------------------------------------------------------ */
/* Minimizing: the test and the reductions                              */
/* ------------------------------------------------------------------ */

struct mini {
    const struct opts *o;
    struct outcome want;              /* the signature to keep */
    int need_ref_pass;                /* and the reference must still pass */
    int problems;                     /* YAML problems of the best so far: never more */
    uint32_t tests;
};

static int yaml_problems(const struct wk_prog *p)
{
    int32_t first = 0;
    char why[8];
    return wk_prog_yaml_check(p, &first, why, sizeof(why));
}

/* Whether a candidate keeps the signature (and the reference passing). */
static int keeps(struct mini *m, const struct wk_prog *cand)
{
    if (m->tests >= MINIMIZE_MAX_TESTS)
        return 0;
    int problems = yaml_problems(cand);
    if (problems > m->problems)
        return 0;
    m->tests++;
    static struct outcome o;
    run_program(cand, m->o->driver, m->o, &o);
    if (!same_result(&o, &m->want))
        return 0;
    if (m->need_ref_pass) {
        run_program(cand, NULL, m->o, &o);
        if (o.cls != CLS_PASS)
            return 0;
    }
    m->problems = problems;
    return 1;
}

/* An edit of a copy of *best; the copy replaces *best when it keeps. */
typedef void edit_fn(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t count);

static int try_edit(struct mini *m, struct wk_prog **best, edit_fn *edit, uint32_t where, uint32_t at, uint32_t n)
{
    struct wk_prog *cand = prog_dup(*best);
    if (!cand)
        return 0;
    edit(cand, where, at, n);
    if (!keeps(m, cand)) {
        prog_del(cand);
        return 0;
    }
    prog_del(*best);
    *best = cand;
    return 1;
}

static void cut_steps(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    (void)where;
    while (n--)
        remove_step(p, at + n);
}

static void cut_records(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    while (n--)
        remove_record(p->steps[where].render, at + n);
}

static void cut_entries(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    while (n--)
        remove_entry(p->steps[where].render, at + n);
}

/* How many things `edit` works on in *p (steps, records, entries). */
typedef uint32_t count_fn(const struct wk_prog *p, uint32_t where);

static uint32_t count_steps(const struct wk_prog *p, uint32_t where)
{
    (void)where;
    return p->step_count;
}

static uint32_t count_records(const struct wk_prog *p, uint32_t where)
{
    const struct wk_prog_render *r = p->steps[where].render;
    return r && !r->raw ? r->record_count : 0;
}

static uint32_t count_entries(const struct wk_prog *p, uint32_t where)
{
    const struct wk_prog_render *r = p->steps[where].render;
    return r ? r->list_length : 0;
}

/* Chunked removal, halving the chunk (delta debugging's complement tests). */
static void ddmin(struct mini *m, struct wk_prog **best, count_fn *count, edit_fn *cut, uint32_t where)
{
    uint32_t chunk = count(*best, where) / 2;
    chunk = chunk ? chunk : 1;
    while (count(*best, where) > 0 && m->tests < MINIMIZE_MAX_TESTS) {
        int removed = 0;
        for (uint32_t at = 0; at < count(*best, where);) {
            uint32_t n = count(*best, where) - at < chunk ? count(*best, where) - at : chunk;
            if (try_edit(m, best, cut, where, at, n))
                removed = 1;
            else
                at += n;
        }
        if (chunk == 1 && !removed)
            break;
        if (!removed || chunk > count(*best, where))
            chunk = chunk / 2 ? chunk / 2 : 1;
    }
}

/* Render records and list entries of every render step. */
static void reduce_renders(struct mini *m, struct wk_prog **best)
{
    for (uint32_t i = 0; i < (*best)->step_count; i++) {
        if ((*best)->steps[i].kind != WK_STEP_RENDER || !(*best)->steps[i].render)
            continue;
        ddmin(m, best, count_records, cut_records, i);
        ddmin(m, best, count_entries, cut_entries, i);
    }
}

/* Patch payloads: locations, list entries and DMA bytes, each removal
 * keeping the others' meaning (ranges and indices follow). */
static void remove_location(struct wk_prog_patch *g, uint32_t at)
{
    memmove(&g->patch[at], &g->patch[at + 1], (g->patch_length - at - 1) * sizeof(g->patch[0]));
    g->patch_length--;
    if (at < g->patch_start)
        g->patch_start--;
    else if (at < g->patch_start + g->patch_count)
        g->patch_count--;
}

static void remove_patch_entry(struct wk_prog_patch *g, uint32_t at)
{
    memmove(&g->list[at], &g->list[at + 1], (g->list_length - at - 1) * sizeof(g->list[0]));
    g->list_length--;
    for (uint32_t i = 0; i < g->patch_length; i++)
        shift(&g->patch[i].allocation_index, at);
}

#define DMA_BLOCK 16u

/* The k-th 16-byte block of the DMA content holding a non-zero byte. */
static uint32_t nonzero_block(const struct wk_prog_patch *g, uint32_t k)
{
    for (uint32_t b = 0; b * DMA_BLOCK < g->dma_length; b++) {
        uint32_t end = (b + 1) * DMA_BLOCK < g->dma_length ? (b + 1) * DMA_BLOCK : g->dma_length;
        int any = 0;
        for (uint32_t i = b * DMA_BLOCK; i < end && !any; i++)
            any = g->dma[i] != 0;
        if (any && k-- == 0)
            return b;
    }
    return UINT32_MAX;
}

static uint32_t count_dma_blocks(const struct wk_prog *p, uint32_t where)
{
    const struct wk_prog_patch *g = p->steps[where].patch;
    uint32_t n = 0;
    while (g && nonzero_block(g, n) != UINT32_MAX)
        n++;
    return n;
}

/* "Removing" a block zeroes it: offsets in the buffer keep their meaning. */
static void cut_dma_blocks(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    struct wk_prog_patch *g = p->steps[where].patch;
    uint32_t blocks[WK_PROG_MAX_DMA / DMA_BLOCK], k = 0;
    for (; k < n; k++)
        blocks[k] = nonzero_block(g, at + k);
    while (k--) {
        uint32_t from = blocks[k] * DMA_BLOCK, to = from + DMA_BLOCK < g->dma_length ? from + DMA_BLOCK : g->dma_length;
        if (blocks[k] != UINT32_MAX)
            memset(g->dma + from, 0, to - from);
    }
    wk_prog_patch_trim(g);
}

static uint32_t count_locations(const struct wk_prog *p, uint32_t where)
{
    return p->steps[where].patch ? p->steps[where].patch->patch_length : 0;
}

static void cut_locations(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    while (n--)
        remove_location(p->steps[where].patch, at + n);
}

static uint32_t count_patch_entries(const struct wk_prog *p, uint32_t where)
{
    return p->steps[where].patch ? p->steps[where].patch->list_length : 0;
}

static void cut_patch_entries(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    while (n--)
        remove_patch_entry(p->steps[where].patch, at + n);
}

static void reduce_patch(struct mini *m, struct wk_prog **best, uint32_t i)
{
    ddmin(m, best, count_locations, cut_locations, i);
    ddmin(m, best, count_patch_entries, cut_patch_entries, i);
    ddmin(m, best, count_dma_blocks, cut_dma_blocks, i);
}

static void reduce_patches(struct mini *m, struct wk_prog **best)
{
    for (uint32_t i = 0; i < (*best)->step_count; i++)
        if ((*best)->steps[i].kind == WK_STEP_PATCH && (*best)->steps[i].patch)
            reduce_patch(m, best, i);
}

/* ------------------------------------------------------------------ */
/* Minimizing: clearing fields                                          */
/* ------------------------------------------------------------------ */

struct field {
    void *ptr;
    size_t size;
};

#define F(x) (struct field){ &(x), sizeof(x) }

static uint32_t render_fields(struct wk_prog_render *r, struct field *f, uint32_t n)
{
    f[n++] = F(r->no_prepatch_info);
    for (uint32_t i = 0; i < r->list_length && i < WK_PROG_MAX_LIST; i++)
        f[n++] = F(r->list_write[i]);
    for (uint32_t i = 0; !r->raw && i < r->record_count && i < WK_PROG_MAX_RECORDS; i++) {
        struct wk_prog_record *c = &r->records[i];
        struct field more[] = { F(c->src.list_index), F(c->src.offset), F(c->dst.list_index), F(c->dst.offset),
                                F(c->size), F(c->value), F(c->width), F(c->height), F(c->src_pitch),
                                F(c->dst_pitch) };
        memcpy(f + n, more, sizeof(more));
        n += (uint32_t)(sizeof(more) / sizeof(more[0]));
    }
    return n;
}

static uint32_t patch_fields(struct wk_prog_patch *g, struct field *f, uint32_t n)
{
    f[n++] = F(g->start);
    for (uint32_t i = 0; i < g->list_length && i < WK_PROG_MAX_PATCH_LIST; i++) {
        struct wk_prog_patch_entry *e = &g->list[i];
        struct field more[] = { F(e->allocation), F(e->write), F(e->resident), F(e->segment_id), F(e->address) };
        memcpy(f + n, more, sizeof(more));
        n += (uint32_t)(sizeof(more) / sizeof(more[0]));
    }
    for (uint32_t i = 0; i < g->patch_length && i < WK_PROG_MAX_PATCHES; i++) {
        struct wk_prog_patch_location *l = &g->patch[i];
        struct field more[] = { F(l->allocation_index), F(l->slot_id), F(l->reserved), F(l->driver_id),
                                F(l->allocation_offset), F(l->patch_offset), F(l->split_offset) };
        memcpy(f + n, more, sizeof(more));
        n += (uint32_t)(sizeof(more) / sizeof(more[0]));
    }
    return n;
}

/* The fields of a step worth trying at zero (not its kind or status). */
static uint32_t step_fields(struct wk_step *s, struct field *f)
{
    struct field all[] = { F(s->device), F(s->context), F(s->allocation), F(s->flags), F(s->segment),
                           F(s->offset), F(s->value), F(s->address), F(s->relative), F(s->write),
                           F(s->alloc.device), F(s->alloc.size), F(s->alloc.alignment), F(s->alloc.preferred),
                           F(s->alloc.hinted_bank), F(s->alloc.supported_set), F(s->alloc.eviction_set),
                           F(s->alloc.flags), F(s->alloc.priority), F(s->expect_resident), F(s->expect_bank),
                           F(s->has_offset), F(s->has_bank), F(s->op), F(s->min), F(s->max), F(s->has_max),
                           F(s->field), F(s->size), F(s->has_count), F(s->count) };
    uint32_t n = (uint32_t)(sizeof(all) / sizeof(all[0]));
    memcpy(f, all, sizeof(all));
    if (s->render)
        n = render_fields(s->render, f, n);
    if (s->patch)
        n = patch_fields(s->patch, f, n);
    return n;
}

static int is_zero(const struct field *f)
{
    const unsigned char *b = f->ptr;
    for (size_t i = 0; i < f->size; i++)
        if (b[i])
            return 0;
    return 1;
}

static void clear_list(struct mini *m, struct wk_prog *best, const struct field *list, uint32_t n)
{
    for (uint32_t k = 0; k < n && m->tests < MINIMIZE_MAX_TESTS; k++) {
        unsigned char saved[8];
        if (is_zero(&list[k]))
            continue;
        memcpy(saved, list[k].ptr, list[k].size);
        memset(list[k].ptr, 0, list[k].size);
        if (!keeps(m, best))
            memcpy(list[k].ptr, saved, list[k].size);
    }
}

#define MAX_FIELDS (64 + WK_PROG_MAX_LIST + 10 * WK_PROG_MAX_RECORDS + 5 * WK_PROG_MAX_PATCH_LIST + \
                    7 * WK_PROG_MAX_PATCHES + 1)

/* Each non-zero field set to 0, kept at 0 when the signature holds. */
static void clear_fields(struct mini *m, struct wk_prog *best)
{
    static struct field f[MAX_FIELDS];
    struct field head[] = { F(best->has_rewrite), F(best->vidmm.paging_buffer_size), F(best->vidmm.transfer_chunk),
                            F(best->vidmm.split_submissions), F(best->vidmm.query_segment_version) };
    clear_list(m, best, head, (uint32_t)(sizeof(head) / sizeof(head[0])));
    for (uint32_t i = 0; i < best->step_count && m->tests < MINIMIZE_MAX_TESTS; i++)
        clear_list(m, best, f, step_fields(&best->steps[i], f));
}

/* fuzz_patch inputs: the patch step's entries, bytes and fields only, so
 * the program keeps the harness's shape (wk_patch_input_from_prog). */
static void minimize_patch_step(struct mini *m, struct wk_prog **best)
{
    static struct field f[MAX_FIELDS];
    uint32_t last = (*best)->step_count - 1;
    m->problems = yaml_problems(*best);
    reduce_patch(m, best, last);
    struct wk_prog_patch *g = (*best)->steps[last].patch;
    clear_list(m, *best, f, patch_fields(g, f, 0));
    wk_prog_patch_trim(g);
}

/* fuzz_render inputs: the render step's user patch locations, list
 * entries and command-buffer words, then its fields, so the program keeps
 * the harness's shape (wk_render_input_from_prog). */
static uint32_t count_user_patches(const struct wk_prog *p, uint32_t where)
{
    return p->steps[where].render ? p->steps[where].render->patch_length : 0;
}

static void cut_user_patches(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    struct wk_prog_render *r = p->steps[where].render;
    memmove(&r->patch[at], &r->patch[at + n], (r->patch_length - at - n) * sizeof(r->patch[0]));
    r->patch_length -= n;
}

/* The raw command buffer in 4-byte words (umd.h's records are made of
 * them); the last word may be short. */
static uint32_t count_words(const struct wk_prog *p, uint32_t where)
{
    const struct wk_prog_render *r = p->steps[where].render;
    return r && r->raw ? (r->raw_length + 3) / 4 : 0;
}

static void cut_words(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    struct wk_prog_render *r = p->steps[where].render;
    uint32_t from = 4 * at, to = 4 * (at + n) < r->raw_length ? 4 * (at + n) : r->raw_length;
    memmove(r->raw_bytes + from, r->raw_bytes + to, r->raw_length - to);
    r->raw_length -= to - from;
}

#define RENDER_FIELDS (2 + 2 * WK_PROG_MAX_LIST + 7 * WK_PROG_MAX_USER_PATCHES + WK_PROG_MAX_COMMAND / 4)

/* The context's kind (plain or GDI), then the render's fields and words. */
static uint32_t render_input_fields(struct wk_prog *p, struct field *f)
{
    struct wk_prog_render *r = p->steps[p->step_count - 1].render;
    uint32_t n = 0;
    f[n++] = F(p->steps[1].flags);
    f[n++] = F(r->no_prepatch_info);
    for (uint32_t i = 0; i < r->list_length; i++) {
        f[n++] = F(r->list_alloc[i]);
        f[n++] = F(r->list_write[i]);
    }
    for (uint32_t i = 0; i < r->patch_length; i++) {
        struct wk_prog_patch_location *l = &r->patch[i];
        struct field more[] = { F(l->allocation_index), F(l->slot_id), F(l->reserved), F(l->driver_id),
                                F(l->allocation_offset), F(l->patch_offset), F(l->split_offset) };
        memcpy(f + n, more, sizeof(more));
        n += (uint32_t)(sizeof(more) / sizeof(more[0]));
    }
    for (uint32_t at = 0; at < r->raw_length; at += 4)
        f[n++] = (struct field){ r->raw_bytes + at, r->raw_length - at < 4 ? r->raw_length - at : 4 };
    return n;
}

static void minimize_render_step(struct mini *m, struct wk_prog **best)
{
    static struct field f[RENDER_FIELDS];
    uint32_t last = (*best)->step_count - 1;
    m->problems = yaml_problems(*best);
    ddmin(m, best, count_user_patches, cut_user_patches, last);
    ddmin(m, best, count_entries, cut_entries, last);
    ddmin(m, best, count_words, cut_words, last);
    clear_list(m, *best, f, render_input_fields(*best, f));
}

/* The whole reduction; *best is replaced by the smallest program found. */
static void minimize_prog(struct mini *m, struct wk_prog **best)
{
    m->problems = yaml_problems(*best);
    ddmin(m, best, count_steps, cut_steps, 0);
    reduce_renders(m, best);
    reduce_patches(m, best);
    ddmin(m, best, count_steps, cut_steps, 0);
    clear_fields(m, *best);
}

/* Sets up the reduction of p: its signature on the driver, and whether the
 * reference must keep passing. Returns -1 (printed) when p passes. */
static int mini_init(struct mini *m, const struct opts *o, const struct wk_prog *p)
{
    memset(m, 0, sizeof(*m));
    m->o = o;
    run_program(p, o->driver, o, &m->want);
    if (m->want.cls == CLS_PASS) {
        fprintf(stderr, "wddmkit: %s passes on %s: no finding to keep while reducing\n", o->path,
                o->driver ? o->driver : "the reference driver");
        return -1;
    }
    if (o->driver) {
        static struct outcome ref;
        run_program(p, NULL, o, &ref);
        m->need_ref_pass = ref.cls == CLS_PASS;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* fuzz_patch inputs as programs                                        */
/* ------------------------------------------------------------------ */

struct ctxinfo {
    int ok;
    struct wk_render_target t;   /* the plain context's info, and the GDI context's */
    char why[320];
};

/* Child: the DXGK_CONTEXTINFO of a plain context on the driver (NULL: the
 * reference), which fuzz_patch folds its ranges by, and of a GDI context
 * when the driver makes one (fuzz_render's fixture renders there for
 * inputs that ask, fuzz/fuzz_driver.c). */
static void ctxinfo_child(const void *arg, int fd)
{
    const char *driver = arg;
    static struct ctxinfo c;
    struct wk_vidmm_config cfg;
    struct wk_vidmm *vm = NULL;
    uint32_t dev = 0, ctx = 0, gdi = 0;
    memset(&cfg, 0, sizeof(cfg));
    memset(&c, 0, sizeof(c));
    wk_status st = wk_vidmm_create(&cfg, &vm);
    if (st == WK_OK)
        st = driver ? wk_vidmm_load(vm, driver) : wk_vidmm_attach(vm, wk_refdriver_DriverEntry);
    if (st == WK_OK)
        st = wk_vidmm_start(vm);
    if (st == WK_OK)
        st = wk_vidmm_create_device(vm, 0, &dev);
    if (st == WK_OK)
        st = wk_vidmm_create_context(vm, dev, 0, &ctx);
    if (st == WK_OK)
        st = wk_vidmm_context_info(vm, ctx, &c.t.info);
    c.ok = st == WK_OK;
    c.t.gdi = c.ok && wk_vidmm_create_context(vm, dev, 0x2 /* GdiContext */, &gdi) == WK_OK &&
              wk_vidmm_context_info(vm, gdi, &c.t.gdi_info) == WK_OK;
    if (!c.ok)
        snprintf(c.why, sizeof(c.why), "%s: %.280s", wk_status_name(st), vm ? wk_vidmm_last_error(vm) : "");
    wk_vidmm_destroy(vm);
    wk_write_all(fd, &c, sizeof(c));
}

/* The harnesses whose inputs are the fixture and one last step (patch or
 * render): how an input becomes that program and back, and how the last
 * step is reduced so that the program keeps the harness's shape. */
struct fixture_harness {
    const char *name;
    int (*from_prog)(const struct wk_prog *p, uint8_t **data, size_t *size, char *why, size_t why_size);
    void (*reduce)(struct mini *m, struct wk_prog **best);
};

static void minimize_render_step(struct mini *m, struct wk_prog **best);

static const struct fixture_harness fixture_harnesses[] = {
    { "fuzz_patch", wk_patch_input_from_prog, minimize_patch_step },
    { "fuzz_render", wk_render_input_from_prog, minimize_render_step },
};

static const struct fixture_harness *fixture_harness_of(const char *harness)
{
    for (size_t i = 0; i < sizeof(fixture_harnesses) / sizeof(fixture_harnesses[0]); i++)
        if (strcmp(fixture_harnesses[i].name, harness) == 0)
            return &fixture_harnesses[i];
    return NULL;
}

static int to_prog(const struct fixture_harness *h, const uint8_t *data, size_t size, const struct ctxinfo *c,
                   struct wk_prog *p)
{
    if (strcmp(h->name, "fuzz_patch") == 0)
        return wk_patch_input_to_prog(data, size, &c->t.info, p);
    return wk_render_input_to_prog(data, size, &c->t, p);
}

static void describe_input(const struct fixture_harness *h, const struct wk_prog *p, size_t bytes,
                           const struct ctxinfo *c)
{
    const struct wk_step *s = &p->steps[p->step_count - 1];
    if (s->patch)
        printf("input: %s: fuzz_patch input, %zu bytes, as a program: the harness's fixture and one patch step "
               "(DMA buffer %u bytes, patch list %u entries)\n", h->name, bytes, c->t.info.DmaBufferSize,
               c->t.info.PatchLocationListSize);
    else
        printf("input: %s: fuzz_render input, %zu bytes, as a program: the harness's fixture (%s context) and one "
               "render step (list %u entries, user patch list %u entries, command buffer %u bytes)\n", h->name,
               bytes, p->steps[1].flags & 0x2 ? "a GDI" : "a plain", s->render->list_length, s->render->patch_length,
               s->render->raw_length);
}

/* fuzz_render accepts a Render that refuses a bad buffer (an error status,
 * no violation: fuzz/fuzz_render.c), so the render step expects what the
 * reference answers: the program then passes on the reference and fails
 * on a driver exactly where it breaks a rule (or answers otherwise). */
static void expect_reference_status(struct wk_prog *p, const struct opts *op)
{
    static struct calibration c;
    struct job j = { p, NULL, op->seed };
    struct outcome o;
    run_child(calibrate_child, &j, op->timeout_ms, &c, sizeof(c), &o);
    if (o.answered && o.cls == CLS_PASS && c.started && c.steps == p->step_count)
        p->steps[p->step_count - 1].expect_status = (wk_status)c.status[p->step_count - 1];
}

/* A fuzz_patch or fuzz_render file as the program that makes its call,
 * folded for the context of --driver (else the reference); NULL after
 * printing why. */
static struct wk_prog *load_fixture_input(const struct opts *o, const struct fixture_harness *h, size_t *bytes)
{
    static struct ctxinfo c;
    struct outcome out;
    run_child(ctxinfo_child, o->driver, o->timeout_ms, &c, sizeof(c), &out);
    if (!out.answered || !c.ok) {
        fprintf(stderr, "wddmkit: %s: cannot read the DXGK_CONTEXTINFO %s folds by: %s\n",
                o->driver ? o->driver : "the reference driver", h->name,
                out.answered ? c.why : "the driver did not start");
        return NULL;
    }
    uint8_t *data = NULL;
    if (wk_cli_read_file(o->path, PROG_FILE_LIMIT, &data, bytes) != WK_OK)
        return NULL;
    struct wk_prog *p = malloc(sizeof(*p));
    if (!p || to_prog(h, data, *bytes, &c, p) != 0) {
        fprintf(stderr, "wddmkit: %s: out of memory\n", o->path);
        free(p);
        p = NULL;
    }
    free(data);
    if (p && p->steps[p->step_count - 1].render)
        expect_reference_status(p, o);
    if (p)
        describe_input(h, p, *bytes, &c);
    return p;
}

/* The minimized program back in the harness's format (malloc'd), or NULL. */
static uint8_t *input_bytes(const struct fixture_harness *h, const struct wk_prog *p, size_t *n)
{
    uint8_t *data = NULL;
    char why[200];
    if (h->from_prog(p, &data, n, why, sizeof(why)) != 0)
        fprintf(stderr, "wddmkit: the minimized program has no %s form: %s\n", h->name, why);
    return data;
}

/* What the reduction did to the last step, for the summary line. */
static void reduction_text(const struct wk_prog *before, const struct wk_prog *after, char *buf, size_t size)
{
    const struct wk_step *a = &before->steps[before->step_count - 1], *b = &after->steps[after->step_count - 1];
    buf[0] = '\0';
    if (a->patch && b->patch)
        snprintf(buf, size, ": patch locations %u -> %u, list entries %u -> %u, DMA %u -> %u bytes",
                 a->patch->patch_length, b->patch->patch_length, a->patch->list_length, b->patch->list_length,
                 a->patch->dma_length, b->patch->dma_length);
    if (a->render && b->render)
        snprintf(buf, size, ": list entries %u -> %u, user patch locations %u -> %u, command buffer %u -> %u bytes",
                 a->render->list_length, b->render->list_length, a->render->patch_length, b->render->patch_length,
                 a->render->raw_length, b->render->raw_length);
}

static int minimize_fixture_input(const struct opts *o, const struct fixture_harness *h, const char *out)
{
    size_t bytes = 0, n = 0;
    struct wk_prog *p = load_fixture_input(o, h, &bytes), *before = NULL;
    static struct mini m;
    if (!p || mini_init(&m, o, p) != 0) {
        prog_del(p);
        return p ? 1 : 2;
    }
    before = prog_dup(p);
    printf("signature: %s: %s\n", cls_word[m.want.cls], m.want.sig);
    h->reduce(&m, &p);
    uint8_t *data = input_bytes(h, p, &n);
    int code = data && save_bytes(data, n, out) == 0 ? 0 : 2;
    char what[200] = "";
    if (before)
        reduction_text(before, p, what, sizeof(what));
    printf("minimized: %zu -> %zu bytes%s (%u test runs%s)\n", bytes, n, what, m.tests,
           m.tests >= MINIMIZE_MAX_TESTS ? ", budget reached" : "");
    if (code == 0)
        printf("wrote %s\n", out);
    wk_prog_dump(p, stdout);
    free(data);
    prog_del(before);
    prog_del(p);
    return code;
}

/* ------------------------------------------------------------------ */
/* Minimizing the inputs of the byte harnesses                          */
/* ------------------------------------------------------------------ */

struct bytes_mini {
    const struct opts *o;
    const char *harness;
    struct outcome want;              /* the signature to keep */
    char try_path[4200];              /* where each candidate is written for the replay binary */
    uint32_t tests;
};

/* wk_bytes_keep_fn: the candidate, replayed, has the same signature. */
static int bytes_keep(void *user, const uint8_t *data, size_t n)
{
    struct bytes_mini *m = user;
    if (m->tests >= MINIMIZE_MAX_TESTS)
        return 0;
    m->tests++;
    FILE *f = fopen(m->try_path, "wb");
    int written = f && fwrite(data, 1, n, f) == n;
    if (f && fclose(f) != 0)
        written = 0;
    if (!written)
        return 0;
    static struct outcome got;
    run_replay(m->harness, m->try_path, m->o->driver, m->o->timeout_ms, &got);
    return same_result(&got, &m->want);
}

/* fuzz_gpu_decode and fuzz_spec inputs (and any other harness replayed by
 * its binary): lines of YAML text first, then bytes, then DMA-buffer words
 * at zero, each candidate replayed by <harness>_replay (ddmin_bytes.c). */
static int minimize_bytes(const struct opts *o, const char *harness, const char *out)
{
    static struct bytes_mini m;
    memset(&m, 0, sizeof(m));
    m.o = o;
    m.harness = harness;
    run_replay(harness, o->path, o->driver, o->timeout_ms, &m.want);
    if (m.want.cls == CLS_ERROR) {
        fprintf(stderr, "wddmkit minimize: %s: %s%s%s\n", o->path, m.want.sig, m.want.detail[0] ? ": " : "",
                m.want.detail);
        return 2;
    }
    if (m.want.cls == CLS_PASS) {
        fprintf(stderr, "wddmkit: %s passes through %s_replay: no finding to keep while reducing\n", o->path, harness);
        return 1;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_cli_read_file(o->path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return 2;
    printf("signature: %s: %s\n", cls_word[m.want.cls], m.want.sig);
    snprintf(m.try_path, sizeof(m.try_path), "%s.try", out);
    size_t n = size;
    if (strcmp(harness, "fuzz_spec") == 0)
        n = wk_ddmin_bytes(data, n, 1, bytes_keep, &m);
    n = wk_ddmin_bytes(data, n, 0, bytes_keep, &m);
    if (strcmp(harness, "fuzz_gpu_decode") == 0)
        wk_ddmin_zero_words(data, n, bytes_keep, &m);
    remove(m.try_path);
    FILE *f = fopen(out, "wb");
    int code = f && fwrite(data, 1, n, f) == n ? 0 : 2;
    if (f && fclose(f) != 0)
        code = 2;
    free(data);
    if (code != 0) {
        fprintf(stderr, "wddmkit minimize: cannot write %s: %s\n", out, strerror(errno));
        return code;
    }
    printf("minimized: %zu -> %zu bytes (%u test runs%s)\n", size, n, m.tests,
           m.tests >= MINIMIZE_MAX_TESTS ? ", budget reached" : "");
    printf("wrote %s\n", out);
    struct opts shown = *o;
    shown.path = out;
    print_decoded(&shown, harness);
    return 0;
}

int wk_cli_minimize(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, OPT_DRIVER | OPT_OUT | OPT_SEED | OPT_TIMEOUT | OPT_CALIBRATE | OPT_HARNESS, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    char out[4096];
    if (snprintf(out, sizeof(out), "%s%s", o.out ? o.out : o.path, o.out ? "" : ".min") >= (int)sizeof(out))
        return usage_error("output path too long");
    const char *harness = harness_of(&o, o.path);
    if (fixture_harness_of(harness))
        return minimize_fixture_input(&o, fixture_harness_of(harness), out);
    if (!is_prog(harness))
        return minimize_bytes(&o, harness, out);
    size_t bytes = 0;
    struct wk_prog *p = prepare(&o, o.path, 0, &bytes);
    static struct mini m;
    if (!p || mini_init(&m, &o, p) != 0) {
        prog_del(p);
        return p ? 1 : 2;
    }
    uint32_t steps = p->step_count;
    printf("signature: %s: %s\n", cls_word[m.want.cls], m.want.sig);
    minimize_prog(&m, &p);
    int code = save_program(p, out) == 0 ? 0 : 2;
    printf("minimized: %u -> %u steps, %zu -> %zu bytes (%u test runs%s)\n", steps, p->step_count, bytes,
           encoded_size(p), m.tests, m.tests >= MINIMIZE_MAX_TESTS ? ", budget reached" : "");
    if (code == 0)
        printf("wrote %s\n", out);
    wk_prog_dump(p, stdout);
    prog_del(p);
    return code;
}

/* ------------------------------------------------------------------ */
/* promote                                                              */
/* ------------------------------------------------------------------ */

static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int refuse(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("wddmkit promote: refused: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n", stderr);
    return 1;
}

static const char *promote_root(void)
{
    const char *root = getenv("WK_PROMOTE_ROOT");
    return root && *root ? root : WK_SOURCE_DIR;
}

/* mkdir -p root/<parts...> (root must exist); the folder's path in `path`. */
static int make_dirs(const char *root, const char *const *parts, char *path, size_t size)
{
    size_t n = (size_t)snprintf(path, size, "%s", root);
    for (; *parts && n < size; parts++) {
        n += (size_t)snprintf(path + n, size - n, "/%s", *parts);
        if (n >= size || (mkdir(path, 0777) != 0 && errno != EEXIST)) {
            fprintf(stderr, "wddmkit promote: cannot create %.4000s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    return n < size ? 0 : -1;
}

static int name_ok(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len > 63 || n[0] == '-' || n[len - 1] == '-')
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= '0' && n[i] <= '9') || n[i] == '-'))
            return 0;
    return 1;
}

/* <rule in lower case>-<FNV-1a of the input>, e.g. render-patch-002-1a2b3c4d. */
static void derive_name(const struct outcome *o, const uint8_t *data, size_t size, char *name, size_t cap)
{
    uint32_t h = wk_fnv1a32(data, size);
    char base[32];
    size_t n = 0;
    const char *from = o->r.rule[0] ? o->r.rule : cls_word[o->cls];
    for (; from[n] && n + 1 < sizeof(base); n++)
        base[n] = (char)(from[n] >= 'A' && from[n] <= 'Z' ? from[n] - 'A' + 'a' : from[n]);
    base[n] = '\0';
    snprintf(name, cap, "%s-%08x", base, h);
}

/* Writes bytes to root/<dir>/<file> through a temporary; an existing file
 * with other content is not replaced. */
static int write_new_file(const char *dir, const char *file, const void *data, size_t size)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    uint8_t *old = NULL;
    size_t old_size = 0;
    if (access(path, F_OK) == 0) {
        int same = wk_cli_read_file(path, PROG_FILE_LIMIT, &old, &old_size) == WK_OK && old_size == size &&
                   memcmp(old, data, size) == 0;
        free(old);
        if (same) {
            printf("  unchanged %s\n", path);
            return 0;
        }
        fprintf(stderr, "wddmkit promote: %s exists with other content: choose another --name\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    ok = (f && fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "wddmkit promote: %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    printf("  wrote %s\n", path);
    return 0;
}

/* A one-line, printable copy for YAML strings and comments. */
static void printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7F)
            *s = '?';
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The YAML text of the case (malloc'd), or NULL. */
static char *compose_yaml(const struct wk_prog *p, const struct opts *o, const char *harness,
                          const struct outcome *sig, const char *name, size_t *len)
{
    char id[128], describe[256], file[96], drv[96];
    snprintf(id, sizeof(id), "regressions.%s", name);
    snprintf(file, sizeof(file), "%s", base_name(o->path));
    snprintf(drv, sizeof(drv), "%s", base_name(o->driver));
    printable(file);
    printable(drv);
    snprintf(describe, sizeof(describe), "Regression: %.150s; promoted from %.60s", sig->sig, file);
    printable(describe);
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    const char *found_by = harness_of(o, o->path); /* fuzz_paging: its program is a fuzz_prog input */
    fprintf(f, "# Promoted by `wddmkit promote` from %s (%s). It fails on the driver it was\n"
               "# found with (%s: %.120s) and passes on the reference driver.\n"
               "# The input: corpus/%s/regressions/%s.bin\n", file, found_by, drv, sig->sig, harness, name);
    if (strcmp(found_by, harness) != 0)
        fprintf(f, "# As found: corpus/%s/regressions/%s.bin\n", found_by, name);
    int st = wk_prog_write_yaml(p, "regressions", id, describe, f);
    if (fclose(f) != 0 || st != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The case read back from its YAML must fail on the driver with the same
 * signature and pass on the reference. */
static int verify_yaml(const char *text, size_t len, const struct opts *o, const struct outcome *want)
{
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 4);
    int ok = wk_spec_load_buffer(&set, "promoted.yaml", (const uint8_t *)text, len, &d) == WK_OK && set.count == 1;
    if (!ok) {
        wk_diag_print(&d, stderr);
        refuse("the YAML written does not load back (a writer bug)");
    }
    static struct outcome bad, good;
    int code = ok ? 0 : 1;
    if (ok) {
        run_program(set.progs[0], o->driver, o, &bad);
        run_program(set.progs[0], NULL, o, &good);
        if (!same_result(&bad, want))
            code = refuse("the YAML case gives '%s: %s' on %s, not the finding", cls_word[bad.cls], bad.sig,
                          o->driver);
        else if (good.cls != CLS_PASS)
            code = refuse("the YAML case does not pass on the reference driver: %s: %s", cls_word[good.cls],
                          good.sig);
    }
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    return code;
}

/* A positive case can carry neither the answer rewrite nor what YAML
 * cannot say: drop them while the finding stays. */
static int make_promotable(struct mini *m, struct wk_prog **p)
{
    if ((*p)->has_rewrite) {
        (*p)->has_rewrite = 0;
        if (!keeps(m, *p))
            return refuse("the finding needs the answer rewrite '%s'; a regression case must fail on the driver "
                          "as it is", (*p)->rewrite.mutation);
    }
    char why[256];
    int32_t first = 0;
    while (wk_prog_yaml_check(*p, &first, why, sizeof(why)) > 0) {
        if (first < 0 || !try_edit(m, p, cut_steps, 0, (uint32_t)first, 1))
            return refuse("no YAML form: %s", why);
    }
    (*p)->trips[0] = '\0';
    return 0;
}

static int write_promoted(const char *harness, const uint8_t *bin, size_t n, const char *yaml, size_t yaml_len,
                          const char *name)
{
    const char *const bin_dir[] = { "corpus", harness, "regressions", NULL };
    static const char *const yaml_dir[] = { "specs", "regressions", NULL };
    char dir[4200], file[128];
    snprintf(file, sizeof(file), "%s.bin", name);
    int st = make_dirs(promote_root(), bin_dir, dir, sizeof(dir));
    if (st == 0)
        st = write_new_file(dir, file, bin, n);
    snprintf(file, sizeof(file), "%s.yaml", name);
    if (st == 0)
        st = make_dirs(promote_root(), yaml_dir, dir, sizeof(dir));
    if (st == 0)
        st = write_new_file(dir, file, yaml, yaml_len);
    return st == 0 ? 0 : 2;
}

/* The reduction's start: a failure on the driver that the reference
 * passes; 0, or the exit code after printing why not. */
static int promotable_finding(struct mini *m, const struct opts *o, const struct wk_prog *p)
{
    if (mini_init(m, o, p) != 0)
        return 1;
    if (m->want.cls != CLS_FAIL)
        return refuse("the input gives '%s: %s' on %s; only a failure (a rule violated, a check failed) becomes "
                      "a case that fails there", cls_word[m->want.cls], m->want.sig, o->driver);
    if (!m->need_ref_pass)
        return refuse("the reference driver does not pass the input, so no case can pass there");
    printf("signature: %s: %s\n", cls_word[m->want.cls], m->want.sig);
    return 0;
}

/* Names, composes, verifies and writes the YAML case of `p` (minimized and
 * promotable) with the regression input `bin` of `harness`; the name it
 * chose in name[80]. */
static int write_case(const struct opts *o, const char *harness, const struct mini *m, struct wk_prog *p,
                      const uint8_t *bin, size_t n, char name[80])
{
    p->cover_count = 0;
    if (m->want.r.rule[0] && wk_rule_find(m->want.r.rule)) {
        snprintf(p->covers[0], sizeof(p->covers[0]), "%s", m->want.r.rule);
        p->cover_count = 1;
    }
    size_t yaml_len = 0;
    derive_name(&m->want, bin, n, name, 80);
    if (o->name)
        snprintf(name, 80, "%s", o->name);
    char *yaml = compose_yaml(p, o, harness, &m->want, name, &yaml_len);
    if (!yaml)
        return refuse("the program could not be written as YAML");
    int code = verify_yaml(yaml, yaml_len, o, &m->want) == 0 ? 0 : 1;
    if (code == 0) {
        printf("verified: the YAML case fails on %s (%s) and passes on the reference driver\n", o->driver, m->want.sig);
        code = write_promoted(harness, bin, n, yaml, yaml_len, name);
    }
    free(yaml);
    return code;
}

/* Minimize, make promotable, name (in name[80]), compose, verify, write. */
static int promote_prog(const struct opts *o, struct wk_prog **p, size_t bytes, char name[80])
{
    static struct mini m;
    int code = promotable_finding(&m, o, *p);
    if (code)
        return code;
    uint32_t steps = (*p)->step_count;
    minimize_prog(&m, p);
    if (make_promotable(&m, p) != 0)
        return 1;
    printf("minimized: %u -> %u steps, %zu -> %zu bytes (%u test runs)\n", steps, (*p)->step_count, bytes,
           encoded_size(*p), m.tests);
    size_t n = encoded_size(*p);
    uint8_t *bin = malloc(n ? n : 1);
    if (!bin)
        return 2;
    wk_prog_encode(*p, bin, n);
    code = write_case(o, "fuzz_prog", &m, *p, bin, n, name);
    free(bin);
    return code;
}

/* The minimized input, replayed by the harness itself: the finding on the
 * driver (the same rule), a pass on the reference. Skipped, with a note,
 * when this build has no replay binary. */
static int verify_input_bytes(const struct opts *o, const char *harness, const uint8_t *bin, size_t n,
                              const struct mini *m)
{
    char tmp[] = "/tmp/wddmkit-promote-XXXXXX", bin_path[4200];
    static struct outcome bad, good;
    if (wk_cli_replay_binary(harness, bin_path, sizeof(bin_path)) != 0) {
        printf("  note: no %s_replay in this build: the input was checked as a program only\n", harness);
        return 0;
    }
    int fd = mkstemp(tmp);
    if (fd < 0 || (close(fd), save_bytes(bin, n, tmp)) != 0)
        return refuse("cannot write a temporary file: %s", strerror(errno));
    run_replay(harness, tmp, o->driver, o->timeout_ms, &bad);
    run_replay(harness, tmp, NULL, o->timeout_ms, &good);
    unlink(tmp);
    if (bad.cls != CLS_FAIL || strcmp(bad.r.rule, m->want.r.rule) != 0 || good.cls != CLS_PASS)
        return refuse("the minimized input gives '%s' on %s and '%s' on the reference through %s_replay "
                      "(wanted %s, then a pass)", bad.sig, o->driver, good.sig, harness, m->want.sig);
    printf("verified: the minimized input fails through %s_replay on %s (%s) and passes on the reference\n",
           harness, o->driver, bad.sig);
    return 0;
}

/* fuzz_patch, fuzz_render: the last step minimized (entries, bytes,
 * fields) as the regression input; a copy reduced step by step as the
 * YAML case. */
static int promote_fixture(const struct opts *o, const struct fixture_harness *h)
{
    static struct mini m;
    size_t bytes = 0, n = 0;
    struct wk_prog *p = load_fixture_input(o, h, &bytes), *q = NULL;
    if (!p)
        return 2;
    int code = promotable_finding(&m, o, p);
    uint8_t *bin = NULL;
    if (code == 0) {
        h->reduce(&m, &p);
        bin = input_bytes(h, p, &n);
        code = !bin ? 2 : verify_input_bytes(o, h->name, bin, n, &m);
    }
    if (code == 0) {
        printf("minimized input: %zu -> %zu bytes (%u test runs)\n", bytes, n, m.tests);
        q = prog_dup(p);
        code = q ? 0 : 2;
    }
    if (code == 0) {
        uint32_t steps = q->step_count;
        ddmin(&m, &q, count_steps, cut_steps, 0);
        code = make_promotable(&m, &q);
        printf("YAML case: %u -> %u steps\n", steps, q->step_count);
    }
    char name[80];
    if (code == 0)
        code = write_case(o, h->name, &m, q, bin, n, name);
    free(bin);
    prog_del(q);
    prog_del(p);
    return code;
}

/* Other harnesses: no program, no YAML; the input itself is the regression. */
static int promote_replay(const struct opts *o, const char *harness)
{
    static struct outcome bad, good;
    run_replay(harness, o->path, o->driver, o->timeout_ms, &bad);
    run_replay(harness, o->path, NULL, o->timeout_ms, &good);
    if (bad.cls == CLS_PASS || bad.cls == CLS_ERROR || good.cls != CLS_PASS)
        return refuse("%s: %s on %s, %s on the reference driver (needs a finding there and a pass here)", o->path,
                      bad.sig, o->driver, good.sig);
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_cli_read_file(o->path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return 2;
    const char *const parts[] = { "corpus", harness, "regressions", NULL };
    char dir[4200], file[128], name[80];
    derive_name(&bad, data, size, name, sizeof(name));
    snprintf(file, sizeof(file), "%s.bin", o->name ? o->name : name);
    int code = make_dirs(promote_root(), parts, dir, sizeof(dir)) == 0 && write_new_file(dir, file, data, size) == 0
                   ? 0 : 2;
    if (code == 0)
        printf("  %s inputs have no step-program form: no YAML case (reduce it first: wddmkit minimize FILE)\n",
               harness);
    free(data);
    return code;
}

/* A fuzz_paging finding promotes as the program the harness ran (its YAML
 * case and corpus/fuzz_prog/regressions/); the input itself also goes to
 * corpus/fuzz_paging/regressions/ under the same name, so ctest replays it
 * through the harness (both adapters, differential) as well. */
static int keep_paging_input(const struct opts *o, const char *name)
{
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_cli_read_file(o->path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return 2;
    char file[128];
    snprintf(file, sizeof(file), "%s.bin", name);
    const char *const parts[] = { "corpus", "fuzz_paging", "regressions", NULL };
    char dir[4200];
    int code = make_dirs(promote_root(), parts, dir, sizeof(dir)) == 0 && write_new_file(dir, file, data, size) == 0
                   ? 0 : 2;
    free(data);
    return code;
}

/* The seed corpora of the promote root, regenerated from its specs/ after
 * a YAML case was added there: the new case's seeds join them, and the
 * committed seeds stay what `wddmkit corpus seed --check` (the ctest
 * fuzz.seeds_current) expects. A failure here leaves the promotion done. */
static void refresh_seeds(void)
{
    char specs[4200], corpus[4200];
    snprintf(specs, sizeof(specs), "%s/specs", promote_root());
    snprintf(corpus, sizeof(corpus), "%s/corpus", promote_root());
    long n = wk_seeds_generate(specs, corpus, stderr);
    if (n < 0)
        fprintf(stderr, "wddmkit promote: the seed corpora were not regenerated (above); when fixed: "
                        "wddmkit corpus seed --specs %s --out %s\n", specs, corpus);
    else
        printf("  seeds: %ld files regenerated under %s from %s\n", n, corpus, specs);
}

int wk_cli_promote(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, OPT_DRIVER | OPT_HARNESS | OPT_NAME | OPT_SEED | OPT_TIMEOUT, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    if (!o.driver)
        return usage_error("promote needs --driver PATH: the driver the input fails on");
    if (o.name && !name_ok(o.name))
        return usage_error("--name: expected 1..63 characters of [a-z0-9-], saw '%s'", o.name);
    const char *harness = harness_of(&o, o.path);
    printf("promote: %s (%s) found with %s\n", o.path, harness, o.driver);
    if (strcmp(harness, "fuzz_hostile") == 0)
        return refuse("%s: a fuzz_hostile finding is a bug in the kit, not in a driver: fix the kit, then add the "
                      "input to corpus/fuzz_hostile/regressions/ (ctest replays it through fuzz_hostile_replay)",
                      o.path);
    if (!is_prog(harness) && !fixture_harness_of(harness))
        return promote_replay(&o, harness); /* no YAML case: the seeds do not change */
    int code = 2;
    if (fixture_harness_of(harness)) {
        code = promote_fixture(&o, fixture_harness_of(harness));
    } else {
        size_t bytes = 0;
        struct wk_prog *p = prepare(&o, o.path, 0, &bytes);
        if (!p)
            return 2;
        char name[80];
        code = promote_prog(&o, &p, bytes, name);
        prog_del(p);
        if (code == 0 && strcmp(harness, "fuzz_paging") == 0)
            code = keep_paging_input(&o, name);
    }
    if (code == 0)
        refresh_seeds();
    return code;
}

/* ------------------------------------------------------------------ */
/* triage                                                               */
/* ------------------------------------------------------------------ */

/* Adds --driver to triage's own arguments and
 * hands the command line to a build that loads that driver, as
 * wddmkit_main does for a --driver typed by hand (cli_driver_build.c).
 * Returns -1 to go on here, else the exit code (2: no build loads it). */
static int triage_with(int argc, char **argv, const char *driver)
{
    char **full = calloc((size_t)argc + 5, sizeof(char *));
    if (!full)
        return -1;
    int n = 0;
    full[n++] = (char *)"wddmkit";
    full[n++] = (char *)"triage";
    for (int i = 0; i < argc; i++)
        full[n++] = argv[i];
    full[n++] = (char *)"--driver";
    full[n++] = (char *)driver;
    full[n] = NULL;
    int rc = wk_cli_hand_over(n, full); /* does not return when another build runs it */
    free(full);
    return rc;
}

/* triage DIR without --driver on a `wddmkit fuzz` crash folder: the
 * campaign's driver (campaign.txt), else every crash of a driver-only bug
 * replayed as a pass on the reference driver and the note below blamed
 * flakiness or sanitizer builds (harness_of takes its harness from there
 * too). Returns -1 to go on, else the exit code. */
static int campaign_driver(int argc, char **argv, struct opts *o)
{
    static struct campaign_note c;
    if (o->driver || !campaign_of(o->path, &c) || !c.driver[0])
        return -1;
    if (!wk_path_is_regular(c.driver)) {
        printf("note: these crashes were found with --driver %s (%s), which is not there now: rerun with --driver "
               "and that driver; triaged here on the reference driver\n", c.driver, c.file);
        return -1;
    }
    printf("triage: no --driver given: these crashes were found with --driver %s (%s): triaging with it\n", c.driver,
           c.file);
    fflush(stdout);
    o->driver = c.driver;
    return triage_with(argc, argv, c.driver);
}

struct group {
    enum cls cls;
    char sig[400];
    uint32_t count;
    char *smallest;
    size_t smallest_size;
};

static int input_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && strncmp(name, "README", 6) != 0 && !(n >= 3 && strcmp(name + n - 3, ".md") == 0);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The input files of a folder, sorted; NULL after printing why. */
static char **list_inputs(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "wddmkit: %s: %s\n", dir, strerror(errno));
        return NULL;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) && n < TRIAGE_MAX_FILES;) {
        char path[4096];
        struct stat st;
        if (!input_name(e->d_name) || snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ||
            stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof(*names));
            if (!grown)
                break;
            names = grown;
        }
        if (!(names[n] = strdup(path)))
            break;
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof(*names), by_name);
    *count = n;
    return names ? names : calloc(1, sizeof(char *));
}

static void add_to_group(struct group **groups, size_t *ngroups, const struct outcome *o, const char *path,
                         size_t size)
{
    size_t i = 0;
    while (i < *ngroups && !((*groups)[i].cls == o->cls && strcmp((*groups)[i].sig, o->sig) == 0))
        i++;
    if (i == *ngroups) {
        struct group *grown = realloc(*groups, (*ngroups + 1) * sizeof(**groups));
        if (!grown)
            return;
        *groups = grown;
        memset(&grown[i], 0, sizeof(grown[i]));
        grown[i].cls = o->cls;
        snprintf(grown[i].sig, sizeof(grown[i].sig), "%s", o->sig);
        (*ngroups)++;
    }
    struct group *g = &(*groups)[i];
    g->count++;
    if (!g->smallest || size < g->smallest_size) {
        free(g->smallest);
        g->smallest = strdup(path);
        g->smallest_size = size;
    }
}

static int by_count(const void *a, const void *b)
{
    const struct group *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->sig, y->sig);
}

/* One file, as repro would run it once. */
static void triage_one(const struct opts *o, const char *path, struct outcome *out, size_t *size)
{
    const char *harness = harness_of(o, path);
    struct stat st;
    *size = stat(path, &st) == 0 ? (size_t)st.st_size : 0;
    if (!is_prog(harness)) {
        run_replay(harness, path, o->driver, o->timeout_ms, out);
        return;
    }
    size_t bytes = 0;
    struct wk_prog *p = prepare(o, path, 1, &bytes);
    if (!p) {
        memset(out, 0, sizeof(*out));
        out->cls = CLS_ERROR;
        snprintf(out->sig, sizeof(out->sig), "unreadable");
        return;
    }
    run_program(p, o->driver, o, out);
    prog_del(p);
}

int wk_cli_triage(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, OPT_DRIVER | OPT_HARNESS | OPT_SEED | OPT_TIMEOUT | OPT_CALIBRATE, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    if ((rc = campaign_driver(argc, argv, &o)) >= 0)
        return rc;
    size_t n = 0, ngroups = 0;
    char **files = list_inputs(o.path, &n);
    if (!files)
        return 2;
    struct group *groups = NULL;
    static struct outcome out;
    uint32_t unrun = 0; /* files the setup could not run (no replay binary, a driver that does not load) */
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        triage_one(&o, files[i], &out, &size);
        add_to_group(&groups, &ngroups, &out, files[i], size);
        unrun += out.cls == CLS_ERROR && !out.input_refused;
        free(files[i]);
    }
    free(files);
    if (ngroups)
        qsort(groups, ngroups, sizeof(*groups), by_count);
    printf("triage: %s: %zu files, %zu signatures (driver: %s)\n", o.path, n, ngroups,
           o.driver ? o.driver : "the reference driver");
    uint32_t passed = 0;
    for (size_t i = 0; i < ngroups; i++) {
        printf("%6u  %-7s %s  [smallest: %s, %zu bytes]\n", groups[i].count, cls_word[groups[i].cls], groups[i].sig,
               groups[i].smallest ? groups[i].smallest : "?", groups[i].smallest_size);
        passed += groups[i].cls == CLS_PASS ? groups[i].count : 0;
        free(groups[i].smallest);
    }
    if (passed)
        printf("note: %u file(s) ran without a finding here. Saved crashes that pass on replay are flaky "
               "(state the replay does not rebuild), or the replay binaries differ from the engine's "
               "build: other sanitizers (a UBSan or ASan report needs the sanitized build: WK_REPLAY_DIR=build/"
               "libfuzzer/fuzz or build/asan/fuzz) or an older build of the harness.\n", passed);
    free(groups);
    /* A folder whose files could not be run is not triaged: exit 0 said
     * it was (a missing replay binary, a driver that does not load). An
     * input the kit refuses for itself (an adapter the GPU model does not
     * take) did run: that is its result. */
    if (unrun)
        fprintf(stderr, "wddmkit triage: %u file(s) could not be run (the \"error\" rows above say why)\n", unrun);
    return unrun ? 2 : 0;
}

/* ------------------------------------------------------------------ */
/* repro: the decoded input of the replayed harnesses                   */
/* ------------------------------------------------------------------ */

#define DECODED_LINES 200u /* a listing longer than this is cut, saying so */

struct listing {
    uint32_t lines;
};

static void list_line(void *user, const char *line)
{
    struct listing *l = user;
    if (l->lines++ < DECODED_LINES)
        printf("  %s\n", line);
}

/* The DMA buffer fuzz_gpu_decode ran, as the GPU model decodes it. */
static void print_disassembly(const uint8_t *data, size_t size)
{
    struct listing l = { 0 };
    printf("decoded input (%zu bytes, the GPU model's disassembly):\n", size);
    wk_gpu_disasm(data, size, list_line, &l);
    if (l.lines > DECODED_LINES)
        printf("  ... %u more lines\n", l.lines - DECODED_LINES);
}

/* The spec text fuzz_spec loaded, numbered as the loader's messages
 * count lines; bytes that are not printable ASCII as \xNN. */
static void print_spec_text(const uint8_t *data, size_t size)
{
    uint32_t line = 1;
    printf("decoded input (%zu bytes of spec text):\n", size);
    printf("  %4u | ", line);
    for (size_t i = 0; i < size && line <= DECODED_LINES; i++) {
        if (data[i] == '\n') {
            if (++line <= DECODED_LINES && i + 1 < size)
                printf("\n  %4u | ", line);
        } else if (data[i] >= 0x20 && data[i] < 0x7F) {
            putchar(data[i]);
        } else {
            printf("\\x%02x", data[i]);
        }
    }
    printf(line > DECODED_LINES ? "\n  ... cut after %u lines\n" : "\n", DECODED_LINES);
}

/* A fuzz_cli input: the command line it is, one argument a line. */
static void print_cli_args(const uint8_t *data, size_t size)
{
    printf("decoded input (%zu bytes, the arguments after 'wddmkit'):\n", size);
    uint32_t arg = 0;
    for (size_t at = 0; size && at <= size && arg < DECODED_LINES; arg++) {
        size_t n = strnlen((const char *)data + at, size - at);
        printf("  argv[%u] = \"", arg + 1);
        for (size_t i = at; i < at + n; i++)
            printf(data[i] >= 0x20 && data[i] < 0x7F && data[i] != '"' && data[i] != '\\' ? "%c" : "\\x%02x", data[i]);
        printf("\"\n");
        at += n + 1;
    }
}

/* A fuzz_hostile input: the program with its answer corruption, as the
 * harness runs it (wk_prog_run: the rewrite kept). */
static void print_hostile_program(const uint8_t *data, size_t size)
{
    static struct wk_prog p;
    wk_prog_decode_again(data, size, &p);
    printf("decoded input (the program, run with its answer corruption):\n");
    wk_prog_dump(&p, stdout);
    wk_prog_free(&p);
}

/* After the runs (the issue asks repro for the decoded input): a
 * fuzz_patch or fuzz_render input as the program that makes the same call
 * (folded for --driver's contexts, as `minimize` and `promote` see it),
 * fuzz_gpu_decode's as its disassembly, fuzz_spec's as its text. Best
 * effort: what cannot be decoded leaves a note, and the exit code stays
 * the runs'. */
static void print_decoded(const struct opts *o, const char *harness)
{
    const struct fixture_harness *h = fixture_harness_of(harness);
    if (h) {
        size_t bytes = 0;
        struct wk_prog *p = load_fixture_input(o, h, &bytes);
        if (!p) {
            printf("decoded input: unavailable (the reason is on stderr)\n");
            return;
        }
        printf("decoded input (the program that makes the same call):\n");
        wk_prog_dump(p, stdout);
        prog_del(p);
        return;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_cli_read_file(o->path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return;
    if (strcmp(harness, "fuzz_gpu_decode") == 0)
        print_disassembly(data, size);
    else if (strcmp(harness, "fuzz_spec") == 0)
        print_spec_text(data, size);
    else if (strcmp(harness, "fuzz_cli") == 0)
        print_cli_args(data, size);
    else if (strcmp(harness, "fuzz_hostile") == 0)
        print_hostile_program(data, size);
    free(data);
}
