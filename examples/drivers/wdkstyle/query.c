/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    query.c

Abstract:

    DxgkDdiQueryAdapterInfo: the driver caps, the segment layout in both
    shapes dxgkrnl asks for (QUERYSEGMENT3, QUERYSEGMENT4) and the private
    adapter information Heron's user-mode driver reads.

Environment:

    Kernel mode only, PASSIVE_LEVEL.

--*/

#include "heron.h"
#include "heron_umd.h"    // HERON_UMD_ADAPTER_INFO

static NTSTATUS HeronQueryDriverCaps(_In_ const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo);
static NTSTATUS HeronQuerySegment3(_In_ const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo);
static NTSTATUS HeronQuerySegment4(_In_ const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo);
static NTSTATUS HeronQueryUmdPrivate(_In_ PHERON_ADAPTER Adapter,
                                     _In_ const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo);
static VOID HeronDescribeSegment(_In_ UINT SegmentId, _Out_ DXGK_SEGMENTFLAGS *Flags,
                                 _Out_ PHYSICAL_ADDRESS *BaseAddress,
                                 _Out_ PHYSICAL_ADDRESS *CpuTranslatedAddress,
                                 _Out_ SIZE_T *Size, _Out_ SIZE_T *CommitLimit);

#pragma alloc_text(PAGE, HeronDdiQueryAdapterInfo)
#pragma alloc_text(PAGE, HeronQueryDriverCaps)
#pragma alloc_text(PAGE, HeronQuerySegment3)
#pragma alloc_text(PAGE, HeronQuerySegment4)
#pragma alloc_text(PAGE, HeronQueryUmdPrivate)
#pragma alloc_text(PAGE, HeronDescribeSegment)

static
NTSTATUS
HeronQueryDriverCaps(
    _In_ const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo
    )
{
    DXGK_DRIVERCAPS *DriverCaps;

    PAGED_CODE();

    if (pQueryAdapterInfo->pOutputData == NULL ||
        pQueryAdapterInfo->OutputDataSize < sizeof(DXGK_DRIVERCAPS)) {
        return STATUS_BUFFER_TOO_SMALL;
    }

    DriverCaps = (DXGK_DRIVERCAPS *)pQueryAdapterInfo->pOutputData;
    RtlZeroMemory(DriverCaps, sizeof(*DriverCaps));

    DriverCaps->HighestAcceptableAddress.QuadPart = (LONGLONG)HERON_HIGHEST_BUS_ADDRESS;
    DriverCaps->MaxAllocationListSlotId = HERON_MAX_SLOT_ID;
    DriverCaps->ApertureSegmentCommitLimit = (SIZE_T)HERON_GART_COMMIT_LIMIT;
    DriverCaps->InterruptMessageNumber = 0;
    DriverCaps->WDDMVersion = DXGKDDI_WDDMv1_3;

    //
    // Contexts (MultiEngineAware, which CancelCommandAware needs) on one
    // engine. The engine switches only between DMA buffers; Heron does
    // not claim PreemptionAware, which needs DxgkDdiPreemptCommand
    // (KIT-FINDINGS.md).
    //
    DriverCaps->SchedulingCaps.MultiEngineAware = 1;
    DriverCaps->SchedulingCaps.PreemptionAware = 0;
    DriverCaps->SchedulingCaps.CancelCommandAware = HeronGlobals.Settings.EnableCancel ? 1 : 0;
    DriverCaps->PreemptionCaps.GraphicsPreemptionGranularity =
        D3DKMDT_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY;
    DriverCaps->PreemptionCaps.ComputePreemptionGranularity =
        D3DKMDT_COMPUTE_PREEMPTION_DMA_BUFFER_BOUNDARY;

    DriverCaps->GpuEngineTopology.NbAsymetricProcessingNodes = 1;
    DriverCaps->SupportNonVGA = TRUE;
    return STATUS_SUCCESS;
}

