/* SPDX-License-Identifier: MIT */
/*
 * paging_process.c - the system paging process of a GpuMmu driver, and the
 * operations that run in it: TRANSFER_VIRTUAL and FILL_VIRTUAL, and
 * UPDATE_CONTEXT_ALLOCATION and COPY_PAGE_TABLE_ENTRIES.
 *
 * "Most paging operations occur in a context of the system paging process"
 * (System paging process). It has "its own GPU virtual address space, GPU
 * contexts and direct memory access (DMA) buffers (called paging
 * buffers)", and a scratch area "used to temporary map allocations during
 * transfer and fill operations". TRANSFER and FILL are "WDDMv1 Only" in the
 * header; a GpuMmu driver gets TRANSFER_VIRTUAL and FILL_VIRTUAL, whose
 * addresses are the paging process's (docs/wddm-gpummu-facts.md 4.1, 4.5,
 * 5.3 A1-A3). So the kit, as the kernel:
 *
 *   - makes the process once it first moves content (and again after a
 *     reset, which loses the GPU's memory as a power transition does):
 *     DxgkDdiCreateProcess with SystemProcess, its root and tables in the
 *     levels' PagingProcessPageTableSegmentId, set up by UPDATE_PAGE_TABLE
 *     "forced to CPU_VIRTUAL and ... done immediately using the CPU"
 *     (gpuva.c, update_by_cpu; PAGING-CPUUPDATE-001);
 *   - maps there the paging buffer, at the address DmaBufferGpuVirtualAddress
 *     and SubmitCommand's DmaBufferPhysicalAddress name ("the virtual
 *     address where the DMA buffer was paged in", seed
 *     DXGKARG_BUILDPAGINGBUFFER), so a paging buffer runs whether the
 *     driver runs it in the process or physically;
 *   - tells the system context the process's root (DxgkDdiSetRootPageTable:
 *     "Before a graphics context of a process can be set for execution,
 *     KMD's DxgkDdiSetRootPageTable function is called", GPU virtual
 *     address; the paging process's contexts are the system contexts);
 *   - for each transfer or fill: maps the allocation's pages into the
 *     scratch area (UPDATE_PAGE_TABLE in the driver's own update mode, as
 *     for every other process: which mode the kernel uses for the scratch
 *     tables is not documented), asks the operation at those addresses in
 *     the same paging buffer (hold_maps), unmaps them (invalid entries,
 *     FLUSH_TLB), and judges the content where it is in memory, as for
 *     TRANSFER and FILL (PAGING-TRANSFER-001, PAGING-FILL-001). An
 *     allocation larger than a scratch window goes in chunks ("If an
 *     allocation does not fit into the virtual address scratch area, the
 *     transfer operation is done in chunks");
 *   - the same for a context allocation's update ("mapped into the scratch
 *     area of the video memory manager paging process", seed "Context
 *     allocation") and for the two roots a copy reads and writes
 *     (COPY_PAGE_TABLE_ENTRIES, judged in gpuva.c);
 *   - for a fence and a context resource's initialization, whose address
 *     the kit gives as its GPU reaches the bytes physically: the bytes
 *     mapped at that same address for the operation (paging_run_in_place),
 *     so that a driver may run the buffer either way.
 *
 * The layout is the kit's (the documentation's is "illustrative"): page 0
 * invalid, the paging buffer where its address is, and the scratch area
 * from 4 MB (or past the buffer) in two windows of up to 1 MB, source and
 * destination, whose tables are placed when the process is made.
 *
 * Where the kit cannot make the process (not a GpuMmu driver whose spaces
 * it drives, no room for the tables, a driver that wants SourcePageTable,
 * one that refuses the system process), it asks TRANSFER and FILL as
 * before, and a driver that leaves them undone is not blamed (paging_ops.c,
 * v1_operation_of_gpummu): why is said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)
#define SCRATCH_LOW (4ull << 20) /* the documentation's example starts the scratch area at 4 MB */
#define WINDOW_MAX (1ull << 20)

static int made(const struct wk_vidmm *vm)
{
    return vm->va && vm->va->space[GPUVA_PAGING_SPACE].live;
}

/* A status the kit's own limits give (no room, no slot, not modelled):
 * then TRANSFER and FILL instead. Anything else is the driver's verdict. */
static int kit_limit(wk_status st)
{
    return st == WK_E_NO_SPACE || st == WK_E_LIMIT || st == WK_E_NOT_SUPPORTED || st == WK_E_NO_MEMORY;
}

/* Why this adapter gets no paging process, before anything is made: NULL
 * when it can. */
static const char *unmade_why(struct wk_vidmm *vm)
{
    const char *why = gpuva_why_none(vm);
    if (why)
        return why;
    if (vm->mmu.caps.LegacyBehaviors.SourcePageTableVaInTransfer)
        return "a limit of the kit: the driver asks for SourcePageTable in TRANSFER_VIRTUAL "
               "(LegacyBehaviors.SourcePageTableVaInTransfer), and the kit maps no page table into the paging process";
    if (!vm->sys_context.live)
        return "the driver has no system context (DxgkDdiCreateContext): nothing runs the paging process";
    if (!vm->ddi.DxgkDdiSetRootPageTable)
        return "the driver has no DxgkDdiSetRootPageTable: the system context could not learn the paging process's root";
    return NULL;
}

