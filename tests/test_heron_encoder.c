/* SPDX-License-Identifier: MIT */
/*
 * tests/test_heron_encoder.c - the Heron binding object
 * (examples/gpus/heron/binding.c), its UMD encoder (encoder.c: the kit's
 * abstract operations as Heron's UMD stream, read back here with the
 * driver's own heron_umd.h) and its disassembler (disasm.c), line by line
 * on every packet kind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "heron_test_util.h"

/* ------------------------------------------------------------------ */
/* The binding object                                                   */
/* ------------------------------------------------------------------ */

static void test_binding_header_and_parts(void **state)
{
    (void)state;
    assert_int_equal(wk_binding.magic, WK_BINDING_MAGIC);
    assert_int_equal(wk_binding.abi, WK_BINDING_ABI_VERSION);
    assert_int_equal(wk_binding.size, sizeof(struct wk_binding));
    assert_int_equal(wk_binding.flags, 0);
    assert_string_equal(wk_binding.name, "heron");
    assert_string_equal(wk_binding.version, "1.0");
    assert_ptr_equal(wk_binding.memory, &heron_memory);
    assert_non_null(wk_binding.processor);
    assert_non_null(wk_binding.encoder);
    assert_non_null(wk_binding.registers);
    assert_non_null(wk_binding.disasm);
    assert_int_equal(wk_binding.bar_count, 2);
    const struct wk_binding_bar *regs = &wk_binding.bars[HERON_BAR_REGISTERS];
    assert_int_equal(regs->kind, WK_BAR_REGISTERS);
    assert_int_equal(regs->physical, HERON_MMIO_PHYSICAL_BASE);
    assert_int_equal(regs->size, HERON_MMIO_SIZE);
    const struct wk_binding_bar *vram = &wk_binding.bars[HERON_BAR_LOCAL_MEMORY];
    assert_int_equal(vram->kind, WK_BAR_SEGMENT);
    assert_int_equal(vram->segment_id, HERON_SEGMENT_LOCAL_VISIBLE);
    assert_int_equal(vram->physical, HERON_LOCAL_VISIBLE_CPU_BAR);
    assert_int_equal(vram->size, HERON_LOCAL_VISIBLE_SIZE);
    assert_int_equal(wk_binding.processor->size, sizeof(struct wk_processor_ops));
    assert_int_equal(wk_binding.registers->size, sizeof(struct wk_registers_ops));
    assert_int_equal(wk_binding.encoder->size, sizeof(struct wk_encoder_ops));
    assert_int_equal(wk_binding.disasm->size, sizeof(struct wk_disasm_ops));
}

/* create() refuses a host it cannot use, and takes one without a log. */
static void test_create_checks_its_host(void **state)
{
    (void)state;
    struct wk_mem *mem = fake_mem_create(&heron_memory);
    struct wk_mem_ops short_ops = *fake_mem_ops();
    struct wk_binding_host host = { .size = sizeof host, .abi = WK_BINDING_ABI_VERSION, .mem = mem,
                                    .mem_ops = fake_mem_ops() };

    assert_null(wk_binding.create(NULL));
    short_ops.size = offsetof(struct wk_mem_ops, layout);
    host.mem_ops = &short_ops;
    assert_null(wk_binding.create(&host));
    short_ops = *fake_mem_ops();
    short_ops.load = NULL;
    assert_null(wk_binding.create(&host));
    host.mem_ops = fake_mem_ops();
    host.mem = NULL;
    assert_null(wk_binding.create(&host));
    host.mem = mem;
    host.size = offsetof(struct wk_binding_host, kit); /* an older host: no log sink */
    void *self = wk_binding.create(&host);
    assert_non_null(self);
    wk_binding.reset(self);
    wk_binding.destroy(self);
    wk_binding.destroy(NULL);
    fake_mem_destroy(mem);
}

/* ------------------------------------------------------------------ */
/* The encoder                                                          */
/* ------------------------------------------------------------------ */

static const uint64_t list_size[3] = { 0x10000, 0x2000, 0x1000 };

