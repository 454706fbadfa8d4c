/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    render.c

Abstract:

    DxgkDdiRender (Heron's user-mode command stream into Heron packets),
    DxgkDdiPatch and DxgkDdiPresent.

    HERON_BUG_PATCH_ADDR (a planted bug, off unless defined): Patch keeps
    only the low 32 bits of each address, a ULONG where a ULONGLONG
    belongs. Every Heron address is above 4 GiB, so every patched slot is
    wrong.

    HERON_BUG_UMD_SKIP (a planted bug, off unless defined): Render takes a
    nonzero Reserved word in the stream's header as a count of bytes to
    skip before the first command (a draft of a later stream version) and
    never checks it against CommandLength, so it reads past pCommand. Only
    user mode sets that word: a fuzzer reaches it through the encoder's
    opaque bytes (wddmkit/binding.h), never through the abstract operations.

    Render reads Heron's UMD stream (heron_umd.h, the header the UMD and
    the miniport share): a HERON_UMD_HEADER, then CommandCount commands,
    each a FILL, a COPY or a NOP over (allocation index, offset)
    references.

    pCommand comes from user mode: the whole stream is checked before
    anything is written, so a bad one leaves every output where it was.
    Then each command becomes one packet, whole or not at all; when the
    next does not fit, MultipassOffset names that command and dxgkrnl calls
    again with a fresh buffer.

Environment:

    Kernel mode only.

--*/

#include "heron.h"
#include "heron_umd.h"

//
// The shared header spells the signature as a number; it is the tag the
// stream always carried.
//
C_ASSERT(HERON_UMD_SIGNATURE == 'DMUH');

typedef struct _HERON_RENDER_OUTPUT {
    PULONG                      Packets;
    ULONG                       CapacityDwords;
    ULONG                       UsedDwords;
    D3DDDI_PATCHLOCATIONLIST   *PatchLocation;
    ULONG                       PatchLocationsLeft;
} HERON_RENDER_OUTPUT;

static NTSTATUS HeronValidateUmdStream(_In_ const DXGKARG_RENDER *pRender, _Out_ PULONG CommandCount);

#pragma alloc_text(PAGE, HeronDdiRender)
#pragma alloc_text(PAGE, HeronValidateUmdStream)
#pragma alloc_text(PAGE, HeronDdiPresent)

//
// Where the first command starts: right after the header.
//
static
SIZE_T
HeronFirstCommandOffset(
    _In_ const DXGKARG_RENDER *pRender
    )
{
#ifdef HERON_BUG_UMD_SKIP
    HERON_UMD_HEADER Header;

    RtlCopyMemory(&Header, pRender->pCommand, sizeof(Header));
    return sizeof(HERON_UMD_HEADER) + Header.Reserved;
#else
    UNREFERENCED_PARAMETER(pRender);
    return sizeof(HERON_UMD_HEADER);
#endif
}

static
VOID
HeronReadUmdCommand(
    _In_ const DXGKARG_RENDER *pRender,
    _In_ ULONG Index,
    _Out_ HERON_UMD_COMMAND *Command
    )
{
    RtlCopyMemory(Command,
                  (const UCHAR *)pRender->pCommand + HeronFirstCommandOffset(pRender) +
                      (SIZE_T)Index * sizeof(*Command),
                  sizeof(*Command));
}

//
// A reference names a live Heron allocation of the list and stays inside it.
//
static
BOOLEAN
HeronReferenceIsValid(
    _In_ const DXGKARG_RENDER *pRender,
    _In_ const HERON_UMD_REFERENCE *Reference,
    _In_ ULONG Bytes
    )
{
    PHERON_ALLOCATION Allocation;

    if (pRender->pAllocationList == NULL || Reference->AllocationIndex >= pRender->AllocationListSize) {
        return FALSE;
    }
    Allocation = HeronAllocationFromHandle(
        pRender->pAllocationList[Reference->AllocationIndex].hDeviceSpecificAllocation);
    return Allocation != NULL && (ULONGLONG)Reference->Offset + Bytes <= Allocation->Size;
}

