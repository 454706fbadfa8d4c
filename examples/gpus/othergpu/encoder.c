/* SPDX-License-Identifier: MIT */
/*
 * encoder.c - what OtherGPU's UMD would write for the kit's abstract
 * operations (wk_encoder_ops of wddmkit/binding.h).
 *
 * Render: the kit's operations become OtherGPU's render format
 * (examples/drivers/othergpu/othergpu_umd.h): a header and 32-byte
 * records, the references copied as they are (an allocation-list index and
 * an offset), so a reference the kit made wrong on purpose reaches the
 * driver wrong, and the driver must refuse it. OtherGPU's Render writes
 * its own patch locations (pPatchLocationListOut), so the UMD hands none
 * in.
 *
 * The format has FILL, COPY and NOP. The other two operations are lowered
 * with the same effect on every byte and the same references for the
 * driver to check: a WRITE32 is a FILL of 4 bytes whose pattern is the
 * value (byte i of the destination gets byte i of the value, as WRITE32
 * stores it); a BLIT is one COPY per row, in row order, src + r *
 * src_pitch to dst + r * dst_pitch (rows that overlap behave as the
 * BLIT's do: each row after the one before). OtherGPU's Render checks the
 * whole buffer before it writes anything, so a BLIT with one bad row is
 * refused whole, as a BLIT is.
 *
 * What the format cannot say is skipped with the reason, never bent into
 * something else: a FILL or COPY of 0 bytes and a BLIT of width or height
 * 0 (OtherGPU's Render refuses size 0, and a NOP in its place would drop
 * the reference the kit asks the driver to check), a BLIT row whose
 * offset does not fit 32 bits, a buffer longer than the room the kit gave.
 *
 * Opaque fields (wk_encode_render.opaque): the fields of a record that no
 * abstract operation sets. othergpu_umd.h gives each record a `reserved`
 * word ("reserved is 0": the driver must refuse any other value), and
 * each op reads only some of the operand words, the rest meaning nothing
 * to it (the header says nothing of their value). In record order, each
 * record's opaque fields are:
 *
 *     every record   reserved, first;
 *     then  FILL     src_index, src_offset (a lowered WRITE32 too);
 *           COPY     value (a BLIT's row too);
 *           NOP      size, value, dst_index, dst_offset, src_index, src_offset.
 *
 * Each takes the next 4 of the kit's raw bytes, byte 0 first; once the
 * bytes run out, a field takes what is left (the rest 0) and then 0, as
 * OtherGPU's UMD writes them. No field of the header is opaque: magic and
 * count are both said by the operations. opaque_used is how many bytes
 * the records took (0 on a skip: nothing was encoded). With no bytes (the
 * conformance cases), every opaque field is 0, as before.
 *
 * Allocations: OtherGPU's miniport reads the kit's own
 * WK_ALLOCATION_REQUEST as its CreateAllocation private data (objects.c of
 * the driver), so there is no allocation encoder (below).
 */
#include <stdio.h>
#include <string.h>

#include "othergpu_gpu.h"

#define OG_ENCODED_OPS                                                                                        \
    ((1u << WK_USER_OP_NOP) | (1u << WK_USER_OP_COPY) | (1u << WK_USER_OP_FILL) | (1u << WK_USER_OP_WRITE32) | \
     (1u << WK_USER_OP_BLIT))

