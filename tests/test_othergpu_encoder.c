/* SPDX-License-Identifier: MIT */
/*
 * tests/test_othergpu_encoder.c - the OtherGPU binding's object, its UMD
 * encoder (the buffer it writes parsed back with othergpu_umd.h, the
 * driver's own header; the opaque fields it fills from the kit's raw
 * bytes) and its disassembler.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "othergpu_test_util.h"

/* ------------------------------------------------------------------ */
/* The binding object                                                   */
/* ------------------------------------------------------------------ */

/* The parts the kit takes (binding.h): a header for this ABI, the
 * driver's two segments as segments.c reports them, a processor, an
 * encoder, a disassembler and no registers (OtherGPU's driver rings no
 * doorbell the kit sees). */
static void test_the_binding_object(void **state)
{
    (void)state;
    assert_int_equal(wk_binding.magic, WK_BINDING_MAGIC);
    assert_int_equal(wk_binding.abi, WK_BINDING_ABI_VERSION);
    assert_int_equal(wk_binding.size, sizeof(struct wk_binding));
    assert_string_equal(wk_binding.name, "othergpu");
    assert_non_null(wk_binding.processor);
    assert_non_null(wk_binding.encoder);
    assert_non_null(wk_binding.disasm);
    assert_null(wk_binding.registers);
    const struct wk_gpu_desc *m = wk_binding.memory;
    assert_int_equal(m->segment_count, 2);
    assert_int_equal(m->segments[0].kind, WK_GPU_SEGMENT_MEMORY);
    assert_int_equal(m->segments[0].base, 0x1000000000ull);
    assert_int_equal(m->segments[0].size, 32ull << 20);
    assert_int_equal(m->segments[1].kind, WK_GPU_SEGMENT_APERTURE);
    assert_int_equal(m->segments[1].base, 0x2000000000ull);
    assert_int_equal(m->segments[1].size, 8ull << 20);
    assert_int_equal(wk_binding.bar_count, 1);
    assert_int_equal(wk_binding.bars[0].kind, WK_BAR_SEGMENT);
    assert_int_equal(wk_binding.bars[0].segment_id, 1);
}

/* create refuses a host whose memory table lacks what it calls. */
static void test_create_refuses_a_short_host(void **state)
{
    (void)state;
    struct wk_mem *mem = fake_mem_create(&og_memory);
    struct wk_mem_ops short_ops = *fake_mem_ops();
    short_ops.size = offsetof(struct wk_mem_ops, gart_flush);
    struct wk_binding_host host = { .size = sizeof host, .abi = WK_BINDING_ABI_VERSION, .mem = mem,
                                    .mem_ops = &short_ops };
    assert_null(wk_binding.create(&host));
    assert_null(wk_binding.create(NULL));
    host.mem_ops = fake_mem_ops();
    host.size = offsetof(struct wk_binding_host, mem_ops);
    assert_null(wk_binding.create(&host));
    fake_mem_destroy(mem);
}

/* ------------------------------------------------------------------ */
/* The encoder                                                          */
/* ------------------------------------------------------------------ */

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void record_at(const uint8_t *command, uint32_t i, struct og_umd_record *r)
{
    const uint8_t *p = command + sizeof(struct og_umd_header) + i * sizeof(struct og_umd_record);
    r->op = get32(p);
    r->size = get32(p + 4);
    r->value = get32(p + 8);
    r->reserved = get32(p + 12);
    r->dst_index = get32(p + 16);
    r->dst_offset = get32(p + 20);
    r->src_index = get32(p + 24);
    r->src_offset = get32(p + 28);
}

static int encode(struct wk_encode_op *ops, uint32_t n, uint8_t *command, uint32_t cap, struct wk_encode_render *r)
{
    memset(r, 0, sizeof *r);
    r->ops = ops;
    r->op_count = n;
    r->list_length = 2;
    r->command = command;
    r->command_cap = cap;
    return og_encoder.render(NULL, r);
}

