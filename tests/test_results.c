/* SPDX-License-Identifier: MIT */
/*
 * test_results.c - conformance/results/ and runner/caselist.c: the report
 * reader's acceptance and its messages (file and place), its limits, the
 * baseline's entries, the diff's classes, the merge's refusals, and the
 * case list's format and errors. Reports are built from a small template
 * here; the commands on real `conform` output: tests/results_cli.sh.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "conformance.h"

#define CHECKS "{\"contract\": {\"run\": 1, \"skipped\": 0, \"reason\": null}, \"semantic\": {\"run\": 0, " \
               "\"skipped\": 0, \"reason\": null}, \"encoder\": {\"run\": 0, \"skipped\": 0, \"reason\": null}, " \
               "\"choice\": {\"run\": 0, \"skipped\": 0, \"reason\": null}}"

/* One case: id, verdict, run verdict, rerun verdict (NULL), rule (NULL), expectation JSON (NULL). */
static char *case_json(const char *id, const char *verdict, const char *run, const char *rerun, const char *rule,
                       const char *expectation, int unexpected)
{
    char *s = NULL;
    static char rule_q[WK_RESULTS_MAX_TEXT + 128];
    char rerun_q[40];
    snprintf(rerun_q, sizeof(rerun_q), rerun ? "\"%s\"" : "null", rerun ? rerun : "");
    snprintf(rule_q, sizeof(rule_q), rule ? "\"%s\"" : "null", rule ? rule : "");
    assert_true(asprintf(&s,
                         "{\"id\": \"%s\", \"area\": \"smoke\", \"verdict\": \"%s\", \"unexpected\": %s, "
                         "\"run_verdict\": \"%s\", \"rule\": %s, \"rules_tripped\": [], \"trips\": null, "
                         "\"covers\": [], \"expected\": null, \"seen\": null, \"also\": null, \"seconds\": 0.5, \"failed_step\": -1, "
                         "\"step\": null, \"attempts\": %d, \"rerun_verdict\": %s, \"expectation\": %s, "
                         "\"file\": \"smoke.yaml\", \"line\": 3, \"not_evaluated\": 0, \"checks\": " CHECKS
                         ", \"output\": null}",
                         id, verdict, unexpected ? "true" : "false", run, rule_q, rerun ? 2 : 1, rerun_q,
                         expectation ? expectation : "null") > 0);
    return s;
}

/* A report of the given cases (a JSON array's inside) and shard (NULL). */
static char *report_json(const char *cases, const char *shard, const char *driver)
{
    char *s = NULL;
    char shard_q[40], driver_q[80];
    snprintf(shard_q, sizeof(shard_q), shard ? "\"%s\"" : "null", shard ? shard : "");
    snprintf(driver_q, sizeof(driver_q), driver ? "\"%s\"" : "null", driver ? driver : "");
    assert_true(asprintf(&s,
                         "{\"format\": \"wddmkit-conform-1\", \"schema_version\": \"1.2\", \"environment\": "
                         "{\"kit_version\": \"0.1.0\", \"kit_commit\": \"unknown\", \"driver\": %s, "
                         "\"driver_sha256\": null, \"driver_build_id\": null, \"profile\": \"contract\", "
                         "\"seed\": 0, \"host\": \"h\", \"start_time\": \"2026-01-01T00:00:00Z\", \"jobs\": 2, "
                         "\"shard\": %s}, \"status\": \"complete\", \"signal\": null, \"seconds\": 1.5, "
                         "\"cases\": [%s], \"spec_errors\": [], \"checks\": " CHECKS ", \"totals\": {\"selected\": 2, "
                         "\"finished\": 2, \"pass\": 0, \"fail\": 0, \"skip\": 0, \"crash\": 0, \"timeout\": 0, "
                         "\"error\": 0, \"expected-fail\": 0, \"unexpected-pass\": 0, \"flake\": 0, "
                         "\"unexpected\": 0, \"spec_errors\": 0}}",
                         driver_q, shard_q, cases) > 0);
    return s;
}

