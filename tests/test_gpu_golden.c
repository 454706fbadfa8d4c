/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_golden.c - golden executions of the GPU model: every
 * observable outcome of a fixed set of buffers, compared with a committed
 * record (tests/data/gpu_golden.txt).
 *
 * Why: the command processor and the memory system under it are rewritten
 * for speed and for new clients (processor.h), and the unit tests check
 * what the documentation promises, not every byte the model has ever
 * produced. A golden record written before such a rewrite and compared after
 * it proves the rewrite bit-identical on everything a caller can observe:
 * the status and fault record of each exec, every counter, the last fence,
 * the interrupts raised, the whole fault log, residency, every GART entry
 * and TLB line, and a digest of every region.
 *
 * The inputs: each file of corpus/fuzz_gpu_decode (seeds and regressions,
 * in name order), hand-built buffers that cover every opcode, CALL chains,
 * GART map/unmap/flush, stale TLB lines, bank crossings and a fault of each
 * reason, and seeded random programs of well-formed commands on interesting
 * addresses (region edges, bank edges, mapped and unmapped aperture pages).
 * Each runs twice on a fresh adapter whose memory was first filled with a
 * pattern (some pages left untouched, so zero pages are exercised too),
 * then once more through the registers (DOORBELL, wk_gpu_run).
 *
 * Usage: test_gpu_golden GOLDEN CORPUS_DIR           compare (exit 1 on a difference)
 *        test_gpu_golden --write GOLDEN CORPUS_DIR   (re)write the record
 * A difference names the input and the field: "random-017 counters:
 * bytes_copied expected 4096, got 0".
 *
 * The record's format is this program's own: one line per input and
 * group, "INPUT GROUP field=value ...".
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wddmkit/gpu.h"

#define DMA_ADDR 0x100000ull       /* segment 1 of the reference adapter */
#define SUB_ADDR 0x4C0000ull       /* segment 2, bank 3: random programs' CALL target */
#define SEG1 0x100000ull
#define SEG2 0x400000ull
#define APER 0x800000ull
#define SYS 0x10000000ull
#define SYS_PFN 0x10000ull
#define MAX_INPUT (64u << 10)
#define RANDOM_PROGRAMS 240u

/* ------------------------------------------------------------------ */
/* The record                                                           */
/* ------------------------------------------------------------------ */

/* The whole record in memory: lines appended by the runs below. */
struct text {
    char *buf;
    size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void text_add(struct text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            abort();
        if (t->buf && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap ? t->cap * 2 : 1 << 16) + (size_t)n;
        char *b = realloc(t->buf, cap);
        if (!b)
            abort();
        t->buf = b;
        t->cap = cap;
    }
}

/* ------------------------------------------------------------------ */
/* One adapter, prepared                                                */
/* ------------------------------------------------------------------ */

struct irqs {
    uint64_t count, last_addr, last_value, sum;
};

static void on_irq(void *user, uint64_t addr, uint64_t value)
{
    struct irqs *q = user;
    q->count++;
    q->last_addr = addr;
    q->last_value = value;
    q->sum = q->sum * 31 + addr * 7 + value;
}

/* The reference adapter with the fuzz harness's small budgets, and a
 * host-memory limit the pre-fill leaves little room under, so MEMORY_LIMIT
 * is reachable. */
static struct wk_gpu *make_gpu(void)
{
    struct wk_gpu_desc d = *wk_gpu_reference_desc();
    d.max_commands = 4096;
    d.max_bytes_moved = 1u << 20;
    d.max_dma_length = MAX_INPUT;
    d.max_resident_pages = 480;
    struct wk_gpu *gpu = NULL;
    char why[256];
    if (wk_gpu_create(&d, &gpu, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "test_gpu_golden: cannot build the adapter: %s\n", why);
        exit(2);
    }
    return gpu;
}

static void fill_pattern(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint32_t seed)
{
    static uint8_t page[WK_GPU_PAGE_SIZE];
    for (uint64_t done = 0; done < len; done += sizeof(page)) {
        for (uint32_t i = 0; i < sizeof(page); i++)
            page[i] = (uint8_t)((done + i) * 131u + seed + ((done + i) >> 9));
        if (wk_gpu_write(gpu, addr + done, page, sizeof(page)) != WK_OK)
            abort();
    }
}