static void test_encodes_fill_copy_nop(void **state)
{
    (void)state;
    uint8_t command[512];
    struct wk_encode_render r;
    struct wk_encode_op ops[3] = {
        { .op = WK_USER_OP_FILL, .dst = { 1, 0x40 }, .size = 256, .value = 0xCAFEF00D },
        { .op = WK_USER_OP_COPY, .src = { 0, 8 }, .dst = { 1, 0x100 }, .size = 64 },
        { .op = WK_USER_OP_NOP },
    };
    assert_int_equal(encode(ops, 3, command, sizeof command, &r), WK_ENCODE_OK);
    assert_int_equal(r.command_length, 8 + 3 * 32);
    assert_int_equal(r.patch_length, 0);
    assert_int_equal(get32(command), OG_UMD_MAGIC);
    assert_int_equal(get32(command + 4), 3);
    struct og_umd_record rec;
    record_at(command, 0, &rec);
    assert_int_equal(rec.op, OG_UMD_FILL);
    assert_int_equal(rec.size, 256);
    assert_int_equal(rec.value, 0xCAFEF00D);
    assert_int_equal(rec.dst_index, 1);
    assert_int_equal(rec.dst_offset, 0x40);
    record_at(command, 1, &rec);
    assert_int_equal(rec.op, OG_UMD_COPY);
    assert_int_equal(rec.src_index, 0);
    assert_int_equal(rec.src_offset, 8);
    assert_int_equal(rec.dst_offset, 0x100);
    record_at(command, 2, &rec);
    assert_int_equal(rec.op, OG_UMD_NOP);
}

/* WRITE32 is a FILL of 4 bytes of the value; a BLIT one COPY per row;
 * references are copied as given, out of range or not. */
static void test_lowers_write32_and_blit(void **state)
{
    (void)state;
    uint8_t command[512];
    struct wk_encode_render r;
    struct wk_encode_op ops[2] = {
        { .op = WK_USER_OP_WRITE32, .dst = { 7, 0xFFFFFFF0u }, .value = 0x01020304 },
        { .op = WK_USER_OP_BLIT, .src = { 0, 0 }, .dst = { 1, 16 }, .width = 8, .height = 3, .src_pitch = 100,
          .dst_pitch = 0 },
    };
    assert_int_equal(encode(ops, 2, command, sizeof command, &r), WK_ENCODE_OK);
    assert_int_equal(get32(command + 4), 4);
    struct og_umd_record rec;
    record_at(command, 0, &rec);
    assert_int_equal(rec.op, OG_UMD_FILL);
    assert_int_equal(rec.size, 4);
    assert_int_equal(rec.value, 0x01020304);
    assert_int_equal(rec.dst_index, 7);
    assert_int_equal(rec.dst_offset, 0xFFFFFFF0u);
    for (uint32_t row = 0; row < 3; row++) {
        record_at(command, 1 + row, &rec);
        assert_int_equal(rec.op, OG_UMD_COPY);
        assert_int_equal(rec.size, 8);
        assert_int_equal(rec.src_offset, row * 100);
        assert_int_equal(rec.dst_offset, 16);
    }
}

static void test_skips_what_the_format_cannot_say(void **state)
{
    (void)state;
    uint8_t command[128];
    struct wk_encode_render r;
    struct wk_encode_op zero[2] = { { .op = WK_USER_OP_NOP }, { .op = WK_USER_OP_COPY, .size = 0 } };
    assert_int_equal(encode(zero, 2, command, sizeof command, &r), WK_ENCODE_SKIP);
    assert_int_equal(r.skipped_op, 1);
    assert_non_null(strstr(r.why, "0 bytes"));
    struct wk_encode_op empty_blit = { .op = WK_USER_OP_BLIT, .width = 4, .height = 0 };
    assert_int_equal(encode(&empty_blit, 1, command, sizeof command, &r), WK_ENCODE_SKIP);
    struct wk_encode_op far_blit = { .op = WK_USER_OP_BLIT, .width = 4, .height = 3, .src_pitch = 0x80000000u };
    assert_int_equal(encode(&far_blit, 1, command, sizeof command, &r), WK_ENCODE_SKIP);
    struct wk_encode_op fills[2] = { { .op = WK_USER_OP_FILL, .size = 4 }, { .op = WK_USER_OP_FILL, .size = 4 } };
    assert_int_equal(encode(fills, 2, command, 8 + 32, &r), WK_ENCODE_SKIP); /* room for one record */
    assert_int_equal(r.skipped_op, 1);
    assert_int_equal(r.command_length, 0);
    assert_int_equal(og_encoder.ops_supported, 0x1F);
}

