/* SPDX-License-Identifier: MIT */
/*
 * queue.c - render submissions left queued on the GPU, run together.
 *
 * Windows' scheduler does not wait for one DMA buffer to finish before it
 * submits the next: buffers are "queued for execution by the GPU" (facts
 * §5.12 N4), so a driver's interrupt routine often finds several finished
 * at once, or one finished while others still wait in the queue. A DMA
 * completion report names "the latest completed DMA buffer" and completes
 * every buffer before it on its node (N5). A kit that waited for each
 * buffer before submitting the next never showed a driver either case.
 *
 * wk_vidmm_queue_renders(count, each) lets the next `count` render
 * submissions reach the driver's SubmitCommand without a wait in between;
 * after the last of them the GPU runs them all (queue_drain). With `each`
 * it raises its interrupt after every buffer, the later ones still queued
 * (a report of a fence the GPU has not run yet is then seen:
 * fence_complete); without, after the last buffer of a run of one node's,
 * so one interrupt finds them all done. The kit's GPU keeps one completed
 * tag for all nodes (docs/gpu-model.md), a single engine's register: a run
 * across nodes would hide one node's completion from any driver, a limit
 * of the model, so a run stops where the node changes; so it does on a
 * binding's register model, unless the binding says its engines keep
 * their completions apart (WK_BINDING_ENGINES_APART): then one interrupt
 * follows every node's buffers, as when two engines finish together.
 *
 * Anything that needs the GPU idle drains the queue first, so only
 * consecutive renders share it: a paging submission (submit_buffer), a
 * Render on a context whose buffer is still queued (its one DMA buffer is
 * rewritten: wk_vidmm_render), and every program step that is not a render
 * (conformance/prog/prog_run.c). A GPU fault in a queued buffer is judged
 * when the queue drains, as SUBMIT-GPU-001 of the buffer that faulted.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

void wk_vidmm_queue_renders(struct wk_vidmm *vm, uint32_t count, int each)
{
    vm->queue.left = count;
    vm->queue.each = each != 0;
}

int queue_active(const struct wk_vidmm *vm)
{
    return vm->queue.left != 0 && !vm->hold;
}

/* Whether a render of `context` is queued and not yet run. */
int queue_has_context(const struct wk_vidmm *vm, uint32_t context)
{
    if (!vm->queue.count)
        return 0;
    for (uint32_t i = 0; i < vm->npending; i++)
        if (!vm->pending[i].held && !vm->pending[i].paging && vm->pending[i].context == context)
            return 1;
    return 0;
}

/*
 * How many queued buffers the GPU runs before the kit plays its interrupt:
 * 0 (all) outside a drain; 1 with `each`; else the run of buffers at the
 * queue's head that went to one node. The GPU runs its queue in the order
 * of the doorbells, which is the order of the pending submissions when each
 * SubmitCommand rang one.
 */
uint32_t queue_run_limit(const struct wk_vidmm *vm)
{
    if (!vm->queue.draining)
        return 0;
    if (vm->queue.each)
        return 1;
    if (binding_has_registers(vm) && (vm->binding->flags & WK_BINDING_ENGINES_APART))
        return 0; /* engines that report apart: every node's buffers, then one interrupt */
    uint32_t run = 0, node = 0;
    for (uint32_t i = 0; i < vm->npending; i++) {
        const struct pending *p = &vm->pending[i];
        if (p->held)
            continue;
        if (run && p->node != node)
            break;
        node = p->node;
        run++;
    }
    return run ? run : 1;
}

/* The buffer a fault of the drain came from, in the words of the render
 * check: the origin of the queued context whose DMA buffer holds it. */
static void fault_origin(struct wk_vidmm *vm, const struct wk_gpu_counters *before, char *what, size_t cap)
{
    struct wk_gpu_fault log[WK_GPU_FAULT_LOG_SIZE];
    uint64_t total = 0;
    uint32_t n = wk_gpu_faults(vm->gpu, log, WK_GPU_FAULT_LOG_SIZE, &total);
    uint64_t addr = before->faults < n ? log[before->faults].buffer_addr : 0;
    uint32_t id = 0;
    for (uint32_t h = 1; h <= vm->contexts.top && addr; h++) {
        const struct context *c = context_get(vm, h);
        if (c && addr >= c->dma_gpu_address && addr - c->dma_gpu_address < c->dma.size)
            id = h;
    }
    char origin[128];
    snprintf(what, cap, "%s, of context %u, queued with %u other render submission(s)",
             context_dma_origin(vm, id, origin, sizeof(origin)), id, vm->queue.count - 1);
}

wk_status queue_drain(struct wk_vidmm *vm)
{
    if (!vm->queue.count)
        return WK_OK;
    vm->queue.draining = 1;
    wk_status st = submit_wait(vm, 0);
    vm->queue.draining = 0;
    char what[256];
    fault_origin(vm, &vm->queue.before, what, sizeof(what));
    wk_status fault = gpu_fault_check(vm, &vm->queue.before, R_SUBMIT_GPU, WK_DDI_SUBMIT_COMMAND, what);
    vm->queue.count = 0;
    return st == WK_OK ? fault : st;
}

wk_status queue_submitted(struct wk_vidmm *vm, const struct wk_gpu_counters *before)
{
    if (vm->queue.count++ == 0)
        vm->queue.before = *before;
    return --vm->queue.left == 0 ? queue_drain(vm) : WK_OK;
}

wk_status wk_vidmm_drain(struct wk_vidmm *vm)
{
    vm->queue.left = 0;
    if (!vm->queue.count)
        return WK_OK;
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash");
    RETURN_CHECKED(vm, queue_drain(vm));
}
