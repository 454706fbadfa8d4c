/* SPDX-License-Identifier: MIT */
/*
 * adapters.c - the adapters the driver harnesses run their inputs on:
 * built, kept, reset and reconfigured (fuzz_driver.h says what and why).
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
 * before another is built, as before; and so does the reference role then.
 * Both roles always take the same path (build, reset, reconfigure) for the
 * same inputs: a reset or reconfigured adapter is meant to behave as a
 * fresh one (tests/test_vidmm_kitgaps.c, tests/test_fuzz_driver.c), but
 * where the kit falls short of that, the two sides must be off alike, not
 * one of them, or the gap would be blamed on the driver under test.
 * (It did: after a reset and a reconfigure from 4097 to 1000 bytes of
 * paging buffer, multipass.map-64-pages-buffer-1000 gives another digest
 * than on a fresh adapter.) An input whose GPU description the reference
 * refuses must not break that either: the adapter the reference dropped to
 * make room goes from the DUT's slot too (refused_in_step), which was never
 * asked. A DUT that does not start where the reference does is a finding,
 * after which both slots start over.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

#include "gate/coverage_gate.h"
#include "wddmkit/binding.h"

#include "internal.h"

/* The runtime's state, all of it (internal.h). */
static struct wk_fuzzdrv_state state = { .harness_seen = "fuzz_driver" };

struct wk_fuzzdrv_state *wk_fuzzdrv_state(void)
{
    return &state;
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
           a->split_submissions == b->split_submissions && a->grown_patch_list == b->grown_patch_list &&
           (a->query_segment_version == 4) == (b->query_segment_version == 4) && a->seed == b->seed &&
           a->max_passes == b->max_passes && a->first_fence == b->first_fence &&
           a->move_before_patch == b->move_before_patch &&
           wk_gpu_desc_equal(desc_of(a), desc_of(b));
}

/* Entry e now has knobs k: a copy of them, the description included. */
static void remember(struct kept *e, const struct wk_fuzz_knobs *k)
{
    e->knobs = *k;
    desc_copy(&e->gpu, desc_of(k));
    e->knobs.gpu = &e->gpu.desc;
}

/*
 * Refused descriptions. A mutated fuzz_prog input often describes an
 * adapter the kit or the reference driver refuses (a paging buffer too small
 * for a page of transfer, a segment over system memory): building it
 * created the GPU model, mapped its system memory, ran DriverEntry and
 * StartDevice, then tore it all down, about 5 ms for an input that never
 * reaches a DDI of interest (bench/fuzz_speed --floor found 40 such seeds).
 * The reference's refusal depends on the knobs alone (the reference driver
 * keeps no state across adapters), so it is remembered, knobs and reason,
 * and the same knobs are refused again at once with the same reason. Only
 * the reference role's: a driver under test may refuse by its history, and
 * is never asked for a description the reference refused.
 */
static struct refusal *refused_before(struct slot *s, const struct wk_fuzz_knobs *k)
{
    for (int i = 0; i < REFUSALS; i++)
        if (s->refusals[i].knobs.gpu && knobs_equal(&s->refusals[i].knobs, k))
            return &s->refusals[i];
    return NULL;
}

static void remember_refusal(struct slot *s, const struct wk_fuzz_knobs *k)
{
    struct refusal *r = &s->refusals[0];
    for (int i = 0; i < REFUSALS; i++) {
        if (!s->refusals[i].knobs.gpu) {
            r = &s->refusals[i];
            break;
        }
        if (s->refusals[i].used < r->used)
            r = &s->refusals[i];
    }
    r->knobs = *k;
    desc_copy(&r->gpu, desc_of(k));
    r->knobs.gpu = &r->gpu.desc;
    _Static_assert(sizeof(r->why) == sizeof(s->refused), "a refusal keeps the whole reason");
    memcpy(r->why, s->refused, sizeof(r->why));
    r->used = ++s->clock;
}

/* The driver under test's one load in this process: Windows runs a
 * miniport's DriverEntry once per load of its image, then AddDevice per
 * adapter (vidmm.h, wk_vidmm_load_once), and a harness builds a new adapter
 * whenever an input's knobs change. A DriverEntry that sets global state
 * must not be run again on the same image, whose globals a real load would
 * find fresh. Reachable for the process's life (not a leak). */
static struct wk_vidmm_driver *dut_load;

