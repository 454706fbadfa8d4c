/* SPDX-License-Identifier: MIT */
/*
 * results.h - `wddmkit results`: the JSON reports of `conform --json`
 * (docs/json-report.md) read back, and what a team does with them between
 * runs: a baseline expectations file from a run, the difference between
 * two runs, one report from the reports of a run's shards
 * (docs/command-line.md, "results"; how-to: docs/run-in-ci.md).
 *
 * The reader (results_read.c) uses jansson, a maintained JSON library, and
 * bounds what it is handed: the file's size, the nesting (checked on the
 * bytes before jansson builds anything), the number of cases and every
 * string's length. It checks every key the schema (docs/json-report.schema.json)
 * requires, with the type it has there, so that a report it accepts can be
 * merged into one the schema accepts; keys it does not know are ignored
 * (a newer minor version adds keys). An error names the file and the place:
 * `r.json: cases[12].verdict: unknown verdict "x"`, or
 * `r.json:3:14: JSON syntax error: ...`.
 */
#ifndef WK_RESULTS_H
#define WK_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "prog/conform.h"
#include "wddmkit/status.h"

#define WK_RESULTS_MAX_BYTES (64u << 20)  /* a report of 50,000 cases is about 60 MiB */
#define WK_RESULTS_MAX_CASES 50000u
#define WK_RESULTS_MAX_DEPTH 16u          /* the kit writes 5 levels */
#define WK_RESULTS_MAX_TEXT 65536u        /* bytes in one string */
#define WK_RESULTS_MAX_FILES 1024u        /* reports one merge takes */

struct json_t;

/* One case of a report: views into the document (valid while it lives). */
struct wk_results_case {
    const char *id;
    enum wk_verdict verdict;          /* the final verdict */
    enum wk_verdict run_verdict;      /* the first attempt's */
    int has_rerun;
    enum wk_verdict rerun_verdict;    /* when has_rerun */
    int unexpected;
    const char *rule;                 /* NULL: none */
    const char *seen;                 /* NULL: none */
    int has_expectation;
    enum wk_verdict expect;           /* the expectation that matched, when has_expectation */
    const char *expect_pattern, *expect_reason, *expect_link; /* reason and link may be NULL */
    struct json_t *json;              /* the case's object */
};

/* A report read back. */
struct wk_results {
    char *name;                       /* the file, for messages */
    struct json_t *root;
    unsigned minor;                   /* schema_version 1.MINOR */
    const char *status;               /* complete, interrupted, total-timeout */
    const char *kit_version, *kit_commit;
    const char *driver, *driver_sha256; /* NULL: the built-in reference driver */
    const char *profile;
    uint64_t seed;
    const char *shard;                /* "I/N", NULL: none */
    const char *start_time;
    struct wk_results_case *cases;    /* in the file's order (the kit writes id order) */
    size_t count;
};

/* Parses a report held in memory; `name` names it in messages. On error
 * prints every problem found (one line each, starting with name) to err
 * and returns WK_E_INVALID_ARGUMENT (a report the kit would not write),
 * WK_E_LIMIT (a bound above) or WK_E_NO_MEMORY, with *out NULL. */
wk_status wk_results_parse(const char *name, const char *text, size_t size, struct wk_results **out, FILE *err);
/* The same from a file ("-": stdin); WK_E_IO when it cannot be read. */
wk_status wk_results_load(const char *path, struct wk_results **out, FILE *err);
void wk_results_free(struct wk_results *r);
/* The names of the keys a report has (up to cap into out; returns how
 * many): the fuzzing dictionary is made from them (harnesses/gen_dicts.c). */
size_t wk_results_key_names(const char **out, size_t cap);
/* The case with this id, or NULL. */
const struct wk_results_case *wk_results_find(const struct wk_results *r, const char *id);

/*
 * `results baseline`: an expectations file (expectations.h) under which a
 * rerun of the same driver gives no unexpected result: one entry per case
 * whose result is a known failure, by exact id, in id order:
 *   fail, crash, timeout         -> expect the same; a case whose rerun
 *                                   failed otherwise (crash, then fail) -> flake
 *   flake                        -> flake
 *   expected-fail, a listed skip, a listed flake (also one that passed this
 *   time)                        -> the entry that matched, kept, with its
 *                                   reason and link (by exact id)
 *   pass, unexpected-pass, skip (a requirement or the profile), error
 *                                -> nothing (an error is the kit's, never
 *                                   the driver's: said on err)
 * New entries get `reason` (NULL: "<verdict> in the baseline run of
 * <start_time>: <rule>") and `link`, which must be a URL or an issue
 * reference. The text is loaded back with the expectations loader before
 * it is written: WK_OK and the text in *yaml (malloc'd), or the loader's
 * messages on err and WK_E_INVALID_ARGUMENT.
 */
