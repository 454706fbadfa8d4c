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
 * Usage: fuzz_speed [SECONDS_PER_HARNESS [CORPUS_DIR [HARNESS]]] (default
 * 2 s, the repository's corpus/, every harness). Prints one line per
 * harness and the goal.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, clock_gettime */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz_driver.h"

#define MAX_INPUT 4096u
#define MAX_SEEDS 2048u

typedef int harness_fn(const uint8_t *data, size_t size);

int wk_bench_fuzz_gpu_decode(const uint8_t *data, size_t size);
int wk_bench_fuzz_patch(const uint8_t *data, size_t size);
int wk_bench_fuzz_render(const uint8_t *data, size_t size);
int wk_bench_fuzz_paging(const uint8_t *data, size_t size);
int wk_bench_fuzz_prog(const uint8_t *data, size_t size);

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

/* The empty harness; called through a pointer like the others. */
static int empty_harness(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}

struct seeds {
    uint8_t *data[MAX_SEEDS];
    size_t size[MAX_SEEDS];
    uint32_t count;
};

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

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

static void load_file(struct seeds *s, const char *path)
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
    s->size[s->count++] = n;
}

static void load_seeds(struct seeds *s, const char *corpus, const char *harness)
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
        load_file(s, path);
    }
    if (d)
        closedir(d);
    if (!s->count) { /* no seeds: random inputs */
        s->data[0] = calloc(1, MAX_INPUT);
        s->size[s->count++] = 64;
    }
}

static void free_seeds(struct seeds *s)
{
    for (uint32_t i = 0; i < s->count; i++)
        free(s->data[i]);
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

/* One engine iteration: pick, mutate, copy exactly, run. */
static void iterate(const struct seeds *s, harness_fn *fn, uint8_t *work)
{
    uint32_t pick = (uint32_t)(rnd() % s->count);
    size_t n = s->size[pick];
    memcpy(work, s->data[pick], n);
    for (uint32_t m = 1 + (uint32_t)(rnd() % 4); m > 0; m--)
        mutate_once(work, &n);
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, work, n);
    fn(exact, n);
    free(exact);
}

/* Executions per second of fn over `seconds`, after a short warm-up. */
static double measure(const struct seeds *s, harness_fn *fn, double seconds, uint64_t *runs)
{
    static uint8_t work[MAX_INPUT];
    rng_state = 0x9E3779B97F4A7C15ull; /* the same inputs for both harnesses */
    for (int i = 0; i < 200; i++)
        iterate(s, fn, work);
    uint64_t count = 0;
    double start = now(), elapsed = 0;
    while (elapsed < seconds) {
        for (int i = 0; i < 64; i++)
            iterate(s, fn, work);
        count += 64;
        elapsed = now() - start;
    }
    *runs = count;
    return (double)count / elapsed;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    const char *corpus = argc > 2 ? argv[2] : WK_CORPUS_DIR;
    const char *only = argc > 3 ? argv[3] : NULL;
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    printf("fuzz_speed: %.1f s per harness, inputs <= %u bytes from %s, driver under test: %s\n", seconds,
           MAX_INPUT, corpus, wk_fuzz_driver_name());
    printf("%-16s %6s %14s %14s %8s %6s  %s\n", "harness", "seeds", "exec/s", "empty exec/s", "ratio", "goal", "");
    static struct seeds s;
    for (size_t h = 0; h < HARNESSES; h++) {
        if (only && strcmp(only, harnesses[h].name) != 0)
            continue;
        uint64_t runs = 0, empty_runs = 0, before = wk_fuzz_findings();
        load_seeds(&s, corpus, harnesses[h].name);
        double empty = measure(&s, empty_harness, seconds, &empty_runs);
        double rate = measure(&s, harnesses[h].fn, seconds, &runs);
        double ratio = rate / empty;
        printf("%-16s %6u %14.0f %14.0f %8.4f %6.2f  %s", harnesses[h].name, s.count, rate, empty, ratio,
               harnesses[h].goal, ratio >= harnesses[h].goal ? "meets the goal" : "BELOW the goal");
        if (wk_fuzz_findings() != before)
            printf(" (%llu findings)", (unsigned long long)(wk_fuzz_findings() - before));
        printf("\n");
        fflush(stdout);
        free_seeds(&s);
    }
    return 0;
}
