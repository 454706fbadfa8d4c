/* SPDX-License-Identifier: MIT */
/*
 * tests/heron_test_util.h - what the Heron binding's tests share: a packet
 * writer (heron_hw.h's layouts, written by hand so the tests do not trust
 * the binding's own table), an adapter over the fake memory system
 * (heron_fake_mem.h), and one exec of a buffer with a budget and a fence
 * log the test can read.
 */
#ifndef HERON_TEST_UTIL_H
#define HERON_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "heron_fake_mem.h"
#include "heron_gpu.h"

/* Addresses of Heron's map the tests use. */
#define HT_LOCAL HERON_LOCAL_VISIBLE_BASE
#define HT_HIDDEN HERON_LOCAL_HIDDEN_BASE
#define HT_GART HERON_GART_BASE
#define HT_SYS_PFN HERON_SYSMEM_FIRST_PFN
#define HT_SYS (HERON_SYSMEM_FIRST_PFN << HERON_PAGE_SHIFT)
#define HT_HOLE 0x0000000080000000ull /* no region */

struct ht_buf {
    uint8_t bytes[4096];
    uint32_t used;           /* bytes */
};

void ht_dword(struct ht_buf *b, uint32_t v);
void ht_qword(struct ht_buf *b, uint64_t v);
/* Offsets of the packets written (the return value of each). */
uint32_t ht_nop(struct ht_buf *b);
uint32_t ht_fill(struct ht_buf *b, uint64_t dst, uint32_t bytes, uint32_t pattern);
uint32_t ht_copy(struct ht_buf *b, uint64_t src, uint64_t dst, uint32_t bytes);
uint32_t ht_gart_write(struct ht_buf *b, uint32_t seg, uint32_t first, uint32_t count, const uint64_t *pfns);
uint32_t ht_gart_clear(struct ht_buf *b, uint32_t seg, uint32_t first, uint32_t count, uint64_t dummy_pfn);
uint32_t ht_gart_invalidate(struct ht_buf *b, uint32_t seg);
uint32_t ht_fence_write(struct ht_buf *b, uint64_t addr, uint64_t value);
uint32_t ht_cache_flush(struct ht_buf *b, uint64_t addr, uint32_t flags);

/* One adapter: the fake memory with Heron's layout and the binding's
 * per-adapter state, made by the binding's own create(). */
struct ht_gpu {
    struct wk_mem *mem;
    void *self;
    /* The budget of the next run (UINT64_MAX: none), and what it saw. */
    uint64_t budget_commands;
    uint64_t spent_commands, spent_bytes, spend_calls;
    uint64_t fences, fence_addr, fence_value;
    char last_log[256];
    uint32_t logs;
};

void ht_gpu_init(struct ht_gpu *g);
void ht_gpu_fini(struct ht_gpu *g);
/* Runs buf[start, end) as a buffer at buffer_addr; the result of exec. */
int ht_run_range(struct ht_gpu *g, const uint8_t *bytes, uint64_t start, uint64_t end, struct wk_exec_fault *f);
int ht_run(struct ht_gpu *g, const struct ht_buf *b, struct wk_exec_fault *f);

/* Checks that print what differs (drm_mm_test style). */
bool ht_no_fault(int rc, const struct wk_exec_fault *f);
bool ht_fault_is(int rc, const struct wk_exec_fault *f, uint32_t cls, uint32_t code, uint64_t offset,
                 uint32_t opcode);
bool ht_bytes_are(struct wk_mem *m, uint64_t addr, uint64_t len, const uint8_t *expected);
bool ht_filled_with(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t pattern);

#endif
