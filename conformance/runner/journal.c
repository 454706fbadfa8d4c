/* SPDX-License-Identifier: MIT */
/*
 * journal.c - the run's journal (journal.h): written here with the JSON
 * report's own string escaper (report_json.c), read back with jansson.
 *
 * Why one write() per line, with the file opened and closed around it: a
 * line reaches the kernel whole the moment its case finishes, so a runner
 * killed by any signal loses nothing that finished, and no case process
 * (forked, never exec'd) inherits a descriptor it could forge lines into.
 * One fsync at the end of the run: durability against a power cut is not
 * worth an fsync per case (a few ms each on a real disk).
 *
 * Why every byte is also kept in memory (struct wk_journal): the file can
 * be written by any process of the user, the driver's too, and a run's
 * reports must say what the runner received. The caller renders them from
 * its own memory; here the file is compared with the memory at the end of
 * the run and written again whole when it differs, so that a --resume
 * after it reads the runner's verdicts, not a forger's.
 *
 * Why a reader library: the journal is a standard format (JSON Lines) and
 * the project never hand-writes a reader of one (jansson, libjansson-dev).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caselist.h"
#include "expectations.h"
#include "journal.h"
#include "runner_internal.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Identity                                                             */
/* ------------------------------------------------------------------ */

static void digest_file(const char *path, char *buf, size_t size)
{
    uint64_t h = 0, bytes = 0;
    if (wk_fnv1a64_file(path, &h, &bytes))
        snprintf(buf, size, "fnv1a64:%016llx:%llu", (unsigned long long)h, (unsigned long long)bytes);
    else
        snprintf(buf, size, "unreadable");
}

/* Every loaded case's id and file, and each distinct file's bytes: a
 * changed spec changes the digest even when its ids stay. */
static void digest_specs(const struct wk_prog *const *loaded, size_t n, char *buf, size_t size)
{
    uint64_t h = WK_FNV1A64_START;
    const char *last_file = "";
    for (size_t i = 0; i < n; i++) {
        const struct wk_prog *p = loaded[i];
        h = wk_fnv1a64(h, p->id, strlen(p->id) + 1);
        h = wk_fnv1a64(h, p->file, strlen(p->file) + 1);
        if (p->file[0] && strcmp(p->file, last_file) != 0) {
            uint64_t fh = 0, bytes = 0;
            if (wk_fnv1a64_file(p->file, &fh, &bytes))
                h = wk_fnv1a64(h, &fh, sizeof(fh));
            last_file = p->file;
        }
    }
    snprintf(buf, size, "fnv1a64:%016llx:%zu", (unsigned long long)h, n);
}

/* The ids a --caselist selects (not its file's bytes: comments and order
 * do not change the run). */
static void caselist_digest(const struct wk_caselist *l, char *buf, size_t size)
{
    if (!l) {
        buf[0] = '\0';
        return;
    }
    uint64_t h = WK_FNV1A64_START;
    for (size_t i = 0; i < l->count; i++)
        h = wk_fnv1a64(h, l->ids[i].id, strlen(l->ids[i].id) + 1);
    snprintf(buf, size, "fnv1a64:%016llx:%zu", (unsigned long long)h, l->count);
}

static void join_globs(char *buf, size_t size, const char *const *globs, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "", globs[i]);
}

static void set_option(struct wk_journal_identity *id, unsigned i, const char *name, const char *value)
{
    id->options[i].name = name;
    snprintf(id->options[i].value, sizeof(id->options[i].value), "%s", value);
}

