/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c - a program as fuzz_prog judges it. A fuzz_prog input IS a
 * step program (wk_prog_decode), but its expected statuses are whatever
 * bytes the fuzzer wrote, while the harness judges by contract violations
 * and by comparison with the reference driver. So a program is first
 * CALIBRATED: run step by step on the reference driver, every action then
 * expects the status the reference returned and every check the reference
 * fails is dropped. The calibrated program passes on the reference by
 * construction (unless the reference itself breaks a rule), and on the
 * driver under test it fails exactly where that driver breaks a rule or
 * answers differently: the harness's oracle as a positive case, which is
 * what promote writes as YAML. --no-calibrate runs the file's own
 * expectations.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "crash/crash_internal.h"
#include "driver/fuzz_driver.h" /* what fuzz_prog does to an input */
#include "reference.h"

struct calibration {
    int started;
    uint32_t steps;
    /* Placement-bound steps (wk_crash_placement_bound): the allocation
     * (program index) whose bytes the step's address held on the
     * reference when it ran, and the offset in it; -1: none did. */
    int32_t anchor[WK_PROG_MAX_STEPS];
    uint64_t anchor_offset[WK_PROG_MAX_STEPS];
    int32_t status[WK_PROG_MAX_STEPS];
    uint8_t check_failed[WK_PROG_MAX_STEPS];
    uint32_t cancelled[WK_PROG_MAX_STEPS];
    uint32_t nallocs;                 /* allocations the run created */
    int32_t digest_status[WK_PROG_MAX_OBJECTS];
    uint64_t digest[WK_PROG_MAX_OBJECTS];
};

/* The size the program's create_allocation steps give allocation
 * `allocation` (the Nth of them): 0 when it is sized from the driver or
 * there is none (not known before a run). */
static uint64_t named_size(const struct wk_prog *p, uint32_t allocation)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->step_count; i++) {
        const struct wk_step *s = &p->steps[i];
        if (s->kind == WK_STEP_CREATE_ALLOCATION && n++ == allocation)
            return s->alloc.paging_buffers ? 0 : s->alloc.size;
    }
    return 0;
}

int wk_crash_placement_bound(const struct wk_prog *p, const struct wk_step *s)
{
    if (s->kind != WK_STEP_SIGNAL_FENCE && s->kind != WK_STEP_TOUCH_PHYSICAL)
        return 0;
    if (!s->relative)
        return 1;
    uint64_t size = named_size(p, s->allocation);
    return s->kind == WK_STEP_SIGNAL_FENCE && size && (s->offset > size || size - s->offset < 8);
}

/* Where step s writes on this adapter now: a GPU address (fences) or a
 * segment and offset (touches); 0 when it names no place. */
static int step_target(const struct wk_prog_exec *x, const struct wk_step *s, uint32_t *segment, uint64_t *at)
{
    *segment = s->segment;
    *at = s->kind == WK_STEP_SIGNAL_FENCE ? s->address : s->offset;
    if (!s->relative)
        return 1;
    struct wk_vidmm_allocation_state st;
    if (s->allocation >= x->nallocs || wk_vidmm_allocation_state(x->vm, x->allocs[s->allocation], &st) != WK_OK ||
        !st.resident)
        return 0;
    *segment = st.segment_id;
    *at = (s->kind == WK_STEP_SIGNAL_FENCE ? st.gpu_address : st.segment_offset) + s->offset;
    return 1;
}

/* The resident allocation whose bytes hold step s's target on the
 * reference right before s runs (-1: none), and the offset in it. */
static int32_t anchor_of(const struct wk_prog_exec *x, const struct wk_step *s, uint64_t *offset)
{
    uint32_t segment;
    uint64_t at;
    if (!step_target(x, s, &segment, &at))
        return -1;
    for (uint32_t a = 0; a < x->nallocs; a++) {
        struct wk_vidmm_allocation_state st;
        if (wk_vidmm_allocation_state(x->vm, x->allocs[a], &st) != WK_OK || !st.resident)
            continue;
        uint64_t base = s->kind == WK_STEP_SIGNAL_FENCE ? st.gpu_address : st.segment_offset;
        if ((s->kind == WK_STEP_SIGNAL_FENCE || st.segment_id == segment) && at >= base && at - base < st.size) {
            *offset = at - base;
            return (int32_t)a;
        }
    }
    return -1;
}

