/* SPDX-License-Identifier: MIT */
/*
 * wddmkit_main.c - the `wddmkit` executable; the command line itself is
 * cli_main.c and the cli_*.c files (the wk_cli library).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <stdlib.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
    /* The afl preset's wddmkit carries AFL++'s runtime, which ends the
     * process when a driver module instrumented alike is loaded late (every
     * --driver): the commands collect no coverage, so it may. Not for
     * `fuzz`, whose environment the engines inherit: there afl-fuzz
     * preloads the driver (fuzz/campaign/engines.c) and a late load must stay loud. */
    if (argc < 2 || strcmp(argv[1], "fuzz") != 0)
        setenv("AFL_IGNORE_PROBLEMS", "1", 0);
    int rc = wk_cli_hand_over(argc, argv); /* a driver this build cannot load */
    return rc >= 0 ? rc : wk_cli_main(argc, argv);
}
