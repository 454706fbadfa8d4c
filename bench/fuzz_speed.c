/* SPDX-License-Identifier: MIT */
/*
 * fuzz_speed.c - executions per second of each fuzz harness, against an
 * empty harness (LLVMFuzzerTestOneInput that returns 0) fed the same
 * inputs in the same run, so the ratio says what the harness itself costs,
 * whatever the machine (docs/performance.md; the goals are issue 5's).
 *
 * How the harnesses get here: each harness source is compiled into this
 * program once more with -DLLVMFuzzerTestOneInput=wk_bench_<harness>
 * (bench/CMakeLists.txt), so every entry point can live in one process,
 * built like the default preset (optimised, no sanitizers, no coverage
 * instrumentation).
 *
 * The input pipeline is the part of an engine's loop that does not depend
 * on the harness, done identically for the empty harness and the real
 * one: pick a committed seed of the harness (corpus/<harness>/seeds,
 * truncated to 4 KiB), apply 1 to 4 random byte-level mutations (flip,
 * overwrite, insert, erase, duplicate a run), copy the result into a fresh
 * buffer of the exact size (as libFuzzer does) and call the entry point.
 * Findings do not stop the run (WK_FUZZ_NO_ABORT=1) and are counted: on
 * the reference driver there should be none.
 *
 * Built by the bench-libfuzzer preset, the harnesses and the kit carry
 * libFuzzer's instrumentation (this loop does not): the ratios then say
 * what a libFuzzer campaign's instrumentation adds, without the engine's
 * own work; the goals are judged on the uninstrumented build only.
 *
 * Time is this thread's CPU time, the two sides alternating in 50 ms
 * slices (measure_pair): load from other processes falls on both alike.
 *
 * Usage: fuzz_speed [SECONDS_PER_HARNESS [CORPUS_DIR [HARNESS]]] (default
 * 2 s of CPU time each side, the repository's corpus/, every harness). Prints one line per
 * harness and the goal.
 *
 *        fuzz_speed --floor HARNESS [CORPUS_DIR]: each input's time over its
 * floor, the time inside driver code and the command processor (a
 * bench-floor build; fuzz_floor.c).
 *
 *        fuzz_speed --per-seed HARNESS [CORPUS_DIR]: where a harness's time
 * goes by input: each committed seed, unmutated, run until it has used
 * 20 ms of this thread's CPU time (CPU time: the figures hold on a loaded
 * machine), its cost per run; then the distribution, the costliest seeds,
 * and the harness time per input that the goal leaves, from the empty
 * iteration's cost measured in the same run.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, clock_gettime, strdup */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"
#include "fuzz_speed.h"
#include "harnesses.h"
#include "figures.h"

#ifdef WK_BENCH_INSTRUMENTED /* the bench-libfuzzer preset: the harnesses carry libFuzzer's instrumentation */
#define INSTRUMENTED 1
#else
#define INSTRUMENTED 0
#endif


static const struct {
    const char *name;
    harness_fn *fn;
    double goal;              /* of the empty harness's exec/s */
} harnesses[] = {
    { "fuzz_gpu_decode", wk_bench_fuzz_gpu_decode, 0.20 },
    { "fuzz_patch", wk_bench_fuzz_patch, 0.20 },
    { "fuzz_render", wk_bench_fuzz_render, 0.05 },
    { "fuzz_paging", wk_bench_fuzz_paging, 0.05 },
    { "fuzz_prog", wk_bench_fuzz_prog, 0.05 },
};
#define HARNESSES (sizeof(harnesses) / sizeof(harnesses[0]))

/* What the line says of the ratio: a judged one meets its goal or not; the
 * stateful harnesses' is information (their goal is the floor's), and an
 * instrumented build's is judged on the plain build only. */
static const char *verdict(int judged, double ratio, double goal)
{
    if (INSTRUMENTED)
        return "";
    if (!judged)
        return "information (judged by --floor)";
    return ratio >= goal ? "meets the goal" : "BELOW the goal";
}

/* Findings are the driver's, not the speed's: a line of their own, so that
 * they are not read as part of the verdict, saying what they mean for the
 * figure and where to look. */
static void print_findings(const char *harness, uint64_t findings, uint64_t runs)
{
    if (!findings)
        return;
    printf("  %s: %llu of %llu runs were findings (the driver under test broke a check; their messages are on "
           "stderr): the speed above includes them; run a campaign to keep them (docs/fuzz-your-driver.md)\n",
           harness, (unsigned long long)findings, (unsigned long long)runs);
}

/* The empty harness; called through a pointer like the others. */
static int empty_harness(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}

#define RNG_START 0x9E3779B97F4A7C15ull
static uint64_t rng_state = RNG_START;