/* The paging buffer's pages, mapped at `va` in the process. */
static wk_status map_buffer_at(struct wk_vidmm *vm, uint64_t va, uint64_t bytes)
{
    uint64_t pages = bytes / PAGE;
    uint64_t *pfns = malloc(pages * sizeof(*pfns));
    if (!pfns)
        return fail(vm, WK_E_NO_MEMORY, "no memory for the paging buffer's %llu pages", (unsigned long long)pages);
    for (uint64_t i = 0; i < pages; i++)
        pfns[i] = vm->paging.first_pfn + i;
    struct va_pages p = { 0, 0, pfns };
    wk_status st = gpuva_map_pages(vm, GPUVA_PAGING_SPACE, va, bytes, &p, NULL, 0);
    free(pfns);
    return st;
}

/* Where the process's layout goes, or why it cannot: the paging buffer
 * (both addresses the driver is given for it) and the scratch area. */
static const char *lay_out(struct wk_vidmm *vm, struct paging_process *pp, uint64_t *other_va)
{
    uint32_t bits = wk_mmu_va_bits(&vm->mmu.geometry);
    uint64_t top = bits < 64 ? 1ull << bits : UINT64_MAX, span = gpuva_leaf_span(vm);
    pp->buffer_va = vm->paging.first_pfn << WK_GPU_PAGE_SHIFT;
    pp->buffer_bytes = vm->paging.pages * PAGE;
    *other_va = paging_dma_address(vm); /* an aperture's address, when the buffer is placed there */
    uint64_t end = pp->buffer_va + pp->buffer_bytes;
    uint64_t other_end = *other_va + pp->buffer_bytes;
    end = other_end > end ? other_end : end;
    if (!pp->buffer_bytes || end > top || end < pp->buffer_va)
        return "a limit of the kit: the paging buffer's address is past the addresses the driver's page-table "
               "levels index, where the kit maps it in the paging process";
    pp->window = span < WINDOW_MAX ? span : WINDOW_MAX;
    pp->scratch = end > SCRATCH_LOW ? end : SCRATCH_LOW;
    pp->scratch = (pp->scratch + span - 1) & ~(span - 1);
    if (pp->scratch < end || pp->scratch + 2 * pp->window > top || pp->scratch + 2 * pp->window < pp->scratch)
        return "a limit of the kit: no room for the scratch area above the paging buffer in the addresses the "
               "driver's page-table levels index";
    return NULL;
}

/* The process made and set up (every table by the CPU), then the system
 * context told its root. */
static wk_status make(struct wk_vidmm *vm, struct paging_process *pp)
{
    uint64_t other_va;
    const char *why = lay_out(vm, pp, &other_va);
    if (why)
        return fail(vm, WK_E_NOT_SUPPORTED, "%s", why);
    vm->stats.paging_process_setups++;
    vm->va->cpu_updates = 1;
    wk_status st = gpuva_space_make(vm, GPUVA_PAGING_SPACE);
    if (st == WK_OK)
        st = map_buffer_at(vm, pp->buffer_va, pp->buffer_bytes);
    pp->other_va = other_va;
    if (st == WK_OK && other_va != pp->buffer_va)
        st = map_buffer_at(vm, other_va, pp->buffer_bytes);
    if (st == WK_OK)
        st = gpuva_place_leaves(vm, GPUVA_PAGING_SPACE, pp->scratch, 2 * pp->window);
    /* GPU_VIRTUAL: "A system page table is created, which mirrors the
     * scratch area page tables into the system process's address space.
     * This allows the system process to modify the scratch area page
     * tables" (System paging process): they are mapped past the windows. */
    if (st == WK_OK && vm->mmu.caps.PageTableUpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL)
        st = gpuva_mirror_tables(vm, pp->scratch, 2 * pp->window, pp->scratch + 2 * pp->window);
    vm->va->cpu_updates = 0;
    if (st == WK_OK)
        st = gpuva_set_root(vm, &vm->sys_context, GPUVA_PAGING_SPACE);
    return st;
}

int paging_process_use(struct wk_vidmm *vm, wk_status *st)
{
    *st = WK_OK;
    if (!vm->mmu.asked || vm->dead)
        return 0;
    if (made(vm) && vm->va->pp.buffer_va == vm->paging.first_pfn << WK_GPU_PAGE_SHIFT &&
        vm->va->pp.buffer_bytes == vm->paging.pages * PAGE)
        return 1;
    if (made(vm)) { /* a new paging buffer (wk_vidmm_reconfigure): the process is made again */
        gpuva_paging_release(vm);
        vm->va->pp.tried = 0;
    }
    struct gpuva *g = va_state(vm);
    if (!g || g->pp.tried)
        return 0;
    g->pp.tried = 1;
    char last[sizeof(vm->last_error)];
    memcpy(last, vm->last_error, sizeof(last));
    const char *why = unmade_why(vm);
    if (why) {
        snprintf(g->pp.why, sizeof(g->pp.why), "%s", why);
        return 0;
    }
    *st = make(vm, &g->pp);
    if (*st == WK_OK)
        return 1;
    if (made(vm))
        gpuva_paging_release(vm);
    if (!kit_limit(*st) || vm->dead)
        return -1; /* the driver's: its violation, crash or hang is the verdict */
    snprintf(g->pp.why, sizeof(g->pp.why), "%s", vm->last_error);
    memcpy(vm->last_error, last, sizeof(last));
    *st = WK_OK;
    return 0;
}

