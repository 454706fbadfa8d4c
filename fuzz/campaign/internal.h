/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the files of fuzz/campaign/ share: the campaign in
 * progress (struct campaign), the engines' processes and statistics, and
 * each file's functions the others call. Not part of fuzz.h: the command
 * line sees campaign.h only.
 *
 * Sizes are fixed: everything an engine writes is untrusted and read
 * through bounded buffers, and no allocation depends on it.
 */
#ifndef WK_FUZZ_CAMPAIGN_INTERNAL_H
#define WK_FUZZ_CAMPAIGN_INTERNAL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "campaign/campaign.h"

#define FPATH 4096                 /* every path we build */
#define MAX_JOBS WK_CAMPAIGN_MAX_JOBS
#define MAX_EXTRA WK_CAMPAIGN_MAX_EXTRA
#define MAX_SEED_DIRS WK_CAMPAIGN_MAX_SEED_DIRS
#define MAX_KNOWN WK_CAMPAIGN_MAX_KNOWN
#define SIG_TEXT WK_CAMPAIGN_SIG_TEXT
#define ARGV_SLOTS (32 + MAX_EXTRA)
#define ARGV_BYTES (48u << 10)     /* text of one engine command line */
#define TAIL_BYTES (64u << 10)     /* how much of a log we parse */
#define SEED_LIMIT (16ull << 20)   /* largest seed copied (replay_main's limit) */
#define PROGRESS_SECONDS 5
#define MAX_SIGS 256               /* crash signatures remembered from logs */

#define ENGINE_LIBFUZZER WK_CAMPAIGN_LIBFUZZER
#define ENGINE_AFL WK_CAMPAIGN_AFL

/* One engine command line: argv pointers into a private text buffer. */
struct cmdline {
    char *argv[ARGV_SLOTS + 1];
    int argc, overflow;
    size_t used;
    char text[ARGV_BYTES];
};

struct proc {
    pid_t pid;
    int alive, status, reaped;
    char label[16];
    char log[FPATH];
};

/* What the engines reported, summed or maxed over their processes. */
struct stats {
    uint64_t runs, eps, cov, ft, corpus, crashes, hangs, total_edges;
    int have_runs, have_eps, have_cov, have_ft, have_total;
    uint64_t stability_pct100; /* AFL++ main instance, hundredths of a percent */
    int have_stability;
    uint64_t queue[MAX_JOBS];  /* AFL++: each instance's queue entries */
    unsigned queues;
};

/* A campaign in progress. */
struct campaign {
    struct wk_campaign_options o;
    char repo[FPATH];             /* the kit's data: corpus/, harnesses/ */
    int have_repo;
    int checkout;                 /* repo is a source checkout (harnesses/NAME.c there) */
    char builds[FPATH];           /* the builds by name; "" none */
    unsigned max_len;
    char bin[FPATH], afl_fuzz[FPATH], driver[FPATH], dict[FPATH];
    char binding[FPATH];          /* WK_BINDING for every process: a path, "none", "" (the driver's own) */
    char out[FPATH], corpus[FPATH], crashes[FPATH], logs[FPATH], afl_out[FPATH];
    struct proc procs[MAX_JOBS];
    unsigned nprocs;
    /* Signatures the harness passes over (WK_FUZZ_IGNORE): those of the
     * starting inputs left out as already crashing, then --ignore-signature
     * and the environment's; their hit counters (WK_FUZZ_IGNORE_COUNTS). */
    char known[MAX_KNOWN][SIG_TEXT];
    unsigned nknown;
    char known_counts[FPATH];
    char reach_counts[FPATH];       /* the inputs that never reached the driver (WK_FUZZ_REACH_COUNTS) */
    time_t start;
    double start_mono;
    int interrupted, overran, killed;
    /* Starting inputs that already fail on the driver, moved to crashes/
     * as seed-NAME (seed_check.c): findings the run's result counts, unless
     * their signature was acknowledged (--ignore-signature, WK_FUZZ_IGNORE). */
    unsigned seed_findings;
};

static inline const char *engine_name(const struct campaign *c)
{
    return c->o.engine == ENGINE_AFL ? "afl" : "libfuzzer";
}

/* Where the starting inputs come from, and the prefix their copies in
 * corpus/ get: the repository's seeds and regressions, each --seeds
 * folder (folders may hold files of the same name). */
#define MAX_SOURCES (2 + MAX_SEED_DIRS)
struct seed_source {
    char dir[FPATH];
    char prefix[16];
};

/* Crash files and the signatures the engine logs gave them. */
struct sig_entry {
    char file[128];
    char sig[SIG_TEXT];
};

struct sig_table {
    struct sig_entry e[MAX_SIGS];
    unsigned n;
};

/* What a harness and a sanitizer printed about one input, line by line:
 * the harness's own verdict when it printed one (fuzz/driver/fuzz_driver.h:
 * "NAME:   violation in DDI: RULE: DDI: detail" or "NAME: FINDING: what" /
 * "NAME: KIT INVARIANT: what"), else the sanitizer's ERROR line with the
 * first frame that is not the runtime's. */
