/* SPDX-License-Identifier: MIT */
/*
 * reads_system_context.c - the reference driver whose BuildPagingBuffer
 * looks its context object up from DXGKARG_BUILDPAGINGBUFFER.hSystemContext,
 * "the system context the operation runs on" (WDK; facts §4.2, §4.13 N4),
 * as a driver that builds for the engine its system context runs on does:
 * it reads the first word of the object its CreateContext returned for the
 * context made with Flags.SystemContext. Correct on Windows; it crashed in
 * the kit while the kit handed a made-up handle (DRV-CRASH-001, the kit's
 * fault). tests/driver_build_tests.cmake: it passes the paging specs.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The first word of the reference driver's context objects (its magic): the
 * same for every context, so one value serves every adapter of a process. */
static ULONG system_context_word;

static NTSTATUS create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *args)
{
    int system = args->Flags.SystemContext;
    NTSTATUS st = wk_wrap_reference.DxgkDdiCreateContext(hDevice, args);
    if (NT_SUCCESS(st) && system)
        system_context_word = *(const ULONG *)args->hContext;
    return st;
}

static NTSTATUS build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *args)
{
    const volatile ULONG *context = args->hSystemContext;
    if (!context || *context != system_context_word)
        return STATUS_INVALID_PARAMETER; /* not its system context: PAGING-STATUS-001 */
    return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, args);
}

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCreateContext = create_context;
    init->DxgkDdiBuildPagingBuffer = build_paging_buffer;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
