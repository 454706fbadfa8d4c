/* SPDX-License-Identifier: MIT */
/*
 * paging.cpp - DxgkDdiBuildPagingBuffer: each memory-manager operation is a
 * PagingOperation that writes Lattice packets (hardware.h).
 *
 * Multipass (facts §5.1 P1-P3): an operation writes the whole packets that
 * fit from where the last pass stopped; when the next one does not fit it
 * returns STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER with its progress in
 * MultipassOffset, and the kernel calls again with a fresh buffer and the
 * same arguments. All progress lives in MultipassOffset: 4 KiB pages done
 * for transfers and fills (every stop before the end is page aligned),
 * pages written for aperture maps and unmaps. pDmaBuffer moves past exactly
 * what was written and DmaSize shrinks by as much.
 *
 * Every status is SUCCESS or INSUFFICIENT_DMA_BUFFER: the DDI has no
 * "unsupported" (facts §5.1), so an operation Lattice needs no packet for
 * writes nothing.
 */
#include "cppgpu.h"
#include "commands.h"

namespace cppgpu {

using namespace lattice;

namespace {

UINT64 min64(UINT64 a, UINT64 b)
{
    return a < b ? a : b;
}

/* One operation of one call. build() runs the subclass's emit() and hands
 * the kernel the outputs the DDI defines. */
class PagingOperation {
public:
    explicit PagingOperation(DXGKARG_BUILDPAGINGBUFFER &args)
        : args_(args), writer_(args.pDmaBuffer, args.DmaSize) {}
    virtual ~PagingOperation() = default;

    NTSTATUS build()
    {
        UINT64 progress = args_.MultipassOffset;
        const bool complete = emit(progress);
        args_.pDmaBuffer = static_cast<BYTE *>(args_.pDmaBuffer) + writer_.used();
        args_.DmaSize -= writer_.used();
        if (complete)
            return STATUS_SUCCESS;
        args_.MultipassOffset = static_cast<UINT>(progress);
        TraceEvents(TRACE_LEVEL_VERBOSE, TRACE_PAGING, "operation %d: buffer full at %llu",
                    static_cast<int>(args_.Operation), static_cast<unsigned long long>(progress));
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    }

protected:
    /* Writes what fits from `progress` on. True when the operation is
     * complete; false when the buffer is full, `progress` saying where the
     * next pass resumes. */
    virtual bool emit(UINT64 &progress) = 0;

    DXGKARG_BUILDPAGINGBUFFER &args_;
    CommandWriter writer_;
};

/* DISCARD_CONTENT needs no packet; INIT_CONTEXT_RESOURCE comes only for
 * context allocations, which Lattice never makes; the GPU-VA operations
 * only to drivers that opt in to GPU virtual addressing. */
class NothingToDo final : public PagingOperation {
public:
    using PagingOperation::PagingOperation;

protected:
    bool emit(UINT64 &) override { return true; }
};

/* One side of a transfer: a segment address (TransferOffset applies to
 * segment sides only), or system pages of an MDL from a first page on,
 * reached at pfn << 12 and never assumed consecutive. */
class TransferSide {
public:
    static TransferSide in_segment(UINT64 address)
    {
        TransferSide s;
        s.address_ = address;
        return s;
    }

    static TransferSide in_system(MDL *mdl, UINT64 first_page)
    {
        TransferSide s;
        s.system_ = true;
        if (!mdl)
            return s;
        const UINT64 pages = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlByteOffset(mdl), MmGetMdlByteCount(mdl));
        if (first_page < pages) {
            s.pfns_ = MmGetMdlPfnArray(mdl) + first_page;
            s.pages_ = pages - first_page;
        }
        return s;
    }

    bool system() const { return system_; }
    UINT64 address() const { return address_; }

