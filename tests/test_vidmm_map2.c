/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_map2.c - what the kit hands a driver that opted into
 * DXGK_OPERATION_MAP_APERTURE_SEGMENT2 (reference-impl/vidmm/map_aperture2.c),
 * read from inside the driver's BuildPagingBuffer:
 *
 *   - operation 17 only for a WDDM 3.0 driver with MapAperture2Supported;
 *     a 2.3 driver with the bit set gets operation 5 (the bit was reserved);
 *   - a scattered allocation as a page array holding its frames, read-only;
 *     a one-page allocation as a contiguous ADL (BasePageNumber);
 *   - AdlOffset the chunk's first page when the kit maps in chunks;
 *   - CpuVisibleAddress NULL unless the allocation has MapApertureCpuVisible,
 *     and then a mapping of the allocation's own pages.
 *
 * The driver is the reference driver (which handles operation 17 in every
 * build) behind a wrapper that sets the version and the cap and records
 * each operation.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "wddmkit/gpu.h"
#include "reference.h"

#include "vidmm_test_util.h"

#define MAX_SEEN 64u
#define MAX_PAGES 16u

struct seen_map {
    int op;
    uint64_t first, count;
    int contiguous;
    uint32_t page_count;
    uint64_t base;
    uint64_t pages[MAX_PAGES];
    uint32_t adl_offset;
    void *cpu_visible;
};

static struct {
    DRIVER_INITIALIZATION_DATA ref;
    ULONG version;     /* what the wrapper says in DRIVER_INITIALIZATION_DATA */
    int cap;           /* MapAperture2Supported in DRIVERCAPS */
    struct seen_map seen[MAX_SEEN];
    uint32_t nseen;
    volatile uint8_t *stale;   /* written through at the next BuildPagingBuffer, then cleared */
    int stale_read;            /* read it instead */
    volatile uint8_t *stale_isr; /* written through at the next interrupt, then cleared */
} W;

static NTSTATUS w_capture(DRIVER_OBJECT *self, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init,
                          ULONG driver_abi)
{
    (void)driver_abi, (void)self, (void)path;
    W.ref = *init;
    return STATUS_SUCCESS;
}

static NTSTATUS w_query_adapter_info(const HANDLE h, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = W.ref.DxgkDdiQueryAdapterInfo(h, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_DRIVERCAPS && W.cap)
        ((DXGK_DRIVERCAPS *)q->pOutputData)->MemoryManagementCaps.MapAperture2Supported = 1;
    return st;
}

static void record(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (W.nseen >= MAX_SEEN || a->MultipassOffset != 0)
        return;
    struct seen_map *s = &W.seen[W.nseen++];
    memset(s, 0, sizeof(*s));
    s->op = (int)a->Operation;
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT) {
        s->first = a->MapApertureSegment.OffsetInPages;
        s->count = a->MapApertureSegment.NumberOfPages;
        return;
    }
    const DXGK_ADL *adl = &a->MapApertureSegment2.Adl;
    s->first = a->MapApertureSegment2.OffsetInPages;
    s->count = a->MapApertureSegment2.NumberOfPages;
    s->contiguous = adl->Flags.Contiguous;
    s->page_count = adl->PageCount;
    s->adl_offset = a->MapApertureSegment2.AdlOffset;
    s->cpu_visible = a->MapApertureSegment2.CpuVisibleAddress;
    if (adl->Flags.Contiguous)
        s->base = adl->BasePageNumber;
    else
        for (uint32_t i = 0; i < adl->PageCount && i < MAX_PAGES; i++)
            s->pages[i] = adl->Pages[i];
}

static NTSTATUS w_build_paging_buffer(const HANDLE h, DXGKARG_BUILDPAGINGBUFFER *a)
{
    volatile uint8_t *kept = W.stale;
    if (kept) { /* a driver that kept CpuVisibleAddress past the unmap */
        W.stale = NULL;
        if (W.stale_read)
            W.stale_read = kept[0];
        else
            kept[0] = 0x77;
    }
    if (a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT || a->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT2)
        record(a);
    return W.ref.DxgkDdiBuildPagingBuffer(h, a);
}

