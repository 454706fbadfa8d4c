/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_view.c - read-only views of model memory
 * (wk_gpu_view_begin/_next, docs/gpu-model.md "Views").
 *
 * The contract is "what wk_gpu_read would return, without the copy", so the
 * main check is differential: on random layouts (plain and banked segments,
 * aperture pages mapped, remapped without a flush, unmapped to a dummy page
 * and never mapped, system memory written only by the model or also through
 * host pointers and mappings, pages never written) every view agrees with
 * wk_gpu_read on the status and byte for byte, spans without data hold only
 * zeroes, spans are maximal, and a view changes nothing (residency,
 * counters). The directed tests pin what the differential one cannot see:
 * which spans come out (one zero span for a never-written segment, one span
 * for pages backed together), and the faults. The seed comes from
 * WK_TEST_SEED when set.
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

/* ------------------------------------------------------------------ */
/* Checks                                                               */
/* ------------------------------------------------------------------ */

#define MAX_SPANS 64u

struct spans {
    uint32_t count;
    struct wk_gpu_span s[MAX_SPANS];
};

/* Begins a view and collects its spans; false (printed) on a status other
 * than `want` or too many spans. */
static bool collect(struct wk_gpu *gpu, uint64_t addr, uint64_t len, wk_status want,
                    struct spans *out)
{
    struct wk_gpu_view v;
    wk_status st = wk_gpu_view_begin(gpu, addr, len, &v);
    out->count = 0;
    if (st != want) {
        print_error("view(0x%" PRIx64 ", %" PRIu64 "): expected %s, got %s\n", addr, len,
                    wk_status_name(want), wk_status_name(st));
        return false;
    }
    struct wk_gpu_span s;
    while (wk_gpu_view_next(&v, &s)) {
        if (out->count == MAX_SPANS) {
            print_error("view(0x%" PRIx64 ", %" PRIu64 "): more than %u spans\n", addr, len,
                        MAX_SPANS);
            return false;
        }
        out->s[out->count++] = s;
    }
    return true;
}

/* Span i is expected at `addr`, `length` long, with data (1) or without (0). */
static bool expect_span(const struct spans *sp, uint32_t i, uint64_t addr, uint64_t length,
                        int has_data)
{
    if (i >= sp->count) {
        print_error("span %u: expected at 0x%" PRIx64 ", there are only %u spans\n", i, addr,
                    sp->count);
        return false;
    }
    const struct wk_gpu_span *s = &sp->s[i];
    if (s->addr != addr || s->length != length || (s->data != NULL) != has_data) {
        print_error("span %u: expected 0x%" PRIx64 "+%" PRIu64 " %s, got 0x%" PRIx64 "+%" PRIu64
                    " %s\n", i, addr, length, has_data ? "with data" : "zero", s->addr, s->length,
                    s->data ? "with data" : "zero");
        return false;
    }
    return true;
}

static bool expect_span_count(const struct spans *sp, uint32_t want)
{
    if (sp->count == want)
        return true;
    print_error("expected %u spans, got %u\n", want, sp->count);
    return false;
}

/* The spans tile [addr, addr+len) in order, hold what `bytes` holds (zero
 * where they have no data), and are maximal: no two neighbours both without
 * data, nor with data contiguous on the host. */
static bool spans_match(const struct spans *sp, uint64_t addr, uint64_t len, const uint8_t *bytes)
{
    uint64_t at = 0;
    for (uint32_t i = 0; i < sp->count; i++) {
        const struct wk_gpu_span *s = &sp->s[i], *prev = i ? &sp->s[i - 1] : NULL;
        if (s->addr != addr + at || s->length == 0 || s->length > len - at) {
            print_error("span %u: 0x%" PRIx64 "+%" PRIu64 " does not continue 0x%" PRIx64
                        "+%" PRIu64 " at +%" PRIu64 "\n", i, s->addr, s->length, addr, len, at);
            return false;
        }
        for (uint64_t j = 0; j < s->length; j++) {
            uint8_t got = s->data ? s->data[j] : 0;
            if (got != bytes[at + j]) {
                print_error("span %u (%s): byte 0x%" PRIx64 " is 0x%02x, wk_gpu_read gave 0x%02x\n",
                            i, s->data ? "with data" : "zero", s->addr + j, got, bytes[at + j]);
                return false;
            }
        }
        if (prev && (prev->data ? prev->data + prev->length == s->data : !s->data)) {
            print_error("spans %u and %u at 0x%" PRIx64 " could be one\n", i - 1, i, s->addr);
            return false;
        }
        at += s->length;
    }
    if (at != len) {
        print_error("spans cover %" PRIu64 " of %" PRIu64 " bytes from 0x%" PRIx64 "\n", at, len,
                    addr);
        return false;
    }
    return true;
}

