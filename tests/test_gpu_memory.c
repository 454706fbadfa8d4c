/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_memory.c - the GPU model's address space: adapter
 * validation, host access, the segment table, laziness, reset cost, the
 * digest and the host GART path (docs/gpu-model.md "Address space",
 * "GART and TLB", "Digest").
 *
 * Laziness and reset cost are checked with counts (wk_gpu_resident_pages),
 * never with clocks: a 4 GiB or 1 TiB segment that is cheap to create, touch
 * and reset is the property the fuzz harness relies on. The digest is
 * checked against a reference implementation written here from the
 * documented algorithm, itself pinned by constants computed independently.
 */
#define _DEFAULT_SOURCE /* mincore */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_test_util.h"

#include "under_asan.h"

/* ------------------------------------------------------------------ */
/* Reference digest, from docs/gpu-model.md "Digest"                    */
/* ------------------------------------------------------------------ */

static uint64_t ref_mix(uint64_t z)
{
    z ^= z >> 30;
    z *= 0xBF58476D1CE4E5B9ull;
    z ^= z >> 27;
    z *= 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z;
}

/* Chunk value of n bytes at p (p NULL: n zero bytes). */
static uint64_t ref_chunk(const uint8_t *p, uint64_t n)
{
    uint64_t c = 0x9E3779B97F4A7C15ull ^ n;
    for (uint64_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        for (uint64_t j = 0; j < 8 && i + j < n; j++)
            w |= (uint64_t)(p ? p[i + j] : 0) << (8 * j);
        c = ref_mix(c ^ w);
    }
    return c;
}

static uint64_t ref_digest(const uint8_t *p, uint64_t len)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (uint64_t k = 0; k * 4096 < len; k++) {
        uint64_t n = len - k * 4096 < 4096 ? len - k * 4096 : 4096;
        h = ref_mix(h + ref_chunk(p + k * 4096, n));
    }
    return ref_mix(h ^ len);
}

/* Digest of `len` zero bytes except one byte `byte` at `at`, without
 * materialising the range. */
static uint64_t ref_digest_sparse(uint64_t len, uint64_t at, uint8_t byte)
{
    const uint64_t zero_chunk = ref_chunk(NULL, 4096);
    uint8_t page[4096];
    uint64_t h = 0xCBF29CE484222325ull;
    for (uint64_t k = 0; k * 4096 < len; k++) {
        uint64_t n = len - k * 4096 < 4096 ? len - k * 4096 : 4096;
        uint64_t c;
        if (at / 4096 == k) {
            memset(page, 0, sizeof(page));
            page[at % 4096] = byte;
            c = ref_chunk(page, n);
        } else {
            c = n == 4096 ? zero_chunk : ref_chunk(NULL, n);
        }
        h = ref_mix(h + c);
    }
    return ref_mix(h ^ len);
}

/* ------------------------------------------------------------------ */
/* Adapter description                                                  */
/* ------------------------------------------------------------------ */

typedef void adapter_edit_fn(struct tu_adapter *a);

static void edit_base_unaligned(struct tu_adapter *a) { a->segs[0].base = 0x100800; }
static void edit_size_unaligned(struct tu_adapter *a) { a->segs[0].size = 0x100800; }
static void edit_size_zero(struct tu_adapter *a) { a->segs[1].size = 0; a->segs[1].bank_count = 0; }
static void edit_aperture_size_unaligned(struct tu_adapter *a) { a->segs[2].size = 0x40010; }
static void edit_overlap_segments(struct tu_adapter *a) { a->segs[1].base = 0x180000; }
static void edit_same_base(struct tu_adapter *a) { a->segs[2].base = TU_SEG1_BASE; }
static void edit_overlap_sysmem(struct tu_adapter *a) { a->segs[0].base = TU_SYS_END - 0x1000; }
static void edit_sysmem_in_aperture(struct tu_adapter *a) { a->desc.sysmem_first_pfn = 0x800; }
static void edit_wraps(struct tu_adapter *a) { a->segs[0].base = 0xFFFFFFFFFFF00000ull; a->segs[0].size = 0x200000; }
static void edit_too_big(struct tu_adapter *a) { a->segs[0].base = 1ull << 40; a->segs[0].size = (1ull << 40) + 0x1000; }
static void edit_sysmem_too_big(struct tu_adapter *a)
{
    a->desc.sysmem_first_pfn = 1ull << 30; /* 4 TiB, clear of everything */
    a->desc.sysmem_pages = (1ull << 28) + 1;
}
static void edit_banks_out_of_order(struct tu_adapter *a) { a->bank_ends[0] = 0x80000; a->bank_ends[1] = 0x40000; }
static void edit_banks_equal(struct tu_adapter *a) { a->bank_ends[1] = a->bank_ends[0]; }
static void edit_bank_outside(struct tu_adapter *a) { a->bank_ends[2] = TU_SEG2_SIZE + 0x1000; }
static void edit_too_many_banks(struct tu_adapter *a)
{
    /* 128 banks of 4 KiB in a 512 KiB segment: well formed but too many. */
    a->segs[1].size = 128 * 0x1000;
    a->segs[1].bank_count = 128;
    for (uint32_t i = 0; i < 127; i++)
        a->bank_ends[i] = 0x1000ull * (i + 1);
}
static void edit_too_many_segments(struct tu_adapter *a)
{
    for (uint32_t i = 0; i < 32; i++) {
        a->segs[i].kind = WK_GPU_SEGMENT_MEMORY;
        a->segs[i].base = 0x1000000ull + 0x10000ull * i;
        a->segs[i].size = 0x10000;
        a->segs[i].bank_count = 0;
        a->segs[i].bank_ends = NULL;
    }
    a->desc.segment_count = 32;
}
static void edit_segments_null(struct tu_adapter *a) { a->desc.segments = NULL; }
static void edit_call_depth(struct tu_adapter *a) { a->desc.max_call_depth = WK_GPU_MAX_CALL_DEPTH + 1; }

static void test_desc_rejections(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        adapter_edit_fn *edit;
    } cases[] = {
        {"unaligned base", edit_base_unaligned},
        {"unaligned size", edit_size_unaligned},
        {"zero size", edit_size_zero},
        {"unaligned aperture size", edit_aperture_size_unaligned},
        {"segments overlap", edit_overlap_segments},
        {"two segments at one base", edit_same_base},
        {"segment overlaps system memory", edit_overlap_sysmem},
        {"system memory inside the aperture", edit_sysmem_in_aperture},
        {"base + size wraps", edit_wraps},
        {"segment over 1 TiB", edit_too_big},
        {"system memory over 1 TiB", edit_sysmem_too_big},
        {"bank table out of order", edit_banks_out_of_order},
        {"bank table not strictly increasing", edit_banks_equal},
        {"bank end outside the segment", edit_bank_outside},
        {"128 banks", edit_too_many_banks},
        {"32 segments", edit_too_many_segments},
        {"segments NULL", edit_segments_null},
        {"max_call_depth over WK_GPU_MAX_CALL_DEPTH", edit_call_depth},
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tu_adapter a;
        tu_std_adapter(&a);
        cases[i].edit(&a);
        struct wk_gpu *gpu = NULL;
        char why[256];
        memset(why, 0, sizeof(why));
        wk_status s = wk_gpu_create(&a.desc, &gpu, why, sizeof(why));
        if (s != WK_E_INVALID_ARGUMENT || why[0] == '\0' || gpu != NULL) {
            print_error("%s: expected WK_E_INVALID_ARGUMENT with a reason, got %s, why \"%s\"\n",
                        cases[i].what, wk_status_name(s), why);
            if (s == WK_OK)
                wk_gpu_destroy(gpu);
            fail();
        }
        if (strchr(why, '\n') != NULL) {
            print_error("%s: the reason should be one line: \"%s\"\n", cases[i].what, why);
            fail();
        }
        /* wk_gpu_check_desc judges alike, with the same reason, building nothing. */
        char checked[256];
        memset(checked, 0, sizeof(checked));
        if (wk_gpu_check_desc(&a.desc, checked, sizeof(checked)) != WK_E_INVALID_ARGUMENT || strcmp(checked, why)) {
            print_error("%s: wk_gpu_check_desc said \"%s\", wk_gpu_create \"%s\"\n", cases[i].what, checked, why);
            fail();
        }
        assert_true(expect_status(wk_gpu_check_desc(&a.desc, NULL, 0), WK_E_INVALID_ARGUMENT));
        /* why is optional. */
        gpu = NULL;
        assert_true(expect_status(wk_gpu_create(&a.desc, &gpu, NULL, 0), WK_E_INVALID_ARGUMENT));
        assert_null(gpu);
    }
    struct wk_gpu *gpu = NULL;
    assert_true(expect_status(wk_gpu_create(NULL, &gpu, NULL, 0), WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_check_desc(NULL, NULL, 0), WK_E_INVALID_ARGUMENT));
    struct tu_adapter a;
    tu_std_adapter(&a);
    assert_true(expect_status(wk_gpu_create(&a.desc, NULL, NULL, 0), WK_E_INVALID_ARGUMENT));
    char why[128] = "stale";
    assert_true(expect_status(wk_gpu_check_desc(&a.desc, why, sizeof(why)), WK_OK));
    assert_string_equal(why, "");
}

/* The limits themselves are accepted: 31 segments, 127 banks, 1 TiB. */
static void test_desc_accepts_limits(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    for (uint32_t i = 0; i < 31; i++) {
        a.segs[i].kind = i % 2 ? WK_GPU_SEGMENT_APERTURE : WK_GPU_SEGMENT_MEMORY;
        a.segs[i].base = 0x1000000ull + 0x10000ull * i;
        a.segs[i].size = 0x10000;
        a.segs[i].bank_count = 0;
        a.segs[i].bank_ends = NULL;
    }
    a.desc.segment_count = 31;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct wk_gpu_location loc;
    TU_OK(wk_gpu_locate(gpu, 0x1000000ull + 0x10000ull * 30 + 5, &loc));
    assert_true(expect_u64(loc.segment_id, 31));
    tu_destroy(state, gpu);

    tu_std_adapter(&a);
    a.segs[1].size = 128 * 0x1000;
    a.segs[1].bank_count = 127;
    for (uint32_t i = 0; i < 126; i++)
        a.bank_ends[i] = 0x1000ull * (i + 1);
    gpu = tu_create(state, &a.desc);
    TU_OK(wk_gpu_locate(gpu, TU_SEG2_BASE + 127 * 0x1000 + 8, &loc));
    assert_true(expect_u64(loc.bank, 126)); /* the last bank: 2 pages */
    TU_OK(wk_gpu_locate(gpu, TU_SEG2_BASE + 126 * 0x1000, &loc));
    assert_true(expect_u64(loc.bank, 126));
    TU_OK(wk_gpu_locate(gpu, TU_SEG2_BASE + 125 * 0x1000, &loc));
    assert_true(expect_u64(loc.bank, 125));
    tu_destroy(state, gpu);

    tu_std_adapter(&a);
    a.segs[0].base = 1ull << 40;
    a.segs[0].size = 1ull << 40;
    a.desc.sysmem_first_pfn = (1ull << 42) >> 12;
    a.desc.sysmem_pages = (1ull << 40) >> 12;
    gpu = tu_create(state, &a.desc);
    TU_OK(wk_gpu_locate(gpu, (1ull << 41) - 1, &loc));
    assert_true(expect_u64(loc.segment_id, 1));
    assert_true(expect_u64(loc.offset, (1ull << 40) - 1));
    tu_destroy(state, gpu);
}

