/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_kitgaps.c - four gaps in the reference video memory
 * manager that the differential fuzz harnesses found, each pinned by a test
 * that failed before its fix (the history is in git log):
 *
 *   - a render whose allocation list does not fit in memory at once: paging
 *     in a later entry evicted an earlier one, the DMA buffer ran with a
 *     list entry that had no address, faulted, and the kit blamed the
 *     driver (SUBMIT-GPU-001). Now the list is the working set: its members
 *     are never evicted for each other, and when they do not fit the render
 *     fails with WK_E_NO_SPACE before anything is submitted (Windows' VidMm
 *     fails to build the working set), nothing held against the driver;
 *   - a page-in to an aperture that fails for want of system pages left the
 *     allocation marked resident with no pages and no GART mapping. Now the
 *     placement is undone and WK_E_NO_SPACE returned;
 *   - wk_vidmm_reset did not rewind the system-page scatter, so an input
 *     got other PFNs after a reset than on a fresh adapter. Now the same
 *     program gives the same statuses, placements, PFNs and digests on both,
 *     also after wk_vidmm_reconfigure changed the paging knobs.
 *
 * A fourth, found by LeakSanitizer in a fuzz_prog run: a context the driver
 * created but the kit could not set up (no system memory for its DMA
 * buffer) was never handed back through DxgkDdiDestroyContext.
 *
 * A fifth, found by LeakSanitizer once the fuzz harnesses built adapters
 * an input describes: an adapter whose DxgkDdiStartDevice failed (the
 * reference driver refuses one with no segment) was torn down without
 * DxgkDdiRemoveDevice, so the driver's AddDevice context leaked.
 *
 * And one speed-up the harnesses stand on: wk_vidmm_digest, computed page by
 * page with zero pages known in advance, equals the documented digest.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "wddmkit/gpu.h"
#include "reference.h"

#include "vidmm_test_util.h"

#define KIB 1024u

static uint32_t aperture_only(struct wk_vidmm *vm, uint32_t device, uint64_t size)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, size, VT_SET(VT_APER), 0, 0);
    return vt_alloc(vm, device, &req);
}

static uint32_t in_segment(struct wk_vidmm *vm, uint32_t device, uint64_t size, uint32_t segment)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, size, VT_SET(segment), VT_PREF(0, segment, 0), 0);
    return vt_alloc(vm, device, &req);
}

static bool resident(struct wk_vidmm *vm, uint32_t allocation)
{
    struct wk_vidmm_allocation_state st;
    return wk_vidmm_allocation_state(vm, allocation, &st) == WK_OK && st.resident;
}

/* A render that writes a pattern into the first 256 bytes of each entry. */
static wk_status render_each(struct wk_vidmm *vm, uint32_t context, const uint32_t *allocations,
                             uint32_t count, struct wk_vidmm_render_result *res)
{
    struct vt_cmd cmd;
    struct wk_vidmm_list_entry list[8];
    vt_cmd_init(&cmd);
    for (uint32_t i = 0; i < count; i++) {
        list[i].allocation = allocations[i];
        list[i].write = 1;
        vt_cmd_fill(&cmd, i, 0, 256, 0xC0DE0000u + i);
    }
    return vt_render(vm, context, &cmd, list, count, 0, res);
}

/* DMA buffers of renders that reached SubmitCommand (paging buffers are
 * submitted too, and counted apart). */
static uint64_t render_submits(struct wk_vidmm *vm)
{
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(vm, &st);
    return st.ddi_calls[WK_DDI_SUBMIT_COMMAND] - st.paging_buffers;
}

/* ------------------------------------------------------------------ */
/* The working set of a render                                          */
/* ------------------------------------------------------------------ */

/* Three 128 KiB aperture-only allocations in a 256 KiB aperture: the list
 * cannot be resident at once. */
static void test_render_list_larger_than_memory_fails_unsubmitted(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_CONTEXT));
    uint32_t a[3];
    for (int i = 0; i < 3; i++)
        a[i] = aperture_only(f->vm, f->device, 128 * KIB);
    uint64_t before = render_submits(f->vm);
    struct wk_vidmm_render_result res;
    assert_true(expect_status(f->vm, render_each(f->vm, f->context, a, 3, &res), WK_E_NO_SPACE));
    assert_true(expect_no_violations(f->vm));
    assert_true(expect_u64(render_submits(f->vm), before)); /* the DMA buffer never reached the GPU */
    assert_non_null(strstr(wk_vidmm_last_error(f->vm), "does not fit in memory at once"));
    /* Two of them fit: the same render on them runs. */
    VT_OK(f->vm, render_each(f->vm, f->context, a, 2, &res));
    assert_true(expect_no_violations(f->vm));
    uint8_t want[256];
    vt_model_fill(want, sizeof(want), 0xC0DE0001u);
    assert_true(expect_bytes(f->vm, a[1], 0, want, sizeof(want)));
}

