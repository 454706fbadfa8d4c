/* SPDX-License-Identifier: MIT */
/*
 * encode.c - the command encoder drivers use to build DMA buffers.
 *
 * wk_gpu_emit writes a command from the table or nothing at all: when it
 * does not fit, the writer is left untouched and WK_E_NO_SPACE tells the
 * driver to return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER and go multipass.
 */
#include <string.h>

#include "internal.h"

static wk_status check_operands(const struct wk_gpu_opcode_info *op, const struct wk_gpu_cmd *cmd)
{
    for (uint32_t i = 0; i < op->operand_count; i++) {
        const struct wk_gpu_operand_info *o = &op->operands[i];
        uint64_t v = o->kind == WK_GPU_OPND_COUNT ? cmd->list_count : cmd->operands[i];
        if (opcode_operand_width(o->kind) == 4 && v > UINT32_MAX)
            return WK_E_BAD_OPERAND;
        if (o->max_value && v > o->max_value)
            return WK_E_BAD_OPERAND;
    }
    if (op->has_list ? cmd->list_count > op->max_list_count : cmd->list_count != 0)
        return WK_E_BAD_OPERAND;
    if (cmd->list_count && !cmd->list)
        return WK_E_INVALID_ARGUMENT;
    return WK_OK;
}

wk_status wk_gpu_emit(struct wk_gpu_writer *w, const struct wk_gpu_cmd *cmd, uint64_t *at)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info((uint32_t)cmd->opcode);
    if (!op)
        return WK_E_UNKNOWN_OPCODE;
    wk_status st = check_operands(op, cmd);
    if (st != WK_OK)
        return st;
    uint64_t size = wk_gpu_cmd_size(cmd->opcode, cmd->list_count);
    if (w->used > w->capacity || w->capacity - w->used < size)
        return WK_E_NO_SPACE;
    uint8_t *p = w->buf + w->used;
    put_le32(p, (uint32_t)cmd->opcode);
    for (uint32_t i = 0; i < op->operand_count; i++) {
        const struct wk_gpu_operand_info *o = &op->operands[i];
        uint64_t v = o->kind == WK_GPU_OPND_COUNT ? cmd->list_count : cmd->operands[i];
        if (opcode_operand_width(o->kind) == 8)
            put_le64(p + o->byte_offset, v);
        else
            put_le32(p + o->byte_offset, (uint32_t)v);
    }
    if (cmd->list_count)
        memcpy(p + op->fixed_bytes, cmd->list, (size_t)cmd->list_count * op->list_element_bytes);
    if (at)
        *at = w->used;
    w->used += size;
    return WK_OK;
}

static wk_status emit_fixed(struct wk_gpu_writer *w, enum wk_gpu_opcode opcode, uint64_t a,
                            uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f)
{
    struct wk_gpu_cmd cmd = { opcode, { a, b, c, d, e, f, 0, 0 }, 0, NULL, 0 };
    return wk_gpu_emit(w, &cmd, NULL);
}

wk_status wk_gpu_emit_nop(struct wk_gpu_writer *w)
{
    return emit_fixed(w, WK_GPU_OP_NOP, 0, 0, 0, 0, 0, 0);
}

wk_status wk_gpu_emit_copy(struct wk_gpu_writer *w, uint64_t src, uint64_t dst, uint64_t bytes)
{
    return emit_fixed(w, WK_GPU_OP_COPY, src, dst, bytes, 0, 0, 0);
}

wk_status wk_gpu_emit_fill(struct wk_gpu_writer *w, uint64_t dst, uint64_t bytes, uint32_t pattern)
{
    return emit_fixed(w, WK_GPU_OP_FILL, dst, bytes, pattern, 0, 0, 0);
}

wk_status wk_gpu_emit_write32(struct wk_gpu_writer *w, uint64_t addr, uint32_t value)
{
    return emit_fixed(w, WK_GPU_OP_WRITE32, addr, value, 0, 0, 0, 0);
}

wk_status wk_gpu_emit_write64(struct wk_gpu_writer *w, uint64_t addr, uint64_t value)
{
    return emit_fixed(w, WK_GPU_OP_WRITE64, addr, value, 0, 0, 0, 0);
}

wk_status wk_gpu_emit_fence(struct wk_gpu_writer *w, uint64_t addr, uint64_t value)
{
    return emit_fixed(w, WK_GPU_OP_FENCE, addr, value, 0, 0, 0, 0);
}

/* The list is written little-endian whatever the host order. */
wk_status wk_gpu_emit_gart_map(struct wk_gpu_writer *w, uint32_t segment_id, uint32_t first_page,
                               uint32_t count, const uint64_t *pfns)
{
    uint64_t size = wk_gpu_cmd_size(WK_GPU_OP_GART_MAP, count);
    if (!size)
        return WK_E_BAD_OPERAND;
    if (count && !pfns)
        return WK_E_INVALID_ARGUMENT;
    if (w->used > w->capacity || w->capacity - w->used < size)
        return WK_E_NO_SPACE;
    uint8_t *p = w->buf + w->used;
    put_le32(p, WK_GPU_OP_GART_MAP);
    put_le32(p + 4, segment_id);
    put_le32(p + 8, first_page);
    put_le32(p + 12, count);
    for (uint32_t i = 0; i < count; i++)
        put_le64(p + 16 + 8 * (uint64_t)i, pfns[i]);
    w->used += size;
    return WK_OK;
}

wk_status wk_gpu_emit_gart_unmap(struct wk_gpu_writer *w, uint32_t segment_id, uint32_t first_page,
                                 uint32_t count, uint64_t dummy_pfn)
{
    return emit_fixed(w, WK_GPU_OP_GART_UNMAP, segment_id, first_page, count, dummy_pfn, 0, 0);
}

wk_status wk_gpu_emit_tlb_flush(struct wk_gpu_writer *w, uint32_t segment_id)
{
    return emit_fixed(w, WK_GPU_OP_TLB_FLUSH, segment_id, 0, 0, 0, 0, 0);
}

wk_status wk_gpu_emit_call(struct wk_gpu_writer *w, uint64_t addr, uint32_t bytes)
{
    return emit_fixed(w, WK_GPU_OP_CALL, addr, bytes, 0, 0, 0, 0);
}

wk_status wk_gpu_emit_blit(struct wk_gpu_writer *w, uint64_t src, uint64_t dst, uint32_t width,
                           uint32_t height, uint32_t src_pitch, uint32_t dst_pitch)
{
    return emit_fixed(w, WK_GPU_OP_BLIT, src, dst, width, height, src_pitch, dst_pitch);
}

wk_status wk_gpu_emit_va_flush(struct wk_gpu_writer *w, uint64_t root, uint64_t start, uint64_t end)
{
    return emit_fixed(w, WK_GPU_OP_VA_FLUSH, root, start, end, 0, 0, 0);
}
