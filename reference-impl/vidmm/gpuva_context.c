/* SPDX-License-Identifier: MIT */
/*
 * gpuva_context.c - devices and contexts of a GpuMmu driver's processes:
 * the root table a virtual context runs under, and its submissions.
 *
 * In the GpuMmu model a device belongs to a process (DXGKARG_CREATEDEVICE
 * hKmdProcess, docs/wddm-gpummu-facts.md 3.6), and a context created with
 * DXGK_CREATECONTEXTFLAGS.VirtualAddressing runs in that process's address
 * space: the kernel tells the driver where the process's root table is
 * (DxgkDdiSetRootPageTable, 3.4) once the context exists and again each
 * time the root moves, and hands it DMA buffers by their GPU virtual
 * address in that space (DxgkDdiSubmitCommandVirtual, 3.5). Making the
 * right root active before the buffer runs is the driver's part (3.5):
 *   - SUBMITV-STATUS-001: SubmitCommandVirtual returns SUCCESS, or
 *     STATUS_INVALID_PARAMETER for a buffer it finds malformed (anything
 *     else bug-checks, 3.1);
 *   - SUBMITV-GPU-001: the buffer runs on the GPU without a fault, in its
 *     process's space. The kit wrote it (the GPU's own commands whose every
 *     address the case mapped), so a fault means it ran somewhere else: in
 *     another space, or under a root that is no longer the process's (the
 *     GPU names the root it was given); and a run that translated none of
 *     its addresses in the space ran elsewhere too.
 *
 * The buffers are in the command set of the GPU that runs them, as a
 * user-mode driver writes them: the kit's, or a binding's encoder's
 * (wk_vidmm_virtual_commands); a binding without one is a limit of the kit.
 * A DxgkDdiSetRootPageTable the driver gets is a DDI with no answer: what
 * it did with it shows in the next submission.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static uint32_t context_space(struct wk_vidmm *vm, const struct context *c)
{
    const struct device *d = device_get(vm, c->device);
    return d ? d->space : 0;
}

static int is_virtual(uint32_t flags)
{
    DXGK_CREATECONTEXTFLAGS f;
    f.Value = flags;
    return f.VirtualAddressing;
}

wk_status wk_vidmm_context_space(struct wk_vidmm *vm, uint32_t context, uint32_t *space)
{
    *space = 0;
    const struct context *c = context_get(vm, context);
    if (!c)
        return fail(vm, WK_E_NOT_FOUND, "no context %u", context);
    *space = context_space(vm, c);
    if (!*space)
        return fail(vm, WK_E_INVALID_ARGUMENT, "context %u belongs to a device of no process", context);
    return WK_OK;
}

uint32_t gpuva_space_devices(struct wk_vidmm *vm, uint32_t space)
{
    uint32_t n = 0;
    struct ht_iter it;
    for (uint32_t d = ht_iter_first(&vm->devices, &it); d; d = ht_iter_next(&vm->devices, &it)) {
        const struct device *dev = device_get(vm, d);
        n += dev && dev->live && dev->space == space;
    }
    return n;
}

wk_status gpuva_context_creatable(struct wk_vidmm *vm, uint32_t device, uint32_t flags)
{
    if (!is_virtual(flags))
        return WK_OK;
    /* The kernel's system context runs in the system paging process
     * (paging_process.c), which the kernel makes, not in an application's
     * (DXGK_CREATECONTEXTFLAGS.SystemContext: a context of the paging
     * engine, facts §3.3): a case that asks one in a process asks what no
     * kernel does (a fuzzed one hijacked the reference driver's paging
     * root). */
    DXGK_CREATECONTEXTFLAGS f = { .Value = flags };
    if (f.SystemContext)
        return fail(vm, WK_E_INVALID_ARGUMENT, "a virtual system context (SystemContext with VirtualAddressing): "
                    "the kernel's system context runs in the system paging process, which no case makes");
    const struct device *d = device_get(vm, device);
    const char *none = gpuva_why_none(vm);
    if ((!d || !d->space) && none)
        return fail(vm, WK_E_NOT_SUPPORTED, "no GPU virtual address space: %s", none);
    if ((!d || !d->space) && vm->space_refused[0])
        return fail(vm, WK_E_NOT_SUPPORTED, "a virtual context runs in its device's process, which has no address "
                    "space: %s", vm->space_refused);
    if (!d || !d->space)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "a virtual context (VirtualAddressing) runs in its device's process, and device %u belongs to "
                    "none: a GpuMmu driver's address space is needed (docs/wddm-gpummu-facts.md 3.6)", device);
    if (!vm->ddi.DxgkDdiSetRootPageTable)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "the driver has no DxgkDdiSetRootPageTable: a virtual context could not learn its root table");
    return WK_OK;
}

