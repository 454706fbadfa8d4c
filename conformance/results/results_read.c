/* SPDX-License-Identifier: MIT */
/*
 * results_read.c - a `conform --json` report read back (results.h), with
 * jansson.
 *
 * Why a library: JSON is a standard format and the project never
 * hand-writes a reader of one (the journal is read with jansson too).
 * Why the bytes are scanned first: jansson nests up to 2048 levels and
 * builds every node before anything can be checked, so the nesting is
 * bounded on the raw text (strings skipped) before it is handed over.
 * Why every key is checked against the schema's type: `results merge`
 * copies cases into a new report, which must validate against
 * docs/json-report.schema.json; a case missing `checks` would make it
 * invalid far from its cause. Problems are collected, not stopped at, so
 * one run names them all (up to a bound).
 */
#define _GNU_SOURCE
#include "results.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


#define MAX_PROBLEMS 20 /* said; past them, one line says how many more */

struct reader {
    const char *name;
    FILE *err;
    unsigned problems;
};

static void problem(struct reader *R, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "NAME: WHERE: message", one line whatever the message quotes. */
static void problem(struct reader *R, const char *where, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    if (R->problems++ >= MAX_PROBLEMS)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    /* a position is NAME:LINE:COL, as every other reader of the kit says it */
    int position = where[0] >= '0' && where[0] <= '9';
    fprintf(R->err, "%s%s%s%s", R->name, position ? ":" : ": ", where, where[0] ? ": " : "");
    wk_str_put_one_line(R->err, line);
    fputc('\n', R->err);
}

/* ------------------------------------------------------------------ */
/* Bounds on the bytes                                                  */
/* ------------------------------------------------------------------ */

/* The nesting of [ and { outside strings; 0 when within the bound. */
static int too_deep(struct reader *R, const char *text, size_t size)
{
    unsigned depth = 0, line = 1, col = 0;
    int in_string = 0, escaped = 0;
    for (size_t i = 0; i < size; i++) {
        char c = text[i];
        col++;
        if (c == '\n') {
            line++;
            col = 0;
        }
        if (in_string) {
            if (escaped)
                escaped = 0;
            else if (c == '\\')
                escaped = 1;
            else if (c == '"')
                in_string = 0;
            continue;
        }
        if (c == '"') {
            in_string = 1;
        } else if (c == '[' || c == '{') {
            if (++depth > WK_RESULTS_MAX_DEPTH) {
                char where[64];
                snprintf(where, sizeof(where), "%u:%u", line, col);
                problem(R, where, "nested deeper than %u levels (a report nests 5)", WK_RESULTS_MAX_DEPTH);
                return 1;
            }
        } else if ((c == ']' || c == '}') && depth) {
            depth--;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Keys and their types (docs/json-report.schema.json)                  */
/* ------------------------------------------------------------------ */

enum type {
    T_STRING,        /* a string */
    T_NAME,          /* a non-empty string */
    T_ID,            /* a case id: [A-Za-z0-9._-], 1 to 95 characters */
    T_TEXT,          /* a string or null */
    T_COUNT,         /* an integer >= 0 */
    T_STEP,          /* an integer >= -1 */
    T_JOBS,          /* an integer >= 1 */
    T_BOOL,
    T_SECONDS,       /* a number >= 0 */
    T_STRINGS,       /* an array of strings */
    T_VERDICT,       /* a verdict's name */
    T_VERDICT_NULL,  /* a verdict's name or null */
    T_CHECKS,        /* {contract, semantic, encoder, choice: {run, skipped, reason}} */
    T_EXPECTATION,   /* null or {expect, pattern, reason, link} */
    T_OBJECT,        /* an object (checked on its own) */
    T_ARRAY,         /* an array (checked on its own) */
};

struct key {
    const char *name;
    enum type type;
    unsigned since;  /* the minor version that added it */
};

static const char *type_words(enum type t)
{
    switch (t) {
    case T_STRING: return "a string";
    case T_NAME: return "a non-empty string";
    case T_ID: return "a case id ([A-Za-z0-9._-], at most 95 characters)";
    case T_TEXT: return "a string or null";
    case T_COUNT: return "an integer >= 0";
    case T_STEP: return "an integer >= -1";
    case T_JOBS: return "an integer >= 1";
    case T_BOOL: return "true or false";
    case T_SECONDS: return "a number >= 0";
    case T_STRINGS: return "an array of strings";
    case T_VERDICT: return "a verdict";
    case T_VERDICT_NULL: return "a verdict or null";
    case T_CHECKS: return "an object of checks by kind";
    case T_EXPECTATION: return "an expectation object or null";
    case T_OBJECT: return "an object";
    case T_ARRAY: return "an array";
    }
    return "?";
}

static const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "?";
}

static int verdict_of(const char *s, enum wk_verdict *v)
{
    for (int i = 0; s && i < WK_VERDICT_COUNT; i++)
        if (strcmp(s, wk_verdict_name((enum wk_verdict)i)) == 0) {
            *v = (enum wk_verdict)i;
            return 1;
        }
    return 0;
}

static int check_value(struct reader *R, const char *where, const json_t *v, enum type t);

static int check_keys(struct reader *R, const char *where, const json_t *o, const struct key *keys, size_t n,
                      unsigned minor)
{
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        char at[160];
        snprintf(at, sizeof(at), "%s%s%s", where, where[0] ? "." : "", keys[i].name);
        const json_t *v = json_object_get(o, keys[i].name);
        if (!v) {
            if (minor >= keys[i].since) {
                problem(R, at, "missing (expected %s)", type_words(keys[i].type));
                ok = 0;
            }
            continue;
        }
        ok &= check_value(R, at, v, keys[i].type);
    }
    return ok;
}

static int check_checks(struct reader *R, const char *where, const json_t *v)
{
    static const struct key count_keys[] = { { "run", T_COUNT, 0 }, { "skipped", T_COUNT, 0 },
                                             { "reason", T_TEXT, 0 } };
    int ok = 1;
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++) {
        const char *kind = wk_check_kind_name((enum wk_check_kind)k);
        char at[160];
        snprintf(at, sizeof(at), "%s.%s", where, kind);
        const json_t *c = json_object_get(v, kind);
        if (!c) {
            problem(R, at, "missing (expected {\"run\", \"skipped\", \"reason\"})");
            ok = 0;
        } else if (!json_is_object(c)) {
            problem(R, at, "expected an object, saw %s", json_kind(c));
            ok = 0;
        } else {
            ok &= check_keys(R, at, c, count_keys, 3, 0);
        }
    }
    return ok;
}

static int check_expectation(struct reader *R, const char *where, const json_t *v)
{
    static const struct key keys[] = { { "expect", T_VERDICT, 0 }, { "pattern", T_STRING, 0 },
                                       { "reason", T_TEXT, 0 }, { "link", T_TEXT, 0 } };
    return json_is_null(v) || check_keys(R, where, v, keys, 4, 0);
}

static int check_value(struct reader *R, const char *where, const json_t *v, enum type t)
{
    enum wk_verdict verdict;
    int ok = 1;
    switch (t) {
    case T_STRING: ok = json_is_string(v); break;
    case T_NAME: ok = json_is_string(v) && json_string_length(v) > 0; break;
    case T_ID:
        ok = json_is_string(v) && json_string_length(v) > 0 && json_string_length(v) < 96 &&
             strspn(json_string_value(v), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                 json_string_length(v);
        break;
    case T_TEXT: ok = json_is_string(v) || json_is_null(v); break;
    case T_COUNT: ok = json_is_integer(v) && json_integer_value(v) >= 0; break;
    case T_STEP: ok = json_is_integer(v) && json_integer_value(v) >= -1; break;
    case T_JOBS: ok = json_is_integer(v) && json_integer_value(v) >= 1; break;
    case T_BOOL: ok = json_is_boolean(v); break;
    case T_SECONDS: ok = json_is_number(v) && json_number_value(v) >= 0; break;
    case T_OBJECT:
    case T_CHECKS: ok = json_is_object(v); break;
    case T_ARRAY: ok = json_is_array(v); break;
    case T_EXPECTATION: ok = json_is_null(v) || json_is_object(v); break;
    case T_STRINGS:
        ok = json_is_array(v);
        for (size_t i = 0; ok && i < json_array_size(v); i++)
            ok = json_is_string(json_array_get(v, i));
        break;
    case T_VERDICT:
    case T_VERDICT_NULL:
        if (t == T_VERDICT_NULL && json_is_null(v))
            break;
        if (json_is_string(v) && !verdict_of(json_string_value(v), &verdict)) {
            problem(R, where, "unknown verdict \"%.80s\"", json_string_value(v));
            return 0;
        }
        ok = json_is_string(v);
        break;
    }
    if (!ok) {
        if (json_is_integer(v) || json_is_real(v))
            problem(R, where, "expected %s, saw %s %g", type_words(t), json_kind(v), json_number_value(v));
        else if (json_is_string(v))
            problem(R, where, "expected %s, saw \"%.80s\"", type_words(t), json_string_value(v));
        else
            problem(R, where, "expected %s, saw %s", type_words(t), json_kind(v));
        return 0;
    }
    if (t == T_CHECKS)
        return check_checks(R, where, v);
    if (t == T_EXPECTATION)
        return check_expectation(R, where, v);
    return 1;
}

/* Every string, keys too, within WK_RESULTS_MAX_TEXT bytes. */
static int strings_bounded(struct reader *R, const json_t *v)
{
    const char *key;
    json_t *value;
    size_t i;
    switch (json_typeof(v)) {
    case JSON_STRING:
        if (json_string_length(v) <= WK_RESULTS_MAX_TEXT)
            return 1;
        problem(R, "", "a string of %zu bytes (at most %u): \"%.40s...\"", json_string_length(v),
                WK_RESULTS_MAX_TEXT, json_string_value(v));
        return 0;
    case JSON_OBJECT:
        json_object_foreach((json_t *)v, key, value) {
            if (strlen(key) > WK_RESULTS_MAX_TEXT) {
                problem(R, "", "a key of %zu bytes (at most %u)", strlen(key), WK_RESULTS_MAX_TEXT);
                return 0;
            }
            if (!strings_bounded(R, value))
                return 0;
        }
        return 1;
    case JSON_ARRAY:
        json_array_foreach(v, i, value)
            if (!strings_bounded(R, value))
                return 0;
        return 1;
    default: return 1;
    }
}

/* ------------------------------------------------------------------ */
/* The report                                                           */
/* ------------------------------------------------------------------ */

static const struct key top_keys[] = {
    { "format", T_STRING, 0 },     { "environment", T_OBJECT, 0 }, { "status", T_STRING, 0 },
    { "signal", T_TEXT, 0 },       { "seconds", T_SECONDS, 0 },    { "cases", T_ARRAY, 0 },
    { "spec_errors", T_STRINGS, 0 }, { "checks", T_CHECKS, 0 },     { "totals", T_OBJECT, 0 },
};

static const struct key environment_keys[] = {
    { "kit_version", T_NAME, 0 },    { "kit_commit", T_STRING, 1 }, { "driver", T_TEXT, 0 },
    { "driver_sha256", T_TEXT, 1 },  { "driver_build_id", T_TEXT, 1 }, { "profile", T_STRING, 0 },
    { "seed", T_COUNT, 0 },          { "host", T_STRING, 0 },       { "start_time", T_STRING, 0 },
    { "jobs", T_JOBS, 0 },           { "shard", T_TEXT, 0 },
};

static const struct key case_keys[] = {
    { "id", T_ID, 0 },             { "area", T_NAME, 0 },          { "verdict", T_VERDICT, 0 },
    { "unexpected", T_BOOL, 0 },   { "run_verdict", T_VERDICT, 0 }, { "rule", T_TEXT, 0 },
    { "rules_tripped", T_STRINGS, 0 }, { "trips", T_TEXT, 0 },     { "covers", T_STRINGS, 0 },
    { "expected", T_TEXT, 0 },     { "seen", T_TEXT, 0 },          { "seconds", T_SECONDS, 0 },
    { "failed_step", T_STEP, 0 },  { "step", T_TEXT, 0 },          { "attempts", T_COUNT, 0 },
    { "rerun_verdict", T_VERDICT_NULL, 0 }, { "expectation", T_EXPECTATION, 0 }, { "file", T_TEXT, 0 },
    { "line", T_COUNT, 0 },        { "not_evaluated", T_COUNT, 0 }, { "checks", T_CHECKS, 0 },
    { "output", T_TEXT, 0 },       { "also", T_TEXT, 3 },
};

static const char *const total_names[] = { "selected", "finished", "unexpected", "spec_errors" };

static int check_totals(struct reader *R, const json_t *t)
{
    int ok = 1;
    char at[64];
    for (size_t i = 0; i < sizeof(total_names) / sizeof(total_names[0]); i++) {
        snprintf(at, sizeof(at), "totals.%s", total_names[i]);
        const json_t *v = json_object_get(t, total_names[i]);
        ok &= v ? check_value(R, at, v, T_COUNT) : (problem(R, at, "missing (expected an integer >= 0)"), 0);
    }
    for (int i = 0; i < WK_VERDICT_COUNT; i++) {
        const char *name = wk_verdict_name((enum wk_verdict)i);
        snprintf(at, sizeof(at), "totals.%s", name);
        const json_t *v = json_object_get(t, name);
        ok &= v ? check_value(R, at, v, T_COUNT) : (problem(R, at, "missing (expected an integer >= 0)"), 0);
    }
    return ok;
}

/* format "wddmkit-conform-1", schema_version "1.MINOR" (absent: 1.0). */
static int check_version(struct reader *R, const json_t *root, struct wk_results *r)
{
    const char *format = json_string_value(json_object_get(root, "format"));
    unsigned major = 0, minor = 0;
    int used = 0;
    if (!format || sscanf(format, "wddmkit-conform-%u%n", &major, &used) != 1 || format[used]) {
        if (format)
            problem(R, "format", "\"%.80s\" is not a wddmkit conform report (expected \"wddmkit-conform-1\")",
                    format);
        else
            problem(R, "format", "missing: not a wddmkit conform --json report");
        return 0;
    }
    if (major != 1) {
        problem(R, "format", "\"%s\" is a report of major version %u: this kit reads version 1 (use the kit "
                             "that wrote it, or a newer one)", format, major);
        return 0;
    }
    const json_t *sv = json_object_get(root, "schema_version");
    if (!sv)
        return 1; /* 1.0, before the key was added */
    const char *s = json_string_value(sv);
    unsigned smajor = 0;
    used = 0;
    if (!s || sscanf(s, "%u.%u%n", &smajor, &minor, &used) != 2 || s[used] || !(s[0] >= '0' && s[0] <= '9')) {
        problem(R, "schema_version", "expected \"MAJOR.MINOR\", saw %s%.80s%s", s ? "\"" : "",
                s ? s : json_kind(sv), s ? "\"" : "");
        return 0;
    }
    if (smajor != 1) {
        problem(R, "schema_version", "\"%s\": major version %u, this kit reads 1.x", s, smajor);
        return 0;
    }
    r->minor = minor;
    return 1;
}

static int by_id(const void *a, const void *b)
{
    const struct wk_results_case *x = a, *y = b;
    return strcmp(x->id, y->id);
}

static const char *text_of(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key)); /* NULL for null */
}

