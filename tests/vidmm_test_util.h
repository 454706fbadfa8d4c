/* SPDX-License-Identifier: MIT */
/*
 * tests/vidmm_test_util.h - shared helpers for the reference video memory
 * manager tests (test_vidmm.c, test_vidmm_rules.c).
 *
 * What is here: a fixture that creates a wk_vidmm, attaches a driver (the
 * reference driver unless told otherwise), starts it and makes a device and
 * a context; builders for allocation requests and user command buffers in
 * the kit's UMD formats (wddmkit/umd.h); and bool-returning checks in the
 * drm_mm_test style: each prints exactly what differs (the status and the
 * manager's last error, every recorded violation message) before returning
 * false, and the caller wraps it in assert_true(), so a failure says what
 * went wrong without a debugger.
 *
 * The fixture is opened inside the test body, never in a cmocka setup: the
 * kit installs its crash handlers when a wk_vidmm is created, and cmocka
 * swaps its own in around every setup, test and teardown call.
 *
 * Nothing here keeps state between calls.
 */
#ifndef WK_VIDMM_TEST_UTIL_H
#define WK_VIDMM_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reference.h"

/* ------------------------------------------------------------------ */
/* The reference adapter (docs/gpu-model.md, "Reference adapter")       */
/* ------------------------------------------------------------------ */

#define VT_PAGE 4096ull
#define VT_SEG1 1u                    /* memory, 1 MiB */
#define VT_SEG1_BASE 0x100000ull
#define VT_SEG1_SIZE 0x100000ull
#define VT_SEG2 2u                    /* memory, 4 banks of 256 KiB */
#define VT_SEG2_BASE 0x400000ull
#define VT_SEG2_SIZE 0x100000ull
#define VT_BANKS 4u
#define VT_BANK_SIZE 0x40000ull
#define VT_APER 3u                    /* aperture, 64 pages */
#define VT_APER_BASE 0x800000ull
#define VT_APER_SIZE 0x40000ull
#define VT_SYS_PAGES 256u             /* the whole system pool */

/* Segment set bit of segment `id`. */
#define VT_SET(id) (1u << ((id) - 1u))
/* PreferredSegment slot value: segment id and direction (1 = top-down). */
#define VT_PREF(slot, id, dir) ((uint32_t)(((id) | ((dir) << 5)) << (6 * (slot))))
/* HintedBank slot value: 1-based bank and direction (1 = top-down). */
#define VT_BANK(slot, bank, dir) ((uint32_t)(((bank) | ((dir) << 7)) << (8 * (slot))))

/* The reference driver's choices (reference-impl/refdriver/refdriver.h). */
#define VT_RD_DMA_BUFFER_SIZE 0x4000u
#define VT_RD_PAGING_BUFFER_SIZE 0x4000u
#define VT_RD_CONTEXT_ALLOCATION_SIZE 0x1000u

/* ------------------------------------------------------------------ */
/* Seeds                                                                */
/* ------------------------------------------------------------------ */