void wk_journal_identity(struct wk_journal_identity *id, const struct wk_prog *const *loaded, size_t n,
                         const struct wk_runner_options *o, const char *expectations)
{
    static const char *const gpu[] = { "auto", "model", "none", "binding" }, *const umd[] = { "auto", "kit", "none" };
    char v[512];
    memset(id, 0, sizeof(*id));
    id->driver = o->driver;
    if (o->driver)
        digest_file(o->driver, id->driver_digest, sizeof(id->driver_digest));
    else
        snprintf(id->driver_digest, sizeof(id->driver_digest), "built-in");
    digest_specs(loaded, n, id->spec_set, sizeof(id->spec_set));
    set_option(id, 0, "--profile", o->stress ? "stress" : o->contract ? "contract" : "reference");
    set_option(id, 1, "--gpu", gpu[o->gpu]);
    set_option(id, 2, "--umd", umd[o->umd]);
    snprintf(v, sizeof(v), "%llu", (unsigned long long)o->seed);
    set_option(id, 3, "--seed", v);
    snprintf(v, sizeof(v), "%g", o->case_timeout);
    set_option(id, 4, "--timeout", v);
    join_globs(v, sizeof(v), o->filters, o->filter_count);
    set_option(id, 5, "--filter", v);
    join_globs(v, sizeof(v), o->excludes, o->exclude_count);
    set_option(id, 6, "--exclude", v);
    snprintf(v, sizeof(v), "%u/%u", o->shard_count ? o->shard_index : 1, o->shard_count ? o->shard_count : 1);
    set_option(id, 7, "--shard", v);
    if (expectations)
        digest_file(expectations, v, sizeof(v));
    else
        snprintf(v, sizeof(v), "none");
    set_option(id, 8, "--expectations", v);
    if (o->binding)
        digest_file(o->binding, v, sizeof(v));
    else
        snprintf(v, sizeof(v), "none");
    set_option(id, 9, "--binding", v);
    /* "" without a list: a journal written before --caselist existed
     * has no such option, and resumes as one without a list */
    caselist_digest(o->caselist, v, sizeof(v));
    set_option(id, 10, "--caselist", v);
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

/* Writes buf to path with one write(), appending or starting the file.
 * The open is tried again while no descriptor is to spare (EMFILE,
 * ENFILE: util/retry.h), so a finished case is not lost to a full table. */
static wk_status write_line(const char *path, const char *buf, size_t n, int create)
{
    int flags = O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : O_APPEND);
    struct wk_retry r;
    int fd;
    wk_retry_begin(&r, WK_RETRY_WAIT_DEFAULT);
    while ((fd = open(path, flags, 0644)) < 0 && wk_retry_again(&r, errno))
        ;
    if (fd < 0)
        return WK_E_IO;
    ssize_t w;
    do
        w = write(fd, buf, n);
    while (w < 0 && errno == EINTR);
    close(fd);
    return w == (ssize_t)n ? WK_OK : WK_E_IO;
}

static void key(FILE *f, const char *name, int first)
{
    fputs(first ? "{" : ", ", f);
    wk_json_string(f, name);
    fputs(": ", f);
}

static void write_identity(FILE *f, const struct wk_journal_identity *id, const char *kit_version)
{
    key(f, "journal", 1), wk_json_string(f, WK_JOURNAL_FORMAT);
    key(f, "kit_version", 0), wk_json_string(f, kit_version);
    key(f, "driver", 0), wk_json_string(f, id->driver);
    key(f, "driver_digest", 0), wk_json_string(f, id->driver_digest);
    key(f, "spec_set", 0), wk_json_string(f, id->spec_set);
    key(f, "options", 0);
    for (unsigned i = 0; i < WK_JOURNAL_OPTIONS; i++) {
        key(f, id->options[i].name, i == 0);
        wk_json_string(f, id->options[i].value);
    }
    fputs("}}\n", f);
}

/* Appends n bytes to what j holds. */
static wk_status keep(struct wk_journal *j, const char *bytes, size_t n)
{
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : 4096;
        while (cap < j->len + n + 1)
            cap *= 2;
        char *grown = realloc(j->text, cap);
        if (!grown)
            return WK_E_NO_MEMORY;
        j->text = grown;
        j->cap = cap;
    }
    memcpy(j->text + j->len, bytes, n);
    j->len += n;
    j->text[j->len] = '\0';
    return WK_OK;
}

/* Builds one line with fn, keeps it in j, then hands it to write_line. A
 * line kept but not written is noted: the end of the run writes it. */
