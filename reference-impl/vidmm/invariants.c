/* SPDX-License-Identifier: MIT */
/*
 * invariants.c - in debug builds, the manager re-checks its own state after
 * every public operation (the Mesa util_vma / SQLite PageSanity habit).
 *
 * These are the kit's invariants, not the driver's: a failure is a bug in
 * wddmkit, reported with what broke and then abort(), so it can never be
 * mistaken for a driver verdict. Release builds (NDEBUG) skip the walk.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

#ifdef NDEBUG

void vidmm_check_invariants(struct wk_vidmm *vm)
{
    (void)vm;
}

#else

static void broken(const char *what, unsigned long long a, unsigned long long b)
{
    fprintf(stderr, "wddmkit internal invariant broken: %s (%llu, %llu)\n", what, a, b);
    abort();
}

static void check_heaps(struct wk_vidmm *vm)
{
    char why[160];
    for (uint32_t s = 1; s <= vm->nseg; s++)
        if (vm->seg[s].heap && wk_place_check(vm->seg[s].heap, why, sizeof(why)) != WK_OK)
            broken(why, s, 0);
    if (wk_place_check(vm->sys_heap, why, sizeof(why)) != WK_OK)
        broken(why, 0, 0);
}

/* The DMA buffers contexts hold in apertures (dma_place.c): heap blocks
 * that are not allocations, so not on any LRU list. */
static void count_dma_buffers(struct wk_vidmm *vm, uint64_t *blocks)
{
    if (vm->paging_seg && vm->paging_seg <= MAX_SEGMENTS)
        blocks[vm->paging_seg]++; /* the paging buffer's block (paging_place.c) */
    for (uint32_t i = 1; i <= vm->contexts.top; i++) { /* every slot: a dead one holds nothing */
        const struct context *c = ht_slot(&vm->contexts, i);
        if (!c->dma_segment)
            continue;
        const struct segment *s = segment_get(vm, c->dma_segment);
        if (!s || !s->aperture || !c->dma_pfns || c->dma_offset + c->dma.pages * WK_GPU_PAGE_SIZE > s->size)
            broken("a context's DMA buffer outside its aperture or without its pages", i, c->dma_segment);
        else
            blocks[c->dma_segment]++;
    }
}

/* Each segment heap holds exactly the resident allocations placed in it,
 * the DMA buffers mapped into it and the page tables placed in it; an aperture holds an allocation only
 * by mapping its system pages. */
static void check_allocations(struct wk_vidmm *vm)
{
    uint64_t resident[MAX_SEGMENTS + 1] = { 0 }, dma[MAX_SEGMENTS + 1] = { 0 };
    count_dma_buffers(vm, dma);
    for (uint32_t i = 1; i <= vm->allocs.top; i++) {
        const struct allocation *a = ht_slot(&vm->allocs, i);
        if (!a->live || !a->resident)
            continue;
        const struct segment *s = segment_get(vm, a->segment);
        if (!s || !s->heap || a->offset > s->size || a->size > s->size - a->offset)
            broken("resident allocation outside its segment", i, a->segment);
        if (s->aperture && (!a->pfns || a->pfn_count != a->size / WK_GPU_PAGE_SIZE))
            broken("allocation resident in an aperture without its system pages", i, a->pfn_count);
        if (a->pinned)
            broken("allocation still pinned after its working set was built", i, a->segment);
        resident[a->segment]++;
    }
    /* ... and the page tables of GPU virtual address spaces (gpuva.c) */
    for (uint32_t t = 1; vm->va && t < GPUVA_MAX_TABLES; t++)
        if (vm->va->table[t].live && vm->va->table[t].segment <= MAX_SEGMENTS)
            dma[vm->va->table[t].segment]++;
    for (uint32_t s = 1; s <= vm->nseg; s++) {
        if (vm->seg[s].heap && wk_place_count(vm->seg[s].heap) != resident[s] + dma[s])
            broken("segment heap blocks != resident allocations, DMA buffers and page tables",
                   wk_place_count(vm->seg[s].heap), resident[s] + dma[s]);
        uint64_t listed = 0;
        for (uint32_t h = vm->seg[s].lru_head; h && listed <= vm->allocs.top;
             h = ((const struct allocation *)ht_slot(&vm->allocs, h))->lru_next)
            listed++;
        if (listed != resident[s])
            broken("LRU list length != resident allocations", listed, resident[s]);
    }
}

static void check_queue(struct wk_vidmm *vm)
{
    for (uint32_t i = 1; i < vm->npending; i++)
        if (!fence_after(vm->pending[i].fence, vm->pending[i - 1].fence)) /* serial order (internal.h) */
            broken("pending fences out of order", vm->pending[i - 1].fence, vm->pending[i].fence);
    if (vm->paging.map && vm->paging_used > vm->paging.size)
        broken("paging buffer overfilled", vm->paging_used, vm->paging.size);
}

void vidmm_check_invariants(struct wk_vidmm *vm)
{
    if (!vm || !vm->started)
        return;
    check_heaps(vm);
    check_allocations(vm);
    check_queue(vm);
}

#endif