static BOOLEAN w_interrupt(const PVOID ctx, ULONG message)
{
    volatile uint8_t *kept = W.stale_isr;
    if (kept) {
        W.stale_isr = NULL;
        kept[0] = 0x66;
    }
    return W.ref.DxgkDdiInterruptRoutine(ctx, message);
}

static NTSTATUS w_DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_OBJECT fake;
    memset(&fake, 0, sizeof(fake));
    fake.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    fake.wk_initialize = w_capture;
    NTSTATUS st = wk_refdriver_DriverEntry(&fake, NULL);
    if (!NT_SUCCESS(st))
        return st;
    DRIVER_INITIALIZATION_DATA t = W.ref;
    t.Version = W.version;
    t.DxgkDdiQueryAdapterInfo = w_query_adapter_info;
    t.DxgkDdiBuildPagingBuffer = w_build_paging_buffer;
    t.DxgkDdiInterruptRoutine = w_interrupt;
    vt_track(&t); /* a stale access kills the adapter: vt_release_dead then */
    return DxgkInitialize(DriverObject, RegistryPath, &t);
}

static bool open_as(struct vt_fixture *f, ULONG version, int cap, uint64_t map_chunk)
{
    memset(&W, 0, sizeof(W));
    W.version = version;
    W.cap = cap;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.map_chunk = map_chunk;
    return vt_open(f, &cfg, w_DriverEntry, VT_DEVICE);
}

/* An aperture-only allocation of `pages` pages, paged in; `flags` its
 * DXGK_ALLOCATIONINFOFLAGS. Forgets what the adapter's start mapped. */
static uint32_t paged_in(struct vt_fixture *f, uint64_t pages, UINT flags)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, pages * VT_PAGE, VT_SET(VT_APER), 0, 0);
    req.Flags.Value = flags;
    uint32_t h = vt_alloc(f->vm, f->device, &req);
    W.nseen = 0;
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, h));
    assert_true(expect_no_violations(f->vm));
    return h;
}

/* The frame the GART maps aperture page `page` to. */
static uint64_t gart_pfn(struct vt_fixture *f, uint64_t page)
{
    int valid = 0, stale = 0;
    uint64_t pfn = 0;
    VT_OK(f->vm, wk_gpu_gart_get(wk_vidmm_gpu(f->vm), VT_APER, page, &valid, &pfn, &stale));
    assert_true(valid && !stale);
    return pfn;
}

/* A WDDM 3.0 driver that opted in gets operation 17 with the allocation's
 * scattered pages as a page array, its frames, from AdlOffset 0. */
static void test_scattered_pages_as_an_array(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_as(f, DXGKDDI_INTERFACE_VERSION_WDDM3_0, 1, 0));
    uint32_t h = paged_in(f, 8, 0);
    struct wk_vidmm_allocation_state st;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, h, &st));
    assert_true(expect_u64(W.nseen, 1));
    const struct seen_map *s = &W.seen[0];
    assert_int_equal(s->op, DXGK_OPERATION_MAP_APERTURE_SEGMENT2);
    assert_true(expect_u64(s->first, st.segment_offset / VT_PAGE));
    assert_true(expect_u64(s->count, 8));
    assert_true(expect_u64(s->page_count, 8));
    assert_true(expect_u64(s->adl_offset, 0));
    assert_false(s->contiguous); /* the kit scatters an allocation's system pages */
    assert_null(s->cpu_visible);
    for (uint64_t p = 0; p < 8; p++)
        assert_true(expect_u64(s->pages[p], gart_pfn(f, s->first + p)));
}

/* One page is one run: the contiguous form, BasePageNumber its frame. */
static void test_one_page_contiguous(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_as(f, DXGKDDI_INTERFACE_VERSION_WDDM3_0, 1, 0));
    paged_in(f, 1, 0);
    assert_true(expect_u64(W.nseen, 1));
    const struct seen_map *s = &W.seen[0];
    assert_int_equal(s->op, DXGK_OPERATION_MAP_APERTURE_SEGMENT2);
    assert_true(s->contiguous);
    assert_true(expect_u64(s->page_count, 1));
    assert_true(expect_u64(s->base, gart_pfn(f, s->first)));
}

