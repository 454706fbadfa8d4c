/*
 * host.c - facts about the host the model runs on that tune bulk copies.
 *
 * Large fills go past the caches with streaming stores, but only when the
 * fill is larger than the cache could hold anyway: the same threshold glibc's
 * memset uses (three quarters of the last-level cache). Below it, ordinary
 * stores that stay in the cache are faster.
 */
#define _GNU_SOURCE /* _SC_LEVEL3_CACHE_SIZE */

#include <unistd.h>

#include "internal.h"

uint64_t host_stream_threshold(void)
{
    long l3 = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    return l3 > 0 ? (uint64_t)l3 / 4 * 3 : 4ull << 20;
}
