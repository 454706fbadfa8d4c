/* SPDX-License-Identifier: MIT */
/*
 * mem_ops.c - the model's memory system as processor.h's table
 * (struct wk_mem_ops): what a command processor, the kit's own or a
 * binding's, reaches memory through.
 *
 * Everything here is a thin layer over space.c and gart.c, the code the
 * model always ran on, so a processor sees exactly the model's memory:
 * regions, banks, apertures through the TLB (or the entries, for the host),
 * system pages, sparse pages, dirt tracking for reset. What the table adds
 * is the contract of processor.h: every access is checked whole before it
 * has any effect, the host-memory limit included (space.c's bulk loops
 * stop where the limit strikes; here the pages an access would back are
 * counted first), and access is by spans, runs of memory contiguous on the
 * host, so a processor moves bytes with memcpy and memset, never one at a
 * time.
 *
 * A span walk keeps its state in the caller's wk_mem_cursor: the region,
 * how far the walk is, and the piece of the next span it read ahead to
 * find where this one ends (as view.c's walk does).
 */
#include <string.h>

#include "internal.h"

/* The walk's state, in the caller's wk_mem_cursor. */
struct cursor {
    struct wk_gpu *gpu;
    struct region *r;
    uint64_t offset;             /* in r of the next piece to take */
    uint64_t left;
    uint64_t next_addr;          /* the piece read ahead: next span's start */
    uint64_t next_length;        /* 0: none */
    uint8_t *next_data;
    uint32_t how;
    uint32_t reserved;
};
_Static_assert(sizeof(struct cursor) <= sizeof(struct wk_mem_cursor), "the cursor fits the caller's struct");

static struct cursor *cursor_of(struct wk_mem_cursor *c)
{
    return (struct cursor *)(void *)c->opaque;
}


static uint64_t page_room(uint64_t off)
{
    return WK_GPU_PAGE_SIZE - (off & (WK_GPU_PAGE_SIZE - 1));
}

/* Memory segments are the only regions whose pages come from the pool
 * (and count against max_resident_pages): system memory, also behind an
 * aperture, is one mapping of its own. */
static int pooled(const struct region *r)
{
    return !r->host && r->kind == WK_GPU_SEGMENT_MEMORY;
}

static uint64_t pages_spanned(uint64_t off, uint64_t len)
{
    return ((off + len - 1) >> WK_GPU_PAGE_SHIFT) - (off >> WK_GPU_PAGE_SHIFT) + 1;
}

/* Whether the pool has room for `need` more pages, counted by `count` only
 * when the pages spanned (an upper bound) do not fit anyway: the exact
 * count walks the range, and an access far from the limit never pays it. */
static int room_for(struct wk_gpu *gpu, uint64_t bound, uint64_t (*count)(const void *), const void *arg)
{
    uint64_t room = gpu->pool.limit - gpu->pool.in_use;
    return bound <= room || count(arg) <= room;
}

struct write_range {
    struct region *r;
    uint64_t off, len;
};

/* Pages of a write's range not backed yet: each will be. */
static uint64_t unbacked_pages(const void *arg)
{
    const struct write_range *w = arg;
    uint64_t n = 0, last = (w->off + w->len - 1) >> WK_GPU_PAGE_SHIFT;
    for (uint64_t p = w->off >> WK_GPU_PAGE_SHIFT; p <= last; p++)
        n += sparse_peek(&w->r->bytes, p) == NULL;
    return n;
}

static int write_fits(struct wk_gpu *gpu, struct region *r, uint64_t off, uint64_t len)
{
    struct write_range w = { r, off, len };
    return !pooled(r) || len == 0 || room_for(gpu, pages_spanned(off, len), unbacked_pages, &w);
}

struct copy_range {
    struct wk_gpu *gpu;
    struct region *dr, *sr;
    uint64_t doff, soff, len;
};

/* Destination pages a copy backs: space_copy backs an untouched page only
 * for a chunk whose source holds something (zeroes onto an untouched page
 * are skipped). Within one region a source page the copy itself backs
 * first is counted as holding something (an upper bound, near the limit
 * only). */
