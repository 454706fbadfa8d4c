/* SPDX-License-Identifier: MIT */
/*
 * planted_paging_advance_past_dma_size.c - planted bug (CATALOGUE.md, entry
 * 14): DxgkDdiBuildPagingBuffer pads what each call wrote to a whole number
 * of 64-byte lines and moves pDmaBuffer past the padding, without room for
 * it.
 *
 * The bug as it happens in real drivers: the GPU's command fetcher reads
 * 64-byte lines, so the author rounds each operation's commands up to a
 * line (the unused bytes are zero, a NOP to the fetcher). The room check
 * counts the commands, not the padding, so near the end of a paging buffer
 * (and always in one that is not a multiple of 64 bytes) pDmaBuffer moves
 * past pDmaBuffer + DmaSize, and VidMm's next write lands after the buffer
 * (facts §5.1 P2: a successful call leaves pDmaBuffer just past the last
 * byte written; P3: the driver checks DmaSize first).
 *
 * Expected rule: PAGING-ADVANCE-001 (pDmaBuffer moves forward, by at most
 * DmaSize). This wrapper runs the reference driver's BuildPagingBuffer and
 * then adds the padding to both pDmaBuffer and DmaSize's decrement, as the
 * buggy driver's epilogue does.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#define FETCH_LINE 64u

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    BYTE *before = a ? a->pDmaBuffer : NULL;
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    if (!a || !before)
        return st;
    UINT written = (UINT)((BYTE *)a->pDmaBuffer - before);
    UINT pad = (FETCH_LINE - written % FETCH_LINE) % FETCH_LINE;
    if (written && pad) {
        /* BUG: the padding was never checked against DmaSize. */
        a->pDmaBuffer = (BYTE *)a->pDmaBuffer + pad;
        a->DmaSize -= pad;
    }
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
