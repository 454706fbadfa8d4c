/* SPDX-License-Identifier: MIT */
/*
 * ctxalloc.c - DxgkCbCreate/Destroy/Map/UpdateContextAllocation (facts
 * §4.10, §5.8; seed "Context allocation").
 *
 * The driver calls these from inside its own DDIs (typically CreateContext
 * and CreateDevice), so the kernel side runs nested: placing the allocation
 * initialises it with an INIT_CONTEXT_RESOURCE paging operation, an update
 * runs UPDATE_CONTEXT_ALLOCATION, each through the same checked
 * BuildPagingBuffer loop.
 *
 * DxgkCbMapContextAllocation (A5; seed "Context allocation": "Context
 * allocations are mapped into the application GPU virtual address space
 * associated with the specified context"): for a GpuMmu driver whose
 * device belongs to a process (gpuva_context.c), a range of that
 * process's address space, mapped as any (UPDATE_PAGE_TABLE, judged by the
 * GPU's reading) and following the allocation; anywhere else there is no
 * address space to map into, and the "GPU virtual address" handed back is
 * the allocation's GPU physical address, as before.
 */
#include <string.h>

#include "internal.h"

static int pow2_or_zero(uint64_t v)
{
    return (v & (v - 1)) == 0;
}

static struct allocation *find(struct wk_vidmm *vm, HANDLE h, enum wk_ddi ddi)
{
    struct allocation *a = allocation_get(vm, runtime_resolve(&vm->allocs, h, CTXALLOC_HANDLE_TAG));
    if (!a || !a->context_allocation) {
        violate(vm, R_CTXALLOC_HANDLE, ddi, "hAllocation %p is not a live context allocation", h);
        return NULL;
    }
    return a;
}

/* Facts §4.10 / §5.8 A1, A2 on the arguments. */
static int args_valid(struct wk_vidmm *vm, const DXGKARGCB_CREATECONTEXTALLOCATION *a,
                      uint32_t *device, uint32_t *context)
{
    enum wk_ddi d = WK_DDI_CB_CREATE_CONTEXT_ALLOCATION;
    int shared = a->ContextAllocationFlags.SharedAcrossContexts;
    /* A runtime handle names a device or context whose slot is in use
     * (live, or inside its CreateDevice or CreateContext): garbage, or the
     * handle of one destroyed since, names none (handles.h). */
    *device = runtime_resolve(&vm->devices, a->hDevice, DEVICE_HANDLE_TAG);
    *context = runtime_resolve(&vm->contexts, a->hContext, CONTEXT_HANDLE_TAG);
    /* The kernel's system device and context (system_context.c) are in no
     * table: named, they are judged by A2 below, not as garbage. */
    int kernel_device = system_device_runtime(a->hDevice);
    int kernel_context = system_context_runtime(a->hContext);
    if (shared != (a->hContext == NULL) || a->Size == 0 || !pow2_or_zero(a->Alignment) ||
        a->SupportedSegmentSet == 0 || (a->SupportedSegmentSet & ~segment_mask(vm)) ||
        (a->hDevice && *device == 0 && !kernel_device) || (a->hContext && *context == 0 && !kernel_context)) {
        violate(vm, R_CTXALLOC_ARGS, d,
                "SharedAcrossContexts=%d hDevice=%p hContext=%p Size=%llu Alignment=%u SupportedSegmentSet=0x%x",
                shared, a->hDevice, a->hContext, (unsigned long long)a->Size, a->Alignment,
                a->SupportedSegmentSet);
        return 0;
    }
    /* The placement fields are DXGK_ALLOCATIONINFO's (facts §4.10), held
     * to the same rules; hDriverAllocation is the handle the paging
     * operations hand back (InitContextResource), never NULL. */
    DXGK_ALLOCATIONINFO as_info;
    memset(&as_info, 0, sizeof(as_info));
    as_info.hAllocation = a->hDriverAllocation;
    as_info.Size = a->Size;
    as_info.Alignment = a->Alignment;
    as_info.SupportedReadSegmentSet = as_info.SupportedWriteSegmentSet = a->SupportedSegmentSet;
    as_info.EvictionSegmentSet = a->EvictionSegmentSet;
    as_info.PreferredSegment = a->PreferredSegment;
    as_info.HintedBank = a->HintedBank;
    as_info.AllocationPriority = 1; /* the kernel's, not an argument */
    if (!a->hDriverAllocation)
        violate(vm, R_CTXALLOC_ARGS, d, "hDriverAllocation is NULL: the paging operations name the allocation by it");
    if (!a->hDriverAllocation || allocation_check_info(vm, &as_info, d) != WK_OK)
        return 0;
    int system_device = kernel_device || (*device && (device_get(vm, *device)->flags & 1u));
    int system_context =
        kernel_context || (*context && (((struct context *)ht_get(&vm->contexts, *context))->flags & 1u));
    if ((!shared && system_context) || (shared && (system_device || !a->hDevice))) {
        violate(vm, R_CTXALLOC_SYSTEM, d, "a %s context allocation for a system %s", shared ? "device" : "GPU",
                shared ? "device" : "context");
        return 0;
    }
    return 1;
}

