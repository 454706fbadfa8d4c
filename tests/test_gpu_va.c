/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_va.c - GPU virtual addresses (docs/gpu-model.md,
 * "GPU virtual addresses"): the kit's GPU's page-table entries, the walk over
 * a geometry, and the kit's processor run in an address space: bytes land
 * where the tables say, pages far apart in memory read as one range, an
 * access is checked whole (a fault leaves memory as it was), read-only
 * pages refuse writes, and the TLB keeps a translation until it is
 * flushed, counting the accesses that used a stale one; a command buffer's
 * VA_FLUSH flushes the spaces attached to the GPU whose root it names; a
 * driver's submission with a RING_ROOT runs in the attached space of that
 * root, and one whose root no space has faults without running.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "gpu_test_util.h"
#include "wddmkit/processor.h"

/* The tables live in segment 1 from its start, one 4 KiB table each. */
struct tables {
    struct wk_gpu *gpu;
    uint64_t root;
    uint64_t next_table;
};

static void tables_init(struct tables *t, struct wk_gpu *gpu)
{
    t->gpu = gpu;
    t->root = TU_SEG1_BASE;
    t->next_table = TU_SEG1_BASE + WK_GPU_PAGE_SIZE;
}

static uint64_t entry_at(struct wk_gpu *gpu, uint64_t addr)
{
    uint8_t raw[8];
    assert_int_equal(wk_gpu_read(gpu, addr, raw, 8), WK_OK);
    return tu_get64(raw);
}

static void put_entry(struct wk_gpu *gpu, uint64_t addr, uint64_t v)
{
    uint8_t raw[8];
    tu_put64(raw, v);
    tu_write(gpu, addr, raw, 8);
}

/* The leaf entry's address for va, tables made on the way. */
static uint64_t leaf_slot(struct tables *t, uint64_t va)
{
    uint64_t table = t->root;
    for (uint32_t l = 0; l + 1 < WK_GPU_MMU_LEVELS; l++) {
        uint64_t slot = table + ((va >> (12 + 9 * (WK_GPU_MMU_LEVELS - 1 - l))) & 511) * 8;
        uint64_t e = entry_at(t->gpu, slot);
        if (!(e & WK_GPU_PTE_VALID)) {
            e = wk_gpu_mmu_entry(t->next_table, WK_GPU_PTE_VALID);
            t->next_table += WK_GPU_PAGE_SIZE;
            put_entry(t->gpu, slot, e);
        }
        table = e & WK_GPU_PTE_ADDRESS_MASK;
    }
    return table + ((va >> 12) & 511) * 8;
}

static void map(struct tables *t, uint64_t va, uint64_t pa, uint64_t flags)
{
    put_entry(t->gpu, leaf_slot(t, va), wk_gpu_mmu_entry(pa, WK_GPU_PTE_VALID | flags));
}

static struct wk_va_space *space(struct wk_gpu *gpu, uint64_t root)
{
    struct wk_va_space_config cfg = {
        .mem = wk_gpu_mem(gpu), .mem_ops = wk_gpu_mem_ops(), .geometry = wk_gpu_mmu_geometry(),
        .decode = wk_gpu_mmu_decode, .root = root,
    };
    struct wk_va_space *s = NULL;
    char why[128];
    assert_int_equal(wk_va_space_create(&cfg, &s, why, sizeof(why)), WK_OK);
    return s;
}

/* Runs the commands in w on the kit's processor in space s. */
static wk_status run_va(struct wk_gpu *gpu, struct wk_va_space *s, const struct wk_gpu_writer *w,
                        struct wk_exec_fault *f)
{
    return wk_gpu_exec_processor_va(gpu, s, wk_gpu_kit_processor(), NULL, 0x7000000000ull, 0, w->used, w->buf, 0,
                                    1, f, NULL);
}

#define VA 0x4000000000ull /* 256 GiB: every level's index non-zero below */
#define VA_PAGE(n) (VA + 0x201000ull + (uint64_t)(n) * WK_GPU_PAGE_SIZE)

static void test_entries_and_geometry(void **state)
{
    (void)state;
    const struct wk_mmu_geometry *g = wk_gpu_mmu_geometry();
    char why[128];
    assert_int_equal(wk_mmu_check_geometry(g, why, sizeof(why)), WK_OK);
    assert_int_equal(wk_mmu_va_bits(g), 39);
    struct wk_mmu_geometry bad = *g;
    bad.level[1].entry_bytes = 6;
    assert_int_equal(wk_mmu_check_geometry(&bad, why, sizeof(why)), WK_E_INVALID_ARGUMENT);
    assert_non_null(strstr(why, "level 1: entries of 6 bytes"));
    bad = *g;
    bad.levels = 0;
    assert_int_equal(wk_mmu_check_geometry(&bad, why, sizeof(why)), WK_E_INVALID_ARGUMENT);
    bad = *g;
    bad.level[0].index_bits = 20;
    bad.level[1].index_bits = 20;
    bad.level[2].index_bits = 20;
    assert_int_equal(wk_mmu_check_geometry(&bad, why, sizeof(why)), WK_E_INVALID_ARGUMENT);
    assert_non_null(strstr(why, "72 address bits"));

    uint8_t raw[8];
    struct wk_mmu_entry e;
    tu_put64(raw, wk_gpu_mmu_entry(0x123456789000ull, WK_GPU_PTE_VALID | WK_GPU_PTE_READ_ONLY));
    assert_int_equal(wk_gpu_mmu_decode(NULL, 0, raw, 8, &e), 0);
    assert_true(e.valid && e.leaf && e.read_only);
    assert_int_equal(e.address, 0x123456789000ull);
    assert_int_equal(wk_gpu_mmu_decode(NULL, 1, raw, 8, &e), 0);
    assert_true(e.valid && !e.leaf && !e.read_only);
    tu_put64(raw, 0x123456789000ull | WK_GPU_PTE_VALID | 0x100); /* a reserved bit */
    assert_int_equal(wk_gpu_mmu_decode(NULL, 0, raw, 8, &e), -1);
    tu_put64(raw, 0xFFFFFFFFFFFFFFFEull);                        /* not valid: the rest is the driver's */
    assert_int_equal(wk_gpu_mmu_decode(NULL, 0, raw, 8, &e), 0);
    assert_false(e.valid);
}

