/* SPDX-License-Identifier: MIT */
/*
 * tests/test_fuzz_driver.c - the adapters the differential harnesses keep
 * (fuzz/driver/adapters.c), and the shortcuts fuzz_prog's checks take:
 *
 *   - up to four adapters per role are kept, by knobs: inputs that
 *     alternate between knob sets (segment-query versions, paging knobs)
 *     reuse them, and every program gives the same statuses, compared
 *     check outcomes, placements and digests on a kept adapter as on a
 *     freshly built one;
 *   - after a finding every kept adapter is rebuilt, the other version's
 *     too;
 *   - a driver under test from WK_DRIVER gets one live adapter at a time
 *     (it may keep adapter state in globals), and the reference role then
 *     does the same, both sides taking one path;
 *   - an input may describe another GPU: it gets an adapter of its own,
 *     kept by the description's value (not the buffer holding it), that
 *     replays like a fresh one; the seed reaches a kept adapter through a
 *     reconfigure; a description the reference refuses runs nothing and is
 *     no finding (nothing kept is dropped), one only the DUT refuses is;
 *   - an expect_digest step decided by comparing the bytes of both sides
 *     still finds a DUT whose bytes differ at that step;
 *   - wk_vidmm_digest reusing an equal previous page's chunk value still
 *     equals the documented digest (wk_gpu_digest_bytes).
 *
 * The seeds are corpus/fuzz_prog/seeds, run in directory order, as the
 * harness runs them (rewrites and `trips` stripped).
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conformance.h"
#include "fuzz.h"
#include "wddmkit/gpu.h"
#include "reference.h"

#ifndef WK_SOURCE_DIR
#define WK_SOURCE_DIR "."
#endif

#define SEEDS WK_SOURCE_DIR "/corpus/fuzz_prog/seeds"
#define MAX_INPUT (64u << 10)

/* What a program did on one adapter: each step's status and check outcome,
 * each allocation's placement and digest at the end. */
struct outcome {
    wk_status status[WK_PROG_MAX_STEPS];
    int failed[WK_PROG_MAX_STEPS];
    struct wk_vidmm_allocation_state state[WK_PROG_MAX_OBJECTS];
    wk_status digest_status[WK_PROG_MAX_OBJECTS];
    uint64_t digest[WK_PROG_MAX_OBJECTS];
    uint32_t nallocs;
};

static struct wk_fuzz_knobs knobs_of(const struct wk_prog *p)
{
    struct wk_fuzz_knobs k = { p->vidmm.paging_buffer_size, p->vidmm.transfer_chunk, p->vidmm.split_submissions,
                               p->vidmm.query_segment_version, &p->gpu, p->vidmm.seed, p->vidmm.max_passes,
                               p->vidmm.grown_patch_list, p->vidmm.first_fence, p->vidmm.move_before_patch };
    k.paging_buffer_size = wk_fuzz_paging_buffer(k.paging_buffer_size); /* as fuzz_prog folds it */
    return k;
}

/* An adapter built the way fuzz/driver/adapters.c builds one, never reused. */
static struct wk_vidmm *fresh_adapter(const struct wk_fuzz_knobs *k)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.gpu = k->gpu;
    cfg.ddi_timeout_ms = UINT32_MAX;
    cfg.paging_buffer_size = k->paging_buffer_size;
    cfg.transfer_chunk = k->transfer_chunk;
    cfg.split_submissions = k->split_submissions;
    cfg.query_segment_version = k->query_segment_version == 4 ? 4 : 3;
    cfg.seed = k->seed;
    cfg.max_passes = k->max_passes;
    cfg.move_before_patch = k->move_before_patch;
    struct wk_vidmm *vm = NULL;
    assert_int_equal(wk_vidmm_create(&cfg, &vm), WK_OK);
    assert_int_equal(wk_vidmm_attach(vm, wk_refdriver_DriverEntry), WK_OK);
    assert_int_equal(wk_vidmm_start(vm), WK_OK);
    return vm;
}

static void run(const struct wk_prog *p, struct wk_vidmm *vm, struct outcome *o)
{
    static struct wk_prog_exec x;
    static struct wk_case_result r;
    memset(o, 0, sizeof(*o));
    wk_prog_exec_init(&x, p, vm, &r);
    for (uint32_t i = 0; i < p->step_count; i++)
        o->status[i] = wk_prog_exec_step(&x, &p->steps[i], &o->failed[i]);
    o->nallocs = x.nallocs;
    for (uint32_t a = 0; a < x.nallocs; a++) {
        if (wk_vidmm_allocation_state(vm, x.allocs[a], &o->state[a]) != WK_OK)
            memset(&o->state[a], 0, sizeof(o->state[a]));
        o->digest_status[a] = wk_vidmm_digest(vm, x.allocs[a], &o->digest[a]);
    }
}

/* The checks wk_fuzz_differential compares: on the bytes and the GART,
 * not on counters (a reset adapter's statistics go on counting). */
static int compared(enum wk_step_kind k)
{
    return k == WK_STEP_EXPECT_BYTES || k == WK_STEP_EXPECT_PATTERN || k == WK_STEP_EXPECT_DIGEST ||
           k == WK_STEP_EXPECT_GART;
}

