/* SPDX-License-Identifier: MIT */
/*
 * fuzz_prog.c - whole step programs (contexts, allocations, paging,
 * eviction, render, submit, hold/cancel, checks, in any order, objects by
 * index) on the driver under test, compared with the reference driver
 * after every step.
 *
 * Why: the narrow harnesses drive one DDI each; sequences find what only
 * an order of operations reaches (a context destroyed with work queued, an
 * allocation evicted between two renders, a cancel after a hold...). The
 * format is the conformance program's (wk_prog_decode: every byte string
 * is a valid program), so seeds are the spec cases themselves and a
 * finding is a program `wddmkit` can replay, dump and promote.
 *
 * Per input:
 *   - decode; strip any rewrite (answer corruption exists to test the kit's
 *     checks, a fuzzer looks for real driver bugs) and the `trips` rule;
 *   - take the program's adapter: its GPU description and seed, and its
 *     paging knobs folded into the kit's domain (a non-zero paging buffer
 *     smaller than the largest paging command, 28 bytes, a COPY, is raised
 *     to 28, since no driver can make progress in it; one past 64 KiB is
 *     lowered to it). Its ddi_timeout_ms is ignored: hangs are left to the
 *     engine's -timeout (fuzz_driver.h); so is its max_passes (below). A
 *     description the reference refuses
 *     (overlapping segments, no system pages...) runs nothing: an
 *     uninteresting input, not a finding;
 *   - cap the work: create_allocation steps beyond WK_FUZZ_PROG_BYTES bytes
 *     in all (over the whole input) are left out on both sides;
 *   - run step by step on both adapters (wk_fuzz_differential): statuses
 *     equal, no DUT violation after any step, content checks agreeing,
 *     equal contents at the end, a clean teardown of what the program left.
 *     A reference violation is a KIT INVARIANT.
 * Both adapters are reset before every input; each role keeps up to 32
 * adapters by knobs, and other paging knobs, seed or max_passes than a
 * kept adapter's are set with wk_vidmm_reconfigure when it has the input's
 * GPU description and segment-query version (fuzz/driver/adapters.c says
 * when and why).
 */
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "harness.h"
#include "fuzz.h"

#define HARNESS "fuzz_prog"

struct caps {
    uint8_t skip[WK_PROG_MAX_STEPS];
};

static int skip_step(void *user, const struct wk_prog *p, uint32_t step)
{
    (void)p;
    return ((const struct caps *)user)->skip[step];
}

static void plan(const struct wk_prog *p, struct caps *c)
{
    uint64_t bytes = 0;
    memset(c->skip, 0, sizeof(c->skip));
    for (uint32_t i = 0; i < p->step_count; i++) {
        if (p->steps[i].kind != WK_STEP_CREATE_ALLOCATION)
            continue;
        uint64_t size = p->steps[i].alloc.size;
        if (bytes + size > WK_FUZZ_PROG_BYTES)
            c->skip[i] = 1;
        else
            bytes += size;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct wk_prog p;
    static struct caps c;
    wk_prog_decode_again(data, size, &p);
    p.has_rewrite = 0;
    memset(&p.rewrite, 0, sizeof(p.rewrite));
    p.trips[0] = '\0';
    /* p.gpu always: the kept adapters compare descriptions by value, so the
     * reference description in p is the reference adapter. max_passes is
     * not taken: a case's bound is sized for its own operations (the
     * negative multipass cases stop a driver that never finishes), and a
     * mutated program under it (a 28-byte paging buffer, a larger
     * allocation) makes the reference driver exceed it while it progresses:
     * a PAGING-PROGRESS-001 on the reference that says nothing of either
     * driver. Rewrites are stripped here, so the default bound (4096
     * passes) only ever stops a driver that does not progress. */
    struct wk_fuzz_knobs k = { p.vidmm.paging_buffer_size, p.vidmm.transfer_chunk, p.vidmm.split_submissions,
                               p.vidmm.query_segment_version, &p.gpu, p.vidmm.seed, 0, p.vidmm.grown_patch_list,
                               p.vidmm.first_fence, p.vidmm.move_before_patch };
    k.paging_buffer_size = wk_fuzz_paging_buffer(k.paging_buffer_size);
    plan(&p, &c);
    wk_fuzz_differential(HARNESS, &p, &k, skip_step, &c);
    wk_prog_free(&p);
    return 0;
}
