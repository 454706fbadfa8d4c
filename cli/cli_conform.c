/* SPDX-License-Identifier: MIT */
/*
 * cli_conform.c - `wddmkit conform [options] [SPEC|DIR...]`: load specs,
 * select cases, run them isolated, print and write the reports.
 *
 * The glue between the spec loader (spec.h), the expectations file
 * (expectations.h) and the runner (runner.h); it owns argument parsing and
 * the exit code: 0 every result as expected, 1 unexpected results (or a run
 * cut short by --total-timeout), 2 usage, spec or expectation errors (spec
 * errors as file:line:col) or a report that could not be written, 130 an
 * interrupted run (its reports still hold what finished).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "conformance.h"

#ifndef WK_SPECS_DIR
#define WK_SPECS_DIR "specs"
#endif
#ifndef WK_VERSION
#define WK_VERSION "unknown"
#endif

#define MAX_GLOBS 64

struct conform_args {
    struct wk_runner_options run;
    const char *filters[MAX_GLOBS];
    const char *excludes[MAX_GLOBS];
    const char **paths;
    size_t path_count;
    const char *expectations, *junit, *tap, *json;
    int list, coverage, quiet;
    const char *profile;      /* NULL: contract with --driver, else reference */
    int gpu_given;            /* --gpu model|none (not auto) */
};

enum {
    OPT_DRIVER = WK_CLI_LONG_ONLY, OPT_PROFILE, OPT_GPU, OPT_UMD, OPT_FILTER, OPT_EXCLUDE, OPT_LIST, OPT_SHARD, OPT_SEED,
    OPT_NO_FORK, OPT_TIMEOUT, OPT_TOTAL_TIMEOUT, OPT_EXPECTATIONS, OPT_JUNIT, OPT_TAP, OPT_JSON, OPT_COVERAGE,
};

static const struct wk_cli_option conform_options[] = {
    { "driver", OPT_DRIVER, WK_CLI_VALUE, "PATH", "the driver object to test (default: the built-in reference driver)" },
    { "profile", OPT_PROFILE, WK_CLI_VALUE, "P",
      "contract: check the DDI contract and the data only; stress: also\n"
      "inputs no kernel hands a driver (a bare Patch); reference: everything,\n"
      "with the reference driver's own choices (placement offsets, counts of\n"
      "calls and passes, context info). Default: contract with --driver,\n"
      "reference without" },
    { "jobs", 'j', WK_CLI_VALUE, "N", "cases in parallel (default: the number of CPUs)" },
    { "gpu", OPT_GPU, WK_CLI_VALUE, "G",
      "what executes the driver's buffers: model (the kit's GPU model), none (a driver for\n"
      "other hardware: the checks of what a buffer did are skipped, never failed), auto\n"
      "(default: model when the driver declares WK_DRIVER_TARGETS_GPU_MODEL)" },
    { "umd", OPT_UMD, WK_CLI_VALUE, "U",
      "with --gpu none, whether the driver's Render reads the kit's own user-mode command\n"
      "format: kit (the cases that hand it that format are judged), none (they are skipped),\n"
      "auto (default: kit when the driver declares WK_DRIVER_READS_KIT_UMD)" },
    { "filter", OPT_FILTER, WK_CLI_VALUE, "GLOB", "run only cases whose id matches (repeatable)" },
    { "exclude", OPT_EXCLUDE, WK_CLI_VALUE, "GLOB", "leave out cases whose id matches (repeatable)" },
    { "list", OPT_LIST, WK_CLI_FLAG, NULL, "print the selected case ids and exit" },
    { "shard", OPT_SHARD, WK_CLI_VALUE, "I/N", "run the I-th of N deterministic shards (1-based)" },
    { "seed", OPT_SEED, WK_CLI_VALUE, "N", "added to every case's seed" },
    { "no-fork", OPT_NO_FORK, WK_CLI_FLAG, NULL, "run cases in this process, one by one (for gdb; no timeout)" },
    { "timeout", OPT_TIMEOUT, WK_CLI_VALUE, "SECONDS", "per case (default 10; 0: none)" },
    { "total-timeout", OPT_TOTAL_TIMEOUT, WK_CLI_VALUE, "SEC", "for the whole run (default: none)" },
    { "expectations", OPT_EXPECTATIONS, WK_CLI_VALUE, "FILE", "known failures, flakes and skips (YAML)" },
    { "junit", OPT_JUNIT, WK_CLI_VALUE, "FILE", "write JUnit XML" },
    { "tap", OPT_TAP, WK_CLI_VALUE, "FILE", "write TAP version 13" },
    { "json", OPT_JSON, WK_CLI_VALUE, "FILE", "write JSON" },
    { "coverage", OPT_COVERAGE, WK_CLI_FLAG, NULL, "print which rules, paging operations and DDIs the run exercised" },
    { "quiet", 'q', WK_CLI_FLAG, NULL, "print only unexpected results and the totals" },
    { 0 },
};

