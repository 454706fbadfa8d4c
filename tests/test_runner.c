/* SPDX-License-Identifier: MIT */
/*
 * test_runner.c - the case runner of `wddmkit conform`, driven with step
 * programs built in C (no spec loader needed).
 *
 *   isolation     a driver that segfaults, hangs or writes past its DMA
 *                 buffer inside Render (negative cases pass, positive ones
 *                 fail, the run goes on); a case process that really dies
 *                 (WK_RUNNER_TEST_ABORT_ID) is a crash named by its signal;
 *                 one that hangs past --timeout is a timeout
 *   scheduling    -j 2 and -j 4 give -j 1's results in -j 1's order; shards
 *                 partition exactly; filters and excludes; --no-fork;
 *                 --total-timeout; SIGINT from a callback and from a thread;
 *                 a zygote killed mid-run is replaced, and a slot's
 *                 process stopped between cases
 *   expectations  the classification table; expected-fail, unexpected-pass,
 *                 flake (WK_RUNNER_TEST_FLAKY_ID), skip, expected crash;
 *                 every parse error with its exact message and position;
 *                 an entry that matches no case
 *   reports       JUnit checked by a small XML well-formedness parser with
 *                 element counts, TAP by a line parser, JSON by a validator;
 *                 hostile strings (quotes, <, &, control characters, bad
 *                 UTF-8) stay well-formed; files appear atomically
 *   coverage      rules exercised by passing and negative cases
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conformance.h"
#include "util.h"
#include "wddmkit/umd.h"

/* ------------------------------------------------------------------ */
/* Programs                                                             */
/* ------------------------------------------------------------------ */

enum kind {
    K_PASS,          /* render a FILL, check the pattern */
    K_FAIL,          /* the same, checking the wrong pattern */
    K_NEG_CRASH,     /* render-crash, trips DRV-CRASH-001 */
    K_NEG_HANG,      /* render-hang with a 200 ms DDI timer, trips DRV-HANG-001 */
    K_NEG_OVERRUN,   /* render-overrun, trips MEM-GUARD-001 */
    K_POS_CRASH,     /* render-crash in a case that expects no violation */
    K_POS_OVERRUN,   /* render-overrun in a case that expects no violation */
    K_HANG_FOREVER,  /* render-hang with no DDI timer: only the runner can stop it */
};

static struct wk_step *add_step(struct wk_prog *p, enum wk_step_kind k)
{
    struct wk_step *s = &p->steps[p->step_count++];
    memset(s, 0, sizeof(*s));
    s->kind = k;
    s->line = 10 + p->step_count;
    return s;
}

static void add_render(struct wk_prog *p, uint32_t pattern, uint32_t check)
{
    add_step(p, WK_STEP_CREATE_DEVICE);
    add_step(p, WK_STEP_CREATE_CONTEXT);
    struct wk_step *a = add_step(p, WK_STEP_CREATE_ALLOCATION);
    a->alloc.size = 64 * 1024;
    a->alloc.priority = 1;
    struct wk_step *r = add_step(p, WK_STEP_RENDER);
    r->render = calloc(1, sizeof(*r->render));
    assert_non_null(r->render);
    r->render->list_length = 1;
    r->render->list_alloc[0] = 1;
    r->render->list_write[0] = 1;
    r->render->record_count = 1;
    r->render->records[0].op = WK_USER_OP_FILL;
    r->render->records[0].size = 0x1000;
    r->render->records[0].value = pattern;
    add_step(p, WK_STEP_WAIT_IDLE);
    struct wk_step *e = add_step(p, WK_STEP_EXPECT_PATTERN);
    e->value = check;
    e->size = 0x1000;
}

static void set_rewrite(struct wk_prog *p, const char *mutation, const char *trips)
{
    p->has_rewrite = 1;
    snprintf(p->rewrite.mutation, sizeof(p->rewrite.mutation), "%s", mutation);
    p->rewrite.call = 1;
    snprintf(p->trips, sizeof(p->trips), "%s", trips);
}

static struct wk_prog *make_prog(const char *id, enum kind k)
{
    struct wk_prog *p = calloc(1, sizeof(*p));
    assert_non_null(p);
    wk_prog_init(p);
    snprintf(p->id, sizeof(p->id), "%s", id);
    snprintf(p->area, sizeof(p->area), "%.*s", (int)strcspn(id, "."), id);
    snprintf(p->file, sizeof(p->file), "specs/%s.yaml", p->area);
    p->line = 3;
    add_render(p, 0x11223344u, k == K_FAIL ? 0xdeadbeefu : 0x11223344u);
    switch (k) {
    case K_NEG_CRASH: set_rewrite(p, "render-crash", "DRV-CRASH-001"); break;
    case K_NEG_HANG: set_rewrite(p, "render-hang", "DRV-HANG-001"); p->vidmm.ddi_timeout_ms = 200; break;
    case K_NEG_OVERRUN: set_rewrite(p, "render-overrun", "MEM-GUARD-001"); break;
    case K_POS_CRASH: set_rewrite(p, "render-crash", ""); break;
    case K_POS_OVERRUN: set_rewrite(p, "render-overrun", ""); break;
    case K_HANG_FOREVER:
        set_rewrite(p, "render-hang", "DRV-HANG-001");
        p->vidmm.ddi_timeout_ms = UINT32_MAX;
        break;
    default: break;
    }
    return p;
}

#define MAX_PROGS 64

struct suite {
    struct wk_prog *p[MAX_PROGS];
    size_t n;
};

static void suite_add(struct suite *s, const char *id, enum kind k)
{
    assert_true(s->n < MAX_PROGS);
    s->p[s->n++] = make_prog(id, k);
}

static void suite_free(struct suite *s)
{
    for (size_t i = 0; i < s->n; i++) {
        wk_prog_free(s->p[i]);
        free(s->p[i]);
    }
    s->n = 0;
}

static const struct wk_prog *const *cases_of(const struct suite *s)
{
    return (const struct wk_prog *const *)s->p;
}

static struct wk_runner_options options(uint32_t jobs)
{
    struct wk_runner_options o;
    memset(&o, 0, sizeof(o));
    o.jobs = jobs;
    o.case_timeout = 20;
    return o;
}

static const struct wk_case_report *find_case(const struct wk_run_report *rep, const char *id)
{
    for (size_t i = 0; i < rep->count; i++)
        if (strcmp(rep->cases[i].prog->id, id) == 0)
            return &rep->cases[i];
    fail_msg("case %s is not in the report", id);
    abort(); /* not reached: fail_msg ends the test; says so to gcc's -Wstringop-overread */
}

static void run_ok(const struct suite *s, const struct wk_runner_options *o, struct wk_run_report *rep)
{
    memset(rep, 0, sizeof(*rep));
    assert_int_equal(wk_runner_run(cases_of(s), s->n, o, rep, stderr), WK_OK);
}

static void expect_verdict(const struct wk_run_report *rep, const char *id, enum wk_verdict v)
{
    const struct wk_case_report *c = find_case(rep, id);
    if (!c->finished || c->verdict != v)
        fail_msg("%s: verdict %s (finished %d), expected %s; seen: %s", id, wk_verdict_name(c->verdict), c->finished,
                 wk_verdict_name(v), c->result.seen);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ */
/* Isolation                                                            */
/* ------------------------------------------------------------------ */

static void test_driver_faults_in_negative_cases_pass(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "iso.crash", K_NEG_CRASH);
    suite_add(&s, "iso.hang", K_NEG_HANG);
    suite_add(&s, "iso.overrun", K_NEG_OVERRUN);
    suite_add(&s, "iso.render", K_PASS);
    struct wk_runner_options o = options(2);
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    assert_int_equal(rep.finished, 4);
    expect_verdict(&rep, "iso.crash", WK_VERDICT_PASS);
    expect_verdict(&rep, "iso.hang", WK_VERDICT_PASS);
    expect_verdict(&rep, "iso.overrun", WK_VERDICT_PASS);
    expect_verdict(&rep, "iso.render", WK_VERDICT_PASS);
    assert_string_equal(find_case(&rep, "iso.crash")->result.rule, "DRV-CRASH-001");
    assert_string_equal(find_case(&rep, "iso.overrun")->result.rule, "MEM-GUARD-001");
    assert_int_equal(rep.unexpected, 0);
    assert_int_equal(wk_run_exit_code(&rep), 0);
    wk_run_report_free(&rep);
    suite_free(&s);
}

static void test_driver_faults_in_positive_cases_fail(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "iso.a-before", K_PASS);
    suite_add(&s, "iso.crash", K_POS_CRASH);
    suite_add(&s, "iso.overrun", K_POS_OVERRUN);
    suite_add(&s, "iso.z-after", K_PASS);
    struct wk_runner_options o = options(2);
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    assert_int_equal(rep.finished, 4);
    expect_verdict(&rep, "iso.crash", WK_VERDICT_FAIL);
    expect_verdict(&rep, "iso.overrun", WK_VERDICT_FAIL);
    expect_verdict(&rep, "iso.a-before", WK_VERDICT_PASS);
    expect_verdict(&rep, "iso.z-after", WK_VERDICT_PASS);
    assert_non_null(strstr(find_case(&rep, "iso.crash")->result.seen, "DRV-CRASH-001"));
    assert_non_null(strstr(find_case(&rep, "iso.overrun")->result.seen, "MEM-GUARD-001"));
    assert_int_equal(find_case(&rep, "iso.crash")->attempts, 2); /* rerun: failed again */
    assert_int_equal(rep.unexpected, 2);
    assert_int_equal(wk_run_exit_code(&rep), 1);
    wk_run_report_free(&rep);
    suite_free(&s);
}

