/* SPDX-License-Identifier: MIT */
/*
 * report_tap.c - `wddmkit conform --tap FILE`: TAP version 13, for prove,
 * tappy and the CI plugins that read it.
 *
 * One line per finished case, numbered in id order, with the plan first
 * (the file is written after the run, so the plan is the number of lines).
 * Typed results map onto TAP's vocabulary:
 *   pass, listed flake          ok
 *   skip                        ok ... # SKIP reason
 *   expected-fail               not ok ... # TODO reason (TAP's own "expected failure")
 *   fail, crash, timeout,
 *   error, unexpected-pass,
 *   flake not listed            not ok
 * The version line is followed by the run's provenance as comments
 * (kit version and commit, the driver, its SHA-256 and build-id).
 * Every line but a plain pass carries a YAML diagnostic block (verdict,
 * rule, expected, seen, step, and the command that reruns the case), its strings double-quoted and escaped.
 * A run cut short ends with "Bail out!" so a harness cannot mistake it for
 * a complete one. `--tap -` streams to stdout instead: each line as its
 * case finishes (in the order they finish), the plan last, as TAP 13
 * allows.
 */
#include <stdint.h>
#include <string.h>

#include "expectations.h"
#include "runner.h"

/* A YAML double-quoted scalar. */
static void yaml_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    size_t n = s ? strlen(s) : 0;
    while (n) {
        uint32_t cp;
        size_t k = wk_utf8_next(s, n, &cp);
        switch (cp) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
                fprintf(f, "\\x%02x", (unsigned)cp);
            else if (cp == 0x2028 || cp == 0x2029 || cp == 0xFFFE || cp == 0xFFFF || (cp == 0xFFFD && k == 1))
                fprintf(f, "\\u%04X", (unsigned)cp);
            else
                fwrite(s, 1, k, f);
        }
        s += k;
        n -= k;
    }
    fputc('"', f);
}

/* A description or directive on a test line: one line of valid UTF-8,
 * '#' and '\' escaped, control characters as spaces. */
static void directive_text(FILE *f, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    while (n) {
        uint32_t cp;
        size_t k = wk_utf8_next(s, n, &cp);
        if (cp == '#' || cp == '\\')
            fputc('\\', f);
        if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029)
            fputc(' ', f);
        else if (cp == 0xFFFD && k == 1)
            fputs("\xEF\xBF\xBD", f);
        else
            fwrite(s, 1, k, f);
        s += k;
        n -= k;
    }
}

static void diag_row(FILE *f, const char *key, const char *value)
{
    if (!value || !value[0])
        return;
    fprintf(f, "  %s: ", key);
    yaml_quoted(f, value);
    fputc('\n', f);
}

static void write_diagnostics(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c)
{
    char step[96], rerun[1024], seconds[32], attempts[48], rule[256], covers[256];
    wk_report_step(c, step, sizeof(step));
    wk_report_rule(c, rule, sizeof(rule));
    wk_report_covers(c, covers, sizeof(covers));
    wk_report_rerun_command(rep, c, rerun, sizeof(rerun));
    snprintf(seconds, sizeof(seconds), "%.6f", c->seconds);
    snprintf(attempts, sizeof(attempts), "%u%s%s", c->attempts, c->attempts > 1 ? ", rerun: " : "",
             c->attempts > 1 ? wk_verdict_name(c->rerun_verdict) : "");
    fputs("  ---\n", f);
    diag_row(f, "verdict", wk_verdict_name(c->verdict));
    if (c->result.verdict != c->verdict)
        diag_row(f, "run_verdict", wk_verdict_name(c->result.verdict));
    diag_row(f, "area", wk_case_area(c));
    diag_row(f, "rule", rule);
    diag_row(f, "covers", covers);
    diag_row(f, "expected", c->result.expected);
    diag_row(f, "seen", c->result.seen);
    if (c->result.also[0])
        diag_row(f, "also", c->result.also);
    diag_row(f, "step", step);
    diag_row(f, "seconds", seconds);
    diag_row(f, "attempts", attempts);
    if (c->expectation) {
        diag_row(f, "expectation", wk_verdict_name(c->expectation->expect));
        diag_row(f, "reason", c->expectation->reason);
        diag_row(f, "link", c->expectation->link);
    }
    diag_row(f, "output", c->output);
    if (c->unexpected)
        diag_row(f, "command", rerun);
    fputs("  ...\n", f);
}