/* Segment 1 but its last 256 KiB, segment 2 whole, system memory's first
 * 128 pages: 448 pool pages of 480; aperture pages 0..31 mapped to system
 * pages 0..31 (as the fuzz harness maps them), page 40 to page 200 (never
 * written: a zero page behind the aperture). */
static void prepare(struct wk_gpu *gpu, struct irqs *q)
{
    wk_gpu_reset(gpu);
    memset(q, 0, sizeof(*q));
    wk_gpu_set_interrupt_handler(gpu, on_irq, q);
    fill_pattern(gpu, SEG1, 0xC0000, 1);
    fill_pattern(gpu, SEG2, 0x100000, 2);
    fill_pattern(gpu, SYS, 128 * WK_GPU_PAGE_SIZE, 3);
    if (wk_gpu_gart_set_range(gpu, 3, 0, 32, SYS_PFN) != WK_OK || wk_gpu_gart_set(gpu, 3, 40, SYS_PFN + 200) != WK_OK)
        abort();
}

/* ------------------------------------------------------------------ */
/* What is recorded                                                     */
/* ------------------------------------------------------------------ */

static void record_fault(struct text *t, const char *name, const char *group, wk_status st,
                         const struct wk_gpu_fault *f)
{
    text_add(t,
             "%s %s status=%s reason=%s opcode=0x%x offset=0x%" PRIx64 " buffer=0x%" PRIx64
             " depth=%u fault_addr=0x%" PRIx64 " top_offset=0x%" PRIx64 " flags=%u rule=%u operand=%u"
             " element=%u value=0x%" PRIx64 " arg0=0x%" PRIx64 " arg1=0x%" PRIx64 "\n",
             name, group, wk_status_name(st), wk_gpu_fault_name(f->reason), f->opcode, f->offset,
             f->buffer_addr, f->depth, f->fault_addr, f->top_offset, f->flags, (unsigned)f->detail.rule,
             f->detail.operand, f->detail.element, f->detail.value, f->detail.arg[0], f->detail.arg[1]);
}

#define COUNTER(f) { #f, offsetof(struct wk_gpu_counters, f) }
static const struct {
    const char *name;
    size_t offset;
} counters[] = {
    COUNTER(commands), COUNTER(bytes_copied), COUNTER(bytes_filled), COUNTER(bytes_written),
    COUNTER(bank_crossings), COUNTER(fences), COUNTER(interrupts), COUNTER(gart_pages_mapped),
    COUNTER(gart_pages_unmapped), COUNTER(tlb_flushes), COUNTER(stale_tlb_accesses), COUNTER(calls),
    COUNTER(execs), COUNTER(faults), COUNTER(submissions), COUNTER(submissions_run),
};

static void record_counters(struct text *t, const char *name, struct wk_gpu *gpu, const struct irqs *q)
{
    struct wk_gpu_counters c;
    wk_gpu_get_counters(gpu, &c);
    text_add(t, "%s counters", name);
    for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
        uint64_t v;
        memcpy(&v, (const char *)&c + counters[i].offset, sizeof(v));
        text_add(t, " %s=%" PRIu64, counters[i].name, v);
    }
    text_add(t, " last_fence=0x%" PRIx64 " irqs=%" PRIu64 " irq_addr=0x%" PRIx64 " irq_value=0x%" PRIx64
             " irq_sum=0x%" PRIx64 " resident=%" PRIu64 "\n",
             wk_gpu_last_fence(gpu), q->count, q->last_addr, q->last_value, q->sum, wk_gpu_resident_pages(gpu));
}

static void record_log(struct text *t, const char *name, struct wk_gpu *gpu)
{
    struct wk_gpu_fault log[WK_GPU_FAULT_LOG_SIZE];
    uint64_t total = 0;
    uint32_t n = wk_gpu_faults(gpu, log, WK_GPU_FAULT_LOG_SIZE, &total);
    text_add(t, "%s log total=%" PRIu64 "\n", name, total);
    for (uint32_t i = 0; i < n; i++) {
        char group[32];
        snprintf(group, sizeof(group), "log[%u]", i);
        record_fault(t, name, group, WK_E_GPU_FAULT, &log[i]);
    }
}

static uint64_t digest_or_status(struct wk_gpu *gpu, uint64_t addr, uint64_t len)
{
    uint64_t d = 0;
    wk_status st = wk_gpu_digest(gpu, addr, len, &d);
    return st == WK_OK ? d : (uint64_t)(int64_t)st;
}

