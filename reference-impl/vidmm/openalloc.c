/* SPDX-License-Identifier: MIT */
/*
 * openalloc.c - an allocation bound to its device: DxgkDdiOpenAllocation
 * after the creation, DxgkDdiCloseAllocation before the destroy, and the
 * allocation's kernel handle that DxgkCbGetHandleData resolves (facts §5.13).
 *
 * Why: an allocation list names an allocation by the handle the driver
 * returned from DxgkDdiOpenAllocation (DXGK_ALLOCATIONLIST.
 * hDeviceSpecificAllocation, facts §4.7), which may be an object of its own
 * per device, not the one DxgkDdiCreateAllocation returned. A driver whose
 * Render or Patch reads the list's handle as that object must be handed it.
 *
 * The kit opens each allocation once, on the device that created it, with
 * Flags.Create set ("the allocation is created"): the kernel's creation
 * does the same. A driver without DxgkDdiOpenAllocation keeps
 * CreateAllocation's handle in its lists: the kit's fallback, no verdict.
 * Both DDIs run at PASSIVE_LEVEL, the level every creation DDI runs at here.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

D3DKMT_HANDLE allocation_kernel_handle(uint32_t handle)
{
    return (D3DKMT_HANDLE)(uintptr_t)runtime_handle(ALLOCATION_HANDLE_TAG, handle);
}

/* What the driver answered, and what the kit keeps of it: a success with a
 * handle binds the allocation (and is closed again if the creation fails
 * after all); a NULL handle breaks ALLOC-OPEN-001; any other status is the
 * driver declining (INVALID_PARAMETER, NO_MEMORY, GRAPHICS_DRIVER_MISMATCH
 * are its documented failures), and the creation fails with it. */
static wk_status judge_open(struct wk_vidmm *vm, struct allocation *a, NTSTATUS status,
                            const DXGK_OPENALLOCATIONINFO *info, wk_status guard)
{
    if (status == STATUS_SUCCESS && info->hDeviceSpecificAllocation) {
        a->device_handle = info->hDeviceSpecificAllocation;
        a->opened = 1;
    }
    if (guard != WK_OK)
        return guard;
    if (status != STATUS_SUCCESS)
        return fail(vm, WK_E_DRIVER_FAILED, "DxgkDdiOpenAllocation returned 0x%08x", (unsigned)status);
    if (!info->hDeviceSpecificAllocation)
        return violate(vm, R_ALLOC_OPEN, WK_DDI_OPEN_ALLOCATION,
                       "returned SUCCESS and left hDeviceSpecificAllocation NULL for allocation 0x%x",
                       (unsigned)info->hAllocation);
    return WK_OK;
}

wk_status allocation_open(struct wk_vidmm *vm, struct allocation *a, const void *data, uint32_t size)
{
    a->device_handle = a->driver_handle;
    a->opened = 0;
    if (!vm->ddi.DxgkDdiOpenAllocation)
        return WK_OK;
    /* pPrivateDriverData: "the same allocation-specific data" CreateAllocation
     * got; the driver may change it with Flags.Create set, the kit reads none
     * of it back (nothing above the kernel here to hand it to). */
    struct gbuf priv;
    wk_status st = gbuf_alloc(vm, &priv, size ? size : 1, "allocation private data (pOpenAllocation->pPrivateDriverData)");
    if (st != WK_OK)
        return st;
    memcpy(priv.ptr, data, size);
    DXGK_OPENALLOCATIONINFO info;
    memset(&info, 0, sizeof(info));
    info.hAllocation = allocation_kernel_handle(a->handle);
    info.pPrivateDriverData = size ? priv.ptr : NULL;
    info.PrivateDriverDataSize = size;
    DXGKARG_OPENALLOCATION args;
    memset(&args, 0, sizeof(args));
    args.NumAllocations = 1;
    args.Flags.Create = 1;
    struct garg g_info, g_args; /* guarded copies (guard_args.c) */
    args.pOpenAllocation = garg_in(vm, &g_info, &info, sizeof(info),
                                   "DXGK_OPENALLOCATIONINFO array (pOpenAllocation->pOpenAllocation[NumAllocations])");
    DXGKARG_OPENALLOCATION *pargs =
        garg_in(vm, &g_args, &args, sizeof(args), "DXGKARG_OPENALLOCATION argument (*pOpenAllocation)");
    const HANDLE hdev = device_get(vm, a->device)->driver_handle;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_OPEN_ALLOCATION, crashed,
             status = vm->ddi.DxgkDdiOpenAllocation(hdev, pargs);
             ddi_rewrite(vm, WK_DDI_OPEN_ALLOCATION, pargs, &status));
    g_args.kit = NULL; /* an input: the kit reads the answer from info */
    wk_status guard = garg_out(vm, &g_args, WK_DDI_OPEN_ALLOCATION, crashed);
    wk_status guard_info = garg_out(vm, &g_info, WK_DDI_OPEN_ALLOCATION, crashed);
    wk_status guard_priv = crashed == WK_OK ? gbuf_check(vm, &priv, WK_DDI_OPEN_ALLOCATION) : WK_OK;
    gbuf_free(vm, &priv);
    if (crashed != WK_OK)
        return crashed;
    return judge_open(vm, a, status, &info,
                      guard != WK_OK ? guard : guard_info != WK_OK ? guard_info : guard_priv);
}