static int encode(struct wk_encode_render *r, const struct wk_encode_op *ops, uint32_t count, uint8_t *command,
                  uint32_t cap)
{
    memset(r, 0, sizeof *r);
    r->ops = ops;
    r->op_count = count;
    r->list_length = 3;
    r->list_size = list_size;
    r->command = command;
    r->command_cap = cap;
    return wk_binding.encoder->render(NULL, r);
}

static void test_encoder_stream_parses_back(void **state)
{
    (void)state;
    const struct wk_encode_op ops[3] = {
        { .op = WK_USER_OP_FILL, .dst = { 1, 0x40 }, .size = 0x800, .value = 0xCAFEF00D },
        { .op = WK_USER_OP_COPY, .src = { 0, 0x100 }, .dst = { 2, 0x8 }, .size = 0x10 },
        { .op = WK_USER_OP_NOP },
    };
    uint8_t command[256];
    struct wk_encode_render r;
    HERON_UMD_HEADER h;
    HERON_UMD_COMMAND c[3];

    assert_int_equal(wk_binding.encoder->ops_supported, (1u << WK_USER_OP_NOP) | (1u << WK_USER_OP_COPY) |
                                                            (1u << WK_USER_OP_FILL) | (1u << WK_USER_OP_WRITE32) |
                                                            (1u << WK_USER_OP_BLIT));
    assert_int_equal(encode(&r, ops, 3, command, sizeof command), WK_ENCODE_OK);
    assert_int_equal(r.command_length, sizeof h + 3 * sizeof c[0]);
    assert_int_equal(r.patch_length, 0); /* Heron's Render writes its own patch locations */
    memcpy(&h, command, sizeof h);
    memcpy(c, command + sizeof h, sizeof c);
    assert_int_equal(h.Signature, HERON_UMD_SIGNATURE);
    assert_int_equal(h.Version, HERON_UMD_VERSION);
    assert_int_equal(h.CommandCount, 3);
    assert_int_equal(h.Reserved, 0);
    assert_int_equal(c[0].Opcode, HeronUmdFill);
    assert_int_equal(c[0].Bytes, 0x800);
    assert_int_equal(c[0].Pattern, 0xCAFEF00D);
    assert_int_equal(c[0].Destination.AllocationIndex, 1);
    assert_int_equal(c[0].Destination.Offset, 0x40);
    assert_int_equal(c[1].Opcode, HeronUmdCopy);
    assert_int_equal(c[1].Bytes, 0x10);
    assert_int_equal(c[1].Source.AllocationIndex, 0);
    assert_int_equal(c[1].Source.Offset, 0x100);
    assert_int_equal(c[1].Destination.AllocationIndex, 2);
    assert_int_equal(c[1].Destination.Offset, 0x8);
    assert_int_equal(c[2].Opcode, HeronUmdNop);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(c[i].Reserved, 0);
    }
    /* An empty render is a header alone; a wrong reference goes through. */
    assert_int_equal(encode(&r, NULL, 0, command, sizeof command), WK_ENCODE_OK);
    assert_int_equal(r.command_length, sizeof h);
    const struct wk_encode_op wrong = { .op = WK_USER_OP_FILL, .dst = { 9, 0xFFFFFF00 }, .size = 0x200 };
    assert_int_equal(encode(&r, &wrong, 1, command, sizeof command), WK_ENCODE_OK);
    memcpy(c, command + sizeof h, sizeof c[0]);
    assert_int_equal(c[0].Destination.AllocationIndex, 9);
    assert_int_equal(c[0].Destination.Offset, 0xFFFFFF00);
}

static void expect_skip(const struct wk_encode_op *ops, uint32_t count, uint32_t cap, uint32_t skipped,
                        const char *why)
{
    uint8_t command[256];
    struct wk_encode_render r;
    assert_int_equal(encode(&r, ops, count, command, cap), WK_ENCODE_SKIP);
    assert_int_equal(r.skipped_op, skipped);
    assert_non_null(strstr(r.why, why));
    assert_int_equal(r.command_length, 0);
}

/* WRITE32 is a 4-byte FILL of the value; a BLIT one COPY per row, in row
 * order, each row at its pitch: the same bytes, the same references. */
