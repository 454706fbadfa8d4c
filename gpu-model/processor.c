/* SPDX-License-Identifier: MIT */
/*
 * processor.c - running a command processor (processor.h) on the model:
 * what the kit does with a binding's buffer (wk_gpu_exec_processor).
 *
 * The processor is code the kit runs, not code it trusts: it is handed a
 * run (struct wk_exec) whose only ways to the kit are the memory table and
 * two calls, spend (the run's budget, the description's max_commands and
 * max_bytes_moved, as the kit's own exec has) and fence (the model's last
 * fence and its interrupt, as FENCE raises them). Its answer is checked
 * before it is believed: a result other than 0 or 1, a fault class outside
 * the enum, an offset outside the submitted range, or "ran to the end"
 * after the budget ran out is the processor's misbehaviour (the binding's
 * fault, BIND-* rules), which the caller reports, and nothing of it goes
 * to the fault log. A real fault is logged as the kit's own are, its
 * class mapped to the model's reasons.
 */
#include <string.h>

#include "internal.h"

/* The kit's side of one run: what wk_exec.kit points at. */
struct run {
    struct wk_gpu *gpu;
    uint64_t units_left;
    uint64_t bytes_left;
    int budget_gone;              /* spend has returned -1 */
};

void fence_signal(struct wk_gpu *gpu, uint64_t addr, uint64_t value)
{
    gpu->last_fence = value;
    gpu->fe.irq_status |= WK_GPU_IRQ_FENCE;
    gpu->counters.fences++;
    gpu->counters.interrupts++;
    if (gpu->irq_fn)
        gpu->irq_fn(gpu->irq_user, addr, value);
}

/* A spend that does not fit charges nothing. */
static int run_spend(const struct wk_exec *x, uint64_t commands, uint64_t bytes)
{
    struct run *k = x->kit;
    if (commands > k->units_left || bytes > k->bytes_left) {
        k->budget_gone = 1;
        return -1;
    }
    k->units_left -= commands;
    k->bytes_left -= bytes;
    return 0;
}

static void run_fence(const struct wk_exec *x, uint64_t addr, uint64_t value)
{
    struct run *k = x->kit;
    fence_signal(k->gpu, addr, value);
}

/* A processor's TLB flush reaches the spaces attached to the GPU the run
 * is on, as the kit's own VA_FLUSH does. */
static void run_va_flush(const struct wk_exec *x, uint64_t root, uint64_t start, uint64_t end)
{
    struct run *k = x->kit;
    gpu_va_flush(k->gpu, root, start, end);
}

static const struct wk_exec_ops run_ops = {
    .size = sizeof(struct wk_exec_ops),
    .spend = run_spend,
    .fence = run_fence,
    .va_flush = run_va_flush,
};

/* The model's reason for a fault class (the processor's own reason stays
 * in its record, code). */
static enum wk_gpu_fault_reason reason_of(const struct wk_exec_fault *f)
{
    switch (f->cls) {
    case WK_FAULT_MEMORY:
        return f->mem_reason < WK_GPU_FAULT_REASON_COUNT && f->mem_reason != WK_GPU_FAULT_NONE
                   ? (enum wk_gpu_fault_reason)f->mem_reason
                   : WK_GPU_FAULT_BAD_ADDRESS;
    case WK_FAULT_DECODE: return WK_GPU_FAULT_UNKNOWN_OPCODE;
    case WK_FAULT_BUDGET: return WK_GPU_FAULT_BUDGET;
    default: return WK_GPU_FAULT_BAD_OPERAND; /* OPERAND, STATE */
    }
}

/* What is wrong with the processor's answer, if anything. */
static uint32_t judge(int rc, const struct wk_exec_fault *f, const struct run *k, uint64_t start, uint64_t end)
{
    if (rc == 0)
        return k->budget_gone ? WK_EXEC_MISBEHAVED_BUDGET : WK_EXEC_MISBEHAVED_NONE;
    if (rc != 1 || f->cls == WK_FAULT_NONE || f->cls >= WK_FAULT_CLASS_COUNT || f->offset < start ||
        f->offset >= end)
        return WK_EXEC_MISBEHAVED_RESULT;
    return WK_EXEC_MISBEHAVED_NONE;
}