void mutation_restart(uint64_t seed)
{
    rng_state = seed ? seed : RNG_START;
}

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* This thread's CPU time: what a run costs, whoever else wants the core. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void load_file(struct seeds *s, const char *path, const char *name)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    uint8_t *buf = malloc(MAX_INPUT);
    size_t n = buf ? fread(buf, 1, MAX_INPUT, f) : 0;
    fclose(f);
    if (!buf || s->count == MAX_SEEDS) {
        free(buf);
        return;
    }
    s->data[s->count] = buf;
    s->name[s->count] = strdup(name);
    s->size[s->count++] = n;
}

void load_seeds(struct seeds *s, const char *corpus, const char *harness)
{
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/%s/seeds", corpus, harness);
    memset(s, 0, sizeof(*s));
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
            continue;
        char path[2100];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        load_file(s, path, e->d_name);
    }
    if (d)
        closedir(d);
    if (!s->count) { /* no seeds: random inputs */
        s->data[0] = calloc(1, MAX_INPUT);
        s->size[s->count++] = 64;
    }
}

void free_seeds(struct seeds *s)
{
    for (uint32_t i = 0; i < s->count; i++) {
        free(s->data[i]);
        free(s->name[i]);
    }
}

/* One byte-level mutation of buf[0, *n) (capacity MAX_INPUT). */
static void mutate_once(uint8_t *buf, size_t *n)
{
    size_t at = *n ? rnd() % *n : 0, len = 1 + rnd() % 8;
    switch (rnd() % 5) {
    case 0: if (*n) buf[at] ^= (uint8_t)(1u << (rnd() % 8)); break;
    case 1: if (*n) buf[at] = (uint8_t)rnd(); break;
    case 2:
        if (*n < MAX_INPUT) {
            memmove(buf + at + 1, buf + at, *n - at);
            buf[at] = (uint8_t)rnd();
            ++*n;
        }
        break;
    case 3:
        if (*n) {
            len = len < *n - at ? len : *n - at;
            memmove(buf + at, buf + at + len, *n - at - len);
            *n -= len;
        }
        break;
    default:
        if (*n && *n + len <= MAX_INPUT) {
            len = len < *n - at ? len : *n - at;
            memmove(buf + at + len, buf + at, *n - at);
            *n += len;
        }
        break;
    }
}

size_t mutated_input(const struct seeds *s, uint8_t *work)
{
    uint32_t pick = (uint32_t)(rnd() % s->count);
    size_t n = s->size[pick];
    memcpy(work, s->data[pick], n);
    for (uint32_t m = 1 + (uint32_t)(rnd() % 4); m > 0; m--)
        mutate_once(work, &n);
    return n;
}

/* One engine iteration: pick, mutate, copy exactly, run. */
static void iterate(const struct seeds *s, harness_fn *fn, uint8_t *work)
{
    size_t n = mutated_input(s, work);
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, work, n);
    fn(exact, n);
    free(exact);
}

/*
 * One side of a paired measurement: its own input sequence (the same
 * seed for both sides, so both see the same inputs in the same order),
 * the runs and the CPU time spent so far.
 */
struct side {
    harness_fn *fn;
    uint64_t rng;
    uint64_t runs;
    double time;              /* this thread's CPU seconds */
    uint64_t batch;           /* runs between two clock reads */
};

#define SLICE 0.05 /* seconds each side runs before the other takes over */

/* Runs one side for about SLICE seconds, continuing its input sequence.
 * Its time is this thread's CPU time, not the wall clock's: a process
 * that takes the core away during one side's slice does not count against
 * that side. Reading that clock is a system call, so the runs between two
 * reads grow until a batch takes a millisecond: the reads then cost both
 * sides under 0.1%, whatever a run costs. */
static void run_slice(const struct seeds *s, struct side *d)
{
    static uint8_t work[MAX_INPUT];
    rng_state = d->rng;
    double wall = now(), start = cpu_now(), end = start;
    while (now() - wall < SLICE) {
        double before = end;
        for (uint64_t i = 0; i < d->batch; i++)
            iterate(s, d->fn, work);
        d->runs += d->batch;
        end = cpu_now();
        if (end - before < 0.001 && d->batch < (1u << 20))
            d->batch *= 2;
    }
    d->time += end - start;
    d->rng = rng_state;
}

/*
 * The harness and the empty harness in alternating slices of SLICE
 * seconds until each has run `seconds` of CPU time: both see the machine's
 * load in the same proportions, so the ratio does not depend on what other
 * processes did during one side's turn (the sides used to run one after
 * the other, and a busy second on a shared machine moved the ratio by 10%
 * and more). Each side warms up first (200 inputs, not counted).
 */
