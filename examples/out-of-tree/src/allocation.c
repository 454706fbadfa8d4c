/* SPDX-License-Identifier: MIT */
/*
 * allocation.c - DxgkDdiCreateAllocation and DxgkDdiDestroyAllocation.
 *
 * Each DXGK_ALLOCATIONINFO carries the kit UMD's WK_ALLOCATION_REQUEST
 * (wddmkit/umd.h), untrusted bytes: it is copied once, then checked, and a
 * bad request fails the whole call with STATUS_INVALID_PARAMETER after the
 * allocations already made in it are freed (all or nothing).
 *
 * The request's placement fields are wishes, not answers. The driver copies
 * each PreferredSegment slot and each HintedBank slot only when it is valid
 * for what the driver answers and reported: a preferred segment must be in
 * the supported set (ALLOC-PREF-002), a hinted bank must exist in the most
 * preferred segment as the kernel was told its banks (ALLOC-BANK-001).
 * Copying them blindly was this driver's first bug: 7 cases of the contract
 * profile failed on exactly those two rules.
 */
#include "independent.h"

/* D3DDDI_SEGMENTPREFERENCE: five 6-bit slots {5-bit segment id, direction};
 * DXGK_SEGMENTBANKPREFERENCE: four 8-bit slots {7-bit bank id, direction}.
 * Id 0 is an empty slot, and VidMm reads a list up to its first one. */
#define PREF_SLOTS 5u
#define PREF_SLOT_BITS 6u
#define PREF_ID_MASK 0x1Fu
#define BANK_SLOTS 4u
#define BANK_SLOT_BITS 8u
#define BANK_ID_MASK 0x7Fu

static UINT slot_of(UINT value, UINT index, UINT bits)
{
    return (value >> (index * bits)) & ((1u << bits) - 1u);
}

/* The request as far as it can be checked on its own (umd.h): exact size,
 * magic and version, reserved bits zero, a size the model can hold and an
 * alignment that is 0 or a power of two. */
static BOOLEAN read_request(const DXGK_ALLOCATIONINFO *info, WK_ALLOCATION_REQUEST *req)
{
    if (!info->pPrivateDriverData || info->PrivateDriverDataSize != sizeof(*req))
        return FALSE;
    RtlCopyMemory(req, info->pPrivateDriverData, sizeof(*req));
    if (req->Magic != WK_ALLOCATION_REQUEST_MAGIC || req->Version != WK_ALLOCATION_REQUEST_VERSION)
        return FALSE;
    if (req->Reserved != 0 || req->PreferredSegment.Reserved != 0 || req->Flags.Reserved != 0)
        return FALSE;
    if (req->Size == 0 || req->Size > WK_GPU_MAX_REGION_SIZE)
        return FALSE;
    return (req->Alignment & (req->Alignment - 1)) == 0;
}

/* The segments the allocation may live in: the request's, cut to those the
 * driver reports (ALLOC-SET-001); 0 in the request means any. */
static UINT supported_set(const struct ind_adapter *a, const WK_ALLOCATION_REQUEST *req)
{
    return req->SupportedSegmentSet ? req->SupportedSegmentSet & a->all_segments : a->all_segments;
}

/*
 * ALLOC-PREF-002 (facts §5.6 B6): PreferredSegment names only segments of
 * the supported write set; since `set` holds reported segments only, that
 * also keeps ALLOC-PREF-001. A slot naming another segment is dropped and
 * the slots after it move up, keeping their order and directions.
 */
static D3DDDI_SEGMENTPREFERENCE valid_preference(D3DDDI_SEGMENTPREFERENCE asked, UINT set)
{
    D3DDDI_SEGMENTPREFERENCE kept;
    kept.Value = 0;
    UINT n = 0;
    for (UINT i = 0; i < PREF_SLOTS; i++) {
        UINT slot = slot_of(asked.Value, i, PREF_SLOT_BITS);
        UINT id = slot & PREF_ID_MASK;
        if (id == 0)
            break;
        if (set & (1u << (id - 1)))
            kept.Value |= slot << (n++ * PREF_SLOT_BITS);
    }
    return kept;
}

/* Banks of a segment as the kernel knows them: none for an unbanked
 * segment, and none at all after QUERYSEGMENT4 (facts §5.6 B7). */
static UINT reported_banks(const struct ind_adapter *a, UINT segment_id)
{
    if (!a->banks_reported || segment_id == 0 || segment_id > a->segment_count)
        return 0;
    return a->segments[segment_id - 1].bank_count;
}