/* 1 when both runs did the same; else prints the first difference. */
static int same(const char *name, const struct wk_prog *p, const struct outcome *kept, const struct outcome *fresh)
{
    for (uint32_t i = 0; i < p->step_count; i++)
        if (kept->status[i] != fresh->status[i] ||
            (compared(p->steps[i].kind) && kept->failed[i] != fresh->failed[i])) {
            fprintf(stderr, "%s step %u: %s/%d on the kept adapter, %s/%d on a fresh one\n", name, i,
                    wk_status_name(kept->status[i]), kept->failed[i], wk_status_name(fresh->status[i]),
                    fresh->failed[i]);
            return 0;
        }
    if (kept->nallocs != fresh->nallocs)
        return fprintf(stderr, "%s: %u allocations kept, %u fresh\n", name, kept->nallocs, fresh->nallocs), 0;
    for (uint32_t a = 0; a < kept->nallocs; a++) {
        const struct wk_vidmm_allocation_state *k = &kept->state[a], *f = &fresh->state[a];
        if (k->resident != f->resident || k->segment_id != f->segment_id || k->segment_offset != f->segment_offset ||
            kept->digest_status[a] != fresh->digest_status[a] || kept->digest[a] != fresh->digest[a]) {
            fprintf(stderr, "%s allocation %u: placement or digest %016llx differs from a fresh adapter's %016llx\n",
                    name, a, (unsigned long long)kept->digest[a], (unsigned long long)fresh->digest[a]);
            return 0;
        }
    }
    return 1;
}

static int load(const char *dir, const char *name, struct wk_prog *p)
{
    static uint8_t buf[MAX_INPUT];
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    wk_prog_decode(buf, n, p);
    p->has_rewrite = 0;
    memset(&p->rewrite, 0, sizeof(p->rewrite));
    p->trips[0] = '\0';
    return 1;
}

/* Whether p runs on the reference GPU description, seed and passes. */
static int reference_adapter(const struct wk_prog *p)
{
    return wk_gpu_desc_equal(&p->gpu, wk_gpu_reference_desc()) && !p->vidmm.seed && !p->vidmm.max_passes;
}

/* Every seed on the kept adapter of its version and on a fresh one. */
static void test_kept_adapters_replay_like_fresh_ones(void **state)
{
    (void)state;
    static struct wk_prog p;
    static struct outcome kept, fresh;
    DIR *d = opendir(SEEDS);
    assert_non_null(d);
    uint64_t builds = wk_fuzz_builds(WK_FUZZ_DUT);
    uint32_t runs = 0, versions[2] = { 0, 0 }, switches = 0, last = 0, own = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !load(SEEDS, e->d_name, &p))
            continue;
        struct wk_fuzz_knobs k = knobs_of(&p);
        uint32_t v = k.query_segment_version == 4;
        own += !reference_adapter(&p);
        switches += runs && v != last;
        last = v;
        versions[v]++;
        run(&p, wk_fuzz_ready(WK_FUZZ_DUT, &k), &kept);
        struct wk_vidmm *vm = fresh_adapter(&k);
        run(&p, vm, &fresh);
        wk_vidmm_destroy(vm);
        assert_true(same(e->d_name, &p, &kept, &fresh));
        wk_prog_free(&p);
        runs++;
    }
    closedir(d);
    assert_true(runs > 100);
    assert_true(versions[0] > 0 && versions[1] > 0 && switches > 1); /* the cache is exercised */
    /* On the reference description, no more adapters than the role keeps,
     * however often the inputs switch; a seed with an adapter of its own
     * (its case's GPU description, seed or max_passes) may need one more. */
    assert_true(own > 10);
    assert_true(wk_fuzz_builds(WK_FUZZ_DUT) - builds <= WK_FUZZ_KEPT + own);
}

/* A reset adapter reconfigured from one paging-buffer size to another
 * replays like a fresh one (the pair fuzz_prog met: a 4097-byte buffer,
 * then a 1000-byte one). */
static void test_reconfigure_between_seeds_replays_like_fresh(void **state)
{
    (void)state;
    static struct wk_prog first, second;
    static struct outcome reconfigured, fresh;
    assert_true(load(SEEDS, "multipass.map-510-pages-buffer-4097.bin", &first));
    assert_true(load(SEEDS, "multipass.map-64-pages-buffer-1000.bin", &second));
    struct wk_fuzz_knobs k1 = knobs_of(&first), k2 = knobs_of(&second);
    struct wk_vidmm *vm = fresh_adapter(&k1);
    run(&first, vm, &reconfigured);
    assert_int_equal(wk_vidmm_reset(vm), WK_OK);
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.ddi_timeout_ms = UINT32_MAX;
    cfg.paging_buffer_size = k2.paging_buffer_size;
    cfg.transfer_chunk = k2.transfer_chunk;
    cfg.split_submissions = k2.split_submissions;
    cfg.query_segment_version = k2.query_segment_version == 4 ? 4 : 3;
    assert_int_equal(wk_vidmm_reconfigure(vm, &cfg), WK_OK);
    run(&second, vm, &reconfigured);
    wk_vidmm_destroy(vm);
    vm = fresh_adapter(&k2);
    run(&second, vm, &fresh);
    wk_vidmm_destroy(vm);
    assert_true(same("multipass.map-64-pages-buffer-1000 after -4097", &second, &reconfigured, &fresh));
    wk_prog_free(&first);
    wk_prog_free(&second);
}

