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
 * whatever they held: the caller zeroes what it needs (sparse.c), and a page
 * about to be overwritten whole is not zeroed at all.
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
void page_pool_fini(struct page_pool *pool);

/* A 4 KiB page with unspecified contents; NULL at the limit or when the host
 * is out of memory. */
uint8_t *page_pool_get(struct page_pool *pool);

/* Returns a page to the pool. Cannot fail: the free list has a slot for
 * every page carved. */
void page_pool_put(struct page_pool *pool, uint8_t *page);

#endif