static void test_translate(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    tables_init(&t, gpu);
    map(&t, VA_PAGE(0), TU_SEG2_BASE + 0x3000, 0);
    map(&t, VA_PAGE(1), TU_SYS_ADDR(TU_SYS_PFN + 7), WK_GPU_PTE_READ_ONLY);
    struct wk_va_space *s = space(gpu, t.root);
    uint64_t pa = 0;
    uint32_t ro = 9;
    struct wk_mem_fault f;
    assert_int_equal(wk_va_translate(s, VA_PAGE(0) + 0x123, &pa, &ro, &f), 0);
    assert_int_equal(pa, TU_SEG2_BASE + 0x3123);
    assert_int_equal(ro, 0);
    assert_int_equal(wk_va_translate(s, VA_PAGE(1) + 8, &pa, &ro, &f), 0);
    assert_int_equal(pa, TU_SYS_ADDR(TU_SYS_PFN + 7) + 8);
    assert_int_equal(ro, 1);
    assert_int_equal(wk_va_translate(s, VA_PAGE(2), &pa, &ro, &f), -1);
    assert_int_equal(f.reason, WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(f.addr, VA_PAGE(2));
    assert_int_equal(wk_va_translate(s, 1ull << 39, &pa, &ro, &f), -1);
    assert_int_equal(f.reason, WK_GPU_FAULT_BAD_ADDRESS);
    put_entry(gpu, leaf_slot(&t, VA_PAGE(3)), wk_gpu_mmu_entry(TU_SEG2_BASE, WK_GPU_PTE_VALID) | 0x800);
    assert_int_equal(wk_va_translate(s, VA_PAGE(3), &pa, &ro, &f), -1);
    assert_int_equal(f.reason, WK_GPU_FAULT_BAD_PTE);
    assert_int_equal(f.addr, VA_PAGE(3));
    /* A root outside every region: the walk cannot read it. */
    wk_va_space_set_root(s, TU_HOLE);
    assert_int_equal(wk_va_translate(s, VA_PAGE(0), &pa, &ro, &f), -1);
    assert_int_equal(f.reason, WK_GPU_FAULT_BAD_PTE);
    wk_va_space_destroy(s);
}

/* Three virtual pages in a row over three scattered physical ones: a
 * COPY, a FILL and a WRITE64 across the page joins land in each. */
static void test_processor_runs_through_the_tables(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    tables_init(&t, gpu);
    map(&t, VA_PAGE(0), TU_SEG2_BASE + 0x5000, 0);
    map(&t, VA_PAGE(1), TU_SYS_ADDR(TU_SYS_PFN + 3), 0);
    map(&t, VA_PAGE(2), TU_SEG2_BASE + 0x1000, 0);
    map(&t, VA_PAGE(8), TU_SEG1_BASE + 0x80000, 0);
    uint8_t src[256];
    tu_pattern(src, sizeof(src), 7);
    tu_write(gpu, TU_SEG1_BASE + 0x80000, src, sizeof(src));
    struct wk_va_space *s = space(gpu, t.root);

    uint8_t buf[256];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_copy(&w, VA_PAGE(8), VA_PAGE(1) - 100, 256), WK_OK);
    assert_int_equal(wk_gpu_emit_fill(&w, VA_PAGE(2) - 6, 12, 0x44332211u), WK_OK);
    assert_int_equal(wk_gpu_emit_write64(&w, VA_PAGE(1) - 4, 0x8877665544332211ull), WK_OK);
    struct wk_exec_fault f;
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);

    /* COPY: 100 bytes at the end of page 0, 156 at the start of page 1;
     * then WRITE64 over the join, 4 bytes each side. */
    uint8_t want[256];
    memcpy(want, src, sizeof(want));
    tu_put64(want + 96, 0x8877665544332211ull);
    assert_true(expect_bytes(gpu, TU_SEG2_BASE + 0x6000 - 100, want, 100));
    assert_true(expect_bytes(gpu, TU_SYS_ADDR(TU_SYS_PFN + 3), want + 100, 156));
    /* FILL: the pattern's phase runs on across the join. */
    const uint8_t fill_lo[6] = { 0x11, 0x22, 0x33, 0x44, 0x11, 0x22 }, fill_hi[6] = { 0x33, 0x44, 0x11, 0x22,
                                                                                      0x33, 0x44 };
    assert_true(expect_bytes(gpu, TU_SYS_ADDR(TU_SYS_PFN + 4) - 6, fill_lo, 6));
    assert_true(expect_bytes(gpu, TU_SEG2_BASE + 0x1000, fill_hi, 6));
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.stale_accesses, 0);
    assert_true(c.walks >= 4);
    wk_va_space_destroy(s);
}

/* A COPY whose second page is not mapped faults at that page's virtual
 * address and writes nothing, not even its first page. */
static void test_fault_is_whole_and_virtual(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    tables_init(&t, gpu);
    map(&t, VA_PAGE(0), TU_SEG2_BASE, 0);
    map(&t, VA_PAGE(5), TU_SEG2_BASE + 0x10000, 0);
    tu_write32(gpu, TU_SEG2_BASE + 0x10000, 0xabcdef01u);
    struct wk_va_space *s = space(gpu, t.root);
    uint8_t buf[128];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_copy(&w, VA_PAGE(5), VA_PAGE(0) + 0xF00, 0x200), WK_OK);
    struct wk_exec_fault f;
    assert_int_equal(run_va(gpu, s, &w, &f), WK_E_GPU_FAULT);
    assert_int_equal(f.cls, WK_FAULT_MEMORY);
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(f.fault_addr, VA_PAGE(1));
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE + 0xF00, 0, 0x100));
    struct wk_gpu_fault log[2];
    assert_int_equal(wk_gpu_faults(gpu, log, 2, NULL), 1);
    assert_int_equal(log[0].reason, WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(log[0].fault_addr, VA_PAGE(1));
    wk_va_space_destroy(s);
}

static void test_read_only_page(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    tables_init(&t, gpu);
    map(&t, VA_PAGE(0), TU_SEG2_BASE, WK_GPU_PTE_READ_ONLY);
    map(&t, VA_PAGE(1), TU_SEG2_BASE + 0x8000, 0);
    tu_write32(gpu, TU_SEG2_BASE + 0x10, 0x5a5a5a5au);
    struct wk_va_space *s = space(gpu, t.root);
    uint8_t buf[128];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_copy(&w, VA_PAGE(0) + 0x10, VA_PAGE(1), 4), WK_OK); /* a read: fine */
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0) + 0x20, 1), WK_OK);
    struct wk_exec_fault f;
    assert_int_equal(run_va(gpu, s, &w, &f), WK_E_GPU_FAULT);
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_VA_READ_ONLY);
    assert_int_equal(f.fault_addr, VA_PAGE(0) + 0x20);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x8000, 0x5a5a5a5au));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x20, 0));
    wk_va_space_destroy(s);
}

/* A page moved in the tables without a flush: the GPU still writes the old
 * page, and says so; after wk_va_flush it writes the new one. */
