/* SPDX-License-Identifier: MIT */
/*
 * paging.c - the DxgkDdiBuildPagingBuffer loop (facts §5.1, seeds
 * DXGKARG_BUILDPAGINGBUFFER).
 *
 * One paging operation runs as a loop of calls:
 *   - the driver gets the current paging buffer at its first free byte
 *     (4 KiB aligned when fresh, P1), its private data, the operation and
 *     MultipassOffset (0 on the first call, then whatever the driver left:
 *     the kernel never changes it, P4);
 *   - SUCCESS: done; INSUFFICIENT_DMA_BUFFER: what was built is submitted,
 *     a fresh buffer handed over and the same operation called again with
 *     the same arguments (TransferOffset included, P5); ALLOCATION_BUSY:
 *     the GPU is drained and the call repeated with AllocationIsIdle (P8);
 *   - every answer is checked (status, pDmaBuffer and private-data bounds,
 *     [in] fields untouched, canaries) and a broken answer ends the
 *     operation: nothing the driver says afterwards can be trusted;
 *   - a driver that never finishes is stopped after max_passes calls, and
 *     one that asks for a fresh buffer while holding an empty fresh one is
 *     stopped at once (it would loop forever).
 * After the last call the buffer is submitted and run, so the operation's
 * effect is in memory when paging_run returns and can be checked.
 */
#include <string.h>

#include "internal.h"

#define UNION_OFFSET offsetof(DXGKARG_BUILDPAGINGBUFFER, Reserved)
#define UNION_SIZE sizeof(((DXGKARG_BUILDPAGINGBUFFER *)0)->Reserved)

static uint32_t buffer_size(const struct wk_vidmm *vm)
{
    uint32_t size = vm->cfg.paging_buffer_size ? vm->cfg.paging_buffer_size : vm->paging_buffer_size;
    return size ? size : WK_GPU_PAGE_SIZE;
}

/*
 * The paging buffer sits at the end of a block of system pages at least as
 * large as the driver's own PagingBufferSize (the "window"). A configured
 * size that fits the window (every size fuzz_paging picks: the driver's own
 * or smaller) changes only where the buffer starts in the block, so a
 * reconfigured adapter moves no other page: allocations get the same PFNs
 * whatever the paging buffer's size, and wk_vidmm_reconfigure resizes it
 * in place (gbuf_resize_gpu: zeroed, new canaries, no system call). A
 * larger size gets a block of its own (block_pages), made again when a
 * change needs another block. A fresh
 * adapter builds the same block, so it hands out the same PFNs as a
 * reconfigured one (tests/test_vidmm_kitgaps.c, tests/test_paging_window.c).
 */
static uint64_t window_pages(const struct wk_vidmm *vm)
{
    uint64_t own = vm->paging_buffer_size ? vm->paging_buffer_size : WK_GPU_PAGE_SIZE;
    return (own + WK_GPU_PAGE_SIZE - 1) / WK_GPU_PAGE_SIZE;
}

/* The pages of the block a started adapter gives a buffer of this size:
 * the window, or for a larger size the next power of two. A block of the
 * buffer's exact size gave each configured size its own frames, so its own
 * host mapping (gpu-model/sysmap.c keeps them by frame list): a fuzz input
 * whose paging buffer was a few bytes longer than any before mapped again
 * (issue 26). With classes, sizes of one class resize in place, and the
 * classes are few, each mapped once on a memory pool (the block sits at the
 * top of the kit's half of system memory, sysmem.c, at the same frames on
 * every adapter built alike). */
static uint64_t class_pages(const struct wk_vidmm *vm, uint32_t size)
{
    uint64_t pages = ((uint64_t)(size ? size : 1) + WK_GPU_PAGE_SIZE - 1) / WK_GPU_PAGE_SIZE;
    uint64_t block = window_pages(vm);
    while (block < pages)
        block *= 2;
    return block;
}

/* A caller that will reconfigure up to cfg.paging_buffer_largest gets the
 * largest class from the start, while it takes at most a quarter of the
 * kit's part of system memory (sysmem.c; the DMA buffers want the rest):
 * every size then resizes in place, and no input of a fuzz campaign maps a
 * block (each class used to be mapped, with its read-only view, by the
 * first input that set a size of it on an adapter: ten calls with both
 * adapters of a differential run; bench/fuzz_speed --floor). The buffer
 * ends where the block ends, at the top of the kit's part, so its frames,
 * the ones a driver sees, are the same in a block of any size. */
