/* SPDX-License-Identifier: MIT */
/*
 * planted_fill_pattern_byte_swapped.c - planted bug (CATALOGUE.md, entry
 * 34): a FILL writes FillPattern with its four bytes in reverse order.
 *
 * The bug as it happens in real drivers: the fill engine's pattern register
 * is documented byte by byte ("byte 0 is the most significant"), and the
 * driver packs FillPattern into it with a byte swap meant for a big-endian
 * register block, or builds the command dword from the pattern's bytes in
 * the wrong order. Patterns whose four bytes are equal (0, 0xFFFFFFFF,
 * 0xAAAAAAAA), the ones a driver author tests with, come out the same.
 *
 * Expected rule: PAGING-FILL-001 (after a Fill the destination holds
 * FillPattern over FillSize bytes; facts §5.1 P10, seed page
 * DXGKARG_BUILDPAGINGBUFFER Fill). This wrapper hands the reference
 * driver's BuildPagingBuffer the swapped pattern the buggy driver programs,
 * and puts FillPattern back before returning (an [in] field).
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static UINT swap_bytes(UINT v)
{
    return (v >> 24) | ((v >> 8) & 0x0000FF00u) | ((v << 8) & 0x00FF0000u) | (v << 24);
}

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (!a || a->Operation != DXGK_OPERATION_FILL)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    UINT pattern = a->Fill.FillPattern;
    a->Fill.FillPattern = swap_bytes(pattern); /* BUG: the bytes in reverse order */
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    a->Fill.FillPattern = pattern;
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
