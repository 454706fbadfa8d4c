/* SPDX-License-Identifier: MIT */
/*
 * objects.c - devices, contexts and allocations: the DDIs that create and
 * destroy them, and the checks on what the driver answers (facts §4.1,
 * §4.9, §5.7).
 *
 * Handles the caller sees are 1-based indices, never reused. The runtime
 * handles the driver sees (DXGKARG_CREATEDEVICE.hDevice in, ...) carry a tag
 * in their top bits, so a callback that passes one back can be resolved and
 * one that passes garbage is recognised.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

static HANDLE runtime_handle(uint32_t tag, uint32_t index)
{
    return (HANDLE)(uintptr_t)(tag | index);
}

struct context *context_get(struct wk_vidmm *vm, uint32_t handle)
{
    if (handle == 0 || handle > vm->ncontexts || !vm->contexts[handle - 1].live)
        return NULL;
    return &vm->contexts[handle - 1];
}

struct allocation *allocation_get(struct wk_vidmm *vm, uint32_t handle)
{
    if (handle == 0 || handle > vm->nallocs || !vm->allocs[handle - 1].live)
        return NULL;
    return &vm->allocs[handle - 1];
}

uint32_t allocation_new(struct wk_vidmm *vm)
{
    if (vm->nallocs == MAX_HANDLES)
        return 0;
    struct allocation *a = &vm->allocs[vm->nallocs++];
    memset(a, 0, sizeof(*a));
    a->live = 1;
    return vm->nallocs;
}

uint32_t allocation_by_driver_handle(struct wk_vidmm *vm, HANDLE h)
{
    for (uint32_t i = 0; i < vm->nallocs; i++)
        if (vm->allocs[i].live && vm->allocs[i].driver_handle == h)
            return i + 1;
    return 0;
}

static wk_status ready(struct wk_vidmm *vm)
{
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash");
    if (!vm->started)
        return fail(vm, WK_E_STATE, "the adapter is not started");
    return WK_OK;
}

/* ------------------------------------------------------------------ */
/* Devices                                                              */
/* ------------------------------------------------------------------ */

wk_status wk_vidmm_create_device(struct wk_vidmm *vm, uint32_t flags, uint32_t *device)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    if (!vm->ddi.DxgkDdiCreateDevice)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiCreateDevice");
    if (vm->ndevices == sizeof(vm->devices) / sizeof(vm->devices[0]))
        return fail(vm, WK_E_LIMIT, "too many devices");
    uint32_t index = vm->ndevices + 1;
    DXGK_DEVICEINFO info;
    memset(&info, 0, sizeof(info));
    DXGKARG_CREATEDEVICE args;
    memset(&args, 0, sizeof(args));
    const HANDLE runtime = runtime_handle(DEVICE_HANDLE_TAG, index);
    args.hDevice = runtime;
    args.Flags.Value = flags;
    struct garg g_info, g_args; /* guarded copies (guard_args.c) */
    args.pInfo = garg_in(vm, &g_info, &info, sizeof(info), "DXGK_DEVICEINFO output (pCreateDevice->pInfo)");
    DXGKARG_CREATEDEVICE *pargs =
        garg_in(vm, &g_args, &args, sizeof(args), "DXGKARG_CREATEDEVICE argument (*pCreateDevice)");
    /* Reserved now: the driver may create device context allocations (naming
     * this runtime handle) before it returns. */
    vm->ndevices = index;
    vm->devices[index - 1].live = 1;
    vm->devices[index - 1].flags = flags;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_CREATE_DEVICE, crashed,
             status = vm->ddi.DxgkDdiCreateDevice(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_CREATE_DEVICE, pargs, &status));
    vm->devices[index - 1].live = 0;
    wk_status guard = garg_out(vm, &g_args, WK_DDI_CREATE_DEVICE, crashed);
    wk_status guard_info = garg_out(vm, &g_info, WK_DDI_CREATE_DEVICE, crashed);
    if (crashed != WK_OK)
        return crashed;
    if (guard != WK_OK || guard_info != WK_OK)
        return guard != WK_OK ? guard : guard_info;
    if (status == STATUS_NO_MEMORY)
        return fail(vm, WK_E_DRIVER_FAILED, "DxgkDdiCreateDevice: STATUS_NO_MEMORY");
    if (status != STATUS_SUCCESS || !args.hDevice)
        return violate(vm, R_DEV_STATUS, WK_DDI_CREATE_DEVICE,
                       "returned 0x%08x with handle %p, expected SUCCESS and a non-NULL handle",
                       (unsigned)status, args.hDevice);
    /* hDevice is in/out: the runtime's handle in, the driver's own out. A
     * driver that succeeds without writing it would get the runtime's
     * handle back as its device in every later call. */
    if (args.hDevice == runtime)
        return violate(vm, R_DEV_STATUS, WK_DDI_CREATE_DEVICE,
                       "returned SUCCESS with hDevice %p, the runtime's handle it was given: the driver must "
                       "return a handle of its own", args.hDevice);
    vm->devices[index - 1].live = 1;
    vm->devices[index - 1].driver_handle = args.hDevice;
    *device = index;
    return WK_OK;
}

