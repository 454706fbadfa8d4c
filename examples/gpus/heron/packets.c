/* SPDX-License-Identifier: MIT */
/*
 * packets.c - Heron's packet format as data, and the one decoder the
 * processor, the disassembler and the tests use.
 *
 * A packet is a run of little-endian dwords (heron_hw.h): the header
 * (opcode in bits 0..7, length in dwords, header included, in bits 8..15,
 * flags in bits 16..31), then the operands. Every length is fixed by the
 * opcode but GART_WRITE's, which carries its frame count. The table below
 * says, per opcode, the length, the flags it takes and where each operand
 * is; the decoder checks a packet against it before anything reads an
 * operand, so a packet that decodes can be read without bounds checks.
 *
 * What the decoder refuses, in this order (the order is the fault a
 * buffer gets): fewer than 4 bytes left, an unknown opcode, length 0 (it
 * would never advance), a length past the buffer's end, a GART_WRITE of
 * more than 64 pages, a length that is not the opcode's, reserved flags, a
 * FILL or COPY over 1 MiB (HERON_MAX_TRANSFER_BYTES). What needs the
 * memory map (a segment id, a frame number) the processor checks.
 */
#include <string.h>

#include "heron_gpu.h"

#define F(name, kind, dword) { name, HERON_FIELD_##kind, dword }

static const struct heron_packet_info heron_packets[] = {
    { HERON_OP_NOP, "NOP", 1, 0, 0, { { 0 } }, 0 },
    { HERON_OP_FILL, "FILL", HERON_FILL_DWORDS, 0, 3,
      { F("dst", ADDRESS, 1), F("bytes", BYTES, 3), F("pattern", PATTERN, 4) }, 0 },
    { HERON_OP_COPY, "COPY", HERON_COPY_DWORDS, 0, 3,
      { F("src", ADDRESS, 1), F("dst", ADDRESS, 3), F("bytes", BYTES, 5) }, 0 },
    { HERON_OP_GART_WRITE, "GART_WRITE", HERON_GART_WRITE_DWORDS(0), 0, 3,
      { F("seg", SEGMENT, 1), F("first", U32, 2), F("count", U32, 3) }, 1 },
    { HERON_OP_GART_CLEAR, "GART_CLEAR", HERON_GART_CLEAR_DWORDS, 0, 4,
      { F("seg", SEGMENT, 1), F("first", U32, 2), F("count", U32, 3), F("dummy_pfn", U64, 4) }, 0 },
    { HERON_OP_GART_INVALIDATE, "GART_INVALIDATE", HERON_GART_INVALIDATE_DWORDS, 0, 1,
      { F("seg", SEGMENT, 1) }, 0 },
    { HERON_OP_FENCE_WRITE, "FENCE_WRITE", HERON_FENCE_WRITE_DWORDS, 0, 2,
      { F("addr", ADDRESS, 1), F("value", U64, 3) }, 0 },
    { HERON_OP_CACHE_FLUSH, "CACHE_FLUSH", HERON_CACHE_FLUSH_DWORDS, HERON_CACHE_FLUSH_WRITE_BACK, 1,
      { F("addr", ADDRESS, 1) }, 0 },
};

#undef F

const struct heron_packet_info *heron_packet_info(uint32_t opcode)
{
    for (size_t i = 0; i < sizeof heron_packets / sizeof heron_packets[0]; i++) {
        if (heron_packets[i].opcode == opcode) {
            return &heron_packets[i];
        }
    }
    return NULL;
}

static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t heron_dword(const struct heron_packet *p, uint32_t index)
{
    return load32(p->bytes + (size_t)index * 4u);
}

uint64_t heron_qword(const struct heron_packet *p, uint32_t index)
{
    return (uint64_t)heron_dword(p, index) | (uint64_t)heron_dword(p, index + 1) << 32;
}

/* The length the opcode needs, given what the packet says (GART_WRITE's
 * count); 0 when the packet is too short to say. */
static uint32_t expected_dwords(const struct heron_packet *p)
{
    if (!p->info->has_frames) {
        return p->info->dwords;
    }
    if (p->dwords < p->info->dwords) {
        return 0;
    }
    uint32_t count = heron_dword(p, 3);
    return count <= HERON_MAX_GART_PAGES_PER_PACKET ? HERON_GART_WRITE_DWORDS(count) : 0;
}

/* The limits one operand has on its own. */
static uint32_t check_fields(const struct heron_packet *p)
{
    for (uint32_t i = 0; i < p->info->field_count; i++) {
        const struct heron_field *f = &p->info->fields[i];
        if (f->kind == HERON_FIELD_BYTES && heron_dword(p, f->dword) > HERON_MAX_TRANSFER_BYTES) {
            return HERON_FAULT_TRANSFER_TOO_LARGE;
        }
    }
    return HERON_FAULT_NONE;
}

uint32_t heron_decode(const uint8_t *buf, uint64_t end, uint64_t offset, struct heron_packet *p)
{
    memset(p, 0, sizeof *p);
    p->opcode = HERON_OPCODE_NONE;
    if (offset >= end || end - offset < 4) {
        return HERON_FAULT_TRUNCATED_HEADER;
    }
    uint64_t left = end - offset;
    uint32_t header = load32(buf + offset);
    p->bytes = buf + offset;
    p->opcode = header & 0xFFu;
    p->dwords = (header >> 8) & 0xFFu;
    p->flags = header >> 16;
    p->info = heron_packet_info(p->opcode);
    if (p->info == NULL) {
        return HERON_FAULT_UNKNOWN_OPCODE;
    }
    if (p->dwords == 0) {
        return HERON_FAULT_ZERO_LENGTH;
    }
    if ((uint64_t)p->dwords * 4u > left) {
        return HERON_FAULT_PAST_END;
    }
    if (p->info->has_frames && p->dwords >= p->info->dwords &&
        heron_dword(p, 3) > HERON_MAX_GART_PAGES_PER_PACKET) {
        return HERON_FAULT_TOO_MANY_PAGES;
    }
    if (p->dwords != expected_dwords(p)) {
        return HERON_FAULT_BAD_LENGTH;
    }
    if ((p->flags & ~p->info->allowed_flags) != 0) {
        return HERON_FAULT_RESERVED_FLAGS;
    }
    return check_fields(p);
}
