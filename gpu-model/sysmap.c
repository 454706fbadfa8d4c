/* SPDX-License-Identifier: MIT */
/*
 * sysmap.c - host mappings of system pages (wk_gpu_sysmem_map), as Windows
 * maps an MDL's scattered pages into system space.
 *
 * A mapping is a reservation of count pages between two PROT_NONE guard
 * pages (a write past the end, or before the start, faults at that
 * instruction, which the video memory manager reports as MEM-GUARD-001),
 * with each run of consecutive frames mapped over it from the memfd in one
 * mmap. The guard before: a buffer at the start of its mapping (a DMA
 * buffer, a paging buffer of the driver's own size) had whatever mapping
 * lay below it, so a driver writing before it wrote there unseen (found by
 * fuzz_hostile's answer-dma-byte).
 *
 * Why mappings are kept: a fuzz harness maps the same few buffers (a
 * context's DMA buffer, the paging buffer at another size) at the same frames
 * on almost every input, and a fresh mapping cost an mmap per run, a munmap,
 * and a page fault per page on first use. So an unmapped mapping stays,
 * made PROT_NONE (a stale pointer into it faults, as after a munmap), and the
 * next map of the very same frame list takes it back with one mprotect: its
 * page-table entries are still there. At most IDLE_MAX are kept (a fuzz
 * program may create a context, so a DMA-buffer mapping, a hundred times);
 * the one unmapped longest ago goes first.
 *
 * Retired mappings (wk_gpu_sysmem_retire): even that mprotect pair cost
 * ~120 us per buffer on this kind of VM (an mprotect of touched pages of a
 * shared mapping), 64 calls for a program of sixteen contexts. A host that
 * recycles the same buffers and checks for stale writes itself (the video
 * memory manager's DMA-buffer quarantine, reference-impl/vidmm/dma_quarantine.c)
 * retires a mapping instead: idle, but still read-write, so neither the
 * retire nor the next map of the same frames makes a system call. Its
 * frames were in the dirty set from the map on; the next reset zeroes them
 * and, the mapping being idle, does not put them back: from then on the
 * model counts them zero, and a write through the retired range is the
 * host's broken promise, unseen (include/wddmkit/gpu.h).
 *
 * Why not hand out a pointer into the model's own mapping for a contiguous
 * run (no system call at all): the page after the run is another system
 * page, not a guard, so an overrun would silently write the next buffer
 * instead of faulting.
 *
 * Dirty tracking (sysmem.c): the frames of a live mapping are in the dirty
 * set from the map on, and every reset puts them back after zeroing them.
 * An idle mapping cannot be written, so its frames leave the set at the next
 * reset like any others.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

#define IDLE_MAX 256u

static size_t bytes(uint64_t pages)
{
    return (size_t)pages << WK_GPU_PAGE_SHIFT;
}

static int pfn_in_pool(const struct wk_gpu *gpu, uint64_t pfn)
{
    return pfn >= gpu->desc.sysmem_first_pfn &&
           pfn - gpu->desc.sysmem_first_pfn < gpu->desc.sysmem_pages;
}

/* The reservation: the guard before, the pages, the guard after. */
static size_t reserved(uint64_t count)
{
    return bytes(count + 2);
}

/* Whether the frame list is one the model may map (0), or the error. */
static wk_status check_list(const struct wk_gpu *gpu, const uint64_t *pfns, uint64_t count)
{
    if (!pfns || count == 0 || count > gpu->desc.sysmem_pages)
        return WK_E_INVALID_ARGUMENT;
    for (uint64_t i = 0; i < count; i++)
        if (!pfn_in_pool(gpu, pfns[i]))
            return WK_E_INVALID_ARGUMENT;
    return gpu->sys.fd < 0 ? WK_E_NOT_SUPPORTED : WK_OK;
}

/* Forgets mapping i (unmapping it); the last one takes its slot. */
static void drop(struct sysmem *s, uint32_t i)
{
    munmap((uint8_t *)s->maps[i].va - bytes(1), reserved(s->maps[i].count));
    free(s->maps[i].pages);
    s->maps[i] = s->maps[--s->map_count];
}

/* Mapping m as the host asked: pages [0, w) read-write, the rest read-only,
 * from whatever it was (PROT_NONE when closed): a system call per part
 * that changes, none when nothing does. 0, or -1 when the kernel refused
 * (the caller drops the mapping: its protection is then unknown). */