static const struct wk_cli_command conform_command = {
    "conform", "[options] [SPEC|DIR...]   (default: " WK_SPECS_DIR ")", conform_options, NULL,
    "exit: 0 all as expected, 1 unexpected results, 2 usage/spec/expectation errors, 130 interrupted",
};

static int parse_shard(const struct wk_cli_arg *a, struct wk_runner_options *o)
{
    unsigned i = 0, n = 0;
    int used = 0;
    if (sscanf(a->value, "%u/%u%n", &i, &n, &used) != 2 || a->value[used] || n < 1 || n > 100000 || i < 1 || i > n)
        return wk_cli_error(a->cmd, "%s: expected I/N with 1 <= I <= N <= 100000, saw '%s'", a->opt, a->value);
    o->shard_index = i;
    o->shard_count = n;
    return 0;
}

static int add_glob(const char **list, size_t *n, const struct wk_cli_arg *a)
{
    if (*n == MAX_GLOBS)
        return wk_cli_error(a->cmd, "more than %d %s options", MAX_GLOBS, a->opt);
    list[(*n)++] = a->value;
    return 0;
}

/* --gpu model|none|auto (docs/verdicts.md, "Kinds of check"). */
static int parse_gpu(struct conform_args *A, const struct wk_cli_arg *a)
{
    static const char *const words[] = { "auto", "model", "none" };
    for (int i = 0; i < 3; i++)
        if (strcmp(a->value, words[i]) == 0) {
            A->run.gpu = (enum wk_gpu_target)i;
            A->gpu_given = i != WK_GPU_AUTO;
            return 0;
        }
    return wk_cli_error(a->cmd, "--gpu: expected model, none or auto, saw '%s'", a->value);
}

/* --umd kit|none|auto (docs/verdicts.md, "Kinds of check"). */
static int parse_umd(struct conform_args *A, const struct wk_cli_arg *a)
{
    static const char *const words[] = { "auto", "kit", "none" };
    for (int i = 0; i < 3; i++)
        if (strcmp(a->value, words[i]) == 0) {
            A->run.umd = (enum wk_umd_format)i;
            A->run.umd_given = i != WK_UMD_AUTO;
            return 0;
        }
    return wk_cli_error(a->cmd, "--umd: expected kit, none or auto, saw '%s'", a->value);
}

/* --profile reference|contract|stress (docs/conformance.md, "Profiles"). */
static int parse_profile(struct conform_args *A, const struct wk_cli_arg *a)
{
    if (strcmp(a->value, "reference") != 0 && strcmp(a->value, "contract") != 0 && strcmp(a->value, "stress") != 0)
        return wk_cli_error(a->cmd, "%s: expected reference, contract or stress, saw '%s'", a->opt, a->value);
    A->profile = a->value;
    return 0;
}

