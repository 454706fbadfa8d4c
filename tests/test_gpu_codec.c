/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_codec.c - the command set as data: opcode table, encoder,
 * decoder, static validator and disassembler (docs/gpu-model.md "Command
 * encoding", "Static validation and disassembly").
 *
 * The docs' layout table is restated here, independently of
 * gpu-model/opcodes.c, and every layout question is answered from it: the
 * table the model exports, the bytes the encoders write (compared with bytes
 * written by hand from the docs), what the decoder reads back. The validator
 * is tested case by case and then differentially against the executor on
 * seeded random buffers: whatever validate accepts may fault at run time only
 * for a state-dependent reason (the docs' promise the fuzz harness relies on).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test_util.h"

/* ------------------------------------------------------------------ */
/* The docs' table                                                      */
/* ------------------------------------------------------------------ */

struct doc_operand {
    const char *name;
    enum wk_gpu_operand_kind kind;
    uint32_t offset;
    uint32_t width; /* 4 or 8 */
};

struct doc_opcode {
    uint32_t code;
    const char *mnemonic;
    uint32_t fixed_bytes;
    uint32_t count;
    struct doc_operand ops[6];
    int has_list; /* GART_MAP: count operand 2, 8-byte PFNs, at most 1,048,576 */
};

#define A_(n, o) {n, WK_GPU_OPND_ADDR, o, 8}
#define U32_(n, o) {n, WK_GPU_OPND_U32, o, 4}
#define U64_(n, o) {n, WK_GPU_OPND_U64, o, 8}
#define SEG_(n, o) {n, WK_GPU_OPND_SEGMENT, o, 4}
#define CNT_(n, o) {n, WK_GPU_OPND_COUNT, o, 4}
#define PFN_(n, o) {n, WK_GPU_OPND_PFN, o, 8}

static const struct doc_opcode DOC[WK_GPU_OP_COUNT] = {
    {0x00, "NOP", 4, 0, {{0}}, 0},
    {0x01, "COPY", 28, 3, {A_("src", 4), A_("dst", 12), U64_("bytes", 20)}, 0},
    {0x02, "FILL", 24, 3, {A_("dst", 4), U64_("bytes", 12), U32_("pattern", 20)}, 0},
    {0x03, "WRITE32", 16, 2, {A_("addr", 4), U32_("value", 12)}, 0},
    {0x04, "WRITE64", 20, 2, {A_("addr", 4), U64_("value", 12)}, 0},
    {0x05, "FENCE", 20, 2, {A_("addr", 4), U64_("value", 12)}, 0},
    {0x06, "GART_MAP", 16, 3, {SEG_("segment", 4), U32_("first_page", 8), CNT_("count", 12)}, 1},
    {0x07, "GART_UNMAP", 24, 4,
     {SEG_("segment", 4), U32_("first_page", 8), U32_("count", 12), PFN_("dummy_pfn", 16)}, 0},
    {0x08, "TLB_FLUSH", 8, 1, {SEG_("segment", 4)}, 0},
    {0x09, "CALL", 16, 2, {A_("addr", 4), U32_("bytes", 12)}, 0},
    {0x0A, "BLIT", 36, 6,
     {A_("src", 4), A_("dst", 12), U32_("width", 20), U32_("height", 24), U32_("src_pitch", 28),
      U32_("dst_pitch", 32)},
     0},
    {0x0B, "VA_FLUSH", 28, 3, {U64_("root", 4), U64_("start", 12), U64_("end", 20)}, 0},
};

#define MAX_LIST 1048576u

/* Hand-encodes cmd from the docs' table: header, operands at their offsets,
 * then the list. Returns the length. */
static uint32_t doc_encode(uint8_t *out, enum wk_gpu_opcode op, const uint64_t *operands,
                           uint32_t list_count, const uint64_t *list)
{
    const struct doc_opcode *d = &DOC[op];
    memset(out, 0, d->fixed_bytes);
    tu_put32(out, d->code);
    for (uint32_t i = 0; i < d->count; i++) {
        uint64_t v = d->ops[i].kind == WK_GPU_OPND_COUNT ? list_count : operands[i];
        if (d->ops[i].width == 4)
            tu_put32(out + d->ops[i].offset, (uint32_t)v);
        else
            tu_put64(out + d->ops[i].offset, v);
    }
    uint32_t len = d->fixed_bytes;
    for (uint32_t i = 0; d->has_list && i < list_count; i++, len += 8)
        tu_put64(out + len, list ? list[i] : 0);
    return len;
}

/* Distinctive operand values that fit each operand's width. */
static uint64_t sample_operand(uint32_t op, uint32_t i)
{
    const struct doc_operand *o = &DOC[op].ops[i];
    uint64_t v = 0x0102030405060708ull * (i + 1) + 0x1111ull * op;
    if (o->width == 4)
        v &= 0x7FFFFFFFu;
    if (op == WK_GPU_OP_BLIT && i >= 2 && i <= 3)
        v = 100 + i; /* width/height within their limits */
    return v;
}

/* ------------------------------------------------------------------ */
/* Opcode table                                                         */
/* ------------------------------------------------------------------ */

static void test_opcode_info_matches_docs(void **state)
{
    (void)state;
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        const struct doc_opcode *d = &DOC[op];
        const struct wk_gpu_opcode_info *info = wk_gpu_opcode_info(op);
        if (info == NULL) {
            print_error("opcode_info(0x%02x) is NULL\n", op);
            fail();
        }
        assert_int_equal(info->opcode, op);
        assert_string_equal(info->mnemonic, d->mnemonic);
        assert_true(expect_u64(info->fixed_bytes, d->fixed_bytes));
        assert_true(expect_u64(info->operand_count, d->count));
        for (uint32_t i = 0; i < d->count; i++) {
            const struct wk_gpu_operand_info *o = &info->operands[i];
            if (o->name == NULL || strcmp(o->name, d->ops[i].name) != 0 ||
                o->kind != d->ops[i].kind || o->byte_offset != d->ops[i].offset) {
                print_error("%s operand %u: expected %s kind %d at +%u, got %s kind %d at +%u\n",
                            d->mnemonic, i, d->ops[i].name, (int)d->ops[i].kind, d->ops[i].offset,
                            o->name ? o->name : "(null)", (int)o->kind, o->byte_offset);
                fail();
            }
        }
        assert_int_equal(info->has_list != 0, d->has_list);
        if (d->has_list) {
            assert_true(expect_u64(info->list_count_operand, 2));
            assert_int_equal(info->list_kind, WK_GPU_OPND_PFN);
            assert_true(expect_u64(info->list_element_bytes, 8));
            assert_true(expect_u64(info->max_list_count, MAX_LIST));
        }
    }
    static const uint32_t undefined[] = {0x0C, 0x0D, 0x10, 0x7F, 0x80, 0xFF, 0x100, 0x101,
                                         0x10000, 0xFFFFFFFFu};
    for (unsigned i = 0; i < sizeof(undefined) / sizeof(undefined[0]); i++) {
        if (wk_gpu_opcode_info(undefined[i]) != NULL) {
            print_error("opcode_info(0x%x) should be NULL\n", undefined[i]);
            fail();
        }
    }
}

static void test_cmd_size(void **state)
{
    (void)state;
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++)
        assert_true(expect_u64(wk_gpu_cmd_size((enum wk_gpu_opcode)op, 0), DOC[op].fixed_bytes));
    const uint32_t counts[] = {1, 2, 5, 1000, MAX_LIST};
    for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
        assert_true(expect_u64(wk_gpu_cmd_size(WK_GPU_OP_GART_MAP, counts[i]),
                               16 + 8ull * counts[i]));
    assert_true(expect_u64(wk_gpu_cmd_size(WK_GPU_OP_GART_MAP, MAX_LIST + 1), 0));
    assert_true(expect_u64(wk_gpu_cmd_size(WK_GPU_OP_GART_MAP, UINT32_MAX), 0));
    assert_true(expect_u64(wk_gpu_cmd_size((enum wk_gpu_opcode)0x0C, 0), 0));
    assert_true(expect_u64(wk_gpu_cmd_size((enum wk_gpu_opcode)0xFF, 0), 0));
}