static void calibrate_steps(const struct job *j, struct wk_vidmm *vm, struct calibration *c)
{
    static struct wk_prog_exec x;
    static struct wk_case_result r;
    wk_prog_exec_init(&x, j->p, vm, &r);
    for (uint32_t i = 0; i < j->p->step_count; i++) {
        int failed = 0;
        c->anchor[i] = wk_crash_placement_bound(j->p, &j->p->steps[i])
                           ? anchor_of(&x, &j->p->steps[i], &c->anchor_offset[i])
                           : -1;
        c->status[i] = wk_prog_exec_step(&x, &j->p->steps[i], &failed);
        c->check_failed[i] = (uint8_t)failed;
        c->cancelled[i] = x.last_cancelled;
    }
    c->steps = j->p->step_count;
    c->nallocs = x.nallocs;
    for (uint32_t a = 0; a < x.nallocs && a < WK_PROG_MAX_OBJECTS; a++)
        c->digest_status[a] = wk_vidmm_digest(vm, x.allocs[a], &c->digest[a]);
}

/* Child: every step of the program on the reference driver, its status,
 * and every allocation's digest at the end. */
static void calibrate_child(const void *arg, int fd)
{
    const struct job *j = arg;
    static struct calibration c;
    struct wk_vidmm_config cfg = j->p->vidmm;
    struct wk_vidmm *vm = NULL;
    struct wk_mutation_state ms;
    const struct wk_mutation *m = NULL;
    cfg.gpu = &j->p->gpu;
    cfg.seed += j->seed;
    memset(&c, 0, sizeof(c));
    /* the driver under test with its binding, as the harness brings it up */
    const char *binding = j->driver ? wk_crash_binding_of(j->driver) : NULL;
    if (binding && wk_vidmm_binding_open(binding, &cfg.binding, NULL, 0) != WK_OK) {
        wk_write_all(fd, &c, sizeof(c));
        return;
    }
    if (wk_vidmm_create(&cfg, &vm) == WK_OK) {
        m = j->p->has_rewrite ? wk_mutation_find(j->p->rewrite.mutation) : NULL;
        if (m)
            wk_mutation_arm(vm, &ms, m, j->p->rewrite.call, j->p->rewrite.param);
        c.started = (j->driver ? wk_vidmm_load(vm, j->driver) : wk_vidmm_attach(vm, wk_refdriver_DriverEntry)) ==
                        WK_OK &&
                    wk_vidmm_start(vm) == WK_OK;
    }
    if (c.started)
        calibrate_steps(j, vm, &c);
    if (vm)
        wk_vidmm_destroy(vm);
    wk_write_all(fd, &c, sizeof(c));
}

static int is_check_step(const struct wk_step *s)
{
    return wk_step_is_check(s->kind);
}

/* fuzz_prog compares only checks of content; the others read numbers a
 * correct driver may choose differently. */
static int content_check(const struct wk_step *s)
{
    return s->kind == WK_STEP_EXPECT_BYTES || s->kind == WK_STEP_EXPECT_PATTERN ||
           s->kind == WK_STEP_EXPECT_DIGEST || s->kind == WK_STEP_EXPECT_GART;
}

struct calibrated {
    uint32_t set, dropped, digests;
    uint32_t alone;                   /* 1 + the step from which the driver under test ran alone; 0: none */
};

/* Keeps the steps the calibration keeps, with the reference's answers;
 * from step `alone` on (the driver under test's calibration `dut`, NULL
 * when the reference followed to the end), the driver under test's own
 * answers and no check, as fuzz_prog judges that part (below). */
static void apply_calibration(struct wk_prog *p, const struct calibration *c, const struct calibration *dut,
                              uint32_t alone, struct calibrated *n)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < p->step_count; i++) {
        struct wk_step *s = &p->steps[i];
        const int tail = dut && i >= alone;
        if (is_check_step(s) && (tail || c->check_failed[i] || !content_check(s))) {
            n->dropped++;
            continue;
        }
        const wk_status want = (wk_status)(tail ? dut->status[i] : c->status[i]);
        if (!is_check_step(s) && s->expect_status != want) {
            s->expect_status = want;
            n->set++;
        }
        if (s->kind == WK_STEP_CANCEL && s->has_count)
            s->count = c->cancelled[i];
        p->steps[kept++] = *s;
    }
    for (uint32_t i = kept; i < p->step_count; i++)
        memset(&p->steps[i], 0, sizeof(p->steps[i]));
    p->step_count = kept;
    n->alone = dut ? alone + 1 : 0;
    for (uint32_t a = 0; !dut && a < c->nallocs && a < WK_PROG_MAX_OBJECTS && p->step_count < WK_PROG_MAX_STEPS;
         a++) {
        if (c->digest_status[a] != WK_OK)
            continue;
        struct wk_step *s = &p->steps[p->step_count++];
        memset(s, 0, sizeof(*s));
        s->kind = WK_STEP_EXPECT_DIGEST;
        s->allocation = a;
        s->value = c->digest[a];
        n->digests++;
    }
}

