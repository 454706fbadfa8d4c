/* SPDX-License-Identifier: MIT */
/*
 * strings.c - bounded string copies, number formatting, text on one line
 * (util.h).
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

int wk_str_tail_lines(char *dst, size_t cap, const char *text)
{
    size_t n = strlen(text);
    if (cap == 0)
        return 0;
    if (n < cap) {
        memcpy(dst, text, n + 1);
        return 1;
    }
    if (cap == 1) {
        dst[0] = '\0';
        return 0;
    }
    const char *from = text + n - (cap - 1);
    /* The line break before the last character, if the window holds one:
     * a break that ends the text does not start a line worth keeping. */
    const char *nl = memchr(from, '\n', (size_t)(text + n - 1 - from));
    if (from[-1] != '\n' && nl)
        from = nl + 1;
    memcpy(dst, from, (size_t)(text + n - from) + 1);
    return 0;
}

void wk_str_put_one_line(FILE *f, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '\n')
            fputs("\\n", f);
        else if (*c < 0x20 || *c == 0x7f)
            fprintf(f, "\\x%02x", *c);
        else
            fputc(*c, f);
    }
}
