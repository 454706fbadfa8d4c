/* SPDX-License-Identifier: MIT */
/*
 * paging.c - DxgkDdiBuildPagingBuffer: the memory manager's operations as
 * OtherGPU commands (othergpu.h).
 *
 * Multipass: an operation that does not fit writes the whole command
 * groups that do, returns STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER and is
 * called again, in a fresh buffer, with the same arguments and the
 * MultipassOffset it left. All progress lives there: 4 KiB pages done for
 * transfers and fills (every stop before the end is page aligned: chunks
 * are page multiples and MDL sides are cut at page ends), pages done for
 * map and unmap. pDmaBuffer moves past exactly what was written and
 * DmaSize shrinks by as much.
 *
 * Every status is SUCCESS or INSUFFICIENT_DMA_BUFFER: the DDI has no
 * "unsupported", so an operation OtherGPU needs no command for (discard,
 * the GPU-VA operations it never opts in to) writes nothing.
 *
 * OG_BUG_PAGING_STALL (a planted bug): a full buffer restarts the
 * operation from 0 instead of recording its progress.
 */
#include "othergpu.h"

static UINT64 min64(UINT64 x, UINT64 y)
{
    return x < y ? x : y;
}

static NTSTATUS finish(DXGKARG_BUILDPAGINGBUFFER *a, const struct og_writer *w)
{
    a->pDmaBuffer = (BYTE *)a->pDmaBuffer + w->used;
    a->DmaSize -= w->used;
    return STATUS_SUCCESS;
}

/* The buffer is full: the next pass resumes at `progress`. */
static NTSTATUS need_room(DXGKARG_BUILDPAGINGBUFFER *a, const struct og_writer *w, UINT64 progress)
{
    finish(a, w);
#ifdef OG_BUG_PAGING_STALL
    UNREFERENCED_PARAMETER(progress);
    a->MultipassOffset = 0;
#else
    a->MultipassOffset = (UINT)progress;
#endif
    return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

/* Pages an MDL holds from page `first` on. */
static UINT64 mdl_pages_from(const MDL *mdl, UINT64 first)
{
    if (!mdl)
        return 0;
    UINT64 pages = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlByteOffset(mdl), MmGetMdlByteCount(mdl));
    return first < pages ? pages - first : 0;
}

/* One side of a transfer: a segment address (TransferOffset added: it
 * applies to segment sides only), or system pages from an MDL, reached at
 * their bus address pfn << 12 (never assumed consecutive). */
struct side {
    BOOLEAN system;
    UINT64 address;
    const PFN_NUMBER *pfns;
    UINT64 pages;
};

static struct side side_of(UINT segment_id, LARGE_INTEGER address, UINT offset, MDL *mdl, UINT64 first_page)
{
    struct side s;
    RtlZeroMemory(&s, sizeof(s));
    if (segment_id != 0) {
        s.address = (UINT64)address.QuadPart + offset;
        return s;
    }
    s.system = TRUE;
    s.pages = mdl_pages_from(mdl, first_page);
    if (s.pages)
        s.pfns = MmGetMdlPfnArray(mdl) + first_page;
    return s;
}

/* Bus address of byte `done` of a side and the bytes contiguous from
 * there (0 past an MDL's last page). */
static UINT64 side_at(const struct side *s, UINT64 done, UINT64 *contiguous)
{
    if (!s->system) {
        *contiguous = UINT64_MAX;
        return s->address + done;
    }
    UINT64 page = done >> OG_PAGE_SHIFT, in_page = done & (OG_PAGE_SIZE - 1);
    if (page >= s->pages) {
        *contiguous = 0;
        return 0;
    }
    *contiguous = OG_PAGE_SIZE - in_page;
    return ((UINT64)s->pfns[page] << OG_PAGE_SHIFT) + in_page;
}

/* SRC + COPY pairs. A move inside the GPU address space onto the end of its
 * own source goes from the end, so no chunk overwrites bytes a later one
 * still reads. */
static NTSTATUS build_transfer(DXGKARG_BUILDPAGINGBUFFER *a, UINT64 size, struct side src, struct side dst)
{
    struct og_writer w;
    og_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    const BOOLEAN backward = !src.system && !dst.system && dst.address > src.address &&
                             dst.address - src.address < size;
    UINT64 done = (UINT64)a->MultipassOffset << OG_PAGE_SHIFT;
    while (done < size) {
        UINT64 n = min64(size - done, OG_COPY_CHUNK), from, to, src_room, dst_room;
        if (backward) {
            from = src.address + size - done - n;
            to = dst.address + size - done - n;
        } else {
            from = side_at(&src, done, &src_room);
            to = side_at(&dst, done, &dst_room);
            n = min64(n, min64(src_room, dst_room));
            if (n == 0)
                break; /* an MDL shorter than the transfer: stop at its end */
        }
        if (!og_room(&w, 2))
            return need_room(a, &w, done >> OG_PAGE_SHIFT);
        og_emit_addr(&w, OG_SRC, from, 0);
        og_emit_addr(&w, OG_COPY, to, (UINT)n);
        done += n;
    }
    return finish(a, &w);
}

static NTSTATUS build_plain_transfer(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct side src = side_of(a->Transfer.Source.SegmentId, a->Transfer.Source.SegmentAddress,
                              a->Transfer.TransferOffset, a->Transfer.Source.pMdl, a->Transfer.MdlOffset);
    struct side dst = side_of(a->Transfer.Destination.SegmentId, a->Transfer.Destination.SegmentAddress,
                              a->Transfer.TransferOffset, a->Transfer.Destination.pMdl, a->Transfer.MdlOffset);
    return build_transfer(a, a->Transfer.TransferSize, src, dst);
}

