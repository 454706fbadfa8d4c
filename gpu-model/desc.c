/* SPDX-License-Identifier: MIT */
/*
 * desc.c - adapter descriptions: whether the model takes one
 * (wk_gpu_check_desc, which wk_gpu_create runs first), and whether two
 * make the same model.
 *
 * The description comes from outside (a spec, a driver's segment report, a
 * fuzzer), so every field is checked and a rejection names the segment and
 * field with the value seen and the value expected. The check builds
 * nothing, so callers that only judge a description (the spec loader, the
 * YAML writer, the fuzz harnesses before they pick a kept adapter) pay
 * for no model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define PAGE_MASK ((uint64_t)WK_GPU_PAGE_SIZE - 1)

/* Formats the rejection reason (internal.h). */
wk_status gpu_reject(char *why, size_t size, const char *fmt, ...)
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
        return gpu_reject(why, size, "segment %u: banks on an aperture segment (only memory segments are banked)", id);
    if (s->bank_count > WK_GPU_MAX_BANKS)
        return gpu_reject(why, size, "segment %u: bank_count %u exceeds %u", id, s->bank_count, WK_GPU_MAX_BANKS);
    if (!s->bank_ends)
        return gpu_reject(why, size, "segment %u: bank_count %u but bank_ends is NULL", id, s->bank_count);
    uint64_t prev = 0;
    for (uint32_t i = 0; i + 1 < s->bank_count; i++) {
        uint64_t end = s->bank_ends[i];
        if (end <= prev || end >= s->size)
            return gpu_reject(why, size,
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
        return gpu_reject(why, size, "segment %u: kind %d, expected memory (0) or aperture (1)", id, (int)s->kind);
    if (s->base & PAGE_MASK)
        return gpu_reject(why, size, "segment %u: base 0x%llx is not 4 KiB aligned", id, (unsigned long long)s->base);
    if (s->size == 0 || (s->size & PAGE_MASK))
        return gpu_reject(why, size, "segment %u: size 0x%llx, expected a non-zero multiple of 4 KiB", id,
                      (unsigned long long)s->size);
    if (s->size > WK_GPU_MAX_REGION_SIZE)
        return gpu_reject(why, size, "segment %u: size 0x%llx exceeds the 1 TiB limit", id, (unsigned long long)s->size);
    if (s->base + s->size < s->base)
        return gpu_reject(why, size, "segment %u: base + size overflows 64 bits", id);
    return check_banks(s, id, why, size);
}

static wk_status check_fields(const struct wk_gpu_desc *d, char *why, size_t size)
{
    if (d->segment_count > WK_GPU_MAX_SEGMENTS)
        return gpu_reject(why, size, "segment_count %u exceeds %u", d->segment_count, WK_GPU_MAX_SEGMENTS);
    if (d->segment_count && !d->segments)
        return gpu_reject(why, size, "segment_count %u but segments is NULL", d->segment_count);
    for (uint32_t i = 0; i < d->segment_count; i++) {
        wk_status st = check_segment(&d->segments[i], i + 1, why, size);
        if (st != WK_OK)
            return st;
    }
    if (d->sysmem_pages == 0 || d->sysmem_pages > (WK_GPU_MAX_REGION_SIZE >> WK_GPU_PAGE_SHIFT))
        return gpu_reject(why, size, "sysmem_pages %llu, expected 1 .. %llu", (unsigned long long)d->sysmem_pages,
                      (unsigned long long)(WK_GPU_MAX_REGION_SIZE >> WK_GPU_PAGE_SHIFT));
    if (d->sysmem_first_pfn > (UINT64_MAX >> WK_GPU_PAGE_SHIFT) - d->sysmem_pages)
        return gpu_reject(why, size, "sysmem_first_pfn 0x%llx: system memory would end past 2^64",
                      (unsigned long long)d->sysmem_first_pfn);
    if (d->max_call_depth > WK_GPU_MAX_CALL_DEPTH)
        return gpu_reject(why, size, "max_call_depth %u exceeds %u", d->max_call_depth, WK_GPU_MAX_CALL_DEPTH);
    return WK_OK;
}


/* One region of the address space, for the overlap check: segment `id`
 * (0: system memory). */
struct span {
    uint64_t base, end;
    uint32_t id;
};

/* Regions never overlap (gpu.h). Called after check_fields, so no region
 * wraps past 2^64. An insertion sort keeps regions with equal bases in
 * description order (segments, then system memory), so the message names
 * the same pair whatever the library's sort would do. */
static wk_status check_layout(const struct wk_gpu_desc *d, char *why, size_t size)
{
    struct span s[WK_GPU_MAX_SEGMENTS + 1];
    uint32_t n = 0;
    for (uint32_t i = 0; i <= d->segment_count; i++) {
        struct span x = i < d->segment_count
                            ? (struct span){ d->segments[i].base, d->segments[i].base + d->segments[i].size, i + 1 }
                            : (struct span){ d->sysmem_first_pfn << WK_GPU_PAGE_SHIFT,
                                             (d->sysmem_first_pfn + d->sysmem_pages) << WK_GPU_PAGE_SHIFT, 0 };
        uint32_t j = n++;
        for (; j > 0 && s[j - 1].base > x.base; j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
    for (uint32_t i = 1; i < n; i++) {
        const struct span *a = &s[i - 1], *b = &s[i];
        if (a->end > b->base)
            return gpu_reject(why, size, "%s %u [0x%llx, 0x%llx) overlaps %s %u at 0x%llx",
                          a->id ? "segment" : "system memory", a->id, (unsigned long long)a->base,
                          (unsigned long long)a->end, b->id ? "segment" : "system memory", b->id,
                          (unsigned long long)b->base);
    }
    return WK_OK;
}

wk_status wk_gpu_check_desc(const struct wk_gpu_desc *desc, char *why, size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    if (!desc)
        return gpu_reject(why, why_size, "desc must not be NULL");
    wk_status st = check_fields(desc, why, why_size);
    return st == WK_OK ? check_layout(desc, why, why_size) : st;
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