static void test_operand_offsets(void **state)
{
    (void)state;
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        for (uint32_t i = 0; i < DOC[op].count; i++) {
            if (!expect_u64(wk_gpu_operand_offset((enum wk_gpu_opcode)op, i), DOC[op].ops[i].offset)) {
                print_error("  %s operand %u (%s)\n", DOC[op].mnemonic, i, DOC[op].ops[i].name);
                fail();
            }
        }
        assert_true(expect_u64(wk_gpu_operand_offset((enum wk_gpu_opcode)op, DOC[op].count),
                               UINT32_MAX));
        assert_true(expect_u64(wk_gpu_operand_offset((enum wk_gpu_opcode)op, WK_GPU_MAX_OPERANDS),
                               UINT32_MAX));
        assert_true(
            expect_u64(wk_gpu_operand_offset((enum wk_gpu_opcode)op, UINT32_MAX), UINT32_MAX));
    }
    /* The docs' example: BLIT's dst is patched at +12. */
    assert_true(expect_u64(wk_gpu_operand_offset(WK_GPU_OP_BLIT, 1), 12));
    assert_true(expect_u64(wk_gpu_operand_offset((enum wk_gpu_opcode)0x0C, 0), UINT32_MAX));
}

/* ------------------------------------------------------------------ */
/* Encoder and decoder                                                  */
/* ------------------------------------------------------------------ */

static const uint64_t SAMPLE_LIST[3] = {0x10001, 0xFFFFFFFFFFull, 0x8000000000000001ull};

/* Fills cmd with sample operands; list_bytes (24 bytes) receives the
 * little-endian encoding of SAMPLE_LIST for GART_MAP. */
static void sample_cmd(uint32_t op, struct wk_gpu_cmd *cmd, uint8_t *list_bytes)
{
    for (unsigned i = 0; i < 3; i++)
        tu_put64(list_bytes + 8 * i, SAMPLE_LIST[i]);
    memset(cmd, 0, sizeof(*cmd));
    cmd->opcode = (enum wk_gpu_opcode)op;
    for (uint32_t i = 0; i < DOC[op].count; i++)
        cmd->operands[i] = sample_operand(op, i);
    if (DOC[op].has_list) {
        cmd->list_count = 3;
        cmd->list = list_bytes;
        cmd->operands[2] = 999; /* ignored: the count is list_count */
    }
}

static void test_round_trip_every_opcode(void **state)
{
    (void)state;
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        struct wk_gpu_cmd cmd;
        uint8_t sample_list_bytes[24];
        sample_cmd(op, &cmd, sample_list_bytes);
        uint8_t buf[256];
        memset(buf, 0xEE, sizeof(buf));
        struct wk_gpu_writer w;
        wk_gpu_writer_init(&w, buf, sizeof(buf));
        TU_OK(wk_gpu_emit_nop(&w));
        uint64_t at = 12345;
        TU_OK(wk_gpu_emit(&w, &cmd, &at));
        assert_true(expect_u64(at, 4));
        uint32_t size = wk_gpu_cmd_size((enum wk_gpu_opcode)op, cmd.list_count);
        assert_true(expect_u64(w.used, 4 + size));
        assert_int_equal(buf[4 + size], 0xEE); /* nothing written past the command */

        uint8_t want[256];
        uint32_t len = doc_encode(want, (enum wk_gpu_opcode)op, cmd.operands, cmd.list_count,
                                  SAMPLE_LIST);
        assert_true(expect_u64(size, len));
        if (memcmp(buf + 4, want, len) != 0) {
            for (uint32_t k = 0; k < len; k++)
                if (buf[4 + k] != want[k])
                    print_error("%s byte +%u: expected 0x%02x, got 0x%02x\n", DOC[op].mnemonic, k,
                                want[k], buf[4 + k]);
            fail();
        }

        struct wk_gpu_cmd back;
        memset(&back, 0xA5, sizeof(back));
        TU_OK(wk_gpu_decode(buf, w.used, 4, &back));
        assert_int_equal(back.opcode, op);
        assert_true(expect_u64(back.length, len));
        for (uint32_t i = 0; i < DOC[op].count; i++) {
            uint64_t expected = DOC[op].ops[i].kind == WK_GPU_OPND_COUNT ? cmd.list_count
                                                                         : cmd.operands[i];
            if (!expect_u64(back.operands[i], expected)) {
                print_error("  %s operand %u (%s)\n", DOC[op].mnemonic, i, DOC[op].ops[i].name);
                fail();
            }
        }
        if (DOC[op].has_list) {
            assert_true(expect_u64(back.list_count, 3));
            assert_ptr_equal(back.list, buf + 4 + 16);
            assert_memory_equal(back.list, sample_list_bytes, 24);
        } else {
            assert_true(expect_u64(back.list_count, 0));
        }
    }
}

/* The convenience encoders write what wk_gpu_emit writes. */
static void test_convenience_encoders(void **state)
{
    (void)state;
    uint8_t a[512], b[512];
    struct wk_gpu_writer wa, wb;
    wk_gpu_writer_init(&wa, a, sizeof(a));
    wk_gpu_writer_init(&wb, b, sizeof(b));
    const uint64_t pfns[2] = {0x10002, 0x10003};
    TU_OK(wk_gpu_emit_nop(&wa));
    TU_OK(wk_gpu_emit_copy(&wa, 0x1111, 0x2222, 0x3333));
    TU_OK(wk_gpu_emit_fill(&wa, 0x4444, 0x5555, 0x66666666));
    TU_OK(wk_gpu_emit_write32(&wa, 0x7777, 0x88888888));
    TU_OK(wk_gpu_emit_write64(&wa, 0x9999, 0xAAAAAAAAAAAAAAAAull));
    TU_OK(wk_gpu_emit_fence(&wa, 0xBBBB, 0xCCCC));
    TU_OK(wk_gpu_emit_gart_map(&wa, 3, 4, 2, pfns));
    TU_OK(wk_gpu_emit_gart_map(&wa, 3, 9, 0, NULL));
    TU_OK(wk_gpu_emit_gart_unmap(&wa, 3, 5, 6, 0x10007));
    TU_OK(wk_gpu_emit_tlb_flush(&wa, 3));
    TU_OK(wk_gpu_emit_call(&wa, 0xDDDD, 0xEEEE));
    TU_OK(wk_gpu_emit_blit(&wa, 0x1, 0x2, 3, 4, 5, 6));
    TU_OK(wk_gpu_emit_va_flush(&wa, 0x7000, 0x8000000000ull, 0x123456789ull));

    uint8_t list[16];
    tu_put64(list, pfns[0]);
    tu_put64(list + 8, pfns[1]);
    struct {
        enum wk_gpu_opcode op;
        uint64_t v[6];
        uint32_t n;
        const uint8_t *list;
    } const cmds[] = {
        {WK_GPU_OP_NOP, {0}, 0, NULL},
        {WK_GPU_OP_COPY, {0x1111, 0x2222, 0x3333}, 0, NULL},
        {WK_GPU_OP_FILL, {0x4444, 0x5555, 0x66666666}, 0, NULL},
        {WK_GPU_OP_WRITE32, {0x7777, 0x88888888}, 0, NULL},
        {WK_GPU_OP_WRITE64, {0x9999, 0xAAAAAAAAAAAAAAAAull}, 0, NULL},
        {WK_GPU_OP_FENCE, {0xBBBB, 0xCCCC}, 0, NULL},
        {WK_GPU_OP_GART_MAP, {3, 4, 2}, 2, list},
        {WK_GPU_OP_GART_MAP, {3, 9, 0}, 0, NULL},
        {WK_GPU_OP_GART_UNMAP, {3, 5, 6, 0x10007}, 0, NULL},
        {WK_GPU_OP_TLB_FLUSH, {3}, 0, NULL},
        {WK_GPU_OP_CALL, {0xDDDD, 0xEEEE}, 0, NULL},
        {WK_GPU_OP_BLIT, {1, 2, 3, 4, 5, 6}, 0, NULL},
        {WK_GPU_OP_VA_FLUSH, {0x7000, 0x8000000000ull, 0x123456789ull}, 0, NULL},
    };
    for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        struct wk_gpu_cmd c;
        memset(&c, 0, sizeof(c));
        c.opcode = cmds[i].op;
        memcpy(c.operands, cmds[i].v, sizeof(cmds[i].v));
        c.list_count = cmds[i].n;
        c.list = cmds[i].list;
        TU_OK(wk_gpu_emit(&wb, &c, NULL));
    }
    assert_true(expect_u64(wa.used, wb.used));
    assert_memory_equal(a, b, wa.used);
    /* The GART_MAP list is where the docs put it. */
    assert_true(expect_u64(tu_get64(a + 4 + 28 + 24 + 16 + 20 + 20 + 16), pfns[0]));
}

/* The docs' example buffer, byte for byte. */
/* docs/gpu-model.md, "Command encoding", "Example" (tests/gpu_cli.sh reads
 * the same bytes from the document itself). */
static const uint8_t DOC_EXAMPLE[72] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* FILL dst */
    0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xef, 0xbe, 0xad, 0xde, /* bytes, pattern */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* COPY src */
    0x00, 0x10, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, /* dst, bytes */
    0x00, 0x00, 0x00, 0x00,                                                 /* bytes (end) */
    0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, /* FENCE addr */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,                         /* value */
};

