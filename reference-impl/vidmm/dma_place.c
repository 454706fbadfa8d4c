/* SPDX-License-Identifier: MIT */
/*
 * dma_place.c - where a context's DMA buffer lives: in system memory, or
 * mapped into one of the apertures the driver named.
 *
 * DXGK_CONTEXTINFO.DmaBufferSegmentSet is the driver's choice (facts §4.1,
 * X1; G10): 0 asks for contiguous, page-locked, write-combined system
 * memory, and anything else names the aperture segments the driver wants
 * its DMA buffers in. A kit that always handed out system memory would test
 * a driver against a placement it never asked for, so with a set the kit
 * maps the buffer's system pages into the lowest-numbered aperture of the
 * set with room (the driver builds that MAP_APERTURE_SEGMENT, checked like
 * any other), and Render, Patch and SubmitCommand then get that segment's
 * id and the segment address BaseAddress + offset (T5: "otherwise it is the
 * segment address").
 *
 * Which aperture, and what happens when none has room, the documentation
 * does not say. The kit takes the lowest id with room, and with none it
 * fails the context as a limit of its own (WK_E_NO_SPACE, no rule): a
 * driver is never blamed for the size of the kit's apertures. Segment ids
 * the set names that are not apertures are CTX-SEGSET-001's business
 * (objects.c) and are ignored here.
 */
#include <stdlib.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

/* Above the room a case's allocations have (wk_vidmm_set_segment_budget)
 * while there is room there, else anywhere. */
static int reserve_in(struct wk_vidmm *vm, uint32_t seg, uint64_t bytes, uint64_t *offset)
{
    struct segment *s = segment_get(vm, seg);
    if (!s || !s->aperture || !s->heap)
        return 0;
    struct wk_place_request above = { bytes, PAGE, s->budget, 0, 0 }, r = { bytes, PAGE, 0, 0, 0 };
    return (s->budgeted && wk_place_alloc(s->heap, &above, offset) == WK_OK) || wk_place_alloc(s->heap, &r, offset) == WK_OK;
}

/* The MDL the driver's MAP_APERTURE_SEGMENT reads: the buffer's pages,
 * which are contiguous (gbuf_alloc_gpu). */
static wk_status describe_pages(struct wk_vidmm *vm, struct context *c)
{
    c->dma_pfns = calloc((size_t)c->dma.pages, sizeof(*c->dma_pfns));
    if (!c->dma_pfns)
        return fail(vm, WK_E_NO_MEMORY, "out of memory for the DMA buffer's MDL");
    for (uint64_t i = 0; i < c->dma.pages; i++)
        c->dma_pfns[i] = c->dma.first_pfn + i;
    mdl_init(vm, &c->dma_mdl, c->dma_pfns, c->dma.pages, c->dma.pages * PAGE);
    return WK_OK;
}

static void forget_pages(struct wk_vidmm *vm, struct context *c)
{
    if (!c->dma_pfns)
        return;
    mdl_release(vm, &c->dma_mdl);
    free(c->dma_pfns);
    c->dma_pfns = NULL;
}

wk_status dma_place(struct wk_vidmm *vm, struct context *c)
{
    c->dma_segment = 0;
    c->dma_offset = 0;
    c->dma_gpu_address = c->dma.first_pfn << WK_GPU_PAGE_SHIFT;
    uint32_t set = c->info.DmaBufferSegmentSet & aperture_mask(vm);
    if (set == 0)
        return WK_OK; /* contiguous system memory; the GPU reaches it directly */
    uint64_t bytes = c->dma.pages * PAGE, offset = 0;
    uint32_t seg = 0;
    for (uint32_t id = 1; id <= vm->nseg && !seg; id++)
        if ((set & (1u << (id - 1))) && reserve_in(vm, id, bytes, &offset))
            seg = id;
    if (!seg)
        return fail(vm, WK_E_NO_SPACE,
                    "no room for the %llu-byte DMA buffer in the apertures of DmaBufferSegmentSet 0x%x (a limit of the kit's segments)",
                    (unsigned long long)bytes, c->info.DmaBufferSegmentSet);
    wk_status st = describe_pages(vm, c);
    if (st == WK_OK)
        st = op_map_aperture(vm, seg, offset / PAGE, NULL, &c->dma_mdl, c->dma.pages);
    if (st != WK_OK) {
        wk_place_free(segment_get(vm, seg)->heap, offset);
        forget_pages(vm, c);
        return st;
    }
    c->dma_segment = seg;
    c->dma_offset = offset;
    c->dma_gpu_address = segment_get(vm, seg)->base + offset;
    return WK_OK;
}

wk_status dma_unplace(struct wk_vidmm *vm, struct context *c)
{
    wk_status st = WK_OK;
    if (c->dma_segment) {
        /* A dead adapter is not called again; its aperture goes with it. */
        if (!vm->dead)
            st = op_unmap_aperture(vm, c->dma_segment, c->dma_offset / PAGE, c->dma.pages, NULL);
        wk_place_free(segment_get(vm, c->dma_segment)->heap, c->dma_offset);
    }
    forget_pages(vm, c);
    c->dma_segment = 0;
    c->dma_offset = 0;
    return st;
}
