/* SPDX-License-Identifier: MIT */
/*
 * floor.c - the floor of an input: this thread's time inside the driver's
 * DDI calls and the command processor's runs (vidmm.h, "The floor"), for
 * bench/fuzz_speed --floor. Compiled to counters only with WK_FLOOR_TIMING
 * (the bench-floor preset): two clock reads per DDI call would cost the
 * fastest harnesses a tenth of their speed.
 *
 * A kernel callback or kernel-mode service the driver calls inside an
 * interval is the kit's work: FLOOR_CALLBACK (internal.h) pauses the
 * interval for its duration.
 *
 * Only the outermost interval counts (a depth counter): a DDI call that
 * makes the GPU run (a register write from SubmitCommand through a binding)
 * is one interval, the driver's. The clock is CLOCK_MONOTONIC, read through
 * the vDSO without a system call; the time a preempted thread waits is in
 * the interval, which is why the benchmark reads the input's whole time on
 * the same clock and runs each input many times.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <string.h>
#include <time.h>

#include "internal.h"

#ifdef WK_FLOOR_TIMING
static _Thread_local struct {
    struct wk_floor sum;
    uint64_t start;
    uint64_t serial; /* of the outermost interval: a pause shifts only the one it began in */
    unsigned depth;
} floor_state;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void floor_begin(void)
{
    if (floor_state.depth++ == 0) {
        floor_state.serial++;
        floor_state.start = now_ns();
    }
}

void floor_end(enum floor_kind kind)
{
    if (floor_state.depth == 0 || --floor_state.depth != 0)
        return;
    uint64_t now = now_ns();
    uint64_t ns = now > floor_state.start ? now - floor_state.start : 0;
    if (kind == FLOOR_GPU) {
        floor_state.sum.gpu_ns += ns;
        floor_state.sum.gpu_runs++;
    } else {
        floor_state.sum.driver_ns += ns;
        floor_state.sum.driver_calls++;
    }
}

struct floor_pause floor_pause_begin(void)
{
    struct floor_pause p = { 0, floor_state.serial, floor_state.depth > 0 };
    if (p.on)
        p.at = now_ns();
    return p;
}

/* The interval resumes: its start moves on by the pause, so the callback's
 * time is out of it (and of a GPU run inside it, which is conservative). */
void floor_pause_end(struct floor_pause *p)
{
    if (!p->on || floor_state.depth == 0 || floor_state.serial != p->serial)
        return; /* the interval it paused has ended (a crash unwound it inside the callback) */
    floor_state.start += now_ns() - p->at;
    floor_state.sum.callbacks++;
}

void floor_unwind(void)
{
    if (floor_state.depth == 0)
        return;
    floor_state.depth = 1;
    floor_end(FLOOR_DRIVER);
}

int wk_floor_enabled(void)
{
    return 1;
}

void wk_floor_read(struct wk_floor *out)
{
    *out = floor_state.sum;
}

void wk_floor_reset(void)
{
    memset(&floor_state.sum, 0, sizeof(floor_state.sum));
}
#else
int wk_floor_enabled(void)
{
    return 0;
}

void wk_floor_read(struct wk_floor *out)
{
    memset(out, 0, sizeof(*out));
}

void wk_floor_reset(void)
{
}
#endif
