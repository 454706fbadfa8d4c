/* SPDX-License-Identifier: MIT */
/*
 * gpu_blit.c - what a BLIT of many short rows costs the GPU model per row,
 * against a host loop that copies the same rows with memcpy, in the same
 * run (docs/performance.md, "GPU model: BLIT rows").
 *
 * Why: a BLIT may have 16,384 rows (the documented limit), and fuzzers find
 * BLITs of thousands of rows of a few bytes; the model's per-row work (the
 * checks that every row is reachable before any lands, the translation of
 * aperture pages, bank counting) then decides the harness's speed, not the
 * bytes moved. Three cases: memory segment to memory segment, aperture
 * (every page mapped) to memory segment, and memory segment to system
 * memory. Information only, no goal.
 *
 * Usage: gpu_blit [ROUNDS] (default 5): each round times each case for
 * about 0.2 s; the median round's figure is printed.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figures.h"
#include "wddmkit/gpu.h"

#define ROWS 16384u
#define WIDTH 8u

static double slice_seconds = 0.2; /* each timing loop; a quick run (figures.h) takes less */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Seconds per BLIT, over about 0.2 s. */
static double time_model(struct wk_gpu *gpu, const uint8_t *cmd, uint64_t len)
{
    struct wk_gpu_fault f;
    uint64_t n = 0;
    double t0 = now(), t;
    do {
        if (wk_gpu_exec_bytes(gpu, cmd, len, 0, &f) != WK_OK) {
            fprintf(stderr, "gpu_blit: the model faulted (reason %d at 0x%llx)\n", (int)f.reason,
                    (unsigned long long)f.fault_addr);
            exit(1);
        }
        n++;
    } while ((t = now()) - t0 < slice_seconds);
    return (t - t0) / (double)n;
}

/* Seconds per host loop over the same rows (pitches as the BLIT's). */
static double time_host(uint8_t *src, uint8_t *dst, uint32_t sp, uint32_t dp)
{
    uint64_t n = 0;
    double t0 = now(), t;
    do {
        for (uint32_t row = 0; row < ROWS; row++)
            memcpy(dst + (uint64_t)row * dp, src + (uint64_t)row * sp, WIDTH);
        __asm__ volatile("" : : "r"(dst) : "memory"); /* the copies are not dead */
        n++;
    } while ((t = now()) - t0 < slice_seconds);
    return (t - t0) / (double)n;
}

int main(int argc, char **argv)
{
    if (wk_bench_quick())
        slice_seconds = 0.02;
    int rounds = argc > 1 ? atoi(argv[1]) : wk_bench_quick() ? 1 : 5;
    if (rounds < 1 || rounds > 100) {
        fprintf(stderr, "usage: gpu_blit [rounds 1..100]\n");
        return 2;
    }
    const struct wk_gpu_desc *d = wk_gpu_reference_desc();
    struct wk_gpu *gpu = NULL;
    char why[256];
    if (wk_gpu_create(d, &gpu, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "gpu_blit: %s\n", why);
        return 1;
    }
    const uint64_t seg1 = d->segments[0].base, seg2 = d->segments[1].base, aper = d->segments[2].base;
    const uint64_t sys = d->sysmem_first_pfn << WK_GPU_PAGE_SHIFT;
    for (uint32_t page = 0; page < d->segments[2].size / WK_GPU_PAGE_SIZE; page++)
        wk_gpu_gart_set(gpu, 3, page, d->sysmem_first_pfn + page);
    static const char *names[3] = { "segment -> segment", "aperture -> segment", "segment -> system" };
    static const char *figures[3] = { "gpu_blit.segment_to_segment_ns_per_row", "gpu_blit.aperture_to_segment_ns_per_row",
                                      "gpu_blit.segment_to_system_ns_per_row" };
    const uint64_t src[3] = { seg1, aper, seg1 }, dst[3] = { seg2, seg2, sys };
    const uint32_t sp[3] = { 64, 16, 64 }, dp[3] = { 16, 16, 16 };
    uint8_t *host_src = calloc(ROWS, 64), *host_dst = calloc(ROWS, 16);
    if (!host_src || !host_dst)
        return 1;
    printf("gpu_blit: BLIT of %u rows of %u bytes, median of %d rounds\n", ROWS, WIDTH, rounds);
    for (int k = 0; k < 3; k++) {
        uint8_t cmd[64];
        struct wk_gpu_writer w;
        wk_gpu_writer_init(&w, cmd, sizeof(cmd));
        if (wk_gpu_emit_blit(&w, src[k], dst[k], WIDTH, ROWS, sp[k], dp[k]) != WK_OK)
            return 1;
        double model[100], host[100];
        for (int r = 0; r < rounds; r++) {
            model[r] = time_model(gpu, cmd, w.used);
            host[r] = time_host(host_src, host_dst, sp[k], dp[k]);
        }
        qsort(model, (size_t)rounds, sizeof(double), by_value);
        qsort(host, (size_t)rounds, sizeof(double), by_value);
        double m = model[rounds / 2], h = host[rounds / 2];
        printf("  %-20s model %7.1f ns a row   host memcpy loop %5.2f ns a row   model / host %.0f\n", names[k],
               m / ROWS * 1e9, h / ROWS * 1e9, m / h);
        wk_bench_figure(figures[k], m / ROWS * 1e9, "ns", WK_BENCH_INFO, 0, names[k]);
    }
    wk_gpu_destroy(gpu);
    free(host_src);
    free(host_dst);
    return 0;
}
