/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    heron_umd.h

Abstract:

    The interface between Heron's user-mode driver (UMD) and its kernel-mode
    miniport: the bytes that travel through dxgkrnl without dxgkrnl reading
    them.

      - Render's pCommand: Heron's UMD command stream (HERON_UMD_*), which
        DxgkDdiRender (render.c) turns into Heron packets;
      - DXGKQAITYPE_UMDRIVERPRIVATE: what the miniport tells its UMD about
        the adapter (query.c).

    Both sides compile this header: the UMD in user mode, the miniport in
    kernel mode, and a model of the GPU (a wddmkit binding, whose encoder
    writes this stream) on a host. So it stands on its own: fixed-width
    <stdint.h> types, no kernel header, no multi-character constants.
    Everything is little-endian; every field is untrusted on the kernel
    side.

    The command stream:

        HERON_UMD_HEADER, then CommandCount x HERON_UMD_COMMAND

    A FILL writes Bytes of Pattern (byte 0 first) at Destination; a COPY
    copies Bytes from Source to Destination; a NOP does nothing. A FILL or
    COPY moves 1 to HERON_MAX_TRANSFER_BYTES bytes (heron_hw.h). A
    reference is an index into the allocation list Render is handed and a
    byte offset inside that allocation; the miniport turns it into a GPU
    address and a patch location.

--*/

#pragma once

#include <stdint.h>

#ifdef __cplusplus
#define HERON_UMD_STATIC_ASSERT(Condition) static_assert(Condition, #Condition)
#else
#define HERON_UMD_STATIC_ASSERT(Condition) _Static_assert(Condition, #Condition)
#endif

//
// The command stream (Render's pCommand).
//
#define HERON_UMD_SIGNATURE     0x444D5548u     // 'DMUH'
#define HERON_UMD_VERSION       1u

typedef enum _HERON_UMD_OPCODE {
    HeronUmdNop = 0,
    HeronUmdFill = 1,
    HeronUmdCopy = 2,
} HERON_UMD_OPCODE;

typedef struct _HERON_UMD_HEADER {
    uint32_t    Signature;      // HERON_UMD_SIGNATURE
    uint32_t    Version;        // HERON_UMD_VERSION
    uint32_t    CommandCount;   // commands that follow, nothing after them
    uint32_t    Reserved;       // 0
} HERON_UMD_HEADER;

typedef struct _HERON_UMD_REFERENCE {
    uint32_t    AllocationIndex;
    uint32_t    Offset;
} HERON_UMD_REFERENCE;

typedef struct _HERON_UMD_COMMAND {
    uint32_t            Opcode;         // HERON_UMD_OPCODE
    uint32_t            Bytes;          // FILL, COPY
    uint32_t            Pattern;        // FILL
    uint32_t            Reserved;       // 0
    HERON_UMD_REFERENCE Destination;    // FILL, COPY
    HERON_UMD_REFERENCE Source;         // COPY
} HERON_UMD_COMMAND;

HERON_UMD_STATIC_ASSERT(sizeof(HERON_UMD_HEADER) == 16);
HERON_UMD_STATIC_ASSERT(sizeof(HERON_UMD_COMMAND) == 32);

//
// What the miniport reports through DXGKQAITYPE_UMDRIVERPRIVATE.
//
#define HERON_UMD_INFO_VERSION  1u

typedef struct _HERON_UMD_ADAPTER_INFO {
    uint32_t    Version;            // HERON_UMD_INFO_VERSION
    uint32_t    ChipId;             // HERON_REG_CHIP_ID, 0 before the window is mapped
    uint32_t    SegmentCount;
    uint32_t    DmaBufferSize;
    uint32_t    MaxTransferBytes;   // HERON_MAX_TRANSFER_BYTES
    uint32_t    Reserved[3];
} HERON_UMD_ADAPTER_INFO, *PHERON_UMD_ADAPTER_INFO;

HERON_UMD_STATIC_ASSERT(sizeof(HERON_UMD_ADAPTER_INFO) == 32);