/* DxgkDdiSetRootPageTable for context `context`: VOID, it cannot fail
 * (3.1); the context is idle (no submission of it pending). */
wk_status gpuva_set_root(struct wk_vidmm *vm, struct context *c, uint32_t space)
{
    DXGKARG_SETROOTPAGETABLE args;
    memset(&args, 0, sizeof(args));
    uint64_t gpu_address;
    if (!gpuva_space_root(vm, space, &args.Address, &args.NumEntries, &gpu_address))
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", space);
    args.hContext = c->driver_handle;
    struct garg g;
    DXGKARG_SETROOTPAGETABLE *pargs =
        garg_in(vm, &g, &args, sizeof(args), "DXGKARG_SETROOTPAGETABLE argument (*pSetRootPageTable)");
    wk_status crashed;
    NTSTATUS none = STATUS_SUCCESS; /* VOID: a rewrite sees the arguments (tests), nothing comes back */
    DDI_CALL(vm, WK_DDI_SET_ROOT_PAGE_TABLE, crashed, vm->ddi.DxgkDdiSetRootPageTable(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_SET_ROOT_PAGE_TABLE, pargs, &none));
    g.kit = NULL; /* const to the driver: nothing to read back */
    wk_status guard = garg_out(vm, &g, WK_DDI_SET_ROOT_PAGE_TABLE, crashed);
    return crashed != WK_OK ? crashed : guard;
}

wk_status gpuva_context_created(struct wk_vidmm *vm, uint32_t context)
{
    struct context *c = context_get(vm, context);
    if (!c || !is_virtual(c->flags))
        return WK_OK;
    return gpuva_set_root(vm, c, context_space(vm, c));
}

wk_status gpuva_root_moved(struct wk_vidmm *vm, uint32_t space)
{
    struct ht_iter it;
    for (uint32_t i = ht_iter_first(&vm->contexts, &it); i; i = ht_iter_next(&vm->contexts, &it)) {
        struct context *c = context_get(vm, i);
        if (!c || !is_virtual(c->flags) || context_space(vm, c) != space)
            continue;
        wk_status st = gpuva_set_root(vm, c, space);
        if (st != WK_OK)
            return st;
    }
    return WK_OK;
}

/* ------------------------------------------------------------------ */
/* DxgkDdiSubmitCommandVirtual                                          */
/* ------------------------------------------------------------------ */

wk_status wk_vidmm_virtual_commands(struct wk_vidmm *vm, struct wk_encode_commands *c)
{
    if (c->op != WK_USER_OP_FILL && c->op != WK_USER_OP_COPY)
        return fail(vm, WK_E_INVALID_ARGUMENT, "a virtual command buffer is one FILL or one COPY");
    if (binding_executes(vm))
        return binding_encode_commands(vm, c);
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, c->buf, c->cap);
    wk_status st = c->op == WK_USER_OP_COPY ? wk_gpu_emit_copy(&w, c->src, c->dst, c->size)
                                            : wk_gpu_emit_fill(&w, c->dst, c->size, c->value);
    c->length = (uint32_t)w.used;
    return st == WK_OK ? WK_OK : fail(vm, st, "the kit's GPU cannot say that command");
}

static wk_status submittable(struct wk_vidmm *vm, uint32_t context, struct context **out)
{
    struct context *c = context_get(vm, context);
    if (!c)
        return fail(vm, WK_E_NOT_FOUND, "no context %u", context);
    if (!is_virtual(c->flags))
        return fail(vm, WK_E_INVALID_ARGUMENT, "context %u is not a virtual context (VirtualAddressing)", context);
    if (c->page_faulted)
        return fail(vm, WK_E_INVALID_ARGUMENT,
                    "context %u is in error since its buffer page-faulted: the kernel submits nothing more to it "
                    "(access-to-non-resident-allocation)", context);
    if (!vm->ddi.DxgkDdiSubmitCommandVirtual)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiSubmitCommandVirtual");
    if (vm->cfg.no_model)
        return fail(vm, WK_E_NOT_SUPPORTED, "nothing executes the driver's buffers (--gpu none): no GPU runs a "
                    "virtual context's buffer");
    if (binding_executes(vm) && !binding_commands_of(vm->binding))
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "a limit of the kit: the encoder of binding '%s' writes no command buffers of its GPU "
                    "(wk_encoder_ops.commands), so the kit cannot make a virtual context's buffer for it",
                    vm->binding->name);
    if (binding_has_registers(vm) && !binding_knows_roots(vm))
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "a limit of the kit: the register model of binding '%s' says no submission's root "
                    "(wk_registers_ops.root), so the kit cannot tell in which address space to run a virtual one",
                    vm->binding->name);
    *out = c;
    return WK_OK;
}

