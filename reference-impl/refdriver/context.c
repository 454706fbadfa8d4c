/* SPDX-License-Identifier: MIT */
/*
 * context.c - DxgkDdiCreateContext, DxgkDdiDestroyContext and the driver's
 * use of context allocations (DxgkCbCreateContextAllocation,
 * DxgkCbUpdateContextAllocation, DxgkCbDestroyContextAllocation).
 *
 * Every non-system context gets a 4 KiB GPU context allocation
 * (AccessedPhysically, facts 5.8 A4), then an UpdateContextAllocation with a
 * small blob {magic, context id} that the kernel turns into an
 * UPDATE_CONTEXT_ALLOCATION paging operation (A6; paging.c writes it). The
 * system context gets neither (A2, X5).
 *
 * CreateContext may fail only for lack of memory (facts 5.7 X6, 2.2), so any
 * failure on the way, the kernel's callbacks included, comes back as
 * STATUS_NO_MEMORY after everything made so far is undone.
 */
#include "refdriver.h"

static void list_insert(struct rd_adapter *a, struct rd_allocation *alloc)
{
    KIRQL irql = rd_lock_acquire(&a->lock);
    alloc->next = a->context_allocations;
    a->context_allocations = alloc;
    rd_lock_release(&a->lock, irql);
}

static void list_remove(struct rd_adapter *a, struct rd_allocation *alloc)
{
    KIRQL irql = rd_lock_acquire(&a->lock);
    for (struct rd_allocation **p = &a->context_allocations; *p; p = &(*p)->next) {
        if (*p == alloc) {
            *p = alloc->next;
            break;
        }
    }
    rd_lock_release(&a->lock, irql);
}

struct rd_allocation *wk_rd_context_allocation_find(struct rd_adapter *a, HANDLE h)
{
    struct rd_allocation *found = NULL;
    if (!h)
        return NULL;
    KIRQL irql = rd_lock_acquire(&a->lock);
    for (struct rd_allocation *p = a->context_allocations; p; p = p->next) {
        if ((HANDLE)p == h || p->kernel_handle == h ||
            (p->creating && p->creating->hAllocation == h)) {
            found = p;
            break;
        }
    }
    rd_lock_release(&a->lock, irql);
    return found;
}

/* The callback's arguments: 4 KiB, page aligned, contiguous (A4); it may
 * live in any memory segment or, evicted, behind the aperture. */
static void fill_create_args(struct rd_device *dev, HANDLE runtime_context, BOOLEAN shared,
                             struct rd_allocation *alloc, DXGKARGCB_CREATECONTEXTALLOCATION *args)
{
    struct rd_adapter *a = dev->adapter;
    RtlZeroMemory(args, sizeof(*args));
    args->ContextAllocationFlags.SharedAcrossContexts = shared ? 1 : 0;
    args->hAdapter = a->dxgk.DeviceHandle;
    args->hDevice = dev->runtime_handle;
    args->hContext = shared ? NULL : runtime_context; /* A1: NULL for device ones */
    args->hDriverAllocation = alloc;
    args->Size = alloc->size;
    args->Alignment = alloc->alignment;
    args->SupportedSegmentSet = rd_all_segments(a);
    args->EvictionSegmentSet = a->aperture_set; /* facts 4.9: apertures only */
    for (UINT id = 1; id <= a->segment_count; id++) {
        if (a->memory_set & (1u << (id - 1))) {
            args->PreferredSegment.SegmentId0 = id;
            break;
        }
    }
    args->Flags = alloc->flags;
}

NTSTATUS wk_rd_context_allocation_create(struct rd_device *dev, HANDLE runtime_context,
                                      BOOLEAN shared, struct rd_allocation **out)
{
    struct rd_adapter *a = dev->adapter;
    *out = NULL;
    if (!a->dxgk.DxgkCbCreateContextAllocation)
        return STATUS_SUCCESS; /* the kernel offers none: run without */
    struct rd_allocation *alloc = rd_alloc(sizeof(*alloc));
    if (!alloc)
        return STATUS_NO_MEMORY;
    alloc->magic = RD_MAGIC_ALLOCATION;
    alloc->context_allocation = TRUE;
    alloc->size = RD_CONTEXT_ALLOCATION_SIZE;
    alloc->alignment = WK_GPU_PAGE_SIZE;
    alloc->flags.AccessedPhysically = 1;
    DXGKARGCB_CREATECONTEXTALLOCATION args;
    fill_create_args(dev, runtime_context, shared, alloc, &args);
    /* Listed before the call: the kernel may initialise the allocation
     * (InitContextResource) before the callback returns. */
    alloc->creating = &args;
    list_insert(a, alloc);
    NTSTATUS st = a->dxgk.DxgkCbCreateContextAllocation(a->dxgk.DeviceHandle, &args);
    alloc->creating = NULL;
    if (!NT_SUCCESS(st)) {
        RD_TRACE("refdriver: DxgkCbCreateContextAllocation failed 0x%08x\n", (unsigned)st);
        list_remove(a, alloc);
        alloc->magic = 0;
        rd_free(alloc);
        return STATUS_NO_MEMORY; /* X6: the only failure CreateContext may report */
    }
    alloc->kernel_handle = args.hAllocation;
    *out = alloc;
    return STATUS_SUCCESS;
}

