/* SPDX-License-Identifier: MIT */
/*
 * cli_results.c - `wddmkit results baseline|diff|merge`: the JSON reports
 * of `conform --json` between runs (conformance/results/results.h does
 * the work; this file parses the arguments).
 *
 *   results baseline RUN.json --link URL [--reason TEXT]   an expectations file, to stdout
 *   results diff OLD.json NEW.json [--json]                 exit 1 on a regression
 *   results merge SHARD.json...                             one report, to stdout
 *
 * Exit codes: 0 done (diff: no regression), 1 diff found a regression or
 * a new error, 2 usage or a report that cannot be read (named, with where).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "conformance.h"

enum { OPT_REASON = WK_CLI_LONG_ONLY, OPT_LINK, OPT_JSON };

static const struct wk_cli_option baseline_options[] = {
    { "link", OPT_LINK, WK_CLI_VALUE, "URL",
      "where the known failures are tracked: a URL or an issue reference\n"
      "(project#42); required, since every expectation names one" },
    { "reason", OPT_REASON, WK_CLI_VALUE, "TEXT",
      "the reason of every new entry (default: the verdict, the run's date\n"
      "and the rule it broke)" },
    { 0 },
};
static const struct wk_cli_command baseline_command = {
    "results baseline", "RUN.json --link URL [--reason TEXT]   (RUN.json: -, stdin)", baseline_options,
    "Prints an expectations file (conform --expectations) that lists every known failure of the\n"
    "run by case id: fail, crash and timeout as themselves, flakes as flake; the entries the run\n"
    "matched (expected-fail, listed skips and flakes) kept with their reason and link; passes,\n"
    "skips the run itself decided and errors (the kit's, never the driver's) get none. The output\n"
    "is loaded back with the expectations loader before it is printed.",
    "exit: 0 printed, 2 usage or a report that cannot be read",
};

static const struct wk_cli_option diff_options[] = {
    { "json", OPT_JSON, WK_CLI_FLAG, NULL, "print the difference as one JSON document" },
    { 0 },
};
static const struct wk_cli_command diff_command = {
    "results diff", "OLD.json NEW.json [--json]", diff_options,
    "Compares two runs case by case: regressions (a case NEW fails, flakes, crashes or hangs\n"
    "worse than OLD did, and that counts against NEW's run), new errors, fixes, new failures\n"
    "NEW's expectations list, other changes, added and removed cases (docs/command-line.md,\n"
    "\"results\").",
    "exit: 0 no regression, 1 a regression or a new error, 2 usage or a report that cannot be read",
};

static const struct wk_cli_command merge_command = {
    "results merge", "SHARD.json...", NULL,
    "Prints one report of the reports of one run's shards (conform --shard I/N): cases in id\n"
    "order, counts made again. Refused when the reports are of different runs (kit, driver,\n"
    "profile, seed, number of shards) or a case is in two of them with different results.",
    "exit: 0 printed, 1 printed but shards of the run are missing (the report has the others'\n"
    "cases only), 2 usage, a report that cannot be read, or reports that do not merge",
};

struct results_args {
    const char *files[WK_RESULTS_MAX_FILES];
    size_t count;
    const char *reason, *link;
    int json;
};

static int results_arg(void *ctx, const struct wk_cli_arg *a)
{
    struct results_args *R = ctx;
    switch (a->key) {
    case OPT_REASON: R->reason = a->value; return 0;
    case OPT_LINK: R->link = a->value; return 0;
    case OPT_JSON: R->json = 1; return 0;
    default:
        if (R->count == WK_RESULTS_MAX_FILES)
            return wk_cli_error(a->cmd, "more than %u reports", WK_RESULTS_MAX_FILES);
        R->files[R->count++] = a->value;
        return 0;
    }
}

/* Parses and checks the operand count; WK_CLI_CONTINUE or the exit code. */
static int parse(const struct wk_cli_command *cmd, int argc, char **argv, struct results_args *R, size_t min,
                 size_t max)
{
    memset(R, 0, sizeof(*R));
    int rc = wk_cli_parse(cmd, argc, argv, results_arg, R);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (R->count < min)
        return wk_cli_usage_error(cmd, "expected %s%zu report%s, saw %zu", min == max ? "" : "at least ", min,
                                  min == 1 ? "" : "s", R->count);
    if (R->count > max)
        return wk_cli_usage_error(cmd, "expected %zu report%s, saw %zu", max, max == 1 ? "" : "s", R->count);
    return wk_cli_parse_only ? 0 : WK_CLI_CONTINUE;
}

/* Every report, or 0 after the reader said why. */
static int load_all(const struct results_args *R, struct wk_results **r)
{
    int ok = 1;
    for (size_t i = 0; i < R->count; i++)
        ok &= wk_results_load(R->files[i], &r[i], stderr) == WK_OK;
    return ok;
}

static void free_all(struct wk_results **r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        wk_results_free(r[i]);
}

static int baseline(int argc, char **argv)
{
    struct results_args R;
    int rc = parse(&baseline_command, argc, argv, &R, 1, 1);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!R.link)
        return wk_cli_usage_error(&baseline_command, "--link is required: the place the known failures are "
                                                     "tracked (a URL, or an issue reference such as proj#42)");
    struct wk_results *r = NULL;
    char *yaml = NULL;
    int code = 2;
    if (load_all(&R, &r) && wk_results_baseline(r, R.reason, R.link, &yaml, stderr) == WK_OK) {
        fputs(yaml, stdout);
        code = fflush(stdout) == 0 ? 0 : 2;
    }
    free(yaml);
    wk_results_free(r);
    return code;
}

static int diff(int argc, char **argv)
{
    struct results_args R;
    int rc = parse(&diff_command, argc, argv, &R, 2, 2);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    struct wk_results *r[2] = { NULL, NULL };
    struct wk_results_diff d;
    int code = 2;
    if (load_all(&R, r) && wk_results_diff(r[0], r[1], &d) == WK_OK) {
        wk_results_diff_print(r[0], r[1], &d, R.json, stdout, stderr);
        code = wk_results_diff_exit_code(&d);
        wk_results_diff_free(&d);
    }
    free_all(r, 2);
    return code;
}

static int merge(int argc, char **argv)
{
    struct results_args R;
    int rc = parse(&merge_command, argc, argv, &R, 1, WK_RESULTS_MAX_FILES);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    struct wk_results **r = calloc(R.count, sizeof(*r));
    char *json = NULL;
    int code = 2;
    if (r && load_all(&R, r) && wk_results_merge(r, R.count, &json, stderr) == WK_OK) {
        printf("%s\n", json);
        /* a CI job that lost a leg must not pass on the others' cases */
        code = fflush(stdout) != 0 ? 2 : wk_results_missing_shards(r, R.count) ? 1 : 0;
    }
    free(json);
    if (r)
        free_all(r, R.count);
    free(r);
    return code;
}

int wk_cli_results(int argc, char **argv)
{
    static const struct wk_cli_subcommand subs[] = {
        { "baseline", &baseline_command, baseline },
        { "diff", &diff_command, diff },
        { "merge", &merge_command, merge },
    };
    return wk_cli_dispatch("results",
                           "Works on the JSON reports of 'conform --json' between runs; the report's format:\n"
                           "docs/json-report.md; the baseline -> diff workflow: docs/run-in-ci.md.",
                           subs, sizeof(subs) / sizeof(subs[0]), argc, argv);
}
