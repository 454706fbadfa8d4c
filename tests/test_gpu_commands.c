/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_commands.c - every command of the GPU model, checked against
 * docs/gpu-model.md ("Command encoding", "GART and TLB", "Execution",
 * "Counters").
 *
 * Each test builds a DMA buffer with the public encoders, runs it with
 * wk_gpu_exec_bytes on its own model of the standard adapter (see
 * gpu_test_util.h) and checks memory byte for byte against a host-side shadow
 * computed independently (memmove, pattern arithmetic), then every counter.
 * Checking every counter, not just the one a command is about, is what
 * catches a command that counts twice or counts into the wrong field.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "gpu_test_util.h"

/* ------------------------------------------------------------------ */
/* NOP                                                                  */
/* ------------------------------------------------------------------ */

static void test_nop(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint64_t resident = wk_gpu_resident_pages(gpu);
    struct tu_buf b;
    tu_buf_init(&b);
    for (int i = 0; i < 3; i++)
        TU_EMIT(wk_gpu_emit_nop(&b.w));
    assert_true(expect_u64(b.w.used, 12));
    assert_true(tu_run_ok(gpu, &b));

    assert_true(expect_counters_are(gpu, .commands = 3, .execs = 1));
    /* NOP touches nothing. */
    assert_true(expect_u64(wk_gpu_resident_pages(gpu), resident));
    assert_true(expect_u64(wk_gpu_last_fence(gpu), 0));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* COPY                                                                 */
/* ------------------------------------------------------------------ */

static void test_copy_between_segments(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    enum { LEN = 4096 + 100 };
    uint8_t *src = tu_alloc(state, LEN);
    assert_non_null(src);
    tu_pattern(src, LEN, 1);
    tu_write(gpu, TU_SEG1_BASE + 0x10, src, LEN);

    struct tu_buf b;
    tu_buf_init(&b);
    /* Unaligned source and destination; the destination stays in bank 0. */
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE + 0x10, TU_SEG2_BASE + 0x1003, LEN));
    assert_true(tu_run_ok(gpu, &b));

    assert_true(expect_bytes(gpu, TU_SEG2_BASE + 0x1003, src, LEN));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE + 0x1000, 0, 3));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE + 0x1003 + LEN, 0, 64));
    assert_true(expect_bytes(gpu, TU_SEG1_BASE + 0x10, src, LEN)); /* source intact */

    assert_true(expect_counters_are(gpu, .commands = 1, .execs = 1, .bytes_copied = LEN));
    tu_destroy(state, gpu);
}

/* Overlapping COPY inside one region behaves like memmove, in both
 * directions, for a short range inside a page and a long one across pages. */
static void run_overlap(void **state, uint64_t src_off, uint64_t dst_off, uint64_t len)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    enum { AREA = 0x4000 };
    uint8_t *shadow = tu_alloc(state, AREA);
    assert_non_null(shadow);
    tu_pattern(shadow, AREA, (uint32_t)(src_off * 7 + dst_off));
    tu_write(gpu, TU_SEG1_BASE, shadow, AREA);

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE + src_off, TU_SEG1_BASE + dst_off, len));
    assert_true(tu_run_ok(gpu, &b));

    memmove(shadow + dst_off, shadow + src_off, (size_t)len);
    if (!expect_bytes(gpu, TU_SEG1_BASE, shadow, AREA)) {
        print_error("COPY src=+0x%x dst=+0x%x bytes=0x%x is not memmove\n", (unsigned)src_off,
                    (unsigned)dst_off, (unsigned)len);
        fail();
    }
    assert_true(expect_counters_are(gpu, .commands = 1, .execs = 1, .bytes_copied = len));
    tu_destroy(state, gpu);
}

static void test_copy_overlap_forward(void **state)
{
    run_overlap(state, 0x10, 0x11, 100);     /* dst one byte above src */
    run_overlap(state, 0x0, 0x800, 0x2000);  /* across page boundaries */
    run_overlap(state, 0x7F0, 0xFF8, 0x1800);
}

static void test_copy_overlap_backward(void **state)
{
    run_overlap(state, 0x11, 0x10, 100);
    run_overlap(state, 0x800, 0x0, 0x2000);
    run_overlap(state, 0xFF8, 0x7F0, 0x1800);
}

static void test_copy_into_and_out_of_system_memory(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    enum { LEN = 5000 };
    uint8_t *data = tu_alloc(state, LEN);
    assert_non_null(data);
    tu_pattern(data, LEN, 2);
    tu_write(gpu, TU_SEG2_BASE + 0x100, data, LEN);

    const uint64_t sys = TU_SYS_BASE + 0x5000 + 7;
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG2_BASE + 0x100, sys, LEN));
    TU_EMIT(wk_gpu_emit_copy(&b.w, sys, TU_SEG1_BASE + 0x3, LEN));
    assert_true(tu_run_ok(gpu, &b));

    assert_true(expect_bytes(gpu, sys, data, LEN));
    assert_true(expect_bytes(gpu, TU_SEG1_BASE + 0x3, data, LEN));
    assert_true(expect_byte_run(gpu, sys - 7, 0, 7));

    assert_true(expect_counters_are(gpu, .commands = 2, .execs = 1, .bytes_copied = 2 * LEN));
    tu_destroy(state, gpu);
}

/* Through the aperture, consecutive aperture pages land in whatever system
 * pages the GART names, here out of order. */
