/* SPDX-License-Identifier: MIT */
/*
 * commands.c - OtherGPU's command encoder: 16-byte records into a buffer
 * the kernel handed over (the format is in othergpu.h).
 *
 * Callers ask og_room() for a whole group of records first and write it
 * only when it fits, so a group is never split across buffers and nothing
 * is written past the buffer's size.
 */
#include "othergpu.h"

static void put_le32(BYTE *at, UINT value)
{
    for (UINT i = 0; i < 4; i++)
        at[i] = (BYTE)(value >> (8 * i));
}

void og_writer_init(struct og_writer *w, VOID *buffer, UINT size)
{
    w->base = buffer;
    w->size = buffer ? size : 0;
    w->used = 0;
}

BOOLEAN og_room(const struct og_writer *w, UINT commands)
{
    return (UINT64)w->used + (UINT64)commands * OG_CMD_SIZE <= w->size;
}

/* The caller checked og_room(). */
void og_emit(struct og_writer *w, UINT op, UINT a, UINT b, UINT c)
{
    BYTE *at = w->base + w->used;
    put_le32(at, op);
    put_le32(at + 4, a);
    put_le32(at + 8, b);
    put_le32(at + 12, c);
    w->used += OG_CMD_SIZE;
}

/* Words a and b of an address operand (othergpu.h): low 32 bits, then
 * bits 32..62 with the valid bit. */
void og_encode_addr(BYTE *at, UINT64 address)
{
    put_le32(at, (UINT)address);
    put_le32(at + 4, (UINT)(address >> 32) | OG_ADDR_VALID);
}

void og_emit_addr(struct og_writer *w, UINT op, UINT64 address, UINT c)
{
    BYTE *at = w->base + w->used;
    og_emit(w, op, 0, 0, c);
    og_encode_addr(at + OG_ADDR_OFFSET, address);
}
