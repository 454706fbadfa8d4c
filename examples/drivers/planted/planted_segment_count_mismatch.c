/* SPDX-License-Identifier: MIT */
/*
 * planted_segment_count_mismatch.c - planted bug (CATALOGUE.md, entry 26):
 * the first segment query counts the implicit system-memory segment too, so
 * NbSegment is one more than the segments the second query fills.
 *
 * The bug as it happens in real drivers: the public sources disagree on
 * which id the system-memory segment has and whether a driver counts it
 * (facts §7.11), and the counting function counts "every segment the GPU
 * can address", while the function that fills the descriptors reports the
 * ones the driver manages. The two calls of the query must agree: the
 * first fills NbSegment only, the second fills that many descriptors
 * (facts §5.5 G9), and the segment ids are their places in that array (G2).
 *
 * Expected rule: SEG-QUERY-002 (NbSegment is 1..31 and the same in both
 * calls). This wrapper runs the reference driver's segment query and adds
 * one to the count of the first call (versions 3 and 4).
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Whether this call is the first of the two (G9): no descriptor array in
 * version 3, NbSegment 0 in version 4. */
static BOOLEAN counting_call(const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!q || !q->pOutputData)
        return 0;
    if (q->Type == DXGKQAITYPE_QUERYSEGMENT3)
        return ((const DXGK_QUERYSEGMENTOUT3 *)q->pOutputData)->pSegmentDescriptor == NULL;
    if (q->Type == DXGKQAITYPE_QUERYSEGMENT4)
        return ((const DXGK_QUERYSEGMENTOUT4 *)q->pOutputData)->NbSegment == 0;
    return 0;
}

static NTSTATUS buggy_query_adapter_info(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo)
{
    BOOLEAN counting = counting_call(pQueryAdapterInfo);
    NTSTATUS st = wk_wrap_reference.DxgkDdiQueryAdapterInfo(hAdapter, pQueryAdapterInfo);
    if (!NT_SUCCESS(st) || !counting)
        return st;
    UINT *count = pQueryAdapterInfo->Type == DXGKQAITYPE_QUERYSEGMENT3
                      ? &((DXGK_QUERYSEGMENTOUT3 *)pQueryAdapterInfo->pOutputData)->NbSegment
                      : &((DXGK_QUERYSEGMENTOUT4 *)pQueryAdapterInfo->pOutputData)->NbSegment;
    *count += 1; /* BUG: the system-memory segment counted too */
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