static void fill_case(struct wk_results_case *c, json_t *o)
{
    memset(c, 0, sizeof(*c));
    c->json = o;
    c->id = text_of(o, "id");
    verdict_of(text_of(o, "verdict"), &c->verdict);
    verdict_of(text_of(o, "run_verdict"), &c->run_verdict);
    c->has_rerun = verdict_of(text_of(o, "rerun_verdict"), &c->rerun_verdict);
    c->unexpected = json_is_true(json_object_get(o, "unexpected"));
    c->rule = text_of(o, "rule");
    c->seen = text_of(o, "seen");
    const json_t *x = json_object_get(o, "expectation");
    if (json_is_object(x) && verdict_of(text_of(x, "expect"), &c->expect)) {
        c->has_expectation = 1;
        c->expect_pattern = text_of(x, "pattern");
        c->expect_reason = text_of(x, "reason");
        c->expect_link = text_of(x, "link");
    }
}

static int read_cases(struct reader *R, struct wk_results *r, unsigned minor)
{
    json_t *cases = json_object_get(r->root, "cases");
    size_t n = json_array_size(cases);
    if (n > WK_RESULTS_MAX_CASES) {
        problem(R, "cases", "%zu cases (at most %u)", n, WK_RESULTS_MAX_CASES);
        return 0;
    }
    r->cases = calloc(n ? n : 1, sizeof(*r->cases));
    if (!r->cases)
        return 0;
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        char at[64];
        snprintf(at, sizeof(at), "cases[%zu]", i);
        json_t *o = json_array_get(cases, i);
        if (!json_is_object(o)) {
            problem(R, at, "expected a case object, saw %s", json_kind(o));
            ok = 0;
            continue;
        }
        if (!check_keys(R, at, o, case_keys, sizeof(case_keys) / sizeof(case_keys[0]), minor)) {
            ok = 0;
            continue;
        }
        fill_case(&r->cases[r->count++], o);
    }
    if (!ok)
        return 0;
    /* ids are unique: every consumer matches cases by id */
    struct wk_results_case *sorted = malloc((r->count ? r->count : 1) * sizeof(*sorted));
    if (!sorted)
        return 0;
    if (r->count) /* no cases: no array to copy from */
        memcpy(sorted, r->cases, r->count * sizeof(*sorted));
    qsort(sorted, r->count, sizeof(*sorted), by_id);
    for (size_t i = 1; i < r->count; i++)
        if (strcmp(sorted[i - 1].id, sorted[i].id) == 0) {
            problem(R, "cases", "the id \"%.80s\" twice: a report has each case once", sorted[i].id);
            ok = 0;
            break;
        }
    free(r->cases);
    r->cases = sorted; /* kept in id order: wk_results_find searches it */
    return ok;
}