/* What the GPU had done before a submission: its faults, the space's
 * translations, the buffers run. */
struct submit_watch {
    struct wk_gpu_counters before;
    struct wk_va_counters va_before;
    uint64_t runs_before;
};

static wk_status call_submit_virtual(struct wk_vidmm *vm, struct context *c, uint64_t va, uint32_t size,
                                     uint32_t fence, NTSTATUS *status)
{
    struct gbuf priv;
    uint32_t priv_size = c->info.DmaBufferPrivateDataSize;
    wk_status st = gbuf_alloc(vm, &priv, priv_size ? priv_size : 1, "DMA buffer private data");
    if (st != WK_OK)
        return st;
    DXGKARG_SUBMITCOMMANDVIRTUAL args;
    memset(&args, 0, sizeof(args));
    args.hContext = c->driver_handle;
    args.DmaBufferVirtualAddress = va;
    args.DmaBufferSize = size;
    args.pDmaBufferPrivateData = priv_size ? priv.ptr : NULL;
    args.DmaBufferPrivateDataSize = priv_size;
    args.SubmissionFenceId = fence;
    args.NodeOrdinal = c->node;
    args.EngineOrdinal = VIDMM_ENGINE;
    struct garg g;
    DXGKARG_SUBMITCOMMANDVIRTUAL *pargs =
        garg_in(vm, &g, &args, sizeof(args), "DXGKARG_SUBMITCOMMANDVIRTUAL argument (*pSubmitCommandVirtual)");
    wk_status crashed;
    vm->submitting_fence = fence;
    const uint64_t doorbells = page_fault_doorbells(vm);
    DDI_CALL(vm, WK_DDI_SUBMIT_COMMAND_VIRTUAL, crashed,
             *status = vm->ddi.DxgkDdiSubmitCommandVirtual(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_SUBMIT_COMMAND_VIRTUAL, pargs, status));
    vm->submitting_fence = 0;
    (void)page_fault_note_doorbell(vm, fence, doorbells);
    g.kit = NULL; /* const to the driver */
    wk_status guard = garg_out(vm, &g, WK_DDI_SUBMIT_COMMAND_VIRTUAL, crashed);
    gbuf_free(vm, &priv);
    return crashed != WK_OK ? crashed : guard;
}

/* Which root the GPU ran the last submission under, in words: the kit's
 * GPU's RING_ROOT, or the one a binding's registers said (outsider 12: "ran
 * elsewhere" left them to guess where). */
static void root_used(struct wk_vidmm *vm, uint32_t space, char *out, size_t size)
{
    uint64_t root = binding_executes(vm) ? vm->bind_last_root : wk_gpu_last_root(vm->gpu), own = 0;
    D3DGPU_PHYSICAL_ADDRESS at;
    uint32_t entries = 0;
    gpuva_space_root(vm, space, &at, &entries, &own);
    if (!root)
        snprintf(out, size, "it ran under no root (0): physically");
    else if (root == own)
        snprintf(out, size, "it ran under its space's root 0x%llx", (unsigned long long)root);
    else
        snprintf(out, size, "it ran under root 0x%llx, another address space's", (unsigned long long)root);
}

/* SUBMITV-GPU-001 when the buffer ran without a fault, but not in its
 * process's space: the GPU translated none of its addresses there (it ran
 * physically, its root never made active, or in another space; an
 * outsider's driver that never wrote RING_ROOT passed a case whose buffer
 * sat at a virtual address equal to its physical one). Only where the
 * kit's GPU, or a binding's registers, chose the space. */
static wk_status ran_in_its_space(struct wk_vidmm *vm, uint32_t space,
                                  const struct wk_gpu_counters *before, const struct wk_va_counters *va_before,
                                  uint64_t runs_before, const char *what)
{
    struct wk_gpu_counters now;
    wk_gpu_get_counters(vm->gpu, &now);
    struct wk_va_counters va_now;
    wk_va_counters(gpuva_space_gpu(vm, space), &va_now);
    /* Nothing ran (a fence the driver reported before the GPU could run its
     * buffer: SUBMIT-FENCE-001 says so), a fault (said), or the kit chose
     * the space itself (a binding without registers): nothing to judge. */
    if (vm->buffers_run == runs_before || now.faults != before->faults || now.device_errors != before->device_errors ||
        (binding_executes(vm) && !binding_has_registers(vm)))
        return WK_OK;
    if (va_now.walks + va_now.tlb_hits != va_before->walks + va_before->tlb_hits)
        return WK_OK;
    char used[120];
    root_used(vm, space, used, sizeof(used));
    return violate(vm, R_SUBMITV_GPU, WK_DDI_SUBMIT_COMMAND_VIRTUAL,
                   "the %s ran, but the GPU translated none of its addresses in that space: %s", what, used);
}

