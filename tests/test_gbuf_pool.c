/* SPDX-License-Identifier: MIT */
/*
 * test_gbuf_pool.c - the spare-mapping pools of guard.c (internal to
 * wk_vidmm): what a put keeps and refuses (count, size and byte limits),
 * which spare a take returns, and the byte total that puts check against.
 */
#define _GNU_SOURCE /* sigjmp_buf in internal.h */

#include <setjmp.h>
#include <string.h>

#include "internal.h" /* before cmocka.h, whose fail() macro would rename internal.h's fail */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static struct gbuf_pool pool;

static struct gbuf_spare spare(uintptr_t id, uint64_t map_len)
{
    struct gbuf_spare s = { .map = (uint8_t *)id, .map_len = map_len };
    return s;
}

static void test_take_returns_the_last_of_its_size(void **state)
{
    (void)state;
    gbuf_pool_clear(&pool);
    struct gbuf_spare a = spare(1, 8192), b = spare(2, 4096), c = spare(3, 8192);
    assert_true(gbuf_spare_put(&pool, &a));
    assert_true(gbuf_spare_put(&pool, &b));
    assert_true(gbuf_spare_put(&pool, &c));
    assert_int_equal(pool.bytes, 20480);
    assert_ptr_equal(gbuf_spare_take(&pool, 8192).map, (uint8_t *)3);
    assert_ptr_equal(gbuf_spare_take(&pool, 8192).map, (uint8_t *)1);
    assert_null(gbuf_spare_take(&pool, 8192).map);
    assert_int_equal(pool.count, 1);
    assert_int_equal(pool.bytes, 4096);
    gbuf_pool_clear(&pool);
    assert_int_equal(pool.count, 0);
    assert_int_equal(pool.bytes, 0);
}

static void test_put_refuses_past_the_limits(void **state)
{
    (void)state;
    gbuf_pool_clear(&pool);
    struct gbuf_spare big = spare(1, GBUF_SPARE_MAX + 4096);
    assert_false(gbuf_spare_put(&pool, &big));
    /* the byte cap: as many of the largest kept size as fit, then none */
    uint32_t fit = (uint32_t)(GBUF_SPARE_BYTES / GBUF_SPARE_MAX);
    for (uint32_t i = 0; i < fit; i++) {
        struct gbuf_spare s = spare(i + 1, GBUF_SPARE_MAX);
        assert_true(gbuf_spare_put(&pool, &s));
    }
    struct gbuf_spare one_more = spare(999, 4096);
    assert_false(gbuf_spare_put(&pool, &one_more));
    assert_non_null(gbuf_spare_take(&pool, GBUF_SPARE_MAX).map); /* a take makes room again */
    assert_true(gbuf_spare_put(&pool, &one_more));
    /* the count cap */
    gbuf_pool_clear(&pool);
    for (uint32_t i = 0; i < GBUF_SPARES; i++) {
        struct gbuf_spare s = spare(i + 1, 4096);
        assert_true(gbuf_spare_put(&pool, &s));
    }
    assert_false(gbuf_spare_put(&pool, &one_more));
    assert_int_equal(pool.bytes, (uint64_t)GBUF_SPARES * 4096);
}

/* An adapter's spares outlive it (the process-wide pool): the next
 * adapter's buffer of the same size takes the mapping, and it is a fresh
 * buffer to its checks whatever the last user left, also when the two
 * adapters' DDI serials agree (both 0 here: no driver), so that the
 * canary its last check read intact would otherwise be taken as still
 * there. */
static void test_destroyed_adapters_spare_reads_fresh(void **state)
{
    (void)state;
    struct wk_vidmm *a = NULL, *b = NULL;
    struct gbuf g;
    assert_int_equal(wk_vidmm_create(NULL, &a), WK_OK);
    assert_int_equal(gbuf_alloc(a, &g, 100, "test buffer"), WK_OK);
    uint8_t *map = g.map;
    uint64_t data = g.map_len - WK_GPU_PAGE_SIZE; /* the guard page follows */
    memset(g.ptr, 0xEE, 100);
    assert_int_equal(gbuf_check_free(a, &g, WK_DDI_NONE), WK_OK); /* its canary read intact: kept */
    memset(map, 0xEE, data); /* then overwritten, canary and all */
    wk_vidmm_destroy(a);
    assert_int_equal(wk_vidmm_create(NULL, &b), WK_OK);
    assert_int_equal(gbuf_alloc(b, &g, 100, "test buffer"), WK_OK);
    assert_ptr_equal(g.map, map); /* the destroyed adapter's mapping */
    for (int i = 0; i < 100; i++)
        assert_int_equal(g.ptr[i], 0);
    assert_int_equal(gbuf_check(b, &g, WK_DDI_NONE), WK_OK);
    gbuf_free(b, &g);
    wk_vidmm_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take_returns_the_last_of_its_size),
        cmocka_unit_test(test_put_refuses_past_the_limits),
        cmocka_unit_test(test_destroyed_adapters_spare_reads_fresh),
    };
    return cmocka_run_group_tests_name("gbuf_pool", tests, NULL, NULL);
}