static void test_child_that_dies_is_a_crash(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "die.abort", K_PASS);
    suite_add(&s, "die.next", K_PASS);
    setenv("WK_RUNNER_TEST_ABORT_ID", "die.abort", 1);
    struct wk_runner_options o = options(2);
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    unsetenv("WK_RUNNER_TEST_ABORT_ID");
    expect_verdict(&rep, "die.abort", WK_VERDICT_CRASH);
    expect_verdict(&rep, "die.next", WK_VERDICT_PASS);
    const struct wk_case_report *c = find_case(&rep, "die.abort");
    assert_non_null(strstr(c->result.seen, "killed by SIGABRT (Aborted); SUMMARY: WK_RUNNER_TEST_ABORT_ID aborts "
                                           "case 'die.abort'"));
    assert_string_equal(c->output, "SUMMARY: WK_RUNNER_TEST_ABORT_ID aborts case 'die.abort'\n");
    assert_int_equal(c->attempts, 2);
    assert_int_equal(c->rerun_verdict, WK_VERDICT_CRASH);
    assert_int_equal(wk_run_exit_code(&rep), 1);
    wk_run_report_free(&rep);
    suite_free(&s);
}

static void test_hang_past_the_timeout_is_a_timeout(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "hang.forever", K_HANG_FOREVER);
    suite_add(&s, "hang.neighbour", K_PASS);
    struct wk_runner_options o = options(2);
    o.case_timeout = 0.4;
    struct wk_run_report rep;
    double t = now();
    run_ok(&s, &o, &rep);
    double took = now() - t;
    expect_verdict(&rep, "hang.forever", WK_VERDICT_TIMEOUT);
    expect_verdict(&rep, "hang.neighbour", WK_VERDICT_PASS);
    const struct wk_case_report *c = find_case(&rep, "hang.forever");
    assert_non_null(strstr(c->result.seen, "killed"));
    assert_int_equal(c->attempts, 2);
    assert_true(c->seconds >= 0.4 && c->seconds < 5);
    assert_true(took < 10);
    wk_run_report_free(&rep);
    suite_free(&s);
}

/* ------------------------------------------------------------------ */
/* Scheduling                                                           */
/* ------------------------------------------------------------------ */

static void mixed_suite(struct suite *s)
{
    static const enum kind kinds[] = { K_PASS, K_FAIL, K_NEG_CRASH, K_POS_OVERRUN, K_PASS, K_NEG_OVERRUN };
    for (int i = 0; i < 12; i++) {
        char id[32];
        /* Added out of id order on purpose: the report sorts. */
        snprintf(id, sizeof(id), "%s.case-%02d", i % 3 ? "beta" : "alpha", 11 - i);
        suite_add(s, id, kinds[i % 6]);
    }
}

static void test_parallel_results_equal_serial(void **state)
{
    (void)state;
    struct suite s = { 0 };
    mixed_suite(&s);
    struct wk_run_report serial, parallel;
    struct wk_runner_options o = options(1);
    run_ok(&s, &o, &serial);
    for (uint32_t jobs = 2; jobs <= 4; jobs += 2) {
        o = options(jobs);
        run_ok(&s, &o, &parallel);
        assert_int_equal(parallel.count, serial.count);
        for (size_t i = 0; i < serial.count; i++) {
            const struct wk_case_report *a = &serial.cases[i], *b = &parallel.cases[i];
            assert_string_equal(a->prog->id, b->prog->id);
            assert_int_equal(a->verdict, b->verdict);
            assert_string_equal(a->result.rule, b->result.rule);
            assert_string_equal(a->result.seen, b->result.seen);
            assert_int_equal(a->result.failed_step, b->result.failed_step);
            if (i)
                assert_true(strcmp(serial.cases[i - 1].prog->id, a->prog->id) < 0);
        }
        wk_run_report_free(&parallel);
    }
    wk_run_report_free(&serial);
    suite_free(&s);
}

static void test_shards_partition_exactly(void **state)
{
    (void)state;
    struct suite s = { 0 };
    for (int i = 0; i < 23; i++) {
        char id[32];
        snprintf(id, sizeof(id), "area%d.case-%02d", i % 4, (i * 7) % 23);
        suite_add(&s, id, K_PASS);
    }
    int seen[MAX_PROGS] = { 0 };
    for (uint32_t shard = 1; shard <= 5; shard++) {
        struct wk_runner_options o = options(1);
        o.shard_index = shard;
        o.shard_count = 5;
        size_t *idx = NULL, n = 0, *again = NULL, m = 0;
        assert_int_equal(wk_runner_select(cases_of(&s), s.n, &o, &idx, &n, stderr), WK_OK);
        assert_int_equal(wk_runner_select(cases_of(&s), s.n, &o, &again, &m, stderr), WK_OK);
        assert_true(n == 4 || n == 5);
        assert_int_equal(n, m);
        assert_memory_equal(idx, again, n * sizeof(*idx));
        for (size_t i = 0; i < n; i++)
            seen[idx[i]]++;
        free(idx);
        free(again);
    }
    for (size_t i = 0; i < s.n; i++)
        assert_int_equal(seen[i], 1);
    /* A shard outside 1..N is an error. */
    struct wk_runner_options bad = options(1);
    bad.shard_index = 6;
    bad.shard_count = 5;
    size_t *idx = NULL, n = 0;
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    assert_int_equal(wk_runner_select(cases_of(&s), s.n, &bad, &idx, &n, err), WK_E_INVALID_ARGUMENT);
    fclose(err);
    assert_string_equal(msg, "wddmkit: --shard 6/5: the shard index must lie in 1..5\n");
    free(msg);
    suite_free(&s);
}

static size_t select_count(const struct suite *s, const char *const *filters, size_t nf, const char *const *excludes,
                           size_t ne)
{
    struct wk_runner_options o = options(1);
    o.filters = filters;
    o.filter_count = nf;
    o.excludes = excludes;
    o.exclude_count = ne;
    size_t *idx = NULL, n = 0;
    assert_int_equal(wk_runner_select(cases_of(s), s->n, &o, &idx, &n, stderr), WK_OK);
    free(idx);
    return n;
}

static void test_filter_and_exclude(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "paging-fill.whole", K_PASS);
    suite_add(&s, "paging-fill.part", K_PASS);
    suite_add(&s, "paging-transfer.whole", K_PASS);
    suite_add(&s, "render.one", K_PASS);
    const char *paging[] = { "paging-*" }, *two[] = { "render.*", "*.part" }, *whole[] = { "*.whole" };
    const char *exact[] = { "render.one" }, *none[] = { "nothing*" };
    assert_int_equal(select_count(&s, NULL, 0, NULL, 0), 4);
    assert_int_equal(select_count(&s, paging, 1, NULL, 0), 3);
    assert_int_equal(select_count(&s, two, 2, NULL, 0), 2);
    assert_int_equal(select_count(&s, paging, 1, whole, 1), 1);
    assert_int_equal(select_count(&s, NULL, 0, whole, 1), 2);
    assert_int_equal(select_count(&s, exact, 1, NULL, 0), 1);
    assert_int_equal(select_count(&s, none, 1, NULL, 0), 0);
    suite_free(&s);
}

static void test_duplicate_ids_are_an_error(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "dup.one", K_PASS);
    suite_add(&s, "dup.one", K_PASS);
    struct wk_runner_options o = options(1);
    struct wk_run_report rep;
    memset(&rep, 0, sizeof(rep));
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    assert_int_equal(wk_runner_run(cases_of(&s), s.n, &o, &rep, err), WK_E_INVALID_ARGUMENT);
    fclose(err);
    assert_string_equal(msg, "wddmkit: duplicate case id 'dup.one' (specs/dup.yaml:3 and specs/dup.yaml:3)\n");
    free(msg);
    wk_run_report_free(&rep);
    suite_free(&s);
}

static void test_no_fork_matches_fork(void **state)
{
    (void)state;
    struct suite s = { 0 };
    /* No driver crash in here: a crashed driver's state is abandoned, and
     * in this process LeakSanitizer would (rightly) report it. */
    suite_add(&s, "nf.pass", K_PASS);
    suite_add(&s, "nf.fail", K_FAIL);
    struct wk_runner_options o = options(1);
    struct wk_run_report forked, inproc;
    run_ok(&s, &o, &forked);
    o.no_fork = 1;
    run_ok(&s, &o, &inproc);
    for (size_t i = 0; i < s.n; i++) {
        assert_int_equal(forked.cases[i].verdict, inproc.cases[i].verdict);
        assert_string_equal(forked.cases[i].result.seen, inproc.cases[i].result.seen);
        assert_int_equal(forked.cases[i].attempts, inproc.cases[i].attempts);
    }
    expect_verdict(&inproc, "nf.fail", WK_VERDICT_FAIL);
    assert_int_equal(find_case(&inproc, "nf.fail")->result.failed_step, 5);
    wk_run_report_free(&forked);
    wk_run_report_free(&inproc);
    suite_free(&s);
}

static void test_total_timeout_stops_the_run(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "tt.a-quick", K_PASS);
    suite_add(&s, "tt.b-hang", K_HANG_FOREVER);
    suite_add(&s, "tt.c-never", K_PASS);
    struct wk_runner_options o = options(1);
    o.total_timeout = 1.0;
    struct wk_run_report rep;
    double t = now();
    run_ok(&s, &o, &rep);
    assert_true(now() - t < 5);
    assert_int_equal(rep.stop, WK_RUN_TOTAL_TIMEOUT);
    expect_verdict(&rep, "tt.a-quick", WK_VERDICT_PASS);
    assert_false(find_case(&rep, "tt.b-hang")->finished);
    assert_false(find_case(&rep, "tt.c-never")->finished);
    assert_int_equal(rep.finished, 1);
    assert_int_equal(wk_run_exit_code(&rep), 1);
    wk_run_report_free(&rep);
    suite_free(&s);
}

