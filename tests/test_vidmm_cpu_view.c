/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_cpu_view.c - the CPU view of video memory through the
 * kit (issue 23, "CPU view of video memory"; docs/writing-a-driver.md,
 * "Registers and resources"; facts 5.5 G6).
 *
 * A binding whose BAR shows memory segment 1 to the CPU (WK_BAR_SEGMENT,
 * BAR offset = segment offset), with the kit's command set as its processor
 * (tests/bindings/kit_format.c), in front of the reference driver. The
 * test's StartDevice maps the BAR with MmMapIoSpaceEx, as a WDK driver that
 * writes video memory with the CPU does, and keeps the address:
 *   - a store through it at an allocation's segment offset is what
 *     wk_vidmm_read of the allocation gives (the driver wrote where the kit
 *     checks), and a paging FILL of the allocation is what the mapping reads;
 *   - a range that runs past the segment is refused (NULL), never plain
 *     memory; MmUnmapIoSpace of the mapping undoes it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bindings/kit_format.h"
#include "refdriver/refdriver_entry.h"
#include "vidmm_test_util.h"
#include "wddmkit/binding.h"
#include "wddmkit/km.h"
#include "wddmkit/kmmemory.h"

#define SEG_BAR 0xE0000000ull
#define SEG1_SIZE (1ull << 20)   /* the reference adapter's segment 1 */

static const struct wk_binding_bar cpu_view_bars[] = {
    { .kind = WK_BAR_SEGMENT, .segment_id = 1, .physical = SEG_BAR, .size = SEG1_SIZE },
};

static int exec_kit_format(void *self, const struct wk_exec *x, struct wk_exec_fault *fault)
{
    (void)self;
    return wk_test_kit_format_exec(x, fault);
}

static const struct wk_processor_ops kit_processor = { .size = sizeof(struct wk_processor_ops),
                                                       .exec = exec_kit_format,
                                                       .read_address = wk_test_kit_format_read_address };

static const struct wk_binding *cpu_view_binding(void)
{
    static struct wk_binding b = { WK_BINDING_HEADER("cpu-view", "1.0"), NULL, cpu_view_bars, 1, 0, NULL, NULL,
                                   NULL, &kit_processor, NULL, NULL, NULL };
    b.memory = wk_gpu_reference_desc();
    return &b;
}

/* ------------------------------------------------------------------ */
/* A StartDevice that maps the BAR first                                */
/* ------------------------------------------------------------------ */

static DRIVER_INITIALIZATION_DATA ref;

static struct {
    PUCHAR bar;            /* the whole BAR, kept for the test */
    PVOID past_end;        /* a range that runs past the segment */
    PVOID last_page;       /* the BAR's last page, mapped and unmapped again */
    ULONG first_word;      /* what the mapping read at start */
} driver;

static NTSTATUS capture(PDRIVER_OBJECT o, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init, ULONG abi)
{
    (void)o, (void)path, (void)abi;
    ref = *init;
    return STATUS_SUCCESS;
}

static NTSTATUS start_device(VOID *const ctx, DXGK_START_INFO *info, DXGKRNL_INTERFACE *k, PULONG sources,
                             PULONG children)
{
    DXGK_DEVICE_INFO dev;
    memset(&dev, 0, sizeof(dev));
    if (k->DxgkCbGetDeviceInformation(k->DeviceHandle, &dev) != STATUS_SUCCESS)
        return STATUS_UNSUCCESSFUL;
    const CM_PARTIAL_RESOURCE_DESCRIPTOR *d = &dev.TranslatedResourceList->List[0].PartialResourceList.PartialDescriptors[0];
    driver.bar = (PUCHAR)MmMapIoSpaceEx(d->u.Memory.Start, d->u.Memory.Length, PAGE_READWRITE | PAGE_WRITECOMBINE);
    if (driver.bar)
        driver.first_word = *(volatile ULONG *)driver.bar;
    PHYSICAL_ADDRESS at;
    at.QuadPart = (LONGLONG)(SEG_BAR + SEG1_SIZE - PAGE_SIZE);
    driver.past_end = MmMapIoSpace(at, 2 * PAGE_SIZE, MmWriteCombined);
    driver.last_page = MmMapIoSpace(at, PAGE_SIZE, MmWriteCombined);
    if (driver.last_page)
        MmUnmapIoSpace(driver.last_page, PAGE_SIZE);
    return ref.DxgkDdiStartDevice(ctx, info, k, sources, children);
}

/* What segment 1 reports as its CpuTranslatedAddress (0: the reference
 * driver's own answer, not CPU-visible). */
static uint64_t seg1_cpu_address;

static NTSTATUS query_adapter_info(const HANDLE h, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = ref.DxgkDdiQueryAdapterInfo(h, q);
    if (!NT_SUCCESS(st) || !seg1_cpu_address || q->Type != DXGKQAITYPE_QUERYSEGMENT3)
        return st;
    DXGK_QUERYSEGMENTOUT3 *o = q->pOutputData;
    if (o->pSegmentDescriptor && o->NbSegment >= 1) {
        o->pSegmentDescriptor[0].Flags.CpuVisible = 1;
        o->pSegmentDescriptor[0].CpuTranslatedAddress.QuadPart = (LONGLONG)seg1_cpu_address;
    }
    return st;
}

