/* SPDX-License-Identifier: MIT */
/*
 * planted_transfer_offset_as_cursor.c - planted bug (CATALOGUE.md, entry
 * 20): a multipass TRANSFER records its progress in MultipassOffset and
 * also advances Transfer.TransferOffset by the bytes it copied.
 *
 * The bug as it happens in real drivers: TransferOffset reads like the
 * cursor of the transfer ("where to copy from next"), so the author moves it
 * along before asking for more room. It is an [in] field: "TransferOffset
 * ... is the same on every repeated call; the driver resumes from its
 * MultipassOffset" (facts §5.1 P5; seed DXGKARG_BUILDPAGINGBUFFER, field
 * directions). The kernel does not promise to hand back a changed value, and
 * a driver that reads it back on the next call counts the progress twice.
 *
 * Expected rule: PAGING-INPUT-001 (the driver leaves the [in] fields, the
 * operation's arguments, unchanged). This wrapper runs the reference
 * driver's BuildPagingBuffer and then, when it asked for more room, moves
 * TransferOffset by the bytes that call added to MultipassOffset.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (!a || a->Operation != DXGK_OPERATION_TRANSFER)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    UINT before = a->MultipassOffset;
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER && a->MultipassOffset > before)
        a->Transfer.TransferOffset += a->MultipassOffset - before; /* BUG: an [in] field */
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