static uint64_t copy_backs(const void *arg)
{
    const struct copy_range *c = arg;
    uint64_t n = 0, counted = UINT64_MAX;
    for (uint64_t done = 0; done < c->len;) {
        uint64_t s = c->soff + done, d = c->doff + done;
        uint64_t k = c->len - done, room = page_room(s) < page_room(d) ? page_room(s) : page_room(d);
        k = k < room ? k : room;
        uint32_t po;
        uint64_t dpage = d >> WK_GPU_PAGE_SHIFT;
        int src_data = space_page_for_read(c->gpu, c->sr, s, 1, &po) != NULL ||
                       (c->sr == c->dr && s < c->doff + c->len && s + k > c->doff);
        if (src_data && dpage != counted && !sparse_peek(&c->dr->bytes, dpage)) {
            n++;
            counted = dpage;
        }
        done += k;
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Span walks                                                           */
/* ------------------------------------------------------------------ */

static int mem_begin(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t how, struct wk_mem_cursor *c,
                     struct wk_mem_fault *f)
{
    struct wk_gpu *gpu = mem_gpu(m);
    struct cursor *k = cursor_of(c);
    int via_tlb = !(how & WK_MEM_HOST), write = (how & WK_MEM_WRITE) != 0;
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    uint64_t at = 0;
    k->left = 0; /* a walk that fails, or a probe, has no span */
    k->next_length = 0;
    if (len == 0)
        return 0;
    uint64_t stale = gpu->counters.stale_tlb_accesses;
    struct region *r = space_check(gpu, addr, len, via_tlb, &why, &at);
    if (how & WK_MEM_PROBE)
        gpu->counters.stale_tlb_accesses = stale; /* a probe counts nothing */
    if (!r)
        return mem_fault_set(f, why, at);
    uint64_t off = addr - r->base;
    if (write && !write_fits(gpu, r, off, len))
        return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, addr);
    if (how & WK_MEM_PROBE)
        return 0;
    if (write && via_tlb)
        space_count_banks(gpu, r, off, len);
    k->gpu = gpu;
    k->r = r;
    k->offset = off;
    k->left = len;
    k->how = how;
    return 0;
}

/* The next piece of the walk, up to the next page boundary: where its
 * bytes live (a write backs the page for exactly these bytes, which the
 * caller then writes). 0 when a write's page cannot be backed: the host is
 * out of memory (the pool's limit was checked by begin). */
static int take_piece(struct cursor *k, uint64_t *addr, uint64_t *length, uint8_t **data)
{
    uint64_t n = k->left < page_room(k->offset) ? k->left : page_room(k->offset);
    int via_tlb = !(k->how & WK_MEM_HOST);
    uint32_t po = 0;
    uint8_t *page = k->how & WK_MEM_WRITE ? space_page_for_write(k->gpu, k->r, k->offset, via_tlb, n, &po)
                                          : space_page_for_read(k->gpu, k->r, k->offset, via_tlb, &po);
    if (!page && (k->how & WK_MEM_WRITE)) {
        k->left = 0;
        return 0;
    }
    *addr = k->r->base + k->offset;
    *length = n;
    *data = page ? page + po : NULL;
    k->offset += n;
    k->left -= n;
    return 1;
}

static int mem_next(struct wk_mem_cursor *c, struct wk_mem_span *out)
{
    struct cursor *k = cursor_of(c);
    if (k->next_length) { /* the piece that ended the last span starts this one */
        out->addr = k->next_addr;
        out->length = k->next_length;
        out->data = k->next_data;
        k->next_length = 0;
    } else if (!k->left || !take_piece(k, &out->addr, &out->length, &out->data)) {
        return 0;
    }
    while (k->left) {
        uint64_t addr, length;
        uint8_t *data;
        if (!take_piece(k, &addr, &length, &data))
            break;
        int joins = out->data ? data == out->data + out->length : data == NULL;
        if (!joins) {
            k->next_addr = addr;
            k->next_length = length;
            k->next_data = data;
            break;
        }
        out->length += length;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Bulk moves: the GPU's (through the TLB, counted)                     */
/* ------------------------------------------------------------------ */

int mem_copy_in(struct wk_gpu *gpu, struct region *dr, uint64_t dst, struct region *sr, uint64_t src, uint64_t len,
                struct wk_mem_fault *f)
{
    struct copy_range c = { gpu, dr, sr, dst - dr->base, src - sr->base, len };
    if (pooled(dr) && !room_for(gpu, pages_spanned(c.doff, len), copy_backs, &c))
        return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, dst);
    space_count_banks(gpu, sr, c.soff, len);
    space_count_banks(gpu, dr, c.doff, len);
    if (space_copy(gpu, dr, c.doff, sr, c.soff, len, 1) != 0)
        return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, dst); /* the host is out of memory */
    gpu->counters.bytes_copied += len;
    return 0;
}

static int mem_copy(struct wk_mem *m, uint64_t dst, uint64_t src, uint64_t len, struct wk_mem_fault *f)
{
    struct wk_gpu *gpu = mem_gpu(m);
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    uint64_t at = 0;
    if (len == 0)
        return 0;
    struct region *sr = space_check(gpu, src, len, 1, &why, &at);
    struct region *dr = sr ? space_check(gpu, dst, len, 1, &why, &at) : NULL;
    if (!dr)
        return mem_fault_set(f, why, at);
    return mem_copy_in(gpu, dr, dst, sr, src, len, f);
}

/* A pattern of 1, 2, 4 or 8 bytes (byte 0 first) as 8 bytes. */
static int pattern8(const void *pattern, uint32_t bytes, uint64_t *out)
{
    const uint8_t *p = pattern;
    switch (bytes) { /* each FILL of every fuzz input: no byte loop */
    case 1: *out = p[0] * 0x0101010101010101ull; return 0;
    case 2: *out = (uint64_t)(p[0] | p[1] << 8) * 0x0001000100010001ull; return 0;
    case 4: *out = (uint64_t)le32(p) * 0x0000000100000001ull; return 0;
    case 8: *out = le64(p); return 0;
    default: return -1;
    }
}

static int mem_fill(struct wk_mem *m, uint64_t dst, uint64_t len, const void *pattern, uint32_t pattern_bytes,
                    struct wk_mem_fault *f)
{
    struct wk_gpu *gpu = mem_gpu(m);
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    uint64_t at = 0, p = 0;
    if (!pattern || pattern8(pattern, pattern_bytes, &p) != 0)
        return mem_fault_set(f, WK_GPU_FAULT_BAD_OPERAND, dst);
    if (len == 0)
        return 0;
    struct region *r = space_check(gpu, dst, len, 1, &why, &at);
    if (!r)
        return mem_fault_set(f, why, at);
    /* Zeroes onto an untouched page back nothing (space_fill skips it). */
    if (p != 0 && !write_fits(gpu, r, dst - r->base, len))
        return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, dst);
    space_count_banks(gpu, r, dst - r->base, len);
    if (space_fill(gpu, r, dst - r->base, len, p, 1) != 0)
        return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, dst);
    gpu->counters.bytes_filled += len;
    return 0;
}

