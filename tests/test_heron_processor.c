/* SPDX-License-Identifier: MIT */
/*
 * tests/test_heron_processor.c - Heron's command processor
 * (examples/gpus/heron/processor.c) on a memory system reached only
 * through wddmkit/processor.h (the fake of heron_fake_mem.h, with Heron's
 * real layout).
 *
 * Each packet's effect; each fault class with the packet's offset and
 * opcode, and nothing changed by a refused packet; the budget; the patch
 * slot read back as the driver's Patch writes it; and 100,000 seeded
 * random buffers (WK_TEST_SEED replays one run) that must each end,
 * with the disassembler agreeing on every packet boundary.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_test_util.h"
#include "heron_test_util.h"

static int setup(void **state)
{
    struct ht_gpu *g = test_malloc(sizeof *g);
    ht_gpu_init(g);
    *state = g;
    return 0;
}

static int teardown(void **state)
{
    ht_gpu_fini(*state);
    test_free(*state);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The memory map                                                       */
/* ------------------------------------------------------------------ */

/* What the driver reports in QUERYSEGMENT (query.c), region by region,
 * and a system window the 40-bit engine reaches, clear of them. */
static void test_memory_is_the_drivers(void **state)
{
    (void)state;
    const struct wk_gpu_desc *d = wk_binding.memory;
    assert_ptr_equal(d, &heron_memory);
    assert_int_equal(d->segment_count, 3);
    const struct { uint32_t kind; uint64_t base, size; } want[3] = {
        { WK_GPU_SEGMENT_MEMORY, 0x100000000ull, 128ull << 20 },
        { WK_GPU_SEGMENT_MEMORY, 0x108000000ull, 64ull << 20 },
        { WK_GPU_SEGMENT_APERTURE, 0x200000000ull, 32ull << 20 },
    };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(d->segments[i].kind, want[i].kind);
        assert_int_equal(d->segments[i].base, want[i].base);
        assert_int_equal(d->segments[i].size, want[i].size);
        assert_true(d->segments[i].bank_count <= 1);
    }
    uint64_t sys_lo = d->sysmem_first_pfn << 12, sys_hi = (d->sysmem_first_pfn + d->sysmem_pages) << 12;
    assert_int_equal(sys_hi - sys_lo, 64ull << 20);
    assert_true(sys_hi - 1 <= HERON_HIGHEST_BUS_ADDRESS);
    for (int i = 0; i < 3; i++) {
        assert_true(sys_hi <= d->segments[i].base || sys_lo >= d->segments[i].base + d->segments[i].size);
    }
    assert_int_equal(d->max_call_depth, 0);
    assert_int_equal(d->max_commands, 0);
    assert_int_equal(d->max_bytes_moved, 0);
    assert_int_equal(d->max_dma_length, 0);
    assert_int_equal(d->max_resident_pages, 0);
}

/* ------------------------------------------------------------------ */
/* Every packet's effect                                                */
/* ------------------------------------------------------------------ */

static void test_fill(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint8_t zero[1] = { 0 };

    ht_fill(&b, HT_LOCAL + 0x10, 4096, 0xDEADBEEF);
    ht_fill(&b, HT_HIDDEN + 3, 5, 0x44332211);
    assert_true(ht_no_fault(ht_run(g, &b, &f), &f));
    assert_true(ht_filled_with(g->mem, HT_LOCAL + 0x10, 4096, 0xDEADBEEF));
    assert_true(ht_bytes_are(g->mem, HT_LOCAL + 0xF, 1, zero));
    assert_true(ht_bytes_are(g->mem, HT_LOCAL + 0x10 + 4096, 1, zero));
    assert_true(ht_filled_with(g->mem, HT_HIDDEN + 3, 5, 0x44332211)); /* byte 0 of the pattern at dst */
    assert_int_equal(g->spent_commands, 2);
    assert_int_equal(g->spent_bytes, 4096 + 5);
}

