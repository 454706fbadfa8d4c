/* SPDX-License-Identifier: MIT */
/*
 * map_aperture2.c - DXGK_OPERATION_MAP_APERTURE_SEGMENT2: the aperture
 * mapping a WDDM 3.0 driver gets in place of MAP_APERTURE_SEGMENT, its
 * pages in an address descriptor list (DXGK_ADL) instead of an MDL.
 *
 * Who gets it: "a driver opting in through DXGK_VIDMMCAPS.MapAperture2Supported
 * receives 17 instead of 5" (docs/wddm-facts.md, operation 17, WDDM 3.0).
 * The kit takes the opt-in from a driver whose DRIVER_INITIALIZATION_DATA
 * says WDDM 3.0 or later (DXGKDDI_INTERFACE_VERSION_WDDM3_0); an older
 * interface has no such cap (its bit was reserved), so such a driver gets
 * operation 5 as before.
 *
 * What it gets, each field as seed 003 (DXGKARG_BUILDPAGINGBUFFER,
 * MapApertureSegment2) says:
 *  - Adl: the allocation's pages, all of them, as the MDL of operation 5
 *    held them. "This ADL can be either contiguous or a page array; the
 *    driver must be able to handle both cases": the kit gives the
 *    contiguous form (Flags.Contiguous, BasePageNumber) whenever the pages
 *    are one run (a DMA or paging buffer placed in an aperture, a one-page
 *    allocation) and the array otherwise (an allocation's system pages are
 *    scattered, sysmem.c), so a suite reaches both. The array is handed
 *    read-only with 4 GiB of inaccessible address space after it
 *    (guard_input.c): DXGK_ADL.Pages is `const DXGK_PAGE_NUMBER *`, and a
 *    driver that reads past PageCount faults, MEM-GUARD-001 naming it.
 *    The kit has no IOMMU: its logical pages are the physical frames
 *    ("Up until WDDM 3.0, dxgkrnl only supported IOMMU isolation through
 *    1:1 physical remapping", IOMMU DMA remapping).
 *  - AdlOffset: "the offset within the ADL to the start of the range ...
 *    being mapped for the current operation, specified in system memory
 *    pages": the chunk's first page, as MdlOffset is for operation 5.
 *  - CpuVisibleAddress: "If a driver's allocation was created with the
 *    MapApertureCpuVisible flag set, CpuVisibleAddress is a non-null
 *    pointer to a system-mapped, kernel-mode virtual address ...; if
 *    MapApertureCpuVisible is not specified, CpuVisibleAddress is NULL".
 *    The kit's choice where the page says nothing: it points at the
 *    allocation's first byte (the whole allocation is mapped), not at the
 *    chunk's. It is a mapping of its own, ended right after the
 *    allocation's unmap ("will be freed immediately after the corresponding
 *    DXGK_OPERATION_UNMAP_APERTURE_SEGMENT call"): aperture_view.c.
 * The effect is judged as operation 5's (PAGING-MAP-001, paging_ops.c):
 * after it, the GPU translates each page to the ADL's page from AdlOffset
 * on.
 */
#include <string.h>

#include "internal.h"

int map2_wanted(const struct wk_vidmm *vm)
{
    return vm->caps.MemoryManagementCaps.MapAperture2Supported &&
           vm->ddi.Version >= DXGKDDI_INTERFACE_VERSION_WDDM3_0;
}

/* Whether the MDL's pages are one run of consecutive frames. */
static int one_run(const MDL *mdl)
{
    for (ULONG i = 1; i < mdl->wk_page_count; i++)
        if (mdl->wk_pfns[i] != mdl->wk_pfns[0] + i)
            return 0;
    return mdl->wk_page_count > 0;
}

wk_status map2_args(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *args, struct allocation *a, MDL *mdl,
                    uint64_t mdl_offset, struct gbuf *pages)
{
    memset(pages, 0, sizeof(*pages));
    args->Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT2;
    DXGK_ADL *adl = &args->MapApertureSegment2.Adl;
    adl->PageCount = mdl->wk_page_count;
    adl->Flags.Value = 0;
    if (one_run(mdl)) {
        adl->Flags.Contiguous = 1;
        adl->BasePageNumber = mdl->wk_pfns[0];
    } else {
        /* PFN_NUMBER and DXGK_PAGE_NUMBER are both 64-bit here ("guaranteed
         * to be the same size as a PFN_NUMBER", DXGK_ADL) */
        _Static_assert(sizeof(PFN_NUMBER) == sizeof(DXGK_PAGE_NUMBER), "an MDL's PFNs are an ADL's pages");
        wk_status st = gbuf_alloc_input(vm, pages, mdl->wk_pfns, (uint64_t)mdl->wk_page_count * sizeof(PFN_NUMBER),
                                        "ADL page array (DXGK_ADL.Pages)");
        if (st != WK_OK)
            return st;
        adl->Pages = (const DXGK_PAGE_NUMBER *)pages->ptr;
    }
    args->MapApertureSegment2.AdlOffset = (ULONG)mdl_offset;
    args->MapApertureSegment2.CpuVisibleAddress = aperture_view_get(vm, a, mdl);
    return WK_OK;
}
