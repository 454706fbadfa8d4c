/* SPDX-License-Identifier: MIT */
/*
 * refdriver.h - private to the reference driver (reference-impl/refdriver).
 *
 * The reference driver is a complete WDDM 2.3-style miniport for the kit's
 * GPU model, written the way a real one is: DriverEntry hands a DDI table to
 * DxgkInitialize, every DDI gets its real argument struct, the hardware is
 * reached through the adapter's registers, and DMA buffers are written in the
 * model's command set. It is the model of a correct driver: it obeys every
 * rule of docs/wddm-facts.md §5 and returns only the statuses of §2.2.
 *
 * Object graph (no global mutable state, everything hangs off the adapter):
 *
 *   rd_adapter  (MiniportDeviceContext, hAdapter of every adapter DDI)
 *     ├─ segment table copied from the model description at StartDevice
 *     ├─ list of rd_allocation objects that back context allocations
 *     └─ rd_device (hDevice)  ─ rd_context (hContext)
 *   rd_allocation (hAllocation of CreateAllocation / hDriverAllocation of a
 *     context allocation)
 *   struct rd_dma_private: what each DMA buffer's pDmaBufferPrivateData holds.
 *
 * Kernel-mode services come from wddmkit/km.h (tagged pool, spin locks,
 * DbgPrintEx, Rtl*), behind the few rd_* wrappers of the "KM SWITCH" block,
 * so the driver builds on anything else that provides those calls.
 */
#ifndef WK_REFDRIVER_PRIVATE_H
#define WK_REFDRIVER_PRIVATE_H

#include "wddmkit/driver.h"
#include "wddmkit/gpu.h"
#include "wddmkit/km.h"
#ifdef RD_MMIO
#include "wddmkit/kmmemory.h" /* MmMapIoSpace, READ_REGISTER_ULONG */
#endif
#include "wddmkit/umd.h"

/* ------------------------------------------------------------------ */
/* Kernel-mode services (KM SWITCH)                                     */
/* ------------------------------------------------------------------ */

/* Pool tag 'WkRd' as it reads in a pool dump. */
#define RD_POOL_TAG 0x64526B57u

/* Zeroed non-paged pool, or NULL. */
static inline void *rd_alloc(SIZE_T bytes)
{
    void *p = ExAllocatePoolWithTag(NonPagedPoolNx, bytes, RD_POOL_TAG);
    if (p)
        RtlZeroMemory(p, bytes);
    return p;
}

/* Frees what rd_alloc returned; NULL is allowed (ExFreePoolWithTag's is not). */
static inline void rd_free(void *p)
{
    if (p)
        ExFreePoolWithTag(p, RD_POOL_TAG);
}

/* DbgPrintEx at trace level: what the driver refuses or ignores. */
#define RD_TRACE(...) DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_TRACE_LEVEL, __VA_ARGS__)

/* The spin lock guarding the adapter's mutable bookkeeping (context ids,
 * the context-allocation list, fence records). Held briefly, never across a
 * callback into the kernel. */
typedef KSPIN_LOCK rd_lock;

static inline void rd_lock_init(rd_lock *l)
{
    KeInitializeSpinLock(l);
}

static inline KIRQL rd_lock_acquire(rd_lock *l)
{
    KIRQL old;
    KeAcquireSpinLock(l, &old);
    return old;
}

static inline void rd_lock_release(rd_lock *l, KIRQL old)
{
    KeReleaseSpinLock(l, old);
}

/* ------------------------------------------------------------------ */
/* Choices of the reference driver (docs/refdriver.md, "Caps")          */
/* ------------------------------------------------------------------ */

#define RD_MAGIC_ADAPTER 0x41644B57u    /* 'WKdA' */
#define RD_MAGIC_DEVICE 0x44644B57u     /* 'WKdD' */
#define RD_MAGIC_CONTEXT 0x43644B57u    /* 'WKdC' */
#define RD_MAGIC_ALLOCATION 0x4C644B57u /* 'WKdL' */
#define RD_MAGIC_DMA 0x42644B57u        /* 'WKdB': struct rd_dma_private */
#define RD_MAGIC_CONTEXT_BLOB 0x58434452u /* 'RDCX': context-allocation blob */

