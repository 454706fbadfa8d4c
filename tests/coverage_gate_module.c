/* SPDX-License-Identifier: MIT */
/*
 * coverage_gate_module.c - a module loaded at run time whose functions
 * carry libFuzzer's edge counters (-fsanitize-coverage=inline-8bit-counters),
 * as a driver under test built for libFuzzer does: test_coverage_gate.c
 * finds its counters from its file and pauses them.
 */
unsigned wk_module_branches(unsigned x);

unsigned wk_module_branches(unsigned x)
{
    unsigned n = 0;
    for (unsigned i = 0; i < x; i++) {
        if (i % 5 == 0)
            n += 3 * i;
        else
            n ^= i << 1;
    }
    return n;
}
