/* SPDX-License-Identifier: MIT */
/*
 * othergpu_umd.h - OtherGPU's user-mode render format: the bytes its UMD
 * hands DxgkDdiRender in pCommand (render.c turns them into OtherGPU
 * commands). Both sides compile it: the miniport, and the binding's
 * encoder (examples/gpus/othergpu/), which writes this format for the
 * kit's abstract render operations. So it stands on its own: <stdint.h>
 * types, no kernel header. Little-endian; every field is untrusted on the
 * kernel side.
 *
 *     struct og_umd_header { magic = OG_UMD_MAGIC; count; }  then count x
 *     struct og_umd_record { op, size, value, reserved;
 *                            dst_index, dst_offset, src_index, src_offset; }
 *
 * op FILL fills `size` bytes at dst with `value` (byte 0 first); op COPY
 * copies `size` bytes from src to dst; op NOP does nothing. An index names
 * an entry of the allocation list, an offset a byte of that allocation.
 * A FILL or COPY moves at least 1 byte; reserved is 0; nothing follows the
 * records. The kit's own user commands (wddmkit/umd.h) are not this
 * format: their magic is not OG_UMD_MAGIC.
 */
#ifndef OTHERGPU_UMD_H
#define OTHERGPU_UMD_H

#include <stdint.h>

#define OG_UMD_MAGIC 0x4D55474Fu /* 'OGUM' */
#define OG_UMD_NOP 0u
#define OG_UMD_FILL 1u
#define OG_UMD_COPY 2u

struct og_umd_header {
    uint32_t magic;
    uint32_t count;
};

struct og_umd_record {
    uint32_t op, size, value, reserved;
    uint32_t dst_index, dst_offset, src_index, src_offset;
};

_Static_assert(sizeof(struct og_umd_header) == 8, "OtherGPU UMD header");
_Static_assert(sizeof(struct og_umd_record) == 32, "OtherGPU UMD record");

#endif /* OTHERGPU_UMD_H */
