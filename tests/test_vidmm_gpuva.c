/* SPDX-License-Identifier: MIT */
/*
 * test_vidmm_gpuva.c - GPU virtual address spaces of a GpuMmu driver
 * (reference-impl/vidmm/gpuva.c), on the GpuMmu build of the reference
 * driver (wk_refdriver_gpummu), loaded as a module.
 *
 * The kit places the page tables, the driver writes them, and the GPU
 * reads through them: a mapping is proved by what the GPU reads at a
 * virtual address, an unmapping by the fault the next read takes (which a
 * missing FLUSH_TLB would leave to a stale TLB line). The planted bugs are
 * rewrites of the driver's paging buffer (the last WRITE64 it wrote, i.e.
 * the last entry) and are each caught by PAGING-UPDATEPT-001.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vidmm_test_util.h"

#define GIB 0x40000000ull
#define LEAF_SPAN 0x200000ull /* 512 entries of 4 KiB: one leaf table's reach */

struct va_fixture {
    struct vt_fixture f;
    uint32_t space;
};

static void open_gpummu(struct vt_fixture *f, const struct wk_vidmm_config *cfg)
{
    VT_OK(NULL, wk_vidmm_create(cfg, &f->vm));
    VT_OK(f->vm, wk_vidmm_load(f->vm, WK_TEST_GPUMMU_DRIVER));
    VT_OK(f->vm, wk_vidmm_start(f->vm));
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
}

/* A `size`-byte allocation in segment 1, paged in and filled with `pattern`. */
static uint32_t filled(struct vt_fixture *f, uint64_t size, uint32_t pattern)
{
    WK_ALLOCATION_REQUEST r;
    vt_request_at(&r, size, VT_SET(VT_SEG1), 0, 0);
    uint32_t a = vt_alloc(f->vm, f->device, &r);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    VT_OK(f->vm, wk_vidmm_fill(f->vm, a, pattern));
    return a;
}

static uint32_t read32(struct vt_fixture *f, uint32_t space, uint64_t va)
{
    uint32_t v = 0;
    VT_OK(f->vm, wk_vidmm_va_read(f->vm, space, va, &v, sizeof(v), NULL));
    return v;
}

static uint32_t read_fault(struct vt_fixture *f, uint32_t space, uint64_t va)
{
    uint32_t v;
    struct wk_mem_fault fault;
    memset(&fault, 0, sizeof(fault));
    assert_int_equal(wk_vidmm_va_read(f->vm, space, va, &v, sizeof(v), &fault), WK_E_GPU_FAULT);
    assert_int_equal(fault.addr, va);
    return fault.reason;
}

/* An adapter whose memory lies past what the kit's GPU's entries hold
 * (a segment at 2^56: a fuzzed description did this) has no tree the
 * kit can model, a limit of the adapter that says so; nothing is blamed
 * on the driver, and a space cannot be made. */
static void test_memory_past_the_entries_reach(void **state)
{
    struct vt_fixture *f = *state;
    const struct wk_gpu_desc *ref = wk_gpu_reference_desc();
    struct wk_gpu_segment_desc seg[8];
    memcpy(seg, ref->segments, ref->segment_count * sizeof(seg[0]));
    seg[0].base += 1ull << 56;
    struct wk_gpu_desc d = *ref;
    d.segments = seg;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.gpu = &d;
    open_gpummu(f, &cfg);
    struct wk_vidmm_gpummu_info info;
    wk_vidmm_gpummu(f->vm, &info);
    assert_true(info.asked && info.answered);
    assert_false(info.modelled);
    assert_non_null(strstr(info.why, "past the 52 bits"));
    uint32_t space;
    assert_int_equal(wk_vidmm_va_create_space(f->vm, &space), WK_E_NOT_SUPPORTED);
    assert_true(expect_no_violations(f->vm));
}

/* The driver's caps are the kit's GPU's tree, asked and modelled. */
static void test_gpummu_driver_is_modelled(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    struct wk_vidmm_gpummu_info info;
    wk_vidmm_gpummu(f->vm, &info);
    assert_true(info.asked && info.answered && info.modelled);
    assert_memory_equal(&info.geometry, wk_gpu_mmu_geometry(), sizeof(info.geometry));
    assert_true(expect_no_violations(f->vm));
}

/* Two allocations side by side in the address space, across a leaf
 * table's end: every page reads its own allocation's bytes; the pages
 * around them fault as unmapped. */
static void test_map_reads_each_allocation(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x3000, 0xAAAA0001u), b = filled(f, 0x2000, 0xBBBB0002u);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    uint64_t va = GIB + LEAF_SPAN - 0x2000; /* a's third page is in the next leaf table */
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, va, a, 0, 0x3000, 0));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, va + 0x3000, b, 0, 0x2000, 0));
    for (uint64_t off = 0; off < 0x5000; off += 0x800)
        assert_int_equal(read32(f, s, va + off), off < 0x3000 ? 0xAAAA0001u : 0xBBBB0002u);
    assert_int_equal(read_fault(f, s, va - 4), WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(read_fault(f, s, va + 0x5000), WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(read_fault(f, s, 3 * GIB), WK_GPU_FAULT_VA_UNMAPPED); /* no tables there */
    assert_true(expect_no_violations(f->vm));
}

/* An unmapped range faults at once: the driver's FLUSH_TLB dropped the
 * GPU's cached translation (without it the read would hit the stale line). */
static void test_unmap_faults_after_the_flush(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x2000, 0x12345678u);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x2000, 0));
    assert_int_equal(read32(f, s, GIB + 0x1000), 0x12345678u); /* the TLB holds the page now */
    struct wk_va_counters before, after;
    VT_OK(f->vm, wk_vidmm_va_counters(f->vm, s, &before));
    VT_OK(f->vm, wk_vidmm_va_unmap(f->vm, s, GIB, 0x2000));
    assert_int_equal(read_fault(f, s, GIB + 0x1000), WK_GPU_FAULT_VA_UNMAPPED);
    VT_OK(f->vm, wk_vidmm_va_counters(f->vm, s, &after));
    assert_true(after.flushes > before.flushes);
    assert_int_equal(after.stale_accesses, 0);
    assert_true(expect_no_violations(f->vm));
}

/* An evicted allocation's system pages are mapped too (DXGK_PTE.Segment 0,
 * the page's frame), and a part of an allocation at an offset. */
static void test_system_pages_and_offsets(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x4000, 0xC0DEC0DEu);
    VT_OK(f->vm, wk_vidmm_evict(f->vm, a));
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, 2 * GIB, a, 0x1000, 0x2000, 1));
    assert_int_equal(read32(f, s, 2 * GIB), 0xC0DEC0DEu);
    assert_int_equal(read32(f, s, 2 * GIB + 0x1ffc), 0xC0DEC0DEu);
    assert_int_equal(read_fault(f, s, 2 * GIB + 0x2000), WK_GPU_FAULT_VA_UNMAPPED);
    assert_true(expect_no_violations(f->vm));
}

