/* SPDX-License-Identifier: MIT */
/*
 * tests/test_othergpu_processor.c - the OtherGPU binding's command
 * processor (examples/gpus/othergpu/processor.c) on a memory system of the
 * test's own (heron_fake_mem.c), reached only through wddmkit/processor.h:
 * every record's effect, every fault with its class, code, offset and op,
 * the latches of the paired records, the budget, patch slots
 * (read_address), and 100,000 seeded random buffers that all end, fault
 * only at record boundaries and agree with the disassembler.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "othergpu_test_util.h"

static int setup(void **state)
{
    struct ogt_gpu *g = test_malloc(sizeof *g);
    ogt_gpu_init(g);
    *state = g;
    return 0;
}

static int teardown(void **state)
{
    ogt_gpu_fini(*state);
    test_free(*state);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Effects                                                              */
/* ------------------------------------------------------------------ */

static void test_nop_does_nothing_but_spend(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_record(&b, OG_NOP, 0, 0, 0);
    ogt_record(&b, OG_NOP, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu); /* unused words are not looked at */
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_int_equal(g->spent_commands, 2);
}

/* PATTERN + FILL: the pattern's byte 0 at the destination, any length. */
static void test_fill_lands_little_endian(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_fill(&b, OGT_VRAM + 0x1000, 4099, 0x11223344u);
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_true(ogt_filled_with(g->mem, OGT_VRAM + 0x1000, 4099, 0x11223344u));
    assert_int_equal(g->spent_bytes, 4099);
}

/* SRC + COPY, overlapping as memmove, and from system memory. */
static void test_copy_moves_bytes(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint8_t src[256], seen[256];
    for (size_t i = 0; i < sizeof src; i++) {
        src[i] = (uint8_t)(i * 7 + 1);
    }
    assert_int_equal(fake_mem_write(g->mem, OGT_SYS, src, sizeof src), 0);
    ogt_copy(&b, OGT_SYS, OGT_VRAM, sizeof src);
    ogt_copy(&b, OGT_VRAM, OGT_VRAM + 16, sizeof src); /* overlapping: memmove */
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_read(g->mem, OGT_VRAM + 16, seen, sizeof seen), 0);
    assert_memory_equal(seen, src, sizeof src);
}

/* MAP_PAGE writes the entry; the GPU still sees the old one until
 * GART_FLUSH. UNMAP_PAGE points the page at the dummy frame through
 * gart_write_same (an unmap, as the kit counts it). */
static void test_map_flush_unmap(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_page(&b, OG_MAP_PAGE, OG_SEGMENT_GART, 5, OGT_SYS + 3 * 4096);
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_pte(g->mem, OG_SEGMENT_GART, 5), OGT_SYS_PFN + 3);
    assert_int_not_equal(fake_mem_tlb(g->mem, OG_SEGMENT_GART, 5), OGT_SYS_PFN + 3);

    b.used = 0;
    ogt_record(&b, OG_GART_FLUSH, 0, 0, OG_SEGMENT_GART);
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_tlb(g->mem, OG_SEGMENT_GART, 5), OGT_SYS_PFN + 3);

    b.used = 0;
    uint64_t calls = fake_mem_write_same_calls(g->mem);
    ogt_page(&b, OG_UNMAP_PAGE, OG_SEGMENT_GART, 5, OGT_SYS + 9 * 4096);
    ogt_record(&b, OG_GART_FLUSH, 0, 0, OG_SEGMENT_GART);
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_write_same_calls(g->mem), calls + 1);
    assert_int_equal(fake_mem_pte(g->mem, OG_SEGMENT_GART, 5), OGT_SYS_PFN + 9);
    assert_int_equal(fake_mem_tlb(g->mem, OG_SEGMENT_GART, 5), OGT_SYS_PFN + 9);
}

/* An older memory system without gart_write_same: UNMAP_PAGE still lands,
 * through gart_write. */
static void test_unmap_without_write_same(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    fake_mem_drop_write_same(g->mem);
    ogt_page(&b, OG_UNMAP_PAGE, OG_SEGMENT_GART, 2047, OGT_SYS + 4096);
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_pte(g->mem, OG_SEGMENT_GART, 2047), OGT_SYS_PFN + 1);
    assert_int_equal(fake_mem_write_same_calls(g->mem), 0);
}

/* FENCE_VALUE + FENCE: the 64-bit value in memory, then the kit hears of
 * it. */
static void test_fence_stores_and_tells_the_kit(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint8_t seen[8];
    ogt_fence(&b, OGT_VRAM + 0x40, 0x0123456789ABCDEFull);
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_read(g->mem, OGT_VRAM + 0x40, seen, 8), 0);
    assert_int_equal(seen[0], 0xEF);
    assert_int_equal(seen[7], 0x01);
    assert_int_equal(g->fences, 1);
    assert_int_equal(g->fence_addr, OGT_VRAM + 0x40);
    assert_int_equal(g->fence_value, 0x0123456789ABCDEFull);
}

