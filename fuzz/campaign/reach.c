/* SPDX-License-Identifier: MIT */
/*
 * reach.c - how many of a campaign's inputs reached the driver.
 *
 * A harness that gives up on an input before any DDI call counts it, by
 * reason (fuzz/driver/fuzz_driver.h, WK_FUZZ_REACH_COUNTS: fuzz_render
 * with a binding whose encoder cannot say the input); the campaign makes
 * the file of counters, zero, which every engine process maps shared, and
 * the summary says how many inputs never reached the driver. Without it
 * an outsider's campaign ran on flat coverage, and nothing said whether
 * their Render had been called at all.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "reach.h"
#include "util.h"

int wk_campaign_count_reach(struct campaign *c)
{
    unsetenv("WK_FUZZ_REACH_COUNTS");
    if (c->o.dry_run)
        return 1;
    if (!wk_campaign_zero_counters(c, "reach-counts", WK_FUZZ_REACH_COUNTERS, c->reach_counts, sizeof(c->reach_counts)))
        return 0;
    setenv("WK_FUZZ_REACH_COUNTS", c->reach_counts, 1);
    return 1;
}

void wk_campaign_print_reach(const struct campaign *c)
{
    uint64_t n[WK_FUZZ_REACH_COUNTERS] = { 0 };
    int fd = c->reach_counts[0] ? open(c->reach_counts, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return;
    ssize_t got = read(fd, n, sizeof(n));
    close(fd);
    if (got != (ssize_t)sizeof(n) || n[0] == 0 || n[1] == n[0])
        return; /* a harness that counts nothing, or every input reached the driver */
    char a[40], b[40];
    printf("  skipped   %s of %s inputs counted never reached the driver (a skip, never a finding):",
           wk_str_grouped(n[0] - n[1], a, sizeof(a)), wk_str_grouped(n[0], b, sizeof(b)));
    for (unsigned r = WK_FUZZ_REACHED + 1; r < WK_FUZZ_REACH_COUNTERS - 1; r++)
        if (n[1 + r])
            printf("\n              %s  %s", wk_str_grouped(n[1 + r], a, sizeof(a)), wk_fuzz_reach_name((enum wk_fuzz_reach)r));
    printf("\n");
}
