/* SPDX-License-Identifier: MIT */
/*
 * tests/test_context_caps.c - what the memory manager does with
 * DXGK_CONTEXTINFO.Caps (reference-impl/vidmm/context_caps.c), with the
 * reference driver whose CreateContext answer a rewriter extends by the
 * caps a test asks for:
 *
 *   - NoPatchingRequired: DxgkDdiPatch is not called for that context's
 *     render submissions (counted), and still is for a context without the
 *     cap and for paging buffers; a buffer that needed patching faults with
 *     a message naming the cap; a direct Patch on such a context is refused;
 *   - the field is read only from a driver whose interface version has it
 *     (WDDM 2.0): a WDDM 1.3 table's bytes there change nothing;
 *   - DriverManagesResidency and UseIoMmu: a render is not judged (not
 *     supported, the cap named), never a violation;
 *   - DDI-TABLE-001 and a driver without Patch: not missing when its
 *     context reports NoPatchingRequired, missing when it does not, and
 *     missing from the table alone for a WDDM 1.3 table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "reference.h"

#include "vidmm_test_util.h"

#define NO_PATCHING 0x1u
#define MANAGES_RESIDENCY 0x2u
#define USE_IOMMU 0x4u

/* What the next CreateContext reports beyond the reference driver's Caps
 * (0), and the Patch calls seen, render and paging apart. */
struct knob {
    UINT caps;
    uint32_t render_patches, paging_patches;
};

static void rewrite(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct knob *k = user;
    (void)status;
    if (ddi == WK_DDI_CREATE_CONTEXT) {
        ((DXGKARG_CREATECONTEXT *)args)->ContextInfo.Caps.Value |= k->caps;
    } else if (ddi == WK_DDI_PATCH) {
        if (((const DXGKARG_PATCH *)args)->Flags.Paging)
            k->paging_patches++;
        else
            k->render_patches++;
    }
}

/* The reference driver's table as `version` of the interface, with or
 * without its Patch (a DriverEntry takes no user pointer: test-only state,
 * set before each attach). */
static struct {
    ULONG version;
    int no_patch;
} table;
static DRIVER_INITIALIZATION_DATA captured;

static NTSTATUS capture(PDRIVER_OBJECT o, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init, ULONG abi)
{
    (void)o, (void)path, (void)abi;
    captured = *init;
    return STATUS_SUCCESS;
}

static NTSTATUS entry(PDRIVER_OBJECT o, PUNICODE_STRING path)
{
    static DRIVER_INITIALIZATION_DATA init;
    DRIVER_OBJECT stand_in;
    memset(&stand_in, 0, sizeof(stand_in));
    stand_in.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    stand_in.wk_initialize = capture;
    NTSTATUS st = wk_refdriver_DriverEntry(&stand_in, path);
    if (!NT_SUCCESS(st))
        return st;
    init = captured;
    init.Version = table.version;
    if (table.no_patch)
        init.DxgkDdiPatch = NULL;
    return o->wk_initialize(o, path, &init, WK_DRIVER_ABI_VERSION);
}

/* A started adapter of `entry` with the knob in place before the start
 * (the DDI table check asks a context during it) and a device. */
static void open_with(struct vt_fixture *f, struct knob *k, ULONG version, int no_patch, int check_table)
{
    table.version = version;
    table.no_patch = no_patch;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.check_ddi_table = check_table;
    memset(f, 0, sizeof(*f));
    VT_OK(NULL, wk_vidmm_create(&cfg, &f->vm));
    wk_vidmm_set_rewriter(f->vm, rewrite, k);
    VT_OK(f->vm, wk_vidmm_attach(f->vm, entry));
    VT_OK(f->vm, wk_vidmm_start(f->vm));
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
}

static uint32_t context_with(struct vt_fixture *f, struct knob *k, UINT caps)
{
    uint32_t context = 0;
    k->caps = caps;
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &context));
    k->caps = 0;
    return context;
}

/* A 4 KiB allocation in segment 1, resident. */
static uint32_t resident(struct vt_fixture *f)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 4096, 0, VT_PREF(0, VT_SEG1, 1), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    return a;
}

/* WRITE32 of `value` at +8 of allocation a, on `context`. */
static wk_status write32(struct vt_fixture *f, uint32_t context, uint32_t a, uint32_t value, int no_prepatch_info)
{
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_write32(&cmd, 0, 8, value);
    struct wk_vidmm_list_entry list[1] = { { a, 1 } };
    struct wk_vidmm_render_result res;
    return vt_render(f->vm, context, &cmd, list, 1, no_prepatch_info, &res);
}

static bool has_violation_saying(const struct wk_vidmm *vm, const char *rule, const char *text)
{
    struct wk_violation v[16];
    uint32_t n = wk_vidmm_violations(vm, v, 16, NULL);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(v[i].rule, rule) == 0 && strstr(v[i].message, text))
            return true;
    fprintf(stderr, "no %s violation saying '%s'; recorded:\n", rule, text);
    vt_print_violations(vm, "  ");
    return false;
}

