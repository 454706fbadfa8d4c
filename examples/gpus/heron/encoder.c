/* SPDX-License-Identifier: MIT */
/*
 * encoder.c - what Heron's UMD would write for the kit's abstract
 * operations (wk_encoder_ops of wddmkit/binding.h).
 *
 * Render: the kit's operations become Heron's UMD stream (heron_umd.h): a
 * HERON_UMD_HEADER and HERON_UMD_COMMANDs, the references copied as they
 * are (an allocation-list index and an offset), so a reference the kit
 * made wrong on purpose reaches the driver wrong, and the driver must
 * refuse it. Heron's Render writes its own patch locations
 * (pPatchLocationListOut), so the UMD hands none in.
 *
 * Heron's stream has FILL, COPY and NOP. The other two operations are
 * lowered as Heron's UMD lowers them, with the same effect on every byte
 * and the same references for the driver to check: a WRITE32 is a FILL of
 * 4 bytes whose pattern is the value (byte i of the destination gets byte
 * i of the value, as WRITE32 stores it); a BLIT is one COPY per row, in
 * row order, src + r * src_pitch to dst + r * dst_pitch (rows that
 * overlap behave as the BLIT's do: each row after the one before). Heron's
 * Render checks the whole stream before it writes anything, so a BLIT
 * with one bad row is refused whole, as a BLIT is.
 *
 * What the stream cannot say is skipped with the reason, never bent into
 * something else: a FILL or COPY of 0 bytes, and a BLIT of width or height
 * 0 (Heron's UMD has none, and a NOP in its place would drop the reference
 * the kit asks the driver to check), one over HERON_MAX_TRANSFER_BYTES
 * (the UMD would split it, which changes what the driver is asked), a
 * stream longer than the room the kit gave.
 *
 * Opaque fields (wk_encode_render.opaque): the header's Reserved word,
 * then each command's, in stream order, take the raw bytes the kit hands
 * in (4 each, little-endian, while they last; 0 after, as Heron's UMD
 * writes them). Heron's Render must refuse a stream with any of them
 * nonzero, and this is how a fuzzer tests that it does.
 *
 * Allocations: Heron's miniport reads the kit's own WK_ALLOCATION_REQUEST
 * as its CreateAllocation private data (objects.c of the driver), so there
 * is no allocation encoder (below).
 */
#include <stdio.h>
#include <string.h>

#include "heron_gpu.h"

#define HERON_ENCODED_OPS                                                                    \
    ((1u << WK_USER_OP_NOP) | (1u << WK_USER_OP_COPY) | (1u << WK_USER_OP_FILL) | (1u << WK_USER_OP_WRITE32) | \
     (1u << WK_USER_OP_BLIT))