static int mem_store(struct wk_mem *m, uint64_t dst, const void *src, uint64_t len, struct wk_mem_fault *f)
{
    struct wk_gpu *gpu = mem_gpu(m);
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    uint64_t at = 0;
    if (len == 0)
        return 0;
    struct region *r = space_check(gpu, dst, len, 1, &why, &at);
    if (!r)
        return mem_fault_set(f, why, at);
    if (!write_fits(gpu, r, dst - r->base, len))
        return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, dst);
    space_count_banks(gpu, r, dst - r->base, len);
    if (space_store(gpu, r, dst - r->base, src, len, 1) != 0)
        return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, dst);
    gpu->counters.bytes_written += len;
    return 0;
}

/* A GPU read, as a command fetch: through the TLB, no bank counted. */
static int mem_load(struct wk_mem *m, uint64_t src, void *dst, uint64_t len, struct wk_mem_fault *f)
{
    struct wk_gpu *gpu = mem_gpu(m);
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    uint64_t at = 0;
    if (len == 0)
        return 0;
    struct region *r = space_check(gpu, src, len, 1, &why, &at);
    if (!r)
        return mem_fault_set(f, why, at);
    space_load(gpu, r, src - r->base, dst, len, 1);
    return 0;
}

/* ------------------------------------------------------------------ */
/* GART                                                                 */
/* ------------------------------------------------------------------ */

static int frame_ok(const struct wk_gpu *gpu, uint64_t pfn)
{
    return pfn >= gpu->desc.sysmem_first_pfn && pfn - gpu->desc.sysmem_first_pfn < gpu->desc.sysmem_pages;
}

/* The aperture `segment_id` with pages [first, first + count) in it. */
static struct region *gart_range(struct wk_gpu *gpu, uint32_t segment_id, uint64_t first, uint64_t count,
                                 struct wk_mem_fault *f)
{
    struct region *r = space_segment(gpu, segment_id);
    if (!r || r->kind != WK_GPU_SEGMENT_APERTURE) {
        mem_fault_set(f, WK_GPU_FAULT_BAD_OPERAND, r ? r->base : 0);
        return NULL;
    }
    uint64_t pages = r->size >> WK_GPU_PAGE_SHIFT;
    if (first > pages || count > pages - first) {
        mem_fault_set(f, WK_GPU_FAULT_BAD_OPERAND, r->base + r->size); /* the first page past it */
        return NULL;
    }
    return r;
}

struct pte_range {
    struct region *r;
    uint64_t first, count;
};

static uint64_t unbacked_blocks(const void *arg)
{
    const struct pte_range *p = arg;
    uint64_t n = 0, last = (p->first + p->count - 1) / PTES_PER_BLOCK;
    for (uint64_t b = p->first / PTES_PER_BLOCK; b <= last; b++)
        n += sparse_peek(&p->r->ptes, b) == NULL;
    return n;
}

