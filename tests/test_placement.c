/* SPDX-License-Identifier: MIT */
/*
 * tests/test_placement.c - the placement heap of the reference vidmm
 * (reference-impl/vidmm/placement.h).
 *
 * Hand-made cases pin exact offsets (bottom-up, top-down, bank-like windows,
 * alignment, reserve, coalescing, exhaustion, every invalid argument, the
 * no-memory path through the torture hook); a randomized differential test
 * replays thousands of operations against a sorted array of blocks and
 * checks every answer against the fit guarantee placement.c documents, with
 * wk_place_check after every step; a 100k-block run bounds the tree height.
 *
 * Checks return bool and print exactly what differs (drm_mm_test style);
 * expected failures distinguish "succeeded" from "failed with another code"
 * and prove the heap did not change. The random test's seed comes from
 * WK_SEED (WK_TEST_SEED also accepted), default fixed, and is printed with
 * any failure so the run can be replayed. No check depends on time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

#define PAGE 0x1000ull
#define MIB 0x100000ull
#define BANK 0x40000ull /* four bank-like windows in a 1 MiB heap */
#define NONE UINT64_MAX

typedef unsigned long long ull;

/* ------------------------------------------------------------------ */
/* Fixture: heaps made by a test are destroyed even if it fails         */
/* ------------------------------------------------------------------ */

#define MAX_HEAPS 4
struct ctx {
    struct wk_place_heap *heaps[MAX_HEAPS];
    void *mem; /* one scratch block, freed by the teardown */
};

