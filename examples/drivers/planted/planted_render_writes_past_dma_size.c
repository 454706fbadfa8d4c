/* SPDX-License-Identifier: MIT */
/*
 * planted_render_writes_past_dma_size.c - planted bug (CATALOGUE.md, entry
 * 8): DxgkDdiRender never checks DmaSize; it writes every command of the
 * user buffer, however little room the DMA buffer has.
 *
 * The bug as it happens in real drivers: the author relies on the user-mode
 * driver to size its command buffers so that one always fits a DMA buffer,
 * and leaves the INSUFFICIENT_DMA_BUFFER path out. But a command buffer may
 * need several DMA buffers (facts §5.2 R3: the driver returns
 * STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER when the DMA buffer fills, and the
 * runtime calls again with a new one), and the user-mode driver is not to
 * be trusted anyway (R1): a long command buffer runs past the end of the
 * DMA buffer.
 *
 * Expected rule: MEM-GUARD-001 (a write past the end of a buffer the kernel
 * gave; the DMA buffer ends at a guard page). This wrapper hands the
 * reference driver's Render an unbounded DmaSize, as the buggy driver's
 * encoder has, and gives the kernel's value back before returning.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* "Room enough for any command buffer": what the buggy encoder assumes. */
#define UNBOUNDED_ROOM 0x40000000u

static NTSTATUS buggy_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (!pRender)
        return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    UINT dma_size = pRender->DmaSize;
    pRender->DmaSize = UNBOUNDED_ROOM; /* BUG: DmaSize is never consulted */
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    pRender->DmaSize = dma_size;
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