static void test_docs_example_bytes(void **state)
{
    (void)state;
    uint8_t buf[128];
    memset(buf, 0xEE, sizeof(buf));
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    uint64_t at[3];
    TU_OK(wk_gpu_emit_fill(&w, TU_SEG2_BASE, 4096, 0xdeadbeef));
    at[0] = w.used;
    TU_OK(wk_gpu_emit_copy(&w, TU_SEG2_BASE, TU_SEG2_BASE + 4096, 4096));
    at[1] = w.used;
    TU_OK(wk_gpu_emit_fence(&w, TU_SYS_BASE, 1));
    at[2] = w.used;
    assert_true(expect_u64(at[0], 0x18));
    assert_true(expect_u64(at[1], 0x34));
    assert_true(expect_u64(at[2], 72));
    assert_memory_equal(buf, DOC_EXAMPLE, sizeof(DOC_EXAMPLE));
}

/* The example runs cleanly on the reference adapter, also from where
 * `wddmkit gpu exec` loads it (the start of segment 1), and does what the
 * document says: the old example copied past segment 1 and fenced at an
 * address in no region. */
static void test_docs_example_runs(void **state)
{
    struct wk_gpu *gpu = tu_create(state, wk_gpu_reference_desc());
    struct wk_gpu_fault f;
    assert_true(expect_status(wk_gpu_validate(gpu, DOC_EXAMPLE, sizeof(DOC_EXAMPLE), &f), WK_OK));
    TU_OK(wk_gpu_write(gpu, TU_SEG1_BASE, DOC_EXAMPLE, sizeof(DOC_EXAMPLE)));
    assert_true(expect_status(wk_gpu_exec(gpu, TU_SEG1_BASE, sizeof(DOC_EXAMPLE), &f), WK_OK));
    uint8_t page[4096], want[4096];
    for (size_t i = 0; i < sizeof(want); i++)
        want[i] = (uint8_t)(0xdeadbeefu >> (8 * (i % 4)));
    TU_OK(wk_gpu_read(gpu, TU_SEG2_BASE + 4096, page, sizeof(page)));
    assert_memory_equal(page, want, sizeof(want));
    assert_true(expect_u64(wk_gpu_last_fence(gpu), 1));
    uint8_t again[sizeof(DOC_EXAMPLE)];
    TU_OK(wk_gpu_read(gpu, TU_SEG1_BASE, again, sizeof(again)));
    assert_memory_equal(again, DOC_EXAMPLE, sizeof(DOC_EXAMPLE)); /* the buffer is intact */
}

static void test_emit_no_space_leaves_writer_unchanged(void **state)
{
    (void)state;
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        struct wk_gpu_cmd cmd;
        uint8_t sample_list_bytes[24];
        sample_cmd(op, &cmd, sample_list_bytes);
        uint32_t size = wk_gpu_cmd_size((enum wk_gpu_opcode)op, cmd.list_count);
        for (uint64_t pre = 0; pre <= 5; pre += 5) {
            uint8_t buf[128];
            memset(buf, 0xEE, sizeof(buf));
            struct wk_gpu_writer w;
            wk_gpu_writer_init(&w, buf, pre + size - 1);
            w.used = pre;
            uint64_t at = 777;
            wk_status s = wk_gpu_emit(&w, &cmd, &at);
            if (!expect_status(s, WK_E_NO_SPACE)) {
                print_error("  %s with %u of %u bytes free\n", DOC[op].mnemonic, size - 1, size);
                fail();
            }
            assert_true(expect_u64(w.used, pre));
            for (unsigned k = 0; k < sizeof(buf); k++)
                assert_int_equal(buf[k], 0xEE);
            /* Exactly enough room: fits. */
            w.capacity = pre + size;
            TU_OK(wk_gpu_emit(&w, &cmd, &at));
            assert_true(expect_u64(at, pre));
            assert_true(expect_u64(w.used, pre + size));
        }
    }
    /* Convenience encoders too. */
    uint8_t small[8];
    memset(small, 0xEE, sizeof(small));
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, small, sizeof(small));
    assert_true(expect_status(wk_gpu_emit_write32(&w, 1, 2), WK_E_NO_SPACE));
    assert_true(expect_u64(w.used, 0));
    assert_int_equal(small[0], 0xEE);
    TU_OK(wk_gpu_emit_tlb_flush(&w, 3));
    assert_true(expect_status(wk_gpu_emit_nop(&w), WK_E_NO_SPACE));
    assert_true(expect_u64(w.used, 8));
}

static void test_emit_rejects_bad_operands(void **state)
{
    uint8_t buf[256];
    /* Every 32-bit operand (except the list count, which is list_count). */
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        for (uint32_t i = 0; i < DOC[op].count; i++) {
            if (DOC[op].ops[i].width != 4 || DOC[op].ops[i].kind == WK_GPU_OPND_COUNT)
                continue;
            struct wk_gpu_cmd cmd;
            uint8_t list_bytes[24];
            sample_cmd(op, &cmd, list_bytes);
            if (DOC[op].has_list) {
                cmd.list_count = 0;
                cmd.list = NULL;
            }
            cmd.operands[i] = 0x100000000ull;
            memset(buf, 0xEE, sizeof(buf));
            struct wk_gpu_writer w;
            wk_gpu_writer_init(&w, buf, sizeof(buf));
            if (!expect_status(wk_gpu_emit(&w, &cmd, NULL), WK_E_BAD_OPERAND)) {
                print_error("  %s operand %s = 0x100000000\n", DOC[op].mnemonic,
                            DOC[op].ops[i].name);
                fail();
            }
            assert_true(expect_u64(w.used, 0));
            assert_int_equal(buf[0], 0xEE);
            /* The largest 32-bit value encodes (BLIT's width and height have
             * their own decode-time limits, so they are left out here). */
            if (op == WK_GPU_OP_BLIT && (i == 2 || i == 3))
                continue;
            cmd.operands[i] = 0xFFFFFFFFu;
            TU_OK(wk_gpu_emit(&w, &cmd, NULL));
        }
    }
    /* A list too long, with room for it. */
    const size_t cap = 16 + 8 * (size_t)(MAX_LIST + 1);
    uint8_t *big = tu_alloc(state, cap);
    uint8_t *list = tu_alloc(state, 8 * (size_t)(MAX_LIST + 1));
    assert_non_null(big);
    assert_non_null(list);
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, big, cap);
    struct wk_gpu_cmd cmd;
    memset(&cmd, 0, sizeof(cmd));
    cmd.opcode = WK_GPU_OP_GART_MAP;
    cmd.operands[0] = 3;
    cmd.list_count = MAX_LIST + 1;
    cmd.list = list;
    assert_true(expect_status(wk_gpu_emit(&w, &cmd, NULL), WK_E_BAD_OPERAND));
    assert_true(expect_u64(w.used, 0));
    assert_true(expect_status(wk_gpu_emit_gart_map(&w, 3, 0, MAX_LIST + 1, (const uint64_t *)list),
                              WK_E_BAD_OPERAND));
    assert_true(expect_u64(w.used, 0));
    cmd.list_count = MAX_LIST; /* the maximum itself is fine */
    TU_OK(wk_gpu_emit(&w, &cmd, NULL));
    assert_true(expect_u64(w.used, 16 + 8ull * MAX_LIST));
    struct wk_gpu_cmd back;
    TU_OK(wk_gpu_decode(big, w.used, 0, &back));
    assert_true(expect_u64(back.list_count, MAX_LIST));

    /* Undefined opcodes. */
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    memset(&cmd, 0, sizeof(cmd));
    cmd.opcode = (enum wk_gpu_opcode)0x0C;
    assert_true(expect_status(wk_gpu_emit(&w, &cmd, NULL), WK_E_UNKNOWN_OPCODE));
    cmd.opcode = (enum wk_gpu_opcode)0x100;
    assert_true(expect_status(wk_gpu_emit(&w, &cmd, NULL), WK_E_UNKNOWN_OPCODE));
    assert_true(expect_u64(w.used, 0));
}