static void test_copy(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint8_t src[300], moved[300];

    for (int i = 0; i < 300; i++) {
        src[i] = (uint8_t)(i * 7 + 1);
    }
    assert_int_equal(fake_mem_write(g->mem, HT_SYS + 0xFF0, src, sizeof src), 0); /* across a page */
    ht_copy(&b, HT_SYS + 0xFF0, HT_HIDDEN + 0x2000, sizeof src);
    /* Overlapping, destination above the source: memmove's result. */
    ht_copy(&b, HT_HIDDEN + 0x2000, HT_HIDDEN + 0x2010, sizeof src);
    assert_true(ht_no_fault(ht_run(g, &b, &f), &f));
    assert_true(ht_bytes_are(g->mem, HT_HIDDEN + 0x2000, 16, src));
    assert_true(ht_bytes_are(g->mem, HT_HIDDEN + 0x2010, sizeof src, src));
    memcpy(moved, src, sizeof moved);
    assert_int_equal(g->spent_bytes, 600);
}

static void test_gart_write_then_invalidate(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    const uint64_t pfns[2] = { HT_SYS_PFN + 5, HT_SYS_PFN + 9 };

    /* Written, not yet flushed: the TLB keeps the old (invalid) line, so
     * the GPU's access faults; the entries are written. */
    ht_gart_write(&b, HERON_SEGMENT_GART, 7, 2, pfns);
    uint32_t fill_at = ht_fill(&b, HT_GART + 7 * 4096, 8, 0x01020304);
    assert_true(ht_fault_is(ht_run(g, &b, &f), &f, WK_FAULT_MEMORY, HERON_FAULT_MEMORY, fill_at, HERON_OP_FILL));
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_UNMAPPED_APERTURE);
    assert_int_equal(f.fault_addr, HT_GART + 7 * 4096);
    assert_int_equal(fake_mem_pte(g->mem, HERON_SEGMENT_GART, 7), HT_SYS_PFN + 5);
    assert_int_equal(fake_mem_pte(g->mem, HERON_SEGMENT_GART, 8), HT_SYS_PFN + 9);
    assert_int_equal(fake_mem_tlb(g->mem, HERON_SEGMENT_GART, 7), UINT64_MAX);

    /* After GART_INVALIDATE the GPU translates through the new entries. */
    b.used = 0;
    ht_gart_invalidate(&b, HERON_SEGMENT_GART);
    ht_fill(&b, HT_GART + 8 * 4096 + 4, 8, 0xA0B0C0D0);
    assert_true(ht_no_fault(ht_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_flushes(g->mem), 1);
    assert_true(ht_filled_with(g->mem, (HT_SYS_PFN + 9) * 4096 + 4, 8, 0xA0B0C0D0));
    assert_int_equal(g->spent_commands, 2);
}

static void test_gart_clear_points_at_the_dummy_page(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    const uint64_t pfns[3] = { HT_SYS_PFN + 1, HT_SYS_PFN + 2, HT_SYS_PFN + 3 };

    ht_gart_write(&b, HERON_SEGMENT_GART, 100, 3, pfns);
    ht_gart_clear(&b, HERON_SEGMENT_GART, 100, 2, HT_SYS_PFN + 77);
    ht_gart_invalidate(&b, HERON_SEGMENT_GART);
    assert_true(ht_no_fault(ht_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_tlb(g->mem, HERON_SEGMENT_GART, 100), HT_SYS_PFN + 77);
    assert_int_equal(fake_mem_tlb(g->mem, HERON_SEGMENT_GART, 101), HT_SYS_PFN + 77);
    assert_int_equal(fake_mem_tlb(g->mem, HERON_SEGMENT_GART, 102), HT_SYS_PFN + 3);
    assert_int_equal(fake_mem_write_same_calls(g->mem), 1); /* an unmap, as the memory system counts it */

    /* A memory system of the table's first version (no gart_write_same):
     * the same effect through gart_write, 64 entries a call. */
    fake_mem_drop_write_same(g->mem);
    b.used = 0;
    ht_gart_clear(&b, HERON_SEGMENT_GART, 0, 200, HT_SYS_PFN + 78);
    ht_gart_invalidate(&b, HERON_SEGMENT_GART);
    assert_true(ht_no_fault(ht_run(g, &b, &f), &f));
    for (uint64_t page = 0; page < 200; page++) {
        assert_int_equal(fake_mem_tlb(g->mem, HERON_SEGMENT_GART, page), HT_SYS_PFN + 78);
    }
    assert_int_equal(fake_mem_tlb(g->mem, HERON_SEGMENT_GART, 200), UINT64_MAX);
    assert_int_equal(fake_mem_write_same_calls(g->mem), 1);
}

static void test_fence_write(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    const uint8_t le[8] = { 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 };

    ht_fence_write(&b, HT_SYS + 0x40, 0x1122334455667788ull);
    assert_true(ht_no_fault(ht_run(g, &b, &f), &f));
    assert_true(ht_bytes_are(g->mem, HT_SYS + 0x40, 8, le));
    assert_int_equal(g->fences, 1);
    assert_int_equal(g->fence_addr, HT_SYS + 0x40);
    assert_int_equal(g->fence_value, 0x1122334455667788ull);
    const struct heron_adapter *a = g->self; /* the register model's record */
    assert_int_equal(a->fence_value, 0x1122334455667788ull);
    assert_int_equal(a->fences_written, 1);
    assert_int_equal(g->spent_bytes, 8);
}

static void test_cache_flush_and_nop(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;

    ht_nop(&b);
    ht_cache_flush(&b, HT_LOCAL + 0x1000, HERON_CACHE_FLUSH_WRITE_BACK);
    ht_cache_flush(&b, HT_SYS, 0);
    ht_nop(&b);
    assert_true(ht_no_fault(ht_run(g, &b, &f), &f));
    assert_int_equal(g->spent_commands, 4);
    assert_int_equal(g->spent_bytes, 0);

    uint32_t at = ht_cache_flush(&b, HT_HOLE, 0);
    assert_true(ht_fault_is(ht_run(g, &b, &f), &f, WK_FAULT_MEMORY, HERON_FAULT_MEMORY, at, HERON_OP_CACHE_FLUSH));
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_BAD_ADDRESS);
    assert_int_equal(f.fault_addr, HT_HOLE);
}