static uint64_t block_pages(const struct wk_vidmm *vm, uint32_t size)
{
    uint64_t own = class_pages(vm, size), largest = class_pages(vm, vm->cfg.paging_buffer_largest);
    return largest > own && largest <= sysmem_kit_pages(vm) / 4 ? largest : own;
}

static uint64_t block_bytes(const struct wk_vidmm *vm, uint32_t size)
{
    return block_pages(vm, size) * WK_GPU_PAGE_SIZE;
}

/* reserve: the pages of the block the buffer ends (0: its own pages). */
static wk_status ensure_buffer(struct wk_vidmm *vm, uint64_t reserve)
{
    wk_status st = WK_OK;
    if (!vm->paging.map)
        st = gbuf_alloc_gpu_in(vm, &vm->paging, buffer_size(vm), reserve, "paging buffer");
    if (st == WK_OK && !vm->paging_private.map)
        st = gbuf_alloc(vm, &vm->paging_private, vm->paging_private_size, "paging-buffer private data");
    return st;
}

static void free_buffer(struct wk_vidmm *vm)
{
    paging_unplace(vm, 1);
    paging_view_free(vm);
    gbuf_free(vm, &vm->paging);
    gbuf_free(vm, &vm->paging_private);
    vm->paging_kept = 0;
}

/*
 * Windows allocates the paging buffer once and recycles it (facts §5.1 P18:
 * its private data is zeroed at creation). The kit does the same so that a
 * fuzz harness does not map a buffer per input: allocated right after the
 * segment query, it sits at the same system pages on every adapter started
 * alike, which keeps a reset adapter identical to a fresh one. A buffer
 * larger than system memory allows stays lazy (allocated on first use,
 * freed by every reset) and the page-in that needs it gets the error.
 */
void paging_start(struct wk_vidmm *vm)
{
    char last[sizeof(vm->last_error)];
    memcpy(last, vm->last_error, sizeof(last));
    if (ensure_buffer(vm, block_pages(vm, buffer_size(vm))) == WK_OK || ensure_buffer(vm, 0) == WK_OK) {
        vm->paging_kept = 1;
        paging_place(vm); /* in the driver's PagingBufferSegmentId (paging_place.c) */
        memcpy(vm->last_error, last, sizeof(last));
        return;
    }
    free_buffer(vm);
    memcpy(vm->last_error, last, sizeof(last)); /* not an error of start's */
}

void paging_reset_gpu(struct wk_vidmm *vm)
{
    vm->paging_used = vm->paging_private_used = 0;
    if (!vm->paging_kept || !vm->paging.map) {
        free_buffer(vm);
        wk_gpu_reset(vm->gpu);
        return;
    }
    /* The GPU reset zeroes every system page, the guard canaries of the
     * buffer's block too: written again (MEM-GUARD-001 would otherwise
     * blame the next driver that fills the buffer). */
    wk_gpu_reset(vm->gpu);
    paging_place_restore(vm); /* a block in an aperture: its GART entries again */
    gbuf_rewrite_canaries(&vm->paging);
    memset(vm->paging_private.ptr, 0, vm->paging_private.size);
}

/* The private data's size is the driver's (PagingBufferPrivateDataSize),
 * so it stays; the buffer changes in place (zeroed, new canaries) when a
 * fresh adapter would give it the same block, else it is made again. */
void paging_resize(struct wk_vidmm *vm)
{
    if (vm->paging.map && vm->paging.size == buffer_size(vm))
        return;
    if (vm->paging_kept && vm->paging.map && vm->paging.map_len == block_bytes(vm, buffer_size(vm)) &&
        gbuf_resize_gpu(&vm->paging, buffer_size(vm)))
        return;
    paging_unplace(vm, 1);
    paging_view_free(vm);
    gbuf_free(vm, &vm->paging);
    paging_start(vm);
}

/* Whether the buffer about to be submitted holds commands of the paging
 * process's operation being built (rather than only the table updates
 * held before it: paging_process.c); kept for the fault's hint. */
static int paging_flush_has_op(struct wk_vidmm *vm)
{
    if (!vm->va || !vm->va->pp.in_op)
        return 0;
    uint64_t from = vm->va->pp.op_start_built > vm->paging_flushed_at ? vm->va->pp.op_start_built
                                                                        : vm->paging_flushed_at;
    return vm->va->pp.flush_has_op = vm->paging_built > from;
}