/* The program as fuzz_prog judges it (harnesses/fuzz_prog.c,
 * fuzz/driver/differential.c): every action expects the reference's
 * status, content checks the reference fails and the other checks go, and
 * every allocation's digest is checked at the end. -1 when the reference
 * could not run it at all. */
/*
 * Where fuzz_prog stops comparing (fuzz/driver/differential.c, diff_step):
 * the first action the reference cannot take (WK_E_NOT_SUPPORTED: a GpuMmu
 * driver's address spaces and virtual contexts, which the physical
 * reference has not) and the driver under test took. From there the
 * harness judges the driver under test alone, by the rules: no status or
 * content is compared. The calibrated program does the same, expecting
 * the driver under test's own statuses there (so a status never fails it)
 * and no check; without that, minimize kept a status mismatch for a
 * GpuMmu driver's finding, not the finding. UINT32_MAX: none.
 */
static uint32_t first_unfollowed(const struct wk_prog *p, const struct calibration *ref, const struct calibration *dut)
{
    for (uint32_t i = 0; i < p->step_count; i++)
        if (!is_check_step(&p->steps[i]) && ref->status[i] == WK_E_NOT_SUPPORTED && dut->status[i] == WK_OK)
            return i;
    return UINT32_MAX;
}

static int calibrate(struct wk_prog *p, const struct wk_crash_options *op, struct calibrated *n)
{
    static struct calibration c, d;
    struct job j = { p, NULL, op->seed };
    struct outcome o;
    memset(n, 0, sizeof(*n));
    wk_crash_run_child(calibrate_child, &j, NULL, op->timeout_ms, &c, sizeof(c), &o);
    if (!o.answered || o.cls != CLS_PASS || !c.started || c.steps != p->step_count)
        return -1;
    uint32_t alone = UINT32_MAX;
    int has_unsupported = 0;
    for (uint32_t i = 0; i < p->step_count; i++)
        has_unsupported |= !is_check_step(&p->steps[i]) && c.status[i] == WK_E_NOT_SUPPORTED;
    if (has_unsupported && op->driver) { /* the driver under test's answers, as the harness meets them */
        struct job dj = { p, op->driver, op->seed };
        struct outcome dout;
        wk_crash_run_child(calibrate_child, &dj, op->driver, op->timeout_ms, &d, sizeof(d), &dout);
        if (dout.answered && dout.cls == CLS_PASS && d.started && d.steps == p->step_count)
            alone = first_unfollowed(p, &c, &d);
    }
    apply_calibration(p, &c, alone == UINT32_MAX ? NULL : &d, alone, n);
    return 0;
}

/* What fuzz_prog does to an input before running it (harnesses/fuzz_prog.c):
 * no answer rewrite, a paging buffer of at least one COPY (28 bytes) and
 * at most 64 KiB, the default multipass bound, and allocations past
 * WK_FUZZ_PROG_BYTES in all left out (how many: the steps that go). */
static uint32_t harness_view(struct wk_prog *p, char *note, size_t size)
{
    size_t at = 0;
    note[0] = '\0';
    if (p->has_rewrite || p->trips[0])
        at += (size_t)snprintf(note + at, size - at, "; answer rewrite dropped");
    p->has_rewrite = 0;
    memset(&p->rewrite, 0, sizeof(p->rewrite));
    p->trips[0] = '\0';
    uint32_t buffer = wk_fuzz_paging_buffer(p->vidmm.paging_buffer_size);
    if (buffer != p->vidmm.paging_buffer_size)
        at += (size_t)snprintf(note + at, size - at, "; paging buffer %s to %u bytes",
                               buffer > p->vidmm.paging_buffer_size ? "raised" : "lowered", buffer);
    p->vidmm.paging_buffer_size = buffer;
    if (p->vidmm.max_passes) {
        p->vidmm.max_passes = 0;
        at += (size_t)snprintf(note + at, size - at, "; multipass bound back to the default");
    }
    uint64_t bytes = 0;
    uint32_t cut = 0;
    for (uint32_t i = 0; i < p->step_count;) {
        struct wk_step *s = &p->steps[i];
        if (s->kind == WK_STEP_CREATE_ALLOCATION && bytes + s->alloc.size > WK_FUZZ_PROG_BYTES) {
            memmove(s, s + 1, (p->step_count - i - 1) * sizeof(*s)); /* skipped: no object, no renumbering */
            memset(&p->steps[--p->step_count], 0, sizeof(*s));
            cut++;
            continue;
        }
        bytes += s->kind == WK_STEP_CREATE_ALLOCATION ? s->alloc.size : 0;
        i++;
    }
    if (cut && at < size)
        snprintf(note + at, size - at, "; %u allocation(s) past the %u MiB cap left out", cut, WK_FUZZ_PROG_BYTES >> 20);
    return cut;
}

