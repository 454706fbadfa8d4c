/* SPDX-License-Identifier: MIT */
/*
 * gpu_copy.c - COPY and FILL throughput through the GPU model on 64 MiB
 * transfers, as a ratio to memcpy and memset measured in the same run.
 *
 * The model's memory is 4 KiB pages reached through a page directory
 * (carved in address order, so a large transfer usually lands on one
 * contiguous host range); host memcpy/memset work on one flat buffer. Both
 * sides are warmed first (pages backed, caches and TLBs in steady state),
 * then the measurements are interleaved round by round.
 *
 * The figure is the median over rounds of the per-round ratio (host time /
 * model time, both measured in the same round), not the ratio of the best
 * rounds: on a shared machine a memory-bound 64 MiB operation is sometimes
 * much faster than usual (a memset measured at 24 GB/s in most rounds and
 * 36-43 GB/s in one round of forty, at any buffer alignment), and a best-of
 * figure for each side then compares one side's rare lucky round with the
 * other's typical one.
 * FILL is compared with memset on a one-byte pattern (what memset can do);
 * a FILL with four different pattern bytes is reported for information.
 *
 * With --processor, every round also moves the same 64 MiB through the
 * memory system's table (processor.h: the copy and fill a binding's
 * processor calls) and through the kit's command set run as a processor
 * (wk_gpu_exec_processor with wk_gpu_kit_processor), each paired with
 * memcpy or memset as above: what the split into a memory system and
 * processors costs a bulk move.
 *
 * With --flat, every round also runs the same COPY and FILL on a second
 * model whose two segments are mappable (wk_gpu_options: backed flat, in the
 * memfd behind system memory, as a segment a BAR shows to the CPU is),
 * paired with memcpy and memset as above.
 *
 * Usage: gpu_copy [--processor] [--flat] [rounds]   (default 15). Prints one
 * line per figure and a verdict against the goal (ratio >= 0.5); exits 0
 * either way.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figures.h"
#include "wddmkit/gpu.h"
#include "wddmkit/processor.h"

#define SIZE (64ull << 20)
#define SRC 0x10000000ull
#define DST 0x20000000ull
#define GOAL 0.5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct wk_gpu *make_gpu(uint32_t mappable)
{
    static const struct wk_gpu_segment_desc segs[2] = {
        { WK_GPU_SEGMENT_MEMORY, SRC, 128ull << 20, 0, NULL },
        { WK_GPU_SEGMENT_MEMORY, DST, 128ull << 20, 0, NULL },
    };
    struct wk_gpu_desc d = { 2, segs, 0x100000, 16, 0, 0, 0, 0, 0 };
    struct wk_gpu_options opt = { mappable };
    struct wk_gpu *gpu = NULL;
    char why[256];
    if (wk_gpu_create_ex(&d, &opt, &gpu, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "gpu_copy: %s\n", why);
        exit(1);
    }
    return gpu;
}

/* Seconds for one run of a one-command buffer. */
static double run_model(struct wk_gpu *gpu, const uint8_t *cmd, uint64_t len)
{
    struct wk_gpu_fault f;
    double t = now();
    if (wk_gpu_exec_bytes(gpu, cmd, len, 0, &f) != WK_OK) {
        char msg[256];
        wk_gpu_fault_format(&f, msg, sizeof(msg));
        fprintf(stderr, "gpu_copy: model faulted: %s\n", msg);
        exit(1);
    }
    return now() - t;
}

/* Seconds for one copy or fill through the memory table. */
static double run_table(struct wk_gpu *gpu, int fill)
{
    const struct wk_mem_ops *ops = wk_gpu_mem_ops();
    struct wk_mem_fault f;
    const uint8_t pattern = 0x5A;
    double t = now();
    int rc = fill ? ops->fill(wk_gpu_mem(gpu), SRC, SIZE, &pattern, 1, &f)
                  : ops->copy(wk_gpu_mem(gpu), DST, SRC, SIZE, &f);
    t = now() - t;
    if (rc != 0) {
        fprintf(stderr, "gpu_copy: the memory table refused: %s at 0x%llx\n", wk_gpu_fault_name(f.reason),
                (unsigned long long)f.addr);
        exit(1);
    }
    return t;
}

/* Seconds for one run of a one-command buffer by the kit's processor. */
static double run_processor(struct wk_gpu *gpu, const uint8_t *cmd, uint64_t len)
{
    struct wk_exec_fault f;
    uint32_t bad = 0;
    double t = now();
    wk_status st = wk_gpu_exec_processor(gpu, wk_gpu_kit_processor(), NULL, 0, 0, len, cmd, 0, 0, &f, &bad);
    t = now() - t;
    if (st != WK_OK) {
        fprintf(stderr, "gpu_copy: the kit's processor: %s (class %s)\n", wk_status_name(st),
                wk_fault_class_name(f.cls));
        exit(1);
    }
    return t;
}

