/* SPDX-License-Identifier: MIT */
/*
 * vidmm_scale.c - what an allocation costs the reference video memory
 * manager as the number alive grows from 1k to 1M (docs/performance.md,
 * "Memory manager: 1k to 1M allocations"; issue 26 item 3).
 *
 * Each N gets a fresh adapter (the reference driver linked in) whose one
 * memory segment holds RESIDENT one-page allocations, one device, then:
 *   create   N CreateAllocation calls (one page each; none resident: a
 *            create only records the allocation, the kit places it when
 *            something needs it there)
 *   page_in  the first min(N, RESIDENT) made resident (wk_vidmm_page_in):
 *            what fits; the rest stay non-resident
 *   churn    operations on random live allocations: destroy one (resident
 *            or not) and create another in its place (not resident); an
 *            operation is the pair
 *   destroy  every allocation destroyed
 * and prints the CPU time per operation of each phase (process CPU time:
 * the machine is shared), the share resident after page_in, and for each
 * phase the ratio of its cost at the largest N to its cost at 1k. Goal
 * (issue 26): every ratio at most 3. An N below MIN_SAMPLE runs again on
 * fresh adapters until it made that many allocations (MAX_RUNS at most),
 * and the median run counts.
 *
 * Usage: vidmm_scale [--quick] [MAX_N]   (default 1000000; --quick: 100000
 * and a tenth of the churn)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figures.h"
#include "reference.h"

#define PAGE 4096ull
#define RESIDENT 4096u              /* one-page allocations the memory segment holds */
#define CHURN 100000u
#define MIN_SAMPLE 50000u           /* creates, summed over repeated runs */
#define MIN_CHURN 10000u
#define MAX_RUNS 15u

enum phase { P_CREATE, P_PAGE_IN, P_CHURN, P_DESTROY, P_COUNT };
static const char *const phase_name[P_COUNT] = { "create", "page_in", "churn", "destroy" };

struct run {
    double sec[P_COUNT];
    uint64_t ops[P_COUNT];
    uint32_t resident;
};

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static void die(struct wk_vidmm *vm, const char *what, wk_status st)
{
    fprintf(stderr, "vidmm_scale: %s: status %d: %s\n", what, (int)st, vm ? wk_vidmm_last_error(vm) : "");
    exit(1);
}

/* One memory segment of RESIDENT pages (no aperture: a page-in goes there
 * or nowhere), and system memory for the kit's own buffers. */
static const struct wk_gpu_desc *adapter(void)
{
    static struct wk_gpu_segment_desc seg[1];
    static struct wk_gpu_desc d;
    seg[0].kind = WK_GPU_SEGMENT_MEMORY;
    seg[0].base = 0x100000;
    seg[0].size = RESIDENT * PAGE;
    d.segment_count = 1;
    d.segments = seg;
    d.sysmem_first_pfn = 0x100000;
    d.sysmem_pages = 4096;
    return &d;
}

static struct wk_vidmm *open_adapter(uint32_t *device)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.gpu = adapter();
    cfg.seed = 26;
    struct wk_vidmm *vm = NULL;
    wk_status st = wk_vidmm_create(&cfg, &vm);
    if (st != WK_OK)
        die(vm, "wk_vidmm_create", st);
    if ((st = wk_vidmm_attach(vm, wk_refdriver_DriverEntry)) != WK_OK)
        die(vm, "wk_vidmm_attach", st);
    if ((st = wk_vidmm_start(vm)) != WK_OK)
        die(vm, "wk_vidmm_start", st);
    if ((st = wk_vidmm_create_device(vm, 0, device)) != WK_OK)
        die(vm, "wk_vidmm_create_device", st);
    return vm;
}

static uint32_t create_one(struct wk_vidmm *vm, uint32_t device)
{
    WK_ALLOCATION_REQUEST r;
    memset(&r, 0, sizeof(r));
    r.Magic = WK_ALLOCATION_REQUEST_MAGIC;
    r.Version = WK_ALLOCATION_REQUEST_VERSION;
    r.Size = PAGE;
    uint32_t h = 0;
    wk_status st = wk_vidmm_create_allocation(vm, device, &r, &h);
    if (st != WK_OK)
        die(vm, "wk_vidmm_create_allocation", st);
    return h;
}

static int is_resident(struct wk_vidmm *vm, uint32_t h)
{
    struct wk_vidmm_allocation_state s;
    wk_status st = wk_vidmm_allocation_state(vm, h, &s);
    if (st != WK_OK)
        die(vm, "wk_vidmm_allocation_state", st);
    return s.resident;
}