static
VOID
HeronDescribeSegment(
    _In_ UINT SegmentId,
    _Out_ DXGK_SEGMENTFLAGS *Flags,
    _Out_ PHYSICAL_ADDRESS *BaseAddress,
    _Out_ PHYSICAL_ADDRESS *CpuTranslatedAddress,
    _Out_ SIZE_T *Size,
    _Out_ SIZE_T *CommitLimit
    )
{
    PAGED_CODE();

    Flags->Value = 0;
    CpuTranslatedAddress->QuadPart = 0;

    switch (SegmentId) {
    case HERON_SEGMENT_LOCAL_VISIBLE:
        Flags->CpuVisible = 1;
        BaseAddress->QuadPart = (LONGLONG)HERON_LOCAL_VISIBLE_BASE;
        CpuTranslatedAddress->QuadPart = (LONGLONG)HERON_LOCAL_VISIBLE_CPU_BAR;
        *Size = (SIZE_T)HERON_LOCAL_VISIBLE_SIZE;
        *CommitLimit = (SIZE_T)HERON_LOCAL_VISIBLE_SIZE;
        break;

    case HERON_SEGMENT_LOCAL_HIDDEN:
        BaseAddress->QuadPart = (LONGLONG)HERON_LOCAL_HIDDEN_BASE;
        *Size = (SIZE_T)HERON_LOCAL_HIDDEN_SIZE;
        *CommitLimit = (SIZE_T)HERON_LOCAL_HIDDEN_SIZE;
        break;

    default:
        NT_ASSERT(SegmentId == HERON_SEGMENT_GART);
        Flags->Aperture = 1;
        Flags->CpuVisible = 1;
        Flags->CacheCoherent = 1;
        BaseAddress->QuadPart = (LONGLONG)HERON_GART_BASE;
        *Size = (SIZE_T)HERON_GART_SIZE;
        *CommitLimit = (SIZE_T)HERON_GART_COMMIT_LIMIT;
        break;
    }
}

//
// First call: pSegmentDescriptor NULL, the count only. Second call: that
// many descriptors.
//
static
NTSTATUS
HeronQuerySegment3(
    _In_ const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo
    )
{
    DXGK_QUERYSEGMENTOUT3 *QuerySegmentOut;
    UINT Index;

    PAGED_CODE();

    if (pQueryAdapterInfo->pOutputData == NULL ||
        pQueryAdapterInfo->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT3)) {
        return STATUS_BUFFER_TOO_SMALL;
    }

    QuerySegmentOut = (DXGK_QUERYSEGMENTOUT3 *)pQueryAdapterInfo->pOutputData;
    if (QuerySegmentOut->pSegmentDescriptor == NULL) {
        QuerySegmentOut->NbSegment = HERON_SEGMENT_COUNT;
        return STATUS_SUCCESS;
    }

    if (QuerySegmentOut->NbSegment < HERON_SEGMENT_COUNT) {
        return STATUS_BUFFER_TOO_SMALL;
    }

    for (Index = 0; Index < HERON_SEGMENT_COUNT; Index++) {
        DXGK_SEGMENTDESCRIPTOR3 *Descriptor = &QuerySegmentOut->pSegmentDescriptor[Index];

        RtlZeroMemory(Descriptor, sizeof(*Descriptor));
        HeronDescribeSegment(Index + 1, &Descriptor->Flags, &Descriptor->BaseAddress,
                             &Descriptor->CpuTranslatedAddress, &Descriptor->Size,
                             &Descriptor->CommitLimit);
    }

    QuerySegmentOut->NbSegment = HERON_SEGMENT_COUNT;
    QuerySegmentOut->PagingBufferSegmentId = 0;
    QuerySegmentOut->PagingBufferSize = HeronGlobals.Settings.PagingBufferSize;
    QuerySegmentOut->PagingBufferPrivateDataSize = 0;
    return STATUS_SUCCESS;
}

