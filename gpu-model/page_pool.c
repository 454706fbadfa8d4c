/* SPDX-License-Identifier: MIT */
/*
 * page_pool.c - arena allocator for the model's 4 KiB backing pages.
 *
 * An arena is one anonymous mapping reserved without commitment: untouched
 * pages cost no host memory, so an arena can be as large as the pool's limit
 * (up to 4 GiB) and consecutive pages handed out are consecutive in host
 * memory. The free list grows with the pages carved, so returning a page can
 * never fail.
 *
 * Arenas outlive their pool: a fuzz harness builds and destroys GPU models
 * all the time (fuzz_hostile one per input, fuzz_prog one per new adapter
 * description), and each new arena cost an mmap, a munmap and a page fault
 * with a kernel-zeroed page for every page the model touched. A destroyed
 * pool's arenas wait in a stash for the next pool instead, pages and dirt
 * included: the dirt says what the next user must zero, exactly as for
 * pages recycled within one pool.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */

#include "page_pool.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "wddmkit/gpu.h"

#define MAX_ARENA_PAGES (1ull << 20) /* 4 GiB of address space */
#define MIN_ARENA_PAGES 512u        /* 2 MiB */
#define MIN_FREE_SLOTS 512u

void page_pool_init(struct page_pool *pool, uint64_t limit)
{
    memset(pool, 0, sizeof(*pool));
    pool->limit = limit;
    pool->arena_pages = limit < MAX_ARENA_PAGES ? (limit ? limit : 1) : MAX_ARENA_PAGES;
}

#define STASHED_ARENAS 4u
#define STASH_KEEP_PAGES 4096u     /* 16 MiB of an arena stay backed in the stash */

static struct pool_arena stash[STASHED_ARENAS];
static atomic_flag stash_lock = ATOMIC_FLAG_INIT; /* GPU models may live in several threads */

static void stash_enter(void)
{
    while (atomic_flag_test_and_set_explicit(&stash_lock, memory_order_acquire))
        ;
}

static void stash_leave(void)
{
    atomic_flag_clear_explicit(&stash_lock, memory_order_release);
}

static void arena_unmap(struct pool_arena *a)
{
    munmap(a->base, a->pages * WK_GPU_PAGE_SIZE);
    free(a->dirt);
}

/* Keeps a in the stash (its pages past STASH_KEEP_PAGES returned to the
 * kernel, so they read as zero again); 0 when the stash is full. */
static int stash_put(struct pool_arena *a)
{
    if (a->high > STASH_KEEP_PAGES) {
        madvise(a->base + STASH_KEEP_PAGES * WK_GPU_PAGE_SIZE, (a->high - STASH_KEEP_PAGES) * WK_GPU_PAGE_SIZE,
                MADV_DONTNEED);
        memset(a->dirt + STASH_KEEP_PAGES, 0, (a->high - STASH_KEEP_PAGES) * sizeof(*a->dirt));
        a->high = STASH_KEEP_PAGES;
    }
    if (a->prefaulted > a->high)
        a->prefaulted = a->high; /* the rest is the kernel's again */
    int kept = 0;
    stash_enter();
    for (uint32_t i = 0; i < STASHED_ARENAS && !kept; i++)
        if (!stash[i].base) {
            stash[i] = *a;
            kept = 1;
        }
    stash_leave();
    return kept;
}

/* The smallest stashed arena of at least `pages` pages into *a; 0 when
 * there is none. A larger one serves as well (the pool's limit, not the
 * arena, bounds what is carved: the rest stays reserved and untouched), and
 * a mutated fuzz_prog description with another resident-page limit found
 * no arena of its exact size: an mmap per build, a munmap per destroy. */
static int stash_take(uint64_t pages, struct pool_arena *a)
{
    int best = -1;
    stash_enter();
    for (uint32_t i = 0; i < STASHED_ARENAS; i++)
        if (stash[i].base && stash[i].pages >= pages && (best < 0 || stash[i].pages < stash[best].pages))
            best = (int)i;
    if (best >= 0) {
        *a = stash[best];
        memset(&stash[best], 0, sizeof(stash[best]));
    }
    stash_leave();
    return best >= 0;
}

void page_pool_fini(struct page_pool *pool)
{
    for (uint64_t i = 0; i < pool->arena_count; i++)
        if (!stash_put(&pool->arenas[i]))
            arena_unmap(&pool->arenas[i]);
    free(pool->arenas);
    free(pool->free_pages);
    memset(pool, 0, sizeof(*pool));
}

/* A process with a limited address space (RLIMIT_AS, as AFL's -m sets) may
 * refuse a large reservation: halve it until it fits, down to 2 MiB. */