static void test_description_is_copied(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    struct tu_adapter orig = a;
    memset(&a, 0xEE, sizeof(a)); /* the caller may free it afterwards */
    const struct wk_gpu_desc *d = wk_gpu_description(gpu);
    assert_non_null(d);
    assert_true(expect_u64(d->segment_count, 3));
    assert_true(expect_u64(d->sysmem_first_pfn, TU_SYS_PFN));
    assert_true(expect_u64(d->sysmem_pages, TU_SYS_PAGES));
    for (unsigned i = 0; i < 3; i++) {
        assert_true(expect_u64(d->segments[i].kind, orig.segs[i].kind));
        assert_true(expect_u64(d->segments[i].base, orig.segs[i].base));
        assert_true(expect_u64(d->segments[i].size, orig.segs[i].size));
    }
    assert_true(expect_u64(d->segments[1].bank_count, TU_SEG2_BANKS));
    assert_non_null(d->segments[1].bank_ends);
    for (unsigned i = 0; i < TU_SEG2_BANKS - 1; i++)
        assert_true(expect_u64(d->segments[1].bank_ends[i], TU_SEG2_BANK_SIZE * (i + 1)));
    tu_destroy(state, gpu);
}

/* Descriptions compare by value, whatever buffers hold them: what the
 * kit's users key on (kept fuzz adapters, the program form's "reference
 * segments", the YAML writer). A bank count of 1 is "not banked", as 0 is,
 * and the model describes it so. */
static void test_descriptions_compare_by_value(void **state)
{
    struct tu_adapter a, b;
    tu_std_adapter(&a);
    tu_std_adapter(&b);
    assert_true(wk_gpu_desc_equal(&a.desc, &b.desc));
    b.bank_ends[2] += 0x1000;
    assert_true(!wk_gpu_segments_equal(&a.desc, &b.desc));
    tu_std_adapter(&b);
    b.desc.max_commands = 7;
    assert_true(wk_gpu_segments_equal(&a.desc, &b.desc));
    assert_true(!wk_gpu_desc_equal(&a.desc, &b.desc));
    tu_std_adapter(&b);
    b.desc.sysmem_pages++;
    assert_true(!wk_gpu_desc_equal(&a.desc, &b.desc));
    tu_std_adapter(&b);
    b.segs[0].bank_count = 1;
    assert_true(wk_gpu_desc_equal(&a.desc, &b.desc));
    struct wk_gpu *gpu = tu_create(state, &b.desc);
    assert_true(expect_u64(wk_gpu_description(gpu)->segments[0].bank_count, 0));
    assert_true(wk_gpu_segments_equal(wk_gpu_description(gpu), &a.desc)); /* its budgets are the defaults, filled in */
    tu_destroy(state, gpu);
    b.segs[2].size += 0x1000;
    assert_true(!wk_gpu_desc_equal(&a.desc, &b.desc));
}

/* ------------------------------------------------------------------ */
/* Segment table and host access                                        */
/* ------------------------------------------------------------------ */

/* The segment a naive scan of the description finds for addr: 0 for system
 * memory, -1 for none. */
static int naive_segment(const struct wk_gpu_desc *d, uint64_t addr)
{
    for (uint32_t i = 0; i < d->segment_count; i++)
        if (addr >= d->segments[i].base && addr - d->segments[i].base < d->segments[i].size)
            return (int)i + 1;
    uint64_t sys = d->sysmem_first_pfn << WK_GPU_PAGE_SHIFT;
    return addr >= sys && addr - sys < (d->sysmem_pages << WK_GPU_PAGE_SHIFT) ? 0 : -1;
}

/* The region lookup on the largest adapter: 31 segments described out of
 * address order, adjacent ones and holes, every edge of every region. */
static void test_locate_many_segments(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    for (uint32_t i = 0; i < WK_GPU_MAX_SEGMENTS; i++) {
        uint32_t slot = (i * 7) % WK_GPU_MAX_SEGMENTS; /* a permutation: 7 is prime to 31 */
        memset(&a.segs[slot], 0, sizeof(a.segs[slot]));
        a.segs[slot].kind = i % 3 == 2 ? WK_GPU_SEGMENT_APERTURE : WK_GPU_SEGMENT_MEMORY;
        a.segs[slot].base = 0x1000000ull + (uint64_t)i * 0x100000 + (i % 2 ? 0 : 0x10000); /* holes */
        a.segs[slot].size = 0x10000ull * (1 + i % 4);
    }
    a.desc.segment_count = WK_GPU_MAX_SEGMENTS;
    a.desc.segments = a.segs;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    uint64_t sys = TU_SYS_BASE, sys_end = TU_SYS_END;
    for (uint32_t i = 0; i <= WK_GPU_MAX_SEGMENTS; i++) {
        uint64_t base = i < WK_GPU_MAX_SEGMENTS ? a.segs[i].base : sys;
        uint64_t end = i < WK_GPU_MAX_SEGMENTS ? a.segs[i].base + a.segs[i].size : sys_end;
        const uint64_t probes[] = {base - 1, base, base + 1, end - 1, end, end + 0x8000};
        for (unsigned k = 0; k < sizeof(probes) / sizeof(probes[0]); k++) {
            struct wk_gpu_location loc;
            int want = naive_segment(&a.desc, probes[k]);
            wk_status s = wk_gpu_locate(gpu, probes[k], &loc);
            if (want < 0 ? s != WK_E_BAD_ADDRESS : s != WK_OK || loc.segment_id != (uint32_t)want) {
                print_error("locate(0x%llx): expected segment %d, got %s segment %u\n",
                            (unsigned long long)probes[k], want, wk_status_name(s),
                            s == WK_OK ? loc.segment_id : 0);
                fail();
            }
        }
    }
    tu_destroy(state, gpu);
}

static void test_locate(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    static const struct {
        uint64_t addr;
        uint32_t seg;
        uint64_t offset;
        uint32_t bank;
    } good[] = {
        {TU_SEG1_BASE, 1, 0, 0},
        {TU_SEG1_END - 1, 1, TU_SEG1_SIZE - 1, 0},
        {TU_SEG2_BASE, 2, 0, 0},
        {TU_SEG2_BASE + 0x3FFFF, 2, 0x3FFFF, 0},
        {TU_SEG2_BASE + 0x40000, 2, 0x40000, 1},
        {TU_SEG2_BASE + 0x80001, 2, 0x80001, 2},
        {TU_SEG2_BASE + 0xC0000, 2, 0xC0000, 3},
        {TU_SEG2_END - 1, 2, TU_SEG2_SIZE - 1, 3},
        {TU_APER_BASE + 0x1234, 3, 0x1234, 0},
        {TU_APER_END - 1, 3, TU_APER_SIZE - 1, 0},
        {TU_SYS_BASE, 0, 0, 0},
        {TU_SYS_END - 1, 0, TU_SYS_END - TU_SYS_BASE - 1, 0},
    };
    for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        struct wk_gpu_location loc;
        memset(&loc, 0xA5, sizeof(loc));
        wk_status s = wk_gpu_locate(gpu, good[i].addr, &loc);
        if (s != WK_OK || loc.segment_id != good[i].seg || loc.offset != good[i].offset ||
            loc.bank != good[i].bank) {
            print_error("locate(0x%llx): expected OK seg %u offset 0x%llx bank %u, got %s seg %u "
                        "offset 0x%llx bank %u\n",
                        (unsigned long long)good[i].addr, good[i].seg,
                        (unsigned long long)good[i].offset, good[i].bank, wk_status_name(s),
                        loc.segment_id, (unsigned long long)loc.offset, loc.bank);
            fail();
        }
    }
    static const uint64_t bad[] = {0, TU_HOLE, TU_SEG1_END, TU_SEG2_END, TU_APER_END, TU_SYS_END,
                                   TU_SYS_BASE - 1, UINT64_MAX};
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct wk_gpu_location loc;
        if (!expect_status(wk_gpu_locate(gpu, bad[i], &loc), WK_E_BAD_ADDRESS)) {
            print_error("  locate(0x%llx)\n", (unsigned long long)bad[i]);
            fail();
        }
    }
    tu_destroy(state, gpu);
}

/* The host path follows the GPU's rule: addr + length overflowing is
 * BAD_ADDRESS, also from inside a region. */
static void test_host_access_length_overflow(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t buf[16] = {0};
    uint64_t d;
    assert_true(expect_status(wk_gpu_write(gpu, TU_SEG1_BASE, buf, UINT64_MAX - 0x1000),
                              WK_E_BAD_ADDRESS));
    assert_true(expect_status(wk_gpu_read(gpu, TU_SYS_BASE, buf, 0 - TU_SYS_BASE),
                              WK_E_BAD_ADDRESS));
    assert_true(expect_status(wk_gpu_digest(gpu, TU_SEG2_BASE, UINT64_MAX, &d),
                              WK_E_BAD_ADDRESS));
}

/* A model's host pages outlive it (page_pool.c keeps a destroyed model's
 * arenas for the next one): the pages the next model touches first are the
 * ones the last one wrote, and must read as zero but for what it writes
 * itself, in the pages kept backed (the first 16 MiB of an arena: their
 * dirt says what to zero) and past them (returned to the kernel). */
static void test_next_model_reads_zero_where_the_last_wrote(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.segs[0].base = 1ull << 36;
    a.segs[0].size = 64ull << 20;
    static uint8_t ones[4096], back[4096], expect[4096];
    memset(ones, 0xAB, sizeof(ones));
    const uint64_t pages = 4200; /* past the 4096 pages the stash keeps backed */
    for (int round = 0; round < 3; round++) {
        struct wk_gpu *g = tu_create(state, &a.desc);
        for (uint64_t p = 0; p < pages; p++)
            assert_int_equal(wk_gpu_write(g, a.segs[0].base + p * 4096, ones, sizeof(ones)), WK_OK);
        tu_destroy(state, g);
        g = tu_create(state, &a.desc);
        for (uint64_t p = 0; p < pages; p++) {
            const uint8_t one = (uint8_t)(p + 1);
            assert_int_equal(wk_gpu_write(g, a.segs[0].base + p * 4096 + 100, &one, 1), WK_OK);
            assert_int_equal(wk_gpu_read(g, a.segs[0].base + p * 4096, back, sizeof(back)), WK_OK);
            memset(expect, 0, sizeof(expect));
            expect[100] = one;
            if (memcmp(back, expect, sizeof(back)) != 0)
                fail_msg("round %d: page %llu of the next model holds the last model's bytes", round,
                         (unsigned long long)p);
        }
        tu_destroy(state, g);
    }
}

/* The first system page of g whose bytes are not all zero, else -1. Looked
 * at through a host mapping of every page: the model itself reads a page it
 * has not written since its start as zeroes without looking, and would
 * show its bytes only once something wrote part of it. */
