/* SPDX-License-Identifier: MIT */
/*
 * fixture.c - the objects fuzz_render and fuzz_patch keep on the driver
 * under test across inputs: a device, a context (and a GDI context when
 * the driver gives one) and the allocations of wk_render_slots, each paged
 * in and backed once (struct wk_fuzz_fixture, fuzz_driver.h).
 *
 * Why kept: creating them costs more than most inputs, which only submit
 * or patch against them. Why checked before every input: an input may
 * evict or move one, and every input must start from the same placement,
 * or the same input would take other paths after another. The check is
 * cheap when nothing moved (wk_vidmm_placement_epoch); the rebuild, like
 * every choice that depends on the inputs before, runs with the engine's
 * coverage paused (adapters.c, wk_fuzzdrv_history_begin). A violation
 * while building is a finding; a driver that refuses the fixture cannot be
 * fuzzed so, and the harness aborts.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
    if (!wk_fuzz_dut_targets_model()) {
        /* A driver for other hardware has segments of its own: the slots'
         * ids are the reference adapter's, so ask for any of its segments
         * and let it place the allocation (Patch reads the placement). */
        struct wk_vidmm_segment_info seg[32];
        uint32_t n = wk_vidmm_segments(vm, seg, 32), all = 0;
        for (uint32_t i = 0; i < n && i < 32; i++)
            all |= 1u << (seg[i].id - 1);
        q.PreferredSegment.Value = 0;
        q.SupportedSegmentSet = q.EvictionSegmentSet = all;
    }
    return fixture_step(harness, vm, wk_vidmm_create_allocation(vm, wk_fuzzdrv_state()->fixture.device, &q, h),
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
    if (!f->vm || f->epoch != wk_fuzz_epoch(WK_FUZZ_DUT) || wk_fuzzdrv_state()->slots[WK_FUZZ_DUT].stale)
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
    struct wk_fuzzdrv_state *rt = wk_fuzzdrv_state();
    rt->harness_seen = harness;
    if (!wk_fuzzdrv_fresh_mode() && fixture_intact(&rt->fixture)) {
        /* kept across inputs: an earlier input's error is not this one's
         * (a finding's report printed "Render rejected the command buffer"
         * for a Render that had succeeded) */
        wk_vidmm_clear_last_error(rt->fixture.vm);
        return &rt->fixture;
    }
    wk_fuzzdrv_history_begin();
    int built = fixture_build(&rt->fixture, harness);
    wk_fuzzdrv_history_end();
    if (built)
        return &rt->fixture;
    rt->fixture.vm = NULL;
    return NULL;
}
