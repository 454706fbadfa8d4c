/* SPDX-License-Identifier: MIT */
/*
 * journal.h - the run's journal (`wddmkit conform --journal FILE`,
 * `--resume FILE`): one JSON line per finished case, appended with one
 * write() as the case finishes, so what finished survives a runner that is
 * killed (even by SIGKILL), a closed terminal or a closed pipe. The reports
 * are rendered from it at the end of a run, and `--resume` reads it back to
 * run only the cases it lacks. The shape is in docs/conformance.md,
 * "The journal".
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
#define WK_JOURNAL_OPTIONS 9u

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

/* Starts a journal at path (truncating it) with its identity line.
 * Errors are printed to err. */
wk_status wk_journal_create(const char *path, const struct wk_journal_identity *id, const char *kit_version,
                            FILE *err);

/* Appends case c's line (one write(); the file is opened and closed around
 * it, so no case process inherits a descriptor to it). */
wk_status wk_journal_append(const char *path, const struct wk_case_report *c);

/* The one fsync of a run, at its end. */
void wk_journal_sync(const char *path);

/*
 * Checks path's identity line against want: WK_OK when equal, else
 * WK_E_INVALID_ARGUMENT with what differs printed to err ("driver digest",
 * "spec set", "option --timeout: 10 in the journal, 5 now"), or WK_E_IO.
 */
wk_status wk_journal_check(const char *path, const struct wk_journal_identity *want, FILE *err);

/*
 * Fills rep's cases (selected, prog and expectation set, in id order) from
 * the journal's case lines: each case with a line becomes finished with its
 * recorded verdict and result; rep's totals count them. A line that does
 * not parse is left out with a note to err (the last one may be cut by a
 * kill): its case runs again on --resume. Returns the cases filled.
 */
size_t wk_journal_fill(const char *path, struct wk_run_report *rep, FILE *err);

/* The selected cases of the run as a report without results (in id order,
 * prog and expectation set) and its environment; release with
 * wk_run_report_free. */
wk_status wk_journal_report_init(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                                 struct wk_run_report *rep, FILE *err);

#endif
