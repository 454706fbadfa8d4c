/* SPDX-License-Identifier: MIT */
/*
 * minimize.c - `wddmkit minimize`: the smallest input that keeps the
 * signature. A program (fuzz_prog, fuzz_paging) is reduced as a program
 * (reduce.c) and written in fuzz_prog's format; a fuzz_patch or
 * fuzz_render input in its last step, written back in its own format;
 * any other input as bytes (YAML lines first), each candidate replayed by
 * the harness's replay binary (ddmin_bytes.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash_internal.h"

/* What the reduction did to the last step, for the summary line. */
static void reduction_text(const struct wk_prog *before, const struct wk_prog *after, char *buf, size_t size)
{
    const struct wk_step *a = &before->steps[before->step_count - 1], *b = &after->steps[after->step_count - 1];
    buf[0] = '\0';
    if (a->patch && b->patch)
        snprintf(buf, size, ": patch locations %u -> %u, list entries %u -> %u, DMA %u -> %u bytes",
                 a->patch->patch_length, b->patch->patch_length, a->patch->list_length, b->patch->list_length,
                 a->patch->dma_length, b->patch->dma_length);
    if (a->render && b->render)
        snprintf(buf, size, ": list entries %u -> %u, user patch locations %u -> %u, command buffer %u -> %u bytes",
                 a->render->list_length, b->render->list_length, a->render->patch_length, b->render->patch_length,
                 a->render->raw_length, b->render->raw_length);
}

static int minimize_fixture_input(const struct wk_crash_options *o, const struct fixture_harness *h, const char *out)
{
    size_t bytes = 0, n = 0;
    struct wk_prog *p = wk_crash_load_fixture_input(o, h, &bytes), *before = NULL;
    static struct mini m;
    if (!p || wk_crash_mini_init(&m, o, p) != 0) {
        wk_crash_prog_del(p);
        return p ? 1 : 2;
    }
    before = wk_crash_prog_dup(p);
    printf("signature: %s: %s\n", wk_crash_cls_word[m.want.cls], m.want.sig);
    h->reduce(&m, &p);
    uint8_t *data = wk_crash_input_bytes(h, p, &n);
    int code = data && wk_crash_save_bytes(data, n, out) == 0 ? 0 : 2;
    char what[240] = "";
    if (before)
        reduction_text(before, p, what, sizeof(what));
    /* the same sizes, other values: say so, or the line reads as if nothing was done */
    size_t n0 = 0;
    uint8_t *was = before ? wk_crash_input_bytes(h, before, &n0) : NULL;
    if (data && was && n0 == n && memcmp(was, data, n) != 0 && strlen(what) + 40 < sizeof(what))
        strcat(what, "; values simplified");
    free(was);
    printf("minimized: %zu -> %zu bytes%s (%u test runs%s)\n", bytes, n, what, m.tests,
           m.tests >= MINIMIZE_MAX_TESTS ? ", budget reached" : "");
    if (code == 0)
        printf("wrote %s\n", out);
    wk_prog_dump(p, stdout);
    free(data);
    wk_crash_prog_del(before);
    wk_crash_prog_del(p);
    return code;
}

/* ------------------------------------------------------------------ */
/* Minimizing the inputs of the byte harnesses                          */
/* ------------------------------------------------------------------ */

struct bytes_mini {
    const struct wk_crash_options *o;
    const char *harness;
    struct outcome want;              /* the signature to keep */
    char try_path[4200];              /* where each candidate is written for the replay binary */
    uint32_t tests;
};

/* wk_bytes_keep_fn: the candidate, replayed, has the same signature. */
static int bytes_keep(void *user, const uint8_t *data, size_t n)
{
    struct bytes_mini *m = user;
    if (m->tests >= MINIMIZE_MAX_TESTS)
        return 0;
    m->tests++;
    FILE *f = fopen(m->try_path, "wb");
    int written = f && fwrite(data, 1, n, f) == n;
    if (f && fclose(f) != 0)
        written = 0;
    if (!written)
        return 0;
    static struct outcome got;
    wk_crash_run_replay(m->harness, m->try_path, m->o->driver, m->o->timeout_ms, &got);
    return wk_crash_same_result(&got, &m->want);
}

/* fuzz_gpu_decode and fuzz_spec inputs (and any other harness replayed by
 * its binary): lines of YAML text first, then bytes, then DMA-buffer words
 * at zero, each candidate replayed by <harness>_replay (ddmin_bytes.c). */
