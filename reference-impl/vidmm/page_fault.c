/* SPDX-License-Identifier: MIT */
/*
 * page_fault.c - a GPU page fault of a virtual context, as the kernel
 * takes it (WDDM 2.0, docs/wddm-gpummu-facts.md 5.5).
 *
 * A virtual context's buffer that reaches a GPU virtual address the GPU
 * cannot use (nothing mapped, a write to a read-only page, an entry it
 * cannot read) makes the GPU raise an unrecoverable page fault; the driver
 * forwards it with DxgkCbNotifyInterrupt(DXGK_INTERRUPT_DMA_PAGE_FAULTED),
 * and the kernel resets the engine and puts the context in error
 * (access-to-non-resident-allocation). What the kit checks:
 *   - PAGEFAULT-NOTIFY-001: such a fault is reported as a page fault, not
 *     as DMA_FAULTED or DMA_COMPLETED (judged after the submission, where
 *     the kit knows what its GPU met: page_fault_judge);
 *   - PAGEFAULT-FENCE-001: without FENCE_INVALID, FaultedFenceId is the
 *     fence of the faulting submission: pending when reported, and the one
 *     the GPU faulted on;
 *   - PAGEFAULT-FLAGS-001: with FENCE_INVALID, a reset flag after it.
 *
 * What the kit does as the kernel: the fences before FaultedFenceId on the
 * node are treated as completed and FaultedFenceId too (the driver
 * "advances its notion of the completed fence" to it); with FENCE_INVALID
 * the node's pending work ends with the reset the kernel would do. The
 * kit submits nothing more to the faulted context, and resets the engine
 * (page_fault_reset_engine, below).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The recovery the OS must do when the faulting packet is unknown: "the OS
 * will have to perform a GPU reset action ..., and one of the subsequent
 * bits will have to be set" (DXGK_PAGE_FAULT_FLAGS): a reset, or a fatal
 * error. IOMMU and the hardware-queue bits say no action. */
#define RESET_FLAGS                                                                                   \
    ((UINT)(DXGK_PAGE_FAULT_ADAPTER_RESET_REQUIRED | DXGK_PAGE_FAULT_ENGINE_RESET_REQUIRED |          \
            DXGK_PAGE_FAULT_FATAL_HARDWARE_ERROR))

static const char *interrupt_name(DXGK_INTERRUPT_TYPE t)
{
    switch (t) {
    case DXGK_INTERRUPT_DMA_COMPLETED: return "DMA_COMPLETED";
    case DXGK_INTERRUPT_DMA_FAULTED: return "DMA_FAULTED";
    case DXGK_INTERRUPT_DMA_PAGE_FAULTED: return "DMA_PAGE_FAULTED";
    default: return "another interrupt";
    }
}

static int pending_on(const struct wk_vidmm *vm, uint32_t fence, uint32_t node)
{
    for (uint32_t i = 0; i < vm->npending; i++)
        if (!vm->pending[i].held && vm->pending[i].fence == fence && vm->pending[i].node == node)
            return 1;
    return 0;
}

/* Ends the node's pending submissions submitted before fence `before` (all
 * of them when `all`) without a completion report: what the kernel does
 * with them after a page fault. Fence ids wrap (fence_after). */
static void end_pending_before(struct wk_vidmm *vm, uint32_t node, uint32_t before, int all)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < vm->npending; i++) {
        const struct pending *p = &vm->pending[i];
        if (!p->held && p->node == node && (all || fence_after(before, p->fence))) {
            if (vm->pfw.fence && p->fence == vm->pfw.fence && !vm->pfw.how)
                vm->pfw.how = DXGK_INTERRUPT_DMA_PAGE_FAULTED;
            vm->stats.fences_completed++;
            if (fence_after(p->fence, vm->last_completed))
                vm->last_completed = p->fence;
            continue;
        }
        vm->pending[kept++] = *p;
    }
    vm->npending = kept;
}

#define BIND_FAULTED ((uint32_t)(sizeof(((struct wk_vidmm *)0)->bind_faulted) / sizeof(uint32_t)))

void page_fault_note_binding(struct wk_vidmm *vm, uint32_t fence)
{
    vm->bind_faulted[vm->bind_faulted_count++ % BIND_FAULTED] = fence;
}

