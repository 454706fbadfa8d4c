/* SPDX-License-Identifier: MIT */
/*
 * patch_input.c - a fuzz_patch input as a step program, and back.
 *
 * Why: fuzz_patch finds Patch bugs (a PatchOffset or AllocationIndex
 * trusted, facts 5.3 T2/T3) with inputs that are not programs, so neither
 * `wddmkit minimize` nor `promote` could turn its findings into a YAML
 * regression. Its whole input has a program form since the `patch` step
 * exists: the harness's fixture (a device, a context, the seven allocations
 * of wk_render_slots, each paged in) as create and page_in steps, then one
 * patch step with the input's lists, ranges and DMA content, folded exactly
 * as the harness folds them (wk_patch_fold, fuzz/inputs/seeds_lib.h).
 *
 * The inverse takes a program of that shape (what promote minimizes: the
 * patch step's entries and bytes, never the fixture) back to fuzz_patch's
 * bytes, so the regression input of corpus/fuzz_patch/regressions/ is the
 * minimized finding in the harness's own format, replayed by ctest.
 */
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "seeds_lib.h"

static void fill_patch(struct wk_prog_patch *g, const struct wk_patch_input *in)
{
    g->list_length = in->list_length;
    for (uint32_t i = 0; i < in->list_length; i++) {
        g->list[i].allocation = in->list[i].handle; /* slot = allocation index + 1 */
        g->list[i].write = in->list[i].write;
        g->list[i].segment_id = in->list[i].segment_id;
        g->list[i].address = in->list[i].physical_address;
    }
    g->patch_length = in->patch_length;
    for (uint32_t i = 0; i < in->patch_length; i++) {
        const struct wk_patch_entry *e = &in->patch[i];
        g->patch[i] = (struct wk_prog_patch_location){ e->allocation_index, e->slot_id, e->driver_id,
                                                       e->allocation_offset, e->patch_offset, e->split_offset, 0 };
    }
    g->start = in->start;
    g->end = in->end;
    g->patch_start = in->patch_start;
    g->patch_count = in->patch_count;
}

int wk_patch_input_to_prog(const uint8_t *data, size_t size, const DXGK_CONTEXTINFO *info,
                           const struct wk_vidmm_patch_slots *slots, struct wk_prog *p)
{
    static struct wk_patch_input in;
    struct wk_patch_slots at = slots ? (struct wk_patch_slots){ slots->align, slots->bytes } : WK_PATCH_SLOTS_KIT;
    wk_patch_parse(data, size, &in);
    wk_patch_fold(&in, info->DmaBufferSize, info->PatchLocationListSize, at);
    uint32_t dma = (uint32_t)(in.dma_length < WK_PROG_MAX_DMA ? in.dma_length : WK_PROG_MAX_DMA);
    wk_prog_init(p);
    snprintf(p->id, sizeof(p->id), "fuzz.patch-input");
    snprintf(p->area, sizeof(p->area), "fuzz");
    wk_fixture_steps(p, 0);
    struct wk_step *s = wk_prog_add_step(p, WK_STEP_PATCH);
    if (!(s->patch = wk_prog_patch_new(dma))) {
        p->step_count--;
        return -1;
    }
    fill_patch(s->patch, &in);
    if (dma)
        memcpy(s->patch->dma, in.dma, dma);
    wk_prog_patch_trim(s->patch);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Back to fuzz_patch's bytes                                           */
/* ------------------------------------------------------------------ */

struct out {
    uint8_t *b;
    size_t n, cap;
    int failed;
};

static void put(struct out *o, uint64_t v, unsigned bytes)
{
    if (o->failed)
        return;
    if (o->n + bytes > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1024;
        while (cap < o->n + bytes)
            cap *= 2;
        uint8_t *grown = realloc(o->b, cap);
        if (!grown) {
            o->failed = 1;
            return;
        }
        o->b = grown;
        o->cap = cap;
    }
    for (unsigned i = 0; i < bytes; i++)
        o->b[o->n++] = (uint8_t)(v >> (8 * i));
}

/* Why the payload has no fuzz_patch form, or NULL. */
static const char *unrepresentable(const struct wk_prog_patch *g)
{
    if (g->context != 0 || g->end > 0xFFFF || g->start > g->end || g->list_length > WK_PATCH_MAX_LIST ||
        g->patch_length > WK_PATCH_MAX_PATCH || g->patch_start > g->patch_length ||
        g->patch_count > g->patch_length - g->patch_start)
        return "its context or ranges are not fuzz_patch's (context 0, end <= 0xFFFF, start <= end)";
    for (uint32_t i = 0; i < g->list_length; i++)
        if (g->list[i].allocation > WK_RENDER_SLOTS || g->list[i].resident || g->list[i].segment_id > 31)
            return "a list entry names no fixture allocation, or takes its address from residency";
    for (uint32_t i = 0; i < g->patch_length; i++) {
        const struct wk_prog_patch_location *l = &g->patch[i];
        if (l->allocation_index > 0xFF || l->slot_id > 0x7F || l->split_offset > 0xFFFF || l->driver_id > 0xFFFF ||
            (l->patch_offset > 0xFFFF && l->patch_offset < 0xFFFF0000u))
            return "a patch location has a field wider than fuzz_patch's";
        if (l->reserved)
            return "a patch location sets the reserved bits above SlotId, which fuzz_patch inputs cannot";
    }
    return NULL;
}

static void put_patch(struct out *o, const struct wk_prog_patch *g)
{
    put(o, g->list_length, 1);
    put(o, g->patch_length, 1);
    put(o, g->end, 2);
    put(o, g->start, 2);
    put(o, g->patch_start, 1);
    put(o, g->patch_count, 1);
    for (uint32_t i = 0; i < g->list_length; i++) {
        put(o, g->list[i].allocation, 1);
        put(o, g->list[i].segment_id | (g->list[i].write ? 0x20u : 0u), 1);
        put(o, g->list[i].address, 8);
    }
    for (uint32_t i = 0; i < g->patch_length; i++) {
        const struct wk_prog_patch_location *l = &g->patch[i];
        int wrap = l->patch_offset > 0xFFFF;
        put(o, l->allocation_index, 1);
        put(o, (l->slot_id << 1) | (wrap ? WK_PATCH_WRAP : 0u), 1);
        put(o, wrap ? 0xFFFFFFFFu - l->patch_offset : l->patch_offset, 2);
        put(o, l->allocation_offset, 4);
        put(o, l->split_offset, 2);
        put(o, l->driver_id, 2);
    }
    for (uint32_t i = 0; i < g->dma_length; i++)
        put(o, g->dma[i], 1);
}

int wk_patch_input_from_prog(const struct wk_prog *p, uint8_t **data, size_t *size, char *why, size_t why_size)
{
    const struct wk_step *s = p->step_count ? &p->steps[p->step_count - 1] : NULL;
    const char *no = !s || s->kind != WK_STEP_PATCH || !s->patch ? "the program does not end with a patch step"
                   : p->step_count != WK_FIXTURE_STEPS + 1 ? "the program is not fuzz_patch's fixture and one patch step"
                   : unrepresentable(s->patch);
    *data = NULL;
    *size = 0;
    if (no) {
        snprintf(why, why_size, "%s", no);
        return -1;
    }
    struct out o = { NULL, 0, 0, 0 };
    put_patch(&o, s->patch);
    if (o.failed) {
        free(o.b);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    *data = o.b;
    *size = o.n;
    return 0;
}
