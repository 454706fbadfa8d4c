/* SPDX-License-Identifier: MIT */
/*
 * hardware.h - Lattice, the imaginary GPU this miniport drives: its segments
 * and its command stream. Nothing here is the kit's GPU model (gpu.h): the
 * driver writes Lattice packets and does not declare
 * WK_DRIVER_TARGETS_GPU_MODEL, so `wddmkit conform` runs it with --gpu none
 * (docs/verdicts.md, "A driver for other hardware").
 *
 * Command stream. A packet is a header word then its payload words, all
 * 32-bit little-endian:
 *
 *     header = 0xLA << 24 | payload words << 8 | opcode     (LA = 0x1A)
 *
 * A 64-bit GPU address takes two payload words, low word first. An address
 * that Render could not know yet is written as LATTICE_UNPATCHED and
 * DxgkDdiPatch overwrites it. Packets (payload words in brackets):
 *
 *   NOP          [0]
 *   COPY         [5]  dst(2) src(2) bytes              memmove semantics
 *   FILL         [4]  dst(2) bytes pattern             32-bit pattern
 *   BLIT         [8]  dst(2) src(2) width height dst_pitch src_pitch
 *   GART_WRITE   [3 + 2n] segment first_page n, then n page addresses(2)
 *   GART_CLEAR   [5]  segment first_page n dummy(2)
 *   GART_FLUSH   [1]  segment
 *   FENCE        [4]  address(2) value(2)              64-bit store
 *   CACHE        [3]  address(2) op (0: invalidate, 1: write back)
 */
#ifndef CPPGPU_HARDWARE_H
#define CPPGPU_HARDWARE_H

#include "wddmkit/km.h"

namespace lattice {

enum Opcode : UINT {
    OP_NOP = 0x00,
    OP_COPY = 0x01,
    OP_FILL = 0x02,
    OP_BLIT = 0x03,
    OP_GART_WRITE = 0x10,
    OP_GART_CLEAR = 0x11,
    OP_GART_FLUSH = 0x12,
    OP_FENCE = 0x20,
    OP_CACHE = 0x21,
};

constexpr UINT HEADER_TAG = 0x1Au << 24;
constexpr UINT WORD = 4;
constexpr UINT64 UNPATCHED = 0xDEADDEADDEADDEADull;
constexpr UINT MAX_GART_PAGES_PER_PACKET = 64; /* the PTE engine's burst */

/* Payload words of each fixed-size packet. */
constexpr UINT COPY_WORDS = 5;
constexpr UINT FILL_WORDS = 4;
constexpr UINT BLIT_WORDS = 8;
constexpr UINT GART_CLEAR_WORDS = 5;
constexpr UINT GART_FLUSH_WORDS = 1;
constexpr UINT FENCE_WORDS = 4;
constexpr UINT CACHE_WORDS = 3;

constexpr UINT packet_bytes(UINT payload_words)
{
    return (1 + payload_words) * WORD;
}

/* Byte offset of the address that starts at payload word `word`. */
constexpr UINT address_offset(UINT word)
{
    return (1 + word) * WORD;
}

/* The largest single COPY or FILL the DMA engine takes. */
constexpr UINT64 MAX_TRANSFER_BYTES = 1ull << 20;

constexpr UINT PAGE_SIZE_BYTES = 4096;
constexpr UINT PAGE_SHIFT_BITS = 12;

/*
 * Lattice's segments, fixed by its board (not learnt from the kit): three
 * pools of local memory and a GART aperture. Ids are the WDDM segment ids
 * the driver reports (1-based, in this order).
 */
enum SegmentId : UINT {
    SEGMENT_NONE = 0,
    SEGMENT_VRAM = 1,    /* 64 MiB, CPU visible through BAR 2 */
    SEGMENT_FASTMEM = 2, /* 32 MiB on-package memory, no CPU path */
    SEGMENT_SCRATCH = 3, /* 16 MiB, CPU visible through BAR 4 */
    SEGMENT_GART = 4,    /* 32 MiB aperture over system pages */
    SEGMENT_COUNT = 4,
};

constexpr UINT64 VRAM_BASE = 0x400000000ull; /* 16 GiB */
constexpr UINT64 VRAM_SIZE = 64ull << 20;
constexpr UINT64 VRAM_BAR = 0xE0000000ull;
constexpr UINT64 FASTMEM_BASE = 0x500000000ull;
constexpr UINT64 FASTMEM_SIZE = 32ull << 20;
constexpr UINT64 SCRATCH_BASE = 0x600000000ull;
constexpr UINT64 SCRATCH_SIZE = 16ull << 20;
constexpr UINT64 SCRATCH_BAR = 0xE8000000ull;
constexpr UINT64 GART_BASE = 0x800000000ull; /* 32 GiB */
constexpr UINT64 GART_SIZE = 32ull << 20;
constexpr UINT64 GART_COMMIT_LIMIT = 24ull << 20;
constexpr UINT64 HIGHEST_BUS_ADDRESS = (1ull << 44) - 1; /* 44-bit DMA */

} // namespace lattice

#endif /* CPPGPU_HARDWARE_H */
