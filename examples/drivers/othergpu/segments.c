/* SPDX-License-Identifier: MIT */
/*
 * segments.c - DxgkDdiQueryAdapterInfo: OtherGPU's capabilities and its two
 * segments, in either shape the kernel asks for (QUERYSEGMENT3 or 4).
 *
 * Segment 1 is local memory, CPU visible through a BAR, CommitLimit = Size
 * (SEG-COMMIT-001); segment 2 is the GART aperture, cache coherent, with a
 * CommitLimit below its Size. Paging buffers live in contiguous system
 * memory (segment 0), or in the GART in the OG_DMA_IN_GART variant.
 * OtherGPU has no banks.
 *
 * OG_BUG_COMMIT_LIMIT (a planted bug): local memory reports a CommitLimit
 * of half its Size.
 */
#include "othergpu.h"

static void describe(UINT id, DXGK_SEGMENTFLAGS *flags, LARGE_INTEGER *base, LARGE_INTEGER *cpu,
                     SIZE_T *size, SIZE_T *commit)
{
    flags->Value = 0;
    cpu->QuadPart = 0;
    if (id == OG_SEGMENT_VRAM) {
        flags->CpuVisible = 1;
        base->QuadPart = (LONGLONG)OG_VRAM_BASE;
        cpu->QuadPart = (LONGLONG)OG_VRAM_CPU_BAR;
        *size = (SIZE_T)OG_VRAM_SIZE;
#ifdef OG_BUG_COMMIT_LIMIT
        *commit = (SIZE_T)(OG_VRAM_SIZE / 2);
#else
        *commit = (SIZE_T)OG_VRAM_SIZE;
#endif
        return;
    }
    flags->Aperture = 1;
    flags->CacheCoherent = 1;
    base->QuadPart = (LONGLONG)OG_GART_BASE;
    *size = (SIZE_T)OG_GART_SIZE;
    *commit = (SIZE_T)OG_GART_COMMIT;
}

static NTSTATUS query_caps(const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!q->pOutputData || q->OutputDataSize < sizeof(DXGK_DRIVERCAPS))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_DRIVERCAPS *caps = q->pOutputData;
    RtlZeroMemory(caps, sizeof(*caps));
    caps->HighestAcceptableAddress.QuadPart = (LONGLONG)OG_HIGHEST_BUS_ADDRESS;
    caps->MaxAllocationListSlotId = OG_MAX_SLOT_ID;
    caps->ApertureSegmentCommitLimit = (SIZE_T)OG_GART_COMMIT;
    return STATUS_SUCCESS;
}

/* The fields both shapes share on their second call. */
#define OG_PAGING_FIELDS(out)                             \
    do {                                                  \
        (out)->NbSegment = OG_SEGMENT_COUNT;              \
        (out)->PagingBufferSegmentId = OG_PAGING_SEGMENT; \
        (out)->PagingBufferSize = OG_PAGING_BUFFER_SIZE;  \
        (out)->PagingBufferPrivateDataSize = 0;           \
    } while (0)

/* First call: pSegmentDescriptor NULL, NbSegment only. */
static NTSTATUS query_segments3(const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!q->pOutputData || q->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT3))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_QUERYSEGMENTOUT3 *out = q->pOutputData;
    if (!out->pSegmentDescriptor) {
        out->NbSegment = OG_SEGMENT_COUNT;
        return STATUS_SUCCESS;
    }
    if (out->NbSegment < OG_SEGMENT_COUNT)
        return STATUS_BUFFER_TOO_SMALL;
    for (UINT i = 0; i < OG_SEGMENT_COUNT; i++) {
        DXGK_SEGMENTDESCRIPTOR3 *d = &out->pSegmentDescriptor[i];
        RtlZeroMemory(d, sizeof(*d));
        describe(i + 1, &d->Flags, &d->BaseAddress, &d->CpuTranslatedAddress, &d->Size, &d->CommitLimit);
    }
    OG_PAGING_FIELDS(out);
    return STATUS_SUCCESS;
}

/* First call: NbSegment 0. Descriptor i at pSegmentDescriptor + i *
 * SegmentDescriptorStride, built aside (the slot need not be aligned). */
static NTSTATUS query_segments4(const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!q->pOutputData || q->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT4))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_QUERYSEGMENTOUT4 *out = q->pOutputData;
    if (out->NbSegment == 0) {
        out->NbSegment = OG_SEGMENT_COUNT;
        return STATUS_SUCCESS;
    }
    if (!out->pSegmentDescriptor || out->SegmentDescriptorStride < sizeof(DXGK_SEGMENTDESCRIPTOR4))
        return STATUS_INVALID_PARAMETER;
    if (out->NbSegment < OG_SEGMENT_COUNT)
        return STATUS_BUFFER_TOO_SMALL;
    for (UINT i = 0; i < OG_SEGMENT_COUNT; i++) {
        DXGK_SEGMENTDESCRIPTOR4 d;
        RtlZeroMemory(&d, sizeof(d));
        describe(i + 1, &d.Flags, &d.BaseAddress, &d.CpuTranslatedAddress, &d.Size, &d.CommitLimit);
        BYTE *slot = out->pSegmentDescriptor + (SIZE_T)i * out->SegmentDescriptorStride;
        RtlZeroMemory(slot, out->SegmentDescriptorStride);
        RtlCopyMemory(slot, &d, sizeof(d));
    }
    OG_PAGING_FIELDS(out);
    return STATUS_SUCCESS;
}

NTSTATUS OgQueryAdapterInfo(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo)
{
    UNREFERENCED_PARAMETER(hAdapter);
    switch (pQueryAdapterInfo->Type) {
    case DXGKQAITYPE_DRIVERCAPS:
        return query_caps(pQueryAdapterInfo);
    case DXGKQAITYPE_QUERYSEGMENT3:
        return query_segments3(pQueryAdapterInfo);
    case DXGKQAITYPE_QUERYSEGMENT4:
        return query_segments4(pQueryAdapterInfo);
    default:
        return STATUS_NOT_SUPPORTED;
    }
}
