/* SPDX-License-Identifier: MIT */
/*
 * spec_set.c - spec sets, diagnostics, and reading files and folders.
 *
 * Everything here is bounded before it allocates: a file is read up to
 * WK_SPEC_MAX_FILE_SIZE + 1 bytes (one more tells "too large" from "just
 * fits", and a FIFO or /dev/zero cannot make us swallow it), a folder to
 * WK_SPEC_MAX_DIR_ENTRIES entries and WK_SPEC_MAX_DIR_DEPTH levels (symbolic
 * links to folders are not followed, so a loop cannot recurse), a set to
 * WK_SPEC_MAX_CASES programs, the kept diagnostics to their `max`.
 */
#define _POSIX_C_SOURCE 200809L /* strdup, lstat */

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spec_internal.h"

/* ------------------------------------------------------------------ */
/* Diagnostics                                                          */
/* ------------------------------------------------------------------ */

void wk_diag_init(struct wk_diag *d, uint32_t max)
{
    memset(d, 0, sizeof(*d));
    d->max = max ? max : WK_DIAG_DEFAULT_MAX;
}

void wk_diag_free(struct wk_diag *d)
{
    for (uint32_t i = 0; i < d->count; i++)
        free(d->messages[i]);
    free(d->messages);
    d->messages = NULL;
    d->count = 0;
    d->errors = 0;
    d->warnings = 0;
}

void wk_diag_addf(struct wk_diag *d, const char *fmt, ...)
{
    char msg[WK_DIAG_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    d->errors++;
    if (d->echo)
        fprintf(d->echo, "%s\n", msg);
    if (d->count >= d->max)
        return;
    if (!d->messages) {
        d->messages = calloc(d->max, sizeof(*d->messages));
        if (!d->messages)
            return;
    }
    d->messages[d->count] = strdup(msg);
    if (d->messages[d->count])
        d->count++;
}

void wk_diag_warnf(struct wk_diag *d, const char *fmt, ...)
{
    d->warnings++;
    if (!d->warn)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->warn, fmt, ap);
    va_end(ap);
    fputc('\n', d->warn);
}

void wk_diag_print(const struct wk_diag *d, FILE *out)
{
    for (uint32_t i = 0; i < d->count; i++)
        fprintf(out, "%s\n", d->messages[i]);
    if (d->errors > d->count)
        fprintf(out, "... and %u more\n", d->errors - d->count);
}

/* ------------------------------------------------------------------ */
/* Sets                                                                 */
/* ------------------------------------------------------------------ */

void wk_spec_set_init(struct wk_spec_set *set)
{
    memset(set, 0, sizeof(*set));
}

void wk_spec_set_free(struct wk_spec_set *set)
{
    for (uint32_t i = 0; i < set->count; i++) {
        wk_prog_free(set->progs[i]);
        free(set->progs[i]);
    }
    free(set->progs);
    wk_spec_set_init(set);
}

const struct wk_prog *wk_spec_find(const struct wk_spec_set *set, const char *id)
{
    for (uint32_t i = 0; i < set->count; i++)
        if (strcmp(set->progs[i]->id, id) == 0)
            return set->progs[i];
    return NULL;
}

static wk_status add_or_why(struct wk_spec_set *set, struct wk_spec_ctx *c, struct wk_prog *p,
                            const struct wk_ynode *at)
{
    const struct wk_prog *old = wk_spec_find(set, p->id);
    if (old) {
        spec_error(c, at, "key 'id': duplicate id '%s' (first defined at %s:%u)", p->id, old->file, old->line);
        return WK_E_INVALID_ARGUMENT;
    }
    if (set->count == WK_SPEC_MAX_CASES) {
        spec_error(c, at, "too many cases: at most %u in one load", WK_SPEC_MAX_CASES);
        return WK_E_LIMIT;
    }
    if (set->count == set->capacity) {
        uint32_t capacity = set->capacity ? set->capacity * 2 : 16;
        struct wk_prog **grown = realloc(set->progs, capacity * sizeof(*grown));
        if (!grown) {
            spec_error(c, at, "out of host memory");
            return WK_E_NO_MEMORY;
        }
        set->progs = grown;
        set->capacity = capacity;
    }
    set->progs[set->count++] = p;
    return WK_OK;
}

wk_status spec_set_add(struct wk_spec_set *set, struct wk_spec_ctx *c, struct wk_prog *p,
                       const struct wk_ynode *at)
{
    wk_status st = add_or_why(set, c, p, at);
    if (st != WK_OK) {
        wk_prog_free(p);
        free(p);
    }
    return st;
}

/* ------------------------------------------------------------------ */
/* Buffers and files                                                    */
/* ------------------------------------------------------------------ */

/* LINE and COLUMN of "NAME:LINE:COL: ..." (0, 0 when it has none). */
static void message_position(const char *m, size_t name_len, unsigned long *line, unsigned long *col)
{
    *line = *col = 0;
    if (strlen(m) <= name_len || m[name_len] != ':')
        return;
    char *end = NULL;
    *line = strtoul(m + name_len + 1, &end, 10);
    if (end && *end == ':')
        *col = strtoul(end + 1, NULL, 10);
}

static int before(const char *a, const char *b, size_t name_len)
{
    unsigned long la, ca, lb, cb;
    message_position(a, name_len, &la, &ca);
    message_position(b, name_len, &lb, &cb);
    return la < lb || (la == lb && ca < cb);
}

/* The messages of one file in the order of the file: the loader checks a
 * case key by key and record by record, not line by line, and a reader
 * fixes a file from the top. Stable: one position keeps its order. */
