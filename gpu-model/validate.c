/* SPDX-License-Identifier: MIT */
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

/* The first problem of one decoded command against the model: a refused
 * operand (with *d) or an access outside the regions (with *fault_addr).
 * The operand checks are the executor's own (operands.c). */
static enum wk_gpu_fault_reason check_cmd(const struct wk_gpu *gpu, const struct opcode_view *views,
                                          const struct wk_gpu_cmd *c, uint64_t *fault_addr,
                                          struct wk_gpu_fault_detail *d)
{
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    if (views[c->opcode].segment &&
        (!operand_gart_target(&gpu->desc, c, d) || !operand_gart_frames(&gpu->desc, c, d)))
        return WK_GPU_FAULT_BAD_OPERAND;
    if (c->opcode == WK_GPU_OP_CALL && !operand_dma_length(&gpu->desc, c->operands[1], 1, d))
        return WK_GPU_FAULT_BAD_OPERAND;
    struct extent ext[2];
    uint32_t n = opcode_extents(c, ext);
    for (uint32_t i = 0; i < n; i++)
        if (!space_check_region(gpu, ext[i].addr, ext[i].len, &why, fault_addr))
            return why;
    return WK_GPU_FAULT_NONE;
}

/* The record of a static fault: depth 0 and no buffer (flags say so). */
static void report(struct wk_gpu_fault *f, enum wk_gpu_fault_reason why, uint32_t opcode, uint64_t off,
                   uint64_t fault_addr, const struct wk_gpu_fault_detail *d)
{
    if (!f)
        return;
    fault_fill(f, why, opcode, off, 0, 0, fault_addr, d);
    f->flags = WK_GPU_FAULT_STATIC;
}

wk_status wk_gpu_validate(const struct wk_gpu *gpu, const uint8_t *buf, uint64_t len,
                          struct wk_gpu_fault *fault)
{
    uint64_t fault_addr = 0;
    struct wk_gpu_fault_detail d;
    const struct opcode_view *views = opcode_views();
    for (uint64_t off = 0; off < len;) {
        struct wk_gpu_cmd cmd;
        wk_status st = decode_cmd(views, buf, len, off, &cmd);
        enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
        if (st != WK_OK) { /* the rare path: a fuzzer's input ends here once */
            why = decode_fault_reason(st);
            if (st == WK_E_BAD_OPERAND)
                decode_explain(views, buf, len, off, &d);
        } else if (gpu) {
            why = check_cmd(gpu, views, &cmd, &fault_addr, &d);
        }
        if (why != WK_GPU_FAULT_NONE) {
            report(fault, why, buf[off], off, fault_addr, &d);
            return WK_E_GPU_FAULT;
        }
        off += cmd.length;
    }
    report(fault, WK_GPU_FAULT_NONE, UINT32_MAX, 0, 0, NULL);
    return WK_OK;
}
