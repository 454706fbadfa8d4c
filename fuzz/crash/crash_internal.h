/* SPDX-License-Identifier: MIT */
/*
 * crash_internal.h - what the files of fuzz/crash/ share and nothing above
 * fuzz/ sees (crash.h is their API): a run's outcome and how it is
 * classified, the program loaded from an input and its calibration, the
 * reduction that keeps a signature, and the harnesses whose inputs are the
 * fixture and one Patch or Render call.
 *
 *   harness.c        which harness an input belongs to
 *   load.c           reading and writing inputs and programs
 *   outcome.c        a run in a forked child: a program, or a replay binary
 *   signature.c      what a run's outcome is called (its signature)
 *   calibrate.c      a program as fuzz_prog judges it
 *   fixture.c        fuzz_patch and fuzz_render inputs as programs
 *   reduce.c         the reduction of a program keeping its signature
 *   replay_binary.c  where a harness's replay binary is
 *   driver_log.c     the runs' stderr of minimize and promote, each line once
 *   dump.c, repro.c, minimize.c, promote.c, triage.c   the commands
 *   triage_sarif.c   triage --sarif: the signatures as a SARIF log
 */
#ifndef WK_FUZZ_CRASH_INTERNAL_H
#define WK_FUZZ_CRASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "conformance.h"
#include "util.h"
#include "crash/crash.h"

#define PROG_FILE_LIMIT (1u << 20)   /* bytes of an input file read */
#define MINIMIZE_MAX_TESTS 20000u    /* runs one reduction may spend */
#define NFRAMES 3                    /* frames kept of a child that died */

/* ---- load.c ---- */

/* wk_file_read, printing "wddmkit: PATH: reason" on failure (the message
 * every command printed). */
wk_status wk_crash_read_file(const char *path, uint64_t limit, uint8_t **data, size_t *size);
/* A deep copy (render and patch payloads included), or NULL. */
struct wk_prog *wk_crash_prog_dup(const struct wk_prog *src);
void wk_crash_prog_del(struct wk_prog *p);
/* A fuzz_prog file, or a fuzz_paging one as the program that harness runs;
 * NULL after printing why. */
struct wk_prog *wk_crash_load_program(const char *path, size_t *bytes, const char *harness);
size_t wk_crash_encoded_size(const struct wk_prog *p);
/* Write to `path` through a temporary file; -1 after printing why. */
int wk_crash_save_bytes(const uint8_t *buf, size_t n, const char *path);
int wk_crash_save_program(const struct wk_prog *p, const char *path);

/* ---- harness.c ---- */

/* Inputs that are step programs, or become one (fuzz_prog, fuzz_paging). */
int wk_crash_is_prog(const char *harness);
/* Whether a step program's verdict on o->driver is the harness's replay
 * (its differential against the reference), not the calibrated program's. */
int wk_crash_judged_by_harness(const struct wk_crash_options *o, const char *harness);
/* The folder of a file (".", for a bare name) into dir. */
void wk_crash_folder_of(const char *path, char *dir, size_t size);

/* ---- driver_log.c ---- */

#define WK_LOG_RUN_LIMIT (64u << 10) /* bytes of one run's stderr kept while folding */

/* One distinct line of a driver's runs, and how often it came. */
struct wk_log_line {
    char *text;
    uint32_t hash;
    uint64_t times;                   /* in all */
    uint32_t runs;                    /* runs that printed it */
    uint32_t last_run;                /* the last of them, numbered from 1 */
    int cut;                          /* longer than kept: printed with " [...]" */
};

/* The stderr of one driver's runs, each distinct line once. */
struct wk_log_fold {
    struct wk_log_line *lines;        /* in the order they first came */
    uint32_t count, cap;
    uint32_t runs;                    /* runs taken, whether they printed or not */
    uint64_t unkept;                  /* lines past the distinct ones kept */
    uint64_t lost;                    /* bytes of runs' output past WK_LOG_RUN_LIMIT */
};

/* Takes one run's output (len bytes, `lost` more not kept). */
void wk_log_fold_run(struct wk_log_fold *f, const char *text, size_t len, size_t lost);
/* Each line once: " (repeated in 19 runs)" when it came once in each of
 * several runs, " (32 times in 2 runs)" otherwise when it came again. */
void wk_log_fold_print(const struct wk_log_fold *f, FILE *out);
int wk_log_fold_empty(const struct wk_log_fold *f);
void wk_log_fold_free(struct wk_log_fold *f);

/* A command's fold (minimize, promote): from begin to end, every run of a
 * program in a child (wk_crash_run_child) gives its stderr to the fold of
 * the driver it ran (NULL: the reference driver), which end prints on
 * stderr, under the command's name, and frees. Off, a child's stderr is
 * this process's (repro: one run, its lines as they come). */