static void test_decode_errors(void **state)
{
    uint8_t buf[64];
    struct wk_gpu_cmd cmd;
    /* Reserved header bits, every bit of every opcode. */
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        uint64_t v[6] = {0};
        uint32_t len = doc_encode(buf, (enum wk_gpu_opcode)op, v, 0, NULL);
        TU_OK(wk_gpu_decode(buf, len, 0, &cmd));
        for (uint32_t bit = 8; bit < 32; bit++) {
            tu_put32(buf, op | (1u << bit));
            if (!expect_status(wk_gpu_decode(buf, len, 0, &cmd), WK_E_BAD_OPERAND)) {
                print_error("  %s with header bit %u set\n", DOC[op].mnemonic, bit);
                fail();
            }
        }
    }
    /* Undefined opcodes. */
    static const uint8_t undefined[] = {0x0C, 0x0D, 0x3F, 0x80, 0xFF};
    memset(buf, 0, sizeof(buf));
    for (unsigned i = 0; i < sizeof(undefined); i++) {
        buf[0] = undefined[i];
        assert_true(expect_status(wk_gpu_decode(buf, sizeof(buf), 0, &cmd), WK_E_UNKNOWN_OPCODE));
    }
    /* Offsets at or past the end. */
    memset(buf, 0, sizeof(buf));
    assert_true(expect_status(wk_gpu_decode(buf, 8, 8, &cmd), WK_E_TRUNCATED));
    assert_true(expect_status(wk_gpu_decode(buf, 8, 5, &cmd), WK_E_TRUNCATED));
    assert_true(expect_status(wk_gpu_decode(buf, 8, 100, &cmd), WK_E_TRUNCATED));
    assert_true(expect_status(wk_gpu_decode(buf, 8, UINT64_MAX - 1, &cmd), WK_E_TRUNCATED));
    TU_OK(wk_gpu_decode(buf, 8, 4, &cmd));
    assert_true(expect_u64(cmd.length, 4));
    /* Unaligned offsets are fine. */
    uint64_t v[3] = {0x1122334455667788ull, 0x99, 0};
    doc_encode(buf + 3, WK_GPU_OP_WRITE32, v, 0, NULL);
    TU_OK(wk_gpu_decode(buf, 3 + 16, 3, &cmd));
    assert_int_equal(cmd.opcode, WK_GPU_OP_WRITE32);
    assert_true(expect_u64(cmd.operands[0], 0x1122334455667788ull));
    assert_true(expect_u64(cmd.operands[1], 0x99));

    /* BLIT limits: width <= 1 MiB, height <= 16,384. */
    const struct {
        uint32_t w, h;
        wk_status want;
    } blits[] = {
        {1u << 20, 16384, WK_OK},
        {(1u << 20) + 1, 1, WK_E_BAD_OPERAND},
        {1, 16385, WK_E_BAD_OPERAND},
        {UINT32_MAX, UINT32_MAX, WK_E_BAD_OPERAND},
    };
    for (unsigned i = 0; i < sizeof(blits) / sizeof(blits[0]); i++) {
        uint64_t bv[6] = {0x100000, 0x400000, blits[i].w, blits[i].h, 0, 0};
        uint32_t len = doc_encode(buf, WK_GPU_OP_BLIT, bv, 0, NULL);
        if (!expect_status(wk_gpu_decode(buf, len, 0, &cmd), blits[i].want)) {
            print_error("  BLIT width %u height %u\n", blits[i].w, blits[i].h);
            fail();
        }
    }

    /* GART_MAP list count over the maximum, with the whole list present. */
    const size_t big_len = 16 + 8 * (size_t)(MAX_LIST + 1);
    uint8_t *big = tu_alloc(state, big_len);
    assert_non_null(big);
    uint64_t gv[3] = {3, 0, 0};
    doc_encode(big, WK_GPU_OP_GART_MAP, gv, MAX_LIST + 1, NULL);
    assert_true(expect_status(wk_gpu_decode(big, big_len, 0, &cmd), WK_E_BAD_OPERAND));
    /* A list that runs past the end is truncated. */
    doc_encode(big, WK_GPU_OP_GART_MAP, gv, 4, NULL);
    assert_true(expect_status(wk_gpu_decode(big, 16 + 31, 0, &cmd), WK_E_TRUNCATED));
    TU_OK(wk_gpu_decode(big, 16 + 32, 0, &cmd));
    assert_true(expect_u64(cmd.length, 48));
}

/* ------------------------------------------------------------------ */
/* Static validation                                                    */
/* ------------------------------------------------------------------ */

static bool expect_validate_ok(const struct wk_gpu *gpu, const struct tu_buf *b)
{
    struct wk_gpu_fault f;
    memset(&f, 0, sizeof(f));
    wk_status s = wk_gpu_validate(gpu, b->bytes, b->w.used, &f);
    if (s == WK_OK)
        return true;
    char text[256];
    wk_gpu_fault_format(&f, text, sizeof(text));
    print_error("validate(%s): expected WK_OK, got %s: %s\n", gpu ? "gpu" : "NULL",
                wk_status_name(s), text);
    return false;
}

static bool expect_validate_fault(const struct wk_gpu *gpu, const struct tu_buf *b,
                                  enum wk_gpu_fault_reason reason, uint32_t opcode,
                                  uint64_t offset, uint64_t fault_addr)
{
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    wk_status s = wk_gpu_validate(gpu, b->bytes, b->w.used, &f);
    bool ok = expect_status(s, WK_E_GPU_FAULT);
    return expect_fault_full(&f, reason, opcode, offset, 0, 0, fault_addr) && ok;
}

static void test_validate_accepts_valid_buffers(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pfns[3] = {TU_SYS_PFN, TU_SYS_PFN + 1, TU_SYS_PFN + TU_SYS_PAGES - 1};
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_SEG2_END - 0x100, 0x100));
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SYS_BASE, TU_SYS_END - TU_SYS_BASE, 0));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_END - 4, 1));
    TU_EMIT(wk_gpu_emit_write64(&b.w, TU_SEG2_BASE, 1));
    TU_EMIT(wk_gpu_emit_fence(&b.w, TU_SYS_END - 8, 1));
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, (uint32_t)TU_APER_PAGES - 3, 3, pfns));
    TU_EMIT(wk_gpu_emit_gart_unmap(&b.w, TU_APER_ID, 0, (uint32_t)TU_APER_PAGES, TU_SYS_PFN));
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, TU_APER_ID));
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_SEG1_BASE, 0x1000));
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_SEG2_BASE, 16, 16, 16, 0x100));
    /* Accesses through an unmapped aperture depend on state: accepted. */
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_APER_BASE, TU_SEG1_BASE, 0x1000));
    assert_true(expect_validate_ok(gpu, &b));
    assert_true(expect_validate_ok(NULL, &b));
    /* Empty buffer. */
    tu_buf_init(&b);
    assert_true(expect_validate_ok(gpu, &b));
    tu_destroy(state, gpu);
}

/* Decode problems: found with and without a model. */
static void test_validate_decode_problems(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    for (int with_gpu = 0; with_gpu < 2; with_gpu++) {
        const struct wk_gpu *g = with_gpu ? gpu : NULL;
        struct tu_buf b;
        tu_buf_init(&b);
        TU_EMIT(wk_gpu_emit_nop(&b.w));
        const uint8_t bad[4] = {0x0D, 0, 0, 0};
        tu_buf_raw(&b, bad, 4);
        assert_true(expect_validate_fault(g, &b, WK_GPU_FAULT_UNKNOWN_OPCODE, 0x0D, 4, 0));

        tu_buf_init(&b);
        TU_EMIT(wk_gpu_emit_nop(&b.w));
        TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, 1));
        b.w.used -= 1;
        assert_true(expect_validate_fault(g, &b, WK_GPU_FAULT_TRUNCATED, WK_GPU_OP_WRITE32, 4, 0));

        tu_buf_init(&b);
        TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, 1));
        TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, TU_APER_ID));
        b.bytes[16 + 2] = 0x01;
        assert_true(
            expect_validate_fault(g, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_TLB_FLUSH, 16, 0));

        tu_buf_init(&b);
        uint64_t bv[6] = {TU_SEG1_BASE, TU_SEG2_BASE, 1, 16385, 0, 0};
        uint8_t blit[36];
        doc_encode(blit, WK_GPU_OP_BLIT, bv, 0, NULL);
        tu_buf_raw(&b, blit, sizeof(blit));
        assert_true(expect_validate_fault(g, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_BLIT, 0, 0));
    }
    tu_destroy(state, gpu);
}