/* Bad requests are refused with a reason, and no driver call is blamed. */
static void test_bad_requests_refused(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x2000, 1);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    assert_int_equal(wk_vidmm_va_map(f->vm, s, GIB + 0x10, a, 0, 0x1000, 0), WK_E_INVALID_ARGUMENT);
    assert_int_equal(wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x3000, 0), WK_E_INVALID_ARGUMENT);
    assert_int_equal(wk_vidmm_va_map(f->vm, s, 1ull << 39, a, 0, 0x1000, 0), WK_E_INVALID_ARGUMENT);
    assert_int_equal(wk_vidmm_va_map(f->vm, s + 1, GIB, a, 0, 0x1000, 0), WK_E_NOT_FOUND);
    assert_int_equal(wk_vidmm_va_map(f->vm, s, GIB, 999, 0, 0x1000, 0), WK_E_NOT_FOUND);
    assert_true(expect_no_violations(f->vm));
}

/* The physical reference driver is no GpuMmu driver: no space, and why. */
static void test_not_a_gpummu_driver(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
    uint32_t s = 7;
    assert_int_equal(wk_vidmm_va_create_space(f->vm, &s), WK_E_NOT_SUPPORTED);
    assert_int_equal(s, 0);
    assert_non_null(strstr(wk_vidmm_last_error(f->vm), "not a GpuMmu driver"));
}

/* A reset ends every space through DxgkDdiDestroyProcess, and the next
 * run makes them again as on a fresh adapter. */
static void test_reset_destroys_spaces(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(f->vm, &st);
    assert_int_equal(st.ddi_calls[WK_DDI_CREATE_PROCESS], 2);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    assert_int_equal(wk_vidmm_va_unmap(f->vm, s, GIB, 0x1000), WK_E_NOT_FOUND);
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    uint32_t a = filled(f, 0x1000, 0x600D600Du);
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    assert_int_equal(s, 1);
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x1000, 0));
    assert_int_equal(read32(f, s, GIB), 0x600D600Du);
    assert_true(expect_no_violations(f->vm));
}

/* A mapping follows its allocation: evicted (its system pages, while the
 * segment place it left holds another allocation's bytes), paged in again,
 * relocated; each move flushed, so the GPU never reads the old place. */
static void test_mapping_follows_its_allocation(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x2000, 0xAAAAAAAAu);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x2000, 0));
    assert_int_equal(read32(f, s, GIB + 0x1000), 0xAAAAAAAAu);
    VT_OK(f->vm, wk_vidmm_evict(f->vm, a));
    uint32_t b = filled(f, 0x2000, 0xBBBBBBBBu); /* where a was, most likely */
    assert_int_equal(read32(f, s, GIB + 0x1000), 0xAAAAAAAAu);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    assert_int_equal(read32(f, s, GIB + 0x1000), 0xAAAAAAAAu);
    VT_OK(f->vm, wk_vidmm_relocate(f->vm, a, VT_SEG2));
    VT_OK(f->vm, wk_vidmm_fill(f->vm, b, 0xCCCCCCCCu));
    assert_int_equal(read32(f, s, GIB + 0x1000), 0xAAAAAAAAu);
    struct wk_va_counters c;
    VT_OK(f->vm, wk_vidmm_va_counters(f->vm, s, &c));
    assert_int_equal(c.stale_accesses, 0);
    assert_true(c.flushes >= 3);
    assert_true(expect_no_violations(f->vm));
}

/* A destroyed allocation is reached by no GPU virtual address; a range
 * mapped again to another allocation reads the new one at once. */
static void test_destroy_and_remap(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x1000, 0x11111111u), b = filled(f, 0x1000, 0x22222222u);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x1000, 0));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, 2 * GIB, a, 0, 0x1000, 0));
    assert_int_equal(read32(f, s, GIB), 0x11111111u);
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, b, 0, 0x1000, 0)); /* over a's, without an unmap */
    assert_int_equal(read32(f, s, GIB), 0x22222222u);
    assert_int_equal(read32(f, s, 2 * GIB), 0x11111111u);
    VT_OK(f->vm, wk_vidmm_destroy_allocation(f->vm, a));
    assert_int_equal(read_fault(f, s, 2 * GIB), WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(read32(f, s, GIB), 0x22222222u);
    assert_true(expect_no_violations(f->vm));
}

/* ------------------------------------------------------------------ */
/* Planted bugs: the last entry an UPDATE_PAGE_TABLE wrote, changed       */
/* ------------------------------------------------------------------ */

static uint64_t planted_flip;   /* bits flipped in the last WRITE64's value */
static int planted_leaf_only;   /* only in level-0 updates (a page's entry) */

/* The kit's WRITE64 is 20 bytes, its value the last 8 (docs/gpu-model.md). */
static void flip_last_entry(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    DXGKARG_BUILDPAGINGBUFFER *a = args;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || *status != STATUS_SUCCESS ||
        a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE || a->UpdatePageTable.Flags.Repeat ||
        (planted_leaf_only && a->UpdatePageTable.PageTableLevel != 0))
        return;
    uint8_t *value = (uint8_t *)a->pDmaBuffer - 8;
    uint64_t v;
    memcpy(&v, value, sizeof(v));
    v ^= planted_flip;
    memcpy(value, &v, sizeof(v));
}

static void planted_run(struct vt_fixture *f, uint64_t flip, int leaf_only, int read_only, const char *says)
{
    planted_flip = flip;
    planted_leaf_only = leaf_only;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x2000, 0x5A5A5A5Au);
    wk_vidmm_set_rewriter(f->vm, flip_last_entry, NULL);
    uint32_t s;
    wk_status st = wk_vidmm_va_create_space(f->vm, &s);
    if (st == WK_OK)
        st = wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x2000, read_only);
    assert_int_equal(st, WK_E_CONTRACT);
    assert_true(expect_violation(f->vm, "PAGING-UPDATEPT-001"));
    struct wk_violation v;
    assert_int_equal(wk_vidmm_violations(f->vm, &v, 1, NULL), 1);
    if (!strstr(v.message, says))
        print_message("message: %s\n(expected to contain \"%s\")\n", v.message, says);
    assert_non_null(strstr(v.message, says));
}

/* A page's entry one page off (the segment base or the offset wrong). */
static void test_planted_wrong_page(void **state)
{
    planted_run(*state, 1ull << 12, 1, 0, "entry 1 reads valid, 0x");
}

/* A read-only mapping written writable (ReadOnly not translated). */
static void test_planted_read_only_lost(void **state)
{
    planted_run(*state, 1ull << 1, 1, 1, "read-only");
}

/* A directory entry pointing at the wrong lower table. */
static void test_planted_wrong_table(void **state)
{
    planted_run(*state, 1ull << 12, 0, 0, "UPDATE_PAGE_TABLE of level 2");
}

/* A FLUSH_TLB over the first page of its range only: the GPU keeps the
 * other pages' translations, which the kit made it hold before the
 * entries changed (PAGING-FLUSHTLB-001 names how many). */
static void flush_first_page(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    DXGKARG_BUILDPAGINGBUFFER *a = args;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || *status != STATUS_SUCCESS || a->Operation != DXGK_OPERATION_FLUSH_TLB)
        return;
    uint8_t *c = (uint8_t *)a->pDmaBuffer - 28; /* VA_FLUSH root start end (docs/gpu-model.md) */
    uint64_t start;
    memcpy(&start, c + 12, 8);
    start += 0x1000;
    memcpy(c + 20, &start, 8);
}

static void test_planted_flush_first_page_only(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x4000, 0x77777777u);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x4000, 0));
    wk_vidmm_set_rewriter(f->vm, flush_first_page, NULL);
    assert_int_equal(wk_vidmm_va_unmap(f->vm, s, GIB, 0x4000), WK_E_CONTRACT);
    struct wk_violation v;
    assert_int_equal(wk_vidmm_violations(f->vm, &v, 1, NULL), 1);
    assert_string_equal(v.rule, "PAGING-FLUSHTLB-001");
    print_message("%s\n", v.message);
    assert_non_null(strstr(v.message, "still holds 3 translations of it (the lowest: the page at 0x40001000)"));
}

