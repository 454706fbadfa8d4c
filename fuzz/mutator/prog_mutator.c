/* SPDX-License-Identifier: MIT */
/*
 * prog_mutator.c - structure-aware mutation for fuzz_prog and fuzz_hostile
 * (step programs; fuzz_hostile's answer corruption too) and fuzz_render
 * (its render input, seeds_lib.h), one source for both engines:
 *   - libFuzzer: LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver,
 *     linked into fuzz_prog, into fuzz_hostile compiled with
 *     WK_MUTATOR_FORMAT_HOSTILE, and into fuzz_render compiled with
 *     WK_MUTATOR_FORMAT_RENDER (fuzz/CMakeLists.txt, libfuzzer preset only);
 *   - AFL++: afl_custom_init/afl_custom_fuzz/afl_custom_deinit, built with
 *     WK_MUTATOR_AFL as the shared library wk_afl_prog_mutator
 *     (AFL_CUSTOM_MUTATOR_LIBRARY=.../libwk_afl_prog_mutator.so); the format
 *     is chosen at run time with WK_MUTATOR=prog (default), hostile or render.
 *
 * Why: byte flips on an encoded program mostly shift every later field,
 * so a mutation rarely means "one more step" or "another allocation". Here
 * an input is decoded, edited as a program (insert, delete, duplicate or
 * swap steps, change one field, point a step at another object, splice
 * steps of a second input, change the adapter knobs, take a second input's
 * adapter or shrink a segment) and encoded again: the
 * codec round-trips exactly (decode(encode(p)) == p), so every output is
 * the program that was meant. For fuzz_render the records of the user
 * command buffer, the allocation list and the patch entries are edited the
 * same way. One mutation in four is left to the engine's byte-level
 * mutator (LLVMFuzzerMutate; AFL++ runs its own havoc stage anyway), which
 * finds what structure hides: bad magics, truncations, lying lengths.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "inputs/seeds_lib.h"

/* ------------------------------------------------------------------ */
/* Randomness                                                           */
/* ------------------------------------------------------------------ */

