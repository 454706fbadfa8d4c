/* SPDX-License-Identifier: MIT */
/*
 * signatures.c - a crash's signature from what the harness and a sanitizer
 * printed about it: the harness's own verdict when it gave one (the same
 * signature wk_fuzz_signature gives it in the harness and in `wddmkit
 * triage`), else the sanitizer's error with the first frame that is not the
 * runtime's; and AFL++'s, from the signal in a crash file's name.
 *
 * Logs are engine output: untrusted, read through a fixed-size tail buffer,
 * every copy bounded.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "campaign/internal.h"
#include "util.h"
#include "driver/fuzz_driver.h" /* wk_fuzz_signature */

static char g_tail[TAIL_BYTES];

static int skip_frame(const char *fn, size_t n)
{
    static const char *const skip[] = { "abort", "raise", "gsignal", "pthread_kill", "backtrace", "_Exit" };
    if (n >= 2 && fn[0] == '_' && fn[1] == '_')
        return 1;
    if (memmem(fn, n, "fuzzer::", 8) || memmem(fn, n, "_ZN6fuzzer", 10))
        return 1;
    for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
        if (strlen(skip[i]) == n && memcmp(fn, skip[i], n) == 0)
            return 1;
    return 0;
}

/* "violation in DDI: MESSAGE" (MESSAGE "RULE: DDI: detail", as the kit
 * records it): the signature wk_fuzz_signature makes of it, the one the
 * harness and `wddmkit triage` give the same finding. */