static wk_status emit(struct wk_journal *j, int create, void (*fn)(FILE *, const void *, const void *), const void *a,
                      const void *b)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return WK_E_NO_MEMORY;
    fn(f, a, b);
    if (fclose(f) != 0) {
        free(buf);
        return WK_E_NO_MEMORY;
    }
    if (create)
        j->len = 0;
    wk_status st = keep(j, buf, n);
    if (st == WK_OK)
        st = write_line(j->path, buf, n, create);
    if (st != WK_OK)
        j->write_failed = 1;
    free(buf);
    return st;
}

static void identity_fn(FILE *f, const void *a, const void *b)
{
    write_identity(f, a, b);
}

wk_status wk_journal_create(struct wk_journal *j, const char *path, const struct wk_journal_identity *id,
                            const char *kit_version, FILE *err)
{
    memset(j, 0, sizeof(*j));
    j->path = path;
    wk_status st = emit(j, 1, identity_fn, id, kit_version);
    if (st != WK_OK)
        fprintf(err, "wddmkit: %s: cannot write the journal: %s\n", path, strerror(errno ? errno : EIO));
    return st;
}

static void u64_array(FILE *f, const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? "," : "[", (unsigned long long)v[i]);
    fputs(n ? "]" : "[]", f);
}

static void write_stats(FILE *f, const struct wk_vidmm_stats *s)
{
    key(f, "ddi_calls", 1), u64_array(f, s->ddi_calls, WK_DDI_COUNT);
    key(f, "paging_ops", 0), u64_array(f, s->paging_ops, 18);
    key(f, "paging_multipass", 0), u64_array(f, s->paging_multipass, 18);
    fprintf(f, ", \"paging_passes\": %llu, \"paging_buffers\": %llu, \"evictions\": %llu, "
               "\"fences_completed\": %llu, \"gpu_faults\": %llu",
            (unsigned long long)s->paging_passes, (unsigned long long)s->paging_buffers,
            (unsigned long long)s->evictions, (unsigned long long)s->fences_completed,
            (unsigned long long)s->gpu_faults);
    key(f, "unmodelled_calls", 0);
    for (size_t i = 0; i < WK_VIDMM_UNMODELLED_CALLBACKS; i++)
        fprintf(f, "%s%u", i ? "," : "[", s->unmodelled_calls[i]);
    fputs("]}", f);
}

/* checks: [[run, skipped, "reason"], ...] by kind. */
static void write_checks(FILE *f, const struct wk_case_result *r)
{
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++) {
        fprintf(f, "%s[%u, %u, ", k ? ", " : "[", r->checks[k].run, r->checks[k].skipped);
        wk_json_string(f, r->skip_reason[k]);
        fputc(']', f);
    }
    fputc(']', f);
}

static void write_result(FILE *f, const struct wk_case_result *r)
{
    key(f, "verdict", 1), wk_json_string(f, wk_verdict_name(r->verdict));
    key(f, "failed_step", 0), fprintf(f, "%d", (int)r->failed_step);
    key(f, "rule", 0), wk_json_string(f, r->rule);
    key(f, "expected", 0), wk_json_string(f, r->expected);
    key(f, "seen", 0), wk_json_string(f, r->seen);
    key(f, "also", 0), wk_json_string(f, r->also);
    key(f, "not_evaluated", 0), fprintf(f, "%u", r->not_evaluated);
    key(f, "checks", 0), write_checks(f, r);
    /* hex strings: a bit mask past 2^63 is no JSON integer a reader keeps */
    fprintf(f, ", \"rules_tripped\": [");
    for (uint32_t i = 0; i < WK_RULE_WORDS; i++)
        fprintf(f, "%s\"%016llx\"", i ? ", " : "", (unsigned long long)r->rules_tripped[i]);
    fputc(']', f);
    key(f, "seconds", 0), fprintf(f, "%.17g", r->seconds);
    key(f, "stats", 0), write_stats(f, &r->stats);
    fputc('}', f);
}

