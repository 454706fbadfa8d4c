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

int wk_cli_minimize(int argc, char **argv)
{
    struct wk_crash_options o;
    int rc = wk_cli_crash_parse(argc, argv, OPT_DRIVER | OPT_OUT | OPT_SEED | OPT_TIMEOUT | OPT_CALIBRATE | OPT_HARNESS,
                                &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    char out[4096];
    if (snprintf(out, sizeof(out), "%s%s", o.out ? o.out : o.path, o.out ? "" : ".min") >= (int)sizeof(out))
        return wk_cli_crash_usage_error("output path too long");
    o.out = out;
    return wk_crash_minimize(&o);
}
