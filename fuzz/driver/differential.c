/* SPDX-License-Identifier: MIT */
/*
 * differential.c - the differential run of fuzz_paging and fuzz_prog: one
 * program, step by step, on the driver under test and on the reference
 * driver, each on its kept adapter (fuzz_driver.h, wk_fuzz_differential,
 * lists what is compared).
 *
 * Why step by step and not two whole runs: the first step where the two
 * disagree is the finding, with its status or check named, and a
 * violation is blamed on the side and step that recorded it. Contents are
 * compared byte by byte where each model keeps them (wk_vidmm_peek), page
 * by page, which costs far less than two digests; digests are computed
 * only to print a difference. The end of an input is judged too: every
 * device it left is destroyed on both sides, as the conformance runner
 * judges a case's teardown. The static buffers below are this runtime's
 * scratch, not state: nothing in them survives an input.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "wddmkit/binding.h"

#include "internal.h"

static int content_check(enum wk_step_kind k)
{
    return k == WK_STEP_EXPECT_BYTES || k == WK_STEP_EXPECT_PATTERN || k == WK_STEP_EXPECT_DIGEST ||
           k == WK_STEP_EXPECT_GART;
}

/* wk_fuzz_check after step i, its `when` text made only for a report. */
static int step_violated(const char *harness, enum wk_fuzz_role role, struct wk_vidmm *vm, uint32_t i,
                         const char *kw)
{
    if (wk_fuzz_violation_count(vm) == 0)
        return 0;
    char when[96];
    snprintf(when, sizeof(when), "at step %u (%s)", i, kw);
    return wk_fuzz_check(harness, role, vm, when);
}

/* The first offset where two n-byte pieces differ (NULL: zeroes), n if none. */
static uint64_t piece_difference(const uint8_t *x, const uint8_t *y, uint64_t n)
{
    static const uint8_t zeroes[WK_GPU_PAGE_SIZE];
    x = x ? x : zeroes;
    y = y ? y : zeroes;
    if (x == y || memcmp(x, y, n) == 0)
        return n;
    uint64_t i = 0;
    while (x[i] == y[i])
        i++;
    return i;
}

/* Allocation a's bytes on both sides, page by page where each model keeps
 * them (wk_vidmm_peek: no copies; pages never written compare as zeroes):
 * the first difference, UINT64_MAX when equal; *rs and *ds the statuses
 * (equal when both fail alike, e.g. a destroyed allocation). Cheaper than
 * two digests. Sizes are the drivers' (page rounded): the bytes both have
 * are compared. */
static uint64_t first_difference(struct wk_prog_exec *ref, struct wk_prog_exec *dut, uint32_t a, wk_status *rs,
                                 wk_status *ds)
{
    static uint8_t rb[WK_GPU_PAGE_SIZE], db[WK_GPU_PAGE_SIZE];
    struct wk_vidmm_allocation_state rst, dst;
    *rs = wk_vidmm_allocation_state(ref->vm, ref->allocs[a], &rst);
    *ds = wk_vidmm_allocation_state(dut->vm, dut->allocs[a], &dst);
    uint64_t size = rst.size < dst.size ? rst.size : dst.size;
    for (uint64_t at = 0; *rs == WK_OK && *ds == WK_OK && at < size; at += WK_GPU_PAGE_SIZE) {
        uint64_t n = size - at < WK_GPU_PAGE_SIZE ? size - at : WK_GPU_PAGE_SIZE;
        const uint8_t *rp, *dp;
        *rs = wk_vidmm_peek(ref->vm, ref->allocs[a], at, n, rb, &rp);
        *ds = wk_vidmm_peek(dut->vm, dut->allocs[a], at, n, db, &dp);
        uint64_t d = *rs == WK_OK && *ds == WK_OK ? piece_difference(rp, dp, n) : n;
        if (d < n)
            return at + d;
    }
    return UINT64_MAX;
}

/* Whether allocation a has the same size and bytes on both sides, both
 * readable throughout. Then its digests are equal too, and an expect_digest
 * step holds on both or fails on both: its outcome on either side matters
 * only where they disagree (a finding), so neither digest is computed. A
 * byte compare costs far less than two digests (512 rounds of the mixer
 * per page that is neither zero nor equal to the page before). Anything
 * unusual (no such allocation, an unreadable page) says no, and the step
 * runs on both sides as any other. */