wk_status paging_flush(struct wk_vidmm *vm)
{
    if (!vm->paging.map || vm->paging_used == 0)
        return WK_OK;
    struct submission s;
    memset(&s, 0, sizeof(s));
    s.paging = 1;
    /* A binding's processor without registers runs a buffer of the paging
     * process's operations there, as the driver would have made it run
     * (submit.c, run_and_retire); a register model or the kit's GPU runs it
     * under the root the driver latched. */
    s.space = paging_flush_has_op(vm) ? GPUVA_PAGING_SPACE : 0;
    s.dma = &vm->paging;
    s.dma_segment = paging_dma_segment(vm);
    s.dma_gpu_address = paging_dma_address(vm);
    s.dma_private = &vm->paging_private;
    s.private_start = 0;
    s.private_end = (uint32_t)vm->paging_private_used;
    s.start = 0;
    s.end = (uint32_t)vm->paging_used;
    s.driver_dma = paging_view_for(vm); /* read-only: Patch may change nothing */
    s.dma_readonly = s.driver_dma != NULL;
    struct wk_gpu_counters before;
    wk_gpu_get_counters(vm->gpu, &before);
    uint32_t fence = 0;
    wk_status st = submit_buffer(vm, &s, &fence);
    if (st == WK_OK)
        st = submit_wait(vm, fence);
    wk_status limit = gpu_fault_check(vm, &before, R_PAGING_GPU, WK_DDI_BUILD_PAGING_BUFFER, "paging buffer");
    if (st == WK_OK)
        st = limit;
    vm->stats.paging_buffers++;
    vm->paging_flushed_at = vm->paging_built;
    if (vm->va)
        vm->va->pp.flush_has_op = vm->va->pp.gva_updates = 0;
    /* The next buffer starts empty and zero, its private data too (facts
     * §4.8): the bytes the operation filled are cleared (only those: the
     * rest of the buffer is still zero, and clearing all of it would touch
     * pages the GPU reset released). */
    memset(vm->paging.ptr, 0, vm->paging_used);
    memset(vm->paging_private.ptr, 0, vm->paging_private.size);
    vm->paging_used = 0;
    vm->paging_private_used = 0;
    return st;
}

/* BUSY is allowed for three operations, and never once idleness is promised. */
static UINT *idle_flag_word(DXGKARG_BUILDPAGINGBUFFER *a)
{
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER: return &a->Transfer.Flags.Value;
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER: return &a->SpecialLockTransfer.Flags.Value;
    case DXGK_OPERATION_DISCARD_CONTENT: return &a->DiscardContent.Flags.Value;
    default: return NULL;
    }
}

static UINT idle_bit(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    return a->Operation == DXGK_OPERATION_DISCARD_CONTENT ? 0x1u : 0x4u;
}

struct pass {
    uint8_t *dma_before;
    uint32_t size_before;
    uint8_t *priv_before;
    uint32_t priv_size_before;
    uint32_t multipass_before;
    DXGK_BUILDPAGINGBUFFER_OPERATION op;
    uint8_t in_fields[UNION_SIZE];
};

static void prepare(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a, struct pass *p)
{
    a->pDmaBuffer = vm->paging.ptr + vm->paging_used;
    a->DmaSize = (UINT)(vm->paging.size - vm->paging_used);
    a->pDmaBufferPrivateData = vm->paging_private.ptr + vm->paging_private_used;
    a->DmaBufferPrivateDataSize = (UINT)(vm->paging_private.size - vm->paging_private_used);
    /* "The system context the operation runs on" (facts §4.2): the
     * driver's handle of the one created at start (system_context.c). */
    a->hSystemContext = system_context_driver_handle(vm);
    /* "the virtual address where the DMA buffer was paged in": its start;
     * the current operation begins DmaBufferWriteOffset past it (seed
     * DXGKARG_BUILDPAGINGBUFFER; docs/wddm-gpummu-facts.md 3.6). The start
     * plus the offset was given here, which two operations in one buffer
     * made wrong for a driver that adds them (outsider 18). */
    a->DmaBufferGpuVirtualAddress = vm->paging.first_pfn << WK_GPU_PAGE_SHIFT;
    a->DmaBufferWriteOffset = (UINT)vm->paging_used;
    p->dma_before = a->pDmaBuffer;
    p->size_before = a->DmaSize;
    p->priv_before = a->pDmaBufferPrivateData;
    p->priv_size_before = a->DmaBufferPrivateDataSize;
    p->multipass_before = a->MultipassOffset;
    p->op = a->Operation;
    memcpy(p->in_fields, (uint8_t *)a + UNION_OFFSET, UNION_SIZE);
}

