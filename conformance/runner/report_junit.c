/* SPDX-License-Identifier: MIT */
/*
 * report_junit.c - `wddmkit conform --junit FILE`: JUnit XML, the format
 * every CI system's test tab reads (Jenkins, GitLab, GitHub actions).
 *
 * One <testsuite> per area (classname = area, name = case id, time in
 * seconds), the run's environment (with its provenance: the driver's
 * SHA-256 and build-id, the kit's version and commit) and the suite's checks by kind
 * (checks-KIND-run, checks-KIND-skipped) as <properties> of each suite. Mapping of
 * our typed results onto JUnit's three outcomes:
 *   fail, unexpected-pass        <failure type="..."> rule/expected/seen
 *   crash, timeout, error        <error type="...">   the same, plus output
 *   skip, expected-fail          <skipped message="..."/> (expected-fail as
 *                                pytest's xfail does: not a failure, visible)
 *   flake, not listed            <failure type="flake"> the first run's
 *                                rule/expected/seen and output
 *   flake, listed as one         <flakyFailure type="<first verdict>"> with
 *                                the same in <stackTrace> (Maven Surefire's
 *                                element for a test that passed on a rerun:
 *                                the case passes, the CI can count it)
 *   pass                         a bare testcase
 *   never ran (the run stopped)  <skipped> in a "not-run" suite, whose
 *                                property not-run says how many
 *
 * Text and attributes are escaped (& < > " '), characters XML 1.0 cannot
 * hold at all (C0 controls, U+FFFE/U+FFFF) are spelled as \xNN text, and
 * invalid UTF-8 becomes U+FFFD: the file is well-formed whatever a driver
 * managed to put into a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expectations.h"
#include "runner.h"

static void xml_escaped(FILE *f, const char *s, int attribute)
{
    size_t n = s ? strlen(s) : 0;
    while (n) {
        uint32_t cp;
        size_t k = wk_utf8_next(s, n, &cp);
        switch (cp) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        case '\n': fputs(attribute ? "&#10;" : "\n", f); break;
        case '\t': fputs(attribute ? "&#9;" : "\t", f); break;
        case '\r': fputs("&#13;", f); break;
        default:
            if (cp < 0x20)
                fprintf(f, "\\x%02x", (unsigned)cp);
            else if (cp == 0xFFFE || cp == 0xFFFF || (cp == 0xFFFD && k == 1))
                fputs("\xEF\xBF\xBD", f);
            else
                fwrite(s, 1, k, f);
        }
        s += k;
        n -= k;
    }
}

static void attr(FILE *f, const char *name, const char *value)
{
    fprintf(f, " %s=\"", name);
    xml_escaped(f, value, 1);
    fputc('"', f);
}

/* ------------------------------------------------------------------ */
/* Suites by area                                                       */
/* ------------------------------------------------------------------ */

struct suite_counts {
    size_t tests, failures, errors, skipped;
    double seconds;
};

static void count_case(struct suite_counts *s, const struct wk_case_report *c)
{
    s->tests++;
    s->seconds += c->seconds;
    switch (c->verdict) {
    case WK_VERDICT_FAIL:
    case WK_VERDICT_UNEXPECTED_PASS: s->failures++; break;
    case WK_VERDICT_FLAKE: s->failures += (size_t)c->unexpected; break;
    case WK_VERDICT_CRASH:
    case WK_VERDICT_TIMEOUT:
    case WK_VERDICT_ERROR: s->errors++; break;
    case WK_VERDICT_SKIP:
    case WK_VERDICT_EXPECTED_FAIL: s->skipped++; break;
    default: break;
    }
}

static int by_area(const void *a, const void *b)
{
    const struct wk_case_report *x = *(const struct wk_case_report *const *)a;
    const struct wk_case_report *y = *(const struct wk_case_report *const *)b;
    int c = strcmp(wk_case_area(x), wk_case_area(y));
    return c ? c : (x > y) - (x < y);
}

/* The suite's checks by kind (docs/verdicts.md, "Kinds of check"), two
 * properties a kind: checks-KIND-run, checks-KIND-skipped. */