static int same_contents(struct wk_prog_exec *ref, struct wk_prog_exec *dut, uint32_t a)
{
    struct wk_vidmm_allocation_state rst, dst;
    wk_status rs, ds;
    return a < ref->nallocs && a < dut->nallocs &&
           wk_vidmm_allocation_state(ref->vm, ref->allocs[a], &rst) == WK_OK &&
           wk_vidmm_allocation_state(dut->vm, dut->allocs[a], &dst) == WK_OK && rst.size == dst.size &&
           first_difference(ref, dut, a, &rs, &ds) == UINT64_MAX && rs == WK_OK && ds == WK_OK;
}

/* Whether every segment has as much room on both sides: what a driver
 * allocates for itself (its context allocations, facts §5.8: how many, how
 * large, where, are its own) takes room the input's allocations then lack,
 * so the same placement of the input's allocations can leave one side
 * WK_E_NO_SPACE where the other has room (examples/drivers/independent,
 * which makes no context allocation: "relocate returned WK_OK on the
 * driver under test, the reference WK_E_NO_SPACE"). */
static int same_room(const struct wk_prog_exec *ref, const struct wk_prog_exec *dut)
{
    struct wk_vidmm_segment_info seg[WK_PROG_MAX_SEGMENTS];
    uint32_t n = wk_vidmm_segments(ref->vm, seg, WK_PROG_MAX_SEGMENTS);
    for (uint32_t i = 0; i < n && i < WK_PROG_MAX_SEGMENTS; i++) {
        uint64_t rf, rl, df, dl;
        if (wk_vidmm_segment_room(ref->vm, seg[i].id, &rf, &rl) != WK_OK ||
            wk_vidmm_segment_room(dut->vm, seg[i].id, &df, &dl) != WK_OK || rf != df || rl != dl)
            return 0;
    }
    return 1;
}

/* Whether every allocation of the input is resident at the same GPU
 * address, at the same size, on both sides, with as much room left in
 * every segment: then an absolute address hits the same allocation (or
 * none) on both, and a request for room meets the same room. An evicted
 * one is not: its system pages follow each side's history. */
static int same_placement(const struct wk_prog_exec *ref, const struct wk_prog_exec *dut)
{
    if (ref->nallocs != dut->nallocs || !same_room(ref, dut))
        return 0;
    for (uint32_t a = 0; a < ref->nallocs; a++) {
        struct wk_vidmm_allocation_state r, d;
        if (wk_vidmm_allocation_state(ref->vm, ref->allocs[a], &r) != WK_OK ||
            wk_vidmm_allocation_state(dut->vm, dut->allocs[a], &d) != WK_OK)
            return 0;
        if (!r.resident || !d.resident || r.gpu_address != d.gpu_address || r.size != d.size)
            return 0;
    }
    return 1;
}

/* Whether the driver under test is the reference driver itself (built into
 * the harness): then the two sides make the same choices, and any
 * difference is a finding. */
static int dut_is_reference(void)
{
#ifdef WK_FUZZ_LINKED_DRIVER
    return 0;
#else
    return !wk_fuzz_driver_path();
#endif
}

/* Whether the two sides may have chosen differently where the DDI lets a
 * driver choose, so that what follows from placement (room, residency,
 * bytes no step defined) may differ without either being wrong: a layout
 * of the DUT's own, or another driver than the reference that placed the
 * input's allocations elsewhere (facts §4.9, §5.6: placement follows the
 * driver's preferences and sets). */
static int choices_differ(const struct wk_prog_exec *ref, const struct wk_prog_exec *dut)
{
    /* rounded_why: the driver answered an allocation larger or more
     * aligned than asked, or places in 64 KiB pages: its room differs
     * before any placement does (wk_test_align64k ran out of room in a
     * relocation the reference made) */
    return dut->seg_mapped || dut->rounded_why[0] || (!dut_is_reference() && !same_placement(ref, dut));
}

/*
 * A status that, on one side only, says the two layouts differ rather than
 * the two drivers, when the DUT has a layout of its own (dut->seg_mapped:
 * other hardware, its binding's segments): room ran out (WK_E_NO_SPACE),
 * an address or segment does not exist there (WK_E_INVALID_ARGUMENT), an
 * allocation is not resident because placement on that side evicted it
 * (WK_E_STATE), the kit cannot run the step on that side
 * (WK_E_NOT_SUPPORTED), or a driver declined a creation within its own
 * limits (WK_E_DRIVER_FAILED of a create step: how many devices, how large
 * an allocation, what its hardware can place; of a Render, a Patch or a
 * SubmitCommand it is the driver's verdict on its input, which no layout
 * changes, declined_within_limits). A rule a driver breaks is still a
 * violation, which is always a finding.
 */
