/* SPDX-License-Identifier: MIT */
/*
 * paging.c - DxgkDdiBuildPagingBuffer: every paging operation the GPU model
 * can perform, written with the model's encoder (wk_gpu_emit_*).
 *
 * Shape of every operation (facts 5.1):
 *   - a writer over [pDmaBuffer, pDmaBuffer + DmaSize); the encoder writes a
 *     command whole or not at all, so nothing ever lands past DmaSize (P3);
 *   - on return, whatever the status, pDmaBuffer has moved past exactly the
 *     bytes written and DmaSize has shrunk by as much (P2; DmaSize is in/out
 *     and keeps meaning "bytes available at pDmaBuffer");
 *   - progress lives in MultipassOffset only (P4), so the operation resumes
 *     correctly in a fresh buffer, and with the same TransferOffset (P5);
 *   - the statuses are SUCCESS and INSUFFICIENT_DMA_BUFFER (facts 2.2). The
 *     driver never needs ALLOCATION_BUSY: the model's queue runs in order.
 *
 * Large operations are split into commands of at most RD_CHUNK (64 KiB) so
 * that they go multipass in small paging buffers. MultipassOffset counts
 * bytes done (pages for MAP, dwords for UPDATE_CONTEXT_ALLOCATION); for a
 * transfer or fill of 4 GiB or more it counts 4 KiB pages, which is exact
 * because every chunk boundary but the last is page aligned.
 *
 * An argument the kernel should never send (an MDL too short for its page
 * range, a map outside the aperture) cannot be failed (only three statuses
 * exist): the driver traces it and completes the operation without writing
 * further, rather than read or program outside what it was given.
 */
#include "refdriver.h"

/* ------------------------------------------------------------------ */
/* Progress cookie                                                      */
/* ------------------------------------------------------------------ */

static UINT64 progress_unit(UINT64 total)
{
    return total > UINT32_MAX ? WK_GPU_PAGE_SIZE : 1;
}

static UINT64 progress_load(const DXGKARG_BUILDPAGINGBUFFER *args, UINT64 total)
{
    UINT64 done = (UINT64)args->MultipassOffset * progress_unit(total);
    return done > total ? total : done;
}

static void progress_store(DXGKARG_BUILDPAGINGBUFFER *args, UINT64 done, UINT64 total)
{
    args->MultipassOffset = (UINT)(done / progress_unit(total));
}

/* ------------------------------------------------------------------ */
/* MDL pages                                                            */
/* ------------------------------------------------------------------ */

static UINT64 mdl_pages(MDL *mdl)
{
    return ((UINT64)MmGetMdlByteOffset(mdl) + MmGetMdlByteCount(mdl) + WK_GPU_PAGE_SIZE - 1) >>
           WK_GPU_PAGE_SHIFT;
}

/* GPU address of page `page` of an MDL: pages are NOT contiguous, each comes
 * from the PFN array (P5, P13). FALSE when the MDL has no such page. */
static BOOLEAN mdl_page_address(MDL *mdl, UINT64 page, UINT64 *addr)
{
    if (!mdl || page >= mdl_pages(mdl)) {
        RD_TRACE("refdriver: MDL %p has no page %llu\n", (void *)mdl, (unsigned long long)page);
        return FALSE;
    }
    *addr = (UINT64)MmGetMdlPfnArray(mdl)[page] << WK_GPU_PAGE_SHIFT;
    return TRUE;
}

/* ------------------------------------------------------------------ */
/* TRANSFER and SPECIAL_LOCK_TRANSFER                                   */
/* ------------------------------------------------------------------ */

struct xfer_side {
    UINT segment_id;          /* 0: the MDL side */
    UINT64 address;           /* segment side: SegmentAddress (absolute, P6) */
    MDL *mdl;
};

struct xfer {
    UINT64 size;
    UINT64 offset;            /* TransferOffset: segment sides only (P5) */
    UINT64 mdl_offset;        /* MdlOffset, pages (P5) */
    struct xfer_side src, dst;
    BOOLEAN backward;         /* overlapping move to a higher address */
};

/* Where byte `done` of the transfer is on one side, and how many bytes from
 * there stay contiguous (an MDL page ends at its page boundary). */