wk_status wk_vidmm_destroy_device(struct wk_vidmm *vm, uint32_t device)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    if (device == 0 || device > vm->ndevices || !vm->devices[device - 1].live)
        return fail(vm, WK_E_NOT_FOUND, "no device %u", device);
    for (uint32_t c = 1; c <= vm->ncontexts; c++)
        if (context_get(vm, c) && vm->contexts[c - 1].device == device)
            wk_vidmm_destroy_context(vm, c);
    for (uint32_t a = 1; a <= vm->nallocs; a++) {
        struct allocation *al = allocation_get(vm, a);
        if (al && !al->context_allocation && al->device == device)
            wk_vidmm_destroy_allocation(vm, a);
    }
    wk_status crashed = WK_OK;
    if (vm->ddi.DxgkDdiDestroyDevice) {
        NTSTATUS status = STATUS_SUCCESS;
        HANDLE h = vm->devices[device - 1].driver_handle;
        DDI_CALL(vm, WK_DDI_DESTROY_DEVICE, crashed, status = vm->ddi.DxgkDdiDestroyDevice(h));
        (void)status;
    }
    vm->devices[device - 1].live = 0;
    if (crashed == WK_OK)
        ctxalloc_check_leaks(vm, device, 0);
    return crashed;
}

/* ------------------------------------------------------------------ */
/* Contexts                                                             */
/* ------------------------------------------------------------------ */

/* DXGK_CONTEXTINFO rules (facts §5.7 X1-X3, seed DXGK_CONTEXTINFO). */
static wk_status check_context_info(struct wk_vidmm *vm, const DXGKARG_CREATECONTEXT *c)
{
    const DXGK_CONTEXTINFO *i = &c->ContextInfo;
    enum wk_ddi d = WK_DDI_CREATE_CONTEXT;
    uint64_t before = vm->violation_total;
    if (!c->hContext)
        violate(vm, R_CTX_HANDLE, d, "returned a NULL hContext");
    if (i->DmaBufferSegmentSet & ~aperture_mask(vm))
        violate(vm, R_CTX_SEGSET, d, "DmaBufferSegmentSet 0x%x names non-aperture segments (apertures: 0x%x)",
                i->DmaBufferSegmentSet, aperture_mask(vm));
    if (c->Flags.GdiContext && i->AllocationListSize != DXGK_ALLOCATION_LIST_SIZE_GDICONTEXT)
        violate(vm, R_CTX_GDI, d, "GDI context with AllocationListSize %u, expected 256",
                i->AllocationListSize);
    if (i->Reserved)
        violate(vm, R_CTX_RESERVED, d, "Reserved is 0x%x, expected 0", i->Reserved);
    if (i->DmaBufferSize == 0)
        violate(vm, R_CTX_SIZES, d, "DmaBufferSize is 0");
    if (i->PagingCompanionNodeId != 0)
        violate(vm, R_CTX_COMPANION, d, "PagingCompanionNodeId %u, but the adapter has one engine (0)",
                i->PagingCompanionNodeId);
    /* Reserved: "This field is reserved and should not be used" (CTX-CAPS-001;
     * rules.h says why that makes a contract rule). Only a driver whose
     * interface version has Caps is read (context_caps.c). */
    uint32_t caps = context_caps_read(vm, i);
    if (caps & ~0x7u)
        violate(vm, R_CTX_CAPS, d, "Caps reserved bits 0x%x", caps & ~0x7u);
    return vm->violation_total == before ? WK_OK : WK_E_CONTRACT;
}

