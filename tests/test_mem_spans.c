/* SPDX-License-Identifier: MIT */
/*
 * tests/test_mem_spans.c - the model's memory system through processor.h's
 * table (wk_gpu_mem, wk_gpu_mem_ops; docs/gpu-model.md,
 * "The memory system and command processors").
 *
 * The table is what every command processor, the kit's own or a binding's,
 * reaches memory through, so it is checked against the model's public
 * host calls, which it must agree with: a READ walk of the host view gives
 * what wk_gpu_read reads, on random layouts; spans are maximal; a WRITE
 * walk backs, dirties and counts; a failed access changes nothing, the
 * memory limit included; the GPU goes through the TLB and the host through
 * the entries; fills of every pattern width land at any alignment; copies
 * overlap as memmove's do. The seed comes from WK_TEST_SEED when set.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test_util.h"
#include "wddmkit/processor.h"

#define MAX_SPANS 256u

struct walk {
    uint32_t count;
    struct wk_mem_span s[MAX_SPANS];
};

/* Begins a walk and collects its spans: the begin's return, or -2 when
 * there were too many spans. */
static int walk(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint32_t how, struct walk *w,
                struct wk_mem_fault *f)
{
    const struct wk_mem_ops *ops = wk_gpu_mem_ops();
    struct wk_mem_cursor c;
    w->count = 0;
    if (ops->begin(wk_gpu_mem(gpu), addr, len, how, &c, f) != 0)
        return -1;
    struct wk_mem_span s;
    while (ops->next(&c, &s)) {
        if (w->count == MAX_SPANS)
            return -2;
        w->s[w->count++] = s;
    }
    return 0;
}

/* The spans cover [addr, addr+len) in order, are maximal (no two in a row
 * both without data, or with data contiguous on the host), and hold what
 * wk_gpu_read reads. */
static bool spans_match_read(struct wk_gpu *gpu, uint64_t addr, uint64_t len, const struct walk *w)
{
    static uint8_t want[1 << 20];
    if (len > sizeof(want) || wk_gpu_read(gpu, addr, want, len) != WK_OK) {
        print_error("read(0x%" PRIx64 ", %" PRIu64 ") failed where the walk began\n", addr, len);
        return false;
    }
    uint64_t at = addr;
    for (uint32_t i = 0; i < w->count; i++) {
        const struct wk_mem_span *s = &w->s[i];
        if (s->addr != at || s->length == 0) {
            print_error("span %u at 0x%" PRIx64 "+%" PRIu64 ", expected at 0x%" PRIx64 "\n", i, s->addr,
                        s->length, at);
            return false;
        }
        if (i > 0) {
            const struct wk_mem_span *p = &w->s[i - 1];
            if ((!p->data && !s->data) || (p->data && s->data && p->data + p->length == s->data)) {
                print_error("spans %u and %u could be one\n", i - 1, i);
                return false;
            }
        }
        for (uint64_t j = 0; j < s->length; j++) {
            uint8_t got = s->data ? s->data[j] : 0;
            if (got != want[at - addr + j]) {
                print_error("byte at 0x%" PRIx64 ": span %u gives 0x%02x, read 0x%02x\n", at + j, i, got,
                            want[at - addr + j]);
                return false;
            }
        }
        at += s->length;
    }
    if (at != addr + len) {
        print_error("spans end at 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", at, addr + len);
        return false;
    }
    return true;
}

static wk_status status_of(uint32_t reason)
{
    switch (reason) {
    case WK_GPU_FAULT_BAD_ADDRESS: return WK_E_BAD_ADDRESS;
    case WK_GPU_FAULT_UNMAPPED_APERTURE: return WK_E_UNMAPPED;
    case WK_GPU_FAULT_CROSSES_SEGMENT: return WK_E_CROSSES_SEGMENT;
    default: return WK_E_LIMIT;
    }
}

/* A random layout: pages written here and there, aperture pages mapped
 * (some remapped without a flush), system pages written. */
