/*
 * gpu.c - building a model from an adapter description, resetting it, and
 * reading its counters.
 *
 * The description comes from outside (a spec, a driver's segment report, a
 * fuzzer), so every field is checked and a rejection names the segment and
 * field with the value seen and the value expected.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PAGE_MASK ((uint64_t)WK_GPU_PAGE_SIZE - 1)

/* Formats the rejection reason; the attribute lets the compiler check every
 * call's format string against its arguments. */
__attribute__((format(printf, 3, 4)))
static wk_status reject(char *why, size_t size, const char *fmt, ...)
{
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return WK_E_INVALID_ARGUMENT;
}

static wk_status check_banks(const struct wk_gpu_segment_desc *s, uint32_t id, char *why,
                             size_t size)
{
    if (s->bank_count <= 1)
        return WK_OK;
    if (s->kind != WK_GPU_SEGMENT_MEMORY)
        return reject(why, size, "segment %u: banks on an aperture segment (only memory segments are banked)", id);
    if (s->bank_count > WK_GPU_MAX_BANKS)
        return reject(why, size, "segment %u: bank_count %u exceeds %u", id, s->bank_count, WK_GPU_MAX_BANKS);
    if (!s->bank_ends)
        return reject(why, size, "segment %u: bank_count %u but bank_ends is NULL", id, s->bank_count);
    uint64_t prev = 0;
    for (uint32_t i = 0; i + 1 < s->bank_count; i++) {
        uint64_t end = s->bank_ends[i];
        if (end <= prev || end >= s->size)
            return reject(why, size,
                          "segment %u: bank_ends[%u] = 0x%llx, expected in (0x%llx, 0x%llx) (strictly increasing, inside the segment)",
                          id, i, (unsigned long long)end, (unsigned long long)prev,
                          (unsigned long long)s->size);
        prev = end;
    }
    return WK_OK;
}

static wk_status check_segment(const struct wk_gpu_segment_desc *s, uint32_t id, char *why,
                               size_t size)
{
    if (s->kind != WK_GPU_SEGMENT_MEMORY && s->kind != WK_GPU_SEGMENT_APERTURE)
        return reject(why, size, "segment %u: kind %d, expected memory (0) or aperture (1)", id, (int)s->kind);
    if (s->base & PAGE_MASK)
        return reject(why, size, "segment %u: base 0x%llx is not 4 KiB aligned", id, (unsigned long long)s->base);
    if (s->size == 0 || (s->size & PAGE_MASK))
        return reject(why, size, "segment %u: size 0x%llx, expected a non-zero multiple of 4 KiB", id,
                      (unsigned long long)s->size);
    if (s->size > WK_GPU_MAX_REGION_SIZE)
        return reject(why, size, "segment %u: size 0x%llx exceeds the 1 TiB limit", id, (unsigned long long)s->size);
    if (s->base + s->size < s->base)
        return reject(why, size, "segment %u: base + size overflows 64 bits", id);
    return check_banks(s, id, why, size);
}

static wk_status check_desc(const struct wk_gpu_desc *d, char *why, size_t size)
{
    if (d->segment_count > WK_GPU_MAX_SEGMENTS)
        return reject(why, size, "segment_count %u exceeds %u", d->segment_count, WK_GPU_MAX_SEGMENTS);
    if (d->segment_count && !d->segments)
        return reject(why, size, "segment_count %u but segments is NULL", d->segment_count);
    for (uint32_t i = 0; i < d->segment_count; i++) {
        wk_status st = check_segment(&d->segments[i], i + 1, why, size);
        if (st != WK_OK)
            return st;
    }
    if (d->sysmem_pages == 0 || d->sysmem_pages > (WK_GPU_MAX_REGION_SIZE >> WK_GPU_PAGE_SHIFT))
        return reject(why, size, "sysmem_pages %llu, expected 1 .. %llu", (unsigned long long)d->sysmem_pages,
                      (unsigned long long)(WK_GPU_MAX_REGION_SIZE >> WK_GPU_PAGE_SHIFT));
    if (d->sysmem_first_pfn > (UINT64_MAX >> WK_GPU_PAGE_SHIFT) - d->sysmem_pages)
        return reject(why, size, "sysmem_first_pfn 0x%llx: system memory would end past 2^64",
                      (unsigned long long)d->sysmem_first_pfn);
    if (d->max_call_depth > WK_GPU_MAX_CALL_DEPTH)
        return reject(why, size, "max_call_depth %u exceeds %u", d->max_call_depth, WK_GPU_MAX_CALL_DEPTH);
    return WK_OK;
}

static int by_base(const void *a, const void *b)
{
    const struct region *x = *(const struct region *const *)a, *y = *(const struct region *const *)b;
    return x->base < y->base ? -1 : x->base > y->base;
}