static void measure_pair(const struct seeds *s, harness_fn *fn, double seconds, struct side *h, struct side *e)
{
    static uint8_t work[MAX_INPUT];
    *h = (struct side){ fn, 0x9E3779B97F4A7C15ull, 0, 0, 16 };
    *e = (struct side){ empty_harness, 0x9E3779B97F4A7C15ull, 0, 0, 16 };
    struct side *both[2] = { e, h };
    for (int k = 0; k < 2; k++) {
        rng_state = both[k]->rng;
        for (int i = 0; i < 200; i++)
            iterate(s, both[k]->fn, work);
    }
    while (h->time < seconds || e->time < seconds)
        for (int k = 0; k < 2; k++)
            if (both[k]->time < seconds)
                run_slice(s, both[k]);
}

/* Runs per CPU second of fn alone, measured as one side of a pair is. */
static double measure(const struct seeds *s, harness_fn *fn, double seconds)
{
    static uint8_t work[MAX_INPUT];
    struct side d = { fn, 0x9E3779B97F4A7C15ull, 0, 0, 16 };
    rng_state = d.rng;
    for (int i = 0; i < 200; i++)
        iterate(s, fn, work);
    while (d.time < seconds)
        run_slice(s, &d);
    return (double)d.runs / d.time;
}

/* ------------------------------------------------------------------ */
/* --per-seed                                                           */
/* ------------------------------------------------------------------ */

void run_copy(harness_fn *fn, const uint8_t *data, size_t size)
{
    uint8_t *exact = malloc(size ? size : 1);
    memcpy(exact, data, size);
    fn(exact, size);
    free(exact);
}

/* CPU seconds per run of fn on one input, copied exactly as engines do;
 * runs in growing batches between clock reads (reading this clock is a
 * system call, which would otherwise be most of a cheap run's cost). */
static double cost_of(harness_fn *fn, const uint8_t *data, size_t size)
{
    uint64_t runs = 0, batch = 1;
    double start = cpu_now(), spent = 0;
    while (spent < 0.02) {
        for (uint64_t i = 0; i < batch; i++)
            run_copy(fn, data, size);
        runs += batch;
        batch = batch < 4096 ? batch * 2 : batch;
        spent = cpu_now() - start;
    }
    return spent / (double)runs;
}

static const double *cost_table;

static int by_cost_desc(const void *a, const void *b)
{
    double x = cost_table[*(const uint32_t *)a], y = cost_table[*(const uint32_t *)b];
    return x > y ? -1 : x < y;
}

static int per_seed(const char *harness, const char *corpus)
{
    size_t h = 0;
    while (h < HARNESSES && strcmp(harnesses[h].name, harness) != 0)
        h++;
    if (h == HARNESSES) {
        fprintf(stderr, "fuzz_speed: no harness \"%s\" (fuzz_gpu_decode, fuzz_patch, fuzz_render, fuzz_paging, fuzz_prog)\n",
                harness);
        return 2;
    }
    static struct seeds s;
    load_seeds(&s, corpus, harness);
    static double cost[MAX_SEEDS];
    static uint32_t order[MAX_SEEDS];
    double pipeline = 1.0 / measure(&s, empty_harness, 1.0), sum = 0;
    for (uint32_t i = 0; i < s.count; i++) {
        cost_of(harnesses[h].fn, s.data[i], s.size[i]); /* warm: adapters and caches */
        cost[i] = cost_of(harnesses[h].fn, s.data[i], s.size[i]);
        sum += cost[i];
        order[i] = i;
    }
    cost_table = cost;
    qsort(order, s.count, sizeof(order[0]), by_cost_desc);
    double us = 1e6;
    printf("fuzz_speed --per-seed %s: %u seeds from %s, CPU time per run, unmutated\n", harness, s.count, corpus);
    printf("  min %.2f us, median %.2f us, mean %.2f us, 90th percentile %.2f us, max %.2f us\n",
           cost[order[s.count - 1]] * us, cost[order[s.count / 2]] * us, sum / s.count * us,
           cost[order[s.count / 10]] * us, cost[order[0]] * us);
    /* rate / empty rate >= goal  <=>  harness time <= pipeline * (1 / goal - 1) */
    printf("  the bench's empty iteration (pick, mutate, copy, call) %.0f ns: the goal (%.2f) leaves %.2f us "
           "per input to the harness\n",
           pipeline * 1e9, harnesses[h].goal, pipeline * (1.0 / harnesses[h].goal - 1.0) * us);
    printf("  the costliest seeds (%s/%s/seeds):\n", corpus, harness);
    for (uint32_t k = 0; k < s.count && k < 8; k++)
        printf("    %9.2f us  %s (%zu bytes)\n", cost[order[k]] * us, s.name[order[k]] ? s.name[order[k]] : "(random)",
               s.size[order[k]]);
    free_seeds(&s);
    return 0;
}

harness_fn *harness_named(const char *name)
{
    for (size_t h = 0; h < HARNESSES; h++)
        if (strcmp(harnesses[h].name, name) == 0)
            return harnesses[h].fn;
    return NULL;
}