/* Every region's bytes, and every aperture entry and TLB line. */
static void record_memory(struct text *t, const char *name, struct wk_gpu *gpu)
{
    uint64_t gart = 0xCBF29CE484222325ull;
    for (uint64_t page = 0; page < 64; page++) {
        int valid = 0, stale = 0;
        uint64_t pfn = 0;
        if (wk_gpu_gart_get(gpu, 3, page, &valid, &pfn, &stale) != WK_OK)
            abort();
        gart = (gart ^ (uint64_t)valid ^ (uint64_t)stale << 1 ^ pfn << 2) * 0x100000001B3ull;
    }
    text_add(t, "%s memory seg1=0x%016" PRIx64 " seg2=0x%016" PRIx64 " sys=0x%016" PRIx64
             " aper_mapped=0x%016" PRIx64 " gart=0x%016" PRIx64 "\n",
             name, digest_or_status(gpu, SEG1, 0x100000), digest_or_status(gpu, SEG2, 0x100000),
             digest_or_status(gpu, SYS, 256 * WK_GPU_PAGE_SIZE), digest_or_status(gpu, APER, 32 * WK_GPU_PAGE_SIZE),
             gart);
}

/* Runs one input: written at DMA_ADDR, executed twice by address (the
 * second run sees the first's GART and memory), then once through the
 * registers; the buffer is also run from the host once (exec_bytes). */
static void run_input(struct text *t, struct wk_gpu *gpu, const char *name, const uint8_t *data, size_t size,
                      const uint8_t *sub, size_t sub_size)
{
    struct irqs q;
    struct wk_gpu_fault f;
    prepare(gpu, &q);
    if (sub_size && wk_gpu_write(gpu, SUB_ADDR, sub, sub_size) != WK_OK)
        abort();
    if (wk_gpu_write(gpu, DMA_ADDR, data, size) != WK_OK)
        abort();
    wk_status st = wk_gpu_exec(gpu, DMA_ADDR, size, &f);
    record_fault(t, name, "exec1", st, &f);
    st = wk_gpu_exec(gpu, DMA_ADDR, size, &f);
    record_fault(t, name, "exec2", st, &f);
    st = wk_gpu_exec_bytes(gpu, data, size, 0x1000, &f);
    record_fault(t, name, "bytes", st, &f);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ADDR_LO, (uint32_t)DMA_ADDR);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ADDR_HI, 0);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_LENGTH, (uint32_t)size);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_TAG, 77);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_DOORBELL, 1);
    uint32_t ran = wk_gpu_run(gpu, 0);
    text_add(t, "%s regs ran=%u irq=0x%x completed=%u fault_tag=%u fault_reason=%u fence=0x%x%08x\n", name, ran,
             wk_gpu_mmio_read32(gpu, WK_GPU_REG_IRQ_STATUS), wk_gpu_mmio_read32(gpu, WK_GPU_REG_COMPLETED_TAG),
             wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_TAG), wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON),
             wk_gpu_mmio_read32(gpu, WK_GPU_REG_FENCE_HI), wk_gpu_mmio_read32(gpu, WK_GPU_REG_FENCE_LO));
    record_counters(t, name, gpu, &q);
    record_log(t, name, gpu);
    record_memory(t, name, gpu);
}

/* ------------------------------------------------------------------ */
/* The corpus                                                           */
/* ------------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_dir(struct text *t, struct wk_gpu *gpu, const char *dir, const char *label)
{
    DIR *d = opendir(dir);
    if (!d)
        return; /* a corpus without regressions */
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512)
        if (e->d_name[0] != '.' && strncmp(e->d_name, "README", 6) != 0)
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof(names[0]), by_name);
    static uint8_t data[MAX_INPUT];
    for (size_t i = 0; i < n; i++) {
        char path[4096], name[600];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        snprintf(name, sizeof(name), "%s/%s", label, names[i]);
        FILE *f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "test_gpu_golden: cannot open %s\n", path);
            exit(2);
        }
        size_t size = fread(data, 1, sizeof(data), f);
        fclose(f);
        run_input(t, gpu, name, data, size, NULL, 0);
        free(names[i]);
    }
}

/* ------------------------------------------------------------------ */
/* Hand-built buffers                                                   */
/* ------------------------------------------------------------------ */

struct buf {
    uint8_t bytes[MAX_INPUT];
    struct wk_gpu_writer w;
};

static void must(wk_status st)
{
    if (st != WK_OK)
        abort();
}

