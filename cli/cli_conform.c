/* SPDX-License-Identifier: MIT */
/*
 * cli_conform.c - `wddmkit conform [options] [SPEC|DIR...]`: load specs,
 * select cases, run them isolated, print and write the reports.
 *
 * The glue between the spec loader (spec.h), the expectations file
 * (expectations.h) and the runner (runner.h); it owns argument parsing and
 * the exit code: 0 every result as expected, 1 unexpected results (or a run
 * cut short by --total-timeout), 2 usage, spec or expectation errors (spec
 * errors as file:line:col), a report that could not be written or a
 * refused --resume, 128 + N a run stopped by signal N (its reports still
 * hold what finished).
 *
 * The reports hold the verdicts the runner received: the cases this run
 * finished from its own memory, a --resume's earlier ones from the journal
 * as read at the start. The journal file is never read back at the end:
 * any process of the user can write it, the driver's too (journal.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "conformance.h"

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
    char **roots;             /* the specs roots the reports name files under (spec_roots) */
    size_t root_count;
    const char *expectations, *junit, *tap, *json, *sarif;
    const char *caselist;     /* --caselist FILE */
    const char *given[8];     /* the report paths in the order given (the first 8) */
    size_t given_count;
    const char *first_report; /* the first report given that is a file: the journal goes next to it */
    int stdout_report;        /* a report takes stdout: the console goes to stderr */
    struct wk_cli_driver_identity identity; /* the --driver file's, for the reports */
    int identity_known;
    const char *journal;      /* --journal FILE */
    const char *resume;       /* --resume FILE */
    int list, coverage, quiet;
    const char *profile;      /* NULL: contract with --driver, else reference */
    int gpu_given;            /* --gpu model|none (not auto) */
    const char *binding;      /* --binding PATH|none; NULL: the driver module's own, if it exports one */
    int binding_parts;        /* WK_CLI_BINDING_* of the binding found */
};

enum {
    OPT_DRIVER = WK_CLI_LONG_ONLY, OPT_PROFILE, OPT_GPU, OPT_UMD, OPT_FILTER, OPT_EXCLUDE, OPT_LIST, OPT_SHARD, OPT_SEED,
    OPT_NO_FORK, OPT_TIMEOUT, OPT_TOTAL_TIMEOUT, OPT_EXPECTATIONS, OPT_JUNIT, OPT_TAP, OPT_JSON, OPT_COVERAGE,
    OPT_JOURNAL, OPT_RESUME, OPT_LOAD_TIMEOUT, OPT_RESOURCE_WAIT, OPT_BINDING, OPT_CASELIST, OPT_SARIF,
};

