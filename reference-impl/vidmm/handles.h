/* SPDX-License-Identifier: MIT */
/*
 * handles.h - the object tables of the reference video memory manager
 * (devices, contexts, allocations) and the map from the driver's allocation
 * handles to the kit's (private to reference-impl/vidmm).
 *
 * A handle names a slot and the slot's generation:
 *
 *     kit handle (what wk_vidmm_* return)  generation:12 | slot:20
 *     runtime handle (what the driver sees) tag:4 | generation mod 256:8 | slot:20
 *
 * Slots are 1-based, so no handle is 0, and a slot's generation starts at 0:
 * the first object in each slot has the handle it had when handles were
 * plain indices (1, 2, 3 ...). Freeing a slot bumps its generation, so a
 * stale handle (the caller's or the driver's) names no object, and the
 * checks that catch a driver passing a destroyed or made-up handle still
 * fire once the slot holds another object (CTXALLOC-HANDLE-001,
 * CTXALLOC-ARGS-001). The runtime form keeps the top four bits of the low
 * 32 for the tag (objects.c, ctxalloc.c), so the driver sees eight bits of
 * the generation.
 *
 * Freed slots wait in a FIFO and come back only while more than
 * `quarantine` (HT_QUARANTINE) are waiting, or when the table has reached
 * its ceiling: an adapter that creates no more objects of a kind between
 * resets than the old fixed table held (4096, never reused) hands out
 * exactly the handles it always did (so do the committed corpus and the
 * regression cases), and a stale handle is mistaken for a live one only
 * after its slot came back 4096 times (256 times for the driver's view),
 * each time behind 4096 other freed slots.
 *
 * Storage grows in chunks of doubling size that never move (a pointer to
 * an object stays valid across a DDI call that creates more): a fresh
 * adapter holds 16 slots of each kind, 1M slots take 17 chunks. Every
 * operation is O(1) except ht_clear (O(slots used)) and the iterator's
 * fallback described at ht_iter_next.
 */
#ifndef WK_VIDMM_HANDLES_H
#define WK_VIDMM_HANDLES_H

#include <stddef.h>
#include <stdint.h>

#define HT_SLOT_BITS 20u
#define HT_SLOT_MASK ((1u << HT_SLOT_BITS) - 1u)
#define HT_GEN_MASK 0xFFFu
#define HT_RUNTIME_GEN_MASK 0xFFu
#define HT_MAX_SLOTS HT_SLOT_MASK   /* 1,048,575 objects of a kind at once */
#define HT_QUARANTINE 4096u         /* freed slots that wait before one comes back */
#define HT_FIRST_CHUNK 16u          /* slots of chunk 0; chunk k holds 16 << k */
#define HT_CHUNKS 17u               /* enough for HT_MAX_SLOTS */

/* Per slot: in use or not, its generation, its place in creation order
 * (live slots) or in the free FIFO (freed ones: next only). */
struct ht_meta {
    uint64_t serial;    /* creation serial of the object in the slot (table-wide, from 1) */
    uint16_t gen;
    uint16_t used;
    uint32_t prev, next;
};

struct handle_table {
    size_t item_size;
    uint32_t limit;         /* most slots: HT_MAX_SLOTS (tests lower it) */
    uint32_t quarantine;    /* HT_QUARANTINE (tests lower it) */
    uint32_t top;           /* slots handed out at least once since init or clear: 1..top */
    uint32_t capacity;      /* slots the chunks hold */
    uint32_t nchunks;
    uint32_t live, live_head, live_tail;    /* slots in use, oldest first (slot numbers) */
    uint32_t nfree, free_head, free_tail;   /* freed slots, first freed first */
    uint64_t serial;
    void *chunk[HT_CHUNKS]; /* ht_meta[n] then the items */
};

