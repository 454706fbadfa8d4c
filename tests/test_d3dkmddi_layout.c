/* SPDX-License-Identifier: MIT */
/*
 * test_d3dkmddi_layout.c - pins wddmkit/d3dkmddi.h to the Windows x64 DDI
 * layouts of docs/wddm-facts.md §4.
 *
 * Two layers. At compile time, every struct of facts section 4 has its size
 * and every listed field offset asserted (the paging-buffer union arms at
 * their absolute offsets), so a wrong layout never produces a binary. At run
 * time, cmocka tests set one bit-field at a time in a zeroed flag word and
 * compare the whole word with the documented mask, using each field's maximum
 * value so position and width are both checked; further tests cover enum and
 * NTSTATUS values, NT_SUCCESS, union aliasing that drivers rely on, and the
 * kit's MDL accessors.
 *
 * If an offset fails, the header is wrong: the expected numbers are the facts'
 * and are not to be edited to make a build pass. Offsets the facts do not
 * list (marked "derived" or "kit") follow from the facts' field order and
 * types, or from a layout the kit defines itself.
 *
 * The file is also compiled as C++ (test_d3dkmddi_layout_cxx.cpp includes it),
 * so it avoids designated initializers, compound literals and implicit void*
 * conversions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
/* cmocka 1.1 has no extern "C" of its own; without this the C++ build would
 * look for C++-mangled cmocka symbols. */
#ifdef __cplusplus
extern "C" {
#endif
#include <cmocka.h>
#ifdef __cplusplus
}
#endif

#include <string.h>

#include "wddmkit/d3dkmddi.h"
#include "wddmkit/driver.h" /* the DDI tables (dispmprt.h) */

/* ------------------------------------------------------------------------ */
/* Compile-time layout: sizes and offsets (facts 4)                          */
/* ------------------------------------------------------------------------ */

#define SIZE(T, n) WK_STATIC_ASSERT(sizeof(T) == (n), "sizeof(" #T ") == " #n)
#define OFF(T, m, n) WK_STATIC_ASSERT(offsetof(T, m) == (n), #T "." #m " at " #n)

/* Base types. */
SIZE(LARGE_INTEGER, 8);
OFF(LARGE_INTEGER, LowPart, 0);
OFF(LARGE_INTEGER, HighPart, 4);
OFF(LARGE_INTEGER, u.LowPart, 0);
OFF(LARGE_INTEGER, u.HighPart, 4);
OFF(LARGE_INTEGER, QuadPart, 0);

/* facts 4.1: contexts and devices. */
SIZE(DXGK_CONTEXTINFO, 32);
OFF(DXGK_CONTEXTINFO, DmaBufferSize, 0);
OFF(DXGK_CONTEXTINFO, DmaBufferSegmentSet, 4);
OFF(DXGK_CONTEXTINFO, DmaBufferPrivateDataSize, 8);
OFF(DXGK_CONTEXTINFO, AllocationListSize, 12);
OFF(DXGK_CONTEXTINFO, PatchLocationListSize, 16);
OFF(DXGK_CONTEXTINFO, Reserved, 20);
OFF(DXGK_CONTEXTINFO, Caps, 24);
OFF(DXGK_CONTEXTINFO, PagingCompanionNodeId, 28);

SIZE(DXGKARG_CREATECONTEXT, 72);
OFF(DXGKARG_CREATECONTEXT, hContext, 0);
OFF(DXGKARG_CREATECONTEXT, NodeOrdinal, 8);
OFF(DXGKARG_CREATECONTEXT, EngineAffinity, 12);
OFF(DXGKARG_CREATECONTEXT, Flags, 16);
OFF(DXGKARG_CREATECONTEXT, pPrivateDriverData, 24);
OFF(DXGKARG_CREATECONTEXT, PrivateDriverDataSize, 32);
OFF(DXGKARG_CREATECONTEXT, ContextInfo, 36);

SIZE(DXGK_DEVICEINFO, 24);
OFF(DXGK_DEVICEINFO, DmaBufferSize, 0);
OFF(DXGK_DEVICEINFO, DmaBufferSegmentSet, 4);
OFF(DXGK_DEVICEINFO, DmaBufferPrivateDataSize, 8);
OFF(DXGK_DEVICEINFO, AllocationListSize, 12);
OFF(DXGK_DEVICEINFO, PatchLocationListSize, 16);
OFF(DXGK_DEVICEINFO, Flags, 20);

/* DxgkCbNotifyInterrupt's argument (docs/wddm-gpummu-facts.md 5.5): the
 * union is 8-byte aligned, as the WDK's is, so a fence id sits at 8. */
#define NID DXGKARGCB_NOTIFY_INTERRUPT_DATA
SIZE(NID, 80);
OFF(NID, InterruptType, 0);
OFF(NID, DmaCompleted.SubmissionFenceId, 8);
OFF(NID, DmaFaulted.FaultedFenceId, 8);
OFF(NID, DmaFaulted.Status, 12);
OFF(NID, CrtcVsync.PhysicalAddress, 16);
OFF(NID, DmaPageFaulted.FaultedFenceId, 8);
OFF(NID, DmaPageFaulted.FaultedPrimitiveAPISequenceNumber, 16);
OFF(NID, DmaPageFaulted.FaultedPipelineStage, 24);
OFF(NID, DmaPageFaulted.FaultedBindTableEntry, 28);
OFF(NID, DmaPageFaulted.PageFaultFlags, 32);
OFF(NID, DmaPageFaulted.FaultedVirtualAddress, 40);
OFF(NID, DmaPageFaulted.NodeOrdinal, 48);
OFF(NID, DmaPageFaulted.EngineOrdinal, 52);
OFF(NID, DmaPageFaulted.PageTableLevel, 56);
OFF(NID, DmaPageFaulted.FaultErrorCode, 60);
OFF(NID, DmaPageFaulted.FaultedProcessHandle, 64);
OFF(NID, Flags, 72);
#undef NID

/* facts 4.2: DXGKARG_BUILDPAGINGBUFFER header and tail. */
#define BPB DXGKARG_BUILDPAGINGBUFFER
SIZE(BPB, 320);
OFF(BPB, pDmaBuffer, 0);
OFF(BPB, DmaSize, 8);
OFF(BPB, pDmaBufferPrivateData, 16);
OFF(BPB, DmaBufferPrivateDataSize, 24);
OFF(BPB, Operation, 28);
OFF(BPB, MultipassOffset, 32);
OFF(BPB, Reserved, 40);
OFF(BPB, Reserved.Reserved, 40);
WK_STATIC_ASSERT(sizeof(((BPB *)0)->Reserved) == 256, "payload union is 256 bytes");
OFF(BPB, hSystemContext, 296);
OFF(BPB, DmaBufferGpuVirtualAddress, 304);
OFF(BPB, DmaBufferWriteOffset, 312);

/* Transfer (op 0). */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->Transfer) == 64, "Transfer arm is 64 bytes");
OFF(BPB, Transfer.hAllocation, 40);
OFF(BPB, Transfer.TransferOffset, 48);
OFF(BPB, Transfer.TransferSize, 56);
OFF(BPB, Transfer.Source, 64);
OFF(BPB, Transfer.Source.SegmentId, 64);
OFF(BPB, Transfer.Source.SegmentAddress, 72);
OFF(BPB, Transfer.Source.pMdl, 72);
OFF(BPB, Transfer.Destination, 80);
OFF(BPB, Transfer.Destination.SegmentId, 80);
OFF(BPB, Transfer.Destination.SegmentAddress, 88);
OFF(BPB, Transfer.Destination.pMdl, 88);
OFF(BPB, Transfer.Flags, 96);
OFF(BPB, Transfer.MdlOffset, 100);

/* Fill (op 1). */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->Fill) == 40, "Fill arm is 40 bytes");
OFF(BPB, Fill.hAllocation, 40);
OFF(BPB, Fill.FillSize, 48);
OFF(BPB, Fill.FillPattern, 56);
OFF(BPB, Fill.Destination, 64);
OFF(BPB, Fill.Destination.SegmentId, 64);
OFF(BPB, Fill.Destination.SegmentAddress, 72);

/* DiscardContent (op 2). */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->DiscardContent) == 24, "DiscardContent arm");
OFF(BPB, DiscardContent.hAllocation, 40);
OFF(BPB, DiscardContent.Flags, 48);
OFF(BPB, DiscardContent.SegmentId, 52);
OFF(BPB, DiscardContent.SegmentAddress, 56);

/* ReadPhysical / WritePhysical (ops 3, 4). */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->ReadPhysical) == 16, "ReadPhysical arm");
WK_STATIC_ASSERT(sizeof(((BPB *)0)->WritePhysical) == 16, "WritePhysical arm");
OFF(BPB, ReadPhysical.SegmentId, 40);
OFF(BPB, ReadPhysical.PhysicalAddress, 48);
OFF(BPB, WritePhysical.SegmentId, 40);
OFF(BPB, WritePhysical.PhysicalAddress, 48);

/* MapApertureSegment (op 5). */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->MapApertureSegment) == 56, "Map arm");
OFF(BPB, MapApertureSegment.hDevice, 40);
OFF(BPB, MapApertureSegment.hAllocation, 48);
OFF(BPB, MapApertureSegment.SegmentId, 56);
OFF(BPB, MapApertureSegment.OffsetInPages, 64);
OFF(BPB, MapApertureSegment.NumberOfPages, 72);
OFF(BPB, MapApertureSegment.pMdl, 80);
OFF(BPB, MapApertureSegment.Flags, 88);
OFF(BPB, MapApertureSegment.MdlOffset, 92);

/* UnmapApertureSegment (op 6). */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->UnmapApertureSegment) == 48, "Unmap arm");
OFF(BPB, UnmapApertureSegment.hDevice, 40);
OFF(BPB, UnmapApertureSegment.hAllocation, 48);
OFF(BPB, UnmapApertureSegment.SegmentId, 56);
OFF(BPB, UnmapApertureSegment.OffsetInPages, 64);
OFF(BPB, UnmapApertureSegment.NumberOfPages, 72);
OFF(BPB, UnmapApertureSegment.DummyPage, 80);

/* SpecialLockTransfer (op 7). */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->SpecialLockTransfer) == 72, "SLT arm");
OFF(BPB, SpecialLockTransfer.hAllocation, 40);
OFF(BPB, SpecialLockTransfer.TransferOffset, 48);
OFF(BPB, SpecialLockTransfer.TransferSize, 56);
OFF(BPB, SpecialLockTransfer.Source.SegmentId, 64);
OFF(BPB, SpecialLockTransfer.Source.SegmentAddress, 72);
OFF(BPB, SpecialLockTransfer.Source.pMdl, 72);
OFF(BPB, SpecialLockTransfer.Destination.SegmentId, 80);
OFF(BPB, SpecialLockTransfer.Destination.SegmentAddress, 88);
OFF(BPB, SpecialLockTransfer.Destination.pMdl, 88);
OFF(BPB, SpecialLockTransfer.Flags, 96);
OFF(BPB, SpecialLockTransfer.SwizzlingRangeId, 100);
OFF(BPB, SpecialLockTransfer.SwizzlingRangeData, 104);

/* InitContextResource (op 10). */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->InitContextResource) == 40, "ICR arm");
OFF(BPB, InitContextResource.hAllocation, 40);
OFF(BPB, InitContextResource.Destination, 48);
OFF(BPB, InitContextResource.Destination.SegmentId, 48);
OFF(BPB, InitContextResource.Destination.SegmentAddress, 56);
OFF(BPB, InitContextResource.Destination.pMdl, 56);
OFF(BPB, InitContextResource.Destination.VirtualAddress, 64);
OFF(BPB, InitContextResource.Destination.GpuVirtualAddress, 72);

/* TransferVirtual (op 8): size from the facts, offsets derived from its field list. */
SIZE(DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL, 64);
OFF(BPB, TransferVirtual.hAllocation, 40);
OFF(BPB, TransferVirtual.AllocationOffsetInBytes, 48);
OFF(BPB, TransferVirtual.TransferSizeInBytes, 56);
OFF(BPB, TransferVirtual.SourceVirtualAddress, 64);
OFF(BPB, TransferVirtual.DestinationVirtualAddress, 72);
OFF(BPB, TransferVirtual.SourcePageTable, 80);
OFF(BPB, TransferVirtual.TransferDirection, 88);
OFF(BPB, TransferVirtual.Flags, 92);
OFF(BPB, TransferVirtual.DestinationPageTable, 96);

/* FillVirtual (op 9): size from the facts, offsets derived. */
SIZE(DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL, 40);
OFF(BPB, FillVirtual.hAllocation, 40);
OFF(BPB, FillVirtual.AllocationOffsetInBytes, 48);
OFF(BPB, FillVirtual.FillSizeInBytes, 56);
OFF(BPB, FillVirtual.FillPattern, 64);
OFF(BPB, FillVirtual.DestinationVirtualAddress, 72);

/* UpdatePageTable (op 11): relative offsets from the facts, then absolute. */
#define UPT DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE
SIZE(UPT, 104);
OFF(UPT, PageTableLevel, 0);
OFF(UPT, hAllocation, 8);
OFF(UPT, PageTableAddress, 16);
OFF(UPT, pPageTableEntries, 32);
OFF(UPT, StartIndex, 40);
OFF(UPT, NumPageTableEntries, 44);
OFF(UPT, Reserved0, 48);
OFF(UPT, Flags, 52);
OFF(UPT, DriverProtection, 56);
OFF(UPT, AllocationOffsetInBytes, 64);
OFF(UPT, hProcess, 72);
OFF(UPT, UpdateMode, 80);
OFF(UPT, pPageTableEntries64KB, 88);
OFF(UPT, FirstPteVirtualAddress, 96);
OFF(BPB, UpdatePageTable.PageTableLevel, 40);
OFF(BPB, UpdatePageTable.hAllocation, 48);
OFF(BPB, UpdatePageTable.PageTableAddress, 56);
OFF(BPB, UpdatePageTable.pPageTableEntries, 72);
OFF(BPB, UpdatePageTable.StartIndex, 80);
OFF(BPB, UpdatePageTable.NumPageTableEntries, 84);
OFF(BPB, UpdatePageTable.Reserved0, 88);
OFF(BPB, UpdatePageTable.Flags, 92);
OFF(BPB, UpdatePageTable.DriverProtection, 96);
OFF(BPB, UpdatePageTable.AllocationOffsetInBytes, 104);
OFF(BPB, UpdatePageTable.hProcess, 112);
OFF(BPB, UpdatePageTable.UpdateMode, 120);
OFF(BPB, UpdatePageTable.pPageTableEntries64KB, 128);
OFF(BPB, UpdatePageTable.FirstPteVirtualAddress, 136);

/* FlushTlb (op 12). */
SIZE(DXGK_BUILDPAGINGBUFFER_FLUSHTLB, 40);
OFF(BPB, FlushTlb.RootPageTableAddress, 40);
OFF(BPB, FlushTlb.RootPageTableAddress.SegmentOffset, 48);
OFF(BPB, FlushTlb.hProcess, 56);
OFF(BPB, FlushTlb.StartVirtualAddress, 64);
OFF(BPB, FlushTlb.EndVirtualAddress, 72);

/* UpdateContextAllocation (op 13). */
SIZE(DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION, 32);
OFF(BPB, UpdateContextAllocation.ContextAllocation, 40);
OFF(BPB, UpdateContextAllocation.ContextAllocationSize, 48);
OFF(BPB, UpdateContextAllocation.pDriverPrivateData, 56);
OFF(BPB, UpdateContextAllocation.DriverPrivateDataSize, 64);

