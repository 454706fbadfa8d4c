/* SPDX-License-Identifier: MIT */
/*
 * fuzz_floor.c - `fuzz_speed --floor HARNESS [CORPUS_DIR]`: what an input
 * costs over its floor (issue 26's yardstick, docs/performance.md).
 *
 * The floor of an input is the time it spends where no harness can save
 * any: inside the driver's DDI calls (the driver under test and, in a
 * differential harness, the reference driver beside it) and inside the
 * command processor executing the buffers they built (moving bytes is the
 * hardware's work). A build with WK_FLOOR_TIMING (the bench-floor preset)
 * sums those intervals (reference-impl/vidmm/floor.c); this file runs the
 * inputs and divides:
 *
 *   - each committed seed, unmutated, run until it has taken 20 ms (2 ms
 *     in a quick run), after one warm run: its time per run over its floor;
 * The kernel callbacks and kernel-mode services the driver calls inside a
 * DDI are the kit's work and are out of the floor (floor.c); register
 * accesses are the hardware's and stay in.
 *
 *   - a mutated mix: seeds mutated as the engine loop does (fuzz_speed.c),
 *     each run once and timed alone, for 10 s (1 s quick);
 *   - the median, the 90th percentile and the maximum of each, and the
 *     floor's split between driver and GPU;
 *   - system calls per input, and of them the ones that change mappings
 *     (mmap, munmap, mprotect, mremap, madvise but MADV_POPULATE_*), counted in a child process
 *     under ptrace after a warm pass: the steady state.
 *
 * Both times are read on one clock, CLOCK_MONOTONIC through the vDSO, so
 * their ratio holds under load as long as preemption falls on both alike;
 * the process's CPU time over the pass is printed beside its wall time so
 * that a loaded machine shows. A clock read's own cost is measured in the
 * same run and taken out: an input's total loses one read per run and two
 * per floor interval, its floor one per interval. An input with no floor
 * (refused before any DDI call) has no ratio: counted and shown apart.
 */
#define _GNU_SOURCE /* PTRACE_GET_SYSCALL_INFO, ptrace options */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "figures.h"
#include "fuzz_speed.h"
#include "reference.h"

#define MIX_MAX 200000u

struct sample {
    double total_ns, floor_ns;
    double calls; /* DDI calls and command-processor runs timed, per run */
};

struct summary {
    double median, p90, max, sum_ratio;
    double clock_ns;                     /* a clock read's cost */
    double floor_per_call, kit_per_call; /* medians over the inputs with a floor, ns */
    uint32_t ratios, no_floor;
    uint32_t below_clock;                /* with a floor under one clock read a call */
    double no_floor_max_ns;
    const char *max_name, *no_floor_max_name;
};

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One clock read, ns: the mean of a million, the least of three tries. */
static double clock_read_ns(void)
{
    double best = 1e9;
    for (int k = 0; k < 3; k++) {
        uint64_t t0 = mono_ns(), sink = 0;
        for (int i = 0; i < 1000000; i++)
            sink += mono_ns();
        double per = (double)(mono_ns() - t0) / 1e6;
        __asm__ volatile("" : : "r"(sink));
        best = per < best ? per : best;
    }
    return best;
}

/* The floor summed so far, and the clock reads inside the intervals that
 * it holds one of each: an interval's second read, and each callback
 * pause's second read (its first is outside the pause, inside the
 * interval; floor.c). The input's total holds two of each. */
static uint64_t floor_total(const struct wk_floor *f, uint64_t *intervals)
{
    *intervals = f->driver_calls + f->gpu_runs + f->callbacks;
    return f->driver_ns + f->gpu_ns;
}

/* Runs one input until it has taken min_ns (after a warm run): per run,
 * its time and its floor, the clock's cost taken out. */
