/* SPDX-License-Identifier: MIT */
/*
 * zygote.c - the small process of each -j slot, which forks the slot's
 * cases and is their shepherd (issue 26, item 4: a leaner runner).
 *
 * Why a process of its own: a fork costs in proportion to the memory the
 * forking process has touched (its page tables are copied, and each side
 * then takes a copy fault per page it writes), and the runner is big: the
 * 561 loaded programs alone are 40 MB (72 KB each). A case forked from it
 * cost 5 to 15 ms of CPU, 90% and more of the suite's. The slot's process
 * is the same binary started afresh (posix_spawn of /proc/self/exe: no
 * copy of the runner's memory, and nothing loaded: no specs, no driver),
 * which the runner feeds one launch at a time: the case's program,
 * flattened (prog_flat below), its result and output pipes' write ends,
 * over a socket (SCM_RIGHTS). The options of the run come once, first.
 *
 * Why it is also the shepherd, living across cases: a case used to be two
 * processes, a shepherd started for it and the case's own, and a fork,
 * exit and wait of two processes costs twice one. Posix_spawn makes the
 * slot's process the runner's child, as a shepherd must be (the runner
 * waits for it, sees it stopped or killed, is the subreaper its cases'
 * orphans come to when it is killed, and the case's grandparent:
 * signals.c), so it is the shepherd itself (shepherd.c,
 * wk_shepherd_serve_setup): for each launch it makes the page the case
 * shares with the runner (a memfd, fresh each case), forks the case's
 * process (wk_shepherd_fork_case), answers with its pid and the page, and
 * once the case's process has ended and every process it started is
 * killed and reaped (wk_shepherd_end_case) writes the case's wait status
 * to the page and a "done" word with it to the socket: what the runner
 * read before as the shepherd's exit. Each case still pays its own dlopen
 * and DriverEntry (under the load watchdog) in its own process, and gets
 * its own process group, pipes and page; the shepherd keeps nothing of a
 * case but its place in the slot.
 *
 * A slot's process that dies, is killed or is stopped (a driver can
 * signal any process of its user) is replaced: during a case the runner
 * sees it as it saw a shepherd (timeouts.c; the case is a crash that says
 * so, or a timeout), kills it, sweeps what its case left, and the slot's
 * next launch spawns another; between cases the next launch finds it
 * stopped or gone (or it does not answer within 10 s) and replaces it
 * once (the case forks from the runner when no new one starts); when the
 * new one fails too the case is an error naming the zygote, the kit's
 * fault, never the driver's verdict. So is one a case changed from outside
 * (its limits or priority: wk_shepherd_unchanged): it leaves before the
 * next case, which would inherit them. A slot process that cannot start
 * at all (no /proc, a process or descriptor limit) leaves the runner to
 * fork cases itself, as it did before; so does a program this file cannot
 * flatten (a pointer out of the program: none in the kit's own).
 *
 * It dies with the runner (PR_SET_PDEATHSIG: SIGTERM, which kills its
 * case, whose processes are then reaped; and end of file on its socket)
 * and is in a process group of its own (a terminal's ^C is the runner's to
 * handle). Named "wddmkit-zygote" on its command line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner_internal.h"

#define ZYGOTE_ENV "WK_RUNNER_ZYGOTE"
#define ZYGOTE_FD 3
#define REQUEST_MAGIC 0x5a59474bu /* "KGYZ" */
#define ANSWER_MS 10000           /* a zygote that says nothing this long is replaced */

extern char **environ;

/* ------------------------------------------------------------------ */
/* A flat copy of a program (both sides)                                */
/* ------------------------------------------------------------------ */

/* A program's bytes travel whole up to its last step, then each step's
 * render and patch payload; pointers into the program are made relative
 * to it. Not the program codec (prog_codec.c): that one leaves out what
 * a spec carries besides the steps (registry values, PCI configuration,
 * the id and the file), and the case must run exactly what it was given. */

#define FLAT_OUTSIDE ((size_t)-1)

/* A pointer of p's as an offset into p (0 is NULL; offsets are +1);
 * FLAT_OUTSIDE when it points elsewhere. */
static size_t rel(const struct wk_prog *p, const void *ptr)
{
    const char *a = (const char *)p, *x = ptr;
    if (!x)
        return 0;
    if (x >= a && x < a + sizeof(*p))
        return (size_t)(x - a) + 1;
    return FLAT_OUTSIDE;
}

static const void *unrel(const struct wk_prog *p, size_t off)
{
    return off ? (const char *)p + off - 1 : NULL;
}

/* The pointer fields of a program, relative (to_rel) or back. 0 when one
 * points out of the program. */