static void case_fn(FILE *f, const void *a, const void *b)
{
    const struct wk_case_report *c = a;
    (void)b;
    key(f, "id", 1), wk_json_string(f, c->prog->id);
    key(f, "file", 0), wk_json_string(f, c->prog->file);
    key(f, "verdict", 0), wk_json_string(f, wk_verdict_name(c->verdict));
    key(f, "unexpected", 0), fputs(c->unexpected ? "true" : "false", f);
    key(f, "attempts", 0), fprintf(f, "%u", c->attempts);
    key(f, "rerun_verdict", 0), wk_json_string(f, c->attempts > 1 ? wk_verdict_name(c->rerun_verdict) : NULL);
    key(f, "seconds", 0), fprintf(f, "%.17g", c->seconds);
    key(f, "output", 0), wk_json_string(f, c->output);
    key(f, "result", 0), write_result(f, &c->result);
    fputs("}\n", f);
}

wk_status wk_journal_append(struct wk_journal *j, const struct wk_case_report *c)
{
    return emit(j, 0, case_fn, c, NULL);
}

/* Whether the file holds exactly what j does. */
static int file_intact(const struct wk_journal *j)
{
    uint8_t *bytes = NULL;
    size_t n = 0;
    char why[128];
    if (wk_file_read(j->path, (uint64_t)j->len + 1, &bytes, &n, why, sizeof(why)) != WK_OK)
        return 0;
    int same = n == j->len && memcmp(bytes, j->text, n) == 0;
    free(bytes);
    return same;
}

int wk_journal_close(struct wk_journal *j, FILE *err)
{
    int intact = j->text && !j->write_failed && file_intact(j);
    if (j->text && !intact) {
        if (!j->write_failed)
            fprintf(err, "wddmkit: %s: the journal was changed during the run by another process: the reports "
                         "hold the verdicts the runner received, and the journal is written again from them\n",
                    j->path);
        if (write_line(j->path, j->text, j->len, 1) != WK_OK)
            fprintf(err, "wddmkit: %s: cannot write the journal: %s\n", j->path, strerror(errno ? errno : EIO));
    }
    if (j->text) {
        int fd = open(j->path, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd >= 0) {
            fsync(fd); /* the one fsync of a run */
            close(fd);
        }
    }
    wk_journal_forget(j);
    return intact;
}

void wk_journal_forget(struct wk_journal *j)
{
    free(j->text);
    memset(j, 0, sizeof(*j));
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

static const char *str_of(const json_t *o, const char *name)
{
    const char *s = json_string_value(json_object_get(o, name));
    return s ? s : "";
}

/* The length of the line at text[at..len), its newline included. */
static size_t line_length(const char *text, size_t at, size_t len)
{
    const char *nl = memchr(text + at, '\n', len - at);
    return nl ? (size_t)(nl - (text + at)) + 1 : len - at;
}

static json_t *first_line(const struct wk_journal *jr, FILE *err)
{
    size_t n = jr->len ? line_length(jr->text, 0, jr->len) : 0;
    json_error_t e;
    json_t *j = n > 0 ? json_loadb(jr->text, n, 0, &e) : NULL;
    if (!j || strcmp(str_of(j, "journal"), WK_JOURNAL_FORMAT) != 0) {
        fprintf(err, "wddmkit: %s: not a wddmkit journal (its first line is not a %s identity)\n", jr->path,
                WK_JOURNAL_FORMAT);
        json_decref(j);
        return NULL;
    }
    return j;
}

static int differs(const char *path, const char *what, const char *then, const char *now, FILE *err)
{
    if (strcmp(then, now) == 0)
        return 0;
    fprintf(err, "wddmkit: %s: the journal is of another run: %s differs (%s in the journal, %s now)\n", path, what,
            then[0] ? then : "none", now[0] ? now : "none");
    return 1;
}

/* j's identity line against want. */
static wk_status check_identity(const struct wk_journal *jr, const struct wk_journal_identity *want, FILE *err)
{
    const char *path = jr->path;
    json_t *j = first_line(jr, err);
    if (!j)
        return WK_E_IO;
    int bad = differs(path, "driver digest", str_of(j, "driver_digest"), want->driver_digest, err);
    bad |= differs(path, "spec set", str_of(j, "spec_set"), want->spec_set, err);
    json_t *opts = json_object_get(j, "options");
    for (unsigned i = 0; i < WK_JOURNAL_OPTIONS; i++) {
        char what[64];
        snprintf(what, sizeof(what), "option %s", want->options[i].name);
        bad |= differs(path, what, str_of(opts, want->options[i].name), want->options[i].value, err);
    }
    json_decref(j);
    return bad ? WK_E_INVALID_ARGUMENT : WK_OK;
}

wk_status wk_journal_resume(struct wk_journal *j, const char *path, const struct wk_journal_identity *want,
                            FILE *err)
{
    uint8_t *bytes = NULL;
    size_t n = 0;
    char why[160];
    memset(j, 0, sizeof(*j));
    j->path = path;
    wk_status st = wk_file_read(path, WK_JOURNAL_MAX_BYTES, &bytes, &n, why, sizeof(why));
    if (st != WK_OK) {
        fprintf(err, "wddmkit: %s: %s\n", path, why);
        return WK_E_IO;
    }
    st = keep(j, (const char *)bytes, n);
    free(bytes);
    return st == WK_OK ? check_identity(j, want, err) : st;
}

static int verdict_of(const char *name, enum wk_verdict *v)
{
    for (int i = 0; i < WK_VERDICT_COUNT; i++)
        if (strcmp(name, wk_verdict_name((enum wk_verdict)i)) == 0) {
            *v = (enum wk_verdict)i;
            return 1;
        }
    return 0;
}

static void u64_from(const json_t *a, uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n && i < json_array_size(a); i++)
        v[i] = (uint64_t)json_integer_value(json_array_get(a, i));
}