/* A leaf update that also writes the entry after its range (a copy of its
 * last): one WRITE64 more, appended to the paging buffer. */
static void one_entry_more(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    DXGKARG_BUILDPAGINGBUFFER *a = args;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || *status != STATUS_SUCCESS ||
        a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE || a->UpdatePageTable.PageTableLevel != 0 ||
        a->UpdatePageTable.Flags.Repeat || a->DmaSize < 20)
        return;
    uint8_t *last = (uint8_t *)a->pDmaBuffer - 20; /* WRITE64: header, addr @4, value @12 */
    uint64_t addr;
    memcpy(&addr, last + 4, 8);
    addr += 8;
    memcpy(a->pDmaBuffer, last, 20);
    memcpy((uint8_t *)a->pDmaBuffer + 4, &addr, 8);
    a->pDmaBuffer = (uint8_t *)a->pDmaBuffer + 20;
    a->DmaSize -= 20;
}

static void test_planted_entry_past_the_update(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x2000, 0x13131313u);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    wk_vidmm_set_rewriter(f->vm, one_entry_more, NULL);
    assert_int_equal(wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x2000, 0), WK_E_CONTRACT);
    struct wk_violation v;
    assert_int_equal(wk_vidmm_violations(f->vm, &v, 1, NULL), 1);
    assert_string_equal(v.rule, "PAGING-CONFINE-001");
    print_message("%s\n", v.message);
    assert_non_null(strstr(v.message, "changed entry 2 of the table"));
}

/* The bytes a FILL or FILL_VIRTUAL call wrote into the paging buffer taken
 * back (RD_PAGING_BUFFER_SIZE 0x4000): the operation left undone. */
static void undo_fill(DXGKARG_BUILDPAGINGBUFFER *a)
{
    UINT wrote = (0x4000u - a->DmaBufferWriteOffset) - a->DmaSize;
    a->pDmaBuffer = (uint8_t *)a->pDmaBuffer - wrote;
    a->DmaSize += wrote;
}

static void fill_virtual_undone(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    DXGKARG_BUILDPAGINGBUFFER *a = args;
    if (ddi == WK_DDI_BUILD_PAGING_BUFFER && *status == STATUS_SUCCESS && a->Operation == DXGK_OPERATION_VIRTUAL_FILL)
        undo_fill(a);
}

/* A GpuMmu driver gets FILL_VIRTUAL in the paging process (FILL is
 * "WDDMv1 Only"): one that leaves it undone breaks PAGING-FILL-001. */
static void test_fill_virtual_undone_blamed(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    WK_ALLOCATION_REQUEST r;
    vt_request_at(&r, 0x2000, VT_SET(VT_SEG1), 0, 0);
    uint32_t a = vt_alloc(f->vm, f->device, &r);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    wk_vidmm_set_rewriter(f->vm, fill_virtual_undone, NULL);
    assert_int_equal(wk_vidmm_fill(f->vm, a, 0x5555AAAAu), WK_E_CONTRACT);
    struct wk_violation v;
    assert_int_equal(wk_vidmm_violations(f->vm, &v, 1, NULL), 1);
    assert_string_equal(v.rule, "PAGING-FILL-001");
    assert_non_null(strstr(v.message, "FILL_VIRTUAL of 0x5555aaaa"));
}

/* Where the kit makes no paging process (here: a driver that asks for
 * SourcePageTable, LegacyBehaviors.SourcePageTableVaInTransfer, which the
 * kit cannot give), it asks FILL, and a GpuMmu driver that leaves it undone
 * is not blamed: NOT_SUPPORTED with both reasons, no rule broken. */
static void legacy_source_table(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    DXGKARG_QUERYADAPTERINFO *q = args;
    DXGKARG_BUILDPAGINGBUFFER *b = args;
    (void)user;
    if (ddi == WK_DDI_QUERY_ADAPTER_INFO && *status == STATUS_SUCCESS && q->Type == DXGKQAITYPE_GPUMMUCAPS)
        ((DXGK_GPUMMUCAPS *)q->pOutputData)->LegacyBehaviors.SourcePageTableVaInTransfer = 1;
    if (ddi == WK_DDI_BUILD_PAGING_BUFFER && *status == STATUS_SUCCESS && b->Operation == DXGK_OPERATION_FILL)
        undo_fill(b);
}

static void test_v1_fill_not_blamed_without_paging_process(void **state)
{
    struct vt_fixture *f = *state;
    VT_OK(NULL, wk_vidmm_create(NULL, &f->vm));
    VT_OK(f->vm, wk_vidmm_load(f->vm, WK_TEST_GPUMMU_DRIVER));
    wk_vidmm_set_rewriter(f->vm, legacy_source_table, NULL);
    VT_OK(f->vm, wk_vidmm_start(f->vm));
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    WK_ALLOCATION_REQUEST r;
    vt_request_at(&r, 0x2000, VT_SET(VT_SEG1), 0, 0);
    uint32_t a = vt_alloc(f->vm, f->device, &r);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a)); /* its zero fill undone too, over zeroes */
    assert_int_equal(wk_vidmm_fill(f->vm, a, 0x5555AAAAu), WK_E_NOT_SUPPORTED);
    const char *why = wk_vidmm_last_error(f->vm);
    print_message("%s\n", why);
    assert_non_null(strstr(why, "a GpuMmu driver need not do FILL"));
    assert_non_null(strstr(why, "SourcePageTableVaInTransfer"));
    assert_true(expect_no_violations(f->vm));
}

static uint32_t set_roots(struct vt_fixture *f);

/* What COPY_PAGE_TABLE_ENTRIES asked: its ranges; with `undo`, the call's
 * commands taken back (the driver built nothing). */
struct copy_log {
    int undo;
    uint32_t calls, ranges;
    DXGK_BUILDPAGINGBUFFER_COPY_RANGE r[4];
};

static void log_copies(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct copy_log *l = user;
    DXGKARG_BUILDPAGINGBUFFER *a = args;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || *status != STATUS_SUCCESS ||
        a->Operation != DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES)
        return;
    l->calls++;
    l->ranges = a->CopyPageTableEntries.NumRanges;
    for (uint32_t i = 0; i < l->ranges && i < 4; i++)
        l->r[i] = a->CopyPageTableEntries.pRanges[i];
    if (l->undo)
        undo_fill(a); /* any operation's bytes, taken back */
}

/*
 * A root moved by copy (wk_vidmm_va_move_root_copying): the links go in
 * one COPY_PAGE_TABLE_ENTRIES per run of root entries (here entries 1 and
 * 3, 4: two ranges, each at the same index on both sides, both tables at
 * 64 KiB-aligned addresses of the paging process), every mapping still
 * reads, the entry between stays invalid. A driver that builds nothing for
 * it is not blamed (the kernel asks it of a resizable 2-level root):
 * NOT_SUPPORTED, the root unmoved and the mappings as they were.
 */
