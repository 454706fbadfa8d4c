/* SPDX-License-Identifier: MIT */
/*
 * mutator_speed.c - what the structure-aware mutator (fuzz/mutator/prog_mutator.c)
 * costs per mutation, against a byte-level mutation of the same inputs in
 * the same run.
 *
 * Why: libFuzzer calls the custom mutator before every execution of
 * fuzz_prog and AFL++ for every input of its custom stage, so its cost
 * is paid once per execution, like the harness's. It decodes the input
 * (and a second one to splice from), edits the program and encodes it
 * again.
 *
 * Usage: mutator_speed [SECONDS] [CORPUS]   (defaults: 2, the repository's corpus/)
 * Inputs: CORPUS/fuzz_prog/seeds, each mutated with another seed as the
 * splice partner (afl_custom_fuzz of the AFL++ library, which runs the same
 * code as LLVMFuzzerCustomMutator). The two sides alternate in 50 ms slices.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figures.h"

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

#define MAX_SEEDS 4096
#define MAX_INPUT 4096
#define SLICE 0.05

struct seeds {
    uint8_t *data[MAX_SEEDS];
    size_t size[MAX_SEEDS];
    uint32_t count;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void load(struct seeds *s, const char *corpus)
{
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/fuzz_prog/seeds", corpus);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) && s->count < MAX_SEEDS;) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
            continue;
        char path[2100];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        uint8_t *buf = f ? malloc(MAX_INPUT) : NULL;
        size_t n = buf ? fread(buf, 1, MAX_INPUT, f) : 0;
        if (f)
            fclose(f);
        if (!buf || !n) {
            free(buf);
            continue;
        }
        s->data[s->count] = buf;
        s->size[s->count++] = n;
    }
    if (d)
        closedir(d);
}

/* The engine's cheapest work on an input: copy it, flip a byte. */
static size_t byte_mutation(void *state, uint8_t *buf, size_t size, uint8_t **out, uint8_t *add, size_t add_size,
                            size_t max)
{
    (void)add;
    (void)add_size;
    (void)max;
    uint64_t *x = state;
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    buf[(*x >> 33) % size] ^= (uint8_t)(1u << ((*x >> 20) % 8));
    *out = buf;
    return size;
}

typedef size_t mutate_fn(void *, uint8_t *, size_t, uint8_t **, uint8_t *, size_t, size_t);

struct side {
    mutate_fn *fn;
    void *state;
    uint64_t at;   /* next seed pair */
    uint64_t runs;
    double time;
    uint64_t out_bytes;
};

static void run_slice(const struct seeds *s, struct side *d)
{
    static uint8_t buf[MAX_INPUT];
    double start = now(), elapsed = 0;
    while (elapsed < SLICE) {
        for (int i = 0; i < 64; i++, d->at++) {
            uint32_t a = (uint32_t)(d->at % s->count), b = (uint32_t)((d->at * 7 + 3) % s->count);
            memcpy(buf, s->data[a], s->size[a]);
            uint8_t *out = buf;
            d->out_bytes += d->fn(d->state, buf, s->size[a], &out, s->data[b], s->size[b], MAX_INPUT);
        }
        d->runs += 64;
        elapsed = now() - start;
    }
    d->time += elapsed;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? wk_bench_seconds(argv[1], 3600) : wk_bench_quick() ? 0.1 : 2.0;
    if (argc > 3 || seconds < 0) {
        fprintf(stderr, "usage: mutator_speed [SECONDS (0 .. 3600) [CORPUS_DIR]]\n");
        return 2;
    }
    const char *corpus = argc > 2 ? argv[2] : WK_CORPUS_DIR;
    static struct seeds s;
    load(&s, corpus);
    if (!s.count) {
        fprintf(stderr, "mutator_speed: no inputs in %s/fuzz_prog/seeds\n", corpus);
        return 2;
    }
    uint64_t rng = 1;
    struct side prog = { afl_custom_fuzz, afl_custom_init(NULL, 1), 0, 0, 0, 0 };
    struct side bytes = { byte_mutation, &rng, 0, 0, 0, 0 };
    if (!prog.state)
        return 2;
    while (prog.time < seconds || bytes.time < seconds) {
        if (prog.time < seconds)
            run_slice(&s, &prog);
        if (bytes.time < seconds)
            run_slice(&s, &bytes);
    }
    double per = prog.time / (double)prog.runs * 1e6, per_bytes = bytes.time / (double)bytes.runs * 1e6;
    printf("mutator_speed: %u fuzz_prog seeds from %s, %.1f s per side\n", s.count, corpus, seconds);
    printf("  structure-aware mutation  %8.2f us each (%llu runs, mean output %.0f bytes)\n", per,
           (unsigned long long)prog.runs, (double)prog.out_bytes / (double)prog.runs);
    printf("  byte flip (copy + flip)   %8.2f us each (%llu runs)\n", per_bytes, (unsigned long long)bytes.runs);
    printf("  ratio                     %8.1f\n", per / per_bytes);
    wk_bench_figure("mutator_speed.mutation_us", per, "us", WK_BENCH_INFO, 0,
                    "one structure-aware mutation of a fuzz_prog input");
    wk_bench_figure("mutator_speed.over_byte_flip", per / per_bytes, "ratio", WK_BENCH_INFO, 0,
                    "a structure-aware mutation over a byte flip's cost");
    afl_custom_deinit(prog.state);
    for (uint32_t i = 0; i < s.count; i++)
        free(s.data[i]);
    return 0;
}