static bool last_error_says(struct wk_vidmm *vm, const char *text)
{
    if (strstr(wk_vidmm_last_error(vm), text))
        return true;
    fprintf(stderr, "last error does not say '%s': %s\n", text, wk_vidmm_last_error(vm));
    return false;
}

/* Patch is not called for the render of a context that reported
 * NoPatchingRequired, and is for another context's; the data is right for
 * both, Render having pre-patched the resident allocation. */
static void test_no_patch_for_a_no_patching_context(void **state)
{
    struct vt_fixture *f = *state;
    struct knob k = { 0 };
    open_with(f, &k, DXGKDDI_INTERFACE_VERSION, 0, 0);
    uint32_t capped = context_with(f, &k, NO_PATCHING), plain = context_with(f, &k, 0);
    uint32_t a = resident(f);
    k.render_patches = k.paging_patches = 0;

    VT_OK(f->vm, write32(f, capped, a, 0x11111111u, 0));
    assert_true(expect_u64(k.render_patches, 0));
    assert_true(expect_bytes(f->vm, a, 8, "\x11\x11\x11\x11", 4));
    uint32_t context = 0;
    assert_true(expect_u64(wk_vidmm_unpatched(f->vm, &context), 1));
    assert_true(expect_u64(context, capped));

    VT_OK(f->vm, write32(f, plain, a, 0x22222222u, 0));
    assert_true(expect_u64(k.render_patches, 1));
    assert_true(expect_bytes(f->vm, a, 8, "\x22\x22\x22\x22", 4));
    assert_true(expect_u64(wk_vidmm_unpatched(f->vm, NULL), 1));

    /* Paging buffers are still patched: a page-in after an eviction. */
    VT_OK(f->vm, wk_vidmm_evict(f->vm, a));
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    assert_true(k.paging_patches > 0);
    assert_true(expect_no_violations(f->vm));
}

/* A buffer that needed Patch (no pre-patch information: the reference
 * driver writes placeholder 0) runs unpatched and faults; the report says
 * the context reported the cap. */
static void test_unpatched_buffer_fault_names_the_cap(void **state)
{
    struct vt_fixture *f = *state;
    struct knob k = { 0 };
    open_with(f, &k, DXGKDDI_INTERFACE_VERSION, 0, 0);
    uint32_t capped = context_with(f, &k, NO_PATCHING);
    uint32_t a = resident(f);
    k.render_patches = 0;
    (void)write32(f, capped, a, 0x11111111u, 1);
    assert_true(expect_u64(k.render_patches, 0));
    char says[64];
    snprintf(says, sizeof(says), "not patched: context %u reported Caps.NoPatchingRequired", capped);
    assert_true(has_violation_saying(f->vm, "SUBMIT-GPU-001", says));
}

/* The kernel never patches such a context's buffers, so a direct Patch on
 * it is not supported (the case is a skip), and nothing is called. */
static void test_direct_patch_refused_for_a_no_patching_context(void **state)
{
    struct vt_fixture *f = *state;
    struct knob k = { 0 };
    open_with(f, &k, DXGKDDI_INTERFACE_VERSION, 0, 0);
    uint32_t capped = context_with(f, &k, NO_PATCHING);
    k.render_patches = 0;
    uint8_t dma[16] = { 0 };
    struct wk_vidmm_patch p;
    memset(&p, 0, sizeof(p));
    p.context = capped;
    p.dma = dma;
    p.dma_length = sizeof(dma);
    p.end = sizeof(dma);
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &p), WK_E_NOT_SUPPORTED));
    assert_true(last_error_says(f->vm, "reports DXGK_CONTEXTINFO.Caps.NoPatchingRequired"));
    assert_true(expect_u64(k.render_patches, 0));
    assert_true(expect_no_violations(f->vm));
}

/* Caps is a WDDM 2.0 field: a WDDM 1.3 driver's bytes there are not read,
 * neither as NoPatchingRequired nor as reserved bits (CTX-CAPS-001). */
static void test_caps_not_read_below_wddm2(void **state)
{
    struct vt_fixture *f = *state;
    struct knob k = { 0 };
    open_with(f, &k, DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0, 0);
    uint32_t context = context_with(f, &k, NO_PATCHING | 0x80u);
    uint32_t a = resident(f);
    k.render_patches = 0;
    VT_OK(f->vm, write32(f, context, a, 0x33333333u, 1));
    assert_true(expect_u64(k.render_patches, 1));
    assert_true(expect_bytes(f->vm, a, 8, "\x33\x33\x33\x33", 4));
    assert_true(expect_u64(wk_vidmm_unpatched(f->vm, NULL), 0));
    assert_true(expect_no_violations(f->vm));
}

