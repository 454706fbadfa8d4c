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
 *
 * The kit's area: where a DMA or paging buffer lands is the kernel's
 * choice (facts §4.1 X1, G10: the driver asks for system memory, never for
 * frames), and the kit chooses the bottom of system memory (kit_end) for
 * every contiguous run, while an allocation's scattered pages come from the
 * rest. Before, both shared one pool, and a context's DMA buffer
 * landed wherever the input's allocations had left the next free run: its
 * frames, so its host mapping (gpu-model/sysmap.c keeps them by frame
 * list), differed from input to input, a new mapping each time (issue 26).
 * Now the frames of the kit's runs depend only on the runs themselves (how
 * many contexts, which paging buffer), so the same few mappings serve
 * every input, and every adapter built on the same memory pool. The parts
 * are a preference, not a reservation: a request that finds no room in its
 * own part takes any free pages, as before, so allocations have all of
 * system memory as they had (only how its free pages are split into runs
 * differs), and what a test sees change is frame numbers. The paging buffer's block is placed from the top of the
 * kit's part and the other runs from its bottom (SYSMEM_RUN_HIGH): a
 * paging buffer of another size then moves no DMA buffer.
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

/* The end of the kit's part: the lower half of system memory, at most
 * KIT_PAGES. A fixed size, so that adapters of any description with enough
 * system memory lay the kit's runs out alike (the same pages of the model's
 * file, whatever the first PFN): an adapter built on a parked memory pool
 * (docs/gpu-model.md) finds the mappings the one before made. 512 KiB: the
 * reference driver's sixteen contexts and eight quarantined DMA buffers
 * (16 KiB each), its paging buffer and the dummy page, with room to spare. */
#define KIT_PAGES 128u

static uint64_t kit_end(const struct wk_vidmm *vm)
{
    uint64_t half = vm->gpu_desc.sysmem_pages / 2;
    return (half < KIT_PAGES ? half : KIT_PAGES) * PAGE;
}

uint64_t sysmem_kit_pages(const struct wk_vidmm *vm)
{
    return kit_end(vm) / PAGE;
}

/* r inside [lo, hi) of the heap when that window is not empty, else (or
 * when the window has no room) anywhere. */
static wk_status place_preferring(struct wk_vidmm *vm, struct wk_place_request r, uint64_t lo, uint64_t hi,
                                  uint64_t *off)
{
    struct wk_place_request in = r;
    in.lo = lo;
    in.hi = hi;
    if ((hi ? hi : vm->gpu_desc.sysmem_pages * PAGE) > lo && wk_place_alloc(vm->sys_heap, &in, off) == WK_OK)
        return WK_OK;
    return wk_place_alloc(vm->sys_heap, &r, off) == WK_OK ? WK_OK : WK_E_NO_SPACE;
}

static wk_status pages_alloc(struct wk_vidmm *vm, uint64_t count, int contiguous, uint64_t *pfns)
{
    const uint64_t first = vm->gpu_desc.sysmem_first_pfn;
    if (contiguous) {
        struct wk_place_request r = { count * PAGE, PAGE, 0, 0, contiguous == SYSMEM_RUN_HIGH };
        uint64_t off;
        if (place_preferring(vm, r, 0, kit_end(vm), &off) != WK_OK)
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
        if (vm->cfg.contiguous_pages) { /* from the lowest free page up, each the one after the last when free */
            r.top_down = 0;
            const uint64_t after = i ? (pfns[i - 1] - first + 1) * PAGE : 0;
            struct wk_place_request next = { PAGE, PAGE, after, after + PAGE, 0 };
            if (i && wk_place_alloc(vm->sys_heap, &next, &off) == WK_OK) { /* each page stays a block of its own */
                pfns[i] = first + off / PAGE;
                continue;
            }
        }
        if (place_preferring(vm, r, kit_end(vm), 0, &off) != WK_OK) {
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
