/* SPDX-License-Identifier: MIT */
/*
 * test_profile.c - the contract and reference profiles of the interpreter
 * (conformance/prog/prog_run.c, wk_run_options.contract; docs/conformance.md,
 * "Profiles"), on the built-in reference driver:
 *
 *   - checks that pin the reference driver's own choices (a placement
 *     offset, counts of DDI calls and paging operations, context info
 *     values) fail in the reference profile when wrong, and are counted
 *     as not evaluated, not failed, in the contract profile; the checks of
 *     the contract (a segment, the data, violations) are held in both;
 *   - a case marked `requires: [reference-driver]` and a negative case are
 *     skips in the contract profile, with the reason, and run in the
 *     reference profile;
 *   - a negative case aimed at a call the driver never makes fails in the
 *     reference profile saying that the corruption never applied, not
 *     that the corrupted answer was accepted;
 *   - failure messages name the stat and the bound ("at least 5"), and a
 *     placement lists only the fields the check asked for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conformance.h"

/* Loads one case from YAML text (no error allowed) and runs it. */
static void run_case(const char *yaml, int contract, struct wk_case_result *r)
{
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 8);
    wk_status st = wk_spec_load_buffer(&set, "t.yaml", (const uint8_t *)yaml, strlen(yaml), &d);
    if (st != WK_OK || set.count != 1) {
        for (uint32_t i = 0; i < d.count; i++)
            print_error("%s\n", d.messages[i]);
        fail_msg("the case does not load");
    }
    struct wk_run_options o = { .contract = contract };
    wk_prog_run(set.progs[0], &o, r);
    wk_diag_free(&d);
    wk_spec_set_free(&set);
}

/* Right on the contract, wrong on every choice of the reference driver's. */
static const char *const pinned =
    "area: t\n"
    "cases:\n"
    "  - id: t.pinned\n"
    "    describe: Wrong offsets, counts and context info; right segment and data.\n"
    "    steps:\n"
    "      - create_device\n"
    "      - create_context: {as: ctx}\n"
    "      - create_allocation: {as: a, size: 8KiB, preferred: [{segment: 1}]}\n"
    "      - fill: {allocation: a, pattern: 0x12345678}\n"
    "      - expect_placement: {allocation: a, segment: 1, offset: 0x80000}\n"
    "      - expect_stats: {stat: ddi_calls, ddi: CreateDevice, min: 5}\n"
    "      - expect_stats: {stat: paging_op, op: fill, min: 7, max: 7}\n"
    "      - expect_context_info: {context: ctx, field: dma_buffer_size, value: 4KiB}\n"
    "      - expect_pattern: {allocation: a, pattern: 0x12345678}\n"
    "    expect:\n"
    "      - stats: {stat: violations, max: 0}\n";