static void sig_rule(struct sig_state *st, const char *m, const char *end)
{
    const char *ddi = m + 13;
    const char *c1 = memchr(ddi, ':', (size_t)(end - ddi));
    const char *msg = c1 ? c1 + 1 : end;
    while (msg < end && *msg == ' ')
        msg++;
    size_t idl = 0;
    while (msg + idl < end && msg[idl] && strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-", msg[idl]))
        idl++;
    if (c1 && idl > 0 && idl < sizeof(st->rule)) {
        char text[400];
        wk_campaign_trim_copy(st->rule, sizeof(st->rule), msg, idl);
        wk_campaign_trim_copy(text, sizeof(text), msg, (size_t)(end - msg));
        wk_fuzz_signature(st->sig, sizeof(st->sig), st->rule, text, NULL);
    }
}

/* A stack frame "#3 0x55d0 in func file.c:12:3": its function and place,
 * unless the runtime's. */
static void sig_frame(struct sig_state *st, const char *m, const char *end)
{
    const char *fn = m + 4;
    size_t fl = strcspn(fn, " \n");
    if (fn + fl > end)
        fl = (size_t)(end - fn);
    if (skip_frame(fn, fl))
        return;
    const char *loc = fn + fl;
    while (loc < end && *loc == ' ')
        loc++;
    const char *slash = loc;
    for (const char *q = loc; q < end; q++)
        if (*q == '/')
            slash = q + 1;
    char f[96], l[64];
    wk_campaign_trim_copy(f, sizeof(f), fn, fl);
    wk_campaign_trim_copy(l, sizeof(l), slash, (size_t)(end - slash));
    snprintf(st->frame, sizeof(st->frame), "%s%s%s", f, l[0] ? " " : "", l);
}

static int is_frame_line(const char *line, const char *end)
{
    while (line < end && *line == ' ')
        line++;
    return line < end && *line == '#';
}

/* One line of a log, [line, end). */
void wk_campaign_sig_line(struct sig_state *st, const char *line, const char *end)
{
    size_t n = (size_t)(end - line);
    const char *m;
    if (!st->sig[0] && (m = memmem(line, n, "violation in ", 13))) {
        sig_rule(st, m, end);
    } else if (!st->finding[0] && (m = memmem(line, n, ": FINDING: ", 11))) {
        wk_campaign_trim_copy(st->finding, sizeof(st->finding), m + 11, (size_t)(end - m - 11));
    } else if (!st->finding[0] && (m = memmem(line, n, ": KIT INVARIANT: ", 17))) {
        wk_campaign_trim_copy(st->finding, sizeof(st->finding), m + 17, (size_t)(end - m - 17));
        st->kit = 1;
    } else if ((m = memmem(line, n, "ERROR: ", 7)) &&
               (memmem(line, n, "Sanitizer", 9) || memmem(line, n, "libFuzzer", 9))) {
        const char *stop = memmem(m + 7, (size_t)(end - m - 7), " on ", 4);
        wk_campaign_trim_copy(st->err, sizeof(st->err), m + 7, (size_t)((stop ? stop : end) - m - 7));
        st->frame[0] = '\0';
    } else if ((m = memmem(line, n, "runtime error: ", 15))) {
        wk_campaign_trim_copy(st->err, sizeof(st->err), m, (size_t)(end - m));
        st->frame[0] = '\0';
    } else if ((m = memmem(line, n, "SUMMARY: ", 9)) && !st->err[0]) {
        wk_campaign_trim_copy(st->err, sizeof(st->err), m + 9, (size_t)(end - m - 9));
    } else if (!st->frame[0] && (m = memmem(line, n, " in ", 4)) && is_frame_line(line, end)) {
        sig_frame(st, m, end);
    }
}

/* Whether the lines seen so far name a finding (the harness's verdict or a
 * sanitizer's error). */
int wk_campaign_sig_found(const struct sig_state *st)
{
    return st->sig[0] || st->finding[0] || st->err[0];
}

/* The signature of what was seen (fallback when nothing was), as `wddmkit
 * triage` words it, and a fresh state for the next input. Returns 1 when
 * it is the harness's verdict on the driver (a finding WK_FUZZ_IGNORE can
 * name), 0 for a kit invariant, a sanitizer's report or the fallback. */
int wk_campaign_sig_make(struct sig_state *st, const char *fallback, char *out, size_t cap)
{
    int harness = 0;
    if (st->kit) {
        snprintf(out, cap, "kit invariant: %s", st->rule[0] ? st->rule : "the reference misbehaved");
    } else if (st->sig[0]) {
        snprintf(out, cap, "%s", st->sig);
        harness = 1;
    } else if (st->finding[0]) {
        wk_fuzz_signature(out, cap, NULL, st->finding, NULL);
        harness = 1;
    } else {
        snprintf(out, cap, "%.100s%s%.90s", st->err[0] ? st->err : fallback, st->frame[0] ? " in " : "",
                 st->frame); /* at most 100 + 4 + 90 characters: fits */
    }
    memset(st, 0, sizeof(*st));
    return harness;
}

/* Reads a libFuzzer log's crash reports and the artifact each wrote. */
void wk_campaign_scan_crash_reports(const char *log, struct sig_table *t)
{
    long len = wk_file_tail(log, g_tail, sizeof(g_tail));
    if (len <= 0)
        return;
    static struct sig_state st;
    memset(&st, 0, sizeof(st));
    for (char *line = g_tail, *end; line < g_tail + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(g_tail + len - line));
        if (!end)
            end = g_tail + len;
        const char *m = memmem(line, (size_t)(end - line), "Test unit written to ", 21);
        if (!m || t->n >= MAX_SIGS) {
            wk_campaign_sig_line(&st, line, end);
            continue;
        }
        const char *base = m + 21;
        for (const char *q = m + 21; q < end; q++)
            if (*q == '/')
                base = q + 1;
        struct sig_entry *e = &t->e[t->n++];
        wk_campaign_trim_copy(e->file, sizeof(e->file), base, (size_t)(end - base));
        wk_campaign_sig_make(&st, "crash", e->sig, sizeof(e->sig));
    }
}

/* AFL++ names a crash "id:000000,sig:06,src:...": the signal is its signature. */
void wk_campaign_afl_signature(const char *name, char *out, size_t cap)
{
    const char *s = strstr(name, "sig:");
    uint64_t sig = 0;
    if (strncmp(name, "seed-", 5) == 0) {
        snprintf(out, cap, "a starting input that crashes (afl-fuzz skipped it)");
    } else if (strstr(name, "-hang-")) {
        snprintf(out, cap, "hang (no result within the timeout)");
    } else if (s && wk_campaign_read_num(s + 4, s + 4 + strnlen(s + 4, 8), &sig) && sig < 65) {
        const char *desc = strsignal((int)sig);
        snprintf(out, cap, "signal %llu (%s)", (unsigned long long)sig, desc ? desc : "?");
    } else {
        snprintf(out, cap, "(no signature recorded; see logs/)");
    }
}
