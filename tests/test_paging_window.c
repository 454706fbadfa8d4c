/* SPDX-License-Identifier: MIT */
/*
 * tests/test_paging_window.c - the paging buffer's block of system pages
 * (reference-impl/vidmm/paging.c, guard.c).
 *
 * The paging buffer ends a block of system pages at least as large as the
 * driver's PagingBufferSize, so that wk_vidmm_reconfigure can change its
 * size without mapping anything (a fuzz harness does so for most inputs).
 * What must hold:
 *   - a reconfigured adapter hands out what a fresh one with those knobs
 *     does: statuses, aperture PFNs, the paging buffer's GPU address, for a
 *     run of sizes inside the block, past it and back;
 *   - the other allocations' PFNs do not depend on the paging buffer's
 *     size while it fits the block;
 *   - a write past the end of a resized buffer, or just before its start
 *     (it no longer starts the mapping) is MEM-GUARD-001;
 *   - a resized buffer is zero, also without a reset since its last use;
 *   - with paging_buffer_largest the block is that large from the start:
 *     no size maps one, and none moves what the driver sees.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wddmkit/gpu.h"
#include "reference.h"

#include "vidmm_test_util.h"

#define KIB 1024u
#define APERS 3u
#define MAX_PAGES 8u

/* Everything of the kit's choices the program below can observe. */
struct trace {
    wk_status status[32];
    uint32_t steps;
    uint64_t pfn[APERS][MAX_PAGES];  /* GART entries of the aperture allocations */
    uint64_t paging_gpu[4];          /* DmaBufferGpuVirtualAddress of the first calls */
    uint32_t paging_calls;
};

static void record(struct trace *t, wk_status st)
{
    if (t->steps < 32)
        t->status[t->steps++] = st;
}

static void note_paging_address(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct trace *t = user;
    (void)status;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || t->paging_calls == 4)
        return;
    t->paging_gpu[t->paging_calls++] = ((DXGKARG_BUILDPAGINGBUFFER *)args)->DmaBufferGpuVirtualAddress;
}

static uint32_t alloc_in(struct wk_vidmm *vm, uint32_t device, uint64_t size, uint32_t segment)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, size, VT_SET(segment), segment == VT_APER ? 0 : VT_PREF(0, segment, 0), 0);
    return vt_alloc(vm, device, &req);
}

/* Aperture page-ins (scattered system pages), a fill, an eviction of a
 * memory allocation to system pages and back. */
static void program(struct wk_vidmm *vm, struct trace *t)
{
    memset(t, 0, sizeof(*t));
    wk_vidmm_set_rewriter(vm, note_paging_address, t);
    uint32_t device = 0, ap[APERS];
    record(t, wk_vidmm_create_device(vm, 0, &device));
    uint32_t mem = alloc_in(vm, device, 24 * KIB, VT_SEG1);
    for (uint32_t i = 0; i < APERS; i++)
        ap[i] = alloc_in(vm, device, (8u + 8u * i) * KIB, VT_APER);
    record(t, wk_vidmm_page_in(vm, ap[0]));
    record(t, wk_vidmm_fill(vm, mem, 0x11223344u));
    record(t, wk_vidmm_evict(vm, mem));
    record(t, wk_vidmm_page_in(vm, ap[1]));
    record(t, wk_vidmm_page_in(vm, mem));
    record(t, wk_vidmm_page_in(vm, ap[2]));
    for (uint32_t i = 0; i < APERS; i++) {
        struct wk_vidmm_allocation_state s;
        record(t, wk_vidmm_allocation_state(vm, ap[i], &s));
        for (uint64_t p = 0; p < s.size / VT_PAGE && p < MAX_PAGES; p++) {
            int valid = 0, stale = 0;
            wk_gpu_gart_get(wk_vidmm_gpu(vm), VT_APER, s.segment_offset / VT_PAGE + p, &valid,
                            &t->pfn[i][p], &stale);
        }
    }
    wk_vidmm_set_rewriter(vm, NULL, NULL);
}