static int creates(const struct wk_step *s)
{
    return s->kind == WK_STEP_CREATE_DEVICE || s->kind == WK_STEP_CREATE_CONTEXT ||
           s->kind == WK_STEP_CREATE_ALLOCATION;
}

static int layout_status(const struct wk_step *s, wk_status st)
{
    return st == WK_E_NO_SPACE || st == WK_E_INVALID_ARGUMENT || st == WK_E_STATE || st == WK_E_NOT_SUPPORTED ||
           (st == WK_E_DRIVER_FAILED && creates(s));
}

/* A driver other than the reference that declined a request the other side
 * took, or took one the reference declined, within its own limits: how many
 * devices or contexts, how large an allocation, what its hardware can place
 * (CreateDevice, CreateContext and CreateAllocation may fail with a
 * documented status, and one that broke a rule was a finding before this is
 * asked): no finding. Found on examples/drivers/independent, which takes
 * more devices than the reference
 * (corpus/fuzz_prog/regressions/heron-layout-device-limit). Only those
 * steps: a Render the reference refuses (a reference out of its
 * allocation, a command it cannot encode) and the driver under test takes
 * is the finding itself, not a limit (an outsider's off-by-one in Render's
 * extent check went unseen while every status difference was excused). */
static int declined_within_limits(const struct wk_step *s, wk_status rs, wk_status ds)
{
    return creates(s) && !dut_is_reference() && (rs == WK_E_DRIVER_FAILED || ds == WK_E_DRIVER_FAILED);
}

/* Whether a render step's records ask for a BLIT beyond the GPU model's
 * own limits (its opcode table: at most 16384 rows of 1 MiB). */
static int blit_beyond_model(const struct wk_prog_render *g)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(WK_GPU_OP_BLIT);
    const uint64_t max_width = op->operands[2].max_value, max_height = op->operands[3].max_value;
    struct wk_prog_render parsed;
    const struct wk_prog_render *r = g;
    if (g->raw) { /* fuzz_render's bytes: records when they parse as such */
        if (!wk_render_command_records(g->raw_bytes, g->raw_length, &parsed))
            return 0;
        r = &parsed;
    }
    for (uint32_t k = 0; k < r->record_count; k++)
        if (r->records[k].op == WK_USER_OP_BLIT &&
            ((max_width && r->records[k].width > max_width) || (max_height && r->records[k].height > max_height)))
            return 1;
    return 0;
}

/* A Render the reference refused because it asks the GPU model for more
 * than the model can do, on a driver whose buffers run elsewhere: the
 * limit is the model's, and umd.h lets each driver refuse what its own
 * hardware cannot do ("a driver refuses what its own cannot do"), so the
 * other driver's acceptance says nothing (conform skips the same cases:
 * requires gpu-model-limits). Outsider 7's GPU took a BLIT of 28,417 rows
 * that the reference refused, and the difference was reported. */
static int model_limit_refusal(const struct wk_step *s, wk_status rs, wk_status ds)
{
    return s->kind == WK_STEP_RENDER && s->render && rs == WK_E_DRIVER_FAILED && ds == WK_OK &&
           !wk_fuzz_dut_targets_model() && blit_beyond_model(s->render);
}

/* Whether allocation a is resident in an aperture segment on x's adapter.
 * An expect_gart on one the DUT placed in memory of its own choosing (the
 * request did not ask for an aperture: where it goes is the driver's
 * answer in its DXGK_ALLOCATIONINFO, and room) asks about a mapping the DUT
 * had no reason to make,
 * on its own layout or on the GPU model's (examples/drivers/independent put
 * such an allocation in memory segment 1, the reference in the aperture). */
static int in_aperture(const struct wk_prog_exec *x, uint32_t a)
{
    struct wk_vidmm_allocation_state st;
    return a < x->nallocs && wk_vidmm_allocation_state(x->vm, x->allocs[a], &st) == WK_OK && st.resident &&
           wk_vidmm_segment_is_aperture(x->vm, st.segment_id);
}

