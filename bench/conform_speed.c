/* SPDX-License-Identifier: MIT */
/*
 * conform_speed.c - the conformance suite against the reference driver:
 * its wall time, forked per case, with -j 2 and -j 1 (the goal: under 5 s
 * with -j 2 on this 2-core machine), and what the process per case costs
 * (issue 26, item 4), all in the same run.
 *
 * The process cost, in CPU time, per round:
 *   suite CPU     a forked -j 1 run: this process's own CPU (RUSAGE_SELF)
 *                 plus every process it waited for (RUSAGE_CHILDREN: a
 *                 waited child's figure includes what it waited for, so
 *                 each slot's shepherd, reaped when the run ends, brings
 *                 its own figure and its case processes'), before and
 *                 after;
 *   in-process    the same cases with --no-fork, in a child of this
 *                 process (its RUSAGE_SELF around the run, sent back on a
 *                 pipe), so that what the in-process run keeps (parked
 *                 memory, the driver's one load) does not grow the process
 *                 the forked runs start from;
 *   bare fork     a process that allocated and touched 1 MiB (started
 *                 before the specs are loaded, not a child of the runner)
 *                 forks a child that _exits, and waits for it, FORKS
 *                 times: its own CPU plus its children's, over FORKS; and
 *                 the same with a grandchild that the child waits for
 *                 (two processes, the shape of a case before each slot
 *                 had a shepherd of its own, for information); and the
 *                 same one-process fork with a child that first touches as
 *                 many fresh pages as a case's process faults in beyond
 *                 the in-process run (the measured figure, rounded): the
 *                 floor of a fresh address space that does a case's work,
 *                 for information (docs/performance.md, "Conformance
 *                 suite").
 * Page faults (ru_minflt + ru_majflt, counted like the CPU) of the forked
 * run beyond the in-process run's are printed a case: what a fresh
 * process pays to touch its memory again.
 * Per-case process cost = (suite CPU - in-process CPU) / cases; the goal
 * is at most twice the bare fork. The figures printed are medians over the
 * rounds (the ratio the median of the per-round ratios).
 *
 * Usage: conform_speed [SPECS_DIR] [rounds]   (defaults: the repo's specs/,
 * 3 rounds). Exits 0 either way: a benchmark measures, it does not judge CI.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conformance.h"
#include "figures.h"

#define GOAL_SECONDS 5.0
#define GOAL_PROCESS_RATIO 2.0
#define FORKS 400
#define BARE_BYTES (1u << 20)
#define MAX_ROUNDS 100

#ifndef WK_BENCH_PRESET
#define WK_BENCH_PRESET "unknown"
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

/* CPU seconds (user + system) of `who`. */
static double cpu(int who)
{
    struct rusage u;
    getrusage(who, &u);
    return tv(u.ru_utime) + tv(u.ru_stime);
}

/* This process and every process it waited for. */
static double cpu_all(void)
{
    return cpu(RUSAGE_SELF) + cpu(RUSAGE_CHILDREN);
}

/* Page faults (minor and major) of `who`. */
static double faults(int who)
{
    struct rusage u;
    getrusage(who, &u);
    return (double)u.ru_minflt + (double)u.ru_majflt;
}

struct run_figures {
    double wall, cpu, self;           /* self: the runner's own part of cpu */
    double faults;                    /* page faults, its own and its children's */
    size_t bad;
};