static void write_check_properties(FILE *f, const struct wk_case_report *const *v, size_t n)
{
    struct wk_check_total t[WK_CHECK_KIND_COUNT];
    memset(t, 0, sizeof(t));
    for (size_t i = 0; i < n; i++)
        wk_check_totals_add(t, v[i]);
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++)
        fprintf(f, "      <property name=\"checks-%s-run\" value=\"%llu\"/>\n"
                   "      <property name=\"checks-%s-skipped\" value=\"%llu\"/>\n",
                wk_check_kind_name((enum wk_check_kind)k), (unsigned long long)t[k].run,
                wk_check_kind_name((enum wk_check_kind)k), (unsigned long long)t[k].skipped);
}

static void write_properties(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *const *v,
                             size_t n)
{
    char seed[32], shard[32];
    snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rep->seed);
    snprintf(shard, sizeof(shard), "%u/%u", rep->shard_count ? rep->shard_index : 1,
             rep->shard_count ? rep->shard_count : 1);
    const char *rows[][2] = {
        { "driver", rep->driver ? rep->driver : "built-in reference driver" },
        { "driver-sha256", rep->driver_sha256 },
        { "driver-build-id", rep->driver_build_id },
        { "profile", wk_report_profile(rep) },
        { "seed", seed },
        { "kit-version", rep->kit_version },
        { "kit-commit", rep->kit_commit },
        { "host", rep->host },
        { "start-time", rep->start_time },
        { "shard", shard },
    };
    fputs("    <properties>\n", f);
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (!rows[i][1])
            continue; /* no such fact (the built-in driver has no file) */
        fputs("      <property", f);
        attr(f, "name", rows[i][0]);
        attr(f, "value", rows[i][1]);
        fputs("/>\n", f);
    }
    write_check_properties(f, v, n);
    fputs("    </properties>\n", f);
}

/* ------------------------------------------------------------------ */
/* Test cases                                                           */
/* ------------------------------------------------------------------ */

static void failure_message(const struct wk_case_report *c, char *buf, size_t size)
{
    const struct wk_case_result *r = &c->result;
    char rule[256];
    wk_report_rule(c, rule, sizeof(rule));
    if (c->verdict == WK_VERDICT_UNEXPECTED_PASS) {
        snprintf(buf, size, "passed, but the expectations say %s: %s (%s)", wk_verdict_name(c->expectation->expect),
                 c->expectation->reason, c->expectation->link);
        return;
    }
    snprintf(buf, size, "%s%sexpected %s; seen %s", rule, rule[0] ? ": " : "", r->expected[0] ? r->expected : "-",
             r->seen[0] ? r->seen : "-");
}

/* A flake's two runs, "crash on the first run, pass on the rerun". */
static void flake_runs(const struct wk_case_report *c, char *buf, size_t size)
{
    if (c->attempts > 1)
        snprintf(buf, size, "%s on the first run, %s on the rerun", wk_verdict_name(c->result.verdict),
                 wk_verdict_name(c->rerun_verdict));
    else
        snprintf(buf, size, "%s on the first run, no rerun (the run stopped)", wk_verdict_name(c->result.verdict));
}

static void failure_body(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c)
{
    char step[96], rerun[1024], rule[256], covers[256], runs[96] = "", listed[1100] = "";
    wk_report_step(c, step, sizeof(step));
    wk_report_rule(c, rule, sizeof(rule));
    wk_report_covers(c, covers, sizeof(covers));
    wk_report_rerun_command(rep, c, rerun, sizeof(rerun));
    if (c->verdict == WK_VERDICT_FLAKE)
        flake_runs(c, runs, sizeof(runs));
    if (c->verdict == WK_VERDICT_FLAKE && !c->unexpected && c->expectation)
        snprintf(listed, sizeof(listed), "%s (%s)", c->expectation->reason, c->expectation->link);
    const char *rows[][2] = {
        { "runs", runs },          { "listed", listed }, { "rule", rule }, { "covers", covers },
        { "expected", c->result.expected }, { "seen", c->result.seen }, { "also", c->result.also }, { "step", step },
        { "command", rerun },      { "output", c->output },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (!rows[i][1][0])
            continue;
        fprintf(f, "%s: ", rows[i][0]);
        xml_escaped(f, rows[i][1], 0);
        fputc('\n', f);
    }
}

