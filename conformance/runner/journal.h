/* SPDX-License-Identifier: MIT */
/*
 * journal.h - the run's journal (`wddmkit conform --journal FILE`,
 * `--resume FILE`): one JSON line per finished case, appended with one
 * write() as the case finishes, so what finished survives a runner that is
 * killed (even by SIGKILL), a closed terminal or a closed pipe, and
 * `--resume` reads it back to run only the cases it lacks. The shape is in
 * docs/conformance.md, "The journal".
 *
 * The file is the record of a run that may be killed, not its source of
 * truth while it runs: any process of the user may write it, a hostile
 * driver among them (it can find the runner's command line in /proc). So
 * the runner keeps in memory every byte it put in the file (and, on
 * --resume, the bytes it read there at the start); its reports come from
 * what it received, never from the file read back, and at the end of the
 * run it compares the file with its memory and writes it again whole when
 * someone else changed it (docs/threat-model.md).
 *
 * The first line is the run's identity: the driver and a digest of its
 * module file, a digest of the spec set (every loaded case's id and file,
 * and the bytes of those files) and the options that change verdicts. A
 * journal is resumed only under the same identity: a result of another
 * driver, spec or option would otherwise be reported as this run's.
 */
#ifndef WK_JOURNAL_H
#define WK_JOURNAL_H

#include <stddef.h>
#include <stdio.h>

#include "runner.h"

#define WK_JOURNAL_FORMAT "wddmkit-journal-1"
#define WK_JOURNAL_OPTIONS 11u
#define WK_JOURNAL_MAX_BYTES (256u << 20) /* a --resume's file: about 30,000 cases */

/* A run's journal: the file and what the runner knows it holds. */
struct wk_journal {
    const char *path;
    char *text;                       /* the file's bytes as the runner wrote or read them */
    size_t len, cap;
    int write_failed;                 /* a line did not reach the file (memory has it) */
};

struct wk_journal_identity {
    const char *driver;               /* NULL: the built-in reference driver */
    char driver_digest[64];           /* "fnv1a64:HEX:SIZE", "built-in" */
    char spec_set[64];                /* "fnv1a64:HEX:CASES" */
    struct {
        const char *name;
        char value[512];
    } options[WK_JOURNAL_OPTIONS];    /* the options that change verdicts or the selection */
};

/*
 * The identity of a run of the loaded cases under o; expectations is the
 * expectations file's path (NULL: none). Files that cannot be read are
 * digested as "unreadable" (their cases then fail to load anyway).
 */
void wk_journal_identity(struct wk_journal_identity *id, const struct wk_prog *const *loaded, size_t n,
                         const struct wk_runner_options *o, const char *expectations);

/* Starts j's journal at path (truncating it) with its identity line.
 * Errors are printed to err. Release j with wk_journal_close. */
wk_status wk_journal_create(struct wk_journal *j, const char *path, const struct wk_journal_identity *id,
                            const char *kit_version, FILE *err);

/*
 * Opens path for --resume: reads it whole into j (at most
 * WK_JOURNAL_MAX_BYTES) and checks its identity line against want: WK_OK
 * when equal, else WK_E_INVALID_ARGUMENT with what differs printed to err
 * ("driver digest", "spec set", "option --timeout: 10 in the journal, 5
 * now"), or WK_E_IO. Release j with wk_journal_close either way.
 */
wk_status wk_journal_resume(struct wk_journal *j, const char *path, const struct wk_journal_identity *want,
                            FILE *err);

/* Appends case c's line (one write(); the file is opened and closed around
 * it, so no case process inherits a descriptor to it), and keeps it in j. */
wk_status wk_journal_append(struct wk_journal *j, const struct wk_case_report *c);

/*
 * Fills rep's cases (selected, prog and expectation set, in id order) from
 * the case lines j holds (a --resume's file as read): each case with a line
 * becomes finished with its recorded verdict and result; rep's totals
 * count them. A line that does not parse is left out with a note to err
 * (the last one may be cut by a kill): its case runs again on --resume.
 * Returns the cases filled.
 */
size_t wk_journal_fill(const struct wk_journal *j, struct wk_run_report *rep, FILE *err);

/*
 * The end of a run: compares the file with what j holds. When another
 * process changed it (or a line did not reach it), says so on err and
 * writes it again whole from j, so a --resume reads the runner's verdicts;
 * then the run's one fsync. Frees j. 1: the file was as the runner left it.
 */
int wk_journal_close(struct wk_journal *j, FILE *err);

/* Frees j without a look at the file (a refused --resume); j may be
 * closed or zeroed already. */
void wk_journal_forget(struct wk_journal *j);

/* The selected cases of the run as a report without results (in id order,
 * prog and expectation set) and its environment; release with
 * wk_run_report_free. */
wk_status wk_journal_report_init(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                                 struct wk_run_report *rep, FILE *err);

#endif
