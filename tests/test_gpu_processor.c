/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_processor.c - a command processor run on the model
 * (wk_gpu_exec_processor; docs/gpu-model.md,
 * "The memory system and command processors").
 *
 * The processor here is a toy of the test's own, with a format nothing else
 * has (32-byte records), so what is checked is the kit's side only: the run
 * it is handed (range, budget, memory table), what becomes of its fences
 * and faults (last fence, interrupt, fault log with the class mapped to a
 * reason), and that a processor which answers outside the interface
 * (garbage results, classes, offsets, "ran to the end" past its budget) is
 * reported as misbehaving, with nothing logged.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "gpu_test_util.h"
#include "wddmkit/processor.h"

/* The toy format: records of 32 bytes {u32 op, u32 arg, u64 a, b, c}. */
enum toy_op {
    TOY_COPY = 1,        /* a -> b, c bytes */
    TOY_FILL = 2,        /* c bytes at a, the 2-byte pattern arg */
    TOY_FENCE = 3,       /* stores b at a, then signals the fence */
    TOY_FAULT = 4,       /* faults with class arg at offset a (relative to the record: 0) */
    TOY_GREEDY = 5,      /* spends c commands, goes on whatever spend says */
    TOY_RETURN = 6,      /* returns arg */
};
#define TOY_RECORD 32u

static void toy_put(uint8_t *p, uint32_t op, uint32_t arg, uint64_t a, uint64_t b, uint64_t c)
{
    tu_put32(p, op);
    tu_put32(p + 4, arg);
    tu_put64(p + 8, a);
    tu_put64(p + 16, b);
    tu_put64(p + 24, c);
}

static int mem_fault(struct wk_exec_fault *f, uint64_t off, const struct wk_mem_fault *m)
{
    f->cls = WK_FAULT_MEMORY;
    f->mem_reason = m->reason;
    f->fault_addr = m->addr;
    f->offset = off;
    return 1;
}

static int toy_exec(void *self, const struct wk_exec *x, struct wk_exec_fault *f)
{
    (void)self;
    for (uint64_t off = x->start; off < x->end; off += TOY_RECORD) {
        const uint8_t *r = x->bytes + off;
        uint32_t op = tu_get32(r), arg = tu_get32(r + 4);
        uint64_t a = tu_get64(r + 8), b = tu_get64(r + 16), c = tu_get64(r + 24);
        struct wk_mem_fault m;
        f->opcode = op;
        f->offset = off;
        if (op == TOY_GREEDY) {
            (void)x->ops->spend(x, c, 0); /* ignores the answer: the misbehaviour under test */
            continue;
        }
        if (x->ops->spend(x, 1, op == TOY_COPY || op == TOY_FILL ? c : 0) != 0) {
            f->cls = WK_FAULT_BUDGET;
            return 1;
        }
        switch (op) {
        case TOY_COPY:
            if (x->mem_ops->copy(x->mem, b, a, c, &m) != 0)
                return mem_fault(f, off, &m);
            break;
        case TOY_FILL: {
            uint8_t pattern[2] = { (uint8_t)arg, (uint8_t)(arg >> 8) };
            if (x->mem_ops->fill(x->mem, a, c, pattern, 2, &m) != 0)
                return mem_fault(f, off, &m);
            break;
        }
        case TOY_FENCE: {
            uint8_t value[8];
            tu_put64(value, b);
            if (x->mem_ops->store(x->mem, a, value, 8, &m) != 0)
                return mem_fault(f, off, &m);
            x->ops->fence(x, a, b);
            break;
        }
        case TOY_FAULT:
            f->cls = arg;
            f->code = 77;
            f->offset = off + a;
            f->depth = (uint32_t)b;
            return 1;
        case TOY_RETURN:
            return (int)arg;
        default:
            f->cls = WK_FAULT_DECODE;
            return 1;
        }
    }
    return 0;
}

static const struct wk_processor_ops toy = { .size = sizeof(struct wk_processor_ops), .exec = toy_exec };

struct toy_buf {
    uint8_t bytes[64 * TOY_RECORD];
    uint64_t len;
};

