/* SPDX-License-Identifier: MIT */
/*
 * objects.cpp - devices, contexts and allocations.
 *
 * Lattice keeps no per-context state on the GPU, so it makes no context
 * allocations. CreateAllocation reads the allocation request of the kit's
 * UMD (WK_ALLOCATION_REQUEST, wddmkit/umd.h: the documented format where
 * Windows would hand the bytes of the driver's own UMD) and answers with
 * Lattice's segments: a request may name only segments Lattice has; a
 * CPU-visible allocation is kept out of FASTMEM, which the CPU cannot
 * reach; preference slots are kept in order where they name a supported
 * segment (ALLOC-PREF-002); bank hints are dropped (no banks, ALLOC-BANK-001).
 * A bad request fails the whole call after the allocations made in it are
 * deleted (all or nothing, facts §4.9).
 */
#include "cppgpu.h"
#include "wddmkit/umd.h"

namespace cppgpu {

using namespace lattice;

NTSTATUS CreateDevice(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice)
{
    Adapter *adapter = KernelObject::from<Adapter>(hAdapter);
    if (!adapter || !pCreateDevice)
        return STATUS_INVALID_PARAMETER;
    Device *device = new (NonPagedPoolNx, CG_POOL_TAG) Device(*adapter);
    if (!device)
        return STATUS_NO_MEMORY;
    if (DXGK_DEVICEINFO *info = pCreateDevice->pInfo) { /* not multi-engine aware: per device sizes */
        RtlZeroMemory(info, sizeof(*info));
        info->DmaBufferSize = Context::DMA_BUFFER_SIZE;
        info->AllocationListSize = Context::ALLOCATION_LIST_SIZE;
        info->PatchLocationListSize = Context::PATCH_LIST_SIZE;
    }
    pCreateDevice->hDevice = device->handle();
    return STATUS_SUCCESS;
}

NTSTATUS DestroyDevice(const HANDLE hDevice)
{
    Device *device = KernelObject::from<Device>(hDevice);
    if (!device)
        return STATUS_INVALID_HANDLE;
    delete device;
    return STATUS_SUCCESS;
}

void Context::describe(bool gdi, DXGK_CONTEXTINFO &info) const
{
    RtlZeroMemory(&info, sizeof(info));
    info.DmaBufferSize = DMA_BUFFER_SIZE;
    info.DmaBufferSegmentSet = 0; /* contiguous system memory (facts X1) */
    info.AllocationListSize = gdi ? GDI_ALLOCATION_LIST_SIZE : ALLOCATION_LIST_SIZE;
    info.PatchLocationListSize = PATCH_LIST_SIZE;
}

/* Running out of memory is the only way it fails (CTX-CREATE-001). */
NTSTATUS CreateContext(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext)
{
    Device *device = KernelObject::from<Device>(hDevice);
    if (!device || !pCreateContext)
        return STATUS_INVALID_PARAMETER;
    Context *context = new (NonPagedPoolNx, CG_POOL_TAG) Context(*device);
    if (!context)
        return STATUS_NO_MEMORY;
    context->describe(pCreateContext->Flags.GdiContext != 0, pCreateContext->ContextInfo);
    pCreateContext->hContext = context->handle();
    return STATUS_SUCCESS;
}

NTSTATUS DestroyContext(const HANDLE hContext)
{
    Context *context = KernelObject::from<Context>(hContext);
    if (!context)
        return STATUS_INVALID_HANDLE;
    delete context;
    return STATUS_SUCCESS;
}

namespace {

constexpr UINT PREFERENCE_SLOTS = 5;
constexpr UINT PREFERENCE_SLOT_BITS = 6; /* 5 bits of id, 1 of direction */
constexpr UINT PRIORITY_NORMAL = 0x78000000u; /* D3DDDI_ALLOCATIONPRIORITY_NORMAL */

/* One allocation request of the kit's UMD, copied once and checked whole. */
class AllocationRequest {
public:
    explicit AllocationRequest(const DXGK_ALLOCATIONINFO &info) { valid_ = read(info); }
    bool valid() const { return valid_; }

    /* The segments it may live in, among Lattice's; 0 if none. */
    UINT segment_set(const Adapter &adapter) const
    {
        UINT set = request_.SupportedSegmentSet ? request_.SupportedSegmentSet & adapter.all_segments()
                                                : adapter.all_segments();
        if (request_.Flags.CpuVisible)
            set &= ~adapter.segment(SEGMENT_FASTMEM)->mask(); /* the CPU cannot reach it */
        return set;
    }

