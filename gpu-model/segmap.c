/* SPDX-License-Identifier: MIT */
/*
 * segmap.c - the CPU view of video memory: host mappings of a mappable
 * segment's own bytes (wk_gpu_segment_map), what a BAR over a CPU-visible
 * segment gives a driver through MmMapIoSpace (facts 5.5 G6: the segment's
 * CpuTranslatedAddress).
 *
 * A mappable segment lives in the memfd behind system memory (sysmem.c), so
 * a mapping is one mmap of a run of that file between two PROT_NONE guard
 * pages, as sysmap.c maps system pages: what the host writes is the
 * segment's memory, which the model, its views and the GPU's commands read
 * in place, and a write past either end faults at that instruction.
 *
 * What the host may have written. The model cannot see a store through a
 * mapping, so every page a mapping covers may hold data from the map on,
 * and until the reset after its unmap (the GPU may still read what the CPU
 * uploaded). System-page mappings put their pages in the set (sysmem.c) at
 * every reset; a segment mapping is commonly the whole BAR, 128 MiB or
 * more, and listing its 32,768 pages per reset, then zeroing them, would
 * cost a memset of the segment per fuzz input. So the pages are kept as
 * one hull, [host_lo, host_hi) of the file, two numbers:
 *   - a read of a page outside the set but in the hull goes through the
 *     model's mapping (the host may have written it);
 *   - reset punches the hull out of the file (fallocate PUNCH_HOLE), which
 *     costs the kernel what the file holds there, i.e. the pages touched,
 *     and zeroes every mapping of them at once; then the hull becomes that
 *     of the mappings still live;
 *   - wk_gpu_resident_pages counts the hull's pages the file holds
 *     (SEEK_DATA / SEEK_HOLE), which is what the host did touch.
 * Mappings are made and unmapped for real (no idle reuse as in sysmap.c): a
 * driver maps its BAR once per adapter, not once per fuzz input.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, SEEK_DATA */

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

static size_t bytes_of(uint64_t pages)
{
    return (size_t)pages << WK_GPU_PAGE_SHIFT;
}

/* Maps `pages` pages of the memfd from `first_page` between two guard
 * pages; the first page, or NULL. */
static uint8_t *map_run(const struct wk_gpu *gpu, uint64_t first_page, uint64_t pages, uint8_t **guard)
{
    *guard = mmap(NULL, bytes_of(pages + 2), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (*guard == MAP_FAILED)
        return NULL;
    uint8_t *base = *guard + bytes_of(1);
    if (mmap(base, bytes_of(pages), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, gpu->sys.fd,
             (off_t)bytes_of(first_page)) == MAP_FAILED) {
        munmap(*guard, bytes_of(pages + 2));
        return NULL;
    }
    return base;
}

/* Widens the hull to pages [first, first + pages). */
static void hull_add(struct sysmem *s, uint64_t first, uint64_t pages)
{
    if (s->host_hi <= s->host_lo) {
        s->host_lo = first;
        s->host_hi = first + pages;
        return;
    }
    s->host_lo = first < s->host_lo ? first : s->host_lo;
    s->host_hi = first + pages > s->host_hi ? first + pages : s->host_hi;
}

static wk_status check_range(const struct wk_gpu *gpu, uint32_t segment_id, uint64_t offset, uint64_t bytes,
                             void **va, struct region **out)
{
    struct region *r = space_segment(gpu, segment_id);
    if (!r || !va || bytes == 0)
        return WK_E_INVALID_ARGUMENT;
    if (offset > r->size || bytes > r->size - offset)
        return WK_E_CROSSES_SEGMENT;
    if (!r->host || gpu->sys.fd < 0) /* sparse (not made mappable), an aperture, or no memfd */
        return WK_E_NOT_SUPPORTED;
    if (gpu->sys.segmap_count == WK_GPU_MAX_SEGMENT_MAPS)
        return WK_E_LIMIT;
    *out = r;
    return WK_OK;
}

wk_status wk_gpu_segment_map(struct wk_gpu *gpu, uint32_t segment_id, uint64_t offset, uint64_t bytes,
                             void **va)
{
    struct region *r = NULL;
    wk_status st = check_range(gpu, segment_id, offset, bytes, va, &r);
    if (st != WK_OK)
        return st;
    struct sysmem *s = &gpu->sys;
    if (!s->segmaps && !(s->segmaps = calloc(WK_GPU_MAX_SEGMENT_MAPS, sizeof(*s->segmaps))))
        return WK_E_NO_MEMORY;
    uint64_t first = offset >> WK_GPU_PAGE_SHIFT;
    uint64_t pages = ((offset + bytes - 1) >> WK_GPU_PAGE_SHIFT) - first + 1;
    struct segmap m = { NULL, NULL, pages, (r->pool_off >> WK_GPU_PAGE_SHIFT) + first };
    uint8_t *base = map_run(gpu, m.first_page, pages, &m.guard);
    if (!base)
        return WK_E_NO_MEMORY;
    m.va = base + (offset & (WK_GPU_PAGE_SIZE - 1));
    s->segmaps[s->segmap_count++] = m;
    hull_add(s, m.first_page, pages); /* writable by the host from now on */
    *va = m.va;
    return WK_OK;
}

wk_status wk_gpu_segment_unmap(struct wk_gpu *gpu, void *va)
{
    struct sysmem *s = &gpu->sys;
    for (uint32_t i = 0; va && i < s->segmap_count; i++) {
        if (s->segmaps[i].va != va)
            continue;
        /* The hull keeps its pages until the next reset: what the host
         * wrote stays for the GPU to read. */
        munmap(s->segmaps[i].guard, bytes_of(s->segmaps[i].pages + 2));
        s->segmaps[i] = s->segmaps[--s->segmap_count];
        return WK_OK;
    }
    return WK_E_NOT_FOUND;
}

void segmap_mark_live(struct wk_gpu *gpu)
{
    struct sysmem *s = &gpu->sys;
    s->host_lo = s->host_hi = 0;
    for (uint32_t i = 0; i < s->segmap_count; i++)
        hull_add(s, s->segmaps[i].first_page, s->segmaps[i].pages);
}

void segmap_fini(struct wk_gpu *gpu)
{
    struct sysmem *s = &gpu->sys;
    while (s->segmap_count) {
        struct segmap *m = &s->segmaps[--s->segmap_count];
        munmap(m->guard, bytes_of(m->pages + 2));
    }
    free(s->segmaps);
    s->segmaps = NULL;
}

uint64_t segmap_resident(const struct wk_gpu *gpu)
{
    const struct sysmem *s = &gpu->sys;
    uint64_t n = 0;
    off_t end = (off_t)bytes_of(s->host_hi);
    for (off_t at = (off_t)bytes_of(s->host_lo); s->fd >= 0 && at < end;) {
        off_t data = lseek(s->fd, at, SEEK_DATA);
        if (data < 0 || data >= end)
            break;
        off_t hole = lseek(s->fd, data, SEEK_HOLE);
        hole = hole < 0 || hole > end ? end : hole;
        for (uint64_t p = (uint64_t)data >> WK_GPU_PAGE_SHIFT; p < ((uint64_t)hole + WK_GPU_PAGE_SIZE - 1) >> WK_GPU_PAGE_SHIFT; p++)
            n += !sysmem_has(gpu, p); /* those in the set are counted there */
        at = hole;
    }
    return n;
}