/* CopyPageTableEntries (op 14) and its range record; offsets derived. */
SIZE(DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES, 16);
OFF(BPB, CopyPageTableEntries.NumRanges, 40);
OFF(BPB, CopyPageTableEntries.pRanges, 48);
SIZE(DXGK_BUILDPAGINGBUFFER_COPY_RANGE, 32);
OFF(DXGK_BUILDPAGINGBUFFER_COPY_RANGE, NumPageTableEntries, 0);
OFF(DXGK_BUILDPAGINGBUFFER_COPY_RANGE, SrcPageTableAddress, 8);
OFF(DXGK_BUILDPAGINGBUFFER_COPY_RANGE, DstPageTableAddress, 16);
OFF(DXGK_BUILDPAGINGBUFFER_COPY_RANGE, SrcStartPteIndex, 24);
OFF(DXGK_BUILDPAGINGBUFFER_COPY_RANGE, DstStartPteIndex, 28);

/* NotifyResidency (op 15); the bit-field union at 64 is checked at run time. */
SIZE(DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY, 32);
OFF(BPB, NotifyResidency.hAllocation, 40);
OFF(BPB, NotifyResidency.PhysicalAddress, 48);

/* SignalMonitoredFence (op 16). */
SIZE(DXGK_BUILDPAGINGBUFFER_SIGNALMONITOREDFENCE, 16);
OFF(BPB, SignalMonitoredFence.MonitoredFenceGpuVa, 40);
OFF(BPB, SignalMonitoredFence.MonitoredFenceValue, 48);

/* MapApertureSegment2 (op 17): kit offsets from the docs' member order. */
WK_STATIC_ASSERT(sizeof(((BPB *)0)->MapApertureSegment2) == 72, "Map2 arm (kit)");
OFF(BPB, MapApertureSegment2.hDevice, 40);
OFF(BPB, MapApertureSegment2.hAllocation, 48);
OFF(BPB, MapApertureSegment2.SegmentId, 56);
OFF(BPB, MapApertureSegment2.OffsetInPages, 64);
OFF(BPB, MapApertureSegment2.NumberOfPages, 72);
OFF(BPB, MapApertureSegment2.Adl, 80);
OFF(BPB, MapApertureSegment2.Adl.PageCount, 80);
OFF(BPB, MapApertureSegment2.Adl.Flags, 84);
OFF(BPB, MapApertureSegment2.Adl.BasePageNumber, 88);
OFF(BPB, MapApertureSegment2.Adl.Pages, 88);
OFF(BPB, MapApertureSegment2.Flags, 96);
OFF(BPB, MapApertureSegment2.AdlOffset, 100);
OFF(BPB, MapApertureSegment2.CpuVisibleAddress, 104);

/* facts 4.2 helper types. */
SIZE(D3DGPU_PHYSICAL_ADDRESS, 16);
OFF(D3DGPU_PHYSICAL_ADDRESS, SegmentId, 0);
OFF(D3DGPU_PHYSICAL_ADDRESS, SegmentOffset, 8);
SIZE(DXGK_PAGETABLEUPDATEADDRESS, 16);
OFF(DXGK_PAGETABLEUPDATEADDRESS, CpuVirtual, 0);
OFF(DXGK_PAGETABLEUPDATEADDRESS, GpuPhysical, 0);
OFF(DXGK_PAGETABLEUPDATEADDRESS, GpuVirtual, 0);
SIZE(DXGK_PTE, 16);
OFF(DXGK_PTE, Flags, 0);
OFF(DXGK_PTE, PageAddress, 8);
OFF(DXGK_PTE, PageTableAddress, 8);
SIZE(DXGK_ADL, 16);
OFF(DXGK_ADL, PageCount, 0);
OFF(DXGK_ADL, Flags, 4);
OFF(DXGK_ADL, BasePageNumber, 8);
OFF(DXGK_ADL, Pages, 8);

/* facts 4.3: DXGKARG_RENDER. */
SIZE(DXGKARG_RENDER, 112);
OFF(DXGKARG_RENDER, pCommand, 0);
OFF(DXGKARG_RENDER, CommandLength, 8);
OFF(DXGKARG_RENDER, pDmaBuffer, 16);
OFF(DXGKARG_RENDER, DmaSize, 24);
OFF(DXGKARG_RENDER, pDmaBufferPrivateData, 32);
OFF(DXGKARG_RENDER, DmaBufferPrivateDataSize, 40);
OFF(DXGKARG_RENDER, pAllocationList, 48);
OFF(DXGKARG_RENDER, AllocationListSize, 56);
OFF(DXGKARG_RENDER, pPatchLocationListIn, 64);
OFF(DXGKARG_RENDER, PatchLocationListInSize, 72);
OFF(DXGKARG_RENDER, pPatchLocationListOut, 80);
OFF(DXGKARG_RENDER, PatchLocationListOutSize, 88);
OFF(DXGKARG_RENDER, MultipassOffset, 92);
OFF(DXGKARG_RENDER, DmaBufferSegmentId, 96);
OFF(DXGKARG_RENDER, DmaBufferPhysicalAddress, 104);

/* facts 4.4: DXGKARG_PATCH. */
SIZE(DXGKARG_PATCH, 120);
OFF(DXGKARG_PATCH, hDevice, 0);
OFF(DXGKARG_PATCH, hContext, 0);
OFF(DXGKARG_PATCH, DmaBufferSegmentId, 8);
OFF(DXGKARG_PATCH, DmaBufferPhysicalAddress, 16);
OFF(DXGKARG_PATCH, pDmaBuffer, 24);
OFF(DXGKARG_PATCH, DmaBufferSize, 32);
OFF(DXGKARG_PATCH, DmaBufferSubmissionStartOffset, 36);
OFF(DXGKARG_PATCH, DmaBufferSubmissionEndOffset, 40);
OFF(DXGKARG_PATCH, pDmaBufferPrivateData, 48);
OFF(DXGKARG_PATCH, DmaBufferPrivateDataSize, 56);
OFF(DXGKARG_PATCH, DmaBufferPrivateDataSubmissionStartOffset, 60);
OFF(DXGKARG_PATCH, DmaBufferPrivateDataSubmissionEndOffset, 64);
OFF(DXGKARG_PATCH, pAllocationList, 72);
OFF(DXGKARG_PATCH, AllocationListSize, 80);
OFF(DXGKARG_PATCH, pPatchLocationList, 88);
OFF(DXGKARG_PATCH, PatchLocationListSize, 96);
OFF(DXGKARG_PATCH, PatchLocationListSubmissionStart, 100);
OFF(DXGKARG_PATCH, PatchLocationListSubmissionLength, 104);
OFF(DXGKARG_PATCH, SubmissionFenceId, 108);
OFF(DXGKARG_PATCH, Flags, 112);
OFF(DXGKARG_PATCH, EngineOrdinal, 116);

/* facts 4.5: DXGKARG_SUBMITCOMMAND. */
SIZE(DXGKARG_SUBMITCOMMAND, 96);
OFF(DXGKARG_SUBMITCOMMAND, hDevice, 0);
OFF(DXGKARG_SUBMITCOMMAND, hContext, 0);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferSegmentId, 8);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferPhysicalAddress, 16);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferSize, 24);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferSubmissionStartOffset, 28);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferSubmissionEndOffset, 32);
OFF(DXGKARG_SUBMITCOMMAND, pDmaBufferPrivateData, 40);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferPrivateDataSize, 48);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferPrivateDataSubmissionStartOffset, 52);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferPrivateDataSubmissionEndOffset, 56);
OFF(DXGKARG_SUBMITCOMMAND, SubmissionFenceId, 60);
OFF(DXGKARG_SUBMITCOMMAND, VidPnSourceId, 64);
OFF(DXGKARG_SUBMITCOMMAND, FlipInterval, 68);
OFF(DXGKARG_SUBMITCOMMAND, Flags, 72);
OFF(DXGKARG_SUBMITCOMMAND, EngineOrdinal, 76);
OFF(DXGKARG_SUBMITCOMMAND, DmaBufferVirtualAddress, 80);
OFF(DXGKARG_SUBMITCOMMAND, NodeOrdinal, 88);

/* facts 4.6: DXGKARG_CANCELCOMMAND. */
SIZE(DXGKARG_CANCELCOMMAND, 112);
OFF(DXGKARG_CANCELCOMMAND, hContext, 0);
OFF(DXGKARG_CANCELCOMMAND, pDmaBuffer, 8);
OFF(DXGKARG_CANCELCOMMAND, DmaBufferSize, 16);
OFF(DXGKARG_CANCELCOMMAND, DmaBufferSubmissionStartOffset, 20);
OFF(DXGKARG_CANCELCOMMAND, DmaBufferSubmissionEndOffset, 24);
OFF(DXGKARG_CANCELCOMMAND, pDmaBufferPrivateData, 32);
OFF(DXGKARG_CANCELCOMMAND, DmaBufferPrivateDataSize, 40);
OFF(DXGKARG_CANCELCOMMAND, DmaBufferPrivateDataSubmissionStartOffset, 44);
OFF(DXGKARG_CANCELCOMMAND, DmaBufferPrivateDataSubmissionEndOffset, 48);
OFF(DXGKARG_CANCELCOMMAND, pAllocationList, 56);
OFF(DXGKARG_CANCELCOMMAND, AllocationListSize, 64);
OFF(DXGKARG_CANCELCOMMAND, pPatchLocationList, 72);
OFF(DXGKARG_CANCELCOMMAND, PatchLocationListSize, 80);
OFF(DXGKARG_CANCELCOMMAND, PatchLocationListSubmissionStart, 84);
OFF(DXGKARG_CANCELCOMMAND, PatchLocationListSubmissionLength, 88);
OFF(DXGKARG_CANCELCOMMAND, DmaBufferVirtualAddress, 96);
OFF(DXGKARG_CANCELCOMMAND, DmaBufferUmdPrivateDataSize, 104);

/* facts 4.7: list entries; packed words are checked at run time. */
SIZE(DXGK_ALLOCATIONLIST, 24);
OFF(DXGK_ALLOCATIONLIST, hDeviceSpecificAllocation, 0);
OFF(DXGK_ALLOCATIONLIST, PhysicalAddress, 16);
OFF(DXGK_ALLOCATIONLIST, VirtualAddress, 16);

SIZE(D3DDDI_PATCHLOCATIONLIST, 24);
OFF(D3DDDI_PATCHLOCATIONLIST, AllocationIndex, 0);
OFF(D3DDDI_PATCHLOCATIONLIST, Value, 4);
OFF(D3DDDI_PATCHLOCATIONLIST, DriverId, 8);
OFF(D3DDDI_PATCHLOCATIONLIST, AllocationOffset, 12);
OFF(D3DDDI_PATCHLOCATIONLIST, PatchOffset, 16);
OFF(D3DDDI_PATCHLOCATIONLIST, SplitOffset, 20);

SIZE(D3DDDI_ALLOCATIONLIST, 8);
OFF(D3DDDI_ALLOCATIONLIST, hAllocation, 0);
OFF(D3DDDI_ALLOCATIONLIST, Value, 4);

/* facts 4.8: segments and the query containers. */
SIZE(DXGK_SEGMENTDESCRIPTOR, 56);
OFF(DXGK_SEGMENTDESCRIPTOR, BaseAddress, 0);
OFF(DXGK_SEGMENTDESCRIPTOR, CpuTranslatedAddress, 8);
OFF(DXGK_SEGMENTDESCRIPTOR, Size, 16);
OFF(DXGK_SEGMENTDESCRIPTOR, NbOfBanks, 24);
OFF(DXGK_SEGMENTDESCRIPTOR, pBankRangeTable, 32);
OFF(DXGK_SEGMENTDESCRIPTOR, CommitLimit, 40);
OFF(DXGK_SEGMENTDESCRIPTOR, Flags, 48);

SIZE(DXGK_SEGMENTDESCRIPTOR3, 72);
OFF(DXGK_SEGMENTDESCRIPTOR3, Flags, 0);
OFF(DXGK_SEGMENTDESCRIPTOR3, BaseAddress, 8);
OFF(DXGK_SEGMENTDESCRIPTOR3, CpuTranslatedAddress, 16);
OFF(DXGK_SEGMENTDESCRIPTOR3, Size, 24);
OFF(DXGK_SEGMENTDESCRIPTOR3, NbOfBanks, 32);
OFF(DXGK_SEGMENTDESCRIPTOR3, pBankRangeTable, 40);
OFF(DXGK_SEGMENTDESCRIPTOR3, CommitLimit, 48);
OFF(DXGK_SEGMENTDESCRIPTOR3, SystemMemoryEndAddress, 56);
OFF(DXGK_SEGMENTDESCRIPTOR3, Reserved, 64);

SIZE(DXGK_CPUHOSTAPERTURE, 16);
OFF(DXGK_CPUHOSTAPERTURE, PhysicalAddress, 0);
OFF(DXGK_CPUHOSTAPERTURE, SizeInPages, 8);

SIZE(DXGK_SEGMENTDESCRIPTOR4, 96);
OFF(DXGK_SEGMENTDESCRIPTOR4, Flags, 0);
OFF(DXGK_SEGMENTDESCRIPTOR4, BaseAddress, 8);
OFF(DXGK_SEGMENTDESCRIPTOR4, Size, 16);
OFF(DXGK_SEGMENTDESCRIPTOR4, CommitLimit, 24);
OFF(DXGK_SEGMENTDESCRIPTOR4, SystemMemoryEndAddress, 32);
OFF(DXGK_SEGMENTDESCRIPTOR4, CpuTranslatedAddress, 40);
OFF(DXGK_SEGMENTDESCRIPTOR4, CpuHostAperture, 40);
OFF(DXGK_SEGMENTDESCRIPTOR4, CpuHostAperture.SizeInPages, 48);
OFF(DXGK_SEGMENTDESCRIPTOR4, NumInvalidMemoryRanges, 56);
OFF(DXGK_SEGMENTDESCRIPTOR4, VprRangeStartOffset, 64);
OFF(DXGK_SEGMENTDESCRIPTOR4, VprRangeSize, 72);
OFF(DXGK_SEGMENTDESCRIPTOR4, VprAlignment, 80);
OFF(DXGK_SEGMENTDESCRIPTOR4, NumVprSupported, 84);
OFF(DXGK_SEGMENTDESCRIPTOR4, VprReserveSize, 88);
OFF(DXGK_SEGMENTDESCRIPTOR4, NumUEFIFrameBufferRanges, 92);

SIZE(DXGK_QUERYSEGMENTIN, 24);
OFF(DXGK_QUERYSEGMENTIN, AgpApertureBase, 0);
OFF(DXGK_QUERYSEGMENTIN, AgpApertureSize, 8);
OFF(DXGK_QUERYSEGMENTIN, AgpFlags, 16);

SIZE(DXGK_QUERYSEGMENTOUT, 32);
OFF(DXGK_QUERYSEGMENTOUT, NbSegment, 0);
OFF(DXGK_QUERYSEGMENTOUT, pSegmentDescriptor, 8);
OFF(DXGK_QUERYSEGMENTOUT, PagingBufferSegmentId, 16);
OFF(DXGK_QUERYSEGMENTOUT, PagingBufferSize, 20);
OFF(DXGK_QUERYSEGMENTOUT, PagingBufferPrivateDataSize, 24);

SIZE(DXGK_QUERYSEGMENTOUT3, 32);
OFF(DXGK_QUERYSEGMENTOUT3, NbSegment, 0);
OFF(DXGK_QUERYSEGMENTOUT3, pSegmentDescriptor, 8);
OFF(DXGK_QUERYSEGMENTOUT3, PagingBufferSegmentId, 16);
OFF(DXGK_QUERYSEGMENTOUT3, PagingBufferSize, 20);
OFF(DXGK_QUERYSEGMENTOUT3, PagingBufferPrivateDataSize, 24);

