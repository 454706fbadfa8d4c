/* SPDX-License-Identifier: MIT */
/*
 * operands.c - which operand rule a command broke, for the operand checks
 * that need a model: segment operands name an aperture, GART page ranges
 * fit it, frame numbers name system pages, DMA buffers stay within
 * max_dma_length (docs/gpu-model.md, "Command encoding" and "Faults").
 *
 * The checks themselves are inline in internal.h ("operands.c"), one for
 * the validator and the executor alike, so a command is refused by both or
 * by neither; when one fails it calls here, off the hot path, to fill the
 * fault's detail (which operand, which values). The rules are tested in the
 * order the checks test them, so the detail names the first rule broken.
 */
#include "internal.h"

/* The segment operand first (no such segment, or a memory segment), then
 * the page range. Segment ids are 32 bits on the wire; a larger value
 * names no segment. */
const struct wk_gpu_segment_desc *operand_gart_refused(const struct wk_gpu_desc *desc, const struct wk_gpu_cmd *c,
                                                       struct wk_gpu_fault_detail *d)
{
    uint64_t segment_id = c->operands[0];
    const struct wk_gpu_segment_desc *r = desc_segment(desc, segment_id);
    if (!r) {
        detail_set(d, WK_GPU_RULE_NO_SEGMENT, 0, segment_id, desc->segment_count, 0);
    } else if (r->kind != WK_GPU_SEGMENT_APERTURE) {
        detail_set(d, WK_GPU_RULE_NOT_APERTURE, 0, segment_id, 0, 0);
    } else {
        uint64_t count = c->opcode == WK_GPU_OP_GART_MAP ? c->list_count : c->operands[2];
        detail_set(d, WK_GPU_RULE_PAGES_PAST_APERTURE, 1, c->operands[1], count, r->size >> WK_GPU_PAGE_SHIFT);
    }
    return NULL;
}

int operand_frame_refused(const struct wk_gpu_desc *desc, uint64_t pfn, uint32_t operand, uint32_t element,
                          struct wk_gpu_fault_detail *d)
{
    detail_set(d, WK_GPU_RULE_PFN_OUTSIDE_SYSMEM, operand, pfn, desc->sysmem_first_pfn, desc->sysmem_pages);
    d->element = element;
    return 0;
}

int operand_dma_refused(const struct wk_gpu_desc *desc, uint64_t len, uint32_t operand,
                        struct wk_gpu_fault_detail *d)
{
    detail_set(d, WK_GPU_RULE_DMA_TOO_LONG, operand, len, desc->max_dma_length, 0);
    return 0;
}
