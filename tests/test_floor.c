/* SPDX-License-Identifier: MIT */
/*
 * test_floor.c - the floor's counters (reference-impl/vidmm/floor.c, built
 * here with WK_FLOOR_TIMING as the bench-floor preset builds it): only the
 * outermost interval counts, each under its kind; a crash that jumps out of
 * nested intervals leaves the depth at zero; a kit callback's time is out of
 * the interval it runs in; reset clears the sums.
 */
#include "internal.h" /* before cmocka.h, whose fail() macro would hit its fail() */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

static void spin(void)
{
    for (volatile int i = 0; i < 20000; i++)
        ;
}

static void test_outermost_interval_counts_once(void **state)
{
    (void)state;
    wk_floor_reset();
    assert_true(wk_floor_enabled());
    floor_begin();
    spin();
    floor_begin(); /* a GPU run inside a DDI call: the driver's interval */
    spin();
    floor_end(FLOOR_GPU);
    floor_end(FLOOR_DRIVER);
    floor_begin();
    spin();
    floor_end(FLOOR_GPU);
    struct wk_floor f;
    wk_floor_read(&f);
    assert_int_equal(f.driver_calls, 1);
    assert_int_equal(f.gpu_runs, 1);
    assert_true(f.driver_ns > 0);
    assert_true(f.gpu_ns > 0);
}

static void test_unwind_closes_nested_intervals(void **state)
{
    (void)state;
    wk_floor_reset();
    floor_begin();
    floor_begin();
    floor_begin();
    floor_unwind(); /* a crash jumped out of all three */
    floor_end(FLOOR_DRIVER); /* an outer frame's end finds nothing open */
    floor_begin();
    floor_end(FLOOR_GPU); /* and the next interval is an outermost one */
    struct wk_floor f;
    wk_floor_read(&f);
    assert_int_equal(f.driver_calls, 1);
    assert_int_equal(f.gpu_runs, 1);
}

static uint64_t mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A kit callback inside a DDI call: its time is out of the interval. */
static void callback(void)
{
    FLOOR_CALLBACK();
    uint64_t until = mono() + 20000000u; /* 20 ms */
    while (mono() < until)
        ;
}

static void test_callback_time_is_out_of_the_floor(void **state)
{
    (void)state;
    wk_floor_reset();
    floor_begin();
    callback();
    floor_end(FLOOR_DRIVER);
    callback(); /* outside any interval: nothing to take out */
    struct wk_floor f;
    wk_floor_read(&f);
    assert_int_equal(f.driver_calls, 1);
    assert_int_equal(f.callbacks, 1);
    assert_true(f.driver_ns < 10000000u); /* the 20 ms of the callback are not in it */
}

static void test_reset_clears(void **state)
{
    (void)state;
    floor_begin();
    floor_end(FLOOR_DRIVER);
    wk_floor_reset();
    struct wk_floor f;
    wk_floor_read(&f);
    assert_int_equal(f.driver_calls + f.gpu_runs + f.driver_ns + f.gpu_ns, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outermost_interval_counts_once),
        cmocka_unit_test(test_unwind_closes_nested_intervals),
        cmocka_unit_test(test_callback_time_is_out_of_the_floor),
        cmocka_unit_test(test_reset_clears),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
