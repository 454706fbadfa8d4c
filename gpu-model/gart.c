/* SPDX-License-Identifier: MIT */
/*
 * gart.c - aperture page tables and their TLB.
 *
 * Entries live in a sparse array of 4 KiB blocks (256 entries each), so a
 * large aperture costs nothing until mapped and resetting it costs the
 * blocks touched. Each entry carries the TLB line the GPU translates
 * through: GART_MAP/GART_UNMAP change the entry only (mem_ops.c, the
 * memory table's gart_write), TLB_FLUSH copies entries into lines, the
 * host path (wk_gpu_gart_set) writes both.
 */
#include "internal.h"

const struct pte *gart_peek(const struct region *r, uint64_t page)
{
    const uint8_t *block = sparse_peek(&r->ptes, page / PTES_PER_BLOCK);
    return block ? (const struct pte *)(const void *)block + page % PTES_PER_BLOCK : NULL;
}

struct pte *gart_touch(struct region *r, uint64_t page)
{
    uint8_t *block = sparse_touch(&r->ptes, page / PTES_PER_BLOCK, 0, 0);
    return block ? (struct pte *)(void *)block + page % PTES_PER_BLOCK : NULL;
}

int gart_translate(struct wk_gpu *gpu, struct region *r, uint64_t page, int via_tlb,
                   uint64_t *pfn)
{
    (void)gpu;
    const struct pte *p = gart_peek(r, page);
    uint64_t line = p ? (via_tlb ? p->tlb : p->entry) : 0;
    if (!(line & PTE_VALID))
        return 0;
    *pfn = line & ~PTE_VALID;
    return 1;
}

/* Only blocks touched since the reset can hold entries, so the dirty list is
 * exactly the set of blocks to flush. */
void gart_flush(struct wk_gpu *gpu, struct region *r)
{
    for (uint64_t i = 0; i < r->ptes.dirty_count; i++) {
        uint64_t block = r->ptes.dirty[i];
        struct pte *p = (struct pte *)(void *)sparse_peek(&r->ptes, block);
        uint32_t n = block + 1 == r->ptes.blocks ? r->ptes.tail_bytes / sizeof(struct pte) : PTES_PER_BLOCK;
        for (uint32_t j = 0; j < n; j++) /* the rest of a last block is never used */
            p[j].tlb = p[j].entry;
    }
    gpu->counters.tlb_flushes++;
}

static int sysmem_pfn_ok(const struct wk_gpu *gpu, uint64_t pfn)
{
    return pfn >= gpu->desc.sysmem_first_pfn &&
           pfn - gpu->desc.sysmem_first_pfn < gpu->desc.sysmem_pages;
}

static struct region *aperture(const struct wk_gpu *gpu, uint32_t segment_id, uint64_t page)
{
    struct region *r = space_segment(gpu, segment_id);
    if (!r || r->kind != WK_GPU_SEGMENT_APERTURE || page >= r->size >> WK_GPU_PAGE_SHIFT)
        return NULL;
    return r;
}

wk_status wk_gpu_gart_set(struct wk_gpu *gpu, uint32_t segment_id, uint64_t page, uint64_t pfn)
{
    struct region *r = aperture(gpu, segment_id, page);
    if (!r || !sysmem_pfn_ok(gpu, pfn))
        return WK_E_INVALID_ARGUMENT;
    struct pte *p = gart_touch(r, page);
    if (!p)
        return WK_E_LIMIT;
    p->entry = p->tlb = pfn | PTE_VALID;
    return WK_OK;
}

/* Frames [first, first + count) all lie in system memory. */
static int sysmem_range_ok(const struct wk_gpu *gpu, uint64_t first, uint64_t count)
{
    return count == 0 ||
           (sysmem_pfn_ok(gpu, first) && count <= gpu->desc.sysmem_pages - (first - gpu->desc.sysmem_first_pfn));
}

/* The entries [page, page + n) of one PTE block, about to be written whole:
 * only they are declared (the harness's per-input mapping of half the
 * aperture then does not zero the rest of a recycled block it never wrote). */
static struct pte *set_block(struct region *r, uint64_t page, uint64_t n)
{
    uint32_t at = (uint32_t)(page % PTES_PER_BLOCK) * (uint32_t)sizeof(struct pte);
    uint8_t *block = sparse_touch(&r->ptes, page / PTES_PER_BLOCK, at, (uint32_t)(n * sizeof(struct pte)));
    return block ? (struct pte *)(void *)(block + at) : NULL;
}

/* Entries and TLB lines [0, n) of p to line, line + 1, ...: frames are
 * below 2^52, so adding to a valid line never reaches its valid bit. Plain
 * stores, which the compiler vectorizes as it sees fit. Not hand-written
 * AVX2, though a 32-byte store writes two PTEs: on the Intel Xeon VMs this
 * kit is measured on, the AVX2 form of this loop cost more than the whole
 * rest of gart_set_range, a seventh of a fuzz_gpu_decode execution (its
 * harness maps 32 pages for every input): fuzz_speed's ratio 0.13 with it,
 * 0.19 without, in one session; 16-byte SSE2 stores measured the same as
 * this loop (docs/performance.md). */
static void set_entries(struct pte *p, uint64_t n, uint64_t line)
{
    for (uint64_t j = 0; j < n; j++)
        p[j].entry = p[j].tlb = line + j;
}

wk_status wk_gpu_gart_set_range(struct wk_gpu *gpu, uint32_t segment_id, uint64_t first_page,
                                uint64_t count, uint64_t first_pfn)
{
    struct region *r = space_segment(gpu, segment_id);
    uint64_t pages = r ? r->size >> WK_GPU_PAGE_SHIFT : 0;
    if (!r || r->kind != WK_GPU_SEGMENT_APERTURE || first_page > pages || count > pages - first_page ||
        !sysmem_range_ok(gpu, first_pfn, count))
        return WK_E_INVALID_ARGUMENT;
    for (uint64_t i = 0; i < count;) { /* one PTE block at a time */
        uint64_t page = first_page + i, in_block = PTES_PER_BLOCK - page % PTES_PER_BLOCK;
        uint64_t n = count - i < in_block ? count - i : in_block;
        struct pte *p = set_block(r, page, n);
        if (!p)
            return WK_E_LIMIT;
        set_entries(p, n, (first_pfn + i) | PTE_VALID);
        i += n;
    }
    return WK_OK;
}

wk_status wk_gpu_gart_get(struct wk_gpu *gpu, uint32_t segment_id, uint64_t page,
                          int *valid, uint64_t *pfn, int *tlb_stale)
{
    const struct region *r = aperture(gpu, segment_id, page);
    if (!r)
        return WK_E_INVALID_ARGUMENT;
    const struct pte *p = gart_peek(r, page);
    uint64_t entry = p ? p->entry : 0, tlb = p ? p->tlb : 0;
    *valid = (entry & PTE_VALID) != 0;
    *pfn = entry & ~PTE_VALID;
    if (tlb_stale)
        *tlb_stale = entry != tlb;
    return WK_OK;
}
