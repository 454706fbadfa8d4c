/* SPDX-License-Identifier: MIT */
/*
 * planted_commit_limit_zero.c - planted bug (CATALOGUE.md, entry 25): the
 * segment query leaves a memory segment's CommitLimit 0.
 *
 * The bug as it happens in real drivers: CommitLimit reads like a knob for
 * apertures ("how much of it may be mapped"), so it is filled for the
 * aperture and left zeroed for local memory; Microsoft's render-only sample
 * does exactly that (facts §6). But "a memory segment's CommitLimit equals
 * its Size" (facts §5.5 G5; seed DXGK_SEGMENTDESCRIPTOR, CommitLimit): with
 * 0 the video memory manager may commit nothing there.
 *
 * Expected rule: SEG-COMMIT-001 (a memory segment's CommitLimit equals its
 * Size). This wrapper runs the reference driver's segment query (versions 3
 * and 4) and then clears CommitLimit in each memory segment's descriptor.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void clear_memory_limits3(DXGK_QUERYSEGMENTOUT3 *out)
{
    for (UINT i = 0; out->pSegmentDescriptor && i < out->NbSegment; i++)
        if (!out->pSegmentDescriptor[i].Flags.Aperture)
            out->pSegmentDescriptor[i].CommitLimit = 0; /* BUG */
}

static void clear_memory_limits4(DXGK_QUERYSEGMENTOUT4 *out)
{
    for (UINT i = 0; out->pSegmentDescriptor && i < out->NbSegment; i++) {
        DXGK_SEGMENTDESCRIPTOR4 *d =
            (DXGK_SEGMENTDESCRIPTOR4 *)(void *)(out->pSegmentDescriptor + (SIZE_T)i * out->SegmentDescriptorStride);
        if (!d->Flags.Aperture)
            d->CommitLimit = 0; /* BUG */
    }
}

static NTSTATUS buggy_query_adapter_info(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiQueryAdapterInfo(hAdapter, pQueryAdapterInfo);
    const DXGKARG_QUERYADAPTERINFO *q = pQueryAdapterInfo;
    if (!NT_SUCCESS(st))
        return st;
    if (q->Type == DXGKQAITYPE_QUERYSEGMENT3)
        clear_memory_limits3(q->pOutputData);
    else if (q->Type == DXGKQAITYPE_QUERYSEGMENT4)
        clear_memory_limits4(q->pOutputData);
    return st;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiQueryAdapterInfo = buggy_query_adapter_info;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
