/* SPDX-License-Identifier: MIT */
/*
 * expectations.c - the expectations file of `wddmkit conform` (format in
 * expectations.h), read with libyaml's event parser.
 *
 * Events rather than a document tree: the file is flat (a sequence of
 * four-key mappings), events carry the line and column every message needs,
 * and nothing is built that the input could blow up. Anchors and aliases
 * are refused outright, and so is nesting deeper than
 * WK_EXPECTATIONS_MAX_DEPTH or more than WK_EXPECTATIONS_MAX_NODES nodes,
 * checked as each event arrives, before libyaml is asked for more (it
 * would otherwise scan all of a 160k-deep value to skip it). Within an entry every problem is reported (unknown
 * key, wrong type, bad value, missing key) before the parse moves on, so
 * one run shows them all; a YAML syntax error ends the parse.
 */
#define _GNU_SOURCE
#include "expectations.h"
#include "util.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct parse {
    yaml_parser_t y;
    const char *name;
    FILE *err;
    int errors;
    int fatal;                        /* a syntax error: stop */
    struct wk_expectations *e;
    size_t cap;
    uint32_t depth;                   /* open collections */
    uint32_t nodes;                   /* nodes read so far */
};

static void errorf(struct parse *P, yaml_mark_t m, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One line per problem, whatever the file holds: a value the message
 * quotes may span lines (a multi-line plain scalar) or hold control bytes,
 * which are shown as \n and \xNN (fuzz_spec found the first). */
static void errorf(struct parse *P, yaml_mark_t m, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(P->err, "%s:%zu:%zu: ", P->name, m.line + 1, m.column + 1);
    wk_str_put_one_line(P->err, line);
    fputc('\n', P->err);
    P->errors++;
}

static const char *anchor_of(const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_SCALAR_EVENT: return (const char *)ev->data.scalar.anchor;
    case YAML_SEQUENCE_START_EVENT: return (const char *)ev->data.sequence_start.anchor;
    case YAML_MAPPING_START_EVENT: return (const char *)ev->data.mapping_start.anchor;
    default: return NULL;
    }
}

/* Counts the event against the limits; 0 after saying which it broke. */
static int within_limits(struct parse *P, const yaml_event_t *ev)
{
    int opens = ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT;
    if (opens || ev->type == YAML_SCALAR_EVENT) {
        if (P->nodes == WK_EXPECTATIONS_MAX_NODES) {
            errorf(P, ev->start_mark, "too many YAML nodes: at most %u per file", WK_EXPECTATIONS_MAX_NODES);
            return 0;
        }
        P->nodes++;
    }
    if (opens && P->depth == WK_EXPECTATIONS_MAX_DEPTH) {
        errorf(P, ev->start_mark, "nesting deeper than %u levels", WK_EXPECTATIONS_MAX_DEPTH);
        return 0;
    }
    if (opens)
        P->depth++;
    else if ((ev->type == YAML_SEQUENCE_END_EVENT || ev->type == YAML_MAPPING_END_EVENT) && P->depth)
        P->depth--;
    return 1;
}

/* The next event; 0 (nothing to delete) on a syntax error, an alias or a
 * broken limit. */
static int next(struct parse *P, yaml_event_t *ev)
{
    if (P->fatal)
        return 0;
    if (!yaml_parser_parse(&P->y, ev)) {
        errorf(P, P->y.problem_mark, "YAML syntax error: %s%s%s", P->y.problem ? P->y.problem : "unknown",
               P->y.context ? " " : "", P->y.context ? P->y.context : "");
        P->fatal = 1;
        return 0;
    }
    if (ev->type == YAML_ALIAS_EVENT || anchor_of(ev)) {
        errorf(P, ev->start_mark, "YAML anchors and aliases are not allowed in an expectations file");
        yaml_event_delete(ev);
        P->fatal = 1;
        return 0;
    }
    if (!within_limits(P, ev)) {
        yaml_event_delete(ev);
        P->fatal = 1;
        return 0;
    }
    return 1;
}

/* Skips the rest of a node whose start event `ev` was just read (deleted). */
static void skip_node(struct parse *P, yaml_event_t *ev)
{
    int depth = ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT;
    yaml_event_delete(ev);
    while (depth > 0) {
        yaml_event_t e;
        if (!next(P, &e))
            return;
        if (e.type == YAML_SEQUENCE_START_EVENT || e.type == YAML_MAPPING_START_EVENT)
            depth++;
        else if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT)
            depth--;
        yaml_event_delete(&e);
    }
}