static int binding_faulted(const struct wk_vidmm *vm, uint32_t fence)
{
    uint32_t n = vm->bind_faulted_count < BIND_FAULTED ? vm->bind_faulted_count : BIND_FAULTED;
    for (uint32_t i = 0; i < n; i++)
        if (vm->bind_faulted[i] == fence)
            return 1;
    return 0;
}

uint64_t page_fault_doorbells(struct wk_vidmm *vm)
{
    if (!vm->gpu || vm->cfg.no_model || binding_executes(vm))
        return 0;
    struct wk_gpu_counters c;
    wk_gpu_get_counters(vm->gpu, &c);
    return c.submissions;
}

/* The last doorbell a submit call rang names its fence's run: the tag the
 * driver put in RING_TAG is its own to choose ("a number the driver
 * chooses", docs/gpu-model.md), and outsider 20's driver, which tags with a
 * sequence of its own, was told a page fault it named right was of a clean
 * buffer. A call that rang none leaves nothing to look up. */
uint64_t page_fault_note_doorbell(struct wk_vidmm *vm, uint32_t fence, uint64_t doorbells_before)
{
    if (vm->cfg.no_model || binding_executes(vm))
        return 0;
    uint64_t now = page_fault_doorbells(vm);
    if (now == doorbells_before)
        return 0;
    uint32_t slot = vm->doorbells++ % (uint32_t)(sizeof(vm->doorbell) / sizeof(vm->doorbell[0]));
    vm->doorbell[slot].fence = fence;
    vm->doorbell[slot].seq = now;
    return now == doorbells_before + 1 ? now : 0;
}

/* 1 when fence's buffer faulted on the GPU, 0 when it ran clean, -1 when
 * the kit cannot tell (no GPU, a binding without registers, a fence whose
 * doorbell it never saw). */
int page_fault_submission_faulted(struct wk_vidmm *vm, uint32_t fence)
{
    if (vm->cfg.no_model || (binding_executes(vm) && !binding_has_registers(vm)))
        return -1;
    if (binding_executes(vm))
        return binding_faulted(vm, fence);
    const uint32_t n = (uint32_t)(sizeof(vm->doorbell) / sizeof(vm->doorbell[0]));
    for (uint32_t k = 0; k < n && k < vm->doorbells; k++) {
        const uint32_t slot = (vm->doorbells - 1 - k) % n; /* the newest first */
        if (vm->doorbell[slot].fence == fence)
            return wk_gpu_doorbell_faulted(vm->gpu, vm->doorbell[slot].seq);
    }
    return -1;
}

void page_fault_reported(struct wk_vidmm *vm, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *d)
{
    UINT flags = (UINT)d->DmaPageFaulted.PageFaultFlags, fence = d->DmaPageFaulted.FaultedFenceId;
    UINT node = d->DmaPageFaulted.NodeOrdinal, engine = d->DmaPageFaulted.EngineOrdinal;
    vm->stats.gpu_faults++;
    if (vm->pfw.fence && !vm->pfw.reports++)
        vm->pfw.report = *d;
    if (flags & DXGK_PAGE_FAULT_ADAPTER_RESET_REQUIRED)
        vm->pf_reset.adapter_asked = 1;
    if (flags & DXGK_PAGE_FAULT_FENCE_INVALID) {
        if (!(flags & RESET_FLAGS))
            violate(vm, R_PAGEFAULT_FLAGS, WK_DDI_CB_NOTIFY_INTERRUPT,
                    "a page fault reported with DXGK_PAGE_FAULT_FENCE_INVALID (flags 0x%x) and no reset flag after "
                    "it (ADAPTER_RESET_REQUIRED, ENGINE_RESET_REQUIRED or FATAL_HARDWARE_ERROR): the kernel must "
                    "reset the GPU",
                    (unsigned)flags);
        vm->pf_reset.pending = 1, vm->pf_reset.node = node, vm->pf_reset.engine = engine;
        end_pending_before(vm, node, 0, 1);
        return;
    }
    if (node >= adapter_nodes(vm)) { /* outsider 13: "no such fence there" hid that there is no such node */
        violate(vm, R_PAGEFAULT_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
                "a page fault names fence %u on node %u, but the adapter has %u node%s (NodeOrdinal counts from 0)",
                fence, node, adapter_nodes(vm), adapter_nodes(vm) == 1 ? "" : "s");
        return;
    }
    if (!pending_on(vm, fence, node)) {
        violate(vm, R_PAGEFAULT_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
                "a page fault names fence %u (FaultedFenceId) on node %u, but no such fence is pending there (the "
                "adapter's last completed: %u)",
                fence, node, vm->last_completed);
        return;
    }
    /* "the DMA packet submitted with FaultedFenceId was the cause of the
     * fault": not one that ran clean (two outsiders' drivers reported page
     * faults of clean buffers and broke no rule). One reported inside the
     * call that submitted it has not run at all: SUBMIT-FENCE-001 says so. */
    if (fence != vm->submitting_fence && page_fault_submission_faulted(vm, fence) == 0)
        violate(vm, R_PAGEFAULT_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
                "a page fault names fence %u (FaultedFenceId), whose buffer ran on the GPU without a fault", fence);
    vm->pf_reset.pending = 1, vm->pf_reset.node = node, vm->pf_reset.engine = engine;
    end_pending_before(vm, node, fence, 0);
    if (vm->pfw.fence == fence && !vm->pfw.how)
        vm->pfw.how = DXGK_INTERRUPT_DMA_PAGE_FAULTED;
    fence_reported(vm, fence, node, engine, "page-faulted");
}

