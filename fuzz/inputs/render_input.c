/* SPDX-License-Identifier: MIT */
/*
 * render_input.c - a fuzz_render input as a step program, and back.
 *
 * Why: fuzz_render finds Render bugs (an AllocationIndex, a PatchOffset or
 * a list size trusted from user mode: the driver must validate all of
 * them, facts 5.3 T2/T3, RENDER-PATCH-*, MEM-GUARD-001) with inputs that
 * are not programs, so neither `wddmkit minimize` nor `promote` could turn
 * its findings into a YAML regression. The render step carries everything
 * the harness hands Render (the allocation list, the user patch-location
 * list with every field, a raw command buffer of up to 16 KiB, the
 * pre-patch flag), so each input is a program: fuzz/driver/fixture.c's fixture
 * with a context of the kind the harness renders on (a GDI context,
 * DXGK_CREATECONTEXTFLAGS GdiContext, when the input asks for one and the
 * driver makes them), then one render step, folded exactly as the harness
 * folds it (wk_render_fold, fuzz/inputs/seeds_lib.h).
 *
 * The inverse takes a program of that shape (what minimize produces: the
 * render step reduced, the fixture kept, the command buffer raw) back to fuzz_render's bytes, so
 * the regression input of corpus/fuzz_render/regressions/ is the minimized
 * finding in the harness's own format, replayed by ctest.
 */
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "seeds_lib.h"

#define GDI_CONTEXT 0x2u         /* DXGK_CREATECONTEXTFLAGS.GdiContext */

static void fill_list(struct wk_prog_render *r, const struct wk_render_input *in)
{
    r->list_length = in->list_length;
    for (uint32_t i = 0; i < in->list_length; i++) {
        r->list_alloc[i] = in->list[i] & 0x7u; /* slot = allocation index + 1; slot 0: a NULL entry */
        r->list_write[i] = (in->list[i] & WK_RENDER_WRITE) != 0;
    }
}

/* Each entry as the driver reads it from the bytes the harness copies:
 * SlotId and the reserved byte above it split, the other fields whole. */
static void fill_patches(struct wk_prog_render *r, const struct wk_render_input *in)
{
    r->patch_length = in->patch_length;
    for (uint32_t i = 0; i < in->patch_length; i++) {
        uint32_t f[6];
        wk_render_patch_entry(in, i, f);
        r->patch[i] = (struct wk_prog_patch_location){ .allocation_index = f[0], .slot_id = f[1] & 0xFFFFFFu,
                                                       .reserved = f[1] >> 24, .driver_id = f[2],
                                                       .allocation_offset = f[3], .patch_offset = f[4],
                                                       .split_offset = f[5] };
    }
}