/* A callback failed on a limit of the kit's (WK_E_NOT_SUPPORTED: a paging
 * buffer smaller than the driver's own size, an operation the kit cannot
 * give in the driver's mode): kept, so the driver's failure that follows is
 * not its verdict (outsider 23: a 28-byte buffer failed a CreateContext). */
static void note_kit_limit(struct wk_vidmm *vm, wk_status st, const char *callback)
{
    if (st != WK_E_NOT_SUPPORTED)
        return;
    /* What the kit does not judge (an operation run where the documentation
     * leaves it open) is not a limit of its own: its reason says which. */
    int judged_none = strncmp(vm->last_error, "not judged", 10) == 0;
    char why[sizeof(vm->kit_refused) + sizeof(vm->last_error)];
    snprintf(why, sizeof(why), "the kit refused %s %s: %s", callback,
             judged_none ? "on what it does not judge" : "for a limit of its own", vm->last_error);
    wk_vidmm_text_cut(vm->kit_refused, sizeof(vm->kit_refused), why);
}

int wk_vidmm_take_kit_refusal(struct wk_vidmm *vm, char *buf, size_t size)
{
    int had = vm->kit_refused[0] != '\0';
    if (had && buf && size)
        wk_vidmm_text_cut(buf, size, vm->kit_refused);
    vm->kit_refused[0] = '\0';
    return had;
}

NTSTATUS ctxalloc_create(const HANDLE hAdapter, DXGKARGCB_CREATECONTEXTALLOCATION *args)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (vm && !args)
        violate(vm, R_CB_NULL, WK_DDI_CB_CREATE_CONTEXT_ALLOCATION, "called with its argument NULL");
    if (!vm || !args)
        return STATUS_INVALID_PARAMETER;
    NTSTATUS ignored = STATUS_SUCCESS;
    ddi_rewrite(vm, WK_DDI_CB_CREATE_CONTEXT_ALLOCATION, args, &ignored);
    vm->stats.ddi_calls[WK_DDI_CB_CREATE_CONTEXT_ALLOCATION]++;
    uint32_t device, context;
    if (!args_valid(vm, args, &device, &context))
        return STATUS_INVALID_PARAMETER;
    if (inject_fails(vm, WK_VIDMM_FAIL_CREATE_CONTEXT_ALLOCATION))
        return STATUS_NO_MEMORY; /* the case's injected failure (inject.c) */
    uint32_t h = allocation_new(vm);
    if (!h)
        return STATUS_NO_MEMORY;
    struct allocation *a = allocation_get(vm, h);
    a->context_allocation = 1;
    a->device = device;
    a->owner_context = context;
    if (allocation_adopt(vm, a, args->hDriverAllocation) != WK_OK) {
        allocation_free(vm, a);
        return STATUS_NO_MEMORY;
    }
    a->size = (args->Size + WK_GPU_PAGE_SIZE - 1) & ~(uint64_t)(WK_GPU_PAGE_SIZE - 1);
    a->info.Size = args->Size;
    a->info.Alignment = args->Alignment;
    a->info.SupportedReadSegmentSet = a->info.SupportedWriteSegmentSet = args->SupportedSegmentSet;
    a->info.EvictionSegmentSet = args->EvictionSegmentSet;
    a->info.PreferredSegment = args->PreferredSegment;
    a->info.HintedBank = args->HintedBank;
    a->info.Flags = args->Flags;
    a->info.AllocationPriority = 1;
    wk_status placed = residency_place(vm, a);
    if (placed != WK_OK) {
        note_kit_limit(vm, placed, "DxgkCbCreateContextAllocation");
        residency_release(vm, a); /* a block may be reserved already */
        allocation_free(vm, a);
        return STATUS_NO_MEMORY;
    }
    args->hAllocation = runtime_handle(CTXALLOC_HANDLE_TAG, h);
    return STATUS_SUCCESS;
}

NTSTATUS ctxalloc_destroy(const HANDLE hAdapter, const HANDLE hAllocation)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (!vm)
        return STATUS_INVALID_PARAMETER;
    vm->stats.ddi_calls[WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION]++;
    HANDLE h = hAllocation;
    NTSTATUS ignored = STATUS_SUCCESS;
    ddi_rewrite(vm, WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION, &h, &ignored);
    struct allocation *a = find(vm, h, WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION);
    if (!a)
        return STATUS_INVALID_PARAMETER;
    residency_release(vm, a);
    allocation_free(vm, a);
    return STATUS_SUCCESS;
}

/* The address space of the allocation's device's process, 0 for none. */
static uint32_t ctxalloc_space(struct wk_vidmm *vm, const struct allocation *a)
{
    const struct device *d = a->device ? device_get(vm, a->device) : NULL;
    return d && d->live ? d->space : 0;
}

/* A5 in a process: BaseAddress, when not 0, is the exact range (refused
 * when any of it is mapped), else the lowest free range with
 * MinimumAddress <= start and end <= MaximumAddress (0: no limit). The
 * pages are writable only with Protection.Write. 0 on failure. */
