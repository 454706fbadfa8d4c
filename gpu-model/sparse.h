/* SPDX-License-Identifier: MIT */
/*
 * sparse.h - a lazily backed array of 4 KiB blocks (private to gpu-model).
 *
 * Used twice: as the bytes of a memory segment or of system memory (a block
 * is a page), and as the page-table entries of an aperture (a block holds 256
 * entries). A two-level directory maps a block index to its host page; the
 * second level is allocated on first touch (until then the entry points to
 * the shared untouched table), the block itself too. Every
 * block touched since the last reset is on a dirty list, so reset costs
 * O(blocks touched), whatever the array's length.
 */
#ifndef WK_GPU_SPARSE_H
#define WK_GPU_SPARSE_H

#include <stdint.h>

#include "page_pool.h"

#define SPARSE_L2_BITS 10u
#define SPARSE_L2_SIZE (1u << SPARSE_L2_BITS)

struct sparse {
    uint8_t ***dir;          /* dir[i >> L2_BITS][i & (L2_SIZE-1)] */
    uint64_t dir_len;
    uint64_t blocks;         /* array length in blocks */
    uint32_t tail_bytes;     /* bytes of the last block in use (<= 4096) */
    uint64_t *dirty;         /* indices of blocks backed since reset */
    uint64_t dirty_count;
    uint64_t dirty_capacity;
    struct page_pool *pool;
};

/* `tail_bytes`: how much of the last block the array uses (an aperture of 64
 * pages uses 1 KiB of its one PTE block); only that much is zeroed when it is
 * backed, as nothing can reach the rest. */
int sparse_init(struct sparse *s, uint64_t blocks, uint32_t tail_bytes, struct page_pool *pool);
void sparse_fini(struct sparse *s);

/* The second-level table of every range nothing has touched yet: all its
 * pages NULL, never written. A directory entry always points somewhere, so
 * the fast paths below do not ask whether the table exists: whether it
 * does depends on what was touched before the last reset (tables outlive
 * it), and a branch on it would make the same input run differently
 * after different inputs. */
extern uint8_t *sparse_untouched_l2[];

/* The block's host page, or NULL when untouched (it reads as zeroes). */
static inline uint8_t *sparse_peek(const struct sparse *s, uint64_t block)
{
    return s->dir[block >> SPARSE_L2_BITS][block & (SPARSE_L2_SIZE - 1)];
}

/* A second-level table: SPARSE_L2_SIZE page pointers, then as many dirt
 * spans (page_pool.h): what of each page its writers have declared. */
static inline uint32_t *sparse_l2_dirt(uint8_t **l2)
{
    return (uint32_t *)(void *)(l2 + SPARSE_L2_SIZE);
}

/* The block's host page, backing it on first touch. The caller promises to
 * write nothing but bytes [keep_off, keep_off + keep_len) of the block, and
 * all of them at once (keep_len 0: anything, then nothing is overwritten).
 * A fresh block is zeroed only where its previous user's dirt and the kept
 * bytes do not overlap; every declared span widens the block's dirt, which
 * goes back to the pool with the page. NULL when the pool is exhausted. */
uint8_t *sparse_touch_slow(struct sparse *s, uint64_t block, uint32_t keep_off,
                           uint32_t keep_len);

static inline uint32_t sparse_dirt_widen(uint32_t d, uint32_t limit, uint32_t keep_off,
                                         uint32_t keep_len)
{
    if (!keep_len)
        return PAGE_DIRT(0, limit);
    uint32_t lo = keep_off, hi = keep_off + keep_len;
    if (d && PAGE_DIRT_LO(d) < lo)
        lo = PAGE_DIRT_LO(d);
    if (d && PAGE_DIRT_HI(d) > hi)
        hi = PAGE_DIRT_HI(d);
    return PAGE_DIRT(lo, hi);
}

static inline uint8_t *sparse_touch(struct sparse *s, uint64_t block, uint32_t keep_off,
                                    uint32_t keep_len)
{
    uint8_t **l2 = s->dir[block >> SPARSE_L2_BITS];
    uint64_t i = block & (SPARSE_L2_SIZE - 1);
    if (!l2[i])
        return sparse_touch_slow(s, block, keep_off, keep_len);
    uint32_t *d = sparse_l2_dirt(l2) + i;
    uint32_t limit = keep_len || block + 1 != s->blocks ? 4096u : s->tail_bytes;
    *d = sparse_dirt_widen(*d, limit, keep_off, keep_len);
    return l2[i];
}

/* Releases every block touched since the last reset. */
void sparse_reset(struct sparse *s);

#endif
