/* SPDX-License-Identifier: MIT */
/*
 * cli_coverage.c - `wddmkit coverage --harness NAME [--driver PATH]
 * [options] [INPUT...]`: the arguments; the work (replaying the inputs
 * through a coverage build, llvm-cov's reports and their summary) is
 * fuzz/tools/coverage_run.c's. Exit 0 report written, 1 below
 * --fail-under, 2 usage or setup errors.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_crash_args.h" /* wk_cli_harness_arg */
#include "cli_options.h"
#include "fuzz.h"


enum {
    OPT_HARNESS = WK_CLI_LONG_ONLY, OPT_DRIVER, OPT_OUT, OPT_REPLAY_DIR, OPT_ALL_FILES, OPT_FAIL_UNDER, OPT_BATCH,
    OPT_TIMEOUT, OPT_LOAD_TIMEOUT, OPT_BINDING,
};

static const struct wk_cli_option coverage_options[] = {
    { "harness", OPT_HARNESS, WK_CLI_VALUE, "NAME", "the harness whose inputs these are (fuzz_render, fuzz_patch, ...)" },
    { "driver", OPT_DRIVER, WK_CLI_VALUE, "PATH",
      "the driver module, built with clang -fprofile-instr-generate\n"
      "-fcoverage-mapping (default: WK_DRIVER, else the reference driver, inside\n"
      "a replay binary of the coverage preset, reported with the whole kit)" },
    { "binding", OPT_BINDING, WK_CLI_VALUE, "PATH",
      "the driver's hardware binding (include/wddmkit/binding.h), handed to the\n"
      "replay binaries as WK_BINDING (none: no binding; default: WK_BINDING, else\n"
      "the driver module's own wk_binding)" },
    { "out", OPT_OUT, WK_CLI_VALUE, "DIR",
      "output folder (default fuzz-out/NAME-coverage): report.txt,\n"
      "coverage.lcov, html/index.html, never-run.txt, profiles/, replay.log" },
    { "replay-dir", OPT_REPLAY_DIR, WK_CLI_VALUE, "DIR",
      "the folder of the NAME_replay binaries (default: WK_REPLAY_DIR, else\n"
      "../fuzz beside this wddmkit; without --driver, build/coverage/fuzz)" },
    { "all-files", OPT_ALL_FILES, WK_CLI_FLAG, NULL,
      "also report the kit's code compiled into the driver\n(include/wddmkit/, gpu-model/)" },
    { "fail-under", OPT_FAIL_UNDER, WK_CLI_VALUE, "PCT", "exit 1 when the line coverage is below PCT (0 to 100)" },
    { "batch", OPT_BATCH, WK_CLI_VALUE, "N",
      "inputs per replay process (default 256): a driver that ends the\n"
      "process loses the coverage of its batch only" },
    { "timeout", OPT_TIMEOUT, WK_CLI_VALUE, "S", "seconds a batch of inputs may run (default 600)" },
    WK_CLI_OPT_LOAD_TIMEOUT(OPT_LOAD_TIMEOUT),
    { 0 },
};

static const struct wk_cli_command coverage_command = {
    "coverage", "--harness NAME [--driver PATH] [options] [INPUT...]", coverage_options,
    "\n"
    "Runs a harness's inputs through its replay binary and reports which lines and functions\n"
    "of the driver they reach (clang source-based coverage). INPUT...: files or folders of\n"
    "inputs, at most 32 (default: corpus/NAME/seeds and regressions, and what `wddmkit fuzz`\n"
    "kept here: fuzz-out/NAME-libfuzzer/corpus, fuzz-out/NAME-afl/corpus and\n"
    "fuzz-out/NAME-afl/afl/*/queue).",
    "Environment: WK_LLVM_PROFDATA, WK_LLVM_COV  the LLVM tools (default: llvm-profdata and\n"
    "             llvm-cov on PATH, else the newest llvm-profdata-N/llvm-cov-N)\n"
    "exit: 0 report written, 1 below --fail-under, 2 usage or setup error",
};

/* ------------------------------------------------------------------ */
/* Arguments                                                            */
/* ------------------------------------------------------------------ */

static int whole(const struct wk_cli_arg *a, uint64_t min, uint64_t max, unsigned *out)
{
    uint64_t n = 0;
    if (wk_cli_number(a, min, max, &n))
        return 2;
    *out = (unsigned)n;
    return 0;
}

static int coverage_arg(void *ctx, const struct wk_cli_arg *a)
{
    struct wk_coverage_options *o = ctx;
    switch (a->key) {
    case OPT_HARNESS: return wk_cli_harness_arg(a, &o->harness);
    case OPT_DRIVER: o->driver = a->value; return 0;
    case OPT_BINDING: setenv("WK_BINDING", a->value, 1); return 0; /* the replays read it */
    case OPT_OUT: o->out = a->value; return 0;
    case OPT_REPLAY_DIR: o->replay_dir = a->value; return 0;
    case OPT_ALL_FILES: o->all_files = 1; return 0;
    case OPT_FAIL_UNDER: return wk_cli_decimal(a, 0, 100, &o->fail_under);
    case OPT_BATCH: return whole(a, 1, 100000, &o->batch);
    case OPT_TIMEOUT: return whole(a, 1, 86400, &o->timeout_s);
    case OPT_LOAD_TIMEOUT: return wk_cli_load_timeout_arg(a);
    default: /* WK_CLI_OPERAND */
        if (o->ninputs == WK_COVERAGE_MAX_INPUTS)
            return wk_cli_error(a->cmd, "too many inputs (at most %d files or folders): '%s'", WK_COVERAGE_MAX_INPUTS,
                                a->value);
        o->inputs[o->ninputs++] = a->value;
        return 0;
    }
}

/* WK_CLI_CONTINUE parsed, else the exit code (the help, or a usage error
 * printed). */
static int parse_args(int argc, char **argv, struct wk_coverage_options *o)
{
    memset(o, 0, sizeof(*o));
    o->fail_under = -1;
    o->timeout_s = 600;
    o->batch = WK_COVERAGE_BATCH;
    int rc = wk_cli_parse(&coverage_command, argc, argv, coverage_arg, o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!o->harness)
        return wk_cli_usage_error(&coverage_command, "--harness NAME is required");
    if (!o->driver) {
        const char *env = getenv("WK_DRIVER");
        o->driver = env && *env ? env : NULL;
    }
    return WK_CLI_CONTINUE;
}

/* The library asks before any input runs (driver_probe.c). */
static int driver_loads(const char *driver, char *why, size_t cap)
{
    return wk_cli_driver_probe(driver, why, cap) == WK_CLI_DRIVER_LOADS;
}

int wk_cli_coverage(int argc, char **argv)
{
    struct wk_coverage_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (wk_cli_parse_only)
        return 0;
    o.source_dir = wk_cli_data_dir(NULL);
    o.builds_dir = wk_cli_builds_dir();
    o.driver_loads = driver_loads;
    /* The replay batches run the driver; one that forks and calls setsid()
     * leaves their process group. This command is the child subreaper of
     * such orphans and kills them after each batch (coverage_run.c), and
     * whatever is left when it ends, or when SIGINT or SIGTERM ends it
     * (issue 22: "Every process a driver starts is found and killed"). */
    wk_reap_become_subreaper();
    wk_reap_on_signals();
    rc = wk_fuzz_coverage_run(&o);
    wk_reap_descendants();
    return rc;
}
