/* SPDX-License-Identifier: MIT */
/*
 * fuzz_stability.c - what AFL++ calls a harness's stability, measured
 * without AFL++, and where the unstable edges are.
 *
 * AFL++ runs a new input several times in a row and counts an edge as
 * variable when its hit count (in AFL++'s buckets: 1, 2, 3, 4-7, 8-15,
 * 16-31, 32-127, 128+) differs between the runs; stability is the share of
 * covered edges that never varied. In persistent mode the first run of an
 * input follows another input, the others follow itself, so anything the
 * harness carries from one input to the next and lets change the path
 * (kept adapters, pools, tree shapes, uninitialised state) shows here.
 * AFL++ reports the figure but not where the variable edges are; this tool
 * names them, source line and function, so they can be fixed.
 *
 * Built by the bench-libfuzzer preset only: it reads libFuzzer's inline
 * 8-bit counters of this executable (the kit, the GPU model, the reference
 * driver, instrumented as a libFuzzer campaign has them, with
 * fuzz/coverage-ignorelist.txt and the harness's coverage gate) and their
 * PC table. The harnesses are compiled in as for fuzz_speed
 * (wk_bench_<harness>, harnesses.h).
 *
 * For each input of DIR (default: corpus/HARNESS/seeds; an AFL++ queue is
 * the better test), in name order: one run of a byte-mutated other input
 * (the history), then the input 8 times; the counters of runs 2..8 are
 * compared with run 1's. Findings do not stop it (WK_FUZZ_NO_ABORT=1).
 *
 * With WK_DRIVER=module.so (built by this preset, so that it carries the
 * same counters) the driver under test is loaded as the harnesses load it
 * (LLVMFuzzerInitialize, which hands its counters to the coverage gate),
 * and its counters are judged too, on a line of their own: what a
 * libFuzzer campaign against that driver sees of it.
 *
 * Usage: fuzz_stability HARNESS [DIR [LINES]]. Prints the figure and the
 * LINES (default 20) source lines with the most varying inputs; exit
 * status 0, or 2 on a usage error.
 */
#define _POSIX_C_SOURCE 200809L /* popen, setenv, strdup */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate/coverage_gate.h"
#include "harness.h"
#include "harnesses.h"

#define MAX_INPUTS 8192u
#define MAX_INPUT (1u << 20)
#define RUNS 8


static const struct {
    const char *name;
    harness_fn *fn;
} harnesses[] = {
    { "fuzz_gpu_decode", wk_bench_fuzz_gpu_decode }, { "fuzz_patch", wk_bench_fuzz_patch },
    { "fuzz_render", wk_bench_fuzz_render },         { "fuzz_paging", wk_bench_fuzz_paging },
    { "fuzz_prog", wk_bench_fuzz_prog },
};

/* libFuzzer's instrumentation: one counter per edge, and per edge a
 * (PC, flags) pair; bounds from the linker. */
extern uint8_t __start___sancov_cntrs[], __stop___sancov_cntrs[];
extern const uintptr_t __start___sancov_pcs[], __stop___sancov_pcs[];
extern const char __executable_start[];

struct inputs {
    uint8_t *data[MAX_INPUTS];
    size_t size[MAX_INPUTS];
    uint32_t count;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; 0 when none. */
static uint32_t load(struct inputs *in, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char **names = malloc(MAX_INPUTS * sizeof(*names));
    uint32_t n = 0;
    for (struct dirent *e; names && n < MAX_INPUTS && (e = readdir(d));)
        if (e->d_name[0] != '.' && strncmp(e->d_name, "README", 6) != 0)
            names[n++] = strdup(e->d_name);
    closedir(d);
    if (!names)
        return 0;
    qsort(names, n, sizeof(*names), by_name);
    for (uint32_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "rb");
        uint8_t *buf = f ? malloc(MAX_INPUT) : NULL;
        if (buf) {
            in->size[in->count] = fread(buf, 1, MAX_INPUT, f);
            in->data[in->count++] = buf;
        }
        if (f)
            fclose(f);
        free(names[i]);
    }
    free(names);
    return in->count;
}

