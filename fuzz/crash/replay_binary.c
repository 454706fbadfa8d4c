/* SPDX-License-Identifier: MIT */
/*
 * replay_binary.c - where the <harness>_replay binary of this build is:
 * WK_REPLAY_DIR, else ../fuzz beside the running executable (the build's
 * cli/ and fuzz/ folders are siblings, in a build tree and in an installed
 * instrumented build), else the installed kit's
 * <prefix>/libexec/wddmkit/<build>/fuzz (util's wk_kit_replay_dir).
 */
#define _GNU_SOURCE /* PATH_MAX */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "crash/crash.h"
#include "util.h"

int wk_fuzz_replay_binary(const char *harness, char *path, size_t size)
{
    char dir[PATH_MAX];
    if (!wk_kit_replay_dir(dir, sizeof(dir)))
        return -1;
    if (snprintf(path, size, "%s/%s_replay", dir, harness) >= (int)size)
        return -1;
    return access(path, X_OK);
}