static const struct wk_fuzz_knobs v3 = { 0, 0, 0, 3, NULL, 0, 0, 0, 0, 0 }, v4 = { 8192, 2, 1, 4, NULL, 0, 0, 0, 0, 0 };

/* Knob set i of WK_FUZZ_KEPT distinct ones that a role keeps all of: four
 * per description (two paging variants of each version, under
 * WK_FUZZ_KEPT_PER_BUILD), the first on the reference description (set 0
 * is v3, set 1 is v4), the others on the reference segments with a system
 * pool one page larger each. */
static struct wk_fuzz_knobs nth_knobs(int i)
{
    static struct wk_gpu_desc descs[WK_FUZZ_KEPT / 4];
    if (i < 2)
        return i ? v4 : v3;
    struct wk_fuzz_knobs k = { 28u + (uint32_t)i, 0, 0, i % 2 ? 4u : 3u, NULL, 0, 0, 0, 0, 0 };
    if (i / 4) {
        descs[i / 4] = *wk_gpu_reference_desc();
        descs[i / 4].sysmem_pages += (uint64_t)(i / 4);
        k.gpu = &descs[i / 4];
    }
    return k;
}

/* Paging knobs beyond WK_FUZZ_KEPT_PER_BUILD on one description and version
 * reconfigure a kept adapter (the least recently used) instead of building
 * another, free entries notwithstanding. */
static void test_paging_variants_share_a_build(void **state)
{
    (void)state;
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    wk_fuzz_finding("test_fuzz_driver", NULL, "start from no kept adapter");
    unsetenv("WK_FUZZ_NO_ABORT");
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        uint64_t builds = wk_fuzz_builds(r);
        for (uint32_t i = 0; i < 2 * WK_FUZZ_KEPT_PER_BUILD; i++) {
            struct wk_fuzz_knobs k = { 28u + i, 0, 0, 3, NULL, 0, 0, 0, 0, 0 };
            assert_non_null(wk_fuzz_ready(r, &k));
        }
        assert_int_equal(wk_fuzz_builds(r) - builds, WK_FUZZ_KEPT_PER_BUILD);
    }
}

static void test_alternating_versions_reuse_adapters(void **state)
{
    (void)state;
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        wk_fuzz_ready(r, &v3);
        wk_fuzz_ready(r, &v4);
        uint64_t builds = wk_fuzz_builds(r);
        struct wk_vidmm *a = wk_fuzz_ready(r, &v3), *b = wk_fuzz_ready(r, &v4);
        for (int i = 0; i < 10; i++) {
            assert_ptr_equal(wk_fuzz_ready(r, &v3), a);
            assert_ptr_equal(wk_fuzz_ready(r, &v4), b);
        }
        assert_int_equal(wk_fuzz_builds(r), builds);
    }
}

/* As many knob sets in turn as a role keeps (paging variants of both
 * versions): each keeps its adapter, none is rebuilt or reconfigured for
 * the others. */
static void test_alternating_knobs_keep_their_adapters(void **state)
{
    (void)state;
    static struct wk_vidmm *vm[WK_FUZZ_ROLES][WK_FUZZ_KEPT];
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    wk_fuzz_finding("test_fuzz_driver", NULL, "start from no kept adapter");
    unsetenv("WK_FUZZ_NO_ABORT");
    for (int r = 0; r < WK_FUZZ_ROLES; r++)
        for (int i = 0; i < WK_FUZZ_KEPT; i++) {
            struct wk_fuzz_knobs k = nth_knobs(i);
            vm[r][i] = wk_fuzz_ready(r, &k);
        }
    uint64_t builds[WK_FUZZ_ROLES] = { wk_fuzz_builds(WK_FUZZ_DUT), wk_fuzz_builds(WK_FUZZ_REF) };
    for (int round = 0; round < 5; round++)
        for (int r = 0; r < WK_FUZZ_ROLES; r++)
            for (int i = 0; i < WK_FUZZ_KEPT; i++) {
                struct wk_fuzz_knobs k = nth_knobs((i + round) % WK_FUZZ_KEPT);
                assert_ptr_equal(wk_fuzz_ready(r, &k), vm[r][(i + round) % WK_FUZZ_KEPT]);
            }
    for (int r = 0; r < WK_FUZZ_ROLES; r++)
        assert_int_equal(wk_fuzz_builds(r), builds[r]);
}

/* After a finding (WK_FUZZ_NO_ABORT) nothing is reused: both versions'
 * adapters of both roles are built again. */