/* Entries [first, first + count): pfns[i], pfn + i, or all pfn (same);
 * INVALID clears. The TLB lines stay (gart.c: until a flush). */
static int gart_entries(struct wk_gpu *gpu, struct region *r, uint64_t first, uint64_t count, const uint64_t *pfns,
                        uint64_t pfn, int same, struct wk_mem_fault *f)
{
    struct pte_range p = { r, first, count };
    uint64_t bound = count ? (first + count - 1) / PTES_PER_BLOCK - first / PTES_PER_BLOCK + 1 : 0;
    if (count && !room_for(gpu, bound, unbacked_blocks, &p))
        return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, r->base + first * WK_GPU_PAGE_SIZE);
    for (uint64_t i = 0; i < count; i++) {
        struct pte *e = gart_touch(r, first + i);
        if (!e)
            return mem_fault_set(f, WK_GPU_FAULT_MEMORY_LIMIT, r->base + (first + i) * WK_GPU_PAGE_SIZE);
        uint64_t frame = pfns ? pfns[i] : same ? pfn : pfn + i;
        e->entry = pfn == WK_MEM_GART_INVALID && !pfns ? 0 : frame | PTE_VALID;
    }
    if (same || (!pfns && pfn == WK_MEM_GART_INVALID))
        gpu->counters.gart_pages_unmapped += count;
    else
        gpu->counters.gart_pages_mapped += count;
    return 0;
}

static int mem_gart_write(struct wk_mem *m, uint32_t segment_id, uint64_t first_page, uint64_t count,
                          const uint64_t *pfns, uint64_t pfn, struct wk_mem_fault *f)
{
    struct wk_gpu *gpu = mem_gpu(m);
    struct region *r = gart_range(gpu, segment_id, first_page, count, f);
    if (!r)
        return -1;
    uint64_t bad = count; /* the first page whose frame is outside system memory */
    if (pfns) {
        for (uint64_t i = 0; i < count && bad == count; i++)
            bad = frame_ok(gpu, pfns[i]) ? count : i;
    } else if (pfn != WK_MEM_GART_INVALID && count) {
        uint64_t after = gpu->desc.sysmem_first_pfn + gpu->desc.sysmem_pages;
        bad = !frame_ok(gpu, pfn) ? 0 : count <= after - pfn ? count : after - pfn;
    }
    if (bad < count)
        return mem_fault_set(f, WK_GPU_FAULT_BAD_OPERAND, r->base + (first_page + bad) * WK_GPU_PAGE_SIZE);
    return gart_entries(gpu, r, first_page, count, pfns, pfn, 0, f);
}

static int mem_gart_write_same(struct wk_mem *m, uint32_t segment_id, uint64_t first_page, uint64_t count,
                               uint64_t pfn, struct wk_mem_fault *f)
{
    struct wk_gpu *gpu = mem_gpu(m);
    struct region *r = gart_range(gpu, segment_id, first_page, count, f);
    if (!r)
        return -1;
    if (count && pfn != WK_MEM_GART_INVALID && !frame_ok(gpu, pfn))
        return mem_fault_set(f, WK_GPU_FAULT_BAD_OPERAND, r->base + first_page * WK_GPU_PAGE_SIZE);
    return gart_entries(gpu, r, first_page, count, NULL, pfn, 1, f);
}

static int mem_gart_flush(struct wk_mem *m, uint32_t segment_id, struct wk_mem_fault *f)
{
    struct wk_gpu *gpu = mem_gpu(m);
    struct region *r = gart_range(gpu, segment_id, 0, 0, f);
    if (!r)
        return -1;
    gart_flush(gpu, r);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Layout                                                               */
/* ------------------------------------------------------------------ */

static const struct wk_gpu_desc *mem_layout(const struct wk_mem *m)
{
    return &mem_gpu(m)->desc;
}

static int mem_locate(const struct wk_mem *m, uint64_t addr, struct wk_gpu_location *loc)
{
    return wk_gpu_locate(mem_gpu(m), addr, loc) == WK_OK ? 0 : -1;
}

const struct wk_mem_ops mem_ops_table = {
    .size = sizeof(struct wk_mem_ops),
    .version = WK_MEM_OPS_VERSION,
    .begin = mem_begin,
    .next = mem_next,
    .copy = mem_copy,
    .fill = mem_fill,
    .store = mem_store,
    .load = mem_load,
    .gart_write = mem_gart_write,
    .gart_flush = mem_gart_flush,
    .layout = mem_layout,
    .locate = mem_locate,
    .gart_write_same = mem_gart_write_same,
};

struct wk_mem *wk_gpu_mem(struct wk_gpu *gpu)
{
    return &gpu->mem;
}

const struct wk_mem_ops *wk_gpu_mem_ops(void)
{
    return &mem_ops_table;
}
