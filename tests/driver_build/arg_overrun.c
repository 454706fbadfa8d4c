/* SPDX-License-Identifier: MIT */
/*
 * arg_overrun.c - the reference driver with one access past a struct or
 * array the kit hands it by pointer (issue 22, item 2): the kit used to
 * pass its own stack variables, so these went unseen or crashed the kit.
 * Each must now be MEM-GUARD-001 naming the DDI and the argument
 * (tests/arg_guard_tests.cmake). Built once per WK_TEST_ARG_OVERRUN:
 *
 *   1  CreateAllocation writes 88 bytes past pAllocationInfo[NumAllocations]
 *   2  QueryAdapterInfo writes one descriptor past pSegmentDescriptor[NbSegment]
 *   3  CreateDevice writes 64 bytes past *pCreateDevice
 *   4  QueryAdapterInfo writes 512 bytes past the DRIVERCAPS output
 *   5  CreateDevice reads 64 bytes past *pCreateDevice
 *   6  CreateAllocation writes a byte before pAllocationInfo[0] (the canary)
 *   7  AddDevice writes 8 bytes past the PhysicalDeviceObject it keeps
 *   8  DriverEntry writes 16 bytes past *RegistryPath
 *   9  DriverEntry writes a character past RegistryPath->Buffer's MaximumLength
 *
 * Then it does what the reference driver does (when it is still running).
 */
#include <string.h>

#include "refwrap.h"

#ifndef WK_TEST_ARG_OVERRUN
#error "build with WK_TEST_ARG_OVERRUN=1..9"
#endif

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* volatile: the store or load is the test, the compiler must keep it */
static void poke(void *at)
{
    *(volatile BYTE *)at = 0x5A;
}

static BYTE peek(const void *at)
{
    return *(const volatile BYTE *)at;
}

static NTSTATUS create_allocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *p)
{
    if (WK_TEST_ARG_OVERRUN == 1)
        poke((BYTE *)&p->pAllocationInfo[p->NumAllocations] + 88);
    else
        poke((BYTE *)p->pAllocationInfo - 1);
    return wk_wrap_reference.DxgkDdiCreateAllocation(hAdapter, p);
}

static NTSTATUS create_device(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *p)
{
    BYTE *past = (BYTE *)(p + 1) + 64;
    if (WK_TEST_ARG_OVERRUN == 3)
        poke(past);
    else if (peek(past) == 0x5A) /* never: the read faults first */
        return STATUS_UNSUCCESSFUL;
    return wk_wrap_reference.DxgkDdiCreateDevice(hAdapter, p);
}

/* The second segment query (descriptors given), either shape. */
static void past_descriptors(const DXGKARG_QUERYADAPTERINFO *q)
{
    if (q->Type == DXGKQAITYPE_QUERYSEGMENT3) {
        DXGK_QUERYSEGMENTOUT3 *out = q->pOutputData;
        if (out->pSegmentDescriptor)
            memset(&out->pSegmentDescriptor[out->NbSegment], 0x5A, sizeof(DXGK_SEGMENTDESCRIPTOR3));
    } else if (q->Type == DXGKQAITYPE_QUERYSEGMENT4) {
        DXGK_QUERYSEGMENTOUT4 *out = q->pOutputData;
        if (out->pSegmentDescriptor)
            memset(out->pSegmentDescriptor + out->NbSegment * out->SegmentDescriptorStride, 0x5A,
                   out->SegmentDescriptorStride);
    }
}

static NTSTATUS query_adapter_info(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiQueryAdapterInfo(hAdapter, q);
    if (WK_TEST_ARG_OVERRUN == 2)
        past_descriptors(q);
    else if (q->Type == DXGKQAITYPE_DRIVERCAPS)
        poke((BYTE *)q->pOutputData + q->OutputDataSize + 512);
    return st;
}

static NTSTATUS add_device(const PDEVICE_OBJECT pdo, PVOID *context)
{
    poke((BYTE *)(pdo + 1) + 8);
    return wk_wrap_reference.DxgkDdiAddDevice(pdo, context);
}

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    if (WK_TEST_ARG_OVERRUN == 7)
        init->DxgkDdiAddDevice = add_device;
    else if (WK_TEST_ARG_OVERRUN == 1 || WK_TEST_ARG_OVERRUN == 6)
        init->DxgkDdiCreateAllocation = create_allocation;
    else if (WK_TEST_ARG_OVERRUN == 3 || WK_TEST_ARG_OVERRUN == 5)
        init->DxgkDdiCreateDevice = create_device;
    else if (WK_TEST_ARG_OVERRUN == 2 || WK_TEST_ARG_OVERRUN == 4)
        init->DxgkDdiQueryAdapterInfo = query_adapter_info;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    if (WK_TEST_ARG_OVERRUN == 8)
        poke((BYTE *)(RegistryPath + 1) + 16);
    else if (WK_TEST_ARG_OVERRUN == 9)
        poke((BYTE *)RegistryPath->Buffer + RegistryPath->MaximumLength);
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