static void write_line(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c, size_t number)
{
    int ok = c->verdict == WK_VERDICT_PASS || (c->verdict == WK_VERDICT_FLAKE && !c->unexpected) ||
             c->verdict == WK_VERDICT_SKIP;
    fprintf(f, "%s %zu - ", ok ? "ok" : "not ok", number);
    directive_text(f, c->prog->id);
    if (c->verdict == WK_VERDICT_SKIP) {
        fputs(" # SKIP ", f);
        directive_text(f, c->expectation ? c->expectation->reason : c->result.seen);
    } else if (c->verdict == WK_VERDICT_EXPECTED_FAIL) {
        fprintf(f, " # TODO expected %s: ", wk_verdict_name(c->expectation->expect));
        directive_text(f, c->expectation->reason);
    }
    fputc('\n', f);
    if (c->verdict != WK_VERDICT_PASS && c->verdict != WK_VERDICT_SKIP)
        write_diagnostics(f, rep, c);
}

/* A spec error: a test point that failed, named by where it is. */
static void write_spec_error(FILE *f, const char *message, size_t number)
{
    char where[1024];
    wk_report_spec_error_where(message, where, sizeof(where));
    fprintf(f, "not ok %zu - spec error ", number);
    directive_text(f, where);
    fputs("\n  ---\n", f);
    diag_row(f, "verdict", "spec-error");
    diag_row(f, "message", message);
    fputs("  ...\n", f);
}

/* "Bail out!" when the run was cut short, else nothing. */
static void write_bail_out(FILE *f, const struct wk_run_report *rep)
{
    if (rep->stop == WK_RUN_INTERRUPTED)
        fprintf(f, "Bail out! interrupted by %s: %zu of %zu cases finished\n", wk_run_signal_name(rep->signo),
                rep->finished, rep->count);
    else if (rep->stop == WK_RUN_TOTAL_TIMEOUT)
        fprintf(f, "Bail out! --total-timeout elapsed: %zu of %zu cases finished\n", rep->finished, rep->count);
}

/* The run's provenance as comment lines, which every TAP reader passes
 * over: "# kit-version: 0.1.0", ... (a value is one line). */
static void write_provenance(FILE *f, const struct wk_run_report *rep)
{
    const char *rows[][2] = {
        { "kit-version", rep->kit_version },
        { "kit-commit", rep->kit_commit },
        { "driver", rep->driver ? rep->driver : "built-in reference driver" },
        { "driver-sha256", rep->driver_sha256 },
        { "driver-build-id", rep->driver_build_id },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (!rows[i][1])
            continue;
        fprintf(f, "# %s: ", rows[i][0]);
        directive_text(f, rows[i][1]);
        fputc('\n', f);
    }
}

wk_status wk_report_tap(const struct wk_run_report *rep, const char *path, FILE *err)
{
    struct wk_report_file rf;
    if (wk_report_open(&rf, path, err) != WK_OK)
        return WK_E_IO;
    FILE *f = rf.f;
    fputs("TAP version 13\n", f);
    write_provenance(f, rep);
    fprintf(f, "1..%zu\n", rep->finished + rep->spec_error_count);
    size_t number = 0;
    for (size_t i = 0; i < rep->count; i++)
        if (rep->cases[i].finished)
            write_line(f, rep, &rep->cases[i], ++number);
    for (size_t i = 0; i < rep->spec_error_count; i++)
        write_spec_error(f, rep->spec_errors[i], ++number);
    write_bail_out(f, rep);
    return wk_report_commit(&rf, err);
}

void wk_tap_stream_begin(FILE *f, const struct wk_run_report *rep)
{
    fputs("TAP version 13\n", f);
    write_provenance(f, rep);
    fflush(f);
}

void wk_tap_stream_case(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c, size_t number)
{
    write_line(f, rep, c, number);
    fflush(f); /* a reader sees each case as it finishes */
}

void wk_tap_stream_end(FILE *f, const struct wk_run_report *rep, size_t number)
{
    for (size_t i = 0; i < rep->spec_error_count; i++)
        write_spec_error(f, rep->spec_errors[i], ++number);
    fprintf(f, "1..%zu\n", number);
    write_bail_out(f, rep);
    fflush(f);
}