static uint8_t bucket(uint8_t c)
{
    static const uint8_t small[8] = { 0, 1, 2, 4, 8, 8, 8, 8 };
    return c < 8 ? small[c] : c < 16 ? 16 : c < 32 ? 32 : c < 128 ? 64 : 128;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Dull;
}

/* One array of counters judged: this executable's, or the driver module's. */
struct region {
    uint8_t *counters;
    size_t edges;
    uint8_t *first, *covered, *changed;
    uint32_t *varied;
};
static struct region exe, module;

static int region_init(struct region *r, uint8_t *counters, size_t edges)
{
    r->counters = counters;
    r->edges = edges;
    r->first = malloc(edges ? edges : 1);
    r->covered = calloc(edges ? edges : 1, 1);
    r->changed = calloc(edges ? edges : 1, 1);
    r->varied = calloc(edges ? edges : 1, sizeof(*r->varied));
    return r->first && r->covered && r->changed && r->varied;
}

/* After run r (0-based) of one input. */
static void region_compare(struct region *g, int r)
{
    for (size_t e = 0; e < g->edges; e++) {
        uint8_t b = bucket(g->counters[e]);
        if (r == 0)
            g->first[e] = b;
        else if (b != g->first[e])
            g->changed[e] = 1;
        g->covered[e] |= b != 0;
    }
}

static void region_next_input(struct region *g)
{
    for (size_t e = 0; e < g->edges; e++)
        g->varied[e] += g->changed[e];
    memset(g->changed, 0, g->edges);
}

/* Prints the region's figure; the number of variable edges. */
static size_t region_report(const struct region *g, const char *what)
{
    size_t ncovered = 0, nvaried = 0;
    for (size_t e = 0; e < g->edges; e++) {
        ncovered += g->covered[e];
        nvaried += g->varied[e] != 0;
    }
    printf("  %s: %zu edges covered of %zu, %zu variable: stability %.2f%%\n", what, ncovered, g->edges, nvaried,
           ncovered ? 100.0 * (double)(ncovered - nvaried) / (double)ncovered : 100.0);
    return nvaried;
}

/* Runs data in a fresh buffer of its exact size, as the engines do, and
 * returns with the counters of that run alone. */
static void run(harness_fn *fn, const uint8_t *data, size_t size)
{
    memset(exe.counters, 0, exe.edges);
    if (module.edges)
        memset(module.counters, 0, module.edges);
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return;
    memcpy(copy, data, size);
    fn(copy, size);
    free(copy);
}

static void run_mutant(harness_fn *fn, const struct inputs *in)
{
    uint32_t i = (uint32_t)(rnd() % in->count);
    size_t size = in->size[i];
    uint8_t *m = malloc(size + 1);
    if (!m)
        return;
    memcpy(m, in->data[i], size);
    for (int k = 0, n = 1 + (int)(rnd() % 4); size && k < n; k++)
        m[rnd() % size] ^= (uint8_t)(1u << (rnd() % 8));
    run(fn, m, size);
    free(m);
}

struct line {
    char *where;
    uint32_t inputs;
};

static int by_inputs(const void *a, const void *b)
{
    const struct line *x = a, *y = b;
    return x->inputs != y->inputs ? (x->inputs < y->inputs ? 1 : -1) : strcmp(x->where, y->where);
}

/* Names the variable edges by source line (addr2line on this program),
 * each line with the inputs that varied on its edges; the offsets alone
 * when addr2line cannot be run. */