int wk_render_input_to_prog(const uint8_t *data, size_t size, const struct wk_render_target *t, struct wk_prog *p)
{
    struct wk_render_input in;
    wk_render_parse(data, size, &in);
    int gdi = (in.flags & WK_RENDER_GDI) && t->gdi; /* else the harness uses the plain context */
    const DXGK_CONTEXTINFO *info = gdi ? &t->gdi_info : &t->info;
    wk_render_fold(&in, info->AllocationListSize, info->PatchLocationListSize);
    wk_prog_init(p);
    snprintf(p->id, sizeof(p->id), "fuzz.render-input");
    snprintf(p->area, sizeof(p->area), "fuzz");
    p->requires = WK_REQ_RENDER;
    wk_fixture_steps(p, gdi ? GDI_CONTEXT : 0);
    struct wk_step *s = wk_prog_add_step(p, WK_STEP_RENDER);
    struct wk_prog_render *r = s->render = calloc(1, sizeof(*s->render));
    if (!r) {
        p->step_count--;
        return -1;
    }
    fill_list(r, &in);
    fill_patches(r, &in);
    r->no_prepatch_info = (in.flags & WK_RENDER_NO_PREPATCH) != 0;
    r->raw = 1;
    r->harness_input = 1; /* under an encoder: records and opaque bytes, as fuzz_render reads them */
    r->raw_length = (uint32_t)in.command_length; /* <= WK_RENDER_MAX_COMMAND == WK_PROG_MAX_COMMAND */
    if (in.command_length)
        memcpy(r->raw_bytes, in.command, in.command_length);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Back to fuzz_render's bytes                                          */
/* ------------------------------------------------------------------ */

/* Why the render step has no fuzz_render form, or NULL. */
static const char *unrepresentable(const struct wk_prog_render *r, uint32_t context_flags)
{
    if (r->context != 0 || (context_flags & ~GDI_CONTEXT) != 0)
        return "it renders on another context than the fixture's (plain or GDI)";
    if (r->list_length > WK_RENDER_MAX_LIST || r->patch_length > WK_RENDER_MAX_PATCH)
        return "its allocation list or user patch list is longer than fuzz_render's (32, 32)";
    for (uint32_t i = 0; i < r->list_length; i++)
        if (r->list_alloc[i] > WK_RENDER_SLOTS)
            return "a list entry names no fixture allocation";
    for (uint32_t i = 0; i < r->patch_length; i++)
        if (r->patch[i].slot_id > 0xFFFFFFu || r->patch[i].reserved > 0xFFu)
            return "a user patch location has a SlotId or reserved byte wider than D3DDDI_PATCHLOCATIONLIST's";
    if (!r->raw || r->raw_length > WK_RENDER_MAX_COMMAND)
        return "its command buffer is records, or longer than fuzz_render's 16 KiB, not raw bytes";
    return NULL;
}

/* Little-endian fields into a buffer sized beforehand (render_size). */
static uint8_t *put(uint8_t *at, uint32_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        *at++ = (uint8_t)(v >> (8 * i));
    return at;
}

static size_t render_size(const struct wk_prog_render *r)
{
    return WK_RENDER_HEADER + r->list_length + (size_t)r->patch_length * WK_RENDER_PATCH_ENTRY + r->raw_length;
}

static uint8_t *put_location(uint8_t *at, const struct wk_prog_patch_location *l)
{
    at = put(at, l->allocation_index, 4);
    at = put(at, l->slot_id | l->reserved << 24, 4);
    at = put(at, l->driver_id, 4);
    at = put(at, l->allocation_offset, 4);
    at = put(at, l->patch_offset, 4);
    return put(at, l->split_offset, 4);
}

static void put_render(uint8_t *at, const struct wk_prog_render *r, uint32_t context_flags)
{
    uint32_t flags = (r->no_prepatch_info ? WK_RENDER_NO_PREPATCH : 0u) |
                     (context_flags & GDI_CONTEXT ? WK_RENDER_GDI : 0u);
    at = put(at, flags, 1);
    at = put(at, r->list_length, 1);
    at = put(at, r->patch_length, 1);
    at = put(at, 0, 1);
    for (uint32_t i = 0; i < r->list_length; i++)
        at = put(at, r->list_alloc[i] | (r->list_write[i] ? WK_RENDER_WRITE : 0u), 1);
    for (uint32_t i = 0; i < r->patch_length; i++)
        at = put_location(at, &r->patch[i]);
    if (r->raw_length)
        memcpy(at, r->raw_bytes, r->raw_length);
}

int wk_render_input_from_prog(const struct wk_prog *p, uint8_t **data, size_t *size, char *why, size_t why_size)
{
    const struct wk_step *s = p->step_count ? &p->steps[p->step_count - 1] : NULL;
    uint32_t context_flags = 0;
    const char *no = !s || s->kind != WK_STEP_RENDER || !s->render ? "the program does not end with a render step"
                   : p->step_count != WK_FIXTURE_STEPS + 1 || !wk_fixture_shape(p, &context_flags)
                       ? "the program is not fuzz_render's fixture and one render step"
                       : unrepresentable(s->render, context_flags);
    *data = NULL;
    *size = 0;
    if (no) {
        snprintf(why, why_size, "%s", no);
        return -1;
    }
    *size = render_size(s->render);
    if (!(*data = malloc(*size))) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    put_render(*data, s->render, context_flags);
    return 0;
}