SIZE(DXGK_QUERYSEGMENTOUT4, 40);
OFF(DXGK_QUERYSEGMENTOUT4, NbSegment, 0);
OFF(DXGK_QUERYSEGMENTOUT4, pSegmentDescriptor, 8);
OFF(DXGK_QUERYSEGMENTOUT4, PagingBufferSegmentId, 16);
OFF(DXGK_QUERYSEGMENTOUT4, PagingBufferSize, 20);
OFF(DXGK_QUERYSEGMENTOUT4, PagingBufferPrivateDataSize, 24);
OFF(DXGK_QUERYSEGMENTOUT4, SegmentDescriptorStride, 32);

SIZE(DXGK_QUERYSEGMENTIN4, 4);
OFF(DXGK_QUERYSEGMENTIN4, PhysicalAdapterIndex, 0);

/* facts 4.9: DXGK_ALLOCATIONINFO. */
SIZE(DXGK_ALLOCATIONINFO, 88);
OFF(DXGK_ALLOCATIONINFO, pPrivateDriverData, 0);
OFF(DXGK_ALLOCATIONINFO, PrivateDriverDataSize, 8);
OFF(DXGK_ALLOCATIONINFO, Alignment, 12);
OFF(DXGK_ALLOCATIONINFO, Size, 16);
OFF(DXGK_ALLOCATIONINFO, PitchAlignedSize, 24);
OFF(DXGK_ALLOCATIONINFO, HintedBank, 32);
OFF(DXGK_ALLOCATIONINFO, PreferredSegment, 36);
OFF(DXGK_ALLOCATIONINFO, SupportedReadSegmentSet, 40);
OFF(DXGK_ALLOCATIONINFO, SupportedWriteSegmentSet, 44);
OFF(DXGK_ALLOCATIONINFO, EvictionSegmentSet, 48);
OFF(DXGK_ALLOCATIONINFO, MaximumRenamingListLength, 52);
OFF(DXGK_ALLOCATIONINFO, PhysicalAdapterIndex, 52);
OFF(DXGK_ALLOCATIONINFO, hAllocation, 56);
OFF(DXGK_ALLOCATIONINFO, Flags, 64);
OFF(DXGK_ALLOCATIONINFO, FlagsWddm2, 64);
OFF(DXGK_ALLOCATIONINFO, pAllocationUsageHint, 72);
OFF(DXGK_ALLOCATIONINFO, AllocationPriority, 80);

/* Create/DestroyAllocation minimal shapes (not in the facts; kit-computed). */
SIZE(DXGKARG_CREATEALLOCATION, 40);
OFF(DXGKARG_CREATEALLOCATION, pPrivateDriverData, 0);
OFF(DXGKARG_CREATEALLOCATION, PrivateDriverDataSize, 8);
OFF(DXGKARG_CREATEALLOCATION, NumAllocations, 12);
OFF(DXGKARG_CREATEALLOCATION, pAllocationInfo, 16);
OFF(DXGKARG_CREATEALLOCATION, hResource, 24);
OFF(DXGKARG_CREATEALLOCATION, Flags, 32);
SIZE(DXGKARG_DESTROYALLOCATION, 32);
OFF(DXGKARG_DESTROYALLOCATION, NumAllocations, 0);
OFF(DXGKARG_DESTROYALLOCATION, pAllocationList, 8);
OFF(DXGKARG_DESTROYALLOCATION, hResource, 16);
OFF(DXGKARG_DESTROYALLOCATION, Flags, 24);

/* facts 4.10: context-allocation callbacks. */
SIZE(DXGKARGCB_CREATECONTEXTALLOCATION, 88);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, ContextAllocationFlags, 0);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, hAdapter, 8);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, hDevice, 16);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, hContext, 24);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, hDriverAllocation, 32);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, Size, 40);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, Alignment, 48);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, SupportedSegmentSet, 52);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, EvictionSegmentSet, 56);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, PreferredSegment, 60);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, HintedBank, 64);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, Flags, 68);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, hAllocation, 72);
OFF(DXGKARGCB_CREATECONTEXTALLOCATION, PhysicalAdapterIndex, 80);

/* MapContextAllocation: size from the facts, offsets derived from its field list. */
SIZE(DXGKARGCB_MAPCONTEXTALLOCATION, 64);
OFF(DXGKARGCB_MAPCONTEXTALLOCATION, BaseAddress, 0);
OFF(DXGKARGCB_MAPCONTEXTALLOCATION, MinimumAddress, 8);
OFF(DXGKARGCB_MAPCONTEXTALLOCATION, MaximumAddress, 16);
OFF(DXGKARGCB_MAPCONTEXTALLOCATION, hAllocation, 24);
OFF(DXGKARGCB_MAPCONTEXTALLOCATION, OffsetInPages, 32);
OFF(DXGKARGCB_MAPCONTEXTALLOCATION, SizeInPages, 40);
OFF(DXGKARGCB_MAPCONTEXTALLOCATION, Protection, 48);
OFF(DXGKARGCB_MAPCONTEXTALLOCATION, DriverProtection, 56);

SIZE(DXGKARGCB_UPDATECONTEXTALLOCATION, 24);
OFF(DXGKARGCB_UPDATECONTEXTALLOCATION, hAllocation, 0);
OFF(DXGKARGCB_UPDATECONTEXTALLOCATION, pPrivateDriverData, 8);
OFF(DXGKARGCB_UPDATECONTEXTALLOCATION, PrivateDriverDataSize, 16);

/* docs/wddm-ddi-tables.md section 3: DXGK_DRIVERCAPS whole at WDDM 2.3. */
OFF(DXGK_DRIVERCAPS, HighestAcceptableAddress, 0x000);
OFF(DXGK_DRIVERCAPS, MaxAllocationListSlotId, 0x008);
OFF(DXGK_DRIVERCAPS, ApertureSegmentCommitLimit, 0x010);
OFF(DXGK_DRIVERCAPS, MaxPointerWidth, 0x018);
OFF(DXGK_DRIVERCAPS, MaxPointerHeight, 0x01C);
OFF(DXGK_DRIVERCAPS, PointerCaps, 0x020);
OFF(DXGK_DRIVERCAPS, InterruptMessageNumber, 0x024);
OFF(DXGK_DRIVERCAPS, NumberOfSwizzlingRanges, 0x028);
OFF(DXGK_DRIVERCAPS, MaxOverlays, 0x02C);
OFF(DXGK_DRIVERCAPS, GammaRampCaps, 0x030);
OFF(DXGK_DRIVERCAPS, ColorTransformCaps, 0x030);
OFF(DXGK_DRIVERCAPS, PresentationCaps, 0x034);
OFF(DXGK_DRIVERCAPS, MaxQueuedFlipOnVSync, 0x038);
OFF(DXGK_DRIVERCAPS, FlipCaps, 0x03C);
OFF(DXGK_DRIVERCAPS, SchedulingCaps, 0x040);
OFF(DXGK_DRIVERCAPS, MemoryManagementCaps, 0x044);
OFF(DXGK_DRIVERCAPS, GpuEngineTopology, 0x04C);
OFF(DXGK_DRIVERCAPS, WDDMVersion, 0x150);
OFF(DXGK_DRIVERCAPS, Reserved, 0x154);
OFF(DXGK_DRIVERCAPS, Reserved1, 0x170);
OFF(DXGK_DRIVERCAPS, PreemptionCaps, 0x210);
OFF(DXGK_DRIVERCAPS, SupportNonVGA, 0x218);
OFF(DXGK_DRIVERCAPS, SupportSmoothRotation, 0x219);
OFF(DXGK_DRIVERCAPS, SupportPerEngineTDR, 0x21A);
OFF(DXGK_DRIVERCAPS, SupportDirectFlip, 0x21B);
OFF(DXGK_DRIVERCAPS, SupportMultiPlaneOverlay, 0x21C);
OFF(DXGK_DRIVERCAPS, SupportRuntimePowerManagement, 0x21D);
OFF(DXGK_DRIVERCAPS, SupportSurpriseRemovalInHibernation, 0x21E);
OFF(DXGK_DRIVERCAPS, HybridDiscrete, 0x21F);
OFF(DXGK_DRIVERCAPS, MaxOverlayPlanes, 0x220);
OFF(DXGK_DRIVERCAPS, HybridIntegrated, 0x224);
OFF(DXGK_DRIVERCAPS, InternalGpuVirtualAddressRangeStart, 0x228);
OFF(DXGK_DRIVERCAPS, InternalGpuVirtualAddressRangeEnd, 0x230);
OFF(DXGK_DRIVERCAPS, SupportSurpriseRemoval, 0x238);
OFF(DXGK_DRIVERCAPS, SupportMultiPlaneOverlayImmediateFlip, 0x239);
OFF(DXGK_DRIVERCAPS, CursorScaledWithMultiPlaneOverlayPlane0, 0x23A);
OFF(DXGK_DRIVERCAPS, HybridAcpiChainingRequired, 0x23B);
OFF(DXGK_DRIVERCAPS, MaxQueuedMultiPlaneOverlayFlipVSync, 0x23C);
SIZE(DXGK_DRIVERCAPS, 0x240);
SIZE(DXGK_GPUENGINETOPOLOGY, 0x104);
/* docs/wddm-ddi-tables.md section 3b: the PHYSICALADAPTERCAPS answer (WDDM 2.0, 2.7). */
OFF(DXGK_PHYSICALADAPTERCAPS, NumExecutionNodes, 0x00);
OFF(DXGK_PHYSICALADAPTERCAPS, PagingNodeIndex, 0x02);
OFF(DXGK_PHYSICALADAPTERCAPS, DxgkPhysicalAdapterHandle, 0x08);
OFF(DXGK_PHYSICALADAPTERCAPS, Flags, 0x10);
OFF(DXGK_PHYSICALADAPTERCAPS, VPRPagingNode, 0x14);
OFF(DXGK_PHYSICALADAPTERCAPS, VirtualCopyNodeIndex, 0x18);
SIZE(DXGK_PHYSICALADAPTERCAPS, 0x20);
SIZE(DXGK_PHYSICALADAPTERFLAGS, 4);
/* docs/wddm-gpummu-facts.md sections 1 to 3: the GpuMmu model's caps, levels and DDI arguments. */
OFF(DXGK_GPUMMUCAPS, PageTableUpdateMode, 0x04);
OFF(DXGK_GPUMMUCAPS, VirtualAddressBitCount, 0x08);
OFF(DXGK_GPUMMUCAPS, LeafPageTableSizeFor64KPagesInBytes, 0x0C);
OFF(DXGK_GPUMMUCAPS, PageTableLevelCount, 0x10);
OFF(DXGK_GPUMMUCAPS, LegacyBehaviors, 0x14);
SIZE(DXGK_GPUMMUCAPS, 0x18);
SIZE(DXGK_QUERYGPUMMUCAPSIN, 4);
OFF(DXGK_QUERYPAGETABLELEVELDESCIN, PhysicalAdapterIndex, 2);
SIZE(DXGK_QUERYPAGETABLELEVELDESCIN, 4);
OFF(DXGK_PAGE_TABLE_LEVEL_DESC, PageTableSegmentId, 4);
OFF(DXGK_PAGE_TABLE_LEVEL_DESC, PagingProcessPageTableSegmentId, 8);
OFF(DXGK_PAGE_TABLE_LEVEL_DESC, PageTableSizeInBytes, 12);
OFF(DXGK_PAGE_TABLE_LEVEL_DESC, PageTableAlignmentInBytes, 16);
SIZE(DXGK_PAGE_TABLE_LEVEL_DESC, 20);
OFF(DXGKARG_CREATEPROCESS, hKmdProcess, 0x08);
OFF(DXGKARG_CREATEPROCESS, Flags, 0x10);
OFF(DXGKARG_CREATEPROCESS, NumPasid, 0x14);
OFF(DXGKARG_CREATEPROCESS, pPasid, 0x18);
OFF(DXGKARG_CREATEPROCESS, hKmdVmWorkerProcess, 0x20);
OFF(DXGKARG_CREATEPROCESS, ProcessNameLength, 0x28);
OFF(DXGKARG_CREATEPROCESS, pProcessName, 0x30);
SIZE(DXGKARG_CREATEPROCESS, 0x38);
SIZE(DXGKARG_GETROOTPAGETABLESIZE, 8);
OFF(DXGKARG_SETROOTPAGETABLE, Address, 0x08);
OFF(DXGKARG_SETROOTPAGETABLE, NumEntries, 0x18);
SIZE(DXGKARG_SETROOTPAGETABLE, 0x20);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, DmaBufferVirtualAddress, 0x08);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, DmaBufferSize, 0x10);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, pDmaBufferPrivateData, 0x18);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, DmaBufferPrivateDataSize, 0x20);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, DmaBufferUmdPrivateDataSize, 0x24);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, SubmissionFenceId, 0x28);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, VidPnSourceId, 0x2C);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, FlipInterval, 0x30);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, Flags, 0x34);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, EngineOrdinal, 0x38);
OFF(DXGKARG_SUBMITCOMMANDVIRTUAL, NodeOrdinal, 0x3C);
SIZE(DXGKARG_SUBMITCOMMANDVIRTUAL, 0x40);
SIZE(D3DKMDT_PREEMPTION_CAPS, 8);
SIZE(DXGK_PRESENTATIONCAPS, 4);
SIZE(DXGK_FLIPCAPS, 4);
SIZE(DXGK_POINTERFLAGS, 4);

