/* SPDX-License-Identifier: MIT */
/*
 * fuzz_driver.c - the adapters of the driver harnesses and their finding
 * reports (fuzz_driver.h says what and why).
 *
 * Process-wide state, deliberately: a harness entry point has no context
 * argument, and building an adapter per input would cost more than the
 * input. Two slots (DUT, reference), each keeping up to KEPT adapters with
 * the knobs they have now, least recently used first out. An input whose
 * knobs one of them has reuses it after a reset; else, when no slot is
 * free, the least recently used adapter built with the same GPU
 * description and segment-query version (what wk_vidmm_reconfigure cannot
 * change) is reset and given the input's paging knobs, seed and
 * max_passes, and only an input whose description or version none has
 * builds one. Mutated fuzz_prog inputs alternate between a few knob sets
 * (most of the seeds' headers): each used to cost a new adapter (and the
 * first-touch faults of its fresh model) or a reconfigure (a new paging
 * buffer), and now costs a reset.
 *
 * A kept adapter remembers its GPU description by value (struct
 * desc_copy): the knobs' pointer points into the current input, which the
 * next input overwrites, and an equal description in another buffer must
 * find the same adapter.
 *
 * Several adapters are kept only when the driver under test is the
 * reference driver, which both roles already run side by side. A driver
 * from WK_DRIVER or WK_FUZZ_DRIVER_LIB may keep adapter state in globals
 * (its module is loaded once per process, RTLD_NODELETE), so its role gets
 * one live adapter, reconfigured for other paging knobs and destroyed
 * before another is built, as before; and so does the reference role then
 * (its new adapter built just before the old one is destroyed, below).
 * Both roles always take the same path (build, reset, reconfigure) for the
 * same inputs: a reset or reconfigured adapter is meant to behave as a
 * fresh one (tests/test_vidmm_kitgaps.c, tests/test_fuzz_driver.c), but
 * where the kit falls short of that, the two sides must be off alike, not
 * one of them, or the gap would be blamed on the driver under test.
 * (It did: after a reset and a reconfigure from 4097 to 1000 bytes of
 * paging buffer, multipass.map-64-pages-buffer-1000 gives another digest
 * than on a fresh adapter.) An input whose GPU description the reference
 * refuses must not break that either: the reference's adapter is built
 * before any kept one is dropped (the reference driver runs several side
 * by side), so a refusal leaves its slot as it was, and the DUT's slot,
 * never asked, is as it was too. A DUT that does not start where the
 * reference does is a finding, after which both slots start over.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, mmap */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reference.h"

#include "conformance.h"
#include "gate/coverage_gate.h"
#include "harness.h"
#include "fuzz_driver.h"

#ifdef WK_FUZZ_LINKED_DRIVER
/* Provided by the static library named by WK_FUZZ_DRIVER_LIB. */
NTSTATUS wk_fuzz_linked_DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);
#endif

#define KEPT WK_FUZZ_KEPT        /* adapters kept per role */

/* The largest description a program carries (struct wk_prog's arrays):
 * what a kept adapter can remember by value. */
#define DESC_SEGMENTS (sizeof(((struct wk_prog *)0)->bank_ends) / sizeof(((struct wk_prog *)0)->bank_ends[0]))
#define DESC_BANK_ENDS (sizeof(((struct wk_prog *)0)->bank_ends[0]) / sizeof(uint64_t))

/* A GPU description by value: desc.segments points into segments, each
 * banked segment's bank_ends into its row of bank_ends. */
struct desc_copy {
    struct wk_gpu_desc desc;
    struct wk_gpu_segment_desc segments[DESC_SEGMENTS];
    uint64_t bank_ends[DESC_SEGMENTS][DESC_BANK_ENDS];
};

struct kept {
    struct wk_vidmm *vm;        /* NULL: a free entry */
    struct wk_fuzz_knobs knobs; /* what it has now; knobs.gpu points to gpu */
    struct desc_copy gpu;       /* what it was built with */
    uint64_t used;              /* clock of its last use */
};

struct slot {
    struct kept kept[KEPT];
    int stale;                  /* rebuild every kept adapter on next use (after a finding) */
    uint64_t epoch;             /* builds + resets */
    uint64_t builds;
    uint64_t clock;
    char refused[384];          /* why the last build failed: "<step>: <status>: <last error>" */
};

static struct slot slots[WK_FUZZ_ROLES];
static uint64_t findings;
static uint64_t ignored;                          /* findings of a known signature passed over */
static const char *harness_seen = "fuzz_driver"; /* the harness that last asked: teardown reports name it */
static struct wk_fuzz_fixture fixture;            /* fuzz_render's and fuzz_patch's objects (below) */

const char *wk_fuzz_driver_path(void)
{
    const char *p = getenv("WK_DRIVER");
    return p && *p ? p : NULL;
}

/*
 * Before the first input (every engine and the replay binaries call this):
 * a WK_DRIVER module that does not load is a setup error, not a finding.
 * Found at the first input, it aborted like a finding: libFuzzer and AFL++
 * kept a crash file, and `wddmkit repro` of an ASan-built driver through an
 * uninstrumented replay binary called it a crash of the driver. Loaded with
 * the flags of wk_vidmm_load, which then finds it mapped.
 *
 * Loading here also puts a module built by afl-clang-fast in AFL++'s map:
 * the harnesses start AFL++'s fork server after this (deferred), and a
 * module that registers its edges once the server is up ends the process
 * ("an instrumented dlopen() library loaded afterwards"), which a load at
 * the first input did.
 */
/* The module at path, loaded and holding a DriverEntry; NULL with the
 * reason in why. A shared object that loads but is no driver (a system
 * library given by mistake) used to pass here and abort the first build,
 * which the engines kept as a crash of the empty input. */