/* Model-dependent problems: found with a model, not without. */
static void test_validate_model_problems(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t ok_pfn = TU_SYS_PFN, bad_pfn = TU_SYS_PFN + TU_SYS_PAGES;
    struct tu_buf b;
#define CASE_(emit, reason, opcode, addr)                                               \
    do {                                                                                \
        tu_buf_init(&b);                                                                \
        TU_EMIT(wk_gpu_emit_nop(&b.w));                                                 \
        TU_EMIT(emit);                                                                  \
        TU_EMIT(wk_gpu_emit_nop(&b.w));                                                 \
        if (!expect_validate_fault(gpu, &b, (reason), (opcode), 4, (addr)) ||           \
            !expect_validate_ok(NULL, &b)) {                                            \
            print_error("  case: %s\n", #emit);                                          \
            fail();                                                                     \
        }                                                                               \
    } while (0)
    CASE_(wk_gpu_emit_copy(&b.w, TU_HOLE, TU_SEG1_BASE, 16), WK_GPU_FAULT_BAD_ADDRESS,
          WK_GPU_OP_COPY, TU_HOLE);
    CASE_(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_HOLE + 8, 16), WK_GPU_FAULT_BAD_ADDRESS,
          WK_GPU_OP_COPY, TU_HOLE + 8);
    CASE_(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_SEG2_END - 8, 16),
          WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_COPY, TU_SEG2_END);
    CASE_(wk_gpu_emit_fill(&b.w, TU_APER_END - 4, 8, 0), WK_GPU_FAULT_CROSSES_SEGMENT,
          WK_GPU_OP_FILL, TU_APER_END);
    CASE_(wk_gpu_emit_write32(&b.w, 0, 1), WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_WRITE32, 0);
    CASE_(wk_gpu_emit_write64(&b.w, TU_SYS_END - 4, 1), WK_GPU_FAULT_CROSSES_SEGMENT,
          WK_GPU_OP_WRITE64, TU_SYS_END);
    CASE_(wk_gpu_emit_fence(&b.w, UINT64_MAX - 3, 1), WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_FENCE,
          UINT64_MAX - 3);
    CASE_(wk_gpu_emit_gart_map(&b.w, TU_SEG1_ID, 0, 1, &ok_pfn), WK_GPU_FAULT_BAD_OPERAND,
          WK_GPU_OP_GART_MAP, 0);
    CASE_(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, (uint32_t)TU_APER_PAGES, 1, &ok_pfn),
          WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_GART_MAP, 0);
    CASE_(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 0, 1, &bad_pfn), WK_GPU_FAULT_BAD_OPERAND,
          WK_GPU_OP_GART_MAP, 0);
    CASE_(wk_gpu_emit_gart_unmap(&b.w, 9, 0, 1, ok_pfn), WK_GPU_FAULT_BAD_OPERAND,
          WK_GPU_OP_GART_UNMAP, 0);
    CASE_(wk_gpu_emit_gart_unmap(&b.w, TU_APER_ID, 1, (uint32_t)TU_APER_PAGES, ok_pfn),
          WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_GART_UNMAP, 0);
    CASE_(wk_gpu_emit_gart_unmap(&b.w, TU_APER_ID, 0, 1, TU_SYS_PFN - 1),
          WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_GART_UNMAP, 0);
    CASE_(wk_gpu_emit_tlb_flush(&b.w, TU_SEG2_ID), WK_GPU_FAULT_BAD_OPERAND,
          WK_GPU_OP_TLB_FLUSH, 0);
    CASE_(wk_gpu_emit_call(&b.w, TU_HOLE, 16), WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_CALL,
          TU_HOLE);
    /* BLIT: the last destination row runs past the end of segment 1. */
    CASE_(wk_gpu_emit_blit(&b.w, TU_SEG2_BASE, TU_SEG1_END - 0x308, 16, 4, 16, 0x100),
          WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_BLIT, TU_SEG1_END);
#undef CASE_
    tu_destroy(state, gpu);
}

/* A BLIT whose last row starts in the hole after segment 1: its extent
 * starts in segment 1 and crosses the end (CROSSES_SEGMENT at the end). */
static void test_validate_blit_row_outside_regions(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG2_BASE, TU_SEG1_END - 0x300, 16, 4, 16, 0x100));
    assert_true(expect_validate_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_BLIT, 4,
                                      TU_SEG1_END));
    assert_true(expect_validate_ok(NULL, &b));
}

/* "addr + length overflows" is BAD_ADDRESS, also from inside a region. */
static void test_validate_length_overflow(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG1_BASE, UINT64_MAX - 0x10, 0));
    assert_true(expect_validate_fault(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_FILL, 4,
                                      TU_SEG1_BASE));
    assert_true(expect_validate_ok(NULL, &b));
}

/* Differential: on random buffers, validate and exec agree. Validate's
 * first problem is exec's first fault unless exec first stops for a reason
 * that depends on state; a buffer validate accepts faults only for such a
 * reason; validate without a model finds a subset of the problems. */
static uint64_t pick_addr(uint64_t *rng)
{
    uint64_t r = tu_rand(rng);
    uint64_t small = (r >> 8) % 0x3000;
    switch (r % 12) {
    case 0: return TU_SEG1_BASE + small;
    case 1: return TU_SEG1_END - small;
    case 2: return TU_SEG2_BASE + (r >> 16) % TU_SEG2_SIZE;
    case 3: return TU_SEG2_END - small;
    case 4: return TU_APER_BASE + (r >> 8) % 0x6000; /* pages 0..5: some mapped */
    case 5: return TU_APER_END - small;
    case 6: return TU_SYS_BASE + (r >> 16) % 0x100000;
    case 7: return TU_SYS_END - small;
    case 8: return TU_HOLE + small;
    case 9: return UINT64_MAX - small;
    case 10: return 0;
    default: return r;
    }
}

static uint64_t pick_len(uint64_t *rng)
{
    uint64_t r = tu_rand(rng);
    switch (r % 8) {
    case 0: return 0;
    case 1: return 1 + (r >> 8) % 8;
    case 2: return 4096;
    case 3: return (r >> 8) % 0x4000;
    case 4: return UINT64_MAX - (r >> 8) % 0x2000;
    default: return 1 + (r >> 8) % 300;
    }
}

static uint32_t pick_seg(uint64_t *rng)
{
    static const uint32_t segs[] = {TU_APER_ID, TU_APER_ID, TU_APER_ID, 0, 1, 2, 4, 0xFFFFFFFFu};
    return segs[tu_rand(rng) % 8];
}

static uint64_t pick_pfn(uint64_t *rng)
{
    uint64_t r = tu_rand(rng);
    switch (r % 6) {
    case 0: return TU_SYS_PFN - 1 - (r >> 8) % 4;
    case 1: return TU_SYS_PFN + TU_SYS_PAGES + (r >> 8) % 4;
    case 2: return r;
    default: return TU_SYS_PFN + (r >> 8) % TU_SYS_PAGES;
    }
}

static uint32_t pick_page(uint64_t *rng)
{
    uint64_t r = tu_rand(rng);
    switch (r % 5) {
    case 0: return (uint32_t)TU_APER_PAGES - (uint32_t)(r >> 8) % 4;
    case 1: return 0xFFFFFFFFu - (uint32_t)(r >> 8) % 4;
    default: return (uint32_t)((r >> 8) % TU_APER_PAGES);
    }
}

static void emit_random(struct tu_buf *b, uint64_t *rng)
{
    uint64_t r = tu_rand(rng);
    struct wk_gpu_writer *w = &b->w;
    uint64_t pfns[3];
    for (unsigned i = 0; i < 3; i++)
        pfns[i] = pick_pfn(rng);
    switch (r % 12) {
    case 0: TU_EMIT(wk_gpu_emit_nop(w)); break;
    case 1: TU_EMIT(wk_gpu_emit_copy(w, pick_addr(rng), pick_addr(rng), pick_len(rng))); break;
    case 2: TU_EMIT(wk_gpu_emit_fill(w, pick_addr(rng), pick_len(rng), (uint32_t)r)); break;
    case 3: TU_EMIT(wk_gpu_emit_write32(w, pick_addr(rng), (uint32_t)r)); break;
    case 4: TU_EMIT(wk_gpu_emit_write64(w, pick_addr(rng), r)); break;
    case 5: TU_EMIT(wk_gpu_emit_fence(w, pick_addr(rng), r)); break;
    case 6:
        TU_EMIT(wk_gpu_emit_gart_map(w, pick_seg(rng), pick_page(rng), (uint32_t)(r >> 8) % 4,
                                     pfns));
        break;
    case 7:
        TU_EMIT(wk_gpu_emit_gart_unmap(w, pick_seg(rng), pick_page(rng),
                                       (uint32_t)((r >> 8) % 5 == 0 ? r >> 32 : (r >> 8) % 4),
                                       pfns[0]));
        break;
    case 8: TU_EMIT(wk_gpu_emit_tlb_flush(w, pick_seg(rng))); break;
    case 9: {
        uint64_t v[6] = {pick_addr(rng), pick_addr(rng), (r >> 8) % 64, (r >> 16) % 6,
                         (uint32_t)pick_len(rng), (uint32_t)pick_len(rng)};
        if ((r >> 24) % 16 == 0)
            v[2] = (1u << 20) + 1;
        if ((r >> 28) % 16 == 0)
            v[3] = 16385;
        uint8_t cmd[36];
        doc_encode(cmd, WK_GPU_OP_BLIT, v, 0, NULL);
        tu_buf_raw(b, cmd, sizeof(cmd));
        break;
    }
    case 10: {
        uint8_t garbage[4] = {(uint8_t)(WK_GPU_OP_COUNT + (r >> 8) % (0xFF - WK_GPU_OP_COUNT)), 0, 0, 0};
        tu_buf_raw(b, garbage, 4);
        break;
    }
    default: {
        uint8_t nop_reserved[4] = {0, (uint8_t)(1 + (r >> 8) % 255), 0, 0};
        tu_buf_raw(b, nop_reserved, 4);
        break;
    }
    }
}