static struct sample time_seed(harness_fn *fn, const uint8_t *data, size_t size, uint64_t min_ns, double c,
                               struct wk_floor *split)
{
    run_copy(fn, data, size);
    struct wk_floor a, b;
    uint64_t reps = 0, t, ia, ib;
    wk_floor_read(&a);
    uint64_t t0 = mono_ns();
    do {
        run_copy(fn, data, size);
        reps++;
        t = mono_ns();
    } while (t - t0 < min_ns);
    wk_floor_read(&b);
    uint64_t fa = floor_total(&a, &ia), fb = floor_total(&b, &ib);
    double n = (double)(ib - ia);
    split->driver_ns += b.driver_ns - a.driver_ns;
    split->gpu_ns += b.gpu_ns - a.gpu_ns;
    struct sample s;
    s.total_ns = ((double)(t - t0) - (double)reps * c - 2 * n * c) / (double)reps;
    s.floor_ns = ((double)(fb - fa) - n * c) / (double)reps;
    s.calls = (double)((b.driver_calls + b.gpu_runs) - (a.driver_calls + a.gpu_runs)) / (double)reps;
    return s;
}

/* One mutated input, run once. */
static struct sample time_once(harness_fn *fn, const uint8_t *data, size_t size, double c, struct wk_floor *split)
{
    struct wk_floor a, b;
    uint64_t ia, ib;
    wk_floor_read(&a);
    uint64_t t0 = mono_ns();
    run_copy(fn, data, size);
    uint64_t t1 = mono_ns();
    wk_floor_read(&b);
    uint64_t fa = floor_total(&a, &ia), fb = floor_total(&b, &ib);
    double n = (double)(ib - ia);
    split->driver_ns += b.driver_ns - a.driver_ns;
    split->gpu_ns += b.gpu_ns - a.gpu_ns;
    return (struct sample){ (double)(t1 - t0) - c - 2 * n * c, (double)(fb - fa) - n * c,
                            (double)((b.driver_calls + b.gpu_runs) - (a.driver_calls + a.gpu_runs)) };
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The ratios of samples with a floor; the others counted apart. A floor
 * under 50 ns is within a few clock reads: no floor (an input refused
 * before any DDI call, or whose DDI calls only called the kit back). */
/* The median of v[0, n) (sorted in place); 0 when n is 0. */
static double median_of(double *v, uint32_t n)
{
    qsort(v, n, sizeof(*v), by_double);
    return n ? v[n / 2] : 0;
}

/* Per DDI call or command-processor run of each input with a floor: the
 * floor's time and the kit's (the input's time beyond its floor), medians.
 * The kit's part per call hardly depends on the driver, where the ratio
 * does: a driver whose DDIs do little has a high ratio however lean the
 * kit is (docs/performance.md, "The floor"). */
static void per_call(const struct sample *s, uint32_t n, struct summary *r)
{
    double *f = malloc((n ? n : 1) * sizeof(*f)), *k = malloc((n ? n : 1) * sizeof(*k));
    uint32_t m = 0;
    for (uint32_t i = 0; f && k && i < n; i++)
        if (s[i].floor_ns >= 50 && s[i].calls > 0) {
            f[m] = s[i].floor_ns / s[i].calls;
            k[m++] = (s[i].total_ns - s[i].floor_ns) / s[i].calls;
        }
    if (f && k) {
        r->floor_per_call = median_of(f, m);
        r->kit_per_call = median_of(k, m);
    }
    free(f);
    free(k);
}

/* The inputs' ratios and per-call figures; clock_ns, a clock read's cost,
 * is the resolution below which a floor per call is counted apart. */
static struct summary summarize(const struct sample *s, uint32_t n, char *const *names, double clock_ns)
{
    struct summary r = { 0 };
    for (uint32_t i = 0; i < n; i++)
        r.below_clock += s[i].floor_ns >= 50 && s[i].calls > 0 && s[i].floor_ns / s[i].calls < clock_ns;
    r.clock_ns = clock_ns;
    per_call(s, n, &r);
    double *ratio = malloc((n ? n : 1) * sizeof(*ratio)), total = 0, floor = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (s[i].floor_ns < 50) {
            r.no_floor++;
            if (s[i].total_ns > r.no_floor_max_ns) {
                r.no_floor_max_ns = s[i].total_ns;
                r.no_floor_max_name = names ? names[i] : NULL;
            }
            continue;
        }
        double q = s[i].total_ns / s[i].floor_ns;
        if (q > r.max) {
            r.max = q;
            r.max_name = names ? names[i] : NULL;
        }
        ratio[r.ratios++] = q;
        total += s[i].total_ns;
        floor += s[i].floor_ns;
    }
    qsort(ratio, r.ratios, sizeof(*ratio), by_double);
    if (r.ratios) {
        r.median = ratio[r.ratios / 2];
        r.p90 = ratio[(uint32_t)((r.ratios - 1) * 0.9)];
        r.sum_ratio = total / floor;
    }
    free(ratio);
    return r;
}