static wk_status attach(struct wk_vidmm *vm, enum wk_fuzz_role role)
{
    if (role == WK_FUZZ_REF)
        return wk_vidmm_attach(vm, wk_refdriver_DriverEntry);
    const char *path = wk_fuzz_driver_path();
    if (!dut_load && wk_vidmm_driver_new(&dut_load) != WK_OK)
        return path ? wk_vidmm_load(vm, path) : wk_vidmm_attach(vm, wk_fuzz_driver_entry());
    return wk_vidmm_load_once(vm, dut_load, path, path ? NULL : wk_fuzz_driver_entry());
}

static void config_of(const struct wk_fuzz_knobs *k, struct wk_vidmm_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->gpu = k->gpu;
    cfg->ddi_timeout_ms = UINT32_MAX;
    cfg->paging_buffer_size = k->paging_buffer_size;
    cfg->transfer_chunk = k->transfer_chunk;
    cfg->split_submissions = k->split_submissions;
    cfg->grown_patch_list = k->grown_patch_list;
    cfg->move_before_patch = k->move_before_patch;
    cfg->query_segment_version = k->query_segment_version == 4 ? 4 : 3;
    cfg->seed = k->seed;
    cfg->max_passes = k->max_passes;
    cfg->first_fence = k->first_fence < WK_FUZZ_MAX_FIRST_FENCE ? k->first_fence : WK_FUZZ_MAX_FIRST_FENCE;
    cfg->paging_buffer_largest = WK_FUZZ_MAX_PAGING_BUFFER; /* no input maps a paging block (paging.c) */
}

/* A build that failed on the reference description: the kit's fault for
 * the reference, and for the DUT a driver that cannot be fuzzed so. */
static void cannot_build(enum wk_fuzz_role role, struct wk_vidmm *vm, const char *step, wk_status st)
{
    if (role == WK_FUZZ_REF)
        wk_fuzz_kit_invariant("fuzz_driver", vm, "the reference adapter does not build: %s: %s", step,
                              wk_status_name(st));
    /* A rule the driver broke while the adapter started (a crash in the
     * kernel's system device or context, in StartDevice, a query) is a
     * finding like any other, signed with its rule: the engine keeps the
     * input and repro names the bug, where a bare abort named only the
     * signal. */
    const char *harness = wk_fuzzdrv_state()->harness_seen;
    if (vm)
        wk_fuzz_check(harness ? harness : "fuzz_driver", WK_FUZZ_DUT, vm, "while the adapter started");
    fprintf(stderr, "fuzz_driver: cannot bring up the driver under test (%s): %s: %s: %s\n",
            wk_fuzz_driver_name(), step, wk_status_name(st), vm ? wk_vidmm_last_error(vm) : "");
    abort(); /* the driver cannot be fuzzed with these knobs: loud, and the engine keeps the input */
}

/*
 * With a binding that describes its memory, the DUT's adapter is the
 * binding's hardware whatever the input describes: its segments and its
 * system-memory window (cfg.gpu NULL, vidmm.h), so one kept adapter serves
 * every input (the reference's follows the input's description). The
 * input's system memory around the binding's segments made the memory
 * system refuse some (a window over a segment), and made the DUT fail to
 * start on a 1-page window the reference copes with: differences of the
 * platform, not of the drivers.
 */
static int binding_memory(void)
{
    const struct wk_binding *b = wk_fuzz_dut_binding();
    return b && b->memory;
}

/*
 * QUERYSEGMENT4 is WDDM 2.0's: the kit does not ask it of a driver that
 * reports an older WDDMVersion, and refuses to start the adapter
 * (WK_E_NOT_SUPPORTED, vidmm segments.c), as `conform` skips such a case.
 * An input's segment-query version is the kit's knob, not the driver's
 * input, so after the first such refusal the DUT is asked QUERYSEGMENT3
 * whatever the input says (the reference keeps the input's): both must do
 * the same with the same segments. Before this, a WDDM 1.x driver (Heron's
 * wdkstyle) aborted the first input of version 4 as "cannot bring up".
 */
static const struct wk_fuzz_knobs *dut_knobs(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k,
                                             struct wk_fuzz_knobs *folded)
{
    if (role != WK_FUZZ_DUT)
        return k;
    int segment3 = state.dut_segment3_only && k->query_segment_version == 4;
    int own_memory = k->gpu && binding_memory();
    if (!segment3 && !own_memory)
        return k;
    *folded = *k;
    if (segment3)
        folded->query_segment_version = 3;
    if (own_memory)
        folded->gpu = NULL; /* built from the binding alone (build) */
    return folded;
}