static void random_layout(struct wk_gpu *gpu, uint64_t *rng)
{
    uint8_t page[WK_GPU_PAGE_SIZE];
    static const uint64_t bases[3] = { TU_SEG1_BASE, TU_SEG2_BASE, TU_SYS_BASE };
    for (int i = 0; i < 40; i++) {
        uint64_t base = bases[tu_rand(rng) % 3];
        uint64_t at = base + (tu_rand(rng) % 256) * WK_GPU_PAGE_SIZE + tu_rand(rng) % 64;
        uint64_t n = 1 + tu_rand(rng) % (3 * WK_GPU_PAGE_SIZE);
        for (uint64_t done = 0; done < n; done += sizeof(page)) {
            uint64_t k = n - done < sizeof(page) ? n - done : sizeof(page);
            tu_pattern(page, (size_t)k, (uint32_t)tu_rand(rng));
            (void)wk_gpu_write(gpu, at + done, page, k); /* may cross an end: then nothing */
        }
    }
    for (uint64_t p = 0; p < TU_APER_PAGES; p++)
        if (tu_rand(rng) % 4)
            TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, p, TU_SYS_PFN + tu_rand(rng) % TU_SYS_PAGES));
}

static uint64_t random_addr(uint64_t *rng)
{
    static const uint64_t bases[5] = { TU_SEG1_BASE, TU_SEG2_BASE, TU_APER_BASE, TU_SYS_BASE, TU_HOLE };
    static const uint64_t sizes[5] = { TU_SEG1_SIZE, TU_SEG2_SIZE, TU_APER_SIZE, TU_SYS_END - TU_SYS_BASE, 4096 };
    uint32_t i = (uint32_t)(tu_rand(rng) % 5);
    return bases[i] + tu_rand(rng) % sizes[i];
}

/* ------------------------------------------------------------------ */
/* Spans                                                                */
/* ------------------------------------------------------------------ */

static void test_host_read_spans_match_read(void **state)
{
    uint64_t rng = tu_seed(0x5EEDF00Dull);
    for (int layout = 0; layout < 8; layout++) {
        struct wk_gpu *gpu = tu_std_gpu(state);
        random_layout(gpu, &rng);
        struct wk_gpu_counters before, after;
        wk_gpu_get_counters(gpu, &before);
        uint64_t resident = wk_gpu_resident_pages(gpu);
        for (int i = 0; i < 200; i++) {
            uint64_t addr = random_addr(&rng), len = tu_rand(&rng) % (5 * WK_GPU_PAGE_SIZE);
            static uint8_t buf[5 * WK_GPU_PAGE_SIZE];
            static struct walk w;
            struct wk_mem_fault f;
            wk_status st = wk_gpu_read(gpu, addr, buf, len);
            int rc = walk(gpu, addr, len, WK_MEM_READ | WK_MEM_HOST, &w, &f);
            assert_int_not_equal(rc, -2);
            if (st != WK_OK) {
                assert_int_equal(rc, -1);
                assert_true(expect_status(status_of(f.reason), st));
                continue;
            }
            assert_int_equal(rc, 0);
            assert_true(spans_match_read(gpu, addr, len, &w));
        }
        wk_gpu_get_counters(gpu, &after);
        assert_memory_equal(&before, &after, sizeof(before)); /* the host view counts nothing */
        assert_true(expect_u64(wk_gpu_resident_pages(gpu), resident));
        tu_destroy(state, gpu);
    }
}

/* A never-written segment is one zero span; pages backed together are one
 * span with data. */
static void test_spans_are_maximal(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    static struct walk w;
    assert_int_equal(walk(gpu, TU_SEG1_BASE, TU_SEG1_SIZE, WK_MEM_READ, &w, NULL), 0);
    assert_int_equal(w.count, 1);
    assert_null(w.s[0].data);
    assert_true(expect_u64(w.s[0].length, TU_SEG1_SIZE));
    uint8_t bytes[3 * WK_GPU_PAGE_SIZE];
    tu_pattern(bytes, sizeof(bytes), 7);
    tu_write(gpu, TU_SEG1_BASE + 0x10000, bytes, sizeof(bytes));
    assert_int_equal(walk(gpu, TU_SEG1_BASE + 0xF000, 5 * WK_GPU_PAGE_SIZE, WK_MEM_READ, &w, NULL), 0);
    assert_int_equal(w.count, 3);
    assert_null(w.s[0].data);
    assert_non_null(w.s[1].data);
    assert_true(expect_u64(w.s[1].length, sizeof(bytes)));
    assert_memory_equal(w.s[1].data, bytes, sizeof(bytes));
    assert_null(w.s[2].data);
}

