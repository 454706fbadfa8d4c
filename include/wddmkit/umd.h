/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/umd.h - what the kit hands a driver where Windows would hand it
 * data from the user-mode driver (UMD).
 *
 * Two DDIs carry UMD-private bytes the kernel never interprets:
 * CreateAllocation's pPrivateDriverData and Render's pCommand. Real drivers
 * define those formats between their own UMD and KMD; the kit plays the UMD,
 * so it fixes one format for each, documented here and in
 * docs/writing-a-driver.md. A driver under test that wants the allocation
 * and render cases to run accepts these formats (it may accept its own as
 * well; cases that need them are skipped for drivers that decline).
 *
 * Everything is little-endian and fixed-width; every field is untrusted on
 * the driver side (a fuzzer writes these bytes).
 */
#ifndef WDDMKIT_UMD_H
#define WDDMKIT_UMD_H

#include "wddmkit/d3dkmddi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Allocation requests: CreateAllocation's per-allocation private data   */
/* ------------------------------------------------------------------ */

#define WK_ALLOCATION_REQUEST_MAGIC 0x41524B57u /* 'WKRA' */
#define WK_ALLOCATION_REQUEST_VERSION 1u

/*
 * One allocation as the UMD asks for it. The driver validates it and answers
 * with a DXGK_ALLOCATIONINFO: it may round Size and Alignment up to what its
 * hardware needs, and copies the placement fields when they are valid for
 * its segments (facts 4.9, 5.6): the PreferredSegment and HintedBank
 * entries in their order, each once, leaving out only a segment it does not
 * support for the allocation or a bank its segment lacks; EvictionSegmentSet
 * less what is not an aperture. It keeps every Flags bit asked (it may set
 * more that its hardware needs) or refuses the request. A request of Size 0
 * is refused.
 */
typedef struct _WK_ALLOCATION_REQUEST {
    UINT Magic;                                 /* WK_ALLOCATION_REQUEST_MAGIC */
    UINT Version;                               /* WK_ALLOCATION_REQUEST_VERSION */
    UINT64 Size;                                /* bytes, > 0: a request of 0 is refused (INVALID_PARAMETER) */
    UINT Alignment;                             /* bytes, 0 or a power of two */
    D3DDDI_SEGMENTPREFERENCE PreferredSegment;  /* as in DXGK_ALLOCATIONINFO */
    DXGK_SEGMENTBANKPREFERENCE HintedBank;
    UINT SupportedSegmentSet;                   /* bit (id-1) per segment id */
    UINT EvictionSegmentSet;
    DXGK_ALLOCATIONINFOFLAGS Flags;
    UINT Priority;                              /* 0: the driver's default */
    UINT Reserved;                              /* 0 */
} WK_ALLOCATION_REQUEST;

WK_STATIC_ASSERT(sizeof(WK_ALLOCATION_REQUEST) == 48, "kit UMD allocation request");

/* ------------------------------------------------------------------ */
/* User command buffers: Render's pCommand                               */
/* ------------------------------------------------------------------ */

/*
 * A command buffer is a header followed by records. Each record starts with
 * its opcode and its total length in bytes (header included), so a driver
 * can skip and bound every record. Memory is referenced as (allocation list
 * index, byte offset): the driver turns each reference into a GPU address,
 * writes it now if the allocation list already says where the allocation is
 * (pre-patching, facts 5.2 R6), and records a patch location for it either
 * way (R7).
 *
 * What a driver that reads this format accepts (the suite's render cases
 * hold a driver that declares WK_DRIVER_READS_KIT_UMD to it, driver.h):
 *   - a record's Length is at least its op's struct (a NOP: WK_USER_RECORD)
 *     and may be larger: the tail is skipped;
 *   - a reference is valid when its bytes lie inside the allocation, 0 bytes
 *     included (even at its very end): a COPY or FILL of Size 0, a BLIT of
 *     Width or Height 0, does nothing;
 *   - a BLIT's rows start Pitch bytes apart, for any Pitch: 0 repeats one
 *     row, a Pitch below the Width makes rows overlap;
 *   - Reserved fields are 0, and an Op outside WK_USER_OP is refused with
 *     STATUS_ILLEGAL_INSTRUCTION.
 * And what it refuses: Render fails, and none of the buffer's records is
 * executed (one bad record makes the whole buffer invalid, wherever it is):
 *   - a header that is short (CommandLength under 16), or whose Magic,
 *     Version or Reserved is not the above;
 *   - records that do not fill the buffer exactly: fewer bytes than
 *     RecordCount records need (a record cut short, a count too high), or
 *     bytes after the last of them (even a well-formed record: RecordCount
 *     says how many there are);
 *   - a record whose Length is under 8 (its own header) or under its op's
 *     struct, or runs past CommandLength;
 *   - a record with a nonzero Reserved field, or an unknown Op;
 *   - a reference whose AllocationIndex is not below AllocationListSize, or
 *     names a NULL (unbinding) list entry, or whose bytes run past its
 *     allocation (Offset + Size, a BLIT side's wk_user_blit_extent, in
 *     64-bit arithmetic: a sum that wraps is past the end).
 * The suite's render cases hold every driver that reads the format to
 * these; which failure status it returns is its own (the reference driver's
 * are in docs/refdriver.md).
 * The format sets no limit on sizes; hardware may (the GPU model's BLIT
 * takes at most 16384 rows of 1 MiB: docs/gpu-model.md), and a driver
 * refuses what its own cannot do. The cases at the GPU model's limits
 * (`requires: gpu-model-limits`) judge only a driver of that GPU.
 */