static void raw32(struct buf *b, uint32_t v)
{
    if (b->w.used + 4 > b->w.capacity)
        abort();
    for (int i = 0; i < 4; i++)
        b->w.buf[b->w.used++] = (uint8_t)(v >> (8 * i));
}

typedef void build_fn(struct buf *b, struct buf *sub);

static void h_every_opcode(struct buf *b, struct buf *sub)
{
    static const uint64_t pfns[2] = { SYS_PFN + 5, SYS_PFN + 6 };
    (void)sub;
    must(wk_gpu_emit_nop(&b->w));
    must(wk_gpu_emit_copy(&b->w, SEG2 + 0x100, SEG1 + 0x8000, 0x3000));
    must(wk_gpu_emit_fill(&b->w, SEG1 + 0xC1003, 0x2005, 0xA1B2C3D4u));
    must(wk_gpu_emit_write32(&b->w, SEG2 + 0x3FFFE, 0x11223344u));
    must(wk_gpu_emit_write64(&b->w, SYS + 0x2FFC, 0x5566778899AABBCCull));
    must(wk_gpu_emit_fence(&b->w, SEG1 + 0x40, 0xFEEDull));
    must(wk_gpu_emit_gart_map(&b->w, 3, 50, 2, pfns));
    must(wk_gpu_emit_tlb_flush(&b->w, 3));
    must(wk_gpu_emit_copy(&b->w, SEG2, APER + 50 * 4096 + 100, 5000));
    must(wk_gpu_emit_gart_unmap(&b->w, 3, 50, 2, SYS_PFN + 7));
    must(wk_gpu_emit_blit(&b->w, SEG2 + 0x1000, SEG1 + 0x10000, 100, 20, 256, 300));
    must(wk_gpu_emit_va_flush(&b->w, SEG1 + 0x7000, 0, 0)); /* no space attached: nothing to flush */
    must(wk_gpu_emit_call(&b->w, SUB_ADDR, 0));
}

static void h_call_chain(struct buf *b, struct buf *sub)
{
    must(wk_gpu_emit_fill(&sub->w, SEG1 + 0x20000, 64, 0x01020304u));
    must(wk_gpu_emit_call(&sub->w, SUB_ADDR, 0)); /* length patched below */
    must(wk_gpu_emit_write32(&b->w, SEG1 + 0x30000, 1));
    must(wk_gpu_emit_call(&b->w, SUB_ADDR, (uint32_t)sub->w.used));
    must(wk_gpu_emit_write32(&b->w, SEG1 + 0x30004, 2));
}

/* The sub-buffer calls itself: depth grows to the limit. */
static void h_call_depth(struct buf *b, struct buf *sub)
{
    must(wk_gpu_emit_write32(&sub->w, SEG1 + 0x30008, 3));
    uint64_t at = sub->w.used;
    must(wk_gpu_emit_call(&sub->w, SUB_ADDR, 0));
    uint32_t len = (uint32_t)sub->w.used;
    for (int i = 0; i < 4; i++) /* CALL's `bytes` operand: 32 bits after the 64-bit address */
        sub->bytes[at + 12 + i] = (uint8_t)(len >> (8 * i));
    must(wk_gpu_emit_call(&b->w, SUB_ADDR, len));
}

static void h_call_into_zeroes(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_call(&b->w, SEG1 + 0xD0000, 0x4000)); /* never written: NOPs */
    must(wk_gpu_emit_call(&b->w, SEG1 + 0xF0000, 0x8000)); /* 8192 NOPs: over the command budget */
}

static void h_call_fault_nested(struct buf *b, struct buf *sub)
{
    must(wk_gpu_emit_nop(&sub->w));
    must(wk_gpu_emit_copy(&sub->w, SEG1, 0x200000, 16)); /* hole: BAD_ADDRESS at depth 1 */
    must(wk_gpu_emit_nop(&b->w));
    must(wk_gpu_emit_call(&b->w, SUB_ADDR, (uint32_t)sub->w.used));
}

static void h_stale_tlb(struct buf *b, struct buf *sub)
{
    static const uint64_t pfns[3] = { SYS_PFN + 9, SYS_PFN + 10, SYS_PFN + 11 };
    (void)sub;
    must(wk_gpu_emit_gart_map(&b->w, 3, 2, 3, pfns)); /* pages 2..4 were 2..4, now 9..11 unflushed */
    must(wk_gpu_emit_fill(&b->w, APER + 2 * 4096 + 10, 3 * 4096 - 20, 0x77u));
    must(wk_gpu_emit_copy(&b->w, APER + 3 * 4096, SEG1 + 0x50000, 4096));
    must(wk_gpu_emit_gart_map(&b->w, 3, 45, 1, pfns)); /* unmapped, mapped without flush */
    must(wk_gpu_emit_write32(&b->w, APER + 45 * 4096, 5)); /* the TLB has nothing: UNMAPPED */
}

