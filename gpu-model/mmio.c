/* SPDX-License-Identifier: MIT */
/*
 * mmio.c - the register front end: what a driver's BAR accesses reach.
 *
 * Submissions queue on DOORBELL and run only when the scheduler calls
 * wk_gpu_run, so a driver never sees its own interrupt while it is still
 * inside SubmitCommand: time advances at points the kit chooses, which keeps
 * every run deterministic. The queue is bounded; a DOORBELL on a full queue
 * drops the submission and raises OVERFLOW, like a ring that wraps onto
 * unfinished work.
 *
 * RING_ROOT makes a submission virtual (DxgkDdiSubmitCommandVirtual: the
 * buffer's address is in the context's GPU virtual address space, whose
 * root table the driver makes active first). DOORBELL latches it with the
 * rest, so a driver may set up the next submission while this one waits.
 * Root 0 is the physical submission every fuzz input makes: one test of
 * the latched root is all that path gains.
 */
#include "internal.h"

static uint32_t read_reg(const struct wk_gpu *gpu, uint32_t offset)
{
    const struct frontend *fe = &gpu->fe;
    switch (offset) {
    case WK_GPU_REG_ID: return WK_GPU_ID;
    case WK_GPU_REG_RING_ADDR_LO: return (uint32_t)fe->ring_addr;
    case WK_GPU_REG_RING_ADDR_HI: return (uint32_t)(fe->ring_addr >> 32);
    case WK_GPU_REG_RING_LENGTH: return fe->ring_length;
    case WK_GPU_REG_RING_TAG: return fe->ring_tag;
    case WK_GPU_REG_QUEUE_DEPTH: return fe->count;
    case WK_GPU_REG_IRQ_STATUS: return fe->irq_status;
    case WK_GPU_REG_COMPLETED_TAG: return fe->completed_tag;
    case WK_GPU_REG_FAULT_TAG: return fe->fault_tag;
    case WK_GPU_REG_FAULT_REASON: return fe->fault_reason;
    case WK_GPU_REG_FENCE_LO: return (uint32_t)gpu->last_fence;
    case WK_GPU_REG_FENCE_HI: return (uint32_t)(gpu->last_fence >> 32);
    case WK_GPU_REG_GART_SEGMENT: return fe->gart_segment;
    case WK_GPU_REG_GART_PAGE: return fe->gart_page;
    case WK_GPU_REG_GART_PFN_LO: return (uint32_t)fe->gart_pfn;
    case WK_GPU_REG_GART_PFN_HI: return (uint32_t)(fe->gart_pfn >> 32);
    case WK_GPU_REG_RING_ROOT_LO: return (uint32_t)fe->ring_root;
    case WK_GPU_REG_RING_ROOT_HI: return (uint32_t)(fe->ring_root >> 32);
    case WK_GPU_REG_RING_ROOT_ENTRIES: return fe->ring_root_entries;
    case WK_GPU_REG_FAULT_ADDR_LO: return (uint32_t)fe->fault_addr;
    case WK_GPU_REG_FAULT_ADDR_HI: return (uint32_t)(fe->fault_addr >> 32);
    default: return 0;
    }
}

uint32_t wk_gpu_mmio_read32(struct wk_gpu *gpu, uint32_t offset)
{
    return read_reg(gpu, offset);
}

static void doorbell(struct wk_gpu *gpu)
{
    struct frontend *fe = &gpu->fe;
    if (fe->count == WK_GPU_QUEUE_SIZE) {
        fe->irq_status |= WK_GPU_IRQ_OVERFLOW;
        return;
    }
    struct submission *s = &fe->queue[(fe->head + fe->count) % WK_GPU_QUEUE_SIZE];
    s->addr = fe->ring_addr;
    s->length = fe->ring_length;
    s->tag = fe->ring_tag;
    s->root = fe->ring_root;
    s->root_entries = fe->ring_root_entries;
    s->device_error = fe->device_error_next;
    fe->device_error_next = 0;
    fe->count++;
    s->seq = ++gpu->counters.submissions;
}

static void set_lo(uint64_t *v, uint32_t lo)
{
    *v = (*v & ~0xFFFFFFFFull) | lo;
}

static void set_hi(uint64_t *v, uint32_t hi)
{
    *v = (*v & 0xFFFFFFFFull) | (uint64_t)hi << 32;
}

void wk_gpu_mmio_write32(struct wk_gpu *gpu, uint32_t offset, uint32_t value)
{
    struct frontend *fe = &gpu->fe;
    switch (offset) {
    case WK_GPU_REG_RING_ADDR_LO: set_lo(&fe->ring_addr, value); break;
    case WK_GPU_REG_RING_ADDR_HI: set_hi(&fe->ring_addr, value); break;
    case WK_GPU_REG_RING_LENGTH: fe->ring_length = value; break;
    case WK_GPU_REG_RING_TAG: fe->ring_tag = value; break;
    case WK_GPU_REG_DOORBELL: doorbell(gpu); break;
    case WK_GPU_REG_IRQ_ACK: fe->irq_status &= ~value; break;
    case WK_GPU_REG_GART_SEGMENT: fe->gart_segment = value; break;
    case WK_GPU_REG_GART_PAGE: fe->gart_page = value; break;
    case WK_GPU_REG_GART_PFN_LO: set_lo(&fe->gart_pfn, value); break;
    case WK_GPU_REG_GART_PFN_HI: set_hi(&fe->gart_pfn, value); break;
    case WK_GPU_REG_GART_COMMIT:
        if (wk_gpu_gart_set(gpu, fe->gart_segment, fe->gart_page, fe->gart_pfn) != WK_OK)
            fe->irq_status |= WK_GPU_IRQ_GART_ERROR;
        break;
    case WK_GPU_REG_RING_ROOT_LO: set_lo(&fe->ring_root, value); break;
    case WK_GPU_REG_RING_ROOT_HI: set_hi(&fe->ring_root, value); break;
    case WK_GPU_REG_RING_ROOT_ENTRIES: fe->ring_root_entries = value; break;
    default: break;
    }
}