/* Parses text; the messages into msgs (caller's buffer). */
static wk_status parse(const char *text, struct wk_results **r, char *msgs, size_t cap)
{
    FILE *err = fmemopen(msgs, cap, "w");
    assert_non_null(err);
    wk_status st = wk_results_parse("r.json", text, strlen(text), r, err);
    fclose(err);
    return st;
}

static struct wk_results *parse_ok(const char *text)
{
    char msgs[4096] = "";
    struct wk_results *r = NULL;
    wk_status st = parse(text, &r, msgs, sizeof(msgs));
    if (st != WK_OK)
        fprintf(stderr, "%s", msgs);
    assert_int_equal(st, WK_OK);
    assert_string_equal(msgs, "");
    return r;
}

static void expect_refused(const char *text, const char *message)
{
    char msgs[4096] = "";
    struct wk_results *r = NULL;
    assert_int_not_equal(parse(text, &r, msgs, sizeof(msgs)), WK_OK);
    assert_null(r);
    if (!strstr(msgs, message))
        fprintf(stderr, "messages: %s\nwanted: %s\n", msgs, message);
    assert_non_null(strstr(msgs, message));
}

static void reads_a_report(void **state)
{
    (void)state;
    char *a = case_json("smoke.b", "fail", "fail", "fail", "PAGING-FILL-001", NULL, 1);
    char *b = case_json("smoke.a", "pass", "pass", NULL, NULL, NULL, 0);
    char cases[8192];
    snprintf(cases, sizeof(cases), "%s, %s", a, b);
    char *text = report_json(cases, "1/2", "./d.so");
    struct wk_results *r = parse_ok(text);
    assert_int_equal(r->count, 2);
    assert_string_equal(r->cases[0].id, "smoke.a"); /* sorted by id */
    assert_int_equal(r->cases[1].verdict, WK_VERDICT_FAIL);
    assert_string_equal(r->cases[1].rule, "PAGING-FILL-001");
    assert_true(r->cases[1].has_rerun);
    assert_string_equal(r->shard, "1/2");
    assert_string_equal(r->driver, "./d.so");
    assert_int_equal(r->minor, 2);
    assert_ptr_equal(wk_results_find(r, "smoke.b"), &r->cases[1]);
    assert_null(wk_results_find(r, "smoke.c"));
    wk_results_free(r);
    free(text), free(a), free(b);
}

static void names_the_place_of_a_problem(void **state)
{
    (void)state;
    char *a = case_json("smoke.a", "bogus", "pass", NULL, NULL, NULL, 0);
    char *text = report_json(a, NULL, NULL);
    expect_refused(text, "r.json: cases[0].verdict: unknown verdict \"bogus\"");
    free(text), free(a);
    a = case_json("smoke.a", "pass", "pass", NULL, NULL, NULL, 0);
    char *dup = NULL;
    assert_true(asprintf(&dup, "%s, %s", a, a) > 0);
    text = report_json(dup, NULL, NULL);
    expect_refused(text, "r.json: cases: the id \"smoke.a\" twice");
    free(text), free(dup);
    text = report_json(a, NULL, NULL);
    char *p = strstr(text, "\"seed\": 0");
    memcpy(p, "\"seed\":-1", 9);
    expect_refused(text, "r.json: environment.seed: expected an integer >= 0, saw an integer -1");
    free(text);
    text = report_json(a, NULL, NULL);
    p = strstr(text, "\"line\": 3, ");
    memcpy(p, "\"lin\":  3, ", 11);
    expect_refused(text, "r.json: cases[0].line: missing (expected an integer >= 0)");
    free(text), free(a);
    a = case_json("smoke a", "pass", "pass", NULL, NULL, NULL, 0);
    text = report_json(a, NULL, NULL);
    expect_refused(text, "r.json: cases[0].id: expected a case id");
    free(text), free(a);
    expect_refused("{\"format\": \"wddmkit-conform-1\",\n  \"cases\": [}", "r.json:2:13: JSON syntax error");
    expect_refused("[1]", "r.json: expected a JSON object");
    expect_refused("{\"format\": \"junit\"}", "r.json: format: \"junit\" is not a wddmkit conform report");
}

