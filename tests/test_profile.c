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
 *     placement lists only the fields the check asked for;
 *   - every check is counted by kind (docs/verdicts.md, "Kinds of check"),
 *     run or skipped with the reason of the first skip; not_evaluated is
 *     the choice checks skipped;
 *   - a patch step (a bare DxgkDdiPatch) is a skip in the contract profile,
 *     with WK_STRESS_SKIP_REASON, and runs (and is judged) in the stress
 *     and reference profiles;
 *   - wk_run_options.skip_kinds: a check of a kind left out is skipped,
 *     never failed (the whole suite on the reference driver without its
 *     semantic checks has no failure); an action of a kind left out (a
 *     render step, encoder) makes the case a skip with the reason, its
 *     later checks counted skipped by kind.
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
static void run_case_with(const char *yaml, const struct wk_run_options *o, struct wk_case_result *r)
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
    wk_prog_run(set.progs[0], o, r);
    wk_diag_free(&d);
    wk_spec_set_free(&set);
}

static void run_case(const char *yaml, int contract, struct wk_case_result *r)
{
    struct wk_run_options o = { .contract = contract };
    run_case_with(yaml, &o, r);
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
    /* by kind: 4 actions, placement, violations: contract; the segment
     * layout against the GPU's and the pattern: semantic */
    assert_int_equal(r.checks[WK_CHECK_CONTRACT].run, 6);
    assert_int_equal(r.checks[WK_CHECK_SEMANTIC].run, 2);
    assert_int_equal(r.checks[WK_CHECK_CHOICE].run, 0);
    assert_int_equal(r.checks[WK_CHECK_CHOICE].skipped, r.not_evaluated);
    assert_string_equal(r.skip_reason[WK_CHECK_CHOICE], WK_CHOICE_SKIP_REASON);
    assert_string_equal(r.skip_reason[WK_CHECK_CONTRACT], "");
}

