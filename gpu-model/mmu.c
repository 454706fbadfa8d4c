/* SPDX-License-Identifier: MIT */
/*
 * mmu.c - page-table geometries and the kit's GPU's page-table entries
 * (docs/gpu-model.md, "GPU virtual addresses").
 *
 * A geometry is what a driver tells the kernel of its GPU's tree
 * (DXGK_GPUMMUCAPS and one DXGK_PAGE_TABLE_LEVEL_DESC per level:
 * docs/wddm-gpummu-facts.md, sections 1 and 2): the walk in va_space.c
 * needs nothing else of the hardware but the reading of one entry. The kit's GPU's tree is three levels of 512
 * eight-byte entries over 4 KiB pages, the shape of a common x86-64-like
 * MMU cut to 39 bits: enough for any adapter the kit models, small enough
 * that a mapping costs three 4 KiB tables.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const struct wk_mmu_geometry kit_geometry = {
    .levels = WK_GPU_MMU_LEVELS,
    .page_shift = WK_GPU_PAGE_SHIFT,
    .level = { { 9, 8 }, { 9, 8 }, { 9, 8 } },
};

static const struct wk_mmu_geometry kit_two_level = {
    .levels = 2,
    .page_shift = WK_GPU_PAGE_SHIFT,
    .level = { { 9, 8 }, { WK_GPU_MMU_ROOT_BITS_MAX, 8 } },
};

const struct wk_mmu_geometry *wk_gpu_mmu_geometry(void)
{
    return &kit_geometry;
}

const struct wk_mmu_geometry *wk_gpu_mmu_geometry_two_level(void)
{
    return &kit_two_level;
}

#define KIT_PTE_RESERVED (~(WK_GPU_PTE_VALID | WK_GPU_PTE_READ_ONLY | WK_GPU_PTE_ADDRESS_MASK))

int wk_gpu_mmu_decode(void *self, uint32_t level, const uint8_t *entry, uint32_t entry_bytes,
                      struct wk_mmu_entry *out)
{
    (void)self;
    if (!entry || !out || entry_bytes != 8 || level >= WK_GPU_MMU_LEVELS)
        return -1;
    uint64_t v = le64(entry);
    memset(out, 0, sizeof(*out));
    if (!(v & WK_GPU_PTE_VALID))
        return 0;                       /* an invalid entry's other bits are the driver's */
    if (v & KIT_PTE_RESERVED)
        return -1;
    out->valid = 1;
    out->leaf = level == 0;
    out->read_only = out->leaf && (v & WK_GPU_PTE_READ_ONLY);
    out->address = v & WK_GPU_PTE_ADDRESS_MASK;
    return 0;
}

uint64_t wk_gpu_mmu_entry(uint64_t address, uint64_t flags)
{
    return (address & WK_GPU_PTE_ADDRESS_MASK) | (flags & (WK_GPU_PTE_VALID | WK_GPU_PTE_READ_ONLY));
}

uint32_t wk_mmu_va_bits(const struct wk_mmu_geometry *g)
{
    uint32_t bits = g->page_shift;
    for (uint32_t i = 0; i < g->levels && i < WK_MMU_MAX_LEVELS; i++)
        bits += g->level[i].index_bits;
    return bits;
}

wk_status wk_mmu_check_geometry(const struct wk_mmu_geometry *g, char *why, size_t why_size)
{
    if (!g)
        return gpu_reject(why, why_size, "no geometry");
    if (g->levels < 1 || g->levels > WK_MMU_MAX_LEVELS)
        return gpu_reject(why, why_size, "%u levels: 1 to %u are walked", g->levels, WK_MMU_MAX_LEVELS);
    if (g->page_shift < 12 || g->page_shift > 21)
        return gpu_reject(why, why_size, "page_shift %u: pages of 4 KiB (12) to 2 MiB (21)", g->page_shift);
    for (uint32_t i = 0; i < g->levels; i++) {
        if (g->level[i].index_bits < 1 || g->level[i].index_bits > 20)
            return gpu_reject(why, why_size, "level %u: %u index bits (1 to 20)", i, g->level[i].index_bits);
        uint32_t e = g->level[i].entry_bytes;
        if (e != 4 && e != 8 && e != 16)
            return gpu_reject(why, why_size, "level %u: entries of %u bytes (4, 8 or 16)", i, e);
    }
    if (wk_mmu_va_bits(g) > 64)
        return gpu_reject(why, why_size, "%u address bits: at most 64", wk_mmu_va_bits(g));
    return WK_OK;
}
