/* SPDX-License-Identifier: MIT */
/*
 * planted_render_patch_list_overrun.c - planted bug (CATALOGUE.md, entry 7):
 * DxgkDdiRender advances pPatchLocationListOut by every patch location the
 * rest of the command buffer needs, not by the ones it wrote.
 *
 * The bug as it happens in real drivers: the validation pass counts the
 * patch locations of the whole command buffer, and the driver moves the
 * output pointer by that count at the end. While a command buffer fits one
 * DMA buffer the two counts agree. When the DMA buffer or the patch list
 * fills first (INSUFFICIENT_DMA_BUFFER, another pass follows: facts §5.2
 * R3), the translation stopped early but the pointer still moves by the
 * full count, past the entries written and, for a long command buffer,
 * past PatchLocationListOutSize.
 *
 * Expected rule: RENDER-PATCH-001 (pPatchLocationListOut moves forward, by
 * at most PatchLocationListOutSize; facts §5.2 R2). This wrapper runs the
 * reference driver's Render and then moves the pointer as the buggy driver
 * does: on INSUFFICIENT_DMA_BUFFER, to the start plus every patch location
 * from MultipassOffset to the end of the command buffer.
 */
#include <string.h>

#include "refwrap.h"
#include "wddmkit/umd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Address operands of a user record: what Render turns into patch locations. */
static UINT refs_of(UINT op)
{
    switch (op) {
    case WK_USER_OP_COPY:
    case WK_USER_OP_BLIT: return 2;
    case WK_USER_OP_FILL:
    case WK_USER_OP_WRITE32: return 1;
    default: return 0;
    }
}

/* The validation pass's count: patch locations of the records from byte
 * `from` to the end (the reference's pass 1 already accepted the buffer). */
static UINT64 patches_needed(const DXGKARG_RENDER *r, UINT from)
{
    const BYTE *cmd = r->pCommand;
    UINT64 count = 0;
    for (UINT at = from; at < r->CommandLength && r->CommandLength - at >= sizeof(WK_USER_RECORD);) {
        WK_USER_RECORD rec;
        memcpy(&rec, cmd + at, sizeof(rec));
        if (rec.Length < sizeof(rec) || rec.Length > r->CommandLength - at)
            break;
        count += refs_of(rec.Op);
        at += rec.Length;
    }
    return count;
}

static NTSTATUS buggy_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (!pRender)
        return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    D3DDDI_PATCHLOCATIONLIST *start = pRender->pPatchLocationListOut;
    UINT from = pRender->MultipassOffset ? pRender->MultipassOffset : sizeof(WK_USER_COMMAND_HEADER);
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    /* BUG: the count of the validation pass, not the entries written. */
    if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER && start)
        pRender->pPatchLocationListOut = start + patches_needed(pRender, from);
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
