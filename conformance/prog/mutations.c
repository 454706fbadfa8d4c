/* SPDX-License-Identifier: MIT */
/*
 * mutations.c - the catalogue of answer corruptions negative cases use.
 *
 * Each mutation turns one correct answer of the reference driver into a
 * wrong one, the way a buggy driver would give it, so that every contract
 * rule can be shown to fire without a broken driver binary. A mutation runs
 * through vidmm's rewriter, inside the DDI's guarded frame: a mutation that
 * crashes, hangs or writes past a buffer is caught as the driver doing so.
 *
 * Mutations that edit what the driver wrote into a DMA buffer rely on the
 * reference driver's documented encodings (docs/refdriver.md,
 * docs/gpu-model.md): the last command before pDmaBuffer and its operand
 * offsets. They check that the bytes they edit are the command they expect
 * and do nothing otherwise, so a mismatch shows up as a case that fails to
 * trip its rule, never as a kit crash.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "conform.h"
#include "wddmkit/gpu.h"

typedef int match_fn(const void *args);
/* n: how many times this mutation has been applied in the run, this one
 * included (mutations that must differ from call to call use it). */
typedef void apply_fn(void *args, NTSTATUS *status, int64_t param, uint32_t n);

/* A corruption of any DDI's answer (pub.ddi WK_DDI_NONE): every answer
 * counts as a matching call. */
typedef void any_apply_fn(enum wk_ddi ddi, void *a, NTSTATUS *st, int64_t p);

struct mutation_row {
    struct wk_mutation pub;
    match_fn *match;
    apply_fn *apply;
    any_apply_fn *any;
};

/* ------------------------------------------------------------------ */
/* Any DDI: garbage where the answer is                                 */
/* ------------------------------------------------------------------ */

/* The argument struct each DDI's rewrite gets (wddmkit/vidmm.h,
 * wk_vidmm_rewrite_fn); 0 where there is none (InterruptRoutine: NULL). */
static size_t answer_size(enum wk_ddi ddi)
{
    switch (ddi) {
    case WK_DDI_QUERY_ADAPTER_INFO: return sizeof(DXGKARG_QUERYADAPTERINFO);
    case WK_DDI_START_DEVICE: return sizeof(DXGK_START_INFO);
    case WK_DDI_CREATE_DEVICE: return sizeof(DXGKARG_CREATEDEVICE);
    case WK_DDI_CREATE_ALLOCATION: return sizeof(DXGKARG_CREATEALLOCATION);
    case WK_DDI_CREATE_CONTEXT: return sizeof(DXGKARG_CREATECONTEXT);
    case WK_DDI_BUILD_PAGING_BUFFER: return sizeof(DXGKARG_BUILDPAGINGBUFFER);
    case WK_DDI_RENDER: return sizeof(DXGKARG_RENDER);
    case WK_DDI_PATCH: return sizeof(DXGKARG_PATCH);
    case WK_DDI_SUBMIT_COMMAND: return sizeof(DXGKARG_SUBMITCOMMAND);
    case WK_DDI_CANCEL_COMMAND: return sizeof(DXGKARG_CANCELCOMMAND);
    case WK_DDI_CB_CREATE_CONTEXT_ALLOCATION: return sizeof(DXGKARGCB_CREATECONTEXTALLOCATION);
    case WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION: return sizeof(HANDLE);
    case WK_DDI_CB_NOTIFY_INTERRUPT: return sizeof(DXGKARGCB_NOTIFY_INTERRUPT_DATA);
    default: return 0;
    }
}

/* Where a DDI's answer holds the driver's own handle for an object: an
 * opaque value the kernel keeps and hands back to the driver as it is (the
 * catalogue's *-null-handle mutations cover the one value the kernel can
 * judge). Garbage there makes the driver crash on its own handle later,
 * which says nothing about the kit. */
static int is_driver_handle(enum wk_ddi ddi, size_t at)
{
    size_t from;
    switch (ddi) {
    case WK_DDI_CREATE_DEVICE: from = offsetof(DXGKARG_CREATEDEVICE, hDevice); break;
    case WK_DDI_CREATE_CONTEXT: from = offsetof(DXGKARG_CREATECONTEXT, hContext); break;
    case WK_DDI_CREATE_ALLOCATION: from = offsetof(DXGKARG_CREATEALLOCATION, hResource); break;
    default: return 0;
    }
    return at >= from && at < from + sizeof(HANDLE);
}

/* Byte (param & 0xffff) of the argument struct, modulo its size, becomes
 * (param >> 16) & 0xff: a driver writing garbage anywhere it can reach,
 * [in] fields and the pointers the kernel handed it included (not its own
 * object handles: is_driver_handle). */
static void any_answer_byte(enum wk_ddi ddi, void *a, NTSTATUS *st, int64_t p)
{
    (void)st;
    size_t n = answer_size(ddi);
    size_t at = n ? (size_t)(p & 0xFFFF) % n : 0;
    if (a && n && !is_driver_handle(ddi, at))
        ((uint8_t *)a)[at] = (uint8_t)(p >> 16);
}

/* The bytes an answer hands back through a pointer of the kit's: what
 * QueryAdapterInfo wrote into pOutputData, then the segment descriptors of
 * a QUERYSEGMENT3/4 fill call; CreateAllocation's DXGK_ALLOCATIONINFO
 * entries; CreateDevice's DXGK_DEVICEINFO. The rewrite runs right after
 * the call, so the pointers are still the kit's (sizes as the kit made the
 * buffers: the query's, or the descriptors the count call announced, at
 * most 32 of at most 256 bytes each). NULL when the answer has none. */
