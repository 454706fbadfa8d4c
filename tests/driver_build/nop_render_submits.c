/* SPDX-License-Identifier: MIT */
/*
 * nop_render_submits.c - the reference driver with a Render that writes a
 * GPU NOP where the reference writes nothing (a command buffer of NOP
 * records only), as a driver whose hardware NOP is a real command does:
 * its DMA buffer is not empty, so it is submitted, and a hold catches it
 * where on the reference the hold catches the next render. Both drivers
 * are right; what a content check reads after the cancel is their choice,
 * and the fuzz harnesses' differential must not call the difference a
 * finding (fuzz/driver/differential.c, held_work_differs; an outsider's
 * 32-bit GPU failed cancel.nop-render-not-held so). tests/differential_tests.cmake.
 */
#include "refwrap.h"
#include "wddmkit/gpu.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS nop_render_submits(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    VOID *start = pRender->pDmaBuffer;
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, pRender);
    if (!NT_SUCCESS(st) || pRender->pDmaBuffer != start || pRender->DmaSize == 0)
        return st;
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, start, pRender->DmaSize);
    if (wk_gpu_emit_nop(&w) == WK_OK)
        pRender->pDmaBuffer = (BYTE *)start + w.used; /* a hardware NOP: the buffer is not empty */
    return st;
}

static void plant_choice(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = nop_render_submits;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_choice);
}