const char *paging_process_why_none(const struct wk_vidmm *vm)
{
    if (!vm->mmu.asked)
        return "the driver is not a GpuMmu driver";
    if (made(vm))
        return NULL;
    return vm->va && vm->va->pp.why[0] ? vm->va->pp.why : "the paging process was not made";
}

int wk_vidmm_kit_paging_work(const struct wk_vidmm *vm)
{
    return vm->va && (vm->va->cpu_updates || vm->va->pp.kit_work);
}

int paging_process_live(const struct wk_vidmm *vm)
{
    return made(vm);
}

/* ------------------------------------------------------------------ */
/* The operations                                                       */
/* ------------------------------------------------------------------ */

/* The pages of one side: the allocation's in segment `seg` from `offset`,
 * or its system pages. */
static struct va_pages side_pages(const struct allocation *a, uint32_t seg, uint64_t offset, int system)
{
    if (system)
        return (struct va_pages){ 0, 0, a->pfns };
    return (struct va_pages){ seg, offset, NULL };
}

/* Bytes per operation: a scratch window, or less (cfg.transfer_chunk, as
 * for TRANSFER: cases that want chunks ask for them). */
static uint64_t chunk_bytes(const struct wk_vidmm *vm)
{
    uint64_t chunk = vm->va->pp.window;
    uint64_t asked = vm->cfg.transfer_chunk;
    return asked && asked % PAGE == 0 && asked < chunk ? asked : chunk;
}

/* The scratch area's updates: not the operation the case asks, so not
 * bounded by its max_passes. */
static wk_status scratch_map(struct wk_vidmm *vm, uint64_t va, uint64_t n, const struct va_pages *pages,
                             const struct allocation *a, uint64_t off)
{
    vm->va->pp.kit_work = 1;
    wk_status st = gpuva_map_pages(vm, GPUVA_PAGING_SPACE, va, n, pages, a, off);
    vm->va->pp.kit_work = 0;
    return st;
}

static wk_status scratch_unmap(struct wk_vidmm *vm, uint64_t va, uint64_t n)
{
    vm->va->pp.kit_work = 1;
    wk_status st = gpuva_unmap_pages(vm, GPUVA_PAGING_SPACE, va, n);
    vm->va->pp.kit_work = 0;
    return st;
}

/*
 * The scratch mappings an operation needs go in the paging buffer with
 * the operation after them, as the kernel may build one buffer of several
 * operations (DmaBufferWriteOffset says where each begins): the driver must
 * keep apart what its GPU cannot run together (the kit's GPU runs a buffer
 * physically or in one space, so its driver asks for a fresh buffer with
 * INSUFFICIENT_DMA_BUFFER). Not for a binding without a register model,
 * where the kit itself chooses how a buffer runs and cannot run one both
 * ways. The held updates are judged once the operation's buffer ran.
 */
static int hold_maps(struct wk_vidmm *vm)
{
    int hold = !binding_executes(vm) || binding_has_registers(vm);
    gpuva_hold(vm, hold);
    return hold;
}

/* The maps done (st): the operation may follow, or, on an error, what was
 * held runs and is dropped. */
static wk_status maps_done(struct wk_vidmm *vm, wk_status st)
{
    gpuva_hold(vm, 0);
    if (st == WK_OK)
        return WK_OK;
    (void)paging_flush(vm);
    (void)gpuva_held_checks(vm, 0);
    return st;
}

/* The two windows an operation reads and writes: `src` at the scratch
 * area, `dst` one window up, n bytes from `off` of allocation `a` (NULL:
 * page tables, which have no handle, 5.2 T1), held for the operation. */
static wk_status map_windows(struct wk_vidmm *vm, const struct va_pages *src, const struct va_pages *dst, uint64_t n,
                             const struct allocation *a, uint64_t off)
{
    const struct paging_process *pp = &vm->va->pp;
    (void)hold_maps(vm);
    wk_status st = scratch_map(vm, pp->scratch, n, src, a, off);
    if (st == WK_OK)
        st = scratch_map(vm, pp->scratch + pp->window, n, dst, a, off);
    return maps_done(vm, st);
}

static wk_status unmap_windows(struct wk_vidmm *vm, uint64_t n)
{
    const struct paging_process *pp = &vm->va->pp;
    wk_status st = scratch_unmap(vm, pp->scratch, n);
    return st == WK_OK ? scratch_unmap(vm, pp->scratch + pp->window, n) : st;
}

/* The operation after its held maps ran: they are judged now. */
static wk_status held_judged(struct wk_vidmm *vm, wk_status st)
{
    wk_status checks = gpuva_held_checks(vm, st == WK_OK);
    return st != WK_OK ? st : checks;
}

/* The operation itself: its buffers run in the paging process. Whether
 * the driver built anything for it is kept for the message of a content
 * check (paging_process_hint) and for an operation it need not know
 * (paging_copy_entries): bytes it wrote in the paging buffer, which any
 * GPU's command takes. */