static void test_copy_through_aperture(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pfn0 = TU_SYS_PFN + 7, pfn1 = TU_SYS_PFN + 3;
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 0, pfn0));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 1, pfn1));

    enum { LEN = 0x2000 };
    uint8_t *data = tu_alloc(state, LEN);
    assert_non_null(data);
    tu_pattern(data, LEN, 3);
    tu_write(gpu, TU_SEG1_BASE, data, LEN);

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_APER_BASE, LEN));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_APER_BASE + 0x800, TU_SEG2_BASE, 0x1000));
    assert_true(tu_run_ok(gpu, &b));

    assert_true(expect_bytes(gpu, TU_SYS_ADDR(pfn0), data, 0x1000));
    assert_true(expect_bytes(gpu, TU_SYS_ADDR(pfn1), data + 0x1000, 0x1000));
    assert_true(expect_bytes(gpu, TU_SEG2_BASE, data + 0x800, 0x1000));
    /* The pages between were not written. */
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(pfn1) + 0x1000, 0, 0x1000));

    assert_true(expect_counters_are(gpu, .commands = 2, .execs = 1, .bytes_copied = LEN + 0x1000));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* FILL                                                                 */
/* ------------------------------------------------------------------ */

/* FILL [dst, dst+len) with pattern over a 0x77 background and compare with
 * the documented rule: byte i of the range gets byte (i mod 4) of pattern. */
static void run_fill(void **state, uint64_t dst, uint64_t len, uint32_t pattern)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pad = 16;
    uint64_t area = len + 2 * pad;
    uint8_t *shadow = tu_alloc(state, (size_t)area);
    assert_non_null(shadow);
    memset(shadow, 0x77, (size_t)area);
    tu_write(gpu, dst - pad, shadow, area);
    for (uint64_t i = 0; i < len; i++)
        shadow[pad + i] = (uint8_t)(pattern >> (8 * (i % 4)));

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, dst, len, pattern));
    assert_true(tu_run_ok(gpu, &b));
    if (!expect_bytes(gpu, dst - pad, shadow, area)) {
        print_error("FILL dst=0x%llx bytes=%llu pattern=0x%08x (background 0x77, %llu bytes "
                    "before dst)\n",
                    (unsigned long long)dst, (unsigned long long)len, pattern,
                    (unsigned long long)pad);
        fail();
    }
    assert_true(expect_counters_are(gpu, .commands = 1, .execs = 1, .bytes_filled = len));
    tu_destroy(state, gpu);
}

static void test_fill_lengths_and_alignment(void **state)
{
    run_fill(state, TU_SEG1_BASE + 0x100, 16, 0xdeadbeef);     /* aligned, multiple of 4 */
    run_fill(state, TU_SEG1_BASE + 0x103, 13, 0xdeadbeef);     /* unaligned start, odd length */
    run_fill(state, TU_SEG1_BASE + 0x101, 1, 0x11223344);
    run_fill(state, TU_SEG1_BASE + 0x102, 2, 0x11223344);
    run_fill(state, TU_SEG1_BASE + 0x101, 3, 0x11223344);
    run_fill(state, TU_SEG1_BASE + 0xFFE, 4099, 0xA1B2C3D4);   /* across a page boundary */
    run_fill(state, TU_SYS_BASE + 0x2001, 0x2003, 0x01020304); /* system memory */
}

/* The fill writes whole 16- or 32-byte blocks of the pattern and then a
 * tail, per run of host-contiguous pages: every start phase (mod 32, on both
 * sides of a page boundary) with lengths around those block sizes, each over
 * a 0x77 background compared with the documented rule. */
static void test_fill_block_edges(void **state)
{
    static const uint64_t lens[] = {1, 2, 5, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 4095, 4099, 8197};
    enum { PAD = 16, AREA = 8197 + 2 * PAD };
    static uint8_t shadow[AREA];
    struct wk_gpu *gpu = tu_std_gpu(state);
    for (uint64_t start = 0; start < 36; start++) {
        for (unsigned k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
            uint64_t dst = TU_SEG1_BASE + 0xFE0 + start, len = lens[k];
            uint32_t pattern = 0xA1B2C3D4u + (uint32_t)start;
            memset(shadow, 0x77, sizeof(shadow));
            tu_write(gpu, dst - PAD, shadow, len + 2 * PAD);
            for (uint64_t i = 0; i < len; i++)
                shadow[PAD + i] = (uint8_t)(pattern >> (8 * (i % 4)));
            struct tu_buf b;
            tu_buf_init(&b);
            TU_EMIT(wk_gpu_emit_fill(&b.w, dst, len, pattern));
            assert_true(tu_run_ok(gpu, &b));
            if (!expect_bytes(gpu, dst - PAD, shadow, len + 2 * PAD)) {
                print_error("FILL dst=0x%llx bytes=%llu pattern=0x%08x\n", (unsigned long long)dst,
                            (unsigned long long)len, pattern);
                fail();
            }
        }
    }
    tu_destroy(state, gpu);
}

static void test_fill_through_aperture(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pfn = TU_SYS_PFN + 0x20;
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 5, pfn));
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_APER_BASE + 5 * 0x1000 + 1, 6, 0x44332211));
    assert_true(tu_run_ok(gpu, &b));
    const uint8_t want_bytes[8] = {0, 0x11, 0x22, 0x33, 0x44, 0x11, 0x22, 0};
    assert_true(expect_bytes(gpu, TU_SYS_ADDR(pfn), want_bytes, sizeof(want_bytes)));
    assert_true(expect_counters_are(gpu, .commands = 1, .execs = 1, .bytes_filled = 6));
    tu_destroy(state, gpu);
}

/* Large fills (several MiB, unaligned, every pattern phase), and fills of
 * zero over memory that was written before: the result is the documented
 * pattern everywhere, whatever path a large or zero fill takes. */
