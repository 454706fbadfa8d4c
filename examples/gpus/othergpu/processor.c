/* SPDX-License-Identifier: MIT */
/*
 * processor.c - OtherGPU's command processor: runs one buffer of 16-byte
 * records (othergpu_hw.h) against the kit's memory system
 * (wk_processor_ops.exec of wddmkit/processor.h), and reads an encoded
 * address back at a patch location (read_address).
 *
 * For each record, in buffer order: decode it whole (records.c), check its
 * operands (an address operand carries its valid bit, a page address is
 * page aligned and system memory, a segment is an aperture and the page
 * fits it, a latched operand is there), charge the kit's budget, then act
 * through x->mem_ops only. The first thing wrong halts the buffer with the
 * record's byte offset, its op and a class: DECODE and OPERAND from the
 * checks, STATE for a COPY, FILL or FENCE whose first half (SRC, PATTERN,
 * FENCE_VALUE) did not come before it in this buffer, MEMORY when the
 * memory system refuses an access (it checks every access whole first, so
 * a refused record changed nothing), BUDGET when spend says the budget is
 * gone.
 *
 * The latches (SRC, PATTERN, FENCE_VALUE) belong to one run: OtherGPU's
 * driver writes each pair together in one buffer (othergpu_hw.h), so a
 * half-pair at a buffer's start is the driver's bug, not state to carry.
 * A latch is consumed by the command that uses it.
 *
 * Termination by construction: no jumps and no chained buffers; every
 * record moves the offset forward by 16 bytes.
 */
#include <string.h>

#include "othergpu_gpu.h"

/* One run: the kit's exec, the layout, the latches of this buffer. */
struct og_run {
    const struct wk_exec *x;
    struct og_adapter_model *adapter;   /* NULL: no adapter (a test, a tool) */
    const struct wk_gpu_desc *layout;
    struct wk_mem_fault mem_fault;
    int has_src, has_pattern, has_fence_value;
    uint64_t src, fence_value;
    uint32_t pattern;
};

/* The kit's budget: OGB_FAULT_NONE to go on, OGB_FAULT_BUDGET when spent.
 * A kit without a budget table leaves the run bounded by its length. */
static uint32_t spend(struct og_run *r, uint64_t bytes)
{
    const struct wk_exec_ops *ops = r->x->ops;
    if (ops == NULL || ops->size < offsetof(struct wk_exec_ops, spend) + sizeof ops->spend ||
        ops->spend == NULL) {
        return OGB_FAULT_NONE;
    }
    return ops->spend(r->x, 1, bytes) == 0 ? OGB_FAULT_NONE : OGB_FAULT_BUDGET;
}

/* A memory call's result: OGB_FAULT_NONE, or the fault its refusal is. */
static uint32_t memory_result(int rc)
{
    return rc == 0 ? OGB_FAULT_NONE : OGB_FAULT_MEMORY;
}

/* ------------------------------------------------------------------ */
/* Operand checks                                                       */
/* ------------------------------------------------------------------ */

static uint32_t need_address(const struct ogb_record *rec)
{
    return rec->has_address ? OGB_FAULT_NONE : OGB_FAULT_NO_ADDRESS;
}

/* MAP_PAGE and UNMAP_PAGE: word c names an aperture and a page inside
 * it, words a and b a page-aligned address of system memory. */
static uint32_t check_page_operands(const struct og_run *r, const struct ogb_record *rec, uint32_t *segment_id,
                                    uint64_t *page, uint64_t *pfn)
{
    uint32_t code = need_address(rec);
    if (code != OGB_FAULT_NONE) {
        return code;
    }
    if (rec->address & (OG_PAGE_SIZE - 1)) {
        return OGB_FAULT_UNALIGNED_PAGE;
    }
    *segment_id = rec->c >> OG_SEGMENT_SHIFT;
    *page = rec->c & OG_PAGE_MASK;
    *pfn = rec->address >> OG_PAGE_SHIFT;
    if (*segment_id == 0 || *segment_id > r->layout->segment_count ||
        r->layout->segments[*segment_id - 1].kind != WK_GPU_SEGMENT_APERTURE) {
        return OGB_FAULT_BAD_SEGMENT;
    }
    if (*page >= r->layout->segments[*segment_id - 1].size >> OG_PAGE_SHIFT) {
        return OGB_FAULT_PAGE_PAST_APERTURE;
    }
    if (*pfn < r->layout->sysmem_first_pfn || *pfn - r->layout->sysmem_first_pfn >= r->layout->sysmem_pages) {
        return OGB_FAULT_FRAME_OUTSIDE_SYSMEM;
    }
    return OGB_FAULT_NONE;
}

/* ------------------------------------------------------------------ */
/* One handler per op                                                   */
/* ------------------------------------------------------------------ */

static uint32_t run_nop(struct og_run *r, const struct ogb_record *rec)
{
    (void)rec;
    return spend(r, 0);
}

