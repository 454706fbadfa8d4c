/* SPDX-License-Identifier: MIT */
/*
 * results_merge.c - `wddmkit results merge A.json B.json ...`: the reports
 * of one run's shards (`conform --shard I/N`) as one report of the same
 * format (results.h says what each key of the merged report holds).
 *
 * Why refuse reports of different runs: a merged report says one driver
 * was judged by one kit under one profile and seed; shards of two builds
 * would read as one run's result. Why the cases are copied whole and the
 * counts made again: a case object is the shard's own record (its keys,
 * also those of a newer minor version, kept as written), while totals and
 * checks are sums that only the merged case list can give.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

static const char *text_of(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* One fact of the environment that must be the same in every report. */
static int agree(const struct wk_results *a, const struct wk_results *b, const char *what, const char *va,
                 const char *vb, FILE *err)
{
    if (same(va, vb))
        return 1;
    fprintf(err, "wddmkit results merge: %s and %s are not shards of one run: %s differs (%s and %s)\n", a->name,
            b->name, what, va ? va : "null", vb ? vb : "null");
    return 0;
}

static unsigned shard_count(const char *shard, unsigned *index)
{
    unsigned i = 0, n = 0;
    if (!shard || sscanf(shard, "%u/%u", &i, &n) != 2)
        return *index = 1, 1;
    *index = i;
    return n;
}

static int same_run(struct wk_results *const *r, size_t n, FILE *err)
{
    int ok = 1;
    for (size_t i = 1; i < n && ok; i++) {
        const struct wk_results *a = r[0], *b = r[i];
        char sa[32], sb[32];
        unsigned ia, ib;
        snprintf(sa, sizeof(sa), "%llu", (unsigned long long)a->seed);
        snprintf(sb, sizeof(sb), "%llu", (unsigned long long)b->seed);
        ok = agree(a, b, "schema_version", text_of(a->root, "schema_version"), text_of(b->root, "schema_version"),
                   err) &&
             agree(a, b, "the kit's version", a->kit_version, b->kit_version, err) &&
             agree(a, b, "the kit's commit", a->kit_commit, b->kit_commit, err) &&
             agree(a, b, "the driver", a->driver, b->driver, err) &&
             agree(a, b, "the driver's SHA-256", a->driver_sha256, b->driver_sha256, err) &&
             agree(a, b, "the profile", a->profile, b->profile, err) && agree(a, b, "the seed", sa, sb, err);
        snprintf(sa, sizeof(sa), "%u", shard_count(a->shard, &ia));
        snprintf(sb, sizeof(sb), "%u", shard_count(b->shard, &ib));
        ok = ok && agree(a, b, "the number of shards", sa, sb, err);
    }
    return ok;
}

/* Shards 1..N not among the reports (a leg whose artifact is missing):
 * how many, said to err when err is not NULL. */
static unsigned missing_shards(struct wk_results *const *r, size_t n, FILE *err)
{
    unsigned index = 0, count = shard_count(r[0]->shard, &index);
    if (count <= 1 || count > 100000)
        return 0;
    unsigned char *seen = calloc(count + 1, 1);
    if (!seen)
        return 0;
    for (size_t i = 0; i < n; i++) {
        shard_count(r[i]->shard, &index);
        if (index >= 1 && index <= count)
            seen[index] = 1;
    }
    unsigned missing = 0;
    for (unsigned i = 1; i <= count; i++)
        missing += !seen[i];
    if (missing && err) {
        fprintf(err, "wddmkit results merge: %u of %u shards missing:", missing, count);
        for (unsigned i = 1, said = 0; i <= count && said < 16; i++)
            if (!seen[i])
                fprintf(err, " %u/%u", i, count), said++;
        fprintf(err, "%s; the merged report has the cases of the others only\n", missing > 16 ? " ..." : "");
    }
    free(seen);
    return missing;
}

unsigned wk_results_missing_shards(struct wk_results *const *r, size_t n)
{
    return n ? missing_shards(r, n, NULL) : 0;
}