static uint8_t *output_span(enum wk_ddi ddi, void *a, size_t *n, uint8_t **second, size_t *second_n)
{
    *second = NULL;
    *second_n = 0;
    if (ddi == WK_DDI_QUERY_ADAPTER_INFO) {
        DXGKARG_QUERYADAPTERINFO *q = a;
        *n = q->OutputDataSize;
        if (q->Type == DXGKQAITYPE_QUERYSEGMENT3 && q->OutputDataSize >= sizeof(DXGK_QUERYSEGMENTOUT3)) {
            DXGK_QUERYSEGMENTOUT3 *o = q->pOutputData;
            *second = (uint8_t *)o->pSegmentDescriptor;
            *second_n = (o->NbSegment < 32 ? o->NbSegment : 32) * sizeof(DXGK_SEGMENTDESCRIPTOR3);
        } else if (q->Type == DXGKQAITYPE_QUERYSEGMENT4 && q->OutputDataSize >= sizeof(DXGK_QUERYSEGMENTOUT4)) {
            DXGK_QUERYSEGMENTOUT4 *o = q->pOutputData;
            size_t stride = o->SegmentDescriptorStride <= 256 ? o->SegmentDescriptorStride : 0;
            *second = o->pSegmentDescriptor;
            *second_n = (o->NbSegment < 32 ? o->NbSegment : 32) * stride;
        }
        return q->pOutputData;
    }
    if (ddi == WK_DDI_CREATE_ALLOCATION) {
        DXGKARG_CREATEALLOCATION *c = a;
        *n = (size_t)(c->NumAllocations < 16 ? c->NumAllocations : 16) * sizeof(DXGK_ALLOCATIONINFO);
        return (uint8_t *)c->pAllocationInfo;
    }
    if (ddi == WK_DDI_CREATE_DEVICE) {
        *n = sizeof(DXGK_DEVICEINFO);
        return (uint8_t *)((DXGKARG_CREATEDEVICE *)a)->pInfo;
    }
    *n = 0;
    return NULL;
}

/* Byte (param & 0xffff) of what the answer handed back through a pointer
 * (output_span: the first span, then the second, the offset modulo their
 * total) becomes (param >> 16) & 0xff: garbage in the data the kit parses,
 * segment descriptors and allocation info included. */
static void any_output_byte(enum wk_ddi ddi, void *a, NTSTATUS *st, int64_t p)
{
    (void)st;
    size_t n = 0, n2 = 0;
    uint8_t *second = NULL, *first = a ? output_span(ddi, a, &n, &second, &n2) : NULL;
    if (!first)
        n = 0;
    if (!second)
        n2 = 0;
    if (n + n2 == 0)
        return;
    size_t at = (size_t)(p & 0xFFFF) % (n + n2);
    size_t in_entry = at % sizeof(DXGK_ALLOCATIONINFO), h = offsetof(DXGK_ALLOCATIONINFO, hAllocation);
    if (ddi == WK_DDI_CREATE_ALLOCATION && in_entry >= h && in_entry < h + sizeof(HANDLE))
        return; /* the driver's own handle (is_driver_handle) */
    uint8_t *where = at < n ? first + at : second + (at - n);
    *where = (uint8_t)(p >> 16);
}

/* Byte (param & 0xff) + 1 before where Render or BuildPagingBuffer left
 * pDmaBuffer, in the commands it just wrote, becomes (param >> 16) & 0xff:
 * a command stream the GPU model must fault on, or run, and the kit must
 * account for either way. When the call wrote fewer bytes, the byte is an
 * earlier one, or before the buffer (its canary: MEM-GUARD-001). The
 * rewrite runs in the DDI's guarded frame, as the driver's own write. */
static void any_dma_byte(enum wk_ddi ddi, void *a, NTSTATUS *st, int64_t p)
{
    (void)st;
    uint8_t *end = NULL;
    if (ddi == WK_DDI_RENDER && a)
        end = ((DXGKARG_RENDER *)a)->pDmaBuffer;
    else if (ddi == WK_DDI_BUILD_PAGING_BUFFER && a)
        end = ((DXGKARG_BUILDPAGINGBUFFER *)a)->pDmaBuffer;
    if (end)
        end[-1 - (ptrdiff_t)(p & 0xFF)] = (uint8_t)(p >> 16);
}

/* The status becomes param (InterruptRoutine: its BOOLEAN answer). */
static void any_status(enum wk_ddi ddi, void *a, NTSTATUS *st, int64_t p)
{
    (void)ddi, (void)a;
    *st = (NTSTATUS)(uint32_t)p;
}

/* ------------------------------------------------------------------ */
/* Matchers                                                             */
/* ------------------------------------------------------------------ */

static int caps_query(const void *a)
{
    return ((const DXGKARG_QUERYADAPTERINFO *)a)->Type == DXGKQAITYPE_DRIVERCAPS;
}

/* The second segment query call: the one with descriptors. */
static int seg3_fill(const void *a)
{
    const DXGKARG_QUERYADAPTERINFO *q = a;
    return q->Type == DXGKQAITYPE_QUERYSEGMENT3 &&
           ((const DXGK_QUERYSEGMENTOUT3 *)q->pOutputData)->pSegmentDescriptor != NULL;
}

static int seg3_count(const void *a)
{
    const DXGKARG_QUERYADAPTERINFO *q = a;
    return q->Type == DXGKQAITYPE_QUERYSEGMENT3 &&
           ((const DXGK_QUERYSEGMENTOUT3 *)q->pOutputData)->pSegmentDescriptor == NULL;
}

static int seg4_fill(const void *a)
{
    const DXGKARG_QUERYADAPTERINFO *q = a;
    return q->Type == DXGKQAITYPE_QUERYSEGMENT4 &&
           ((const DXGK_QUERYSEGMENTOUT4 *)q->pOutputData)->pSegmentDescriptor != NULL;
}

static int op_is(const void *a, DXGK_BUILDPAGINGBUFFER_OPERATION op)
{
    return ((const DXGKARG_BUILDPAGINGBUFFER *)a)->Operation == op;
}

static int paging_fill(const void *a) { return op_is(a, DXGK_OPERATION_FILL); }
static int paging_transfer(const void *a) { return op_is(a, DXGK_OPERATION_TRANSFER); }
/* either form of the mapping: 17 for a driver that opted in (reference-impl/vidmm/map_aperture2.c) */
static int paging_map(const void *a)
{
    return op_is(a, DXGK_OPERATION_MAP_APERTURE_SEGMENT) || op_is(a, DXGK_OPERATION_MAP_APERTURE_SEGMENT2);
}
static int paging_unmap(const void *a) { return op_is(a, DXGK_OPERATION_UNMAP_APERTURE_SEGMENT); }
static int paging_fence(const void *a) { return op_is(a, DXGK_OPERATION_SIGNAL_MONITORED_FENCE); }
static int paging_flush_tlb(const void *a) { return op_is(a, DXGK_OPERATION_FLUSH_TLB); }