/* The miniport reads the kit's WK_ALLOCATION_REQUEST: no allocation
 * encoder, so the kit hands the request as it is and runs the checks of
 * its format (an encoder's copy told the kit the format was the driver's
 * own, and those checks were skipped). */
static void test_allocations_left_to_the_kit(void **state)
{
    (void)state;
    assert_non_null(og_encoder.render);
    assert_null(og_encoder.allocation);
}

/* ------------------------------------------------------------------ */
/* Opaque fields                                                        */
/* ------------------------------------------------------------------ */

static int encode_opaque(struct wk_encode_op *ops, uint32_t n, uint8_t *command, uint32_t cap, const uint8_t *opaque,
                         uint32_t opaque_length, struct wk_encode_render *r)
{
    memset(r, 0, sizeof *r);
    r->ops = ops;
    r->op_count = n;
    r->list_length = 2;
    r->command = command;
    r->command_cap = cap;
    r->opaque = opaque;
    r->opaque_length = opaque_length;
    r->opaque_used = 0xFFFFFFFFu; /* the encoder must say, not leave what was there */
    return og_encoder.render(NULL, r);
}

/* Bytes 0x01, 0x02, ...: field k (from 0) is 4k+1 .. 4k+4, byte 0 first. */
static uint32_t field(uint32_t k)
{
    uint32_t b = 4 * k + 1;
    return b | (b + 1) << 8 | (b + 2) << 16 | (b + 3) << 24;
}

static const struct wk_encode_op opaque_ops[3] = {
    { .op = WK_USER_OP_FILL, .dst = { 1, 0x40 }, .size = 256, .value = 0xCAFEF00D },
    { .op = WK_USER_OP_COPY, .src = { 0, 8 }, .dst = { 1, 0x100 }, .size = 64 },
    { .op = WK_USER_OP_NOP },
};

/* With no bytes (a conformance case), every opaque field is 0 and none
 * is taken; a non-NULL pointer with a length of 0 is no bytes too. */
static void test_opaque_none_is_zero(void **state)
{
    (void)state;
    uint8_t command[512], bytes[64];
    memset(bytes, 0xEE, sizeof bytes);
    struct wk_encode_op ops[3];
    memcpy(ops, opaque_ops, sizeof ops);
    struct wk_encode_render r;
    for (int pass = 0; pass < 2; pass++) {
        memset(command, 0xAA, sizeof command);
        assert_int_equal(encode_opaque(ops, 3, command, sizeof command, pass ? bytes : NULL, 0, &r), WK_ENCODE_OK);
        assert_int_equal(r.opaque_used, 0);
        struct og_umd_record rec;
        record_at(command, 0, &rec);
        assert_int_equal(rec.reserved, 0);
        assert_int_equal(rec.src_index, 0);
        assert_int_equal(rec.src_offset, 0);
        record_at(command, 1, &rec);
        assert_int_equal(rec.reserved, 0);
        assert_int_equal(rec.value, 0);
        record_at(command, 2, &rec);
        assert_int_equal(rec.op, OG_UMD_NOP);
        assert_int_equal(rec.reserved | rec.size | rec.value | rec.dst_index | rec.dst_offset, 0);
        assert_int_equal(rec.src_index | rec.src_offset, 0);
    }
}

/* More bytes than fields: every opaque field takes 4, in record order
 * (reserved first, then the fields the op leaves unset), the said fields
 * are untouched, and exactly the bytes the fields hold are taken. */
