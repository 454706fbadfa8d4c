/* SPDX-License-Identifier: MIT */
/*
 * results_baseline.c - `wddmkit results baseline RUN.json`: the
 * expectations file (expectations.h) under which the run's known failures
 * are expected, so that a rerun of the same driver exits 0 and the next
 * new failure stands out (results.h says which verdict becomes which entry).
 *
 * Why by exact id: an entry per case, never a glob, so the file says which
 * cases fail and nothing more; a glob carried from an older file would
 * also forgive the cases under it that pass now (unexpected-pass) or fail
 * later. Why every scalar is double-quoted: a reason quotes whatever a
 * driver put in a message (`: `, `#`, a leading `-`), and a quoted scalar
 * is a string whatever it holds. Why the text is loaded back before it is
 * handed out: the file is worth nothing if `conform --expectations` refuses
 * it; the loader is the one judge of that.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "runner/expectations.h"
#include "runner/runner.h"

/* One YAML double-quoted scalar: the JSON report's escaper, whose escapes
 * are YAML's too and which escapes what libyaml takes only escaped (C1,
 * U+FEFF, U+FFFE/U+FFFF, the line breaks) and invalid UTF-8 (as U+FFFD). */
static void yaml_quoted(FILE *f, const char *s)
{
    wk_json_string(f, s ? s : "");
}

/* text cut to fit the loader's one-line string: controls become spaces,
 * at most WK_EXPECTATION_MAX_TEXT bytes, cut between characters. */
static void one_line(char *out, const char *text)
{
    size_t n = strlen(text), used = 0;
    while (n) {
        uint32_t cp;
        size_t k = wk_utf8_next(text, n, &cp);
        if (used + k > WK_EXPECTATION_MAX_TEXT)
            break;
        if (cp < 0x20 || cp == 0x7f)
            out[used++] = ' ';
        else
            memcpy(out + used, text, k), used += k;
        text += k;
        n -= k;
    }
    out[used] = '\0';
}

static int is_failure(enum wk_verdict v)
{
    return v == WK_VERDICT_FAIL || v == WK_VERDICT_CRASH || v == WK_VERDICT_TIMEOUT;
}

/* The entry a case needs: its expect, and whether the matched entry's
 * reason and link are kept (1), new ones written (0), or no entry (-1). */
static int entry_for(const struct wk_results_case *c, enum wk_verdict *expect)
{
    if (c->has_expectation && (c->expect == WK_VERDICT_FLAKE || c->expect == WK_VERDICT_SKIP)) {
        *expect = c->expect; /* a listed flake that passed this time is still one */
        return 1;
    }
    switch (c->verdict) {
    case WK_VERDICT_EXPECTED_FAIL:
        *expect = c->has_expectation ? c->expect : c->run_verdict;
        return c->has_expectation;
    case WK_VERDICT_FLAKE: *expect = WK_VERDICT_FLAKE; return 0;
    case WK_VERDICT_FAIL:
    case WK_VERDICT_CRASH:
    case WK_VERDICT_TIMEOUT:
        /* two attempts that failed differently: the kind is not stable */
        *expect = c->has_rerun && is_failure(c->rerun_verdict) && c->rerun_verdict != c->run_verdict
                      ? WK_VERDICT_FLAKE
                      : c->run_verdict;
        return is_failure(*expect) || *expect == WK_VERDICT_FLAKE ? 0 : -1;
    default: return -1;
    }
}

static void default_reason(const struct wk_results *r, const struct wk_results_case *c, char *out)
{
    char text[2 * WK_EXPECTATION_MAX_TEXT];
    snprintf(text, sizeof(text), "%s in the baseline run%s%s%s%s", wk_verdict_name(c->verdict),
             r->start_time && r->start_time[0] ? " of " : "", r->start_time ? r->start_time : "",
             c->rule ? ": " : c->seen ? ": " : "", c->rule ? c->rule : c->seen ? c->seen : "");
    one_line(out, text);
}

static void write_entry(FILE *f, const char *id, enum wk_verdict expect, const char *reason, const char *link)
{
    fputs("- id: ", f);
    yaml_quoted(f, id);
    fprintf(f, "\n  expect: %s\n  reason: ", wk_verdict_name(expect));
    yaml_quoted(f, reason);
    fputs("\n  link: ", f);
    yaml_quoted(f, link);
    fputc('\n', f);
}

/* Text for a comment line, where nothing can be escaped: what a quoted
 * scalar would escape becomes '?' (fuzz_results: a control byte in the
 * report's driver path made the file unreadable). */
static void comment_text(FILE *f, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    while (n) {
        uint32_t cp;
        size_t k = wk_utf8_next(s, n, &cp);
        if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || cp == 0xfeff ||
            cp == 0xfffe || cp == 0xffff)
            fputc('?', f);
        else
            fwrite(s, 1, k, f);
        s += k;
        n -= k;
    }
}

