/* SPDX-License-Identifier: MIT */
/*
 * fixture_steps.c - the fixture of the render and patch harnesses
 * (fuzz/driver/fixture.c: a device, a context, the seven allocations of
 * wk_render_slots, each paged in) as the first steps of a program.
 *
 * Why shared: fuzz_patch and fuzz_render inputs both become programs
 * (patch_input.c, render_input.c) that must name the same allocations by
 * the same indices as the harness names them by slot (allocation index =
 * slot - 1), and their inverses recognise the fixture by its shape.
 */
#include <string.h>

#include "conformance.h"
#include "seeds_lib.h"

struct wk_step *wk_prog_add_step(struct wk_prog *p, enum wk_step_kind kind)
{
    struct wk_step *s = &p->steps[p->step_count++];
    memset(s, 0, sizeof(*s));
    s->kind = kind;
    return s;
}

/* Only aperture segments stay in the eviction set (the spec format's
 * rule; Render and Patch run on allocations already resident). */
void wk_fixture_steps(struct wk_prog *p, uint32_t context_flags)
{
    wk_prog_add_step(p, WK_STEP_CREATE_DEVICE);
    wk_prog_add_step(p, WK_STEP_CREATE_CONTEXT)->flags = context_flags;
    for (uint32_t slot = 1; slot <= WK_RENDER_SLOTS; slot++) {
        const struct wk_render_slot *w = &wk_render_slots[slot];
        struct wk_step *s = wk_prog_add_step(p, WK_STEP_CREATE_ALLOCATION);
        s->alloc.size = w->size;
        s->alloc.preferred = w->segment;
        s->alloc.supported_set = w->supported;
        s->alloc.eviction_set = w->supported & 0x4u; /* segment 3, the reference adapter's aperture */
        wk_prog_add_step(p, WK_STEP_PAGE_IN)->allocation = slot - 1;
    }
}

/* The allocation of slot `slot` as wk_fixture_steps creates it, unchanged
 * but for fields a minimizer may have cleared without effect. */
static int is_slot(const struct wk_step *s, uint32_t slot)
{
    const struct wk_render_slot *w = &wk_render_slots[slot];
    return s->kind == WK_STEP_CREATE_ALLOCATION && s->expect_status == WK_OK && s->alloc.size == w->size &&
           s->alloc.device == 0 && s->alloc.preferred == w->segment && s->alloc.supported_set == w->supported;
}

int wk_fixture_shape(const struct wk_prog *p, uint32_t *context_flags)
{
    if (p->step_count < WK_FIXTURE_STEPS || p->steps[0].kind != WK_STEP_CREATE_DEVICE ||
        p->steps[1].kind != WK_STEP_CREATE_CONTEXT || p->steps[1].device != 0)
        return 0;
    for (uint32_t slot = 1; slot <= WK_RENDER_SLOTS; slot++) {
        const struct wk_step *page_in = &p->steps[2 * slot + 1];
        if (!is_slot(&p->steps[2 * slot], slot) || page_in->kind != WK_STEP_PAGE_IN ||
            page_in->allocation != slot - 1)
            return 0;
    }
    *context_flags = p->steps[1].flags;
    return 1;
}
