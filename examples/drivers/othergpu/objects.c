/* SPDX-License-Identifier: MIT */
/*
 * objects.c - devices, contexts and allocations: records with a magic, the
 * list and buffer sizes OtherGPU wants, and each allocation's answer.
 *
 * OtherGPU keeps no state per device or context on the GPU, so it makes no
 * context allocations. CreateAllocation reads the allocation request the
 * kit's UMD sends (WK_ALLOCATION_REQUEST, wddmkit/umd.h: the only UMD format
 * of the kit this driver reads; see KIT-FINDINGS.md) and answers with
 * OtherGPU's segments: the placement wishes it keeps are those that name
 * its own segments, bank hints are dropped (it has no banks). A bad request
 * fails the whole call after the allocations made in it are freed.
 */
#include "othergpu.h"
#include "wddmkit/umd.h"

#define OG_ALL_SEGMENTS ((1u << OG_SEGMENT_COUNT) - 1u)
#define OG_APERTURE_SEGMENTS (1u << (OG_SEGMENT_GART - 1u))
#define PREF_SLOTS 5u
#define PREF_SLOT_BITS 6u

static void *new_record(SIZE_T size, UINT magic)
{
    UINT *r = ExAllocatePool2(POOL_FLAG_NON_PAGED, size, OG_TAG);
    if (r)
        *r = magic;
    return r;
}

static NTSTATUS free_record(HANDLE handle, UINT magic)
{
    UINT *r = handle;
    if (!r || *r != magic)
        return STATUS_INVALID_HANDLE;
    *r = 0;
    ExFreePoolWithTag(r, OG_TAG);
    return STATUS_SUCCESS;
}

NTSTATUS OgCreateDevice(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice)
{
    UNREFERENCED_PARAMETER(hAdapter);
    struct og_device *d = new_record(sizeof(*d), OG_DEVICE_MAGIC);
    if (!d)
        return STATUS_NO_MEMORY;
    if (pCreateDevice->pInfo) {
        RtlZeroMemory(pCreateDevice->pInfo, sizeof(*pCreateDevice->pInfo));
        pCreateDevice->pInfo->DmaBufferSize = OG_DMA_BUFFER_SIZE;
        pCreateDevice->pInfo->AllocationListSize = OG_ALLOCATION_LIST_SIZE;
        pCreateDevice->pInfo->PatchLocationListSize = OG_PATCH_LIST_SIZE;
    }
    pCreateDevice->hDevice = d;
    return STATUS_SUCCESS;
}

NTSTATUS OgDestroyDevice(const HANDLE hDevice)
{
    return free_record(hDevice, OG_DEVICE_MAGIC);
}

/* Out of memory is the only way it fails (CTX-CREATE-001). */
NTSTATUS OgCreateContext(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext)
{
    UNREFERENCED_PARAMETER(hDevice);
    struct og_context *c = new_record(sizeof(*c), OG_CONTEXT_MAGIC);
    if (!c)
        return STATUS_NO_MEMORY;
    DXGK_CONTEXTINFO *info = &pCreateContext->ContextInfo;
    RtlZeroMemory(info, sizeof(*info));
    info->DmaBufferSize = OG_DMA_BUFFER_SIZE;
#ifdef OG_DMA_IN_GART
    /* The variant that asks for its DMA buffers in the GART aperture (the
     * only segments DmaBufferSegmentSet may name, facts X1). */
    info->DmaBufferSegmentSet = OG_APERTURE_SEGMENTS;
#endif
    info->AllocationListSize =
        pCreateContext->Flags.GdiContext ? OG_GDI_ALLOCATION_LIST_SIZE : OG_ALLOCATION_LIST_SIZE;
    info->PatchLocationListSize = OG_PATCH_LIST_SIZE;
    pCreateContext->hContext = c;
    return STATUS_SUCCESS;
}

NTSTATUS OgDestroyContext(const HANDLE hContext)
{
    return free_record(hContext, OG_CONTEXT_MAGIC);
}

const struct og_context *og_context_get(HANDLE handle)
{
    const struct og_context *c = handle;
    return c && c->magic == OG_CONTEXT_MAGIC ? c : NULL;
}

const struct og_allocation *og_allocation_get(HANDLE handle)
{
    const struct og_allocation *a = handle;
    return a && a->magic == OG_ALLOCATION_MAGIC ? a : NULL;
}