static void print_lines(const uint32_t *varied, size_t edges, unsigned limit)
{
    char tmp[] = "/tmp/wk_fuzz_stability.XXXXXX";
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    uint32_t count = 0;
    for (size_t e = 0; e < edges; e++)
        if (varied[e]) {
            uintptr_t off = __start___sancov_pcs[2 * e] - (uintptr_t)__executable_start;
            if (f)
                fprintf(f, "%#lx\n", (unsigned long)off);
            else
                printf("    %6u inputs  +%#lx\n", varied[e], (unsigned long)off);
            count++;
        }
    if (!f)
        return;
    fclose(f);
    /* This process's own file, by a path that needs no quoting. */
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "addr2line -f -C -e /proc/%ld/exe < %s", (long)getpid(), tmp);
    FILE *p = popen(cmd, "r");
    struct line *lines = calloc(count ? count : 1, sizeof(*lines));
    uint32_t nlines = 0;
    char fn[512], at[1024];
    for (size_t e = 0; p && lines && e < edges; e++) {
        if (!varied[e])
            continue;
        if (!fgets(fn, sizeof(fn), p) || !fgets(at, sizeof(at), p))
            break;
        fn[strcspn(fn, "\n")] = at[strcspn(at, "\n")] = '\0';
        const char *file = strrchr(at, '/') ? strrchr(at, '/') + 1 : at;
        char where[1600];
        snprintf(where, sizeof(where), "%s %s", file, fn);
        uint32_t k = 0;
        while (k < nlines && strcmp(lines[k].where, where))
            k++;
        if (k == nlines)
            lines[nlines++].where = strdup(where);
        lines[k].inputs += varied[e];
    }
    if (p)
        pclose(p);
    unlink(tmp);
    if (!lines)
        return;
    qsort(lines, nlines, sizeof(*lines), by_inputs);
    for (uint32_t k = 0; k < nlines && k < limit; k++)
        printf("    %6u  %s\n", lines[k].inputs, lines[k].where ? lines[k].where : "?");
    for (uint32_t k = 0; k < nlines; k++)
        free(lines[k].where);
    free(lines);
}

int main(int argc, char **argv)
{
    harness_fn *fn = NULL;
    for (size_t i = 0; argc >= 2 && i < sizeof(harnesses) / sizeof(harnesses[0]); i++)
        if (!strcmp(argv[1], harnesses[i].name))
            fn = harnesses[i].fn;
    if (!fn || argc > 4) {
        fprintf(stderr, "usage: fuzz_stability HARNESS [DIR [LINES]]\n"
                        "  HARNESS: fuzz_gpu_decode, fuzz_patch, fuzz_render, fuzz_paging, fuzz_prog\n"
                        "  DIR: inputs (default %s/HARNESS/seeds)\n", WK_CORPUS_DIR);
        return 2;
    }
    char dir[2048];
    if (argc >= 3)
        snprintf(dir, sizeof(dir), "%s", argv[2]);
    else
        snprintf(dir, sizeof(dir), "%s/%s/seeds", WK_CORPUS_DIR, argv[1]);
    unsigned limit = argc == 4 ? (unsigned)strtoul(argv[3], NULL, 10) : 20;
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    static struct inputs in;
    if (!load(&in, dir)) {
        fprintf(stderr, "fuzz_stability: no inputs in %s\n", dir);
        return 2;
    }
    if (!region_init(&exe, __start___sancov_cntrs, (size_t)(__stop___sancov_cntrs - __start___sancov_cntrs)))
        return 1;
    const char *driver = getenv("WK_DRIVER");
    if (driver && *driver) {
        int ac = 0;
        char **av = NULL;
        LLVMFuzzerInitialize(&ac, &av); /* loads it, as the harnesses do; exits 2 when it does not load */
        uint8_t *at = NULL;
        size_t len = 0;
        char why[300];
        if (wk_fuzz_module_counters(driver, &at, &len, why, sizeof(why)) != 1) {
            fprintf(stderr, "fuzz_stability: %s: no counters to judge (%s)\n", driver, why);
            return 2;
        }
        if (!region_init(&module, at, len))
            return 1;
    }
    for (uint32_t i = 0; i < in.count; i++) {
        run_mutant(fn, &in);
        for (int r = 0; r < RUNS; r++) {
            run(fn, in.data[i], in.size[i]);
            region_compare(&exe, r);
            if (module.edges)
                region_compare(&module, r);
        }
        region_next_input(&exe);
        if (module.edges)
            region_next_input(&module);
    }
    printf("fuzz_stability %s: %u inputs from %s, each after a mutated other input, then %d runs\n", argv[1],
           in.count, dir, RUNS);
    size_t nvaried = region_report(&exe, "this program");
    if (module.edges)
        region_report(&module, driver);
    if (nvaried) {
        printf("  where in this program (inputs that varied there, by source line and function):\n");
        print_lines(exe.varied, exe.edges, limit);
    }
    return 0;
}
