/* SPDX-License-Identifier: MIT */
/*
 * conform_speed.c - wall time of the whole conformance suite against the
 * reference driver, forked per case, with -j 2 and with -j 1 in the same
 * run (the goal: the suite in under 5 s with -j 2 on this 2-core
 * machine; the -j 1 figure shows what parallelism buys).
 *
 * Usage: conform_speed [SPECS_DIR] [rounds]   (defaults: the repo's specs/,
 * 3 rounds; the best round of each is reported). Exits 0 either way: a
 * benchmark measures, it does not judge CI.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conformance.h"
#include "figures.h"

#define GOAL_SECONDS 5.0

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds for one full run with `jobs` workers; *bad counts unexpected results. */
static double run_once(const struct wk_spec_set *set, uint32_t jobs, size_t *bad)
{
    struct wk_runner_options o;
    memset(&o, 0, sizeof(o));
    o.jobs = jobs;
    o.case_timeout = 10;
    struct wk_run_report rep;
    double t = now();
    wk_status st = wk_runner_run((const struct wk_prog *const *)set->progs, set->count, &o, &rep, stderr);
    t = now() - t;
    *bad = st == WK_OK ? rep.unexpected : set->count;
    if (st == WK_OK)
        wk_run_report_free(&rep);
    return t;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : WK_SPECS_DIR;
    int quick = wk_bench_quick(); /* one round, -j 2 only */
    int rounds = argc > 2 ? atoi(argv[2]) : quick ? 1 : 3;
    if (rounds < 1 || rounds > 100) {
        fprintf(stderr, "usage: conform_speed [SPECS_DIR] [rounds 1..100]\n");
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
    for (int r = 0; r < rounds; r++) {
        double t2 = run_once(&set, 2, &bad2), t1 = quick ? 0 : run_once(&set, 1, &bad1);
        best2 = t2 < best2 ? t2 : best2;
        best1 = t1 < best1 ? t1 : best1;
    }
    printf("conform_speed: %u cases from %s, best of %d rounds\n", set.count, dir, rounds);
    printf("  -j 2: %.2f s (%.0f cases/s), goal < %.0f s: %s%s\n", best2, set.count / best2, GOAL_SECONDS,
           best2 < GOAL_SECONDS ? "met" : "MISSED", bad2 ? " (unexpected results!)" : "");
    wk_bench_figure("conform_speed.suite_j2_seconds", best2, "s", WK_BENCH_AT_MOST, GOAL_SECONDS,
                    "the whole suite, forked per case, -j 2, best round");
    if (!quick) {
        printf("  -j 1: %.2f s (%.0f cases/s); -j 2 speed-up %.2fx\n", best1, set.count / best1, best1 / best2);
        wk_bench_figure("conform_speed.suite_j1_seconds", best1, "s", WK_BENCH_INFO, 0,
                        "the whole suite, forked per case, -j 1, best round");
    }
    wk_spec_set_free(&set);
    wk_diag_free(&diag);
    return 0;
}