/* WK_TEST_SEED when set (decimal or 0x hex), else `fallback`. */
uint64_t vt_seed(uint64_t fallback);
/* xorshift64* step; never returns the same state twice in a row. */
uint64_t vt_rand(uint64_t *state);
/* Fills buf with bytes from the generator. */
void vt_random_bytes(uint64_t *state, void *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Checks                                                               */
/* ------------------------------------------------------------------ */

/* Prints every violation recorded so far, one per line, with `indent`. */
void vt_print_violations(const struct wk_vidmm *vm, const char *indent);

/* got == want; otherwise prints the expression, both statuses and the
 * manager's last error (vm may be NULL). */
bool vt_expect_status_(struct wk_vidmm *vm, wk_status got, wk_status want, const char *what,
                       const char *file, int line);
#define expect_status(vm, got, want) \
    vt_expect_status_((vm), (got), (want), #got, __FILE__, __LINE__)
/* Fails the test unless expr returns WK_OK. */
#define VT_OK(vm, expr) assert_true(vt_expect_status_((vm), (expr), WK_OK, #expr, __FILE__, __LINE__))

/* Rule `id` was violated at least once (and `id` is in the catalogue);
 * otherwise prints what was recorded instead. */
bool vt_expect_violation_(const struct wk_vidmm *vm, const char *id, const char *file, int line);
#define expect_violation(vm, id) vt_expect_violation_((vm), (id), __FILE__, __LINE__)
/* Rule `id` was never violated; otherwise prints every violation. */
bool vt_expect_not_violated_(const struct wk_vidmm *vm, const char *id, const char *file, int line);
#define expect_not_violated(vm, id) vt_expect_not_violated_((vm), (id), __FILE__, __LINE__)
/* No violation at all; otherwise prints every one. */
bool vt_expect_no_violations_(const struct wk_vidmm *vm, const char *file, int line);
#define expect_no_violations(vm) vt_expect_no_violations_((vm), __FILE__, __LINE__)

/* got == want; otherwise prints both in hex and decimal. */
bool vt_expect_u64_(uint64_t got, uint64_t want, const char *what, const char *file, int line);
#define expect_u64(got, want) vt_expect_u64_((got), (want), #got, __FILE__, __LINE__)

/* Where an allocation is: resident in `segment` at `offset` in `bank`
 * (0 for an unbanked segment); prints every differing field. */
bool vt_expect_placed_(struct wk_vidmm *vm, uint32_t allocation, uint32_t segment,
                       uint64_t offset, uint32_t bank, const char *file, int line);
#define expect_placed(vm, allocation, segment, offset, bank) \
    vt_expect_placed_((vm), (allocation), (segment), (offset), (bank), __FILE__, __LINE__)

/* len bytes of an allocation from `offset` equal `want`; prints the first
 * differing bytes. */
bool vt_expect_bytes_(struct wk_vidmm *vm, uint32_t allocation, uint64_t offset, const void *want,
                      uint64_t len, const char *file, int line);
#define expect_bytes(vm, allocation, offset, want, len) \
    vt_expect_bytes_((vm), (allocation), (offset), (want), (len), __FILE__, __LINE__)

/* ------------------------------------------------------------------ */
/* Fixture                                                              */
/* ------------------------------------------------------------------ */

/* What vt_open makes beyond the started adapter. */
#define VT_DEVICE 0x1u
#define VT_CONTEXT 0x2u                 /* implies VT_DEVICE */

struct vt_fixture {
    struct wk_vidmm *vm;
    uint32_t device;
    uint32_t context;
};

/*
 * Creates a wk_vidmm with `cfg` (NULL: all defaults), attaches `entry`
 * (NULL: the reference driver) and starts it, then makes what `what` asks.
 * On failure prints the step and the last error and returns false; the
 * fixture is then still safe to vt_close.
 */
bool vt_open_(struct vt_fixture *f, const struct wk_vidmm_config *cfg, DRIVER_INITIALIZE *entry,
              unsigned what, const char *file, int line);
#define vt_open(f, cfg, entry, what) vt_open_((f), (cfg), (entry), (what), __FILE__, __LINE__)
/* Destroys the wk_vidmm (and with it every object); safe twice. */
void vt_close(struct vt_fixture *f);

/* cmocka setup/teardown that give the test a zeroed struct vt_fixture in
 * *state and close it afterwards, also when an assertion failed. */
int vt_fixture_setup(void **state);
int vt_fixture_teardown(void **state);
#define VT_TEST(fn) cmocka_unit_test_setup_teardown(fn, vt_fixture_setup, vt_fixture_teardown)

/* ------------------------------------------------------------------ */
/* Allocation requests                                                  */
/* ------------------------------------------------------------------ */

/* A valid request: `size` bytes, every segment, no preference. */
void vt_request(WK_ALLOCATION_REQUEST *r, uint64_t size);
/* The same with a segment set, a PreferredSegment value and a HintedBank value. */
void vt_request_at(WK_ALLOCATION_REQUEST *r, uint64_t size, uint32_t set, uint32_t preferred,
                   uint32_t banks);
/* Creates an allocation (fails the test with the last error unless WK_OK). */
uint32_t vt_alloc_(struct wk_vidmm *vm, uint32_t device, const WK_ALLOCATION_REQUEST *r,
                   const char *file, int line);
#define vt_alloc(vm, device, r) vt_alloc_((vm), (device), (r), __FILE__, __LINE__)

/* ------------------------------------------------------------------ */
/* User command buffers (wddmkit/umd.h)                                 */
/* ------------------------------------------------------------------ */

#define VT_CMD_MAX 4096u

struct vt_cmd {
    uint8_t bytes[VT_CMD_MAX];
    uint32_t length;          /* header included */
    uint32_t records;
};

/* An empty buffer: a valid header with RecordCount 0. */
void vt_cmd_init(struct vt_cmd *c);
/* Appends one record (the header's RecordCount follows); fails the test
 * when the buffer is full. */
void vt_cmd_copy(struct vt_cmd *c, uint32_t src_index, uint32_t src_offset, uint32_t dst_index,
                 uint32_t dst_offset, uint32_t size);
void vt_cmd_fill(struct vt_cmd *c, uint32_t dst_index, uint32_t dst_offset, uint32_t size,
                 uint32_t pattern);
void vt_cmd_write32(struct vt_cmd *c, uint32_t dst_index, uint32_t dst_offset, uint32_t value);
void vt_cmd_blit(struct vt_cmd *c, uint32_t src_index, uint32_t src_offset, uint32_t dst_index,
                 uint32_t dst_offset, uint32_t width, uint32_t height, uint32_t src_pitch,
                 uint32_t dst_pitch);
void vt_cmd_nop(struct vt_cmd *c);
/* The header, for tests that break it on purpose. */
WK_USER_COMMAND_HEADER *vt_cmd_header(struct vt_cmd *c);

/* wk_vidmm_render of `c` on `context` with `list`. */
wk_status vt_render(struct wk_vidmm *vm, uint32_t context, const struct vt_cmd *c,
                    const struct wk_vidmm_list_entry *list, uint32_t list_length,
                    int no_prepatch_info, struct wk_vidmm_render_result *result);

/* ------------------------------------------------------------------ */
/* A driver's objects, destroyed by hand after its adapter died          */
/* ------------------------------------------------------------------ */

/* vt_track wraps the object DDIs of a driver's table (AddDevice,
 * Create/DestroyDevice, Create/DestroyContext, Create/DestroyAllocation) to
 * keep what the driver holds; vt_release_dead destroys it through the
 * table's own functions, for a test whose driver crashed: the kit calls a
 * dead driver no more, and what it held would be LeakSanitizer's. Call it
 * before the adapter is destroyed (the driver calls back into it). One
 * driver at a time; vt_track starts afresh. */
void vt_track(DRIVER_INITIALIZATION_DATA *table);
void vt_release_dead(void);

/* ------------------------------------------------------------------ */
/* Host-side models of the GPU's effects, for expectations               */
/* ------------------------------------------------------------------ */

/* Byte i of a FILL of `pattern` starting at a 4-byte boundary. */
void vt_model_fill(uint8_t *dst, uint64_t len, uint32_t pattern);

#endif /* WK_VIDMM_TEST_UTIL_H */