/* One full forked run with `jobs` workers; bad counts unexpected results. */
static struct run_figures run_once(const struct wk_spec_set *set, uint32_t jobs, int no_fork)
{
    struct wk_runner_options o;
    memset(&o, 0, sizeof(o));
    o.jobs = jobs;
    o.no_fork = no_fork;
    o.case_timeout = 10;
    struct wk_run_report rep;
    struct run_figures f;
    double c = cpu_all(), s = cpu(RUSAGE_SELF), pf = faults(RUSAGE_SELF) + faults(RUSAGE_CHILDREN), t = now();
    wk_status st = wk_runner_run((const struct wk_prog *const *)set->progs, set->count, &o, &rep, stderr);
    f.wall = now() - t;
    f.cpu = cpu_all() - c;
    f.self = cpu(RUSAGE_SELF) - s;
    f.faults = faults(RUSAGE_SELF) + faults(RUSAGE_CHILDREN) - pf;
    f.bad = st == WK_OK ? rep.unexpected : set->count;
    if (st == WK_OK)
        wk_run_report_free(&rep);
    return f;
}

/* The in-process run's page faults, as its child reported them. */
static double in_process_faults;

/* Runs fn in a child and returns the double it writes back (and
 * in_process_faults); -1 on failure. */
static double in_child(double (*fn)(const struct wk_spec_set *), const struct wk_spec_set *set)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        int null = open("/dev/null", O_WRONLY); /* the driver's messages of an in-process run */
        if (null >= 0)
            dup2(null, STDERR_FILENO);
        double v[2] = { fn(set), in_process_faults };
        ssize_t ignored = write(p[1], v, sizeof(v));
        (void)ignored;
        _exit(0);
    }
    close(p[1]);
    double v[2] = { -1, -1 };
    if (pid < 0 || read(p[0], v, sizeof(v)) != (ssize_t)sizeof(v))
        v[0] = -1;
    in_process_faults = v[1];
    close(p[0]);
    if (pid > 0)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    return v[0];
}

/* In a child: the suite with --no-fork, its CPU; -1 when a case was not as
 * expected (the figure would not be the same cases' work). Its page
 * faults in in_process_faults (the child writes both). */
static double in_process_cpu(const struct wk_spec_set *set)
{
    double c = cpu(RUSAGE_SELF), pf = faults(RUSAGE_SELF);
    struct run_figures f = run_once(set, 1, 1);
    in_process_faults = faults(RUSAGE_SELF) - pf;
    return f.bad ? -1 : cpu(RUSAGE_SELF) - c;
}

/* The bare fork's process, started before the specs are loaded so that it
 * is small: 1 MiB allocated and touched, then, for each byte read from
 * `req`, FORKS forks of a child that _exits at once, each waited for, and
 * the CPU per fork (its own and its children's) written to `ans`. */
/* One bare fork+exit+wait; with `nested`, the child forks, waits for and
 * outlives a grandchild first (the shape of a shepherd and its case);
 * with `touch` pages, the child first writes to that many fresh
 * anonymous pages (a page fault each, and their teardown at the exit). */
static void fork_exit_wait(int nested, size_t touch)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (nested)
            fork_exit_wait(0, 0);
        if (touch) {
            long page = sysconf(_SC_PAGESIZE);
            volatile unsigned char *m = mmap(NULL, touch * (size_t)page, PROT_READ | PROT_WRITE,
                                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            for (size_t i = 0; m != MAP_FAILED && i < touch; i++)
                m[i * (size_t)page] = 1;
        }
        _exit(0);
    }
    while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

static _Noreturn void bare_fork_server(int req, int ans)
{
    volatile unsigned char *mem = malloc(BARE_BYTES);
    for (size_t i = 0; mem && i < BARE_BYTES; i += 64)
        mem[i] = (unsigned char)i;
    uint32_t touch;
    while (read(req, &touch, sizeof(touch)) == (ssize_t)sizeof(touch)) {
        double v[3];
        for (int kind = 0; kind < 3; kind++) {
            double c0 = cpu_all();
            for (int i = 0; i < FORKS; i++)
                fork_exit_wait(kind == 1, kind == 2 ? touch : 0);
            v[kind] = (cpu_all() - c0) / FORKS;
        }
        if (write(ans, v, sizeof(v)) != (ssize_t)sizeof(v))
            break;
    }
    _exit(0);
}

struct bare_fork {
    int req, ans;
};