static bool same_pfns(const struct trace *x, const struct trace *y)
{
    for (uint32_t i = 0; i < APERS; i++)
        for (uint32_t p = 0; p < MAX_PAGES; p++)
            if (x->pfn[i][p] != y->pfn[i][p]) {
                fprintf(stderr, "aperture allocation %u page %u: PFN 0x%" PRIx64 " against 0x%" PRIx64 "\n",
                        i, p, x->pfn[i][p], y->pfn[i][p]);
                return false;
            }
    return true;
}

static bool same_trace(const struct trace *fresh, const struct trace *other)
{
    bool same = fresh->steps == other->steps && fresh->paging_calls == other->paging_calls;
    for (uint32_t i = 0; i < fresh->steps && i < other->steps; i++)
        if (fresh->status[i] != other->status[i]) {
            fprintf(stderr, "step %u: %s fresh, %s reconfigured\n", i, wk_status_name(fresh->status[i]),
                    wk_status_name(other->status[i]));
            same = false;
        }
    for (uint32_t i = 0; i < fresh->paging_calls && i < other->paging_calls; i++)
        if (fresh->paging_gpu[i] != other->paging_gpu[i]) {
            fprintf(stderr, "paging call %u: buffer at 0x%" PRIx64 " fresh, 0x%" PRIx64 " reconfigured\n", i,
                    fresh->paging_gpu[i], other->paging_gpu[i]);
            same = false;
        }
    return same_pfns(fresh, other) && same;
}

static struct wk_vidmm_config sized(uint32_t paging_buffer_size)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.paging_buffer_size = paging_buffer_size;
    cfg.seed = 0x51DE;
    return cfg;
}

/* Inside the block (28 .. 16 KiB, the reference driver's size), past it
 * (20000: a block of its own) and back, each size after another: as fresh. */
static void test_reconfigured_sizes_replay_like_fresh(void **state)
{
    struct vt_fixture *f = *state;
    static const uint32_t sizes[] = { 28, 100, 4096, 0, 20000, 28, 0, 4097, 100, 20000, 0 };
    static struct trace fresh[sizeof(sizes) / sizeof(sizes[0])], again;
    for (uint32_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct wk_vidmm_config cfg = sized(sizes[i]);
        assert_true(vt_open(f, &cfg, NULL, 0));
        program(f->vm, &fresh[i]);
        assert_true(expect_no_violations(f->vm));
        vt_close(f);
    }
    struct wk_vidmm_config first = sized(sizes[0]);
    assert_true(vt_open(f, &first, NULL, 0));
    for (uint32_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct wk_vidmm_config cfg = sized(sizes[i]);
        VT_OK(f->vm, wk_vidmm_reset(f->vm));
        VT_OK(f->vm, wk_vidmm_reconfigure(f->vm, &cfg));
        program(f->vm, &again);
        if (!same_trace(&fresh[i], &again))
            fail_msg("paging buffer of %u bytes (step %u): the reconfigured adapter differs from a fresh one",
                     sizes[i], i);
        assert_true(expect_no_violations(f->vm));
    }
}

/* A fuzz harness names the largest size it will configure
 * (paging_buffer_largest): the block is that large from the start, so
 * that no size maps one (issue 26), and what the driver sees does not
 * change: every size hands out what a fresh adapter without the knob
 * does, and no reconfigure maps anything. */
static void test_largest_block_maps_once_and_moves_nothing(void **state)
{
    struct vt_fixture *f = *state;
    static const uint32_t sizes[] = { 28, 20000, 0, 65535, 4097, 40000, 100 };
    enum { N = sizeof(sizes) / sizeof(sizes[0]) };
    static struct trace largest[N], fresh;
    /* first, while no adapter of this process has used the 16-page class
     * (a memory pool keeps the mappings of the adapters before it) */
    struct wk_vidmm_config first = sized(sizes[0]);
    first.paging_buffer_largest = 65535;
    assert_true(vt_open(f, &first, NULL, 0));
    program(f->vm, &fresh); /* whatever else the program maps, once */
    uint64_t mapped = wk_gpu_sysmem_mappings(wk_vidmm_gpu(f->vm));
    for (uint32_t i = 0; i < N; i++) {
        struct wk_vidmm_config cfg = sized(sizes[i]);
        cfg.paging_buffer_largest = 65535;
        VT_OK(f->vm, wk_vidmm_reset(f->vm));
        VT_OK(f->vm, wk_vidmm_reconfigure(f->vm, &cfg));
        program(f->vm, &largest[i]);
        assert_true(expect_no_violations(f->vm));
    }
    uint64_t made = wk_gpu_sysmem_mappings(wk_vidmm_gpu(f->vm)) - mapped;
    vt_close(f);
    if (made)
        fail_msg("the sizes made %" PRIu64 " host mappings, expected none", made);
    for (uint32_t i = 0; i < N; i++) {
        struct wk_vidmm_config cfg = sized(sizes[i]);
        assert_true(vt_open(f, &cfg, NULL, 0));
        program(f->vm, &fresh);
        vt_close(f);
        if (!same_trace(&fresh, &largest[i]))
            fail_msg("paging buffer of %u bytes in the largest block: differs from a fresh adapter", sizes[i]);
    }
}

