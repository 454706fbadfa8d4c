/*
 * page_pool.h - host pages backing the model's memory (private to gpu-model).
 *
 * Pages are carved from 2 MiB slabs and recycled through a free list, so the
 * steady state of a fuzzing loop (touch a few pages, reset, repeat) never
 * calls malloc. A recycled page is zeroed only when the caller needs zeroes:
 * a page about to be overwritten whole skips the memset.
 */
#ifndef WK_GPU_PAGE_POOL_H
#define WK_GPU_PAGE_POOL_H

#include <stdint.h>

struct page_pool {
    void **free_pages;      /* stack of recycled pages */
    uint64_t free_count;
    uint64_t free_capacity;
    void **slabs;
    uint64_t slab_count;
    uint64_t slab_capacity;
    uint8_t *slab_next;     /* next never-used page of the newest slab */
    uint64_t slab_left;     /* never-used pages left in it */
    uint64_t in_use;        /* pages handed out and not yet returned */
    uint64_t limit;         /* most pages in use at once */
};

void page_pool_init(struct page_pool *pool, uint64_t limit);
void page_pool_fini(struct page_pool *pool);

/* A 4 KiB page, zeroed when `zero` is set; NULL at the limit or when the host
 * is out of memory. */
uint8_t *page_pool_get(struct page_pool *pool, int zero);

/* Returns a page to the pool. Cannot fail: the free list has a slot for
 * every page of every slab. */
void page_pool_put(struct page_pool *pool, uint8_t *page);

#endif