/* Whether a failed start was the WDDM-version refusal above: then it is
 * remembered, said once, and the caller builds again with version 3. */
static int refused_segment4(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k, wk_status st, const char *step)
{
    if (role != WK_FUZZ_DUT || st != WK_E_NOT_SUPPORTED || k->query_segment_version != 4 ||
        strcmp(step, "wk_vidmm_start") != 0 || state.dut_segment3_only)
        return 0;
    state.dut_segment3_only = 1;
    fprintf(stderr, "fuzz_driver: the driver under test reports a WDDM version before 2.0: it is asked QUERYSEGMENT3 "
                    "whatever an input's segment-query version\n");
    return 1;
}

/*
 * What executes the driver under test's buffers, decided at its first
 * build (or at start, wk_fuzzdrv_decide_gpu):
 *   - its hardware binding's processor (binding.c: WK_BINDING, else the
 *     module's own export): the adapter's memory is the binding's, and the
 *     differential compares statuses, rules and allocation contents
 *     (differential.c says why that much and no more);
 *   - else WK_GPU=model|none, else the module's WK_DRIVER_TARGETS_GPU_MODEL
 *     marker (driver.h; a linked driver is taken to target the model). A
 *     driver for other hardware without a binding gets no execution (vidmm
 *     no_model) and the differential compares statuses and rules, never
 *     contents.
 */
static const char *gpu_env(void)
{
    const char *env = getenv("WK_GPU");
    return env && (strcmp(env, "none") == 0 || strcmp(env, "model") == 0) ? env : NULL;
}

/* Records the decision, saying it once when the kit's model does not run
 * the buffers. */
static void decided(int gpu)
{
    state.dut_gpu = gpu;
    if (gpu == DUT_GPU_BINDING)
        fprintf(stderr, "fuzz_driver: the binding's processor executes the driver's buffers; the differential "
                        "compares statuses, rules and content checks, not placement (fuzz/driver/differential.c)\n");
    else if (gpu == DUT_GPU_NONE)
        fprintf(stderr, "fuzz_driver: the driver under test %s: nothing executes its buffers; the differential "
                        "compares statuses and rules, not contents (WK_GPU=model executes them, WK_BINDING=<module> "
                        "runs them on its hardware binding)\n",
                gpu_env() ? "runs with WK_GPU=none" : "does not declare WK_DRIVER_TARGETS_GPU_MODEL");
}

static int model_or_none(int model)
{
    return model ? DUT_GPU_MODEL : DUT_GPU_NONE;
}

/* What executes the DUT's buffers (DUT_GPU_*), decided at the first call. */
static int dut_gpu(struct wk_vidmm *vm)
{
    if (!state.dut_gpu && wk_fuzz_dut_binding_executes())
        decided(DUT_GPU_BINDING);
    if (!state.dut_gpu) {
        state.dut_kit_umd = wk_vidmm_driver_declares_kit_umd(vm) == 1;
        decided(model_or_none(gpu_env() ? strcmp(gpu_env(), "model") == 0
                                        : wk_vidmm_driver_declares_model(vm) != 0));
    }
    return state.dut_gpu;
}

int wk_fuzz_dut_targets_model(void)
{
    return state.dut_gpu == 0 || state.dut_gpu == DUT_GPU_MODEL;
}

int wk_fuzz_dut_reads_kit_umd(void)
{
    return wk_fuzz_dut_targets_model() || state.dut_kit_umd;
}

int wk_fuzz_dut_executes(void)
{
    return state.dut_gpu != DUT_GPU_NONE;
}

void wk_fuzzdrv_decide_gpu(void *so)
{
    state.dut_kit_umd = so && dlsym(so, WK_DRIVER_KIT_UMD_SYMBOL) != NULL;
    if (wk_fuzz_dut_binding_executes())
        decided(DUT_GPU_BINDING);
    else if (gpu_env())
        decided(model_or_none(strcmp(gpu_env(), "model") == 0));
    else if (so)
        decided(model_or_none(dlsym(so, WK_DRIVER_GPU_MODEL_SYMBOL) != NULL));
}

/* A started adapter with knobs k, or NULL (another description than the
 * reference refused; why is in the slot's `refused`, and nothing of the
 * failed attempt is left). The DUT's runs with its hardware binding, when
 * it has one, on the binding's memory (binding_memory). */