static int relocate(struct wk_prog *p, const struct wk_prog *from, int to_rel)
{
#define FIELD(f)                                                                                         \
    do {                                                                                                 \
        if (to_rel) {                                                                                    \
            size_t o = rel(from, (const void *)(f));                                                     \
            if (o == FLAT_OUTSIDE)                                                                       \
                return 0;                                                                                \
            memcpy((void *)&(f), &o, sizeof(o));                                                         \
        } else {                                                                                         \
            size_t o;                                                                                    \
            memcpy(&o, (const void *)&(f), sizeof(o));                                                   \
            memcpy((void *)&(f), &(const void *){ unrel(p, o) }, sizeof(void *));                        \
        }                                                                                                \
    } while (0)
    _Static_assert(sizeof(size_t) == sizeof(void *), "a relative pointer fits a pointer");
    FIELD(p->gpu.segments);
    for (size_t i = 0; i < WK_PROG_MAX_SEGMENTS; i++)
        FIELD(p->segments[i].bank_ends);
    FIELD(p->vidmm.gpu);
    FIELD(p->vidmm.pci_config);
    FIELD(p->vidmm.binding);
    FIELD(p->vidmm.registry);
#undef FIELD
    return 1;
}

#define FLAT_HEAD offsetof(struct wk_prog, steps)
#define FLAT_TAIL (sizeof(struct wk_prog) - offsetof(struct wk_prog, file))

/* The flat bytes go zero runs left out: records of a literal part and the
 * zero bytes after it ([u32 literal length][literal][u32 zero length]).
 * A program is mostly zeroes (fixed arrays: the head's bank ends, registry
 * and PCI space, each step's unused fields, a render's tables): 21 KB a
 * case on average went down the socket, for 3 to 4 KB of other bytes.
 * Fewer bytes to copy twice through the kernel, and the case's process,
 * whose program starts all zero (a static and calloc'd payloads), writes
 * only the pages that hold something: fewer first-touch page faults. */
#define ZRUN_MIN 32u /* shorter zero runs stay in the literal: a record costs 8 bytes */

struct zwriter {
    unsigned char *out;  /* the next byte of the record's literal */
    unsigned char *head; /* the record's literal length, written when it closes */
    size_t zeros;        /* zero bytes put since the last other byte */
};

static void zw_open(struct zwriter *w, unsigned char *buf)
{
    w->head = buf;
    w->out = buf + sizeof(uint32_t);
    w->zeros = 0;
}

/* Ends the record with its zero run and opens the next one. */
static void zw_close(struct zwriter *w)
{
    uint32_t lit = (uint32_t)(w->out - w->head - sizeof(uint32_t)), zeros = (uint32_t)w->zeros;
    memcpy(w->head, &lit, sizeof(lit));
    memcpy(w->out, &zeros, sizeof(zeros));
    zw_open(w, w->out + sizeof(zeros));
}

/* The zeros pending before a byte that is not one: a run of their own, or
 * literal bytes when too short for a record. */
static void zw_settle(struct zwriter *w)
{
    if (w->zeros >= ZRUN_MIN)
        zw_close(w);
    memset(w->out, 0, w->zeros);
    w->out += w->zeros;
    w->zeros = 0;
}

static void zw_put(struct zwriter *w, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n;) {
        size_t z = 0;
        while (i + z < n && b[i + z] == 0)
            z++;
        w->zeros += z;
        i += z;
        size_t k = 0;
        while (i + k < n && b[i + k] != 0)
            k++;
        if (!k)
            continue;
        zw_settle(w);
        memcpy(w->out, b + i, k);
        w->out += k;
        i += k;
    }
}

/* The encoded length, the last record closed. */
static size_t zw_end(struct zwriter *w, const unsigned char *buf)
{
    zw_close(w);
    return (size_t)(w->head - buf);
}

/* The most bytes zw_put can write for n: a record (8 bytes) at most every
 * ZRUN_MIN zero bytes, and the last one. */
static size_t zw_bound(size_t n)
{
    return n + 2 * sizeof(uint32_t) * (n / ZRUN_MIN + 2);
}

struct zreader {
    const unsigned char *at, *end; /* the next record */
    const unsigned char *lit_at;   /* the rest of the current record's literal */
    size_t lit, zeros;             /* left of the current record */
};

/* The next record's lengths; 0 when the stream ends or is malformed. */
static int zr_next(struct zreader *r)
{
    uint32_t lit, zeros;
    if ((size_t)(r->end - r->at) < sizeof(lit))
        return 0;
    memcpy(&lit, r->at, sizeof(lit));
    if ((size_t)(r->end - r->at) - sizeof(lit) < (size_t)lit + sizeof(zeros))
        return 0;
    memcpy(&zeros, r->at + sizeof(lit) + lit, sizeof(zeros));
    r->lit_at = r->at + sizeof(lit);
    r->lit = lit;
    r->zeros = zeros;
    r->at = r->lit_at + lit + sizeof(zeros);
    return 1;
}

