/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_bars.c - the device's BARs, the register path behind
 * them and contiguous memory a device reaches (issue 23, "registers";
 * docs/writing-a-driver.md, "Registers and resources"; facts 5.10).
 *
 * Each test starts the reference driver, linked in, behind a StartDevice
 * of its own that does what a WDK miniport does first: it walks
 * DxgkCbGetDeviceInformation's TranslatedResourceList, maps a memory
 * resource with MmMapIoSpaceEx and reads and writes registers through
 * READ_REGISTER_* and WRITE_REGISTER_* (km.h inside the test program, as in
 * a driver), or allocates contiguous memory and takes its physical address.
 *
 *   - BAR0 of the kit's GPU: the window reaches the model's registers as
 *     WkReadRegister32 does, 64-bit as two 32-bit accesses low first, 16-bit
 *     reads from the register holding them, also outside any DDI and on a
 *     thread of its own (where a driver's system thread runs);
 *   - a plain load through the window ends the call as DRV-CRASH-001 naming
 *     the BAR and offset; an 8-bit write as KM-API-001;
 *   - a binding's BARs (bars_attach): the register BAR's window reaches its
 *     register model with (bar index, offset); a segment BAR over a segment
 *     the model was not built to show is refused;
 *   - a driver of other hardware without a binding (no_model): one plain BAR;
 *   - contiguous memory inside a DDI is pages of the system pool at the
 *     address MmGetPhysicalAddress gives, honouring the acceptable range;
 *     outside a DDI, host memory as before;
 *   - a mapping and a contiguous block still live after RemoveDevice are
 *     MEM-LEAK-001, whether the kit made their memory (a register window,
 *     the system pool) or km.h did (no_model: plain memory); released in
 *     RemoveDevice they are not; DriverEntry's count only when the driver
 *     has a DxgkDdiUnload.
 */
#include <pthread.h>
#include <setjmp.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h" /* bars_attach, sysmem_is_kit_page; before cmocka.h (its fail() macro) */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "wddmkit/km.h"
#include "wddmkit/kmmemory.h"
#include "refdriver/refdriver_entry.h"

/* ------------------------------------------------------------------ */
/* A StartDevice in front of the reference driver's                     */
/* ------------------------------------------------------------------ */

static DRIVER_INITIALIZATION_DATA ref;

/* What the test's StartDevice does before the reference driver's runs. */
typedef void before_start_fn(DXGKRNL_INTERFACE *k, const CM_RESOURCE_LIST *res);
static before_start_fn *before_start;

static NTSTATUS capture(PDRIVER_OBJECT o, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init, ULONG abi)
{
    (void)o, (void)path, (void)abi;
    ref = *init;
    return STATUS_SUCCESS;
}

/* The reference driver's device context of the adapter starting: a test
 * whose StartDevice dies before the driver's runs (a DRV-CRASH-001, a KM
 * rule) leaves it to the test, since the kit calls no dead driver's
 * RemoveDevice (release_dead). */
static VOID *started_ctx;

static NTSTATUS start_device(VOID *const ctx, DXGK_START_INFO *info, DXGKRNL_INTERFACE *k, PULONG sources,
                             PULONG children)
{
    started_ctx = ctx;
    DXGK_DEVICE_INFO dev;
    memset(&dev, 0, sizeof(dev));
    if (k->DxgkCbGetDeviceInformation(k->DeviceHandle, &dev) != STATUS_SUCCESS)
        return STATUS_UNSUCCESSFUL;
    before_start(k, dev.TranslatedResourceList);
    return ref.DxgkDdiStartDevice(ctx, info, k, sources, children);
}

/* 1: the test's DriverEntry takes and frees contiguous memory first, so
 * the kit looks at the adapter's BARs before no_model may change. */
static int contiguous_in_entry;

/* What the MEM-LEAK-001 tests keep: a mapping of BAR0 and a contiguous
 * block made in StartDevice, one block made in DriverEntry; `release`
 * says whether the driver's RemoveDevice gives the first two back,
 * `in_entry` whether DriverEntry makes the third, `with_unload` whether
 * the driver has a DxgkDdiUnload. */
#define KEPT_BLOCK_BYTES (2u * PAGE_SIZE + 100u)
#define KEPT_ENTRY_BYTES 300u
static struct {
    PUCHAR regs;
    PUCHAR block;
    PUCHAR entry_block;
    int release, in_entry, with_unload;
    int unloaded;
} kept;

static void release_kept(void)
{
    if (kept.regs)
        MmUnmapIoSpace(kept.regs, WK_GPU_REG_SIZE);
    if (kept.block)
        MmFreeContiguousMemorySpecifyCache(kept.block, KEPT_BLOCK_BYTES, MmCached);
    kept.regs = kept.block = NULL;
}

static NTSTATUS remove_device(VOID *const ctx)
{
    if (kept.release)
        release_kept();
    return ref.DxgkDdiRemoveDevice(ctx);
}

static VOID unload(VOID)
{
    kept.unloaded++;
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
    mine.DxgkDdiRemoveDevice = remove_device;
    if (kept.with_unload)
        mine.DxgkDdiUnload = unload;
    st = DxgkInitialize(o, path, &mine); /* km.h has the kit's services from here */
    PHYSICAL_ADDRESS highest;
    highest.QuadPart = -1;
    if (NT_SUCCESS(st) && contiguous_in_entry) {
        PVOID early = MmAllocateContiguousMemory(PAGE_SIZE, highest);
        assert_non_null(early);
        MmFreeContiguousMemory(early);
    }
    if (NT_SUCCESS(st) && kept.in_entry) {
        kept.entry_block = (PUCHAR)MmAllocateContiguousMemory(KEPT_ENTRY_BYTES, highest);
        assert_non_null(kept.entry_block);
    }
    return st;
}

/* The memory resource `index` of the list (facts 5.10 M2-M3). */
static const CM_PARTIAL_RESOURCE_DESCRIPTOR *memory_resource(const CM_RESOURCE_LIST *res, ULONG index)
{
    assert_non_null(res);
    assert_int_equal(res->Count, 1);
    assert_true(index < res->List[0].PartialResourceList.Count);
    const CM_PARTIAL_RESOURCE_DESCRIPTOR *d = &res->List[0].PartialResourceList.PartialDescriptors[index];
    assert_int_equal(d->Type, CmResourceTypeMemory);
    return d;
}

static PUCHAR map_resource(const CM_PARTIAL_RESOURCE_DESCRIPTOR *d, SIZE_T bytes)
{
    return (PUCHAR)MmMapIoSpaceEx(d->u.Memory.Start, bytes, PAGE_READWRITE | PAGE_NOCACHE);
}

/* An adapter created with cfg (NULL: defaults), the test's StartDevice
 * doing `fn`; returns what wk_vidmm_start said. */
static wk_status start_with(struct wk_vidmm **vm, const struct wk_vidmm_config *cfg, before_start_fn *fn,
                            const struct wk_binding_bar *bars, uint32_t nbars, const struct wk_registers_ops *regs,
                            void *self)
{
    before_start = fn;
    assert_int_equal(wk_vidmm_create(cfg, vm), WK_OK);
    assert_int_equal(wk_vidmm_attach(*vm, entry), WK_OK);
    if (bars)
        bars_attach(*vm, bars, nbars, regs, self);
    return wk_vidmm_start(*vm);
}

/* The first violation of `rule`'s message contains `text`. */
static int violation_says(const struct wk_vidmm *vm, const char *rule, const char *text)
{
    struct wk_violation v[16];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(vm, v, 16, &total);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(v[i].rule, rule) == 0) {
            if (strstr(v[i].message, text))
                return 1;
            print_message("%s says: %s\n", rule, v[i].message);
            return 0;
        }
    print_message("no %s among %u violations\n", rule, n);
    return 0;
}

