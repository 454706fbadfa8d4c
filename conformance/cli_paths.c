/*
 * cli_paths.c - file-system checks the subcommands share (cli.h): what a
 * path is, making a folder and its parents, finding a program on PATH,
 * whether a word can be a harness name (it goes into paths), and whether it
 * is one of the harnesses of fuzz/.
 */
#include <errno.h>
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
