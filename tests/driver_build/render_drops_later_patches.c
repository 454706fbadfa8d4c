/* SPDX-License-Identifier: MIT */
/*
 * render_drops_later_patches.c - the reference driver whose multipass
 * Render lists no patch locations for its later passes (an outsider's
 * planted bug, outsider 8's "Plover"): each later pass's addresses are
 * still written, prepatched from the allocation list, so while nothing
 * moves they are right and every case passes. Only a kernel that moves a
 * listed allocation between Render and the submission (adapter
 * `move_before_patch`, render.multipass-*-moved) makes them stale, and
 * then the GPU writes the old place: the data checks fail.
 */
#include "refwrap.h"
#include "refdriver/refdriver.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS render_dropping(const HANDLE hContext, DXGKARG_RENDER *r)
{
    int later = r && r->MultipassOffset != 0;
    D3DDDI_PATCHLOCATIONLIST *at = r ? r->pPatchLocationListOut : NULL;
    UINT room = r ? r->PatchLocationListOutSize : 0;
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, r);
    if (later && r && r->pPatchLocationListOut > at) { /* BUG: this pass's locations forgotten */
        r->pPatchLocationListOut = at;
        r->PatchLocationListOutSize = room;
    }
    return st;
}

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = render_dropping;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