/* A member of the list is the oldest allocation of the segment; making room
 * for another member evicts an outsider instead, and the render runs. */
static void test_render_list_evicts_outsiders_not_members(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_CONTEXT));
    uint32_t member = in_segment(f->vm, f->device, 384 * KIB, VT_SEG1);
    uint32_t outsider = in_segment(f->vm, f->device, 384 * KIB, VT_SEG1);
    uint32_t other = in_segment(f->vm, f->device, 384 * KIB, VT_SEG1);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, member));   /* the oldest */
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, outsider)); /* no room left for a third */
    assert_true(resident(f->vm, member));
    uint32_t list[2] = { member, other };
    struct wk_vidmm_render_result res;
    VT_OK(f->vm, render_each(f->vm, f->context, list, 2, &res));
    assert_true(expect_no_violations(f->vm));
    assert_true(resident(f->vm, member));
    assert_true(resident(f->vm, other));
    assert_false(resident(f->vm, outsider));
    uint8_t want[256];
    vt_model_fill(want, sizeof(want), 0xC0DE0000u);
    assert_true(expect_bytes(f->vm, member, 0, want, sizeof(want)));
}

/* ------------------------------------------------------------------ */
/* Aperture page-in without system memory                               */
/* ------------------------------------------------------------------ */

/* Evicts 64 KiB memory-segment allocations to system memory until it has
 * no room for another; returns one of them (still evicted). */
static uint32_t fill_system_memory(struct vt_fixture *f)
{
    uint32_t last_evicted = 0;
    for (int i = 0; i < 32; i++) {
        uint32_t h = in_segment(f->vm, f->device, 64 * KIB, i < 16 ? VT_SEG1 : VT_SEG2);
        VT_OK(f->vm, wk_vidmm_page_in(f->vm, h));
        wk_status st = wk_vidmm_evict(f->vm, h);
        if (st == WK_E_NO_SPACE)
            return last_evicted;
        VT_OK(f->vm, st);
        last_evicted = h;
    }
    fail_msg("system memory (%u pages) did not run out", VT_SYS_PAGES);
    return 0;
}

static void test_aperture_page_in_without_system_pages_rolls_back(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_CONTEXT));
    uint32_t evicted = fill_system_memory(f);
    uint32_t ap = aperture_only(f->vm, f->device, 64 * KIB);
    assert_true(expect_status(f->vm, wk_vidmm_page_in(f->vm, ap), WK_E_NO_SPACE));
    assert_true(expect_no_violations(f->vm));
    struct wk_vidmm_allocation_state st;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, ap, &st));
    assert_false(st.resident);
    assert_true(expect_u64(st.system_pages, 0));
    /* A render naming it fails the same way, before any submission. */
    uint64_t before = render_submits(f->vm);
    struct wk_vidmm_render_result res;
    assert_true(expect_status(f->vm, render_each(f->vm, f->context, &ap, 1, &res), WK_E_NO_SPACE));
    assert_true(expect_u64(render_submits(f->vm), before));
    assert_true(expect_no_violations(f->vm));
    /* Once system pages are free again it pages in, mapped page by page. */
    VT_OK(f->vm, wk_vidmm_destroy_allocation(f->vm, evicted));
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, ap));
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, ap, &st));
    assert_true(st.resident);
    assert_true(expect_u64(st.system_pages, 16));
    for (uint64_t p = 0; p < 16; p++) {
        int valid = 0, stale = 0;
        uint64_t pfn = 0;
        VT_OK(f->vm, wk_gpu_gart_get(wk_vidmm_gpu(f->vm), VT_APER, st.segment_offset / VT_PAGE + p, &valid,
                                     &pfn, &stale));
        assert_true(valid && !stale);
    }
    VT_OK(f->vm, render_each(f->vm, f->context, &ap, 1, &res));
    assert_true(expect_no_violations(f->vm));
}