static void test_finding_rebuilds_every_kept_adapter(void **state)
{
    (void)state;
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        wk_fuzz_ready(r, &v3);
        wk_fuzz_ready(r, &v4);
    }
    uint64_t findings = wk_fuzz_findings();
    uint64_t builds[WK_FUZZ_ROLES] = { wk_fuzz_builds(WK_FUZZ_DUT), wk_fuzz_builds(WK_FUZZ_REF) };
    wk_fuzz_finding("test_fuzz_driver", NULL, "a finding made up by the test");
    assert_int_equal(wk_fuzz_findings(), findings + 1);
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        wk_fuzz_ready(r, &v3);
        wk_fuzz_ready(r, &v4);
        assert_int_equal(wk_fuzz_builds(r), builds[r] + 2);
        wk_fuzz_ready(r, &v3); /* and kept again from then on */
        assert_int_equal(wk_fuzz_builds(r), builds[r] + 2);
    }
    unsetenv("WK_FUZZ_NO_ABORT");
}

/* A driver module may keep adapter state in globals: one live adapter of
 * it at a time, rebuilt at every switch of version; and the reference
 * side does the same, so that both sides of a differential run share one
 * history of builds, resets and reconfigures. */
static void test_loaded_driver_gets_one_live_adapter(void **state)
{
    (void)state;
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    setenv("WK_DRIVER", WK_TEST_DRIVER, 1);
    wk_fuzz_finding("test_fuzz_driver", NULL, "drop the reference driver's adapters");
    uint64_t builds[WK_FUZZ_ROLES] = { wk_fuzz_builds(WK_FUZZ_DUT), wk_fuzz_builds(WK_FUZZ_REF) };
    for (int i = 0; i < 3; i++)
        for (int r = 0; r < WK_FUZZ_ROLES; r++) {
            wk_fuzz_ready(r, &v3);
            wk_fuzz_ready(r, &v4);
        }
    for (int r = 0; r < WK_FUZZ_ROLES; r++)
        assert_int_equal(wk_fuzz_builds(r), builds[r] + 6);
    /* Other paging knobs of the same version: the one adapter, reconfigured;
     * but not to another paging-buffer size, which a driver answered when
     * its adapter started (PagingBufferSize) and Windows never changes: a
     * new adapter, on both sides. */
    const struct wk_fuzz_knobs v4b = { 8192, 1, 0, 4, NULL, 0, 0, 1, 0, 0 }, v4c = { 0, 1, 0, 4, NULL, 0, 0, 1, 0, 0 };
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        struct wk_vidmm *vm = wk_fuzz_ready(r, &v4);
        assert_ptr_equal(wk_fuzz_ready(r, &v4b), vm);
        assert_int_equal(wk_fuzz_builds(r), builds[r] + 6);
        wk_fuzz_ready(r, &v4c);
        assert_int_equal(wk_fuzz_builds(r), builds[r] + 7);
    }
    wk_fuzz_finding("test_fuzz_driver", NULL, "drop the module's adapter");
    unsetenv("WK_DRIVER");
    unsetenv("WK_FUZZ_NO_ABORT");
}

/* ------------------------------------------------------------------ */
/* Adapters an input describes                                          */
/* ------------------------------------------------------------------ */

/* The reference adapter with segment 1 of 64 KiB (specs/eviction-
 * residency.yaml's adapter), in p's own buffers as a decoded input has it. */
static void small_segment_1(struct wk_prog *p)
{
    wk_prog_init(p);
    p->segments[0].size = 64u << 10;
}

static void drop_every_kept_adapter(void)
{
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    wk_fuzz_finding("test_fuzz_driver", NULL, "start from no kept adapter");
    unsetenv("WK_FUZZ_NO_ABORT");
}

static const struct wk_gpu_segment_desc *segment(struct wk_vidmm *vm, uint32_t id)
{
    return &wk_gpu_description(wk_vidmm_gpu(vm))->segments[id - 1];
}

/* An input on another GPU description gets an adapter built with it, kept
 * beside the reference one: alternating them builds nothing more. */
static void test_custom_desc_gets_its_own_adapter(void **state)
{
    (void)state;
    static struct wk_prog small;
    small_segment_1(&small);
    struct wk_fuzz_knobs k = v3;
    k.gpu = &small.gpu;
    drop_every_kept_adapter();
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        struct wk_vidmm *ref = wk_fuzz_ready(r, &v3);
        uint64_t builds = wk_fuzz_builds(r);
        struct wk_vidmm *custom = wk_fuzz_ready(r, &k);
        assert_int_equal(wk_fuzz_builds(r), builds + 1);
        assert_ptr_not_equal(custom, ref);
        assert_int_equal(segment(custom, 1)->size, 64u << 10);
        assert_int_equal(segment(ref, 1)->size, 1u << 20);
        for (int i = 0; i < 10; i++) {
            assert_ptr_equal(wk_fuzz_ready(r, &v3), ref);
            assert_ptr_equal(wk_fuzz_ready(r, &k), custom);
        }
        assert_int_equal(wk_fuzz_builds(r), builds + 1);
    }
}

/* A kept adapter remembers its description by value: the buffer it came
 * from may be overwritten (the next input), an equal description in
 * another buffer finds it, and one bank end moved does not. The reference
 * description in a program's buffers is the reference adapter (NULL). */