static BOOLEAN side_at(const struct xfer *t, const struct xfer_side *s, UINT64 done,
                       UINT64 *addr, UINT64 *room)
{
    if (s->segment_id != 0) {
        *addr = s->address + t->offset + done;
        *room = UINT64_MAX;
        return TRUE;
    }
    UINT64 in_page = done & (WK_GPU_PAGE_SIZE - 1);
    if (!mdl_page_address(s->mdl, t->mdl_offset + (done >> WK_GPU_PAGE_SHIFT), addr))
        return FALSE;
    *addr += in_page;
    *room = WK_GPU_PAGE_SIZE - in_page;
    return TRUE;
}

static UINT64 min64(UINT64 a, UINT64 b)
{
    return a < b ? a : b;
}

/* One COPY of the next chunk; *done grows by its size. Backward moves take
 * chunks from the end (segment sides only, so no page limits apply). */
static enum rd_emit_result transfer_chunk(struct wk_gpu_writer *w, const struct xfer *t, UINT64 *done)
{
    UINT64 left = t->size - *done;
    if (t->backward) {
        UINT64 chunk = min64(RD_CHUNK, left);
        UINT64 at = left - chunk + t->offset;
        wk_status st = wk_gpu_emit_copy(w, t->src.address + at, t->dst.address + at, chunk);
        if (st == WK_OK)
            *done += chunk;
        return rd_emit_result_of(st);
    }
    UINT64 src, dst, room_src, room_dst;
    if (!side_at(t, &t->src, *done, &src, &room_src) ||
        !side_at(t, &t->dst, *done, &dst, &room_dst))
        return RD_EMIT_ABANDON;
    UINT64 chunk = min64(min64(RD_CHUNK, left), min64(room_src, room_dst));
    wk_status st = wk_gpu_emit_copy(w, src, dst, chunk);
    if (st == WK_OK)
        *done += chunk;
    return rd_emit_result_of(st);
}

/* A move inside the GPU address space whose destination overlaps the tail
 * of its source must copy from the end, or it would read bytes it already
 * overwrote (a relocation inside one segment). */
static BOOLEAN needs_backward(const struct xfer *t)
{
    if (t->src.segment_id == 0 || t->dst.segment_id == 0)
        return FALSE;
    UINT64 s = t->src.address + t->offset, d = t->dst.address + t->offset;
    return d > s && d - s < t->size;
}

static NTSTATUS run_transfer(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w,
                             struct xfer *t)
{
    t->backward = needs_backward(t);
    UINT64 done = progress_load(args, t->size);
    enum rd_emit_result r = RD_EMIT_OK;
    while (done < t->size && (r = transfer_chunk(w, t, &done)) == RD_EMIT_OK)
        ;
    progress_store(args, done, t->size);
    return rd_status_of(r);
}

#define XFER_SIDE(arm)                                                                             \
    { (arm).SegmentId, (UINT64)(arm).SegmentAddress.QuadPart, (arm).SegmentId ? NULL : (arm).pMdl }

static NTSTATUS op_transfer(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
    struct xfer t = { args->Transfer.TransferSize, args->Transfer.TransferOffset,
                      args->Transfer.MdlOffset, XFER_SIDE(args->Transfer.Source),
                      XFER_SIDE(args->Transfer.Destination), FALSE };
    return run_transfer(args, w, &t);
}

/* Two contiguous ranges (any nonzero side id: not an MDL), as the paging
 * process's addresses of a TRANSFER_VIRTUAL are. */
NTSTATUS rd_copy_range(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w, UINT64 src, UINT64 dst,
                       UINT64 size)
{
    struct xfer t = { size, 0, 0, { 1, src, NULL }, { 1, dst, NULL }, FALSE };
    return run_transfer(args, w, &t);
}

/* P16: as Transfer; the operation has no MdlOffset (its MDL starts at page 0)
 * and the model has no swizzling ranges to program. */
static NTSTATUS op_special_lock_transfer(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
    struct xfer t = { args->SpecialLockTransfer.TransferSize,
                      args->SpecialLockTransfer.TransferOffset, 0,
                      XFER_SIDE(args->SpecialLockTransfer.Source),
                      XFER_SIDE(args->SpecialLockTransfer.Destination), FALSE };
    return run_transfer(args, w, &t);
}

