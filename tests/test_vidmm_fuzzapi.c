/*
 * tests/test_vidmm_fuzzapi.c - the two wk_vidmm entry points the fuzz
 * harnesses stand on (include/wddmkit/vidmm.h):
 *
 *   - wk_vidmm_reset: back to a started, empty adapter between inputs:
 *     every object gone, handles from 1 again, no violations, GPU memory
 *     zero, resident host pages back to the count of an idle adapter (one
 *     reset after start: the paging buffer, kept for the adapter's life, is
 *     zeroed when it is made and its pages released by the first reset), and
 *     1000 resets in a row with work between them do not grow anything;
 *   - wk_vidmm_patch: DxgkDdiPatch on a caller's DMA buffer and lists: a
 *     correct patch passes its checks, inputs that do not fit the
 *     context's buffers are rejected with WK_E_INVALID_ARGUMENT before the
 *     driver sees them.
 *
 * If the harnesses' speed or soundness depends on it, it is pinned here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wddmkit/gpu.h"
#include "wddmkit/vidmm.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WK_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define WK_TEST_ASAN 1
#endif
#ifdef WK_TEST_ASAN
#include <sanitizer/allocator_interface.h>
#else
#include <malloc.h>
#endif

#include "vidmm_test_util.h"

#define KIB 1024u

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static struct wk_vidmm_config fuzz_config(uint32_t paging_buffer_size)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.ddi_timeout_ms = UINT32_MAX; /* as the harnesses run */
    cfg.paging_buffer_size = paging_buffer_size;
    return cfg;
}

struct workload {
    uint32_t device, context, a, b;
    uint64_t a_address;
};

/* What an input typically does: objects, paging, a render. */
static void run_workload(struct wk_vidmm *vm, struct workload *w)
{
    WK_ALLOCATION_REQUEST req;
    VT_OK(vm, wk_vidmm_create_device(vm, 0, &w->device));
    VT_OK(vm, wk_vidmm_create_context(vm, w->device, 0, &w->context));
    vt_request_at(&req, 16 * KIB, 0, VT_PREF(0, VT_SEG1, 0), 0);
    w->a = vt_alloc(vm, w->device, &req);
    vt_request_at(&req, 8 * KIB, VT_SET(VT_APER), 0, 0);
    w->b = vt_alloc(vm, w->device, &req);
    VT_OK(vm, wk_vidmm_page_in(vm, w->a));
    VT_OK(vm, wk_vidmm_fill(vm, w->a, 0x5A5AA5A5u));
    VT_OK(vm, wk_vidmm_page_in(vm, w->b));
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_copy(&cmd, 0, 0, 1, 0, 4 * KIB);
    struct wk_vidmm_list_entry list[2] = { { w->a, 0 }, { w->b, 1 } };
    struct wk_vidmm_render_result res;
    VT_OK(vm, vt_render(vm, w->context, &cmd, list, 2, 0, &res));
    VT_OK(vm, wk_vidmm_evict(vm, w->b));
    struct wk_vidmm_allocation_state st;
    VT_OK(vm, wk_vidmm_allocation_state(vm, w->a, &st));
    w->a_address = st.gpu_address;
}

/* Host pages backing GPU memory on a started adapter that did nothing since
 * a reset: what every reset must come back to. */
static uint64_t idle_resident_pages(struct wk_vidmm *vm)
{
    VT_OK(vm, wk_vidmm_reset(vm));
    return wk_gpu_resident_pages(wk_vidmm_gpu(vm));
}

static bool all_zero(struct wk_vidmm *vm, uint64_t addr, uint64_t len)
{
    uint8_t buf[4096];
    for (uint64_t at = 0; at < len; at += sizeof(buf)) {
        uint64_t n = len - at < sizeof(buf) ? len - at : sizeof(buf);
        assert_int_equal(wk_gpu_read(wk_vidmm_gpu(vm), addr + at, buf, n), WK_OK);
        for (uint64_t i = 0; i < n; i++)
            if (buf[i]) {
                fprintf(stderr, "GPU byte 0x%" PRIx64 " is 0x%02x after reset\n", addr + at + i, buf[i]);
                return false;
            }
    }
    return true;
}

/* Bytes of live heap blocks (ASan's allocator when it is in). */
static uint64_t heap_bytes(void)
{
#ifdef WK_TEST_ASAN
    return __sanitizer_get_current_allocated_bytes();
#else
    struct mallinfo2 m = mallinfo2();
    return (uint64_t)m.uordblks + m.hblkhd;
#endif
}

/* Resident set of the process, in pages (/proc/self/statm); meaningless
 * under ASan, whose quarantine keeps freed memory resident. */
static long rss_pages(void)
{
    long size = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss;
}