static const char *node_kind(const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_SEQUENCE_START_EVENT: return "a sequence";
    case YAML_MAPPING_START_EVENT: return "a mapping";
    default: return "something else";
    }
}

/* What a plain scalar resolves to under YAML 1.1, when it is not a string. */
static const char *plain_type(const yaml_event_t *ev)
{
    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return NULL;
    const char *s = (const char *)ev->data.scalar.value;
    static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
    static const char *const bools[] = { "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes",
                                         "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF" };
    for (size_t i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
        if (strcmp(s, nulls[i]) == 0)
            return "null";
    for (size_t i = 0; i < sizeof(bools) / sizeof(bools[0]); i++)
        if (strcmp(s, bools[i]) == 0)
            return "a boolean";
    const char *p = s + (*s == '-' || *s == '+');
    if (*p >= '0' && *p <= '9' && strspn(p, "0123456789abcdefABCDEFxXoO_") == strlen(p))
        return "an integer";
    if (*p && strspn(p, "0123456789._eE+-") == strlen(p) && strchr(p, '.'))
        return "a number";
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Values                                                               */
/* ------------------------------------------------------------------ */

static int printable(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

static int check_id(struct parse *P, const yaml_event_t *v, const char *s)
{
    if (!s[0] || strlen(s) > 255 || strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                              "._-*?[]!^") != strlen(s)) {
        errorf(P, v->start_mark, "key 'id': expected a case id or glob ([a-z0-9.-] and *?[]!, at most 255 "
                                 "characters), saw '%.80s'", s);
        return 0;
    }
    return 1;
}

static int check_expect(struct parse *P, const yaml_event_t *v, const char *s, enum wk_verdict *out)
{
    static const struct { const char *word; enum wk_verdict v; } words[] = {
        { "fail", WK_VERDICT_FAIL }, { "flake", WK_VERDICT_FLAKE }, { "skip", WK_VERDICT_SKIP },
        { "crash", WK_VERDICT_CRASH }, { "timeout", WK_VERDICT_TIMEOUT },
    };
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strcmp(s, words[i].word) == 0) {
            *out = words[i].v;
            return 1;
        }
    errorf(P, v->start_mark, "key 'expect': expected one of fail, flake, skip, crash, timeout, saw '%.80s'", s);
    return 0;
}

static int check_text(struct parse *P, const yaml_event_t *v, const char *key, const char *s)
{
    if (!s[0] || strlen(s) > WK_EXPECTATION_MAX_TEXT || !printable(s)) {
        errorf(P, v->start_mark, "key '%s': expected a non-empty one-line string of at most %u bytes", key,
               WK_EXPECTATION_MAX_TEXT);
        return 0;
    }
    return 1;
}

/* A URL (scheme://...) or an issue reference (project#42). */
static int check_link(struct parse *P, const yaml_event_t *v, const char *s)
{
    if (!check_text(P, v, "link", s))
        return 0;
    const char *scheme = strstr(s, "://");
    const char *hash = strrchr(s, '#');
    int url = scheme && scheme > s && strspn(s, "abcdefghijklmnopqrstuvwxyz+.-") == (size_t)(scheme - s) &&
              scheme[3] && !strpbrk(s, " \t");
    int issue = !scheme && hash && hash > s && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1) &&
                strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-") == (size_t)(hash - s);
    if (!url && !issue) {
        errorf(P, v->start_mark, "key 'link': expected a URL (https://...) or an issue reference (project#42), "
                                 "saw '%.80s'", s);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Entries                                                              */
/* ------------------------------------------------------------------ */

enum { K_ID, K_EXPECT, K_REASON, K_LINK, K_COUNT };
static const char *const key_names[K_COUNT] = { "id", "expect", "reason", "link" };

static void free_entry(struct wk_expectation *x)
{
    free(x->pattern);
    free(x->reason);
    free(x->link);
    memset(x, 0, sizeof(*x));
}

/* Stores one key's value `v` (a scalar) in x; 1 when valid. */
static int take_value(struct parse *P, struct wk_expectation *x, int key, const yaml_event_t *v)
{
    const char *s = (const char *)v->data.scalar.value;
    const char *type = plain_type(v);
    if (type && !(key == K_ID && strcmp(type, "null") != 0)) {
        errorf(P, v->start_mark, "key '%s': expected a string, saw %s '%.80s'", key_names[key], type, s);
        return 0;
    }
    int ok = key == K_ID       ? check_id(P, v, s)
             : key == K_EXPECT ? check_expect(P, v, s, &x->expect)
             : key == K_LINK   ? check_link(P, v, s)
                               : check_text(P, v, key_names[key], s);
    if (!ok || key == K_EXPECT)
        return ok;
    char **slot = key == K_ID ? &x->pattern : key == K_REASON ? &x->reason : &x->link;
    *slot = strdup(s);
    if (!*slot) {
        errorf(P, v->start_mark, "out of memory");
        return 0;
    }
    return 1;
}

static int find_key(const char *k)
{
    for (int i = 0; i < K_COUNT; i++)
        if (strcmp(k, key_names[i]) == 0)
            return i;
    return -1;
}

/* One key: value pair of an entry; `key` is the key's event (deleted here). */
static void parse_pair(struct parse *P, struct wk_expectation *x, int *seen, int *bad, yaml_event_t *key)
{
    yaml_event_t v;
    int k = key->type == YAML_SCALAR_EVENT ? find_key((const char *)key->data.scalar.value) : -1;
    if (key->type != YAML_SCALAR_EVENT)
        errorf(P, key->start_mark, "expected a key (id, expect, reason or link), saw %s", node_kind(key));
    else if (k < 0)
        errorf(P, key->start_mark, "unknown key '%.40s' (expected id, expect, reason or link)",
               (const char *)key->data.scalar.value);
    else if (seen[k])
        errorf(P, key->start_mark, "duplicate key '%s'", key_names[k]);
    int usable = k >= 0 && !seen[k];
    if (k >= 0)
        seen[k] = 1;
    *bad |= !usable;
    skip_node(P, key);
    if (!next(P, &v))
        return;
    if (usable && v.type != YAML_SCALAR_EVENT) {
        errorf(P, v.start_mark, "key '%s': expected a string, saw %s", key_names[k], node_kind(&v));
        *bad = 1;
    } else if (usable && !take_value(P, x, k, &v)) {
        *bad = 1;
    }
    skip_node(P, &v);
}

static int append(struct parse *P, const struct wk_expectation *x)
{
    struct wk_expectations *e = P->e;
    if (e->count == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 16;
        struct wk_expectation *n = realloc(e->entries, cap * sizeof(*n));
        if (!n)
            return 0;
        e->entries = n;
        P->cap = cap;
    }
    e->entries[e->count++] = *x;
    return 1;
}

static void check_duplicate(struct parse *P, const struct wk_expectation *x, yaml_mark_t m)
{
    for (size_t i = 0; i < P->e->count; i++)
        if (strcmp(P->e->entries[i].pattern, x->pattern) == 0) {
            errorf(P, m, "duplicate entry for '%.80s' (first at line %u)", x->pattern, P->e->entries[i].line);
            return;
        }
}

/* An entry; `start` is its MAPPING_START event (deleted here). */
static void parse_entry(struct parse *P, yaml_event_t *start)
{
    struct wk_expectation x;
    memset(&x, 0, sizeof(x));
    yaml_mark_t at = start->start_mark;
    x.line = (uint32_t)at.line + 1;
    x.column = (uint32_t)at.column + 1;
    yaml_event_delete(start);
    int seen[K_COUNT] = { 0 }, bad = 0;
    yaml_event_t key;
    while (next(P, &key) && key.type != YAML_MAPPING_END_EVENT)
        parse_pair(P, &x, seen, &bad, &key);
    if (P->fatal) {
        free_entry(&x);
        return;
    }
    yaml_event_delete(&key);
    static const char *const forms[K_COUNT] = { "a case id or glob", "fail, flake, skip, crash or timeout",
                                                "why the result is expected", "a URL or an issue reference" };
    for (int k = 0; k < K_COUNT; k++)
        if (!seen[k]) {
            errorf(P, at, "entry: missing key '%s' (%s)", key_names[k], forms[k]);
            bad = 1;
        }
    if (!bad)
        check_duplicate(P, &x, at);
    if (bad || P->errors) {
        free_entry(&x);
    } else if (!append(P, &x)) {
        errorf(P, at, "out of memory");
        free_entry(&x);
    }
}

static void parse_entries(struct parse *P)
{
    yaml_event_t ev;
    while (next(P, &ev) && ev.type != YAML_SEQUENCE_END_EVENT) {
        if (P->e->count >= WK_EXPECTATIONS_MAX_ENTRIES) {
            errorf(P, ev.start_mark, "more than %u entries", WK_EXPECTATIONS_MAX_ENTRIES);
            yaml_event_delete(&ev);
            P->fatal = 1;
            return;
        }
        if (ev.type != YAML_MAPPING_START_EVENT) {
            errorf(P, ev.start_mark, "expected an entry (a mapping with id, expect, reason and link), saw %s",
                   ev.type == YAML_SCALAR_EVENT ? "a scalar" : node_kind(&ev));
            skip_node(P, &ev);
            continue;
        }
        parse_entry(P, &ev);
    }
    if (!P->fatal)
        yaml_event_delete(&ev);
}

/* The whole stream: at most one document, holding a sequence (or nothing). */
static void parse_stream(struct parse *P)
{
    yaml_event_t ev;
    if (!next(P, &ev))
        return;
    yaml_event_delete(&ev); /* STREAM_START */
    if (!next(P, &ev))
        return;
    if (ev.type == YAML_STREAM_END_EVENT) {
        yaml_event_delete(&ev);
        return;
    }
    yaml_event_delete(&ev); /* DOCUMENT_START */
    if (!next(P, &ev))
        return;
    if (ev.type == YAML_SEQUENCE_START_EVENT) {
        yaml_event_delete(&ev);
        parse_entries(P);
    } else if (!(ev.type == YAML_SCALAR_EVENT && plain_type(&ev) && strcmp(plain_type(&ev), "null") == 0)) {
        errorf(P, ev.start_mark, "expected a sequence of entries (- id: ..., expect: ..., reason: ..., link: ...), "
                                 "saw %s", ev.type == YAML_SCALAR_EVENT ? "a scalar" : node_kind(&ev));
        skip_node(P, &ev);
        return;
    } else {
        yaml_event_delete(&ev);
    }
    if (!next(P, &ev))
        return;
    yaml_event_delete(&ev); /* DOCUMENT_END */
    if (!next(P, &ev))
        return;
    if (ev.type != YAML_STREAM_END_EVENT)
        errorf(P, ev.start_mark, "expected one YAML document, saw a second one");
    yaml_event_delete(&ev);
}

/* ------------------------------------------------------------------ */
/* Interface                                                            */
/* ------------------------------------------------------------------ */

wk_status wk_expectations_parse(const char *name, const char *text, size_t size, struct wk_expectations **out,
                                FILE *err)
{
    *out = NULL;
    if (size > WK_EXPECTATIONS_MAX_BYTES) {
        fprintf(err, "%s: larger than %u bytes\n", name, WK_EXPECTATIONS_MAX_BYTES);
        return WK_E_LIMIT;
    }
    struct parse P;
    memset(&P, 0, sizeof(P));
    P.name = name;
    P.err = err;
    P.e = calloc(1, sizeof(*P.e));
    if (!P.e || !(P.e->file = strdup(name)) || !yaml_parser_initialize(&P.y)) {
        wk_expectations_free(P.e);
        return WK_E_NO_MEMORY;
    }
    yaml_parser_set_input_string(&P.y, (const unsigned char *)text, size);
    parse_stream(&P);
    yaml_parser_delete(&P.y);
    if (P.errors) {
        wk_expectations_free(P.e);
        return WK_E_INVALID_ARGUMENT;
    }
    *out = P.e;
    return WK_OK;
}

wk_status wk_expectations_load(const char *path, struct wk_expectations **out, FILE *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(err, "%s: %s\n", path, strerror(errno));
        return WK_E_IO;
    }
    char *buf = malloc(WK_EXPECTATIONS_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        return WK_E_NO_MEMORY;
    }
    size_t n = fread(buf, 1, WK_EXPECTATIONS_MAX_BYTES + 1, f);
    int failed = ferror(f);
    fclose(f);
    wk_status st;
    if (failed) {
        fprintf(err, "%s: read error\n", path);
        st = WK_E_IO;
    } else {
        st = wk_expectations_parse(path, buf, n, out, err);
    }
    free(buf);
    return st;
}

void wk_expectations_free(struct wk_expectations *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->count; i++)
        free_entry(&e->entries[i]);
    free(e->entries);
    free(e->file);
    free(e);
}

const struct wk_expectation *wk_expectations_match(const struct wk_expectations *e, const char *id)
{
    for (size_t i = 0; e && i < e->count; i++)
        if (fnmatch(e->entries[i].pattern, id, 0) == 0)
            return &e->entries[i];
    return NULL;
}

size_t wk_expectations_check_unused(const struct wk_expectations *e, const struct wk_prog *const *cases, size_t n,
                                    FILE *err)
{
    size_t unused = 0;
    for (size_t i = 0; e && i < e->count; i++) {
        const struct wk_expectation *x = &e->entries[i];
        size_t c = 0;
        while (c < n && fnmatch(x->pattern, cases[c]->id, 0) != 0)
            c++;
        if (c == n) {
            fprintf(err, "%s:%u:%u: expectation '%s' matches no case\n", e->file, x->line, x->column, x->pattern);
            unused++;
        }
    }
    return unused;
}
