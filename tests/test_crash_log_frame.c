/* SPDX-License-Identifier: MIT */
/*
 * test_crash_log_frame.c - where a sanitizer report says a crash happened
 * (wk_crash_log_frame, fuzz/crash/signature.c), which `triage --sarif`
 * gives as the result's location (docs/sarif.md, "triage"): ASan's first
 * frame that is not the runtime's, symbolized (FILE:LINE:COL) or not
 * (MODULE+0xOFF), LeakSanitizer's allocation site, UBSan's FILE:LINE:COL,
 * and nothing from a log that is no sanitizer report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "crash/crash_internal.h"

static void asan_symbolized(void **state)
{
    (void)state;
    struct wk_crash_frame f;
    wk_crash_log_frame("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602 at pc 0x55\n"
                       "WRITE of size 4 at 0x602 thread T0\n"
                       "    #0 0x7f01 in __asan_memcpy (/usr/lib/libasan.so.8+0xb1234)\n"
                       "    #1 0x5501 in HeronRender /src/drv/render.c:42:7\n"
                       "    #2 0x5502 in wk_call_render /kit/call.c:10:2\n",
                       &f);
    assert_string_equal(f.function, "HeronRender");
    assert_string_equal(f.file, "/src/drv/render.c");
    assert_int_equal(f.line, 42);
    assert_int_equal(f.column, 7);
    assert_string_equal(f.module, "");
}

static void asan_module_offset(void **state)
{
    (void)state;
    struct wk_crash_frame f;
    wk_crash_log_frame("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000010\n"
                       "    #0 0x7f02 in HeronPatch (/tmp/drv.so+0x1a2b)\n",
                       &f);
    assert_string_equal(f.function, "HeronPatch");
    assert_string_equal(f.file, "");
    assert_string_equal(f.module, "/tmp/drv.so");
    assert_int_equal(f.offset, 0x1a2b);
}

static void leak_allocation_site(void **state)
{
    (void)state;
    struct wk_crash_frame f;
    wk_crash_log_frame("==1==ERROR: LeakSanitizer: detected memory leaks\n\n"
                       "Direct leak of 8 byte(s) in 1 object(s) allocated from:\n"
                       "    #0 0x4 in malloc (/usr/lib/libasan.so.8+0x1)\n"
                       "    #1 0x5 in make_thing /src/drv/alloc.c:3:9\n",
                       &f);
    assert_string_equal(f.function, "make_thing");
    assert_string_equal(f.file, "/src/drv/alloc.c");
    assert_int_equal(f.line, 3);
}

static void ubsan_line(void **state)
{
    (void)state;
    struct wk_crash_frame f;
    wk_crash_log_frame("noise\n/src/drv/patch.c:17:3: runtime error: shift exponent 40 is too large\n", &f);
    assert_string_equal(f.function, "");
    assert_string_equal(f.file, "/src/drv/patch.c");
    assert_int_equal(f.line, 17);
    assert_int_equal(f.column, 3);
}

static void no_report(void **state)
{
    (void)state;
    struct wk_crash_frame f;
    wk_crash_log_frame("render_ends: FATAL: the last word before the abort\n", &f);
    assert_string_equal(f.function, "");
    assert_string_equal(f.file, "");
    assert_string_equal(f.module, "");
    assert_int_equal(f.line, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(asan_symbolized), cmocka_unit_test(asan_module_offset), cmocka_unit_test(leak_allocation_site),
        cmocka_unit_test(ubsan_line),      cmocka_unit_test(no_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
