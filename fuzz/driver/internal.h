/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the files of the driver harnesses' runtime share (the
 * runtime fuzz_driver.h describes, compiled into every driver harness):
 * its process-wide state, in one struct, and each file's functions the
 * others call. Not part of fuzz.h: harnesses and tools see fuzz_driver.h.
 *
 *   load.c          which driver is under test, and loading it before the
 *                   first input (LLVMFuzzerInitialize);
 *   binding.c       the hardware binding it runs with (WK_BINDING), chosen
 *                   and checked once;
 *   adapters.c      the kept adapters: build, reuse, reconfigure, victims,
 *                   epochs; it owns the state below;
 *   known.c         known signatures (WK_FUZZ_IGNORE) and their counters,
 *                   and LeakSanitizer's hooks while they are passed over;
 *   reach.c         how many inputs reached the driver (WK_FUZZ_REACH_COUNTS);
 *   findings.c      findings and kit invariants: signatures, violations,
 *                   the end-of-process teardown;
 *   fixture.c       the objects fuzz_render and fuzz_patch keep;
 *   differential.c  a program on the DUT and the reference, compared.
 *
 * Process-wide state, deliberately (adapters.c says why): one static
 * struct, reached through wk_fuzzdrv_state(), so that there is one place
 * to look for what survives an input. Sizes are fixed: no allocation
 * depends on an input.
 */
#ifndef WK_FUZZ_DRIVER_INTERNAL_H
#define WK_FUZZ_DRIVER_INTERNAL_H

#include <stdint.h>

#include "fuzz_driver.h"

#define KEPT WK_FUZZ_KEPT        /* adapters kept per role */

/* The largest description a program carries (struct wk_prog's arrays):
 * what a kept adapter can remember by value. */
#define DESC_SEGMENTS (sizeof(((struct wk_prog *)0)->bank_ends) / sizeof(((struct wk_prog *)0)->bank_ends[0]))
#define DESC_BANK_ENDS (sizeof(((struct wk_prog *)0)->bank_ends[0]) / sizeof(uint64_t))

/* A GPU description by value: desc.segments points into segments, each
 * banked segment's bank_ends into its row of bank_ends. */
struct desc_copy {
    struct wk_gpu_desc desc;
    struct wk_gpu_segment_desc segments[DESC_SEGMENTS];
    uint64_t bank_ends[DESC_SEGMENTS][DESC_BANK_ENDS];
};

struct kept {
    struct wk_vidmm *vm;        /* NULL: a free entry */
    struct wk_fuzz_knobs knobs; /* what it has now; knobs.gpu points to gpu */
    struct desc_copy gpu;       /* what it was built with */
    uint64_t used;              /* clock of its last use */
};

/* A description the reference refused to build an adapter for, with why:
 * the same knobs are refused again without building (adapters.c). */
#define REFUSALS 8
struct refusal {
    struct wk_fuzz_knobs knobs; /* knobs.gpu points to gpu; knobs.gpu NULL: an empty entry */
    struct desc_copy gpu;
    char why[384];
    uint64_t used;
};

struct slot {
    struct kept kept[KEPT];
    struct refusal refusals[REFUSALS]; /* the reference role's only */
    int stale;                  /* rebuild every kept adapter on next use (after a finding) */
    uint64_t epoch;             /* builds + resets */
    uint64_t builds;
    uint64_t clock;
    char refused[384];          /* why the last build failed: "<step>: <status>: <last error>" */
    int out_of_reach;           /* ... and it was a description whose system memory the driver's GPU does
                                   not reach (wk_vidmm_system_unreachable): no VidMm would ask, no finding */
};

/* The known signatures (known.c says why the bounds). */
#define IGNORE_MAX 64
#define IGNORE_TEXT 400

struct known_list {
    int read;
    uint32_t count;
    char sig[IGNORE_MAX][IGNORE_TEXT];
    uint8_t named[IGNORE_MAX];                    /* already printed by this process */
    uint64_t *counters;                           /* WK_FUZZ_IGNORE_COUNTS, mapped; NULL: none */
    uint32_t mapped;                              /* counters in the mapping */
};

/* Everything the runtime keeps between inputs. */
struct wk_fuzzdrv_state {
    struct slot slots[WK_FUZZ_ROLES];
    uint64_t findings;
    uint64_t ignored;                            /* findings of a known signature passed over */
    const char *harness_seen;                    /* the harness that last asked: teardown reports name it */
    struct wk_fuzz_fixture fixture;              /* fuzz_render's and fuzz_patch's objects (fixture.c) */
    struct known_list known;                     /* WK_FUZZ_IGNORE (known.c) */
    int dut_gpu;                                 /* 0 undecided, else DUT_GPU_* */
    int dut_kit_umd;                             /* its module declares WK_DRIVER_READS_KIT_UMD */
    const struct wk_binding *binding;            /* the DUT's hardware binding (binding.c); NULL: none */
    int binding_decided;                         /* binding chosen (and checked) */
    int dut_segment3_only;                       /* the DUT refused QUERYSEGMENT4 (WDDM 1.x): ask 3 */
};

/* What executes the DUT's buffers (adapters.c, dut_gpu). */
#define DUT_GPU_MODEL 1                          /* the kit's GPU model */
#define DUT_GPU_NONE (-1)                        /* nothing: vidmm no_model */
#define DUT_GPU_BINDING 2                        /* its hardware binding's processor */

/* adapters.c */
struct wk_fuzzdrv_state *wk_fuzzdrv_state(void);
void wk_fuzzdrv_drop(struct kept *e);
int wk_fuzzdrv_fresh_mode(void);
void wk_fuzzdrv_history_begin(void);
void wk_fuzzdrv_history_end(void);

/* Decides what executes the DUT's buffers from WK_GPU or the loaded
 * module's marker (load.c, at LLVMFuzzerInitialize). */
void wk_fuzzdrv_decide_gpu(void *so);

/* reach.c: maps WK_FUZZ_REACH_COUNTS (before AFL++'s fork server) */
void wk_fuzzdrv_map_reach_counts(void);

/* known.c */
void wk_fuzzdrv_read_ignore_list(void);
int wk_fuzzdrv_known_finding(const char *harness, const char *sig);

#endif