/* ------------------------------------------------------------------ */
/* Expectations                                                         */
/* ------------------------------------------------------------------ */

/* The zygote the cases start from (conformance/runner/zygote.c), a child
 * of this process named by its command line; 0 when none runs. */
static pid_t find_zygote(void)
{
    char path[96], line[4096], cmd[64];
    snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(line, 1, sizeof(line) - 1, f);
    fclose(f);
    line[n] = '\0';
    pid_t found = 0;
    for (char *tok = strtok(line, " \n"); tok && !found; tok = strtok(NULL, " \n")) {
        snprintf(path, sizeof(path), "/proc/%s/cmdline", tok);
        FILE *c = fopen(path, "r");
        if (!c)
            continue;
        size_t k = fread(cmd, 1, sizeof(cmd) - 1, c);
        fclose(c);
        cmd[k] = '\0';
        if (strcmp(cmd, "wddmkit-zygote") == 0)
            found = (pid_t)atoi(tok);
    }
    return found;
}

struct zygote_watch {
    pid_t seen[8];                    /* the zygote as each case started */
    int killed;
};

static void kill_the_zygote_at_case_1(void *ctx, const struct wk_run_report *rep, size_t index)
{
    struct zygote_watch *w = ctx;
    (void)rep;
    pid_t z = find_zygote();
    if (index < 8)
        w->seen[index] = z;
    if (index == 1 && z > 0 && kill(z, SIGKILL) == 0)
        w->killed = 1;
}

/* Cases start from a zygote (issue 26, item 4), which is replaced when it
 * dies (a driver can kill it): the case launched then still runs, and is
 * judged as ever; no zygote outlives the run. */
static void test_a_killed_zygote_is_replaced(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "zyg.a", K_PASS);
    suite_add(&s, "zyg.b", K_PASS);
    suite_add(&s, "zyg.c", K_NEG_CRASH);
    suite_add(&s, "zyg.d", K_FAIL);
    struct zygote_watch w;
    memset(&w, 0, sizeof(w));
    struct wk_runner_options o = options(1);
    o.on_start = kill_the_zygote_at_case_1;
    o.ctx = &w;
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    expect_verdict(&rep, "zyg.a", WK_VERDICT_PASS);
    expect_verdict(&rep, "zyg.b", WK_VERDICT_PASS);
    expect_verdict(&rep, "zyg.c", WK_VERDICT_PASS);
    expect_verdict(&rep, "zyg.d", WK_VERDICT_FAIL);
    assert_true(w.seen[0] > 0); /* the cases start from one */
    assert_int_equal(w.killed, 1);
    assert_true(w.seen[2] > 0 && w.seen[2] != w.seen[1]); /* a new one */
    assert_int_equal(w.seen[3], w.seen[2]);
    assert_int_equal(find_zygote(), 0);
    wk_run_report_free(&rep);
    suite_free(&s);
}

static void stop_the_slot_process_at_case_1(void *ctx, const struct wk_run_report *rep, size_t index)
{
    struct zygote_watch *w = ctx;
    (void)rep;
    pid_t z = find_zygote();
    if (index < 8)
        w->seen[index] = z;
    if (index == 1 && z > 0 && kill(z, SIGSTOP) == 0)
        w->killed = 1;
}

/* The process the cases start from is also their shepherd, one per -j
 * slot living across cases (zygote.c), and a driver of another slot can
 * stop it between cases: the next launch finds it stopped and replaces
 * it at once (not after the 10 s an unanswered launch waits), the case
 * launched then runs and is judged as ever, and nothing stopped is left. */
static void test_a_stopped_slot_process_is_replaced(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "stop.a", K_PASS);
    suite_add(&s, "stop.b", K_PASS);
    suite_add(&s, "stop.c", K_NEG_CRASH);
    suite_add(&s, "stop.d", K_FAIL);
    struct zygote_watch w;
    memset(&w, 0, sizeof(w));
    struct wk_runner_options o = options(1);
    o.on_start = stop_the_slot_process_at_case_1;
    o.ctx = &w;
    struct wk_run_report rep;
    double t = wk_now_seconds();
    run_ok(&s, &o, &rep);
    assert_true(wk_now_seconds() - t < 5.0);
    expect_verdict(&rep, "stop.a", WK_VERDICT_PASS);
    expect_verdict(&rep, "stop.b", WK_VERDICT_PASS);
    expect_verdict(&rep, "stop.c", WK_VERDICT_PASS);
    expect_verdict(&rep, "stop.d", WK_VERDICT_FAIL);
    assert_int_equal(w.killed, 1);
    assert_int_equal(w.seen[1], w.seen[0]); /* one process across cases a and b's start */
    assert_true(w.seen[2] > 0 && w.seen[2] != w.seen[1]); /* a new one */
    assert_int_equal(w.seen[3], w.seen[2]);
    assert_int_equal(find_zygote(), 0);
    assert_int_equal(kill(w.seen[1], 0), -1); /* the stopped one was killed and reaped */
    wk_run_report_free(&rep);
    suite_free(&s);
}

static void test_classification_table(void **state)
{
    (void)state;
    struct wk_expectation e;
    memset(&e, 0, sizeof(e));
    assert_int_equal(wk_runner_classify(WK_VERDICT_PASS, NULL), WK_VERDICT_PASS);
    assert_int_equal(wk_runner_classify(WK_VERDICT_CRASH, NULL), WK_VERDICT_CRASH);
    e.expect = WK_VERDICT_FAIL;
    assert_int_equal(wk_runner_classify(WK_VERDICT_FAIL, &e), WK_VERDICT_EXPECTED_FAIL);
    assert_int_equal(wk_runner_classify(WK_VERDICT_PASS, &e), WK_VERDICT_UNEXPECTED_PASS);
    assert_int_equal(wk_runner_classify(WK_VERDICT_CRASH, &e), WK_VERDICT_CRASH);
    assert_int_equal(wk_runner_classify(WK_VERDICT_SKIP, &e), WK_VERDICT_SKIP);
    e.expect = WK_VERDICT_CRASH;
    assert_int_equal(wk_runner_classify(WK_VERDICT_CRASH, &e), WK_VERDICT_EXPECTED_FAIL);
    assert_int_equal(wk_runner_classify(WK_VERDICT_FAIL, &e), WK_VERDICT_FAIL);
    e.expect = WK_VERDICT_TIMEOUT;
    assert_int_equal(wk_runner_classify(WK_VERDICT_TIMEOUT, &e), WK_VERDICT_EXPECTED_FAIL);
    e.expect = WK_VERDICT_FLAKE;
    assert_int_equal(wk_runner_classify(WK_VERDICT_FAIL, &e), WK_VERDICT_FLAKE);
    assert_int_equal(wk_runner_classify(WK_VERDICT_TIMEOUT, &e), WK_VERDICT_FLAKE);
    assert_int_equal(wk_runner_classify(WK_VERDICT_PASS, &e), WK_VERDICT_PASS);
    e.expect = WK_VERDICT_SKIP;
    assert_int_equal(wk_runner_classify(WK_VERDICT_FAIL, &e), WK_VERDICT_SKIP);
    assert_true(wk_verdict_is_unexpected(WK_VERDICT_UNEXPECTED_PASS));
    assert_true(wk_verdict_is_unexpected(WK_VERDICT_ERROR));
    assert_false(wk_verdict_is_unexpected(WK_VERDICT_FLAKE));
    assert_false(wk_verdict_is_unexpected(WK_VERDICT_EXPECTED_FAIL));
    /* a flake fails the run unless an entry lists it as one */
    assert_true(wk_case_is_unexpected(WK_VERDICT_FLAKE, NULL));
    e.expect = WK_VERDICT_FAIL;
    assert_true(wk_case_is_unexpected(WK_VERDICT_FLAKE, &e));
    e.expect = WK_VERDICT_FLAKE;
    assert_false(wk_case_is_unexpected(WK_VERDICT_FLAKE, &e));
    assert_true(wk_case_is_unexpected(WK_VERDICT_FAIL, &e));
    assert_false(wk_case_is_unexpected(WK_VERDICT_PASS, NULL));
}

static struct wk_expectations *parse_ok(const char *text)
{
    struct wk_expectations *e = NULL;
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    wk_status st = wk_expectations_parse("exp.yaml", text, strlen(text), &e, err);
    fclose(err);
    if (st != WK_OK)
        fail_msg("parse failed: %s", msg);
    free(msg);
    return e;
}

static const char logic_doc[] =
    "# known results of the test driver\n"
    "- id: logic.known-fail\n"
    "  expect: fail\n"
    "  reason: \"the pattern check is wrong on purpose\"\n"
    "  link: https://example.org/bugs/1\n"
    "- id: logic.fixed\n"
    "  expect: fail\n"
    "  reason: fixed since\n"
    "  link: wddmkit#2\n"
    "- id: logic.skipped*\n"
    "  expect: skip\n"
    "  reason: would abort the run\n"
    "  link: https://example.org/bugs/3\n"
    "- id: logic.dies\n"
    "  expect: crash\n"
    "  reason: aborts\n"
    "  link: https://example.org/bugs/4\n"
    "- id: logic.listed-flake\n"
    "  expect: flake\n"
    "  reason: fails now and then\n"
    "  link: https://example.org/bugs/5\n";