/* The common starting state: the cache full of someone else's dirty lines.
 * Written in 4 KiB pieces so that memset uses ordinary stores (one large
 * memset may stream past the cache). */
static void settle(uint8_t *scratch, int round)
{
    for (uint64_t i = 0; i < SIZE; i += 4096)
        memset(scratch + i, round & 0xFF, 4096);
}

/* The timed operations of one round, each from the settled state (the
 * table and kit ones with --processor only, the flat ones with --flat). */
enum { T_COPY, T_MEMCPY, T_FILL, T_MEMSET, T_PATTERN, T_TABLE_COPY, T_TABLE_FILL, T_KIT_COPY, T_KIT_FILL,
       T_FLAT_COPY, T_FLAT_FILL, T_COUNT };

struct bench {
    struct wk_gpu *gpu;
    uint8_t cmd[3][64];          /* COPY, FILL, FILL with a 4-byte pattern */
    uint64_t cmd_len[3];
    uint8_t *hsrc, *hdst, *scratch;
    int processor;               /* --processor */
    struct wk_gpu *flat;         /* --flat: the model with mappable segments */
};

static void round_times(struct bench *b, int r, double t[T_COUNT])
{
    settle(b->scratch, r);
    t[T_COPY] = run_model(b->gpu, b->cmd[0], b->cmd_len[0]);
    settle(b->scratch, r);
    double t0 = now();
    memcpy(b->hdst, b->hsrc, SIZE);
    t[T_MEMCPY] = now() - t0;
    settle(b->scratch, r);
    t[T_FILL] = run_model(b->gpu, b->cmd[1], b->cmd_len[1]);
    settle(b->scratch, r);
    t0 = now();
    memset(b->hsrc, (int)(r & 0xFF), SIZE);
    t[T_MEMSET] = now() - t0;
    settle(b->scratch, r);
    t[T_PATTERN] = run_model(b->gpu, b->cmd[2], b->cmd_len[2]);
    if (b->flat) {
        settle(b->scratch, r);
        t[T_FLAT_COPY] = run_model(b->flat, b->cmd[0], b->cmd_len[0]);
        settle(b->scratch, r);
        t[T_FLAT_FILL] = run_model(b->flat, b->cmd[1], b->cmd_len[1]);
    }
    if (!b->processor)
        return;
    settle(b->scratch, r);
    t[T_TABLE_COPY] = run_table(b->gpu, 0);
    settle(b->scratch, r);
    t[T_TABLE_FILL] = run_table(b->gpu, 1);
    settle(b->scratch, r);
    t[T_KIT_COPY] = run_processor(b->gpu, b->cmd[0], b->cmd_len[0]);
    settle(b->scratch, r);
    t[T_KIT_FILL] = run_processor(b->gpu, b->cmd[1], b->cmd_len[1]);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median over rounds of host time / model time, each pair measured in the
 * same round; also the ratio of the medians' speeds for the printout. */
static double paired_ratio(double (*t)[T_COUNT], int rounds, int host, int model, double *host_s,
                           double *model_s)
{
    static double v[1000], h[1000], m[1000];
    for (int r = 0; r < rounds; r++) {
        v[r] = t[r][host] / t[r][model];
        h[r] = t[r][host];
        m[r] = t[r][model];
    }
    *host_s = median(h, rounds);
    *model_s = median(m, rounds);
    return median(v, rounds);
}

static double best_of(double (*t)[T_COUNT], int rounds, int which)
{
    double best = t[0][which];
    for (int r = 1; r < rounds; r++)
        best = t[r][which] < best ? t[r][which] : best;
    return best;
}

/* One line, and the figure `name` (figures.h). */
static void report(const char *name, const char *model, const char *host, double ratio, double host_s,
                   double model_s)
{
    double mib = (double)SIZE / (1 << 20);
    char what[96];
    snprintf(what, sizeof(what), "64 MiB %s through the model over host %s, median of paired rounds", model, host);
    wk_bench_figure(name, ratio, "ratio", WK_BENCH_AT_LEAST, GOAL, what);
    printf("  model %-5s %8.1f MiB/s   host %-6s %8.1f MiB/s   ratio %.2f (goal >= %.1f: %s)\n", model,
           mib / model_s, host, mib / host_s, ratio, GOAL, ratio >= GOAL ? "met" : "MISSED");
}

static void emit(struct bench *b)
{
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, b->cmd[0], sizeof(b->cmd[0]));
    wk_gpu_emit_copy(&w, SRC, DST, SIZE);
    b->cmd_len[0] = w.used;
    wk_gpu_writer_init(&w, b->cmd[1], sizeof(b->cmd[1]));
    wk_gpu_emit_fill(&w, SRC, SIZE, 0x5A5A5A5Au);
    b->cmd_len[1] = w.used;
    wk_gpu_writer_init(&w, b->cmd[2], sizeof(b->cmd[2]));
    wk_gpu_emit_fill(&w, SRC, SIZE, 0x5A17C0DEu); /* four different bytes */
    b->cmd_len[2] = w.used;
}