static void test_root_moved_by_copy(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t a = filled(f, 0x1000, 0x0C0C0C0Cu), s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x1000, 0));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, 3 * GIB, a, 0, 0x1000, 0));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, 4 * GIB, a, 0, 0x1000, 0));
    struct copy_log l;
    memset(&l, 0, sizeof(l));
    wk_vidmm_set_rewriter(f->vm, log_copies, &l);
    VT_OK(f->vm, wk_vidmm_va_move_root_copying(f->vm, s));
    assert_int_equal(l.calls, 1);
    assert_int_equal(l.ranges, 2);
    assert_int_equal(l.r[0].SrcStartPteIndex, 1);
    assert_int_equal(l.r[0].NumPageTableEntries, 1);
    assert_int_equal(l.r[1].SrcStartPteIndex, 3);
    assert_int_equal(l.r[1].DstStartPteIndex, 3);
    assert_int_equal(l.r[1].NumPageTableEntries, 2);
    assert_int_equal(l.r[0].SrcPageTableAddress % 0x10000, 0);
    assert_int_equal(l.r[0].DstPageTableAddress % 0x10000, 0);
    assert_true(l.r[0].SrcPageTableAddress != l.r[0].DstPageTableAddress);
    assert_int_equal(read32(f, s, 3 * GIB + 0xffc), 0x0C0C0C0Cu);
    assert_int_equal(read32(f, s, 4 * GIB), 0x0C0C0C0Cu);
    uint32_t v;
    assert_int_equal(wk_vidmm_va_read(f->vm, s, 2 * GIB, &v, 4, NULL), WK_E_GPU_FAULT);
    assert_true(expect_no_violations(f->vm));

    l.undo = 1;
    assert_int_equal(wk_vidmm_va_move_root_copying(f->vm, s), WK_E_NOT_SUPPORTED);
    assert_non_null(strstr(wk_vidmm_last_error(f->vm), "may never be asked it"));
    assert_int_equal(read32(f, s, GIB), 0x0C0C0C0Cu); /* still the old root */
    assert_true(expect_no_violations(f->vm));
}

/* ExplicitPageTableInvalidation: "VidMm must explicitly invalidate all
 * entries of a page table / directory with UpdatePageTable before freeing
 * it" (docs/wddm-gpummu-facts.md 1.3). Counted: updates that make a whole
 * table invalid (Repeat of an invalid entry from index 0, not a new
 * table's InitialUpdate); the reference driver builds each in one pass. */
struct explicit_log {
    UINT explicit_caps;
    uint32_t whole_invalid;
};

static void explicit_invalidation(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct explicit_log *l = user;
    DXGKARG_QUERYADAPTERINFO *q = args;
    const DXGKARG_BUILDPAGINGBUFFER *b = args;
    if (ddi == WK_DDI_QUERY_ADAPTER_INFO && *status == STATUS_SUCCESS && q->Type == DXGKQAITYPE_GPUMMUCAPS)
        ((DXGK_GPUMMUCAPS *)q->pOutputData)->ExplicitPageTableInvalidation = l->explicit_caps;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || b->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE)
        return;
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &b->UpdatePageTable;
    l->whole_invalid += u->Flags.Repeat && !u->Flags.InitialUpdate && u->StartIndex == 0 &&
                        !u->pPageTableEntries[0].Valid && u->NumPageTableEntries > 1;
}

static void explicit_run(struct vt_fixture *f, UINT explicit_caps)
{
    static struct explicit_log l; /* static: the teardown may call the rewriter after a failed assertion */
    l.explicit_caps = explicit_caps;
    l.whole_invalid = 0;
    VT_OK(NULL, wk_vidmm_create(NULL, &f->vm));
    VT_OK(f->vm, wk_vidmm_load(f->vm, WK_TEST_GPUMMU_DRIVER));
    wk_vidmm_set_rewriter(f->vm, explicit_invalidation, &l);
    VT_OK(f->vm, wk_vidmm_start(f->vm));
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    uint32_t a = filled(f, 0x1000, 0x0E0E0E0Eu), s, t;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x1000, 0)); /* a root, a directory, a leaf */
    l.whole_invalid = 0;
    VT_OK(f->vm, wk_vidmm_va_destroy_space(f->vm, s));
    assert_int_equal(l.whole_invalid, explicit_caps ? 3 : 0);
    /* a moved root: the old one made invalid at the move ("destroy
     * old"), not again when the process ends */
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &t));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, t, GIB, a, 0, 0x1000, 0));
    l.whole_invalid = 0;
    VT_OK(f->vm, wk_vidmm_va_move_root(f->vm, t));
    assert_int_equal(l.whole_invalid, explicit_caps ? 1 : 0);
    assert_int_equal(read32(f, t, GIB), 0x0E0E0E0Eu);
    l.whole_invalid = 0;
    VT_OK(f->vm, wk_vidmm_va_destroy_space(f->vm, t));
    assert_int_equal(l.whole_invalid, explicit_caps ? 3 : 0);
    assert_true(expect_no_violations(f->vm));
    /* the paging process's own tables at a reset, by the CPU */
    l.whole_invalid = 0;
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    assert_true(explicit_caps ? l.whole_invalid >= 3 : l.whole_invalid == 0);
    assert_true(expect_no_violations(f->vm));
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
}

static void test_explicit_invalidation_before_free(void **state)
{
    explicit_run(*state, 1);
}

static void test_no_invalidation_asked_without_it(void **state)
{
    explicit_run(*state, 0);
}

/* The same on other hardware (a binding without an MMU part, so no paging
 * process): the FILL left undone is still the kit's limit. (This binding's
 * processor moves bytes through the kit's counted fill; one that stores
 * them itself counts none, which is why "undone" also means the driver
 * wrote nothing: paging_ops.c, v1_left_undone.) */
static void v1_fill_undone(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    DXGKARG_BUILDPAGINGBUFFER *b = args;
    (void)user;
    if (ddi == WK_DDI_BUILD_PAGING_BUFFER && *status == STATUS_SUCCESS && b->Operation == DXGK_OPERATION_FILL)
        undo_fill(b);
}

static void test_v1_fill_not_blamed_on_other_hardware(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    char why[256];
    VT_OK(NULL, wk_vidmm_binding_open(WK_TEST_BINDING_GOOD, &cfg.binding, why, sizeof(why)));
    open_gpummu(f, &cfg);
    WK_ALLOCATION_REQUEST r;
    vt_request_at(&r, 0x2000, VT_SET(VT_SEG1), 0, 0);
    uint32_t a = vt_alloc(f->vm, f->device, &r);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    wk_vidmm_set_rewriter(f->vm, v1_fill_undone, NULL);
    assert_int_equal(wk_vidmm_fill(f->vm, a, 0x5555AAAAu), WK_E_NOT_SUPPORTED);
    assert_non_null(strstr(wk_vidmm_last_error(f->vm), "a GpuMmu driver need not do FILL"));
    assert_true(expect_no_violations(f->vm));
}

/* What the paging process's making and use asked of the driver. */
struct pp_log {
    uint32_t system_processes;      /* CreateProcess with SystemProcess */
    uint32_t cpu_updates;           /* UPDATE_PAGE_TABLE with no paging buffer, CPU_VIRTUAL */
    uint32_t cpu_updates_late;      /* ... after the first virtual operation */
    uint32_t v1_ops;                /* TRANSFER or FILL */
    uint32_t fills, transfers;
    uint32_t transfer_offset[8];    /* AllocationOffsetInBytes of each TRANSFER_VIRTUAL */
    uint64_t transfer_src[8], transfer_dst[8];
    uint32_t dirs;                  /* bit per TransferDirection seen */
    uint32_t after_maps;            /* virtual operations asked in a buffer that held the maps before them */
};

