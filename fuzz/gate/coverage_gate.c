/* SPDX-License-Identifier: MIT */
/*
 * coverage_gate.c - pausing the engine's coverage (coverage_gate.h).
 *
 * AFL++ (afl-clang-fast defines __AFL_COMPILER): its selective coverage,
 * documented for persistent-mode harnesses. __AFL_COVERAGE() declares the
 * program as using it; __AFL_COVERAGE_OFF() points the instrumentation at
 * a dummy map until __AFL_COVERAGE_ON(). That covers every instrumented
 * module, a driver loaded with WK_DRIVER too.
 *
 * libFuzzer (-fsanitize=fuzzer: inline 8-bit counters, one per edge, in
 * the section __sancov_cntrs, whose bounds the linker provides): the
 * counters are copied aside at the pause and copied back at the resume,
 * so what ran in between leaves no count. That covers this executable's
 * counters (the kit, the GPU model, a driver linked in) and, once
 * wk_fuzz_coverage_add_module has found them (module_counters.c, from the
 * module file's section headers), those of a driver loaded at run time,
 * which libFuzzer registers apart. A few thousand counters each: two
 * copies of a few KiB per pause.
 *
 * Not instrumented itself (fuzz/coverage-ignorelist.txt).
 */
#include "coverage_gate.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__AFL_COMPILER)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wstrict-prototypes" /* the macro declares f(), AFL++'s spelling */
__AFL_COVERAGE();
#pragma clang diagnostic pop
#define GATE_AFL 1
#else
#define GATE_AFL 0
/* Defined by the linker when the section exists (a libFuzzer build), NULL
 * otherwise (weak). */
extern uint8_t __start___sancov_cntrs[] __attribute__((weak));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak));
#endif

static unsigned depth;

#if !GATE_AFL
/* Counter arrays: this executable's, then the modules added. */
#define REGIONS 4
struct region {
    uint8_t *counters;
    size_t len;
    uint8_t *saved; /* allocated once, for the life of the process */
};
static struct region regions[REGIONS];
static unsigned nregions;

static size_t counters(void)
{
    uintptr_t start = (uintptr_t)__start___sancov_cntrs, stop = (uintptr_t)__stop___sancov_cntrs;
    return start && stop > start ? (size_t)(stop - start) : 0;
}

static void add_region(uint8_t *at, size_t len)
{
    if (nregions < REGIONS && len && (regions[nregions].saved = malloc(len))) {
        regions[nregions].counters = at;
        regions[nregions].len = len;
        nregions++;
    }
}

/* This executable's counters, once. */
static void own_region(void)
{
    static int done;
    if (!done) {
        done = 1;
        add_region(__start___sancov_cntrs, counters());
    }
}
#endif

int wk_fuzz_coverage_add_module(const char *path, char *why, size_t cap)
{
#if GATE_AFL
    (void)path, (void)why, (void)cap;
    return 1;
#else
    if (!counters())
        return 1; /* no libFuzzer here: nothing to pause */
    own_region();
    uint8_t *at = NULL;
    size_t len = 0;
    int found = wk_fuzz_module_counters(path, &at, &len, why, cap);
    if (found != 1)
        return found;
    if (nregions == REGIONS) {
        snprintf(why, cap, "more than %u counter arrays", REGIONS - 1);
        return -1;
    }
    add_region(at, len);
    if (depth) /* paused now: it was loaded in the pause, its counts are the pause's */
        memset(regions[nregions - 1].saved, 0, len);
    return 1;
#endif
}

int wk_fuzz_coverage_gate_kind(void)
{
#if GATE_AFL
    return 1;
#else
    return counters() ? 2 : 0;
#endif
}

void wk_fuzz_coverage_pause(void)
{
    if (depth++)
        return;
#if GATE_AFL
    __AFL_COVERAGE_OFF();
#else
    own_region();
    for (unsigned i = 0; i < nregions; i++)
        memcpy(regions[i].saved, regions[i].counters, regions[i].len);
#endif
}

void wk_fuzz_coverage_resume(void)
{
    if (!depth || --depth)
        return;
#if GATE_AFL
    __AFL_COVERAGE_ON();
#else
    for (unsigned i = 0; i < nregions; i++)
        memcpy(regions[i].counters, regions[i].saved, regions[i].len);
#endif
}