/*
 * A hold (the `hold` step) keeps the next render submissions from running
 * until a cancel, so which work it catches follows how each driver cut its
 * renders into submissions. A render whose DMA buffer is empty is not
 * submitted (the reference driver writes no bytes for a NOP); one whose
 * NOP is a hardware command is, and then the hold catches another render
 * on each side: what a content check reads after the cancel is the two
 * drivers' choices, and no finding (an outsider's 32-bit GPU failed
 * cancel.nop-render-not-held's pattern check so; the case now pins the
 * reference driver's choice, requires: reference-driver).
 */
static uint64_t render_submissions(struct wk_vidmm *vm)
{
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(vm, &st);
    return st.ddi_calls[WK_DDI_SUBMIT_COMMAND] - st.paging_buffers;
}

static int held_work_differs(const struct wk_prog_exec *ref, const struct wk_prog_exec *dut, uint32_t i)
{
    int held = 0;
    for (uint32_t k = 0; k < i && !held; k++)
        held = ref->p->steps[k].kind == WK_STEP_HOLD;
    return held && render_submissions(ref->vm) != render_submissions(dut->vm);
}

/* Whether the program discarded allocation a before step i. Discarded
 * content is gone once the allocation leaves memory, and whether it left
 * depends on the room each side had: a driver that answers allocations
 * larger (umd.h: "it may round Size and Alignment up") fits fewer, and an
 * allocation the reference still held was evicted, then discarded, on the
 * driver under test (fuzz_prog, outsider 26's 64 KiB sizes). */
static int discarded_before(const struct wk_prog *p, uint32_t i, uint32_t a)
{
    for (uint32_t k = 0; k < i; k++)
        if (p->steps[k].kind == WK_STEP_DISCARD && p->steps[k].allocation == a)
            return 1;
    return 0;
}

/* A step that makes or uses a GPU address space's page tables. */
static int address_space_step(const struct wk_prog *p, const struct wk_step *s)
{
    switch (s->kind) {
    case WK_STEP_VA_MAP: case WK_STEP_VA_UNMAP: case WK_STEP_EXPECT_VA: case WK_STEP_SUBMIT_VIRTUAL:
    case WK_STEP_MOVE_ROOT_TABLE: case WK_STEP_END_PROCESS:
        return 1;
    case WK_STEP_CREATE_DEVICE: case WK_STEP_CREATE_CONTEXT: return wk_prog_uses_va(p);
    default: return 0;
    }
}

/* One step on both sides; 1 when they agree and nothing was violated, 0
 * after a finding, -1 when the two can no longer be compared (the rest of
 * the input is not judged). */