wk_status allocation_close(struct wk_vidmm *vm, struct allocation *a)
{
    if (!a->opened)
        return WK_OK;
    if (!vm->ddi.DxgkDdiCloseAllocation) {
        a->opened = 0; /* nothing to unbind it through */
        return WK_OK;
    }
    HANDLE h = a->device_handle;
    DXGKARG_CLOSEALLOCATION args;
    memset(&args, 0, sizeof(args));
    args.NumAllocations = 1;
    struct garg g_list, g_args;
    args.pOpenHandleList = garg_in(vm, &g_list, &h, sizeof(h),
                                   "HANDLE array (pCloseAllocation->pOpenHandleList[NumAllocations])");
    DXGKARG_CLOSEALLOCATION *pargs =
        garg_in(vm, &g_args, &args, sizeof(args), "DXGKARG_CLOSEALLOCATION argument (*pCloseAllocation)");
    const HANDLE hdev = device_get(vm, a->device)->driver_handle;
    /* "STATUS_SUCCESS, or an appropriate error result": the destroy follows
     * either way, as it does in Windows. */
    NTSTATUS ignored = STATUS_SUCCESS;
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_CLOSE_ALLOCATION, crashed, ignored = vm->ddi.DxgkDdiCloseAllocation(hdev, pargs));
    (void)ignored;
    a->opened = 0; /* bound until now: DxgkCbGetHandleData answered for it during the call */
    g_list.kit = g_args.kit = NULL; /* inputs: nothing to read back */
    wk_status guard = garg_out(vm, &g_args, WK_DDI_CLOSE_ALLOCATION, crashed);
    wk_status guard_list = garg_out(vm, &g_list, WK_DDI_CLOSE_ALLOCATION, crashed);
    if (crashed != WK_OK)
        return crashed;
    return guard != WK_OK ? guard : guard_list;
}

/* DxgkCbGetHandleData of an allocation: the handle the driver returned from
 * CreateAllocation for it ("the private data for the allocation"), or with
 * Flags.DeviceSpecific the one OpenAllocation returned; NULL for a handle
 * that names no live allocation of this adapter (the driver "should fail
 * its currently running DDI function with STATUS_INVALID_HANDLE"). */
void *allocation_handle_data(struct wk_vidmm *vm, const DXGKARGCB_GETHANDLEDATA *args)
{
    if (!vm || !args || args->Type != DXGK_HANDLE_ALLOCATION)
        return NULL;
    uint32_t h = runtime_resolve(&vm->allocs, (HANDLE)(uintptr_t)args->hObject, ALLOCATION_HANDLE_TAG);
    struct allocation *a = h ? allocation_get(vm, h) : NULL;
    if (!a || a->context_allocation)
        return NULL;
    if (args->Flags.DeviceSpecific)
        return a->opened ? a->device_handle : NULL;
    return a->driver_handle;
}