#define RD_MAX_SLOT_ID 16u             /* DXGK_DRIVERCAPS.MaxAllocationListSlotId */
#define RD_DMA_BUFFER_SIZE 0x4000u     /* per context, a multiple of 4 KiB */
#define RD_PAGING_BUFFER_SIZE 0x4000u  /* DXGK_QUERYSEGMENTOUT(3/4).PagingBufferSize */
#define RD_ALLOCATION_LIST_SIZE 64u    /* non-GDI contexts */
#define RD_PATCH_LIST_SIZE 256u
#define RD_CHUNK 0x10000u              /* largest COPY/FILL a paging op emits */
#define RD_CONTEXT_ALLOCATION_SIZE 0x1000u
#define RD_PRIORITY_NORMAL 0x78000000u /* D3DDDI_ALLOCATIONPRIORITY_NORMAL */
#define RD_MAX_NODES 8u

/* ------------------------------------------------------------------ */
/* Objects                                                              */
/* ------------------------------------------------------------------ */

struct rd_segment {
    enum wk_gpu_segment_kind kind;
    UINT64 base;
    UINT64 size;
    UINT bank_count;          /* 0: not banked */
    SIZE_T *bank_table;       /* bank_count ends; the last is the segment size */
};

struct rd_allocation;

struct rd_adapter {
    ULONG magic;
    PDEVICE_OBJECT pdo;
    BOOLEAN started;
    DXGKRNL_INTERFACE dxgk;   /* copied at StartDevice */
    UINT segment_count;
    struct rd_segment segments[WK_GPU_MAX_SEGMENTS]; /* id = index + 1 */
    UINT memory_set;          /* bit (id - 1) per memory segment */
    UINT aperture_set;        /* bit (id - 1) per aperture segment */
    UINT64 aperture_bytes;
    UINT64 sysmem_end;        /* first GPU address past system memory */
    /* The GpuMmu build: the paging process's root, which SetRootPageTable
     * gave the system context (paging submissions name no context, P25). */
    D3DGPU_PHYSICAL_ADDRESS paging_root;
    UINT paging_root_entries;     /* its NumEntries (the two-level build programs them) */
    /* Whether the kernel learnt the banks: QUERYSEGMENT3 reports them,
     * QUERYSEGMENT4 cannot (facts 5.6 B7); bank hints follow the last one. */
    BOOLEAN banks_reported;
    rd_lock lock;
    ULONG next_context_id;
    struct rd_allocation *context_allocations; /* list, for InitContextResource */
    UINT submitted_fence[RD_MAX_NODES];
    UCHAR node_of_fence[256]; /* the node each recent fence was submitted to (fence & 255): its completion
                                 names it (INTR-ORDINAL-001); the kit's GPU runs every node's buffers in order */
    UINT completed_fence;
    UINT faulted_fence;
    ULONG dpc_count;
    PUCHAR regs;              /* RD_MMIO: BAR0, mapped at StartDevice (adapter.c) */
};

/* A driver allocation: from CreateAllocation, or the driver side of a
 * context allocation (then `next` links it into the adapter's list and
 * kernel_handle is DXGKARGCB_CREATECONTEXTALLOCATION.hAllocation). */
struct rd_allocation {
    ULONG magic;
    BOOLEAN context_allocation;
    SIZE_T size;
    UINT alignment;
    DXGK_ALLOCATIONINFOFLAGS flags;
    HANDLE kernel_handle;
    /* While DxgkCbCreateContextAllocation runs: its arguments, whose
     * hAllocation the kernel may already use in InitContextResource. */
    const DXGKARGCB_CREATECONTEXTALLOCATION *creating;
    struct rd_allocation *next;
};

struct rd_device {
    ULONG magic;
    struct rd_adapter *adapter;
    HANDLE runtime_handle;    /* the kernel's hDevice, for the callbacks */
    BOOLEAN system_device;
    struct rd_allocation *device_allocation; /* NULL for the system device */
};

/* What the driver writes into a context allocation through
 * DxgkCbUpdateContextAllocation (UPDATE_CONTEXT_ALLOCATION, facts 5.8 A6). */
struct rd_context_blob {
    UINT magic;               /* RD_MAGIC_CONTEXT_BLOB */
    UINT context_id;
};