/* What the random probes met, so that the test can check it met everything. */
struct coverage {
    uint64_t status[4];        /* WK_OK, BAD_ADDRESS, CROSSES_SEGMENT, UNMAPPED */
    uint64_t data_spans, zero_spans, multi_page_data_spans;
};

static void count(struct coverage *cov, wk_status st, const struct spans *sp)
{
    if (!cov)
        return;
    cov->status[st == WK_OK ? 0 : st == WK_E_BAD_ADDRESS ? 1 : st == WK_E_CROSSES_SEGMENT ? 2 : 3]++;
    for (uint32_t i = 0; i < sp->count; i++) {
        cov->data_spans += sp->s[i].data != NULL;
        cov->zero_spans += sp->s[i].data == NULL;
        cov->multi_page_data_spans += sp->s[i].data && sp->s[i].length > 0x1000;
    }
}

/* The view of [addr, addr+len) agrees with wk_gpu_read and changes nothing. */
static bool expect_view_matches_read_cov(struct wk_gpu *gpu, uint64_t addr, uint64_t len,
                                         struct coverage *cov)
{
    static uint8_t bytes[0x40000]; /* tests are single-threaded */
    struct wk_gpu_counters c0, c1;
    assert_true(len <= sizeof(bytes));
    memset(bytes, 0xEE, (size_t)len);
    wk_status rs = wk_gpu_read(gpu, addr, bytes, len);
    uint64_t r0 = wk_gpu_resident_pages(gpu);
    wk_gpu_get_counters(gpu, &c0);
    struct spans *sp = malloc(sizeof(*sp));
    assert_non_null(sp);
    bool ok = collect(gpu, addr, len, rs, sp);
    if (ok && rs == WK_OK)
        ok = spans_match(sp, addr, len, bytes);
    else if (ok && sp->count)
        ok = expect_span_count(sp, 0);
    count(cov, rs, sp);
    free(sp);
    wk_gpu_get_counters(gpu, &c1);
    if (ok && (wk_gpu_resident_pages(gpu) != r0 || memcmp(&c0, &c1, sizeof(c0)) != 0)) {
        print_error("view(0x%" PRIx64 ", %" PRIu64 ") changed residency or counters\n", addr, len);
        ok = false;
    }
    return ok;
}

static bool expect_view_matches_read(struct wk_gpu *gpu, uint64_t addr, uint64_t len)
{
    return expect_view_matches_read_cov(gpu, addr, len, NULL);
}

/* ------------------------------------------------------------------ */
/* Random layouts                                                       */
/* ------------------------------------------------------------------ */

static uint64_t below(uint64_t *rng, uint64_t n)
{
    return tu_rand(rng) % n;
}

/* A random address in a random region, or in the hole between segments. */
static uint64_t random_addr(uint64_t *rng)
{
    static const uint64_t base[] = { TU_SEG1_BASE, TU_SEG2_BASE, TU_APER_BASE, TU_SYS_BASE, TU_HOLE };
    static const uint64_t size[] = { TU_SEG1_SIZE, TU_SEG2_SIZE, TU_APER_SIZE, TU_SYS_END - TU_SYS_BASE,
                                     0x1000 };
    uint64_t r = below(rng, 5);
    return base[r] + below(rng, size[r]);
}

static void exec_one(struct wk_gpu *gpu, struct tu_buf *b)
{
    struct wk_gpu_fault f;
    tu_run(gpu, b, &f); /* faults are part of the layout too: they change nothing */
}

/* Writes and fills (host and GPU) at random places, mostly small, some
 * several pages long; the memory limit is the default, far away. */
static void scribble(struct wk_gpu *gpu, uint64_t *rng, unsigned n)
{
    uint8_t data[3 * 0x1000];
    for (unsigned i = 0; i < n; i++) {
        uint64_t addr = random_addr(rng), len = 1 + below(rng, below(rng, 4) ? 64 : sizeof(data));
        struct tu_buf b;
        tu_buf_init(&b);
        if (below(rng, 2)) {
            tu_pattern(data, (size_t)len, (uint32_t)tu_rand(rng));
            wk_gpu_write(gpu, addr, data, len); /* may fail: an unmapped page, the end */
        } else {
            TU_EMIT(wk_gpu_emit_fill(&b.w, addr, len * 4, (uint32_t)tu_rand(rng)));
            exec_one(gpu, &b);
        }
    }
}