/* docs/wddm-ddi-tables.md section 1: DRIVER_INITIALIZATION_DATA whole at WDDM 2.3. */
OFF(DRIVER_INITIALIZATION_DATA, Version, 0x000);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiAddDevice, 0x008);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiStartDevice, 0x010);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiStopDevice, 0x018);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRemoveDevice, 0x020);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDispatchIoRequest, 0x028);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiInterruptRoutine, 0x030);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDpcRoutine, 0x038);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryChildRelations, 0x040);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryChildStatus, 0x048);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryDeviceDescriptor, 0x050);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerState, 0x058);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiNotifyAcpiEvent, 0x060);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiResetDevice, 0x068);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiUnload, 0x070);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryInterface, 0x078);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiControlEtwLogging, 0x080);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryAdapterInfo, 0x088);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateDevice, 0x090);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateAllocation, 0x098);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyAllocation, 0x0A0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDescribeAllocation, 0x0A8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiGetStandardAllocationDriverData, 0x0B0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiAcquireSwizzlingRange, 0x0B8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiReleaseSwizzlingRange, 0x0C0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiPatch, 0x0C8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommand, 0x0D0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiPreemptCommand, 0x0D8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiBuildPagingBuffer, 0x0E0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPalette, 0x0E8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPointerPosition, 0x0F0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPointerShape, 0x0F8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiResetFromTimeout, 0x100);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRestartFromTimeout, 0x108);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiEscape, 0x110);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCollectDbgInfo, 0x118);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryCurrentFence, 0x120);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiIsSupportedVidPn, 0x128);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendFunctionalVidPn, 0x130);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiEnumVidPnCofuncModality, 0x138);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddress, 0x140);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceVisibility, 0x148);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCommitVidPn, 0x150);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateActiveVidPnPresentPath, 0x158);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendMonitorModes, 0x160);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendVidPnTopology, 0x168);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiGetScanLine, 0x170);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiStopCapture, 0x178);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt, 0x180);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateOverlay, 0x188);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyDevice, 0x190);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiOpenAllocation, 0x198);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCloseAllocation, 0x1A0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRender, 0x1A8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiPresent, 0x1B0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateOverlay, 0x1B8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiFlipOverlay, 0x1C0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyOverlay, 0x1C8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateContext, 0x1D0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyContext, 0x1D8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiLinkDevice, 0x1E0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetDisplayPrivateDriverFormat, 0x1E8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDescribePageTable, 0x1F0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdatePageTable, 0x1F8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdatePageDirectory, 0x200);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiMovePageDirectory, 0x208);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitRender, 0x210);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateAllocation2, 0x218);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderKm, 0x220);
OFF(DRIVER_INITIALIZATION_DATA, Reserved, 0x228);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryVidPnHWCapability, 0x230);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerComponentFState, 0x238);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryDependentEngineGroup, 0x240);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryEngineStatus, 0x248);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiResetEngine, 0x250);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiStopDeviceAndReleasePostDisplayOwnership, 0x258);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSystemDisplayEnable, 0x260);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSystemDisplayWrite, 0x268);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCancelCommand, 0x270);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiGetChildContainerId, 0x278);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiPowerRuntimeControlRequest, 0x280);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay, 0x288);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiNotifySurpriseRemoval, 0x290);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiGetNodeMetadata, 0x298);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerPState, 0x2A0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt2, 0x2A8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport, 0x2B0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCalibrateGpuClock, 0x2B8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiFormatHistoryBuffer, 0x2C0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderGdi, 0x2C8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommandVirtual, 0x2D0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetRootPageTable, 0x2D8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiGetRootPageTableSize, 0x2E0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiMapCpuHostAperture, 0x2E8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiUnmapCpuHostAperture, 0x2F0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport2, 0x2F8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateProcess, 0x300);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyProcess, 0x308);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2, 0x310);
OFF(DRIVER_INITIALIZATION_DATA, Reserved1, 0x318);
OFF(DRIVER_INITIALIZATION_DATA, Reserved2, 0x320);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiPowerRuntimeSetDeviceHandle, 0x328);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetStablePowerState, 0x330);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVideoProtectedRegion, 0x338);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport3, 0x340);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3, 0x348);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiPostMultiPlaneOverlayPresent, 0x350);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiValidateUpdateAllocationProperty, 0x358);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiControlModeBehavior, 0x360);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateMonitorLinkInfo, 0x368);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateHwContext, 0x370);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyHwContext, 0x378);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateHwQueue, 0x380);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyHwQueue, 0x388);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommandToHwQueue, 0x390);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSwitchToHwContextList, 0x398);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiResetHwEngine, 0x3A0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreatePeriodicFrameNotification, 0x3A8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyPeriodicFrameNotification, 0x3B0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTimingsFromVidPn, 0x3B8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetGamma, 0x3C0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetContentType, 0x3C8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetAnalogCopyProtection, 0x3D0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetAdjustedColorimetry, 0x3D8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDisplayDetectControl, 0x3E0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryConnectionChange, 0x3E8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiExchangePreStartInfo, 0x3F0);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiGetMultiPlaneOverlayCaps, 0x3F8);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiGetPostCompositionCaps, 0x400);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateHwContextState, 0x408);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateProtectedSession, 0x410);
OFF(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyProtectedSession, 0x418);
SIZE(DRIVER_INITIALIZATION_DATA, 0x420);
/* section 2: DXGKRNL_INTERFACE at WDDM 2.3 (0x170 bytes), then the kit's services. */
OFF(DXGKRNL_INTERFACE, Size, 0x000);
OFF(DXGKRNL_INTERFACE, Version, 0x004);
OFF(DXGKRNL_INTERFACE, DeviceHandle, 0x008);
OFF(DXGKRNL_INTERFACE, DxgkCbEvalAcpiMethod, 0x010);
OFF(DXGKRNL_INTERFACE, DxgkCbGetDeviceInformation, 0x018);
OFF(DXGKRNL_INTERFACE, DxgkCbIndicateChildStatus, 0x020);
OFF(DXGKRNL_INTERFACE, DxgkCbMapMemory, 0x028);
OFF(DXGKRNL_INTERFACE, DxgkCbQueueDpc, 0x030);
OFF(DXGKRNL_INTERFACE, DxgkCbQueryServices, 0x038);
OFF(DXGKRNL_INTERFACE, DxgkCbReadDeviceSpace, 0x040);
OFF(DXGKRNL_INTERFACE, DxgkCbSynchronizeExecution, 0x048);
OFF(DXGKRNL_INTERFACE, DxgkCbUnmapMemory, 0x050);
OFF(DXGKRNL_INTERFACE, DxgkCbWriteDeviceSpace, 0x058);
OFF(DXGKRNL_INTERFACE, DxgkCbIsDevicePresent, 0x060);
OFF(DXGKRNL_INTERFACE, DxgkCbGetHandleData, 0x068);
OFF(DXGKRNL_INTERFACE, DxgkCbGetHandleParent, 0x070);
OFF(DXGKRNL_INTERFACE, DxgkCbEnumHandleChildren, 0x078);
OFF(DXGKRNL_INTERFACE, DxgkCbNotifyInterrupt, 0x080);
OFF(DXGKRNL_INTERFACE, DxgkCbNotifyDpc, 0x088);
OFF(DXGKRNL_INTERFACE, DxgkCbQueryVidPnInterface, 0x090);
OFF(DXGKRNL_INTERFACE, DxgkCbQueryMonitorInterface, 0x098);
OFF(DXGKRNL_INTERFACE, DxgkCbGetCaptureAddress, 0x0A0);
OFF(DXGKRNL_INTERFACE, DxgkCbLogEtwEvent, 0x0A8);
OFF(DXGKRNL_INTERFACE, DxgkCbExcludeAdapterAccess, 0x0B0);
OFF(DXGKRNL_INTERFACE, DxgkCbCreateContextAllocation, 0x0B8);
OFF(DXGKRNL_INTERFACE, DxgkCbDestroyContextAllocation, 0x0C0);
OFF(DXGKRNL_INTERFACE, DxgkCbSetPowerComponentActive, 0x0C8);
OFF(DXGKRNL_INTERFACE, DxgkCbSetPowerComponentIdle, 0x0D0);
OFF(DXGKRNL_INTERFACE, DxgkCbAcquirePostDisplayOwnership, 0x0D8);
OFF(DXGKRNL_INTERFACE, DxgkCbPowerRuntimeControlRequest, 0x0E0);
OFF(DXGKRNL_INTERFACE, DxgkCbSetPowerComponentLatency, 0x0E8);
OFF(DXGKRNL_INTERFACE, DxgkCbSetPowerComponentResidency, 0x0F0);
OFF(DXGKRNL_INTERFACE, DxgkCbCompleteFStateTransition, 0x0F8);
OFF(DXGKRNL_INTERFACE, DxgkCbCompletePStateTransition, 0x100);
OFF(DXGKRNL_INTERFACE, DxgkCbMapContextAllocation, 0x108);
OFF(DXGKRNL_INTERFACE, DxgkCbUpdateContextAllocation, 0x110);
OFF(DXGKRNL_INTERFACE, DxgkCbReserveGpuVirtualAddressRange, 0x118);
OFF(DXGKRNL_INTERFACE, DxgkCbAcquireHandleData, 0x120);
OFF(DXGKRNL_INTERFACE, DxgkCbReleaseHandleData, 0x128);
OFF(DXGKRNL_INTERFACE, DxgkCbHardwareContentProtectionTeardown, 0x130);
OFF(DXGKRNL_INTERFACE, DxgkCbMultiPlaneOverlayDisabled, 0x138);
OFF(DXGKRNL_INTERFACE, DxgkCbMitigatedRangeUpdate, 0x140);
OFF(DXGKRNL_INTERFACE, DxgkCbInvalidateHwContext, 0x148);
OFF(DXGKRNL_INTERFACE, DxgkCbIndicateConnectorChange, 0x150);
OFF(DXGKRNL_INTERFACE, DxgkCbUnblockUEFIFrameBufferRanges, 0x158);
OFF(DXGKRNL_INTERFACE, DxgkCbAcquirePostDisplayOwnership2, 0x160);
OFF(DXGKRNL_INTERFACE, DxgkCbSetProtectedSessionStatus, 0x168);
OFF(DXGKRNL_INTERFACE, WkReadRegister32, 0x170);
SIZE(DXGK_VIDMMCAPS, 8);
OFF(DXGK_VIDMMCAPS, Value, 0);
OFF(DXGK_VIDMMCAPS, PagingNode, 4);

/* DxgkCbGetHandleData's argument (dispmprt.h). */
SIZE(DXGKARGCB_GETHANDLEDATA, 12);
OFF(DXGKARGCB_GETHANDLEDATA, hObject, 0);
OFF(DXGKARGCB_GETHANDLEDATA, Type, 4);
OFF(DXGKARGCB_GETHANDLEDATA, Flags, 8);

/* DxgkDdiEscape's argument (dispmprt.h). */
SIZE(D3DDDI_ESCAPEFLAGS, 4);
SIZE(DXGKARG_ESCAPE, 40);
OFF(DXGKARG_ESCAPE, hDevice, 0);
OFF(DXGKARG_ESCAPE, Flags, 8);
OFF(DXGKARG_ESCAPE, pPrivateDriverData, 16);
OFF(DXGKARG_ESCAPE, PrivateDriverDataSize, 24);
OFF(DXGKARG_ESCAPE, hContext, 32);

/* The argument structs dispmprt.h gives their real layout at interface 2.3
 * (its section "Argument structs with their real layout"; the reference
 * pages and the 16299/15063 WDK headers named there). Offsets computed with
 * the MSVC x64 rules from the member order. */
SIZE(RECT, 16);
OFF(RECT, left, 0);
OFF(RECT, top, 4);
OFF(RECT, right, 8);
OFF(RECT, bottom, 12);
SIZE(WORD, 2);
SIZE(BOOL, 4);
SIZE(D3DDDI_RATIONAL, 8);
OFF(D3DDDI_RATIONAL, Numerator, 0);
OFF(D3DDDI_RATIONAL, Denominator, 4);
SIZE(D3DDDI_MULTISAMPLINGMETHOD, 8);
OFF(D3DDDI_MULTISAMPLINGMETHOD, NumSamples, 0);
OFF(D3DDDI_MULTISAMPLINGMETHOD, NumQualityLevels, 4);
SIZE(D3DDDI_ROTATION, 4);

SIZE(DXGKARG_QUERYCURRENTFENCE, 12);
OFF(DXGKARG_QUERYCURRENTFENCE, CurrentFence, 0);
OFF(DXGKARG_QUERYCURRENTFENCE, NodeOrdinal, 4);
OFF(DXGKARG_QUERYCURRENTFENCE, EngineOrdinal, 8);

SIZE(DXGK_PREEMPTCOMMANDFLAGS, 4);
OFF(DXGK_PREEMPTCOMMANDFLAGS, Value, 0);
SIZE(DXGKARG_PREEMPTCOMMAND, 16);
OFF(DXGKARG_PREEMPTCOMMAND, PreemptionFenceId, 0);
OFF(DXGKARG_PREEMPTCOMMAND, NodeOrdinal, 4);
OFF(DXGKARG_PREEMPTCOMMAND, EngineOrdinal, 8);
OFF(DXGKARG_PREEMPTCOMMAND, Flags, 12);

SIZE(DXGKARG_QUERYDEPENDENTENGINEGROUP, 16);
OFF(DXGKARG_QUERYDEPENDENTENGINEGROUP, NodeOrdinal, 0);
OFF(DXGKARG_QUERYDEPENDENTENGINEGROUP, EngineOrdinal, 4);
OFF(DXGKARG_QUERYDEPENDENTENGINEGROUP, DependentNodeOrdinalMask, 8);

SIZE(DXGK_ENGINESTATUS, 4);
OFF(DXGK_ENGINESTATUS, Value, 0);
SIZE(DXGKARG_QUERYENGINESTATUS, 12);
OFF(DXGKARG_QUERYENGINESTATUS, NodeOrdinal, 0);
OFF(DXGKARG_QUERYENGINESTATUS, EngineOrdinal, 4);
OFF(DXGKARG_QUERYENGINESTATUS, EngineStatus, 8);

SIZE(DXGKARG_RESETENGINE, 12);
OFF(DXGKARG_RESETENGINE, NodeOrdinal, 0);
OFF(DXGKARG_RESETENGINE, EngineOrdinal, 4);
OFF(DXGKARG_RESETENGINE, LastAbortedFenceId, 8);

SIZE(DXGKARG_COLLECTDBGINFO_EXT, 32);
OFF(DXGKARG_COLLECTDBGINFO_EXT, BucketingKey, 0);
OFF(DXGKARG_COLLECTDBGINFO_EXT, CurrentDmaBufferOffset, 4);
OFF(DXGKARG_COLLECTDBGINFO_EXT, Reserved2, 8);
OFF(DXGKARG_COLLECTDBGINFO_EXT, Reserved3, 12);
OFF(DXGKARG_COLLECTDBGINFO_EXT, Reserved4, 16);
OFF(DXGKARG_COLLECTDBGINFO_EXT, Reserved5, 20);
OFF(DXGKARG_COLLECTDBGINFO_EXT, Reserved6, 24);
OFF(DXGKARG_COLLECTDBGINFO_EXT, Reserved7, 28);
SIZE(DXGKARG_COLLECTDBGINFO, 32);
OFF(DXGKARG_COLLECTDBGINFO, Reason, 0);
OFF(DXGKARG_COLLECTDBGINFO, pBuffer, 8);
OFF(DXGKARG_COLLECTDBGINFO, BufferSize, 16);
OFF(DXGKARG_COLLECTDBGINFO, pExtension, 24);

/* d3dkmdt.h's pack(1) structs: 74 bytes, not the natural 76. */
SIZE(DXGK_ENGINE_TYPE, 4);
SIZE(DXGK_NODEMETADATA_FLAGS, 4);
OFF(DXGK_NODEMETADATA_FLAGS, Value, 0);
SIZE(DXGK_NODEMETADATA, 74);
OFF(DXGK_NODEMETADATA, EngineType, 0);
OFF(DXGK_NODEMETADATA, FriendlyName, 4);
OFF(DXGK_NODEMETADATA, Flags, 68);
OFF(DXGK_NODEMETADATA, GpuMmuSupported, 72);
OFF(DXGK_NODEMETADATA, IoMmuSupported, 73);
WK_STATIC_ASSERT(sizeof(((DXGK_NODEMETADATA *)0)->FriendlyName) == 64, "32 UTF-16 units");
SIZE(DXGKARG_GETNODEMETADATA, 74);
SIZE(DXGK_GPUCLOCKDATA, 24);
OFF(DXGK_GPUCLOCKDATA, GpuFrequency, 0);
OFF(DXGK_GPUCLOCKDATA, GpuClockCounter, 8);
OFF(DXGK_GPUCLOCKDATA, CpuClockCounter, 16);
SIZE(DXGKARG_CALIBRATEGPUCLOCK, 24);

SIZE(DXGK_OPENALLOCATIONINFO, 32);
OFF(DXGK_OPENALLOCATIONINFO, hAllocation, 0);
OFF(DXGK_OPENALLOCATIONINFO, pPrivateDriverData, 8);
OFF(DXGK_OPENALLOCATIONINFO, PrivateDriverDataSize, 16);
OFF(DXGK_OPENALLOCATIONINFO, hDeviceSpecificAllocation, 24);
SIZE(DXGK_OPENALLOCATIONFLAGS, 4);
OFF(DXGK_OPENALLOCATIONFLAGS, Value, 0);
SIZE(DXGKARG_OPENALLOCATION, 56);
OFF(DXGKARG_OPENALLOCATION, NumAllocations, 0);
OFF(DXGKARG_OPENALLOCATION, pOpenAllocation, 8);
OFF(DXGKARG_OPENALLOCATION, pPrivateDriverData, 16);
OFF(DXGKARG_OPENALLOCATION, PrivateDriverSize, 24);
OFF(DXGKARG_OPENALLOCATION, Flags, 28);
OFF(DXGKARG_OPENALLOCATION, SubresourceIndex, 32);
OFF(DXGKARG_OPENALLOCATION, SubresourceOffset, 40);
OFF(DXGKARG_OPENALLOCATION, Pitch, 48);