static wk_status check_overlaps(struct wk_gpu *gpu, char *why, size_t size)
{
    for (uint32_t i = 0; i < gpu->region_count; i++)
        gpu->by_base[i] = &gpu->regions[i];
    qsort(gpu->by_base, gpu->region_count, sizeof(*gpu->by_base), by_base);
    for (uint32_t i = 0; i < gpu->region_count; i++) {
        gpu->bases[i] = gpu->by_base[i]->base;
        gpu->ends[i] = gpu->by_base[i]->base + gpu->by_base[i]->size;
    }
    for (uint32_t i = 1; i < gpu->region_count; i++) {
        const struct region *a = gpu->by_base[i - 1], *b = gpu->by_base[i];
        if (a->base + a->size > b->base)
            return reject(why, size, "%s %u [0x%llx, 0x%llx) overlaps %s %u at 0x%llx",
                          a->segment_id ? "segment" : "system memory", a->segment_id,
                          (unsigned long long)a->base, (unsigned long long)(a->base + a->size),
                          b->segment_id ? "segment" : "system memory", b->segment_id,
                          (unsigned long long)b->base);
    }
    return WK_OK;
}

static void apply_defaults(struct wk_gpu_desc *d)
{
    if (!d->max_call_depth)
        d->max_call_depth = 4;
    if (!d->max_commands)
        d->max_commands = 1000000;
    if (!d->max_bytes_moved)
        d->max_bytes_moved = 4ull << 30;
    if (!d->max_dma_length)
        d->max_dma_length = 64ull << 20;
    if (!d->max_resident_pages)
        d->max_resident_pages = 1ull << 20;
}

static int init_region(struct wk_gpu *gpu, struct region *r, uint32_t id,
                       const struct wk_gpu_segment_desc *s)
{
    r->segment_id = id;
    r->kind = s->kind;
    r->base = s->base;
    r->size = s->size;
    uint64_t pages = s->size >> WK_GPU_PAGE_SHIFT;
    if (s->bank_count >= 2) {
        r->bank_count = s->bank_count;
        r->bank_ends = malloc((s->bank_count - 1) * sizeof(uint64_t));
        if (!r->bank_ends)
            return -1;
        memcpy(r->bank_ends, s->bank_ends, (s->bank_count - 1) * sizeof(uint64_t));
    }
    if (id == 0)
        return sysmem_init(gpu, r);
    if (s->kind == WK_GPU_SEGMENT_APERTURE) {
        uint64_t in_last = pages % PTES_PER_BLOCK ? pages % PTES_PER_BLOCK : PTES_PER_BLOCK;
        return sparse_init(&r->ptes, (pages + PTES_PER_BLOCK - 1) / PTES_PER_BLOCK,
                           (uint32_t)(in_last * sizeof(struct pte)), &gpu->pool);
    }
    return sparse_init(&r->bytes, pages, WK_GPU_PAGE_SIZE, &gpu->pool);
}

static wk_status build(struct wk_gpu *gpu, const struct wk_gpu_desc *d, char *why, size_t size)
{
    uint32_t n = d->segment_count;
    gpu->region_count = n + 1;
    gpu->segdescs = calloc(n ? n : 1, sizeof(*gpu->segdescs));
    gpu->regions = calloc(n + 1, sizeof(*gpu->regions));
    gpu->by_base = calloc(n + 1, sizeof(*gpu->by_base));
    gpu->bases = calloc(2 * (n + 1), sizeof(*gpu->bases));
    gpu->ends = gpu->bases ? gpu->bases + n + 1 : NULL;
    if (!gpu->segdescs || !gpu->regions || !gpu->by_base || !gpu->bases)
        return WK_E_NO_MEMORY;
    for (uint32_t i = 0; i < n; i++) {
        if (init_region(gpu, &gpu->regions[i], i + 1, &d->segments[i]) != 0)
            return WK_E_NO_MEMORY;
        gpu->segdescs[i] = d->segments[i];
        gpu->segdescs[i].bank_count = gpu->regions[i].bank_count; /* 0 or 1 given: 0, one meaning */
        gpu->segdescs[i].bank_ends = gpu->regions[i].bank_ends;
    }
    struct wk_gpu_segment_desc sys = { WK_GPU_SEGMENT_MEMORY, d->sysmem_first_pfn << WK_GPU_PAGE_SHIFT,
                                       d->sysmem_pages << WK_GPU_PAGE_SHIFT, 0, NULL };
    if (init_region(gpu, &gpu->regions[n], 0, &sys) != 0)
        return WK_E_NO_MEMORY;
    gpu->desc.segments = gpu->segdescs;
    return check_overlaps(gpu, why, size);
}