static void test_fill_large_and_zero(void **state)
{
    struct wk_gpu_segment_desc seg;
    memset(&seg, 0, sizeof(seg));
    seg.kind = WK_GPU_SEGMENT_MEMORY;
    seg.base = 0x1000000;
    seg.size = 0x800000;
    struct wk_gpu_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.segment_count = 1;
    desc.segments = &seg;
    desc.sysmem_first_pfn = TU_SYS_PFN;
    desc.sysmem_pages = TU_SYS_PAGES;
    struct wk_gpu *gpu = tu_create(state, &desc);

    const uint64_t dst = seg.base + 0x1001, len = 0x300007, pad = 16;
    const uint64_t area = len + 2 * pad;
    uint8_t *shadow = tu_alloc(state, (size_t)area);
    tu_pattern(shadow, (size_t)area, 61);
    tu_write(gpu, dst - pad, shadow, area);
    static const uint32_t patterns[] = {0x89ABCDEF, 0x5A5A5A5A, 0, 0x00000001};
    for (unsigned k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++) {
        struct tu_buf b;
        tu_buf_init(&b);
        TU_EMIT(wk_gpu_emit_fill(&b.w, dst, len, patterns[k]));
        assert_true(tu_run_ok(gpu, &b));
        for (uint64_t i = 0; i < len; i++)
            shadow[pad + i] = (uint8_t)(patterns[k] >> (8 * (i % 4)));
        if (!expect_bytes(gpu, dst - pad, shadow, area)) {
            print_error("FILL dst=0x%llx bytes=0x%llx pattern=0x%08x\n", (unsigned long long)dst,
                        (unsigned long long)len, patterns[k]);
            fail();
        }
    }
    /* Zero over a mix of written and never-written pages. */
    tu_write32(gpu, seg.base + 0x500010, 0xFFFFFFFF);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, seg.base + 0x400000, 0x200000, 0));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_byte_run(gpu, seg.base + 0x500000, 0, 0x1000));
    struct wk_gpu_counters c;
    wk_gpu_get_counters(gpu, &c);
    assert_true(expect_u64(c.bytes_filled, 4 * len + 0x200000));
}

/* FILL over backing pages that are not in address order in host memory
 * (written in a scrambled order, some never written): the model merges only
 * runs that are contiguous on the host, and the pattern phase must survive
 * every break between runs. Run twice: with the default streaming threshold
 * and with WK_GPU_STREAM_BYTES=1, which sends every 4-byte pattern of whole
 * pages through the non-temporal path whatever the host's cache size. */
static void fill_scattered(void **state, const char *stream_bytes)
{
    setenv("WK_GPU_STREAM_BYTES", stream_bytes, 1); /* read once, at create */
    struct wk_gpu *gpu = tu_std_gpu(state);
    unsetenv("WK_GPU_STREAM_BYTES");
    const uint64_t pages = 64, area = pages * 0x1000;
    uint8_t *shadow = tu_alloc(state, (size_t)area);
    tu_pattern(shadow, (size_t)area, 17);
    for (uint64_t k = 0; k < pages; k++) {
        uint64_t p = (k * 37) % pages; /* a permutation of the pages */
        if (p % 5 != 3)                /* every fifth page stays untouched */
            tu_write(gpu, TU_SEG1_BASE + p * 0x1000, shadow + p * 0x1000, 0x1000);
        else
            memset(shadow + p * 0x1000, 0, 0x1000);
    }
    static const struct {
        uint64_t off, len;
        uint32_t pattern;
    } fills[] = {
        {0x3000, 0x20000, 0x89ABCDEF},  /* whole pages */
        {0x1003, 0x23005, 0x01020304},  /* unaligned both ends */
        {0x8FFF, 0x10002, 0x5A5A5A5A},  /* one-byte pattern */
        {0x20001, 0x1FFFF, 0},          /* zero, to the end of the area */
    };
    for (size_t i = 0; i < sizeof(fills) / sizeof(fills[0]); i++) {
        struct tu_buf b;
        tu_buf_init(&b);
        TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG1_BASE + fills[i].off, fills[i].len, fills[i].pattern));
        assert_true(tu_run_ok(gpu, &b));
        for (uint64_t j = 0; j < fills[i].len; j++)
            shadow[fills[i].off + j] = (uint8_t)(fills[i].pattern >> (8 * (j % 4)));
        if (!expect_bytes(gpu, TU_SEG1_BASE, shadow, area)) {
            print_error("after FILL +0x%llx bytes=0x%llx pattern=0x%08x (WK_GPU_STREAM_BYTES=%s)\n",
                        (unsigned long long)fills[i].off, (unsigned long long)fills[i].len,
                        fills[i].pattern, stream_bytes);
            fail();
        }
    }
    tu_destroy(state, gpu);
}

static void test_fill_over_scattered_pages(void **state)
{
    fill_scattered(state, "");
    fill_scattered(state, "1");
}

/* A COPY from never-written (zero) memory clears a written destination. */
static void test_copy_from_untouched_memory(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t data[0x3000];
    tu_pattern(data, sizeof(data), 71);
    tu_write(gpu, TU_SEG2_BASE + 0x800, data, sizeof(data));
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE + 0x80000, TU_SEG2_BASE + 0x1000, 0x1800));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_bytes(gpu, TU_SEG2_BASE + 0x800, data, 0x800));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE + 0x1000, 0, 0x1800));
    assert_true(expect_bytes(gpu, TU_SEG2_BASE + 0x2800, data + 0x2000, 0x1000));
    /* Untouched onto untouched stays zero. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE + 0x80000, TU_SYS_BASE, 0x2000));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_byte_run(gpu, TU_SYS_BASE, 0, 0x2000));
    struct wk_gpu_counters c;
    wk_gpu_get_counters(gpu, &c);
    assert_true(expect_u64(c.bytes_copied, 0x3800));
}

/* ------------------------------------------------------------------ */
/* WRITE32 / WRITE64                                                    */
/* ------------------------------------------------------------------ */

