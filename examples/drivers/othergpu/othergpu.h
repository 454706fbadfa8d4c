/* SPDX-License-Identifier: MIT */
/*
 * othergpu.h - what the files of the OtherGPU miniport share: its sizes,
 * its object records, and the DDIs each file implements.
 *
 * OtherGPU is an imaginary GPU, not the kit's GPU model: the driver uses
 * none of gpu.h, writes its own commands and does not declare
 * WK_DRIVER_TARGETS_GPU_MODEL, so `wddmkit conform` runs every contract
 * check on it and skips the checks of what a buffer did (--gpu none).
 *
 * The hardware (the command format, the address encoding, the segment
 * layout) is in othergpu_hw.h, which the GPU's binding includes too
 * (examples/gpus/othergpu/): what both sides must agree on lives there.
 */
#ifndef OTHERGPU_H
#define OTHERGPU_H

#include "wddmkit/km.h"
#include "wddmkit/driver.h"
#include "othergpu_hw.h"

/* A cursor over a buffer the kernel handed over: commands are written
 * whole or not at all, so nothing lands past `size`. */
struct og_writer {
    BYTE *base;
    UINT size;
    UINT used;
};

/* commands.c */
void og_writer_init(struct og_writer *w, VOID *buffer, UINT size);
BOOLEAN og_room(const struct og_writer *w, UINT commands);
void og_emit(struct og_writer *w, UINT op, UINT a, UINT b, UINT c);
void og_emit_addr(struct og_writer *w, UINT op, UINT64 address, UINT c);
void og_encode_addr(BYTE *at, UINT64 address);

/* Pool tag 'OGpu' and record magics: a handle the kernel passes back is
 * used only when its record carries its magic. */
#define OG_TAG 0x7570474Fu
#define OG_DEVICE_MAGIC 0x7665444Fu
#define OG_CONTEXT_MAGIC 0x7874434Fu
#define OG_ALLOCATION_MAGIC 0x6C6C414Fu

/* The driver's own sizes (the hardware's are in othergpu_hw.h). */
#define OG_PAGING_BUFFER_SIZE 0x2000u  /* 8 KiB */
#ifdef OG_DMA_IN_GART                  /* PagingBufferSegmentId: system memory, or the GART */
#define OG_PAGING_SEGMENT OG_SEGMENT_GART
#else
#define OG_PAGING_SEGMENT 0u
#endif
#ifndef OG_DMA_BUFFER_SIZE             /* a variant may ask for more */
#define OG_DMA_BUFFER_SIZE 0x2000u     /* 8 KiB per context */
#endif
#define OG_ALLOCATION_LIST_SIZE 64u
#define OG_GDI_ALLOCATION_LIST_SIZE 256u /* fixed by the DDI (CTX-GDI-001) */
#define OG_PATCH_LIST_SIZE 256u
#define OG_COPY_CHUNK 0x40000u         /* 256 KiB per COPY or FILL record */
#define OG_MAX_SLOT_ID 2u              /* a render group binds two addresses */
#define OG_PRIORITY_NORMAL 0x78000000u

struct og_adapter {
    DXGKRNL_INTERFACE kernel;   /* callbacks, from StartDevice */
    ULONG last_submitted_fence; /* the software ring's tail */
};

struct og_device {
    UINT magic;
};

struct og_context {
    UINT magic;
};

struct og_allocation {
    UINT magic;
    UINT64 size;                /* bytes, as answered in DXGK_ALLOCATIONINFO.Size */
};

/* objects.c: the record behind a handle, or NULL when it is not a live
 * record of this driver. */
const struct og_allocation *og_allocation_get(HANDLE handle);
const struct og_context *og_context_get(HANDLE handle);

/* othergpu.c */
DXGKDDI_ADD_DEVICE OgAddDevice;
DXGKDDI_START_DEVICE OgStartDevice;
DXGKDDI_STOP_DEVICE OgStopDevice;
DXGKDDI_REMOVE_DEVICE OgRemoveDevice;
/* segments.c */
DXGKDDI_QUERYADAPTERINFO OgQueryAdapterInfo;
/* objects.c */
DXGKDDI_CREATEDEVICE OgCreateDevice;
DXGKDDI_DESTROYDEVICE OgDestroyDevice;
DXGKDDI_CREATECONTEXT OgCreateContext;
DXGKDDI_DESTROYCONTEXT OgDestroyContext;
DXGKDDI_CREATEALLOCATION OgCreateAllocation;
DXGKDDI_DESTROYALLOCATION OgDestroyAllocation;
/* paging.c */
DXGKDDI_BUILDPAGINGBUFFER OgBuildPagingBuffer;
/* render.c */
DXGKDDI_RENDER OgRender;
/* submit.c */
DXGKDDI_PATCH OgPatch;
DXGKDDI_SUBMITCOMMAND OgSubmitCommand;
DXGKDDI_INTERRUPT_ROUTINE OgInterruptRoutine;
DXGKDDI_DPC_ROUTINE OgDpcRoutine;

#endif /* OTHERGPU_H */
