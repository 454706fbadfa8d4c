/* SPDX-License-Identifier: MIT */
/*
 * lcov_summary.c - rows per file and the never-run functions of an lcov
 * tracefile (lcov_summary.h), for `wddmkit coverage` (cli_coverage.c).
 *
 * The tracefile is llvm-cov's output, read a line at a time with getline
 * (any length); numbers are parsed with strtoul and a field that is not a
 * number counts as 0. The per-record function table grows with the file's
 * functions, the only allocation that depends on the input.
 */
#define _POSIX_C_SOURCE 200809L /* getline, strnlen */

#include <stdlib.h>
#include <string.h>

#include "lcov_summary.h"

#define NAME_MAX_BYTES 512u /* a file's name as printed */
#define FN_NAME_BYTES 128u  /* a function's name as printed */

struct fn_entry {
    char name[FN_NAME_BYTES];
    unsigned long line, count;
};

struct record {
    char file[NAME_MAX_BYTES];
    unsigned long lines, lines_hit, fnf, fnh; /* LF, LH, FNF, FNH as given */
    struct fn_entry *fns;
    size_t nfns, cap;
    int oom;
};

static void copy_cut(char *dst, size_t cap, const char *src)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* "<unit>.c:name" -> "name" */
static const char *bare_name(const char *name)
{
    const char *colon = strrchr(name, ':');
    return colon ? colon + 1 : name;
}

static struct fn_entry *fn_lookup(struct record *r, const char *name)
{
    char bare[FN_NAME_BYTES];
    copy_cut(bare, sizeof(bare), bare_name(name));
    for (size_t i = 0; i < r->nfns; i++)
        if (strcmp(r->fns[i].name, bare) == 0)
            return &r->fns[i];
    if (r->nfns == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        struct fn_entry *v = realloc(r->fns, cap * sizeof(*v));
        if (!v) {
            r->oom = 1;
            return NULL;
        }
        r->fns = v;
        r->cap = cap;
    }
    struct fn_entry *e = &r->fns[r->nfns++];
    memset(e, 0, sizeof(*e));
    memcpy(e->name, bare, sizeof(bare));
    return e;
}

/* FN:<line>,<name> and FNDA:<count>,<name>. */
static void fn_line(struct record *r, const char *line)
{
    int is_fn = strncmp(line, "FN:", 3) == 0, is_da = strncmp(line, "FNDA:", 5) == 0;
    const char *num = line + (is_fn ? 3 : 5), *comma = is_fn || is_da ? strchr(num, ',') : NULL;
    if (!comma || !comma[1])
        return;
    struct fn_entry *e = fn_lookup(r, comma + 1);
    if (!e)
        return;
    unsigned long v = strtoul(num, NULL, 10);
    if (is_fn && !e->line)
        e->line = v;
    if (is_da && v > e->count)
        e->count = v;
}

static unsigned long number_after(const char *line, size_t key_len)
{
    return strtoul(line + key_len, NULL, 10);
}

/* A record ends: its row, its totals, its functions that never ran. With
 * no FN lines the file's FNF/FNH stand. */
static void end_record(struct record *r, FILE *rows, FILE *never, struct wk_lcov_totals *t)
{
    unsigned long fns = r->fnf, hit = r->fnh;
    if (r->nfns) {
        fns = r->nfns;
        hit = 0;
        for (size_t i = 0; i < r->nfns; i++)
            hit += r->fns[i].count != 0;
    }
    fprintf(rows, "  %6.2f%%  %5lu/%-5lu lines  %4lu/%-4lu functions  %s\n",
            r->lines ? 100.0 * (double)r->lines_hit / (double)r->lines : 100.0, r->lines_hit, r->lines, hit, fns,
            r->file);
    t->files++;
    t->lines += r->lines;
    t->lines_hit += r->lines_hit;
    t->fns += fns;
    t->fns_hit += hit;
    for (size_t i = 0; i < r->nfns; i++)
        if (!r->fns[i].count) {
            fprintf(never, "%s\t%s:%lu\n", r->fns[i].name, r->file, r->fns[i].line);
            t->never_run++;
        }
}

static void start_record(struct record *r, const char *file)
{
    copy_cut(r->file, sizeof(r->file), file);
    r->lines = r->lines_hit = r->fnf = r->fnh = 0;
    r->nfns = 0;
}

int wk_lcov_summarize(FILE *in, FILE *rows, FILE *never, struct wk_lcov_totals *totals)
{
    memset(totals, 0, sizeof(*totals));
    struct record r;
    memset(&r, 0, sizeof(r));
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, in) >= 0) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "SF:", 3) == 0)
            start_record(&r, line + 3);
        else if (strncmp(line, "LF:", 3) == 0)
            r.lines = number_after(line, 3);
        else if (strncmp(line, "LH:", 3) == 0)
            r.lines_hit = number_after(line, 3);
        else if (strncmp(line, "FNF:", 4) == 0)
            r.fnf = number_after(line, 4);
        else if (strncmp(line, "FNH:", 4) == 0)
            r.fnh = number_after(line, 4);
        else if (strcmp(line, "end_of_record") == 0)
            end_record(&r, rows, never, totals);
        else
            fn_line(&r, line);
    }
    free(line);
    free(r.fns);
    return r.oom ? -1 : 0;
}