static void test_tlb_keeps_a_translation_until_flushed(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    tables_init(&t, gpu);
    map(&t, VA_PAGE(0), TU_SEG2_BASE, 0);
    struct wk_va_space *s = space(gpu, t.root);
    uint8_t buf[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0) + 0x40, 0x11111111u), WK_OK);
    struct wk_exec_fault f;
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x40, 0x11111111u));

    map(&t, VA_PAGE(0), TU_SEG2_BASE + 0x20000, 0); /* moved, not flushed */
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0) + 0x40, 0x22222222u), WK_OK);
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x40, 0x22222222u));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x20040, 0));
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.stale_accesses, 1);

    wk_va_flush(s, VA_PAGE(1), VA_PAGE(2)); /* another page's range: the line stays */
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);
    wk_va_counters(s, &c);
    assert_int_equal(c.stale_accesses, 2);
    wk_va_flush(s, 0, 0);
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0) + 0x40, 0x33333333u), WK_OK);
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x20040, 0x33333333u));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x40, 0x22222222u));
    wk_va_counters(s, &c);
    assert_int_equal(c.stale_accesses, 2);
    assert_int_equal(c.flushes, 2);
    wk_va_space_destroy(s);
}

/* A BLIT's rows each go through the tables: rows of one surface on pages
 * scattered in memory. */
static void test_blit_rows_through_the_tables(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    tables_init(&t, gpu);
    for (int i = 0; i < 4; i++) {
        map(&t, VA_PAGE(i), TU_SEG2_BASE + 0x40000 - (uint64_t)(i + 1) * 0x3000, 0);
        map(&t, VA_PAGE(16 + i), TU_SYS_ADDR(TU_SYS_PFN + 40 - 2 * i), 0);
    }
    uint8_t row[64];
    for (int i = 0; i < 4; i++) {
        memset(row, 0x10 + i, sizeof(row));
        tu_write(gpu, TU_SEG2_BASE + 0x40000 - (uint64_t)(i + 1) * 0x3000 + 0x80, row, sizeof(row));
    }
    struct wk_va_space *s = space(gpu, t.root);
    uint8_t buf[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_blit(&w, VA_PAGE(0) + 0x80, VA_PAGE(16) + 0x100, 64, 4, 0x1000, 0x1000), WK_OK);
    struct wk_exec_fault f;
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);
    for (int i = 0; i < 4; i++)
        assert_true(expect_byte_run(gpu, TU_SYS_ADDR(TU_SYS_PFN + 40 - 2 * (uint64_t)i) + 0x100, (uint8_t)(0x10 + i), 64));
    wk_va_space_destroy(s);
}

/* Another hardware's tree, as a binding would describe it: two levels of
 * their own sizes, numbered as WDDM numbers them (level 0 the leaf): a
 * leaf table of 1,024 four-byte entries (bit 0 valid, bits 8..31 the page
 * number) under a root of 64 sixteen-byte entries (the address in the
 * first 8 bytes, bit 0 valid). A walk that took the levels in the other
 * order would index the root with the leaf's bits. */
static int toy_decode(void *self, uint32_t level, const uint8_t *entry, uint32_t entry_bytes,
                      struct wk_mmu_entry *out)
{
    (void)self;
    if (level == 0 && entry_bytes == 4) {
        uint32_t v = tu_get32(entry);
        out->valid = v & 1;
        out->leaf = 1;
        out->address = (uint64_t)(v >> 8) << 12;
        return 0;
    }
    if (level == 1 && entry_bytes == 16) {
        uint64_t v = tu_get64(entry);
        out->valid = v & 1;
        out->address = v & ~0xFFFull;
        return 0;
    }
    return -1;
}

static void test_geometry_of_another_gpu(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const struct wk_mmu_geometry g = { .levels = 2, .page_shift = 12, .level = { { 10, 4 }, { 6, 16 } } };
    struct wk_va_space_config cfg = { .mem = wk_gpu_mem(gpu), .mem_ops = wk_gpu_mem_ops(), .geometry = &g,
                                      .decode = toy_decode, .root = TU_SEG1_BASE };
    struct wk_va_space *s = NULL;
    char why[128];
    assert_int_equal(wk_va_space_create(&cfg, &s, why, sizeof(why)), WK_OK);
    /* va: root index 5, leaf index 0x3a7, offset 0x123 (28 bits). */
    uint64_t va = (5ull << 22) | (0x3a7ull << 12) | 0x123;
    uint8_t root_entry[16] = { 0 }, leaf_entry[4];
    tu_put64(root_entry, (TU_SEG1_BASE + 0x4000) | 1);
    tu_write(gpu, TU_SEG1_BASE + 5 * 16, root_entry, 16);
    tu_put32(leaf_entry, (uint32_t)(((TU_SEG2_BASE + 0x9000) >> 12) << 8) | 1);
    tu_write(gpu, TU_SEG1_BASE + 0x4000 + 0x3a7 * 4, leaf_entry, 4);
    uint64_t pa = 0;
    uint32_t ro = 0;
    struct wk_mem_fault f;
    assert_int_equal(wk_va_translate(s, va, &pa, &ro, &f), 0);
    assert_int_equal(pa, TU_SEG2_BASE + 0x9123);
    assert_int_equal(wk_va_translate(s, 1ull << 28, &pa, &ro, &f), -1);
    assert_int_equal(f.reason, WK_GPU_FAULT_BAD_ADDRESS);
    wk_va_space_destroy(s);
}

static void test_bad_configurations(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct wk_va_space *s = NULL;
    char why[128];
    struct wk_va_space_config cfg = { .mem = wk_gpu_mem(gpu), .mem_ops = wk_gpu_mem_ops(),
                                      .geometry = wk_gpu_mmu_geometry(), .decode = NULL };
    assert_int_equal(wk_va_space_create(&cfg, &s, why, sizeof(why)), WK_E_INVALID_ARGUMENT);
    assert_null(s);
    cfg.decode = wk_gpu_mmu_decode;
    struct wk_mmu_geometry g = *wk_gpu_mmu_geometry();
    g.page_shift = 30;
    cfg.geometry = &g;
    assert_int_equal(wk_va_space_create(&cfg, &s, why, sizeof(why)), WK_E_INVALID_ARGUMENT);
    assert_non_null(strstr(why, "page_shift 30"));
    uint8_t b[16] = { 0 };
    assert_int_equal(wk_gpu_exec_processor_va(gpu, NULL, wk_gpu_kit_processor(), NULL, 0, 0, 16, b, 0, 1, NULL,
                                              NULL),
                     WK_E_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------ */
/* VA_FLUSH: a command buffer's TLB flush (docs/gpu-model.md, VA_FLUSH)  */
/* ------------------------------------------------------------------ */

/* VA_PAGE(0) mapped to TU_SEG2_BASE, written once through the space (the
 * TLB holds the line), then moved to TU_SEG2_BASE + 0x20000 in the tables
 * without a flush: the line is stale. The space is attached to the GPU. */
static struct wk_va_space *stale_space(struct wk_gpu *gpu, struct tables *t)
{
    tables_init(t, gpu);
    map(t, VA_PAGE(0), TU_SEG2_BASE, 0);
    struct wk_va_space *s = space(gpu, t->root);
    assert_int_equal(wk_gpu_va_attach(gpu, s), WK_OK);
    uint8_t buf[32];
    struct wk_gpu_writer w;
    struct wk_exec_fault f;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0), 0x01010101u), WK_OK);
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);
    map(t, VA_PAGE(0), TU_SEG2_BASE + 0x20000, 0);
    return s;
}