/* The n seeds with the highest time over floor, with both times: where a
 * p90 or a max comes from. */
static void print_worst(const struct sample *s, uint32_t count, char *const *names, uint32_t n)
{
    uint8_t *shown = calloc(count ? count : 1, 1);
    printf("         the seeds furthest over their floor:");
    for (uint32_t k = 0; shown && k < n; k++) {
        int64_t best = -1;
        for (uint32_t i = 0; i < count; i++)
            if (!shown[i] && s[i].floor_ns >= 50 &&
                (best < 0 || s[i].total_ns / s[i].floor_ns > s[best].total_ns / s[best].floor_ns))
                best = i;
        if (best < 0)
            break;
        shown[best] = 1;
        printf("%s %s %.0fx (%.1f us, floor %.2f us, %.0f calls)", k ? "," : "", names[best],
               s[best].total_ns / s[best].floor_ns, s[best].total_ns / 1e3, s[best].floor_ns / 1e3, s[best].calls);
    }
    printf("\n");
    free(shown);
}

static void print_summary(const char *what, const struct summary *r)
{
    printf("  %-6s median %6.1fx  p90 %6.1fx  max %7.1fx%s%s%s  all inputs together %5.1fx (%u inputs)\n", what,
           r->median, r->p90, r->max, r->max_name ? " (" : "", r->max_name ? r->max_name : "", r->max_name ? ")" : "",
           r->sum_ratio, r->ratios);
    printf("         per DDI call or GPU run (medians): the floor %.0f ns, the kit %.0f ns; %u inputs with a floor under "
           "one clock read a call (%.0f ns: their ratio is mostly the clock's error)\n", r->floor_per_call,
           r->kit_per_call, r->below_clock, r->clock_ns);
    if (r->no_floor)
        printf("         %u inputs with no floor (under 50 ns in driver code and GPU runs: no DDI call, or DDIs that only "
               "called the kit back), the costliest %.2f us%s%s%s\n", r->no_floor,
               r->no_floor_max_ns / 1e3, r->no_floor_max_name ? " (" : "",
               r->no_floor_max_name ? r->no_floor_max_name : "", r->no_floor_max_name ? ")" : "");
}

/*
 * The costliest mutated inputs, kept to be looked at: WK_FLOOR_SAVE=DIR
 * writes them there as costliest-N.bin (`wddmkit prog dump`, `repro`, a
 * profile of the one input: fuzz_speed --floor HARNESS with a corpus of it).
 */
#define KEEP_COSTLIEST 8u

struct costly {
    double total_ns, floor_ns;
    size_t size;
    uint8_t data[MAX_INPUT];
};

static struct costly costliest[KEEP_COSTLIEST];

static void note_costly(const uint8_t *data, size_t size, const struct sample *s)
{
    uint32_t low = 0;
    for (uint32_t i = 1; i < KEEP_COSTLIEST; i++)
        if (costliest[i].total_ns < costliest[low].total_ns)
            low = i;
    if (s->total_ns <= costliest[low].total_ns)
        return;
    costliest[low].total_ns = s->total_ns;
    costliest[low].floor_ns = s->floor_ns;
    costliest[low].size = size;
    memcpy(costliest[low].data, data, size);
}

static void save_costliest(const char *dir)
{
    if (!dir || !*dir)
        return;
    for (uint32_t i = 0; i < KEEP_COSTLIEST; i++) {
        if (!costliest[i].size)
            continue;
        char path[4200];
        snprintf(path, sizeof(path), "%s/costliest-%u.bin", dir, i);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(costliest[i].data, 1, costliest[i].size, f) != costliest[i].size) {
            fprintf(stderr, "fuzz_speed --floor: cannot write %s\n", path);
            if (f)
                fclose(f);
            continue;
        }
        fclose(f);
        printf("  saved %s: %.1f us, floor %.2f us\n", path, costliest[i].total_ns / 1e3, costliest[i].floor_ns / 1e3);
    }
}

