/* SPDX-License-Identifier: MIT */
/*
 * planted_unmap_not_dummy.c - planted bug (CATALOGUE.md, entry 19):
 * UNMAP_APERTURE_SEGMENT points the unmapped aperture pages at physical page
 * 0 instead of at DummyPage.
 *
 * The bug as it happens in real drivers: "unmap" is written as "clear the
 * entries", so each one gets address 0; Microsoft's render-only sample does
 * exactly that (facts §6). But every unmapped page must point at DummyPage,
 * which VidMm relies on to detect corruption, and page 0 is somebody's
 * memory: a stray GPU access through the aperture now reads or writes it
 * (facts §5.1 P14; seed DXGKARG_BUILDPAGINGBUFFER, DummyPage).
 *
 * Expected rule: PAGING-UNMAP-001 (after UnmapApertureSegment the pages
 * point at DummyPage). This wrapper hands the reference driver's
 * BuildPagingBuffer the address the buggy driver writes, and puts DummyPage
 * back before returning (an [in] field).
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (!a || a->Operation != DXGK_OPERATION_UNMAP_APERTURE_SEGMENT)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    PHYSICAL_ADDRESS dummy = a->UnmapApertureSegment.DummyPage;
    a->UnmapApertureSegment.DummyPage.QuadPart = 0; /* BUG: "cleared", not DummyPage */
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    a->UnmapApertureSegment.DummyPage = dummy;
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