static void test_expectations_logic(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "logic.known-fail", K_FAIL);
    suite_add(&s, "logic.fixed", K_PASS);
    suite_add(&s, "logic.skipped-one", K_PASS);
    suite_add(&s, "logic.dies", K_PASS);
    suite_add(&s, "logic.listed-flake", K_FAIL);
    suite_add(&s, "logic.new-flake", K_PASS);
    suite_add(&s, "logic.new-fail", K_FAIL);
    suite_add(&s, "logic.plain", K_PASS);
    struct wk_expectations *e = parse_ok(logic_doc);
    assert_int_equal(e->count, 5);
    assert_int_equal(wk_expectations_check_unused(e, cases_of(&s), s.n, stderr), 0);
    /* logic.skipped-one would die if it ran: the skip entry keeps it from running. */
    setenv("WK_RUNNER_TEST_ABORT_ID", "logic.skipped-one", 1);
    setenv("WK_RUNNER_TEST_FLAKY_ID", "logic.new-flake", 1);
    struct wk_runner_options o = options(2);
    o.expectations = e;
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    unsetenv("WK_RUNNER_TEST_ABORT_ID");
    unsetenv("WK_RUNNER_TEST_FLAKY_ID");
    expect_verdict(&rep, "logic.known-fail", WK_VERDICT_EXPECTED_FAIL);
    expect_verdict(&rep, "logic.fixed", WK_VERDICT_UNEXPECTED_PASS);
    expect_verdict(&rep, "logic.skipped-one", WK_VERDICT_SKIP);
    expect_verdict(&rep, "logic.listed-flake", WK_VERDICT_FLAKE);
    expect_verdict(&rep, "logic.new-flake", WK_VERDICT_FLAKE);
    expect_verdict(&rep, "logic.new-fail", WK_VERDICT_FAIL);
    expect_verdict(&rep, "logic.plain", WK_VERDICT_PASS);
    /* Expected to crash (see test_expected_crash), but it passed here. */
    expect_verdict(&rep, "logic.dies", WK_VERDICT_UNEXPECTED_PASS);
    /* a listed flake is rerun too (its report says how the rerun went) and forgiven */
    assert_int_equal(find_case(&rep, "logic.listed-flake")->attempts, 2);
    assert_int_equal(find_case(&rep, "logic.listed-flake")->rerun_verdict, WK_VERDICT_FAIL);
    assert_false(find_case(&rep, "logic.listed-flake")->unexpected);
    assert_int_equal(find_case(&rep, "logic.new-flake")->attempts, 2);
    assert_int_equal(find_case(&rep, "logic.new-flake")->rerun_verdict, WK_VERDICT_PASS);
    assert_true(find_case(&rep, "logic.new-flake")->unexpected); /* an unlisted flake fails the run */
    assert_int_equal(find_case(&rep, "logic.new-fail")->attempts, 2);
    assert_int_equal(find_case(&rep, "logic.known-fail")->attempts, 1);
    assert_int_equal(rep.unexpected, 4); /* logic.fixed, logic.dies, logic.new-flake and logic.new-fail */
    assert_int_equal(wk_run_exit_code(&rep), 1);
    wk_run_report_free(&rep);
    wk_expectations_free(e);
    suite_free(&s);
}

/* A run whose only trouble is a flake: exit 1 when no entry lists it (a
 * crash that did not come back must not read "all as expected"), 0 when
 * one does. */
static void test_flake_exit_code(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "logic.listed-flake", K_PASS);
    suite_add(&s, "logic.plain", K_PASS);
    struct wk_expectations *e = parse_ok("- id: logic.listed-flake\n  expect: flake\n  reason: now and then\n"
                                         "  link: wddmkit#22\n");
    setenv("WK_RUNNER_TEST_FLAKY_ID", "logic.listed-flake", 1);
    for (int listed = 0; listed < 2; listed++) {
        struct wk_runner_options o = options(2);
        o.expectations = listed ? e : NULL;
        struct wk_run_report rep;
        run_ok(&s, &o, &rep);
        expect_verdict(&rep, "logic.listed-flake", WK_VERDICT_FLAKE);
        assert_int_equal(find_case(&rep, "logic.listed-flake")->rerun_verdict, WK_VERDICT_PASS);
        assert_int_equal(rep.unexpected, listed ? 0 : 1);
        assert_int_equal(wk_run_exit_code(&rep), listed ? 0 : 1);
        /* The flake's line names the rule once (its message starts with it). */
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        struct wk_console console;
        wk_console_init(&console, out, 0);
        wk_console_summary(&console, &rep);
        fclose(out);
        assert_non_null(strstr(text, "flake logic.listed-flake: fail first (DRV-HANG-001: DxgkDdiRender: a failure"));
        assert_null(strstr(text, "DRV-HANG-001: DRV-HANG-001"));
        free(text);
        wk_run_report_free(&rep);
    }
    unsetenv("WK_RUNNER_TEST_FLAKY_ID");
    wk_expectations_free(e);
    suite_free(&s);
}

static void test_expected_crash(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "logic.dies", K_PASS);
    struct wk_expectations *e = parse_ok(logic_doc + strlen("# known results of the test driver\n"));
    setenv("WK_RUNNER_TEST_ABORT_ID", "logic.dies", 1);
    struct wk_runner_options o = options(1);
    o.expectations = e;
    o.filters = (const char *const[]){ "logic.dies" };
    o.filter_count = 1;
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    unsetenv("WK_RUNNER_TEST_ABORT_ID");
    expect_verdict(&rep, "logic.dies", WK_VERDICT_EXPECTED_FAIL);
    assert_int_equal(rep.cases[0].result.verdict, WK_VERDICT_CRASH);
    assert_int_equal(wk_run_exit_code(&rep), 0);
    wk_run_report_free(&rep);
    wk_expectations_free(e);
    suite_free(&s);
}

static void test_unused_entry_is_an_error(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "logic.known-fail", K_PASS);
    struct wk_expectations *e = parse_ok(logic_doc);
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    assert_int_equal(wk_expectations_check_unused(e, cases_of(&s), s.n, err), 4);
    fclose(err);
    assert_string_equal(msg, "exp.yaml:6:3: expectation 'logic.fixed' matches no case\n"
                             "exp.yaml:10:3: expectation 'logic.skipped*' matches no case\n"
                             "exp.yaml:14:3: expectation 'logic.dies' matches no case\n"
                             "exp.yaml:18:3: expectation 'logic.listed-flake' matches no case\n");
    free(msg);
    wk_expectations_free(e);
    suite_free(&s);
}

struct bad_doc {
    const char *text;
    const char *message;
};

#define ENTRY "- id: a.b\n  expect: fail\n  reason: r\n  link: https://x.org/1\n"

static const struct bad_doc bad_docs[] = {
    { ENTRY "  colour: red\n", "exp.yaml:5:3: unknown key 'colour' (expected id, expect, reason or link)\n" },
    { "- id: a.b\n  expect: maybe\n  reason: r\n  link: https://x.org/1\n",
      "exp.yaml:2:11: key 'expect': expected one of fail, flake, skip, crash, timeout, saw 'maybe'\n" },
    { "- id: a.b\n  expect: fail\n  reason: r\n",
      "exp.yaml:1:3: entry: missing key 'link' (a URL or an issue reference)\n" },
    { "- id: a.b\n  expect: fail\n  reason: {text: r}\n  link: https://x.org/1\n",
      "exp.yaml:3:11: key 'reason': expected a string, saw a mapping\n" },
    { "- id: a.b\n  expect: fail\n  reason: 42\n  link: https://x.org/1\n",
      "exp.yaml:3:11: key 'reason': expected a string, saw an integer '42'\n" },
    { "- id: a.b\n  expect: fail\n  reason: r\n  link: not a link\n",
      "exp.yaml:4:9: key 'link': expected a URL (https://...) or an issue reference (project#42), saw 'not a link'\n" },
    { "- id: a b\n  expect: fail\n  reason: r\n  link: https://x.org/1\n",
      "exp.yaml:1:7: key 'id': expected a case id or glob ([a-z0-9.-] and *?[]!, at most 255 characters), saw 'a b'\n" },
    { ENTRY "  id: a.c\n", "exp.yaml:5:3: duplicate key 'id'\n" },
    { ENTRY ENTRY, "exp.yaml:5:3: duplicate entry for 'a.b' (first at line 1)\n" },
    { "- &x id: a.b\n", "exp.yaml:1:3: YAML anchors and aliases are not allowed in an expectations file\n" },
    { "id: a.b\n", "exp.yaml:1:1: expected a sequence of entries (- id: ..., expect: ..., reason: ..., link: ...), saw a mapping\n" },
    { "- just a string\n", "exp.yaml:1:3: expected an entry (a mapping with id, expect, reason and link), saw a scalar\n" },
    { "- id: [a\n", "exp.yaml:1:7: key 'id': expected a string, saw a sequence\n"
                     "exp.yaml:2:1: YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence\n" },
    { "- id: a.b\n  expect: fail\n reason: r\n", "exp.yaml:1:3: entry: missing key 'reason' (why the result is expected)\n"
                                                "exp.yaml:1:3: entry: missing key 'link' (a URL or an issue reference)\n"
                                                "exp.yaml:3:2: YAML syntax error: did not find expected '-' indicator "
                                                "while parsing a block collection\n" },
    { ENTRY "---\n" ENTRY, "exp.yaml:5:1: expected one YAML document, saw a second one\n" },
    { "- id: a.b\n  expect: fail\n  reason: \"two\\nlines\"\n  link: https://x.org/1\n",
      "exp.yaml:3:11: key 'reason': expected a non-empty one-line string of at most 512 bytes\n" },
};