/* The request's bytes, copied once and checked on their own. */
static BOOLEAN read_request(const DXGK_ALLOCATIONINFO *info, WK_ALLOCATION_REQUEST *req)
{
    if (!info->pPrivateDriverData || info->PrivateDriverDataSize != sizeof(*req))
        return FALSE;
    RtlCopyMemory(req, info->pPrivateDriverData, sizeof(*req));
    return req->Magic == WK_ALLOCATION_REQUEST_MAGIC && req->Version == WK_ALLOCATION_REQUEST_VERSION &&
           req->Reserved == 0 && req->PreferredSegment.Reserved == 0 && req->Flags.Reserved == 0 &&
           req->Size != 0 && req->Size <= OG_VRAM_SIZE && (req->Alignment & (req->Alignment - 1)) == 0;
}

/* Preference slots naming a segment of `set` (ALLOC-PREF-002), in order;
 * the list ends at the first empty slot. */
static D3DDDI_SEGMENTPREFERENCE kept_preference(D3DDDI_SEGMENTPREFERENCE asked, UINT set)
{
    D3DDDI_SEGMENTPREFERENCE kept;
    kept.Value = 0;
    UINT n = 0;
    for (UINT i = 0; i < PREF_SLOTS; i++) {
        UINT slot = (asked.Value >> (i * PREF_SLOT_BITS)) & 0x3Fu;
        UINT id = slot & 0x1Fu;
        if (id == 0)
            break;
        if (set & (1u << (id - 1)))
            kept.Value |= slot << (n++ * PREF_SLOT_BITS);
    }
    return kept;
}

static NTSTATUS create_one(DXGK_ALLOCATIONINFO *info)
{
    WK_ALLOCATION_REQUEST req;
    if (!read_request(info, &req))
        return STATUS_INVALID_PARAMETER;
    UINT set = req.SupportedSegmentSet ? req.SupportedSegmentSet & OG_ALL_SEGMENTS : OG_ALL_SEGMENTS;
    if (set == 0)
        return STATUS_INVALID_PARAMETER; /* names none of OtherGPU's segments */
    struct og_allocation *alloc = new_record(sizeof(*alloc), OG_ALLOCATION_MAGIC);
    if (!alloc)
        return STATUS_NO_MEMORY;
    alloc->size = (req.Size + OG_PAGE_SIZE - 1) & ~(UINT64)(OG_PAGE_SIZE - 1);
    info->hAllocation = alloc;
    info->Size = (SIZE_T)alloc->size;
    info->Alignment = req.Alignment > OG_PAGE_SIZE ? req.Alignment : OG_PAGE_SIZE;
    info->PitchAlignedSize = 0;
    info->PreferredSegment = kept_preference(req.PreferredSegment, set);
    info->HintedBank.Value = 0;
    info->SupportedReadSegmentSet = set;
    info->SupportedWriteSegmentSet = set;
    info->EvictionSegmentSet = req.EvictionSegmentSet & OG_APERTURE_SEGMENTS;
    info->Flags = req.Flags;
    info->pAllocationUsageHint = NULL;
    info->AllocationPriority = req.Priority ? req.Priority : OG_PRIORITY_NORMAL;
    return STATUS_SUCCESS;
}

NTSTATUS OgCreateAllocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *pCreateAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    DXGKARG_CREATEALLOCATION *c = pCreateAllocation;
    if (c->NumAllocations && !c->pAllocationInfo)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < c->NumAllocations; i++) {
        NTSTATUS status = create_one(&c->pAllocationInfo[i]);
        if (status == STATUS_SUCCESS)
            continue;
        for (UINT j = 0; j < i; j++) { /* all or nothing */
            free_record(c->pAllocationInfo[j].hAllocation, OG_ALLOCATION_MAGIC);
            c->pAllocationInfo[j].hAllocation = NULL;
        }
        return status;
    }
    return STATUS_SUCCESS;
}

NTSTATUS OgDestroyAllocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *pDestroyAllocation)
{
    UNREFERENCED_PARAMETER(hAdapter);
    for (UINT i = 0; i < pDestroyAllocation->NumAllocations; i++)
        (void)free_record(pDestroyAllocation->pAllocationList[i], OG_ALLOCATION_MAGIC);
    return STATUS_SUCCESS;
}