static wk_status context_buffers(struct wk_vidmm *vm, struct context *c)
{
    const DXGK_CONTEXTINFO *i = &c->info;
    if (i->DmaBufferSize > (64u << 20) || i->AllocationListSize > 65536 ||
        i->PatchLocationListSize > 1048576 || i->DmaBufferPrivateDataSize > (16u << 20))
        return fail(vm, WK_E_LIMIT, "context sizes beyond the kit's limits (DMA %u, allocation list %u, patch list %u, private %u)",
                    i->DmaBufferSize, i->AllocationListSize, i->PatchLocationListSize,
                    i->DmaBufferPrivateDataSize);
    wk_status st = gbuf_alloc_gpu(vm, &c->dma, i->DmaBufferSize, "DMA buffer");
    if (st == WK_OK)
        st = gbuf_alloc(vm, &c->dma_private, i->DmaBufferPrivateDataSize, "DMA-buffer private data");
    if (st == WK_OK)
        st = gbuf_alloc(vm, &c->alloc_list, (uint64_t)i->AllocationListSize * sizeof(DXGK_ALLOCATIONLIST),
                        "allocation list");
    /* The sizes the driver reports are starting sizes the kernel may grow
     * (facts §5.7 X3); grown_patch_list hands a longer list than asked, so
     * a Render that takes its room from PatchLocationListSize, or never
     * checks DmaSize because its list used to run out first, shows. */
    c->patch_entries = i->PatchLocationListSize;
    if (vm->cfg.grown_patch_list && c->patch_entries <= UINT32_MAX / WK_VIDMM_PATCH_LIST_GROWTH)
        c->patch_entries *= WK_VIDMM_PATCH_LIST_GROWTH;
    if (st == WK_OK)
        st = gbuf_alloc(vm, &c->patch_list, (uint64_t)c->patch_entries * sizeof(D3DDDI_PATCHLOCATIONLIST),
                        "patch-location list");
    if (st == WK_OK)
        st = dma_place(vm, c);
    return st;
}

static void context_free_buffers(struct wk_vidmm *vm, struct context *c)
{
    patch_view_free(vm, c); /* before the pages it maps go */
    dma_unplace(vm, c);     /* the aperture lets go of them first, too */
    gbuf_free(vm, &c->dma);
    gbuf_free(vm, &c->dma_private);
    gbuf_free(vm, &c->alloc_list);
    gbuf_free(vm, &c->patch_list);
}

/* DxgkDdiDestroyContext, then the kit's buffers; the context's own
 * allocations must be gone after it (ctxalloc_check_leaks). */
static wk_status context_teardown(struct wk_vidmm *vm, struct context *c, uint32_t context)
{
    wk_status crashed = WK_OK;
    if (vm->ddi.DxgkDdiDestroyContext) {
        NTSTATUS status = STATUS_SUCCESS;
        DDI_CALL(vm, WK_DDI_DESTROY_CONTEXT, crashed,
                 status = vm->ddi.DxgkDdiDestroyContext(c->driver_handle));
        (void)status;
    }
    context_free_buffers(vm, c);
    c->live = 0;
    if (crashed == WK_OK)
        ctxalloc_check_leaks(vm, 0, context);
    return crashed;
}