/* ------------------------------------------------------------------ */
/* FILL, INIT_CONTEXT_RESOURCE                                          */
/* ------------------------------------------------------------------ */

/* FILL of [address, address + size) in chunks, resumable. */
NTSTATUS rd_fill_range(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w, UINT64 address, UINT64 size,
                       UINT pattern)
{
    UINT64 done = progress_load(args, size);
    enum rd_emit_result r = RD_EMIT_OK;
    while (done < size) {
        UINT64 chunk = min64(RD_CHUNK, size - done);
        if ((r = rd_emit_result_of(wk_gpu_emit_fill(w, address + done, chunk, pattern))) != RD_EMIT_OK)
            break;
        done += chunk;
    }
    progress_store(args, done, size);
    return rd_status_of(r);
}

/* P10: VidMm fills memory segments only; the address is absolute (P6). */
static NTSTATUS op_fill(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
#ifdef RD_LEGAL_FILL_WHOLE_PAGES /* wk_test_seg64k_fill_pages: fills its 64 KiB pages whole (facts 5.5 G12) */
    UINT64 size = (args->Fill.FillSize + 0xFFFFull) & ~0xFFFFull;
    return rd_fill_range(args, w, (UINT64)args->Fill.Destination.SegmentAddress.QuadPart, size,
                         args->Fill.FillPattern);
#endif
    return rd_fill_range(args, w, (UINT64)args->Fill.Destination.SegmentAddress.QuadPart,
                      args->Fill.FillSize, args->Fill.FillPattern);
}

/* FILL with 0 of each MDL page (the context allocation sits in system
 * memory); progress in bytes, one page per command. */
static NTSTATUS zero_mdl(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w, MDL *mdl,
                         UINT64 size)
{
    UINT64 done = progress_load(args, size);
    enum rd_emit_result r = RD_EMIT_OK;
    while (done < size) {
        UINT64 addr, chunk = min64(WK_GPU_PAGE_SIZE, size - done);
        if (!mdl_page_address(mdl, done >> WK_GPU_PAGE_SHIFT, &addr))
            break;
        if ((r = rd_emit_result_of(wk_gpu_emit_fill(w, addr, chunk, 0))) != RD_EMIT_OK)
            break;
        done += chunk;
    }
    progress_store(args, done, size);
    return rd_status_of(r);
}

/* P19: a context allocation starts zeroed. Its size is the driver's own
 * (the operation carries none). */
static NTSTATUS op_init_context_resource(struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                                         struct wk_gpu_writer *w)
{
    HANDLE h = args->InitContextResource.hAllocation;
    struct rd_allocation *alloc = wk_rd_context_allocation_find(a, h);
    if (!alloc) {
        RD_TRACE("refdriver: InitContextResource: unknown allocation %p\n", h);
        return STATUS_SUCCESS;
    }
#ifdef RD_GPU_VIRTUAL /* "all paging operation will occur in the virtual address space of the system context" */
    if (a->paging_root_entries) /* the paging process's: GpuVirtualAddress is the resource's address there */
        return rd_fill_range(args, w, args->InitContextResource.Destination.GpuVirtualAddress, alloc->size, 0);
#endif
    if (args->InitContextResource.Destination.SegmentId == 0)
        return zero_mdl(args, w, args->InitContextResource.Destination.pMdl, alloc->size);
    UINT64 at = (UINT64)args->InitContextResource.Destination.SegmentAddress.QuadPart;
#ifdef RD_PLANTED_INIT_NEXT_PAGE /* the planted bug of wk_test_init_next_page (CMakeLists.txt) */
    at += 0x1000;
#endif
    return rd_fill_range(args, w, at, alloc->size, 0);
}

/* ------------------------------------------------------------------ */
/* READ/WRITE_PHYSICAL, SIGNAL_MONITORED_FENCE                          */
/* ------------------------------------------------------------------ */

/* P12: touch the bytes for coherency; the data does not matter, so the 4
 * bytes are copied onto themselves. One command, no partial progress. */
