/* SPDX-License-Identifier: MIT */
/*
 * afl_stats.c - an AFL++ campaign's numbers and findings from the files
 * afl-fuzz writes per instance (afl/<instance>/): fuzzer_stats ("key :
 * value", rewritten about once a minute and at exit), plot_data (a CSV row
 * every few seconds), the queue/, crashes/ and hangs/ folders, and the
 * "results in a crash" lines of the main instance's log about starting
 * inputs it skipped.
 *
 * Untrusted input: files are read through fixed-size buffers, numbers
 * digit by digit, and a file is taken only when the process we ran wrote it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "campaign/internal.h"
#include "util.h"

static char g_tail[TAIL_BYTES];

/* A "key : value" line of fuzzer_stats. */
static int stats_value(const char *text, const char *key, uint64_t *out)
{
    size_t klen = strlen(key);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        if ((size_t)(end - line) > klen && memcmp(line, key, klen) == 0 && (line[klen] == ' ' || line[klen] == ':')) {
            const char *p = line + klen;
            while (p < end && (*p == ' ' || *p == ':'))
                p++;
            return wk_campaign_read_num(p, end, out);
        }
        line = *end ? end + 1 : end;
    }
    return 0;
}

/* AFL++'s fuzzer_stats of one instance, if written by the process we ran.
 * The file is rewritten about once a minute: while the engine runs, its
 * counters are used only when fresh (`live_max_age` seconds). */
static int afl_fuzzer_stats(const char *dir, pid_t pid, struct stats *s, int main_instance, long live_max_age)
{
    char path[FPATH], text[16384];
    uint64_t v, owner = 0, updated = 0;
    if (!wk_path_join(path, sizeof(path), dir, "fuzzer_stats") || wk_file_head(path, text, sizeof(text)) <= 0)
        return 0;
    if (!stats_value(text, "fuzzer_pid", &owner) || owner != (uint64_t)pid)
        return 0; /* an earlier run's file */
    /* Live, the file counts only when recent and not the one written at
     * start-up (calibration: a handful of executions in no time). */
    uint64_t run_time = 0;
    int fresh = live_max_age < 0 ||
                (stats_value(text, "last_update", &updated) &&
                 (uint64_t)time(NULL) <= updated + (uint64_t)live_max_age && stats_value(text, "run_time", &run_time) &&
                 run_time >= 30);
    if (fresh && stats_value(text, "execs_done", &v)) {
        s->runs += v;
        s->have_runs = 1;
    }
    if (fresh && stats_value(text, "execs_per_sec", &v)) {
        s->eps += v;
        s->have_eps = 1;
    }
    if (fresh && stats_value(text, "edges_found", &v) && v >= s->cov) {
        s->cov = v;
        s->have_cov = 1;
    }
    if (stats_value(text, "total_edges", &v)) {
        s->total_edges = v;
        s->have_total = 1;
    }
    if (main_instance) {
        const char *st = strstr(text, "\nstability");
        const char *colon = st ? strchr(st, ':') : NULL;
        uint64_t whole = 0, frac = 0;
        if (colon) {
            const char *p = colon + 1;
            while (*p == ' ')
                p++;
            const char *stop = p + strcspn(p, "\n");
            if (wk_campaign_read_num(p, stop, &whole)) {
                const char *dot = memchr(p, '.', (size_t)(stop - p));
                if (dot && dot + 2 < stop && wk_campaign_read_num(dot + 1, dot + 3, &frac) && whole <= 100) {
                    s->stability_pct100 = whole * 100 + frac;
                    s->have_stability = 1;
                }
            }
        }
    }
    return 1;
}

/* AFL++'s plot_data: the last row, by the header's column names (AFL++
 * writes it every few seconds once it has run a minute). */
