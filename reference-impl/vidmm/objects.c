/* SPDX-License-Identifier: MIT */
/*
 * objects.c - devices, contexts and allocations: the DDIs that create and
 * destroy them, and the checks on what the driver answers (facts §4.1,
 * §4.9, §5.7).
 *
 * Handles (handles.h) are a slot and its generation, reused once freed: the
 * caller's are what handles.h calls kit handles; the runtime handles the
 * driver sees (DXGKARG_CREATEDEVICE.hDevice in, ...) carry a tag in their
 * top bits, so a callback that passes one back can be resolved and one that
 * passes garbage, or the handle of an object gone since, is recognised.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

HANDLE runtime_handle(uint32_t tag, uint32_t handle)
{
    return (HANDLE)(uintptr_t)(tag | ht_runtime_bits(handle));
}

uint32_t runtime_resolve(const struct handle_table *t, HANDLE h, uint32_t tag)
{
    uintptr_t v = (uintptr_t)h;
    if ((v & ~(uintptr_t)HANDLE_INDEX_MASK) != tag)
        return 0;
    return ht_from_runtime_bits(t, (uint32_t)(v & HANDLE_INDEX_MASK));
}

void objects_init(struct wk_vidmm *vm)
{
    ht_init(&vm->devices, sizeof(struct device));
    ht_init(&vm->contexts, sizeof(struct context));
    ht_init(&vm->allocs, sizeof(struct allocation));
    hmap_init(&vm->alloc_by_driver);
}

void objects_free(struct wk_vidmm *vm)
{
    ht_free(&vm->devices);
    ht_free(&vm->contexts);
    ht_free(&vm->allocs);
    hmap_free(&vm->alloc_by_driver);
}

/* A device whose slot is in use (live, or being created or destroyed). */
struct device *device_get(struct wk_vidmm *vm, uint32_t handle)
{
    return ht_get(&vm->devices, handle);
}

static struct device *live_device(struct wk_vidmm *vm, uint32_t handle)
{
    struct device *d = device_get(vm, handle);
    return d && d->live ? d : NULL;
}

struct context *context_get(struct wk_vidmm *vm, uint32_t handle)
{
    struct context *c = ht_get(&vm->contexts, handle);
    return c && c->live ? c : NULL;
}

struct allocation *allocation_get(struct wk_vidmm *vm, uint32_t handle)
{
    struct allocation *a = ht_get(&vm->allocs, handle);
    return a && a->live ? a : NULL;
}

uint32_t allocation_new(struct wk_vidmm *vm)
{
    uint32_t h = ht_new(&vm->allocs);
    if (!h)
        return 0;
    struct allocation *a = ht_get(&vm->allocs, h);
    a->live = 1;
    a->handle = h;
    return h;
}

wk_status allocation_adopt(struct wk_vidmm *vm, struct allocation *a, HANDLE driver_handle)
{
    if (hmap_insert(&vm->alloc_by_driver, (uintptr_t)driver_handle, a->handle) != 0)
        return fail(vm, WK_E_NO_MEMORY, "out of memory for the allocation map");
    a->driver_handle = driver_handle;
    a->device_handle = driver_handle; /* until DxgkDdiOpenAllocation says otherwise (openalloc.c) */
    if (a->context_allocation) {
        a->ctx_prev = vm->ctxalloc_tail;
        a->ctx_next = 0;
        if (vm->ctxalloc_tail)
            ((struct allocation *)ht_get(&vm->allocs, vm->ctxalloc_tail))->ctx_next = a->handle;
        else
            vm->ctxalloc_head = a->handle;
        vm->ctxalloc_tail = a->handle;
    }
    return WK_OK;
}

void allocation_free(struct wk_vidmm *vm, struct allocation *a)
{
    hmap_remove(&vm->alloc_by_driver, (uintptr_t)a->driver_handle, a->handle);
    if (a->context_allocation && (a->ctx_prev || vm->ctxalloc_head == a->handle)) {
        if (a->ctx_prev)
            ((struct allocation *)ht_get(&vm->allocs, a->ctx_prev))->ctx_next = a->ctx_next;
        else
            vm->ctxalloc_head = a->ctx_next;
        if (a->ctx_next)
            ((struct allocation *)ht_get(&vm->allocs, a->ctx_next))->ctx_prev = a->ctx_prev;
        else
            vm->ctxalloc_tail = a->ctx_prev;
        a->ctx_prev = a->ctx_next = 0;
    }
    a->live = 0;
    ht_release(&vm->allocs, a->handle);
}