static void *open_driver(const char *path, char *why, size_t cap)
{
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!so) {
        const char *e = dlerror();
        char sym[128];
        snprintf(why, cap, "%s%s", e ? e : "dlopen failed",
                 wk_vidmm_missing_runtime_symbol(e, sym, sizeof(sym))
                     ? " (a module built with sanitizers or fuzzer coverage loads only into a harness built alike)"
                     : "");
        return NULL;
    }
    if (!dlsym(so, "DriverEntry")) {
        snprintf(why, cap, "it loads but exports no DriverEntry: not a driver module (docs/writing-a-driver.md)");
        return NULL;
    }
    return so;
}

/* The coverage gate learns the module's counters (libFuzzer), and a module
 * without any is said to be one at start (wddmkit fuzz says it too). */
static void gate_module(const char *path)
{
    char gate[300];
    int added = wk_fuzz_coverage_add_module(path, gate, sizeof(gate));
    if (added == 0)
        fprintf(stderr, "fuzz_driver: note: %s has no libFuzzer coverage of its own (%s): the engine sees only "
                        "the kit's code; build it with -fsanitize=fuzzer-no-link (docs/fuzzing.md)\n", path, gate);
    else if (added < 0)
        fprintf(stderr, "fuzz_driver: note: the coverage gate cannot pause %s (%s): its bring-up will count as "
                        "the coverage of the inputs that build an adapter\n", path, gate);
}

static void read_ignore_list(void);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char local[4096], why[1024];
    read_ignore_list(); /* before AFL++'s fork server: its children share the counters' mapping */
    const char *path = wk_fuzz_driver_path();
    if (!path)
        return 0;
    path = wk_vidmm_module_path(path, local, sizeof(local)); /* the coverage gate finds it by this name */
    if (open_driver(path, why, sizeof(why))) {
        gate_module(path);
        return 0;
    }
    fprintf(stderr, "fuzz_driver: cannot load the driver under test (WK_DRIVER=%s): %s\n", path, why);
    exit(2);
}

DRIVER_INITIALIZE *wk_fuzz_driver_entry(void)
{
#ifdef WK_FUZZ_LINKED_DRIVER
    return wk_fuzz_linked_DriverEntry;
#else
    return wk_refdriver_DriverEntry;
#endif
}

const char *wk_fuzz_driver_name(void)
{
    if (wk_fuzz_driver_path())
        return wk_fuzz_driver_path();
#ifdef WK_FUZZ_LINKED_DRIVER
    return "linked (WK_FUZZ_DRIVER_LIB)";
#else
    return "reference";
#endif
}

static const struct wk_gpu_desc *desc_of(const struct wk_fuzz_knobs *k)
{
    return k->gpu ? k->gpu : wk_gpu_reference_desc();
}

/* Bank ends a segment lists: one fewer than its banks (gpu.h). */
static uint32_t bank_ends_of(const struct wk_gpu_segment_desc *s)
{
    return s->bank_count >= 2 ? s->bank_count - 1 : 0;
}

static int on_reference(const struct wk_fuzz_knobs *k)
{
    return wk_gpu_desc_equal(desc_of(k), wk_gpu_reference_desc());
}

/* Whether d fits a struct desc_copy (every description a program carries
 * does). */
static int desc_fits(const struct wk_gpu_desc *d)
{
    if (d->segment_count > DESC_SEGMENTS || (d->segment_count && !d->segments))
        return 0;
    for (uint32_t i = 0; i < d->segment_count; i++)
        if (bank_ends_of(&d->segments[i]) > DESC_BANK_ENDS)
            return 0;
    return 1;
}

/* d (desc_fits) into c, its pointers made c's own. */
static void desc_copy(struct desc_copy *c, const struct wk_gpu_desc *d)
{
    c->desc = *d;
    c->desc.segments = c->segments;
    for (uint32_t i = 0; i < d->segment_count; i++) {
        const struct wk_gpu_segment_desc *s = &d->segments[i];
        c->segments[i] = *s;
        c->segments[i].bank_ends = NULL; /* never into the caller's buffers */
        if (bank_ends_of(s) && s->bank_ends) {
            memcpy(c->bank_ends[i], s->bank_ends, bank_ends_of(s) * sizeof(uint64_t));
            c->segments[i].bank_ends = c->bank_ends[i];
        }
    }
}

static int knobs_equal(const struct wk_fuzz_knobs *a, const struct wk_fuzz_knobs *b)
{
    return a->paging_buffer_size == b->paging_buffer_size && a->transfer_chunk == b->transfer_chunk &&
           a->split_submissions == b->split_submissions &&
           (a->query_segment_version == 4) == (b->query_segment_version == 4) && a->seed == b->seed &&
           a->max_passes == b->max_passes && wk_gpu_desc_equal(desc_of(a), desc_of(b));
}

/* Entry e now has knobs k: a copy of them, the description included. */
static void remember(struct kept *e, const struct wk_fuzz_knobs *k)
{
    e->knobs = *k;
    desc_copy(&e->gpu, desc_of(k));
    e->knobs.gpu = &e->gpu.desc;
}

static wk_status attach(struct wk_vidmm *vm, enum wk_fuzz_role role)
{
    if (role == WK_FUZZ_REF)
        return wk_vidmm_attach(vm, wk_refdriver_DriverEntry);
    if (wk_fuzz_driver_path())
        return wk_vidmm_load(vm, wk_fuzz_driver_path());
    return wk_vidmm_attach(vm, wk_fuzz_driver_entry());
}

static void config_of(const struct wk_fuzz_knobs *k, struct wk_vidmm_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->gpu = k->gpu;
    cfg->ddi_timeout_ms = UINT32_MAX;
    cfg->paging_buffer_size = k->paging_buffer_size;
    cfg->transfer_chunk = k->transfer_chunk;
    cfg->split_submissions = k->split_submissions;
    cfg->query_segment_version = k->query_segment_version == 4 ? 4 : 3;
    cfg->seed = k->seed;
    cfg->max_passes = k->max_passes;
}

