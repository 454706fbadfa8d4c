/* SPDX-License-Identifier: MIT */
/*
 * tests/test_heron_driver_packets.c - the Heron miniport's own packets
 * (examples/drivers/wdkstyle: BuildPagingBuffer and Patch, called
 * directly) run by the Heron binding's processor (examples/gpus/heron) on
 * the fake memory system: the two halves of the project agree on the
 * hardware, and each planted bug changes exactly what its semantic rule
 * checks.
 *
 * Built once per driver variant: HERON_PLANTED names the bug the linked
 * driver carries ("" for the clean one). Each check below computes
 * whether the outcome deviates from what WDDM says the operation does,
 * and expects a deviation exactly when its bug is the one planted:
 *
 *   fill             the destination holds FillPattern      PAGING-FILL-001
 *   transfer_offset  TransferOffset applies on segment sides PAGING-TRANSFER-001
 *   unmap_dummy      unmapped pages point at DummyPage      PAGING-UNMAP-001
 *   patch_addr       a slot holds PhysicalAddress + offset   PATCH-VALUE-001
 *   fence            SignalMonitoredFence stores its value   PAGING-FENCE-001 (no bug)
 *
 * None of these is visible to the contract checks: only running the
 * driver's buffers shows them, which is what the binding is for.
 */
#include "heron.h" /* the driver's: km.h and its DDIs, first (it defines C_ASSERT) */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "heron_test_util.h"

#ifndef HERON_PLANTED
#define HERON_PLANTED ""
#endif

static int setup(void **state)
{
    struct ht_gpu *g = test_malloc(sizeof *g);
    ht_gpu_init(g);
    *state = g;
    return 0;
}

static int teardown(void **state)
{
    ht_gpu_fini(*state);
    test_free(*state);
    return 0;
}

static int planted(const char *bug)
{
    return strcmp(HERON_PLANTED, bug) == 0;
}

/* BuildPagingBuffer until the operation is done (multipass), into one
 * buffer; returns the bytes written. */
static uint32_t build(DXGKARG_BUILDPAGINGBUFFER *args, uint8_t *dma, uint32_t cap)
{
    uint32_t used = 0;
    for (int pass = 0; pass < 64; pass++) {
        args->pDmaBuffer = dma + used;
        args->DmaSize = cap - used;
        NTSTATUS status = HeronDdiBuildPagingBuffer(NULL, args);
        used = (uint32_t)((uint8_t *)args->pDmaBuffer - dma);
        if (status == STATUS_SUCCESS) {
            return used;
        }
        assert_int_equal(status, STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    }
    fail_msg("BuildPagingBuffer did not finish in 64 passes");
    return 0;
}

static void run_paging(struct ht_gpu *g, DXGKARG_BUILDPAGINGBUFFER *args)
{
    static uint8_t dma[64 * 1024];
    struct wk_exec_fault f;
    uint32_t used = build(args, dma, sizeof dma);
    assert_true(ht_no_fault(ht_run_range(g, dma, 0, used, &f), &f));
}

static void expect(const char *bug, int deviates)
{
    if (deviates != planted(bug)) {
        fail_msg("%s: the outcome %s, with %s planted", bug, deviates ? "deviates" : "is right",
                 *HERON_PLANTED ? HERON_PLANTED : "no bug");
    }
}

static int bytes_differ(struct wk_mem *m, uint64_t addr, const uint8_t *want, uint64_t len)
{
    uint8_t seen[8192];
    assert_true(len <= sizeof seen);
    assert_int_equal(fake_mem_read(m, addr, seen, len), 0);
    return memcmp(seen, want, len) != 0;
}

static void test_fill(void **state)
{
    struct ht_gpu *g = *state;
    DXGKARG_BUILDPAGINGBUFFER args;
    uint8_t want[8192];

    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_FILL;
    args.Fill.FillSize = sizeof want;
    args.Fill.FillPattern = 0x11223344;
    args.Fill.Destination.SegmentId = HERON_SEGMENT_LOCAL_VISIBLE;
    args.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)(HT_LOCAL + 0x1000);
    run_paging(g, &args);
    for (size_t i = 0; i < sizeof want; i++) {
        want[i] = (uint8_t)(0x11223344u >> (8 * (i % 4)));
    }
    expect("fill_byte", bytes_differ(g->mem, HT_LOCAL + 0x1000, want, sizeof want));
}

/* Segment to segment, TransferOffset 0x300: the bytes at source + 0x300
 * arrive at destination + 0x300. */
