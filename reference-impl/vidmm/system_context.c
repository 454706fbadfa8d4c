/* SPDX-License-Identifier: MIT */
/*
 * system_context.c - the system device and the system context the kernel
 * creates at adapter start, on which every paging operation runs.
 *
 * DXGKARG_BUILDPAGINGBUFFER.hSystemContext is "the system context the
 * operation runs on" (facts §4.2): the driver's own handle, returned by its
 * DxgkDdiCreateContext for a context the kernel created with
 * DXGK_CREATECONTEXTFLAGS.SystemContext ("a context of the paging engine",
 * facts §3.3, §5.7 X5), on a device created with
 * DXGK_CREATEDEVICEFLAGS.SystemDevice. A driver may look its context object
 * up from it (to learn the engine it builds for), so the kit creates both,
 * as the kernel does, once the start's queries are answered:
 *
 *   - CreateDevice (Flags.SystemDevice), then CreateContext
 *     (Flags.SystemContext, NodeOrdinal the paging node, EngineAffinity 1),
 *     each answer checked as any device's and context's (objects.c);
 *   - neither is in the kit's handle tables: a reset keeps them (the
 *     kernel's live as long as the adapter), and the kit's own objects keep
 *     their handles from 1;
 *   - the driver sees them under runtime handles of slot 0, which no
 *     handle-table object has (handles.h): a context allocation that names
 *     them is the system device's or context's, which WDDM forbids
 *     (CTXALLOC-ARGS-002, facts §5.8 A2);
 *   - both are destroyed (DestroyContext, DestroyDevice) when the adapter
 *     stops, after every other object and before DxgkDdiStopDevice.
 *
 * A driver that fails either creation fails the adapter start, as it does
 * on Windows (the kernel has no paging without its system context): the
 * start's result says which object and why. A driver with no
 * DxgkDdiCreateDevice or DxgkDdiCreateContext gets neither (DDI-TABLE-001
 * is that verdict) and paging hands it a NULL hSystemContext.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define SYSTEM_DEVICE_RUNTIME ((HANDLE)(uintptr_t)DEVICE_HANDLE_TAG)
#define SYSTEM_CONTEXT_RUNTIME ((HANDLE)(uintptr_t)CONTEXT_HANDLE_TAG)

int system_device_runtime(HANDLE h)
{
    return h == SYSTEM_DEVICE_RUNTIME;
}

int system_context_runtime(HANDLE h)
{
    return h == SYSTEM_CONTEXT_RUNTIME;
}

HANDLE system_context_driver_handle(const struct wk_vidmm *vm)
{
    return vm->sys_context.live ? vm->sys_context.driver_handle : NULL;
}

/* The start fails: what the driver answered, then what it means. */
static wk_status start_fails(struct wk_vidmm *vm, wk_status st, const char *what, const char *call)
{
    char why[sizeof(vm->last_error)];
    snprintf(why, sizeof(why), "%s", vm->last_error);
    return fail(vm, st,
                "%s; that was the kernel's %s (%s), which Windows creates at adapter start: without it the "
                "adapter does not start",
                why, what, call);
}

wk_status system_context_create(struct wk_vidmm *vm)
{
    if (!vm->ddi.DxgkDdiCreateDevice || !vm->ddi.DxgkDdiCreateContext)
        return WK_OK;
    /* The case's injected failure (cfg.inject) aims at the case's own
     * calls: these are not counted (inject.c). */
    vm->system_setup = 1;
    DXGK_CREATEDEVICEFLAGS device_flags = { .Value = 0 };
    device_flags.SystemDevice = 1;
    memset(&vm->sys_device, 0, sizeof(vm->sys_device));
    wk_status st = device_call_create(vm, device_flags.Value, SYSTEM_DEVICE_RUNTIME, &vm->sys_device);
    if (!vm->sys_device.live) {
        vm->system_setup = 0;
        return start_fails(vm, st, "system device", "DxgkDdiCreateDevice with Flags.SystemDevice");
    }
    DXGK_CREATECONTEXTFLAGS context_flags = { .Value = 0 };
    context_flags.SystemContext = 1;
    memset(&vm->sys_context, 0, sizeof(vm->sys_context));
    st = context_call_create(vm, vm->sys_device.driver_handle, context_flags.Value, adapter_paging_node(vm), 1,
                             SYSTEM_CONTEXT_RUNTIME, &vm->sys_context);
    vm->system_setup = 0;
    if (!vm->sys_context.live)
        return start_fails(vm, st, "system context", "DxgkDdiCreateContext with Flags.SystemContext");
    return st;
}

/* No context allocation can belong to either (refused, CTXALLOC-ARGS-002),
 * so there is none to find left; the pool the driver took for them counts
 * at unload (POOL-LEAK-001). */
void system_context_destroy(struct wk_vidmm *vm)
{
    if (vm->dead)
        return;
    wk_status crashed = WK_OK;
    if (vm->sys_context.live) {
        submit_wait(vm, 0); /* paging runs on it */
        if (!vm->dead && vm->ddi.DxgkDdiDestroyContext) {
            NTSTATUS status = STATUS_SUCCESS;
            DDI_CALL(vm, WK_DDI_DESTROY_CONTEXT, crashed,
                     status = vm->ddi.DxgkDdiDestroyContext(vm->sys_context.driver_handle));
            (void)status;
        }
        vm->sys_context.live = 0;
    }
    if (vm->sys_device.live && !vm->dead) {
        if (vm->ddi.DxgkDdiDestroyDevice) {
            NTSTATUS status = STATUS_SUCCESS;
            DDI_CALL(vm, WK_DDI_DESTROY_DEVICE, crashed,
                     status = vm->ddi.DxgkDdiDestroyDevice(vm->sys_device.driver_handle));
            (void)status;
        }
        vm->sys_device.live = 0;
    }
    (void)crashed; /* a crash is its violation already, and the adapter is dead */
}