/* A build that failed on the reference description: the kit's fault for
 * the reference, and for the DUT a driver that cannot be fuzzed so. */
static void cannot_build(enum wk_fuzz_role role, struct wk_vidmm *vm, const char *step, wk_status st)
{
    if (role == WK_FUZZ_REF)
        wk_fuzz_kit_invariant("fuzz_driver", vm, "the reference adapter does not build: %s: %s", step,
                              wk_status_name(st));
    fprintf(stderr, "fuzz_driver: cannot bring up the driver under test (%s): %s: %s: %s\n",
            wk_fuzz_driver_name(), step, wk_status_name(st), vm ? wk_vidmm_last_error(vm) : "");
    abort(); /* the driver cannot be fuzzed with these knobs: loud, and the engine keeps the input */
}

/* A started adapter with knobs k, or NULL (another description than the
 * reference refused; why is in the slot's `refused`, and nothing of the
 * failed attempt is left). */
static struct wk_vidmm *build(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k)
{
    struct wk_vidmm_config cfg;
    config_of(k, &cfg);
    struct wk_vidmm *vm = NULL;
    const char *step = "wk_vidmm_create";
    wk_status st = wk_vidmm_create(&cfg, &vm);
    if (st == WK_OK) {
        step = "attaching the driver";
        st = attach(vm, role);
    }
    if (st == WK_OK) {
        step = "wk_vidmm_start";
        st = wk_vidmm_start(vm);
    }
    if (st == WK_OK)
        return vm;
    if (on_reference(k))
        cannot_build(role, vm, step, st);
    snprintf(slots[role].refused, sizeof(slots[role].refused), "%s: %s: %s", step, wk_status_name(st),
             vm ? wk_vidmm_last_error(vm) : "the adapter description is refused");
    wk_vidmm_destroy(vm);
    return NULL;
}

/* What only a new adapter changes (wk_vidmm_reconfigure refuses it): the
 * GPU description and the segment-query version. */
static int same_build(const struct wk_fuzz_knobs *a, const struct wk_fuzz_knobs *b)
{
    return (a->query_segment_version == 4) == (b->query_segment_version == 4) && wk_gpu_desc_equal(desc_of(a), desc_of(b));
}

/* Whether the roles keep several adapters (above): the same answer for
 * both, so that they take the same path. */
static int keeps_several(void)
{
#ifdef WK_FUZZ_LINKED_DRIVER
    return 0;
#else
    return !wk_fuzz_driver_path();
#endif
}

static void drop(struct kept *e)
{
    wk_vidmm_destroy(e->vm);
    e->vm = NULL;
}

static void drop_all(struct slot *s)
{
    for (int i = 0; i < KEPT; i++)
        drop(&s->kept[i]);
}

static struct wk_vidmm *use(struct slot *s, struct kept *e)
{
    e->used = ++s->clock;
    return e->vm;
}

/* The kept adapter with knobs k, NULL when none. */
static struct kept *with_knobs(struct slot *s, const struct wk_fuzz_knobs *k)
{
    for (int i = 0; i < KEPT; i++)
        if (s->kept[i].vm && knobs_equal(&s->kept[i].knobs, k))
            return &s->kept[i];
    return NULL;
}

/* The least recently used kept adapter that a reconfigure can give knobs
 * k: one built with k's GPU description and segment-query version. */
static struct kept *reconfigurable(struct slot *s, const struct wk_fuzz_knobs *k)
{
    struct kept *best = NULL;
    for (int i = 0; i < KEPT; i++) {
        struct kept *e = &s->kept[i];
        if (e->vm && same_build(&e->knobs, k) && (!best || e->used < best->used))
            best = e;
    }
    return best;
}

/* A free entry, else the least recently used one. */
static struct kept *victim(struct slot *s)
{
    struct kept *best = &s->kept[0];
    for (int i = 0; i < KEPT; i++) {
        struct kept *e = &s->kept[i];
        if (!e->vm)
            return e;
        if (e->used < best->used)
            best = e;
    }
    return best;
}

static int has_free(const struct slot *s)
{
    for (int i = 0; i < KEPT; i++)
        if (!s->kept[i].vm)
            return 1;
    return 0;
}

/* Kept adapters built like k (its description and segment-query version):
 * past WK_FUZZ_KEPT_PER_BUILD of them, other paging knobs reconfigure one
 * instead of taking a free entry (fuzz_paging's inputs vary the paging
 * knobs on one description: a new adapter for each set cost it 8% of its
 * exec/s, in builds and in the cache footprint of 32 live models). */
static int builds_like(const struct slot *s, const struct wk_fuzz_knobs *k)
{
    int n = 0;
    for (int i = 0; i < KEPT; i++)
        n += s->kept[i].vm && same_build(&s->kept[i].knobs, k);
    return n;
}

struct wk_vidmm *wk_fuzz_adapter(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k)
{
    static const struct wk_fuzz_knobs defaults;
    struct slot *s = &slots[role];
    if (!k)
        k = &defaults;
    if (s->stale)
        drop_all(s); /* after a finding nothing of the old adapters is reused */
    s->stale = 0;
    struct kept *e = with_knobs(s, k);
    if (e)
        return use(s, e);
    if (!desc_fits(desc_of(k))) {
        snprintf(s->refused, sizeof(s->refused), "the adapter description is larger than a program's");
        return NULL;
    }
    /* A loaded driver module gets one live adapter: the old one goes before
     * it is loaded again. The reference driver runs several, so its new
     * adapter is built first, and a refused description drops nothing. */
    int alone = !keeps_several() && role == WK_FUZZ_DUT;
    if (alone)
        drop_all(s);
    struct wk_vidmm *vm = build(role, k);
    if (!vm)
        return NULL;
    if (!keeps_several())
        drop_all(s);
    e = victim(s);
    drop(e);
    e->vm = vm;
    remember(e, k);
    s->epoch++;
    s->builds++;
    return use(s, e);
}

