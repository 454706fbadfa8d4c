/* SPDX-License-Identifier: MIT */
/*
 * segments.cpp - Lattice's segments and DxgkDdiQueryAdapterInfo's answers:
 * DRIVERCAPS, and the segments in either shape the kernel asks for
 * (QUERYSEGMENT3, or QUERYSEGMENT4 with its stride; docs/writing-a-driver.md
 * section 5, its worked example of segments), each as two calls: the count,
 * then the descriptors.
 *
 * Local memory reports CommitLimit = Size (SEG-COMMIT-001); the GART
 * aperture commits less than its size (the rest stays for the kernel's own
 * mappings). No segment is banked: banks are optional (facts §5.6 B1).
 * Paging buffers live in contiguous system memory (PagingBufferSegmentId 0,
 * G10).
 */
#include "cppgpu.h"

namespace cppgpu {

using namespace lattice;

SegmentAnswer Segment::common() const
{
    SegmentAnswer answer;
    RtlZeroMemory(&answer, sizeof(answer));
    answer.base = base_;
    answer.size = size_;
    answer.commit_limit = size_;
    return answer;
}

SegmentAnswer LocalMemorySegment::describe() const
{
    SegmentAnswer answer = common();
    if (cpu_bar_) {
        answer.flags.CpuVisible = 1;
        answer.cpu_address = cpu_bar_;
    }
    return answer;
}

SegmentAnswer ApertureSegment::describe() const
{
    SegmentAnswer answer = common();
    answer.flags.Aperture = 1;
    answer.flags.CacheCoherent = 1; /* Lattice snoops the CPU caches on GART reads */
    answer.commit_limit = commit_limit_;
    return answer;
}

NTSTATUS Adapter::create_segments()
{
    segments_[0] = new (NonPagedPoolNx, CG_POOL_TAG) LocalMemorySegment(SEGMENT_VRAM, VRAM_BASE, VRAM_SIZE, VRAM_BAR);
    segments_[1] = new (NonPagedPoolNx, CG_POOL_TAG) LocalMemorySegment(SEGMENT_FASTMEM, FASTMEM_BASE, FASTMEM_SIZE, 0);
    segments_[2] = new (NonPagedPoolNx, CG_POOL_TAG)
        LocalMemorySegment(SEGMENT_SCRATCH, SCRATCH_BASE, SCRATCH_SIZE, SCRATCH_BAR);
    segments_[3] = new (NonPagedPoolNx, CG_POOL_TAG) ApertureSegment(SEGMENT_GART, GART_BASE, GART_SIZE, GART_COMMIT_LIMIT);
    for (const Segment *s : segments_)
        if (!s)
            return STATUS_NO_MEMORY; /* ~Adapter deletes the others */
    return STATUS_SUCCESS;
}

Adapter::~Adapter()
{
    for (Segment *&s : segments_) {
        delete s; /* through the base: the virtual destructor runs */
        s = nullptr;
    }
}

const Segment *Adapter::segment(UINT id) const
{
    return id >= 1 && id <= SEGMENT_COUNT ? segments_[id - 1] : nullptr;
}

UINT Adapter::aperture_segments() const
{
    UINT mask = 0;
    for (const Segment *s : segments_)
        if (s->is_aperture())
            mask |= s->mask();
    return mask;
}

NTSTATUS Adapter::query_caps(const DXGKARG_QUERYADAPTERINFO &query) const
{
    if (!query.pOutputData || query.OutputDataSize < sizeof(DXGK_DRIVERCAPS))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_DRIVERCAPS *caps = static_cast<DXGK_DRIVERCAPS *>(query.pOutputData);
    RtlZeroMemory(caps, sizeof(*caps));
    caps->HighestAcceptableAddress.QuadPart = static_cast<LONGLONG>(HIGHEST_BUS_ADDRESS);
    caps->MaxAllocationListSlotId = 2; /* a BLIT binds a source and a destination */
    caps->ApertureSegmentCommitLimit = static_cast<SIZE_T>(GART_COMMIT_LIMIT);
    return STATUS_SUCCESS;
}

/* The fields both shapes share on their second call. */
template <class Out> static void answer_paging(Out &out)
{
    out.NbSegment = SEGMENT_COUNT;
    out.PagingBufferSegmentId = 0;
    out.PagingBufferSize = Adapter::PAGING_BUFFER_SIZE;
    out.PagingBufferPrivateDataSize = 0;
}

template <class Descriptor> static void fill_descriptor(const Segment &segment, Descriptor &d)
{
    const SegmentAnswer a = segment.describe();
    RtlZeroMemory(&d, sizeof(d));
    d.Flags = a.flags;
    d.BaseAddress.QuadPart = static_cast<LONGLONG>(a.base);
    d.CpuTranslatedAddress.QuadPart = static_cast<LONGLONG>(a.cpu_address);
    d.Size = static_cast<SIZE_T>(a.size);
    d.CommitLimit = static_cast<SIZE_T>(a.commit_limit);
}

/* First call: pSegmentDescriptor NULL, the count only. */
NTSTATUS Adapter::query_segments3(const DXGKARG_QUERYADAPTERINFO &query) const
{
    if (!query.pOutputData || query.OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT3))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_QUERYSEGMENTOUT3 &out = *static_cast<DXGK_QUERYSEGMENTOUT3 *>(query.pOutputData);
    if (!out.pSegmentDescriptor) {
        out.NbSegment = SEGMENT_COUNT;
        return STATUS_SUCCESS;
    }
    if (out.NbSegment < SEGMENT_COUNT)
        return STATUS_BUFFER_TOO_SMALL;
    for (UINT i = 0; i < SEGMENT_COUNT; i++)
        fill_descriptor(*segments_[i], out.pSegmentDescriptor[i]);
    answer_paging(out);
    return STATUS_SUCCESS;
}

