/* SPDX-License-Identifier: MIT */
/*
 * aperture_view.c - MapApertureSegment2.CpuVisibleAddress: a kernel mapping of
 * an aperture allocation's pages whose life the documentation bounds, and
 * the fault of a driver that uses it past that life (MEM-STALE-002).
 *
 * What seed 003 (DXGKARG_BUILDPAGINGBUFFER, MapApertureSegment2) says:
 * "If a driver's allocation was created with the MapApertureCpuVisible flag
 * set, CpuVisibleAddress is a non-null pointer to a system-mapped,
 * kernel-mode virtual address for DXGK_OPERATION_MAP_APERTURE_SEGMENT2
 * operations. This address is valid as long as the allocation is mapped
 * into the aperture segment and will be freed immediately after the
 * corresponding DXGK_OPERATION_UNMAP_APERTURE_SEGMENT call for the same
 * allocation."
 *
 * So the address is a mapping of its own, not the MDL's (whose mapping,
 * MmGetSystemAddressForMdlSafe's, lives as long as the MDL): made at the
 * allocation's first MAP_APERTURE_SEGMENT2 (every chunk of one mapping gets
 * the same address, the allocation's first byte), and ended right after
 * the last DxgkDdiBuildPagingBuffer call of its UNMAP_APERTURE_SEGMENT
 * returns, before the unmap's buffer runs and its interrupt comes, or after
 * the operation whatever the driver answered to it. Ending it
 * is wk_gpu_sysmem_unmap, which leaves the range inaccessible: a driver
 * that kept the pointer and reads or writes through it later faults at the
 * instruction, and the fault is reported as MEM-STALE-002 naming the
 * allocation, the offset and how many DDI calls ago the unmap was (the last
 * APERTURE_VIEWS_ENDED ranges are remembered; an older one is a plain crash).
 *
 * The price is one page-protection change per unmap of such an allocation
 * (about 120 us on the kit's VMs): only a WDDM 3.0 driver that opted into
 * MAP_APERTURE_SEGMENT2 and flags an allocation MapApertureCpuVisible pays
 * it, and only when that allocation leaves the aperture.
 *
 * What is not caught: the model may give the same range back to a later
 * mapping of the same pages (the allocation mapped again, its MDL mapped),
 * and a pointer kept into it then works again; a range is forgotten at a
 * reset.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

static int asked_for(const struct allocation *a)
{
    DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 f;
    f.Value = a ? a->info.Flags.Value : 0;
    return f.MapApertureCpuVisible;
}

/* A range handed out again is live: a fault there is no longer about the
 * view it was. */
static void forget_range(struct wk_vidmm *vm, const void *va)
{
    for (uint32_t i = 0; i < APERTURE_VIEWS_ENDED; i++)
        if (vm->views_ended[i].va == va)
            memset(&vm->views_ended[i], 0, sizeof(vm->views_ended[i]));
}

void *aperture_view_get(struct wk_vidmm *vm, struct allocation *a, const MDL *mdl)
{
    if (!asked_for(a) || !mdl->wk_page_count)
        return NULL;
    if (a->aperture_view)
        return a->aperture_view;
    void *va = NULL;
    if (wk_gpu_sysmem_map(vm->gpu, mdl->wk_pfns, mdl->wk_page_count, &va) != WK_OK)
        return NULL;
    forget_range(vm, va);
    a->aperture_view = va;
    return va;
}

void aperture_view_end(struct wk_vidmm *vm, struct allocation *a)
{
    if (!a->aperture_view)
        return;
    uint64_t pages = a->mdl.wk_page_count;
    wk_gpu_sysmem_unmap(vm->gpu, a->aperture_view, pages);
    struct aperture_view_ended *e = &vm->views_ended[vm->views_ended_next++ % APERTURE_VIEWS_ENDED];
    *e = (struct aperture_view_ended){ .va = a->aperture_view, .bytes = pages * PAGE, .allocation = a->handle,
                                  .ddi_serial = vm->ddi_serial };
    a->aperture_view = NULL;
}

void aperture_view_forget(struct wk_vidmm *vm)
{
    memset(vm->views_ended, 0, sizeof(vm->views_ended));
    vm->views_ended_next = 0;
}

int aperture_view_report_fault(struct wk_vidmm *vm, enum wk_ddi ddi, const void *addr, enum fault_access access)
{
    const uint8_t *p = addr;
    for (uint32_t i = 0; i < APERTURE_VIEWS_ENDED; i++) {
        const struct aperture_view_ended *e = &vm->views_ended[i];
        if (!e->va || p < e->va || p >= e->va + e->bytes)
            continue;
        const char *verb = access == FAULT_WRITE ? "wrote" : access == FAULT_READ ? "read" : "accessed";
        violate(vm, R_MEM_STALE_VIEW, ddi,
                "%s through MapApertureSegment2.CpuVisibleAddress of allocation %u at offset +%llu after its "
                "UNMAP_APERTURE_SEGMENT (%llu DDI calls ago): the address is freed right after that unmap",
                verb, e->allocation, (unsigned long long)(p - e->va),
                (unsigned long long)(vm->ddi_serial - e->ddi_serial));
        return 1;
    }
    return 0;
}