/* WK_FUZZ_FRESH=1: every input on freshly built adapters. wk_vidmm_reset
 * rewinds everything of the kit's (tests/test_vidmm_kitgaps.c compares a
 * reset adapter with a fresh one), but it does not reload the driver, so a
 * finding that depends on the driver's own history (state it keeps across
 * devices) may not replay in a fresh process; in this mode every one does,
 * for the cost of building and starting two adapters per input. */
static int fresh_mode(void)
{
    static int fresh = -1;
    if (fresh < 0) {
        const char *e = getenv("WK_FUZZ_FRESH");
        fresh = e && e[0] == '1';
    }
    return fresh;
}

/* A reset adapter given other paging knobs, seed or max_passes behaves as
 * one built with them (wk_vidmm_reconfigure), for a fraction of the cost;
 * knobs it cannot change (same_build) need a new adapter. */
static int knobs_applied(struct kept *e, const struct wk_fuzz_knobs *k)
{
    if (knobs_equal(&e->knobs, k))
        return 1;
    struct wk_vidmm_config cfg;
    config_of(k, &cfg);
    cfg.gpu = NULL; /* the adapter keeps its GPU, equal to k's (reconfigurable) */
    if (wk_vidmm_reconfigure(e->vm, &cfg) != WK_OK)
        return 0;
    remember(e, k);
    return 1;
}

/* The kept adapter that serves knobs k after a reset (and a reconfigure):
 * the one with these knobs, else, when no entry is free for a new one or
 * WK_FUZZ_KEPT_PER_BUILD are built like it, the least recently used of the
 * same description and version. NULL: build one. */
static struct wk_vidmm *reuse(struct slot *s, const struct wk_fuzz_knobs *k)
{
    struct kept *e = with_knobs(s, k);
    if (!e && !(keeps_several() && has_free(s) && builds_like(s, k) < WK_FUZZ_KEPT_PER_BUILD))
        e = reconfigurable(s, k);
    if (!e)
        return NULL;
    if (wk_vidmm_reset(e->vm) == WK_OK && knobs_applied(e, k))
        return use(s, e);
    drop(e); /* dead (WK_E_DEAD), not resettable or not reconfigurable: start over */
    return NULL;
}

/* Picking, resetting, reconfiguring or building a kept adapter, and
 * rebuilding the fixture, depend on the inputs before: the engine's
 * coverage is paused meanwhile (coverage_gate.h). Not in WK_FUZZ_FRESH
 * mode, where every input builds alike. */
static void history_begin(void)
{
    if (!fresh_mode())
        wk_fuzz_coverage_pause();
}

static void history_end(void)
{
    if (!fresh_mode())
        wk_fuzz_coverage_resume();
}

/* Whether the GPU model takes the input's description, judged for every
 * input whatever adapters are kept: the engine sees the description's
 * validation as the input's own coverage, where a build (paused, below)
 * would show it only to the input that builds. A refused description
 * builds nothing; why goes to the slot's `refused`. */
static int model_takes(struct slot *s, const struct wk_fuzz_knobs *k)
{
    char why[256];
    if (on_reference(k) || wk_gpu_check_desc(desc_of(k), why, sizeof(why)) == WK_OK)
        return 1;
    snprintf(s->refused, sizeof(s->refused), "the GPU model refuses the adapter: %s", why);
    return 0;
}

struct wk_vidmm *wk_fuzz_ready(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k)
{
    static const struct wk_fuzz_knobs defaults;
    struct slot *s = &slots[role];
    if (!k)
        k = &defaults;
    s->epoch++;
    if (!model_takes(s, k))
        return NULL;
    if (fresh_mode())
        drop_all(s);
    history_begin();
    struct wk_vidmm *vm = s->stale ? NULL : reuse(s, k);
    if (!vm)
        vm = wk_fuzz_adapter(role, k);
    history_end();
    return vm;
}

uint64_t wk_fuzz_epoch(enum wk_fuzz_role role)
{
    return slots[role].epoch;
}

uint64_t wk_fuzz_builds(enum wk_fuzz_role role)
{
    return slots[role].builds;
}

uint64_t wk_fuzz_violation_count(const struct wk_vidmm *vm)
{
    uint64_t total = 0;
    wk_vidmm_violations(vm, NULL, 0, &total);
    return total;
}

uint64_t wk_fuzz_findings(void)
{
    return findings;
}

uint64_t wk_fuzz_ignored(void)
{
    return ignored;
}

/* ------------------------------------------------------------------ */
/* Known signatures (WK_FUZZ_IGNORE)                                    */
/* ------------------------------------------------------------------ */

/*
 * libFuzzer stops at its first crash, and a shallow bug is found again by
 * the first mutations of any input near it: against a driver with a known
 * bug, a campaign ended after a few hundred runs however long it was given
 * (buggy_render_index: 195 runs of a 30 s campaign), and nobody could look
 * for a second bug before fixing the first. libFuzzer has no option that
 * keeps its normal mode going past a crash, so the harness decides: a
 * finding whose signature is listed is not a crash for any engine.
 *
 * The list is the environment's, read once and bounded (IGNORE_MAX entries
 * of IGNORE_TEXT bytes; more or longer ones are dropped, saying so). The
 * counters are a file `wddmkit fuzz` sizes, mapped shared: a libFuzzer job,
 * its workers and every child AFL++'s fork server makes add to them with an
 * atomic add, with no file I/O per input.
 */
#define IGNORE_MAX 64
#define IGNORE_TEXT 400

static struct {
    int read;
    uint32_t count;
    char sig[IGNORE_MAX][IGNORE_TEXT];
    uint8_t named[IGNORE_MAX];                    /* already printed by this process */
    uint64_t *counters;                           /* WK_FUZZ_IGNORE_COUNTS, mapped; NULL: none */
    uint32_t mapped;                              /* counters in the mapping */
} known;

