/* SPDX-License-Identifier: MIT */
/*
 * runner.h - the case runner of `wddmkit conform`: selection, isolation,
 * scheduling, expectations and the run report the output formats read.
 *
 * The runner takes step programs, whoever made them (the spec loader, a
 * test), so it can be driven and tested without YAML. Each case runs in a
 * forked child that sends its struct wk_case_result back over a pipe: a
 * driver that crashes, hangs past the per-case timeout, trips a sanitizer or
 * exits without answering costs that one case (verdict crash or timeout),
 * never the run. `no_fork` runs cases in this process, for gdb.
 *
 * The report lists the selected cases in id order whatever -j was, so two
 * runs of the same cases produce the same report apart from times. Cases an
 * interrupted run never finished stay in the report with finished == 0 and
 * every output format leaves them out.
 *
 * Test hooks (environment, read once per run; for the runner's own tests):
 *   WK_RUNNER_TEST_ABORT_ID=<id>  the process running case <id> prints a
 *                                 sanitizer-style "SUMMARY: ..." line and calls
 *                                 abort() before running it (a child that
 *                                 really dies, as after a sanitizer report)
 *   WK_RUNNER_TEST_FLAKY_ID=<id>  case <id> fails its first attempt, whatever
 *                                 the program did, and runs normally afterwards
 */
#ifndef WK_RUNNER_H
#define WK_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "prog/conform.h"
#include "wddmkit/status.h"

struct wk_expectations;   /* expectations.h */
struct wk_caselist;       /* caselist.h */
struct wk_expectation;
struct wk_run_report;

struct wk_runner_options {
    const char *driver;               /* driver object; NULL: the built-in reference driver */
    int contract;                     /* wk_run_options.contract */
    int stress;                       /* wk_run_options.stress (with contract) */
    uint32_t skip_kinds;              /* wk_run_options.skip_kinds (a mode such as --gpu none) */
    const char *skip_reason[WK_CHECK_KIND_COUNT]; /* wk_run_options.skip_reason */
    enum wk_gpu_target gpu;           /* wk_run_options.gpu */
    int gpu_given;                    /* --gpu on the command line (kept for the rerun command) */
    const char *binding;              /* wk_run_options.binding */
    int binding_given;                /* --binding PATH on the command line (the rerun command) */
    enum wk_umd_format umd;           /* wk_run_options.umd */
    int umd_given;                    /* --umd on the command line (kept for the rerun command) */
    uint64_t seed;                    /* wk_run_options.seed */
    int has_seed;                     /* --seed given (kept for the rerun command) */
    uint32_t jobs;                    /* cases in parallel; 0: 1 */
    int no_fork;                      /* run in this process, one after another */
    double case_timeout;              /* seconds per case; <= 0: none */
    double total_timeout;             /* seconds for the run; <= 0: none */
    double resource_wait;             /* seconds a case may wait for a process or descriptor with
                                         nothing else running (launch_wait.c); <= 0: no wait */
    const char *const *filters;       /* fnmatch globs on ids; none: every case */
    size_t filter_count;
    const char *const *excludes;      /* fnmatch globs on ids to leave out */
    size_t exclude_count;
    const struct wk_caselist *caselist; /* --caselist: only the cases it names; NULL: no list */
    uint32_t shard_index;             /* 1..shard_count */
    uint32_t shard_count;             /* 0 or 1: no sharding */
    const struct wk_expectations *expectations;  /* NULL: none */
    int catch_signals;                /* SIGINT/SIGTERM/SIGHUP/SIGPIPE stop the run (the CLI) */
    /* Progress, in the runner's process: a case starts (first attempt) and
     * a case has its final verdict. Either may be NULL. */
    void (*on_start)(void *ctx, const struct wk_run_report *rep, size_t index);
    void (*on_done)(void *ctx, const struct wk_run_report *rep, size_t index);
    void *ctx;
};

enum wk_run_stop {
    WK_RUN_COMPLETE,                  /* every selected case finished */
    WK_RUN_INTERRUPTED,               /* SIGINT, SIGTERM, SIGHUP or SIGPIPE (signo) */
    WK_RUN_TOTAL_TIMEOUT              /* --total-timeout elapsed */
};

struct wk_case_report {
    const struct wk_prog *prog;       /* id, area, file: borrowed from the caller */
    int finished;                     /* 0: not run (interrupted or out of time) */
    enum wk_verdict verdict;          /* the typed result (see wk_runner_classify) */
    int unexpected;                   /* counts against the run (exit 1): wk_case_is_unexpected */
    struct wk_case_result result;     /* the first attempt as run (crash/timeout filled in) */
    const struct wk_expectation *expectation;   /* the entry that matched, or NULL */
    uint32_t attempts;                /* 2 when rerun */
    enum wk_verdict rerun_verdict;    /* the rerun's raw verdict when attempts == 2 */
    double seconds;                   /* wall time of the first attempt */
    char output[512];                 /* crash/timeout (of the first attempt, also for a
                                         flake): tail of what the child printed */
};

