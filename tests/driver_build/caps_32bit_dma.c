/* SPDX-License-Identifier: MIT */
/*
 * caps_32bit_dma.c - the reference driver reporting a GPU that reaches
 * only the first 4 GiB: DXGK_DRIVERCAPS.HighestAcceptableAddress
 * 0xFFFFFFFF. VidMm hands such a driver no system page above it, so a case
 * whose adapter puts system memory at 6 GiB (high-memory.*) is a skip with
 * the reason, not a failure (conformance/prog/prog_run.c,
 * missing_requirement; an outsider's 32-bit GPU failed
 * high-memory.evict-and-page-in). tests/differential_tests.cmake.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static NTSTATUS query_32bit(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiQueryAdapterInfo(hAdapter, pQueryAdapterInfo);
    if (NT_SUCCESS(st) && pQueryAdapterInfo->Type == DXGKQAITYPE_DRIVERCAPS &&
        pQueryAdapterInfo->OutputDataSize >= sizeof(DXGK_DRIVERCAPS)) {
        DXGK_DRIVERCAPS *caps = pQueryAdapterInfo->pOutputData;
        caps->HighestAcceptableAddress.QuadPart = 0xFFFFFFFFll; /* 32-bit DMA */
    }
    return st;
}

static void plant_caps(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiQueryAdapterInfo = query_32bit;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_caps);
}