static void write_header(FILE *f, const struct wk_results *r, size_t entries)
{
    fputs("# wddmkit expectations: the baseline of ", f);
    comment_text(f, r->name);
    fputs(" (wddmkit results baseline)\n# driver ", f);
    comment_text(f, r->driver ? r->driver : "(the built-in reference driver)");
    if (r->driver_sha256)
        fputs(", sha256 ", f), comment_text(f, r->driver_sha256);
    fputs("\n# profile ", f);
    comment_text(f, r->profile);
    fprintf(f, ", seed %llu, kit ", (unsigned long long)r->seed);
    comment_text(f, r->kit_version);
    fputs(" (", f);
    comment_text(f, r->kit_commit ? r->kit_commit : "unknown");
    fputs("), run of ", f);
    comment_text(f, r->start_time);
    fputc('\n', f);
    fprintf(f, "# %zu entr%s; every entry is a known failure: fix it, then delete its entry\n", entries,
            entries == 1 ? "y" : "ies");
    if (!entries)
        fputs("[]\n", f);
}

/* The loader's own verdict on text; its messages to err under `what`. */
static wk_status loads(const char *what, const char *text, size_t len, FILE *err)
{
    struct wk_expectations *e = NULL;
    wk_status st = wk_expectations_parse(what, text, len, &e, err);
    wk_expectations_free(e);
    return st;
}

/* Whether the loader takes link as a link. */
static int link_loads(const char *link)
{
    char *text = NULL, *said = NULL;
    size_t len = 0, said_len = 0;
    FILE *f = open_memstream(&text, &len), *sink = open_memstream(&said, &said_len);
    int ok = 0;
    if (f) {
        write_entry(f, "x", WK_VERDICT_FAIL, "x", link);
        if (fclose(f) == 0 && sink)
            ok = loads("link", text, len, sink) == WK_OK;
    }
    if (sink)
        fclose(sink);
    free(text);
    free(said);
    return ok;
}

/* --reason and --link as the loader takes them, checked on their own so
 * that a refusal names the option rather than a line of the output. */
static int options_load(const char *reason, const char *link, FILE *err)
{
    char *text = NULL, *msgs = NULL;
    size_t len = 0, mlen = 0;
    FILE *f = open_memstream(&text, &len), *m = open_memstream(&msgs, &mlen);
    if (!f || !m) {
        if (f)
            fclose(f);
        if (m)
            fclose(m);
        free(text);
        free(msgs);
        return 0;
    }
    write_entry(f, "x", WK_VERDICT_FAIL, reason ? reason : "x", link);
    fclose(f);
    int ok = loads("option", text, len, m) == WK_OK;
    fclose(m);
    if (!ok && strstr(msgs, "'link'"))
        fprintf(err, "wddmkit results baseline: --link '%s': expected a URL (https://...) or an issue reference "
                     "(project#42), one line\n", link);
    else if (!ok)
        fprintf(err, "wddmkit results baseline: --reason: expected a non-empty one-line text of at most %u "
                     "bytes\n", WK_EXPECTATION_MAX_TEXT);
    free(text);
    free(msgs);
    return ok;
}

wk_status wk_results_baseline(const struct wk_results *r, const char *reason, const char *link, char **yaml,
                              FILE *err)
{
    *yaml = NULL;
    if (!options_load(reason, link, err))
        return WK_E_INVALID_ARGUMENT;
    size_t entries = 0, errors = 0;
    for (size_t i = 0; i < r->count; i++) {
        enum wk_verdict expect;
        entries += entry_for(&r->cases[i], &expect) >= 0;
        errors += r->cases[i].verdict == WK_VERDICT_ERROR;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return WK_E_NO_MEMORY;
    write_header(f, r, entries);
    char why[WK_EXPECTATION_MAX_TEXT + 1];
    for (size_t i = 0; i < r->count; i++) {
        const struct wk_results_case *c = &r->cases[i];
        enum wk_verdict expect;
        int kept = entry_for(c, &expect);
        if (kept < 0)
            continue;
        /* a kept entry's reason and link as the report has them, made fit
         * for the loader when a hand-edited report broke them */
        why[0] = '\0';
        if (kept && c->expect_reason)
            one_line(why, c->expect_reason);
        else if (reason)
            one_line(why, reason);
        if (!why[0])
            default_reason(r, c, why);
        int own_link = kept && c->expect_link && link_loads(c->expect_link);
        write_entry(f, c->id, expect, why, own_link ? c->expect_link : link);
    }
    if (fclose(f) != 0) {
        free(text);
        return WK_E_NO_MEMORY;
    }
    if (errors)
        fprintf(err, "wddmkit results baseline: %s: %zu case%s ended in error (the kit could not run %s): no "
                     "entry, since an error is never the driver's; rerun %s\n",
                r->name, errors, errors == 1 ? "" : "s", errors == 1 ? "it" : "them", errors == 1 ? "it" : "them");
    if (r->status && strcmp(r->status, "complete") != 0)
        fprintf(err, "wddmkit results baseline: %s: the run is %s: the baseline covers only the %zu cases it "
                     "finished\n", r->name, r->status, r->count);
    wk_status st = loads("(baseline)", text, len, err);
    if (st != WK_OK) {
        fputs("wddmkit results baseline: the expectations loader refused the baseline (above)\n", err);
        free(text);
        return st;
    }
    *yaml = text;
    return WK_OK;
}
