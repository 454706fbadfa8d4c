/* SPDX-License-Identifier: MIT */
/*
 * paging_place.c - where the paging buffer lives: in system memory, or in
 * the aperture the driver named in PagingBufferSegmentId.
 *
 * PagingBufferSegmentId is the driver's choice (facts G10): 0 asks for
 * contiguous system memory, an aperture id asks for the paging buffer in
 * that aperture (RosKmd names its aperture, CosKmd 0: facts §6). A kit that
 * always handed out system memory would test a driver against a placement
 * it never asked for, so the kit maps the paging buffer's block of system
 * pages into that aperture with the driver's own MAP_APERTURE_SEGMENT
 * (hDevice and hAllocation NULL, as for a DMA buffer: P13), and Patch and
 * SubmitCommand then get that segment's id and the segment address (T5).
 * The map is built in the very buffer it maps, once, when the adapter
 * starts; a reset keeps it, a new buffer size maps the new block.
 *
 * Not with the kit's GPU model: the model would execute that first buffer
 * before its pages are mapped, and the reference driver, the one driver of
 * the model, asks for system memory. With a hardware binding that executes
 * (binding.h), the kit writes the block's GART entries itself first, as the
 * kernel makes its paging buffer reachable before the GPU fetches it: the
 * driver's MAP then writes the same entries, and the driver is told the
 * aperture it asked for (before, it was told segment 0, and a driver that
 * asserts its paging buffer is in its GART failed DRV-ASSERT-001 for the
 * kit's placement: found by an outsider's OtherGPU binding). The block comes from the top of the
 * aperture, away from the room a case's allocations use (a budget starts
 * at offset 0: wk_vidmm_set_segment_budget). With no room there, or a map
 * the driver refuses (its violation is recorded), the buffer stays in
 * system memory: a limit of the kit's apertures, never the driver's fault.
 */
#include <stdlib.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

static int wants_aperture(const struct wk_vidmm *vm)
{
    uint32_t id = vm->paging_segment;
    return (vm->cfg.no_model || binding_executes(vm)) && id >= 1 && id <= 32 &&
           (aperture_mask(vm) & (1u << (id - 1))) && vm->paging.map;
}

static void forget(struct wk_vidmm *vm)
{
    mdl_release(vm, &vm->paging_mdl);
    free(vm->paging_pfns);
    vm->paging_pfns = NULL;
    vm->paging_seg = 0;
    vm->paging_seg_offset = 0;
    vm->paging_seg_pages = 0;
}

void paging_place(struct wk_vidmm *vm)
{
    if (vm->paging_seg || !wants_aperture(vm))
        return;
    struct segment *s = segment_get(vm, vm->paging_segment);
    uint64_t pages = vm->paging.map_len / PAGE, offset = 0;
    struct wk_place_request r = { pages * PAGE, PAGE, 0, 0, 1 };
    if (!s || !s->heap || !pages || wk_place_alloc(s->heap, &r, &offset) != WK_OK)
        return;
    vm->paging_pfns = calloc((size_t)pages, sizeof(*vm->paging_pfns));
    if (!vm->paging_pfns) {
        wk_place_free(s->heap, offset);
        return;
    }
    for (uint64_t i = 0; i < pages; i++)
        vm->paging_pfns[i] = vm->paging.map_pfn + i;
    mdl_init(vm, &vm->paging_mdl, vm->paging_pfns, pages, pages * PAGE);
    /* Set before the map: the buffer that carries it is already the
     * aperture's to the driver. */
    vm->paging_seg = vm->paging_segment;
    vm->paging_seg_offset = offset;
    vm->paging_seg_pages = pages;
    if (binding_executes(vm) &&
        wk_gpu_gart_set_range(vm->gpu, vm->paging_seg, offset / PAGE, pages, vm->paging.map_pfn) != WK_OK) {
        wk_place_free(s->heap, offset);
        forget(vm);
        return; /* the kit cannot reach it there: system memory, a limit of the kit's */
    }
    if (op_map_aperture(vm, vm->paging_seg, offset / PAGE, NULL, &vm->paging_mdl, pages) != WK_OK) {
        wk_place_free(s->heap, offset);
        forget(vm);
    }
}

/* After a reset: the GPU's reset emptied the GART, and with a binding
 * that executes, the paging buffer's block sat in the aperture through
 * entries the kit wrote at start (and the driver's map, which the reset
 * undid too). The placement outlives the reset, so its entries are written
 * again; else the first paging buffer of the next input faulted at its own
 * address before the GPU ran a command of it, and the driver was blamed for
 * the maps that buffer carried (PAGING-MAP-001 on an outsider's 32-bit
 * GPU, from the second fuzz input of a process on). */
void paging_place_restore(struct wk_vidmm *vm)
{
    if (!vm->paging_seg || !binding_executes(vm))
        return;
    if (wk_gpu_gart_set_range(vm->gpu, vm->paging_seg, vm->paging_seg_offset / PAGE, vm->paging_seg_pages,
                              vm->paging.map_pfn) != WK_OK)
        paging_unplace(vm, 0); /* cannot reach it there any more: system memory, as at a failed start */
}

void paging_unplace(struct wk_vidmm *vm, int tell_driver)
{
    if (!vm->paging_seg)
        return;
    struct segment *s = segment_get(vm, vm->paging_seg);
    /* Unmapped through the buffer itself while it still exists; a dead or
     * stopping adapter is not called again. */
    if (tell_driver && !vm->dead && vm->started && !vm->stopped && vm->paging.map)
        op_unmap_aperture(vm, vm->paging_seg, vm->paging_seg_offset / PAGE, vm->paging_seg_pages, NULL);
    if (s && s->heap)
        wk_place_free(s->heap, vm->paging_seg_offset);
    forget(vm);
}

uint32_t paging_dma_segment(const struct wk_vidmm *vm)
{
    return vm->paging_seg;
}

uint64_t paging_dma_address(const struct wk_vidmm *vm)
{
    if (!vm->paging_seg)
        return vm->paging.first_pfn << WK_GPU_PAGE_SHIFT;
    return vm->seg[vm->paging_seg].base + vm->paging_seg_offset + (vm->paging.first_pfn - vm->paging.map_pfn) * PAGE;
}
