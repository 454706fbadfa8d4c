/* SPDX-License-Identifier: MIT */
/*
 * tests/heron_fake_mem.c - the fake memory system of heron_fake_mem.h.
 *
 * Regions are the description's segments, then system memory. An address
 * resolves to (region, page); an aperture page resolves further, through
 * its TLB line (GPU) or its entry (host), to a system page. An access is
 * resolved page by page once to check it (nothing changes), then again to
 * act. Page-sized spans: simple rather than maximal.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "heron_fake_mem.h"

#define PAGE WK_GPU_PAGE_SIZE
#define NO_PFN UINT64_MAX

struct region {
    uint64_t base, size;
    int aperture;
    uint8_t **pages;          /* memory: size / PAGE pointers, NULL until written */
    uint64_t *pte, *tlb;      /* aperture: one frame per page, NO_PFN invalid */
};

struct wk_mem {
    const struct wk_gpu_desc *desc;
    uint32_t count;           /* segments + 1 (system memory, last) */
    struct region regions[WK_GPU_MAX_SEGMENTS + 1];
    uint64_t flushes;
    uint64_t write_same_calls;
    struct wk_mem_ops ops;    /* a shorter table, when a test asks (size 0: the full one) */
};

static void fail(struct wk_mem_fault *f, uint32_t reason, uint64_t addr)
{
    if (f != NULL) {
        f->reason = reason;
        f->addr = addr;
    }
}

static struct region *region_of(struct wk_mem *m, uint64_t addr)
{
    for (uint32_t i = 0; i < m->count; i++) {
        struct region *r = &m->regions[i];
        if (addr >= r->base && addr - r->base < r->size) {
            return r;
        }
    }
    return NULL;
}

static struct region *sysmem(struct wk_mem *m)
{
    return &m->regions[m->count - 1];
}

/* The slot holding the page of addr: 0, or -1 and *f. */
static int page_slot(struct wk_mem *m, uint64_t addr, uint32_t how, uint8_t ***slot, struct wk_mem_fault *f)
{
    struct region *r = region_of(m, addr);
    if (r == NULL) {
        fail(f, WK_GPU_FAULT_BAD_ADDRESS, addr);
        return -1;
    }
    uint64_t page = (addr - r->base) / PAGE;
    if (r->aperture) {
        uint64_t pfn = (how & WK_MEM_HOST) ? r->pte[page] : r->tlb[page];
        if (pfn == NO_PFN) {
            fail(f, WK_GPU_FAULT_UNMAPPED_APERTURE, addr);
            return -1;
        }
        r = sysmem(m);
        page = pfn - m->desc->sysmem_first_pfn;
    }
    *slot = &r->pages[page];
    return 0;
}