/* fuzz_render accepts a Render that refuses a bad buffer (an error status,
 * no violation: harnesses/fuzz_render.c), so the render step expects what the
 * reference answers: the program then passes on the reference and fails
 * on a driver exactly where it breaks a rule (or answers otherwise). */
void wk_crash_expect_reference_status(struct wk_prog *p, const struct wk_crash_options *op)
{
    static struct calibration c;
    struct job j = { p, NULL, op->seed };
    struct outcome o;
    wk_crash_run_child(calibrate_child, &j, NULL, op->timeout_ms, &c, sizeof(c), &o);
    if (o.answered && o.cls == CLS_PASS && c.started && c.steps == p->step_count)
        p->steps[p->step_count - 1].expect_status = (wk_status)c.status[p->step_count - 1];
}

int wk_crash_anchor_steps(const struct wk_prog *p, const struct wk_crash_options *op, int32_t *anchor,
                          uint64_t *offset)
{
    static struct calibration c;
    struct job j = { (struct wk_prog *)p, NULL, op->seed };
    struct outcome o;
    wk_crash_run_child(calibrate_child, &j, NULL, op->timeout_ms, &c, sizeof(c), &o);
    if (!o.answered || o.cls != CLS_PASS || !c.started || c.steps != p->step_count)
        return -1;
    memcpy(anchor, c.anchor, p->step_count * sizeof(*anchor));
    memcpy(offset, c.anchor_offset, p->step_count * sizeof(*offset));
    return 0;
}

/* What calibration made of the input's steps, in one clause after "N
 * steps in the input": the count the other commands start from (minimize
 * and promote reduce the calibrated program), with every reason it
 * differs, so that the input's count (prog dump's, repro's) and theirs
 * read as two numbers of one program. */
static void calibration_text(const struct wk_prog *p, uint32_t cut, const struct calibrated *n, char *buf, size_t size)
{
    char left_out[64] = "";
    if (cut)
        snprintf(left_out, sizeof(left_out), "%u allocation(s) left out (above), ", cut);
    char alone[200] = "";
    if (n->alone)
        snprintf(alone, sizeof(alone), "; from step %u on, which the reference could not take, the driver "
                 "under test's own answers and no check (as the harness judges it alone)", n->alone - 1);
    snprintf(buf, size, "%u after calibration on the reference driver: %s%u checks dropped, %u end digests added, "
                        "%u statuses set to its answers%s", p->step_count, left_out, n->dropped, n->digests, n->set,
             alone);
}

/* A program file as fuzz_prog runs it: decoded, seen as the harness sees
 * it, calibrated (unless --no-calibrate: then exactly as written). Prints
 * one line about it unless quiet: its steps in the input, then in the
 * program the command runs, and why those differ; NULL after printing why. */
struct wk_prog *wk_crash_prepare(const struct wk_crash_options *o, const char *path, int quiet, size_t *bytes)
{
    const char *harness = wk_crash_harness_of(o, path);
    struct wk_prog *p = wk_crash_load_program(path, bytes, harness);
    if (!p)
        return NULL;
    uint32_t steps = p->step_count, cut = 0;
    char view[160] = "", how[480] = "run with the expectations as written (--no-calibrate)";
    struct calibrated n;
    if (!o->no_calibrate) {
        cut = harness_view(p, view, sizeof(view));
        if (calibrate(p, o, &n) == 0)
            calibration_text(p, cut, &n, how, sizeof(how));
        else
            snprintf(how, sizeof(how), "the reference driver could not run it to calibrate: run as written (%u steps)",
                     p->step_count);
    }
    if (!quiet)
        printf("input: %s: %s %s, %zu bytes, %u steps in the input%s; %s\n", path, harness,
               strcmp(harness, "fuzz_prog") == 0 ? "program" : "input as its program", *bytes, steps, view, how);
    return p;
}