struct wk_run_report {
    struct wk_case_report *cases;     /* the selected cases, in id order */
    size_t count;
    size_t finished;
    size_t totals[WK_VERDICT_COUNT];  /* finished cases by verdict */
    size_t unexpected;
    enum wk_run_stop stop;
    int signo;                        /* the signal that interrupted the run */
    double seconds;
    /* Environment, for the reports */
    const char *driver;               /* NULL: the reference driver */
    int contract;                     /* the contract profile (wk_run_options.contract) */
    int stress;                       /* ... the stress one (wk_run_options.stress) */
    enum wk_gpu_target gpu;           /* what executed the driver's buffers (never AUTO once
                                         the runner has decided: cli/cli_conform.c) */
    int gpu_given;
    const char *binding;              /* the hardware binding's module, NULL: none */
    int binding_given;
    enum wk_umd_format umd;           /* with --gpu none: whether the kit-format cases ran */
    int umd_given;
    uint64_t seed;
    int has_seed;
    uint32_t jobs;
    uint32_t shard_index, shard_count;
    /* Provenance, set by the caller before the run and kept by it: the
     * kit's version ("unknown" by default) and git commit ("unknown" by
     * default), the driver module's SHA-256 and GNU build-id (hex; NULL:
     * the built-in reference driver, a file without one or not read). */
    const char *kit_version;
    const char *kit_commit;
    const char *driver_sha256;
    const char *driver_build_id;
    /* Spec errors of the run's files, set by the caller: the cases they
     * dropped did not run, and the run exits 2 (the reports list them). */
    char *const *spec_errors;         /* the messages kept ("FILE:LINE:COL: ...") */
    size_t spec_error_count;          /* messages in spec_errors */
    size_t spec_errors_total;         /* errors reported, kept or not */
    /* The specs roots, set by the caller: the folders the specs were
     * loaded from (a folder given, the folder of a file given). The
     * reports name a case's file relative to the root it is under
     * (wk_report_spec_file); none: as loaded. */
    const char *const *spec_roots;
    size_t spec_root_count;
    char host[128];                   /* uname: nodename sysname release machine */
    char start_time[32];              /* ISO 8601 UTC */
};

/*
 * Selects cases[] by the options' case list, filters, excludes and shard
 * (in that order: the shard splits what the others leave): fills
 * *index (malloc'd, free it) with the indices of the selected cases in id
 * order. Two cases with the same id are an error (WK_E_INVALID_ARGUMENT,
 * printed to err), as is a shard outside 1..N.
 */
wk_status wk_runner_select(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                           size_t **index, size_t *count, FILE *err);

/*
 * Runs the selected cases and fills *out (release with wk_run_report_free,
 * also after an error). Returns WK_OK when the run took place, complete or
 * not (see out->stop), or the selection's error.
 */
wk_status wk_runner_run(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                        struct wk_run_report *out, FILE *err);
void wk_run_report_free(struct wk_run_report *rep);
/* Counts rep's finished cases into its totals (finished, by verdict,
 * unexpected). */
void wk_run_report_count(struct wk_run_report *rep);
/* Copies every finished case of `from` over the case of `into` that runs
 * the same program (the same struct wk_prog), then counts into's totals:
 * a --resume's report made whole with the cases this run finished. */
void wk_run_report_take(struct wk_run_report *into, const struct wk_run_report *from);

/* Writes all of data to fd (a child's answer to its parent), retrying on
 * EINTR; gives up silently on an error: the parent sees a short answer. */
void wk_write_all(int fd, const void *data, size_t n);

/* The typed result of a raw verdict under an expectation (NULL: none):
 * expect fail|crash|timeout met ⇒ expected-fail, a pass instead ⇒
 * unexpected-pass; expect flake and a failure of any kind ⇒ flake; expect
 * skip ⇒ skip; anything else stays as run. */
enum wk_verdict wk_runner_classify(enum wk_verdict raw, const struct wk_expectation *e);

/* Whether a typed result counts against the run whatever the
 * expectations say: fail, crash, timeout, error, unexpected-pass. */
int wk_verdict_is_unexpected(enum wk_verdict v);

/* Whether a case's final verdict v under its expectation e (NULL: none)
 * counts against the run (wk_case_report.unexpected): the verdicts above,
 * and a flake that e does not list as one (an intermittent failure fails
 * the run until it is known). */
