/* SPDX-License-Identifier: MIT */
/*
 * fuzz_hostile.c - the kit against a driver whose answers the input
 * corrupts: step programs run with their answer rewrite kept.
 *
 * Why: a driver under test is hostile (docs/verdicts.md): it may return garbage,
 * and the kit must survive it, report it and keep going. The conformance
 * suite proves that each corruption of the mutation catalogue
 * (`wddmkit spec mutations`) trips its rule in one scenario; fuzz_prog
 * strips corruptions, since it looks for bugs in the driver. This harness
 * looks for bugs in the kit: any corruption of the catalogue, on any
 * matching call (or all of them), with any parameter, in any program,
 * must leave the kit with a verdict, not a crash, a hang, a leak or
 * undefined behaviour. The findings are the engine's own (a signal, a
 * sanitizer report, a timeout, a leak): whatever the verdict, the run
 * ended well.
 *
 * Per input:
 *   - decode (fuzz_prog's format, wk_prog_decode_again: every byte string
 *     is a program), the rewrite and the rule it must trip kept;
 *   - the adapter as the program says (its GPU description too: the
 *     adapter block of the binary form), its knobs folded as fuzz_prog
 *     folds them (a paging buffer too small for any command is raised to
 *     28 bytes, one past 64 KiB lowered to it); no DDI timer (a timer per
 *     DDI call would cost every input, and the engine's -timeout catches a
 *     kit that hangs), except for a corruption that makes the driver hang
 *     (render-hang): the kit must catch that one itself (DRV-HANG-001),
 *     after HANG_MS;
 *   - the work capped: allocations beyond WK_FUZZ_PROG_BYTES in all are
 *     made one page instead (the steps keep their indices);
 *   - wk_prog_run, the conformance runner itself: a fresh adapter and a
 *     freshly started driver for every input (no state is carried between
 *     inputs, so every finding replays), the steps, the judgement, the
 *     checked teardown.
 * Leaks: after a driver crash or hang the kit calls the driver no more
 * (Windows would have stopped), so what the driver allocated from its pool
 * stays allocated: not the kit's leak. __lsan_default_suppressions below
 * tells LeakSanitizer so (the driver's pool allocations, wk_km_pool_alloc
 * in km.h); every other leak is a finding. The driver's own leaks are
 * fuzz_prog's to find (its checked teardown). Which input leaked is the
 * leak gate's to say (leak_gate.h): it runs LeakSanitizer after an input
 * that left more blocks than it freed, not counting the driver's pool, and
 * the harness aborts when a leak is found. libFuzzer's own detection, which
 * suspected most inputs here and gave up after 1,000 of them, is to be off
 * (-detect_leaks=0, as `wddmkit fuzz` and fuzz_hostile.options pass).
 *
 * The driver is chosen by the other driver harnesses' rule
 * (wk_fuzz_driver_path, wk_fuzz_driver_entry in fuzz_driver.h):
 * WK_DRIVER=path.so, else the WK_FUZZ_DRIVER_LIB library linked in, else
 * the reference driver (its quiet build: no DbgPrint line per rejected
 * request). The corruption is what makes it hostile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "harness.h"
#include "fuzz.h"

#define PAGE 4096u
#define HANG_MS 20u                   /* the reference driver answers in microseconds */

/* A crashed driver's pool is routine here, whatever the environment says:
 * fuzz/driver/known.c's LeakSanitizer hooks (__lsan_default_suppressions and
 * __lsan_default_options, which every driver harness shares) then leave
 * it out, and do not list the suppressions after every leak check. */
int wk_fuzz_crashed_pools_routine(void)
{
    return 1;
}

static int makes_driver_hang(const struct wk_prog *p)
{
    size_t n = strlen(p->rewrite.mutation);
    return p->has_rewrite && n >= 5 && strcmp(p->rewrite.mutation + n - 5, "-hang") == 0;
}

/* Allocations past the byte budget shrink to a page: the program keeps
 * every step and every index, and costs what fuzz_prog's capped one does. */
static void cap_allocations(struct wk_prog *p)
{
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < p->step_count; i++) {
        struct wk_step *s = &p->steps[i];
        if (s->kind != WK_STEP_CREATE_ALLOCATION)
            continue;
        if (bytes + s->alloc.size > WK_FUZZ_PROG_BYTES)
            s->alloc.size = PAGE;
        bytes += s->alloc.size;
    }
}

static struct wk_prog p;
static struct wk_case_result r;

/* The last input as it ran (its steps released) and its result, for
 * tests/test_fuzz_hostile.c. */
const struct wk_prog *wk_fuzz_hostile_last_prog(void);
const struct wk_case_result *wk_fuzz_hostile_last_result(void);

const struct wk_prog *wk_fuzz_hostile_last_prog(void)
{
    return &p;
}

const struct wk_case_result *wk_fuzz_hostile_last_result(void)
{
    return &r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wk_leak_gate_begin();
    wk_prog_decode_again(data, size, &p);
    p.vidmm.paging_buffer_size = wk_fuzz_paging_buffer(p.vidmm.paging_buffer_size);
    p.vidmm.ddi_timeout_ms = makes_driver_hang(&p) ? HANG_MS : UINT32_MAX;
    cap_allocations(&p);
    struct wk_run_options o = { .driver = wk_fuzz_driver_path(), .entry = wk_fuzz_driver_entry() };
    wk_prog_run(&p, &o, &r);
    wk_prog_free(&p);
    if (wk_leak_gate_end()) {
        fprintf(stderr, "fuzz_hostile: FINDING: the kit leaked memory in this input\n"
                        "fuzz_hostile:   what and where: LeakSanitizer's report above\n");
        abort();
    }
    return 0;
}