static struct wk_vidmm *build(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k)
{
    struct wk_vidmm_config cfg;
    config_of(k, &cfg);
    if (role == WK_FUZZ_DUT)
        cfg.binding = wk_fuzz_dut_binding(); /* k->gpu is NULL when it has memory (dut_knobs) */
    struct wk_vidmm *vm = NULL;
    const char *step = "wk_vidmm_create";
    wk_status st = wk_vidmm_create(&cfg, &vm);
    if (st == WK_OK) {
        step = "attaching the driver";
        st = attach(vm, role);
    }
    if (st == WK_OK && role == WK_FUZZ_DUT && dut_gpu(vm) != DUT_GPU_MODEL) {
        /* a driver for other hardware: judged on the contract profile, as
         * conform judges it (docs/verdicts.md); nothing executes its
         * buffers unless its binding does (--gpu none) */
        wk_vidmm_set_no_model(vm, state.dut_gpu == DUT_GPU_NONE);
        wk_vidmm_skip_choice_rules(vm, 1);
    }
    if (st == WK_OK) {
        step = "wk_vidmm_start";
        st = wk_vidmm_start(vm);
    }
    char unreachable[256];
    state.slots[role].out_of_reach = 0;
    if (st == WK_OK && role == WK_FUZZ_DUT && wk_vidmm_system_unreachable(vm, unreachable, sizeof(unreachable))) {
        state.slots[role].out_of_reach = 1;
        /* a description no VidMm would give this driver: refused, as one
         * it declined (mutated descriptions move system memory anywhere) */
        step = "HighestAcceptableAddress"; /* not the start's refusal of QUERYSEGMENT4 (refused_segment4) */
        st = wk_vidmm_skip(vm, unreachable);
    }
    if (st == WK_OK)
        return vm;
    if (refused_segment4(role, k, st, step)) {
        struct wk_fuzz_knobs folded;
        wk_vidmm_destroy(vm);
        return build(role, dut_knobs(role, k, &folded));
    }
    if (on_reference(k))
        cannot_build(role, vm, step, st);
    snprintf(state.slots[role].refused, sizeof(state.slots[role].refused), "%s: %s: %s", step, wk_status_name(st),
             vm ? wk_vidmm_last_error(vm) : "the adapter description is refused");
    wk_vidmm_destroy(vm);
    return NULL;
}

/* What only a new adapter changes (wk_vidmm_reconfigure refuses it): the
 * GPU description, the segment-query version and the first fence id. */