/* WRITE32 of `value` at VA_PAGE(0) + off, run in s: which page it landed in. */
static uint64_t landed(struct wk_gpu *gpu, struct wk_va_space *s, uint64_t off, uint32_t value)
{
    uint8_t buf[32];
    struct wk_gpu_writer w;
    struct wk_exec_fault f;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0) + off, value), WK_OK);
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);
    if (expect_mem32(gpu, TU_SEG2_BASE + off, value))
        return TU_SEG2_BASE;
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x20000 + off, value));
    return TU_SEG2_BASE + 0x20000;
}

/* In one buffer run in the space: a write before the VA_FLUSH uses the
 * stale line (the old page, counted), the write after it walks the tables
 * (the new page). */
static void test_va_flush_command_drops_a_stale_line(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = stale_space(gpu, &t);
    uint8_t buf[128];
    struct wk_gpu_writer w;
    struct wk_exec_fault f;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0) + 0x40, 0xAAAAAAAAu), WK_OK);
    assert_int_equal(wk_gpu_emit_va_flush(&w, t.root, 0, 0), WK_OK);
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0) + 0x44, 0xBBBBBBBBu), WK_OK);
    assert_int_equal(run_va(gpu, s, &w, &f), WK_OK);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x40, 0xAAAAAAAAu));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x20040, 0));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x20044, 0xBBBBBBBBu));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x44, 0));
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.stale_accesses, 1);
    assert_int_equal(c.flushes, 1);
    assert_int_equal(wk_gpu_va_detach(gpu, s), WK_OK);
    wk_va_space_destroy(s);
}

/* The model's own run (wk_gpu_exec, physical addresses: a paging buffer)
 * flushes the attached space too. */
static void test_va_flush_from_a_physical_buffer(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = stale_space(gpu, &t);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_va_flush(&b.w, t.root, 0, 0));
    assert_true(tu_run_ok(gpu, &b));
    assert_int_equal(landed(gpu, s, 0x80, 0xCCCCCCCCu), TU_SEG2_BASE + 0x20000);
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.stale_accesses, 0);
    assert_int_equal(c.flushes, 1);
    struct wk_gpu_counters gc;
    wk_gpu_get_counters(gpu, &gc);
    assert_int_equal(gc.faults, 0);
    assert_int_equal(wk_gpu_va_detach(gpu, s), WK_OK);
    wk_va_space_destroy(s);
}

/* Another root's flush leaves the line (no fault: an idle space); so does a
 * flush of the right root once the space is detached. */
static void test_va_flush_of_another_root_leaves_it(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = stale_space(gpu, &t);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_va_flush(&b.w, t.root + WK_GPU_PAGE_SIZE, 0, 0));
    assert_true(tu_run_ok(gpu, &b));
    assert_int_equal(landed(gpu, s, 0x80, 0x12121212u), TU_SEG2_BASE);
    assert_int_equal(wk_gpu_va_detach(gpu, s), WK_OK);
    assert_int_equal(wk_gpu_va_detach(gpu, s), WK_E_NOT_FOUND);
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_va_flush(&b.w, t.root, 0, 0));
    assert_true(tu_run_ok(gpu, &b));
    assert_int_equal(landed(gpu, s, 0x84, 0x34343434u), TU_SEG2_BASE);
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.flushes, 0);
    assert_int_equal(c.stale_accesses, 2);
    /* Set to that root, the space is flushed by it. */
    assert_int_equal(wk_gpu_va_attach(gpu, s), WK_OK);
    wk_va_space_set_root(s, t.root + WK_GPU_PAGE_SIZE);
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_va_flush(&b.w, t.root + WK_GPU_PAGE_SIZE, 0, 0));
    assert_true(tu_run_ok(gpu, &b));
    wk_va_counters(s, &c);
    assert_int_equal(c.flushes, 1);
    assert_int_equal(wk_gpu_va_detach(gpu, s), WK_OK);
    wk_va_space_destroy(s);
}

/* [start, end): a range past the page leaves its line, one that holds the
 * page's last byte drops it. */
static void test_va_flush_range(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = stale_space(gpu, &t);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_va_flush(&b.w, t.root, VA_PAGE(1), VA_PAGE(9)));
    TU_EMIT(wk_gpu_emit_va_flush(&b.w, t.root, VA_PAGE(0) - WK_GPU_PAGE_SIZE, VA_PAGE(0)));
    assert_true(tu_run_ok(gpu, &b));
    assert_int_equal(landed(gpu, s, 0x80, 0x56565656u), TU_SEG2_BASE);
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_va_flush(&b.w, t.root, VA_PAGE(1) - 1, VA_PAGE(1)));
    assert_true(tu_run_ok(gpu, &b));
    assert_int_equal(landed(gpu, s, 0x84, 0x78787878u), TU_SEG2_BASE + 0x20000);
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.flushes, 3);
    assert_int_equal(wk_gpu_va_detach(gpu, s), WK_OK);
    wk_va_space_destroy(s);
}

/* WK_GPU_MAX_VA_SPACES attach; one more is WK_E_LIMIT; attaching twice is
 * one attachment. */
static void test_va_attach_limits(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct wk_va_space *s[WK_GPU_MAX_VA_SPACES + 1];
    for (uint32_t i = 0; i <= WK_GPU_MAX_VA_SPACES; i++)
        s[i] = space(gpu, TU_SEG1_BASE);
    for (uint32_t i = 0; i < WK_GPU_MAX_VA_SPACES; i++)
        assert_int_equal(wk_gpu_va_attach(gpu, s[i]), WK_OK);
    assert_int_equal(wk_gpu_va_attach(gpu, s[0]), WK_OK);
    assert_int_equal(wk_gpu_va_attach(gpu, s[WK_GPU_MAX_VA_SPACES]), WK_E_LIMIT);
    assert_int_equal(wk_gpu_va_attach(gpu, NULL), WK_E_INVALID_ARGUMENT);
    assert_int_equal(wk_gpu_va_attach(NULL, s[0]), WK_E_INVALID_ARGUMENT);
    struct tu_buf b; /* one flush reaches every space of the root, each once */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_va_flush(&b.w, TU_SEG1_BASE, 0, 0));
    assert_true(tu_run_ok(gpu, &b));
    struct wk_va_counters c;
    for (uint32_t i = 0; i < WK_GPU_MAX_VA_SPACES; i++) {
        wk_va_counters(s[i], &c);
        assert_int_equal(c.flushes, 1);
    }
    wk_va_counters(s[WK_GPU_MAX_VA_SPACES], &c);
    assert_int_equal(c.flushes, 0);
    assert_int_equal(wk_gpu_va_detach(gpu, s[3]), WK_OK);
    assert_int_equal(wk_gpu_va_attach(gpu, s[WK_GPU_MAX_VA_SPACES]), WK_OK);
    for (uint32_t i = 0; i <= WK_GPU_MAX_VA_SPACES; i++) {
        assert_int_equal(wk_gpu_va_detach(gpu, s[i]), i == 3 ? WK_E_NOT_FOUND : WK_OK);
        wk_va_space_destroy(s[i]);
    }
}