/* An empty range runs nothing; a range can start anywhere in the buffer. */
static void test_ranges(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;

    ht_dword(&b, 0xFFFFFFFF); /* garbage before the range */
    uint32_t start = ht_fill(&b, HT_LOCAL, 4, 0x55AA55AA);
    assert_true(ht_no_fault(ht_run_range(g, b.bytes, 4, 4, &f), &f));
    assert_int_equal(g->spend_calls, 0);
    assert_true(ht_no_fault(ht_run_range(g, b.bytes, start, b.used, &f), &f));
    assert_true(ht_filled_with(g->mem, HT_LOCAL, 4, 0x55AA55AA));
}

/* ------------------------------------------------------------------ */
/* Faults                                                               */
/* ------------------------------------------------------------------ */

static void expect_halt(struct ht_gpu *g, const struct ht_buf *b, uint32_t cls, uint32_t code, uint32_t offset,
                         uint32_t opcode)
{
    struct wk_exec_fault f;
    assert_true(ht_fault_is(ht_run(g, b, &f), &f, cls, code, offset, opcode));
}

static void test_decode_faults(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b;

    b.used = 0; ht_nop(&b); ht_dword(&b, 0x00000109);                   /* opcode 9, 1 dword */
    expect_halt(g, &b, WK_FAULT_DECODE, HERON_FAULT_UNKNOWN_OPCODE, 4, 9);
    b.used = 0; ht_nop(&b); ht_dword(&b, 0x00000001);                   /* FILL, length 0 */
    expect_halt(g, &b, WK_FAULT_DECODE, HERON_FAULT_ZERO_LENGTH, 4, HERON_OP_FILL);
    b.used = 0; ht_nop(&b); ht_fill(&b, HT_LOCAL, 4, 0); b.used -= 4;    /* cut by the end */
    expect_halt(g, &b, WK_FAULT_DECODE, HERON_FAULT_PAST_END, 4, HERON_OP_FILL);
    b.used = 0; ht_nop(&b); ht_nop(&b); b.used -= 2;                    /* 2 bytes of a header */
    expect_halt(g, &b, WK_FAULT_DECODE, HERON_FAULT_TRUNCATED_HEADER, 4, HERON_OPCODE_NONE);
    b.used = 0; ht_nop(&b); ht_dword(&b, 0x00000201);                   /* FILL of 2 dwords */
    ht_dword(&b, 0);
    expect_halt(g, &b, WK_FAULT_DECODE, HERON_FAULT_BAD_LENGTH, 4, HERON_OP_FILL);
    b.used = 0; ht_dword(&b, 0x00000200); ht_dword(&b, 0);               /* NOP of 2 dwords */
    expect_halt(g, &b, WK_FAULT_DECODE, HERON_FAULT_BAD_LENGTH, 0, HERON_OP_NOP);
    b.used = 0; ht_nop(&b); ht_gart_write(&b, 3, 0, 0, NULL);           /* count 1, no frame */
    b.bytes[4 + 12] = 1;
    expect_halt(g, &b, WK_FAULT_DECODE, HERON_FAULT_BAD_LENGTH, 4, HERON_OP_GART_WRITE);
}

