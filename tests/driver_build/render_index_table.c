/* SPDX-License-Identifier: MIT */
/*
 * render_index_table.c - the render-index bug of
 * examples/drivers/buggy_render_index.c in another shape: DxgkDdiRender
 * looks every referenced allocation up in a table of its own, sized for
 * the hardware's 256 bindings and filled for the entries of the list it
 * was handed, and bounds AllocationIndex by the table's size instead of
 * AllocationListSize. An index past the list but inside the table finds a
 * NULL entry, and the driver reads through it: a SIGSEGV near address 0,
 * which the kit catches and reports as DRV-CRASH-001 (SIGSEGV) in
 * DxgkDdiRender (a guard page catches the example driver's read instead:
 * MEM-GUARD-001).
 *
 * Why a test driver: the committed fuzz_render regression
 * (corpus/fuzz_render/regressions/buggy-render-index-render.bin, index 3
 * of a 3-entry list) crashes it with a signal, whose class the signature
 * names. tests/test_fuzztools.c checks that repro, triage and minimize
 * print the same signature for it (repro and triage left the class out).
 */
#include <stdint.h>
#include <string.h>

#include "refwrap.h"
#include "wddmkit/umd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#define BINDINGS 256u

/* The word after the entry's handle (WriteOperation, SegmentId), read
 * through an address computed as an integer: a NULL entry faults at a
 * small address, not as a null dereference the compiler (or UBSan) sees. */
static UINT flags_of(const DXGK_ALLOCATIONLIST *e)
{
    return *(const volatile UINT *)((uintptr_t)e + sizeof(HANDLE));
}

static void look_up(const DXGK_ALLOCATIONLIST *const *table, const WK_USER_REF *ref, volatile UINT *resident)
{
    /* BUG: bounded by the table, not by the list it was filled from. */
    if (ref->AllocationIndex < BINDINGS && (flags_of(table[ref->AllocationIndex]) & 0x3Eu) != 0)
        *resident = *resident + 1;
}

/* Walks the records as buggy_render_index.c does and looks up every
 * destination. */
static void scan(const DXGKARG_RENDER *r)
{
    const DXGK_ALLOCATIONLIST *table[BINDINGS];
    memset(table, 0, sizeof(table));
    for (UINT i = 0; r->pAllocationList && i < r->AllocationListSize && i < BINDINGS; i++)
        table[i] = &r->pAllocationList[i];
    const BYTE *cmd = r->pCommand;
    WK_USER_COMMAND_HEADER h;
    volatile UINT resident = 0;
    if (!cmd || r->CommandLength < sizeof(h))
        return;
    memcpy(&h, cmd, sizeof(h));
    UINT at = sizeof(h);
    for (UINT i = 0; i < h.RecordCount && r->CommandLength - at >= sizeof(WK_USER_RECORD); i++) {
        union { WK_USER_RECORD rec; WK_USER_COPY copy; WK_USER_FILL fill; WK_USER_WRITE32 w32; WK_USER_BLIT blit; } u;
        memset(&u, 0, sizeof(u));
        memcpy(&u, cmd + at, r->CommandLength - at < sizeof(u) ? r->CommandLength - at : sizeof(u));
        if (u.rec.Length < sizeof(WK_USER_RECORD) || u.rec.Length > r->CommandLength - at)
            return;
        if (u.rec.Op == WK_USER_OP_FILL)
            look_up(table, &u.fill.Destination, &resident);
        else if (u.rec.Op == WK_USER_OP_WRITE32)
            look_up(table, &u.w32.Destination, &resident);
        else if (u.rec.Op == WK_USER_OP_COPY || u.rec.Op == WK_USER_OP_BLIT)
            look_up(table, &u.copy.Destination, &resident);
        at += u.rec.Length;
    }
}

static NTSTATUS table_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (pRender)
        scan(pRender);
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = table_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