static int diff_step(const char *harness, struct wk_prog_exec *ref, struct wk_prog_exec *dut, uint32_t i)
{
    const struct wk_step *s = &ref->p->steps[i];
    const char *kw = wk_step_keyword(s->kind);
    int ref_failed = 0, dut_failed = 0;
    if (s->kind == WK_STEP_EXPECT_DIGEST && same_contents(ref, dut, s->allocation))
        return 1; /* equal bytes: the same outcome on both sides (above) */
    wk_status rs = wk_prog_exec_step(ref, s, &ref_failed);
    step_violated(harness, WK_FUZZ_REF, ref->vm, i, kw);
    wk_status ds = wk_prog_exec_step(dut, s, &dut_failed);
    if (step_violated(harness, WK_FUZZ_DUT, dut->vm, i, kw))
        return 0;
    char kind[160];
    /* What the reference cannot do and the driver under test did (a GpuMmu
     * driver's address spaces and virtual contexts, which the physical
     * reference has not): the reference can follow no further, and the rest
     * runs on the driver under test alone, judged by the rules
     * (wk_fuzz_differential). A step the reference cannot take says
     * nothing of how the driver under test answered it otherwise (a
     * mutated adapter with too little memory for its address space): no
     * status of it is compared. */
    if (rs == WK_E_NOT_SUPPORTED)
        return ds == WK_OK ? -2 : -1;
    /* Room the kit's own page tables for the driver under test's address
     * space took, or lacked (a mutated adapter with a 40 KiB segment: "no
     * room for a 4096-byte page table"), where the reference, which has no
     * address space, spent none: the two sides' room differs from that step
     * on, and nothing of it is the driver's. */
    if (ds == WK_E_NO_SPACE && rs != WK_E_NO_SPACE &&
        (address_space_step(ref->p, s) || wk_vidmm_page_table_bytes(dut->vm)))
        return -1; /* ... the paging process's tables too (paging_process.c): any step that places */
    /* What the kit could not do on the driver's side (WK_E_NOT_SUPPORTED:
     * a buffer below its own size, a step its binding's encoder cannot say)
     * is no finding, and neither is, for a driver with a layout of its own
     * (layout_status), a status that follows from the layout. Nothing after
     * such a step compares. */
    /* A Render the reference refuses for a reference past an allocation's
     * end, taken by a driver that answered that allocation larger ("it may
     * round Size and Alignment up", umd.h): the end differs, not the
     * drivers (outsider 26's 64 KiB sizes). */
    if (s->kind == WK_STEP_RENDER && rs == WK_E_DRIVER_FAILED && ds == WK_OK && wk_prog_exec_render_rounded(dut, s))
        return -1;
    /* An allocation sized in paging buffers (create_allocation's
     * paging_buffers) is as large as each side's buffer makes it: a write
     * past one side's end and not the other's says nothing of either
     * driver (outsider 24's Kestrel, whose paging buffers are not the
     * reference's). */
    if (s->kind == WK_STEP_WRITE && ds != rs && s->allocation < ref->nallocs && s->allocation < dut->nallocs &&
        ref->alloc_asked[s->allocation] != dut->alloc_asked[s->allocation])
        return -1;
    if (ds != rs && (ds == WK_E_NOT_SUPPORTED || declined_within_limits(s, rs, ds) || model_limit_refusal(s, rs, ds) ||
                     ((layout_status(s, rs) || layout_status(s, ds)) && choices_differ(ref, dut))))
        return -1;
    if (ds != rs) {
        snprintf(kind, sizeof(kind), "differential: %s returned %s on the driver under test", kw, wk_status_name(ds));
        /* the reason of the side that failed: a side that succeeded still
         * holds an older step's message, which misled (outsider 7) */
        const char *why = ds != WK_OK ? wk_vidmm_last_error(dut->vm) : wk_vidmm_last_error(ref->vm);
        wk_fuzz_finding_as(harness, dut->vm, kind, "step %u (%s): the driver under test returned %s, the reference %s (%s: %s)",
                           i, kw, wk_status_name(ds), wk_status_name(rs), ds != WK_OK ? "the driver under test" : "the reference",
                           why);
        return 0;
    }
    /* On a layout of the DUT's own, a content check that fails on the
     * reference asks for bytes the program never defined (a mutated
     * expectation): that it holds on the DUT says nothing of either. */
    if (!content_check(s->kind) || dut_failed == ref_failed || (ref_failed && choices_differ(ref, dut)) ||
        held_work_differs(ref, dut, i) || (choices_differ(ref, dut) && discarded_before(ref->p, i, s->allocation)) ||
        (s->kind == WK_STEP_EXPECT_GART && !in_aperture(dut, s->allocation) &&
         (dut->seg_mapped || (s->allocation < dut->nallocs && !dut->alloc_aperture_asked[s->allocation]))))
        return 1;
    snprintf(kind, sizeof(kind), "differential: %s %s on the driver under test", kw, dut_failed ? "failed" : "held");
    /* The failing side's own words, named as its: "held on the reference:
     * digest X" read as the reference's digest (an outsider's report). */
    const struct wk_case_result *failed = dut_failed ? dut->r : ref->r;
    wk_fuzz_finding_as(harness, dut->vm, kind,
                       "step %u (%s) %s on the driver under test and %s on the reference; on the %s: expected %s, seen %s",
                       i, kw, dut_failed ? "failed" : "held", ref_failed ? "failed" : "held",
                       dut_failed ? "driver under test" : "reference", failed->expected, failed->seen);
    return 0;
}

static int diff_contents(const char *harness, struct wk_prog_exec *ref, struct wk_prog_exec *dut)
{
    for (uint32_t a = 0; a < ref->nallocs && a < dut->nallocs; a++) {
        wk_status rs, ds;
        uint64_t at = first_difference(ref, dut, a, &rs, &ds);
        if (rs != ds) {
            char kind[160];
            snprintf(kind, sizeof(kind), "differential: an allocation at the end is %s on the driver under test",
                     wk_status_name(ds));
            wk_fuzz_finding_as(harness, dut->vm, kind, "allocation %u at the end: %s on the driver under test, %s on the reference",
                               a, wk_status_name(ds), wk_status_name(rs));
            return 0;
        }
        if (at != UINT64_MAX) {
            uint64_t rd = 0, dd = 0;
            wk_vidmm_digest(ref->vm, ref->allocs[a], &rd);
            wk_vidmm_digest(dut->vm, dut->allocs[a], &dd);
            wk_fuzz_finding_as(harness, dut->vm, "differential: an allocation's content differs at the end",
                            "allocation %u at the end: content differs from byte +0x%llx (digest %016llx on the "
                            "driver under test, %016llx on the reference)",
                            a, (unsigned long long)at, (unsigned long long)dd, (unsigned long long)rd);
            return 0;
        }
    }
    return 1;
}

