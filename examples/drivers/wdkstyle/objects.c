/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    objects.c

Abstract:

    Devices, contexts and allocations, and the handle checks every DDI
    makes before it trusts a handle dxgkrnl passes back.

    Heron keeps no per-context state on the GPU, so it creates no context
    allocations. CreateAllocation reads the allocation request of the
    user-mode driver: here the wddmkit UMD's WK_ALLOCATION_REQUEST
    (wddmkit/umd.h), which plays Heron's UMD in the suite.

Environment:

    Kernel mode only, PASSIVE_LEVEL.

--*/

#include "heron.h"
#include "wddmkit/umd.h"

#define HERON_PREFERENCE_SLOTS  5

static NTSTATUS HeronCreateOneAllocation(_Inout_ DXGK_ALLOCATIONINFO *AllocationInfo);

#pragma alloc_text(PAGE, HeronDdiCreateDevice)
#pragma alloc_text(PAGE, HeronDdiDestroyDevice)
#pragma alloc_text(PAGE, HeronDdiCreateContext)
#pragma alloc_text(PAGE, HeronDdiDestroyContext)
#pragma alloc_text(PAGE, HeronDdiCreateAllocation)
#pragma alloc_text(PAGE, HeronDdiDestroyAllocation)
#pragma alloc_text(PAGE, HeronCreateOneAllocation)

//
// Handle checks: nonpaged, Patch and SubmitCommand use them too.
//
_Use_decl_annotations_
PHERON_ADAPTER
HeronAdapterFromHandle(
    HANDLE hAdapter
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)hAdapter;

    return (Adapter != NULL && Adapter->Signature == HERON_ADAPTER_SIGNATURE) ? Adapter : NULL;
}

_Use_decl_annotations_
PHERON_DEVICE
HeronDeviceFromHandle(
    HANDLE hDevice
    )
{
    PHERON_DEVICE Device = (PHERON_DEVICE)hDevice;

    return (Device != NULL && Device->Signature == HERON_DEVICE_SIGNATURE) ? Device : NULL;
}

_Use_decl_annotations_
PHERON_CONTEXT
HeronContextFromHandle(
    HANDLE hContext
    )
{
    PHERON_CONTEXT Context = (PHERON_CONTEXT)hContext;

    return (Context != NULL && Context->Signature == HERON_CONTEXT_SIGNATURE) ? Context : NULL;
}

