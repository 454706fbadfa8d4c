/* SPDX-License-Identifier: MIT */
/*
 * fuzz_paging.c - sequences of paging operations with their arguments,
 * through DxgkDdiBuildPagingBuffer's multipass loop on the driver under
 * test, compared with the same sequence on the reference driver.
 *
 * Why: BuildPagingBuffer must resume exactly where it stopped when the
 * paging buffer runs out (MultipassOffset), honour TransferOffset and
 * MdlOffset of chunked transfers, and produce the same memory as any other
 * correct driver. Small paging buffers and chunked transfers make every
 * operation multipass; the differential check catches a driver that
 * restarts, skips or duplicates work without breaking a per-call rule.
 *
 * Input format: seeds_lib.h, "fuzz_paging": knobs (paging-buffer size from
 * the smallest that holds a COPY upward, transfer chunk), up to four
 * allocations from templates (memory segment 1, banked segment 2,
 * aperture-only, no preference, ...), then operations (page_in, evict,
 * fill, relocate, discard, special_lock_transfer, touch_physical,
 * signal_fence, host write) naming an allocation. The input becomes a step
 * program (create_device, the allocations, one step per operation), so a
 * finding replays with the conformance interpreter too.
 *
 * Findings (wk_fuzz_differential, fuzz_driver.h): a violation on the DUT
 * (after any step or in the teardown at the end), a step whose status
 * differs from the reference's, different allocation bytes at the end. A
 * violation on the reference is a KIT INVARIANT.
 *
 * State: both adapters are reset (wk_vidmm_reset) before every input: the
 * allocations are the input's own. An input whose knobs differ from the
 * previous input's gets them through wk_vidmm_reconfigure (the adapter
 * then behaves as one built with them); only another segment-query
 * version builds a new adapter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "harness.h"
#include "fuzz.h"

#define HARNESS "fuzz_paging"

/* The program of the last input, emptied (cheaper than wk_prog_init's
 * clearing of all WK_PROG_MAX_STEPS steps every time). */
static struct wk_prog *empty_prog(void)
{
    static struct wk_prog p;
    static int ready;
    if (!ready) {
        wk_prog_init(&p);
        snprintf(p.id, sizeof(p.id), "fuzz_paging.input");
        ready = 1;
    }
    memset(p.steps, 0, p.step_count * sizeof(p.steps[0]));
    p.step_count = 0;
    return &p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct wk_paging_input in;
    wk_paging_parse(data, size, &in);
    struct wk_prog *p = empty_prog();
    wk_paging_input_steps(&in, p); /* fuzz/inputs/paging_input.c: what wddmkit promote runs too */
    /* NULL, 0, 0: the reference adapter, seed 0, the default multipass bound. */
    struct wk_fuzz_knobs k = { in.paging_buffer_size, in.transfer_chunk, 0, 0, NULL, 0, 0, 0, 0, 0 };
    wk_fuzz_differential(HARNESS, p, &k, NULL, NULL);
    return 0;
}