static int64_t first_nonzero_sys_page(struct wk_gpu *g, uint64_t pages)
{
    static uint64_t pfns[1024];
    static const uint8_t zero[4096];
    assert_true(pages <= 1024);
    for (uint64_t p = 0; p < pages; p++)
        pfns[p] = TU_SYS_PFN + p;
    void *va = NULL;
    assert_int_equal(wk_gpu_sysmem_map(g, pfns, pages, &va), WK_OK);
    int64_t at = -1;
    for (uint64_t p = 0; p < pages && at < 0; p++)
        if (memcmp((uint8_t *)va + p * 4096, zero, 4096) != 0)
            at = (int64_t)p;
    wk_gpu_sysmem_unmap(g, va, pages);
    return at;
}

/* A destroyed model's system memory is kept for the next model of its size
 * (sysmem.c, the parked pool) and must read zero there, whoever wrote it:
 * the model, the host through wk_gpu_sysmem_page and through a mapping;
 * below and past the count of pages that are zeroed rather than punched. */
static void test_next_model_of_a_parked_pool_reads_zero(void **state)
{
    static const uint64_t sizes[] = { TU_SYS_PAGES, 1024 }; /* 1024: 700 dirty pages, punched */
    static uint8_t ones[4096];
    memset(ones, 0xAB, sizeof(ones));
    for (int k = 0; k < 2; k++) {
        struct tu_adapter a;
        tu_std_adapter(&a);
        a.desc.sysmem_pages = sizes[k];
        uint64_t written = k ? 700 : sizes[k];
        uint64_t pfns[2] = { TU_SYS_PFN + sizes[k] - 3, TU_SYS_PFN + sizes[k] - 2 };
        for (int round = 0; round < 3; round++) {
            struct wk_gpu *g = tu_create(state, &a.desc);
            assert_int_equal(wk_gpu_resident_pages(g), 0);
            int64_t at = first_nonzero_sys_page(g, sizes[k]);
            if (at >= 0)
                fail_msg("round %d: system page %lld holds the last model's bytes", round, (long long)at);
            /* From round 1 on this takes back the last model's idle mapping. */
            void *va = NULL;
            assert_int_equal(wk_gpu_sysmem_map(g, pfns, 2, &va), WK_OK);
            for (int i = 0; i < 2 * 4096; i++)
                if (((uint8_t *)va)[i])
                    fail_msg("round %d: byte %d of a mapping taken back holds %#x", round, i, ((uint8_t *)va)[i]);
            memset(va, 0xEF, 2 * 4096);
            uint8_t seen = 0;
            assert_int_equal(wk_gpu_read(g, TU_SYS_ADDR(pfns[1]) + 7, &seen, 1), WK_OK);
            assert_int_equal(seen, 0xEF); /* the model sees what the host wrote */
            wk_gpu_sysmem_unmap(g, va, 2); /* idle: parked with the pool */
            for (uint64_t p = 0; p < written; p++)
                assert_int_equal(wk_gpu_write(g, TU_SYS_ADDR(TU_SYS_PFN + p), ones, sizeof(ones)), WK_OK);
            uint8_t *pinned = wk_gpu_sysmem_page(g, TU_SYS_PFN + sizes[k] - 1);
            assert_non_null(pinned);
            memset(pinned, 0xCD, 4096);
            uint64_t live = TU_SYS_PFN + sizes[k] - 4; /* a mapping left live: unmapped by the destruction */
            assert_int_equal(wk_gpu_sysmem_map(g, &live, 1, &va), WK_OK);
            memset(va, 0x11, 4096);
            tu_destroy(state, g);
        }
    }
}

/* A forked child does not take its parent's parked pool: the pool is a
 * shared mapping, and a model in each process would write the same pages. */
static void test_parked_pool_stays_with_its_process(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    tu_destroy(state, tu_create(state, &a.desc)); /* a pool parked */
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct wk_gpu *g = NULL;
        static uint8_t mark[4096];
        memset(mark, 0x5A, sizeof(mark));
        char why[256];
        if (wk_gpu_create(&a.desc, &g, why, sizeof(why)) != WK_OK)
            _exit(2);
        for (uint64_t p = 0; p < TU_SYS_PAGES; p++)
            wk_gpu_write(g, TU_SYS_ADDR(TU_SYS_PFN + p), mark, sizeof(mark));
        _exit(0); /* without destroying: the pages stay written */
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    struct wk_gpu *g = tu_create(state, &a.desc);
    int64_t at = first_nonzero_sys_page(g, TU_SYS_PAGES);
    if (at >= 0)
        fail_msg("system page %lld holds what the child wrote", (long long)at);
    tu_destroy(state, g);
}

static void test_host_read_write_regions(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t data[0x3000];
    tu_pattern(data, sizeof(data), 21);
    /* Each region, unaligned, across pages and (segment 2) across banks. */
    const uint64_t at[] = {TU_SEG1_BASE + 0x7FF, TU_SEG2_BASE + TU_SEG2_BANK_SIZE - 0x1001,
                           TU_SYS_BASE + 0x123};
    for (unsigned i = 0; i < 3; i++) {
        tu_write(gpu, at[i], data, sizeof(data));
        assert_true(expect_bytes(gpu, at[i], data, sizeof(data)));
        assert_true(expect_byte_run(gpu, at[i] - 1, 0, 1));
        assert_true(expect_byte_run(gpu, at[i] + sizeof(data), 0, 1));
    }
    /* Through the aperture: lands in the mapped system pages. */
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 10, TU_SYS_PFN + 0x50));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 11, TU_SYS_PFN + 0x60));
    tu_write(gpu, TU_APER_BASE + 10 * 0x1000 + 0x800, data, 0x1000);
    assert_true(expect_bytes(gpu, TU_SYS_ADDR(TU_SYS_PFN + 0x50) + 0x800, data, 0x800));
    assert_true(expect_bytes(gpu, TU_SYS_ADDR(TU_SYS_PFN + 0x60), data + 0x800, 0x800));
    assert_true(expect_bytes(gpu, TU_APER_BASE + 10 * 0x1000 + 0x800, data, 0x1000));

    /* Failures, each without partial effect. */
    uint8_t buf[0x2000];
    memset(buf, 0xCC, sizeof(buf));
    assert_true(expect_status(wk_gpu_write(gpu, TU_HOLE, buf, 16), WK_E_BAD_ADDRESS));
    assert_true(expect_status(wk_gpu_read(gpu, TU_HOLE, buf, 16), WK_E_BAD_ADDRESS));
    assert_true(expect_status(wk_gpu_write(gpu, TU_SEG1_END - 0x1000, buf, 0x2000),
                              WK_E_CROSSES_SEGMENT));
    assert_true(expect_byte_run(gpu, TU_SEG1_END - 0x1000, 0, 0x1000));
    assert_true(expect_status(wk_gpu_read(gpu, TU_SYS_END - 4, buf, 8), WK_E_CROSSES_SEGMENT));
    assert_true(expect_status(wk_gpu_write(gpu, TU_APER_BASE + 11 * 0x1000, buf, 0x2000),
                              WK_E_UNMAPPED));
    assert_true(expect_bytes(gpu, TU_SYS_ADDR(TU_SYS_PFN + 0x60), data + 0x800, 0x800));
    assert_true(expect_status(wk_gpu_read(gpu, TU_APER_BASE, buf, 1), WK_E_UNMAPPED));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* Laziness and reset                                                   */
/* ------------------------------------------------------------------ */

#define BIG_BASE 0x100000000ull  /* 4 GiB */
#define BIG_SIZE 0x100000000ull  /* 4 GiB */

static struct wk_gpu *big_gpu(void **state, uint64_t base, uint64_t size)
{
    struct wk_gpu_segment_desc seg;
    memset(&seg, 0, sizeof(seg));
    seg.kind = WK_GPU_SEGMENT_MEMORY;
    seg.base = base;
    seg.size = size;
    struct wk_gpu_desc desc;
    memset(&desc, 0, sizeof(desc));
    desc.segment_count = 1;
    desc.segments = &seg;
    desc.sysmem_first_pfn = TU_SYS_PFN;
    desc.sysmem_pages = TU_SYS_PAGES;
    return tu_create(state, &desc);
}

/* Host pages beyond the data pages themselves (directories) that a test
 * tolerates; the docs promise "a few KiB" per untouched 4 GiB. */
#define DIR_SLACK 4u

static bool expect_resident_between(struct wk_gpu *gpu, uint64_t lo, uint64_t hi, const char *when)
{
    uint64_t r = wk_gpu_resident_pages(gpu);
    if (r >= lo && r <= hi)
        return true;
    print_error("%s: resident pages expected in [%llu, %llu], got %llu\n", when,
                (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)r);
    return false;
}

static void test_lazy_4gib_segment(void **state)
{
    struct wk_gpu *gpu = big_gpu(state, BIG_BASE, BIG_SIZE);
    uint64_t r0 = wk_gpu_resident_pages(gpu);
    assert_true(expect_resident_between(gpu, 0, DIR_SLACK, "after create"));

    /* Reading and digesting untouched memory allocates nothing. */
    uint8_t buf[0x10000];
    memset(buf, 0xCC, sizeof(buf));
    TU_OK(wk_gpu_read(gpu, BIG_BASE + 0x80000000ull, buf, sizeof(buf)));
    for (size_t i = 0; i < sizeof(buf); i++)
        assert_int_equal(buf[i], 0);
    uint64_t d = 0;
    TU_OK(wk_gpu_digest(gpu, BIG_BASE, 0x1000000, &d));
    assert_true(expect_resident_between(gpu, r0, r0, "after reads of untouched memory"));

    const uint8_t one = 0x5A;
    tu_write(gpu, BIG_BASE + 0xC0000123ull, &one, 1);
    assert_true(expect_resident_between(gpu, r0 + 1, r0 + 1 + DIR_SLACK, "after a 1-byte write"));
    uint64_t r1 = wk_gpu_resident_pages(gpu);
    tu_write(gpu, BIG_BASE + 0xC0000FFFull, &one, 1); /* same page */
    assert_true(expect_resident_between(gpu, r1, r1, "after a second write to that page"));
    assert_true(expect_bytes(gpu, BIG_BASE + 0xC0000123ull, &one, 1));
    assert_true(expect_byte_run(gpu, BIG_BASE + 0xC0000000ull, 0, 0x123));

    /* A GPU write is lazy too: one FILL of 8 KiB across a page boundary. */
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, BIG_BASE + 0x10000800ull, 0x1000, 0x01010101));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_resident_between(gpu, r1 + 2, r1 + 2 + DIR_SLACK, "after an 8 KiB FILL"));
    tu_destroy(state, gpu);
}

/* Reading system memory backs pages too (it is shared memory): reset must
 * drop those as well, or the next fuzz input starts with resident pages. */
static void test_reset_after_reads_of_system_memory(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    uint8_t buf[64];
    TU_OK(wk_gpu_read(gpu, TU_SYS_BASE + 0x3000, buf, sizeof(buf)));
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SYS_BASE + 0x5000, TU_SEG1_BASE, 16));
    struct wk_gpu_fault f;
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_OK));
    wk_gpu_reset(gpu);
    assert_true(expect_resident_between(gpu, r0, r0, "after reset of a model that only read system memory"));
    tu_destroy(state, gpu);
}