/*
 * The end of an input tears down what it left, on both sides and checked
 * like a step, as the conformance runner judges a case's teardown (leaks,
 * CTXALLOC-LEAK-001, the destroy DDIs). wk_vidmm_reset would destroy the
 * same objects anyway, but it forgets the violations it records, so a bug
 * in a destroy path would go unseen; done here, it costs nothing more.
 */
static int diff_teardown(const char *harness, struct wk_prog_exec *ref, struct wk_prog_exec *dut)
{
    const uint32_t step = ref->p->step_count;
    for (uint32_t d = 0; d < ref->ndevices && d < dut->ndevices; d++) {
        wk_status rs = wk_vidmm_destroy_device(ref->vm, ref->devices[d]);
        step_violated(harness, WK_FUZZ_REF, ref->vm, step, "teardown: destroy_device");
        wk_status ds = wk_vidmm_destroy_device(dut->vm, dut->devices[d]);
        if (step_violated(harness, WK_FUZZ_DUT, dut->vm, step, "teardown: destroy_device"))
            return 0;
        if (ds != rs) {
            char kind[160];
            snprintf(kind, sizeof(kind), "differential: destroy_device returned %s on the driver under test at teardown",
                     wk_status_name(ds));
            wk_fuzz_finding_as(harness, dut->vm, kind,
                               "teardown of device %u: the driver under test returned %s (%s), the reference %s", d,
                               wk_status_name(ds), wk_vidmm_last_error(dut->vm), wk_status_name(rs));
            return 0;
        }
    }
    return 1;
}

/* What the input's last renders left queued on the GPU (a queue step) runs
 * on both sides before their contents are compared; a rule it breaks on
 * the driver under test's side is a finding, as any step's. 1: go on. */
static int drained(const char *harness, struct wk_prog_exec *ref, struct wk_prog_exec *dut, uint32_t at)
{
    (void)wk_vidmm_drain(ref->vm);
    step_violated(harness, WK_FUZZ_REF, ref->vm, at, "queue (drained at the end)");
    (void)wk_vidmm_drain(dut->vm);
    return !step_violated(harness, WK_FUZZ_DUT, dut->vm, at, "queue (drained at the end)");
}

/* The driver under test alone, from step `from` on (the reference could
 * not follow it there): each step's rule violations are findings, as a
 * case's are; statuses and contents have nothing to be compared with. Its
 * devices are destroyed at the end, judged as a case's teardown. */
static int dut_alone(const char *harness, struct wk_prog_exec *dut, uint32_t from)
{
    const struct wk_prog *p = dut->p;
    for (uint32_t i = from; i < p->step_count; i++) {
        const struct wk_step *s = &p->steps[i];
        if (!wk_prog_exec_judgeable(dut, s))
            break;
        int failed = 0;
        (void)wk_prog_exec_step(dut, s, &failed);
        if (step_violated(harness, WK_FUZZ_DUT, dut->vm, i, wk_step_keyword(s->kind)))
            return 0;
    }
    for (uint32_t d = 0; d < dut->ndevices; d++) {
        (void)wk_vidmm_destroy_device(dut->vm, dut->devices[d]);
        if (step_violated(harness, WK_FUZZ_DUT, dut->vm, p->step_count, "teardown: destroy_device"))
            return 0;
    }
    return 1;
}

/* Whether a fence relative to an allocation writes past its end (the kit
 * lets a step say so): its 8 bytes land in whatever each side placed after
 * the allocation (on Heron's layout, the next allocation of the input). */
static int past_its_allocation(const struct wk_prog_exec *x, const struct wk_step *s)
{
    struct wk_vidmm_allocation_state st;
    if (s->allocation >= x->nallocs || wk_vidmm_allocation_state(x->vm, x->allocs[s->allocation], &st) != WK_OK)
        return 0;
    return s->offset > st.size || st.size - s->offset < 8;
}

