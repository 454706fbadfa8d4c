/* SPDX-License-Identifier: MIT */
/*
 * handles.c - the object tables: slots with generations, a free FIFO with
 * a quarantine, creation order, chunked storage that never moves
 * (handles.h says why each).
 */
#include <stdlib.h>
#include <string.h>

#include "handles.h"

#define META_BYTES(n) (((size_t)(n) * sizeof(struct ht_meta) + 15u) & ~(size_t)15u)

/* Slot s (1-based) lives in chunk k at index i: with p = s + 15,
 * k = floor(log2 p) - 4 and i = p - (16 << k). */
static unsigned chunk_of(uint32_t slot, uint32_t *index)
{
    uint32_t p = slot + (HT_FIRST_CHUNK - 1u);
    unsigned k = (unsigned)(31 - __builtin_clz(p)) - 4u;
    *index = p - (HT_FIRST_CHUNK << k);
    return k;
}

/* Chunk k's slot count: 16 << k, the last one cut at HT_MAX_SLOTS. */
static uint32_t chunk_slots(unsigned k)
{
    uint32_t first_p = HT_FIRST_CHUNK << k, end_p = HT_MAX_SLOTS + HT_FIRST_CHUNK;
    uint32_t n = HT_FIRST_CHUNK << k;
    return end_p - first_p < n ? end_p - first_p : n;
}

static struct ht_meta *meta(const struct handle_table *t, uint32_t slot)
{
    uint32_t i;
    unsigned k = chunk_of(slot, &i);
    return (struct ht_meta *)t->chunk[k] + i;
}

void *ht_slot(const struct handle_table *t, uint32_t slot)
{
    uint32_t i;
    unsigned k = chunk_of(slot, &i);
    return (uint8_t *)t->chunk[k] + META_BYTES(chunk_slots(k)) + (size_t)i * t->item_size;
}

void ht_init(struct handle_table *t, size_t item_size)
{
    memset(t, 0, sizeof(*t));
    t->item_size = item_size;
    t->limit = HT_MAX_SLOTS;
    t->quarantine = HT_QUARANTINE;
}

void ht_free(struct handle_table *t)
{
    for (unsigned k = 0; k < t->nchunks; k++)
        free(t->chunk[k]);
    size_t item_size = t->item_size;
    ht_init(t, item_size);
}

void ht_clear(struct handle_table *t)
{
    for (uint32_t s = 1; s <= t->top; s++) {
        memset(meta(t, s), 0, sizeof(struct ht_meta));
        memset(ht_slot(t, s), 0, t->item_size);
    }
    t->top = 0;
    t->live = t->live_head = t->live_tail = 0;
    t->nfree = t->free_head = t->free_tail = 0;
    t->serial = 0;
}

static int grow(struct handle_table *t)
{
    if (t->nchunks == HT_CHUNKS)
        return 0;
    unsigned k = t->nchunks;
    uint32_t n = chunk_slots(k);
    void *c = calloc(1, META_BYTES(n) + (size_t)n * t->item_size);
    if (!c)
        return 0;
    t->chunk[k] = c;
    t->nchunks++;
    t->capacity += n;
    return 1;
}

uint32_t ht_handle(const struct handle_table *t, uint32_t slot)
{
    return (uint32_t)meta(t, slot)->gen << HT_SLOT_BITS | slot;
}

/* A slot to hand out: a freed one once more than `quarantine` wait (or the
 * table is full), else the next never used; 0 when there is none. */
static uint32_t take_slot(struct handle_table *t)
{
    if (t->nfree && (t->nfree > t->quarantine || t->top >= t->limit)) {
        uint32_t s = t->free_head;
        t->free_head = meta(t, s)->next;
        if (!t->free_head)
            t->free_tail = 0;
        t->nfree--;
        return s;
    }
    if (t->top >= t->limit || (t->top == t->capacity && !grow(t)))
        return 0;
    return ++t->top;
}

