/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_faults.c - every fault class of docs/gpu-model.md
 * ("Faults"), with the whole fault record, the fault log and its text form.
 *
 * A fault is the model's verdict on a driver's DMA buffer, so the record must
 * be exact: reason, opcode byte, offset of the command in its buffer, the
 * buffer's address, the call depth and, for memory faults, the address. Each
 * test also checks the documented "a faulting command changes nothing": the
 * bytes a faulting COPY or FILL would have written still hold their old
 * background. The last group runs every prefix of every command.
 *
 * fault_addr, where the docs leave it open, is the first byte of the access
 * that cannot be reached: the access start for BAD_ADDRESS (also when
 * addr + length overflows), the region end for CROSSES_SEGMENT, the first
 * byte in the invalid page for UNMAPPED_APERTURE; 0 for faults that are not
 * about memory (opcode, operand, depth, budget).
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

#define NO_OPCODE 0xFFFFFFFFu

static void fill_bg(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint8_t byte)
{
    uint8_t chunk[4096];
    memset(chunk, byte, sizeof(chunk));
    for (uint64_t done = 0; done < len; done += sizeof(chunk))
        tu_write(gpu, addr + done, chunk, len - done < sizeof(chunk) ? len - done : sizeof(chunk));
}

static struct wk_gpu_counters counters_of(const struct wk_gpu *gpu)
{
    struct wk_gpu_counters c;
    wk_gpu_get_counters(gpu, &c);
    return c;
}

/* Stores a built buffer in GPU memory, where wk_gpu_exec or a CALL fetches it. */
static void store_buf(struct wk_gpu *gpu, uint64_t addr, const struct tu_buf *b)
{
    tu_write(gpu, addr, b->bytes, b->w.used);
}

/* wk_gpu_exec of the len bytes at addr faults with exactly this record. The
 * record is poisoned first, so a field the model leaves unwritten shows. */
static bool exec_faults_with(struct wk_gpu *gpu, uint64_t addr, uint64_t len,
                             enum wk_gpu_fault_reason reason, uint32_t opcode, uint64_t offset,
                             uint64_t buffer_addr, uint32_t depth, uint64_t fault_addr)
{
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    bool ok = expect_status(wk_gpu_exec(gpu, addr, len, &f), WK_E_GPU_FAULT);
    return expect_fault_full(&f, reason, opcode, offset, buffer_addr, depth, fault_addr) && ok;
}

/* As exec_faults_with, for a buffer run from the host (tu_run) whose fault
 * lies in a callee: expect_run_fault assumes the top-level buffer, depth 0. */
static bool run_faults_in_callee(struct wk_gpu *gpu, const struct tu_buf *b,
                                 enum wk_gpu_fault_reason reason, uint32_t opcode,
                                 uint64_t offset, uint64_t callee_addr, uint32_t depth,
                                 uint64_t fault_addr)
{
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    bool ok = expect_status(tu_run(gpu, b, &f), WK_E_GPU_FAULT);
    return expect_fault_full(&f, reason, opcode, offset, callee_addr, depth, fault_addr) && ok;
}

/* ------------------------------------------------------------------ */
/* UNKNOWN_OPCODE, TRUNCATED                                            */
/* ------------------------------------------------------------------ */

static void test_unknown_opcode(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint8_t bad[] = {0x0C, 0xFF, 0x80};
    for (unsigned i = 0; i < sizeof(bad); i++) {
        struct tu_buf b;
        tu_buf_init(&b);
        TU_EMIT(wk_gpu_emit_nop(&b.w));
        const uint8_t cmd[4] = {bad[i], 0, 0, 0};
        tu_buf_raw(&b, cmd, sizeof(cmd));
        TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, 0xBAD)); /* never runs */
        assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_UNKNOWN_OPCODE, bad[i], 4, 0));
    }
    assert_true(expect_mem32(gpu, TU_SEG1_BASE, 0));
    assert_true(expect_counters_are(gpu, .commands = 3, .execs = 3, .faults = 3));
    tu_destroy(state, gpu);
}

static void test_truncated_after_valid_commands(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf full;
    tu_buf_init(&full);
    TU_EMIT(wk_gpu_emit_copy(&full.w, TU_SEG1_BASE, TU_SEG2_BASE, 16));
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 0x10, 0x10));
    tu_buf_raw(&b, full.bytes, 10); /* COPY cut after 10 of 28 bytes */
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_TRUNCATED, WK_GPU_OP_COPY, 20, 0));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x10, 0x10)); /* earlier commands ran */
    assert_true(expect_counters_are(gpu, .commands = 2, .execs = 1, .faults = 1,
                                    .bytes_written = 4));
    tu_destroy(state, gpu);
}

/* One valid, fault-free command of each opcode, for the standard adapter.
 * CALL targets a one-NOP buffer the caller must have stored at CALLEE. */
#define CALLEE (TU_SEG1_BASE + 0x9000)

static void emit_valid(struct tu_buf *b, enum wk_gpu_opcode op)
{
    static const uint64_t pfns[2] = {TU_SYS_PFN + 1, TU_SYS_PFN + 2};
    switch (op) {
    case WK_GPU_OP_NOP: TU_EMIT(wk_gpu_emit_nop(&b->w)); break;
    case WK_GPU_OP_COPY:
        TU_EMIT(wk_gpu_emit_copy(&b->w, TU_SEG1_BASE, TU_SEG2_BASE, 64));
        break;
    case WK_GPU_OP_FILL: TU_EMIT(wk_gpu_emit_fill(&b->w, TU_SEG1_BASE, 64, 0x01020304)); break;
    case WK_GPU_OP_WRITE32: TU_EMIT(wk_gpu_emit_write32(&b->w, TU_SEG1_BASE, 1)); break;
    case WK_GPU_OP_WRITE64: TU_EMIT(wk_gpu_emit_write64(&b->w, TU_SEG1_BASE, 1)); break;
    case WK_GPU_OP_FENCE: TU_EMIT(wk_gpu_emit_fence(&b->w, TU_SEG1_BASE + 8, 1)); break;
    case WK_GPU_OP_GART_MAP: TU_EMIT(wk_gpu_emit_gart_map(&b->w, TU_APER_ID, 0, 2, pfns)); break;
    case WK_GPU_OP_GART_UNMAP:
        TU_EMIT(wk_gpu_emit_gart_unmap(&b->w, TU_APER_ID, 0, 2, TU_SYS_PFN));
        break;
    case WK_GPU_OP_TLB_FLUSH: TU_EMIT(wk_gpu_emit_tlb_flush(&b->w, TU_APER_ID)); break;
    case WK_GPU_OP_CALL: TU_EMIT(wk_gpu_emit_call(&b->w, CALLEE, 4)); break;
    case WK_GPU_OP_BLIT:
        TU_EMIT(wk_gpu_emit_blit(&b->w, TU_SEG1_BASE, TU_SEG2_BASE, 8, 4, 16, 32));
        break;
    case WK_GPU_OP_VA_FLUSH: TU_EMIT(wk_gpu_emit_va_flush(&b->w, TU_SEG1_BASE, 0, 0)); break;
    default: fail();
    }
}

/* Every opcode, cut at every length 1 .. len-1: TRUNCATED at the command's
 * offset, and wk_gpu_decode says WK_E_TRUNCATED; the whole command runs. */
