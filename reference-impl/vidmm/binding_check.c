/* SPDX-License-Identifier: MIT */
/*
 * binding_check.c - a hardware binding on its own, before any driver: its
 * processor on seeded random buffers, each run twice on a freshly reset
 * memory system built from the binding's layout (`wddmkit binding check`).
 *
 * What processor.h asks of every processor, checked where a unit test of
 * the binding's own might not look:
 *   - it ends on ANY bytes (a crash or a hang is seen by the caller, who
 *     runs this in a child process and watches `progress`);
 *   - it answers within the interface (wk_gpu_exec_processor judges every
 *     answer: a class outside the enum, a fault outside the range, "ran to
 *     the end" after the budget said no);
 *   - it is deterministic: the same bytes on the same memory after the
 *     same reset give the same fault, the same counters, the same fence
 *     and the same memory (compared span by span: untouched memory costs
 *     nothing to compare).
 * The disassembler, when there is one, lists every buffer too.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "wddmkit/binding.h"

#define MAX_INPUT 4096u

_Static_assert(WK_BINDING_CHECK_COUNTS == WK_BINDING_CHECK_FAULT_BASE + WK_FAULT_CLASS_COUNT,
               "a count per fault class");

/* splitmix64: the input i of seed s, the same on every machine. */
static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A buffer of 4..MAX_INPUT bytes, a multiple of 4 (command formats are
 * mostly made of words): random words, with runs of small values so that
 * lengths and counts are sometimes plausible. */
static uint32_t input_of(uint64_t seed, uint64_t i, uint8_t *buf)
{
    uint64_t x = seed * 0x100000001B3ull ^ i;
    uint32_t len = 4u * (1u + (uint32_t)(mix(&x) % (MAX_INPUT / 4)));
    for (uint32_t at = 0; at < len; at += 4) {
        uint64_t r = mix(&x);
        uint32_t w = (r & 3) == 0 ? (uint32_t)(r >> 32) % 64 : (uint32_t)(r >> 32);
        memcpy(buf + at, &w, 4);
    }
    return len;
}