static void log_paging_process(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct pp_log *l = user;
    if (ddi == WK_DDI_CREATE_PROCESS && ((DXGKARG_CREATEPROCESS *)args)->Flags.SystemProcess)
        l->system_processes++;
    const DXGKARG_BUILDPAGINGBUFFER *b = args;
    if (ddi == WK_DDI_BUILD_PAGING_BUFFER && b->DmaBufferWriteOffset != 0 &&
        (b->Operation == DXGK_OPERATION_VIRTUAL_FILL || b->Operation == DXGK_OPERATION_VIRTUAL_TRANSFER))
        l->after_maps++; /* the reference driver then asks for a fresh buffer */
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || *status != STATUS_SUCCESS) /* once per operation (a fresh buffer asked) */
        return;
    switch (b->Operation) {
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
        if (!b->pDmaBuffer && b->UpdatePageTable.UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL) {
            l->cpu_updates++;
            l->cpu_updates_late += l->fills + l->transfers != 0;
        }
        break;
    case DXGK_OPERATION_TRANSFER: case DXGK_OPERATION_FILL: l->v1_ops++; break;
    case DXGK_OPERATION_VIRTUAL_FILL: l->fills++; break;
    case DXGK_OPERATION_VIRTUAL_TRANSFER:
        if (l->transfers < 8) {
            l->transfer_offset[l->transfers] = (uint32_t)b->TransferVirtual.AllocationOffsetInBytes;
            l->transfer_src[l->transfers] = b->TransferVirtual.SourceVirtualAddress;
            l->transfer_dst[l->transfers] = b->TransferVirtual.DestinationVirtualAddress;
        }
        l->transfers++;
        l->dirs |= 1u << b->TransferVirtual.TransferDirection;
        break;
    default: break;
    }
}

/*
 * The system paging process (docs/wddm-gpummu-facts.md 4.5; System paging
 * process): made once content first moves, with CreateProcess
 * (SystemProcess) and tables set up by the CPU (no paging buffer,
 * CPU_VIRTUAL), its root given to the system context; then every fill and
 * transfer of a GpuMmu driver is FILL_VIRTUAL or TRANSFER_VIRTUAL at its
 * scratch addresses, never FILL or TRANSFER, asked in the paging buffer
 * that holds its scratch mapping (DmaBufferWriteOffset not 0), and moves
 * the content, in chunks of cfg.transfer_chunk at the same scratch
 * addresses, each naming its offset in the allocation. A reset loses it with the GPU's memory;
 * the next content made again.
 */
static void test_paging_process(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.transfer_chunk = 0x1000;
    open_gpummu(f, &cfg);
    struct pp_log l;
    memset(&l, 0, sizeof(l));
    wk_vidmm_set_rewriter(f->vm, log_paging_process, &l);
    uint32_t roots = set_roots(f);
    uint32_t a = filled(f, 0x3000, 0x3C3C3C3Cu);
    assert_int_equal(l.system_processes, 1);
    assert_true(l.cpu_updates >= 3); /* the root, the tables below it, the paging buffer's entries */
    assert_int_equal(l.cpu_updates_late, 0);
    assert_int_equal(set_roots(f), roots + 1);
    assert_int_equal(l.fills, 2 * 3); /* the page-in's zero fill and the fill, a page each */
    assert_int_equal(l.after_maps, 2 * 3); /* each in the buffer of its scratch mapping */
    uint32_t word = 0;
    VT_OK(f->vm, wk_vidmm_read(f->vm, a, 0x2ffc, &word, 4));
    assert_int_equal(word, 0x3C3C3C3Cu);

    VT_OK(f->vm, wk_vidmm_write(f->vm, a, 0x1000, "\x11\x22\x33\x44", 4));
    VT_OK(f->vm, wk_vidmm_evict(f->vm, a));
    assert_int_equal(l.transfers, 3);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(l.transfer_offset[i], i * 0x1000u);
        assert_true(l.transfer_src[i] == l.transfer_src[0] && l.transfer_dst[i] == l.transfer_dst[0]);
        assert_true(l.transfer_src[i] != l.transfer_dst[i]);
    }
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    VT_OK(f->vm, wk_vidmm_relocate(f->vm, a, VT_SEG2));
    assert_int_equal(l.transfers, 9);
    assert_int_equal(l.dirs, (1u << DXGK_MEMORY_TRANSFER_LOCAL_TO_SYSTEM) | (1u << DXGK_MEMORY_TRANSFER_SYSTEM_TO_LOCAL) |
                                 (1u << DXGK_MEMORY_TRANSFER_LOCAL_TO_LOCAL));
    VT_OK(f->vm, wk_vidmm_read(f->vm, a, 0x1000, &word, 4));
    assert_int_equal(word, 0x44332211u);
    VT_OK(f->vm, wk_vidmm_read(f->vm, a, 0x2ffc, &word, 4));
    assert_int_equal(word, 0x3C3C3C3Cu);
    assert_int_equal(l.v1_ops, 0);
    assert_int_equal(l.system_processes, 1);
    assert_true(wk_vidmm_page_table_bytes(f->vm) > 0);
    assert_true(expect_no_violations(f->vm));

    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    assert_int_equal(wk_vidmm_page_table_bytes(f->vm), 0);
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    (void)filled(f, 0x1000, 0x77777777u);
    assert_int_equal(l.system_processes, 2);
    assert_true(expect_no_violations(f->vm));
}

/* The hKmdProcess of each CreateDevice the driver was asked (the rewriter
 * sees the arguments after the call). */
struct seen_devices {
    HANDLE process[4];
    uint32_t n;
};

static void see_devices(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct seen_devices *d = user;
    if (ddi == WK_DDI_CREATE_DEVICE && d->n < 4)
        d->process[d->n++] = ((DXGKARG_CREATEDEVICE *)args)->hKmdProcess;
}

/* The kit's DxgkDdiSetRootPageTable calls, counted. */
static uint32_t set_roots(struct vt_fixture *f)
{
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(f->vm, &st);
    return (uint32_t)st.ddi_calls[WK_DDI_SET_ROOT_PAGE_TABLE];
}

/*
 * A device of a process gets its hKmdProcess (one of no process, NULL); a
 * virtual context of it is told its root once made, and again, with every
 * other virtual context of the process, when the root moves; a virtual
 * context of a device of no process is refused as not supported, and so
 * is destroying a space with devices; a physical context is told nothing.
 */