static
NTSTATUS
HeronValidateUmdStream(
    _In_ const DXGKARG_RENDER *pRender,
    _Out_ PULONG CommandCount
    )
{
    HERON_UMD_HEADER Header;
    ULONG Index;

    PAGED_CODE();

    *CommandCount = 0;
    if (pRender->pCommand == NULL || pRender->CommandLength < sizeof(Header)) {
        return STATUS_INVALID_PARAMETER;
    }

    RtlCopyMemory(&Header, pRender->pCommand, sizeof(Header));
    if (Header.Signature != HERON_UMD_SIGNATURE || Header.Version != HERON_UMD_VERSION) {
        return STATUS_INVALID_PARAMETER;    // not Heron's stream
    }
#ifndef HERON_BUG_UMD_SKIP
    if (Header.Reserved != 0) {
        return STATUS_INVALID_PARAMETER;
    }
#endif
    if ((ULONGLONG)Header.CommandCount * sizeof(HERON_UMD_COMMAND) + sizeof(Header) != pRender->CommandLength) {
        return STATUS_INVALID_USER_BUFFER;
    }
    if (pRender->MultipassOffset > Header.CommandCount) {
        return STATUS_INVALID_PARAMETER;
    }

    for (Index = 0; Index < Header.CommandCount; Index++) {
        HERON_UMD_COMMAND Command;
        BOOLEAN Valid;

        HeronReadUmdCommand(pRender, Index, &Command);
        switch (Command.Opcode) {
        case HeronUmdNop:
            Valid = TRUE;
            break;
        case HeronUmdFill:
            Valid = Command.Bytes != 0 && Command.Bytes <= HERON_MAX_TRANSFER_BYTES &&
                    HeronReferenceIsValid(pRender, &Command.Destination, Command.Bytes);
            break;
        case HeronUmdCopy:
            Valid = Command.Bytes != 0 && Command.Bytes <= HERON_MAX_TRANSFER_BYTES &&
                    HeronReferenceIsValid(pRender, &Command.Destination, Command.Bytes) &&
                    HeronReferenceIsValid(pRender, &Command.Source, Command.Bytes);
            break;
        default:
            return STATUS_ILLEGAL_INSTRUCTION;
        }
        if (!Valid || Command.Reserved != 0) {
            return STATUS_INVALID_PARAMETER;
        }
    }

    *CommandCount = Header.CommandCount;
    return STATUS_SUCCESS;
}

//
// The address operand at byte PatchOffset of the packet just written: its
// final address when the list already places the allocation, else zero
// until Patch; a patch location either way.
//
static
VOID
HeronBindAddress(
    _In_ const DXGKARG_RENDER *pRender,
    _Inout_ HERON_RENDER_OUTPUT *Output,
    _In_ const HERON_UMD_REFERENCE *Reference,
    _In_ ULONG PatchOffset,
    _In_ ULONG SlotId,
    _In_ ULONG SplitOffset
    )
{
    const DXGK_ALLOCATIONLIST *Entry = &pRender->pAllocationList[Reference->AllocationIndex];
    D3DDDI_PATCHLOCATIONLIST *PatchLocation;
    ULONGLONG Address = 0;

    if (Entry->SegmentId != 0) {
        Address = (ULONGLONG)Entry->PhysicalAddress.QuadPart + Reference->Offset;
    }
    RtlCopyMemory((PUCHAR)Output->Packets + PatchOffset, &Address, sizeof(Address));

    PatchLocation = Output->PatchLocation++;
    Output->PatchLocationsLeft--;
    RtlZeroMemory(PatchLocation, sizeof(*PatchLocation));
    PatchLocation->AllocationIndex = Reference->AllocationIndex;
    PatchLocation->AllocationOffset = Reference->Offset;
    PatchLocation->PatchOffset = PatchOffset;
    PatchLocation->SlotId = SlotId;
    PatchLocation->SplitOffset = SplitOffset;
}

static
BOOLEAN
HeronTranslateCommand(
    _In_ const DXGKARG_RENDER *pRender,
    _Inout_ HERON_RENDER_OUTPUT *Output,
    _In_ const HERON_UMD_COMMAND *Command
    )
{
    ULONG Start = Output->UsedDwords * sizeof(ULONG);
    ULONG Dwords;
    ULONG References;

    switch (Command->Opcode) {
    case HeronUmdFill:
        Dwords = HERON_FILL_DWORDS;
        References = 1;
        break;
    case HeronUmdCopy:
        Dwords = HERON_COPY_DWORDS;
        References = 2;
        break;
    default:
        return TRUE;
    }

    if (Output->CapacityDwords - Output->UsedDwords < Dwords || Output->PatchLocationsLeft < References) {
        return FALSE;
    }

    if (Command->Opcode == HeronUmdFill) {
        Output->Packets[Output->UsedDwords + 0] = HERON_PACKET_HEADER(HERON_OP_FILL, HERON_FILL_DWORDS, 0);
        Output->Packets[Output->UsedDwords + 3] = Command->Bytes;
        Output->Packets[Output->UsedDwords + 4] = Command->Pattern;
        HeronBindAddress(pRender, Output, &Command->Destination, Start + HERON_FILL_DST_OFFSET, 0, Start);
    } else {
        Output->Packets[Output->UsedDwords + 0] = HERON_PACKET_HEADER(HERON_OP_COPY, HERON_COPY_DWORDS, 0);
        Output->Packets[Output->UsedDwords + 5] = Command->Bytes;
        HeronBindAddress(pRender, Output, &Command->Source, Start + HERON_COPY_SRC_OFFSET, 0, Start);
        HeronBindAddress(pRender, Output, &Command->Destination, Start + HERON_COPY_DST_OFFSET, 1, Start);
    }
    Output->UsedDwords += Dwords;
    return TRUE;
}

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiRender(
    IN_CONST_HANDLE hContext,
    INOUT_PDXGKARG_RENDER pRender
    )
{
    HERON_RENDER_OUTPUT Output;
    ULONG CommandCount;
    ULONG Index;
    NTSTATUS Status;

    PAGED_CODE();

    if (HeronContextFromHandle(hContext) == NULL) {
        return STATUS_INVALID_HANDLE;
    }

    Status = HeronValidateUmdStream(pRender, &CommandCount);
    if (!NT_SUCCESS(Status)) {
        return Status;
    }

    Output.Packets = (PULONG)pRender->pDmaBuffer;
    Output.CapacityDwords = pRender->DmaSize / sizeof(ULONG);
    Output.UsedDwords = 0;
    Output.PatchLocation = pRender->pPatchLocationListOut;
    Output.PatchLocationsLeft = pRender->pPatchLocationListOut != NULL ? pRender->PatchLocationListOutSize : 0;

    Status = STATUS_SUCCESS;
    for (Index = pRender->MultipassOffset; Index < CommandCount; Index++) {
        HERON_UMD_COMMAND Command;

        HeronReadUmdCommand(pRender, Index, &Command);
        if (!HeronTranslateCommand(pRender, &Output, &Command)) {
            pRender->MultipassOffset = Index;
            Status = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
            break;
        }
    }

    pRender->pDmaBuffer = (PUCHAR)pRender->pDmaBuffer + Output.UsedDwords * sizeof(ULONG);
    pRender->pPatchLocationListOut = Output.PatchLocation;
    return Status;
}