uint32_t allocation_by_driver_handle(struct wk_vidmm *vm, HANDLE h)
{
    return hmap_find(&vm->alloc_by_driver, (uintptr_t)h);
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

/* CreateDevice of device d, the runtime handle `runtime` its name to the
 * driver; d is live for the call: the driver may create device context
 * allocations naming that handle before it returns. The system device
 * (system_context.c) comes here too. */
wk_status device_call_create(struct wk_vidmm *vm, uint32_t flags, HANDLE runtime, struct device *d)
{
    DXGK_DEVICEINFO info;
    memset(&info, 0, sizeof(info));
    DXGKARG_CREATEDEVICE args;
    memset(&args, 0, sizeof(args));
    args.hDevice = runtime;
    args.Flags.Value = flags;
    args.hKmdProcess = gpuva_space_process(vm, d->space); /* NULL for a device of no process */
    struct garg g_info, g_args; /* guarded copies (guard_args.c) */
    args.pInfo = garg_in(vm, &g_info, &info, sizeof(info), "DXGK_DEVICEINFO output (pCreateDevice->pInfo)");
    DXGKARG_CREATEDEVICE *pargs =
        garg_in(vm, &g_args, &args, sizeof(args), "DXGKARG_CREATEDEVICE argument (*pCreateDevice)");
    d->live = 1;
    d->flags = flags;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_CREATE_DEVICE, crashed,
             status = vm->ddi.DxgkDdiCreateDevice(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_CREATE_DEVICE, pargs, &status));
    d->live = 0;
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
    d->live = 1;
    d->driver_handle = args.hDevice;
    return WK_OK;
}

wk_status wk_vidmm_create_device(struct wk_vidmm *vm, uint32_t flags, uint32_t *device)
{
    return wk_vidmm_create_device_in(vm, flags, 0, device);
}

wk_status wk_vidmm_create_device_in(struct wk_vidmm *vm, uint32_t flags, uint32_t space, uint32_t *device)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    if (!vm->ddi.DxgkDdiCreateDevice)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiCreateDevice");
    if (space && !gpuva_space_live(vm, space))
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", space);
    uint32_t index = ht_new(&vm->devices);
    if (!index)
        return fail(vm, WK_E_LIMIT, "too many devices");
    device_get(vm, index)->space = space;
    st = device_call_create(vm, flags, runtime_handle(DEVICE_HANDLE_TAG, index), device_get(vm, index));
    if (st != WK_OK) {
        ht_release(&vm->devices, index); /* its runtime handle names nothing from now on */
        return st;
    }
    *device = index;
    return WK_OK;
}

wk_status wk_vidmm_destroy_device(struct wk_vidmm *vm, uint32_t device)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    struct device *d = live_device(vm, device);
    if (!d)
        return fail(vm, WK_E_NOT_FOUND, "no device %u", device);
    struct ht_iter it;
    for (uint32_t c = ht_iter_first(&vm->contexts, &it); c; c = ht_iter_next(&vm->contexts, &it))
        if (context_get(vm, c) && context_get(vm, c)->device == device)
            wk_vidmm_destroy_context(vm, c);
    for (uint32_t a = ht_iter_first(&vm->allocs, &it); a; a = ht_iter_next(&vm->allocs, &it)) {
        struct allocation *al = allocation_get(vm, a);
        if (al && !al->context_allocation && al->device == device)
            wk_vidmm_destroy_allocation(vm, a);
    }
    wk_status crashed = WK_OK;
    if (vm->ddi.DxgkDdiDestroyDevice) {
        NTSTATUS status = STATUS_SUCCESS;
        HANDLE h = d->driver_handle;
        DDI_CALL(vm, WK_DDI_DESTROY_DEVICE, crashed, status = vm->ddi.DxgkDdiDestroyDevice(h));
        (void)status;
    }
    d->live = 0;
    ht_release(&vm->devices, device);
    if (crashed == WK_OK)
        ctxalloc_check_leaks(vm, device, 0);
    dmaq_device_gone(vm); /* the last one: the quarantine is judged inside this step */
    return crashed;
}