/* ------------------------------------------------------------------ */
/* BAR0 of the kit's GPU                                                */
/* ------------------------------------------------------------------ */

static struct {
    PUCHAR regs;
    ULONG id, id_high, tag_seen, ring_lo, ring_hi;
    ULONG64 ring64;
} seen;

static void use_bar0(DXGKRNL_INTERFACE *k, const CM_RESOURCE_LIST *res)
{
    const CM_PARTIAL_RESOURCE_DESCRIPTOR *bar0 = memory_resource(res, 0);
    assert_true((uint64_t)bar0->u.Memory.Start.QuadPart == WK_VIDMM_BAR0_ADDRESS);
    assert_int_equal(bar0->u.Memory.Length, WK_GPU_REG_SIZE);
    seen.regs = map_resource(bar0, WK_GPU_REG_SIZE);
    assert_non_null(seen.regs);
    /* The list the driver holds says the same after the kit used its BARs. */
    assert_int_equal(bar0->Type, CmResourceTypeMemory);
    assert_int_equal(bar0->u.Memory.Length, WK_GPU_REG_SIZE);
    seen.id = READ_REGISTER_ULONG((volatile ULONG *)(seen.regs + WK_GPU_REG_ID));
    seen.id_high = READ_REGISTER_USHORT((volatile USHORT *)(seen.regs + WK_GPU_REG_ID + 2));
    WRITE_REGISTER_ULONG((volatile ULONG *)(seen.regs + WK_GPU_REG_RING_TAG), 0x1234ABCDu);
    seen.tag_seen = k->WkReadRegister32(k->DeviceHandle, WK_GPU_REG_RING_TAG);
    WRITE_REGISTER_ULONG64((volatile ULONG64 *)(seen.regs + WK_GPU_REG_RING_ADDR_LO), 0x0000000500003000ull);
    seen.ring_lo = k->WkReadRegister32(k->DeviceHandle, WK_GPU_REG_RING_ADDR_LO);
    seen.ring_hi = k->WkReadRegister32(k->DeviceHandle, WK_GPU_REG_RING_ADDR_HI);
    seen.ring64 = READ_REGISTER_ULONG64((volatile ULONG64 *)(seen.regs + WK_GPU_REG_RING_ADDR_LO));
}