/* The next n bytes into dst, which holds zeroes already (zero runs are
 * skipped, not written: the pages they fall on are never touched); 0 when
 * the stream ends or is malformed. */
static int zr_take(struct zreader *r, void *dst, size_t n)
{
    unsigned char *d = dst;
    while (n) {
        if (!r->lit && !r->zeros) {
            if (!zr_next(r))
                return 0;
            continue;
        }
        size_t k;
        if (r->lit) {
            k = r->lit < n ? r->lit : n;
            memcpy(d, r->lit_at, k);
            r->lit_at += k;
            r->lit -= k;
        } else {
            k = r->zeros < n ? r->zeros : n;
            r->zeros -= k;
        }
        d += k;
        n -= k;
    }
    return 1;
}

/* Whether the stream ended exactly: nothing left but empty records. */
static int zr_done(struct zreader *r)
{
    while (!r->lit && !r->zeros && r->at < r->end)
        if (!zr_next(r))
            return 0;
    return !r->lit && !r->zeros && r->at == r->end;
}

/* The flat program's length before its zero runs are left out. */
static size_t flat_length(const struct wk_prog *p)
{
    size_t n = FLAT_HEAD + (size_t)p->step_count * sizeof(struct wk_step) + FLAT_TAIL;
    for (uint32_t i = 0; i < p->step_count; i++)
        n += 1 + (p->steps[i].render ? sizeof(*p->steps[i].render) : 0) + sizeof(uint32_t) +
             (p->steps[i].patch ? wk_prog_patch_size(p->steps[i].patch) : 0);
    return n;
}

/* The most bytes flat_write writes for p. */
static size_t flat_bound(const struct wk_prog *p)
{
    return zw_bound(flat_length(p));
}

/* p into buf (flat_bound bytes): the length written, 0 when it cannot be
 * flattened. */
static size_t flat_write(const struct wk_prog *p, unsigned char *buf)
{
    struct zwriter w;
    if (p->step_count > WK_PROG_MAX_STEPS)
        return 0;
    zw_open(&w, buf);
    /* the pointers are fixed in an aligned copy of the head, kept: a
     * malloc'd one would be given back and faulted in again every launch */
    static struct wk_prog scratch;
    memcpy(&scratch, p, FLAT_HEAD);
    if (!relocate(&scratch, p, 1))
        return 0;
    zw_put(&w, &scratch, FLAT_HEAD);
    zw_put(&w, p->steps, (size_t)p->step_count * sizeof(struct wk_step));
    zw_put(&w, (const char *)p + offsetof(struct wk_prog, file), FLAT_TAIL);
    for (uint32_t i = 0; i < p->step_count; i++) {
        const struct wk_step *s = &p->steps[i];
        unsigned char has_render = s->render != NULL;
        zw_put(&w, &has_render, 1);
        if (s->render)
            zw_put(&w, s->render, sizeof(*s->render));
        uint32_t n = s->patch ? (uint32_t)wk_prog_patch_size(s->patch) : 0;
        zw_put(&w, &n, sizeof(n));
        if (n)
            zw_put(&w, s->patch, n);
    }
    return zw_end(&w, buf);
}

/* buf[0, len) back into p (all zeroes before: the zero runs are not
 * written); 0 when it does not fit. */
static int flat_read(const unsigned char *buf, size_t len, struct wk_prog *p)
{
    struct zreader r = { buf, buf + len, buf, 0, 0 };
    if (!zr_take(&r, p, FLAT_HEAD))
        return 0;
    size_t steps = (size_t)p->step_count * sizeof(struct wk_step);
    if (p->step_count > WK_PROG_MAX_STEPS)
        return 0;
    relocate(p, NULL, 0);
    if (!zr_take(&r, p->steps, steps) || !zr_take(&r, (char *)p + offsetof(struct wk_prog, file), FLAT_TAIL))
        return 0;
    for (uint32_t i = 0; i < p->step_count; i++) {
        struct wk_step *s = &p->steps[i];
        s->render = NULL;
        s->patch = NULL;
    }
    for (uint32_t i = 0; i < p->step_count; i++) {
        struct wk_step *s = &p->steps[i];
        unsigned char has_render = 0;
        if (!zr_take(&r, &has_render, 1))
            return 0;
        if (has_render &&
            (!(s->render = calloc(1, sizeof(*s->render))) || !zr_take(&r, s->render, sizeof(*s->render))))
            return 0;
        uint32_t n = 0;
        if (!zr_take(&r, &n, sizeof(n)))
            return 0;
        if (n && (n < sizeof(struct wk_prog_patch) || !(s->patch = calloc(1, n)) || !zr_take(&r, s->patch, n)))
            return 0;
    }
    return zr_done(&r);
}