struct sig_state {
    char err[160], frame[160], finding[240], rule[32], sig[SIG_TEXT];
    int kit;
};

/* builds.c: the harness binary, the builds, the driver module */
int wk_campaign_is_repo(const char *dir);
int wk_campaign_locate_binary(struct campaign *c);
int wk_campaign_check_binary_engine(const struct campaign *c);
int wk_campaign_replay_binary(const struct campaign *c, char *out, size_t cap);
void wk_campaign_tools_binary(const struct campaign *c, const char *self, char *out, size_t cap);
void wk_campaign_warn_uninstrumented(const struct campaign *c);

/* seeding.c: the output folder and the starting inputs */
int wk_campaign_is_input_name(const char *name);
int wk_campaign_is_finding_name(const char *name);
/* ... less the starting inputs the seed check kept there (seed-NAME). */
int wk_campaign_is_engine_finding_name(const char *name);
long wk_campaign_copy_inputs(const char *src, const char *dst, const char *prefix);
uint64_t wk_campaign_count_files(const char *dir, time_t since);
int wk_campaign_prepare_output(struct campaign *c);

/* seed_check.c: starting inputs that already crash the driver */
void wk_campaign_leave_out_crashing(struct campaign *c, const struct seed_source *src, int n);

/* known.c: signatures the harness passes over */
int wk_campaign_add_known(struct campaign *c, const char *sig, const char *from);
int wk_campaign_pass_over_known(struct campaign *c);
/* Whether the user named sig as a known bug (--ignore-signature, or the
 * environment's WK_FUZZ_IGNORE): a starting input that fails with it is no
 * finding of the run (seed_check.c). */
int wk_campaign_user_known(const struct campaign *c, const char *sig);
void wk_campaign_print_known_hits(const struct campaign *c);

/* counters.c: a file of `count` zeroed 8-byte counters, logs/<name>, its
 * path into path; 0 after saying why (path then ""). */
int wk_campaign_zero_counters(const struct campaign *c, const char *name, size_t count, char *path, size_t size);

/* reach.c: the inputs that never reached the driver */
int wk_campaign_count_reach(struct campaign *c);
void wk_campaign_print_reach(const struct campaign *c);

/* logtext.c: bounded readers of engine output */
int wk_campaign_read_num(const char *p, const char *end, uint64_t *out);
int wk_campaign_num_after(const char *line, const char *end, const char *key, uint64_t *out);
void wk_campaign_trim_copy(char *dst, size_t cap, const char *src, size_t n);

/* signatures.c: crash signatures from what a harness and a sanitizer print */
void wk_campaign_sig_line(struct sig_state *st, const char *line, const char *end);
int wk_campaign_sig_found(const struct sig_state *st);
int wk_campaign_sig_make(struct sig_state *st, const char *fallback, char *out, size_t cap);
void wk_campaign_scan_crash_reports(const char *log, struct sig_table *t);
void wk_campaign_afl_signature(const char *name, char *out, size_t cap);

/* libfuzzer_log.c and afl_stats.c: what the engines report */
void wk_campaign_libfuzzer_stats(const struct campaign *c, struct stats *s, int final);
void wk_campaign_afl_stats(const struct campaign *c, struct stats *s, int final);
void wk_campaign_gather_afl_findings(const struct campaign *c);

/* engines.c: the engines' command lines and environment */
__attribute__((format(printf, 2, 3))) void wk_campaign_arg(struct cmdline *c, const char *fmt, ...);
void wk_campaign_print_command(FILE *f, const char *prefix, char *const argv[]);
int wk_campaign_extra_has(const struct wk_campaign_options *o, const char *name);
int wk_campaign_afl_preload_driver(const struct campaign *c);
int wk_campaign_afl_environment(const struct campaign *c);
int wk_campaign_start_engines(struct campaign *c);

/* supervise.c: processes, signals, stopping */
int wk_campaign_capture(const char *const argv[], char *text, size_t cap);
int wk_campaign_spawn(struct campaign *c, struct cmdline *cl, const char *cwd, const char *label,
                      const char *logname);
void wk_campaign_signal_all(struct campaign *c, int sig);
unsigned wk_campaign_reap(struct campaign *c);
void wk_campaign_monitor(struct campaign *c);
int wk_campaign_interrupts(void);
/* SIGINT, SIGTERM (and SIGHUP) counted by wk_campaign_interrupts, from 0;
 * the handlers they replaced kept in saved. */
struct saved_signals {
    struct sigaction int_, term, hup;
    int with_hup;
};
void wk_campaign_catch_signals(struct saved_signals *saved, int with_hup);
void wk_campaign_restore_signals(const struct saved_signals *saved);

/* summary.c: progress lines and the summary */
void wk_campaign_print_progress(const struct campaign *c);
void wk_campaign_print_log_tail(const char *path, int lines);
int wk_campaign_summarize(struct campaign *c, const char *self);

/* prune.c: --prune */
int wk_campaign_prune(struct campaign *c);

#endif
