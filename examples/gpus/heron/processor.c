/* SPDX-License-Identifier: MIT */
/*
 * processor.c - Heron's command processor: runs one buffer of packets
 * (heron_hw.h) against the kit's memory system (wk_processor_ops.exec of
 * wddmkit/processor.h), and reads a patched address back (read_address).
 *
 * For each packet, in buffer order: decode it whole (packets.c), check
 * the operands that need the memory map (a segment is an aperture, a page
 * range fits it, a frame is system memory), charge the kit's budget, then
 * act through x->mem_ops only. The first thing wrong halts the buffer, as
 * Heron's CP halts, with the packet's byte offset, its opcode and a class:
 * DECODE and OPERAND from the checks, MEMORY when the memory system
 * refuses an access (it checks every access whole first, so a refused
 * packet changed nothing), BUDGET when spend says the budget is gone.
 *
 * Termination by construction: no jumps and no chained buffers; every
 * packet moves the offset forward by at least 4 bytes, and moves at most
 * 1 MiB. Deterministic: no clocks, no randomness, no state but the
 * adapter's record of the last fence.
 */
#include <string.h>

#include "heron_gpu.h"

/* One run: the kit's exec and what a packet handler needs beside it. */
struct heron_run {
    const struct wk_exec *x;
    struct heron_adapter *adapter;   /* NULL: no adapter (a test, a tool) */
    const struct wk_gpu_desc *layout;
    struct wk_mem_fault mem_fault;
};

/* The kit's budget: 0 to go on, HERON_FAULT_BUDGET when it is spent. A
 * kit without a budget table leaves the run bounded by its own length. */
static uint32_t spend(struct heron_run *r, uint64_t bytes)
{
    const struct wk_exec_ops *ops = r->x->ops;
    if (ops == NULL || ops->size < offsetof(struct wk_exec_ops, spend) + sizeof ops->spend ||
        ops->spend == NULL) {
        return HERON_FAULT_NONE;
    }
    return ops->spend(r->x, 1, bytes) == 0 ? HERON_FAULT_NONE : HERON_FAULT_BUDGET;
}

/* A memory call's result: 0, or the fault its refusal is. A GART range
 * the memory system refuses as an operand is Heron's operand fault. */
static uint32_t memory_result(struct heron_run *r, int rc)
{
    if (rc == 0) {
        return HERON_FAULT_NONE;
    }
    return r->mem_fault.reason == WK_GPU_FAULT_BAD_OPERAND ? HERON_FAULT_PAGES_PAST_APERTURE
                                                           : HERON_FAULT_MEMORY;
}

/* ------------------------------------------------------------------ */
/* Operand checks that need the memory map                              */
/* ------------------------------------------------------------------ */

static const struct wk_gpu_segment_desc *aperture(const struct heron_run *r, uint32_t segment_id)
{
    if (segment_id == 0 || segment_id > r->layout->segment_count) {
        return NULL;
    }
    const struct wk_gpu_segment_desc *s = &r->layout->segments[segment_id - 1];
    return s->kind == WK_GPU_SEGMENT_APERTURE ? s : NULL;
}

static uint32_t check_pages(const struct heron_run *r, uint32_t segment_id, uint32_t first, uint32_t count)
{
    const struct wk_gpu_segment_desc *s = aperture(r, segment_id);
    if (s == NULL) {
        return HERON_FAULT_BAD_SEGMENT;
    }
    if ((uint64_t)first + count > s->size >> HERON_PAGE_SHIFT) {
        return HERON_FAULT_PAGES_PAST_APERTURE;
    }
    return HERON_FAULT_NONE;
}

static int frame_in_sysmem(const struct heron_run *r, uint64_t pfn)
{
    return pfn >= r->layout->sysmem_first_pfn && pfn - r->layout->sysmem_first_pfn < r->layout->sysmem_pages;
}

/* ------------------------------------------------------------------ */
/* One handler per opcode                                               */
/* ------------------------------------------------------------------ */

static uint32_t run_nop(struct heron_run *r, const struct heron_packet *p)
{
    (void)p;
    return spend(r, 0);
}

static uint32_t run_fill(struct heron_run *r, const struct heron_packet *p)
{
    uint64_t dst = heron_qword(p, 1);
    uint32_t bytes = heron_dword(p, 3);
    uint32_t value = heron_dword(p, 4);
    /* The pattern's byte 0 lands at dst: the dword as it sits in memory. */
    uint8_t pattern[4] = { (uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16), (uint8_t)(value >> 24) };
    uint32_t code = spend(r, bytes);
    if (code != HERON_FAULT_NONE) {
        return code;
    }
    return memory_result(r, r->x->mem_ops->fill(r->x->mem, dst, bytes, pattern, 4, &r->mem_fault));
}