static void test_every_opcode_truncated_at_every_length(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    for (uint32_t op = 0; op < WK_GPU_OP_COUNT; op++) {
        wk_gpu_reset(gpu);
        const uint8_t nop[4] = {0, 0, 0, 0};
        tu_write(gpu, CALLEE, nop, sizeof(nop));
        struct tu_buf b;
        tu_buf_init(&b);
        emit_valid(&b, (enum wk_gpu_opcode)op);
        uint64_t len = b.w.used;
        assert_true(expect_u64(b.bytes[0], op));
        struct tu_buf after_nop;
        tu_buf_init(&after_nop);
        TU_EMIT(wk_gpu_emit_nop(&after_nop.w));
        tu_buf_raw(&after_nop, b.bytes, (size_t)len);

        for (uint64_t cut = 1; cut < len; cut++) {
            struct wk_gpu_fault f;
            memset(&f, 0xA5, sizeof(f));
            wk_status s = wk_gpu_exec_bytes(gpu, b.bytes, cut, TU_BUF_ADDR, &f);
            bool ok = expect_status(s, WK_E_GPU_FAULT);
            ok = expect_fault_full(&f, WK_GPU_FAULT_TRUNCATED, op, 0, TU_BUF_ADDR, 0, 0) && ok;
            /* The same prefix after a NOP: the offset is the command's. */
            memset(&f, 0xA5, sizeof(f));
            s = wk_gpu_exec_bytes(gpu, after_nop.bytes, 4 + cut, TU_BUF_ADDR, &f);
            ok = expect_status(s, WK_E_GPU_FAULT) && ok;
            ok = expect_fault_full(&f, WK_GPU_FAULT_TRUNCATED, op, 4, TU_BUF_ADDR, 0, 0) && ok;
            struct wk_gpu_cmd cmd;
            ok = expect_status(wk_gpu_decode(b.bytes, cut, 0, &cmd), WK_E_TRUNCATED) && ok;
            if (!ok) {
                print_error("opcode 0x%02x (%u bytes) cut to %u bytes\n", op, (unsigned)len,
                            (unsigned)cut);
                fail();
            }
        }
        if (!tu_run_bytes_ok(gpu, b.bytes, len)) {
            print_error("opcode 0x%02x: the whole %u-byte command should run\n", op,
                        (unsigned)len);
            fail();
        }
    }
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* BAD_ADDRESS                                                          */
/* ------------------------------------------------------------------ */

static void test_bad_address(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    fill_bg(gpu, TU_SEG2_BASE, 0x100, 0x77);
    struct tu_buf b;

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_HOLE + 0x10, TU_SEG2_BASE, 0x100));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_COPY, 0,
                                 TU_HOLE + 0x10));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0x77, 0x100));

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG2_BASE, 0, 0x100));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_COPY, 4, 0));

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write64(&b.w, 0xFFFFFFFFFFFFFFFCull, 1));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_WRITE64, 0,
                                 0xFFFFFFFFFFFFFFFCull));

    /* Just past the end of system memory. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SYS_END, 1));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_WRITE32, 0,
                                 TU_SYS_END));

    assert_true(expect_counters_are(gpu, .commands = 1, .execs = 4, .faults = 4));
    tu_destroy(state, gpu);
}

/* A BLIT's destination extent (first row start to last row end) must lie in
 * one region: past the segment end is CROSSES_SEGMENT at the region end,
 * even when the last row starts in the hole, and no row lands (docs: "each
 * side's extent lies in one region", checked before any effect). */
static void test_bad_address_blit_row(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t src[0x100];
    tu_pattern(src, sizeof(src), 3);
    tu_write(gpu, TU_SEG2_BASE, src, sizeof(src));
    struct tu_buf b;
    tu_buf_init(&b);
    /* Rows at END-0x208, END-0x108, END-8: the last runs past the end. */
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG2_BASE, TU_SEG1_END - 0x208, 0x10, 3, 0x10, 0x100));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_BLIT, 0,
                                 TU_SEG1_END));
    assert_true(expect_byte_run(gpu, TU_SEG1_END - 0x300, 0, 0x300));
    /* Rows at END-0x300, END-0x200, END-0x100, END: the last starts in the
     * hole; the extent still starts in segment 1 and crosses its end. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG2_BASE, TU_SEG1_END - 0x300, 0x10, 4, 0x10, 0x100));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_BLIT, 0,
                                 TU_SEG1_END));
    assert_true(expect_byte_run(gpu, TU_SEG1_END - 0x300, 0, 0x300));
}

/* "addr + length overflows" is BAD_ADDRESS even when addr lies in a region
 * (a model with an unlimited byte budget, so BUDGET cannot answer first). */
static void test_bad_address_length_overflow(void **state)
{
    struct tu_adapter unlimited;
    tu_std_adapter(&unlimited);
    unlimited.desc.max_bytes_moved = UINT64_MAX;
    struct wk_gpu *gpu = tu_create(state, &unlimited.desc);
    fill_bg(gpu, TU_SEG2_BASE, 0x100, 0x77);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG2_BASE, 0 - TU_SEG2_BASE + 0x10, 0x11111111));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_FILL, 0,
                                 TU_SEG2_BASE));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0x77, 0x100));
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG2_BASE, TU_SEG1_BASE, UINT64_MAX));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_COPY, 0,
                                 TU_SEG2_BASE));
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE, 0, 0x100));
}

/* A DMA buffer or CALL target that cannot be fetched. */
static void test_bad_address_unfetchable_buffer(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    assert_true(exec_faults_with(gpu, TU_HOLE, 16, WK_GPU_FAULT_BAD_ADDRESS, NO_OPCODE, 0, TU_HOLE,
                                 0, TU_HOLE));

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, 1));
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_HOLE + 0x40, 16));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 4, 2));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_CALL, 16,
                                 TU_HOLE + 0x40));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE, 1));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 4, 0));
    struct wk_gpu_counters c = counters_of(gpu);
    assert_true(expect_u64(c.calls, 0));
    assert_true(expect_u64(c.commands, 1));
    assert_true(expect_u64(c.faults, 2));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* CROSSES_SEGMENT                                                      */
/* ------------------------------------------------------------------ */

static void test_crosses_segment(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t src[0x2000];
    tu_pattern(src, sizeof(src), 9);
    tu_write(gpu, TU_SEG2_BASE, src, sizeof(src));
    fill_bg(gpu, TU_SEG1_END - 0x1000, 0x1000, 0x77);
    fill_bg(gpu, TU_SYS_END - 0x10, 0x10, 0x77);
    struct tu_buf b;

    /* COPY whose destination runs 0x1000 past the end of segment 1. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG2_BASE, TU_SEG1_END - 0x1000, 0x2000));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_COPY, 0,
                                 TU_SEG1_END));
    assert_true(expect_byte_run(gpu, TU_SEG1_END - 0x1000, 0x77, 0x1000));

    /* COPY whose source runs past the end of the aperture. */
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, TU_APER_PAGES - 1, TU_SYS_PFN));
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_APER_END - 0x10, TU_SEG1_END - 0x1000, 0x20));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_COPY, 0,
                                 TU_APER_END));
    assert_true(expect_byte_run(gpu, TU_SEG1_END - 0x1000, 0x77, 0x20));

    /* FILL running past the end of system memory, odd length. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SYS_END - 5, 11, 0xAABBCCDD));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_FILL, 0,
                                 TU_SYS_END));
    assert_true(expect_byte_run(gpu, TU_SYS_END - 0x10, 0x77, 0x10));

    /* WRITE32 two bytes before the end of segment 2. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG2_END - 2, 0xFFFFFFFF));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_WRITE32, 0,
                                 TU_SEG2_END));
    assert_true(expect_byte_run(gpu, TU_SEG2_END - 2, 0, 2));

    assert_true(expect_counters_are(gpu, .execs = 4, .faults = 4));
    tu_destroy(state, gpu);
}

/* Two segments back to back: every byte is reachable, but one access may not
 * span both. */
static void test_crosses_segment_between_adjacent_segments(void **state)
{
    struct wk_gpu_segment_desc segs[2];
    memset(segs, 0, sizeof(segs));
    segs[0].kind = WK_GPU_SEGMENT_MEMORY;
    segs[0].base = 0x100000;
    segs[0].size = 0x100000;
    segs[1].kind = WK_GPU_SEGMENT_MEMORY;
    segs[1].base = 0x200000;
    segs[1].size = 0x100000;
    struct wk_gpu_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.segment_count = 2;
    desc.segments = segs;
    desc.sysmem_first_pfn = TU_SYS_PFN;
    desc.sysmem_pages = TU_SYS_PAGES;
    struct wk_gpu *gpu = tu_create(state, &desc);
    fill_bg(gpu, 0x1FFFF0, 0x10, 0x77);
    fill_bg(gpu, 0x200000, 0x10, 0x77);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write64(&b.w, 0x1FFFFC, 0));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_WRITE64, 0,
                                 0x200000));
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, 0x1FFFF8, 0x10, 0));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_CROSSES_SEGMENT, WK_GPU_OP_FILL, 0,
                                 0x200000));
    assert_true(expect_byte_run(gpu, 0x1FFFF0, 0x77, 0x10));
    assert_true(expect_byte_run(gpu, 0x200000, 0x77, 0x10));
    /* The host path has the same rule. */
    uint8_t two[2] = {1, 2};
    assert_true(expect_status(wk_gpu_write(gpu, 0x1FFFFF, two, 2), WK_E_CROSSES_SEGMENT));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* UNMAPPED_APERTURE                                                    */
