/* SPDX-License-Identifier: MIT */
/*
 * verdicts.c - from an attempt's result to a case's verdict: the
 * expectations file reclassifies it (expected failure, unexpected pass,
 * skip, flake), an unexpected failure (or a listed flake's failure) is run
 * once more (a pass then makes the case a flake, anything else keeps the
 * first verdict), and the run's
 * exit code sums it all up.
 *
 * A flake fails the run unless the expectations file lists it: the kit is
 * deterministic, so a crash that does not come back is the driver's own
 * intermittent bug, and a run that forgave it would exit 0 on luck. Once
 * someone has listed it as known, it is reported (JUnit's flakyFailure)
 * and forgiven.
 *
 * Reruns are queued, not run at once: the scheduler starts them before
 * the next new case (schedule.c), so -j N stays full, and a run that stops
 * before a rerun started keeps the first verdict (wk_runner_settle_reruns).
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "expectations.h"
#include "runner_internal.h"
#include "util.h"

static int is_failure(enum wk_verdict v)
{
    return v == WK_VERDICT_FAIL || v == WK_VERDICT_CRASH || v == WK_VERDICT_TIMEOUT;
}

enum wk_verdict wk_runner_classify(enum wk_verdict raw, const struct wk_expectation *e)
{
    if (!e)
        return raw;
    switch (e->expect) {
    case WK_VERDICT_SKIP: return WK_VERDICT_SKIP;
    case WK_VERDICT_FLAKE: return is_failure(raw) ? WK_VERDICT_FLAKE : raw;
    default:
        if (raw == e->expect)
            return WK_VERDICT_EXPECTED_FAIL;
        if (raw == WK_VERDICT_PASS)
            return WK_VERDICT_UNEXPECTED_PASS;
        return raw;
    }
}

int wk_verdict_is_unexpected(enum wk_verdict v)
{
    return is_failure(v) || v == WK_VERDICT_ERROR || v == WK_VERDICT_UNEXPECTED_PASS;
}

int wk_case_is_unexpected(enum wk_verdict v, const struct wk_expectation *e)
{
    if (v == WK_VERDICT_FLAKE)
        return !(e && e->expect == WK_VERDICT_FLAKE);
    return wk_verdict_is_unexpected(v);
}

int wk_run_exit_code(const struct wk_run_report *rep)
{
    if (rep->stop == WK_RUN_INTERRUPTED)
        return 128 + (rep->signo > 0 ? rep->signo : 2); /* as a shell reports the signal: 130 SIGINT */
    if (rep->spec_errors_total)
        return 2; /* the suite that ran is not the one written */
    return rep->unexpected || rep->stop == WK_RUN_TOTAL_TIMEOUT ? 1 : 0;
}

void wk_runner_finalize(struct run *R, size_t index, enum wk_verdict v)
{
    struct wk_run_report *rep = R->rep;
    struct wk_case_report *c = &rep->cases[index];
    c->verdict = v;
    c->finished = 1;
    c->unexpected = wk_case_is_unexpected(v, c->expectation);
    rep->finished++;
    rep->totals[v]++;
    rep->unexpected += (size_t)c->unexpected;
    if (R->o->on_done)
        R->o->on_done(R->o->ctx, rep, index);
}

/* A finished attempt: classify, rerun an unexpected failure once, finalize. */
void wk_runner_attempt_done(struct run *R, size_t index, uint32_t attempt, const struct wk_case_result *r,
                         const char *tail)
{
    struct wk_case_report *c = &R->rep->cases[index];
    if (attempt > 0) {
        c->attempts = attempt + 1;
        c->rerun_verdict = r->verdict;
        enum wk_verdict first = wk_runner_classify(c->result.verdict, c->expectation);
        wk_runner_finalize(R, index, r->verdict == WK_VERDICT_PASS ? WK_VERDICT_FLAKE : first);
        return;
    }
    c->result = *r;
    c->seconds = r->seconds;
    c->attempts = 1;
    if (tail && (r->verdict == WK_VERDICT_CRASH || r->verdict == WK_VERDICT_TIMEOUT))
        wk_str_tail_lines(c->output, sizeof(c->output), tail); /* the end: a FATAL line comes last */
    enum wk_verdict v = wk_runner_classify(r->verdict, c->expectation);
    /* a listed flake is rerun too: its report says what the rerun did */
    if ((is_failure(v) || v == WK_VERDICT_FLAKE) && !R->stopping && R->reruns) {
        R->reruns[R->rerun_tail++] = index;
        return;
    }
    wk_runner_finalize(R, index, v);
}

/* Cases whose rerun never started (the run stopped) keep their first verdict. */
void wk_runner_settle_reruns(struct run *R)
{
    while (R->rerun_head < R->rerun_tail) {
        size_t i = R->reruns[R->rerun_head++];
        wk_runner_finalize(R, i, wk_runner_classify(R->rep->cases[i].result.verdict, R->rep->cases[i].expectation));
    }
}