/* A WRITE walk: every span backed, what is written reads back, the pages
 * count as resident and a reset zeroes them (and gives them back). */
static void test_write_spans_back_and_dirty(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    static struct walk w;
    uint64_t addr = TU_SEG1_BASE + 0x3003, len = 3 * WK_GPU_PAGE_SIZE + 10;
    assert_int_equal(walk(gpu, addr, len, WK_MEM_WRITE, &w, NULL), 0);
    uint8_t byte = 1;
    for (uint32_t i = 0; i < w.count; i++) {
        assert_non_null(w.s[i].data);
        memset(w.s[i].data, byte, w.s[i].length);
        byte++;
    }
    assert_int_equal(w.count, 1); /* pages backed together: one host run */
    assert_true(expect_byte_run(gpu, addr, 1, len));
    assert_true(expect_byte_run(gpu, addr - 3, 0, 3)); /* the rest of a fresh page is zero */
    assert_true(expect_u64(wk_gpu_resident_pages(gpu), 4));
    /* Through the aperture onto system memory, as the GPU writes it. */
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 5, TU_SYS_PFN + 9));
    assert_int_equal(walk(gpu, TU_APER_BASE + 5 * WK_GPU_PAGE_SIZE + 100, 50, WK_MEM_WRITE, &w, NULL), 0);
    assert_int_equal(w.count, 1);
    memset(w.s[0].data, 0xEE, 50);
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(TU_SYS_PFN + 9) + 100, 0xEE, 50));
    wk_gpu_reset(gpu);
    assert_true(expect_u64(wk_gpu_resident_pages(gpu), 0));
    assert_true(expect_byte_run(gpu, addr, 0, len));
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(TU_SYS_PFN + 9), 0, WK_GPU_PAGE_SIZE));
}

/* ------------------------------------------------------------------ */
/* Failures change nothing                                              */
/* ------------------------------------------------------------------ */

static bool expect_mem_fault(int rc, const struct wk_mem_fault *f, uint32_t reason, uint64_t addr)
{
    if (rc != -1 || f->reason != reason || f->addr != addr) {
        print_error("expected -1 %s at 0x%" PRIx64 ", got %d %s at 0x%" PRIx64 "\n",
                    wk_gpu_fault_name(reason), addr, rc, wk_gpu_fault_name(f->reason), f->addr);
        return false;
    }
    return true;
}