/* The block is the driver's size whatever the configured one: the other
 * allocations get the same system pages with a 28-byte buffer as with the
 * driver's 16 KiB, and the small buffer ends where the large one does. */
static void test_allocation_pfns_do_not_depend_on_the_size(void **state)
{
    struct vt_fixture *f = *state;
    static struct trace small, own;
    struct wk_vidmm_config cfg = sized(28);
    assert_true(vt_open(f, &cfg, NULL, 0));
    program(f->vm, &small);
    vt_close(f);
    cfg = sized(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    program(f->vm, &own);
    assert_true(same_pfns(&small, &own));
    assert_true(small.paging_calls > 0 && own.paging_calls > 0);
    assert_true(expect_u64(small.paging_gpu[0], own.paging_gpu[0] + VT_RD_PAGING_BUFFER_SIZE - VT_PAGE));
}

/* A rewriter that writes one byte at `offset` from the paging buffer's
 * start on the first BuildPagingBuffer call that gets it empty. It runs
 * after the driver advanced pDmaBuffer (by less than a page here); the
 * start of an empty buffer is page aligned (P1). */
struct stray {
    long offset;
    int done;
};

static void stray_write(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct stray *s = user;
    DXGKARG_BUILDPAGINGBUFFER *a = args;
    (void)status;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || s->done || a->DmaBufferWriteOffset != 0)
        return;
    s->done = 1;
    uintptr_t start = (uintptr_t)a->pDmaBuffer & ~(uintptr_t)(VT_PAGE - 1);
    ((volatile uint8_t *)start)[s->offset] = 0x5A;
}

static void write_at(struct vt_fixture *f, long offset)
{
    struct stray s = { offset, 0 };
    uint32_t device = 0;
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &device));
    wk_vidmm_set_rewriter(f->vm, stray_write, &s);
    uint32_t a = alloc_in(f->vm, device, 8 * KIB, VT_SEG1);
    wk_vidmm_page_in(f->vm, a);
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    assert_true(s.done);
}

static void expect_guard_trip(struct vt_fixture *f, long offset)
{
    write_at(f, offset);
    assert_true(expect_violation(f->vm, "MEM-GUARD-001"));
}

static void test_write_past_a_resized_buffer_is_caught(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config own = sized(0), small = sized(100);
    assert_true(vt_open(f, &own, NULL, 0));
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    VT_OK(f->vm, wk_vidmm_reconfigure(f->vm, &small));
    expect_guard_trip(f, 100); /* the first byte of the tail canary */
}

static void test_write_before_a_small_buffer_is_caught(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config own = sized(0), small = sized(100);
    assert_true(vt_open(f, &small, NULL, 0));
    expect_guard_trip(f, -1);
    /* The same after a resize in place, and after the reset that follows. */
    vt_close(f);
    assert_true(vt_open(f, &own, NULL, 0));
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    VT_OK(f->vm, wk_vidmm_reconfigure(f->vm, &small));
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    expect_guard_trip(f, -8);
}

/* A paging buffer of the driver's own size fills its block, so it starts
 * its mapping: a write just before it hits the guard page before the
 * mapping (gpu-model/sysmap.c), not whatever mapping lay below, and the
 * report says so. */