/* A thread of the driver's own: no DDI frame names the adapter. */
static void *read_id_on_a_thread(void *arg)
{
    (void)arg;
    seen.id = READ_REGISTER_ULONG((volatile ULONG *)(seen.regs + WK_GPU_REG_ID));
    return NULL;
}

static void test_bar0_window_reaches_the_model(void **state)
{
    (void)state;
    struct wk_vidmm *vm = NULL;
    memset(&seen, 0, sizeof(seen));
    assert_int_equal(start_with(&vm, NULL, use_bar0, NULL, 0, NULL, NULL), WK_OK);
    assert_int_equal(seen.id, WK_GPU_ID);
    assert_int_equal(seen.id_high, WK_GPU_ID >> 16);
    assert_int_equal(seen.tag_seen, 0x1234ABCDu);
    assert_int_equal(seen.ring_lo, 0x3000u);
    assert_int_equal(seen.ring_hi, 5u);
    assert_true(seen.ring64 == 0x0000000500003000ull);
    /* Outside any DDI, as a system thread of the driver's runs: the window
     * finds its adapter by itself. */
    assert_int_equal(READ_REGISTER_ULONG((volatile ULONG *)(seen.regs + WK_GPU_REG_ID)), WK_GPU_ID);
    pthread_t t;
    seen.id = 0;
    assert_int_equal(pthread_create(&t, NULL, read_id_on_a_thread, NULL), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(seen.id, WK_GPU_ID);
    MmUnmapIoSpace(seen.regs, WK_GPU_REG_SIZE);
    wk_vidmm_destroy(vm);
}

/* An unmapped register window's reservation stays PROT_NONE and is the
 * next window of its length (regwin.c: an mmap and a munmap per adapter
 * build saved): the next adapter's registers are read through it. */
static void test_window_reservation_is_reused(void **state)
{
    (void)state;
    struct wk_vidmm *vm = NULL;
    memset(&seen, 0, sizeof(seen));
    assert_int_equal(start_with(&vm, NULL, use_bar0, NULL, 0, NULL, NULL), WK_OK);
    PUCHAR first = seen.regs;
    MmUnmapIoSpace(seen.regs, WK_GPU_REG_SIZE);
    wk_vidmm_destroy(vm);
    unsigned char resident;
    uint8_t *page = (uint8_t *)((uintptr_t)first & ~(uintptr_t)4095);
    assert_int_equal(mincore(page, 4096, &resident), 0); /* still reserved: parked, not unmapped */
    memset(&seen, 0, sizeof(seen));
    assert_int_equal(start_with(&vm, NULL, use_bar0, NULL, 0, NULL, NULL), WK_OK);
    assert_ptr_equal(seen.regs, first);
    assert_int_equal(READ_REGISTER_ULONG((volatile ULONG *)(seen.regs + WK_GPU_REG_ID)), WK_GPU_ID);
    MmUnmapIoSpace(seen.regs, WK_GPU_REG_SIZE);
    wk_vidmm_destroy(vm);
}

static void plain_load(DXGKRNL_INTERFACE *k, const CM_RESOURCE_LIST *res)
{
    (void)k;
    PUCHAR regs = map_resource(memory_resource(res, 0), WK_GPU_REG_SIZE);
    seen.id = *(volatile ULONG *)(regs + WK_GPU_REG_IRQ_STATUS);
}

/* After the adapter died in the test's StartDevice: the reference driver's
 * RemoveDevice frees its AddDevice context, as Windows would remove a
 * device whose start failed (the kit cannot call a dead driver). */
static void release_dead(void)
{
    if (started_ctx && ref.DxgkDdiRemoveDevice)
        (void)ref.DxgkDdiRemoveDevice(started_ctx);
    started_ctx = NULL;
}

static void test_plain_access_names_the_register(void **state)
{
    (void)state;
    struct wk_vidmm *vm = NULL;
    assert_int_not_equal(start_with(&vm, NULL, plain_load, NULL, 0, NULL, NULL), WK_OK);
    assert_true(violation_says(vm, "DRV-CRASH-001", "read the register window of BAR0 at +0x30 without "
                                                    "READ_REGISTER_ULONG"));
    wk_vidmm_destroy(vm);
    release_dead();
}

static void byte_write(DXGKRNL_INTERFACE *k, const CM_RESOURCE_LIST *res)
{
    (void)k;
    PUCHAR regs = map_resource(memory_resource(res, 0), WK_GPU_REG_SIZE);
    WRITE_REGISTER_UCHAR(regs + WK_GPU_REG_RING_TAG, 1);
}

static void test_byte_write_is_refused(void **state)
{
    (void)state;
    struct wk_vidmm *vm = NULL;
    assert_int_not_equal(start_with(&vm, NULL, byte_write, NULL, 0, NULL, NULL), WK_OK);
    assert_true(violation_says(vm, "KM-API-001", "WRITE_REGISTER_UCHAR"));
    assert_true(violation_says(vm, "KM-API-001", "not this 8-bit write"));
    wk_vidmm_destroy(vm);
    release_dead();
}

/* ------------------------------------------------------------------ */
/* A binding's BARs                                                     */
/* ------------------------------------------------------------------ */

static struct {
    uint32_t calls;
    uint32_t bar[8];
    uint64_t offset[8];
    uint32_t value[8];
    int write[8];
} model;

static void note(uint32_t bar, uint64_t offset, uint32_t value, int write)
{
    if (model.calls < 8) {
        model.bar[model.calls] = bar;
        model.offset[model.calls] = offset;
        model.value[model.calls] = value;
        model.write[model.calls] = write;
    }
    model.calls++;
}

static uint32_t fake_read32(void *self, uint32_t bar, uint64_t offset)
{
    assert_ptr_equal(self, &model);
    note(bar, offset, 0, 0);
    return 0xB0000000u | (uint32_t)offset;
}

static void fake_write32(void *self, uint32_t bar, uint64_t offset, uint32_t value)
{
    assert_ptr_equal(self, &model);
    note(bar, offset, value, 1);
}

static const struct wk_registers_ops fake_registers = {
    .size = sizeof(struct wk_registers_ops), .read32 = fake_read32, .write32 = fake_write32,
};

static const struct wk_binding_bar binding_bars[] = {
    { .kind = WK_BAR_SEGMENT, .segment_id = 1, .physical = 0xE0000000ull, .size = 1ull << 20 },
    { .kind = WK_BAR_REGISTERS, .physical = 0xD0000000ull, .size = 0x2000 },
};

static struct {
    ULONG64 wide;
    ULONG plain;
} got;

static void use_binding_bars(DXGKRNL_INTERFACE *k, const CM_RESOURCE_LIST *res)
{
    (void)k;
    assert_int_equal(res->List[0].PartialResourceList.Count, 2);
    const CM_PARTIAL_RESOURCE_DESCRIPTOR *regs_bar = memory_resource(res, 1);
    assert_true((uint64_t)regs_bar->u.Memory.Start.QuadPart == 0xD0000000ull);
    assert_int_equal(regs_bar->u.Memory.Length, 0x2000);
    /* A window on the second page of the register BAR. */
    PHYSICAL_ADDRESS at;
    at.QuadPart = (LONGLONG)0xD0001000ull;
    PUCHAR regs = (PUCHAR)MmMapIoSpace(at, 0x1000, MmNonCached);
    assert_non_null(regs);
    got.wide = READ_REGISTER_ULONG64((volatile ULONG64 *)(regs + 0x100));
    WRITE_REGISTER_ULONG((volatile ULONG *)(regs + 0x8), 7);
    MmUnmapIoSpace(regs, 0x1000);
    /* The segment BAR is no register BAR. Attached here by hand, after the
     * model was built without making segment 1 mappable, it has no memory
     * the kit can show: refused, never a plain copy the kit would not see
     * (tests/test_vidmm_cpu_view.c maps one built from a binding). */
    got.plain = map_resource(memory_resource(res, 0), 0x1000) == NULL ? 42 : 0;
}

static void test_binding_register_model(void **state)
{
    (void)state;
    struct wk_vidmm *vm = NULL;
    memset(&model, 0, sizeof(model));
    assert_int_equal(start_with(&vm, NULL, use_binding_bars, binding_bars, 2, &fake_registers, &model), WK_OK);
    /* The 64-bit read: two 32-bit reads of BAR index 1, low half first. */
    assert_int_equal(model.calls, 3);
    assert_int_equal(model.bar[0], 1);
    assert_true(model.offset[0] == 0x1100 && !model.write[0]);
    assert_true(model.offset[1] == 0x1104 && !model.write[1]);
    assert_true(got.wide == (0xB0001100ull | 0xB0001104ull << 32));
    assert_true(model.offset[2] == 0x1008 && model.write[2] && model.value[2] == 7);
    assert_int_equal(got.plain, 42);
    wk_vidmm_destroy(vm);
}

/* ------------------------------------------------------------------ */
/* Other hardware, no binding                                           */
/* ------------------------------------------------------------------ */

static void use_plain_bar(DXGKRNL_INTERFACE *k, const CM_RESOURCE_LIST *res)
{
    (void)k;
    const CM_PARTIAL_RESOURCE_DESCRIPTOR *bar0 = memory_resource(res, 0);
    assert_true((uint64_t)bar0->u.Memory.Start.QuadPart == WK_VIDMM_BAR0_ADDRESS);
    assert_true(bar0->u.Memory.Length == WK_VIDMM_PLAIN_BAR_SIZE);
    PUCHAR regs = map_resource(bar0, 0x10000);
    assert_non_null(regs);
    got.plain = *(volatile ULONG *)(regs + 0x30); /* nothing answers: plain zeroed memory */
    WRITE_REGISTER_ULONG((volatile ULONG *)(regs + 0x30), 9);
    got.wide = READ_REGISTER_ULONG((volatile ULONG *)(regs + 0x30));
    MmUnmapIoSpace(regs, 0x10000);
}

static void test_other_hardware_gets_a_plain_bar(void **state)
{
    (void)state;
    struct wk_vidmm *vm = NULL;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.no_model = 1;
    assert_int_equal(start_with(&vm, &cfg, use_plain_bar, NULL, 0, NULL, NULL), WK_OK);
    assert_int_equal(got.plain, 0);
    assert_true(got.wide == 9);
    wk_vidmm_destroy(vm);
}

/* no_model changed after loading (as `--gpu auto` decides from the module's
 * marker), when DriverEntry already made the kit look at the BARs (a
 * contiguous block, which asks whether a GPU reads the pool): the list
 * follows no_model as it is at start, here the model's registers. */
static void test_no_model_changed_after_driver_entry(void **state)
{
    (void)state;
    struct wk_vidmm *vm = NULL;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    memset(&seen, 0, sizeof(seen));
    cfg.no_model = 1;
    before_start = use_bar0;
    contiguous_in_entry = 1;
    assert_int_equal(wk_vidmm_create(&cfg, &vm), WK_OK);
    assert_int_equal(wk_vidmm_attach(vm, entry), WK_OK);
    contiguous_in_entry = 0;
    wk_vidmm_set_no_model(vm, 0);
    assert_int_equal(wk_vidmm_start(vm), WK_OK);
    assert_int_equal(seen.id, WK_GPU_ID);
    MmUnmapIoSpace(seen.regs, WK_GPU_REG_SIZE);
    wk_vidmm_destroy(vm);
}

/* ------------------------------------------------------------------ */
/* Contiguous memory a device reaches                                   */
/* ------------------------------------------------------------------ */

static struct {
    PUCHAR ring;
    PHYSICAL_ADDRESS byte_1001;
    PVOID above_pool;
} ring;

static void alloc_ring(DXGKRNL_INTERFACE *k, const CM_RESOURCE_LIST *res)
{
    (void)res;
    const struct wk_gpu_desc *desc = k->WkGetGpuDescription(k->DeviceHandle);
    PHYSICAL_ADDRESS highest, lowest, none;
    highest.QuadPart = -1; /* MAXULONG64: no constraint */
    none.QuadPart = 0;
    ring.ring = (PUCHAR)MmAllocateContiguousMemory(2 * PAGE_SIZE, highest);
    assert_non_null(ring.ring);
    ring.ring[0x1001] = 0x5A;
    ring.byte_1001 = MmGetPhysicalAddress(ring.ring + 0x1001);
    /* Nothing of the pool lies at or above its end: NULL, as Windows. */
    lowest.QuadPart = (LONGLONG)((desc->sysmem_first_pfn + desc->sysmem_pages) << 12);
    ring.above_pool = MmAllocateContiguousMemorySpecifyCache(PAGE_SIZE, lowest, highest, none, MmCached);
}

static void test_contiguous_memory_is_where_the_gpu_reads(void **state)
{
    (void)state;
    struct wk_vidmm *vm = NULL;
    memset(&ring, 0, sizeof(ring));
    assert_int_equal(start_with(&vm, NULL, alloc_ring, NULL, 0, NULL, NULL), WK_OK);
    uint64_t pfn = (uint64_t)ring.byte_1001.QuadPart >> 12;
    const struct wk_gpu_desc *desc = wk_gpu_description(wk_vidmm_gpu(vm));
    assert_true(pfn >= desc->sysmem_first_pfn && pfn < desc->sysmem_first_pfn + desc->sysmem_pages);
    assert_int_equal((uint64_t)ring.byte_1001.QuadPart & 0xFFF, 1);
    const uint8_t *page = wk_gpu_sysmem_page(wk_vidmm_gpu(vm), pfn);
    assert_non_null(page);
    assert_int_equal(page[1], 0x5A); /* the GPU's view of the byte the driver wrote */
    assert_null(ring.above_pool);
    assert_true(sysmem_is_kit_page(vm, pfn)); /* no test step writes it */
    MmFreeContiguousMemory(ring.ring);        /* from outside a DDI, as a worker thread may */
    assert_false(sysmem_is_kit_page(vm, pfn));
    /* Outside any DDI: host memory, its address its own. */
    PHYSICAL_ADDRESS highest;
    highest.QuadPart = -1;
    PUCHAR host = (PUCHAR)MmAllocateContiguousMemory(PAGE_SIZE, highest);
    assert_non_null(host);
    assert_true(MmGetPhysicalAddress(host + 3).QuadPart == (LONGLONG)(uintptr_t)(host + 3));
    MmFreeContiguousMemory(host);
    wk_vidmm_destroy(vm);
}

/* ------------------------------------------------------------------ */
/* What is left at teardown: MEM-LEAK-001                               */
/* ------------------------------------------------------------------ */

/* StartDevice maps BAR0 and allocates a contiguous block; RemoveDevice
 * gives both back when kept.release says so. */
static void map_and_allocate(DXGKRNL_INTERFACE *k, const CM_RESOURCE_LIST *res)
{
    (void)k;
    PHYSICAL_ADDRESS none, highest;
    none.QuadPart = 0;
    highest.QuadPart = -1;
    kept.regs = map_resource(memory_resource(res, 0), WK_GPU_REG_SIZE);
    assert_non_null(kept.regs);
    kept.block = (PUCHAR)MmAllocateContiguousMemorySpecifyCache(KEPT_BLOCK_BYTES, none, highest, none, MmCached);
    assert_non_null(kept.block);
}

/* How many violations of `rule` contain `text`; the others are printed. */
static uint32_t violations_saying(const struct wk_vidmm *vm, const char *rule, const char *text)
{
    struct wk_violation v[16];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(vm, v, 16, &total), found = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(v[i].rule, rule) == 0 && strstr(v[i].message, text))
            found++;
        else
            print_message("also: %s\n", v[i].message);
    }
    return found;
}