static const char *op_name(DXGK_BUILDPAGINGBUFFER_OPERATION op)
{
    static const char *const names[] = {
        "TRANSFER", "FILL", "DISCARD_CONTENT", "READ_PHYSICAL", "WRITE_PHYSICAL",
        "MAP_APERTURE_SEGMENT", "UNMAP_APERTURE_SEGMENT", "SPECIAL_LOCK_TRANSFER",
        "VIRTUAL_TRANSFER", "VIRTUAL_FILL", "INIT_CONTEXT_RESOURCE", "UPDATE_PAGE_TABLE",
        "FLUSH_TLB", "UPDATE_CONTEXT_ALLOCATION", "COPY_PAGE_TABLE_ENTRIES", "NOTIFY_RESIDENCY",
        "SIGNAL_MONITORED_FENCE", "MAP_APERTURE_SEGMENT2",
    };
    return (unsigned)op < sizeof(names) / sizeof(names[0]) ? names[op] : "unknown operation";
}

/* Checks one answer; returns WK_OK to go on, an error to stop the operation. */
static wk_status check_answer(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a,
                              const struct pass *p, NTSTATUS st)
{
    enum wk_ddi d = WK_DDI_BUILD_PAGING_BUFFER;
    const char *op = op_name(p->op);
    if (st != STATUS_SUCCESS && st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER &&
        st != STATUS_GRAPHICS_ALLOCATION_BUSY)
        return violate(vm, R_PAGING_STATUS, d, "%s returned 0x%08x, expected SUCCESS, INSUFFICIENT_DMA_BUFFER or ALLOCATION_BUSY",
                       op, (unsigned)st);
    uint8_t *now = a->pDmaBuffer;
    if (now < p->dma_before || now > p->dma_before + p->size_before)
        return violate(vm, R_PAGING_ADVANCE, d, "%s moved pDmaBuffer by %lld bytes, expected 0..%u (DmaSize)",
                       op, (long long)(now - p->dma_before), p->size_before);
    uint8_t *priv = a->pDmaBufferPrivateData;
    if (priv < p->priv_before || priv > p->priv_before + p->priv_size_before ||
        (uint64_t)a->DmaBufferPrivateDataSize + (uint64_t)(priv - p->priv_before) > p->priv_size_before)
        return violate(vm, R_PAGING_PRIVATE, d,
                       "%s moved pDmaBufferPrivateData by %lld bytes and left DmaBufferPrivateDataSize %u, had %u",
                       op, (long long)(priv - p->priv_before), a->DmaBufferPrivateDataSize,
                       p->priv_size_before);
    if (a->Operation != p->op || memcmp(p->in_fields, (uint8_t *)a + UNION_OFFSET, UNION_SIZE) != 0)
        return violate(vm, R_PAGING_INPUT, d, "%s changed its [in] arguments (Operation or the %s payload)",
                       op, op);
    wk_status g = gbuf_check(vm, &vm->paging, d);
    if (g == WK_OK)
        g = gbuf_check(vm, &vm->paging_private, d);
    return g;
}

static wk_status call_once(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a, NTSTATUS *st,
                           struct pass *p)
{
    prepare(vm, a, p);
    wk_status crashed;
    *st = STATUS_UNSUCCESSFUL;
    /* The driver gets a guarded copy; `a` stays the kit's (guard_args.c). */
    struct garg g;
    DXGKARG_BUILDPAGINGBUFFER *pa =
        garg_in(vm, &g, a, sizeof(*a), "DXGKARG_BUILDPAGINGBUFFER argument (*pBuildPagingBuffer)");
    DDI_CALL(vm, WK_DDI_BUILD_PAGING_BUFFER, crashed,
             *st = vm->ddi.DxgkDdiBuildPagingBuffer(vm->miniport, pa);
             ddi_rewrite(vm, WK_DDI_BUILD_PAGING_BUFFER, pa, st));
    wk_status guard = garg_out(vm, &g, WK_DDI_BUILD_PAGING_BUFFER, crashed);
    if (crashed != WK_OK)
        return crashed;
    if (guard != WK_OK)
        return guard;
    vm->stats.paging_passes++;
    return check_answer(vm, a, p, *st);
}