static wk_status op_run(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *args)
{
    uint64_t built = vm->paging_built;
    vm->va->pp.op_start_built = built;
    vm->va->pp.in_op = 1;
    vm->va->pp.last_op = args->Operation;
    wk_status st = paging_run(vm, args, NULL);
    vm->va->pp.in_op = 0;
    /* The root its last buffer ran under, before the scratch area's
     * unmapping runs others (paging_process_hint). */
    vm->va->pp.op_root = binding_executes(vm) ? vm->bind_last_root : wk_gpu_last_root(vm->gpu);
    if (vm->paging_built == built)
        vm->va->pp.idle_ops++;
    return st;
}

/* One TRANSFER_VIRTUAL of bytes [off, off + n) of the allocation. */
static wk_status transfer_chunk(struct wk_vidmm *vm, struct allocation *a, const struct va_pages *src,
                                const struct va_pages *dst, DXGK_MEMORY_TRANSFER_DIRECTION dir, uint64_t off,
                                uint64_t n)
{
    const struct paging_process *pp = &vm->va->pp;
    wk_status st = map_windows(vm, src, dst, n, a, off);
    if (st != WK_OK)
        return st;
    DXGKARG_BUILDPAGINGBUFFER args;
    memset(&args, 0, sizeof(args));
    args.Operation = DXGK_OPERATION_VIRTUAL_TRANSFER;
    DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL *t = &args.TransferVirtual;
    t->hAllocation = a->driver_handle;
    t->AllocationOffsetInBytes = off; /* not to be added to the addresses: they point at the bytes (4.5) */
    t->TransferSizeInBytes = n;
    t->SourceVirtualAddress = pp->scratch;
    t->DestinationVirtualAddress = pp->scratch + pp->window;
    t->TransferDirection = dir;
    st = held_judged(vm, op_run(vm, &args));
    return st == WK_OK ? unmap_windows(vm, n) : st;
}

wk_status paging_transfer_virtual(struct wk_vidmm *vm, struct allocation *a, uint32_t src_seg, uint64_t src_off,
                                  int src_sys, uint32_t dst_seg, uint64_t dst_off, int dst_sys)
{
    vm->va->pp.idle_ops = 0;
    DXGK_MEMORY_TRANSFER_DIRECTION dir = src_sys   ? DXGK_MEMORY_TRANSFER_SYSTEM_TO_LOCAL
                                         : dst_sys ? DXGK_MEMORY_TRANSFER_LOCAL_TO_SYSTEM
                                                   : DXGK_MEMORY_TRANSFER_LOCAL_TO_LOCAL;
    struct va_pages src = side_pages(a, src_seg, src_off, src_sys), dst = side_pages(a, dst_seg, dst_off, dst_sys);
    uint64_t chunk = chunk_bytes(vm);
    /* A move inside one segment onto part of itself: no operation's two
     * ranges overlap in memory (its addresses differ, so the driver cannot
     * see that they would), and the chunks go from the end when the
     * destination is above the source, so none reads bytes an earlier one
     * wrote. */
    int backward = 0;
    if (!src_sys && !dst_sys && src_seg == dst_seg && src_off != dst_off) {
        uint64_t gap = src_off < dst_off ? dst_off - src_off : src_off - dst_off;
        if (gap < a->size) {
            chunk = gap < chunk ? gap : chunk;
            backward = dst_off > src_off;
        }
    }
    wk_status st = WK_OK;
    for (uint64_t done = 0; done < a->size && st == WK_OK;) {
        uint64_t n = a->size - done < chunk ? a->size - done : chunk;
        uint64_t off = backward ? a->size - done - n : done;
        st = transfer_chunk(vm, a, &src, &dst, dir, off, n);
        done += n;
    }
    return st;
}

wk_status paging_fill_virtual(struct wk_vidmm *vm, struct allocation *a, uint32_t pattern)
{
    vm->va->pp.idle_ops = 0;
    const struct paging_process *pp = &vm->va->pp;
    struct va_pages pages = side_pages(a, a->segment, a->offset, 0);
    uint64_t chunk = chunk_bytes(vm);
    wk_status st = WK_OK;
    for (uint64_t off = 0; off < a->size && st == WK_OK; off += chunk) {
        uint64_t n = a->size - off < chunk ? a->size - off : chunk;
        (void)hold_maps(vm);
        st = maps_done(vm, scratch_map(vm, pp->scratch, n, &pages, a, off));
        if (st != WK_OK)
            break;
        DXGKARG_BUILDPAGINGBUFFER args;
        memset(&args, 0, sizeof(args));
        args.Operation = DXGK_OPERATION_VIRTUAL_FILL;
        args.FillVirtual.hAllocation = a->driver_handle;
        args.FillVirtual.AllocationOffsetInBytes = off;
        args.FillVirtual.FillSizeInBytes = n;
        args.FillVirtual.FillPattern = pattern;
        args.FillVirtual.DestinationVirtualAddress = pp->scratch;
        st = held_judged(vm, op_run(vm, &args));
        if (st == WK_OK)
            st = scratch_unmap(vm, pp->scratch, n);
    }
    return st;
}

