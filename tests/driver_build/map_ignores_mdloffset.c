/* SPDX-License-Identifier: MIT */
/*
 * map_ignores_mdloffset.c - the reference driver with a BuildPagingBuffer
 * that maps an aperture range from the MDL's first page whatever
 * MdlOffset says ("MapApertureSegment maps NumberOfPages pages of the MDL,
 * from page MdlOffset", facts P13). A map of a whole MDL never shows it:
 * the kit maps in chunks only with `map_chunk` (paging-aperture.map-in-
 * chunks-*), and those cases must fail with PAGING-MAP-001 (outsider 7
 * planted this bug in a driver of their own, and no case caught it).
 * tests/driver_build_tests.cmake.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The reference on a copy whose MdlOffset is 0, its answer (the buffer's
 * progress) copied back: the [in] fields stay as the kit gave them. */
static NTSTATUS map_from_the_start(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (!a || a->Operation != DXGK_OPERATION_MAP_APERTURE_SEGMENT)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, a);
    DXGKARG_BUILDPAGINGBUFFER copy = *a;
    ULONG given = a->MapApertureSegment.MdlOffset;
    copy.MapApertureSegment.MdlOffset = 0; /* BUG: the MDL read from its first page */
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, &copy);
    *a = copy;
    a->MapApertureSegment.MdlOffset = given;
    return st;
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiBuildPagingBuffer = map_from_the_start;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