static int conform_arg(void *ctx, const struct wk_cli_arg *a)
{
    struct conform_args *A = ctx;
    struct wk_runner_options *o = &A->run;
    uint64_t u = 0;
    switch (a->key) {
    case OPT_DRIVER: o->driver = a->value; return 0;
    case OPT_PROFILE: return parse_profile(A, a);
    case OPT_GPU: return parse_gpu(A, a);
    case OPT_UMD: return parse_umd(A, a);
    case 'j':
        if (wk_cli_number(a, 1, 256, &u))
            return 2;
        o->jobs = (uint32_t)u;
        return 0;
    case OPT_FILTER: return add_glob(A->filters, &o->filter_count, a);
    case OPT_EXCLUDE: return add_glob(A->excludes, &o->exclude_count, a);
    case OPT_LIST: A->list = 1; return 0;
    case OPT_SHARD: return parse_shard(a, o);
    case OPT_SEED: o->has_seed = 1; return wk_cli_number(a, 0, UINT64_MAX, &o->seed);
    case OPT_NO_FORK: o->no_fork = 1; return 0;
    case OPT_TIMEOUT: return wk_cli_decimal(a, 0, 7 * 86400.0, &o->case_timeout);
    case OPT_TOTAL_TIMEOUT: return wk_cli_decimal(a, 0, 7 * 86400.0, &o->total_timeout);
    case OPT_EXPECTATIONS: A->expectations = a->value; return 0;
    case OPT_JUNIT: A->junit = a->value; return 0;
    case OPT_TAP: A->tap = a->value; return 0;
    case OPT_JSON: A->json = a->value; return 0;
    case OPT_COVERAGE: A->coverage = 1; return 0;
    case 'q': A->quiet = 1; return 0;
    default: A->paths[A->path_count++] = a->value; return 0; /* WK_CLI_OPERAND */
    }
}

/* WK_CLI_CONTINUE parsed, else the exit code (help or a usage error,
 * printed). */
static int parse(struct conform_args *A, int argc, char **argv)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    A->run.jobs = cpus < 1 ? 1 : cpus > 256 ? 256 : (uint32_t)cpus;
    A->run.case_timeout = 10;
    A->run.filters = A->filters;
    A->run.excludes = A->excludes;
    int rc = wk_cli_parse(&conform_command, argc, argv, conform_arg, A);
    /* Another driver makes its own choices where the DDI leaves them open:
     * by default only the contract and the data are held against it. */
    A->run.stress = A->profile && strcmp(A->profile, "stress") == 0;
    A->run.contract = A->profile ? strcmp(A->profile, "reference") != 0 : A->run.driver != NULL;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Loading                                                              */
/* ------------------------------------------------------------------ */

/*
 * Loads every spec into set, the errors into d. A spec error drops its
 * case (or its file: docs/spec-format.md, "Errors"), and is printed now;
 * the cases that loaded still run, and the summary and the reports list
 * the errors again, so one mistyped key does not cost a whole run's
 * results. 0 when no case loaded.
 */
static int load_specs(const struct conform_args *A, struct wk_spec_set *set, struct wk_diag *d)
{
    size_t n = A->path_count ? A->path_count : 1;
    for (size_t i = 0; i < n; i++) {
        const char *path = A->path_count ? A->paths[i] : WK_SPECS_DIR;
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            wk_spec_load_dir(set, path, d);
        else
            wk_spec_load_file(set, path, d);
    }
    if (d->errors) {
        wk_diag_print(d, stderr);
        fprintf(stderr, "wddmkit conform: %u spec error%s: %s\n", d->errors, d->errors == 1 ? "" : "s",
                set->count ? "the cases they concern are dropped, the others run" : "no case loaded");
    } else if (set->count == 0) {
        fprintf(stderr, "wddmkit conform: no cases in %s\n", A->path_count ? A->paths[0] : WK_SPECS_DIR);
    }
    return set->count != 0;
}

static int load_expectations(const struct conform_args *A, const struct wk_spec_set *set, int spec_errors,
                             struct wk_expectations **e)
{
    *e = NULL;
    if (!A->expectations)
        return 1;
    if (wk_expectations_load(A->expectations, e, stderr) != WK_OK)
        return 0;
    if (spec_errors) {
        /* an entry for a case a spec error dropped would read as unused */
        fputs("wddmkit conform: expectations not checked for unused entries (spec errors dropped cases)\n", stderr);
        return 1;
    }
    if (wk_expectations_check_unused(*e, (const struct wk_prog *const *)set->progs, set->count, stderr)) {
        wk_expectations_free(*e);
        *e = NULL;
        return 0;
    }
    return 1;
}

