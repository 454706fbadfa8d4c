/* SPDX-License-Identifier: MIT */
/*
 * driver_log.c - what the runs of minimize and promote print on stderr,
 * each distinct line once. Both rerun an input hundreds of times, and a
 * driver says the same things on every run: an outside user's minimize
 * printed "[driver] refdriver: CreateAllocation: allocation 0 rejected
 * (0xc000000d)" 19 times, once per test run. Yet a driver's own lines
 * (DbgPrint: "[driver] ...", include/wddmkit/km.h) can be the clue to its
 * bug, so none is dropped: while a command folds, each run's stderr comes
 * to this process through a pipe (outcome.c), and at the end of the
 * command every distinct line is printed once, under the driver whose
 * runs printed it, with how often and in how many runs it came.
 *
 * Why every distinct line, and not only the lines of the first run and of
 * the minimized input's: a driver author debugging the finding wants what
 * the driver said on the way there, and a reduction's candidates reach
 * paths the input does not; a line that only a few of them printed (an
 * assertion of the driver's, a refusal) can be what explains the bug. The
 * counts tell such a line (in 2 of 300 runs) from one of the input itself
 * (in nearly every run), and the lines of the minimized input alone are
 * one `wddmkit repro` away. A line the driver printed many times in one
 * run also shows once, with its count: the order of one run's lines is
 * the one thing folding gives up.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash_internal.h"

#define FOLD_MAX_LINES 512u          /* distinct lines kept of one driver's runs */
#define FOLD_LINE_MAX 1100u          /* bytes kept of a line (DbgPrint formats 1 KB at a time) */

/* A line equal to an earlier one only adds to its counts. */
static struct wk_log_line *find_line(struct wk_log_fold *f, const char *text, size_t len, uint32_t hash)
{
    for (uint32_t i = 0; i < f->count; i++) {
        struct wk_log_line *l = &f->lines[i];
        if (l->hash == hash && strlen(l->text) == len && memcmp(l->text, text, len) == 0)
            return l;
    }
    return NULL;
}

static struct wk_log_line *new_line(struct wk_log_fold *f, const char *text, size_t len, uint32_t hash)
{
    if (f->count >= FOLD_MAX_LINES)
        return NULL;
    if (f->count == f->cap) {
        uint32_t cap = f->cap ? 2 * f->cap : 16;
        struct wk_log_line *grown = realloc(f->lines, cap * sizeof(*grown));
        if (!grown)
            return NULL;
        f->lines = grown;
        f->cap = cap;
    }
    char *copy = strndup(text, len);
    if (!copy)
        return NULL;
    struct wk_log_line *l = &f->lines[f->count++];
    memset(l, 0, sizeof(*l));
    l->text = copy;
    l->hash = hash;
    return l;
}

/* One line of run number f->runs. */
static void take_line(struct wk_log_fold *f, const char *text, size_t len)
{
    int cut = len > FOLD_LINE_MAX;
    if (cut)
        len = FOLD_LINE_MAX; /* lines that differ past it fold into one: said when printed */
    uint32_t hash = wk_fnv1a32(text, len);
    struct wk_log_line *l = find_line(f, text, len, hash);
    if (!l)
        l = new_line(f, text, len, hash);
    if (!l) {
        f->unkept++;
        return;
    }
    l->cut |= cut;
    l->times++;
    if (l->last_run != f->runs) {
        l->last_run = f->runs;
        l->runs++;
    }
}

void wk_log_fold_run(struct wk_log_fold *f, const char *text, size_t len, size_t lost)
{
    f->runs++;
    f->lost += lost;
    while (len) {
        const char *nl = memchr(text, '\n', len);
        size_t n = nl ? (size_t)(nl - text) : len; /* a last line without its newline is a line too */
        size_t shown = n && text[n - 1] == '\r' ? n - 1 : n;
        if (shown)
            take_line(f, text, shown);
        text += nl ? n + 1 : n;
        len -= nl ? n + 1 : n;
    }
}

/* " (repeated in 19 runs)", " (32 times in 2 runs)", or "" for a line that
 * came once. */
static void count_text(const struct wk_log_line *l, char *buf, size_t size)
{
    buf[0] = '\0';
    if (l->times == 1)
        return;
    if (l->times == l->runs)
        snprintf(buf, size, " (repeated in %u runs)", l->runs);
    else
        snprintf(buf, size, " (%llu times in %u run%s)", (unsigned long long)l->times, l->runs,
                 l->runs == 1 ? "" : "s");
}

void wk_log_fold_print(const struct wk_log_fold *f, FILE *out)
{
    for (uint32_t i = 0; i < f->count; i++) {
        char counts[80];
        count_text(&f->lines[i], counts, sizeof(counts));
        fprintf(out, "%s%s%s\n", f->lines[i].text, f->lines[i].cut ? " [...]" : "", counts);
    }
    if (f->unkept)
        fprintf(out, "(%llu more lines, past %u distinct ones, not kept)\n", (unsigned long long)f->unkept,
                FOLD_MAX_LINES);
    if (f->lost)
        fprintf(out, "(%llu bytes past the first %u KiB of a run's output not kept)\n", (unsigned long long)f->lost,
                WK_LOG_RUN_LIMIT >> 10);
}

int wk_log_fold_empty(const struct wk_log_fold *f)
{
    return !f->count && !f->unkept && !f->lost;
}

void wk_log_fold_free(struct wk_log_fold *f)
{
    for (uint32_t i = 0; i < f->count; i++)
        free(f->lines[i].text);
    free(f->lines);
    memset(f, 0, sizeof(*f));
}

/* ------------------------------------------------------------------ */
/* The command's fold: the driver under test's runs, the reference's   */
/* ------------------------------------------------------------------ */

static struct {
    int on;
    const char *command;              /* "minimize", "promote" */
    const char *driver;               /* the --driver, or NULL */
    struct wk_log_fold of[2];         /* [0] the driver under test's runs, [1] the reference driver's */
} fold;

void wk_crash_fold_begin(const char *command, const char *driver)
{
    memset(&fold, 0, sizeof(fold));
    fold.on = 1;
    fold.command = command;
    fold.driver = driver;
}

int wk_crash_folding(void)
{
    return fold.on;
}

void wk_crash_fold_take(const char *driver, const char *text, size_t len, size_t lost)
{
    if (fold.on)
        wk_log_fold_run(&fold.of[driver ? 0 : 1], text, len, lost);
}

/* One driver's lines under a line naming it and its runs. */
static void print_group(const struct wk_log_fold *f, const char *whose)
{
    if (wk_log_fold_empty(f))
        return;
    fprintf(stderr, "on %s, %u run%s:\n", whose, f->runs, f->runs == 1 ? "" : "s");
    wk_log_fold_print(f, stderr);
}

void wk_crash_fold_end(void)
{
    if (!fold.on)
        return;
    fold.on = 0;
    if (!wk_log_fold_empty(&fold.of[0]) || !wk_log_fold_empty(&fold.of[1])) {
        fflush(stdout); /* after the command's report, when both go to one place */
        fprintf(stderr, "wddmkit %s: what the drivers printed over %u runs, each distinct line once:\n", fold.command,
                fold.of[0].runs + fold.of[1].runs);
        print_group(&fold.of[0], fold.driver ? fold.driver : "the driver");
        print_group(&fold.of[1], "the reference driver");
    }
    wk_log_fold_free(&fold.of[0]);
    wk_log_fold_free(&fold.of[1]);
}
