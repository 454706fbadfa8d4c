/* SPDX-License-Identifier: MIT */
/*
 * render_records.c - a user command buffer in the kit's UMD format
 * (include/wddmkit/umd.h) read back into a render step's records: the
 * inverse of wk_prog_render_command (prog_run.c).
 *
 * Three readers need it, and must agree: the structure-aware mutator,
 * which edits fuzz_render's command buffer as records when it parses
 * (fuzz/mutator/prog_mutator.c); fuzz_render itself when the driver under
 * test has a hardware binding whose encoder writes the driver's own
 * format: the records are the kit's abstract render operations, which the
 * encoder turns into the driver's bytes (harnesses/fuzz_render.c); and the
 * interpreter, which runs a fuzz_render input's Render the same way for
 * repro, minimize and promote (wk_prog_encode_render). A buffer parses
 * only when it is exactly what wk_prog_render_command would write
 * (header, that many records of their exact sizes, nothing after):
 * anything else is raw bytes of the kit's format, which the mutator keeps
 * raw and which mean nothing in another driver's format.
 */
#include <stddef.h>
#include <string.h>

#include "conform.h"
#include "wddmkit/umd.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One umd.h record at p (len bytes left) into c; its length, 0 when it does
 * not parse exactly as wk_prog_render_command would write it. */
static uint32_t parse_record(const uint8_t *p, size_t len, struct wk_prog_record *c)
{
    static const uint32_t sizes[WK_USER_OP_COUNT] = { 8, 32, 24, 24, 40 };
    if (len < 8 || le32(p) >= WK_USER_OP_COUNT || le32(p + 4) != sizes[le32(p)] || len < sizes[le32(p)])
        return 0;
    memset(c, 0, sizeof(*c));
    c->op = le32(p);
    const uint8_t *f = p + 8;
    if (c->op == WK_USER_OP_COPY || c->op == WK_USER_OP_BLIT) {
        c->src = (struct wk_prog_ref){ le32(f), le32(f + 4) };
        f += 8;
    }
    if (c->op != WK_USER_OP_NOP) {
        c->dst = (struct wk_prog_ref){ le32(f), le32(f + 4) };
        f += 8;
    }
    if (c->op == WK_USER_OP_COPY || c->op == WK_USER_OP_FILL)
        c->size = le32(f);
    if (c->op == WK_USER_OP_FILL || c->op == WK_USER_OP_WRITE32)
        c->value = le32(c->op == WK_USER_OP_FILL ? f + 4 : f);
    if (c->op == WK_USER_OP_BLIT) {
        c->width = le32(f);
        c->height = le32(f + 4);
        c->src_pitch = le32(f + 8);
        c->dst_pitch = le32(f + 12);
    }
    return sizes[c->op];
}

/* Records only: the raw bytes and the user patch list (16 KiB and more,
 * which a records payload never reads) are left as they are, so that a
 * mutation does not pay for zeroing them. */
static void clear_records(struct wk_prog_render *g)
{
    memset(g, 0, offsetof(struct wk_prog_render, raw_bytes));
    g->patch_length = 0;
}

int wk_render_command_records(const uint8_t *p, size_t len, struct wk_prog_render *g)
{
    clear_records(g);
    if (len < 16 || le32(p) != WK_USER_COMMAND_MAGIC || le32(p + 4) != WK_USER_COMMAND_VERSION ||
        le32(p + 8) > WK_PROG_MAX_RECORDS || le32(p + 12) != 0)
        return 0;
    size_t at = 16;
    for (uint32_t i = 0; i < le32(p + 8); i++) {
        uint32_t n = parse_record(p + at, len - at, &g->records[i]);
        if (!n)
            return 0;
        at += n;
    }
    g->record_count = le32(p + 8);
    return at == len; /* trailing bytes: keep it raw, they may matter */
}