static void test_reference_profile_holds_them(void **state)
{
    (void)state;
    struct wk_case_result r;
    run_case(pinned, 0, &r);
    assert_int_equal(r.verdict, WK_VERDICT_FAIL);
    assert_int_equal(r.not_evaluated, 0);
    /* up to the failed offset: the placement and its offset, run */
    assert_int_equal(r.checks[WK_CHECK_CHOICE].run, 1);
    assert_int_equal(r.checks[WK_CHECK_CHOICE].skipped, 0);
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
        "    describe: Two CreateDevice calls (the start's system device, the case's), five asked for.\n"
        "    steps:\n"
        "      - create_device\n"
        "      - expect_stats: {stat: ddi_calls, ddi: CreateDevice, min: 5}\n";
    struct wk_case_result r;
    run_case(yaml, 0, &r);
    assert_int_equal(r.verdict, WK_VERDICT_FAIL);
    assert_string_equal(r.expected, "ddi_calls DxgkDdiCreateDevice at least 5");
    assert_string_equal(r.seen, "2");
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

/* skip_kinds (wk_run_options): a check of a kind the kit cannot judge is
 * skipped, never failed, and counted with the caller's reason. */
/* A bare Patch whose location lies outside the submission range: the
 * reference driver leaves it alone, so the case passes where it runs. */
static const char *const bare_patch =
    "area: t\n"
    "cases:\n"
    "  - id: t.bare\n"
    "    describe: A bare Patch.\n"
    "    steps:\n"
    "      - create_device\n"
    "      - create_context\n"
    "      - create_allocation: {as: a, size: 4KiB, preferred: [{segment: 1}]}\n"
    "      - page_in: {allocation: a}\n"
    "      - patch:\n"
    "          list: [{allocation: a, resident: true}]\n"
    "          patches: [{allocation_index: 0, patch_offset: 0x100}]\n"
    "          end: 0x40\n"
    "      - expect_stats: {stat: violations, max: 0}\n";

static void test_a_bare_patch_is_stress(void **state)
{
    (void)state;
    struct wk_case_result r;
    struct wk_run_options o = { .contract = 1 };
    run_case_with(bare_patch, &o, &r);
    assert_int_equal(r.verdict, WK_VERDICT_SKIP);
    assert_string_equal(r.seen, WK_STRESS_SKIP_REASON);
    assert_int_equal(r.failed_step, 4);
    assert_int_equal(r.checks[WK_CHECK_CONTRACT].run, 4);     /* the four actions before it */
    assert_int_equal(r.checks[WK_CHECK_CONTRACT].skipped, 2); /* the patch and the violations check */
    o.stress = 1;
    run_case_with(bare_patch, &o, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    assert_int_equal(r.checks[WK_CHECK_CONTRACT].run, 6);
    run_case(bare_patch, 0, &r); /* reference: runs it too */
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
}

static void test_a_skipped_kind_never_fails(void **state)
{
    (void)state;
    static const char *const wrong_data =
        "area: t\n"
        "cases:\n"
        "  - id: t.data\n"
        "    describe: Wrong data, unjudged.\n"
        "    steps:\n"
        "      - create_device\n"
        "      - create_allocation: {as: a, size: 8KiB, preferred: [{segment: 1}]}\n"
        "      - fill: {allocation: a, pattern: 0x12345678}\n"
        "      - expect_pattern: {allocation: a, pattern: 0x87654321}\n"
        "      - expect_bytes: {allocation: a, offset: 0, bytes: \"0102\"}\n"
        "    expect:\n"
        "      - stats: {stat: gpu_faults, max: 0}\n";
    struct wk_run_options o = { .skip_kinds = WK_CHECK_BIT(WK_CHECK_SEMANTIC) };
    o.skip_reason[WK_CHECK_SEMANTIC] = "no command processor for this driver's format";
    struct wk_case_result r;
    run_case_with(wrong_data, &o, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    assert_int_equal(r.checks[WK_CHECK_SEMANTIC].run, 0);
    assert_int_equal(r.checks[WK_CHECK_SEMANTIC].skipped, 4); /* the layout, two data checks, gpu_faults */
    assert_int_equal(r.checks[WK_CHECK_CONTRACT].run, 3);
    assert_string_equal(r.skip_reason[WK_CHECK_SEMANTIC], "no command processor for this driver's format");
    assert_int_equal(r.not_evaluated, 0);
    /* without a reason: a generic one, never an empty one */
    o.skip_reason[WK_CHECK_SEMANTIC] = NULL;
    run_case_with(wrong_data, &o, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    assert_true(r.skip_reason[WK_CHECK_SEMANTIC][0] != 0);
}

/* An action of a skipped kind (a render step: encoder) makes the case a
 * skip with the reason; its later checks are counted skipped by kind. */
static void test_a_skipped_action_skips_the_case(void **state)
{
    (void)state;
    static const char *const yaml =
        "area: t\n"
        "cases:\n"
        "  - id: t.render\n"
        "    describe: A render, then checks of what it did.\n"
        "    steps:\n"
        "      - create_device\n"
        "      - create_context: {as: ctx}\n"
        "      - create_allocation: {as: a, size: 4KiB}\n"
        "      - render: {context: ctx, list: [{allocation: a, write: true}], commands: [{write32: {dst: [0, 0], value: 7}}]}\n"
        "      - wait_idle\n"
        "      - expect_bytes: {allocation: a, offset: 0, bytes: \"07000000\"}\n"
        "      - expect_stats: {stat: render_passes, min: 1, max: 1}\n";
    struct wk_run_options o = { .skip_kinds = WK_CHECK_BIT(WK_CHECK_ENCODER), .contract = 1 };
    o.skip_reason[WK_CHECK_ENCODER] = "the driver does not read the kit's user commands";
    struct wk_case_result r;
    run_case_with(yaml, &o, &r);
    assert_int_equal(r.verdict, WK_VERDICT_SKIP);
    assert_string_equal(r.seen, "the driver does not read the kit's user commands");
    assert_int_equal(r.checks[WK_CHECK_CONTRACT].run, 3);
    assert_int_equal(r.checks[WK_CHECK_ENCODER].run, 0);
    assert_int_equal(r.checks[WK_CHECK_ENCODER].skipped, 1);
    assert_int_equal(r.checks[WK_CHECK_CONTRACT].skipped, 1); /* wait_idle */
    assert_int_equal(r.checks[WK_CHECK_SEMANTIC].skipped, 1);
    assert_string_equal(r.skip_reason[WK_CHECK_SEMANTIC], "the driver does not read the kit's user commands");
    /* a kind left out on its own keeps its own reason */
    assert_int_equal(r.checks[WK_CHECK_CHOICE].skipped, 1);
    assert_string_equal(r.skip_reason[WK_CHECK_CHOICE], WK_CHOICE_SKIP_REASON);
    o.skip_kinds = 0;
    run_case_with(yaml, &o, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    assert_int_equal(r.checks[WK_CHECK_ENCODER].run, 1);
    assert_int_equal(r.checks[WK_CHECK_SEMANTIC].run, 2); /* the layout, the data */
}

/* The whole suite's positive cases on the reference driver (reference
 * profile), a kind left out at a time. In this process, not forked as the
 * runner does: the negative cases that crash or hang the driver leave its
 * adapter dead and its memory held (the kit cannot call a dead driver), so
 * they stay out (LeakSanitizer, asan preset). */
static void run_suite(const struct wk_run_options *o, const char *reason, uint32_t *counts,
                      struct wk_check_count *checks)
{
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 8);
    assert_int_equal(wk_spec_load_dir(&set, WK_SPECS_DIR, &d), WK_OK);
    assert_true(set.count > 100);
    memset(checks, 0, WK_CHECK_KIND_COUNT * sizeof(*checks));
    for (uint32_t i = 0; i < set.count; i++) {
        const struct wk_prog *p = set.progs[i];
        if (p->has_rewrite)
            continue;
        struct wk_case_result r;
        wk_prog_run(p, o, &r);
        if (r.verdict != WK_VERDICT_PASS && r.verdict != WK_VERDICT_SKIP)
            fail_msg("%s: %s: expected %s, seen %s", p->id, wk_verdict_name(r.verdict), r.expected, r.seen);
        counts[r.verdict]++;
        for (int k = 0; k < WK_CHECK_KIND_COUNT; k++) {
            checks[k].run += r.checks[k].run;
            checks[k].skipped += r.checks[k].skipped;
        }
        int renders = 0;
        for (uint32_t j = 0; j < p->step_count; j++)
            renders |= p->steps[j].kind == WK_STEP_RENDER;
        /* a positive case with a render step skips, with the reason */
        if (reason && renders && !p->has_rewrite) {
            /* (or earlier: a context on a node the reference driver has not) */
            if (r.verdict != WK_VERDICT_SKIP ||
                (strcmp(r.seen, reason) != 0 && strncmp(r.seen, "a context on node ", 18) != 0))
                fail_msg("%s: %s (%s), expected a skip: %s", p->id, wk_verdict_name(r.verdict), r.seen, reason);
        }
    }
    wk_diag_free(&d);
    wk_spec_set_free(&set);
}

static void test_the_suite_with_a_kind_left_out(void **state)
{
    (void)state;
    struct wk_check_count checks[WK_CHECK_KIND_COUNT];
    uint32_t counts[WK_VERDICT_COUNT] = { 0 };
    struct wk_run_options o = { .skip_kinds = WK_CHECK_BIT(WK_CHECK_SEMANTIC) };
    o.skip_reason[WK_CHECK_SEMANTIC] = "no command processor";
    run_suite(&o, NULL, counts, checks);
    assert_int_equal(checks[WK_CHECK_SEMANTIC].run, 0);
    assert_true(checks[WK_CHECK_SEMANTIC].skipped > 0);
    assert_true(checks[WK_CHECK_CONTRACT].run > 0);
    assert_true(checks[WK_CHECK_CHOICE].run > 0);
    memset(counts, 0, sizeof(counts));
    o.skip_kinds = WK_CHECK_BIT(WK_CHECK_ENCODER);
    o.skip_reason[WK_CHECK_ENCODER] = "the kit's user commands";
    run_suite(&o, "the kit's user commands", counts, checks);
    assert_int_equal(checks[WK_CHECK_ENCODER].run, 0);
    assert_true(checks[WK_CHECK_ENCODER].skipped > 0);
    assert_true(counts[WK_VERDICT_SKIP] > 0);
    assert_true(counts[WK_VERDICT_PASS] > 0);
}

/* submit_virtual with an operand of 0 bytes (a fuzzed program's; a spec's
 * size is at least 1): asked only where a byte at its address is mapped,
 * since whether a GPU faults on a 0-byte FILL elsewhere is its own
 * (outsider 29's Wren does, the kit's GPU does not). On the reference
 * driver's GpuMmu build, contract profile. */
static void zero_byte_fill_at(uint64_t target, const char *status)
{
    char yaml[1024];
    snprintf(yaml, sizeof(yaml),
             "area: t\n"
             "cases:\n"
             "  - id: t.zero\n"
             "    describe: a FILL of 0 bytes\n"
             "    steps:\n"
             "      - create_device\n"
             "      - create_context: {as: c0, flags: [virtual]}\n"
             "      - create_allocation: {as: cb, size: 4KiB, preferred: [{segment: 1}]}\n"
             "      - create_allocation: {as: a, size: 4KiB, preferred: [{segment: 1}]}\n"
             "      - page_in: {allocation: cb}\n"
             "      - page_in: {allocation: a}\n"
             "      - va_map: {allocation: cb, va: 0x50000000}\n"
             "      - va_map: {allocation: a, va: 0x40000000}\n"
             "      - submit_virtual: {context: c0, buffer: 0x50000000, fill: 0x%llx, size: 4KiB, pattern: 1, "
             "status: %s}\n",
             (unsigned long long)target, status);
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 8);
    assert_int_equal(wk_spec_load_buffer(&set, "t.yaml", (const uint8_t *)yaml, strlen(yaml), &d), WK_OK);
    struct wk_prog *p = (struct wk_prog *)set.progs[0];
    p->steps[p->step_count - 1].size = 0; /* what no spec can say: a fuzzed program's */
    struct wk_run_options o = { .contract = 1, .driver = WK_TEST_GPUMMU_DRIVER };
    struct wk_case_result r;
    wk_prog_run(p, &o, &r);
    if (r.verdict != WK_VERDICT_PASS)
        print_error("a FILL of 0 bytes at 0x%llx: %s, expected %s, saw %s\n", (unsigned long long)target,
                    wk_verdict_name(r.verdict), r.expected, r.seen);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    wk_diag_free(&d);
    wk_spec_set_free(&set);
}

static void test_zero_byte_fill_asked_only_where_mapped(void **state)
{
    (void)state;
    zero_byte_fill_at(0x40000000, "ok");               /* mapped: asked, and it runs */
    zero_byte_fill_at(0x70000000, "invalid_argument"); /* unmapped: the case's mistake */
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
        cmocka_unit_test(test_a_bare_patch_is_stress),
        cmocka_unit_test(test_a_skipped_kind_never_fails),
        cmocka_unit_test(test_a_skipped_action_skips_the_case),
        cmocka_unit_test(test_the_suite_with_a_kind_left_out),
        cmocka_unit_test(test_zero_byte_fill_asked_only_where_mapped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
