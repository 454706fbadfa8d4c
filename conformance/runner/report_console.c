/* SPDX-License-Identifier: MIT */
/*
 * report_console.c - what `wddmkit conform` prints while and after it runs.
 *
 * On a terminal one progress line, `[ 37/260] paging-fill.whole ... `,
 * redrawn with \r as cases start and finish; unexpected results get a line
 * of their own so they stay on screen. Into a pipe or a log, one plain line
 * per finished case instead (no escape codes). Afterwards: a table of
 * results by area, every unexpected result in detail (rule, expected, seen,
 * the failing step, the child's last output for a crash, and the one
 * command that reruns just that case), flakes, and the totals.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "expectations.h"
#include "runner.h"

void wk_console_init(struct wk_console *c, FILE *out, int quiet)
{
    memset(c, 0, sizeof(*c));
    c->out = out;
    c->quiet = quiet;
    c->tty = isatty(fileno(out));
    struct winsize ws;
    c->width = c->tty && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
}

static int digits(size_t n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

static void progress_line(struct wk_console *c, const struct wk_run_report *rep, size_t index, const char *tail,
                          int keep)
{
    int w = digits(rep->count);
    const char *id = rep->cases[index].prog->id;
    int id_len = (int)strlen(id);
    if (c->tty) {
        /* A redrawn line must not wrap, or \r cannot take it back. */
        int room = c->width - 1 - (2 * w + 4) - 5 - (int)strlen(tail);
        id_len = keep || id_len <= room ? id_len : room < 8 ? 8 : room;
        fputs("\r\033[K", c->out);
    }
    fprintf(c->out, "[%*zu/%zu] %.*s ... %s", w, c->done, rep->count, id_len, id, tail);
    if (keep || !c->tty)
        fputc('\n', c->out);
    c->line_open = c->tty && !keep;
    fflush(c->out);
}

void wk_console_on_start(void *ctx, const struct wk_run_report *rep, size_t index)
{
    struct wk_console *c = ctx;
    if (c->tty && !c->quiet)
        progress_line(c, rep, index, "", 0);
}

void wk_console_on_done(void *ctx, const struct wk_run_report *rep, size_t index)
{
    struct wk_console *c = ctx;
    const struct wk_case_report *k = &rep->cases[index];
    char tail[64];
    c->done++;
    snprintf(tail, sizeof(tail), "%s%s (%.3f s)", k->unexpected ? "UNEXPECTED " : "", wk_verdict_name(k->verdict),
             k->seconds);
    if (k->unexpected || (!c->quiet && !c->tty))
        progress_line(c, rep, index, tail, 1);
    else if (!c->quiet)
        progress_line(c, rep, index, tail, 0);
}

/* ------------------------------------------------------------------ */
/* Summary                                                              */
/* ------------------------------------------------------------------ */

static const enum wk_verdict columns[] = {
    WK_VERDICT_PASS,  WK_VERDICT_FAIL,          WK_VERDICT_SKIP,            WK_VERDICT_CRASH, WK_VERDICT_TIMEOUT,
    WK_VERDICT_ERROR, WK_VERDICT_EXPECTED_FAIL, WK_VERDICT_UNEXPECTED_PASS, WK_VERDICT_FLAKE,
};
static const char *const headers[] = { "pass", "fail", "skip", "crash", "timeout", "error", "xfail", "xpass", "flake" };
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static int column_width(size_t i)
{
    int n = (int)strlen(headers[i]);
    return n > 5 ? n : 5;
}

static void table_row(FILE *out, const char *area, const size_t *counts, size_t total)
{
    fprintf(out, "  %-28s %6zu", area, total);
    for (size_t i = 0; i < NCOLUMNS; i++)
        fprintf(out, " %*zu", column_width(i), counts[columns[i]]);
    fputc('\n', out);
}

static void table_header(FILE *out)
{
    fprintf(out, "  %-28s %6s", "area", "cases");
    for (size_t i = 0; i < NCOLUMNS; i++)
        fprintf(out, " %*s", column_width(i), headers[i]);
    fputc('\n', out);
}

static int by_area(const void *a, const void *b)
{
    const struct wk_case_report *x = *(const struct wk_case_report *const *)a;
    const struct wk_case_report *y = *(const struct wk_case_report *const *)b;
    int c = strcmp(wk_case_area(x), wk_case_area(y));
    return c ? c : (x > y) - (x < y);
}

