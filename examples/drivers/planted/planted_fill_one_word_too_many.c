/* SPDX-License-Identifier: MIT */
/*
 * planted_fill_one_word_too_many.c - planted bug (CATALOGUE.md, entry 18):
 * a FILL writes one 32-bit pattern word past FillSize.
 *
 * The bug as it happens in real drivers: the fill is programmed as a count
 * of 32-bit words, computed as FillSize / 4 + 1 (a rounding up that was
 * meant for sizes that are not a multiple of 4, applied to all of them).
 * The word after the allocation belongs to whatever VidMm placed next.
 *
 * Expected rule: PAGING-CONFINE-001 (a paging operation changes no memory
 * outside its destination; facts §5.1 P10: Fill gives an allocation its
 * first content, over FillSize bytes). This wrapper hands the reference
 * driver's BuildPagingBuffer the size the buggy driver fills, and puts
 * FillSize back before returning (an [in] field).
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (!a || a->Operation != DXGK_OPERATION_FILL)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    SIZE_T size = a->Fill.FillSize;
    a->Fill.FillSize = (size / 4 + 1) * 4; /* BUG: one word too many */
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    a->Fill.FillSize = size;
    return st;
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
