/* SPDX-License-Identifier: MIT */
/*
 * paging_input.c - a fuzz_paging input as the step program the harness
 * runs (create_device, the input's allocations, one step per operation),
 * with the input's paging knobs as the program's adapter settings.
 *
 * Why here: the harness runs exactly this program on both adapters, and
 * `wddmkit repro`, `minimize` and `promote` need the same program to turn
 * a fuzz_paging finding (BuildPagingBuffer restarting instead of resuming
 * at MultipassOffset, facts 5.1 P4/P5) into a YAML regression. One
 * definition serves both. The input format is fuzz/inputs/seeds_lib.h's.
 */
#include <stdio.h>
#include <string.h>

#include "conformance.h"
#include "seeds_lib.h"

static void add_allocation(struct wk_prog *p, const struct wk_paging_alloc *a)
{
    const struct wk_paging_template *t = &wk_paging_templates[a->template_index];
    struct wk_step *s = &p->steps[p->step_count++];
    s->kind = WK_STEP_CREATE_ALLOCATION;
    s->alloc.size = (uint64_t)a->pages * WK_GPU_PAGE_SIZE;
    s->alloc.preferred = t->preferred;
    s->alloc.supported_set = t->supported;
    s->alloc.eviction_set = t->eviction;
    s->alloc.hinted_bank = a->bank; /* Bank0, bottom-up */
    s->alloc.flags = a->flags;      /* bit 0: CpuVisible */
}

/* A byte offset inside an allocation of `pages` pages for an 8-byte access. */
static uint64_t inside(uint32_t arg, uint32_t pages)
{
    return ((uint64_t)arg * 8) % ((uint64_t)pages * WK_GPU_PAGE_SIZE - 8 + 1) & ~7ull;
}

static void add_op(struct wk_prog *p, const struct wk_paging_input *in, const struct wk_paging_op_in *o)
{
    static const enum wk_step_kind kinds[WK_PAGING_OP_COUNT] = {
        WK_STEP_PAGE_IN, WK_STEP_EVICT, WK_STEP_FILL, WK_STEP_RELOCATE, WK_STEP_DISCARD,
        WK_STEP_SPECIAL_LOCK_TRANSFER, WK_STEP_TOUCH_PHYSICAL, WK_STEP_SIGNAL_FENCE, WK_STEP_WRITE,
    };
    struct wk_step *s = &p->steps[p->step_count++];
    uint32_t pages = in->allocs[o->allocation].pages;
    s->kind = kinds[o->kind];
    s->allocation = o->allocation;
    switch (o->kind) {
    case WK_PAGING_OP_FILL: s->value = ((uint64_t)o->arg << 16 | (o->arg ^ 0x5A5Au)) & 0xFFFFFFFFu; break;
    case WK_PAGING_OP_RELOCATE: s->segment = 1 + o->arg % 3; break;
    case WK_PAGING_OP_TOUCH:
        s->relative = 1;
        s->write = (int)(o->arg & 1);
        s->offset = inside(o->arg >> 1, pages);
        break;
    case WK_PAGING_OP_FENCE:
        s->relative = 1;
        s->offset = inside(o->arg, pages);
        s->value = (uint64_t)o->arg * 0x100000001ull + 1;
        break;
    case WK_PAGING_OP_WRITE:
        s->offset = inside(o->arg, pages);
        s->length = 8;
        for (uint32_t b = 0; b < 8; b++)
            s->data[b] = (uint8_t)(o->arg >> (b % 2 * 8)) ^ (uint8_t)(0x11 * b);
        break;
    default: break;
    }
}

void wk_paging_input_steps(const struct wk_paging_input *in, struct wk_prog *p)
{
    p->steps[p->step_count++].kind = WK_STEP_CREATE_DEVICE;
    for (uint32_t i = 0; i < in->alloc_count; i++)
        add_allocation(p, &in->allocs[i]);
    for (uint32_t i = 0; i < in->op_count; i++)
        add_op(p, in, &in->ops[i]);
}

void wk_paging_input_to_prog(const uint8_t *data, size_t size, struct wk_prog *p)
{
    static struct wk_paging_input in;
    wk_paging_parse(data, size, &in);
    wk_prog_init(p);
    snprintf(p->id, sizeof(p->id), "fuzz_paging.input");
    p->vidmm.paging_buffer_size = in.paging_buffer_size;
    p->vidmm.transfer_chunk = in.transfer_chunk;
    wk_paging_input_steps(&in, p);
}