/* An empty table of `item_size`-byte objects; allocates nothing yet. */
void ht_init(struct handle_table *t, size_t item_size);
/* Frees the chunks (the objects' own resources are the caller's). */
void ht_free(struct handle_table *t);
/* Back to "as after init" (every slot free, generations 0, handles from 1
 * again), keeping the chunks: a reset adapter hands out the handles a
 * fresh one does. Zeroes the slots used. */
void ht_clear(struct handle_table *t);

/* A zeroed object in a new slot; its handle, or 0 at the ceiling (every
 * slot in use) or out of memory. */
uint32_t ht_new(struct handle_table *t);
/* Frees the slot `handle` names (a live handle: the caller checked): its
 * generation bumps and it joins the free FIFO. The object's bytes stay
 * as they are until the slot is handed out again. */
void ht_release(struct handle_table *t, uint32_t handle);
/* The object `handle` names, or NULL: 0, a slot not in use, an older
 * generation, a slot past the table. */
void *ht_get(const struct handle_table *t, uint32_t handle);
/* The object in slot `slot` (1..top) whether in use or not, for links
 * between objects that the table keeps current (the LRU lists). */
void *ht_slot(const struct handle_table *t, uint32_t slot);
/* The handle of the object in a slot in use. */
uint32_t ht_handle(const struct handle_table *t, uint32_t slot);
static inline uint32_t ht_slot_of(uint32_t handle)
{
    return handle & HT_SLOT_MASK;
}

/* The 28 bits a runtime handle carries under its tag, and back: the
 * handle of the live object they name, or 0. */
static inline uint32_t ht_runtime_bits(uint32_t handle)
{
    return ((handle >> HT_SLOT_BITS) & HT_RUNTIME_GEN_MASK) << HT_SLOT_BITS | (handle & HT_SLOT_MASK);
}
uint32_t ht_from_runtime_bits(const struct handle_table *t, uint32_t bits);

/* The live objects in creation order. The loop body may free the object
 * it visits, free others and create new ones: every object alive all
 * along is visited once, in creation order, and so is every one created
 * before the loop reaches it (as a loop over plain indices did).
 *
 *     struct ht_iter it;
 *     for (uint32_t h = ht_iter_first(t, &it); h; h = ht_iter_next(t, &it))
 */
struct ht_iter {
    uint32_t handle, next;
    uint64_t serial, next_serial;
};
uint32_t ht_iter_first(const struct handle_table *t, struct ht_iter *it);
/* O(1), unless the body freed the object that came next (then a walk back
 * from the newest object: a driver destroying one object while the kit
 * destroys another). */
uint32_t ht_iter_next(const struct handle_table *t, struct ht_iter *it);

/* ------------------------------------------------------------------ */
/* Driver handle -> kit handle (handle_map.c)                          */
/* ------------------------------------------------------------------ */

/* An open-addressing multimap (linear probing, backward-shift deletion, no
 * tombstones) from a driver's handle to the kit handles of the live
 * allocations that carry it: CreateAllocation's "already in use" check in
 * O(1) instead of a walk over every allocation. Nothing iterates it, so its
 * layout never decides an order. */
struct handle_map_entry {
    uintptr_t key;      /* the driver's handle */
    uint32_t value;     /* the kit handle; 0: empty */
};
struct handle_map {
    struct handle_map_entry *e;
    uint32_t mask;      /* capacity - 1 (capacity a power of two, or 0) */
    uint32_t count;
};
void hmap_init(struct handle_map *m);
void hmap_free(struct handle_map *m);
void hmap_clear(struct handle_map *m);
/* Adds key -> value (value != 0); 0, or -1 out of memory. */
int hmap_insert(struct handle_map *m, uintptr_t key, uint32_t value);
/* Removes the one entry key -> value (nothing when there is none). */
void hmap_remove(struct handle_map *m, uintptr_t key, uint32_t value);
/* A value stored under key, 0 when none is. */
uint32_t hmap_find(const struct handle_map *m, uintptr_t key);

#endif /* WK_VIDMM_HANDLES_H */