wk_status wk_vidmm_create_context(struct wk_vidmm *vm, uint32_t device, uint32_t flags,
                                  uint32_t *context)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    if (device == 0 || device > vm->ndevices || !vm->devices[device - 1].live)
        return fail(vm, WK_E_NOT_FOUND, "no device %u", device);
    if (!vm->ddi.DxgkDdiCreateContext)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiCreateContext");
    if (vm->ncontexts == MAX_HANDLES)
        return fail(vm, WK_E_LIMIT, "too many contexts");
    uint32_t index = vm->ncontexts + 1;
    struct context *c = &vm->contexts[index - 1];
    memset(c, 0, sizeof(*c));
    vm->ncontexts = index; /* reserved now: callbacks during CreateContext may name it */
    DXGKARG_CREATECONTEXT args;
    memset(&args, 0, sizeof(args));
    const HANDLE runtime = runtime_handle(CONTEXT_HANDLE_TAG, index);
    args.hContext = runtime;
    args.Flags.Value = flags;
    c->device = device;
    c->flags = flags;
    c->live = 1;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    HANDLE hdev = vm->devices[device - 1].driver_handle;
    struct garg g_args; /* a guarded copy (guard_args.c) */
    DXGKARG_CREATECONTEXT *pargs =
        garg_in(vm, &g_args, &args, sizeof(args), "DXGKARG_CREATECONTEXT argument (*pCreateContext)");
    DDI_CALL(vm, WK_DDI_CREATE_CONTEXT, crashed,
             status = vm->ddi.DxgkDdiCreateContext(hdev, pargs);
             ddi_rewrite(vm, WK_DDI_CREATE_CONTEXT, pargs, &status));
    c->live = 0;
    wk_status guard = garg_out(vm, &g_args, WK_DDI_CREATE_CONTEXT, crashed);
    if (crashed != WK_OK)
        return crashed;
    if (guard != WK_OK)
        return guard;
    if (status == STATUS_NO_MEMORY || status == STATUS_GRAPHICS_DRIVER_MISMATCH)
        return fail(vm, WK_E_DRIVER_FAILED, "DxgkDdiCreateContext returned 0x%08x", (unsigned)status);
    if (status != STATUS_SUCCESS)
        return violate(vm, R_CTX_STATUS, WK_DDI_CREATE_CONTEXT,
                       "returned 0x%08x, expected SUCCESS, NO_MEMORY or DRIVER_MISMATCH",
                       (unsigned)status);
    /* hContext is in/out, as CreateDevice's hDevice: the context is not
     * kept, since the kit would hand the driver the runtime's handle as its
     * own context in every later call. */
    if (args.hContext == runtime)
        return violate(vm, R_CTX_HANDLE, WK_DDI_CREATE_CONTEXT,
                       "returned SUCCESS with hContext %p, the runtime's handle it was given: the driver must "
                       "return a handle of its own", args.hContext);
    c->driver_handle = args.hContext;
    c->info = args.ContextInfo;
    c->caps = context_caps_read(vm, &c->info);
    wk_status checked = check_context_info(vm, &args);
    c->live = 1;
    st = context_buffers(vm, c);
    if (st != WK_OK) {
        /* The driver made a context the kit cannot use: hand it back, as
         * Windows destroys a context whose kernel-side setup failed (the
         * driver's context object and allocations would leak otherwise). */
        char why[sizeof(vm->last_error)];
        snprintf(why, sizeof(why), "%s", vm->last_error);
        wk_status undone = context_teardown(vm, c, index);
        fail(vm, st, "%s (the driver's context was destroyed again)", why);
        return undone == WK_OK ? st : undone;
    }
    *context = index;
    RETURN_CHECKED(vm, checked);
}

wk_status wk_vidmm_destroy_context(struct wk_vidmm *vm, uint32_t context)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    struct context *c = context_get(vm, context);
    if (!c)
        return fail(vm, WK_E_NOT_FOUND, "no context %u", context);
    submit_wait(vm, 0);
    RETURN_CHECKED(vm, context_teardown(vm, c, context));
}

wk_status wk_vidmm_context_info(struct wk_vidmm *vm, uint32_t context, DXGK_CONTEXTINFO *info)
{
    struct context *c = context_get(vm, context);
    if (!c)
        return fail(vm, WK_E_NOT_FOUND, "no context %u", context);
    *info = c->info;
    return WK_OK;
}

/* ------------------------------------------------------------------ */
/* Allocations                                                          */
/* ------------------------------------------------------------------ */