static void test_cache_flush(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_addr_record(&b, OG_CACHE_FLUSH, OGT_VRAM + 0x100, 1);
    ogt_addr_record(&b, OG_CACHE_FLUSH, OGT_SYS, 0);
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    b.used = 0;
    ogt_addr_record(&b, OG_CACHE_FLUSH, OGT_HOLE, 1);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_MEMORY, OGB_FAULT_MEMORY, 0, OG_CACHE_FLUSH));
    assert_int_equal(f.fault_addr, OGT_HOLE);
    b.used = 0;
    ogt_addr_record(&b, OG_CACHE_FLUSH, OGT_VRAM, 2);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_OPERAND, OGB_FAULT_BAD_FLUSH_MODE, 0, OG_CACHE_FLUSH));
}

/* ------------------------------------------------------------------ */
/* Faults                                                               */
/* ------------------------------------------------------------------ */

static void test_decode_faults(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_record(&b, OG_NOP, 0, 0, 0);
    ogt_record(&b, 0x1F, 0, 0, 0);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_DECODE, OGB_FAULT_UNKNOWN_OP, 16, 0x1F));
    /* 16 + 5 bytes: the second record is cut by the end. */
    assert_true(ogt_fault_is(ogt_run_range(g, b.bytes, 0, 21, &f), &f, WK_FAULT_DECODE, OGB_FAULT_CUT, 16,
                             OGB_OPCODE_NONE));
}

/* An address operand without its valid bit is Render's "not placed yet":
 * Patch was to fill it, so running it is the driver's fault. */
static void test_unpatched_address_faults(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_record(&b, OG_PATTERN, 0xAA, 0, 0);
    ogt_record(&b, OG_FILL, (uint32_t)OGT_VRAM, 0, 64); /* word b = 0 */
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_OPERAND, OGB_FAULT_NO_ADDRESS, 16, OG_FILL));
    assert_true(ogt_filled_with(g->mem, OGT_VRAM, 64, 0));
}

/* The second half of a pair needs its first half earlier in this buffer;
 * a latch is consumed, and a new buffer starts with none. */
static void test_pairs_need_their_first_half(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_addr_record(&b, OG_COPY, OGT_VRAM, 16);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_STATE, OGB_FAULT_NO_SRC, 0, OG_COPY));
    b.used = 0;
    ogt_addr_record(&b, OG_FILL, OGT_VRAM, 16);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_STATE, OGB_FAULT_NO_PATTERN, 0, OG_FILL));
    b.used = 0;
    ogt_addr_record(&b, OG_FENCE, OGT_VRAM, 0);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_STATE, OGB_FAULT_NO_FENCE_VALUE, 0, OG_FENCE));
    b.used = 0;
    ogt_copy(&b, OGT_VRAM, OGT_VRAM + 64, 16);
    ogt_addr_record(&b, OG_COPY, OGT_VRAM + 128, 16); /* its SRC was used */
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_STATE, OGB_FAULT_NO_SRC, 32, OG_COPY));
    b.used = 0;
    ogt_addr_record(&b, OG_SRC, OGT_VRAM, 0); /* left latched at the end */
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    b.used = 0;
    ogt_addr_record(&b, OG_COPY, OGT_VRAM + 128, 16); /* another buffer: nothing latched */
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_STATE, OGB_FAULT_NO_SRC, 0, OG_COPY));
}

static void test_page_operand_faults(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_page(&b, OG_MAP_PAGE, OG_SEGMENT_GART, 0, OGT_SYS + 8);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_OPERAND, OGB_FAULT_UNALIGNED_PAGE, 0, OG_MAP_PAGE));
    b.used = 0;
    ogt_page(&b, OG_MAP_PAGE, OG_SEGMENT_VRAM, 0, OGT_SYS);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_OPERAND, OGB_FAULT_BAD_SEGMENT, 0, OG_MAP_PAGE));
    b.used = 0;
    ogt_page(&b, OG_UNMAP_PAGE, 3, 0, OGT_SYS);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_OPERAND, OGB_FAULT_BAD_SEGMENT, 0, OG_UNMAP_PAGE));
    b.used = 0;
    ogt_page(&b, OG_MAP_PAGE, OG_SEGMENT_GART, OG_GART_SIZE / 4096, OGT_SYS);
    assert_true(
        ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_OPERAND, OGB_FAULT_PAGE_PAST_APERTURE, 0, OG_MAP_PAGE));
    b.used = 0;
    ogt_page(&b, OG_MAP_PAGE, OG_SEGMENT_GART, 0, OGT_VRAM);
    assert_true(
        ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_OPERAND, OGB_FAULT_FRAME_OUTSIDE_SYSMEM, 0, OG_MAP_PAGE));
    b.used = 0;
    ogt_record(&b, OG_GART_FLUSH, 0, 0, OG_SEGMENT_VRAM);
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_OPERAND, OGB_FAULT_BAD_SEGMENT, 0, OG_GART_FLUSH));
    assert_int_equal(fake_mem_pte(g->mem, OG_SEGMENT_GART, 0), UINT64_MAX);
}

