/* SPDX-License-Identifier: MIT */
/*
 * tests/test_othergpu_driver_records.c - the OtherGPU miniport's own
 * records (examples/drivers/othergpu: BuildPagingBuffer and Patch, called
 * directly) run by the OtherGPU binding's processor (examples/gpus/othergpu)
 * on the fake memory system: the two halves of the project agree on the
 * hardware, and each paging operation and Patch does what WDDM says it
 * does (the checks the kit's semantic kind makes in a conform run, here
 * one operation at a time, multipass included).
 */
#include "othergpu.h" /* the driver's: km.h and its DDIs, first */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "othergpu_test_util.h"

static int setup(void **state)
{
    struct ogt_gpu *g = test_malloc(sizeof *g);
    ogt_gpu_init(g);
    *state = g;
    return 0;
}

static int teardown(void **state)
{
    ogt_gpu_fini(*state);
    test_free(*state);
    return 0;
}

/* BuildPagingBuffer pass after pass, each into a fresh `cap`-byte buffer
 * run on the binding at once (multipass: the kernel submits what a pass
 * wrote before it calls again). Returns the passes. */
static int build_and_run(struct ogt_gpu *g, DXGKARG_BUILDPAGINGBUFFER *args, uint32_t cap)
{
    static uint8_t dma[64 * 1024];
    assert_true(cap <= sizeof dma);
    for (int pass = 1; pass <= 4096; pass++) {
        struct wk_exec_fault f;
        args->pDmaBuffer = dma;
        args->DmaSize = cap;
        NTSTATUS status = OgBuildPagingBuffer(NULL, args);
        uint32_t used = (uint32_t)((uint8_t *)args->pDmaBuffer - dma);
        assert_true(ogt_no_fault(ogt_run_range(g, dma, 0, used, &f), &f));
        if (status == STATUS_SUCCESS) {
            return pass;
        }
        assert_int_equal(status, STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    }
    fail_msg("BuildPagingBuffer did not finish in 4096 passes");
    return 0;
}

/* An MDL of the kit's layout (d3dkmddi.h) over scattered system pages. */
struct test_mdl {
    MDL mdl;
    PFN_NUMBER pfns[8];
};

static void make_mdl(struct test_mdl *m, uint32_t pages)
{
    memset(m, 0, sizeof *m);
    for (uint32_t i = 0; i < pages; i++) {
        m->pfns[i] = OGT_SYS_PFN + 40 - 3 * i; /* descending: never consecutive */
    }
    m->mdl.wk_byte_count = pages * 4096u;
    m->mdl.wk_page_count = pages;
    m->mdl.wk_pfns = m->pfns;
}

/* FILL of 600 KiB (three 256 KiB records at most) through 32-byte
 * buffers: one PATTERN + FILL pair per pass. */
static void test_fill_multipass(void **state)
{
    struct ogt_gpu *g = *state;
    DXGKARG_BUILDPAGINGBUFFER args;
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_FILL;
    args.Fill.FillSize = 600 * 1024;
    args.Fill.FillPattern = 0xA1B2C3D4u;
    args.Fill.Destination.SegmentId = OG_SEGMENT_VRAM;
    args.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)(OGT_VRAM + 0x3000);
    assert_int_equal(build_and_run(g, &args, 32), 3);
    assert_true(ogt_filled_with(g->mem, OGT_VRAM + 0x3000, 600 * 1024, 0xA1B2C3D4u));
    assert_true(ogt_filled_with(g->mem, OGT_VRAM + 0x3000 + 600 * 1024, 16, 0));
}

/* Local memory to system pages of an MDL from MdlOffset on: page i of the
 * transfer lands on the MDL's page MdlOffset + i. */