/* Aperture pages: some mapped on the host path, some by GART_MAP without a
 * flush (entry and TLB differ), some unmapped to a dummy page, the rest
 * never mapped (invalid). */
static void random_gart(struct wk_gpu *gpu, uint64_t *rng)
{
    for (uint64_t page = 0; page < TU_APER_PAGES; page++) {
        uint64_t pfn = TU_SYS_PFN + below(rng, TU_SYS_PAGES);
        struct tu_buf b;
        tu_buf_init(&b);
        switch (below(rng, 5)) {
        case 0:
            TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, page, pfn));
            break;
        case 1: /* a run of consecutive frames, to be seen as one span */
            TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, page, TU_SYS_PFN + page));
            break;
        case 2:
            TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, (uint32_t)page, 1, &pfn));
            exec_one(gpu, &b);
            break;
        case 3:
            TU_EMIT(wk_gpu_emit_gart_unmap(&b.w, TU_APER_ID, (uint32_t)page, 1, TU_SYS_PFN));
            exec_one(gpu, &b);
            break;
        default:
            break;
        }
    }
}

/* The shared regime: pages the host can write through a pointer or a
 * mapping, written behind the model's back. */
static void *share_pages(struct wk_gpu *gpu, uint64_t *rng)
{
    uint8_t *p = wk_gpu_sysmem_page(gpu, TU_SYS_PFN + below(rng, TU_SYS_PAGES));
    assert_non_null(p);
    p[below(rng, 0x1000)] = 0x5A;
    uint64_t pfns[3] = { TU_SYS_PFN + below(rng, TU_SYS_PAGES), TU_SYS_PFN + below(rng, TU_SYS_PAGES),
                         TU_SYS_PFN + below(rng, TU_SYS_PAGES) };
    void *va = NULL;
    wk_status st = wk_gpu_sysmem_map(gpu, pfns, 3, &va);
    if (st == WK_E_NOT_SUPPORTED)
        return NULL;
    TU_OK(st);
    ((uint8_t *)va)[below(rng, 3 * 0x1000)] = 0xA5;
    return va;
}

/* Random ranges: inside a region, across its end, from the hole, across
 * banks and aperture pages of every kind; length 0 too. */
static void probe(struct wk_gpu *gpu, uint64_t *rng, unsigned n, struct coverage *cov)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t addr = random_addr(rng);
        if (below(rng, 4) == 0)
            addr &= ~0xFFFull;
        uint64_t len = below(rng, 3) ? below(rng, 0x3000) : below(rng, 0x40000);
        assert_true(expect_view_matches_read_cov(gpu, addr, len, cov));
    }
}

static void random_rounds(void **state, int shared)
{
    uint64_t rng = tu_seed(shared ? 0x5EED5EEDull : 0x0DDBA11ull);
    struct wk_gpu *gpu = tu_std_gpu(state);
    void *va = NULL;
    struct coverage cov;
    memset(&cov, 0, sizeof(cov));
    for (unsigned round = 0; round < 6; round++) {
        random_gart(gpu, &rng);
        if (shared && !va)
            va = share_pages(gpu, &rng);
        scribble(gpu, &rng, 40);
        probe(gpu, &rng, 300, &cov);
        wk_gpu_reset(gpu); /* and again on a reset model: zero spans, live pages */
        probe(gpu, &rng, 50, &cov);
    }
    if (va)
        wk_gpu_sysmem_unmap(gpu, va, 3);
    print_message("views: %" PRIu64 " ok, %" PRIu64 " bad address, %" PRIu64 " crossing, %" PRIu64
                  " unmapped; spans: %" PRIu64 " with data (%" PRIu64 " longer than a page), %" PRIu64
                  " zero\n", cov.status[0], cov.status[1], cov.status[2], cov.status[3],
                  cov.data_spans, cov.multi_page_data_spans, cov.zero_spans);
    /* A layout that stopped producing one of these would test nothing of it. */
    for (int i = 0; i < 4; i++)
        assert_true(cov.status[i] >= 10);
    assert_true(cov.data_spans >= 100 && cov.zero_spans >= 100 && cov.multi_page_data_spans >= 10);
}

