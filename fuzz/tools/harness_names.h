/* SPDX-License-Identifier: MIT */
/*
 * harness_names.h - the fuzz harnesses of the kit (harness_names.c), from
 * fuzz/harnesses.txt, the one list: CMake generates wk_harness_list.h from
 * it (cmake/WkFuzzer.cmake) and fails when it and the wk_add_fuzzer calls
 * disagree.
 */
#ifndef WK_FUZZ_HARNESS_NAMES_H
#define WK_FUZZ_HARNESS_NAMES_H

#include <stddef.h>

/* One harness: its name, the largest input it is fuzzed with, a few words
 * on what it fuzzes. */
struct wk_fuzz_harness {
    const char *name;
    unsigned max_len;
    const char *description;
};

/* The list, in fuzz/harnesses.txt's order; *count entries. */
const struct wk_fuzz_harness *wk_fuzz_harness_table(size_t *count);
/* The list's entry of name; NULL when name is not a harness of the kit. */
const struct wk_fuzz_harness *wk_fuzz_harness_find(const char *name);
/* The names, ", " separated (for "unknown harness" messages). */
const char *wk_fuzz_harness_names(void);
/* Whether name is one of them. */
int wk_fuzz_harness_known(const char *name);

/* A harness name goes into paths: lower-case letters, digits and '_', at
 * most 32 of them. */
int wk_fuzz_harness_name_ok(const char *name);

#endif