static void refuses_another_major_version(void **state)
{
    (void)state;
    expect_refused("{\"format\": \"wddmkit-conform-2\"}", "major version 2: this kit reads version 1");
    expect_refused("{\"format\": \"wddmkit-conform-1\", \"schema_version\": \"2.0\"}",
                   "r.json: schema_version: \"2.0\": major version 2, this kit reads 1.x");
    /* a newer minor version: its added keys are ignored */
    char *a = case_json("smoke.a", "pass", "pass", NULL, NULL, NULL, 0);
    char *text = report_json(a, NULL, NULL);
    char *p = strstr(text, "\"1.2\"");
    memcpy(p, "\"1.9\"", 5);
    char *more = NULL;
    assert_true(asprintf(&more, "{\"surprise\": {\"x\": [1]}, %s", text + 1) > 0);
    struct wk_results *r = parse_ok(more);
    assert_int_equal(r->minor, 9);
    wk_results_free(r);
    free(more), free(text), free(a);
}

static void bounds_its_input(void **state)
{
    (void)state;
    char deep[64];
    memset(deep, '[', sizeof(deep) - 1);
    deep[sizeof(deep) - 1] = '\0';
    expect_refused(deep, "r.json:1:17: nested deeper than 16 levels");
    /* a bracket inside a string does not nest */
    char *a = case_json("smoke.a", "pass", "pass", NULL, "[[[[[[[[[[[[[[[[[[[[", NULL, 0);
    char *text = report_json(a, NULL, NULL);
    struct wk_results *r = parse_ok(text);
    wk_results_free(r);
    free(text), free(a);
    char *big = malloc(WK_RESULTS_MAX_TEXT + 64);
    memset(big, 'x', WK_RESULTS_MAX_TEXT + 63);
    big[WK_RESULTS_MAX_TEXT + 63] = '\0';
    a = case_json("smoke.a", "pass", "pass", NULL, big, NULL, 0);
    text = report_json(a, NULL, NULL);
    expect_refused(text, "a string of 65599 bytes (at most 65536)");
    free(text), free(a), free(big);
    char msgs[256] = "";
    FILE *err = fmemopen(msgs, sizeof(msgs), "w");
    struct wk_results *none = NULL;
    assert_int_equal(wk_results_parse("r.json", "{}", WK_RESULTS_MAX_BYTES + 1, &none, err), WK_E_LIMIT);
    fclose(err);
    assert_non_null(strstr(msgs, "r.json: larger than"));
}

static char *baseline_of(const char *cases, const char *reason)
{
    char *text = report_json(cases, NULL, "./d.so");
    struct wk_results *r = parse_ok(text);
    char *yaml = NULL;
    assert_int_equal(wk_results_baseline(r, reason, "proj#7", &yaml, stderr), WK_OK);
    wk_results_free(r);
    free(text);
    return yaml;
}

