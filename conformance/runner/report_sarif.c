/* SPDX-License-Identifier: MIT */
/*
 * report_sarif.c - `wddmkit conform --sarif FILE`: the run as a SARIF
 * 2.1.0 log, for code scanning (GitHub's upload-sarif) and other SARIF
 * viewers (docs/sarif.md).
 *
 * One run; one result per finished case whose verdict is something to look
 * at: fail, crash and timeout at level error (the driver's result, under
 * the contract rule that broke, else a kit id); an unlisted flake, an
 * unexpected pass and an error at level warning (an error is the kit's,
 * never the driver's: docs/verdicts.md, "Verdicts"); an expected failure
 * and a listed flake at level note with an external suppression (the
 * expectations file's entry and reason). pass and skip are no results.
 * The location is the spec file at the failed step's line (else the
 * case's), relative to %SRCROOT% (the working directory) or SPECROOT (the
 * kit's specs); partialFingerprints hold the case id and the rule, which a
 * rerun keeps, so code scanning matches an alert from run to run.
 */
#include <string.h>

#include "expectations.h"
#include "runner.h"
#include "runner/sarif.h"

/* The rule a result is filed under: the rule the run tripped, else the
 * kit's id for what happened. A negative case whose rule did not fire is
 * wddmkit/not-tripped, never that rule: the driver did not break it. */
static const char *result_rule(const struct wk_case_report *c)
{
    enum wk_verdict raw = c->result.verdict;
    if (c->verdict == WK_VERDICT_UNEXPECTED_PASS)
        return wk_sarif_kit_rule_id(WK_SARIF_KIT_UNEXPECTED_PASS);
    if (c->result.rule[0])
        return c->result.rule;
    switch (raw) {
    case WK_VERDICT_CRASH: return wk_sarif_kit_rule_id(WK_SARIF_KIT_CRASH);
    case WK_VERDICT_TIMEOUT: return wk_sarif_kit_rule_id(WK_SARIF_KIT_TIMEOUT);
    case WK_VERDICT_ERROR: return wk_sarif_kit_rule_id(WK_SARIF_KIT_ERROR);
    default: break;
    }
    if (c->prog->trips[0])
        return wk_sarif_kit_rule_id(WK_SARIF_KIT_NOT_TRIPPED);
    return wk_sarif_kit_rule_id(WK_SARIF_KIT_CHECK);
}

/* The level of a case's result, or NULL when it is none (docs/sarif.md,
 * "Verdicts and levels"). */
static const char *result_level(const struct wk_case_report *c)
{
    switch (c->verdict) {
    case WK_VERDICT_FAIL:
    case WK_VERDICT_CRASH:
    case WK_VERDICT_TIMEOUT: return "error";
    case WK_VERDICT_ERROR:
    case WK_VERDICT_UNEXPECTED_PASS: return "warning";
    case WK_VERDICT_FLAKE: return c->unexpected ? "warning" : "note";
    case WK_VERDICT_EXPECTED_FAIL: return "note";
    default: return NULL;
    }
}

static int suppressed(const struct wk_case_report *c)
{
    return c->expectation && (c->verdict == WK_VERDICT_EXPECTED_FAIL ||
                              (c->verdict == WK_VERDICT_FLAKE && !c->unexpected));
}

/* "fail: smoke.objects: step 2 (fill, line 40): expected ...; seen ..." */
static void result_text(const struct wk_case_report *c, char *buf, size_t size)
{
    char step[96];
    wk_report_step(c, step, sizeof(step));
    int n = snprintf(buf, size, "%s: %s", wk_verdict_name(c->verdict), c->prog->id);
    if (n < 0 || (size_t)n >= size)
        return;
    if (c->verdict == WK_VERDICT_UNEXPECTED_PASS) {
        snprintf(buf + n, size - (size_t)n, ": passed, and the expectations file expects %s",
                 c->expectation ? wk_verdict_name(c->expectation->expect) : "a failure");
        return;
    }
    if (step[0])
        n += snprintf(buf + n, size - (size_t)n, ": step %s", step);
    if (c->result.expected[0] && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ": expected %s", c->result.expected);
    if (c->result.seen[0] && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "%s seen %s", c->result.expected[0] ? ";" : ":", c->result.seen);
    if (!c->result.rule[0] && c->prog->trips[0] && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " (the case must trip %.24s)", c->prog->trips);
}

/* The line a result points at: the failed step's, else the case's. */
static uint32_t result_line(const struct wk_case_report *c)
{
    int32_t i = c->result.failed_step;
    if (i >= 0 && (uint32_t)i < c->prog->step_count && c->prog->steps[i].line)
        return c->prog->steps[i].line;
    return c->prog->line;
}