static int lay_out(struct sysmap *m, uint64_t w)
{
    int rw = PROT_READ | PROT_WRITE;
    if (m->closed) {
        if (w && mprotect(m->va, bytes(w), rw) != 0)
            return -1;
        if (w < m->count && mprotect(m->va + bytes(w), bytes(m->count - w), PROT_READ) != 0)
            return -1;
    } else if (w > m->writable) {
        if (mprotect(m->va + bytes(m->writable), bytes(w - m->writable), rw) != 0)
            return -1;
    } else if (w < m->writable) {
        if (mprotect(m->va + bytes(w), bytes(m->writable - w), PROT_READ) != 0)
            return -1;
    }
    m->closed = 0;
    m->writable = w;
    return 0;
}

void sysmap_fini(struct wk_gpu *gpu)
{
    sysmap_release(&gpu->sys);
}

void sysmap_keep_idle(struct wk_gpu *gpu)
{
    struct sysmem *s = &gpu->sys;
    for (uint32_t i = s->map_count; i-- > 0;)
        if (s->maps[i].live) /* its pointer dies with the model */
            drop(s, i);
}

void sysmap_hand_over(struct sysmem *from, struct sysmem *to)
{
    to->maps = from->maps;
    to->map_count = from->map_count;
    to->map_capacity = from->map_capacity;
    to->clock = from->clock;
    from->maps = NULL;
    from->map_count = from->map_capacity = 0;
}

void sysmap_release(struct sysmem *s)
{
    while (s->map_count)
        drop(s, s->map_count - 1);
    free(s->maps);
    s->maps = NULL;
    s->map_capacity = 0;
}

void sysmap_mark_live(struct wk_gpu *gpu)
{
    const struct sysmem *s = &gpu->sys;
    for (uint32_t i = 0; i < s->map_count; i++)
        for (uint64_t k = 0; s->maps[i].live && k < s->maps[i].count; k++)
            sysmem_mark(gpu, s->maps[i].pages[k]);
}

static int same_pages(const struct sysmap *m, const uint64_t *pfns, uint64_t count, uint64_t first_pfn)
{
    if (m->count != count)
        return 0;
    for (uint64_t k = 0; k < count; k++)
        if (m->pages[k] != pfns[k] - first_pfn)
            return 0;
    return 1;
}

/* An idle mapping of exactly this frame list, or -1: the one already laid
 * out as asked (writable pages, then read-only ones: no system call to take
 * it back) if there is one, else any. */
static int64_t find_idle(const struct wk_gpu *gpu, const uint64_t *pfns, uint64_t count, uint64_t writable)
{
    const struct sysmem *s = &gpu->sys;
    int64_t any = -1;
    for (uint32_t i = 0; i < s->map_count; i++) {
        const struct sysmap *m = &s->maps[i];
        if (m->live || !same_pages(m, pfns, count, gpu->desc.sysmem_first_pfn))
            continue;
        if (!m->closed && m->writable == writable)
            return i;
        any = any < 0 ? i : any;
    }
    return any;
}

/* Reserves count pages and the two guards, then maps each run of
 * consecutive file pages over the reservation with one mmap. Returns the
 * first page (after the guard before); NULL when out of memory. */