static NTSTATUS op_touch(struct wk_gpu_writer *w, PHYSICAL_ADDRESS pa)
{
    UINT64 addr = (UINT64)pa.QuadPart;
    return rd_status_of(rd_emit_result_of(wk_gpu_emit_copy(w, addr, addr, 4)));
}

/* P24: the model has no GPU MMU, so the GPU VA is the GPU address. */
static NTSTATUS op_signal_fence(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
    UINT64 va = args->SignalMonitoredFence.MonitoredFenceGpuVa;
#ifdef RD_PLANTED_FENCE_NEXT_PAGE /* the planted bug of wk_test_gpummu_most_in_pp_fence_off (CMakeLists.txt) */
    va += 0x1000;
#endif
    return rd_status_of(rd_emit_result_of(wk_gpu_emit_fence(w, va, args->SignalMonitoredFence.MonitoredFenceValue)));
}

/* ------------------------------------------------------------------ */
/* UPDATE_CONTEXT_ALLOCATION                                            */
/* ------------------------------------------------------------------ */

/* P20, A6: the blob the driver passed to DxgkCbUpdateContextAllocation,
 * one WRITE32 per dword at ContextAllocation + 4 i (a GPU VA, which is the
 * GPU address on the model); a trailing partial dword is zero padded, and
 * nothing goes past ContextAllocationSize. Progress in dwords. */
static NTSTATUS op_update_context_allocation(DXGKARG_BUILDPAGINGBUFFER *args,
                                             struct wk_gpu_writer *w)
{
    const BYTE *blob = args->UpdateContextAllocation.pDriverPrivateData;
    UINT64 bytes = blob ? args->UpdateContextAllocation.DriverPrivateDataSize : 0;
    UINT64 dwords = min64((bytes + 3) / 4, args->UpdateContextAllocation.ContextAllocationSize / 4);
    UINT64 done = min64(args->MultipassOffset, dwords);
    enum rd_emit_result r = RD_EMIT_OK;
    for (; done < dwords; done++) {
        BYTE v[4] = { 0, 0, 0, 0 };
        RtlCopyMemory(v, blob + 4 * done, (size_t)min64(4, bytes - 4 * done));
        UINT value = (UINT)v[0] | (UINT)v[1] << 8 | (UINT)v[2] << 16 | (UINT)v[3] << 24;
        UINT64 addr = args->UpdateContextAllocation.ContextAllocation + 4 * done;
#ifdef RD_LEGAL_WIDE_UPDATE /* wk_test_wide_update: each dword written twice, so a 28-byte buffer never holds one */
        if (w->capacity - w->used < 2 * 16u) { /* two WRITE32 of 16 bytes (docs/gpu-model.md) */
            r = RD_EMIT_FULL;
            break;
        }
        (void)wk_gpu_emit_write32(w, addr, value);
#endif
        if ((r = rd_emit_result_of(wk_gpu_emit_write32(w, addr, value))) != RD_EMIT_OK)
            break;
    }
    args->MultipassOffset = (UINT)done;
    return rd_status_of(r);
}

/* ------------------------------------------------------------------ */
/* MAP / UNMAP_APERTURE_SEGMENT                                         */
/* ------------------------------------------------------------------ */

/* The aperture page range [first, first + count) exists (P13, P14). */
static BOOLEAN aperture_range_ok(const struct rd_adapter *a, UINT segment_id, UINT64 first,
                                 UINT64 count)
{
    const struct rd_segment *seg = rd_segment(a, segment_id);
    if (!seg || seg->kind != WK_GPU_SEGMENT_APERTURE) {
        RD_TRACE("refdriver: segment %u is not an aperture\n", segment_id);
        return FALSE;
    }
    UINT64 pages = seg->size >> WK_GPU_PAGE_SHIFT;
    if (first > pages || count > pages - first) {
        RD_TRACE("refdriver: aperture pages %llu+%llu beyond %llu\n", (unsigned long long)first,
                 (unsigned long long)count, (unsigned long long)pages);
        return FALSE;
    }
    return TRUE;
}