/* The kit's processor reaches the flush only through its run's table, and
 * only if the table is long enough to have va_flush. */
static int flush_calls;
static uint64_t flush_args[3];

static int spend_all(const struct wk_exec *x, uint64_t commands, uint64_t bytes)
{
    (void)x, (void)commands, (void)bytes;
    return 0;
}

static void note_flush(const struct wk_exec *x, uint64_t root, uint64_t start, uint64_t end)
{
    (void)x;
    flush_calls++;
    flush_args[0] = root, flush_args[1] = start, flush_args[2] = end;
}

static void test_va_flush_through_exec_ops(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t buf[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_va_flush(&w, 0x123000, 0x4000, 0x9000), WK_OK);
    struct wk_exec_ops ops = { .size = sizeof(ops), .spend = spend_all, .va_flush = note_flush };
    struct wk_exec x = { .mem = wk_gpu_mem(gpu), .mem_ops = wk_gpu_mem_ops(), .ops = &ops, .buffer_addr = 0x1000,
                         .start = 0, .end = w.used, .bytes = buf, .max_depth = 1 };
    struct wk_exec_fault f;
    flush_calls = 0;
    assert_int_equal(wk_gpu_kit_processor()->exec(NULL, &x, &f), 0);
    assert_int_equal(flush_calls, 1);
    assert_int_equal(flush_args[0], 0x123000);
    assert_int_equal(flush_args[1], 0x4000);
    assert_int_equal(flush_args[2], 0x9000);
    ops.size = offsetof(struct wk_exec_ops, va_flush); /* an older table: not called, no fault */
    assert_int_equal(wk_gpu_kit_processor()->exec(NULL, &x, &f), 0);
    assert_int_equal(flush_calls, 1);
}

/* The command as the disassembler and the validator see it. */
static char last_line[256];

static void keep_line(void *user, const char *line)
{
    (void)user;
    strncpy(last_line, line, sizeof(last_line) - 1);
}

static void test_va_flush_codec(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t buf[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_va_flush(&w, 0x100000, 0x4000201000ull, 0x4000203000ull), WK_OK);
    assert_int_equal(w.used, 28);
    assert_int_equal(tu_get32(buf), 0x0b);
    assert_int_equal(tu_get64(buf + 4), 0x100000);
    assert_int_equal(tu_get64(buf + 12), 0x4000201000ull);
    assert_int_equal(tu_get64(buf + 20), 0x4000203000ull);
    struct wk_gpu_cmd c;
    assert_int_equal(wk_gpu_decode(buf, w.used, 0, &c), WK_OK);
    assert_int_equal(c.opcode, WK_GPU_OP_VA_FLUSH);
    assert_int_equal(c.operands[2], 0x4000203000ull);
    assert_int_equal(wk_gpu_disasm(buf, w.used, keep_line, NULL), 1);
    assert_string_equal(last_line, "0x0000: VA_FLUSH root=0x100000 start=0x4000201000 end=0x4000203000");
    struct wk_gpu_fault f;
    assert_int_equal(wk_gpu_validate(gpu, buf, w.used, &f), WK_OK); /* any root: it is compared, not read */
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_va_flush(&w, UINT64_MAX, 0, 0), WK_OK);
    assert_int_equal(wk_gpu_validate(gpu, buf, w.used, &f), WK_OK);
    assert_true(tu_run_bytes_ok(gpu, buf, w.used));
    assert_int_equal(wk_gpu_disasm(buf, 20, keep_line, NULL), 0);
    assert_string_equal(last_line, "0x0000: <TRUNCATED: VA_FLUSH (opcode byte 0x0b) needs 28 bytes, 20 bytes left>");
    assert_int_equal(wk_gpu_decode(buf, 27, 0, &c), WK_E_TRUNCATED);
    wk_gpu_writer_init(&w, buf, 27);
    assert_int_equal(wk_gpu_emit_va_flush(&w, 1, 2, 3), WK_E_NO_SPACE);
    assert_int_equal(w.used, 0);
}

/* ------------------------------------------------------------------ */
/* RING_ROOT: a driver's virtual submission (docs/gpu-model.md,         */
/* "Registers" and "GPU virtual addresses")                             */
/* ------------------------------------------------------------------ */

/* RING_ADDR, RING_LENGTH, RING_TAG and RING_ROOT as a driver writes them,
 * then DOORBELL. */
static void doorbell(struct wk_gpu *gpu, uint64_t addr, uint32_t length, uint32_t tag, uint64_t root)
{
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ADDR_LO, (uint32_t)addr);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ADDR_HI, (uint32_t)(addr >> 32));
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_LENGTH, length);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_TAG, tag);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_LO, (uint32_t)root);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_HI, (uint32_t)(root >> 32));
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_DOORBELL, 1);
}

/* The commands of w stored at GPU physical address pa (where a ring's
 * virtual page is mapped). */
static void put_commands(struct wk_gpu *gpu, uint64_t pa, const struct wk_gpu_writer *w)
{
    tu_write(gpu, pa, w->buf, w->used);
}

#define RING_PA (TU_SEG2_BASE + 0x5000) /* behind VA_PAGE(0): the ring */
#define CALLEE_PA (TU_SEG1_BASE + 0x90000) /* behind VA_PAGE(2): a CALL target */
#define DATA_PA TU_SYS_ADDR(TU_SYS_PFN + 9) /* behind VA_PAGE(1): what the commands write */

/* The ring, a CALL target and a data page mapped in a space attached to
 * the GPU. */
static struct wk_va_space *ring_space(struct wk_gpu *gpu, struct tables *t)
{
    tables_init(t, gpu);
    map(t, VA_PAGE(0), RING_PA, 0);
    map(t, VA_PAGE(1), DATA_PA, 0);
    map(t, VA_PAGE(2), CALLEE_PA, 0);
    struct wk_va_space *s = space(gpu, t->root);
    assert_int_equal(wk_gpu_va_attach(gpu, s), WK_OK);
    return s;
}

static void drop_space(struct wk_gpu *gpu, struct wk_va_space *s)
{
    assert_int_equal(wk_gpu_va_detach(gpu, s), WK_OK);
    wk_va_space_destroy(s);
}