static int skip(struct wk_encode_render *r, uint32_t index, const char *why)
{
    r->skipped_op = index;
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

/* The UMD commands one operation becomes: how many (a BLIT: one per row). */
static uint64_t commands_of(const struct wk_encode_op *op)
{
    return op->op == WK_USER_OP_BLIT ? op->height : 1;
}

/* Command `row` of one operation in UMD terms; NULL, or the reason it
 * cannot be said. */
static const char *translate(const struct wk_encode_op *op, uint32_t row, HERON_UMD_COMMAND *c)
{
    memset(c, 0, sizeof *c);
    uint32_t bytes = op->size, dst = op->dst.offset, src = op->src.offset;
    switch (op->op) {
    case WK_USER_OP_NOP:
        c->Opcode = HeronUmdNop;
        return NULL;
    case WK_USER_OP_FILL:
        c->Opcode = HeronUmdFill;
        c->Pattern = op->value;
        break;
    case WK_USER_OP_WRITE32: /* 4 bytes of the value, byte 0 first: a WRITE32's store */
        c->Opcode = HeronUmdFill;
        c->Pattern = op->value;
        bytes = 4;
        break;
    case WK_USER_OP_COPY: c->Opcode = HeronUmdCopy; break;
    case WK_USER_OP_BLIT: /* row `row`; offsets past 4 GiB cannot be said */
        if ((uint64_t)src + (uint64_t)row * op->src_pitch > UINT32_MAX ||
            (uint64_t)dst + (uint64_t)row * op->dst_pitch > UINT32_MAX)
            return "a BLIT row's offset does not fit Heron's 32-bit reference";
        c->Opcode = HeronUmdCopy;
        bytes = op->width;
        src += row * op->src_pitch;
        dst += row * op->dst_pitch;
        break;
    default:
        return "Heron's UMD stream has no such operation";
    }
    if (bytes == 0) {
        return "Heron's UMD stream has no FILL or COPY of 0 bytes";
    }
    if (bytes > HERON_MAX_TRANSFER_BYTES) {
        return "a Heron FILL or COPY moves at most 1 MiB";
    }
    c->Bytes = bytes;
    c->Destination.AllocationIndex = op->dst.list_index;
    c->Destination.Offset = dst;
    if (c->Opcode == HeronUmdCopy) {
        c->Source.AllocationIndex = op->src.list_index;
        c->Source.Offset = src;
    }
    return NULL;
}

/* The command's bytes, little-endian, as heron_umd.h lays them out. */
static void store_command(uint8_t *p, const HERON_UMD_COMMAND *c)
{
    put32(p + 0, c->Opcode);
    put32(p + 4, c->Bytes);
    put32(p + 8, c->Pattern);
    put32(p + 12, c->Reserved);
    put32(p + 16, c->Destination.AllocationIndex);
    put32(p + 20, c->Destination.Offset);
    put32(p + 24, c->Source.AllocationIndex);
    put32(p + 28, c->Source.Offset);
}

/* The index of the first operation whose commands do not fit the room. */
static uint32_t first_past_room(const struct wk_encode_render *r)
{
    uint64_t used = sizeof(HERON_UMD_HEADER);
    uint32_t i = 0;
    if (r->command == NULL || r->command_cap < used) {
        return 0;
    }
    for (; i < r->op_count; i++) {
        used += commands_of(&r->ops[i]) * sizeof(HERON_UMD_COMMAND);
        if (used > r->command_cap) {
            break;
        }
    }
    return i;
}

static int heron_encode_render(void *self, struct wk_encode_render *r)
{
    (void)self;
    r->command_length = 0;
    r->patch_length = 0;
    if (r->op_count != 0 && r->ops == NULL) {
        return skip(r, 0, "no operations given");
    }
    uint64_t count = 0;
    for (uint32_t i = 0; i < r->op_count; i++) {
        if (r->ops[i].op == WK_USER_OP_BLIT && (r->ops[i].height == 0 || r->ops[i].width == 0)) {
            return skip(r, i, "Heron's UMD stream has no COPY of 0 bytes for an empty BLIT");
        }
        count += commands_of(&r->ops[i]);
    }
    uint64_t need = sizeof(HERON_UMD_HEADER) + count * sizeof(HERON_UMD_COMMAND);
    if (r->command == NULL || need > r->command_cap) {
        char why[sizeof r->why];
        snprintf(why, sizeof why, "the stream needs %llu bytes, more than the %u of room for pCommand",
                 (unsigned long long)need, r->command_cap);
        return skip(r, first_past_room(r), why);
    }
    uint8_t *at = r->command + sizeof(HERON_UMD_HEADER);
    r->opaque_used = 0;
    uint32_t header_reserved = take_opaque(r);
    for (uint32_t i = 0; i < r->op_count; i++) {
        for (uint64_t row = 0; row < commands_of(&r->ops[i]); row++) {
            HERON_UMD_COMMAND c;
            const char *why = translate(&r->ops[i], (uint32_t)row, &c);
            if (why != NULL) {
                return skip(r, i, why);
            }
            c.Reserved = take_opaque(r);
            store_command(at, &c);
            at += sizeof c;
        }
    }
    put32(r->command + 0, HERON_UMD_SIGNATURE);
    put32(r->command + 4, HERON_UMD_VERSION);
    put32(r->command + 8, (uint32_t)count);
    put32(r->command + 12, header_reserved);
    r->command_length = (uint32_t)need;
    return WK_ENCODE_OK;
}

const struct wk_encoder_ops heron_encoder = {
    .size = sizeof(struct wk_encoder_ops),
    .ops_supported = HERON_ENCODED_OPS,
    .render = heron_encode_render,
    /* No allocation encoder: Heron's miniport reads the kit's own
     * WK_ALLOCATION_REQUEST as its allocation data, which the kit then
     * hands it as it is and judges by that format's rules (umd.h); a copy
     * made here would have told the kit the format was Heron's own. */
    .allocation = NULL,
};