static void area_table(FILE *out, const struct wk_run_report *rep)
{
    const struct wk_case_report **v = calloc(rep->count ? rep->count : 1, sizeof(*v));
    if (!v)
        return;
    size_t n = 0;
    for (size_t i = 0; i < rep->count; i++)
        if (rep->cases[i].finished)
            v[n++] = &rep->cases[i];
    qsort(v, n, sizeof(*v), by_area);
    table_header(out);
    for (size_t i = 0; i < n;) {
        size_t counts[WK_VERDICT_COUNT] = { 0 }, j = i;
        for (; j < n && strcmp(wk_case_area(v[j]), wk_case_area(v[i])) == 0; j++)
            counts[v[j]->verdict]++;
        table_row(out, wk_case_area(v[i]), counts, j - i);
        i = j;
    }
    table_row(out, "all", rep->totals, rep->finished);
    free(v);
}

/* The child's last lines, indented, control characters made visible. */
static void print_output(FILE *out, const char *s)
{
    size_t end = strlen(s), start;
    while (end && s[end - 1] == '\n')
        end--;
    int lines = 0;
    for (start = end; start > 0; start--)
        if (s[start - 1] == '\n' && ++lines == 8)
            break;
    fputs("    output:   | ", out);
    for (size_t i = start; i < end; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\n')
            fputs("\n              | ", out);
        else
            fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, out);
    }
    fputc('\n', out);
}

static void detail_row(FILE *out, const char *key, const char *value)
{
    if (value && value[0])
        fprintf(out, "    %-9s %s\n", key, value);
}

static void print_unexpected(FILE *out, const struct wk_run_report *rep, const struct wk_case_report *c)
{
    char step[96], rerun[1024], note[1200], rule[256], covers[256];
    wk_report_step(c, step, sizeof(step));
    wk_report_rule(c, rule, sizeof(rule));
    wk_report_rerun_command(rep, c, rerun, sizeof(rerun));
    fprintf(out, "  %s %s\n", wk_verdict_name(c->verdict), c->prog->id);
    if (c->verdict == WK_VERDICT_UNEXPECTED_PASS) {
        snprintf(note, sizeof(note), "%s: %s (%s)", wk_verdict_name(c->expectation->expect), c->expectation->reason,
                 c->expectation->link);
        detail_row(out, "expected:", note);
        detail_row(out, "seen:", "a pass: remove or narrow the entry");
    } else {
        /* A check failed, no rule did: said so, then what the case is
         * about (an outsider read a bare `covers:` as the rule broken). */
        detail_row(out, "rule:", rule[0] ? rule : "none broken: a check of the case failed");
        if (!rule[0]) {
            wk_report_covers(c, covers, sizeof(covers));
            detail_row(out, "covers:", covers);
        }
        detail_row(out, "expected:", c->result.expected);
        detail_row(out, "seen:", c->result.seen);
        if (c->result.also[0])
            detail_row(out, "also:", c->result.also);
        detail_row(out, "step:", step);
        if (c->verdict == WK_VERDICT_FLAKE) { /* the details above are the first run's */
            snprintf(note, sizeof(note), "%s, after %s on the first run: an intermittent failure of the driver "
                     "(an expectations entry with expect: flake forgives a known one)",
                     c->attempts > 1 ? wk_verdict_name(c->rerun_verdict) : "not run", wk_verdict_name(c->result.verdict));
            detail_row(out, "rerun:", note);
        } else if (c->attempts > 1) {
            snprintf(note, sizeof(note), "%s again", wk_verdict_name(c->rerun_verdict));
            detail_row(out, "rerun:", note);
        }
        if (c->output[0])
            print_output(out, c->output);
    }
    detail_row(out, "command:", rerun);
}

/* One line a flake, saying whether it fails the run (not listed) or is
 * forgiven (listed, with the entry's reason). */
/* "RULE: " before what was seen, unless the message starts with it
 * already (a violation's message does: "DRV-HANG-001: DxgkDdi...: ..."). */
static const char *rule_prefix(const struct wk_case_result *r)
{
    size_t n = strlen(r->rule);
    if (!n || (strncmp(r->seen, r->rule, n) == 0 && r->seen[n] == ':'))
        return "";
    return r->rule;
}

static void print_flake(FILE *out, const struct wk_case_report *c)
{
    const char *rule = rule_prefix(&c->result);
    fprintf(out, "  flake %s: %s first (%s%s%s), %s%s; %s%s\n", c->prog->id,
            wk_verdict_name(c->result.verdict), rule, rule[0] ? ": " : "", c->result.seen,
            c->attempts > 1 ? wk_verdict_name(c->rerun_verdict) : "no rerun (the run stopped)",
            c->attempts > 1 ? " on the rerun" : "",
            c->unexpected ? "FAILS THE RUN: not listed as a flake in an expectations file"
                          : "listed as a flake: ",
            c->unexpected || !c->expectation ? "" : c->expectation->reason);
}