uint32_t ht_new(struct handle_table *t)
{
    uint32_t s = take_slot(t);
    if (!s)
        return 0;
    struct ht_meta *m = meta(t, s);
    memset(ht_slot(t, s), 0, t->item_size);
    m->used = 1;
    m->serial = ++t->serial;
    m->prev = t->live_tail;
    m->next = 0;
    if (t->live_tail)
        meta(t, t->live_tail)->next = s;
    else
        t->live_head = s;
    t->live_tail = s;
    t->live++;
    return ht_handle(t, s);
}

void ht_release(struct handle_table *t, uint32_t handle)
{
    uint32_t s = ht_slot_of(handle);
    struct ht_meta *m = meta(t, s);
    if (m->prev)
        meta(t, m->prev)->next = m->next;
    else
        t->live_head = m->next;
    if (m->next)
        meta(t, m->next)->prev = m->prev;
    else
        t->live_tail = m->prev;
    t->live--;
    m->used = 0;
    m->gen = (uint16_t)((m->gen + 1u) & HT_GEN_MASK);
    m->prev = 0;
    m->next = 0;
    if (t->free_tail)
        meta(t, t->free_tail)->next = s;
    else
        t->free_head = s;
    t->free_tail = s;
    t->nfree++;
}

void *ht_get(const struct handle_table *t, uint32_t handle)
{
    uint32_t s = ht_slot_of(handle);
    if (s == 0 || s > t->top)
        return NULL;
    const struct ht_meta *m = meta(t, s);
    if (!m->used || m->gen != handle >> HT_SLOT_BITS)
        return NULL;
    return ht_slot(t, s);
}

uint32_t ht_from_runtime_bits(const struct handle_table *t, uint32_t bits)
{
    uint32_t s = bits & HT_SLOT_MASK;
    if (s == 0 || s > t->top)
        return 0;
    const struct ht_meta *m = meta(t, s);
    if (!m->used || (m->gen & HT_RUNTIME_GEN_MASK) != (bits >> HT_SLOT_BITS & HT_RUNTIME_GEN_MASK) ||
        bits >> (HT_SLOT_BITS + 8u))
        return 0;
    return ht_handle(t, s);
}

/* ------------------------------------------------------------------ */
/* Creation order                                                       */
/* ------------------------------------------------------------------ */

/* it now stands on slot s (0: the end). */
static uint32_t iter_at(const struct handle_table *t, struct ht_iter *it, uint32_t s)
{
    if (!s) {
        it->handle = it->next = 0;
        return 0;
    }
    const struct ht_meta *m = meta(t, s);
    it->handle = ht_handle(t, s);
    it->serial = m->serial;
    it->next = m->next ? ht_handle(t, m->next) : 0;
    it->next_serial = m->next ? meta(t, m->next)->serial : 0;
    return it->handle;
}

/* The object `handle` names is still the one created with `serial`. */
static int still(const struct handle_table *t, uint32_t handle, uint64_t serial)
{
    return ht_get(t, handle) && meta(t, ht_slot_of(handle))->serial == serial;
}

uint32_t ht_iter_first(const struct handle_table *t, struct ht_iter *it)
{
    it->serial = 0;
    return iter_at(t, it, t->live_head);
}

uint32_t ht_iter_next(const struct handle_table *t, struct ht_iter *it)
{
    if (!it->handle)
        return 0;
    if (it->next && still(t, it->next, it->next_serial))
        return iter_at(t, it, ht_slot_of(it->next));
    if (still(t, it->handle, it->serial)) /* what comes after it now (objects created since) */
        return iter_at(t, it, meta(t, ht_slot_of(it->handle))->next);
    /* Both gone: the oldest object created after the one visited. Serials
     * grow along the list, so walk back from the newest. */
    uint32_t s = t->live_tail, found = 0;
    while (s && meta(t, s)->serial > it->serial) {
        found = s;
        s = meta(t, s)->prev;
    }
    return iter_at(t, it, found);
}
