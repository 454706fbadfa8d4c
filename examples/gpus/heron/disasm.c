/* SPDX-License-Identifier: MIT */
/*
 * disasm.c - Heron's buffers as text (wk_disasm_ops of wddmkit/binding.h),
 * for failure reports, `repro` and `wddmkit gpu disasm --binding`:
 *
 *   0x0000: FILL dst=0x100000000 bytes=4096 pattern=0xdeadbeef
 *   0x0014: GART_WRITE seg=3 first=0 count=2 pfns=0x300000,0x300001
 *   0x0028: <DECODE: unknown opcode 0x1f, 12 bytes left>
 *
 * One line per packet, from the packet table (packets.c), so it can never
 * disagree with the processor on where a packet ends; the first packet
 * that does not decode ends the listing with a line saying why. Checks
 * that need the memory map (a segment is an aperture) are the processor's
 * and are not made here: a listing needs no adapter.
 */
#include <stdarg.h>
#include <stdio.h>

#include "heron_gpu.h"

#define HERON_LINE_MAX 640u
#define HERON_FRAMES_SHOWN 8u   /* a GART_WRITE lists its first frames, then how many more */

/* A line being written: appends stop at its end (a cut line, never an
 * overrun). */
struct line {
    char text[HERON_LINE_MAX];
    size_t used;
};

__attribute__((format(printf, 2, 3))) static void appendf(struct line *l, const char *fmt, ...)
{
    va_list args;
    if (l->used + 1 >= sizeof l->text) {
        return;
    }
    va_start(args, fmt);
    int n = vsnprintf(l->text + l->used, sizeof l->text - l->used, fmt, args);
    va_end(args);
    if (n > 0) {
        size_t room = sizeof l->text - l->used - 1;
        l->used += (size_t)n < room ? (size_t)n : room;
    }
}

static void append_field(struct line *l, const struct heron_packet *p, const struct heron_field *f)
{
    switch (f->kind) {
    case HERON_FIELD_PATTERN:
        appendf(l, " %s=0x%08x", f->name, heron_dword(p, f->dword));
        break;
    case HERON_FIELD_ADDRESS:
    case HERON_FIELD_U64:
        appendf(l, " %s=0x%llx", f->name, (unsigned long long)heron_qword(p, f->dword));
        break;
    default:
        appendf(l, " %s=%u", f->name, heron_dword(p, f->dword));
        break;
    }
}

static void append_frames(struct line *l, const struct heron_packet *p)
{
    uint32_t count = heron_dword(p, 3);
    for (uint32_t i = 0; i < count && i < HERON_FRAMES_SHOWN; i++) {
        appendf(l, "%s0x%llx", i == 0 ? " pfns=" : ",", (unsigned long long)heron_qword(p, 4 + 2 * i));
    }
    if (count > HERON_FRAMES_SHOWN) {
        appendf(l, " (+%u more)", count - HERON_FRAMES_SHOWN);
    }
}

static void list_packet(struct line *l, const struct heron_packet *p)
{
    appendf(l, "%s", p->info->mnemonic);
    for (uint32_t i = 0; i < p->info->field_count; i++) {
        append_field(l, p, &p->info->fields[i]);
    }
    if (p->info->has_frames) {
        append_frames(l, p);
    }
    if (p->flags & HERON_CACHE_FLUSH_WRITE_BACK) {
        appendf(l, " writeback");
    }
}

/* "<DECODE: unknown opcode 0x1f, 12 bytes left>" */
static void list_fault(struct line *l, const struct heron_packet *p, uint32_t code, uint64_t left)
{
    const char *cls = wk_fault_class_name(heron_fault_class(code));
    if (p->info != NULL) {
        appendf(l, "<%s: %s: %s, %llu bytes left>", cls, p->info->mnemonic, heron_fault_words(code),
                (unsigned long long)left);
    } else if (p->opcode != HERON_OPCODE_NONE) {
        appendf(l, "<%s: %s 0x%02x, %llu bytes left>", cls, heron_fault_words(code), p->opcode,
                (unsigned long long)left);
    } else {
        appendf(l, "<%s: %s, %llu bytes left>", cls, heron_fault_words(code), (unsigned long long)left);
    }
}

static uint64_t heron_list(void *self, const uint8_t *buf, uint64_t len, uint64_t start, wk_binding_line_fn *sink,
                           void *user)
{
    uint64_t listed = 0;
    (void)self;
    if (buf == NULL || sink == NULL) {
        return 0;
    }
    for (uint64_t offset = start; offset < len;) {
        struct heron_packet p;
        struct line l = { .used = 0 };
        uint32_t code = heron_decode(buf, len, offset, &p);
        appendf(&l, "0x%04llx: ", (unsigned long long)offset);
        if (code != HERON_FAULT_NONE) {
            list_fault(&l, &p, code, len - offset);
            sink(user, l.text);
            break;
        }
        list_packet(&l, &p);
        sink(user, l.text);
        listed++;
        offset += (uint64_t)p.dwords * 4u;
    }
    return listed;
}

const struct wk_disasm_ops heron_disasm = {
    .size = sizeof(struct wk_disasm_ops),
    .list = heron_list,
};
