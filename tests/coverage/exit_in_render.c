/* SPDX-License-Identifier: MIT */
/*
 * exit_in_render.c - a driver under test that ends the process: the
 * reference driver, except that a Render whose command buffer starts with
 * "KILL" calls _exit (no atexit handler runs, so no coverage profile is
 * written). tests/coverage_cmd.sh builds it with clang's coverage flags
 * and checks that `wddmkit coverage` loses only that input's batch.
 */
#include <string.h>
#include <unistd.h>

#include "../../examples/drivers/refwrap.h"

static NTSTATUS exiting_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (pRender && pRender->pCommand && pRender->CommandLength >= 4 && memcmp(pRender->pCommand, "KILL", 4) == 0)
        _exit(9);
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
}

static void replace_render(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = exiting_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, replace_render);
}