static bool state_reason(enum wk_gpu_fault_reason r)
{
    return r == WK_GPU_FAULT_UNMAPPED_APERTURE || r == WK_GPU_FAULT_BUDGET ||
           r == WK_GPU_FAULT_MEMORY_LIMIT;
}

static void print_line(void *user, const char *line)
{
    (void)user;
    print_error("    %s\n", line);
}

/* The detail of a BAD_OPERAND, as both sides word it (and never empty). */
static bool same_detail_text(const struct wk_gpu_fault *a, const struct wk_gpu_fault *b)
{
    char ta[256], tb[256];
    wk_gpu_fault_detail_text(a, ta, sizeof(ta));
    wk_gpu_fault_detail_text(b, tb, sizeof(tb));
    if (ta[0] && strcmp(ta, tb) == 0)
        return true;
    print_error("  validate: \"%s\"\n  exec:     \"%s\"\n", ta, tb);
    return false;
}

static void test_validate_agrees_with_exec(void **state)
{
    uint64_t rng = tu_seed(0x5EEDC0DE);
    struct wk_gpu *gpu = tu_std_gpu(state);
    for (unsigned iter = 0; iter < 2000; iter++) {
        wk_gpu_reset(gpu);
        for (uint64_t p = 0; p < 3; p++)
            TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, p, TU_SYS_PFN + p));
        struct tu_buf b;
        tu_buf_init(&b);
        unsigned n = 1 + (unsigned)(tu_rand(&rng) % 4);
        for (unsigned i = 0; i < n; i++)
            emit_random(&b, &rng);
        if (tu_rand(&rng) % 8 == 0)
            b.w.used -= 1 + tu_rand(&rng) % 4; /* truncate the last command */

        struct wk_gpu_fault vf, nf, ef;
        memset(&vf, 0xA5, sizeof(vf));
        memset(&nf, 0xA5, sizeof(nf));
        memset(&ef, 0xA5, sizeof(ef));
        wk_status vs = wk_gpu_validate(gpu, b.bytes, b.w.used, &vf);
        wk_status ns = wk_gpu_validate(NULL, b.bytes, b.w.used, &nf);
        wk_status es = wk_gpu_exec_bytes(gpu, b.bytes, b.w.used, 0, &ef);
        const char *why = NULL;
        if (vs != WK_OK && vs != WK_E_GPU_FAULT)
            why = "validate returned neither WK_OK nor WK_E_GPU_FAULT";
        else if (es != WK_OK && es != WK_E_GPU_FAULT)
            why = "exec returned neither WK_OK nor WK_E_GPU_FAULT";
        else if (vs == WK_OK && es != WK_OK && !state_reason(ef.reason))
            why = "validate accepted a buffer that faults for a static reason";
        else if (vs != WK_OK && es == WK_OK)
            why = "validate rejected a buffer that runs";
        else if (vs != WK_OK && ef.offset > vf.offset)
            why = "exec ran past the command validate rejected";
        else if (vs != WK_OK && ef.offset < vf.offset && !state_reason(ef.reason))
            why = "exec faulted for a static reason before validate's problem";
        else if (vs != WK_OK && ef.offset == vf.offset && ef.reason != vf.reason &&
                 !state_reason(ef.reason))
            why = "validate and exec disagree on the reason";
        else if (vs != WK_OK && ef.offset == vf.offset && ef.reason == WK_GPU_FAULT_BAD_OPERAND &&
                 vf.reason == WK_GPU_FAULT_BAD_OPERAND && !same_detail_text(&vf, &ef))
            why = "validate and exec word the refused operand differently";
        else if (ns != WK_OK && (vs == WK_OK || vf.offset > nf.offset))
            why = "validate without a model found a problem validate with one missed";
        else if (ns != WK_OK && vf.offset == nf.offset && vf.reason != nf.reason)
            why = "validate with and without a model disagree on a decode problem";
        if (why != NULL) {
            print_error("iteration %u: %s\n", iter, why);
            print_error("  validate(gpu): %s reason %s offset %llu\n", wk_status_name(vs),
                        wk_gpu_fault_name(vf.reason), (unsigned long long)vf.offset);
            print_error("  validate(NULL): %s reason %s offset %llu\n", wk_status_name(ns),
                        wk_gpu_fault_name(nf.reason), (unsigned long long)nf.offset);
            print_error("  exec: %s reason %s offset %llu\n", wk_status_name(es),
                        wk_gpu_fault_name(ef.reason), (unsigned long long)ef.offset);
            print_error("  buffer (%llu bytes):\n", (unsigned long long)b.w.used);
            wk_gpu_disasm(b.bytes, b.w.used, print_line, NULL);
            fail();
        }
    }
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* Disassembler                                                         */
/* ------------------------------------------------------------------ */

#define MAX_LINES 16

struct lines {
    unsigned n;
    char text[MAX_LINES][256];
};

static void collect_line(void *user, const char *line)
{
    struct lines *l = user;
    if (l->n < MAX_LINES)
        snprintf(l->text[l->n], sizeof(l->text[0]), "%s", line);
    l->n++;
}

static void test_disasm_docs_example(void **state)
{
    (void)state;
    struct lines l;
    memset(&l, 0, sizeof(l));
    uint64_t n = wk_gpu_disasm(DOC_EXAMPLE, sizeof(DOC_EXAMPLE), collect_line, &l);
    assert_true(expect_u64(n, 3));
    assert_int_equal(l.n, 3);
    assert_string_equal(l.text[0], "0x0000: FILL dst=0x400000 bytes=4096 pattern=0xdeadbeef");
    assert_string_equal(l.text[1], "0x0018: COPY src=0x400000 dst=0x401000 bytes=4096");
    assert_string_equal(l.text[2], "0x0034: FENCE addr=0x10000000 value=0x1");

    memset(&l, 0, sizeof(l));
    assert_true(expect_u64(wk_gpu_disasm(DOC_EXAMPLE, 0, collect_line, &l), 0));
    assert_int_equal(l.n, 0);
}

/* The line ending a listing names the fault and the offset (as 0x48 or
 * 0x0048). */
static bool expect_fault_line(const struct lines *l, unsigned index, const char *fault)
{
    if (l->n != index + 1) {
        print_error("expected %u lines, got %u\n", index + 1, l->n);
        return false;
    }
    const char *t = l->text[index];
    if (strstr(t, fault) != NULL && (strstr(t, "0x48") != NULL || strstr(t, "0x0048") != NULL))
        return true;
    print_error("final line should name %s and offset 0x48: \"%s\"\n", fault, t);
    return false;
}