SIZE(DXGKARG_CLOSEALLOCATION, 16);
OFF(DXGKARG_CLOSEALLOCATION, NumAllocations, 0);
OFF(DXGKARG_CLOSEALLOCATION, pOpenHandleList, 8);

SIZE(DXGK_DESCRIBEALLOCATIONFLAGS, 4);
OFF(DXGK_DESCRIBEALLOCATIONFLAGS, Value, 0);
SIZE(DXGKARG_DESCRIBEALLOCATION, 48);
OFF(DXGKARG_DESCRIBEALLOCATION, hAllocation, 0);
OFF(DXGKARG_DESCRIBEALLOCATION, Width, 8);
OFF(DXGKARG_DESCRIBEALLOCATION, Height, 12);
OFF(DXGKARG_DESCRIBEALLOCATION, Format, 16);
OFF(DXGKARG_DESCRIBEALLOCATION, MultisampleMethod, 20);
OFF(DXGKARG_DESCRIBEALLOCATION, MultisampleMethod.NumSamples, 20);
OFF(DXGKARG_DESCRIBEALLOCATION, MultisampleMethod.NumQualityLevels, 24);
OFF(DXGKARG_DESCRIBEALLOCATION, RefreshRate, 28);
OFF(DXGKARG_DESCRIBEALLOCATION, RefreshRate.Numerator, 28);
OFF(DXGKARG_DESCRIBEALLOCATION, RefreshRate.Denominator, 32);
OFF(DXGKARG_DESCRIBEALLOCATION, PrivateDriverFormatAttribute, 36);
OFF(DXGKARG_DESCRIBEALLOCATION, Flags, 40);
OFF(DXGKARG_DESCRIBEALLOCATION, Rotation, 44);

SIZE(D3DKMDT_STANDARDALLOCATION_TYPE, 4);
SIZE(D3DKMDT_SHAREDPRIMARYSURFACEDATA, 24);
OFF(D3DKMDT_SHAREDPRIMARYSURFACEDATA, Width, 0);
OFF(D3DKMDT_SHAREDPRIMARYSURFACEDATA, Height, 4);
OFF(D3DKMDT_SHAREDPRIMARYSURFACEDATA, Format, 8);
OFF(D3DKMDT_SHAREDPRIMARYSURFACEDATA, RefreshRate, 12);
OFF(D3DKMDT_SHAREDPRIMARYSURFACEDATA, VidPnSourceId, 20);
SIZE(D3DKMDT_SHADOWSURFACEDATA, 16);
OFF(D3DKMDT_SHADOWSURFACEDATA, Width, 0);
OFF(D3DKMDT_SHADOWSURFACEDATA, Height, 4);
OFF(D3DKMDT_SHADOWSURFACEDATA, Format, 8);
OFF(D3DKMDT_SHADOWSURFACEDATA, Pitch, 12);
SIZE(D3DKMDT_STAGINGSURFACEDATA, 12);
OFF(D3DKMDT_STAGINGSURFACEDATA, Width, 0);
OFF(D3DKMDT_STAGINGSURFACEDATA, Height, 4);
OFF(D3DKMDT_STAGINGSURFACEDATA, Pitch, 8);
SIZE(D3DKMDT_GDISURFACEFLAGS, 4);
OFF(D3DKMDT_GDISURFACEFLAGS, Value, 0);
SIZE(D3DKMDT_GDISURFACETYPE, 4);
SIZE(D3DKMDT_GDISURFACEDATA, 24);
OFF(D3DKMDT_GDISURFACEDATA, Width, 0);
OFF(D3DKMDT_GDISURFACEDATA, Height, 4);
OFF(D3DKMDT_GDISURFACEDATA, Format, 8);
OFF(D3DKMDT_GDISURFACEDATA, Type, 12);
OFF(D3DKMDT_GDISURFACEDATA, Flags, 16);
OFF(D3DKMDT_GDISURFACEDATA, Pitch, 20);
SIZE(D3DKMDT_VIRTUALGPUSURFACEDATA, 24);
OFF(D3DKMDT_VIRTUALGPUSURFACEDATA, Size, 0);
OFF(D3DKMDT_VIRTUALGPUSURFACEDATA, Alignment, 8);
OFF(D3DKMDT_VIRTUALGPUSURFACEDATA, DriverSegmentId, 12);
OFF(D3DKMDT_VIRTUALGPUSURFACEDATA, PrivateDriverData, 16);
#define GSADD DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA
SIZE(GSADD, 48);
OFF(GSADD, StandardAllocationType, 0);
OFF(GSADD, pCreateSharedPrimarySurfaceData, 8);
OFF(GSADD, pCreateShadowSurfaceData, 8);
OFF(GSADD, pCreateStagingSurfaceData, 8);
OFF(GSADD, pCreateGdiSurfaceData, 8);
OFF(GSADD, pCreateVirtualGpuSurfaceData, 8);
OFF(GSADD, pAllocationPrivateDriverData, 16);
OFF(GSADD, AllocationPrivateDriverDataSize, 24);
OFF(GSADD, pResourcePrivateDriverData, 32);
OFF(GSADD, ResourcePrivateDriverDataSize, 40);
OFF(GSADD, PhysicalAdapterIndex, 44);
#undef GSADD

/* Present: Render's DMA-buffer members, 16 bytes earlier (no pCommand). */
SIZE(DXGK_PRESENTFLAGS, 4);
OFF(DXGK_PRESENTFLAGS, Value, 0);
SIZE(DXGK_PRESENTALLOCATIONINFO, 32);
OFF(DXGK_PRESENTALLOCATIONINFO, hDeviceSpecificAllocation, 0);
OFF(DXGK_PRESENTALLOCATIONINFO, AllocationVirtualAddress, 8);
OFF(DXGK_PRESENTALLOCATIONINFO, PhysicalAddress, 16);
OFF(DXGK_PRESENTALLOCATIONINFO, SegmentId, 24);
OFF(DXGK_PRESENTALLOCATIONINFO, PhysicalAdapterIndex, 26);
SIZE(DXGK_PRESENTMULTIPLANEOVERLAYLIST, 32);
OFF(DXGK_PRESENTMULTIPLANEOVERLAYLIST, LayerIndex, 0);
OFF(DXGK_PRESENTMULTIPLANEOVERLAYLIST, Enabled, 4);
OFF(DXGK_PRESENTMULTIPLANEOVERLAYLIST, hDeviceSpecificAllocation, 8);
OFF(DXGK_PRESENTMULTIPLANEOVERLAYLIST, PhysicalAddress, 24); /* SegmentId's word at 16: run time */
SIZE(DXGK_PRESENTMULTIPLANEOVERLAYINFO, 16);
OFF(DXGK_PRESENTMULTIPLANEOVERLAYINFO, VidPnSourceId, 0);
OFF(DXGK_PRESENTMULTIPLANEOVERLAYINFO, PlaneListCount, 4);
OFF(DXGK_PRESENTMULTIPLANEOVERLAYINFO, pPlaneList, 8);
SIZE(DXGKARG_PRESENT, 168);
OFF(DXGKARG_PRESENT, pDmaBuffer, 0);
OFF(DXGKARG_PRESENT, DmaSize, 8);
OFF(DXGKARG_PRESENT, pDmaBufferPrivateData, 16);
OFF(DXGKARG_PRESENT, DmaBufferPrivateDataSize, 24);
OFF(DXGKARG_PRESENT, pAllocationList, 32);
OFF(DXGKARG_PRESENT, pAllocationInfo, 32);
OFF(DXGKARG_PRESENT, pPresentMultiPlaneOverlayInfo, 32);
OFF(DXGKARG_PRESENT, pPatchLocationListOut, 40);
OFF(DXGKARG_PRESENT, PatchLocationListOutSize, 48);
OFF(DXGKARG_PRESENT, MultipassOffset, 52);
OFF(DXGKARG_PRESENT, Color, 56);
OFF(DXGKARG_PRESENT, DstRect, 60);
OFF(DXGKARG_PRESENT, DstRect.left, 60);
OFF(DXGKARG_PRESENT, DstRect.bottom, 72);
OFF(DXGKARG_PRESENT, SrcRect, 76);
OFF(DXGKARG_PRESENT, SrcRect.left, 76);
OFF(DXGKARG_PRESENT, SrcRect.bottom, 88);
OFF(DXGKARG_PRESENT, SubRectCnt, 92);
OFF(DXGKARG_PRESENT, pDstSubRects, 96);
OFF(DXGKARG_PRESENT, FlipInterval, 104);
OFF(DXGKARG_PRESENT, Flags, 108);
OFF(DXGKARG_PRESENT, DmaBufferSegmentId, 112);
OFF(DXGKARG_PRESENT, DmaBufferPhysicalAddress, 120);
OFF(DXGKARG_PRESENT, Reserved, 128);
OFF(DXGKARG_PRESENT, DmaBufferGpuVirtualAddress, 136);
OFF(DXGKARG_PRESENT, NumSrcAllocations, 144);
OFF(DXGKARG_PRESENT, NumDstAllocations, 148);
OFF(DXGKARG_PRESENT, PrivateDriverDataSize, 152);
OFF(DXGKARG_PRESENT, pPrivateDriverData, 160);
WK_STATIC_ASSERT(offsetof(DXGKARG_RENDER, pDmaBuffer) == offsetof(DXGKARG_PRESENT, pDmaBuffer) + 16,
                 "Present has Render's DMA-buffer members without the command buffer in front");
WK_STATIC_ASSERT(offsetof(DXGKARG_RENDER, DmaBufferPrivateDataSize) ==
                     offsetof(DXGKARG_PRESENT, DmaBufferPrivateDataSize) + 16,
                 "and in the same order");

/* What DxgkCbGetDeviceInformation fills (dispmprt.h). */
SIZE(DOCKING_STATE, 4);
SIZE(UNICODE_STRING, 16);
SIZE(DXGK_DEVICE_INFO, 80);
OFF(DXGK_DEVICE_INFO, MiniportDeviceContext, 0);
OFF(DXGK_DEVICE_INFO, PhysicalDeviceObject, 8);
OFF(DXGK_DEVICE_INFO, DeviceRegistryPath, 16);
OFF(DXGK_DEVICE_INFO, DeviceRegistryPath.Length, 16);
OFF(DXGK_DEVICE_INFO, DeviceRegistryPath.MaximumLength, 18);
OFF(DXGK_DEVICE_INFO, DeviceRegistryPath.Buffer, 24);
OFF(DXGK_DEVICE_INFO, TranslatedResourceList, 32);
OFF(DXGK_DEVICE_INFO, SystemMemorySize, 40);
OFF(DXGK_DEVICE_INFO, HighestPhysicalAddress, 48);
OFF(DXGK_DEVICE_INFO, AgpApertureBase, 56);
OFF(DXGK_DEVICE_INFO, AgpApertureSize, 64);
OFF(DXGK_DEVICE_INFO, DockingState, 72);

/* facts 4.12: the resource list DXGK_DEVICE_INFO.TranslatedResourceList
 * points at (wdm.h; the partial descriptor 4-byte packed). */
SIZE(INTERFACE_TYPE, 4);
SIZE(KAFFINITY, 8);
SIZE(CM_PARTIAL_RESOURCE_DESCRIPTOR, 20);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, Type, 0);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, ShareDisposition, 1);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, Flags, 2);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u, 4);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Memory.Start, 4);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Memory.Length, 12);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Port.Length, 12);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Interrupt.Level, 4);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Interrupt.Group, 6);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Interrupt.Vector, 8);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Interrupt.Affinity, 12);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.MessageInterrupt.Translated.Vector, 8);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.MessageInterrupt.Raw.MessageCount, 6);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.DevicePrivate.Data, 4);
OFF(CM_PARTIAL_RESOURCE_DESCRIPTOR, u.Memory64.Length64, 12);
SIZE(CM_PARTIAL_RESOURCE_LIST, 28);
OFF(CM_PARTIAL_RESOURCE_LIST, Version, 0);
OFF(CM_PARTIAL_RESOURCE_LIST, Revision, 2);
OFF(CM_PARTIAL_RESOURCE_LIST, Count, 4);
OFF(CM_PARTIAL_RESOURCE_LIST, PartialDescriptors, 8);
SIZE(CM_FULL_RESOURCE_DESCRIPTOR, 36);
OFF(CM_FULL_RESOURCE_DESCRIPTOR, InterfaceType, 0);
OFF(CM_FULL_RESOURCE_DESCRIPTOR, BusNumber, 4);
OFF(CM_FULL_RESOURCE_DESCRIPTOR, PartialResourceList, 8);
OFF(CM_FULL_RESOURCE_DESCRIPTOR, PartialResourceList.PartialDescriptors, 16);
SIZE(CM_RESOURCE_LIST, 40);
OFF(CM_RESOURCE_LIST, Count, 0);
OFF(CM_RESOURCE_LIST, List, 4);
OFF(CM_RESOURCE_LIST, List[0].PartialResourceList.PartialDescriptors[0].u.Memory.Start, 24);

/* Kit MDL. */
SIZE(MDL, 56);
OFF(MDL, wk_byte_count, 0);
OFF(MDL, wk_byte_offset, 4);
OFF(MDL, wk_page_count, 8);
OFF(MDL, wk_pfns, 16);
OFF(MDL, wk_mapped_va, 24);
OFF(MDL, wk_map, 32);
OFF(MDL, wk_map_context, 40);
OFF(MDL, MdlFlags, 48);

/* ------------------------------------------------------------------------ */
/* Run-time helpers                                                          */
/* ------------------------------------------------------------------------ */

/* Compares a flag word with its documented mask and names the field on failure. */
static int mask_ok(const char *what, uint64_t got, uint64_t want)
{
    if (got == want)
        return 1;
    print_error("%s: word is 0x%llx, documented mask is 0x%llx\n", what,
                (unsigned long long)got, (unsigned long long)want);
    return 0;
}

/* The 32-bit word at byte offset `at` of an object, for words without a Value. */
static uint32_t word32_at(const void *obj, size_t at)
{
    uint32_t w;
    memcpy(&w, (const unsigned char *)obj + at, sizeof w);
    return w;
}

/*
 * Zero a T, store `val` (the field's maximum) in one bit-field, and require
 * the whole word read through `word` to equal `mask`.
 */
