/*
 * fuzz_paging.c - sequences of paging operations with their arguments,
 * through DxgkDdiBuildPagingBuffer's multipass loop on the driver under
 * test, compared with the same sequence on the reference driver.
 *
 * Why: BuildPagingBuffer must resume exactly where it stopped when the
 * paging buffer runs out (MultipassOffset), honour TransferOffset and
 * MdlOffset of chunked transfers, and produce the same memory as any other
 * correct driver. Small paging buffers and chunked transfers make every
 * operation multipass; the differential check catches a driver that
 * restarts, skips or duplicates work without breaking a per-call rule.
 *
 * Input format: seeds_lib.h, "fuzz_paging": knobs (paging-buffer size from
 * the smallest that holds a COPY upward, transfer chunk), up to four
 * allocations from templates (memory segment 1, banked segment 2,
 * aperture-only, no preference, ...), then operations (page_in, evict,
 * fill, relocate, discard, special_lock_transfer, touch_physical,
 * signal_fence, host write) naming an allocation. The input becomes a step
 * program (create_device, the allocations, one step per operation), so a
 * finding replays with the conformance interpreter too.
 *
 * Findings (wk_fuzz_differential, fuzz_driver.h): a violation on the DUT
 * (after any step or in the teardown at the end), a step whose status
 * differs from the reference's, different allocation bytes at the end. A
 * violation on the reference is a KIT INVARIANT.
 *
 * State: both adapters are reset (wk_vidmm_reset) before every input: the
 * allocations are the input's own. An input whose knobs differ from the
 * previous input's gets them through wk_vidmm_reconfigure (the adapter
 * then behaves as one built with them); only another segment-query
 * version builds a new adapter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_driver.h"
#include "seeds_lib.h"

#define HARNESS "fuzz_paging"

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

/* The program of the last input, emptied (cheaper than wk_prog_init's
 * clearing of all WK_PROG_MAX_STEPS steps every time). */
static struct wk_prog *empty_prog(void)
{
    static struct wk_prog p;
    static int ready;
    if (!ready) {
        wk_prog_init(&p);
        snprintf(p.id, sizeof(p.id), "fuzz_paging.input");
        ready = 1;
    }
    memset(p.steps, 0, p.step_count * sizeof(p.steps[0]));
    p.step_count = 0;
    return &p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct wk_paging_input in;
    wk_paging_parse(data, size, &in);
    struct wk_prog *p = empty_prog();
    p->steps[p->step_count++].kind = WK_STEP_CREATE_DEVICE;
    for (uint32_t i = 0; i < in.alloc_count; i++)
        add_allocation(p, &in.allocs[i]);
    for (uint32_t i = 0; i < in.op_count; i++)
        add_op(p, &in, &in.ops[i]);
    struct wk_fuzz_knobs k = { in.paging_buffer_size, in.transfer_chunk, 0, 0 };
    wk_fuzz_differential(HARNESS, p, &k, NULL, NULL);
    return 0;
}
