/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    heron_hw.h

Abstract:

    The hardware interface of the Heron HR-2 render engine: its MMIO
    registers, its host-memory ring and the packets of its DMA buffers.

    Heron is an imaginary SoC render engine (render-only: no display
    controller). It is NOT the wddmkit GPU model. Its registers sit in a
    64 KiB MMIO window that ACPI describes; the command processor fetches
    a ring of submission descriptors from host memory and raises one
    interrupt line (fence completed, fault).

    Packets are a stream of 32-bit words. Word 0 is the header:

        bits  0..7   opcode (HERON_OP_*)
        bits  8..15  packet length in dwords, header included
        bits 16..31  opcode-specific flags

    A GPU address operand is two dwords, low then high, at a dword
    boundary (so Patch writes it with a byte copy).

Environment:

    Kernel mode only.

--*/

#pragma once

//
// MMIO window (BAR 0): 64 KiB, register offsets in bytes.
//
#define HERON_MMIO_SIZE                 0x10000

#define HERON_REG_CHIP_ID               0x0000  // reads HERON_CHIP_ID_HR2 on silicon
#define HERON_REG_INT_STATUS            0x0010  // HERON_INT_* bits, write 1 to HERON_REG_INT_ACK
#define HERON_REG_INT_ACK               0x0014
#define HERON_REG_INT_ENABLE            0x0018
#define HERON_REG_RING_BASE_LO          0x0020  // bus address of the ring
#define HERON_REG_RING_BASE_HI          0x0024
#define HERON_REG_RING_ENTRIES          0x0028
#define HERON_REG_RING_WPTR             0x002C  // the doorbell
#define HERON_REG_RING_RPTR             0x0030
#define HERON_REG_FENCE_COMPLETED       0x0040  // last submission fence retired
#define HERON_REG_FAULT_FENCE           0x0044
#define HERON_REG_ENGINE_RESET          0x0050  // write 1: reset the command processor

#define HERON_CHIP_ID_HR2               0x48524E02u // 'HRN' rev 2

#define HERON_INT_FENCE                 0x00000001u
#define HERON_INT_FAULT                 0x00000002u
#define HERON_INT_ALL                   (HERON_INT_FENCE | HERON_INT_FAULT)

//
// The GPU's memory map. Heron numbers its memory regions as the driver
// reports them as WDDM segments (QUERYSEGMENT, ids 1-based), and the GART
// packets name a region by that id:
//
//   1  local memory the CPU also reaches, through BAR 2 (128 MiB)
//   2  local memory behind it, GPU only (64 MiB)
//   3  the GART aperture over system memory (32 MiB)
//
// Addresses are the engine's: a packet's address operand is one of these,
// or a system-memory bus address (40 bits).
//
#define HERON_SEGMENT_LOCAL_VISIBLE     1
#define HERON_SEGMENT_LOCAL_HIDDEN      2
#define HERON_SEGMENT_GART              3
#define HERON_SEGMENT_COUNT             3

#define HERON_LOCAL_VISIBLE_BASE        0x0100000000ull
#define HERON_LOCAL_VISIBLE_SIZE        0x08000000ull
#define HERON_LOCAL_VISIBLE_CPU_BAR     0x00000000C0000000ull   // BAR 2: the CPU's view of region 1
#define HERON_LOCAL_HIDDEN_BASE         0x0108000000ull
#define HERON_LOCAL_HIDDEN_SIZE         0x04000000ull
#define HERON_GART_BASE                 0x0200000000ull
#define HERON_GART_SIZE                 0x02000000ull

//
// Where the platform decodes BAR 0, the MMIO window. A driver learns it
// from the translated resource list of DxgkCbGetDeviceInformation; the
// model of the GPU (a wddmkit binding) declares its register BAR there.
//
#define HERON_MMIO_PHYSICAL_BASE        0x00000000FD000000ull

//
// The ring: HERON_RING_ENTRIES descriptors of 32 bytes in host memory.
//
#define HERON_RING_ENTRIES              128

typedef struct _HERON_RING_ENTRY {
    ULONGLONG   DmaAddress;     // bus or segment address of the first packet
    ULONG       DmaLength;      // bytes
    ULONG       FenceId;        // written to HERON_REG_FENCE_COMPLETED when done
    ULONG       Flags;          // HERON_RING_FLAG_*
    ULONG       Reserved[3];
} HERON_RING_ENTRY, *PHERON_RING_ENTRY;

C_ASSERT(sizeof(HERON_RING_ENTRY) == 32);

#define HERON_RING_FLAG_PAGING          0x00000001u
#define HERON_RING_FLAG_INTERRUPT       0x00000002u

//
// Packets.
//
typedef enum _HERON_OPCODE {
    HERON_OP_NOP            = 0x00, // 1 dword
    HERON_OP_FILL           = 0x01, // hdr, dst lo, dst hi, bytes, pattern
    HERON_OP_COPY           = 0x02, // hdr, src lo, src hi, dst lo, dst hi, bytes
    HERON_OP_GART_WRITE     = 0x03, // hdr, segment, first page, count, then count x (pfn lo, pfn hi)
    HERON_OP_GART_CLEAR     = 0x04, // hdr, segment, first page, count, dummy lo, dummy hi
    HERON_OP_GART_INVALIDATE= 0x05, // hdr, segment
    HERON_OP_FENCE_WRITE    = 0x06, // hdr, addr lo, addr hi, value lo, value hi
    HERON_OP_CACHE_FLUSH    = 0x07, // hdr, addr lo, addr hi (flag 1: write back)
} HERON_OPCODE;

#define HERON_PACKET_HEADER(Op, Dwords, Flags) \
    ((ULONG)(Op) | ((ULONG)(Dwords) << 8) | ((ULONG)(Flags) << 16))

#define HERON_FILL_DWORDS               5
#define HERON_COPY_DWORDS               6
#define HERON_GART_WRITE_DWORDS(Count)  (4 + 2 * (Count))
#define HERON_GART_CLEAR_DWORDS         6
#define HERON_GART_INVALIDATE_DWORDS    2
#define HERON_FENCE_WRITE_DWORDS        5
#define HERON_CACHE_FLUSH_DWORDS        3

#define HERON_CACHE_FLUSH_WRITE_BACK    0x0001

//
// Byte offsets of the address operands a Render records patch locations for.
//
#define HERON_FILL_DST_OFFSET           4
#define HERON_COPY_SRC_OFFSET           4
#define HERON_COPY_DST_OFFSET           12

//
// Limits of the engine.
//
#define HERON_MAX_TRANSFER_BYTES        0x100000u   // one FILL or COPY moves at most 1 MiB
#define HERON_MAX_GART_PAGES_PER_PACKET 64u
#define HERON_PAGE_SIZE                 4096u
#define HERON_PAGE_SHIFT                12u
#define HERON_HIGHEST_BUS_ADDRESS       0xFFFFFFFFFFull // 40-bit DMA
