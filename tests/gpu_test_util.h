/* SPDX-License-Identifier: MIT */
/*
 * tests/gpu_test_util.h - shared helpers for the GPU-model unit tests.
 *
 * The tests check the model against docs/gpu-model.md, so these helpers stay
 * independent of gpu-model/: a standard small adapter, a command-buffer
 * builder over the public wk_gpu_emit_* encoders, a raw little-endian writer
 * for hand-made bytes, and bool-returning checks in the drm_mm_test style:
 * each prints exactly what differs (addresses, offsets, field names, expected
 * and seen values) before returning false, and the caller wraps it in
 * assert_true(), so a failure says what went wrong without a debugger.
 *
 * Every test creates and destroys its own wk_gpu; nothing here holds state.
 */
#ifndef WK_GPU_TEST_UTIL_H
#define WK_GPU_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wddmkit/gpu.h"

/* ------------------------------------------------------------------ */
/* The standard adapter                                                 */
/* ------------------------------------------------------------------ */

/* Segment 1: plain memory, 1 MiB at 0x100000. */
#define TU_SEG1_ID 1u
#define TU_SEG1_BASE 0x100000ull
#define TU_SEG1_SIZE 0x100000ull
#define TU_SEG1_END (TU_SEG1_BASE + TU_SEG1_SIZE)
/* Segment 2: memory, 1 MiB at 0x400000, 4 banks of 256 KiB. */
#define TU_SEG2_ID 2u
#define TU_SEG2_BASE 0x400000ull
#define TU_SEG2_SIZE 0x100000ull
#define TU_SEG2_END (TU_SEG2_BASE + TU_SEG2_SIZE)
#define TU_SEG2_BANKS 4u
#define TU_SEG2_BANK_SIZE 0x40000ull
/* Segment 3: aperture, 256 KiB (64 pages) at 0x800000. */
#define TU_APER_ID 3u
#define TU_APER_BASE 0x800000ull
#define TU_APER_SIZE 0x40000ull
#define TU_APER_PAGES (TU_APER_SIZE / WK_GPU_PAGE_SIZE)
#define TU_APER_END (TU_APER_BASE + TU_APER_SIZE)
/* System memory: 256 pages at PFN 0x10000, i.e. [0x10000000, 0x10100000). */
#define TU_SYS_PFN 0x10000ull
#define TU_SYS_PAGES 256ull
#define TU_SYS_BASE (TU_SYS_PFN << WK_GPU_PAGE_SHIFT)
#define TU_SYS_END ((TU_SYS_PFN + TU_SYS_PAGES) << WK_GPU_PAGE_SHIFT)
#define TU_SYS_ADDR(pfn) ((uint64_t)(pfn) << WK_GPU_PAGE_SHIFT)
/* An address in no region (between segment 1 and segment 2). */
#define TU_HOLE 0x200000ull
/* The buffer_addr exec_bytes reports in fault records. */
#define TU_BUF_ADDR 0x1000ull

/* Storage for an adapter description: the desc points into it. */
struct tu_adapter {
    struct wk_gpu_segment_desc segs[WK_GPU_MAX_SEGMENTS + 1];
    uint64_t bank_ends[WK_GPU_MAX_BANKS + 1];
    struct wk_gpu_desc desc;
};

/* Fills `a` with the standard adapter, default budgets. The caller may then
 * change budgets or segments before tu_create(state, &a->desc). */
void tu_std_adapter(struct tu_adapter *a);

/* ------------------------------------------------------------------ */
/* Per-test fixture                                                     */
/* ------------------------------------------------------------------ */

/* Every test runs with tu_setup/tu_teardown (TU_TEST): models and buffers a
 * test makes are registered in its state and released by the teardown, which
 * cmocka runs even when an assertion fails, so a failing test reports its
 * failure, not a leak (the ASan preset runs with leak detection). */
#define TU_MAX_GPUS 8u
#define TU_MAX_ALLOCS 32u
struct tu_ctx {
    struct wk_gpu *gpus[TU_MAX_GPUS];
    void *allocs[TU_MAX_ALLOCS];
};
int tu_setup(void **state);
int tu_teardown(void **state);
#define TU_TEST(f) cmocka_unit_test_setup_teardown(f, tu_setup, tu_teardown)

/* wk_gpu_create that fails the test (with the `why` text) unless WK_OK; the
 * model is destroyed by the teardown unless tu_destroy() released it. */
struct wk_gpu *tu_create(void **state, const struct wk_gpu_desc *desc);
/* A model of the standard adapter. */
struct wk_gpu *tu_std_gpu(void **state);
/* Destroys a model now (a test that makes several in a row). */
void tu_destroy(void **state, struct wk_gpu *gpu);
/* Zeroed memory freed by the teardown. */
void *tu_alloc(void **state, size_t size);

/* ------------------------------------------------------------------ */
/* Status checks                                                        */
/* ------------------------------------------------------------------ */

/* true when got == want; otherwise prints "what: expected X, got Y". */
bool tu_expect_status(wk_status got, wk_status want, const char *what, const char *file,
                      int line);
#define expect_status(got, want) tu_expect_status((got), (want), #got, __FILE__, __LINE__)
/* Fails the test unless expr returns WK_OK. */
#define TU_OK(expr) assert_true(tu_expect_status((expr), WK_OK, #expr, __FILE__, __LINE__))