/*
 * ALLOC-BANK-001 (facts §5.6 B4, B5): HintedBank applies to the most
 * preferred segment of the answer and names banks 1..N of it. A slot naming
 * another bank is dropped and the slots after it move up, so that an empty
 * slot is followed by empty slots only (ALLOC-BANK-002).
 */
static DXGK_SEGMENTBANKPREFERENCE valid_banks(const struct ind_adapter *a, DXGK_SEGMENTBANKPREFERENCE asked,
                                              D3DDDI_SEGMENTPREFERENCE preference)
{
    DXGK_SEGMENTBANKPREFERENCE kept;
    kept.Value = 0;
    UINT banks = reported_banks(a, preference.SegmentId0);
    UINT n = 0;
    for (UINT i = 0; i < BANK_SLOTS; i++) {
        UINT slot = slot_of(asked.Value, i, BANK_SLOT_BITS);
        UINT bank = slot & BANK_ID_MASK;
        if (bank == 0)
            break;
        if (bank <= banks)
            kept.Value |= slot << (n++ * BANK_SLOT_BITS);
    }
    return kept;
}

/* The answer for a valid request (facts §4.9): whole pages, at least page
 * alignment, the placement fields that are valid, eviction to apertures
 * only (ALLOC-EVICT-001) and a non-zero priority (ALLOC-PRIO-001). */
static void answer(const struct ind_adapter *a, const WK_ALLOCATION_REQUEST *req, UINT set,
                   UINT64 size, DXGK_ALLOCATIONINFO *info)
{
    info->Size = (SIZE_T)size;
    info->Alignment = req->Alignment > WK_GPU_PAGE_SIZE ? req->Alignment : WK_GPU_PAGE_SIZE;
    info->PitchAlignedSize = 0;
    info->PreferredSegment = valid_preference(req->PreferredSegment, set);
    info->HintedBank = valid_banks(a, req->HintedBank, info->PreferredSegment);
    info->SupportedReadSegmentSet = set;
    info->SupportedWriteSegmentSet = set;
    info->EvictionSegmentSet = req->EvictionSegmentSet & a->aperture_segments;
    info->Flags = req->Flags;
    info->pAllocationUsageHint = NULL;
    info->AllocationPriority = req->Priority ? req->Priority : IND_PRIORITY_NORMAL;
}

static NTSTATUS create_one(const struct ind_adapter *a, DXGK_ALLOCATIONINFO *info)
{
    WK_ALLOCATION_REQUEST req;
    if (!read_request(info, &req))
        return STATUS_INVALID_PARAMETER;
    UINT set = supported_set(a, &req);
    if (set == 0)
        return STATUS_INVALID_PARAMETER; /* no segment of this adapter can hold it */
    struct ind_allocation *alloc = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(*alloc), IND_TAG);
    if (!alloc)
        return STATUS_NO_MEMORY;
    alloc->magic = IND_ALLOCATION_MAGIC;
    alloc->size = (req.Size + WK_GPU_PAGE_SIZE - 1) & ~(UINT64)(WK_GPU_PAGE_SIZE - 1);
    answer(a, &req, set, alloc->size, info);
    info->hAllocation = alloc;
    return STATUS_SUCCESS;
}

static void free_allocation(HANDLE handle)
{
    struct ind_allocation *alloc = handle;
    alloc->magic = 0;
    ExFreePoolWithTag(alloc, IND_TAG);
}

NTSTATUS IndCreateAllocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *pCreateAllocation)
{
    const struct ind_adapter *a = hAdapter;
    DXGKARG_CREATEALLOCATION *c = pCreateAllocation;
    if (c->NumAllocations && !c->pAllocationInfo)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < c->NumAllocations; i++) {
        NTSTATUS status = create_one(a, &c->pAllocationInfo[i]);
        if (status == STATUS_SUCCESS)
            continue;
        for (UINT j = 0; j < i; j++) {
            free_allocation(c->pAllocationInfo[j].hAllocation);
            c->pAllocationInfo[j].hAllocation = NULL;
        }
        return status;
    }
    return STATUS_SUCCESS;
}

NTSTATUS IndDestroyAllocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *pDestroyAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    for (UINT i = 0; i < pDestroyAllocation->NumAllocations; i++) {
        HANDLE handle = pDestroyAllocation->pAllocationList[i];
        if (ind_allocation_get(handle))
            free_allocation(handle);
    }
    return STATUS_SUCCESS;
}

const struct ind_allocation *ind_allocation_get(HANDLE handle)
{
    const struct ind_allocation *alloc = handle;
    return alloc && alloc->magic == IND_ALLOCATION_MAGIC ? alloc : NULL;
}