static void test_devices_and_contexts_of_a_process(void **state)
{
    struct vt_fixture *f = *state;
    struct seen_devices seen;
    memset(&seen, 0, sizeof(seen));
    open_gpummu(f, NULL);
    wk_vidmm_set_rewriter(f->vm, see_devices, &seen);
    uint32_t s, dev, c1, c2, c3;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_create_device_in(f->vm, 0, s, &dev));
    assert_int_equal(seen.n, 1);
    assert_non_null(seen.process[0]);
    DXGK_CREATECONTEXTFLAGS virt = { .Value = 0 };
    virt.VirtualAddressing = 1;
    uint32_t a = filled(f, 0x2000, 0xAB12AB12u);
    uint32_t told = set_roots(f); /* the system context's, of the paging process the fill made */
    assert_int_equal(told, 1);
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, dev, virt.Value, &c1));
    assert_int_equal(set_roots(f), told + 1);
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, dev, 0, &c2));
    assert_int_equal(set_roots(f), told + 1);
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, dev, virt.Value, &c3));
    told += 2;
    assert_int_equal(set_roots(f), told);
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x2000, 0));
    VT_OK(f->vm, wk_vidmm_va_move_root(f->vm, s));
    assert_int_equal(set_roots(f), told + 2); /* c1 and c3, not c2 */
    assert_int_equal(read32(f, s, GIB + 0x1ffc), 0xAB12AB12u);
    uint32_t none;
    assert_int_equal(wk_vidmm_create_context(f->vm, f->device, virt.Value, &none), WK_E_NOT_SUPPORTED);
    DXGK_CREATECONTEXTFLAGS system_virt = virt; /* the kernel's alone, in the paging process */
    system_virt.SystemContext = 1;
    assert_int_equal(wk_vidmm_create_context(f->vm, dev, system_virt.Value, &none), WK_E_INVALID_ARGUMENT);
    assert_int_equal(wk_vidmm_va_destroy_space(f->vm, s), WK_E_STATE);
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &dev));
    assert_int_equal(seen.n, 2);
    assert_null(seen.process[1]); /* a device of no process */
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    assert_true(expect_no_violations(f->vm));
}

/*
 * DxgkCbMapContextAllocation in a process (seed "Context allocation": the
 * allocation goes into the application address space of its context): the
 * GpuMmu reference driver maps a virtual context's allocation read-only
 * where the kit chooses, the lowest free range (0x1000: page 0 is no
 * address); the GPU reads there the blob UpdateContextAllocation wrote, a
 * write faults read-only, and the range after it is the next context's.
 * Destroying the context's allocation (with the context) unmaps it.
 */
static void test_context_allocation_mapped_in_its_process(void **state)
{
    struct vt_fixture *f = *state;
    open_gpummu(f, NULL);
    uint32_t s, dev, c1, c2;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_create_device_in(f->vm, 0, s, &dev));
    DXGK_CREATECONTEXTFLAGS virt = { .Value = 0 };
    virt.VirtualAddressing = 1;
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, dev, virt.Value, &c1));
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, dev, virt.Value, &c2));
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(f->vm, &st);
    assert_int_equal(st.ddi_calls[WK_DDI_CB_MAP_CONTEXT_ALLOCATION], 2);
    assert_int_equal(read32(f, s, 0x1000), 0x58434452u); /* 'RDCX', the blob's magic */
    assert_int_equal(read32(f, s, 0x2000), 0x58434452u);
    assert_int_not_equal(read32(f, s, 0x1004), read32(f, s, 0x2004)); /* each its own context's id */
    uint32_t v = 0;
    struct wk_mem_fault fault;
    memset(&fault, 0, sizeof(fault));
    assert_int_equal(wk_vidmm_va_write(f->vm, s, 0x1000, &v, sizeof(v), &fault), WK_E_GPU_FAULT);
    assert_int_equal(fault.reason, WK_GPU_FAULT_VA_READ_ONLY);
    VT_OK(f->vm, wk_vidmm_destroy_context(f->vm, c1));
    assert_int_equal(read_fault(f, s, 0x1000), WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(read32(f, s, 0x2000), 0x58434452u);
    assert_true(expect_no_violations(f->vm));
}

/* A virtual buffer and its FILL target mapped at their own GPU physical
 * addresses: run physically (a driver that never makes the root active,
 * wk_test_gpummu_no_root) it writes the same bytes, and only the space's
 * counters tell: SUBMITV-GPU-001. The GpuMmu build passes the same. */
static void run_identity_mapped(struct vt_fixture *f, const char *driver)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    VT_OK(NULL, wk_vidmm_create(&cfg, &f->vm));
    VT_OK(f->vm, wk_vidmm_load(f->vm, driver));
    VT_OK(f->vm, wk_vidmm_start(f->vm));
    uint32_t s, dev, ctx;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_create_device_in(f->vm, 0, s, &dev));
    DXGK_CREATECONTEXTFLAGS virt = { .Value = 0 };
    virt.VirtualAddressing = 1;
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, dev, virt.Value, &ctx));
    WK_ALLOCATION_REQUEST r;
    vt_request_at(&r, 0x2000, VT_SET(VT_SEG1), 0, 0);
    uint32_t a = vt_alloc(f->vm, dev, &r);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    struct wk_vidmm_allocation_state st;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &st));
    uint64_t at = st.gpu_address; /* the buffer in the first page, the target the second */
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, at, a, 0, 0x2000, 0));
    uint8_t cmd[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, cmd, sizeof(cmd));
    VT_OK(f->vm, wk_gpu_emit_fill(&w, at + 0x1000, 0x1000, 0x1D1D1D1Du));
    VT_OK(f->vm, wk_vidmm_va_write(f->vm, s, at, cmd, w.used, NULL));
    (void)wk_vidmm_submit_virtual(f->vm, ctx, at, (uint32_t)w.used);
    assert_int_equal(read32(f, s, at + 0x1ffc), 0x1D1D1D1Du); /* the bytes land either way */
}

static void test_identity_mapped_buffer_judged_by_its_space(void **state)
{
    struct vt_fixture *f = *state;
    run_identity_mapped(f, WK_TEST_GPUMMU_DRIVER);
    assert_true(expect_no_violations(f->vm));
    wk_vidmm_destroy(f->vm);
    f->vm = NULL;
    run_identity_mapped(f, WK_TEST_GPUMMU_NO_ROOT_DRIVER);
    assert_true(expect_violation(f->vm, "SUBMITV-GPU-001"));
}

/* What the paging operations were, in order, and each NOTIFY_RESIDENCY's
 * arguments; the rewriter also flags every allocation of the first
 * `flagged` CreateAllocation calls AccessedPhysically and
 * ExplicitResidencyNotification, as a driver would. */
struct residency_log {
    uint32_t flagged, creates;
    uint32_t ops[32], nops;
    DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY notify[8];
    uint32_t nnotify;
};

static void log_residency(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct residency_log *l = user;
    if (ddi == WK_DDI_CREATE_ALLOCATION && l->creates++ < l->flagged) {
        DXGKARG_CREATEALLOCATION *c = args;
        for (UINT i = 0; i < c->NumAllocations; i++)
            c->pAllocationInfo[i].Flags.Value |= 0x8000u | 0x10000u;
    }
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER)
        return;
    const DXGKARG_BUILDPAGINGBUFFER *b = args;
    if (l->nops < 32)
        l->ops[l->nops++] = (uint32_t)b->Operation;
    if (b->Operation == DXGK_OPERATION_NOTIFY_RESIDENCY && l->nnotify < 8)
        l->notify[l->nnotify++] = b->NotifyResidency;
}

/* The index in l->ops of the first `op` from `from` on, or UINT32_MAX. */
static uint32_t op_at(const struct residency_log *l, uint32_t from, uint32_t op)
{
    for (uint32_t i = from; i < l->nops; i++)
        if (l->ops[i] == op)
            return i;
    return UINT32_MAX;
}

/*
 * NOTIFY_RESIDENCY (facts P23): an allocation its driver flagged both
 * AccessedPhysically and ExplicitResidencyNotification is notified once
 * when committed to a memory segment, after its content (Resident 1, its
 * segment and offset), and once when evicted, before its content moves
 * (Resident 0, address 0, 0); a relocation between memory segments is
 * both. An allocation not flagged is never notified, nor is any on a
 * driver that is not GpuMmu.
 */
