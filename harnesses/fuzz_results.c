/* SPDX-License-Identifier: MIT */
/*
 * fuzz_results.c - arbitrary bytes as a `conform --json` report through
 * the reader of `wddmkit results` (conformance/results/results.h), and
 * every report it accepts through baseline, diff and merge.
 *
 * Invariants (a violation aborts, which every engine reports as a crash):
 *   - the reader answers WK_OK exactly when it hands back a report and
 *     prints nothing, else prints lines that each start with "fuzz.json";
 *     an accepted report respects results.h's limits, its cases in id
 *     order, each id once;
 *   - the baseline of an accepted report loads as an expectations file
 *     (wk_results_baseline loads its own text back, so WK_OK is that);
 *   - a report compared with itself has no difference (exit code 0);
 *   - a report merged with itself is accepted by the reader again, with
 *     the same cases.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

#include "harness.h"

static void check_messages(const char *text, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *line = text; line < text + len;) {
        const char *nl = memchr(line, '\n', (size_t)(text + len - line));
        if (!nl || (size_t)(nl - line) < n || strncmp(line, prefix, n) != 0)
            abort(); /* every message is a whole line naming the file */
        line = nl + 1;
    }
}

static void check_report(const struct wk_results *r)
{
    if (r->count > WK_RESULTS_MAX_CASES)
        abort();
    for (size_t i = 1; i < r->count; i++)
        if (strcmp(r->cases[i - 1].id, r->cases[i].id) >= 0)
            abort();
    for (size_t i = 0; i < r->count; i++)
        if (wk_results_find(r, r->cases[i].id) != &r->cases[i])
            abort();
}

static void check_uses(struct wk_results *r, FILE *sink)
{
    char *yaml = NULL;
    if (wk_results_baseline(r, NULL, "fuzz#1", &yaml, sink) != WK_OK || !yaml)
        abort();
    free(yaml);
    struct wk_results_diff d;
    if (wk_results_diff(r, r, &d) != WK_OK)
        abort();
    if (d.count != 0 || wk_results_diff_exit_code(&d) != 0)
        abort();
    wk_results_diff_print(r, r, &d, 1, sink, sink);
    wk_results_diff_free(&d);
    struct wk_results *both[2] = { r, r };
    char *json = NULL;
    if (wk_results_merge(both, 2, &json, sink) != WK_OK)
        abort();
    struct wk_results *again = NULL;
    if (wk_results_parse("merged.json", json, strlen(json), &again, sink) != WK_OK || again->count != r->count)
        abort();
    for (size_t i = 0; i < r->count; i++)
        if (strcmp(again->cases[i].id, r->cases[i].id) != 0 || again->cases[i].verdict != r->cases[i].verdict)
            abort();
    wk_results_free(again);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    if (!err)
        return 0;
    struct wk_results *r = NULL;
    wk_status st = wk_results_parse("fuzz.json", (const char *)data, size, &r, err);
    fflush(err);
    if ((st == WK_OK) != (r != NULL) || (st == WK_OK) != (len == 0))
        abort();
    check_messages(text, len, "fuzz.json");
    if (r) {
        check_report(r);
        check_uses(r, err);
        wk_results_free(r);
    }
    fclose(err);
    free(text);
    return 0;
}