static wk_status paging_context_virtual(struct wk_vidmm *vm, struct allocation *a, DXGKARG_BUILDPAGINGBUFFER *args,
                                        D3DGPU_VIRTUAL_ADDRESS *at);

/*
 * UPDATE_CONTEXT_ALLOCATION of a GpuMmu driver: "The context allocation
 * being updated is mapped into the scratch area of the video memory manager
 * paging process, then the driver is called with a new
 * UpdateContextAllocation paging operation" (seed "Context allocation";
 * docs/wddm-gpummu-facts.md 3.7, facts A6): the context
 * allocation's pages mapped at the scratch area, ContextAllocation their
 * address there, unmapped once the operation ran. A context allocation
 * larger than the scratch area (two windows) cannot be mapped whole: a
 * limit of the kit, said.
 */
wk_status paging_update_context_virtual(struct wk_vidmm *vm, struct allocation *a, DXGKARG_BUILDPAGINGBUFFER *args)
{
    return paging_context_virtual(vm, a, args, &args->UpdateContextAllocation.ContextAllocation);
}

/* The same for INIT_CONTEXT_RESOURCE of a GPU_VIRTUAL driver: "all paging
 * operation will occur in the virtual address space of the system context"
 * (DXGK_GPUMMUCAPS), so Destination.GpuVirtualAddress ("GPU virtual address
 * of the context resource to initialize", seed DXGKARG_BUILDPAGINGBUFFER)
 * is the context allocation's address in the paging process, mapped there
 * for the operation; its segment address and MDL stay as they are. */
wk_status paging_init_context_virtual(struct wk_vidmm *vm, struct allocation *a, DXGKARG_BUILDPAGINGBUFFER *args)
{
    struct paging_process *pp = &vm->va->pp;
    uint64_t phys = (uint64_t)args->InitContextResource.Destination.SegmentAddress.QuadPart;
    pp->init_lo = args->InitContextResource.Destination.SegmentId ? phys : 0;
    pp->init_hi = args->InitContextResource.Destination.SegmentId ? phys + a->size : 0;
    wk_status st = paging_context_virtual(vm, a, args, &args->InitContextResource.Destination.GpuVirtualAddress);
    pp->init_lo = pp->init_hi = 0;
    return st;
}

static wk_status paging_context_virtual(struct wk_vidmm *vm, struct allocation *a, DXGKARG_BUILDPAGINGBUFFER *args,
                                        D3DGPU_VIRTUAL_ADDRESS *at)
{
    const struct paging_process *pp = &vm->va->pp;
    if (a->size > 2 * pp->window)
        return fail(vm, WK_E_NOT_SUPPORTED, "a limit of the kit: a context allocation of %llu bytes, larger than the "
                    "paging process's scratch area (%llu bytes), where UPDATE_CONTEXT_ALLOCATION maps it whole",
                    (unsigned long long)a->size, (unsigned long long)(2 * pp->window));
    int system = !a->resident || vm->seg[a->segment].aperture;
    struct va_pages pages = side_pages(a, a->segment, a->offset, system);
    (void)hold_maps(vm);
    wk_status st = maps_done(vm, scratch_map(vm, pp->scratch, a->size, &pages, a, 0));
    if (st != WK_OK)
        return st;
    *at = pp->scratch;
    st = held_judged(vm, op_run(vm, args));
    return st == WK_OK ? scratch_unmap(vm, pp->scratch, a->size) : st;
}

/* Whether [lo, hi) is free in the paging process for an operation's bytes
 * at their own address: below the scratch area (and its mirror above it),
 * apart from the paging buffer's two addresses, and not page 0. */
static int in_place_free(const struct wk_vidmm *vm, uint64_t lo, uint64_t hi)
{
    const struct paging_process *pp = &vm->va->pp;
    uint64_t bytes = pp->buffer_bytes;
    return lo >= PAGE && hi > lo && hi <= pp->scratch && (hi <= pp->buffer_va || lo >= pp->buffer_va + bytes) &&
           (hi <= pp->other_va || lo >= pp->other_va + bytes);
}

/* The pages of [lo, hi) when all of it lies in one memory segment. An
 * aperture's address is left physical: mapping the system pages behind it
 * would take the driver's own aperture mapping out of what the operation
 * proves. */
static int in_place_pages(struct wk_vidmm *vm, uint64_t lo, uint64_t hi, struct va_pages *pages)
{
    for (uint32_t i = 1; i <= vm->nseg && i <= MAX_SEGMENTS; i++) {
        const struct segment *s = &vm->seg[i];
        if (s->size && !s->aperture && lo >= s->base && hi - s->base <= s->size) {
            *pages = (struct va_pages){ i, lo - s->base, NULL };
            return 1;
        }
    }
    return 0;
}

/* The operation with no mapping: physical only. A buffer of it that
 * faults on a translation under a root is not judged (in_place -1,
 * paging_process_physical_exempt): the kernel gives it a GPU VA. */
static wk_status run_physical_only(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *args)
{
    int live = made(vm);
    if (live)
        vm->va->pp.in_place = -1;
    wk_status st = paging_run(vm, args, NULL);
    if (live && vm->va)
        vm->va->pp.in_place = 0;
    return st;
}

/* The mapping of [lo, hi) undone, and the tables placed for it freed, so
 * that the cases' room is what it was. */
