/* SPDX-License-Identifier: MIT */
/*
 * strings.c - bounded string copies and number formatting (util.h).
 */
#include <stdio.h>
#include <string.h>

#include "util.h"

int wk_str_copy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (cap == 0)
        return 0;
    if (n >= cap) {
        dst[0] = '\0';
        return 0;
    }
    memcpy(dst, src, n + 1);
    return 1;
}

const char *wk_str_grouped(uint64_t v, char *buf, size_t cap)
{
    char digits[32];
    int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
    size_t at = 0;
    if (cap == 0)
        return buf;
    for (int i = 0; i < n && at + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[at++] = ',';
        buf[at++] = digits[i];
    }
    buf[at] = '\0';
    return buf;
}
