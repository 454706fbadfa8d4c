/* SPDX-License-Identifier: MIT */
/*
 * child_test.h - run a function in a forked child with its stderr captured:
 * how the km.h tests see a misuse end the process with its rule line (with
 * no kit, km.h prints the line and aborts). Shared by test_km.c,
 * test_km_more.c and test_wdk_names.c, in their C and C++ builds.
 */
#ifndef WK_TESTS_CHILD_TEST_H
#define WK_TESTS_CHILD_TEST_H

#ifndef __cplusplus
#include <stdbool.h>
#endif

/* Set when the tests are built with AddressSanitizer, whose reports a test
 * may expect instead of the header's own (and whose errors end a child with
 * SIGABRT: child_test.c sets abort_on_error). */
#if defined(__SANITIZE_ADDRESS__)
#define WK_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WK_TEST_ASAN 1
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*wk_child_fn)(void);

/* How a child ended, and what it wrote on stderr. */
struct wk_child_result {
    int status;      /* from waitpid */
    char out[16384]; /* stderr, NUL-terminated, truncated if longer */
};

/* Runs fn in a forked child with stderr captured into r; false if the child
 * could not be run. */
bool wk_child_run(wk_child_fn fn, struct wk_child_result *r);

/* True when fn, run in a child, aborts (SIGABRT) after printing want and
 * want2 on stderr (either may be NULL); otherwise prints how the child
 * ended and what it said, and returns false. */
bool wk_child_dies_with(wk_child_fn fn, const char *want, const char *want2);

#ifdef __cplusplus
}
#endif

#endif