static void test_notify_residency(void **state)
{
    struct vt_fixture *f = *state;
    struct residency_log l;
    memset(&l, 0, sizeof(l));
    l.flagged = 1;
    open_gpummu(f, NULL);
    wk_vidmm_set_rewriter(f->vm, log_residency, &l);
    WK_ALLOCATION_REQUEST r;
    vt_request_at(&r, 0x2000, VT_SET(VT_SEG1) | VT_SET(VT_SEG2), 0, 0);
    uint32_t a = vt_alloc(f->vm, f->device, &r);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    struct wk_vidmm_allocation_state st;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &st));
    assert_int_equal(l.nnotify, 1);
    assert_int_equal(l.notify[0].Resident, 1);
    assert_ptr_not_equal(l.notify[0].hAllocation, NULL);
    assert_int_equal(l.notify[0].PhysicalAddress.SegmentId, st.segment_id);
    assert_int_equal(l.notify[0].PhysicalAddress.SegmentOffset, st.segment_offset);
    uint32_t notified = op_at(&l, 0, DXGK_OPERATION_NOTIFY_RESIDENCY);
    assert_true(op_at(&l, 0, DXGK_OPERATION_VIRTUAL_FILL) < notified); /* after its content */

    uint32_t mark = l.nops;
    VT_OK(f->vm, wk_vidmm_evict(f->vm, a));
    assert_int_equal(l.nnotify, 2);
    assert_int_equal(l.notify[1].Resident, 0);
    assert_int_equal(l.notify[1].PhysicalAddress.SegmentId, 0);
    assert_int_equal(l.notify[1].PhysicalAddress.SegmentOffset, 0);
    assert_true(op_at(&l, mark, DXGK_OPERATION_NOTIFY_RESIDENCY) < op_at(&l, mark, DXGK_OPERATION_VIRTUAL_TRANSFER));

    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    assert_int_equal(l.nnotify, 3);
    assert_int_equal(l.notify[2].Resident, 1);
    uint32_t to = st.segment_id == VT_SEG1 ? VT_SEG2 : VT_SEG1;
    VT_OK(f->vm, wk_vidmm_relocate(f->vm, a, to));
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &st));
    assert_int_equal(l.nnotify, 5);
    assert_int_equal(l.notify[3].Resident, 0);
    assert_int_equal(l.notify[4].Resident, 1);
    assert_int_equal(l.notify[4].PhysicalAddress.SegmentId, to);
    assert_int_equal(l.notify[4].PhysicalAddress.SegmentOffset, st.segment_offset);

    uint32_t b = vt_alloc(f->vm, f->device, &r); /* not flagged */
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, b));
    VT_OK(f->vm, wk_vidmm_evict(f->vm, b));
    assert_int_equal(l.nnotify, 5);
    assert_true(expect_no_violations(f->vm));
    wk_vidmm_destroy(f->vm);
    f->vm = NULL;

    /* A physical driver's allocations, flagged alike: none. */
    memset(&l, 0, sizeof(l));
    l.flagged = 1;
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
    wk_vidmm_set_rewriter(f->vm, log_residency, &l);
    a = vt_alloc(f->vm, f->device, &r);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    VT_OK(f->vm, wk_vidmm_evict(f->vm, a));
    assert_int_equal(l.nnotify, 0);
}

/* ------------------------------------------------------------------ */
/* A two-level tree (wk_refdriver_gpummu2): a root the driver sizes      */
/* A virtual context (VirtualAddressing) of the fixture's device. */
static uint32_t virtual_context(struct vt_fixture *f)
{
    DXGK_CREATECONTEXTFLAGS virt = { .Value = 0 };
    virt.VirtualAddressing = 1;
    uint32_t ctx = 0;
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, virt.Value, &ctx));
    return ctx;
}

/* ------------------------------------------------------------------ */

struct root_log {
    uint32_t asked[8], told[8];       /* GetRootPageTableSize's NumberOfPte in; SetRootPageTable's NumEntries */
    uint32_t nasked, ntold;
};

static void log_roots(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct root_log *l = user;
    if (ddi == WK_DDI_GET_ROOT_PAGE_TABLE_SIZE && l->nasked < 8)
        l->asked[l->nasked++] = ((DXGKARG_GETROOTPAGETABLESIZE *)args)->NumberOfPte; /* after the call: the count out */
    if (ddi == WK_DDI_SET_ROOT_PAGE_TABLE && l->ntold < 8)
        l->told[l->ntold++] = ((DXGKARG_SETROOTPAGETABLE *)args)->NumEntries;
}

/* The root is asked for one entry (the driver's level gives an initial
 * count of 0), answered a page of 512; a mapping at 1 GiB (root index 512)
 * grows it to 1024 entries, the context told again; both mappings read,
 * and an address past the grown root's end faults, as the GPU must. */
static void test_two_level_root_grows(void **state)
{
    struct vt_fixture *f = *state;
    VT_OK(NULL, wk_vidmm_create(NULL, &f->vm));
    VT_OK(f->vm, wk_vidmm_load(f->vm, WK_TEST_GPUMMU2_DRIVER));
    VT_OK(f->vm, wk_vidmm_start(f->vm));
    struct wk_vidmm_gpummu_info info;
    wk_vidmm_gpummu(f->vm, &info);
    assert_true(info.asked && info.answered && info.modelled);
    assert_int_equal(info.geometry.levels, 2);
    assert_int_equal(info.geometry.level[1].index_bits, 18);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_create_device_in(f->vm, 0, s, &f->device));
    uint32_t a = filled(f, 0x1000, 0xA0A0A0A0u), b = filled(f, 0x1000, 0xB0B0B0B0u);
    struct root_log l;
    memset(&l, 0, sizeof(l));
    wk_vidmm_set_rewriter(f->vm, log_roots, &l);
    (void)virtual_context(f);
    assert_int_equal(l.ntold, 1);
    assert_int_equal(l.told[0], 512);
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, 0x1000, a, 0, 0x1000, 0));
    assert_int_equal(l.nasked, 0); /* index 0: the first root holds it */
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, b, 0, 0x1000, 0));
    assert_int_equal(l.nasked, 1);
    assert_int_equal(l.asked[0], 1024);
    assert_int_equal(l.ntold, 2);
    assert_int_equal(l.told[1], 1024);
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(f->vm, &st);
    assert_int_equal(st.root_grows, 1);
    assert_int_equal(read32(f, s, 0x1000), 0xA0A0A0A0u);
    assert_int_equal(read32(f, s, GIB), 0xB0B0B0B0u);
    assert_int_equal(read_fault(f, s, 2 * GIB), WK_GPU_FAULT_VA_UNMAPPED); /* root index 1024: past the end */
    assert_true(expect_no_violations(f->vm));
}

/* ------------------------------------------------------------------ */
/* Tables in system memory, written by the GPU or by the CPU             */
/* ------------------------------------------------------------------ */

struct sysmem_log {
    uint32_t roots;                   /* SetRootPageTable calls */
    D3DGPU_PHYSICAL_ADDRESS root;     /* the last one's address */
    uint32_t updates, cpu_with_buffer, gpu_physical_system;
};

