/* SPDX-License-Identifier: MIT */
/*
 * planted_render_private_data_overrun.c - planted bug (CATALOGUE.md, entry
 * 12): DxgkDdiRender writes a private record 8 bytes longer than the
 * DmaBufferPrivateDataSize it asked for.
 *
 * The bug as it happens in real drivers: the driver keeps a record per DMA
 * buffer in pDmaBufferPrivateData and reports its size in
 * DXGK_CONTEXTINFO.DmaBufferPrivateDataSize (facts §5.7 X4: that many bytes
 * come with every DMA buffer). A field is added to the record (here a
 * 64-bit submission stamp after the reference driver's 32-byte struct
 * rd_dma_private), the size reported stays the old one (a constant, or the
 * sizeof of another version of the struct), and the record is written
 * without checking the size it was handed.
 *
 * Expected rule: MEM-GUARD-001 (a write past the end of a buffer the kernel
 * gave; the private data ends at a guard page). This wrapper runs the
 * reference driver's Render, which fills its record, then stores the new
 * field after it.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The reference driver's struct rd_dma_private (refdriver.h): eight UINTs,
 * the size its DXGK_CONTEXTINFO reports. */
#define OLD_RECORD_BYTES 32u

static NTSTATUS buggy_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    if (!pRender || !pRender->pDmaBufferPrivateData ||
        (st != STATUS_SUCCESS && st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER))
        return st;
    /* BUG: the new field, written without checking DmaBufferPrivateDataSize. */
    volatile UINT64 *stamp = (volatile UINT64 *)((BYTE *)pRender->pDmaBufferPrivateData + OLD_RECORD_BYTES);
    *stamp = pRender->MultipassOffset + 1ull;
    return st;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = buggy_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