/* A flake: a failure of the run when no expectation lists it, else
 * Surefire's flakyFailure (the case passed; the first run's failure is
 * kept in its stackTrace). Both carry the first run's output. */
static void write_flake(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c)
{
    char msg[1024], runs[96], first[900];
    flake_runs(c, runs, sizeof(runs));
    failure_message(c, first, sizeof(first));
    snprintf(msg, sizeof(msg), "%s: %s", runs, first);
    if (c->unexpected) {
        fputs("      <failure type=\"flake\"", f);
        attr(f, "message", msg);
        fputs(">", f);
        failure_body(f, rep, c);
        fputs("</failure>\n", f);
        return;
    }
    fputs("      <flakyFailure", f);
    attr(f, "type", wk_verdict_name(c->result.verdict));
    attr(f, "message", msg);
    fputs("><stackTrace>", f);
    failure_body(f, rep, c);
    fputs("</stackTrace></flakyFailure>\n", f);
}

static void write_outcome(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c)
{
    char msg[1024];
    const char *element = c->verdict == WK_VERDICT_FAIL || c->verdict == WK_VERDICT_UNEXPECTED_PASS ? "failure"
                                                                                                     : "error";
    switch (c->verdict) {
    case WK_VERDICT_SKIP:
    case WK_VERDICT_EXPECTED_FAIL:
        if (c->expectation)
            snprintf(msg, sizeof(msg), "expected %s: %s (%s)", wk_verdict_name(c->expectation->expect),
                     c->expectation->reason, c->expectation->link);
        else
            snprintf(msg, sizeof(msg), "%s", c->result.seen);
        fputs("      <skipped", f);
        attr(f, "message", msg);
        fputs("/>\n", f);
        return;
    case WK_VERDICT_PASS: return;
    case WK_VERDICT_FLAKE:
        write_flake(f, rep, c);
        return;
    default:
        failure_message(c, msg, sizeof(msg));
        fprintf(f, "      <%s", element);
        attr(f, "type", wk_verdict_name(c->verdict));
        attr(f, "message", msg);
        fputs(">", f);
        failure_body(f, rep, c);
        fprintf(f, "</%s>\n", element);
    }
}

static void write_case(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c)
{
    char time[32];
    snprintf(time, sizeof(time), "%.6f", c->seconds);
    fputs("    <testcase", f);
    attr(f, "classname", wk_case_area(c));
    attr(f, "name", c->prog->id);
    attr(f, "time", time);
    if (wk_report_spec_file(rep, c)) /* relative to the specs root */
        attr(f, "file", wk_report_spec_file(rep, c));
    if (c->verdict == WK_VERDICT_PASS) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n", f);
    write_outcome(f, rep, c);
    fputs("    </testcase>\n", f);
}

static void write_suite(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *const *v, size_t n)
{
    struct suite_counts s;
    memset(&s, 0, sizeof(s));
    for (size_t i = 0; i < n; i++)
        count_case(&s, v[i]);
    fputs("  <testsuite", f);
    attr(f, "name", wk_case_area(v[0]));
    fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\"", s.tests, s.failures,
            s.errors, s.skipped, s.seconds);
    attr(f, "timestamp", rep->start_time);
    attr(f, "hostname", rep->host);
    fputs(">\n", f);
    write_properties(f, rep, v, n);
    for (size_t i = 0; i < n; i++)
        write_case(f, rep, v[i]);
    fputs("  </testsuite>\n", f);
}

/* Spec errors as a suite of their own, one <error> each, named by where
 * it is: a CI's test tab shows them beside the cases that did run. */
