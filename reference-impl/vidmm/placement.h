/* SPDX-License-Identifier: MIT */
/*
 * placement.h - the placement heap of the reference video memory manager
 * (private to reference-impl/vidmm).
 *
 * A heap hands out byte ranges of one GPU segment, [0, size). It answers
 * "where does a block of this size and alignment go, inside this window,
 * scanning from this end" in O(log n) for n blocks, and nothing more: which
 * allocation to evict, which segment or bank to try, and when to page are
 * the caller's policy (placement.c explains the design and its limits).
 *
 * Offsets are relative to the segment: the caller adds the segment base.
 * A heap is single-threaded; separate heaps are independent. There is no
 * global state.
 */
#ifndef WK_VIDMM_PLACEMENT_H
#define WK_VIDMM_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "wddmkit/status.h"

struct wk_place_heap;

/* One placement question for wk_place_alloc. */
struct wk_place_request {
    uint64_t size;      /* bytes, > 0 */
    uint64_t alignment; /* power of two; 0 means 1 */
    uint64_t lo, hi;    /* the block lies entirely inside [lo, hi); hi 0 means the heap size */
    int top_down;       /* 0: lowest fitting address (bottom-up scan), 1: highest (top-down) */
};

/*
 * Creates a heap managing the offsets [0, size), all of them free.
 *   size: IN, bytes managed, > 0 (any value up to UINT64_MAX)
 *   out:  OUT, the new heap
 * Returns: WK_OK; WK_E_INVALID_ARGUMENT (size 0, out NULL); WK_E_NO_MEMORY.
 */
wk_status wk_place_create(uint64_t size, struct wk_place_heap **out);

/*
 * Destroys a heap and every block still allocated in it.
 *   h: IN, the heap, or NULL (nothing happens)
 */
void wk_place_destroy(struct wk_place_heap *h);

/*
 * Finds and reserves a block for a request.
 *   h:      IN/OUT, the heap
 *   req:    IN, size, alignment, window [lo, hi) and scan direction
 *   offset: OUT, the start of the block (untouched on failure)
 * Bottom-up takes the lowest free range that fits and the lowest aligned
 * offset in it; top-down the highest range and the highest aligned offset.
 * The search is one descent of the free tree; the exact fit guarantee (all
 * fits are found when alignment is 1 or every free start inside the window
 * is a multiple of the alignment, and always one holding size + alignment - 1
 * bytes) is spelled out under "Fit guarantee" in placement.c.
 * Returns: WK_OK; WK_E_NO_SPACE when no block fits (heap unchanged);
 * WK_E_INVALID_ARGUMENT for a NULL pointer, size 0, an alignment that is not
 * a power of two, lo >= hi, hi beyond the heap or top_down other than 0/1;
 * WK_E_NO_MEMORY (heap unchanged).
 */
wk_status wk_place_alloc(struct wk_place_heap *h, const struct wk_place_request *req,
                         uint64_t *offset);

/*
 * Reserves exactly [offset, offset + size), e.g. a range the firmware owns.
 *   h:      IN/OUT, the heap
 *   offset: IN, start of the range
 *   size:   IN, bytes, > 0
 * Returns: WK_OK; WK_E_NO_SPACE when any byte of the range is allocated
 * (heap unchanged); WK_E_OUT_OF_RANGE when the range runs past the end of
 * the heap; WK_E_INVALID_ARGUMENT for h NULL, size 0 or offset + size
 * overflowing; WK_E_NO_MEMORY (heap unchanged).
 */
wk_status wk_place_reserve(struct wk_place_heap *h, uint64_t offset, uint64_t size);

/*
 * Releases the block that starts at offset, merging it with free neighbours.
 *   h:      IN/OUT, the heap
 *   offset: IN, the start of an allocated block (as wk_place_alloc returned it
 *           or wk_place_reserve was given it)
 * Never allocates, so it cannot fail for lack of memory.
 * Returns: WK_OK; WK_E_INVALID_ARGUMENT when h is NULL or no allocated block
 * starts at offset (inside a block, free space, double free).
 */