/* ------------------------------------------------------------------ */

static void test_unmapped_aperture(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pfn0 = TU_SYS_PFN + 0x40;
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 0, pfn0)); /* page 0 valid, page 1 not */
    fill_bg(gpu, TU_SYS_ADDR(pfn0), 0x1000, 0x77);
    fill_bg(gpu, TU_SEG1_BASE, 0x2000, 0x66);
    struct tu_buf b;

    /* Source in a never-mapped page. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_APER_BASE + 0x3000, TU_SEG1_BASE, 0x100));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_UNMAPPED_APERTURE, WK_GPU_OP_COPY, 4,
                                 TU_APER_BASE + 0x3000));
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE, 0x66, 0x100));

    /* FILL starting in mapped page 0 and running into unmapped page 1: the
     * faulting address is the first byte of page 1, and page 0 is intact. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_APER_BASE + 0x800, 0x1000, 0));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_UNMAPPED_APERTURE, WK_GPU_OP_FILL, 0,
                                 TU_APER_BASE + 0x1000));
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(pfn0), 0x77, 0x1000));

    /* COPY into the same range: nothing lands in page 0 either. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_APER_BASE + 0x800, 0x1000));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_UNMAPPED_APERTURE, WK_GPU_OP_COPY, 0,
                                 TU_APER_BASE + 0x1000));
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(pfn0), 0x77, 0x1000));

    /* The host path reports WK_E_UNMAPPED, also without partial effect. */
    uint8_t buf[0x1000];
    memset(buf, 0x55, sizeof(buf));
    assert_true(expect_status(wk_gpu_write(gpu, TU_APER_BASE + 0x800, buf, sizeof(buf)),
                              WK_E_UNMAPPED));
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(pfn0), 0x77, 0x1000));
    assert_true(expect_status(wk_gpu_read(gpu, TU_APER_BASE + 0x1000, buf, 4), WK_E_UNMAPPED));

    assert_true(expect_counters_are(gpu, .commands = 1, .execs = 3, .faults = 3));
    tu_destroy(state, gpu);
}

/* A BLIT's rows are each checked in the aperture, before any lands: with
 * one row per page and page 3 of 5 never mapped, the fault names the first
 * byte of the row in page 3 and the destination is untouched. The side's region is looked
 * up once (op_blit), so this pins the per-row page check it keeps. */
static void test_unmapped_aperture_blit_row(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    for (uint32_t page = 0; page < 5; page++)
        if (page != 3)
            TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, page, TU_SYS_PFN + 0x20 + page));
    fill_bg(gpu, TU_SYS_ADDR(TU_SYS_PFN + 0x20), 0x5000, 0x77);
    fill_bg(gpu, TU_SEG1_BASE, 0x100, 0x66);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_APER_BASE + 0x10, TU_SEG1_BASE, 0x20, 5, 0x1000, 0x20));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_UNMAPPED_APERTURE, WK_GPU_OP_BLIT, 0,
                                 TU_APER_BASE + 0x3010));
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE, 0x66, 0x100));
    /* The same rows as destination; mapped, the BLIT runs whole. */
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 3, TU_SYS_PFN + 0x23));
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_APER_BASE + 0x10, 0x20, 5, 0x20, 0x1000));
    TU_OK(tu_run(gpu, &b, NULL));
    for (uint32_t page = 0; page < 5; page++)
        assert_true(expect_byte_run(gpu, TU_SYS_ADDR(TU_SYS_PFN + 0x20 + page) + 0x10, 0x66, 0x20));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* CALL_DEPTH                                                           */
/* ------------------------------------------------------------------ */

/* A buffer that CALLs itself stops at the depth limit instead of looping. */
static void test_call_depth_self_call(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t at = TU_SEG1_BASE + 0x7000;
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_call(&b.w, at, 16));
    store_buf(gpu, at, &b);
    assert_true(
        exec_faults_with(gpu, at, 16, WK_GPU_FAULT_CALL_DEPTH, WK_GPU_OP_CALL, 0, at, 4, 0));
    tu_destroy(state, gpu);
}

/* max_call_depth 1: level 1 runs, its CALL faults at depth 1. */
static void test_call_depth_configured(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_call_depth = 1;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    const uint64_t l1 = TU_SEG1_BASE + 0x7000, l2 = TU_SEG1_BASE + 0x7100;
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 4, 1));
    TU_EMIT(wk_gpu_emit_call(&b.w, l2, 16));
    store_buf(gpu, l1, &b);
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 8, 2));
    store_buf(gpu, l2, &b);

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, 0xA));
    TU_EMIT(wk_gpu_emit_call(&b.w, l1, 32));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 12, 3)); /* not reached */
    assert_true(
        run_faults_in_callee(gpu, &b, WK_GPU_FAULT_CALL_DEPTH, WK_GPU_OP_CALL, 16, l1, 1, 0));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE, 0xA));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 4, 1));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 8, 0));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 12, 0));
    tu_destroy(state, gpu);
}

/* A fault inside a callee is recorded at the callee's depth, buffer and
 * offset, and the caller does not continue. */
static void test_fault_inside_callee(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t callee_at = TU_SEG2_BASE + 0x100;
    struct tu_buf c;
    tu_buf_init(&c);
    TU_EMIT(wk_gpu_emit_write32(&c.w, TU_SEG1_BASE, 1));
    TU_EMIT(wk_gpu_emit_write32(&c.w, TU_HOLE, 2));
    store_buf(gpu, callee_at, &c);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_call(&b.w, callee_at, (uint32_t)c.w.used));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 4, 3));
    assert_true(run_faults_in_callee(gpu, &b, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_WRITE32, 16,
                                     callee_at, 1, TU_HOLE));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE, 1));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 4, 0));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* BUDGET                                                               */
/* ------------------------------------------------------------------ */

static void test_budget_commands(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_commands = 3;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct tu_buf b;
    tu_buf_init(&b);
    for (int i = 0; i < 3; i++)
        TU_EMIT(wk_gpu_emit_nop(&b.w));
    /* Exactly the budget, twice: the budget is per wk_gpu_exec call. */
    assert_true(tu_run_ok(gpu, &b));
    assert_true(tu_run_ok(gpu, &b));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, 1));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BUDGET, WK_GPU_OP_WRITE32, 12, 0));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE, 0));
    assert_true(expect_counters_are(gpu, .commands = 9, .execs = 3, .faults = 1));
    tu_destroy(state, gpu);
}

/* Runs of NOPs are executed in bulk (gpu-model/exec.c); the budget still
 * counts each one, and the NOP that finds it empty faults at its own offset,
 * wherever it falls in a run: first, middle, last, or a run cut short by a
 * partial word or another command. */
static void test_budget_inside_nop_runs(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_commands = 37;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    for (uint64_t nops = 30; nops <= 40; nops++) {
        struct tu_buf b;
        tu_buf_init(&b);
        for (uint64_t i = 0; i < nops; i++)
            TU_EMIT(wk_gpu_emit_nop(&b.w));
        TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, (uint32_t)nops));
        for (uint64_t i = 0; i < 3; i++)
            TU_EMIT(wk_gpu_emit_nop(&b.w));
        const uint8_t tail[2] = {0, 0};
        tu_buf_raw(&b, tail, sizeof(tail)); /* half a header: TRUNCATED if reached */
        wk_gpu_reset(gpu);
        struct wk_gpu_fault f;
        assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
        /* The rule, one command at a time: decode (the half header fails
         * there), then spend a unit or fault BUDGET. */
        uint64_t units = 37, done = 0, at = 0;
        enum wk_gpu_fault_reason why = WK_GPU_FAULT_TRUNCATED;
        uint32_t opcode = WK_GPU_OP_NOP;
        for (uint64_t i = 0; i < nops + 4; i++, done++) {
            uint32_t op = i == nops ? WK_GPU_OP_WRITE32 : WK_GPU_OP_NOP;
            if (units == 0) {
                why = WK_GPU_FAULT_BUDGET;
                opcode = op;
                break;
            }
            units--;
            at += op == WK_GPU_OP_WRITE32 ? 16 : 4;
        }
        if (why == WK_GPU_FAULT_BUDGET)
            at = done <= nops ? done * 4 : nops * 4 + 16 + (done - nops - 1) * 4;
        if (!expect_fault_full(&f, why, opcode, at, TU_BUF_ADDR, 0, 0)) {
            print_error("  %llu NOPs, a WRITE32, 3 NOPs, 2 bytes; budget 37\n", (unsigned long long)nops);
            fail();
        }
        struct wk_gpu_counters c;
        wk_gpu_get_counters(gpu, &c);
        assert_true(expect_u64(c.commands, done));
        assert_true(expect_mem32(gpu, TU_SEG1_BASE, done > nops ? (uint32_t)nops : 0));
    }
    /* A CALL into zero memory runs a thousand NOPs, and counts them. */
    a.desc.max_commands = 0;
    struct wk_gpu *big = tu_create(state, &a.desc);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_SEG1_BASE + 0x10000, 0x1000));
    assert_true(tu_run_ok(big, &b));
    struct wk_gpu_counters c;
    wk_gpu_get_counters(big, &c);
    assert_true(expect_u64(c.commands, 1 + 0x1000 / 4));
    tu_destroy(state, big);
    tu_destroy(state, gpu);
}