//
// Patch cannot fail: an entry outside the submitted range or the list is
// skipped, an unbind entry (a NULL allocation handle) has no allocation to
// point at, an allocation that is not resident (SegmentId 0) has no address
// yet, an entry naming no segment Heron reported is none the kernel hands
// over (the allocation's segment is one of the adapter's), and a paging
// buffer has no patch locations.
//
_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiPatch(
    IN_CONST_HANDLE hAdapter,
    IN_CONST_PDXGKARG_PATCH pPatch
    )
{
    ULONGLONG End;
    ULONGLONG Last;
    ULONGLONG Index;

    UNREFERENCED_PARAMETER(hAdapter);

    if (pPatch->Flags.Paging || pPatch->pDmaBuffer == NULL || pPatch->pPatchLocationList == NULL ||
        pPatch->pAllocationList == NULL) {
        return STATUS_SUCCESS;
    }

    End = pPatch->DmaBufferSubmissionEndOffset;
    if (End > pPatch->DmaBufferSize) {
        End = pPatch->DmaBufferSize;
    }

    Last = (ULONGLONG)pPatch->PatchLocationListSubmissionStart + pPatch->PatchLocationListSubmissionLength;
    if (Last > pPatch->PatchLocationListSize) {
        Last = pPatch->PatchLocationListSize;
    }

    for (Index = pPatch->PatchLocationListSubmissionStart; Index < Last; Index++) {
        const D3DDDI_PATCHLOCATIONLIST *PatchLocation = &pPatch->pPatchLocationList[Index];
        const DXGK_ALLOCATIONLIST *Entry;
        ULONGLONG Address;

        if (PatchLocation->AllocationIndex >= pPatch->AllocationListSize ||
            PatchLocation->PatchOffset < pPatch->DmaBufferSubmissionStartOffset ||
            (ULONGLONG)PatchLocation->PatchOffset + sizeof(ULONGLONG) > End) {
            continue;
        }

        Entry = &pPatch->pAllocationList[PatchLocation->AllocationIndex];
        if (Entry->hDeviceSpecificAllocation == NULL || Entry->SegmentId == 0 ||
            Entry->SegmentId > HERON_SEGMENT_COUNT) {
            continue;
        }

        Address = (ULONGLONG)Entry->PhysicalAddress.QuadPart + PatchLocation->AllocationOffset;
#ifdef HERON_BUG_PATCH_ADDR
        Address = (ULONG)Address;
#endif
        RtlCopyMemory((PUCHAR)pPatch->pDmaBuffer + PatchLocation->PatchOffset, &Address, sizeof(Address));
    }

    return STATUS_SUCCESS;
}

//
// Heron is render only and has no present path of its own (no flip, no
// overlay, no scan-out): a present blt would come through its UMD's Render.
// DXGKARG_PRESENT is opaque in the kit, so no field is read either way.
//
_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiPresent(
    IN_CONST_HANDLE hContext,
    INOUT_PDXGKARG_PRESENT pPresent
    )
{
    PAGED_CODE();
    UNREFERENCED_PARAMETER(hContext);
    UNREFERENCED_PARAMETER(pPresent);
    return STATUS_NOT_SUPPORTED;
}
