/* SPDX-License-Identifier: MIT */
/*
 * tall_blit_hardware.c - the reference driver for a GPU whose BLIT takes
 * any number of rows: where the reference's Render refuses a command
 * buffer because a BLIT asks for more rows than the kit's GPU model has
 * (16384), this one answers STATUS_SUCCESS and writes nothing for it, as a
 * driver of hardware without that limit may (include/wddmkit/umd.h: "a
 * driver refuses what its own cannot do"). It reads the kit's UMD format
 * (WK_DRIVER_READS_KIT_UMD).
 *
 * Why: outsider 7's GPU took such a BLIT and fuzz_prog reported the
 * difference from the reference as a finding, where conform skips the
 * same cases for a driver whose buffers the model does not run (requires:
 * gpu-model-limits). On the model the limit is the hardware's, and taking
 * the BLIT stays a finding. tests/differential_tests.cmake.
 */
#include "refwrap.h"
#include "wddmkit/umd.h"

WK_DRIVER_READS_KIT_UMD;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Whether the command buffer holds a BLIT of more rows than the model's. */
static BOOLEAN has_tall_blit(const BYTE *p, UINT size)
{
    const WK_USER_COMMAND_HEADER *h = (const WK_USER_COMMAND_HEADER *)p;
    if (!p || size < sizeof(*h) || h->Magic != WK_USER_COMMAND_MAGIC)
        return 0;
    UINT at = sizeof(*h);
    for (UINT i = 0; i < h->RecordCount && at + sizeof(WK_USER_RECORD) <= size; i++) {
        const WK_USER_RECORD *r = (const WK_USER_RECORD *)(p + at);
        if (r->Length < sizeof(*r) || r->Length > size - at)
            return 0;
        if (r->Op == WK_USER_OP_BLIT && r->Length == sizeof(WK_USER_BLIT) &&
            ((const WK_USER_BLIT *)r)->Height > 16384u)
            return 1;
        at += r->Length;
    }
    return 0;
}

static NTSTATUS render_tall_blits(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    if (st == STATUS_INVALID_PARAMETER && has_tall_blit((const BYTE *)pRender->pCommand, pRender->CommandLength))
        return STATUS_SUCCESS; /* its hardware blits them (this test writes nothing for it) */
    return st;
}

static void plant_choice(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = render_tall_blits;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_choice);
}
