/* SPDX-License-Identifier: MIT */
/*
 * cli_paths.c - whether a word can be a harness name (it goes into paths)
 * and whether it is one of the harnesses (cli.h). What a path is, making
 * folders and finding programs are util/'s (util.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h" /* the harness list */

int wk_cli_harness_name_ok(const char *name)
{
    if (!name[0] || strlen(name) > 32)
        return 0;
    for (const char *q = name; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'))
            return 0;
    return 1;
}

/* The harnesses of fuzz/ (fuzz/harnesses.txt, the one list). A misspelt
 * --harness used to surface as a missing replay binary ("build the fuzz
 * targets"), which sent the user to build what was already built. */
int wk_cli_harness_known(const char *name)
{
    return wk_fuzz_harness_find(name) != NULL;
}

const char *wk_cli_harness_list(void)
{
    return wk_fuzz_harness_names();
}
