/* SPDX-License-Identifier: MIT */
/*
 * page_pool.h - host pages backing the model's memory (private to gpu-model).
 *
 * Pages are carved in address order from large arenas of reserved address
 * space (the kernel backs a page on first write) and recycled through a free
 * list, so the steady state of a fuzzing loop (touch a few pages, reset,
 * repeat) never calls malloc or faults. Carving in order is what lets a large
 * FILL or COPY see one contiguous host range and do it in a single memset or
 * memmove: whenever every page has come back (a full reset), the free list is
 * dropped and carving starts again at the first page. Pages come back with
 * whatever they held, and with the span of bytes that may be nonzero (its
 * "dirt", recorded by the previous user): the caller zeroes what it needs of
 * that span only (sparse.c). A fuzz input that wrote 100 bytes of a page
 * costs the next user 100 bytes of memset, not 4096.
 */
#ifndef WK_GPU_PAGE_POOL_H
#define WK_GPU_PAGE_POOL_H

#include <stdint.h>

struct page_pool {
    void **free_pages;      /* stack of recycled pages */
    uint64_t free_count;
    uint64_t free_capacity; /* >= carved: put() never needs to grow it */
    struct pool_arena {
        uint8_t *base;
        uint64_t pages;
        uint32_t *dirt;     /* per page: PAGE_DIRT(lo, hi), 0 = all zero */
        uint64_t high;      /* pages [0, high) were ever carved (may hold bytes) */
        uint64_t prefaulted; /* pages [0, prefaulted) were offered to page_pool_prefault */
    } *arenas;              /* reservations, carved in order */
    uint64_t arena_count;
    uint64_t arena_capacity;
    uint64_t arena_pages;   /* size of the next reservation */
    uint64_t carve_arena;   /* next page to carve: arena index ... */
    uint64_t carve_page;    /* ... and page in it */
    uint64_t carved;        /* pages carved since the last rewind */
    uint64_t in_use;        /* pages handed out and not yet returned */
    uint64_t limit;         /* most pages in use at once */
};

void page_pool_init(struct page_pool *pool, uint64_t limit);
/* Every page must be back (page_pool_put). The arenas go to a small
 * process-wide stash for the next pool of the same arena size, with their
 * pages and dirt, beyond the first 16 MiB returned to the kernel; an arena
 * the stash has no room for is unmapped. */
void page_pool_fini(struct page_pool *pool);

/* A span [lo, hi) of a page, packed: every byte outside it is zero. */
#define PAGE_DIRT(lo, hi) ((uint32_t)(lo) | (uint32_t)(hi) << 16)
#define PAGE_DIRT_LO(d) ((d) & 0xFFFFu)
#define PAGE_DIRT_HI(d) ((d) >> 16)
#define PAGE_DIRT_ALL PAGE_DIRT(0, 4096)

/* A 4 KiB page, zero outside the span `*dirt`; NULL at the limit or when the
 * host is out of memory. */
uint8_t *page_pool_get(struct page_pool *pool, uint32_t *dirt);

/* The kernel backs the pages of [p, p + len) (pages the pool handed out,
 * consecutive in one arena) that lie past every page offered before, in
 * one system call (MADV_POPULATE_WRITE, Linux 5.14; nothing where it is
 * refused), for a caller about to write them all: a FILL of fresh pages
 * then takes no page fault a page. Pages offered before are left alone,
 * so a pool whose pages come back and go out again (a fuzz harness's
 * steady state) makes no system call here. */
void page_pool_prefault(struct page_pool *pool, uint8_t *p, uint64_t len);

/* Returns a page to the pool with the span its user may have written
 * (PAGE_DIRT_ALL when unknown). Cannot fail: the free list has a slot for
 * every page carved. */
void page_pool_put(struct page_pool *pool, uint8_t *page, uint32_t dirt);

#endif