static void test_expectation_errors_have_positions(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++) {
        struct wk_expectations *e = (struct wk_expectations *)&e;
        char *msg = NULL;
        size_t len = 0;
        FILE *err = open_memstream(&msg, &len);
        wk_status st = wk_expectations_parse("exp.yaml", bad_docs[i].text, strlen(bad_docs[i].text), &e, err);
        fclose(err);
        if (st != WK_E_INVALID_ARGUMENT || e != NULL || strcmp(msg, bad_docs[i].message) != 0)
            fail_msg("document %zu: status %d, message\n  %s  expected\n  %s", i, (int)st, msg, bad_docs[i].message);
        free(msg);
    }
    /* An empty file is an empty list. */
    struct wk_expectations *e = parse_ok("# nothing known\n");
    assert_int_equal(e->count, 0);
    wk_expectations_free(e);
    /* A missing file. */
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    assert_int_equal(wk_expectations_load("/nonexistent/exp.yaml", &e, err), WK_E_IO);
    fclose(err);
    assert_string_equal(msg, "/nonexistent/exp.yaml: No such file or directory\n");
    free(msg);
}

/* head, then `open` repeated n times, then `close` n times, then tail: a
 * document generated here, not committed (the deep ones are 320 KB). */
static char *nested_doc(const char *head, const char *open, const char *close, size_t n, const char *tail)
{
    size_t lo = strlen(open), lc = strlen(close), lh = strlen(head);
    char *text = malloc(lh + n * (lo + lc) + strlen(tail) + 1), *at = text;
    assert_non_null(text);
    memcpy(at, head, lh), at += lh;
    for (size_t i = 0; i < n; i++, at += lo)
        memcpy(at, open, lo);
    for (size_t i = 0; i < n; i++, at += lc)
        memcpy(at, close, lc);
    strcpy(at, tail);
    return text;
}

static double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Parses text, which must fail with exactly `message`, within a second
 * (160k levels took minutes before the depth limit). */
static void expect_limit(const char *text, const char *message)
{
    struct wk_expectations *e = NULL;
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    double t0 = monotonic_seconds();
    wk_status st = wk_expectations_parse("exp.yaml", text, strlen(text), &e, err);
    double took = monotonic_seconds() - t0;
    fclose(err);
    if (st != WK_E_INVALID_ARGUMENT || e != NULL || strcmp(msg, message) != 0 || took > 1.0)
        fail_msg("status %d after %.2f s, message\n  %s  expected\n  %s", (int)st, took, msg, message);
    free(msg);
}

/* The loader's limits (expectations.h): nesting, as the spec loader's,
 * and the number of nodes, each an error with its position, reached
 * before libyaml scans the rest of the input. */
static void test_expectation_limits(void **state)
{
    (void)state;
    char *deep = nested_doc("", "[", "]", 160000, "\n"); /* the document itself, 320 KB */
    expect_limit(deep, "exp.yaml:1:2: expected an entry (a mapping with id, expect, reason and link), saw a sequence\n"
                       "exp.yaml:1:33: nesting deeper than 32 levels\n");
    free(deep);
    deep = nested_doc(ENTRY "  extra: ", "[", "]", 40000, "\n"); /* under an unknown key */
    expect_limit(deep, "exp.yaml:5:3: unknown key 'extra' (expected id, expect, reason or link)\n"
                       "exp.yaml:5:40: nesting deeper than 32 levels\n");
    free(deep);
    deep = nested_doc("- id: a.b\n  reason: ", "{a: ", "}", 100000, "\n"); /* nested mappings in a value */
    expect_limit(deep, "exp.yaml:2:11: key 'reason': expected a string, saw a mapping\n"
                       "exp.yaml:2:131: nesting deeper than 32 levels\n");
    free(deep);
    deep = nested_doc("", "- ", "", 100000, "x\n"); /* block sequences on one line */
    expect_limit(deep, "exp.yaml:1:3: expected an entry (a mapping with id, expect, reason and link), saw a sequence\n"
                       "exp.yaml:1:65: nesting deeper than 32 levels\n");
    free(deep);
    char *wide = nested_doc(ENTRY "  extra: [", "1, ", "", WK_EXPECTATIONS_MAX_NODES, "]\n");
    char message[256];
    snprintf(message, sizeof(message), "exp.yaml:5:3: unknown key 'extra' (expected id, expect, reason or link)\n"
                                       "exp.yaml:5:%u: too many YAML nodes: at most %u per file\n",
             11 + 3 * (WK_EXPECTATIONS_MAX_NODES - 12), WK_EXPECTATIONS_MAX_NODES); /* 12 nodes before the first 1 */
    expect_limit(wide, message);
    free(wide);
    /* at the limit exactly: 32 levels are fine (then the unknown key) */
    deep = nested_doc(ENTRY "  extra: ", "[", "]", 30, "\n");
    expect_limit(deep, "exp.yaml:5:3: unknown key 'extra' (expected id, expect, reason or link)\n");
    free(deep);
}

/* ------------------------------------------------------------------ */
/* Output checkers                                                      */
/* ------------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("%s: cannot open", path);
    char *buf = malloc(1 << 20);
    assert_non_null(buf);
    *len = fread(buf, 1, (1 << 20) - 1, f);
    buf[*len] = 0;
    fclose(f);
    return buf;
}

static int utf8_valid(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!k || i + k > n || (k == 2 && c < 0xC2))
            return 0;
        for (size_t j = 1; j < k; j++)
            if ((s[i + j] & 0xC0) != 0x80)
                return 0;
        i += k;
    }
    return 1;
}

/* A minimal XML 1.0 well-formedness check with element counts. */
struct xml {
    const char *s;
    size_t n, i;
    char stack[16][32];
    int depth;
    size_t counts[10];
};

static const char *const xml_names[10] = { "testsuites", "testsuite", "testcase", "failure", "error",
                                           "skipped",    "properties", "property", "system-out", "other" };

static int xml_name(struct xml *x, char *out, size_t cap)
{
    size_t start = x->i;
    while (x->i < x->n && (strchr("_:.-", x->s[x->i]) || (x->s[x->i] >= 'a' && x->s[x->i] <= 'z') ||
                           (x->s[x->i] >= 'A' && x->s[x->i] <= 'Z') || (x->s[x->i] >= '0' && x->s[x->i] <= '9')))
        x->i++;
    size_t len = x->i - start;
    if (!len || len >= cap || (x->s[start] >= '0' && x->s[start] <= '9') || x->s[start] == '-')
        return 0;
    memcpy(out, x->s + start, len);
    out[len] = 0;
    return 1;
}

static int xml_entity(struct xml *x)
{
    static const char *const named[] = { "amp;", "lt;", "gt;", "quot;", "apos;" };
    x->i++;
    for (size_t k = 0; k < 5; k++)
        if (strncmp(x->s + x->i, named[k], strlen(named[k])) == 0) {
            x->i += strlen(named[k]);
            return 1;
        }
    if (x->s[x->i] != '#')
        return 0;
    x->i++;
    int hex = x->s[x->i] == 'x';
    x->i += (size_t)hex;
    size_t start = x->i;
    while (x->i < x->n && strchr(hex ? "0123456789abcdefABCDEF" : "0123456789", x->s[x->i]) && x->s[x->i])
        x->i++;
    return x->i > start && x->s[x->i++] == ';';
}