void wk_crash_fold_begin(const char *command, const char *driver);
int wk_crash_folding(void);
void wk_crash_fold_take(const char *driver, const char *text, size_t len, size_t lost);
void wk_crash_fold_end(void);

/* ---- outcome.c, signature.c ---- */

enum cls { CLS_PASS, CLS_FAIL, CLS_CRASH, CLS_TIMEOUT, CLS_ERROR };
extern const char *const wk_crash_cls_word[]; /* "pass", "fail", ... */
extern const int wk_crash_cls_exit[];         /* repro's exit code of each class */

struct outcome {
    enum cls cls;
    int answered;                     /* the child sent its answer: exactly answer_size bytes */
    size_t answer_len, answer_extra;  /* bytes of the answer that arrived, and past answer_size */
    char refused[200];                /* program runs: why the answer was not the kit's sealed
                                         record (isolation.h), or "" */
    int signo;                        /* the child died of this signal */
    int exit_code;                    /* or exited so without answering */
    int wait_status;                  /* the child's, as waitpid gave it */
    int driver_crash;                 /* program runs: what the crash slot said (WK_VIDMM_CRASH_THREAD, _EXIT), 0 */
    char driver_crash_line[320];      /* and its DRV-CRASH-001 message (wk_vidmm_crash_slot_describe) */
    struct wk_case_result r;          /* program runs: the answer */
    char frames[NFRAMES][200];        /* top frames of a child that died */
    uint32_t nframes;
    char sig[400];                    /* the signature (class aside) */
    char detail[512];                 /* one line: expected / seen */
    char sanitizer[200];              /* a sanitizer report's class (log_class), or "" */
    struct wk_crash_frame {           /* where a sanitizer report says it went wrong (wk_crash_log_frame) */
        char function[128];           /* "" when the report names none (UBSan) */
        char file[256];               /* the source file when symbolized, else "" */
        uint32_t line, column;        /* 0 when unknown */
        char module[256];             /* unsymbolized: the module and the offset in it */
        uint64_t offset;
    } frame;
    int input_refused;                /* an error of the input itself (an adapter the GPU model refuses),
                                         not of the setup: triage still ran it */
    /* What the driver did to the run's shepherd (isolation.h): stopped it,
     * killed it before its case ended, or sent it a stop signal it
     * ignored; each is a crash, whatever the case said. */
    enum { SHEPHERD_FINE, SHEPHERD_STOPPED, SHEPHERD_KILLED, SHEPHERD_SIGNALLED } shepherd;
    int shepherd_signo;               /* the signal that killed it, or that it ignored */
};

/* What a forked child runs: it writes its answer to fd. */
typedef void child_fn(const void *arg, int fd);

/* A program to run in a child. */
struct job {
    const struct wk_prog *p;
    const char *driver;               /* NULL: the reference driver */
    uint64_t seed;
};

/* Runs fn in a forked child that writes `answer_size` bytes to its pipe;
 * `driver` is the one it runs (NULL: the reference driver), whose fold
 * takes its stderr while a command folds. */
void wk_crash_run_child(child_fn *fn, const void *arg, const char *driver, uint32_t timeout_ms, void *answer,
                        size_t answer_size, struct outcome *o);
/* One run of a program in a child (driver NULL: the reference), with its signature. */
void wk_crash_run_program(const struct wk_prog *p, const char *driver, const struct wk_crash_options *op,
                          struct outcome *o);
/* The binding a program run of `driver` uses: WK_BINDING, or the driver's own. */
const char *wk_crash_binding_of(const char *driver);
/* Runs `<harness>_replay FILE` with WK_DRIVER in a child. */
void wk_crash_run_replay(const char *harness, const char *file, const char *driver, uint32_t timeout_ms,
                         struct outcome *o);
void wk_crash_print_outcome(const struct outcome *o);

void wk_crash_make_signature(struct outcome *o, const struct wk_prog *p);
/* The signature and detail of a run whose shepherd the driver stopped or
 * killed (o->shepherd). */
void wk_crash_shepherd_signature(struct outcome *o);
int wk_crash_same_result(const struct outcome *a, const struct outcome *b);
/* The sanitizer's class of a failure in a log, addresses masked; "" for none. */
void wk_crash_log_class(const char *log, char *out, size_t size);
/* The first frame of a sanitizer report that is not the runtime's: ASan's
 * and LeakSanitizer's "#N 0x... in FUNCTION FILE:LINE:COL" (or "(MODULE+0xOFF)"
 * unsymbolized), UBSan's "FILE:LINE:COL: runtime error"; zeroed when none. */
void wk_crash_log_frame(const char *log, struct wk_crash_frame *f);
/* A replay binary's exit status and stderr as an outcome. */
void wk_crash_classify_replay(struct outcome *o, int status, const char *log);
/* The signature of a crash the crash slot explains (o->driver_crash):
 * "DRV-CRASH-001 (...) in DxgkDdiRender", as conform names it. */
