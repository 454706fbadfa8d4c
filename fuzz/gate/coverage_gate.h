/* SPDX-License-Identifier: MIT */
/*
 * coverage_gate.h - the fuzzing engine's coverage turned off around the
 * kit's own state-reuse work inside a harness (coverage_gate.c).
 *
 * Why: a harness that keeps adapters between inputs picks, resets,
 * reconfigures or builds one before each input. Which of those it does,
 * and how much work each is, depends on the inputs before, not on the
 * input. Counted as the input's coverage, that work makes a second run of
 * the same input look different from the first (AFL++ reports it as
 * unstable edges and recalibrates; libFuzzer keeps inputs for "new
 * coverage" that was only history). Paused, the engine sees only what the
 * input itself makes the driver, the kit and the GPU model do.
 *
 * Pauses nest; only the outermost pair acts. Outside a fuzzing build both
 * are no-ops.
 */
#ifndef WK_FUZZ_COVERAGE_GATE_H
#define WK_FUZZ_COVERAGE_GATE_H

#include <stddef.h>
#include <stdint.h>

void wk_fuzz_coverage_pause(void);
void wk_fuzz_coverage_resume(void);

/* libFuzzer builds: the counters of a module loaded at run time (the
 * WK_DRIVER driver, already loaded) are saved and put back with this
 * executable's from now on. 1: done, or nothing to do in this build (AFL++'s
 * gate covers every module; no engine); 0: the module has no counters (no
 * coverage of its own for the engine to see; why says so); -1: they could
 * not be found (why; its own work then counts whenever it runs). */
int wk_fuzz_coverage_add_module(const char *path, char *why, size_t cap);

/* Where module `path` (loaded) keeps its SanitizerCoverage inline 8-bit
 * counters, from its file's section headers (module_counters.c). 1: found;
 * 0: it has none; -1: not loaded, its file unreadable or malformed. why is
 * set whenever the answer is not 1. */
int wk_fuzz_module_counters(const char *path, uint8_t **begin, size_t *len, char *why, size_t cap);

/* Whether pausing does anything in this build: 0 (no engine's coverage),
 * 1 (AFL++'s selective coverage), 2 (libFuzzer's inline 8-bit counters of
 * this executable, saved and put back). */
int wk_fuzz_coverage_gate_kind(void);

#endif
