/* SPDX-License-Identifier: MIT */
/*
 * paging.c - DxgkDdiBuildPagingBuffer: the memory manager's operations as
 * GPU-model commands.
 *
 * Multipass (facts §5.1 P3, P4): an operation that does not fit writes the
 * commands that do, returns STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, and is
 * called again in a fresh buffer with the same arguments and the
 * MultipassOffset it left. All progress lives there, never in the driver,
 * and counts 4 KiB pages for transfers and fills: every place they can stop
 * before their end is page aligned (chunks are page multiples, MDL sides
 * split at page ends), and pages keep a 32-bit offset exact past 4 GiB.
 *
 * Commands go through the model's encoder, which writes nothing when a
 * command does not fit, so nothing lands past DmaSize; pDmaBuffer moves past
 * exactly what was written and DmaSize, in/out, shrinks by as much
 * (PAGING-ADVANCE-001). Every status is SUCCESS or INSUFFICIENT_DMA_BUFFER
 * (PAGING-STATUS-001): an argument the kernel should never send, such as an
 * MDL shorter than the range, cannot be failed, so the operation ends where
 * the driver's reach does instead of reading past what it was given.
 */
#include "independent.h"

static UINT64 min64(UINT64 x, UINT64 y)
{
    return x < y ? x : y;
}

static void advance(DXGKARG_BUILDPAGINGBUFFER *a, const struct wk_gpu_writer *w)
{
    a->pDmaBuffer = (BYTE *)a->pDmaBuffer + w->used;
    a->DmaSize -= (UINT)w->used;
}

static NTSTATUS finished(DXGKARG_BUILDPAGINGBUFFER *a, const struct wk_gpu_writer *w)
{
    advance(a, w);
    return STATUS_SUCCESS;
}

/* The buffer is full: the next pass resumes at `progress` (the unit is the
 * operation's own). */
