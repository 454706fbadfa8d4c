/* SPDX-License-Identifier: MIT */
/*
 * trivial.c - the smallest driver source a project compiles against an
 * installed kit: the DDI types (wddmkit/driver.h) and one call into the
 * GPU model's encoder (wddmkit/gpu.h, libwk_gpu.a), so a missing library
 * fails the link or the load. DriverEntry refuses: no DDI table.
 */
#include "wddmkit/driver.h"
#include "wddmkit/gpu.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    (void)RegistryPath;
    uint8_t buffer[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buffer, sizeof(buffer));
    if (!DriverObject || wk_gpu_emit_nop(&w) != WK_OK)
        return STATUS_INVALID_PARAMETER;
    return STATUS_NOT_SUPPORTED;
}