static void read_environment(struct wk_results *r)
{
    const json_t *e = json_object_get(r->root, "environment");
    r->status = text_of(r->root, "status");
    r->kit_version = text_of(e, "kit_version");
    r->kit_commit = text_of(e, "kit_commit");
    r->driver = text_of(e, "driver");
    r->driver_sha256 = text_of(e, "driver_sha256");
    r->profile = text_of(e, "profile");
    r->seed = (uint64_t)json_integer_value(json_object_get(e, "seed"));
    r->shard = text_of(e, "shard");
    r->start_time = text_of(e, "start_time");
}

static int check_document(struct reader *R, struct wk_results *r)
{
    json_t *root = r->root;
    if (!json_is_object(root)) {
        problem(R, "", "expected a JSON object (a wddmkit conform --json report), saw %s", json_kind(root));
        return 0;
    }
    if (!check_version(R, root, r))
        return 0;
    if (!strings_bounded(R, root))
        return 0;
    int ok = check_keys(R, "", root, top_keys, sizeof(top_keys) / sizeof(top_keys[0]), r->minor);
    if (!ok)
        return 0;
    const json_t *env = json_object_get(root, "environment");
    ok &= check_keys(R, "environment", env, environment_keys, sizeof(environment_keys) / sizeof(environment_keys[0]),
                     r->minor);
    ok &= check_totals(R, json_object_get(root, "totals"));
    const char *status = text_of(root, "status");
    if (strcmp(status, "complete") != 0 && strcmp(status, "interrupted") != 0 &&
        strcmp(status, "total-timeout") != 0) {
        problem(R, "status", "expected complete, interrupted or total-timeout, saw \"%.80s\"", status);
        ok = 0;
    }
    if (ok && !read_cases(R, r, r->minor))
        ok = 0;
    if (ok)
        read_environment(r);
    return ok;
}