static NTSTATUS need_room(DXGKARG_BUILDPAGINGBUFFER *a, const struct wk_gpu_writer *w, UINT64 progress)
{
    advance(a, w);
    a->MultipassOffset = (UINT)progress;
    return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

/* Pages an MDL holds from page `first` on. */
static UINT64 mdl_pages_from(const MDL *mdl, UINT64 first)
{
    UINT64 pages = ADDRESS_AND_SIZE_TO_SPAN_PAGES(MmGetMdlByteOffset(mdl), MmGetMdlByteCount(mdl));
    return first < pages ? pages - first : 0;
}

/* ------------------------------------------------------------------ */
/* TRANSFER and SPECIAL_LOCK_TRANSFER                                    */
/* ------------------------------------------------------------------ */

/* One side of a transfer: a GPU address (segment side, TransferOffset
 * already added: it applies to segment sides only, P5), or system pages
 * (MDL side: page k of the transfer is pfns[k]; the kit scatters them). */
struct side {
    BOOLEAN system;         /* an MDL side */
    UINT64 address;         /* segment side */
    const PFN_NUMBER *pfns; /* MDL side: its pages from the first one transferred */
    UINT64 pages;
};

struct transfer {
    UINT64 size;
    struct side src, dst;
    /* A move inside the GPU address space onto the end of its own source
     * runs from the end, or the first chunks would overwrite bytes the
     * later ones still have to read. */
    BOOLEAN backward;
};

static struct side side_of(UINT segment_id, LARGE_INTEGER address, UINT offset, MDL *mdl, UINT64 first_page)
{
    struct side s = {0};
    if (segment_id != 0) {
        s.address = (UINT64)address.QuadPart + offset;
        return s;
    }
    s.system = TRUE;
    s.pages = mdl ? mdl_pages_from(mdl, first_page) : 0;
    if (s.pages > 0)
        s.pfns = MmGetMdlPfnArray(mdl) + first_page;
    return s;
}

static struct transfer transfer_of(UINT64 size, struct side src, struct side dst)
{
    struct transfer t = {size, src, dst, FALSE};
    t.backward = !src.system && !dst.system && dst.address > src.address && dst.address - src.address < size;
    return t;
}

/* The GPU address of byte `done` of a side, and how many bytes from there
 * are contiguous: to the page end on an MDL side, 0 past its last page. */
static UINT64 side_at(const struct side *s, UINT64 done, UINT64 *contiguous)
{
    if (!s->system) {
        *contiguous = UINT64_MAX;
        return s->address + done;
    }
    UINT64 page = done >> WK_GPU_PAGE_SHIFT;
    UINT64 in_page = done & (WK_GPU_PAGE_SIZE - 1);
    if (page >= s->pages) {
        *contiguous = 0;
        return 0;
    }
    *contiguous = WK_GPU_PAGE_SIZE - in_page;
    return ((UINT64)s->pfns[page] << WK_GPU_PAGE_SHIFT) + in_page;
}

/* The next COPY after `done` bytes: at most a chunk, never across a page
 * end of an MDL side. 0 bytes when an MDL side has no page left. */
static UINT64 next_piece(const struct transfer *t, UINT64 done, UINT64 *src, UINT64 *dst)
{
    UINT64 n = min64(t->size - done, IND_PAGING_CHUNK);
    if (t->backward) {
        UINT64 at = t->size - done - n;
        *src = t->src.address + at;
        *dst = t->dst.address + at;
        return n;
    }
    UINT64 src_room, dst_room;
    *src = side_at(&t->src, done, &src_room);
    *dst = side_at(&t->dst, done, &dst_room);
    return min64(n, min64(src_room, dst_room));
}

static NTSTATUS build_transfer(DXGKARG_BUILDPAGINGBUFFER *a, const struct transfer *t)
{
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    UINT64 done = (UINT64)a->MultipassOffset << WK_GPU_PAGE_SHIFT;
    while (done < t->size) {
        UINT64 src, dst;
        UINT64 n = next_piece(t, done, &src, &dst);
        if (n == 0)
            break; /* an MDL shorter than the transfer: stop at its end */
        if (wk_gpu_emit_copy(&w, src, dst, n) != WK_OK)
            return need_room(a, &w, done >> WK_GPU_PAGE_SHIFT);
        done += n;
    }
    return finished(a, &w);
}

static NTSTATUS build_plain_transfer(DXGKARG_BUILDPAGINGBUFFER *a)
{
    const UINT64 mdl_page = a->Transfer.MdlOffset;
    struct side src = side_of(a->Transfer.Source.SegmentId, a->Transfer.Source.SegmentAddress,
                              a->Transfer.TransferOffset, a->Transfer.Source.pMdl, mdl_page);
    struct side dst = side_of(a->Transfer.Destination.SegmentId, a->Transfer.Destination.SegmentAddress,
                              a->Transfer.TransferOffset, a->Transfer.Destination.pMdl, mdl_page);
    struct transfer t = transfer_of(a->Transfer.TransferSize, src, dst);
    return build_transfer(a, &t);
}

/* The operation has no MdlOffset: an MDL side starts at its page 0. */
static NTSTATUS build_special_lock_transfer(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct side src = side_of(a->SpecialLockTransfer.Source.SegmentId,
                              a->SpecialLockTransfer.Source.SegmentAddress,
                              a->SpecialLockTransfer.TransferOffset, a->SpecialLockTransfer.Source.pMdl, 0);
    struct side dst = side_of(a->SpecialLockTransfer.Destination.SegmentId,
                              a->SpecialLockTransfer.Destination.SegmentAddress,
                              a->SpecialLockTransfer.TransferOffset, a->SpecialLockTransfer.Destination.pMdl, 0);
    struct transfer t = transfer_of(a->SpecialLockTransfer.TransferSize, src, dst);
    return build_transfer(a, &t);
}

/* ------------------------------------------------------------------ */
/* FILL, aperture mapping, fences                                        */
/* ------------------------------------------------------------------ */

static NTSTATUS build_fill(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    const UINT64 size = a->Fill.FillSize;
    const UINT64 base = (UINT64)a->Fill.Destination.SegmentAddress.QuadPart;
    UINT64 done = (UINT64)a->MultipassOffset << WK_GPU_PAGE_SHIFT;
    while (done < size) {
        UINT64 n = min64(size - done, IND_PAGING_CHUNK);
        if (wk_gpu_emit_fill(&w, base + done, n, a->Fill.FillPattern) != WK_OK)
            return need_room(a, &w, done >> WK_GPU_PAGE_SHIFT);
        done += n;
    }
    return finished(a, &w);
}

/* How many frame numbers the next GART_MAP carries: what is left, at most
 * a batch, and no more than the buffer holds (a small paging buffer still
 * takes a few, so every fresh buffer makes progress, PAGING-PROGRESS-002). */
static UINT map_batch(const struct wk_gpu_writer *w, UINT64 left)
{
    const UINT64 header = wk_gpu_cmd_size(WK_GPU_OP_GART_MAP, 0);
    const UINT64 entry = wk_gpu_cmd_size(WK_GPU_OP_GART_MAP, 1) - header;
    const UINT64 room = w->capacity - w->used;
    const UINT64 fit = room > header ? (room - header) / entry : 0;
    return (UINT)min64(min64(fit, left), IND_MAP_BATCH);
}

/* GART_MAP of the MDL's frames from MdlOffset at OffsetInPages, then a
 * TLB_FLUSH: the model's TLB keeps old translations until flushed. Progress
 * is pages mapped; NumberOfPages while only the flush is left. */
static NTSTATUS build_map(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    const UINT segment = a->MapApertureSegment.SegmentId;
    MDL *mdl = a->MapApertureSegment.pMdl;
    const UINT64 first = a->MapApertureSegment.MdlOffset;
    const UINT64 total = mdl ? min64(a->MapApertureSegment.NumberOfPages, mdl_pages_from(mdl, first)) : 0;
    UINT64 done = min64(a->MultipassOffset, total);
    while (done < total) {
        UINT64 pfns[IND_MAP_BATCH];
        UINT n = map_batch(&w, total - done);
        for (UINT k = 0; k < n; k++)
            pfns[k] = MmGetMdlPfnArray(mdl)[first + done + k];
        if (n == 0 || wk_gpu_emit_gart_map(&w, segment, (UINT)(a->MapApertureSegment.OffsetInPages + done), n,
                                           pfns) != WK_OK)
            return need_room(a, &w, done);
        done += n;
    }
    if (wk_gpu_emit_tlb_flush(&w, segment) != WK_OK)
        return need_room(a, &w, done);
    return finished(a, &w);
}

/* GART_UNMAP points the range at DummyPage (facts §5.1 P14), then a
 * TLB_FLUSH. MultipassOffset 1: the unmap is written, the flush is left. */
static NTSTATUS build_unmap(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    const UINT segment = a->UnmapApertureSegment.SegmentId;
    if (a->MultipassOffset == 0) {
        UINT64 dummy_pfn = (UINT64)a->UnmapApertureSegment.DummyPage.QuadPart >> WK_GPU_PAGE_SHIFT;
        if (wk_gpu_emit_gart_unmap(&w, segment, (UINT)a->UnmapApertureSegment.OffsetInPages,
                                   (UINT)a->UnmapApertureSegment.NumberOfPages, dummy_pfn) != WK_OK)
            return need_room(a, &w, 0);
    }
    if (wk_gpu_emit_tlb_flush(&w, segment) != WK_OK)
        return need_room(a, &w, 1);
    return finished(a, &w);
}

static NTSTATUS build_fence(DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, a->pDmaBuffer, a->DmaSize);
    if (wk_gpu_emit_fence(&w, a->SignalMonitoredFence.MonitoredFenceGpuVa,
                          a->SignalMonitoredFence.MonitoredFenceValue) != WK_OK)
        return need_room(a, &w, 0);
    return finished(a, &w);
}

NTSTATUS IndBuildPagingBuffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
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
    default:
        /* DISCARD_CONTENT needs no command (P11); READ/WRITE_PHYSICAL have
         * no cache to go through on the model; the GPU-VA and
         * context-allocation operations are sent only to drivers that opt
         * in, which this one does not. The DDI has no "unsupported" status. */
        return STATUS_SUCCESS;
    }
}