static void test_operand_faults(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b;
    uint64_t pfns[65];

    for (int i = 0; i < 65; i++) {
        pfns[i] = HT_SYS_PFN + (uint64_t)i;
    }
    b.used = 0; ht_nop(&b); ht_copy(&b, HT_LOCAL, HT_HIDDEN, HERON_MAX_TRANSFER_BYTES + 1);
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_TRANSFER_TOO_LARGE, 4, HERON_OP_COPY);
    b.used = 0; ht_fill(&b, HT_LOCAL, 4, 0); b.bytes[2] = 1;             /* a FILL flag */
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_RESERVED_FLAGS, 0, HERON_OP_FILL);
    b.used = 0; ht_cache_flush(&b, HT_LOCAL, 2);                        /* not WRITE_BACK */
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_RESERVED_FLAGS, 0, HERON_OP_CACHE_FLUSH);
    b.used = 0; ht_nop(&b); ht_gart_invalidate(&b, HERON_SEGMENT_LOCAL_VISIBLE);
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_BAD_SEGMENT, 4, HERON_OP_GART_INVALIDATE);
    b.used = 0; ht_gart_write(&b, 0, 0, 1, pfns);
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_BAD_SEGMENT, 0, HERON_OP_GART_WRITE);
    b.used = 0; ht_gart_clear(&b, 4, 0, 1, HT_SYS_PFN);
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_BAD_SEGMENT, 0, HERON_OP_GART_CLEAR);
    b.used = 0; ht_gart_write(&b, HERON_SEGMENT_GART, 0, 65, pfns);
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_TOO_MANY_PAGES, 0, HERON_OP_GART_WRITE);
    b.used = 0; ht_gart_write(&b, HERON_SEGMENT_GART, 8191, 2, pfns);
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_PAGES_PAST_APERTURE, 0, HERON_OP_GART_WRITE);
    b.used = 0; ht_gart_clear(&b, HERON_SEGMENT_GART, 0xFFFFFFFF, 2, HT_SYS_PFN);
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_PAGES_PAST_APERTURE, 0, HERON_OP_GART_CLEAR);
    pfns[1] = 0;
    b.used = 0; ht_gart_write(&b, HERON_SEGMENT_GART, 0, 2, pfns);
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_PFN_OUTSIDE_SYSMEM, 0, HERON_OP_GART_WRITE);
    b.used = 0; ht_gart_clear(&b, HERON_SEGMENT_GART, 0, 2, UINT64_MAX); /* never "invalidate" */
    expect_halt(g, &b, WK_FAULT_OPERAND, HERON_FAULT_PFN_OUTSIDE_SYSMEM, 0, HERON_OP_GART_CLEAR);
    /* The refused GART packets wrote no entry. */
    assert_int_equal(fake_mem_pte(g->mem, HERON_SEGMENT_GART, 0), UINT64_MAX);
}

static void test_memory_faults_change_nothing(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint8_t zero[16] = { 0 };

    ht_nop(&b);
    uint32_t at = ht_fill(&b, HT_LOCAL + HERON_LOCAL_VISIBLE_SIZE - 8, 16, 0xFFFFFFFF); /* crosses the end */
    assert_true(ht_fault_is(ht_run(g, &b, &f), &f, WK_FAULT_MEMORY, HERON_FAULT_MEMORY, at, HERON_OP_FILL));
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_CROSSES_SEGMENT);
    assert_true(ht_bytes_are(g->mem, HT_LOCAL + HERON_LOCAL_VISIBLE_SIZE - 8, 8, zero));

    b.used = 0;
    at = ht_copy(&b, HT_HOLE, HT_LOCAL, 16);
    assert_true(ht_fault_is(ht_run(g, &b, &f), &f, WK_FAULT_MEMORY, HERON_FAULT_MEMORY, at, HERON_OP_COPY));
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_BAD_ADDRESS);
    assert_int_equal(f.fault_addr, HT_HOLE);

    b.used = 0;
    at = ht_fence_write(&b, HT_GART, 1); /* an unmapped aperture page */
    assert_true(ht_fault_is(ht_run(g, &b, &f), &f, WK_FAULT_MEMORY, HERON_FAULT_MEMORY, at, HERON_OP_FENCE_WRITE));
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_UNMAPPED_APERTURE);
    assert_int_equal(g->fences, 0); /* the kit hears of no fence that was not written */
}