static void h_unmap_flush(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_gart_unmap(&b->w, 3, 0, 8, SYS_PFN + 250));
    must(wk_gpu_emit_write64(&b->w, APER + 4096 + 8, 0x1234));
    must(wk_gpu_emit_tlb_flush(&b->w, 3));
    must(wk_gpu_emit_write64(&b->w, APER + 2 * 4096 + 8, 0x5678));
    must(wk_gpu_emit_fill(&b->w, APER, 8 * 4096, 0));
}

static void h_banks(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_copy(&b->w, SEG2 + 0x3F000, SEG2 + 0x7F800, 0x1000));
    must(wk_gpu_emit_fill(&b->w, SEG2 + 0xBFFFC, 8, 0xDEADBEEFu));
    must(wk_gpu_emit_write64(&b->w, SEG2 + 0x3FFFC, 1));
    must(wk_gpu_emit_blit(&b->w, SEG2 + 0x3FF00, SEG2 + 0xBFF00, 0x200, 4, 0x1000, 0x1000));
    must(wk_gpu_emit_copy(&b->w, SEG2 + 0x10, SEG2 + 0x20, 0x40000)); /* overlapping, forward */
    must(wk_gpu_emit_copy(&b->w, SEG1 + 0x100, SEG1 + 0x80, 0x5000)); /* overlapping, backward */
}

static void h_zero_pages(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_copy(&b->w, SEG1 + 0xD0000, SEG1 + 0xE0000, 0x3000)); /* zeroes onto zeroes */
    must(wk_gpu_emit_copy(&b->w, SEG1 + 0xD0000, SEG1 + 0x1000, 0x3000));  /* zeroes onto data */
    must(wk_gpu_emit_fill(&b->w, SEG1 + 0xE8000, 0x2000, 0));             /* zero fill of nothing */
    must(wk_gpu_emit_copy(&b->w, APER + 40 * 4096, SEG1 + 0x9000, 4096)); /* zero system page */
    must(wk_gpu_emit_fill(&b->w, SYS + 200 * 4096 + 17, 100, 0x0F0F0F0Fu));
}

static void f_unknown(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_nop(&b->w));
    raw32(b, 0x000000EEu);
}

static void f_truncated(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_write32(&b->w, SEG1, 1));
    raw32(b, WK_GPU_OP_COPY);
    raw32(b, 0);
}

static void f_bad_address(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_write32(&b->w, 0x200010, 1));
}

static void f_unmapped(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_copy(&b->w, SEG1, APER + 31 * 4096 + 8, 4096));
}

static void f_crosses(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_fill(&b->w, SEG2 + 0xFFFF0, 0x20, 1));
}

static void f_budget_bytes(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_copy(&b->w, SEG1, SEG2, 0x80000));
    must(wk_gpu_emit_copy(&b->w, SEG2, SEG1, 0x80001));
}

static void f_budget_units(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_blit(&b->w, SEG1, SEG2, 4, 4000, 8, 8));
    must(wk_gpu_emit_blit(&b->w, SEG1, SEG2, 4, 200, 8, 8));
}

static void f_bad_operands(struct buf *b, struct buf *sub)
{
    static const uint64_t pfn = 5;
    (void)sub;
    must(wk_gpu_emit_gart_map(&b->w, 3, 10, 1, &pfn));
}

static void f_not_aperture(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_tlb_flush(&b->w, 1));
}

static void f_pages_past(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_gart_unmap(&b->w, 3, 60, 5, SYS_PFN));
}

static void f_header_reserved(struct buf *b, struct buf *sub)
{
    (void)sub;
    raw32(b, 0x00000100u | WK_GPU_OP_NOP);
}

static void f_call_too_long(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_call(&b->w, SEG1, MAX_INPUT + 4));
}

static void f_memory_limit(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_fill(&b->w, SEG1 + 0xC0000, 0x40000, 0x12345678u));
}

static void f_memory_limit_copy(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_copy(&b->w, SEG2, SEG1 + 0xC0800, 0x3F000));
}

