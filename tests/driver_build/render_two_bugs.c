/* SPDX-License-Identifier: MIT */
/*
 * render_two_bugs.c - a driver with two independent bugs in
 * DxgkDdiRender, for measuring whether a campaign that passes over a known
 * bug still finds another (docs/fuzzing.md, "Known signatures").
 *
 *   1. examples/drivers/buggy_render_index.c itself (included below): an
 *      AllocationIndex from the user command buffer is trusted, caught as
 *      MEM-GUARD-001 or DRV-CRASH-001 in DxgkDdiRender. The committed
 *      seeds and regressions show it, so `wddmkit fuzz` leaves them out
 *      and passes over their signatures.
 *   2. A COPY larger than 32 KiB (what this driver's copy engine moves in
 *      one command) is moved in two, and the patch location of the second
 *      half is recorded at the end of the bytes written instead of at its
 *      operand: RENDER-PATCH-003 in DxgkDdiRender. No committed input
 *      copies more than 16 KiB, so only a mutation finds it.
 */
#include "refwrap.h"

/* Bug 1, with its DriverEntry and plant_bug renamed out of the way. */
#define DriverEntry render_index_DriverEntry
#define plant_bug render_index_plant_bug
#include "buggy_render_index.c"
#undef DriverEntry
#undef plant_bug

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#define COPY_ENGINE_MAX 0x8000u

/* Whether the command buffer holds a COPY the copy engine moves in two. */
static int has_split_copy(const DXGKARG_RENDER *r)
{
    const BYTE *cmd = r->pCommand;
    WK_USER_COMMAND_HEADER h;
    if (!cmd || r->CommandLength < sizeof(h))
        return 0;
    memcpy(&h, cmd, sizeof(h));
    UINT at = sizeof(h);
    for (UINT i = 0; i < h.RecordCount && r->CommandLength - at >= sizeof(WK_USER_RECORD); i++) {
        WK_USER_COPY c;
        memset(&c, 0, sizeof(c));
        memcpy(&c, cmd + at, r->CommandLength - at < sizeof(c) ? r->CommandLength - at : sizeof(c));
        if (c.Record.Length < sizeof(WK_USER_RECORD) || c.Record.Length > r->CommandLength - at)
            return 0;
        if (c.Record.Op == WK_USER_OP_COPY && c.Size > COPY_ENGINE_MAX)
            return 1;
        at += c.Record.Length;
    }
    return 0;
}

static NTSTATUS two_bugs_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (!pRender)
        return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    const BYTE *dma = pRender->pDmaBuffer;
    const D3DDDI_PATCHLOCATIONLIST *first = pRender->pPatchLocationListOut;
    NTSTATUS st = buggy_render(hContext, pRender); /* bug 1, then the reference's Render */
    /* BUG 2: the split COPY's last patch location points past the bytes
     * written (its operand moved when the COPY was split). */
    if (NT_SUCCESS(st) && pRender->pPatchLocationListOut > first && has_split_copy(pRender))
        pRender->pPatchLocationListOut[-1].PatchOffset = (UINT)((const BYTE *)pRender->pDmaBuffer - dma);
    return st;
}

static void plant_bugs(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = two_bugs_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bugs);
}
