/* SPDX-License-Identifier: MIT */
/*
 * caselist.h - `wddmkit conform --caselist FILE`: run exactly the cases a
 * file lists, one id a line (a list `jq` wrote from a report, the
 * failures of last night's run, a bisect's half).
 *
 *   # the paging failures of run 1234
 *   paging-fill.advance-past-end
 *   smoke.objects      # a comment after an id
 *
 * Blank lines and everything from '#' to the end of a line are ignored; an
 * id is [A-Za-z0-9._-] (a case id, never a glob: --filter takes globs). A
 * repeated id counts once. Bounded like the other files a user hands
 * `conform`: at most WK_CASELIST_MAX_BYTES, WK_CASELIST_MAX_IDS ids, ids
 * shorter than a case id's field. Errors are "FILE:LINE: message"; an id
 * that names no loaded case is one too (wk_caselist_check_unknown), so a
 * list cannot silently run fewer cases than it names.
 */
#ifndef WK_CASELIST_H
#define WK_CASELIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "prog/conform.h"
#include "wddmkit/status.h"

#define WK_CASELIST_MAX_BYTES (4u << 20)
#define WK_CASELIST_MAX_IDS 100000u

struct wk_caselist_id {
    char *id;
    uint32_t line;                    /* its first line, 1-based */
};

struct wk_caselist {
    char *file;
    struct wk_caselist_id *ids;       /* sorted by id, each once */
    size_t count;
};

/* Parses text[0, size); name names it in messages. On error every problem
 * is printed to err as "NAME:LINE: message", and *out is NULL:
 * WK_E_INVALID_ARGUMENT, WK_E_LIMIT or WK_E_NO_MEMORY. */
wk_status wk_caselist_parse(const char *name, const char *text, size_t size, struct wk_caselist **out, FILE *err);
/* The same from a file; WK_E_IO when it cannot be read (said). */
wk_status wk_caselist_load(const char *path, struct wk_caselist **out, FILE *err);
void wk_caselist_free(struct wk_caselist *l);
/* Whether the list names id. */
int wk_caselist_has(const struct wk_caselist *l, const char *id);
/* Prints "FILE:LINE: no case 'ID' among the loaded specs" for every id
 * that names none of the cases; returns how many. */
size_t wk_caselist_check_unknown(const struct wk_caselist *l, const struct wk_prog *const *cases, size_t n,
                                 FILE *err);

#endif