static wk_status unmap_in_place(struct wk_vidmm *vm, uint64_t lo, uint64_t hi, const uint8_t *was_live)
{
    vm->va->cpu_updates = 1;
    wk_status st = scratch_unmap(vm, lo, hi - lo);
    if (st == WK_OK && vm->va)
        st = gpuva_tables_drop_new(vm, GPUVA_PAGING_SPACE, was_live);
    if (vm->va)
        vm->va->cpu_updates = 0;
    return st;
}

/*
 * "Most paging operations occur in a context of the system paging process"
 * (System paging process), so a GpuMmu driver may run any paging buffer
 * there, under the root the system context got. SIGNAL_MONITORED_FENCE's
 * MonitoredFenceGpuVa is a "GPU VA" (seed DXGKARG_BUILDPAGINGBUFFER), and
 * INIT_CONTEXT_RESOURCE's Destination.GpuVirtualAddress the "GPU virtual
 * address of the context resource"; the kit gives the address at which its
 * GPU reaches the bytes physically, and maps them at that same address in
 * the paging process for the operation, so that it holds both ways. The
 * entries are written by the CPU, as the process's own set-up writes its
 * tables (docs/wddm-gpummu-facts.md 4.2), and invalidated and flushed
 * (FLUSH_TLB) once the operation ran. Where the process is not made, or
 * the address is taken there or not in a memory segment, the operation
 * runs as before, physical only.
 */
wk_status paging_run_in_place(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *args, uint64_t addr, uint64_t bytes)
{
    uint64_t lo = addr & ~(PAGE - 1), hi = (addr + bytes + PAGE - 1) & ~(PAGE - 1);
    struct va_pages pages;
    /* Only in a process already made: a driver runs a buffer there once
     * the system context has its root, and making it here would change
     * where the case's other buffers run. */
    if (!made(vm) || vm->va->pp.buffer_va != vm->paging.first_pfn << WK_GPU_PAGE_SHIFT || hi < addr ||
        !in_place_free(vm, lo, hi) || !in_place_pages(vm, lo, hi, &pages))
        return run_physical_only(vm, args);
    uint8_t was_live[GPUVA_MAX_TABLES];
    gpuva_tables_live(vm, was_live);
    char last[sizeof(vm->last_error)];
    memcpy(last, vm->last_error, sizeof(last));
    vm->va->cpu_updates = 1;
    wk_status st = scratch_map(vm, lo, hi - lo, &pages, NULL, 0);
    vm->va->cpu_updates = 0;
    if (st != WK_OK) {
        if (!kit_limit(st) || vm->dead || !vm->va || unmap_in_place(vm, lo, hi, was_live) != WK_OK)
            return st;
        memcpy(vm->last_error, last, sizeof(last)); /* no room for the tables: physical only, as before */
        return run_physical_only(vm, args);
    }
    vm->va->pp.in_place = 1;
    vm->va->pp.place_lo = lo, vm->va->pp.place_hi = hi;
    st = paging_run(vm, args, NULL);
    if (!vm->va || vm->dead)
        return st;
    vm->va->pp.in_place = 0;
    /* Unmapped whatever the operation's outcome: an input of a fuzz
     * harness goes on with the adapter after a refusal. */
    wk_status un = unmap_in_place(vm, lo, hi, was_live);
    return st != WK_OK ? st : un;
}

wk_status paging_table_window(struct wk_vidmm *vm, const struct va_pages *pages, uint64_t bytes, uint64_t *va)
{
    wk_status st;
    int use = paging_process_use(vm, &st);
    if (use < 0)
        return st;
    if (use == 0)
        return fail(vm, WK_E_NOT_SUPPORTED, "a GPU_VIRTUAL page-table update runs in the paging process, which the "
                    "kit could not make here: %s", paging_process_why_none(vm));
    const struct paging_process *pp = &vm->va->pp;
    if (bytes > pp->window)
        return fail(vm, WK_E_NOT_SUPPORTED, "a limit of the kit: a %llu-byte page table is larger than the paging "
                    "process's scratch window (0x%llx bytes), where a GPU_VIRTUAL update maps it",
                    (unsigned long long)bytes, (unsigned long long)pp->window);
    (void)hold_maps(vm);
    st = scratch_map(vm, pp->scratch + pp->window, bytes, pages, NULL, 0);
    if (st != WK_OK)
        return maps_done(vm, st);
    *va = pp->scratch + pp->window;
    return WK_OK; /* held: the update follows in the same buffer */
}

wk_status paging_table_window_done(struct wk_vidmm *vm, uint64_t bytes, wk_status st)
{
    gpuva_hold(vm, 0);
    wk_status ran = paging_flush(vm);
    st = held_judged(vm, st != WK_OK ? st : ran);
    return st == WK_OK ? scratch_unmap(vm, vm->va->pp.scratch + vm->va->pp.window, bytes) : st;
}

/*
 * COPY_PAGE_TABLE_ENTRIES (docs/wddm-gpummu-facts.md 4.4; seed
 * DXGKARG_BUILDPAGINGBUFFER, CopyPageTableEntries: "the operation used copy
 * page table entries from one location to another"): both tables mapped
 * into the paging process, the source at the scratch area and the
 * destination one window up (each 64 KiB aligned, as the ranges' table
 * addresses are), the ranges rebased there, the operation run and the
 * tables unmapped. The caller judges the entries (gpuva.c). *idle: the
 * GPU moved no byte for it.
 */