static int add_arena(struct page_pool *pool)
{
    if (pool->arena_count == pool->arena_capacity) {
        uint64_t cap = pool->arena_capacity ? pool->arena_capacity * 2 : 4;
        struct pool_arena *a = realloc(pool->arenas, cap * sizeof(*a));
        if (!a)
            return -1;
        pool->arenas = a;
        pool->arena_capacity = cap;
    }
    if (stash_take(pool->arena_pages, &pool->arenas[pool->arena_count])) {
        pool->arena_count++;
        return 0;
    }
    for (;;) {
        void *p = mmap(NULL, pool->arena_pages * WK_GPU_PAGE_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            /* Fresh pages read as zero: no dirt. */
            struct pool_arena a = { p, pool->arena_pages, calloc(pool->arena_pages, sizeof(uint32_t)), 0, 0 };
            if (!a.dirt) {
                munmap(p, pool->arena_pages * WK_GPU_PAGE_SIZE);
                return -1;
            }
            pool->arenas[pool->arena_count++] = a;
            return 0;
        }
        if (pool->arena_pages <= MIN_ARENA_PAGES)
            return -1;
        pool->arena_pages /= 2;
    }
}

/* The next page in address order; grows the free list first so that every
 * page carved has a slot to come back to. */
static uint8_t *carve(struct page_pool *pool)
{
    if (pool->carved == pool->free_capacity) {
        uint64_t cap = pool->free_capacity ? pool->free_capacity * 2 : MIN_FREE_SLOTS;
        void **fl = realloc(pool->free_pages, cap * sizeof(*fl));
        if (!fl)
            return NULL;
        pool->free_pages = fl;
        pool->free_capacity = cap;
    }
    if (pool->carve_arena == pool->arena_count && add_arena(pool) != 0)
        return NULL;
    struct pool_arena *a = &pool->arenas[pool->carve_arena];
    uint8_t *page = a->base + pool->carve_page * WK_GPU_PAGE_SIZE;
    if (pool->carve_page >= a->high)
        a->high = pool->carve_page + 1;
    if (++pool->carve_page == a->pages) {
        pool->carve_arena++;
        pool->carve_page = 0;
    }
    pool->carved++;
    return page;
}

/* The arena holding a page the pool handed out (arenas are few: usually
 * one); NULL for a page of none. */
static struct pool_arena *arena_of(struct page_pool *pool, const uint8_t *page)
{
    for (uint64_t i = 0; i < pool->arena_count; i++) {
        struct pool_arena *a = &pool->arenas[i];
        if (page >= a->base && (uint64_t)(page - a->base) < a->pages * WK_GPU_PAGE_SIZE)
            return a;
    }
    return NULL;
}

/* The dirt slot of a page. */
static uint32_t *dirt_slot(struct page_pool *pool, const uint8_t *page)
{
    struct pool_arena *a = arena_of(pool, page);
    return &a->dirt[(uint64_t)(page - a->base) / WK_GPU_PAGE_SIZE];
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* Why: the first write to each page of a fresh arena is a page fault, and
 * a conformance case runs in a fresh process (a fork of its slot's), so
 * every page its FILLs write is fresh: 26 faults a case over specs/, nearly
 * all in runs of 8 pages or more, where one populating call costs about
 * half of what the faults did (0.46-0.56 against 0.87-0.95 us a page,
 * counting the zeroing and the teardown, on the VMs the kit runs in). */
void page_pool_prefault(struct page_pool *pool, uint8_t *p, uint64_t len)
{
    if (!len)
        return;
    struct pool_arena *a = arena_of(pool, p);
    if (!a)
        return;
    uint64_t first = (uint64_t)(p - a->base) / WK_GPU_PAGE_SIZE;
    uint64_t end = ((uint64_t)(p - a->base) + len + WK_GPU_PAGE_SIZE - 1) / WK_GPU_PAGE_SIZE;
    if (end > a->pages)
        end = a->pages; /* the caller's run is in the arena: cannot happen */
    if (first < a->prefaulted)
        first = a->prefaulted;
    if (first >= end)
        return;
    madvise(a->base + first * WK_GPU_PAGE_SIZE, (end - first) * WK_GPU_PAGE_SIZE, MADV_POPULATE_WRITE);
    a->prefaulted = end;
}

uint8_t *page_pool_get(struct page_pool *pool, uint32_t *dirt)
{
    if (pool->in_use >= pool->limit)
        return NULL;
    uint8_t *page = pool->free_count ? pool->free_pages[--pool->free_count] : carve(pool);
    if (!page)
        return NULL;
    pool->in_use++;
    *dirt = *dirt_slot(pool, page);
    return page;
}

void page_pool_put(struct page_pool *pool, uint8_t *page, uint32_t dirt)
{
    *dirt_slot(pool, page) = dirt;
    pool->free_pages[pool->free_count++] = page;
    if (--pool->in_use)
        return;
    /* Every page is back: start carving in address order again, so the
     * next large access gets contiguous pages whatever order these came
     * back in (their old contents are zeroed by the caller when needed). */
    pool->free_count = 0;
    pool->carve_arena = 0;
    pool->carve_page = 0;
    pool->carved = 0;
}
