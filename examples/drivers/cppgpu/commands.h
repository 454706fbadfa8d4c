/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the Lattice packet writer (the format is in hardware.h).
 *
 * A writer is a cursor over a buffer the kernel handed over (a paging or
 * DMA buffer). Callers ask fits() for a whole packet first, so a packet is
 * never split across two buffers and nothing is written past the end: the
 * DDI then asks for a new buffer with STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER
 * (facts §5.1 P3, multipass).
 */
#ifndef CPPGPU_COMMANDS_H
#define CPPGPU_COMMANDS_H

#include "hardware.h"

namespace lattice {

class CommandWriter {
public:
    CommandWriter(VOID *buffer, UINT size) : base_(static_cast<BYTE *>(buffer)), size_(buffer ? size : 0) {}

    bool fits(UINT payload_words) const { return UINT64(used_) + packet_bytes(payload_words) <= size_; }
    bool fits_gart_write(UINT pages) const { return fits(3 + 2 * pages); }
    /* Pages of a GART_WRITE that fit in what is left, at most `wanted`. */
    UINT gart_pages_that_fit(UINT wanted) const;
    UINT used() const { return used_; }
    BYTE *at(UINT offset) const { return base_ + offset; }

    /* Each returns the offset of its packet in the buffer. */
    UINT copy(UINT64 dst, UINT64 src, UINT bytes);
    UINT fill(UINT64 dst, UINT bytes, UINT pattern);
    UINT blit(UINT64 dst, UINT64 src, UINT width, UINT height, UINT dst_pitch, UINT src_pitch);
    UINT gart_write_begin(UINT segment, UINT first_page, UINT pages);
    void gart_write_page(UINT64 bus_address);
    UINT gart_clear(UINT segment, UINT first_page, UINT pages, UINT64 dummy);
    UINT gart_flush(UINT segment);
    UINT fence(UINT64 address, UINT64 value);
    UINT cache(UINT64 address, UINT op);

    /* The 8 bytes of an address operand, wherever they are. */
    static void encode_address(BYTE *at, UINT64 address);

private:
    UINT header(Opcode op, UINT payload_words);
    void word(UINT value);
    void address(UINT64 value);

    BYTE *base_;
    UINT size_;
    UINT used_ = 0;
};

} // namespace lattice

#endif /* CPPGPU_COMMANDS_H */