static void baseline_lists_known_failures(void **state)
{
    (void)state;
    const char *x = "{\"expect\": \"flake\", \"pattern\": \"smoke.*\", \"reason\": \"racy\", \"link\": \"bug#3\"}";
    char *c[7] = {
        case_json("smoke.pass", "pass", "pass", NULL, NULL, NULL, 0),
        case_json("smoke.fail", "fail", "fail", "fail", "PAGING-FILL-001", NULL, 1),
        case_json("smoke.crash", "crash", "crash", "crash", "DRV-CRASH-001", NULL, 1),
        case_json("smoke.mixed", "crash", "crash", "fail", NULL, NULL, 1),
        case_json("smoke.flaky", "flake", "fail", "pass", "PAGING-FILL-001", NULL, 1),
        case_json("smoke.listed", "pass", "pass", NULL, NULL, x, 0),
        case_json("smoke.error", "error", "error", "error", NULL, NULL, 1),
    };
    char cases[16384] = "";
    for (int i = 0; i < 7; i++)
        snprintf(cases + strlen(cases), sizeof(cases) - strlen(cases), "%s%s", i ? ", " : "", c[i]);
    char *yaml = baseline_of(cases, NULL);
    assert_null(strstr(yaml, "smoke.pass"));
    assert_null(strstr(yaml, "smoke.error"));
    assert_non_null(strstr(yaml, "- id: \"smoke.fail\"\n  expect: fail\n  reason: \"fail in the baseline run of "
                                 "2026-01-01T00:00:00Z: PAGING-FILL-001\"\n  link: \"proj#7\"\n"));
    assert_non_null(strstr(yaml, "- id: \"smoke.crash\"\n  expect: crash\n"));
    assert_non_null(strstr(yaml, "- id: \"smoke.mixed\"\n  expect: flake\n")); /* crash, then fail */
    assert_non_null(strstr(yaml, "- id: \"smoke.flaky\"\n  expect: flake\n"));
    /* a listed flake that passed this time stays, with its reason and link, by exact id */
    assert_non_null(strstr(yaml, "- id: \"smoke.listed\"\n  expect: flake\n  reason: \"racy\"\n  link: \"bug#3\"\n"));
    free(yaml);
    yaml = baseline_of(c[1], "tracked \"upstream\": see #1");
    assert_non_null(strstr(yaml, "reason: \"tracked \\\"upstream\\\": see #1\""));
    free(yaml);
    yaml = baseline_of(c[0], NULL); /* nothing to expect: an empty list the loader takes */
    assert_non_null(strstr(yaml, "\n[]\n"));
    free(yaml);
    for (int i = 0; i < 7; i++)
        free(c[i]);
}

static void baseline_refuses_a_bad_link(void **state)
{
    (void)state;
    char *a = case_json("smoke.a", "fail", "fail", "fail", NULL, NULL, 1);
    char *text = report_json(a, NULL, NULL);
    struct wk_results *r = parse_ok(text);
    char msgs[1024] = "", *yaml = NULL;
    FILE *err = fmemopen(msgs, sizeof(msgs), "w");
    assert_int_equal(wk_results_baseline(r, NULL, "no link", &yaml, err), WK_E_INVALID_ARGUMENT);
    fclose(err);
    assert_null(yaml);
    assert_non_null(strstr(msgs, "--link 'no link': expected a URL"));
    wk_results_free(r);
    free(text), free(a);
}

static const struct wk_results_diff_entry *entry(const struct wk_results_diff *d, const char *id)
{
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->entries[i].id, id) == 0)
            return &d->entries[i];
    return NULL;
}