struct rd_context {
    ULONG magic;
    struct rd_device *device;
    HANDLE runtime_handle;
    UINT node;
    DXGK_CREATECONTEXTFLAGS flags;
    UINT id;
    struct rd_allocation *context_allocation; /* NULL for the system context */
    struct rd_context_blob blob;
    /* DxgkDdiSetRootPageTable (the GpuMmu build): the root and its entries. */
    D3DGPU_PHYSICAL_ADDRESS root;
    UINT root_entries;
    /* A virtual context's allocation in its process (DxgkCbMapContextAllocation,
     * the GpuMmu build), 0 when not mapped. */
    D3DGPU_VIRTUAL_ADDRESS context_va;
};

/* Bookkeeping per DMA buffer, in pDmaBufferPrivateData (facts 5.7 X4: zeroed
 * at creation, never read by VidMm). Informational only: no DDI derives its
 * output from it, so a lost or fresh private area changes nothing. */
/* RD_DMA_PAGING_VIRTUAL: a paging buffer of operations at the paging
 * process's addresses (the GpuMmu build's TRANSFER_VIRTUAL, FILL_VIRTUAL),
 * which runs under the system context's root (submit.c).
 * RD_DMA_PAGING_PHYSICAL: READ/WRITE_PHYSICAL in a build that runs every
 * other paging buffer in the paging process (RD_LEGAL_MOST_IN_PP). */
enum rd_dma_kind {
    RD_DMA_NONE = 0, RD_DMA_PAGING = 1, RD_DMA_RENDER = 2, RD_DMA_CANCELLED = 3, RD_DMA_PAGING_VIRTUAL = 4,
    RD_DMA_PAGING_PHYSICAL = 5
};

struct rd_dma_private {
    UINT magic;               /* RD_MAGIC_DMA once written */
    UINT kind;                /* enum rd_dma_kind */
    UINT context_id;
    UINT commands;            /* model commands written */
    UINT patches;             /* patch locations written (render) */
    UINT first_record;        /* render: byte offset of the first record translated */
    UINT next_record;         /* render: byte offset after the last one */
    UINT submissions;         /* SubmitCommand calls that named this buffer */
};

/* ------------------------------------------------------------------ */
/* DDIs (one file each, see the file list in docs/refdriver.md)         */
/* ------------------------------------------------------------------ */

/* adapter.c */
DXGKDDI_ADD_DEVICE wk_rd_add_device;
DXGKDDI_START_DEVICE wk_rd_start_device;
DXGKDDI_STOP_DEVICE wk_rd_stop_device;
DXGKDDI_REMOVE_DEVICE wk_rd_remove_device;
DXGKDDI_QUERYADAPTERINFO wk_rd_query_adapter_info;
/* device.c */
DXGKDDI_CREATEDEVICE wk_rd_create_device;
DXGKDDI_DESTROYDEVICE wk_rd_destroy_device;
/* context.c */
DXGKDDI_CREATECONTEXT wk_rd_create_context;
DXGKDDI_DESTROYCONTEXT wk_rd_destroy_context;
/* allocation.c */
DXGKDDI_CREATEALLOCATION wk_rd_create_allocation;
DXGKDDI_DESTROYALLOCATION wk_rd_destroy_allocation;
/* open.c */
DXGKDDI_OPENALLOCATIONINFO wk_rd_open_allocation;
DXGKDDI_CLOSEALLOCATION wk_rd_close_allocation;
/* paging.c */
DXGKDDI_BUILDPAGINGBUFFER wk_rd_build_paging_buffer;
/* render.c */
DXGKDDI_RENDER wk_rd_render;
/* patch.c */
DXGKDDI_PATCH wk_rd_patch;
/* submit.c */
DXGKDDI_SUBMITCOMMAND wk_rd_submit_command;
DXGKDDI_CANCELCOMMAND wk_rd_cancel_command;
/* interrupt.c */
DXGKDDI_INTERRUPT_ROUTINE wk_rd_interrupt_routine;
DXGKDDI_DPC_ROUTINE wk_rd_dpc_routine;

/* ------------------------------------------------------------------ */
/* Shared helpers                                                       */
/* ------------------------------------------------------------------ */

