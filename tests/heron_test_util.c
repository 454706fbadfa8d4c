/* SPDX-License-Identifier: MIT */
/*
 * tests/heron_test_util.c - heron_test_util.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "heron_test_util.h"

void ht_dword(struct ht_buf *b, uint32_t v)
{
    if (b->used + 4 <= sizeof b->bytes) {
        for (int i = 0; i < 4; i++) {
            b->bytes[b->used + (uint32_t)i] = (uint8_t)(v >> (8 * i));
        }
        b->used += 4;
    }
}

void ht_qword(struct ht_buf *b, uint64_t v)
{
    ht_dword(b, (uint32_t)v);
    ht_dword(b, (uint32_t)(v >> 32));
}

static uint32_t header(struct ht_buf *b, uint32_t op, uint32_t dwords, uint32_t flags)
{
    uint32_t at = b->used;
    ht_dword(b, op | dwords << 8 | flags << 16);
    return at;
}

uint32_t ht_nop(struct ht_buf *b)
{
    return header(b, 0x00, 1, 0);
}

uint32_t ht_fill(struct ht_buf *b, uint64_t dst, uint32_t bytes, uint32_t pattern)
{
    uint32_t at = header(b, 0x01, 5, 0);
    ht_qword(b, dst);
    ht_dword(b, bytes);
    ht_dword(b, pattern);
    return at;
}

uint32_t ht_copy(struct ht_buf *b, uint64_t src, uint64_t dst, uint32_t bytes)
{
    uint32_t at = header(b, 0x02, 6, 0);
    ht_qword(b, src);
    ht_qword(b, dst);
    ht_dword(b, bytes);
    return at;
}

uint32_t ht_gart_write(struct ht_buf *b, uint32_t seg, uint32_t first, uint32_t count, const uint64_t *pfns)
{
    uint32_t at = header(b, 0x03, 4 + 2 * count, 0);
    ht_dword(b, seg);
    ht_dword(b, first);
    ht_dword(b, count);
    for (uint32_t i = 0; i < count; i++) {
        ht_qword(b, pfns[i]);
    }
    return at;
}

uint32_t ht_gart_clear(struct ht_buf *b, uint32_t seg, uint32_t first, uint32_t count, uint64_t dummy_pfn)
{
    uint32_t at = header(b, 0x04, 6, 0);
    ht_dword(b, seg);
    ht_dword(b, first);
    ht_dword(b, count);
    ht_qword(b, dummy_pfn);
    return at;
}

uint32_t ht_gart_invalidate(struct ht_buf *b, uint32_t seg)
{
    uint32_t at = header(b, 0x05, 2, 0);
    ht_dword(b, seg);
    return at;
}

uint32_t ht_fence_write(struct ht_buf *b, uint64_t addr, uint64_t value)
{
    uint32_t at = header(b, 0x06, 5, 0);
    ht_qword(b, addr);
    ht_qword(b, value);
    return at;
}

uint32_t ht_cache_flush(struct ht_buf *b, uint64_t addr, uint32_t flags)
{
    uint32_t at = header(b, 0x07, 3, flags);
    ht_qword(b, addr);
    return at;
}

/* The kit's side of a run: the exec's `kit` pointer is the test adapter. */
static int ht_spend(const struct wk_exec *x, uint64_t commands, uint64_t bytes)
{
    struct ht_gpu *g = x->kit;
    g->spend_calls++;
    if (g->spent_commands + commands > g->budget_commands) {
        return -1;
    }
    g->spent_commands += commands;
    g->spent_bytes += bytes;
    return 0;
}

static void ht_fence(const struct wk_exec *x, uint64_t addr, uint64_t value)
{
    struct ht_gpu *g = x->kit;
    g->fences++;
    g->fence_addr = addr;
    g->fence_value = value;
}

static const struct wk_exec_ops ht_exec_ops = {
    .size = sizeof(struct wk_exec_ops),
    .spend = ht_spend,
    .fence = ht_fence,
};