    /* Bus address of byte `offset`; `contiguous` bytes follow it (0 past
     * the MDL's last page). */
    UINT64 locate(UINT64 offset, UINT64 &contiguous) const
    {
        if (!system_) {
            contiguous = ~0ull;
            return address_ + offset;
        }
        const UINT64 page = offset >> PAGE_SHIFT_BITS, in_page = offset & (PAGE_SIZE_BYTES - 1);
        if (page >= pages_) {
            contiguous = 0;
            return 0;
        }
        contiguous = PAGE_SIZE_BYTES - in_page;
        return (UINT64(pfns_[page]) << PAGE_SHIFT_BITS) + in_page;
    }

private:
    bool system_ = false;
    UINT64 address_ = 0;
    const PFN_NUMBER *pfns_ = nullptr;
    UINT64 pages_ = 0;
};

TransferSide side(UINT segment_id, LARGE_INTEGER segment_address, MDL *mdl, UINT transfer_offset, UINT64 mdl_page)
{
    if (segment_id != SEGMENT_NONE)
        return TransferSide::in_segment(UINT64(segment_address.QuadPart) + transfer_offset);
    return TransferSide::in_system(mdl, mdl_page);
}

/* TRANSFER and SPECIAL_LOCK_TRANSFER: COPY packets of at most
 * MAX_TRANSFER_BYTES. A move inside the GPU address space onto the end of
 * its own source runs from the end, so no packet overwrites bytes a later
 * one still reads. */
class Transfer final : public PagingOperation {
public:
    Transfer(DXGKARG_BUILDPAGINGBUFFER &args, UINT64 size, TransferSide source, TransferSide destination)
        : PagingOperation(args), size_(size), source_(source), destination_(destination) {}

protected:
    bool emit(UINT64 &progress) override
    {
        UINT64 done = progress << PAGE_SHIFT_BITS;
        while (done < size_) {
            UINT64 bytes = min64(size_ - done, MAX_TRANSFER_BYTES), from, to;
            if (backward()) {
                from = source_.address() + size_ - done - bytes;
                to = destination_.address() + size_ - done - bytes;
            } else {
                UINT64 source_room, destination_room;
                from = source_.locate(done, source_room);
                to = destination_.locate(done, destination_room);
                bytes = min64(bytes, min64(source_room, destination_room));
                if (bytes == 0)
                    return true; /* an MDL shorter than the transfer ends it */
            }
            if (!writer_.fits(COPY_WORDS)) {
                progress = done >> PAGE_SHIFT_BITS;
                return false;
            }
            writer_.copy(to, from, static_cast<UINT>(bytes));
            done += bytes;
        }
        return true;
    }

private:
    bool backward() const
    {
        return !source_.system() && !destination_.system() && destination_.address() > source_.address() &&
               destination_.address() - source_.address() < size_;
    }