static void test_failed_access_changes_nothing(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_resident_pages = 8;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    const struct wk_mem_ops *ops = wk_gpu_mem_ops();
    struct wk_mem *m = wk_gpu_mem(gpu);
    struct wk_mem_fault f;
    struct wk_mem_cursor c;
    uint8_t bytes[6 * WK_GPU_PAGE_SIZE];
    tu_pattern(bytes, sizeof(bytes), 3);
    tu_write(gpu, TU_SEG1_BASE, bytes, 6 * WK_GPU_PAGE_SIZE); /* 6 of 8 pages */
    struct wk_gpu_counters before, after;
    wk_gpu_get_counters(gpu, &before);

    assert_true(expect_mem_fault(ops->begin(m, TU_SEG1_END - 8, 16, WK_MEM_WRITE, &c, &f), &f,
                                 WK_GPU_FAULT_CROSSES_SEGMENT, TU_SEG1_END));
    assert_true(expect_mem_fault(ops->begin(m, TU_HOLE, 1, WK_MEM_READ, &c, &f), &f, WK_GPU_FAULT_BAD_ADDRESS,
                                 TU_HOLE));
    assert_true(expect_mem_fault(ops->copy(m, TU_APER_BASE + 8, TU_SEG1_BASE, 64, &f), &f,
                                 WK_GPU_FAULT_UNMAPPED_APERTURE, TU_APER_BASE + 8));
    /* Three more pages do not fit under the limit: nothing is copied, not
     * even the two that would. */
    assert_true(expect_mem_fault(ops->copy(m, TU_SEG2_BASE, TU_SEG1_BASE, 3 * WK_GPU_PAGE_SIZE, &f), &f,
                                 WK_GPU_FAULT_MEMORY_LIMIT, TU_SEG2_BASE));
    assert_true(expect_mem_fault(ops->begin(m, TU_SEG2_BASE, 3 * WK_GPU_PAGE_SIZE, WK_MEM_WRITE, &c, &f), &f,
                                 WK_GPU_FAULT_MEMORY_LIMIT, TU_SEG2_BASE));
    const uint32_t ones = 0x01010101u;
    assert_true(expect_mem_fault(ops->fill(m, TU_SEG2_BASE, 3 * WK_GPU_PAGE_SIZE, &ones, 4, &f), &f,
                                 WK_GPU_FAULT_MEMORY_LIMIT, TU_SEG2_BASE));
    assert_true(expect_mem_fault(ops->store(m, TU_SEG2_BASE + 4094, bytes, 3 * WK_GPU_PAGE_SIZE, &f), &f,
                                 WK_GPU_FAULT_MEMORY_LIMIT, TU_SEG2_BASE + 4094));
    assert_true(expect_mem_fault(ops->fill(m, TU_SEG1_BASE, 4, &ones, 3, &f), &f, WK_GPU_FAULT_BAD_OPERAND,
                                 TU_SEG1_BASE));
    assert_true(expect_u64(wk_gpu_resident_pages(gpu), 6));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0, 4 * WK_GPU_PAGE_SIZE));
    assert_true(expect_bytes(gpu, TU_SEG1_BASE, bytes, 6 * WK_GPU_PAGE_SIZE));
    wk_gpu_get_counters(gpu, &after);
    assert_memory_equal(&before, &after, sizeof(before));

    /* Zeroes onto untouched pages back nothing, so they fit; two pages do. */
    const uint64_t zero = 0;
    assert_int_equal(ops->fill(m, TU_SEG2_BASE, 64 * WK_GPU_PAGE_SIZE, &zero, 8, &f), 0);
    assert_int_equal(ops->copy(m, TU_SEG2_BASE, TU_SEG1_BASE + 0x80000, 64 * WK_GPU_PAGE_SIZE, &f), 0);
    assert_int_equal(ops->copy(m, TU_SEG2_BASE, TU_SEG1_BASE, 2 * WK_GPU_PAGE_SIZE, &f), 0);
    assert_true(expect_u64(wk_gpu_resident_pages(gpu), 8));
    assert_true(expect_bytes(gpu, TU_SEG2_BASE, bytes, 2 * WK_GPU_PAGE_SIZE));
}

/* ------------------------------------------------------------------ */
/* GART: the GPU through the TLB, the host through the entries          */
/* ------------------------------------------------------------------ */

static void test_tlb_versus_entries(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const struct wk_mem_ops *ops = wk_gpu_mem_ops();
    struct wk_mem *m = wk_gpu_mem(gpu);
    struct wk_mem_fault f;
    static struct walk w;
    tu_write32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 1), 0xAAAAAAAAu);
    tu_write32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 2), 0xBBBBBBBBu);
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 0, TU_SYS_PFN + 1));
    const uint64_t pfn = TU_SYS_PFN + 2;
    assert_int_equal(ops->gart_write(m, TU_APER_ID, 0, 1, &pfn, 0, &f), 0);

    assert_int_equal(walk(gpu, TU_APER_BASE, 4, WK_MEM_READ, &w, NULL), 0); /* the GPU: the old line */
    assert_true(expect_u64(tu_get32(w.s[0].data), 0xAAAAAAAAu));
    assert_int_equal(walk(gpu, TU_APER_BASE, 4, WK_MEM_READ | WK_MEM_HOST, &w, NULL), 0);
    assert_true(expect_u64(tu_get32(w.s[0].data), 0xBBBBBBBBu));
    assert_int_equal(walk(gpu, TU_APER_BASE, 4, WK_MEM_READ | WK_MEM_PROBE, &w, NULL), 0);
    assert_int_equal(w.count, 0); /* a probe has no span and counts nothing */
    assert_true(expect_counters_are(gpu, .stale_tlb_accesses = 1, .gart_pages_mapped = 1));

    /* A page mapped only in the entries is unmapped for the GPU. */
    assert_int_equal(ops->gart_write(m, TU_APER_ID, 7, 1, NULL, TU_SYS_PFN + 3, &f), 0);
    uint32_t v = 0;
    assert_true(expect_mem_fault(ops->load(m, TU_APER_BASE + 7 * WK_GPU_PAGE_SIZE, &v, 4, &f), &f,
                                 WK_GPU_FAULT_UNMAPPED_APERTURE, TU_APER_BASE + 7 * WK_GPU_PAGE_SIZE));
    assert_int_equal(ops->gart_flush(m, TU_APER_ID, &f), 0);
    assert_int_equal(ops->load(m, TU_APER_BASE, &v, 4, &f), 0);
    assert_true(expect_u64(v, 0xBBBBBBBBu));
    assert_int_equal(ops->load(m, TU_APER_BASE + 7 * WK_GPU_PAGE_SIZE, &v, 4, &f), 0);

    /* Unmapping to a dummy page, and clearing. */
    assert_int_equal(ops->gart_write_same(m, TU_APER_ID, 0, 8, TU_SYS_PFN + 1, &f), 0);
    assert_int_equal(ops->gart_write(m, TU_APER_ID, 8, 2, NULL, WK_MEM_GART_INVALID, &f), 0);
    int valid = 0, stale = 0;
    uint64_t got = 0;
    TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, 7, &valid, &got, &stale));
    assert_true(valid && got == TU_SYS_PFN + 1 && stale);
    TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, 8, &valid, &got, &stale));
    assert_false(valid);
    assert_true(expect_counters_are(gpu, .stale_tlb_accesses = 1, .gart_pages_mapped = 2, .tlb_flushes = 1,
                                    .gart_pages_unmapped = 10));
}