static void test_kept_desc_compares_by_value(void **state)
{
    (void)state;
    static struct wk_prog a, b, reference;
    small_segment_1(&a);
    small_segment_1(&b);
    wk_prog_init(&reference);
    struct wk_fuzz_knobs ka = v3, kb = v3, kr = v3;
    ka.gpu = &a.gpu;
    kb.gpu = &b.gpu;
    kr.gpu = &reference.gpu;
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        struct wk_vidmm *ref = wk_fuzz_ready(r, &v3), *vm = wk_fuzz_ready(r, &ka);
        uint64_t builds = wk_fuzz_builds(r);
        assert_ptr_equal(wk_fuzz_ready(r, &kr), ref);
        a.segments[0].size = 32u << 10; /* the next input overwrites the buffer */
        a.bank_ends[1][0] = 0x20000;
        assert_ptr_equal(wk_fuzz_ready(r, &kb), vm);
        assert_int_equal(wk_fuzz_builds(r), builds);
        b.bank_ends[1][0] = 0x20000;
        struct wk_vidmm *moved = wk_fuzz_ready(r, &kb);
        assert_ptr_not_equal(moved, vm);
        assert_int_equal(wk_fuzz_builds(r), builds + 1);
        assert_int_equal(segment(moved, 2)->bank_ends[0], 0x20000);
        assert_int_equal(segment(vm, 2)->bank_ends[0], 0x40000);
        small_segment_1(&a);
        small_segment_1(&b);
    }
}

/* Every seed on the kept adapter of the 64 KiB description gives what a
 * fresh adapter of that description gives, and some seeds do something
 * else than on the reference adapter (an allocation that no longer fits). */
static void test_custom_desc_replays_like_fresh(void **state)
{
    (void)state;
    static struct wk_prog p, small;
    static struct outcome reference, kept, fresh;
    small_segment_1(&small);
    DIR *d = opendir(SEEDS);
    assert_non_null(d);
    uint32_t runs = 0, differ = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !load(SEEDS, e->d_name, &p))
            continue;
        struct wk_fuzz_knobs k = knobs_of(&p);
        run(&p, wk_fuzz_ready(WK_FUZZ_DUT, &k), &reference);
        k.gpu = &small.gpu;
        run(&p, wk_fuzz_ready(WK_FUZZ_DUT, &k), &kept);
        struct wk_vidmm *vm = fresh_adapter(&k);
        run(&p, vm, &fresh);
        wk_vidmm_destroy(vm);
        assert_true(same(e->d_name, &p, &kept, &fresh));
        for (uint32_t i = 0; i < p.step_count; i++)
            if (reference.status[i] != kept.status[i]) {
                differ++;
                break;
            }
        wk_prog_free(&p);
        runs++;
    }
    closedir(d);
    assert_true(runs > 100);
    assert_true(differ > 0);
}

/* A new device on vm (into *dev) and an allocation of `pages` pages on it,
 * only in `segment` when it is not 0; the allocation's handle. */
static uint32_t new_allocation(struct wk_vidmm *vm, uint32_t *dev, uint32_t pages, uint32_t segment)
{
    uint32_t h = 0;
    assert_int_equal(wk_vidmm_create_device(vm, 0, dev), WK_OK);
    WK_ALLOCATION_REQUEST q;
    memset(&q, 0, sizeof(q));
    q.Magic = WK_ALLOCATION_REQUEST_MAGIC;
    q.Version = WK_ALLOCATION_REQUEST_VERSION;
    q.Size = (uint64_t)pages * WK_GPU_PAGE_SIZE;
    q.PreferredSegment.Value = segment;
    q.SupportedSegmentSet = segment ? 1u << (segment - 1) : 0;
    assert_int_equal(wk_vidmm_create_allocation(vm, *dev, &q, &h), WK_OK);
    return h;
}

/* The PFNs behind an 8-page allocation paged into the aperture (segment
 * 3): where the adapter's seed scattered its system pages. */
static void aperture_pfns(struct wk_vidmm *vm, uint64_t pfns[8])
{
    uint32_t dev = 0, h = new_allocation(vm, &dev, 8, 3);
    assert_int_equal(wk_vidmm_page_in(vm, h), WK_OK);
    struct wk_vidmm_allocation_state st;
    assert_int_equal(wk_vidmm_allocation_state(vm, h, &st), WK_OK);
    assert_true(st.resident && st.segment_id == 3);
    for (uint32_t i = 0; i < 8; i++) {
        int valid = 0, stale = 0;
        assert_int_equal(wk_gpu_gart_get(wk_vidmm_gpu(vm), 3, st.segment_offset / WK_GPU_PAGE_SIZE + i, &valid,
                                         &pfns[i], &stale),
                         WK_OK);
        assert_true(valid);
    }
    assert_int_equal(wk_vidmm_destroy_device(vm, dev), WK_OK);
}

/* The seed reaches the adapter, also when a kept adapter of the same
 * description and version is given it by a reconfigure (every entry in
 * use, so nothing is built): its pages are scattered as on a fresh adapter
 * with that seed, not as with seed 0. */