/* ------------------------------------------------------------------ */
/* Contexts                                                             */
/* ------------------------------------------------------------------ */

/* The engines (nodes) the driver reported: DXGK_GPUENGINETOPOLOGY's
 * NbAsymetricProcessingNodes, "the number of parallel engines that the GPU
 * supports", which the kernel ignores unless SchedulingCaps.MultiEngineAware
 * is set (facts §4.11); one otherwise, and when it says 0. The kit submits
 * to node 0 only: the other nodes are the driver's to name, not the kit's to
 * judge as missing. */
uint32_t adapter_nodes(const struct wk_vidmm *vm)
{
    uint32_t n = vm->caps.GpuEngineTopology.NbAsymetricProcessingNodes;
    return vm->caps.SchedulingCaps.MultiEngineAware && n ? n : 1;
}

/* The node paging runs on: the system context is created there and every
 * paging buffer is submitted to it (its completion must name it:
 * INTR-ORDINAL-001). Only a MultiEngineAware driver with more than one node
 * has a choice. A WDDM 2.x driver names it in
 * DXGK_PHYSICALADAPTERCAPS.PagingNodeIndex ("Index of the paging node for
 * the physical adapter", paging_node.c); a WDDM 1.x one in
 * DXGK_VIDMMCAPS.PagingNode, which "applies to WDDM 1.x only" and which the
 * kernel ignores without MultiEngineAware (facts §4.13). A node the driver
 * did not report, or a query it failed, pages on node 0: no WDK sentence
 * makes either a fault of the driver's, so the kit blames nothing. */
uint32_t adapter_paging_node(const struct wk_vidmm *vm)
{
    uint32_t nodes = adapter_nodes(vm);
    if (nodes < 2)
        return 0;
    uint32_t node = adapter_wddm2(vm) ? vm->physical_paging_node : vm->caps.MemoryManagementCaps.PagingNode;
    return node < nodes ? node : 0;
}

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
    if (i->PagingCompanionNodeId >= adapter_nodes(vm))
        violate(vm, R_CTX_COMPANION, d,
                "PagingCompanionNodeId %u, but the adapter reported %u node%s (DXGK_DRIVERCAPS.GpuEngineTopology."
                "NbAsymetricProcessingNodes, which counts only with SchedulingCaps.MultiEngineAware)",
                i->PagingCompanionNodeId, adapter_nodes(vm), adapter_nodes(vm) == 1 ? "" : "s");
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

/* The DMA buffer of a context DxgkDdiDestroyContext destroyed goes to the
 * quarantine (context: its handle, dma_quarantine.c), else straight back. */
static void context_free_buffers(struct wk_vidmm *vm, struct context *c, uint32_t context)
{
    patch_view_free(vm, c); /* before the pages it maps go */
    dma_unplace(vm, c);     /* the aperture lets go of them first, too */
    if (context)
        dmaq_put(vm, &c->dma, context);
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
    context_free_buffers(vm, c, vm->ddi.DxgkDdiDestroyContext ? context : 0);
    c->live = 0;
    ht_release(&vm->contexts, context); /* its runtime handle names nothing from now on */
    if (crashed == WK_OK)
        ctxalloc_check_leaks(vm, 0, context);
    return crashed;
}

/* CreateContext of context c on the driver's device hdev, on `node` with
 * `affinity` (DXGKARG_CREATECONTEXT.EngineAffinity, a mask of the node's
 * engines), the runtime handle `runtime` its name to the driver, and the
 * checks of its answer: c is live and holds the driver's handle and info
 * when the driver made a context (the result says whether its answer broke
 * a rule), not live when it made none. The system context
 * (system_context.c) comes here too; the kit's own contexts then get their
 * buffers (create_context_in). */