static void test_transfer_to_mdl(void **state)
{
    struct ogt_gpu *g = *state;
    struct test_mdl m;
    uint8_t src[3 * 4096], seen[4096];
    DXGKARG_BUILDPAGINGBUFFER args;
    for (size_t i = 0; i < sizeof src; i++) {
        src[i] = (uint8_t)(i * 31 + 7);
    }
    assert_int_equal(fake_mem_write(g->mem, OGT_VRAM, src, sizeof src), 0);
    make_mdl(&m, 5);
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_TRANSFER;
    args.Transfer.TransferSize = sizeof src;
    args.Transfer.MdlOffset = 1;
    args.Transfer.Source.SegmentId = OG_SEGMENT_VRAM;
    args.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)OGT_VRAM;
    args.Transfer.Destination.pMdl = &m.mdl;
    build_and_run(g, &args, 8192);
    for (uint32_t page = 0; page < 3; page++) {
        assert_int_equal(fake_mem_read(g->mem, (uint64_t)m.pfns[1 + page] << 12, seen, 4096), 0);
        assert_memory_equal(seen, src + page * 4096, 4096);
    }
}

/* A move onto the end of its own source, in 256 KiB chunks: the driver
 * copies from the end, so no chunk overwrites bytes a later one reads. */
static void test_overlapping_transfer(void **state)
{
    struct ogt_gpu *g = *state;
    static uint8_t src[600 * 1024], seen[600 * 1024];
    DXGKARG_BUILDPAGINGBUFFER args;
    for (size_t i = 0; i < sizeof src; i++) {
        src[i] = (uint8_t)(i * 13 + (i >> 12));
    }
    assert_int_equal(fake_mem_write(g->mem, OGT_VRAM, src, sizeof src), 0);
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_TRANSFER;
    args.Transfer.TransferSize = sizeof src;
    args.Transfer.Source.SegmentId = OG_SEGMENT_VRAM;
    args.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)OGT_VRAM;
    args.Transfer.Destination.SegmentId = OG_SEGMENT_VRAM;
    args.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(OGT_VRAM + 0x10000);
    build_and_run(g, &args, 8192);
    assert_int_equal(fake_mem_read(g->mem, OGT_VRAM + 0x10000, seen, sizeof seen), 0);
    assert_memory_equal(seen, src, sizeof src);
}

/* MAP_APERTURE_SEGMENT then UNMAP: the entries are the MDL's frames from
 * MdlOffset, then the dummy page, and the GPU sees each (GART_FLUSH),
 * through 16-byte buffers: one record per pass. */
static void test_map_then_unmap(void **state)
{
    struct ogt_gpu *g = *state;
    struct test_mdl m;
    DXGKARG_BUILDPAGINGBUFFER args;
    make_mdl(&m, 6);
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
    args.MapApertureSegment.SegmentId = OG_SEGMENT_GART;
    args.MapApertureSegment.OffsetInPages = 100;
    args.MapApertureSegment.NumberOfPages = 4;
    args.MapApertureSegment.pMdl = &m.mdl;
    args.MapApertureSegment.MdlOffset = 2;
    assert_int_equal(build_and_run(g, &args, 16), 5);
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(fake_mem_pte(g->mem, OG_SEGMENT_GART, 100 + i), m.pfns[2 + i]);
        assert_int_equal(fake_mem_tlb(g->mem, OG_SEGMENT_GART, 100 + i), m.pfns[2 + i]);
    }
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_UNMAP_APERTURE_SEGMENT;
    args.UnmapApertureSegment.SegmentId = OG_SEGMENT_GART;
    args.UnmapApertureSegment.OffsetInPages = 100;
    args.UnmapApertureSegment.NumberOfPages = 4;
    args.UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)(OGT_SYS + 0x7000);
    build_and_run(g, &args, 8192);
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(fake_mem_pte(g->mem, OG_SEGMENT_GART, 100 + i), OGT_SYS_PFN + 7);
        assert_int_equal(fake_mem_tlb(g->mem, OG_SEGMENT_GART, 100 + i), OGT_SYS_PFN + 7);
    }
}

static void test_signal_monitored_fence(void **state)
{
    struct ogt_gpu *g = *state;
    DXGKARG_BUILDPAGINGBUFFER args;
    uint8_t seen[8];
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_SIGNAL_MONITORED_FENCE;
    args.SignalMonitoredFence.MonitoredFenceGpuVa = OGT_SYS + 0x88;
    args.SignalMonitoredFence.MonitoredFenceValue = 0xFFFFFFFF00000001ull;
    build_and_run(g, &args, 8192);
    assert_int_equal(fake_mem_read(g->mem, OGT_SYS + 0x88, seen, 8), 0);
    assert_int_equal(seen[0], 1);
    assert_int_equal(seen[7], 0xFF);
    assert_int_equal(g->fences, 1);
}