/* BUSY: drain the GPU, promise idleness, call again (facts §5.1 P8). */
static wk_status on_busy(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a)
{
    UINT *flags = idle_flag_word(a);
    if (!flags || (*flags & idle_bit(a)))
        return violate(vm, R_PAGING_BUSY, WK_DDI_BUILD_PAGING_BUFFER,
                       "%s returned ALLOCATION_BUSY%s", op_name(a->Operation),
                       flags ? " although AllocationIsIdle was set" : ", which this operation may not");
    wk_status st = paging_flush(vm);
    if (st == WK_OK)
        st = submit_wait(vm, 0);
    *flags |= idle_bit(a);
    return st;
}

/*
 * An operation with no paging buffer: the paging process's set-up, whose
 * UPDATE_PAGE_TABLE "must be done immediately using the CPU (paging buffer
 * should not be used)" (gpuva.c, update_by_cpu). One call, pDmaBuffer NULL
 * and DmaSize 0, nothing submitted after it; the private data is the
 * paging buffer's, as for any operation. PAGING-CPUUPDATE-001: SUCCESS, and
 * pDmaBuffer still NULL (there is no buffer to go multipass in).
 */
wk_status paging_run_cpu(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (!vm->ddi.DxgkDdiBuildPagingBuffer)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiBuildPagingBuffer");
    wk_status st = ensure_buffer(vm, 0);
    if (st != WK_OK)
        return st;
    struct pass p;
    prepare(vm, a, &p);
    a->pDmaBuffer = NULL;
    a->DmaSize = 0;
    a->DmaBufferGpuVirtualAddress = 0;
    a->DmaBufferWriteOffset = 0;
    a->MultipassOffset = 0;
    if ((unsigned)a->Operation < 18)
        vm->stats.paging_ops[a->Operation]++;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    struct garg g;
    DXGKARG_BUILDPAGINGBUFFER *pa =
        garg_in(vm, &g, a, sizeof(*a), "DXGKARG_BUILDPAGINGBUFFER argument (*pBuildPagingBuffer)");
    DDI_CALL(vm, WK_DDI_BUILD_PAGING_BUFFER, crashed,
             status = vm->ddi.DxgkDdiBuildPagingBuffer(vm->miniport, pa);
             ddi_rewrite(vm, WK_DDI_BUILD_PAGING_BUFFER, pa, &status));
    wk_status guard = garg_out(vm, &g, WK_DDI_BUILD_PAGING_BUFFER, crashed);
    if (crashed != WK_OK || guard != WK_OK)
        return crashed != WK_OK ? crashed : guard;
    vm->stats.paging_passes++;
    if (status != STATUS_SUCCESS || a->pDmaBuffer != NULL)
        return violate(vm, R_PAGING_CPUUPDATE, WK_DDI_BUILD_PAGING_BUFFER,
                       "%s with no paging buffer (pDmaBuffer NULL, UpdateMode CPU_VIRTUAL whatever mode the driver "
                       "reports: the system paging process's own table) returned 0x%08x%s: it is written through "
                       "PageTableAddress.CpuVirtual before the call returns, and SUCCESS returned", op_name(p.op),
                       (unsigned)status, a->pDmaBuffer ? " and moved pDmaBuffer off NULL" : "");
    if (a->Operation != p.op || memcmp(p.in_fields, (uint8_t *)a + UNION_OFFSET, UNION_SIZE) != 0)
        return violate(vm, R_PAGING_INPUT, WK_DDI_BUILD_PAGING_BUFFER,
                       "%s changed its [in] arguments (Operation or the %s payload)", op_name(p.op), op_name(p.op));
    return gbuf_check(vm, &vm->paging_private, WK_DDI_BUILD_PAGING_BUFFER);
}

static wk_status run_operation(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t *passes, int submit);

wk_status paging_run(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t *passes)
{
    return run_operation(vm, a, passes, 1);
}

wk_status paging_run_held(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a)
{
    return run_operation(vm, a, NULL, 0);
}

/* The calls an operation may take where no case bounds them: a guard
 * against a driver that never finishes, not a rule. An UPDATE_PAGE_TABLE
 * may need one call per entry (a driver whose command takes one entry in
 * a 28-byte buffer), and a two-level root of 8192 entries was failed
 * PAGING-PROGRESS-001 at 4096 calls, each of which had advanced (the
 * reference GpuMmu driver, fuzz_prog). */