/* SUBMITV-GPU-001 for a two-level tree's root on the kit's GPU: the buffer
 * ran under its root with RING_ROOT_ENTRIES past the root's NumEntries,
 * so the GPU would walk memory after the root's end where it "must fault"
 * (docs/wddm-gpummu-facts.md 3.4). A bound below NumEntries faults mapped
 * addresses, which the run's own fault says. */
static wk_status ran_within_its_root(struct wk_vidmm *vm, uint32_t space, uint64_t runs_before, const char *what)
{
    D3DGPU_PHYSICAL_ADDRESS at;
    uint32_t entries = 0;
    uint64_t own = 0;
    if (vm->buffers_run == runs_before || binding_executes(vm) || vm->mmu.geometry.levels != 2 ||
        !gpuva_space_root(vm, space, &at, &entries, &own) || wk_gpu_last_root(vm->gpu) != own ||
        wk_gpu_last_root_entries(vm->gpu) <= entries)
        return WK_OK;
    return violate(vm, R_SUBMITV_GPU, WK_DDI_SUBMIT_COMMAND_VIRTUAL,
                   "the %s ran under RING_ROOT_ENTRIES %u, past the %u entries of its root (NumEntries): the GPU "
                   "walks memory after the root's end, where it must fault", what, wk_gpu_last_root_entries(vm->gpu),
                   entries);
}

/* A buffer the case made to fault (fault_lo < fault_hi: at an address in
 * that range, unmapped in its process's space or read-only for a write)
 * that the GPU ran to its end without one ran in another space: the
 * address it was to fault on is mapped there. Only where the kit's GPU, or
 * a binding's registers, chose the space. */
static wk_status fault_missed(struct wk_vidmm *vm, uint32_t space, const struct wk_gpu_counters *before,
                              uint64_t runs_before, uint64_t fault_lo, const char *what)
{
    struct wk_gpu_counters now;
    wk_gpu_get_counters(vm->gpu, &now);
    if (vm->buffers_run == runs_before || now.faults != before->faults || now.device_errors != before->device_errors ||
        (binding_executes(vm) && !binding_has_registers(vm)))
        return WK_OK;
    char used[120];
    root_used(vm, space, used, sizeof(used));
    return violate(vm, R_SUBMITV_GPU, WK_DDI_SUBMIT_COMMAND_VIRTUAL,
                   "the %s was to page-fault at 0x%llx, where its process's space has nothing (or a read-only "
                   "page), but it ran to its end (%s), or through a translation the GPU kept past its flush",
                   what, (unsigned long long)fault_lo, used);
}

/* After the run: a translation fault is judged as a page fault
 * (page_fault.c), and is the driver's SUBMITV-GPU-001 unless the case made
 * the buffer fault there; any other fault is SUBMITV-GPU-001; a buffer made
 * to fault that did not, or one that ran outside its space, too. */
static wk_status judge_run(struct wk_vidmm *vm, struct context *c, uint32_t fence, const struct submit_watch *w,
                           uint64_t fault_lo, uint64_t fault_hi, const char *what)
{
    struct wk_gpu_fault f;
    int page_fault = page_fault_judge(vm, c, fence, &w->before, &f);
    if (fault_lo < fault_hi) {
        if (page_fault && f.fault_addr >= fault_lo && f.fault_addr < fault_hi)
            return WK_OK;
        if (!page_fault) {
            wk_status st = gpu_fault_check(vm, &w->before, R_SUBMITV_GPU, WK_DDI_SUBMIT_COMMAND_VIRTUAL, what);
            return st != WK_OK ? st : fault_missed(vm, context_space(vm, c), &w->before, w->runs_before, fault_lo, what);
        }
    }
    wk_status limit = gpu_fault_check(vm, &w->before, R_SUBMITV_GPU, WK_DDI_SUBMIT_COMMAND_VIRTUAL, what);
    if (limit != WK_OK)
        return limit;
    wk_status st = ran_in_its_space(vm, context_space(vm, c), &w->before, &w->va_before, w->runs_before, what);
    return st != WK_OK ? st : ran_within_its_root(vm, context_space(vm, c), w->runs_before, what);
}