/* One entry of the list, [from, to) with the blanks around it cut. */
static void add_known(const char *from, const char *to)
{
    while (from < to && (*from == ' ' || *from == '\t'))
        from++;
    while (to > from && (to[-1] == ' ' || to[-1] == '\t' || to[-1] == '\r'))
        to--;
    if (from == to)
        return;
    if (known.count == IGNORE_MAX || (size_t)(to - from) >= IGNORE_TEXT) {
        fprintf(stderr, "fuzz_driver: WK_FUZZ_IGNORE: %s '%.60s...' is not ignored\n",
                known.count == IGNORE_MAX ? "more than 64 signatures:" : "a signature too long:", from);
        return;
    }
    snprintf(known.sig[known.count++], IGNORE_TEXT, "%.*s", (int)(to - from), from);
}

static void map_counters(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 8) {
        fprintf(stderr, "fuzz_driver: WK_FUZZ_IGNORE_COUNTS=%s: not a file of counters: the hits are not counted\n",
                path);
        if (fd >= 0)
            close(fd);
        return;
    }
    uint32_t n = (uint64_t)st.st_size / 8 < known.count ? (uint32_t)((uint64_t)st.st_size / 8) : known.count;
    void *m = mmap(NULL, (size_t)n * 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m != MAP_FAILED) {
        known.counters = m;
        known.mapped = n;
    }
}

static void read_ignore_list(void)
{
    if (known.read)
        return;
    known.read = 1;
    const char *list = getenv("WK_FUZZ_IGNORE");
    for (const char *at = list; at && *at;) {
        size_t n = strcspn(at, ";\n");
        add_known(at, at + n);
        at += n + (at[n] != '\0');
    }
    const char *counts = getenv("WK_FUZZ_IGNORE_COUNTS");
    if (known.count && counts && *counts)
        map_counters(counts);
    if (known.count)
        fprintf(stderr, "fuzz_driver: WK_FUZZ_IGNORE: %u known signature%s ignored (counted, not a crash)\n",
                known.count, known.count == 1 ? "" : "s");
}

/* Whether a finding of signature sig is a known one: then it is counted and
 * named (the first time in this process), and 1 is returned. */
static int known_finding(const char *harness, const char *sig)
{
    read_ignore_list();
    for (uint32_t i = 0; i < known.count; i++) {
        if (!wk_fuzz_signature_matches(known.sig[i], sig))
            continue;
        ignored++;
        if (i < known.mapped)
            __atomic_fetch_add(&known.counters[i], 1, __ATOMIC_RELAXED);
        if (!known.named[i]) {
            known.named[i] = 1;
            fprintf(stderr, "%s: ignored a known signature (WK_FUZZ_IGNORE): %s (the next are counted, not "
                            "printed)\n", harness, sig);
        }
        return 1;
    }
    return 0;
}

/*
 * LeakSanitizer, while known signatures are passed over: a driver that
 * crashed (or hit a guard page) is called no more, as Windows would stop
 * it, so the blocks its pool holds stay allocated when its adapter is
 * dropped. Once, that ended the input; passed over, it is routine, and
 * libFuzzer's leak check, which runs after any input that allocated more
 * than it freed, reported the first rebuild after it as a leak
 * (buggy_render_index: a `leak-*` file after 129 runs). So in such a
 * campaign the driver's pool (wk_km_pool_alloc, km.h) is not reported, as
 * fuzz_hostile, where crashed drivers are always routine
 * (wk_fuzz_crashed_pools_routine), has it. The price: a driver that leaks
 * its pool is not found by a campaign that passes over known signatures.
 * Both hooks are read when LeakSanitizer starts (options) or first checks
 * (suppressions); defined, not weak, so that the sanitizer runtime's own
 * weak defaults never win by link order.
 */
static int pools_routine(void)
{
    const char *list = getenv("WK_FUZZ_IGNORE");
    return (list && *list) || (wk_fuzz_crashed_pools_routine && wk_fuzz_crashed_pools_routine());
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return pools_routine() ? "leak:wk_km_pool_alloc\n" : "";
}

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return pools_routine() ? "print_suppressions=0" : "";
}

/* The signature of a finding on vm (may be NULL): its first violation's,
 * else that of the harness's own text. */
static void finding_signature(struct wk_vidmm *vm, const char *what, char *sig, size_t cap)
{
    struct wk_violation v;
    uint64_t total = 0;
    if (vm && wk_vidmm_violations(vm, &v, 1, &total) == 1)
        wk_fuzz_signature(sig, cap, v.rule, v.message, NULL);
    else
        wk_fuzz_signature(sig, cap, NULL, what, NULL);
}

static void print_violations(const char *harness, struct wk_vidmm *vm)
{
    if (!vm)
        return;
    struct wk_violation v[16];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(vm, v, 16, &total);
    for (uint32_t i = 0; i < n; i++)
        fprintf(stderr, "%s:   violation in %s: %s\n", harness, wk_ddi_name(v[i].ddi), v[i].message);
    if (total > n)
        fprintf(stderr, "%s:   ... %llu violations in all\n", harness, (unsigned long long)total);
    if (wk_vidmm_last_error(vm)[0])
        fprintf(stderr, "%s:   last error: %s\n", harness, wk_vidmm_last_error(vm));
}

static int no_abort(void)
{
    const char *e = getenv("WK_FUZZ_NO_ABORT");
    return e && e[0] == '1';
}

static void mark_stale(void)
{
    for (int r = 0; r < WK_FUZZ_ROLES; r++)
        slots[r].stale = 1;
}

