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
    if (!memcmp(a, b, sizeof(*a)))
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
    ALLOC_AT(h, 0x100, 1, 0, 0, 1, 0xF9F00);

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

/* Banks are windows (wddm-facts.md 5.6 B4: a bank hint with a direction). */
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
    for (uint64_t i = 0; i < 8; i++)
        ALLOC_AT(h, 0x2000, 0x2000, 0, 0, i & 1, i & 1 ? 0xE000 - (i / 2) * 0x2000 : (i / 2) * 0x2000);
    ALLOC_FAILS(h, 1, 1, 0, 0, 0, WK_E_NO_SPACE);
    ALLOC_FAILS(h, 1, 1, 0, 0, 1, WK_E_NO_SPACE);
    /* Fragmented: 0x4000 free in total, but no 0x2000 run holds it. */
    FREE(h, 0x2000, WK_OK);
    FREE(h, 0x6000, WK_OK);
    FREE(h, 0xA000, WK_OK);
    FREE(h, 0xE000, WK_OK);
    EXPECT_U64(wk_place_free_bytes(h), 0x8000);
    ALLOC_FAILS(h, 0x2001, 1, 0, 0, 0, WK_E_NO_SPACE);
    ALLOC_FAILS(h, 0x2000, 0x4000, 0, 0, 0, WK_E_NO_SPACE); /* every hole is 0x2000 past a 0x4000 boundary */
    ALLOC_FAILS(h, 0x10001, 1, 0, 0, 0, WK_E_NO_SPACE);     /* larger than the heap */
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