wk_status paging_copy_entries(struct wk_vidmm *vm, const struct va_pages *src, const struct va_pages *dst,
                              uint64_t table_bytes, DXGK_BUILDPAGINGBUFFER_COPY_RANGE *ranges, uint32_t n, int *idle)
{
    const struct paging_process *pp = &vm->va->pp;
    const uint64_t align = 64u << 10;
    if (table_bytes > pp->window || (pp->scratch | pp->window) % align)
        return fail(vm, WK_E_NOT_SUPPORTED, "a limit of the kit: a %llu-byte table does not fit a 64 KiB-aligned "
                    "scratch window of the paging process (0x%llx bytes at 0x%llx)", (unsigned long long)table_bytes,
                    (unsigned long long)pp->window, (unsigned long long)pp->scratch);
    wk_status st = map_windows(vm, src, dst, table_bytes, NULL, 0);
    if (st != WK_OK)
        return st;
    for (uint32_t i = 0; i < n; i++) {
        ranges[i].SrcPageTableAddress = pp->scratch;
        ranges[i].DstPageTableAddress = pp->scratch + pp->window;
    }
    struct gbuf list;
    st = gbuf_alloc_input(vm, &list, ranges, (uint64_t)n * sizeof(*ranges),
                          "DXGK_BUILDPAGINGBUFFER_COPY_RANGE array (CopyPageTableEntries.pRanges)");
    if (st != WK_OK) {
        (void)paging_flush(vm); /* the held maps run, and are dropped */
        return held_judged(vm, st);
    }
    DXGKARG_BUILDPAGINGBUFFER args;
    memset(&args, 0, sizeof(args));
    args.Operation = DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES;
    args.CopyPageTableEntries.NumRanges = n;
    args.CopyPageTableEntries.pRanges = (DXGK_BUILDPAGINGBUFFER_COPY_RANGE *)(void *)list.ptr;
    vm->va->pp.idle_ops = 0;
    st = held_judged(vm, op_run(vm, &args));
    gbuf_free(vm, &list);
    *idle = vm->va->pp.idle_ops != 0;
    return st == WK_OK ? unmap_windows(vm, table_bytes) : st;
}

/* What the message of a content check adds: the root the last paging
 * buffer ran under, when it was not the paging process's. */
/* The GPU address of the paging process's root (0: none made). */
static uint64_t paging_root(struct wk_vidmm *vm)
{
    D3DGPU_PHYSICAL_ADDRESS at;
    uint32_t entries;
    uint64_t root = 0;
    return made(vm) && gpuva_space_root(vm, GPUVA_PAGING_SPACE, &at, &entries, &root) ? root : 0;
}

void paging_process_hint(struct wk_vidmm *vm, char *buf, size_t size)
{
    buf[0] = '\0';
    uint64_t root = paging_root(vm);
    if (!root)
        return;
    uint64_t ran = vm->va->pp.op_root;
    if (binding_executes(vm) && !binding_has_registers(vm))
        return; /* the kit ran it in the paging process itself */
    if (vm->va->pp.idle_ops)
        snprintf(buf, size, " (the driver built nothing for it: a GpuMmu driver gets %s in place of the \"WDDMv1 "
                 "Only\" %s)", vm->va->pp.last_op == DXGK_OPERATION_VIRTUAL_FILL ? "FILL_VIRTUAL" : "TRANSFER_VIRTUAL",
                 vm->va->pp.last_op == DXGK_OPERATION_VIRTUAL_FILL ? "FILL" : "TRANSFER");
    else if (ran == root)
        return;
    else if (ran == 0)
        snprintf(buf, size, " (its paging buffer ran with no root: its addresses are the paging process's, whose "
                 "root the system context got, 0x%llx)", (unsigned long long)root);
    else
        snprintf(buf, size, " (its paging buffer ran under root 0x%llx, not the paging process's, 0x%llx, which "
                 "the system context got)", (unsigned long long)ran, (unsigned long long)root);
}

/* An INIT_CONTEXT_RESOURCE run in the paging process that faulted outside
 * the window its GpuVirtualAddress names: the driver used the physical
 * SegmentAddress the operation also carries, and which of the two a
 * GPU_VIRTUAL driver must use there is not documented. */
static int init_at_physical(const struct wk_vidmm *vm, uint64_t addr)
{
    const struct paging_process *pp = &vm->va->pp;
    return pp->flush_has_op && pp->last_op == DXGK_OPERATION_INIT_CONTEXT_RESOURCE && addr >= pp->init_lo &&
           addr < pp->init_hi;
}