static void test_encoder_lowers_write32_and_blit(void **state)
{
    (void)state;
    const struct wk_encode_op ops[2] = {
        { .op = WK_USER_OP_WRITE32, .dst = { 1, 0x44 }, .value = 0x11223344 },
        { .op = WK_USER_OP_BLIT, .src = { 0, 0x10 }, .dst = { 2, 0x20 }, .width = 8, .height = 3, .src_pitch = 0x100,
          .dst_pitch = 0x40 },
    };
    uint8_t command[256];
    struct wk_encode_render r;
    HERON_UMD_HEADER h;
    HERON_UMD_COMMAND c[4];
    assert_int_equal(encode(&r, ops, 2, command, sizeof command), WK_ENCODE_OK);
    assert_int_equal(r.command_length, sizeof h + 4 * sizeof c[0]);
    memcpy(&h, command, sizeof h);
    memcpy(c, command + sizeof h, sizeof c);
    assert_int_equal(h.CommandCount, 4);
    assert_int_equal(c[0].Opcode, HeronUmdFill);
    assert_int_equal(c[0].Bytes, 4);
    assert_int_equal(c[0].Pattern, 0x11223344);
    assert_int_equal(c[0].Destination.AllocationIndex, 1);
    assert_int_equal(c[0].Destination.Offset, 0x44);
    for (uint32_t row = 0; row < 3; row++) {
        assert_int_equal(c[1 + row].Opcode, HeronUmdCopy);
        assert_int_equal(c[1 + row].Bytes, 8);
        assert_int_equal(c[1 + row].Source.AllocationIndex, 0);
        assert_int_equal(c[1 + row].Source.Offset, 0x10 + row * 0x100);
        assert_int_equal(c[1 + row].Destination.AllocationIndex, 2);
        assert_int_equal(c[1 + row].Destination.Offset, 0x20 + row * 0x40);
    }
}

static void test_encoder_skips_what_heron_cannot_say(void **state)
{
    (void)state;
    const struct wk_encode_op ops[] = {
        { .op = WK_USER_OP_NOP },
        { .op = WK_USER_OP_BLIT, .width = 4, .height = 0 },
        { .op = WK_USER_OP_BLIT, .width = 0, .height = 4 },
        { .op = WK_USER_OP_FILL, .size = 0 },
        { .op = WK_USER_OP_COPY, .size = HERON_MAX_TRANSFER_BYTES + 1 },
        { .op = WK_USER_OP_COPY, .size = HERON_MAX_TRANSFER_BYTES },
    };
    expect_skip(&ops[0], 2, 256, 1, "empty BLIT");
    expect_skip(&ops[2], 1, 256, 0, "empty BLIT");
    expect_skip(&ops[3], 1, 256, 0, "0 bytes");
    expect_skip(&ops[4], 1, 256, 0, "1 MiB");
    /* Exactly 1 MiB is Heron's largest transfer: encoded. */
    uint8_t command[256];
    struct wk_encode_render r;
    assert_int_equal(encode(&r, &ops[5], 1, command, sizeof command), WK_ENCODE_OK);
}

static void test_encoder_room(void **state)
{
    (void)state;
    const struct wk_encode_op nops[4] = { { .op = WK_USER_OP_NOP }, { .op = WK_USER_OP_NOP },
                                          { .op = WK_USER_OP_NOP }, { .op = WK_USER_OP_NOP } };
    uint8_t command[256];
    struct wk_encode_render r;
    assert_int_equal(encode(&r, nops, 4, command, 16 + 4 * 32), WK_ENCODE_OK);
    expect_skip(nops, 4, 16 + 3 * 32 + 31, 3, "the stream needs 144 bytes, more than the 143 of room for pCommand");
    expect_skip(nops, 4, 8, 0, "more than the 8 of room for pCommand");
}

/* The opaque bytes fill the header's Reserved word, then each command's,
 * 4 bytes each, byte 0 first; a short tail gives a partial word, and what
 * has no bytes left stays 0. opaque_used says how many were taken. */
