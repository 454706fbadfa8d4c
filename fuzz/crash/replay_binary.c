/* SPDX-License-Identifier: MIT */
/*
 * replay_binary.c - where the <harness>_replay binary of this build is:
 * WK_REPLAY_DIR, else ../fuzz beside the running executable (the build's
 * cli/ and fuzz/ folders are siblings).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash/crash.h"

int wk_fuzz_replay_binary(const char *harness, char *path, size_t size)
{
    const char *dir = getenv("WK_REPLAY_DIR");
    char self[4096];
    if (!dir || !*dir) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n <= 0)
            return -1;
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (!slash)
            return -1;
        snprintf(slash, sizeof(self) - (size_t)(slash - self), "/../fuzz");
        dir = self;
    }
    if (snprintf(path, size, "%s/%s_replay", dir, harness) >= (int)size)
        return -1;
    return access(path, X_OK);
}
