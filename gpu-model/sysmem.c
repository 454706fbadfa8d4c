/* SPDX-License-Identifier: MIT */
/*
 * sysmem.c - system memory: one host mapping of a memfd, and exactly which
 * of its pages may hold data.
 *
 * System pages are what MDLs describe, and drivers reach them both through
 * the GPU (by PFN) and through the CPU (MmGetSystemAddressForMdlSafe). A
 * memfd gives both: the model reads and writes its own MAP_SHARED mapping,
 * and the host gets pointers into it (wk_gpu_sysmem_page) or mappings of any
 * list of its pages (wk_gpu_sysmem_map, sysmap.c).
 *
 * A reset must cost what the last input touched, whoever touched it. So the
 * model keeps the exact set of pages that may be non-zero (`dirty`: a bitmap
 * and a list), and every other page is known to hold zeroes. A page enters
 * the set when the model writes it, when the host is handed a way to write it
 * (a wk_gpu_sysmem_page pointer, a mapping), and, at every reset, again if
 * that way is still open: a live mapping, or a pinned page (a
 * wk_gpu_sysmem_page pointer is valid until wk_gpu_destroy). The host cannot
 * write a page outside the set, so the set is exact without asking the
 * kernel. Consequences:
 *   - reads of pages outside the set are zeroes without touching the mapping
 *     (no page fault for a read of an untouched page);
 *   - reset zeroes the listed pages in place (memset through the model's
 *     mapping: no system call, and the pages stay in the memfd for the next
 *     input, so no page fault either); past RESET_ZERO_LIMIT pages it punches
 *     the whole file out instead (see there why the limit is high);
 *   - residency is the set's size.
 * If the set cannot grow (out of host memory for its list) the model drops to
 * the untracked mode, correct for any writer: every page may hold data, reset
 * punches the whole file and residency is the memfd's block count.
 * Without memfd the pool falls back to anonymous memory and only host
 * mappings (wk_gpu_sysmem_map, wk_gpu_segment_map) are unavailable.
 *
 * The memfd also backs the mappable segments (wk_gpu_options), after system
 * memory: a segment whose CPU view the host maps is, to this file, more
 * pages of the same kind, so the set, the in-place zeroing and the parked
 * pools serve it unchanged. What the host may write through a segment
 * mapping is not in the set (a mapping of a 128 MiB segment would put
 * 32,768 pages in it at every reset): segmap.c keeps it as a hull of pages,
 * which reads through the mapping and which reset punches out.
 */
#define _GNU_SOURCE /* memfd_create, fallocate */

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Past this many pages to zero at a reset, the whole file is punched out
 * instead. High, because a punched page costs its next writer a page fault,
 * and on the VMs the kit runs in a shmem fault cost about 6 us: after an
 * input that filled 4096 pages of a mappable segment, punching cost 8 ms
 * and the next input's faults 26 ms, zeroing in place 0.5 ms and the next
 * input nothing extra (bench/gpu_reset). The pages kept are at most what
 * the file holds, as the sparse pool keeps its pages too. */
#define RESET_ZERO_LIMIT 65536u
/* A pool parked for the next model keeps at most this many pages: a
 * destroyed model's memory is not kept past what a fuzz input touches. */
#define PARK_ZERO_LIMIT 512u

static uint64_t *new_bitmap(uint64_t pages)
{
    return calloc((size_t)(pages + 63) / 64, sizeof(uint64_t));
}

/*
 * The pools of the last models destroyed, zeroed, for the next ones created:
 * a fuzz harness destroys and builds adapters all the time, and a new memfd
 * cost a creation, a truncate and a mapping, a destruction the unmapping of
 * every page touched, and the next model a page fault on each page it
 * touched again (perf, WK_FUZZ_FRESH=1 fuzz_prog). Parked only when the
 * model knew exactly which pages it dirtied (they are zeroed, past
 * PARK_ZERO_LIMIT punched: at most PARK_ZERO_LIMIT pages stay resident), so
 * a taken pool reads zero like a new one.
 *
 * Sizes: a pool is a power of four times POOL_MIN, the model using its
 * start, and a model takes the smallest parked pool at least as large as
 * it needs. A mutated fuzz_prog input describes system memory and mappable
 * segments of any size: with pools of the exact size, most builds for a new
 * description found none, created a memfd and mapped it, and pushed out a
 * parked pool with its kept host mappings (bench/fuzz_speed --floor: a
 * third of a mutated mix's mapping changes, and most of the rest were the
 * mappings a new pool had to make again). Pages past the file a model uses
 * are never touched: they cost address space, not memory.
 *
 * PARKED slots, as a harness keeps many adapters of several sizes; when all
 * are full the pool parked longest ago goes. A forked child forgets them
 * all (a MAP_SHARED pool taken by two processes would be shared memory).
 */
