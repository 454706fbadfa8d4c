/* SPDX-License-Identifier: MIT */
/*
 * test_cli_options.c - the shared option parser of the command line
 * (cli/cli_options.h): a table into getopt_long's tables, the order
 * options and operands reach the handler, `--` and `--opt=`, missing
 * values, exact long names, numbers at their range's edges, "did you
 * mean", the help layout, and parses that follow each other in one
 * process (getopt's global state reset each time, as fuzz_cli needs);
 * operands after `--` are told apart (`wddmkit fuzz` passes them on).
 */
#define _GNU_SOURCE /* fmemopen, open_memstream */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"

enum { OPT_DRIVER = WK_CLI_LONG_ONLY, OPT_LIST };

static const struct wk_cli_option options[] = {
    { "driver", OPT_DRIVER, WK_CLI_VALUE, "PATH", "the driver" },
    { "jobs", 'j', WK_CLI_VALUE, "N", "in parallel" },
    { "quiet", 'q', WK_CLI_FLAG, NULL, "less output\nsecond line" },
    { NULL, 'o', WK_CLI_VALUE, "OUT", "short only" },
    { "list", OPT_LIST, WK_CLI_FLAG, NULL, "list" },
    { 0 },
};

static const struct wk_cli_command command = { "test cmd", "[options] X...", options, "About it.", "exit: 0" };

/* What the handler saw, one "KEY:SPELLING=VALUE" a line. */
struct seen {
    char text[1024];
    int refuse_key; /* refuse this key (0: none) */
};

static int record(void *ctx, const struct wk_cli_arg *a)
{
    struct seen *s = ctx;
    size_t n = strlen(s->text);
    if (a->key == WK_CLI_OPERAND)
        snprintf(s->text + n, sizeof(s->text) - n, "%s=%s\n", a->after_end ? "after--" : "operand", a->value);
    else
        snprintf(s->text + n, sizeof(s->text) - n, "%d:%s=%s\n", a->key, a->opt, a->value ? a->value : "(flag)");
    return a->key == s->refuse_key ? wk_cli_error(a->cmd, "refused %s", a->opt) : 0;
}

/* Parses the NULL-terminated arguments; the exit code, what was seen. */
static int parse(struct seen *s, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, s);
    for (char *a; argc < 31 && (a = va_arg(ap, char *)) != NULL;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    s->text[0] = '\0';
    return wk_cli_parse(&command, argc, argv, record, s);
}

static void test_tables(void **state)
{
    (void)state;
    struct option longopts[WK_CLI_MAX_OPTIONS + 2];
    char optstring[200];
    assert_int_equal(wk_cli_getopt_tables(options, longopts, optstring, sizeof(optstring)), 0);
    assert_string_equal(optstring, "-:j:qo:h");
    const char *names[] = { "driver", "jobs", "quiet", "list", "help" };
    const int has[] = { required_argument, required_argument, no_argument, no_argument, no_argument };
    const int val[] = { OPT_DRIVER, 'j', 'q', OPT_LIST, 'h' };
    for (int i = 0; i < 5; i++) {
        assert_string_equal(longopts[i].name, names[i]);
        assert_int_equal(longopts[i].has_arg, has[i]);
        assert_int_equal(longopts[i].val, val[i]);
        assert_null(longopts[i].flag);
    }
    assert_null(longopts[5].name);
    assert_int_equal(wk_cli_getopt_tables(options, longopts, optstring, 8), -1); /* no room */
    static struct wk_cli_option many[WK_CLI_MAX_OPTIONS + 2];
    for (int i = 0; i <= WK_CLI_MAX_OPTIONS; i++)
        many[i] = (struct wk_cli_option){ "x", WK_CLI_LONG_ONLY + i, WK_CLI_FLAG, NULL, "" };
    assert_int_equal(wk_cli_getopt_tables(many, longopts, optstring, sizeof(optstring)), -1);
}