static void test_disasm_ends_at_garbage(void **state)
{
    (void)state;
    uint8_t buf[sizeof(DOC_EXAMPLE) + 16];
    memcpy(buf, DOC_EXAMPLE, sizeof(DOC_EXAMPLE));
    const uint8_t garbage[8] = {0xC3, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    memcpy(buf + sizeof(DOC_EXAMPLE), garbage, sizeof(garbage));
    struct lines l;
    memset(&l, 0, sizeof(l));
    uint64_t n = wk_gpu_disasm(buf, sizeof(DOC_EXAMPLE) + 8, collect_line, &l);
    assert_true(expect_u64(n, 3));
    assert_true(expect_fault_line(&l, 3, "UNKNOWN_OPCODE"));

    /* A command cut short. */
    uint8_t w32[16];
    uint64_t v[2] = {0x100000, 7};
    doc_encode(w32, WK_GPU_OP_WRITE32, v, 0, NULL);
    memcpy(buf + sizeof(DOC_EXAMPLE), w32, 10);
    memset(&l, 0, sizeof(l));
    n = wk_gpu_disasm(buf, sizeof(DOC_EXAMPLE) + 10, collect_line, &l);
    assert_true(expect_u64(n, 3));
    assert_true(expect_fault_line(&l, 3, "TRUNCATED"));

    /* Reserved bits. */
    memcpy(buf + sizeof(DOC_EXAMPLE), w32, 16);
    buf[sizeof(DOC_EXAMPLE) + 1] = 0x10;
    memset(&l, 0, sizeof(l));
    n = wk_gpu_disasm(buf, sizeof(DOC_EXAMPLE) + 16, collect_line, &l);
    assert_true(expect_u64(n, 3));
    assert_true(expect_fault_line(&l, 3, "BAD_OPERAND"));
}

/* Every opcode disassembles to "0xOFFS: MNEMONIC ..." with its operand
 * names, and the listing of the whole buffer has one line per command. */
static void test_disasm_every_opcode(void **state)
{
    (void)state;
    uint8_t buf[512];
    uint64_t used = 0;
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        uint64_t v[6] = {0x100000, 0x400000, 4, 4, 8, 8};
        const uint64_t list[1] = {0x10001};
        used += doc_encode(buf + used, (enum wk_gpu_opcode)op, v, 1, list);
    }
    struct lines l;
    memset(&l, 0, sizeof(l));
    uint64_t n = wk_gpu_disasm(buf, used, collect_line, &l);
    assert_true(expect_u64(n, WK_GPU_OP_COUNT));
    assert_int_equal(l.n, WK_GPU_OP_COUNT);
    uint64_t off = 0;
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        char prefix[64];
        snprintf(prefix, sizeof(prefix), "0x%04x: %s", (unsigned)off, DOC[op].mnemonic);
        const char *t = l.text[op];
        bool ok = strncmp(t, prefix, strlen(prefix)) == 0 &&
                  (t[strlen(prefix)] == ' ' || t[strlen(prefix)] == '\0');
        for (uint32_t i = 0; ok && i < DOC[op].count; i++) {
            char name[32];
            snprintf(name, sizeof(name), " %s=", DOC[op].ops[i].name);
            ok = strstr(t, name) != NULL;
        }
        if (!ok) {
            print_error("line %u: expected \"%s ...\" naming every operand, got \"%s\"\n", op,
                        prefix, t);
            fail();
        }
        off += wk_gpu_cmd_size((enum wk_gpu_opcode)op, op == WK_GPU_OP_GART_MAP ? 1 : 0);
    }
}

/* The disassembler writes lines without per-character checks, relying on
 * the table's names being short (gpu-model/disasm.c): every name fits its
 * 16-byte padded array with its terminating zero (opcodes.c), and the longest lines the table allows (every number at
 * its widest, a list longer than the 8 elements shown) come out exactly as
 * printf would write them. */
struct long_line {
    unsigned n;
    char text[512];
};

static void keep_line(void *user, const char *line)
{
    struct long_line *l = user;
    snprintf(l->text, sizeof(l->text), "%s", line);
    l->n++;
}

/* Numbers at every width edge, in both bases, as printf writes them: the
 * disassembler sizes decimal numbers from log2 (one compare against a power
 * of ten) and hex ones from the leading zero count (gpu-model/disasm.c). */
static void expect_fill_line(uint64_t bytes, uint64_t dst)
{
    uint8_t buf[24];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_fill(&w, dst, bytes, 0), WK_OK);
    char want[128];
    snprintf(want, sizeof(want), "0x0000: FILL dst=0x%llx bytes=%llu pattern=0x0", (unsigned long long)dst,
             (unsigned long long)bytes);
    struct long_line l;
    memset(&l, 0, sizeof(l));
    assert_true(expect_u64(wk_gpu_disasm(buf, w.used, keep_line, &l), 1));
    assert_string_equal(l.text, want);
}

static void test_disasm_number_edges(void **state)
{
    (void)state;
    uint64_t p10 = 1;
    for (int k = 0; k < 20; k++, p10 *= 10) {
        expect_fill_line(p10 - 1, p10);
        expect_fill_line(p10, p10 - 1);
        expect_fill_line(p10 + 1, p10 + 1);
    }
    for (int k = 0; k < 64; k++) {
        expect_fill_line((1ull << k) - 1, (1ull << k) - 1);
        expect_fill_line(1ull << k, 1ull << k);
    }
    expect_fill_line(UINT64_MAX, UINT64_MAX);
    expect_fill_line(0, 0);
}

static void test_disasm_longest_lines(void **state)
{
    (void)state;
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        const struct wk_gpu_opcode_info *info = wk_gpu_opcode_info(op);
        assert_true(strlen(info->mnemonic) < 16);
        for (uint32_t i = 0; i < info->operand_count; i++)
            assert_true(strlen(info->operands[i].name) < 16);
        /* The decoder keeps lengths and offsets in bytes, operand kinds in
         * 8-bit masks (gpu-model/decode.c). */
        assert_true(info->fixed_bytes < 256 && info->list_element_bytes < 256);
        assert_true(info->operand_count <= 8 && info->list_count_operand < 256);
        for (uint32_t i = 0; i < info->operand_count; i++)
            assert_true(info->operands[i].byte_offset < 256);
    }
    uint8_t buf[16 + 20 * 8];
    memset(buf, 0xFF, sizeof(buf));
    tu_put32(buf, WK_GPU_OP_GART_MAP);
    tu_put32(buf + 12, 20); /* count */
    char want[512];
    int n = snprintf(want, sizeof(want), "0x0000: GART_MAP segment=4294967295 first_page=4294967295 count=20 pfns=[");
    for (int i = 0; i < 8; i++)
        n += snprintf(want + n, sizeof(want) - (size_t)n, "%s0x%llx", i ? ", " : "", (unsigned long long)UINT64_MAX);
    snprintf(want + n, sizeof(want) - (size_t)n, ", ... 12 more]");
    struct long_line l;
    memset(&l, 0, sizeof(l));
    assert_true(expect_u64(wk_gpu_disasm(buf, sizeof(buf), keep_line, &l), 1));
    assert_string_equal(l.text, want);

    uint8_t blit[36];
    memset(blit, 0xFF, sizeof(blit));
    tu_put32(blit, WK_GPU_OP_BLIT);
    tu_put32(blit + 20, 1u << 20);
    tu_put32(blit + 24, 16384);
    memset(&l, 0, sizeof(l));
    assert_true(expect_u64(wk_gpu_disasm(blit, sizeof(blit), keep_line, &l), 1));
    assert_string_equal(l.text, "0x0000: BLIT src=0xffffffffffffffff dst=0xffffffffffffffff width=1048576 "
                                "height=16384 src_pitch=4294967295 dst_pitch=4294967295");
    /* A fault line far into a buffer: the offset grows past four digits. */
    uint8_t *big = calloc(1, 0x12348);
    assert_non_null(big);
    big[0x12344] = 0xEE;
    memset(&l, 0, sizeof(l));
    assert_true(expect_u64(wk_gpu_disasm(big, 0x12348, keep_line, &l), 0x12344 / 4));
    free(big);
    assert_string_equal(l.text, "0x12344: <UNKNOWN_OPCODE: opcode byte 0xee, 4 bytes left>");
}

/* The fault line names the command and what is wrong with it (gpu.h,
 * wk_gpu_disasm; docs/gpu-model.md, "Static validation and disassembly").
 * It used to say only "<BAD_OPERAND: opcode byte 0x0a, 36 bytes left>", and
 * "1 bytes left". */
static void expect_last_line(const uint8_t *buf, uint64_t len, const char *want)
{
    struct long_line l;
    memset(&l, 0, sizeof(l));
    wk_gpu_disasm(buf, len, keep_line, &l);
    if (strcmp(l.text, want) != 0) {
        print_error("disasm: \"%s\"\nwanted: \"%s\"\n", l.text, want);
        fail();
    }
}

static void test_disasm_fault_lines(void **state)
{
    (void)state;
    uint8_t cmd[36];
    memset(cmd, 0, sizeof(cmd));
    cmd[0] = 0xee;
    expect_last_line(cmd, 4, "0x0000: <UNKNOWN_OPCODE: opcode byte 0xee, 4 bytes left>");
    cmd[0] = WK_GPU_OP_COPY;
    expect_last_line(cmd, 1, "0x0000: <TRUNCATED: COPY (opcode byte 0x01) needs 28 bytes, 1 byte left>");
    expect_last_line(cmd, 20, "0x0000: <TRUNCATED: COPY (opcode byte 0x01) needs 28 bytes, 20 bytes left>");
    tu_put32(cmd, WK_GPU_OP_GART_MAP);
    expect_last_line(cmd, 12,
                      "0x0000: <TRUNCATED: GART_MAP (opcode byte 0x06) needs at least 16 bytes, 12 bytes left>");
    tu_put32(cmd + 12, 2);
    expect_last_line(cmd, 24, "0x0000: <TRUNCATED: GART_MAP (opcode byte 0x06) needs 32 bytes, 24 bytes left>");
    tu_put32(cmd + 12, 1048577);
    expect_last_line(cmd, 16, "0x0000: <BAD_OPERAND: GART_MAP (opcode byte 0x06): count 1048577 over its "
                               "maximum 1048576, 16 bytes left>");
    tu_put32(cmd, WK_GPU_OP_BLIT);
    tu_put32(cmd + 20, 1048577);
    expect_last_line(cmd, 36, "0x0000: <BAD_OPERAND: BLIT (opcode byte 0x0a): width 1048577 over its maximum "
                               "1048576, 36 bytes left>");
    tu_put32(cmd + 20, 1);
    tu_put32(cmd + 24, 16385);
    expect_last_line(cmd, 36, "0x0000: <BAD_OPERAND: BLIT (opcode byte 0x0a): height 16385 over its maximum "
                               "16384, 36 bytes left>");
    tu_put32(cmd, 0x8000010a);
    expect_last_line(cmd, 36, "0x0000: <BAD_OPERAND: BLIT (opcode byte 0x0a): reserved header bits 0x80000100 "
                               "set, 36 bytes left>");
}