void wk_fuzz_finding(const char *harness, struct wk_vidmm *vm, const char *fmt, ...)
{
    char what[2048], sig[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    finding_signature(vm, what, sig, sizeof(sig));
    if (known_finding(harness, sig)) {
        mark_stale(); /* as after any finding: nothing of these adapters is reused */
        return;
    }
    fprintf(stderr, "%s: FINDING: %s\n%s:   driver under test: %s\n", harness, what, harness, wk_fuzz_driver_name());
    print_violations(harness, vm);
    fprintf(stderr, "%s:   signature: %s\n", harness, sig);
    findings++;
    if (!no_abort())
        abort();
    mark_stale();
}

void wk_fuzz_kit_invariant(const char *harness, struct wk_vidmm *ref, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: KIT INVARIANT: ", harness);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s:   the reference driver on the reference adapter must never do this: "
                    "a bug in wddmkit, please report it with this input\n", harness);
    print_violations(harness, ref);
    abort();
}

int wk_fuzz_check(const char *harness, enum wk_fuzz_role role, struct wk_vidmm *vm, const char *when)
{
    if (wk_fuzz_violation_count(vm) == 0)
        return 0;
    if (role == WK_FUZZ_REF)
        wk_fuzz_kit_invariant(harness, vm, "the reference adapter recorded a violation %s", when);
    wk_fuzz_finding(harness, vm, "contract violation %s", when);
    return 1;
}

/* Stops one kept adapter and judges only what its teardown added: the
 * violations of the input before were reported then. */
static void teardown_one(enum wk_fuzz_role role, struct kept *e)
{
    uint64_t before = wk_fuzz_violation_count(e->vm);
    wk_vidmm_stop(e->vm);
    if (wk_fuzz_violation_count(e->vm) > before) {
        if (role == WK_FUZZ_REF)
            wk_fuzz_kit_invariant(harness_seen, e->vm, "the reference adapter recorded a violation while it was "
                                                       "torn down at the end of the process");
        wk_fuzz_finding(harness_seen, e->vm, "contract violation while the adapters were torn down at the end of "
                                             "the process (the destroy DDIs, StopDevice, RemoveDevice)");
    }
    drop(e);
}

void wk_fuzz_teardown(void)
{
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        struct slot *s = &slots[r];
        for (int i = 0; i < KEPT; i++) {
            if (s->kept[i].vm && s->stale)
                drop(&s->kept[i]); /* after a finding: as a rebuild would drop it */
            else if (s->kept[i].vm)
                teardown_one((enum wk_fuzz_role)r, &s->kept[i]);
        }
    }
    fixture.vm = NULL;
}

/* ------------------------------------------------------------------ */
/* The render/patch fixture                                             */
/* ------------------------------------------------------------------ */

/* 1 when the step went well; 0 after a finding (WK_FUZZ_NO_ABORT). */
static int fixture_step(const char *harness, struct wk_vidmm *vm, wk_status st, const char *what)
{
    if (wk_fuzz_check(harness, WK_FUZZ_DUT, vm, what))
        return 0;
    if (st == WK_OK)
        return 1;
    fprintf(stderr, "%s: cannot build the fixture on the driver under test (%s): %s: %s: %s\n", harness,
            wk_fuzz_driver_name(), what, wk_status_name(st), wk_vidmm_last_error(vm));
    abort();
}

/* Every page of a slot allocation backed now, as zeroes. The fixture keeps
 * the allocations' bytes between inputs, so whether a page has been
 * touched would depend on the inputs before, and the GPU model takes other
 * paths for an untouched page (a copy of zeroes onto one does nothing):
 * the same input would cover other edges (bench/fuzz_stability). */
static int fixture_back_pages(const char *harness, struct wk_vidmm *vm, uint32_t h, uint32_t size)
{
    static const uint8_t zero[4096];
    for (uint32_t at = 0; at < size; at += (uint32_t)sizeof(zero)) {
        uint32_t n = size - at < sizeof(zero) ? size - at : (uint32_t)sizeof(zero);
        if (!fixture_step(harness, vm, wk_vidmm_write(vm, h, at, zero, n), "while backing a slot allocation"))
            return 0;
    }
    return 1;
}

static int fixture_allocation(const char *harness, struct wk_vidmm *vm, uint32_t slot, uint32_t *h)
{
    const struct wk_render_slot *s = &wk_render_slots[slot];
    WK_ALLOCATION_REQUEST q;
    memset(&q, 0, sizeof(q));
    q.Magic = WK_ALLOCATION_REQUEST_MAGIC;
    q.Version = WK_ALLOCATION_REQUEST_VERSION;
    q.Size = s->size;
    q.PreferredSegment.Value = s->segment;
    q.SupportedSegmentSet = s->supported;
    q.EvictionSegmentSet = s->supported;
    return fixture_step(harness, vm, wk_vidmm_create_allocation(vm, fixture.device, &q, h),
                        "while creating a slot allocation") &&
           fixture_step(harness, vm, wk_vidmm_page_in(vm, *h), "while paging in a slot allocation") &&
           fixture_back_pages(harness, vm, *h, s->size);
}

static uint64_t placed_at(struct wk_vidmm *vm, uint32_t h)
{
    struct wk_vidmm_allocation_state st;
    if (wk_vidmm_allocation_state(vm, h, &st) != WK_OK || !st.resident)
        return UINT64_MAX;
    return st.gpu_address;
}

