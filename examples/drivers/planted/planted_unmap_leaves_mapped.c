/* SPDX-License-Identifier: MIT */
/*
 * planted_unmap_leaves_mapped.c - planted bug (CATALOGUE.md, entry 32):
 * UNMAP_APERTURE_SEGMENT only flushes the TLB; the unmapped pages keep
 * pointing at the pages they mapped.
 *
 * The bug as it happens in real drivers: a lazy unmap, "VidMm will not
 * reference those pages again, so rewriting the entries is wasted work".
 * But the pages the entries still name go back to the system once
 * unmapped, and every unmapped page must point at DummyPage, whose
 * contents VidMm watches to detect stray GPU accesses (facts §5.1 P14;
 * seed DXGKARG_BUILDPAGINGBUFFER, DummyPage): a stale entry lets the GPU
 * read or write memory that now belongs to someone else.
 *
 * Expected rule: PAGING-UNMAP-001 (after UnmapApertureSegment the pages
 * point at DummyPage). The operation is rewritten here as the buggy driver
 * has it (one TLB_FLUSH of the segment); every other operation is the
 * reference driver's.
 */
#include "refwrap.h"
#include "wddmkit/gpu.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS unmap_flush_only(DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (a->UnmapApertureSegment.NumberOfPages == 0)
        return STATUS_SUCCESS;
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, a->pDmaBuffer, a->pDmaBuffer ? a->DmaSize : 0);
    /* BUG: no GART_UNMAP to DummyPage before the flush. */
    wk_status st = wk_gpu_emit_tlb_flush(&w, a->UnmapApertureSegment.SegmentId);
    if (st == WK_E_NO_SPACE)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    a->pDmaBuffer = (BYTE *)a->pDmaBuffer + w.used;
    a->DmaSize -= (UINT)w.used;
    return STATUS_SUCCESS;
}

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (a && a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT)
        return unmap_flush_only(a);
    return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiBuildPagingBuffer = buggy_build_paging_buffer;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
