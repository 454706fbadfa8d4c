/* SPDX-License-Identifier: MIT */
/*
 * test_dma_quarantine.c - destroyed contexts' DMA buffers
 * (reference-impl/vidmm/dma_quarantine.c, internal to wk_vidmm): a write
 * through a kept pointer is reported when the buffer leaves the quarantine,
 * naming the context and the offset; the quarantine holds the frames out
 * of the pool and is empty after the last device and at every reset; and
 * the frames a CreateContext gets depend on the input alone.
 */
#define _GNU_SOURCE /* sigjmp_buf in internal.h */

#include <setjmp.h>
#include <string.h>

#include "internal.h" /* before cmocka.h, whose fail() macro would rename internal.h's fail */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>

#include "vidmm_test_util.h"

#define KIB 1024u
#define CONTEXTS 6u

static struct wk_vidmm_config config(void)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.ddi_timeout_ms = UINT32_MAX; /* as the harnesses run */
    return cfg;
}

static struct gbuf *dma_of(struct wk_vidmm *vm, uint32_t context)
{
    return &context_get(vm, context)->dma;
}

/* Contexts created and destroyed in an order `shape` picks; the first page
 * of each DMA buffer, in creation order, into pfns. */
static void program(struct wk_vidmm *vm, uint32_t shape, uint64_t pfns[CONTEXTS])
{
    uint32_t device, ctx[CONTEXTS];
    VT_OK(vm, wk_vidmm_create_device(vm, 0, &device));
    for (uint32_t i = 0; i < CONTEXTS; i++) {
        VT_OK(vm, wk_vidmm_create_context(vm, device, 0, &ctx[i]));
        pfns[i] = dma_of(vm, ctx[i])->first_pfn;
        if (i && (shape >> i) & 1) /* destroyed at once: quarantined while the next ones come */
            VT_OK(vm, wk_vidmm_destroy_context(vm, ctx[i - 1]));
    }
    if (shape & 1)
        VT_OK(vm, wk_vidmm_destroy_device(vm, device)); /* the quarantine judged and emptied */
}

/* The same program on a fresh adapter and on one that ran a hundred other
 * programs (buffers quarantined, recycled, reset between) gets the same
 * DMA-buffer pages: what `wddmkit repro` relies on to replay a finding in
 * a fresh process. */
static void test_frames_depend_on_the_input_alone(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = config();
    for (uint32_t shape = 0; shape < 64; shape += 9) {
        uint64_t fresh[CONTEXTS], later[CONTEXTS], ignored[CONTEXTS];
        assert_true(vt_open(f, &cfg, NULL, 0));
        program(f->vm, shape, fresh);
        vt_close(f);
        assert_true(vt_open(f, &cfg, NULL, 0));
        for (uint32_t other = 0; other < 100; other++) {
            program(f->vm, (other * 7 + shape) & 63, ignored);
            VT_OK(f->vm, wk_vidmm_reset(f->vm));
        }
        program(f->vm, shape, later);
        for (uint32_t i = 0; i < CONTEXTS; i++)
            if (later[i] != fresh[i])
                fail_msg("program %u, context %u: DMA buffer at page 0x%" PRIx64 " after other programs, 0x%" PRIx64
                         " on a fresh adapter", shape, i, later[i], fresh[i]);
        assert_true(expect_no_violations(f->vm));
        vt_close(f);
    }
}

/* A destroyed context's frames stay out of the pool while quarantined (the
 * next context gets others), come back when the last device goes, and a
 * context created then gets them again, at the same mapping. */
static void test_frames_held_until_the_last_device(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = config();
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    struct gbuf first = *dma_of(f->vm, f->context);
    VT_OK(f->vm, wk_vidmm_destroy_context(f->vm, f->context));
    assert_int_equal(f->vm->dmaq.count, 1);
    uint32_t c2;
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &c2));
    assert_true(dma_of(f->vm, c2)->first_pfn != first.first_pfn);
    VT_OK(f->vm, wk_vidmm_destroy_device(f->vm, f->device));
    assert_int_equal(f->vm->dmaq.count, 0);
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &f->context));
    assert_true(dma_of(f->vm, f->context)->first_pfn == first.first_pfn);
    assert_ptr_equal(dma_of(f->vm, f->context)->ptr, first.ptr); /* the retired mapping, taken back */
    assert_true(expect_no_violations(f->vm));
}

/* The last violation is MEM-STALE-001 and says `want`. */
static bool stale_reported(struct wk_vidmm *vm, const char *want)
{
    struct wk_violation v[4];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(vm, v, 4, &total);
    if (n != 1 || total != 1 || strcmp(v[0].rule, "MEM-STALE-001") != 0 || !strstr(v[0].message, want)) {
        fprintf(stderr, "expected one MEM-STALE-001 saying \"%s\", got %" PRIu64 ": %s\n", want, total,
                n ? v[0].message : "none");
        return false;
    }
    return true;
}

