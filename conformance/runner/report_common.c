/* SPDX-License-Identifier: MIT */
/*
 * report_common.c - the helpers the report writers (console, JUnit, TAP,
 * JSON) share (where a report file goes: report_target.c): UTF-8 decoding for the
 * formats that must escape, and the texts every format prints alike (a
 * case's rule, covered rules, failed step, profile, and the one command
 * that reruns just this case).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

size_t wk_utf8_next(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    *cp = 0xFFFD;
    if (n == 0)
        return 0;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    size_t len = u[0] >= 0xF0 && u[0] <= 0xF4 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC2 && u[0] < 0xE0 ? 2 : 0;
    if (u[0] > 0xF4 || len == 0 || len > n)
        return 1;
    uint32_t c = u[0] & (0xFFu >> (len + 1));
    for (size_t i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return 1;
        c = (c << 6) | (u[i] & 0x3Fu);
    }
    static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 1;
    *cp = c;
    return len;
}

const char *wk_case_area(const struct wk_case_report *c)
{
    return c->prog->area[0] ? c->prog->area : "-";
}

void wk_report_rule(const struct wk_case_report *c, char *buf, size_t size)
{
    const struct wk_prog *p = c->prog;
    if (c->result.rule[0])
        snprintf(buf, size, "%s", c->result.rule);
    else if (p->trips[0])
        snprintf(buf, size, "%.24s (the rule the case must trip)", p->trips);
    else
        snprintf(buf, size, "%s", "");
}

void wk_report_covers(const struct wk_case_report *c, char *buf, size_t size)
{
    const struct wk_prog *p = c->prog;
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < p->cover_count && i < WK_PROG_MAX_RULES && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%.24s", i ? ", " : "", p->covers[i]);
}

void wk_report_step(const struct wk_case_report *c, char *buf, size_t size)
{
    const struct wk_prog *p = c->prog;
    int32_t i = c->result.failed_step;
    if (i < 0 || (uint32_t)i >= p->step_count) {
        snprintf(buf, size, "%s", "");
        return;
    }
    const struct wk_step *s = &p->steps[i];
    if (s->line)
        snprintf(buf, size, "%d (%s, line %u)", i, wk_step_keyword(s->kind), s->line);
    else
        snprintf(buf, size, "%d (%s)", i, wk_step_keyword(s->kind));
}

const char *wk_report_spec_file(const struct wk_run_report *rep, const struct wk_case_report *c)
{
    const char *file = c->prog->file, *best = NULL;
    size_t best_len = 0;
    if (!file[0])
        return NULL;
    for (size_t i = 0; i < rep->spec_root_count; i++) {
        const char *root = rep->spec_roots[i];
        size_t n = root ? strlen(root) : 0;
        while (n > 1 && root[n - 1] == '/')
            n--; /* "specs/" holds "specs/smoke.yaml" */
        if (n == 0 || strncmp(file, root, n) != 0 || (file[n] != '/' && root[n - 1] != '/') || n < best_len)
            continue;
        best = file + n;
        best_len = n;
    }
    if (!best)
        return file;
    while (*best == '/')
        best++;
    return *best ? best : file;
}

const char *wk_report_profile(const struct wk_run_report *rep)
{
    return rep->stress ? "stress" : rep->contract ? "contract" : "reference";
}

uint64_t wk_report_not_evaluated(const struct wk_run_report *rep)
{
    uint64_t n = 0;
    for (size_t i = 0; i < rep->count; i++)
        if (rep->cases[i].finished)
            n += rep->cases[i].result.not_evaluated;
    return n;
}

void wk_check_totals_add(struct wk_check_total *t, const struct wk_case_report *c)
{
    if (!c->finished)
        return;
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++) {
        const struct wk_check_count *n = &c->result.checks[k];
        const char *why = c->result.skip_reason[k];
        t[k].run += n->run;
        t[k].skipped += n->skipped;
        if (!n->skipped)
            continue;
        if (!t[k].reason)
            t[k].reason = why;
        else if (strcmp(t[k].reason, why) != 0)
            t[k].mixed = 1;
    }
}

void wk_report_check_totals(const struct wk_run_report *rep, struct wk_check_total *t)
{
    memset(t, 0, WK_CHECK_KIND_COUNT * sizeof(*t));
    for (size_t i = 0; i < rep->count; i++)
        wk_check_totals_add(t, &rep->cases[i]);
}

void wk_report_spec_error_where(const char *message, char *buf, size_t size)
{
    const char *end = strstr(message, ": ");
    int n = end ? (int)(end - message) : (int)strlen(message);
    snprintf(buf, size, "%.*s", n, message);
}

/* Appends a shell word: bare when it is safe, single-quoted otherwise. */
static void append_word(char *buf, size_t size, const char *word, int always_quote)
{
    size_t len = strlen(buf);
    int bare = !always_quote && word[0] && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                        "0123456789._/:=@%+,-") == strlen(word);
    char *out = buf + len;
    size_t room = size - len;
    if (bare) {
        snprintf(out, room, " %s", word);
        return;
    }
    size_t k = 0;
    if (k + 2 < room) {
        out[k++] = ' ';
        out[k++] = '\'';
    }
    for (const char *p = word; *p && k + 5 < room; p++) {
        if (*p == '\'') {
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = *p;
        }
    }
    if (k + 1 < room)
        out[k++] = '\'';
    out[k < room ? k : room - 1] = 0;
}

void wk_report_rerun_command(const struct wk_run_report *rep, const struct wk_case_report *c, char *buf,
                             size_t size)
{
    if (!size)
        return;
    snprintf(buf, size, "wddmkit conform --filter");
    append_word(buf, size, c->prog->id, 1);
    if (rep->driver) {
        append_word(buf, size, "--driver", 0);
        append_word(buf, size, rep->driver, 0);
    }
    if (rep->contract != (rep->driver != NULL) || rep->stress) { /* not the default for this driver */
        append_word(buf, size, "--profile", 0);
        append_word(buf, size, wk_report_profile(rep), 0);
    }
    if (rep->gpu_given) {
        append_word(buf, size, "--gpu", 0);
        append_word(buf, size, rep->gpu == WK_GPU_NONE ? "none" : "model", 0);
    }
    if (rep->binding_given) {
        append_word(buf, size, "--binding", 0);
        append_word(buf, size, rep->binding ? rep->binding : "none", 0);
    }
    if (rep->umd_given) {
        append_word(buf, size, "--umd", 0);
        append_word(buf, size, rep->umd == WK_UMD_KIT ? "kit" : "none", 0);
    }
    if (rep->has_seed) {
        char seed[32];
        snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rep->seed);
        append_word(buf, size, "--seed", 0);
        append_word(buf, size, seed, 0);
    }
    if (c->prog->file[0])
        append_word(buf, size, c->prog->file, 0);
}
