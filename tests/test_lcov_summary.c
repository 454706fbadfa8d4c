/* SPDX-License-Identifier: MIT */
/*
 * test_lcov_summary.c - the summary `wddmkit coverage` prints of an lcov
 * tracefile (fuzz/tools/lcov_summary.c): rows, totals, the never-run
 * list, a header's inline function counted once per file, and input that
 * is not well formed.
 */
#define _GNU_SOURCE /* fmemopen, open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/lcov_summary.h"

struct outputs {
    char *rows, *never;
    size_t rows_len, never_len;
};

static int summarize(const char *text, size_t len, struct outputs *o, struct wk_lcov_totals *t)
{
    FILE *in = fmemopen((void *)text, len, "r");
    FILE *rows = open_memstream(&o->rows, &o->rows_len);
    FILE *never = open_memstream(&o->never, &o->never_len);
    assert_non_null(in);
    assert_non_null(rows);
    assert_non_null(never);
    int rc = wk_lcov_summarize(in, rows, never, t);
    fclose(in);
    fclose(rows);
    fclose(never);
    return rc;
}

static void free_outputs(struct outputs *o)
{
    free(o->rows);
    free(o->never);
}

/* Two files as llvm-cov writes them: a driver source with a static
 * function never run, and a header whose static inline function appears
 * once per including unit (run in one of them, never in the other) and
 * one that never ran in either. */
static const char two_files[] =
    "SF:/src/drv.c\n"
    "FN:10,DriverEntry\n"
    "FN:20,drv.c:render\n"
    "FN:30,drv.c:cancel\n"
    "FNDA:1,DriverEntry\n"
    "FNDA:7,drv.c:render\n"
    "FNDA:0,drv.c:cancel\n"
    "FNF:3\n"
    "FNH:2\n"
    "DA:10,1\n"
    "LF:40\n"
    "LH:30\n"
    "end_of_record\n"
    "SF:/src/include/wddmkit/km.h\n"
    "FN:5,drv.c:RtlZeroMemory\n"
    "FN:5,other.c:RtlZeroMemory\n"
    "FN:9,drv.c:KeBugCheck\n"
    "FN:9,other.c:KeBugCheck\n"
    "FNDA:0,drv.c:RtlZeroMemory\n"
    "FNDA:3,other.c:RtlZeroMemory\n"
    "FNDA:0,drv.c:KeBugCheck\n"
    "FNDA:0,other.c:KeBugCheck\n"
    "FNF:4\n"
    "FNH:1\n"
    "LF:10\n"
    "LH:4\n"
    "end_of_record\n";

static void test_rows_totals_and_never_run(void **state)
{
    (void)state;
    struct outputs o = { 0 };
    struct wk_lcov_totals t;
    assert_int_equal(summarize(two_files, sizeof(two_files) - 1, &o, &t), 0);
    assert_int_equal(t.files, 2);
    assert_int_equal(t.lines, 50);
    assert_int_equal(t.lines_hit, 34);
    assert_int_equal(t.fns, 5);     /* 3 of drv.c, 2 of km.h: each inline function once */
    assert_int_equal(t.fns_hit, 3); /* RtlZeroMemory ran in other.c */
    assert_int_equal(t.never_run, 2);
    assert_non_null(strstr(o.rows, " 75.00%     30/40    lines     2/3    functions  /src/drv.c\n"));
    assert_non_null(strstr(o.rows, " 40.00%      4/10    lines     1/2    functions  /src/include/wddmkit/km.h\n"));
    assert_string_equal(o.never, "cancel\t/src/drv.c:30\nKeBugCheck\t/src/include/wddmkit/km.h:9\n");
    free_outputs(&o);
}

/* Without FN lines the record's FNF and FNH stand; a file with no lines
 * is at 100%. */
static void test_counts_without_functions(void **state)
{
    (void)state;
    static const char text[] = "SF:a.h\nFNF:0\nFNH:0\nLF:0\nLH:0\nend_of_record\nSF:b.c\nFNF:4\nFNH:1\nLF:8\nLH:2\nend_of_record\n";
    struct outputs o = { 0 };
    struct wk_lcov_totals t;
    assert_int_equal(summarize(text, sizeof(text) - 1, &o, &t), 0);
    assert_int_equal(t.files, 2);
    assert_int_equal(t.fns, 4);
    assert_int_equal(t.fns_hit, 1);
    assert_non_null(strstr(o.rows, "100.00%      0/0     lines     0/0    functions  a.h\n"));
    assert_non_null(strstr(o.rows, " 25.00%      2/8     lines     1/4    functions  b.c\n"));
    assert_int_equal(o.never_len, 0);
    free_outputs(&o);
}

/* Not a tracefile, cut lines, CRLF, a name longer than any buffer, bytes
 * that are not text: no crash, no record invented, long names cut. */
static void test_bad_input(void **state)
{
    (void)state;
    size_t long_len = 100000;
    char *text = malloc(long_len + 5000 + 512);
    assert_non_null(text);
    int n = sprintf(text, "garbage\nFN:\nFNDA:x\nFN:12\nFNDA:5,\nLH:zz\r\nSF:");
    memset(text + n, 'f', long_len);
    n += (int)long_len;
    n += sprintf(text + n, "\r\nFN:3,");
    memset(text + n, 'g', 5000);
    n += 5000;
    n += sprintf(text + n, "\nFNDA:0,%s\nLF:2\nLH:1\nend_of_record\nSF:after\n\xff\xfe\x01", "g");
    struct outputs o = { 0 };
    struct wk_lcov_totals t;
    assert_int_equal(summarize(text, (size_t)n, &o, &t), 0);
    assert_int_equal(t.files, 1);       /* the record without end_of_record is not counted */
    assert_int_equal(t.lines, 2);
    assert_int_equal(t.fns, 2);         /* the long name (cut) and "g" */
    assert_int_equal(t.never_run, 2);
    assert_true(strlen(o.rows) < 1024); /* the file name was cut */
    free_outputs(&o);
    free(text);

    struct outputs e = { 0 };
    assert_int_equal(summarize("", 0, &e, &t), 0);
    assert_int_equal(t.files, 0);
    assert_int_equal(e.rows_len, 0);
    free_outputs(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_totals_and_never_run),
        cmocka_unit_test(test_counts_without_functions),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