static int fixture_build(struct wk_fuzz_fixture *f, const char *harness)
{
    memset(f, 0, sizeof(*f));
    struct wk_vidmm *vm = wk_fuzz_ready(WK_FUZZ_DUT, NULL);
    if (!fixture_step(harness, vm, wk_vidmm_create_device(vm, 0, &f->device), "while creating the device") ||
        !fixture_step(harness, vm, wk_vidmm_create_context(vm, f->device, 0, &f->context),
                      "while creating the context") ||
        !fixture_step(harness, vm, wk_vidmm_context_info(vm, f->context, &f->info), "reading the context info"))
        return 0;
    if (wk_vidmm_create_context(vm, f->device, 0x2 /* GdiContext */, &f->gdi_context) != WK_OK ||
        wk_vidmm_context_info(vm, f->gdi_context, &f->gdi_info) != WK_OK)
        f->gdi_context = 0; /* optional: GDI inputs then use the plain context */
    if (!fixture_step(harness, vm, WK_OK, "while creating the GDI context"))
        return 0;
    for (uint32_t s = 1; s <= WK_RENDER_SLOTS; s++)
        if (!fixture_allocation(harness, vm, s, &f->alloc[s]))
            return 0;
    for (uint32_t s = 1; s <= WK_RENDER_SLOTS; s++)
        f->where[s] = placed_at(vm, f->alloc[s]);
    f->vm = vm;
    f->epoch = wk_fuzz_epoch(WK_FUZZ_DUT);
    f->placement = wk_vidmm_placement_epoch(vm);
    return 1;
}

/* Nothing placed, moved or evicted since the fixture was last seen intact
 * (wk_vidmm_placement_epoch: most fuzz_patch inputs, which only call
 * Patch) says so without asking where each allocation is; otherwise each
 * is looked up (a Render may evict and page in again at the same place). */
static int fixture_intact(struct wk_fuzz_fixture *f)
{
    if (!f->vm || f->epoch != wk_fuzz_epoch(WK_FUZZ_DUT) || slots[WK_FUZZ_DUT].stale)
        return 0;
    uint64_t placement = wk_vidmm_placement_epoch(f->vm);
    if (placement == f->placement)
        return 1;
    for (uint32_t s = 1; s <= WK_RENDER_SLOTS; s++)
        if (placed_at(f->vm, f->alloc[s]) != f->where[s])
            return 0;
    f->placement = placement;
    return 1;
}