static void test_write32(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t bg[32];
    memset(bg, 0x77, sizeof(bg));
    tu_write(gpu, TU_SEG1_BASE + 0x40, bg, sizeof(bg));

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 0x41, 0x44332211));  /* unaligned */
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SYS_END - 4, 0xCAFEF00D));        /* last 4 bytes */
    assert_true(tu_run_ok(gpu, &b));

    const uint8_t want_bytes[7] = {0x77, 0x11, 0x22, 0x33, 0x44, 0x77, 0x77};
    assert_true(expect_bytes(gpu, TU_SEG1_BASE + 0x40, want_bytes, sizeof(want_bytes)));
    assert_true(expect_mem32(gpu, TU_SYS_END - 4, 0xCAFEF00D));

    assert_true(expect_counters_are(gpu, .commands = 2, .execs = 1, .bytes_written = 8));
    tu_destroy(state, gpu);
}

static void test_write64(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t bg[32];
    memset(bg, 0x77, sizeof(bg));
    tu_write(gpu, TU_SEG2_BASE + 0x40, bg, sizeof(bg));

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write64(&b.w, TU_SEG2_BASE + 0x43, 0x8877665544332211ull));
    /* Across a page boundary of segment 1. */
    TU_EMIT(wk_gpu_emit_write64(&b.w, TU_SEG1_BASE + 0xFFC, 0x0102030405060708ull));
    assert_true(tu_run_ok(gpu, &b));

    const uint8_t want_bytes[12] = {0x77, 0x77, 0x77, 0x11, 0x22, 0x33,
                                    0x44, 0x55, 0x66, 0x77, 0x88, 0x77};
    assert_true(expect_bytes(gpu, TU_SEG2_BASE + 0x40, want_bytes, sizeof(want_bytes)));
    assert_true(expect_mem64(gpu, TU_SEG1_BASE + 0xFFC, 0x0102030405060708ull));

    assert_true(expect_counters_are(gpu, .commands = 2, .execs = 1, .bytes_written = 16));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* FENCE                                                                */
/* ------------------------------------------------------------------ */

static void test_fence_stores_then_interrupts(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_irq irq;
    memset(&irq, 0, sizeof(irq));
    irq.gpu = gpu;
    wk_gpu_set_interrupt_handler(gpu, tu_irq_handler, &irq);

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fence(&b.w, TU_SEG1_BASE + 0x3000, 1));
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_fence(&b.w, TU_SYS_BASE + 0x18, 0xFEEDFACE12345678ull));
    assert_true(tu_run_ok(gpu, &b));

    assert_true(expect_u64(irq.count, 2));
    assert_true(expect_u64(irq.addr[0], TU_SEG1_BASE + 0x3000));
    assert_true(expect_u64(irq.value[0], 1));
    assert_true(expect_u64(irq.addr[1], TU_SYS_BASE + 0x18));
    assert_true(expect_u64(irq.value[1], 0xFEEDFACE12345678ull));
    /* "store value, then raise an interrupt": the handler already sees it. */
    assert_true(expect_status(irq.mem_status[0], WK_OK));
    assert_true(expect_u64(irq.mem[0], 1));
    assert_true(expect_status(irq.mem_status[1], WK_OK));
    assert_true(expect_u64(irq.mem[1], 0xFEEDFACE12345678ull));

    assert_true(expect_mem64(gpu, TU_SEG1_BASE + 0x3000, 1));
    assert_true(expect_mem64(gpu, TU_SYS_BASE + 0x18, 0xFEEDFACE12345678ull));
    assert_true(expect_u64(wk_gpu_last_fence(gpu), 0xFEEDFACE12345678ull));

    assert_true(expect_counters_are(gpu, .commands = 3, .execs = 1, .bytes_written = 16,
                                    .fences = 2, .interrupts = 2));
    tu_destroy(state, gpu);
}

/* A faulting FENCE neither stores nor interrupts. */
static void test_fence_faulting_does_not_interrupt(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_irq irq;
    memset(&irq, 0, sizeof(irq));
    wk_gpu_set_interrupt_handler(gpu, tu_irq_handler, &irq);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fence(&b.w, TU_SEG1_END - 4, 7)); /* 8 bytes, 4 past the end */
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_FENCE, 0,
                                 TU_SEG1_END));
    assert_true(expect_u64(irq.count, 0));
    assert_true(expect_u64(wk_gpu_last_fence(gpu), 0));
    assert_true(expect_byte_run(gpu, TU_SEG1_END - 4, 0, 4));
    assert_true(expect_counters_are(gpu, .execs = 1, .faults = 1));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* GART_MAP, GART_UNMAP, TLB_FLUSH                                      */
/* ------------------------------------------------------------------ */

static bool expect_pte(struct wk_gpu *gpu, uint32_t seg, uint64_t page, int valid, uint64_t pfn,
                       int stale)
{
    int v = -1, s = -1;
    uint64_t p = ~0ull;
    wk_status st = wk_gpu_gart_get(gpu, seg, page, &v, &p, &s);
    bool ok = expect_status(st, WK_OK);
    if (v != valid || (valid && p != pfn) || (stale >= 0 && s != stale)) {
        print_error("gart_get(seg %u, page %llu): expected valid=%d pfn=0x%llx tlb_stale=%d, got "
                    "valid=%d pfn=0x%llx tlb_stale=%d\n",
                    seg, (unsigned long long)page, valid, (unsigned long long)pfn, stale, v,
                    (unsigned long long)p, s);
        ok = false;
    }
    return ok;
}