static void write_location(struct wk_jw *w, const struct wk_case_report *c, const char *spec_root)
{
    wk_jw_array(w, "locations");
    wk_jw_object(w, NULL);
    if (c->prog->file[0]) {
        wk_jw_object(w, "physicalLocation");
        wk_sarif_artifact_location(w, "artifactLocation", c->prog->file, spec_root);
        if (result_line(c)) {
            wk_jw_object(w, "region");
            wk_jw_uint(w, "startLine", result_line(c));
            wk_jw_end(w, '}');
        }
        wk_jw_end(w, '}');
    }
    wk_jw_array(w, "logicalLocations");
    wk_jw_object(w, NULL);
    wk_jw_string(w, "name", c->prog->id);
    wk_jw_string(w, "kind", "test");
    wk_jw_end(w, '}');
    wk_jw_end(w, ']');
    wk_jw_end(w, '}');
    wk_jw_end(w, ']');
}

static void write_suppression(struct wk_jw *w, const struct wk_case_report *c)
{
    const struct wk_expectation *x = c->expectation;
    char why[600];
    snprintf(why, sizeof(why), "expectations file: expect %s%s%s%s%s", wk_verdict_name(x->expect),
             x->reason ? ": " : "", x->reason ? x->reason : "", x->link ? " " : "", x->link ? x->link : "");
    wk_jw_array(w, "suppressions");
    wk_jw_object(w, NULL);
    wk_jw_string(w, "kind", "external");
    wk_jw_string(w, "justification", why);
    wk_jw_end(w, '}');
    wk_jw_end(w, ']');
}

static void write_properties(struct wk_jw *w, const struct wk_run_report *rep, const struct wk_case_report *c)
{
    char step[96], rerun[1200];
    wk_report_step(c, step, sizeof(step));
    wk_report_rerun_command(rep, c, rerun, sizeof(rerun));
    wk_jw_object(w, "properties");
    wk_jw_string(w, "case", c->prog->id);
    wk_jw_string(w, "area", wk_case_area(c));
    wk_jw_string(w, "verdict", wk_verdict_name(c->verdict));
    wk_jw_string(w, "runVerdict", wk_verdict_name(c->result.verdict));
    if (c->prog->trips[0])
        wk_jw_string(w, "trips", c->prog->trips);
    if (step[0])
        wk_jw_string(w, "step", step);
    if (c->result.expected[0])
        wk_jw_string(w, "expected", c->result.expected);
    if (c->result.seen[0])
        wk_jw_string(w, "seen", c->result.seen);
    if (c->result.also[0])
        wk_jw_string(w, "also", c->result.also);
    wk_jw_uint(w, "attempts", c->attempts);
    if (c->output[0])
        wk_jw_string(w, "output", c->output);
    wk_jw_string(w, "rerun", rerun);
    wk_jw_end(w, '}');
}

static void write_result(struct wk_jw *w, const struct wk_run_report *rep, const struct wk_case_report *c,
                         const char *spec_root)
{
    const char *rule = result_rule(c);
    char text[1400], fingerprint[160];
    result_text(c, text, sizeof(text));
    snprintf(fingerprint, sizeof(fingerprint), "%s|%s", c->prog->id, rule);
    wk_jw_object(w, NULL);
    wk_jw_string(w, "ruleId", rule);
    int index = wk_sarif_rule_index(rule, NULL, 0);
    if (index >= 0)
        wk_jw_uint(w, "ruleIndex", (uint64_t)index);
    wk_jw_string(w, "level", result_level(c));
    wk_jw_message(w, "message", text);
    write_location(w, c, spec_root);
    wk_jw_object(w, "partialFingerprints");
    wk_jw_string(w, "wddmkitCaseRule/v1", fingerprint);
    wk_jw_end(w, '}');
    if (suppressed(c))
        write_suppression(w, c);
    write_properties(w, rep, c);
    wk_jw_end(w, '}');
}

