/* SPDX-License-Identifier: MIT */
/*
 * test_crash_driver_log.c - the fold of the runs' stderr that minimize and
 * promote print (fuzz/crash/driver_log.c): each distinct line once, in the
 * order lines first came, with how often and in how many runs when it came
 * again; a line of every run reads "(repeated in N runs)". Nothing is
 * dropped without saying so: past the distinct lines kept, and past a
 * run's bytes kept, a line counts what was not kept.
 */
#define _GNU_SOURCE /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crash/crash_internal.h"

static void take(struct wk_log_fold *f, const char *text)
{
    wk_log_fold_run(f, text, strlen(text), 0);
}

/* The fold as printed (malloc'd). */
static char *printed(const struct wk_log_fold *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    assert_non_null(m);
    wk_log_fold_print(f, m);
    assert_int_equal(fclose(m), 0);
    return text;
}

static void expect_printed(const struct wk_log_fold *f, const char *want)
{
    char *got = printed(f);
    assert_string_equal(got, want);
    free(got);
}

/* The outside user's case: one line in each of 19 runs. */
static void line_of_every_run(void **state)
{
    (void)state;
    struct wk_log_fold f = { 0 };
    for (int i = 0; i < 19; i++)
        take(&f, "[driver] refdriver: CreateAllocation: allocation 0 rejected (0xc000000d)\n");
    assert_int_equal(f.runs, 19);
    expect_printed(&f, "[driver] refdriver: CreateAllocation: allocation 0 rejected (0xc000000d) (repeated in 19 runs)\n");
    wk_log_fold_free(&f);
}

/* Lines in the order they first came; a line once has no counts; a line
 * several times in a run says how often in how many runs; a last line
 * without its newline is a line; empty lines and a CR before the newline
 * are not text. Runs that print nothing count as runs. */
static void counts_and_order(void **state)
{
    (void)state;
    struct wk_log_fold f = { 0 };
    take(&f, "[driver] a\n[driver] b\n");
    take(&f, "");
    take(&f, "[driver] a\r\n\n[driver] c");
    take(&f, "[driver] a\n[driver] a\n");
    assert_int_equal(f.runs, 4);
    expect_printed(&f, "[driver] a (4 times in 3 runs)\n"
                       "[driver] b\n"
                       "[driver] c\n");
    wk_log_fold_free(&f);
    take(&f, "[driver] x\n[driver] x\n[driver] x\n");
    expect_printed(&f, "[driver] x (3 times in 1 run)\n");
    assert_true(!wk_log_fold_empty(&f));
    wk_log_fold_free(&f);
    assert_true(wk_log_fold_empty(&f));
}

/* Past the distinct lines kept, the rest is counted, not dropped
 * silently; so are the bytes of a run past what is kept of it. */
static void limits_said(void **state)
{
    (void)state;
    struct wk_log_fold f = { 0 };
    char line[64];
    for (int i = 0; i < 600; i++) {
        snprintf(line, sizeof(line), "[driver] line %d\n", i);
        take(&f, line);
    }
    wk_log_fold_run(&f, "[driver] line 0\n", 16, 5000);
    char *got = printed(&f);
    assert_non_null(strstr(got, "[driver] line 0 (repeated in 2 runs)\n"));
    assert_non_null(strstr(got, "[driver] line 511\n"));
    assert_null(strstr(got, "[driver] line 512\n"));
    assert_non_null(strstr(got, "(88 more lines, past 512 distinct ones, not kept)\n"));
    assert_non_null(strstr(got, "(5000 bytes past the first 64 KiB of a run's output not kept)\n"));
    free(got);
    wk_log_fold_free(&f);
}

/* A very long line is kept in part, and printed saying so; two that
 * differ only past that part fold into one. */
static void long_lines(void **state)
{
    (void)state;
    struct wk_log_fold f = { 0 };
    static char a[3000], b[3000];
    memset(a, 'x', 2500);
    memcpy(b, a, 2500);
    a[2500] = 'A';
    b[2500] = 'B';
    take(&f, a);
    take(&f, b);
    assert_int_equal(f.count, 1);
    assert_int_equal(f.lines[0].runs, 2);
    assert_true(strlen(f.lines[0].text) < 2500);
    char *got = printed(&f);
    assert_non_null(strstr(got, "xxx [...] (repeated in 2 runs)\n"));
    free(got);
    wk_log_fold_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_of_every_run),
        cmocka_unit_test(counts_and_order),
        cmocka_unit_test(limits_said),
        cmocka_unit_test(long_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