/* BLIT rows and GART_MAP list entries are work units too. */
static void test_budget_rows_and_list_entries(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_commands = 10;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_SEG2_BASE, 4, 100, 4, 4));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BUDGET, WK_GPU_OP_BLIT, 4, 0));

    uint64_t pfns[20];
    for (unsigned i = 0; i < 20; i++)
        pfns[i] = TU_SYS_PFN + i;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 0, 20, pfns));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BUDGET, WK_GPU_OP_GART_MAP, 0, 0));
    tu_destroy(state, gpu);
}

static void test_budget_bytes(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_bytes_moved = 8192;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    fill_bg(gpu, TU_SEG2_BASE, 0x4000, 0x77);
    struct tu_buf b;

    /* 4096 filled + 4096 copied = the budget; one byte more faults. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG1_BASE, 4096, 0x01010101));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_SEG1_BASE + 0x1000, 4096));
    uint64_t at = b.w.used;
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG2_BASE, 1, 0));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BUDGET, WK_GPU_OP_FILL, at, 0));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0x77, 1));
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE + 0x1000, 1, 4096));
    assert_true(expect_counters_are(gpu, .commands = 2, .execs = 1, .faults = 1,
                                    .bytes_filled = 4096, .bytes_copied = 4096));

    /* One COPY over the budget: nothing copied. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_SEG2_BASE, 8193));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BUDGET, WK_GPU_OP_COPY, 0, 0));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0x77, 0x4000));

    /* A BLIT of 100 x 100 bytes: no row lands. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_SEG2_BASE, 100, 100, 100, 100));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BUDGET, WK_GPU_OP_BLIT, 0, 0));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0x77, 0x4000));
    tu_destroy(state, gpu);
}

/* Bytes fetched by CALL count against max_bytes_moved. */
static void test_budget_bytes_fetched_by_call(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_bytes_moved = 40;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    const uint64_t callee = TU_SEG1_BASE + 0x5000; /* 16 bytes of zero: 4 NOPs */
    struct tu_buf b;
    tu_buf_init(&b);
    for (int i = 0; i < 3; i++)
        TU_EMIT(wk_gpu_emit_call(&b.w, callee, 16));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BUDGET, WK_GPU_OP_CALL, 32, 0));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* BAD_OPERAND                                                          */
/* ------------------------------------------------------------------ */

static void test_bad_operand_reserved_header_bits(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    const uint8_t nop_r[4] = {0x00, 0x01, 0x00, 0x00};
    tu_buf_raw(&b, nop_r, 4);
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_NOP, 4, 0));

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, 5));
    b.bytes[3] = 0x80;
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_WRITE32, 0, 0));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE, 0));
    tu_destroy(state, gpu);
}

static void test_bad_operand_list_too_long(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    /* The whole list is present, so only its count is wrong. */
    const uint32_t count = 1048577;
    const size_t len = 16 + 8 * (size_t)count;
    uint8_t *buf = tu_alloc(state, len);
    assert_non_null(buf);
    tu_put32(buf, WK_GPU_OP_GART_MAP);
    tu_put32(buf + 4, TU_APER_ID);
    tu_put32(buf + 8, 0);
    tu_put32(buf + 12, count);
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    assert_true(expect_status(wk_gpu_exec_bytes(gpu, buf, len, TU_BUF_ADDR, &f), WK_E_GPU_FAULT));
    assert_true(expect_fault_full(&f, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_GART_MAP, 0, TU_BUF_ADDR,
                                  0, 0));
    tu_destroy(state, gpu);
}

static void raw_blit(struct tu_buf *b, uint32_t width, uint32_t height)
{
    uint8_t cmd[36];
    tu_put32(cmd, WK_GPU_OP_BLIT);
    tu_put64(cmd + 4, TU_SEG1_BASE);
    tu_put64(cmd + 12, TU_SYS_BASE);
    tu_put32(cmd + 20, width);
    tu_put32(cmd + 24, height);
    tu_put32(cmd + 28, 0);
    tu_put32(cmd + 32, 0);
    tu_buf_raw(b, cmd, sizeof(cmd));
}

static void test_bad_operand_blit_limits(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    tu_buf_init(&b);
    raw_blit(&b, 1048577, 1);
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_BLIT, 0, 0));
    tu_buf_init(&b);
    raw_blit(&b, 1, 16385);
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_BLIT, 0, 0));
    tu_buf_init(&b);
    raw_blit(&b, 1048576, 1); /* at the limit: runs */
    raw_blit(&b, 1, 16384);
    assert_true(tu_run_ok(gpu, &b));
    tu_destroy(state, gpu);
}

/* GART_MAP, GART_UNMAP and TLB_FLUSH, each alone in a buffer, with an
 * operand the model must refuse: the run faults BAD_OPERAND at offset 0,
 * before any entry changes (the callers check the entries). */
static bool gart_map_is_bad_operand(struct wk_gpu *gpu, uint32_t seg, uint32_t first,
                                    uint32_t count, const uint64_t *pfns)
{
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, seg, first, count, pfns));
    return expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_GART_MAP, 0, 0);
}

static bool gart_unmap_is_bad_operand(struct wk_gpu *gpu, uint32_t seg, uint32_t first,
                                      uint32_t count, uint64_t dummy_pfn)
{
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_gart_unmap(&b.w, seg, first, count, dummy_pfn));
    return expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_GART_UNMAP, 0, 0);
}

static bool tlb_flush_is_bad_operand(struct wk_gpu *gpu, uint32_t seg)
{
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, seg));
    return expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_TLB_FLUSH, 0, 0);
}

static void test_bad_operand_segment_not_aperture(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pfn = TU_SYS_PFN;
    const uint32_t bad_segs[] = {0, TU_SEG1_ID, TU_SEG2_ID, 4, 0xFFFFFFFFu};
    for (unsigned i = 0; i < sizeof(bad_segs) / sizeof(bad_segs[0]); i++) {
        assert_true(gart_map_is_bad_operand(gpu, bad_segs[i], 0, 1, &pfn));
        assert_true(gart_unmap_is_bad_operand(gpu, bad_segs[i], 0, 1, pfn));
        assert_true(tlb_flush_is_bad_operand(gpu, bad_segs[i]));
    }
    struct wk_gpu_counters c = counters_of(gpu);
    assert_true(expect_u64(c.gart_pages_mapped, 0));
    assert_true(expect_u64(c.gart_pages_unmapped, 0));
    assert_true(expect_u64(c.tlb_flushes, 0));
    tu_destroy(state, gpu);
}

static bool expect_pte_invalid(struct wk_gpu *gpu, uint64_t page)
{
    int valid = -1, stale = -1;
    uint64_t pfn = 0;
    if (!expect_status(wk_gpu_gart_get(gpu, TU_APER_ID, page, &valid, &pfn, &stale), WK_OK))
        return false;
    if (valid == 0)
        return true;
    print_error("aperture page %llu: expected an invalid entry, got valid=%d pfn=0x%llx\n",
                (unsigned long long)page, valid, (unsigned long long)pfn);
    return false;
}