/* Model writes only: the exact set of system pages decides what is zero. */
static void test_view_random_private(void **state)
{
    random_rounds(state, 0);
}

/* Host pointers and mappings: their pages have data spans, even when zero. */
static void test_view_random_shared(void **state)
{
    random_rounds(state, 1);
}

/* ------------------------------------------------------------------ */
/* Which spans                                                          */
/* ------------------------------------------------------------------ */

/* Memory never written is one zero span per view, whatever its size. */
static void test_view_unbacked_is_one_zero_span(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct spans sp;
    assert_true(collect(gpu, TU_SEG1_BASE, TU_SEG1_SIZE, WK_OK, &sp));
    assert_true(expect_span_count(&sp, 1) && expect_span(&sp, 0, TU_SEG1_BASE, TU_SEG1_SIZE, 0));
    assert_true(collect(gpu, TU_SEG2_BASE + 0x3FF00, 0x200, WK_OK, &sp)); /* across banks */
    assert_true(expect_span_count(&sp, 1) && expect_span(&sp, 0, TU_SEG2_BASE + 0x3FF00, 0x200, 0));
    assert_true(collect(gpu, TU_SYS_BASE + 7, TU_SYS_END - TU_SYS_BASE - 7, WK_OK, &sp));
    assert_true(expect_span_count(&sp, 1) && expect_span(&sp, 0, TU_SYS_BASE + 7, TU_SYS_END - TU_SYS_BASE - 7, 0));
    TU_OK(wk_gpu_gart_set_range(gpu, TU_APER_ID, 0, TU_APER_PAGES, TU_SYS_PFN + 100));
    assert_true(collect(gpu, TU_APER_BASE, TU_APER_SIZE, WK_OK, &sp));
    assert_true(expect_span_count(&sp, 1) && expect_span(&sp, 0, TU_APER_BASE, TU_APER_SIZE, 0));
    /* One byte written splits it in three, with the written page in the middle. */
    tu_write32(gpu, TU_SEG1_BASE + 0x5010, 0x11223344);
    assert_true(collect(gpu, TU_SEG1_BASE + 0x10, 0x8000, WK_OK, &sp));
    assert_true(expect_span_count(&sp, 3) && expect_span(&sp, 0, TU_SEG1_BASE + 0x10, 0x4FF0, 0) &&
                expect_span(&sp, 1, TU_SEG1_BASE + 0x5000, 0x1000, 1) &&
                expect_span(&sp, 2, TU_SEG1_BASE + 0x6000, 0x2010, 0));
    assert_true(expect_u64(tu_get32(sp.s[1].data + 0x10), 0x11223344));
}

/* Pages backed together by one access are consecutive on the host
 * (docs/gpu-model.md, "Address space"), and system memory is one mapping:
 * one span each. An aperture shows what its entries point at: consecutive
 * frames are one span, the same frames in reverse order one span each. */
static void test_view_merges_host_contiguous(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SEG2_BASE + 0x3E000, 0x4000, 0xCAFEF00D)); /* across a bank end */
    TU_EMIT(wk_gpu_emit_fill(&b.w, TU_SYS_BASE + 0x10000, 0x4000, 0x01020304));
    assert_true(tu_run_ok(gpu, &b));
    struct spans sp;
    assert_true(collect(gpu, TU_SEG2_BASE + 0x3D000, 0x6000, WK_OK, &sp));
    assert_true(expect_span_count(&sp, 3) && expect_span(&sp, 0, TU_SEG2_BASE + 0x3D000, 0x1000, 0) &&
                expect_span(&sp, 1, TU_SEG2_BASE + 0x3E000, 0x4000, 1) &&
                expect_span(&sp, 2, TU_SEG2_BASE + 0x42000, 0x1000, 0));
    assert_true(expect_u64(tu_get32(sp.s[1].data + 0x3FFC), 0xCAFEF00D));
    for (uint64_t i = 0; i < 4; i++)
        TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, i, TU_SYS_PFN + 0x10 + i));
    for (uint64_t i = 0; i < 4; i++)
        TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 8 + i, TU_SYS_PFN + 0x13 - i));
    assert_true(collect(gpu, TU_APER_BASE, 0x4000, WK_OK, &sp));
    assert_true(expect_span_count(&sp, 1) && expect_span(&sp, 0, TU_APER_BASE, 0x4000, 1));
    assert_true(expect_u64(tu_get32(sp.s[0].data + 0x2000), 0x01020304));
    assert_true(collect(gpu, TU_APER_BASE + 0x8000, 0x4000, WK_OK, &sp));
    assert_true(expect_span_count(&sp, 4));
    for (uint32_t i = 0; i < 4; i++)
        assert_true(expect_span(&sp, i, TU_APER_BASE + 0x8000 + i * 0x1000ull, 0x1000, 1));
    assert_true(expect_view_matches_read(gpu, TU_APER_BASE + 0x8000, 0x4000));
}