int wk_case_is_unexpected(enum wk_verdict v, const struct wk_expectation *e);

/* The process exit code for a finished run: 0 all as expected, 1 unexpected
 * results or a run cut short by --total-timeout, 128 + the signal when a
 * signal stopped it (130 SIGINT, 143 SIGTERM, 129 SIGHUP, 141 SIGPIPE). */
int wk_run_exit_code(const struct wk_run_report *rep);

/* ------------------------------------------------------------------ */
/* Reports (report_*.c, coverage.c)                                     */
/* ------------------------------------------------------------------ */

/* Live progress and the final summary on a terminal or a log. */
struct wk_console {
    FILE *out;
    int tty;                          /* redraw one progress line with \r */
    int quiet;                        /* only failures and the totals */
    size_t done;
    int line_open;                    /* a progress line is on screen */
    int width;                        /* terminal columns (tty) */
};
void wk_console_init(struct wk_console *c, FILE *out, int quiet);
void wk_console_on_start(void *ctx, const struct wk_run_report *rep, size_t index);
void wk_console_on_done(void *ctx, const struct wk_run_report *rep, size_t index);
/* The summary by area, each unexpected result in detail, the totals. */
void wk_console_summary(struct wk_console *c, const struct wk_run_report *rep);

/* The one command that reruns just this case (shell-quoted). */
void wk_report_rerun_command(const struct wk_run_report *rep, const struct wk_case_report *c, char *buf,
                             size_t size);

/* The files, each written where wk_report_target says (below); errors are
 * printed to err as "wddmkit: PATH: reason". */
wk_status wk_report_junit(const struct wk_run_report *rep, const char *path, FILE *err);
wk_status wk_report_tap(const struct wk_run_report *rep, const char *path, FILE *err);
wk_status wk_report_json(const struct wk_run_report *rep, const char *path, FILE *err);
/* SARIF 2.1.0 (report_sarif.c, docs/sarif.md): spec_root, the kit's specs
 * directory, is the SPECROOT base of the spec files outside the working
 * directory (NULL: none). */
wk_status wk_report_sarif(const struct wk_run_report *rep, const char *spec_root, const char *path, FILE *err);
/* The JSON report's schema_version (docs/json-report.md, "Versions"):
 * MAJOR.MINOR, MAJOR the number in its "format", MINOR grown by added keys. */
#define WK_JSON_SCHEMA_VERSION "1.3"
/* TAP streamed as cases finish (`--tap -`): the version line and the
 * provenance comments, one test line numbered `number` per finished case,
 * then the spec errors, the plan (1..N, last) and a "Bail out!" when the
 * run was cut short. */
void wk_tap_stream_begin(FILE *f, const struct wk_run_report *rep);
void wk_tap_stream_case(FILE *f, const struct wk_run_report *rep, const struct wk_case_report *c, size_t number);
void wk_tap_stream_end(FILE *f, const struct wk_run_report *rep, size_t number);

/* A JSON string, escaped (NULL: null): quotes, backslashes and control
 * characters escaped, invalid UTF-8 as \ufffd (report_json.c; the journal
 * writes its lines with it too). */
void wk_json_string(FILE *f, const char *s);

/* Helpers the writers share (report_common.c). */
const char *wk_run_signal_name(int signo);    /* "SIGSEGV"; "signal" when unknown */
const char *wk_case_area(const struct wk_case_report *c);   /* "-" when the program has none */

/* Where a report goes (report_target.c): */
enum wk_report_kind {
    WK_REPORT_STDOUT,   /* "-", or a path that is the file stdout writes (/dev/stdout, ...) */
    WK_REPORT_REPLACE,  /* a regular file or a new path (a symlink to a regular file: its target,
                           resolved): written to FILE.tmp.<pid> beside it, fsync()ed, renamed over it */
    WK_REPORT_THROUGH,  /* anything else that exists (a FIFO, a character device, a symlink to one,
                           a dangling symlink): opened by name and written, never replaced */
};
struct wk_report_target {
    enum wk_report_kind kind;
    char file[4096];    /* REPLACE: the file renamed over; THROUGH: the path; STDOUT: "-" */
};
/* What kind path is. WK_OK, or WK_E_INVALID_ARGUMENT with why (a
 * directory, a symlink loop, ...). */
wk_status wk_report_target(const char *path, struct wk_report_target *t, char *why, size_t cap);
/* The same, and whether the report can be written there at the end,
 * checked now, before any case runs: stdout open for writing; a replaced
 * file's folder exists and takes a new file (one is made and removed); a
 * FIFO is writable (access(2): opening it would end its reader); anything
 * else opens for writing (a dangling symlink's target is created). */