/* ------------------------------------------------------------------ */
/* A reset adapter behaves like a fresh one                             */
/* ------------------------------------------------------------------ */

#define TRACE_ALLOCS 6u
#define TRACE_PAGES 32u

/* Everything an input can observe of the kit's choices. */
struct trace {
    wk_status status[128];
    uint32_t steps;
    struct wk_vidmm_allocation_state state[TRACE_ALLOCS];
    uint64_t pfn[TRACE_ALLOCS][TRACE_PAGES];  /* GART entries of aperture-resident ones */
    uint64_t digest[TRACE_ALLOCS];
    struct wk_vidmm_stats stats;              /* expect_stats reads these: the start's DDI calls included */
};

static void record(struct trace *t, wk_status st)
{
    if (t->steps < 128)
        t->status[t->steps++] = st;
}

static void snapshot(struct wk_vidmm *vm, const uint32_t *h, struct trace *t)
{
    wk_vidmm_get_stats(vm, &t->stats);
    for (uint32_t i = 0; i < TRACE_ALLOCS; i++) {
        struct wk_vidmm_allocation_state *s = &t->state[i];
        record(t, wk_vidmm_allocation_state(vm, h[i], s));
        record(t, wk_vidmm_digest(vm, h[i], &t->digest[i]));
        for (uint64_t p = 0; s->resident && s->segment_id == VT_APER && p < s->size / VT_PAGE && p < TRACE_PAGES;
             p++) {
            int valid = 0, stale = 0;
            wk_gpu_gart_get(wk_vidmm_gpu(vm), VT_APER, s->segment_offset / VT_PAGE + p, &valid,
                            &t->pfn[i][p], &stale);
        }
    }
}

/* Scattered system pages (evictions, aperture page-ins), a render, fills. */
static void program(struct wk_vidmm *vm, struct trace *t)
{
    memset(t, 0, sizeof(*t));
    uint32_t device = 0, context = 0, h[TRACE_ALLOCS];
    record(t, wk_vidmm_create_device(vm, 0, &device));
    record(t, wk_vidmm_create_context(vm, device, 0, &context));
    h[0] = in_segment(vm, device, 64 * KIB, VT_SEG1);
    h[1] = in_segment(vm, device, 32 * KIB, VT_SEG2);
    h[2] = aperture_only(vm, device, 48 * KIB);
    h[3] = aperture_only(vm, device, 16 * KIB);
    h[4] = in_segment(vm, device, 16 * KIB, VT_SEG1);
    h[5] = aperture_only(vm, device, 8 * KIB);
    for (uint32_t i = 0; i < TRACE_ALLOCS; i++)
        record(t, wk_vidmm_page_in(vm, h[i]));
    record(t, wk_vidmm_fill(vm, h[0], 0x01020304u));
    record(t, wk_vidmm_evict(vm, h[0]));
    record(t, wk_vidmm_evict(vm, h[2]));
    record(t, wk_vidmm_fill(vm, h[4], 0xA5A5F00Du));
    uint32_t list[3] = { h[3], h[1], h[0] };
    struct wk_vidmm_render_result res;
    record(t, render_each(vm, context, list, 3, &res));
    record(t, wk_vidmm_page_in(vm, h[2]));
    record(t, wk_vidmm_evict(vm, h[1]));
    snapshot(vm, h, t);
}

/* A random program of `seed`: allocations of random sizes and segments,
 * then paging, renders and host writes in random order. */