static void test_write_before_a_whole_block_buffer_is_caught(void **state)
{
    /* In a child that leaves with _exit: the guard-page hit kills the
     * adapter, and the kit never calls a dead driver again, so the
     * driver's objects would be LeakSanitizer's findings at exit. */
    struct vt_fixture *f = *state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        struct wk_vidmm_config own = sized(0);
        struct wk_violation v;
        uint64_t total = 0;
        int ok = 0;
        if (vt_open(f, &own, NULL, 0)) {
            write_at(f, -1);
            ok = wk_vidmm_violated(f->vm, "MEM-GUARD-001") && wk_vidmm_violations(f->vm, &v, 1, &total) == 1;
        }
        if (ok && write(fds[1], v.message, strlen(v.message)) < 0)
            ok = 0;
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    char got[512] = { 0 };
    ssize_t n = read(fds[0], got, sizeof(got) - 1);
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(n > 0);
    assert_non_null(strstr(got, "wrote before the start of the paging buffer"));
    assert_non_null(strstr(got, "guard page hit"));
}

/* Growing back to the whole block leaves no canary inside the buffer: a
 * driver may write its first and last byte. */
static void test_buffer_grown_in_place_is_all_usable(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config own = sized(0), small = sized(28);
    assert_true(vt_open(f, &small, NULL, 0));
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    VT_OK(f->vm, wk_vidmm_reconfigure(f->vm, &own));
    write_at(f, 0); /* over the driver's command: only the guard matters here */
    assert_true(expect_not_violated(f->vm, "MEM-GUARD-001"));
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    write_at(f, VT_RD_PAGING_BUFFER_SIZE - 1);
    assert_true(expect_not_violated(f->vm, "MEM-GUARD-001"));
    static struct trace t;
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    program(f->vm, &t);
    assert_true(expect_no_violations(f->vm));
}

/* A byte BuildPagingBuffer leaves past its advance stays in the buffer
 * (only the submitted bytes are cleared); a resize without a reset in
 * between must still hand out a zero buffer, as a fresh adapter does. */
struct leftover {
    int leave;      /* 1: leave a byte at LEFTOVER_AT; 0: check the buffer past the advance */
    int nonzero;    /* bytes found non-zero past the advance */
    int calls;
};

#define SMALL 100u
#define LEFTOVER_AT (VT_RD_PAGING_BUFFER_SIZE - VT_PAGE + 90) /* byte 90 of the SMALL buffer */

static void leftover_rewriter(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct leftover *l = user;
    DXGKARG_BUILDPAGINGBUFFER *a = args;
    (void)status;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || a->DmaBufferWriteOffset != 0 || l->calls++)
        return;
    uint8_t *start = (uint8_t *)((uintptr_t)a->pDmaBuffer & ~(uintptr_t)(VT_PAGE - 1));
    if (l->leave) {
        start[LEFTOVER_AT] = 0xEE;
        return;
    }
    for (uint8_t *p = a->pDmaBuffer; p < start + SMALL; p++)
        l->nonzero += *p != 0;
}

static void test_resize_without_reset_gives_a_zero_buffer(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config own = sized(0), small = sized(SMALL);
    assert_true(vt_open(f, &own, NULL, 0));
    struct leftover l = { 1, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, leftover_rewriter, &l);
    VT_OK(f->vm, wk_vidmm_touch_physical(f->vm, VT_SEG1, 0, 0));
    VT_OK(f->vm, wk_vidmm_reconfigure(f->vm, &small));
    l = (struct leftover){ 0, 0, 0 };
    VT_OK(f->vm, wk_vidmm_touch_physical(f->vm, VT_SEG1, 0, 0));
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    assert_true(l.calls > 0);
    assert_true(expect_u64((uint64_t)l.nonzero, 0));
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_largest_block_maps_once_and_moves_nothing), /* first: no pool has its class yet */
        VT_TEST(test_reconfigured_sizes_replay_like_fresh),
        VT_TEST(test_allocation_pfns_do_not_depend_on_the_size),
        VT_TEST(test_write_past_a_resized_buffer_is_caught),
        VT_TEST(test_write_before_a_small_buffer_is_caught),
        VT_TEST(test_write_before_a_whole_block_buffer_is_caught),
        VT_TEST(test_buffer_grown_in_place_is_all_usable),
        VT_TEST(test_resize_without_reset_gives_a_zero_buffer),
    };
    return cmocka_run_group_tests_name("vidmm.paging_window", tests, NULL, NULL);
}
