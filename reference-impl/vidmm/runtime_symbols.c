/* SPDX-License-Identifier: MIT */
/*
 * runtime_symbols.c - which instrumentation runtime a driver module that
 * does not load is missing (wddmkit/vidmm.h, wk_vidmm_missing_runtime_
 * symbol): the commonest reason a module built for one fuzzing engine does
 * not load into a program built another way. Used by wk_vidmm_load's
 * message (adapter.c), the wddmkit executable's hand-over
 * (cli/driver_probe.c, cli/hand_over.c) and the harnesses' start
 * (fuzz/driver/load.c).
 */
#include <string.h>

#include "vidmm.h"

/* Prefixes of the symbols instrumentation runtimes define: ASan, UBSan,
 * the other sanitizers, SanitizerCoverage (libFuzzer), AFL++, clang's
 * profile runtime. */
static const char *const runtime_prefixes[] = {
    "__asan", "__ubsan", "__sanitizer", "__sancov", "__lsan", "__msan", "__tsan",
    "__hwasan", "__dfsan", "__afl", "__llvm_profile",
};

int wk_vidmm_missing_runtime_symbol(const char *loader_message, char *sym, size_t cap)
{
    static const char marker[] = "undefined symbol: ";
    const char *at = loader_message ? strstr(loader_message, marker) : NULL;
    if (!at || !cap)
        return 0;
    at += sizeof(marker) - 1;
    size_t n = strcspn(at, " \t\n,;()");
    int known = 0;
    for (size_t i = 0; n && i < sizeof(runtime_prefixes) / sizeof(runtime_prefixes[0]); i++)
        known |= strncmp(at, runtime_prefixes[i], strlen(runtime_prefixes[i])) == 0;
    if (!known)
        return 0;
    n = n < cap - 1 ? n : cap - 1;
    memcpy(sym, at, n);
    sym[n] = '\0';
    return 1;
}
