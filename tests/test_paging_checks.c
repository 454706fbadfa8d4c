/* SPDX-License-Identifier: MIT */
/*
 * tests/test_paging_checks.c - what the FILL and transfer checks report
 * (PAGING-FILL-001, PAGING-TRANSFER-001; reference-impl/vidmm/paging_ops.c).
 *
 * The checks compare model memory in place through wk_gpu_view: memcmp
 * against the pattern or the source where memory was written, a zero check
 * where it never was. Their answer is the first wrong byte of the whole
 * range, exactly as when they copied every page out, so these tests pin the
 * byte each message names, computed here from what the driver was made to
 * leave out, in every kind of span the view hands out:
 *   - a FILL cut short over memory never written (a zero span), with a
 *     pattern whose low bytes are zero, so the first wrong byte is the first
 *     non-zero pattern byte, 3 bytes in;
 *   - a FILL cut short in the middle of a page over an older pattern (data
 *     against the pattern at an odd phase);
 *   - a TRANSFER to system memory whose last COPY is a page short (source
 *     data against system pages never written);
 *   - the same FILL and TRANSFER left alone: no violation.
 * The cut is made by a rewriter on the driver's last command, so the tests
 * depend on the reference driver ending a FILL with one FILL command and a
 * TRANSFER with the COPY of its last bytes; they check that it did.
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

#include "wddmkit/gpu.h"
#include "reference.h"

#include "vidmm_test_util.h"

#define SIZE ((uint64_t)0x10000) /* 16 pages */

struct cut {
    enum wk_gpu_opcode opcode;  /* the last command of the paging operation to shorten */
    DXGK_BUILDPAGINGBUFFER_OPERATION operation;
    uint64_t bytes;             /* taken off its length (FILL: off its end) */
    unsigned fired;
};

static uint64_t get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put_le64(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Shortens the command just before pDmaBuffer when it is the one asked for. */
static void shorten(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct cut *c = user;
    DXGKARG_BUILDPAGINGBUFFER *a = args;
    uint32_t size = wk_gpu_cmd_size(c->opcode, 0);
    (void)status;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || a->Operation != c->operation || c->fired)
        return;
    uint8_t *cmd = (uint8_t *)a->pDmaBuffer - size;
    if (cmd[0] != (uint8_t)c->opcode)
        return;
    /* FILL: dst, bytes, pattern; COPY: src, dst, bytes. */
    uint8_t *len = cmd + wk_gpu_operand_offset(c->opcode, c->opcode == WK_GPU_OP_FILL ? 1 : 2);
    if (get_le64(len) < c->bytes)
        return;
    put_le64(len, get_le64(len) - c->bytes);
    c->fired++;
}

/* A device and one 64 KiB allocation paged in to segment 1 (zero FILL over
 * memory never written: it stays unbacked). */
static uint32_t setup(struct vt_fixture *f)
{
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, SIZE, VT_SET(VT_SEG1), VT_PREF(0, VT_SEG1, 0), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    return a;
}

/* The violation of `rule` says `text`; otherwise prints what was recorded. */
static bool expect_message(const struct wk_vidmm *vm, const char *rule, const char *text)
{
    struct wk_violation v[8];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(vm, v, 8, &total);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(v[i].rule, rule) == 0 && strstr(v[i].message, text))
            return true;
    print_error("expected a %s violation saying \"%s\"; recorded:\n", rule, text);
    vt_print_violations(vm, "  ");
    return false;
}

/* Runs a FILL of `pattern` with its end cut off by `bytes` bytes (0: whole). */
static void cut_fill(struct vt_fixture *f, uint32_t a, uint32_t pattern, uint64_t bytes)
{
    struct cut c = { WK_GPU_OP_FILL, DXGK_OPERATION_FILL, bytes, 0 };
    wk_vidmm_set_rewriter(f->vm, shorten, &c);
    wk_vidmm_fill(f->vm, a, pattern);
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    assert_true(expect_u64(c.fired, 1)); /* the FILL was the last command, and cut */
}

static void expect_fill_message(struct vt_fixture *f, uint32_t pattern, uint64_t bad)
{
    char text[160];
    snprintf(text, sizeof(text), "FILL of 0x%08x over %" PRIu64 " bytes: byte +%" PRIu64
             " does not hold the pattern", pattern, SIZE, bad);
    assert_true(expect_message(f->vm, "PAGING-FILL-001", text));
}

/* Never written, so a zero span: bytes 0-2 of 0x12000000 are zero, as
 * memory never written is; byte 3 is the first that should have changed. */
static void test_fill_short_over_unwritten_memory(void **state)
{
    struct vt_fixture *f = *state;
    uint32_t a = setup(f);
    cut_fill(f, a, 0x12000000u, 0x2000);
    expect_fill_message(f, 0x12000000u, SIZE - 0x2000 + 3);
}

/* Over an older pattern that differs in every byte, cut in mid-page at an
 * odd phase: the first byte not reached is the answer. */
static void test_fill_short_over_older_pattern(void **state)
{
    struct vt_fixture *f = *state;
    uint32_t a = setup(f);
    VT_OK(f->vm, wk_vidmm_fill(f->vm, a, 0x11223344u));
    assert_true(expect_no_violations(f->vm));
    cut_fill(f, a, 0xA5B6C7D8u, 0x1801);
    expect_fill_message(f, 0xA5B6C7D8u, SIZE - 0x1801);
}

static void test_fill_whole_is_no_violation(void **state)
{
    struct vt_fixture *f = *state;
    uint32_t a = setup(f);
    cut_fill(f, a, 0x12000000u, 0);
    VT_OK(f->vm, wk_vidmm_fill(f->vm, a, 0x5A5AA5A5u));
    assert_true(expect_no_violations(f->vm));
}

/* An eviction to system pages never written whose last COPY is a page
 * short: the source's first non-zero byte in that page is the answer. */
static void test_transfer_short_to_unwritten_system_pages(void **state)
{
    struct vt_fixture *f = *state;
    uint32_t a = setup(f);
    VT_OK(f->vm, wk_vidmm_fill(f->vm, a, 0x12000000u));
    struct cut c = { WK_GPU_OP_COPY, DXGK_OPERATION_TRANSFER, 0x1000, 0 };
    wk_vidmm_set_rewriter(f->vm, shorten, &c);
    wk_vidmm_evict(f->vm, a);
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    assert_true(expect_u64(c.fired, 1));
    char text[160];
    snprintf(text, sizeof(text), "TRANSFER to system memory of %" PRIu64
             " bytes: destination differs from the source at byte +%" PRIu64, SIZE,
             SIZE - 0x1000 + 3);
    assert_true(expect_message(f->vm, "PAGING-TRANSFER-001", text));
}

static void test_transfer_whole_is_no_violation(void **state)
{
    struct vt_fixture *f = *state;
    uint32_t a = setup(f);
    VT_OK(f->vm, wk_vidmm_fill(f->vm, a, 0x12000000u));
    VT_OK(f->vm, wk_vidmm_evict(f->vm, a));
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_fill_short_over_unwritten_memory),
        VT_TEST(test_fill_short_over_older_pattern),
        VT_TEST(test_fill_whole_is_no_violation),
        VT_TEST(test_transfer_short_to_unwritten_system_pages),
        VT_TEST(test_transfer_whole_is_no_violation),
    };
    return cmocka_run_group_tests_name("vidmm.paging_checks", tests, NULL, NULL);
}
