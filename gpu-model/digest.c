/* SPDX-License-Identifier: MIT */
/*
 * digest.c - the 64-bit memory digest of docs/gpu-model.md ("Digest").
 *
 * Defined on bytes alone, in 4096-byte chunks counted from the start of the
 * range, so the digest of a range does not depend on its alignment or on
 * which pages happen to be resident. The mixer is the splitmix64 finalizer
 * (public constants); quality is ample for telling contents apart in specs.
 */
#include <string.h>

#include "internal.h"

uint64_t digest_mix(uint64_t z)
{
    z ^= z >> 30;
    z *= 0xBF58476D1CE4E5B9ull;
    z ^= z >> 27;
    z *= 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z;
}

uint64_t digest_chunk(const uint8_t *buf, uint64_t n)
{
    uint64_t c = 0x9E3779B97F4A7C15ull ^ n;
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8)
        c = digest_mix(c ^ le64(buf + i));
    if (i < n) {
        uint8_t tail[8] = {0};
        memcpy(tail, buf + i, n - i);
        c = digest_mix(c ^ le64(tail));
    }
    return c;
}

uint64_t wk_gpu_digest_chunk(const void *chunk, uint64_t n)
{
    return digest_chunk(chunk, n);
}

uint64_t wk_gpu_digest_add(uint64_t state, uint64_t chunk_value)
{
    return digest_mix(state + chunk_value);
}

uint64_t wk_gpu_digest_end(uint64_t state, uint64_t len)
{
    return digest_mix(state ^ len);
}

uint64_t wk_gpu_digest_bytes(const void *buf, uint64_t len)
{
    const uint8_t *b = buf;
    uint64_t h = WK_GPU_DIGEST_START;
    for (uint64_t done = 0; done < len; done += WK_GPU_PAGE_SIZE) {
        uint64_t n = len - done < WK_GPU_PAGE_SIZE ? len - done : WK_GPU_PAGE_SIZE;
        h = wk_gpu_digest_add(h, digest_chunk(b + done, n));
    }
    return wk_gpu_digest_end(h, len);
}