wk_status wk_results_baseline(const struct wk_results *r, const char *reason, const char *link, char **yaml,
                              FILE *err);

/*
 * `results diff`: how NEW differs from OLD, case by case (by id). A
 * case's outcome is its first run's kind of failure when the run failed
 * (fail, crash, timeout: also under an expectation, which only renames it
 * expected-fail), flake, pass (an unexpected-pass too), skip or error. The
 * severity of an outcome: pass, skip, error and "not in the report" 0;
 * fail and flake 1; timeout 2; crash 3.
 *   regression   NEW counts against the run (`unexpected`), its outcome is
 *                fail, flake, timeout or crash, and more severe than OLD's
 *                (a new failure, a new flake, a failure that now crashes or
 *                hangs, a failing case OLD did not have)
 *   new error    NEW is error (the kit could not run the case) where OLD
 *                judged it: it may hide a regression
 *   fix          OLD failed (fail, flake, timeout, crash), NEW passes
 *   new flake    (listed among regressions when it counts, else apart)
 *   known        a new failure NEW's expectations list (not a regression)
 *   changed      any other change of outcome, or of the rule a failure broke
 *   added, removed
 */
enum wk_results_change {
    WK_RESULTS_REGRESSION,
    WK_RESULTS_NEW_ERROR,
    WK_RESULTS_FIX,
    WK_RESULTS_KNOWN,
    WK_RESULTS_CHANGED,
    WK_RESULTS_ADDED,
    WK_RESULTS_REMOVED,
    WK_RESULTS_CHANGE_COUNT
};
struct wk_results_diff_entry {
    const char *id;
    enum wk_results_change change;
    const struct wk_results_case *old_case, *new_case; /* NULL: not in that report */
    const char *old_outcome, *new_outcome;             /* "pass", "crash", ..., "-" */
};
struct wk_results_diff {
    struct wk_results_diff_entry *entries; /* in id order */
    size_t count;
    size_t counts[WK_RESULTS_CHANGE_COUNT];
    size_t new_flakes;
};
/* Fills d (release with wk_results_diff_free). WK_OK or WK_E_NO_MEMORY. */
wk_status wk_results_diff(const struct wk_results *old_r, const struct wk_results *new_r,
                          struct wk_results_diff *d);
void wk_results_diff_free(struct wk_results_diff *d);
/* The outcome of a case (above) and its severity. */
const char *wk_results_outcome(const struct wk_results_case *c);
int wk_results_severity(const char *outcome);
/* Prints the difference for a reader (notes on what differs in the
 * environment first), or as one JSON document (json). */
void wk_results_diff_print(const struct wk_results *old_r, const struct wk_results *new_r,
                           const struct wk_results_diff *d, int json, FILE *out, FILE *notes);
/* The exit code: 1 a regression or a new error, else 0. */
int wk_results_diff_exit_code(const struct wk_results_diff *d);

/*
 * `results merge`: one report of the cases of n reports of one run's
 * shards (`conform --shard I/N`). Refused (WK_E_INVALID_ARGUMENT, said on
 * err) when they are of different runs (format major, kit version or
 * commit, driver and its digest, profile, seed, shard count) or when a case
 * is in two of them with different results (verdict, first run's verdict,
 * rerun, rule); a case in two with one result is taken once. The merged
 * report: cases in id order; environment of the first, shard null, jobs
 * the largest, start_time the earliest; seconds the longest (shards run
 * side by side); status complete only when every shard's was;
 * spec_errors the union; checks and totals counted again from the cases
 * (totals.selected the shards' selections added, less the cases taken
 * once; totals.spec_errors the largest). Missing shards (2 of 4 given) are
 * said on err. WK_OK and the document in *json (malloc'd).
 */
wk_status wk_results_merge(struct wk_results *const *r, size_t n, char **json, FILE *err);
/* How many of the run's shards (1..N of --shard I/N) none of r[0, n) is:
 * a merge without them has the others' cases only. */
unsigned wk_results_missing_shards(struct wk_results *const *r, size_t n);

#endif