wk_status context_call_create(struct wk_vidmm *vm, HANDLE hdev, uint32_t flags, uint32_t node, uint32_t affinity,
                              HANDLE runtime, struct context *c)
{
    DXGKARG_CREATECONTEXT args;
    memset(&args, 0, sizeof(args));
    args.hContext = runtime;
    args.NodeOrdinal = node;
    args.EngineAffinity = affinity;
    args.Flags.Value = flags;
    c->flags = flags;
    c->node = node;
    c->live = 1;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
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
    return checked;
}

/* CreateContext of the context in slot `index` (c) on `node` (affinity
 * 0, as the kit always handed it), the checks of its answer and the kit's
 * buffers for it: c is live when it is kept. */
static wk_status create_context_in(struct wk_vidmm *vm, uint32_t device, uint32_t flags, uint32_t node,
                                   uint32_t index, struct context *c)
{
    c->device = device;
    wk_status checked = context_call_create(vm, device_get(vm, device)->driver_handle, flags, node, 0,
                                            runtime_handle(CONTEXT_HANDLE_TAG, index), c);
    if (!c->live)
        return checked;
    wk_status st = context_buffers(vm, c);
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
    return checked;
}

wk_status wk_vidmm_create_context(struct wk_vidmm *vm, uint32_t device, uint32_t flags,
                                  uint32_t *context)
{
    return wk_vidmm_create_context_on(vm, device, flags, VIDMM_NODE, context);
}

wk_status wk_vidmm_create_context_on(struct wk_vidmm *vm, uint32_t device, uint32_t flags, uint32_t node,
                                     uint32_t *context)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    if (!live_device(vm, device))
        return fail(vm, WK_E_NOT_FOUND, "no device %u", device);
    if (node >= adapter_nodes(vm)) /* its engines are the driver's to report: fewer is no fault */
        return fail(vm, WK_E_NOT_SUPPORTED, "a context on node %u, but the driver reports %u node%s "
                    "(DXGK_DRIVERCAPS.GpuEngineTopology.NbAsymetricProcessingNodes with MultiEngineAware)",
                    node, adapter_nodes(vm), adapter_nodes(vm) == 1 ? "" : "s");
    if (!vm->ddi.DxgkDdiCreateContext)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiCreateContext");
    st = gpuva_context_creatable(vm, device, flags);
    if (st != WK_OK)
        return st;
    /* reserved now: callbacks during CreateContext may name it */
    uint32_t index = ht_new(&vm->contexts);
    if (!index)
        return fail(vm, WK_E_LIMIT, "too many contexts");
    struct context *c = ht_get(&vm->contexts, index);
    st = create_context_in(vm, device, flags, node, index, c);
    if (c->live && st == WK_OK)
        st = gpuva_context_created(vm, index); /* a virtual context learns its root table */
    if (c->live) {
        *context = index;
        RETURN_CHECKED(vm, st);
    }
    if (ht_get(&vm->contexts, index)) /* not kept, and not torn down (which frees the slot) */
        ht_release(&vm->contexts, index);
    return st;
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

uint32_t wk_vidmm_context_node(struct wk_vidmm *vm, uint32_t context)
{
    const struct context *c = context_get(vm, context);
    return c ? c->node : 0;
}

/* ------------------------------------------------------------------ */
/* Allocations                                                          */
/* ------------------------------------------------------------------ */

/* The allocation's private data (pPrivateDriverData): the driver's own
 * format when its binding encodes it (binding.h), else the kit's request
 * (umd.h). CreateAllocation and OpenAllocation get the same bytes. */
static wk_status private_data(struct wk_vidmm *vm, const WK_ALLOCATION_REQUEST *req, uint8_t *buf, uint32_t cap,
                              const void **data, uint32_t *size)
{
    *data = req;
    *size = sizeof(*req);
    if (!binding_encodes_allocation(vm))
        return WK_OK;
    *data = buf;
    return binding_encode_allocation(vm, req, buf, cap, size);
}