    UINT64 size_;
    TransferSide source_, destination_;
};

/* FILL: FILL packets of at most MAX_TRANSFER_BYTES. */
class Fill final : public PagingOperation {
public:
    using PagingOperation::PagingOperation;

protected:
    bool emit(UINT64 &progress) override
    {
        const UINT64 size = args_.Fill.FillSize, base = UINT64(args_.Fill.Destination.SegmentAddress.QuadPart);
        for (UINT64 done = progress << PAGE_SHIFT_BITS; done < size;) {
            const UINT64 bytes = min64(size - done, MAX_TRANSFER_BYTES);
            if (!writer_.fits(FILL_WORDS)) {
                progress = done >> PAGE_SHIFT_BITS;
                return false;
            }
            writer_.fill(base + done, static_cast<UINT>(bytes), args_.Fill.FillPattern);
            done += bytes;
        }
        return true;
    }
};

/* Aperture work ends with a GART_FLUSH, in the pass that wrote the last
 * entry or alone in the next one (progress then equals the page count). */
class ApertureOperation : public PagingOperation {
public:
    using PagingOperation::PagingOperation;

protected:
    bool flush(UINT segment, UINT64 &progress, UINT64 pages)
    {
        if (!writer_.fits(GART_FLUSH_WORDS)) {
            progress = pages;
            return false;
        }
        writer_.gart_flush(segment);
        return true;
    }
};

/* MAP_APERTURE_SEGMENT: GART_WRITE packets of up to
 * MAX_GART_PAGES_PER_PACKET entries, one MDL page each from MdlOffset on. */
class MapAperture final : public ApertureOperation {
public:
    using ApertureOperation::ApertureOperation;

protected:
    bool emit(UINT64 &progress) override
    {
        const auto &map = args_.MapApertureSegment;
        const TransferSide pages = TransferSide::in_system(map.pMdl, map.MdlOffset);
        UINT64 total = map.NumberOfPages, done = min64(progress, total), unused;
        while (done < total) {
            const UINT want = static_cast<UINT>(min64(total - done, MAX_GART_PAGES_PER_PACKET));
            const UINT n = writer_.gart_pages_that_fit(want);
            if (n == 0) {
                progress = done;
                return false;
            }
            writer_.gart_write_begin(map.SegmentId, static_cast<UINT>(map.OffsetInPages + done), n);
            for (UINT i = 0; i < n; i++)
                writer_.gart_write_page(pages.locate((done + i) << PAGE_SHIFT_BITS, unused));
            done += n;
        }
        return flush(map.SegmentId, progress, total);
    }
};

/* UNMAP_APERTURE_SEGMENT: one GART_CLEAR points the range at DummyPage. */
class UnmapAperture final : public ApertureOperation {
public:
    using ApertureOperation::ApertureOperation;

protected:
    bool emit(UINT64 &progress) override
    {
        const auto &unmap = args_.UnmapApertureSegment;
        const UINT64 total = unmap.NumberOfPages;
        if (progress < total && total != 0) {
            if (!writer_.fits(GART_CLEAR_WORDS))
                return false; /* progress stays where it was */
            writer_.gart_clear(unmap.SegmentId, static_cast<UINT>(unmap.OffsetInPages), static_cast<UINT>(total),
                               UINT64(unmap.DummyPage.QuadPart));
        }
        return flush(unmap.SegmentId, progress, total);
    }
};

/* SIGNAL_MONITORED_FENCE: one FENCE packet. */
class SignalFence final : public PagingOperation {
public:
    using PagingOperation::PagingOperation;

protected:
    bool emit(UINT64 &) override
    {
        if (!writer_.fits(FENCE_WORDS))
            return false;
        writer_.fence(args_.SignalMonitoredFence.MonitoredFenceGpuVa, args_.SignalMonitoredFence.MonitoredFenceValue);
        return true;
    }
};

/* READ_PHYSICAL and WRITE_PHYSICAL: Lattice's caches see a CPU access to a
 * segment only after that line is written back or invalidated. */
class CacheMaintenance final : public PagingOperation {
public:
    CacheMaintenance(DXGKARG_BUILDPAGINGBUFFER &args, PHYSICAL_ADDRESS address, UINT op)
        : PagingOperation(args), address_(UINT64(address.QuadPart)), op_(op) {}

protected:
    bool emit(UINT64 &) override
    {
        if (!writer_.fits(CACHE_WORDS))
            return false;
        writer_.cache(address_, op_);
        return true;
    }

private:
    UINT64 address_;
    UINT op_;
};

constexpr UINT CACHE_INVALIDATE = 0, CACHE_WRITE_BACK = 1;

NTSTATUS build_transfer(DXGKARG_BUILDPAGINGBUFFER &a)
{
    const auto &t = a.Transfer;
    Transfer op(a, t.TransferSize,
                side(t.Source.SegmentId, t.Source.SegmentAddress, t.Source.pMdl, t.TransferOffset, t.MdlOffset),
                side(t.Destination.SegmentId, t.Destination.SegmentAddress, t.Destination.pMdl, t.TransferOffset,
                     t.MdlOffset));
    return op.build();
}

/* SPECIAL_LOCK_TRANSFER has no MdlOffset: an MDL side starts at page 0. */
NTSTATUS build_special_lock_transfer(DXGKARG_BUILDPAGINGBUFFER &a)
{
    const auto &t = a.SpecialLockTransfer;
    Transfer op(a, t.TransferSize,
                side(t.Source.SegmentId, t.Source.SegmentAddress, t.Source.pMdl, t.TransferOffset, 0),
                side(t.Destination.SegmentId, t.Destination.SegmentAddress, t.Destination.pMdl, t.TransferOffset, 0));
    return op.build();
}

/* Runs one operation through the base class. */
NTSTATUS run(PagingOperation &&op)
{
    return op.build();
}

} // namespace

NTSTATUS BuildPagingBuffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    UNREFERENCED_PARAMETER(hAdapter);
    DXGKARG_BUILDPAGINGBUFFER &a = *pBuildPagingBuffer;
    switch (a.Operation) {
    case DXGK_OPERATION_TRANSFER:
        return build_transfer(a);
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        return build_special_lock_transfer(a);
    case DXGK_OPERATION_FILL:
        return run(Fill(a));
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        return run(MapAperture(a));
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        return run(UnmapAperture(a));
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE:
        return run(SignalFence(a));
    case DXGK_OPERATION_READ_PHYSICAL:
        return run(CacheMaintenance(a, a.ReadPhysical.PhysicalAddress, CACHE_INVALIDATE));
    case DXGK_OPERATION_WRITE_PHYSICAL:
        return run(CacheMaintenance(a, a.WritePhysical.PhysicalAddress, CACHE_WRITE_BACK));
    default:
        return run(NothingToDo(a));
    }
}

} // namespace cppgpu
