/* SPDX-License-Identifier: MIT */
/*
 * cli_repro.c - `wddmkit repro FILE [--driver PATH] [--runs N] [--seed N]
 * [--harness NAME] [--timeout S] [--no-calibrate]`: a crash file replayed
 * in forked children (fuzz/crash/repro.c). Exit 0 pass, 1 fail, 3 crash,
 * 4 timeout, 2 usage or I/O error, or a --driver that hangs as it loads.
 */
#include <stdio.h>

#include "cli.h"
#include "cli_crash_args.h"

static const struct wk_cli_option repro_options[] = {
    WK_CRASH_OPT_DRIVER, WK_CRASH_OPT_BINDING, WK_CRASH_OPT_LOAD_TIMEOUT, WK_CRASH_OPT_RUNS, WK_CRASH_OPT_SEED, WK_CRASH_OPT_HARNESS, WK_CRASH_OPT_TIMEOUT,
    WK_CRASH_OPT_NO_CALIBRATE, { 0 },
};

static const struct wk_cli_command repro_command = {
    "repro", "FILE [--driver PATH] [--load-timeout S] [--runs N] [--seed N] [--harness NAME] [--timeout S] [--no-calibrate]",
    repro_options, "\nReplays a crash file in forked children: its signature, the program as run, the exit.",
    WK_CRASH_INPUTS_HELP WK_CRASH_ENV_HELP "\n"
    "exit: 0 pass, 1 fail (a rule violated, a check failed), 3 crash, 4 timeout (--timeout),\n"
    "      2 usage or I/O error, or a --driver that hangs while loading (DRV-HANG-001)",
};

/* A --driver that hangs while loading (or in DriverEntry) cannot be
 * loaded: said at once (the hand-over's probe found it, and the probe
 * remembers), not as a timeout after --timeout seconds of each run. A
 * module that crashes while loading is left to the runs: that crash is
 * what repro reproduces. */
static int driver_hangs(const char *driver)
{
    char why[1024];
    if (!driver || wk_cli_driver_probe(driver, why, sizeof(why)) != WK_CLI_DRIVER_HUNG)
        return 0;
    fprintf(stderr, "wddmkit repro: --driver %s: %s\n", driver, why);
    return 1;
}

int wk_cli_repro(int argc, char **argv)
{
    struct wk_crash_options o;
    int rc = wk_cli_crash_parse(&repro_command, "FILE", argc, argv, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (wk_cli_parse_only)
        return 0;
    if (driver_hangs(o.driver))
        return 2;
    return wk_crash_repro(&o);
}