void wk_crash_slot_signature(struct outcome *o);

/* ---- calibrate.c ---- */

/* A program file as fuzz_prog runs it: decoded, seen as the harness sees
 * it, calibrated (unless no_calibrate). Prints one line about it unless
 * quiet: the input's steps, the calibrated program's and why they differ;
 * NULL after printing why. */
struct wk_prog *wk_crash_prepare(const struct wk_crash_options *o, const char *path, int quiet, size_t *bytes);
/* The last step expects the status the reference driver answers. */
void wk_crash_expect_reference_status(struct wk_prog *p, const struct wk_crash_options *op);
/* Whether step s writes wherever the memory manager placed things: a fence
 * or a physical touch at an absolute address, or a fence past the end of
 * its allocation (as the program's create_allocation steps size it). */
int wk_crash_placement_bound(const struct wk_prog *p, const struct wk_step *s);
/* For every placement-bound step of p, run on the reference driver: the
 * allocation (program index) whose bytes its target held right before it
 * ran, in anchor[i], and the offset in offset[i]; anchor[i] -1 for the
 * other steps and where no resident allocation held the target. 0, or -1
 * when the reference could not run p. */
int wk_crash_anchor_steps(const struct wk_prog *p, const struct wk_crash_options *op, int32_t *anchor,
                          uint64_t *offset);

/* ---- reduce.c ---- */

struct mini {
    const struct wk_crash_options *o;
    struct outcome want;              /* the signature to keep */
    int need_ref_pass;                /* and the reference must still pass */
    int problems;                     /* YAML problems of the best so far: never more */
    uint32_t tests;
};

/* An edit of a copy of *best; the copy replaces *best when it keeps. */
typedef void edit_fn(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t count);
/* How many things `edit` works on in *p (steps, records, entries). */
typedef uint32_t count_fn(const struct wk_prog *p, uint32_t where);

/* The signature of p on the driver, and whether the reference must keep
 * passing. -1 (printed) when p passes. */
int wk_crash_mini_init(struct mini *m, const struct wk_crash_options *o, const struct wk_prog *p);
int wk_crash_keeps(struct mini *m, const struct wk_prog *cand);
int wk_crash_try_edit(struct mini *m, struct wk_prog **best, edit_fn *edit, uint32_t where, uint32_t at, uint32_t n);
void wk_crash_ddmin(struct mini *m, struct wk_prog **best, count_fn *count, edit_fn *cut, uint32_t where);
count_fn wk_crash_count_steps;
edit_fn wk_crash_cut_steps;
/* The whole reduction of a program; that of the last step of a fuzz_patch
 * or fuzz_render program (the harness's shape kept). */
void wk_crash_minimize_prog(struct mini *m, struct wk_prog **best);
void wk_crash_minimize_patch_step(struct mini *m, struct wk_prog **best);
void wk_crash_minimize_render_step(struct mini *m, struct wk_prog **best);

/* ---- fixture.c ---- */

/* The harnesses whose inputs are the fixture and one last step (patch or
 * render): how an input becomes that program and back, and how the last
 * step is reduced so that the program keeps the harness's shape. */
struct fixture_harness {
    const char *name;
    int (*from_prog)(const struct wk_prog *p, uint8_t **data, size_t *size, char *why, size_t why_size);
    void (*reduce)(struct mini *m, struct wk_prog **best);
};

const struct fixture_harness *wk_crash_fixture_harness_of(const char *harness);
/* A fuzz_patch or fuzz_render file as the program that makes its call,
 * folded for the context of the driver; NULL after printing why. */
struct wk_prog *wk_crash_load_fixture_input(const struct wk_crash_options *o, const struct fixture_harness *h,
                                            size_t *bytes);
/* The program back in the harness's format (malloc'd), or NULL. */
uint8_t *wk_crash_input_bytes(const struct fixture_harness *h, const struct wk_prog *p, size_t *n);

/* ---- triage.c, triage_sarif.c ---- */

/* The files of one signature: its class, how many, the smallest, and the
 * outcome of the first (its rule, frames, sanitizer frame). */
struct triage_group {
    enum cls cls;
    char sig[400];
    uint32_t count;
    char *smallest;
    size_t smallest_size;
    struct outcome first;
};

/* `triage --sarif FILE`: one result per group but those that passed
 * (docs/sarif.md, "triage"). 0, or 2 after saying why. */
int wk_crash_triage_sarif(const struct wk_crash_options *o, const char *harness, const struct triage_group *groups,
                          size_t count);

/* ---- dump.c ---- */

/* The decoded input of a replayed harness, after repro's runs (best effort). */
void wk_crash_print_decoded(const struct wk_crash_options *o, const char *harness);

#endif
