/* SPDX-License-Identifier: MIT */
/*
 * cli_file.c - whole-file reads for the command line (util's bounded
 * wk_file_read), with the one message every subcommand prints.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

wk_status wk_cli_read_file(const char *path, uint64_t limit, uint8_t **data, size_t *size)
{
    char why[160];
    wk_status st = wk_file_read(path, limit, data, size, why, sizeof(why));
    if (st != WK_OK)
        fprintf(stderr, "wddmkit: %s: %s%s\n", path, why,
                strstr(why, "a folder") ? " (wddmkit triage runs a folder)" : "");
    return st;
}