static void test_bad_operand_page_range(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint64_t pfns[2] = {TU_SYS_PFN, TU_SYS_PFN + 1};
    struct {
        uint32_t first, count;
    } const ranges[] = {
        {(uint32_t)TU_APER_PAGES, 1},
        {(uint32_t)TU_APER_PAGES - 1, 2},
        {0xFFFFFFFFu, 2}, /* first + count wraps */
    };
    for (unsigned i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
        uint32_t n = ranges[i].count;
        assert_true(gart_map_is_bad_operand(gpu, TU_APER_ID, ranges[i].first, n, pfns));
        assert_true(gart_unmap_is_bad_operand(gpu, TU_APER_ID, ranges[i].first, n, TU_SYS_PFN));
    }
    assert_true(
        gart_unmap_is_bad_operand(gpu, TU_APER_ID, 0, (uint32_t)TU_APER_PAGES + 1, TU_SYS_PFN));
    /* No entry changed: the page that did fit is still invalid. */
    assert_true(expect_pte_invalid(gpu, TU_APER_PAGES - 1));
    assert_true(expect_pte_invalid(gpu, 0));
    tu_destroy(state, gpu);
}

static void test_bad_operand_frame_outside_system_memory(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t bad_pfns[] = {TU_SYS_PFN - 1, TU_SYS_PFN + TU_SYS_PAGES, 0,
                                 0xFFFFFFFFFFFFFFFFull};
    for (unsigned i = 0; i < sizeof(bad_pfns) / sizeof(bad_pfns[0]); i++) {
        /* The bad frame is the second of three: the first must not land. */
        const uint64_t pfns[3] = {TU_SYS_PFN, bad_pfns[i], TU_SYS_PFN + 2};
        assert_true(gart_map_is_bad_operand(gpu, TU_APER_ID, 0, 3, pfns));
        assert_true(expect_pte_invalid(gpu, 0));
        assert_true(gart_unmap_is_bad_operand(gpu, TU_APER_ID, 0, 2, bad_pfns[i]));
        assert_true(expect_pte_invalid(gpu, 0));
    }
    /* The last frame of the pool is fine. */
    const uint64_t last = TU_SYS_PFN + TU_SYS_PAGES - 1;
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 0, 1, &last));
    assert_true(tu_run_ok(gpu, &b));
    tu_destroy(state, gpu);
}

static void test_bad_operand_dma_length(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_dma_length = 4096;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct wk_gpu_fault f;
    /* Untouched memory reads as zero, i.e. as NOPs: 4096 bytes run. */
    memset(&f, 0xA5, sizeof(f));
    assert_true(expect_status(wk_gpu_exec(gpu, TU_SEG1_BASE, 4096, &f), WK_OK));
    assert_true(exec_faults_with(gpu, TU_SEG1_BASE, 4097, WK_GPU_FAULT_BAD_OPERAND, NO_OPCODE, 0,
                                 TU_SEG1_BASE, 0, 0));

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_SEG1_BASE, 4096));
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_SEG1_BASE, 4097));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_CALL, 16, 0));
    struct wk_gpu_counters c = counters_of(gpu);
    assert_true(expect_u64(c.calls, 1));
    assert_true(expect_u64(c.commands, 1024 + 1 + 1024));
    tu_destroy(state, gpu);
}

/* Which operand and which rule: every cause of BAD_OPERAND in
 * docs/gpu-model.md ("Faults", the detail table) gets its own words, the
 * same from the validator and the executor, in the record, in the log and
 * in the formatted text. Before the detail existed all of them read
 * "BAD_OPERAND at +0x4 (GART_MAP) in buffer 0x1000 depth 0". */
static bool same_detail(const char *what, const struct wk_gpu_fault_detail *got,
                        const struct wk_gpu_fault_detail *want)
{
    if (got->rule == want->rule && got->operand == want->operand && got->element == want->element &&
        got->value == want->value && got->arg[0] == want->arg[0] && got->arg[1] == want->arg[1])
        return true;
    print_error("%s: detail %s operand 0x%x element %u value 0x%llx args 0x%llx 0x%llx, expected "
                "%s operand 0x%x element %u value 0x%llx args 0x%llx 0x%llx\n",
                what, wk_gpu_operand_rule_name(got->rule), got->operand, got->element,
                (unsigned long long)got->value, (unsigned long long)got->arg[0],
                (unsigned long long)got->arg[1], wk_gpu_operand_rule_name(want->rule), want->operand,
                want->element, (unsigned long long)want->value, (unsigned long long)want->arg[0],
                (unsigned long long)want->arg[1]);
    return false;
}

static bool text_is(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) == 0)
        return true;
    print_error("%s:\n  got      \"%s\"\n  expected \"%s\"\n", what, got, want);
    return false;
}

/* The validator's record of b: BAD_OPERAND at `offset`, static, with the
 * rule and the words given. */
static bool validator_says(struct wk_gpu *gpu, const struct tu_buf *b, uint64_t offset,
                           enum wk_gpu_operand_rule rule, const char *words, struct wk_gpu_fault *vf)
{
    char text[256], want[384];
    memset(vf, 0xA5, sizeof(*vf));
    bool ok = expect_status(wk_gpu_validate(gpu, b->bytes, b->w.used, vf), WK_E_GPU_FAULT);
    ok = expect_fault(vf, WK_GPU_FAULT_BAD_OPERAND, offset, b->bytes[offset]) && ok;
    ok = expect_u64(vf->flags, WK_GPU_FAULT_STATIC) && expect_u64(vf->top_offset, offset) && ok;
    ok = text_is("validate: rule", wk_gpu_operand_rule_name(vf->detail.rule), wk_gpu_operand_rule_name(rule)) && ok;
    wk_gpu_fault_detail_text(vf, text, sizeof(text));
    ok = text_is("validate: detail", text, words) && ok;
    wk_gpu_fault_format(vf, text, sizeof(text));
    snprintf(want, sizeof(want), "BAD_OPERAND at +0x%llx (%s): %s", (unsigned long long)offset,
             wk_gpu_opcode_info(b->bytes[offset])->mnemonic, words);
    return text_is("validate: formatted", text, want) && ok;
}

static bool bad_operand_says(struct wk_gpu *gpu, const struct tu_buf *b, uint64_t offset,
                             enum wk_gpu_operand_rule rule, const char *words)
{
    struct wk_gpu_fault vf, xf, logged;
    char text[256], want[384];
    bool ok = validator_says(gpu, b, offset, rule, words, &vf);
    wk_gpu_reset(gpu);
    memset(&xf, 0xA5, sizeof(xf));
    ok = expect_status(tu_run(gpu, b, &xf), WK_E_GPU_FAULT) && ok;
    ok = expect_fault_full(&xf, WK_GPU_FAULT_BAD_OPERAND, b->bytes[offset], offset, TU_BUF_ADDR, 0, 0) && ok;
    ok = expect_u64(xf.flags, 0) && expect_u64(xf.top_offset, offset) && ok;
    ok = same_detail("exec against validate", &xf.detail, &vf.detail) && ok;
    ok = expect_u64(wk_gpu_faults(gpu, &logged, 1, NULL), 1) && ok;
    ok = same_detail("fault log against exec", &logged.detail, &xf.detail) && ok;
    wk_gpu_fault_format(&xf, text, sizeof(text));
    snprintf(want, sizeof(want), "BAD_OPERAND at +0x%llx (%s) in buffer 0x%llx depth 0: %s",
             (unsigned long long)offset, wk_gpu_opcode_info(b->bytes[offset])->mnemonic,
             (unsigned long long)TU_BUF_ADDR, words);
    return text_is("exec: formatted", text, want) && ok;
}

/* One command after a NOP (so the offset is 4), as hand-made bytes. */
static void nop_then(struct tu_buf *b, const uint8_t *cmd, size_t len)
{
    tu_buf_init(b);
    TU_EMIT(wk_gpu_emit_nop(&b->w));
    tu_buf_raw(b, cmd, len);
}