static void test_reset_returns_to_fresh_state(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    const uint64_t pages[] = {TU_SEG1_BASE, TU_SEG1_BASE + 0x5000, TU_SEG2_BASE + 0xC0000,
                              TU_SYS_BASE + 0x7000, TU_SYS_END - 0x1000};
    const unsigned k = sizeof(pages) / sizeof(pages[0]);
    for (unsigned i = 0; i < k; i++)
        tu_write32(gpu, pages[i] + 0x10, 0xA0 + i);
    assert_true(expect_resident_between(gpu, r0 + k, r0 + k + DIR_SLACK, "after touching 5 pages"));

    /* Plus GART state, counters, a fence and a fault. */
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 0, TU_SYS_PFN + 7));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, TU_APER_PAGES - 1, TU_SYS_PFN + 8));
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fence(&b.w, TU_APER_BASE + 8, 42));
    const uint8_t bad[4] = {0xFE, 0, 0, 0};
    tu_buf_raw(&b, bad, 4);
    struct wk_gpu_fault f;
    assert_true(expect_status(tu_run(gpu, &b, &f), WK_E_GPU_FAULT));
    assert_true(expect_mem64(gpu, TU_SYS_ADDR(TU_SYS_PFN + 7) + 8, 42));

    wk_gpu_reset(gpu);

    assert_true(expect_resident_between(gpu, r0, r0, "after reset"));
    for (unsigned i = 0; i < k; i++)
        assert_true(expect_byte_run(gpu, pages[i], 0, 0x1000));
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(TU_SYS_PFN + 7), 0, 0x1000));
    struct wk_gpu_counters zero = {0};
    assert_true(expect_counters(gpu, &zero));
    assert_true(expect_u64(wk_gpu_last_fence(gpu), 0));
    uint64_t total = 1;
    struct wk_gpu_fault log[4];
    assert_true(expect_u64(wk_gpu_faults(gpu, log, 4, &total), 0));
    assert_true(expect_u64(total, 0));
    const uint64_t gart_pages[] = {0, TU_APER_PAGES - 1};
    for (unsigned i = 0; i < 2; i++) {
        int valid = -1, stale = -1;
        uint64_t pfn = 0;
        TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, gart_pages[i], &valid, &pfn, &stale));
        assert_int_equal(valid, 0);
        assert_int_equal(stale, 0);
    }
    /* The TLB was invalidated too: the GPU faults through page 0. */
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_BASE, 1));
    assert_true(expect_run_fault(gpu, &b, WK_GPU_FAULT_UNMAPPED_APERTURE, WK_GPU_OP_WRITE32, 0,
                                 TU_APER_BASE));
    /* And the model is usable again. */
    tu_write32(gpu, pages[0], 0x77);
    assert_true(expect_mem32(gpu, pages[0], 0x77));
    tu_destroy(state, gpu);
}

/* Reset cost, by counts: 3 pages of a 1 TiB segment, touched and reset
 * many times, never hold more than those 3 pages. */
static void test_reset_cost_1tib_segment(void **state)
{
    const uint64_t base = 1ull << 40, size = 1ull << 40;
    struct wk_gpu *gpu = big_gpu(state, base, size);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    const uint64_t at[3] = {base, base + (size >> 1) + 0x1234, base + size - 1};
    for (unsigned round = 0; round < 100; round++) {
        for (unsigned i = 0; i < 3; i++) {
            const uint8_t v = (uint8_t)(round + i + 1);
            tu_write(gpu, at[i], &v, 1);
        }
        if (!expect_resident_between(gpu, r0 + 3, r0 + 3 + 3 * DIR_SLACK, "3 pages touched")) {
            print_error("  round %u\n", round);
            fail();
        }
        wk_gpu_reset(gpu);
        if (!expect_resident_between(gpu, r0, r0, "after reset")) {
            print_error("  round %u\n", round);
            fail();
        }
    }
    for (unsigned i = 0; i < 3; i++)
        assert_true(expect_byte_run(gpu, at[i], 0, 1));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* Digest                                                               */
/* ------------------------------------------------------------------ */

/* The reference implementation above against constants computed outside
 * this file from the documented algorithm. */
static void test_digest_reference_vectors(void **state)
{
    (void)state;
    uint8_t buf[5000];
    for (unsigned i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(i * 7 + 3);
    assert_true(expect_u64(ref_digest(buf, 0), 0xf52a15e9a9b5e89bull));
    assert_true(expect_u64(ref_digest((const uint8_t *)"abc", 3), 0xf0ef1c99b6768435ull));
    assert_true(expect_u64(ref_digest(buf, 5000), 0x352685cba0734b95ull));
    assert_true(expect_u64(ref_digest_sparse(4096, 0, 0), 0x555be5eb2cdb3842ull));
    assert_true(expect_u64(ref_digest_sparse(1u << 20, 0, 0), 0xcc1ba430076f6de6ull));

    assert_true(expect_u64(wk_gpu_digest_bytes(buf, 0), 0xf52a15e9a9b5e89bull));
    assert_true(expect_u64(wk_gpu_digest_bytes("abc", 3), 0xf0ef1c99b6768435ull));
    assert_true(expect_u64(wk_gpu_digest_bytes(buf, 5000), 0x352685cba0734b95ull));
}

static void test_digest_bytes_matches_reference(void **state)
{
    enum { MAX = 3 * 4096 + 100 };
    uint8_t *buf = tu_alloc(state, MAX);
    assert_non_null(buf);
    tu_pattern(buf, MAX, 31);
    static const uint64_t lens[] = {0, 1, 7, 8, 9, 15, 16, 4095, 4096, 4097, 8191, 8192, 8193,
                                    MAX};
    for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        uint64_t want = ref_digest(buf, lens[i]);
        uint64_t got = wk_gpu_digest_bytes(buf, lens[i]);
        if (got != want) {
            print_error("digest_bytes of %llu bytes: expected 0x%llx, got 0x%llx\n",
                        (unsigned long long)lens[i], (unsigned long long)want,
                        (unsigned long long)got);
            fail();
        }
    }
}

/* Fed chunk by chunk (wk_gpu_digest_chunk/add/end), the digest is the
 * reference digest of the same bytes, whole chunks and a short last one. */
static void test_digest_fed_in_chunks_matches_reference(void **state)
{
    enum { MAX = 3 * 4096 + 100 };
    uint8_t *buf = tu_alloc(state, MAX);
    assert_non_null(buf);
    tu_pattern(buf, MAX, 77);
    memset(buf + 4096, 0, 4096); /* a page of zeros among them */
    static const uint64_t lens[] = {0, 1, 8, 4095, 4096, 4097, 8192, 8200, MAX};
    for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        uint64_t h = WK_GPU_DIGEST_START;
        for (uint64_t at = 0; at < lens[i]; at += 4096) {
            uint64_t n = lens[i] - at < 4096 ? lens[i] - at : 4096;
            h = wk_gpu_digest_add(h, wk_gpu_digest_chunk(buf + at, n));
        }
        assert_true(expect_u64(wk_gpu_digest_end(h, lens[i]), ref_digest(buf, lens[i])));
    }
}

static bool expect_digest(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint64_t want)
{
    uint64_t got = 0;
    wk_status s = wk_gpu_digest(gpu, addr, len, &got);
    if (s == WK_OK && got == want)
        return true;
    print_error("digest(0x%llx, %llu): expected OK 0x%llx, got %s 0x%llx\n",
                (unsigned long long)addr, (unsigned long long)len, (unsigned long long)want,
                wk_status_name(s), (unsigned long long)got);
    return false;
}

/* The digest depends on the bytes only: not on the address's alignment, the
 * region, or which pages are resident. */
static void test_digest_of_memory(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    enum { LEN = 2 * 4096 + 777 };
    uint8_t *data = tu_alloc(state, LEN);
    assert_non_null(data);
    tu_pattern(data, LEN, 41);
    const uint64_t want = ref_digest(data, LEN);
    assert_true(expect_u64(wk_gpu_digest_bytes(data, LEN), want));

    const uint64_t at[] = {TU_SEG1_BASE, TU_SEG1_BASE + 0x10001, TU_SEG2_BASE + 0x3FFFF,
                           TU_SYS_BASE + 0xFFF};
    for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        tu_write(gpu, at[i], data, LEN);
        assert_true(expect_digest(gpu, at[i], LEN, want));
    }
    /* Through the aperture, over out-of-order pages. */
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 20, TU_SYS_PFN + 0x90));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 21, TU_SYS_PFN + 0x80));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 22, TU_SYS_PFN + 0x85));
    tu_write(gpu, TU_APER_BASE + 20 * 0x1000 + 0x101, data, LEN);
    assert_true(expect_digest(gpu, TU_APER_BASE + 20 * 0x1000 + 0x101, LEN, want));

    /* One byte changed, first, middle or last: the digest changes. */
    const uint64_t flip[] = {0, LEN / 2, LEN - 1};
    for (unsigned i = 0; i < 3; i++) {
        uint8_t v = (uint8_t)(data[flip[i]] ^ 0x01);
        tu_write(gpu, TU_SEG1_BASE + flip[i], &v, 1);
        uint64_t got = 0;
        TU_OK(wk_gpu_digest(gpu, TU_SEG1_BASE, LEN, &got));
        if (got == want) {
            print_error("digest unchanged after flipping byte %llu\n",
                        (unsigned long long)flip[i]);
            fail();
        }
        data[flip[i]] = v;
        assert_true(expect_u64(got, ref_digest(data, LEN)));
        data[flip[i]] ^= 0x01;
        tu_write(gpu, TU_SEG1_BASE + flip[i], &data[flip[i]], 1);
    }
    assert_true(expect_digest(gpu, TU_SEG1_BASE, LEN, want));

    /* Same reachability rules as wk_gpu_read. */
    uint64_t d;
    assert_true(expect_status(wk_gpu_digest(gpu, TU_HOLE, 16, &d), WK_E_BAD_ADDRESS));
    assert_true(expect_status(wk_gpu_digest(gpu, TU_SEG1_END - 8, 16, &d), WK_E_CROSSES_SEGMENT));
    assert_true(expect_status(wk_gpu_digest(gpu, TU_APER_BASE, 16, &d), WK_E_UNMAPPED));
    tu_destroy(state, gpu);
}

static void test_digest_independent_of_residency(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t len = 0x10000 + 123;
    uint8_t *zeros = tu_alloc(state, (size_t)len);
    assert_non_null(zeros);
    const uint64_t want = ref_digest(zeros, len);
    assert_true(expect_digest(gpu, TU_SEG2_BASE + 0x3001, len, want));
    /* Make some of those pages resident, still holding zeros. */
    tu_write(gpu, TU_SEG2_BASE + 0x5000, zeros, 0x2000);
    tu_write(gpu, TU_SEG2_BASE + 0x3001, zeros, 1);
    assert_true(expect_digest(gpu, TU_SEG2_BASE + 0x3001, len, want));
    /* And bytes written then cleared by the GPU. */
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG2_BASE + 0x8000, 0x100, 0xFFFFFFFF));
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG2_BASE + 0x8000, 0x100, 0));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_digest(gpu, TU_SEG2_BASE + 0x3001, len, want));
    tu_destroy(state, gpu);
}

/* A whole 4 GiB segment with one byte set: the zero-chunk shortcut must
 * agree with the algorithm. */
