/* SPDX-License-Identifier: MIT */
/*
 * test_util.c - util/ (util.h): the fit-or-0 convention of every function
 * that fills a caller's buffer, bounded reads (head, tail at a line
 * boundary, whole files with a limit, folders refused), copies that never
 * overwrite, byte search across block boundaries, FNV-1a against the
 * published test vectors, the last lines of a text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util.h"

static char scratch[256];

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static const char *in_scratch(const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof(path[0]), "%s/%s", scratch, name);
    return p;
}

static int setup(void **state)
{
    (void)state;
    snprintf(scratch, sizeof(scratch), "/tmp/wk_test_util.XXXXXX");
    return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

static void strings_fit_or_fail(void **state)
{
    (void)state;
    char b[4];
    assert_int_equal(wk_str_copy(b, sizeof(b), "abc"), 1);
    assert_string_equal(b, "abc");
    assert_int_equal(wk_str_copy(b, sizeof(b), "abcd"), 0);
    assert_string_equal(b, "");
    char g[32];
    assert_string_equal(wk_str_grouped(0, g, sizeof(g)), "0");
    assert_string_equal(wk_str_grouped(999, g, sizeof(g)), "999");
    assert_string_equal(wk_str_grouped(1234567, g, sizeof(g)), "1,234,567");
    assert_string_equal(wk_str_grouped(UINT64_MAX, g, sizeof(g)), "18,446,744,073,709,551,615");
}

static void paths(void **state)
{
    (void)state;
    char b[8];
    assert_int_equal(wk_path_join(b, sizeof(b), "ab", "cd"), 1);
    assert_string_equal(b, "ab/cd");
    assert_int_equal(wk_path_join(b, sizeof(b), "abcd", "efg"), 0);
    const char *deep = in_scratch("a/b/c");
    assert_int_equal(wk_path_mkdir_p(deep), 0);
    assert_int_equal(wk_path_is_dir(deep), 1);
    assert_int_equal(wk_path_mkdir_p(deep), 0); /* already there */
    assert_int_equal(wk_path_is_regular(deep), 0);
    const char *file = in_scratch("a/f");
    write_file(file, "x", 1);
    assert_int_equal(wk_path_is_regular(file), 1);
    assert_int_equal(wk_path_is_executable(file), 0);
    assert_int_equal(wk_path_mkdir_p(in_scratch("a/f/g")), -1); /* a file in the way */
    char found[512];
    assert_int_equal(wk_path_find_program("sh", found, sizeof(found)), 1);
    assert_int_equal(wk_path_is_executable(found), 1);
    assert_int_equal(wk_path_find_program("wk-no-such-program", found, sizeof(found)), 0);
}

static void head_and_tail(void **state)
{
    (void)state;
    const char *log = in_scratch("log");
    write_file(log, "first line\nsecond line\nthird\n", 29);
    char b[16];
    assert_int_equal(wk_file_head(log, b, sizeof(b)), 15);
    assert_string_equal(b, "first line\nseco");
    /* the last 15 bytes start inside "second line": that partial line goes */
    long n = wk_file_tail(log, b, sizeof(b));
    assert_string_equal(b, "third\n");
    assert_int_equal(n, 6);
    char all[64];
    assert_int_equal(wk_file_tail(log, all, sizeof(all)), 29);
    assert_int_equal(wk_file_head(in_scratch("missing"), b, sizeof(b)), -1);
    assert_int_equal(wk_file_tail(scratch, b, sizeof(b)), -1); /* a folder */
}

static void whole_files_bounded(void **state)
{
    (void)state;
    const char *f = in_scratch("data");
    uint8_t bytes[5000];
    for (size_t i = 0; i < sizeof(bytes); i++)
        bytes[i] = (uint8_t)i;
    write_file(f, bytes, sizeof(bytes));
    uint8_t *data = NULL;
    size_t size = 0;
    char why[128];
    assert_int_equal(wk_file_read(f, 5000, &data, &size, why, sizeof(why)), WK_OK);
    assert_int_equal(size, 5000);
    assert_memory_equal(data, bytes, size);
    free(data);
    assert_int_equal(wk_file_read(f, 4999, &data, &size, why, sizeof(why)), WK_E_LIMIT);
    assert_string_equal(why, "larger than the 4999-byte limit");
    assert_int_equal(wk_file_read(scratch, 100, &data, &size, why, sizeof(why)), WK_E_IO);
    assert_string_equal(why, "a folder, where a file was expected");
    assert_int_equal(wk_file_read(in_scratch("missing"), 100, &data, &size, why, sizeof(why)), WK_E_IO);
    assert_string_equal(why, "No such file or directory");
    /* an endless input is cut at the limit, not swallowed */
    assert_int_equal(wk_file_read("/dev/zero", 1 << 16, &data, &size, why, sizeof(why)), WK_E_LIMIT);
}

