/* SPDX-License-Identifier: MIT */
/*
 * fuzz_speed.h - what fuzz_speed.c shares with its --floor mode
 * (fuzz_floor.c): the seeds, the engine's mutation, an exact-size run.
 */
#ifndef WK_BENCH_FUZZ_SPEED_H
#define WK_BENCH_FUZZ_SPEED_H

#include <stddef.h>
#include <stdint.h>

#include "harnesses.h"

#define MAX_INPUT 4096u
#define MAX_SEEDS 2048u

struct seeds {
    uint8_t *data[MAX_SEEDS];
    size_t size[MAX_SEEDS];
    char *name[MAX_SEEDS];    /* the file's name, for --per-seed and --floor */
    uint32_t count;
};

/* corpus/<harness>/seeds, each truncated to MAX_INPUT (none: one random input). */
void load_seeds(struct seeds *s, const char *corpus, const char *harness);
void free_seeds(struct seeds *s);
/* A seed picked and mutated as the engine loop does, into work (MAX_INPUT
 * bytes); its size. */
size_t mutated_input(const struct seeds *s, uint8_t *work);
/* mutated_input's sequence started again from seed (not 0): a figure
 * counted over mutated inputs then counts the same inputs in every run. */
void mutation_restart(uint64_t seed);
/* fn on a copy of data in a buffer of exactly size bytes, as engines call. */
void run_copy(harness_fn *fn, const uint8_t *data, size_t size);
/* The harness of that name; NULL when there is none. */
harness_fn *harness_named(const char *name);

/* `fuzz_speed --floor HARNESS CORPUS` (fuzz_floor.c): exit code. */
int floor_main(const char *harness, const char *corpus);

#endif