static void test_digest_of_large_sparse_range(void **state)
{
    struct wk_gpu *gpu = big_gpu(state, BIG_BASE, BIG_SIZE);
    const uint64_t at = 0x87654321ull;
    assert_true(expect_digest(gpu, BIG_BASE, BIG_SIZE, ref_digest_sparse(BIG_SIZE, at, 0)));
    const uint8_t v = 0x9C;
    tu_write(gpu, BIG_BASE + at, &v, 1);
    assert_true(expect_digest(gpu, BIG_BASE, BIG_SIZE, ref_digest_sparse(BIG_SIZE, at, v)));
    /* An unaligned sub-range: chunks are counted from the range start. */
    assert_true(expect_digest(gpu, BIG_BASE + at - 5000, 100000,
                              ref_digest_sparse(100000, 5000, v)));
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* GART, host side                                                      */
/* ------------------------------------------------------------------ */

static void test_gart_set_get(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    int valid = -1, stale = -1;
    uint64_t pfn = 0;
    for (uint64_t p = 0; p < TU_APER_PAGES; p += 21) {
        TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, p, &valid, &pfn, &stale));
        assert_int_equal(valid, 0);
        assert_int_equal(stale, 0);
    }
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 0, TU_SYS_PFN));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, TU_APER_PAGES - 1, TU_SYS_PFN + TU_SYS_PAGES - 1));
    TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, 0, &valid, &pfn, &stale));
    assert_int_equal(valid, 1);
    assert_true(expect_u64(pfn, TU_SYS_PFN));
    assert_int_equal(stale, 0);
    TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, TU_APER_PAGES - 1, &valid, &pfn, &stale));
    assert_int_equal(valid, 1);
    assert_true(expect_u64(pfn, TU_SYS_PFN + TU_SYS_PAGES - 1));
    /* The set reached the TLB as well: the GPU uses it without a flush. */
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, TU_APER_END - 4, 0x600D));
    assert_true(tu_run_ok(gpu, &b));
    assert_true(expect_mem32(gpu, TU_SYS_END - 4, 0x600D));
    struct wk_gpu_counters c;
    wk_gpu_get_counters(gpu, &c);
    assert_true(expect_u64(c.stale_tlb_accesses, 0));
    /* Remapping by the host path updates both again. */
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 0, TU_SYS_PFN + 5));
    TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, 0, &valid, &pfn, &stale));
    assert_true(expect_u64(pfn, TU_SYS_PFN + 5));
    assert_int_equal(stale, 0);

    /* Rejections, with no change. gpu.h names no status for these; like
     * wk_gpu_create's, a bad argument is WK_E_INVALID_ARGUMENT (segment that
     * is no aperture, page past its end, frame outside system memory). */
    assert_true(expect_status(wk_gpu_gart_set(gpu, TU_SEG1_ID, 0, TU_SYS_PFN),
                              WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_gart_set(gpu, 0, 0, TU_SYS_PFN), WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_gart_set(gpu, 4, 0, TU_SYS_PFN), WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_gart_get(gpu, TU_SEG2_ID, 0, &valid, &pfn, &stale),
                              WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_gart_set(gpu, TU_APER_ID, TU_APER_PAGES, TU_SYS_PFN),
                              WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_gart_get(gpu, TU_APER_ID, TU_APER_PAGES, &valid, &pfn,
                                              &stale),
                              WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_gart_set(gpu, TU_APER_ID, 1, TU_SYS_PFN + TU_SYS_PAGES),
                              WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_gart_set(gpu, TU_APER_ID, 1, TU_SYS_PFN - 1),
                              WK_E_INVALID_ARGUMENT));
    TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, 1, &valid, &pfn, &stale));
    assert_int_equal(valid, 0);
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* Recycled pages, PTE blocks, the host GART range path                 */
/* ------------------------------------------------------------------ */

/* Pages go back to the pool with their contents and are handed out again
 * after a reset (in a different order here): nothing an earlier input wrote
 * may show through a partial write, nor through a PTE block. */
static void test_recycled_pages_read_zero(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t page[4096];
    tu_pattern(page, sizeof(page), 5);
    for (uint64_t i = 0; i < 16; i++)
        tu_write(gpu, TU_SEG1_BASE + i * 0x1000, page, sizeof(page));
    TU_OK(wk_gpu_gart_set_range(gpu, TU_APER_ID, 0, TU_APER_PAGES, TU_SYS_PFN));
    wk_gpu_reset(gpu);
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 7, TU_SYS_PFN + 1));
    for (uint64_t i = 16; i-- > 0;) {
        const uint8_t one = 0xA5;
        tu_write(gpu, TU_SEG2_BASE + i * 0x3000 + 0x800, &one, 1);
        assert_true(expect_byte_run(gpu, TU_SEG2_BASE + i * 0x3000, 0, 0x800));
        assert_true(expect_byte_run(gpu, TU_SEG2_BASE + i * 0x3000 + 0x801, 0, 0x7FF));
    }
    for (uint64_t p = 0; p < TU_APER_PAGES; p++) {
        int valid = -1, stale = -1;
        uint64_t pfn = 0;
        TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, p, &valid, &pfn, &stale));
        assert_int_equal(valid, p == 7);
        assert_int_equal(stale, 0);
    }
    tu_destroy(state, gpu);
}

/* A fresh page is zeroed only around the bytes its first writer covers
 * (sparse.c): writes and FILLs at a page's start, at its end, across two
 * pages and of one byte each leave every other byte of recycled pages zero. */
static void gpu_fill(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint32_t pattern);

static void gpu_copy(struct wk_gpu *gpu, uint64_t src, uint64_t dst, uint64_t len)
{
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, src, dst, len));
    assert_true(tu_run_ok(gpu, &b));
}

static void test_recycled_pages_zeroed_around_partial_writes(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    uint8_t page[4096];
    memset(page, 0xEE, sizeof(page));
    for (uint64_t i = 0; i < 16; i++)
        tu_write(gpu, TU_SEG1_BASE + i * 0x1000, page, sizeof(page));
    wk_gpu_reset(gpu);
    const uint64_t b = TU_SEG2_BASE;
    tu_write(gpu, b, page, 0x100);                     /* page 0: head */
    tu_write(gpu, b + 0x2000 - 0x100, page, 0x100);    /* page 1: tail */
    tu_write(gpu, b + 0x3000 - 0x80, page, 0x100);     /* pages 2 and 3 */
    gpu_fill(gpu, b + 0x4400, 0x10, 0xEEEEEEEE);       /* page 4: middle */
    gpu_fill(gpu, b + 0x6000 - 4, 8, 0xEEEEEEEE);      /* pages 5 and 6 */
    assert_true(expect_byte_run(gpu, b, 0xEE, 0x100));
    assert_true(expect_byte_run(gpu, b + 0x100, 0, 0x2000 - 0x200));
    assert_true(expect_byte_run(gpu, b + 0x2000 - 0x100, 0xEE, 0x100));
    assert_true(expect_byte_run(gpu, b + 0x2000, 0, 0x1000 - 0x80));
    assert_true(expect_byte_run(gpu, b + 0x3000 - 0x80, 0xEE, 0x100));
    assert_true(expect_byte_run(gpu, b + 0x3080, 0, 0x1400 - 0x80));
    assert_true(expect_byte_run(gpu, b + 0x4400, 0xEE, 0x10));
    assert_true(expect_byte_run(gpu, b + 0x4410, 0, 0x1BEC));
    assert_true(expect_byte_run(gpu, b + 0x6000 - 4, 0xEE, 8));
    assert_true(expect_byte_run(gpu, b + 0x6004, 0, 0xFFC));

    /* Later writes to a page already backed widen what its next user zeroes:
     * each round writes spans of every page (a COPY included), the next one
     * byte, and every byte but that one must read zero. */
    for (int round = 0; round < 3; round++) {
        wk_gpu_reset(gpu);
        for (uint64_t i = 0; i < 8; i++) {
            uint64_t at = b + i * 0x1000;
            tu_write(gpu, at + 0x10 * i, page, 0x10);
            tu_write(gpu, at + 0xF00 - 0x10 * i, page, 0x20);
            gpu_fill(gpu, at + 0x800, 4, 0xEEEEEEEE);
            gpu_copy(gpu, at, at + 0xA00 + 0x40 * i, 0x10);
        }
        wk_gpu_reset(gpu);
        for (uint64_t i = 0; i < 8; i++) {
            const uint8_t one = 0xA5;
            uint64_t at = b + i * 0x1000 + 0x7FF;
            tu_write(gpu, at, &one, 1);
            assert_true(expect_byte_run(gpu, at - 0x7FF, 0, 0x7FF));
            assert_true(expect_byte_run(gpu, at + 1, 0, 0x800));
        }
    }
    tu_destroy(state, gpu);
}

/* An aperture whose page count is no multiple of a PTE block (300 pages: a
 * full block and 44 entries of a second): only the entries that exist are
 * zeroed and flushed, and every one of them works. */
static void test_aperture_with_partial_pte_block(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    const uint64_t pages = 300;
    a.segs[2].size = pages * 0x1000;
    a.desc.sysmem_pages = 512; /* frames for every aperture page */
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    TU_OK(wk_gpu_gart_set_range(gpu, TU_APER_ID, 0, pages, TU_SYS_PFN));
    int valid = -1, stale = -1;
    uint64_t pfn = 0;
    TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, pages - 1, &valid, &pfn, &stale));
    assert_int_equal(valid, 1);
    assert_true(expect_u64(pfn, TU_SYS_PFN + pages - 1));
    wk_gpu_reset(gpu);
    /* The GPU path: map the last page, flush, write through it. */
    uint8_t cmd[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, cmd, sizeof(cmd));
    const uint64_t frame = TU_SYS_PFN + 9;
    TU_EMIT(wk_gpu_emit_gart_map(&w, TU_APER_ID, (uint32_t)(pages - 1), 1, &frame));
    TU_EMIT(wk_gpu_emit_tlb_flush(&w, TU_APER_ID));
    TU_EMIT(wk_gpu_emit_write32(&w, TU_APER_BASE + (pages - 1) * 0x1000 + 12, 0xC0FFEE));
    assert_true(tu_run_bytes_ok(gpu, cmd, w.used));
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(frame) + 12, 0xC0FFEE));
    TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, pages - 2, &valid, &pfn, &stale));
    assert_int_equal(valid, 0);
    tu_destroy(state, gpu);
}

static bool expect_gart(struct wk_gpu *gpu, uint64_t page, int want_valid, uint64_t want_pfn)
{
    int valid = -1, stale = -1;
    uint64_t pfn = 0;
    if (wk_gpu_gart_get(gpu, TU_APER_ID, page, &valid, &pfn, &stale) != WK_OK)
        return false;
    if (valid == want_valid && (!valid || pfn == want_pfn) && stale == 0)
        return true;
    print_error("aperture page %llu: expected valid=%d pfn=0x%llx, got valid=%d pfn=0x%llx stale=%d\n",
                (unsigned long long)page, want_valid, (unsigned long long)want_pfn, valid,
                (unsigned long long)pfn, stale);
    return false;
}

/* wk_gpu_gart_set_range is count calls of wk_gpu_gart_set, checked whole
 * first: a rejected range changes nothing. */