#define PARKED 16
#define POOL_MIN (1ull << 20)
struct parked_pool {
    int fd;
    uint8_t *host;
    uint64_t size;       /* the file and its mapping (sysmem.pool_size) */
    uint64_t parked_at;  /* parked_clock when parked */
    struct sysmem maps;  /* its idle host mappings (maps, map_count, ...) */
};
static struct parked_pool *parked[PARKED];
static uint64_t parked_clock;
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER; /* models may live in several threads */

static uint64_t pool_size_for(uint64_t file_size)
{
    uint64_t size = POOL_MIN;
    while (size < file_size && size < (1ull << 61))
        size <<= 2;
    return size < file_size ? file_size : size;
}

/*
 * A new pool is made as large as the largest this process has made (up to
 * UNIFORM_MAX), not only as its model needs: a fuzz harness keeps many
 * adapters of mutated descriptions, and a build whose description needed
 * a larger pool than any parked one made a new pool, whose host mappings
 * (a context's DMA buffer, its Patch view) every later input on it made
 * again, the last mapping changes of fuzz_prog's steady state (issue 26;
 * bench/fuzz_speed --floor: 18 new pools in a mix of 2,000 inputs, none
 * once pools were alike, and the mix's mapping changes per input from
 * 0.07-0.10 to 0.03). Pages past what a model uses are never touched: a
 * larger pool costs address space, not memory. A process that builds
 * only small models (a conformance case) keeps small pools.
 */
#define UNIFORM_MAX (1ull << 30)
static uint64_t largest_made; /* under parked_lock */

static uint64_t new_pool_size(uint64_t need)
{
    pthread_mutex_lock(&parked_lock);
    uint64_t size = need < largest_made ? largest_made : need;
    pthread_mutex_unlock(&parked_lock);
    return size;
}

static void note_made(uint64_t size)
{
    pthread_mutex_lock(&parked_lock);
    if (size > largest_made && size <= UNIFORM_MAX)
        largest_made = size;
    pthread_mutex_unlock(&parked_lock);
}

static void pool_drop(struct parked_pool *p)
{
    if (!p)
        return;
    sysmap_release(&p->maps);
    munmap(p->host, p->size);
    close(p->fd);
    free(p);
}

/* fork: the lock is held across it, so the child's copy of the slots is
 * whole; the child drops every pool (its copies of the mappings and fds). */
static void lock_for_fork(void)
{
    pthread_mutex_lock(&parked_lock);
}

static void unlock_after_fork(void)
{
    pthread_mutex_unlock(&parked_lock);
}

static void forget_in_child(void)
{
    for (int i = 0; i < PARKED; i++) {
        pool_drop(parked[i]);
        parked[i] = NULL;
    }
    pthread_mutex_unlock(&parked_lock);
}

static void register_fork_handler(void)
{
    pthread_atfork(lock_for_fork, unlock_after_fork, forget_in_child);
}

static int pool_park(struct wk_gpu *gpu, struct region *r);
static int pool_new(struct sysmem *s, struct region *r, uint64_t need);

/* Parks p in a free slot, else in the one parked longest ago; returns the
 * pool it pushed out (for the caller to drop outside the lock), or NULL. */
static struct parked_pool *pool_put(struct parked_pool *p)
{
    pthread_mutex_lock(&parked_lock);
    int at = 0;
    for (int i = 0; i < PARKED; i++) {
        if (!parked[i]) {
            at = i;
            break;
        }
        if (parked[i]->parked_at < parked[at]->parked_at)
            at = i;
    }
    struct parked_pool *out = parked[at];
    p->parked_at = ++parked_clock;
    parked[at] = p;
    pthread_mutex_unlock(&parked_lock);
    return out;
}

