/* SPDX-License-Identifier: MIT */
/*
 * result_record.c - the sealed record a case's process answers with
 * (isolation.h).
 *
 * Why a nonce: the driver shares the case's process, so it holds the
 * result pipe's write end too. A bare struct on that pipe could be written
 * by anyone who knows its layout: a driver writing a PASS record to every
 * descriptor and exiting made the whole suite pass. The parent draws 16
 * random bytes per launch and believes only a record that carries them,
 * with nothing before it and nothing after it: a driver that cannot read
 * the kit's memory cannot guess them (2^-128), and a write of its own, be
 * it before the kit's record (from a DDI, then _exit) or after it (a thread,
 * an atexit handler), spoils the stream, which is then a crash naming why.
 * The parent learns the nonce from its own memory; nothing in a descriptor
 * or the environment carries it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "isolation.h"
#include "runner.h"

static int urandom_fill(void *buf, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, buf, n);
    close(fd);
    return got == (ssize_t)n ? 0 : -1;
}

int wk_result_nonce_new(struct wk_result_nonce *n)
{
    ssize_t got;
    do
        got = getrandom(n->b, sizeof(n->b), 0);
    while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof(n->b))
        return 0;
    return urandom_fill(n->b, sizeof(n->b)); /* a kernel without getrandom */
}

void wk_result_send(int fd, const struct wk_result_nonce *n, const struct wk_case_result *r)
{
    struct wk_result_record rec;
    memset(&rec, 0, sizeof(rec));
    memcpy(rec.magic, WK_RESULT_MAGIC, sizeof(rec.magic));
    rec.nonce = *n;
    rec.result = *r;
    wk_write_all(fd, &rec, sizeof(rec));
}

/* What wk_prog_run can answer; anything else did not come from it. */
static int plausible(const struct wk_case_result *r)
{
    return r->verdict == WK_VERDICT_PASS || r->verdict == WK_VERDICT_FAIL || r->verdict == WK_VERDICT_SKIP ||
           r->verdict == WK_VERDICT_ERROR;
}

/* Whether the record starts with the magic and this launch's nonce. */
static int sealed_with(const struct wk_result_record *rec, const struct wk_result_nonce *n)
{
    return memcmp(rec->magic, WK_RESULT_MAGIC, sizeof(rec->magic)) == 0 && memcmp(&rec->nonce, n, sizeof(*n)) == 0;
}

const char *wk_result_open(const void *bytes, size_t len, size_t extra, const struct wk_result_nonce *n,
                           struct wk_case_result *out, char *why, size_t size)
{
    const size_t want = sizeof(struct wk_result_record);
    struct wk_result_record rec;
    memset(&rec, 0, sizeof(rec));
    if (len >= want)
        memcpy(&rec, bytes, want);
    if (len == 0 && extra == 0)
        snprintf(why, size, "without a result");
    else if (len < want)
        snprintf(why, size, "after a partial result (%zu of %zu bytes)", len, want);
    else if (!sealed_with(&rec, n))
        snprintf(why, size, "after a result record the kit did not write (not sealed with this case's nonce): "
                            "forged or stray bytes on the result pipe");
    else if (len > want || extra)
        snprintf(why, size, "after %zu bytes written to the result pipe past the kit's record: "
                            "code ran on after the kit's last word", len - want + extra);
    else if (!plausible(&rec.result))
        snprintf(why, size, "after a garbled result (verdict %d)", (int)rec.result.verdict);
    else {
        *out = rec.result;
        out->rule[sizeof(out->rule) - 1] = 0;
        out->expected[sizeof(out->expected) - 1] = 0;
        out->seen[sizeof(out->seen) - 1] = 0;
        return NULL;
    }
    return why;
}