static void test_gart_set_range(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    TU_OK(wk_gpu_gart_set_range(gpu, TU_APER_ID, 2, 10, TU_SYS_PFN + 100));
    for (uint64_t p = 0; p < TU_APER_PAGES; p++)
        assert_true(expect_gart(gpu, p, p >= 2 && p < 12, TU_SYS_PFN + 100 + p - 2));
    TU_OK(wk_gpu_gart_set_range(gpu, TU_APER_ID, 5, 0, TU_SYS_PFN + TU_SYS_PAGES + 7)); /* empty */
    TU_OK(wk_gpu_gart_set_range(gpu, TU_APER_ID, TU_APER_PAGES - 1, 1, TU_SYS_PFN + TU_SYS_PAGES - 1));
    assert_true(expect_gart(gpu, TU_APER_PAGES - 1, 1, TU_SYS_PFN + TU_SYS_PAGES - 1));

    const struct {
        uint32_t seg;
        uint64_t first, count, pfn;
    } bad[] = {
        {TU_SEG1_ID, 0, 1, TU_SYS_PFN},                      /* not an aperture */
        {9, 0, 1, TU_SYS_PFN},                               /* no such segment */
        {TU_APER_ID, 60, 5, TU_SYS_PFN},                     /* past the aperture */
        {TU_APER_ID, TU_APER_PAGES + 1, 0, TU_SYS_PFN},      /* starts past it */
        {TU_APER_ID, 20, 4, TU_SYS_PFN + TU_SYS_PAGES - 3},  /* frames past system memory */
        {TU_APER_ID, 20, 4, TU_SYS_PFN - 1},                 /* a frame below it */
        {TU_APER_ID, 0, UINT64_MAX, TU_SYS_PFN},             /* count overflows */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (!expect_status(wk_gpu_gart_set_range(gpu, bad[i].seg, bad[i].first, bad[i].count, bad[i].pfn),
                           WK_E_INVALID_ARGUMENT)) {
            print_error("  case %zu\n", i);
            fail();
        }
    }
    for (uint64_t p = 12; p < TU_APER_PAGES - 1; p++)
        assert_true(expect_gart(gpu, p, 0, 0));
    tu_destroy(state, gpu);
}

/* wk_gpu_gart_set_range declares only the entries it writes, so a recycled
 * PTE block is zeroed around them (sparse.c): after a reset, every entry the
 * previous use left outside the new range reads invalid, TLB line included,
 * whatever the overlap of the old and new ranges. */
static void expect_only_range_mapped(struct wk_gpu *gpu, uint64_t first, uint64_t count, uint64_t pfn)
{
    for (uint64_t p = 0; p < TU_APER_PAGES; p++) {
        if (!expect_gart(gpu, p, p >= first && p < first + count, pfn + p - first)) {
            print_error("  after mapping [%llu, %llu)\n", (unsigned long long)first,
                        (unsigned long long)(first + count));
            fail();
        }
    }
}

static void test_gart_set_range_on_recycled_block(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    static const struct {
        uint64_t first, count;
    } ranges[] = {
        {0, TU_APER_PAGES}, {10, 5}, {40, 10}, {0, 32}, {31, 2}, {20, 30}, {63, 1}, {0, 1}, {5, 50},
    };
    for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
        wk_gpu_reset(gpu);
        uint64_t pfn = TU_SYS_PFN + 3 * i;
        TU_OK(wk_gpu_gart_set_range(gpu, TU_APER_ID, ranges[i].first, ranges[i].count, pfn));
        expect_only_range_mapped(gpu, ranges[i].first, ranges[i].count, pfn);
        /* A GPU mapping of another page of the same block: entry only, the
         * TLB line stays invalid until a flush (and the block is written
         * whole from now on, for the next reset). */
        uint64_t other = ranges[i].first ? 0 : TU_APER_PAGES - 1, frame = TU_SYS_PFN + 200;
        if (ranges[i].first + ranges[i].count == TU_APER_PAGES && !ranges[i].first)
            continue;
        uint8_t cmd[32];
        struct wk_gpu_writer w;
        wk_gpu_writer_init(&w, cmd, sizeof(cmd));
        TU_EMIT(wk_gpu_emit_gart_map(&w, TU_APER_ID, (uint32_t)other, 1, &frame));
        assert_true(tu_run_bytes_ok(gpu, cmd, w.used));
        int valid = -1, stale = -1;
        uint64_t got = 0;
        TU_OK(wk_gpu_gart_get(gpu, TU_APER_ID, other, &valid, &got, &stale));
        assert_int_equal(valid, 1);
        assert_int_equal(stale, 1);
    }
    wk_gpu_reset(gpu);
    TU_OK(wk_gpu_gart_set_range(gpu, TU_APER_ID, 8, 4, TU_SYS_PFN));
    expect_only_range_mapped(gpu, 8, 4, TU_SYS_PFN);
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* System memory: exact dirty tracking                                  */
/* ------------------------------------------------------------------ */

static void gpu_fill(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint32_t pattern)
{
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, addr, len, pattern));
    assert_true(tu_run_ok(gpu, &b));
}

/* While no host pointer exists, the model counts the system pages it wrote
 * and reset zeroes exactly those: residency goes back to where it was,
 * round after round, and the pages read as zero. */
static void test_system_memory_private_reset(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    for (unsigned round = 0; round < 3; round++) {
        gpu_fill(gpu, TU_SYS_BASE + 0x5800, 0x2000, 0x01020304 + round); /* 3 pages */
        uint8_t buf[64];
        TU_OK(wk_gpu_read(gpu, TU_SYS_BASE + 0x40000, buf, sizeof(buf))); /* reads back nothing */
        assert_true(expect_resident_between(gpu, r0 + 3, r0 + 3, "after a FILL over 3 system pages"));
        wk_gpu_reset(gpu);
        assert_true(expect_resident_between(gpu, r0, r0, "after reset"));
        assert_true(expect_byte_run(gpu, TU_SYS_BASE + 0x5000, 0, 0x4000));
        /* Written again, a page shows only the new bytes. */
        tu_write32(gpu, TU_SYS_BASE + 0x6100, 0xABCD0123);
        assert_true(expect_byte_run(gpu, TU_SYS_BASE + 0x6000, 0, 0x100));
        assert_true(expect_byte_run(gpu, TU_SYS_BASE + 0x6104, 0, 0xEFC));
        wk_gpu_reset(gpu);
    }
    tu_destroy(state, gpu);
}

/* A page written again after a reset shows nothing but the new bytes. */
static void expect_page_holds_only(struct wk_gpu *gpu, uint64_t page_addr, uint64_t at, uint32_t v)
{
    tu_write32(gpu, page_addr + at, v);
    assert_true(expect_byte_run(gpu, page_addr, 0, at));
    assert_true(expect_mem32(gpu, page_addr + at, v));
    assert_true(expect_byte_run(gpu, page_addr + at + 4, 0, 0x1000 - at - 4));
}

static void gpu_write32(struct wk_gpu *gpu, uint64_t addr, uint32_t v)
{
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_write32(&b.w, addr, v));
    assert_true(tu_run_ok(gpu, &b));
}

/* Reset zeroes only the span of each system page that was written (sysmem.c,
 * struct page_set): spans widened by later writes to the same page, spans of
 * pages written in turns (where the model falls back to whole pages), COPYs
 * and writes through the aperture; each page, written again, holds nothing
 * else. */
static void test_system_memory_reset_spans(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t p = TU_SYS_BASE + 0x7000, q = TU_SYS_BASE + 0x9000;
    /* One page, written at three places in a row. */
    gpu_write32(gpu, p + 0x100, 0x11111111);
    gpu_fill(gpu, p + 0xF00, 0x80, 0x22222222);
    gpu_write32(gpu, p + 0x10, 0x33333333);
    wk_gpu_reset(gpu);
    expect_page_holds_only(gpu, p, 0x800, 0xA0A0A0A0);
    wk_gpu_reset(gpu);
    /* Two pages in turns: the first one's span cannot be widened in place. */
    gpu_write32(gpu, p + 0x100, 0x44444444);
    gpu_write32(gpu, q + 0x200, 0x55555555);
    gpu_write32(gpu, p + 0xE00, 0x66666666);
    gpu_write32(gpu, q + 0x20, 0x77777777);
    wk_gpu_reset(gpu);
    expect_page_holds_only(gpu, p, 0x400, 0xB0B0B0B0);
    expect_page_holds_only(gpu, q, 0x400, 0xC0C0C0C0);
    wk_gpu_reset(gpu);
    /* A COPY of non-zero bytes across the two pages' boundary region, and a
     * write through the aperture. */
    tu_write32(gpu, TU_SEG1_BASE + 0x10, 0xDDDDDDDD);
    gpu_fill(gpu, TU_SEG1_BASE, 0x3000, 0x99999999);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, TU_SEG1_BASE, p + 0xF80, 0x1100));
    assert_true(tu_run_ok(gpu, &b));
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 2, TU_SYS_PFN + 9));
    gpu_write32(gpu, TU_APER_BASE + 2 * 0x1000 + 0x300, 0x88888888);
    wk_gpu_reset(gpu);
    expect_page_holds_only(gpu, p, 0x40, 0xD0D0D0D0);
    expect_page_holds_only(gpu, p + 0x1000, 0xF00, 0xE0E0E0E0);
    expect_page_holds_only(gpu, q, 0x600, 0xF0F0F0F0);
    tu_destroy(state, gpu);
}

/* A wk_gpu_sysmem_page pointer is valid until destroy, so its page counts
 * as writable by the host for good: a host write through it, before or after
 * a reset, is seen by the model, and every reset zeroes it. Residency counts
 * it from then on; the data the model wrote survives the hand-over. */
static void test_system_memory_host_pointer(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    gpu_fill(gpu, TU_SYS_BASE, 0x8000, 0x5A5A5A5A); /* 8 pages, zeroed in place by the reset */
    wk_gpu_reset(gpu);
    tu_write32(gpu, TU_SYS_BASE + 0x20010, 0xFEEDF00D);
    uint8_t *host = wk_gpu_sysmem_page(gpu, TU_SYS_PFN + 0x20);
    assert_non_null(host);
    assert_true(expect_resident_between(gpu, r0 + 1, r0 + 1, "a written page handed out"));
    assert_true(expect_u64(tu_get32(host + 0x10), 0xFEEDF00D));
    uint8_t *other = wk_gpu_sysmem_page(gpu, TU_SYS_PFN + 0x30);
    assert_non_null(other);
    assert_true(expect_resident_between(gpu, r0 + 2, r0 + 2, "a second page handed out"));
    other[100] = 7; /* behind the model's back */
    uint8_t got = 0;
    TU_OK(wk_gpu_read(gpu, TU_SYS_BASE + 0x30064, &got, 1));
    assert_int_equal(got, 7);
    wk_gpu_reset(gpu);
    assert_true(expect_resident_between(gpu, r0 + 2, r0 + 2, "after reset: the pinned pages"));
    assert_int_equal(other[100], 0);
    assert_int_equal(host[0x10], 0);
    assert_true(expect_byte_run(gpu, TU_SYS_BASE + 0x30000, 0, 0x1000));
    assert_true(expect_byte_run(gpu, TU_SYS_BASE, 0, 0x8000));
    /* The old pointer still works after the reset, and the model sees it. */
    other[200] = 9;
    TU_OK(wk_gpu_read(gpu, TU_SYS_BASE + 0x300C8, &got, 1));
    assert_int_equal(got, 9);
    wk_gpu_reset(gpu);
    assert_int_equal(other[200], 0);
    tu_destroy(state, gpu);
}