static void test_encoder_opaque_fields(void **state)
{
    (void)state;
    const struct wk_encode_op ops[2] = {
        { .op = WK_USER_OP_NOP },
        { .op = WK_USER_OP_BLIT, .src = { 0, 0 }, .dst = { 1, 0 }, .width = 8, .height = 2, .src_pitch = 16,
          .dst_pitch = 16 },
    };
    const uint8_t opaque[10] = { 0x01, 0x02, 0x03, 0x04, 0x11, 0x12, 0x13, 0x14, 0x21, 0x22 };
    uint8_t command[256];
    struct wk_encode_render r;
    HERON_UMD_HEADER h;
    HERON_UMD_COMMAND c[3];

    memset(&r, 0, sizeof r);
    r.ops = ops;
    r.op_count = 2;
    r.list_length = 3;
    r.list_size = list_size;
    r.command = command;
    r.command_cap = sizeof command;
    r.opaque = opaque;
    r.opaque_length = sizeof opaque;
    assert_int_equal(wk_binding.encoder->render(NULL, &r), WK_ENCODE_OK);
    assert_int_equal(r.opaque_used, sizeof opaque);
    memcpy(&h, command, sizeof h);
    memcpy(c, command + sizeof h, sizeof c);
    assert_int_equal(h.CommandCount, 3); /* NOP, and the BLIT's two rows */
    assert_int_equal(h.Reserved, 0x04030201u);
    assert_int_equal(c[0].Reserved, 0x14131211u);
    assert_int_equal(c[1].Reserved, 0x2221u);
    assert_int_equal(c[2].Reserved, 0);
    assert_int_equal(c[2].Destination.Offset, 16); /* the operations are encoded as without */

    /* More bytes than fields: only 4 per field are taken. */
    const uint8_t many[64] = { 0 };
    r.opaque = many;
    r.opaque_length = sizeof many;
    assert_int_equal(wk_binding.encoder->render(NULL, &r), WK_ENCODE_OK);
    assert_int_equal(r.opaque_used, 4 * 4);

    /* None: the stream Heron's UMD writes. */
    r.opaque = NULL;
    r.opaque_length = 0;
    assert_int_equal(wk_binding.encoder->render(NULL, &r), WK_ENCODE_OK);
    assert_int_equal(r.opaque_used, 0);
    memcpy(&h, command, sizeof h);
    assert_int_equal(h.Reserved, 0);
}

/* Heron's miniport reads the kit's WK_ALLOCATION_REQUEST: the binding
 * encodes no allocation, so the kit hands the request as it is and runs
 * the checks of its format (a copy made here hid them: the kit takes an
 * allocation encoder to mean a format of the driver's own). */
static void test_encoder_leaves_allocations_to_the_kit(void **state)
{
    (void)state;
    assert_non_null(wk_binding.encoder);
    assert_non_null(wk_binding.encoder->render);
    assert_null(wk_binding.encoder->allocation);
}

/* ------------------------------------------------------------------ */
/* The disassembler                                                     */
/* ------------------------------------------------------------------ */

struct lines {
    char text[16][700];
    int count;
};

static void collect(void *user, const char *line)
{
    struct lines *l = user;
    if (l->count < 16) {
        snprintf(l->text[l->count], sizeof l->text[0], "%s", line);
    }
    l->count++;
}