static void diff_classifies(void **state)
{
    (void)state;
    const char *known = "{\"expect\": \"fail\", \"pattern\": \"smoke.known\", \"reason\": \"r\", \"link\": \"b#1\"}";
    char *o[] = {
        case_json("smoke.newfail", "pass", "pass", NULL, NULL, NULL, 0),
        case_json("smoke.fixed", "fail", "fail", "fail", "R-1", NULL, 1),
        case_json("smoke.worse", "fail", "fail", "fail", "R-1", NULL, 1),
        case_json("smoke.same", "fail", "fail", "fail", "R-1", NULL, 1),
        case_json("smoke.flaky", "pass", "pass", NULL, NULL, NULL, 0),
        case_json("smoke.erred", "pass", "pass", NULL, NULL, NULL, 0),
        case_json("smoke.known", "pass", "pass", NULL, NULL, NULL, 0),
        case_json("smoke.gone", "pass", "pass", NULL, NULL, NULL, 0),
        case_json("smoke.better", "crash", "crash", "crash", NULL, NULL, 1),
    };
    char *n[] = {
        case_json("smoke.newfail", "fail", "fail", "fail", "R-2", NULL, 1),
        case_json("smoke.fixed", "pass", "pass", NULL, NULL, NULL, 0),
        case_json("smoke.worse", "crash", "crash", "crash", "DRV-CRASH-001", NULL, 1),
        case_json("smoke.same", "expected-fail", "fail", NULL, "R-1", known, 0), /* a baseline applied */
        case_json("smoke.flaky", "flake", "fail", "pass", "R-3", NULL, 1),
        case_json("smoke.erred", "error", "error", "error", NULL, NULL, 1),
        case_json("smoke.known", "expected-fail", "fail", NULL, "R-4", known, 0),
        case_json("smoke.new", "pass", "pass", NULL, NULL, NULL, 0),
        case_json("smoke.better", "fail", "fail", "fail", "R-1", NULL, 1),
    };
    char co[16384] = "", cn[16384] = "";
    for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++) {
        snprintf(co + strlen(co), sizeof(co) - strlen(co), "%s%s", i ? ", " : "", o[i]);
        snprintf(cn + strlen(cn), sizeof(cn) - strlen(cn), "%s%s", i ? ", " : "", n[i]);
    }
    char *to = report_json(co, NULL, NULL), *tn = report_json(cn, NULL, NULL);
    struct wk_results *ro = parse_ok(to), *rn = parse_ok(tn);
    struct wk_results_diff d;
    assert_int_equal(wk_results_diff(ro, rn, &d), WK_OK);
    assert_int_equal(entry(&d, "smoke.newfail")->change, WK_RESULTS_REGRESSION);
    assert_int_equal(entry(&d, "smoke.worse")->change, WK_RESULTS_REGRESSION); /* fail -> crash */
    assert_int_equal(entry(&d, "smoke.flaky")->change, WK_RESULTS_REGRESSION); /* a new flake */
    assert_int_equal(entry(&d, "smoke.fixed")->change, WK_RESULTS_FIX);
    assert_int_equal(entry(&d, "smoke.erred")->change, WK_RESULTS_NEW_ERROR);
    assert_int_equal(entry(&d, "smoke.known")->change, WK_RESULTS_KNOWN);
    assert_int_equal(entry(&d, "smoke.gone")->change, WK_RESULTS_REMOVED);
    assert_int_equal(entry(&d, "smoke.new")->change, WK_RESULTS_ADDED);
    assert_int_equal(entry(&d, "smoke.better")->change, WK_RESULTS_CHANGED); /* crash -> fail */
    assert_null(entry(&d, "smoke.same")); /* fail, then the same failure expected */
    assert_int_equal(d.new_flakes, 1);
    assert_int_equal(wk_results_diff_exit_code(&d), 1);
    wk_results_diff_free(&d);
    /* the other way round: the regressions are fixes, and nothing regressed but the error's case */
    assert_int_equal(wk_results_diff(rn, ro, &d), WK_OK);
    assert_int_equal(entry(&d, "smoke.newfail")->change, WK_RESULTS_FIX);
    assert_int_equal(entry(&d, "smoke.better")->change, WK_RESULTS_REGRESSION); /* fail -> crash again */
    wk_results_diff_free(&d);
    wk_results_free(ro), wk_results_free(rn);
    free(to), free(tn);
    for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++)
        free(o[i]), free(n[i]);
}

static wk_status merge2(const char *a, const char *b, char **out, char *msgs, size_t cap)
{
    struct wk_results *r[2] = { parse_ok(a), parse_ok(b) };
    FILE *err = fmemopen(msgs, cap, "w");
    wk_status st = wk_results_merge(r, 2, out, err);
    fclose(err);
    wk_results_free(r[0]), wk_results_free(r[1]);
    return st;
}

