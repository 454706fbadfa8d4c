/* SPDX-License-Identifier: MIT */
/*
 * allocation.c - DxgkDdiCreateAllocation and DxgkDdiDestroyAllocation.
 *
 * Each DXGK_ALLOCATIONINFO carries a WK_ALLOCATION_REQUEST from the kit's
 * UMD (wddmkit/umd.h). The request is outside data: it is checked field by
 * field and any bad one rejects the whole call with STATUS_INVALID_PARAMETER,
 * after undoing the allocations already made in it. A good request becomes a
 * DXGK_ALLOCATIONINFO the kernel can place (facts 4.9, 5.6):
 *   - Size rounded up to 4 KiB, Alignment at least 4 KiB;
 *   - the segment set restricted to the segments the driver reports, and the
 *     preferences restricted to that set (B6) - a preference the set does not
 *     hold is dropped, later ones move up;
 *   - bank hints kept only when the most preferred segment is banked and the
 *     bank exists (B4, B5);
 *   - eviction only to aperture segments (4.9).
 */
#include "refdriver.h"

static BOOLEAN is_pow2_or_zero(UINT v)
{
    return (v & (v - 1)) == 0;
}

/* The checks on the request itself, before anything depends on it. */
static BOOLEAN request_valid(const DXGK_ALLOCATIONINFO *info, WK_ALLOCATION_REQUEST *req)
{
    if (!info->pPrivateDriverData || info->PrivateDriverDataSize != sizeof(*req))
        return FALSE;
    RtlCopyMemory(req, info->pPrivateDriverData, sizeof(*req)); /* read the UMD's bytes once */
    if (req->Magic != WK_ALLOCATION_REQUEST_MAGIC || req->Version != WK_ALLOCATION_REQUEST_VERSION)
        return FALSE;
    if (req->Reserved != 0 || req->PreferredSegment.Reserved != 0 || req->Flags.Reserved != 0)
        return FALSE;
    if (req->Size == 0 || req->Size > UINT64_MAX - (WK_GPU_PAGE_SIZE - 1))
        return FALSE;
    return is_pow2_or_zero(req->Alignment);
}

static UINT pref_id(D3DDDI_SEGMENTPREFERENCE p, UINT i)
{
    switch (i) {
    case 0: return p.SegmentId0;
    case 1: return p.SegmentId1;
    case 2: return p.SegmentId2;
    case 3: return p.SegmentId3;
    default: return p.SegmentId4;
    }
}

static UINT pref_dir(D3DDDI_SEGMENTPREFERENCE p, UINT i)
{
    switch (i) {
    case 0: return p.Direction0;
    case 1: return p.Direction1;
    case 2: return p.Direction2;
    case 3: return p.Direction3;
    default: return p.Direction4;
    }
}

static void pref_set(D3DDDI_SEGMENTPREFERENCE *p, UINT i, UINT id, UINT dir)
{
    switch (i) {
    case 0: p->SegmentId0 = id; p->Direction0 = dir; break;
    case 1: p->SegmentId1 = id; p->Direction1 = dir; break;
    case 2: p->SegmentId2 = id; p->Direction2 = dir; break;
    case 3: p->SegmentId3 = id; p->Direction3 = dir; break;
    default: p->SegmentId4 = id; p->Direction4 = dir; break;
    }
}

/* B6: only segments of the supported set; order and directions kept. The
 * list stops at its first empty slot, as VidMm reads it. */
static D3DDDI_SEGMENTPREFERENCE restrict_preference(D3DDDI_SEGMENTPREFERENCE in, UINT set)
{
    D3DDDI_SEGMENTPREFERENCE out;
    out.Value = 0;
    UINT n = 0;
    for (UINT i = 0; i < 5; i++) {
        UINT id = pref_id(in, i);
        if (id == 0)
            break;
        if (set & (1u << (id - 1)))
            pref_set(&out, n++, id, pref_dir(in, i));
    }
    return out;
}

static UINT bank_id(DXGK_SEGMENTBANKPREFERENCE b, UINT i)
{
    return (b.Value >> (8 * i)) & 0x7Fu;
}

/* B4, B5: bank hints apply to SegmentId0 and must name its banks, as the
 * kernel was told them (none after QUERYSEGMENT4, B7). Slots are compacted
 * so that a zero slot is followed by zero slots. */
static DXGK_SEGMENTBANKPREFERENCE restrict_banks(const struct rd_adapter *a,
                                                 DXGK_SEGMENTBANKPREFERENCE in,
                                                 D3DDDI_SEGMENTPREFERENCE pref)
{
    DXGK_SEGMENTBANKPREFERENCE out;
    out.Value = 0;
    const struct rd_segment *seg = rd_segment(a, pref.SegmentId0);
    if (!seg || seg->bank_count == 0 || !a->banks_reported)
        return out;
    UINT n = 0;
    for (UINT i = 0; i < 4; i++) {
        UINT bank = bank_id(in, i);
        if (bank == 0)
            break;
        if (bank <= seg->bank_count) {
            UINT byte = (in.Value >> (8 * i)) & 0xFFu; /* bank and its direction */
            out.Value |= byte << (8 * n++);
        }
    }
    return out;
}