/* true when got == want (unsigned 64); otherwise prints both in hex and decimal. */
bool tu_expect_u64(uint64_t got, uint64_t want, const char *what, const char *file, int line);
#define expect_u64(got, want) tu_expect_u64((got), (want), #got, __FILE__, __LINE__)

/* ------------------------------------------------------------------ */
/* Command buffers                                                      */
/* ------------------------------------------------------------------ */

#define TU_BUF_CAP 16384u

struct tu_buf {
    uint8_t bytes[TU_BUF_CAP];
    struct wk_gpu_writer w;
};

void tu_buf_init(struct tu_buf *b);
/* Appends raw bytes (hand-made commands, garbage). */
void tu_buf_raw(struct tu_buf *b, const void *bytes, size_t len);
/* Fails the test unless an emit call returned WK_OK. */
#define TU_EMIT(expr) TU_OK(expr)

/* Runs the buffer with wk_gpu_exec_bytes at TU_BUF_ADDR. */
wk_status tu_run(struct wk_gpu *gpu, const struct tu_buf *b, struct wk_gpu_fault *fault);
/* true when the buffer ran to its end (WK_OK, reason NONE); otherwise prints
 * the status and the formatted fault. */
bool tu_run_ok(struct wk_gpu *gpu, const struct tu_buf *b);
bool tu_run_bytes_ok(struct wk_gpu *gpu, const uint8_t *bytes, uint64_t len);

/* Little-endian stores for hand-made bytes. */
void tu_put32(uint8_t *p, uint32_t v);
void tu_put64(uint8_t *p, uint64_t v);
uint32_t tu_get32(const uint8_t *p);
uint64_t tu_get64(const uint8_t *p);

/* ------------------------------------------------------------------ */
/* Memory checks                                                        */
/* ------------------------------------------------------------------ */

/* Host write that fails the test unless WK_OK. */
void tu_write(struct wk_gpu *gpu, uint64_t addr, const void *buf, uint64_t len);
void tu_write32(struct wk_gpu *gpu, uint64_t addr, uint32_t v);
/* Deterministic test bytes: byte i = f(seed, i), never all zero. */
void tu_pattern(uint8_t *buf, size_t len, uint32_t seed);

/* Memory at addr equals expected[0..len); prints the first differing offsets. */
bool expect_bytes(struct wk_gpu *gpu, uint64_t addr, const void *expected, uint64_t len);
/* Every byte of [addr, addr+len) equals `byte`. */
bool expect_byte_run(struct wk_gpu *gpu, uint64_t addr, uint8_t byte, uint64_t len);
bool expect_mem32(struct wk_gpu *gpu, uint64_t addr, uint32_t want);
bool expect_mem64(struct wk_gpu *gpu, uint64_t addr, uint64_t want);

/* ------------------------------------------------------------------ */
/* Faults and counters                                                  */
/* ------------------------------------------------------------------ */

/* reason, offset and opcode of a fault; prints every differing field. */
bool expect_fault(const struct wk_gpu_fault *f, enum wk_gpu_fault_reason reason, uint64_t offset,
                  uint32_t opcode);
/* Every field of the record. */
bool expect_fault_full(const struct wk_gpu_fault *f, enum wk_gpu_fault_reason reason,
                       uint32_t opcode, uint64_t offset, uint64_t buffer_addr, uint32_t depth,
                       uint64_t fault_addr);
/* Runs b and expects WK_E_GPU_FAULT with the full record (buffer TU_BUF_ADDR,
 * depth 0). */
bool tu_expect_run_fault(struct wk_gpu *gpu, const struct tu_buf *b,
                         enum wk_gpu_fault_reason reason, uint32_t opcode, uint64_t offset,
                         uint64_t fault_addr, const char *file, int line);
#define expect_run_fault(gpu, b, reason, opcode, offset, fault_addr) \
    tu_expect_run_fault((gpu), (b), (reason), (opcode), (offset), (fault_addr), __FILE__, __LINE__)

/* Every counter equals `want`; prints each differing field by name. */
bool expect_counters(const struct wk_gpu *gpu, const struct wk_gpu_counters *want);
/* expect_counters against the fields named, every other counter 0:
 *     assert_true(expect_counters_are(gpu, .commands = 2, .execs = 1));
 * The whole expectation reads in one place, and a counter the test does not
 * name is still checked (to be 0). */
#define expect_counters_are(gpu, ...) \
    expect_counters((gpu), &(const struct wk_gpu_counters){__VA_ARGS__})

/* Interrupt recorder for FENCE. */
#define TU_IRQ_MAX 16u
struct tu_irq {
    struct wk_gpu *gpu;         /* when set, the handler reads memory at addr */
    uint32_t count;
    uint64_t addr[TU_IRQ_MAX];
    uint64_t value[TU_IRQ_MAX];
    uint64_t mem[TU_IRQ_MAX];   /* 8 bytes at addr, read inside the handler */
    wk_status mem_status[TU_IRQ_MAX];
};
void tu_irq_handler(void *user, uint64_t fence_addr, uint64_t fence_value);

/* Seeded generator for the randomised tests (xorshift64*). The seed comes
 * from WK_TEST_SEED when set, so a failing run can be replayed. */
uint64_t tu_seed(uint64_t fallback);
uint64_t tu_rand(uint64_t *state);

#endif /* WK_GPU_TEST_UTIL_H */
