/* SPDX-License-Identifier: MIT */
/*
 * planted_transfer_mdl_offset_bytes.c - planted bug (CATALOGUE.md, entry
 * 17): a TRANSFER reads Transfer.MdlOffset as a byte offset into the MDL,
 * not as a page index.
 *
 * The bug as it happens in real drivers: TransferOffset, beside it, counts
 * bytes, so the author takes MdlOffset for bytes too and starts at MDL page
 * MdlOffset / PAGE_SIZE. "MdlOffset counts pages: the operation's first
 * page is entry MdlOffset of the MDL's page array" (facts §5.1 P5). It is 0
 * whenever VidMm moves an allocation in one piece, so the bug shows only
 * when a transfer is cut into pieces (P7): every piece after the first
 * reads or writes the MDL's first pages again.
 *
 * Expected rule: PAGING-TRANSFER-001 (after a Transfer the destination holds
 * the source bytes, MdlOffset in pages on the MDL side). This wrapper hands
 * the reference driver's BuildPagingBuffer the page the buggy driver
 * computes, and puts MdlOffset back before returning (an [in] field).
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#define PAGE_BYTES 4096u

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (!a || a->Operation != DXGK_OPERATION_TRANSFER)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    UINT mdl_offset = a->Transfer.MdlOffset;
    a->Transfer.MdlOffset = mdl_offset / PAGE_BYTES; /* BUG: bytes, converted to a page */
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    a->Transfer.MdlOffset = mdl_offset;
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
