/* SPDX-License-Identifier: MIT */
/*
 * test_leak_gate.c - fuzz/gate/leak_gate.c: which inputs it suspects (more
 * blocks left than freed, a driver's pool blocks not counted) and that its
 * LeakSanitizer check finds a block nothing points to but not one a cache
 * keeps. With a sanitizer runtime (the asan preset, in CI) every case runs;
 * without one the gate must say so and suspect nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gate/leak_gate.h"
#include "wddmkit/km.h"

#define POOL_TAG 0x6B61656Cu /* "leak" */

/* A kit's cache: what it points to is reachable. */
static void *cache;

/* What the gate would leave out of the count: a block of a driver's pool,
 * allocated as a driver does (km.h). */
static void *driver_pool_block(void)
{
    return ExAllocatePoolWithTag(NonPagedPoolNx, 100, POOL_TAG);
}

/* Skips the case without a sanitizer runtime, after checking the gate
 * does nothing there. */
static int need_runtime(void)
{
    if (wk_leak_gate_available())
        return 1;
    wk_leak_gate_begin();
    void *volatile p = malloc(32);
    assert_int_equal(wk_leak_gate_suspect(), 0);
    free(p);
    return 0;
}

static void test_balanced_input_is_not_suspect(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    wk_leak_gate_begin();
    void *volatile a = malloc(100), *volatile b = calloc(3, 40);
    free(a);
    free(b);
    assert_int_equal(wk_leak_gate_suspect(), 0);
}

static void test_driver_pool_left_live_is_not_suspect(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    wk_leak_gate_begin();
    void *pool = driver_pool_block(), *other = driver_pool_block();
    assert_non_null(pool);
    assert_non_null(other);
    ExFreePoolWithTag(other, POOL_TAG);
    assert_int_equal(wk_leak_gate_suspect(), 0);
    ExFreePoolWithTag(pool, POOL_TAG);
}

/* Pool blocks allocated and freed within the input, one pool block left
 * and one of the kit's left: the kit's is still seen (the freed ones leave
 * removed slots in the gate's table, which later blocks may take). */
static void test_kit_block_seen_among_pool_blocks(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    wk_leak_gate_begin();
    for (int i = 0; i < 4; i++)
        ExFreePoolWithTag(driver_pool_block(), POOL_TAG);
    void *pool = driver_pool_block();
    cache = malloc(24); /* the kit's, left */
    assert_int_equal(wk_leak_gate_suspect(), 1);
    ExFreePoolWithTag(pool, POOL_TAG);
    free(cache);
    cache = NULL;
}

/* A block whose first bytes look like a pool header but whose size does
 * not match its own is the kit's, and counts. */
static void test_pool_look_alike_counts(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    wk_leak_gate_begin();
    wk_km_pool_header *h = malloc(sizeof(*h) + 64);
    assert_non_null(h);
    memset(h, 0, sizeof(*h));
    h->wk_magic = WK_KM_POOL_NONPAGED;
    h->wk_size = 8; /* not the 64 bytes behind it */
    assert_int_equal(wk_leak_gate_suspect(), 1);
    free(h);
}

/* A block freed from before the input pays for one the input keeps: a
 * cache replacing its entry is not suspect. */

static void test_replaced_cache_entry_is_not_suspect(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    cache = malloc(24);
    wk_leak_gate_begin();
    free(cache);
    cache = malloc(24);
    assert_int_equal(wk_leak_gate_suspect(), 0);
    free(cache);
    cache = NULL;
}

/* A new cache entry is suspect, and LeakSanitizer clears it: it is
 * reachable. */
static void test_reachable_block_is_no_leak(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    wk_leak_gate_begin();
    cache = malloc(24);
    assert_int_equal(wk_leak_gate_end(), 0);
    free(cache);
    cache = NULL;
}

/* A block nothing points to is found: its address is kept complemented
 * here, where LeakSanitizer does not take it for a pointer, and the block
 * is freed after the check so that the test itself leaks nothing. */
static uintptr_t hidden;

static void __attribute__((noinline)) leak_one(void)
{
    char *volatile p = malloc(48);
    p[0] = 1;
    hidden = ~(uintptr_t)p;
}

static void test_unreachable_block_is_a_leak(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    wk_leak_gate_begin();
    leak_one();
    assert_int_equal(wk_leak_gate_end(), 1);
    free((void *)~hidden);
    hidden = 0;
}

/* More live blocks than the gate follows: suspect, whatever they are. */
static void test_too_many_live_blocks_are_suspect(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    enum { N = 40000 };
    void **keep = malloc(N * sizeof(*keep));
    assert_non_null(keep);
    wk_leak_gate_begin();
    for (int i = 0; i < N; i++)
        keep[i] = driver_pool_block();
    assert_int_equal(wk_leak_gate_suspect(), 1);
    for (int i = 0; i < N; i++)
        ExFreePoolWithTag(keep[i], POOL_TAG);
    free(keep);
}

/* What happens between two inputs is neither's. */
static void test_counts_after_end_do_not_carry_over(void **state)
{
    (void)state;
    if (!need_runtime())
        skip();
    wk_leak_gate_begin();
    cache = malloc(16);
    assert_int_equal(wk_leak_gate_suspect(), 1);
    void *volatile after = malloc(16); /* not counted: the gate is stopped */
    wk_leak_gate_begin();
    free(cache);
    cache = NULL;
    free(after);
    assert_int_equal(wk_leak_gate_suspect(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_balanced_input_is_not_suspect),
        cmocka_unit_test(test_driver_pool_left_live_is_not_suspect),
        cmocka_unit_test(test_pool_look_alike_counts),
        cmocka_unit_test(test_kit_block_seen_among_pool_blocks),
        cmocka_unit_test(test_replaced_cache_entry_is_not_suspect),
        cmocka_unit_test(test_reachable_block_is_no_leak),
        cmocka_unit_test(test_unreachable_block_is_a_leak),
        cmocka_unit_test(test_too_many_live_blocks_are_suspect),
        cmocka_unit_test(test_counts_after_end_do_not_carry_over),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