/* ------------------------------------------------------------------ */
/* The run's options (both sides)                                       */
/* ------------------------------------------------------------------ */

struct buf {
    unsigned char *b;
    size_t len, cap, at;
    int bad;
};

static void put(struct buf *w, const void *data, size_t n)
{
    if (w->bad || w->len + n > w->cap) {
        w->bad = 1;
        return;
    }
    memcpy(w->b + w->len, data, n);
    w->len += n;
}

static void put_str(struct buf *w, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) + 1 : 0;
    put(w, &n, sizeof(n));
    if (n)
        put(w, s, n);
}

static void get(struct buf *r, void *data, size_t n)
{
    if (r->bad || r->len - r->at < n) {
        r->bad = 1;
        memset(data, 0, n);
        return;
    }
    memcpy(data, r->b + r->at, n);
    r->at += n;
}

/* A string of r's, NUL-terminated in place; NULL for none. */
static const char *get_str(struct buf *r)
{
    uint32_t n;
    get(r, &n, sizeof(n));
    if (!n || r->bad || r->len - r->at < n || r->b[r->at + n - 1] != '\0') {
        r->bad |= n != 0;
        return NULL;
    }
    const char *s = (const char *)r->b + r->at;
    r->at += n;
    return s;
}

/* What wk_runner_run_attempt reads of the options. */
static void options_write(struct buf *w, const struct wk_runner_options *o)
{
    put_str(w, o->driver);
    put(w, &o->contract, sizeof(o->contract));
    put(w, &o->stress, sizeof(o->stress));
    put(w, &o->skip_kinds, sizeof(o->skip_kinds));
    for (size_t i = 0; i < WK_CHECK_KIND_COUNT; i++)
        put_str(w, o->skip_reason[i]);
    put(w, &o->gpu, sizeof(o->gpu));
    put_str(w, o->binding);
    put(w, &o->umd, sizeof(o->umd));
    put(w, &o->seed, sizeof(o->seed));
}

static void options_read(struct buf *r, struct wk_runner_options *o)
{
    memset(o, 0, sizeof(*o));
    o->driver = get_str(r);
    get(r, &o->contract, sizeof(o->contract));
    get(r, &o->stress, sizeof(o->stress));
    get(r, &o->skip_kinds, sizeof(o->skip_kinds));
    for (size_t i = 0; i < WK_CHECK_KIND_COUNT; i++)
        o->skip_reason[i] = get_str(r);
    get(r, &o->gpu, sizeof(o->gpu));
    o->binding = get_str(r);
    get(r, &o->umd, sizeof(o->umd));
    get(r, &o->seed, sizeof(o->seed));
}

/* ------------------------------------------------------------------ */
/* I/O                                                                   */
/* ------------------------------------------------------------------ */

static int write_all(int fd, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *data, size_t n)
{
    unsigned char *p = data;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EPIPE;
            return -1;
        }
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Waits up to ms for fd to be readable: 0, or -1 (errno ETIMEDOUT). */
static int readable(int fd, int ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    int n;
    do
        n = poll(&p, 1, ms);
    while (n < 0 && errno == EINTR);
    if (n == 0)
        errno = ETIMEDOUT;
    return n > 0 ? 0 : -1;
}

/* One launch, runner to slot process: this header (with the result and output
 * pipes' write ends), then prog_len bytes of flat program. */
struct request {
    uint32_t magic;
    uint32_t attempt;
    uint64_t prog_len;
    struct wk_result_nonce nonce;
};

/* The slot process's answer: the case process's pid (with the shared
 * page's memfd), or the call that failed and its errno. The slot process
 * makes the page itself, so that the runner never holds more descriptors
 * at once than a fork of its own took. */
enum { CALL_FORK, CALL_PIPE, CALL_MEMFD };
struct answer {
    int32_t pid;                      /* > 0: started */
    int32_t err;
    int32_t call;                     /* CALL_* */
};

/* Its second word, once the case's process has ended and every process
 * it started is gone: the case process's wait status. */
#define DONE_MAGIC 0x454e4f44u /* "DONE" */
struct done {
    uint32_t magic;
    int32_t status;
};

/* Sends data, then tail (tail_len bytes, 0: none), with fds (n of them,
 * 0: none) as one message's first bytes: one system call and one wakeup
 * of the reader for a request and its program, which were two (each
 * wakeup of a process on the other core is an interprocessor interrupt,
 * dear in a VM). What the socket did not take is written after. */
