/* SPDX-License-Identifier: MIT */
/*
 * counters.c - the files of 8-byte counters a campaign shares with its
 * engine processes: the known signatures' hits (known.c) and the inputs
 * that never reached the driver (reach.c). The campaign makes each one,
 * zero, in its logs folder; every harness process maps it shared and adds
 * to it (fuzz/driver/known.c, reach.c); the summary reads it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "util.h"

int wk_campaign_zero_counters(const struct campaign *c, const char *name, size_t count, char *path, size_t size)
{
    static const uint8_t zeros[MAX_KNOWN * 8];
    size_t bytes = count * 8;
    int fd = bytes <= sizeof(zeros) && wk_path_join(path, size, c->logs, name)
                 ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
                 : -1;
    int ok = fd >= 0 && write(fd, zeros, bytes) == (ssize_t)bytes;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "wddmkit fuzz: cannot write %s: %s\n", path, strerror(errno));
        path[0] = '\0';
    }
    return ok;
}