static void test_bad_operand_details_decode_rules(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    uint8_t cmd[36];
    memset(cmd, 0, sizeof(cmd));
    tu_put32(cmd, 0x106); /* GART_MAP with header bit 8 */
    tu_put32(cmd + 4, TU_APER_ID);
    nop_then(&b, cmd, 16);
    assert_true(bad_operand_says(gpu, &b, 4, WK_GPU_RULE_HEADER_RESERVED, "reserved header bits 0x100 set"));
    tu_put32(cmd, WK_GPU_OP_GART_MAP);
    tu_put32(cmd + 12, 1048577); /* refused before the list is looked for */
    nop_then(&b, cmd, 16);
    assert_true(bad_operand_says(gpu, &b, 4, WK_GPU_RULE_OVER_MAXIMUM, "count 1048577 over its maximum 1048576"));
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    raw_blit(&b, 1048577, 1);
    assert_true(bad_operand_says(gpu, &b, 4, WK_GPU_RULE_OVER_MAXIMUM, "width 1048577 over its maximum 1048576"));
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    raw_blit(&b, 1, 16385);
    assert_true(bad_operand_says(gpu, &b, 4, WK_GPU_RULE_OVER_MAXIMUM, "height 16385 over its maximum 16384"));
    tu_destroy(state, gpu);
}

#define SYSMEM_WORDS "outside system memory (256 pages from PFN 0x10000)"

static void test_bad_operand_details_model_rules(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t pfns[2] = {TU_SYS_PFN, 0x5};
    struct tu_buf b;
#define SAYS_(emit, rule, words)                                                              \
    do {                                                                                      \
        tu_buf_init(&b);                                                                      \
        TU_EMIT(wk_gpu_emit_nop(&b.w));                                                       \
        TU_EMIT(emit);                                                                        \
        if (!bad_operand_says(gpu, &b, 4, (rule), (words))) {                                 \
            print_error("  case: %s\n", #emit);                                               \
            fail();                                                                           \
        }                                                                                     \
    } while (0)
    SAYS_(wk_gpu_emit_gart_map(&b.w, TU_SEG1_ID, 0, 1, pfns), WK_GPU_RULE_NOT_APERTURE,
          "segment 1 is not an aperture");
    SAYS_(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 0, 2, pfns), WK_GPU_RULE_PFN_OUTSIDE_SYSMEM,
          "pfns[1] 0x5 " SYSMEM_WORDS);
    SAYS_(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 63, 2, pfns), WK_GPU_RULE_PAGES_PAST_APERTURE,
          "first_page 63 + count 2 runs past the aperture's 64 pages");
    SAYS_(wk_gpu_emit_gart_map(&b.w, 9, 0, 1, pfns), WK_GPU_RULE_NO_SEGMENT,
          "segment 9 names no segment (the adapter has 3)");
    SAYS_(wk_gpu_emit_tlb_flush(&b.w, TU_SEG2_ID), WK_GPU_RULE_NOT_APERTURE,
          "segment 2 is not an aperture");
    SAYS_(wk_gpu_emit_tlb_flush(&b.w, 0xFFFFFFFFu), WK_GPU_RULE_NO_SEGMENT,
          "segment 4294967295 names no segment (the adapter has 3)");
    SAYS_(wk_gpu_emit_gart_unmap(&b.w, TU_APER_ID, 0, 1, 0xFFFF), WK_GPU_RULE_PFN_OUTSIDE_SYSMEM,
          "dummy_pfn 0xffff " SYSMEM_WORDS);
    SAYS_(wk_gpu_emit_gart_unmap(&b.w, TU_APER_ID, 1, 64, TU_SYS_PFN), WK_GPU_RULE_PAGES_PAST_APERTURE,
          "first_page 1 + count 64 runs past the aperture's 64 pages");
    SAYS_(wk_gpu_emit_gart_unmap(&b.w, TU_SEG1_ID, 0, 1, TU_SYS_PFN), WK_GPU_RULE_NOT_APERTURE,
          "segment 1 is not an aperture");
    SAYS_(wk_gpu_emit_call(&b.w, TU_SEG1_BASE, (64u << 20) + 1), WK_GPU_RULE_DMA_TOO_LONG,
          "bytes 67108865 over max_dma_length 67108864");
#undef SAYS_
    tu_destroy(state, gpu);
}

/* The submitted buffer itself too long: no command, no operand. */
static void test_bad_operand_detail_of_the_buffer_length(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_dma_length = 4096;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct wk_gpu_fault f;
    char text[256];
    assert_true(expect_status(wk_gpu_exec(gpu, TU_SEG1_BASE, 4097, &f), WK_E_GPU_FAULT));
    wk_gpu_fault_format(&f, text, sizeof(text));
    assert_true(text_is("formatted", text,
                        "BAD_OPERAND at +0x0 (none) in buffer 0x100000 depth 0: buffer length 4097 over "
                        "max_dma_length 4096"));
    /* A fault of another reason has no detail. */
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_HOLE, 1));
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    assert_int_equal(f.detail.rule, WK_GPU_RULE_NONE);
    wk_gpu_fault_detail_text(&f, text, sizeof(text));
    assert_string_equal(text, "");
}

/* A fault inside a CALL: offset, buffer and depth say where in the callee;
 * top_offset says which command of the submitted buffer led there (the
 * depth-0 CALL), what `wddmkit gpu exec` prints as the file offset. Before
 * it, a fault at +0x0 of a callee was reported at +0x0 of the file. */
static void test_fault_in_call_records_depth0_offset(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t l1 = TU_SEG2_BASE + 0x100, l2 = TU_SEG2_BASE + 0x200;
    struct tu_buf c2, c1, b;
    tu_buf_init(&c2);
    TU_EMIT(wk_gpu_emit_write32(&c2.w, TU_HOLE, 1));
    store_buf(gpu, l2, &c2);
    tu_buf_init(&c1);
    TU_EMIT(wk_gpu_emit_nop(&c1.w));
    TU_EMIT(wk_gpu_emit_call(&c1.w, l2, (uint32_t)c2.w.used));
    store_buf(gpu, l1, &c1);
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_call(&b.w, l1, (uint32_t)c1.w.used));
    struct wk_gpu_fault f, logged;
    memset(&f, 0xA5, sizeof(f));
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    assert_true(expect_fault_full(&f, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_WRITE32, 0, l2, 2, TU_HOLE));
    assert_true(expect_u64(f.top_offset, 8));
    assert_true(expect_u64(f.flags, 0));
    uint64_t total = 0;
    assert_true(expect_u64(wk_gpu_faults(gpu, &logged, 1, &total), 1));
    assert_true(expect_u64(total, 1));
    assert_true(expect_fault_full(&logged, WK_GPU_FAULT_BAD_ADDRESS, WK_GPU_OP_WRITE32, 0, l2, 2, TU_HOLE));
    assert_true(expect_u64(logged.top_offset, 8));

    /* A refused operand inside a callee keeps its detail on the way up. */
    tu_buf_init(&c1);
    TU_EMIT(wk_gpu_emit_tlb_flush(&c1.w, TU_SEG1_ID));
    store_buf(gpu, l1, &c1);
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_call(&b.w, l1, (uint32_t)c1.w.used));
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    assert_true(expect_fault_full(&f, WK_GPU_FAULT_BAD_OPERAND, WK_GPU_OP_TLB_FLUSH, 0, l1, 1, 0));
    assert_true(expect_u64(f.top_offset, 4));
    char text[256];
    wk_gpu_fault_detail_text(&f, text, sizeof(text));
    assert_true(text_is("detail", text, "segment 1 is not an aperture"));

    /* At depth 0 the command is its own depth-0 command. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_HOLE, 1));
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    assert_true(expect_u64(f.top_offset, 4));
    tu_destroy(state, gpu);
}

/* The budget running out in a run of NOPs inside a callee (run_nops stops
 * there, not the dispatch loop): the same depth-0 offset. */
static void test_budget_in_callee_records_depth0_offset(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_commands = 10;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_SEG2_BASE, 4096)); /* zeroes: 1024 NOPs */
    struct wk_gpu_fault f;
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    assert_true(expect_fault_full(&f, WK_GPU_FAULT_BUDGET, WK_GPU_OP_NOP, 4 * 8, TU_SEG2_BASE, 1, 0));
    assert_true(expect_u64(f.top_offset, 4));
}

/* Address 0 is an address: a memory fault there says so (the formatter
 * used to take fault_addr 0 for "not a memory fault"). A static fault names
 * no buffer: validate fetched none. */