/* ------------------------------------------------------------------ */
/* System calls per input, under ptrace                                 */
/* ------------------------------------------------------------------ */

struct syscalls {
    double all, mappings; /* per input */
    /* The mix only: the inputs that built an adapter (a description not
     * kept: wk_vidmm_adapters_created grew while they ran), and the mapping
     * changes of the others per input, the steady state's figure. */
    uint32_t building;
    double mappings_no_build;
};

/* What the traced child tells the tracer, in memory they share: which mix
 * input runs now (1-based; 0 outside the mix), and which ones built. */
#define TRACED_MAX 2000u
struct traced_marks {
    volatile uint32_t input;
    volatile uint8_t built[TRACED_MAX];
};

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Whether a system call changes mappings or their protection (issue 26's
 * steady-state goal): mmap, munmap, mprotect, mremap, and madvise, but for
 * the populating advice, which backs pages of a mapping as its page faults
 * would, in one call (the GPU model's FILLs of fresh pool pages, the
 * conformance case's stack: docs/performance.md), and changes neither. */
static int changes_mappings(unsigned long long nr, unsigned long long advice)
{
    if (nr == SYS_madvise)
        return advice != MADV_POPULATE_READ && advice != MADV_POPULATE_WRITE;
    return nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mprotect || nr == SYS_mremap;
}

/* The child: warm, then three phases between SIGSTOPs: nothing (what a
 * marker costs), the seeds once each, `mix` mutated inputs. */
static void traced_child(harness_fn *fn, const struct seeds *s, uint32_t mix, struct traced_marks *marks)
{
    static uint8_t work[MAX_INPUT];
    for (uint32_t i = 0; i < s->count; i++)
        run_copy(fn, s->data[i], s->size[i]);
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
        _exit(3);
    raise(SIGSTOP);
    raise(SIGSTOP);
    for (uint32_t i = 0; i < s->count; i++)
        run_copy(fn, s->data[i], s->size[i]);
    raise(SIGSTOP);
    /* The same inputs counted in every run, whatever the timed mix ran, and
     * not the timed mix's own (whose adapters may still be kept). */
    mutation_restart(0x5EC0DD15C0FFEEull);
    for (uint32_t i = 0; i < mix; i++) {
        size_t n = mutated_input(s, work);
        uint64_t before = wk_vidmm_adapters_created();
        marks->input = i + 1;
        run_copy(fn, work, n);
        marks->built[i] = wk_vidmm_adapters_created() != before;
    }
    marks->input = 0;
    raise(SIGSTOP);
    _exit(0);
}

/* Counts the child's system calls by phase; 0, or -1 after saying why. */
static int count_syscalls(harness_fn *fn, const struct seeds *s, uint32_t mix, struct syscalls *seeds,
                          struct syscalls *mixed)
{
    if (mix > TRACED_MAX)
        mix = TRACED_MAX;
    struct traced_marks *marks = mmap(NULL, sizeof(*marks), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (marks == MAP_FAILED)
        return -1;
    uint32_t *input_maps = calloc(mix ? mix : 1, sizeof(*input_maps));
    if (!input_maps) {
        munmap(marks, sizeof(*marks));
        return -1;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        free(input_maps);
        munmap(marks, sizeof(*marks));
        return -1;
    }
    if (pid == 0)
        traced_child(fn, s, mix, marks);
    uint64_t all[5] = { 0 }, maps[5] = { 0 };
    int phase = -1, status, sig = 0;
    for (;;) {
        if (phase >= 0 && ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) != 0)
            break;
        if (waitpid(pid, &status, 0) < 0 || WIFEXITED(status) || WIFSIGNALED(status))
            break;
        sig = 0;
        int stop = WSTOPSIG(status);
        if (phase < 0) { /* the first SIGSTOP: traced from here */
            ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
            phase = 0;
        } else if (stop == (SIGTRAP | 0x80)) {
            struct __ptrace_syscall_info info;
            if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) > 0 &&
                info.op == PTRACE_SYSCALL_INFO_ENTRY && phase < 5) {
                all[phase]++;
                const int changes = changes_mappings(info.entry.nr, info.entry.args[2]);
                maps[phase] += (uint64_t)changes;
                uint32_t at = marks->input; /* the child is stopped: read as it left it */
                if (phase == 2 && at > 0 && at <= mix && changes)
                    input_maps[at - 1]++;
            }
        } else if (stop == SIGSTOP) {
            phase++;
        } else {
            sig = stop; /* the child's own signal: delivered */
        }
    }
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fprintf(stderr, "fuzz_speed --floor: the traced child did not finish (ptrace: %s)\n", strerror(errno));
        free(input_maps);
        munmap(marks, sizeof(*marks));
        return -1;
    }
    uint64_t quiet_maps = 0;
    mixed->building = 0;
    for (uint32_t i = 0; i < mix; i++) {
        if (marks->built[i])
            mixed->building++;
        else
            quiet_maps += input_maps[i];
    }
    mixed->mappings_no_build = mix > mixed->building ? (double)quiet_maps / (double)(mix - mixed->building) : 0;
    free(input_maps);
    munmap(marks, sizeof(*marks));
    /* phase 0 holds only the next marker's own calls (raise: a few), as
     * phases 1 (the seeds) and 2 (the mix) each end with one */
    double marker = (double)all[0], seed_n = s->count ? s->count : 1;
    seeds->all = ((double)all[1] - marker) / seed_n;
    seeds->mappings = (double)(maps[1] - maps[0]) / seed_n;
    mixed->all = ((double)all[2] - marker) / (mix ? mix : 1);
    mixed->mappings = (double)(maps[2] - maps[0]) / (mix ? mix : 1);
    return 0;
}