static ssize_t send_fds(int sock, const void *data, size_t len, const void *tail, size_t tail_len, const int *fds,
                        int n)
{
    union {
        char buf[CMSG_SPACE(sizeof(int) * 2)];
        struct cmsghdr align;
    } u;
    memset(&u, 0, sizeof(u));
    struct iovec iov[2] = { { (void *)data, len }, { (void *)(uintptr_t)tail, tail_len } };
    struct msghdr m;
    memset(&m, 0, sizeof(m));
    m.msg_iov = iov;
    m.msg_iovlen = tail_len ? 2 : 1;
    if (n) {
        m.msg_control = u.buf;
        m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n);
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)n);
    }
    ssize_t w;
    do
        w = sendmsg(sock, &m, MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
    if (w < 0)
        return -1;
    size_t done = (size_t)w;
    if (done < len) {
        if (write_all(sock, (const char *)data + done, len - done) != 0)
            return -1;
        done = len;
    }
    if (done - len < tail_len && write_all(sock, (const char *)tail + (done - len), tail_len - (done - len)) != 0)
        return -1;
    return (ssize_t)(len + tail_len);
}

/* Receives len bytes, the first message's descriptors (exactly n, else
 * none: -1 in each) into fds; the bytes received, 0 at end of file, -1. */
static ssize_t recv_fds(int sock, void *data, size_t len, int *fds, int n, int *truncated)
{
    union {
        char buf[CMSG_SPACE(sizeof(int) * 2)];
        struct cmsghdr align;
    } u;
    struct iovec iov = { data, len };
    struct msghdr m;
    memset(&m, 0, sizeof(m));
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n);
    ssize_t got;
    do
        got = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
    while (got < 0 && errno == EINTR);
    for (int i = 0; i < n; i++)
        fds[i] = -1;
    *truncated = (m.msg_flags & MSG_CTRUNC) != 0;
    if (got <= 0)
        return got;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
        int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int tmp[2] = { -1, -1 };
        memcpy(tmp, CMSG_DATA(c), sizeof(int) * (size_t)(k < 2 ? k : 2));
        if (k == n)
            memcpy(fds, tmp, sizeof(int) * (size_t)n);
        else
            for (int i = 0; i < k && i < 2; i++)
                close(tmp[i]);
    }
    if ((size_t)got < len && read_all(sock, (char *)data + got, len - (size_t)got) != 0)
        return 0;
    return (ssize_t)len;
}

/* ------------------------------------------------------------------ */
/* The zygote                                                            */
/* ------------------------------------------------------------------ */

static struct wk_runner_options zygote_options;
static struct wk_prog zygote_prog; /* the case's, decoded in the case's process only */

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
#define STACK_AHEAD (10u * 4096u)

/* The stack a case's process writes below where the fork left it, about
 * ten pages (the kit's frames, and the 8 KiB call.c poisons before each
 * DDI call), each a page fault: backed in one system call (nothing where
 * it is refused, or where the stack's mapping is not that deep). */
static void stack_prefault(void)
{
    volatile char here = 0;
    uintptr_t top = ((uintptr_t)&here | 4095u) + 1;
    madvise((void *)(top - 4096u - STACK_AHEAD), 4096u + STACK_AHEAD, MADV_POPULATE_WRITE);
}

/* In the case's process: its program, then child_main as a case forked
 * from the runner runs it. */
static _Noreturn void zygote_case(const struct request *q, const unsigned char *flat, volatile struct case_shared *shared,
                                  int rfd, int ofd)
{
    struct run R;
    struct job j;
    memset(&R, 0, sizeof(R));
    memset(&j, 0, sizeof(j));
    R.o = &zygote_options;
    R.abort_id = getenv("WK_RUNNER_TEST_ABORT_ID");
    R.flaky_id = getenv("WK_RUNNER_TEST_FLAKY_ID");
    j.attempt = q->attempt;
    j.nonce = q->nonce;
    j.fd_result = j.fd_output = j.fd_pid = j.fd_start = -1;
    stack_prefault();
    wk_runner_job_share(&j, shared);
    if (!flat_read(flat, (size_t)q->prog_len, &zygote_prog))
        _exit(125); /* cannot happen: the runner wrote it; a crash "exited with status 125" */
    wk_runner_child_main(&R, &j, &zygote_prog, rfd, ofd);
}

/* Receives one request: 1, 0 at end of file (the runner is gone), -1 on
 * a malformed one. fds[] gets the pipes' write ends, *flat the program. */
