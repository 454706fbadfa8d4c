/* SPDX-License-Identifier: MIT */
/*
 * select.c - which cases a run runs: every case, in id order (only those
 * a --caselist names, when one is given),
 * less those the --filter globs do not match and the --exclude globs do,
 * and of those the shard's share (round robin, so that every shard gets
 * cases of every area). Duplicate ids are refused: a case is named by its
 * id in every report and rerun command, so two cases with one id could
 * not be told apart.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "caselist.h"
#include "runner.h"

struct keyed {
    const char *id;
    size_t index;
};

static int by_id(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int matches_any(const char *id, const char *const *globs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (globs[i] && fnmatch(globs[i], id, 0) == 0)
            return 1;
    return 0;
}

static int check_selection_args(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                                FILE *err)
{
    if (o->shard_count && (o->shard_index < 1 || o->shard_index > o->shard_count)) {
        fprintf(err, "wddmkit: --shard %u/%u: the shard index must lie in 1..%u\n", o->shard_index,
                o->shard_count, o->shard_count);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!cases[i]) {
            fprintf(err, "wddmkit: case %zu is missing\n", i);
            return 0;
        }
    return 1;
}

static int report_duplicates(const struct keyed *k, size_t n, const struct wk_prog *const *cases, FILE *err)
{
    int dup = 0;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(k[i - 1].id, k[i].id) != 0)
            continue;
        const struct wk_prog *a = cases[k[i - 1].index], *b = cases[k[i].index];
        fprintf(err, "wddmkit: duplicate case id '%s' (%s:%u and %s:%u)\n", k[i].id, a->file[0] ? a->file : "-",
                a->line, b->file[0] ? b->file : "-", b->line);
        dup = 1;
    }
    return dup;
}

wk_status wk_runner_select(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                           size_t **index, size_t *count, FILE *err)
{
    *index = NULL;
    *count = 0;
    if (!check_selection_args(cases, n, o, err))
        return WK_E_INVALID_ARGUMENT;
    struct keyed *k = calloc(n ? n : 1, sizeof(*k));
    size_t *idx = calloc(n ? n : 1, sizeof(*idx));
    if (!k || !idx) {
        free(k);
        free(idx);
        return WK_E_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (struct keyed){ cases[i]->id, i };
    qsort(k, n, sizeof(*k), by_id);
    if (report_duplicates(k, n, cases, err)) {
        free(k);
        free(idx);
        return WK_E_INVALID_ARGUMENT;
    }
    size_t m = 0, position = 0;
    for (size_t i = 0; i < n; i++) {
        if (o->caselist && !wk_caselist_has(o->caselist, k[i].id))
            continue;
        if (o->filter_count && !matches_any(k[i].id, o->filters, o->filter_count))
            continue;
        if (matches_any(k[i].id, o->excludes, o->exclude_count))
            continue;
        /* Round robin over the filtered list: every shard gets every area. */
        if (o->shard_count > 1 && position++ % o->shard_count != o->shard_index - 1)
            continue;
        idx[m++] = k[i].index;
    }
    free(k);
    *index = idx;
    *count = m;
    return WK_OK;
}
