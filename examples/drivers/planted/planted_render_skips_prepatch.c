/* SPDX-License-Identifier: MIT */
/*
 * planted_render_skips_prepatch.c - planted bug (CATALOGUE.md, entry 10):
 * DxgkDdiRender never pre-patches: every address operand it writes is 0,
 * left for Patch to fill, even where the allocation list already says where
 * the allocation is.
 *
 * The bug as it happens in real drivers: "Patch writes the final addresses
 * anyway", so Render emits the patch locations and leaves the operands
 * empty. But the allocation list's SegmentId and PhysicalAddress are there
 * so that Render writes them: "When SegmentId is not 0, the driver writes
 * those addresses into the DMA buffer during Render, since the system may
 * not call DxgkDdiPatch for this buffer" (facts §5.2 R6). When it does not,
 * the GPU runs commands that address 0.
 *
 * Expected rule: RENDER-PREPATCH-001 (with SegmentId != 0 in the allocation
 * list the DMA buffer already holds the final addresses). This wrapper runs
 * the reference driver's Render and then clears the 8-byte operand at every
 * patch location it wrote, which is what Render without pre-patching
 * leaves.
 */
#include <string.h>

#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS buggy_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (!pRender)
        return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    BYTE *dma = pRender->pDmaBuffer;
    D3DDDI_PATCHLOCATIONLIST *first = pRender->pPatchLocationListOut;
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    if (st != STATUS_SUCCESS && st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER)
        return st;
    /* BUG: no pre-patching: the operands stay 0. PatchOffset counts from
     * the start of the whole DMA buffer, which is where this pass began. */
    for (D3DDDI_PATCHLOCATIONLIST *p = first; p && p < pRender->pPatchLocationListOut; p++)
        memset(dma + p->PatchOffset, 0, 8);
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