static int zygote_receive(int sock, struct request *q, int fds[2], unsigned char **flat, size_t *cap)
{
    int truncated;
    if (recv_fds(sock, q, sizeof(*q), fds, 2, &truncated) <= 0)
        return 0;
    if (q->magic != REQUEST_MAGIC || fds[0] < 0 || fds[1] < 0 || q->prog_len > (64u << 20))
        return -1;
    if (q->prog_len > *cap) {
        unsigned char *b = realloc(*flat, q->prog_len);
        if (!b)
            return -1;
        *flat = b;
        *cap = q->prog_len;
    }
    return read_all(sock, *flat, q->prog_len) == 0 ? 1 : 0;
}

/* The shared page, fresh: a memfd of one struct case_shared, mapped and
 * cleared. -1 with errno. */
static int new_page(volatile struct case_shared **page)
{
    int fd = memfd_create("wk-case", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    void *p = MAP_FAILED;
    if (ftruncate(fd, sizeof(struct case_shared)) == 0)
        p = mmap(NULL, sizeof(struct case_shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    *page = p;
    wk_runner_case_shared_init(*page);
    return fd;
}

/* One case: its process, forked here (this process is its shepherd),
 * its pid back with the shared page, then, once it ended and nothing of
 * it is left, its status. Exits when the runner is gone. */
static void slot_case(int sock, const struct request *q, const int fds[2], const unsigned char *flat)
{
    struct answer a = { 0, 0, CALL_MEMFD };
    volatile struct case_shared *page = NULL;
    int memfd = new_page(&page);
    pid_t child = -1;
    if (memfd >= 0) {
        a.call = CALL_FORK;
        child = wk_shepherd_fork_case(&page->shepherd_signal);
        if (child == 0) {
            close(sock); /* the case never speaks for its shepherd */
            close(memfd);
            zygote_case(q, flat, page, fds[0], fds[1]);
        }
        a.pid = child > 0 ? child : 0;
    }
    a.err = a.pid > 0 ? 0 : errno;
    close(fds[0]); /* the pipes reach end of file once the case's processes are gone */
    close(fds[1]);
    int back[1] = { memfd };
    int sent = send_fds(sock, &a, sizeof(a), NULL, 0, back, a.pid > 0 ? 1 : 0) >= 0;
    if (memfd >= 0)
        close(memfd);
    if (a.pid > 0) {
        struct done d = { DONE_MAGIC, 0 };
        d.status = wk_shepherd_end_case(child, &page->shepherd_done, &page->case_status);
        sent = sent && write_all(sock, &d, sizeof(d)) == 0;
    }
    if (page)
        munmap((void *)(uintptr_t)page, sizeof(struct case_shared));
    if (!sent)
        _exit(0); /* the runner is gone; so is the case, and all it started */
}

static _Noreturn void zygote_main(int sock)
{
    uint32_t len = 0;
    static unsigned char options[1 << 16];
    if (read_all(sock, &len, sizeof(len)) != 0 || len > sizeof(options) || read_all(sock, options, len) != 0)
        _exit(0);
    struct buf r = { options, len, len, 0, 0 };
    options_read(&r, &zygote_options);
    wk_shepherd_serve_setup();
    wk_vidmm_prepare_process(); /* what each case's first adapter would set up, inherited */
    if (r.bad || write_all(sock, "r", 1) != 0)
        _exit(0);
    unsigned char *flat = NULL;
    size_t cap = 0;
    for (;;) {
        struct request q;
        int fds[2];
        int got = zygote_receive(sock, &q, fds, &flat, &cap);
        if (got <= 0)
            _exit(0); /* the runner closed its end, or died; or words not the runner's: it starts another */
        if (!wk_shepherd_unchanged())
            _exit(0); /* a case changed this process's limits from outside: the runner starts another */
        slot_case(sock, &q, fds, flat);
    }
}

/* Before main(), in a process the runner spawned as a slot's process (the
 * environment says which socket and which runner): that, never main().
 * Every other process of this binary passes through untouched. */
__attribute__((constructor)) static void zygote_hook(void)
{
    const char *v = getenv(ZYGOTE_ENV);
    long runner;
    if (!v || sscanf(v, "%ld", &runner) != 1 || runner <= 0)
        return;
    unsetenv(ZYGOTE_ENV); /* the cases' environment is the runner's */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)runner)
        _exit(0); /* the runner died before PDEATHSIG was armed */
#ifdef SYS_close_range
    syscall(SYS_close_range, ZYGOTE_FD + 1u, ~0u, 0u);
#endif
    zygote_main(ZYGOTE_FD);
}

/* ------------------------------------------------------------------ */
/* The runner's side                                                     */
/* ------------------------------------------------------------------ */

/* A slot process's end: SIGKILL (it holds nothing to flush) and reaped. */
static void zygote_end(struct run *R, uint32_t slot)
{
    if (R->zygote[slot].fd >= 0)
        close(R->zygote[slot].fd);
    R->zygote[slot].fd = -1;
    if (R->zygote[slot].pid > 0) {
        kill(R->zygote[slot].pid, SIGKILL);
        while (waitpid(R->zygote[slot].pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    R->zygote[slot].pid = 0;
}

/* Spawns slot's process and hands it the options: 0, or -1 with errno. */
static int zygote_spawn(struct run *R, uint32_t slot)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return -1;
    char var[64];
    snprintf(var, sizeof(var), ZYGOTE_ENV "=%ld", (long)getpid());
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = malloc((n + 2) * sizeof(*env));
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    int err = env ? 0 : ENOMEM;
    if (!err) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (strncmp(environ[i], ZYGOTE_ENV "=", sizeof(ZYGOTE_ENV)) != 0)
                env[k++] = environ[i];
        env[k++] = var;
        env[k] = NULL;
        posix_spawn_file_actions_init(&fa);
        posix_spawnattr_init(&at);
        posix_spawn_file_actions_adddup2(&fa, sv[1], ZYGOTE_FD);
        posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&at, 0);
        char *argv[] = { "wddmkit-zygote", NULL };
        pid_t pid;
        err = posix_spawn(&pid, "/proc/self/exe", &fa, &at, argv, env);
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&at);
        if (!err)
            R->zygote[slot].pid = pid;
    }
    free(env);
    close(sv[1]);
    R->zygote[slot].fd = sv[0];
    if (err) {
        close(sv[0]);
        R->zygote[slot].fd = -1;
        errno = err;
        return -1;
    }
    /* A slot process that stops reading (stopped by someone) must not hold
     * the runner in a send of a large program, nor in a half-read answer. */
    int fd = R->zygote[slot].fd;
    struct timeval limit = { ANSWER_MS / 1000, 0 };
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
    static unsigned char options[1 << 16];
    struct buf w = { options + 4, 0, sizeof(options) - 4, 0, 0 };
    options_write(&w, R->o);
    uint32_t len = (uint32_t)w.len;
    memcpy(options, &len, sizeof(len));
    char ready = 0;
    if (w.bad || write_all(fd, options, w.len + 4) != 0 || readable(fd, ANSWER_MS) != 0 || read(fd, &ready, 1) != 1 ||
        ready != 'r') {
        err = errno ? errno : EPROTO;
        zygote_end(R, slot);
        errno = err;
        return -1;
    }
    return 0;
}

