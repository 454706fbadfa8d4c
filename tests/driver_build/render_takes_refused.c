/* SPDX-License-Identifier: MIT */
/*
 * render_takes_refused.c - the reference driver with a Render that takes
 * what the reference refuses: where the reference's Render fails with
 * STATUS_INVALID_PARAMETER (a reference out of its allocation, a record it
 * cannot read), this one answers STATUS_SUCCESS and writes nothing, as a
 * driver whose validation has a hole would. No rule sees that by itself;
 * the fuzz harnesses' differential must: a Render status that differs from
 * the reference's is a finding, whatever the two drivers placed
 * (fuzz/driver/differential.c, declined_within_limits; an outsider's
 * off-by-one in Render's extent check went unseen while every
 * WK_E_DRIVER_FAILED difference was excused). tests/differential_tests.cmake.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS render_takes_refused(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    return st == STATUS_INVALID_PARAMETER ? STATUS_SUCCESS : st; /* BUG: the refusal dropped */
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = render_takes_refused;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
