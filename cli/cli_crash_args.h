/* SPDX-License-Identifier: MIT */
/*
 * cli_crash_args.h - the options the crash commands share (prog dump,
 * repro, minimize, promote, triage: cli_crash_args.c), parsed into the
 * options of fuzz/crash/ (wk_crash_options). Private to cli/.
 */
#ifndef WK_CLI_CRASH_ARGS_H
#define WK_CLI_CRASH_ARGS_H

#include "fuzz.h"

/* The options a command takes (a bit each). */
enum {
    OPT_DRIVER = 1, OPT_RUNS = 2, OPT_SEED = 4, OPT_OUT = 8, OPT_HARNESS = 16, OPT_NAME = 32,
    OPT_TIMEOUT = 64, OPT_CALIBRATE = 128,
};

/* Prints "wddmkit: <message>" and the usage of the five commands on
 * stderr; returns 2. */
int wk_cli_crash_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* FILE and the options of `allowed` into o (defaults: 1 run, 60 s a run).
 * 0: parsed, the command runs; 1: --help printed, or wk_cli_parse_only
 * (the command returns 0 without acting); 2: a usage error printed. */
int wk_cli_crash_parse(int argc, char **argv, unsigned allowed, struct wk_crash_options *o);

#endif
