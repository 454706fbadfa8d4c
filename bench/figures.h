/* SPDX-License-Identifier: MIT */
/*
 * figures.h - what a benchmark measured, for `make bench` (bench/run_all.py,
 * docs/performance.md): with WK_BENCH_FIGURES naming a file, each figure is
 * appended to it as one line of JSON (name, value, unit, goal); without it
 * nothing is written, and the program prints its own lines as ever.
 *
 * A figure's name is the benchmark's, a dot, and what it is
 * ("gpu_copy.copy_ratio"): [a-z0-9_.] only, so that it can be a key
 * anywhere. A goal is a bound the figure should keep (a ratio of at least
 * 0.5, a time of at most 5 s), or none for a figure given for information.
 */
#ifndef WK_BENCH_FIGURES_H
#define WK_BENCH_FIGURES_H

enum wk_bench_goal {
    WK_BENCH_INFO,     /* information, no goal */
    WK_BENCH_AT_LEAST, /* value >= goal */
    WK_BENCH_AT_MOST,  /* value <= goal */
};

/* Records one figure; `what` says what it is in a few words. */
void wk_bench_figure(const char *name, double value, const char *unit, enum wk_bench_goal kind, double goal,
                     const char *what);

/* Whether this is a quick run (WK_BENCH_QUICK=1, `make bench QUICK=1`): a
 * benchmark then does the least work that still exercises every figure,
 * so that the figures are there, if noisy. */
int wk_bench_quick(void);

/* A benchmark's seconds argument: `arg` whole as a number in (0, max];
 * -1 when it is not one (the caller prints its usage). */
double wk_bench_seconds(const char *arg, double max);

#endif
