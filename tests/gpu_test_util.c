/* SPDX-License-Identifier: MIT */
/*
 * tests/gpu_test_util.c - shared helpers for the GPU-model unit tests.
 *
 * Checks return bool and print the exact difference (cmocka's print_error),
 * so the test body reads as a list of expectations and a failure names the
 * address, offset or field that differs. Only the public API is used.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test_util.h"

void tu_std_adapter(struct tu_adapter *a)
{
    memset(a, 0, sizeof(*a));
    a->bank_ends[0] = 1 * TU_SEG2_BANK_SIZE;
    a->bank_ends[1] = 2 * TU_SEG2_BANK_SIZE;
    a->bank_ends[2] = 3 * TU_SEG2_BANK_SIZE;
    a->segs[0].kind = WK_GPU_SEGMENT_MEMORY;
    a->segs[0].base = TU_SEG1_BASE;
    a->segs[0].size = TU_SEG1_SIZE;
    a->segs[1].kind = WK_GPU_SEGMENT_MEMORY;
    a->segs[1].base = TU_SEG2_BASE;
    a->segs[1].size = TU_SEG2_SIZE;
    a->segs[1].bank_count = TU_SEG2_BANKS;
    a->segs[1].bank_ends = a->bank_ends;
    a->segs[2].kind = WK_GPU_SEGMENT_APERTURE;
    a->segs[2].base = TU_APER_BASE;
    a->segs[2].size = TU_APER_SIZE;
    a->desc.segment_count = 3;
    a->desc.segments = a->segs;
    a->desc.sysmem_first_pfn = TU_SYS_PFN;
    a->desc.sysmem_pages = TU_SYS_PAGES;
}

int tu_setup(void **state)
{
    struct tu_ctx *ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL)
        return -1;
    *state = ctx;
    return 0;
}

int tu_teardown(void **state)
{
    struct tu_ctx *ctx = *state;
    if (ctx == NULL)
        return 0;
    for (unsigned i = 0; i < TU_MAX_GPUS; i++)
        if (ctx->gpus[i] != NULL)
            wk_gpu_destroy(ctx->gpus[i]);
    for (unsigned i = 0; i < TU_MAX_ALLOCS; i++)
        free(ctx->allocs[i]);
    free(ctx);
    *state = NULL;
    return 0;
}

struct wk_gpu *tu_create(void **state, const struct wk_gpu_desc *desc)
{
    struct tu_ctx *ctx = *state;
    unsigned slot = 0;
    while (slot < TU_MAX_GPUS && ctx->gpus[slot] != NULL)
        slot++;
    if (slot == TU_MAX_GPUS) {
        print_error("tu_create: more than %u live models in one test\n", TU_MAX_GPUS);
        fail();
    }
    struct wk_gpu *gpu = NULL;
    char why[256];
    memset(why, 0, sizeof(why));
    wk_status s = wk_gpu_check_desc(desc, why, sizeof(why)); /* what create takes, the check takes */
    if (s != WK_OK) {
        print_error("wk_gpu_check_desc: expected WK_OK, got %s (%d): \"%s\"\n", wk_status_name(s), (int)s, why);
        fail();
    }
    s = wk_gpu_create(desc, &gpu, why, sizeof(why));
    if (s != WK_OK || gpu == NULL) {
        print_error("wk_gpu_create: expected WK_OK, got %s (%d): \"%s\"\n", wk_status_name(s),
                    (int)s, why);
        fail();
    }
    ctx->gpus[slot] = gpu;
    return gpu;
}

struct wk_gpu *tu_std_gpu(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    return tu_create(state, &a.desc);
}

void tu_destroy(void **state, struct wk_gpu *gpu)
{
    struct tu_ctx *ctx = *state;
    for (unsigned i = 0; i < TU_MAX_GPUS; i++) {
        if (ctx->gpus[i] == gpu) {
            ctx->gpus[i] = NULL;
            wk_gpu_destroy(gpu);
            return;
        }
    }
    print_error("tu_destroy: model %p was not made by tu_create\n", (void *)gpu);
    fail();
}

