/* SPDX-License-Identifier: MIT */
/*
 * planted_paging_no_progress.c - planted bug (CATALOGUE.md, entry 13):
 * DxgkDdiBuildPagingBuffer builds a MAP_APERTURE_SEGMENT all or nothing:
 * when the whole operation does not fit the room left it asks for a new
 * buffer, even when it holds an empty, fresh one.
 *
 * The bug as it happens in real drivers: the room check is made once, for
 * the whole operation (its GART_MAP commands, one PFN per page, and the TLB
 * flush), instead of per command. That is fine until an operation needs
 * more than a whole paging buffer: a map of a large allocation. Then every
 * call answers STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER with nothing written
 * and no progress in MultipassOffset, and VidMm hands it new buffers
 * forever (facts §5.1 P3: the driver writes what fits and asks for room for
 * the rest, P4: its progress lives in MultipassOffset).
 *
 * Expected rule: PAGING-PROGRESS-002 (INSUFFICIENT_DMA_BUFFER on a fresh,
 * empty paging buffer with nothing written and no MultipassOffset change is
 * a stall). When the whole map fits, the reference driver's
 * BuildPagingBuffer builds it, exactly as the buggy driver would.
 */
#include "refwrap.h"
#include "wddmkit/gpu.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The buggy driver's estimate of a whole map: one GART_MAP with every PFN,
 * then a TLB_FLUSH. */
static UINT64 whole_map_bytes(UINT64 pages)
{
    const struct wk_gpu_opcode_info *map = wk_gpu_opcode_info(WK_GPU_OP_GART_MAP);
    const struct wk_gpu_opcode_info *flush = wk_gpu_opcode_info(WK_GPU_OP_TLB_FLUSH);
    return map->fixed_bytes + pages * map->list_element_bytes + flush->fixed_bytes;
}

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    /* BUG: one room check for the whole operation, not per command. */
    if (a && a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT && a->MultipassOffset == 0 &&
        whole_map_bytes(a->MapApertureSegment.NumberOfPages) > a->DmaSize)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
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