static int list_cases(const struct conform_args *A, const struct wk_spec_set *set)
{
    size_t *index = NULL, count = 0;
    const struct wk_prog *const *cases = (const struct wk_prog *const *)set->progs;
    if (wk_runner_select(cases, set->count, &A->run, &index, &count, stderr) != WK_OK)
        return 2;
    for (size_t i = 0; i < count; i++)
        printf("%s\n", cases[index[i]]->id);
    free(index);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Running                                                              */
/* ------------------------------------------------------------------ */

static int write_reports(const struct conform_args *A, const struct wk_run_report *rep)
{
    int ok = 1;
    if (A->junit)
        ok &= wk_report_junit(rep, A->junit, stderr) == WK_OK;
    if (A->tap)
        ok &= wk_report_tap(rep, A->tap, stderr) == WK_OK;
    if (A->json)
        ok &= wk_report_json(rep, A->json, stderr) == WK_OK;
    return ok;
}

static int run_cases(struct conform_args *A, const struct wk_spec_set *set, const struct wk_diag *d)
{
    struct wk_console console;
    struct wk_run_report rep;
    memset(&rep, 0, sizeof(rep));
    rep.kit_version = WK_VERSION;
    wk_console_init(&console, stdout, A->quiet);
    A->run.catch_signals = 1;
    A->run.on_start = wk_console_on_start;
    A->run.on_done = wk_console_on_done;
    A->run.ctx = &console;
    wk_status st = wk_runner_run((const struct wk_prog *const *)set->progs, set->count, &A->run, &rep, stderr);
    if (st != WK_OK) {
        wk_run_report_free(&rep);
        return 2;
    }
    if (rep.count == 0) {
        fprintf(stderr, "wddmkit conform: no case matches the filters\n");
        wk_run_report_free(&rep);
        return 2;
    }
    rep.spec_errors = d->messages;
    rep.spec_error_count = d->count;
    rep.spec_errors_total = d->errors;
    wk_console_summary(&console, &rep);
    if (A->coverage) {
        struct wk_coverage cov;
        wk_coverage_compute(&rep, &cov);
        wk_coverage_print(&cov, stdout);
    }
    int code = wk_run_exit_code(&rep);
    if (!write_reports(A, &rep))
        code = 2;
    wk_run_report_free(&rep);
    return code;
}

/* A --driver that does not load is a setup error, said once: each case
 * would otherwise report it as its own error or failure (561 of them for
 * a mistyped path). A module that needs a runtime this build lacks was
 * handed to another build before this (wk_cli_hand_over). */
static int driver_loads(const char *driver)
{
    char why[1024] = "";
    if (!driver)
        return 1;
    switch (wk_cli_driver_probe(driver, why, sizeof(why))) {
    case WK_CLI_DRIVER_LOADS:
        return 1;
    case WK_CLI_DRIVER_CRASHED:
        fprintf(stderr, "wddmkit conform: --driver %s crashed while loading: %s\n", driver, why);
        return 0;
    default:
        fprintf(stderr, "wddmkit conform: --driver %s: %s\n", driver, why);
        return 0;
    }
}

/* --umd auto under --gpu none, decided once and said: whether the cases in
 * the kit's own user-mode format judge this driver (driver.h,
 * WK_DRIVER_READS_KIT_UMD). */
static void decide_umd(struct conform_args *A)
{
    const char *why = "given with --umd";
    if (A->run.umd == WK_UMD_AUTO) {
        int declares = A->run.driver ? wk_cli_driver_declares_kit_umd(A->run.driver) : 0;
        A->run.umd = declares == 1 ? WK_UMD_KIT : WK_UMD_NONE;
        why = declares == 1 ? "the driver declares WK_DRIVER_READS_KIT_UMD"
                            : "the driver does not declare WK_DRIVER_READS_KIT_UMD";
    }
    if (A->run.umd == WK_UMD_KIT) {
        printf("umd:     kit: its Render reads the kit's user-mode format (%s); the cases in that format\n"
               "         are judged\n",
               why);
        return;
    }
    A->run.skip_kinds |= WK_CHECK_BIT(WK_CHECK_ENCODER);
    printf("umd:     none (%s): the cases that hand the driver the kit's own user-mode format are\n"
           "         skipped (--umd kit judges them)\n",
           why);
}

/* --gpu auto, decided once for the run and said: the built-in reference
 * driver targets the GPU model; a module does when it exports the marker
 * (driver.h, WK_DRIVER_TARGETS_GPU_MODEL). */
static void decide_gpu(struct conform_args *A)
{
    const char *why = "given with --gpu";
    if (A->run.gpu == WK_GPU_MODEL && A->run.driver && wk_cli_driver_declares_model(A->run.driver) == 0)
        why = "given with --gpu; the driver does not declare WK_DRIVER_TARGETS_GPU_MODEL: a failed check of what\n"
              "         its buffers did says the kit's command set did not come out of them, which is a fault only\n"
              "         if it writes that set (--gpu none judges it without executing them)";
    if (A->run.gpu == WK_GPU_AUTO) {
        int declares = A->run.driver ? wk_cli_driver_declares_model(A->run.driver) : 1;
        A->run.gpu = declares == 1 ? WK_GPU_MODEL : WK_GPU_NONE;
        why = !A->run.driver ? "the built-in reference driver targets it"
              : declares == 1 ? "the driver declares WK_DRIVER_TARGETS_GPU_MODEL"
                              : "the driver does not declare WK_DRIVER_TARGETS_GPU_MODEL";
    }
    A->run.gpu_given = A->gpu_given;
    if (A->run.gpu == WK_GPU_NONE) {
        A->run.skip_kinds |= WK_CHECK_BIT(WK_CHECK_SEMANTIC);
        A->run.skip_reason[WK_CHECK_SEMANTIC] = WK_GPU_NONE_SEMANTIC_REASON;
        A->run.skip_reason[WK_CHECK_ENCODER] = WK_GPU_NONE_ENCODER_REASON;
    }
    if (A->run.gpu == WK_GPU_MODEL)
        printf("gpu:     the kit's GPU model executes the driver's buffers (%s)\n", why);
    else
        printf("gpu:     none: nothing executes the driver's buffers (%s); the checks of what a buffer\n"
               "         did are skipped, every contract check runs (--gpu model runs them all)\n",
               why);
    if (A->run.gpu == WK_GPU_NONE)
        decide_umd(A);
}

int wk_cli_conform(int argc, char **argv)
{
    struct conform_args A;
    memset(&A, 0, sizeof(A));
    A.paths = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*A.paths));
    if (!A.paths)
        return 2;
    int parsed = parse(&A, argc, argv);
    if (parsed != WK_CLI_CONTINUE) {
        free(A.paths);
        return parsed;
    }
    if (wk_cli_parse_only) {
        free(A.paths);
        return 0;
    }
    if (!A.list && !driver_loads(A.run.driver)) {
        free(A.paths);
        return 2;
    }
    if (!A.list)
        decide_gpu(&A);
    struct wk_spec_set set;
    struct wk_expectations *e = NULL;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 0);
    d.warn = stderr; /* deprecated spec words: the specs still load */
    int code = 2;
    if (load_specs(&A, &set, &d) && load_expectations(&A, &set, d.errors != 0, &e)) {
        A.run.expectations = e;
        code = A.list ? list_cases(&A, &set) : run_cases(&A, &set, &d);
        if (A.list && code == 0 && d.errors)
            code = 2;
    }
    wk_expectations_free(e);
    wk_diag_free(&d);
    wk_spec_set_free(&set);
    free(A.paths);
    return code;
}