static wk_status call_create_allocation(struct wk_vidmm *vm, uint32_t device,
                                        const WK_ALLOCATION_REQUEST *req, DXGK_ALLOCATIONINFO *info)
{
    (void)device;
    /* pPrivateDriverData: the driver's own format when its binding encodes
     * it (binding.h), else the kit's request (umd.h). */
    uint8_t encoded[WK_VIDMM_MAX_PRIVATE_DATA];
    const void *data = req;
    uint32_t size = sizeof(*req);
    if (binding_encodes_allocation(vm)) {
        wk_status enc = binding_encode_allocation(vm, req, encoded, sizeof(encoded), &size);
        if (enc != WK_OK)
            return enc;
        data = encoded;
    }
    struct gbuf priv;
    wk_status st = gbuf_alloc(vm, &priv, size ? size : 1, "allocation private data");
    if (st != WK_OK)
        return st;
    memcpy(priv.ptr, data, size);
    memset(info, 0, sizeof(*info));
    info->pPrivateDriverData = size ? priv.ptr : NULL;
    info->PrivateDriverDataSize = size;
    DXGKARG_CREATEALLOCATION args;
    memset(&args, 0, sizeof(args));
    args.NumAllocations = 1;
    /* exactly NumAllocations entries, then the guard (guard_args.c) */
    struct garg g_info, g_args;
    args.pAllocationInfo = garg_in(vm, &g_info, info, sizeof(*info),
                                   "DXGK_ALLOCATIONINFO array (pCreateAllocation->pAllocationInfo[NumAllocations])");
    DXGKARG_CREATEALLOCATION *pargs =
        garg_in(vm, &g_args, &args, sizeof(args), "DXGKARG_CREATEALLOCATION argument (*pCreateAllocation)");
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_CREATE_ALLOCATION, crashed,
             status = vm->ddi.DxgkDdiCreateAllocation(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_CREATE_ALLOCATION, pargs, &status));
    wk_status guard = garg_out(vm, &g_args, WK_DDI_CREATE_ALLOCATION, crashed);
    wk_status guard_info = garg_out(vm, &g_info, WK_DDI_CREATE_ALLOCATION, crashed);
    wk_status guard_priv = crashed == WK_OK ? gbuf_check(vm, &priv, WK_DDI_CREATE_ALLOCATION) : WK_OK;
    gbuf_free(vm, &priv);
    if (crashed != WK_OK)
        return crashed;
    if (guard != WK_OK || guard_info != WK_OK || guard_priv != WK_OK)
        return guard != WK_OK ? guard : guard_info != WK_OK ? guard_info : guard_priv;
    if (status == STATUS_INVALID_PARAMETER || status == STATUS_NO_MEMORY)
        return fail(vm, WK_E_DRIVER_FAILED, "DxgkDdiCreateAllocation returned 0x%08x", (unsigned)status);
    if (status != STATUS_SUCCESS)
        return violate(vm, R_ALLOC_STATUS, WK_DDI_CREATE_ALLOCATION, "returned 0x%08x",
                       (unsigned)status);
    return WK_OK;
}

/* DestroyAllocation of one handle; the argument and its one-entry list on
 * guarded buffers (the list was the kit's own allocation record). The
 * call's status, or a MEM-GUARD-001 of the checks after it. */
static wk_status call_destroy_allocation(struct wk_vidmm *vm, HANDLE h)
{
    DXGKARG_DESTROYALLOCATION d;
    memset(&d, 0, sizeof(d));
    d.NumAllocations = 1;
    struct garg g_list, g_args;
    d.pAllocationList = garg_in(vm, &g_list, &h, sizeof(h),
                                "HANDLE array (pDestroyAllocation->pAllocationList[NumAllocations])");
    DXGKARG_DESTROYALLOCATION *pd =
        garg_in(vm, &g_args, &d, sizeof(d), "DXGKARG_DESTROYALLOCATION argument (*pDestroyAllocation)");
    NTSTATUS ignored = STATUS_SUCCESS;
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_DESTROY_ALLOCATION, crashed,
             ignored = vm->ddi.DxgkDdiDestroyAllocation(vm->miniport, pd));
    (void)ignored;
    g_list.kit = g_args.kit = NULL; /* inputs: nothing to read back */
    wk_status guard = garg_out(vm, &g_args, WK_DDI_DESTROY_ALLOCATION, crashed);
    wk_status guard_list = garg_out(vm, &g_list, WK_DDI_DESTROY_ALLOCATION, crashed);
    if (crashed != WK_OK)
        return crashed;
    return guard != WK_OK ? guard : guard_list;
}

