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

int sparse_init(struct sparse *s, uint64_t blocks, uint32_t tail_bytes, struct page_pool *pool)
{
    memset(s, 0, sizeof(*s));
    s->blocks = blocks;
    s->tail_bytes = tail_bytes;
    s->pool = pool;
    s->dir_len = (blocks + SPARSE_L2_SIZE - 1) >> SPARSE_L2_BITS;
    s->dir = calloc(s->dir_len ? s->dir_len : 1, sizeof(*s->dir));
    return s->dir ? 0 : -1;
}

void sparse_fini(struct sparse *s)
{
    sparse_reset(s);
    for (uint64_t i = 0; i < s->dir_len; i++)
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

/* Zeroes [0, limit) of a fresh page except [keep_off, keep_off + keep_len):
 * an input that writes 100 bytes of a page pays for 3996, not 4096 + 100. */
static void zero_around(uint8_t *page, uint32_t limit, uint32_t keep_off, uint32_t keep_len)
{
    if (keep_off >= limit || keep_len == 0) {
        memset(page, 0, limit);
        return;
    }
    uint32_t end = keep_len < limit - keep_off ? keep_off + keep_len : limit;
    memset(page, 0, keep_off);
    memset(page + end, 0, limit - end);
}

uint8_t *sparse_touch_slow(struct sparse *s, uint64_t block, uint32_t keep_off, uint32_t keep_len)
{
    uint8_t ***slot = &s->dir[block >> SPARSE_L2_BITS];
    if (!*slot) {
        *slot = calloc(SPARSE_L2_SIZE, sizeof(**slot));
        if (!*slot)
            return NULL;
    }
    /* Reserve the dirty slot first so that failure leaves nothing backed. */
    if (dirty_push(s, block) != 0)
        return NULL;
    uint8_t *page = page_pool_get(s->pool);
    if (!page) {
        s->dirty_count--;
        return NULL;
    }
    zero_around(page, block + 1 == s->blocks ? s->tail_bytes : WK_GPU_PAGE_SIZE, keep_off,
                keep_len);
    (*slot)[block & (SPARSE_L2_SIZE - 1)] = page;
    return page;
}

void sparse_reset(struct sparse *s)
{
    for (uint64_t i = 0; i < s->dirty_count; i++) {
        uint64_t b = s->dirty[i];
        uint8_t **l2 = s->dir[b >> SPARSE_L2_BITS];
        page_pool_put(s->pool, l2[b & (SPARSE_L2_SIZE - 1)]);
        l2[b & (SPARSE_L2_SIZE - 1)] = NULL;
    }
    s->dirty_count = 0;
}
