/* SPDX-License-Identifier: MIT */
/*
 * guard_input.c - buffers a DDI gets as const, handed to the driver
 * read-only.
 *
 * Why: DxgkDdiPatch gets its allocation list and patch-location list as
 * const (facts §4.4, DXGKARG_PATCH: `const DXGK_ALLOCATIONLIST *`, `const
 * D3DDDI_PATCHLOCATIONLIST *`), and DxgkDdiRender its user command buffer
 * (pCommand, `const void *const`, §4.3). A driver
 * that writes into one corrupts what the kernel (or user mode) still owns.
 * A canary before a writable buffer saw only writes before its start, and
 * only after the call, at the price of reading the whole slack each time:
 * a fifth of fuzz_patch's time (docs/performance.md). Here the driver's
 * view of the pages is read-only, so any write (before, into or after the
 * bytes) faults at that instruction and call.c reports MEM-GUARD-001 with
 * the buffer and the offset; a guard page after the view catches reads
 * past the end as before. Nothing is read after the call.
 *
 * The moat: past the guard page, 4 GiB more of the reservation stay
 * PROT_NONE. A driver that adds a 32-bit count it took from the bytes
 * (a header word, an index) to pCommand reads far past the end; with one
 * guard page, whether that read faulted depended on what the process
 * happened to have mapped there (the kit's own segments, a library), so
 * the same input crashed on one machine and ran clean on another (Heron's
 * planted HERON_BUG_UMD_SKIP adds 0x42434b57). Within the moat it faults
 * on every machine and is named as a read past this buffer. The moat
 * costs address space only (MAP_NORESERVE, never touched, no page
 * tables); where the address space is limited (RLIMIT_AS, as AFL's -m
 * sets) and it does not fit, the buffer has its one guard page.
 *
 * How: the pages are a memfd mapped twice: read-only for the driver (with
 * the PROT_NONE guard page after it) and writable for the kit, which
 * copies the content in. The bytes before the content hold the canary,
 * so a driver reading before the start reads the same bytes every time
 * (a replay must be deterministic). Mappings are kept for reuse like
 * guard.c's spares, and since no driver can write them, what a kept one
 * holds is known exactly: the canary before where its last content began,
 * so the next user writes the canary only where that content was.
 *
 * Spares are the process's, not an adapter's: a fuzz harness keeps dozens of
 * adapters and an input lands on any of them (the least recently used one
 * is reconfigured for new knobs), and each adapter that met an input size
 * for the first time mapped new views: three mmap calls, most of the
 * mapping changes left in a pass over the fuzz_prog seeds
 * (bench/fuzz_speed --floor), and every adapter built mapped its own again.
 * What a spare holds is known as exactly in another adapter: no driver
 * could write it. One spin lock guards the pool: a take and a put per
 * input, never held around anything but the pool's own bookkeeping.
 *
 * Fork: the two views are MAP_SHARED, so a child forked while the pool
 * holds spares would share their pages with its parent (and with its
 * siblings). A child drops the spares it inherited (generation, bumped by
 * a pthread_atfork handler, against the one the pool was filled in) and
 * maps its own.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)
#define MOAT (1ull << 32) /* a 32-bit offset's reach, past the guard page */

static unsigned generation;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* Every adapter's spare input views, filled in spares_generation. */
static struct gbuf_pool spares;
static unsigned spares_generation;
static atomic_flag spares_lock = ATOMIC_FLAG_INIT;

static void lock_spares(void)
{
    while (atomic_flag_test_and_set_explicit(&spares_lock, memory_order_acquire))
        ;
}

static void unlock_spares(void)
{
    atomic_flag_clear_explicit(&spares_lock, memory_order_release);
}

/* Held across a fork, so that the child's copy of the pool is whole. */
static void forked_child(void)
{
    generation++;
    unlock_spares();
}

static void watch_forks(void)
{
    pthread_atfork(lock_spares, unlock_spares, forked_child);
}

static void unmap_views(const struct gbuf_spare *s)
{
    munmap(s->map, s->map_len + s->moat);
    munmap(s->kit, s->map_len - PAGE);
}

/* The pool, as this process may use it: a forked child's inherited
 * spares are its parent's pages, unmapped (in the child) and never reused.
 * Called with the lock held. */
static struct gbuf_pool *own_spares(void)
{
    if (spares_generation != generation) {
        for (uint32_t i = 0; i < spares.count; i++)
            unmap_views(&spares.s[i]);
        gbuf_pool_clear(&spares);
        spares_generation = generation;
    }
    return &spares;
}