static void random_program(struct wk_vidmm *vm, uint64_t seed, struct trace *t)
{
    static const uint32_t sets[4] = { VT_SET(VT_SEG1), VT_SET(VT_SEG2), VT_SET(VT_APER), 0 };
    memset(t, 0, sizeof(*t));
    uint32_t device = 0, context = 0, h[TRACE_ALLOCS];
    record(t, wk_vidmm_create_device(vm, 0, &device));
    record(t, wk_vidmm_create_context(vm, device, 0, &context));
    for (uint32_t i = 0; i < TRACE_ALLOCS; i++) {
        WK_ALLOCATION_REQUEST req;
        vt_request_at(&req, (1 + vt_rand(&seed) % 48) * VT_PAGE, sets[vt_rand(&seed) % 4], 0, 0);
        h[i] = vt_alloc(vm, device, &req);
    }
    for (uint32_t step = 0; step < 80; step++) {
        uint32_t a = h[vt_rand(&seed) % TRACE_ALLOCS], op = (uint32_t)(vt_rand(&seed) % 7);
        uint64_t r = vt_rand(&seed);
        struct wk_vidmm_render_result res;
        uint32_t list[3] = { a, h[r % TRACE_ALLOCS], h[(r >> 8) % TRACE_ALLOCS] };
        switch (op) {
        case 0: record(t, wk_vidmm_page_in(vm, a)); break;
        case 1: record(t, wk_vidmm_evict(vm, a)); break;
        case 2: record(t, wk_vidmm_discard(vm, a)); break;
        case 3: record(t, wk_vidmm_fill(vm, a, (uint32_t)r)); break;
        case 4: record(t, wk_vidmm_relocate(vm, a, 1 + (uint32_t)(r % 2))); break;
        case 5: record(t, render_each(vm, context, list, 1 + (uint32_t)((r >> 16) % 3), &res)); break;
        default: record(t, wk_vidmm_write(vm, a, (r >> 8) % VT_PAGE, &r, sizeof(r))); break;
        }
    }
    snapshot(vm, h, t);
}

static bool same_trace(const struct trace *fresh, const struct trace *reset)
{
    bool same = true;
    for (uint32_t i = 0; i < fresh->steps || i < reset->steps; i++)
        if (fresh->status[i] != reset->status[i]) {
            fprintf(stderr, "step %u: %s on the fresh adapter, %s after reset\n", i,
                    wk_status_name(fresh->status[i]), wk_status_name(reset->status[i]));
            same = false;
        }
    for (uint32_t a = 0; a < TRACE_ALLOCS; a++) {
        const struct wk_vidmm_allocation_state *x = &fresh->state[a], *y = &reset->state[a];
        if (x->resident != y->resident || x->segment_id != y->segment_id ||
            x->segment_offset != y->segment_offset || x->system_pages != y->system_pages ||
            fresh->digest[a] != reset->digest[a]) {
            fprintf(stderr, "allocation %u: fresh resident=%d segment %u +0x%" PRIx64 " pages %" PRIu64
                            " digest %016" PRIx64 "; after reset resident=%d segment %u +0x%" PRIx64
                            " pages %" PRIu64 " digest %016" PRIx64 "\n",
                    a, x->resident, x->segment_id, x->segment_offset, x->system_pages, fresh->digest[a],
                    y->resident, y->segment_id, y->segment_offset, y->system_pages, reset->digest[a]);
            same = false;
        }
        for (uint32_t p = 0; p < TRACE_PAGES; p++)
            if (fresh->pfn[a][p] != reset->pfn[a][p]) {
                fprintf(stderr, "allocation %u page %u: PFN 0x%" PRIx64 " on the fresh adapter, 0x%" PRIx64
                                " after reset\n",
                        a, p, fresh->pfn[a][p], reset->pfn[a][p]);
                same = false;
                break;
            }
    }
    const uint64_t *x = (const uint64_t *)(const void *)&fresh->stats, *y = (const uint64_t *)(const void *)&reset->stats;
    for (size_t i = 0; i < sizeof(fresh->stats) / sizeof(uint64_t); i++)
        if (x[i] != y[i]) {
            fprintf(stderr, "counter %zu of struct wk_vidmm_stats: %" PRIu64 " on the fresh adapter, %" PRIu64
                            " after reset\n", i, x[i], y[i]);
            same = false;
        }
    return same;
}

static bool any_pfn(const struct trace *t)
{
    for (uint32_t a = 0; a < TRACE_ALLOCS; a++)
        if (t->pfn[a][0])
            return true;
    return false;
}

static void test_reset_adapter_replays_like_a_fresh_one(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.seed = vt_seed(0x5EED);
    static struct trace fresh, again, after_other;
    assert_true(vt_open(f, &cfg, NULL, 0));
    program(f->vm, &fresh);
    assert_true(expect_no_violations(f->vm));
    assert_true(any_pfn(&fresh)); /* the program does reach scattered pages */
    /* The same program after itself, then after a different history. */
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    program(f->vm, &again);
    assert_true(same_trace(&fresh, &again));
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    uint32_t device = 0, ap = 0;
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &device));
    ap = aperture_only(f->vm, device, 100 * KIB);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, ap));
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    program(f->vm, &after_other);
    assert_true(same_trace(&fresh, &after_other));
    assert_true(expect_no_violations(f->vm));
}