static void one_run(uint32_t n, uint32_t churn, uint64_t seed, struct run *out)
{
    uint32_t device;
    struct wk_vidmm *vm = open_adapter(&device);
    uint32_t *h = malloc((size_t)n * sizeof(*h));
    if (!h)
        die(NULL, "out of memory", WK_E_NO_MEMORY);
    memset(out, 0, sizeof(*out));

    double t0 = cpu_now();
    for (uint32_t i = 0; i < n; i++)
        h[i] = create_one(vm, device);
    double t1 = cpu_now();
    uint32_t fit = n < RESIDENT ? n : RESIDENT;
    for (uint32_t i = 0; i < fit; i++) {
        wk_status st = wk_vidmm_page_in(vm, h[i]);
        if (st != WK_OK)
            die(vm, "wk_vidmm_page_in", st);
    }
    double t2 = cpu_now();
    uint32_t resident = 0;
    for (uint32_t i = 0; i < n; i++)
        resident += (uint32_t)is_resident(vm, h[i]);
    out->resident = resident;
    double churn_start = cpu_now();
    for (uint32_t k = 0; k < churn; k++) {
        uint32_t i = (uint32_t)(rng_next(&seed) % n);
        wk_status st = wk_vidmm_destroy_allocation(vm, h[i]);
        if (st != WK_OK)
            die(vm, "wk_vidmm_destroy_allocation", st);
        h[i] = create_one(vm, device);
    }
    double t3 = cpu_now();
    for (uint32_t i = 0; i < n; i++) {
        wk_status st = wk_vidmm_destroy_allocation(vm, h[i]);
        if (st != WK_OK)
            die(vm, "wk_vidmm_destroy_allocation", st);
    }
    double t4 = cpu_now();
    struct wk_violation v;
    if (wk_vidmm_violations(vm, &v, 1, NULL) != 0) {
        fprintf(stderr, "vidmm_scale: a rule was broken: %s\n", v.message);
        exit(1);
    }
    wk_vidmm_destroy(vm);
    free(h);
    out->sec[P_CREATE] = t1 - t0;
    out->ops[P_CREATE] = n;
    out->sec[P_PAGE_IN] = t2 - t1;
    out->ops[P_PAGE_IN] = fit;
    out->sec[P_CHURN] = t3 - churn_start;
    out->ops[P_CHURN] = churn;
    out->sec[P_DESTROY] = t4 - t3;
    out->ops[P_DESTROY] = n;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Microseconds per operation of each phase at n: the median over runs,
 * as many as it takes for MIN_SAMPLE creates (at most MAX_RUNS), the churn
 * shared among them (at least MIN_CHURN a run). */
static void measure(uint32_t n, uint32_t churn, double us[P_COUNT], uint32_t *resident)
{
    uint32_t runs = (MIN_SAMPLE + n - 1) / n;
    runs = runs > MAX_RUNS ? MAX_RUNS : runs;
    uint32_t churn_per_run = churn / runs > MIN_CHURN ? churn / runs : MIN_CHURN;
    double per[P_COUNT][MAX_RUNS];
    for (uint32_t r = 0; r < runs; r++) {
        struct run one;
        one_run(n, churn_per_run, 0x9E3779B97F4A7C15ull + r, &one);
        for (int p = 0; p < P_COUNT; p++)
            per[p][r] = one.ops[p] ? one.sec[p] * 1e6 / (double)one.ops[p] : 0;
        *resident = one.resident;
    }
    for (int p = 0; p < P_COUNT; p++) {
        qsort(per[p], runs, sizeof(double), by_value);
        us[p] = per[p][runs / 2];
    }
}

int main(int argc, char **argv)
{
    uint32_t max_n = 1000000, churn = CHURN;
    if (wk_bench_quick()) { /* make bench QUICK=1 (figures.h): seconds */
        max_n = 10000;
        churn = CHURN / 10;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            max_n = 100000;
            churn = CHURN / 10;
        } else {
            max_n = (uint32_t)strtoul(argv[i], NULL, 10);
        }
    }
    if (max_n < 1000) {
        fprintf(stderr, "usage: vidmm_scale [--quick] [MAX_N >= 1000]\n");
        return 2;
    }
    printf("vidmm_scale: one-page allocations, %u fit in the segment; CPU us per operation (median run)\n",
           RESIDENT);
    printf("%9s %9s %9s %9s %9s %9s\n", "N", "resident", "create", "page_in", "churn", "destroy");
    double first[P_COUNT] = { 0 }, last[P_COUNT] = { 0 };
    uint32_t last_n = 0;
    for (uint32_t n = 1000; n <= max_n; n *= 10) {
        double us[P_COUNT];
        uint32_t resident = 0;
        measure(n, churn, us, &resident);
        printf("%9u %8.1f%% %9.3f %9.3f %9.3f %9.3f\n", n, 100.0 * resident / n, us[P_CREATE], us[P_PAGE_IN],
               us[P_CHURN], us[P_DESTROY]);
        fflush(stdout);
        for (int p = 0; p < P_COUNT; p++) {
            if (n == 1000)
                first[p] = us[p];
            last[p] = us[p];
        }
        last_n = n;
        if (n > UINT32_MAX / 10)
            break;
    }
    int met = 1;
    printf("ratio %u/1000 (goal <= 3):", last_n);
    for (int p = 0; p < P_COUNT; p++) {
        double ratio = first[p] > 0 ? last[p] / first[p] : 0;
        met &= ratio <= 3.0;
        printf(" %s %.2f", phase_name[p], ratio);
        char name[64], what[128];
        snprintf(name, sizeof(name), "vidmm_scale.%s_largest_over_1k", phase_name[p]);
        snprintf(what, sizeof(what), "%s: CPU per operation with %u allocations over with 1,000", phase_name[p], last_n);
        wk_bench_figure(name, ratio, "ratio", WK_BENCH_AT_MOST, 3.0, what);
        snprintf(name, sizeof(name), "vidmm_scale.%s_us", phase_name[p]);
        snprintf(what, sizeof(what), "%s: CPU per operation with %u allocations", phase_name[p], last_n);
        wk_bench_figure(name, last[p], "us", WK_BENCH_INFO, 0, what);
    }
    printf("  -> %s\n", met ? "met" : "NOT met");
    return 0;
}