struct rng {
    uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
    uint64_t x = r->s ? r->s : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static uint32_t below(struct rng *r, uint32_t n)
{
    return n ? (uint32_t)(rnd(r) % n) : 0;
}

/* A value a field of this kit likes to see: sizes, page and segment edges,
 * limits, all-ones, or anything. */
static uint64_t interesting(struct rng *r)
{
    static const uint64_t v[] = {
        0, 1, 2, 4, 7, 8, 16, 28, 64, 0xFF, 0x100, 0x1000, 0x1008, 0x2000, 0x3FF8, 0x4000, 0x8000,
        0x10000, 0x40000, 0x100000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF8, 0xFFFFFFFF, 0x100000000ull,
        0x400000, 0x800000, 0x83F000, 0x10000000,
    };
    uint32_t i = below(r, (uint32_t)(sizeof(v) / sizeof(v[0])) + 4);
    return i < sizeof(v) / sizeof(v[0]) ? v[i] : rnd(r) >> below(r, 64);
}

/* ------------------------------------------------------------------ */
/* Programs: steps                                                      */
/* ------------------------------------------------------------------ */

/* Objects of each kind created before step `at` (what an index can name). */
static void objects_before(const struct wk_prog *p, uint32_t at, uint32_t *dev, uint32_t *ctx, uint32_t *alloc)
{
    *dev = *ctx = *alloc = 0;
    for (uint32_t i = 0; i < at && i < p->step_count; i++) {
        enum wk_step_kind k = p->steps[i].kind;
        *dev += k == WK_STEP_CREATE_DEVICE;
        *ctx += k == WK_STEP_CREATE_CONTEXT;
        *alloc += k == WK_STEP_CREATE_ALLOCATION;
    }
}

/* An index into `n` objects, now and then one past them (NOT_FOUND). */
static uint32_t pick_index(struct rng *r, uint32_t n)
{
    return below(r, 8) == 0 ? n + below(r, 2) : below(r, n ? n : 1);
}

static void random_record(struct rng *r, struct wk_prog_record *c, uint32_t list_length)
{
    memset(c, 0, sizeof(*c));
    c->op = below(r, WK_USER_OP_COUNT);
    c->src.list_index = pick_index(r, list_length);
    c->dst.list_index = pick_index(r, list_length);
    c->src.offset = below(r, 4) ? below(r, 16) * 256 : (uint32_t)interesting(r);
    c->dst.offset = below(r, 4) ? below(r, 16) * 256 : (uint32_t)interesting(r);
    c->size = below(r, 4) ? 4 * (1 + below(r, 256)) : (uint32_t)interesting(r);
    c->value = (uint32_t)rnd(r);
    c->width = 1 + below(r, 64);
    c->height = 1 + below(r, 16);
    c->src_pitch = c->width + below(r, 64);
    c->dst_pitch = c->width + below(r, 64);
}

static void random_render(struct rng *r, struct wk_prog_render *g, uint32_t nctx, uint32_t nalloc)
{
    memset(g, 0, sizeof(*g));
    g->context = pick_index(r, nctx);
    g->no_prepatch_info = below(r, 4) == 0;
    g->list_length = 1 + below(r, 4);
    for (uint32_t i = 0; i < g->list_length; i++) {
        g->list_alloc[i] = below(r, 8) ? 1 + pick_index(r, nalloc) : 0;
        g->list_write[i] = (uint8_t)below(r, 2);
    }
    g->record_count = 1 + below(r, 4);
    for (uint32_t i = 0; i < g->record_count; i++)
        random_record(r, &g->records[i], g->list_length);
}

static void random_allocation(struct rng *r, struct wk_prog_allocation *a, uint32_t ndev)
{
    static const uint32_t sizes[] = { 4096, 8192, 12288, 16384, 65536, 131072, 1, 4095 };
    static const uint32_t prefs[] = { 0, 1, 2, 3, 1 | 1u << 5, 2 | 2u << 6, 3 | 1u << 6 };
    memset(a, 0, sizeof(*a));
    a->device = pick_index(r, ndev);
    a->size = sizes[below(r, 8)];
    a->alignment = below(r, 4) ? 0 : 1u << below(r, 17);
    a->preferred = prefs[below(r, 7)];
    a->hinted_bank = below(r, 3) ? 0 : 1 + below(r, 4) + (below(r, 2) << 7);
    a->supported_set = below(r, 2) ? 0 : below(r, 8);
    a->eviction_set = below(r, 3) ? 0 : below(r, 8);
    a->flags = below(r, 3) ? 0 : 1u << below(r, 19);
}

/* A patch step's payload: a few entries naming existing allocations, some
 * with SegmentId/PhysicalAddress of their own, slots inside and outside
 * the range, a short DMA content. NULL when out of memory. */
static struct wk_prog_patch *random_patch(struct rng *r, uint32_t nctx, uint32_t nalloc)
{
    uint32_t dma = below(r, 4) ? below(r, 65) : 0;
    struct wk_prog_patch *g = wk_prog_patch_new(dma);
    if (!g)
        return NULL;
    g->context = pick_index(r, nctx);
    g->list_length = 1 + below(r, 4);
    for (uint32_t i = 0; i < g->list_length; i++) {
        struct wk_prog_patch_entry *e = &g->list[i];
        e->allocation = below(r, 6) ? 1 + pick_index(r, nalloc) : 0;
        e->resident = e->allocation && below(r, 2);
        e->write = (int)below(r, 2);
        e->segment_id = below(r, 5);
        e->address = below(r, 2) ? 0x100000u + 4096u * below(r, 64) : interesting(r);
    }
    g->patch_length = below(r, 5);
    for (uint32_t i = 0; i < g->patch_length; i++) {
        g->patch[i].allocation_index = below(r, g->list_length + 1);
        g->patch[i].patch_offset = below(r, 4) ? 8 * below(r, 64) : (uint32_t)interesting(r);
        g->patch[i].allocation_offset = below(r, 2) ? 0 : (uint32_t)interesting(r);
    }
    g->end = below(r, 4) ? 8 * below(r, 65) : (uint32_t)interesting(r);
    g->start = below(r, 2) ? 0 : below(r, g->end + 1);
    g->patch_count = g->patch_length;
    for (uint32_t i = 0; i < dma; i++)
        g->dma[i] = (uint8_t)rnd(r);
    wk_prog_patch_trim(g);
    return g;
}

/* A new step of any action kind, naming objects that exist at `at`. */
static int random_step(struct rng *r, const struct wk_prog *p, uint32_t at, struct wk_step *s)
{
    uint32_t ndev, nctx, nalloc;
    objects_before(p, at, &ndev, &nctx, &nalloc);
    memset(s, 0, sizeof(*s));
    s->kind = (enum wk_step_kind)below(r, WK_STEP_EXPECT_BYTES + 1); /* actions only: checks need values */
    if (s->kind == WK_STEP_EXPECT_BYTES)
        s->kind = WK_STEP_PATCH; /* the one action kind after the checks */
    if (below(r, 24) == 0)
        s->kind = WK_STEP_QUEUE; /* the renders after it left queued on the GPU */
    s->device = pick_index(r, ndev);
    s->context = pick_index(r, nctx);
    s->allocation = pick_index(r, nalloc);
    s->flags = below(r, 4) ? 0 : below(r, 4);
    s->segment = below(r, 5);
    s->offset = below(r, 2) ? 8 * below(r, 512) : interesting(r);
    s->value = rnd(r) & (s->kind == WK_STEP_HOLD ? 3 : UINT64_MAX);
    if (s->kind == WK_STEP_QUEUE) { /* 2 to 5 renders, an interrupt for each half the time */
        s->value = 2 + below(r, 4);
        s->flags = below(r, 2) ? WK_PROG_QUEUE_EACH : 0;
    }
    s->relative = below(r, 4) != 0;
    s->address = interesting(r);
    s->write = (int)below(r, 2);
    s->length = 1 + below(r, 16);
    for (uint32_t i = 0; i < s->length; i++)
        s->data[i] = (uint8_t)rnd(r);
    random_allocation(r, &s->alloc, ndev);
    /* the GPU virtual address steps: a size, a process, a FILL or a COPY,
     * a page fault the buffer is to meet, a read-only mapping */
    s->size = below(r, 4) ? WK_GPU_PAGE_SIZE * (1 + below(r, 16)) : 1 + below(r, 0x10000);
    s->process = below(r, 4) ? 0 : below(r, WK_PROG_MAX_PROCESSES);
    s->op = below(r, WK_VIRTUAL_OP_COUNT);
    s->fault = below(r, 3) ? WK_VA_FAULT_NONE : below(r, WK_VA_FAULT_COUNT);
    s->read_only = below(r, 4) == 0;
    if (s->kind == WK_STEP_FILL || (s->kind == WK_STEP_SUBMIT_VIRTUAL && s->op == WK_VIRTUAL_FILL))
        s->value &= 0xFFFFFFFFu;
    if (s->kind == WK_STEP_PATCH)
        return (s->patch = random_patch(r, nctx, nalloc)) ? 0 : -1;
    if (s->kind != WK_STEP_RENDER)
        return 0;
    if (!(s->render = malloc(sizeof(*s->render))))
        return -1;
    random_render(r, s->render, nctx, nalloc);
    return 0;
}

/* dst = src, with its own copy of a render or patch payload. */
static int step_copy(struct wk_step *dst, const struct wk_step *src)
{
    *dst = *src;
    if (src->patch && !(dst->patch = wk_prog_patch_dup(src->patch)))
        return -1;
    if (!src->render)
        return 0;
    if (!(dst->render = malloc(sizeof(*dst->render)))) {
        free(dst->patch);
        dst->patch = NULL;
        return -1;
    }
    *dst->render = *src->render;
    return 0;
}

static void step_release(struct wk_step *s)
{
    free(s->render);
    free(s->patch);
    s->render = NULL;
    s->patch = NULL;
}

static int insert_step(struct wk_prog *p, uint32_t at, const struct wk_step *s)
{
    if (p->step_count >= WK_PROG_MAX_STEPS)
        return -1;
    memmove(&p->steps[at + 1], &p->steps[at], (p->step_count - at) * sizeof(p->steps[0]));
    p->steps[at] = *s;
    p->step_count++;
    return 0;
}

static void delete_step(struct wk_prog *p, uint32_t at)
{
    step_release(&p->steps[at]);
    memmove(&p->steps[at], &p->steps[at + 1], (p->step_count - at - 1) * sizeof(p->steps[0]));
    p->step_count--;
    memset(&p->steps[p->step_count], 0, sizeof(p->steps[0]));
}

/* ------------------------------------------------------------------ */
/* Programs: fields                                                     */
/* ------------------------------------------------------------------ */

static void mutate_record_field(struct rng *r, struct wk_prog_record *c, uint32_t list_length)
{
    switch (below(r, 7)) {
    case 0: c->op = below(r, WK_USER_OP_COUNT); break;
    case 1: c->src.list_index = pick_index(r, list_length); break;
    case 2: c->dst.list_index = pick_index(r, list_length); break;
    case 3: c->src.offset = (uint32_t)interesting(r); break;
    case 4: c->dst.offset = (uint32_t)interesting(r); break;
    case 5: c->size = (uint32_t)interesting(r); break;
    default:
        c->width = (uint32_t)interesting(r) & 0xFFFF;
        c->height = below(r, 64);
        c->src_pitch = (uint32_t)interesting(r);
        c->dst_pitch = (uint32_t)interesting(r);
        break;
    }
}

/* Inserts, deletes or edits a record; indices name up to list_length entries. */
static void mutate_records(struct rng *r, struct wk_prog_render *g, uint32_t list_length)
{
    uint32_t n = g->record_count;
    switch (below(r, 3)) {
    case 0:
        if (n < WK_PROG_MAX_RECORDS)
            random_record(r, &g->records[g->record_count++], list_length);
        break;
    case 1:
        if (n) {
            uint32_t at = below(r, n);
            memmove(&g->records[at], &g->records[at + 1], (n - at - 1) * sizeof(g->records[0]));
            g->record_count--;
        }
        break;
    default:
        if (n)
            mutate_record_field(r, &g->records[below(r, n)], list_length);
        break;
    }
}

/* Inserts, deletes or edits a user patch-location entry (what a driver's
 * Render must validate, RENDER-PATCH-*): indices near the list's end,
 * offsets at the kit's edges, now and then a reserved byte. */
static void mutate_user_patches(struct rng *r, struct wk_prog_render *g)
{
    uint32_t n = g->patch_length;
    struct wk_prog_patch_location *l = n ? &g->patch[below(r, n)] : NULL;
    switch (below(r, 4)) {
    case 0:
        if (n < WK_PROG_MAX_USER_PATCHES) {
            memset(&g->patch[n], 0, sizeof(g->patch[n]));
            g->patch[n].allocation_index = below(r, g->list_length + 2);
            g->patch[n].patch_offset = (uint32_t)interesting(r);
            g->patch_length++;
        }
        break;
    case 1: if (n) g->patch_length--; break;
    case 2: if (l) { l->allocation_index = below(r, g->list_length + 2); l->slot_id = below(r, 4); } break;
    default:
        if (l) {
            l->allocation_offset = (uint32_t)interesting(r);
            l->patch_offset = (uint32_t)interesting(r);
            l->split_offset = below(r, 4) ? 0 : (uint32_t)interesting(r);
            l->reserved = below(r, 8) ? 0 : below(r, 256);
        }
        break;
    }
}

/* Edits a render payload: records, list entries, user patch list, flags. */
static void mutate_render(struct rng *r, struct wk_prog_render *g, uint32_t nalloc)
{
    switch (below(r, 8)) { /* records half the time */
    case 0:
        if (g->list_length < WK_PROG_MAX_LIST && below(r, 2))
            g->list_length++;
        else if (g->list_length)
            g->list_length--;
        break;
    case 1:
        if (g->list_length) {
            uint32_t i = below(r, g->list_length);
            g->list_alloc[i] = below(r, 6) ? 1 + pick_index(r, nalloc) : 0;
            g->list_write[i] = (uint8_t)below(r, 2);
        }
        break;
    case 2: g->no_prepatch_info = !g->no_prepatch_info; break;
    case 3: mutate_user_patches(r, g); break;
    default: mutate_records(r, g, g->list_length); break;
    }
}

static void mutate_allocation_field(struct rng *r, struct wk_prog_allocation *a)
{
    struct wk_prog_allocation fresh;
    random_allocation(r, &fresh, a->device + 1);
    switch (below(r, 6)) {
    case 0: a->size = below(r, 2) ? fresh.size : interesting(r) % (WK_PROG_MAX_ALLOCATION + 1); break;
    case 1: a->alignment = fresh.alignment; break;
    case 2: a->preferred = below(r, 2) ? fresh.preferred : (uint32_t)rnd(r); break;
    case 3: a->hinted_bank = fresh.hinted_bank; break;
    case 4: a->supported_set = fresh.supported_set; a->eviction_set = fresh.eviction_set; break;
    default: a->flags ^= 1u << below(r, 32); break;
    }
}

/* Edits a patch payload in place, keeping every field in its range (the
 * DMA length never grows here: the payload has no room). */
static void mutate_patch(struct rng *r, struct wk_prog_patch *g, uint32_t nalloc)
{
    struct wk_prog_patch_entry *e = g->list_length ? &g->list[below(r, g->list_length)] : NULL;
    struct wk_prog_patch_location *l = g->patch_length ? &g->patch[below(r, g->patch_length)] : NULL;
    switch (below(r, 8)) {
    case 0: if (g->list_length < WK_PROG_MAX_PATCH_LIST) g->list_length++; break;
    case 1: if (e) { e->allocation = below(r, 6) ? 1 + pick_index(r, nalloc) : 0; e->resident = !e->resident; } break;
    case 2: if (e) { e->segment_id = below(r, 32); e->address = interesting(r); e->write = !e->write; } break;
    case 3: if (g->patch_length < WK_PROG_MAX_PATCHES) g->patch[g->patch_length++].allocation_index = below(r, 4); break;
    case 4: if (l) l->patch_offset = below(r, 2) ? 8 * below(r, 64) : (uint32_t)interesting(r); break;
    case 5: if (l) { l->allocation_index = below(r, g->list_length + 2); l->allocation_offset = (uint32_t)interesting(r); } break;
    case 6: g->end = (uint32_t)interesting(r); g->start = below(r, 2) ? 0 : (uint32_t)interesting(r); break;
    default: if (g->dma_length) g->dma[below(r, g->dma_length)] = (uint8_t)rnd(r); break;
    }
    g->patch_start = g->patch_start > g->patch_length ? g->patch_length : g->patch_start;
    g->patch_count = g->patch_length - g->patch_start;
    wk_prog_patch_trim(g);
}

static int va_step(enum wk_step_kind k)
{
    return k == WK_STEP_VA_MAP || k == WK_STEP_VA_UNMAP || k == WK_STEP_SUBMIT_VIRTUAL ||
           k == WK_STEP_MOVE_ROOT_TABLE || k == WK_STEP_EXPECT_VA || k == WK_STEP_END_PROCESS;
}

/* One of the fields only the GPU virtual address steps read. */
static void mutate_va_field(struct rng *r, struct wk_step *s)
{
    switch (below(r, 5)) {
    case 0: s->process = below(r, WK_PROG_MAX_PROCESSES); break;
    case 1: s->fault = below(r, WK_VA_FAULT_COUNT); break;
    case 2: s->op = below(r, WK_VIRTUAL_OP_COUNT); break;
    case 3:
        if (s->kind == WK_STEP_MOVE_ROOT_TABLE)
            s->flags ^= WK_PROG_ROOT_BY_COPY;
        else
            s->read_only = !s->read_only;
        break;
    default: s->size = below(r, 2) ? WK_GPU_PAGE_SIZE * (1 + below(r, 16)) : 1 + below(r, 0x10000); break;
    }
    if (s->kind == WK_STEP_SUBMIT_VIRTUAL && s->op == WK_VIRTUAL_FILL)
        s->value &= 0xFFFFFFFFu;
}

/* Changes one field of step `at`, object indices included. */
static void mutate_field(struct rng *r, struct wk_prog *p, uint32_t at)
{
    struct wk_step *s = &p->steps[at];
    uint32_t ndev, nctx, nalloc;
    objects_before(p, at, &ndev, &nctx, &nalloc);
    if (s->kind == WK_STEP_RENDER && s->render) {
        if (below(r, 4))
            mutate_render(r, s->render, nalloc);
        else
            s->render->context = pick_index(r, nctx);
        return;
    }
    if (s->kind == WK_STEP_PATCH && s->patch) {
        if (below(r, 4))
            mutate_patch(r, s->patch, nalloc);
        else
            s->patch->context = pick_index(r, nctx);
        return;
    }
    if (s->kind == WK_STEP_CREATE_ALLOCATION) {
        mutate_allocation_field(r, &s->alloc);
        return;
    }
    if (va_step(s->kind) && below(r, 2)) {
        mutate_va_field(r, s);
        return;
    }
    switch (below(r, 7)) {
    case 0: s->allocation = pick_index(r, nalloc); break;
    case 1: s->device = pick_index(r, ndev); break;
    case 2: s->context = pick_index(r, nctx); break;
    case 3: s->segment = below(r, 6); break;
    case 4: s->offset = interesting(r) & 0xFFFFFFFFu; break;
    case 5: s->value = s->kind == WK_STEP_FILL ? (uint32_t)rnd(r) : interesting(r); break;
    default: s->relative = !s->relative; s->write = !s->write; s->flags ^= 1u << below(r, 3); break;
    }
}

/* q's whole adapter into p: its GPU description, system memory, seed and
 * knobs (the codec's adapter block and header). Programs of different
 * spec cases then meet on each other's adapters: a render case on the
 * 64 KiB segment of an eviction case is under memory pressure. */
static void adopt_adapter(struct wk_prog *p, const struct wk_prog *q)
{
    p->gpu = q->gpu;
    p->vidmm = q->vidmm;
    for (uint32_t i = 0; i < 8; i++) {
        if (i < q->gpu.segment_count)
            p->segments[i] = q->gpu.segments[i];
        for (uint32_t b = 0; i < q->gpu.segment_count && b + 1 < q->gpu.segments[i].bank_count && b < 15; b++)
            p->bank_ends[i][b] = q->gpu.segments[i].bank_ends[b];
        p->segments[i].bank_ends = p->bank_ends[i];
    }
    p->gpu.segments = p->segments;
}

/* A memory segment without banks made smaller (a page multiple, at least a
 * page): the same program under memory pressure. Keeps the description
 * valid: the segment shrinks in place and overlaps nothing new. */
static void shrink_segment(struct rng *r, struct wk_prog *p)
{
    uint32_t i = below(r, p->gpu.segment_count);
    if (p->gpu.segments != p->segments || p->segments[i].kind != WK_GPU_SEGMENT_MEMORY || p->segments[i].bank_count >= 2)
        return;
    uint64_t pages = p->segments[i].size / WK_GPU_PAGE_SIZE;
    p->segments[i].size = (1 + (uint64_t)below(r, pages > 1 ? (uint32_t)(pages - 1) : 1)) * WK_GPU_PAGE_SIZE;
}

/* First fence ids worth a program (knob bit 4 of the format): the kit's
 * usual 1, just below and at 0x10000 (a driver that keeps ids in 16 bits
 * reports another fence), and across bit 31 (one that keeps them in an
 * int); SubmissionFenceId is a UINT (facts §4.4). */
static const uint32_t first_fences[] = { 0, 0xFFFCu, 0x10000u, 0x7FFFFFFCu };

/* The adapter: the paging knobs of the header, or the GPU description
 * (another input's adapter, the reference one, a smaller segment). */
static void mutate_knobs(struct rng *r, struct wk_prog *p, const struct wk_prog *other)
{
    static struct wk_prog reference; /* wk_prog_init's adapter */
    switch (below(r, 7)) {
    case 0: p->vidmm.paging_buffer_size = wk_paging_buffer_sizes[below(r, WK_PAGING_BUFFER_SIZES)]; break;
    case 1: p->vidmm.transfer_chunk = (uint64_t)below(r, 5) * WK_GPU_PAGE_SIZE; break;
    case 2:
        switch (below(r, 3)) {
        case 0: p->vidmm.split_submissions = !p->vidmm.split_submissions; break;
        case 1: p->vidmm.grown_patch_list = !p->vidmm.grown_patch_list; break;
        default: p->vidmm.first_fence = first_fences[below(r, sizeof(first_fences) / sizeof(first_fences[0]))]; break;
        }
        break;
    case 3: p->vidmm.query_segment_version = p->vidmm.query_segment_version == 4 ? 0 : 4; break;
    case 4: if (other) adopt_adapter(p, other); break;
    case 5:
        if (!reference.gpu.segment_count)
            wk_prog_init(&reference);
        adopt_adapter(p, &reference);
        break;
    default: shrink_segment(r, p); break;
    }
}

/* fuzz_hostile keeps a program's answer corruption (the rewrite of its
 * header) and so mutates it too; fuzz_prog strips it, and a mutation
 * spent on it would be lost. Set once by the engine glue below. */
static int mutate_rewrites;

/* Another corruption of the catalogue, another matching call (0: every
 * one), another parameter, or the corruption switched off or on. */
static void mutate_rewrite(struct rng *r, struct wk_prog *p)
{
    uint32_t n = 0;
    while (wk_mutation_at(n))
        n++;
    struct wk_prog_rewrite *w = &p->rewrite;
    switch (p->has_rewrite ? below(r, 4) : 0) {
    case 0:
        snprintf(w->mutation, sizeof(w->mutation), "%s", wk_mutation_at(below(r, n))->name);
        p->has_rewrite = 1;
        break;
    case 1: w->call = below(r, 4) ? 1 + below(r, 16) : 0; break;
    case 2:
        if (strcmp(w->mutation, "answer-byte") == 0 || strcmp(w->mutation, "answer-output-byte") == 0 ||
            strcmp(w->mutation, "answer-dma-byte") == 0)
            /* an offset into what the answer wrote, a byte for it */
            w->param = (int64_t)(below(r, 256) | (uint32_t)(rnd(r) & 0xFF) << 16);
        else
            w->param = below(r, 2) ? (int64_t)below(r, 64) : (int64_t)(int32_t)interesting(r);
        break;
    default: p->has_rewrite = 0; break;
    }
}

/* ------------------------------------------------------------------ */
/* Programs: one mutation                                               */
/* ------------------------------------------------------------------ */

/* Steps [from, from + n) of q inserted into p at `at`. */
static void splice(struct rng *r, struct wk_prog *p, const struct wk_prog *q)
{
    if (!q || !q->step_count)
        return;
    uint32_t from = below(r, q->step_count), n = 1 + below(r, q->step_count - from);
    uint32_t at = below(r, p->step_count + 1);
    for (uint32_t i = 0; i < n && p->step_count < WK_PROG_MAX_STEPS; i++) {
        struct wk_step s;
        if (step_copy(&s, &q->steps[from + i]) != 0)
            return;
        if (insert_step(p, at + i, &s) != 0) {
            step_release(&s);
            return;
        }
    }
}

/* Where a new queue step goes: before the first render at or after `at`,
 * counting the renders in a row there (so that they queue; at least 2),
 * or anywhere when none follows. */
static uint32_t queue_position(struct rng *r, const struct wk_prog *p, uint32_t at, struct wk_step *s)
{
    uint32_t i = at;
    while (i < p->step_count && p->steps[i].kind != WK_STEP_RENDER)
        i++;
    if (i == p->step_count)
        return below(r, p->step_count + 1);
    uint32_t k = 0;
    while (i + k < p->step_count && p->steps[i + k].kind == WK_STEP_RENDER)
        k++;
    s->value = k < 2 ? 2 : k > WK_PROG_MAX_QUEUE ? WK_PROG_MAX_QUEUE : k;
    return i;
}

static void mutate_prog_once(struct rng *r, struct wk_prog *p, const struct wk_prog *other)
{
    uint32_t n = p->step_count, at = below(r, n ? n : 1);
    struct wk_step s;
    if (mutate_rewrites && below(r, 4) == 0) {
        mutate_rewrite(r, p);
        return;
    }
    switch (below(r, 8)) {
    case 0:
    case 1:
        if (random_step(r, p, at, &s) != 0)
            break;
        if (insert_step(p, s.kind == WK_STEP_QUEUE ? queue_position(r, p, at, &s) : below(r, n + 1), &s) != 0)
            step_release(&s);
        break;
    case 2: if (n) delete_step(p, at); break;
    case 3:
        if (n && step_copy(&s, &p->steps[at]) == 0 && insert_step(p, at + 1, &s) != 0)
            step_release(&s);
        break;
    case 4:
        if (n > 1) {
            uint32_t b = below(r, n);
            s = p->steps[at];
            p->steps[at] = p->steps[b];
            p->steps[b] = s;
        }
        break;
    case 5: splice(r, p, other); break;
    case 6: mutate_knobs(r, p, other); break;
    default: if (n) mutate_field(r, p, at); break;
    }
}

/* Encodes p into buf (at most max bytes), dropping trailing steps until it
 * fits (any prefix of a program is a program). */
static size_t encode_fitting(struct wk_prog *p, uint8_t *buf, size_t max)
{
    size_t need = wk_prog_encode(p, buf, max); /* writes what fits, counts it all */
    while (need > max && p->step_count > 0) {
        step_release(&p->steps[--p->step_count]);
        need = wk_prog_encode(p, buf, max);
    }
    return need <= max ? need : 0;
}

/* Releases a program decoded with wk_prog_decode_again and edited, whose
 * steps reached `high`: steps are left all zero for the next decode, which
 * then clears nothing it need not (wk_prog_decode_again). */
static void prog_done(struct wk_prog *p, uint32_t high)
{
    wk_prog_free(p);
    memset(p->steps, 0, high * sizeof(p->steps[0]));
    p->step_count = 0;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

static size_t mutate_prog(struct rng *r, uint8_t *data, size_t size, size_t max, const uint8_t *other,
                          size_t other_size)
{
    static struct wk_prog p, q;
    wk_prog_decode_again(data, size, &p);
    if (other)
        wk_prog_decode_again(other, other_size, &q);
    uint32_t high = p.step_count;
    for (uint32_t i = 1 + below(r, 3); i > 0; i--) {
        mutate_prog_once(r, &p, other ? &q : NULL);
        high = max_u32(high, p.step_count);
    }
    size_t out = encode_fitting(&p, data, max);
    prog_done(&p, high);
    if (other)
        wk_prog_free(&q); /* unedited: its steps past step_count are still zero */
    return out ? out : size;
}

/* ------------------------------------------------------------------ */
/* fuzz_render inputs                                                   */
/* ------------------------------------------------------------------ */

struct render_doc {
    uint32_t flags, list_length, patch_length;
    uint8_t list[WK_RENDER_MAX_LIST];
    uint8_t patch[WK_RENDER_MAX_PATCH][WK_RENDER_PATCH_ENTRY];
    struct wk_prog_render cmd;         /* records, when the buffer parses */
    int parsed;                        /* 0: the command buffer is kept raw */
};

static void render_parse(const uint8_t *data, size_t size, struct render_doc *d)
{
    struct wk_render_input in;
    wk_render_parse(data, size, &in);
    memset(d, 0, offsetof(struct render_doc, cmd)); /* the parser clears what it uses of cmd */
    d->flags = in.flags;
    d->list_length = in.list_length;
    memcpy(d->list, in.list, sizeof(d->list));
    d->patch_length = in.patch_length;
    if (in.patch_bytes)
        memcpy(d->patch, in.patch, in.patch_bytes);
    d->parsed = wk_render_command_records(in.command, in.command_length, &d->cmd);
}

static void mutate_render_doc(struct rng *r, struct render_doc *d)
{
    uint32_t i;
    switch (below(r, 6)) {
    case 0: d->flags ^= 1u << below(r, 2); break;
    case 1:
        d->list_length = d->list_length < WK_RENDER_MAX_LIST && below(r, 2) ? d->list_length + 1
                         : d->list_length ? d->list_length - 1 : 0;
        break;
    case 2:
        if (d->list_length)
            d->list[below(r, d->list_length)] = (uint8_t)(below(r, WK_RENDER_SLOTS + 1) | (below(r, 2) << 7));
        break;
    case 3:
        if (d->patch_length < WK_RENDER_MAX_PATCH && below(r, 3) == 0)
            d->patch_length++;
        else if (d->patch_length) {
            i = below(r, d->patch_length);
            uint32_t v = (uint32_t)interesting(r), at = 4 * below(r, WK_RENDER_PATCH_ENTRY / 4);
            memcpy(d->patch[i] + at, &v, 4);
        }
        break;
    default:
        if (d->parsed) /* the list is the input's own, not the payload's */
            mutate_records(r, &d->cmd, d->list_length);
        break;
    }
}

static size_t render_encode(const struct render_doc *d, const uint8_t *raw, size_t raw_len, uint8_t *out,
                            size_t max)
{
    static uint8_t buf[WK_RENDER_HEADER + WK_RENDER_MAX_LIST + WK_RENDER_MAX_PATCH * WK_RENDER_PATCH_ENTRY +
                       WK_RENDER_MAX_COMMAND];
    size_t n = 0;
    buf[n++] = (uint8_t)d->flags;
    buf[n++] = (uint8_t)d->list_length;
    buf[n++] = (uint8_t)d->patch_length;
    buf[n++] = 0;
    memcpy(buf + n, d->list, d->list_length);
    n += d->list_length;
    memcpy(buf + n, d->patch, (size_t)d->patch_length * WK_RENDER_PATCH_ENTRY);
    n += (size_t)d->patch_length * WK_RENDER_PATCH_ENTRY;
    if (d->parsed)
        n += wk_prog_render_command(&d->cmd, buf + n, WK_RENDER_MAX_COMMAND);
    else {
        raw_len = raw_len < WK_RENDER_MAX_COMMAND ? raw_len : WK_RENDER_MAX_COMMAND;
        memcpy(buf + n, raw, raw_len);
        n += raw_len;
    }
    n = n < max ? n : max;
    memcpy(out, buf, n);
    return n;
}

static size_t mutate_render_input(struct rng *r, uint8_t *data, size_t size, size_t max)
{
    static struct render_doc d;
    static uint8_t raw[WK_RENDER_MAX_COMMAND];
    struct wk_render_input in;
    wk_render_parse(data, size, &in);
    size_t raw_len = in.command_length;
    if (raw_len)
        memcpy(raw, in.command, raw_len);
    render_parse(data, size, &d);
    for (uint32_t i = 1 + below(r, 3); i > 0; i--)
        mutate_render_doc(r, &d);
    return render_encode(&d, raw, raw_len, data, max);
}

/* ------------------------------------------------------------------ */
/* Engines                                                              */
/* ------------------------------------------------------------------ */

#ifdef WK_MUTATOR_AFL

/* AFL++: the format comes from WK_MUTATOR (prog, render, hostile: the
 * program format with its answer corruption mutated too). */
struct afl_mutator {
    struct rng r;
    int render;
    uint8_t *out;
    size_t cap;
};

#define WK_EXPORT __attribute__((visibility("default")))
WK_EXPORT void *afl_custom_init(void *afl, unsigned int seed);
WK_EXPORT size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                                 size_t add_buf_size, size_t max_size);
WK_EXPORT void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    struct afl_mutator *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    const char *fmt = getenv("WK_MUTATOR");
    m->render = fmt && strcmp(fmt, "render") == 0;
    mutate_rewrites = fmt && strcmp(fmt, "hostile") == 0;
    m->r.s = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1;
    return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size)
{
    struct afl_mutator *m = data;
    size_t cap = max_size > buf_size ? max_size : buf_size;
    if (cap > m->cap) {
        uint8_t *grown = realloc(m->out, cap);
        if (!grown) {
            *out_buf = buf;
            return buf_size;
        }
        m->out = grown;
        m->cap = cap;
    }
    memcpy(m->out, buf, buf_size);
    *out_buf = m->out;
    if (m->render)
        return mutate_render_input(&m->r, m->out, buf_size, max_size);
    return mutate_prog(&m->r, m->out, buf_size, max_size, below(&m->r, 4) ? NULL : add_buf, add_buf_size);
}