static void add(struct toy_buf *t, uint32_t op, uint32_t arg, uint64_t a, uint64_t b, uint64_t c)
{
    toy_put(t->bytes + t->len, op, arg, a, b, c);
    t->len += TOY_RECORD;
}

static wk_status run(struct wk_gpu *gpu, const struct toy_buf *t, struct wk_exec_fault *f, uint32_t *bad)
{
    return wk_gpu_exec_processor(gpu, &toy, NULL, TU_BUF_ADDR, 0, t->len, t->bytes, 0, 1, f, bad);
}

/* ------------------------------------------------------------------ */

static void test_runs_copy_fill_fence(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_irq irq = { 0 };
    wk_gpu_set_interrupt_handler(gpu, tu_irq_handler, &irq);
    uint8_t src[100];
    tu_pattern(src, sizeof(src), 5);
    tu_write(gpu, TU_SEG1_BASE, src, sizeof(src));
    struct toy_buf t = { .len = 0 };
    add(&t, TOY_COPY, 0, TU_SEG1_BASE, TU_SEG2_BASE + 3, sizeof(src));
    add(&t, TOY_FILL, 0xBBAA, TU_SEG1_BASE + 0x1001, 0, 5);
    add(&t, TOY_FENCE, 0, TU_SEG1_BASE + 0x2000, 0x1234, 0);
    struct wk_exec_fault f;
    uint32_t bad = 99;
    TU_OK(run(gpu, &t, &f, &bad));
    assert_int_equal(bad, WK_EXEC_MISBEHAVED_NONE);
    assert_int_equal(f.cls, WK_FAULT_NONE);
    assert_true(expect_bytes(gpu, TU_SEG2_BASE + 3, src, sizeof(src)));
    const uint8_t filled[5] = { 0xAA, 0xBB, 0xAA, 0xBB, 0xAA };
    assert_true(expect_bytes(gpu, TU_SEG1_BASE + 0x1001, filled, 5));
    assert_true(expect_mem64(gpu, TU_SEG1_BASE + 0x2000, 0x1234));
    assert_true(expect_u64(wk_gpu_last_fence(gpu), 0x1234));
    assert_int_equal(irq.count, 1);
    assert_true(irq.addr[0] == TU_SEG1_BASE + 0x2000 && irq.value[0] == 0x1234);
    assert_true(wk_gpu_mmio_read32(gpu, WK_GPU_REG_IRQ_STATUS) & WK_GPU_IRQ_FENCE);
    assert_true(expect_counters_are(gpu, .bytes_copied = 100, .bytes_filled = 5, .bytes_written = 8, .fences = 1,
                                    .interrupts = 1, .execs = 1));
}

/* Only [start, end) runs. */
static void test_runs_the_range_only(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct toy_buf t = { .len = 0 };
    add(&t, TOY_FAULT, WK_FAULT_STATE, 0, 0, 0);
    add(&t, TOY_FILL, 0x0101, TU_SEG1_BASE, 0, 4);
    add(&t, TOY_FAULT, WK_FAULT_STATE, 0, 0, 0);
    TU_OK(wk_gpu_exec_processor(gpu, &toy, NULL, TU_BUF_ADDR, TOY_RECORD, 2 * TOY_RECORD, t.bytes, 0, 0, NULL,
                                NULL));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE, 0x01010101u));
}

static void test_memory_fault_is_logged(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct toy_buf t = { .len = 0 };
    add(&t, TOY_FILL, 1, TU_SEG1_BASE, 0, 4);
    add(&t, TOY_COPY, 0, TU_SEG1_BASE, TU_HOLE + 8, 16);
    add(&t, TOY_FILL, 1, TU_SEG1_BASE + 8, 0, 4);
    struct wk_exec_fault f;
    uint32_t bad = 99;
    assert_true(expect_status(run(gpu, &t, &f, &bad), WK_E_GPU_FAULT));
    assert_int_equal(bad, WK_EXEC_MISBEHAVED_NONE);
    assert_true(f.cls == WK_FAULT_MEMORY && f.mem_reason == WK_GPU_FAULT_BAD_ADDRESS && f.offset == TOY_RECORD);
    struct wk_gpu_fault log[2];
    uint64_t total = 0;
    assert_int_equal(wk_gpu_faults(gpu, log, 2, &total), 1);
    assert_true(expect_fault_full(&log[0], WK_GPU_FAULT_BAD_ADDRESS, TOY_COPY, TOY_RECORD, TU_BUF_ADDR, 0,
                                  TU_HOLE + 8));
    assert_true(expect_u64(log[0].top_offset, TOY_RECORD));
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE + 8, 0, 4)); /* it stopped */
    assert_true(expect_counters_are(gpu, .bytes_filled = 4, .execs = 1, .faults = 1));
}

