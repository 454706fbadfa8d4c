/* SPDX-License-Identifier: MIT */
/*
 * gpu.c - building a model from an adapter description, resetting it, and
 * reading its counters.
 *
 * The description is checked first (desc.c: wk_gpu_check_desc); what is
 * left here cannot fail but for host memory. A segment the options make
 * mappable is not sparse: its bytes are a run of the memfd behind system
 * memory, placed after it (sysmem.c, segmap.c), so its region gets a
 * pool offset here and its host pointer once that file is mapped.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int by_base(const void *a, const void *b)
{
    const struct region *x = *(const struct region *const *)a, *y = *(const struct region *const *)b;
    return x->base < y->base ? -1 : x->base > y->base;
}

/* The regions in address order, for space_find's binary search. The
 * description was checked first (wk_gpu_check_desc): they do not overlap. */
static void sort_regions(struct wk_gpu *gpu)
{
    for (uint32_t i = 0; i < gpu->region_count; i++)
        gpu->by_base[i] = &gpu->regions[i];
    qsort(gpu->by_base, gpu->region_count, sizeof(*gpu->by_base), by_base);
    for (uint32_t i = 0; i < gpu->region_count; i++) {
        gpu->bases[i] = gpu->by_base[i]->base;
        gpu->ends[i] = gpu->by_base[i]->base + gpu->by_base[i]->size;
    }
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
                       const struct wk_gpu_segment_desc *s, int mappable)
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
    if (mappable) { /* in the memfd after system memory and the mappable segments before it */
        r->pool_off = gpu->sys.file_size;
        gpu->sys.file_size += s->size;
        return 0;
    }
    if (s->kind == WK_GPU_SEGMENT_APERTURE) {
        uint64_t in_last = pages % PTES_PER_BLOCK ? pages % PTES_PER_BLOCK : PTES_PER_BLOCK;
        return sparse_init(&r->ptes, (pages + PTES_PER_BLOCK - 1) / PTES_PER_BLOCK,
                           (uint32_t)(in_last * sizeof(struct pte)), &gpu->pool);
    }
    return sparse_init(&r->bytes, pages, WK_GPU_PAGE_SIZE, &gpu->pool);
}

static wk_status build(struct wk_gpu *gpu, const struct wk_gpu_desc *d, uint32_t mappable)
{
    uint32_t n = d->segment_count;
    gpu->sys.file_size = d->sysmem_pages << WK_GPU_PAGE_SHIFT;
    gpu->region_count = n + 1;
    gpu->segdescs = calloc(n ? n : 1, sizeof(*gpu->segdescs));
    gpu->regions = calloc(n + 1, sizeof(*gpu->regions));
    gpu->by_base = calloc(n + 1, sizeof(*gpu->by_base));
    gpu->bases = calloc(2 * (n + 1), sizeof(*gpu->bases));
    gpu->ends = gpu->bases ? gpu->bases + n + 1 : NULL;
    if (!gpu->segdescs || !gpu->regions || !gpu->by_base || !gpu->bases)
        return WK_E_NO_MEMORY;
    for (uint32_t i = 0; i < n; i++) {
        if (init_region(gpu, &gpu->regions[i], i + 1, &d->segments[i], (int)(mappable >> i & 1)) != 0)
            return WK_E_NO_MEMORY;
        gpu->segdescs[i] = d->segments[i];
        gpu->segdescs[i].bank_count = gpu->regions[i].bank_count; /* 0 or 1 given: 0, one meaning */
        gpu->segdescs[i].bank_ends = gpu->regions[i].bank_ends;
    }
    struct wk_gpu_segment_desc sys = { WK_GPU_SEGMENT_MEMORY, d->sysmem_first_pfn << WK_GPU_PAGE_SHIFT,
                                       d->sysmem_pages << WK_GPU_PAGE_SHIFT, 0, NULL };
    if (init_region(gpu, &gpu->regions[n], 0, &sys, 0) != 0)
        return WK_E_NO_MEMORY;
    for (uint32_t i = 0; i < n; i++)
        if (mappable >> i & 1)
            gpu->regions[i].host = gpu->regions[n].host + gpu->regions[i].pool_off;
    gpu->desc.segments = gpu->segdescs;
    sort_regions(gpu);
    return WK_OK;
}

/* The options' mappable bits name memory segments of the description. */
static wk_status check_options(const struct wk_gpu_desc *desc, const struct wk_gpu_options *opt, char *why,
                               size_t why_size)
{
    uint32_t mask = opt ? opt->mappable_segments : 0;
    for (uint32_t i = 0; i < 32; i++) {
        if (!(mask >> i & 1))
            continue;
        const char *no = i >= desc->segment_count                                   ? "names no segment"
                         : desc->segments[i].kind != WK_GPU_SEGMENT_MEMORY ? "is an aperture (it holds no bytes)"
                                                                            : NULL;
        if (no) {
            if (why && why_size)
                snprintf(why, why_size, "mappable segment %u %s", i + 1, no);
            return WK_E_INVALID_ARGUMENT;
        }
    }
    return WK_OK;
}

wk_status wk_gpu_create(const struct wk_gpu_desc *desc, struct wk_gpu **out, char *why,
                        size_t why_size)
{
    return wk_gpu_create_ex(desc, NULL, out, why, why_size);
}

wk_status wk_gpu_create_ex(const struct wk_gpu_desc *desc, const struct wk_gpu_options *opt,
                           struct wk_gpu **out, char *why, size_t why_size)
{
    if (!out) {
        if (why && why_size)
            snprintf(why, why_size, "out must not be NULL");
        return WK_E_INVALID_ARGUMENT;
    }
    *out = NULL;
    wk_status st = wk_gpu_check_desc(desc, why, why_size);
    if (st == WK_OK)
        st = check_options(desc, opt, why, why_size);
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
    st = build(gpu, desc, opt ? opt->mappable_segments : 0);
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
        if (r->host && r->segment_id == 0) /* a mappable segment's bytes go with the file */
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
        if (r->host && r->segment_id == 0) /* and the mappable segments, in its file */
            sysmem_reset(gpu, r);
    }
    memset(&gpu->counters, 0, sizeof(gpu->counters));
    memset(&gpu->fe, 0, offsetof(struct frontend, faulted_seqs)); /* the seqs and the queue are dead when counted empty */
    gpu->last_fence = 0;
    gpu->fault_total = 0;
}

uint64_t wk_gpu_resident_pages(const struct wk_gpu *gpu)
{
    return gpu->pool.in_use + sysmem_resident(gpu, sysmem_region(gpu));
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