/* spend() is asked before each packet's work; a -1 halts there. */
static void test_budget(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint8_t zero[4] = { 0 };

    ht_nop(&b);
    ht_fill(&b, HT_LOCAL, 4, 0x12345678);
    uint32_t at = ht_fill(&b, HT_LOCAL + 4, 4, 0x12345678);
    g->budget_commands = 2;
    assert_true(ht_fault_is(ht_run(g, &b, &f), &f, WK_FAULT_BUDGET, HERON_FAULT_BUDGET, at, HERON_OP_FILL));
    assert_true(ht_filled_with(g->mem, HT_LOCAL, 4, 0x12345678));
    assert_true(ht_bytes_are(g->mem, HT_LOCAL + 4, 4, zero));
    assert_int_equal(g->spend_calls, 3);
}

/* ------------------------------------------------------------------ */
/* Patch slots                                                          */
/* ------------------------------------------------------------------ */

/* The driver's Render writes a FILL and a COPY and records patch
 * locations at their address operands (heron_hw.h's offsets); Patch
 * writes each address with RtlCopyMemory of a ULONGLONG. */
static void test_read_address_reads_what_patch_writes(void **state)
{
    (void)state;
    struct ht_buf b = { .used = 0 };
    const uint64_t dst = HT_LOCAL + 0x12345, src = HT_SYS + 0x678, dst2 = HT_HIDDEN + 0x9ABC;
    uint64_t got = 0;
    uint32_t slot = 0;

    ht_nop(&b);
    uint32_t fill = ht_fill(&b, 0, 64, 0);
    uint32_t copy = ht_copy(&b, 0, 0, 64);
    memcpy(b.bytes + fill + HERON_FILL_DST_OFFSET, &dst, sizeof dst);
    memcpy(b.bytes + copy + HERON_COPY_SRC_OFFSET, &src, sizeof src);
    memcpy(b.bytes + copy + HERON_COPY_DST_OFFSET, &dst2, sizeof dst2);

    const struct wk_processor_ops *p = wk_binding.processor;
    assert_int_equal(p->read_address(NULL, b.bytes, b.used, fill + HERON_FILL_DST_OFFSET, &got, &slot), 0);
    assert_int_equal(got, dst);
    assert_int_equal(slot, 8);
    assert_int_equal(p->read_address(NULL, b.bytes, b.used, copy + HERON_COPY_SRC_OFFSET, &got, NULL), 0);
    assert_int_equal(got, src);
    assert_int_equal(p->read_address(NULL, b.bytes, b.used, copy + HERON_COPY_DST_OFFSET, &got, &slot), 0);
    assert_int_equal(got, dst2);
    /* No address at an odd offset, past the end, or in no buffer. */
    assert_int_equal(p->read_address(NULL, b.bytes, b.used, fill + 5, &got, &slot), -1);
    assert_int_equal(p->read_address(NULL, b.bytes, b.used, b.used - 4, &got, &slot), -1);
    assert_int_equal(p->read_address(NULL, b.bytes, b.used, UINT64_MAX - 3, &got, &slot), -1);
    assert_int_equal(p->read_address(NULL, NULL, 64, 0, &got, &slot), -1);
}