/* An UPDATE_PAGE_TABLE that writes entries one by one (not a Repeat). */
static int paging_update_entries(const void *a)
{
    const DXGKARG_BUILDPAGINGBUFFER *b = a;
    return op_is(a, DXGK_OPERATION_UPDATE_PAGE_TABLE) && !b->UpdatePageTable.Flags.Repeat;
}

static int gdi_context(const void *a)
{
    return ((const DXGKARG_CREATECONTEXT *)a)->Flags.GdiContext;
}

static int device_ctxalloc(const void *a)
{
    return ((const DXGKARGCB_CREATECONTEXTALLOCATION *)a)->ContextAllocationFlags.SharedAcrossContexts;
}

static int render_patch(const void *a)
{
    return ((const DXGKARG_PATCH *)a)->PatchLocationListSubmissionLength > 0;
}

/* ------------------------------------------------------------------ */
/* Status and caps                                                      */
/* ------------------------------------------------------------------ */

static void set_unsuccessful(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)a, (void)p;
    *st = STATUS_UNSUCCESSFUL;
}

/* A progress cookie that changes on every call, so the kit cannot call it a
 * stall, while the operation never ends. */
static void set_insufficient_and_bump(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)p;
    *st = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    ((DXGKARG_BUILDPAGINGBUFFER *)a)->MultipassOffset = 0x40000000u + n;
}

static void set_busy(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)a, (void)p;
    *st = STATUS_GRAPHICS_ALLOCATION_BUSY;
}

static void render_insufficient(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)a, (void)p;
    *st = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static void claim_false(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)a, (void)p;
    *st = 0;
}

static DXGK_DRIVERCAPS *caps_of(void *a)
{
    return ((DXGKARG_QUERYADAPTERINFO *)a)->pOutputData;
}

static void caps_preempt(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    caps_of(a)->SchedulingCaps.PreemptionAware = 1;
    caps_of(a)->SchedulingCaps.MultiEngineAware = 0;
}

static void caps_cancel(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    caps_of(a)->SchedulingCaps.CancelCommandAware = 1;
    caps_of(a)->SchedulingCaps.MultiEngineAware = 0;
}

static void caps_nodmapatch(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    caps_of(a)->SchedulingCaps.NoDmaPatching = 1;
}

static void caps_reserved(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    caps_of(a)->SchedulingCaps.Value |= 0x80000000u;
}

/* ------------------------------------------------------------------ */
/* Segment query                                                        */
/* ------------------------------------------------------------------ */

static DXGK_QUERYSEGMENTOUT3 *seg_out(void *a)
{
    return ((DXGKARG_QUERYADAPTERINFO *)a)->pOutputData;
}

/* The descriptor `p` (0-based) of the fill call, clamped to what exists. */
static DXGK_SEGMENTDESCRIPTOR3 *seg_desc(void *a, int64_t p)
{
    DXGK_QUERYSEGMENTOUT3 *o = seg_out(a);
    uint32_t i = p >= 0 && (uint64_t)p < o->NbSegment ? (uint32_t)p : 0;
    return &o->pSegmentDescriptor[i];
}

static void seg_count_zero(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    seg_out(a)->NbSegment = 0;
}

static void seg_count_grow(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    seg_out(a)->NbSegment += 1;
}

static void seg_stride(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ((DXGK_QUERYSEGMENTOUT4 *)((DXGKARG_QUERYADAPTERINFO *)a)->pOutputData)->SegmentDescriptorStride += 8;
}

static void seg_size(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    seg_desc(a, p)->Size += 100;
}

static void seg_base(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    seg_desc(a, p)->BaseAddress.QuadPart += 1;
}

static void seg_overlap(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    DXGK_QUERYSEGMENTOUT3 *o = seg_out(a);
    if (o->NbSegment >= 2)
        o->pSegmentDescriptor[1].BaseAddress = o->pSegmentDescriptor[0].BaseAddress;
}

static void seg_agp_with_others(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    seg_desc(a, p)->Flags.Agp = 1;
    seg_desc(a, p)->Flags.CpuVisible = 1;
}

static void seg_agp_alone(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    seg_desc(a, p)->Flags.Value = 0x2;
}

static void seg_commit(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    seg_desc(a, p)->CommitLimit = 0;
}

static void seg_cpu_visible(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    seg_desc(a, p)->Flags.CpuVisible = 1;
    seg_desc(a, p)->CpuTranslatedAddress.QuadPart = 0;
}

static void seg_flag_bits(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    /* p = segment index in the low byte, the flag bits to set above it */
    seg_desc(a, p & 0xFF)->Flags.Value |= (UINT)((uint64_t)p >> 8);
}

static void seg_paging_segment(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    seg_out(a)->PagingBufferSegmentId = (UINT)p;
}

static void seg_paging_size(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    seg_out(a)->PagingBufferSize = 0;
}

static void seg_bank_count(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    seg_desc(a, p)->Flags.UseBanking = 1;
    seg_desc(a, p)->NbOfBanks = 0;
}

/* A bank table the kit owns, out of order: 512 KiB then 256 KiB. */
static SIZE_T bad_bank_table[3] = { 0x80000, 0x40000, 0xC0000 };

static void seg_bank_order(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    DXGK_SEGMENTDESCRIPTOR3 *d = seg_desc(a, p);
    d->Flags.UseBanking = 1;
    d->NbOfBanks = 4;
    d->pBankRangeTable = bad_bank_table;
}

/* ------------------------------------------------------------------ */
/* Devices, contexts, allocations                                       */
/* ------------------------------------------------------------------ */

static void device_null(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ((DXGKARG_CREATEDEVICE *)a)->hDevice = NULL;
}

static DXGK_CONTEXTINFO *ctx_info(void *a)
{
    return &((DXGKARG_CREATECONTEXT *)a)->ContextInfo;
}

static void ctx_bad_status(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)a, (void)p;
    *st = STATUS_INVALID_PARAMETER;
}

static void ctx_null(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ((DXGKARG_CREATECONTEXT *)a)->hContext = NULL;
}