#define WK_USER_COMMAND_MAGIC 0x42434B57u /* 'WKCB' */
#define WK_USER_COMMAND_VERSION 1u

typedef struct _WK_USER_COMMAND_HEADER {
    UINT Magic;        /* WK_USER_COMMAND_MAGIC */
    UINT Version;      /* WK_USER_COMMAND_VERSION */
    UINT RecordCount;  /* records that follow */
    UINT Reserved;     /* 0 */
} WK_USER_COMMAND_HEADER;

typedef enum _WK_USER_OP {
    WK_USER_OP_NOP = 0,     /* WK_USER_RECORD only */
    WK_USER_OP_COPY = 1,    /* WK_USER_COPY */
    WK_USER_OP_FILL = 2,    /* WK_USER_FILL */
    WK_USER_OP_WRITE32 = 3, /* WK_USER_WRITE32 */
    WK_USER_OP_BLIT = 4,    /* WK_USER_BLIT */
    WK_USER_OP_COUNT
} WK_USER_OP;

typedef struct _WK_USER_RECORD {
    UINT Op;      /* WK_USER_OP */
    UINT Length;  /* bytes of the whole record */
} WK_USER_RECORD;

/* A memory reference: allocation-list index and byte offset inside it. */
typedef struct _WK_USER_REF {
    UINT AllocationIndex;
    UINT Offset;
} WK_USER_REF;

typedef struct _WK_USER_COPY {
    WK_USER_RECORD Record;
    WK_USER_REF Source;
    WK_USER_REF Destination;
    UINT Size;
    UINT Reserved;
} WK_USER_COPY;

typedef struct _WK_USER_FILL {
    WK_USER_RECORD Record;
    WK_USER_REF Destination;
    UINT Size;
    UINT Pattern;
} WK_USER_FILL;

typedef struct _WK_USER_WRITE32 {
    WK_USER_RECORD Record;
    WK_USER_REF Destination;
    UINT Value;
    UINT Reserved;
} WK_USER_WRITE32;

typedef struct _WK_USER_BLIT {
    WK_USER_RECORD Record;
    WK_USER_REF Source;
    WK_USER_REF Destination;
    UINT Width;     /* bytes per row */
    UINT Height;    /* rows */
    UINT SourcePitch;
    UINT DestinationPitch;
} WK_USER_BLIT;

/* The bytes one side of a BLIT spans from its reference: the first row's
 * start to the last row's end, rows Pitch bytes apart; 0 when Width or
 * Height is 0 (the BLIT does nothing). What a reference's bounds are checked
 * against (a valid reference's bytes lie inside its allocation, above). */
static inline UINT64 wk_user_blit_extent(UINT width, UINT height, UINT pitch)
{
    return width && height ? (UINT64)(height - 1) * pitch + width : 0;
}

WK_STATIC_ASSERT(sizeof(WK_USER_COMMAND_HEADER) == 16, "kit UMD command header");
WK_STATIC_ASSERT(sizeof(WK_USER_COPY) == 32, "kit UMD COPY record");
WK_STATIC_ASSERT(sizeof(WK_USER_FILL) == 24, "kit UMD FILL record");
WK_STATIC_ASSERT(sizeof(WK_USER_WRITE32) == 24, "kit UMD WRITE32 record");
WK_STATIC_ASSERT(sizeof(WK_USER_BLIT) == 40, "kit UMD BLIT record");

/* ------------------------------------------------------------------ */
/* Context-allocation update blob (DxgkCbUpdateContextAllocation)        */
/* ------------------------------------------------------------------ */

/* Nothing is fixed here: the blob passes from the driver's own call to its
 * own UpdateContextAllocation paging operation untouched (facts 5.8 A6). */

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_UMD_H */