wk_status wk_place_free(struct wk_place_heap *h, uint64_t offset);

/*
 * Total free bytes, in O(1).
 *   h: IN, the heap (NULL reads as empty: 0)
 * Returns: the number of bytes in no block.
 */
uint64_t wk_place_free_bytes(const struct wk_place_heap *h);

/*
 * Length of the longest free range, in O(1): no request with alignment 1
 * and the full window larger than this can succeed.
 *   h: IN, the heap (NULL: 0)
 * Returns: the length in bytes, 0 when the heap is full.
 */
uint64_t wk_place_largest_free(const struct wk_place_heap *h);

/*
 * Number of allocated blocks (allocs plus reserves not yet freed), in O(1).
 *   h: IN, the heap (NULL: 0)
 * Returns: the count.
 */
uint64_t wk_place_count(const struct wk_place_heap *h);

/*
 * Steps through the allocated blocks in address order.
 *   h:      IN, the heap
 *   cursor: IN/OUT, set to 0 before the first call; afterwards the address
 *           the next search starts from (the end of the block just returned)
 *   offset: OUT, start of the block (may be NULL)
 *   size:   OUT, size of the block (may be NULL)
 * Each step is an O(log n) lookup, so the heap may change between steps:
 * blocks at or above the cursor are still found, blocks below it are not
 * revisited.
 * Returns: 1 when a block was produced, 0 at the end (or h/cursor NULL).
 */
int wk_place_next(const struct wk_place_heap *h, uint64_t *cursor, uint64_t *offset,
                  uint64_t *size);

/*
 * Gives both trees the shape their contents alone decide (balanced by
 * halves), whatever sequence of allocations and frees built them. Where a
 * request lands does not depend on the shape when its alignment is the
 * heap's granularity, but may otherwise (the search's guarantee above),
 * and the search's path always does: the video memory manager rebuilds
 * its heaps at a reset so that an input runs the same way on a reset
 * adapter whatever ran before. O(n), no allocation.
 *   h: IN/OUT, the heap, or NULL (nothing happens)
 */
void wk_place_rebuild(struct wk_place_heap *h);

/*
 * Height of the taller of the heap's two trees (free ranges, allocated
 * blocks); 0 for an empty tree, 1 for a single node. An AVL tree of n nodes
 * is at most about 1.44 log2(n + 2) high; tests check that bound.
 *   h: IN, the heap (NULL: 0)
 * Returns: the height.
 */
unsigned wk_place_height(const struct wk_place_heap *h);

/*
 * Debug invariant walk, O(n log n): the free and allocated blocks tile
 * [0, size) exactly, no two free ranges touch (coalesced), both trees are
 * ordered and AVL-balanced with correct heights, subtree maxima and
 * alignment summaries, and the O(1) counters agree with the trees.
 *   h:        IN, the heap
 *   why:      OUT, optional, receives a one-line reason on failure (NULL to
 *             skip; truncated to why_size)
 *   why_size: IN, bytes at why
 * Returns: WK_OK; WK_E_INVALID_ARGUMENT when an invariant is broken (or h is
 * NULL).
 */
wk_status wk_place_check(const struct wk_place_heap *h, char *why, size_t why_size);

/*
 * Complexity probe: how many free-tree nodes the search of the last
 * wk_place_alloc that got past argument checks looked at (the window-edge
 * lookups not counted). Tests bound it by a multiple of the height, which
 * proves the single descent without measuring time.
 *   h: IN, the heap (NULL: 0)
 * Returns: the node count.
 */
uint64_t wk_place_last_visits(const struct wk_place_heap *h);

/*
 * Test hook (curl's torture mode): makes the nth node allocation from now on
 * fail, once, so tests can prove a WK_E_NO_MEMORY leaves the heap unchanged.
 *   h:   IN/OUT, the heap
 *   nth: IN, 1 fails the next allocation, 2 the one after; 0 disarms
 */
void wk_place_fail_nth_alloc(struct wk_place_heap *h, uint64_t nth);

#endif /* WK_VIDMM_PLACEMENT_H */