/* The smallest parked pool of at least `size` bytes, or NULL. */
static struct parked_pool *pool_take(uint64_t size)
{
    pthread_mutex_lock(&parked_lock);
    int best = -1;
    for (int i = 0; i < PARKED; i++)
        if (parked[i] && parked[i]->size >= size && (best < 0 || parked[i]->size < parked[best]->size))
            best = i;
    struct parked_pool *p = best >= 0 ? parked[best] : NULL;
    if (best >= 0)
        parked[best] = NULL;
    pthread_mutex_unlock(&parked_lock);
    return p;
}

int sysmem_init(struct wk_gpu *gpu, struct region *r)
{
    struct sysmem *s = &gpu->sys;
    uint64_t need = pool_size_for(s->file_size);
    struct parked_pool *kept = pool_take(need);
    if (kept) {
        s->fd = kept->fd;
        r->host = kept->host;
        s->pool_size = kept->size; /* it may be larger than this model needs: parked again whole */
        /* its idle mappings name pages of the file: the same pages for
         * this model (those past its system pages are never asked for: a
         * map names system frames) */
        sysmap_hand_over(&kept->maps, s);
        free(kept);
    } else {
        s->pool_size = new_pool_size(need);
        if (pool_new(s, r, need) != 0)
            return -1;
        if (s->pool_size >= need) /* not pool_new's fallback to the file's own size */
            note_made(s->pool_size);
    }
    /* Without the bitmap the model simply starts untracked (slower resets). */
    s->dirty.bits = new_bitmap(s->file_size >> WK_GPU_PAGE_SHIFT);
    s->dirty.with_spans = 1;
    s->untracked = !s->dirty.bits;
    return 0;
}

/* A new memfd of s->pool_size bytes and the model's mapping of it
 * (anonymous memory without memfd); 0 or -1. */
static int pool_map(struct sysmem *s, struct region *r)
{
    s->fd = memfd_create("wddmkit-sysmem", MFD_CLOEXEC);
    if (s->fd >= 0 && ftruncate(s->fd, (off_t)s->pool_size) != 0) {
        close(s->fd);
        s->fd = -1;
    }
    void *p = s->fd >= 0
                  ? mmap(NULL, s->pool_size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0)
                  : mmap(NULL, s->pool_size, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        if (s->fd >= 0)
            close(s->fd);
        s->fd = -1;
        return -1;
    }
    r->host = p;
    return 0;
}

/* pool_map, at the size the model needs, then at the file's own size,
 * when the larger one does not fit (a limited address space: RLIMIT_AS, as
 * AFL's -m sets). */
static int pool_new(struct sysmem *s, struct region *r, uint64_t need)
{
    if (pool_map(s, r) == 0)
        return 0;
    if (s->pool_size > need) { /* the size of the largest made does not fit: the model's own */
        s->pool_size = need;
        if (pool_map(s, r) == 0)
            return 0;
    }
    if (s->pool_size == s->file_size)
        return -1;
    s->pool_size = s->file_size;
    return pool_map(s, r);
}

static void set_free(struct page_set *set)
{
    free(set->bits);
    free(set->list);
    free(set->spans);
    memset(set, 0, sizeof(*set));
}

void sysmem_fini(struct wk_gpu *gpu, struct region *r)
{
    struct sysmem *s = &gpu->sys;
    segmap_fini(gpu);
    if (!pool_park(gpu, r)) {
        sysmap_fini(gpu);
        munmap(r->host, s->pool_size);
        if (s->fd >= 0)
            close(s->fd);
    }
    r->host = NULL;
    s->fd = -1;
    set_free(&s->dirty);
    set_free(&s->pinned);
}

void sysmem_release(struct wk_gpu *gpu, uint64_t off, uint64_t len)
{
    int fd = gpu->sys.fd;
    int punched = fd >= 0 && fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
                                       (off_t)len) == 0;
    if (!punched) /* no memfd, or a kernel without hole punching on it */
        madvise(sysmem_region(gpu)->host + off, len, fd >= 0 ? MADV_REMOVE : MADV_DONTNEED);
}

static int set_has(const struct page_set *set, uint64_t page)
{
    return (int)(set->bits[page / 64] >> (page % 64)) & 1;
}

static int set_grow(struct page_set *set)
{
    uint64_t cap = set->capacity ? set->capacity * 2 : 64;
    uint64_t *l = realloc(set->list, cap * sizeof(*l));
    if (!l)
        return -1;
    set->list = l;
    if (set->with_spans) { /* a larger list alone is harmless if this fails */
        uint32_t *sp = realloc(set->spans, cap * sizeof(*sp));
        if (!sp)
            return -1;
        set->spans = sp;
    }
    set->capacity = cap;
    return 0;
}

