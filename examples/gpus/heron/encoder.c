/* SPDX-License-Identifier: MIT */
/*
 * encoder.c - what Heron's UMD would write for the kit's abstract
 * operations (wk_encoder_ops of wddmkit/binding.h).
 *
 * Render: the kit's COPY, FILL and NOP become Heron's UMD stream
 * (heron_umd.h): a HERON_UMD_HEADER and one HERON_UMD_COMMAND each, the
 * references copied as they are (an allocation-list index and an offset),
 * so a reference the kit made wrong on purpose reaches the driver wrong,
 * and the driver must refuse it. Heron's Render writes its own patch
 * locations (pPatchLocationListOut), so the UMD hands none in.
 *
 * What the stream cannot say is skipped with the reason, never bent into
 * something else: WRITE32 and BLIT (not in ops_supported: the kit skips
 * them without a call), a FILL or COPY of 0 bytes (Heron's UMD has none,
 * and a NOP in its place would drop the reference the kit asks the driver
 * to check), one over HERON_MAX_TRANSFER_BYTES (the UMD would split it,
 * which changes what the driver is asked), a stream longer than the room
 * the kit gave.
 *
 * Allocations: Heron's miniport reads the kit's own WK_ALLOCATION_REQUEST
 * as its CreateAllocation private data (objects.c of the driver), so the
 * encoder copies the request as it is.
 */
#include <stdio.h>
#include <string.h>

#include "heron_gpu.h"

#define HERON_ENCODED_OPS ((1u << WK_USER_OP_NOP) | (1u << WK_USER_OP_COPY) | (1u << WK_USER_OP_FILL))

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

/* One command in UMD terms; 0, or the reason it cannot be said. */
static const char *translate(const struct wk_encode_op *op, HERON_UMD_COMMAND *c)
{
    memset(c, 0, sizeof *c);
    switch (op->op) {
    case WK_USER_OP_NOP:
        c->Opcode = HeronUmdNop;
        return NULL;
    case WK_USER_OP_FILL:
        c->Opcode = HeronUmdFill;
        c->Pattern = op->value;
        break;
    case WK_USER_OP_COPY:
        c->Opcode = HeronUmdCopy;
        c->Source.AllocationIndex = op->src.list_index;
        c->Source.Offset = op->src.offset;
        break;
    default:
        return "Heron's UMD stream has FILL, COPY and NOP only";
    }
    if (op->size == 0) {
        return "Heron's UMD stream has no FILL or COPY of 0 bytes";
    }
    if (op->size > HERON_MAX_TRANSFER_BYTES) {
        return "a Heron FILL or COPY moves at most 1 MiB";
    }
    c->Bytes = op->size;
    c->Destination.AllocationIndex = op->dst.list_index;
    c->Destination.Offset = op->dst.offset;
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

static int heron_encode_render(void *self, struct wk_encode_render *r)
{
    (void)self;
    r->command_length = 0;
    r->patch_length = 0;
    if (r->op_count != 0 && r->ops == NULL) {
        return skip(r, 0, "no operations given");
    }
    uint64_t need = sizeof(HERON_UMD_HEADER) + (uint64_t)r->op_count * sizeof(HERON_UMD_COMMAND);
    if (r->command == NULL || need > r->command_cap) {
        uint32_t fits = r->command != NULL && r->command_cap >= sizeof(HERON_UMD_HEADER)
                            ? (uint32_t)((r->command_cap - sizeof(HERON_UMD_HEADER)) / sizeof(HERON_UMD_COMMAND))
                            : 0;
        return skip(r, fits, "the stream is longer than the room for pCommand");
    }
    for (uint32_t i = 0; i < r->op_count; i++) {
        HERON_UMD_COMMAND c;
        const char *why = translate(&r->ops[i], &c);
        if (why != NULL) {
            return skip(r, i, why);
        }
        store_command(r->command + sizeof(HERON_UMD_HEADER) + (size_t)i * sizeof c, &c);
    }
    put32(r->command + 0, HERON_UMD_SIGNATURE);
    put32(r->command + 4, HERON_UMD_VERSION);
    put32(r->command + 8, r->op_count);
    put32(r->command + 12, 0);
    r->command_length = (uint32_t)need;
    return WK_ENCODE_OK;
}

static int heron_encode_allocation(void *self, struct wk_encode_allocation *a)
{
    (void)self;
    a->private_size = 0;
    if (a->request == NULL || a->private_data == NULL || a->private_cap < sizeof(WK_ALLOCATION_REQUEST)) {
        snprintf(a->why, sizeof a->why, "no room for the %zu-byte allocation request",
                 sizeof(WK_ALLOCATION_REQUEST));
        return WK_ENCODE_SKIP;
    }
    memcpy(a->private_data, a->request, sizeof(WK_ALLOCATION_REQUEST));
    a->private_size = sizeof(WK_ALLOCATION_REQUEST);
    return WK_ENCODE_OK;
}

const struct wk_encoder_ops heron_encoder = {
    .size = sizeof(struct wk_encoder_ops),
    .ops_supported = HERON_ENCODED_OPS,
    .render = heron_encode_render,
    .allocation = heron_encode_allocation,
};