/* As many pages as fit in one GART_MAP (at least one, or 0: buffer full). */
static UINT64 map_pages_that_fit(const struct wk_gpu_writer *w, UINT64 wanted)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(WK_GPU_OP_GART_MAP);
    UINT64 avail = w->capacity - w->used;
    if (avail < (UINT64)op->fixed_bytes + op->list_element_bytes)
        return 0;
    UINT64 fit = (avail - op->fixed_bytes) / op->list_element_bytes;
    return min64(min64(wanted, fit), op->max_list_count);
}

/* Where the pages of a map come from: an MDL's PFN array (operation 5), or
 * an ADL (operation 17), contiguous (base + n) or a page array. */
struct page_source {
    const PFN_NUMBER *array; /* NULL: contiguous from base */
    UINT64 base;
};

/* Pages [from, from + n) of the source, where GART_MAP reads them: the
 * array itself, or `scratch` filled in for a contiguous run. */
static const PFN_NUMBER *source_pages(const struct page_source *src, UINT64 from, UINT64 n, PFN_NUMBER *scratch)
{
    if (src->array)
        return src->array + from;
    for (UINT64 i = 0; i < n; i++)
        scratch[i] = (PFN_NUMBER)(src->base + from + i);
    return scratch;
}

#define RD_MAP_RUN 64u /* pages of a contiguous ADL written per GART_MAP */

/* P13: GART_MAP of `count` pages of the source from `first_in_source`,
 * chunked by what fits; MultipassOffset = pages mapped; after the last
 * chunk one TLB_FLUSH, which may land in the next buffer (MultipassOffset
 * = count). */
static NTSTATUS map_pages(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w, UINT seg, UINT64 first,
                          UINT64 count, const struct page_source *src, UINT64 first_in_source)
{
    PFN_NUMBER scratch[RD_MAP_RUN];
    UINT64 done = min64(args->MultipassOffset, count);
    while (done < count) {
        UINT64 n = map_pages_that_fit(w, count - done);
        if (n == 0)
            break;
        if (!src->array)
            n = min64(n, RD_MAP_RUN);
        const PFN_NUMBER *pfns = source_pages(src, first_in_source + done, n, scratch);
        enum rd_emit_result r = rd_emit_result_of(
            wk_gpu_emit_gart_map(w, seg, (uint32_t)(first + done), (uint32_t)n, pfns));
        if (r == RD_EMIT_ABANDON)
            return STATUS_SUCCESS;
        if (r == RD_EMIT_FULL)
            break;
        done += n;
    }
    args->MultipassOffset = (UINT)done;
    if (done < count)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    return rd_status_of(rd_emit_result_of(wk_gpu_emit_tlb_flush(w, seg)));
}

/* P13: NumberOfPages pages of the MDL from MdlOffset. */
static NTSTATUS op_map_aperture(struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                                struct wk_gpu_writer *w)
{
    UINT seg = args->MapApertureSegment.SegmentId;
    UINT64 first = args->MapApertureSegment.OffsetInPages;
    UINT64 count = args->MapApertureSegment.NumberOfPages;
    MDL *mdl = args->MapApertureSegment.pMdl;
    UINT64 mdl_first = args->MapApertureSegment.MdlOffset;
    if (count == 0 || !aperture_range_ok(a, seg, first, count) || !mdl ||
        mdl_first + count > mdl_pages(mdl))
        return STATUS_SUCCESS;
    struct page_source src = { MmGetMdlPfnArray(mdl), 0 };
    return map_pages(args, w, seg, first, count, &src, mdl_first);
}

/* MAP_APERTURE_SEGMENT2 (the RD_MAP2 build opts in): the same from an ADL,
 * "either contiguous or a page array; the driver must be able to handle
 * both cases" (seed 003), from page AdlOffset. */
