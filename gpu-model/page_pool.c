/*
 * page_pool.c - slab allocator for the model's 4 KiB backing pages.
 *
 * The free list is sized up front to the slab page count, so returning a page
 * can never fail: every page ever handed out came from a slab, and the free
 * list has a slot for every slab page.
 */
#include "page_pool.h"

#include <stdlib.h>
#include <string.h>

#include "wddmkit/gpu.h"

#define SLAB_PAGES 512u /* 2 MiB */

void page_pool_init(struct page_pool *pool, uint64_t limit)
{
    memset(pool, 0, sizeof(*pool));
    pool->limit = limit;
}

void page_pool_fini(struct page_pool *pool)
{
    for (uint64_t i = 0; i < pool->slab_count; i++)
        free(pool->slabs[i]);
    free(pool->slabs);
    free(pool->free_pages);
    memset(pool, 0, sizeof(*pool));
}

/* Grows the slab list and the free list together so that put() has room for
 * every page of every slab. */
static int add_slab(struct page_pool *pool)
{
    if (pool->slab_count == pool->slab_capacity) {
        uint64_t cap = pool->slab_capacity ? pool->slab_capacity * 2 : 8;
        void **slabs = realloc(pool->slabs, cap * sizeof(*slabs));
        if (!slabs)
            return -1;
        pool->slabs = slabs;
        pool->slab_capacity = cap;
    }
    uint64_t need = (pool->slab_count + 1) * SLAB_PAGES;
    if (need > pool->free_capacity) {
        void **fl = realloc(pool->free_pages, need * sizeof(*fl));
        if (!fl)
            return -1;
        pool->free_pages = fl;
        pool->free_capacity = need;
    }
    /* Slabs aligned to their size can be backed by transparent huge pages:
     * one TLB entry per slab instead of 512 for bulk copies and fills. */
    void *slab = aligned_alloc((size_t)SLAB_PAGES * WK_GPU_PAGE_SIZE, (size_t)SLAB_PAGES * WK_GPU_PAGE_SIZE);
    if (!slab)
        return -1;
    pool->slabs[pool->slab_count++] = slab;
    pool->slab_next = slab;
    pool->slab_left = SLAB_PAGES;
    return 0;
}

uint8_t *page_pool_get(struct page_pool *pool, int zero)
{
    if (pool->in_use >= pool->limit)
        return NULL;
    uint8_t *page;
    if (pool->free_count) {
        page = pool->free_pages[--pool->free_count];
    } else {
        if (!pool->slab_left && add_slab(pool) != 0)
            return NULL;
        page = pool->slab_next;
        pool->slab_next += WK_GPU_PAGE_SIZE;
        pool->slab_left--;
    }
    if (zero)
        memset(page, 0, WK_GPU_PAGE_SIZE);
    pool->in_use++;
    return page;
}

void page_pool_put(struct page_pool *pool, uint8_t *page)
{
    pool->free_pages[pool->free_count++] = page;
    pool->in_use--;
}