static D3DGPU_VIRTUAL_ADDRESS map_in_process(struct wk_vidmm *vm, uint32_t id, uint32_t space,
                                             const DXGKARGCB_MAPCONTEXTALLOCATION *args)
{
    uint64_t bytes = args->SizeInPages * WK_GPU_PAGE_SIZE, offset = args->OffsetInPages * WK_GPU_PAGE_SIZE;
    uint64_t va = args->BaseAddress;
    if (va ? !gpuva_range_free(vm, space, va, bytes)
           : !(va = gpuva_free_range(vm, space, bytes, args->MinimumAddress, args->MaximumAddress)))
        return 0;
    if (wk_vidmm_va_map(vm, space, va, id, offset, bytes, !args->Protection.Write) != WK_OK)
        return 0;
    return va;
}

D3DGPU_VIRTUAL_ADDRESS ctxalloc_map(const HANDLE hAdapter, const DXGKARGCB_MAPCONTEXTALLOCATION *args)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (vm && !args)
        violate(vm, R_CB_NULL, WK_DDI_CB_MAP_CONTEXT_ALLOCATION, "called with its argument NULL");
    if (!vm || !args)
        return 0;
    vm->stats.ddi_calls[WK_DDI_CB_MAP_CONTEXT_ALLOCATION]++;
    struct allocation *a = find(vm, args->hAllocation, WK_DDI_CB_MAP_CONTEXT_ALLOCATION);
    if (!a || !a->resident || args->OffsetInPages + args->SizeInPages > a->size / WK_GPU_PAGE_SIZE)
        return 0;
    uint32_t space = ctxalloc_space(vm, a);
    if (space)
        return map_in_process(vm, runtime_resolve(&vm->allocs, args->hAllocation, CTXALLOC_HANDLE_TAG), space, args);
    uint64_t va = segment_get(vm, a->segment)->base + a->offset + args->OffsetInPages * WK_GPU_PAGE_SIZE;
    if (args->BaseAddress && args->BaseAddress != va)
        return 0; /* the model cannot place it anywhere else (A5) */
    if (args->MaximumAddress && va + args->SizeInPages * WK_GPU_PAGE_SIZE > args->MaximumAddress)
        return 0;
    return va;
}

NTSTATUS ctxalloc_update(const HANDLE hAdapter, const DXGKARGCB_UPDATECONTEXTALLOCATION *args)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (vm && !args)
        violate(vm, R_CB_NULL, WK_DDI_CB_UPDATE_CONTEXT_ALLOCATION, "called with its argument NULL");
    if (!vm || !args)
        return STATUS_INVALID_PARAMETER;
    vm->stats.ddi_calls[WK_DDI_CB_UPDATE_CONTEXT_ALLOCATION]++;
    struct allocation *a = find(vm, args->hAllocation, WK_DDI_CB_UPDATE_CONTEXT_ALLOCATION);
    if (!a)
        return STATUS_INVALID_PARAMETER;
    if (args->PrivateDriverDataSize > 65536 || (args->PrivateDriverDataSize && !args->pPrivateDriverData))
        return STATUS_INVALID_PARAMETER;
    uint8_t blob[65536];
    wk_status crashed;
    DDI_GUARD(vm, WK_DDI_CB_UPDATE_CONTEXT_ALLOCATION, crashed,
              guarded_copy(blob, args->pPrivateDriverData, args->PrivateDriverDataSize));
    if (crashed != WK_OK)
        return STATUS_INVALID_PARAMETER;
    wk_status st = residency_place(vm, a);
    if (st != WK_OK) {
        note_kit_limit(vm, st, "DxgkCbUpdateContextAllocation");
        return STATUS_NO_MEMORY;
    }
    st = op_update_context_allocation(vm, a, blob, args->PrivateDriverDataSize);
    note_kit_limit(vm, st, "DxgkCbUpdateContextAllocation");
    return st == WK_OK ? STATUS_SUCCESS : STATUS_UNSUCCESSFUL;
}

/* Walks the context allocations only (allocation_adopt keeps them in
 * creation order), not every allocation: a DestroyContext costs the same
 * with a million allocations alive. */
void ctxalloc_check_leaks(struct wk_vidmm *vm, uint32_t device, uint32_t context)
{
    uint32_t h = vm->ctxalloc_head;
    while (h) {
        struct allocation *a = allocation_get(vm, h);
        int ours = context ? a->owner_context == context : (a->device == device && !a->owner_context);
        if (!ours) {
            h = a->ctx_next;
            continue;
        }
        violate(vm, R_CTXALLOC_LEAK, context ? WK_DDI_DESTROY_CONTEXT : WK_DDI_DESTROY_DEVICE,
                "context allocation %p of %s %u still alive after it was destroyed", a->driver_handle,
                context ? "context" : "device", context ? context : device);
        residency_release(vm, a); /* may call the driver, which may destroy context allocations */
        if (allocation_get(vm, h) != a) { /* it destroyed this one: what is left, from the start */
            h = vm->ctxalloc_head;
            continue;
        }
        h = a->ctx_next;
        allocation_free(vm, a);
    }
}