static void test_seed_reaches_a_reconfigured_adapter(void **state)
{
    (void)state;
    struct wk_fuzz_knobs seeded = v3;
    seeded.seed = 0x5EED5EED5EEDull;
    seeded.max_passes = 64;
    uint64_t plain[8], kept[8], fresh[8];
    drop_every_kept_adapter();
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        for (int i = 0; i < WK_FUZZ_KEPT; i++) {
            struct wk_fuzz_knobs k = nth_knobs(i);
            wk_fuzz_ready(r, &k);
        }
        aperture_pfns(wk_fuzz_ready(r, &v3), plain);
        uint64_t builds = wk_fuzz_builds(r);
        aperture_pfns(wk_fuzz_ready(r, &seeded), kept);
        assert_int_equal(wk_fuzz_builds(r), builds);
        struct wk_vidmm *vm = fresh_adapter(&seeded);
        aperture_pfns(vm, fresh);
        wk_vidmm_destroy(vm);
        assert_memory_equal(kept, fresh, sizeof(kept));
        assert_memory_not_equal(kept, plain, sizeof(kept));
    }
}

/* Descriptions the GPU model refuses (segment 2 over segment 1, no system
 * memory) or the reference driver does (no segment: StartDevice fails)
 * are not findings (WK_FUZZ_NO_ABORT unset: a finding or a KIT INVARIANT
 * would abort), and the next inputs run on the adapters kept. The model's
 * refusals build nothing and drop nothing. The reference driver's comes
 * after the reference role emptied an entry for the new adapter (its
 * resources parked for the build): the driver under test's slot loses the
 * same adapter, so that the two roles keep one history (else they would
 * part ways, one rebuilding what the other resets). */
static void test_refused_desc_is_not_a_finding(void **state)
{
    (void)state;
    static struct wk_prog p;
    assert_true(load(SEEDS, "eviction-residency.fill-evict-digest.bin", &p));
    struct wk_fuzz_knobs k = knobs_of(&p);
    static struct wk_vidmm *vm[WK_FUZZ_ROLES][WK_FUZZ_KEPT];
    for (int r = 0; r < WK_FUZZ_ROLES; r++)
        for (int i = 1; i < WK_FUZZ_KEPT; i++) {
            struct wk_fuzz_knobs o = nth_knobs(i);
            vm[r][i] = wk_fuzz_ready(r, &o);
        }
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &k, NULL, NULL), 1); /* every entry in use */
    uint64_t findings = wk_fuzz_findings();
    uint64_t builds[WK_FUZZ_ROLES] = { wk_fuzz_builds(WK_FUZZ_DUT), wk_fuzz_builds(WK_FUZZ_REF) };
    for (int r = 0; r < WK_FUZZ_ROLES; r++)
        vm[r][0] = wk_fuzz_adapter(r, &k);
    p.segments[1].base = p.segments[0].base;
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &k, NULL, NULL), 0);
    p.segments[1].base = 0x400000;
    p.gpu.sysmem_pages = 0;
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &k, NULL, NULL), 0);
    p.gpu.sysmem_pages = 256;
    p.gpu.segment_count = 0; /* the reference driver fails DxgkDdiStartDevice */
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &k, NULL, NULL), 0);
    p.gpu.segment_count = 3;
    assert_int_equal(wk_fuzz_findings(), findings);
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &k, NULL, NULL), 1);
    int rebuilt[WK_FUZZ_ROLES] = { -1, -1 };
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        assert_ptr_equal(wk_fuzz_ready(r, &k), vm[r][0]);
        for (int i = 1; i < WK_FUZZ_KEPT; i++) {
            struct wk_fuzz_knobs o = nth_knobs(i);
            uint64_t before = wk_fuzz_builds(r);
            struct wk_vidmm *got = wk_fuzz_ready(r, &o);
            if (wk_fuzz_builds(r) == before) {
                assert_ptr_equal(got, vm[r][i]);
                continue;
            }
            assert_int_equal(rebuilt[r], -1); /* one adapter at most */
            rebuilt[r] = i;
        }
        assert_int_equal(wk_fuzz_builds(r), builds[r] + 1);
    }
    assert_int_not_equal(rebuilt[WK_FUZZ_DUT], -1);
    assert_int_equal(rebuilt[WK_FUZZ_DUT], rebuilt[WK_FUZZ_REF]); /* the same one */
    assert_int_equal(wk_fuzz_findings(), findings);
    wk_prog_free(&p);
}

/* A driver under test that does not start on a description the reference
 * starts on is a finding (here: a WK_DRIVER module that does not load); on
 * the next input, both roles start over. */
static void test_dut_refusing_a_desc_is_a_finding(void **state)
{
    (void)state;
    static struct wk_prog p;
    assert_true(load(SEEDS, "eviction-residency.fill-evict-digest.bin", &p));
    struct wk_fuzz_knobs k = knobs_of(&p);
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    setenv("WK_DRIVER", "/nonexistent/wk-no-such-driver.so", 1);
    uint64_t findings = wk_fuzz_findings();
    p.segments[0].size = 48u << 10; /* a description no earlier test kept an adapter for */
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &k, NULL, NULL), 0);
    assert_int_equal(wk_fuzz_findings(), findings + 1);
    unsetenv("WK_DRIVER");
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &k, NULL, NULL), 1);
    assert_int_equal(wk_fuzz_findings(), findings + 1);
    unsetenv("WK_FUZZ_NO_ABORT");
    wk_prog_free(&p);
}