static const struct wk_cli_option conform_options[] = {
    { "driver", OPT_DRIVER, WK_CLI_VALUE, "PATH", "the driver object to test (default: the built-in reference driver)" },
    WK_CLI_OPT_LOAD_TIMEOUT(OPT_LOAD_TIMEOUT),
    { "profile", OPT_PROFILE, WK_CLI_VALUE, "contract|stress|reference",
      "contract: check the DDI contract and the data only; stress: also\n"
      "inputs no kernel hands a driver (a bare Patch); reference: everything,\n"
      "with the reference driver's own choices (placement offsets, counts of\n"
      "calls and passes, context info). Default: contract with --driver,\n"
      "reference without" },
    { "jobs", 'j', WK_CLI_VALUE, "N", "cases in parallel (default: the number of CPUs)" },
    { "gpu", OPT_GPU, WK_CLI_VALUE, "model|none|auto",
      "what executes the driver's buffers: model (the kit's GPU model), none (a driver for\n"
      "other hardware: the checks of what a buffer did are skipped, never failed), auto\n"
      "(default: model when the driver declares WK_DRIVER_TARGETS_GPU_MODEL)" },
    { "binding", OPT_BINDING, WK_CLI_VALUE, "PATH",
      "the hardware binding of a driver for other hardware (include/wddmkit/binding.h): a\n"
      "module exporting wk_binding; its processor executes the driver's buffers. none: no\n"
      "binding. Default: the driver module's own wk_binding, if it exports one" },
    { "umd", OPT_UMD, WK_CLI_VALUE, "kit|none|auto",
      "with --gpu none, whether the driver's Render reads the kit's own user-mode command\n"
      "format: kit (the cases that hand it that format are judged), none (they are skipped),\n"
      "auto (default: kit when the driver declares WK_DRIVER_READS_KIT_UMD)" },
    { "filter", OPT_FILTER, WK_CLI_VALUE, "GLOB", "run only cases whose id matches (repeatable)" },
    { "exclude", OPT_EXCLUDE, WK_CLI_VALUE, "GLOB", "leave out cases whose id matches (repeatable)" },
    { "caselist", OPT_CASELIST, WK_CLI_VALUE, "FILE",
      "run only the case ids FILE lists, one a line ('#' comments); --filter,\n"
      "--exclude and --shard then apply to those" },
    { "list", OPT_LIST, WK_CLI_FLAG, NULL, "print the selected case ids and exit" },
    { "shard", OPT_SHARD, WK_CLI_VALUE, "I/N", "run the I-th of N deterministic shards (1-based)" },
    { "seed", OPT_SEED, WK_CLI_VALUE, "N", "added to every case's seed" },
    { "no-fork", OPT_NO_FORK, WK_CLI_FLAG, NULL, "run cases in this process, one by one, DriverEntry once (for gdb; no timeout)" },
    { "timeout", OPT_TIMEOUT, WK_CLI_VALUE, "SECONDS", "per case (default 10; 0: none)" },
    { "total-timeout", OPT_TOTAL_TIMEOUT, WK_CLI_VALUE, "SEC", "for the whole run (default: none)" },
    { "resource-wait", OPT_RESOURCE_WAIT, WK_CLI_VALUE, "SEC",
      "how long a case that finds no process or descriptor to start with (EAGAIN,\n"
      "EMFILE, ENFILE, ENOMEM) waits, with no case running, before it is an error\n"
      "(default: 10; 0: at once)" },
    { "expectations", OPT_EXPECTATIONS, WK_CLI_VALUE, "FILE", "known failures, flakes and skips (YAML)" },
    { "junit", OPT_JUNIT, WK_CLI_VALUE, "FILE", "write JUnit XML (-: to stdout)" },
    { "tap", OPT_TAP, WK_CLI_VALUE, "FILE", "write TAP version 13 (-: to stdout, as cases finish)" },
    { "sarif", OPT_SARIF, WK_CLI_VALUE, "FILE", "write SARIF 2.1.0, for code scanning (-: to stdout)" },
    { "json", OPT_JSON, WK_CLI_VALUE, "FILE",
      "write JSON (-: to stdout). One report at most takes stdout, and the console\n"
      "then goes to stderr; a FIFO, a device or a symlink is written through, never\n"
      "replaced; every report path is checked before the first case runs" },
    { "journal", OPT_JOURNAL, WK_CLI_VALUE, "FILE",
      "append each finished case to FILE (JSON Lines; default: the first report\n"
      "given that is a file + .journal; none without one); the reports are rendered from it" },
    { "resume", OPT_RESUME, WK_CLI_VALUE, "JOURNAL",
      "continue the run JOURNAL records: run only the cases it lacks, then write\n"
      "the full reports (refused when the driver, the specs or the options differ)" },
    { "coverage", OPT_COVERAGE, WK_CLI_FLAG, NULL, "print which rules, paging operations and DDIs the run exercised" },
    { "quiet", 'q', WK_CLI_FLAG, NULL, "print only unexpected results, then the summaries (skips by reason, checks by kind, totals)" },
    { 0 },
};

