/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    escape.c

Abstract:

    DxgkDdiEscape: Heron's private channel from its user-mode tools.

    pPrivateDriverData starts with a HERON_ESCAPE_HEADER naming the request
    and the size the caller gave; the answer is written in place. The
    buffer is user data: its size and every field are checked, and
    nothing is read from it twice.

Environment:

    Kernel mode only, PASSIVE_LEVEL.

--*/

#include "heron.h"

#define HERON_ESCAPE_SIGNATURE      'CSEH'

typedef enum _HERON_ESCAPE_CODE {
    HeronEscapeGetInfo = 1,         // HERON_ESCAPE_INFO out
    HeronEscapeGetFences = 2,       // HERON_ESCAPE_FENCES out
    HeronEscapeSetDebugLevel = 3,   // HERON_ESCAPE_DEBUG_LEVEL in
} HERON_ESCAPE_CODE;

typedef struct _HERON_ESCAPE_HEADER {
    ULONG   Signature;
    ULONG   Code;
    ULONG   Size;           // bytes of the whole request, header included
    NTSTATUS Status;        // out
} HERON_ESCAPE_HEADER;

typedef struct _HERON_ESCAPE_INFO {
    HERON_ESCAPE_HEADER Header;
    ULONG   ChipId;
    ULONG   SegmentCount;
    ULONG   DmaBufferSize;
    ULONG   PagingBufferSize;
    ULONG   ResetCount;
    ULONG   Reserved;
} HERON_ESCAPE_INFO;

typedef struct _HERON_ESCAPE_FENCES {
    HERON_ESCAPE_HEADER Header;
    ULONG   LastSubmitted;
    ULONG   LastRetired;
    ULONG   Pending;
    ULONG   Abandoned;
} HERON_ESCAPE_FENCES;

typedef struct _HERON_ESCAPE_DEBUG_LEVEL {
    HERON_ESCAPE_HEADER Header;
    ULONG   Level;
    ULONG   Reserved;
} HERON_ESCAPE_DEBUG_LEVEL;

#pragma alloc_text(PAGE, HeronDdiEscape)

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiEscape(
    IN_CONST_HANDLE hAdapter,
    IN_CONST_PDXGKARG_ESCAPE pEscape
    )
{
    PHERON_ADAPTER Adapter = HeronAdapterFromHandle(hAdapter);
    HERON_ESCAPE_HEADER Header;

    PAGED_CODE();

    if (Adapter == NULL || pEscape == NULL || pEscape->pPrivateDriverData == NULL ||
        pEscape->PrivateDriverDataSize < sizeof(Header)) {
        return STATUS_INVALID_PARAMETER;
    }

    //
    // A device handle, when given, must be one of Heron's. No request
    // touches the hardware directly (Flags.HardwareAccess is not needed).
    //
    if (pEscape->hDevice != NULL && HeronDeviceFromHandle(pEscape->hDevice) == NULL) {
        return STATUS_INVALID_HANDLE;
    }

    RtlCopyMemory(&Header, pEscape->pPrivateDriverData, sizeof(Header));
    if (Header.Signature != HERON_ESCAPE_SIGNATURE || Header.Size != pEscape->PrivateDriverDataSize) {
        return STATUS_INVALID_PARAMETER;
    }

    switch (Header.Code) {
    case HeronEscapeGetInfo: {
        HERON_ESCAPE_INFO Info;

        if (Header.Size != sizeof(Info)) {
            return STATUS_INVALID_PARAMETER;
        }
        RtlZeroMemory(&Info, sizeof(Info));
        Info.Header = Header;
        Info.Header.Status = STATUS_SUCCESS;
        Info.ChipId = Adapter->Registers != NULL ? HeronReadRegister(Adapter, HERON_REG_CHIP_ID) : 0;
        Info.SegmentCount = HERON_SEGMENT_COUNT;
        Info.DmaBufferSize = HeronGlobals.Settings.DmaBufferSize;
        Info.PagingBufferSize = HeronGlobals.Settings.PagingBufferSize;
        Info.ResetCount = Adapter->ResetCount;
        RtlCopyMemory(pEscape->pPrivateDriverData, &Info, sizeof(Info));
        return STATUS_SUCCESS;
    }

    case HeronEscapeGetFences: {
        HERON_ESCAPE_FENCES Fences;

        if (Header.Size != sizeof(Fences)) {
            return STATUS_INVALID_PARAMETER;
        }
        RtlZeroMemory(&Fences, sizeof(Fences));
        Fences.Header = Header;
        Fences.Header.Status = STATUS_SUCCESS;
        HeronQueryFences(Adapter, &Fences.LastSubmitted, &Fences.LastRetired, &Fences.Pending);
        Fences.Abandoned = Adapter->AbandonedCount;
        RtlCopyMemory(pEscape->pPrivateDriverData, &Fences, sizeof(Fences));
        return STATUS_SUCCESS;
    }

    case HeronEscapeSetDebugLevel: {
        HERON_ESCAPE_DEBUG_LEVEL Request;

        if (Header.Size != sizeof(Request)) {
            return STATUS_INVALID_PARAMETER;
        }
        RtlCopyMemory(&Request, pEscape->pPrivateDriverData, sizeof(Request));
        if (Request.Level > DPFLTR_INFO_LEVEL || Request.Reserved != 0) {
            return STATUS_INVALID_PARAMETER;
        }
        HeronGlobals.Settings.DebugLevel = Request.Level;
        Header.Status = STATUS_SUCCESS;
        RtlCopyMemory(pEscape->pPrivateDriverData, &Header, sizeof(Header));
        return STATUS_SUCCESS;
    }

    default:
        return STATUS_INVALID_PARAMETER;
    }
}