/* READ_PHYSICAL and WRITE_PHYSICAL: a CACHE_FLUSH of a line OtherGPU has. */
static void test_physical_access_flushes(void **state)
{
    struct ogt_gpu *g = *state;
    DXGKARG_BUILDPAGINGBUFFER args;
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_READ_PHYSICAL;
    args.ReadPhysical.PhysicalAddress.QuadPart = (LONGLONG)(OGT_VRAM + 0x40);
    build_and_run(g, &args, 8192);
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_WRITE_PHYSICAL;
    args.WritePhysical.PhysicalAddress.QuadPart = (LONGLONG)(OGT_VRAM + 0x80);
    build_and_run(g, &args, 8192);
}

/* Render leaves an unplaced allocation's address empty (word b = 0); Patch
 * writes PhysicalAddress + AllocationOffset in OtherGPU's encoding, which
 * read_address gives back, and the COPY then runs. */
static void test_patch_writes_what_read_address_reads(void **state)
{
    struct ogt_gpu *g = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint64_t address = 0;
    ogt_record(&b, OG_SRC, 0, 0, 0);
    ogt_record(&b, OG_COPY, 0, 0, 64);
    DXGK_ALLOCATIONLIST list[2];
    memset(list, 0, sizeof list);
    list[0].SegmentId = OG_SEGMENT_VRAM;
    list[0].PhysicalAddress.QuadPart = (LONGLONG)(OGT_VRAM + 0x2000);
    list[1].SegmentId = OG_SEGMENT_VRAM;
    list[1].PhysicalAddress.QuadPart = (LONGLONG)(OGT_VRAM + 0x8000);
    D3DDDI_PATCHLOCATIONLIST patches[2];
    memset(patches, 0, sizeof patches);
    patches[0].AllocationIndex = 0;
    patches[0].AllocationOffset = 0x10;
    patches[0].PatchOffset = 4;
    patches[1].AllocationIndex = 1;
    patches[1].AllocationOffset = 0x20;
    patches[1].PatchOffset = 20;
    DXGKARG_PATCH p;
    memset(&p, 0, sizeof p);
    p.pDmaBuffer = b.bytes;
    p.DmaBufferSize = b.used;
    p.DmaBufferSubmissionEndOffset = b.used;
    p.pAllocationList = list;
    p.AllocationListSize = 2;
    p.pPatchLocationList = patches;
    p.PatchLocationListSize = 2;
    p.PatchLocationListSubmissionLength = 2;
    assert_int_equal(og_processor.read_address(NULL, b.bytes, b.used, 4, &address, NULL), -1);
    assert_int_equal(OgPatch(NULL, &p), STATUS_SUCCESS);
    assert_int_equal(og_processor.read_address(NULL, b.bytes, b.used, 4, &address, NULL), 0);
    assert_int_equal(address, OGT_VRAM + 0x2010);
    assert_int_equal(og_processor.read_address(NULL, b.bytes, b.used, 20, &address, NULL), 0);
    assert_int_equal(address, OGT_VRAM + 0x8020);
    uint8_t src[64], seen[64];
    memset(src, 0x5A, sizeof src);
    assert_int_equal(fake_mem_write(g->mem, OGT_VRAM + 0x2010, src, sizeof src), 0);
    assert_true(ogt_no_fault(ogt_run(g, &b, &f), &f));
    assert_int_equal(fake_mem_read(g->mem, OGT_VRAM + 0x8020, seen, sizeof seen), 0);
    assert_memory_equal(seen, src, sizeof src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fill_multipass, setup, teardown),
        cmocka_unit_test_setup_teardown(test_transfer_to_mdl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overlapping_transfer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_then_unmap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signal_monitored_fence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_physical_access_flushes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_writes_what_read_address_reads, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