static void f_blit_row_unmapped(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_blit(&b->w, SEG1, APER + 30 * 4096, 64, 3, 64, 4096));
}

static void f_wrap(struct buf *b, struct buf *sub)
{
    (void)sub;
    must(wk_gpu_emit_copy(&b->w, UINT64_MAX - 8, SEG1, 64));
}

static const struct {
    const char *name;
    build_fn *fn;
} hand[] = {
    { "every-opcode", h_every_opcode },
    { "call-chain", h_call_chain },
    { "call-depth", h_call_depth },
    { "call-into-zeroes", h_call_into_zeroes },
    { "call-fault-nested", h_call_fault_nested },
    { "stale-tlb", h_stale_tlb },
    { "unmap-flush", h_unmap_flush },
    { "banks", h_banks },
    { "zero-pages", h_zero_pages },
    { "fault-unknown-opcode", f_unknown },
    { "fault-truncated", f_truncated },
    { "fault-bad-address", f_bad_address },
    { "fault-unmapped", f_unmapped },
    { "fault-crosses", f_crosses },
    { "fault-budget-bytes", f_budget_bytes },
    { "fault-budget-units", f_budget_units },
    { "fault-pfn-outside", f_bad_operands },
    { "fault-not-aperture", f_not_aperture },
    { "fault-pages-past", f_pages_past },
    { "fault-header-reserved", f_header_reserved },
    { "fault-call-too-long", f_call_too_long },
    { "fault-memory-limit", f_memory_limit },
    { "fault-memory-limit-copy", f_memory_limit_copy },
    { "fault-blit-row-unmapped", f_blit_row_unmapped },
    { "fault-wrap", f_wrap },
};

static void run_hand(struct text *t, struct wk_gpu *gpu)
{
    static struct buf b, sub;
    for (size_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
        char name[64];
        wk_gpu_writer_init(&b.w, b.bytes, sizeof(b.bytes));
        wk_gpu_writer_init(&sub.w, sub.bytes, sizeof(sub.bytes));
        hand[i].fn(&b, &sub);
        snprintf(name, sizeof(name), "hand/%s", hand[i].name);
        run_input(t, gpu, name, b.bytes, b.w.used, sub.bytes, sub.w.used);
    }
}

/* ------------------------------------------------------------------ */
/* Random programs                                                      */
/* ------------------------------------------------------------------ */

static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static uint64_t pick(uint64_t *s, uint64_t n)
{
    return next(s) % n;
}

/* An address inside a region, with room after it (seven times in eight),
 * or near something interesting: an edge, a hole. */
static uint64_t some_addr(uint64_t *s)
{
    static const struct {
        uint64_t base, room;
    } inside[] = { { SEG1, 0xE0000 }, { SEG2, 0xE0000 }, { APER, 0x18000 }, { SYS, 0xE0000 } };
    if (pick(s, 8)) {
        uint32_t i = (uint32_t)pick(s, 4);
        return inside[i].base + pick(s, inside[i].room);
    }
    static const uint64_t spots[] = {
        SEG1, SEG1 + 0xC0000, SEG1 + 0x100000, SEG2, SEG2 + 0x40000, SEG2 + 0x80000, SEG2 + 0xC0000,
        SEG2 + 0x100000, APER, APER + 32 * 4096, APER + 40 * 4096, APER + 64 * 4096, SYS, SYS + 128 * 4096,
        SYS + 256 * 4096, 0x200000, 0,
    };
    uint64_t base = spots[pick(s, sizeof(spots) / sizeof(spots[0]))];
    switch (pick(s, 4)) {
    case 0: return base + pick(s, 64);
    case 1: return base - pick(s, 64) - 1;
    case 2: return base + pick(s, 0x20000);
    default: return base + (pick(s, 32) << 12);
    }
}

static uint64_t some_len(uint64_t *s)
{
    static const uint64_t lens[] = { 0, 1, 3, 4, 7, 8, 64, 4095, 4096, 4097, 8200, 0x10000, 0x41000, 0x100001 };
    return pick(s, 3) ? pick(s, 0x6000) : lens[pick(s, sizeof(lens) / sizeof(lens[0]))];
}

static uint32_t some_pattern(uint64_t *s)
{
    static const uint32_t pats[] = { 0, 0x5A5A5A5Au, 0xA1B2C3D4u, 0xFFFFFFFFu };
    return pick(s, 2) ? pats[pick(s, 4)] : (uint32_t)next(s);
}