/* Handles back to objects; NULL when the handle is not one of ours. */
static inline struct rd_adapter *rd_adapter_from(HANDLE h)
{
    struct rd_adapter *a = (struct rd_adapter *)h;
    return a && a->magic == RD_MAGIC_ADAPTER ? a : NULL;
}

static inline struct rd_device *rd_device_from(HANDLE h)
{
    struct rd_device *d = (struct rd_device *)h;
    return d && d->magic == RD_MAGIC_DEVICE ? d : NULL;
}

static inline struct rd_context *rd_context_from(HANDLE h)
{
    struct rd_context *c = (struct rd_context *)h;
    return c && c->magic == RD_MAGIC_CONTEXT ? c : NULL;
}

static inline struct rd_allocation *rd_allocation_from(HANDLE h)
{
    struct rd_allocation *a = (struct rd_allocation *)h;
    return a && a->magic == RD_MAGIC_ALLOCATION ? a : NULL;
}

/* Segment `id` (1-based), or NULL. */
static inline const struct rd_segment *rd_segment(const struct rd_adapter *a, UINT id)
{
    return id >= 1 && id <= a->segment_count ? &a->segments[id - 1] : NULL;
}

/* Every segment the driver reports, as a segment set (facts 5.5 G2). */
static inline UINT rd_all_segments(const struct rd_adapter *a)
{
    return a->memory_set | a->aperture_set;
}

/* Writes a register of the adapter's BAR: through the kit's
 * WkWriteRegister32, or, built with RD_MMIO, the WDK way: WRITE_REGISTER_ULONG
 * on BAR0 as MmMapIoSpace mapped it from the translated resources. Both
 * reach the same registers of the GPU model (docs/writing-a-driver.md,
 * "Registers and resources"). */
static inline void rd_write_reg(struct rd_adapter *a, ULONG offset, ULONG value)
{
#ifdef RD_MMIO
    WRITE_REGISTER_ULONG((volatile ULONG *)(a->regs + offset), value);
#else
    a->dxgk.WkWriteRegister32(a->dxgk.DeviceHandle, offset, value);
#endif
}

static inline ULONG rd_read_reg(struct rd_adapter *a, ULONG offset)
{
#ifdef RD_MMIO
    return READ_REGISTER_ULONG((volatile ULONG *)(a->regs + offset));
#else
    return a->dxgk.WkReadRegister32(a->dxgk.DeviceHandle, offset);
#endif
}

/* The private area of a DMA buffer, when it is large enough for ours. */
static inline struct rd_dma_private *rd_dma_private_of(VOID *p, UINT size)
{
    if (!p || size < sizeof(struct rd_dma_private) || ((uintptr_t)p & 3u) != 0)
        return NULL;
    return (struct rd_dma_private *)p;
}

/* context.c: creates / destroys the driver and kernel sides of a context
 * allocation (facts 5.8). hContext NULL and shared=1 make a device one. */
NTSTATUS wk_rd_context_allocation_create(struct rd_device *dev, HANDLE runtime_context,
                                      BOOLEAN shared, struct rd_allocation **out);
void wk_rd_context_allocation_destroy(struct rd_adapter *adapter, struct rd_allocation *alloc);
/* The context allocation a paging operation names, by the driver's
 * hDriverAllocation or by the kernel's hAllocation (facts 4.10 vs the
 * InitContextResource page disagree on which one comes back). */
struct rd_allocation *wk_rd_context_allocation_find(struct rd_adapter *adapter, HANDLE h);

/* paging.c: a resumable COPY between, or FILL of, contiguous GPU ranges
 * (progress in MultipassOffset), for the GpuMmu build's virtual operations. */
NTSTATUS rd_copy_range(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w, UINT64 src, UINT64 dst,
                       UINT64 size);
NTSTATUS rd_fill_range(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w, UINT64 address, UINT64 size,
                       UINT pattern);

/* How one encoder call of a paging operation ended (paging.c, gpummu.c):
 * written, out of room (INSUFFICIENT_DMA_BUFFER: go multipass), or refused
 * by the encoder (traced; the operation ends without writing further). */
enum rd_emit_result { RD_EMIT_OK, RD_EMIT_FULL, RD_EMIT_ABANDON };

