/*
 * decode.c - one command from bytes, driven by the opcode table.
 *
 * The input is untrusted (a driver's DMA buffer, a fuzzer's bytes): every
 * length is checked before it is read, with the byte offset of the problem
 * kept for the fault record; nothing here asserts.
 */
#include <string.h>

#include "internal.h"

static uint64_t read_operand(const uint8_t *p, enum wk_gpu_operand_kind kind)
{
    return opcode_operand_width(kind) == 8 ? le64(p) : le32(p);
}

wk_status wk_gpu_decode(const uint8_t *buf, uint64_t len, uint64_t offset,
                        struct wk_gpu_cmd *cmd)
{
    if (offset >= len || len - offset < 4)
        return WK_E_TRUNCATED;
    const uint8_t *p = buf + offset;
    uint64_t avail = len - offset;
    uint32_t header = le32(p);
    if ((header & 0xFF) >= WK_GPU_OP_COUNT)
        return WK_E_UNKNOWN_OPCODE;
    const struct wk_gpu_opcode_info *op = &opcode_table[header & 0xFF];
    if (header >> 8)
        return WK_E_BAD_OPERAND; /* reserved header bits */
    if (avail < op->fixed_bytes)
        return WK_E_TRUNCATED;
    cmd->opcode = op->opcode;
    /* All operands at once: a constant size the compiler writes inline,
     * where clearing only the unused tail was a memset call per command. */
    memset(cmd->operands, 0, sizeof(cmd->operands));
    for (uint32_t i = 0; i < op->operand_count; i++) {
        const struct wk_gpu_operand_info *o = &op->operands[i];
        cmd->operands[i] = read_operand(p + o->byte_offset, o->kind);
        if (o->max_value && cmd->operands[i] > o->max_value)
            return WK_E_BAD_OPERAND;
    }
    cmd->list_count = 0;
    cmd->list = NULL;
    cmd->length = op->fixed_bytes;
    if (op->has_list) {
        uint64_t count = cmd->operands[op->list_count_operand];
        if (count > op->max_list_count)
            return WK_E_BAD_OPERAND;
        uint64_t bytes = count * op->list_element_bytes;
        if (avail - op->fixed_bytes < bytes)
            return WK_E_TRUNCATED;
        cmd->list_count = (uint32_t)count;
        cmd->list = count ? p + op->fixed_bytes : NULL;
        cmd->length = op->fixed_bytes + (uint32_t)bytes;
    }
    return WK_OK;
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