/* The spare input mapping of map_len bytes kept last (map NULL when none). */
static struct gbuf_spare take_spare(uint64_t map_len)
{
    lock_spares();
    struct gbuf_spare s = gbuf_spare_take(own_spares(), map_len);
    unlock_spares();
    return s;
}

/* A PROT_NONE reservation of data + PAGE bytes and the moat after them,
 * or without the moat when the address space has no room for it. */
static uint8_t *reserve(uint64_t data, uint64_t *moat)
{
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    *moat = MOAT;
    uint8_t *map = mmap(NULL, data + PAGE + MOAT, PROT_NONE, flags, -1, 0);
    if (map != MAP_FAILED)
        return map;
    *moat = 0;
    return mmap(NULL, data + PAGE, PROT_NONE, flags, -1, 0);
}

/* `data` bytes of a fresh memfd, read-only at the start of a reservation
 * (the rest stays PROT_NONE: the guard page and the moat) and writable at
 * s->kit; 0 when any step fails (nothing left mapped). */
static int map_views(uint64_t data, struct gbuf_spare *s)
{
    int fd = memfd_create("wddmkit-input", MFD_CLOEXEC);
    if (fd < 0)
        return 0;
    uint8_t *map = MAP_FAILED, *rw = MAP_FAILED;
    uint64_t moat = 0;
    if (ftruncate(fd, (off_t)data) == 0)
        map = reserve(data, &moat);
    if (map != MAP_FAILED && mmap(map, data, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED)
        rw = mmap(NULL, data, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (rw == MAP_FAILED) {
        if (map != MAP_FAILED)
            munmap(map, data + PAGE + moat);
        return 0;
    }
    *s = (struct gbuf_spare){ .map = map, .map_len = data + PAGE, .kit = rw, .moat = moat }; /* fresh: zeroes, no canary yet */
    return 1;
}

wk_status gbuf_alloc_input(struct wk_vidmm *vm, struct gbuf *b, const void *content, uint64_t size,
                           const char *what)
{
    uint64_t data = (size + PAGE - 1) / PAGE * PAGE;
    data = data ? data : PAGE;
    struct gbuf_spare s = { .map = NULL };
    if (!vm->cfg.no_guard_pages && size <= (1ull << 32)) {
        pthread_once(&atfork_once, watch_forks);
        s = take_spare(data + PAGE);
        if (!s.map)
            map_views(data, &s); /* leaves s.map NULL when it fails */
    }
    if (!s.map) { /* no views (or no guard pages wanted): a writable buffer, canary-checked */
        wk_status st = gbuf_alloc(vm, b, size, what);
        if (st == WK_OK && size)
            memcpy(b->ptr, content, size);
        return st;
    }
    memset(b, 0, sizeof(*b));
    b->what = what;
    b->size = size;
    b->map = s.map;
    b->map_len = data + PAGE;
    b->kit = s.kit;
    b->moat = s.moat;
    uint64_t off = data - size;
    b->ptr = b->map + off;
    if (s.canary_end < off) /* [0, canary_end) is canary already; the rest held the last content */
        memset(b->kit + s.canary_end, GBUF_CANARY, off - s.canary_end);
    if (size)
        memcpy(b->kit + off, content, size);
    gbuf_register(vm, b);
    return WK_OK;
}

/* Kept for reuse, knowing its canary ends where the content began; or
 * unmapped when the pool is full or the mapping too large. */
void gbuf_input_release(struct wk_vidmm *vm, struct gbuf *b)
{
    gbuf_unregister(vm, b);
    struct gbuf_spare s = { .map = b->map, .map_len = b->map_len, .canary_end = (uint64_t)(b->ptr - b->map), .kit = b->kit,
                            .moat = b->moat };
    lock_spares();
    int kept = gbuf_spare_put(own_spares(), &s);
    unlock_spares();
    if (!kept)
        unmap_views(&s);
    memset(b, 0, sizeof(*b));
}

/* Read without the lock: a fault report, in a process the driver may have
 * left in any state; a spare that moves meanwhile is at worst not named. */
const char *gbuf_input_describe_spare(const void *addr, char *buf, size_t size)
{
    const uint8_t *a = addr;
    for (uint32_t i = 0; i < spares.count && i < GBUF_SPARES; i++) {
        const struct gbuf_spare *s = &spares.s[i];
        if (a >= s->map && a < s->map + s->map_len) {
            snprintf(buf, size, "wrote at %p, into an input of an earlier DDI call (read-only; the pointer was kept past that call)",
                     addr);
            return buf;
        }
    }
    return NULL;
}
