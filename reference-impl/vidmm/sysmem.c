/* SPDX-License-Identifier: MIT */
/*
 * sysmem.c - system pages (the backing store of evicted allocations, DMA and
 * paging buffers) and the MDLs that describe them.
 *
 * Pages come from a placement heap over the model's PFN range. Buffers the
 * GPU fetches by physical address get contiguous runs; the backing pages of
 * an allocation are taken one by one from alternating ends of the pool, in a
 * seed-determined pattern, so MDLs are scattered as real ones are and a
 * driver that assumes MmGetMdlPfnArray(mdl)[0] + i is caught.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

/* The scatter pattern is a function of the seed and of the pages handed
 * out since the adapter was built; a reset rewinds it, so that the same
 * input gets the same PFNs on a reset adapter as on a fresh one. */
void sysmem_rewind(struct wk_vidmm *vm)
{
    vm->scatter_state = vm->cfg.seed ^ 0x9E3779B97F4A7C15ull;
}

static int next_scatter_bit(struct wk_vidmm *vm)
{
    vm->scatter_state = vm->scatter_state * 6364136223846793005ull + 1442695040888963407ull;
    return (int)(vm->scatter_state >> 63);
}

static wk_status pages_alloc(struct wk_vidmm *vm, uint64_t count, int contiguous, uint64_t *pfns);

/* The DMA-buffer quarantine holds frames out of the pool
 * (dma_quarantine.c): when they are what is missing, it lets them go,
 * judged, and the allocation is tried again, so it never fails one that
 * would have succeeded without the quarantine. */
wk_status sysmem_pages_alloc(struct wk_vidmm *vm, uint64_t count, int contiguous, uint64_t *pfns)
{
    wk_status st = pages_alloc(vm, count, contiguous, pfns);
    if (st == WK_E_NO_SPACE && dmaq_drain(vm, 1))
        st = pages_alloc(vm, count, contiguous, pfns);
    return st;
}

static wk_status pages_alloc(struct wk_vidmm *vm, uint64_t count, int contiguous, uint64_t *pfns)
{
    const uint64_t first = vm->gpu_desc.sysmem_first_pfn;
    if (contiguous) {
        struct wk_place_request r = { count * PAGE, PAGE, 0, 0, 0 };
        uint64_t off;
        if (wk_place_alloc(vm->sys_heap, &r, &off) != WK_OK)
            return WK_E_NO_SPACE;
        for (uint64_t i = 0; i < count; i++) {
            pfns[i] = first + off / PAGE + i;
            vm->kit_run[off / PAGE + i] = (uint32_t)(off / PAGE) + 1; /* only the kit's buffers are contiguous */
        }
        return WK_OK;
    }
    for (uint64_t i = 0; i < count; i++) {
        struct wk_place_request r = { PAGE, PAGE, 0, 0, next_scatter_bit(vm) };
        uint64_t off;
        if (wk_place_alloc(vm->sys_heap, &r, &off) != WK_OK) {
            sysmem_pages_free(vm, pfns, i);
            return WK_E_NO_SPACE;
        }
        pfns[i] = first + off / PAGE;
    }
    return WK_OK;
}

/* Frees blocks by their first page: a contiguous run is one block (pass its
 * first PFN), scattered pages are one block each. */
void sysmem_pages_free(struct wk_vidmm *vm, const uint64_t *pfns, uint64_t count)
{
    const uint64_t first = vm->gpu_desc.sysmem_first_pfn, pages = vm->gpu_desc.sysmem_pages;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t at = pfns[i] - first;
        for (uint64_t k = at; k < pages && vm->kit_run[k] == at + 1; k++)
            vm->kit_run[k] = 0;
        wk_place_free(vm->sys_heap, at * PAGE);
    }
}

int sysmem_is_kit_page(const struct wk_vidmm *vm, uint64_t pfn)
{
    const uint64_t first = vm->gpu_desc.sysmem_first_pfn;
    return pfn >= first && pfn - first < vm->gpu_desc.sysmem_pages && vm->kit_run[pfn - first] != 0;
}

static VOID *mdl_map(MDL *mdl)
{
    struct wk_vidmm *vm = mdl->wk_map_context;
    void *va = NULL;
    if (wk_gpu_sysmem_map(vm->gpu, mdl->wk_pfns, mdl->wk_page_count, &va) != WK_OK)
        return NULL;
    return va;
}

void mdl_init(struct wk_vidmm *vm, MDL *mdl, uint64_t *pfns, uint64_t count, uint64_t bytes)
{
    memset(mdl, 0, sizeof(*mdl));
    mdl->wk_byte_count = (ULONG)bytes;
    mdl->wk_byte_offset = 0;
    mdl->wk_page_count = (ULONG)count;
    mdl->wk_pfns = pfns;
    mdl->wk_map = mdl_map;
    mdl->wk_map_context = vm;
    mdl->MdlFlags = MDL_PAGES_LOCKED; /* system pages the kit holds for the operation */
}

void mdl_release(struct wk_vidmm *vm, MDL *mdl)
{
    if (mdl->wk_mapped_va)
        wk_gpu_sysmem_unmap(vm->gpu, mdl->wk_mapped_va, mdl->wk_page_count);
    mdl->wk_mapped_va = NULL;
}