/* ------------------------------------------------------------------ */

static void figure(const char *harness, const char *what, double value, const char *unit, enum wk_bench_goal kind,
                   double goal, const char *text)
{
    char name[96];
    snprintf(name, sizeof(name), "fuzz_floor.%s_%s", harness, what);
    wk_bench_figure(name, value, unit, kind, goal, text);
}

int floor_main(const char *harness, const char *corpus)
{
    harness_fn *fn = harness_named(harness);
    if (!fn) {
        fprintf(stderr, "fuzz_speed --floor: no harness \"%s\" (fuzz_gpu_decode, fuzz_patch, fuzz_render, "
                        "fuzz_paging, fuzz_prog)\n", harness);
        return 2;
    }
    if (!wk_floor_enabled()) {
        fprintf(stderr, "fuzz_speed --floor: this build does not time the floor: configure the bench-floor preset\n"
                        "  (cmake --preset bench-floor && cmake --build build/bench-floor --target fuzz_speed)\n");
        return 2;
    }
    int quick = wk_bench_quick();
    static struct seeds s;
    load_seeds(&s, corpus, harness);
    double c = clock_read_ns();
    printf("fuzz_speed --floor %s: %u seeds from %s/%s/seeds; a clock read %.1f ns (taken out)\n", harness, s.count,
           corpus, harness, c);

    struct wk_floor split = { 0 };
    struct sample *seed = calloc(s.count, sizeof(*seed));
    double wall0 = (double)mono_ns() * 1e-9, cpu0 = cpu_seconds();
    for (uint32_t i = 0; i < s.count; i++)
        seed[i] = time_seed(fn, s.data[i], s.size[i], quick ? 2000000u : 20000000u, c, &split);
    double seeds_wall = (double)mono_ns() * 1e-9 - wall0, seeds_cpu = cpu_seconds() - cpu0;
    struct summary sr = summarize(seed, s.count, s.name, c);

    static uint8_t work[MAX_INPUT];
    struct sample *mix = calloc(MIX_MAX, sizeof(*mix));
    uint32_t nmix = 0;
    double mix_seconds = quick ? 0.5 : 10.0;
    uint64_t end = mono_ns() + (uint64_t)(mix_seconds * 1e9);
    wall0 = (double)mono_ns() * 1e-9, cpu0 = cpu_seconds();
    while (nmix < MIX_MAX && mono_ns() < end) {
        size_t n = mutated_input(&s, work);
        mix[nmix] = time_once(fn, work, n, c, &split);
        note_costly(work, n, &mix[nmix++]);
    }
    double mix_wall = (double)mono_ns() * 1e-9 - wall0, mix_cpu = cpu_seconds() - cpu0;
    struct summary mr = summarize(mix, nmix, NULL, c);

    printf("  time over floor (the floor: driver DDIs + command processor; goals: median <= 4x, p90 <= 8x, "
           "no seed over 20x):\n");
    print_summary("seeds", &sr);
    print_worst(seed, s.count, s.name, 6);
    print_summary("mixed", &mr);
    double fsum = (double)(split.driver_ns + split.gpu_ns);
    printf("  the floor: %.0f%% driver, %.0f%% GPU; CPU over wall time: seeds %.2f, mixed %.2f (below 1: the "
           "process waited for a core, load on the machine)\n",
           fsum ? 100.0 * (double)split.driver_ns / fsum : 0, fsum ? 100.0 * (double)split.gpu_ns / fsum : 0,
           seeds_wall > 0 ? seeds_cpu / seeds_wall : 0, mix_wall > 0 ? mix_cpu / mix_wall : 0);

    save_costliest(getenv("WK_FLOOR_SAVE"));

    struct syscalls sc_seeds = { -1, -1, 0, -1 }, sc_mix = { -1, -1, 0, -1 };
    uint32_t traced_mix = quick ? 200 : TRACED_MAX;
    if (count_syscalls(fn, &s, traced_mix, &sc_seeds, &sc_mix) == 0)
        printf("  system calls per input (ptrace, after a warm pass): seeds %.2f (mapping changes %.2f), "
               "mixed %.2f (mapping changes %.2f, %u inputs; %.2f on the %u inputs that built no adapter; %u built "
               "one, for a description not kept)\n",
               sc_seeds.all, sc_seeds.mappings, sc_mix.all, sc_mix.mappings, traced_mix, sc_mix.mappings_no_build,
               traced_mix - sc_mix.building, sc_mix.building);

    figure(harness, "seed_median", sr.median, "x floor", WK_BENCH_AT_MOST, 4, "median seed's time over its floor");
    figure(harness, "seed_p90", sr.p90, "x floor", WK_BENCH_AT_MOST, 8, "90th percentile seed's time over its floor");
    figure(harness, "seed_max", sr.max, "x floor", WK_BENCH_AT_MOST, 20, "costliest seed's time over its floor");
    figure(harness, "mix_median", mr.median, "x floor", WK_BENCH_AT_MOST, 4, "median mutated input's time over its floor");
    figure(harness, "mix_p90", mr.p90, "x floor", WK_BENCH_AT_MOST, 8, "90th percentile mutated input over its floor");
    figure(harness, "seed_kit_per_call", sr.kit_per_call, "ns", WK_BENCH_INFO, 0,
           "median seed's time beyond its floor per DDI call or GPU run");
    figure(harness, "seed_floor_per_call", sr.floor_per_call, "ns", WK_BENCH_INFO, 0,
           "median seed's floor per DDI call or GPU run");
    figure(harness, "mix_kit_per_call", mr.kit_per_call, "ns", WK_BENCH_INFO, 0,
           "median mutated input's time beyond its floor per DDI call or GPU run");
    if (sc_seeds.all >= 0) {
        figure(harness, "seed_mapping_changes", sc_seeds.mappings, "per input", WK_BENCH_AT_MOST, 0,
               "mmap, munmap, mprotect, mremap, madvise (not populating) per seed run, steady state");
        figure(harness, "mix_mapping_changes", sc_mix.mappings, "per input", WK_BENCH_INFO, 0,
               "mmap, munmap, mprotect, mremap, madvise (not populating) per mutated input, adapter builds included");
        figure(harness, "mix_mapping_changes_steady", sc_mix.mappings_no_build, "per input", WK_BENCH_AT_MOST, 0,
               "mapping changes per mutated input that built no adapter (the steady state)");
        figure(harness, "mix_building", traced_mix ? (double)sc_mix.building / traced_mix : 0, "per input",
               WK_BENCH_INFO, 0, "mutated inputs that built an adapter (a description not kept), per input");
        figure(harness, "mix_syscalls", sc_mix.all, "per input", WK_BENCH_INFO, 0, "system calls per mutated input");
    }
    free(seed);
    free(mix);
    free_seeds(&s);
    return 0;
}
