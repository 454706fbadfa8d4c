/* SPDX-License-Identifier: MIT */
/*
 * load.c - which driver the harness puts under test, and loading it once,
 * before the first input (fuzz_driver.h: WK_DRIVER, WK_FUZZ_DRIVER_LIB or
 * the reference driver).
 *
 * The choice is made per process, from the environment and the build, and
 * is asked for again by every build of an adapter (adapters.c), so it
 * costs a getenv and nothing is cached. The module is opened here, in
 * LLVMFuzzerInitialize, and not at the first input: a module that does
 * not load is a setup error, not a finding, and AFL++ must see the
 * module's edges before its fork server starts (below). The known
 * signatures are read here too, for the same fork server (known.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "reference.h"

#include "gate/coverage_gate.h"
#include "harness.h"
#include "internal.h"

#ifdef WK_FUZZ_LINKED_DRIVER
/* Provided by the static library named by WK_FUZZ_DRIVER_LIB. */
NTSTATUS wk_fuzz_linked_DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);
#endif

const char *wk_fuzz_driver_path(void)
{
    const char *p = getenv("WK_DRIVER");
    return p && *p ? p : NULL;
}

/*
 * Before the first input (every engine and the replay binaries call this):
 * a WK_DRIVER module that does not load is a setup error, not a finding.
 * Found at the first input, it aborted like a finding: libFuzzer and AFL++
 * kept a crash file, and `wddmkit repro` of an ASan-built driver through an
 * uninstrumented replay binary called it a crash of the driver. Loaded with
 * the flags of wk_vidmm_load, which then finds it mapped.
 *
 * Loading here also puts a module built by afl-clang-fast in AFL++'s map:
 * the harnesses start AFL++'s fork server after this (deferred), and a
 * module that registers its edges once the server is up ends the process
 * ("an instrumented dlopen() library loaded afterwards"), which a load at
 * the first input did.
 */
/* The module at path, loaded and holding a DriverEntry; NULL with the
 * reason in why. A shared object that loads but is no driver (a system
 * library given by mistake) used to pass here and abort the first build,
 * which the engines kept as a crash of the empty input. */
static void *open_driver(const char *path, char *why, size_t cap)
{
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!so) {
        const char *e = dlerror();
        char sym[128];
        if (wk_vidmm_module_foreign(path, why, cap)) /* dlopen says "No such file" */
            return NULL;
        snprintf(why, cap, "%s%s", e ? e : "dlopen failed",
                 wk_vidmm_missing_runtime_symbol(e, sym, sizeof(sym))
                     ? " (a module built with sanitizers or fuzzer coverage loads only into a harness built alike)"
                     : "");
        return NULL;
    }
    if (!dlsym(so, "DriverEntry")) {
        snprintf(why, cap, "it loads but exports no DriverEntry: not a driver module (docs/writing-a-driver.md)");
        return NULL;
    }
    return so;
}

/* The coverage gate learns the module's counters (libFuzzer), and a module
 * without any is said to be one at start (wddmkit fuzz says it too). */
static void gate_module(const char *path)
{
    char gate[300];
    int added = wk_fuzz_coverage_add_module(path, gate, sizeof(gate));
    if (added == 0)
        fprintf(stderr, "fuzz_driver: note: %s has no libFuzzer coverage of its own (%s): the engine sees only "
                        "the kit's code; build it with -fsanitize=fuzzer-no-link (docs/fuzzing.md)\n", path, gate);
    else if (added < 0)
        fprintf(stderr, "fuzz_driver: note: the coverage gate cannot pause %s (%s): its bring-up will count as "
                        "the coverage of the inputs that build an adapter\n", path, gate);
}


int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char local[4096], why[1024];
    wk_fuzzdrv_read_ignore_list(); /* before AFL++'s fork server: its children share the counters' mapping */
    wk_fuzzdrv_map_reach_counts();
    const char *path = wk_fuzz_driver_path();
    if (!path) {
        wk_fuzz_dut_binding(); /* WK_BINDING on a linked driver: checked now, not at an input */
        return 0;
    }
    path = wk_vidmm_module_path(path, local, sizeof(local)); /* the coverage gate finds it by this name */
    void *so = open_driver(path, why, sizeof(why));
    if (so) {
        gate_module(path);
        wk_fuzz_dut_binding(); /* refused: exit 2 here, with the reason */
        wk_fuzzdrv_decide_gpu(so);
        if (wk_fuzz_harness_needs_kit_umd && wk_fuzz_harness_needs_kit_umd() && !wk_fuzz_dut_reads_kit_umd() &&
            !wk_fuzz_dut_binding_encodes()) {
            fprintf(stderr,
                    "fuzz_driver: this harness cannot fuzz %s: every input hands the driver the kit's own user-mode "
                    "format, which a driver for other hardware need not read (it declares neither "
                    "WK_DRIVER_TARGETS_GPU_MODEL nor WK_DRIVER_READS_KIT_UMD), and it has no binding whose encoder "
                    "writes its own (WK_BINDING); fuzz it with fuzz_prog, fuzz_paging or fuzz_patch "
                    "(docs/verdicts.md, \"Kinds of check\")\n",
                    path);
            exit(2);
        }
        return 0;
    }
    fprintf(stderr, "fuzz_driver: cannot load the driver under test (WK_DRIVER=%s): %s\n", path, why);
    exit(2);
}

DRIVER_INITIALIZE *wk_fuzz_driver_entry(void)
{
#ifdef WK_FUZZ_LINKED_DRIVER
    return wk_fuzz_linked_DriverEntry;
#else
    return wk_refdriver_DriverEntry;
#endif
}

const char *wk_fuzz_driver_name(void)
{
    if (wk_fuzz_driver_path())
        return wk_fuzz_driver_path();
#ifdef WK_FUZZ_LINKED_DRIVER
    return "linked (WK_FUZZ_DRIVER_LIB)";
#else
    return "reference";
#endif
}
