/* SPDX-License-Identifier: MIT */
#ifndef WK_TEST_COVERAGE_GATE_PROBE_H
#define WK_TEST_COVERAGE_GATE_PROBE_H
/* Some branches to count (coverage_gate_probe.c). */
unsigned wk_probe_branches(unsigned x);
#endif