static int xml_chars(struct xml *x, char stop)
{
    while (x->i < x->n && x->s[x->i] != stop) {
        unsigned char c = (unsigned char)x->s[x->i];
        if (c == '<' || (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
            return 0;
        if (c == '&') {
            if (!xml_entity(x))
                return 0;
        } else {
            x->i++;
        }
    }
    return x->i < x->n || stop == '<';
}

static void xml_space(struct xml *x)
{
    while (x->i < x->n && strchr(" \t\r\n", x->s[x->i]) && x->s[x->i])
        x->i++;
}

static int xml_start_tag(struct xml *x)
{
    char name[32], attr[32];
    x->i++;
    if (!xml_name(x, name, sizeof(name)) || x->depth == 16)
        return 0;
    size_t k = 0;
    while (k < 9 && strcmp(xml_names[k], name) != 0)
        k++;
    x->counts[k]++;
    for (;;) {
        xml_space(x);
        if (x->s[x->i] == '/' || x->s[x->i] == '>')
            break;
        if (!xml_name(x, attr, sizeof(attr)) || x->s[x->i++] != '=')
            return 0;
        char q = x->s[x->i++];
        if ((q != '"' && q != '\'') || !xml_chars(x, q))
            return 0;
        x->i++;
    }
    if (x->s[x->i] == '/')
        return x->s[++x->i] == '>' ? (x->i++, 1) : 0;
    x->i++;
    snprintf(x->stack[x->depth++], 32, "%s", name);
    return 1;
}

static int xml_markup(struct xml *x)
{
    if (strncmp(x->s + x->i, "<!--", 4) == 0) {
        const char *end = strstr(x->s + x->i + 4, "--");
        if (!end || end[2] != '>')
            return 0;
        x->i = (size_t)(end - x->s) + 3;
        return 1;
    }
    if (x->s[x->i + 1] == '/') {
        char name[32];
        x->i += 2;
        if (!x->depth || !xml_name(x, name, sizeof(name)) || strcmp(name, x->stack[--x->depth]) != 0)
            return 0;
        xml_space(x);
        return x->s[x->i++] == '>';
    }
    return xml_start_tag(x);
}

static int xml_check(const char *s, size_t n, struct xml *x)
{
    memset(x, 0, sizeof(*x));
    x->s = s;
    x->n = n;
    if (!utf8_valid((const unsigned char *)s, n) || strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 38) != 0)
        return 0;
    x->i = 38;
    int root_done = 0;
    while (x->i < x->n) {
        if (x->s[x->i] == '<') {
            if (root_done && strncmp(x->s + x->i, "<!--", 4) != 0)
                return 0;
            if (!xml_markup(x))
                return 0;
            root_done = x->counts[0] && x->depth == 0;
        } else if (x->depth) {
            if (!xml_chars(x, '<'))
                return 0;
        } else {
            if (!strchr(" \t\r\n", x->s[x->i]) || !x->s[x->i])
                return 0;
            x->i++;
        }
    }
    return root_done && x->counts[0] == 1;
}

/* A minimal JSON validator (RFC 8259) that counts "id" keys. */
struct json {
    const char *s;
    size_t n, i;
    int depth;
    size_t ids;
};

static int json_value(struct json *j);

static void json_space(struct json *j)
{
    while (j->i < j->n && strchr(" \t\r\n", j->s[j->i]) && j->s[j->i])
        j->i++;
}

static int json_string(struct json *j, int *is_id)
{
    size_t start = ++j->i;
    while (j->i < j->n && j->s[j->i] != '"') {
        unsigned char c = (unsigned char)j->s[j->i];
        if (c < 0x20)
            return 0;
        if (c == '\\') {
            char e = j->s[++j->i];
            if (e == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (!strchr("0123456789abcdefABCDEF", j->s[j->i + k]) || !j->s[j->i + k])
                        return 0;
                j->i += 4;
            } else if (!strchr("\"\\/bfnrt", e) || !e) {
                return 0;
            }
        }
        j->i++;
    }
    if (j->i >= j->n)
        return 0;
    if (is_id)
        *is_id = j->i - start == 2 && strncmp(j->s + start, "id", 2) == 0;
    j->i++;
    return 1;
}

static int json_number(struct json *j)
{
    size_t start = j->i;
    if (j->s[j->i] == '-')
        j->i++;
    if (j->s[j->i] == '0')
        j->i++;
    else if (j->s[j->i] >= '1' && j->s[j->i] <= '9')
        while (j->s[j->i] >= '0' && j->s[j->i] <= '9')
            j->i++;
    else
        return 0;
    if (j->s[j->i] == '.') {
        j->i++;
        if (!(j->s[j->i] >= '0' && j->s[j->i] <= '9'))
            return 0;
        while (j->s[j->i] >= '0' && j->s[j->i] <= '9')
            j->i++;
    }
    return j->i > start;
}

static int json_container(struct json *j, char close)
{
    j->i++;
    json_space(j);
    if (j->s[j->i] == close) {
        j->i++;
        return 1;
    }
    for (;;) {
        json_space(j);
        if (close == '}') {
            int is_id = 0;
            if (j->s[j->i] != '"' || !json_string(j, &is_id))
                return 0;
            j->ids += (size_t)is_id;
            json_space(j);
            if (j->s[j->i++] != ':')
                return 0;
        }
        if (!json_value(j))
            return 0;
        json_space(j);
        char c = j->s[j->i++];
        if (c == close)
            return 1;
        if (c != ',')
            return 0;
    }
}

static int json_value(struct json *j)
{
    json_space(j);
    if (j->i >= j->n || j->depth > 32)
        return 0;
    char c = j->s[j->i];
    int ok;
    j->depth++;
    if (c == '{' || c == '[')
        ok = json_container(j, c == '{' ? '}' : ']');
    else if (c == '"')
        ok = json_string(j, NULL);
    else if (strncmp(j->s + j->i, "true", 4) == 0 || strncmp(j->s + j->i, "null", 4) == 0)
        ok = (j->i += 4, 1);
    else if (strncmp(j->s + j->i, "false", 5) == 0)
        ok = (j->i += 5, 1);
    else
        ok = json_number(j);
    j->depth--;
    return ok;
}

static int json_check(const char *s, size_t n, size_t *ids)
{
    struct json j = { s, n, 0, 0, 0 };
    if (!utf8_valid((const unsigned char *)s, n) || !json_value(&j))
        return 0;
    json_space(&j);
    *ids = j.ids;
    return j.i == n;
}

/* TAP version 13: plan, numbered lines, YAML blocks of quoted strings. */
struct tap {
    size_t plan, ok, not_ok, skip, todo, blocks, comments;
    int bail;
};

static int tap_quoted_ok(const char *v)
{
    size_t n = strlen(v);
    if (n < 2 || v[0] != '"' || v[n - 1] != '"')
        return 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if ((unsigned char)v[i] < 0x20 || (v[i] == '"'))
            return 0;
        if (v[i] == '\\' && !strchr("\"\\nrtxuU", v[++i]))
            return 0;
    }
    return 1;
}

static int tap_check(char *text, struct tap *t)
{
    memset(t, 0, sizeof(*t));
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    if (!line || strcmp(line, "TAP version 13") != 0)
        return 0;
    while ((line = strtok_r(NULL, "\n", &save)) && line[0] == '#') /* the provenance comments */
        t->comments++;
    if (!line || sscanf(line, "1..%zu", &t->plan) != 1)
        return 0;
    size_t number = 0;
    int in_block = 0;
    while ((line = strtok_r(NULL, "\n", &save))) {
        if (t->bail)
            return 0;
        if (in_block) {
            if (strcmp(line, "  ...") == 0) {
                in_block = 0;
                continue;
            }
            char *colon = strstr(line, ": ");
            if (strncmp(line, "  ", 2) != 0 || !colon || !tap_quoted_ok(colon + 2))
                return 0;
            continue;
        }
        size_t k = 0;
        int not_ok = strncmp(line, "not ok ", 7) == 0;
        if (strcmp(line, "  ---") == 0) {
            in_block = 1;
            t->blocks++;
        } else if (strncmp(line, "Bail out!", 9) == 0) {
            t->bail = 1;
        } else if (line[0] == '#') {
            t->comments++;
        } else if ((not_ok || strncmp(line, "ok ", 3) == 0) && sscanf(line + (not_ok ? 7 : 3), "%zu", &k) == 1) {
            if (k != ++number)
                return 0;
            not_ok ? t->not_ok++ : t->ok++;
            t->skip += strstr(line, " # SKIP") != NULL;
            t->todo += strstr(line, " # TODO") != NULL;
        } else {
            return 0;
        }
    }
    return !in_block && number == t->plan;
}

/* ------------------------------------------------------------------ */
/* Reports                                                              */
/* ------------------------------------------------------------------ */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/wk-runner-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
}

static int dir_has_tmp_files(void)
{
    DIR *d = opendir(tmpdir);
    assert_non_null(d);
    int found = 0;
    for (struct dirent *e; (e = readdir(d));)
        found |= strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return found;
}

static void remove_tmpdir(void)
{
    DIR *d = opendir(tmpdir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        char path[512];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(tmpdir);
}

struct written {
    struct xml xml;
    struct tap tap;
    size_t json_ids;
    char *junit_text, *json_text;
};

static void write_and_check(const struct wk_run_report *rep, struct written *w)
{
    char junit[128], tap[128], json[128];
    snprintf(junit, sizeof(junit), "%s/r.xml", tmpdir);
    snprintf(tap, sizeof(tap), "%s/r.tap", tmpdir);
    snprintf(json, sizeof(json), "%s/r.json", tmpdir);
    assert_int_equal(wk_report_junit(rep, junit, stderr), WK_OK);
    assert_int_equal(wk_report_tap(rep, tap, stderr), WK_OK);
    assert_int_equal(wk_report_json(rep, json, stderr), WK_OK);
    assert_false(dir_has_tmp_files());
    size_t len;
    w->junit_text = slurp(junit, &len);
    if (!xml_check(w->junit_text, len, &w->xml))
        fail_msg("JUnit is not well-formed (at byte %zu):\n%s", w->xml.i, w->junit_text);
    char *text = slurp(tap, &len);
    if (!tap_check(text, &w->tap))
        fail_msg("TAP does not parse");
    free(text);
    w->json_text = slurp(json, &len);
    if (!json_check(w->json_text, len, &w->json_ids))
        fail_msg("JSON does not parse:\n%s", w->json_text);
}

static void written_free(struct written *w)
{
    free(w->junit_text);
    free(w->json_text);
}

static void test_reports_of_a_real_run(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "out-a.pass", K_PASS);
    suite_add(&s, "out-a.fail", K_FAIL);
    suite_add(&s, "out-b.neg", K_NEG_CRASH);
    suite_add(&s, "out-b.dies", K_PASS);
    suite_add(&s, "out-b.skipped", K_PASS);
    suite_add(&s, "out-c.xfail", K_FAIL);
    struct wk_expectations *e = parse_ok("- id: out-b.skipped\n  expect: skip\n  reason: not today\n  link: x#1\n"
                                         "- id: out-c.xfail\n  expect: fail\n  reason: known\n  link: x#2\n");
    setenv("WK_RUNNER_TEST_ABORT_ID", "out-b.dies", 1);
    struct wk_runner_options o = options(2);
    o.expectations = e;
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    unsetenv("WK_RUNNER_TEST_ABORT_ID");
    make_tmpdir();
    struct written w;
    write_and_check(&rep, &w);
    /* testsuites, 3 suites (areas), 6 cases: 1 failure, 1 error (crash), 2 skipped (skip, xfail) */
    assert_int_equal(w.xml.counts[0], 1);
    assert_int_equal(w.xml.counts[1], 3);
    assert_int_equal(w.xml.counts[2], 6);
    assert_int_equal(w.xml.counts[3], 1);
    assert_int_equal(w.xml.counts[4], 1);
    assert_int_equal(w.xml.counts[5], 2);
    assert_int_equal(w.xml.counts[6], 3);
    /* 8 properties (driver, profile, seed, kit-commit, ...; no driver-sha256 or driver-build-id for the
     * built-in driver) and 8 of checks by kind (run, skipped) a suite */
    assert_int_equal(w.xml.counts[7], 48);
    /* provenance: the kit's commit ("unknown" when the caller says none), no driver file */
    assert_non_null(strstr(w.junit_text, "<property name=\"kit-commit\" value=\"unknown\"/>"));
    assert_null(strstr(w.junit_text, "driver-sha256"));
    assert_non_null(strstr(w.json_text, "\n  \"schema_version\": \"" WK_JSON_SCHEMA_VERSION "\",\n"));
    assert_non_null(strstr(w.json_text, "\"kit_commit\": \"unknown\",\n"));
    assert_non_null(strstr(w.json_text, "\"driver_sha256\": null,\n    \"driver_build_id\": null,\n"));
    assert_int_equal(w.tap.comments, 3); /* kit-version, kit-commit, driver */
    /* the checks by kind, per case and for the run: the pass case ran contract and semantic checks */
    assert_non_null(strstr(w.json_text, "      \"checks\": {\"contract\": {\"run\": "));
    assert_non_null(strstr(w.json_text, "\n  \"checks\": {\"contract\": {\"run\": "));
    assert_non_null(strstr(w.junit_text, "<property name=\"checks-semantic-run\" value=\""));
    assert_int_equal(w.tap.plan, 6);
    assert_int_equal(w.tap.ok, 3);     /* pass, neg, skip */
    assert_int_equal(w.tap.not_ok, 3); /* fail, crash, xfail (TODO) */
    assert_int_equal(w.tap.skip, 1);
    assert_int_equal(w.tap.todo, 1);
    assert_int_equal(w.tap.blocks, 3);
    assert_false(w.tap.bail);
    assert_int_equal(w.json_ids, 6);
    assert_non_null(strstr(w.junit_text, "classname=\"out-a\" name=\"out-a.fail\""));
    assert_non_null(strstr(w.junit_text, "command: wddmkit conform --filter &apos;out-a.fail&apos; specs/out-a.yaml"));
    assert_non_null(strstr(w.json_text, "\"verdict\": \"expected-fail\""));
    assert_non_null(strstr(w.json_text, "killed by SIGABRT"));
    written_free(&w);
    remove_tmpdir();
    wk_run_report_free(&rep);
    wk_expectations_free(e);
    suite_free(&s);
}