/* The skip hook of wk_fuzz_differential, used to change one byte of the
 * DUT's allocation 0 before step `at` and put it back before the next: only
 * the expect_digest at `at` can see it. */
struct tamper {
    struct wk_fuzz_knobs k;
    uint32_t at;
    uint8_t saved;
};

/* The program's 16 KiB allocation: the last made of that size (the driver
 * makes allocations of its own for devices and contexts). */
static uint32_t program_allocation(struct wk_vidmm *vm)
{
    struct wk_vidmm_allocation_state st;
    uint32_t found = UINT32_MAX;
    for (uint32_t h = 0; h < (1u << 16); h++)
        if (wk_vidmm_allocation_state(vm, h, &st) == WK_OK && st.size == 16 * 1024)
            found = h;
    assert_true(found != UINT32_MAX);
    return found;
}

static int tamper_hook(void *user, const struct wk_prog *p, uint32_t step)
{
    (void)p;
    struct tamper *t = user;
    if (step != t->at && step != t->at + 1)
        return 0;
    struct wk_vidmm *vm = wk_fuzz_adapter(WK_FUZZ_DUT, &t->k); /* the one running, as it is */
    uint32_t h = program_allocation(vm);
    uint8_t b = t->saved;
    if (step == t->at) {
        assert_int_equal(wk_vidmm_read(vm, h, 100, &t->saved, 1), WK_OK);
        b = (uint8_t)~t->saved;
    }
    assert_int_equal(wk_vidmm_write(vm, h, 100, &b, 1), WK_OK);
    return 0;
}

/* An expect_digest step agrees without digests when the bytes agree
 * (eviction-residency.fill-evict-digest: fill, digest, evict, digest, page
 * in, digest), whether the expected digest is right or wrong; a byte that
 * differs on the DUT at a digest step only is still a finding. */
static void test_digest_steps_still_compare(void **state)
{
    (void)state;
    static struct wk_prog p;
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    assert_true(load(SEEDS, "eviction-residency.fill-evict-digest.bin", &p));
    assert_int_equal(p.steps[3].kind, WK_STEP_EXPECT_DIGEST);
    assert_int_equal(p.steps[5].kind, WK_STEP_EXPECT_DIGEST);
    struct tamper t = { knobs_of(&p), UINT32_MAX, 0 };
    uint64_t findings = wk_fuzz_findings();
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &t.k, NULL, NULL), 1);
    p.steps[3].value ^= 1; /* wrong on both sides: they still agree */
    assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &t.k, NULL, NULL), 1);
    assert_int_equal(wk_fuzz_findings(), findings);
    p.steps[3].value ^= 1;
    for (uint32_t at = 3; at <= 5; at += 2) {
        t.at = at;
        assert_int_equal(wk_fuzz_differential("test_fuzz_driver", &p, &t.k, tamper_hook, &t), 0);
        assert_int_equal(wk_fuzz_findings(), ++findings);
    }
    wk_prog_free(&p);
    unsetenv("WK_FUZZ_NO_ABORT");
}

/* Equal pages in a row, an odd page between equal ones (page k equal to
 * k-2, not k-1), a page equal to its predecessor except the last byte,
 * then distinct pages. */
static void test_digest_of_repeated_pages(void **state)
{
    (void)state;
    struct wk_vidmm *vm = wk_fuzz_ready(WK_FUZZ_REF, NULL);
    uint32_t dev = 0, h = new_allocation(vm, &dev, 16, 0);
    assert_int_equal(wk_vidmm_fill(vm, h, 0xA5C3E1F0u), WK_OK);
    static uint8_t bytes[16 * WK_GPU_PAGE_SIZE];
    const uint64_t odd[] = { 5 * WK_GPU_PAGE_SIZE + 17, 9 * WK_GPU_PAGE_SIZE - 1, 16 * WK_GPU_PAGE_SIZE - 1 };
    for (int i = 0; i <= 3; i++) {
        uint64_t d = 0;
        assert_int_equal(wk_vidmm_read(vm, h, 0, bytes, sizeof(bytes)), WK_OK);
        assert_int_equal(wk_vidmm_digest(vm, h, &d), WK_OK);
        assert_int_equal(d, wk_gpu_digest_bytes(bytes, sizeof(bytes)));
        if (i < 3) {
            uint8_t b = 0x5A;
            assert_int_equal(wk_vidmm_write(vm, h, odd[i], &b, 1), WK_OK);
        }
    }
    /* Distinct pages, then one of them repeated further on. */
    uint64_t x = 0x243F6A8885A308D3ull;
    for (uint32_t i = 0; i < 11 * WK_GPU_PAGE_SIZE; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        bytes[i] = (uint8_t)x;
    }
    assert_int_equal(wk_vidmm_write(vm, h, 0, bytes, 11 * WK_GPU_PAGE_SIZE), WK_OK);
    for (uint32_t pages = 1; pages <= 11; pages += 5) {
        uint64_t d = 0;
        assert_int_equal(wk_vidmm_write(vm, h, pages * WK_GPU_PAGE_SIZE, bytes, WK_GPU_PAGE_SIZE), WK_OK);
        assert_int_equal(wk_vidmm_read(vm, h, 0, bytes, sizeof(bytes)), WK_OK);
        assert_int_equal(wk_vidmm_digest(vm, h, &d), WK_OK);
        assert_int_equal(d, wk_gpu_digest_bytes(bytes, sizeof(bytes)));
    }
    assert_int_equal(wk_vidmm_destroy_device(vm, dev), WK_OK);
    assert_int_equal(wk_fuzz_violation_count(vm), 0);
}