/* DriverManagesResidency and UseIoMmu: the kit models neither, so a render
 * on such a context is not supported (a skip naming the cap); Render is
 * not called and nothing is held against the driver. */
static void test_unmodelled_caps_are_not_judged(void **state)
{
    struct vt_fixture *f = *state;
    static const struct {
        UINT caps;
        const char *says;
    } rows[] = { { MANAGES_RESIDENCY, "Caps.DriverManagesResidency, which the kit does not model" },
                 { USE_IOMMU, "Caps.UseIoMmu, which the kit does not model" },
                 { NO_PATCHING | USE_IOMMU, "Caps.UseIoMmu, which the kit does not model" } };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct knob k = { 0 };
        open_with(f, &k, DXGKDDI_INTERFACE_VERSION, 0, 0);
        uint32_t context = context_with(f, &k, rows[i].caps);
        uint32_t a = resident(f);
        struct wk_vidmm_stats before, after;
        wk_vidmm_get_stats(f->vm, &before);
        assert_true(expect_status(f->vm, write32(f, context, a, 1, 0), WK_E_NOT_SUPPORTED));
        assert_true(last_error_says(f->vm, rows[i].says));
        wk_vidmm_get_stats(f->vm, &after);
        assert_true(expect_u64(after.ddi_calls[WK_DDI_RENDER], before.ddi_calls[WK_DDI_RENDER]));
        assert_true(expect_no_violations(f->vm));
        vt_close(f);
    }
}

/* A driver without Patch whose context reports NoPatchingRequired is not
 * told Patch is missing (the table check asks a context), and renders. */
static void test_no_patch_needed_when_the_context_says_so(void **state)
{
    struct vt_fixture *f = *state;
    struct knob k = { NO_PATCHING, 0, 0 };
    open_with(f, &k, DXGKDDI_INTERFACE_VERSION, 1, 1);
    assert_true(expect_not_violated(f->vm, "DDI-TABLE-001"));
    uint32_t context = context_with(f, &k, NO_PATCHING);
    uint32_t a = resident(f);
    VT_OK(f->vm, write32(f, context, a, 0x44444444u, 0));
    assert_true(expect_bytes(f->vm, a, 8, "\x44\x44\x44\x44", 4));
    assert_true(expect_no_violations(f->vm));
}

/* Without the cap, the same driver lacks a DDI the kernel calls:
 * DDI-TABLE-001 names Patch, and a render is not supported. */
static void test_patch_missing_when_the_context_needs_it(void **state)
{
    struct vt_fixture *f = *state;
    struct knob k = { 0 };
    open_with(f, &k, DXGKDDI_INTERFACE_VERSION, 1, 1);
    assert_true(has_violation_saying(f->vm, "DDI-TABLE-001", "leaves NULL DxgkDdiPatch"));
    uint32_t context = context_with(f, &k, 0);
    uint32_t a = resident(f);
    assert_true(expect_status(f->vm, write32(f, context, a, 1, 0), WK_E_NOT_SUPPORTED));
    assert_true(last_error_says(f->vm, "the driver has no DxgkDdiPatch"));
}

/* A table with no Caps (WDDM 1.3) lacks Patch by the table alone; from
 * 2.0 the table leaves it to the contexts. */
static void test_patch_missing_by_table_below_wddm2(void **state)
{
    (void)state;
    DRIVER_INITIALIZATION_DATA t;
    memset(&t, 0, sizeof(t));
    const char *names[64];
    t.Version = DXGKDDI_INTERFACE_VERSION_WDDM1_3;
    uint32_t n = wk_dxgk_missing_required(&t, names, 64);
    bool listed = false;
    for (uint32_t i = 0; i < n && i < 64; i++)
        listed |= strcmp(names[i], "DxgkDdiPatch") == 0;
    assert_true(listed);
    assert_false(wk_dxgk_patch_left_to_contexts(&t));
    t.Version = DXGKDDI_INTERFACE_VERSION_WDDM2_0;
    n = wk_dxgk_missing_required(&t, names, 64);
    for (uint32_t i = 0; i < n && i < 64; i++)
        assert_string_not_equal(names[i], "DxgkDdiPatch");
    assert_true(wk_dxgk_patch_left_to_contexts(&t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_no_patch_for_a_no_patching_context),
        VT_TEST(test_unpatched_buffer_fault_names_the_cap),
        VT_TEST(test_direct_patch_refused_for_a_no_patching_context),
        VT_TEST(test_caps_not_read_below_wddm2),
        VT_TEST(test_unmodelled_caps_are_not_judged),
        VT_TEST(test_no_patch_needed_when_the_context_says_so),
        VT_TEST(test_patch_missing_when_the_context_needs_it),
        cmocka_unit_test(test_patch_missing_by_table_below_wddm2),
    };
    return cmocka_run_group_tests_name("vidmm.context_caps", tests, NULL, NULL);
}
