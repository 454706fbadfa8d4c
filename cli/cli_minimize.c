/* SPDX-License-Identifier: MIT */
/*
 * cli_minimize.c - `wddmkit minimize FILE [-o OUT] [--driver PATH]
 * [--harness NAME] [--seed N] [--timeout S] [--no-calibrate]`: the
 * smallest input that keeps the signature, written to OUT (default
 * FILE.min; fuzz/crash/minimize.c). Exit 0 written, 1 the input passes,
 * 2 usage or I/O error.
 */
#include <stdio.h>

#include "cli.h"
#include "cli_crash_args.h"

static const struct wk_cli_option minimize_options[] = {
    { NULL, 'o', WK_CLI_VALUE, "OUT", "the file written (default FILE.min)" },
    WK_CRASH_OPT_DRIVER, WK_CRASH_OPT_BINDING, WK_CRASH_OPT_LOAD_TIMEOUT, WK_CRASH_OPT_HARNESS, WK_CRASH_OPT_SEED, WK_CRASH_OPT_TIMEOUT, WK_CRASH_OPT_NO_CALIBRATE,
    { 0 },
};

static const struct wk_cli_command minimize_command = {
    "minimize", "FILE [-o OUT] [--driver PATH] [--harness NAME] [--seed N] [--timeout S] [--no-calibrate]",
    minimize_options, "\nReduces an input to the smallest one that keeps its signature.",
    WK_CRASH_INPUTS_HELP
    "fuzz_patch and fuzz_render inputs minimize as the step program of their Patch or Render\n"
    "call. Other inputs minimize as bytes (YAML lines first), each candidate replayed, keeping\n"
    "the signature.\n" WK_CRASH_ENV_HELP "\n"
    "exit: 0 written, 1 the input passes (no finding to keep), 2 usage or I/O error",
};

int wk_cli_minimize(int argc, char **argv)
{
    struct wk_crash_options o;
    int rc = wk_cli_crash_parse(&minimize_command, "FILE", argc, argv, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    char out[4096];
    if (snprintf(out, sizeof(out), "%s%s", o.out ? o.out : o.path, o.out ? "" : ".min") >= (int)sizeof(out))
        return wk_cli_usage_error(&minimize_command, "output path too long");
    if (wk_cli_parse_only)
        return 0;
    o.out = out;
    return wk_crash_minimize(&o);
}