static uint32_t run_src(struct og_run *r, const struct ogb_record *rec)
{
    uint32_t code = need_address(rec);
    if (code == OGB_FAULT_NONE) {
        code = spend(r, 0);
    }
    if (code == OGB_FAULT_NONE) {
        r->has_src = 1;
        r->src = rec->address;
    }
    return code;
}

static uint32_t run_copy(struct og_run *r, const struct ogb_record *rec)
{
    uint32_t code = need_address(rec);
    if (code != OGB_FAULT_NONE) {
        return code;
    }
    if (!r->has_src) {
        return OGB_FAULT_NO_SRC;
    }
    if ((code = spend(r, rec->c)) != OGB_FAULT_NONE) {
        return code;
    }
    r->has_src = 0;
    return memory_result(r->x->mem_ops->copy(r->x->mem, rec->address, r->src, rec->c, &r->mem_fault));
}

static uint32_t run_pattern(struct og_run *r, const struct ogb_record *rec)
{
    uint32_t code = spend(r, 0);
    if (code == OGB_FAULT_NONE) {
        r->has_pattern = 1;
        r->pattern = rec->a;
    }
    return code;
}

static uint32_t run_fill(struct og_run *r, const struct ogb_record *rec)
{
    uint32_t code = need_address(rec);
    if (code != OGB_FAULT_NONE) {
        return code;
    }
    if (!r->has_pattern) {
        return OGB_FAULT_NO_PATTERN;
    }
    if ((code = spend(r, rec->c)) != OGB_FAULT_NONE) {
        return code;
    }
    /* The pattern's byte 0 lands at the destination: the word as it sits
     * in memory, little-endian. */
    uint8_t pattern[4] = { (uint8_t)r->pattern, (uint8_t)(r->pattern >> 8), (uint8_t)(r->pattern >> 16),
                           (uint8_t)(r->pattern >> 24) };
    r->has_pattern = 0;
    return memory_result(r->x->mem_ops->fill(r->x->mem, rec->address, rec->c, pattern, 4, &r->mem_fault));
}

static int has_write_same(const struct wk_mem_ops *ops)
{
    return ops->size >= offsetof(struct wk_mem_ops, gart_write_same) + sizeof ops->gart_write_same &&
           ops->gart_write_same != NULL;
}

/* One GART entry: a map writes the page's frame; an unmap points the page
 * at the dummy frame, through gart_write_same when the table has it (the
 * kit counts that as an unmap), else through gart_write. Either way the
 * GPU sees the old entry until GART_FLUSH. */
static uint32_t run_page(struct og_run *r, const struct ogb_record *rec)
{
    uint32_t segment_id;
    uint64_t page, pfn;
    uint32_t code = check_page_operands(r, rec, &segment_id, &page, &pfn);
    if (code != OGB_FAULT_NONE || (code = spend(r, 8)) != OGB_FAULT_NONE) {
        return code;
    }
    const struct wk_mem_ops *ops = r->x->mem_ops;
    if (rec->op == OG_UNMAP_PAGE && has_write_same(ops)) {
        return memory_result(ops->gart_write_same(r->x->mem, segment_id, page, 1, pfn, &r->mem_fault));
    }
    return memory_result(ops->gart_write(r->x->mem, segment_id, page, 1, NULL, pfn, &r->mem_fault));
}

static uint32_t run_gart_flush(struct og_run *r, const struct ogb_record *rec)
{
    uint32_t segment_id = rec->c;
    if (segment_id == 0 || segment_id > r->layout->segment_count ||
        r->layout->segments[segment_id - 1].kind != WK_GPU_SEGMENT_APERTURE) {
        return OGB_FAULT_BAD_SEGMENT;
    }
    uint32_t code = spend(r, 0);
    if (code != OGB_FAULT_NONE) {
        return code;
    }
    return memory_result(r->x->mem_ops->gart_flush(r->x->mem, segment_id, &r->mem_fault));
}

static uint32_t run_fence_value(struct og_run *r, const struct ogb_record *rec)
{
    uint32_t code = spend(r, 0);
    if (code == OGB_FAULT_NONE) {
        r->has_fence_value = 1;
        r->fence_value = (uint64_t)rec->b << 32 | rec->a;
    }
    return code;
}

/* The 64-bit value goes to memory, then the kit hears of it (its record of
 * the GPU's last fence), then the adapter's record. */
