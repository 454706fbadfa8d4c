/* SPDX-License-Identifier: MIT */
/*
 * cli_coverage.c - `wddmkit coverage --harness NAME [--driver PATH]
 * [options] [INPUT...]`: the arguments; the work (replaying the inputs
 * through a coverage build, llvm-cov's reports and their summary) is
 * fuzz/tools/coverage_run.c's. Exit 0 report written, 1 below
 * --fail-under, 2 usage or setup errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

#ifndef WK_SOURCE_DIR /* the repository, compiled in (cli/CMakeLists.txt) */
#define WK_SOURCE_DIR "."
#endif

static void usage(FILE *f)
{
    fputs("usage: wddmkit coverage --harness NAME [--driver PATH] [options] [INPUT...]\n"
          "\n"
          "Runs a harness's inputs through its replay binary and reports which lines and functions\n"
          "of the driver they reach (clang source-based coverage).\n"
          "\n"
          "  --harness NAME    the harness whose inputs these are (fuzz_render, fuzz_patch, ...)\n"
          "  --driver PATH     the driver module, built with clang -fprofile-instr-generate\n"
          "                    -fcoverage-mapping (default: the reference driver, inside a replay\n"
          "                    binary of the coverage preset, reported with the whole kit)\n"
          "  INPUT...          files or folders of inputs (default: corpus/NAME/seeds and regressions,\n"
          "                    and what `wddmkit fuzz` kept here: fuzz-out/NAME-libfuzzer/corpus,\n"
          "                    fuzz-out/NAME-afl/corpus and fuzz-out/NAME-afl/afl/*/queue)\n"
          "  --out DIR         output folder (default fuzz-out/NAME-coverage): report.txt,\n"
          "                    coverage.lcov, html/index.html, never-run.txt, profiles/, replay.log\n"
          "  --replay-dir DIR  the folder of the NAME_replay binaries (default: WK_REPLAY_DIR, else\n"
          "                    ../fuzz beside this wddmkit; without --driver, build/coverage/fuzz)\n"
          "  --all-files       also report the kit's code compiled into the driver\n"
          "                    (include/wddmkit/, gpu-model/)\n"
          "  --fail-under PCT  exit 1 when the line coverage is below PCT (0 to 100)\n"
          "  --batch N         inputs per replay process (default 256): a driver that ends the\n"
          "                    process loses the coverage of its batch only\n"
          "  --timeout S       seconds a batch of inputs may run (default 600)\n"
          "Environment: WK_LLVM_PROFDATA, WK_LLVM_COV  the LLVM tools (default: llvm-profdata and\n"
          "             llvm-cov on PATH, else the newest llvm-profdata-N/llvm-cov-N)\n"
          "exit: 0 report written, 1 below --fail-under, 2 usage or setup error\n",
          f);
}

static int usage_error(const char *what, const char *value)
{
    fprintf(stderr, "wddmkit coverage: %s%s%s%s\n", what, value ? " '" : "", value ? value : "", value ? "'" : "");
    return 2;
}

/* ------------------------------------------------------------------ */
/* Arguments                                                            */
/* ------------------------------------------------------------------ */

static int parse_number(const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || errno || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

/* 0: parsed; 1: --help printed; 2: a usage error printed. */
static int parse_args(int argc, char **argv, struct wk_coverage_options *o)
{
    memset(o, 0, sizeof(*o));
    o->fail_under = -1;
    o->timeout_s = 600;
    o->batch = WK_COVERAGE_BATCH;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 1;
        }
        if (strcmp(a, "--all-files") == 0) {
            o->all_files = 1;
            continue;
        }
        int takes = strcmp(a, "--harness") == 0 || strcmp(a, "--driver") == 0 || strcmp(a, "--out") == 0 ||
                    strcmp(a, "--replay-dir") == 0 || strcmp(a, "--fail-under") == 0 || strcmp(a, "--timeout") == 0 ||
                    strcmp(a, "--batch") == 0;
        if (takes && i + 1 >= argc)
            return usage_error("needs a value:", a);
        const char *v = takes ? argv[++i] : NULL;
        double n = 0;
        if (strcmp(a, "--harness") == 0) {
            if (!wk_fuzz_harness_name_ok(v))
                return usage_error("--harness: not a harness name (letters, digits, '_'):", v);
            if (!wk_fuzz_harness_known(v)) {
                fprintf(stderr, "wddmkit coverage: unknown harness '%s' (one of: %s)\n", v, wk_fuzz_harness_names());
                return 2;
            }
            o->harness = v;
        } else if (strcmp(a, "--driver") == 0) {
            o->driver = v;
        } else if (strcmp(a, "--out") == 0) {
            o->out = v;
        } else if (strcmp(a, "--replay-dir") == 0) {
            o->replay_dir = v;
        } else if (strcmp(a, "--fail-under") == 0) {
            if (parse_number(v, 0, 100, &n))
                return usage_error("--fail-under: expected a percentage from 0 to 100, saw", v);
            o->fail_under = n;
        } else if (strcmp(a, "--timeout") == 0) {
            if (parse_number(v, 1, 86400, &n) || n != (double)(unsigned)n)
                return usage_error("--timeout: expected whole seconds from 1 to 86400, saw", v);
            o->timeout_s = (unsigned)n;
        } else if (strcmp(a, "--batch") == 0) {
            if (parse_number(v, 1, 100000, &n) || n != (double)(unsigned)n)
                return usage_error("--batch: expected a whole number of inputs from 1 to 100000, saw", v);
            o->batch = (unsigned)n;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option", a);
        } else if (o->ninputs == WK_COVERAGE_MAX_INPUTS) {
            return usage_error("too many inputs (at most 32 files or folders):", a);
        } else {
            o->inputs[o->ninputs++] = a;
        }
    }
    if (!o->harness)
        return usage_error("--harness NAME is required", NULL);
    if (!o->driver) {
        const char *env = getenv("WK_DRIVER");
        o->driver = env && *env ? env : NULL;
    }
    return wk_cli_parse_only ? 1 : 0;
}

/* The library asks before any input runs (cli_driver_build.c's probe). */
static int driver_loads(const char *driver, char *why, size_t cap)
{
    return wk_cli_driver_probe(driver, why, cap) == WK_CLI_DRIVER_LOADS;
}

int wk_cli_coverage(int argc, char **argv)
{
    struct wk_coverage_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc == 2)
        usage(stderr);
    if (rc)
        return rc == 1 ? 0 : 2;
    o.source_dir = WK_SOURCE_DIR;
    o.driver_loads = driver_loads;
    return wk_fuzz_coverage_run(&o);
}