static void test_gart_refusals_change_nothing(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const struct wk_mem_ops *ops = wk_gpu_mem_ops();
    struct wk_mem *m = wk_gpu_mem(gpu);
    struct wk_mem_fault f;
    const uint64_t pfns[3] = { TU_SYS_PFN, TU_SYS_PFN + 1, 5 };
    assert_true(expect_mem_fault(ops->gart_write(m, TU_SEG1_ID, 0, 1, pfns, 0, &f), &f, WK_GPU_FAULT_BAD_OPERAND,
                                 TU_SEG1_BASE));
    assert_true(expect_mem_fault(ops->gart_write(m, TU_APER_ID, 62, 3, NULL, TU_SYS_PFN, &f), &f,
                                 WK_GPU_FAULT_BAD_OPERAND, TU_APER_END));
    assert_true(expect_mem_fault(ops->gart_write(m, TU_APER_ID, 0, 3, pfns, 0, &f), &f, WK_GPU_FAULT_BAD_OPERAND,
                                 TU_APER_BASE + 2 * WK_GPU_PAGE_SIZE));
    assert_true(expect_mem_fault(ops->gart_write(m, TU_APER_ID, 0, 3, NULL, TU_SYS_PFN + 254, &f), &f,
                                 WK_GPU_FAULT_BAD_OPERAND, TU_APER_BASE + 2 * WK_GPU_PAGE_SIZE));
    assert_true(expect_mem_fault(ops->gart_write_same(m, TU_APER_ID, 0, 3, 5, &f), &f, WK_GPU_FAULT_BAD_OPERAND,
                                 TU_APER_BASE));
    assert_true(expect_mem_fault(ops->gart_flush(m, 9, &f), &f, WK_GPU_FAULT_BAD_OPERAND, 0));
    for (uint64_t p = 0; p < 3; p++) {
        int valid = 1, stale = 1;
        uint64_t pfn = 0;
        TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, p, &valid, &pfn, &stale));
        assert_false(valid);
    }
    assert_true(expect_u64(wk_gpu_resident_pages(gpu), 0));
    assert_true(expect_counters_are(gpu, .commands = 0));
}

/* ------------------------------------------------------------------ */
/* Counters                                                             */
/* ------------------------------------------------------------------ */