static void test_disasm_every_packet(void **state)
{
    (void)state;
    struct ht_buf b = { .used = 0 };
    uint64_t pfns[10];
    struct lines l = { .count = 0 };
    for (int i = 0; i < 10; i++) {
        pfns[i] = HT_SYS_PFN + (uint64_t)i;
    }
    ht_nop(&b);
    ht_fill(&b, HT_LOCAL, 4096, 0xDEADBEEF);
    ht_copy(&b, HT_SYS + 0x10, HT_HIDDEN, 64);
    ht_gart_write(&b, 3, 7, 2, pfns);
    ht_gart_write(&b, 3, 0, 10, pfns);
    ht_gart_clear(&b, 3, 7, 2, HT_SYS_PFN + 99);
    ht_gart_invalidate(&b, 3);
    ht_fence_write(&b, HT_SYS + 0x40, 42);
    ht_cache_flush(&b, HT_LOCAL, HERON_CACHE_FLUSH_WRITE_BACK);
    ht_cache_flush(&b, HT_LOCAL, 0);
    uint32_t bad = b.used;
    ht_dword(&b, 0x0000031F);
    ht_dword(&b, 0);
    assert_int_equal(wk_binding.disasm->list(NULL, b.bytes, b.used, 0, collect, &l), 10);
    assert_int_equal(l.count, 11);
    assert_string_equal(l.text[0], "0x0000: NOP");
    assert_string_equal(l.text[1], "0x0004: FILL dst=0x100000000 bytes=4096 pattern=0xdeadbeef");
    assert_string_equal(l.text[2], "0x0018: COPY src=0x300000010 dst=0x108000000 bytes=64");
    assert_string_equal(l.text[3], "0x0030: GART_WRITE seg=3 first=7 count=2 pfns=0x300000,0x300001");
    assert_string_equal(l.text[4], "0x0050: GART_WRITE seg=3 first=0 count=10 pfns=0x300000,0x300001,0x300002,"
                                   "0x300003,0x300004,0x300005,0x300006,0x300007 (+2 more)");
    assert_string_equal(l.text[5], "0x00b0: GART_CLEAR seg=3 first=7 count=2 dummy_pfn=0x300063");
    assert_string_equal(l.text[6], "0x00c8: GART_INVALIDATE seg=3");
    assert_string_equal(l.text[7], "0x00d0: FENCE_WRITE addr=0x300000040 value=0x2a");
    assert_string_equal(l.text[8], "0x00e4: CACHE_FLUSH addr=0x100000000 writeback");
    assert_string_equal(l.text[9], "0x00f0: CACHE_FLUSH addr=0x100000000");
    char want[96];
    snprintf(want, sizeof want, "0x%04x: <DECODE: unknown opcode 0x1f, 8 bytes left>", bad);
    assert_string_equal(l.text[10], want);
}

static void test_disasm_garbage_and_start(void **state)
{
    (void)state;
    struct ht_buf b = { .used = 0 };
    struct lines l = { .count = 0 };

    ht_dword(&b, 0xFFFFFFFF); /* before the start: never read */
    ht_fill(&b, HT_LOCAL, HERON_MAX_TRANSFER_BYTES + 1, 0);
    assert_int_equal(wk_binding.disasm->list(NULL, b.bytes, b.used, 4, collect, &l), 0);
    assert_string_equal(l.text[0], "0x0004: <OPERAND: FILL: transfer over the engine's 1 MiB, 20 bytes left>");
    l.count = 0;
    assert_int_equal(wk_binding.disasm->list(NULL, b.bytes, 22, 4, collect, &l), 0);
    assert_string_equal(l.text[0], "0x0004: <DECODE: FILL: packet runs past the end of the buffer, 18 bytes left>");
    l.count = 0;
    assert_int_equal(wk_binding.disasm->list(NULL, b.bytes, 6, 4, collect, &l), 0);
    assert_string_equal(l.text[0], "0x0004: <DECODE: fewer than 4 bytes left for a header, 2 bytes left>");
    l.count = 0;
    assert_int_equal(wk_binding.disasm->list(NULL, b.bytes, 4, 4, collect, &l), 0);
    assert_int_equal(l.count, 0);
    assert_int_equal(wk_binding.disasm->list(NULL, NULL, 4, 0, collect, &l), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binding_header_and_parts),
        cmocka_unit_test(test_create_checks_its_host),
        cmocka_unit_test(test_encoder_stream_parses_back),
        cmocka_unit_test(test_encoder_lowers_write32_and_blit),
        cmocka_unit_test(test_encoder_skips_what_heron_cannot_say),
        cmocka_unit_test(test_encoder_room),
        cmocka_unit_test(test_encoder_opaque_fields),
        cmocka_unit_test(test_encoder_leaves_allocations_to_the_kit),
        cmocka_unit_test(test_disasm_every_packet),
        cmocka_unit_test(test_disasm_garbage_and_start),
    };
    return cmocka_run_group_tests_name("heron.encoder", tests, NULL, NULL);
}
