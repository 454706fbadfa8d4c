/* SPDX-License-Identifier: MIT */
/*
 * report_json.c - `wddmkit conform --json FILE`: the run as one JSON
 * document, for dashboards and scripts.
 *
 * Shape (docs/json-report.md; its schema docs/json-report.schema.json):
 * {format, schema_version, environment {kit_version, kit_commit, driver,
 * driver_sha256, driver_build_id, profile, seed, host, start_time,
 * jobs, shard}, status, signal, seconds, cases [{id, area, verdict,
 * unexpected, run_verdict, rule, trips, covers, expected, seen, seconds, failed_step,
 * step, attempts, rerun_verdict, expectation, file, line, not_evaluated, checks, output}],
 * spec_errors ["FILE:LINE:COL: ..."], checks, totals}; checks is {KIND: {run, skipped,
 * reason}} for every kind of check (docs/verdicts.md, "Kinds of check"), per case and summed.
 * Only finished cases are listed; totals count them by verdict. A case's
 * file is relative to the specs root it was loaded from.
 *
 * Every string goes through one escaper: quotes, backslashes and control
 * characters are escaped, invalid UTF-8 becomes \ufffd, so the file parses
 * whatever a driver managed to put in a message.
 */
#include <stdint.h>
#include <string.h>

#include "expectations.h"
#include "runner.h"

void wk_json_string(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    size_t n = strlen(s);
    while (n) {
        uint32_t cp;
        size_t k = wk_utf8_next(s, n, &cp);
        switch (cp) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            /* also what YAML takes only escaped (C1, U+FEFF, U+FFFE/FFFF):
             * `results baseline` writes its double-quoted scalars with
             * this escaper, JSON's escapes being YAML's too */
            if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF ||
                cp == 0xFFFE || cp == 0xFFFF || (cp == 0xFFFD && k == 1))
                fprintf(f, "\\u%04x", (unsigned)cp);
            else
                fwrite(s, 1, k, f);
        }
        s += k;
        n -= k;
    }
    fputc('"', f);
}

static void json_key(FILE *f, const char *indent, const char *key, int first)
{
    fprintf(f, "%s%s", first ? "" : ",\n", indent);
    wk_json_string(f, key);
    fputs(": ", f);
}

static void write_environment(FILE *f, const struct wk_run_report *rep)
{
    fputs("  \"environment\": {\n", f);
    json_key(f, "    ", "kit_version", 1);
    wk_json_string(f, rep->kit_version);
    json_key(f, "    ", "kit_commit", 0);
    wk_json_string(f, rep->kit_commit);
    json_key(f, "    ", "driver", 0);
    wk_json_string(f, rep->driver);
    json_key(f, "    ", "driver_sha256", 0);
    wk_json_string(f, rep->driver_sha256);
    json_key(f, "    ", "driver_build_id", 0);
    wk_json_string(f, rep->driver_build_id);
    json_key(f, "    ", "profile", 0);
    wk_json_string(f, wk_report_profile(rep));
    json_key(f, "    ", "seed", 0);
    fprintf(f, "%llu", (unsigned long long)rep->seed);
    json_key(f, "    ", "host", 0);
    wk_json_string(f, rep->host);
    json_key(f, "    ", "start_time", 0);
    wk_json_string(f, rep->start_time);
    json_key(f, "    ", "jobs", 0);
    fprintf(f, "%u", rep->jobs);
    json_key(f, "    ", "shard", 0);
    if (rep->shard_count)
        fprintf(f, "\"%u/%u\"", rep->shard_index, rep->shard_count);
    else
        fputs("null", f);
    fputs("\n  },\n", f);
}

static void write_expectation(FILE *f, const struct wk_expectation *x)
{
    if (!x) {
        fputs("null", f);
        return;
    }
    fputs("{\"expect\": ", f);
    wk_json_string(f, wk_verdict_name(x->expect));
    fputs(", \"pattern\": ", f);
    wk_json_string(f, x->pattern);
    fputs(", \"reason\": ", f);
    wk_json_string(f, x->reason);
    fputs(", \"link\": ", f);
    wk_json_string(f, x->link);
    fputs("}", f);
}

