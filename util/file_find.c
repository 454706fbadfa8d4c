/* SPDX-License-Identifier: MIT */
/*
 * file_find.c - whether a file holds a byte string, streamed in blocks
 * (util.h). The command line asks it whether a driver module names a
 * sanitizer's or an engine's runtime symbol: the bytes the dynamic loader
 * would read, found without an ELF reader of our own (one more parser of
 * outside bytes to fuzz).
 */
#define _GNU_SOURCE /* memmem */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* A match whose string may run past what was read waits for the next read
 * (it is in the bytes kept), unless the file ended. */
#define FIND_CHUNK (64u << 10)
#define FIND_TAIL 64u

static void copy_string(const char *at, size_t avail, char *out, size_t cap)
{
    size_t max = avail < cap - 1 ? avail : cap - 1;
    size_t len = strnlen(at, max < FIND_TAIL - 1 ? max : FIND_TAIL - 1);
    memcpy(out, at, len);
    out[len] = '\0';
}

int wk_file_find(const char *path, const char *needle, char *out, size_t cap)
{
    static char buf[FIND_CHUNK + FIND_TAIL];
    size_t nlen = strlen(needle), keep = 0;
    if (out && cap)
        out[0] = '\0';
    if (nlen == 0 || nlen >= FIND_TAIL)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0, end = 0;
    if (fd < 0)
        return 0;
    while (!found && !end) {
        ssize_t n = read(fd, buf + keep, FIND_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        end = n <= 0;
        size_t have = keep + (n > 0 ? (size_t)n : 0);
        const char *hit = memmem(buf, have, needle, nlen);
        size_t avail = hit ? (size_t)(buf + have - hit) : 0;
        if (hit && (end || avail >= FIND_TAIL)) {
            found = 1;
            if (out && cap)
                copy_string(hit, avail, out, cap);
        }
        keep = have < FIND_TAIL ? have : FIND_TAIL;
        memmove(buf, buf + have - keep, keep);
    }
    close(fd);
    return found;
}