static void ht_log(void *kit, const char *line)
{
    struct ht_gpu *g = kit;
    snprintf(g->last_log, sizeof g->last_log, "%s", line);
    g->logs++;
}

void ht_gpu_init(struct ht_gpu *g)
{
    memset(g, 0, sizeof *g);
    g->mem = fake_mem_create(&heron_memory);
    assert_non_null(g->mem);
    struct wk_binding_host host = {
        .size = sizeof host,
        .abi = WK_BINDING_ABI_VERSION,
        .mem = g->mem,
        .mem_ops = fake_mem_ops(),
        .kit = g,
        .log = ht_log,
    };
    g->self = wk_binding.create(&host);
    assert_non_null(g->self);
    g->budget_commands = UINT64_MAX;
}

void ht_gpu_fini(struct ht_gpu *g)
{
    wk_binding.destroy(g->self);
    fake_mem_destroy(g->mem);
}

int ht_run_range(struct ht_gpu *g, const uint8_t *bytes, uint64_t start, uint64_t end, struct wk_exec_fault *f)
{
    struct wk_exec x = {
        .mem = g->mem,
        .mem_ops = fake_mem_ops_of(g->mem),
        .ops = &ht_exec_ops,
        .buffer_addr = HT_SYS,
        .start = start,
        .end = end,
        .bytes = bytes,
        .kit = g,
    };
    g->spent_commands = g->spent_bytes = g->spend_calls = 0;
    return wk_binding.processor->exec(g->self, &x, f);
}

int ht_run(struct ht_gpu *g, const struct ht_buf *b, struct wk_exec_fault *f)
{
    return ht_run_range(g, b->bytes, 0, b->used, f);
}

bool ht_no_fault(int rc, const struct wk_exec_fault *f)
{
    if (rc == 0 && f->cls == WK_FAULT_NONE) {
        return true;
    }
    char text[256];
    wk_binding.processor->fault_text(NULL, f, text, sizeof text);
    print_error("expected the buffer to run to its end; exec returned %d: %s (class %s, code %u)\n", rc, text,
                wk_fault_class_name(f->cls), f->code);
    return false;
}

bool ht_fault_is(int rc, const struct wk_exec_fault *f, uint32_t cls, uint32_t code, uint64_t offset,
                 uint32_t opcode)
{
    if (rc == 1 && f->cls == cls && f->code == code && f->offset == offset && f->opcode == opcode) {
        return true;
    }
    print_error("expected exec 1, %s code %u (%s) at +0x%llx opcode 0x%x; got exec %d, %s code %u (%s) at "
                "+0x%llx opcode 0x%x\n",
                wk_fault_class_name(cls), code, heron_fault_words(code), (unsigned long long)offset, opcode, rc,
                wk_fault_class_name(f->cls), f->code, heron_fault_words(f->code), (unsigned long long)f->offset,
                f->opcode);
    return false;
}

bool ht_bytes_are(struct wk_mem *m, uint64_t addr, uint64_t len, const uint8_t *expected)
{
    uint8_t *seen = malloc(len ? len : 1);
    assert_non_null(seen);
    if (fake_mem_read(m, addr, seen, len) != 0) {
        print_error("0x%llx+%llu is not readable\n", (unsigned long long)addr, (unsigned long long)len);
        free(seen);
        return false;
    }
    for (uint64_t i = 0; i < len; i++) {
        if (seen[i] != expected[i]) {
            print_error("byte at 0x%llx: expected 0x%02x, seen 0x%02x\n", (unsigned long long)(addr + i),
                        expected[i], seen[i]);
            free(seen);
            return false;
        }
    }
    free(seen);
    return true;
}

bool ht_filled_with(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t pattern)
{
    uint8_t *expected = malloc(len ? len : 1);
    assert_non_null(expected);
    for (uint64_t i = 0; i < len; i++) {
        expected[i] = (uint8_t)(pattern >> (8 * (i % 4)));
    }
    bool ok = ht_bytes_are(m, addr, len, expected);
    free(expected);
    return ok;
}