static inline enum rd_emit_result rd_emit_result_of(wk_status st)
{
    if (st == WK_OK)
        return RD_EMIT_OK;
    if (st == WK_E_NO_SPACE)
        return RD_EMIT_FULL;
    RD_TRACE("refdriver: BuildPagingBuffer: encoder refused a command (%s)\n", wk_status_name(st));
    return RD_EMIT_ABANDON;
}

static inline NTSTATUS rd_status_of(enum rd_emit_result r)
{
    return r == RD_EMIT_FULL ? STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER : STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* The GpuMmu build (RD_GPUMMU: gpummu.c, docs/refdriver.md)            */
/* ------------------------------------------------------------------ */

/* timeout.c: DxgkDdiResetFromTimeout and DxgkDdiRestartFromTimeout into init. */
void wk_rd_timeout_ddis(DRIVER_INITIALIZATION_DATA *init);

/* The hooks the shared files call; in the physical build they add nothing
 * and answer nothing, so that build is what it always was. */
#ifdef RD_GPUMMU
/* DriverEntry: CreateProcess, DestroyProcess, SetRootPageTable. */
void wk_rd_gpummu_ddis(DRIVER_INITIALIZATION_DATA *init);
/* DRIVERCAPS: VirtualAddressingSupported, GpuMmuSupported. */
void wk_rd_gpummu_caps(DXGK_DRIVERCAPS *caps);
/* GPUMMUCAPS and PAGETABLELEVELDESC: TRUE and *st when q is one of them. */
BOOLEAN wk_rd_gpummu_query(struct rd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q, NTSTATUS *st);
/* UPDATE_PAGE_TABLE and FLUSH_TLB: TRUE and *st when args is one of them. */
BOOLEAN wk_rd_gpummu_paging(struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w,
                            NTSTATUS *st);
/* CreateContext of a virtual context: its allocation mapped in its process. */
NTSTATUS wk_rd_gpummu_map_context(struct rd_context *ctx);
/* SubmitCommand of a buffer of kind `kind`: the root RING_ROOT names for
 * it (the paging process's, for a paging buffer of its operations), 0 to
 * run it physically. The two-level build also programs that root's
 * entries (RING_ROOT_ENTRIES) when it names one. */
UINT64 wk_rd_gpummu_submit_root(struct rd_adapter *a, UINT kind);
/* engine_reset.c: ResetEngine, QueryEngineStatus, QueryDependentEngineGroup
 * into init, SupportPerEngineTDR into caps (either may be NULL). */
void wk_rd_engine_reset_ddis(DRIVER_INITIALIZATION_DATA *init, DXGK_DRIVERCAPS *caps);
#else
static inline NTSTATUS wk_rd_gpummu_map_context(struct rd_context *ctx)
{
    UNREFERENCED_PARAMETER(ctx);
    return STATUS_SUCCESS;
}

static inline UINT64 wk_rd_gpummu_submit_root(struct rd_adapter *a, UINT kind)
{
    UNREFERENCED_PARAMETER(a);
    UNREFERENCED_PARAMETER(kind);
    return 0;
}

static inline void wk_rd_gpummu_ddis(DRIVER_INITIALIZATION_DATA *init)
{
    UNREFERENCED_PARAMETER(init);
}

static inline void wk_rd_gpummu_caps(DXGK_DRIVERCAPS *caps)
{
    UNREFERENCED_PARAMETER(caps);
}

static inline BOOLEAN wk_rd_gpummu_query(struct rd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q, NTSTATUS *st)
{
    UNREFERENCED_PARAMETER(a);
    UNREFERENCED_PARAMETER(q);
    UNREFERENCED_PARAMETER(st);
    return FALSE;
}

static inline BOOLEAN wk_rd_gpummu_paging(struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                                          struct wk_gpu_writer *w, NTSTATUS *st)
{
    UNREFERENCED_PARAMETER(a);
    UNREFERENCED_PARAMETER(args);
    UNREFERENCED_PARAMETER(w);
    UNREFERENCED_PARAMETER(st);
    return FALSE;
}
#endif

/* Little-endian 64-bit store into a DMA buffer (patch and pre-patch). */
static inline void rd_put_le64(BYTE *p, UINT64 v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (BYTE)(v >> (8 * i));
}

#endif /* WK_REFDRIVER_PRIVATE_H */