int wk_zygote_ready(struct run *R, uint32_t slot)
{
    if (R->zygote[slot].fd >= 0)
        return 1;
    if (R->zygote_off)
        return 0;
    if (zygote_spawn(R, slot) == 0)
        return 1;
    /* Out of processes or descriptors: this launch forks as before, the
     * next tries again. Anything else (no /proc, no exec): not this run. */
    if (!wk_retry_is_exhaustion(errno))
        R->zygote_off = 1;
    return 0;
}

void wk_zygote_stop(struct run *R)
{
    for (uint32_t s = 0; s < MAX_JOBS; s++)
        zygote_end(R, s);
    R->zygote_off = 0;
    free(R->zygote_buf);
    R->zygote_buf = NULL;
    R->zygote_cap = 0;
}

size_t wk_zygote_keep(const struct run *R, pid_t *keep)
{
    size_t n = 0;
    for (uint32_t s = 0; s < R->slots && s < MAX_JOBS; s++)
        if (R->zygote[s].pid > 0)
            keep[n++] = R->zygote[s].pid;
    return n;
}

static uint32_t slot_of(const struct run *R, const struct job *j)
{
    return (uint32_t)(j - R->jobs);
}

void wk_zygote_retire(struct run *R, struct job *j)
{
    uint32_t slot = slot_of(R, j);
    if (j->fd_slot >= 0 && R->zygote[slot].fd == j->fd_slot) {
        close(R->zygote[slot].fd);
        R->zygote[slot].fd = -1;
        R->zygote[slot].pid = 0; /* reaped by the caller */
    }
    j->fd_slot = -1;
}

int wk_zygote_case_done(struct job *j, int *status)
{
    struct done d;
    if (j->fd_slot < 0)
        return 0;
    ssize_t n;
    do
        n = recv(j->fd_slot, &d, sizeof(d), MSG_DONTWAIT);
    while (n < 0 && errno == EINTR);
    if (n > 0 && (size_t)n < sizeof(d) && read_all(j->fd_slot, (char *)&d + n, sizeof(d) - (size_t)n) == 0)
        n = sizeof(d); /* cannot happen (8 bytes): the rest, within the socket's time limit */
    if (n != (ssize_t)sizeof(d) || d.magic != DONE_MAGIC)
        return 0; /* nothing yet, or the process is gone (end of file): its exit tells */
    *status = d.status;
    return 1;
}

