/* SPDX-License-Identifier: MIT */
/*
 * commands.cpp - the Lattice packet writer: header, payload words and
 * 64-bit addresses, little-endian whatever the host (hardware.h).
 */
#include "commands.h"

namespace lattice {

static void put_le32(BYTE *at, UINT value)
{
    for (UINT i = 0; i < 4; i++)
        at[i] = static_cast<BYTE>(value >> (8 * i));
}

void CommandWriter::encode_address(BYTE *at, UINT64 address)
{
    put_le32(at, static_cast<UINT>(address));
    put_le32(at + WORD, static_cast<UINT>(address >> 32));
}

UINT CommandWriter::gart_pages_that_fit(UINT wanted) const
{
    if (!fits(3 + 2))
        return 0;
    const UINT64 room_words = (size_ - used_) / WORD - 4; /* header + 3 words */
    const UINT64 pages = room_words / 2;
    return pages < wanted ? static_cast<UINT>(pages) : wanted;
}

void CommandWriter::word(UINT value)
{
    put_le32(base_ + used_, value);
    used_ += WORD;
}

void CommandWriter::address(UINT64 value)
{
    encode_address(base_ + used_, value);
    used_ += 2 * WORD;
}

UINT CommandWriter::header(Opcode op, UINT payload_words)
{
    const UINT offset = used_;
    word(HEADER_TAG | payload_words << 8 | op);
    return offset;
}

UINT CommandWriter::copy(UINT64 dst, UINT64 src, UINT bytes)
{
    const UINT offset = header(OP_COPY, COPY_WORDS);
    address(dst);
    address(src);
    word(bytes);
    return offset;
}

UINT CommandWriter::fill(UINT64 dst, UINT bytes, UINT pattern)
{
    const UINT offset = header(OP_FILL, FILL_WORDS);
    address(dst);
    word(bytes);
    word(pattern);
    return offset;
}

UINT CommandWriter::blit(UINT64 dst, UINT64 src, UINT width, UINT height, UINT dst_pitch, UINT src_pitch)
{
    const UINT offset = header(OP_BLIT, BLIT_WORDS);
    address(dst);
    address(src);
    word(width);
    word(height);
    word(dst_pitch);
    word(src_pitch);
    return offset;
}

UINT CommandWriter::gart_write_begin(UINT segment, UINT first_page, UINT pages)
{
    const UINT offset = header(OP_GART_WRITE, 3 + 2 * pages);
    word(segment);
    word(first_page);
    word(pages);
    return offset;
}

void CommandWriter::gart_write_page(UINT64 bus_address)
{
    address(bus_address);
}

UINT CommandWriter::gart_clear(UINT segment, UINT first_page, UINT pages, UINT64 dummy)
{
    const UINT offset = header(OP_GART_CLEAR, GART_CLEAR_WORDS);
    word(segment);
    word(first_page);
    word(pages);
    address(dummy);
    return offset;
}

UINT CommandWriter::gart_flush(UINT segment)
{
    const UINT offset = header(OP_GART_FLUSH, GART_FLUSH_WORDS);
    word(segment);
    return offset;
}

UINT CommandWriter::fence(UINT64 address_value, UINT64 value)
{
    const UINT offset = header(OP_FENCE, FENCE_WORDS);
    address(address_value);
    address(value);
    return offset;
}

UINT CommandWriter::cache(UINT64 address_value, UINT op)
{
    const UINT offset = header(OP_CACHE, CACHE_WORDS);
    address(address_value);
    word(op);
    return offset;
}

} // namespace lattice
