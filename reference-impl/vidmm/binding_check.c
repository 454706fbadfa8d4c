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
 *
 * And, when the encoder writes command buffers (wk_encoder_ops.commands:
 * what the kit runs as a virtual context's user-mode buffer), that the
 * processor does what they say: a FILL of a random pattern and a COPY of
 * random bytes, at physical addresses of the first memory segment, run
 * physically, must leave exactly those bytes there. A pair that disagrees
 * makes every virtual-context case blame the driver for the binding's
 * mistake (SUBMITV-GPU-001 or wrong bytes), so this is checked before any
 * driver runs. A run that stops short (hardware that runs user commands
 * only in an address space) or an operation the encoder skips is counted
 * as not judged, never as a problem.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "wddmkit/binding.h"

#define MAX_INPUT 4096u

_Static_assert(WK_BINDING_CHECK_ENCODED_AGREED == WK_BINDING_CHECK_FAULT_BASE + WK_FAULT_CLASS_COUNT,
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

/* The first memory segment of the layout: its base and size, 0 when none
 * holds 64 KiB. */
static uint64_t memory_for_trials(struct wk_gpu *gpu, uint64_t *size)
{
    const struct wk_gpu_desc *d = wk_gpu_description(gpu);
    for (uint32_t s = 0; s < d->segment_count; s++)
        if (d->segments[s].kind == WK_GPU_SEGMENT_MEMORY && d->segments[s].size >= (64u << 10)) {
            *size = d->segments[s].size;
            return d->segments[s].base;
        }
    *size = 0;
    return 0;
}

/* Trial `k` of the encoder's commands: one FILL (even k) or COPY (odd),
 * 4 KiB at a page of the first memory segment, run physically on reset
 * memory. The count it adds to; a problem's words in `what`. */
static uint32_t encoded_trial(const struct wk_binding *b, void *self, struct wk_gpu *gpu, uint64_t seed, uint64_t k,
                              char *what, size_t size)
{
    int (*commands)(void *, struct wk_encode_commands *) = binding_commands_of(b);
    uint32_t op = k % 2 ? WK_USER_OP_COPY : WK_USER_OP_FILL;
    uint64_t room = 0, base = memory_for_trials(gpu, &room);
    if (!base && !room)
        return WK_BINDING_CHECK_ENCODED_UNJUDGED;
    if (b->encoder->ops_supported && !(b->encoder->ops_supported & (1u << op)))
        return WK_BINDING_CHECK_ENCODED_UNJUDGED;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (k + 1);
    uint64_t pages = room / WK_GPU_PAGE_SIZE - 2;
    uint64_t src = base + (mix(&x) % (pages / 2)) * WK_GPU_PAGE_SIZE, dst = base + (pages / 2 + mix(&x) % (pages / 2)) * WK_GPU_PAGE_SIZE;
    static uint8_t cmd[MAX_INPUT], want[WK_GPU_PAGE_SIZE], got[WK_GPU_PAGE_SIZE];
    struct wk_encode_commands c;
    memset(&c, 0, sizeof(c));
    c.op = op;
    c.value = (uint32_t)mix(&x);
    c.src = src;
    c.dst = dst;
    c.size = WK_GPU_PAGE_SIZE;
    c.buf = cmd;
    c.cap = sizeof(cmd);
    wk_gpu_reset(gpu);
    if (b->reset && self)
        b->reset(self);
    map_apertures(gpu);
    for (uint32_t i = 0; i < sizeof(want); i += 8) { /* the source's bytes (a FILL's destination is overwritten) */
        uint64_t r = mix(&x);
        memcpy(want + i, &r, 8);
    }
    if (wk_gpu_write(gpu, src, want, sizeof(want)) != WK_OK)
        return WK_BINDING_CHECK_ENCODED_UNJUDGED;
    if (commands(self, &c) != WK_ENCODE_OK || !c.length || c.length > c.cap) { /* an answer outside binding.h is
                                                                                 the kit's verdict in a run */
        snprintf(what, size, "the encoder did not write the %s (%.100s)", op == WK_USER_OP_FILL ? "FILL" : "COPY",
                 c.why[0] ? c.why : "no reason");
        return WK_BINDING_CHECK_ENCODED_UNJUDGED;
    }
    const struct wk_gpu_desc *d = wk_gpu_description(gpu);
    uint64_t at = d->sysmem_first_pfn << WK_GPU_PAGE_SHIFT;
    struct wk_exec_fault fault;
    uint32_t misbehaved = 0;
    wk_status ran = WK_E_NO_SPACE;
    if (wk_gpu_write(gpu, at, cmd, c.length) == WK_OK)
        ran = wk_gpu_exec_processor(gpu, b->processor, self, at, 0, c.length, cmd, 0, 1, &fault, &misbehaved);
    if (ran != WK_OK || misbehaved) {
        snprintf(what, size, "its %s stopped at +0x%llx (%s): an encoder bug, or hardware that runs user commands "
                 "only in an address space", op == WK_USER_OP_FILL ? "FILL" : "COPY",
                 (unsigned long long)fault.offset, ran == WK_E_GPU_FAULT ? wk_fault_class_name(fault.cls) : wk_status_name(ran));
        return WK_BINDING_CHECK_ENCODED_UNJUDGED;
    }
    if (op == WK_USER_OP_FILL)
        for (uint32_t i = 0; i < sizeof(want); i++)
            want[i] = (uint8_t)(c.value >> (8 * (i % 4)));
    if (wk_gpu_read(gpu, dst, got, sizeof(got)) != WK_OK)
        return WK_BINDING_CHECK_ENCODED_UNJUDGED;
    for (uint32_t i = 0; i < sizeof(got); i++)
        if (got[i] != want[i]) {
            snprintf(what, size, "encoder.commands: its %s of 4096 bytes at 0x%llx ran as 0x%02x at +%u, not 0x%02x: "
                     "encoder and processor disagree",
                     op == WK_USER_OP_FILL ? "FILL" : "COPY", (unsigned long long)dst, got[i], i, want[i]);
            return WK_BINDING_CHECK_ENCODED_WRONG;
        }
    return WK_BINDING_CHECK_ENCODED_AGREED;
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
    r->first_unjudged[0] = 0;
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
    for (uint64_t k = 0; binding_commands_of(b) && k < 8; k++) {
        char what[sizeof(r->first_bad)];
        uint32_t count = encoded_trial(b, self, gpu, seed, k, what, sizeof(what));
        r->counts[count]++;
        if (count == WK_BINDING_CHECK_ENCODED_WRONG)
            note_first(r, first + inputs, what);
        if (count == WK_BINDING_CHECK_ENCODED_UNJUDGED && !r->first_unjudged[0])
            snprintf(r->first_unjudged, sizeof(r->first_unjudged), "%s", what);
    }
    if (b->destroy && self)
        b->destroy(self);
    wk_gpu_destroy(gpu);
    return r->first_bad_input == UINT64_MAX ? WK_OK : WK_E_BINDING;
}
