/* SPDX-License-Identifier: MIT */
/*
 * planted_bank_ends_absolute.c - planted bug (CATALOGUE.md, entry 24): the
 * bank range table of a banked memory segment holds GPU addresses
 * (BaseAddress + end), not offsets in the segment.
 *
 * The bug as it happens in real drivers: segment addresses elsewhere in the
 * DDI are absolute (facts §5.1 P6: SegmentAddress already includes the
 * segment's BaseAddress), and the board's memory map lists the banks at
 * their GPU addresses, so the table is copied from it as is. But
 * pBankRangeTable gives each bank's end offset inside the segment, and the
 * banks cover the segment from offset 0 to its end (facts §5.6 B2; seed
 * DXGK_SEGMENTDESCRIPTOR, pBankRangeTable). On a segment whose BaseAddress
 * is not 0 the ends lie past the segment and describe no bank of it.
 *
 * Expected rule: SEG-BANK-003 (bank ends are strictly increasing inside the
 * segment). This wrapper runs the reference driver's QUERYSEGMENT3 answer
 * and then turns the ends of each banked segment's table into GPU
 * addresses. The table is the reference driver's own, rebuilt at every
 * StartDevice; its last end (the segment's size while relative) tells
 * whether it was turned already, so a second query changes nothing more.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void ends_to_addresses(DXGK_SEGMENTDESCRIPTOR3 *d)
{
    if (!d->Flags.UseBanking || !d->pBankRangeTable || d->NbOfBanks == 0 ||
        d->pBankRangeTable[d->NbOfBanks - 1] != d->Size)
        return;
    SIZE_T base = (SIZE_T)d->BaseAddress.QuadPart;
    for (UINT b = 0; b < d->NbOfBanks; b++)
        d->pBankRangeTable[b] += base; /* BUG: a GPU address, not an offset */
}

static NTSTATUS buggy_query_adapter_info(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiQueryAdapterInfo(hAdapter, pQueryAdapterInfo);
    const DXGKARG_QUERYADAPTERINFO *q = pQueryAdapterInfo;
    if (!NT_SUCCESS(st) || q->Type != DXGKQAITYPE_QUERYSEGMENT3)
        return st;
    DXGK_QUERYSEGMENTOUT3 *out = q->pOutputData;
    for (UINT i = 0; out->pSegmentDescriptor && i < out->NbSegment; i++)
        ends_to_addresses(&out->pSegmentDescriptor[i]);
    return st;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiQueryAdapterInfo = buggy_query_adapter_info;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