static uint8_t *map_pages(const struct wk_gpu *gpu, const uint64_t *pages, uint64_t count)
{
    uint8_t *guard = mmap(NULL, reserved(count), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (guard == MAP_FAILED)
        return NULL;
    uint8_t *base = guard + bytes(1);
    uint64_t n;
    for (uint64_t i = 0; i < count; i += n) {
        for (n = 1; i + n < count && pages[i + n] == pages[i] + n; n++)
            ;
        off_t at = (off_t)bytes(pages[i]);
        if (mmap(base + bytes(i), bytes(n), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                 gpu->sys.fd, at) == MAP_FAILED) {
            munmap(guard, reserved(count));
            return NULL;
        }
    }
    return base;
}

/* A new live mapping in a new slot, all of it read-write; -1 when out of
 * memory. */
static int64_t create(struct wk_gpu *gpu, const uint64_t *pfns, uint64_t count)
{
    struct sysmem *s = &gpu->sys;
    if (s->map_count == s->map_capacity) {
        uint32_t cap = s->map_capacity ? s->map_capacity * 2 : 8;
        struct sysmap *m = realloc(s->maps, cap * sizeof(*m));
        if (!m)
            return -1;
        s->maps = m;
        s->map_capacity = cap;
    }
    struct sysmap m = { .count = count, .pages = malloc(count * sizeof(uint64_t)), .writable = count, .live = 1 };
    if (!m.pages)
        return -1;
    for (uint64_t k = 0; k < count; k++)
        m.pages[k] = pfns[k] - gpu->desc.sysmem_first_pfn;
    m.va = map_pages(gpu, m.pages, count);
    if (!m.va) {
        free(m.pages);
        return -1;
    }
    s->maps[s->map_count] = m;
    s->made++;
    return s->map_count++;
}

/* Takes idle mapping i back, laid out as asked: its page-table entries
 * intact, a system call per part whose protection changes (none for a
 * retired mapping already so). */
static int revive(struct sysmem *s, int64_t i, uint64_t writable)
{
    if (lay_out(&s->maps[i], writable) != 0) {
        drop(s, (uint32_t)i);
        return -1;
    }
    s->maps[i].live = 1;
    return 0;
}

wk_status wk_gpu_sysmem_map(struct wk_gpu *gpu, const uint64_t *pfns, uint64_t count, void **va)
{
    return wk_gpu_sysmem_map_writable(gpu, pfns, count, count, va);
}

wk_status wk_gpu_sysmem_map_writable(struct wk_gpu *gpu, const uint64_t *pfns, uint64_t count, uint64_t writable,
                                     void **va)
{
    if (!va || writable > count)
        return WK_E_INVALID_ARGUMENT;
    wk_status st = check_list(gpu, pfns, count);
    if (st != WK_OK)
        return st;
    int64_t i = find_idle(gpu, pfns, count, writable);
    if (i < 0 || revive(&gpu->sys, i, writable) != 0) {
        i = create(gpu, pfns, count);
        if (i >= 0 && lay_out(&gpu->sys.maps[i], writable) != 0) {
            drop(&gpu->sys, (uint32_t)i);
            i = -1;
        }
    }
    if (i < 0)
        return WK_E_NO_MEMORY;
    /* Writable by the host from now on: in the dirty set before it can be. */
    for (uint64_t k = 0; k < count; k++)
        sysmem_mark(gpu, pfns[k] - gpu->desc.sysmem_first_pfn);
    *va = gpu->sys.maps[i].va;
    return WK_OK;
}

uint64_t wk_gpu_sysmem_mappings(const struct wk_gpu *gpu)
{
    return gpu->sys.made;
}

/* Keeps at most IDLE_MAX idle mappings: unmaps the one idle longest. */
static void trim_idle(struct sysmem *s)
{
    uint32_t idle = 0, oldest = 0;
    for (uint32_t i = 0; i < s->map_count; i++) {
        if (s->maps[i].live)
            continue;
        if (!idle++ || s->maps[i].last_use < s->maps[oldest].last_use)
            oldest = i;
    }
    if (idle > IDLE_MAX)
        drop(s, oldest);
}

/* The live mapping at va; -1 when there is none. */
static int64_t find_live(const struct sysmem *s, const void *va)
{
    for (uint32_t i = 0; va && i < s->map_count; i++)
        if (s->maps[i].live && s->maps[i].va == va)
            return i;
    return -1;
}

wk_status wk_gpu_sysmem_set_writable(struct wk_gpu *gpu, void *va, uint64_t writable)
{
    struct sysmem *s = &gpu->sys;
    int64_t i = find_live(s, va);
    if (i < 0 || writable > s->maps[i].count)
        return WK_E_INVALID_ARGUMENT;
    if (lay_out(&s->maps[i], writable) != 0) {
        /* its protection is now unknown: inaccessible until unmapped */
        if (mprotect(s->maps[i].va, bytes(s->maps[i].count), PROT_NONE) == 0)
            s->maps[i].closed = 1;
        return WK_E_NO_MEMORY;
    }
    return WK_OK;
}

/* The live mapping at va, made idle; -1 when there is none. */
static int64_t end_live(struct sysmem *s, const void *va)
{
    for (uint32_t i = 0; va && i < s->map_count; i++) {
        struct sysmap *m = &s->maps[i];
        if (!m->live || m->va != va)
            continue;
        m->live = 0;
        m->last_use = ++s->clock;
        return i;
    }
    return -1;
}

void wk_gpu_sysmem_unmap(struct wk_gpu *gpu, void *va, uint64_t count)
{
    struct sysmem *s = &gpu->sys;
    (void)count; /* the mapping knows its size */
    int64_t i = end_live(s, va);
    if (i < 0)
        return;
    if (!s->maps[i].closed && mprotect(s->maps[i].va, bytes(s->maps[i].count), PROT_NONE) != 0) {
        drop(s, (uint32_t)i); /* cannot make it unwritable: really unmap it */
        return;
    }
    s->maps[i].closed = 1;
    trim_idle(s);
}

void wk_gpu_sysmem_retire(struct wk_gpu *gpu, void *va)
{
    struct sysmem *s = &gpu->sys;
    int64_t i = end_live(s, va);
    if (i < 0)
        return;
    /* as the host left it (its frames stay in the dirty set until the next reset) */
    trim_idle(s);
}
