/* SPDX-License-Identifier: MIT */
/*
 * write32_value_off.c - the reference driver with a Render that translates
 * each WRITE32 record of the kit's command format (umd.h) with its value's
 * low bit flipped: what lands in the allocation differs from the
 * reference's, and no rule sees it (a rule cannot know which value a user
 * meant), so the fuzz harnesses' differential must: a content check that
 * fails on the driver under test and holds on the reference. The finding
 * must say whose expected and seen values it quotes ("held on the
 * reference: digest X" read as the reference's digest, an outsider's
 * report; fuzz/driver/differential.c). tests/differential_tests.cmake.
 */
#include <stddef.h>
#include <string.h>

#include "refwrap.h"
#include "wddmkit/umd.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static unsigned char copy[64 * 1024];

/* The command buffer's copy, each WRITE32's value with its low bit flipped. */
static void flip_write32_values(UINT length)
{
    size_t at = sizeof(WK_USER_COMMAND_HEADER);
    while (at + sizeof(WK_USER_RECORD) <= length) {
        WK_USER_RECORD rec;
        memcpy(&rec, copy + at, sizeof(rec));
        if (rec.Length < sizeof(rec) || rec.Length > length - at)
            return;
        if (rec.Op == WK_USER_OP_WRITE32 && rec.Length >= sizeof(WK_USER_WRITE32))
            copy[at + offsetof(WK_USER_WRITE32, Value)] ^= 1; /* BUG */
        at += rec.Length;
    }
}

/* Render on a copy of the arguments whose pCommand (a const member) points
 * at the altered copy; what the reference wrote back (the DMA buffer and
 * list pointers it advanced) is handed to the caller, pCommand as given. */
static NTSTATUS write32_value_off(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    const VOID *given = pRender->pCommand;
    if (!given || pRender->CommandLength > sizeof(copy))
        return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    memcpy(copy, given, pRender->CommandLength);
    flip_write32_values(pRender->CommandLength);
    DXGKARG_RENDER altered;
    const VOID *ours = copy;
    memcpy(&altered, pRender, sizeof(altered));
    memcpy((char *)&altered + offsetof(DXGKARG_RENDER, pCommand), &ours, sizeof(ours));
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, &altered);
    memcpy((char *)&altered + offsetof(DXGKARG_RENDER, pCommand), &given, sizeof(given));
    memcpy(pRender, &altered, sizeof(altered));
    return st;
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = write32_value_off;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