static void log_fault(struct wk_gpu *gpu, const struct wk_exec_fault *f, uint64_t buffer_addr)
{
    enum wk_gpu_fault_reason why = reason_of(f);
    struct wk_gpu_fault rec;
    fault_fill(&rec, why, f->opcode, f->offset, buffer_addr, f->depth,
               wk_gpu_fault_has_address(why) ? f->fault_addr : 0, &fault_no_detail);
    fault_record_copy(gpu, &rec);
}

static int processor_ok(const struct wk_processor_ops *p)
{
    return p && p->size >= offsetof(struct wk_processor_ops, exec) + sizeof(p->exec) && p->exec;
}

/* A run of p on the memory system (mem, mops): the model's own, or an
 * address space over it. */
static wk_status exec_on(struct wk_gpu *gpu, struct wk_mem *mem, const struct wk_mem_ops *mops,
                         const struct wk_processor_ops *p, void *self, uint64_t buffer_addr, uint64_t start,
                         uint64_t end, const uint8_t *bytes, uint32_t flags, uint32_t fence_id,
                         struct wk_exec_fault *fault, uint32_t *misbehaved)
{
    struct wk_exec_fault local;
    struct wk_exec_fault *f = fault ? fault : &local;
    if (misbehaved)
        *misbehaved = WK_EXEC_MISBEHAVED_NONE;
    if (!gpu || !processor_ok(p) || start > end || (end > start && !bytes))
        return WK_E_INVALID_ARGUMENT;
    struct run k = { gpu, gpu->desc.max_commands, gpu->desc.max_bytes_moved, 0 };
    const struct wk_exec x = {
        .mem = mem, .mem_ops = mops, .ops = &run_ops, .buffer_addr = buffer_addr,
        .start = start, .end = end, .bytes = bytes, .flags = flags, .fence_id = fence_id,
        .max_depth = gpu->desc.max_call_depth, .kit = &k,
    };
    memset(f, 0, sizeof(*f));
    f->opcode = UINT32_MAX;
    gpu->counters.execs++;
    int rc = p->exec(self, &x, f);
    uint32_t bad = judge(rc, f, &k, start, end);
    if (bad != WK_EXEC_MISBEHAVED_NONE) {
        if (misbehaved)
            *misbehaved = bad;
        return WK_E_INVALID_ARGUMENT;
    }
    if (rc == 0) {
        memset(f, 0, sizeof(*f));
        f->opcode = UINT32_MAX;
        return WK_OK;
    }
    log_fault(gpu, f, buffer_addr);
    return WK_E_GPU_FAULT;
}

wk_status wk_gpu_exec_processor(struct wk_gpu *gpu, const struct wk_processor_ops *p, void *self,
                                uint64_t buffer_addr, uint64_t start, uint64_t end, const uint8_t *bytes,
                                uint32_t flags, uint32_t fence_id, struct wk_exec_fault *fault,
                                uint32_t *misbehaved)
{
    return exec_on(gpu, gpu ? &gpu->mem : NULL, &mem_ops_table, p, self, buffer_addr, start, end, bytes,
                   flags & ~WK_EXEC_VIRTUAL, fence_id, fault, misbehaved);
}

wk_status wk_gpu_exec_processor_va(struct wk_gpu *gpu, struct wk_va_space *s, const struct wk_processor_ops *p,
                                   void *self, uint64_t buffer_addr, uint64_t start, uint64_t end,
                                   const uint8_t *bytes, uint32_t flags, uint32_t fence_id,
                                   struct wk_exec_fault *fault, uint32_t *misbehaved)
{
    if (!s)
        return WK_E_INVALID_ARGUMENT;
    return exec_on(gpu, wk_va_mem(s), wk_va_mem_ops(), p, self, buffer_addr, start, end, bytes,
                   flags | WK_EXEC_VIRTUAL, fence_id, fault, misbehaved);
}

wk_status wk_gpu_fault_record(struct wk_gpu *gpu, const struct wk_gpu_fault *f)
{
    if (!gpu || !f || (uint32_t)f->reason >= WK_GPU_FAULT_REASON_COUNT)
        return WK_E_INVALID_ARGUMENT;
    fault_record_copy(gpu, f);
    return WK_OK;
}