static uint32_t run_copy(struct heron_run *r, const struct heron_packet *p)
{
    uint64_t src = heron_qword(p, 1);
    uint64_t dst = heron_qword(p, 3);
    uint32_t bytes = heron_dword(p, 5);
    uint32_t code = spend(r, bytes);
    if (code != HERON_FAULT_NONE) {
        return code;
    }
    return memory_result(r, r->x->mem_ops->copy(r->x->mem, dst, src, bytes, &r->mem_fault));
}

static uint32_t run_gart_write(struct heron_run *r, const struct heron_packet *p)
{
    uint32_t segment_id = heron_dword(p, 1), first = heron_dword(p, 2), count = heron_dword(p, 3);
    uint64_t pfns[HERON_MAX_GART_PAGES_PER_PACKET];
    uint32_t code = check_pages(r, segment_id, first, count);
    if (code != HERON_FAULT_NONE) {
        return code;
    }
    for (uint32_t i = 0; i < count; i++) { /* count <= 64: the decoder checked */
        pfns[i] = heron_qword(p, 4 + 2 * i);
        if (!frame_in_sysmem(r, pfns[i])) {
            return HERON_FAULT_PFN_OUTSIDE_SYSMEM;
        }
    }
    code = spend(r, (uint64_t)count * 8u);
    if (code != HERON_FAULT_NONE || count == 0) {
        return code;
    }
    return memory_result(r, r->x->mem_ops->gart_write(r->x->mem, segment_id, first, count, pfns, 0,
                                                      &r->mem_fault));
}

/* A memory system whose table has gart_write_same (appended after
 * locate: an older, shorter table has none). */
static int has_write_same(const struct wk_mem_ops *ops)
{
    return ops->size >= offsetof(struct wk_mem_ops, gart_write_same) + sizeof ops->gart_write_same &&
           ops->gart_write_same != NULL;
}

/* Every page of [first, first + count) to one frame, 64 entries a call
 * through gart_write: how a table without gart_write_same says it. The
 * range and the frame were checked whole, so no call is refused half way. */
static uint32_t write_same_by_lists(struct heron_run *r, uint32_t segment_id, uint32_t first, uint32_t count,
                                    uint64_t pfn)
{
    uint64_t frames[HERON_MAX_GART_PAGES_PER_PACKET];
    uint32_t code = HERON_FAULT_NONE;
    for (uint32_t i = 0; i < HERON_MAX_GART_PAGES_PER_PACKET; i++) {
        frames[i] = pfn;
    }
    for (uint32_t done = 0; code == HERON_FAULT_NONE && done < count;) {
        uint32_t n = count - done < HERON_MAX_GART_PAGES_PER_PACKET ? count - done : HERON_MAX_GART_PAGES_PER_PACKET;
        code = memory_result(r, r->x->mem_ops->gart_write(r->x->mem, segment_id, (uint64_t)first + done, n, frames,
                                                          0, &r->mem_fault));
        done += n;
    }
    return code;
}

/* Points every page of the range at one frame (the driver's DummyPage):
 * the memory system's gart_write_same, an unmap. An all-ones frame is
 * outside system memory like any other: GART_CLEAR never leaves an entry
 * invalid. */
static uint32_t run_gart_clear(struct heron_run *r, const struct heron_packet *p)
{
    uint32_t segment_id = heron_dword(p, 1), first = heron_dword(p, 2), count = heron_dword(p, 3);
    uint64_t dummy = heron_qword(p, 4);
    uint32_t code = check_pages(r, segment_id, first, count);
    if (code != HERON_FAULT_NONE) {
        return code;
    }
    if (!frame_in_sysmem(r, dummy)) {
        return HERON_FAULT_PFN_OUTSIDE_SYSMEM;
    }
    code = spend(r, (uint64_t)count * 8u);
    if (code != HERON_FAULT_NONE || count == 0) {
        return code;
    }
    if (!has_write_same(r->x->mem_ops)) {
        return write_same_by_lists(r, segment_id, first, count, dummy);
    }
    return memory_result(r, r->x->mem_ops->gart_write_same(r->x->mem, segment_id, first, count, dummy,
                                                           &r->mem_fault));
}

static uint32_t run_gart_invalidate(struct heron_run *r, const struct heron_packet *p)
{
    uint32_t segment_id = heron_dword(p, 1);
    if (aperture(r, segment_id) == NULL) {
        return HERON_FAULT_BAD_SEGMENT;
    }
    uint32_t code = spend(r, 0);
    if (code != HERON_FAULT_NONE) {
        return code;
    }
    return memory_result(r, r->x->mem_ops->gart_flush(r->x->mem, segment_id, &r->mem_fault));
}

/* The 64-bit value goes to memory, then the kit hears of it (its record
 * of the GPU's last fence), then the adapter's record. */
