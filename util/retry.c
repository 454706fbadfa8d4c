/* SPDX-License-Identifier: MIT */
/*
 * retry.c - exponential backoff for a call that found no process,
 * descriptor or memory to spare (retry.h).
 *
 * The pauses go 1, 2, 4 ... ms up to 500 ms: a descriptor freed by a
 * neighbour is taken within a millisecond or two, and a machine that stays
 * full is asked twice a second, not thousands of times. The last pause is
 * cut to end at the deadline, so the caller gives up on time, after one
 * last try.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

void wk_retry_begin(struct wk_retry *r, double wait_seconds)
{
    memset(r, 0, sizeof(*r));
    r->wait = wait_seconds;
    r->next_ms = WK_RETRY_FIRST_MS;
}

int wk_retry_is_exhaustion(int err)
{
    return err == EAGAIN || err == EWOULDBLOCK || err == EMFILE || err == ENFILE || err == ENOMEM;
}

long wk_retry_pause_ms(struct wk_retry *r, int err)
{
    double now = wk_now_seconds();
    r->err = err;
    r->tries++;
    if (!r->first)
        r->first = now;
    r->last = now;
    if (!wk_retry_is_exhaustion(err) || r->wait <= 0)
        return -1;
    double left_ms = (r->first + r->wait - now) * 1000.0;
    if (left_ms < 1.0)
        return -1;
    long pause = r->next_ms < (long)left_ms ? r->next_ms : (long)left_ms;
    r->next_ms = r->next_ms * 2 > WK_RETRY_CAP_MS ? WK_RETRY_CAP_MS : r->next_ms * 2;
    return pause;
}

int wk_retry_again(struct wk_retry *r, int err)
{
    long pause = wk_retry_pause_ms(r, err);
    if (pause >= 0)
        wk_sleep_ms(pause);
    errno = err;
    return pause >= 0;
}

double wk_retry_waited(const struct wk_retry *r)
{
    return r->first ? r->last - r->first : 0.0;
}

const char *wk_errno_name(int err)
{
    static const struct {
        int err;
        const char *name;
    } names[] = {
        { EAGAIN, "EAGAIN" }, { EMFILE, "EMFILE" }, { ENFILE, "ENFILE" }, { ENOMEM, "ENOMEM" },
        { EACCES, "EACCES" }, { ENOENT, "ENOENT" }, { EPERM, "EPERM" },   { ENOSPC, "ENOSPC" },
        { EINVAL, "EINVAL" }, { EBADF, "EBADF" },   { EIO, "EIO" },       { ENOSYS, "ENOSYS" },
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].err == err)
            return names[i].name;
    return NULL;
}

int wk_retry_describe(char *buf, size_t cap, const char *call, int err, const struct wk_retry *r)
{
    const char *name = wk_errno_name(err);
    char code[24];
    if (!name)
        snprintf(code, sizeof(code), "errno %d", err);
    int n = snprintf(buf, cap, "%s: %s (%s)", call, strerror(err), name ? name : code);
    if (n >= 0 && r && r->tries > 1 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, ", retried for %.1f s", wk_retry_waited(r));
    return n >= 0 && (size_t)n < cap;
}
