/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    paging.c

Abstract:

    DxgkDdiBuildPagingBuffer: the memory manager's operations as Heron
    packets (heron_hw.h).

    Multipass: an operation that does not fit writes the whole packets that
    do, returns STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER and is called again
    in a fresh buffer with the same arguments and the MultipassOffset it
    left. All progress lives there: pages done for transfers and fills
    (every stop before the end is page aligned), pages mapped for a map, a
    step number for an unmap. pDmaBuffer moves past what was written and
    DmaSize shrinks by as much.

    Planted bugs, each off unless its define is set (CMakeLists.txt builds
    a module per bug, for the kit's semantic checks to catch):

      HERON_BUG_FILL_BYTE       a FILL packet carries FillPattern with its
                                byte 3 inverted: one wrong byte in four
      HERON_BUG_TRANSFER_OFFSET a transfer ignores TransferOffset on the
                                segment side
      HERON_BUG_UNMAP_DUMMY     an unmap writes no GART_CLEAR: the pages
                                keep their old frames, not DummyPage

Environment:

    Kernel mode only.

--*/

#include "heron.h"

//
// A cursor over the buffer dxgkrnl handed over: packets are written whole
// or not at all.
//
typedef struct _HERON_PACKET_WRITER {
    PULONG  Base;
    ULONG   CapacityDwords;
    ULONG   UsedDwords;
} HERON_PACKET_WRITER, *PHERON_PACKET_WRITER;

static
VOID
HeronWriterInit(
    _Out_ PHERON_PACKET_WRITER Writer,
    _In_ PVOID Buffer,
    _In_ ULONG Bytes
    )
{
    Writer->Base = (PULONG)Buffer;
    Writer->CapacityDwords = Bytes / sizeof(ULONG);
    Writer->UsedDwords = 0;
}

static
BOOLEAN
HeronWriterHasRoom(
    _In_ const HERON_PACKET_WRITER *Writer,
    _In_ ULONG Dwords
    )
{
    return Writer->CapacityDwords - Writer->UsedDwords >= Dwords;
}

static
VOID
HeronEmit(
    _Inout_ PHERON_PACKET_WRITER Writer,
    _In_ ULONG Dword
    )
{
    NT_ASSERT(Writer->UsedDwords < Writer->CapacityDwords);
    Writer->Base[Writer->UsedDwords++] = Dword;
}

static
VOID
HeronEmitAddress(
    _Inout_ PHERON_PACKET_WRITER Writer,
    _In_ ULONGLONG Address
    )
{
    HeronEmit(Writer, (ULONG)Address);
    HeronEmit(Writer, (ULONG)(Address >> 32));
}

static
NTSTATUS
HeronFinish(
    _Inout_ DXGKARG_BUILDPAGINGBUFFER *Args,
    _In_ const HERON_PACKET_WRITER *Writer
    )
{
    ULONG Bytes = Writer->UsedDwords * sizeof(ULONG);

    Args->pDmaBuffer = (PBYTE)Args->pDmaBuffer + Bytes;
    Args->DmaSize -= Bytes;
    return STATUS_SUCCESS;
}

//
// The buffer is full: the next pass resumes at Progress.
//
static
NTSTATUS
HeronNeedRoom(
    _Inout_ DXGKARG_BUILDPAGINGBUFFER *Args,
    _In_ const HERON_PACKET_WRITER *Writer,
    _In_ ULONGLONG Progress
    )
{
    NT_ASSERT(Progress <= MAXULONG);
    (VOID)HeronFinish(Args, Writer);
    Args->MultipassOffset = (UINT)Progress;
    return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static
ULONGLONG
HeronMin(
    _In_ ULONGLONG A,
    _In_ ULONGLONG B
    )
{
    return A < B ? A : B;
}

//
// Pages an MDL describes from page FirstPage on.
//
static
ULONGLONG
HeronMdlPagesFrom(
    _In_opt_ PMDL Mdl,
    _In_ ULONGLONG FirstPage
    )
{
    ULONGLONG Pages;

    if (Mdl == NULL) {
        return 0;
    }
    Pages = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlByteOffset(Mdl), MmGetMdlByteCount(Mdl));
    return FirstPage < Pages ? Pages - FirstPage : 0;
}

//
// One side of a transfer: a segment address (TransferOffset applies to
// segment sides only), or system pages reached at pfn << 12, never assumed
// consecutive.
//
typedef struct _HERON_SIDE {
    BOOLEAN         System;
    ULONGLONG       Address;
    PPFN_NUMBER     Pfns;
    ULONGLONG       Pages;
} HERON_SIDE;

static
HERON_SIDE
HeronSide(
    _In_ UINT SegmentId,
    _In_ LARGE_INTEGER SegmentAddress,
    _In_ UINT TransferOffset,
    _In_opt_ PMDL Mdl,
    _In_ ULONGLONG FirstPage
    )
{
    HERON_SIDE Side;

    RtlZeroMemory(&Side, sizeof(Side));
    if (SegmentId != 0) {
#ifdef HERON_BUG_TRANSFER_OFFSET
        UNREFERENCED_PARAMETER(TransferOffset);
        Side.Address = (ULONGLONG)SegmentAddress.QuadPart;
#else
        Side.Address = (ULONGLONG)SegmentAddress.QuadPart + TransferOffset;
#endif
        return Side;
    }

    Side.System = TRUE;
    Side.Pages = HeronMdlPagesFrom(Mdl, FirstPage);
    if (Side.Pages != 0) {
        Side.Pfns = MmGetMdlPfnArray(Mdl) + FirstPage;
    }
    return Side;
}

//
// Bus address of byte Done of a side, and the bytes contiguous from there
// (0 past the MDL's last page).
//
static
ULONGLONG
HeronSideAt(
    _In_ const HERON_SIDE *Side,
    _In_ ULONGLONG Done,
    _Out_ PULONGLONG Contiguous
    )
{
    ULONGLONG Page = Done >> HERON_PAGE_SHIFT;
    ULONGLONG InPage = Done & (HERON_PAGE_SIZE - 1);

    if (!Side->System) {
        *Contiguous = MAXULONGLONG;
        return Side->Address + Done;
    }
    if (Page >= Side->Pages) {
        *Contiguous = 0;
        return 0;
    }
    *Contiguous = HERON_PAGE_SIZE - InPage;
    return ((ULONGLONG)Side->Pfns[Page] << HERON_PAGE_SHIFT) + InPage;
}

//
// COPY packets. A move inside GPU memory onto the end of its own source
// goes from the end, so no packet overwrites bytes a later one reads.
//
static
NTSTATUS
HeronBuildTransfer(
    _Inout_ DXGKARG_BUILDPAGINGBUFFER *Args,
    _In_ ULONGLONG Size,
    _In_ HERON_SIDE Source,
    _In_ HERON_SIDE Destination
    )
{
    HERON_PACKET_WRITER Writer;
    BOOLEAN Backward;
    ULONGLONG Done;

    HeronWriterInit(&Writer, Args->pDmaBuffer, Args->DmaSize);
    Backward = !Source.System && !Destination.System && Destination.Address > Source.Address &&
               Destination.Address - Source.Address < Size;
    Done = (ULONGLONG)Args->MultipassOffset << HERON_PAGE_SHIFT;

    while (Done < Size) {
        ULONGLONG Bytes = HeronMin(Size - Done, HERON_MAX_TRANSFER_BYTES);
        ULONGLONG From;
        ULONGLONG To;

        if (Backward) {
            From = Source.Address + Size - Done - Bytes;
            To = Destination.Address + Size - Done - Bytes;
        } else {
            ULONGLONG SourceRoom;
            ULONGLONG DestinationRoom;

            From = HeronSideAt(&Source, Done, &SourceRoom);
            To = HeronSideAt(&Destination, Done, &DestinationRoom);
            Bytes = HeronMin(Bytes, HeronMin(SourceRoom, DestinationRoom));
            if (Bytes == 0) {
                break;  // an MDL shorter than the transfer: stop at its end
            }
        }

        if (!HeronWriterHasRoom(&Writer, HERON_COPY_DWORDS)) {
            return HeronNeedRoom(Args, &Writer, Done >> HERON_PAGE_SHIFT);
        }
        HeronEmit(&Writer, HERON_PACKET_HEADER(HERON_OP_COPY, HERON_COPY_DWORDS, 0));
        HeronEmitAddress(&Writer, From);
        HeronEmitAddress(&Writer, To);
        HeronEmit(&Writer, (ULONG)Bytes);
        Done += Bytes;
    }

    return HeronFinish(Args, &Writer);
}

static
NTSTATUS
HeronBuildFill(
    _Inout_ DXGKARG_BUILDPAGINGBUFFER *Args
    )
{
    HERON_PACKET_WRITER Writer;
    const ULONGLONG Size = Args->Fill.FillSize;
    const ULONGLONG Base = (ULONGLONG)Args->Fill.Destination.SegmentAddress.QuadPart;
    ULONGLONG Done = (ULONGLONG)Args->MultipassOffset << HERON_PAGE_SHIFT;

    HeronWriterInit(&Writer, Args->pDmaBuffer, Args->DmaSize);
    while (Done < Size) {
        ULONGLONG Bytes = HeronMin(Size - Done, HERON_MAX_TRANSFER_BYTES);

        if (!HeronWriterHasRoom(&Writer, HERON_FILL_DWORDS)) {
            return HeronNeedRoom(Args, &Writer, Done >> HERON_PAGE_SHIFT);
        }
        HeronEmit(&Writer, HERON_PACKET_HEADER(HERON_OP_FILL, HERON_FILL_DWORDS, 0));
        HeronEmitAddress(&Writer, Base + Done);
        HeronEmit(&Writer, (ULONG)Bytes);
#ifdef HERON_BUG_FILL_BYTE
        HeronEmit(&Writer, Args->Fill.FillPattern ^ 0xFF000000u);
#else
        HeronEmit(&Writer, Args->Fill.FillPattern);
#endif
        Done += Bytes;
    }

    return HeronFinish(Args, &Writer);
}

//
// GART_WRITE packets of up to 64 pages from MdlOffset on, then a
// GART_INVALIDATE. Progress is pages written; the invalidate goes in the
// pass that writes the last page, or alone in the next.
//
static
NTSTATUS
HeronBuildMapAperture(
    _Inout_ DXGKARG_BUILDPAGINGBUFFER *Args
    )
{
    HERON_PACKET_WRITER Writer;
    const UINT SegmentId = Args->MapApertureSegment.SegmentId;
    PMDL Mdl = Args->MapApertureSegment.pMdl;
    const ULONGLONG FirstPage = Args->MapApertureSegment.MdlOffset;
    const ULONGLONG Total = HeronMin(Args->MapApertureSegment.NumberOfPages, HeronMdlPagesFrom(Mdl, FirstPage));
    ULONGLONG Done = HeronMin(Args->MultipassOffset, Total);

    HeronWriterInit(&Writer, Args->pDmaBuffer, Args->DmaSize);
    while (Done < Total) {
        ULONG Room = Writer.CapacityDwords - Writer.UsedDwords;
        ULONGLONG Count;
        ULONGLONG Page;

        if (Room < HERON_GART_WRITE_DWORDS(1)) {
            return HeronNeedRoom(Args, &Writer, Done);
        }
        Count = HeronMin(HeronMin(Total - Done, HERON_MAX_GART_PAGES_PER_PACKET), (Room - 4) / 2);

        HeronEmit(&Writer, HERON_PACKET_HEADER(HERON_OP_GART_WRITE, HERON_GART_WRITE_DWORDS(Count), 0));
        HeronEmit(&Writer, SegmentId);
        HeronEmit(&Writer, (ULONG)(Args->MapApertureSegment.OffsetInPages + Done));
        HeronEmit(&Writer, (ULONG)Count);
        for (Page = 0; Page < Count; Page++) {
            HeronEmitAddress(&Writer, (ULONGLONG)MmGetMdlPfnArray(Mdl)[FirstPage + Done + Page]);
        }
        Done += Count;
    }

    if (!HeronWriterHasRoom(&Writer, HERON_GART_INVALIDATE_DWORDS)) {
        return HeronNeedRoom(Args, &Writer, Done);
    }
    HeronEmit(&Writer, HERON_PACKET_HEADER(HERON_OP_GART_INVALIDATE, HERON_GART_INVALIDATE_DWORDS, 0));
    HeronEmit(&Writer, SegmentId);
    return HeronFinish(Args, &Writer);
}

//
// One GART_CLEAR pointing the range at DummyPage (step 0), then a
// GART_INVALIDATE (step 1).
//
static
NTSTATUS
HeronBuildUnmapAperture(
    _Inout_ DXGKARG_BUILDPAGINGBUFFER *Args
    )
{
    HERON_PACKET_WRITER Writer;
    const UINT SegmentId = Args->UnmapApertureSegment.SegmentId;

    HeronWriterInit(&Writer, Args->pDmaBuffer, Args->DmaSize);
#ifndef HERON_BUG_UNMAP_DUMMY
    if (Args->MultipassOffset == 0 && Args->UnmapApertureSegment.NumberOfPages != 0) {
        if (!HeronWriterHasRoom(&Writer, HERON_GART_CLEAR_DWORDS)) {
            return HeronNeedRoom(Args, &Writer, 0);
        }
        HeronEmit(&Writer, HERON_PACKET_HEADER(HERON_OP_GART_CLEAR, HERON_GART_CLEAR_DWORDS, 0));
        HeronEmit(&Writer, SegmentId);
        HeronEmit(&Writer, (ULONG)Args->UnmapApertureSegment.OffsetInPages);
        HeronEmit(&Writer, (ULONG)Args->UnmapApertureSegment.NumberOfPages);
        HeronEmitAddress(&Writer, (ULONGLONG)Args->UnmapApertureSegment.DummyPage.QuadPart >> HERON_PAGE_SHIFT);
    }
#endif

    if (!HeronWriterHasRoom(&Writer, HERON_GART_INVALIDATE_DWORDS)) {
        return HeronNeedRoom(Args, &Writer, 1);
    }
    HeronEmit(&Writer, HERON_PACKET_HEADER(HERON_OP_GART_INVALIDATE, HERON_GART_INVALIDATE_DWORDS, 0));
    HeronEmit(&Writer, SegmentId);
    return HeronFinish(Args, &Writer);
}

static
NTSTATUS
HeronBuildSignalFence(
    _Inout_ DXGKARG_BUILDPAGINGBUFFER *Args
    )
{
    HERON_PACKET_WRITER Writer;

    HeronWriterInit(&Writer, Args->pDmaBuffer, Args->DmaSize);
    if (!HeronWriterHasRoom(&Writer, HERON_FENCE_WRITE_DWORDS)) {
        return HeronNeedRoom(Args, &Writer, 0);
    }
    HeronEmit(&Writer, HERON_PACKET_HEADER(HERON_OP_FENCE_WRITE, HERON_FENCE_WRITE_DWORDS, 0));
    HeronEmitAddress(&Writer, Args->SignalMonitoredFence.MonitoredFenceGpuVa);
    HeronEmitAddress(&Writer, Args->SignalMonitoredFence.MonitoredFenceValue);
    return HeronFinish(Args, &Writer);
}

//
// READ_PHYSICAL and WRITE_PHYSICAL: Heron's caches see a CPU access to a
// segment only after a flush of that line.
//
static
NTSTATUS
HeronBuildCacheFlush(
    _Inout_ DXGKARG_BUILDPAGINGBUFFER *Args,
    _In_ ULONGLONG Address,
    _In_ BOOLEAN WriteBack
    )
{
    HERON_PACKET_WRITER Writer;

    HeronWriterInit(&Writer, Args->pDmaBuffer, Args->DmaSize);
    if (!HeronWriterHasRoom(&Writer, HERON_CACHE_FLUSH_DWORDS)) {
        return HeronNeedRoom(Args, &Writer, 0);
    }
    HeronEmit(&Writer, HERON_PACKET_HEADER(HERON_OP_CACHE_FLUSH, HERON_CACHE_FLUSH_DWORDS,
                                           WriteBack ? HERON_CACHE_FLUSH_WRITE_BACK : 0));
    HeronEmitAddress(&Writer, Address);
    return HeronFinish(Args, &Writer);
}

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiBuildPagingBuffer(
    IN_CONST_HANDLE hAdapter,
    IN_PDXGKARG_BUILDPAGINGBUFFER pBuildPagingBuffer
    )
{
    DXGKARG_BUILDPAGINGBUFFER *Args = pBuildPagingBuffer;

    UNREFERENCED_PARAMETER(hAdapter);

    switch (Args->Operation) {
    case DXGK_OPERATION_TRANSFER:
        return HeronBuildTransfer(
            Args, Args->Transfer.TransferSize,
            HeronSide(Args->Transfer.Source.SegmentId, Args->Transfer.Source.SegmentAddress,
                      Args->Transfer.TransferOffset, Args->Transfer.Source.pMdl, Args->Transfer.MdlOffset),
            HeronSide(Args->Transfer.Destination.SegmentId, Args->Transfer.Destination.SegmentAddress,
                      Args->Transfer.TransferOffset, Args->Transfer.Destination.pMdl, Args->Transfer.MdlOffset));

    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        //
        // No MdlOffset in this operation: an MDL side starts at its page 0.
        //
        return HeronBuildTransfer(
            Args, Args->SpecialLockTransfer.TransferSize,
            HeronSide(Args->SpecialLockTransfer.Source.SegmentId, Args->SpecialLockTransfer.Source.SegmentAddress,
                      Args->SpecialLockTransfer.TransferOffset, Args->SpecialLockTransfer.Source.pMdl, 0),
            HeronSide(Args->SpecialLockTransfer.Destination.SegmentId,
                      Args->SpecialLockTransfer.Destination.SegmentAddress,
                      Args->SpecialLockTransfer.TransferOffset, Args->SpecialLockTransfer.Destination.pMdl, 0));

    case DXGK_OPERATION_FILL:
        return HeronBuildFill(Args);

    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        return HeronBuildMapAperture(Args);

    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        return HeronBuildUnmapAperture(Args);

    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE:
        return HeronBuildSignalFence(Args);

    case DXGK_OPERATION_READ_PHYSICAL:
        return HeronBuildCacheFlush(Args, (ULONGLONG)Args->ReadPhysical.PhysicalAddress.QuadPart, FALSE);

    case DXGK_OPERATION_WRITE_PHYSICAL:
        return HeronBuildCacheFlush(Args, (ULONGLONG)Args->WritePhysical.PhysicalAddress.QuadPart, TRUE);

    case DXGK_OPERATION_DISCARD_CONTENT:
    default:
        //
        // Discard needs no packet; INIT_CONTEXT_RESOURCE comes only for
        // context allocations, which Heron never makes; the GPU-VA
        // operations only to WDDM 2 drivers.
        //
        return STATUS_SUCCESS;
    }
}
