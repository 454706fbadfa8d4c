/* SPDX-License-Identifier: MIT */
/*
 * known->c - known signatures (WK_FUZZ_IGNORE): the findings a campaign
 * passes over, their shared hit counters, and what LeakSanitizer is told
 * while they are passed over (fuzz_driver.h says what a user sees).
 *
 * libFuzzer stops at its first crash, and a shallow bug is found again by
 * the first mutations of any input near it: against a driver with a known
 * bug, a campaign ended after a few hundred runs however long it was given
 * (buggy_render_index: 195 runs of a 30 s campaign), and nobody could look
 * for a second bug before fixing the first. libFuzzer has no option that
 * keeps its normal mode going past a crash, so the harness decides: a
 * finding whose signature is listed is not a crash for any engine.
 *
 * The list is the environment's, read once and bounded (IGNORE_MAX entries
 * of IGNORE_TEXT bytes; more or longer ones are dropped, saying so). The
 * counters are a file `wddmkit fuzz` sizes, mapped shared: a libFuzzer job,
 * its workers and every child AFL++'s fork server makes add to them with an
 * atomic add, with no file I/O per input.
 *
 * The list lives in the runtime's state (internal.h): read once, by
 * LLVMFuzzerInitialize (load.c) before AFL++'s fork server starts, so its
 * children share the counters' mapping; and at the first finding
 * otherwise. findings.c asks wk_fuzzdrv_known_finding before it reports.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, mmap */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* The list, in the runtime's state. */
static struct known_list *ignore_list(void)
{
    return &wk_fuzzdrv_state()->known;
}

/* One entry of the list, [from, to) with the blanks around it cut. */
static void add_known(const char *from, const char *to)
{
    struct known_list *known = ignore_list();
    while (from < to && (*from == ' ' || *from == '\t'))
        from++;
    while (to > from && (to[-1] == ' ' || to[-1] == '\t' || to[-1] == '\r'))
        to--;
    if (from == to)
        return;
    if (known->count == IGNORE_MAX || (size_t)(to - from) >= IGNORE_TEXT) {
        fprintf(stderr, "fuzz_driver: WK_FUZZ_IGNORE: %s '%.60s...' is not ignored\n",
                known->count == IGNORE_MAX ? "more than 64 signatures:" : "a signature too long:", from);
        return;
    }
    snprintf(known->sig[known->count++], IGNORE_TEXT, "%.*s", (int)(to - from), from);
}

static void map_counters(const char *path)
{
    struct known_list *known = ignore_list();
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 8) {
        fprintf(stderr, "fuzz_driver: WK_FUZZ_IGNORE_COUNTS=%s: not a file of counters: the hits are not counted\n",
                path);
        if (fd >= 0)
            close(fd);
        return;
    }
    uint32_t n = (uint64_t)st.st_size / 8 < known->count ? (uint32_t)((uint64_t)st.st_size / 8) : known->count;
    void *m = mmap(NULL, (size_t)n * 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m != MAP_FAILED) {
        known->counters = m;
        known->mapped = n;
    }
}

void wk_fuzzdrv_read_ignore_list(void)
{
    struct known_list *known = ignore_list();
    if (known->read)
        return;
    known->read = 1;
    const char *list = getenv("WK_FUZZ_IGNORE");
    for (const char *at = list; at && *at;) {
        size_t n = strcspn(at, ";\n");
        add_known(at, at + n);
        at += n + (at[n] != '\0');
    }
    const char *counts = getenv("WK_FUZZ_IGNORE_COUNTS");
    if (known->count && counts && *counts)
        map_counters(counts);
    if (known->count)
        fprintf(stderr, "fuzz_driver: WK_FUZZ_IGNORE: %u known signature%s ignored (counted, not a crash)\n",
                known->count, known->count == 1 ? "" : "s");
}

/* Whether a finding of signature sig is a known one: then it is counted and
 * named (the first time in this process), and 1 is returned. */
int wk_fuzzdrv_known_finding(const char *harness, const char *sig)
{
    struct known_list *known = ignore_list();
    wk_fuzzdrv_read_ignore_list();
    for (uint32_t i = 0; i < known->count; i++) {
        if (!wk_fuzz_signature_matches(known->sig[i], sig))
            continue;
        wk_fuzzdrv_state()->ignored++;
        if (i < known->mapped)
            __atomic_fetch_add(&known->counters[i], 1, __ATOMIC_RELAXED);
        if (!known->named[i]) {
            known->named[i] = 1;
            fprintf(stderr, "%s: ignored a known signature (WK_FUZZ_IGNORE): %s (the next are counted, not "
                            "printed)\n", harness, sig);
        }
        return 1;
    }
    return 0;
}

/*
 * LeakSanitizer, while known signatures are passed over: a driver that
 * crashed (or hit a guard page) is called no more, as Windows would stop
 * it, so the blocks its pool holds stay allocated when its adapter is
 * dropped. Once, that ended the input; passed over, it is routine, and
 * libFuzzer's leak check, which runs after any input that allocated more
 * than it freed, reported the first rebuild after it as a leak
 * (buggy_render_index: a `leak-*` file after 129 runs). So in such a
 * campaign the driver's pool (wk_km_pool_alloc, km.h) is not reported, as
 * fuzz_hostile, where crashed drivers are always routine
 * (wk_fuzz_crashed_pools_routine), has it. The price: a driver that leaks
 * its pool is not found by a campaign that passes over known signatures.
 * Both hooks are read when LeakSanitizer starts (options) or first checks
 * (suppressions); defined, not weak, so that the sanitizer runtime's own
 * weak defaults never win by link order.
 */
static int pools_routine(void)
{
    const char *list = getenv("WK_FUZZ_IGNORE");
    return (list && *list) || (wk_fuzz_crashed_pools_routine && wk_fuzz_crashed_pools_routine());
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return pools_routine() ? "leak:wk_km_pool_alloc\n" : "";
}

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return pools_routine() ? "print_suppressions=0" : "";
}

