/* SPDX-License-Identifier: MIT */
/*
 * root_size.c - the size of a two-level tree's root, asked of the driver.
 *
 * With DXGK_GPUMMUCAPS.PageTableLevelCount 2 the root table is resizable:
 * the kernel asks DxgkDdiGetRootPageTableSize how many bytes a root of at
 * least NumberOfPte entries needs, places one that size, and tells each
 * context of the process where it is and how many entries it holds
 * (DxgkDdiSetRootPageTable, NumEntries); it asks again when the process
 * maps past the root's end ("Grow root", docs/wddm-gpummu-facts.md 3.3,
 * 4.7, 5.2 T3). The kit does the same (gpuva.c) and judges the answer,
 * GPUMMU-ROOTSIZE-001, by what the DDI's page says:
 *   - "DxgkDdiGetRootPageTableSize is called only when
 *     DXGK_GPUMMUCAPS::PageTableLevelCount is two": such a driver has it;
 *   - it "returns the minimum root page table size, in bytes, that is
 *     needed to hold the given number of page table entries": a size that
 *     holds them, at the GPU's entry size (the kit's GPU's or the
 *     binding's: the hardware's own width, not the driver's word);
 *   - "The size must be a multiple of the page size of the GPU memory
 *     segment where page table is located" (64 KiB for a segment with
 *     Use64KBPages, else 4 KiB);
 *   - NumberOfPte [out] is "the actual number of page table entries in the
 *     page table with the returned size", which "could be greater than the
 *     given value": never fewer than asked, and no more than the size holds.
 * "Minimum" is not judged: what the hardware needs beyond the entries
 * (alignment, a larger unit) is the driver's to know.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define KIB64 0x10000ull

/* The page size of the segment a root goes in (DXGK_SEGMENTFLAGS
 * Use64KBPages: "the segment is managed in 64 KB pages", docs/wddm-gpummu-facts.md 3.6). */
static uint64_t segment_page(const struct wk_vidmm *vm, uint32_t segment)
{
    return segment && segment <= vm->nseg && vm->seg[segment].flags.Use64KBPages ? KIB64 : WK_GPU_PAGE_SIZE;
}

int gpuva_root_size_present(struct wk_vidmm *vm)
{
    if (vm->ddi.DxgkDdiGetRootPageTableSize)
        return 1;
    violate(vm, R_GPUMMU_ROOTSIZE, WK_DDI_QUERY_ADAPTER_INFO,
            "DXGK_GPUMMUCAPS.PageTableLevelCount is 2, and the driver has no DxgkDdiGetRootPageTableSize: the "
            "kernel sizes a 2-level tree's root by calling it");
    return 0;
}

/* GPUMMU-ROOTSIZE-001 of one answer: WK_OK when it holds. */
static wk_status answer_check(struct wk_vidmm *vm, uint32_t segment, uint32_t asked, SIZE_T bytes, UINT got,
                     uint32_t entry_bytes)
{
    uint64_t page = segment_page(vm, segment);
    const char *what = NULL;
    char why[160];
    if (bytes == 0 || bytes % page) {
        snprintf(why, sizeof(why), "is not a non-zero multiple of segment %u's %llu-byte page", segment,
                 (unsigned long long)page);
        what = why;
    } else if ((uint64_t)asked * entry_bytes > bytes) {
        snprintf(why, sizeof(why), "cannot hold the %u entries asked, %u bytes each on the GPU", asked, entry_bytes);
        what = why;
    } else if (got < asked) {
        snprintf(why, sizeof(why), "comes with NumberOfPte %u written back, fewer than the %u asked", got, asked);
        what = why;
    } else if ((uint64_t)got * entry_bytes > bytes) {
        snprintf(why, sizeof(why), "holds fewer than the %u entries written back in NumberOfPte (%u bytes each)",
                 got, entry_bytes);
        what = why;
    }
    if (!what)
        return WK_OK;
    return violate(vm, R_GPUMMU_ROOTSIZE, WK_DDI_GET_ROOT_PAGE_TABLE_SIZE,
                   "DxgkDdiGetRootPageTableSize(NumberOfPte %u) returned %llu bytes, which %s", asked,
                   (unsigned long long)bytes, what);
}

wk_status gpuva_root_size(struct wk_vidmm *vm, uint32_t segment, uint32_t asked, uint32_t entry_bytes,
                          uint64_t *bytes, uint32_t *entries)
{
    *bytes = 0;
    *entries = 0;
    if (!vm->ddi.DxgkDdiGetRootPageTableSize)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiGetRootPageTableSize");
    DXGKARG_GETROOTPAGETABLESIZE a;
    memset(&a, 0, sizeof(a));
    a.NumberOfPte = asked; /* PhysicalAdapterIndex 0: the kit links no adapters */
    struct garg g;
    DXGKARG_GETROOTPAGETABLESIZE *pa =
        garg_in(vm, &g, &a, sizeof(a), "DXGKARG_GETROOTPAGETABLESIZE argument (pArgs)");
    SIZE_T size = 0;
    NTSTATUS none = STATUS_SUCCESS; /* the DDI returns a size: a rewrite may change the arguments only */
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_GET_ROOT_PAGE_TABLE_SIZE, crashed, size = vm->ddi.DxgkDdiGetRootPageTableSize(vm->miniport, pa);
             ddi_rewrite(vm, WK_DDI_GET_ROOT_PAGE_TABLE_SIZE, pa, &none));
    wk_status guard = garg_out(vm, &g, WK_DDI_GET_ROOT_PAGE_TABLE_SIZE, crashed);
    if (crashed != WK_OK || guard != WK_OK)
        return crashed != WK_OK ? crashed : guard;
    wk_status st = answer_check(vm, segment, asked, size, a.NumberOfPte, entry_bytes);
    if (st != WK_OK)
        return st;
    *bytes = size;
    *entries = a.NumberOfPte;
    return WK_OK;
}