/* Random programs, each on a fresh adapter and on one reset after another
 * random program: every status, placement, PFN and digest the same. */
static void test_reset_adapter_replays_random_programs(void **state)
{
    struct vt_fixture *f = *state;
    uint64_t seed = vt_seed(0xFEED5EED);
    static struct trace fresh, reset;
    for (int round = 0; round < 6; round++) {
        uint64_t mine = vt_rand(&seed), other = vt_rand(&seed);
        struct wk_vidmm_config cfg;
        memset(&cfg, 0, sizeof(cfg));
        cfg.seed = mine;
        assert_true(vt_open(f, &cfg, NULL, 0));
        random_program(f->vm, mine, &fresh);
        vt_close(f);
        assert_true(vt_open(f, &cfg, NULL, 0));
        random_program(f->vm, other, &reset);
        VT_OK(f->vm, wk_vidmm_reset(f->vm));
        random_program(f->vm, mine, &reset);
        if (!same_trace(&fresh, &reset))
            fail_msg("round %d: program 0x%" PRIx64 " after program 0x%" PRIx64 " and a reset differs from a fresh run",
                     round, mine, other);
        assert_true(expect_no_violations(f->vm));
        vt_close(f);
    }
}

/* Other paging knobs on a reset adapter: as a fresh adapter built with
 * them (what fuzz harnesses do between inputs instead of building one). */
static void test_reconfigured_adapter_replays_like_a_fresh_one(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config small, plain;
    memset(&small, 0, sizeof(small));
    small.paging_buffer_size = 100;       /* every operation multipass, a canary tail */
    small.transfer_chunk = 2 * VT_PAGE;
    small.seed = 7;
    memset(&plain, 0, sizeof(plain));
    static struct trace fresh, reconfigured;
    assert_true(vt_open(f, &small, NULL, 0));
    program(f->vm, &fresh);
    assert_true(expect_no_violations(f->vm));
    vt_close(f);
    assert_true(vt_open(f, &plain, NULL, 0));
    program(f->vm, &reconfigured);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    VT_OK(f->vm, wk_vidmm_reconfigure(f->vm, &small));
    program(f->vm, &reconfigured);
    assert_true(same_trace(&fresh, &reconfigured));
    assert_true(expect_no_violations(f->vm));
    /* Only right after a reset, and only the knobs that need no new adapter. */
    assert_true(expect_status(f->vm, wk_vidmm_reconfigure(f->vm, &plain), WK_E_STATE));
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    struct wk_vidmm_config v4 = small;
    v4.query_segment_version = 4;
    assert_true(expect_status(f->vm, wk_vidmm_reconfigure(f->vm, &v4), WK_E_NOT_SUPPORTED));
    VT_OK(f->vm, wk_vidmm_reconfigure(f->vm, &plain));
}

/* ------------------------------------------------------------------ */
/* wk_vidmm_digest (computed page by page, zero pages known in advance)  */
/* ------------------------------------------------------------------ */

/* The digest agrees with wk_gpu_digest_bytes over the bytes read back,
 * wherever the allocation lives and whatever it holds. */
static bool digest_agrees(struct wk_vidmm *vm, uint32_t h, uint64_t size)
{
    static uint8_t bytes[128 * KIB];
    uint64_t got = 0;
    if (!expect_status(vm, wk_vidmm_digest(vm, h, &got), WK_OK) ||
        !expect_status(vm, wk_vidmm_read(vm, h, 0, bytes, size), WK_OK))
        return false;
    return expect_u64(got, wk_gpu_digest_bytes(bytes, size));
}

static void test_digest_matches_the_documented_digest(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
    uint64_t rng = vt_seed(0xD16E57);
    uint32_t mem = in_segment(f->vm, f->device, 128 * KIB, VT_SEG1);
    uint32_t ap = aperture_only(f->vm, f->device, 32 * KIB);
    uint32_t never = in_segment(f->vm, f->device, 8 * KIB, VT_SEG2);
    assert_true(digest_agrees(f->vm, never, 8 * KIB)); /* no storage yet: zeros */
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, mem));
    assert_true(digest_agrees(f->vm, mem, 128 * KIB)); /* zero-filled */
    uint8_t junk[3000];
    vt_random_bytes(&rng, junk, sizeof(junk));
    VT_OK(f->vm, wk_vidmm_write(f->vm, mem, 5 * VT_PAGE - 1000, junk, sizeof(junk))); /* across a page */
    VT_OK(f->vm, wk_vidmm_fill(f->vm, never, 0x01000000u)); /* mostly zero bytes, no zero page */
    assert_true(digest_agrees(f->vm, mem, 128 * KIB));
    assert_true(digest_agrees(f->vm, never, 8 * KIB));
    VT_OK(f->vm, wk_vidmm_evict(f->vm, mem)); /* scattered system pages */
    assert_true(digest_agrees(f->vm, mem, 128 * KIB));
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, ap));
    VT_OK(f->vm, wk_vidmm_write(f->vm, ap, 9, junk, 64));
    assert_true(digest_agrees(f->vm, ap, 32 * KIB));
    assert_true(expect_no_violations(f->vm));
}

