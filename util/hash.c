/* SPDX-License-Identifier: MIT */
/*
 * hash.c - FNV-1a, 64 and 32 bits (util.h). The parameters are the
 * published ones (offset basis and prime of Fowler, Noll and Vo); the
 * 32-bit form names promoted regressions, so it must never change.
 */
#include <stdio.h>

#include "util.h"

uint64_t wk_fnv1a64(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

uint32_t wk_fnv1a32(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

int wk_fnv1a64_file(const char *path, uint64_t *digest, uint64_t *size)
{
    unsigned char buf[65536];
    FILE *f = fopen(path, "rb");
    uint64_t h = WK_FNV1A64_START;
    *size = 0;
    if (!f) {
        *digest = 0;
        return 0;
    }
    for (size_t n; (n = fread(buf, 1, sizeof(buf), f)) > 0;) {
        h = wk_fnv1a64(h, buf, n);
        *size += n;
    }
    int ok = !ferror(f);
    fclose(f);
    *digest = h;
    return ok;
}