static void write_covers(FILE *f, const struct wk_prog *p)
{
    fputc('[', f);
    for (uint32_t i = 0; i < p->cover_count && i < WK_PROG_MAX_RULES; i++) {
        char rule[sizeof(p->covers[i]) + 1];
        snprintf(rule, sizeof(rule), "%.*s", (int)sizeof(p->covers[i]), p->covers[i]);
        fputs(i ? ", " : "", f);
        wk_json_string(f, rule);
    }
    fputc(']', f);
}

/* Every rule the case's run tripped, in the catalogue's order: "rule" is
 * the first the run met, and a case often trips more (a wrong unmap that
 * the GPU also refuses trips PAGING-GPU-001 first and PAGING-UNMAP-001
 * after it). A consumer asking "did the suite see rule X" reads this. */
static void write_rules_tripped(FILE *f, const struct wk_case_report *c)
{
    uint32_t n = 0;
    const struct wk_rule *rules = wk_rules(&n);
    int any = 0;
    fputc('[', f);
    for (uint32_t i = 0; i < n && i < WK_RULE_CAPACITY; i++) {
        if (!((c->result.rules_tripped[i / 64] >> (i % 64)) & 1))
            continue;
        fputs(any ? ", " : "", f);
        wk_json_string(f, rules[i].id);
        any = 1;
    }
    fputc(']', f);
}

/* {"contract": {"run": 3, "skipped": 0, "reason": null}, ...}: every kind,
 * the reason of its first skip (null when none was skipped). */
static void write_checks(FILE *f, const struct wk_check_total *t)
{
    fputc('{', f);
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++) {
        fputs(k ? ", " : "", f);
        wk_json_string(f, wk_check_kind_name((enum wk_check_kind)k));
        fprintf(f, ": {\"run\": %llu, \"skipped\": %llu, \"reason\": ", (unsigned long long)t[k].run,
                (unsigned long long)t[k].skipped);
        wk_json_string(f, t[k].skipped ? t[k].reason : NULL);
        fputc('}', f);
    }
    fputc('}', f);
}

static void write_case(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c, int first)
{
    const char *in = "      ";
    char step[96];
    wk_report_step(c, step, sizeof(step));
    fprintf(f, "%s    {\n", first ? "" : ",\n");
    json_key(f, in, "id", 1), wk_json_string(f, c->prog->id);
    json_key(f, in, "area", 0), wk_json_string(f, wk_case_area(c));
    json_key(f, in, "verdict", 0), wk_json_string(f, wk_verdict_name(c->verdict));
    json_key(f, in, "unexpected", 0), fputs(c->unexpected ? "true" : "false", f);
    json_key(f, in, "run_verdict", 0), wk_json_string(f, wk_verdict_name(c->result.verdict));
    json_key(f, in, "rule", 0), wk_json_string(f, c->result.rule[0] ? c->result.rule : NULL);
    json_key(f, in, "rules_tripped", 0), write_rules_tripped(f, c);
    json_key(f, in, "trips", 0), wk_json_string(f, c->prog->trips[0] ? c->prog->trips : NULL);
    json_key(f, in, "covers", 0), write_covers(f, c->prog);
    json_key(f, in, "expected", 0), wk_json_string(f, c->result.expected[0] ? c->result.expected : NULL);
    json_key(f, in, "seen", 0), wk_json_string(f, c->result.seen[0] ? c->result.seen : NULL);
    json_key(f, in, "also", 0), wk_json_string(f, c->result.also[0] ? c->result.also : NULL);
    json_key(f, in, "seconds", 0), fprintf(f, "%.6f", c->seconds);
    json_key(f, in, "failed_step", 0), fprintf(f, "%d", (int)c->result.failed_step);
    json_key(f, in, "step", 0), wk_json_string(f, step[0] ? step : NULL);
    json_key(f, in, "attempts", 0), fprintf(f, "%u", c->attempts);
    json_key(f, in, "rerun_verdict", 0), wk_json_string(f, c->attempts > 1 ? wk_verdict_name(c->rerun_verdict) : NULL);
    json_key(f, in, "expectation", 0), write_expectation(f, c->expectation);
    json_key(f, in, "file", 0), wk_json_string(f, wk_report_spec_file(rep, c));
    json_key(f, in, "line", 0), fprintf(f, "%u", c->prog->line);
    json_key(f, in, "not_evaluated", 0), fprintf(f, "%u", c->result.not_evaluated);
    struct wk_check_total t[WK_CHECK_KIND_COUNT];
    memset(t, 0, sizeof(t));
    wk_check_totals_add(t, c);
    json_key(f, in, "checks", 0), write_checks(f, t);
    json_key(f, in, "output", 0), wk_json_string(f, c->output[0] ? c->output : NULL);
    fputs("\n    }", f);
}

