/* SPDX-License-Identifier: MIT */
/*
 * test_placement_request.c - the encoder sub-check that a driver kept a
 * request's placement fields (conformance/prog/placement_request.c): each
 * way a driver can lose or invent an entry is told, with the entry; the
 * ways the format allows (leaving out an entry invalid for the driver)
 * pass. The cases mirror the mutants of the reference driver's
 * restrict_preference and restrict_banks that survived the suite.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "conformance.h"

/* D3DDDI_SEGMENTPREFERENCE of up to five (id, top_down) entries. */
static uint32_t segs(int n, const uint32_t *ids, const int *top)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (ids[i] | (uint32_t)(top[i] ? 1 : 0) << 5) << (6 * i);
    return v;
}

/* DXGK_SEGMENTBANKPREFERENCE of up to four (bank, top_down) entries. */
static uint32_t banks(int n, const uint32_t *ids, const int *top)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (ids[i] | (uint32_t)(top[i] ? 1 : 0) << 7) << (8 * i);
    return v;
}

#define ALL4 0xFu /* segments 1..4 supported */

/* The request: 1, 5 (unsupported), 2 top, 3 top, 4. */
static const uint32_t req_ids[5] = { 1, 5, 2, 3, 4 };
static const int req_top[5] = { 0, 1, 1, 1, 0 };

static void test_kept_without_the_invalid_entry(void **state)
{
    (void)state;
    char why[192] = "";
    const uint32_t ids[4] = { 1, 2, 3, 4 };
    const int top[4] = { 0, 1, 1, 0 };
    assert_true(wk_preference_kept(segs(5, req_ids, req_top), segs(4, ids, top), ALL4, why, sizeof(why)));
    /* all five kept when all are supported */
    assert_true(wk_preference_kept(segs(5, req_ids, req_top), segs(5, req_ids, req_top), 0x1Fu, why, sizeof(why)));
    /* nothing asked, nothing listed */
    assert_true(wk_preference_kept(0, 0, ALL4, why, sizeof(why)));
}

static void test_direction_from_the_next_slot(void **state)
{
    (void)state; /* Direction3 read as Direction4: segment 3 bottom-up */
    char why[192] = "";
    const uint32_t ids[4] = { 1, 2, 3, 4 };
    const int top[4] = { 0, 1, 0, 0 };
    assert_false(wk_preference_kept(segs(5, req_ids, req_top), segs(4, ids, top), ALL4, why, sizeof(why)));
    assert_non_null(strstr(why, "slot 2 lists segment 3: the request's entry 3 has the other direction"));
}

static void test_valid_entry_left_out(void **state)
{
    (void)state; /* the fourth kept entry written past an empty slot: read as 1, 2, 3 */
    char why[192] = "";
    const uint32_t ids[3] = { 1, 2, 3 };
    const int top[3] = { 0, 1, 1 };
    assert_false(wk_preference_kept(segs(5, req_ids, req_top), segs(3, ids, top), ALL4, why, sizeof(why)));
    assert_non_null(strstr(why, "the request's segment 4 (its entry 4), valid here, is left out"));
    /* an entry in the middle left out */
    const uint32_t mid[3] = { 1, 3, 4 };
    const int mid_top[3] = { 0, 1, 0 };
    assert_false(wk_preference_kept(segs(5, req_ids, req_top), segs(3, mid, mid_top), ALL4, why, sizeof(why)));
    assert_non_null(strstr(why, "segment 2 top-down (its entry 2)"));
}

static void test_entry_listed_twice_or_reordered(void **state)
{
    (void)state;
    char why[192] = "";
    const uint32_t twice[5] = { 1, 2, 3, 4, 4 };
    const int top[5] = { 0, 1, 1, 0, 0 };
    assert_false(wk_preference_kept(segs(5, req_ids, req_top), segs(5, twice, top), ALL4, why, sizeof(why)));
    assert_non_null(strstr(why, "slot 4 lists segment 4"));
    const uint32_t swapped[4] = { 2, 1, 3, 4 };
    const int swapped_top[4] = { 1, 0, 1, 0 };
    assert_false(wk_preference_kept(segs(5, req_ids, req_top), segs(4, swapped, swapped_top), ALL4, why, sizeof(why)));
}

static void test_banks(void **state)
{
    (void)state;
    char why[192] = "";
    const uint32_t req[4] = { 2, 1, 4, 3 };
    const int req_t[4] = { 1, 0, 1, 0 };
    assert_true(wk_banks_kept(banks(4, req, req_t), banks(4, req, req_t), 4, why, sizeof(why)));
    /* the fourth hint dropped */
    assert_false(wk_banks_kept(banks(4, req, req_t), banks(3, req, req_t), 4, why, sizeof(why)));
    assert_non_null(strstr(why, "the request's bank 3 (its entry 3), valid here, is left out"));
    /* a bank the segment lacks may be left out, and only that one */
    const uint32_t kept3[3] = { 2, 1, 3 };
    const int kept3_t[3] = { 1, 0, 0 };
    assert_true(wk_banks_kept(banks(4, req, req_t), banks(3, kept3, kept3_t), 3, why, sizeof(why)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_without_the_invalid_entry),
        cmocka_unit_test(test_direction_from_the_next_slot),
        cmocka_unit_test(test_valid_entry_left_out),
        cmocka_unit_test(test_entry_listed_twice_or_reordered),
        cmocka_unit_test(test_banks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