static void ctx_segset(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    ctx_info(a)->DmaBufferSegmentSet = (UINT)p;
}

static void ctx_gdi(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ctx_info(a)->AllocationListSize = 64;
}

static void ctx_reserved(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ctx_info(a)->Reserved = 1;
}

static void ctx_size(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ctx_info(a)->DmaBufferSize = 0;
}

static void ctx_companion(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ctx_info(a)->PagingCompanionNodeId = 3;
}

static void ctx_caps(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ctx_info(a)->Caps.Value |= 0x80u;
}

static DXGK_ALLOCATIONINFO *alloc_info(void *a)
{
    return ((DXGKARG_CREATEALLOCATION *)a)->pAllocationInfo;
}

static void alloc_null(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    alloc_info(a)->hAllocation = NULL;
}

/* The preferred segment taken out of the supported write set; with no
 * preferred segment (id 0), segment 1 is made the preferred one first, so
 * the answer is still one preferring a segment it may not be written to
 * (ALLOC-PREF-002). Found by fuzz_hostile: the shift by id - 1 with id 0 was
 * undefined behaviour. */
static void preferred_outside_set(DXGK_ALLOCATIONINFO *i)
{
    UINT id = i->PreferredSegment.Value & 0x1Fu;
    if (id == 0) {
        id = 1;
        i->PreferredSegment.Value |= id;
    }
    i->SupportedWriteSegmentSet &= ~(1u << (id - 1));
}

static void alloc_field(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    DXGK_ALLOCATIONINFO *i = alloc_info(a);
    switch (p) {
    case 0: i->Size = 0; break;
    case 1: i->Alignment = 3; break;
    case 2: i->PitchAlignedSize = 1; break;
    case 3: i->SupportedWriteSegmentSet = 0; break;
    case 4: i->PreferredSegment.Value = (i->PreferredSegment.Value & ~0x1Fu) | 9; break;
    case 5: preferred_outside_set(i); break;
    case 6: i->HintedBank.Value = 9; break;
    case 7: i->HintedBank.Value = 0x0200; break;
    case 8: i->EvictionSegmentSet = 0x1; break;
    case 9: i->AllocationPriority = 0; break;
    default: break;
    }
}

/* ------------------------------------------------------------------ */
/* Paging buffers                                                       */
/* ------------------------------------------------------------------ */

/* A pointer `by` bytes past `at`, as a lying driver returns it: computed on
 * the address, since the parameter may be any 64-bit value (the program
 * form carries one) and pointer arithmetic past its object is undefined
 * in the kit itself. The kit then judges the address (PAGING-ADVANCE-001,
 * RENDER-ADVANCE-001). */
static void *moved(void *at, uint64_t by)
{
    return (void *)((uintptr_t)at + (uintptr_t)by);
}

static DXGKARG_BUILDPAGINGBUFFER *pb(void *a)
{
    return a;
}

static void paging_advance(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    pb(a)->pDmaBuffer = moved(pb(a)->pDmaBuffer, (uint64_t)pb(a)->DmaSize + (uint64_t)p);
}

static void paging_private(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    pb(a)->pDmaBufferPrivateData = (uint8_t *)pb(a)->pDmaBufferPrivateData + pb(a)->DmaBufferPrivateDataSize + 1;
}

/* As if nothing had been written to a fresh buffer (first call only). */
static void paging_stall(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)p;
    if (pb(a)->DmaBufferWriteOffset != 0)
        return;
    pb(a)->pDmaBuffer = (void *)((uintptr_t)pb(a)->pDmaBuffer & ~(uintptr_t)(WK_GPU_PAGE_SIZE - 1));
    pb(a)->MultipassOffset = 0;
    *st = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
}

static void paging_input(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    pb(a)->Fill.FillSize += 1;
}

/* The last command written, when it is `opcode` and `len` bytes long. The
 * paging buffer starts on a page boundary, so the bytes between the start of
 * pDmaBuffer's page and pDmaBuffer are inside it: only those are read. */
/* Set by last_command when the buffer does not end with the command a
 * mutation edits (another GPU's buffer, another command): the mutation
 * changed nothing, and wk_mutation_rewrite does not count it applied. */
static _Thread_local int command_missed;

static uint8_t *last_command(void *a, uint32_t opcode, uint32_t len)
{
    uint8_t *end = pb(a)->pDmaBuffer;
    uint32_t header = 0;
    if (((uintptr_t)end & (WK_GPU_PAGE_SIZE - 1)) >= len)
        memcpy(&header, end - len, 4);
    if (header != opcode) {
        command_missed = 1;
        return NULL;
    }
    return end - len;
}

static void paging_garbage(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    if (pb(a)->DmaSize < 4)
        return;
    uint8_t *at = pb(a)->pDmaBuffer;
    static const uint8_t bad[4] = { 0xEE, 0, 0, 0 };
    memcpy(at, bad, 4);
    pb(a)->pDmaBuffer = at + 4;
    pb(a)->DmaSize -= 4;
}

static void paging_fill_pattern(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    uint8_t *c = last_command(a, WK_GPU_OP_FILL, 24);
    if (c)
        c[20] ^= 0xFF; /* pattern, byte 0 */
}

static void paging_copy_short(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    uint8_t *c = last_command(a, WK_GPU_OP_COPY, 28);
    if (!c)
        return;
    uint64_t bytes;
    memcpy(&bytes, c + 20, 8);
    if (bytes > 1)
        bytes -= 1;
    memcpy(c + 20, &bytes, 8);
}

static void paging_fill_longer(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    uint8_t *c = last_command(a, WK_GPU_OP_FILL, 24);
    if (!c)
        return;
    uint64_t bytes;
    memcpy(&bytes, c + 12, 8);
    bytes += (uint64_t)(p > 0 ? p : 4096);
    memcpy(c + 12, &bytes, 8);
}

static void paging_drop_flush(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    if (last_command(a, WK_GPU_OP_TLB_FLUSH, 8)) {
        pb(a)->pDmaBuffer = (uint8_t *)pb(a)->pDmaBuffer - 8;
        pb(a)->DmaSize += 8;
    }
}

