/* SPDX-License-Identifier: MIT */
/*
 * harness_list.c - the harnesses of the kit as a table, from
 * fuzz/harnesses.txt through the header CMake generates from it
 * (wk_harness_list.h, cmake/WkFuzzer.cmake). The list used to be written
 * in six places that drifted apart; now the command line's messages and
 * help, a campaign's default max_len and the OSS-Fuzz build all read it.
 */
#include <string.h>

#include "campaign/campaign.h"
#include "wk_harness_list.h"

#define ENTRY(name, max_len, description) { #name, max_len, description },
static const struct wk_fuzz_harness harnesses[] = { WK_HARNESS_LIST(ENTRY) };
#undef ENTRY

const struct wk_fuzz_harness *wk_fuzz_harness_list(size_t *count)
{
    *count = sizeof(harnesses) / sizeof(harnesses[0]);
    return harnesses;
}

const struct wk_fuzz_harness *wk_fuzz_harness_find(const char *name)
{
    for (size_t i = 0; i < sizeof(harnesses) / sizeof(harnesses[0]); i++)
        if (strcmp(harnesses[i].name, name) == 0)
            return &harnesses[i];
    return NULL;
}

const char *wk_fuzz_harness_names(void)
{
    return WK_HARNESS_NAMES;
}
