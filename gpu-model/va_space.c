/* SPDX-License-Identifier: MIT */
/*
 * va_space.c - a GPU virtual address space as a memory system
 * (docs/gpu-model.md, "GPU virtual addresses").
 *
 * The space walks the page tables a driver wrote, with the geometry the
 * driver reported and the hardware's reading of an entry, and hands a
 * processor processor.h's table over virtual addresses. Every access is
 * cut where a 4 KiB virtual page ends: within one, the bytes are
 * contiguous in physical memory (a leaf's address is page aligned, or the
 * entry faults BAD_PTE), so each piece is one access of the physical
 * memory system, which keeps its own checks, counters and dirt tracking.
 *
 * As processor.h asks, an access is checked whole before any effect: every
 * page translated (and a write's pages not read-only) and every piece
 * probed in physical memory. One difference remains: the physical
 * memory's host-page limit is probed piece by piece, so a write through
 * the space that needs more new pages than the limit leaves can stop part
 * way (MEMORY_LIMIT); the limit is 4 GiB by default, far above what a
 * page table maps in the kit's cases.
 *
 * The TLB is direct-mapped, 64 lines of 4 KiB pages. A GPU access hitting
 * a line is also walked, to count a stale line: correctness over speed,
 * since the model exists to say what a driver's forgotten FLUSH_TLB did.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TLB_LINES 64u
#define PIECE WK_GPU_PAGE_SIZE

struct tlb_line {
    uint64_t tag;            /* virtual 4 KiB page + 1; 0: empty */
    uint64_t pa_page;        /* physical address of the page's byte 0 */
    uint32_t read_only;
    uint32_t reserved;
};

struct wk_va_space {
    struct wk_mem mem;                /* what wk_va_mem hands out: first, for container_of */
    struct wk_mem *phys;
    const struct wk_mem_ops *pops;
    struct wk_mmu_geometry geo;
    wk_mmu_decode_fn *decode;
    void *decode_self;
    uint64_t root;
    uint32_t va_bits;
    uint32_t root_sized;              /* a resizable root: entries past root_entries fault */
    uint32_t root_entries;
    uint32_t root_shift;              /* the VA bit the root's index starts at */
    struct wk_va_counters counters;
    struct tlb_line tlb[TLB_LINES];
};

static struct wk_va_space *space_of(const struct wk_mem *m)
{
    return (struct wk_va_space *)(void *)m;
}


static uint64_t piece_room(uint64_t va)
{
    return PIECE - (va & (PIECE - 1));
}

/* ------------------------------------------------------------------ */
/* The walk                                                             */
/* ------------------------------------------------------------------ */

/* One entry of the table at `table`, level l, for va: 0 and *e, or -1
 * (BAD_PTE) when it cannot be read or decoded. */
static int read_entry(const struct wk_va_space *s, uint32_t l, uint64_t table, uint64_t index,
                      struct wk_mmu_entry *e)
{
    uint8_t raw[16];
    struct wk_mem_fault pf;
    uint32_t bytes = s->geo.level[l].entry_bytes;
    if (index > (UINT64_MAX - table) / bytes)
        return -1;
    if (s->pops->load(s->phys, table + index * bytes, raw, bytes, &pf) != 0)
        return -1;
    memset(e, 0, sizeof(*e));
    return s->decode(s->decode_self, l, raw, bytes, e) == 0 ? 0 : -1;
}

/* A root index at or past a sized root's entries: the GPU faults there
 * (DXGKARG_SETROOTPAGETABLE.NumEntries, wddm-gpummu-facts.md 3.4: "GPU
 * must fault on any VA whose root index >= this value"). */
static int past_root(const struct wk_va_space *s, uint64_t va)
{
    return s->root_sized && (va >> s->root_shift) >= s->root_entries;
}