static uint32_t irq_status(struct wk_gpu *gpu)
{
    return wk_gpu_mmio_read32(gpu, WK_GPU_REG_IRQ_STATUS);
}

/* (a) A submission with RING_ROOT the space's root: the ring is fetched at
 * its virtual address, its WRITE32s, its BLIT (rows on two pages far apart
 * in memory), its CALL (to a virtual target) and the target's FENCE all
 * reach the physical pages the tables name, through the space's TLB. */
static void test_ring_root_runs_in_the_space(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = ring_space(gpu, &t);
    map(&t, VA_PAGE(3), TU_SEG2_BASE + 0x30000, 0);
    map(&t, VA_PAGE(4), TU_SYS_ADDR(TU_SYS_PFN + 20), 0);
    uint8_t callee[64], ring[128];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, callee, sizeof(callee));
    assert_int_equal(wk_gpu_emit_fence(&w, VA_PAGE(1) + 0x40, 0x5151), WK_OK);
    put_commands(gpu, CALLEE_PA, &w);
    uint32_t callee_len = (uint32_t)w.used;
    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(1) + 0x10, 0xC0FFEE11u), WK_OK);
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(1) + 0x14, 0x22334455u), WK_OK);
    assert_int_equal(wk_gpu_emit_blit(&w, VA_PAGE(1) + 0x10, VA_PAGE(3) + 0x80, 4, 2, 4, 0x1000), WK_OK);
    assert_int_equal(wk_gpu_emit_call(&w, VA_PAGE(2), callee_len), WK_OK);
    put_commands(gpu, RING_PA, &w);

    doorbell(gpu, VA_PAGE(0), (uint32_t)w.used, 21, t.root);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED | WK_GPU_IRQ_FENCE);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_COMPLETED_TAG), 21);
    assert_true(expect_mem32(gpu, DATA_PA + 0x10, 0xC0FFEE11u));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x30080, 0xC0FFEE11u));
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 20) + 0x80, 0x22334455u));
    assert_true(expect_mem64(gpu, DATA_PA + 0x40, 0x5151));
    assert_int_equal(wk_gpu_last_fence(gpu), 0x5151);
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.walks, 5);    /* ring, data, callee and the BLIT's pages: one walk each, */
    assert_true(c.tlb_hits >= 1);    /* then their lines (the FENCE's data page at least) */
    struct wk_gpu_counters gc;
    wk_gpu_get_counters(gpu, &gc);
    assert_int_equal(gc.faults, 0);
    assert_int_equal(gc.commands, 5);
    assert_int_equal(gc.calls, 1);
    assert_int_equal(gc.submissions_run, 1);
    drop_space(gpu, s);
}

/* The TLB is the space's: a page moved in the tables without a flush is
 * still written at its old place by a virtual submission, and counted. */
static void test_ring_root_uses_the_spaces_tlb(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = stale_space(gpu, &t); /* VA_PAGE(0): line to TU_SEG2_BASE, tables to +0x20000 */
    map(&t, VA_PAGE(4), RING_PA, 0);
    uint8_t ring[32];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(0) + 0x40, 0x7E57AB1Eu), WK_OK);
    put_commands(gpu, RING_PA, &w);
    doorbell(gpu, VA_PAGE(4), (uint32_t)w.used, 1, t.root);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x40, 0x7E57AB1Eu));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x20040, 0));
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.stale_accesses, 1);
    drop_space(gpu, s);
}

/* A virtual submission that writes where nothing is mapped, then to a
 * read-only page: FAULT_ADDR holds the virtual address each struck (what a
 * GpuMmu driver reports as FaultedVirtualAddress), FAULT_REASON why. */
static void test_ring_root_fault_says_its_address(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = ring_space(gpu, &t);
    map(&t, VA_PAGE(5), TU_SEG2_BASE + 0x50000, WK_GPU_PTE_READ_ONLY);
    uint8_t ring[32];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(9) + 0x24, 0xBADu), WK_OK);
    put_commands(gpu, RING_PA, &w);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_ADDR_LO), 0);
    doorbell(gpu, VA_PAGE(0), (uint32_t)w.used, 41, t.root);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_TAG), 41);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON), WK_GPU_FAULT_VA_UNMAPPED);
    uint64_t at = wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_ADDR_LO) |
                  (uint64_t)wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_ADDR_HI) << 32;
    assert_int_equal(at, VA_PAGE(9) + 0x24);

    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(5) + 0x8, 0xBADu), WK_OK);
    put_commands(gpu, RING_PA, &w);
    doorbell(gpu, VA_PAGE(0), (uint32_t)w.used, 42, t.root);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON), WK_GPU_FAULT_VA_READ_ONLY);
    at = wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_ADDR_LO) |
         (uint64_t)wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_ADDR_HI) << 32;
    assert_int_equal(at, VA_PAGE(5) + 0x8);
    drop_space(gpu, s);
}

/* (b) A root no attached space has: the submission faults NO_ADDRESS_SPACE
 * and nothing of it runs, though its bytes at RING_ADDR, read as physical,
 * are a valid buffer. The record names the root asked for and the ring. */
static void test_ring_root_of_no_space_faults(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = ring_space(gpu, &t);
    uint8_t ring[32];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_write32(&w, TU_SEG2_BASE + 0x100, 0xBADu), WK_OK);
    put_commands(gpu, RING_PA, &w);
    const uint64_t wrong = t.root + 0x10000;

    doorbell(gpu, RING_PA, (uint32_t)w.used, 31, wrong);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED | WK_GPU_IRQ_FAULT);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_TAG), 31);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_COMPLETED_TAG), 31);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON), WK_GPU_FAULT_NO_ADDRESS_SPACE);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x100, 0));
    struct wk_gpu_counters gc;
    wk_gpu_get_counters(gpu, &gc);
    assert_int_equal(gc.faults, 1);
    assert_int_equal(gc.execs, 0);
    assert_int_equal(gc.commands, 0);
    struct wk_gpu_fault log[2];
    assert_int_equal(wk_gpu_faults(gpu, log, 2, NULL), 1);
    assert_true(expect_fault_full(&log[0], WK_GPU_FAULT_NO_ADDRESS_SPACE, UINT32_MAX, 0, RING_PA, 0, wrong));
    assert_true(wk_gpu_fault_has_address(WK_GPU_FAULT_NO_ADDRESS_SPACE));
    char text[200];
    wk_gpu_fault_format(&log[0], text, sizeof(text));
    assert_string_equal(text, "NO_ADDRESS_SPACE at +0x0 (none) in buffer 0x405000 depth 0: root 0x110000");
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.walks + c.tlb_hits, 0);

    /* The right root, once its space is detached, is no space's either. */
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_IRQ_ACK, 0xFFFFFFFFu);
    drop_space(gpu, s);
    doorbell(gpu, VA_PAGE(0), (uint32_t)w.used, 32, t.root);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON), WK_GPU_FAULT_NO_ADDRESS_SPACE);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_TAG), 32);
}