/* ------------------------------------------------------------------ */
/* wk_vidmm_reset                                                       */
/* ------------------------------------------------------------------ */

static void test_reset_forgets_objects(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    struct workload w;
    run_workload(f->vm, &w);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    DXGK_CONTEXTINFO info;
    assert_true(expect_status(f->vm, wk_vidmm_page_in(f->vm, w.a), WK_E_NOT_FOUND));
    assert_true(expect_status(f->vm, wk_vidmm_context_info(f->vm, w.context, &info), WK_E_NOT_FOUND));
    assert_true(expect_status(f->vm, wk_vidmm_destroy_device(f->vm, w.device), WK_E_NOT_FOUND));
    assert_true(expect_no_violations(f->vm));
}

static void test_reset_restarts_handles(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    struct workload first, again;
    run_workload(f->vm, &first);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    run_workload(f->vm, &again);
    assert_int_equal(again.device, first.device);
    assert_int_equal(again.context, first.context);
    assert_int_equal(again.a, first.a);
    assert_int_equal(again.b, first.b);
    assert_int_equal(again.device, 1);
    assert_true(expect_u64(again.a_address, first.a_address)); /* the same placement: deterministic */
    assert_true(expect_no_violations(f->vm));
}

static void test_reset_clears_violations_and_memory(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    uint64_t idle = idle_resident_pages(f->vm);
    struct workload w;
    run_workload(f->vm, &w);
    assert_true(all_zero(f->vm, w.a_address, 16 * KIB) == false); /* the fill landed */
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    uint64_t total = 1;
    assert_int_equal(wk_vidmm_violations(f->vm, NULL, 0, &total), 0);
    assert_true(expect_u64(total, 0));
    assert_true(all_zero(f->vm, VT_SEG1_BASE, VT_SEG1_SIZE));
    assert_true(all_zero(f->vm, VT_SEG2_BASE, VT_SEG2_SIZE));
    assert_true(expect_u64(wk_gpu_resident_pages(wk_vidmm_gpu(f->vm)), idle));
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(f->vm, &st);
    assert_true(expect_u64(st.paging_passes + st.evictions + st.fences_completed, 0));
}

static void fail_patch(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    (void)args;
    if (ddi == WK_DDI_PATCH)
        *status = STATUS_UNSUCCESSFUL; /* Patch has no failure status: PATCH-STATUS-001 */
}

/* A violation recorded before the reset is gone after it. */
static void test_reset_clears_a_recorded_violation(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    uint8_t dma[16] = { 0 };
    D3DDDI_PATCHLOCATIONLIST p;
    DXGK_ALLOCATIONLIST l;
    memset(&p, 0, sizeof(p));
    memset(&l, 0, sizeof(l));
    struct wk_vidmm_patch a = { f->context, dma, sizeof(dma), &l, 1, &p, 1, 0, 16, 0, 1 };
    wk_vidmm_set_rewriter(f->vm, fail_patch, NULL);
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &a), WK_E_CONTRACT));
    assert_true(expect_violation(f->vm, "PATCH-STATUS-001"));
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    assert_true(expect_no_violations(f->vm));
    assert_true(expect_not_violated(f->vm, "PATCH-STATUS-001"));
}

static void test_reset_1000_times_without_growth(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    uint64_t idle = idle_resident_pages(f->vm), heap_before = 0;
    long rss_before = 0;
    for (int i = 0; i < 1000; i++) {
        struct workload w;
        run_workload(f->vm, &w);
        VT_OK(f->vm, wk_vidmm_reset(f->vm));
        assert_true(expect_u64(wk_gpu_resident_pages(wk_vidmm_gpu(f->vm)), idle));
        if (i == 99) { /* after warm-up: allocator pools are in place */
            rss_before = rss_pages();
            heap_before = heap_bytes();
        }
    }
    /* Live heap: exactly what it was (every block of an input freed). */
    assert_true(expect_u64(heap_bytes(), heap_before));
#ifndef WK_TEST_ASAN
    long grown = rss_pages() - rss_before; /* mappings (guarded buffers) too */
    if (grown > 256) /* 1 MiB of slack for allocator noise; a leak per reset would be far more */
        fail_msg("the resident set grew by %ld pages over 900 resets", grown);
#else
    (void)rss_before;
#endif
    assert_true(expect_no_violations(f->vm));
}

/* A paging buffer that does not end on a page boundary carries a canary in
 * the rest of its last page; reset must not leave it broken. */
static void test_reset_with_small_paging_buffer(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(28);
    assert_true(vt_open(f, &cfg, NULL, 0));
    struct workload w;
    run_workload(f->vm, &w);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    run_workload(f->vm, &w);
    assert_true(expect_no_violations(f->vm));
}

