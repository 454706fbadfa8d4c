/* SPDX-License-Identifier: MIT */
/*
 * harness_names.c - the harnesses of the kit as a table, from
 * fuzz/harnesses.txt through the header CMake generates from it
 * (wk_harness_list.h). The list used to be written in six places that
 * drifted apart; now the command line's messages and help, a campaign's
 * default max_len and the OSS-Fuzz build all read it. A misspelt --harness
 * used to surface as a missing replay binary ("build the fuzz targets"),
 * which sent the user to build what was already built: it is checked
 * against this list first.
 */
#include <string.h>

#include "tools/harness_names.h"
#include "wk_harness_list.h"

#define ENTRY(name, max_len, description) { #name, max_len, description },
static const struct wk_fuzz_harness harnesses[] = { WK_HARNESS_LIST(ENTRY) };
#undef ENTRY
#define HARNESS_COUNT (sizeof(harnesses) / sizeof(harnesses[0]))

const struct wk_fuzz_harness *wk_fuzz_harness_table(size_t *count)
{
    *count = HARNESS_COUNT;
    return harnesses;
}

const struct wk_fuzz_harness *wk_fuzz_harness_find(const char *name)
{
    for (size_t i = 0; i < HARNESS_COUNT; i++)
        if (strcmp(harnesses[i].name, name) == 0)
            return &harnesses[i];
    return NULL;
}

const char *wk_fuzz_harness_names(void)
{
    return WK_HARNESS_NAMES;
}

int wk_fuzz_harness_known(const char *name)
{
    return wk_fuzz_harness_find(name) != NULL;
}

int wk_fuzz_harness_name_ok(const char *name)
{
    if (!name[0] || strlen(name) > 32)
        return 0;
    for (const char *q = name; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'))
            return 0;
    return 1;
}