static int usage(const char *why)
{
    fprintf(stderr, "fuzz_speed: %s\n"
                    "usage: fuzz_speed [SECONDS_PER_HARNESS (0 .. 3600) [CORPUS_DIR [HARNESS]]]\n"
                    "       fuzz_speed --floor HARNESS [CORPUS_DIR]     (a bench-floor build)\n"
                    "       fuzz_speed --per-seed HARNESS [CORPUS_DIR]\n"
                    "harnesses:",
            why);
    for (size_t h = 0; h < HARNESSES; h++)
        fprintf(stderr, " %s", harnesses[h].name);
    fputc('\n', stderr);
    return 2;
}

int main(int argc, char **argv)
{
    int mode = argc > 1 && strcmp(argv[1], "--floor") == 0 ? 1 : argc > 1 && strcmp(argv[1], "--per-seed") == 0 ? 2 : 0;
    if (mode && (argc < 3 || argc > 4))
        return usage("--floor and --per-seed take a harness and, optionally, a corpus folder");
    if (mode && !harness_named(argv[2]))
        return usage("no such harness");
    if (mode == 1) {
        setenv("WK_FUZZ_NO_ABORT", "1", 1);
        return floor_main(argv[2], argc > 3 ? argv[3] : WK_CORPUS_DIR);
    }
    if (mode == 2) {
        setenv("WK_FUZZ_NO_ABORT", "1", 1);
        return per_seed(argv[2], argc > 3 ? argv[3] : WK_CORPUS_DIR);
    }
    if (argc > 4)
        return usage("too many arguments");
    double seconds = argc > 1 ? wk_bench_seconds(argv[1], 3600) : wk_bench_quick() ? 0.1 : 2.0;
    if (seconds < 0)
        return usage("the first argument is the CPU seconds per harness, a number over 0 and up to 3600");
    const char *corpus = argc > 2 ? argv[2] : WK_CORPUS_DIR;
    const char *only = argc > 3 ? argv[3] : NULL;
    if (only && !harness_named(only))
        return usage("no such harness");
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    printf("fuzz_speed: %.1f s per harness, inputs <= %u bytes from %s, driver under test: %s\n", seconds,
           MAX_INPUT, corpus, wk_fuzz_driver_name());
    if (INSTRUMENTED)
        printf("instrumented like a libFuzzer build (bench-libfuzzer preset): the goals are for the "
               "uninstrumented build\n");
    printf("%-16s %6s %14s %14s %8s %6s  %s\n", "harness", "seeds", "exec/s", "empty exec/s", "ratio", "goal", "");
    static struct seeds s;
    for (size_t h = 0; h < HARNESSES; h++) {
        if (only && strcmp(only, harnesses[h].name) != 0)
            continue;
        uint64_t before = wk_fuzz_findings(), builds = wk_fuzz_builds(WK_FUZZ_DUT) + wk_fuzz_builds(WK_FUZZ_REF);
        load_seeds(&s, corpus, harnesses[h].name);
        struct side hs, es;
        measure_pair(&s, harnesses[h].fn, seconds, &hs, &es);
        double empty = (double)es.runs / es.time, rate = (double)hs.runs / hs.time;
        double ratio = rate / empty;
        /* fuzz_paging and fuzz_prog: the empty-harness ratio is information
         * only (issue 26: their yardstick is the time spent in driver code) */
        int judged = !INSTRUMENTED && strcmp(harnesses[h].name, "fuzz_paging") != 0 &&
                     strcmp(harnesses[h].name, "fuzz_prog") != 0;
        printf("%-16s %6u %14.0f %14.0f %8.4f %6.2f  %s", harnesses[h].name, s.count, rate, empty, ratio,
               harnesses[h].goal, verdict(judged, ratio, harnesses[h].goal));
        char name[64], what[96];
        snprintf(name, sizeof(name), "fuzz_speed.%s_ratio", harnesses[h].name);
        snprintf(what, sizeof(what), "%s exec/s over an empty harness's on the same inputs", harnesses[h].name);
        wk_bench_figure(name, ratio, "ratio", judged ? WK_BENCH_AT_LEAST : WK_BENCH_INFO, harnesses[h].goal, what);
        /* Adapters the differential harnesses built (an input whose adapter
         * no kept one has): the cost a mutated adapter block adds. */
        builds = wk_fuzz_builds(WK_FUZZ_DUT) + wk_fuzz_builds(WK_FUZZ_REF) - builds;
        if (builds)
            printf(" (%llu adapters built in %llu runs)", (unsigned long long)builds, (unsigned long long)hs.runs);
        printf("\n");
        print_findings(harnesses[h].name, wk_fuzz_findings() - before, hs.runs);
        fflush(stdout);
        free_seeds(&s);
    }
    return 0;
}