static void test_opaque_fills_every_field_in_order(void **state)
{
    (void)state;
    uint8_t command[512], bytes[64];
    for (uint32_t i = 0; i < sizeof bytes; i++) {
        bytes[i] = (uint8_t)(i + 1);
    }
    struct wk_encode_op ops[3];
    memcpy(ops, opaque_ops, sizeof ops);
    struct wk_encode_render r;
    assert_int_equal(encode_opaque(ops, 3, command, sizeof command, bytes, sizeof bytes, &r), WK_ENCODE_OK);
    /* FILL: reserved, src_index, src_offset; COPY: reserved, value; NOP:
     * reserved and its six operand words: 12 fields. */
    assert_int_equal(r.opaque_used, 12 * 4);
    assert_int_equal(get32(command), OG_UMD_MAGIC);
    assert_int_equal(get32(command + 4), 3);
    struct og_umd_record rec;
    record_at(command, 0, &rec);
    assert_int_equal(rec.op, OG_UMD_FILL);
    assert_int_equal(rec.reserved, field(0));
    assert_int_equal(rec.src_index, field(1));
    assert_int_equal(rec.src_offset, field(2));
    assert_int_equal(rec.size, 256);
    assert_int_equal(rec.value, 0xCAFEF00D);
    assert_int_equal(rec.dst_index, 1);
    assert_int_equal(rec.dst_offset, 0x40);
    record_at(command, 1, &rec);
    assert_int_equal(rec.op, OG_UMD_COPY);
    assert_int_equal(rec.reserved, field(3));
    assert_int_equal(rec.value, field(4));
    assert_int_equal(rec.size, 64);
    assert_int_equal(rec.src_index, 0);
    assert_int_equal(rec.src_offset, 8);
    assert_int_equal(rec.dst_index, 1);
    assert_int_equal(rec.dst_offset, 0x100);
    record_at(command, 2, &rec);
    assert_int_equal(rec.op, OG_UMD_NOP);
    assert_int_equal(rec.reserved, field(5));
    assert_int_equal(rec.size, field(6));
    assert_int_equal(rec.value, field(7));
    assert_int_equal(rec.dst_index, field(8));
    assert_int_equal(rec.dst_offset, field(9));
    assert_int_equal(rec.src_index, field(10));
    assert_int_equal(rec.src_offset, field(11));
}

/* Fewer bytes than fields: a field takes what is left (the rest 0), the
 * fields after it are 0, and no byte past opaque_length is read or
 * counted (the bytes after it are 0xEE, which would show). */
static void test_opaque_short_bytes_are_not_overrun(void **state)
{
    (void)state;
    uint8_t command[512], bytes[64];
    memset(bytes, 0xEE, sizeof bytes);
    for (uint32_t i = 0; i < 6; i++) {
        bytes[i] = (uint8_t)(i + 1);
    }
    struct wk_encode_op ops[3];
    memcpy(ops, opaque_ops, sizeof ops);
    struct wk_encode_render r;
    assert_int_equal(encode_opaque(ops, 3, command, sizeof command, bytes, 6, &r), WK_ENCODE_OK);
    assert_int_equal(r.opaque_used, 6);
    struct og_umd_record rec;
    record_at(command, 0, &rec);
    assert_int_equal(rec.reserved, 0x04030201u);
    assert_int_equal(rec.src_index, 0x0605u);
    assert_int_equal(rec.src_offset, 0);
    record_at(command, 1, &rec);
    assert_int_equal(rec.reserved, 0);
    assert_int_equal(rec.value, 0);
    record_at(command, 2, &rec);
    assert_int_equal(rec.reserved | rec.size | rec.value | rec.dst_index | rec.dst_offset, 0);
    assert_int_equal(rec.src_index | rec.src_offset, 0);

    /* Exactly as many bytes as fields: all taken, none more. */
    for (uint32_t i = 0; i < 48; i++) {
        bytes[i] = (uint8_t)(i + 1);
    }
    assert_int_equal(encode_opaque(ops, 3, command, sizeof command, bytes, 48, &r), WK_ENCODE_OK);
    assert_int_equal(r.opaque_used, 48);
    record_at(command, 2, &rec);
    assert_int_equal(rec.src_offset, field(11));
}

/* The lowered operations: a WRITE32 is a FILL (reserved, src_index,
 * src_offset), each BLIT row a COPY (reserved, value). */
static void test_opaque_of_lowered_operations(void **state)
{
    (void)state;
    uint8_t command[512], bytes[64];
    for (uint32_t i = 0; i < sizeof bytes; i++) {
        bytes[i] = (uint8_t)(i + 1);
    }
    struct wk_encode_op ops[2] = {
        { .op = WK_USER_OP_WRITE32, .dst = { 1, 0x20 }, .value = 0x01020304 },
        { .op = WK_USER_OP_BLIT, .src = { 0, 0 }, .dst = { 1, 16 }, .width = 8, .height = 2, .src_pitch = 100,
          .dst_pitch = 200 },
    };
    struct wk_encode_render r;
    assert_int_equal(encode_opaque(ops, 2, command, sizeof command, bytes, sizeof bytes, &r), WK_ENCODE_OK);
    assert_int_equal(r.opaque_used, (3 + 2 + 2) * 4);
    struct og_umd_record rec;
    record_at(command, 0, &rec);
    assert_int_equal(rec.reserved, field(0));
    assert_int_equal(rec.src_index, field(1));
    assert_int_equal(rec.src_offset, field(2));
    assert_int_equal(rec.value, 0x01020304);
    assert_int_equal(rec.size, 4);
    for (uint32_t row = 0; row < 2; row++) {
        record_at(command, 1 + row, &rec);
        assert_int_equal(rec.op, OG_UMD_COPY);
        assert_int_equal(rec.reserved, field(3 + 2 * row));
        assert_int_equal(rec.value, field(4 + 2 * row));
        assert_int_equal(rec.src_offset, row * 100);
        assert_int_equal(rec.dst_offset, 16 + row * 200);
    }
}

