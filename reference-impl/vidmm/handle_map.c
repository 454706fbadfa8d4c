/* SPDX-License-Identifier: MIT */
/*
 * handle_map.c - the driver's allocation handles -> the kit's (handles.h):
 * open addressing with linear probing, kept at most half full, deletion by
 * backward shift so that no tombstone lengthens a probe. The hash is a
 * fixed multiplication (no seed): the same operations give the same table.
 */
#include <stdlib.h>
#include <string.h>

#include "handles.h"

#define HMAP_MIN 64u

static uint32_t home(const struct handle_map *m, uintptr_t key)
{
    uint64_t k = (uint64_t)key;
    k ^= k >> 29; /* pool pointers differ in their middle bits */
    return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & m->mask;
}

void hmap_init(struct handle_map *m)
{
    memset(m, 0, sizeof(*m));
}

void hmap_free(struct handle_map *m)
{
    free(m->e);
    hmap_init(m);
}

void hmap_clear(struct handle_map *m)
{
    if (m->e)
        memset(m->e, 0, ((size_t)m->mask + 1u) * sizeof(*m->e));
    m->count = 0;
}

static void put(struct handle_map *m, uintptr_t key, uint32_t value)
{
    uint32_t i = home(m, key);
    while (m->e[i].value)
        i = (i + 1u) & m->mask;
    m->e[i].key = key;
    m->e[i].value = value;
    m->count++;
}

static int resize(struct handle_map *m, uint32_t capacity)
{
    struct handle_map bigger = { calloc(capacity, sizeof(*m->e)), capacity - 1u, 0 };
    if (!bigger.e)
        return -1;
    for (uint32_t i = 0; m->e && i <= m->mask; i++)
        if (m->e[i].value)
            put(&bigger, m->e[i].key, m->e[i].value);
    free(m->e);
    *m = bigger;
    return 0;
}

int hmap_insert(struct handle_map *m, uintptr_t key, uint32_t value)
{
    uint32_t capacity = m->e ? m->mask + 1u : 0;
    if ((m->count + 1u) * 2u > capacity && resize(m, capacity ? capacity * 2u : HMAP_MIN) != 0)
        return -1;
    put(m, key, value);
    return 0;
}

uint32_t hmap_find(const struct handle_map *m, uintptr_t key)
{
    if (!m->e)
        return 0;
    for (uint32_t i = home(m, key); m->e[i].value; i = (i + 1u) & m->mask)
        if (m->e[i].key == key)
            return m->e[i].value;
    return 0;
}

/* Empties slot i and moves back every later entry of the run that may
 * sit at i instead (its home is not in (i, j]), so that no run has a gap. */
static void erase_at(struct handle_map *m, uint32_t i)
{
    uint32_t j = i;
    for (;;) {
        j = (j + 1u) & m->mask;
        if (!m->e[j].value)
            break;
        uint32_t h = home(m, m->e[j].key);
        int stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
        if (stays)
            continue;
        m->e[i] = m->e[j];
        i = j;
    }
    m->e[i].key = 0;
    m->e[i].value = 0;
    m->count--;
}

void hmap_remove(struct handle_map *m, uintptr_t key, uint32_t value)
{
    if (!m->e)
        return;
    for (uint32_t i = home(m, key); m->e[i].value; i = (i + 1u) & m->mask)
        if (m->e[i].key == key && m->e[i].value == value) {
            erase_at(m, i);
            return;
        }
}
