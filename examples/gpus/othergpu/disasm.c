/* SPDX-License-Identifier: MIT */
/*
 * disasm.c - one line per OtherGPU record, for reports, `repro` and
 * `wddmkit gpu disasm --binding` (wk_disasm_ops of wddmkit/binding.h):
 *
 *     0x0000: PATTERN 0xdeadbeef
 *     0x0010: FILL dst=0x1000001000 bytes=4096
 *     0x0020: MAP_PAGE seg=2 page=7 frame=0x300012000
 *     0x0030: <DECODE: unknown op 0x1f, 16 bytes left>
 *
 * An address operand without its valid bit prints as "<unpatched>". It
 * uses the decoder the processor uses (records.c), so the two agree on
 * every record boundary; it needs no adapter (self may be NULL), so it
 * checks nothing that needs the memory map.
 */
#include <inttypes.h>
#include <stdio.h>

#include "othergpu_gpu.h"

static void format_address(const struct ogb_record *rec, char *buf, size_t size)
{
    if (rec->has_address) {
        snprintf(buf, size, "0x%" PRIx64, rec->address);
    } else {
        snprintf(buf, size, "<unpatched>");
    }
}

static void format_record(const struct ogb_record *rec, uint64_t offset, char *line, size_t size)
{
    char addr[32];
    const char *name = rec->info->mnemonic;
    format_address(rec, addr, sizeof addr);
    switch (rec->info->operands) {
    case OGB_NONE:
        snprintf(line, size, "0x%04" PRIx64 ": %s", offset, name);
        break;
    case OGB_ADDRESS:
        if (rec->op == OG_CACHE_FLUSH) {
            snprintf(line, size, "0x%04" PRIx64 ": %s addr=%s %s", offset, name, addr,
                     rec->c == 1 ? "writeback" : rec->c == 0 ? "invalidate" : "mode=?");
        } else {
            snprintf(line, size, "0x%04" PRIx64 ": %s addr=%s", offset, name, addr);
        }
        break;
    case OGB_ADDRESS_BYTES:
        snprintf(line, size, "0x%04" PRIx64 ": %s dst=%s bytes=%" PRIu32, offset, name, addr, rec->c);
        break;
    case OGB_PATTERN:
        snprintf(line, size, "0x%04" PRIx64 ": %s 0x%08" PRIx32, offset, name, rec->a);
        break;
    case OGB_PAGE:
        snprintf(line, size, "0x%04" PRIx64 ": %s seg=%" PRIu32 " page=%" PRIu32 " %s=%s", offset, name,
                 rec->c >> OG_SEGMENT_SHIFT, rec->c & OG_PAGE_MASK, rec->op == OG_MAP_PAGE ? "frame" : "dummy",
                 addr);
        break;
    case OGB_SEGMENT:
        snprintf(line, size, "0x%04" PRIx64 ": %s seg=%" PRIu32, offset, name, rec->c);
        break;
    case OGB_VALUE64:
        snprintf(line, size, "0x%04" PRIx64 ": %s 0x%" PRIx64, offset, name, (uint64_t)rec->b << 32 | rec->a);
        break;
    }
}

static uint64_t og_list(void *self, const uint8_t *buf, uint64_t len, uint64_t start, wk_binding_line_fn *sink,
                        void *user)
{
    char line[160];
    uint64_t offset = start, listed = 0;

    (void)self;
    if (sink == NULL) {
        return 0;
    }
    while (offset < len) {
        struct ogb_record rec;
        uint32_t code = ogb_decode(buf, len, offset, &rec);
        if (code == OGB_FAULT_CUT) {
            snprintf(line, sizeof line, "0x%04" PRIx64 ": <DECODE: %" PRIu64 " bytes left, a record is 16>", offset,
                     buf == NULL ? 0 : len - offset);
            sink(user, line);
            return listed;
        }
        if (code == OGB_FAULT_UNKNOWN_OP) {
            snprintf(line, sizeof line, "0x%04" PRIx64 ": <DECODE: unknown op 0x%" PRIx32 ", %" PRIu64 " bytes left>",
                     offset, rec.op, len - offset);
            sink(user, line);
            return listed;
        }
        format_record(&rec, offset, line, sizeof line);
        sink(user, line);
        listed++;
        offset += OG_CMD_SIZE;
    }
    return listed;
}

const struct wk_disasm_ops og_disasm = {
    .size = sizeof(struct wk_disasm_ops),
    .list = og_list,
};