/* A root no attached space has: the GPU has no tables to translate the
 * ring's address with, so nothing of the buffer runs. The record names
 * the root asked for (fault_addr) and the ring's virtual address
 * (buffer_addr): what a reader needs to tell a driver's wrong root from a
 * space the kit never attached. */
static wk_status no_space(struct wk_gpu *gpu, const struct submission *s, struct wk_gpu_fault *f)
{
    fault_fill(f, WK_GPU_FAULT_NO_ADDRESS_SPACE, UINT32_MAX, 0, s->addr, 0, s->root, &fault_no_detail);
    fault_record_copy(gpu, f);
    return WK_E_GPU_FAULT;
}

/* A submission as the GPU runs it: physical (root 0), or in the attached
 * space whose root table it names; a sized root (a two-level tree's)
 * bounded by the entries the submission latched, not the kit's: what the
 * driver programmed is what the hardware reads. */
static wk_status submit(struct wk_gpu *gpu, const struct submission *s, struct wk_gpu_fault *f)
{
    if (__builtin_expect(s->root == 0, 1))
        return wk_gpu_exec(gpu, s->addr, s->length, f);
    struct wk_va_space *space = gpu_va_find(gpu, s->root);
    if (!space)
        return no_space(gpu, s, f);
    if (!wk_va_space_root_sized(space))
        return exec_virtual(gpu, space, s->addr, s->length, f);
    uint32_t kit = va_root_entries_swap(space, s->root_entries);
    wk_status st = exec_virtual(gpu, space, s->addr, s->length, f);
    (void)va_root_entries_swap(space, kit);
    return st;
}

static void note_faulted(struct frontend *fe, const struct submission *s)
{
    fe->faulted_seqs[fe->faulted_count++ % FAULTED_TAGS] = s->seq;
}

int wk_gpu_doorbell_faulted(const struct wk_gpu *gpu, uint64_t seq)
{
    const struct frontend *fe = &gpu->fe;
    uint32_t n = fe->faulted_count < FAULTED_TAGS ? fe->faulted_count : FAULTED_TAGS;
    for (uint32_t i = 0; i < n; i++)
        if (fe->faulted_seqs[i] == seq)
            return 1;
    return 0;
}

uint32_t wk_gpu_run(struct wk_gpu *gpu, uint32_t max)
{
    struct frontend *fe = &gpu->fe;
    uint32_t ran = 0;
    while (fe->count && (max == 0 || ran < max)) {
        struct submission s = fe->queue[fe->head];
        fe->head = (fe->head + 1) % WK_GPU_QUEUE_SIZE;
        fe->count--;
        struct wk_gpu_fault f;
        if (s.device_error) { /* the hardware's own error: nothing of the buffer runs */
            fe->irq_status |= WK_GPU_IRQ_FAULT;
            fe->fault_tag = s.tag;
            fe->fault_reason = (uint32_t)WK_GPU_FAULT_DEVICE_ERROR;
            fe->fault_addr = 0;
            note_faulted(fe, &s);
            gpu->counters.device_errors++;
        } else if (submit(gpu, &s, &f) != WK_OK) {
            fe->irq_status |= WK_GPU_IRQ_FAULT;
            fe->fault_tag = s.tag;
            fe->fault_reason = (uint32_t)f.reason;
            fe->fault_addr = f.fault_addr;
            note_faulted(fe, &s);
        }
        fe->completed_tag = s.tag;
        fe->last_root = s.root;
        fe->last_root_entries = s.root_entries;
        fe->irq_status |= WK_GPU_IRQ_COMPLETED;
        gpu->counters.submissions_run++;
        ran++;
    }
    return ran;
}

uint64_t wk_gpu_va_flushes(const struct wk_gpu *gpu, uint64_t *last_root)
{
    *last_root = gpu->last_flush_root;
    return gpu->va_flushes;
}

uint64_t wk_gpu_last_root(const struct wk_gpu *gpu)
{
    return gpu->fe.last_root;
}

uint32_t wk_gpu_last_root_entries(const struct wk_gpu *gpu)
{
    return gpu->fe.last_root_entries;
}

void wk_gpu_device_error_next_doorbell(struct wk_gpu *gpu)
{
    gpu->fe.device_error_next = 1;
}

int wk_gpu_irq_asserted(const struct wk_gpu *gpu)
{
    return gpu->fe.irq_status != 0;
}
