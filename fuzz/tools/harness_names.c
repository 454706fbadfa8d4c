/* SPDX-License-Identifier: MIT */
/*
 * harness_names.c - whether a word can be a harness name (it goes into
 * paths) and whether it is one of the harnesses of harnesses/
 * (harness_names.h): the crash commands, `wddmkit coverage` and the
 * campaign notes they read check --harness against it.
 */
#include <stdio.h>
#include <string.h>

#include "tools/harness_names.h"

int wk_fuzz_harness_name_ok(const char *name)
{
    if (!name[0] || strlen(name) > 32)
        return 0;
    for (const char *q = name; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'))
            return 0;
    return 1;
}

/* The harnesses of harnesses/ (harnesses/CMakeLists.txt), one list for the check and
 * the messages. A misspelt --harness used to surface as a missing replay
 * binary ("build the fuzz targets"), which sent the user to build what was
 * already built. */
static const char harness_names[] = "fuzz_gpu_decode, fuzz_spec, fuzz_cli, fuzz_render, fuzz_patch, fuzz_paging, "
                                    "fuzz_prog, fuzz_elf, fuzz_hostile";

int wk_fuzz_harness_known(const char *name)
{
    size_t n = strlen(name);
    for (const char *p = n ? strstr(harness_names, name) : NULL; p; p = strstr(p + 1, name))
        if ((p == harness_names || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

const char *wk_fuzz_harness_list(void)
{
    return harness_names;
}