void page_fault_note(struct wk_vidmm *vm, DXGK_INTERRUPT_TYPE type, UINT fence)
{
    if (vm->pfw.fence && fence == vm->pfw.fence && !vm->pfw.how)
        vm->pfw.how = type;
}

void page_fault_watch(struct wk_vidmm *vm, uint32_t fence)
{
    memset(&vm->pfw, 0, sizeof(vm->pfw));
    vm->pfw.fence = fence;
}

/* The first fault since `before` when it is a translation fault: 1 and *out. */
static int translation_fault_since(struct wk_vidmm *vm, const struct wk_gpu_counters *before,
                                   struct wk_gpu_fault *out)
{
    struct wk_gpu_counters now;
    wk_gpu_get_counters(vm->gpu, &now);
    if (now.faults == before->faults)
        return 0;
    struct wk_gpu_fault log[WK_GPU_FAULT_LOG_SIZE];
    uint32_t n = wk_gpu_faults(vm->gpu, log, WK_GPU_FAULT_LOG_SIZE, NULL);
    if (before->faults >= n || !wk_gpu_fault_is_translation(log[before->faults].reason))
        return 0;
    *out = log[before->faults];
    return 1;
}

int page_fault_judge(struct wk_vidmm *vm, struct context *c, uint32_t fence, const struct wk_gpu_counters *before,
                     struct wk_gpu_fault *fault)
{
    if (!translation_fault_since(vm, before, fault))
        return 0;
    c->page_faulted = 1; /* the kernel puts the faulting context in error */
    char at[sizeof(vm->bind_fault_text)];
    if (binding_executes(vm)) /* in the binding's words, not the kit GPU's opcodes (outsider 14) */
        snprintf(at, sizeof(at), "%s", vm->bind_fault_text);
    else
        wk_gpu_fault_format(fault, at, sizeof(at));
    if (vm->pfw.how == DXGK_INTERRUPT_DMA_PAGE_FAULTED) {
        const DXGKARGCB_NOTIFY_INTERRUPT_DATA *r = &vm->pfw.report;
        if (vm->pfw.reports && !(r->DmaPageFaulted.PageFaultFlags & DXGK_PAGE_FAULT_FENCE_INVALID) &&
            r->DmaPageFaulted.FaultedFenceId != fence)
            violate(vm, R_PAGEFAULT_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
                    "the GPU faulted running fence %u's buffer (%s); the page fault report named fence %u", fence,
                    at, r->DmaPageFaulted.FaultedFenceId);
        return 1;
    }
    if (vm->pfw.how)
        violate(vm, R_PAGEFAULT_NOTIFY, WK_DDI_CB_NOTIFY_INTERRUPT,
                "the GPU page-faulted running fence %u's virtual buffer (%s); the driver reported it as %s, not as "
                "a page fault (DXGK_INTERRUPT_DMA_PAGE_FAULTED)",
                fence, at, interrupt_name(vm->pfw.how));
    else if (vm->pfw.reports && (vm->pfw.report.DmaPageFaulted.PageFaultFlags & DXGK_PAGE_FAULT_FENCE_INVALID) == 0)
        violate(vm, R_PAGEFAULT_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
                "the GPU faulted running fence %u's buffer (%s); the page fault report named fence %u", fence, at,
                vm->pfw.report.DmaPageFaulted.FaultedFenceId);
    return 1;
}