/* The whole range in one region, every page reachable. */
static int check(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t how, struct wk_mem_fault *f)
{
    if (len == 0) {
        return 0;
    }
    struct region *r = region_of(m, addr);
    if (r == NULL) {
        fail(f, WK_GPU_FAULT_BAD_ADDRESS, addr);
        return -1;
    }
    if (len - 1 > r->size - 1 - (addr - r->base)) {
        fail(f, WK_GPU_FAULT_CROSSES_SEGMENT, r->base + r->size);
        return -1;
    }
    for (uint64_t a = addr & ~(uint64_t)(PAGE - 1); a < addr + len; a += PAGE) {
        uint8_t **slot;
        if (page_slot(m, a < addr ? addr : a, how, &slot, f) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Moves len bytes between host memory and the range, page by page. The
 * range was checked. */
static void walk(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t how, uint8_t *host, int to_memory)
{
    while (len > 0) {
        uint8_t **slot;
        uint64_t in_page = addr % PAGE;
        uint64_t n = PAGE - in_page < len ? PAGE - in_page : len;
        (void)page_slot(m, addr, how, &slot, NULL);
        if (to_memory) {
            if (*slot == NULL) {
                *slot = calloc(1, PAGE);
            }
            memcpy(*slot + in_page, host, n);
        } else if (*slot == NULL) {
            memset(host, 0, n);
        } else {
            memcpy(host, *slot + in_page, n);
        }
        addr += n;
        len -= n;
        host += n;
    }
}

static int fm_store(struct wk_mem *m, uint64_t dst, const void *src, uint64_t len, struct wk_mem_fault *f)
{
    if (check(m, dst, len, 0, f) != 0) {
        return -1;
    }
    walk(m, dst, len, 0, (uint8_t *)(uintptr_t)src, 1);
    return 0;
}

static int fm_load(struct wk_mem *m, uint64_t src, void *dst, uint64_t len, struct wk_mem_fault *f)
{
    if (check(m, src, len, 0, f) != 0) {
        return -1;
    }
    walk(m, src, len, 0, dst, 0);
    return 0;
}

static int fm_copy(struct wk_mem *m, uint64_t dst, uint64_t src, uint64_t len, struct wk_mem_fault *f)
{
    if (check(m, src, len, 0, f) != 0 || check(m, dst, len, 0, f) != 0) {
        return -1;
    }
    uint8_t *tmp = malloc(len ? len : 1);
    if (tmp == NULL) {
        fail(f, WK_GPU_FAULT_MEMORY_LIMIT, dst);
        return -1;
    }
    walk(m, src, len, 0, tmp, 0);
    walk(m, dst, len, 0, tmp, 1);
    free(tmp);
    return 0;
}

static int fm_fill(struct wk_mem *m, uint64_t dst, uint64_t len, const void *pattern, uint32_t pattern_bytes,
                   struct wk_mem_fault *f)
{
    if (pattern_bytes == 0 || pattern_bytes > 8 || (pattern_bytes & (pattern_bytes - 1)) != 0) {
        fail(f, WK_GPU_FAULT_BAD_OPERAND, dst);
        return -1;
    }
    if (check(m, dst, len, 0, f) != 0) {
        return -1;
    }
    uint8_t *tmp = malloc(len ? len : 1);
    if (tmp == NULL) {
        fail(f, WK_GPU_FAULT_MEMORY_LIMIT, dst);
        return -1;
    }
    for (uint64_t i = 0; i < len; i++) {
        tmp[i] = ((const uint8_t *)pattern)[i % pattern_bytes];
    }
    walk(m, dst, len, 0, tmp, 1);
    free(tmp);
    return 0;
}

/* Spans: one page each, carried in the cursor. */
struct cursor {
    struct wk_mem *m;
    uint64_t addr, left;
    uint32_t how;
};
_Static_assert(sizeof(struct cursor) <= sizeof(struct wk_mem_cursor), "a cursor fits");

static int fm_begin(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t how, struct wk_mem_cursor *c,
                    struct wk_mem_fault *f)
{
    if (check(m, addr, len, how, f) != 0) {
        return -1;
    }
    struct cursor *k = (struct cursor *)c;
    k->m = m;
    k->addr = addr;
    k->left = len;
    k->how = how;
    return 0;
}

static int fm_next(struct wk_mem_cursor *c, struct wk_mem_span *out)
{
    struct cursor *k = (struct cursor *)c;
    uint8_t **slot;
    if (k->left == 0) {
        return 0;
    }
    uint64_t in_page = k->addr % PAGE;
    uint64_t n = PAGE - in_page < k->left ? PAGE - in_page : k->left;
    (void)page_slot(k->m, k->addr, k->how, &slot, NULL);
    if ((k->how & WK_MEM_WRITE) && *slot == NULL) {
        *slot = calloc(1, PAGE);
    }
    out->addr = k->addr;
    out->length = n;
    out->data = *slot != NULL ? *slot + in_page : NULL;
    k->addr += n;
    k->left -= n;
    return 1;
}

static struct region *aperture(struct wk_mem *m, uint32_t segment_id)
{
    if (segment_id == 0 || segment_id >= m->count || !m->regions[segment_id - 1].aperture) {
        return NULL;
    }
    return &m->regions[segment_id - 1];
}

static int fm_gart_write(struct wk_mem *m, uint32_t segment_id, uint64_t first_page, uint64_t count,
                         const uint64_t *pfns, uint64_t pfn, struct wk_mem_fault *f)
{
    struct region *r = aperture(m, segment_id);
    const struct wk_gpu_desc *d = m->desc;
    if (r == NULL || first_page > r->size / PAGE || count > r->size / PAGE - first_page) {
        fail(f, WK_GPU_FAULT_BAD_OPERAND, r != NULL ? r->base + first_page * PAGE : 0);
        return -1;
    }
    for (uint64_t i = 0; i < count; i++) {
        uint64_t frame = pfns != NULL ? pfns[i] : pfn == WK_MEM_GART_INVALID ? pfn : pfn + i;
        if (frame != WK_MEM_GART_INVALID &&
            (frame < d->sysmem_first_pfn || frame - d->sysmem_first_pfn >= d->sysmem_pages)) {
            fail(f, WK_GPU_FAULT_BAD_OPERAND, r->base + (first_page + i) * PAGE);
            return -1;
        }
    }
    for (uint64_t i = 0; i < count; i++) {
        r->pte[first_page + i] = pfns != NULL ? pfns[i] : pfn == WK_MEM_GART_INVALID ? pfn : pfn + i;
    }
    return 0;
}

/* One frame for every page of the range (an unmap to a dummy page). */
static int fm_gart_write_same(struct wk_mem *m, uint32_t segment_id, uint64_t first_page, uint64_t count,
                              uint64_t pfn, struct wk_mem_fault *f)
{
    struct region *r = aperture(m, segment_id);
    const struct wk_gpu_desc *d = m->desc;
    if (r == NULL || first_page > r->size / PAGE || count > r->size / PAGE - first_page || pfn < d->sysmem_first_pfn ||
        pfn - d->sysmem_first_pfn >= d->sysmem_pages) {
        fail(f, WK_GPU_FAULT_BAD_OPERAND, r != NULL ? r->base + first_page * PAGE : 0);
        return -1;
    }
    for (uint64_t i = 0; i < count; i++) {
        r->pte[first_page + i] = pfn;
    }
    m->write_same_calls++;
    return 0;
}

static int fm_gart_flush(struct wk_mem *m, uint32_t segment_id, struct wk_mem_fault *f)
{
    struct region *r = aperture(m, segment_id);
    if (r == NULL) {
        fail(f, WK_GPU_FAULT_BAD_OPERAND, 0);
        return -1;
    }
    memcpy(r->tlb, r->pte, r->size / PAGE * sizeof *r->tlb);
    m->flushes++;
    return 0;
}

static const struct wk_gpu_desc *fm_layout(const struct wk_mem *m)
{
    return m->desc;
}

static int fm_locate(const struct wk_mem *m, uint64_t addr, struct wk_gpu_location *loc)
{
    struct region *r = region_of((struct wk_mem *)m, addr);
    if (r == NULL) {
        return -1;
    }
    uint32_t index = (uint32_t)(r - m->regions);
    loc->segment_id = index + 1 < m->count ? index + 1 : 0;
    loc->offset = addr - r->base;
    loc->bank = 0;
    return 0;
}

static const struct wk_mem_ops fake_ops = {
    .size = sizeof(struct wk_mem_ops),
    .version = WK_MEM_OPS_VERSION,
    .begin = fm_begin,
    .next = fm_next,
    .copy = fm_copy,
    .fill = fm_fill,
    .store = fm_store,
    .load = fm_load,
    .gart_write = fm_gart_write,
    .gart_flush = fm_gart_flush,
    .layout = fm_layout,
    .locate = fm_locate,
    .gart_write_same = fm_gart_write_same,
};

const struct wk_mem_ops *fake_mem_ops(void)
{
    return &fake_ops;
}

static int init_region(struct region *r, uint64_t base, uint64_t size, int is_aperture)
{
    uint64_t pages = size / PAGE;
    r->base = base;
    r->size = size;
    r->aperture = is_aperture;
    if (!is_aperture) {
        r->pages = calloc(pages, sizeof *r->pages);
        return r->pages != NULL ? 0 : -1;
    }
    r->pte = malloc(pages * sizeof *r->pte);
    r->tlb = malloc(pages * sizeof *r->tlb);
    if (r->pte == NULL || r->tlb == NULL) {
        return -1;
    }
    for (uint64_t i = 0; i < pages; i++) {
        r->pte[i] = r->tlb[i] = NO_PFN;
    }
    return 0;
}

struct wk_mem *fake_mem_create(const struct wk_gpu_desc *desc)
{
    struct wk_mem *m = calloc(1, sizeof *m);
    if (m == NULL || desc->segment_count > WK_GPU_MAX_SEGMENTS) {
        free(m);
        return NULL;
    }
    m->desc = desc;
    m->count = desc->segment_count + 1;
    for (uint32_t i = 0; i < desc->segment_count; i++) {
        const struct wk_gpu_segment_desc *s = &desc->segments[i];
        if (init_region(&m->regions[i], s->base, s->size, s->kind == WK_GPU_SEGMENT_APERTURE) != 0) {
            fake_mem_destroy(m);
            return NULL;
        }
    }
    if (init_region(sysmem(m), desc->sysmem_first_pfn * PAGE, desc->sysmem_pages * PAGE, 0) != 0) {
        fake_mem_destroy(m);
        return NULL;
    }
    return m;
}

void fake_mem_destroy(struct wk_mem *m)
{
    if (m == NULL) {
        return;
    }
    for (uint32_t i = 0; i < m->count; i++) {
        struct region *r = &m->regions[i];
        if (r->pages != NULL) {
            for (uint64_t p = 0; p < r->size / PAGE; p++) {
                free(r->pages[p]);
            }
        }
        free(r->pages);
        free(r->pte);
        free(r->tlb);
    }
    free(m);
}

int fake_mem_write(struct wk_mem *m, uint64_t addr, const void *src, uint64_t len)
{
    if (check(m, addr, len, WK_MEM_HOST, NULL) != 0) {
        return -1;
    }
    walk(m, addr, len, WK_MEM_HOST, (uint8_t *)(uintptr_t)src, 1);
    return 0;
}

int fake_mem_read(struct wk_mem *m, uint64_t addr, void *dst, uint64_t len)
{
    if (check(m, addr, len, WK_MEM_HOST, NULL) != 0) {
        return -1;
    }
    walk(m, addr, len, WK_MEM_HOST, dst, 0);
    return 0;
}

uint64_t fake_mem_pte(struct wk_mem *m, uint32_t segment_id, uint64_t page)
{
    struct region *r = aperture(m, segment_id);
    return r != NULL && page < r->size / PAGE ? r->pte[page] : NO_PFN;
}

uint64_t fake_mem_tlb(struct wk_mem *m, uint32_t segment_id, uint64_t page)
{
    struct region *r = aperture(m, segment_id);
    return r != NULL && page < r->size / PAGE ? r->tlb[page] : NO_PFN;
}

uint64_t fake_mem_flushes(const struct wk_mem *m)
{
    return m->flushes;
}

uint64_t fake_mem_write_same_calls(const struct wk_mem *m)
{
    return m->write_same_calls;
}

void fake_mem_drop_write_same(struct wk_mem *m)
{
    m->ops = fake_ops;
    m->ops.size = offsetof(struct wk_mem_ops, gart_write_same);
    m->ops.gart_write_same = NULL;
}

const struct wk_mem_ops *fake_mem_ops_of(const struct wk_mem *m)
{
    return m->ops.size != 0 ? &m->ops : &fake_ops;
}
