/* SPDX-License-Identifier: MIT */
/*
 * buggy_render_index.c - planted bug: DxgkDdiRender trusts AllocationIndex
 * from the user command buffer and reads pAllocationList[AllocationIndex]
 * without checking it against AllocationListSize.
 *
 * The bug as it happens in real drivers: a "fast path" that looks at every
 * referenced allocation-list entry first (here, to know whether the whole
 * buffer can be pre-patched) runs before the validation pass. The command
 * buffer comes from user mode, so its indices are hostile: an index at or
 * past the list size reads past the allocation list the kernel handed over.
 *
 * Caught by: MEM-GUARD-001 (the read hits the guard page the kit places
 * right after the allocation list) or DRV-CRASH-001 (a far index faults
 * elsewhere), found by fuzz_render and fuzz_prog. After the look-up the
 * reference driver's Render runs unchanged (and would have refused the
 * index with STATUS_INVALID_PARAMETER).
 */
#include <string.h>

#include "refwrap.h"
#include "wddmkit/umd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Counts the references whose entry carries pre-patch information
 * (volatile: the reads happen as written). */
static void look_up(const DXGKARG_RENDER *r, const WK_USER_REF *ref, volatile UINT *resident)
{
    /* BUG: ref->AllocationIndex is not checked against r->AllocationListSize. */
    const DXGK_ALLOCATIONLIST *e = &r->pAllocationList[ref->AllocationIndex];
    if (e->SegmentId != 0)
        *resident = *resident + 1;
}

/* Walks the records as the reference does (each copied out, bounded by
 * CommandLength) and looks up every reference. */
static void prepatch_scan(const DXGKARG_RENDER *r)
{
    const BYTE *cmd = r->pCommand;
    WK_USER_COMMAND_HEADER h;
    volatile UINT resident = 0;
    if (!cmd || !r->pAllocationList || r->CommandLength < sizeof(h))
        return;
    memcpy(&h, cmd, sizeof(h));
    UINT at = sizeof(h);
    for (UINT i = 0; i < h.RecordCount && r->CommandLength - at >= sizeof(WK_USER_RECORD); i++) {
        union { WK_USER_RECORD rec; WK_USER_COPY copy; WK_USER_FILL fill; WK_USER_WRITE32 w32; WK_USER_BLIT blit; } u;
        memset(&u, 0, sizeof(u));
        memcpy(&u, cmd + at, r->CommandLength - at < sizeof(u) ? r->CommandLength - at : sizeof(u));
        if (u.rec.Length < sizeof(WK_USER_RECORD) || u.rec.Length > r->CommandLength - at)
            return;
        if (u.rec.Op == WK_USER_OP_COPY || u.rec.Op == WK_USER_OP_BLIT)
            look_up(r, &u.copy.Source, &resident);
        if (u.rec.Op >= WK_USER_OP_COPY && u.rec.Op <= WK_USER_OP_BLIT)
            look_up(r, u.rec.Op == WK_USER_OP_FILL ? &u.fill.Destination
                       : u.rec.Op == WK_USER_OP_WRITE32 ? &u.w32.Destination : &u.copy.Destination,
                    &resident);
        at += u.rec.Length;
    }
}

static NTSTATUS buggy_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (pRender)
        prepatch_scan(pRender);
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
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