/* The spec errors kept, each "FILE:LINE:COL: ..."; the count in totals
 * includes those past the kept ones. */
static void write_spec_errors(FILE *f, const struct wk_run_report *rep)
{
    fputs("  \"spec_errors\": [", f);
    for (size_t i = 0; i < rep->spec_error_count; i++) {
        fputs(i ? ",\n    " : "\n    ", f);
        wk_json_string(f, rep->spec_errors[i]);
    }
    fputs(rep->spec_error_count ? "\n  ],\n" : "],\n", f);
}

static void write_totals(FILE *f, const struct wk_run_report *rep)
{
    fputs("  \"totals\": {\n", f);
    json_key(f, "    ", "selected", 1);
    fprintf(f, "%zu", rep->count);
    json_key(f, "    ", "finished", 0);
    fprintf(f, "%zu", rep->finished);
    for (int v = 0; v < WK_VERDICT_COUNT; v++) {
        json_key(f, "    ", wk_verdict_name((enum wk_verdict)v), 0);
        fprintf(f, "%zu", rep->totals[v]);
    }
    json_key(f, "    ", "unexpected", 0);
    fprintf(f, "%zu", rep->unexpected);
    json_key(f, "    ", "spec_errors", 0);
    fprintf(f, "%zu", rep->spec_errors_total);
    fputs("\n  }\n", f);
}

static const char *status_word(const struct wk_run_report *rep)
{
    return rep->stop == WK_RUN_INTERRUPTED ? "interrupted" : rep->stop == WK_RUN_TOTAL_TIMEOUT ? "total-timeout"
                                                                                               : "complete";
}

wk_status wk_report_json(const struct wk_run_report *rep, const char *path, FILE *err)
{
    struct wk_report_file rf;
    if (wk_report_open(&rf, path, err) != WK_OK)
        return WK_E_IO;
    FILE *f = rf.f;
    fputs("{\n  \"format\": \"wddmkit-conform-1\",\n  \"schema_version\": \"" WK_JSON_SCHEMA_VERSION "\",\n", f);
    write_environment(f, rep);
    fputs("  \"status\": ", f);
    wk_json_string(f, status_word(rep));
    fputs(",\n  \"signal\": ", f);
    wk_json_string(f, rep->stop == WK_RUN_INTERRUPTED ? wk_run_signal_name(rep->signo) : NULL);
    fprintf(f, ",\n  \"seconds\": %.6f,\n  \"cases\": [\n", rep->seconds);
    int first = 1;
    for (size_t i = 0; i < rep->count; i++) {
        if (!rep->cases[i].finished)
            continue;
        write_case(f, rep, &rep->cases[i], first);
        first = 0;
    }
    fputs(first ? "  ],\n" : "\n  ],\n", f);
    write_spec_errors(f, rep);
    struct wk_check_total t[WK_CHECK_KIND_COUNT];
    wk_report_check_totals(rep, t);
    fputs("  \"checks\": ", f);
    write_checks(f, t);
    fputs(",\n", f);
    write_totals(f, rep);
    fputs("}\n", f);
    return wk_report_commit(&rf, err);
}