static wk_status call_create_allocation(struct wk_vidmm *vm, const void *data, uint32_t size,
                                        DXGK_ALLOCATIONINFO *info)
{
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

/* DxgkDdiCloseAllocation of an opened allocation, then its
 * DxgkDdiDestroyAllocation: "Before the display miniport driver receives a
 * call to its DxgkDdiDestroyAllocation function ... DxgkDdiCloseAllocation"
 * (facts §5.13 O6). The destroy comes after a close the driver got wrong
 * too (MEM-GUARD-001), unless the adapter died. The first error. */
static wk_status close_then_destroy(struct wk_vidmm *vm, struct allocation *a)
{
    wk_status st = allocation_close(vm, a);
    if (!vm->dead && vm->ddi.DxgkDdiDestroyAllocation) {
        wk_status destroyed = call_destroy_allocation(vm, a->driver_handle);
        if (st == WK_OK)
            st = destroyed;
    }
    return st;
}

/* A creation that failed at DxgkDdiOpenAllocation: the kernel destroys
 * the allocations again (closing what the driver did bind), and the step
 * fails with the open's status; a crash while undoing wins. */
static wk_status undo_creation(struct wk_vidmm *vm, struct allocation *a, wk_status st)
{
    if (vm->dead) { /* the open crashed or hung: no driver to call */
        allocation_free(vm, a);
        return st;
    }
    char why[sizeof(vm->last_error)];
    snprintf(why, sizeof(why), "%s", vm->last_error);
    wk_status undone = close_then_destroy(vm, a);
    allocation_free(vm, a);
    if (undone != WK_OK)
        return undone;
    fail(vm, st, "%s (the allocation was destroyed again)", why);
    return st;
}

wk_status wk_vidmm_create_allocation(struct wk_vidmm *vm, uint32_t device,
                                     const WK_ALLOCATION_REQUEST *request, uint32_t *allocation)
{
    wk_status st = ready(vm);
    if (st != WK_OK)
        return st;
    if (!live_device(vm, device))
        return fail(vm, WK_E_NOT_FOUND, "no device %u", device);
    if (!vm->ddi.DxgkDdiCreateAllocation)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiCreateAllocation");
    uint8_t encoded[WK_VIDMM_MAX_PRIVATE_DATA];
    const void *data;
    uint32_t size;
    st = private_data(vm, request, encoded, sizeof(encoded), &data, &size);
    if (st != WK_OK)
        return st;
    DXGK_ALLOCATIONINFO info;
    st = call_create_allocation(vm, data, size, &info);
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
    st = allocation_adopt(vm, a, info.hAllocation);
    if (st != WK_OK) {
        allocation_free(vm, a);
        if (vm->ddi.DxgkDdiDestroyAllocation)
            (void)call_destroy_allocation(vm, info.hAllocation);
        return st;
    }
    a->device = device;
    a->info = info;
    a->info.pPrivateDriverData = NULL; /* that buffer is gone */
    a->size = (info.Size + PAGE - 1) & ~(PAGE - 1);
    st = allocation_open(vm, a, data, size);
    if (st != WK_OK)
        RETURN_CHECKED(vm, undo_creation(vm, a, st));
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
    wk_status crashed = close_then_destroy(vm, a);
    allocation_free(vm, a);
    RETURN_CHECKED(vm, crashed);
}

uint64_t wk_vidmm_placement_epoch(const struct wk_vidmm *vm)
{
    return vm->placement_epoch;
}

wk_status wk_vidmm_allocation_frame(struct wk_vidmm *vm, uint32_t allocation, uint64_t page, uint64_t *pfn)
{
    struct allocation *a = allocation_get(vm, allocation);
    if (!a)
        return fail(vm, WK_E_NOT_FOUND, "no allocation %u", allocation);
    if (page >= a->pfn_count)
        return fail(vm, WK_E_NOT_FOUND, "allocation %u has %llu system pages, no page %llu", allocation,
                    (unsigned long long)a->pfn_count, (unsigned long long)page);
    *pfn = a->pfns[page];
    return WK_OK;
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
    s->alignment = a->info.Alignment;
    s->system_pages = a->pfn_count;
    s->driver_handle = a->driver_handle;
    s->device_handle = a->device_handle;
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
