/* SPDX-License-Identifier: MIT */
/*
 * results_diff.c - `wddmkit results diff OLD.json NEW.json`: what changed
 * between two runs, case by case (the classes and the exit code are
 * defined in results.h and docs/command-line.md, "results").
 *
 * Why outcomes rather than verdicts: a verdict is the driver's result
 * seen through an expectations file, and two runs compared are often one
 * without the file and one with it (the baseline workflow): `fail` and
 * `expected-fail` are the same failure. The outcome is what the driver
 * did; `unexpected` (whether NEW's expectations forgive it) only decides
 * whether a new failure is a regression or a known one.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

const char *wk_results_outcome(const struct wk_results_case *c)
{
    switch (c->verdict) {
    case WK_VERDICT_PASS:
    case WK_VERDICT_UNEXPECTED_PASS: return "pass";
    case WK_VERDICT_SKIP: return "skip";
    case WK_VERDICT_ERROR: return "error";
    case WK_VERDICT_FLAKE: return "flake";
    case WK_VERDICT_EXPECTED_FAIL:
    case WK_VERDICT_FAIL:
    case WK_VERDICT_CRASH:
    case WK_VERDICT_TIMEOUT:
        switch (c->run_verdict) {
        case WK_VERDICT_CRASH: return "crash";
        case WK_VERDICT_TIMEOUT: return "timeout";
        default: return "fail";
        }
    default: return "pass";
    }
}

int wk_results_severity(const char *outcome)
{
    if (strcmp(outcome, "crash") == 0)
        return 3;
    if (strcmp(outcome, "timeout") == 0)
        return 2;
    if (strcmp(outcome, "fail") == 0 || strcmp(outcome, "flake") == 0)
        return 1;
    return 0;
}

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The class of a case in both reports, or in one (o or n NULL); -1: no change. */
static int classify(const struct wk_results_case *o, const struct wk_results_case *n, int *new_flake)
{
    const char *oo = o ? wk_results_outcome(o) : "-", *no = n ? wk_results_outcome(n) : "-";
    int os = wk_results_severity(oo), ns = wk_results_severity(no);
    *new_flake = n && strcmp(no, "flake") == 0 && strcmp(oo, "flake") != 0 && os == 0;
    if (n && ns > os)
        return n->unexpected ? WK_RESULTS_REGRESSION : WK_RESULTS_KNOWN;
    if (!o)
        return WK_RESULTS_ADDED;
    if (!n)
        return WK_RESULTS_REMOVED;
    if (strcmp(no, "error") == 0 && strcmp(oo, "error") != 0)
        return WK_RESULTS_NEW_ERROR;
    if (os > 0 && strcmp(no, "pass") == 0)
        return WK_RESULTS_FIX;
    if (strcmp(oo, no) != 0 || (ns > 0 && !same_text(o->rule, n->rule)))
        return WK_RESULTS_CHANGED;
    return -1;
}

static int add(struct wk_results_diff *d, size_t *cap, const char *id, const struct wk_results_case *o,
               const struct wk_results_case *n)
{
    int new_flake = 0;
    int change = classify(o, n, &new_flake);
    if (change < 0)
        return 1;
    if (d->count == *cap) {
        size_t c = *cap ? 2 * *cap : 32;
        struct wk_results_diff_entry *e = realloc(d->entries, c * sizeof(*e));
        if (!e)
            return 0;
        d->entries = e;
        *cap = c;
    }
    d->entries[d->count++] = (struct wk_results_diff_entry){
        id, (enum wk_results_change)change, o, n, o ? wk_results_outcome(o) : "-", n ? wk_results_outcome(n) : "-",
    };
    d->counts[change]++;
    d->new_flakes += (size_t)new_flake;
    return 1;
}