static void write_spec_errors(FILE *f, const struct wk_run_report *rep)
{
    fprintf(f, "  <testsuite name=\"spec-errors\" tests=\"%zu\" failures=\"0\" errors=\"%zu\" skipped=\"0\" time=\"0\"",
            rep->spec_error_count, rep->spec_error_count);
    attr(f, "timestamp", rep->start_time);
    attr(f, "hostname", rep->host);
    fputs(">\n", f);
    for (size_t i = 0; i < rep->spec_error_count; i++) {
        char where[1024];
        wk_report_spec_error_where(rep->spec_errors[i], where, sizeof(where));
        fputs("    <testcase classname=\"spec-errors\"", f);
        attr(f, "name", where);
        fputs(" time=\"0\">\n      <error type=\"spec-error\"", f);
        attr(f, "message", rep->spec_errors[i]);
        fputs("/>\n    </testcase>\n", f);
    }
    if (rep->spec_errors_total > rep->spec_error_count)
        fprintf(f, "    <!-- and %zu more spec errors -->\n", rep->spec_errors_total - rep->spec_error_count);
    fputs("  </testsuite>\n", f);
}

/* Why the run stopped, for the not-run suite: "SIGTERM", "total timeout". */
static const char *stop_reason(const struct wk_run_report *rep)
{
    return rep->stop == WK_RUN_INTERRUPTED ? wk_run_signal_name(rep->signo) : "total timeout";
}

/* A run cut short: the cases that never ran as a suite of their own, each
 * a <skipped> testcase, with the count as a property. A CI's test tab then
 * reads "141 tests, 420 skipped: never ran", not a clean 141 of 141. */
static void write_not_run(FILE *f, const struct wk_run_report *rep)
{
    size_t missing = rep->count - rep->finished;
    char msg[160];
    snprintf(msg, sizeof(msg), "never ran: the run was stopped by %s after %zu of %zu cases", stop_reason(rep),
             rep->finished, rep->count);
    fprintf(f, "  <testsuite name=\"not-run\" tests=\"%zu\" failures=\"0\" errors=\"0\" skipped=\"%zu\" time=\"0\"",
            missing, missing);
    attr(f, "timestamp", rep->start_time);
    attr(f, "hostname", rep->host);
    fputs(">\n    <properties>\n", f);
    fprintf(f, "      <property name=\"not-run\" value=\"%zu\"/>\n", missing);
    fputs("      <property name=\"stopped-by\"", f);
    attr(f, "value", stop_reason(rep));
    fputs("/>\n    </properties>\n", f);
    for (size_t i = 0; i < rep->count; i++) {
        const struct wk_case_report *c = &rep->cases[i];
        if (c->finished)
            continue;
        fputs("    <testcase", f);
        attr(f, "classname", wk_case_area(c));
        attr(f, "name", c->prog->id);
        fputs(" time=\"0\">\n      <skipped", f);
        attr(f, "message", msg);
        fputs("/>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
}

static void write_document(FILE *f, const struct wk_run_report *rep, const struct wk_case_report **v, size_t n)
{
    struct suite_counts all;
    memset(&all, 0, sizeof(all));
    for (size_t i = 0; i < n; i++)
        count_case(&all, v[i]);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"wddmkit conform\"", f);
    size_t missing = rep->stop != WK_RUN_COMPLETE ? rep->count - rep->finished : 0;
    fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\"",
            all.tests + rep->spec_error_count + missing, all.failures, all.errors + rep->spec_error_count,
            all.skipped + missing, rep->seconds);
    attr(f, "timestamp", rep->start_time);
    fputs(">\n", f);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcmp(wk_case_area(v[j]), wk_case_area(v[i])) == 0)
            j++;
        write_suite(f, rep, v + i, j - i);
        i = j;
    }
    if (rep->spec_error_count)
        write_spec_errors(f, rep);
    if (rep->stop != WK_RUN_COMPLETE)
        write_not_run(f, rep);
    fputs("</testsuites>\n", f);
}

wk_status wk_report_junit(const struct wk_run_report *rep, const char *path, FILE *err)
{
    const struct wk_case_report **v = calloc(rep->count ? rep->count : 1, sizeof(*v));
    if (!v)
        return WK_E_NO_MEMORY;
    size_t n = 0;
    for (size_t i = 0; i < rep->count; i++)
        if (rep->cases[i].finished)
            v[n++] = &rep->cases[i];
    qsort(v, n, sizeof(*v), by_area);
    struct wk_report_file rf;
    if (wk_report_open(&rf, path, err) != WK_OK) {
        free(v);
        return WK_E_IO;
    }
    write_document(rf.f, rep, v, n);
    free(v);
    return wk_report_commit(&rf, err);
}
