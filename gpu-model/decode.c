/* SPDX-License-Identifier: MIT */
/*
 * decode.c - one command from bytes, driven by the opcode table.
 *
 * The input is untrusted (a driver's DMA buffer, a fuzzer's bytes): every
 * length is checked before it is read, with the byte offset of the problem
 * kept for the fault record; nothing here asserts.
 */
#include <stdatomic.h>
#include <string.h>
#include <threads.h>

#include "internal.h"

static struct opcode_view decode_table[WK_GPU_OP_COUNT];
static atomic_int decode_ready;
static once_flag decode_once = ONCE_FLAG_INIT;

static void decode_build(void)
{
    for (uint32_t k = 0; k < WK_GPU_OP_COUNT; k++) {
        const struct wk_gpu_opcode_info *op = &opcode_table[k];
        struct opcode_view *d = &decode_table[k];
        d->fixed_bytes = (uint8_t)op->fixed_bytes;
        d->operand_count = (uint8_t)op->operand_count;
        for (uint32_t i = 0; i < op->operand_count; i++) {
            d->offset[i] = (uint8_t)op->operands[i].byte_offset;
            d->wide |= (uint8_t)((opcode_operand_width(op->operands[i].kind) == 8) << i);
            d->limited |= (uint8_t)((op->operands[i].max_value != 0) << i);
            d->segment |= (uint8_t)((op->operands[i].kind == WK_GPU_OPND_SEGMENT) << i);
        }
        d->has_list = (uint8_t)(op->has_list != 0);
        d->list_count_operand = (uint8_t)op->list_count_operand;
        d->list_element_bytes = (uint8_t)op->list_element_bytes;
        d->max_list_count = op->max_list_count;
    }
    atomic_store_explicit(&decode_ready, 1, memory_order_release);
}

const struct opcode_view *opcode_views(void)
{
    if (!atomic_load_explicit(&decode_ready, memory_order_acquire))
        call_once(&decode_once, decode_build);
    return decode_table;
}

/* Operands with a maximum (BLIT's width and height): checked against the
 * public table, which holds the values. */
int decode_over_limit(const struct wk_gpu_cmd *cmd, uint32_t limited)
{
    const struct wk_gpu_opcode_info *op = &opcode_table[cmd->opcode];
    for (uint32_t i = 0; i < op->operand_count; i++)
        if ((limited >> i & 1) && cmd->operands[i] > op->operands[i].max_value)
            return 1;
    return 0;
}

/* Operand i of the command at p, as the decoder reads it. */
static uint64_t view_operand(const struct opcode_view *op, const uint8_t *p, uint32_t i)
{
    const uint8_t *at = p + op->offset[i];
    return op->wide >> i & 1 ? le64(at) : le32(at);
}

/* From the compact views, as decode_cmd: the public table is read only for
 * the limit that was broken (its entries span several cache lines, and a
 * fuzzer's inputs end on a refused operand all the time). */
void decode_explain(const struct opcode_view *views, const uint8_t *buf, uint64_t len, uint64_t offset,
                    struct wk_gpu_fault_detail *d)
{
    detail_set(d, WK_GPU_RULE_NONE, 0, 0, 0, 0);
    if (offset >= len || len - offset < 4)
        return;
    const uint8_t *p = buf + offset;
    uint32_t header = le32(p);
    if ((header & 0xFF) >= WK_GPU_OP_COUNT)
        return;
    if (header >> 8) {
        detail_set(d, WK_GPU_RULE_HEADER_RESERVED, WK_GPU_DETAIL_NO_OPERAND, header & ~0xFFu, 0, 0);
        return;
    }
    const struct opcode_view *op = &views[header & 0xFF];
    if (len - offset < op->fixed_bytes)
        return;
    for (uint32_t i = 0; i < op->operand_count; i++) {
        uint64_t v = view_operand(op, p, i), max;
        if ((op->limited >> i & 1) && v > (max = opcode_table[header & 0xFF].operands[i].max_value)) {
            detail_set(d, WK_GPU_RULE_OVER_MAXIMUM, i, v, max, 0);
            return;
        }
    }
    uint64_t count = op->has_list ? view_operand(op, p, op->list_count_operand) : 0;
    if (count > op->max_list_count)
        detail_set(d, WK_GPU_RULE_OVER_MAXIMUM, op->list_count_operand, count, op->max_list_count, 0);
}

wk_status wk_gpu_decode(const uint8_t *buf, uint64_t len, uint64_t offset,
                        struct wk_gpu_cmd *cmd)
{
    return decode_cmd(opcode_views(), buf, len, offset, cmd);
}

enum wk_gpu_fault_reason decode_fault_reason(wk_status st)
{
    switch (st) {
    case WK_OK: return WK_GPU_FAULT_NONE;
    case WK_E_TRUNCATED: return WK_GPU_FAULT_TRUNCATED;
    case WK_E_UNKNOWN_OPCODE: return WK_GPU_FAULT_UNKNOWN_OPCODE;
    default: return WK_GPU_FAULT_BAD_OPERAND;
    }
}