wk_status wk_vidmm_create_allocation(struct wk_vidmm *vm, uint32_t device,
                                     const WK_ALLOCATION_REQUEST *request, uint32_t *allocation)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    if (device == 0 || device > vm->ndevices || !vm->devices[device - 1].live)
        return fail(vm, WK_E_NOT_FOUND, "no device %u", device);
    if (!vm->ddi.DxgkDdiCreateAllocation)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiCreateAllocation");
    DXGK_ALLOCATIONINFO info;
    st = call_create_allocation(vm, device, request, &info);
    if (st != WK_OK)
        return st;
    st = allocation_check_info(vm, &info, WK_DDI_CREATE_ALLOCATION);
    if (st == WK_OK && allocation_by_driver_handle(vm, info.hAllocation))
        st = violate(vm, R_ALLOC_STATUS, WK_DDI_CREATE_ALLOCATION,
                     "hAllocation %p is already in use by a live allocation", info.hAllocation);
    uint32_t h = st == WK_OK ? allocation_new(vm) : 0;
    if (st == WK_OK && !h)
        st = fail(vm, WK_E_LIMIT, "too many allocations");
    if (st != WK_OK) {
        if (vm->ddi.DxgkDdiDestroyAllocation && info.hAllocation) {
            (void)call_destroy_allocation(vm, info.hAllocation);
        }
        return st;
    }
    struct allocation *a = allocation_get(vm, h);
    a->device = device;
    a->driver_handle = info.hAllocation;
    a->info = info;
    a->info.pPrivateDriverData = NULL; /* that buffer is gone */
    a->size = (info.Size + PAGE - 1) & ~(PAGE - 1);
    *allocation = h;
    RETURN_CHECKED(vm, WK_OK);
}

wk_status wk_vidmm_destroy_allocation(struct wk_vidmm *vm, uint32_t allocation)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    struct allocation *a = allocation_get(vm, allocation);
    if (!a || a->context_allocation)
        return fail(vm, WK_E_NOT_FOUND, "no allocation %u", allocation);
    submit_wait(vm, 0);
    residency_release(vm, a);
    wk_status crashed = WK_OK;
    if (vm->ddi.DxgkDdiDestroyAllocation) {
        crashed = call_destroy_allocation(vm, a->driver_handle);
    }
    a->live = 0;
    RETURN_CHECKED(vm, crashed);
}

uint64_t wk_vidmm_placement_epoch(const struct wk_vidmm *vm)
{
    return vm->placement_epoch;
}

wk_status wk_vidmm_allocation_state(struct wk_vidmm *vm, uint32_t allocation,
                                    struct wk_vidmm_allocation_state *s)
{
    struct allocation *a = allocation_get(vm, allocation);
    if (!a)
        return fail(vm, WK_E_NOT_FOUND, "no allocation %u", allocation);
    memset(s, 0, sizeof(*s));
    s->resident = a->resident;
    s->size = a->size;
    s->system_pages = a->pfn_count;
    s->driver_handle = a->driver_handle;
    s->preferred = a->info.PreferredSegment.Value;
    s->hinted_bank = a->info.HintedBank.Value;
    s->supported_write = a->info.SupportedWriteSegmentSet;
    s->eviction = a->info.EvictionSegmentSet;
    s->flags = a->info.Flags.Value;
    if (a->resident) {
        struct segment *seg = segment_get(vm, a->segment);
        s->segment_id = a->segment;
        s->segment_offset = a->offset;
        s->gpu_address = seg->base + a->offset;
        for (uint32_t b = 0; b < seg->banks; b++)
            if (a->offset < seg->bank_end[b]) {
                s->bank = b + 1;
                break;
            }
    }
    return WK_OK;
}
