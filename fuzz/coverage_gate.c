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
 * counters (the kit, the GPU model, a driver linked in), not those of a
 * driver loaded at run time, which libFuzzer registers apart and keeps to
 * itself. A few thousand counters: two copies of a few KiB per pause.
 *
 * Not instrumented itself (fuzz/coverage-ignorelist.txt).
 */
#include "coverage_gate.h"

#include <stddef.h>
#include <stdint.h>
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
static uint8_t *saved;

static size_t counters(void)
{
    uintptr_t start = (uintptr_t)__start___sancov_cntrs, stop = (uintptr_t)__stop___sancov_cntrs;
    return start && stop > start ? (size_t)(stop - start) : 0;
}
#endif

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
    size_t n = counters();
    if (!n)
        return;
    if (!saved)
        saved = malloc(n); /* once, for the life of the process */
    if (saved)
        memcpy(saved, __start___sancov_cntrs, n);
#endif
}

void wk_fuzz_coverage_resume(void)
{
    if (!depth || --depth)
        return;
#if GATE_AFL
    __AFL_COVERAGE_ON();
#else
    size_t n = counters();
    if (n && saved)
        memcpy(__start___sancov_cntrs, saved, n);
#endif
}