/* The reference driver's GpuMmu build writes each entry with a WRITE64
 * (docs/refdriver.md, "The GpuMmu build"): its value, the entry, gets bit
 * 12 flipped, so the last entry points a page (or a table) off. */
static void paging_entry_page_off(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    uint8_t *c = last_command(a, WK_GPU_OP_WRITE64, 20);
    if (c)
        c[12 + 1] ^= 0x10; /* bit 12 of the little-endian value at +12 */
}

/* FLUSH_TLB's VA_FLUSH (28 bytes) taken back: nothing flushed. */
static void paging_drop_va_flush(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    if (last_command(a, WK_GPU_OP_VA_FLUSH, 28)) {
        pb(a)->pDmaBuffer = (uint8_t *)pb(a)->pDmaBuffer - 28;
        pb(a)->DmaSize += 28;
    }
}

/* FLUSH_TLB's VA_FLUSH over its first page only (end = start + 4 KiB). */
static void paging_va_flush_first_page(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    uint8_t *c = last_command(a, WK_GPU_OP_VA_FLUSH, 28);
    if (!c)
        return;
    uint64_t start;
    memcpy(&start, c + 12, 8);
    start += WK_GPU_PAGE_SIZE;
    memcpy(c + 20, &start, 8);
}

static void paging_fence_value(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    uint8_t *c = last_command(a, WK_GPU_OP_FENCE, 20);
    if (c)
        c[12] ^= 0x5A;
}

/* Writes one byte at the end of the paging buffer, inside its page. */
static void paging_write_past_end(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    uint8_t *end = (uint8_t *)pb(a)->pDmaBuffer + pb(a)->DmaSize;
    *end = 0x42; /* the canary tail, or the guard page: both are caught */
}

/* ------------------------------------------------------------------ */
/* Render, Patch, Submit, interrupts, cancel                            */
/* ------------------------------------------------------------------ */

static DXGKARG_RENDER *rd(void *a)
{
    return a;
}

static D3DDDI_PATCHLOCATIONLIST *last_entry(void *a)
{
    return rd(a)->pPatchLocationListOut - 1;
}

static void render_advance(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    rd(a)->pDmaBuffer = moved(rd(a)->pDmaBuffer, (uint64_t)rd(a)->DmaSize + (uint64_t)p);
}

static void render_patch_advance(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    rd(a)->pPatchLocationListOut += rd(a)->PatchLocationListOutSize + 1;
}

static void render_entry(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    D3DDDI_PATCHLOCATIONLIST *e = last_entry(a);
    switch (p) {
    case 0: e->AllocationIndex = rd(a)->AllocationListSize; break;
    case 1: e->PatchOffset = 0xFFFFFF00u; break;
    case 2: e->SplitOffset = 0xFFFFFFF0u; break;
    case 3: e->Reserved = 1; break;
    case 4: e->AllocationOffset += 8; break;
    default: break;
    }
}

/* Walks forward from the first free byte until past the end: the write
 * that crosses the end hits the guard page. */
static void render_overrun(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    volatile uint8_t *q = rd(a)->pDmaBuffer;
    for (;;)
        *q++ = 0;
}

static void crash(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)a, (void)st, (void)p;
    volatile int *null = NULL;
    *null = 1;
}

static void hang(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)a, (void)st, (void)p;
    for (volatile int spin = 1; spin;)
        ;
}

static DXGKARG_PATCH *pt(void *a)
{
    return a;
}

static void patch_outside(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    uint8_t *dma = pt(a)->pDmaBuffer;
    dma[pt(a)->DmaBufferSubmissionStartOffset] ^= 0x01; /* a command header, not a patch slot */
}

static void patch_value(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    const D3DDDI_PATCHLOCATIONLIST *e = &pt(a)->pPatchLocationList[pt(a)->PatchLocationListSubmissionStart];
    uint8_t *slot = (uint8_t *)pt(a)->pDmaBuffer + e->PatchOffset;
    if ((uint64_t)e->PatchOffset + 8 <= pt(a)->DmaBufferSubmissionEndOffset)
        slot[1] ^= 0x10; /* + or - 0x1000 */
}

static void patch_garbage(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    uint8_t *dma = pt(a)->pDmaBuffer;
    dma[pt(a)->DmaBufferSubmissionStartOffset] = 0xEE; /* an unknown opcode */
}

static void notify_type(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = a;
    if (d->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED)
        d->InterruptType = DXGK_INTERRUPT_CRTC_VSYNC;
}

static void notify_fence(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = a;
    if (d->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED)
        d->DmaCompleted.SubmissionFenceId += (UINT)(p > 0 ? p : 1000);
}

/* A page fault (DMA_PAGE_FAULTED) as a driver that does not forward it as
 * one would say it: DMA_FAULTED of the same fence. */
static void page_fault_as_dma_faulted(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = a;
    if (d->InterruptType != DXGK_INTERRUPT_DMA_PAGE_FAULTED)
        return;
    UINT fence = d->DmaPageFaulted.FaultedFenceId, node = d->DmaPageFaulted.NodeOrdinal;
    UINT engine = d->DmaPageFaulted.EngineOrdinal;
    memset(&d->DmaPageFaulted, 0, sizeof(d->DmaPageFaulted));
    d->InterruptType = DXGK_INTERRUPT_DMA_FAULTED;
    d->DmaFaulted.FaultedFenceId = fence;
    d->DmaFaulted.Status = STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE;
    d->DmaFaulted.NodeOrdinal = node;
    d->DmaFaulted.EngineOrdinal = engine;
}

static void page_fault_fence(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = a;
    if (d->InterruptType == DXGK_INTERRUPT_DMA_PAGE_FAULTED)
        d->DmaPageFaulted.FaultedFenceId += (UINT)(p > 0 ? p : 1000);
}

static void page_fault_no_reset(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = a;
    if (d->InterruptType != DXGK_INTERRUPT_DMA_PAGE_FAULTED)
        return;
    d->DmaPageFaulted.PageFaultFlags = DXGK_PAGE_FAULT_FENCE_INVALID;
    d->DmaPageFaulted.FaultedFenceId = 0;
}

static void ctxalloc_args(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ((DXGKARGCB_CREATECONTEXTALLOCATION *)a)->Size = 0;
}