static wk_status submit_virtual(struct wk_vidmm *vm, uint32_t context, uint64_t va, uint32_t size,
                                uint64_t fault_lo, uint64_t fault_hi)
{
    struct context *c = NULL;
    wk_status st = submittable(vm, context, &c);
    if (st != WK_OK)
        return st;
    struct submission s;
    memset(&s, 0, sizeof(s));
    s.context = context;
    s.space = context_space(vm, c);
    s.dma_gpu_address = va;
    s.end = size;
    uint32_t fence;
    st = submit_track(vm, &s, &fence);
    if (st != WK_OK)
        return st;
    struct submit_watch w;
    wk_gpu_get_counters(vm->gpu, &w.before);
    wk_va_counters(gpuva_space_gpu(vm, s.space), &w.va_before);
    w.runs_before = vm->buffers_run;
    page_fault_watch(vm, fence);
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    st = call_submit_virtual(vm, c, va, size, fence, &status);
    if (st == WK_OK && status != STATUS_SUCCESS) {
        page_fault_watch(vm, 0);
        submit_untrack(vm, fence); /* never reached the hardware */
        /* It may, for a buffer it finds malformed (3.1): the private data
         * the kit passes is zeros, not what the driver's user-mode half
         * would write, so the case cannot run here; no rule is broken. With
         * no private data at all (the driver asked for none) only the
         * buffer could be malformed, and it is its GPU's own commands. */
        if (status == STATUS_INVALID_PARAMETER && !c->info.DmaBufferPrivateDataSize)
            return violate(vm, R_SUBMITV_STATUS, WK_DDI_SUBMIT_COMMAND_VIRTUAL,
                           "returned STATUS_INVALID_PARAMETER for a buffer that is not malformed: one command of "
                           "its GPU's own set at mapped addresses, and no private data (DmaBufferPrivateDataSize 0)");
        if (status == STATUS_INVALID_PARAMETER)
            return fail(vm, WK_E_NOT_SUPPORTED, "DxgkDdiSubmitCommandVirtual returned STATUS_INVALID_PARAMETER, "
                        "which it may for a buffer it finds malformed: the kit's private data for it is zeros, "
                        "not what the driver's user-mode half would write");
        return violate(vm, R_SUBMITV_STATUS, WK_DDI_SUBMIT_COMMAND_VIRTUAL,
                       "returned 0x%08x; SUCCESS or STATUS_INVALID_PARAMETER are the only answers (any other "
                       "bug-checks)", (unsigned)status);
    }
    if (st != WK_OK) {
        page_fault_watch(vm, 0);
        submit_untrack(vm, fence);
        return st;
    }
    st = submit_wait(vm, fence);
    wk_status reset = page_fault_reset_engine(vm);
    st = st != WK_OK ? st : reset;
    char what[160];
    D3DGPU_PHYSICAL_ADDRESS at;
    uint32_t entries = 0;
    uint64_t root = 0;
    gpuva_space_root(vm, context_space(vm, c), &at, &entries, &root);
    snprintf(what, sizeof(what), "virtual DMA buffer at 0x%llx (its root segment %u + 0x%llx = 0x%llx)",
             (unsigned long long)va, at.SegmentId, (unsigned long long)at.SegmentOffset, (unsigned long long)root);
    vm->submitv_root = root; /* for the fault's message (gpu_fault_check) */
    wk_status judged = judge_run(vm, c, fence, &w, fault_lo, fault_hi, what);
    vm->submitv_root = 0;
    page_fault_watch(vm, 0);
    return st != WK_OK ? st : judged;
}

wk_status wk_vidmm_submit_virtual(struct wk_vidmm *vm, uint32_t context, uint64_t va, uint32_t size)
{
    return submit_virtual(vm, context, va, size, 0, 0);
}

wk_status wk_vidmm_submit_virtual_to_fault(struct wk_vidmm *vm, uint32_t context, uint64_t va, uint32_t size,
                                           uint64_t fault_lo, uint64_t fault_hi, int write_to_read_only)
{
    if (fault_lo >= fault_hi)
        return fail(vm, WK_E_INVALID_ARGUMENT, "an empty range for the page fault [0x%llx, 0x%llx)",
                    (unsigned long long)fault_lo, (unsigned long long)fault_hi);
    /* DXGK_PTE.ReadOnly is given only to a driver that honours it
     * (wddm-gpummu-facts.md 1.3): a writable page is its right. */
    if (write_to_read_only && !vm->mmu.caps.ReadOnlyMemorySupported)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver does not set DXGK_GPUMMUCAPS.ReadOnlyMemorySupported: its "
                    "pages are never read-only, so a write to one does not fault");
    return submit_virtual(vm, context, va, size, fault_lo, fault_hi);
}
