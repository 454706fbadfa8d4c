/* SPDX-License-Identifier: MIT */
/*
 * segments.c - DxgkDdiQueryAdapterInfo: the driver's capabilities and its
 * segments, in either shape the kernel asks for (docs/writing-a-driver.md,
 * "A worked example", segments).
 *
 * Every segment of the model is reported as it is, with CommitLimit = Size;
 * banked memory segments carry their bank table in QUERYSEGMENT3 only
 * (DXGK_SEGMENTDESCRIPTOR4 has no bank fields). Which shape was answered
 * last decides whether CreateAllocation may pass bank hints on
 * (allocation.c). Paging buffers live in locked system memory (segment 0).
 */
#include "independent.h"

static NTSTATUS query_caps(const struct ind_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!q->pOutputData || q->OutputDataSize < sizeof(DXGK_DRIVERCAPS))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_DRIVERCAPS *caps = q->pOutputData;
    RtlZeroMemory(caps, sizeof(*caps));
    caps->HighestAcceptableAddress.QuadPart = (LONGLONG)(a->sysmem_end - 1);
    caps->MaxAllocationListSlotId = IND_MAX_SLOT_ID;
    caps->ApertureSegmentCommitLimit = (SIZE_T)a->aperture_bytes;
    /* Per-context buffer sizes (DXGK_CONTEXTINFO); CreateDevice fills
     * pInfo as well when it is given one. */
    caps->SchedulingCaps.MultiEngineAware = 1;
    return STATUS_SUCCESS;
}

static void describe_segment3(struct ind_segment *s, DXGK_SEGMENTDESCRIPTOR3 *d)
{
    RtlZeroMemory(d, sizeof(*d));
    d->BaseAddress.QuadPart = (LONGLONG)s->base;
    d->Size = (SIZE_T)s->size;
    d->CommitLimit = (SIZE_T)s->size;
    d->Flags.Aperture = s->aperture;
    if (s->bank_count) {
        d->Flags.UseBanking = 1;
        d->NbOfBanks = s->bank_count;
        d->pBankRangeTable = s->bank_ends;
    }
}

static void describe_segment4(const struct ind_segment *s, DXGK_SEGMENTDESCRIPTOR4 *d)
{
    RtlZeroMemory(d, sizeof(*d));
    d->BaseAddress.QuadPart = (LONGLONG)s->base;
    d->Size = (SIZE_T)s->size;
    d->CommitLimit = (SIZE_T)s->size;
    d->Flags.Aperture = s->aperture;
}

/* First call: NbSegment only (pSegmentDescriptor NULL). Second call: the
 * descriptors and the paging-buffer fields, which the kernel reads from
 * this call only. */
static NTSTATUS query_segments3(struct ind_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!q->pOutputData || q->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT3))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_QUERYSEGMENTOUT3 *out = q->pOutputData;
    if (!out->pSegmentDescriptor) {
        out->NbSegment = a->segment_count;
        return STATUS_SUCCESS;
    }
    if (out->NbSegment < a->segment_count)
        return STATUS_BUFFER_TOO_SMALL;
    for (UINT i = 0; i < a->segment_count; i++)
        describe_segment3(&a->segments[i], &out->pSegmentDescriptor[i]);
    out->NbSegment = a->segment_count;
    out->PagingBufferSegmentId = 0;
    out->PagingBufferSize = IND_PAGING_BUFFER_SIZE;
    out->PagingBufferPrivateDataSize = 0;
    a->banks_reported = TRUE;
    return STATUS_SUCCESS;
}

/* The same two calls; the first has NbSegment 0. Descriptor i goes at
 * pSegmentDescriptor + i * SegmentDescriptorStride, which the driver must
 * not change (SEG-QUERY-003) and which need not keep a descriptor aligned:
 * each is built aside and copied in. */
static NTSTATUS query_segments4(struct ind_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!q->pOutputData || q->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT4))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_QUERYSEGMENTOUT4 *out = q->pOutputData;
    if (out->NbSegment == 0) {
        out->NbSegment = a->segment_count;
        return STATUS_SUCCESS;
    }
    if (!out->pSegmentDescriptor || out->SegmentDescriptorStride < sizeof(DXGK_SEGMENTDESCRIPTOR4))
        return STATUS_INVALID_PARAMETER;
    if (out->NbSegment < a->segment_count)
        return STATUS_BUFFER_TOO_SMALL;
    for (UINT i = 0; i < a->segment_count; i++) {
        BYTE *slot = out->pSegmentDescriptor + (SIZE_T)i * out->SegmentDescriptorStride;
        DXGK_SEGMENTDESCRIPTOR4 d;
        describe_segment4(&a->segments[i], &d);
        RtlZeroMemory(slot, out->SegmentDescriptorStride);
        RtlCopyMemory(slot, &d, sizeof(d));
    }
    out->NbSegment = a->segment_count;
    out->PagingBufferSegmentId = 0;
    out->PagingBufferSize = IND_PAGING_BUFFER_SIZE;
    out->PagingBufferPrivateDataSize = 0;
    a->banks_reported = FALSE;
    return STATUS_SUCCESS;
}

NTSTATUS IndQueryAdapterInfo(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo)
{
    struct ind_adapter *a = hAdapter;
    switch (pQueryAdapterInfo->Type) {
    case DXGKQAITYPE_DRIVERCAPS:
        return query_caps(a, pQueryAdapterInfo);
    case DXGKQAITYPE_QUERYSEGMENT3:
        return query_segments3(a, pQueryAdapterInfo);
    case DXGKQAITYPE_QUERYSEGMENT4:
        return query_segments4(a, pQueryAdapterInfo);
    default:
        return STATUS_NOT_SUPPORTED;
    }
}