wk_status wk_results_parse(const char *name, const char *text, size_t size, struct wk_results **out, FILE *err)
{
    struct reader R = { name, err, 0 };
    *out = NULL;
    if (size > WK_RESULTS_MAX_BYTES) {
        problem(&R, "", "larger than %u bytes", WK_RESULTS_MAX_BYTES);
        return WK_E_LIMIT;
    }
    if (too_deep(&R, text, size))
        return WK_E_LIMIT;
    struct wk_results *r = calloc(1, sizeof(*r));
    if (!r || !(r->name = strdup(name))) {
        free(r);
        return WK_E_NO_MEMORY;
    }
    json_error_t e;
    r->root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &e);
    if (!r->root) {
        char where[64];
        snprintf(where, sizeof(where), "%d:%d", e.line, e.column);
        problem(&R, where, "JSON syntax error: %s", e.text);
        wk_results_free(r);
        return WK_E_INVALID_ARGUMENT;
    }
    int ok = check_document(&R, r);
    if (R.problems > MAX_PROBLEMS)
        fprintf(err, "%s: %u more problems\n", name, R.problems - MAX_PROBLEMS);
    if (!ok) {
        if (!R.problems)
            fprintf(err, "%s: out of memory\n", name);
        wk_results_free(r);
        return R.problems ? WK_E_INVALID_ARGUMENT : WK_E_NO_MEMORY;
    }
    *out = r;
    return WK_OK;
}

