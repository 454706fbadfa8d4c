/* SPDX-License-Identifier: MIT */
/*
 * cli_paths.c - file-system checks the subcommands share (cli.h): what a
 * path is, making a folder and its parents, finding a program on PATH,
 * whether a word can be a harness name (it goes into paths), whether it
 * is one of the harnesses of fuzz/, and whether a file holds a byte string.
 */
#define _GNU_SOURCE /* memmem */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int wk_cli_is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int wk_cli_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int wk_cli_mkdir_p(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
        return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
    return wk_cli_is_dir(buf) ? 0 : -1;
}

int wk_cli_find_in_path(const char *name, char *out, size_t cap)
{
    if (strchr(name, '/'))
        return snprintf(out, cap, "%s", name) < (int)cap && wk_cli_is_regular(out) && access(out, X_OK) == 0;
    const char *path = getenv("PATH");
    for (const char *p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
        size_t len = strcspn(p, ":");
        if (len && snprintf(out, cap, "%.*s/%s", (int)len, p, name) < (int)cap && wk_cli_is_regular(out) &&
            access(out, X_OK) == 0)
            return 1;
        p += len + (p[len] == ':');
    }
    return 0;
}

int wk_cli_harness_name_ok(const char *name)
{
    if (!name[0] || strlen(name) > 32)
        return 0;
    for (const char *q = name; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'))
            return 0;
    return 1;
}

/* The harnesses of fuzz/ (fuzz/CMakeLists.txt), one list for the check and
 * the messages. A misspelt --harness used to surface as a missing replay
 * binary ("build the fuzz targets"), which sent the user to build what was
 * already built. */
static const char harness_names[] = "fuzz_gpu_decode, fuzz_spec, fuzz_cli, fuzz_render, fuzz_patch, fuzz_paging, "
                                    "fuzz_prog, fuzz_elf, fuzz_hostile";

int wk_cli_harness_known(const char *name)
{
    size_t n = strlen(name);
    for (const char *p = n ? strstr(harness_names, name) : NULL; p; p = strstr(p + 1, name))
        if ((p == harness_names || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

const char *wk_cli_harness_list(void)
{
    return harness_names;
}

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

int wk_cli_file_find(const char *path, const char *needle, char *out, size_t cap)
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