static int skip(struct wk_encode_render *r, uint32_t index, const char *why)
{
    r->skipped_op = index;
    r->command_length = 0;
    r->patch_length = 0;
    r->opaque_used = 0;
    snprintf(r->why, sizeof r->why, "%s", why);
    return WK_ENCODE_SKIP;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* The next opaque field's value: 4 of the kit's raw bytes, byte 0 first,
 * fewer (the rest 0) or none when they run out. */
static uint32_t take_opaque(struct wk_encode_render *r)
{
    uint32_t value = 0;
    for (int i = 0; i < 4 && r->opaque != NULL && r->opaque_used < r->opaque_length; i++) {
        value |= (uint32_t)r->opaque[r->opaque_used++] << (8 * i);
    }
    return value;
}

/* Fill the record's opaque fields, in the order the header comment gives. */
static void fill_opaque(struct wk_encode_render *r, struct og_umd_record *rec)
{
    rec->reserved = take_opaque(r);
    switch (rec->op) {
    case OG_UMD_FILL:
        rec->src_index = take_opaque(r);
        rec->src_offset = take_opaque(r);
        break;
    case OG_UMD_COPY:
        rec->value = take_opaque(r);
        break;
    default: /* NOP: only op is said */
        rec->size = take_opaque(r);
        rec->value = take_opaque(r);
        rec->dst_index = take_opaque(r);
        rec->dst_offset = take_opaque(r);
        rec->src_index = take_opaque(r);
        rec->src_offset = take_opaque(r);
        break;
    }
}

/* The UMD records one operation becomes (a BLIT: one per row). */
static uint64_t records_of(const struct wk_encode_op *op)
{
    return op->op == WK_USER_OP_BLIT ? op->height : 1;
}

/* Record `row` of one operation; NULL, or why it cannot be said. */
static const char *translate(const struct wk_encode_op *op, uint32_t row, struct og_umd_record *rec)
{
    memset(rec, 0, sizeof *rec);
    uint32_t bytes = op->size, dst = op->dst.offset, src = op->src.offset;
    switch (op->op) {
    case WK_USER_OP_NOP:
        rec->op = OG_UMD_NOP;
        return NULL;
    case WK_USER_OP_FILL:
        rec->op = OG_UMD_FILL;
        rec->value = op->value;
        break;
    case WK_USER_OP_WRITE32: /* 4 bytes of the value, byte 0 first: a WRITE32's store */
        rec->op = OG_UMD_FILL;
        rec->value = op->value;
        bytes = 4;
        break;
    case WK_USER_OP_COPY:
        rec->op = OG_UMD_COPY;
        break;
    case WK_USER_OP_BLIT:
        if ((uint64_t)src + (uint64_t)row * op->src_pitch > UINT32_MAX ||
            (uint64_t)dst + (uint64_t)row * op->dst_pitch > UINT32_MAX) {
            return "a BLIT row's offset does not fit OtherGPU's 32-bit reference";
        }
        rec->op = OG_UMD_COPY;
        bytes = op->width;
        src += row * op->src_pitch;
        dst += row * op->dst_pitch;
        break;
    default:
        return "OtherGPU's UMD format has no such operation";
    }
    if (bytes == 0) {
        return "OtherGPU's UMD format has no FILL or COPY of 0 bytes (its Render refuses size 0)";
    }
    rec->size = bytes;
    rec->dst_index = op->dst.list_index;
    rec->dst_offset = dst;
    if (rec->op == OG_UMD_COPY) {
        rec->src_index = op->src.list_index;
        rec->src_offset = src;
    }
    return NULL;
}

static void store_record(uint8_t *p, const struct og_umd_record *rec)
{
    put32(p + 0, rec->op);
    put32(p + 4, rec->size);
    put32(p + 8, rec->value);
    put32(p + 12, rec->reserved);
    put32(p + 16, rec->dst_index);
    put32(p + 20, rec->dst_offset);
    put32(p + 24, rec->src_index);
    put32(p + 28, rec->src_offset);
}

/* The index of the first operation whose records do not fit the room. */
static uint32_t first_past_room(const struct wk_encode_render *r)
{
    uint64_t used = sizeof(struct og_umd_header);
    uint32_t i = 0;
    if (r->command == NULL || r->command_cap < used) {
        return 0;
    }
    for (; i < r->op_count; i++) {
        used += records_of(&r->ops[i]) * sizeof(struct og_umd_record);
        if (used > r->command_cap) {
            break;
        }
    }
    return i;
}

static int og_encode_render(void *self, struct wk_encode_render *r)
{
    (void)self;
    r->command_length = 0;
    r->patch_length = 0;
    r->opaque_used = 0;
    if (r->op_count != 0 && r->ops == NULL) {
        return skip(r, 0, "no operations given");
    }
    uint64_t count = 0;
    for (uint32_t i = 0; i < r->op_count; i++) {
        if (r->ops[i].op == WK_USER_OP_BLIT && (r->ops[i].height == 0 || r->ops[i].width == 0)) {
            return skip(r, i, "OtherGPU's UMD format has no COPY of 0 bytes for an empty BLIT");
        }
        count += records_of(&r->ops[i]);
    }
    uint64_t need = sizeof(struct og_umd_header) + count * sizeof(struct og_umd_record);
    if (r->command == NULL || need > r->command_cap) {
        return skip(r, first_past_room(r), "the buffer is longer than the room for pCommand");
    }
    uint8_t *at = r->command + sizeof(struct og_umd_header);
    for (uint32_t i = 0; i < r->op_count; i++) {
        for (uint64_t row = 0; row < records_of(&r->ops[i]); row++) {
            struct og_umd_record rec;
            const char *why = translate(&r->ops[i], (uint32_t)row, &rec);
            if (why != NULL) {
                return skip(r, i, why);
            }
            fill_opaque(r, &rec);
            store_record(at, &rec);
            at += sizeof rec;
        }
    }
    put32(r->command + 0, OG_UMD_MAGIC);
    put32(r->command + 4, (uint32_t)count);
    r->command_length = (uint32_t)need;
    return WK_ENCODE_OK;
}

const struct wk_encoder_ops og_encoder = {
    .size = sizeof(struct wk_encoder_ops),
    .ops_supported = OG_ENCODED_OPS,
    .render = og_encode_render,
    /* No allocation encoder: the miniport reads the kit's own
     * WK_ALLOCATION_REQUEST, which the kit then hands it as it is and
     * judges by that format's rules (umd.h). */
    .allocation = NULL,
};