/* A reset after many system pages (more than zeroing in place is worth)
 * gives them all back to the kernel. */
static void test_system_memory_reset_after_many_pages(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.sysmem_pages = 1024;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    gpu_fill(gpu, TU_SYS_BASE + 0x1000, 600 * 0x1000, 0xA1B2C3D4);
    assert_true(expect_resident_between(gpu, r0 + 600, r0 + 600, "after a FILL over 600 pages"));
    wk_gpu_reset(gpu);
    assert_true(expect_resident_between(gpu, r0, r0, "after reset"));
    uint8_t *host = wk_gpu_sysmem_page(gpu, TU_SYS_PFN + 1);
    assert_non_null(host);
    assert_true(expect_resident_between(gpu, r0 + 1, r0 + 1, "one page handed out"));
    assert_true(expect_byte_run(gpu, TU_SYS_BASE, 0, 602 * 0x1000));
    for (unsigned i = 0; i < 0x1000; i++)
        if (host[i])
            fail_msg("pinned page byte %u is 0x%02x after the reset, expected 0", i, host[i]);
    tu_destroy(state, gpu);
}

/* ------------------------------------------------------------------ */
/* Host mappings of system pages (wk_gpu_sysmem_map)                    */
/* ------------------------------------------------------------------ */

/* Page i of a mapping is frame pfns[i]: a GPU write to each frame shows
 * through the mapping at that page, and a host write through the mapping is
 * what wk_gpu_read and the digest see. */
static bool expect_aliases(struct wk_gpu *gpu, uint8_t *va, const uint64_t *pfns, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t addr = TU_SYS_ADDR(pfns[i]);
        gpu_fill(gpu, addr + 0x100, 8, 0xC0DE0000u + i);
        if (tu_get32(va + i * 0x1000 + 0x104) != 0xC0DE0000u + i) {
            print_error("mapping page %u: a GPU write to frame 0x%llx reads 0x%08x through it\n", i,
                        (unsigned long long)pfns[i], tu_get32(va + i * 0x1000 + 0x104));
            return false;
        }
        tu_put32(va + i * 0x1000 + 0xFFC, 0xB0B00000u + i);
        if (!expect_mem32(gpu, addr + 0xFFC, 0xB0B00000u + i))
            return false;
    }
    return true;
}

/* A child process runs `poke`; true when it died instead of returning. The
 * child takes the default action for a fault (cmocka's handler would go on
 * with the next test in the child). */
static bool dies(void (*poke)(volatile uint8_t *), volatile uint8_t *at)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        poke(at);
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return false;
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void poke_byte(volatile uint8_t *p)
{
    *p = 1;
}

/* The page before a mapping is the mapping's own guard: reserved (mincore
 * answers for it, where an unmapped page gives ENOMEM) and inaccessible. */
static bool guarded_before(void *va)
{
    unsigned char resident;
    uint8_t *before = (uint8_t *)va - 0x1000;
    return mincore(before, 0x1000, &resident) == 0 && dies(poke_byte, before + 0xFFF);
}

/* A contiguous run and a scattered list both alias the model's memory, page
 * for page in list order, and sit between two guard pages. */
static void test_sysmem_map_aliases(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t run[3] = {TU_SYS_PFN + 4, TU_SYS_PFN + 5, TU_SYS_PFN + 6};
    const uint64_t scattered[4] = {TU_SYS_PFN + 9, TU_SYS_PFN + 3, TU_SYS_PFN + 40, TU_SYS_PFN + 41};
    void *a = NULL, *b = NULL;
    TU_OK(wk_gpu_sysmem_map(gpu, run, 3, &a));
    TU_OK(wk_gpu_sysmem_map(gpu, scattered, 4, &b));
    assert_true(expect_aliases(gpu, a, run, 3));
    assert_true(expect_aliases(gpu, b, scattered, 4));
    assert_true(dies(poke_byte, (uint8_t *)a + 3 * 0x1000));
    assert_true(dies(poke_byte, (uint8_t *)b + 4 * 0x1000));
    assert_true(guarded_before(a));
    assert_true(guarded_before(b));
    wk_gpu_sysmem_unmap(gpu, a, 3);
    wk_gpu_sysmem_unmap(gpu, b, 4);
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 5) + 0xFFC, 0xB0B00001u));
    tu_destroy(state, gpu);
}

/* After unmap the range cannot be written (as after a munmap), and mapping
 * the same frames again, reused or not, shows the memory as it is now. */
static void test_sysmem_unmap_then_map_again(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t run[2] = {TU_SYS_PFN + 16, TU_SYS_PFN + 17};
    void *a = NULL;
    TU_OK(wk_gpu_sysmem_map(gpu, run, 2, &a));
    tu_put32((uint8_t *)a + 0x1010, 0x11223344);
    wk_gpu_sysmem_unmap(gpu, a, 2);
    assert_true(dies(poke_byte, (uint8_t *)a + 0x10));
    tu_write32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 16) + 0x20, 0x55667788);
    for (unsigned round = 0; round < 3; round++) {
        void *again = NULL;
        TU_OK(wk_gpu_sysmem_map(gpu, run, 2, &again));
        assert_true(expect_u64(tu_get32((uint8_t *)again + 0x1010), 0x11223344));
        assert_true(expect_u64(tu_get32((uint8_t *)again + 0x20), 0x55667788));
        assert_true(dies(poke_byte, (uint8_t *)again + 2 * 0x1000));
        wk_gpu_sysmem_unmap(gpu, again, 2);
    }
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 17) + 0x10, 0x11223344));
    tu_destroy(state, gpu);
}

/* A retired mapping (wk_gpu_sysmem_retire) stays read-write with its guard
 * pages, and the next map of the same frames returns it; the reset after
 * the retire zeroes its pages and takes them out of residency (the host
 * promised not to write there), as after an unmap. */
static void test_sysmem_retire_keeps_the_mapping(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    const uint64_t run[2] = {TU_SYS_PFN + 20, TU_SYS_PFN + 21};
    void *a = NULL;
    TU_OK(wk_gpu_sysmem_map(gpu, run, 2, &a));
    tu_put32((uint8_t *)a + 0x1010, 0x11223344);
    wk_gpu_sysmem_retire(gpu, a);
    tu_put32((uint8_t *)a + 0x20, 0x55667788); /* still writable: no fault */
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 20) + 0x20, 0x55667788)); /* in the set until the reset */
    assert_true(dies(poke_byte, (uint8_t *)a + 2 * 0x1000));
    assert_true(guarded_before(a));
    void *again = NULL;
    TU_OK(wk_gpu_sysmem_map(gpu, run, 2, &again));
    assert_ptr_equal(again, a); /* taken back as it was */
    assert_true(expect_u64(tu_get32((uint8_t *)again + 0x1010), 0x11223344));
    wk_gpu_sysmem_retire(gpu, again);
    assert_true(expect_resident_between(gpu, r0 + 2, r0 + 2, "retired, before the reset"));
    wk_gpu_reset(gpu);
    assert_true(expect_resident_between(gpu, r0, r0, "retired, after the reset"));
    assert_true(expect_u64(tu_get32((uint8_t *)a + 0x1010), 0));
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(TU_SYS_PFN + 21), 0, 0x1000));
    TU_OK(wk_gpu_sysmem_map(gpu, run, 2, &again));
    assert_ptr_equal(again, a);
    assert_true(expect_resident_between(gpu, r0 + 2, r0 + 2, "mapped again"));
    tu_put32((uint8_t *)again + 0x1040, 0xCAFEF00D);
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 21) + 0x40, 0xCAFEF00D));
    wk_gpu_sysmem_unmap(gpu, again, 2); /* an unmap after all: inaccessible again */
    assert_true(dies(poke_byte, (uint8_t *)a + 0x10));
    tu_destroy(state, gpu);
}

/* A mapping with a read-only tail (wk_gpu_sysmem_map_writable): the host
 * writes its writable pages, a write to the tail faults, reads go through;
 * wk_gpu_sysmem_set_writable moves the boundary either way; a retired
 * mapping keeps its layout and is taken back by a map that asks for it,
 * and a plain map of the same frames gets every page writable again. */
static void test_sysmem_map_writable_layout(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t run[3] = {TU_SYS_PFN + 24, TU_SYS_PFN + 25, TU_SYS_PFN + 26};
    void *a = NULL, *again = NULL;
    assert_int_equal(wk_gpu_sysmem_map_writable(gpu, run, 3, 4, &a), WK_E_INVALID_ARGUMENT);
    TU_OK(wk_gpu_sysmem_map_writable(gpu, run, 3, 1, &a));
    uint8_t *p = a;
    tu_put32(p + 0x10, 0x0A0B0C0D);
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(run[0]) + 0x10, 0x0A0B0C0D));
    tu_write32(gpu, TU_SYS_ADDR(run[2]) + 0x20, 0x12345678);
    assert_true(expect_u64(tu_get32(p + 0x2020), 0x12345678)); /* the tail reads */
    assert_true(dies(poke_byte, p + 0x1000));
    assert_true(dies(poke_byte, p + 0x2FFF));
    TU_OK(wk_gpu_sysmem_set_writable(gpu, a, 2));
    tu_put32(p + 0x1010, 0x11111111);
    assert_true(dies(poke_byte, p + 0x2000));
    TU_OK(wk_gpu_sysmem_set_writable(gpu, a, 0));
    assert_true(dies(poke_byte, p + 0x10));
    assert_int_equal(wk_gpu_sysmem_set_writable(gpu, a, 4), WK_E_INVALID_ARGUMENT);
    assert_int_equal(wk_gpu_sysmem_set_writable(gpu, p + 0x1000, 1), WK_E_INVALID_ARGUMENT);
    TU_OK(wk_gpu_sysmem_set_writable(gpu, a, 1));
    wk_gpu_sysmem_retire(gpu, a);
    assert_true(dies(poke_byte, p + 0x1000)); /* retired as it was */
    TU_OK(wk_gpu_sysmem_map_writable(gpu, run, 3, 1, &again));
    assert_ptr_equal(again, a);
    wk_gpu_sysmem_retire(gpu, again);
    TU_OK(wk_gpu_sysmem_map(gpu, run, 3, &again));
    assert_ptr_equal(again, a); /* the only idle mapping of these frames, laid out again */
    tu_put32(p + 0x2FFC, 0x22222222);
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(run[2]) + 0xFFC, 0x22222222));
    wk_gpu_sysmem_unmap(gpu, again, 3);
    TU_OK(wk_gpu_sysmem_map_writable(gpu, run, 3, 2, &again)); /* from PROT_NONE */
    assert_ptr_equal(again, a);
    tu_put32(p + 0x1FFC, 0x33333333);
    assert_true(expect_u64(tu_get32(p + 0x10), 0x0A0B0C0D));
    assert_true(dies(poke_byte, p + 0x2000));
    wk_gpu_sysmem_unmap(gpu, again, 3);
    assert_true(dies(poke_byte, p + 0x10));
    tu_destroy(state, gpu);
}

/* A parked pool serves a later model with less system memory, and its idle
 * mappings with it: they name pages of the file, so the same frames of the
 * next model get the same host mapping back; the model reads zero. */