/*
 * Whether step s depends on where the drivers placed things: a monitored
 * fence or a physical touch at an absolute address, or a fence past the
 * end of its allocation, lands in whatever each side placed there (a
 * spec's "fence into the allocation at 0x101008" assumes the reference
 * driver's placement, which the DDI leaves to the driver: facts §4.9 and
 * §5.6, its PreferredSegment, supported sets and banks steer VidMm). On
 * a layout of the DUT's own (the two adapters differ) it always does; on
 * the GPU model, unless both drivers placed every allocation alike.
 * Nothing after such a step compares. (A driver of the GPU model that
 * places allocations elsewhere was blamed: the committed seed
 * paging-physical.fence-absolute-into-allocation made
 * examples/drivers/independent a differential finding.)
 */
static int placement_bound(const struct wk_prog_exec *ref, const struct wk_prog_exec *dut, const struct wk_step *s)
{
    if (!wk_fuzz_dut_executes() || (s->kind != WK_STEP_SIGNAL_FENCE && s->kind != WK_STEP_TOUCH_PHYSICAL))
        return 0;
    if (s->relative && !(s->kind == WK_STEP_SIGNAL_FENCE && past_its_allocation(dut, s)))
        return 0;
    return dut->seg_mapped || !same_placement(ref, dut);
}

/* Whether id names a segment the input's description lacks (0 names none). */
static int foreign(const struct wk_prog *p, uint32_t id)
{
    return id > p->gpu.segment_count;
}

/*
 * Whether step s names a segment id past the input's description (a
 * mutated supported set, preference or relocation target): the reference
 * driver is handed that id and may refuse it, while on a layout of the
 * DUT's own the id has no player and is left out of what the DUT is handed
 * (prog_run.c, map_set), so the two are no longer asked the same thing.
 * Found as "differential: create_allocation returned WK_OK on the driver
 * under test" on the correct Heron miniport, with and without its binding.
 */
static int names_foreign_segment(const struct wk_prog_exec *dut, const struct wk_step *s)
{
    const struct wk_prog *p = dut->p;
    if (!dut->seg_mapped)
        return 0;
    switch (s->kind) {
    case WK_STEP_CREATE_ALLOCATION: {
        uint32_t sets = s->alloc.supported_set | s->alloc.eviction_set;
        if (p->gpu.segment_count < 32 && (sets >> p->gpu.segment_count) != 0)
            return 1;
        for (uint32_t f = 0; f < 5; f++)
            if (foreign(p, (s->alloc.preferred >> (6 * f)) & 0x1Fu))
                return 1;
        return 0;
    }
    case WK_STEP_RELOCATE:
        return foreign(p, s->segment);
    case WK_STEP_TOUCH_PHYSICAL:
        return !s->relative && foreign(p, s->segment);
    default:
        return 0;
    }
}

/*
 * A bare Patch (a patch step: DxgkDdiPatch on bytes and lists no Render of
 * the driver's made) is outside the DDI contract (WK_STRESS_SKIP_REASON):
 * the contract profile, which judges a driver for other hardware, leaves it
 * out, and so does the differential, on both sides (a Patch changes no
 * allocation, so the two stay in step). With its binding, such a driver
 * failed PATCH-VALUE-001 on a PatchOffset of 1, which no Render of its
 * would write: Heron's slots are dword-aligned. fuzz_patch is the harness
 * for bare Patch calls (the stress profile).
 */
static int bare_patch_outside_contract(const struct wk_step *s)
{
    return s->kind == WK_STEP_PATCH && !wk_fuzz_dut_targets_model();
}

/*
 * The driver under test with its hardware binding (binding.c): its memory
 * layout is the binding's, the reference driver's is the input's
 * description, so nothing that follows from a layout is compared: where an
 * allocation lands, which addresses or segments exist, where room runs out
 * (diff_step ends the comparison at such a step, wk_prog_exec casts the
 * program's segments onto the driver's by role). What both drivers must do
 * whatever the layout is compared: every status but those a layout
 * explains (layout_status), every rule (a violation on the DUT, the
 * semantic checks included: its binding's processor runs its buffers), and
 * the content checks the program states, read from wherever each side
 * placed the allocation: one that holds on the reference must hold on the
 * DUT. Not compared: a content check that fails on the reference (the
 * program asks for bytes it never defined), and the allocations' whole
 * bytes at the end, which on the model's layout are compared page by page.
 * Bytes the program never defined differ with the layout and with each
 * driver's use of memory: a fresh allocation's pages, an aperture
 * allocation whose system pages held the other driver's DMA buffer, a
 * buffer in the other hardware's format (found so: 11 "content differs at
 * the end" and 2 "expect_bytes held" in 92,000 runs of the correct Heron
 * miniport, each on bytes the program never wrote). The semantic rules
 * (PAGING-FILL-001, PAGING-TRANSFER-001...) still check every byte an
 * operation moved. Render steps go through the binding's encoder, as
 * `conform --binding` runs them (a step the encoder cannot say is a
 * WK_E_NOT_SUPPORTED skip, which ends the comparison: from then on the two
 * did different things). Without a register model no interrupt reports a
 * fence (vidmm retires it), which the interpreter is told.
 */