static void test_fault_format_address_zero_and_static(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, 0, 1));
    struct wk_gpu_fault f;
    char text[256];
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    wk_gpu_fault_format(&f, text, sizeof(text));
    assert_true(text_is("exec", text, "BAD_ADDRESS at +0x0 (WRITE32) in buffer 0x1000 depth 0: address 0x0"));
    assert_true(expect_status(wk_gpu_validate(gpu, b.bytes, b.w.used, &f), WK_E_GPU_FAULT));
    wk_gpu_fault_format(&f, text, sizeof(text));
    assert_true(text_is("validate", text, "BAD_ADDRESS at +0x0 (WRITE32): address 0x0"));

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    const uint8_t bad[4] = {0x42, 0, 0, 0};
    tu_buf_raw(&b, bad, 4);
    assert_true(expect_status(wk_gpu_validate(NULL, b.bytes, b.w.used, &f), WK_E_GPU_FAULT));
    wk_gpu_fault_format(&f, text, sizeof(text));
    assert_true(text_is("validate, no model", text, "UNKNOWN_OPCODE at +0x4 (opcode 0x42)"));

    for (int r = 0; r < WK_GPU_FAULT_REASON_COUNT; r++) {
        int memory = r == WK_GPU_FAULT_BAD_ADDRESS || r == WK_GPU_FAULT_UNMAPPED_APERTURE ||
                     r == WK_GPU_FAULT_CROSSES_SEGMENT || r == WK_GPU_FAULT_MEMORY_LIMIT ||
                     r == WK_GPU_FAULT_VA_UNMAPPED || r == WK_GPU_FAULT_VA_READ_ONLY || r == WK_GPU_FAULT_BAD_PTE ||
                     r == WK_GPU_FAULT_NO_ADDRESS_SPACE; /* the root asked for */
        assert_int_equal(wk_gpu_fault_has_address((enum wk_gpu_fault_reason)r), memory);
    }
    tu_destroy(state, gpu);
}

/* The rule table names and words every rule (the enum is dense). */
static void test_operand_rule_names(void **state)
{
    (void)state;
    assert_string_equal(wk_gpu_operand_rule_name(WK_GPU_RULE_NONE), "NONE");
    assert_string_equal(wk_gpu_operand_rule_name(WK_GPU_RULE_NOT_APERTURE), "NOT_APERTURE");
    assert_string_equal(wk_gpu_operand_rule_message(WK_GPU_RULE_DMA_TOO_LONG),
                        "DMA buffer longer than max_dma_length");
    for (int r = 0; r < WK_GPU_RULE_COUNT; r++) {
        assert_string_not_equal(wk_gpu_operand_rule_name((enum wk_gpu_operand_rule)r), "UNKNOWN_RULE");
        assert_string_not_equal(wk_gpu_operand_rule_message((enum wk_gpu_operand_rule)r), "unknown operand rule");
    }
    assert_string_equal(wk_gpu_operand_rule_name(WK_GPU_RULE_COUNT), "UNKNOWN_RULE");
}

/* ------------------------------------------------------------------ */
/* MEMORY_LIMIT                                                         */
/* ------------------------------------------------------------------ */

static void test_memory_limit(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_resident_pages = 64;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    const uint8_t one = 1;

    /* Touch pages of segment 1 until the host path reports the limit. */
    uint64_t n = 0;
    wk_status s = WK_OK;
    for (; n < 256; n++) {
        s = wk_gpu_write(gpu, TU_SEG1_BASE + n * 0x1000, &one, 1);
        if (s != WK_OK)
            break;
    }
    assert_true(expect_status(s, WK_E_LIMIT));
    assert_true(n > 0 && n <= 64);
    assert_true(wk_gpu_resident_pages(gpu) <= 64);
    uint64_t resident = wk_gpu_resident_pages(gpu);

    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + 8, 0x1234)); /* resident page: fine */
    uint64_t at = b.w.used;
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + n * 0x1000 + 4, 0x5678));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_MEMORY_LIMIT, WK_GPU_OP_WRITE32, at,
                                 TU_SEG1_BASE + n * 0x1000 + 4));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 8, 0x1234));

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG2_BASE, 0x40000, 0xFFFFFFFF));
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    assert_true(expect_fault(&f, WK_GPU_FAULT_MEMORY_LIMIT, 0, WK_GPU_OP_FILL));
    /* Nothing was filled and nothing more is resident. */
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0, 0x40000));
    assert_true(expect_u64(wk_gpu_resident_pages(gpu), resident));

    /* Reset gives the pages back. */
    wk_gpu_reset(gpu);
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE + n * 0x1000 + 4, 0x5678));
    assert_true(tu_run_ok(gpu, &b));
    tu_destroy(state, gpu);
}

/* A COPY, FILL or WRITE that does not fit under the limit as a whole
 * changes nothing, though its first pages would fit: the pages it would
 * back are counted before any byte moves. */
static void test_memory_limit_has_no_effect(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_resident_pages = 12;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    static uint8_t data[8 * 0x1000];
    tu_pattern(data, sizeof(data), 9);
    tu_write(gpu, TU_SEG1_BASE, data, sizeof(data)); /* 8 of 12 pages */
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_SEG2_BASE, sizeof(data)));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_MEMORY_LIMIT, WK_GPU_OP_COPY, 0, TU_SEG2_BASE));
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG2_BASE + 0x10, 5 * 0x1000, 0x01020304u));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_MEMORY_LIMIT, WK_GPU_OP_FILL, 0, TU_SEG2_BASE + 0x10));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0, sizeof(data)));
    assert_true(expect_u64(wk_gpu_resident_pages(gpu), 8));
    assert_true(expect_counters_are(gpu, .execs = 2, .faults = 2));
}

/* ------------------------------------------------------------------ */
/* Fault log, names, text                                               */
/* ------------------------------------------------------------------ */

static void test_fault_log_keeps_first_32_counts_all(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const unsigned runs = 40;
    for (unsigned i = 0; i < runs; i++) {
        struct tu_buf b;
        tu_buf_init(&b);
        for (unsigned k = 0; k < i; k++)
            TU_EMIT(wk_gpu_emit_nop(&b.w));
        const uint8_t bad[4] = {0xEE, 0, 0, 0};
        tu_buf_raw(&b, bad, 4);
        /* The fault is logged even when the caller passes no record. */
        assert_true(expect_status(
            wk_gpu_exec_bytes(gpu, b.bytes, b.w.used, TU_BUF_ADDR + i, NULL), WK_E_GPU_FAULT));
    }
    struct wk_gpu_fault log[WK_GPU_FAULT_LOG_SIZE + 8];
    memset(log, 0xA5, sizeof(log));
    uint64_t total = 0;
    uint32_t n = wk_gpu_faults(gpu, log, WK_GPU_FAULT_LOG_SIZE + 8, &total);
    assert_true(expect_u64(n, WK_GPU_FAULT_LOG_SIZE));
    assert_true(expect_u64(total, runs));
    for (unsigned i = 0; i < n; i++) {
        if (!expect_fault_full(&log[i], WK_GPU_FAULT_UNKNOWN_OPCODE, 0xEE, 4 * i, TU_BUF_ADDR + i,
                               0, 0)) {
            print_error("  fault log entry %u\n", i);
            fail();
        }
    }
    /* A smaller request copies the first entries. */
    struct wk_gpu_fault few[5];
    total = 0;
    assert_true(expect_u64(wk_gpu_faults(gpu, few, 5, &total), 5));
    assert_true(expect_u64(total, runs));
    assert_true(expect_u64(few[4].offset, 16));
    assert_true(expect_u64(wk_gpu_faults(gpu, few, 0, &total), 0));

    assert_true(expect_counters_are(gpu, .commands = runs * (runs - 1) / 2, .execs = runs,
                                    .faults = runs));

    wk_gpu_reset(gpu);
    total = 99;
    assert_true(expect_u64(wk_gpu_faults(gpu, log, WK_GPU_FAULT_LOG_SIZE, &total), 0));
    assert_true(expect_u64(total, 0));
    tu_destroy(state, gpu);
}

