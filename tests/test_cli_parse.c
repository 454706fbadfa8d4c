/* SPDX-License-Identifier: MIT */
/*
 * test_cli_parse.c - the command line in parse-only mode (cli.h,
 * wk_cli_parse_only), which the fuzz_cli harness runs: every committed
 * seed of fuzz_cli is a command line each parser accepts; usage errors
 * still return 2; and parsing acts on nothing (no folder made, no file
 * read or written, no process started).
 */
#define _GNU_SOURCE /* mkdtemp */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Runs `wddmkit` with the NUL-separated arguments of text[0, n), quietly. */
static int run_args(char *text, size_t n)
{
    char *argv[40];
    int argc = wk_cli_split_args(text, n, argv, 38);
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2);
    FILE *null = fopen("/dev/null", "w");
    dup2(fileno(null), 1);
    dup2(fileno(null), 2);
    int rc = wk_cli_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(err, 2);
    close(out);
    close(err);
    fclose(null);
    return rc;
}

static int run_line(const char *first, ...)
{
    static char text[4096];
    size_t n = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a; a = va_arg(ap, const char *)) {
        size_t len = strlen(a);
        assert_true(n + len + 1 < sizeof(text));
        memcpy(text + n, a, len + 1);
        n += len + 1;
    }
    va_end(ap);
    return run_args(text, n ? n - 1 : 0);
}

static void test_seeds_parse(void **state)
{
    (void)state;
    wk_cli_parse_only = 1;
    assert_int_equal(chdir(WK_SOURCE_DIR), 0); /* the seeds name specs/ and corpus/ relative to it */
    DIR *d = opendir(WK_SOURCE_DIR "/corpus/fuzz_cli/seeds");
    assert_non_null(d);
    unsigned seen = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !strstr(e->d_name, ".bin"))
            continue;
        char path[1024];
        static char text[4096];
        snprintf(path, sizeof(path), "%s/corpus/fuzz_cli/seeds/%s", WK_SOURCE_DIR, e->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        size_t n = fread(text, 1, sizeof(text) - 1, f);
        fclose(f);
        text[n] = '\0';
        int want = strcmp(e->d_name, "unknown-command.bin") == 0 ? 2 : 0;
        if (run_args(text, n) != want)
            fail_msg("%s: expected exit %d in parse-only mode", e->d_name, want);
        seen++;
    }
    closedir(d);
    assert_true(seen >= 20);
}

static void test_usage_errors_still_refused(void **state)
{
    (void)state;
    wk_cli_parse_only = 1;
    assert_int_equal(run_line("fuzz", "--harness", "fuzz_prog", "--jobs", "0", NULL), 2);
    assert_int_equal(run_line("fuzz", "--time", NULL), 2);
    assert_int_equal(run_line("repro", NULL), 2);
    assert_int_equal(run_line("repro", "a", "b", NULL), 2);
    assert_int_equal(run_line("conform", "--shard", "4/3", NULL), 2);
    assert_int_equal(run_line("corpus", "seed", "--out", NULL), 2);
    assert_int_equal(run_line("gpu", "disasm", NULL), 2);
    assert_int_equal(run_line("spec", "lint", NULL), 2);
    assert_int_equal(run_line("rules", "--bogus", NULL), 2);
    assert_int_equal(run_args(NULL, 0), 2);
}

/* Commands that would write or run return before doing so. */
static void test_parse_only_acts_on_nothing(void **state)
{
    (void)state;
    wk_cli_parse_only = 1;
    char dir[] = "/tmp/wk-cli-parse-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char out[200], corpus[200];
    snprintf(out, sizeof(out), "%s/campaign", dir);
    snprintf(corpus, sizeof(corpus), "%s/corpus", dir);
    assert_int_equal(run_line("corpus", "seed", "--specs", WK_SOURCE_DIR "/specs", "--out", corpus, NULL), 0);
    assert_int_equal(run_line("fuzz", "--harness", "fuzz_prog", "--time", "1", "--out", out, NULL), 0);
    assert_int_equal(run_line("minimize", WK_SOURCE_DIR "/corpus/fuzz_prog/seeds/smoke.aperture.bin", "-o", out, NULL), 0);
    struct stat st;
    assert_int_not_equal(stat(corpus, &st), 0);
    assert_int_not_equal(stat(out, &st), 0);
    assert_int_equal(rmdir(dir), 0); /* still empty */
    wk_cli_parse_only = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeds_parse),
        cmocka_unit_test(test_usage_errors_still_refused),
        cmocka_unit_test(test_parse_only_acts_on_nothing),
    };
    return cmocka_run_group_tests_name("cli_parse", tests, NULL, NULL);
}
