/* SPDX-License-Identifier: MIT */
/*
 * records.c - OtherGPU's command format as data, and the one decoder the
 * processor, the disassembler and the tests share, so they cannot disagree
 * on where a record ends or what its words mean.
 *
 * Every record is 16 bytes (op, a, b, c; little-endian words,
 * othergpu_hw.h). A record is decoded whole: its 16 bytes against the
 * buffer's end, then its op against the table. Its address operand (words
 * a and b) is decoded here too, but whether the op needs one, and what a
 * missing valid bit means, is the processor's business.
 */
#include "othergpu_gpu.h"

static const struct ogb_record_info og_records[] = {
    { OG_NOP, "NOP", OGB_NONE },
    { OG_SRC, "SRC", OGB_ADDRESS },
    { OG_COPY, "COPY", OGB_ADDRESS_BYTES },
    { OG_PATTERN, "PATTERN", OGB_PATTERN },
    { OG_FILL, "FILL", OGB_ADDRESS_BYTES },
    { OG_MAP_PAGE, "MAP_PAGE", OGB_PAGE },
    { OG_UNMAP_PAGE, "UNMAP_PAGE", OGB_PAGE },
    { OG_GART_FLUSH, "GART_FLUSH", OGB_SEGMENT },
    { OG_FENCE_VALUE, "FENCE_VALUE", OGB_VALUE64 },
    { OG_FENCE, "FENCE", OGB_ADDRESS },
    { OG_CACHE_FLUSH, "CACHE_FLUSH", OGB_ADDRESS },
};

const struct ogb_record_info *ogb_record_info(uint32_t op)
{
    for (size_t i = 0; i < sizeof og_records / sizeof og_records[0]; i++) {
        if (og_records[i].op == op) {
            return &og_records[i];
        }
    }
    return NULL;
}

uint32_t ogb_le32(const uint8_t *at)
{
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

/* Word b's bit 31 says an address is there; bits 0..30 are address bits
 * 32..62. b = 0 is the "no address yet" Render leaves for Patch. */
int ogb_read_encoded_address(const uint8_t *at, uint64_t *address)
{
    uint32_t lo = ogb_le32(at), hi = ogb_le32(at + 4);
    if ((hi & OG_ADDR_VALID) == 0) {
        return 0;
    }
    *address = (uint64_t)(hi & ~OG_ADDR_VALID) << 32 | lo;
    return 1;
}

uint32_t ogb_decode(const uint8_t *buf, uint64_t end, uint64_t offset, struct ogb_record *r)
{
    r->info = NULL;
    r->op = OGB_OPCODE_NONE;
    r->a = r->b = r->c = 0;
    r->has_address = 0;
    r->address = 0;
    if (buf == NULL || offset > end || end - offset < OG_CMD_SIZE) {
        return OGB_FAULT_CUT;
    }
    const uint8_t *at = buf + offset;
    r->op = ogb_le32(at);
    r->a = ogb_le32(at + 4);
    r->b = ogb_le32(at + 8);
    r->c = ogb_le32(at + 12);
    r->has_address = ogb_read_encoded_address(at + OG_ADDR_OFFSET, &r->address);
    r->info = ogb_record_info(r->op);
    return r->info != NULL ? OGB_FAULT_NONE : OGB_FAULT_UNKNOWN_OP;
}