/* Each class becomes the model's nearest reason; opcode, offset and depth
 * are the processor's. */
static void test_fault_classes_map_to_reasons(void **state)
{
    static const struct {
        uint32_t cls;
        enum wk_gpu_fault_reason reason;
    } map[] = {
        { WK_FAULT_DECODE, WK_GPU_FAULT_UNKNOWN_OPCODE },
        { WK_FAULT_OPERAND, WK_GPU_FAULT_BAD_OPERAND },
        { WK_FAULT_BUDGET, WK_GPU_FAULT_BUDGET },
        { WK_FAULT_STATE, WK_GPU_FAULT_BAD_OPERAND },
    };
    struct wk_gpu *gpu = tu_std_gpu(state);
    for (uint32_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        wk_gpu_reset(gpu);
        struct toy_buf t = { .len = 0 };
        add(&t, TOY_FILL, 1, TU_SEG1_BASE, 0, 4);
        add(&t, TOY_FAULT, map[i].cls, 4, 2, 0);
        struct wk_exec_fault f;
        assert_true(expect_status(run(gpu, &t, &f, NULL), WK_E_GPU_FAULT));
        assert_true(f.cls == map[i].cls && f.code == 77);
        struct wk_gpu_fault log;
        assert_int_equal(wk_gpu_faults(gpu, &log, 1, NULL), 1);
        assert_true(expect_fault_full(&log, map[i].reason, TOY_FAULT, TOY_RECORD + 4, TU_BUF_ADDR, 2, 0));
    }
}

static void test_budget_runs_out(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_commands = 3;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct toy_buf t = { .len = 0 };
    for (int i = 0; i < 5; i++)
        add(&t, TOY_FILL, 0x0101, TU_SEG1_BASE + 4 * (uint64_t)i, 0, 4);
    struct wk_exec_fault f;
    assert_true(expect_status(run(gpu, &t, &f, NULL), WK_E_GPU_FAULT));
    assert_true(f.cls == WK_FAULT_BUDGET && f.offset == 3 * TOY_RECORD);
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE, 1, 12));
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE + 12, 0, 8));
    /* Bytes are charged too: 1 MiB of budget, a FILL of 2 MiB. */
    tu_std_adapter(&a);
    a.desc.max_bytes_moved = 1u << 20;
    gpu = tu_create(state, &a.desc);
    t.len = 0;
    add(&t, TOY_FILL, 1, TU_SEG1_BASE, 0, 0x80000);
    add(&t, TOY_FILL, 1, TU_SEG2_BASE, 0, 0x80001);
    assert_true(expect_status(run(gpu, &t, &f, NULL), WK_E_GPU_FAULT));
    assert_true(f.cls == WK_FAULT_BUDGET && f.offset == TOY_RECORD);
}

/* ------------------------------------------------------------------ */
/* Misbehaviour                                                         */
/* ------------------------------------------------------------------ */

static bool expect_misbehaved(struct wk_gpu *gpu, const struct toy_buf *t, uint32_t want)
{
    uint32_t bad = 99;
    wk_status st = run(gpu, t, NULL, &bad);
    uint64_t total = 1;
    wk_gpu_faults(gpu, NULL, 0, &total);
    if (st != WK_E_INVALID_ARGUMENT || bad != want || total != 0) {
        print_error("expected WK_E_INVALID_ARGUMENT, misbehaved %u, nothing logged; got %s, %u, %llu logged\n",
                    want, wk_status_name(st), bad, (unsigned long long)total);
        return false;
    }
    return true;
}