static void copies_never_overwrite(void **state)
{
    (void)state;
    const char *from = in_scratch("from"), *to = in_scratch("to"), *other = in_scratch("other");
    write_file(from, "seed bytes", 10);
    assert_int_equal(wk_file_copy_new(from, to, 100), 1);
    assert_int_equal(wk_file_same(from, to), 1);
    write_file(other, "other", 5);
    assert_int_equal(wk_file_copy_new(other, to, 100), 0); /* to exists: kept */
    assert_int_equal(wk_file_same(from, to), 1);
    assert_int_equal(wk_file_same(from, other), 0);
    assert_int_equal(wk_file_same(from, in_scratch("missing")), 0);
    assert_int_equal(wk_file_copy_new(from, in_scratch("small"), 9), 0); /* over the limit */
    assert_int_equal(access(in_scratch("small"), F_OK), -1);
    assert_int_equal(wk_file_copy_new(scratch, in_scratch("dir-copy"), 100), 0);
}

static void find_across_blocks(void **state)
{
    (void)state;
    /* the needle straddles the 64 KiB read boundary */
    size_t n = (64u << 10) + 100;
    char *buf = calloc(1, n);
    assert_non_null(buf);
    memcpy(buf + (64u << 10) - 5, "__asan_init_v8", 15);
    const char *f = in_scratch("module");
    write_file(f, buf, n);
    free(buf);
    char out[64];
    assert_int_equal(wk_file_find(f, "__asan_", out, sizeof(out)), 1);
    assert_string_equal(out, "__asan_init_v8");
    assert_int_equal(wk_file_find(f, "__msan_", out, sizeof(out)), 0);
    assert_string_equal(out, "");
    assert_int_equal(wk_file_find(f, "", out, sizeof(out)), 0);
}

static void fnv1a_vectors(void **state)
{
    (void)state;
    /* the published FNV-1a test vectors */
    assert_true(wk_fnv1a64(WK_FNV1A64_START, "", 0) == 0xcbf29ce484222325ull);
    assert_true(wk_fnv1a64(WK_FNV1A64_START, "a", 1) == 0xaf63dc4c8601ec8cull);
    assert_true(wk_fnv1a64(WK_FNV1A64_START, "foobar", 6) == 0x85944171f73967e8ull);
    assert_true(wk_fnv1a32("", 0) == 0x811c9dc5u);
    assert_true(wk_fnv1a32("a", 1) == 0xe40c292cu);
    assert_true(wk_fnv1a32("foobar", 6) == 0xbf9cf968u);
    /* in pieces as in one go */
    assert_true(wk_fnv1a64(wk_fnv1a64(WK_FNV1A64_START, "foo", 3), "bar", 3) == 0x85944171f73967e8ull);
    const char *f = in_scratch("foobar");
    write_file(f, "foobar", 6);
    uint64_t d = 0, size = 0;
    assert_int_equal(wk_fnv1a64_file(f, &d, &size), 1);
    assert_true(d == 0x85944171f73967e8ull);
    assert_int_equal(size, 6);
    assert_int_equal(wk_fnv1a64_file(in_scratch("missing"), &d, &size), 0);
}

static void clock_moves_forward(void **state)
{
    (void)state;
    double a = wk_now_seconds();
    wk_sleep_ms(2);
    assert_true(wk_now_seconds() - a >= 0.0015);
}

/* The end of a text at a line boundary: what a crash report keeps of a
 * case's output (the last line is the one that says why). */
static void tail_lines(void **state)
{
    (void)state;
    char out[16];
    assert_int_equal(wk_str_tail_lines(out, sizeof(out), "short\n"), 1);
    assert_string_equal(out, "short\n");
    assert_int_equal(wk_str_tail_lines(out, sizeof(out), "first line\nsecond\nFATAL: x\n"), 0);
    assert_string_equal(out, "FATAL: x\n");   /* "second\nFATAL: x\n" is 16: one too many */
    assert_int_equal(wk_str_tail_lines(out, sizeof(out), "aaaa\nbbbbbbbbbb\n"), 0);
    assert_string_equal(out, "bbbbbbbbbb\n");  /* the window started right at a line */
    assert_int_equal(wk_str_tail_lines(out, sizeof(out), "x\n0123456789abcdefghij"), 0);
    assert_string_equal(out, "56789abcdefghij"); /* one long last line: its end */
    assert_int_equal(wk_str_tail_lines(out, 1, "abc"), 0);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strings_fit_or_fail), cmocka_unit_test(paths),
        cmocka_unit_test(head_and_tail),       cmocka_unit_test(whole_files_bounded),
        cmocka_unit_test(copies_never_overwrite), cmocka_unit_test(find_across_blocks),
        cmocka_unit_test(fnv1a_vectors),       cmocka_unit_test(clock_moves_forward),
        cmocka_unit_test(tail_lines),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