static void sort_by_position(struct wk_diag *d, uint32_t first, size_t name_len)
{
    for (uint32_t i = first + 1; i < d->count; i++)
        for (uint32_t j = i; j > first && before(d->messages[j], d->messages[j - 1], name_len); j--) {
            char *t = d->messages[j];
            d->messages[j] = d->messages[j - 1];
            d->messages[j - 1] = t;
        }
}

wk_status wk_spec_load_buffer(struct wk_spec_set *set, const char *name, const uint8_t *data, size_t size,
                              struct wk_diag *d)
{
    if (size > WK_SPEC_MAX_FILE_SIZE) {
        wk_diag_addf(d, "%s:1:1: the file is larger than the %u-byte (1 MiB) limit", name, WK_SPEC_MAX_FILE_SIZE);
        return WK_E_LIMIT;
    }
    struct wk_ytree t;
    wk_status st = wk_ytree_parse(&t, name, data, size, d);
    if (st == WK_E_LIMIT)
        st = WK_E_INVALID_ARGUMENT; /* a limit of the document, reported like any error in it */
    if (st != WK_OK)
        return st;
    uint32_t first = d->count;
    st = spec_load_tree(set, name, &t, d);
    wk_ytree_free(&t);
    sort_by_position(d, first, strlen(name));
    return st;
}

wk_status wk_spec_load_file(struct wk_spec_set *set, const char *path, struct wk_diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        wk_diag_addf(d, "%s: cannot open: %s", path, strerror(errno));
        return WK_E_IO;
    }
    uint8_t *buf = malloc(WK_SPEC_MAX_FILE_SIZE + 1);
    size_t n = buf ? fread(buf, 1, WK_SPEC_MAX_FILE_SIZE + 1, f) : 0;
    int failed = !buf || ferror(f);
    fclose(f);
    wk_status st;
    if (!buf) {
        wk_diag_addf(d, "%s: out of host memory", path);
        st = WK_E_NO_MEMORY;
    } else if (failed) {
        wk_diag_addf(d, "%s: read error", path);
        st = WK_E_IO;
    } else if (n > WK_SPEC_MAX_FILE_SIZE) {
        wk_diag_addf(d, "%s:1:1: the file is larger than the %u-byte (1 MiB) limit", path, WK_SPEC_MAX_FILE_SIZE);
        st = WK_E_LIMIT;
    } else {
        st = wk_spec_load_buffer(set, path, buf, n, d);
    }
    free(buf);
    return st;
}

/* ------------------------------------------------------------------ */
/* Folders                                                              */
/* ------------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_yaml(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

/* The entry names of a folder, sorted; dotfiles left out. */
static wk_status list_dir(const char *dir, struct wk_diag *d, char ***names, uint32_t *count)
{
    DIR *dh = opendir(dir);
    if (!dh) {
        wk_diag_addf(d, "%s: cannot open folder: %s", dir, strerror(errno));
        return WK_E_IO;
    }
    char **list = calloc(WK_SPEC_MAX_DIR_ENTRIES, sizeof(*list));
    uint32_t n = 0;
    wk_status st = list ? WK_OK : WK_E_NO_MEMORY;
    for (struct dirent *e; st == WK_OK && (e = readdir(dh)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        if (n == WK_SPEC_MAX_DIR_ENTRIES) {
            wk_diag_addf(d, "%s: more than %u entries in one folder", dir, WK_SPEC_MAX_DIR_ENTRIES);
            st = WK_E_LIMIT;
        } else if (!(list[n++] = strdup(e->d_name))) {
            st = WK_E_NO_MEMORY;
        }
    }
    closedir(dh);
    if (st == WK_E_NO_MEMORY)
        wk_diag_addf(d, "%s: out of host memory", dir);
    if (st != WK_OK) {
        for (uint32_t i = 0; list && i < n; i++)
            free(list[i]);
        free(list);
        return st;
    }
    qsort(list, n, sizeof(*list), by_name);
    *names = list;
    *count = n;
    return WK_OK;
}

static wk_status load_dir(struct wk_spec_set *set, const char *dir, struct wk_diag *d, uint32_t depth);

static wk_status load_entry(struct wk_spec_set *set, const char *dir, const char *name, struct wk_diag *d,
                            uint32_t depth)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path) {
        wk_diag_addf(d, "%s: out of host memory", dir);
        return WK_E_NO_MEMORY;
    }
    snprintf(path, len, "%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    struct stat lst, st;
    wk_status r = WK_OK;
    if (lstat(path, &lst) == 0 && S_ISDIR(lst.st_mode)) {
        if (depth + 1 > WK_SPEC_MAX_DIR_DEPTH) {
            wk_diag_addf(d, "%s: folders nested deeper than %u levels", path, WK_SPEC_MAX_DIR_DEPTH);
            r = WK_E_LIMIT;
        } else {
            r = load_dir(set, path, d, depth + 1);
        }
    } else if (is_yaml(name) && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        r = wk_spec_load_file(set, path, d);
    }
    free(path);
    return r;
}

static wk_status load_dir(struct wk_spec_set *set, const char *dir, struct wk_diag *d, uint32_t depth)
{
    char **names = NULL;
    uint32_t n = 0;
    wk_status first = list_dir(dir, d, &names, &n);
    for (uint32_t i = 0; i < n; i++) {
        wk_status st = load_entry(set, dir, names[i], d, depth);
        if (first == WK_OK)
            first = st;
        free(names[i]);
    }
    free(names);
    return first;
}

wk_status wk_spec_load_dir(struct wk_spec_set *set, const char *dir, struct wk_diag *d)
{
    return load_dir(set, dir, d, 0);
}