/* The outcome of one run, everything a deterministic processor repeats. */
struct outcome {
    wk_status st;
    uint32_t misbehaved;
    struct wk_exec_fault fault;
    struct wk_gpu_counters counters;
    uint64_t last_fence;
    uint64_t memory; /* FNV-1a over every region's spans: addresses, lengths, bytes */
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

static uint64_t memory_digest(struct wk_gpu *gpu)
{
    const struct wk_gpu_desc *d = wk_gpu_description(gpu);
    uint64_t h = 0xCBF29CE484222325ull;
    for (uint32_t s = 0; s <= d->segment_count; s++) {
        uint64_t base = s < d->segment_count ? d->segments[s].base : d->sysmem_first_pfn << WK_GPU_PAGE_SHIFT;
        uint64_t size = s < d->segment_count ? d->segments[s].size : d->sysmem_pages << WK_GPU_PAGE_SHIFT;
        if (s < d->segment_count && d->segments[s].kind == WK_GPU_SEGMENT_APERTURE)
            continue; /* its bytes are system memory's, digested there */
        struct wk_gpu_view v;
        struct wk_gpu_span span;
        if (wk_gpu_view_begin(gpu, base, size, &v) != WK_OK)
            continue;
        while (wk_gpu_view_next(&v, &span)) {
            if (!span.data)
                continue; /* never written: zeroes, nothing to tell apart */
            h = fnv(h, &span.addr, sizeof(span.addr));
            h = fnv(h, span.data, (size_t)span.length);
        }
    }
    return h;
}

/* Every aperture page maps a system page (wrapping over the pool), so
 * that accesses through an aperture can succeed as often as fail. */
static void map_apertures(struct wk_gpu *gpu)
{
    const struct wk_gpu_desc *d = wk_gpu_description(gpu);
    for (uint32_t s = 0; s < d->segment_count; s++) {
        if (d->segments[s].kind != WK_GPU_SEGMENT_APERTURE || d->sysmem_pages == 0)
            continue;
        uint64_t pages = d->segments[s].size >> WK_GPU_PAGE_SHIFT;
        for (uint64_t first = 0; first < pages; first += d->sysmem_pages) {
            uint64_t n = pages - first < d->sysmem_pages ? pages - first : d->sysmem_pages;
            (void)wk_gpu_gart_set_range(gpu, s + 1, first, n, d->sysmem_first_pfn);
        }
    }
}

static void one_run(const struct wk_binding *b, void *self, struct wk_gpu *gpu, const uint8_t *buf, uint32_t len,
                    struct outcome *o)
{
    memset(o, 0, sizeof(*o));
    wk_gpu_reset(gpu);
    if (b->reset && self)
        b->reset(self);
    map_apertures(gpu);
    const struct wk_gpu_desc *d = wk_gpu_description(gpu);
    uint64_t at = d->sysmem_first_pfn << WK_GPU_PAGE_SHIFT; /* the buffer in system memory's first pages */
    if (wk_gpu_write(gpu, at, buf, len) != WK_OK) {
        o->st = WK_E_NO_SPACE;
        return;
    }
    o->st = wk_gpu_exec_processor(gpu, b->processor, self, at, 0, len, buf, 0, 1, &o->fault, &o->misbehaved);
    wk_gpu_get_counters(gpu, &o->counters);
    o->last_fence = wk_gpu_last_fence(gpu);
    o->memory = memory_digest(gpu);
}

static int same(const struct outcome *a, const struct outcome *b)
{
    return a->st == b->st && a->misbehaved == b->misbehaved && memcmp(&a->fault, &b->fault, sizeof(a->fault)) == 0 &&
           memcmp(&a->counters, &b->counters, sizeof(a->counters)) == 0 && a->last_fence == b->last_fence &&
           a->memory == b->memory;
}

static void count_line(void *user, const char *line)
{
    (void)line;
    ++*(uint64_t *)user;
}

static void note_first(struct wk_binding_check_report *r, uint64_t i, const char *what)
{
    if (r->first_bad_input != UINT64_MAX)
        return;
    r->first_bad_input = i;
    snprintf(r->first_bad, sizeof(r->first_bad), "%s", what);
}

static void log_nothing(void *kit, const char *line)
{
    (void)kit;
    (void)line;
}

wk_status wk_vidmm_binding_selfcheck(const struct wk_binding *b, uint64_t first, uint64_t inputs, uint64_t seed,
                                     struct wk_binding_check_report *r)
{
    memset(r->counts, 0, sizeof(r->counts));
    r->first_bad_input = UINT64_MAX;
    r->first_bad[0] = 0;
    if (!b->processor || !b->memory)
        return WK_E_NOT_SUPPORTED;
    struct wk_gpu *gpu = NULL;
    char why[256];
    if (wk_gpu_create(b->memory, &gpu, why, sizeof(why)) != WK_OK)
        return WK_E_INVALID_ARGUMENT;
    struct wk_binding_host host = { sizeof(host), WK_BINDING_ABI_VERSION, wk_gpu_mem(gpu), wk_gpu_mem_ops(), NULL,
                                    log_nothing };
    void *self = b->create ? b->create(&host) : NULL;
    if (b->create && !self) {
        wk_gpu_destroy(gpu);
        note_first(r, first, "create returned NULL");
        return WK_E_BINDING;
    }
    uint8_t *buf = malloc(MAX_INPUT);
    for (uint64_t i = first; buf && i < first + inputs; i++) {
        if (r->progress)
            *r->progress = i;
        uint32_t len = input_of(seed, i, buf);
        struct outcome a, again;
        one_run(b, self, gpu, buf, len, &a);
        one_run(b, self, gpu, buf, len, &again);
        r->counts[WK_BINDING_CHECK_INPUTS]++;
        if (a.misbehaved) {
            r->counts[WK_BINDING_CHECK_MISBEHAVED]++;
            note_first(r, i, a.misbehaved == WK_EXEC_MISBEHAVED_BUDGET
                                 ? "ran on after the budget was spent (BIND-BUDGET-001)"
                                 : "answered outside processor.h (BIND-RESULT-001)");
        } else if (a.st == WK_OK) {
            r->counts[WK_BINDING_CHECK_RAN_TO_END]++;
        } else if (a.st == WK_E_GPU_FAULT && a.fault.cls < WK_FAULT_CLASS_COUNT) {
            r->counts[WK_BINDING_CHECK_FAULT_BASE + a.fault.cls]++;
        }
        if (!same(&a, &again)) {
            r->counts[WK_BINDING_CHECK_NONDETERMINISTIC]++;
            note_first(r, i, "the same bytes on the same reset memory gave another result (not deterministic)");
        }
        if (b->disasm) {
            uint64_t lines = 0;
            (void)b->disasm->list(self, buf, len, 0, count_line, &lines);
        }
    }
    free(buf);
    if (b->destroy && self)
        b->destroy(self);
    wk_gpu_destroy(gpu);
    return r->first_bad_input == UINT64_MAX ? WK_OK : WK_E_BINDING;
}
