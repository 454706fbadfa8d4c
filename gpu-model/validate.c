/*
 * validate.c - static checks of a DMA buffer, without running it.
 *
 * Everything that does not depend on state is checked here: decoding, and
 * (given a model) the ranges each command touches, segment operands, page
 * ranges and frame numbers. What is left for run time is exactly what state
 * decides: GART mappings, call depth, budgets, host memory, and the contents
 * of CALL targets. The fuzz harness holds the executor to that promise.
 */
#include "internal.h"

static int pfn_valid(const struct wk_gpu *gpu, uint64_t pfn)
{
    const struct wk_gpu_desc *d = &gpu->desc;
    return pfn >= d->sysmem_first_pfn && pfn - d->sysmem_first_pfn < d->sysmem_pages;
}

/* Segment and page operands of the GART commands. */
static int gart_ok(const struct wk_gpu *gpu, const struct wk_gpu_cmd *c)
{
    const struct region *r = c->operands[0] <= UINT32_MAX
                                 ? space_segment(gpu, (uint32_t)c->operands[0]) : NULL;
    if (!r || r->kind != WK_GPU_SEGMENT_APERTURE)
        return 0;
    uint64_t pages = r->size >> WK_GPU_PAGE_SHIFT, first = c->operands[1];
    switch (c->opcode) {
    case WK_GPU_OP_GART_MAP:
        if (first > pages || c->list_count > pages - first)
            return 0;
        for (uint32_t i = 0; i < c->list_count; i++)
            if (!pfn_valid(gpu, le64(c->list + 8 * (uint64_t)i)))
                return 0;
        return 1;
    case WK_GPU_OP_GART_UNMAP:
        return first <= pages && c->operands[2] <= pages - first && pfn_valid(gpu, c->operands[3]);
    default:
        return 1;
    }
}

static enum wk_gpu_fault_reason check_cmd(const struct wk_gpu *gpu, const struct wk_gpu_cmd *c,
                                          uint64_t *fault_addr)
{
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    if (opcode_views()[c->opcode].segment && !gart_ok(gpu, c))
        return WK_GPU_FAULT_BAD_OPERAND;
    if (c->opcode == WK_GPU_OP_CALL && c->operands[1] > gpu->desc.max_dma_length)
        return WK_GPU_FAULT_BAD_OPERAND;
    struct extent ext[2];
    uint32_t n = opcode_extents(c, ext);
    for (uint32_t i = 0; i < n; i++)
        if (!space_check_region(gpu, ext[i].addr, ext[i].len, &why, fault_addr))
            return why;
    return WK_GPU_FAULT_NONE;
}

wk_status wk_gpu_validate(const struct wk_gpu *gpu, const uint8_t *buf, uint64_t len,
                          struct wk_gpu_fault *fault)
{
    uint64_t fault_addr = 0;
    const struct opcode_view *views = opcode_views();
    for (uint64_t off = 0; off < len;) {
        struct wk_gpu_cmd cmd;
        wk_status st = decode_cmd(views, buf, len, off, &cmd);
        enum wk_gpu_fault_reason why = decode_fault_reason(st);
        if (why == WK_GPU_FAULT_NONE && gpu)
            why = check_cmd(gpu, &cmd, &fault_addr);
        if (why != WK_GPU_FAULT_NONE) {
            if (fault)
                fault_fill(fault, why, buf[off], off, 0, 0, fault_addr);
            return WK_E_GPU_FAULT;
        }
        off += cmd.length;
    }
    if (fault)
        fault_fill(fault, WK_GPU_FAULT_NONE, UINT32_MAX, 0, 0, 0, 0);
    return WK_OK;
}