wk_status wk_results_load(const char *path, struct wk_results **out, FILE *err)
{
    *out = NULL;
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(err, "%s: %s\n", path, strerror(errno));
        return WK_E_IO;
    }
    char *buf = malloc(WK_RESULTS_MAX_BYTES + 1);
    if (!buf) {
        if (!is_stdin)
            fclose(f);
        return WK_E_NO_MEMORY;
    }
    size_t n = fread(buf, 1, WK_RESULTS_MAX_BYTES + 1, f);
    int failed = ferror(f);
    if (!is_stdin)
        fclose(f);
    wk_status st;
    if (failed) {
        fprintf(err, "%s: read error\n", path);
        st = WK_E_IO;
    } else {
        st = wk_results_parse(is_stdin ? "(stdin)" : path, buf, n, out, err);
    }
    free(buf);
    return st;
}

void wk_results_free(struct wk_results *r)
{
    if (!r)
        return;
    json_decref(r->root);
    free(r->cases);
    free(r->name);
    free(r);
}

const struct wk_results_case *wk_results_find(const struct wk_results *r, const char *id)
{
    size_t lo = 0, hi = r->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(r->cases[mid].id, id);
        if (c == 0)
            return &r->cases[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

size_t wk_results_key_names(const char **out, size_t cap)
{
    static const char *const extra[] = { "schema_version", "run", "skipped", "reason", "expect", "pattern", "link" };
    size_t n = 0;
#define TAKE(table, field)                                                                                            \
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)                                                   \
        if (n < cap)                                                                                                 \
            out[n++] = table[i] field;
    TAKE(top_keys, .name)
    TAKE(environment_keys, .name)
    TAKE(case_keys, .name)
    TAKE(total_names, )
    TAKE(extra, )
#undef TAKE
    return n;
}