wk_status wk_results_diff(const struct wk_results *old_r, const struct wk_results *new_r,
                          struct wk_results_diff *d)
{
    memset(d, 0, sizeof(*d));
    size_t cap = 0, i = 0, j = 0;
    /* both case lists are in id order (wk_results_parse sorts them) */
    while (i < old_r->count || j < new_r->count) {
        const struct wk_results_case *o = i < old_r->count ? &old_r->cases[i] : NULL;
        const struct wk_results_case *n = j < new_r->count ? &new_r->cases[j] : NULL;
        int c = !o ? 1 : !n ? -1 : strcmp(o->id, n->id);
        int ok = c == 0 ? add(d, &cap, o->id, o, n) : c < 0 ? add(d, &cap, o->id, o, NULL) : add(d, &cap, n->id, NULL, n);
        if (!ok) {
            wk_results_diff_free(d);
            return WK_E_NO_MEMORY;
        }
        i += c <= 0;
        j += c >= 0;
    }
    return WK_OK;
}

void wk_results_diff_free(struct wk_results_diff *d)
{
    free(d->entries);
    memset(d, 0, sizeof(*d));
}

int wk_results_diff_exit_code(const struct wk_results_diff *d)
{
    return d->counts[WK_RESULTS_REGRESSION] || d->counts[WK_RESULTS_NEW_ERROR] ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Printing                                                             */
/* ------------------------------------------------------------------ */

static const char *const change_names[WK_RESULTS_CHANGE_COUNT] = {
    "regression", "new-error", "fix", "known", "changed", "added", "removed",
};

static const char *const change_titles[WK_RESULTS_CHANGE_COUNT] = {
    "regressions (new failures, new flakes, failures that now crash or hang)",
    "new errors (the kit could not run the case in NEW: not the driver's, but it may hide a regression)",
    "fixes (failed in OLD, pass in NEW)",
    "new failures NEW's expectations list (not regressions)",
    "changed (another kind of failure, another rule, now skipped)",
    "added (in NEW only)",
    "removed (in OLD only)",
};

static int same_env(const char *a, const char *b)
{
    return same_text(a, b);
}

/* What differs between the runs besides the driver: a profile, a seed or
 * a shard explains differences that are not the driver's. */
static void environment_notes(const struct wk_results *o, const struct wk_results *n, FILE *notes)
{
    if (!same_env(o->profile, n->profile))
        fprintf(notes, "note: profiles differ (%s in OLD, %s in NEW): some differences are the profile's\n",
                o->profile, n->profile);
    if (o->seed != n->seed)
        fprintf(notes, "note: seeds differ (%llu in OLD, %llu in NEW)\n", (unsigned long long)o->seed,
                (unsigned long long)n->seed);
    if (!same_env(o->shard, n->shard))
        fprintf(notes, "note: shards differ (%s in OLD, %s in NEW): cases of the other shard show as added or "
                       "removed (merge the shards first: wddmkit results merge)\n",
                o->shard ? o->shard : "none", n->shard ? n->shard : "none");
    if (o->status && strcmp(o->status, "complete") != 0)
        fprintf(notes, "note: OLD's run is %s: the cases it did not finish show as added\n", o->status);
    if (n->status && strcmp(n->status, "complete") != 0)
        fprintf(notes, "note: NEW's run is %s: the cases it did not finish show as removed\n", n->status);
}

static void print_entry(const struct wk_results_diff_entry *e, FILE *out)
{
    fprintf(out, "  %-40s %s -> %s", e->id, e->old_outcome, e->new_outcome);
    const struct wk_results_case *c = e->new_case && wk_results_severity(e->new_outcome) ? e->new_case
                                      : e->old_case && wk_results_severity(e->old_outcome) ? e->old_case
                                                                                           : NULL;
    if (c && (c->rule || c->seen)) {
        const char *what = c->rule ? c->rule : c->seen;
        fprintf(out, "  %.*s", (int)strcspn(what, "\n"), what);
    }
    if (e->change == WK_RESULTS_CHANGED && e->old_case && e->new_case && e->old_case->rule && e->new_case->rule &&
        strcmp(e->old_case->rule, e->new_case->rule) != 0)
        fprintf(out, " (was %s)", e->old_case->rule);
    if (e->change == WK_RESULTS_KNOWN && e->new_case->expect_pattern)
        fprintf(out, " (expected: %s)", e->new_case->expect_pattern);
    fputc('\n', out);
}

static void print_text(const struct wk_results *o, const struct wk_results *n, const struct wk_results_diff *d,
                       FILE *out)
{
    fprintf(out, "OLD %s: %zu cases; NEW %s: %zu cases\n", o->name, o->count, n->name, n->count);
    for (int k = 0; k < WK_RESULTS_CHANGE_COUNT; k++) {
        if (!d->counts[k])
            continue;
        fprintf(out, "\n%s: %zu\n", change_titles[k], d->counts[k]);
        for (size_t i = 0; i < d->count; i++)
            if (d->entries[i].change == (enum wk_results_change)k)
                print_entry(&d->entries[i], out);
    }
    fprintf(out, "\n%zu regression%s, %zu new error%s, %zu fix%s, %zu new flake%s, %zu added, %zu removed\n",
            d->counts[WK_RESULTS_REGRESSION], d->counts[WK_RESULTS_REGRESSION] == 1 ? "" : "s",
            d->counts[WK_RESULTS_NEW_ERROR], d->counts[WK_RESULTS_NEW_ERROR] == 1 ? "" : "s",
            d->counts[WK_RESULTS_FIX], d->counts[WK_RESULTS_FIX] == 1 ? "" : "es", d->new_flakes,
            d->new_flakes == 1 ? "" : "s", d->counts[WK_RESULTS_ADDED], d->counts[WK_RESULTS_REMOVED]);
    fprintf(out, "RESULT: %s\n", wk_results_diff_exit_code(d) ? "REGRESSED" : "NO REGRESSION");
}

static json_t *json_text(const char *s)
{
    return s ? json_string(s) : json_null();
}

static void print_json(const struct wk_results *o, const struct wk_results *n, const struct wk_results_diff *d,
                       FILE *out)
{
    json_t *doc = json_object(), *changes = json_array(), *counts = json_object();
    if (!doc || !changes || !counts) {
        json_decref(doc), json_decref(changes), json_decref(counts);
        return;
    }
    json_object_set_new(doc, "format", json_string("wddmkit-results-diff-1"));
    json_object_set_new(doc, "old", json_string(o->name));
    json_object_set_new(doc, "new", json_string(n->name));
    for (int k = 0; k < WK_RESULTS_CHANGE_COUNT; k++)
        json_object_set_new(counts, change_names[k], json_integer((json_int_t)d->counts[k]));
    json_object_set_new(counts, "new-flake", json_integer((json_int_t)d->new_flakes));
    json_object_set_new(doc, "counts", counts);
    for (size_t i = 0; i < d->count; i++) {
        const struct wk_results_diff_entry *e = &d->entries[i];
        json_t *x = json_object();
        if (!x)
            continue;
        json_object_set_new(x, "id", json_string(e->id));
        json_object_set_new(x, "change", json_string(change_names[e->change]));
        json_object_set_new(x, "old", json_string(e->old_outcome));
        json_object_set_new(x, "new", json_string(e->new_outcome));
        json_object_set_new(x, "old_rule", json_text(e->old_case ? e->old_case->rule : NULL));
        json_object_set_new(x, "new_rule", json_text(e->new_case ? e->new_case->rule : NULL));
        json_array_append_new(changes, x);
    }
    json_object_set_new(doc, "changes", changes);
    json_object_set_new(doc, "regressed", json_boolean(wk_results_diff_exit_code(d)));
    json_dumpf(doc, out, JSON_INDENT(2));
    fputc('\n', out);
    json_decref(doc);
}

void wk_results_diff_print(const struct wk_results *old_r, const struct wk_results *new_r,
                           const struct wk_results_diff *d, int json, FILE *out, FILE *notes)
{
    environment_notes(old_r, new_r, notes);
    if (json)
        print_json(old_r, new_r, d, out);
    else
        print_text(old_r, new_r, d, out);
}