static void test_parked_pool_serves_a_smaller_model(void **state)
{
    struct tu_adapter big, small;
    tu_std_adapter(&big);
    tu_std_adapter(&small);
    big.desc.sysmem_pages = 3000; /* a 16 MiB pool: no other test's size */
    small.desc.sysmem_pages = 1500;
    const uint64_t run[2] = {TU_SYS_PFN + 30, TU_SYS_PFN + 31};
    struct wk_gpu *g = tu_create(state, &big.desc);
    void *a = NULL, *again = NULL;
    TU_OK(wk_gpu_sysmem_map_writable(g, run, 2, 1, &a));
    memset(a, 0x5A, 4096);
    wk_gpu_sysmem_retire(g, a);
    tu_destroy(state, g);
    g = tu_create(state, &small.desc);
    TU_OK(wk_gpu_sysmem_map_writable(g, run, 2, 1, &again));
    assert_ptr_equal(again, a);
    for (int i = 0; i < 2 * 4096; i++)
        if (((uint8_t *)again)[i])
            fail_msg("byte %d of a mapping taken back holds %#x", i, ((uint8_t *)again)[i]);
    assert_true(dies(poke_byte, (uint8_t *)again + 0x1000));
    wk_gpu_sysmem_unmap(g, again, 2);
    tu_destroy(state, g);
}

/* A fuzz harness keeps many models of mutated sizes: a new pool is made as
 * large as the largest the process made, so that a small model's pool, once
 * parked, serves a large one, host mappings and all (gpu-model/sysmem.c,
 * issue 26). In a child, whose parked pools start empty (a fork forgets
 * them): a large model lives, a small one maps a run, retires it and goes;
 * a second large model gets that very mapping back. It did not when pools
 * were made at the size their model needed. */
static int small_pool_serves_large(void)
{
    struct tu_adapter big, small;
    tu_std_adapter(&big);
    tu_std_adapter(&small);
    big.desc.sysmem_pages = 3000; /* a 16 MiB pool */
    small.desc.sysmem_pages = 200;  /* 1 MiB would do */
    const uint64_t run[2] = {TU_SYS_PFN + 30, TU_SYS_PFN + 31};
    char why[256];
    struct wk_gpu *keep = NULL, *g = NULL;
    void *a = NULL, *again = NULL;
    if (wk_gpu_create(&big.desc, &keep, why, sizeof(why)) != WK_OK ||
        wk_gpu_create(&small.desc, &g, why, sizeof(why)) != WK_OK)
        return 2;
    if (wk_gpu_sysmem_map(g, run, 2, &a) != WK_OK)
        return 3;
    wk_gpu_sysmem_retire(g, a);
    wk_gpu_destroy(g);
    if (wk_gpu_create(&big.desc, &g, why, sizeof(why)) != WK_OK || wk_gpu_sysmem_map(g, run, 2, &again) != WK_OK)
        return 4;
    int same = again == a;
    wk_gpu_sysmem_retire(g, again);
    wk_gpu_destroy(g);
    wk_gpu_destroy(keep);
    return same ? 0 : 1;
}

static void test_small_models_pool_serves_a_large_one(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(small_pool_serves_large());
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) == 1)
        fail_msg("the large model mapped the run afresh: the small model's pool was not taken");
    assert_int_equal(WEXITSTATUS(st), 0);
}

/* A mapping live at reset: the host may write through it at any time, so the
 * reset zeroes its pages in place and they stay tracked: a write after the
 * reset is seen by the model, and zeroed by the next reset. Once unmapped,
 * the pages leave residency at the next reset. */
static void test_sysmem_live_mapping_across_reset(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    const uint64_t pfns[3] = {TU_SYS_PFN + 0x60, TU_SYS_PFN + 0x61, TU_SYS_PFN + 0x10};
    void *va = NULL;
    TU_OK(wk_gpu_sysmem_map(gpu, pfns, 3, &va));
    uint8_t *p = va;
    assert_true(expect_resident_between(gpu, r0 + 3, r0 + 3, "3 pages mapped"));
    memset(p, 0xEE, 3 * 0x1000);
    wk_gpu_reset(gpu);
    assert_true(expect_resident_between(gpu, r0 + 3, r0 + 3, "after reset, still mapped"));
    for (unsigned i = 0; i < 3; i++)
        assert_true(expect_byte_run(gpu, TU_SYS_ADDR(pfns[i]), 0, 0x1000));
    for (unsigned i = 0; i < 3 * 0x1000; i++)
        if (p[i])
            fail_msg("mapping byte 0x%x is 0x%02x after reset, expected 0", i, p[i]);
    tu_put32(p + 0x2040, 0xCAFEF00D); /* after the reset, through the same mapping */
    assert_true(expect_mem32(gpu, TU_SYS_ADDR(pfns[2]) + 0x40, 0xCAFEF00D));
    uint64_t d = 0, want = 0;
    TU_OK(wk_gpu_digest(gpu, TU_SYS_ADDR(pfns[2]), 0x1000, &d));
    want = wk_gpu_digest_bytes(p + 0x2000, 0x1000);
    assert_true(expect_u64(d, want));
    wk_gpu_reset(gpu);
    assert_true(expect_u64(tu_get32(p + 0x2040), 0));
    wk_gpu_sysmem_unmap(gpu, va, 3);
    assert_true(expect_resident_between(gpu, r0 + 3, r0 + 3, "unmapped, before the reset"));
    wk_gpu_reset(gpu);
    assert_true(expect_resident_between(gpu, r0, r0, "unmapped, after the reset"));
    tu_destroy(state, gpu);
}

/* Reset cost stays what was touched with a large pool and a live mapping:
 * 4 GiB of system memory, one mapped page and three written, reset 100 times,
 * never hold more than those. */
static void test_sysmem_reset_cost_large_pool(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.sysmem_pages = 1ull << 20;
    struct wk_gpu *gpu = tu_create(state, &a.desc);
    const uint64_t r0 = wk_gpu_resident_pages(gpu);
    const uint64_t mapped = TU_SYS_PFN + (1ull << 19);
    void *va = NULL;
    TU_OK(wk_gpu_sysmem_map(gpu, &mapped, 1, &va));
    const uint64_t at[3] = {TU_SYS_BASE, TU_SYS_ADDR(TU_SYS_PFN + 12345) + 7,
                            TU_SYS_ADDR(TU_SYS_PFN + (1ull << 20) - 1) + 0xFFF};
    for (unsigned round = 0; round < 100; round++) {
        for (unsigned i = 0; i < 3; i++) {
            const uint8_t v = (uint8_t)(round + i + 1);
            tu_write(gpu, at[i], &v, 1);
        }
        ((uint8_t *)va)[round] = 1;
        if (!expect_resident_between(gpu, r0 + 4, r0 + 4, "3 pages written, 1 mapped")) {
            print_error("  round %u\n", round);
            fail();
        }
        wk_gpu_reset(gpu);
        if (!expect_resident_between(gpu, r0 + 1, r0 + 1, "after reset, 1 mapped")) {
            print_error("  round %u\n", round);
            fail();
        }
    }
    assert_true(expect_byte_run(gpu, TU_SYS_ADDR(mapped), 0, 0x1000));
    wk_gpu_sysmem_unmap(gpu, va, 1);
    tu_destroy(state, gpu);
}

#ifndef UNDER_ASAN
/* Bytes of address space this process uses now (/proc/self/statm), 0 when
 * unknown. */
static uint64_t address_space_in_use(void)
{
    unsigned long long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    if (fscanf(f, "%llu", &pages) != 1)
        pages = 0;
    fclose(f);
    return (uint64_t)pages * 4096;
}
#endif

/* Under an address-space limit (AFL's -m) the 4 GiB reservation the page
 * pool wants is refused; the pool takes a smaller one and the model works. */
static void test_pages_under_address_space_limit(void **state)
{
#ifdef UNDER_ASAN
    (void)state;
    skip(); /* ASan's shadow memory cannot live under such a limit */
#else
    struct rlimit old = {0, 0};
    uint64_t used = address_space_in_use();
    if (used == 0 || getrlimit(RLIMIT_AS, &old) != 0) {
        skip();
        return;
    }
    struct rlimit lim = old;
    lim.rlim_cur = (rlim_t)(used + (1ull << 30)); /* 1 GiB more: less than one 4 GiB arena */
    if (lim.rlim_cur > old.rlim_max || setrlimit(RLIMIT_AS, &lim) != 0) {
        skip();
        return;
    }
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG1_BASE, TU_SEG1_SIZE, 0x12345678));
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG2_BASE + 0x800, 0x1000, 0x01010101));
    bool ok = tu_run_ok(gpu, &b);
    setrlimit(RLIMIT_AS, &old);
    assert_true(ok);
    assert_true(expect_resident_between(gpu, 256 + 2, 256 + 2, "after 258 pages written"));
    assert_true(expect_mem32(gpu, TU_SEG1_END - 4, 0x12345678));
    tu_destroy(state, gpu);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_TEST(test_desc_rejections),
        TU_TEST(test_desc_accepts_limits),
        TU_TEST(test_description_is_copied),
        TU_TEST(test_locate),
        TU_TEST(test_locate_many_segments),
        TU_TEST(test_host_read_write_regions),
        TU_TEST(test_descriptions_compare_by_value),
        TU_TEST(test_next_model_reads_zero_where_the_last_wrote),
        TU_TEST(test_next_model_of_a_parked_pool_reads_zero),
        TU_TEST(test_parked_pool_stays_with_its_process),
        TU_TEST(test_host_access_length_overflow),
        TU_TEST(test_lazy_4gib_segment),
        TU_TEST(test_reset_after_reads_of_system_memory),
        TU_TEST(test_reset_returns_to_fresh_state),
        TU_TEST(test_reset_cost_1tib_segment),
        TU_TEST(test_digest_reference_vectors),
        TU_TEST(test_digest_bytes_matches_reference),
        TU_TEST(test_digest_fed_in_chunks_matches_reference),
        TU_TEST(test_digest_of_memory),
        TU_TEST(test_digest_independent_of_residency),
        TU_TEST(test_digest_of_large_sparse_range),
        TU_TEST(test_gart_set_get),
        TU_TEST(test_recycled_pages_read_zero),
        TU_TEST(test_recycled_pages_zeroed_around_partial_writes),
        TU_TEST(test_aperture_with_partial_pte_block),
        TU_TEST(test_gart_set_range),
        TU_TEST(test_gart_set_range_on_recycled_block),
        TU_TEST(test_system_memory_private_reset),
        TU_TEST(test_system_memory_reset_spans),
        TU_TEST(test_system_memory_host_pointer),
        TU_TEST(test_system_memory_reset_after_many_pages),
        TU_TEST(test_sysmem_map_aliases),
        TU_TEST(test_sysmem_unmap_then_map_again),
        TU_TEST(test_sysmem_retire_keeps_the_mapping),
        TU_TEST(test_sysmem_map_writable_layout),
        TU_TEST(test_parked_pool_serves_a_smaller_model),
        TU_TEST(test_small_models_pool_serves_a_large_one),
        TU_TEST(test_sysmem_live_mapping_across_reset),
        TU_TEST(test_sysmem_reset_cost_large_pool),
        TU_TEST(test_pages_under_address_space_limit),
    };
    return cmocka_run_group_tests_name("gpu.memory", tests, NULL, NULL);
}
