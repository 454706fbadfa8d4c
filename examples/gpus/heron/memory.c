/* SPDX-License-Identifier: MIT */
/*
 * memory.c - Heron's memory as the kit builds its memory system from it
 * (wk_binding.memory, a struct wk_gpu_desc of wddmkit/gpu.h).
 *
 * The segments are exactly those the miniport reports in QUERYSEGMENT
 * (examples/drivers/wdkstyle/query.c): the same ids, kinds, bases and
 * sizes, all from heron_hw.h, so the two cannot drift apart. Heron has no
 * banks. The system-memory window is the platform's, not the driver's:
 * HERON_SYSMEM_* (heron_gpu.h) puts 64 MiB of pages at bus address
 * 0x3_0000_0000, inside the 40-bit DMA range (HERON_HIGHEST_BUS_ADDRESS)
 * and clear of both local memory (0x1_0000_0000) and the aperture
 * (0x2_0000_0000): the kit refuses overlapping regions. Budgets are 0,
 * the kit's defaults.
 */
#include "heron_gpu.h"

static const struct wk_gpu_segment_desc heron_segments[HERON_SEGMENT_COUNT] = {
    [HERON_SEGMENT_LOCAL_VISIBLE - 1] = { WK_GPU_SEGMENT_MEMORY, HERON_LOCAL_VISIBLE_BASE,
                                          HERON_LOCAL_VISIBLE_SIZE, 0, NULL },
    [HERON_SEGMENT_LOCAL_HIDDEN - 1] = { WK_GPU_SEGMENT_MEMORY, HERON_LOCAL_HIDDEN_BASE,
                                         HERON_LOCAL_HIDDEN_SIZE, 0, NULL },
    [HERON_SEGMENT_GART - 1] = { WK_GPU_SEGMENT_APERTURE, HERON_GART_BASE, HERON_GART_SIZE, 0, NULL },
};

_Static_assert(((HERON_SYSMEM_FIRST_PFN + HERON_SYSMEM_PAGES) << HERON_PAGE_SHIFT) - 1 <=
                   HERON_HIGHEST_BUS_ADDRESS,
               "the system-memory window is inside Heron's 40-bit DMA range");
_Static_assert((HERON_SYSMEM_FIRST_PFN << HERON_PAGE_SHIFT) >= HERON_GART_BASE + HERON_GART_SIZE,
               "the system-memory window lies above the aperture, the highest segment");

const struct wk_gpu_desc heron_memory = {
    .segment_count = HERON_SEGMENT_COUNT,
    .segments = heron_segments,
    .sysmem_first_pfn = HERON_SYSMEM_FIRST_PFN,
    .sysmem_pages = HERON_SYSMEM_PAGES,
};
