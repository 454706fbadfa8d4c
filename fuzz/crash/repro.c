/* SPDX-License-Identifier: MIT */
/*
 * repro.c - `wddmkit repro`: an input run (N times, each in a forked child)
 * on the driver, its class and signature, whether the runs agreed, then the
 * program as run or the decoded input.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "crash/crash_internal.h"

static void run_once(const struct wk_crash_options *o, const char *harness, const struct wk_prog *p, struct outcome *out)
{
    if (p && !wk_crash_judged_by_harness(o, harness))
        wk_crash_run_program(p, o->driver, o, out);
    else
        wk_crash_run_replay(harness, o->path, o->driver, o->timeout_ms, out);
}

/* Runs --runs times; prints the first result and whether all agreed. */
static int repro_runs(const struct wk_crash_options *o, const char *harness, const struct wk_prog *p)
{
    static struct outcome first, again;
    run_once(o, harness, p, &first);
    wk_crash_print_outcome(&first);
    uint32_t same = 1;
    for (uint32_t i = 1; i < o->runs; i++) {
        run_once(o, harness, p, &again);
        if (wk_crash_same_result(&first, &again))
            same++;
        else if (i + 1 - same <= 3) /* the first few mismatches */
            printf("  run %u differs: %s: %s\n", i + 1, wk_crash_cls_word[again.cls], again.sig);
    }
    if (o->runs > 1 && same == o->runs)
        printf("deterministic: %u/%u identical\n", same, o->runs);
    else if (o->runs > 1)
        printf("NOT deterministic: %u/%u identical to the first run\n", same, o->runs);
    return wk_crash_cls_exit[first.cls];
}

/* A crash file of a `wddmkit fuzz` folder reproduced without --driver: the
 * driver its campaign ran (campaign.txt) is named, as the file most likely
 * passes on the reference driver. */
static void note_campaign_driver(const struct wk_crash_options *o)
{
    static struct wk_crash_campaign c;
    char dir[4096];
    wk_crash_folder_of(o->path, dir, sizeof(dir));
    if (!o->driver && wk_crash_campaign_of(dir, &c) && c.driver[0])
        printf("note: this file comes from a campaign with --driver %s (%s): rerun with it to reproduce what the "
               "engine saw\n", c.driver, c.file);
}

int wk_crash_repro(const struct wk_crash_options *op)
{
    struct wk_crash_options o = *op;
    const char *harness = wk_crash_harness_of(&o, o.path);
    struct wk_prog *p = NULL;
    size_t bytes = 0;
    if (wk_crash_is_prog(harness) && !(p = wk_crash_prepare(&o, o.path, 0, &bytes)))
        return 2;
    if (!p)
        printf("input: %s: %s input, replayed by %s_replay\n", o.path, harness, harness);
    printf("driver: %s\n", o.driver ? o.driver : "the reference driver (built in)");
    note_campaign_driver(&o);
    if (p && wk_crash_judged_by_harness(&o, harness))
        printf("judged by: %s_replay, the harness's comparison with the reference driver, as the engine judged it "
               "(a calibrated program would expect the reference's every status)\n", harness);
    int code = repro_runs(&o, harness, p);
    if (p && wk_crash_judged_by_harness(&o, harness)) {
        printf("program (as calibrated on the reference driver, for reading; the finding's step numbers are the "
               "input's own, which `wddmkit prog dump %s` shows):\n", o.path);
        wk_prog_dump(p, stdout);
    } else if (p) {
        printf("program (as run):\n");
        wk_prog_dump(p, stdout);
    } else if (code != 2) {
        wk_crash_print_decoded(&o, harness);
    }
    wk_crash_prog_del(p);
    return code;
}