static void print_totals(FILE *out, const struct wk_run_report *rep)
{
    fprintf(out, "%zu of %zu cases in %.2f s:", rep->finished, rep->count, rep->seconds);
    const char *sep = " ";
    for (size_t i = 0; i < NCOLUMNS; i++) {
        if (!rep->totals[columns[i]])
            continue;
        fprintf(out, "%s%zu %s", sep, rep->totals[columns[i]], wk_verdict_name(columns[i]));
        sep = ", ";
    }
    if (rep->stop == WK_RUN_INTERRUPTED)
        fprintf(out, "; interrupted by %s", wk_run_signal_name(rep->signo));
    else if (rep->stop == WK_RUN_TOTAL_TIMEOUT)
        fputs("; stopped by --total-timeout", out);
    if (rep->spec_errors_total)
        fprintf(out, "; %zu spec error%s", rep->spec_errors_total, rep->spec_errors_total == 1 ? "" : "s");
    fprintf(out, "\n%s\n", rep->unexpected ? "RESULT: UNEXPECTED RESULTS"
                           : rep->stop != WK_RUN_COMPLETE ? "RESULT: INCOMPLETE"
                           : rep->spec_errors_total ? "RESULT: SPEC ERRORS (the cases they concern did not run)"
                                                    : "RESULT: all as expected");
}

/* With many unexpected results, the rules behind them with their counts,
 * the most frequent first: 515 failures of one SEG-FLAGS-001 are one bug,
 * and the list above does not say so. */
static void print_unexpected_by_rule(FILE *out, const struct wk_run_report *rep)
{
    enum { MAX_RULES = 16, AT_LEAST = 6 };
    char rule[MAX_RULES][40]; /* a rule ID, or the words for none */
    size_t count[MAX_RULES], n = 0, other = 0;
    if (rep->unexpected < AT_LEAST)
        return;
    for (size_t i = 0; i < rep->count; i++) {
        const struct wk_case_report *k = &rep->cases[i];
        if (!k->finished || !k->unexpected)
            continue;
        const char *r = k->result.rule[0] ? k->result.rule : "(no rule: a failed check or step)";
        size_t j = 0;
        while (j < n && strcmp(rule[j], r) != 0)
            j++;
        if (j < n)
            count[j]++;
        else if (n < MAX_RULES)
            snprintf(rule[n], sizeof(rule[n]), "%s", r), count[n++] = 1;
        else
            other++;
    }
    for (size_t a = 1; a < n; a++) /* by count, most first; stable */
        for (size_t b = a; b > 0 && count[b] > count[b - 1]; b--) {
            char t[sizeof(rule[0])];
            size_t c = count[b];
            memcpy(t, rule[b], sizeof(t)), memcpy(rule[b], rule[b - 1], sizeof(t)), memcpy(rule[b - 1], t, sizeof(t));
            count[b] = count[b - 1], count[b - 1] = c;
        }
    fputs("\nunexpected results by rule:\n", out);
    for (size_t j = 0; j < n; j++)
        fprintf(out, "  %5zu  %s\n", count[j], rule[j]);
    if (other)
        fprintf(out, "  %5zu  other rules\n", other);
}

/* Why cases were skipped, each reason once with its count, the most
 * frequent first (ties in the order first seen), the first 12 of them:
 * 144 identical lines would hide the one that matters. */
static void print_skip_reasons(FILE *out, const struct wk_run_report *rep)
{
    enum { MAX_REASONS = 64, SHOWN = 12 };
    const char *reason[MAX_REASONS];
    size_t count[MAX_REASONS], n = 0, other = 0;
    for (size_t i = 0; i < rep->count; i++) {
        const struct wk_case_report *k = &rep->cases[i];
        if (!k->finished || k->verdict != WK_VERDICT_SKIP)
            continue;
        const char *why = k->expectation ? k->expectation->reason : k->result.seen;
        size_t j = 0;
        while (j < n && strcmp(reason[j], why) != 0)
            j++;
        if (j < n)
            count[j]++;
        else if (n < MAX_REASONS)
            reason[n] = why, count[n++] = 1;
        else
            other++;
    }
    if (!n)
        return;
    for (size_t j = 1; j < n; j++) /* a stable insertion sort, by count down */
        for (size_t k = j; k > 0 && count[k] > count[k - 1]; k--) {
            size_t c = count[k];
            const char *r = reason[k];
            count[k] = count[k - 1], reason[k] = reason[k - 1];
            count[k - 1] = c, reason[k - 1] = r;
        }
    for (size_t j = SHOWN; j < n; j++)
        other += count[j];
    fputs("\nskipped, by reason:\n", out);
    for (size_t j = 0; j < n && j < SHOWN; j++)
        fprintf(out, "  %5zu  %s\n", count[j], reason[j][0] ? reason[j] : "(no reason given)");
    if (other)
        fprintf(out, "  %5zu  other reasons (the JSON report has each)\n", other);
}