static void test_fault_format(void **state)
{
    /* The example of docs/gpu-model.md, verbatim. */
    struct wk_gpu_fault f;
    memset(&f, 0, sizeof(f));
    f.reason = WK_GPU_FAULT_UNMAPPED_APERTURE;
    f.opcode = WK_GPU_OP_COPY;
    f.offset = 0x1c;
    f.buffer_addr = 0x1000;
    f.depth = 0;
    f.fault_addr = 0x80002000;
    char text[256];
    memset(text, 'X', sizeof(text));
    wk_gpu_fault_format(&f, text, sizeof(text));
    assert_string_equal(text,
                        "UNMAPPED_APERTURE at +0x1c (COPY) in buffer 0x1000 depth 0: address "
                        "0x80002000");

    /* A truncating buffer still gets a terminated prefix. */
    char small[12];
    memset(small, 'X', sizeof(small));
    wk_gpu_fault_format(&f, small, sizeof(small));
    assert_int_equal(strlen(small), sizeof(small) - 1);
    assert_memory_equal(small, "UNMAPPED_AP", sizeof(small) - 1);

    /* A fault produced by the model formats the same way. */
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t callee = TU_SEG1_BASE + 0x100;
    struct tu_buf c;
    tu_buf_init(&c);
    TU_EMIT(wk_gpu_emit_nop(&c.w));
    TU_EMIT(wk_gpu_emit_nop(&c.w));
    TU_EMIT(wk_gpu_emit_write32(&c.w, TU_HOLE + 0x20, 1));
    store_buf(gpu, callee, &c);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_call(&b.w, callee, (uint32_t)c.w.used));
    memset(&f, 0xA5, sizeof(f));
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    wk_gpu_fault_format(&f, text, sizeof(text));
    assert_string_equal(text,
                        "BAD_ADDRESS at +0x8 (WRITE32) in buffer 0x100100 depth 1: address "
                        "0x200020");

    /* Non-memory faults still start with the name and the offset. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    const uint8_t bad[4] = {0x42, 0, 0, 0};
    tu_buf_raw(&b, bad, 4);
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    wk_gpu_fault_format(&f, text, sizeof(text));
    if (strncmp(text, "UNKNOWN_OPCODE at +0x8 ", 23) != 0) {
        print_error("formatted: \"%s\"\n", text);
        fail();
    }
    tu_destroy(state, gpu);
}

/* A device error the kit asks for fails the next DOORBELL's submission
 * without running it: FAULT and COMPLETED with its tag, reason
 * DEVICE_ERROR, counted in device_errors and not in faults; the one after
 * runs as usual. */
static void test_device_error_next_doorbell(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct wk_gpu_counters c;
    wk_gpu_device_error_next_doorbell(gpu);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ADDR_LO, 0);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_LENGTH, 0);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_TAG, 7);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_DOORBELL, 1);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_IRQ_STATUS), WK_GPU_IRQ_FAULT | WK_GPU_IRQ_COMPLETED);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_TAG), 7);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON), WK_GPU_FAULT_DEVICE_ERROR);
    wk_gpu_get_counters(gpu, &c);
    assert_int_equal(c.device_errors, 1);
    assert_int_equal(c.faults, 0);
    assert_int_equal(c.execs, 0);
    /* Armed once: the next submission runs (and its own verdict is the model's). */
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_IRQ_ACK, 0xFFFFFFFFu);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_TAG, 8);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_DOORBELL, 1);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    wk_gpu_get_counters(gpu, &c);
    assert_int_equal(c.device_errors, 1);
    assert_int_equal(c.execs, 1);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_COMPLETED_TAG), 8);
}

static void test_fault_names_and_messages(void **state)
{
    (void)state;
    static const struct {
        enum wk_gpu_fault_reason r;
        const char *name, *msg;
    } table[] = {
        {WK_GPU_FAULT_NONE, "NONE", "no fault"},
        {WK_GPU_FAULT_UNKNOWN_OPCODE, "UNKNOWN_OPCODE", "unknown opcode"},
        {WK_GPU_FAULT_TRUNCATED, "TRUNCATED", "command truncated by the end of the buffer"},
        {WK_GPU_FAULT_BAD_ADDRESS, "BAD_ADDRESS", "address outside every segment"},
        {WK_GPU_FAULT_UNMAPPED_APERTURE, "UNMAPPED_APERTURE", "unmapped aperture page"},
        {WK_GPU_FAULT_CROSSES_SEGMENT, "CROSSES_SEGMENT", "access crosses a segment end"},
        {WK_GPU_FAULT_CALL_DEPTH, "CALL_DEPTH", "call depth exceeded"},
        {WK_GPU_FAULT_BUDGET, "BUDGET", "command budget exceeded"},
        {WK_GPU_FAULT_BAD_OPERAND, "BAD_OPERAND", "operand holds a forbidden value"},
        {WK_GPU_FAULT_MEMORY_LIMIT, "MEMORY_LIMIT", "model memory limit reached"},
        {WK_GPU_FAULT_DEVICE_ERROR, "DEVICE_ERROR", "device error (the kit's, not the buffer's)"},
        {WK_GPU_FAULT_VA_UNMAPPED, "VA_UNMAPPED", "GPU virtual address not mapped"},
        {WK_GPU_FAULT_VA_READ_ONLY, "VA_READ_ONLY", "write to a read-only GPU virtual page"},
        {WK_GPU_FAULT_BAD_PTE, "BAD_PTE", "page-table entry the MMU cannot read"},
        {WK_GPU_FAULT_NO_ADDRESS_SPACE, "NO_ADDRESS_SPACE", "no attached address space has the submission's root"},
    };
    assert_int_equal(sizeof(table) / sizeof(table[0]), WK_GPU_FAULT_REASON_COUNT);
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        assert_non_null(wk_gpu_fault_name(table[i].r));
        assert_string_equal(wk_gpu_fault_name(table[i].r), table[i].name);
        assert_string_equal(wk_gpu_fault_message(table[i].r), table[i].msg);
    }
    /* Out of range still yields a string, never NULL. */
    assert_non_null(wk_gpu_fault_name(WK_GPU_FAULT_REASON_COUNT));
    assert_non_null(wk_gpu_fault_message((enum wk_gpu_fault_reason)1000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_TEST(test_unknown_opcode),
        TU_TEST(test_truncated_after_valid_commands),
        TU_TEST(test_every_opcode_truncated_at_every_length),
        TU_TEST(test_bad_address),
        TU_TEST(test_bad_address_length_overflow),
        TU_TEST(test_bad_address_blit_row),
        TU_TEST(test_bad_address_unfetchable_buffer),
        TU_TEST(test_crosses_segment),
        TU_TEST(test_crosses_segment_between_adjacent_segments),
        TU_TEST(test_unmapped_aperture),
        TU_TEST(test_unmapped_aperture_blit_row),
        TU_TEST(test_call_depth_self_call),
        TU_TEST(test_call_depth_configured),
        TU_TEST(test_fault_inside_callee),
        TU_TEST(test_budget_commands),
        TU_TEST(test_budget_inside_nop_runs),
        TU_TEST(test_budget_rows_and_list_entries),
        TU_TEST(test_budget_bytes),
        TU_TEST(test_budget_bytes_fetched_by_call),
        TU_TEST(test_bad_operand_reserved_header_bits),
        TU_TEST(test_bad_operand_list_too_long),
        TU_TEST(test_bad_operand_blit_limits),
        TU_TEST(test_bad_operand_segment_not_aperture),
        TU_TEST(test_bad_operand_page_range),
        TU_TEST(test_bad_operand_frame_outside_system_memory),
        TU_TEST(test_bad_operand_dma_length),
        TU_TEST(test_bad_operand_details_decode_rules),
        TU_TEST(test_bad_operand_details_model_rules),
        TU_TEST(test_bad_operand_detail_of_the_buffer_length),
        TU_TEST(test_fault_in_call_records_depth0_offset),
        TU_TEST(test_budget_in_callee_records_depth0_offset),
        TU_TEST(test_fault_format_address_zero_and_static),
        TU_TEST(test_operand_rule_names),
        TU_TEST(test_memory_limit),
        TU_TEST(test_memory_limit_has_no_effect),
        TU_TEST(test_fault_log_keeps_first_32_counts_all),
        TU_TEST(test_fault_format),
        TU_TEST(test_fault_names_and_messages),
        TU_TEST(test_device_error_next_doorbell),
    };
    return cmocka_run_group_tests_name("gpu.faults", tests, NULL, NULL);
}