static void test_gart_map_flush_then_access(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pfns[2] = {TU_SYS_PFN + 0x10, TU_SYS_PFN + 0x20};
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 2, 2, pfns));
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, TU_APER_ID));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_BASE + 0x2004, 0x11223344));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_BASE + 0x3000, 0x55667788));
    assert_true(tu_run_ok(gpu, &b));

    assert_true(expect_mem32(gpu, TU_SYS_ADDR(pfns[0]) + 4, 0x11223344));
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(pfns[1]), 0x55667788));
    /* Host reads through the aperture agree. */
    assert_true(expect_mem32(gpu, TU_APER_BASE + 0x2004, 0x11223344));
    assert_true(expect_pte(gpu, TU_APER_ID, 2, 1, pfns[0], 0));
    assert_true(expect_pte(gpu, TU_APER_ID, 3, 1, pfns[1], 0));
    assert_true(expect_pte(gpu, TU_APER_ID, 1, 0, 0, 0));
    assert_true(expect_pte(gpu, TU_APER_ID, 4, 0, 0, 0));

    assert_true(expect_counters_are(gpu, .commands = 4, .execs = 1, .bytes_written = 8,
                                    .gart_pages_mapped = 2, .tlb_flushes = 1));
    tu_destroy(state, gpu);
}

/* Mapped but not flushed, over an invalid TLB line: the GPU faults. */
static void test_gart_map_without_flush_invalid_line_faults(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pfn = TU_SYS_PFN + 9;
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 0, 1, &pfn));
    assert_true(expect_u64(b.w.used, 24));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_BASE + 0x10, 0xABCD));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_UNMAPPED_APERTURE, WK_GPU_OP_WRITE32, 24,
                                 TU_APER_BASE + 0x10));
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(pfn), 0, 0x1000));
    /* The entry was written; only the TLB lags. */
    assert_true(expect_pte(gpu, TU_APER_ID, 0, 1, pfn, -1));
    assert_true(expect_counters_are(gpu, .commands = 1, .execs = 1, .faults = 1,
                                    .gart_pages_mapped = 1));

    /* After the flush the same write lands. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, TU_APER_ID));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_BASE + 0x10, 0xABCD));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(pfn) + 0x10, 0xABCD));
    assert_true(expect_pte(gpu, TU_APER_ID, 0, 1, pfn, 0));
    assert_true(expect_counters_are(gpu, .commands = 3, .execs = 2, .faults = 1,
                                    .gart_pages_mapped = 1, .tlb_flushes = 1, .bytes_written = 4));
    tu_destroy(state, gpu);
}

/* Mapped but not flushed, over a valid TLB line: the GPU uses the old page
 * and stale_tlb_accesses counts it, once per page. */
static void test_gart_map_without_flush_stale_line(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t old0 = TU_SYS_PFN + 1, old1 = TU_SYS_PFN + 2;
    const uint64_t new_pfns[2] = {TU_SYS_PFN + 3, TU_SYS_PFN + 4};
    uint8_t data[4][0x1000];
    for (unsigned i = 0; i < 4; i++) {
        tu_pattern(data[i], sizeof(data[i]), 10 + i);
        tu_write(gpu, TU_SYS_ADDR(TU_SYS_PFN + 1 + i), data[i], sizeof(data[i]));
    }
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 0, old0));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 1, old1));
    assert_true(expect_pte(gpu, TU_APER_ID, 0, 1, old0, 0));

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 0, 2, new_pfns));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_APER_BASE, TU_SEG1_BASE, 0x2000));
    assert_true(tu_run_ok(gpu, &b));
    /* The copy read the old pages. */
    assert_true(expect_bytes(gpu, TU_SEG1_BASE, data[0], 0x1000));
    assert_true(expect_bytes(gpu, TU_SEG1_BASE + 0x1000, data[1], 0x1000));
    assert_true(expect_pte(gpu, TU_APER_ID, 0, 1, new_pfns[0], 1));
    assert_true(expect_pte(gpu, TU_APER_ID, 1, 1, new_pfns[1], 1));
    /* The host path goes by the entries, not the TLB. */
    assert_true(expect_bytes(gpu, TU_APER_BASE, data[2], 0x1000));

    assert_true(expect_counters_are(gpu, .commands = 2, .execs = 1, .gart_pages_mapped = 2,
                                    .bytes_copied = 0x2000, .stale_tlb_accesses = 2));

    /* A write through a stale line lands in the old page too. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_BASE + 0x1008, 0x5A5A5A5A));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(old1) + 8, 0x5A5A5A5A));
    assert_true(expect_bytes(gpu, TU_SYS_ADDR(new_pfns[1]), data[3], 0x1000));
    assert_true(expect_counters_are(gpu, .commands = 3, .execs = 2, .gart_pages_mapped = 2,
                                    .bytes_copied = 0x2000, .bytes_written = 4,
                                    .stale_tlb_accesses = 3));

    /* After TLB_FLUSH the new pages are used and nothing is stale. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, TU_APER_ID));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_APER_BASE, TU_SEG1_BASE, 0x2000));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_bytes(gpu, TU_SEG1_BASE, data[2], 0x1000));
    assert_true(expect_bytes(gpu, TU_SEG1_BASE + 0x1000, data[3], 0x1000));
    assert_true(expect_pte(gpu, TU_APER_ID, 0, 1, new_pfns[0], 0));
    assert_true(expect_counters_are(gpu, .commands = 5, .execs = 3, .gart_pages_mapped = 2,
                                    .tlb_flushes = 1, .bytes_copied = 0x4000, .bytes_written = 4,
                                    .stale_tlb_accesses = 3));
    tu_destroy(state, gpu);
}

/* TLB_FLUSH refreshes the TLB of the named aperture only. */
static void test_tlb_flush_is_per_segment(void **state)
{
    struct wk_gpu_segment_desc segs[3];
    memset(segs, 0, sizeof(segs));
    segs[0].kind = WK_GPU_SEGMENT_MEMORY;
    segs[0].base = TU_SEG1_BASE;
    segs[0].size = TU_SEG1_SIZE;
    segs[1].kind = WK_GPU_SEGMENT_APERTURE;
    segs[1].base = 0x800000;
    segs[1].size = 0x10000;
    segs[2].kind = WK_GPU_SEGMENT_APERTURE;
    segs[2].base = 0x900000;
    segs[2].size = 0x10000;
    struct wk_gpu_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.segment_count = 3;
    desc.segments = segs;
    desc.sysmem_first_pfn = TU_SYS_PFN;
    desc.sysmem_pages = TU_SYS_PAGES;
    struct wk_gpu *gpu = tu_create(state, &desc);

    const uint64_t pfn_a = TU_SYS_PFN + 1, pfn_b = TU_SYS_PFN + 2;
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, 2, 0, 1, &pfn_a));
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, 3, 0, 1, &pfn_b));
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, 2));
    TU_EMIT(wk_gpu_emit_write32(&b.w, 0x800000, 0xA));
    uint64_t bad_at = b.w.used;
    TU_EMIT(wk_gpu_emit_write32(&b.w, 0x900000, 0xB));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_UNMAPPED_APERTURE, WK_GPU_OP_WRITE32,
                                 bad_at, 0x900000));
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(pfn_a), 0xA));
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(pfn_b), 0));
    assert_true(expect_counters_are(gpu, .commands = 4, .execs = 1, .faults = 1,
                                    .gart_pages_mapped = 2, .tlb_flushes = 1, .bytes_written = 4));
    tu_destroy(state, gpu);
}