/*
 * How much of the suite the driver was judged on: the checks of the cases
 * that ran, by kind (docs/verdicts.md, "Kinds of check"), one line per kind
 * that had any, with why the skipped ones were skipped. A skipped kind is
 * something the kit did not judge, not something the driver passed.
 */
static void print_checks(FILE *out, const struct wk_run_report *rep)
{
    struct wk_check_total t[WK_CHECK_KIND_COUNT];
    wk_report_check_totals(rep, t);
    int any = 0;
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++)
        any |= t[k].run || t[k].skipped;
    if (!any)
        return;
    fprintf(out, "\nchecks by kind, profile %s (docs/verdicts.md, \"Kinds of check\"):\n", wk_report_profile(rep));
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++) {
        if (!t[k].run && !t[k].skipped)
            continue;
        fprintf(out, "  %-9s %7llu run", wk_check_kind_name((enum wk_check_kind)k), (unsigned long long)t[k].run);
        if (t[k].skipped)
            fprintf(out, ", %llu skipped: %s%s", (unsigned long long)t[k].skipped,
                    t[k].reason[0] ? t[k].reason : "(no reason given)",
                    t[k].mixed ? " (and other reasons: the JSON report has each)" : "");
        fputc('\n', out);
    }
}

/* The callbacks the kit does not model that the driver called (each said
 * "not available"): a driver that depends on one was judged without it. */
static void print_unmodelled(FILE *out, const struct wk_run_report *rep)
{
    uint64_t calls[WK_VIDMM_UNMODELLED_CALLBACKS] = { 0 }, any = 0;
    for (size_t i = 0; i < rep->count; i++)
        for (uint32_t u = 0; rep->cases[i].finished && u < WK_VIDMM_UNMODELLED_CALLBACKS; u++)
            any |= calls[u] += rep->cases[i].result.stats.unmodelled_calls[u];
    if (any) {
        fputc('\n', out);
        wk_coverage_print_unmodelled(calls, out);
    }
}

void wk_console_summary(struct wk_console *c, const struct wk_run_report *rep)
{
    FILE *out = c->out;
    if (c->line_open)
        fputs("\r\033[K", out);
    c->line_open = 0;
    if (!c->quiet) {
        fputs("\nresults by area:\n", out);
        area_table(out, rep);
    }
    if (rep->unexpected) {
        fprintf(out, "\n%zu unexpected result%s:\n", rep->unexpected, rep->unexpected == 1 ? "" : "s");
        for (size_t i = 0; i < rep->count; i++)
            if (rep->cases[i].finished && rep->cases[i].unexpected)
                print_unexpected(out, rep, &rep->cases[i]);
    }
    if (rep->totals[WK_VERDICT_FLAKE]) {
        fputs("\nflaky cases (a failure, then a pass):\n", out);
        for (size_t i = 0; i < rep->count; i++)
            if (rep->cases[i].finished && rep->cases[i].verdict == WK_VERDICT_FLAKE)
                print_flake(out, &rep->cases[i]);
    }
    print_unexpected_by_rule(out, rep);
    print_skip_reasons(out, rep);
    if (rep->spec_errors_total) {
        /* again at the end: the first print scrolled away with the run */
        fprintf(out, "\n%zu spec error%s (the cases they concern did not run):\n", rep->spec_errors_total,
                rep->spec_errors_total == 1 ? "" : "s");
        for (size_t i = 0; i < rep->spec_error_count; i++)
            fprintf(out, "  %s\n", rep->spec_errors[i]);
        if (rep->spec_errors_total > rep->spec_error_count)
            fprintf(out, "  ... and %zu more\n", rep->spec_errors_total - rep->spec_error_count);
    }
    print_checks(out, rep);
    print_unmodelled(out, rep);
    fputc('\n', out);
    print_totals(out, rep);
    fflush(out);
}