static void read_stats(const json_t *s, struct wk_vidmm_stats *out)
{
    u64_from(json_object_get(s, "ddi_calls"), out->ddi_calls, WK_DDI_COUNT);
    u64_from(json_object_get(s, "paging_ops"), out->paging_ops, 18);
    u64_from(json_object_get(s, "paging_multipass"), out->paging_multipass, 18);
    out->paging_passes = (uint64_t)json_integer_value(json_object_get(s, "paging_passes"));
    out->paging_buffers = (uint64_t)json_integer_value(json_object_get(s, "paging_buffers"));
    out->evictions = (uint64_t)json_integer_value(json_object_get(s, "evictions"));
    out->fences_completed = (uint64_t)json_integer_value(json_object_get(s, "fences_completed"));
    out->gpu_faults = (uint64_t)json_integer_value(json_object_get(s, "gpu_faults"));
    const json_t *u = json_object_get(s, "unmodelled_calls");
    for (size_t i = 0; i < WK_VIDMM_UNMODELLED_CALLBACKS && i < json_array_size(u); i++)
        out->unmodelled_calls[i] = (uint32_t)json_integer_value(json_array_get(u, i));
}

static void read_checks(const json_t *a, struct wk_case_result *r)
{
    for (size_t k = 0; k < WK_CHECK_KIND_COUNT && k < json_array_size(a); k++) {
        const json_t *row = json_array_get(a, k);
        r->checks[k].run = (uint32_t)json_integer_value(json_array_get(row, 0));
        r->checks[k].skipped = (uint32_t)json_integer_value(json_array_get(row, 1));
        const char *why = json_string_value(json_array_get(row, 2));
        snprintf(r->skip_reason[k], sizeof(r->skip_reason[k]), "%s", why ? why : "");
    }
}

