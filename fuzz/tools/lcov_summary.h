/* SPDX-License-Identifier: MIT */
/*
 * lcov_summary.h - the summary `wddmkit coverage` prints of an lcov
 * tracefile (llvm-cov export -format=lcov): a row per source file and the
 * functions that never ran.
 */
#ifndef WK_LCOV_SUMMARY_H
#define WK_LCOV_SUMMARY_H

#include <stdio.h>

struct wk_lcov_totals {
    unsigned long files;
    unsigned long lines, lines_hit; /* LF and LH, summed */
    unsigned long fns, fns_hit;     /* functions of each file, each counted once */
    unsigned long never_run;        /* functions no input ran (the lines written to `never`) */
};

/*
 * Reads a tracefile from `in` (SF:, FN:, FNDA:, LF:, LH:, end_of_record;
 * other records ignored). For each file's record writes one row to `rows`
 * (percent of lines run, lines run/lines, functions run/functions, the
 * file) and, for each function of it whose count is 0, the line
 * "name<TAB>file:line" to `never`.
 *
 * A function is counted once per file: llvm-cov names a static function
 * "<unit>.c:name", and a static inline function of a header appears once
 * per unit that includes it; its copies are one function of that header,
 * run when any of them ran. Lines of any length are accepted (a longer
 * file or function name is cut in the output); malformed lines are
 * skipped. Returns 0, or -1 when out of memory (what was read is counted).
 */
int wk_lcov_summarize(FILE *in, FILE *rows, FILE *never, struct wk_lcov_totals *totals);

#endif