/* The memory system refuses an access whole: nothing changed, the address
 * that failed in the fault. */
static void test_memory_faults_change_nothing(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_fill(&b, OGT_VRAM + OG_VRAM_SIZE - 8, 16, 0x55555555u); /* crosses the segment's end */
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_MEMORY, OGB_FAULT_MEMORY, 16, OG_FILL));
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_CROSSES_SEGMENT);
    assert_true(ogt_filled_with(g->mem, OGT_VRAM + OG_VRAM_SIZE - 8, 8, 0));
    b.used = 0;
    ogt_copy(&b, OGT_GART, OGT_VRAM, 16); /* an unmapped aperture page */
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_MEMORY, OGB_FAULT_MEMORY, 16, OG_COPY));
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_UNMAPPED_APERTURE);
    assert_int_equal(f.fault_addr, OGT_GART);
    char text[200];
    og_processor.fault_text(NULL, &f, text, sizeof text);
    assert_non_null(strstr(text, "OtherGPU halted at +0x10 (COPY)"));
    assert_non_null(strstr(text, "aperture page not mapped"));
}

static void test_budget_stops_before_the_work(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_fill(&b, OGT_VRAM, 64, 0x01010101u);
    ogt_fill(&b, OGT_VRAM + 64, 64, 0x02020202u);
    g->budget_commands = 3;
    assert_true(ogt_fault_is(ogt_run(g, &b, &f), &f, WK_FAULT_BUDGET, OGB_FAULT_BUDGET, 48, OG_FILL));
    assert_true(ogt_filled_with(g->mem, OGT_VRAM, 64, 0x01010101u));
    assert_true(ogt_filled_with(g->mem, OGT_VRAM + 64, 64, 0));
}

/* A range that starts past its buffer's first record runs from there. */
static void test_runs_the_submitted_range_only(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    ogt_record(&b, 0x77, 0, 0, 0); /* before the range */
    ogt_fill(&b, OGT_VRAM, 32, 0x0F0F0F0Fu);
    ogt_record(&b, 0x77, 0, 0, 0); /* after it */
    assert_true(ogt_no_fault(ogt_run_range(g, b.bytes, 16, 48, &f), &f));
    assert_true(ogt_filled_with(g->mem, OGT_VRAM, 32, 0x0F0F0F0Fu));
}

/* ------------------------------------------------------------------ */
/* Patch slots                                                          */
/* ------------------------------------------------------------------ */

static void test_read_address(void **state)
{
    (void)state;
    struct ogt_buf b = { .used = 0 };
    uint64_t address = 0;
    uint32_t slot = 0;
    ogt_addr_record(&b, OG_SRC, 0x1234567890ull, 0);
    ogt_record(&b, OG_COPY, 0x1000, 0, 16); /* word b = 0: nothing encoded yet */
    assert_int_equal(og_processor.read_address(NULL, b.bytes, b.used, 4, &address, &slot), 0);
    assert_int_equal(address, 0x1234567890ull);
    assert_int_equal(slot, 8);
    assert_int_equal(og_processor.read_address(NULL, b.bytes, b.used, 20, &address, &slot), -1);
    assert_int_equal(og_processor.read_address(NULL, b.bytes, b.used, 6, &address, &slot), -1);
    assert_int_equal(og_processor.read_address(NULL, b.bytes, b.used, b.used - 4, &address, &slot), -1);
    assert_int_equal(og_processor.read_address(NULL, b.bytes, b.used, UINT64_MAX - 3, &address, &slot), -1);
    assert_int_equal(og_processor.read_address(NULL, NULL, 0, 4, &address, &slot), -1);
}

/* ------------------------------------------------------------------ */
/* Random buffers                                                       */
/* ------------------------------------------------------------------ */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* An address the memory map mostly has. */
static uint64_t random_address(uint64_t *s)
{
    static const uint64_t bases[] = { OGT_VRAM, OGT_GART, OGT_SYS, OGT_HOLE };
    return bases[rng_next(s) % 4] + (rng_next(s) % 0x20000);
}

/* One well-formed group (a pair, a page record, a flush, a NOP) on
 * addresses the map mostly has, or one record of random words. */