static void test_order_and_forms(void **state)
{
    (void)state;
    struct seen s = { .refuse_key = 0 };
    assert_int_equal(parse(&s, "a", "--driver=x.so", "-j4", "b", "--quiet", "-o", "out", "--jobs", "2", "-qj", "3",
                           "--", "-c", "--list", NULL),
                     WK_CLI_CONTINUE);
    char want[512];
    snprintf(want, sizeof(want),
             "operand=a\n%d:--driver=x.so\n106:-j=4\noperand=b\n113:--quiet=(flag)\n111:-o=out\n106:--jobs=2\n"
             "113:-q=(flag)\n106:-j=3\nafter--=-c\nafter--=--list\n",
             OPT_DRIVER);
    assert_string_equal(s.text, want);
    /* "-" alone is an operand (stdin), "--driver --" takes "--" as its value */
    assert_int_equal(parse(&s, "-", "--driver", "--", "--list", NULL), WK_CLI_CONTINUE);
    snprintf(want, sizeof(want), "operand=-\n%d:--driver=--\n%d:--list=(flag)\n", OPT_DRIVER, OPT_LIST);
    assert_string_equal(s.text, want);
}

static void test_usage_errors(void **state)
{
    (void)state;
    struct seen s = { .refuse_key = 0 };
    assert_int_equal(parse(&s, "--driver=", NULL), 2);   /* an empty value */
    assert_int_equal(parse(&s, "--driver", "", NULL), 2);
    assert_int_equal(parse(&s, "a", "--driver", NULL), 2); /* missing value */
    assert_int_equal(parse(&s, "-j", NULL), 2);
    assert_string_equal(s.text, "");
    assert_int_equal(parse(&s, "--driv", "x", NULL), 2); /* no abbreviations */
    assert_int_equal(parse(&s, "--bogus", NULL), 2);
    assert_int_equal(parse(&s, "-Z", NULL), 2);
    assert_int_equal(parse(&s, "--list=1", NULL), 2); /* a flag takes no value */
    assert_int_equal(parse(&s, "-q\x01", NULL), 2);
    s.refuse_key = 'j';
    assert_int_equal(parse(&s, "-q", "-j", "1", "-q", NULL), 2); /* the handler's refusal stops the scan */
    assert_string_equal(s.text, "113:-q=(flag)\n106:-j=1\n");
}

/* Each parse starts over, whatever the last one left in getopt's state:
 * stopped inside a cluster, at help, at an error, or at the end. */
static void test_reentrant(void **state)
{
    (void)state;
    struct seen s = { .refuse_key = 0 };
    for (int round = 0; round < 3; round++) {
        assert_int_equal(parse(&s, "-qZq", NULL), 2); /* stops inside the cluster */
        assert_int_equal(parse(&s, "-q", "x", NULL), WK_CLI_CONTINUE);
        assert_string_equal(s.text, "113:-q=(flag)\noperand=x\n");
        assert_int_equal(parse(&s, "a", "b", "--help", "c", NULL), 0); /* help */
        assert_int_equal(parse(&s, "y", NULL), WK_CLI_CONTINUE);
        assert_string_equal(s.text, "operand=y\n");
        assert_int_equal(parse(&s, NULL), WK_CLI_CONTINUE);
        assert_string_equal(s.text, "");
    }
    /* the caller's argv stays in its order, and argc bounds the scan */
    char *argv[] = { (char *)"a", (char *)"-q", (char *)"b", (char *)"--bogus", NULL };
    s.text[0] = '\0';
    assert_int_equal(wk_cli_parse(&command, 3, argv, record, &s), WK_CLI_CONTINUE);
    assert_string_equal(s.text, "operand=a\n113:-q=(flag)\noperand=b\n");
    assert_string_equal(argv[0], "a");
    assert_string_equal(argv[1], "-q");
    assert_string_equal(argv[2], "b");
}

