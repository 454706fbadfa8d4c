/* SPDX-License-Identifier: MIT */
/*
 * planted_ctx_dma_in_memory_segment.c - planted bug (CATALOGUE.md, entry
 * 22): DxgkDdiCreateContext asks for its DMA buffers in segment 1, a memory
 * segment (local video memory).
 *
 * The bug as it happens in real drivers: the GPU fetches commands fastest
 * from its own memory, so the author puts DMA buffers there, naming "the
 * VRAM segment" in DmaBufferSegmentSet. But DMA buffers live in aperture
 * segments or, with a set of 0, in contiguous system memory: "a memory
 * segment in it makes context creation fail" (facts §5.7 X1; seed
 * DXGK_CONTEXTINFO, remarks; §5.5 G10: in the basic model DMA buffers are
 * never in local video memory).
 *
 * Expected rule: CTX-SEGSET-001 (DmaBufferSegmentSet names aperture
 * segments only). This wrapper runs the reference driver's CreateContext
 * and then writes the buggy driver's segment set (bit 0: segment 1) into
 * the context information it returns.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* Segment 1 is the memory segment of the kit's adapters (docs/gpu-model.md). */
#define VRAM_SEGMENT_SET (1u << (1 - 1))

static NTSTATUS buggy_create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext)
{
    NTSTATUS st = wk_wrap_reference.DxgkDdiCreateContext(hDevice, pCreateContext);
    if (NT_SUCCESS(st) && pCreateContext)
        pCreateContext->ContextInfo.DmaBufferSegmentSet = VRAM_SEGMENT_SET; /* BUG */
    return st;
}

/* The planted bug: the one DDI this driver replaces. */
static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCreateContext = buggy_create_context;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