static void test_contract_profile_leaves_out_the_reference_choices(void **state)
{
    (void)state;
    struct wk_case_result r;
    run_case(pinned, 1, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    assert_int_equal(r.not_evaluated, 4); /* offset, two stats, context info */
}

static void test_reference_profile_holds_them(void **state)
{
    (void)state;
    struct wk_case_result r;
    run_case(pinned, 0, &r);
    assert_int_equal(r.verdict, WK_VERDICT_FAIL);
    assert_int_equal(r.not_evaluated, 0);
    /* the first wrong check: only the fields it asked for, then the hint is
     * absent (the segment is right) */
    assert_string_equal(r.expected, "segment 1 offset 0x80000");
    assert_non_null(strstr(r.seen, "segment 1 offset 0x"));
    assert_null(strstr(r.seen, "bank"));
    assert_null(strstr(r.seen, "DXGK_ALLOCATIONINFO"));
}

static void test_contract_profile_still_checks_segment_and_data(void **state)
{
    (void)state;
    static const char *const wrong_data =
        "area: t\n"
        "cases:\n"
        "  - id: t.data\n"
        "    describe: The data and the segment are the contract.\n"
        "    steps:\n"
        "      - create_device\n"
        "      - create_allocation: {as: a, size: 8KiB, preferred: [{segment: 1}]}\n"
        "      - fill: {allocation: a, pattern: 0x12345678}\n"
        "      - expect_pattern: {allocation: a, pattern: 0x87654321}\n";
    static const char *const wrong_segment =
        "area: t\n"
        "cases:\n"
        "  - id: t.segment\n"
        "    describe: The segment the request asked for is the contract.\n"
        "    steps:\n"
        "      - create_device\n"
        "      - create_allocation: {as: a, size: 8KiB, preferred: [{segment: 1}]}\n"
        "      - page_in: {allocation: a}\n"
        "      - expect_placement: {allocation: a, segment: 2}\n";
    struct wk_case_result r;
    run_case(wrong_data, 1, &r);
    assert_int_equal(r.verdict, WK_VERDICT_FAIL);
    run_case(wrong_segment, 1, &r);
    assert_int_equal(r.verdict, WK_VERDICT_FAIL);
    assert_string_equal(r.expected, "segment 2");
    assert_non_null(strstr(r.seen, "segment 1 (placed as the driver's DXGK_ALLOCATIONINFO asked"));
}

static void test_stat_messages_name_the_stat(void **state)
{
    (void)state;
    static const char *const yaml =
        "area: t\n"
        "cases:\n"
        "  - id: t.stat\n"
        "    describe: One CreateDevice call, five asked for.\n"
        "    steps:\n"
        "      - create_device\n"
        "      - expect_stats: {stat: ddi_calls, ddi: CreateDevice, min: 5}\n";
    struct wk_case_result r;
    run_case(yaml, 0, &r);
    assert_int_equal(r.verdict, WK_VERDICT_FAIL);
    assert_string_equal(r.expected, "ddi_calls DxgkDdiCreateDevice at least 5");
    assert_string_equal(r.seen, "1");
}

static void test_reference_driver_cases_skip_in_the_contract_profile(void **state)
{
    (void)state;
    static const char *const yaml =
        "area: t\n"
        "cases:\n"
        "  - id: t.ref\n"
        "    describe: Pins the reference driver's context allocations.\n"
        "    requires: [reference-driver]\n"
        "    steps:\n"
        "      - create_device\n"
        "      - expect_stats: {stat: ddi_calls, ddi: DxgkCbCreateContextAllocation, min: 1, max: 1}\n";
    struct wk_case_result r;
    run_case(yaml, 1, &r);
    assert_int_equal(r.verdict, WK_VERDICT_SKIP);
    assert_non_null(strstr(r.seen, "requires: reference-driver"));
    run_case(yaml, 0, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
}

static void test_negative_cases_skip_in_the_contract_profile(void **state)
{
    (void)state;
    static const char *const yaml =
        "area: t\n"
        "cases:\n"
        "  - id: t.neg\n"
        "    describe: A failed BuildPagingBuffer is flagged (the adapter lives on, so nothing leaks here).\n"
        "    trips: PAGING-STATUS-001\n"
        "    rewrite: {mutation: paging-fails, call: 1}\n"
        "    steps:\n"
        "      - create_device\n";
    struct wk_case_result r;
    run_case(yaml, 1, &r);
    assert_int_equal(r.verdict, WK_VERDICT_SKIP);
    assert_non_null(strstr(r.seen, "a negative case"));
    run_case(yaml, 0, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
}

static void test_a_corruption_that_never_applied_says_so(void **state)
{
    (void)state;
    static const char *const yaml =
        "area: t\n"
        "cases:\n"
        "  - id: t.missed\n"
        "    describe: Aims at a BuildPagingBuffer call that never comes.\n"
        "    trips: MEM-GUARD-001\n"
        "    rewrite: {mutation: paging-write-past-end, call: 99}\n"
        "    steps:\n"
        "      - create_device\n";
    struct wk_case_result r;
    run_case(yaml, 0, &r);
    assert_int_equal(r.verdict, WK_VERDICT_FAIL);
    assert_non_null(strstr(r.seen, "the corruption paging-write-past-end never applied: "));
    assert_non_null(strstr(r.seen, " DxgkDdiBuildPagingBuffer call"));
    assert_non_null(strstr(r.seen, ", it corrupts call 99"));
    assert_null(strstr(r.seen, "accepted"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contract_profile_leaves_out_the_reference_choices),
        cmocka_unit_test(test_reference_profile_holds_them),
        cmocka_unit_test(test_contract_profile_still_checks_segment_and_data),
        cmocka_unit_test(test_stat_messages_name_the_stat),
        cmocka_unit_test(test_reference_driver_cases_skip_in_the_contract_profile),
        cmocka_unit_test(test_negative_cases_skip_in_the_contract_profile),
        cmocka_unit_test(test_a_corruption_that_never_applied_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
