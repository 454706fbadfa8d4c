/* SPDX-License-Identifier: MIT */
/*
 * logtext.c - bounded readers of the text the engines write: numbers read
 * digit by digit (saturating), "key: number" lookups within one line, and
 * printable copies cut to fit. Everything an engine prints is untrusted.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>

#include "campaign/internal.h"

/* Reads digits at p (up to end); 0 when there are none. Saturates. */
int wk_campaign_read_num(const char *p, const char *end, uint64_t *out)
{
    uint64_t v = 0;
    const char *start = p;
    while (p < end && *p >= '0' && *p <= '9') {
        v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + (uint64_t)(*p - '0');
        p++;
    }
    if (p == start)
        return 0;
    *out = v;
    return 1;
}

/* The number after `key` in [line, end), if the key is there. */
int wk_campaign_num_after(const char *line, const char *end, const char *key, uint64_t *out)
{
    size_t klen = strlen(key);
    const char *k = memmem(line, (size_t)(end - line), key, klen);
    if (!k)
        return 0;
    const char *p = k + klen;
    while (p < end && *p == ' ')
        p++;
    return wk_campaign_read_num(p, end, out);
}

/* A printable copy of src[0, n) (other bytes as '?', trailing blanks
 * dropped), cut to fit cap. */
void wk_campaign_trim_copy(char *dst, size_t cap, const char *src, size_t n)
{
    while (n && (src[n - 1] == '\r' || src[n - 1] == ' '))
        n--;
    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
    dst[n] = '\0';
}
