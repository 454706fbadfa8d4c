/* SPDX-License-Identifier: MIT */
/*
 * opcodes.c - the command table: the single source of every command's
 * length, operand order, operand kinds and byte offsets.
 *
 * Decoder, encoder, validator and disassembler are all loops over this
 * table (the etnaviv/freedreno lesson: formats as data, code derived from
 * them). docs/gpu-model.md reproduces it for humans; tests/test_gpu_codec.c
 * checks the two agree.
 */
#include "internal.h"

/* A name in its padded array (internal.h): a file-scope compound literal,
 * so static like a string literal. */
#define NAME(s) ((const struct opcode_name){ s }).text

/* Addresses and frame numbers print in hex, like values and patterns. */
#define HEX_KIND(k) (WK_GPU_OPND_##k == WK_GPU_OPND_ADDR || WK_GPU_OPND_##k == WK_GPU_OPND_PFN)
#define OP(off, nm, k) { NAME(nm), WK_GPU_OPND_##k, off, 0, HEX_KIND(k) }
#define OPHEX(off, nm, k) { NAME(nm), WK_GPU_OPND_##k, off, 0, 1 }
#define OPMAX(off, nm, k, max) { NAME(nm), WK_GPU_OPND_##k, off, max, 0 }

const struct wk_gpu_opcode_info opcode_table[WK_GPU_OP_COUNT] = {
    [WK_GPU_OP_NOP] = { WK_GPU_OP_NOP, NAME("NOP"), 4, 0, {{0}}, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_COPY] = { WK_GPU_OP_COPY, NAME("COPY"), 28, 3,
        { OP(4, "src", ADDR), OP(12, "dst", ADDR), OP(20, "bytes", U64) }, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_FILL] = { WK_GPU_OP_FILL, NAME("FILL"), 24, 3,
        { OP(4, "dst", ADDR), OP(12, "bytes", U64), OPHEX(20, "pattern", U32) }, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_WRITE32] = { WK_GPU_OP_WRITE32, NAME("WRITE32"), 16, 2,
        { OP(4, "addr", ADDR), OPHEX(12, "value", U32) }, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_WRITE64] = { WK_GPU_OP_WRITE64, NAME("WRITE64"), 20, 2,
        { OP(4, "addr", ADDR), OPHEX(12, "value", U64) }, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_FENCE] = { WK_GPU_OP_FENCE, NAME("FENCE"), 20, 2,
        { OP(4, "addr", ADDR), OPHEX(12, "value", U64) }, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_GART_MAP] = { WK_GPU_OP_GART_MAP, NAME("GART_MAP"), 16, 3,
        { OP(4, "segment", SEGMENT), OP(8, "first_page", U32), OP(12, "count", COUNT) },
        1, 2, WK_GPU_OPND_PFN, 8, 1u << 20 },
    [WK_GPU_OP_GART_UNMAP] = { WK_GPU_OP_GART_UNMAP, NAME("GART_UNMAP"), 24, 4,
        { OP(4, "segment", SEGMENT), OP(8, "first_page", U32), OP(12, "count", U32),
          OP(16, "dummy_pfn", PFN) }, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_TLB_FLUSH] = { WK_GPU_OP_TLB_FLUSH, NAME("TLB_FLUSH"), 8, 1,
        { OP(4, "segment", SEGMENT) }, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_CALL] = { WK_GPU_OP_CALL, NAME("CALL"), 16, 2,
        { OP(4, "addr", ADDR), OP(12, "bytes", U32) }, 0, 0, 0, 0, 0 },
    [WK_GPU_OP_BLIT] = { WK_GPU_OP_BLIT, NAME("BLIT"), 36, 6,
        { OP(4, "src", ADDR), OP(12, "dst", ADDR), OPMAX(20, "width", U32, 1u << 20), OPMAX(24, "height", U32, 16384),
          OP(28, "src_pitch", U32), OP(32, "dst_pitch", U32) }, 0, 0, 0, 0, 0 },
    /* The root is a GPU physical address but no ADDR: it is compared, never
     * accessed, and no patch location fills it. */
    [WK_GPU_OP_VA_FLUSH] = { WK_GPU_OP_VA_FLUSH, NAME("VA_FLUSH"), 28, 3,
        { OPHEX(4, "root", U64), OPHEX(12, "start", U64), OPHEX(20, "end", U64) }, 0, 0, 0, 0, 0 },
};

const struct wk_gpu_opcode_info *wk_gpu_opcode_info(uint32_t opcode)
{
    return opcode < WK_GPU_OP_COUNT ? &opcode_table[opcode] : NULL;
}

uint32_t wk_gpu_cmd_size(enum wk_gpu_opcode opcode, uint32_t list_count)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info((uint32_t)opcode);
    if (!op)
        return 0;
    if (!op->has_list)
        return list_count ? 0 : op->fixed_bytes;
    if (list_count > op->max_list_count)
        return 0;
    return op->fixed_bytes + list_count * op->list_element_bytes;
}

uint32_t wk_gpu_operand_offset(enum wk_gpu_opcode opcode, uint32_t index)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info((uint32_t)opcode);
    if (!op || index >= op->operand_count)
        return UINT32_MAX;
    return op->operands[index].byte_offset;
}

static uint32_t push(struct extent *out, uint32_t n, uint64_t addr, uint64_t len)
{
    if (len) {
        out[n].addr = addr;
        out[n].len = len;
        n++;
    }
    return n;
}

uint32_t opcode_extents(const struct wk_gpu_cmd *c, struct extent out[2])
{
    const uint64_t *o = c->operands;
    switch (c->opcode) {
    case WK_GPU_OP_COPY:
        return push(out, push(out, 0, o[0], o[2]), o[1], o[2]);
    case WK_GPU_OP_FILL:
        return push(out, 0, o[0], o[1]);
    case WK_GPU_OP_WRITE32:
        return push(out, 0, o[0], 4);
    case WK_GPU_OP_WRITE64:
    case WK_GPU_OP_FENCE:
        return push(out, 0, o[0], 8);
    case WK_GPU_OP_CALL:
        return push(out, 0, o[0], o[1]);
    case WK_GPU_OP_BLIT:
        if (!o[2] || !o[3])
            return 0;
        return push(out, push(out, 0, o[0], (o[3] - 1) * o[4] + o[2]), o[1], (o[3] - 1) * o[5] + o[2]);
    default:
        return 0;
    }
}