/* First call: NbSegment 0. Descriptor i goes at pSegmentDescriptor + i *
 * SegmentDescriptorStride, built aside (a slot need not be aligned), and
 * the stride is left as the kernel set it (SEG-QUERY-003). */
NTSTATUS Adapter::query_segments4(const DXGKARG_QUERYADAPTERINFO &query) const
{
    if (!query.pOutputData || query.OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT4))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_QUERYSEGMENTOUT4 &out = *static_cast<DXGK_QUERYSEGMENTOUT4 *>(query.pOutputData);
    if (out.NbSegment == 0) {
        out.NbSegment = SEGMENT_COUNT;
        return STATUS_SUCCESS;
    }
    if (!out.pSegmentDescriptor || out.SegmentDescriptorStride < sizeof(DXGK_SEGMENTDESCRIPTOR4))
        return STATUS_INVALID_PARAMETER;
    if (out.NbSegment < SEGMENT_COUNT)
        return STATUS_BUFFER_TOO_SMALL;
    for (UINT i = 0; i < SEGMENT_COUNT; i++) {
        DXGK_SEGMENTDESCRIPTOR4 d;
        fill_descriptor(*segments_[i], d);
        BYTE *slot = out.pSegmentDescriptor + SIZE_T(i) * out.SegmentDescriptorStride;
        RtlZeroMemory(slot, out.SegmentDescriptorStride);
        RtlCopyMemory(slot, &d, sizeof(d));
    }
    answer_paging(out);
    return STATUS_SUCCESS;
}

NTSTATUS QueryAdapterInfo(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo)
{
    const Adapter *adapter = KernelObject::from<Adapter>(hAdapter);
    if (!adapter || !pQueryAdapterInfo)
        return STATUS_INVALID_PARAMETER;
    switch (pQueryAdapterInfo->Type) {
    case DXGKQAITYPE_DRIVERCAPS:
        return adapter->query_caps(*pQueryAdapterInfo);
    case DXGKQAITYPE_QUERYSEGMENT3:
        return adapter->query_segments3(*pQueryAdapterInfo);
    case DXGKQAITYPE_QUERYSEGMENT4:
        return adapter->query_segments4(*pQueryAdapterInfo);
    default:
        TraceEvents(TRACE_LEVEL_VERBOSE, TRACE_ADAPTER, "QueryAdapterInfo type %d not supported",
                    static_cast<int>(pQueryAdapterInfo->Type));
        return STATUS_NOT_SUPPORTED;
    }
}

} // namespace cppgpu
