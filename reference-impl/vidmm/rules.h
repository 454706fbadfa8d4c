/* SPDX-License-Identifier: MIT */
/*
 * rules.h - the contract-rule catalogue, as one X-macro table.
 *
 * X(enum name, "ID", checked DDI, "the rule", "source", "where it is checked")
 *
 * The IDs are stable: a rule is never renumbered or reused, a retired one
 * keeps its line commented out. docs/contract-rules.md is generated from
 * this table (`wddmkit rules --markdown`) and a test keeps the two equal.
 * Sources: "facts §x" is docs/wddm-facts.md section x; "seed:<page>" quotes one
 * of the WDDM documentation pages listed in docs/wddm-facts.md §0; "WDK
 * <routine>" the kernel routine's own reference page (the KM rules).
 */
#ifndef WK_VIDMM_RULES_H
#define WK_VIDMM_RULES_H

#define WK_RULE_MAP(X)                                                                             \
    /* Adapter start, driver caps and the segment query */                                        \
    X(R_START_STATUS, "START-STATUS-001", WK_DDI_START_DEVICE,                                     \
      "AddDevice and StartDevice succeed on a working adapter and return a device context",        \
      "facts §2.2 (driver initialisation)", "reference-impl/vidmm/adapter.c")                                                       \
    X(R_CAPS_STATUS, "CAPS-QUERY-001", WK_DDI_QUERY_ADAPTER_INFO,                                   \
      "QueryAdapterInfo(DRIVERCAPS) succeeds and fills DXGK_DRIVERCAPS",                           \
      "facts §1.3, §4.11", "reference-impl/vidmm/adapter.c")                                                                          \
    X(R_CAPS_PREEMPT, "CAPS-SCHED-001", WK_DDI_QUERY_ADAPTER_INFO,                                  \
      "PreemptionAware requires MultiEngineAware", "facts §3.3 DXGK_VIDSCHCAPS", "reference-impl/vidmm/adapter.c")                  \
    X(R_CAPS_CANCEL, "CAPS-SCHED-002", WK_DDI_QUERY_ADAPTER_INFO,                                   \
      "CancelCommandAware requires MultiEngineAware and a DxgkDdiCancelCommand",                   \
      "facts §5.9 K2", "reference-impl/vidmm/adapter.c")                                                                            \
    X(R_CAPS_NODMAPATCH, "CAPS-SCHED-003", WK_DDI_QUERY_ADAPTER_INFO,                               \
      "NoDmaPatching requires PreemptionAware and MultiEngineAware", "facts §3.3 DXGK_VIDSCHCAPS", "reference-impl/vidmm/adapter.c") \
    X(R_CAPS_RESERVED, "CAPS-SCHED-004", WK_DDI_QUERY_ADAPTER_INFO,                                 \
      "reserved DXGK_VIDSCHCAPS bits are zero", "facts §3.3", "reference-impl/vidmm/adapter.c")                                      \
    X(R_SEG_STATUS, "SEG-QUERY-001", WK_DDI_QUERY_ADAPTER_INFO,                                     \
      "both calls of the segment query return SUCCESS (the first fills only NbSegment)",           \
      "facts §5.5 G9", "reference-impl/vidmm/segments.c")                                                                            \
    X(R_SEG_COUNT, "SEG-QUERY-002", WK_DDI_QUERY_ADAPTER_INFO,                                      \
      "NbSegment is 1..31 and the same in both calls", "facts §5.5 G2, G9", "reference-impl/vidmm/segments.c")                      \
    X(R_SEG_STRIDE, "SEG-QUERY-003", WK_DDI_QUERY_ADAPTER_INFO,                                     \
      "QUERYSEGMENT4: SegmentDescriptorStride is at least sizeof(DXGK_SEGMENTDESCRIPTOR4)",        \
      "facts §4.8, §5.5 G9", "reference-impl/vidmm/segments.c")                                                                      \
    X(R_SEG_SIZE, "SEG-SIZE-001", WK_DDI_QUERY_ADAPTER_INFO,                                        \
      "every segment Size is a non-zero multiple of the 4 KB page size",                           \
      "seed:DXGK_SEGMENTDESCRIPTOR Size; facts §5.5 G4", "reference-impl/vidmm/segments.c")                                          \
    X(R_SEG_BASE, "SEG-BASE-001", WK_DDI_QUERY_ADAPTER_INFO,                                        \
      "segment BaseAddress is page aligned and BaseAddress + Size does not wrap", "facts §5.5 G3", "reference-impl/vidmm/segments.c")  \
    X(R_SEG_OVERLAP, "SEG-OVERLAP-001", WK_DDI_QUERY_ADAPTER_INFO,                                  \
      "segments do not overlap in the GPU address space", "facts §5.5 G3", "reference-impl/vidmm/segments.c")                         \
    X(R_SEG_AGP_ALONE, "SEG-AGP-001", WK_DDI_QUERY_ADAPTER_INFO,                                    \
      "an AGP segment sets Agp and no other flag",                                                 \
      "seed:DXGK_SEGMENTDESCRIPTOR Flags; facts §5.5 G8", "reference-impl/vidmm/segments.c")                                         \
    X(R_SEG_AGP_APERTURE, "SEG-AGP-002", WK_DDI_QUERY_ADAPTER_INFO,                                 \
      "at most one AGP segment, and none when DXGK_QUERYSEGMENTIN reports no AGP aperture",        \
      "facts §5.5 G8", "reference-impl/vidmm/segments.c")                                                                            \
    X(R_SEG_COMMIT_MEMORY, "SEG-COMMIT-001", WK_DDI_QUERY_ADAPTER_INFO,                             \
      "a memory segment's CommitLimit equals its Size",                                            \
      "seed:DXGK_SEGMENTDESCRIPTOR CommitLimit; facts §5.5 G5", "reference-impl/vidmm/segments.c")                                   \
    X(R_SEG_COMMIT_APERTURE, "SEG-COMMIT-002", WK_DDI_QUERY_ADAPTER_INFO,                           \
      "an aperture segment's CommitLimit is non-zero and at most its Size", "facts §5.5 G5", "reference-impl/vidmm/segments.c")      \
    X(R_SEG_CPU_VISIBLE, "SEG-CPU-001", WK_DDI_QUERY_ADAPTER_INFO,                                  \
      "a CpuVisible memory segment gives a non-zero, page-aligned CpuTranslatedAddress, and where the hardware binding says which BAR shows that memory (WK_BAR_SEGMENT), the bus address of the segment's offset 0 in it",           \
      "seed:DXGK_SEGMENTDESCRIPTOR CpuTranslatedAddress; facts §5.5 G6", "reference-impl/vidmm/segments.c")                          \
    X(R_SEG_CACHE_COHERENT, "SEG-FLAGS-001", WK_DDI_QUERY_ADAPTER_INFO,                             \
      "CacheCoherent is set only on aperture segments", "facts §5.5 G7", "reference-impl/vidmm/segments.c")                           \
    X(R_SEG_RESERVED_SYSMEM, "SEG-FLAGS-002", WK_DDI_QUERY_ADAPTER_INFO,                            \
      "the driver never sets ReservedSysMem (system use)", "facts §3.2", "reference-impl/vidmm/segments.c")                           \
    X(R_SEG_HOST_APERTURE, "SEG-FLAGS-003", WK_DDI_QUERY_ADAPTER_INFO,                              \
      "SupportsCpuHostAperture excludes CpuVisible; SupportsCachedCpuHostAperture requires it",    \
      "facts §3.2, §5.5 G7", "reference-impl/vidmm/segments.c")                                                                      \
    X(R_SEG_STANDBY, "SEG-FLAGS-004", WK_DDI_QUERY_ADAPTER_INFO,                                    \
      "PreservedDuringStandby/Hibernate/PartiallyPreservedDuringHibernate form a valid triple",    \
      "facts §3.2", "reference-impl/vidmm/segments.c")                                                                               \
    X(R_SEG_RESERVED_BITS, "SEG-FLAGS-005", WK_DDI_QUERY_ADAPTER_INFO,                              \
      "reserved DXGK_SEGMENTFLAGS bits are zero", "facts §3.2", "reference-impl/vidmm/segments.c")                                    \
    X(R_SEG_PAGING_SEGMENT, "SEG-PAGING-001", WK_DDI_QUERY_ADAPTER_INFO,                            \
      "PagingBufferSegmentId is 0 (contiguous system memory) or an aperture segment",              \
      "facts §5.5 G10, §7.7", "reference-impl/vidmm/segments.c")                                                                     \
    X(R_SEG_PAGING_SIZE, "SEG-PAGING-002", WK_DDI_QUERY_ADAPTER_INFO,                               \
      "PagingBufferSize is non-zero", "facts §4.8", "reference-impl/vidmm/segments.c")                                                \
    X(R_SEG_BANK_KIND, "SEG-BANK-001", WK_DDI_QUERY_ADAPTER_INFO,                                   \
      "UseBanking is set only on memory segments", "facts §5.6 B1", "reference-impl/vidmm/segments.c")                                \
    X(R_SEG_BANK_TABLE, "SEG-BANK-002", WK_DDI_QUERY_ADAPTER_INFO,                                  \
      "UseBanking comes with NbOfBanks in 1..127 and a bank range table",                          \
      "seed:DXGK_SEGMENTDESCRIPTOR pBankRangeTable; facts §5.6 B1", "reference-impl/vidmm/segments.c")                               \
    X(R_SEG_BANK_ORDER, "SEG-BANK-003", WK_DDI_QUERY_ADAPTER_INFO,                                  \
      "bank ends are strictly increasing inside the segment; the first bank starts at 0 and the "  \
      "last ends at the segment end", "seed:DXGK_SEGMENTDESCRIPTOR pBankRangeTable; facts §5.6 B2", "reference-impl/vidmm/segments.c") \
    /* Devices and contexts */                                                                    \
    X(R_DEV_STATUS, "DEV-CREATE-001", WK_DDI_CREATE_DEVICE,                                         \
      "CreateDevice succeeds (or reports NO_MEMORY) and returns a device handle of its own (not NULL, " \
      "not the runtime's handle it was given)",                                                      \
      "facts §2.2", "reference-impl/vidmm/objects.c")                                                                               \
    X(R_CTX_STATUS, "CTX-CREATE-001", WK_DDI_CREATE_CONTEXT,                                        \
      "CreateContext returns SUCCESS, NO_MEMORY or DRIVER_MISMATCH; running out of memory is the " \
      "only valid reason to fail", "facts §2.2, §5.7 X6", "reference-impl/vidmm/objects.c")                                         \
    X(R_CTX_HANDLE, "CTX-CREATE-002", WK_DDI_CREATE_CONTEXT,                                        \
      "a created context has a driver handle of its own (not NULL, not the runtime's handle it was " \
      "given)", "facts §4.1", "reference-impl/vidmm/objects.c")                                     \
    X(R_CTX_SEGSET, "CTX-SEGSET-001", WK_DDI_CREATE_CONTEXT,                                        \
      "DmaBufferSegmentSet names aperture segments only",                                          \
      "seed:DXGK_CONTEXTINFO remarks; facts §5.7 X1", "reference-impl/vidmm/objects.c")                                             \
    X(R_CTX_GDI, "CTX-GDI-001", WK_DDI_CREATE_CONTEXT,                                              \
      "a GDI context has AllocationListSize 256", "seed:DXGK_CONTEXTINFO AllocationListSize; facts §5.7 X2", "reference-impl/vidmm/objects.c") \
    X(R_CTX_RESERVED, "CTX-RESERVED-001", WK_DDI_CREATE_CONTEXT,                                    \
      "DXGK_CONTEXTINFO.Reserved is zero", "seed:DXGK_CONTEXTINFO Reserved", "reference-impl/vidmm/objects.c")                       \
    X(R_CTX_SIZES, "CTX-SIZE-001", WK_DDI_CREATE_CONTEXT,                                           \
      "DmaBufferSize is non-zero (it must hold at least one command)",                             \
      "seed:DXGK_CONTEXTINFO remarks; facts §5.2 R4", "reference-impl/vidmm/objects.c")                                             \
    X(R_CTX_COMPANION, "CTX-COMPANION-001", WK_DDI_CREATE_CONTEXT,                                  \
      "PagingCompanionNodeId names an engine the adapter reported (GpuEngineTopology)",            \
      "seed:DXGK_CONTEXTINFO PagingCompanionNodeId; facts §4.11", "reference-impl/vidmm/objects.c")                                           \
    X(R_CTX_CAPS, "CTX-CAPS-001", WK_DDI_CREATE_CONTEXT,                                            \
      "reserved DXGK_CONTEXTINFO_CAPS bits are zero (read from interface version WDDM 2.0, which "  \
      "added Caps)",                                                                               \
      "facts §3.3, §4.1 ([D:ns-d3dkmddi-_dxgk_contextinfo_caps] Reserved: \"This field is reserved " \
      "and should not be used\"). A contract rule, not a choice: Caps is an output the driver "     \
      "writes, so the one use it can make of a reserved bit is to set it, which that sentence "    \
      "rules out (a later interface may give the bit a meaning, and the driver would then claim a " \
      "cap it never meant); the same \"should\" the kit holds DXGK_CONTEXTINFO.Reserved to "        \
      "(\"should be set to zero\", CTX-RESERVED-001)",                                              \
      "reference-impl/vidmm/objects.c")                                                            \
    /* Allocations */                                                                             \
    X(R_ALLOC_STATUS, "ALLOC-CREATE-001", WK_DDI_CREATE_ALLOCATION,                                 \
      "CreateAllocation succeeds for a valid request and gives each allocation a distinct "       \
      "non-NULL hAllocation", "facts §4.9", "reference-impl/vidmm/allocation.c, reference-impl/vidmm/objects.c")                                                       \
    X(R_ALLOC_SIZE, "ALLOC-SIZE-001", WK_DDI_CREATE_ALLOCATION,                                     \
      "Size is non-zero", "facts §4.9", "reference-impl/vidmm/allocation.c")                                                            \
    X(R_ALLOC_ALIGN, "ALLOC-ALIGN-001", WK_DDI_CREATE_ALLOCATION,                                   \
      "Alignment is 0 or a power of two", "facts §4.9", "reference-impl/vidmm/allocation.c")                                            \
    X(R_ALLOC_PITCH, "ALLOC-PITCH-001", WK_DDI_CREATE_ALLOCATION,                                   \
      "PitchAlignedSize is 0 or at least Size", "facts §4.9", "reference-impl/vidmm/allocation.c")                                      \
    X(R_ALLOC_SEGSET, "ALLOC-SET-001", WK_DDI_CREATE_ALLOCATION,                                    \
      "SupportedWriteSegmentSet is non-empty and names reported segments only", "facts §4.9, §5.6 B6", "reference-impl/vidmm/allocation.c") \
    X(R_ALLOC_PREF_EXISTS, "ALLOC-PREF-001", WK_DDI_CREATE_ALLOCATION,                              \
      "PreferredSegment ids name reported segments; reserved bits are zero", "facts §3.2", "reference-impl/vidmm/allocation.c")        \
    X(R_ALLOC_PREF_SUPPORTED, "ALLOC-PREF-002", WK_DDI_CREATE_ALLOCATION,                           \
      "PreferredSegment names only segments in the supported write set", "facts §5.6 B6", "reference-impl/vidmm/allocation.c")         \
    X(R_ALLOC_BANK_RANGE, "ALLOC-BANK-001", WK_DDI_CREATE_ALLOCATION,                               \
      "HintedBank names banks of the most preferred segment, which uses banking",                  \
      "facts §5.6 B4, B5", "reference-impl/vidmm/allocation.c")                                                                        \
    X(R_ALLOC_BANK_ORDER, "ALLOC-BANK-002", WK_DDI_CREATE_ALLOCATION,                               \
      "HintedBank slots are filled in priority order: a zero slot is followed by zero slots",      \
      "facts §5.6 B4", "reference-impl/vidmm/allocation.c")                                                                            \
    X(R_ALLOC_EVICT_SET, "ALLOC-EVICT-001", WK_DDI_CREATE_ALLOCATION,                               \
      "EvictionSegmentSet names aperture segments only", "facts §4.9", "reference-impl/vidmm/allocation.c")                             \
    X(R_ALLOC_PRIORITY, "ALLOC-PRIO-001", WK_DDI_CREATE_ALLOCATION,                                 \
      "AllocationPriority is not 0", "facts §4.9", "reference-impl/vidmm/allocation.c")                                                 \
    /* Paging */                                                                                  \
    X(R_PAGING_STATUS, "PAGING-STATUS-001", WK_DDI_BUILD_PAGING_BUFFER,                             \
      "BuildPagingBuffer returns SUCCESS, INSUFFICIENT_DMA_BUFFER or ALLOCATION_BUSY",             \
      "facts §2.2", "reference-impl/vidmm/paging.c")                                                                               \
    X(R_PAGING_ADVANCE, "PAGING-ADVANCE-001", WK_DDI_BUILD_PAGING_BUFFER,                           \
      "pDmaBuffer moves forward, by at most DmaSize", "seed:DXGKARG_BUILDPAGINGBUFFER pDmaBuffer; facts §5.1 P2, P3", "reference-impl/vidmm/paging.c") \
    X(R_PAGING_PRIVATE, "PAGING-PRIVATE-001", WK_DDI_BUILD_PAGING_BUFFER,                           \
      "pDmaBufferPrivateData moves forward by at most DmaBufferPrivateDataSize and the size left " \
      "shrinks by as much", "seed:DXGKARG_BUILDPAGINGBUFFER DmaBufferPrivateDataSize; facts §5.1 P18", "reference-impl/vidmm/paging.c") \
    X(R_PAGING_PROGRESS, "PAGING-PROGRESS-001", WK_DDI_BUILD_PAGING_BUFFER,                         \
      "an operation completes within the multipass bound",                                         \
      "seed:DXGKARG_BUILDPAGINGBUFFER MultipassOffset; facts §5.1 P3, P4", "reference-impl/vidmm/paging.c")                        \
    X(R_PAGING_STALL, "PAGING-PROGRESS-002", WK_DDI_BUILD_PAGING_BUFFER,                            \
      "INSUFFICIENT_DMA_BUFFER on a fresh, empty paging buffer needs more room than a whole "     \
      "buffer: nothing written and no MultipassOffset change is a stall", "facts §5.1 P3", "reference-impl/vidmm/paging.c")        \
    X(R_PAGING_BUSY, "PAGING-BUSY-001", WK_DDI_BUILD_PAGING_BUFFER,                                 \
      "ALLOCATION_BUSY only for Transfer, DiscardContent and SpecialLockTransfer, and never when " \
      "AllocationIsIdle is set", "facts §5.1 P8", "reference-impl/vidmm/paging.c")                                                  \
    X(R_PAGING_INPUT, "PAGING-INPUT-001", WK_DDI_BUILD_PAGING_BUFFER,                               \
      "the driver leaves the [in] fields (Operation and the operation's arguments) unchanged",     \
      "seed:DXGKARG_BUILDPAGINGBUFFER field directions", "reference-impl/vidmm/paging.c")                                          \
    X(R_PAGING_GPU, "PAGING-GPU-001", WK_DDI_BUILD_PAGING_BUFFER,                                   \
      "the paging buffer runs on the GPU without a fault", "facts §8", "reference-impl/vidmm/paging.c")                             \
    X(R_PAGING_FILL, "PAGING-FILL-001", WK_DDI_BUILD_PAGING_BUFFER,                                 \
      "after a Fill the destination holds FillPattern over FillSize bytes (a GpuMmu driver's FILL_VIRTUAL: the pages mapped at DestinationVirtualAddress in the paging process)", \
      "seed:DXGKARG_BUILDPAGINGBUFFER Fill, FillVirtual (\"the operation used to fill an allocation with a pattern\"); facts §5.1 P10; docs/wddm-gpummu-facts.md 4.5", "reference-impl/vidmm/paging_ops.c") \
    X(R_PAGING_TRANSFER, "PAGING-TRANSFER-001", WK_DDI_BUILD_PAGING_BUFFER,                         \
      "after a Transfer the destination holds the bytes the source held before it (TransferOffset " \
      "on the segment side, MdlOffset in pages on the MDL side; a GpuMmu driver's TRANSFER_VIRTUAL: from the pages mapped at SourceVirtualAddress to those at DestinationVirtualAddress in the paging process)", \
      "seed:DXGKARG_BUILDPAGINGBUFFER Transfer, TransferVirtual (\"the operation used to transfer allocation content between locations in memory\"); facts §5.1 P5, P6; docs/wddm-gpummu-facts.md 4.5", "reference-impl/vidmm/paging_ops.c") \
    X(R_PAGING_MAP, "PAGING-MAP-001", WK_DDI_BUILD_PAGING_BUFFER,                                   \
      "after MapApertureSegment the GPU translates each page to the MDL page from MdlOffset on; after MapApertureSegment2 " \
      "(a WDDM 3.0 driver with MapAperture2Supported) to the ADL page from AdlOffset on, BasePageNumber + n for a contiguous ADL, Pages[n] for an array; the aperture's other pages keep their mappings", \
      "seed:DXGKARG_BUILDPAGINGBUFFER MapApertureSegment; MapApertureSegment2.Adl (\"This ADL can be either contiguous or a page array; the driver must be able to handle both cases\"), AdlOffset; facts §5.1 P13", \
      "reference-impl/vidmm/paging_ops.c") \
    X(R_PAGING_UNMAP, "PAGING-UNMAP-001", WK_DDI_BUILD_PAGING_BUFFER,                               \
      "after UnmapApertureSegment the pages point at DummyPage (never left invalid), and the aperture's other pages keep their mappings", \
      "seed:DXGKARG_BUILDPAGINGBUFFER DummyPage; facts §5.1 P14", "reference-impl/vidmm/paging_ops.c")                                 \
    X(R_PAGING_FENCE, "PAGING-FENCE-001", WK_DDI_BUILD_PAGING_BUFFER,                               \
      "SignalMonitoredFence stores MonitoredFenceValue at MonitoredFenceGpuVa", "facts §5.1 P24", "reference-impl/vidmm/paging_ops.c") \
    X(R_PAGING_CONFINE, "PAGING-CONFINE-001", WK_DDI_BUILD_PAGING_BUFFER,                           \
      "a paging operation changes no memory outside its destination (in a memory segment the driver reports with Use64KBPages, the destination's whole 64 KiB pages, where the memory manager places nothing else)", "seed:DXGKARG_BUILDPAGINGBUFFER Fill.FillSize (\"The size, in bytes, of the memory information to fill\"), Transfer.TransferSize (\"The size, in bytes, of the memory information to transfer\"): the operation names its bytes, and the memory around them is other allocations'; DESIGN: hostile drivers; facts §5.5 G12 (64 KB pages with Use64KBPages)", "reference-impl/vidmm/paging_ops.c")        \
    /* Render */                                                                                  \
    X(R_RENDER_STATUS, "RENDER-STATUS-001", WK_DDI_RENDER,                                          \
      "Render returns one of the documented statuses", "facts §2.2", "reference-impl/vidmm/render.c")                               \
    X(R_RENDER_ADVANCE, "RENDER-ADVANCE-001", WK_DDI_RENDER,                                        \
      "pDmaBuffer moves forward, by at most DmaSize", "facts §5.2 R2", "reference-impl/vidmm/render.c")                             \
    X(R_RENDER_PATCH_ADVANCE, "RENDER-PATCH-001", WK_DDI_RENDER,                                    \
      "pPatchLocationListOut moves forward, by at most PatchLocationListOutSize", "facts §5.2 R2", "reference-impl/vidmm/render.c") \
    X(R_RENDER_PATCH_INDEX, "RENDER-PATCH-002", WK_DDI_RENDER,                                      \
      "every emitted AllocationIndex is below AllocationListSize", "facts §8", "reference-impl/vidmm/render.c")                     \
    X(R_RENDER_PATCH_OFFSET, "RENDER-PATCH-003", WK_DDI_RENDER,                                     \
      "every emitted PatchOffset (plus the 8-byte address) lies inside the bytes written",         \
      "facts §5.3 T1, §8", "reference-impl/vidmm/render.c")                                                                        \
    X(R_RENDER_SPLIT, "RENDER-PATCH-004", WK_DDI_RENDER,                                            \
      "SplitOffsets never decrease and lie inside the bytes written (entries sharing one are "     \
      "re-programmed together)", "facts §5.4 S3, S4", "reference-impl/vidmm/render.c")                                             \
    X(R_RENDER_SLOT, "RENDER-PATCH-005", WK_DDI_RENDER,                                             \
      "SlotId's reserved bits are zero and SlotId is below MaxAllocationListSlotId",               \
      "facts §3.5, §5.4 S2", "reference-impl/vidmm/render.c")                                                                      \
    X(R_RENDER_PREPATCH, "RENDER-PREPATCH-001", WK_DDI_RENDER,                                      \
      "with SegmentId != 0 in the allocation list the DMA buffer already holds the final "         \
      "addresses (GPU-model drivers)", "facts §5.2 R6", "reference-impl/vidmm/render.c")                                            \
    X(R_RENDER_PROGRESS, "RENDER-PROGRESS-001", WK_DDI_RENDER,                                      \
      "multipass makes progress and ends within the bound", "facts §5.2 R3", "reference-impl/vidmm/render.c")                       \
    /* Patch, submit, interrupts, cancel */                                                       \
    X(R_PATCH_STATUS, "PATCH-STATUS-001", WK_DDI_PATCH,                                             \
      "Patch returns SUCCESS (otherwise Windows bug-checks 0x119 with parameter 1 = 0x3)",         \
      "facts §2.2, §5.3 T9", "reference-impl/vidmm/submit.c")                                                                      \
    X(R_PATCH_CONFINE, "PATCH-CONFINE-001", WK_DDI_PATCH,                                           \
      "Patch changes only the 8 bytes at listed PatchOffsets inside the submission range (where "  \
      "the kit hands the buffer read-only, any write counts)",                                      \
      "facts §5.3 T2, §8", "reference-impl/vidmm/submit.c")                                                                        \
    X(R_PATCH_VALUE, "PATCH-VALUE-001", WK_DDI_PATCH,                                               \
      "after Patch each listed location holds PhysicalAddress + AllocationOffset (GPU-model "      \
      "drivers)", "facts §5.3 T3", "reference-impl/vidmm/submit.c")                                                                \
    X(R_SUBMIT_STATUS, "SUBMIT-STATUS-001", WK_DDI_SUBMIT_COMMAND,                                  \
      "SubmitCommand returns SUCCESS (otherwise bug check 0x119, parameter 1 = 0x2)",              \
      "facts §2.2, §5.3 T9", "reference-impl/vidmm/submit.c")                                                                      \
    X(R_SUBMIT_GPU, "SUBMIT-GPU-001", WK_DDI_SUBMIT_COMMAND,                                        \
      "a submitted DMA buffer runs on the GPU without a fault", "facts §8", "reference-impl/vidmm/render.c")                        \
    X(R_SUBMIT_FENCE, "SUBMIT-FENCE-001", WK_DDI_INTERRUPT_ROUTINE,                                 \
      "every submitted fence is reported complete through DxgkCbNotifyInterrupt once the GPU has " \
      "run it, and not before", "facts §5.3 T7, §5.12 N5", "reference-impl/vidmm/submit.c")                                                                  \
    X(R_INTR_FENCE, "INTR-FENCE-001", WK_DDI_CB_NOTIFY_INTERRUPT,                                   \
      "a completed fence id is one that was submitted and not yet completed; it names the latest " \
      "completed buffer, so it completes every earlier one of its node (otherwise bug check 0x119, " \
      "parameter 1 = 0x1)", "facts §2.2 (0x119 codes), §5.12 N5", "reference-impl/vidmm/callbacks.c")                          \
    X(R_INTR_CLAIM, "INTR-CLAIM-001", WK_DDI_INTERRUPT_ROUTINE,                                     \
      "InterruptRoutine claims an interrupt its device raised and quiets the line",                \
      "facts §1.4 DXGK_INTERRUPT_TYPE", "reference-impl/vidmm/submit.c")                                                           \
    X(R_CANCEL_STATUS, "CANCEL-STATUS-001", WK_DDI_CANCEL_COMMAND,                                  \
      "CancelCommand returns SUCCESS (otherwise bug check 0x119, parameter 1 = 0x9)",              \
      "seed:DXGKARG_CANCELCOMMAND; facts §5.9 K4", "reference-impl/vidmm/submit.c")                                                \
    /* Context allocations */                                                                     \
    X(R_CTXALLOC_ARGS, "CTXALLOC-ARGS-001", WK_DDI_CB_CREATE_CONTEXT_ALLOCATION,                    \
      "hContext is NULL exactly when SharedAcrossContexts is set; Size is non-zero; Alignment 0 or " \
      "a power of two; SupportedSegmentSet names reported segments; hDriverAllocation is not NULL (the placement fields are held to the ALLOC-* rules); " \
      "hDevice and hContext, when not NULL, are the runtime handles of a device and a context that exist (created and not yet destroyed)", "facts §4.10, §5.8", "reference-impl/vidmm/ctxalloc.c")         \
    X(R_CTXALLOC_SYSTEM, "CTXALLOC-ARGS-002", WK_DDI_CB_CREATE_CONTEXT_ALLOCATION,                  \
      "GPU context allocations only for non-system contexts, device ones only for non-system "     \
      "devices", "facts §5.8 A2", "reference-impl/vidmm/ctxalloc.c")                                                                 \
    X(R_CTXALLOC_HANDLE, "CTXALLOC-HANDLE-001", WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION,               \
      "context-allocation callbacks name a live allocation created by DxgkCbCreateContextAllocation", \
      "seed:Context allocation; facts §5.8", "reference-impl/vidmm/ctxalloc.c")                                                      \
    X(R_CTXALLOC_LEAK, "CTXALLOC-LEAK-001", WK_DDI_DESTROY_CONTEXT,                                 \
      "a context's (device's) context allocations are destroyed by the time the context (device) " \
      "is", "facts §5.8 A2", "reference-impl/vidmm/ctxalloc.c")                                                                      \
    /* Robustness */                                                                              \
    X(R_MEM_GUARD, "MEM-GUARD-001", WK_DDI_NONE,                                                    \
      "the driver never writes past the end of a buffer the kernel gave it, nor into one its DDI gets as const", "DESIGN: hostile drivers", "reference-impl/vidmm/call.c, reference-impl/vidmm/guard.c") \
    X(R_DRV_CRASH, "DRV-CRASH-001", WK_DDI_NONE,                                                    \
      "the driver does not crash inside a DDI", "DESIGN: hostile drivers", "reference-impl/vidmm/call.c")                         \
    X(R_DRV_HANG, "DRV-HANG-001", WK_DDI_NONE,                                                      \
      "the driver returns from every DDI within the timeout", "DESIGN: hostile drivers", "reference-impl/vidmm/call.c") \
    /* Appended, never inserted: programs and seeds store rule numbers. */                        \
    X(R_RENDER_FAIL_OUTPUTS, "RENDER-FAIL-001", WK_DDI_RENDER,                                      \
      "a choice (reference profile only): on a failure other than an insufficient DMA buffer, "    \
      "pDmaBuffer and pPatchLocationListOut are where they were",                                  \
      "choice: facts §5.2 R2 gives the outputs on success and on an insufficient buffer only; "    \
      "no documentation requires them unchanged on another failure, which the kernel discards",    \
      "reference-impl/vidmm/render.c")                                                                                              \
    /* The kernel API, as include/wddmkit/km.h models it: a misuse km.h   \
     * detects ends the DDI call as its rule (kmservices.h, Fail). */       \
    X(R_KM_API, "KM-API-001", WK_DDI_NONE,                                                    \
      "the driver calls the kernel API as its documentation requires (a misuse km.h detects that has no rule of its own)",                                                                                    \
      "WDK: each routine's page names the bug check a misuse raises; include/wddmkit/km.h prints which", "reference-impl/vidmm/km_services.c") \
    X(R_KM_POOL_TAG, "KM-POOL-001", WK_DDI_NONE,                                                    \
      "ExFreePoolWithTag is given the tag the block was allocated with",                                                                                    \
      "WDK ExFreePoolWithTag: Tag must match the tag used to allocate the block; Windows bug-checks BAD_POOL_CALLER (0xC2)", "reference-impl/vidmm/km_services.c") \
    X(R_KM_POOL_LIVE, "KM-POOL-002", WK_DDI_NONE,                                                    \
      "a pool block is freed once, and only a block the pool gave out",                                                                                    \
      "WDK ExFreePool: freeing a block twice or one not from the pool bug-checks BAD_POOL_CALLER (0xC2)", "reference-impl/vidmm/km_services.c") \
    X(R_KM_POOL_NULL, "KM-POOL-003", WK_DDI_NONE,                                                    \
      "ExFreePool(WithTag) is not given NULL",                                                                                    \
      "WDK ExFreePoolWithTag: P is the address of a pool block; NULL bug-checks BAD_POOL_CALLER (0xC2)", "reference-impl/vidmm/km_services.c") \
    X(R_KM_POOL_RAISE, "KM-POOL-004", WK_DDI_NONE,                                                    \
      "an ExAllocatePool2 with POOL_FLAG_RAISE_ON_FAILURE that fails is not taken for a NULL answer",                                                                                    \
      "WDK ExAllocatePool2: with POOL_FLAG_RAISE_ON_FAILURE a failure raises an exception instead of returning NULL", "reference-impl/vidmm/km_services.c") \
    X(R_KM_IRQL_RAISE, "KM-IRQL-001", WK_DDI_NONE,                                                    \
      "KeRaiseIrql is never asked for an IRQL below the current one",                                                                                    \
      "WDK KeRaiseIrql: NewIrql below the current IRQL bug-checks IRQL_NOT_GREATER_OR_EQUAL (0x9)", "reference-impl/vidmm/km_services.c") \
    X(R_KM_IRQL_LOWER, "KM-IRQL-002", WK_DDI_NONE,                                                    \
      "KeLowerIrql is never asked for an IRQL above the current one",                                                                                    \
      "WDK KeLowerIrql: NewIrql must be the value KeRaiseIrql returned; raising through it is a bug check", "reference-impl/vidmm/km_services.c") \
    X(R_KM_IRQL_MAX, "KM-IRQL-003", WK_DDI_NONE,                                                    \
      "each kernel routine is called at an IRQL its page allows (no wait, no paged pool above APC_LEVEL; nothing above DISPATCH_LEVEL)",                                                                                    \
      "WDK: each routine's Requirements give its IRQL; above it Windows bug-checks IRQL_NOT_LESS_OR_EQUAL (0xA)", "reference-impl/vidmm/km_services.c") \
    X(R_KM_IRQL_DPC, "KM-IRQL-004", WK_DDI_NONE,                                                    \
      "a DPC routine returns at DISPATCH_LEVEL, where it was called",                                                                                    \
      "WDK KDEFERRED_ROUTINE: it runs at DISPATCH_LEVEL; returning at another IRQL bug-checks IRQL_UNEXPECTED_VALUE (0xC8)", "reference-impl/vidmm/km_services.c") \
    X(R_KM_LOCK_TWICE, "KM-LOCK-001", WK_DDI_NONE,                                                    \
      "a thread never acquires a spin lock or fast mutex it holds",                                                                                    \
      "WDK KeAcquireSpinLock and ExAcquireFastMutex: not recursive; a second acquisition deadlocks", "reference-impl/vidmm/km_services.c") \
    X(R_KM_LOCK_UNHELD, "KM-LOCK-002", WK_DDI_NONE,                                                    \
      "a spin lock or fast mutex is released only while held",                                                                                    \
      "WDK KeReleaseSpinLock: releases a lock the caller acquired", "reference-impl/vidmm/km_services.c") \
    X(R_KM_MUTEX_OWNER, "KM-MUTEX-001", WK_DDI_NONE,                                                    \
      "KeReleaseMutex is called only by the mutex's owner",                                                                                    \
      "WDK KeReleaseMutex: a caller that does not own it raises STATUS_MUTANT_NOT_OWNED", "reference-impl/vidmm/km_services.c") \
    X(R_KM_MUTEX_INIT, "KM-MUTEX-003", WK_DDI_NONE,                                                    \
      "a mutex is initialised before it is used",                                                                                    \
      "WDK KeInitializeMutex and ExInitializeFastMutex: called before any other use of the object", "reference-impl/vidmm/km_services.c") \
    X(R_KM_LIST, "KM-LIST-001", WK_DDI_NONE,                                                    \
      "a LIST_ENTRY list is intact when an entry is inserted or removed",                                                                                    \
      "WDK RemoveEntryList and InsertTailList: a corrupt list fails fast with KERNEL_SECURITY_CHECK_FAILURE (0x139)", "reference-impl/vidmm/km_services.c") \
    X(R_KM_EVENT, "KM-EVENT-001", WK_DDI_NONE,                                                    \
      "an event is initialised by KeInitializeEvent before it is set, reset or read",                                                                                    \
      "WDK KeInitializeEvent: called before any other use of the event", "reference-impl/vidmm/km_services.c") \
    X(R_KM_DPC, "KM-DPC-001", WK_DDI_NONE,                                                    \
      "a DPC object is initialised by KeInitializeDpc before it is queued",                                                                                    \
      "WDK KeInitializeDpc: called before the DPC object is queued", "reference-impl/vidmm/km_services.c") \
    X(R_DRV_ASSERT, "DRV-ASSERT-001", WK_DDI_NONE,                                                    \
      "the driver's own assertions (NT_ASSERT, NT_VERIFY, ASSERT) hold; a failed one ends the call with its expression and file:line",                                                                                    \
      "DESIGN: a driver's assertion states its own contract; the kit compiles them in, as a checked build does", "reference-impl/vidmm/km_services.c") \
    X(R_POOL_LEAK, "POOL-LEAK-001", WK_DDI_REMOVE_DEVICE,                                                    \
      "every pool block the driver allocated while the adapter lived is freed by DxgkDdiRemoveDevice, or by DxgkDdiUnload when it has one (then DriverEntry's blocks count too)",                                                                                    \
      "WDK Driver Verifier pool tracking: a driver that unloads with pool still allocated bug-checks DRIVER_VERIFIER_DETECTED_VIOLATION (0xC4, 0x62)", "reference-impl/vidmm/km_services.c, reference-impl/vidmm/vidmm.c") \
    X(R_THREAD_LEAK, "THREAD-LEAK-001", WK_DDI_REMOVE_DEVICE,                                                    \
      "every system thread the driver created while the adapter lived has ended within a second of DxgkDdiRemoveDevice returning, or of DxgkDdiUnload when it has one (then DriverEntry's threads count too)",                                                                                    \
      "WDK PsCreateSystemThread: a driver makes its system threads end before it unloads; unloading while one runs bug-checks DRIVER_UNLOADED_WITHOUT_CANCELLING_PENDING_OPERATIONS (0xCE)", "reference-impl/vidmm/km_services.c, reference-impl/vidmm/vidmm.c") \
    X(R_KM_BUGCHECK, "KM-BUGCHECK-001", WK_DDI_NONE,                                                    \
      "the driver does not stop the system (KeBugCheck, KeBugCheckEx)",                                                                                    \
      "WDK KeBugCheckEx: it brings the system down; a miniport calls it only for an unrecoverable inconsistency, which is what the kit then reports", "reference-impl/vidmm/km_services.c") \
    X(R_KM_MDL, "KM-MDL-001", WK_DDI_NONE,                                                    \
      "MmUnmapLockedPages is given the address MmMapLockedPagesSpecifyCache returned for that MDL, once",                                                                                    \
      "WDK MmUnmapLockedPages: BaseAddress is the value MmMapLockedPagesSpecifyCache returned for the MDL; anything else bug-checks", "reference-impl/vidmm/km_services.c") \
    /* The hardware binding's own rules (binding.h): code the kit runs as the GPU, never the \
     * driver's; a case that trips one ends as an `error`, not a failure of the driver. */ \
    X(R_BIND_CRASH, "BIND-CRASH-001", WK_DDI_NONE,                                                    \
      "the hardware binding's code (processor, register model, encoder, disassembler) does not crash", \
      "DESIGN: hostile bindings (binding.h): a binding's failure is never the driver's", "reference-impl/vidmm/call.c") \
    X(R_BIND_HANG, "BIND-HANG-001", WK_DDI_NONE,                                                    \
      "the hardware binding's code returns within the DDI timeout", \
      "DESIGN: hostile bindings (binding.h): a binding's failure is never the driver's", "reference-impl/vidmm/call.c") \
    X(R_BIND_BUDGET, "BIND-BUDGET-001", WK_DDI_NONE,                                                    \
      "a binding's processor stops with a BUDGET fault once the kit's budget is spent", \
      "DESIGN: processor.h (wk_exec_ops.spend)", "reference-impl/vidmm/binding.c") \
    X(R_BIND_RESULT, "BIND-RESULT-001", WK_DDI_NONE,                                                    \
      "a binding answers within its interface (fault class and offset, encoder lengths, create)", \
      "DESIGN: processor.h and binding.h", "reference-impl/vidmm/binding.c")                                \
    /* The DDI table itself */                                                                     \
    X(R_DDI_TABLE, "DDI-TABLE-001", WK_DDI_DRIVER_ENTRY,                                           \
      "DRIVER_INITIALIZATION_DATA fills every DDI the kernel calls on an adapter that renders: the submission sequence (Render or RenderKm, BuildPagingBuffer, Patch, SubmitCommand, the interrupt and DPC routines that report its fences) and the device, allocation and context life cycle around it; from WDDM 2.0, Patch only when a context of the driver does not report DXGK_CONTEXTINFO.Caps.NoPatchingRequired (the adapter creates one to ask)", \
      "facts §5.11 ([C:submitting-a-command-buffer], [C:paging-video-memory-resources]); facts §3.3 ([D:ns-d3dkmddi-_dxgk_contextinfo_caps] NoPatchingRequired: \"Indicates that no memory patching is required\")", "reference-impl/vidmm/adapter.c, reference-impl/vidmm/context_caps.c") \
    X(R_INTR_ORDINAL, "INTR-ORDINAL-001", WK_DDI_CB_NOTIFY_INTERRUPT,                              \
      "a DMA_COMPLETED or DMA_FAULTED report names the node and engine the fence was submitted to (SubmitCommand's NodeOrdinal and EngineOrdinal; 0 on an adapter that is not linked)", \
      "facts §5.12 ([D:ns-d3dkmddi-_dxgkargcb_notify_interrupt_data])", "reference-impl/vidmm/callbacks.c") \
    /* Adapter start, appended: outputs left unwritten */                                       \
    X(R_START_OUT, "START-OUT-001", WK_DDI_START_DEVICE,                                           \
      "a StartDevice that succeeds writes both of its outputs, *NumberOfVideoPresentSources and *NumberOfChildren", \
      "seed:DxgkDdiStartDevice ([out] NumberOfVideoPresentSources: \"a pointer to a ULONG variable that receives the number of video present sources\"; [out] NumberOfChildren: \"receives the total number of devices that are children of the display adapter\")", \
      "reference-impl/vidmm/adapter.c")                                                                   \
    /* Kernel memory left at teardown, appended */                                                \
    X(R_MEM_LEAK, "MEM-LEAK-001", WK_DDI_REMOVE_DEVICE,                                            \
      "every I/O space mapping (MmMapIoSpace[Ex]) the driver made while the adapter lived is unmapped (MmUnmapIoSpace), and every contiguous block (MmAllocateContiguousMemory[SpecifyCache]) freed (MmFreeContiguousMemory[SpecifyCache]), by DxgkDdiRemoveDevice, or by DxgkDdiUnload when it has one (then DriverEntry's count too)", \
      "WDK MmUnmapIoSpace: \"If a driver calls MmMapIoSpace during device start-up, it must call MmUnmapIoSpace when it receives a PnP stop-device or remove-device IRP for the same device object.\" WDK MmFreeContiguousMemory: \"Such a driver must deallocate the memory when the driver is done using the memory.\" (facts §5.10 M6, M8)", \
      "reference-impl/vidmm/km_services.c, reference-impl/vidmm/vidmm.c")                          \
    /* Robustness, appended: a write through a pointer the driver kept */                        \
    X(R_MEM_STALE, "MEM-STALE-001", WK_DDI_DESTROY_CONTEXT,                                        \
      "the driver never writes into a context's DMA buffer after DxgkDdiDestroyContext of that context: the buffer is the kernel's, handed to the driver for the context's life", \
      "DESIGN: hostile drivers (a use after free, as MEM-GUARD-001 is an overrun); WDK DxgkDdiDestroyContext: \"A driver should free all resources that it allocated for the context and clean up any internal tracking data structures.\" (a pointer into the context's DMA buffer kept past it is such a structure)", \
      "reference-impl/vidmm/dma_quarantine.c")                                                    \
    /* Interrupts, appended: where DxgkCbNotifyDpc is called */                                  \
    X(R_INTR_NOTIFY_DPC, "INTR-DPC-001", WK_DDI_INTERRUPT_ROUTINE,                                \
      "DxgkCbNotifyDpc is called from the DPC routine, at DISPATCH_LEVEL, never from the interrupt routine, which runs at the device's IRQL and asks for the DPC with DxgkCbQueueDpc", \
      "WDK DXGKCB_NOTIFY_DPC: \"The display miniport driver's DPC callback routine calls DXGKCB_NOTIFY_DPC\"; Requirements: IRQL DISPATCH_LEVEL. WDK DXGKDDI_DPC_ROUTINE: \"called back at IRQL DISPATCH_LEVEL after the display miniport driver calls DxgkCbQueueDpc\"", \
      "reference-impl/vidmm/callbacks.c")                                                          \
    /* Allocations, appended: the device-specific handle */                                     \
    X(R_ALLOC_OPEN, "ALLOC-OPEN-001", WK_DDI_OPEN_ALLOCATION,                                      \
      "DxgkDdiOpenAllocation that returns STATUS_SUCCESS sets a non-NULL hDeviceSpecificAllocation for every allocation", \
      "facts §5.13 (WDK DXGKDDI_OPENALLOCATIONINFO: \"When DxgkDdiOpenAllocation returns STATUS_SUCCESS, the driver sets the hDeviceSpecificAllocation member of the DXGK_OPENALLOCATIONINFO structure for each allocation to a non-NULL value.\")", \
      "reference-impl/vidmm/openalloc.c")                                                          \
    /* GPU virtual addressing (the GpuMmu model, WDDM 2.0), appended */                          \
    X(R_GPUMMU_QUERY, "GPUMMU-QUERY-001", WK_DDI_QUERY_ADAPTER_INFO,                               \
      "a driver that sets VirtualAddressingSupported and GpuMmuSupported answers DXGKQAITYPE_GPUMMUCAPS and DXGKQAITYPE_PAGETABLELEVELDESC of each of its levels with STATUS_SUCCESS", \
      "docs/wddm-gpummu-facts.md 1.1, 2.1 (gpu-virtual-address: the KMD fills DXGK_GPUMMUCAPS and one DXGK_PAGE_TABLE_LEVEL_DESC per level during DxgkDdiQueryAdapterInfo; every level is described by one descriptor)", \
      "reference-impl/vidmm/gpummu_caps.c")                                                        \
    X(R_GPUMMU_CAPS, "GPUMMU-CAPS-001", WK_DDI_QUERY_ADAPTER_INFO,                                 \
      "DXGK_GPUMMUCAPS: PageTableLevelCount is 2 to 6, LeafPageTableSizeFor64KPagesInBytes a multiple of 4096, PageTableUpdateMode a DXGK_PAGETABLEUPDATEMODE, the reserved flag and LegacyBehaviors bits zero", \
      "docs/wddm-gpummu-facts.md 1.2 (d3dukmdt.h DXGK_MIN_PAGE_TABLE_LEVEL_COUNT 2, DXGK_MAX_PAGE_TABLE_LEVEL_COUNT 6; DXGK_GPUMMUCAPS: the 64 KB-page leaf size is a multiple of 4096), 1.3 (the Reserved bits)", \
      "reference-impl/vidmm/gpummu_caps.c")                                                        \
    X(R_GPUMMU_LEVEL, "GPUMMU-LEVEL-001", WK_DDI_QUERY_ADAPTER_INFO,                               \
      "DXGK_PAGE_TABLE_LEVEL_DESC: PageTableSizeInBytes is a non-zero multiple of the 4096-byte CPU page (0 allowed for the resizable root of a 2-level tree), both segment ids name system memory (0) or a reported segment, a table in system memory is at most 4096 bytes, a level indexes at least one address bit, and no level's tables are in a memory segment when the caps name the CPU_VIRTUAL update mode", \
      "docs/wddm-gpummu-facts.md 2.3 (DXGK_PAGE_TABLE_LEVEL_DESC: a table's size is a multiple of the CPU page size; segment 0 is system memory, where a page table is at most 4 KB), 1.2 and 5.6 R2 (if page tables live in a local-memory segment the update mode may not be CPU_VIRTUAL), 5.2 T4", \
      "reference-impl/vidmm/gpummu_caps.c")                                                        \
    X(R_PAGING_UPDATEPT, "PAGING-UPDATEPT-001", WK_DDI_BUILD_PAGING_BUFFER,                        \
      "after UPDATE_PAGE_TABLE ran, each of the NumPageTableEntries entries from StartIndex of the table at PageTableAddress reads, as the GPU reads it, as its DXGK_PTE (pPageTableEntries[i], or [0] for all with Repeat): valid or not, the page (leaf) or lower table it points at, read-only", \
      "docs/wddm-gpummu-facts.md 4.2 (DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE: pPageTableEntries is the array of entries to write, element 0 at StartIndex; Repeat: entry 0 copied to all), 6 (DXGK_PTE: Valid, ReadOnly, Segment and the address in 4 KB units, segment-relative), 5.1 M2 (the driver translates the generic DXGK_PTE into the hardware's format)", \
      "reference-impl/vidmm/gpuva.c")                                                              \
    X(R_PAGING_FLUSHTLB, "PAGING-FLUSHTLB-001", WK_DDI_BUILD_PAGING_BUFFER,                        \
      "after FLUSH_TLB ran, the GPU holds no cached translation of the address space whose root is RootPageTableAddress in the range it names", \
      "docs/wddm-gpummu-facts.md 4.3 (FLUSH_TLB: the translations cached for the root table at RootPageTableAddress, in StartVirtualAddress..EndVirtualAddress, must go)", \
      "reference-impl/vidmm/gpuva.c")                                                              \
    X(R_SUBMITV_STATUS, "SUBMITV-STATUS-001", WK_DDI_SUBMIT_COMMAND_VIRTUAL,                       \
      "SubmitCommandVirtual returns SUCCESS, or STATUS_INVALID_PARAMETER only for a DMA buffer or private data it finds malformed (the GPU's own commands at mapped addresses with no private data are not)", \
      "docs/wddm-gpummu-facts.md 3.1 (DxgkDdiSubmitCommandVirtual: SUCCESS; STATUS_INVALID_PARAMETER if the DMA buffer or its private data is malformed; anything else is a bug check)", \
      "reference-impl/vidmm/gpuva_context.c")                                                      \
    X(R_SUBMITV_GPU, "SUBMITV-GPU-001", WK_DDI_SUBMIT_COMMAND_VIRTUAL,                             \
      "a virtual context's DMA buffer runs on the GPU without a fault, in its process's address space under the root table DxgkDdiSetRootPageTable last named for the context (a two-level tree's root bounded by the NumEntries it named: on the kit's GPU, RING_ROOT_ENTRIES)", \
      "docs/wddm-gpummu-facts.md 3.5 (the driver must make sure the right address space, the root page table of that context's process, is active before the GPU runs the buffer), 3.4 (SetRootPageTable is called again when the root is relocated; NumEntries: the GPU must fault on any VA whose root index is at or past it)", \
      "reference-impl/vidmm/gpuva_context.c")                                                      \
    X(R_PAGEFAULT_NOTIFY, "PAGEFAULT-NOTIFY-001", WK_DDI_CB_NOTIFY_INTERRUPT,                      \
      "a virtual context's DMA buffer that faulted on a GPU virtual address (nothing mapped there, a write to a read-only page, an entry the GPU cannot read) is reported to the kernel as a page fault, DXGK_INTERRUPT_DMA_PAGE_FAULTED, not as DMA_FAULTED or DMA_COMPLETED", \
      "docs/wddm-gpummu-facts.md 5.5 F1, F2 (access-to-non-resident-allocation: for engines that support GPU virtual addressing the GPU raises an unrecoverable page fault interrupt, and the kernel-mode driver needs to forward the error to the graphics kernel through the page fault notification)", \
      "reference-impl/vidmm/page_fault.c")                                                         \
    X(R_PAGEFAULT_FENCE, "PAGEFAULT-FENCE-001", WK_DDI_CB_NOTIFY_INTERRUPT,                        \
      "a DMA_PAGE_FAULTED report without DXGK_PAGE_FAULT_FENCE_INVALID names in FaultedFenceId the fence of the submission whose buffer faulted, pending on the node it names (not one whose buffer ran without a fault)", \
      "docs/wddm-gpummu-facts.md 5.5 F4 (DXGK_PAGE_FAULT_FLAGS: when FENCE_INVALID is not set, the DMA packet submitted with FaultedFenceId was the cause of the fault; pending packets with lower fence ids are treated as completed)", \
      "reference-impl/vidmm/page_fault.c")                                                         \
    X(R_PAGEFAULT_FLAGS, "PAGEFAULT-FLAGS-001", WK_DDI_CB_NOTIFY_INTERRUPT,                        \
      "a DMA_PAGE_FAULTED report with DXGK_PAGE_FAULT_FENCE_INVALID (the faulting packet unknown) also sets one of the flags after it that asks for the recovery (ADAPTER_RESET_REQUIRED, ENGINE_RESET_REQUIRED or FATAL_HARDWARE_ERROR): the reset the kernel must then do", \
      "docs/wddm-gpummu-facts.md 5.5 F4, 5.6 R9 (DXGK_PAGE_FAULT_FLAGS: with FENCE_INVALID the OS will have to perform a GPU reset action, and one of the subsequent bits will have to be set)", \
      "reference-impl/vidmm/page_fault.c")                                                         \
    X(R_INTR_NOTIFY_IRQL, "INTR-IRQL-001", WK_DDI_CB_NOTIFY_INTERRUPT,                             \
      "DxgkCbNotifyInterrupt is called at the device's IRQL: from DxgkDdiInterruptRoutine, or from a routine DxgkCbSynchronizeExecution runs, never from the DPC routine or a DDI at PASSIVE_LEVEL", \
      "WDK d3dkmddi.h DXGKCB_NOTIFY_INTERRUPT: _IRQL_requires_(HIGH_LEVEL), \"HIGH_LEVEL is best approximation of DIRQL\" (docs/wddm-gpummu-facts.md 5.5 F5); the DXGKCB_NOTIFY_INTERRUPT page: called from the driver's interrupt routine, which runs at the device's IRQL; DxgkCbSynchronizeExecution runs its routine synchronized with the interrupt, at that IRQL", \
      "reference-impl/vidmm/callbacks.c")                                                          \
    X(R_CAPS_TDR, "CAPS-TDR-001", WK_DDI_QUERY_ADAPTER_INFO,                                      \
      "SupportPerEngineTDR requires DxgkDdiResetEngine, DxgkDdiQueryEngineStatus and DxgkDdiQueryDependentEngineGroup", \
      "TDR changes in Windows 8: \"A KMD indicates support for these functions by setting the DXGK_DRIVERCAPS.SupportPerEngineTDR member, in which case it must implement all of the listed functions\" (DxgkDdiQueryDependentEngineGroup, DxgkDdiQueryEngineStatus, DxgkDdiResetEngine)", \
      "reference-impl/vidmm/adapter.c")                                                            \
    X(R_GPUMMU_HW, "GPUMMU-HW-001", WK_DDI_QUERY_ADAPTER_INFO,                                     \
      "the page-table levels a GpuMmu driver reports are its GPU's: as many levels as the GPU walks, each indexing as many address bits, with tables large enough for their entries (PageTableSizeInBytes at least 2^PageTableIndexBitCount entries of the GPU's size); judged against the kit's GPU (docs/gpu-model.md) or a binding's mmu_geometry", \
      "docs/wddm-gpummu-facts.md 2.2, 2.3 (each DXGK_PAGE_TABLE_LEVEL_DESC describes one level of the GPU's page tables: the address bits it indexes and the size of its tables), 5.1 M2 (the hardware's format is the driver's to describe)", \
      "reference-impl/vidmm/gpummu_caps.c")                                                        \
    X(R_PAGING_CPUUPDATE, "PAGING-CPUUPDATE-001", WK_DDI_BUILD_PAGING_BUFFER,                      \
      "an UPDATE_PAGE_TABLE with no paging buffer (pDmaBuffer NULL, UpdateMode CPU_VIRTUAL: the paging process's own tables) is done by the CPU before the call returns: it returns SUCCESS and leaves pDmaBuffer NULL (the entries it wrote through PageTableAddress.CpuVirtual are judged by PAGING-UPDATEPT-001)", \
      "System paging process: \"For these operations, the PageTableUpdateMode is forced to CPU_VIRTUAL and must be done immediately using the CPU (paging buffer should not be used)\"; docs/wddm-gpummu-facts.md 4.2, 5.6 R4", \
      "reference-impl/vidmm/paging.c")                                                             \
    X(R_PAGING_COPYPTE, "PAGING-COPYPTE-001", WK_DDI_BUILD_PAGING_BUFFER,                          \
      "after COPY_PAGE_TABLE_ENTRIES ran, each range's NumPageTableEntries entries from DstStartPteIndex of the table at DstPageTableAddress hold the bytes the entries from SrcStartPteIndex of the table at SrcPageTableAddress held, and the destination's other entries are unchanged", \
      "seed:DXGKARG_BUILDPAGINGBUFFER CopyPageTableEntries (\"the operation used copy page table entries from one location to another\"); docs/wddm-gpummu-facts.md 4.4 (DXGK_BUILDPAGINGBUFFER_COPY_RANGE), 4.7", \
      "reference-impl/vidmm/gpuva.c")                                                              \
    X(R_CB_NULL, "CB-NULL-001", WK_DDI_CB_NOTIFY_INTERRUPT,                                        \
      "a callback's argument structure is not NULL: DxgkCbNotifyInterrupt's pNotifyInterruptData, and the DXGKARGCB_* argument of DxgkCbCreateContextAllocation, DxgkCbMapContextAllocation and DxgkCbUpdateContextAllocation (the kernel reads them; the call is ignored)", \
      "WDK: each is an [in] (CreateContextAllocation: [in/out]) pointer \"to a\" DXGKARGCB_* structure the callback reads (DXGKCB_NOTIFY_INTERRUPT: \"A pointer to a DXGKARGCB_NOTIFY_INTERRUPT_DATA structure that describes interrupt information\"); facts §4.10", \
      "reference-impl/vidmm/callbacks.c")                                                          \
    X(R_TDR_RESET, "TDR-RESET-001", WK_DDI_RESET_FROM_TIMEOUT,                                     \
      "when the kernel resets the adapter (a page fault no per-engine reset recovered, or one reported with ADAPTER_RESET_REQUIRED), the driver has DxgkDdiResetFromTimeout and DxgkDdiRestartFromTimeout, each returns STATUS_SUCCESS, and DxgkDdiResetFromTimeout returns with nothing left queued on the GPU", \
      "Thread Synchronization and TDR: \"If a hardware timeout occurs, the Timeout Detection and Recovery (TDR) process initiates. The GPU scheduler calls the driver's DxgkDdiResetFromTimeout function, which resets the GPU\"; DxgkDdiResetFromTimeout: \"guarantees that the GPU is not writing or reading any memory by the time that DxgkDdiResetFromTimeout returns\"; DxgkDdiResetFromTimeout, DxgkDdiRestartFromTimeout: \"returns STATUS_SUCCESS to indicate that the driver handled the call successfully; otherwise, the operating system bug checks\"; DxgkDdiRestartFromTimeout: \"it must still be implemented\"", \
      "reference-impl/vidmm/tdr.c")                                                                \
    X(R_GPUMMU_ROOTSIZE, "GPUMMU-ROOTSIZE-001", WK_DDI_GET_ROOT_PAGE_TABLE_SIZE,                   \
      "a GpuMmu driver of a 2-level tree has DxgkDdiGetRootPageTableSize, and its answer is a non-zero multiple of the root segment's page size that holds the NumberOfPte entries asked at the GPU's entry size, with NumberOfPte written back no smaller than asked and no larger than the size holds", \
      "DxgkDdiGetRootPageTableSize: \"returns the minimum root page table size, in bytes, that is needed to hold the given number of page table entries. The actual number of entries in the page table could be greater than the given value\"; \"is called only when DXGK_GPUMMUCAPS::PageTableLevelCount is two\"; \"The size must be a multiple of the page size of the GPU memory segment where page table is located\"; DXGKARG_GETROOTPAGETABLESIZE.NumberOfPte [out]: \"The actual number of page table entries in the page table with the returned size\" (docs/wddm-gpummu-facts.md 3.3, 5.6 R3)", \
      "reference-impl/vidmm/root_size.c")                                                         \
    /* Robustness, appended: a mapping used past its documented life */                        \
    X(R_MEM_STALE_VIEW, "MEM-STALE-002", WK_DDI_NONE,                                              \
      "the driver never reads or writes through a MAP_APERTURE_SEGMENT2 operation's CpuVisibleAddress after the allocation's UNMAP_APERTURE_SEGMENT", \
      "seed:DXGKARG_BUILDPAGINGBUFFER MapApertureSegment2.CpuVisibleAddress (\"This address is valid as long as the allocation is mapped into the aperture segment and will be freed immediately after the corresponding DXGK_OPERATION_UNMAP_APERTURE_SEGMENT call for the same allocation.\")", \
      "reference-impl/vidmm/aperture_view.c")

enum wk_rule_id {
#define WK_RULE_ENUM_(name, id, ddi, text, source, where) name,
    WK_RULE_MAP(WK_RULE_ENUM_)
#undef WK_RULE_ENUM_
    WK_RULE_COUNT
};

#endif
