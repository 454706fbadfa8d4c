/* SPDX-License-Identifier: MIT */
/*
 * runner.c - runs step programs as isolated cases (runner.h): the run
 * itself, from options to a report. It selects and sorts the cases
 * (select.c), matches each to its expectation, then hands them to the
 * scheduler (schedule.c): a process per case, -j N of them at once, or
 * all in this process with --no-fork. The files of this folder share
 * runner_internal.h, which says which does what.
 *
 * The shape, and why: a case's child answers with a fixed-size struct
 * wk_case_result over a pipe (job.c), believed only when it arrived whole
 * from a child that exited with status 0; results land in their case's
 * slot, so the report's order is the cases' id order whatever -j was; a
 * stop signal or the total timeout ends the run with what finished
 * (signals.c, timeouts.c), and every report can still be written. The
 * run's memory is allocated here, before the first case starts, sized by
 * the case count and -j.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "expectations.h"
#include "runner_internal.h"
#include "util.h"

void wk_runner_describe(struct wk_run_report *rep, const struct wk_runner_options *o)
{
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(rep->host, sizeof(rep->host), "%.40s %.20s %.40s %.20s", u.nodename, u.sysname, u.release,
                 u.machine);
    else
        snprintf(rep->host, sizeof(rep->host), "unknown");
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(rep->start_time, sizeof(rep->start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
    rep->driver = o->driver;
    rep->contract = o->contract;
    rep->stress = o->contract && o->stress;
    rep->gpu = o->gpu;
    rep->gpu_given = o->gpu_given;
    rep->binding = o->binding;
    rep->binding_given = o->binding_given;
    rep->umd = o->umd;
    rep->umd_given = o->umd_given;
    rep->seed = o->seed;
    rep->has_seed = o->has_seed;
    rep->jobs = o->no_fork ? 1 : o->jobs ? o->jobs : 1;
    rep->shard_index = o->shard_index;
    rep->shard_count = o->shard_count;
    if (!rep->kit_version)
        rep->kit_version = "unknown";
    if (!rep->kit_commit)
        rep->kit_commit = "unknown";
}

static wk_status prepare(struct run *R, const struct wk_prog *const *cases, size_t n, FILE *err)
{
    size_t *index = NULL, count = 0;
    wk_status st = wk_runner_select(cases, n, R->o, &index, &count, err);
    if (st != WK_OK)
        return st;
    struct wk_run_report *rep = R->rep;
    rep->cases = calloc(count ? count : 1, sizeof(*rep->cases));
    R->reruns = calloc(count ? count : 1, sizeof(*R->reruns));
    R->slots = R->o->jobs < 1 ? 1 : R->o->jobs > MAX_JOBS ? MAX_JOBS : R->o->jobs;
    R->jobs = calloc(R->slots, sizeof(*R->jobs));
    R->pf = calloc(4u * R->slots + 1u, sizeof(*R->pf));
    if (!rep->cases || !R->reruns || !R->jobs || !R->pf) {
        free(index);
        return WK_E_NO_MEMORY;
    }
    rep->count = count;
    for (size_t i = 0; i < count; i++) {
        struct wk_case_report *c = &rep->cases[i];
        c->prog = cases[index[i]];
        c->result.failed_step = -1;
        c->expectation = R->o->expectations ? wk_expectations_match(R->o->expectations, c->prog->id) : NULL;
    }
    free(index);
    return WK_OK;
}

wk_status wk_runner_run(const struct wk_prog *const *cases, size_t n, const struct wk_runner_options *o,
                        struct wk_run_report *out, FILE *err)
{
    const char *version = out->kit_version, *commit = out->kit_commit;
    const char *sha256 = out->driver_sha256, *build_id = out->driver_build_id;
    memset(out, 0, sizeof(*out));
    out->kit_version = version;
    out->kit_commit = commit;
    out->driver_sha256 = sha256;
    out->driver_build_id = build_id;
    wk_runner_describe(out, o);
    struct run R;
    memset(&R, 0, sizeof(R));
    R.o = o;
    R.rep = out;
    R.parent = getpid();
    for (size_t i = 0; i < MAX_JOBS; i++)
        R.zygote[i].fd = -1;
    R.abort_id = getenv("WK_RUNNER_TEST_ABORT_ID");
    R.flaky_id = getenv("WK_RUNNER_TEST_FLAKY_ID");
    wk_status st = prepare(&R, cases, n, err);
    /* In this process, the driver is loaded once and its DriverEntry runs
     * once, as Windows runs it once per load (vidmm.h, wk_vidmm_load_once). */
    if (st == WK_OK && o->no_fork)
        st = wk_vidmm_driver_new(&R.once);
    if (st == WK_OK) {
        wk_runner_signals_begin(o->catch_signals);
        R.t0 = wk_now_seconds();
        R.total_deadline = o->total_timeout > 0 ? R.t0 + o->total_timeout : 0;
        if (o->no_fork)
            wk_runner_run_in_process(&R);
        else
            wk_runner_run_forked(&R);
        wk_runner_settle_reruns(&R);
        out->seconds = wk_now_seconds() - R.t0;
        wk_runner_signals_end(o->catch_signals);
    }
    wk_vidmm_driver_free(R.once);
    free(R.reruns);
    free(R.jobs);
    free(R.pf);
    return st;
}

void wk_run_report_count(struct wk_run_report *rep)
{
    rep->finished = rep->unexpected = 0;
    memset(rep->totals, 0, sizeof(rep->totals));
    for (size_t i = 0; i < rep->count; i++) {
        const struct wk_case_report *c = &rep->cases[i];
        if (!c->finished)
            continue;
        rep->finished++;
        rep->totals[c->verdict]++;
        rep->unexpected += (size_t)c->unexpected;
    }
}

void wk_run_report_take(struct wk_run_report *into, const struct wk_run_report *from)
{
    size_t k = 0;
    for (size_t i = 0; i < from->count; i++) {
        const struct wk_case_report *c = &from->cases[i];
        if (!c->finished)
            continue;
        for (size_t tried = 0; tried < into->count && into->cases[k].prog != c->prog; tried++)
            k = (k + 1) % into->count; /* both in id order: the next one, almost always */
        if (into->count && into->cases[k].prog == c->prog)
            into->cases[k] = *c;
    }
    wk_run_report_count(into);
}

void wk_run_report_free(struct wk_run_report *rep)
{
    free(rep->cases);
    rep->cases = NULL;
    rep->count = 0;
}