static const char nasty[] = "\"q\" <t> & 'a' ctl\x01\x1f\x7f tab\t nl\n cr\r bad\xff\xfe\xc0\xaf half\xe2\x82 "
                            "ok \xc3\xa9 \xe2\x9c\x93 ls\xe2\x80\xa8 nc\xef\xbf\xbe end";

static void fill_nasty(struct wk_case_report *c, struct wk_prog *p, enum wk_verdict v, const struct wk_expectation *e)
{
    memset(c, 0, sizeof(*c));
    c->prog = p;
    c->finished = 1;
    c->verdict = v;
    c->unexpected = wk_case_is_unexpected(v, e);
    c->expectation = e;
    c->attempts = v == WK_VERDICT_FLAKE ? 2 : 1;
    c->result.verdict = v == WK_VERDICT_EXPECTED_FAIL ? WK_VERDICT_FAIL : v;
    c->result.failed_step = 0;
    snprintf(c->result.rule, sizeof(c->result.rule), "R<1>&\"");
    snprintf(c->result.expected, sizeof(c->result.expected), "%s", nasty);
    snprintf(c->result.seen, sizeof(c->result.seen), "%s", nasty);
    snprintf(c->output, sizeof(c->output), "%s", nasty);
    c->result.checks[WK_CHECK_SEMANTIC].run = 2;
    c->result.checks[WK_CHECK_SEMANTIC].skipped = 3;
    snprintf(c->result.skip_reason[WK_CHECK_SEMANTIC], sizeof(c->result.skip_reason[0]), "%s", nasty);
    c->seconds = 0.25;
}

static void test_reports_escape_everything(void **state)
{
    (void)state;
    struct wk_prog *p = make_prog("x", K_PASS);
    snprintf(p->id, sizeof(p->id), "id-%.60s", nasty);
    snprintf(p->area, sizeof(p->area), "a&<\"%.20s", nasty);
    snprintf(p->file, sizeof(p->file), "dir with space/it's.yaml");
    struct wk_expectation e = { (char *)"*", WK_VERDICT_FAIL, (char *)nasty, (char *)nasty, 1, 1 };
    static const enum wk_verdict verdicts[] = { WK_VERDICT_PASS,  WK_VERDICT_FAIL,          WK_VERDICT_SKIP,
                                                WK_VERDICT_CRASH, WK_VERDICT_TIMEOUT,       WK_VERDICT_ERROR,
                                                WK_VERDICT_FLAKE, WK_VERDICT_EXPECTED_FAIL, WK_VERDICT_UNEXPECTED_PASS };
    struct wk_case_report cases[9];
    struct wk_run_report rep;
    memset(&rep, 0, sizeof(rep));
    for (size_t i = 0; i < 9; i++) {
        fill_nasty(&cases[i], p, verdicts[i], verdicts[i] >= WK_VERDICT_EXPECTED_FAIL ? &e : NULL);
        rep.totals[verdicts[i]]++;
        rep.unexpected += (size_t)cases[i].unexpected;
    }
    rep.cases = cases;
    rep.count = rep.finished = 9;
    rep.driver = "/drivers/my \"driver\".so";
    rep.contract = 1; /* the default profile for a --driver */
    rep.kit_version = "0.1.0<&>";
    rep.kit_commit = "c0mmit\n# not a comment";
    rep.driver_sha256 = "<sha>";
    rep.driver_build_id = "\"id\"";
    snprintf(rep.host, sizeof(rep.host), "%s", nasty);
    snprintf(rep.start_time, sizeof(rep.start_time), "2024-01-01T00:00:00Z");
    rep.stop = WK_RUN_INTERRUPTED;
    rep.signo = SIGINT;
    make_tmpdir();
    struct written w;
    write_and_check(&rep, &w);
    assert_int_equal(w.xml.counts[2], 9);
    assert_int_equal(w.xml.counts[3], 3); /* fail, unexpected-pass, flake (not listed as one) */
    assert_int_equal(w.xml.counts[4], 3); /* crash, timeout, error */
    assert_int_equal(w.xml.counts[5], 2); /* skip, expected-fail */
    assert_int_equal(w.xml.counts[8], 0);
    assert_non_null(strstr(w.junit_text, "<failure type=\"flake\" message=\"flake on the first run, pass on the rerun"));
    assert_true(w.tap.bail);
    assert_int_equal(w.json_ids, 9);
    /* provenance, escaped in each format; a value is one TAP comment line */
    assert_int_equal(w.tap.comments, 5);
    assert_non_null(strstr(w.junit_text, "<property name=\"kit-commit\" value=\"c0mmit&#10;# not a comment\"/>"));
    assert_non_null(strstr(w.junit_text, "<property name=\"driver-sha256\" value=\"&lt;sha&gt;\"/>"));
    assert_non_null(strstr(w.junit_text, "<property name=\"driver-build-id\" value=\"&quot;id&quot;\"/>"));
    assert_non_null(strstr(w.json_text, "\"kit_commit\": \"c0mmit\\n# not a comment\""));
    assert_non_null(strstr(w.json_text, "\"driver_build_id\": \"\\\"id\\\"\""));
    assert_non_null(strstr(w.junit_text, "&quot;q&quot; &lt;t&gt; &amp; &apos;a&apos; ctl\\x01\\x1f"));
    assert_non_null(strstr(w.json_text, "\\\"q\\\" <t> & 'a' ctl\\u0001\\u001f\\u007f tab\\t nl\\n cr\\r "
                                        "bad\\ufffd\\ufffd\\ufffd\\ufffd half\\ufffd\\ufffd ok \xc3\xa9 \xe2\x9c\x93 "
                                        "ls\\u2028"));
    assert_non_null(strstr(w.json_text, "\"status\": \"interrupted\""));
    /* checks by kind: each case's, the run's sum, the skip reason escaped */
    assert_non_null(strstr(w.json_text, "\"semantic\": {\"run\": 2, \"skipped\": 3, \"reason\": \"\\\"q\\\" <t> & "));
    assert_non_null(strstr(w.json_text, "\n  \"checks\": {\"contract\": {\"run\": 0, \"skipped\": 0, \"reason\": null}, "
                                        "\"semantic\": {\"run\": 18, \"skipped\": 27, \"reason\": \"\\\"q\\\""));
    assert_non_null(strstr(w.junit_text, "<property name=\"checks-semantic-skipped\" value=\"27\"/>"));
    char cmd[1024];
    wk_report_rerun_command(&rep, &cases[1], cmd, sizeof(cmd));
    assert_non_null(strstr(cmd, " --driver '/drivers/my \"driver\".so' 'dir with space/it'\\''s.yaml'"));
    /* a profile that is not the driver's default is part of the command */
    rep.contract = 0;
    wk_report_rerun_command(&rep, &cases[1], cmd, sizeof(cmd));
    assert_non_null(strstr(cmd, " --driver '/drivers/my \"driver\".so' --profile reference 'dir with space"));
    rep.driver = NULL;
    wk_report_rerun_command(&rep, &cases[1], cmd, sizeof(cmd));
    assert_null(strstr(cmd, "--profile"));
    rep.contract = 1;
    wk_report_rerun_command(&rep, &cases[1], cmd, sizeof(cmd));
    assert_non_null(strstr(cmd, " --profile contract "));
    written_free(&w);
    remove_tmpdir();
    wk_prog_free(p);
    free(p);
}

