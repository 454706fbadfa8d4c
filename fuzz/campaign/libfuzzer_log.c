/* SPDX-License-Identifier: MIT */
/*
 * libfuzzer_log.c - a libFuzzer campaign's numbers from its logs: the
 * status lines ("#N NEW cov: C ft: F corp: ... exec/s: E") and the final
 * "stat::" lines of -print_final_stats, one log per job (logs/fuzz-J.log).
 *
 * Untrusted input: each log is read through a fixed-size tail buffer and
 * numbers are parsed digit by digit.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "campaign/internal.h"
#include "util.h"

static char g_tail[TAIL_BYTES];

/* libFuzzer: "#N\tNEW cov: C ft: F corp: K/..b ... exec/s: E ..." status
 * lines, and the final "stat::" lines of -print_final_stats. */
static void parse_libfuzzer_log(const char *path, struct stats *s, int *final_eps_missing)
{
    long len = wk_file_tail(path, g_tail, sizeof(g_tail));
    if (len < 0) {
        *final_eps_missing = 1;
        return;
    }
    uint64_t runs = 0, eps = 0, cov = 0, ft = 0, units = 0, avg = 0;
    int have_status = 0, have_units = 0, have_avg = 0;
    for (char *line = g_tail, *end; line < g_tail + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(g_tail + len - line));
        if (!end)
            end = g_tail + len;
        uint64_t v;
        if (line[0] == '#' && wk_campaign_read_num(line + 1, end, &v)) {
            runs = v > runs ? v : runs;
            uint64_t x;
            if (wk_campaign_num_after(line, end, "cov:", &x)) {
                cov = x;
                have_status = 1;
            }
            if (wk_campaign_num_after(line, end, "ft:", &x))
                ft = x;
            if (wk_campaign_num_after(line, end, "exec/s:", &x))
                eps = x;
        } else if (wk_campaign_num_after(line, end, "stat::number_of_executed_units:", &v)) {
            units = v;
            have_units = 1;
        } else if (wk_campaign_num_after(line, end, "stat::average_exec_per_sec:", &v)) {
            avg = v;
            have_avg = 1;
        } else if (end - line > 5 && memcmp(line, "Done ", 5) == 0 && wk_campaign_read_num(line + 5, end, &v)) {
            runs = v > runs ? v : runs;
        }
    }
    if (have_units && units > runs)
        runs = units;
    s->runs += runs;
    s->have_runs = 1;
    if (have_status || have_avg) {
        s->eps += have_avg ? avg : eps;
        s->have_eps = 1;
    }
    if (!have_avg)
        *final_eps_missing = 1;
    if (have_status) {
        s->cov = cov > s->cov ? cov : s->cov;
        s->ft = ft > s->ft ? ft : s->ft;
        s->have_cov = s->have_ft = 1;
    }
}

void wk_campaign_libfuzzer_stats(const struct campaign *c, struct stats *s, int final)
{
    memset(s, 0, sizeof(*s));
    int missing = 0;
    for (uint64_t j = 0; j < c->o.jobs; j++) {
        char p[FPATH], name[64];
        snprintf(name, sizeof(name), "fuzz-%llu.log", (unsigned long long)j);
        if (wk_path_join(p, sizeof(p), c->logs, name))
            parse_libfuzzer_log(p, s, &missing);
    }
    double elapsed = wk_now_seconds() - c->start_mono;
    if (final && missing && elapsed >= 0.5) { /* a crashed job prints no final stats: average over the run */
        s->eps = (uint64_t)((double)s->runs / elapsed);
        s->have_eps = 1;
    }
    s->corpus = wk_campaign_count_files(c->corpus, 0);
    s->crashes = wk_campaign_count_files(c->crashes, c->start);
}
