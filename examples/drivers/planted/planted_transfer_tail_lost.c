/* SPDX-License-Identifier: MIT */
/*
 * planted_transfer_tail_lost.c - planted bug (CATALOGUE.md, entry 15): a
 * TRANSFER resumed after INSUFFICIENT_DMA_BUFFER copies only whole 64 KiB
 * chunks of what is left; the tail of a multipass transfer is never copied,
 * and the operation reports SUCCESS.
 *
 * The bug as it happens in real drivers: the first call's loop emits
 * min(chunk, left) bytes per command, but the resume path, written later,
 * computes its work as (TransferSize - done) / CHUNK whole chunks and
 * forgets the remainder. Transfers that fit one paging buffer are right;
 * the last part of one that needed several buffers (facts §5.1 P3-P5) is
 * lost, and the allocation's content with it.
 *
 * Expected rule: PAGING-TRANSFER-001 (after a Transfer the destination holds
 * the source bytes). This wrapper runs the reference driver's
 * BuildPagingBuffer for the work the buggy resume path does: on a resumed
 * TRANSFER, the transfer cut to the whole chunks left (and SUCCESS when none
 * is left), with TransferSize given back before returning.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The reference driver's largest copy command (RD_CHUNK, refdriver.h). */
#define CHUNK 0x10000ull

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (!a || a->Operation != DXGK_OPERATION_TRANSFER || a->MultipassOffset == 0 ||
        a->Transfer.TransferSize > 0xFFFFFFFFull) /* MultipassOffset counts bytes below 4 GiB */
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    SIZE_T size = a->Transfer.TransferSize;
    UINT64 done = a->MultipassOffset;
    if (done >= size)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    /* BUG: the remainder of (size - done) / CHUNK is dropped. */
    UINT64 whole = (size - done) / CHUNK * CHUNK;
    if (whole == 0)
        return STATUS_SUCCESS;
    a->Transfer.TransferSize = (SIZE_T)(done + whole);
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    a->Transfer.TransferSize = size;
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
