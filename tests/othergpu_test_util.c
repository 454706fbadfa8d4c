/* SPDX-License-Identifier: MIT */
/*
 * tests/othergpu_test_util.c - othergpu_test_util.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "othergpu_test_util.h"

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

uint32_t ogt_record(struct ogt_buf *b, uint32_t op, uint32_t a, uint32_t bw, uint32_t c)
{
    uint32_t at = b->used;
    if (b->used + 16 <= sizeof b->bytes) {
        put32(b->bytes + at, op);
        put32(b->bytes + at + 4, a);
        put32(b->bytes + at + 8, bw);
        put32(b->bytes + at + 12, c);
        b->used += 16;
    }
    return at;
}

uint32_t ogt_addr_record(struct ogt_buf *b, uint32_t op, uint64_t address, uint32_t c)
{
    return ogt_record(b, op, (uint32_t)address, (uint32_t)(address >> 32) | 0x80000000u, c);
}

uint32_t ogt_fill(struct ogt_buf *b, uint64_t dst, uint32_t bytes, uint32_t pattern)
{
    uint32_t at = ogt_record(b, 3, pattern, 0, 0);
    ogt_addr_record(b, 4, dst, bytes);
    return at;
}

uint32_t ogt_copy(struct ogt_buf *b, uint64_t src, uint64_t dst, uint32_t bytes)
{
    uint32_t at = ogt_addr_record(b, 1, src, 0);
    ogt_addr_record(b, 2, dst, bytes);
    return at;
}

uint32_t ogt_fence(struct ogt_buf *b, uint64_t addr, uint64_t value)
{
    uint32_t at = ogt_record(b, 8, (uint32_t)value, (uint32_t)(value >> 32), 0);
    ogt_addr_record(b, 9, addr, 0);
    return at;
}

uint32_t ogt_page(struct ogt_buf *b, uint32_t op, uint32_t seg, uint32_t page, uint64_t page_address)
{
    return ogt_addr_record(b, op, page_address, seg << 24 | page);
}

static int ogt_spend(const struct wk_exec *x, uint64_t commands, uint64_t bytes)
{
    struct ogt_gpu *g = x->kit;
    if (g->spent_commands + commands > g->budget_commands) {
        return -1;
    }
    g->spent_commands += commands;
    g->spent_bytes += bytes;
    return 0;
}

static void ogt_fence_seen(const struct wk_exec *x, uint64_t addr, uint64_t value)
{
    struct ogt_gpu *g = x->kit;
    g->fences++;
    g->fence_addr = addr;
    g->fence_value = value;
}

static const struct wk_exec_ops ogt_exec_ops = {
    .size = sizeof(struct wk_exec_ops),
    .spend = ogt_spend,
    .fence = ogt_fence_seen,
};

void ogt_gpu_init(struct ogt_gpu *g)
{
    memset(g, 0, sizeof *g);
    g->mem = fake_mem_create(&og_memory);
    assert_non_null(g->mem);
    struct wk_binding_host host = {
        .size = sizeof host, .abi = WK_BINDING_ABI_VERSION, .mem = g->mem, .mem_ops = fake_mem_ops(), .kit = g,
    };
    g->self = wk_binding.create(&host);
    assert_non_null(g->self);
    g->budget_commands = UINT64_MAX;
}

void ogt_gpu_fini(struct ogt_gpu *g)
{
    wk_binding.destroy(g->self);
    fake_mem_destroy(g->mem);
}

int ogt_run_range(struct ogt_gpu *g, const uint8_t *bytes, uint64_t start, uint64_t end, struct wk_exec_fault *f)
{
    struct wk_exec x = {
        .mem = g->mem,
        .mem_ops = fake_mem_ops_of(g->mem),
        .ops = &ogt_exec_ops,
        .buffer_addr = OGT_SYS,
        .start = start,
        .end = end,
        .bytes = bytes,
        .kit = g,
    };
    g->spent_commands = g->spent_bytes = 0;
    return wk_binding.processor->exec(g->self, &x, f);
}

int ogt_run(struct ogt_gpu *g, const struct ogt_buf *b, struct wk_exec_fault *f)
{
    return ogt_run_range(g, b->bytes, 0, b->used, f);
}

bool ogt_no_fault(int rc, const struct wk_exec_fault *f)
{
    if (rc == 0 && f->cls == WK_FAULT_NONE) {
        return true;
    }
    char text[256];
    wk_binding.processor->fault_text(NULL, f, text, sizeof text);
    print_error("expected the buffer to run to its end; exec returned %d: %s\n", rc, text);
    return false;
}

bool ogt_fault_is(int rc, const struct wk_exec_fault *f, uint32_t cls, uint32_t code, uint64_t offset, uint32_t op)
{
    if (rc == 1 && f->cls == cls && f->code == code && f->offset == offset && f->opcode == op) {
        return true;
    }
    char text[256];
    wk_binding.processor->fault_text(NULL, f, text, sizeof text);
    print_error("expected class %s code %u at +0x%llx op 0x%x; exec returned %d: class %s code %u at +0x%llx op 0x%x "
                "(%s)\n",
                wk_fault_class_name(cls), code, (unsigned long long)offset, op, rc, wk_fault_class_name(f->cls),
                f->code, (unsigned long long)f->offset, f->opcode, text);
    return false;
}

bool ogt_filled_with(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t pattern)
{
    uint8_t *seen = malloc(len ? len : 1);
    assert_non_null(seen);
    assert_int_equal(fake_mem_read(m, addr, seen, len), 0);
    for (uint64_t i = 0; i < len; i++) {
        uint8_t want = (uint8_t)(pattern >> (8 * (i % 4)));
        if (seen[i] != want) {
            print_error("byte %llu at 0x%llx is 0x%02x, want 0x%02x\n", (unsigned long long)i,
                        (unsigned long long)(addr + i), seen[i], want);
            free(seen);
            return false;
        }
    }
    free(seen);
    return true;
}