static void test_fault_text(void **state)
{
    (void)state;
    char text[256];
    struct wk_exec_fault f = { .cls = WK_FAULT_OPERAND, .code = HERON_FAULT_TRANSFER_TOO_LARGE, .offset = 0x18,
                               .opcode = HERON_OP_COPY };
    heron_fault_text(NULL, &f, text, sizeof text);
    assert_string_equal(text, "Heron CP halted at +0x18 (COPY): transfer over the engine's 1 MiB");
    struct wk_exec_fault m = { .cls = WK_FAULT_MEMORY, .code = HERON_FAULT_MEMORY, .offset = 4,
                               .opcode = HERON_OP_FILL, .mem_reason = WK_GPU_FAULT_UNMAPPED_APERTURE,
                               .fault_addr = HT_GART };
    wk_binding.processor->fault_text(NULL, &m, text, sizeof text);
    assert_string_equal(text, "Heron CP halted at +0x4 (FILL): memory access at 0x200000000 refused: "
                              "aperture page not mapped");
    struct wk_exec_fault d = { .cls = WK_FAULT_DECODE, .code = HERON_FAULT_TRUNCATED_HEADER, .offset = 8,
                               .opcode = HERON_OPCODE_NONE };
    heron_fault_text(NULL, &d, text, sizeof text);
    assert_string_equal(text, "Heron CP halted at +0x8 (no header): fewer than 4 bytes left for a header");
    heron_fault_text(NULL, &d, text, 5); /* cut, terminated */
    assert_string_equal(text, "Hero");
}

/* ------------------------------------------------------------------ */
/* Any bytes                                                            */
/* ------------------------------------------------------------------ */

static uint64_t pick_address(uint64_t *rng)
{
    static const uint64_t bases[] = { HT_LOCAL, HT_HIDDEN, HT_GART, HT_SYS, HT_HOLE, 0 };
    uint64_t r = tu_rand(rng);
    if (r % 8 == 7) {
        return tu_rand(rng);
    }
    return bases[r % 6] + (tu_rand(rng) % (1u << 20));
}

/* A buffer of mostly well-formed packets with random operands. */
static uint32_t random_packets(uint64_t *rng, uint8_t *out, uint32_t cap)
{
    struct ht_buf b = { .used = 0 };
    uint64_t pfns[8];
    while (b.used + 64 < sizeof b.bytes && b.used < cap && tu_rand(rng) % 8 != 0) {
        uint32_t bytes = (uint32_t)(tu_rand(rng) % 3 == 0 ? tu_rand(rng) % (2u << 20) : tu_rand(rng) % 8192);
        uint32_t count = (uint32_t)(tu_rand(rng) % 9);
        for (uint32_t i = 0; i < count; i++) {
            pfns[i] = tu_rand(rng) % 4 == 0 ? tu_rand(rng) : HT_SYS_PFN + tu_rand(rng) % 20000;
        }
        switch (tu_rand(rng) % 9) {
        case 0: ht_nop(&b); break;
        case 1: ht_fill(&b, pick_address(rng), bytes, (uint32_t)tu_rand(rng)); break;
        case 2: ht_copy(&b, pick_address(rng), pick_address(rng), bytes); break;
        case 3: ht_gart_write(&b, (uint32_t)(tu_rand(rng) % 5), (uint32_t)(tu_rand(rng) % 9000), count, pfns); break;
        case 4: ht_gart_clear(&b, (uint32_t)(tu_rand(rng) % 5), (uint32_t)(tu_rand(rng) % 9000), count, pfns[0]); break;
        case 5: ht_gart_invalidate(&b, (uint32_t)(tu_rand(rng) % 5)); break;
        case 6: ht_fence_write(&b, pick_address(rng), tu_rand(rng)); break;
        case 7: ht_cache_flush(&b, pick_address(rng), (uint32_t)(tu_rand(rng) % 3)); break;
        default: ht_dword(&b, (uint32_t)tu_rand(rng)); break;
        }
    }
    uint32_t n = b.used < cap ? b.used : cap;
    memcpy(out, b.bytes, n);
    return n;
}

struct listing {
    uint64_t lines;
    char last[700];
};

static void keep_line(void *user, const char *line)
{
    struct listing *l = user;
    l->lines++;
    snprintf(l->last, sizeof l->last, "%s", line);
}

static int decoder_code(uint32_t code)
{
    return heron_fault_class(code) == WK_FAULT_DECODE || code == HERON_FAULT_RESERVED_FLAGS ||
           code == HERON_FAULT_TRANSFER_TOO_LARGE || code == HERON_FAULT_TOO_MANY_PAGES;
}