static void test_misbehaving_processor(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_commands = 10;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct toy_buf t = { .len = 0 };
    add(&t, TOY_GREEDY, 0, 0, 0, 11); /* the budget is gone; it runs on to the end */
    add(&t, TOY_FILL, 1, TU_SEG1_BASE, 0, 4);
    assert_true(expect_misbehaved(gpu, &t, WK_EXEC_MISBEHAVED_BUDGET));
    t.len = 0;
    add(&t, TOY_RETURN, 7, 0, 0, 0);
    assert_true(expect_misbehaved(gpu, &t, WK_EXEC_MISBEHAVED_RESULT));
    t.len = 0;
    add(&t, TOY_RETURN, (uint32_t)-1, 0, 0, 0);
    assert_true(expect_misbehaved(gpu, &t, WK_EXEC_MISBEHAVED_RESULT));
    t.len = 0;
    add(&t, TOY_FAULT, WK_FAULT_CLASS_COUNT, 0, 0, 0);
    assert_true(expect_misbehaved(gpu, &t, WK_EXEC_MISBEHAVED_RESULT));
    t.len = 0;
    add(&t, TOY_FAULT, WK_FAULT_NONE, 0, 0, 0);
    assert_true(expect_misbehaved(gpu, &t, WK_EXEC_MISBEHAVED_RESULT));
    t.len = 0;
    add(&t, TOY_FAULT, WK_FAULT_OPERAND, TOY_RECORD, 0, 0); /* offset at the end: outside */
    assert_true(expect_misbehaved(gpu, &t, WK_EXEC_MISBEHAVED_RESULT));
    /* Arguments. */
    const struct wk_processor_ops none = { .size = sizeof(struct wk_processor_ops) };
    assert_true(expect_status(wk_gpu_exec_processor(gpu, &none, NULL, 0, 0, 4, t.bytes, 0, 0, NULL, NULL),
                              WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_exec_processor(gpu, &toy, NULL, 0, 8, 4, t.bytes, 0, 0, NULL, NULL),
                              WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_exec_processor(gpu, &toy, NULL, 0, 0, 4, NULL, 0, 0, NULL, NULL),
                              WK_E_INVALID_ARGUMENT));
}

static void test_fault_record(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct wk_gpu_fault f = { .reason = WK_GPU_FAULT_CALL_DEPTH, .opcode = 9, .offset = 16 };
    TU_OK(wk_gpu_fault_record(gpu, &f));
    f.reason = WK_GPU_FAULT_REASON_COUNT;
    assert_true(expect_status(wk_gpu_fault_record(gpu, &f), WK_E_INVALID_ARGUMENT));
    struct wk_gpu_fault log[2];
    assert_int_equal(wk_gpu_faults(gpu, log, 2, NULL), 1);
    assert_true(expect_fault(&log[0], WK_GPU_FAULT_CALL_DEPTH, 16, 9));
    assert_true(expect_counters_are(gpu, .faults = 1));
}

/* ------------------------------------------------------------------ */
/* The kit's own command set as a processor                             */
/* ------------------------------------------------------------------ */

/* Runs b on two fresh models, by wk_gpu_exec_bytes and by the kit's
 * processor at offset `start` of a buffer: the same memory, the same
 * fault (class and code from the reason, offset shifted by start). */