wk_status wk_gpu_create(const struct wk_gpu_desc *desc, struct wk_gpu **out, char *why,
                        size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    if (!desc || !out)
        return reject(why, why_size, "desc and out must not be NULL");
    *out = NULL;
    wk_status st = check_desc(desc, why, why_size);
    if (st != WK_OK)
        return st;
    struct wk_gpu *gpu = calloc(1, sizeof(*gpu));
    if (!gpu)
        return WK_E_NO_MEMORY;
    gpu->sys.fd = -1;
    gpu->stream_threshold = host_stream_threshold();
    gpu->desc = *desc;
    apply_defaults(&gpu->desc);
    page_pool_init(&gpu->pool, gpu->desc.max_resident_pages);
    uint8_t zero[WK_GPU_PAGE_SIZE] = {0};
    gpu->zero_chunk_digest = digest_chunk(zero, sizeof(zero));
    st = build(gpu, desc, why, why_size);
    if (st != WK_OK) {
        if (st == WK_E_NO_MEMORY && why && why_size)
            snprintf(why, why_size, "out of host memory");
        wk_gpu_destroy(gpu);
        return st;
    }
    *out = gpu;
    return WK_OK;
}

void wk_gpu_destroy(struct wk_gpu *gpu)
{
    if (!gpu)
        return;
    for (uint32_t i = 0; gpu->regions && i < gpu->region_count; i++) {
        struct region *r = &gpu->regions[i];
        if (r->bytes.dir)
            sparse_fini(&r->bytes);
        if (r->ptes.dir)
            sparse_fini(&r->ptes);
        if (r->host)
            sysmem_fini(gpu, r);
        free(r->bank_ends);
    }
    for (uint32_t i = 0; i <= WK_GPU_MAX_CALL_DEPTH; i++)
        free(gpu->fetch[i]);
    page_pool_fini(&gpu->pool);
    free(gpu->regions);
    free(gpu->by_base);
    free(gpu->bases); /* and the ends */
    free(gpu->segdescs);
    free(gpu);
}

void wk_gpu_reset(struct wk_gpu *gpu)
{
    for (uint32_t i = 0; i < gpu->region_count; i++) {
        struct region *r = &gpu->regions[i];
        if (r->bytes.dir)
            sparse_reset(&r->bytes);
        if (r->ptes.dir)
            sparse_reset(&r->ptes);
        if (r->host)
            sysmem_reset(gpu, r);
    }
    memset(&gpu->counters, 0, sizeof(gpu->counters));
    memset(&gpu->fe, 0, offsetof(struct frontend, queue)); /* the queue is dead when empty */
    gpu->last_fence = 0;
    gpu->fault_total = 0;
}

uint64_t wk_gpu_resident_pages(const struct wk_gpu *gpu)
{
    return gpu->pool.in_use + sysmem_resident(gpu, sysmem_region(gpu));
}

/* The banks a segment has: 0 and 1 both mean none (gpu.h). */
static uint32_t banks_of(const struct wk_gpu_segment_desc *s)
{
    return s->bank_count >= 2 ? s->bank_count : 0;
}

static int segment_equal(const struct wk_gpu_segment_desc *a, const struct wk_gpu_segment_desc *b)
{
    if (a->kind != b->kind || a->base != b->base || a->size != b->size || banks_of(a) != banks_of(b))
        return 0;
    if (!banks_of(a) || a->bank_ends == b->bank_ends)
        return 1;
    if (!a->bank_ends || !b->bank_ends)
        return 0; /* the model refuses one of them, perhaps not the other */
    return memcmp(a->bank_ends, b->bank_ends, (banks_of(a) - 1) * sizeof(uint64_t)) == 0;
}

int wk_gpu_segments_equal(const struct wk_gpu_desc *a, const struct wk_gpu_desc *b)
{
    if (a->segment_count != b->segment_count)
        return 0;
    if (a->segment_count && (!a->segments || !b->segments))
        return a->segments == b->segments;
    for (uint32_t i = 0; i < a->segment_count; i++)
        if (!segment_equal(&a->segments[i], &b->segments[i]))
            return 0;
    return 1;
}

int wk_gpu_desc_equal(const struct wk_gpu_desc *a, const struct wk_gpu_desc *b)
{
    return a == b ||
           (a->sysmem_first_pfn == b->sysmem_first_pfn && a->sysmem_pages == b->sysmem_pages &&
            a->max_call_depth == b->max_call_depth && a->max_commands == b->max_commands &&
            a->max_bytes_moved == b->max_bytes_moved && a->max_dma_length == b->max_dma_length &&
            a->max_resident_pages == b->max_resident_pages && wk_gpu_segments_equal(a, b));
}

const struct wk_gpu_desc *wk_gpu_description(const struct wk_gpu *gpu)
{
    return &gpu->desc;
}

void wk_gpu_get_counters(const struct wk_gpu *gpu, struct wk_gpu_counters *out)
{
    *out = gpu->counters;
}

uint64_t wk_gpu_last_fence(const struct wk_gpu *gpu)
{
    return gpu->last_fence;
}

void wk_gpu_set_interrupt_handler(struct wk_gpu *gpu, wk_gpu_interrupt_fn *fn, void *user)
{
    gpu->irq_fn = fn;
    gpu->irq_user = user;
}