/* ------------------------------------------------------------------ */
/* wk_vidmm_patch                                                       */
/* ------------------------------------------------------------------ */

struct patch_case {
    uint8_t dma[64];
    DXGK_ALLOCATIONLIST list[2];
    D3DDDI_PATCHLOCATIONLIST patch[3];
    struct wk_vidmm_patch args;
};

/* A COPY from allocation a to allocation b, both addresses left for Patch,
 * and the lists the kernel would hand with it. */
static void build_patch_case(struct vt_fixture *f, struct patch_case *c)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8 * KIB, 0, VT_PREF(0, VT_SEG1, 0), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req), b = vt_alloc(f->vm, f->device, &req);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, b));
    struct wk_vidmm_allocation_state sa, sb;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &sa));
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, b, &sb));
    memset(c, 0, sizeof(*c));
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, c->dma, sizeof(c->dma));
    VT_OK(f->vm, wk_gpu_emit_copy(&w, 0, 0, 256));
    c->list[0].SegmentId = sa.segment_id;
    c->list[0].PhysicalAddress.QuadPart = (LONGLONG)sa.gpu_address;
    c->list[1].SegmentId = sb.segment_id;
    c->list[1].PhysicalAddress.QuadPart = (LONGLONG)sb.gpu_address;
    c->patch[0].AllocationIndex = 0;
    c->patch[0].PatchOffset = wk_gpu_operand_offset(WK_GPU_OP_COPY, 0);
    c->patch[0].AllocationOffset = 0x100;
    c->patch[1].AllocationIndex = 1;
    c->patch[1].PatchOffset = wk_gpu_operand_offset(WK_GPU_OP_COPY, 1);
    c->patch[1].SlotId = 1;
    c->args = (struct wk_vidmm_patch){ f->context, c->dma, (uint32_t)w.used, c->list, 2, c->patch, 2,
                                       0, (uint32_t)w.used, 0, 2 };
}

static void test_patch_correct(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    /* A sub-range, and an entry outside it that Patch must skip. */
    c.patch[2] = c.patch[1];
    c.patch[2].PatchOffset = 40;
    c.args.patch_length = 3;
    c.args.patch_count = 3;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    c.args.start = 12;
    c.args.patch_start = 1;
    c.args.patch_count = 1;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    assert_true(expect_no_violations(f->vm));
}

static void test_patch_rejects_bad_ranges(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    DXGK_CONTEXTINFO info;
    VT_OK(f->vm, wk_vidmm_context_info(f->vm, f->context, &info));
    struct patch_case c;
    build_patch_case(f, &c);
    struct wk_vidmm_stats before, after; /* paging buffers go through Patch too */
    wk_vidmm_get_stats(f->vm, &before);
    static uint8_t big[VT_RD_DMA_BUFFER_SIZE + 1];
    struct wk_vidmm_patch bad[8];
    for (int i = 0; i < 8; i++)
        bad[i] = c.args;
    bad[0].start = 20, bad[0].end = 10;                       /* start after end */
    bad[1].end = info.DmaBufferSize + 1;                      /* past the DMA buffer */
    bad[2].dma = big, bad[2].dma_length = sizeof(big);         /* more bytes than the buffer */
    bad[3].patch_start = 1, bad[3].patch_count = 2;           /* entries past the list */
    bad[4].patch_start = 3;                                   /* start past the list */
    bad[5].patch_length = info.PatchLocationListSize + 1;     /* longer than the context's list */
    bad[6].list = NULL;                                       /* a list of 2 without entries */
    bad[7].patch = NULL;
    for (int i = 0; i < 8; i++)
        if (!expect_status(f->vm, wk_vidmm_patch(f->vm, &bad[i]), WK_E_INVALID_ARGUMENT))
            fail_msg("bad patch input %d was not rejected", i);
    c.args.context = 999;
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_NOT_FOUND));
    wk_vidmm_get_stats(f->vm, &after);
    assert_true(expect_u64(after.ddi_calls[WK_DDI_PATCH], before.ddi_calls[WK_DDI_PATCH])); /* never seen */
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_reset_forgets_objects),
        VT_TEST(test_reset_restarts_handles),
        VT_TEST(test_reset_clears_violations_and_memory),
        VT_TEST(test_reset_clears_a_recorded_violation),
        VT_TEST(test_reset_1000_times_without_growth),
        VT_TEST(test_reset_with_small_paging_buffer),
        VT_TEST(test_patch_correct),
        VT_TEST(test_patch_rejects_bad_ranges),
    };
    return cmocka_run_group_tests_name("vidmm.fuzzapi", tests, NULL, NULL);
}