/* The spec errors: each a notification at its FILE:LINE:COL. */
static void write_spec_errors(struct wk_jw *w, const struct wk_run_report *rep, const char *spec_root)
{
    wk_jw_array(w, "toolConfigurationNotifications");
    for (size_t i = 0; i < rep->spec_error_count; i++) {
        char where[512], file[512];
        unsigned line = 0, col = 0;
        wk_report_spec_error_where(rep->spec_errors[i], where, sizeof(where));
        char *colon = strchr(where, ':');
        int has_at = colon && sscanf(colon, ":%u:%u", &line, &col) == 2;
        snprintf(file, sizeof(file), "%.*s", colon ? (int)(colon - where) : 0, where);
        wk_jw_object(w, NULL);
        wk_jw_string(w, "level", "error");
        wk_jw_message(w, "message", rep->spec_errors[i]);
        if (has_at && file[0]) {
            wk_jw_array(w, "locations");
            wk_jw_object(w, NULL);
            wk_jw_object(w, "physicalLocation");
            wk_sarif_artifact_location(w, "artifactLocation", file, spec_root);
            wk_jw_object(w, "region");
            wk_jw_uint(w, "startLine", line ? line : 1);
            wk_jw_uint(w, "startColumn", col ? col : 1);
            wk_jw_end(w, '}');
            wk_jw_end(w, '}');
            wk_jw_end(w, '}');
            wk_jw_end(w, ']');
        }
        wk_jw_end(w, '}');
    }
    wk_jw_end(w, ']');
}

static void write_invocation(struct wk_jw *w, const struct wk_run_report *rep, const char *spec_root)
{
    wk_jw_array(w, "invocations");
    wk_jw_object(w, NULL);
    /* the kit ran to the end: failures are results, not a failed execution */
    wk_jw_bool(w, "executionSuccessful", rep->stop == WK_RUN_COMPLETE);
    if (rep->start_time[0])
        wk_jw_string(w, "startTimeUtc", rep->start_time);
    if (rep->host[0])
        wk_jw_string(w, "machine", rep->host);
    write_spec_errors(w, rep, spec_root);
    wk_jw_end(w, '}');
    wk_jw_end(w, ']');
}

/* The driver module, the run's analysis target, with its digest. */
static void write_artifacts(struct wk_jw *w, const struct wk_run_report *rep, const char *spec_root)
{
    if (!rep->driver)
        return;
    wk_jw_array(w, "artifacts");
    wk_jw_object(w, NULL);
    wk_sarif_artifact_location(w, "location", rep->driver, spec_root);
    wk_jw_array(w, "roles");
    wk_jw_string(w, NULL, "analysisTarget");
    wk_jw_end(w, ']');
    if (rep->driver_sha256) {
        wk_jw_object(w, "hashes");
        wk_jw_string(w, "sha-256", rep->driver_sha256);
        wk_jw_end(w, '}');
    }
    if (rep->driver_build_id) {
        wk_jw_object(w, "properties");
        wk_jw_string(w, "buildId", rep->driver_build_id);
        wk_jw_end(w, '}');
    }
    wk_jw_end(w, '}');
    wk_jw_end(w, ']');
}

static void write_run_properties(struct wk_jw *w, const struct wk_run_report *rep)
{
    wk_jw_object(w, "properties");
    wk_jw_string(w, "driver", rep->driver);
    wk_jw_string(w, "driverSha256", rep->driver_sha256);
    wk_jw_string(w, "driverBuildId", rep->driver_build_id);
    wk_jw_string(w, "profile", wk_report_profile(rep));
    wk_jw_uint(w, "seed", rep->seed);
    if (rep->shard_count) {
        char shard[32];
        snprintf(shard, sizeof(shard), "%u/%u", rep->shard_index, rep->shard_count);
        wk_jw_string(w, "shard", shard);
    }
    wk_jw_string(w, "status", rep->stop == WK_RUN_INTERRUPTED     ? "interrupted"
                              : rep->stop == WK_RUN_TOTAL_TIMEOUT ? "total-timeout"
                                                                  : "complete");
    wk_jw_uint(w, "cases", rep->finished);
    wk_jw_uint(w, "unexpected", rep->unexpected);
    wk_jw_end(w, '}');
}

wk_status wk_report_sarif(const struct wk_run_report *rep, const char *spec_root, const char *path, FILE *err)
{
    struct wk_report_file rf;
    if (wk_report_open(&rf, path, err) != WK_OK)
        return WK_E_IO;
    struct wk_jw w;
    struct wk_sarif_tool tool = { rep->kit_version ? rep->kit_version : "unknown",
                                  rep->kit_commit ? rep->kit_commit : "unknown", NULL, NULL, 0 };
    wk_sarif_begin(&w, rf.f, &tool);
    write_invocation(&w, rep, spec_root);
    wk_sarif_base_ids(&w, spec_root);
    write_artifacts(&w, rep, spec_root);
    wk_jw_array(&w, "results");
    for (size_t i = 0; i < rep->count; i++) {
        const struct wk_case_report *c = &rep->cases[i];
        if (c->finished && result_level(c))
            write_result(&w, rep, c, spec_root);
    }
    wk_jw_end(&w, ']');
    write_run_properties(&w, rep);
    wk_sarif_end(&w);
    return wk_report_commit(&rf, err);
}