void *tu_alloc(void **state, size_t size)
{
    struct tu_ctx *ctx = *state;
    for (unsigned i = 0; i < TU_MAX_ALLOCS; i++) {
        if (ctx->allocs[i] == NULL) {
            ctx->allocs[i] = calloc(1, size ? size : 1);
            if (ctx->allocs[i] == NULL) {
                print_error("tu_alloc: out of memory for %zu bytes\n", size);
                fail();
            }
            return ctx->allocs[i];
        }
    }
    print_error("tu_alloc: more than %u buffers in one test\n", TU_MAX_ALLOCS);
    fail();
    return NULL;
}

bool tu_expect_status(wk_status got, wk_status want, const char *what, const char *file,
                      int line)
{
    if (got == want)
        return true;
    print_error("%s:%d: %s: expected %s (%d), got %s (%d)\n", file, line, what,
                wk_status_name(want), (int)want, wk_status_name(got), (int)got);
    return false;
}

bool tu_expect_u64(uint64_t got, uint64_t want, const char *what, const char *file, int line)
{
    if (got == want)
        return true;
    print_error("%s:%d: %s: expected 0x%" PRIx64 " (%" PRIu64 "), got 0x%" PRIx64 " (%" PRIu64
                ")\n",
                file, line, what, want, want, got, got);
    return false;
}

/* ------------------------------------------------------------------ */

void tu_buf_init(struct tu_buf *b)
{
    memset(b->bytes, 0, sizeof(b->bytes));
    wk_gpu_writer_init(&b->w, b->bytes, sizeof(b->bytes));
}

void tu_buf_raw(struct tu_buf *b, const void *bytes, size_t len)
{
    if (b->w.used + len > b->w.capacity) {
        print_error("tu_buf_raw: %zu bytes do not fit (used %" PRIu64 ")\n", len, b->w.used);
        fail();
    }
    memcpy(b->bytes + b->w.used, bytes, len);
    b->w.used += len;
}

wk_status tu_run(struct wk_gpu *gpu, const struct tu_buf *b, struct wk_gpu_fault *fault)
{
    return wk_gpu_exec_bytes(gpu, b->bytes, b->w.used, TU_BUF_ADDR, fault);
}

static void print_fault(const char *prefix, const struct wk_gpu_fault *f)
{
    char text[256];
    wk_gpu_fault_format(f, text, sizeof(text));
    print_error("%s: reason %d (%s) opcode 0x%" PRIx32 " offset 0x%" PRIx64 " buffer 0x%" PRIx64
                " depth %" PRIu32 " fault_addr 0x%" PRIx64 " [\"%s\"]\n",
                prefix, (int)f->reason, wk_gpu_fault_name(f->reason), f->opcode, f->offset,
                f->buffer_addr, f->depth, f->fault_addr, text);
}

bool tu_run_bytes_ok(struct wk_gpu *gpu, const uint8_t *bytes, uint64_t len)
{
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    wk_status s = wk_gpu_exec_bytes(gpu, bytes, len, TU_BUF_ADDR, &f);
    if (s == WK_OK && f.reason == WK_GPU_FAULT_NONE)
        return true;
    print_error("exec_bytes of %" PRIu64 " bytes: expected WK_OK and no fault, got %s\n", len,
                wk_status_name(s));
    print_fault("  fault", &f);
    return false;
}

bool tu_run_ok(struct wk_gpu *gpu, const struct tu_buf *b)
{
    return tu_run_bytes_ok(gpu, b->bytes, b->w.used);
}