/* Two records of one case: the same result when verdicts, rerun and rule agree. */
static int same_result(const struct wk_results_case *a, const struct wk_results_case *b)
{
    return a->verdict == b->verdict && a->run_verdict == b->run_verdict && a->has_rerun == b->has_rerun &&
           (!a->has_rerun || a->rerun_verdict == b->rerun_verdict) && same(a->rule, b->rule);
}

struct pick {
    const struct wk_results_case *c;
    size_t from;
};

static int by_pick(const void *x, const void *y)
{
    const struct pick *a = x, *b = y;
    int c = strcmp(a->c->id, b->c->id);
    return c ? c : (a->from > b->from) - (a->from < b->from);
}

/* Every case once, in id order, into cases; *dropped: the cases taken once
 * of several records. 0 on a conflict (said) or no memory. */
static int merge_cases(struct wk_results *const *r, size_t n, json_t *cases, size_t *dropped, FILE *err)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < n; i++)
        total += r[i]->count;
    struct pick *all = malloc((total ? total : 1) * sizeof(*all));
    if (!all)
        return 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < r[i]->count; j++)
            all[k++] = (struct pick){ &r[i]->cases[j], i };
    qsort(all, total, sizeof(*all), by_pick);
    int ok = 1;
    *dropped = 0;
    for (size_t i = 0; i < total && ok; i++) {
        if (i && strcmp(all[i - 1].c->id, all[i].c->id) == 0) {
            const struct wk_results_case *a = all[i - 1].c, *b = all[i].c;
            if (!same_result(a, b)) {
                fprintf(err, "wddmkit results merge: the case %s is in %s (%s, rule %s) and in %s (%s, rule %s) "
                             "with different results\n", a->id, r[all[i - 1].from]->name, wk_verdict_name(a->verdict),
                        a->rule ? a->rule : "none", r[all[i].from]->name, wk_verdict_name(b->verdict),
                        b->rule ? b->rule : "none");
                ok = 0;
            }
            ++*dropped;
            continue;
        }
        ok = json_array_append_new(cases, json_deep_copy(all[i].c->json)) == 0;
    }
    free(all);
    return ok;
}

static json_int_t int_of(const json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

/* checks: {KIND: {run, skipped, reason}} summed over the cases; reason the
 * first case's that has one (report_common.c does the same). */
static json_t *sum_checks(const json_t *cases)
{
    json_t *out = json_object();
    for (int k = 0; out && k < WK_CHECK_KIND_COUNT; k++) {
        const char *kind = wk_check_kind_name((enum wk_check_kind)k);
        json_int_t run = 0, skipped = 0;
        const char *reason = NULL;
        size_t i;
        json_t *c;
        json_array_foreach(cases, i, c) {
            const json_t *x = json_object_get(json_object_get(c, "checks"), kind);
            run += int_of(x, "run");
            skipped += int_of(x, "skipped");
            if (!reason)
                reason = text_of(x, "reason");
        }
        json_object_set_new(out, kind,
                            json_pack("{s:I, s:I, s:o}", "run", run, "skipped", skipped, "reason",
                                      reason && skipped ? json_string(reason) : json_null()));
    }
    return out;
}

static json_t *count_totals(struct wk_results *const *r, size_t n, const json_t *cases, size_t dropped)
{
    json_int_t selected = 0, spec_errors = 0, by_verdict[WK_VERDICT_COUNT] = { 0 }, unexpected = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *t = json_object_get(r[i]->root, "totals");
        selected += int_of(t, "selected");
        if (int_of(t, "spec_errors") > spec_errors)
            spec_errors = int_of(t, "spec_errors");
    }
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        for (int v = 0; v < WK_VERDICT_COUNT; v++)
            if (same(text_of(c, "verdict"), wk_verdict_name((enum wk_verdict)v)))
                by_verdict[v]++;
        unexpected += json_is_true(json_object_get(c, "unexpected"));
    }
    json_t *t = json_object();
    if (!t)
        return NULL;
    /* never fewer than the cases listed (fuzz_results: a report whose
     * totals undercount its cases merged into a negative count) */
    selected -= (json_int_t)dropped;
    if (selected < (json_int_t)json_array_size(cases))
        selected = (json_int_t)json_array_size(cases);
    json_object_set_new(t, "selected", json_integer(selected));
    json_object_set_new(t, "finished", json_integer((json_int_t)json_array_size(cases)));
    for (int v = 0; v < WK_VERDICT_COUNT; v++)
        json_object_set_new(t, wk_verdict_name((enum wk_verdict)v), json_integer(by_verdict[v]));
    json_object_set_new(t, "unexpected", json_integer(unexpected));
    json_object_set_new(t, "spec_errors", json_integer(spec_errors));
    return t;
}