static NTSTATUS entry(PDRIVER_OBJECT o, PUNICODE_STRING path)
{
    DRIVER_OBJECT c;
    memset(&c, 0, sizeof(c));
    c.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    c.wk_initialize = capture;
    NTSTATUS st = wk_refdriver_DriverEntry(&c, path);
    if (!NT_SUCCESS(st))
        return st;
    DRIVER_INITIALIZATION_DATA mine = ref;
    mine.DxgkDdiStartDevice = start_device;
    mine.DxgkDdiQueryAdapterInfo = query_adapter_info;
    return DxgkInitialize(o, path, &mine);
}

static bool open_with_cpu_view(struct vt_fixture *f)
{
    memset(&driver, 0, sizeof(driver));
    seg1_cpu_address = 0;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.binding = cpu_view_binding();
    return vt_open(f, &cfg, entry, VT_DEVICE);
}

/* An allocation resident in segment 1; its offset there. */
static uint32_t resident_in_segment1(struct vt_fixture *f, uint64_t size, uint64_t *offset)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, size, VT_SET(VT_SEG1), VT_PREF(0, VT_SEG1, 0), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    struct wk_vidmm_allocation_state s;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &s));
    assert_true(s.resident && s.segment_id == VT_SEG1);
    *offset = s.segment_offset;
    return a;
}

/* ------------------------------------------------------------------ */
/* Tests                                                                */
/* ------------------------------------------------------------------ */

/* What the driver stores through its BAR mapping is the allocation's
 * content for the kit, and what the GPU fills is what the driver reads. */
static void test_both_sides_see_one_memory(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_with_cpu_view(f));
    assert_non_null(driver.bar);
    assert_int_equal(driver.first_word, 0);
    uint64_t off = 0;
    uint32_t a = resident_in_segment1(f, 16 * 1024, &off);
    uint8_t upload[256];
    for (unsigned i = 0; i < sizeof(upload); i++)
        upload[i] = (uint8_t)(i * 7 + 1);
    memcpy(driver.bar + off + 0x1F80, upload, sizeof(upload)); /* the CPU's upload, across a page */
    assert_true(expect_bytes(f->vm, a, 0x1F80, upload, sizeof(upload)));
    VT_OK(f->vm, wk_vidmm_fill(f->vm, a, 0xC3C3C3C3u)); /* the GPU's FILL, through the binding */
    for (uint64_t i = 0; i < 16 * 1024; i++)
        if (driver.bar[off + i] != 0xC3)
            fail_msg("the mapping reads 0x%02x at +0x%llx of the allocation after the FILL", driver.bar[off + i],
                     (unsigned long long)i);
    assert_true(expect_no_violations(f->vm));
}

/* Past the segment nothing is mapped: NULL, not a silent copy; a page
 * inside maps and unmaps. */
static void test_range_past_the_segment_is_refused(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_with_cpu_view(f));
    assert_null(driver.past_end);
    assert_non_null(driver.last_page);
    assert_true(expect_no_violations(f->vm));
}

/* "the CPU reaches the segment linearly at CpuTranslatedAddress (an offset
 * in the segment is the same offset in the PCI BAR)" (facts §5.5 G6): a
 * CPU-visible segment 1 at the BAR that shows it is right; 1 MiB off is
 * SEG-CPU-001, naming the BAR (outsider 24's planted bug passed). */
static void test_cpu_translated_address_is_the_bar(void **state)
{
    struct vt_fixture *f = *state;
    const uint64_t answers[2] = { SEG_BAR, SEG_BAR + (1u << 20) };
    for (int k = 0; k < 2; k++) {
        memset(&driver, 0, sizeof(driver));
        seg1_cpu_address = answers[k];
        struct wk_vidmm_config cfg;
        memset(&cfg, 0, sizeof(cfg));
        cfg.binding = cpu_view_binding();
        struct wk_vidmm *vm = NULL;
        VT_OK(NULL, wk_vidmm_create(&cfg, &vm));
        VT_OK(vm, wk_vidmm_attach(vm, entry));
        (void)wk_vidmm_start(vm);
        if (k == 0) {
            assert_true(expect_no_violations(vm));
        } else {
            assert_true(expect_violation(vm, "SEG-CPU-001"));
            struct wk_violation v[4];
            uint64_t total = 0;
            uint32_t n = wk_vidmm_violations(vm, v, 4, &total);
            assert_true(n >= 1);
            assert_non_null(strstr(v[0].message, "segment 1: CpuTranslatedAddress 0xe0100000, but the device's BAR "
                                                 "for that memory (segment 1 of the hardware, bus address "
                                                 "0xe0000000) shows the segment's offset 0 at 0xe0000000"));
        }
        wk_vidmm_destroy(vm);
        (void)f;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_both_sides_see_one_memory),
        VT_TEST(test_range_past_the_segment_is_refused),
        VT_TEST(test_cpu_translated_address_is_the_bar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