#define EXPECT_WORD(T, word, field, val, mask)                                 \
    do {                                                                       \
        T w_;                                                                  \
        memset(&w_, 0, sizeof w_);                                             \
        w_.field = (val);                                                      \
        assert_true(mask_ok(#T "." #field, (uint64_t)w_.word, (uint64_t)(mask))); \
    } while (0)

#define EXPECT_BIT(T, field, mask) EXPECT_WORD(T, Value, field, 1u, mask)
#define EXPECT_BITS(T, field, max, mask) EXPECT_WORD(T, Value, field, max, mask)

/* Same, for a bit-field word at byte offset `at` of T that has no Value member. */
#define EXPECT_RAW(T, at, field, val, mask)                                    \
    do {                                                                       \
        T w_;                                                                  \
        memset(&w_, 0, sizeof w_);                                             \
        w_.field = (val);                                                      \
        assert_true(mask_ok(#T "." #field, word32_at(&w_, (at)), (mask)));     \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Flag words (facts 3)                                                      */
/* ------------------------------------------------------------------------ */

static void test_flags_transfer(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_TRANSFERFLAGS, Swizzle, 0x01u);
    EXPECT_BIT(DXGK_TRANSFERFLAGS, Unswizzle, 0x02u);
    EXPECT_BIT(DXGK_TRANSFERFLAGS, AllocationIsIdle, 0x04u);
    EXPECT_BIT(DXGK_TRANSFERFLAGS, TransferStart, 0x08u);
    EXPECT_BIT(DXGK_TRANSFERFLAGS, TransferEnd, 0x10u);
    EXPECT_BITS(DXGK_TRANSFERFLAGS, Reserved, 0x7FFFFFFu, 0xFFFFFFE0u);
}

static void test_flags_discardcontent(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_DISCARDCONTENTFLAGS, AllocationIsIdle, 0x1u);
    EXPECT_BITS(DXGK_DISCARDCONTENTFLAGS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
}

static void test_flags_mapaperture(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_MAPAPERTUREFLAGS, CacheCoherent, 0x1u);
    EXPECT_BITS(DXGK_MAPAPERTUREFLAGS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
}

static void test_flags_updatepagetable(void **state)
{
    (void)state;
    EXPECT_RAW(DXGK_UPDATEPAGETABLEFLAGS, 0, Repeat, 1u, 0x1u);
    EXPECT_RAW(DXGK_UPDATEPAGETABLEFLAGS, 0, InitialUpdate, 1u, 0x2u);
    EXPECT_RAW(DXGK_UPDATEPAGETABLEFLAGS, 0, NotifyEviction, 1u, 0x4u);
    EXPECT_RAW(DXGK_UPDATEPAGETABLEFLAGS, 0, Use64KBPages, 1u, 0x8u);
    EXPECT_RAW(DXGK_UPDATEPAGETABLEFLAGS, 0, Reserved, 0xFFFFFFFu, 0xFFFFFFF0u);
}

static void test_flags_transfervirtual(void **state)
{
    (void)state;
    EXPECT_WORD(DXGK_TRANSFERVIRTUALFLAGS, Flags, Src64KBPages, 1u, 0x1u);
    EXPECT_WORD(DXGK_TRANSFERVIRTUALFLAGS, Flags, Dst64KBPages, 1u, 0x2u);
    EXPECT_WORD(DXGK_TRANSFERVIRTUALFLAGS, Flags, Reserved, 0x3FFFFFFFu, 0xFFFFFFFCu);
}

static void test_flags_segment(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_SEGMENTFLAGS, Aperture, 0x00000001u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, Agp, 0x00000002u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, CpuVisible, 0x00000004u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, UseBanking, 0x00000008u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, CacheCoherent, 0x00000010u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, PitchAlignment, 0x00000020u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, PopulatedFromSystemMemory, 0x00000040u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, PreservedDuringStandby, 0x00000080u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, PreservedDuringHibernate, 0x00000100u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, PartiallyPreservedDuringHibernate, 0x00000200u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, DirectFlip, 0x00000400u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, Use64KBPages, 0x00000800u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, ReservedSysMem, 0x00001000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, SupportsCpuHostAperture, 0x00002000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, SupportsCachedCpuHostAperture, 0x00004000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, ApplicationTarget, 0x00008000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, VprSupported, 0x00010000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, VprPreservedDuringStandby, 0x00020000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, EncryptedPagingSupported, 0x00040000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, LocalBudgetGroup, 0x00080000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, NonLocalBudgetGroup, 0x00100000u);
    EXPECT_BIT(DXGK_SEGMENTFLAGS, PopulatedByReservedDDRByFirmware, 0x00200000u);
    EXPECT_BITS(DXGK_SEGMENTFLAGS, Reserved, 0x3FFu, 0xFFC00000u);
}

static void test_flags_segmentbankpreference(void **state)
{
    (void)state;
    EXPECT_BITS(DXGK_SEGMENTBANKPREFERENCE, Bank0, 127u, 0x0000007Fu);
    EXPECT_BIT(DXGK_SEGMENTBANKPREFERENCE, Direction0, 0x00000080u);
    EXPECT_BITS(DXGK_SEGMENTBANKPREFERENCE, Bank1, 127u, 0x00007F00u);
    EXPECT_BIT(DXGK_SEGMENTBANKPREFERENCE, Direction1, 0x00008000u);
    EXPECT_BITS(DXGK_SEGMENTBANKPREFERENCE, Bank2, 127u, 0x007F0000u);
    EXPECT_BIT(DXGK_SEGMENTBANKPREFERENCE, Direction2, 0x00800000u);
    EXPECT_BITS(DXGK_SEGMENTBANKPREFERENCE, Bank3, 127u, 0x7F000000u);
    EXPECT_BIT(DXGK_SEGMENTBANKPREFERENCE, Direction3, 0x80000000u);
}

static void test_flags_segmentpreference(void **state)
{
    (void)state;
    EXPECT_BITS(D3DDDI_SEGMENTPREFERENCE, SegmentId0, 31u, 0x0000001Fu);
    EXPECT_BIT(D3DDDI_SEGMENTPREFERENCE, Direction0, 0x00000020u);
    EXPECT_BITS(D3DDDI_SEGMENTPREFERENCE, SegmentId1, 31u, 0x000007C0u);
    EXPECT_BIT(D3DDDI_SEGMENTPREFERENCE, Direction1, 0x00000800u);
    EXPECT_BITS(D3DDDI_SEGMENTPREFERENCE, SegmentId2, 31u, 0x0001F000u);
    EXPECT_BIT(D3DDDI_SEGMENTPREFERENCE, Direction2, 0x00020000u);
    EXPECT_BITS(D3DDDI_SEGMENTPREFERENCE, SegmentId3, 31u, 0x007C0000u);
    EXPECT_BIT(D3DDDI_SEGMENTPREFERENCE, Direction3, 0x00800000u);
    EXPECT_BITS(D3DDDI_SEGMENTPREFERENCE, SegmentId4, 31u, 0x1F000000u);
    EXPECT_BIT(D3DDDI_SEGMENTPREFERENCE, Direction4, 0x20000000u);
    EXPECT_BITS(D3DDDI_SEGMENTPREFERENCE, Reserved, 3u, 0xC0000000u);
    /* The kernel name is the same type. */
    EXPECT_BITS(DXGK_SEGMENTPREFERENCE, SegmentId1, 2u, 0x00000080u);
}

static void test_flags_createcontext(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_CREATECONTEXTFLAGS, SystemContext, 0x01u);
    EXPECT_BIT(DXGK_CREATECONTEXTFLAGS, GdiContext, 0x02u);
    EXPECT_BIT(DXGK_CREATECONTEXTFLAGS, VirtualAddressing, 0x04u);
    EXPECT_BIT(DXGK_CREATECONTEXTFLAGS, SystemProtectedContext, 0x08u);
    EXPECT_BIT(DXGK_CREATECONTEXTFLAGS, HwQueueSupported, 0x10u);
    EXPECT_BITS(DXGK_CREATECONTEXTFLAGS, Reserved, 0x7FFFFFFu, 0xFFFFFFE0u);
}

static void test_flags_contextinfo_caps(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_CONTEXTINFO_CAPS, NoPatchingRequired, 0x1u);
    EXPECT_BIT(DXGK_CONTEXTINFO_CAPS, DriverManagesResidency, 0x2u);
    EXPECT_BIT(DXGK_CONTEXTINFO_CAPS, UseIoMmu, 0x4u);
    EXPECT_BITS(DXGK_CONTEXTINFO_CAPS, Reserved, 0x1FFFFFFFu, 0xFFFFFFF8u);
}

static void test_flags_createcontextallocation(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_CREATECONTEXTALLOCATIONFLAGS, SharedAcrossContexts, 0x1u);
    EXPECT_BIT(DXGK_CREATECONTEXTALLOCATIONFLAGS, MapGpuVirtualAddress, 0x2u);
    EXPECT_BITS(DXGK_CREATECONTEXTALLOCATIONFLAGS, Reserved, 0x3FFFFFFFu, 0xFFFFFFFCu);
}

static void test_flags_patch(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_PATCHFLAGS, Paging, 0x1u);
    EXPECT_BIT(DXGK_PATCHFLAGS, Present, 0x2u);
    EXPECT_BIT(DXGK_PATCHFLAGS, RedirectedPresent, 0x4u);
    EXPECT_BIT(DXGK_PATCHFLAGS, NullRendering, 0x8u);
    EXPECT_BITS(DXGK_PATCHFLAGS, Reserved, 0xFFFFFFFu, 0xFFFFFFF0u);
}

static void test_flags_submitcommand(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, Paging, 0x001u);
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, Present, 0x002u);
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, RedirectedPresent, 0x004u);
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, NullRendering, 0x008u);
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, Flip, 0x010u);
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, FlipWithNoWait, 0x020u);
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, ContextSwitch, 0x040u);
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, Resubmission, 0x080u);
    EXPECT_BIT(DXGK_SUBMITCOMMANDFLAGS, VirtualMachineData, 0x100u);
    EXPECT_BITS(DXGK_SUBMITCOMMANDFLAGS, Reserved, 0x7FFFFFu, 0xFFFFFE00u);
}

static void test_flags_vidschcaps(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_VIDSCHCAPS, MultiEngineAware, 0x01u);
    EXPECT_BIT(DXGK_VIDSCHCAPS, VSyncPowerSaveAware, 0x02u);
    EXPECT_BIT(DXGK_VIDSCHCAPS, PreemptionAware, 0x04u);
    EXPECT_BIT(DXGK_VIDSCHCAPS, NoDmaPatching, 0x08u);
    EXPECT_BIT(DXGK_VIDSCHCAPS, CancelCommandAware, 0x10u);
    EXPECT_BIT(DXGK_VIDSCHCAPS, No64BitAtomics, 0x20u);
    EXPECT_BIT(DXGK_VIDSCHCAPS, LowIrqlPreemptCommand, 0x40u);
    EXPECT_BITS(DXGK_VIDSCHCAPS, HwQueuePacketCap, 15u, 0x780u);
    EXPECT_BITS(DXGK_VIDSCHCAPS, Reserved, 0x1FFFFFu, 0xFFFFF800u);
}

static void test_flags_physicaladapter(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_PHYSICALADAPTERFLAGS, IoMmuSupported, 0x1u);
    EXPECT_BIT(DXGK_PHYSICALADAPTERFLAGS, GpuMmuSupported, 0x2u);
    EXPECT_BIT(DXGK_PHYSICALADAPTERFLAGS, MovePagingSupported, 0x4u);
    EXPECT_BIT(DXGK_PHYSICALADAPTERFLAGS, VPRPagingContextRequired, 0x8u);
    EXPECT_BITS(DXGK_PHYSICALADAPTERFLAGS, Reserved, 0xFFFFFFFu, 0xFFFFFFF0u);
}

static void test_flags_vidmmcaps(void **state)
{
    (void)state;
    /* The kit's chosen position for the op-17 opt-in (see the header). */
    EXPECT_BIT(DXGK_VIDMMCAPS, MapAperture2Supported, 0x00004000u);
    EXPECT_BIT(DXGK_VIDMMCAPS, OutOfOrderLock, 0x00000001u);
    EXPECT_BIT(DXGK_VIDMMCAPS, VirtualAddressingSupported, 0x00000020u);
    EXPECT_BIT(DXGK_VIDMMCAPS, GpuMmuSupported, 0x00000040u);
    EXPECT_BIT(DXGK_VIDMMCAPS, IoMmuSupported, 0x00000080u);
    EXPECT_BIT(DXGK_VIDMMCAPS, ParavirtualizationSupported, 0x00000400u);
    EXPECT_BITS(DXGK_VIDMMCAPS, ReservedBits11To13, 7u, 0x00003800u);
    EXPECT_BITS(DXGK_VIDMMCAPS, Reserved, 0x1FFFFu, 0xFFFF8000u);
}

static void test_flags_deviceinfo(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_DEVICEINFOFLAGS, GuaranteedDmaBufferContract, 0x1u);
    EXPECT_BITS(DXGK_DEVICEINFOFLAGS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
}

/* The flag words of the arguments dispmprt.h lays out (its reference pages). */
static void test_flags_dispmprt_args(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_PRESENTFLAGS, Blt, 0x00000001u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, ColorFill, 0x00000002u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, Flip, 0x00000004u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, FlipWithNoWait, 0x00000008u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, SrcColorKey, 0x00000010u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, DstColorKey, 0x00000020u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, LinearToSrgb, 0x00000040u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, Rotate, 0x00000080u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, FlipStereo, 0x00000100u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, FlipStereoTemporaryMono, 0x00000200u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, FlipStereoPreferRight, 0x00000400u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, BltStereoUseRight, 0x00000800u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, FlipWithMultiPlaneOverlay, 0x00001000u);
    EXPECT_BIT(DXGK_PRESENTFLAGS, RedirectedFlip, 0x00002000u);
    EXPECT_BITS(DXGK_PRESENTFLAGS, Reserved, 0x3FFFFu, 0xFFFFC000u);
    EXPECT_RAW(DXGK_PRESENTMULTIPLANEOVERLAYLIST, 16, SegmentId, 0x1Fu, 0x0000001Fu);
    EXPECT_RAW(DXGK_PRESENTMULTIPLANEOVERLAYLIST, 16, Reserved, 0x7FFFFFFu, 0xFFFFFFE0u);
    EXPECT_BIT(DXGK_OPENALLOCATIONFLAGS, Create, 0x1u);
    EXPECT_BIT(DXGK_OPENALLOCATIONFLAGS, ReadOnly, 0x2u);
    EXPECT_BITS(DXGK_OPENALLOCATIONFLAGS, Reserved, 0x3FFFFFFFu, 0xFFFFFFFCu);
    EXPECT_BIT(DXGK_DESCRIBEALLOCATIONFLAGS, CheckDisplayMode, 0x1u);
    EXPECT_BITS(DXGK_DESCRIBEALLOCATIONFLAGS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
    EXPECT_BIT(DXGK_ENGINESTATUS, Responsive, 0x1u);
    EXPECT_BITS(DXGK_ENGINESTATUS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
    EXPECT_BIT(DXGK_NODEMETADATA_FLAGS, ContextSchedulingSupported, 0x1u);
    EXPECT_BITS(DXGK_NODEMETADATA_FLAGS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
    EXPECT_BITS(DXGK_PREEMPTCOMMANDFLAGS, Reserved, 0xFFFFFFFFu, 0xFFFFFFFFu);
    EXPECT_BITS(D3DKMDT_GDISURFACEFLAGS, Reserved, 0xFFFFFFFFu, 0xFFFFFFFFu);
}

static void test_flags_allocationinfo(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, CpuVisible, 0x00001u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, PermanentSysMem, 0x00002u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, Cached, 0x00004u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, Protected, 0x00008u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, ExistingSysMem, 0x00010u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, ExistingKernelSysMem, 0x00020u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, FromEndOfSegment, 0x00040u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, Swizzled, 0x00080u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, Overlay, 0x00100u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, Capture, 0x00200u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, UseAlternateVA, 0x00400u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, SynchronousPaging, 0x00800u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, LinkMirrored, 0x01000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, LinkInstanced, 0x02000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, HistoryBuffer, 0x04000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, AccessedPhysically, 0x08000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, ExplicitResidencyNotification, 0x10000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, HardwareProtected, 0x20000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS, CpuVisibleOnDemand, 0x40000u);
    EXPECT_BITS(DXGK_ALLOCATIONINFOFLAGS, Reserved, 0x1FFFu, 0xFFF80000u);
}

static void test_flags_allocationinfo_wddm2_0(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, CpuVisible, 0x00001u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, PermanentSysMem, 0x00002u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, Cached, 0x00004u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, Protected, 0x00008u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, ExistingSysMem, 0x00010u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, ExistingKernelSysMem, 0x00020u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, FromEndOfSegment, 0x00040u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, DisableLargePageMapping, 0x00080u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, Overlay, 0x00100u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, Capture, 0x00200u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, CreateInVpr, 0x00400u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, ReservedBit11, 0x00800u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, ReservedBit12, 0x01000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, MapApertureCpuVisible, 0x02000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, HistoryBuffer, 0x04000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, AccessedPhysically, 0x08000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, ExplicitResidencyNotification, 0x10000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, HardwareProtected, 0x20000u);
    EXPECT_BIT(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, CpuVisibleOnDemand, 0x40000u);
    EXPECT_BITS(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0, Reserved, 0x1FFFu, 0xFFF80000u);
}