/* A skip encodes nothing, so it takes no byte. */
static void test_opaque_skip_takes_none(void **state)
{
    (void)state;
    uint8_t command[512], bytes[64];
    memset(bytes, 0x5A, sizeof bytes);
    struct wk_encode_op ops[2] = { { .op = WK_USER_OP_NOP }, { .op = WK_USER_OP_COPY, .size = 0 } };
    struct wk_encode_render r;
    assert_int_equal(encode_opaque(ops, 2, command, sizeof command, bytes, sizeof bytes, &r), WK_ENCODE_SKIP);
    assert_int_equal(r.skipped_op, 1);
    assert_int_equal(r.opaque_used, 0);
}

/* ------------------------------------------------------------------ */
/* The disassembler                                                     */
/* ------------------------------------------------------------------ */

struct lines {
    char text[16][160];
    int n;
};

static void keep_line(void *user, const char *line)
{
    struct lines *l = user;
    if (l->n < 16) {
        snprintf(l->text[l->n++], sizeof l->text[0], "%s", line);
    }
}

static void test_disassembly(void **state)
{
    (void)state;
    struct ogt_buf b = { .used = 0 };
    struct lines l = { .n = 0 };
    ogt_fill(&b, 0x1000001000ull, 4096, 0xDEADBEEFu);
    ogt_page(&b, OG_MAP_PAGE, 2, 7, 0x10012000ull);
    ogt_record(&b, OG_GART_FLUSH, 0, 0, 2);
    ogt_fence(&b, 0x1000000040ull, 5);
    ogt_record(&b, OG_SRC, 0x1000, 0, 0);
    ogt_record(&b, 0x1F, 0, 0, 0);
    assert_int_equal(og_disasm.list(NULL, b.bytes, b.used, 0, keep_line, &l), 7);
    assert_int_equal(l.n, 8);
    assert_string_equal(l.text[0], "0x0000: PATTERN 0xdeadbeef");
    assert_string_equal(l.text[1], "0x0010: FILL dst=0x1000001000 bytes=4096");
    assert_string_equal(l.text[2], "0x0020: MAP_PAGE seg=2 page=7 frame=0x10012000");
    assert_string_equal(l.text[3], "0x0030: GART_FLUSH seg=2");
    assert_string_equal(l.text[4], "0x0040: FENCE_VALUE 0x5");
    assert_string_equal(l.text[5], "0x0050: FENCE addr=0x1000000040");
    assert_string_equal(l.text[6], "0x0060: SRC addr=<unpatched>");
    assert_string_equal(l.text[7], "0x0070: <DECODE: unknown op 0x1f, 16 bytes left>");
    l.n = 0;
    assert_int_equal(og_disasm.list(NULL, b.bytes, 20, 0, keep_line, &l), 1);
    assert_string_equal(l.text[1], "0x0010: <DECODE: 4 bytes left, a record is 16>");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_binding_object),
        cmocka_unit_test(test_create_refuses_a_short_host),
        cmocka_unit_test(test_encodes_fill_copy_nop),
        cmocka_unit_test(test_lowers_write32_and_blit),
        cmocka_unit_test(test_skips_what_the_format_cannot_say),
        cmocka_unit_test(test_allocations_left_to_the_kit),
        cmocka_unit_test(test_opaque_none_is_zero),
        cmocka_unit_test(test_opaque_fills_every_field_in_order),
        cmocka_unit_test(test_opaque_short_bytes_are_not_overrun),
        cmocka_unit_test(test_opaque_of_lowered_operations),
        cmocka_unit_test(test_opaque_skip_takes_none),
        cmocka_unit_test(test_disassembly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
