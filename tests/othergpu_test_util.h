/* SPDX-License-Identifier: MIT */
/*
 * tests/othergpu_test_util.h - what the OtherGPU binding's tests share: a
 * record writer (othergpu_hw.h's layout, written here by hand so the tests
 * do not trust the binding's own decoder), an adapter over the fake memory
 * system (heron_fake_mem.h: a memory system written against
 * wddmkit/processor.h alone), and one exec of a buffer with a budget and a
 * fence log the test can read.
 */
#ifndef OTHERGPU_TEST_UTIL_H
#define OTHERGPU_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "heron_fake_mem.h"
#include "othergpu_gpu.h"

/* Addresses of OtherGPU's map the tests use. */
#define OGT_VRAM OG_VRAM_BASE
#define OGT_GART OG_GART_BASE
#define OGT_SYS_PFN OGB_SYSMEM_FIRST_PFN
#define OGT_SYS (OGB_SYSMEM_FIRST_PFN << OG_PAGE_SHIFT)
#define OGT_HOLE 0x0000000080000000ull /* no region */

struct ogt_buf {
    uint8_t bytes[4096];
    uint32_t used;
};

/* One record (its offset is the return value). */
uint32_t ogt_record(struct ogt_buf *b, uint32_t op, uint32_t a, uint32_t bw, uint32_t c);
/* A record whose words a and b hold `address` in OtherGPU's encoding. */
uint32_t ogt_addr_record(struct ogt_buf *b, uint32_t op, uint64_t address, uint32_t c);
uint32_t ogt_fill(struct ogt_buf *b, uint64_t dst, uint32_t bytes, uint32_t pattern); /* PATTERN + FILL */
uint32_t ogt_copy(struct ogt_buf *b, uint64_t src, uint64_t dst, uint32_t bytes);     /* SRC + COPY */
uint32_t ogt_fence(struct ogt_buf *b, uint64_t addr, uint64_t value);                 /* FENCE_VALUE + FENCE */
uint32_t ogt_page(struct ogt_buf *b, uint32_t op, uint32_t seg, uint32_t page, uint64_t page_address);

struct ogt_gpu {
    struct wk_mem *mem;
    void *self;
    uint64_t budget_commands;     /* of the next run (UINT64_MAX: none) */
    uint64_t spent_commands, spent_bytes;
    uint64_t fences, fence_addr, fence_value;
};

void ogt_gpu_init(struct ogt_gpu *g);
void ogt_gpu_fini(struct ogt_gpu *g);
int ogt_run_range(struct ogt_gpu *g, const uint8_t *bytes, uint64_t start, uint64_t end, struct wk_exec_fault *f);
int ogt_run(struct ogt_gpu *g, const struct ogt_buf *b, struct wk_exec_fault *f);

/* Checks that print what differs. */
bool ogt_no_fault(int rc, const struct wk_exec_fault *f);
bool ogt_fault_is(int rc, const struct wk_exec_fault *f, uint32_t cls, uint32_t code, uint64_t offset, uint32_t op);
bool ogt_filled_with(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t pattern);

#endif
