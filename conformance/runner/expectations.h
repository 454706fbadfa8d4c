/* SPDX-License-Identifier: MIT */
/*
 * expectations.h - known failures, flakes and skips of a driver under test
 * (`wddmkit conform --expectations FILE`), kept next to the driver in
 * version control and checked against the real inventory of cases.
 *
 * The file is YAML, a sequence of entries:
 *
 *   - id: paging-fill-discard.advance-past-end-fill   # a case id or an fnmatch glob
 *     expect: fail                         # fail | flake | skip | crash | timeout
 *     reason: the driver pads paging buffers by 16 bytes
 *     link: https://example.org/bugs/42    # a URL or an issue reference (proj#42)
 *
 * Every key is required, no other key is allowed, aliases are rejected,
 * nesting and the number of nodes are bounded (below); an error names
 * FILE:LINE:COL and what was expected. The first entry whose id
 * or glob matches a case applies to it. An entry that matches none of the
 * loaded cases is an error too (wk_expectations_check_unused), so the file
 * cannot rot as cases are renamed.
 */
#ifndef WK_EXPECTATIONS_H
#define WK_EXPECTATIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "prog/conform.h"
#include "wddmkit/status.h"

#define WK_EXPECTATIONS_MAX_BYTES (1u << 20)  /* file size */
#define WK_EXPECTATIONS_MAX_ENTRIES 4096u
/* Nested YAML collections and YAML nodes per file, as the spec loader
 * bounds them (spec.h): a well-formed file nests 2 deep and has 9 nodes an
 * entry, but a hostile one under the size limit could nest 160k deep, and
 * libyaml's scanner takes time in the square of the depth (minutes). */
#define WK_EXPECTATIONS_MAX_DEPTH 32u
#define WK_EXPECTATIONS_MAX_NODES (16u * WK_EXPECTATIONS_MAX_ENTRIES)
#define WK_EXPECTATION_MAX_TEXT 512u          /* reason and link */

struct wk_expectation {
    char *pattern;                    /* id or glob */
    enum wk_verdict expect;           /* FAIL, FLAKE, SKIP, CRASH or TIMEOUT */
    char *reason;
    char *link;
    uint32_t line, column;            /* of the entry, 1-based */
};

struct wk_expectations {
    char *file;
    struct wk_expectation *entries;
    size_t count;
};

/* Loads FILE; on error prints every problem as "FILE:LINE:COL: message" to
 * err and returns WK_E_INVALID_ARGUMENT (or WK_E_IO, WK_E_LIMIT, WK_E_NO_MEMORY) with
 * *out NULL. */
wk_status wk_expectations_load(const char *path, struct wk_expectations **out, FILE *err);

/* Parses a document held in memory; `name` is the file name for messages. */
wk_status wk_expectations_parse(const char *name, const char *text, size_t size, struct wk_expectations **out,
                                FILE *err);

void wk_expectations_free(struct wk_expectations *e);

/* The first entry that matches the id, or NULL. */
const struct wk_expectation *wk_expectations_match(const struct wk_expectations *e, const char *id);

/* Prints "FILE:LINE:COL: expectation 'X' matches no case" for every entry
 * that matches none of the cases; returns how many. */
size_t wk_expectations_check_unused(const struct wk_expectations *e, const struct wk_prog *const *cases, size_t n,
                                    FILE *err);

#endif
