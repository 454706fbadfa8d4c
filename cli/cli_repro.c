/* SPDX-License-Identifier: MIT */
/*
 * cli_repro.c - `wddmkit repro FILE [--driver PATH] [--runs N] [--seed N]
 * [--harness NAME] [--timeout S] [--no-calibrate]`: a crash file replayed
 * in forked children (fuzz/crash/repro.c). Exit 0 pass, 1 fail, 3 crash,
 * 4 timeout, 2 usage or I/O error.
 */
#include "cli.h"
#include "cli_crash_args.h"

int wk_cli_repro(int argc, char **argv)
{
    struct wk_crash_options o;
    unsigned allowed = OPT_DRIVER | OPT_RUNS | OPT_SEED | OPT_HARNESS | OPT_TIMEOUT | OPT_CALIBRATE;
    int rc = wk_cli_crash_parse(argc, argv, allowed, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    return wk_crash_repro(&o);
}
