/* SPDX-License-Identifier: MIT */
/*
 * device_handles.c - the reference driver with a device-specific handle of
 * its own: DxgkDdiOpenAllocation wraps each allocation in a pool object per
 * device (struct dev_alloc), DxgkDdiCloseAllocation frees it, and Render
 * and Patch read every handle of their allocation list as that object, as
 * the WDK says the list holds it (facts §4.7, §5.13 O5). A correct driver.
 *
 * Handed DxgkDdiCreateAllocation's handle instead (what the kit did before
 * it called DxgkDdiOpenAllocation), Render and Patch read a reference
 * allocation as a dev_alloc: `global` then holds the allocation's
 * Alignment and Flags, no pointer, and the read through it faults
 * (DRV-CRASH-001 for a limit of the kit). A dev_alloc that is never closed
 * is a pool block left at teardown (POOL-LEAK-001).
 *
 * Built with WK_NO_OPEN it is the reference driver without
 * DxgkDdiOpenAllocation and DxgkDdiCloseAllocation: its lists carry
 * CreateAllocation's handles, the kit's fallback. tests/openalloc_tests.cmake.
 */
#include <stddef.h>
#include <string.h>

#include "refwrap.h"
#include "refdriver/refdriver.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#ifndef WK_NO_OPEN

#define DEV_ALLOC_TAG 0x4F644B57u /* 'WKdO' */

struct dev_alloc {
    ULONG magic;
    ULONG reserved;
    const struct rd_device *device;
    struct rd_allocation *global; /* the reference driver's allocation */
};
/* Where a reference allocation keeps Alignment and Flags (see above). */
_Static_assert(offsetof(struct dev_alloc, global) == offsetof(struct rd_allocation, alignment),
               "a CreateAllocation handle read as a dev_alloc yields no pointer");

/* What a list entry's handle names: the driver trusts it, as the kernel
 * hands it (the allocation it opened on the context's device). */
static struct rd_allocation *global_of(HANDLE h)
{
    const struct dev_alloc *w = h;
    return w ? w->global : NULL;
}

static NTSTATUS open_allocation(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *args)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiOpenAllocation(hDevice, args);
    if (!NT_SUCCESS(st))
        return st;
    for (UINT i = 0; i < args->NumAllocations; i++) {
        struct dev_alloc *w = ExAllocatePoolWithTag(NonPagedPoolNx, sizeof(*w), DEV_ALLOC_TAG);
        if (!w) {
            while (i-- > 0) {
                struct dev_alloc *done = args->pOpenAllocation[i].hDeviceSpecificAllocation;
                args->pOpenAllocation[i].hDeviceSpecificAllocation = done->global;
                ExFreePoolWithTag(done, DEV_ALLOC_TAG);
            }
            return STATUS_NO_MEMORY;
        }
        w->magic = DEV_ALLOC_TAG;
        w->reserved = 0;
        w->device = hDevice;
        w->global = args->pOpenAllocation[i].hDeviceSpecificAllocation;
        args->pOpenAllocation[i].hDeviceSpecificAllocation = w;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS close_allocation(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *args)
{
    for (UINT i = 0; i < args->NumAllocations; i++) {
        struct dev_alloc *w = args->pOpenHandleList[i];
        w->magic = 0;
        ExFreePoolWithTag(w, DEV_ALLOC_TAG);
    }
    return wk_wrap_reference.DxgkDdiCloseAllocation(hDevice, args);
}

/* The list with the reference's handles, for the reference's Render and
 * Patch (a GDI context's 256 entries at most: the kit's lists are the
 * context's AllocationListSize). */
static DXGK_ALLOCATIONLIST global_list[256];

static const DXGK_ALLOCATIONLIST *translate(const DXGK_ALLOCATIONLIST *list, UINT n)
{
    if (!list || n > sizeof(global_list) / sizeof(global_list[0]))
        return NULL;
    for (UINT i = 0; i < n; i++) {
        global_list[i] = list[i];
        global_list[i].hDeviceSpecificAllocation = global_of(list[i].hDeviceSpecificAllocation);
    }
    return global_list;
}

/* Render on a copy of the arguments whose list holds the reference's
 * handles; what the reference wrote back is handed to the caller, with the
 * caller's list pointer. */
static NTSTATUS render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    /* A strict driver: an object opened on another device than the
     * context's is refused (the kernel never lists one: the kit refuses
     * such a render before Render, tests/openalloc_tests.cmake). */
    const struct rd_context *context = hContext;
    for (UINT i = 0; pRender->pAllocationList && i < pRender->AllocationListSize; i++) {
        const struct dev_alloc *w = pRender->pAllocationList[i].hDeviceSpecificAllocation;
        if (w && w->device != context->device)
            return STATUS_INVALID_HANDLE;
    }
    const DXGK_ALLOCATIONLIST *ours = translate(pRender->pAllocationList, pRender->AllocationListSize);
    if (pRender->AllocationListSize && !ours)
        return STATUS_INVALID_PARAMETER;
    DXGK_ALLOCATIONLIST *given = pRender->pAllocationList;
    DXGKARG_RENDER copy;
    memcpy(&copy, pRender, sizeof(copy));
    copy.pAllocationList = (DXGK_ALLOCATIONLIST *)ours;
    NTSTATUS st = wk_wrap_reference.DxgkDdiRender(hContext, &copy);
    copy.pAllocationList = given;
    memcpy(pRender, &copy, sizeof(copy));
    return st;
}

/* The flags of the allocations the last Patch patched: a driver's record
 * for its debugger (volatile: the reads it takes are the point). */
static volatile UINT patched_flags;

/* Patch reads the object of every allocation it patches (a driver that
 * patches by the allocation's flags does), then patches as the reference. */
static NTSTATUS patch(const HANDLE hAdapter, const DXGKARG_PATCH *a)
{
    UINT64 end = (UINT64)a->PatchLocationListSubmissionStart + a->PatchLocationListSubmissionLength;
    UINT flags = 0;
    for (UINT64 i = a->PatchLocationListSubmissionStart; a->pPatchLocationList && a->pAllocationList && i < end &&
                                                         i < a->PatchLocationListSize; i++) {
        UINT index = a->pPatchLocationList[i].AllocationIndex;
        const struct rd_allocation *g =
            index < a->AllocationListSize ? global_of(a->pAllocationList[index].hDeviceSpecificAllocation) : NULL;
        if (g)
            flags |= g->flags.Value;
    }
    patched_flags = flags;
    DXGKARG_PATCH copy;
    memcpy(&copy, a, sizeof(copy));
    const DXGK_ALLOCATIONLIST *ours = translate(a->pAllocationList, a->AllocationListSize);
    if (ours)
        copy.pAllocationList = ours;
    return wk_wrap_reference.DxgkDdiPatch(hAdapter, &copy);
}

static void replace(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiOpenAllocation = open_allocation;
    init->DxgkDdiCloseAllocation = close_allocation;
    init->DxgkDdiRender = render;
    init->DxgkDdiPatch = patch;
}

#else

static void replace(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiOpenAllocation = NULL;
    init->DxgkDdiCloseAllocation = NULL;
}

#endif

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, replace);
}