static int afl_plot_data(const char *dir, time_t since, struct stats *s)
{
    char path[FPATH], head[1024];
    struct stat st;
    if (!wk_path_join(path, sizeof(path), dir, "plot_data") || stat(path, &st) != 0 || st.st_mtime < since)
        return 0;
    if (wk_file_head(path, head, sizeof(head)) <= 0 || head[0] != '#')
        return 0;
    enum { COL_EXECS, COL_EPS, COL_EDGES, COL_N };
    static const char *const want[COL_N] = { "total_execs", "execs_per_sec", "edges_found" };
    int col[COL_N] = { -1, -1, -1 };
    int idx = 0;
    char *nl = strchr(head, '\n');
    if (!nl)
        return 0;
    *nl = '\0';
    for (char *tok = head + 1; *tok; idx++) {
        while (*tok == ' ')
            tok++;
        size_t n = strcspn(tok, ",");
        for (int k = 0; k < COL_N; k++)
            if (strlen(want[k]) == n && memcmp(tok, want[k], n) == 0)
                col[k] = idx;
        tok += n;
        if (*tok == ',')
            tok++;
    }
    long len = wk_file_tail(path, g_tail, sizeof(g_tail));
    if (len <= 0)
        return 0;
    char *last = NULL, *last_end = NULL;
    for (char *line = g_tail, *end; line < g_tail + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(g_tail + len - line));
        if (!end)
            end = g_tail + len;
        if (end > line && line[0] != '#') {
            last = line;
            last_end = end;
        }
    }
    if (!last)
        return 0;
    uint64_t vals[COL_N] = { 0 };
    int have[COL_N] = { 0 };
    idx = 0;
    for (const char *p = last; p < last_end; idx++) {
        while (p < last_end && *p == ' ')
            p++;
        for (int k = 0; k < COL_N; k++)
            if (col[k] == idx)
                have[k] = wk_campaign_read_num(p, last_end, &vals[k]);
        const char *comma = memchr(p, ',', (size_t)(last_end - p));
        if (!comma)
            break;
        p = comma + 1;
    }
    if (have[COL_EXECS]) {
        s->runs += vals[COL_EXECS];
        s->have_runs = 1;
    }
    if (have[COL_EPS]) {
        s->eps += vals[COL_EPS];
        s->have_eps = 1;
    }
    if (have[COL_EDGES] && vals[COL_EDGES] >= s->cov) {
        s->cov = vals[COL_EDGES];
        s->have_cov = 1;
    }
    return 1;
}

static void afl_instance_dir(const struct campaign *c, unsigned i, char *out, size_t cap)
{
    char name[32];
    if (i == 0)
        snprintf(name, sizeof(name), "main");
    else
        snprintf(name, sizeof(name), "s%u", i);
    if (!wk_path_join(out, cap, c->afl_out, name))
        out[0] = '\0';
}

/*
 * The inputs of one AFL++ instance's queue that no other instance's queue
 * holds too: every instance starts from the same -i corpus (entries named
 * "orig:"), and with --jobs each imports what the others found ("sync:").
 * Counted for the main instance's queue only (with_seeds), the seeds and
 * the imports are then each counted once over all the queues; *all is the
 * queue's whole size (what a campaign of one instance counts). The summary
 * used to count the main instance's queue alone: 338 of the 450 inputs of
 * a two-instance campaign.
 */
static uint64_t count_queue(const char *dir, int with_seeds, uint64_t *all)
{
    DIR *d = opendir(dir);
    uint64_t own = 0;
    *all = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!wk_campaign_is_finding_name(e->d_name) || (e->d_type != DT_REG && e->d_type != DT_UNKNOWN))
            continue;
        ++*all;
        own += !strstr(e->d_name, "sync:") && (with_seeds || !strstr(e->d_name, "orig:"));
    }
    if (d)
        closedir(d);
    return own;
}