/* Adds a page, or widens its span (with_spans: `dirt` is PAGE_DIRT of the
 * bytes that may now be non-zero); the list never holds a page twice (the
 * bitmap says), so it is at most the pool's size. -1 when the list cannot
 * grow. */
static int set_add(struct page_set *set, uint64_t page, uint32_t dirt)
{
    if (set_has(set, page)) {
        if (!set->with_spans)
            return 0;
        if (set->list[set->count - 1] == page)
            set->spans[set->count - 1] = sparse_dirt_widen(set->spans[set->count - 1], WK_GPU_PAGE_SIZE,
                                                           PAGE_DIRT_LO(dirt), PAGE_DIRT_HI(dirt) - PAGE_DIRT_LO(dirt));
        else
            set->spans_lost = 1;
        return 0;
    }
    if (set->count == set->capacity && set_grow(set) != 0)
        return -1;
    if (set->with_spans)
        set->spans[set->count] = dirt;
    set->list[set->count++] = page;
    set->bits[page / 64] |= 1ull << (page % 64);
    return 0;
}

/* Records that bytes `dirt` (PAGE_DIRT) of pool page `page` may now be
 * non-zero; on failure drops to the untracked mode. */
static void mark_span(struct wk_gpu *gpu, uint64_t page, uint32_t dirt)
{
    if (!gpu->sys.untracked && set_add(&gpu->sys.dirty, page, dirt) != 0)
        gpu->sys.untracked = 1; /* from now on any page may hold data */
}

void sysmem_mark(struct wk_gpu *gpu, uint64_t page)
{
    mark_span(gpu, page, PAGE_DIRT_ALL); /* the host may write any of it */
}

static int in_hull(const struct sysmem *s, uint64_t page)
{
    return page - s->host_lo < s->host_hi - s->host_lo;
}

static int by_page(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Punches the hull out of the file around the pages the set held there
 * (just zeroed whole in place): what the host may have written through a
 * segment mapping, unseen, goes back to the kernel, and a page the model
 * wrote keeps its place in the file, so the next input that writes it
 * takes no page fault (about 6 us each on the VMs the kit runs in, more
 * than the punch). `list` holds the set's pages in the hull, `n` of them;
 * it is sorted here (the set is emptied after). */
static void punch_hull_around(struct wk_gpu *gpu, uint64_t *list, uint64_t n)
{
    struct sysmem *s = &gpu->sys;
    if (n)
        qsort(list, (size_t)n, sizeof(*list), by_page); /* list may be NULL when empty */
    uint64_t from = s->host_lo;
    for (uint64_t i = 0; i <= n; i++) {
        uint64_t to = i < n ? list[i] : s->host_hi;
        if (to > from)
            sysmem_release(gpu, from << WK_GPU_PAGE_SHIFT, (to - from) << WK_GPU_PAGE_SHIFT);
        from = to + 1;
    }
}

/* Zeroes what the dirty pages may hold and empties the set, in time
 * proportional to it: a page in the hull whole (the host may have written
 * any of its bytes), the others their span; then punches out the rest of
 * the hull. */
static void zero_dirty(struct wk_gpu *gpu, struct region *r, uint64_t limit)
{
    struct sysmem *s = &gpu->sys;
    struct page_set *d = &s->dirty;
    int punch = d->count > limit;
    uint64_t in = 0; /* the set's pages in the hull, moved to the list's front */
    for (uint64_t i = 0; i < d->count; i++) {
        uint64_t page = d->list[i];
        uint32_t dirt = d->spans_lost || in_hull(s, page) ? PAGE_DIRT_ALL : d->spans[i];
        d->bits[page / 64] &= ~(1ull << (page % 64));
        if (!punch)
            memset(r->host + (page << WK_GPU_PAGE_SHIFT) + PAGE_DIRT_LO(dirt), 0,
                   PAGE_DIRT_HI(dirt) - PAGE_DIRT_LO(dirt));
        if (in_hull(s, page))
            d->list[in++] = page;
    }
    if (punch)
        sysmem_release(gpu, 0, s->file_size);
    else if (s->host_hi > s->host_lo)
        punch_hull_around(gpu, d->list, in);
    s->host_lo = s->host_hi = 0;
    d->count = 0;
    d->spans_lost = 0;
}

/* Keeps the pool, zeroed, for the next model, with its idle host mappings
 * (PROT_NONE, their pages zeroed with the rest: the next model takes one
 * back with one mprotect when it maps the same frames); 0 when it cannot
 * (the caller then unmaps everything and closes it). Live mappings are
 * unmapped, and the right to write through wk_gpu_sysmem_page pointers
 * ends here. */
static int pool_park(struct wk_gpu *gpu, struct region *r)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    struct sysmem *s = &gpu->sys;
    if (s->fd < 0 || s->untracked || !r->host)
        return 0;
    struct parked_pool *p = malloc(sizeof(*p));
    if (!p || pthread_once(&once, register_fork_handler) != 0) {
        free(p);
        return 0;
    }
    sysmap_keep_idle(gpu);
    zero_dirty(gpu, r, PARK_ZERO_LIMIT); /* the pinned pages and the mappings' are in the set (sysmem_mark) */
    p->fd = s->fd;
    p->host = r->host;
    p->size = s->pool_size;
    memset(&p->maps, 0, sizeof(p->maps));
    sysmap_hand_over(s, &p->maps);
    pool_drop(pool_put(p));
    return 1;
}