static void random_group(uint64_t *s, struct ogt_buf *b)
{
    uint64_t address = random_address(s);
    uint32_t bytes = (uint32_t)(rng_next(s) % 0x3000);
    uint32_t page = (uint32_t)(rng_next(s) % 2100), seg = (uint32_t)(rng_next(s) % 4);
    switch (rng_next(s) % 9) {
    case 0: ogt_fill(b, address, bytes, (uint32_t)rng_next(s)); break;
    case 1: ogt_copy(b, random_address(s), address, bytes); break;
    case 2: ogt_fence(b, address, rng_next(s)); break;
    case 3: ogt_page(b, OG_MAP_PAGE, seg, page, address & ~0xFFFull); break;
    case 4: ogt_page(b, OG_UNMAP_PAGE, seg, page, address & (rng_next(s) % 2 ? ~0xFFFull : ~0ull)); break;
    case 5: ogt_record(b, OG_GART_FLUSH, 0, 0, seg); break;
    case 6: ogt_addr_record(b, OG_CACHE_FLUSH, address, (uint32_t)(rng_next(s) % 3)); break;
    case 7: ogt_record(b, OG_NOP, 0, 0, 0); break;
    default:
        ogt_record(b, (uint32_t)(rng_next(s) % 13), (uint32_t)rng_next(s), (uint32_t)rng_next(s),
                   (uint32_t)rng_next(s));
        break;
    }
}

static void random_buffer(uint64_t *s, struct ogt_buf *b, uint32_t groups)
{
    b->used = 0;
    for (uint32_t i = 0; i < groups; i++) {
        random_group(s, b);
    }
}

static uint64_t counted;
static void count_line(void *user, const char *line)
{
    (void)user;
    (void)line;
    counted++;
}

static void test_random_buffers_end_at_record_boundaries(void **state)
{
    struct ogt_gpu *g = *state;
    const char *env = getenv("WK_TEST_SEED");
    uint64_t s = env ? strtoull(env, NULL, 0) | 1 : 0x9E3779B97F4A7C15ull;
    struct ogt_buf b;
    uint64_t ran_to_end = 0, by_class[WK_FAULT_CLASS_COUNT] = { 0 };
    for (int n = 0; n < 100000; n++) {
        struct wk_exec_fault f;
        random_buffer(&s, &b, 1 + (uint32_t)(rng_next(&s) % 8));
        uint64_t end = b.used - (rng_next(&s) % 5 == 0 ? rng_next(&s) % 16 : 0);
        uint64_t start = (rng_next(&s) % 4 == 0) ? 16 * (rng_next(&s) % 2) : 0;
        if (start > end) {
            start = 0;
        }
        g->budget_commands = rng_next(&s) % 10 == 0 ? rng_next(&s) % 4 : UINT64_MAX;
        int rc = ogt_run_range(g, b.bytes, start, end, &f);
        assert_true(rc == 0 || rc == 1);
        if (rc == 0) {
            assert_int_equal(f.cls, WK_FAULT_NONE);
            ran_to_end++;
            continue;
        }
        assert_true(f.cls > WK_FAULT_NONE && f.cls < WK_FAULT_CLASS_COUNT);
        by_class[f.cls]++;
        assert_true(f.offset >= start && f.offset < end);
        assert_int_equal((f.offset - start) % 16, 0);
        if (f.cls == WK_FAULT_DECODE) {
            /* The disassembler stops at the same record. */
            counted = 0;
            uint64_t listed = og_disasm.list(NULL, b.bytes, end, start, count_line, NULL);
            assert_int_equal(start + 16 * listed, f.offset);
            assert_int_equal(counted, listed + 1);
        }
    }
    /* The buffers reach every outcome, not only a fault at their first
     * record. */
    assert_true(ran_to_end > 5000);
    for (uint32_t cls = WK_FAULT_DECODE; cls <= WK_FAULT_STATE; cls++) {
        if (by_class[cls] < 100) {
            fail_msg("only %llu buffers ended with a %s fault", (unsigned long long)by_class[cls],
                     wk_fault_class_name(cls));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_nop_does_nothing_but_spend, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fill_lands_little_endian, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_moves_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_flush_unmap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unmap_without_write_same, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fence_stores_and_tells_the_kit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cache_flush, setup, teardown),
        cmocka_unit_test_setup_teardown(test_decode_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpatched_address_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pairs_need_their_first_half, setup, teardown),
        cmocka_unit_test_setup_teardown(test_page_operand_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_faults_change_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_budget_stops_before_the_work, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runs_the_submitted_range_only, setup, teardown),
        cmocka_unit_test(test_read_address),
        cmocka_unit_test_setup_teardown(test_random_buffers_end_at_record_boundaries, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