void wk_campaign_afl_stats(const struct campaign *c, struct stats *s, int final)
{
    memset(s, 0, sizeof(*s));
    for (unsigned i = 0; i < c->nprocs; i++) {
        char dir[FPATH], sub[FPATH];
        afl_instance_dir(c, i, dir, sizeof(dir));
        if (!dir[0])
            continue;
        /* Final: fuzzer_stats (written at exit). Live: plot_data is fresher. */
        struct stats one, plot;
        memset(&one, 0, sizeof(one));
        memset(&plot, 0, sizeof(plot));
        afl_fuzzer_stats(dir, c->procs[i].pid, &one, i == 0, final ? -1 : 15);
        if (!final && afl_plot_data(dir, c->start, &plot)) {
            one.runs = plot.runs;
            one.have_runs = plot.have_runs;
            one.eps = plot.eps;
            one.have_eps = plot.have_eps;
            if (plot.have_cov && plot.cov >= one.cov) {
                one.cov = plot.cov;
                one.have_cov = 1;
            }
        }
        if (i == 0) {
            s->have_stability = one.have_stability;
            s->stability_pct100 = one.stability_pct100;
        }
        s->runs += one.runs;
        s->have_runs |= one.have_runs;
        s->eps += one.eps;
        s->have_eps |= one.have_eps;
        if (one.have_cov && one.cov >= s->cov) {
            s->cov = one.cov;
            s->have_cov = 1;
        }
        if (one.have_total) {
            s->total_edges = one.total_edges;
            s->have_total = 1;
        }
        uint64_t all = 0;
        uint64_t own = wk_path_join(sub, sizeof(sub), dir, "queue") ? count_queue(sub, i == 0, &all) : 0;
        s->corpus += c->nprocs > 1 ? own : all; /* alone, an instance's queue is all of it */
        s->queue[s->queues++] = all;
        s->crashes += wk_path_join(sub, sizeof(sub), dir, "crashes") ? wk_campaign_count_files(sub, c->start) : 0;
        s->hangs += wk_path_join(sub, sizeof(sub), dir, "hangs") ? wk_campaign_count_files(sub, c->start) : 0;
    }
}

/* Copies AFL++'s findings of every instance into crashes/ as
 * <instance>-<name> (hangs as <instance>-hang-<name>), never overwriting. */
static void gather_instances(const struct campaign *c)
{
    for (unsigned i = 0; i < c->nprocs; i++) {
        char dir[FPATH], sub[FPATH];
        afl_instance_dir(c, i, dir, sizeof(dir));
        const char *label = i == 0 ? "main" : c->procs[i].label;
        for (int h = 0; h < 2; h++) {
            char prefix[48];
            snprintf(prefix, sizeof(prefix), "%s-%s", label, h ? "hang-" : "");
            if (dir[0] && wk_path_join(sub, sizeof(sub), dir, h ? "hangs" : "crashes"))
                wk_campaign_copy_inputs(sub, c->crashes, prefix);
        }
    }
}

/* afl-fuzz runs the starting inputs first and skips (or, when none is
 * left, refuses) those that crash: "Test case '<queue name>' results in a
 * crash". Each is a finding; it is copied into crashes/ as seed-<name>. */
static void gather_afl_crashing_seeds(const struct campaign *c)
{
    if (!c->nprocs)
        return;
    long len = wk_file_head(c->procs[0].log, g_tail, sizeof(g_tail)); /* they come first */
    for (char *line = g_tail, *end; len > 0 && line < g_tail + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(g_tail + len - line));
        if (!end)
            end = g_tail + len;
        size_t n = (size_t)(end - line);
        const char *m = memmem(line, n, "Test case '", 11);
        if (!m || !memmem(line, n, "results in a crash", 18))
            continue;
        const char *name = m + 11;
        const char *q = memchr(name, '\'', (size_t)(end - name));
        if (!q || q == name || (size_t)(q - name) >= 256)
            continue;
        char qname[256], from[FPATH], to[FPATH], dest[300];
        wk_campaign_trim_copy(qname, sizeof(qname), name, (size_t)(q - name));
        if (strchr(qname, '/'))
            continue;
        const char *orig = strstr(qname, "orig:");
        const char *base = orig ? orig + 5 : qname;
        snprintf(dest, sizeof(dest), "seed-%s", base);
        int ok = orig ? wk_path_join(from, sizeof(from), c->corpus, base) : 0;
        if (!ok || !wk_path_is_regular(from)) {
            char qdir[FPATH];
            ok = wk_path_join(qdir, sizeof(qdir), c->afl_out, "main/queue") && wk_path_join(from, sizeof(from), qdir, qname);
        }
        if (ok && wk_path_join(to, sizeof(to), c->crashes, dest))
            wk_file_copy_new(from, to, SEED_LIMIT);
    }
}

/* Every AFL++ finding into crashes/: the starting inputs afl-fuzz skipped
 * as crashing (seed-*), then each instance's crashes and hangs. */
void wk_campaign_gather_afl_findings(const struct campaign *c)
{
    gather_afl_crashing_seeds(c);
    gather_instances(c);
}