/* ------------------------------------------------------------------ */
/* Faults                                                               */
/* ------------------------------------------------------------------ */

/* A view fails exactly as wk_gpu_read fails, before handing out anything;
 * a zero-length view succeeds anywhere, as a zero-length read does. */
static void test_view_faults(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    struct spans sp;
    TU_OK(wk_gpu_gart_set(gpu, TU_APER_ID, 0, TU_SYS_PFN));
    assert_true(collect(gpu, TU_HOLE, 16, WK_E_BAD_ADDRESS, &sp) && expect_span_count(&sp, 0));
    assert_true(collect(gpu, TU_SEG1_END - 8, 16, WK_E_CROSSES_SEGMENT, &sp) && expect_span_count(&sp, 0));
    assert_true(collect(gpu, TU_APER_BASE + 0xF00, 0x200, WK_E_UNMAPPED, &sp) && expect_span_count(&sp, 0));
    assert_true(collect(gpu, TU_SEG1_BASE, UINT64_MAX, WK_E_BAD_ADDRESS, &sp) && expect_span_count(&sp, 0));
    assert_true(collect(gpu, TU_HOLE, 0, WK_OK, &sp) && expect_span_count(&sp, 0));
    assert_true(collect(gpu, TU_APER_BASE + 0x5000, 0, WK_OK, &sp) && expect_span_count(&sp, 0));
    static const uint64_t probes[][2] = {
        { TU_HOLE, 16 }, { TU_SEG1_END - 8, 16 }, { TU_APER_BASE + 0xF00, 0x200 },
        { TU_APER_BASE, 0x1000 }, { TU_SEG1_BASE, UINT64_MAX }, { TU_SYS_END - 1, 2 },
        { TU_SYS_END - 1, 1 }, { TU_HOLE, 0 },
    };
    for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
        if (probes[i][1] <= 0x40000)
            assert_true(expect_view_matches_read(gpu, probes[i][0], probes[i][1]));
}

/* Like a read, a view translates through the entries, not the TLB: a
 * GART_MAP without TLB_FLUSH is seen at once, and counts no stale access. */
static void test_view_uses_entries_not_tlb(void **state)
{
    struct wk_gpu *gpu = tu_std_gpu(state);
    tu_write32(gpu, TU_SYS_ADDR(TU_SYS_PFN + 9) + 4, 0x99AABBCC);
    struct tu_buf b;
    tu_buf_init(&b);
    uint64_t pfn = TU_SYS_PFN + 9;
    TU_EMIT(wk_gpu_emit_gart_map(&b.w, TU_APER_ID, 2, 1, &pfn));
    assert_true(tu_run_ok(gpu, &b));
    struct spans sp;
    assert_true(collect(gpu, TU_APER_BASE + 0x2000, 0x1000, WK_OK, &sp));
    assert_true(expect_span_count(&sp, 1) && expect_span(&sp, 0, TU_APER_BASE + 0x2000, 0x1000, 1));
    assert_true(expect_u64(tu_get32(sp.s[0].data + 4), 0x99AABBCC));
    assert_true(expect_view_matches_read(gpu, TU_APER_BASE + 0x2000, 0x1000));
    struct wk_gpu_counters c;
    wk_gpu_get_counters(gpu, &c);
    assert_true(expect_u64(c.stale_tlb_accesses, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_TEST(test_view_random_private),
        TU_TEST(test_view_random_shared),
        TU_TEST(test_view_unbacked_is_one_zero_span),
        TU_TEST(test_view_merges_host_contiguous),
        TU_TEST(test_view_faults),
        TU_TEST(test_view_uses_entries_not_tlb),
    };
    return cmocka_run_group_tests_name("gpu.view", tests, NULL, NULL);
}
