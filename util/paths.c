/* SPDX-License-Identifier: MIT */
/*
 * paths.c - what a path is, joining two into a fixed buffer, making a
 * folder and its parents, finding a program on PATH (util.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

int wk_path_join(char *dst, size_t cap, const char *a, const char *b)
{
    int n = snprintf(dst, cap, "%s/%s", a, b);
    return n > 0 && (size_t)n < cap;
}

int wk_path_is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int wk_path_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int wk_path_is_executable(const char *path)
{
    return wk_path_is_regular(path) && access(path, X_OK) == 0;
}

int wk_path_mkdir_p(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
        errno = ENAMETOOLONG;
        return -1;
    }
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
    if (!wk_path_is_dir(buf)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

int wk_path_find_program(const char *name, char *out, size_t cap)
{
    if (strchr(name, '/'))
        return snprintf(out, cap, "%s", name) < (int)cap && wk_path_is_executable(out);
    const char *path = getenv("PATH");
    for (const char *p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
        size_t len = strcspn(p, ":");
        if (len && snprintf(out, cap, "%.*s/%s", (int)len, p, name) < (int)cap && wk_path_is_executable(out))
            return 1;
        p += len + (p[len] == ':');
    }
    return 0;
}