static void test_transfer_offset(void **state)
{
    struct ht_gpu *g = *state;
    DXGKARG_BUILDPAGINGBUFFER args;
    uint8_t source[0x2000];

    for (size_t i = 0; i < sizeof source; i++) {
        source[i] = (uint8_t)(i * 13 + 5);
    }
    assert_int_equal(fake_mem_write(g->mem, HT_LOCAL, source, sizeof source), 0);
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_TRANSFER;
    args.Transfer.TransferOffset = 0x300;
    args.Transfer.TransferSize = 0x1000;
    args.Transfer.Source.SegmentId = HERON_SEGMENT_LOCAL_VISIBLE;
    args.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)HT_LOCAL;
    args.Transfer.Destination.SegmentId = HERON_SEGMENT_LOCAL_HIDDEN;
    args.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)HT_HIDDEN;
    run_paging(g, &args);
    expect("transfer_offset", bytes_differ(g->mem, HT_HIDDEN + 0x300, source + 0x300, 0x1000));
}

/* Pages mapped to frames, then unmapped: each must point at DummyPage. */
static void test_unmap_dummy(void **state)
{
    struct ht_gpu *g = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    const uint64_t pfns[4] = { HT_SYS_PFN + 1, HT_SYS_PFN + 2, HT_SYS_PFN + 3, HT_SYS_PFN + 4 };
    DXGKARG_BUILDPAGINGBUFFER args;

    ht_gart_write(&b, HERON_SEGMENT_GART, 20, 4, pfns);
    ht_gart_invalidate(&b, HERON_SEGMENT_GART);
    assert_true(ht_no_fault(ht_run(g, &b, &f), &f));
    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_UNMAP_APERTURE_SEGMENT;
    args.UnmapApertureSegment.SegmentId = HERON_SEGMENT_GART;
    args.UnmapApertureSegment.OffsetInPages = 20;
    args.UnmapApertureSegment.NumberOfPages = 4;
    args.UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)((HT_SYS_PFN + 99) << 12);
    run_paging(g, &args);
    int deviates = 0;
    for (uint64_t page = 20; page < 24; page++) {
        deviates |= fake_mem_tlb(g->mem, HERON_SEGMENT_GART, page) != HT_SYS_PFN + 99;
    }
    expect("unmap_dummy", deviates);
}

static void test_signal_fence(void **state)
{
    struct ht_gpu *g = *state;
    DXGKARG_BUILDPAGINGBUFFER args;
    const uint8_t want[8] = { 0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01 };

    memset(&args, 0, sizeof args);
    args.Operation = DXGK_OPERATION_SIGNAL_MONITORED_FENCE;
    args.SignalMonitoredFence.MonitoredFenceGpuVa = HT_SYS + 0x500;
    args.SignalMonitoredFence.MonitoredFenceValue = 0x0123456789ABCDEFull;
    run_paging(g, &args);
    expect("fence", bytes_differ(g->mem, HT_SYS + 0x500, want, 8));
    assert_int_equal(g->fences, 1);
}

/* Render's FILL, with the slot Render left at zero (the allocation was not
 * placed yet); Patch writes it; the binding reads it back. */
static void test_patch_address(void **state)
{
    (void)state;
    struct ht_buf b = { .used = 0 };
    DXGK_ALLOCATIONLIST list[1];
    D3DDDI_PATCHLOCATIONLIST patch[1];
    DXGKARG_PATCH args;
    uint64_t address = 0;

    ht_nop(&b);
    uint32_t fill = ht_fill(&b, 0, 64, 0);
    memset(list, 0, sizeof list);
    list[0].hDeviceSpecificAllocation = (HANDLE)(uintptr_t)0x1000; /* an allocation, not an unbind */
    list[0].SegmentId = HERON_SEGMENT_LOCAL_VISIBLE;
    list[0].PhysicalAddress.QuadPart = (LONGLONG)(HT_LOCAL + 0x20000);
    memset(patch, 0, sizeof patch);
    patch[0].AllocationIndex = 0;
    patch[0].AllocationOffset = 0x40;
    patch[0].PatchOffset = fill + HERON_FILL_DST_OFFSET;
    memset(&args, 0, sizeof args);
    args.pDmaBuffer = b.bytes;
    args.DmaBufferSize = b.used;
    args.DmaBufferSubmissionEndOffset = b.used;
    args.pAllocationList = list;
    args.AllocationListSize = 1;
    args.pPatchLocationList = patch;
    args.PatchLocationListSize = 1;
    args.PatchLocationListSubmissionLength = 1;
    assert_int_equal(HeronDdiPatch(NULL, &args), STATUS_SUCCESS);
    assert_int_equal(wk_binding.processor->read_address(NULL, b.bytes, b.used, patch[0].PatchOffset, &address,
                                                        NULL),
                     0);
    expect("patch_addr", address != HT_LOCAL + 0x20040);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_transfer_offset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unmap_dummy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signal_fence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_address, setup, teardown),
    };
    return cmocka_run_group_tests_name("heron.driver_packets", tests, NULL, NULL);
}