static uint64_t violation_total(const struct wk_vidmm *vm)
{
    struct wk_violation v[1];
    uint64_t total = 0;
    (void)wk_vidmm_violations(vm, v, 1, &total);
    return total;
}

/* An adapter whose StartDevice maps BAR0 and allocates a block (with
 * no_model as given), stopped: what the teardown found. The memory is
 * given back after the verdict when the driver did not, while the adapter
 * that lent it lives, so no later test finds it in km.h's registry. */
static struct wk_vidmm *stopped_after_start(int no_model)
{
    struct wk_vidmm *vm = NULL;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.no_model = no_model;
    assert_int_equal(start_with(&vm, &cfg, map_and_allocate, NULL, 0, NULL, NULL), WK_OK);
    if (no_model) { /* km.h's own memory, not the kit's: a plain load reads it, its address its own */
        assert_int_equal(*(volatile ULONG *)(kept.regs + WK_GPU_REG_ID), 0);
        assert_true(MmGetPhysicalAddress(kept.block).QuadPart == (LONGLONG)(uintptr_t)kept.block);
    } else { /* the kit's: the model's registers, a page of the system pool */
        assert_int_equal(READ_REGISTER_ULONG((volatile ULONG *)(kept.regs + WK_GPU_REG_ID)), WK_GPU_ID);
        assert_true(sysmem_is_kit_page(vm, (uint64_t)MmGetPhysicalAddress(kept.block).QuadPart >> 12));
    }
    assert_int_equal(wk_vidmm_stop(vm), WK_OK);
    return vm;
}

