/* SPDX-License-Identifier: MIT */
/*
 * crash.h - from a fuzzer's crash file to a regression test: the work of
 * `wddmkit prog dump | repro | minimize | promote | triage` (cli/ parses
 * their arguments and calls these).
 *
 * One options structure serves the five commands (each reads the fields
 * its options set); one entry per command prints its report on stdout,
 * its errors on stderr, and returns the command's exit code:
 *   repro     0 pass, 1 fail (a rule violated, a check failed), 3 crash,
 *             4 timeout, 2 I/O or setup error;
 *   minimize  0 written, 1 the input passes (nothing to keep), 2 error;
 *   promote   0 written (or already there), 1 refused (with the reason),
 *             2 error;
 *   triage    0 every file of the folder ran, 2 some could not be run;
 *   prog dump 0 printed, 2 unreadable.
 * The entries never look at a command line or the environment for their
 * options: what the caller does not set here is not used (WK_REPLAY_DIR,
 * which names the replay binaries, aside).
 */
#ifndef WK_FUZZ_CRASH_H
#define WK_FUZZ_CRASH_H

#include <stddef.h>
#include <stdint.h>

struct wk_crash_options {
    const char *path;          /* the input file (triage: the folder) */
    const char *driver;        /* the driver under test; NULL: the reference driver */
    const char *binding;       /* --binding: its hardware binding's module, "none", or NULL
                                  (WK_BINDING, else the driver module's own export) */
    const char *out;           /* minimize: the file written */
    const char *harness;       /* the harness the input belongs to; NULL: the path says (wk_crash_harness_of) */
    const char *name;          /* promote: the regression's name; NULL: derived from the finding */
    const char *promote_root;  /* promote: the root of corpus/ and specs/ written to */
    uint32_t runs;             /* repro: runs, for determinism (at least 1) */
    uint64_t seed;             /* added to each program's vidmm seed */
    uint32_t timeout_ms;       /* a run's limit: past it, the run is a timeout */
    int no_calibrate;          /* run a program's own expectations (not the reference's answers) */
    const char *sarif;         /* triage: the SARIF log written (docs/sarif.md), or NULL */
    const char *kit_version;   /* triage --sarif: what the log says of the kit (NULL: "unknown") */
    const char *kit_commit;
};

int wk_crash_prog_dump(const struct wk_crash_options *o);
int wk_crash_repro(const struct wk_crash_options *o);
int wk_crash_minimize(const struct wk_crash_options *o);
int wk_crash_promote(const struct wk_crash_options *o);
int wk_crash_triage(const struct wk_crash_options *o);

/* The harness an input belongs to: o->harness, else the harness its path
 * names (corpus/<harness>/, <harness>-<engine>/), else the one of the
 * `wddmkit fuzz` campaign whose folder it is in, else fuzz_prog (saying
 * so on stderr, once). `path` is a file, or (triage) a folder of them. */
const char *wk_crash_harness_of(const struct wk_crash_options *o, const char *path);

/* Whether `prog dump` decodes inputs of harness (every harness but fuzz_elf). */
int wk_crash_decodable(const char *harness);

/* What `wddmkit fuzz` notes in its output folder (campaign.txt, beside
 * crashes/): the harness and the driver module of its last campaign. */
struct wk_crash_campaign {
    char file[4200];   /* the note's path */
    char harness[64];  /* "" when it names none (or an unknown one) */
    char driver[4096]; /* "" when the campaign ran the reference driver */
};

/* The note of the campaign folder `dir` (a crash folder: the note is in its
 * parent; or the campaign folder itself); 0 when there is none. */
int wk_crash_campaign_of(const char *dir, struct wk_crash_campaign *c);

/* The <harness>_replay binary of this build into path: WK_REPLAY_DIR, else
 * ../fuzz beside the running executable. 0 when it is there and
 * executable (moved down from the command line). */
int wk_fuzz_replay_binary(const char *harness, char *path, size_t size);

#endif
