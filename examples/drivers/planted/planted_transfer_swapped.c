/* SPDX-License-Identifier: MIT */
/*
 * planted_transfer_swapped.c - planted bug (CATALOGUE.md, entry 16): a
 * TRANSFER copies from its Destination to its Source.
 *
 * The bug as it happens in real drivers: the hardware's copy command takes
 * its destination first (as memcpy does), and the author fills the
 * command's operands from DXGK_BUILDPAGINGBUFFER_TRANSFER's Source and
 * Destination arms in that order, so the two trade places. An eviction then
 * overwrites the allocation in video memory with the stale system pages,
 * and a page-in copies the fresh video memory out.
 *
 * Expected rule: PAGING-TRANSFER-001 (after a Transfer the destination holds
 * the source bytes; seed DXGKARG_BUILDPAGINGBUFFER, Transfer). This wrapper
 * hands the reference driver's BuildPagingBuffer the two arms swapped, as
 * the buggy driver reads them, and puts them back before returning (they
 * are [in] fields).
 */
#include <string.h>

#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void swap_arms(DXGKARG_BUILDPAGINGBUFFER *a)
{
    unsigned char side[sizeof(a->Transfer.Source)];
    memcpy(side, &a->Transfer.Source, sizeof(side));
    memcpy(&a->Transfer.Source, &a->Transfer.Destination, sizeof(side));
    memcpy(&a->Transfer.Destination, side, sizeof(side));
}

static NTSTATUS buggy_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer)
{
    DXGKARG_BUILDPAGINGBUFFER *a = pBuildPagingBuffer;
    if (!a || a->Operation != DXGK_OPERATION_TRANSFER)
        return wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    swap_arms(a); /* BUG: Destination read as the source, Source as the destination */
    NTSTATUS st = wk_wrap_reference.DxgkDdiBuildPagingBuffer(hAdapter, pBuildPagingBuffer);
    swap_arms(a);
    return st;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiBuildPagingBuffer = buggy_build_paging_buffer;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
