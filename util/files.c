/* SPDX-License-Identifier: MIT */
/*
 * files.c - bounded reads of whole files, their first or last bytes, and
 * copies and comparisons (util.h). Every read has a limit: the inputs are
 * logs of engines that may run for hours, crash files, user files that
 * may be FIFOs or /dev/zero.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

size_t wk_fd_read_upto(int fd, char *buf, size_t cap)
{
    size_t got = 0;
    while (got + 1 < cap) {
        ssize_t n = read(fd, buf + got, cap - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (cap)
        buf[got] = '\0';
    return got;
}

long wk_file_head(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    return (long)wk_fd_read_upto(fd, buf, cap);
}

long wk_file_tail(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (cap == 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    off_t from = st.st_size > (off_t)(cap - 1) ? st.st_size - (off_t)(cap - 1) : 0;
    if (from > 0 && lseek(fd, from, SEEK_SET) < 0) {
        close(fd);
        return -1;
    }
    size_t got = wk_fd_read_upto(fd, buf, cap);
    if (from > 0) { /* drop the partial first line */
        char *nl = memchr(buf, '\n', got);
        size_t skip = nl ? (size_t)(nl - buf) + 1 : got;
        memmove(buf, buf + skip, got - skip + 1);
        got -= skip;
    }
    return (long)got;
}

static wk_status read_failed(wk_status st, int read_errno, uint64_t limit, char *why, size_t why_cap)
{
    if (st == WK_E_LIMIT)
        snprintf(why, why_cap, "larger than the %llu-byte limit", (unsigned long long)limit);
    else if (st == WK_E_NO_MEMORY)
        snprintf(why, why_cap, "out of memory");
    else
        snprintf(why, why_cap, "%s",
                 read_errno == EISDIR ? "a folder, where a file was expected"
                 : read_errno         ? strerror(read_errno)
                                      : "read error");
    return st;
}

wk_status wk_file_read(const char *path, uint64_t limit, uint8_t **data, size_t *size, char *why, size_t why_cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return read_failed(WK_E_IO, errno, limit, why, why_cap);
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
        free(buf);
        return read_failed(st, read_errno, limit, why, why_cap);
    }
    *data = buf;
    *size = used;
    return WK_OK;
}

static int write_all(int fd, const char *buf, size_t n)
{
    for (size_t off = 0; off < n;) {
        ssize_t w = write(fd, buf + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        off += (size_t)w;
    }
    return 1;
}

int wk_file_copy_new(const char *from, const char *to, uint64_t limit)
{
    char buf[64u << 10];
    struct stat st;
    if (stat(from, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > limit)
        return 0;
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return 0;
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (out < 0) {
        int e = errno;
        close(in);
        errno = e;
        return e == EEXIST ? 0 : -1;
    }
    int bad = 0;
    for (;;) {
        ssize_t n = read(in, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            bad = n < 0;
            break;
        }
        if (!write_all(out, buf, (size_t)n)) {
            bad = 1;
            break;
        }
    }
    int e = errno;
    close(in);
    if (close(out) != 0 || bad) {
        unlink(to); /* no half copy */
        errno = e;
        return -1;
    }
    return 1;
}

int wk_file_same(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}