static int same_build(const struct wk_fuzz_knobs *a, const struct wk_fuzz_knobs *b)
{
    return (a->query_segment_version == 4) == (b->query_segment_version == 4) && a->first_fence == b->first_fence &&
           wk_gpu_desc_equal(desc_of(a), desc_of(b));
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

void wk_fuzzdrv_drop(struct kept *e)
{
    wk_vidmm_destroy(e->vm);
    e->vm = NULL;
}

static void drop_all(struct slot *s)
{
    for (int i = 0; i < KEPT; i++)
        wk_fuzzdrv_drop(&s->kept[i]);
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

/*
 * The entry a new adapter takes, emptied before the build: the adapter it
 * held is destroyed first, so its model's memory pool (with the host
 * mappings it keeps), its page arenas and its guarded argument buffers
 * are parked for the build to take (gpu-model sysmem.c, page_pool.c;
 * guard.c). Built first, the new adapter found nothing parked and mapped
 * all of it afresh: about 17 mapping changes per build, 0.8 to 0.9 per
 * input of a mutated fuzz_prog mix (bench/fuzz_speed --floor). A loaded
 * driver module gets one live adapter: its slot is emptied whole.
 */
static struct kept *make_room(struct slot *s, int several, struct kept *gone)
{
    struct kept *e = several ? victim(s) : &s->kept[0];
    gone->knobs = e->knobs;
    gone->knobs.gpu = NULL; /* it held no adapter */
    if (e->vm) {
        desc_copy(&gone->gpu, &e->gpu.desc);
        gone->knobs.gpu = &gone->gpu.desc;
    }
    if (several)
        wk_fuzzdrv_drop(e);
    else
        drop_all(s);
    return e;
}

/* After the reference refused a description, with its entry for the new
 * adapter already emptied: the driver under test's slot, never asked,
 * loses the same adapter, so that the two slots keep one history and take
 * the same path (build, reset, reconfigure) for every input to come. */
static void refused_in_step(const struct wk_fuzz_knobs *gone, int several)
{
    struct slot *dut = &state.slots[WK_FUZZ_DUT];
    if (!several) {
        drop_all(dut);
        return;
    }
    struct wk_fuzz_knobs folded;
    struct kept *e = gone->gpu ? with_knobs(dut, dut_knobs(WK_FUZZ_DUT, gone, &folded)) : NULL;
    if (e)
        wk_fuzzdrv_drop(e);
}

struct wk_vidmm *wk_fuzz_adapter(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k)
{
    static const struct wk_fuzz_knobs defaults;
    struct wk_fuzz_knobs folded;
    struct slot *s = &state.slots[role];
    if (!k)
        k = &defaults;
    k = dut_knobs(role, k, &folded);
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
    struct refusal *r = role == WK_FUZZ_REF ? refused_before(s, k) : NULL;
    if (r) { /* nothing built, nothing dropped */
        memcpy(s->refused, r->why, sizeof(s->refused));
        r->used = ++s->clock;
        return NULL;
    }
    int several = keeps_several();
    struct kept gone;
    struct kept *room = make_room(s, several, &gone);
    struct wk_vidmm *vm = build(role, k);
    if (!vm) {
        if (role == WK_FUZZ_REF) {
            remember_refusal(s, k);
            refused_in_step(&gone.knobs, several);
        }
        return NULL;
    }
    room->vm = vm;
    remember(room, k);
    s->epoch++;
    s->builds++;
    return use(s, room);
}

/* WK_FUZZ_FRESH=1: every input on freshly built adapters. wk_vidmm_reset
 * rewinds everything of the kit's (tests/test_vidmm_kitgaps.c compares a
 * reset adapter with a fresh one), but it does not reload the driver, so a
 * finding that depends on the driver's own history (state it keeps across
 * devices) may not replay in a fresh process; in this mode every one does,
 * for the cost of building and starting two adapters per input. */
int wk_fuzzdrv_fresh_mode(void)
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
    /* The paging buffer's size is what the driver answered in
     * DXGK_QUERYSEGMENTOUT (PagingBufferSize, facts §4) when its adapter
     * started, and Windows never changes it on a started adapter; a driver
     * may rely on it. The reference driver does not, and is reconfigured;
     * with any other driver under test, both roles get a new adapter for
     * another size (the two sides keep one history of builds, resets and
     * reconfigures, above). The Heron WDK-style miniport, its adapter
     * reconfigured to another size, failed content checks that a fresh
     * adapter of that size passed. */
    if (!keeps_several() && e->knobs.paging_buffer_size != k->paging_buffer_size)
        return 0;
    struct wk_vidmm_config cfg;
    config_of(k, &cfg);
    cfg.gpu = NULL; /* the adapter keeps its GPU, equal to k's (reconfigurable) */
    /* and its hardware binding, which no reconfigure changes: without it a
     * DUT with a binding was never reconfigured but rebuilt for every other
     * seed or paging knob (its register window, contiguous memory, paging
     * buffer and view mapped again: 3 to 6 mapping changes an input with
     * the Heron miniport, bench/fuzz_speed --floor) */
    cfg.binding = wk_vidmm_binding(e->vm);
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
    wk_fuzzdrv_drop(e); /* dead (WK_E_DEAD), not resettable or not reconfigurable: start over */
    return NULL;
}

/* Picking, resetting, reconfiguring or building a kept adapter, and
 * rebuilding the fixture, depend on the inputs before: the engine's
 * coverage is paused meanwhile (coverage_gate.h). Not in WK_FUZZ_FRESH
 * mode, where every input builds alike. */
void wk_fuzzdrv_history_begin(void)
{
    if (!wk_fuzzdrv_fresh_mode())
        wk_fuzz_coverage_pause();
}

void wk_fuzzdrv_history_end(void)
{
    if (!wk_fuzzdrv_fresh_mode())
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
    struct wk_fuzz_knobs folded;
    struct slot *s = &state.slots[role];
    if (!k)
        k = &defaults;
    k = dut_knobs(role, k, &folded);
    s->epoch++;
    if (!model_takes(s, k))
        return NULL;
    if (wk_fuzzdrv_fresh_mode())
        drop_all(s);
    wk_fuzzdrv_history_begin();
    struct wk_vidmm *vm = s->stale ? NULL : reuse(s, k);
    if (!vm)
        vm = wk_fuzz_adapter(role, k);
    wk_fuzzdrv_history_end();
    return vm;
}

uint64_t wk_fuzz_epoch(enum wk_fuzz_role role)
{
    return state.slots[role].epoch;
}

uint64_t wk_fuzz_builds(enum wk_fuzz_role role)
{
    return state.slots[role].builds;
}
