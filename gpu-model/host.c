/* SPDX-License-Identifier: MIT */
/*
 * host.c - facts about the host the model runs on that tune bulk copies.
 *
 * Large fills with a 4-byte pattern go past the caches with streaming
 * stores, but only when the fill is larger than the cache could hold anyway:
 * three quarters of the last-level cache (glibc's rule). The size is the
 * smaller of what sysconf and sysfs report, because in virtual machines
 * sysconf (CPUID) can report the whole host's cache: 320 MiB on the 2-core
 * development VM whose CPU has 32 MiB, which would have kept 64 MiB fills
 * off the streaming path. Below the threshold, ordinary stores that stay in
 * the cache are faster. WK_GPU_STREAM_BYTES overrides the threshold (tests
 * use it to take the streaming path with small fills on any host).
 */
#define _GNU_SOURCE /* _SC_LEVEL3_CACHE_SIZE */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

/* The last-level cache of CPU 0 in bytes per sysfs ("32768K"), or 0. */
static uint64_t sysfs_l3(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
    unsigned long long kib = 0;
    char unit = 0;
    if (!f)
        return 0;
    int n = fscanf(f, "%llu%c", &kib, &unit);
    fclose(f);
    if (n < 1)
        return 0;
    return unit == 'M' ? kib << 20 : unit == 'K' ? kib << 10 : kib;
}

/* The host's threshold, asked once per process: reading sysfs cost a
 * model's creation 6% of a fuzz_prog input that builds two (perf,
 * WK_FUZZ_FRESH=1), and the cache does not change while we run. A race
 * between two first callers computes the same value twice. */
static uint64_t host_threshold(void)
{
    static uint64_t known; /* 0: not asked yet */
    uint64_t t = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (t)
        return t;
    long l3 = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    uint64_t size = l3 > 0 ? (uint64_t)l3 : 0, fs = sysfs_l3();
    if (fs && (!size || fs < size))
        size = fs;
    t = size ? size / 4 * 3 : 4ull << 20;
    __atomic_store_n(&known, t, __ATOMIC_RELAXED);
    return t;
}

uint64_t host_stream_threshold(void)
{
    const char *env = getenv("WK_GPU_STREAM_BYTES");
    if (env && *env)
        return strtoull(env, NULL, 0);
    return host_threshold();
}

void wk_gpu_prepare_process(void)
{
    (void)host_threshold();
}