static bool kit_matches_exec(void **state, const struct tu_buf *b, uint32_t want_cls)
{
    struct wk_gpu *a = tu_std_gpu(state), *k = tu_std_gpu(state);
    const uint64_t pfn[1] = { TU_SYS_PFN + 3 };
    uint8_t data[256];
    tu_pattern(data, sizeof(data), 11);
    data[0] = 0xEE; /* no opcode: a CALL of TU_SEG1_BASE faults DECODE (0x0b is VA_FLUSH now) */
    for (int i = 0; i < 2; i++) {
        struct wk_gpu *g = i ? k : a;
        tu_write(g, TU_SEG1_BASE, data, sizeof(data));
        TU_OK(wk_gpu_gart_set(g, TU_APER_ID, 0, pfn[0]));
    }
    static uint8_t shifted[TU_BUF_CAP + 64];
    memset(shifted, 0xEE, 64);
    memcpy(shifted + 64, b->bytes, b->w.used);
    struct wk_gpu_fault gf;
    struct wk_exec_fault kf;
    uint32_t bad = 99;
    wk_status sa = tu_run(a, b, &gf);
    wk_status sk = wk_gpu_exec_processor(k, wk_gpu_kit_processor(), NULL, TU_BUF_ADDR - 64, 64, 64 + b->w.used,
                                         shifted, 0, 0, &kf, &bad);
    bool ok = sa == sk && bad == WK_EXEC_MISBEHAVED_NONE;
    if (ok && sa != WK_OK)
        ok = kf.cls == want_cls && kf.code == (uint32_t)gf.reason && kf.offset == 64 + gf.top_offset &&
             kf.opcode == gf.opcode && kf.depth == gf.depth &&
             (kf.cls != WK_FAULT_MEMORY || (kf.fault_addr == gf.fault_addr && kf.mem_reason == gf.reason));
    static const uint64_t bases[4] = { TU_SEG1_BASE, TU_SEG2_BASE, TU_SYS_BASE, TU_APER_BASE };
    static const uint64_t sizes[4] = { TU_SEG1_SIZE, TU_SEG2_SIZE, TU_SYS_END - TU_SYS_BASE, WK_GPU_PAGE_SIZE };
    for (int i = 0; i < 4 && ok; i++) {
        uint64_t da = 0, dk = 0;
        TU_OK(wk_gpu_digest(a, bases[i], sizes[i], &da));
        TU_OK(wk_gpu_digest(k, bases[i], sizes[i], &dk));
        ok = da == dk;
    }
    struct wk_gpu_counters ca, ck;
    wk_gpu_get_counters(a, &ca);
    wk_gpu_get_counters(k, &ck);
    ok = ok && ca.bytes_copied == ck.bytes_copied && ca.bytes_filled == ck.bytes_filled &&
         ca.bytes_written == ck.bytes_written && ca.fences == ck.fences && ca.faults == ck.faults &&
         ca.gart_pages_mapped == ck.gart_pages_mapped && ca.gart_pages_unmapped == ck.gart_pages_unmapped &&
         ca.tlb_flushes == ck.tlb_flushes && ca.stale_tlb_accesses == ck.stale_tlb_accesses &&
         ca.bank_crossings == ck.bank_crossings && wk_gpu_last_fence(a) == wk_gpu_last_fence(k);
    tu_destroy(state, a);
    tu_destroy(state, k);
    if (!ok) {
        char text[256];
        wk_gpu_fault_format(&gf, text, sizeof(text));
        print_error("exec: %s (%s); kit processor: %s, misbehaved %u, class %s code %u offset 0x%llx\n",
                    wk_status_name(sa), text, wk_status_name(sk), bad, wk_fault_class_name(kf.cls), kf.code,
                    (unsigned long long)kf.offset);
    }
    return ok;
}