static void with_binding(struct wk_prog_exec *dut)
{
    const struct wk_binding *b = wk_vidmm_binding(dut->vm);
    if (!b || !wk_fuzz_dut_binding_executes())
        return;
    dut->binding_encoder = wk_vidmm_driver_declares_kit_umd(dut->vm) != 1 && wk_vidmm_binding_encodes(dut->vm);
    dut->no_interrupts = b->registers == NULL;
}

int wk_fuzz_differential(const char *harness, const struct wk_prog *p, const struct wk_fuzz_knobs *k,
                         wk_fuzz_skip_fn *skip, void *user)
{
    static struct wk_case_result ref_result, dut_result;
    static struct wk_prog_exec ref, dut;
    wk_fuzzdrv_state()->harness_seen = harness;
    struct wk_vidmm *ref_vm = wk_fuzz_ready(WK_FUZZ_REF, k);
    if (!ref_vm)
        return 0; /* an adapter the reference refuses: nothing to compare the DUT with */
    struct wk_vidmm *dut_vm = wk_fuzz_ready(WK_FUZZ_DUT, k);
    if (!dut_vm && wk_fuzzdrv_state()->slots[WK_FUZZ_DUT].out_of_reach)
        return 0; /* system memory the driver's GPU does not reach: no VidMm would give it this adapter */
    if (!dut_vm) {
        wk_fuzz_finding_as(harness, NULL, "the driver under test does not start on an adapter the reference starts on",
                           "the driver under test does not start on an adapter the reference starts on: %s",
                           wk_fuzzdrv_state()->slots[WK_FUZZ_DUT].refused);
        return 0;
    }
    wk_prog_exec_init(&ref, p, ref_vm, &ref_result);
    wk_prog_exec_init(&dut, p, dut_vm, &dut_result);
    with_binding(&dut);
    /* A driver for other hardware (nothing executes its buffers): only what
     * any driver must do is compared, statuses and rules; a semantic check
     * is skipped, and an encoder step (the kit's own user commands, which
     * such a driver need not read) ends the comparison, as it ends the
     * judgement of a case (docs/verdicts.md, "Kinds of check"). With a
     * binding that executes them, contents are compared too (with_binding
     * says what), and an encoder step runs when its encoder writes the
     * driver's own format, or when the driver reads the kit's
     * (WK_DRIVER_READS_KIT_UMD: conform --umd auto runs those steps too). */
    int contents = wk_fuzz_dut_executes();
    int encodes = wk_fuzz_dut_reads_kit_umd() || dut.binding_encoder;
    for (uint32_t i = 0; i < p->step_count; i++) {
        const struct wk_step *s = &p->steps[i];
        enum wk_check_kind kind = wk_step_check_kind(s);
        if (!encodes && kind == WK_CHECK_ENCODER)
            return diff_teardown(harness, &ref, &dut);
        if (!contents && kind == WK_CHECK_SEMANTIC)
            continue;
        if (!wk_prog_exec_judgeable(&dut, s) || placement_bound(&ref, &dut, s) || names_foreign_segment(&dut, s))
            return diff_teardown(harness, &ref, &dut);
        int same = (skip && skip(user, p, i)) || bare_patch_outside_contract(s) ? 1 : diff_step(harness, &ref, &dut, i);
        if (same == 0)
            return 0;
        if (same == -2)
            return dut_alone(harness, &dut, i + 1);
        if (same < 0)
            return diff_teardown(harness, &ref, &dut);
    }
    return drained(harness, &ref, &dut, p->step_count) &&
           (!contents || choices_differ(&ref, &dut) || held_work_differs(&ref, &dut, ref.p->step_count) ||
            diff_contents(harness, &ref, &dut)) &&
           diff_teardown(harness, &ref, &dut);
}
