/* SPDX-License-Identifier: MIT */
/*
 * caselist.c - the case list of `conform --caselist FILE` (caselist.h):
 * lines of ids, read by hand since the format is a line of text, not a
 * standard document (YAML and JSON are read with their libraries).
 */
#define _GNU_SOURCE
#include "caselist.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_PROBLEMS 20

struct parse {
    const char *name;
    FILE *err;
    unsigned problems;
    struct wk_caselist *l;
    size_t cap;
};

static void problem(struct parse *P, uint32_t line, const char *what, const char *text, size_t len)
{
    if (P->problems++ >= MAX_PROBLEMS)
        return;
    fprintf(P->err, "%s:%u: %s", P->name, line, what);
    if (text) {
        fputs(" '", P->err);
        for (size_t i = 0; i < len && i < 80; i++) {
            unsigned char c = (unsigned char)text[i];
            if (c < 0x20 || c >= 0x7f)
                fprintf(P->err, "\\x%02x", c);
            else
                fputc(c, P->err);
        }
        fputs(len > 80 ? "...'" : "'", P->err);
    }
    fputc('\n', P->err);
}

static int id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
}

static int add(struct parse *P, const char *id, size_t len, uint32_t line)
{
    struct wk_caselist *l = P->l;
    if (l->count == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 64;
        struct wk_caselist_id *n = realloc(l->ids, cap * sizeof(*n));
        if (!n)
            return 0;
        l->ids = n;
        P->cap = cap;
    }
    /* memcpy, not strndup: the file's bytes end without a NUL, and ASan's
     * strndup read one past the last line when it had no newline */
    char *copy = malloc(len + 1);
    if (!copy)
        return 0;
    memcpy(copy, id, len);
    copy[len] = '\0';
    l->ids[l->count++] = (struct wk_caselist_id){ copy, line };
    return 1;
}

/* One line (without its newline): an id, a comment or nothing. */
static int take_line(struct parse *P, const char *s, size_t len, uint32_t line)
{
    const char *hash = memchr(s, '#', len);
    if (hash)
        len = (size_t)(hash - s);
    while (len && (s[0] == ' ' || s[0] == '\t'))
        s++, len--;
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
        len--;
    if (!len)
        return 1;
    size_t ok = 0;
    while (ok < len && id_char(s[ok]))
        ok++;
    if (ok < len || len >= sizeof(((struct wk_prog *)0)->id)) {
        problem(P, line,
                memchr(s, '*', len) || memchr(s, '?', len) || memchr(s, '[', len)
                    ? "expected a case id, saw a glob (--filter takes globs):"
                    : "expected one case id ([A-Za-z0-9._-], shorter than 96 characters) a line, saw",
                s, len);
        return 1;
    }
    if (P->l->count >= WK_CASELIST_MAX_IDS) {
        problem(P, line, "more ids than the limit of a case list", NULL, 0);
        return 0;
    }
    if (!add(P, s, len, line)) {
        problem(P, line, "out of memory", NULL, 0);
        return 0;
    }
    return 1;
}

static int by_id(const void *a, const void *b)
{
    const struct wk_caselist_id *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Sorted, each id once (its first line kept). */
static void sort_unique(struct wk_caselist *l)
{
    if (l->count > 1) /* an empty list has no array: qsort takes none */
        qsort(l->ids, l->count, sizeof(*l->ids), by_id);
    size_t m = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (m && strcmp(l->ids[m - 1].id, l->ids[i].id) == 0) {
            free(l->ids[i].id);
            continue;
        }
        l->ids[m++] = l->ids[i];
    }
    l->count = m;
}

wk_status wk_caselist_parse(const char *name, const char *text, size_t size, struct wk_caselist **out, FILE *err)
{
    struct parse P = { name, err, 0, NULL, 0 };
    *out = NULL;
    if (size > WK_CASELIST_MAX_BYTES) {
        fprintf(err, "%s: larger than %u bytes\n", name, WK_CASELIST_MAX_BYTES);
        return WK_E_LIMIT;
    }
    P.l = calloc(1, sizeof(*P.l));
    if (!P.l || !(P.l->file = strdup(name))) {
        free(P.l);
        return WK_E_NO_MEMORY;
    }
    int go_on = 1;
    uint32_t line = 0;
    for (size_t at = 0; at < size && go_on;) {
        const char *nl = memchr(text + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (text + at)) : size - at;
        line++;
        if (memchr(text + at, '\0', len)) {
            problem(&P, line, "a NUL byte: not a text file", NULL, 0);
            go_on = 0;
        } else {
            go_on = take_line(&P, text + at, len, line);
        }
        at += len + 1;
    }
    if (P.problems > MAX_PROBLEMS)
        fprintf(err, "%s: %u more problems\n", name, P.problems - MAX_PROBLEMS);
    if (P.problems) {
        wk_caselist_free(P.l);
        return WK_E_INVALID_ARGUMENT;
    }
    sort_unique(P.l);
    *out = P.l;
    return WK_OK;
}

wk_status wk_caselist_load(const char *path, struct wk_caselist **out, FILE *err)
{
    uint8_t *bytes = NULL;
    size_t n = 0;
    char why[160];
    *out = NULL;
    wk_status st = wk_file_read(path, WK_CASELIST_MAX_BYTES, &bytes, &n, why, sizeof(why));
    if (st != WK_OK) {
        fprintf(err, "%s: %s\n", path, why);
        return st == WK_E_LIMIT ? WK_E_LIMIT : WK_E_IO;
    }
    st = wk_caselist_parse(path, (const char *)bytes, n, out, err);
    free(bytes);
    return st;
}

void wk_caselist_free(struct wk_caselist *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->count; i++)
        free(l->ids[i].id);
    free(l->ids);
    free(l->file);
    free(l);
}

int wk_caselist_has(const struct wk_caselist *l, const char *id)
{
    size_t lo = 0, hi = l->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(l->ids[mid].id, id);
        if (c == 0)
            return 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static int prog_by_id(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t wk_caselist_check_unknown(const struct wk_caselist *l, const struct wk_prog *const *cases, size_t n,
                                 FILE *err)
{
    const char **ids = malloc((n ? n : 1) * sizeof(*ids));
    if (!ids)
        return l->count; /* nothing can be said to be known */
    for (size_t i = 0; i < n; i++)
        ids[i] = cases[i]->id;
    qsort(ids, n, sizeof(*ids), prog_by_id);
    size_t unknown = 0;
    for (size_t i = 0; i < l->count; i++) {
        const char *key = l->ids[i].id;
        if (!bsearch(&key, ids, n, sizeof(*ids), prog_by_id)) {
            fprintf(err, "%s:%u: no case '%s' among the loaded specs\n", l->file, l->ids[i].line, l->ids[i].id);
            unknown++;
        }
    }
    free(ids);
    return unknown;
}