/* The union of the spec errors, in the order first seen. */
static json_t *union_spec_errors(struct wk_results *const *r, size_t n)
{
    json_t *out = json_array(), *seen = json_object();
    for (size_t i = 0; out && seen && i < n; i++) {
        size_t j;
        json_t *s;
        json_array_foreach(json_object_get(r[i]->root, "spec_errors"), j, s) {
            const char *text = json_string_value(s);
            if (!text || json_object_get(seen, text))
                continue;
            json_object_set_new(seen, text, json_true());
            json_array_append(out, s);
        }
    }
    json_decref(seen);
    return out;
}

/* The environment: the first report's, shard null, jobs the largest,
 * start_time the earliest. */
static json_t *merge_environment(struct wk_results *const *r, size_t n)
{
    json_t *env = json_deep_copy(json_object_get(r[0]->root, "environment"));
    if (!env)
        return NULL;
    json_int_t jobs = 1;
    const char *start = NULL;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_object_get(r[i]->root, "environment");
        if (int_of(e, "jobs") > jobs)
            jobs = int_of(e, "jobs");
        const char *t = text_of(e, "start_time");
        if (t && t[0] && (!start || strcmp(t, start) < 0))
            start = t;
    }
    json_object_set_new(env, "jobs", json_integer(jobs));
    json_object_set_new(env, "start_time", json_string(start ? start : ""));
    json_object_set_new(env, "shard", json_null());
    return env;
}

/* complete when every shard completed; else the first other status, and
 * the signal of the first interrupted one. */
static void merge_status(struct wk_results *const *r, size_t n, json_t *doc)
{
    const char *status = "complete";
    json_t *signal = json_null();
    double seconds = 0;
    for (size_t i = 0; i < n; i++) {
        const char *s = r[i]->status;
        if (strcmp(status, "complete") == 0 && strcmp(s, "complete") != 0) {
            status = s;
            json_decref(signal);
            signal = json_deep_copy(json_object_get(r[i]->root, "signal"));
        }
        double t = json_number_value(json_object_get(r[i]->root, "seconds"));
        if (t > seconds)
            seconds = t;
    }
    json_object_set_new(doc, "status", json_string(status));
    json_object_set_new(doc, "signal", signal ? signal : json_null());
    json_object_set_new(doc, "seconds", json_real(seconds));
}

wk_status wk_results_merge(struct wk_results *const *r, size_t n, char **out, FILE *err)
{
    *out = NULL;
    if (n == 0 || !same_run(r, n, err))
        return WK_E_INVALID_ARGUMENT;
    json_t *doc = json_object(), *cases = json_array();
    size_t dropped = 0;
    if (!doc || !cases || !merge_cases(r, n, cases, &dropped, err)) {
        json_decref(doc);
        json_decref(cases);
        return doc && cases ? WK_E_INVALID_ARGUMENT : WK_E_NO_MEMORY;
    }
    missing_shards(r, n, err);
    /* the keys in the order the kit writes them */
    json_object_set(doc, "format", json_object_get(r[0]->root, "format"));
    const json_t *version = json_object_get(r[0]->root, "schema_version");
    if (version)
        json_object_set(doc, "schema_version", (json_t *)version);
    json_object_set_new(doc, "environment", merge_environment(r, n));
    merge_status(r, n, doc);
    json_object_set_new(doc, "cases", cases);
    json_object_set_new(doc, "spec_errors", union_spec_errors(r, n));
    json_object_set_new(doc, "checks", sum_checks(cases));
    json_object_set_new(doc, "totals", count_totals(r, n, cases, dropped));
    *out = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
    json_decref(doc);
    return *out ? WK_OK : WK_E_NO_MEMORY;
}
