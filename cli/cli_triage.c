/* SPDX-License-Identifier: MIT */
/*
 * cli_triage.c - `wddmkit triage DIR [--driver PATH] [--harness NAME]
 * [--seed N] [--timeout S] [--no-calibrate] [--sarif FILE]`: every file of DIR run once and
 * grouped by signature (fuzz/crash/triage.c), optionally as a SARIF log (triage_sarif.c). Without --driver, a `wddmkit fuzz`
 * crash folder is triaged with its campaign's driver, in a build that
 * loads it (the hand-over is the command line's: it runs wddmkit again).
 * Exit 0 every file ran, 2 some could not be run, or a usage error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cli_crash_args.h"
#include "conformance.h"

#ifndef WK_VERSION
#define WK_VERSION "unknown"
#endif

static const struct wk_cli_option triage_options[] = {
    WK_CRASH_OPT_DRIVER, WK_CRASH_OPT_BINDING, WK_CRASH_OPT_LOAD_TIMEOUT, WK_CRASH_OPT_HARNESS, WK_CRASH_OPT_SEED, WK_CRASH_OPT_TIMEOUT, WK_CRASH_OPT_NO_CALIBRATE,
    WK_CRASH_OPT_SARIF,
    { 0 },
};

static const struct wk_cli_command triage_command = {
    "triage", "DIR [--driver PATH] [--harness NAME] [--seed N] [--timeout S] [--no-calibrate] [--sarif FILE]",
    triage_options,
    "\nRuns every file of DIR once and groups them by signature. Without --driver, a\n"
    "`wddmkit fuzz` crash folder is triaged with its campaign's driver.",
    WK_CRASH_INPUTS_HELP WK_CRASH_ENV_HELP "\n"
    "exit: 0 every file ran, 2 some could not be run, or a usage or I/O error",
};

/* Adds --driver to triage's own arguments (first: after a `--` it would
 * be an operand) and hands the command line to a build that loads that
 * driver, as wddmkit_main does for a --driver typed by hand
 * (hand_over.c). Returns -1 to go on here, else the exit code (2:
 * no build loads it). */
static int triage_with(int argc, char **argv, const char *driver)
{
    char **full = calloc((size_t)argc + 5, sizeof(char *));
    if (!full)
        return -1;
    int n = 0;
    full[n++] = (char *)"wddmkit";
    full[n++] = (char *)"triage";
    full[n++] = (char *)"--driver";
    full[n++] = (char *)driver;
    for (int i = 0; i < argc; i++)
        full[n++] = argv[i];
    full[n] = NULL;
    int rc = wk_cli_hand_over(n, full); /* does not return when another build runs it */
    free(full);
    return rc;
}

/* triage DIR without --driver on a `wddmkit fuzz` crash folder: the
 * campaign's driver (campaign.txt), else every crash of a driver-only bug
 * replayed as a pass on the reference driver and the note below blamed
 * flakiness or sanitizer builds (wk_crash_harness_of takes its harness from there
 * too). Returns -1 to go on, else the exit code. */
static int campaign_driver(int argc, char **argv, struct wk_crash_options *o)
{
    static struct wk_crash_campaign c;
    if (o->driver || !wk_crash_campaign_of(o->path, &c) || !c.driver[0])
        return -1;
    if (!wk_path_is_regular(c.driver)) {
        printf("note: these crashes were found with --driver %s (%s), which is not there now: rerun with --driver "
               "and that driver; triaged here on the reference driver\n", c.driver, c.file);
        return -1;
    }
    printf("triage: no --driver given: these crashes were found with --driver %s (%s): triaging with it\n", c.driver,
           c.file);
    fflush(stdout);
    o->driver = c.driver;
    return triage_with(argc, argv, c.driver);
}

/* --sarif FILE checked before any file runs, as conform's reports are
 * (report_target.c): a path that cannot be written is a usage error. */
static int check_sarif(const struct wk_crash_options *o, int *to_stdout)
{
    struct wk_report_target t;
    char why[1024];
    *to_stdout = 0;
    if (!o->sarif)
        return 0;
    if (wk_report_check(o->sarif, &t, why, sizeof(why)) != WK_OK)
        return wk_cli_usage_error(&triage_command, "--sarif %s: %s", o->sarif, why);
    *to_stdout = t.kind == WK_REPORT_STDOUT;
    return 0;
}

int wk_cli_triage(int argc, char **argv)
{
    struct wk_crash_options o;
    int to_stdout = 0;
    int rc = wk_cli_crash_parse(&triage_command, "DIR", argc, argv, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (wk_cli_parse_only)
        return 0;
    if ((rc = check_sarif(&o, &to_stdout)) != 0)
        return rc;
    if ((rc = campaign_driver(argc, argv, &o)) >= 0)
        return rc;
    /* the log has stdout to itself: the table and the drivers' output go to stderr */
    if (to_stdout && wk_report_take_stdout() != 0) {
        perror("wddmkit triage: --sarif -: cannot take stdout");
        return 2;
    }
    if (to_stdout)
        o.sarif = "-";
    o.kit_version = WK_VERSION;
    o.kit_commit = wk_cli_kit_commit;
    return wk_crash_triage(&o);
}
