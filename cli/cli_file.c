/* SPDX-License-Identifier: MIT */
/*
 * cli_file.c - whole-file reads for the command line, bounded so that a
 * huge or endless input (a FIFO, /dev/zero) is refused, not swallowed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

wk_status wk_cli_read_file(const char *path, uint64_t limit, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "wddmkit: %s: %s\n", path, strerror(errno));
        return WK_E_IO;
    }
    size_t cap = 4096, used = 0;
    uint8_t *buf = malloc(cap);
    wk_status st = buf ? WK_OK : WK_E_NO_MEMORY;
    while (st == WK_OK) {
        if (used == cap) {
            uint8_t *grown = cap > limit ? NULL : realloc(buf, cap * 2);
            if (!grown) {
                st = cap > limit ? WK_E_LIMIT : WK_E_NO_MEMORY;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (n == 0)
            break;
    }
    int read_errno = 0;
    if (st == WK_OK && ferror(f)) {
        st = WK_E_IO;
        read_errno = errno; /* EISDIR for a folder, which fopen accepts */
    }
    if (st == WK_OK && used > limit)
        st = WK_E_LIMIT;
    fclose(f);
    if (st != WK_OK) {
        if (st == WK_E_LIMIT)
            fprintf(stderr, "wddmkit: %s: larger than the %llu-byte limit\n", path,
                    (unsigned long long)limit);
        else
            fprintf(stderr, "wddmkit: %s: %s\n", path,
                    st != WK_E_IO          ? "out of memory"
                    : read_errno == EISDIR ? "a folder, where a file was expected (wddmkit triage runs a folder)"
                    : read_errno           ? strerror(read_errno)
                                           : "read error");
        free(buf);
        return st;
    }
    *data = buf;
    *size = used;
    return WK_OK;
}