/* (c) Root 0 is a physical submission, as before RING_ROOT existed: with a
 * space attached, the ring's address is physical (its virtual one is no
 * region's), and the space is not touched. */
static void test_ring_root_zero_is_physical(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = ring_space(gpu, &t);
    uint8_t ring[32];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_write32(&w, TU_SEG2_BASE + 0x100, 0x600Du), WK_OK);
    put_commands(gpu, RING_PA, &w);
    doorbell(gpu, RING_PA, (uint32_t)w.used, 41, 0);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x100, 0x600Du));

    wk_gpu_mmio_write32(gpu, WK_GPU_REG_IRQ_ACK, 0xFFFFFFFFu);
    doorbell(gpu, VA_PAGE(0), (uint32_t)w.used, 42, 0); /* a virtual address, submitted physically */
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED | WK_GPU_IRQ_FAULT);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON), WK_GPU_FAULT_BAD_ADDRESS);
    struct wk_gpu_fault log[2];
    assert_int_equal(wk_gpu_faults(gpu, log, 2, NULL), 1);
    assert_true(expect_fault_full(&log[0], WK_GPU_FAULT_BAD_ADDRESS, UINT32_MAX, 0, VA_PAGE(0), 0, VA_PAGE(0)));
    struct wk_va_counters c;
    wk_va_counters(s, &c);
    assert_int_equal(c.walks + c.tlb_hits, 0);
    drop_space(gpu, s);
}

/* (d) DOORBELL latches RING_ROOT: a root written after it changes neither
 * the submission already queued (virtual stays virtual, physical stays
 * physical) nor what it runs. */
static void test_ring_root_is_latched_by_the_doorbell(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = ring_space(gpu, &t);
    uint8_t ring[32];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(1) + 0x20, 0x1111u), WK_OK);
    put_commands(gpu, RING_PA, &w);
    uint8_t phys[32];
    struct wk_gpu_writer pw;
    wk_gpu_writer_init(&pw, phys, sizeof(phys));
    assert_int_equal(wk_gpu_emit_write32(&pw, TU_SEG2_BASE + 0x200, 0x2222u), WK_OK);
    put_commands(gpu, TU_SEG2_BASE + 0x9000, &pw);

    doorbell(gpu, VA_PAGE(0), (uint32_t)w.used, 51, t.root);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_LO, 0);     /* after the doorbell: */
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_HI, 0);     /* the queued one stays virtual */
    doorbell(gpu, TU_SEG2_BASE + 0x9000, (uint32_t)pw.used, 52, 0);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_LO, (uint32_t)t.root); /* and this one physical */
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_QUEUE_DEPTH), 2);
    assert_int_equal(wk_gpu_run(gpu, 0), 2);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_COMPLETED_TAG), 52);
    assert_true(expect_mem32(gpu, DATA_PA + 0x20, 0x1111u));
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x200, 0x2222u));
    drop_space(gpu, s);
}

/* (e) A fault in a virtual submission is reported as today (FAULT,
 * FAULT_TAG, FAULT_REASON, the log) at virtual addresses: a WRITE32 to an
 * unmapped page, one inside a CALL (the CALL target's virtual address as
 * its buffer), and a ring whose own page is unmapped. */
static void test_ring_root_fault_is_virtual(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tables t;
    struct wk_va_space *s = ring_space(gpu, &t);
    uint8_t callee[32], ring[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, callee, sizeof(callee));
    assert_int_equal(wk_gpu_emit_nop(&w), WK_OK);
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(8) + 4, 1), WK_OK);
    put_commands(gpu, CALLEE_PA, &w);
    uint32_t callee_len = (uint32_t)w.used;
    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_nop(&w), WK_OK);
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(7) + 0x30, 1), WK_OK);
    put_commands(gpu, RING_PA, &w);

    doorbell(gpu, VA_PAGE(0), (uint32_t)w.used, 61, t.root);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED | WK_GPU_IRQ_FAULT);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_TAG), 61);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON), WK_GPU_FAULT_VA_UNMAPPED);

    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_call(&w, VA_PAGE(2), callee_len), WK_OK);
    put_commands(gpu, RING_PA, &w);
    doorbell(gpu, VA_PAGE(0), (uint32_t)w.used, 62, t.root);
    doorbell(gpu, VA_PAGE(9), 16, 63, t.root); /* the ring's own page is unmapped */
    assert_int_equal(wk_gpu_run(gpu, 0), 2);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_TAG), 63);

    struct wk_gpu_fault log[4];
    assert_int_equal(wk_gpu_faults(gpu, log, 4, NULL), 3);
    assert_true(expect_fault_full(&log[0], WK_GPU_FAULT_VA_UNMAPPED, WK_GPU_OP_WRITE32, 4, VA_PAGE(0), 0,
                                  VA_PAGE(7) + 0x30));
    assert_true(expect_fault_full(&log[1], WK_GPU_FAULT_VA_UNMAPPED, WK_GPU_OP_WRITE32, 4, VA_PAGE(2), 1,
                                  VA_PAGE(8) + 4));
    assert_int_equal(log[1].top_offset, 0);
    assert_true(expect_fault_full(&log[2], WK_GPU_FAULT_VA_UNMAPPED, UINT32_MAX, 0, VA_PAGE(9), 0, VA_PAGE(9)));
    drop_space(gpu, s);
}

/* RING_ROOT reads back what was written, half by half, and wk_gpu_reset
 * clears it with the other registers. */
static void test_ring_root_register(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_LO, 0x89ABC000u);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_HI, 0x1234u);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_RING_ROOT_LO), 0x89ABC000u);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_RING_ROOT_HI), 0x1234u);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_LO, 0x5000u);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_RING_ROOT_HI), 0x1234u);
    wk_gpu_reset(gpu);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_RING_ROOT_LO), 0);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_RING_ROOT_HI), 0);
    /* So the next submission after a reset is physical, whatever the last one was. */
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_SEG2_BASE + 0x300, 0x3333u));
    tu_write(gpu, TU_SEG2_BASE + 0x9000, b.bytes, b.w.used);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ADDR_LO, (uint32_t)(TU_SEG2_BASE + 0x9000));
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_LENGTH, (uint32_t)b.w.used);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_DOORBELL, 1);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 0x300, 0x3333u));
}

/* ------------------------------------------------------------------ */
/* A two-level tree: its root sized by the driver                       */
/* ------------------------------------------------------------------ */

#define ROOT2 (TU_SEG1_BASE + 0x40000)   /* a root of 4 entries (32 bytes) */
#define LEAF2(n) (TU_SEG1_BASE + 0x41000 + (uint64_t)(n) * WK_GPU_PAGE_SIZE)
#define VA2(index, page) (((uint64_t)(index) << 21) + (uint64_t)(page) * WK_GPU_PAGE_SIZE)

