/* SPDX-License-Identifier: MIT */
/*
 * coverage_run.h - which lines and functions of a driver a harness's
 * inputs reach: the work of `wddmkit coverage` (coverage_run.c; cli/
 * parses its arguments into these options).
 */
#ifndef WK_FUZZ_COVERAGE_RUN_H
#define WK_FUZZ_COVERAGE_RUN_H

#include <stddef.h>

#define WK_COVERAGE_MAX_INPUTS 32   /* files or folders named */
#define WK_COVERAGE_BATCH 256u      /* inputs per replay process, by default */

struct wk_coverage_options {
    const char *harness;            /* a known harness (required) */
    const char *driver;             /* the module measured; NULL: the reference driver, in a coverage build */
    const char *out;                /* the output folder; NULL: fuzz-out/<harness>-coverage */
    const char *replay_dir;         /* the folder of <harness>_replay; NULL: found */
    const char *source_dir;         /* the kit's data (a checkout, an installed share/wddmkit), for
                                       corpus/NAME/; NULL, or without a corpus/: the working directory
                                       when it has one */
    const char *builds_dir;         /* the kit's builds by name, for coverage/fuzz/ (a checkout's
                                       build/, <prefix>/libexec/wddmkit); NULL: none */
    const char *inputs[WK_COVERAGE_MAX_INPUTS];
    int ninputs;                    /* 0: the default inputs */
    int all_files;                  /* also report the kit's code compiled into the driver */
    double fail_under;              /* < 0: none */
    unsigned timeout_s;             /* a batch's limit */
    unsigned batch;                 /* inputs per replay process */
    /* Whether the driver module loads into this process's build (1), with
     * the loader's reason in why when not; asked before any input runs.
     * NULL: not asked. */
    int (*driver_loads)(const char *driver, char *why, size_t cap);
};

/* Replays the inputs, merges the profiles, writes the reports and prints
 * the summary. Returns the exit code: 0 report written, 1 below
 * fail_under, 2 a setup error (printed). */
int wk_fuzz_coverage_run(const struct wk_coverage_options *o);

#endif