int main(int argc, char **argv)
{
    static struct bench b;
    int rounds = wk_bench_quick() ? 3 : 15, flat = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--processor") == 0)
            b.processor = 1;
        else if (strcmp(argv[i], "--flat") == 0)
            flat = 1;
        else
            rounds = atoi(argv[i]);
    }
    if (rounds < 1 || rounds > 1000) {
        fprintf(stderr, "usage: gpu_copy [--processor] [--flat] [rounds 1..1000]\n");
        return 2;
    }
    static double t[1000][T_COUNT];
    b.gpu = make_gpu(0);
    b.flat = flat ? make_gpu(3) : NULL;
    emit(&b);
    b.hsrc = malloc(SIZE), b.hdst = malloc(SIZE), b.scratch = malloc(SIZE);
    if (!b.hsrc || !b.hdst || !b.scratch)
        return 1;
    memset(b.hsrc, 0x5A, SIZE);
    memset(b.hdst, 0, SIZE);
    memset(b.scratch, 0, SIZE);
    run_model(b.gpu, b.cmd[1], b.cmd_len[1]); /* warm: back source and destination */
    run_model(b.gpu, b.cmd[0], b.cmd_len[0]);
    if (b.flat) {
        run_model(b.flat, b.cmd[1], b.cmd_len[1]);
        run_model(b.flat, b.cmd[0], b.cmd_len[0]);
    }
    for (int r = 0; r < rounds; r++)
        round_times(&b, r, t[r]);
    /* Keep the host buffers observable so the compiler cannot drop them. */
    volatile uint8_t sink = (uint8_t)(b.hdst[SIZE / 2] ^ b.hsrc[SIZE / 3] ^ b.scratch[SIZE / 5]);
    (void)sink;

    double hs, ms;
    printf("gpu_copy: 64 MiB, median of %d rounds\n", rounds);
    double ratio = paired_ratio(t, rounds, T_MEMCPY, T_COPY, &hs, &ms);
    report("gpu_copy.copy_ratio", "COPY", "memcpy", ratio, hs, ms);
    ratio = paired_ratio(t, rounds, T_MEMSET, T_FILL, &hs, &ms);
    report("gpu_copy.fill_ratio", "FILL", "memset", ratio, hs, ms);
    ratio = paired_ratio(t, rounds, T_MEMSET, T_PATTERN, &hs, &ms);
    printf("  model FILL with a 4-byte pattern %8.1f MiB/s   ratio to memset %.2f (information)\n",
           (double)SIZE / (1 << 20) / ms, ratio);
    printf("  best round of each side instead (the former figure, information): COPY %.2f  FILL %.2f\n",
           best_of(t, rounds, T_MEMCPY) / best_of(t, rounds, T_COPY),
           best_of(t, rounds, T_MEMSET) / best_of(t, rounds, T_FILL));
    if (b.flat) {
        printf("on mappable segments (flat, in the memfd; --flat):\n");
        ratio = paired_ratio(t, rounds, T_MEMCPY, T_FLAT_COPY, &hs, &ms);
        report("gpu_copy.flat_copy_ratio", "COPY", "memcpy", ratio, hs, ms);
        ratio = paired_ratio(t, rounds, T_MEMSET, T_FLAT_FILL, &hs, &ms);
        report("gpu_copy.flat_fill_ratio", "FILL", "memset", ratio, hs, ms);
    }
    if (b.processor) {
        printf("through the memory table (wk_mem_ops copy, fill of a 1-byte pattern):\n");
        ratio = paired_ratio(t, rounds, T_MEMCPY, T_TABLE_COPY, &hs, &ms);
        report("gpu_copy.table_copy_ratio", "COPY", "memcpy", ratio, hs, ms);
        ratio = paired_ratio(t, rounds, T_MEMSET, T_TABLE_FILL, &hs, &ms);
        report("gpu_copy.table_fill_ratio", "FILL", "memset", ratio, hs, ms);
        printf("through the kit's processor (wk_gpu_exec_processor):\n");
        ratio = paired_ratio(t, rounds, T_MEMCPY, T_KIT_COPY, &hs, &ms);
        report("gpu_copy.processor_copy_ratio", "COPY", "memcpy", ratio, hs, ms);
        ratio = paired_ratio(t, rounds, T_MEMSET, T_KIT_FILL, &hs, &ms);
        report("gpu_copy.processor_fill_ratio", "FILL", "memset", ratio, hs, ms);
    }
    free(b.hsrc);
    free(b.hdst);
    free(b.scratch);
    wk_gpu_destroy(b.gpu);
    wk_gpu_destroy(b.flat);
    return 0;
}