static int number(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    struct wk_cli_arg a = { &command, 'j', text, "--jobs", 0 };
    return wk_cli_number(&a, min, max, out);
}

static int decimal(const char *text, double min, double max, double *out)
{
    struct wk_cli_arg a = { &command, 't', text, "--timeout", 0 };
    return wk_cli_decimal(&a, min, max, out);
}

static void test_numbers(void **state)
{
    (void)state;
    uint64_t u = 99;
    assert_int_equal(number("1", 1, 256, &u), 0);
    assert_int_equal(u, 1);
    assert_int_equal(number("256", 1, 256, &u), 0);
    assert_int_equal(u, 256);
    assert_int_equal(number("0x10", 0, 256, &u), 0);
    assert_int_equal(u, 16);
    assert_int_equal(number("010", 0, 256, &u), 0); /* decimal, not octal */
    assert_int_equal(u, 10);
    assert_int_equal(number("18446744073709551615", 0, UINT64_MAX, &u), 0);
    assert_true(u == UINT64_MAX);
    u = 7;
    static const char *const bad[] = { "0", "257", "-1", "+1", " 1", "1 ", "", "1e2", "60s", "0x", "0x1g",
                                       "18446744073709551616", "4294967296" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (number(bad[i], 1, 256, &u) != 2)
            fail_msg("'%s' taken as a whole number in 1..256", bad[i]);
    assert_int_equal(u, 7); /* untouched on a refusal */
    double d = 0;
    assert_int_equal(decimal("0.5", 0, 10, &d), 0);
    assert_true(d == 0.5);
    assert_int_equal(decimal("10", 0, 10, &d), 0);
    assert_int_equal(decimal(".25", 0, 10, &d), 0);
    static const char *const bad_d[] = { "10.01", "-1", "nan", "inf", "1e400", "0x1p3", "", "1s", " 1" };
    for (size_t i = 0; i < sizeof(bad_d) / sizeof(bad_d[0]); i++)
        if (decimal(bad_d[i], 0, 10, &d) != 2)
            fail_msg("'%s' taken as a number in 0..10", bad_d[i]);
}

static void test_suggest(void **state)
{
    (void)state;
    static const char *const words[] = { "driver", "jobs", "exclude", "expectations", "conform", "coverage" };
    size_t n = sizeof(words) / sizeof(words[0]);
    assert_string_equal(wk_cli_suggest("jbos", words, n), "jobs");
    assert_string_equal(wk_cli_suggest("driv", words, n), "driver"); /* a unique prefix */
    assert_string_equal(wk_cli_suggest("confrom", words, n), "conform");
    assert_string_equal(wk_cli_suggest("drivers", words, n), "driver");
    assert_null(wk_cli_suggest("ex", words, n)); /* the prefix of two */
    assert_null(wk_cli_suggest("x", words, n));
    assert_null(wk_cli_suggest("", words, n));
    assert_null(wk_cli_suggest("frobnicate", words, n));
    char longer[300];
    memset(longer, 'a', sizeof(longer) - 1);
    longer[sizeof(longer) - 1] = '\0';
    assert_null(wk_cli_suggest(longer, words, n));
}

static void test_help_layout(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    wk_cli_help(&command, f);
    fclose(f);
    assert_string_equal(text, "usage: wddmkit test cmd [options] X...\n"
                              "\n"
                              "About it.\n"
                              "\n"
                              "  --driver PATH         the driver\n"
                              "  -j, --jobs N          in parallel\n"
                              "  -q, --quiet           less output\n"
                              "                        second line\n"
                              "  -o OUT                short only\n"
                              "  --list                list\n"
                              "  -h, --help            print this help and exit\n"
                              "\n"
                              "exit: 0\n");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),       cmocka_unit_test(test_order_and_forms), cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_reentrant),    cmocka_unit_test(test_numbers),         cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_help_layout),
    };
    return cmocka_run_group_tests_name("cli_options", tests, NULL, NULL);
}