static void end_kept(struct wk_vidmm *vm)
{
    release_kept();
    if (kept.entry_block)
        MmFreeContiguousMemory(kept.entry_block);
    wk_vidmm_destroy(vm);
    memset(&kept, 0, sizeof(kept));
}

static void expect_both_leaks(const struct wk_vidmm *vm)
{
    char map[320], block[320];
    snprintf(map, sizeof(map),
             "1 I/O space mapping (%u bytes) made by MmMapIoSpace[Ex] in DxgkDdiStartDevice still mapped after "
             "DxgkDdiRemoveDevice; MmUnmapIoSpace releases it",
             (unsigned)WK_GPU_REG_SIZE);
    snprintf(block, sizeof(block),
             "1 contiguous memory block (%u bytes) made by MmAllocateContiguousMemory[SpecifyCache] in "
             "DxgkDdiStartDevice still allocated after DxgkDdiRemoveDevice; MmFreeContiguousMemory[SpecifyCache] "
             "releases it",
             (unsigned)KEPT_BLOCK_BYTES);
    assert_int_equal(violations_saying(vm, "MEM-LEAK-001", map), 1);
    assert_int_equal(violations_saying(vm, "MEM-LEAK-001", block), 1);
    assert_int_equal(violation_total(vm), 2);
}