static void test_report_write_failure_leaves_nothing(void **state)
{
    (void)state;
    struct wk_run_report rep;
    memset(&rep, 0, sizeof(rep));
    rep.kit_version = "x";
    FILE *null = fopen("/dev/null", "w");
    assert_int_equal(wk_report_json(&rep, "/nonexistent-dir/r.json", null), WK_E_IO);
    assert_int_equal(wk_report_junit(&rep, "/nonexistent-dir/r.xml", null), WK_E_IO);
    fclose(null);
    /* An empty run is still a valid document in each format. */
    make_tmpdir();
    struct written w;
    write_and_check(&rep, &w);
    assert_int_equal(w.xml.counts[2], 0);
    assert_int_equal(w.tap.plan, 0);
    assert_int_equal(w.json_ids, 0);
    written_free(&w);
    remove_tmpdir();
}

/* ------------------------------------------------------------------ */
/* Signals                                                              */
/* ------------------------------------------------------------------ */

static volatile int finished_cases;

static void raise_after_three(void *ctx, const struct wk_run_report *rep, size_t index)
{
    (void)ctx, (void)rep, (void)index;
    if (++finished_cases == 3)
        raise(SIGINT);
}

static void check_interrupted_reports(const struct wk_run_report *rep)
{
    assert_int_equal(rep->stop, WK_RUN_INTERRUPTED);
    assert_int_equal(rep->signo, SIGINT);
    assert_int_equal(wk_run_exit_code(rep), 130);
    make_tmpdir();
    struct written w;
    write_and_check(rep, &w);
    /* JUnit lists every case: those that never ran as skipped testcases of
     * a "not-run" suite, so a consumer sees how many the run left out. */
    assert_int_equal(w.xml.counts[2], rep->count);
    assert_int_equal(w.tap.plan, rep->finished);
    assert_true(w.tap.bail);
    assert_int_equal(w.json_ids, rep->finished);
    written_free(&w);
    remove_tmpdir();
}

static void test_sigint_from_a_callback(void **state)
{
    (void)state;
    struct suite s = { 0 };
    for (int i = 0; i < 16; i++) {
        char id[32];
        snprintf(id, sizeof(id), "sig.case-%02d", i);
        suite_add(&s, id, K_PASS);
    }
    struct wk_runner_options o = options(2);
    o.catch_signals = 1;
    o.on_done = raise_after_three;
    finished_cases = 0;
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    assert_true(rep.finished >= 3 && rep.finished < 16);
    for (size_t i = 0; i < rep.count; i++)
        if (rep.cases[i].finished)
            assert_int_equal(rep.cases[i].verdict, WK_VERDICT_PASS);
    check_interrupted_reports(&rep);
    wk_run_report_free(&rep);
    suite_free(&s);
}

static void count_done(void *ctx, const struct wk_run_report *rep, size_t index)
{
    (void)ctx, (void)rep, (void)index;
    __atomic_add_fetch(&finished_cases, 1, __ATOMIC_SEQ_CST);
}

static void *interrupter(void *arg)
{
    (void)arg;
    while (__atomic_load_n(&finished_cases, __ATOMIC_SEQ_CST) < 2)
        usleep(5000);
    usleep(100000); /* the hanging cases are running by now */
    kill(getpid(), SIGINT);
    return NULL;
}

static void test_sigint_from_a_thread(void **state)
{
    (void)state;
    struct suite s = { 0 };
    suite_add(&s, "sig.a-quick", K_PASS);
    suite_add(&s, "sig.b-quick", K_PASS);
    suite_add(&s, "sig.c-hang", K_HANG_FOREVER);
    suite_add(&s, "sig.d-hang", K_HANG_FOREVER);
    suite_add(&s, "sig.e-never", K_PASS);
    struct wk_runner_options o = options(2);
    o.catch_signals = 1;
    o.on_done = count_done;
    finished_cases = 0;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, interrupter, NULL), 0);
    struct wk_run_report rep;
    double start = now();
    run_ok(&s, &o, &rep);
    pthread_join(t, NULL);
    assert_true(now() - start < 10);
    assert_int_equal(rep.finished, 2);
    expect_verdict(&rep, "sig.a-quick", WK_VERDICT_PASS);
    expect_verdict(&rep, "sig.b-quick", WK_VERDICT_PASS);
    check_interrupted_reports(&rep);
    wk_run_report_free(&rep);
    suite_free(&s);
}

/* ------------------------------------------------------------------ */
/* Console and coverage                                                 */
/* ------------------------------------------------------------------ */

static void test_console_and_coverage(void **state)
{
    (void)state;
    uint32_t nrules = 0;
    const struct wk_rule *rules = wk_rules(&nrules);
    uint32_t crash = 0;
    while (crash < nrules && strcmp(rules[crash].id, "DRV-CRASH-001") != 0)
        crash++;
    assert_true(crash < nrules);
    struct suite s = { 0 };
    suite_add(&s, "cov.covers", K_PASS);
    snprintf(s.p[0]->covers[0], sizeof(s.p[0]->covers[0]), "%s", rules[0].id);
    s.p[0]->cover_count = 1;
    suite_add(&s, "cov.failing", K_FAIL);
    snprintf(s.p[1]->covers[0], sizeof(s.p[1]->covers[0]), "%s", rules[1].id);
    s.p[1]->cover_count = 1;
    suite_add(&s, "cov.negative", K_NEG_CRASH);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    struct wk_console console;
    wk_console_init(&console, out, 0);
    struct wk_runner_options o = options(2);
    o.on_start = wk_console_on_start;
    o.on_done = wk_console_on_done;
    o.ctx = &console;
    o.driver = NULL;
    o.seed = 7;
    o.has_seed = 1;
    struct wk_run_report rep;
    run_ok(&s, &o, &rep);
    wk_console_summary(&console, &rep);
    struct wk_coverage cov;
    wk_coverage_compute(&rep, &cov);
    uint32_t left = wk_coverage_print(&cov, out);
    fclose(out);
    assert_true((cov.rules[0] >> 0) & 1);
    assert_false((cov.rules[0] >> 1) & 1);
    assert_true((cov.rules[crash / 64] >> (crash % 64)) & 1);
    assert_true(left > 0 && left < nrules);
    assert_true(cov.paging_ops[1] > 0); /* FILL: the allocation's first page-in */
    assert_true(cov.ddi_calls[WK_DDI_RENDER] > 0);
    /* Not a terminal: plain lines, no escape codes. */
    assert_null(strchr(text, '\r'));
    assert_non_null(strstr(text, "[1/3] cov."));
    assert_non_null(strstr(text, "  fail cov.failing\n"));
    assert_non_null(strstr(text, "    command:  wddmkit conform --filter 'cov.failing' --seed 7 specs/cov.yaml\n"));
    assert_non_null(strstr(text, "    step:     5 (expect_pattern, line 16)\n"));
    assert_non_null(strstr(text, "contract rules: "));
    assert_non_null(strstr(text, "RESULT: UNEXPECTED RESULTS"));
    free(text);
    wk_run_report_free(&rep);
    suite_free(&s);
}

static void test_utf8_decoder(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(wk_utf8_next("A", 1, &cp), 1);
    assert_int_equal(cp, 'A');
    assert_int_equal(wk_utf8_next("\xc3\xa9", 2, &cp), 2);
    assert_int_equal(cp, 0xe9);
    assert_int_equal(wk_utf8_next("\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1f600);
    assert_int_equal(wk_utf8_next("\xc0\xaf", 2, &cp), 1); /* overlong */
    assert_int_equal(cp, 0xfffd);
    assert_int_equal(wk_utf8_next("\xed\xa0\x80", 3, &cp), 1); /* surrogate */
    assert_int_equal(wk_utf8_next("\xe2\x82", 2, &cp), 1);     /* truncated */
    assert_int_equal(wk_utf8_next("\xf5\x80\x80\x80", 4, &cp), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_driver_faults_in_negative_cases_pass),
        cmocka_unit_test(test_driver_faults_in_positive_cases_fail),
        cmocka_unit_test(test_child_that_dies_is_a_crash),
        cmocka_unit_test(test_hang_past_the_timeout_is_a_timeout),
        cmocka_unit_test(test_parallel_results_equal_serial),
        cmocka_unit_test(test_shards_partition_exactly),
        cmocka_unit_test(test_filter_and_exclude),
        cmocka_unit_test(test_duplicate_ids_are_an_error),
        cmocka_unit_test(test_no_fork_matches_fork),
        cmocka_unit_test(test_total_timeout_stops_the_run),
        cmocka_unit_test(test_a_killed_zygote_is_replaced),
        cmocka_unit_test(test_a_stopped_slot_process_is_replaced),
        cmocka_unit_test(test_classification_table),
        cmocka_unit_test(test_expectations_logic),
        cmocka_unit_test(test_flake_exit_code),
        cmocka_unit_test(test_expected_crash),
        cmocka_unit_test(test_unused_entry_is_an_error),
        cmocka_unit_test(test_expectation_errors_have_positions),
        cmocka_unit_test(test_expectation_limits),
        cmocka_unit_test(test_reports_of_a_real_run),
        cmocka_unit_test(test_reports_escape_everything),
        cmocka_unit_test(test_report_write_failure_leaves_nothing),
        cmocka_unit_test(test_sigint_from_a_callback),
        cmocka_unit_test(test_sigint_from_a_thread),
        cmocka_unit_test(test_console_and_coverage),
        cmocka_unit_test(test_utf8_decoder),
    };
    return cmocka_run_group_tests_name("runner", tests, NULL, NULL);
}
