/* SPDX-License-Identifier: MIT */
/*
 * leak_gate.h - whether an input leaked, for a harness whose inputs leave
 * a driver's pool blocks behind on purpose (fuzz_hostile: after a driver
 * crash or hang the kit calls the driver no more, as Windows would, and
 * what the driver allocated stays allocated).
 *
 * Why not libFuzzer's own leak detection: it suspects every input that
 * made more allocations than it freed, runs it again and scans the whole
 * process (LeakSanitizer, some milliseconds). In fuzz_hostile that was
 * most inputs: 42% of the campaign's time, and after 1,000 such checks
 * libFuzzer turns leak detection off for the rest of the campaign (about
 * 40 s in). The gate counts the input's own allocations and frees through
 * the sanitizer's allocation hooks, leaves out the blocks of a driver's
 * pool still live at the end (their km.h header says what they are), and
 * runs LeakSanitizer only when more of the rest were allocated than freed;
 * the input that leaked is then the one that ran. The harness turns
 * libFuzzer's detection off (-detect_leaks=0: `wddmkit fuzz` and
 * fuzz_hostile.options pass it).
 *
 * Without a sanitizer runtime (replay binaries of plain builds, AFL++) the
 * gate does nothing: wk_leak_gate_end() returns 0.
 */
#ifndef WK_FUZZ_LEAK_GATE_H
#define WK_FUZZ_LEAK_GATE_H

/* 1 when the sanitizer's allocation hooks and LeakSanitizer are there. */
int wk_leak_gate_available(void);

/* Starts counting the calling thread's allocations and frees. */
void wk_leak_gate_begin(void);

/* Stops counting. 1 when the input allocated more blocks than it freed,
 * not counting blocks of a driver's pool it left live (or when it left
 * more live blocks than the gate can follow). */
int wk_leak_gate_suspect(void);

/* Zeroes the stack below the caller's frame: the input's dead frames,
 * where a pointer to a block it leaked may still lie, which LeakSanitizer
 * (scanning the stack) would take for a reference. */
void wk_leak_gate_wipe_dead_frames(void);

/* A LeakSanitizer check (its report on stderr): 1 when it found a leak. */
int wk_leak_gate_check(void);

/* wk_leak_gate_suspect(), and when it says so, the check: 1 when
 * LeakSanitizer found a leak. Inline, so that the wipe starts right below
 * the harness's own frame, above every frame the input used (a function
 * of its own would leave its frame's unused bytes unwiped, and in one
 * build a test's leaked pointer was found there). */
static inline int wk_leak_gate_end(void)
{
    if (!wk_leak_gate_suspect())
        return 0;
    wk_leak_gate_wipe_dead_frames();
    return wk_leak_gate_check();
}

#endif