void afl_custom_deinit(void *data)
{
    struct afl_mutator *m = data;
    if (m)
        free(m->out);
    free(m);
}

#else

/* libFuzzer; the format is fixed when the harness is built. */
#ifdef WK_MUTATOR_FORMAT_RENDER
static const int render_format = 1;
#else
static const int render_format = 0;
#endif
#ifdef WK_MUTATOR_FORMAT_HOSTILE
static const int hostile_format = 1;
#else
static const int hostile_format = 0;
#endif

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    struct rng r = { (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1 };
    mutate_rewrites = hostile_format;
    if (below(&r, 4) == 0 || size > max_size)
        return LLVMFuzzerMutate(data, size, max_size);
    return render_format ? mutate_render_input(&r, data, size, max_size)
                         : mutate_prog(&r, data, size, max_size, NULL, 0);
}

/* Programs: the steps of the second input spliced into the first; render
 * inputs: a structured mutation of the first. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed)
{
    struct rng r = { (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1 };
    size_t n = size1 < max_out_size ? size1 : max_out_size;
    memcpy(out, data1, n);
    if (render_format)
        return mutate_render_input(&r, out, n, max_out_size);
    static struct wk_prog p, q;
    wk_prog_decode_again(out, n, &p);
    wk_prog_decode_again(data2, size2, &q);
    splice(&r, &p, &q);
    uint32_t high = p.step_count; /* splice only inserts */
    size_t got = encode_fitting(&p, out, max_out_size);
    prog_done(&p, high);
    wk_prog_free(&q);
    return got ? got : n;
}

#endif