static int read_result(const json_t *o, struct wk_case_result *r)
{
    memset(r, 0, sizeof(*r));
    if (!json_is_object(o) || !verdict_of(str_of(o, "verdict"), &r->verdict))
        return 0;
    r->failed_step = (int32_t)json_integer_value(json_object_get(o, "failed_step"));
    snprintf(r->rule, sizeof(r->rule), "%s", str_of(o, "rule"));
    snprintf(r->expected, sizeof(r->expected), "%s", str_of(o, "expected"));
    snprintf(r->seen, sizeof(r->seen), "%s", str_of(o, "seen"));
    snprintf(r->also, sizeof(r->also), "%s", str_of(o, "also"));
    r->not_evaluated = (uint32_t)json_integer_value(json_object_get(o, "not_evaluated"));
    read_checks(json_object_get(o, "checks"), r);
    const json_t *bits = json_object_get(o, "rules_tripped");
    for (size_t i = 0; i < WK_RULE_WORDS; i++) { /* a journal of fewer words: the rest 0 */
        const char *hex = json_string_value(json_array_get(bits, i));
        r->rules_tripped[i] = hex ? strtoull(hex, NULL, 16) : 0;
    }
    r->seconds = json_number_value(json_object_get(o, "seconds"));
    read_stats(json_object_get(o, "stats"), &r->stats);
    return 1;
}

/* The selected case with this id (rep->cases are in id order), or NULL. */
static struct wk_case_report *find_case(struct wk_run_report *rep, const char *id)
{
    size_t lo = 0, hi = rep->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(rep->cases[mid].prog->id, id);
        if (c == 0)
            return &rep->cases[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = 0; i < rep->count; i++) /* ids sorted otherwise than strcmp: still found */
        if (strcmp(rep->cases[i].prog->id, id) == 0)
            return &rep->cases[i];
    return NULL;
}

/* One case line into its case: 1 when it held a case of the run. */
static int fill_case(struct wk_run_report *rep, const json_t *o)
{
    struct wk_case_report *c = find_case(rep, str_of(o, "id"));
    struct wk_case_result r;
    enum wk_verdict v, rerun = WK_VERDICT_PASS;
    if (!c || !verdict_of(str_of(o, "verdict"), &v) || !read_result(json_object_get(o, "result"), &r))
        return 0;
    if (json_is_string(json_object_get(o, "rerun_verdict")))
        verdict_of(str_of(o, "rerun_verdict"), &rerun);
    c->result = r;
    c->verdict = v;
    c->unexpected = json_is_true(json_object_get(o, "unexpected"));
    c->attempts = (uint32_t)json_integer_value(json_object_get(o, "attempts"));
    c->rerun_verdict = rerun;
    c->seconds = json_number_value(json_object_get(o, "seconds"));
    snprintf(c->output, sizeof(c->output), "%s", str_of(o, "output"));
    c->finished = 1;
    return 1;
}

size_t wk_journal_fill(const struct wk_journal *j, struct wk_run_report *rep, FILE *err)
{
    size_t bad = 0;
    for (size_t at = 0, lineno = 0, n; at < j->len; at += n) {
        n = line_length(j->text, at, j->len);
        if (++lineno == 1)
            continue; /* the identity */
        json_error_t e;
        json_t *o = json_loadb(j->text + at, n, 0, &e);
        if (!o || !fill_case(rep, o))
            bad++;
        json_decref(o);
    }
    if (bad)
        fprintf(err, "wddmkit: %s: %zu journal line%s left out (cut short by a kill, or not a case of this run): "
                     "their cases run again on --resume\n", j->path, bad, bad == 1 ? "" : "s");
    wk_run_report_count(rep);
    return rep->finished;
}

wk_status wk_journal_report_init(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                                 struct wk_run_report *rep, FILE *err)
{
    size_t *index = NULL, count_sel = 0;
    wk_status st = wk_runner_select(cases, n, o, &index, &count_sel, err);
    if (st != WK_OK)
        return st;
    rep->cases = calloc(count_sel ? count_sel : 1, sizeof(*rep->cases));
    if (!rep->cases) {
        free(index);
        return WK_E_NO_MEMORY;
    }
    wk_runner_describe(rep, o);
    rep->count = count_sel;
    for (size_t i = 0; i < count_sel; i++) {
        struct wk_case_report *c = &rep->cases[i];
        c->prog = cases[index[i]];
        c->result.failed_step = -1;
        c->expectation = o->expectations ? wk_expectations_match(o->expectations, c->prog->id) : NULL;
    }
    free(index);
    return WK_OK;
}
