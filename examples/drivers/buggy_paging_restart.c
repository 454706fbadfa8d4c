/* SPDX-License-Identifier: MIT */
/*
 * buggy_paging_restart.c - planted bug: DxgkDdiBuildPagingBuffer ignores
 * MultipassOffset and starts every operation from the beginning.
 *
 * The bug as it happens in real drivers: multipass is rare with the usual
 * paging-buffer sizes, so the resume path is never exercised; the driver
 * builds "the operation" on every call. When an operation does not fit one
 * paging buffer (a large FILL or TRANSFER in a small buffer), the driver
 * writes the first part again on every call and asks for another buffer
 * forever.
 *
 * Caught by: PAGING-PROGRESS-001 (not finished after max_passes calls),
 * found by fuzz_paging and fuzz_prog with a small paging buffer. Everything
 * else is the reference driver's BuildPagingBuffer: this wrapper only
 * forgets the progress the kernel hands back.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    if (pBuildPagingBuffer)
        pBuildPagingBuffer->MultipassOffset = 0; /* BUG: "start the operation" on every call */
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