void sysmem_reset(struct wk_gpu *gpu, struct region *r)
{
    struct sysmem *s = &gpu->sys;
    if (s->untracked) {
        sysmem_release(gpu, 0, s->file_size);
        segmap_mark_live(gpu);
        return;
    }
    zero_dirty(gpu, r, RESET_ZERO_LIMIT);
    /* The host may write these at any time, before the next reset too. */
    for (uint64_t i = 0; i < s->pinned.count; i++)
        sysmem_mark(gpu, s->pinned.list[i]);
    sysmap_mark_live(gpu);
    segmap_mark_live(gpu);
}

uint64_t sysmem_resident(const struct wk_gpu *gpu, const struct region *r)
{
    struct stat st;
    (void)r;
    if (!gpu->sys.untracked)
        return gpu->sys.dirty.count + segmap_resident(gpu);
    if (gpu->sys.fd >= 0 && fstat(gpu->sys.fd, &st) == 0)
        return (uint64_t)st.st_blocks * 512 / WK_GPU_PAGE_SIZE;
    return 0;
}

uint8_t *sysmem_page_for(struct wk_gpu *gpu, uint64_t sys_off, uint64_t write_len)
{
    uint64_t page = sys_off >> WK_GPU_PAGE_SHIFT;
    uint8_t *host = sysmem_region(gpu)->host + (page << WK_GPU_PAGE_SHIFT);
    if (gpu->sys.untracked)
        return host;
    if (!write_len) /* NULL: known zeroes; the hull, unknown, reads through the mapping */
        return set_has(&gpu->sys.dirty, page) || page - gpu->sys.host_lo < gpu->sys.host_hi - gpu->sys.host_lo
                   ? host
                   : NULL;
    uint32_t at = (uint32_t)(sys_off & (WK_GPU_PAGE_SIZE - 1));
    mark_span(gpu, page, PAGE_DIRT(at, at + write_len));
    return host;
}

/* Pins a page for good: its pointer is valid until wk_gpu_destroy, so every
 * reset puts it back in the dirty set. */
static void pin(struct wk_gpu *gpu, uint64_t page)
{
    struct sysmem *s = &gpu->sys;
    if (s->untracked)
        return;
    if (!s->pinned.bits)
        s->pinned.bits = new_bitmap(gpu->desc.sysmem_pages);
    if (!s->pinned.bits || set_add(&s->pinned, page, PAGE_DIRT_ALL) != 0) {
        s->untracked = 1;
        return;
    }
    sysmem_mark(gpu, page);
}

uint8_t *wk_gpu_sysmem_page(struct wk_gpu *gpu, uint64_t pfn)
{
    uint64_t first = gpu->desc.sysmem_first_pfn;
    if (pfn < first || pfn - first >= gpu->desc.sysmem_pages)
        return NULL;
    pin(gpu, pfn - first);
    return sysmem_region(gpu)->host + ((pfn - first) << WK_GPU_PAGE_SHIFT);
}

int sysmem_has(const struct wk_gpu *gpu, uint64_t page)
{
    return gpu->sys.untracked || set_has(&gpu->sys.dirty, page);
}