static void test_flags_create_destroy_allocation(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_CREATEALLOCATIONFLAGS, Resource, 0x1u);
    EXPECT_BITS(DXGK_CREATEALLOCATIONFLAGS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
    EXPECT_BIT(DXGK_DESTROYALLOCATIONFLAGS, DestroyResource, 0x1u);
    EXPECT_BITS(DXGK_DESTROYALLOCATIONFLAGS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
}

/* facts 3.5 and 7.1: SegmentId is bits 1-5, so its mask is 0x3E, not 0x2E. */
static void test_word_allocationlist(void **state)
{
    (void)state;
    EXPECT_RAW(DXGK_ALLOCATIONLIST, 8, WriteOperation, 1u, 0x00000001u);
    EXPECT_RAW(DXGK_ALLOCATIONLIST, 8, SegmentId, 31u, 0x0000003Eu);
    EXPECT_RAW(DXGK_ALLOCATIONLIST, 8, SegmentId, 1u, 0x00000002u);
    EXPECT_RAW(DXGK_ALLOCATIONLIST, 8, Reserved, 0x3FFFFFFu, 0xFFFFFFC0u);
}

static void test_word_patchlocationlist(void **state)
{
    (void)state;
    EXPECT_BITS(D3DDDI_PATCHLOCATIONLIST, SlotId, 0xFFFFFFu, 0x00FFFFFFu);
    EXPECT_BITS(D3DDDI_PATCHLOCATIONLIST, Reserved, 0xFFu, 0xFF000000u);
    /* The word sits at byte 4, between AllocationIndex and DriverId. */
    EXPECT_RAW(D3DDDI_PATCHLOCATIONLIST, 4, SlotId, 0xABCDEFu, 0x00ABCDEFu);
}

static void test_word_d3dddi_allocationlist(void **state)
{
    (void)state;
    EXPECT_BIT(D3DDDI_ALLOCATIONLIST, WriteOperation, 0x01u);
    EXPECT_BIT(D3DDDI_ALLOCATIONLIST, DoNotRetireInstance, 0x02u);
    EXPECT_BITS(D3DDDI_ALLOCATIONLIST, OfferPriority, 7u, 0x1Cu);
    EXPECT_BITS(D3DDDI_ALLOCATIONLIST, Reserved, 0x7FFFFFFu, 0xFFFFFFE0u);
}

/* facts 7.4: Resident and Reserved share bit 0 of the word at byte 24 (abs 64). */
static void test_word_notifyresidency_quirk(void **state)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    EXPECT_RAW(DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY, 24, Resident, 1u, 0x1u);
    EXPECT_RAW(DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY, 24, Reserved, 0x7FFFFFFFu,
               0x7FFFFFFFu);

    memset(&a, 0, sizeof a);
    a.NotifyResidency.Reserved = 0x7FFFFFFEu; /* bit 0 clear */
    assert_int_equal(a.NotifyResidency.Resident, 0);
    a.NotifyResidency.Resident = 1;
    assert_int_equal(a.NotifyResidency.Reserved, 0x7FFFFFFFu);
    assert_int_equal(word32_at(&a, 64), 0x7FFFFFFFu);
}

static void test_word_pte(void **state)
{
    (void)state;
    EXPECT_WORD(DXGK_PTE, Flags, Valid, 1u, 0x1u);
    EXPECT_WORD(DXGK_PTE, Flags, Zero, 1u, 0x2u);
    EXPECT_WORD(DXGK_PTE, Flags, CacheCoherent, 1u, 0x4u);
    EXPECT_WORD(DXGK_PTE, Flags, ReadOnly, 1u, 0x8u);
    EXPECT_WORD(DXGK_PTE, Flags, NoExecute, 1u, 0x10u);
    EXPECT_WORD(DXGK_PTE, Flags, Segment, 31u, 0x3E0u);
    EXPECT_WORD(DXGK_PTE, Flags, LargePage, 1u, 0x400u);
    EXPECT_WORD(DXGK_PTE, Flags, PhysicalAdapterIndex, 63u, 0x1F800u);
    EXPECT_WORD(DXGK_PTE, Flags, PageTablePageSize, 3u, 0x60000u);
    EXPECT_WORD(DXGK_PTE, Flags, SystemReserved0, 1u, 0x80000u);
    EXPECT_WORD(DXGK_PTE, Flags, Reserved, 0xFFFFFFFFFFFull, 0xFFFFFFFFFFF00000ull);
    EXPECT_WORD(DXGK_PTE, PageTableAddress, PageAddress, 0x12345ull, 0x12345ull);
}

static void test_word_va_protection(void **state)
{
    (void)state;
    EXPECT_BIT(D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE, Write, 0x1u);
    EXPECT_BIT(D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE, Execute, 0x2u);
    EXPECT_BIT(D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE, Zero, 0x4u);
    EXPECT_BIT(D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE, NoAccess, 0x8u);
    EXPECT_BIT(D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE, SystemUseOnly, 0x10u);
    EXPECT_BITS(D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE, Reserved, 0x7FFFFFFFFFFFFFFull,
                0xFFFFFFFFFFFFFFE0ull);
}

static void test_word_adl(void **state)
{
    (void)state;
    EXPECT_BIT(DXGK_ADL_FLAGS, Contiguous, 0x1u);
    EXPECT_BITS(DXGK_ADL_FLAGS, Reserved, 0x7FFFFFFFu, 0xFFFFFFFEu);
    EXPECT_RAW(DXGK_ADL, 4, Flags.Contiguous, 1u, 0x1u);
}

/* ------------------------------------------------------------------------ */
/* Enums and constants (facts 1)                                             */
/* ------------------------------------------------------------------------ */

struct enum_case {
    const char *name;
    long long got;
    long long want;
};

#define ENUM_CASE(name, want) { #name, (long long)(name), (want) }

/* Checks a table of (name, value, documented value) and names every mismatch. */
static int enum_table_ok(const struct enum_case *c, size_t n)
{
    int ok = 1;
    size_t i;
    for (i = 0; i < n; i++) {
        if (c[i].got != c[i].want) {
            print_error("%s is %lld, documented %lld\n", c[i].name, c[i].got,
                        c[i].want);
            ok = 0;
        }
    }
    return ok;
}

static void test_enum_paging_operations(void **state)
{
    static const struct enum_case ops[] = {
        ENUM_CASE(DXGK_OPERATION_TRANSFER, 0),
        ENUM_CASE(DXGK_OPERATION_FILL, 1),
        ENUM_CASE(DXGK_OPERATION_DISCARD_CONTENT, 2),
        ENUM_CASE(DXGK_OPERATION_READ_PHYSICAL, 3),
        ENUM_CASE(DXGK_OPERATION_WRITE_PHYSICAL, 4),
        ENUM_CASE(DXGK_OPERATION_MAP_APERTURE_SEGMENT, 5),
        ENUM_CASE(DXGK_OPERATION_UNMAP_APERTURE_SEGMENT, 6),
        ENUM_CASE(DXGK_OPERATION_SPECIAL_LOCK_TRANSFER, 7),
        ENUM_CASE(DXGK_OPERATION_VIRTUAL_TRANSFER, 8),
        ENUM_CASE(DXGK_OPERATION_VIRTUAL_FILL, 9),
        ENUM_CASE(DXGK_OPERATION_INIT_CONTEXT_RESOURCE, 10),
        ENUM_CASE(DXGK_OPERATION_UPDATE_PAGE_TABLE, 11),
        ENUM_CASE(DXGK_OPERATION_FLUSH_TLB, 12),
        ENUM_CASE(DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION, 13),
        ENUM_CASE(DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES, 14),
        ENUM_CASE(DXGK_OPERATION_NOTIFY_RESIDENCY, 15),
        ENUM_CASE(DXGK_OPERATION_SIGNAL_MONITORED_FENCE, 16),
        ENUM_CASE(DXGK_OPERATION_MAP_APERTURE_SEGMENT2, 17),
    };
    size_t i;
    (void)state;
    assert_int_equal(sizeof ops / sizeof ops[0], 18);
    assert_true(enum_table_ok(ops, sizeof ops / sizeof ops[0]));
    for (i = 0; i < sizeof ops / sizeof ops[0]; i++) /* dense 0..17 */
        assert_int_equal(ops[i].got, (long long)i);
}

static void test_enum_small(void **state)
{
    static const struct enum_case c[] = {
        ENUM_CASE(DXGKQAITYPE_UMDRIVERPRIVATE, 0),
        ENUM_CASE(DXGKQAITYPE_DRIVERCAPS, 1),
        ENUM_CASE(DXGKQAITYPE_QUERYSEGMENT, 2),
        ENUM_CASE(DXGKQAITYPE_RESERVED, 3),
        ENUM_CASE(DXGKQAITYPE_QUERYSEGMENT2, 4),
        ENUM_CASE(DXGKQAITYPE_QUERYSEGMENT3, 5),
        ENUM_CASE(DXGKQAITYPE_QUERYSEGMENT4, 11),
        ENUM_CASE(DXGKQAITYPE_SEGMENTMEMORYSTATE, 12),
        ENUM_CASE(DXGKQAITYPE_GPUMMUCAPS, 13),
        ENUM_CASE(DXGKQAITYPE_PAGETABLELEVELDESC, 14),
        ENUM_CASE(DXGKQAITYPE_PHYSICALADAPTERCAPS, 15),
        ENUM_CASE(DXGK_MEMORY_TRANSFER_LOCAL_TO_SYSTEM, 0),
        ENUM_CASE(DXGK_MEMORY_TRANSFER_SYSTEM_TO_LOCAL, 1),
        ENUM_CASE(DXGK_MEMORY_TRANSFER_LOCAL_TO_LOCAL, 2),
        ENUM_CASE(DXGK_PAGETABLEUPDATE_CPU_VIRTUAL, 0),
        ENUM_CASE(DXGK_PAGETABLEUPDATE_GPU_VIRTUAL, 1),
        ENUM_CASE(DXGK_PAGETABLEUPDATE_GPU_PHYSICAL, 2),
        ENUM_CASE(DXGK_PTE_PAGE_TABLE_PAGE_4KB, 0),
        ENUM_CASE(DXGK_PTE_PAGE_TABLE_PAGE_64KB, 1),
        ENUM_CASE(DXGK_INTERRUPT_DMA_COMPLETED, 1),
        ENUM_CASE(DXGK_INTERRUPT_DMA_PREEMPTED, 2),
        ENUM_CASE(DXGK_INTERRUPT_CRTC_VSYNC, 3),
        ENUM_CASE(DXGK_INTERRUPT_DMA_FAULTED, 4),
        ENUM_CASE(DXGK_INTERRUPT_DMA_PAGE_FAULTED, 9),
        ENUM_CASE(DXGK_INTERRUPT_MONITORED_FENCE_SIGNALED, 11),
        ENUM_CASE(D3DDDI_FLIPINTERVAL_IMMEDIATE, 0),
        ENUM_CASE(D3DDDI_FLIPINTERVAL_ONE, 1),
        ENUM_CASE(D3DDDI_FLIPINTERVAL_TWO, 2),
        ENUM_CASE(D3DDDI_FLIPINTERVAL_THREE, 3),
        ENUM_CASE(D3DDDI_FLIPINTERVAL_FOUR, 4),
        ENUM_CASE(D3DDDI_ROTATION_IDENTITY, 1),
        ENUM_CASE(D3DDDI_ROTATION_90, 2),
        ENUM_CASE(D3DDDI_ROTATION_180, 3),
        ENUM_CASE(D3DDDI_ROTATION_270, 4),
        ENUM_CASE(DXGK_ENGINE_TYPE_OTHER, 0),
        ENUM_CASE(DXGK_ENGINE_TYPE_3D, 1),
        ENUM_CASE(DXGK_ENGINE_TYPE_VIDEO_DECODE, 2),
        ENUM_CASE(DXGK_ENGINE_TYPE_VIDEO_ENCODE, 3),
        ENUM_CASE(DXGK_ENGINE_TYPE_VIDEO_PROCESSING, 4),
        ENUM_CASE(DXGK_ENGINE_TYPE_SCENE_ASSEMBLY, 5),
        ENUM_CASE(DXGK_ENGINE_TYPE_COPY, 6),
        ENUM_CASE(DXGK_ENGINE_TYPE_OVERLAY, 7),
        ENUM_CASE(DXGK_ENGINE_TYPE_CRYPTO, 8),
        ENUM_CASE(DXGK_ENGINE_TYPE_MAX, 9),
        ENUM_CASE(D3DKMDT_STANDARDALLOCATION_SHAREDPRIMARYSURFACE, 1),
        ENUM_CASE(D3DKMDT_STANDARDALLOCATION_SHADOWSURFACE, 2),
        ENUM_CASE(D3DKMDT_STANDARDALLOCATION_STAGINGSURFACE, 3),
        ENUM_CASE(D3DKMDT_STANDARDALLOCATION_GDISURFACE, 4),
        ENUM_CASE(D3DKMDT_STANDARDALLOCATION_VGPU, 5),
        ENUM_CASE(D3DKMDT_GDISURFACE_INVALID, 0),
        ENUM_CASE(D3DKMDT_GDISURFACE_TEXTURE, 1),
        ENUM_CASE(D3DKMDT_GDISURFACE_STAGING_CPUVISIBLE, 2),
        ENUM_CASE(D3DKMDT_GDISURFACE_STAGING, 3),
        ENUM_CASE(D3DKMDT_GDISURFACE_LOOKUPTABLE, 4),
        ENUM_CASE(D3DKMDT_GDISURFACE_EXISTINGSYSMEM, 5),
        ENUM_CASE(D3DKMDT_GDISURFACE_TEXTURE_CPUVISIBLE, 6),
        ENUM_CASE(D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER, 7),
        ENUM_CASE(D3DKMDT_GDISURFACE_TEXTURE_CPUVISIBLE_CROSSADAPTER, 8),
        ENUM_CASE(DockStateUnsupported, 0),
        ENUM_CASE(DockStateUnDocked, 1),
        ENUM_CASE(DockStateDocked, 2),
        ENUM_CASE(DockStateUnknown, 3),
    };
    (void)state;
    assert_true(enum_table_ok(c, sizeof c / sizeof c[0]));
}

