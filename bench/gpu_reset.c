/* SPDX-License-Identifier: MIT */
/*
 * gpu_reset.c - what wk_gpu_reset costs after an input touched k pages of a
 * 128 MiB memory segment, k in {1, 64, 4096}, sparse against mappable
 * (flat, in the memfd behind system memory: docs/gpu-model.md, "The CPU
 * view of a segment"), measured in one run.
 *
 * Rows, each a loop of (touch k pages, reset):
 *   sparse            the GPU fills k whole pages of a sparse segment;
 *   flat              the same on a mappable segment, no mapping;
 *   flat, mapped      the same with a live host mapping of the whole
 *                     segment (reset also punches the hull out);
 *   flat, host        the host writes k whole pages through that mapping
 *                     (what the model cannot see: only the punch zeroes it).
 * For each: microseconds per reset, per touch (on a flat segment a punched
 * page costs its next writer a page fault, so the touch is part of the
 * price), and the reset's ratio to the sparse row's. The last line is a
 * memset of the whole segment, which a reset with a live mapping must not
 * cost.
 *
 * Usage: gpu_reset [seconds per row]   (default 0.3).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figures.h"
#include "wddmkit/gpu.h"

#define SEG_BASE 0x200000000ull
#define SEG_SIZE (128ull << 20)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct wk_gpu *make_gpu(int flat)
{
    static const struct wk_gpu_segment_desc seg = { WK_GPU_SEGMENT_MEMORY, SEG_BASE, SEG_SIZE, 0, NULL };
    struct wk_gpu_desc d = { 1, &seg, 0x100000, 16, 0, 0, 0, 0, 0 };
    struct wk_gpu_options opt = { flat ? 1u : 0u };
    struct wk_gpu *gpu = NULL;
    char why[256];
    if (wk_gpu_create_ex(&d, &opt, &gpu, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "gpu_reset: %s\n", why);
        exit(1);
    }
    return gpu;
}

enum how { BY_GPU, BY_HOST };

struct row {
    const char *name;
    int flat, mapped;
    enum how how;
    const char *key; /* in the figures' names */
};

/* Touches pages 0, 8, 16, ... (k of them, spread over the segment's first
 * 128 MiB) as `how` says. */
static void touch(struct wk_gpu *gpu, uint8_t *map, enum how how, unsigned k, uint8_t round)
{
    for (unsigned i = 0; i < k; i++) {
        uint64_t off = (uint64_t)i * 8 * 4096 % SEG_SIZE;
        if (how == BY_HOST) {
            memset(map + off, round | 1, 4096);
            continue;
        }
        uint8_t cmd[64];
        struct wk_gpu_writer w;
        wk_gpu_writer_init(&w, cmd, sizeof(cmd));
        wk_gpu_emit_fill(&w, SEG_BASE + off, 4096, 0x01010101u * (round | 1));
        if (wk_gpu_exec_bytes(gpu, cmd, w.used, 0, NULL) != WK_OK) {
            fprintf(stderr, "gpu_reset: the FILL faulted\n");
            exit(1);
        }
    }
}

/* Microseconds per touch and per reset, over `seconds` of rounds. */
static void measure(const struct row *r, unsigned k, double seconds, double *touch_us, double *reset_us)
{
    struct wk_gpu *gpu = make_gpu(r->flat);
    void *map = NULL;
    if (r->mapped && wk_gpu_segment_map(gpu, 1, 0, SEG_SIZE, &map) != WK_OK) {
        fprintf(stderr, "gpu_reset: wk_gpu_segment_map failed\n");
        exit(1);
    }
    double t_touch = 0, t_reset = 0, start = now();
    unsigned rounds = 0;
    for (; rounds < 3 || now() - start < seconds; rounds++) {
        double t0 = now();
        touch(gpu, map, r->how, k, (uint8_t)rounds);
        double t1 = now();
        wk_gpu_reset(gpu);
        double t2 = now();
        if (rounds >= 2) { /* the first two warm the pool, the file and the page tables */
            t_touch += t1 - t0;
            t_reset += t2 - t1;
        }
    }
    if (map)
        wk_gpu_segment_unmap(gpu, map);
    wk_gpu_destroy(gpu);
    *touch_us = t_touch / (rounds - 2) * 1e6;
    *reset_us = t_reset / (rounds - 2) * 1e6;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? wk_bench_seconds(argv[1], 60) : wk_bench_quick() ? 0.01 : 0.3;
    if (argc > 2 || seconds < 0) {
        fprintf(stderr, "usage: gpu_reset [seconds per row, 0 .. 60]\n");
        return 2;
    }
    static const struct row rows[] = {
        { "sparse", 0, 0, BY_GPU, "sparse" },
        { "flat", 1, 0, BY_GPU, "flat" },
        { "flat, mapped", 1, 1, BY_GPU, "flat_mapped" },
        { "flat, host", 1, 1, BY_HOST, "flat_host" },
    };
    static const unsigned ks[] = { 1, 64, 4096 };
    printf("gpu_reset: a 128 MiB segment, k whole pages touched, then wk_gpu_reset (us per round)\n");
    printf("%-14s %6s %12s %12s %16s\n", "backing", "k", "touch us", "reset us", "reset / sparse");
    for (unsigned j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
        double sparse_reset = 0;
        for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
            double tu, ru;
            measure(&rows[i], ks[j], seconds, &tu, &ru);
            if (i == 0)
                sparse_reset = ru;
            printf("%-14s %6u %12.2f %12.2f %16.2f\n", rows[i].name, ks[j], tu, ru, ru / sparse_reset);
            char name[80], what[96];
            snprintf(name, sizeof(name), "gpu_reset.%s_k%u_reset_us", rows[i].key, ks[j]);
            snprintf(what, sizeof(what), "reset after %u pages touched, %s", ks[j], rows[i].name);
            wk_bench_figure(name, ru, "us", WK_BENCH_INFO, 0, what);
        }
    }
    /* Through a volatile pointer: the compiler may not drop a memset whose
     * result it can see is never read but once. */
    void *(*volatile set)(void *, int, size_t) = memset;
    uint8_t *whole = malloc(SEG_SIZE);
    if (!whole)
        return 1;
    set(whole, 1, SEG_SIZE);
    double t0 = now();
    set(whole, 0, SEG_SIZE);
    double t1 = now();
    volatile uint8_t sink = whole[SEG_SIZE / 2];
    (void)sink;
    printf("memset of the whole 128 MiB segment: %.0f us (what a reset must not cost)\n", (t1 - t0) * 1e6);
    free(whole);
    return 0;
}