/* The render/patch fixture is kept while nothing moved (placement epoch
 * unchanged, or its allocations back where they were), and rebuilt on a
 * reset adapter when one of them moved. */
static void test_fixture_kept_until_an_allocation_moves(void **state)
{
    (void)state;
    struct wk_fuzz_fixture *f = wk_fuzz_fixture("test");
    assert_non_null(f);
    uint64_t built = f->epoch;
    uint64_t word = 0xA5A5A5A5A5A5A5A5ull;
    assert_int_equal(wk_vidmm_write(f->vm, f->alloc[1], 0, &word, sizeof(word)), WK_OK);
    f = wk_fuzz_fixture("test");
    assert_int_equal(f->epoch, built); /* nothing moved: kept */
    assert_int_equal(wk_vidmm_evict(f->vm, f->alloc[2]), WK_OK);
    assert_int_equal(wk_vidmm_page_in(f->vm, f->alloc[2]), WK_OK);
    struct wk_vidmm_allocation_state st;
    assert_int_equal(wk_vidmm_allocation_state(f->vm, f->alloc[2], &st), WK_OK);
    int same_place = st.resident && st.gpu_address == f->where[2];
    f = wk_fuzz_fixture("test");
    if (same_place)
        assert_int_equal(f->epoch, built); /* moved and back: still intact */
    else
        assert_int_not_equal(f->epoch, built);
    built = f->epoch;
    assert_int_equal(wk_vidmm_evict(f->vm, f->alloc[3]), WK_OK);
    f = wk_fuzz_fixture("test");
    assert_int_not_equal(f->epoch, built); /* evicted: rebuilt */
    for (uint32_t s = 1; s <= WK_RENDER_SLOTS; s++) {
        assert_int_equal(wk_vidmm_allocation_state(f->vm, f->alloc[s], &st), WK_OK);
        assert_true(st.resident && st.gpu_address == f->where[s]);
    }
}

/* Every page of the fixture's slot allocations is backed when the fixture
 * is built: whether a page was touched must not depend on the inputs before
 * (the GPU model takes other paths for an untouched page, and AFL++ saw the
 * same input cover other edges). A byte written into each page then backs
 * nothing new. */
static void test_fixture_backs_every_slot_page(void **state)
{
    (void)state;
    struct wk_fuzz_fixture *f = wk_fuzz_fixture("test");
    assert_non_null(f);
    struct wk_gpu *gpu = wk_vidmm_gpu(f->vm);
    uint64_t before = wk_gpu_resident_pages(gpu), pages = 0;
    static const uint8_t zero;
    for (uint32_t s = 1; s <= WK_RENDER_SLOTS; s++) {
        for (uint32_t at = 0; at < wk_render_slots[s].size; at += 4096, pages++)
            assert_int_equal(wk_vidmm_write(f->vm, f->alloc[s], at, &zero, 1), WK_OK);
    }
    assert_true(pages > WK_RENDER_SLOTS); /* some slots span several pages */
    assert_int_equal(wk_gpu_resident_pages(gpu), before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_adapters_replay_like_fresh_ones),
        cmocka_unit_test(test_reconfigure_between_seeds_replays_like_fresh),
        cmocka_unit_test(test_alternating_versions_reuse_adapters),
        cmocka_unit_test(test_alternating_knobs_keep_their_adapters),
        cmocka_unit_test(test_paging_variants_share_a_build),
        cmocka_unit_test(test_finding_rebuilds_every_kept_adapter),
        cmocka_unit_test(test_digest_steps_still_compare),
        cmocka_unit_test(test_digest_of_repeated_pages),
        cmocka_unit_test(test_fixture_kept_until_an_allocation_moves),
        cmocka_unit_test(test_fixture_backs_every_slot_page),
        cmocka_unit_test(test_custom_desc_gets_its_own_adapter),
        cmocka_unit_test(test_kept_desc_compares_by_value),
        cmocka_unit_test(test_custom_desc_replays_like_fresh),
        cmocka_unit_test(test_seed_reaches_a_reconfigured_adapter),
        cmocka_unit_test(test_refused_desc_is_not_a_finding),
        cmocka_unit_test(test_dut_refusing_a_desc_is_a_finding),
        /* Last: it leaves the module loaded. Closed for good and the
         * process going on, LeakSanitizer's exit scan crashed on the
         * module's thread-local block (km.h's __thread IRQL). */
        cmocka_unit_test(test_loaded_driver_gets_one_live_adapter),
    };
    return cmocka_run_group_tests_name("fuzz.driver", tests, NULL, NULL);
}