/* Mapped in chunks of 3: each operation names its first page in AdlOffset
 * and hands the whole ADL. */
static void test_chunks_name_their_offset(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_as(f, DXGKDDI_INTERFACE_VERSION_WDDM3_0, 1, 3));
    paged_in(f, 8, 0);
    assert_true(expect_u64(W.nseen, 3));
    for (uint32_t k = 0; k < 3; k++) {
        assert_int_equal(W.seen[k].op, DXGK_OPERATION_MAP_APERTURE_SEGMENT2);
        assert_true(expect_u64(W.seen[k].adl_offset, 3 * k));
        assert_true(expect_u64(W.seen[k].count, k < 2 ? 3 : 2));
        assert_true(expect_u64(W.seen[k].page_count, 8));
        assert_true(expect_u64(W.seen[k].first, W.seen[0].first + 3 * k));
    }
}

/* MapApertureCpuVisible (bit 13 of the WDDM 2.0 allocation flags): a
 * kernel mapping of the allocation's own pages, from its first byte. */
static void test_cpu_visible_address(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_as(f, DXGKDDI_INTERFACE_VERSION_WDDM3_0, 1, 0));
    DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 flags = { .Value = 0 };
    flags.MapApertureCpuVisible = 1;
    paged_in(f, 2, flags.Value);
    assert_true(expect_u64(W.nseen, 1));
    uint8_t *cpu = W.seen[0].cpu_visible;
    assert_non_null(cpu);
    memset(cpu + VT_PAGE, 0x5C, 16); /* the second page */
    uint8_t back[16];
    VT_OK(f->vm, wk_gpu_read(wk_vidmm_gpu(f->vm), gart_pfn(f, W.seen[0].first + 1) << 12, back, sizeof(back)));
    for (size_t i = 0; i < sizeof(back); i++)
        assert_int_equal(back[i], 0x5C);
}

/* A WDDM 3.0 driver that opted in, and a 2-page aperture allocation with
 * MapApertureCpuVisible paged in: its handle, its CpuVisibleAddress. */
static uint32_t cpu_visible_paged_in(struct vt_fixture *f, uint8_t **cpu)
{
    assert_true(open_as(f, DXGKDDI_INTERFACE_VERSION_WDDM3_0, 1, 0));
    DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 flags = { .Value = 0 };
    flags.MapApertureCpuVisible = 1;
    uint32_t h = paged_in(f, 2, flags.Value);
    *cpu = W.seen[0].cpu_visible;
    assert_non_null(*cpu);
    return h;
}

/* The last violation's message holds `want`. */
static void last_violation_says(struct vt_fixture *f, const char *want)
{
    struct wk_violation v[4];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(f->vm, v, 4, &total);
    assert_true(n >= 1);
    if (!strstr(v[n - 1].message, want))
        fail_msg("no '%s' in: %s", want, v[n - 1].message);
}

/* "will be freed immediately after the corresponding
 * DXGK_OPERATION_UNMAP_APERTURE_SEGMENT call": a driver that writes, or
 * reads, through the address it kept after the allocation's eviction
 * faults at the instruction, and the kit names the rule, the allocation and
 * the offset (MEM-STALE-002, reference-impl/vidmm/aperture_view.c). */