static const struct wk_cli_command conform_command = {
    "conform", "[options] [SPEC|DIR...]   (default: the kit's specs/, as `wddmkit version` names it)", conform_options, NULL,
    "exit: 0 all as expected, 1 unexpected results, 2 usage/spec/expectation errors or a refused --resume,\n"
    "128+N stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP, 141 SIGPIPE)",
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

/* Keeps the report paths in the order given: the journal goes beside the
 * first one that is a file (check_reports). */
static int note_report(struct conform_args *A, const char *path)
{
    if (A->given_count < sizeof(A->given) / sizeof(A->given[0]))
        A->given[A->given_count++] = path;
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
    case OPT_BINDING: A->binding = a->value; return 0;
    case OPT_UMD: return parse_umd(A, a);
    case 'j':
        if (wk_cli_number(a, 1, 256, &u))
            return 2;
        o->jobs = (uint32_t)u;
        return 0;
    case OPT_FILTER: return add_glob(A->filters, &o->filter_count, a);
    case OPT_EXCLUDE: return add_glob(A->excludes, &o->exclude_count, a);
    case OPT_CASELIST: A->caselist = a->value; return 0;
    case OPT_LIST: A->list = 1; return 0;
    case OPT_SHARD: return parse_shard(a, o);
    case OPT_SEED: o->has_seed = 1; return wk_cli_number(a, 0, UINT64_MAX, &o->seed);
    case OPT_NO_FORK: o->no_fork = 1; return 0;
    case OPT_LOAD_TIMEOUT: return wk_cli_load_timeout_arg(a);
    case OPT_TIMEOUT: return wk_cli_decimal(a, 0, 7 * 86400.0, &o->case_timeout);
    case OPT_TOTAL_TIMEOUT: return wk_cli_decimal(a, 0, 7 * 86400.0, &o->total_timeout);
    case OPT_RESOURCE_WAIT: return wk_cli_decimal(a, 0, 86400.0, &o->resource_wait);
    case OPT_EXPECTATIONS: A->expectations = a->value; return 0;
    case OPT_JUNIT: A->junit = a->value; return note_report(A, a->value);
    case OPT_TAP: A->tap = a->value; return note_report(A, a->value);
    case OPT_JSON: A->json = a->value; return note_report(A, a->value);
    case OPT_SARIF: A->sarif = a->value; return note_report(A, a->value);
    case OPT_JOURNAL: A->journal = a->value; return 0;
    case OPT_RESUME: A->resume = a->value; return 0;
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
    A->run.resource_wait = 10; /* issue 22: "retried with backoff for at most 10 s" */
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
/* Report paths                                                         */
/* ------------------------------------------------------------------ */

/*
 * Every report path checked before anything runs (report_target.c says
 * what each kind of path gets): a path that cannot be written is a usage
 * error naming it and why, and so are two reports on stdout. With --list
 * nothing is written, and only the second rule holds. Then the journal's
 * default place (beside the first report that is a file: a FIFO's or a
 * device's folder is no place for it), and stdout given to the reports
 * when one takes it. 0, or the exit code (said).
 */
static int check_reports(struct conform_args *A)
{
    const char *opts[4] = { "--junit", "--tap", "--json", "--sarif" };
    const char *paths[4] = { A->junit, A->tap, A->json, A->sarif };
    const char **set[4] = { &A->junit, &A->tap, &A->json, &A->sarif };
    const char *on_stdout = NULL, *on_stdout_path = NULL;
    int stdout_index = -1;
    for (int i = 0; i < 4; i++) {
        struct wk_report_target t;
        char why[1024];
        if (!paths[i])
            continue;
        wk_status st = A->list ? wk_report_target(paths[i], &t, why, sizeof(why))
                               : wk_report_check(paths[i], &t, why, sizeof(why));
        if (st != WK_OK && !A->list)
            return wk_cli_usage_error(&conform_command, "%s %s: %s", opts[i], paths[i], why);
        if (st != WK_OK || t.kind != WK_REPORT_STDOUT)
            continue;
        if (on_stdout)
            return wk_cli_usage_error(&conform_command, "%s %s and %s %s: only one report can take stdout",
                                      on_stdout, on_stdout_path, opts[i], paths[i]);
        on_stdout = opts[i];
        on_stdout_path = paths[i];
        stdout_index = i;
    }
    for (size_t i = 0; i < A->given_count && !A->first_report; i++) {
        struct wk_report_target t;
        char why[1024];
        if (wk_report_target(A->given[i], &t, why, sizeof(why)) == WK_OK && t.kind == WK_REPORT_REPLACE)
            A->first_report = A->given[i];
    }
    if (on_stdout && !A->list) {
        if (wk_report_take_stdout() != 0) {
            fprintf(stderr, "wddmkit conform: %s -: cannot take stdout: %s\n", on_stdout, strerror(errno));
            return 2;
        }
        A->stdout_report = 1;
        /* /dev/stdout names stderr's file from now on: the report keeps
         * the stdout it was given */
        *set[stdout_index] = "-";
    }
    return 0;
}

/* The --driver file's SHA-256 and build-id, which every report records;
 * a file that cannot be read (it loaded a moment ago) is said and the
 * reports go without them. */
static void identify_driver(struct conform_args *A)
{
    char why[512];
    if (!A->run.driver)
        return;
    if (wk_cli_driver_identity(A->run.driver, &A->identity, why, sizeof(why)) == 0)
        A->identity_known = 1;
    else
        fprintf(stderr, "wddmkit conform: --driver %s: no SHA-256 for the reports: %s\n", A->run.driver, why);
}

/* What the reports record of the kit and the driver (wk_run_report). */
static void set_provenance(const struct conform_args *A, struct wk_run_report *rep)
{
    rep->kit_version = WK_VERSION;
    rep->kit_commit = wk_cli_kit_commit;
    rep->driver_sha256 = A->identity_known ? A->identity.sha256 : NULL;
    rep->driver_build_id = A->identity_known && A->identity.build_id[0] ? A->identity.build_id : NULL;
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
/* The root a path's cases are named under in the reports: a folder
 * itself, a file's folder ("" for a bare name: it is relative already). */
static void add_root(struct conform_args *A, const char *path, int is_dir)
{
    const char *slash = is_dir ? NULL : strrchr(path, '/');
    char *root = is_dir ? strdup(path) : slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : NULL;
    if (root)
        A->roots[A->root_count++] = root;
}

static int load_specs(struct conform_args *A, struct wk_spec_set *set, struct wk_diag *d)
{
    size_t n = A->path_count ? A->path_count : 1;
    A->roots = calloc(n, sizeof(*A->roots));
    for (size_t i = 0; i < n; i++) {
        const char *path = A->path_count ? A->paths[i] : wk_cli_specs_dir();
        struct stat st;
        int is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
        if (is_dir)
            wk_spec_load_dir(set, path, d);
        else
            wk_spec_load_file(set, path, d);
        if (A->roots)
            add_root(A, path, is_dir);
    }
    if (d->errors) {
        wk_diag_print(d, stderr);
        fprintf(stderr, "wddmkit conform: %u spec error%s: %s\n", d->errors, d->errors == 1 ? "" : "s",
                set->count ? "the cases they concern are dropped, the others run" : "no case loaded");
    } else if (set->count == 0) {
        fprintf(stderr, "wddmkit conform: no cases in %s\n", A->path_count ? A->paths[0] : wk_cli_specs_dir());
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

/* --caselist FILE: read, and every id it names a loaded case (else
 * FILE:LINE said, and 0). */
static int load_caselist(const struct conform_args *A, const struct wk_spec_set *set, int spec_errors,
                         struct wk_caselist **l)
{
    *l = NULL;
    if (!A->caselist)
        return 1;
    if (wk_caselist_load(A->caselist, l, stderr) != WK_OK)
        return 0;
    if (spec_errors) {
        fputs("wddmkit conform: --caselist not checked for unknown ids (spec errors dropped cases)\n", stderr);
        return 1;
    }
    if (wk_caselist_check_unknown(*l, (const struct wk_prog *const *)set->progs, set->count, stderr)) {
        wk_caselist_free(*l);
        *l = NULL;
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

/* Every report, each on its own: one that cannot be written (said, by
 * path) costs only itself. tap_streamed: TAP went to stdout as cases
 * finished. */
static int write_reports(const struct conform_args *A, const struct wk_run_report *rep, int tap_streamed)
{
    int ok = 1;
    if (A->junit)
        ok &= wk_report_junit(rep, A->junit, stderr) == WK_OK;
    if (A->tap && !tap_streamed)
        ok &= wk_report_tap(rep, A->tap, stderr) == WK_OK;
    if (A->json)
        ok &= wk_report_json(rep, A->json, stderr) == WK_OK;
    if (A->sarif)
        ok &= wk_report_sarif(rep, wk_cli_specs_dir(), A->sarif, stderr) == WK_OK;
    return ok;
}

/* What the runner's progress callbacks carry: the console, the journal
 * each finished case is appended to, and TAP streamed to stdout. */
struct conform_run {
    struct wk_console console;
    struct wk_journal journal;        /* journal.path NULL: none */
    int journal_failed;               /* said once */
    FILE *tap;                        /* --tap -: stdout; else NULL */
    size_t tap_number;
};

static void run_on_start(void *ctx, const struct wk_run_report *rep, size_t index)
{
    struct conform_run *C = ctx;
    wk_console_on_start(&C->console, rep, index);
}

/* The journal first: a line there is what survives whatever comes next. */
static void run_on_done(void *ctx, const struct wk_run_report *rep, size_t index)
{
    struct conform_run *C = ctx;
    const struct wk_case_report *c = &rep->cases[index];
    if (C->journal.path && wk_journal_append(&C->journal, c) != WK_OK && !C->journal_failed) {
        C->journal_failed = 1;
        fprintf(stderr, "wddmkit conform: %s: cannot append to the journal: %s\n", C->journal.path,
                strerror(errno));
    }
    if (C->tap)
        wk_tap_stream_case(C->tap, rep, c, ++C->tap_number);
    wk_console_on_done(&C->console, rep, index);
}

/* --resume FILE, else --journal FILE, else the first report file given
 * + ".journal" (beside the reports it is rendered into: the same
 * directory the user already chose for the run's output, collected with
 * them as a CI artifact, and one per report set, so two runs writing
 * different reports never share one); NULL when there is no file at all. */
static const char *journal_path(const struct conform_args *A, char *buf, size_t size)
{
    if (A->resume)
        return A->resume;
    if (A->journal)
        return A->journal;
    if (!A->first_report)
        return NULL;
    int n = snprintf(buf, size, "%s.journal", A->first_report);
    return n > 0 && (size_t)n < size ? buf : NULL;
}

/* The run's journal started (a fresh run) or checked and read back
 * (--resume) into final, whose cases are the run's selection. 0: refused
 * or unwritable (said). */
static int start_journal(const struct conform_args *A, const struct wk_spec_set *set, const char *path,
                         struct wk_journal *journal, struct wk_run_report *final)
{
    const struct wk_prog *const *all = (const struct wk_prog *const *)set->progs;
    struct wk_journal_identity id;
    wk_journal_identity(&id, all, set->count, &A->run, A->expectations);
    if (wk_journal_report_init(all, set->count, &A->run, final, stderr) != WK_OK)
        return 0;
    if (!A->resume)
        return wk_journal_create(journal, path, &id, WK_VERSION, stderr) == WK_OK;
    if (wk_journal_resume(journal, path, &id, stderr) != WK_OK) {
        fprintf(stderr, "wddmkit conform: --resume %s refused: run it with the driver, specs and options it "
                        "records, or start a new run\n", A->resume);
        return 0;
    }
    size_t done = wk_journal_fill(journal, final, stderr);
    printf("resume:  %zu of %zu cases finished in %s; running the other %zu\n", done, final->count, A->resume,
           final->count - done);
    return 1;
}

/* The cases still to run (not finished in final), in id order. */
static const struct wk_prog **remaining_cases(const struct wk_run_report *final, size_t *n)
{
    const struct wk_prog **v = calloc(final->count ? final->count : 1, sizeof(*v));
    *n = 0;
    for (size_t i = 0; v && i < final->count; i++)
        if (!final->cases[i].finished)
            v[(*n)++] = final->cases[i].prog;
    return v;
}

/* Runs the selection (or on --resume what final lacks) into live. 0: the
 * selection's error. */
static int run_live(struct conform_args *A, const struct wk_spec_set *set, const struct wk_run_report *final,
                    struct wk_run_report *live)
{
    set_provenance(A, live);
    if (!A->resume)
        return wk_runner_run((const struct wk_prog *const *)set->progs, set->count, &A->run, live, stderr) == WK_OK;
    size_t n = 0;
    const struct wk_prog **rest = remaining_cases(final, &n);
    if (!rest)
        return 0;
    /* the rest is the selection already: filters and shards were applied */
    struct wk_runner_options o = A->run;
    o.filter_count = o.exclude_count = 0;
    o.shard_index = o.shard_count = 0;
    int ok = n == 0 || wk_runner_run(rest, n, &o, live, stderr) == WK_OK;
    free(rest);
    return ok;
}

static void stream_journal_cases(struct conform_run *C, const struct wk_run_report *final)
{
    for (size_t i = 0; C->tap && i < final->count; i++)
        if (final->cases[i].finished)
            wk_tap_stream_case(C->tap, final, &final->cases[i], ++C->tap_number);
}

/* The summary, coverage and report files of rep; the exit code (2 when a
 * report could not be written: the others were, and the journal, when
 * there is one, keeps every finished case). */
static int finish(const struct conform_args *A, struct conform_run *C, struct wk_run_report *rep,
                  const struct wk_diag *d, const char *journal)
{
    rep->spec_errors = d->messages;
    rep->spec_error_count = d->count;
    rep->spec_errors_total = d->errors;
    rep->spec_roots = (const char *const *)A->roots;
    rep->spec_root_count = A->root_count;
    if (C->tap)
        wk_tap_stream_end(C->tap, rep, C->tap_number);
    wk_console_summary(&C->console, rep);
    if (A->coverage) {
        struct wk_coverage cov;
        wk_coverage_compute(rep, &cov);
        wk_coverage_print(&cov, C->console.out);
    }
    int code = wk_run_exit_code(rep);
    if (!write_reports(A, rep, C->tap != NULL)) {
        if (journal)
            fprintf(stderr, "wddmkit conform: a report could not be written (above); the others were, and %s "
                            "keeps every finished case\n", journal);
        else
            fputs("wddmkit conform: a report could not be written (above); the others were\n", stderr);
        code = 2;
    }
    return code;
}

static int run_cases(struct conform_args *A, const struct wk_spec_set *set, const struct wk_diag *d)
{
    struct conform_run C;
    struct wk_run_report live, final;
    char buf[4200];
    memset(&C, 0, sizeof(C));
    memset(&live, 0, sizeof(live));
    memset(&final, 0, sizeof(final));
    set_provenance(A, &final);
    final.driver = A->run.driver;
    const char *journal = journal_path(A, buf, sizeof(buf));
    struct wk_report_target tap;
    char why[256];
    int tap_streams = A->tap && wk_report_target(A->tap, &tap, why, sizeof(why)) == WK_OK &&
                      tap.kind == WK_REPORT_STDOUT;
    C.tap = tap_streams ? wk_report_stdout() : NULL;
    wk_console_init(&C.console, A->stdout_report ? stderr : stdout, A->quiet); /* stdout is a report's */
    int code = 2;
    if (journal && !start_journal(A, set, journal, &C.journal, &final))
        goto out;
    if (C.tap) {
        wk_tap_stream_begin(C.tap, &final);
        stream_journal_cases(&C, &final);
    }
    A->run.catch_signals = 1;
    A->run.on_start = run_on_start;
    A->run.on_done = run_on_done;
    A->run.ctx = &C;
    if (!run_live(A, set, &final, &live))
        goto out;
    /* Past the run, a closed pipe or terminal must not cut the reports
     * short: writes to it fail quietly instead. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    if (journal) {
        /* the cases' processes are gone: the file can be checked now */
        wk_journal_close(&C.journal, stderr);
        wk_run_report_take(&final, &live); /* the verdicts the runner received */
        final.stop = live.stop;
        final.signo = live.signo;
        final.seconds = live.seconds;
    }
    struct wk_run_report *rep = journal ? &final : &live;
    if (rep->count == 0)
        fprintf(stderr, "wddmkit conform: no case matches the filters\n");
    else
        code = finish(A, &C, rep, d, journal);
out:
    wk_journal_forget(&C.journal); /* a refused or unwritable journal: the file as it is */
    wk_run_report_free(&live);
    wk_run_report_free(&final);
    return code;
}

/* The DDIs the driver leaves NULL that the kernel calls on every adapter
 * that renders, said before any case runs (DDI-TABLE-001): the case that
 * checks the table fails for them, once, and the cases that call one are
 * skipped with its name. */
static void say_missing_ddis(const char *info)
{
    /* A NULL Patch is missing only when a context needs it: said as such. */
    const char *patch = strstr(info, WK_CLI_PATCH_LEFT);
    if (patch) {
        patch += strlen(WK_CLI_PATCH_LEFT);
        const char *end = strstr(patch, WK_CLI_DDIS_MISSING);
        printf("ddis:    the driver leaves DxgkDdiPatch NULL, %.*s\n",
               end ? (int)(end - patch) : (int)strlen(patch), patch);
    }
    const char *missing = strstr(info, WK_CLI_DDIS_MISSING);
    if (missing)
        printf("ddis:    the driver leaves NULL %s:\n"
               "         adapter-start.ddi-table fails for them, and the cases that call them are skipped\n",
               missing + strlen(WK_CLI_DDIS_MISSING));
}

/* A --driver that does not load is a setup error, said once: each case
 * would otherwise report it as its own error or failure (561 of them for
 * a mistyped path). A module that needs a runtime this build lacks was
 * handed to another build before this (wk_cli_hand_over). */
static int driver_loads(const char *driver)
{
    char why[1024] = "", info[4096] = "";
    if (!driver)
        return 1;
    switch (wk_cli_driver_probe_info(driver, why, sizeof(why), info, sizeof(info))) {
    case WK_CLI_DRIVER_LOADS:
        say_missing_ddis(info);
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
/* The hardware binding, decided once for the run and said: --binding PATH,
 * else the driver module's own export (--binding none: neither). 1: go on
 * (with or without one), 0: refused (the reason printed). */
static int decide_binding(struct conform_args *A)
{
    char desc[1024];
    const char *path = A->binding ? A->binding : A->run.driver;
    if (!path || (A->binding && strcmp(A->binding, "none") == 0))
        return 1;
    int found = wk_cli_binding_probe(path, A->binding == NULL, desc, sizeof(desc));
    if (found < 0) {
        fprintf(stderr, "wddmkit conform: %s\n", desc);
        return 0;
    }
    if (found == 0)
        return 1;
    A->binding_parts = found;
    A->run.binding = path;
    A->run.binding_given = A->binding != NULL;
    printf("binding: %s\n         from %s%s\n", desc, path, A->binding ? "" : " (the driver module exports it)");
    return 1;
}

static void decide_gpu(struct conform_args *A)
{
    const char *why = "given with --gpu";
    if (A->run.binding && A->run.gpu != WK_GPU_NONE && (A->binding_parts & WK_CLI_BINDING_PROCESSOR)) {
        A->run.gpu = WK_GPU_BINDING;
        A->run.gpu_given = A->gpu_given;
        printf("gpu:     the binding's processor executes the driver's buffers\n");
        A->run.skip_reason[WK_CHECK_ENCODER] = WK_BINDING_NO_ENCODER_REASON;
        if (A->binding_parts & WK_CLI_BINDING_ENCODER && A->run.umd != WK_UMD_KIT &&
            !(A->run.driver && wk_cli_driver_declares_kit_umd(A->run.driver) == 1))
            printf("umd:     the binding's encoder writes the driver's own user-mode formats\n");
        else
            decide_umd(A);
        return;
    }
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
    int bad = check_reports(&A);
    if (bad) {
        free(A.paths);
        return bad;
    }
    if (!A.list && !driver_loads(A.run.driver)) {
        free(A.paths);
        return 2;
    }
    if (!A.list && !decide_binding(&A)) {
        free(A.paths);
        return 2;
    }
    if (!A.list) {
        decide_gpu(&A);
        identify_driver(&A);
    }
    struct wk_spec_set set;
    struct wk_expectations *e = NULL;
    struct wk_caselist *caselist = NULL;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 0);
    d.warn = stderr; /* deprecated spec words: the specs still load */
    int code = 2;
    if (load_specs(&A, &set, &d) && load_expectations(&A, &set, d.errors != 0, &e) &&
        load_caselist(&A, &set, d.errors != 0, &caselist)) {
        A.run.expectations = e;
        A.run.caselist = caselist;
        code = A.list ? list_cases(&A, &set) : run_cases(&A, &set, &d);
        if (A.list && code == 0 && d.errors)
            code = 2;
    }
    wk_expectations_free(e);
    wk_caselist_free(caselist);
    for (size_t i = 0; i < A.root_count; i++)
        free(A.roots[i]);
    free(A.roots);
    wk_diag_free(&d);
    wk_spec_set_free(&set);
    free(A.paths);
    return code;
}