/* CreateContext answers a DMA buffer size past the kit's limit: the kit
 * cannot set the context up, and hands it back to the driver. */
static void huge_dma_buffer(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    (void)status;
    if (ddi == WK_DDI_CREATE_CONTEXT)
        ((DXGKARG_CREATECONTEXT *)args)->ContextInfo.DmaBufferSize = 128u << 20;
}

/* A context the driver made but the kit could not set up is destroyed
 * through DxgkDdiDestroyContext (Windows does so; before, the driver's
 * context object leaked), nothing is held against the driver, and the
 * device goes on working. */
static void test_context_the_kit_cannot_set_up_is_destroyed(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
    struct wk_vidmm_stats started; /* the start's system context counted */
    wk_vidmm_get_stats(f->vm, &started);
    wk_vidmm_set_rewriter(f->vm, huge_dma_buffer, NULL);
    uint32_t context = 0;
    assert_true(expect_status(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &context), WK_E_LIMIT));
    assert_non_null(strstr(wk_vidmm_last_error(f->vm), "the driver's context was destroyed again"));
    struct wk_vidmm_stats stats;
    wk_vidmm_get_stats(f->vm, &stats);
    assert_true(expect_u64(stats.ddi_calls[WK_DDI_CREATE_CONTEXT] - started.ddi_calls[WK_DDI_CREATE_CONTEXT], 1));
    assert_true(expect_u64(stats.ddi_calls[WK_DDI_DESTROY_CONTEXT] - started.ddi_calls[WK_DDI_DESTROY_CONTEXT], 1));
    assert_true(expect_no_violations(f->vm));
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &context));
    VT_OK(f->vm, wk_vidmm_destroy_device(f->vm, f->device));
    assert_true(expect_no_violations(f->vm));
}

/* An adapter whose StartDevice fails is removed (not stopped): the driver
 * gets its AddDevice context back. */
static void test_adapter_that_did_not_start_is_removed(void **state)
{
    (void)state;
    struct wk_gpu_desc none = *wk_gpu_reference_desc();
    none.segment_count = 0; /* the reference driver's StartDevice refuses it */
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.gpu = &none;
    struct wk_vidmm *vm = NULL;
    VT_OK(vm, wk_vidmm_create(&cfg, &vm));
    VT_OK(vm, wk_vidmm_attach(vm, wk_refdriver_DriverEntry));
    assert_true(expect_status(vm, wk_vidmm_start(vm), WK_E_CONTRACT));
    assert_true(expect_violation(vm, "START-STATUS-001"));
    VT_OK(vm, wk_vidmm_stop(vm));
    struct wk_vidmm_stats stats;
    wk_vidmm_get_stats(vm, &stats);
    assert_true(expect_u64(stats.ddi_calls[WK_DDI_STOP_DEVICE], 0));
    assert_true(expect_u64(stats.ddi_calls[WK_DDI_REMOVE_DEVICE], 1));
    wk_vidmm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_render_list_larger_than_memory_fails_unsubmitted),
        VT_TEST(test_render_list_evicts_outsiders_not_members),
        VT_TEST(test_aperture_page_in_without_system_pages_rolls_back),
        VT_TEST(test_reset_adapter_replays_like_a_fresh_one),
        VT_TEST(test_reset_adapter_replays_random_programs),
        VT_TEST(test_reconfigured_adapter_replays_like_a_fresh_one),
        VT_TEST(test_digest_matches_the_documented_digest),
        VT_TEST(test_context_the_kit_cannot_set_up_is_destroyed),
        VT_TEST(test_adapter_that_did_not_start_is_removed),
    };
    return cmocka_run_group_tests_name("vidmm.kitgaps", tests, NULL, NULL);
}
