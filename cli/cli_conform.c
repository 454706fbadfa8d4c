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
};

static void usage(FILE *out)
{
    fputs("usage: wddmkit conform [options] [SPEC|DIR...]   (default: " WK_SPECS_DIR ")\n"
          "\n"
          "  --driver PATH         the driver object to test (default: the built-in reference driver)\n"
          "  --profile P           contract: check the DDI contract and the data only; reference: also\n"
          "                        the reference driver's own choices (placement offsets, counts of\n"
          "                        calls and passes, context info). Default: contract with --driver,\n"
          "                        reference without\n"
          "  -j, --jobs N          cases in parallel (default: the number of CPUs)\n"
          "  --filter GLOB         run only cases whose id matches (repeatable)\n"
          "  --exclude GLOB        leave out cases whose id matches (repeatable)\n"
          "  --list                print the selected case ids and exit\n"
          "  --shard I/N           run the I-th of N deterministic shards (1-based)\n"
          "  --seed N              added to every case's seed\n"
          "  --no-fork             run cases in this process, one by one (for gdb; no timeout)\n"
          "  --timeout SECONDS     per case (default 10; 0: none)\n"
          "  --total-timeout SEC   for the whole run (default: none)\n"
          "  --expectations FILE   known failures, flakes and skips (YAML)\n"
          "  --junit FILE          write JUnit XML\n"
          "  --tap FILE            write TAP version 13\n"
          "  --json FILE           write JSON\n"
          "  --coverage            print which rules, paging operations and DDIs the run exercised\n"
          "  --quiet               print only unexpected results and the totals\n"
          "\n"
          "exit: 0 all as expected, 1 unexpected results, 2 usage/spec/expectation errors, 130 interrupted\n",
          out);
}

static int bad_value(const char *opt, const char *value, const char *form)
{
    fprintf(stderr, "wddmkit conform: %s: expected %s, saw '%s'\n", opt, form, value);
    return 0;
}

static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (!s[0] || *end || errno || s[0] == '-' || v < min || v > max) {
        char form[96];
        snprintf(form, sizeof(form), "an integer in %llu..%llu", (unsigned long long)min, (unsigned long long)max);
        return bad_value(opt, s, form);
    }
    *out = v;
    return 1;
}

static int parse_seconds(const char *opt, const char *s, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (!s[0] || *end || errno || !isfinite(v) || v < 0 || v > 7 * 86400.0)
        return bad_value(opt, s, "seconds, 0 to 604800");
    *out = v;
    return 1;
}

static int parse_shard(const char *opt, const char *s, struct wk_runner_options *o)
{
    unsigned i = 0, n = 0;
    int used = 0;
    if (sscanf(s, "%u/%u%n", &i, &n, &used) != 2 || s[used] || n < 1 || n > 100000 || i < 1 || i > n)
        return bad_value(opt, s, "I/N with 1 <= I <= N <= 100000");
    o->shard_index = i;
    o->shard_count = n;
    return 1;
}

/* The value of an option given as "--opt VALUE" or "--opt=VALUE". */
static const char *value_of(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t len = strlen(name);
    if (a[len] == '=')
        return a + len + 1;
    if (*i + 1 >= argc) {
        fprintf(stderr, "wddmkit conform: %s needs a value\n", name);
        return NULL;
    }
    return argv[++*i];
}

static int is_option(const char *a, const char *name)
{
    size_t len = strlen(name);
    return strncmp(a, name, len) == 0 && (a[len] == 0 || a[len] == '=');
}

static int add_glob(const char **list, size_t *n, const char *opt, const char *glob)
{
    if (*n == MAX_GLOBS) {
        fprintf(stderr, "wddmkit conform: more than %d %s options\n", MAX_GLOBS, opt);
        return 0;
    }
    list[(*n)++] = glob;
    return 1;
}

/* --profile reference|contract (docs/conformance.md, "Profiles"). */
static int parse_profile(struct conform_args *A, const char *opt, const char *v)
{
    if (strcmp(v, "reference") != 0 && strcmp(v, "contract") != 0)
        return bad_value(opt, v, "reference or contract");
    A->profile = v;
    return 1;
}