static void log_sysmem(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct sysmem_log *l = user;
    if (ddi == WK_DDI_SET_ROOT_PAGE_TABLE) {
        l->roots++;
        l->root = ((DXGKARG_SETROOTPAGETABLE *)args)->Address;
    }
    const DXGKARG_BUILDPAGINGBUFFER *a = args;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE)
        return;
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    if (u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL && !a->pDmaBuffer)
        return; /* the paging process's own tables, by the CPU (a context resource mapped where it is) */
    l->updates++;
    if (u->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL && a->pDmaBuffer && u->PageTableAddress.CpuVirtual)
        l->cpu_with_buffer++;
    if (u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL && u->PageTableAddress.GpuPhysical.SegmentId == 0)
        l->gpu_physical_system++;
}

/* A driver whose levels put the tables in system memory (segment 0) gets
 * each table on a system page: SetRootPageTable and UPDATE_PAGE_TABLE name
 * it as segment 0 and the page's address; with CPU_VIRTUAL, every update
 * comes with a paging buffer and the table's CPU view. Either way the GPU
 * reads the allocation through the tables. */
static void sysmem_tables_run(struct vt_fixture *f, const char *driver, int cpu)
{
    VT_OK(NULL, wk_vidmm_create(NULL, &f->vm));
    VT_OK(f->vm, wk_vidmm_load(f->vm, driver));
    VT_OK(f->vm, wk_vidmm_start(f->vm));
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_create_device_in(f->vm, 0, s, &f->device));
    uint32_t a = filled(f, 0x2000, 0xC0DE5151u);
    struct sysmem_log l;
    memset(&l, 0, sizeof(l));
    wk_vidmm_set_rewriter(f->vm, log_sysmem, &l);
    (void)virtual_context(f);
    assert_int_equal(l.roots, 1);
    assert_int_equal(l.root.SegmentId, 0);
    const struct wk_gpu_desc *d = wk_gpu_reference_desc();
    uint64_t first = d->sysmem_first_pfn << 12, end = (d->sysmem_first_pfn + d->sysmem_pages) << 12;
    assert_true(l.root.SegmentOffset >= first && l.root.SegmentOffset < end);
    assert_int_equal(l.root.SegmentOffset & 0xFFF, 0);
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x2000, 0));
    assert_true(l.updates >= 3); /* two tables made invalid and linked, the leaf entries */
    assert_int_equal(l.cpu_with_buffer, cpu ? l.updates : 0);
    assert_int_equal(l.gpu_physical_system, cpu ? 0 : l.updates);
    assert_int_equal(read32(f, s, GIB + 0x1000), 0xC0DE5151u);
    assert_true(expect_no_violations(f->vm));
}

static void test_tables_in_system_memory(void **state)
{
    sysmem_tables_run(*state, WK_TEST_GPUMMU_SYSMEM_DRIVER, 0);
}

static void test_tables_written_by_the_cpu(void **state)
{
    sysmem_tables_run(*state, WK_TEST_GPUMMU_CPU_DRIVER, 1);
}

/* ------------------------------------------------------------------ */
/* The GPU_VIRTUAL update mode (wk_refdriver_gpummu_gpuva)               */
/* ------------------------------------------------------------------ */

struct gpuva_log {
    uint32_t virtual_updates, physical_updates, cpu_updates;
    uint64_t lo, hi;                  /* the GpuVirtual addresses seen */
};

static void log_gpuva(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct gpuva_log *l = user;
    const DXGKARG_BUILDPAGINGBUFFER *a = args;
    if (ddi != WK_DDI_BUILD_PAGING_BUFFER || a->Operation != DXGK_OPERATION_UPDATE_PAGE_TABLE)
        return;
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    if (u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL) {
        uint64_t va = u->PageTableAddress.GpuVirtual;
        l->lo = l->virtual_updates == 0 || va < l->lo ? va : l->lo;
        l->hi = va > l->hi ? va : l->hi;
        l->virtual_updates++;
    } else if (u->UpdateMode == DXGK_PAGETABLEUPDATE_GPU_PHYSICAL) {
        l->physical_updates++;
    } else {
        l->cpu_updates++;
    }
}

/* With GPU_VIRTUAL every update after the paging process's set-up names
 * its table by an address of the paging process, above its scratch area's
 * start (a window the table is mapped in, or the scratch tables' mirror),
 * none by a physical one; the GPU then reads the mapping, and a driver that
 * took the address for a physical one is caught. */
static void test_gpu_virtual_updates(void **state)
{
    struct vt_fixture *f = *state;
    VT_OK(NULL, wk_vidmm_create(NULL, &f->vm));
    VT_OK(f->vm, wk_vidmm_load(f->vm, WK_TEST_GPUMMU_GPUVA_DRIVER));
    VT_OK(f->vm, wk_vidmm_start(f->vm));
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    uint32_t a = filled(f, 0x2000, 0x6B6B6B6Bu); /* the paging process made, its tables by the CPU */
    struct gpuva_log l;
    memset(&l, 0, sizeof(l));
    wk_vidmm_set_rewriter(f->vm, log_gpuva, &l);
    uint32_t s;
    VT_OK(f->vm, wk_vidmm_va_create_space(f->vm, &s));
    VT_OK(f->vm, wk_vidmm_va_map(f->vm, s, GIB, a, 0, 0x2000, 0));
    assert_int_equal(l.physical_updates, 0);
    assert_int_equal(l.cpu_updates, 0);
    assert_true(l.virtual_updates >= 4 * 3); /* each of root, two tables and the leaf: window, update, unmap */
    assert_true(l.lo >= 4ull << 20);         /* the scratch area starts at 4 MiB or past the paging buffer */
    assert_int_equal(read32(f, s, GIB + 0x1000), 0x6B6B6B6Bu);
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_gpummu_driver_is_modelled),
        VT_TEST(test_two_level_root_grows),
        VT_TEST(test_tables_in_system_memory),
        VT_TEST(test_tables_written_by_the_cpu),
        VT_TEST(test_gpu_virtual_updates),
        VT_TEST(test_memory_past_the_entries_reach),
        VT_TEST(test_map_reads_each_allocation),
        VT_TEST(test_unmap_faults_after_the_flush),
        VT_TEST(test_system_pages_and_offsets),
        VT_TEST(test_bad_requests_refused),
        VT_TEST(test_not_a_gpummu_driver),
        VT_TEST(test_reset_destroys_spaces),
        VT_TEST(test_mapping_follows_its_allocation),
        VT_TEST(test_destroy_and_remap),
        VT_TEST(test_planted_wrong_page),
        VT_TEST(test_planted_read_only_lost),
        VT_TEST(test_planted_wrong_table),
        VT_TEST(test_planted_flush_first_page_only),
        VT_TEST(test_planted_entry_past_the_update),
        VT_TEST(test_fill_virtual_undone_blamed),
        VT_TEST(test_v1_fill_not_blamed_without_paging_process),
        VT_TEST(test_v1_fill_not_blamed_on_other_hardware),
        VT_TEST(test_paging_process),
        VT_TEST(test_root_moved_by_copy),
        VT_TEST(test_explicit_invalidation_before_free),
        VT_TEST(test_no_invalidation_asked_without_it),
        VT_TEST(test_devices_and_contexts_of_a_process),
        VT_TEST(test_context_allocation_mapped_in_its_process),
        VT_TEST(test_identity_mapped_buffer_judged_by_its_space),
        VT_TEST(test_notify_residency),
    };
    return cmocka_run_group_tests_name("vidmm.gpuva", tests, NULL, NULL);
}