static uint32_t run_fence(struct og_run *r, const struct ogb_record *rec)
{
    uint32_t code = need_address(rec);
    if (code != OGB_FAULT_NONE) {
        return code;
    }
    if (!r->has_fence_value) {
        return OGB_FAULT_NO_FENCE_VALUE;
    }
    if ((code = spend(r, 8)) != OGB_FAULT_NONE) {
        return code;
    }
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++) {
        bytes[i] = (uint8_t)(r->fence_value >> (8 * i));
    }
    r->has_fence_value = 0;
    code = memory_result(r->x->mem_ops->store(r->x->mem, rec->address, bytes, sizeof bytes, &r->mem_fault));
    if (code != OGB_FAULT_NONE) {
        return code;
    }
    const struct wk_exec_ops *ops = r->x->ops;
    if (ops != NULL && ops->size >= offsetof(struct wk_exec_ops, fence) + sizeof ops->fence && ops->fence != NULL) {
        ops->fence(r->x, rec->address, r->fence_value);
    }
    if (r->adapter != NULL) {
        r->adapter->fence_addr = rec->address;
        r->adapter->fence_value = r->fence_value;
        r->adapter->fences_written++;
    }
    return OGB_FAULT_NONE;
}

/* The model's memory is coherent, so a flush moves nothing; the line must
 * still be memory OtherGPU has, and the mode one it knows. */
static uint32_t run_cache_flush(struct og_run *r, const struct ogb_record *rec)
{
    struct wk_gpu_location where;
    uint32_t code = need_address(rec);
    if (code != OGB_FAULT_NONE) {
        return code;
    }
    if (rec->c > 1) {
        return OGB_FAULT_BAD_FLUSH_MODE;
    }
    if ((code = spend(r, 0)) != OGB_FAULT_NONE) {
        return code;
    }
    if (r->x->mem_ops->locate(r->x->mem, rec->address, &where) != 0) {
        r->mem_fault.reason = WK_GPU_FAULT_BAD_ADDRESS;
        r->mem_fault.addr = rec->address;
        return OGB_FAULT_MEMORY;
    }
    return OGB_FAULT_NONE;
}

typedef uint32_t og_handler(struct og_run *r, const struct ogb_record *rec);

static og_handler *handler_of(uint32_t op)
{
    switch (op) {
    case OG_NOP: return run_nop;
    case OG_SRC: return run_src;
    case OG_COPY: return run_copy;
    case OG_PATTERN: return run_pattern;
    case OG_FILL: return run_fill;
    case OG_MAP_PAGE: return run_page;
    case OG_UNMAP_PAGE: return run_page;
    case OG_GART_FLUSH: return run_gart_flush;
    case OG_FENCE_VALUE: return run_fence_value;
    case OG_FENCE: return run_fence;
    case OG_CACHE_FLUSH: return run_cache_flush;
    default: return NULL; /* the decoder refused it already */
    }
}

/* ------------------------------------------------------------------ */
/* The processor                                                        */
/* ------------------------------------------------------------------ */

static int halt(struct wk_exec_fault *fault, const struct og_run *r, uint32_t code, uint64_t offset, uint32_t op)
{
    memset(fault, 0, sizeof *fault);
    fault->cls = ogb_fault_class(code);
    fault->code = code;
    fault->offset = offset;
    fault->opcode = op;
    if (code == OGB_FAULT_MEMORY) {
        fault->mem_reason = r->mem_fault.reason;
        fault->fault_addr = r->mem_fault.addr;
    }
    return 1;
}

static int og_exec(void *self, const struct wk_exec *x, struct wk_exec_fault *fault)
{
    struct og_run r = { .x = x, .adapter = self };
    uint64_t offset = x->start;

    memset(fault, 0, sizeof *fault);
    if (!ogb_mem_ops_usable(x->mem_ops) || (r.layout = x->mem_ops->layout(x->mem)) == NULL ||
        (x->bytes == NULL && x->start < x->end)) {
        return halt(fault, &r, OGB_FAULT_BAD_RUN, offset, OGB_OPCODE_NONE);
    }
    while (offset < x->end) {
        struct ogb_record rec;
        uint32_t code = ogb_decode(x->bytes, x->end, offset, &rec);
        if (code == OGB_FAULT_NONE) {
            memset(&r.mem_fault, 0, sizeof r.mem_fault);
            code = handler_of(rec.op)(&r, &rec);
        }
        if (code != OGB_FAULT_NONE) {
            return halt(fault, &r, code, offset, rec.op);
        }
        offset += OG_CMD_SIZE;
    }
    return 0;
}

/* A patch location's slot: words a and b of an address operand (8 bytes,
 * at a word boundary), as Render and Patch write them. No valid bit: no
 * address is encoded there (Render's "not placed yet"). */
static int og_read_address(void *self, const uint8_t *dma, uint64_t len, uint64_t offset, uint64_t *address,
                           uint32_t *slot_bytes)
{
    (void)self;
    if (dma == NULL || address == NULL || offset % 4u != 0 || offset > len || len - offset < 8) {
        return -1;
    }
    if (!ogb_read_encoded_address(dma + offset, address)) {
        return -1;
    }
    if (slot_bytes != NULL) {
        *slot_bytes = 8;
    }
    return 0;
}

const struct wk_processor_ops og_processor = {
    .size = sizeof(struct wk_processor_ops),
    .exec = og_exec,
    .read_address = og_read_address,
    .fault_text = ogb_fault_text,
};