static const char *call_name(int32_t call)
{
    return call == CALL_PIPE ? "pipe" : call == CALL_MEMFD ? "memfd_create" : "fork";
}

/* Waits for slot's answer: 0, or -1 (errno ETIMEDOUT) when it did not
 * come in time or the process stopped (a driver in another slot can stop
 * it) or ended meanwhile: never a wait the driver can make long. */
static int answer_readable(const struct run *R, uint32_t slot)
{
    double deadline = wk_now_seconds() + ANSWER_MS / 1000.0;
    for (;;) {
        if (readable(R->zygote[slot].fd, 20) == 0)
            return 0;
        if (wk_shepherd_state(R->zygote[slot].pid) != WK_SHEPHERD_RUNNING || wk_now_seconds() >= deadline) {
            errno = ETIMEDOUT;
            return -1;
        }
    }
}

/* One request and its answer: the case's process started, or -1 with
 * errno and *call (*zygote_failed when the slot process itself did not
 * answer). */
static int ask(struct run *R, struct job *j, const struct request *q, const unsigned char *flat, const int fds[2],
               const char **call, int *zygote_failed)
{
    uint32_t slot = slot_of(R, j);
    int fd = R->zygote[slot].fd;
    struct answer a;
    int back[1], truncated = 0;
    *zygote_failed = 1;
    *call = "zygote";
    errno = 0;
    if (wk_shepherd_state(R->zygote[slot].pid) != WK_SHEPHERD_RUNNING) {
        errno = EPIPE; /* stopped or ended since its last case: replaced */
        return -1;
    }
    if (send_fds(fd, q, sizeof(*q), flat, (size_t)q->prog_len, fds, 2) < 0 ||
        answer_readable(R, slot) != 0 || recv_fds(fd, &a, sizeof(a), back, 1, &truncated) <= 0) {
        if (errno == 0 || errno == ENOENT)
            errno = EPIPE;
        return -1;
    }
    *zygote_failed = 0;
    *call = call_name(a.call);
    if (a.pid <= 0) {
        errno = a.err > 0 ? a.err : EPROTO;
        return -1;
    }
    if (back[0] < 0) {
        /* no room for the descriptor (MSG_CTRUNC): the case cannot be
         * watched; it goes with its shepherd, and the attempt waits like
         * one that found no descriptor */
        *zygote_failed = 1;
        *call = "pipe";
        errno = truncated ? EMFILE : EPROTO;
        return -1;
    }
    void *page = mmap(NULL, sizeof(struct case_shared), PROT_READ | PROT_WRITE, MAP_SHARED, back[0], 0);
    close(back[0]);
    wk_runner_job_share(j, page == MAP_FAILED ? NULL : page); /* none: the report names no DDI, as before */
    j->fd_slot = fd;
    return 0;
}

pid_t wk_zygote_launch(struct run *R, struct job *j, const struct wk_prog *p, int result_fd, int output_fd,
                       const char **failed_call)
{
    uint32_t slot = slot_of(R, j);
    *failed_call = "malloc";
    size_t bound = flat_bound(p);
    if (bound > R->zygote_cap) { /* kept for the run: see flat_write */
        unsigned char *b = realloc(R->zygote_buf, bound);
        if (!b)
            return -1;
        R->zygote_buf = b;
        R->zygote_cap = bound;
    }
    unsigned char *flat = R->zygote_buf;
    struct request q = { REQUEST_MAGIC, j->attempt, flat_write(p, flat), j->nonce };
    if (!q.prog_len)
        return -2; /* a pointer out of the program: the caller forks it itself */
    int fds[2] = { result_fd, output_fd };
    for (int tries = 0; tries < 2; tries++) {
        int zygote_failed = 0;
        if (tries && !wk_zygote_ready(R, slot))
            return -2; /* no new one: this case forks from the runner, as without a zygote */
        if (ask(R, j, &q, flat, fds, failed_call, &zygote_failed) == 0)
            return R->zygote[slot].pid;
        if (!zygote_failed)
            return -1;
        int err = errno;
        const char *call = *failed_call;
        zygote_end(R, slot);      /* dead, stopped or silent: killed, reaped, replaced once */
        wk_runner_kill_strays(R); /* a case it may have started unanswered holds this case's pipes */
        errno = err;
        if (strcmp(call, "zygote") != 0)
            return -1; /* no descriptor for the page: the attempt waits (launch_wait.c) */
    }
    return -1;
}
