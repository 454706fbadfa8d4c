/* SPDX-License-Identifier: MIT */
/*
 * clock.c - the monotonic clock and a short sleep (util.h).
 */
#include <time.h>

#include "util.h"

double wk_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void wk_sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL); /* a signal cuts it short, which is what we want */
}