/* A write through the pointer to a destroyed context's DMA buffer is
 * caught when the buffer leaves the quarantine: pushed out by DMAQ_SLOTS
 * later ones, or at the last device's destruction; the report names the
 * context and the offset from the buffer's start. */
static void test_stale_write_reported_on_leaving(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = config();
    for (int evicted = 0; evicted < 2; evicted++) {
        assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
        uint8_t *stale = dma_of(f->vm, f->context)->ptr;
        uint32_t first = f->context;
        VT_OK(f->vm, wk_vidmm_destroy_context(f->vm, first));
        stale[100] = 0x42; /* what a driver keeping the pointer does */
        uint32_t pushed = evicted ? DMAQ_SLOTS : 0;
        for (uint32_t i = 0; i < pushed; i++) {
            uint32_t c;
            VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &c));
            assert_true(expect_no_violations(f->vm)); /* the first one leaves the ring at the last destroy */
            VT_OK(f->vm, wk_vidmm_destroy_context(f->vm, c)); /* the status is the DDI's */
        }
        if (!evicted) {
            assert_true(expect_no_violations(f->vm));
            VT_OK(f->vm, wk_vidmm_destroy_device(f->vm, f->device));
        }
        char want[96];
        snprintf(want, sizeof(want), "DMA buffer (%u bytes) of context %u after DxgkDdiDestroyContext: offset +100",
                 16 * KIB, first);
        assert_true(stale_reported(f->vm, want));
        vt_close(f);
    }
}

/* A reset empties the quarantine (the pool as after start) and judges
 * nothing, as nothing a reset finds is reported. */
static void test_reset_empties_the_quarantine(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = config();
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    VT_OK(f->vm, wk_vidmm_destroy_context(f->vm, f->context));
    assert_int_equal(f->vm->dmaq.count, 1);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    assert_int_equal(f->vm->dmaq.count, 0);
    assert_true(f->vm->dmaq.bytes == 0);
    assert_true(expect_no_violations(f->vm));
}

/* One fuzz-like input: `pages` system pages taken by an allocation in the
 * aperture (its backing store) before `contexts` contexts come, the odd
 * ones destroyed at once (quarantined), then the device and a reset. */
static void steady_input(struct wk_vidmm *vm, uint32_t pages, uint32_t contexts)
{
    uint32_t device, ctx;
    VT_OK(vm, wk_vidmm_create_device(vm, 0, &device));
    if (pages) {
        WK_ALLOCATION_REQUEST r;
        vt_request_at(&r, (uint64_t)pages * WK_GPU_PAGE_SIZE, 1u << 2, 0, 0); /* segment 3, the aperture */
        uint32_t a = vt_alloc(vm, device, &r);
        VT_OK(vm, wk_vidmm_page_in(vm, a)); /* its backing store: system pages */
        assert_non_null(allocation_get(vm, a)->pfns);
    }
    for (uint32_t i = 0; i < contexts; i++) {
        VT_OK(vm, wk_vidmm_create_context(vm, device, 0, &ctx));
        if (i & 1)
            VT_OK(vm, wk_vidmm_destroy_context(vm, ctx));
    }
    VT_OK(vm, wk_vidmm_destroy_device(vm, device));
    VT_OK(vm, wk_vidmm_reset(vm));
}

/* Issue 26: once an adapter has run an input of CONTEXTS contexts, inputs
 * that differ in the system pages their allocations take and make up to
 * as many contexts get their DMA buffers at frames the kit's part of
 * system memory fixes (sysmem.c), whose host mappings exist already: no
 * new mapping. Before, an allocation's pages moved the next free run, and
 * a context then mapped its DMA buffer afresh. Counted by the model
 * (wk_gpu_sysmem_mappings), not timed. */
static void test_steady_inputs_map_nothing(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = config();
    assert_true(vt_open(f, &cfg, NULL, 0));
    steady_input(f->vm, 0, CONTEXTS);
    uint64_t before = wk_gpu_sysmem_mappings(f->vm->gpu);
    for (uint32_t round = 0; round < 3; round++)
        for (uint32_t pages = 0; pages <= 24; pages += 3)
            steady_input(f->vm, pages, 1 + (pages + round) % CONTEXTS);
    assert_int_equal(wk_gpu_sysmem_mappings(f->vm->gpu), before);
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_frames_depend_on_the_input_alone),
        VT_TEST(test_frames_held_until_the_last_device),
        VT_TEST(test_stale_write_reported_on_leaving),
        VT_TEST(test_reset_empties_the_quarantine),
        VT_TEST(test_steady_inputs_map_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
