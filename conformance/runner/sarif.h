/* SPDX-License-Identifier: MIT */
/*
 * sarif.h - SARIF 2.1.0 logs (docs/sarif.md): `wddmkit conform --sarif`
 * (report_sarif.c) and `wddmkit triage --sarif` (fuzz/crash/triage_sarif.c)
 * write one run each through the pieces here (sarif_log.c): a small
 * structural writer over the JSON report's string escaper (wk_json_string:
 * no second escaper), the tool and its rules (the contract-rule catalogue,
 * then the kit's own ids), and artifact locations relative to the run's
 * base ids.
 */
#ifndef WK_RUNNER_SARIF_H
#define WK_RUNNER_SARIF_H

#include <stdint.h>
#include <stdio.h>

/* The schema a log names in "$schema": the OASIS standard's (errata 01). */
#define WK_SARIF_SCHEMA_URI "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

/* The base ids of artifact locations (run.originalUriBaseIds): the working
 * directory the command ran in (a CI job's checkout), and the specs root
 * (the kit's specs/). */
#define WK_SARIF_SRCROOT "%SRCROOT%"
#define WK_SARIF_SPECROOT "SPECROOT"

/* ---- the structural writer ---- */

#define WK_JW_DEPTH 16
/* Members and elements with commas and two-space indentation, every string
 * through wk_json_string. A key is NULL inside an array. */
struct wk_jw {
    FILE *f;
    int depth;
    int count[WK_JW_DEPTH];
};
void wk_jw_init(struct wk_jw *w, FILE *f);
void wk_jw_object(struct wk_jw *w, const char *key);   /* opens {, under key */
void wk_jw_array(struct wk_jw *w, const char *key);    /* opens [ */
void wk_jw_end(struct wk_jw *w, char close);           /* '}' or ']' */
void wk_jw_string(struct wk_jw *w, const char *key, const char *value); /* NULL: null */
void wk_jw_uint(struct wk_jw *w, const char *key, uint64_t value);
void wk_jw_bool(struct wk_jw *w, const char *key, int value);
/* {"text": text} under key: SARIF's message and multiformatMessageString. */
void wk_jw_message(struct wk_jw *w, const char *key, const char *text);

/* ---- the log ---- */

/* The kit's own rule ids, for results no contract rule names. */
enum wk_sarif_kit_rule {
    WK_SARIF_KIT_CHECK,            /* wddmkit/check: a check failed, no rule broken */
    WK_SARIF_KIT_NOT_TRIPPED,      /* wddmkit/not-tripped: a negative case's rule did not fire */
    WK_SARIF_KIT_CRASH,            /* wddmkit/crash */
    WK_SARIF_KIT_TIMEOUT,          /* wddmkit/timeout */
    WK_SARIF_KIT_ERROR,            /* wddmkit/error: the kit could not run it */
    WK_SARIF_KIT_UNEXPECTED_PASS,  /* wddmkit/unexpected-pass */
    WK_SARIF_KIT_FAIL,             /* wddmkit/fail: triage, a failure named by no rule */
    WK_SARIF_KIT_RULE_COUNT
};
/* "wddmkit/check", ... */
const char *wk_sarif_kit_rule_id(enum wk_sarif_kit_rule r);
/* The index of a rule id in the log's tool.driver.rules (the catalogue in
 * its order, then the kit's ids, then triage's crash kinds when extra is
 * given); -1 when it has none. */
int wk_sarif_rule_index(const char *id, const char *const *extra, uint32_t extra_count);

/* What tool.driver and the run say of the kit. */
struct wk_sarif_tool {
    const char *version;     /* the kit's version; "unknown" leaves semanticVersion out */
    const char *commit;      /* the kit's git commit, or "unknown" */
    const char *const *extra_rules;   /* more kit rule ids (triage: wddmkit/crash/<kind>), or NULL */
    const char *const *extra_texts;   /* their descriptions */
    uint32_t extra_count;
};

/* Opens the log and its one run: $schema, version, tool.driver with every
 * rule, and leaves the writer inside the run object. */
void wk_sarif_begin(struct wk_jw *w, FILE *f, const struct wk_sarif_tool *tool);
/* run.originalUriBaseIds: %SRCROOT% the working directory, SPECROOT
 * spec_root (left out when NULL or not a directory). */
void wk_sarif_base_ids(struct wk_jw *w, const char *spec_root);
/* An artifactLocation under key for a file: its path relative to the
 * working directory (%SRCROOT%), else to spec_root (SPECROOT), else an
 * absolute file: URI; percent-encoded as a URI reference. */
void wk_sarif_artifact_location(struct wk_jw *w, const char *key, const char *file, const char *spec_root);
/* Closes the run and the log, and ends with a newline. */
void wk_sarif_end(struct wk_jw *w);

#endif