static int bare_fork_start(struct bare_fork *b)
{
    int rq[2], an[2];
    if (pipe(rq) != 0 || pipe(an) != 0)
        return -1;
    fflush(NULL);
    /* Not a child of this process: a run kills every child of the runner
     * that is not one of its cases (wk_reap_strays). Orphaned at once, it
     * ends when the request pipe closes. */
    pid_t mid = fork();
    if (mid == 0) {
        if (fork() == 0) {
            close(rq[1]);
            close(an[0]);
            bare_fork_server(rq[0], an[1]);
        }
        _exit(0);
    }
    close(rq[0]);
    close(an[1]);
    b->req = rq[1];
    b->ans = an[0];
    while (mid > 0 && waitpid(mid, NULL, 0) < 0 && errno == EINTR)
        ;
    return mid > 0 ? 0 : -1;
}

/* CPU seconds per bare fork+exit+wait, measured now; -1 on failure. In
 * *nested, the same with a grandchild (two processes, as a case had); in
 * *touched, with a child that first touches `touch` fresh pages. */
static double bare_fork_measure(const struct bare_fork *b, uint32_t touch, double *nested, double *touched)
{
    double v[3] = { -1, -1, -1 };
    if (write(b->req, &touch, sizeof(touch)) != (ssize_t)sizeof(touch) || read(b->ans, v, sizeof(v)) != (ssize_t)sizeof(v))
        return -1;
    *nested = v[1];
    *touched = v[2];
    return v[0];
}