static NTSTATUS op_map_aperture2(struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                                 struct wk_gpu_writer *w)
{
    UINT seg = args->MapApertureSegment2.SegmentId;
    UINT64 first = args->MapApertureSegment2.OffsetInPages;
    UINT64 count = args->MapApertureSegment2.NumberOfPages;
    const DXGK_ADL *adl = &args->MapApertureSegment2.Adl;
    UINT64 adl_first = args->MapApertureSegment2.AdlOffset;
#ifdef RD_PLANTED_ADL_NO_OFFSET
    adl_first = 0; /* planted: every chunk from the ADL's first page */
#endif
    if (count == 0 || !aperture_range_ok(a, seg, first, count) || adl_first + count > adl->PageCount)
        return STATUS_SUCCESS;
    struct page_source src = { NULL, adl->BasePageNumber };
#ifndef RD_PLANTED_ADL_ALWAYS_CONTIGUOUS /* planted: reads BasePageNumber whatever the flag says */
#ifdef RD_PLANTED_ADL_ALWAYS_ARRAY /* planted: reads Pages whatever the flag says */
    if (1) {
#else
    if (!adl->Flags.Contiguous) {
#endif
        if (!adl->Pages)
            return STATUS_SUCCESS;
        src.array = (const PFN_NUMBER *)adl->Pages;
    }
#endif
    return map_pages(args, w, seg, first, count, &src, adl_first);
}

/* P14: the pages point at DummyPage, never invalid; then TLB_FLUSH.
 * MultipassOffset 0: nothing done; 1: GART_UNMAP written, flush pending. */
static NTSTATUS op_unmap_aperture(struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                                  struct wk_gpu_writer *w)
{
    UINT seg = args->UnmapApertureSegment.SegmentId;
    UINT64 first = args->UnmapApertureSegment.OffsetInPages;
    UINT64 count = args->UnmapApertureSegment.NumberOfPages;
    if (count == 0 || !aperture_range_ok(a, seg, first, count))
        return STATUS_SUCCESS;
    if (args->MultipassOffset == 0) {
        UINT64 dummy = (UINT64)args->UnmapApertureSegment.DummyPage.QuadPart >> WK_GPU_PAGE_SHIFT;
        enum rd_emit_result r = rd_emit_result_of(
            wk_gpu_emit_gart_unmap(w, seg, (uint32_t)first, (uint32_t)count, dummy));
        if (r != RD_EMIT_OK)
            return rd_status_of(r);
        args->MultipassOffset = 1;
    }
    return rd_status_of(rd_emit_result_of(wk_gpu_emit_tlb_flush(w, seg)));
}

/* ------------------------------------------------------------------ */
/* The DDI                                                              */
/* ------------------------------------------------------------------ */

static NTSTATUS dispatch(struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                         struct wk_gpu_writer *w)
{
    NTSTATUS st = STATUS_SUCCESS;
    if (wk_rd_gpummu_paging(a, args, w, &st)) /* UPDATE_PAGE_TABLE, FLUSH_TLB: the GpuMmu build's */
        return st;
    switch (args->Operation) {
    case DXGK_OPERATION_TRANSFER: return op_transfer(args, w);
    case DXGK_OPERATION_FILL: return op_fill(args, w);
    case DXGK_OPERATION_DISCARD_CONTENT: return STATUS_SUCCESS; /* P11: nothing to copy */
    case DXGK_OPERATION_READ_PHYSICAL: return op_touch(w, args->ReadPhysical.PhysicalAddress);
    case DXGK_OPERATION_WRITE_PHYSICAL: return op_touch(w, args->WritePhysical.PhysicalAddress);
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT: return op_map_aperture(a, args, w);
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2: return op_map_aperture2(a, args, w);
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT: return op_unmap_aperture(a, args, w);
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER: return op_special_lock_transfer(args, w);
    case DXGK_OPERATION_INIT_CONTEXT_RESOURCE: return op_init_context_resource(a, args, w);
    case DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION: return op_update_context_allocation(args, w);
    case DXGK_OPERATION_SIGNAL_MONITORED_FENCE: return op_signal_fence(args, w);
    default:
        /* GPU-VA operations (8, 9, 11, 12, 14, 15) are only sent to drivers
         * that opted in (VirtualAddressingSupported), which this build does
         * not (the GpuMmu build takes them in gpummu.c); the DDI has no status
         * for "unsupported" (facts 2.2), so: nothing written. */
        RD_TRACE("refdriver: BuildPagingBuffer: operation %d not supported\n",
                 (int)args->Operation);
        return STATUS_SUCCESS;
    }
}

/* Informational bookkeeping in the paging buffer's private data (P18); the
 * pointer is left where it is, so all submissions of the buffer share it. */
/* Operations at the paging process's addresses: TRANSFER_VIRTUAL,
 * FILL_VIRTUAL, COPY_PAGE_TABLE_ENTRIES, UPDATE_PAGE_TABLE in the
 * GPU_VIRTUAL mode, and UPDATE_CONTEXT_ALLOCATION once the kernel gave the
 * system context the paging process's root (before, or in the physical
 * build, its address is the allocation's GPU address). */
static UINT paging_kind(const struct rd_adapter *a, const DXGKARG_BUILDPAGINGBUFFER *args)
{
    if (args->Operation == DXGK_OPERATION_VIRTUAL_TRANSFER || args->Operation == DXGK_OPERATION_VIRTUAL_FILL ||
        args->Operation == DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES)
        return RD_DMA_PAGING_VIRTUAL;
    if (args->Operation == DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION && a->paging_root_entries)
        return RD_DMA_PAGING_VIRTUAL;
#ifdef RD_GPU_VIRTUAL
    if (args->Operation == DXGK_OPERATION_INIT_CONTEXT_RESOURCE && a->paging_root_entries)
        return RD_DMA_PAGING_VIRTUAL; /* at GpuVirtualAddress, the paging process's */
#endif
    if (args->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE &&
        args->UpdatePageTable.UpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL)
        return RD_DMA_PAGING_VIRTUAL; /* its table's address is the paging process's */
#ifdef RD_LEGAL_MOST_IN_PP /* the operations whose addresses are physical by their layout run physically: the
                            * model reaches no physical address under a root */
    if (args->Operation == DXGK_OPERATION_READ_PHYSICAL || args->Operation == DXGK_OPERATION_WRITE_PHYSICAL ||
        args->Operation == DXGK_OPERATION_SPECIAL_LOCK_TRANSFER || args->Operation == DXGK_OPERATION_TRANSFER ||
        args->Operation == DXGK_OPERATION_FILL)
        return RD_DMA_PAGING_PHYSICAL;
#endif
    return RD_DMA_PAGING;
}

static void note_private(const struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args, UINT64 bytes)
{
    struct rd_dma_private *p = rd_dma_private_of(args->pDmaBufferPrivateData,
                                                 args->DmaBufferPrivateDataSize);
    if (!p || bytes == 0)
        return;
    p->magic = RD_MAGIC_DMA;
    p->kind = paging_kind(a, args);
    p->commands++;
}

/* The model runs a submission physically or in one address space, never
 * both: an operation of the other kind than those already in the buffer
 * asks for a fresh one (INSUFFICIENT_DMA_BUFFER, nothing written). */
static BOOLEAN needs_fresh_buffer(const struct rd_adapter *a, const DXGKARG_BUILDPAGINGBUFFER *args)
{
    struct rd_dma_private *p = rd_dma_private_of(args->pDmaBufferPrivateData,
                                                 args->DmaBufferPrivateDataSize);
    return p && p->magic == RD_MAGIC_DMA && args->DmaBufferWriteOffset != 0 &&
           (p->kind == RD_DMA_PAGING || p->kind == RD_DMA_PAGING_VIRTUAL || p->kind == RD_DMA_PAGING_PHYSICAL) &&
           p->kind != paging_kind(a, args);
}

NTSTATUS wk_rd_build_paging_buffer(const HANDLE hAdapter,
                                   DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    DXGKARG_BUILDPAGINGBUFFER *args = pBuildPagingBuffer;
    if (!a || !args) /* a kernel bug; nothing can be written */
        return STATUS_SUCCESS;
    if (args->pDmaBuffer && needs_fresh_buffer(a, args))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, args->pDmaBuffer, args->pDmaBuffer ? args->DmaSize : 0);
    NTSTATUS st = dispatch(a, args, &w);
    if (w.used) {
        args->pDmaBuffer = (BYTE *)args->pDmaBuffer + w.used;
        args->DmaSize -= (UINT)w.used;
    }
    note_private(a, args, w.used);
    return st;
}