/* Options with a value; 1 handled, 0 error, -1 not one of them. */
static int parse_valued(struct conform_args *A, int argc, char **argv, int *i)
{
    static const char *const names[] = { "--driver", "--jobs", "-j", "--filter", "--exclude", "--shard", "--seed",
                                         "--timeout", "--total-timeout", "--expectations", "--junit", "--tap",
                                         "--json", "--profile" };
    const char *a = argv[*i];
    size_t k = 0, n = sizeof(names) / sizeof(names[0]);
    while (k < n && !is_option(a, names[k]))
        k++;
    if (k == n && !(strncmp(a, "-j", 2) == 0 && a[2]))
        return -1;
    const char *name = k < n ? names[k] : "-j";
    const char *v = k < n ? value_of(argc, argv, i, name) : a + 2; /* -j4 */
    struct wk_runner_options *o = &A->run;
    uint64_t u = 0;
    if (!v)
        return 0;
    if (k == n) /* -j4 */
        k = 2;
    switch (k) {
    case 0: o->driver = v; return 1;
    case 1: case 2:
        if (!parse_u64(name, v, 1, 256, &u))
            return 0;
        o->jobs = (uint32_t)u;
        return 1;
    case 3: return add_glob(A->filters, &o->filter_count, name, v);
    case 4: return add_glob(A->excludes, &o->exclude_count, name, v);
    case 5: return parse_shard(name, v, o);
    case 6: o->has_seed = 1; return parse_u64(name, v, 0, UINT64_MAX, &o->seed);
    case 7: return parse_seconds(name, v, &o->case_timeout);
    case 8: return parse_seconds(name, v, &o->total_timeout);
    case 9: A->expectations = v; return 1;
    case 10: A->junit = v; return 1;
    case 11: A->tap = v; return 1;
    case 12: A->json = v; return 1;
    default: return parse_profile(A, name, v);
    }
}

static int parse_flag(struct conform_args *A, const char *a)
{
    if (strcmp(a, "--list") == 0)
        A->list = 1;
    else if (strcmp(a, "--coverage") == 0)
        A->coverage = 1;
    else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0)
        A->quiet = 1;
    else if (strcmp(a, "--no-fork") == 0)
        A->run.no_fork = 1;
    else
        return 0;
    return 1;
}

/* 1 parsed, 0 usage error (printed), -1 help was asked for. */
static int parse(struct conform_args *A, int argc, char **argv)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    A->run.jobs = cpus < 1 ? 1 : cpus > 256 ? 256 : (uint32_t)cpus;
    A->run.case_timeout = 10;
    A->run.filters = A->filters;
    A->run.excludes = A->excludes;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return -1;
        if (strcmp(a, "--") == 0) {
            while (++i < argc)
                A->paths[A->path_count++] = argv[i];
            break;
        }
        int r = parse_valued(A, argc, argv, &i);
        if (r == 0)
            return 0;
        if (r == 1 || parse_flag(A, a))
            continue;
        if (a[0] == '-' && a[1]) {
            fprintf(stderr, "wddmkit conform: unknown option '%s'\n", a);
            return 0;
        }
        A->paths[A->path_count++] = a;
    }
    /* Another driver makes its own choices where the DDI leaves them open:
     * by default only the contract and the data are held against it. */
    A->run.contract = A->profile ? strcmp(A->profile, "contract") == 0 : A->run.driver != NULL;
    return 1;
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

int wk_cli_conform(int argc, char **argv)
{
    struct conform_args A;
    memset(&A, 0, sizeof(A));
    A.paths = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*A.paths));
    if (!A.paths)
        return 2;
    int parsed = parse(&A, argc, argv);
    if (parsed <= 0) {
        if (parsed < 0)
            usage(stdout);
        else
            fputs("wddmkit conform: try 'wddmkit conform --help' for the options\n", stderr);
        free(A.paths);
        return parsed < 0 ? 0 : 2;
    }
    if (wk_cli_parse_only) {
        free(A.paths);
        return 0;
    }
    if (!A.list && !driver_loads(A.run.driver)) {
        free(A.paths);
        return 2;
    }
    struct wk_spec_set set;
    struct wk_expectations *e = NULL;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 0);
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