/* The kit's window onto the model's registers and a block of its system
 * pool, left: one line each. */
static void test_leak_of_the_kits_window_and_pool(void **state)
{
    (void)state;
    memset(&kept, 0, sizeof(kept));
    struct wk_vidmm *vm = stopped_after_start(0);
    expect_both_leaks(vm);
    end_kept(vm);
}

/* Hardware the kit does not model (no_model): km.h maps plain memory and
 * allocates the block itself; left, they are the same two lines. */
static void test_leak_of_plain_memory(void **state)
{
    (void)state;
    memset(&kept, 0, sizeof(kept));
    struct wk_vidmm *vm = stopped_after_start(1);
    expect_both_leaks(vm);
    end_kept(vm);
}

/* The same driver releasing both in its RemoveDevice: nothing to report,
 * on either path. */
static void test_released_in_remove_device(void **state)
{
    (void)state;
    for (int no_model = 0; no_model <= 1; no_model++) {
        memset(&kept, 0, sizeof(kept));
        kept.release = 1;
        struct wk_vidmm *vm = stopped_after_start(no_model);
        assert_null(kept.regs);
        assert_int_equal(violations_saying(vm, "MEM-LEAK-001", ""), 0);
        assert_int_equal(violation_total(vm), 0);
        end_kept(vm);
    }
}