/* GART_UNMAP points entries at the dummy page, never back to invalid. */
static void test_gart_unmap_to_dummy_page(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t mapped = TU_SYS_PFN + 4, dummy = TU_SYS_PFN + 0xFF;
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 4, mapped));
    struct tu_buf b;
    tu_buf_init(&b);
    /* Page 4 was mapped; pages 5 and 6 were never mapped (invalid). */
    TU_EMIT(wk_gpu_emit_gart_unmap(&b.w, TU_APER_ID, 4, 3, dummy));
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, TU_APER_ID));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_BASE + 4 * 0x1000 + 8, 0x1111));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_BASE + 6 * 0x1000 + 0x20, 0x2222));
    assert_true(tu_run_ok(gpu, &b));

    assert_true(expect_mem32(gpu, TU_SYS_ADDR(dummy) + 8, 0x1111));
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(dummy) + 0x20, 0x2222));
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(mapped), 0, 0x1000));
    for (uint64_t p = 4; p <= 6; p++)
        assert_true(expect_pte(gpu, TU_APER_ID, p, 1, dummy, 0));
    assert_true(expect_pte(gpu, TU_APER_ID, 7, 0, 0, 0));
    /* Reads through any unmapped page see the dummy page. */
    assert_true(expect_mem32(gpu, TU_APER_BASE + 5 * 0x1000 + 8, 0x1111));

    assert_true(expect_counters_are(gpu, .commands = 4, .execs = 1, .gart_pages_unmapped = 3,
                                    .tlb_flushes = 1, .bytes_written = 8));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* CALL                                                                 */
/* ------------------------------------------------------------------ */

static void test_call_runs_callee_then_continues(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t callee_at = TU_SEG1_BASE + 0x10000;
    struct tu_buf callee;
    tu_buf_init(&callee);
    TU_EMIT(wk_gpu_emit_write32(&callee.w, TU_SEG1_BASE + 0x100, 0xC0FFEE01));
    TU_EMIT(wk_gpu_emit_write64(&callee.w, TU_SEG1_BASE + 0x108, 0x1122334455667788ull));
    tu_write(gpu, callee_at, callee.bytes, callee.w.used);

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 0x200, 1));
    TU_EMIT(wk_gpu_emit_call(&b.w, callee_at, (uint32_t)callee.w.used));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 0x204, 2));
    assert_true(tu_run_ok(gpu, &b));

    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x100, 0xC0FFEE01));
    assert_true(expect_mem64(gpu, TU_SEG1_BASE + 0x108, 0x1122334455667788ull));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x200, 1));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x204, 2));

    assert_true(expect_counters_are(gpu, .commands = 5, .execs = 1, .calls = 1,
                                    .bytes_written = 4 + 8 + 4 + 4));
    tu_destroy(state, gpu);
}

/* CALL fetches its target when it runs: a write earlier in the caller
 * changes what the callee does. */
static void test_call_fetches_when_it_runs(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t callee_at = TU_SEG1_BASE + 0x20000;
    struct tu_buf callee;
    tu_buf_init(&callee);
    TU_EMIT(wk_gpu_emit_write32(&callee.w, TU_SEG1_BASE + 0x300, 0x11111111));
    tu_write(gpu, callee_at, callee.bytes, callee.w.used);

    struct tu_buf b;
    tu_buf_init(&b);
    /* Rewrite the callee's value operand (WRITE32 value at +12). */
    TU_EMIT(wk_gpu_emit_write32(&b.w, callee_at + 12, 0x22222222));
    TU_EMIT(wk_gpu_emit_call(&b.w, callee_at, (uint32_t)callee.w.used));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x300, 0x22222222));
    tu_destroy(state, gpu);
}

/* wk_gpu_exec snapshots its buffer: a command that rewrites a later command
 * of the same buffer does not change what runs. The buffer is fetched
 * through whatever region holds it (memory, system memory, aperture). */
