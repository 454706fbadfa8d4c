/*
 * test_coverage_gate.c - fuzz/coverage_gate.c with libFuzzer's counters:
 * what runs while the gate is paused leaves no count, what runs outside it
 * does, and pauses nest. Built only with clang outside the AFL++ preset
 * (tests/fuzz_driver_tests.cmake); the probe is the one instrumented file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coverage_gate.h"
#include "coverage_gate_probe.h"

extern uint8_t __start___sancov_cntrs[];
extern uint8_t __stop___sancov_cntrs[];

static size_t count(void)
{
    return (size_t)((uintptr_t)__stop___sancov_cntrs - (uintptr_t)__start___sancov_cntrs);
}

static uint8_t *snapshot(void)
{
    uint8_t *s = malloc(count());
    assert_non_null(s);
    memcpy(s, __start___sancov_cntrs, count());
    return s;
}

static int unchanged_since(const uint8_t *s)
{
    return memcmp(s, __start___sancov_cntrs, count()) == 0;
}

static volatile unsigned sink;

static void test_counters_exist(void **state)
{
    (void)state;
    assert_true(count() > 0);
    assert_int_equal(wk_fuzz_coverage_gate_kind(), 2);
}

static void test_unpaused_runs_count(void **state)
{
    (void)state;
    uint8_t *before = snapshot();
    sink = wk_probe_branches(10);
    assert_false(unchanged_since(before));
    free(before);
}

static void test_paused_runs_leave_no_count(void **state)
{
    (void)state;
    sink = wk_probe_branches(5); /* counts from before the pause are kept */
    uint8_t *before = snapshot();
    wk_fuzz_coverage_pause();
    sink = wk_probe_branches(40);
    wk_fuzz_coverage_resume();
    assert_true(unchanged_since(before));
    free(before);
}

static void test_pauses_nest(void **state)
{
    (void)state;
    uint8_t *before = snapshot();
    wk_fuzz_coverage_pause();
    wk_fuzz_coverage_pause();
    sink = wk_probe_branches(7);
    wk_fuzz_coverage_resume(); /* the inner one: still paused */
    sink = wk_probe_branches(9);
    wk_fuzz_coverage_resume();
    assert_true(unchanged_since(before));
    wk_fuzz_coverage_resume(); /* unbalanced: ignored, and counting goes on */
    sink = wk_probe_branches(11);
    assert_false(unchanged_since(before));
    free(before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counters_exist),
        cmocka_unit_test(test_unpaused_runs_count),
        cmocka_unit_test(test_paused_runs_leave_no_count),
        cmocka_unit_test(test_pauses_nest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
