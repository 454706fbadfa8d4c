/* SPDX-License-Identifier: MIT */
/*
 * segment_moved.c - the reference driver whose QUERYSEGMENT answer moves
 * memory segment 2 16 MiB up, where the hardware has no memory: with a
 * binding whose memory is the reference adapter's (wk_test_binding_good),
 * the case's layout check against the binding's memory fails
 * (tests/driver_build_tests.cmake, conform.binding_layout_checked;
 * outsider 24 found a binding's layout unchecked).
 */
#include "refwrap.h"

WK_DRIVER_EXPORT DRIVER_INITIALIZE DriverEntry;

static NTSTATUS moved_query(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiQueryAdapterInfo(hAdapter, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_QUERYSEGMENT3) {
        DXGK_QUERYSEGMENTOUT3 *o = q->pOutputData;
        if (o->pSegmentDescriptor && o->NbSegment >= 2)
            o->pSegmentDescriptor[1].BaseAddress.QuadPart += 0x1000000;
    }
    return st;
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiQueryAdapterInfo = moved_query;
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