_Use_decl_annotations_
PHERON_ALLOCATION
HeronAllocationFromHandle(
    HANDLE hAllocation
    )
{
    PHERON_ALLOCATION Allocation = (PHERON_ALLOCATION)hAllocation;

    return (Allocation != NULL && Allocation->Signature == HERON_ALLOCATION_SIGNATURE) ? Allocation : NULL;
}

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiCreateDevice(
    IN_CONST_HANDLE hAdapter,
    INOUT_PDXGKARG_CREATEDEVICE pCreateDevice
    )
{
    PHERON_ADAPTER Adapter = HeronAdapterFromHandle(hAdapter);
    PHERON_DEVICE Device;

    PAGED_CODE();

    if (Adapter == NULL || pCreateDevice == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    Device = (PHERON_DEVICE)ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(HERON_DEVICE), HERON_TAG_DEVICE);
    if (Device == NULL) {
        return STATUS_NO_MEMORY;
    }

    Device->Signature = HERON_DEVICE_SIGNATURE;
    Device->Adapter = Adapter;
    Device->hRuntimeDevice = pCreateDevice->hDevice;
    Device->Flags = pCreateDevice->Flags;

    //
    // Not MultiEngineAware: the sizes go in the device info.
    //
    if (pCreateDevice->pInfo != NULL) {
        RtlZeroMemory(pCreateDevice->pInfo, sizeof(*pCreateDevice->pInfo));
        pCreateDevice->pInfo->DmaBufferSize = HeronGlobals.Settings.DmaBufferSize;
        pCreateDevice->pInfo->AllocationListSize = HERON_ALLOCATION_LIST_SIZE;
        pCreateDevice->pInfo->PatchLocationListSize = HERON_PATCH_LOCATION_LIST_SIZE;
    }

    pCreateDevice->hDevice = Device;
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiDestroyDevice(
    IN_CONST_HANDLE hDevice
    )
{
    PHERON_DEVICE Device = HeronDeviceFromHandle(hDevice);

    PAGED_CODE();

    if (Device == NULL) {
        return STATUS_INVALID_HANDLE;
    }

    Device->Signature = 0;
    ExFreePoolWithTag(Device, HERON_TAG_DEVICE);
    return STATUS_SUCCESS;
}

//
// Out of memory is the only way it fails.
//
_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiCreateContext(
    IN_CONST_HANDLE hDevice,
    INOUT_PDXGKARG_CREATECONTEXT pCreateContext
    )
{
    PHERON_DEVICE Device = HeronDeviceFromHandle(hDevice);
    PHERON_CONTEXT Context;
    DXGK_CONTEXTINFO *ContextInfo;

    PAGED_CODE();

    if (Device == NULL || pCreateContext == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    Context = (PHERON_CONTEXT)ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(HERON_CONTEXT),
                                              HERON_TAG_CONTEXT);
    if (Context == NULL) {
        return STATUS_NO_MEMORY;
    }

    Context->Signature = HERON_CONTEXT_SIGNATURE;
    Context->Device = Device;
    Context->NodeOrdinal = pCreateContext->NodeOrdinal;
    Context->GdiContext = pCreateContext->Flags.GdiContext ? TRUE : FALSE;

    ContextInfo = &pCreateContext->ContextInfo;
    RtlZeroMemory(ContextInfo, sizeof(*ContextInfo));
    ContextInfo->DmaBufferSize = HeronGlobals.Settings.DmaBufferSize;
    ContextInfo->DmaBufferSegmentSet = 0;   // locked system memory
    ContextInfo->DmaBufferPrivateDataSize = 0;
    ContextInfo->AllocationListSize = Context->GdiContext ? HERON_GDI_ALLOCATION_LIST_SIZE
                                                          : HERON_ALLOCATION_LIST_SIZE;
    ContextInfo->PatchLocationListSize = HERON_PATCH_LOCATION_LIST_SIZE;

    pCreateContext->hContext = Context;
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiDestroyContext(
    IN_CONST_HANDLE hContext
    )
{
    PHERON_CONTEXT Context = HeronContextFromHandle(hContext);

    PAGED_CODE();

    if (Context == NULL) {
        return STATUS_INVALID_HANDLE;
    }

    Context->Signature = 0;
    ExFreePoolWithTag(Context, HERON_TAG_CONTEXT);
    return STATUS_SUCCESS;
}

//
// The preference slots that name a segment of SegmentSet, in order; the
// list ends at the first empty slot.
//
static
DXGK_SEGMENTPREFERENCE
HeronKeepPreferences(
    _In_ D3DDDI_SEGMENTPREFERENCE Asked,
    _In_ UINT SegmentSet
    )
{
    DXGK_SEGMENTPREFERENCE Kept;
    UINT Ids[HERON_PREFERENCE_SLOTS];
    UINT Directions[HERON_PREFERENCE_SLOTS];
    UINT Count = 0;
    UINT Slot;

    Ids[0] = Asked.SegmentId0; Directions[0] = Asked.Direction0;
    Ids[1] = Asked.SegmentId1; Directions[1] = Asked.Direction1;
    Ids[2] = Asked.SegmentId2; Directions[2] = Asked.Direction2;
    Ids[3] = Asked.SegmentId3; Directions[3] = Asked.Direction3;
    Ids[4] = Asked.SegmentId4; Directions[4] = Asked.Direction4;

    for (Slot = 0; Slot < HERON_PREFERENCE_SLOTS; Slot++) {
        if (Ids[Slot] == 0) {
            break;
        }
        if (Ids[Slot] > HERON_SEGMENT_COUNT || (SegmentSet & HERON_SEGMENT_BIT(Ids[Slot])) == 0) {
            continue;
        }
        Ids[Count] = Ids[Slot];
        Directions[Count] = Directions[Slot];
        Count++;
    }
    for (Slot = Count; Slot < HERON_PREFERENCE_SLOTS; Slot++) {
        Ids[Slot] = 0;
        Directions[Slot] = 0;
    }

    Kept.Value = 0;
    Kept.SegmentId0 = Ids[0]; Kept.Direction0 = Directions[0];
    Kept.SegmentId1 = Ids[1]; Kept.Direction1 = Directions[1];
    Kept.SegmentId2 = Ids[2]; Kept.Direction2 = Directions[2];
    Kept.SegmentId3 = Ids[3]; Kept.Direction3 = Directions[3];
    Kept.SegmentId4 = Ids[4]; Kept.Direction4 = Directions[4];
    return Kept;
}

static
NTSTATUS
HeronCreateOneAllocation(
    _Inout_ DXGK_ALLOCATIONINFO *AllocationInfo
    )
{
    WK_ALLOCATION_REQUEST Request;
    PHERON_ALLOCATION Allocation;
    UINT SegmentSet;

    PAGED_CODE();

    //
    // Copy the UMD's bytes once, then check the copy.
    //
    if (AllocationInfo->pPrivateDriverData == NULL ||
        AllocationInfo->PrivateDriverDataSize != sizeof(Request)) {
        return STATUS_INVALID_PARAMETER;
    }
    RtlCopyMemory(&Request, AllocationInfo->pPrivateDriverData, sizeof(Request));

    if (Request.Magic != WK_ALLOCATION_REQUEST_MAGIC ||
        Request.Version != WK_ALLOCATION_REQUEST_VERSION ||
        Request.Reserved != 0 ||
        Request.PreferredSegment.Reserved != 0 ||
        Request.Flags.Reserved != 0 ||
        Request.Size == 0 ||
        Request.Size > HERON_LOCAL_VISIBLE_SIZE ||
        (Request.Alignment & (Request.Alignment - 1)) != 0) {
        return STATUS_INVALID_PARAMETER;
    }

    SegmentSet = Request.SupportedSegmentSet != 0 ? (Request.SupportedSegmentSet & HERON_SEGMENT_SET_ALL)
                                                  : HERON_SEGMENT_SET_ALL;
    if (Request.Flags.CpuVisible) {
        SegmentSet &= HERON_SEGMENT_SET_CPU_VISIBLE;
    }
    if (SegmentSet == 0) {
        return STATUS_INVALID_PARAMETER;    // names none of Heron's segments
    }

    Allocation = (PHERON_ALLOCATION)ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(HERON_ALLOCATION),
                                                    HERON_TAG_ALLOCATION);
    if (Allocation == NULL) {
        return STATUS_NO_MEMORY;
    }

    Allocation->Signature = HERON_ALLOCATION_SIGNATURE;
    Allocation->Size = (SIZE_T)ROUND_TO_PAGES(Request.Size);
    Allocation->SegmentSet = SegmentSet;

    AllocationInfo->hAllocation = Allocation;
    AllocationInfo->Size = Allocation->Size;
    AllocationInfo->Alignment = Request.Alignment > HERON_PAGE_SIZE ? Request.Alignment : HERON_PAGE_SIZE;
    AllocationInfo->PitchAlignedSize = 0;
    AllocationInfo->PreferredSegment = HeronKeepPreferences(Request.PreferredSegment, SegmentSet);
    AllocationInfo->HintedBank.Value = 0;  // Heron has no banks
    AllocationInfo->SupportedReadSegmentSet = SegmentSet;
    AllocationInfo->SupportedWriteSegmentSet = SegmentSet;
    AllocationInfo->EvictionSegmentSet = Request.EvictionSegmentSet & HERON_SEGMENT_SET_APERTURE;
    AllocationInfo->Flags = Request.Flags;
    AllocationInfo->pAllocationUsageHint = NULL;
    AllocationInfo->AllocationPriority = Request.Priority != 0 ? Request.Priority : HERON_DEFAULT_PRIORITY;
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiCreateAllocation(
    IN_CONST_HANDLE hAdapter,
    INOUT_PDXGKARG_CREATEALLOCATION pCreateAllocation
    )
{
    NTSTATUS Status;
    UINT Index;
    UINT Undo;

    PAGED_CODE();

    if (HeronAdapterFromHandle(hAdapter) == NULL || pCreateAllocation == NULL ||
        (pCreateAllocation->NumAllocations != 0 && pCreateAllocation->pAllocationInfo == NULL)) {
        return STATUS_INVALID_PARAMETER;
    }

    for (Index = 0; Index < pCreateAllocation->NumAllocations; Index++) {
        Status = HeronCreateOneAllocation(&pCreateAllocation->pAllocationInfo[Index]);
        if (!NT_SUCCESS(Status)) {
            //
            // All or nothing.
            //
            for (Undo = 0; Undo < Index; Undo++) {
                PHERON_ALLOCATION Allocation =
                    HeronAllocationFromHandle(pCreateAllocation->pAllocationInfo[Undo].hAllocation);
                NT_ASSERT(Allocation != NULL);
                Allocation->Signature = 0;
                ExFreePoolWithTag(Allocation, HERON_TAG_ALLOCATION);
                pCreateAllocation->pAllocationInfo[Undo].hAllocation = NULL;
            }
            return Status;
        }
    }

    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiDestroyAllocation(
    IN_CONST_HANDLE hAdapter,
    IN_CONST_PDXGKARG_DESTROYALLOCATION pDestroyAllocation
    )
{
    UINT Index;

    PAGED_CODE();
    UNREFERENCED_PARAMETER(hAdapter);

    for (Index = 0; Index < pDestroyAllocation->NumAllocations; Index++) {
        PHERON_ALLOCATION Allocation = HeronAllocationFromHandle(pDestroyAllocation->pAllocationList[Index]);

        if (Allocation != NULL) {
            Allocation->Signature = 0;
            ExFreePoolWithTag(Allocation, HERON_TAG_ALLOCATION);
        }
    }

    return STATUS_SUCCESS;
}