static uint32_t run_fence_write(struct heron_run *r, const struct heron_packet *p)
{
    uint64_t addr = heron_qword(p, 1);
    uint64_t value = heron_qword(p, 3);
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++) {
        bytes[i] = (uint8_t)(value >> (8 * i));
    }
    uint32_t code = spend(r, sizeof bytes);
    if (code != HERON_FAULT_NONE) {
        return code;
    }
    code = memory_result(r, r->x->mem_ops->store(r->x->mem, addr, bytes, sizeof bytes, &r->mem_fault));
    if (code != HERON_FAULT_NONE) {
        return code;
    }
    const struct wk_exec_ops *ops = r->x->ops;
    if (ops != NULL && ops->size >= offsetof(struct wk_exec_ops, fence) + sizeof ops->fence && ops->fence != NULL) {
        ops->fence(r->x, addr, value);
    }
    if (r->adapter != NULL) {
        r->adapter->fence_addr = addr;
        r->adapter->fence_value = value;
        r->adapter->fences_written++;
    }
    return HERON_FAULT_NONE;
}

/* The model's memory is coherent, so a flush moves nothing; the line must
 * still be memory the engine has (Heron's MMU faults on a flush of none). */
static uint32_t run_cache_flush(struct heron_run *r, const struct heron_packet *p)
{
    uint64_t addr = heron_qword(p, 1);
    struct wk_gpu_location where;
    uint32_t code = spend(r, 0);
    if (code != HERON_FAULT_NONE) {
        return code;
    }
    if (r->x->mem_ops->locate(r->x->mem, addr, &where) != 0) {
        r->mem_fault.reason = WK_GPU_FAULT_BAD_ADDRESS;
        r->mem_fault.addr = addr;
        return HERON_FAULT_MEMORY;
    }
    return HERON_FAULT_NONE;
}

typedef uint32_t heron_handler(struct heron_run *r, const struct heron_packet *p);

static heron_handler *handler_of(uint32_t opcode)
{
    switch (opcode) {
    case HERON_OP_NOP: return run_nop;
    case HERON_OP_FILL: return run_fill;
    case HERON_OP_COPY: return run_copy;
    case HERON_OP_GART_WRITE: return run_gart_write;
    case HERON_OP_GART_CLEAR: return run_gart_clear;
    case HERON_OP_GART_INVALIDATE: return run_gart_invalidate;
    case HERON_OP_FENCE_WRITE: return run_fence_write;
    case HERON_OP_CACHE_FLUSH: return run_cache_flush;
    default: return NULL; /* the decoder refused it already */
    }
}

/* ------------------------------------------------------------------ */
/* The processor                                                        */
/* ------------------------------------------------------------------ */

static int halt(struct wk_exec_fault *fault, const struct heron_run *r, uint32_t code, uint64_t offset,
                uint32_t opcode)
{
    memset(fault, 0, sizeof *fault);
    fault->cls = heron_fault_class(code);
    fault->code = code;
    fault->offset = offset;
    fault->opcode = opcode;
    if (code == HERON_FAULT_MEMORY || (code == HERON_FAULT_PAGES_PAST_APERTURE && r->mem_fault.reason != 0)) {
        fault->mem_reason = r->mem_fault.reason;
        fault->fault_addr = r->mem_fault.addr;
    }
    return 1;
}

static int heron_exec(void *self, const struct wk_exec *x, struct wk_exec_fault *fault)
{
    struct heron_run r = { .x = x, .adapter = self };
    uint64_t offset = x->start;

    memset(fault, 0, sizeof *fault);
    if (!heron_mem_ops_usable(x->mem_ops) || (r.layout = x->mem_ops->layout(x->mem)) == NULL ||
        (x->bytes == NULL && x->start < x->end)) {
        return halt(fault, &r, HERON_FAULT_BAD_RUN, offset, HERON_OPCODE_NONE);
    }
    while (offset < x->end) {
        struct heron_packet p;
        uint32_t code = heron_decode(x->bytes, x->end, offset, &p);
        if (code == HERON_FAULT_NONE) {
            memset(&r.mem_fault, 0, sizeof r.mem_fault);
            code = handler_of(p.opcode)(&r, &p);
        }
        if (code != HERON_FAULT_NONE) {
            return halt(fault, &r, code, offset, p.opcode);
        }
        offset += (uint64_t)p.dwords * 4u;
    }
    return 0;
}

/* A patch location's slot: the two dwords of an address operand, low
 * first, at a dword boundary (heron_hw.h), as Render and Patch write it. */
static int heron_read_address(void *self, const uint8_t *dma, uint64_t len, uint64_t offset, uint64_t *address,
                              uint32_t *slot_bytes)
{
    (void)self;
    if (dma == NULL || address == NULL || offset % 4u != 0 || offset > len || len - offset < 8) {
        return -1;
    }
    uint64_t value = 0;
    for (int i = 7; i >= 0; i--) {
        value = value << 8 | dma[offset + (uint64_t)i];
    }
    *address = value;
    if (slot_bytes != NULL) {
        *slot_bytes = 8;
    }
    return 0;
}

const struct wk_processor_ops heron_processor = {
    .size = sizeof(struct wk_processor_ops),
    .exec = heron_exec,
    .read_address = heron_read_address,
    .fault_text = heron_fault_text,
};