/* Root entries 0 to 4 each point at a leaf mapping its page 0 (entry 4
 * lies past a 4-entry root: memory the root does not own), the space sized
 * to 4 entries and attached. */
static struct wk_va_space *two_level_space(struct wk_gpu *gpu)
{
    for (uint32_t i = 0; i < 5; i++) {
        put_entry(gpu, ROOT2 + i * 8, wk_gpu_mmu_entry(LEAF2(i), WK_GPU_PTE_VALID));
        put_entry(gpu, LEAF2(i), wk_gpu_mmu_entry(TU_SEG2_BASE + (uint64_t)i * WK_GPU_PAGE_SIZE, WK_GPU_PTE_VALID));
    }
    struct wk_mmu_geometry g = *wk_gpu_mmu_geometry_two_level();
    g.level[1].index_bits = 10; /* a driver's 31-bit space */
    struct wk_va_space_config cfg = {
        .mem = wk_gpu_mem(gpu), .mem_ops = wk_gpu_mem_ops(), .geometry = &g, .decode = wk_gpu_mmu_decode,
        .root = ROOT2,
    };
    struct wk_va_space *s = NULL;
    assert_int_equal(wk_va_space_create(&cfg, &s, NULL, 0), WK_OK);
    assert_false(wk_va_space_root_sized(s));
    wk_va_space_set_root_entries(s, 4);
    assert_true(wk_va_space_root_sized(s));
    assert_int_equal(wk_gpu_va_attach(gpu, s), WK_OK);
    return s;
}

/* The root bounds every walk: index 3 translates, index 4 faults
 * VA_UNMAPPED though the entry after the root's end reads valid; a line
 * in the TLB is no way past the bound when the root shrinks. */
static void test_two_level_root_bounds_the_walk(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct wk_va_space *s = two_level_space(gpu);
    uint64_t pa = 0;
    uint32_t ro = 0;
    struct wk_mem_fault f;
    assert_int_equal(wk_va_translate(s, VA2(3, 0) + 0x10, &pa, &ro, &f), 0);
    assert_int_equal(pa, TU_SEG2_BASE + 3 * WK_GPU_PAGE_SIZE + 0x10);
    assert_int_equal(wk_va_translate(s, VA2(4, 0), &pa, &ro, &f), -1);
    assert_int_equal(f.reason, WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(f.addr, VA2(4, 0));

    uint8_t word[4] = { 1, 2, 3, 4 };
    struct wk_mem_fault mf;
    assert_int_equal(wk_va_mem_ops()->store(wk_va_mem(s), VA2(3, 0), word, 4, &mf), 0); /* a line for index 3 */
    wk_va_space_set_root_entries(s, 3);
    assert_int_equal(wk_va_mem_ops()->store(wk_va_mem(s), VA2(3, 0), word, 4, &mf), -1);
    assert_int_equal(mf.reason, WK_GPU_FAULT_VA_UNMAPPED);
    drop_space(gpu, s);
}

/* A submission runs under the RING_ROOT_ENTRIES it latched, what the
 * driver programmed, not the count the kit keeps: 0 (never written)
 * faults the first access; 5 lets the buffer reach index 4. */
static void test_two_level_root_entries_register(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct wk_va_space *s = two_level_space(gpu);
    uint8_t ring[32];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, ring, sizeof(ring));
    assert_int_equal(wk_gpu_emit_write32(&w, VA2(4, 0) + 0x20, 0x2222u), WK_OK);
    put_commands(gpu, TU_SEG2_BASE + 0x8000, &w); /* behind VA2(0, 8) once mapped */
    put_entry(gpu, LEAF2(0) + 8 * 8, wk_gpu_mmu_entry(TU_SEG2_BASE + 0x8000, WK_GPU_PTE_VALID));

    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_RING_ROOT_ENTRIES), 0);
    doorbell(gpu, VA2(0, 8), (uint32_t)w.used, 7, ROOT2);
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_REASON), WK_GPU_FAULT_VA_UNMAPPED);
    uint64_t at = wk_gpu_mmio_read32(gpu, WK_GPU_REG_FAULT_ADDR_LO);
    assert_int_equal(at, VA2(0, 8)); /* the ring itself: root of 0 entries */

    wk_gpu_mmio_write32(gpu, WK_GPU_REG_IRQ_ACK, 0xFFFFFFFFu);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_ENTRIES, 5);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_RING_ROOT_ENTRIES), 5);
    doorbell(gpu, VA2(0, 8), (uint32_t)w.used, 8, ROOT2);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_ROOT_ENTRIES, 0); /* latched: the queued one keeps 5 */
    assert_int_equal(wk_gpu_run(gpu, 0), 1);
    assert_int_equal(irq_status(gpu), WK_GPU_IRQ_COMPLETED);
    assert_true(expect_mem32(gpu, TU_SEG2_BASE + 4 * WK_GPU_PAGE_SIZE + 0x20, 0x2222u));

    uint64_t pa;
    uint32_t ro;
    assert_int_equal(wk_va_translate(s, VA2(4, 0), &pa, &ro, NULL), -1); /* the kit's own count is back */
    wk_gpu_reset(gpu);
    assert_int_equal(wk_gpu_mmio_read32(gpu, WK_GPU_REG_RING_ROOT_ENTRIES), 0);
    drop_space(gpu, s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_and_geometry),
        TU_TEST(test_translate),
        TU_TEST(test_processor_runs_through_the_tables),
        TU_TEST(test_fault_is_whole_and_virtual),
        TU_TEST(test_read_only_page),
        TU_TEST(test_tlb_keeps_a_translation_until_flushed),
        TU_TEST(test_blit_rows_through_the_tables),
        TU_TEST(test_geometry_of_another_gpu),
        TU_TEST(test_bad_configurations),
        TU_TEST(test_va_flush_command_drops_a_stale_line),
        TU_TEST(test_va_flush_from_a_physical_buffer),
        TU_TEST(test_va_flush_of_another_root_leaves_it),
        TU_TEST(test_va_flush_range),
        TU_TEST(test_va_attach_limits),
        TU_TEST(test_va_flush_through_exec_ops),
        TU_TEST(test_va_flush_codec),
        TU_TEST(test_ring_root_runs_in_the_space),
        TU_TEST(test_ring_root_uses_the_spaces_tlb),
        TU_TEST(test_ring_root_fault_says_its_address),
        TU_TEST(test_ring_root_of_no_space_faults),
        TU_TEST(test_ring_root_zero_is_physical),
        TU_TEST(test_ring_root_is_latched_by_the_doorbell),
        TU_TEST(test_ring_root_fault_is_virtual),
        TU_TEST(test_ring_root_register),
        TU_TEST(test_two_level_root_bounds_the_walk),
        TU_TEST(test_two_level_root_entries_register),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
