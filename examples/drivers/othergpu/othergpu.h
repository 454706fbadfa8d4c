/* SPDX-License-Identifier: MIT */
/*
 * othergpu.h - what the files of the OtherGPU miniport share: its command
 * format, its segment layout and sizes, its object records, and the DDIs
 * each file implements.
 *
 * OtherGPU is an imaginary GPU, not the kit's GPU model: the driver uses
 * none of gpu.h, writes its own commands and does not declare
 * WK_DRIVER_TARGETS_GPU_MODEL, so `wddmkit conform` runs every contract
 * check on it and skips the checks of what a buffer did (--gpu none).
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
#ifndef OTHERGPU_H
#define OTHERGPU_H

#include "wddmkit/km.h"
#include "wddmkit/driver.h"

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

/* A cursor over a buffer the kernel handed over: commands are written
 * whole or not at all, so nothing lands past `size`. */
struct og_writer {
    BYTE *base;
    UINT size;
    UINT used;
};

/* commands.c */
void og_writer_init(struct og_writer *w, VOID *buffer, UINT size);
BOOLEAN og_room(const struct og_writer *w, UINT commands);
void og_emit(struct og_writer *w, UINT op, UINT a, UINT b, UINT c);
void og_emit_addr(struct og_writer *w, UINT op, UINT64 address, UINT c);
void og_encode_addr(BYTE *at, UINT64 address);

/* Pool tag 'OGpu' and record magics: a handle the kernel passes back is
 * used only when its record carries its magic. */
#define OG_TAG 0x7570474Fu
#define OG_DEVICE_MAGIC 0x7665444Fu
#define OG_CONTEXT_MAGIC 0x7874434Fu
#define OG_ALLOCATION_MAGIC 0x6C6C414Fu

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
#define OG_PAGING_BUFFER_SIZE 0x2000u  /* 8 KiB */
#ifdef OG_DMA_IN_GART                  /* PagingBufferSegmentId: system memory, or the GART */
#define OG_PAGING_SEGMENT OG_SEGMENT_GART
#else
#define OG_PAGING_SEGMENT 0u
#endif
#ifndef OG_DMA_BUFFER_SIZE             /* a variant may ask for more */
#define OG_DMA_BUFFER_SIZE 0x2000u     /* 8 KiB per context */
#endif
#define OG_ALLOCATION_LIST_SIZE 64u
#define OG_GDI_ALLOCATION_LIST_SIZE 256u /* fixed by the DDI (CTX-GDI-001) */
#define OG_PATCH_LIST_SIZE 256u
#define OG_COPY_CHUNK 0x40000u         /* 256 KiB per COPY or FILL record */
#define OG_MAX_SLOT_ID 2u              /* a render group binds two addresses */
#define OG_PRIORITY_NORMAL 0x78000000u

struct og_adapter {
    DXGKRNL_INTERFACE kernel;   /* callbacks, from StartDevice */
    ULONG last_submitted_fence; /* the software ring's tail */
};

struct og_device {
    UINT magic;
};

struct og_context {
    UINT magic;
};

struct og_allocation {
    UINT magic;
    UINT64 size;                /* bytes, as answered in DXGK_ALLOCATIONINFO.Size */
};

/* objects.c: the record behind a handle, or NULL when it is not a live
 * record of this driver. */
const struct og_allocation *og_allocation_get(HANDLE handle);
const struct og_context *og_context_get(HANDLE handle);

/* othergpu.c */
DXGKDDI_ADD_DEVICE OgAddDevice;
DXGKDDI_START_DEVICE OgStartDevice;
DXGKDDI_STOP_DEVICE OgStopDevice;
DXGKDDI_REMOVE_DEVICE OgRemoveDevice;
/* segments.c */
DXGKDDI_QUERYADAPTERINFO OgQueryAdapterInfo;
/* objects.c */
DXGKDDI_CREATEDEVICE OgCreateDevice;
DXGKDDI_DESTROYDEVICE OgDestroyDevice;
DXGKDDI_CREATECONTEXT OgCreateContext;
DXGKDDI_DESTROYCONTEXT OgDestroyContext;
DXGKDDI_CREATEALLOCATION OgCreateAllocation;
DXGKDDI_DESTROYALLOCATION OgDestroyAllocation;
/* paging.c */
DXGKDDI_BUILDPAGINGBUFFER OgBuildPagingBuffer;
/* render.c */
DXGKDDI_RENDER OgRender;
/* submit.c */
DXGKDDI_PATCH OgPatch;
DXGKDDI_SUBMITCOMMAND OgSubmitCommand;
DXGKDDI_INTERRUPT_ROUTINE OgInterruptRoutine;
DXGKDDI_DPC_ROUTINE OgDpcRoutine;

#endif /* OTHERGPU_H */
