/* SPDX-License-Identifier: MIT */
/*
 * callback_from_thread.c - the reference driver whose DxgkDdiCreateContext
 * has a thread of its own call DxgkCbCreateContextAllocation with a NULL
 * hDriverAllocation (CTXALLOC-ARGS-001) and waits for it. The violation is
 * recorded outside the kit's frame of the step, so a case sees it at its
 * `expect_stats violations` check: the verdict must name the rule there
 * (tests/driver_build_tests.cmake, conform.rule_at_violations_check), not
 * say "none broken" (outsider 25).
 */
#include <pthread.h>
#include <string.h>

#include "refwrap.h"

WK_DRIVER_EXPORT DRIVER_INITIALIZE DriverEntry;

static DXGKRNL_INTERFACE kit;

static NTSTATUS keeping_start(VOID *const ctx, DXGK_START_INFO *info, DXGKRNL_INTERFACE *iface, ULONG *sources,
                              ULONG *children)
{
    if (iface)
        kit = *iface;
    return wk_wrap_reference.DxgkDdiStartDevice(ctx, info, iface, sources, children);
}

static void *nameless_allocation(void *unused)
{
    (void)unused;
    DXGKARGCB_CREATECONTEXTALLOCATION a;
    memset(&a, 0, sizeof(a));
    a.ContextAllocationFlags.Value = 0;
    a.Size = 4096;
    a.hDriverAllocation = NULL; /* the paging operations name the allocation by it */
    (void)kit.DxgkCbCreateContextAllocation(kit.DeviceHandle, &a);
    return NULL;
}

static NTSTATUS threaded_create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *args)
{
    pthread_t t;
    if (kit.DxgkCbCreateContextAllocation && pthread_create(&t, NULL, nameless_allocation, NULL) == 0)
        pthread_join(t, NULL);
    return wk_wrap_reference.DxgkDdiCreateContext(hDevice, args);
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiStartDevice = keeping_start;
    init->DxgkDdiCreateContext = threaded_create_context;
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