static uint32_t guard_passes(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    uint64_t need = a->Operation == DXGK_OPERATION_UPDATE_PAGE_TABLE ? 2ull * a->UpdatePageTable.NumPageTableEntries + 64 : 0;
    return need > 4096 ? (uint32_t)(need < UINT32_MAX ? need : UINT32_MAX) : 4096u;
}

/* One operation, multipass; submit: the buffer is submitted once it is done. */
static wk_status run_operation(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t *passes, int submit)
{
    if (!vm->ddi.DxgkDdiBuildPagingBuffer)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiBuildPagingBuffer");
    wk_status st = ensure_buffer(vm, 0); /* lazy: just its own pages */
    if (st != WK_OK)
        return st;
    /* The case's bound is for the operations it asks, not for the page
     * tables of the paging process's scratch area the kit adds. */
    uint32_t max = vm->cfg.max_passes && !(vm->va && vm->va->pp.kit_work) ? vm->cfg.max_passes : guard_passes(a);
    a->MultipassOffset = 0; /* zeroed before the first call (P4) */
    if ((unsigned)a->Operation < 18)
        vm->stats.paging_ops[a->Operation]++;
    int asked_for_room = 0;
    for (uint32_t n = 1;; n++) {
        struct pass p;
        NTSTATUS status;
        st = call_once(vm, a, &status, &p);
        if (st != WK_OK)
            return st;
        uint64_t wrote = (uint64_t)((uint8_t *)a->pDmaBuffer - p.dma_before);
        vm->paging_used += wrote;
        vm->paging_built += wrote;
        vm->paging_private_used += (uint64_t)((uint8_t *)a->pDmaBufferPrivateData - p.priv_before);
        if (passes)
            *passes = n;
        if (status == STATUS_SUCCESS) {
            /* "freed immediately after the corresponding UNMAP_APERTURE_SEGMENT
             * call": before its buffer runs and its interrupt comes
             * (outsider 26's interrupt routine wrote through it unseen) */
            if (vm->view_ending && a->Operation == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT)
                aperture_view_end(vm, vm->view_ending);
            return submit ? paging_flush(vm) : WK_OK;
        }
        if (n >= max)
            return violate(vm, R_PAGING_PROGRESS, WK_DDI_BUILD_PAGING_BUFFER,
                           "%s not finished after %u calls (paging buffer %u bytes)",
                           op_name(p.op), n, (unsigned)vm->paging.size);
        if (status == STATUS_GRAPHICS_ALLOCATION_BUSY) {
            st = on_busy(vm, a);
        } else {
            /* A driver that asks for a fresh buffer, nothing written in one
             * other operations began, keeps kinds apart (paging_process.c):
             * not yet multipass, which a case that wants it must reach in
             * the fresh buffer (outsider 18: such cases passed on no
             * multipass at all). */
            int fresh_asked = wrote == 0 && p.size_before < vm->paging.size;
            if (!fresh_asked && !asked_for_room++ && (unsigned)p.op < 18)
                vm->stats.paging_multipass[p.op]++;
            /* Less room than the driver's own PagingBufferSize: making progress
             * in it is the reference driver's choice (it fits any command in
             * 28 bytes), not a rule; the contract profile does not hold a
             * driver to it (wk_vidmm_skip_choice_rules). */
            if (wrote == 0 && p.size_before == vm->paging.size && a->MultipassOffset == p.multipass_before &&
                p.size_before < vm->paging_buffer_size && vm->skip_choice_rules)
                return fail(vm, WK_E_NOT_SUPPORTED,
                            "%s needs more room than a %u-byte paging buffer, smaller than the driver's own "
                            "PagingBufferSize (%u): a fresh buffer is never that small, no fault of a driver that needs its own size",
                            op_name(p.op), p.size_before, vm->paging_buffer_size);
            if (wrote == 0 && p.size_before == vm->paging.size && a->MultipassOffset == p.multipass_before)
                return violate(vm, R_PAGING_STALL, WK_DDI_BUILD_PAGING_BUFFER,
                               "%s asked for more room with an empty %u-byte buffer and no progress in MultipassOffset (%u)",
                               op_name(p.op), p.size_before, a->MultipassOffset);
            st = paging_flush(vm);
        }
        if (st != WK_OK)
            return st;
    }
}