/*
 * "When the graphics kernel receives this notification, it initiates an
 * engine reset on the faulting engine" (access-to-non-resident-allocation):
 * DxgkDdiResetEngine, which a driver that sets SupportPerEngineTDR must
 * implement (TDR changes in Windows 8), once the wait in which the fault was
 * reported is over, at PASSIVE_LEVEL. The driver returns once the engine is
 * reset, its hardware queue empty and the node ready for new packets; a GPU
 * that stops at a page fault runs again from here (outsider 14: the kit
 * never reset it, and the next fence was blamed on the driver). A failed
 * reset, or a driver without per-engine reset, takes the kernel to an
 * adapter-wide reset: DxgkDdiResetFromTimeout and DxgkDdiRestartFromTimeout
 * (tdr.c); so does a report with DXGK_PAGE_FAULT_ADAPTER_RESET_REQUIRED,
 * which "indicates that the fault put the GPU into a state that requires a
 * full adapter reset" (outsider 20: the kit reset the engine, and a
 * DxgkDdiResetFromTimeout that crashed passed).
 */
wk_status page_fault_reset_engine(struct wk_vidmm *vm)
{
    if (!vm->pf_reset.pending)
        return WK_OK;
    vm->pf_reset.pending = 0;
    if (vm->pf_reset.adapter_asked) { /* "the fault put the GPU into a state that requires a full adapter reset" */
        vm->pf_reset.adapter_asked = 0;
        snprintf(vm->pf_reset.why, sizeof(vm->pf_reset.why), "%s",
                 "a page fault reported with DXGK_PAGE_FAULT_ADAPTER_RESET_REQUIRED");
        return tdr_reset_adapter(vm);
    }
    if (!vm->caps.SupportPerEngineTDR || !vm->ddi.DxgkDdiResetEngine) {
        snprintf(vm->pf_reset.why, sizeof(vm->pf_reset.why), "%s",
                 !vm->caps.SupportPerEngineTDR ? "a page fault, the driver having no per-engine reset (SupportPerEngineTDR)"
                                               : "a page fault, the driver setting SupportPerEngineTDR with no "
                                                 "DxgkDdiResetEngine (CAPS-TDR-001)");
        return tdr_reset_adapter(vm);
    }
    DXGKARG_RESETENGINE args;
    memset(&args, 0, sizeof(args));
    args.NodeOrdinal = vm->pf_reset.node;
    args.EngineOrdinal = vm->pf_reset.engine;
    struct garg g;
    DXGKARG_RESETENGINE *pargs = garg_in(vm, &g, &args, sizeof(args), "DXGKARG_RESETENGINE argument (*pResetEngine)");
    wk_status crashed;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    DDI_CALL(vm, WK_DDI_RESET_ENGINE, crashed, status = vm->ddi.DxgkDdiResetEngine(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_RESET_ENGINE, pargs, &status));
    wk_status guard = garg_out(vm, &g, WK_DDI_RESET_ENGINE, crashed);
    if (crashed != WK_OK || guard != WK_OK)
        return crashed != WK_OK ? crashed : guard;
    if (status != STATUS_SUCCESS) { /* "Otherwise, this function returns one of the error codes" */
        snprintf(vm->pf_reset.why, sizeof(vm->pf_reset.why), "a page fault whose DxgkDdiResetEngine failed (0x%08x)",
                 (unsigned)status);
        return tdr_reset_adapter(vm);
    }
    vm->pf_reset.done = 1;
    return WK_OK;
}