static int minimize_bytes(const struct wk_crash_options *o, const char *harness, const char *out)
{
    static struct bytes_mini m;
    memset(&m, 0, sizeof(m));
    m.o = o;
    m.harness = harness;
    wk_crash_run_replay(harness, o->path, o->driver, o->timeout_ms, &m.want);
    if (m.want.cls == CLS_ERROR) {
        fprintf(stderr, "wddmkit minimize: %s: %s%s%s\n", o->path, m.want.sig, m.want.detail[0] ? ": " : "",
                m.want.detail);
        return 2;
    }
    if (m.want.cls == CLS_PASS) {
        fprintf(stderr, "wddmkit: %s passes through %s_replay: no finding to keep while reducing\n", o->path, harness);
        return 1;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_crash_read_file(o->path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return 2;
    printf("signature: %s: %s\n", wk_crash_cls_word[m.want.cls], m.want.sig);
    snprintf(m.try_path, sizeof(m.try_path), "%s.try", out);
    size_t n = size;
    if (strcmp(harness, "fuzz_spec") == 0)
        n = wk_ddmin_bytes(data, n, 1, bytes_keep, &m);
    n = wk_ddmin_bytes(data, n, 0, bytes_keep, &m);
    if (strcmp(harness, "fuzz_gpu_decode") == 0)
        wk_ddmin_zero_words(data, n, bytes_keep, &m);
    remove(m.try_path);
    FILE *f = fopen(out, "wb");
    int code = f && fwrite(data, 1, n, f) == n ? 0 : 2;
    if (f && fclose(f) != 0)
        code = 2;
    free(data);
    if (code != 0) {
        fprintf(stderr, "wddmkit minimize: cannot write %s: %s\n", out, strerror(errno));
        return code;
    }
    printf("minimized: %zu -> %zu bytes (%u test runs%s)\n", size, n, m.tests,
           m.tests >= MINIMIZE_MAX_TESTS ? ", budget reached" : "");
    printf("wrote %s\n", out);
    struct wk_crash_options shown = *o;
    shown.path = out;
    wk_crash_print_decoded(&shown, harness);
    return 0;
}

static int minimize_input(const struct wk_crash_options *op)
{
    struct wk_crash_options o = *op;
    const char *out = o.out;
    if (!out) {
        fprintf(stderr, "wddmkit minimize: no output file\n");
        return 2;
    }
    const char *harness = wk_crash_harness_of(&o, o.path);
    if (wk_crash_fixture_harness_of(harness))
        return minimize_fixture_input(&o, wk_crash_fixture_harness_of(harness), out);
    if (!wk_crash_is_prog(harness))
        return minimize_bytes(&o, harness, out);
    size_t bytes = 0;
    struct wk_prog *p = wk_crash_prepare(&o, o.path, 0, &bytes);
    static struct mini m;
    if (!p || wk_crash_mini_init(&m, &o, p) != 0) {
        wk_crash_prog_del(p);
        return p ? 1 : 2;
    }
    /* Both counts are of the program reduced (the input line above gives
     * the input's own and why they differ), and so are both sizes: the
     * file's bytes are the input's, not this program's. */
    uint32_t steps = p->step_count;
    size_t size = wk_crash_encoded_size(p);
    printf("signature: %s: %s\n", wk_crash_cls_word[m.want.cls], m.want.sig);
    wk_crash_minimize_prog(&m, &p);
    int code = wk_crash_save_program(p, out) == 0 ? 0 : 2;
    printf("minimized: %u -> %u steps, %zu -> %zu bytes encoded, of the %s program (%u test runs%s)\n", steps,
           p->step_count, size, wk_crash_encoded_size(p), o.no_calibrate ? "as written" : "calibrated", m.tests,
           m.tests >= MINIMIZE_MAX_TESTS ? ", budget reached" : "");
    if (code == 0 && strcmp(harness, "fuzz_prog") != 0) /* outsider 25 read it as the harness's input */
        printf("wrote %s: a fuzz_prog program (the %s input as steps), which repro, dump and fuzz_prog read: "
               "--harness fuzz_prog\n", out, harness);
    else if (code == 0)
        printf("wrote %s\n", out);
    wk_prog_dump(p, stdout);
    wk_crash_prog_del(p);
    return code;
}

/* A reduction runs the input and its candidates hundreds of times, and
 * each run's driver lines would come again: they are folded, each
 * distinct line printed once at the end with its counts (driver_log.c). */
int wk_crash_minimize(const struct wk_crash_options *o)
{
    wk_crash_fold_begin("minimize", o->driver);
    int code = minimize_input(o);
    wk_crash_fold_end();
    return code;
}