//
// Descriptor i goes at pSegmentDescriptor + i * SegmentDescriptorStride.
// Heron reports WDDM 1.3, so dxgkrnl asks QUERYSEGMENT3; the answer is
// here for the day it moves on.
//
static
NTSTATUS
HeronQuerySegment4(
    _In_ const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo
    )
{
    DXGK_QUERYSEGMENTOUT4 *QuerySegmentOut;
    UINT Index;

    PAGED_CODE();

    if (pQueryAdapterInfo->pOutputData == NULL ||
        pQueryAdapterInfo->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT4)) {
        return STATUS_BUFFER_TOO_SMALL;
    }

    QuerySegmentOut = (DXGK_QUERYSEGMENTOUT4 *)pQueryAdapterInfo->pOutputData;
    if (QuerySegmentOut->NbSegment == 0) {
        QuerySegmentOut->NbSegment = HERON_SEGMENT_COUNT;
        return STATUS_SUCCESS;
    }

    if (QuerySegmentOut->pSegmentDescriptor == NULL ||
        QuerySegmentOut->SegmentDescriptorStride < sizeof(DXGK_SEGMENTDESCRIPTOR4)) {
        return STATUS_INVALID_PARAMETER;
    }
    if (QuerySegmentOut->NbSegment < HERON_SEGMENT_COUNT) {
        return STATUS_BUFFER_TOO_SMALL;
    }

    for (Index = 0; Index < HERON_SEGMENT_COUNT; Index++) {
        DXGK_SEGMENTDESCRIPTOR4 Descriptor;
        PBYTE Slot = QuerySegmentOut->pSegmentDescriptor +
                     (SIZE_T)Index * QuerySegmentOut->SegmentDescriptorStride;

        RtlZeroMemory(&Descriptor, sizeof(Descriptor));
        HeronDescribeSegment(Index + 1, &Descriptor.Flags, &Descriptor.BaseAddress,
                             &Descriptor.CpuTranslatedAddress, &Descriptor.Size,
                             &Descriptor.CommitLimit);
        RtlZeroMemory(Slot, QuerySegmentOut->SegmentDescriptorStride);
        RtlCopyMemory(Slot, &Descriptor, sizeof(Descriptor));
    }

    QuerySegmentOut->NbSegment = HERON_SEGMENT_COUNT;
    QuerySegmentOut->PagingBufferSegmentId = 0;
    QuerySegmentOut->PagingBufferSize = HeronGlobals.Settings.PagingBufferSize;
    QuerySegmentOut->PagingBufferPrivateDataSize = 0;
    return STATUS_SUCCESS;
}

static
NTSTATUS
HeronQueryUmdPrivate(
    _In_ PHERON_ADAPTER Adapter,
    _In_ const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo
    )
{
    PHERON_UMD_ADAPTER_INFO Info;

    PAGED_CODE();

    if (pQueryAdapterInfo->pOutputData == NULL ||
        pQueryAdapterInfo->OutputDataSize < sizeof(HERON_UMD_ADAPTER_INFO)) {
        return STATUS_BUFFER_TOO_SMALL;
    }

    Info = (PHERON_UMD_ADAPTER_INFO)pQueryAdapterInfo->pOutputData;
    RtlZeroMemory(Info, sizeof(*Info));
    Info->Version = HERON_UMD_INFO_VERSION;
    Info->ChipId = Adapter->Registers != NULL ? HeronReadRegister(Adapter, HERON_REG_CHIP_ID) : 0;
    Info->SegmentCount = HERON_SEGMENT_COUNT;
    Info->DmaBufferSize = HeronGlobals.Settings.DmaBufferSize;
    Info->MaxTransferBytes = HERON_MAX_TRANSFER_BYTES;
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiQueryAdapterInfo(
    IN_CONST_HANDLE hAdapter,
    IN_CONST_PDXGKARG_QUERYADAPTERINFO pQueryAdapterInfo
    )
{
    PHERON_ADAPTER Adapter = HeronAdapterFromHandle(hAdapter);

    PAGED_CODE();

    if (Adapter == NULL || pQueryAdapterInfo == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    switch (pQueryAdapterInfo->Type) {
    case DXGKQAITYPE_DRIVERCAPS:
        return HeronQueryDriverCaps(pQueryAdapterInfo);

    case DXGKQAITYPE_QUERYSEGMENT3:
        return HeronQuerySegment3(pQueryAdapterInfo);

    case DXGKQAITYPE_QUERYSEGMENT4:
        return HeronQuerySegment4(pQueryAdapterInfo);

    case DXGKQAITYPE_UMDRIVERPRIVATE:
        return HeronQueryUmdPrivate(Adapter, pQueryAdapterInfo);

    default:
        return STATUS_NOT_SUPPORTED;
    }
}
