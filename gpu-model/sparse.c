/* SPDX-License-Identifier: MIT */
/*
 * sparse.c - lazily backed block arrays; see sparse.h.
 *
 * Second-level tables are kept across resets (they are small: 8 KiB per
 * 4 MiB of address space) so that a fuzzing loop reaches a steady state with
 * no allocation at all; only the blocks go back to the pool.
 */
#include "sparse.h"

#include <stdlib.h>
#include <string.h>

#include "wddmkit/gpu.h"

/* Page pointers, then the dirt words sparse_l2_dirt finds after them; all
 * zero, and nothing writes it: a block is backed in a table of its own. */
uint8_t *sparse_untouched_l2[SPARSE_L2_SIZE + (SPARSE_L2_SIZE * sizeof(uint32_t) + sizeof(uint8_t *) - 1) /
                                                 sizeof(uint8_t *)];

int sparse_init(struct sparse *s, uint64_t blocks, uint32_t tail_bytes, struct page_pool *pool)
{
    memset(s, 0, sizeof(*s));
    s->blocks = blocks;
    s->tail_bytes = tail_bytes;
    s->pool = pool;
    s->dir_len = (blocks + SPARSE_L2_SIZE - 1) >> SPARSE_L2_BITS;
    uint64_t entries = s->dir_len ? s->dir_len : 1;
    s->dir = malloc(entries * sizeof(*s->dir));
    if (!s->dir)
        return -1;
    for (uint64_t i = 0; i < entries; i++) /* 2 MiB for a 1 TiB segment, 8 bytes for 4 MiB */
        s->dir[i] = sparse_untouched_l2;
    return 0;
}

void sparse_fini(struct sparse *s)
{
    sparse_reset(s);
    for (uint64_t i = 0; i < s->dir_len; i++)
        if (s->dir[i] != sparse_untouched_l2)
            free(s->dir[i]);
    free(s->dir);
    free(s->dirty);
    memset(s, 0, sizeof(*s));
}

static int dirty_push(struct sparse *s, uint64_t block)
{
    if (s->dirty_count == s->dirty_capacity) {
        uint64_t cap = s->dirty_capacity ? s->dirty_capacity * 2 : 64;
        uint64_t *d = realloc(s->dirty, cap * sizeof(*d));
        if (!d)
            return -1;
        s->dirty = d;
        s->dirty_capacity = cap;
    }
    s->dirty[s->dirty_count++] = block;
    return 0;
}

/* Zeroes what the previous user may have left in [0, 4096) (`stale`) except
 * the bytes the new user is about to write: an input that writes 100 bytes
 * of a page that the previous input wrote 100 bytes of costs 100 bytes of
 * memset (or none), not 4096. */
static void zero_stale(uint8_t *page, uint32_t stale, uint32_t keep_off, uint32_t keep_len)
{
    uint32_t lo = PAGE_DIRT_LO(stale), hi = PAGE_DIRT_HI(stale);
    uint32_t klo = keep_len ? keep_off : hi, khi = keep_len ? keep_off + keep_len : hi;
    if (lo >= hi)
        return;
    if (klo > lo)
        memset(page + lo, 0, (hi < klo ? hi : klo) - lo);
    uint32_t from = lo > khi ? lo : khi;
    if (hi > from)
        memset(page + from, 0, hi - from);
}

uint8_t *sparse_touch_slow(struct sparse *s, uint64_t block, uint32_t keep_off, uint32_t keep_len)
{
    uint8_t ***slot = &s->dir[block >> SPARSE_L2_BITS];
    if (*slot == sparse_untouched_l2) {
        uint8_t **l2 = calloc(SPARSE_L2_SIZE, sizeof(**slot) + sizeof(uint32_t));
        if (!l2)
            return NULL; /* the entry still points to the untouched table */
        *slot = l2;
    }
    /* Reserve the dirty slot first so that failure leaves nothing backed. */
    if (dirty_push(s, block) != 0)
        return NULL;
    uint32_t stale = 0;
    uint8_t *page = page_pool_get(s->pool, &stale);
    if (!page) {
        s->dirty_count--;
        return NULL;
    }
    zero_stale(page, stale, keep_off, keep_len);
    uint32_t limit = block + 1 == s->blocks ? s->tail_bytes : WK_GPU_PAGE_SIZE;
    sparse_l2_dirt(*slot)[block & (SPARSE_L2_SIZE - 1)] =
        sparse_dirt_widen(0, limit, keep_off, keep_len);
    (*slot)[block & (SPARSE_L2_SIZE - 1)] = page;
    return page;
}

void sparse_reset(struct sparse *s)
{
    for (uint64_t i = 0; i < s->dirty_count; i++) {
        uint64_t b = s->dirty[i];
        uint8_t **l2 = s->dir[b >> SPARSE_L2_BITS];
        page_pool_put(s->pool, l2[b & (SPARSE_L2_SIZE - 1)],
                      sparse_l2_dirt(l2)[b & (SPARSE_L2_SIZE - 1)]);
        l2[b & (SPARSE_L2_SIZE - 1)] = NULL;
    }
    s->dirty_count = 0;
}
