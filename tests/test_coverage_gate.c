/* SPDX-License-Identifier: MIT */
/*
 * test_coverage_gate.c - fuzz/gate/coverage_gate.c with libFuzzer's counters:
 * what runs while the gate is paused leaves no count, what runs outside it
 * does, and pauses nest; a module loaded at run time (coverage_gate_module.c,
 * as a WK_DRIVER driver) has its counters found from its file and paused
 * too. Built only with clang outside the AFL++ preset
 * (tests/fuzz_driver_tests.cmake); the probe and the module are the
 * instrumented files.
 */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gate/coverage_gate.h"
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

typedef unsigned branches_fn(unsigned);

/* The test module, loaded as fuzz/driver/load.c loads a WK_DRIVER driver. */
static branches_fn *module_branches(void)
{
    void *so = dlopen(WK_COVERAGE_MODULE, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    assert_non_null(so);
    void *sym = dlsym(so, "wk_module_branches");
    assert_non_null(sym);
    branches_fn *fn;
    memcpy(&fn, &sym, sizeof(fn));
    return fn;
}

static void test_module_counters_found_and_paused(void **state)
{
    (void)state;
    branches_fn *fn = module_branches();
    uint8_t *at = NULL;
    size_t len = 0;
    char why[300] = "";
    assert_int_equal(wk_fuzz_module_counters(WK_COVERAGE_MODULE, &at, &len, why, sizeof(why)), 1);
    assert_true(len > 0);
    uint8_t *before = malloc(len);
    assert_non_null(before);
    memcpy(before, at, len);
    sink = fn(12); /* they are the counters: the module's run changes them */
    assert_memory_not_equal(before, at, len);
    assert_int_equal(wk_fuzz_coverage_add_module(WK_COVERAGE_MODULE, why, sizeof(why)), 1);
    memcpy(before, at, len);
    wk_fuzz_coverage_pause();
    sink = fn(30);
    sink = wk_probe_branches(30);
    wk_fuzz_coverage_resume();
    assert_memory_equal(before, at, len);
    sink = fn(31); /* and outside a pause it counts */
    assert_memory_not_equal(before, at, len);
    free(before);
}

static void test_module_without_counters_is_refused(void **state)
{
    (void)state;
    uint8_t *at = NULL;
    size_t len = 0;
    char why[300] = "";
    assert_int_equal(wk_fuzz_module_counters("/nonexistent/driver.so", &at, &len, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "is not loaded"));
    /* loaded, readable, well formed, without counters: the C library */
    assert_int_equal(wk_fuzz_module_counters("libc.so.6", &at, &len, why, sizeof(why)), 0);
    assert_non_null(strstr(why, "no section named __sancov_cntrs"));
    assert_int_equal(wk_fuzz_coverage_add_module("libc.so.6", why, sizeof(why)), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counters_exist),
        cmocka_unit_test(test_unpaused_runs_count),
        cmocka_unit_test(test_paused_runs_leave_no_count),
        cmocka_unit_test(test_pauses_nest),
        cmocka_unit_test(test_module_counters_found_and_paused),
        cmocka_unit_test(test_module_without_counters_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
