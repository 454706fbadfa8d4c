/* SPDX-License-Identifier: MIT */
/*
 * thread_crash.c - the reference driver whose DxgkDdiRender hands work to
 * a thread of its own and waits for it, and the thread dies of a NULL
 * dereference before it signals: the crash is the thread's, while the
 * kit's thread sits inside Render. One way per build (WK_TEST_THREAD_CRASH):
 *
 *   1 system  the thread is a system thread (PsCreateSystemThread, the
 *             kit's trampoline, km.h), its StartRoutine crashing_worker;
 *   2 raw     the thread is one the driver made itself (pthread_create),
 *             which the kit knows nothing of;
 *   3 spin    a raw thread too, but Render waits for it by spinning on a
 *             flag, no kernel call: the kit's frame of Render is the one
 *             active when the thread faults, and the fault is still the
 *             thread's (it unwound Render's frame from the wrong thread).
 *
 * Either way a report that blames DxgkDdiRender is wrong: Render only
 * waited (issue 22, "a crash in a driver's deferred worker names the work
 * item or thread, not whichever DDI ran it"; tests/hostile_reports.sh,
 * mode thread-crash).
 */
#include <pthread.h>

#include "refwrap.h"
#include "wddmkit/km.h"

#ifndef WK_TEST_THREAD_CRASH
#error "build with -DWK_TEST_THREAD_CRASH=1 (system thread), 2 (raw pthread) or 3 (raw, spun on)"
#endif

WK_DRIVER_EXPORT DRIVER_INITIALIZE DriverEntry;

/* Set by the worker when its work is done; it never is. */
static KEVENT work_done;

/* Exported so that the report can name it (a hidden one is named as
 * module+offset). volatile: the compiler must not prove the store away. */
WK_DRIVER_EXPORT VOID crashing_worker(PVOID context);
WK_DRIVER_EXPORT VOID crashing_worker(PVOID context)
{
    volatile int *nothing = (volatile int *)context;
    *nothing = 1; /* context is NULL */
    KeSetEvent(&work_done, 0, FALSE);
}

static void *raw_worker(void *context)
{
    crashing_worker(context);
    return NULL;
}

static BOOLEAN start_worker(void)
{
    if (WK_TEST_THREAD_CRASH == 1) {
        HANDLE h = NULL;
        if (!NT_SUCCESS(PsCreateSystemThread(&h, THREAD_ALL_ACCESS, NULL, NULL, NULL, crashing_worker, NULL)))
            return FALSE;
        ZwClose(h);
        return TRUE;
    }
    pthread_t id;
    if (pthread_create(&id, NULL, raw_worker, NULL) != 0)
        return FALSE;
    pthread_detach(id);
    return TRUE;
}

static NTSTATUS waiting_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    KeInitializeEvent(&work_done, NotificationEvent, FALSE);
    if (start_worker()) {
        if (WK_TEST_THREAD_CRASH == 3)
            while (!KeReadStateEvent(&work_done)) /* no kernel wait: Render's frame stays the active one */
                ;
        else
            KeWaitForSingleObject(&work_done, Executive, KernelMode, FALSE, NULL);
    }
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = waiting_render;
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