wk_status wk_report_check(const char *path, struct wk_report_target *t, char *why, size_t cap);
/* Gives stdout to the reports: they keep a private copy of descriptor 1
 * (close-on-exec), and descriptor 1 becomes stderr's, so the console, the
 * kit's notices and whatever a loaded driver prints cannot mix into a
 * report. 0, or -1 (errno). Once per process; later calls do nothing. */
int wk_report_take_stdout(void);
/* The reports' stdout stream (after wk_report_take_stdout, the copy). */
FILE *wk_report_stdout(void);
/* In a forked case: closes the reports' copy of stdout (the case's output
 * goes to its own pipe). */
void wk_report_stdout_close_in_child(void);
/* One report being written. */
struct wk_report_file {
    FILE *f;
    const char *path;                 /* as given, for messages */
    struct wk_report_target t;
    char tmp[4200];                   /* REPLACE: the temporary file */
};
/* Opens where path says (a FIFO: waits for its reader). WK_OK or WK_E_IO,
 * said to err. */
wk_status wk_report_open(struct wk_report_file *rf, const char *path, FILE *err);
/* Flushes and, for a replaced file, fsync()s and renames it over the
 * file; closes all but stdout. WK_OK or WK_E_IO, said to err. */
wk_status wk_report_commit(struct wk_report_file *rf, FILE *err);
/* Decodes one UTF-8 sequence of s[0..n); invalid bytes decode as U+FFFD,
 * one byte at a time. Returns the bytes consumed (>= 1 when n > 0). */
size_t wk_utf8_next(const char *s, size_t n, uint32_t *cp);
/* The rule a failure is about: the result's rule, else the rule a negative
 * case must trip, else "" (a failed check that broke no rule: the rules
 * the case covers are not its cause, and a CI tab must not blame them). */
void wk_report_rule(const struct wk_case_report *c, char *buf, size_t size);
/* The case's spec file relative to the specs root it was loaded from
 * (rep->spec_roots, the longest that holds it: `smoke.yaml`,
 * `regressions/x.yaml`), else as loaded; NULL when the case has no file. */
const char *wk_report_spec_file(const struct wk_run_report *rep, const struct wk_case_report *c);
/* The rules the case covers, "A, B"; "" when none. */
void wk_report_covers(const struct wk_case_report *c, char *buf, size_t size);
/* "contract" or "reference". */
const char *wk_report_profile(const struct wk_run_report *rep);
/* Checks the contract profile left out, over the finished cases. */
uint64_t wk_report_not_evaluated(const struct wk_run_report *rep);
/* Checks of one kind over some cases: run, skipped, and the reason of the
 * first skip (NULL when none; `mixed` when some case gave another). */
struct wk_check_total {
    uint64_t run, skipped;
    const char *reason;
    int mixed;
};
/* Adds a case's checks (a finished one's) to t[WK_CHECK_KIND_COUNT]. */
void wk_check_totals_add(struct wk_check_total *t, const struct wk_case_report *c);
/* Zeroes t[WK_CHECK_KIND_COUNT] and adds every finished case's checks. */
void wk_report_check_totals(const struct wk_run_report *rep, struct wk_check_total *t);
/* A case's failed step as "3 (fill, line 42)" or "" for the whole case. */
void wk_report_step(const struct wk_case_report *c, char *buf, size_t size);
/* Where a spec error is: its message up to the first ": " ("FILE:LINE:COL"),
 * the whole message when it has none. */
void wk_report_spec_error_where(const char *message, char *buf, size_t size);

/* What a run exercised (--coverage). */
#define WK_COVERAGE_PAGING_OPS 18
struct wk_coverage {
    uint32_t rule_count;              /* the catalogue's size (at most WK_RULE_CAPACITY) */
    uint64_t rules[WK_RULE_WORDS];    /* exercised rules, bit per catalogue index */
    uint64_t paging_ops[WK_COVERAGE_PAGING_OPS];  /* BuildPagingBuffer calls by operation */
    uint64_t ddi_calls[WK_DDI_COUNT];
    uint64_t unmodelled_calls[WK_VIDMM_UNMODELLED_CALLBACKS]; /* callbacks the kit does not model */
};
void wk_coverage_compute(const struct wk_run_report *rep, struct wk_coverage *out);
/* Exercised and unexercised rules, paging operations and DDIs, with counts.
 * Returns the number of catalogue rules left unexercised. */
uint32_t wk_coverage_print(const struct wk_coverage *c, FILE *out);
/* The unmodelled callbacks a run called, with counts (nothing when none). */
void wk_coverage_print_unmodelled(const uint64_t *calls, FILE *out);

#endif