    /* Preference slots that name a segment of `set`, in order; the list
     * ends at the first empty slot (facts §3.2). */
    D3DDDI_SEGMENTPREFERENCE preference(UINT set) const
    {
        D3DDDI_SEGMENTPREFERENCE kept;
        kept.Value = 0;
        UINT n = 0;
        for (UINT i = 0; i < PREFERENCE_SLOTS; i++) {
            const UINT slot = (request_.PreferredSegment.Value >> (i * PREFERENCE_SLOT_BITS)) & 0x3Fu;
            const UINT id = slot & 0x1Fu;
            if (id == 0)
                break;
            if (set & (1u << (id - 1)))
                kept.Value |= slot << (n++ * PREFERENCE_SLOT_BITS);
        }
        return kept;
    }

    UINT64 size_in_pages() const { return (request_.Size + PAGE_SIZE_BYTES - 1) & ~UINT64(PAGE_SIZE_BYTES - 1); }
    UINT alignment() const { return request_.Alignment > PAGE_SIZE_BYTES ? request_.Alignment : PAGE_SIZE_BYTES; }
    UINT eviction_set(const Adapter &adapter) const { return request_.EvictionSegmentSet & adapter.aperture_segments(); }
    DXGK_ALLOCATIONINFOFLAGS flags() const { return request_.Flags; }
    UINT priority() const { return request_.Priority ? request_.Priority : PRIORITY_NORMAL; }

private:
    bool read(const DXGK_ALLOCATIONINFO &info)
    {
        if (!info.pPrivateDriverData || info.PrivateDriverDataSize != sizeof(request_))
            return false;
        RtlCopyMemory(&request_, info.pPrivateDriverData, sizeof(request_));
        const WK_ALLOCATION_REQUEST &r = request_;
        return r.Magic == WK_ALLOCATION_REQUEST_MAGIC && r.Version == WK_ALLOCATION_REQUEST_VERSION &&
               r.Reserved == 0 && r.PreferredSegment.Reserved == 0 && r.Flags.Reserved == 0 && r.Size != 0 &&
               r.Size <= VRAM_SIZE && (r.Alignment & (r.Alignment - 1)) == 0;
    }

    WK_ALLOCATION_REQUEST request_;
    bool valid_;
};

NTSTATUS create_one(const Adapter &adapter, DXGK_ALLOCATIONINFO &info)
{
    const AllocationRequest request(info);
    if (!request.valid())
        return STATUS_INVALID_PARAMETER;
    const UINT set = request.segment_set(adapter);
    if (set == 0)
        return STATUS_INVALID_PARAMETER; /* names none of Lattice's segments */
    Allocation *allocation = new (NonPagedPoolNx, CG_POOL_TAG) Allocation(request.size_in_pages());
    if (!allocation)
        return STATUS_NO_MEMORY;
    info.hAllocation = allocation->handle();
    info.Size = static_cast<SIZE_T>(allocation->size());
    info.Alignment = request.alignment();
    info.PitchAlignedSize = 0;
    info.PreferredSegment = request.preference(set);
    info.HintedBank.Value = 0;
    info.SupportedReadSegmentSet = set;
    info.SupportedWriteSegmentSet = set;
    info.EvictionSegmentSet = request.eviction_set(adapter);
    info.Flags = request.flags();
    info.pAllocationUsageHint = nullptr;
    info.AllocationPriority = request.priority();
    return STATUS_SUCCESS;
}

} // namespace

NTSTATUS CreateAllocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *pCreateAllocation)
{
    const Adapter *adapter = KernelObject::from<Adapter>(hAdapter);
    DXGKARG_CREATEALLOCATION *c = pCreateAllocation;
    if (!adapter || !c || (c->NumAllocations && !c->pAllocationInfo))
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < c->NumAllocations; i++) {
        const NTSTATUS status = create_one(*adapter, c->pAllocationInfo[i]);
        if (NT_SUCCESS(status))
            continue;
        for (UINT j = 0; j < i; j++) {
            delete KernelObject::from<Allocation>(c->pAllocationInfo[j].hAllocation);
            c->pAllocationInfo[j].hAllocation = nullptr;
        }
        TraceEvents(TRACE_LEVEL_WARNING, TRACE_OBJECTS, "CreateAllocation: request %u refused (0x%08x)", i,
                    static_cast<unsigned>(status));
        return status;
    }
    return STATUS_SUCCESS;
}

NTSTATUS DestroyAllocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *pDestroyAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    if (!pDestroyAllocation)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < pDestroyAllocation->NumAllocations; i++)
        delete KernelObject::from<Allocation>(pDestroyAllocation->pAllocationList[i]);
    return STATUS_SUCCESS;
}

} // namespace cppgpu