/* No MdlOffset in this operation: an MDL side starts at its page 0. */
static NTSTATUS build_special_lock_transfer(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct side src = side_of(a->SpecialLockTransfer.Source.SegmentId, a->SpecialLockTransfer.Source.SegmentAddress,
                              a->SpecialLockTransfer.TransferOffset, a->SpecialLockTransfer.Source.pMdl, 0);
    struct side dst = side_of(a->SpecialLockTransfer.Destination.SegmentId,
                              a->SpecialLockTransfer.Destination.SegmentAddress,
                              a->SpecialLockTransfer.TransferOffset, a->SpecialLockTransfer.Destination.pMdl, 0);
    return build_transfer(a, a->SpecialLockTransfer.TransferSize, src, dst);
}

/* PATTERN + FILL pairs. */
static NTSTATUS build_fill(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct og_writer w;
    og_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    const UINT64 size = a->Fill.FillSize, base = (UINT64)a->Fill.Destination.SegmentAddress.QuadPart;
    UINT64 done = (UINT64)a->MultipassOffset << OG_PAGE_SHIFT;
    while (done < size) {
        UINT64 n = min64(size - done, OG_COPY_CHUNK);
        if (!og_room(&w, 2))
            return need_room(a, &w, done >> OG_PAGE_SHIFT);
        og_emit(&w, OG_PATTERN, a->Fill.FillPattern, 0, 0);
        og_emit_addr(&w, OG_FILL, base + done, (UINT)n);
        done += n;
    }
    return finish(a, &w);
}

/* One MAP_PAGE per page from MdlOffset on, then a GART_FLUSH. Progress is
 * pages mapped; the flush goes in the pass that maps the last page, or
 * alone in the next. */
static NTSTATUS build_map(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct og_writer w;
    og_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    const UINT segment = a->MapApertureSegment.SegmentId;
    MDL *mdl = a->MapApertureSegment.pMdl;
    const UINT64 first = a->MapApertureSegment.MdlOffset;
    const UINT64 total = min64(a->MapApertureSegment.NumberOfPages, mdl_pages_from(mdl, first));
    UINT64 done = min64(a->MultipassOffset, total);
    for (; done < total; done++) {
        if (!og_room(&w, 1))
            return need_room(a, &w, done);
        UINT64 page = a->MapApertureSegment.OffsetInPages + done;
        og_emit_addr(&w, OG_MAP_PAGE, (UINT64)MmGetMdlPfnArray(mdl)[first + done] << OG_PAGE_SHIFT,
                     segment << 24 | (UINT)page);
    }
    if (!og_room(&w, 1))
        return need_room(a, &w, done);
    og_emit(&w, OG_GART_FLUSH, 0, 0, segment);
    return finish(a, &w);
}

/* One UNMAP_PAGE per page, pointing it at DummyPage, then a GART_FLUSH. */
static NTSTATUS build_unmap(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct og_writer w;
    og_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    const UINT segment = a->UnmapApertureSegment.SegmentId;
    const UINT64 total = a->UnmapApertureSegment.NumberOfPages;
    UINT64 done = min64(a->MultipassOffset, total);
    for (; done < total; done++) {
        if (!og_room(&w, 1))
            return need_room(a, &w, done);
        UINT64 page = a->UnmapApertureSegment.OffsetInPages + done;
        og_emit_addr(&w, OG_UNMAP_PAGE, (UINT64)a->UnmapApertureSegment.DummyPage.QuadPart,
                     segment << 24 | (UINT)page);
    }
    if (!og_room(&w, 1))
        return need_room(a, &w, done);
    og_emit(&w, OG_GART_FLUSH, 0, 0, segment);
    return finish(a, &w);
}

static NTSTATUS build_fence(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct og_writer w;
    og_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    if (!og_room(&w, 2))
        return need_room(a, &w, 0);
    const UINT64 value = a->SignalMonitoredFence.MonitoredFenceValue;
    og_emit(&w, OG_FENCE_VALUE, (UINT)value, (UINT)(value >> 32), 0);
    og_emit_addr(&w, OG_FENCE, a->SignalMonitoredFence.MonitoredFenceGpuVa, 0);
    return finish(a, &w);
}

/* READ_PHYSICAL and WRITE_PHYSICAL: OtherGPU's caches see a CPU access to
 * a segment only after a flush of that line. */
static NTSTATUS build_cache_flush(DXGKARG_BUILDPAGINGBUFFER *a, UINT64 address, UINT write_back)
{
    struct og_writer w;
    og_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    if (!og_room(&w, 1))
        return need_room(a, &w, 0);
    og_emit_addr(&w, OG_CACHE_FLUSH, address, write_back);
    return finish(a, &w);
}

NTSTATUS OgBuildPagingBuffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    UNREFERENCED_PARAMETER(hAdapter);
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
        return build_plain_transfer(a);
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        return build_special_lock_transfer(a);
    case DXGK_OPERATION_FILL:
        return build_fill(a);
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        return build_map(a);
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        return build_unmap(a);
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE:
        return build_fence(a);
    case DXGK_OPERATION_READ_PHYSICAL:
        return build_cache_flush(a, (UINT64)a->ReadPhysical.PhysicalAddress.QuadPart, 0);
    case DXGK_OPERATION_WRITE_PHYSICAL:
        return build_cache_flush(a, (UINT64)a->WritePhysical.PhysicalAddress.QuadPart, 1);
    default:
        /* DISCARD_CONTENT needs no command; INIT_CONTEXT_RESOURCE comes
         * only for context allocations, which OtherGPU never makes; the
         * GPU-VA operations only to drivers that opt in. */
        return STATUS_SUCCESS;
    }
}
