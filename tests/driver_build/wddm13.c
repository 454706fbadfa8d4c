/* SPDX-License-Identifier: MIT */
/*
 * wddm13.c - the reference driver reporting DXGK_DRIVERCAPS.WDDMVersion
 * WDDM 1.3: a WDDM 1.x driver of the kit's GPU, which the kit does not ask
 * SIGNAL_MONITORED_FENCE (WDDM 2.2's, facts §1.1, P24). For it a
 * `signal_fence` aimed at an aperture is the kit's own write through the
 * GPU's translation (reference-impl/vidmm/paging_ops.c, kit_fence_write),
 * so the aperture and multipass cases run on it, in both profiles, with
 * the counts that write changes skipped.
 *
 * Built twice (tests/driver_build_tests.cmake):
 *   wk_test_wddm13                correct: every case passes or is a skip;
 *   wk_test_wddm13_map_underrun   WK_WDDM13_MAP_UNDERRUN: its
 *       MAP_APERTURE_SEGMENT of an allocation also maps the aperture page
 *       before the range, to the allocation's first page. Every page it
 *       was asked to map is right; the previous allocation's last page now
 *       reaches the wrong system page, which PAGING-MAP-001 names (no other
 *       page changes), and a GPU write through it shows: the fence a case aims
 *       at the end of that allocation (paging-aperture's side-by-side
 *       cases). Those cases were skips before the kit wrote the fence
 *       itself, so the bug passed.
 */
#include "refwrap.h"
#include "refdriver/refdriver.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The reference's answer, with the caps' version lowered to WDDM 1.3. */
static NTSTATUS query_as_wddm13(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiQueryAdapterInfo(hAdapter, q);
    if (NT_SUCCESS(st) && q && q->Type == DXGKQAITYPE_DRIVERCAPS && q->pOutputData &&
        q->OutputDataSize >= sizeof(DXGK_DRIVERCAPS))
        ((DXGK_DRIVERCAPS *)q->pOutputData)->WDDMVersion = DXGKDDI_WDDMv1_3;
    return st;
}

#ifdef WK_WDDM13_MAP_UNDERRUN
/* Before an allocation's MAP, on its first call, the same first MDL page
 * mapped at the aperture page before the range too: one more operation of
 * the reference's, packed ahead in the same buffer. Not in buffers too
 * small for both (the reference would need passes of its own for it). */
static NTSTATUS map_one_before(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (!a || a->Operation != DXGK_OPERATION_MAP_APERTURE_SEGMENT || !a->MapApertureSegment.hAllocation ||
        a->MapApertureSegment.OffsetInPages == 0 || a->MultipassOffset != 0 || a->DmaSize < 256)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, a);
    DXGKARG_BUILDPAGINGBUFFER before = *a;
    before.MapApertureSegment.OffsetInPages -= 1; /* BUG: the previous page too */
    before.MapApertureSegment.NumberOfPages = 1;
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, &before);
    if (st != STATUS_SUCCESS)
        return st;
    a->pDmaBuffer = before.pDmaBuffer;
    a->DmaSize = before.DmaSize;
    a->pDmaBufferPrivateData = before.pDmaBufferPrivateData;
    a->DmaBufferPrivateDataSize = before.DmaBufferPrivateDataSize;
    return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, a);
}
#endif

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiQueryAdapterInfo = query_as_wddm13;
#ifdef WK_WDDM13_MAP_UNDERRUN
    init->DxgkDdiBuildPagingBuffer = map_one_before;
#endif
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