int paging_process_physical_exempt(struct wk_vidmm *vm, uint32_t reason, uint64_t addr, char *why, size_t size)
{
    int given_va = vm->va && vm->va->pp.in_place < 0; /* an operation the kernel gives a GPU VA, given none */
    if (!vm->mmu.asked || (vm->va && vm->va->pp.in_place > 0) ||
        (vm->mmu.caps.PageTableUpdateMode != DXGK_PAGETABLEUPDATE_GPU_VIRTUAL && !given_va) ||
        (vm->va && (vm->va->pp.flush_has_op || vm->va->pp.gva_updates) && !init_at_physical(vm, addr)))
        return 0; /* (no vm->va: the kit's address spaces, the paging process's too, already ended) */
    uint64_t ran = binding_executes(vm) ? vm->bind_last_root : wk_gpu_last_root(vm->gpu);
    /* An address past what the levels index is no translation the MMU
     * tries: it is a bad address there (a mutated adapter with a segment at
     * 2^50, fuzz_prog on wk_test_gpummu_most_in_pp: its context resource's
     * initialization came physical, past the tree's reach). */
    uint32_t bits = wk_mmu_va_bits(&vm->mmu.geometry);
    int past_reach = reason == (uint32_t)WK_GPU_FAULT_BAD_ADDRESS && addr != UINT64_MAX && bits < 64 && (addr >> bits) != 0;
    if (!ran || !(wk_gpu_fault_is_translation((enum wk_gpu_fault_reason)reason) ||
                  reason == (uint32_t)WK_GPU_FAULT_NO_ADDRESS_SPACE || past_reach))
        return 0;
    if (vm->va && init_at_physical(vm, addr)) {
        snprintf(why, size, "not judged: INIT_CONTEXT_RESOURCE ran in the paging process (GPU_VIRTUAL) at 0x%llx, "
                 "outside the window its GpuVirtualAddress names; the operation also carries the resource's "
                 "physical SegmentAddress, and which one applies there is not documented", (unsigned long long)addr);
        return 1;
    }
    if (vm->mmu.caps.PageTableUpdateMode != DXGK_PAGETABLEUPDATE_GPU_VIRTUAL) {
        snprintf(why, size, "a limit of the kit: \"most paging operations occur in a context of the system paging "
                 "process\", and this one's address, a GPU VA to the kernel, came physical, not mapped there (an "
                 "aperture's, or taken) (it ran under root 0x%llx and faulted)", (unsigned long long)ran);
        return 1;
    }
    snprintf(why, size, "a limit of the kit: with GPU_VIRTUAL \"all paging operation will occur in the virtual "
             "address space of the system context\" (DXGK_GPUMMUCAPS), and this buffer's operations came with "
             "physical addresses, which the kit maps nowhere there (it ran under root 0x%llx and faulted)",
             (unsigned long long)ran);
    return 1;
}

/* A paging buffer of the paging process's operation faulted: where it ran,
 * in words (gpu_fault_check). 0 when the buffer was no such operation's. */
int paging_process_fault_hint(struct wk_vidmm *vm, uint32_t reason, uint64_t addr, char *buf, size_t size)
{
    if (made(vm) && vm->va->pp.in_place > 0 && addr != UINT64_MAX &&
        (binding_executes(vm) ? vm->bind_last_root : wk_gpu_last_root(vm->gpu)) == paging_root(vm)) {
        snprintf(buf, size, " (in the paging process, where the kit mapped the operation's bytes at their own address, "
                 "0x%llx..0x%llx)", (unsigned long long)vm->va->pp.place_lo, (unsigned long long)vm->va->pp.place_hi);
        return 1;
    }
    if (!made(vm) || !(vm->va->pp.flush_has_op || vm->va->pp.gva_updates))
        return 0; /* neither an operation of the paging process nor a GPU_VIRTUAL update in the buffer */
    const struct paging_process *pp = &vm->va->pp;
    uint64_t root = paging_root(vm), ran = binding_executes(vm) ? vm->bind_last_root : wk_gpu_last_root(vm->gpu);
    int translation = wk_gpu_fault_is_translation((enum wk_gpu_fault_reason)reason);
    int in_process = ran == root || (binding_executes(vm) && !binding_has_registers(vm));
    int in_window = addr >= pp->scratch && addr - pp->scratch < 2 * pp->window;
    if (in_process && translation && addr != UINT64_MAX && gpuva_root_end_hint(vm, root, addr, buf, size))
        return 1; /* mapped in the process's tables: a GPU bounded short of the root's end (outsider 21) */
    if (in_process && translation && addr != UINT64_MAX)
        snprintf(buf, size, " (in the paging process, at 0x%llx, %s its scratch windows 0x%llx and 0x%llx of 0x%llx "
                 "bytes%s)", (unsigned long long)addr, in_window ? "in" : "outside", (unsigned long long)pp->scratch,
                 (unsigned long long)(pp->scratch + pp->window), (unsigned long long)pp->window,
                 in_window ? ", where the operation's pages are not mapped" : "");
    else if (in_process)
        snprintf(buf, size, " (in the paging process; its scratch windows 0x%llx and 0x%llx of 0x%llx bytes)",
                 (unsigned long long)pp->scratch, (unsigned long long)(pp->scratch + pp->window),
                 (unsigned long long)pp->window);
    else if (ran == 0)
        snprintf(buf, size, " (run with no root: its addresses are the paging process's, root 0x%llx)",
                 (unsigned long long)root);
    else
        snprintf(buf, size, " (run under root 0x%llx, not the paging process's, 0x%llx)", (unsigned long long)ran,
                 (unsigned long long)root);
    return 1;
}