void wk_rd_context_allocation_destroy(struct rd_adapter *a, struct rd_allocation *alloc)
{
    list_remove(a, alloc);
    if (a->dxgk.DxgkCbDestroyContextAllocation)
        a->dxgk.DxgkCbDestroyContextAllocation(a->dxgk.DeviceHandle, alloc->kernel_handle);
    alloc->magic = 0;
    rd_free(alloc);
}

/* DXGK_CONTEXTINFO per facts 5.7: DMA buffers in contiguous system memory
 * (X1, segment set 0), starting sizes (X3), 256 list entries for GDI (X2). */
static void fill_context_info(const DXGK_CREATECONTEXTFLAGS flags, DXGK_CONTEXTINFO *info)
{
    RtlZeroMemory(info, sizeof(*info));
    info->DmaBufferSize = RD_DMA_BUFFER_SIZE;
    info->DmaBufferSegmentSet = 0;
    info->DmaBufferPrivateDataSize = sizeof(struct rd_dma_private);
    info->AllocationListSize =
        flags.GdiContext ? DXGK_ALLOCATION_LIST_SIZE_GDICONTEXT : RD_ALLOCATION_LIST_SIZE;
    info->PatchLocationListSize = RD_PATCH_LIST_SIZE;
    info->Reserved = 0;
    info->Caps.Value = 0;
    info->PagingCompanionNodeId = 0;
}

/* The blob travels untouched to the UPDATE_CONTEXT_ALLOCATION paging
 * operation; DxgkCbUpdateContextAllocation returns once it ran (A6). */
static NTSTATUS update_context_allocation(struct rd_adapter *a, struct rd_context *ctx)
{
    if (!a->dxgk.DxgkCbUpdateContextAllocation)
        return STATUS_SUCCESS;
    ctx->blob.magic = RD_MAGIC_CONTEXT_BLOB;
    ctx->blob.context_id = ctx->id;
    DXGKARGCB_UPDATECONTEXTALLOCATION args;
    RtlZeroMemory(&args, sizeof(args));
    args.hAllocation = ctx->context_allocation->kernel_handle;
    args.pPrivateDriverData = &ctx->blob;
    args.PrivateDriverDataSize = sizeof(ctx->blob);
    return a->dxgk.DxgkCbUpdateContextAllocation(a->dxgk.DeviceHandle, &args);
}

static NTSTATUS give_context_allocation(struct rd_context *ctx, HANDLE runtime_context)
{
    struct rd_adapter *a = ctx->device->adapter;
    NTSTATUS st = wk_rd_context_allocation_create(ctx->device, runtime_context, FALSE,
                                               &ctx->context_allocation);
    if (!NT_SUCCESS(st) || !ctx->context_allocation)
        return st;
    st = update_context_allocation(a, ctx);
    if (!NT_SUCCESS(st)) {
        RD_TRACE("refdriver: DxgkCbUpdateContextAllocation failed 0x%08x\n", (unsigned)st);
        wk_rd_context_allocation_destroy(a, ctx->context_allocation);
        ctx->context_allocation = NULL;
        return STATUS_NO_MEMORY;
    }
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext)
{
    struct rd_device *dev = rd_device_from(hDevice);
    if (!dev || !pCreateContext)
        return STATUS_NO_MEMORY; /* X6; a foreign handle is a kernel bug */
    struct rd_adapter *a = dev->adapter;
    struct rd_context *ctx = rd_alloc(sizeof(*ctx));
    if (!ctx)
        return STATUS_NO_MEMORY;
    ctx->magic = RD_MAGIC_CONTEXT;
    ctx->device = dev;
    ctx->runtime_handle = pCreateContext->hContext;
    ctx->node = pCreateContext->NodeOrdinal;
    ctx->flags = pCreateContext->Flags;
    KIRQL irql = rd_lock_acquire(&a->lock);
    ctx->id = a->next_context_id++;
    rd_lock_release(&a->lock, irql);
    if (!ctx->flags.SystemContext) {
        NTSTATUS st = give_context_allocation(ctx, pCreateContext->hContext);
        if (NT_SUCCESS(st) && !NT_SUCCESS(wk_rd_gpummu_map_context(ctx))) {
            wk_rd_context_allocation_destroy(a, ctx->context_allocation);
            st = STATUS_NO_MEMORY;
        }
        if (!NT_SUCCESS(st)) {
            ctx->magic = 0;
            rd_free(ctx);
            return STATUS_NO_MEMORY;
        }
    }
    fill_context_info(ctx->flags, &pCreateContext->ContextInfo);
    pCreateContext->hContext = ctx;
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_destroy_context(const HANDLE hContext)
{
    struct rd_context *ctx = rd_context_from(hContext);
    if (!ctx)
        return STATUS_INVALID_PARAMETER;
    if (ctx->context_allocation)
        wk_rd_context_allocation_destroy(ctx->device->adapter, ctx->context_allocation);
    ctx->magic = 0;
    rd_free(ctx);
    return STATUS_SUCCESS;
}