/* A fixture is built again only after an input moved it (or a finding). */
struct wk_fuzz_fixture *wk_fuzz_fixture(const char *harness)
{
    harness_seen = harness;
    if (!fresh_mode() && fixture_intact(&fixture))
        return &fixture;
    history_begin();
    int built = fixture_build(&fixture, harness);
    history_end();
    if (built)
        return &fixture;
    fixture.vm = NULL;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Differential runs                                                    */
/* ------------------------------------------------------------------ */

static int content_check(enum wk_step_kind k)
{
    return k == WK_STEP_EXPECT_BYTES || k == WK_STEP_EXPECT_PATTERN || k == WK_STEP_EXPECT_DIGEST ||
           k == WK_STEP_EXPECT_GART;
}

/* wk_fuzz_check after step i, its `when` text made only for a report. */
static int step_violated(const char *harness, enum wk_fuzz_role role, struct wk_vidmm *vm, uint32_t i,
                         const char *kw)
{
    if (wk_fuzz_violation_count(vm) == 0)
        return 0;
    char when[96];
    snprintf(when, sizeof(when), "at step %u (%s)", i, kw);
    return wk_fuzz_check(harness, role, vm, when);
}

/* The first offset where two n-byte pieces differ (NULL: zeroes), n if none. */
static uint64_t piece_difference(const uint8_t *x, const uint8_t *y, uint64_t n)
{
    static const uint8_t zeroes[WK_GPU_PAGE_SIZE];
    x = x ? x : zeroes;
    y = y ? y : zeroes;
    if (x == y || memcmp(x, y, n) == 0)
        return n;
    uint64_t i = 0;
    while (x[i] == y[i])
        i++;
    return i;
}

/* Allocation a's bytes on both sides, page by page where each model keeps
 * them (wk_vidmm_peek: no copies; pages never written compare as zeroes):
 * the first difference, UINT64_MAX when equal; *rs and *ds the statuses
 * (equal when both fail alike, e.g. a destroyed allocation). Cheaper than
 * two digests. Sizes are the drivers' (page rounded): the bytes both have
 * are compared. */
static uint64_t first_difference(struct wk_prog_exec *ref, struct wk_prog_exec *dut, uint32_t a, wk_status *rs,
                                 wk_status *ds)
{
    static uint8_t rb[WK_GPU_PAGE_SIZE], db[WK_GPU_PAGE_SIZE];
    struct wk_vidmm_allocation_state rst, dst;
    *rs = wk_vidmm_allocation_state(ref->vm, ref->allocs[a], &rst);
    *ds = wk_vidmm_allocation_state(dut->vm, dut->allocs[a], &dst);
    uint64_t size = rst.size < dst.size ? rst.size : dst.size;
    for (uint64_t at = 0; *rs == WK_OK && *ds == WK_OK && at < size; at += WK_GPU_PAGE_SIZE) {
        uint64_t n = size - at < WK_GPU_PAGE_SIZE ? size - at : WK_GPU_PAGE_SIZE;
        const uint8_t *rp, *dp;
        *rs = wk_vidmm_peek(ref->vm, ref->allocs[a], at, n, rb, &rp);
        *ds = wk_vidmm_peek(dut->vm, dut->allocs[a], at, n, db, &dp);
        uint64_t d = *rs == WK_OK && *ds == WK_OK ? piece_difference(rp, dp, n) : n;
        if (d < n)
            return at + d;
    }
    return UINT64_MAX;
}

/* Whether allocation a has the same size and bytes on both sides, both
 * readable throughout. Then its digests are equal too, and an expect_digest
 * step holds on both or fails on both: its outcome on either side matters
 * only where they disagree (a finding), so neither digest is computed. A
 * byte compare costs far less than two digests (512 rounds of the mixer
 * per page that is neither zero nor equal to the page before). Anything
 * unusual (no such allocation, an unreadable page) says no, and the step
 * runs on both sides as any other. */
static int same_contents(struct wk_prog_exec *ref, struct wk_prog_exec *dut, uint32_t a)
{
    struct wk_vidmm_allocation_state rst, dst;
    wk_status rs, ds;
    return a < ref->nallocs && a < dut->nallocs &&
           wk_vidmm_allocation_state(ref->vm, ref->allocs[a], &rst) == WK_OK &&
           wk_vidmm_allocation_state(dut->vm, dut->allocs[a], &dst) == WK_OK && rst.size == dst.size &&
           first_difference(ref, dut, a, &rs, &ds) == UINT64_MAX && rs == WK_OK && ds == WK_OK;
}

/* One step on both sides; 1 when they agree and nothing was violated. */
static int diff_step(const char *harness, struct wk_prog_exec *ref, struct wk_prog_exec *dut, uint32_t i)
{
    const struct wk_step *s = &ref->p->steps[i];
    const char *kw = wk_step_keyword(s->kind);
    int ref_failed = 0, dut_failed = 0;
    if (s->kind == WK_STEP_EXPECT_DIGEST && same_contents(ref, dut, s->allocation))
        return 1; /* equal bytes: the same outcome on both sides (above) */
    wk_status rs = wk_prog_exec_step(ref, s, &ref_failed);
    step_violated(harness, WK_FUZZ_REF, ref->vm, i, kw);
    wk_status ds = wk_prog_exec_step(dut, s, &dut_failed);
    if (step_violated(harness, WK_FUZZ_DUT, dut->vm, i, kw))
        return 0;
    if (ds != rs) {
        wk_fuzz_finding(harness, dut->vm, "step %u (%s): the driver under test returned %s (%s), the reference %s",
                        i, kw, wk_status_name(ds), wk_vidmm_last_error(dut->vm), wk_status_name(rs));
        return 0;
    }
    if (content_check(s->kind) && dut_failed != ref_failed) {
        wk_fuzz_finding(harness, dut->vm, "step %u (%s) %s on the driver under test and %s on the reference%s%s",
                        i, kw, dut_failed ? "failed" : "held", ref_failed ? "failed" : "held",
                        dut_failed ? ": " : "", dut_failed ? dut->r->seen : "");
        return 0;
    }
    return 1;
}

static int diff_contents(const char *harness, struct wk_prog_exec *ref, struct wk_prog_exec *dut)
{
    for (uint32_t a = 0; a < ref->nallocs && a < dut->nallocs; a++) {
        wk_status rs, ds;
        uint64_t at = first_difference(ref, dut, a, &rs, &ds);
        if (rs != ds) {
            wk_fuzz_finding(harness, dut->vm, "allocation %u at the end: %s on the driver under test, %s on the reference",
                            a, wk_status_name(ds), wk_status_name(rs));
            return 0;
        }
        if (at != UINT64_MAX) {
            uint64_t rd = 0, dd = 0;
            wk_vidmm_digest(ref->vm, ref->allocs[a], &rd);
            wk_vidmm_digest(dut->vm, dut->allocs[a], &dd);
            wk_fuzz_finding(harness, dut->vm,
                            "allocation %u at the end: content differs from byte +0x%llx (digest %016llx on the "
                            "driver under test, %016llx on the reference)",
                            a, (unsigned long long)at, (unsigned long long)dd, (unsigned long long)rd);
            return 0;
        }
    }
    return 1;
}

/*
 * The end of an input tears down what it left, on both sides and checked
 * like a step, as the conformance runner judges a case's teardown (leaks,
 * CTXALLOC-LEAK-001, the destroy DDIs). wk_vidmm_reset would destroy the
 * same objects anyway, but it forgets the violations it records, so a bug
 * in a destroy path would go unseen; done here, it costs nothing more.
 */
static int diff_teardown(const char *harness, struct wk_prog_exec *ref, struct wk_prog_exec *dut)
{
    const uint32_t step = ref->p->step_count;
    for (uint32_t d = 0; d < ref->ndevices && d < dut->ndevices; d++) {
        wk_status rs = wk_vidmm_destroy_device(ref->vm, ref->devices[d]);
        step_violated(harness, WK_FUZZ_REF, ref->vm, step, "teardown: destroy_device");
        wk_status ds = wk_vidmm_destroy_device(dut->vm, dut->devices[d]);
        if (step_violated(harness, WK_FUZZ_DUT, dut->vm, step, "teardown: destroy_device"))
            return 0;
        if (ds != rs) {
            wk_fuzz_finding(harness, dut->vm, "teardown of device %u: the driver under test returned %s (%s), the reference %s",
                            d, wk_status_name(ds), wk_vidmm_last_error(dut->vm), wk_status_name(rs));
            return 0;
        }
    }
    return 1;
}

int wk_fuzz_differential(const char *harness, const struct wk_prog *p, const struct wk_fuzz_knobs *k,
                         wk_fuzz_skip_fn *skip, void *user)
{
    static struct wk_case_result ref_result, dut_result;
    static struct wk_prog_exec ref, dut;
    harness_seen = harness;
    struct wk_vidmm *ref_vm = wk_fuzz_ready(WK_FUZZ_REF, k);
    if (!ref_vm)
        return 0; /* an adapter the reference refuses: nothing to compare the DUT with */
    struct wk_vidmm *dut_vm = wk_fuzz_ready(WK_FUZZ_DUT, k);
    if (!dut_vm) {
        wk_fuzz_finding(harness, NULL, "the driver under test does not start on an adapter the reference starts on: %s",
                        slots[WK_FUZZ_DUT].refused);
        return 0;
    }
    wk_prog_exec_init(&ref, p, ref_vm, &ref_result);
    wk_prog_exec_init(&dut, p, dut_vm, &dut_result);
    for (uint32_t i = 0; i < p->step_count; i++) {
        if (!(skip && skip(user, p, i)) && !diff_step(harness, &ref, &dut, i))
            return 0;
    }
    return diff_contents(harness, &ref, &dut) && diff_teardown(harness, &ref, &dut);
}
