/* SPDX-License-Identifier: MIT */
/*
 * coverage_gate_probe.c - a function compiled with libFuzzer's edge
 * counters (-fsanitize-coverage=inline-8bit-counters), for
 * test_coverage_gate.c: its runs show in the counters unless the gate is
 * paused.
 */
#include "coverage_gate_probe.h"

unsigned wk_probe_branches(unsigned x)
{
    unsigned n = 0;
    for (unsigned i = 0; i < x; i++) {
        if (i % 3 == 0)
            n += i;
        else
            n ^= i;
    }
    return n;
}