static void stale_access_after_unmap(struct vt_fixture *f, int read)
{
    uint8_t *cpu;
    uint32_t h = cpu_visible_paged_in(f, &cpu);
    cpu[5] = 1; /* while mapped: fine */
    VT_OK(f->vm, wk_vidmm_evict(f->vm, h));
    assert_true(expect_no_violations(f->vm));
    W.stale = cpu + VT_PAGE + 8;
    W.stale_read = read;
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, VT_PAGE, VT_SET(VT_APER), 0, 0);
    uint32_t other = vt_alloc(f->vm, f->device, &req);
    assert_int_not_equal(wk_vidmm_page_in(f->vm, other), WK_OK);
    assert_true(expect_violation(f->vm, "MEM-STALE-002"));
    last_violation_says(f, read ? "read through MapApertureSegment2.CpuVisibleAddress of allocation"
                                : "wrote through MapApertureSegment2.CpuVisibleAddress of allocation");
    last_violation_says(f, "at offset +4104 after its UNMAP_APERTURE_SEGMENT");
    vt_release_dead();
}

static void test_cpu_visible_write_after_unmap(void **state)
{
    stale_access_after_unmap(*state, 0);
}

static void test_cpu_visible_read_after_unmap(void **state)
{
    stale_access_after_unmap(*state, 1);
}

/* The address is freed right after the UNMAP's DxgkDdiBuildPagingBuffer
 * call, not after its buffer ran: a write from the interrupt routine that
 * reports the unmap's fence is MEM-STALE-002 too (outsider 26's went
 * unseen). */
static void test_cpu_visible_write_in_the_unmaps_interrupt(void **state)
{
    struct vt_fixture *f = *state;
    uint8_t *cpu;
    uint32_t h = cpu_visible_paged_in(f, &cpu);
    W.stale_isr = cpu + 16;
    assert_int_not_equal(wk_vidmm_evict(f->vm, h), WK_OK);
    assert_true(expect_violation(f->vm, "MEM-STALE-002"));
    last_violation_says(f, "DxgkDdiInterruptRoutine: wrote through MapApertureSegment2.CpuVisibleAddress");
    vt_release_dead();
}

/* Mapped again after an eviction: a mapping again, the pages' bytes
 * through it (the range may be the same one: the model hands an ended
 * mapping of the same pages back). */
static void test_cpu_visible_again_after_remap(void **state)
{
    struct vt_fixture *f = *state;
    uint8_t *first;
    uint32_t h = cpu_visible_paged_in(f, &first);
    VT_OK(f->vm, wk_vidmm_evict(f->vm, h));
    W.nseen = 0;
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, h));
    assert_true(expect_u64(W.nseen, 1));
    uint8_t *cpu = W.seen[0].cpu_visible;
    assert_non_null(cpu);
    memset(cpu, 0x3C, 8);
    uint8_t back[8];
    VT_OK(f->vm, wk_gpu_read(wk_vidmm_gpu(f->vm), gart_pfn(f, W.seen[0].first) << 12, back, sizeof(back)));
    for (size_t i = 0; i < sizeof(back); i++)
        assert_int_equal(back[i], 0x3C);
    assert_true(expect_no_violations(f->vm));
}

/* The cap without WDDM 3.0 (the bit was reserved before), or WDDM 3.0
 * without the cap: operation 5, as before. */
static void test_operation_5_otherwise(void **state)
{
    struct vt_fixture *f = *state;
    const ULONG versions[2] = { DXGKDDI_INTERFACE_VERSION_WDDM2_3, DXGKDDI_INTERFACE_VERSION_WDDM3_0 };
    const int caps[2] = { 1, 0 };
    for (int k = 0; k < 2; k++) {
        assert_true(open_as(f, versions[k], caps[k], 0));
        paged_in(f, 4, 0);
        assert_true(expect_u64(W.nseen, 1));
        assert_int_equal(W.seen[0].op, DXGK_OPERATION_MAP_APERTURE_SEGMENT);
        vt_close(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_scattered_pages_as_an_array),
        VT_TEST(test_one_page_contiguous),
        VT_TEST(test_chunks_name_their_offset),
        VT_TEST(test_cpu_visible_address),
        VT_TEST(test_cpu_visible_write_after_unmap),
        VT_TEST(test_cpu_visible_read_after_unmap),
        VT_TEST(test_cpu_visible_write_in_the_unmaps_interrupt),
        VT_TEST(test_cpu_visible_again_after_remap),
        VT_TEST(test_operation_5_otherwise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