int wk_va_translate(const struct wk_va_space *s, uint64_t va, uint64_t *pa, uint32_t *read_only,
                    struct wk_mem_fault *f)
{
    if (s->va_bits < 64 && (va >> s->va_bits) != 0)
        return mem_fault_set(f, WK_GPU_FAULT_BAD_ADDRESS, va);
    if (past_root(s, va))
        return mem_fault_set(f, WK_GPU_FAULT_VA_UNMAPPED, va);
    uint64_t table = s->root;
    uint32_t shift = s->va_bits;
    for (uint32_t l = s->geo.levels; l-- > 0;) { /* from the root down to the leaf, level 0 */
        shift -= s->geo.level[l].index_bits;
        uint64_t index = (va >> shift) & ((1ull << s->geo.level[l].index_bits) - 1);
        struct wk_mmu_entry e;
        if (read_entry(s, l, table, index, &e) != 0)
            return mem_fault_set(f, WK_GPU_FAULT_BAD_PTE, va);
        if (!e.valid)
            return mem_fault_set(f, WK_GPU_FAULT_VA_UNMAPPED, va);
        if (e.leaf || l == 0) {
            uint64_t page = 1ull << shift;           /* the bytes this leaf maps */
            if (e.address & (page - 1) & (PIECE - 1))
                return mem_fault_set(f, WK_GPU_FAULT_BAD_PTE, va);
            *pa = e.address + (va & (page - 1));
            *read_only = e.read_only != 0;
            return 0;
        }
        table = e.address;
    }
    return mem_fault_set(f, WK_GPU_FAULT_BAD_PTE, va); /* not reached: the last level is a leaf */
}

/* The translation a GPU access uses: the TLB's line, or a walk that fills
 * one. `count`: this is the access's one check of the page (the counters
 * count it); a later piece of the same access passes 0. */
static int gpu_translate(struct wk_va_space *s, uint64_t va, int count, uint64_t *pa, uint32_t *ro,
                         struct wk_mem_fault *f)
{
    uint64_t page = va / PIECE;
    struct tlb_line *t = &s->tlb[page % TLB_LINES];
    if (__builtin_expect(s->root_sized, 0) && past_root(s, va)) /* the bound comes before the TLB */
        return mem_fault_set(f, WK_GPU_FAULT_VA_UNMAPPED, va);
    if (t->tag == page + 1) {
        if (count) {
            uint64_t now = 0;
            uint32_t now_ro = 0;
            s->counters.tlb_hits++;
            if (wk_va_translate(s, va, &now, &now_ro, NULL) != 0 || now - (va & (PIECE - 1)) != t->pa_page ||
                now_ro != t->read_only)
                s->counters.stale_accesses++;
        }
        *pa = t->pa_page + (va & (PIECE - 1));
        *ro = t->read_only;
        return 0;
    }
    if (wk_va_translate(s, va, pa, ro, f) != 0)
        return -1;
    if (count)
        s->counters.walks++;
    t->tag = page + 1;
    t->pa_page = *pa - (va & (PIECE - 1));
    t->read_only = *ro;
    return 0;
}

static int translate(struct wk_va_space *s, uint64_t va, uint32_t how, int count, uint64_t *pa,
                     struct wk_mem_fault *f)
{
    uint32_t ro = 0;
    int rc = (how & WK_MEM_HOST) ? wk_va_translate(s, va, pa, &ro, f) : gpu_translate(s, va, count, pa, &ro, f);
    if (rc != 0)
        return -1;
    if ((how & WK_MEM_WRITE) && ro && !(how & WK_MEM_HOST))
        return mem_fault_set(f, WK_GPU_FAULT_VA_READ_ONLY, va);
    return 0;
}

/* A physical fault of a piece, said at the virtual address it struck. */
static int piece_fault(struct wk_mem_fault *f, const struct wk_mem_fault *pf, uint64_t va, uint64_t pa,
                       uint64_t len)
{
    uint64_t at = pf->addr - pa < len ? va + (pf->addr - pa) : va;
    return mem_fault_set(f, pf->reason, at);
}

/* Checks [va, va + len) whole for an access `how`: every page translated
 * (counted once: this is the access's check), every piece probed. */
