/* SPDX-License-Identifier: MIT */
/*
 * fuzz_spec.c - arbitrary bytes as a YAML spec through the spec loader,
 * and as an expectations file through its loader (conformance/runner/
 * expectations.h): the two loaders of YAML a user hands `conform`.
 *
 * One source, three builds (fuzz/CMakeLists.txt): libFuzzer, AFL++ and the
 * plain replay binary. The input is loaded as a spec file named
 * "fuzz.yaml"; every case that compiles is printed (to a memory stream,
 * discarded) the way `wddmkit spec dump` prints it, so the dumper sees
 * whatever programs the loader can be talked into building.
 *
 * Invariants (a violation aborts, which every engine reports as a crash):
 *   - nothing crashes, leaks or grows without bound (ASan, LeakSanitizer);
 *   - the status is WK_OK exactly when no error was reported, and every
 *     reported error is one line starting with "fuzz.yaml" (a position);
 *   - every loaded program respects prog.h's limits and its adapter is
 *     one the GPU model accepts;
 *   - the expectations loader answers WK_OK exactly when it hands back a
 *     file and prints nothing, else prints one or more lines, each
 *     starting with "fuzz.yaml:" (FILE:LINE:COL); a loaded file respects
 *     expectations.h's limits (entries, text lengths, verdicts).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

#include "harness.h"

static void check_prog(const struct wk_prog *p)
{
    if (p->step_count > WK_PROG_MAX_STEPS || p->cover_count > WK_PROG_MAX_RULES ||
        p->gpu.segment_count < 1 || p->gpu.segment_count > WK_PROG_MAX_SEGMENTS || p->gpu.segments != p->segments)
        abort();
    for (uint32_t i = 0; i < p->step_count; i++) {
        const struct wk_step *s = &p->steps[i];
        if (s->length > WK_PROG_MAX_BYTES || (s->kind == WK_STEP_RENDER) != (s->render != NULL))
            abort();
        if (s->render && (s->render->list_length > WK_PROG_MAX_LIST || s->render->record_count > WK_PROG_MAX_RECORDS ||
                          s->render->raw_length > sizeof(s->render->raw_bytes)))
            abort();
    }
    struct wk_gpu *gpu = NULL;
    if (wk_gpu_create(&p->gpu, &gpu, NULL, 0) == WK_E_INVALID_ARGUMENT)
        abort();
    wk_gpu_destroy(gpu);
}

static void dump_all(const struct wk_spec_set *set)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    for (uint32_t i = 0; i < set->count; i++)
        wk_prog_dump(set->progs[i], f);
    fclose(f);
    free(text);
}

static int allowed_expectation(enum wk_verdict v)
{
    return v == WK_VERDICT_FAIL || v == WK_VERDICT_FLAKE || v == WK_VERDICT_SKIP || v == WK_VERDICT_CRASH ||
           v == WK_VERDICT_TIMEOUT;
}

static void check_messages(const char *text, size_t len)
{
    for (const char *line = text; line < text + len;) {
        const char *nl = memchr(line, '\n', (size_t)(text + len - line));
        if (!nl || strncmp(line, "fuzz.yaml:", 10) != 0)
            abort(); /* every message is a whole line naming the position */
        line = nl + 1;
    }
}

static void check_expectations(const uint8_t *data, size_t size)
{
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    if (!err)
        return;
    struct wk_expectations *e = NULL;
    wk_status st = wk_expectations_parse("fuzz.yaml", (const char *)data, size, &e, err);
    fclose(err);
    if ((st == WK_OK) != (e != NULL) || (st == WK_OK) != (len == 0))
        abort();
    check_messages(text, len);
    if (e) {
        if (e->count > WK_EXPECTATIONS_MAX_ENTRIES)
            abort();
        for (size_t i = 0; i < e->count; i++) {
            const struct wk_expectation *x = &e->entries[i];
            if (!x->pattern || !x->reason || !x->link || !allowed_expectation(x->expect) ||
                strlen(x->reason) > WK_EXPECTATION_MAX_TEXT || strlen(x->link) > WK_EXPECTATION_MAX_TEXT ||
                x->line == 0 || x->column == 0)
                abort();
        }
        wk_expectations_match(e, "smoke.render-all-commands");
        wk_expectations_free(e);
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_expectations(data, size);
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 8);
    wk_status st = wk_spec_load_buffer(&set, "fuzz.yaml", data, size, &d);
    if ((st == WK_OK) != (d.errors == 0) || (st != WK_OK && d.count == 0))
        abort();
    for (uint32_t i = 0; i < d.count; i++)
        if (strncmp(d.messages[i], "fuzz.yaml", 9) != 0 || strchr(d.messages[i], '\n'))
            abort();
    for (uint32_t i = 0; i < set.count && i < 4; i++) /* building models costs: sample the first few */
        check_prog(set.progs[i]);
    dump_all(&set);
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    return 0;
}