static void ctxalloc_system(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    ((DXGKARGCB_CREATECONTEXTALLOCATION *)a)->hDevice = NULL;
}

static void ctxalloc_handle(void *a, NTSTATUS *st, int64_t p, uint32_t n)
{
    (void)n;
    (void)st, (void)p;
    HANDLE *h = a;
    *h = (HANDLE)((uintptr_t)*h + 0x100);
}

/* ------------------------------------------------------------------ */
/* The catalogue                                                        */
/* ------------------------------------------------------------------ */

#define M(name, ddi, rule, describe, match, apply) { { name, ddi, rule, describe }, match, apply, NULL }
#define ANY(name, describe, fn) { { name, WK_DDI_NONE, "-", describe }, NULL, NULL, fn }

static const struct mutation_row catalogue[] = {
    M("start-fails", WK_DDI_START_DEVICE, "START-STATUS-001", "StartDevice returns STATUS_UNSUCCESSFUL", NULL, set_unsuccessful),
    M("caps-query-fails", WK_DDI_QUERY_ADAPTER_INFO, "CAPS-QUERY-001", "DRIVERCAPS query returns STATUS_UNSUCCESSFUL", caps_query, set_unsuccessful),
    M("caps-preempt-without-multiengine", WK_DDI_QUERY_ADAPTER_INFO, "CAPS-SCHED-001", "PreemptionAware=1, MultiEngineAware=0", caps_query, caps_preempt),
    M("caps-cancel-without-multiengine", WK_DDI_QUERY_ADAPTER_INFO, "CAPS-SCHED-002", "CancelCommandAware=1, MultiEngineAware=0", caps_query, caps_cancel),
    M("caps-nodmapatching-alone", WK_DDI_QUERY_ADAPTER_INFO, "CAPS-SCHED-003", "NoDmaPatching=1 without PreemptionAware", caps_query, caps_nodmapatch),
    M("caps-reserved-bit", WK_DDI_QUERY_ADAPTER_INFO, "CAPS-SCHED-004", "a reserved DXGK_VIDSCHCAPS bit set", caps_query, caps_reserved),
    M("segments-query-fails", WK_DDI_QUERY_ADAPTER_INFO, "SEG-QUERY-001", "the first QUERYSEGMENT3 call fails", seg3_count, set_unsuccessful),
    M("segments-count-zero", WK_DDI_QUERY_ADAPTER_INFO, "SEG-QUERY-002", "the first call reports NbSegment 0", seg3_count, seg_count_zero),
    M("segments-count-changes", WK_DDI_QUERY_ADAPTER_INFO, "SEG-QUERY-002", "the second call reports one more segment", seg3_fill, seg_count_grow),
    M("segments4-stride-changes", WK_DDI_QUERY_ADAPTER_INFO, "SEG-QUERY-003", "QUERYSEGMENT4 changes SegmentDescriptorStride", seg4_fill, seg_stride),
    M("segment-size-unaligned", WK_DDI_QUERY_ADAPTER_INFO, "SEG-SIZE-001", "segment [param] Size + 100", seg3_fill, seg_size),
    M("segment-base-unaligned", WK_DDI_QUERY_ADAPTER_INFO, "SEG-BASE-001", "segment [param] BaseAddress + 1", seg3_fill, seg_base),
    M("segments-overlap", WK_DDI_QUERY_ADAPTER_INFO, "SEG-OVERLAP-001", "segment 2 placed at segment 1's base", seg3_fill, seg_overlap),
    M("segment-agp-with-flags", WK_DDI_QUERY_ADAPTER_INFO, "SEG-AGP-001", "segment [param] sets Agp beside other flags", seg3_fill, seg_agp_with_others),
    M("segment-agp-without-aperture", WK_DDI_QUERY_ADAPTER_INFO, "SEG-AGP-002", "segment [param] becomes an AGP segment with no AGP aperture", seg3_fill, seg_agp_alone),
    M("segment-commit-zero", WK_DDI_QUERY_ADAPTER_INFO, "SEG-COMMIT-001", "segment [param] CommitLimit 0 (memory: SEG-COMMIT-001, aperture: -002)", seg3_fill, seg_commit),
    M("segment-cpu-visible-no-address", WK_DDI_QUERY_ADAPTER_INFO, "SEG-CPU-001", "segment [param] CpuVisible with CpuTranslatedAddress 0", seg3_fill, seg_cpu_visible),
    M("segment-flags", WK_DDI_QUERY_ADAPTER_INFO, "SEG-FLAGS-001", "segment [param & 0xff] gets flag bits [param >> 8]", seg3_fill, seg_flag_bits),
    M("paging-segment-not-aperture", WK_DDI_QUERY_ADAPTER_INFO, "SEG-PAGING-001", "PagingBufferSegmentId = [param]", seg3_fill, seg_paging_segment),
    M("paging-size-zero", WK_DDI_QUERY_ADAPTER_INFO, "SEG-PAGING-002", "PagingBufferSize 0", seg3_fill, seg_paging_size),
    M("segment-banks-none", WK_DDI_QUERY_ADAPTER_INFO, "SEG-BANK-002", "segment [param] UseBanking with NbOfBanks 0", seg3_fill, seg_bank_count),
    M("segment-banks-out-of-order", WK_DDI_QUERY_ADAPTER_INFO, "SEG-BANK-003", "segment [param] bank ends 512K, 256K, 768K", seg3_fill, seg_bank_order),
    M("device-null-handle", WK_DDI_CREATE_DEVICE, "DEV-CREATE-001", "CreateDevice returns a NULL hDevice", NULL, device_null),
    M("context-bad-status", WK_DDI_CREATE_CONTEXT, "CTX-CREATE-001", "CreateContext returns STATUS_INVALID_PARAMETER", NULL, ctx_bad_status),
    M("context-null-handle", WK_DDI_CREATE_CONTEXT, "CTX-CREATE-002", "CreateContext returns a NULL hContext", NULL, ctx_null),
    M("context-dma-segment-set", WK_DDI_CREATE_CONTEXT, "CTX-SEGSET-001", "DmaBufferSegmentSet = [param]", NULL, ctx_segset),
    M("context-gdi-list-size", WK_DDI_CREATE_CONTEXT, "CTX-GDI-001", "a GDI context with AllocationListSize 64", gdi_context, ctx_gdi),
    M("context-reserved", WK_DDI_CREATE_CONTEXT, "CTX-RESERVED-001", "DXGK_CONTEXTINFO.Reserved = 1", NULL, ctx_reserved),
    M("context-dma-size-zero", WK_DDI_CREATE_CONTEXT, "CTX-SIZE-001", "DmaBufferSize 0", NULL, ctx_size),
    M("context-companion", WK_DDI_CREATE_CONTEXT, "CTX-COMPANION-001", "PagingCompanionNodeId 3", NULL, ctx_companion),
    M("context-caps-reserved", WK_DDI_CREATE_CONTEXT, "CTX-CAPS-001", "a reserved DXGK_CONTEXTINFO_CAPS bit", NULL, ctx_caps),
    M("allocation-null-handle", WK_DDI_CREATE_ALLOCATION, "ALLOC-CREATE-001", "hAllocation NULL", NULL, alloc_null),
    M("allocation-field", WK_DDI_CREATE_ALLOCATION, "ALLOC-SIZE-001",
      "DXGK_ALLOCATIONINFO field [param]: 0 Size=0, 1 Alignment=3, 2 PitchAlignedSize=1, 3 no write set, 4 preferred segment 9, 5 preferred outside the set, 6 bank 9, 7 Bank1 without Bank0, 8 eviction to a memory segment, 9 priority 0",
      NULL, alloc_field),
    M("paging-fails", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-STATUS-001", "BuildPagingBuffer returns STATUS_UNSUCCESSFUL", NULL, set_unsuccessful),
    M("paging-advance-past-end", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-ADVANCE-001", "pDmaBuffer moved DmaSize + [param] bytes", NULL, paging_advance),
    M("paging-private-past-end", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-PRIVATE-001", "pDmaBufferPrivateData moved past its size", NULL, paging_private),
    M("paging-never-finishes", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-PROGRESS-001", "always INSUFFICIENT_DMA_BUFFER, a new MultipassOffset each call", NULL, set_insufficient_and_bump),
    M("paging-stall", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-PROGRESS-002", "INSUFFICIENT_DMA_BUFFER on a fresh buffer, nothing written", NULL, paging_stall),
    M("paging-busy-on-fill", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-BUSY-001", "ALLOCATION_BUSY for a Fill", paging_fill, set_busy),
    M("paging-changes-input", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-INPUT-001", "the driver increments Fill.FillSize", paging_fill, paging_input),
    M("paging-garbage-command", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-GPU-001", "an unknown opcode appended to the paging buffer", NULL, paging_garbage),
    M("paging-fill-wrong-pattern", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-FILL-001", "the last FILL command's pattern flipped", paging_fill, paging_fill_pattern),
    M("paging-copy-short", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-TRANSFER-001", "the last COPY one byte short", paging_transfer, paging_copy_short),
    M("paging-map-no-flush", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-MAP-001", "the TLB_FLUSH after GART_MAP dropped", paging_map, paging_drop_flush),
    M("paging-unmap-no-flush", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-UNMAP-001", "the TLB_FLUSH after GART_UNMAP dropped", paging_unmap, paging_drop_flush),
    M("paging-fence-wrong-value", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-FENCE-001", "the FENCE value flipped", paging_fence, paging_fence_value),
    M("paging-fill-overruns", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-CONFINE-001", "the last FILL [param] bytes longer", paging_fill, paging_fill_longer),
    M("paging-write-past-end", WK_DDI_BUILD_PAGING_BUFFER, "MEM-GUARD-001", "one byte written just past the paging buffer", NULL, paging_write_past_end),
    M("render-bad-status", WK_DDI_RENDER, "RENDER-STATUS-001", "Render returns STATUS_UNSUCCESSFUL (undocumented)", NULL, set_unsuccessful),
    M("render-advance-past-end", WK_DDI_RENDER, "RENDER-ADVANCE-001", "pDmaBuffer moved DmaSize + [param] bytes", NULL, render_advance),
    M("render-patch-list-past-end", WK_DDI_RENDER, "RENDER-PATCH-001", "pPatchLocationListOut moved past its size", NULL, render_patch_advance),
    M("render-patch-entry", WK_DDI_RENDER, "RENDER-PATCH-002",
      "last patch entry [param]: 0 AllocationIndex out of range, 1 PatchOffset beyond the buffer, 2 SplitOffset beyond, 3 reserved SlotId bits, 4 AllocationOffset + 8",
      NULL, render_entry),
    M("render-never-finishes", WK_DDI_RENDER, "RENDER-PROGRESS-001", "always INSUFFICIENT_DMA_BUFFER", NULL, render_insufficient),
    M("render-overrun", WK_DDI_RENDER, "MEM-GUARD-001", "writes from pDmaBuffer on, past the end of the DMA buffer", NULL, render_overrun),
    M("render-crash", WK_DDI_RENDER, "DRV-CRASH-001", "a NULL write inside Render", NULL, crash),
    M("render-hang", WK_DDI_RENDER, "DRV-HANG-001", "Render never returns", NULL, hang),
    M("patch-fails", WK_DDI_PATCH, "PATCH-STATUS-001", "Patch returns STATUS_UNSUCCESSFUL", NULL, set_unsuccessful),
    M("patch-outside-locations", WK_DDI_PATCH, "PATCH-CONFINE-001", "Patch flips a bit of the first command header", render_patch, patch_outside),
    M("patch-wrong-value", WK_DDI_PATCH, "PATCH-VALUE-001", "Patch writes the first address 0x1000 off", render_patch, patch_value),
    M("patch-corrupts-buffer", WK_DDI_PATCH, "SUBMIT-GPU-001", "Patch replaces the first opcode with an unknown one", render_patch, patch_garbage),
    M("submit-fails", WK_DDI_SUBMIT_COMMAND, "SUBMIT-STATUS-001", "SubmitCommand returns STATUS_UNSUCCESSFUL", NULL, set_unsuccessful),
    M("interrupt-not-claimed", WK_DDI_INTERRUPT_ROUTINE, "INTR-CLAIM-001", "InterruptRoutine returns FALSE for its own interrupt", NULL, claim_false),
    M("notify-wrong-type", WK_DDI_CB_NOTIFY_INTERRUPT, "SUBMIT-FENCE-001", "DMA_COMPLETED reported as CRTC_VSYNC: the fence never completes", NULL, notify_type),
    M("notify-unknown-fence", WK_DDI_CB_NOTIFY_INTERRUPT, "INTR-FENCE-001", "the completed fence id + [param] (default 1000)", NULL, notify_fence),
    M("cancel-fails", WK_DDI_CANCEL_COMMAND, "CANCEL-STATUS-001", "CancelCommand returns STATUS_UNSUCCESSFUL", NULL, set_unsuccessful),
    M("ctxalloc-size-zero", WK_DDI_CB_CREATE_CONTEXT_ALLOCATION, "CTXALLOC-ARGS-001", "DxgkCbCreateContextAllocation with Size 0", NULL, ctxalloc_args),
    M("ctxalloc-system-device", WK_DDI_CB_CREATE_CONTEXT_ALLOCATION, "CTXALLOC-ARGS-002", "a device context allocation for the system device (hDevice NULL)", device_ctxalloc, ctxalloc_system),
    M("ctxalloc-destroy-bad-handle", WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION, "CTXALLOC-HANDLE-001", "DxgkCbDestroyContextAllocation with a handle + 0x100 (the allocation leaks: CTXALLOC-LEAK-001 too)", NULL, ctxalloc_handle),
    /* Garbage in any answer, for fuzz_hostile (the kit must survive it) and
     * for specs that want one: no rule of their own. Appended: the binary
     * program form stores a mutation by its index. */
    ANY("answer-byte", "byte [param & 0xffff] (modulo the size) of any DDI's argument struct becomes [param >> 16 & 0xff] (not the driver's own object handles)", any_answer_byte),
    ANY("answer-status", "any DDI's status becomes [param] (InterruptRoutine: its BOOLEAN)", any_status),
    ANY("answer-output-byte", "byte [param & 0xffff] (modulo the size) of what an answer wrote through a pointer (QueryAdapterInfo's output and segment descriptors, the DXGK_ALLOCATIONINFO entries, DXGK_DEVICEINFO) becomes [param >> 16 & 0xff]", any_output_byte),
    ANY("answer-dma-byte", "byte [param & 0xff] + 1 before where Render or BuildPagingBuffer left pDmaBuffer (the commands it wrote) becomes [param >> 16 & 0xff]", any_dma_byte),
    /* GPU virtual addressing (a GpuMmu driver: the reference driver's GpuMmu build) */
    M("paging-updatept-page-off", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-UPDATEPT-001", "the last entry an UPDATE_PAGE_TABLE wrote one page (or table) off", paging_update_entries, paging_entry_page_off),
    M("paging-flushtlb-dropped", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-FLUSHTLB-001", "FLUSH_TLB's VA_FLUSH taken back: nothing flushed", paging_flush_tlb, paging_drop_va_flush),
    M("paging-flushtlb-first-page", WK_DDI_BUILD_PAGING_BUFFER, "PAGING-FLUSHTLB-001", "FLUSH_TLB's VA_FLUSH over the range's first page only", paging_flush_tlb, paging_va_flush_first_page),
    M("page-fault-as-dma-faulted", WK_DDI_CB_NOTIFY_INTERRUPT, "PAGEFAULT-NOTIFY-001", "a page fault (DMA_PAGE_FAULTED) reported as DMA_FAULTED of the same fence", NULL, page_fault_as_dma_faulted),
    M("page-fault-other-fence", WK_DDI_CB_NOTIFY_INTERRUPT, "PAGEFAULT-FENCE-001", "a page fault's FaultedFenceId + [param] (default 1000)", NULL, page_fault_fence),
    M("page-fault-no-reset", WK_DDI_CB_NOTIFY_INTERRUPT, "PAGEFAULT-FLAGS-001", "a page fault reported with DXGK_PAGE_FAULT_FENCE_INVALID and no reset flag", NULL, page_fault_no_reset),
};

#define CATALOGUE_SIZE (sizeof(catalogue) / sizeof(catalogue[0]))

const struct wk_mutation *wk_mutation_at(uint32_t index)
{
    return index < CATALOGUE_SIZE ? &catalogue[index].pub : NULL;
}

const struct wk_mutation *wk_mutation_find(const char *name)
{
    for (size_t i = 0; i < CATALOGUE_SIZE; i++)
        if (strcmp(catalogue[i].pub.name, name) == 0)
            return &catalogue[i].pub;
    return NULL;
}

static const struct mutation_row *row_of(const struct wk_mutation *m)
{
    return (const struct mutation_row *)(const void *)m;
}

/* The vidmm rewriter: counts matching calls, corrupts the chosen one. */
void wk_mutation_rewrite(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct wk_mutation_state *s = user;
    const struct mutation_row *r = row_of(s->mutation);
    /* The kit's own paging work for a GpuMmu driver's paging process (its
     * set-up, its scratch area's tables) is no call a case counts: a case's
     * Nth UPDATE_PAGE_TABLE is the Nth its steps asked. */
    if (s->vm && wk_vidmm_kit_paging_work(s->vm))
        return;
    if (r->any) {
        s->seen++;
        if (s->call == 0 || s->seen == s->call) {
            s->applied++;
            r->any(ddi, args, status, s->param);
        }
        return;
    }
    if (ddi != r->pub.ddi || (r->match && (!args || !r->match(args))))
        return;
    s->seen++;
    if (s->call == 0 || s->seen == s->call) {
        command_missed = 0;
        s->applied++;
        r->apply(args, status, s->param, s->applied);
        if (command_missed) { /* the command it edits is not there: not applied */
            s->applied--;
            s->unchanged++;
        }
    }
}

void wk_mutation_arm(struct wk_vidmm *vm, struct wk_mutation_state *s, const struct wk_mutation *m,
                     uint32_t call, int64_t param)
{
    memset(s, 0, sizeof(*s));
    s->mutation = m;
    s->vm = vm;
    s->call = call;
    s->param = param;
    wk_vidmm_set_rewriter(vm, wk_mutation_rewrite, s);
}