static int setup(void **state)
{
    *state = calloc(1, sizeof(struct ctx));
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    struct ctx *c = *state;
    for (int i = 0; i < MAX_HEAPS; i++)
        wk_place_destroy(c->heaps[i]);
    free(c->mem);
    free(c);
    return 0;
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

static struct wk_place_heap *new_heap(void **state, uint64_t size)
{
    struct ctx *c = *state;
    for (int i = 0; i < MAX_HEAPS; i++) {
        if (c->heaps[i])
            continue;
        wk_status s = wk_place_create(size, &c->heaps[i]);
        if (s != WK_OK)
            fail_msg("wk_place_create(0x%llx): %s", (ull)size, wk_status_name(s));
        return c->heaps[i];
    }
    fail_msg("more than %d heaps in one test", MAX_HEAPS);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Bool-returning checks                                                */
/* ------------------------------------------------------------------ */

static struct wk_place_request rq(uint64_t size, uint64_t align, uint64_t lo, uint64_t hi,
                                  int top_down)
{
    struct wk_place_request r = {size, align, lo, hi, top_down};
    return r;
}

static void print_req(const char *file, int line, const struct wk_place_request *r)
{
    print_error("%s:%d: alloc(size 0x%llx, align 0x%llx, window [0x%llx, 0x%llx), %s)", file,
                line, (ull)r->size, (ull)r->alignment, (ull)r->lo, (ull)r->hi,
                r->top_down ? "top-down" : "bottom-up");
}

static bool heap_ok(const struct wk_place_heap *h, const char *file, int line)
{
    char why[256];
    if (wk_place_check(h, why, sizeof(why)) == WK_OK)
        return true;
    print_error("%s:%d: wk_place_check: %s\n", file, line, why);
    return false;
}
#define HEAP_OK(h) assert_true(heap_ok((h), __FILE__, __LINE__))

/* Everything observable about a heap, to prove a failed call changed nothing. */
struct snap {
    uint64_t free_bytes, largest, count, blocks_hash;
    unsigned height;
};

static struct snap snap_of(const struct wk_place_heap *h)
{
    struct snap s = {wk_place_free_bytes(h), wk_place_largest_free(h), wk_place_count(h), 0,
                     wk_place_height(h)};
    uint64_t cur = 0, off, size;
    while (wk_place_next(h, &cur, &off, &size))
        s.blocks_hash = (s.blocks_hash ^ off) * 0x100000001B3ull + size;
    return s;
}

static bool same_snap(const struct snap *a, const struct snap *b)
{
    if (a->free_bytes == b->free_bytes && a->largest == b->largest && a->count == b->count &&
        a->blocks_hash == b->blocks_hash && a->height == b->height)
        return true;
    print_error("  heap changed: free 0x%llx -> 0x%llx, largest 0x%llx -> 0x%llx, blocks %llu -> "
                "%llu, height %u -> %u, block list %s\n",
                (ull)a->free_bytes, (ull)b->free_bytes, (ull)a->largest, (ull)b->largest,
                (ull)a->count, (ull)b->count, a->height, b->height,
                a->blocks_hash == b->blocks_hash ? "same" : "different");
    return false;
}

static bool expect_alloc_at(struct wk_place_heap *h, struct wk_place_request r, uint64_t want,
                            const char *file, int line)
{
    uint64_t got = NONE;
    wk_status s = wk_place_alloc(h, &r, &got);
    if (s != WK_OK || got != want) {
        print_req(file, line, &r);
        if (s != WK_OK)
            print_error(": expected offset 0x%llx, failed with %s\n", (ull)want,
                        wk_status_name(s));
        else
            print_error(": expected offset 0x%llx, got 0x%llx\n", (ull)want, (ull)got);
        return false;
    }
    return heap_ok(h, file, line);
}
#define ALLOC_AT(h, size, align, lo, hi, td, want)                                         \
    assert_true(expect_alloc_at((h), rq((size), (align), (lo), (hi), (td)), (want), __FILE__, \
                                __LINE__))

/* The call must fail with exactly `want`, leave *offset alone and the heap
 * as it was. */
static bool expect_alloc_fails(struct wk_place_heap *h, struct wk_place_request r, wk_status want,
                               const char *file, int line)
{
    struct snap before = snap_of(h);
    uint64_t got = NONE;
    wk_status s = wk_place_alloc(h, &r, &got);
    bool ok = true;
    if (s == WK_OK) {
        print_req(file, line, &r);
        print_error(": succeeded at 0x%llx, expected %s\n", (ull)got, wk_status_name(want));
        ok = false;
    } else if (s != want) {
        print_req(file, line, &r);
        print_error(": failed with %s, expected %s\n", wk_status_name(s), wk_status_name(want));
        ok = false;
    } else if (got != NONE) {
        print_req(file, line, &r);
        print_error(": failed but wrote 0x%llx to *offset\n", (ull)got);
        ok = false;
    }
    struct snap after = snap_of(h);
    return same_snap(&before, &after) && ok && heap_ok(h, file, line);
}
#define ALLOC_FAILS(h, size, align, lo, hi, td, want)                                         \
    assert_true(expect_alloc_fails((h), rq((size), (align), (lo), (hi), (td)), (want), __FILE__, \
                                   __LINE__))

/* A call (reserve or free) returns `want`; a failing call leaves the heap
 * unchanged. */
static bool expect_call(struct wk_place_heap *h, wk_status s, wk_status want,
                        const struct snap *before, const char *what, const char *file, int line)
{
    if (s != want) {
        print_error("%s:%d: %s: expected %s, got %s\n", file, line, what, wk_status_name(want),
                    wk_status_name(s));
        return false;
    }
    if (s != WK_OK) {
        struct snap after = snap_of(h);
        if (!same_snap(before, &after)) {
            print_error("%s:%d: %s failed but changed the heap\n", file, line, what);
            return false;
        }
    }
    return heap_ok(h, file, line);
}

#define RESERVE(h, off, size, want)                                                          \
    do {                                                                                     \
        struct snap before_ = snap_of(h);                                                    \
        assert_true(expect_call((h), wk_place_reserve((h), (off), (size)), (want), &before_, \
                                "reserve(" #off ", " #size ")", __FILE__, __LINE__));        \
    } while (0)
#define FREE(h, off, want)                                                                  \
    do {                                                                                    \
        struct snap before_ = snap_of(h);                                                   \
        assert_true(expect_call((h), wk_place_free((h), (off)), (want), &before_,           \
                                "free(" #off ")", __FILE__, __LINE__));                     \
    } while (0)

static bool expect_u64(uint64_t got, uint64_t want, const char *what, const char *file, int line)
{
    if (got == want)
        return true;
    print_error("%s:%d: %s: expected 0x%llx (%llu), got 0x%llx (%llu)\n", file, line, what,
                (ull)want, (ull)want, (ull)got, (ull)got);
    return false;
}
#define EXPECT_U64(got, want) assert_true(expect_u64((got), (want), #got, __FILE__, __LINE__))

/* The allocated blocks, in address order, are exactly want[0..n). */
static bool expect_blocks(const struct wk_place_heap *h, const uint64_t (*want)[2], size_t n,
                          const char *file, int line)
{
    uint64_t cur = 0, off, size;
    size_t i = 0;
    bool ok = true;
    for (; wk_place_next(h, &cur, &off, &size); i++) {
        if (i >= n) {
            print_error("%s:%d: extra block %zu [0x%llx, +0x%llx)\n", file, line, i, (ull)off,
                        (ull)size);
            ok = false;
        } else if (off != want[i][0] || size != want[i][1]) {
            print_error("%s:%d: block %zu: expected [0x%llx, +0x%llx), got [0x%llx, +0x%llx)\n",
                        file, line, i, (ull)want[i][0], (ull)want[i][1], (ull)off, (ull)size);
            ok = false;
        }
    }
    if (i < n) {
        print_error("%s:%d: %zu blocks, expected %zu\n", file, line, i, n);
        ok = false;
    }
    if (wk_place_count(h) != n) {
        print_error("%s:%d: wk_place_count %llu, expected %zu\n", file, line,
                    (ull)wk_place_count(h), n);
        ok = false;
    }
    return ok;
}
#define EXPECT_BLOCKS(h, ...)                                                          \
    do {                                                                               \
        static const uint64_t want_[][2] = {__VA_ARGS__};                              \
        assert_true(expect_blocks((h), want_, sizeof(want_) / sizeof(want_[0]), __FILE__, \
                                  __LINE__));                                          \
    } while (0)

/* ------------------------------------------------------------------ */
/* Hand-made cases                                                      */
/* ------------------------------------------------------------------ */

static void test_create_destroy(void **state)
{
    struct wk_place_heap *h = NULL;
    assert_int_equal(wk_place_create(0, &h), WK_E_INVALID_ARGUMENT);
    assert_null(h);
    assert_int_equal(wk_place_create(MIB, NULL), WK_E_INVALID_ARGUMENT);
    wk_place_destroy(NULL);

    h = new_heap(state, MIB);
    HEAP_OK(h);
    EXPECT_U64(wk_place_free_bytes(h), MIB);
    EXPECT_U64(wk_place_largest_free(h), MIB);
    EXPECT_U64(wk_place_count(h), 0);
    EXPECT_U64(wk_place_height(h), 1);
    uint64_t cur = 0, off = NONE;
    assert_int_equal(wk_place_next(h, &cur, &off, NULL), 0);
    EXPECT_U64(off, NONE);

    /* The whole 64-bit range: ends are computed without overflow. */
    struct wk_place_heap *big = new_heap(state, UINT64_MAX);
    ALLOC_AT(big, 1, 1ull << 63, 0, 0, 1, 1ull << 63);
    ALLOC_AT(big, 1, 1ull << 63, 0, 0, 0, 0);
    RESERVE(big, UINT64_MAX - 1, 1, WK_OK);
    ALLOC_AT(big, 2, 1, 0, 0, 1, UINT64_MAX - 3);
    ALLOC_FAILS(big, 1, 1ull << 63, 0, 0, 0, WK_E_NO_SPACE);
    EXPECT_U64(wk_place_free_bytes(big), UINT64_MAX - 5);
}

static void test_bottom_up_exact(void **state)
{
    struct wk_place_heap *h = new_heap(state, MIB);
    ALLOC_AT(h, 0x1000, 0, 0, 0, 0, 0x0);
    ALLOC_AT(h, 0x3000, 1, 0, 0, 0, 0x1000);
    ALLOC_AT(h, 0x2000, 0x1000, 0, 0, 0, 0x4000);
    ALLOC_AT(h, 0x10, 1, 0, 0, 0, 0x6000);
    ALLOC_AT(h, 0x1000, 0x1000, 0, 0, 0, 0x7000);
    FREE(h, 0x1000, WK_OK);
    /* Lowest hole first, even when a larger one follows. */
    ALLOC_AT(h, 0x800, 1, 0, 0, 0, 0x1000);
    ALLOC_AT(h, 0x2800, 1, 0, 0, 0, 0x1800);
    ALLOC_AT(h, 0x1, 1, 0, 0, 0, 0x6010);
    EXPECT_U64(wk_place_free_bytes(h), MIB - 0x7011);
}

static void test_top_down_exact(void **state)
{
    struct wk_place_heap *h = new_heap(state, MIB);
    ALLOC_AT(h, 0x1000, 0, 0, 0, 1, 0xFF000);
    ALLOC_AT(h, 0x3000, 1, 0, 0, 1, 0xFC000);
    ALLOC_AT(h, 0x1800, 0x1000, 0, 0, 1, 0xFA000);
    ALLOC_AT(h, 0x1000, 0, 0, 0, 0, 0x0); /* the two ends do not interfere */
    ALLOC_AT(h, 0x100, 1, 0, 0, 1, 0xFBF00); /* the 0x800 left above 0xFB800 */

    /* Highest hole first: holes at 0x10000 (8K), 0x50000 (4K), 0x90000 (8K). */
    struct wk_place_heap *g = new_heap(state, MIB);
    RESERVE(g, 0x0, 0x10000, WK_OK);
    RESERVE(g, 0x12000, 0x3E000, WK_OK);
    RESERVE(g, 0x51000, 0x3F000, WK_OK);
    RESERVE(g, 0x92000, 0x6E000, WK_OK);
    EXPECT_U64(wk_place_free_bytes(g), 0x5000);
    ALLOC_AT(g, 0x1000, 1, 0, 0, 1, 0x91000);
    ALLOC_AT(g, 0x1000, 1, 0, 0, 0, 0x10000);
    ALLOC_AT(g, 0x1000, 1, 0, 0, 1, 0x90000);
    ALLOC_AT(g, 0x1000, 1, 0, 0, 1, 0x50000);
    ALLOC_AT(g, 0x1000, 1, 0, 0, 1, 0x11000);
    ALLOC_FAILS(g, 1, 1, 0, 0, 1, WK_E_NO_SPACE);
    EXPECT_U64(wk_place_free_bytes(g), 0);
    EXPECT_U64(wk_place_largest_free(g), 0);
}

static void test_alignment(void **state)
{
    struct wk_place_heap *h = new_heap(state, MIB);
    ALLOC_AT(h, 0x100, 1, 0, 0, 0, 0x0);
    ALLOC_AT(h, 0x1000, 0x10000, 0, 0, 0, 0x10000);
    ALLOC_AT(h, 0x10, 0x10, 0, 0, 0, 0x100);
    ALLOC_AT(h, 0x1, 0x2, 0, 0, 0, 0x110);
    ALLOC_AT(h, 0x1, 0x1, 0, 0, 0, 0x111);
    ALLOC_AT(h, 0x1800, 0x1000, 0, 0, 1, 0xFE000); /* highest aligned start, not end */
    ALLOC_AT(h, 0x1000, 0x80000, 0, 0, 1, 0x80000);
    ALLOC_FAILS(h, 0x1000, 0x80000, 0, 0, 1, WK_E_NO_SPACE); /* 0 and 0x80000 both taken */
    ALLOC_AT(h, 0x1000, 0x40000, 0, 0, 1, 0xC0000);
}

static void test_alignment_odd_sizes(void **state)
{
    /* A heap whose size is no power of two, blocks of odd sizes. */
    struct wk_place_heap *h = new_heap(state, 1000);
    ALLOC_AT(h, 10, 16, 0, 0, 1, 976); /* 990 rounded down */
    ALLOC_AT(h, 7, 16, 0, 0, 1, 992);  /* above it: [986, 1000) holds 992..999 */
    ALLOC_AT(h, 3, 1, 0, 0, 1, 989);   /* [999, 1000) is too short, [986, 992) is not */
    ALLOC_AT(h, 1, 0, 0, 0, 1, 999);
    ALLOC_AT(h, 1, 0, 0, 0, 0, 0);
    ALLOC_AT(h, 5, 8, 0, 0, 0, 8);
    ALLOC_AT(h, 8, 512, 0, 0, 0, 512);
    ALLOC_FAILS(h, 8, 1024, 0, 0, 0, WK_E_NO_SPACE);
    /* A start that is only 0x10-aligned: the block moves up to the boundary. */
    struct wk_place_heap *g = new_heap(state, 0x10000);
    RESERVE(g, 0x0, 0x10, WK_OK);
    ALLOC_AT(g, 0x100, 0x100, 0, 0, 0, 0x100);
    ALLOC_AT(g, 0xF0, 0x10, 0, 0, 0, 0x10);
}

/* Banks are windows (docs/wddm-facts.md 5.6 B4: a bank hint with a direction). */
static void test_bank_windows(void **state)
{
    struct wk_place_heap *h = new_heap(state, MIB);
    ALLOC_AT(h, 0x1000, 1, 1 * BANK, 2 * BANK, 0, 0x40000);
    ALLOC_AT(h, 0x1000, 1, 1 * BANK, 2 * BANK, 1, 0x7F000);
    ALLOC_AT(h, 0x1000, 1, 3 * BANK, 0, 0, 0xC0000); /* hi 0: to the end */
    ALLOC_AT(h, 0x1000, 1, 3 * BANK, 4 * BANK, 1, 0xFF000);
    ALLOC_AT(h, 0x1000, 1, 0, BANK, 1, 0x3F000);
    ALLOC_AT(h, 0x2000, 0x2000, 2 * BANK, 3 * BANK, 1, 0xBE000);
    /* A block never leaves its window, even when the heap has room. */
    ALLOC_AT(h, 0x3E000, 1, 1 * BANK, 2 * BANK, 0, 0x41000);
    ALLOC_FAILS(h, 1, 1, 1 * BANK, 2 * BANK, 0, WK_E_NO_SPACE);
    ALLOC_FAILS(h, 1, 1, 1 * BANK, 2 * BANK, 1, WK_E_NO_SPACE);
    ALLOC_FAILS(h, BANK + 1, 1, 0, BANK, 0, WK_E_NO_SPACE); /* larger than the window */
    /* The caller's fallback, the whole segment, may straddle banks (B3). */
    FREE(h, 0x3F000, WK_OK);
    FREE(h, 0x40000, WK_OK);
    ALLOC_AT(h, 0x41000, 1, 0, 0, 0, 0x0);
}

/* Windows that cut free ranges: the cut parts are judged exactly. */
static void test_window_edges(void **state)
{
    struct wk_place_heap *h = new_heap(state, MIB);
    RESERVE(h, 0x30000, 0x1000, WK_OK);
    RESERVE(h, 0x90000, 0x1000, WK_OK);
    /* One free range [0x31000, 0x90000) covers the whole window. */
    ALLOC_AT(h, 0x1000, 1, 0x40000, 0x80000, 0, 0x40000);
    ALLOC_AT(h, 0x1000, 1, 0x40000, 0x80000, 1, 0x7F000);
    ALLOC_AT(h, 0x1800, 0x10000, 0x40000, 0x80000, 1, 0x70000);
    ALLOC_AT(h, 0x10, 0x10000, 0x40000, 0x80000, 0, 0x50000);
    /* Window [0x20000, 0x40000): cut below 0x30000 and above 0x31000. */
    ALLOC_AT(h, 0xF000, 1, 0x20000, 0x40000, 1, 0x31000);
    ALLOC_AT(h, 0x10000, 1, 0x20000, 0x40000, 0, 0x20000);
    ALLOC_FAILS(h, 1, 1, 0x20000, 0x40000, 0, WK_E_NO_SPACE);
    /* A window inside an allocated block, and one starting inside a block. */
    ALLOC_FAILS(h, 1, 1, 0x30100, 0x30200, 1, WK_E_NO_SPACE);
    ALLOC_AT(h, 0x100, 1, 0x30800, 0x42000, 0, 0x41000);
    /* Cut at lo only: free [0, 0x20000) starts below the window. */
    ALLOC_AT(h, 0x100, 0x100, 0x1080, 0x20000, 0, 0x1100);
    ALLOC_AT(h, 0x80, 1, 0x1080, 0x20000, 0, 0x1080);
    /* Cut at hi only: free [0x1200, 0x20000) starts at lo, runs past hi. */
    ALLOC_AT(h, 0x100, 0x100, 0x1200, 0xFF80, 1, 0xFE00);
    ALLOC_AT(h, 0x80, 1, 0x1200, 0xFF80, 1, 0xFF00);
    ALLOC_AT(h, 0x80, 1, 0x1200, 0xFF80, 1, 0xFD80);
    HEAP_OK(h);
}

static void test_reserve(void **state)
{
    struct wk_place_heap *h = new_heap(state, MIB);
    RESERVE(h, 0x10000, 0x1000, WK_OK);
    RESERVE(h, 0x10000, 0x1000, WK_E_NO_SPACE);   /* same range */
    RESERVE(h, 0xF800, 0x1000, WK_E_NO_SPACE);    /* overlaps its start */
    RESERVE(h, 0x10FFF, 0x10, WK_E_NO_SPACE);     /* overlaps its end */
    RESERVE(h, 0x8000, 0x10000, WK_E_NO_SPACE);   /* covers it */
    RESERVE(h, 0x11000, 0x1000, WK_OK);           /* adjacent above */
    RESERVE(h, 0xF000, 0x1000, WK_OK);            /* adjacent below */
    RESERVE(h, 0x0, 0x1, WK_OK);                  /* first byte */
    RESERVE(h, MIB - 1, 0x1, WK_OK);              /* last byte */
    RESERVE(h, MIB - 0x1000, 0x2000, WK_E_OUT_OF_RANGE);
    RESERVE(h, MIB, 1, WK_E_OUT_OF_RANGE);
    RESERVE(h, 0x20000, 0, WK_E_INVALID_ARGUMENT);
    RESERVE(h, UINT64_MAX, 2, WK_E_INVALID_ARGUMENT); /* offset + size overflows */
    assert_int_equal(wk_place_reserve(NULL, 0, 1), WK_E_INVALID_ARGUMENT);
    /* Allocation steps around reserved ranges. */
    ALLOC_AT(h, 0x1000, 0x1000, 0, 0, 0, 0x1000);
    ALLOC_AT(h, 0x2000, 1, 0xE000, 0x14000, 0, 0x12000);
    ALLOC_AT(h, 0x100, 1, 0, 0, 1, MIB - 0x101);
    EXPECT_BLOCKS(h, {0x0, 0x1}, {0x1000, 0x1000}, {0xF000, 0x1000}, {0x10000, 0x1000},
                  {0x11000, 0x1000}, {0x12000, 0x2000}, {MIB - 0x101, 0x100}, {MIB - 1, 1});
    FREE(h, 0x10000, WK_OK); /* a reserved range is freed like any block */
    RESERVE(h, 0x10000, 0x1000, WK_OK);
}

/* Every way a freed block meets its neighbours: none, below, above, both. */
static void test_free_coalesces(void **state)
{
    struct wk_place_heap *h = new_heap(state, 0x10000);
    for (uint64_t i = 0; i < 16; i++)
        ALLOC_AT(h, 0x1000, 1, 0, 0, 0, i * 0x1000);
    EXPECT_U64(wk_place_largest_free(h), 0);
    FREE(h, 0x4000, WK_OK); /* no free neighbour */
    FREE(h, 0x8000, WK_OK);
    EXPECT_U64(wk_place_largest_free(h), 0x1000);
    FREE(h, 0x5000, WK_OK); /* free below: merges into [0x4000, 0x6000) */
    EXPECT_U64(wk_place_largest_free(h), 0x2000);
    FREE(h, 0x7000, WK_OK); /* free above: [0x7000, 0x9000) */
    EXPECT_U64(wk_place_largest_free(h), 0x2000);
    FREE(h, 0x6000, WK_OK); /* both: [0x4000, 0x9000) */
    EXPECT_U64(wk_place_largest_free(h), 0x5000);
    ALLOC_AT(h, 0x5000, 1, 0, 0, 0, 0x4000); /* one range again, exactly */
    FREE(h, 0x4000, WK_OK);
    FREE(h, 0x0, WK_OK);   /* at the heap start */
    FREE(h, 0xF000, WK_OK); /* at the heap end */
    EXPECT_U64(wk_place_free_bytes(h), 0x7000);
    static const uint64_t rest[] = {1, 2, 3, 9, 10, 11, 12, 13, 14};
    for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
        FREE(h, rest[i] * 0x1000, WK_OK);
    EXPECT_U64(wk_place_count(h), 0);
    EXPECT_U64(wk_place_largest_free(h), 0x10000);
    EXPECT_U64(wk_place_height(h), 1); /* a single free range */
    ALLOC_AT(h, 0x10000, 1, 0, 0, 1, 0);
}

static void test_exhaustion(void **state)
{
    struct wk_place_heap *h = new_heap(state, 0x10000);
    for (uint64_t i = 0; i < 8; i++) { /* alternate ends: 0, 0xE000, 0x2000, 0xC000, ... */
        uint64_t want = i & 1 ? 0xE000 - (i / 2) * 0x2000 : (i / 2) * 0x2000;
        ALLOC_AT(h, 0x2000, 0x2000, 0, 0, (int)(i & 1), want);
    }
    ALLOC_FAILS(h, 1, 1, 0, 0, 0, WK_E_NO_SPACE);
    ALLOC_FAILS(h, 1, 1, 0, 0, 1, WK_E_NO_SPACE);
    /* Fragmented: 0x8000 free in total, no free run longer than 0x2000. */
    FREE(h, 0x2000, WK_OK);
    FREE(h, 0x6000, WK_OK);
    FREE(h, 0xA000, WK_OK);
    FREE(h, 0xE000, WK_OK);
    EXPECT_U64(wk_place_free_bytes(h), 0x8000);
    ALLOC_FAILS(h, 0x2001, 1, 0, 0, 0, WK_E_NO_SPACE);
    /* Every hole starts 0x2000 past a 0x4000 boundary. */
    ALLOC_FAILS(h, 0x2000, 0x4000, 0, 0, 0, WK_E_NO_SPACE);
    ALLOC_FAILS(h, 0x10001, 1, 0, 0, 0, WK_E_NO_SPACE); /* larger than the heap */
    ALLOC_FAILS(h, UINT64_MAX, 1, 0, 0, 1, WK_E_NO_SPACE);
    ALLOC_AT(h, 0x2000, 0x2000, 0, 0, 1, 0xE000);
}

static void test_invalid_arguments(void **state)
{
    static const struct {
        const char *name;
        struct wk_place_request r;
    } bad[] = {
        {"size 0", {0, 1, 0, 0, 0}},
        {"alignment 3", {0x10, 3, 0, 0, 0}},
        {"alignment 0x1800", {0x10, 0x1800, 0, 0, 0}},
        {"alignment 2^64-1", {0x10, UINT64_MAX, 0, 0, 0}},
        {"lo == hi", {0x10, 1, 0x1000, 0x1000, 0}},
        {"lo > hi", {0x10, 1, 0x2000, 0x1000, 0}},
        {"lo at the end, hi 0", {0x10, 1, MIB, 0, 0}},
        {"hi past the end", {0x10, 1, 0, MIB + 1, 0}},
        {"hi 2^64-1", {0x10, 1, 0, UINT64_MAX, 1}},
        {"top_down 2", {0x10, 1, 0, 0, 2}},
        {"top_down -1", {0x10, 1, 0, 0, -1}},
    };
    struct wk_place_heap *h = new_heap(state, MIB);
    ALLOC_AT(h, 0x1000, 1, 0, 0, 0, 0);
    ALLOC_AT(h, 0x1000, 1, 0, 0, 1, MIB - 0x1000);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (!expect_alloc_fails(h, bad[i].r, WK_E_INVALID_ARGUMENT, __FILE__, __LINE__))
            fail_msg("case \"%s\"", bad[i].name);
    }
    struct wk_place_request ok = rq(1, 1, 0, 0, 0);
    uint64_t off = NONE;
    assert_int_equal(wk_place_alloc(NULL, &ok, &off), WK_E_INVALID_ARGUMENT);
    assert_int_equal(wk_place_alloc(h, NULL, &off), WK_E_INVALID_ARGUMENT);
    assert_int_equal(wk_place_alloc(h, &ok, NULL), WK_E_INVALID_ARGUMENT);
    EXPECT_U64(off, NONE);

    FREE(h, 0x800, WK_E_INVALID_ARGUMENT);     /* inside a block */
    FREE(h, 0x1000, WK_E_INVALID_ARGUMENT);    /* start of free space */
    FREE(h, 0x2000, WK_E_INVALID_ARGUMENT);    /* inside free space */
    FREE(h, MIB, WK_E_INVALID_ARGUMENT);       /* the end */
    FREE(h, UINT64_MAX, WK_E_INVALID_ARGUMENT);
    FREE(h, 0, WK_OK);
    FREE(h, 0, WK_E_INVALID_ARGUMENT);         /* double free */
    assert_int_equal(wk_place_free(NULL, 0), WK_E_INVALID_ARGUMENT);

    char why[64] = "untouched";
    assert_int_equal(wk_place_check(NULL, why, sizeof(why)), WK_E_INVALID_ARGUMENT);
    assert_string_equal(why, "heap is NULL");
    assert_int_equal(wk_place_check(h, NULL, 0), WK_OK);
    assert_int_equal(wk_place_check(h, why, sizeof(why)), WK_OK);
    assert_string_equal(why, "");
    uint64_t cur = 0;
    assert_int_equal(wk_place_next(NULL, &cur, &off, NULL), 0);
    assert_int_equal(wk_place_next(h, NULL, &off, NULL), 0);
    EXPECT_U64(wk_place_free_bytes(NULL), 0);
    EXPECT_U64(wk_place_largest_free(NULL), 0);
    EXPECT_U64(wk_place_count(NULL), 0);
    EXPECT_U64(wk_place_height(NULL), 0);
}

/* A split needs up to two new nodes; failing either leaves the heap as it
 * was (and, under ASan, leaks nothing). */
static void test_no_memory(void **state)
{
    struct wk_place_heap *h = new_heap(state, MIB);
    wk_place_fail_nth_alloc(h, 1); /* bottom-up: block node only */
    ALLOC_FAILS(h, 0x1000, 1, 0, 0, 0, WK_E_NO_MEMORY);
    ALLOC_AT(h, 0x1000, 1, 0, 0, 0, 0); /* the hook fired once and is spent */
    for (uint64_t nth = 1; nth <= 2; nth++) {
        wk_place_fail_nth_alloc(h, nth); /* mid-window: block and a second free range */
        ALLOC_FAILS(h, 0x1000, 1, BANK, 2 * BANK, 1, WK_E_NO_MEMORY);
        wk_place_fail_nth_alloc(h, nth);
        RESERVE(h, 0x80000, 0x1000, WK_E_NO_MEMORY);
    }
    ALLOC_AT(h, 0x1000, 1, BANK, 2 * BANK, 1, 2 * BANK - 0x1000);
    RESERVE(h, 0x1000, 0x1000, WK_OK);
    /* Frees and exact fits allocate nothing: an armed hook stays armed. */
    wk_place_fail_nth_alloc(h, 1);
    FREE(h, 0x1000, WK_OK);
    FREE(h, 0x0, WK_OK);
    ALLOC_AT(h, 2 * BANK - 0x1000, 1, 0, 0, 0, 0x0);
    FREE(h, 0x0, WK_OK);
    FREE(h, 2 * BANK - 0x1000, WK_OK);
    EXPECT_U64(wk_place_count(h), 0);
    ALLOC_FAILS(h, 0x1000, 1, 0, 0, 0, WK_E_NO_MEMORY);
    /* 0 disarms. */
    wk_place_fail_nth_alloc(h, 1);
    wk_place_fail_nth_alloc(h, 0);
    ALLOC_AT(h, 0x1000, 1, 0, 0, 0, 0);
}

static void test_iteration_order(void **state)
{
    struct wk_place_heap *h = new_heap(state, MIB);
    ALLOC_AT(h, 0x2000, 1, 0, 0, 1, 0xFE000);
    ALLOC_AT(h, 0x1000, 1, BANK, 0, 0, 0x40000);
    RESERVE(h, 0x20000, 0x800, WK_OK);
    ALLOC_AT(h, 0x10, 1, 0, 0, 0, 0x0);
    ALLOC_AT(h, 0x3000, 0x1000, 2 * BANK, 3 * BANK, 1, 0xBD000);
    RESERVE(h, 0x10, 0x10, WK_OK);
    EXPECT_BLOCKS(h, {0x0, 0x10}, {0x10, 0x10}, {0x20000, 0x800}, {0x40000, 0x1000},
                  {0xBD000, 0x3000}, {0xFE000, 0x2000});
    /* The cursor survives changes: free each block as it is returned. */
    uint64_t cur = 0, off, size, n = 0;
    while (wk_place_next(h, &cur, &off, &size)) {
        FREE(h, off, WK_OK);
        if (n++ == 2)
            RESERVE(h, 0x30000, 0x100, WK_OK); /* above the cursor: still visited */
    }
    EXPECT_U64(n, 7);
    EXPECT_U64(wk_place_count(h), 0);
}

/* Page-granular heaps with page-aligned requests get the exact fit
 * (placement.c, "Fit guarantee"): a lone one-page hole is found. */
static void test_page_granular_is_exact(void **state)
{
    struct wk_place_heap *h = new_heap(state, 256 * PAGE);
    for (uint64_t i = 0; i < 256; i++)
        ALLOC_AT(h, PAGE, PAGE, 0, 0, 0, i * PAGE);
    FREE(h, 100 * PAGE, WK_OK);
    ALLOC_AT(h, PAGE, PAGE, 0, 0, 0, 100 * PAGE);
    FREE(h, 100 * PAGE, WK_OK);
    ALLOC_AT(h, PAGE, PAGE, 0, 0, 1, 100 * PAGE);
    FREE(h, 10 * PAGE, WK_OK);
    FREE(h, 200 * PAGE, WK_OK);
    FREE(h, 130 * PAGE, WK_OK);
    ALLOC_AT(h, PAGE, PAGE, 0, 0, 1, 200 * PAGE);
    ALLOC_AT(h, PAGE, PAGE, 0, 0, 0, 10 * PAGE);
    ALLOC_FAILS(h, PAGE, PAGE, 0, 128 * PAGE, 0, WK_E_NO_SPACE);
    ALLOC_AT(h, PAGE, PAGE, 128 * PAGE, 0, 0, 130 * PAGE);
    /* A byte-granular hole holding size + alignment - 1 is always found. */
    FREE(h, 50 * PAGE, WK_OK);
    FREE(h, 51 * PAGE, WK_OK);
    FREE(h, 52 * PAGE, WK_OK);
    RESERVE(h, 50 * PAGE, 0x10, WK_OK);
    ALLOC_AT(h, PAGE, PAGE, 0, 0, 0, 51 * PAGE);
}

/* ------------------------------------------------------------------ */
/* Randomized differential test against a sorted array of blocks        */
/* ------------------------------------------------------------------ */

#define SHADOW_MAX 2048u
#define RANDOM_OPS 6000u
#define DEFAULT_SEED 0x9E3779B97F4A7C15ull

struct profile {
    const char *name;
    uint64_t heap_size;
    uint64_t unit;          /* sizes, offsets and windows are multiples of this */
    uint64_t max_units;     /* block sizes: 1..max_units units */
    unsigned align_log2[2]; /* alignments 2^[min, max] */
    uint64_t bank;          /* bank-like window size */
};

/* The trivially correct model: allocated blocks sorted by start. */
struct run {
    const struct profile *p;
    struct wk_place_heap *h;
    uint64_t seed, rng;
    unsigned op;
    size_t n;
    uint64_t blk[SHADOW_MAX][2];      /* start, size */
    uint64_t gap[SHADOW_MAX + 1][2];  /* free ranges: start, end */
    unsigned long loose, missed;      /* guarantee statistics */
};

static uint64_t next_rand(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t below(struct run *r, uint64_t n) /* uniform-ish in [0, n), n > 0 */
{
    return next_rand(&r->rng) % n;
}

static uint64_t test_seed(void)
{
    const char *s = getenv("WK_SEED");
    if (!s || !*s)
        s = getenv("WK_TEST_SEED");
    if (!s || !*s)
        return DEFAULT_SEED;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        fail_msg("WK_SEED=\"%s\" is not a number", s);
    return v;
}

/* Fails the test with the seed and the operation, so it can be replayed. */
static void run_fail(const struct run *r, const char *what)
{
    fail_msg("%s: seed 0x%llx, op %u: %s (replay: WK_SEED=0x%llx)", r->p->name, (ull)r->seed,
             r->op, what, (ull)r->seed);
}

static size_t shadow_gaps(struct run *r)
{
    size_t m = 0;
    uint64_t pos = 0;
    for (size_t i = 0; i <= r->n; i++) {
        uint64_t next = i < r->n ? r->blk[i][0] : r->p->heap_size;
        if (next > pos) {
            r->gap[m][0] = pos;
            r->gap[m][1] = next;
            m++;
        }
        if (i < r->n)
            pos = r->blk[i][0] + r->blk[i][1];
    }
    return m;
}

static void shadow_insert(struct run *r, uint64_t start, uint64_t size)
{
    if (r->n == SHADOW_MAX)
        run_fail(r, "shadow full (raise SHADOW_MAX)");
    size_t i = r->n;
    while (i > 0 && r->blk[i - 1][0] > start) {
        r->blk[i][0] = r->blk[i - 1][0];
        r->blk[i][1] = r->blk[i - 1][1];
        i--;
    }
    r->blk[i][0] = start;
    r->blk[i][1] = size;
    r->n++;
}

/* Index of the block starting at off, or n. */
static size_t shadow_find(const struct run *r, uint64_t off)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->blk[i][0] == off)
            return i;
    return r->n;
}

/* Where a block goes in [a, b), the long way; 0 if it does not fit. */
static int shadow_place(uint64_t a, uint64_t b, uint64_t size, uint64_t align, int top_down,
                        uint64_t *at)
{
    if (b - a < size)
        return 0;
    uint64_t o = top_down ? (b - size) / align * align : (a + align - 1) / align * align;
    if (o < a || o > b - size)
        return 0;
    *at = o;
    return 1;
}

static uint64_t lowest_bit(uint64_t x)
{
    return x & (~x + 1);
}

/* Checks one alloc answer against the fit guarantee of placement.c, over
 * the free ranges that meet the window, in scan order:
 *   E = the first range the block fits in at all (the exact answer);
 *   P = the first range the guarantee promises: a range cut by the window
 *       if it fits, an interior range if it holds size + slack bytes, with
 *       slack = alignment - g_w (0 when g_w >= alignment) and g_w the
 *       coarsest power of two dividing every interior free start.
 * A success must be the proper offset in some range between E and P; a
 * WK_E_NO_SPACE is allowed only when there is no P. When slack is 0, P is
 * E and the answer is exact. */
static void verify_alloc(struct run *r, const struct wk_place_request *q, wk_status s,
                         uint64_t got)
{
    uint64_t size = q->size, align = q->alignment ? q->alignment : 1, lo = q->lo;
    uint64_t hi = q->hi ? q->hi : r->p->heap_size, gw = 0; /* 0: no interior start yet */
    int td = q->top_down;
    size_t m = shadow_gaps(r), first = m, last = 0;
    for (size_t i = 0; i < m; i++) {
        if (r->gap[i][1] <= lo || r->gap[i][0] >= hi)
            continue;
        if (first == m)
            first = i;
        last = i;
        if (r->gap[i][0] >= lo && r->gap[i][1] <= hi && r->gap[i][0]) {
            uint64_t b = lowest_bit(r->gap[i][0]);
            gw = !gw || b < gw ? b : gw;
        }
    }
    uint64_t slack = (!gw || gw >= align) ? 0 : align - gw;
    size_t e = m, pr = m, chosen = m; /* ranks in scan order */
    uint64_t want_at = NONE;
    char msg[320];
    for (size_t k = 0; first < m && k <= last - first; k++) {
        size_t i = td ? last - k : first + k;
        uint64_t gs = r->gap[i][0], ge = r->gap[i][1], at;
        uint64_t a = gs > lo ? gs : lo, b = ge < hi ? ge : hi;
        int fits = shadow_place(a, b, size, align, td, &at);
        int cut = gs < lo || ge > hi;
        if (fits && e == m)
            e = k;
        if (pr == m && (cut ? fits : ge - gs >= size && ge - gs - size >= slack))
            pr = k;
        if (s == WK_OK && got >= gs && got < ge) {
            chosen = k;
            want_at = fits ? at : NONE;
        }
    }
    if (s == WK_OK) {
        if (chosen == m)
            snprintf(msg, sizeof(msg), "alloc returned 0x%llx, which is not free in the window",
                     (ull)got);
        else if (want_at != got)
            snprintf(msg, sizeof(msg), "alloc returned 0x%llx, the %s aligned fit there is 0x%llx",
                     (ull)got, td ? "highest" : "lowest", (ull)want_at);
        else if (chosen > pr) {
            size_t ci = td ? last - chosen : first + chosen, pi = td ? last - pr : first + pr;
            snprintf(msg, sizeof(msg), "alloc chose free range [0x%llx, 0x%llx) (#%zu in scan "
                     "order), but [0x%llx, 0x%llx) (#%zu) is promised (slack 0x%llx)",
                     (ull)r->gap[ci][0], (ull)r->gap[ci][1], chosen, (ull)r->gap[pi][0],
                     (ull)r->gap[pi][1], pr, (ull)slack);
        } else {
            r->loose += chosen != e;
            return;
        }
    } else if (s == WK_E_NO_SPACE && pr == m) {
        r->missed += e != m;
        return;
    } else if (pr == m) {
        snprintf(msg, sizeof(msg), "alloc failed with %s, expected WK_OK or WK_E_NO_SPACE",
                 wk_status_name(s));
    } else {
        size_t pi = td ? last - pr : first + pr;
        snprintf(msg, sizeof(msg), "alloc failed with %s, but free range [0x%llx, 0x%llx) is "
                 "promised (slack 0x%llx)", wk_status_name(s), (ull)r->gap[pi][0],
                 (ull)r->gap[pi][1], (ull)slack);
    }
    char full[480];
    snprintf(full, sizeof(full), "%s [alloc size 0x%llx align 0x%llx window [0x%llx, 0x%llx) %s]",
             msg, (ull)size, (ull)align, (ull)lo, (ull)hi, td ? "top-down" : "bottom-up");
    run_fail(r, full);
}

static uint64_t random_size(struct run *r)
{
    uint64_t units = 1 + below(r, 1 + below(r, r->p->max_units)); /* small ones more often */
    return units * r->p->unit;
}

/* A full, bank-like or arbitrary window, in units. */
static void random_window(struct run *r, uint64_t *lo, uint64_t *hi)
{
    uint64_t size = r->p->heap_size, u = r->p->unit, pick = below(r, 10);
    if (pick < 4) {
        *lo = 0;
        *hi = 0;
    } else if (pick < 8) {
        uint64_t banks = (size + r->p->bank - 1) / r->p->bank, b = below(r, banks);
        *lo = b * r->p->bank;
        *hi = (b + 1) * r->p->bank < size ? (b + 1) * r->p->bank : 0;
    } else {
        *lo = below(r, size / u) * u;
        *hi = *lo + (1 + below(r, (size - *lo) / u)) * u;
    }
}

static void op_alloc(struct run *r)
{
    struct wk_place_request q = {.size = random_size(r), .top_down = (int)below(r, 2)};
    unsigned k0 = r->p->align_log2[0], k1 = r->p->align_log2[1];
    unsigned k = below(r, 2) ? k0 : k0 + (unsigned)below(r, k1 - k0 + 1);
    q.alignment = k == 0 && below(r, 2) ? 0 : 1ull << k;
    random_window(r, &q.lo, &q.hi);
    uint64_t got = NONE;
    wk_status s = wk_place_alloc(r->h, &q, &got);
    verify_alloc(r, &q, s, got);
    if (s == WK_OK)
        shadow_insert(r, got, q.size);
}

static void op_reserve(struct run *r)
{
    uint64_t off = below(r, r->p->heap_size / r->p->unit) * r->p->unit, size = random_size(r);
    wk_status want = WK_OK;
    if (off + size > r->p->heap_size)
        want = WK_E_OUT_OF_RANGE;
    for (size_t i = 0; want == WK_OK && i < r->n; i++)
        if (r->blk[i][0] < off + size && off < r->blk[i][0] + r->blk[i][1])
            want = WK_E_NO_SPACE;
    wk_status s = wk_place_reserve(r->h, off, size);
    if (s != want) {
        char msg[160];
        snprintf(msg, sizeof(msg), "reserve(0x%llx, 0x%llx): expected %s, got %s", (ull)off,
                 (ull)size, wk_status_name(want), wk_status_name(s));
        run_fail(r, msg);
    }
    if (s == WK_OK)
        shadow_insert(r, off, size);
}

static void op_free(struct run *r)
{
    uint64_t off; /* mostly a real block, sometimes any offset */
    if (r->n && below(r, 8))
        off = r->blk[below(r, r->n)][0];
    else
        off = below(r, r->p->heap_size);
    size_t i = shadow_find(r, off);
    wk_status want = i < r->n ? WK_OK : WK_E_INVALID_ARGUMENT;
    wk_status s = wk_place_free(r->h, off);
    if (s != want) {
        char msg[128];
        snprintf(msg, sizeof(msg), "free(0x%llx): expected %s, got %s", (ull)off,
                 wk_status_name(want), wk_status_name(s));
        run_fail(r, msg);
    }
    if (s == WK_OK) {
        memmove(r->blk[i], r->blk[i + 1], (r->n - i - 1) * sizeof(r->blk[0]));
        r->n--;
    }
}

/* Counters against the shadow, the invariant walk, now and then every block. */
static void compare(struct run *r)
{
    size_t m = shadow_gaps(r);
    uint64_t free_bytes = 0, largest = 0;
    for (size_t i = 0; i < m; i++) {
        uint64_t len = r->gap[i][1] - r->gap[i][0];
        free_bytes += len;
        largest = len > largest ? len : largest;
    }
    char msg[320];
    if (wk_place_free_bytes(r->h) != free_bytes || wk_place_largest_free(r->h) != largest ||
        wk_place_count(r->h) != r->n) {
        snprintf(msg, sizeof(msg),
                 "free 0x%llx largest 0x%llx count %llu; shadow 0x%llx 0x%llx %zu",
                 (ull)wk_place_free_bytes(r->h), (ull)wk_place_largest_free(r->h),
                 (ull)wk_place_count(r->h), (ull)free_bytes, (ull)largest, r->n);
        run_fail(r, msg);
    }
    char why[256];
    if (wk_place_check(r->h, why, sizeof(why)) != WK_OK) {
        snprintf(msg, sizeof(msg), "wk_place_check: %s", why);
        run_fail(r, msg);
    }
    if (r->op % 64 == 0 && !expect_blocks(r->h, (const uint64_t(*)[2])r->blk, r->n, __FILE__,
                                          __LINE__))
        run_fail(r, "block list differs (above)");
}

static void random_run(void **state, const struct profile *p)
{
    struct ctx *c = *state;
    struct run *r = calloc(1, sizeof(*r));
    assert_non_null(r);
    c->mem = r;
    r->p = p;
    r->seed = test_seed();
    r->rng = r->seed ^ p->heap_size; /* each profile its own stream */
    r->h = new_heap(state, p->heap_size);
    for (r->op = 1; r->op <= RANDOM_OPS; r->op++) {
        uint64_t pick = below(r, 100), alloc_pct = r->n < 150 ? 60 : 45;
        if (pick < alloc_pct)
            op_alloc(r);
        else if (pick < alloc_pct + 10)
            op_reserve(r);
        else
            op_free(r);
        compare(r);
    }
    if (getenv("WK_PLACEMENT_STATS"))
        print_message("%s: %zu blocks at the end, %lu looser-than-exact choices, %lu misses\n",
                      p->name, r->n, r->loose, r->missed);
}

static void test_random_bytes(void **state)
{
    static const struct profile p = {"bytes", 0x100123, 1, 0x4000, {0, 12}, 0x40000};
    random_run(state, &p);
}

static void test_random_pages(void **state)
{
    /* Page-aligned requests on page-granular blocks are exact (slack 0);
     * larger alignments exercise the slack. */
    static const struct profile p = {"pages", 16 * MIB, PAGE, 64, {12, 16}, MIB};
    random_run(state, &p);
}

/* ------------------------------------------------------------------ */
/* Tree height                                                          */
/* ------------------------------------------------------------------ */

/* log2(n) by repeated squaring, without libm. */
static double log2_of(uint64_t n)
{
    double y = (double)n, frac = 0, bit = 0.5;
    int k = 0;
    while (y >= 2) {
        y /= 2;
        k++;
    }
    for (int i = 0; i < 40; i++, bit /= 2) {
        y *= y;
        if (y >= 2) {
            y /= 2;
            frac += bit;
        }
    }
    return k + frac;
}

static bool height_ok(const struct wk_place_heap *h, uint64_t n, const char *file, int line)
{
    double bound = 1.45 * log2_of(n) + 2;
    unsigned got = wk_place_height(h);
    if (got <= bound)
        return true;
    print_error("%s:%d: height %u for %llu nodes, bound 1.45 log2(n) + 2 = %.2f\n", file, line,
                got, (ull)n, bound);
    return false;
}
#define HEIGHT_OK(h, n) assert_true(height_ok((h), (n), __FILE__, __LINE__))

#define HEIGHT_N 100000ull
#define HEIGHT_STEP 7919ull /* prime, coprime with HEIGHT_N and HEIGHT_N / 2 */

static void test_height_logarithmic(void **state)
{
    struct wk_place_heap *h = new_heap(state, HEIGHT_N * PAGE);
    struct wk_place_request one = rq(PAGE, PAGE, 0, 0, 0);
    for (uint64_t i = 0; i < HEIGHT_N; i++) {
        uint64_t off = NONE;
        wk_status s = wk_place_alloc(h, &one, &off);
        if (s != WK_OK || off != i * PAGE)
            fail_msg("alloc %llu: %s at 0x%llx, expected 0x%llx", (ull)i, wk_status_name(s),
                     (ull)off, (ull)(i * PAGE));
    }
    HEIGHT_OK(h, HEIGHT_N);
    /* Free every other page in scrambled order: 50k free ranges, 50k blocks. */
    for (uint64_t i = 0; i < HEIGHT_N / 2; i++) {
        uint64_t page = 2 * (i * HEIGHT_STEP % (HEIGHT_N / 2));
        if (wk_place_free(h, page * PAGE) != WK_OK)
            fail_msg("free of page %llu failed", (ull)page);
    }
    HEIGHT_OK(h, HEIGHT_N / 2);
    HEAP_OK(h);
    /* Refill the holes from the top, two-page aligned: exact, highest first. */
    struct wk_place_request top = rq(PAGE, 2 * PAGE, 0, 0, 1);
    for (uint64_t i = 0; i < HEIGHT_N / 4; i++) {
        uint64_t off = NONE, want = (HEIGHT_N - 2 - 2 * i) * PAGE;
        wk_status s = wk_place_alloc(h, &top, &off);
        if (s != WK_OK || off != want)
            fail_msg("top-down %llu: %s at 0x%llx, expected 0x%llx", (ull)i, wk_status_name(s),
                     (ull)off, (ull)want);
    }
    HEIGHT_OK(h, HEIGHT_N * 3 / 4);
    HEAP_OK(h);

    /* Scrambled reserves split the free tree in random places. */
    struct wk_place_heap *g = new_heap(state, HEIGHT_N * PAGE);
    for (uint64_t i = 0; i < HEIGHT_N / 2; i++) {
        uint64_t page = i * HEIGHT_STEP % HEIGHT_N;
        if (wk_place_reserve(g, page * PAGE, PAGE) != WK_OK)
            fail_msg("reserve of page %llu failed", (ull)page);
    }
    HEIGHT_OK(g, HEIGHT_N / 2);
    HEAP_OK(g);
}

/* One descent, counted rather than timed: over 20k free ranges of every
 * length and alignment, no search looks at more than a small multiple of
 * the tree height (a linear scan would look at thousands). */
static void test_search_is_logarithmic(void **state)
{
    struct wk_place_heap *h = new_heap(state, 1ull << 36);
    uint64_t rng = test_seed(), pos = 0, worst = 0, ranges = 0;
    while (ranges < 20000) {
        uint64_t used = 1 + next_rand(&rng) % (8 * PAGE);
        uint64_t hole = 1 + next_rand(&rng) % (16 * PAGE);
        if (wk_place_reserve(h, pos, used) != WK_OK)
            fail_msg("layout: reserve(0x%llx, 0x%llx) failed", (ull)pos, (ull)used);
        pos += used + hole;
        ranges++;
    }
    HEAP_OK(h);
    unsigned height = wk_place_height(h);
    for (int i = 0; i < 4000; i++) {
        uint64_t lo = next_rand(&rng) % pos, span = 1 + next_rand(&rng) % (pos - lo);
        struct wk_place_request q = rq(1 + next_rand(&rng) % (20 * PAGE),
                                       1ull << (next_rand(&rng) % 17), lo,
                                       i % 4 ? lo + span : 0, (int)(next_rand(&rng) & 1));
        if (i % 4 == 0)
            q.lo = 0;
        uint64_t off;
        wk_status s = wk_place_alloc(h, &q, &off);
        uint64_t visits = wk_place_last_visits(h);
        worst = visits > worst ? visits : worst;
        if (visits > 6ull * height + 4)
            fail_msg("search %d looked at %llu nodes, height %u (bound 6h + 4); seed 0x%llx", i,
                     (ull)visits, height, (ull)test_seed());
        if (s == WK_OK && wk_place_free(h, off) != WK_OK)
            fail_msg("free(0x%llx) failed", (ull)off);
    }
    if (getenv("WK_PLACEMENT_STATS"))
        print_message("search: worst %llu nodes over %llu free ranges, height %u\n", (ull)worst,
                      (ull)ranges, height);
}

/* Two histories that leave the same blocks allocated: after
 * wk_place_rebuild the heaps answer every request alike, with the same
 * search path (last_visits), as the video memory manager's reset relies
 * on. Before it they take different paths, or the test proves nothing. */
static uint64_t probe_pair(struct wk_place_heap *a, struct wk_place_heap *b, int *same)
{
    uint64_t differences = 0;
    *same = 1;
    for (uint64_t size = PAGE; size <= 16 * PAGE; size += 3 * PAGE)
        for (uint64_t align = PAGE; align <= 64 * PAGE; align *= 4)
            for (int top = 0; top < 2; top++) {
                struct wk_place_request r = rq(size, align, 0, 0, top);
                uint64_t oa = NONE, ob = NONE;
                wk_status sa = wk_place_alloc(a, &r, &oa), sb = wk_place_alloc(b, &r, &ob);
                if (sa != sb || oa != ob)
                    *same = 0;
                differences += wk_place_last_visits(a) != wk_place_last_visits(b);
                if (sa == WK_OK)
                    wk_place_free(a, oa);
                if (sb == WK_OK)
                    wk_place_free(b, ob);
            }
    return differences;
}

static void build_history(struct wk_place_heap *h, uint32_t seed, const uint64_t *keep, uint32_t nkeep)
{
    uint64_t offs[96];
    uint32_t n = 0;
    uint64_t x = seed;
    while (n < 96) { /* scattered small blocks, then free all but keep[] */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        struct wk_place_request r = rq(PAGE * (1 + (x >> 60)), PAGE, 0, 0, (int)(x >> 40) & 1);
        if (wk_place_alloc(h, &r, &offs[n]) != WK_OK)
            break;
        n++;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = (uint32_t)((k * 37u + seed) % n); /* 37 is prime to 96: a permutation when n = 96 */
        wk_place_free(h, offs[i]);
    }
    for (uint32_t k = 0; k < nkeep; k++)
        assert_int_equal(wk_place_reserve(h, keep[k], PAGE), WK_OK);
}

static void test_rebuild_forgets_history(void **state)
{
    enum { KEEP = 48 };
    uint64_t keep[KEEP];
    for (uint32_t k = 0; k < KEEP; k++) /* gaps of 1 to 9 pages between kept pages */
        keep[k] = PAGE * (3 + 6 * k + (k * 5) % 4);
    struct wk_place_heap *a = new_heap(state, 4 * MIB), *b = new_heap(state, 4 * MIB);
    build_history(a, 1, keep, KEEP);
    /* b: another history, then the same pages reserved in the other order */
    build_history(b, 5, NULL, 0);
    for (int k = KEEP - 1; k >= 0; k--)
        assert_int_equal(wk_place_reserve(b, keep[k], PAGE), WK_OK);
    struct snap sa = snap_of(a), sb = snap_of(b);
    assert_true(sa.blocks_hash == sb.blocks_hash && sa.free_bytes == sb.free_bytes);
    int same;
    uint64_t before = probe_pair(a, b, &same);
    wk_place_rebuild(a);
    wk_place_rebuild(b);
    HEAP_OK(a);
    HEAP_OK(b);
    uint64_t after = probe_pair(a, b, &same);
    if (!before)
        fail_msg("the two histories gave the same search paths: the test proves nothing");
    if (after || !same)
        fail_msg("after wk_place_rebuild: %llu requests took different paths, results %s", (ull)after,
                 same ? "equal" : "different");
    struct snap ra = snap_of(a);
    assert_int_equal(ra.blocks_hash, sa.blocks_hash);
    assert_int_equal(ra.free_bytes, sa.free_bytes);
    wk_place_rebuild(NULL);
    struct wk_place_heap *empty = new_heap(state, MIB);
    wk_place_rebuild(empty); /* one free range, nothing allocated */
    HEAP_OK(empty);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_create_destroy),
        TEST(test_bottom_up_exact),
        TEST(test_top_down_exact),
        TEST(test_alignment),
        TEST(test_alignment_odd_sizes),
        TEST(test_bank_windows),
        TEST(test_window_edges),
        TEST(test_reserve),
        TEST(test_free_coalesces),
        TEST(test_exhaustion),
        TEST(test_invalid_arguments),
        TEST(test_no_memory),
        TEST(test_iteration_order),
        TEST(test_page_granular_is_exact),
        TEST(test_random_bytes),
        TEST(test_random_pages),
        TEST(test_height_logarithmic),
        TEST(test_search_is_logarithmic),
        TEST(test_rebuild_forgets_history),
    };
    return cmocka_run_group_tests_name("vidmm.placement", tests, NULL, NULL);
}