static void bare_fork_stop(struct bare_fork *b)
{
    close(b->req);
    close(b->ans);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : WK_SPECS_DIR;
    int rounds = argc > 2 ? atoi(argv[2]) : wk_bench_quick() ? 1 : 3; /* a quick run (figures.h): one round */
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: conform_speed [SPECS_DIR] [rounds 1..100]\n");
        return 2;
    }
    struct bare_fork bare;
    if (bare_fork_start(&bare) != 0) {
        perror("conform_speed: the bare fork's process");
        return 2;
    }
    struct wk_spec_set set;
    struct wk_diag diag;
    wk_spec_set_init(&set);
    wk_diag_init(&diag, 20);
    if (wk_spec_load_dir(&set, dir, &diag) != WK_OK) {
        wk_diag_print(&diag, stderr);
        return 2;
    }
    double best2 = 1e9, best1 = 1e9;
    size_t bad2 = 0, bad1 = 0;
    double suite[MAX_ROUNDS], runner[MAX_ROUNDS], inproc[MAX_ROUNDS], fork2[MAX_ROUNDS], extra_faults[MAX_ROUNDS], fork1[MAX_ROUNDS], per_case[MAX_ROUNDS], ratio[MAX_ROUNDS];
    double fork_touch[MAX_ROUNDS], touch_ratio[MAX_ROUNDS];
    int good = 0;
    for (int r = 0; r < rounds; r++) {
        struct run_figures f2 = run_once(&set, 2, 0), f1 = run_once(&set, 1, 0);
        double in = in_child(in_process_cpu, &set);
        double extra = in < 0 ? 0 : (f1.faults - in_process_faults) / set.count;
        double nested = -1, touched = -1;
        double bf = bare_fork_measure(&bare, extra > 0 && extra < 1e6 ? (uint32_t)(extra + 0.5) : 0, &nested, &touched);
        best2 = f2.wall < best2 ? f2.wall : best2;
        best1 = f1.wall < best1 ? f1.wall : best1;
        bad2 += f2.bad;
        bad1 += f1.bad;
        if (in < 0 || bf <= 0 || f1.bad)
            continue;
        suite[good] = f1.cpu;
        runner[good] = f1.self;
        inproc[good] = in;
        fork1[good] = bf;
        fork2[good] = nested;
        extra_faults[good] = extra;
        per_case[good] = (f1.cpu - in) / set.count;
        ratio[good] = per_case[good] / bf;
        fork_touch[good] = touched;
        touch_ratio[good] = touched > 0 ? per_case[good] / touched : 0;
        good++;
    }
    bare_fork_stop(&bare);
    printf("conform_speed: %u cases from %s, %d rounds, preset %s\n", set.count, dir, rounds, WK_BENCH_PRESET);
    printf("  -j 2: %.2f s (%.0f cases/s), best round, goal < %.0f s: %s%s\n", best2, set.count / best2,
           GOAL_SECONDS, best2 < GOAL_SECONDS ? "met" : "MISSED", bad2 ? " (unexpected results!)" : "");
    printf("  -j 1: %.2f s (%.0f cases/s), best round; -j 2 speed-up %.2fx\n", best1, set.count / best1,
           best1 / best2);
    wk_bench_figure("conform_speed.suite_j2_seconds", best2, "s", WK_BENCH_AT_MOST, GOAL_SECONDS,
                    "the whole suite, a process per case, -j 2, best round");
    wk_bench_figure("conform_speed.suite_j1_seconds", best1, "s", WK_BENCH_INFO, 0,
                    "the whole suite, a process per case, -j 1, best round");
    if (!good) {
        printf("  process cost: not measured (a run had unexpected results, or a measurement failed)\n");
    } else {
        double s = median(suite, good), in = median(inproc, good), bf = median(fork1, good);
        double pc = median(per_case, good), q = median(ratio, good);
        printf("  CPU, -j 1 (median of %d rounds; children counted by RUSAGE_CHILDREN, every process waited for):\n",
               good);
        double rs = median(runner, good);
        printf("    suite, forked:       %8.3f s  (%.2f ms a case; the runner's own %.2f ms, its children's %.2f ms)\n",
               s, 1e3 * s / set.count, 1e3 * rs / set.count, 1e3 * (s - rs) / set.count);
        printf("    suite, in-process:   %8.3f s  (%.2f ms a case, --no-fork in a child)\n", in,
               1e3 * in / set.count);
        printf("    process cost a case: %8.3f ms (%.0f%% of the forked suite's CPU)\n", 1e3 * pc,
               100.0 * (s - in) / s);
        printf("    page faults a case beyond the in-process run's: %.0f\n", median(extra_faults, good));
        printf("    bare fork+exit+wait of a 1 MiB process: %.3f ms (%d in a row); with a grandchild too "
               "(a case's shape before each slot had its shepherd): %.3f ms\n", 1e3 * bf, FORKS, 1e3 * median(fork2, good));
        printf("    process cost / bare fork: %.2f, goal <= %.1f: %s\n", q, GOAL_PROCESS_RATIO,
               q <= GOAL_PROCESS_RATIO ? "met" : "MISSED");
        double ft = median(fork_touch, good), tq = median(touch_ratio, good);
        printf("    bare fork whose child first touches %.0f fresh pages (a case's page faults beyond the in-process "
               "run's): %.3f ms; process cost / that: %.2f (for information)\n", median(extra_faults, good), 1e3 * ft, tq);
        wk_bench_figure("conform_speed.process_over_touching_fork", tq, "ratio", WK_BENCH_INFO, 0,
                        "a case's process cost over a fork+exit+wait whose child touches as many fresh pages "
                        "as a case faults in beyond the in-process run");
        wk_bench_figure("conform_speed.process_cost_ms", 1e3 * pc, "ms", WK_BENCH_INFO, 0,
                        "CPU a case costs as a process: (suite forked - in-process) / cases, -j 1");
        wk_bench_figure("conform_speed.process_over_bare_fork", q, "ratio", WK_BENCH_AT_MOST, GOAL_PROCESS_RATIO,
                        "a case's process cost over a bare fork+exit+wait of a 1 MiB process");
    }
    wk_spec_set_free(&set);
    wk_diag_free(&diag);
    return 0;
}