/* Fills one DXGK_ALLOCATIONINFO from a valid request; FALSE when no segment
 * the driver reports could ever hold it. */
static BOOLEAN describe(const struct rd_adapter *a, const WK_ALLOCATION_REQUEST *req,
                        DXGK_ALLOCATIONINFO *info)
{
    UINT set = req->SupportedSegmentSet ? req->SupportedSegmentSet & rd_all_segments(a)
                                        : rd_all_segments(a);
    if (set == 0)
        return FALSE;
    info->Size = (req->Size + WK_GPU_PAGE_SIZE - 1) & ~(UINT64)(WK_GPU_PAGE_SIZE - 1);
    info->Alignment = req->Alignment > WK_GPU_PAGE_SIZE ? req->Alignment : WK_GPU_PAGE_SIZE;
#ifdef RD_LEGAL_SIZE64K /* wk_test_size64k: allocations of whole 64 KiB ("it may round Size ... up", umd.h) */
    info->Size = (info->Size + 0xFFFFu) & ~(UINT64)0xFFFFu;
#endif
#ifdef RD_LEGAL_ALIGN64K /* wk_test_align64k: hardware that needs 64 KiB ("it may round ... Alignment up", umd.h) */
    info->Alignment = info->Alignment > 0x10000 ? info->Alignment : 0x10000;
#endif
    info->PitchAlignedSize = 0;
    info->PreferredSegment = restrict_preference(req->PreferredSegment, set);
    info->HintedBank = restrict_banks(a, req->HintedBank, info->PreferredSegment);
    info->SupportedReadSegmentSet = set;
    info->SupportedWriteSegmentSet = set;
    info->EvictionSegmentSet = req->EvictionSegmentSet & a->aperture_set;
    info->MaximumRenamingListLength = 0;
    info->Flags = req->Flags;
    info->pAllocationUsageHint = NULL;
    info->AllocationPriority = req->Priority ? req->Priority : RD_PRIORITY_NORMAL;
    return TRUE;
}

static void free_allocation(struct rd_allocation *alloc)
{
    alloc->magic = 0;
    rd_free(alloc);
}

static NTSTATUS create_one(const struct rd_adapter *a, DXGK_ALLOCATIONINFO *info)
{
    WK_ALLOCATION_REQUEST req;
    if (!request_valid(info, &req) || !describe(a, &req, info))
        return STATUS_INVALID_PARAMETER;
    struct rd_allocation *alloc = rd_alloc(sizeof(*alloc));
    if (!alloc)
        return STATUS_NO_MEMORY;
    alloc->magic = RD_MAGIC_ALLOCATION;
    alloc->size = info->Size;
    alloc->alignment = info->Alignment;
    alloc->flags = info->Flags;
    info->hAllocation = alloc;
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_create_allocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *pCreateAllocation)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !pCreateAllocation || !a->started)
        return STATUS_INVALID_PARAMETER;
    DXGKARG_CREATEALLOCATION *args = pCreateAllocation;
    if (args->NumAllocations && !args->pAllocationInfo)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < args->NumAllocations; i++) {
        NTSTATUS st = create_one(a, &args->pAllocationInfo[i]);
        if (NT_SUCCESS(st))
            continue;
        RD_TRACE("refdriver: CreateAllocation: allocation %u rejected (0x%08x)\n", i,
                 (unsigned)st);
        while (i-- > 0) { /* all or nothing */
            free_allocation(args->pAllocationInfo[i].hAllocation);
            args->pAllocationInfo[i].hAllocation = NULL;
        }
        return st;
    }
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_destroy_allocation(const HANDLE hAdapter,
                               const DXGKARG_DESTROYALLOCATION *pDestroyAllocation)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !pDestroyAllocation)
        return STATUS_INVALID_PARAMETER;
    const DXGKARG_DESTROYALLOCATION *args = pDestroyAllocation;
    if (args->NumAllocations && !args->pAllocationList)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < args->NumAllocations; i++) {
        struct rd_allocation *alloc = rd_allocation_from(args->pAllocationList[i]);
        if (!alloc || alloc->context_allocation) {
            RD_TRACE("refdriver: DestroyAllocation: %p is not an allocation of ours\n",
                     args->pAllocationList[i]);
            continue;
        }
        free_allocation(alloc);
    }
    return STATUS_SUCCESS;
}