void tu_put32(uint8_t *p, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void tu_put64(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t tu_get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

uint64_t tu_get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ------------------------------------------------------------------ */

void tu_write(struct wk_gpu *gpu, uint64_t addr, const void *buf, uint64_t len)
{
    wk_status s = wk_gpu_write(gpu, addr, buf, len);
    if (s != WK_OK) {
        print_error("wk_gpu_write(0x%" PRIx64 ", %" PRIu64 "): expected WK_OK, got %s\n", addr,
                    len, wk_status_name(s));
        fail();
    }
}

void tu_write32(struct wk_gpu *gpu, uint64_t addr, uint32_t v)
{
    uint8_t b[4];
    tu_put32(b, v);
    tu_write(gpu, addr, b, 4);
}

void tu_pattern(uint8_t *buf, size_t len, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 0x9E3779B9u;
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = (uint8_t)((x >> 11) | 1u); /* never zero: zero is what untouched memory reads */
    }
}

static bool compare_mem(uint64_t addr, const uint8_t *got, const uint8_t *want, uint64_t len)
{
    uint64_t diffs = 0, first = 0;
    for (uint64_t i = 0; i < len; i++) {
        if (got[i] == want[i])
            continue;
        if (diffs == 0)
            first = i;
        if (diffs < 8)
            print_error("  at 0x%" PRIx64 " (+0x%" PRIx64 "): expected 0x%02x, got 0x%02x\n",
                        addr + i, i, want[i], got[i]);
        diffs++;
    }
    if (diffs == 0)
        return true;
    print_error("memory [0x%" PRIx64 ", +0x%" PRIx64 "): %" PRIu64
                " bytes differ, first at +0x%" PRIx64 "\n",
                addr, len, diffs, first);
    return false;
}

bool expect_bytes(struct wk_gpu *gpu, uint64_t addr, const void *expected, uint64_t len)
{
    uint8_t *got = malloc(len ? (size_t)len : 1);
    assert_non_null(got);
    memset(got, 0, (size_t)len);
    wk_status s = wk_gpu_read(gpu, addr, got, len);
    bool ok;
    if (s != WK_OK) {
        print_error("wk_gpu_read(0x%" PRIx64 ", %" PRIu64 "): expected WK_OK, got %s\n", addr, len,
                    wk_status_name(s));
        ok = false;
    } else {
        ok = compare_mem(addr, got, expected, len);
    }
    free(got);
    return ok;
}

bool expect_byte_run(struct wk_gpu *gpu, uint64_t addr, uint8_t byte, uint64_t len)
{
    uint8_t *want = malloc(len ? (size_t)len : 1);
    assert_non_null(want);
    memset(want, byte, (size_t)len);
    bool ok = expect_bytes(gpu, addr, want, len);
    free(want);
    return ok;
}

bool expect_mem32(struct wk_gpu *gpu, uint64_t addr, uint32_t want)
{
    uint8_t b[4];
    tu_put32(b, want);
    return expect_bytes(gpu, addr, b, 4);
}

bool expect_mem64(struct wk_gpu *gpu, uint64_t addr, uint64_t want)
{
    uint8_t b[8];
    tu_put64(b, want);
    return expect_bytes(gpu, addr, b, 8);
}

/* ------------------------------------------------------------------ */

static bool field_u64(const char *name, uint64_t got, uint64_t want)
{
    if (got == want)
        return true;
    print_error("  %s: expected 0x%" PRIx64 " (%" PRIu64 "), got 0x%" PRIx64 " (%" PRIu64 ")\n",
                name, want, want, got, got);
    return false;
}

static bool field_reason(enum wk_gpu_fault_reason got, enum wk_gpu_fault_reason want)
{
    if (got == want)
        return true;
    print_error("  reason: expected %s (%d), got %s (%d)\n", wk_gpu_fault_name(want), (int)want,
                (unsigned)got < WK_GPU_FAULT_REASON_COUNT ? wk_gpu_fault_name(got) : "?",
                (int)got);
    return false;
}

bool expect_fault(const struct wk_gpu_fault *f, enum wk_gpu_fault_reason reason, uint64_t offset,
                  uint32_t opcode)
{
    bool ok = field_reason(f->reason, reason);
    ok = field_u64("offset", f->offset, offset) && ok;
    ok = field_u64("opcode", f->opcode, opcode) && ok;
    if (!ok)
        print_fault("fault record differs", f);
    return ok;
}

bool expect_fault_full(const struct wk_gpu_fault *f, enum wk_gpu_fault_reason reason,
                       uint32_t opcode, uint64_t offset, uint64_t buffer_addr, uint32_t depth,
                       uint64_t fault_addr)
{
    bool ok = field_reason(f->reason, reason);
    ok = field_u64("opcode", f->opcode, opcode) && ok;
    ok = field_u64("offset", f->offset, offset) && ok;
    ok = field_u64("buffer_addr", f->buffer_addr, buffer_addr) && ok;
    ok = field_u64("depth", f->depth, depth) && ok;
    ok = field_u64("fault_addr", f->fault_addr, fault_addr) && ok;
    if (!ok)
        print_fault("fault record differs", f);
    return ok;
}

bool tu_expect_run_fault(struct wk_gpu *gpu, const struct tu_buf *b,
                         enum wk_gpu_fault_reason reason, uint32_t opcode, uint64_t offset,
                         uint64_t fault_addr, const char *file, int line)
{
    struct wk_gpu_fault f;
    memset(&f, 0xA5, sizeof(f));
    wk_status s = tu_run(gpu, b, &f);
    bool ok = tu_expect_status(s, WK_E_GPU_FAULT, "wk_gpu_exec_bytes", file, line);
    if (!expect_fault_full(&f, reason, opcode, offset, TU_BUF_ADDR, 0, fault_addr)) {
        print_error("%s:%d: expected %s at +0x%" PRIx64 "\n", file, line,
                    wk_gpu_fault_name(reason), offset);
        ok = false;
    }
    return ok;
}

bool expect_counters(const struct wk_gpu *gpu, const struct wk_gpu_counters *want)
{
    struct wk_gpu_counters got;
    memset(&got, 0xA5, sizeof(got));
    wk_gpu_get_counters(gpu, &got);
    bool ok = true;
#define TU_FIELD_(name) ok = field_u64(#name, got.name, want->name) && ok;
    TU_FIELD_(commands)
    TU_FIELD_(bytes_copied)
    TU_FIELD_(bytes_filled)
    TU_FIELD_(bytes_written)
    TU_FIELD_(bank_crossings)
    TU_FIELD_(fences)
    TU_FIELD_(interrupts)
    TU_FIELD_(gart_pages_mapped)
    TU_FIELD_(gart_pages_unmapped)
    TU_FIELD_(tlb_flushes)
    TU_FIELD_(stale_tlb_accesses)
    TU_FIELD_(calls)
    TU_FIELD_(execs)
    TU_FIELD_(faults)
#undef TU_FIELD_
    if (!ok)
        print_error("counters differ (fields listed above)\n");
    return ok;
}

void tu_irq_handler(void *user, uint64_t fence_addr, uint64_t fence_value)
{
    struct tu_irq *irq = user;
    if (irq->count < TU_IRQ_MAX) {
        irq->addr[irq->count] = fence_addr;
        irq->value[irq->count] = fence_value;
        if (irq->gpu != NULL) {
            uint8_t b[8] = {0};
            irq->mem_status[irq->count] = wk_gpu_read(irq->gpu, fence_addr, b, 8);
            irq->mem[irq->count] = tu_get64(b);
        }
    }
    irq->count++;
}

uint64_t tu_seed(uint64_t fallback)
{
    const char *env = getenv("WK_TEST_SEED");
    uint64_t seed = fallback;
    if (env != NULL && *env != '\0')
        seed = strtoull(env, NULL, 0);
    print_message("seed 0x%" PRIx64 " (set WK_TEST_SEED to replay)\n", seed);
    return seed ? seed : 1;
}

uint64_t tu_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}
