/* SPDX-License-Identifier: MIT */
/*
 * cli_crash_args.c - the arguments of the crash commands (`wddmkit prog
 * dump | repro | minimize | promote | triage`): one FILE (or DIR) and the
 * options each command allows, one usage text for the five (they share
 * their options and the way an input is read). The work is fuzz/crash/'s.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_crash_args.h"

static const char *const usage_lines =
    "usage: wddmkit prog dump FILE [--harness NAME]\n"
    "       wddmkit repro FILE [--driver PATH] [--runs N] [--seed N] [--harness NAME] [--timeout S] [--no-calibrate]\n"
    "       wddmkit minimize FILE [-o OUT] [--driver PATH] [--harness NAME] [--seed N] [--timeout S] [--no-calibrate]\n"
    "       wddmkit promote FILE --driver PATH [--harness NAME] [--name NAME] [--seed N] [--timeout S]\n"
    "       wddmkit triage DIR [--driver PATH] [--harness NAME] [--seed N] [--timeout S]\n"
    "A fuzz_prog input is calibrated on the reference driver first (see --no-calibrate); so is a\n"
    "fuzz_paging input, run as the program that harness makes of it. Inputs of other harnesses\n"
    "(--harness, or a corpus/<harness>/ or <harness>-<engine>/ path) run through <harness>_replay.\n"
    "fuzz_patch and fuzz_render inputs also minimize and promote, as the step program of their\n"
    "Patch or Render call (a YAML case with a `patch` or `render` step). Other inputs minimize\n"
    "as bytes (YAML lines first), each candidate replayed, keeping the signature.\n"
    "Exit codes: 0 pass, 1 fail (a rule violated, a check failed; promote: refused), 3 crash,\n"
    "4 timeout (--timeout, default 60 s a run), 2 usage or I/O error.\n"
    "Environment: WK_PROMOTE_ROOT  the root promote writes under (default: the source tree)\n"
    "             WK_REPLAY_DIR    the folder of the <harness>_replay binaries (default:\n"
    "                              ../fuzz beside the wddmkit binary)\n";

int wk_cli_crash_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("wddmkit: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n", stderr);
    fputs(usage_lines, stderr);
    return 2;
}

static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end = NULL;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_value(const char *flag, const char *v, unsigned bit, struct wk_crash_options *o)
{
    uint64_t n = 0;
    switch (bit) {
    case OPT_DRIVER: o->driver = v; return 0;
    case OPT_OUT: o->out = v; return 0;
    case OPT_NAME: o->name = v; return 0;
    case OPT_HARNESS:
        o->harness = v;
        if (!wk_fuzz_harness_name_ok(v))
            return wk_cli_crash_usage_error("%s: not a harness name: '%s'", flag, v);
        return wk_fuzz_harness_known(v) ? 0 : wk_cli_crash_usage_error("unknown harness '%s' (one of: %s)", v, wk_fuzz_harness_names());
    case OPT_RUNS:
        if (parse_u64(v, 1, 100000, &n))
            return wk_cli_crash_usage_error("--runs: expected 1..100000, saw '%s'", v);
        o->runs = (uint32_t)n;
        return 0;
    case OPT_SEED:
        if (parse_u64(v, 0, UINT64_MAX, &n))
            return wk_cli_crash_usage_error("--seed: expected an unsigned integer, saw '%s'", v);
        o->seed = n;
        return 0;
    default:
        if (parse_u64(v, 1, 3600, &n))
            return wk_cli_crash_usage_error("--timeout: expected 1..3600 seconds, saw '%s'", v);
        o->timeout_ms = (uint32_t)n * 1000;
        return 0;
    }
}

int wk_cli_crash_parse(int argc, char **argv, unsigned allowed, struct wk_crash_options *o)
{
    static const struct { const char *name; unsigned bit; } flags[] = {
        { "--driver", OPT_DRIVER }, { "--runs", OPT_RUNS }, { "--seed", OPT_SEED }, { "-o", OPT_OUT },
        { "--harness", OPT_HARNESS }, { "--name", OPT_NAME }, { "--timeout", OPT_TIMEOUT },
    };
    memset(o, 0, sizeof(*o));
    o->runs = 1;
    o->timeout_ms = 60000;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_lines, stdout);
            return 1;
        }
        if (strcmp(a, "--no-calibrate") == 0 && (allowed & OPT_CALIBRATE)) {
            o->no_calibrate = 1;
            continue;
        }
        size_t f = 0;
        while (f < sizeof(flags) / sizeof(flags[0]) && !(strcmp(a, flags[f].name) == 0 && (allowed & flags[f].bit)))
            f++;
        if (f < sizeof(flags) / sizeof(flags[0])) {
            if (i + 1 >= argc)
                return wk_cli_crash_usage_error("%s needs a value", a);
            if (parse_value(a, argv[++i], flags[f].bit, o))
                return 2;
        } else if (a[0] == '-' && a[1]) {
            return wk_cli_crash_usage_error("unknown option '%s'", a);
        } else if (o->path) {
            return wk_cli_crash_usage_error("one FILE at a time ('%s' and '%s')", o->path, a);
        } else {
            o->path = a;
        }
    }
    if (!o->path)
        return wk_cli_crash_usage_error("missing FILE");
    return wk_cli_parse_only ? 1 : 0; /* 1: the command returns 0 without acting */
}
