/* SPDX-License-Identifier: MIT */
/*
 * othergpu_hw.h - OtherGPU's hardware as both sides of the driver project
 * see it: the miniport (othergpu.h includes this) and the model of the GPU
 * that lets the kit run the miniport's buffers (a wddmkit binding,
 * examples/gpus/othergpu/). It stands on its own: macros and <stdint.h>,
 * no kernel header, so a host build of the GPU model includes it as is.
 *
 * The command format. Every command is one 16-byte record, little-endian:
 *
 *     struct og_cmd { UINT32 op; UINT32 a; UINT32 b; UINT32 c; };
 *
 * An address operand takes words a and b, the 8 bytes at record + 4, in
 * OtherGPU's address encoding: a = bits 0..31, b = bits 32..62 with bit 31
 * (OG_ADDR_VALID) set; b = 0 is "no address yet" (Patch fills it).
 *
 *   op           a, b                     c
 *   NOP          -                        -
 *   SRC          source address           -        (for the next COPY)
 *   COPY         destination address      bytes    (memmove within one record)
 *   PATTERN      a: 32-bit pattern        -        (for the next FILL)
 *   FILL         destination address      bytes
 *   MAP_PAGE     system page address      segment << 24 | page in the aperture
 *   UNMAP_PAGE   dummy page address       segment << 24 | page in the aperture
 *   GART_FLUSH   -                        segment
 *   FENCE_VALUE  a, b: 64-bit value       -        (for the next FENCE)
 *   FENCE        fence address            -
 *   CACHE_FLUSH  physical address         1: write back, 0: invalidate
 *
 * Commands that come in pairs (SRC + COPY, PATTERN + FILL, FENCE_VALUE +
 * FENCE) are always written together, never split across two buffers.
 */
#ifndef OTHERGPU_HW_H
#define OTHERGPU_HW_H

#include <stdint.h>

enum og_op {
    OG_NOP = 0,
    OG_SRC = 1,
    OG_COPY = 2,
    OG_PATTERN = 3,
    OG_FILL = 4,
    OG_MAP_PAGE = 5,
    OG_UNMAP_PAGE = 6,
    OG_GART_FLUSH = 7,
    OG_FENCE_VALUE = 8,
    OG_FENCE = 9,
    OG_CACHE_FLUSH = 10,
};

#define OG_CMD_SIZE 16u
#define OG_ADDR_OFFSET 4u          /* of an address operand in its record */
#define OG_ADDR_VALID 0x80000000u  /* in word b of an encoded address */
#define OG_SEGMENT_SHIFT 24u       /* MAP_PAGE, UNMAP_PAGE: c = segment << 24 | page */
#define OG_PAGE_MASK 0xFFFFFFu

/*
 * OtherGPU's own layout and sizes, fixed by its hardware (not learnt from
 * the kit's GPU model): 32 MiB of local memory, CPU visible through a BAR,
 * and an 8 MiB GART aperture of which 6 MiB may be committed. Its DMA
 * engine reaches 40 bits of bus address.
 */
#define OG_SEGMENT_VRAM 1u
#define OG_SEGMENT_GART 2u
#define OG_SEGMENT_COUNT 2u
#define OG_VRAM_BASE 0x1000000000ull   /* 64 GiB */
#define OG_VRAM_SIZE 0x2000000ull      /* 32 MiB */
#define OG_VRAM_CPU_BAR 0xD0000000ull
#define OG_GART_BASE 0x2000000000ull   /* 128 GiB */
#define OG_GART_SIZE 0x800000ull       /* 8 MiB */
#define OG_GART_COMMIT 0x600000ull     /* 6 MiB */
#define OG_HIGHEST_BUS_ADDRESS 0xFFFFFFFFFFull

#define OG_PAGE_SIZE 4096u
#define OG_PAGE_SHIFT 12u

#endif /* OTHERGPU_HW_H */