static void test_exec_snapshot_and_fetch_regions(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t at = TU_SEG1_BASE + 0x40000;
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, at + 16 + 12, 0x22222222)); /* next command's value */
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 0x500, 0x11111111));
    tu_write(gpu, at, b.bytes, b.w.used);
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    assert_true(expect_status(wk_gpu_exec(gpu, at, b.w.used, &f), WK_OK));
    assert_true(expect_u64(f.reason, WK_GPU_FAULT_NONE));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x500, 0x11111111));
    assert_true(expect_mem32(gpu, at + 28, 0x22222222));

    /* From system memory, and from the aperture page that maps it. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 0x600, 0x600));
    const uint64_t pfn = TU_SYS_PFN + 0x30;
    tu_write(gpu, TU_SYS_ADDR(pfn) + 0x40, b.bytes, b.w.used);
    assert_true(expect_status(wk_gpu_exec(gpu, TU_SYS_ADDR(pfn) + 0x40, b.w.used, &f), WK_OK));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x600, 0x600));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 7, pfn));
    tu_write32(gpu, TU_SEG1_BASE + 0x600, 0);
    assert_true(expect_status(wk_gpu_exec(gpu, TU_APER_BASE + 7 * 0x1000 + 0x40, b.w.used, &f),
                              WK_OK));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x600, 0x600));

    assert_true(expect_counters_are(gpu, .commands = 4, .execs = 3, .bytes_written = 16));
    tu_destroy(state, gpu);
}

/* Buffers B0 .. Bn at consecutive addresses: Bi writes marker i and, for
 * i < n, CALLs B(i+1). Returns the address of B0 and its length. */
static void build_call_chain(struct wk_gpu *gpu, uint32_t n, uint64_t *addr0, uint32_t *len0)
{
    const uint64_t base = TU_SEG1_BASE + 0x80000;
    for (uint32_t i = 0; i <= n; i++) {
        struct tu_buf b;
        tu_buf_init(&b);
        TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 0x1000 + 4 * i, 0x100 + i));
        /* Every buffer is 32 bytes (WRITE32 + CALL) except the last (16). */
        if (i < n)
            TU_EMIT(wk_gpu_emit_call(&b.w, base + 0x100 * (i + 1), i + 1 < n ? 32 : 16));
        tu_write(gpu, base + 0x100 * i, b.bytes, b.w.used);
        if (i == 0)
            *len0 = (uint32_t)b.w.used;
    }
    *addr0 = base;
}

static bool expect_markers(struct wk_gpu *gpu, uint32_t written, uint32_t total)
{
    bool ok = true;
    for (uint32_t i = 0; i < total; i++) {
        uint32_t want = i < written ? 0x100 + i : 0;
        if (!expect_mem32(gpu, TU_SEG1_BASE + 0x1000 + 4 * i, want)) {
            print_error("  marker of call level %u\n", i);
            ok = false;
        }
    }
    return ok;
}

static void test_call_nested_to_default_limit(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint64_t at;
    uint32_t len;
    build_call_chain(gpu, 4, &at, &len); /* depths 0..4: the default limit */
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    assert_true(expect_status(wk_gpu_exec(gpu, at, len, &f), WK_OK));
    assert_true(expect_u64(f.reason, WK_GPU_FAULT_NONE));
    assert_true(expect_markers(gpu, 5, 6));
    assert_true(expect_counters_are(gpu, .commands = 9, .calls = 4, .execs = 1,
                                    .bytes_written = 20));
    tu_destroy(state, gpu);
}

static void test_call_nested_to_configured_limit(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_call_depth = WK_GPU_MAX_CALL_DEPTH;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    uint64_t at;
    uint32_t len;
    build_call_chain(gpu, WK_GPU_MAX_CALL_DEPTH, &at, &len);
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    assert_true(expect_status(wk_gpu_exec(gpu, at, len, &f), WK_OK));
    assert_true(expect_markers(gpu, WK_GPU_MAX_CALL_DEPTH + 1, WK_GPU_MAX_CALL_DEPTH + 2));
    assert_true(expect_counters_are(gpu, .commands = 2 * WK_GPU_MAX_CALL_DEPTH + 1,
                                    .calls = WK_GPU_MAX_CALL_DEPTH, .execs = 1,
                                    .bytes_written = 4 * (WK_GPU_MAX_CALL_DEPTH + 1)));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* BLIT                                                                 */
/* ------------------------------------------------------------------ */

static void test_blit_with_pitches(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    enum { W = 20, H = 5, SP = 64, DP = 48, SRC_AREA = SP * H, DST_AREA = DP * H + 16 };
    const uint64_t src = TU_SEG1_BASE + 0x2000 + 3, dst = TU_SEG2_BASE + 0x100 + 1;
    uint8_t s[SRC_AREA], d[DST_AREA];
    tu_pattern(s, sizeof(s), 77);
    memset(d, 0x77, sizeof(d));
    tu_write(gpu, src, s, sizeof(s));
    tu_write(gpu, dst, d, sizeof(d));
    for (unsigned r = 0; r < H; r++)
        memcpy(d + r * DP, s + r * SP, W);

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_blit(&b.w, src, dst, W, H, SP, DP));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_bytes(gpu, dst, d, sizeof(d)));
    assert_true(expect_bytes(gpu, src, s, sizeof(s)));

    assert_true(expect_counters_are(gpu, .commands = 1, .execs = 1, .bytes_copied = W * H));
    tu_destroy(state, gpu);
}

/* BLIT at its documented limits: width 1 MiB, height 16384. */
static void test_blit_at_limits(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t row[64];
    tu_pattern(row, sizeof(row), 5);
    tu_write(gpu, TU_SEG1_BASE, row, sizeof(row));
    tu_write(gpu, TU_SEG1_END - sizeof(row), row, sizeof(row));
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_SEG2_BASE, 1u << 20, 1, 0, 0));
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_SYS_BASE, 1, 16384, 1, 1));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_bytes(gpu, TU_SEG2_BASE, row, sizeof(row)));
    assert_true(expect_bytes(gpu, TU_SEG2_END - sizeof(row), row, sizeof(row)));
    assert_true(expect_bytes(gpu, TU_SYS_BASE, row, sizeof(row)));
    struct wk_gpu_counters c;
    wk_gpu_get_counters(gpu, &c);
    assert_true(expect_u64(c.bytes_copied, (1u << 20) + 16384));
    assert_true(expect_u64(c.commands, 2));
    /* The 1 MiB row spans all four banks of segment 2: one crossing. */
    assert_true(expect_u64(c.bank_crossings, 1));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* Banks                                                                */