/* Differential: the disassembler against a trivially correct shadow built on
 * snprintf and the public decoder (the formatter writes digits and fragments
 * by hand for speed; docs/performance.md), on seeded random buffers: random
 * commands, long GART_MAP lists, flipped bytes and cut tails. */
static uint64_t le64_at(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The rule a command the decoder refused broke, checked here the obvious
 * way: reserved header bits, then BLIT's limits, then GART_MAP's count. */
static uint32_t le32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void shadow_bad_operand(const uint8_t *p, char *out, size_t cap)
{
    uint32_t header = le32_at(p);
    if (header >> 8)
        snprintf(out, cap, "reserved header bits 0x%x set", header & ~0xFFu);
    else if (p[0] == WK_GPU_OP_BLIT && le32_at(p + 20) > (1u << 20))
        snprintf(out, cap, "width %u over its maximum %u", le32_at(p + 20), 1u << 20);
    else if (p[0] == WK_GPU_OP_BLIT)
        snprintf(out, cap, "height %u over its maximum 16384", le32_at(p + 24));
    else
        snprintf(out, cap, "count %u over its maximum %u", le32_at(p + 12), MAX_LIST);
}

/* "<REASON: COPY (opcode byte 0x01) needs 28 bytes, 20 bytes left>" and its
 * kin (gpu.h, wk_gpu_disasm). */
static void shadow_fault_line(const uint8_t *buf, uint64_t len, uint64_t off, wk_status st, char *out,
                              size_t cap)
{
    enum wk_gpu_fault_reason why = st == WK_E_TRUNCATED ? WK_GPU_FAULT_TRUNCATED
                                   : st == WK_E_UNKNOWN_OPCODE ? WK_GPU_FAULT_UNKNOWN_OPCODE
                                                               : WK_GPU_FAULT_BAD_OPERAND;
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(buf[off]);
    unsigned long long left = len - off;
    char culprit[256];
    if (!op)
        snprintf(culprit, sizeof(culprit), "opcode byte 0x%02x", buf[off]);
    else if (why == WK_GPU_FAULT_TRUNCATED && op->has_list && left < 16)
        snprintf(culprit, sizeof(culprit), "%s (opcode byte 0x%02x) needs at least 16 bytes", op->mnemonic, buf[off]);
    else if (why == WK_GPU_FAULT_TRUNCATED)
        snprintf(culprit, sizeof(culprit), "%s (opcode byte 0x%02x) needs %u bytes", op->mnemonic, buf[off],
                 wk_gpu_cmd_size(op->opcode, op->has_list ? le32_at(buf + off + 12) : 0));
    else {
        char rule[160];
        shadow_bad_operand(buf + off, rule, sizeof(rule));
        snprintf(culprit, sizeof(culprit), "%s (opcode byte 0x%02x): %s", op->mnemonic, buf[off], rule);
    }
    snprintf(out, cap, "0x%04llx: <%s: %s, %llu byte%s left>", (unsigned long long)off,
             wk_gpu_fault_name(why), culprit, left, left == 1 ? "" : "s");
}

static void shadow_line(const uint8_t *buf, uint64_t len, uint64_t off, char *out, size_t cap,
                        uint64_t *next)
{
    struct wk_gpu_cmd c;
    wk_status st = wk_gpu_decode(buf, len, off, &c);
    unsigned long long o = off;
    *next = len;
    if (st != WK_OK) {
        shadow_fault_line(buf, len, off, st, out, cap);
        return;
    }
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(c.opcode);
    size_t n = (size_t)snprintf(out, cap, "0x%04llx: %s", o, op->mnemonic);
    for (uint32_t i = 0; i < op->operand_count; i++) {
        unsigned long long v = c.operands[i];
        if (op->operands[i].print_hex)
            n += (size_t)snprintf(out + n, cap - n, " %s=0x%llx", op->operands[i].name, v);
        else
            n += (size_t)snprintf(out + n, cap - n, " %s=%llu", op->operands[i].name, v);
    }
    if (op->has_list) {
        n += (size_t)snprintf(out + n, cap - n, " pfns=[");
        for (uint32_t i = 0; i < c.list_count && i < 8; i++)
            n += (size_t)snprintf(out + n, cap - n, "%s0x%llx", i ? ", " : "",
                                  (unsigned long long)le64_at(c.list + 8 * (uint64_t)i));
        if (c.list_count > 8)
            n += (size_t)snprintf(out + n, cap - n, ", ... %u more", c.list_count - 8);
        snprintf(out + n, cap - n, "]");
    }
    *next = off + c.length;
}

struct shadow_check {
    const uint8_t *buf;
    uint64_t len, off, lines;
    bool ok;
};

static void check_against_shadow(void *user, const char *line)
{
    struct shadow_check *k = user;
    char want[1024];
    if (!k->ok || k->off >= k->len) {
        k->ok = false;
        return;
    }
    shadow_line(k->buf, k->len, k->off, want, sizeof(want), &k->off);
    k->lines++;
    if (strcmp(line, want) != 0) {
        print_error("disasm: \"%s\"\nshadow: \"%s\"\n", line, want);
        k->ok = false;
    }
}

static void test_disasm_matches_shadow(void **state)
{
    (void)state;
    uint64_t rng = tu_seed(0xD15A55);
    for (unsigned iter = 0; iter < 20000; iter++) {
        struct tu_buf b;
        tu_buf_init(&b);
        unsigned n = 1 + (unsigned)(tu_rand(&rng) % 6);
        for (unsigned i = 0; i < n; i++) {
            if (tu_rand(&rng) % 5 == 0) {
                uint64_t pfns[20];
                for (unsigned j = 0; j < 20; j++)
                    pfns[j] = tu_rand(&rng) >> (tu_rand(&rng) % 64);
                TU_EMIT(wk_gpu_emit_gart_map(&b.w, (uint32_t)tu_rand(&rng), (uint32_t)tu_rand(&rng),
                                             (uint32_t)(tu_rand(&rng) % 21), pfns));
            } else {
                emit_random(&b, &rng);
            }
        }
        for (unsigned flips = (unsigned)(tu_rand(&rng) % 3); flips > 0 && b.w.used; flips--)
            b.bytes[tu_rand(&rng) % b.w.used] = (uint8_t)tu_rand(&rng);
        uint64_t len = b.w.used;
        if (len && tu_rand(&rng) % 4 == 0)
            len -= tu_rand(&rng) % (len < 8 ? len : 8);
        struct shadow_check k = { b.bytes, len, 0, 0, true };
        uint64_t cmds = wk_gpu_disasm(b.bytes, len, check_against_shadow, &k);
        assert_true(k.ok);
        assert_true(k.off == len || k.lines == cmds + 1); /* ended at the end or at a fault */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_TEST(test_opcode_info_matches_docs),
        TU_TEST(test_cmd_size),
        TU_TEST(test_operand_offsets),
        TU_TEST(test_round_trip_every_opcode),
        TU_TEST(test_convenience_encoders),
        TU_TEST(test_docs_example_bytes),
        TU_TEST(test_docs_example_runs),
        TU_TEST(test_emit_no_space_leaves_writer_unchanged),
        TU_TEST(test_emit_rejects_bad_operands),
        TU_TEST(test_decode_errors),
        TU_TEST(test_validate_accepts_valid_buffers),
        TU_TEST(test_validate_decode_problems),
        TU_TEST(test_validate_model_problems),
        TU_TEST(test_validate_length_overflow),
        TU_TEST(test_validate_blit_row_outside_regions),
        TU_TEST(test_validate_agrees_with_exec),
        TU_TEST(test_disasm_docs_example),
        TU_TEST(test_disasm_ends_at_garbage),
        TU_TEST(test_disasm_every_opcode),
        TU_TEST(test_disasm_longest_lines),
        TU_TEST(test_disasm_number_edges),
        TU_TEST(test_disasm_matches_shadow),
        TU_TEST(test_disasm_fault_lines),
    };
    return cmocka_run_group_tests_name("gpu.codec", tests, NULL, NULL);
}