static int check_range(struct wk_va_space *s, uint64_t va, uint64_t len, uint32_t how, struct wk_mem_fault *f)
{
    if (len && va > UINT64_MAX - (len - 1))
        return mem_fault_set(f, WK_GPU_FAULT_BAD_ADDRESS, va);
    for (uint64_t done = 0; done < len;) {
        uint64_t at = va + done, n = piece_room(at) < len - done ? piece_room(at) : len - done, pa = 0;
        struct wk_mem_cursor probe;
        struct wk_mem_fault pf;
        if (translate(s, at, how, 1, &pa, f) != 0)
            return -1;
        if (s->pops->begin(s->phys, pa, n, (how & (WK_MEM_READ | WK_MEM_WRITE | WK_MEM_HOST)) | WK_MEM_PROBE,
                           &probe, &pf) != 0)
            return piece_fault(f, &pf, at, pa, n);
        done += n;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Spans                                                                */
/* ------------------------------------------------------------------ */

struct cursor {
    struct wk_va_space *s;
    uint64_t va;
    uint64_t left;
    uint32_t how;
    uint32_t reserved;
};
_Static_assert(sizeof(struct cursor) <= sizeof(struct wk_mem_cursor), "the cursor fits the caller's struct");

static int vas_begin(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t how, struct wk_mem_cursor *c,
                    struct wk_mem_fault *f)
{
    struct wk_va_space *s = space_of(m);
    if (check_range(s, addr, len, how, f) != 0)
        return -1;
    struct cursor *k = (struct cursor *)(void *)c->opaque;
    k->s = s;
    k->va = addr;
    k->left = (how & WK_MEM_PROBE) ? 0 : len;
    k->how = how;
    k->reserved = 0;
    return 0;
}

/* One piece as the physical memory system gives it: a span of at most
 * the piece (the physical walk may cut it shorter; the next call goes on
 * from there). */
static int vas_next(struct wk_mem_cursor *c, struct wk_mem_span *out)
{
    struct cursor *k = (struct cursor *)(void *)c->opaque;
    if (k->left == 0)
        return 0;
    uint64_t n = piece_room(k->va) < k->left ? piece_room(k->va) : k->left, pa = 0;
    struct wk_mem_cursor pc;
    struct wk_mem_span span;
    if (translate(k->s, k->va, k->how, 0, &pa, NULL) != 0 ||
        k->s->pops->begin(k->s->phys, pa, n, k->how, &pc, NULL) != 0 || !k->s->pops->next(&pc, &span) ||
        span.length == 0 || span.length > n) {
        k->left = 0; /* checked whole at begin: only a change of memory mid-walk gets here */
        return 0;
    }
    out->addr = k->va;
    out->length = span.length;
    out->data = span.data;
    k->va += span.length;
    k->left -= span.length;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Bulk moves                                                           */
/* ------------------------------------------------------------------ */

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* Bytes from va back to the start of its piece, va included. */
static uint64_t piece_back(uint64_t va)
{
    return (va & (PIECE - 1)) + 1;
}

static int copy_piece(struct wk_va_space *s, uint64_t dst, uint64_t src, uint64_t n, struct wk_mem_fault *f)
{
    uint64_t pd = 0, ps = 0;
    struct wk_mem_fault pf;
    if (translate(s, dst, WK_MEM_WRITE, 0, &pd, f) != 0 || translate(s, src, WK_MEM_READ, 0, &ps, f) != 0)
        return -1;
    if (s->pops->copy(s->phys, pd, ps, n, &pf) != 0)
        return piece_fault(f, &pf, dst, pd, n);
    return 0;
}

/* memmove's order, over virtual addresses: backwards when the
 * destination starts inside the source. */
static int vas_copy(struct wk_mem *m, uint64_t dst, uint64_t src, uint64_t len, struct wk_mem_fault *f)
{
    struct wk_va_space *s = space_of(m);
    if (check_range(s, src, len, WK_MEM_READ, f) != 0 || check_range(s, dst, len, WK_MEM_WRITE, f) != 0)
        return -1;
    if (dst > src && dst - src < len) {
        for (uint64_t left = len; left > 0;) {
            uint64_t n = min3(left, piece_back(src + left - 1), piece_back(dst + left - 1));
            left -= n;
            if (copy_piece(s, dst + left, src + left, n, f) != 0)
                return -1;
        }
        return 0;
    }
    for (uint64_t done = 0; done < len;) {
        uint64_t n = min3(len - done, piece_room(src + done), piece_room(dst + done));
        if (copy_piece(s, dst + done, src + done, n, f) != 0)
            return -1;
        done += n;
    }
    return 0;
}

static int vas_fill(struct wk_mem *m, uint64_t dst, uint64_t len, const void *pattern, uint32_t pattern_bytes,
                   struct wk_mem_fault *f)
{
    struct wk_va_space *s = space_of(m);
    const uint8_t *pat = pattern;
    if (pattern_bytes != 1 && pattern_bytes != 2 && pattern_bytes != 4 && pattern_bytes != 8)
        return mem_fault_set(f, WK_GPU_FAULT_BAD_OPERAND, dst);
    if (check_range(s, dst, len, WK_MEM_WRITE, f) != 0)
        return -1;
    for (uint64_t done = 0; done < len;) {
        uint64_t n = piece_room(dst + done) < len - done ? piece_room(dst + done) : len - done, pa = 0;
        uint8_t turned[8];
        struct wk_mem_fault pf;
        for (uint32_t i = 0; i < pattern_bytes; i++) /* the pattern's phase at this piece */
            turned[i] = pat[(i + done) % pattern_bytes];
        if (translate(s, dst + done, WK_MEM_WRITE, 0, &pa, f) != 0)
            return -1;
        if (s->pops->fill(s->phys, pa, n, turned, pattern_bytes, &pf) != 0)
            return piece_fault(f, &pf, dst + done, pa, n);
        done += n;
    }
    return 0;
}

/* Host bytes to or from [va, va + len), checked whole, then piece by
 * piece: a store (how WK_MEM_WRITE) or a load (WK_MEM_READ). */
static int move_host(struct wk_va_space *s, uint64_t va, uint8_t *host, uint64_t len, uint32_t how,
                     struct wk_mem_fault *f)
{
    if (check_range(s, va, len, how, f) != 0)
        return -1;
    for (uint64_t done = 0; done < len;) {
        uint64_t n = piece_room(va + done) < len - done ? piece_room(va + done) : len - done, pa = 0;
        struct wk_mem_fault pf;
        if (translate(s, va + done, how, 0, &pa, f) != 0)
            return -1;
        int rc = how == WK_MEM_WRITE ? s->pops->store(s->phys, pa, host + done, n, &pf)
                                     : s->pops->load(s->phys, pa, host + done, n, &pf);
        if (rc != 0)
            return piece_fault(f, &pf, va + done, pa, n);
        done += n;
    }
    return 0;
}

static int vas_store(struct wk_mem *m, uint64_t dst, const void *src, uint64_t len, struct wk_mem_fault *f)
{
    return move_host(space_of(m), dst, (uint8_t *)(uintptr_t)src, len, WK_MEM_WRITE, f); /* only read */
}

static int vas_load(struct wk_mem *m, uint64_t src, void *dst, uint64_t len, struct wk_mem_fault *f)
{
    return move_host(space_of(m), src, dst, len, WK_MEM_READ, f);
}

/* ------------------------------------------------------------------ */
/* What stays physical: the GART, the layout                            */
/* ------------------------------------------------------------------ */

static int vas_gart_write(struct wk_mem *m, uint32_t segment_id, uint64_t first_page, uint64_t count,
                         const uint64_t *pfns, uint64_t pfn, struct wk_mem_fault *f)
{
    struct wk_va_space *s = space_of(m);
    return s->pops->gart_write(s->phys, segment_id, first_page, count, pfns, pfn, f);
}

static int vas_gart_flush(struct wk_mem *m, uint32_t segment_id, struct wk_mem_fault *f)
{
    struct wk_va_space *s = space_of(m);
    return s->pops->gart_flush(s->phys, segment_id, f);
}

static int vas_gart_write_same(struct wk_mem *m, uint32_t segment_id, uint64_t first_page, uint64_t count,
                              uint64_t pfn, struct wk_mem_fault *f)
{
    struct wk_va_space *s = space_of(m);
    return s->pops->gart_write_same(s->phys, segment_id, first_page, count, pfn, f);
}

static const struct wk_gpu_desc *vas_layout(const struct wk_mem *m)
{
    const struct wk_va_space *s = space_of(m);
    return s->pops->layout(s->phys);
}

/* The region that holds the page va is mapped to, as the tables say now. */
static int vas_locate(const struct wk_mem *m, uint64_t addr, struct wk_gpu_location *loc)
{
    const struct wk_va_space *s = space_of(m);
    uint64_t pa = 0;
    uint32_t ro = 0;
    if (wk_va_translate(s, addr, &pa, &ro, NULL) != 0)
        return -1;
    return s->pops->locate(s->phys, pa, loc);
}

static const struct wk_mem_ops vas_ops = {
    .size = sizeof(struct wk_mem_ops),
    .version = WK_MEM_OPS_VERSION,
    .begin = vas_begin,
    .next = vas_next,
    .copy = vas_copy,
    .fill = vas_fill,
    .store = vas_store,
    .load = vas_load,
    .gart_write = vas_gart_write,
    .gart_flush = vas_gart_flush,
    .layout = vas_layout,
    .locate = vas_locate,
    .gart_write_same = vas_gart_write_same,
};

/* ------------------------------------------------------------------ */
/* The space                                                            */
/* ------------------------------------------------------------------ */

/* Whether the physical table has every member the space calls. */
static int phys_ops_ok(const struct wk_mem_ops *o)
{
    return o && o->size >= offsetof(struct wk_mem_ops, gart_write_same) + sizeof(o->gart_write_same) &&
           o->begin && o->next && o->copy && o->fill && o->store && o->load && o->gart_write && o->gart_flush &&
           o->layout && o->locate && o->gart_write_same;
}

wk_status wk_va_space_create(const struct wk_va_space_config *cfg, struct wk_va_space **out, char *why,
                             size_t why_size)
{
    if (out)
        *out = NULL;
    if (why && why_size)
        why[0] = '\0';
    if (!cfg || !out || !cfg->mem || !phys_ops_ok(cfg->mem_ops) || !cfg->decode) {
        if (why && why_size)
            snprintf(why, why_size, "a space needs a memory system with every operation and an entry reader");
        return WK_E_INVALID_ARGUMENT;
    }
    wk_status st = wk_mmu_check_geometry(cfg->geometry, why, why_size);
    if (st != WK_OK)
        return st;
    struct wk_va_space *s = calloc(1, sizeof(*s));
    if (!s)
        return WK_E_NO_MEMORY;
    s->phys = cfg->mem;
    s->pops = cfg->mem_ops;
    s->geo = *cfg->geometry;
    s->decode = cfg->decode;
    s->decode_self = cfg->decode_self;
    s->root = cfg->root;
    s->va_bits = wk_mmu_va_bits(&s->geo);
    s->root_shift = s->va_bits - s->geo.level[s->geo.levels - 1].index_bits;
    *out = s;
    return WK_OK;
}

void wk_va_space_destroy(struct wk_va_space *s)
{
    free(s);
}

void wk_va_space_set_root(struct wk_va_space *s, uint64_t root)
{
    s->root = root;
}

void wk_va_space_set_root_entries(struct wk_va_space *s, uint32_t entries)
{
    s->root_sized = 1;
    s->root_entries = entries;
}

int wk_va_space_root_sized(const struct wk_va_space *s)
{
    return s->root_sized != 0;
}

uint32_t va_root_entries_swap(struct wk_va_space *s, uint32_t entries)
{
    uint32_t was = s->root_entries;
    s->root_entries = entries;
    return was;
}

void wk_va_flush(struct wk_va_space *s, uint64_t start, uint64_t end)
{
    s->counters.flushes++;
    for (uint32_t i = 0; i < TLB_LINES; i++) {
        uint64_t va = (s->tlb[i].tag - 1) * PIECE;
        if (s->tlb[i].tag && ((start == 0 && end == 0) || (va + PIECE > start && va < end)))
            s->tlb[i].tag = 0;
    }
}

/* ------------------------------------------------------------------ */
/* The spaces a GPU runs: what its VA_FLUSH reaches                     */
/* ------------------------------------------------------------------ */

/* Where s is in the GPU's list, or the count when it is not there. */
static uint32_t attached_at(const struct wk_gpu *gpu, const struct wk_va_space *s)
{
    uint32_t i = 0;
    while (i < gpu->va_space_count && gpu->va_spaces[i] != s)
        i++;
    return i;
}

wk_status wk_gpu_va_attach(struct wk_gpu *gpu, struct wk_va_space *s)
{
    if (!gpu || !s)
        return WK_E_INVALID_ARGUMENT;
    if (attached_at(gpu, s) < gpu->va_space_count)
        return WK_OK;
    if (gpu->va_space_count >= WK_GPU_MAX_VA_SPACES)
        return WK_E_LIMIT;
    gpu->va_spaces[gpu->va_space_count++] = s;
    return WK_OK;
}

wk_status wk_gpu_va_detach(struct wk_gpu *gpu, struct wk_va_space *s)
{
    if (!gpu || !s)
        return WK_E_INVALID_ARGUMENT;
    uint32_t i = attached_at(gpu, s);
    if (i == gpu->va_space_count)
        return WK_E_NOT_FOUND;
    gpu->va_spaces[i] = gpu->va_spaces[--gpu->va_space_count]; /* order does not matter */
    return WK_OK;
}

/* A FLUSH_TLB names the space by its root (RootPageTableAddress,
 * docs/wddm-gpummu-facts.md 4.3): several spaces may share one, as the
 * contexts of a process do, and each is flushed. */
void gpu_va_flush(struct wk_gpu *gpu, uint64_t root, uint64_t start, uint64_t end)
{
    gpu->va_flushes++;
    gpu->last_flush_root = root;
    for (uint32_t i = 0; i < gpu->va_space_count; i++)
        if (gpu->va_spaces[i]->root == root)
            wk_va_flush(gpu->va_spaces[i], start, end);
}

/* A submission's RING_ROOT names its space the same way (the context's
 * DxgkDdiSetRootPageTable address). Spaces that share a root are views of
 * the same tables (the contexts of one process), so any of them runs the
 * submission; only what their TLBs hold may differ. */
struct wk_va_space *gpu_va_find(const struct wk_gpu *gpu, uint64_t root)
{
    for (uint32_t i = 0; i < gpu->va_space_count; i++)
        if (gpu->va_spaces[i]->root == root)
            return gpu->va_spaces[i];
    return NULL;
}

uint32_t wk_va_cached(const struct wk_va_space *s, uint64_t start, uint64_t end, uint64_t *first)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < TLB_LINES; i++) {
        uint64_t va = (s->tlb[i].tag - 1) * PIECE;
        if (!s->tlb[i].tag || va + PIECE <= start || va >= end)
            continue;
        if (first && (n == 0 || va < *first))
            *first = va;
        n++;
    }
    return n;
}

struct wk_mem *wk_va_mem(struct wk_va_space *s)
{
    return &s->mem;
}

const struct wk_mem_ops *wk_va_mem_ops(void)
{
    return &vas_ops;
}

void wk_va_counters(const struct wk_va_space *s, struct wk_va_counters *out)
{
    *out = s->counters;
}