static void test_counters(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const struct wk_mem_ops *ops = wk_gpu_mem_ops();
    struct wk_mem *m = wk_gpu_mem(gpu);
    struct wk_mem_fault f;
    static struct walk w;
    uint64_t edge = TU_SEG2_BASE + TU_SEG2_BANK_SIZE; /* banks 0 and 1 meet here */
    const uint16_t two = 0xBEEF;
    assert_int_equal(ops->copy(m, edge - 8, TU_SEG1_BASE, 16, &f), 0);
    assert_int_equal(ops->fill(m, edge - 2, 4, &two, 2, &f), 0);
    assert_int_equal(ops->store(m, TU_SEG1_BASE, "abc", 3, &f), 0);
    char back[3];
    assert_int_equal(ops->load(m, edge - 8, back, 3, &f), 0); /* a read: no bank counted */
    assert_int_equal(walk(gpu, edge - 4, 8, WK_MEM_WRITE, &w, NULL), 0);
    assert_int_equal(walk(gpu, edge - 4, 8, WK_MEM_WRITE | WK_MEM_HOST, &w, NULL), 0);
    assert_true(expect_counters_are(gpu, .bytes_copied = 16, .bytes_filled = 4, .bytes_written = 3,
                                    .bank_crossings = 3));
    struct wk_gpu_location loc;
    assert_int_equal(ops->locate(m, edge, &loc), 0);
    assert_true(loc.segment_id == TU_SEG2_ID && loc.offset == TU_SEG2_BANK_SIZE && loc.bank == 1);
    assert_int_equal(ops->locate(m, TU_HOLE, &loc), -1);
    assert_true(wk_gpu_desc_equal(ops->layout(m), wk_gpu_description(gpu)));
    assert_true(ops->size == sizeof(struct wk_mem_ops) && ops->version == WK_MEM_OPS_VERSION);
}

/* ------------------------------------------------------------------ */
/* Fill patterns and overlapping copies                                 */
/* ------------------------------------------------------------------ */

static void test_fill_every_width_any_alignment(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const struct wk_mem_ops *ops = wk_gpu_mem_ops();
    struct wk_mem *m = wk_gpu_mem(gpu);
    struct wk_mem_fault f;
    static uint8_t want[4 * WK_GPU_PAGE_SIZE];
    static const uint8_t pattern[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
    static const uint32_t widths[4] = { 1, 2, 4, 8 };
    static const uint64_t lens[5] = { 1, 7, 13, WK_GPU_PAGE_SIZE + 3, 3 * WK_GPU_PAGE_SIZE + 5 };
    uint64_t base = TU_SEG1_BASE + 0x20000;
    for (uint32_t wi = 0; wi < 4; wi++)
        for (uint64_t start = 0; start < 9; start++)
            for (uint32_t li = 0; li < 5; li++) {
                uint64_t len = lens[li];
                tu_pattern(want, sizeof(want), (uint32_t)(wi * 100 + start * 10 + li));
                tu_write(gpu, base, want, sizeof(want));
                for (uint64_t i = 0; i < len; i++)
                    want[start + i] = pattern[i % widths[wi]];
                assert_int_equal(ops->fill(m, base + start, len, pattern, widths[wi], &f), 0);
                assert_true(expect_bytes(gpu, base, want, sizeof(want)));
            }
}

static void test_overlapping_copies(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const struct wk_mem_ops *ops = wk_gpu_mem_ops();
    struct wk_mem *m = wk_gpu_mem(gpu);
    struct wk_mem_fault f;
    static uint8_t want[6 * WK_GPU_PAGE_SIZE];
    static const int64_t shifts[6] = { 1, 7, 4096, 4100, -3, -5000 };
    uint64_t base = TU_SEG1_BASE + 0x40000, src = base + 6000, len = 3 * WK_GPU_PAGE_SIZE + 77;
    for (uint32_t i = 0; i < 6; i++) {
        tu_pattern(want, sizeof(want), 40 + i);
        tu_write(gpu, base, want, sizeof(want));
        uint64_t dst = (uint64_t)((int64_t)src + shifts[i]);
        memmove(want + (dst - base), want + (src - base), len);
        assert_int_equal(ops->copy(m, dst, src, len, &f), 0);
        assert_true(expect_bytes(gpu, base, want, sizeof(want)));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_TEST(test_host_read_spans_match_read),
        TU_TEST(test_spans_are_maximal),
        TU_TEST(test_write_spans_back_and_dirty),
        TU_TEST(test_failed_access_changes_nothing),
        TU_TEST(test_tlb_versus_entries),
        TU_TEST(test_gart_refusals_change_nothing),
        TU_TEST(test_counters),
        TU_TEST(test_fill_every_width_any_alignment),
        TU_TEST(test_overlapping_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
