/* SPDX-License-Identifier: MIT */
/*
 * memory.c - OtherGPU's memory as the kit builds its memory system from it
 * (wk_binding.memory, a struct wk_gpu_desc of wddmkit/gpu.h).
 *
 * The segments are exactly those the miniport reports in QUERYSEGMENT
 * (examples/drivers/othergpu/segments.c): segment 1, 32 MiB of local
 * memory at 64 GiB; segment 2, the 8 MiB GART aperture at 128 GiB; both
 * from othergpu_hw.h, which the driver reports from too, so the two cannot
 * drift apart. OtherGPU has no banks. The aperture's CommitLimit (6 MiB)
 * is the driver's answer to the memory manager, not a property of the
 * hardware's address decoding, so the segment is its full Size.
 *
 * The system-memory window is the platform's, chosen here (othergpu_gpu.h):
 * inside the 40-bit DMA range and clear of both segments (the kit refuses
 * overlapping regions); conform replaces it with each case's. Budgets are
 * 0, the kit's defaults.
 */
#include "othergpu_gpu.h"

static const struct wk_gpu_segment_desc og_segments[OG_SEGMENT_COUNT] = {
    [OG_SEGMENT_VRAM - 1] = { WK_GPU_SEGMENT_MEMORY, OG_VRAM_BASE, OG_VRAM_SIZE, 0, NULL },
    [OG_SEGMENT_GART - 1] = { WK_GPU_SEGMENT_APERTURE, OG_GART_BASE, OG_GART_SIZE, 0, NULL },
};

_Static_assert(((OGB_SYSMEM_FIRST_PFN + OGB_SYSMEM_PAGES) << OG_PAGE_SHIFT) - 1 <= OG_HIGHEST_BUS_ADDRESS,
               "the system-memory window is inside OtherGPU's 40-bit DMA range");
_Static_assert(((OGB_SYSMEM_FIRST_PFN + OGB_SYSMEM_PAGES) << OG_PAGE_SHIFT) <= OG_VRAM_BASE,
               "the system-memory window lies below local memory, the lowest segment");
_Static_assert((OGB_SYSMEM_FIRST_PFN << OG_PAGE_SHIFT) >= 0x100000000ull,
               "every system address has a non-zero high word");

const struct wk_gpu_desc og_memory = {
    .segment_count = OG_SEGMENT_COUNT,
    .segments = og_segments,
    .sysmem_first_pfn = OGB_SYSMEM_FIRST_PFN,
    .sysmem_pages = OGB_SYSMEM_PAGES,
};
