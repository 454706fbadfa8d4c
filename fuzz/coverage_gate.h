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

void wk_fuzz_coverage_pause(void);
void wk_fuzz_coverage_resume(void);

/* Whether pausing does anything in this build: 0 (no engine's coverage),
 * 1 (AFL++'s selective coverage), 2 (libFuzzer's inline 8-bit counters of
 * this executable, saved and put back). */
int wk_fuzz_coverage_gate_kind(void);

#endif