static void merge_takes_shards_of_one_run(void **state)
{
    (void)state;
    char *a = case_json("smoke.a", "pass", "pass", NULL, NULL, NULL, 0);
    char *b = case_json("smoke.b", "fail", "fail", "fail", "R-1", NULL, 1);
    char *b2 = case_json("smoke.b", "crash", "crash", "crash", "R-1", NULL, 1);
    char *s1 = report_json(b, "1/2", NULL), *s2 = report_json(a, "2/2", NULL);
    char msgs[1024] = "", *json = NULL;
    assert_int_equal(merge2(s1, s2, &json, msgs, sizeof(msgs)), WK_OK);
    struct wk_results *m = parse_ok(json);
    assert_int_equal(m->count, 2);
    assert_string_equal(m->cases[0].id, "smoke.a");
    assert_null(m->shard);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(m->root, "totals"), "fail")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(m->root, "totals"), "unexpected")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(m->root, "totals"), "selected")), 4 - 0);
    wk_results_free(m);
    free(json);
    /* the same case twice with another result */
    char *s3 = report_json(b2, "2/2", NULL);
    assert_int_equal(merge2(s1, s3, &json, msgs, sizeof(msgs)), WK_E_INVALID_ARGUMENT);
    assert_non_null(strstr(msgs, "the case smoke.b is in r.json (fail, rule R-1) and in r.json (crash, rule R-1)"));
    /* another driver */
    char *s4 = report_json(a, "2/2", "./other.so");
    assert_int_equal(merge2(s1, s4, &json, msgs, sizeof(msgs)), WK_E_INVALID_ARGUMENT);
    assert_non_null(strstr(msgs, "not shards of one run: the driver differs (null and ./other.so)"));
    /* another number of shards */
    char *s5 = report_json(a, "2/3", NULL);
    assert_int_equal(merge2(s1, s5, &json, msgs, sizeof(msgs)), WK_E_INVALID_ARGUMENT);
    assert_non_null(strstr(msgs, "the number of shards differs (2 and 3)"));
    /* a missing shard is said, the merge goes on */
    assert_int_equal(merge2(s1, s1, &json, msgs, sizeof(msgs)), WK_OK);
    assert_non_null(strstr(msgs, "1 of 2 shards missing: 2/2"));
    free(json);
    free(a), free(b), free(b2), free(s1), free(s2), free(s3), free(s4), free(s5);
}

static wk_status caselist(const char *text, struct wk_caselist **l, char *msgs, size_t cap)
{
    FILE *err = fmemopen(msgs, cap, "w");
    wk_status st = wk_caselist_parse("list.txt", text, strlen(text), l, err);
    fclose(err);
    return st;
}

static void caselist_format(void **state)
{
    (void)state;
    char msgs[1024] = "";
    struct wk_caselist *l = NULL;
    assert_int_equal(caselist("# failures\nsmoke.b\n\n  smoke.a   # why\r\nsmoke.b\n", &l, msgs, sizeof(msgs)), WK_OK);
    assert_int_equal(l->count, 2);
    assert_true(wk_caselist_has(l, "smoke.a"));
    assert_true(wk_caselist_has(l, "smoke.b"));
    assert_false(wk_caselist_has(l, "smoke.c"));
    static struct wk_prog p;
    snprintf(p.id, sizeof(p.id), "smoke.a");
    const struct wk_prog *cases[] = { &p };
    FILE *err = fmemopen(msgs, sizeof(msgs), "w");
    assert_int_equal(wk_caselist_check_unknown(l, cases, 1, err), 1);
    fclose(err);
    assert_string_equal(msgs, "list.txt:2: no case 'smoke.b' among the loaded specs\n");
    wk_caselist_free(l);
    assert_int_equal(caselist("smoke.a\nsmoke.*\nsmoke a\n", &l, msgs, sizeof(msgs)), WK_E_INVALID_ARGUMENT);
    assert_null(l);
    assert_non_null(strstr(msgs, "list.txt:2: expected a case id, saw a glob (--filter takes globs): 'smoke.*'"));
    assert_non_null(strstr(msgs, "list.txt:3: expected one case id"));
    assert_int_equal(caselist("", &l, msgs, sizeof(msgs)), WK_OK);
    assert_int_equal(l->count, 0);
    wk_caselist_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_a_report),
        cmocka_unit_test(names_the_place_of_a_problem),
        cmocka_unit_test(refuses_another_major_version),
        cmocka_unit_test(bounds_its_input),
        cmocka_unit_test(baseline_lists_known_failures),
        cmocka_unit_test(baseline_refuses_a_bad_link),
        cmocka_unit_test(diff_classifies),
        cmocka_unit_test(merge_takes_shards_of_one_run),
        cmocka_unit_test(caselist_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
