/* SPDX-License-Identifier: MIT */
/*
 * spec.h - the YAML spec loader: spec files in, step programs out.
 *
 * A spec file (docs/spec-format.md) holds the cases of one DDI area; each
 * case compiles to one heap-allocated struct wk_prog (prog.h), the form the
 * runner, the fuzzers and `wddmkit spec dump` share. Loading is strict and
 * never stops at the first problem: every error is collected as one line
 * "file:line:col: message" (the key, the expected form and what was seen),
 * the faulty case is dropped, and loading goes on with the next case, so a
 * lint run shows every error at once and the valid cases of a file with a
 * bad case are still loaded.
 *
 * Untrusted input (the spec fuzzer calls wk_spec_load_buffer) is bounded
 * before anything is allocated: 1 MiB per file, YAML depth 32, 200,000
 * nodes, 4,096-byte scalars, the program limits of prog.h, WK_SPEC_MAX_*
 * cases; anchors and aliases are rejected, so nothing expands.
 */
#ifndef WK_SPEC_H
#define WK_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "prog/prog.h"
#include "wddmkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of the loader (docs/spec-format.md, "Limits"). */
#define WK_SPEC_MAX_FILE_SIZE (1u << 20)   /* bytes per spec file */
#define WK_SPEC_MAX_DEPTH 32u              /* nested YAML collections */
#define WK_SPEC_MAX_NODES 200000u          /* YAML nodes per file */
#define WK_SPEC_MAX_SCALAR 4096u           /* bytes per YAML scalar */
#define WK_SPEC_MAX_CASES_PER_FILE 512u
#define WK_SPEC_MAX_CASES 4096u            /* per wk_spec_set */
#define WK_SPEC_MAX_DIR_ENTRIES 4096u      /* per folder wk_spec_load_dir reads */
#define WK_SPEC_MAX_DIR_DEPTH 8u           /* subfolder nesting */

/* ------------------------------------------------------------------ */
/* Diagnostics                                                          */
/* ------------------------------------------------------------------ */

#define WK_DIAG_DEFAULT_MAX 200u        /* messages kept when max is 0 */
#define WK_DIAG_MESSAGE_SIZE 1024u      /* longest message kept (bytes, with NUL) */

/*
 * The errors of one or more loads: each message is one line without a
 * newline, "file:line:col: message" (or "path: message" for I/O errors,
 * which have no position). The first `max` messages are kept; `errors`
 * counts all of them. When `echo` is set every message is also written to
 * it as it arrives (how `spec lint` prints every error, kept or not).
 * A warning ("file:line:col: warning: ...": something deprecated that still
 * loads) is no error: it is counted in `warnings` and written to `warn`
 * when set (`spec lint`, `conform`), never kept (a fuzzed spec is quiet).
 */
struct wk_diag {
    char **messages;
    uint32_t count;              /* messages kept */
    uint32_t max;                /* messages kept at most */
    uint32_t errors;             /* errors reported, kept or not */
    FILE *echo;                  /* optional */
    uint32_t warnings;           /* warnings reported */
    FILE *warn;                  /* optional: where warnings are written */
};

void wk_diag_init(struct wk_diag *d, uint32_t max);
void wk_diag_free(struct wk_diag *d);
/* Records one error; the text is truncated to WK_DIAG_MESSAGE_SIZE - 1. */
void wk_diag_addf(struct wk_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records one warning (see above). */
void wk_diag_warnf(struct wk_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes the kept messages, one a line, and "... N more" when some were dropped. */
void wk_diag_print(const struct wk_diag *d, FILE *out);

/* ------------------------------------------------------------------ */
/* Spec sets                                                            */
/* ------------------------------------------------------------------ */

/* Loaded cases: ids unique across the set; programs owned by the set. */
struct wk_spec_set {
    struct wk_prog **progs;
    uint32_t count;
    uint32_t capacity;
};

void wk_spec_set_init(struct wk_spec_set *set);
void wk_spec_set_free(struct wk_spec_set *set);

/*
 * Loads the cases of one spec held in memory (what the fuzzer calls); `name`
 * is the file name messages carry. Valid cases are added to `set` even when
 * other cases of the same buffer are not. Returns WK_OK when the buffer had
 * no error; WK_E_INVALID_ARGUMENT when some error was reported to `d`;
 * WK_E_LIMIT when the buffer exceeds WK_SPEC_MAX_FILE_SIZE or the set is
 * full; WK_E_NO_MEMORY.
 */
wk_status wk_spec_load_buffer(struct wk_spec_set *set, const char *name, const uint8_t *data,
                              size_t size, struct wk_diag *d);

/* Reads a file (at most WK_SPEC_MAX_FILE_SIZE bytes) and loads it; WK_E_IO
 * when it cannot be read. */
wk_status wk_spec_load_file(struct wk_spec_set *set, const char *path, struct wk_diag *d);

/* Loads every *.yaml file of a folder and its subfolders (specs/regressions/),
 * files and folders together in byte-wise name order; dotfiles are skipped.
 * Returns the first failing status, after loading everything else. */
wk_status wk_spec_load_dir(struct wk_spec_set *set, const char *dir, struct wk_diag *d);

/* The case with this id, or NULL. */
const struct wk_prog *wk_spec_find(const struct wk_spec_set *set, const char *id);

#ifdef __cplusplus
}
#endif

#endif /* WK_SPEC_H */