/* ------------------------------------------------------------------ */

/* Runs one command and checks how many bank crossings it added. */
static bool crossings_after(struct wk_gpu *gpu, const struct tu_buf *b, uint64_t want,
                            const char *what)
{
    struct wk_gpu_counters before, after;
    wk_gpu_get_counters(gpu, &before);
    if (!tu_run_ok(gpu, b))
        return false;
    wk_gpu_get_counters(gpu, &after);
    if (after.bank_crossings - before.bank_crossings == want)
        return true;
    print_error("%s: bank_crossings expected +%llu, got +%llu\n", what, (unsigned long long)want,
                (unsigned long long)(after.bank_crossings - before.bank_crossings));
    return false;
}

static void test_bank_crossings(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t b1 = TU_SEG2_BASE + TU_SEG2_BANK_SIZE; /* start of bank 1 */
    struct tu_buf b;
#define CASE_(emit, want, what)         \
    do {                                \
        tu_buf_init(&b);                \
        TU_EMIT(emit);                  \
        assert_true(crossings_after(gpu, &b, (want), (what))); \
    } while (0)
    CASE_(wk_gpu_emit_fill(&b.w, b1 + 0x100, 0x1000, 1), 0, "FILL inside bank 1");
    CASE_(wk_gpu_emit_fill(&b.w, b1 - 0x10, 0x20, 1), 1, "FILL across banks 0|1");
    CASE_(wk_gpu_emit_fill(&b.w, b1 - 0x10, TU_SEG2_BANK_SIZE + 0x20, 1), 1,
          "FILL over banks 0|1|2 (one access)");
    CASE_(wk_gpu_emit_write64(&b.w, b1 - 4, 1), 1, "WRITE64 across banks 0|1");
    CASE_(wk_gpu_emit_write32(&b.w, b1 - 4, 1), 0, "WRITE32 ending at the bank end");
    CASE_(wk_gpu_emit_write32(&b.w, b1, 1), 0, "WRITE32 starting at a bank start");
    CASE_(wk_gpu_emit_fence(&b.w, b1 - 2, 1), 1, "FENCE across banks 0|1");
    CASE_(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, b1 - 8, 16), 1, "COPY dst across banks");
    CASE_(wk_gpu_emit_copy(&b.w, b1 - 8, TU_SEG1_BASE, 16), 1, "COPY src across banks");
    CASE_(wk_gpu_emit_copy(&b.w, TU_SEG2_BASE, b1, 0x100), 0,
          "COPY bank 0 -> bank 1, neither range crossing");
    CASE_(wk_gpu_emit_copy(&b.w, b1 - 8, b1 + TU_SEG2_BANK_SIZE - 8, 16), 2,
          "COPY with both ranges crossing (two accesses)");
    CASE_(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, b1 - 4, 8, 3, 8, 1), 3,
          "BLIT with three rows each crossing");
    CASE_(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, b1 - 12, 8, 3, 8, 8), 1,
          "BLIT with only its middle row crossing");
    CASE_(wk_gpu_emit_fill(&b.w, TU_SEG1_BASE + 0x1000, 0x1000, 1), 0,
          "FILL in an unbanked segment");
#undef CASE_
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* Counters across buffers                                              */
/* ------------------------------------------------------------------ */

static void test_counters_accumulate_across_execs(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG1_BASE, 100, 0));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_SEG1_BASE + 200, 50));
    TU_EMIT(wk_gpu_emit_fence(&b.w, TU_SEG1_BASE + 400, 3));
    for (int i = 0; i < 3; i++)
        assert_true(tu_run_ok(gpu, &b));
    /* Interrupts are raised even with no handler installed. */
    assert_true(expect_counters_are(gpu, .commands = 9, .execs = 3, .bytes_filled = 300,
                                    .bytes_copied = 150, .bytes_written = 24, .fences = 3,
                                    .interrupts = 3));
    assert_true(expect_u64(wk_gpu_last_fence(gpu), 3));
    tu_destroy(state, gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_TEST(test_nop),
        TU_TEST(test_copy_between_segments),
        TU_TEST(test_copy_overlap_forward),
        TU_TEST(test_copy_overlap_backward),
        TU_TEST(test_copy_into_and_out_of_system_memory),
        TU_TEST(test_copy_through_aperture),
        TU_TEST(test_fill_lengths_and_alignment),
        TU_TEST(test_fill_block_edges),
        TU_TEST(test_fill_through_aperture),
        TU_TEST(test_fill_large_and_zero),
        TU_TEST(test_fill_over_scattered_pages),
        TU_TEST(test_copy_from_untouched_memory),
        TU_TEST(test_write32),
        TU_TEST(test_write64),
        TU_TEST(test_fence_stores_then_interrupts),
        TU_TEST(test_fence_faulting_does_not_interrupt),
        TU_TEST(test_gart_map_flush_then_access),
        TU_TEST(test_gart_map_without_flush_invalid_line_faults),
        TU_TEST(test_gart_map_without_flush_stale_line),
        TU_TEST(test_tlb_flush_is_per_segment),
        TU_TEST(test_gart_unmap_to_dummy_page),
        TU_TEST(test_call_runs_callee_then_continues),
        TU_TEST(test_call_fetches_when_it_runs),
        TU_TEST(test_exec_snapshot_and_fetch_regions),
        TU_TEST(test_call_nested_to_default_limit),
        TU_TEST(test_call_nested_to_configured_limit),
        TU_TEST(test_blit_with_pitches),
        TU_TEST(test_blit_at_limits),
        TU_TEST(test_bank_crossings),
        TU_TEST(test_counters_accumulate_across_execs),
    };
    return cmocka_run_group_tests_name("gpu.commands", tests, NULL, NULL);
}
