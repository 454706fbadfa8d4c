/* SPDX-License-Identifier: MIT */
/*
 * planted_render_patch_list_unchecked.c - planted bug (CATALOGUE.md, entry
 * 33): DxgkDdiRender never checks PatchLocationListOutSize; it writes a
 * patch location for every address operand of the command buffer, however
 * few entries the list has.
 *
 * The bug as it happens in real drivers: the room check covers the DMA
 * buffer, "and the patch list is sized to match it". It is not: the kernel
 * sizes it by the context's PatchLocationListSize, and a command buffer of
 * small commands with two addresses each (copies) runs out of patch
 * locations long before it runs out of DMA buffer. When either fills, the
 * driver must return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER (facts §5.2 R3:
 * "When the DMA buffer or the patch list fills up"); this one writes on,
 * past the end of the list.
 *
 * Expected rule: MEM-GUARD-001 (a write past the end of a buffer the kernel
 * gave; the patch-location list ends at a guard page). This wrapper hands
 * the reference driver's Render an unbounded PatchLocationListOutSize, as
 * the buggy driver's room check has it, and gives the kernel's value back
 * before returning.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* "The list always has room": what the buggy room check assumes. */
#define UNBOUNDED_ENTRIES 0x1000000u

static NTSTATUS buggy_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (!pRender)
        return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    UINT entries = pRender->PatchLocationListOutSize;
    pRender->PatchLocationListOutSize = UNBOUNDED_ENTRIES; /* BUG: never consulted */
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    pRender->PatchLocationListOutSize = entries;
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