static uint64_t some_pfn(uint64_t *s)
{
    return pick(s, 40) ? SYS_PFN + pick(s, 256) : next(s) & 0xFFFFF;
}

static void random_command(struct buf *b, uint64_t *s, uint32_t sub_len)
{
    uint64_t pfns[8];
    uint32_t count = (uint32_t)pick(s, 9);
    for (uint32_t i = 0; i < 8; i++)
        pfns[i] = some_pfn(s);
    uint32_t seg = pick(s, 8) ? 3 : (uint32_t)pick(s, 6);
    /* Every random value in a named local, drawn last operand first: the
     * order of a call's arguments is unspecified in C, and the record must
     * not depend on the compiler (this is the order gcc drew them in when
     * the record was written). */
    wk_status st = WK_OK;
    uint64_t v[6];
    switch (pick(s, 4) ? pick(s, 13) : pick(s, 14)) { /* garbage words rarely: most programs run on */
    case 0: st = wk_gpu_emit_nop(&b->w); break;
    case 1: case 2:
        v[2] = some_len(s), v[1] = some_addr(s), v[0] = some_addr(s);
        st = wk_gpu_emit_copy(&b->w, v[0], v[1], v[2]);
        break;
    case 3: case 4:
        v[2] = some_pattern(s), v[1] = some_len(s), v[0] = some_addr(s);
        st = wk_gpu_emit_fill(&b->w, v[0], v[1], (uint32_t)v[2]);
        break;
    case 5: v[1] = next(s), v[0] = some_addr(s); st = wk_gpu_emit_write32(&b->w, v[0], (uint32_t)v[1]); break;
    case 6: v[1] = next(s), v[0] = some_addr(s); st = wk_gpu_emit_write64(&b->w, v[0], v[1]); break;
    case 7: v[1] = next(s), v[0] = some_addr(s); st = wk_gpu_emit_fence(&b->w, v[0], v[1]); break;
    case 8: st = wk_gpu_emit_gart_map(&b->w, seg, (uint32_t)pick(s, 66), count, pfns); break;
    case 9:
        v[1] = some_pfn(s), v[0] = pick(s, 66);
        st = wk_gpu_emit_gart_unmap(&b->w, seg, (uint32_t)v[0], count, v[1]);
        break;
    case 10: st = wk_gpu_emit_tlb_flush(&b->w, seg); break;
    case 11:
        if (pick(s, 3)) {
            st = wk_gpu_emit_call(&b->w, SUB_ADDR, sub_len);
        } else {
            v[1] = pick(s, 0x2000), v[0] = some_addr(s);
            st = wk_gpu_emit_call(&b->w, v[0], (uint32_t)v[1] & ~3u);
        }
        break;
    case 12:
        for (int i = 5; i >= 0; i--)
            v[i] = i >= 4 ? pick(s, 5000) : i == 3 ? pick(s, 40) : i == 2 ? pick(s, 300) : some_addr(s);
        st = wk_gpu_emit_blit(&b->w, v[0], v[1], (uint32_t)v[2], (uint32_t)v[3], (uint32_t)v[4], (uint32_t)v[5]);
        break;
    default:
        v[0] = next(s), v[1] = pick(s, 2);
        raw32(b, (uint32_t)v[0] & (v[1] ? 0xFFu : 0xFFFFFFFFu));
        break;
    }
    if (st != WK_OK && st != WK_E_NO_SPACE)
        abort();
}

static void random_program(struct buf *b, struct buf *sub, uint64_t *s)
{
    uint32_t sub_cmds = (uint32_t)pick(s, 6), cmds = 1 + (uint32_t)pick(s, 16);
    /* The sub-buffer may CALL itself (its own length is known only at the
     * end: a CALL to it with length 0 is a no-op until the last, real one). */
    for (uint32_t i = 0; i < sub_cmds; i++)
        random_command(sub, s, 0);
    if (pick(s, 3) == 0)
        must(wk_gpu_emit_call(&sub->w, SUB_ADDR, (uint32_t)sub->w.used + 16));
    for (uint32_t i = 0; i < cmds; i++)
        random_command(b, s, (uint32_t)sub->w.used);
}

