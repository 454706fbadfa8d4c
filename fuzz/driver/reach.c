/* SPDX-License-Identifier: MIT */
/*
 * reach.c - how many inputs reached the driver under test: a harness that
 * gives up on an input before any DDI call counts it here, by reason
 * (fuzz_driver.h, wk_fuzz_count_input), so that a replay and a campaign's
 * summary say how much of the run tested the driver at all. An outsider's
 * fuzz_render campaign against a driver with a binding ran 64,000 inputs a
 * second on flat coverage, and nothing said whether any reached their
 * Render: with a binding, raw bytes of the kit's format and operations the
 * binding's encoder cannot say are skips.
 *
 * The counts are this process's, and, when the environment names a file
 * of counters (WK_FUZZ_REACH_COUNTS, which `wddmkit fuzz` sizes), also
 * that file's, mapped shared and added to atomically as known.c does: a
 * libFuzzer job, its workers and every child of AFL++'s fork server add to
 * them with no file I/O per input. The file is mapped before the first
 * input (LLVMFuzzerInitialize), so the fork server's children share it.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, mmap */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_driver.h"
#include "internal.h"

static uint64_t counted[WK_FUZZ_REACH_COUNTERS];
static uint64_t *shared; /* WK_FUZZ_REACH_COUNTS, mapped; NULL: none */
static int mapped;

void wk_fuzzdrv_map_reach_counts(void)
{
    if (mapped)
        return;
    mapped = 1;
    const char *path = getenv("WK_FUZZ_REACH_COUNTS");
    if (!path || !*path)
        return;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    size_t bytes = sizeof(counted);
    if (fd < 0 || fstat(fd, &st) != 0 || (uint64_t)st.st_size < bytes) {
        fprintf(stderr, "fuzz_driver: WK_FUZZ_REACH_COUNTS=%s: not a file of %zu counters: the inputs are not "
                        "counted there\n", path, sizeof(counted) / sizeof(counted[0]));
        if (fd >= 0)
            close(fd);
        return;
    }
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m != MAP_FAILED)
        shared = m;
}

void wk_fuzz_count_input(enum wk_fuzz_reach why)
{
    if ((unsigned)why >= WK_FUZZ_REACH_COUNTERS - 1)
        return;
    wk_fuzzdrv_map_reach_counts();
    counted[0]++;
    counted[1 + why]++;
    if (shared) {
        __atomic_fetch_add(&shared[0], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&shared[1 + why], 1, __ATOMIC_RELAXED);
    }
}

void wk_fuzz_reach_report(const char *harness)
{
    uint64_t skipped = counted[0] - counted[1 + WK_FUZZ_REACHED];
    if (!skipped)
        return;
    fprintf(stderr, "%s: %llu of %llu inputs counted never reached the driver:", harness,
            (unsigned long long)skipped, (unsigned long long)counted[0]);
    for (unsigned r = WK_FUZZ_REACHED + 1; r < WK_FUZZ_REACH_COUNTERS - 1; r++)
        if (counted[1 + r])
            fprintf(stderr, " %llu %s;", (unsigned long long)counted[1 + r], wk_fuzz_reach_name((enum wk_fuzz_reach)r));
    fprintf(stderr, " a skip, never a finding\n");
}