static void test_kit_processor_is_the_kit(void **state)
{
    const uint64_t pfns[2] = { TU_SYS_PFN + 5, TU_SYS_PFN + 6 };
    struct tu_buf b;
    tu_buf_init(&b); /* every command, through CALL and the aperture */
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_SEG2_BASE + TU_SEG2_BANK_SIZE - 100, 256));
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG1_BASE + 0x1003, 0x2005, 0xA1B2C3D4u));
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG2_BASE + 8, 0x11223344u));
    TU_EMIT(wk_gpu_emit_write64(&b.w, TU_SYS_BASE + 0xFFC, 0x5566778899AABBCCull));
    TU_EMIT(wk_gpu_emit_fence(&b.w, TU_SEG1_BASE + 0x40, 0xFEED));
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 0, 2, pfns));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_APER_BASE + 10, 64)); /* stale line: the old frame */
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_APER_BASE, TU_SEG1_BASE + 0x9000, 16, 4, 64, 32)); /* rows through it */
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_APER_BASE + 0x100, 8, 3, 100, 200));
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, TU_APER_ID));
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_APER_BASE + 4000, 200, 0x01020304u));
    TU_EMIT(wk_gpu_emit_gart_unmap(&b.w, TU_APER_ID, 0, 2, TU_SYS_PFN + 9));
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_SEG2_BASE + 0x1000, 16, 8, 32, 64));
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_SEG1_BASE + 0x80000, 64)); /* 16 NOPs */
    assert_true(kit_matches_exec(state, &b, WK_FAULT_NONE));

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    uint8_t junk[4] = { 0xEE, 0, 0, 0 };
    tu_buf_raw(&b, junk, 4);
    assert_true(kit_matches_exec(state, &b, WK_FAULT_DECODE));

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG1_BASE, 1));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_APER_BASE + 5 * WK_GPU_PAGE_SIZE, 8));
    assert_true(kit_matches_exec(state, &b, WK_FAULT_MEMORY));

    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_tlb_flush(&b.w, TU_SEG1_ID));
    assert_true(kit_matches_exec(state, &b, WK_FAULT_OPERAND));

    tu_buf_init(&b); /* a BLIT whose last row reaches an unmapped page: nothing copied */
    TU_EMIT(wk_gpu_emit_blit(&b.w, TU_SEG1_BASE, TU_APER_BASE + 0x800, 16, 3, 64, 0x800));
    assert_true(kit_matches_exec(state, &b, WK_FAULT_MEMORY));

    tu_buf_init(&b); /* a CALL target that faults: the CALL's offset, the target's depth */
    TU_EMIT(wk_gpu_emit_nop(&b.w));
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_SEG1_BASE, 16));
    assert_true(kit_matches_exec(state, &b, WK_FAULT_DECODE));

    tu_buf_init(&b); /* CALL of a CALL of ...: depth */
    uint8_t self_call[16];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, self_call, sizeof(self_call));
    TU_EMIT(wk_gpu_emit_call(&w, TU_SEG2_BASE + 0x2000, 16));
    TU_EMIT(wk_gpu_emit_write64(&b.w, TU_SEG2_BASE + 0x2000, tu_get64(self_call)));
    TU_EMIT(wk_gpu_emit_write64(&b.w, TU_SEG2_BASE + 0x2008, tu_get64(self_call + 8)));
    TU_EMIT(wk_gpu_emit_call(&b.w, TU_SEG2_BASE + 0x2000, 16));
    assert_true(kit_matches_exec(state, &b, WK_FAULT_STATE));

    tu_buf_init(&b); /* large and overlapping moves */
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, TU_SEG2_BASE, 0x80000));
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG2_BASE, TU_SEG2_BASE + 0x1001, 0x80000));
    assert_true(kit_matches_exec(state, &b, WK_FAULT_NONE));
}

/* Budgets: the run's spend, so the kit's processor stops where the
 * model's exec does, NOPs included. */
static void test_kit_processor_budget(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_commands = 100;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    static uint8_t nops[4 * 150];
    memset(nops, 0, sizeof(nops));
    struct wk_exec_fault f;
    struct wk_gpu_fault g;
    assert_true(expect_status(wk_gpu_exec_bytes(gpu, nops, sizeof(nops), 0, &g), WK_E_GPU_FAULT));
    assert_true(expect_status(wk_gpu_exec_processor(gpu, wk_gpu_kit_processor(), NULL, 0, 0, sizeof(nops), nops, 0,
                                                    0, &f, NULL),
                              WK_E_GPU_FAULT));
    assert_true(f.cls == WK_FAULT_BUDGET && f.offset == g.offset && g.offset == 400);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_TEST(test_runs_copy_fill_fence),
        TU_TEST(test_runs_the_range_only),
        TU_TEST(test_memory_fault_is_logged),
        TU_TEST(test_fault_classes_map_to_reasons),
        TU_TEST(test_budget_runs_out),
        TU_TEST(test_misbehaving_processor),
        TU_TEST(test_fault_record),
        TU_TEST(test_kit_processor_is_the_kit),
        TU_TEST(test_kit_processor_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