static void test_constants(void **state)
{
    static const struct enum_case c[] = {
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_VISTA, 0x1052),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_VISTA_SP1, 0x1053),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_WIN7, 0x2005),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_WIN8, 0x300E),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0x4002),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0x5023),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_WDDM2_1, 0x6003),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0x700A),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION_WDDM2_3, 0x8001),
        ENUM_CASE(DXGKDDI_INTERFACE_VERSION, 0x8001),
        ENUM_CASE(DXGK_ALLOCATION_LIST_SIZE_GDICONTEXT, 256),
        ENUM_CASE(DXGK_SEGMENT_ID_INVALID, 0),
        ENUM_CASE(DXGK_SEGMENT_ID_SYSTEMMEMORY, 31),
        ENUM_CASE(DXGK_SEGMENT_SET_SYSTEMMEMORY, 0x80000000ll),
        ENUM_CASE(DXGK_PRESENT_SOURCE_INDEX, 1),
        ENUM_CASE(DXGK_PRESENT_DESTINATION_INDEX, 2),
        ENUM_CASE(DXGK_PRESENT_MAX_INDEX, 2),
        ENUM_CASE(DXGK_MAX_METADATA_NAME_LENGTH, 32),
        ENUM_CASE(DXGK_SECONDARY_BUCKETING_TAG, 0x6253734Dll),
        ENUM_CASE(PAGE_SIZE, 4096),
        ENUM_CASE(PAGE_SHIFT, 12),
    };
    (void)state;
    assert_true(enum_table_ok(c, sizeof c / sizeof c[0]));
    /* facts 7.5: the system set bit is not the (id - 1) bit of id 31. */
    assert_true(DXGK_SEGMENT_SET_SYSTEMMEMORY != (1u << (DXGK_SEGMENT_ID_SYSTEMMEMORY - 1)));
    /* The WDK spells the bucketing tag as the multi-character constant 'bSsM'. */
    assert_true(DXGK_SECONDARY_BUCKETING_TAG ==
                (((unsigned)'b' << 24) | ((unsigned)'S' << 16) | ((unsigned)'s' << 8) | (unsigned)'M'));
}

/* ------------------------------------------------------------------------ */
/* NTSTATUS (facts 2.1)                                                      */
/* ------------------------------------------------------------------------ */

struct status_case {
    const char *name;
    NTSTATUS got;
    uint32_t want;
};

#define STATUS_CASE(name, bits) { #name, name, bits }

static const struct status_case status_cases[] = {
    STATUS_CASE(STATUS_SUCCESS, 0x00000000u),
    STATUS_CASE(STATUS_UNSUCCESSFUL, 0xC0000001u),
    STATUS_CASE(STATUS_NOT_IMPLEMENTED, 0xC0000002u),
    STATUS_CASE(STATUS_INVALID_HANDLE, 0xC0000008u),
    STATUS_CASE(STATUS_INVALID_PARAMETER, 0xC000000Du),
    STATUS_CASE(STATUS_NO_MEMORY, 0xC0000017u),
    STATUS_CASE(STATUS_ILLEGAL_INSTRUCTION, 0xC000001Du),
    STATUS_CASE(STATUS_BUFFER_TOO_SMALL, 0xC0000023u),
    STATUS_CASE(STATUS_INTEGER_OVERFLOW, 0xC0000095u),
    STATUS_CASE(STATUS_PRIVILEGED_INSTRUCTION, 0xC0000096u),
    STATUS_CASE(STATUS_INSUFFICIENT_RESOURCES, 0xC000009Au),
    STATUS_CASE(STATUS_DEVICE_NOT_CONNECTED, 0xC000009Du),
    STATUS_CASE(STATUS_DEVICE_CONFIGURATION_ERROR, 0xC0000182u),
    STATUS_CASE(STATUS_NOT_SUPPORTED, 0xC00000BBu),
    STATUS_CASE(STATUS_INVALID_USER_BUFFER, 0xC00000E8u),
    STATUS_CASE(STATUS_GRAPHICS_NOT_EXCLUSIVE_MODE_OWNER, 0xC01E0000u),
    STATUS_CASE(STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, 0xC01E0001u),
    STATUS_CASE(STATUS_GRAPHICS_INVALID_DISPLAY_ADAPTER, 0xC01E0002u),
    STATUS_CASE(STATUS_GRAPHICS_ADAPTER_WAS_RESET, 0xC01E0003u),
    STATUS_CASE(STATUS_GRAPHICS_INVALID_DRIVER_MODEL, 0xC01E0004u),
    STATUS_CASE(STATUS_GRAPHICS_PRESENT_MODE_CHANGED, 0xC01E0005u),
    STATUS_CASE(STATUS_GRAPHICS_PRESENT_OCCLUDED, 0xC01E0006u),
    STATUS_CASE(STATUS_GRAPHICS_PRESENT_DENIED, 0xC01E0007u),
    STATUS_CASE(STATUS_GRAPHICS_CANNOTCOLORCONVERT, 0xC01E0008u),
    STATUS_CASE(STATUS_GRAPHICS_DRIVER_MISMATCH, 0xC01E0009u),
    STATUS_CASE(STATUS_GRAPHICS_PARTIAL_DATA_POPULATED, 0x401E000Au),
    STATUS_CASE(STATUS_GRAPHICS_NO_VIDEO_MEMORY, 0xC01E0100u),
    STATUS_CASE(STATUS_GRAPHICS_CANT_LOCK_MEMORY, 0xC01E0101u),
    STATUS_CASE(STATUS_GRAPHICS_ALLOCATION_BUSY, 0xC01E0102u),
    STATUS_CASE(STATUS_GRAPHICS_TOO_MANY_REFERENCES, 0xC01E0103u),
    STATUS_CASE(STATUS_GRAPHICS_TRY_AGAIN_LATER, 0xC01E0104u),
    STATUS_CASE(STATUS_GRAPHICS_TRY_AGAIN_NOW, 0xC01E0105u),
    STATUS_CASE(STATUS_GRAPHICS_ALLOCATION_INVALID, 0xC01E0106u),
    STATUS_CASE(STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE, 0xC01E0107u),
    STATUS_CASE(STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNSUPPORTED, 0xC01E0108u),
    STATUS_CASE(STATUS_GRAPHICS_CANT_EVICT_PINNED_ALLOCATION, 0xC01E0109u),
    STATUS_CASE(STATUS_GRAPHICS_INVALID_ALLOCATION_USAGE, 0xC01E0110u),
    STATUS_CASE(STATUS_GRAPHICS_CANT_RENDER_LOCKED_ALLOCATION, 0xC01E0111u),
    STATUS_CASE(STATUS_GRAPHICS_ALLOCATION_CLOSED, 0xC01E0112u),
    STATUS_CASE(STATUS_GRAPHICS_INVALID_ALLOCATION_INSTANCE, 0xC01E0113u),
    STATUS_CASE(STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE, 0xC01E0114u),
    STATUS_CASE(STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE, 0xC01E0115u),
    STATUS_CASE(STATUS_GRAPHICS_ALLOCATION_CONTENT_LOST, 0xC01E0116u),
    STATUS_CASE(STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE, 0xC01E0200u),
    STATUS_CASE(STATUS_GRAPHICS_SKIP_ALLOCATION_PREPARATION, 0x401E0201u),
};

static void test_ntstatus_values(void **state)
{
    size_t i;
    int ok = 1;
    (void)state;
    assert_int_equal(sizeof(NTSTATUS), 4);
    for (i = 0; i < sizeof status_cases / sizeof status_cases[0]; i++) {
        const struct status_case *s = &status_cases[i];
        if ((uint32_t)s->got != s->want) {
            print_error("%s is 0x%08x, documented 0x%08x\n", s->name,
                        (unsigned)(uint32_t)s->got, (unsigned)s->want);
            ok = 0;
        }
        /* Every graphics status carries facility 0x01E (facts 2.1). */
        if (strncmp(s->name, "STATUS_GRAPHICS_", 16) == 0 &&
            ((s->want >> 16) & 0x0FFFu) != 0x01Eu) {
            print_error("%s is not in facility 0x01E\n", s->name);
            ok = 0;
        }
    }
    assert_true(ok);
}

static void test_nt_success(void **state)
{
    size_t i;
    (void)state;
    assert_true(NT_SUCCESS(STATUS_SUCCESS));
    assert_true(NT_SUCCESS(STATUS_GRAPHICS_PARTIAL_DATA_POPULATED)); /* informational */
    assert_true(NT_SUCCESS(STATUS_GRAPHICS_SKIP_ALLOCATION_PREPARATION));
    assert_false(NT_SUCCESS(STATUS_UNSUCCESSFUL));
    assert_false(NT_SUCCESS(STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER));
    assert_false(NT_SUCCESS(STATUS_GRAPHICS_ALLOCATION_BUSY));
    assert_true(STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER < 0);
    /* Success exactly when the severity's top bit (error/warning) is clear. */
    for (i = 0; i < sizeof status_cases / sizeof status_cases[0]; i++) {
        const struct status_case *s = &status_cases[i];
        int want = (s->want & 0x80000000u) == 0;
        if (NT_SUCCESS(s->got) != want)
            print_error("NT_SUCCESS(%s) is %d\n", s->name, !want);
        assert_int_equal(NT_SUCCESS(s->got), want);
    }
}

/* ------------------------------------------------------------------------ */
/* Unions drivers read through more than one name                            */
/* ------------------------------------------------------------------------ */

static void test_union_views(void **state)
{
    LARGE_INTEGER li;
    DXGK_ALLOCATIONINFO info;
    DXGKARG_BUILDPAGINGBUFFER a;
    MDL m;
    (void)state;

    li.QuadPart = 0x1122334455667788ll;
    assert_int_equal(li.LowPart, 0x55667788u);
    assert_int_equal(li.HighPart, 0x11223344);
    assert_int_equal(li.u.LowPart, 0x55667788u);
    assert_int_equal(li.u.HighPart, 0x11223344);

    memset(&info, 0, sizeof info);
    info.FlagsWddm2.DisableLargePageMapping = 1;
    assert_int_equal(info.Flags.Swizzled, 1);
    assert_int_equal(info.Flags.Value, 0x80u);

    memset(&a, 0, sizeof a);
    memset(&m, 0, sizeof m);
    a.Transfer.Source.pMdl = &m; /* Transfer and SpecialLockTransfer share a head */
    a.Transfer.Flags.TransferEnd = 1;
    assert_ptr_equal(a.SpecialLockTransfer.Source.pMdl, &m);
    assert_int_equal(a.SpecialLockTransfer.Flags.Value, 0x10u);

    memset(&a, 0, sizeof a);
    a.MapApertureSegment.SegmentId = 3; /* Map and Unmap share five fields (facts 6) */
    a.MapApertureSegment.NumberOfPages = 7;
    assert_int_equal(a.UnmapApertureSegment.SegmentId, 3);
    assert_int_equal(a.UnmapApertureSegment.NumberOfPages, 7);
    assert_int_equal(a.MapApertureSegment2.NumberOfPages, 7);
}

/* ------------------------------------------------------------------------ */
/* MDL accessors (kit-defined MDL)                                           */
/* ------------------------------------------------------------------------ */

/* facts 5.10 M2-M3: the second partial descriptor follows the first in
 * memory, and the next full descriptor follows the last partial one, the
 * pointer arithmetic the wdm.h page shows; the values of facts 4.12. */
static void test_resource_list_walk(void **state)
{
    (void)state;
    union {
        CM_RESOURCE_LIST list;
        unsigned char bytes[sizeof(CM_RESOURCE_LIST) + 3 * sizeof(CM_PARTIAL_RESOURCE_DESCRIPTOR)];
    } block;
    memset(&block, 0, sizeof(block));
    block.list.Count = 1;
    block.list.List[0].InterfaceType = PCIBus;
    block.list.List[0].PartialResourceList.Version = 1;
    block.list.List[0].PartialResourceList.Revision = 1;
    block.list.List[0].PartialResourceList.Count = 2;
    CM_PARTIAL_RESOURCE_DESCRIPTOR *d = block.list.List[0].PartialResourceList.PartialDescriptors;
    d[1].Type = CmResourceTypeMemory;
    d[1].u.Memory.Start.QuadPart = 0xF1000000;
    d[1].u.Memory.Length = 0x1000;
    assert_int_equal((unsigned char *)&d[1] - block.bytes, 40);
    assert_int_equal(block.bytes[40], 3);
    uint64_t start;
    memcpy(&start, block.bytes + 44, sizeof(start));
    assert_true(start == 0xF1000000u);
    const CM_FULL_RESOURCE_DESCRIPTOR *next =
        (const CM_FULL_RESOURCE_DESCRIPTOR *)(block.list.List[0].PartialResourceList.PartialDescriptors +
                                              block.list.List[0].PartialResourceList.Count);
    assert_int_equal((const unsigned char *)next - block.bytes, 60);
    assert_int_equal(CmResourceTypeInterrupt, 2);
    assert_int_equal(CmResourceTypeMemoryLarge, 7);
    assert_int_equal(CM_RESOURCE_MEMORY_BAR, 0x80);
    assert_int_equal((int)PCIBus, 5);
}

static void test_mdl_accessors(void **state)
{
    PFN_NUMBER pfns[3];
    MDL m;
    const MDL *cm = &m;
    (void)state;

    pfns[0] = 0x100;
    pfns[1] = 0x2345;
    pfns[2] = 0xFFFFFFFFFull;
    memset(&m, 0, sizeof m);
    m.wk_byte_count = 3 * PAGE_SIZE - 0x10;
    m.wk_byte_offset = 0x10;
    m.wk_page_count = 3;
    m.wk_pfns = pfns;

    assert_ptr_equal(MmGetMdlPfnArray(&m), pfns);
    assert_int_equal(MmGetMdlPfnArray(&m)[1], 0x2345);
    assert_int_equal(MmGetMdlPfnArray(&m)[2], 0xFFFFFFFFFull);
    assert_int_equal(MmGetMdlByteCount(cm), 3 * PAGE_SIZE - 0x10);
    assert_int_equal(MmGetMdlByteOffset(cm), 0x10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flags_transfer),
        cmocka_unit_test(test_flags_discardcontent),
        cmocka_unit_test(test_flags_mapaperture),
        cmocka_unit_test(test_flags_updatepagetable),
        cmocka_unit_test(test_flags_transfervirtual),
        cmocka_unit_test(test_flags_segment),
        cmocka_unit_test(test_flags_segmentbankpreference),
        cmocka_unit_test(test_flags_segmentpreference),
        cmocka_unit_test(test_flags_createcontext),
        cmocka_unit_test(test_flags_contextinfo_caps),
        cmocka_unit_test(test_flags_createcontextallocation),
        cmocka_unit_test(test_flags_patch),
        cmocka_unit_test(test_flags_submitcommand),
        cmocka_unit_test(test_flags_vidschcaps),
        cmocka_unit_test(test_flags_physicaladapter),
        cmocka_unit_test(test_flags_vidmmcaps),
        cmocka_unit_test(test_flags_deviceinfo),
        cmocka_unit_test(test_flags_dispmprt_args),
        cmocka_unit_test(test_flags_allocationinfo),
        cmocka_unit_test(test_flags_allocationinfo_wddm2_0),
        cmocka_unit_test(test_flags_create_destroy_allocation),
        cmocka_unit_test(test_word_allocationlist),
        cmocka_unit_test(test_word_patchlocationlist),
        cmocka_unit_test(test_word_d3dddi_allocationlist),
        cmocka_unit_test(test_word_notifyresidency_quirk),
        cmocka_unit_test(test_word_pte),
        cmocka_unit_test(test_word_va_protection),
        cmocka_unit_test(test_word_adl),
        cmocka_unit_test(test_enum_paging_operations),
        cmocka_unit_test(test_enum_small),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_ntstatus_values),
        cmocka_unit_test(test_nt_success),
        cmocka_unit_test(test_union_views),
        cmocka_unit_test(test_mdl_accessors),
        cmocka_unit_test(test_resource_list_walk),
    };
    return cmocka_run_group_tests_name("d3dkmddi_layout", tests, NULL, NULL);
}