static void run_random(struct text *t, struct wk_gpu *gpu)
{
    static struct buf b, sub;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (uint32_t i = 0; i < RANDOM_PROGRAMS; i++) {
        char name[32];
        wk_gpu_writer_init(&b.w, b.bytes, 4096);
        wk_gpu_writer_init(&sub.w, sub.bytes, 2048);
        random_program(&b, &sub, &s);
        snprintf(name, sizeof(name), "random-%03u", i);
        run_input(t, gpu, name, b.bytes, b.w.used, sub.bytes, sub.w.used);
    }
}

/* ------------------------------------------------------------------ */
/* Comparing                                                            */
/* ------------------------------------------------------------------ */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *b = realloc(buf, 2 * cap + 1);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

/* Prints which fields of two lines differ: "INPUT GROUP: field expected
 * X, got Y" (the lines share their first two words, or the whole line is
 * printed). */
static void explain(const char *want, const char *got)
{
    char a[4096], b[4096];
    snprintf(a, sizeof(a), "%s", want);
    snprintf(b, sizeof(b), "%s", got);
    char *sa = NULL, *sb = NULL;
    char *wa = strtok_r(a, " ", &sa), *wb = strtok_r(b, " ", &sb);
    char *ga = strtok_r(NULL, " ", &sa), *gb = strtok_r(NULL, " ", &sb);
    if (!wa || !wb || !ga || !gb || strcmp(wa, wb) || strcmp(ga, gb)) {
        fprintf(stderr, "  expected: %s\n  got:      %s\n", want, got);
        return;
    }
    for (;;) {
        char *fa = strtok_r(NULL, " ", &sa), *fb = strtok_r(NULL, " ", &sb);
        if (!fa && !fb)
            return;
        if (!fa || !fb || strcmp(fa, fb) != 0) {
            char *eq = fa ? strchr(fa, '=') : NULL;
            if (eq)
                *eq = '\0';
            fprintf(stderr, "%s %s: %s expected %s, got %s\n", wa, ga, fa ? fa : "(nothing)",
                    eq ? eq + 1 : "(nothing)", fb ? (strchr(fb, '=') ? strchr(fb, '=') + 1 : fb) : "(nothing)");
        }
    }
}

static int compare(const char *want, const char *got)
{
    int differences = 0;
    while (*want || *got) {
        size_t lw = strcspn(want, "\n"), lg = strcspn(got, "\n");
        if (lw != lg || memcmp(want, got, lw) != 0) {
            char a[4096], b[4096];
            snprintf(a, sizeof(a), "%.*s", (int)lw, want);
            snprintf(b, sizeof(b), "%.*s", (int)lg, got);
            explain(a, b);
            if (++differences == 50) {
                fprintf(stderr, "test_gpu_golden: more differences not shown\n");
                return differences;
            }
        }
        want += lw + (want[lw] == '\n');
        got += lg + (got[lg] == '\n');
    }
    return differences;
}

int main(int argc, char **argv)
{
    int write = argc == 4 && strcmp(argv[1], "--write") == 0;
    if (argc != 3 + write) {
        fprintf(stderr, "usage: test_gpu_golden [--write] GOLDEN CORPUS_DIR\n");
        return 2;
    }
    const char *golden = argv[1 + write], *corpus = argv[2 + write];
    struct text t = { NULL, 0, 0 };
    struct wk_gpu *gpu = make_gpu();
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/seeds", corpus);
    run_dir(&t, gpu, dir, "seeds");
    snprintf(dir, sizeof(dir), "%s/regressions", corpus);
    run_dir(&t, gpu, dir, "regressions");
    run_hand(&t, gpu);
    run_random(&t, gpu);
    wk_gpu_destroy(gpu);
    if (write) {
        FILE *f = fopen(golden, "wb");
        if (!f || fwrite(t.buf, 1, t.len, f) != t.len || fclose(f) != 0) {
            fprintf(stderr, "test_gpu_golden: cannot write %s\n", golden);
            return 2;
        }
        printf("test_gpu_golden: wrote %zu bytes to %s\n", t.len, golden);
        free(t.buf);
        return 0;
    }
    size_t len = 0;
    char *want = read_file(golden, &len);
    if (!want) {
        fprintf(stderr, "test_gpu_golden: cannot read %s\n", golden);
        return 2;
    }
    int differences = compare(want, t.buf);
    free(want);
    free(t.buf);
    if (differences) {
        fprintf(stderr, "test_gpu_golden: %d lines differ from %s\n", differences, golden);
        return 1;
    }
    printf("test_gpu_golden: every execution matches the golden record\n");
    return 0;
}
