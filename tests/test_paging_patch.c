/* SPDX-License-Identifier: MIT */
/*
 * tests/test_paging_patch.c - the Patch confinement check on paging buffers
 * (PATCH-CONFINE-001, facts §5.3 T2; reference-impl/vidmm/submit.c).
 *
 * A paging buffer is patched with an empty patch-location range, so Patch
 * may change none of its bytes. With guard pages it gets a read-only view
 * (reference-impl/vidmm/patch_view.c); without, the buffer itself, and
 * this is the check that follows. When every byte past the submission is
 * zero, the kit copies only the submission and compares the rest with
 * zeroes after the call; otherwise it copies the whole buffer. Either way a
 * Patch that writes anywhere must be caught:
 *   - in the submission, just past it, at the buffer's last byte (zero
 *     tail, the short snapshot);
 *   - over a byte the driver left past the submission in BuildPagingBuffer
 *     (non-zero tail, the whole snapshot), and that byte left alone is no
 *     violation.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "reference.h"

#include "vidmm_test_util.h"

#define KIB 1024u
#define LEFTOVER 64u /* bytes past the driver's advance where a leftover goes */

enum where { AT_START, AT_END, AT_LAST, AT_LEFTOVER, NOWHERE };

struct mischief {
    enum where patch_writes;   /* what the driver's Patch of a paging buffer writes */
    int leftover;              /* BuildPagingBuffer leaves a byte past its advance */
    int patched;               /* paging-buffer Patch calls seen */
};

static void build_leaves_a_byte(struct mischief *m, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (m->leftover && a->DmaBufferWriteOffset == 0 && a->DmaSize > 2 * LEFTOVER)
        ((volatile uint8_t *)a->pDmaBuffer)[LEFTOVER] = 0xEE;
}

static void patch_writes(struct mischief *m, DXGKARG_PATCH *a)
{
    if (!a->Flags.Paging)
        return;
    m->patched++;
    volatile uint8_t *p = a->pDmaBuffer;
    switch (m->patch_writes) {
    case AT_START: p[0] ^= 0x40; break;
    case AT_END: p[a->DmaBufferSubmissionEndOffset] = 0x01; break;
    case AT_LAST: p[a->DmaBufferSize - 1] = 0x01; break;
    case AT_LEFTOVER: p[a->DmaBufferSubmissionEndOffset + LEFTOVER] = 0x00; break;
    default: break;
    }
}

static void mischief(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    if (ddi == WK_DDI_BUILD_PAGING_BUFFER)
        build_leaves_a_byte(user, args);
    else if (ddi == WK_DDI_PATCH)
        patch_writes(user, args);
}

/* One fill of an allocation on an adapter with the reference driver's own
 * paging buffer (16 KiB, most of it past the submission). Without guard
 * pages: Patch then gets the buffer itself and the kit compares (with
 * them, a read-only view, where any write faults at the instruction:
 * test_paging_patch_view_write_faults in test_vidmm_fuzzapi.c). */
static void run(struct vt_fixture *f, struct mischief *m)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.no_guard_pages = 1;
    assert_true(vt_open(f, &cfg, NULL, VT_DEVICE));
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8 * KIB, VT_SET(VT_SEG1), VT_PREF(0, VT_SEG1, 0), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    wk_vidmm_set_rewriter(f->vm, mischief, m);
    wk_vidmm_page_in(f->vm, a);
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    assert_true(m->patched > 0);
}

static void expect_confine(void **state, enum where w, int leftover)
{
    struct vt_fixture *f = *state;
    struct mischief m = { w, leftover, 0 };
    run(f, &m);
    assert_true(expect_violation(f->vm, "PATCH-CONFINE-001"));
}

static void test_patch_writing_the_submission(void **state)
{
    expect_confine(state, AT_START, 0);
}

static void test_patch_writing_just_past_the_submission(void **state)
{
    expect_confine(state, AT_END, 0);
}

static void test_patch_writing_the_last_byte(void **state)
{
    expect_confine(state, AT_LAST, 0);
}

static void test_patch_changing_a_leftover_byte(void **state)
{
    expect_confine(state, AT_LEFTOVER, 1);
}

/* A leftover byte past the submission is no fault of Patch's. */
static void test_leftover_byte_alone_is_no_violation(void **state)
{
    struct vt_fixture *f = *state;
    struct mischief m = { NOWHERE, 1, 0 };
    run(f, &m);
    assert_true(expect_not_violated(f->vm, "PATCH-CONFINE-001"));
    struct mischief plain = { NOWHERE, 0, 0 };
    vt_close(f);
    run(f, &plain);
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_patch_writing_the_submission),
        VT_TEST(test_patch_writing_just_past_the_submission),
        VT_TEST(test_patch_writing_the_last_byte),
        VT_TEST(test_patch_changing_a_leftover_byte),
        VT_TEST(test_leftover_byte_alone_is_no_violation),
    };
    return cmocka_run_group_tests_name("vidmm.paging_patch", tests, NULL, NULL);
}