/* A block DriverEntry allocated and never freed: a driver without
 * DxgkDdiUnload keeps it for its life (not counted); with one, it is left
 * after DxgkDdiUnload and counted, named as DriverEntry's. */
static void test_driver_entry_block_counts_with_unload(void **state)
{
    (void)state;
    for (int with_unload = 0; with_unload <= 1; with_unload++) {
        memset(&kept, 0, sizeof(kept));
        kept.release = 1;
        kept.in_entry = 1;
        kept.with_unload = with_unload;
        struct wk_vidmm *vm = stopped_after_start(0);
        assert_int_equal(kept.unloaded, with_unload);
        char want[320];
        snprintf(want, sizeof(want),
                 "1 contiguous memory block (%u bytes) made by MmAllocateContiguousMemory[SpecifyCache] in "
                 "DriverEntry still allocated after DxgkDdiUnload",
                 KEPT_ENTRY_BYTES);
        assert_int_equal(violations_saying(vm, "MEM-LEAK-001", want), with_unload);
        assert_int_equal(violation_total(vm), (uint64_t)with_unload);
        end_kept(vm);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bar0_window_reaches_the_model),
        cmocka_unit_test(test_window_reservation_is_reused),
        cmocka_unit_test(test_plain_access_names_the_register),
        cmocka_unit_test(test_byte_write_is_refused),
        cmocka_unit_test(test_binding_register_model),
        cmocka_unit_test(test_other_hardware_gets_a_plain_bar),
        cmocka_unit_test(test_no_model_changed_after_driver_entry),
        cmocka_unit_test(test_contiguous_memory_is_where_the_gpu_reads),
        cmocka_unit_test(test_leak_of_the_kits_window_and_pool),
        cmocka_unit_test(test_leak_of_plain_memory),
        cmocka_unit_test(test_released_in_remove_device),
        cmocka_unit_test(test_driver_entry_block_counts_with_unload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