/* What one run of any bytes must satisfy: it ended; a fault names a class,
 * a packet boundary inside the range; the disassembler saw the same
 * packets (each spend() call is one packet). */
static void check_random_run(struct ht_gpu *g, const uint8_t *buf, uint32_t start, uint32_t len,
                             uint64_t outcomes[WK_FAULT_CLASS_COUNT])
{
    struct wk_exec_fault f;
    struct listing l = { 0, "" };
    int rc = ht_run_range(g, buf, start, len, &f);
    uint64_t listed = wk_binding.disasm->list(NULL, buf, len, start, keep_line, &l);

    assert_true(rc == 0 || rc == 1);
    assert_true(g->spend_calls <= (len - start) / 4 + 1);
    outcomes[f.cls < WK_FAULT_CLASS_COUNT ? f.cls : WK_FAULT_STATE]++;
    if (rc == 0) {
        assert_int_equal(f.cls, WK_FAULT_NONE);
        assert_int_equal(listed, g->spend_calls);
        return;
    }
    assert_true(f.cls >= WK_FAULT_DECODE && f.cls <= WK_FAULT_BUDGET);
    assert_true(f.offset >= start && f.offset < len && (f.offset - start) % 4 == 0);
    if (decoder_code(f.code)) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "0x%04llx: <", (unsigned long long)f.offset);
        if (strncmp(l.last, prefix, strlen(prefix)) != 0) {
            print_error("exec faulted (%s) at +0x%llx, the listing ended with \"%s\"\n", heron_fault_words(f.code),
                        (unsigned long long)f.offset, l.last);
            fail();
        }
    }
}

static void test_random_bytes_never_crash_or_loop(void **state)
{
    struct ht_gpu *g = *state;
    uint64_t rng = tu_seed(0x4E204EB0ull);
    uint8_t buf[512];
    uint64_t outcomes[WK_FAULT_CLASS_COUNT] = { 0 };

    for (int i = 0; i < 100000; i++) {
        uint32_t len;
        if (tu_rand(&rng) % 2) {
            len = random_packets(&rng, buf, sizeof buf);
        } else {
            len = (uint32_t)(tu_rand(&rng) % 96);
            for (uint32_t k = 0; k < len; k++) {
                buf[k] = (uint8_t)tu_rand(&rng);
            }
        }
        uint32_t start = (uint32_t)(tu_rand(&rng) % 4 == 0 ? tu_rand(&rng) % 8 : 4 * (tu_rand(&rng) % 2));
        start = start <= len ? start : len; /* mostly at a packet, sometimes not */
        g->budget_commands = tu_rand(&rng) % 8 == 0 ? tu_rand(&rng) % 4 : UINT64_MAX;
        check_random_run(g, buf, start, len, outcomes);
        if (i % 2000 == 1999) { /* a fresh memory now and then: bounded host memory */
            ht_gpu_fini(g);
            ht_gpu_init(g);
        }
    }
    /* The generator reaches every ending: to the end and each class. */
    print_message("100000 buffers: %llu ran to the end, %llu DECODE, %llu OPERAND, %llu MEMORY, %llu BUDGET\n",
                  (unsigned long long)outcomes[WK_FAULT_NONE], (unsigned long long)outcomes[WK_FAULT_DECODE],
                  (unsigned long long)outcomes[WK_FAULT_OPERAND], (unsigned long long)outcomes[WK_FAULT_MEMORY],
                  (unsigned long long)outcomes[WK_FAULT_BUDGET]);
    for (uint32_t cls = WK_FAULT_NONE; cls <= WK_FAULT_BUDGET; cls++) {
        assert_true(outcomes[cls] > 100);
    }
    assert_int_equal(outcomes[WK_FAULT_STATE], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_is_the_drivers),
        cmocka_unit_test_setup_teardown(test_fill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gart_write_then_invalidate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gart_clear_points_at_the_dummy_page, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence_write, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cache_flush_and_nop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ranges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_decode_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operand_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_faults_change_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_budget, setup, teardown),
        cmocka_unit_test(test_read_address_reads_what_patch_writes),
        cmocka_unit_test(test_fault_text),
        cmocka_unit_test_setup_teardown(test_random_bytes_never_crash_or_loop, setup, teardown),
    };
    return cmocka_run_group_tests_name("heron.processor", tests, NULL, NULL);
}
