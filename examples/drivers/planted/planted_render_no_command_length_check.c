/* SPDX-License-Identifier: MIT */
/*
 * planted_render_no_command_length_check.c - planted bug (CATALOGUE.md,
 * entry 11): DxgkDdiRender walks the user command buffer by the header's
 * RecordCount and each record's Length, and reads each record without
 * checking that it lies inside CommandLength.
 *
 * The bug as it happens in real drivers: the record walk is bounded by the
 * count the buffer itself declares, and each record is copied out with its
 * type's size, because "the user-mode driver wrote a well-formed buffer".
 * The command buffer is user memory and hostile (facts §5.2 R1: the driver
 * validates it before using anything in it): a buffer that declares more
 * records than it holds, or whose last record is cut short, is read past
 * its end.
 *
 * Expected rule: MEM-GUARD-001 (a read past the end of a buffer the kernel
 * gave; the kit's copy of the user command buffer ends at a guard page).
 * The buggy walk runs first (it is the driver's "look at every record"
 * pass); then the reference driver's Render runs unchanged, and would have
 * refused the buffer with STATUS_INVALID_USER_BUFFER.
 */
#include <string.h>

#include "refwrap.h"
#include "wddmkit/umd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Bytes of each record type, as the reference's table has them. */
static UINT record_size(UINT op)
{
    switch (op) {
    case WK_USER_OP_COPY: return sizeof(WK_USER_COPY);
    case WK_USER_OP_FILL: return sizeof(WK_USER_FILL);
    case WK_USER_OP_WRITE32: return sizeof(WK_USER_WRITE32);
    case WK_USER_OP_BLIT: return sizeof(WK_USER_BLIT);
    default: return sizeof(WK_USER_RECORD);
    }
}

/* Copies every declared record out of the user buffer (volatile: the reads
 * happen as written). */
static void walk_records(const DXGKARG_RENDER *r)
{
    const BYTE *cmd = r->pCommand;
    WK_USER_COMMAND_HEADER h;
    if (!cmd || r->CommandLength < sizeof(h))
        return;
    memcpy(&h, cmd, sizeof(h));
    if (h.Magic != WK_USER_COMMAND_MAGIC)
        return;
    UINT64 at = sizeof(h);
    for (UINT i = 0; i < h.RecordCount; i++) {
        union { WK_USER_RECORD rec; WK_USER_COPY copy; WK_USER_FILL fill; WK_USER_WRITE32 w32; WK_USER_BLIT blit; } u;
        volatile BYTE *sink = (volatile BYTE *)&u;
        /* BUG: neither the header nor the record is checked against
         * CommandLength - at. */
        memcpy(&u.rec, cmd + at, sizeof(u.rec));
        if (u.rec.Op >= WK_USER_OP_COUNT || u.rec.Length < sizeof(u.rec))
            return; /* refused, as the driver's switch does */
        memcpy(&u, cmd + at, record_size(u.rec.Op));
        (void)sink[0];
        at += u.rec.Length;
    }
}

static NTSTATUS buggy_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (pRender)
        walk_records(pRender);
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
