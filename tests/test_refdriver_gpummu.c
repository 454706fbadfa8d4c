/* SPDX-License-Identifier: MIT */
/*
 * tests/test_refdriver_gpummu.c - the GpuMmu build of the reference driver
 * (reference-impl/refdriver/gpummu.c, docs/refdriver.md "The GpuMmu
 * build") against a mini-kernel, as tests/test_refdriver.c runs the
 * physical build: the caps and the two GpuMmu queries field by field, the
 * process and root-table DDIs, and paging buffers of UPDATE_PAGE_TABLE and
 * FLUSH_TLB run on the kit's GPU, whose tables are then walked with a
 * wk_va_space (docs/gpu-model.md, "GPU virtual addresses") to see what
 * each virtual address reaches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wddmkit/driver.h"
#include "wddmkit/gpu.h"
#include "refdriver/refdriver.h" /* rd_context: where SetRootPageTable records the root */

NTSTATUS wk_refdriver_gpummu_DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* The reference adapter (docs/gpu-model.md): tables in segment 1 (the
 * first memory segment, what PAGETABLELEVELDESC names), pages in segment 2
 * and system memory. */
#define SEG1_BASE 0x100000ull
#define SEG2_BASE 0x400000ull
#define SYS_PFN 0x10000ull
#define ROOT_OFF 0x10000ull  /* segment-relative, as VidMm gives them */
#define DIR_OFF 0x11000ull
#define LEAF_OFF 0x12000ull
#define VA 0x4000201000ull   /* root index 256, directory index 1, leaf index 1 */
#define VA_PAGE(n) (VA + (uint64_t)(n) * 4096)

struct mk {
    struct wk_gpu *gpu;
    DRIVER_OBJECT driver;
    DRIVER_INITIALIZATION_DATA ddi;
    DEVICE_OBJECT pdo;
    DXGKRNL_INTERFACE dxgk;
    void *adapter;
};

static NTSTATUS mk_initialize(PDRIVER_OBJECT self, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init,
                              ULONG driver_abi)
{
    (void)path, (void)driver_abi;
    ((struct mk *)self->wk_owner)->ddi = *init;
    return STATUS_SUCCESS;
}

static ULONG mk_read_reg(const HANDLE h, ULONG offset)
{
    return wk_gpu_mmio_read32(((struct mk *)h)->gpu, offset);
}

static VOID mk_write_reg(const HANDLE h, ULONG offset, ULONG value)
{
    wk_gpu_mmio_write32(((struct mk *)h)->gpu, offset, value);
}

static const struct wk_gpu_desc *mk_description(const HANDLE h)
{
    (void)h;
    return wk_gpu_reference_desc();
}

static VOID mk_notify_interrupt(const HANDLE h, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *n)
{
    (void)h, (void)n;
}

static VOID mk_notify_dpc(const HANDLE h)
{
    (void)h;
}

static BOOLEAN mk_queue_dpc(HANDLE h)
{
    (void)h;
    return 1;
}

static int setup(void **state)
{
    struct mk *mk = calloc(1, sizeof(*mk));
    char why[160] = "";
    const struct wk_gpu_options opt = { .mappable_segments = 1u }; /* segment 1: the CPU view of the tables */
    if (!mk || wk_gpu_create_ex(wk_gpu_reference_desc(), &opt, &mk->gpu, why, sizeof(why)) != WK_OK)
        return -1;
    *state = mk;
    mk->driver.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    mk->driver.wk_initialize = mk_initialize;
    mk->driver.wk_owner = mk;
    mk->pdo.wk_magic = 0x4F445050u;
    mk->dxgk.Size = sizeof(mk->dxgk);
    mk->dxgk.Version = DXGKDDI_INTERFACE_VERSION;
    mk->dxgk.DeviceHandle = mk;
    mk->dxgk.DxgkCbNotifyInterrupt = mk_notify_interrupt;
    mk->dxgk.DxgkCbNotifyDpc = mk_notify_dpc;
    mk->dxgk.DxgkCbQueueDpc = mk_queue_dpc;
    mk->dxgk.WkReadRegister32 = mk_read_reg;
    mk->dxgk.WkWriteRegister32 = mk_write_reg;
    mk->dxgk.WkGetGpuDescription = mk_description;
    ULONG sources = 0, children = 0;
    if (wk_refdriver_gpummu_DriverEntry(&mk->driver, NULL) != STATUS_SUCCESS ||
        mk->ddi.DxgkDdiAddDevice(&mk->pdo, &mk->adapter) != STATUS_SUCCESS ||
        mk->ddi.DxgkDdiStartDevice(mk->adapter, NULL, &mk->dxgk, &sources, &children) != STATUS_SUCCESS)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    struct mk *mk = *state;
    if (!mk)
        return 0;
    if (mk->adapter) {
        mk->ddi.DxgkDdiStopDevice(mk->adapter);
        mk->ddi.DxgkDdiRemoveDevice(mk->adapter);
    }
    wk_gpu_destroy(mk->gpu);
    free(mk);
    return 0;
}

static NTSTATUS query(struct mk *mk, DXGK_QUERYADAPTERINFOTYPE type, const void *in, UINT in_size, void *out,
                      UINT out_size)
{
    DXGKARG_QUERYADAPTERINFO q;
    memset(&q, 0, sizeof(q));
    q.Type = type;
    q.pInputData = (void *)(uintptr_t)in;
    q.InputDataSize = in_size;
    q.pOutputData = out;
    q.OutputDataSize = out_size;
    return mk->ddi.DxgkDdiQueryAdapterInfo(mk->adapter, &q);
}

/* ------------------------------------------------------------------ */
/* Caps, queries, DDIs                                                  */
/* ------------------------------------------------------------------ */

static void test_driver_caps(void **state)
{
    struct mk *mk = *state;
    DXGK_DRIVERCAPS caps;
    memset(&caps, 0xEE, sizeof(caps));
    assert_int_equal(query(mk, DXGKQAITYPE_DRIVERCAPS, NULL, 0, &caps, sizeof(caps)), STATUS_SUCCESS);
    DXGK_VIDMMCAPS want;
    memset(&want, 0, sizeof(want));
    want.VirtualAddressingSupported = 1;
    want.GpuMmuSupported = 1;
    assert_memory_equal(&caps.MemoryManagementCaps, &want, sizeof(want));
    assert_int_equal(caps.WDDMVersion, DXGKDDI_WDDMv2_2);
    assert_int_equal(caps.SchedulingCaps.MultiEngineAware, 1);
    /* The table: the process, root and virtual-submission DDIs, not
     * GetRootPageTableSize (a 2-level tree's). */
    assert_non_null(mk->ddi.DxgkDdiCreateProcess);
    assert_non_null(mk->ddi.DxgkDdiDestroyProcess);
    assert_non_null(mk->ddi.DxgkDdiSetRootPageTable);
    assert_null(mk->ddi.DxgkDdiGetRootPageTableSize);
    assert_non_null(mk->ddi.DxgkDdiSubmitCommandVirtual);
    assert_non_null(mk->ddi.DxgkDdiRender); /* physical-mode contexts as before */
}

static void test_gpummu_caps(void **state)
{
    struct mk *mk = *state;
    DXGK_QUERYGPUMMUCAPSIN in = { 0 };
    DXGK_GPUMMUCAPS caps;
    memset(&caps, 0xEE, sizeof(caps));
    assert_int_equal(query(mk, DXGKQAITYPE_GPUMMUCAPS, &in, sizeof(in), &caps, sizeof(caps)), STATUS_SUCCESS);
    assert_int_equal(caps.Value, 0x1); /* ReadOnlyMemorySupported alone */
    assert_int_equal(caps.ReadOnlyMemorySupported, 1);
    assert_int_equal(caps.PageTableUpdateMode, DXGK_PAGETABLEUPDATE_GPU_PHYSICAL);
    assert_int_equal(caps.VirtualAddressBitCount, 39);
    assert_int_equal(caps.LeafPageTableSizeFor64KPagesInBytes, 4096);
    assert_int_equal(caps.PageTableLevelCount, 3);
    UINT legacy;
    memcpy(&legacy, &caps.LegacyBehaviors, sizeof(legacy));
    assert_int_equal(legacy, 0);

    in.PhysicalAdapterIndex = 1;
    assert_int_equal(query(mk, DXGKQAITYPE_GPUMMUCAPS, &in, sizeof(in), &caps, sizeof(caps)),
                     STATUS_INVALID_PARAMETER);
    in.PhysicalAdapterIndex = 0;
    assert_int_equal(query(mk, DXGKQAITYPE_GPUMMUCAPS, NULL, 0, &caps, sizeof(caps)), STATUS_INVALID_PARAMETER);
    assert_int_equal(query(mk, DXGKQAITYPE_GPUMMUCAPS, &in, 2, &caps, sizeof(caps)), STATUS_INVALID_PARAMETER);
    assert_int_equal(query(mk, DXGKQAITYPE_GPUMMUCAPS, &in, sizeof(in), &caps, sizeof(caps) - 1),
                     STATUS_BUFFER_TOO_SMALL);
}

static void test_level_desc(void **state)
{
    struct mk *mk = *state;
    for (USHORT level = 0; level < 3; level++) {
        DXGK_QUERYPAGETABLELEVELDESCIN in = { level, 0 };
        DXGK_PAGE_TABLE_LEVEL_DESC d;
        memset(&d, 0xEE, sizeof(d));
        assert_int_equal(query(mk, DXGKQAITYPE_PAGETABLELEVELDESC, &in, sizeof(in), &d, sizeof(d)), STATUS_SUCCESS);
        assert_int_equal(d.PageTableIndexBitCount, 9);
        assert_int_equal(d.PageTableSizeInBytes, 4096);
        assert_int_equal(d.PageTableAlignmentInBytes, 0);
        assert_int_equal(d.PageTableSegmentId, 1); /* the first memory segment */
        assert_int_equal(d.PagingProcessPageTableSegmentId, 1);
    }
    DXGK_QUERYPAGETABLELEVELDESCIN in = { 3, 0 };
    DXGK_PAGE_TABLE_LEVEL_DESC d;
    assert_int_equal(query(mk, DXGKQAITYPE_PAGETABLELEVELDESC, &in, sizeof(in), &d, sizeof(d)),
                     STATUS_INVALID_PARAMETER);
    in.LevelIndex = 0;
    in.PhysicalAdapterIndex = 1;
    assert_int_equal(query(mk, DXGKQAITYPE_PAGETABLELEVELDESC, &in, sizeof(in), &d, sizeof(d)),
                     STATUS_INVALID_PARAMETER);
    in.PhysicalAdapterIndex = 0;
    assert_int_equal(query(mk, DXGKQAITYPE_PAGETABLELEVELDESC, &in, sizeof(in), &d, sizeof(d) - 1),
                     STATUS_BUFFER_TOO_SMALL);
    assert_int_equal(query(mk, DXGKQAITYPE_PAGETABLELEVELDESC, NULL, 0, &d, sizeof(d)), STATUS_INVALID_PARAMETER);
}

static void test_processes(void **state)
{
    struct mk *mk = *state;
    DXGKARG_CREATEPROCESS args;
    memset(&args, 0, sizeof(args));
    args.hDxgkProcess = (HANDLE)(uintptr_t)0x9000;
    args.Flags.SystemProcess = 1;
    assert_int_equal(mk->ddi.DxgkDdiCreateProcess(mk->adapter, &args), STATUS_SUCCESS);
    HANDLE system = args.hKmdProcess;
    assert_non_null(system);
    args.Flags.Value = 0;
    args.hKmdProcess = NULL;
    assert_int_equal(mk->ddi.DxgkDdiCreateProcess(mk->adapter, &args), STATUS_SUCCESS);
    assert_non_null(args.hKmdProcess);
    assert_ptr_not_equal(args.hKmdProcess, system);
    HANDLE other = args.hKmdProcess;
    args.hKmdProcess = NULL;
    args.Flags.Value = 0x8; /* VirtualMachineWorkerProcess: WDDM 2.4, reserved to a 2.2 driver */
    assert_int_equal(mk->ddi.DxgkDdiCreateProcess(mk->adapter, &args), STATUS_INVALID_PARAMETER);
    assert_null(args.hKmdProcess);
    args.Flags.Value = 0;
    args.NumPasid = 1; /* and no array */
    assert_int_equal(mk->ddi.DxgkDdiCreateProcess(mk->adapter, &args), STATUS_INVALID_PARAMETER);
    assert_int_equal(mk->ddi.DxgkDdiCreateProcess(mk->adapter, NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(mk->ddi.DxgkDdiDestroyProcess(mk->adapter, other), STATUS_SUCCESS);
    assert_int_equal(mk->ddi.DxgkDdiDestroyProcess(mk->adapter, mk->adapter), STATUS_INVALID_PARAMETER);
    assert_int_equal(mk->ddi.DxgkDdiDestroyProcess(mk->adapter, NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(mk->ddi.DxgkDdiDestroyProcess(mk->adapter, system), STATUS_SUCCESS);
}

/* A device (the system one when `system`) and a context of it with
 * `flags`, made through the driver's DDIs. */
static void make_context(struct mk *mk, int system, DXGK_CREATECONTEXTFLAGS flags, DXGKARG_CREATEDEVICE *dev,
                         DXGKARG_CREATECONTEXT *ctx)
{
    memset(dev, 0, sizeof(*dev));
    dev->hDevice = (HANDLE)(uintptr_t)0xD0;
    dev->Flags.SystemDevice = system != 0;
    assert_int_equal(mk->ddi.DxgkDdiCreateDevice(mk->adapter, dev), STATUS_SUCCESS);
    memset(ctx, 0, sizeof(*ctx));
    ctx->hContext = (HANDLE)(uintptr_t)0xC0;
    ctx->Flags = flags;
    assert_int_equal(mk->ddi.DxgkDdiCreateContext(dev->hDevice, ctx), STATUS_SUCCESS);
}

/* DxgkDdiSetRootPageTable of context h: the root at ROOT_OFF of segment 1,
 * 512 entries; the arguments it was given. */
static DXGKARG_SETROOTPAGETABLE tell_root(struct mk *mk, HANDLE h)
{
    DXGKARG_SETROOTPAGETABLE root;
    memset(&root, 0, sizeof(root));
    root.hContext = h;
    root.Address.SegmentId = 1;
    root.Address.SegmentOffset = ROOT_OFF;
    root.NumEntries = 512;
    mk->ddi.DxgkDdiSetRootPageTable(mk->adapter, &root);
    return root;
}

static void test_set_root_page_table(void **state)
{
    struct mk *mk = *state;
    DXGKARG_CREATEDEVICE dev;
    DXGKARG_CREATECONTEXT ctx;
    DXGK_CREATECONTEXTFLAGS flags = { .Value = 0 };
    flags.SystemContext = 1;
    make_context(mk, 1, flags, &dev, &ctx);
    DXGKARG_SETROOTPAGETABLE root = tell_root(mk, ctx.hContext);
    const struct rd_context *c = ctx.hContext;
    assert_int_equal(c->root.SegmentId, 1);
    assert_int_equal(c->root.SegmentOffset, ROOT_OFF);
    assert_int_equal(c->root_entries, 512);
    root.hContext = dev.hDevice; /* not a context: ignored */
    root.NumEntries = 7;
    mk->ddi.DxgkDdiSetRootPageTable(mk->adapter, &root);
    assert_int_equal(c->root_entries, 512);
    mk->ddi.DxgkDdiSetRootPageTable(mk->adapter, NULL);
    assert_int_equal(mk->ddi.DxgkDdiDestroyContext(ctx.hContext), STATUS_SUCCESS);
    assert_int_equal(mk->ddi.DxgkDdiDestroyDevice(dev.hDevice), STATUS_SUCCESS);
}

/* SubmitCommandVirtual: refused (INVALID_PARAMETER, the one failure the
 * DDI has) before the context knows a root; then the doorbell carries the
 * root's GPU address (segment base + offset) and the buffer's virtual
 * address. No space of that root is attached to this bare GPU, so the
 * submission faults NO_ADDRESS_SPACE naming exactly the root the driver
 * made active; and the next physical submission has root 0 again. */
static void test_submit_command_virtual(void **state)
{
    struct mk *mk = *state;
    DXGKARG_CREATEDEVICE dev;
    DXGKARG_CREATECONTEXT ctx;
    DXGK_CREATECONTEXTFLAGS flags = { .Value = 0 };
    flags.VirtualAddressing = 1;
    make_context(mk, 0, flags, &dev, &ctx);
    DXGKARG_SUBMITCOMMANDVIRTUAL sub;
    memset(&sub, 0, sizeof(sub));
    sub.hContext = ctx.hContext;
    sub.DmaBufferVirtualAddress = 0x50000000ull;
    sub.DmaBufferSize = 64;
    sub.SubmissionFenceId = 7;
    assert_int_equal(mk->ddi.DxgkDdiSubmitCommandVirtual(mk->adapter, &sub), STATUS_INVALID_PARAMETER);
    assert_int_equal(wk_gpu_mmio_read32(mk->gpu, WK_GPU_REG_QUEUE_DEPTH), 0);
    (void)tell_root(mk, ctx.hContext);
    assert_int_equal(mk->ddi.DxgkDdiSubmitCommandVirtual(mk->adapter, &sub), STATUS_SUCCESS);
    assert_int_equal(wk_gpu_mmio_read32(mk->gpu, WK_GPU_REG_QUEUE_DEPTH), 1);
    assert_int_equal(wk_gpu_mmio_read32(mk->gpu, WK_GPU_REG_RING_ROOT_LO), 0);
    assert_int_equal(wk_gpu_run(mk->gpu, 0), 1);
    struct wk_gpu_fault log[WK_GPU_FAULT_LOG_SIZE];
    uint64_t total = 0;
    assert_int_equal(wk_gpu_faults(mk->gpu, log, WK_GPU_FAULT_LOG_SIZE, &total), 1);
    assert_int_equal(log[0].reason, WK_GPU_FAULT_NO_ADDRESS_SPACE);
    assert_int_equal(log[0].fault_addr, SEG1_BASE + ROOT_OFF);
    assert_int_equal(log[0].buffer_addr, 0x50000000ull);
    assert_int_equal(wk_gpu_mmio_read32(mk->gpu, WK_GPU_REG_COMPLETED_TAG), 7);
    assert_int_equal(mk->ddi.DxgkDdiDestroyContext(ctx.hContext), STATUS_SUCCESS);
    assert_int_equal(mk->ddi.DxgkDdiDestroyDevice(dev.hDevice), STATUS_SUCCESS);
}

/* ------------------------------------------------------------------ */
/* Paging buffers                                                       */
/* ------------------------------------------------------------------ */

/* VidMm's multipass loop (facts 5.1 P3, P4): fresh buffers of dma_size
 * bytes, each executed on the GPU, until SUCCESS; the passes it took. */
static unsigned run_paging(struct mk *mk, DXGKARG_BUILDPAGINGBUFFER *args, UINT dma_size)
{
    uint8_t *buf = malloc(dma_size);
    assert_non_null(buf);
    args->MultipassOffset = 0;
    for (unsigned pass = 1; pass < 1000; pass++) {
        args->pDmaBuffer = buf;
        args->DmaSize = dma_size;
        NTSTATUS st = mk->ddi.DxgkDdiBuildPagingBuffer(mk->adapter, args);
        uint64_t used = (uint64_t)((uint8_t *)args->pDmaBuffer - buf);
        assert_int_equal(used + args->DmaSize, dma_size);
        struct wk_gpu_fault f;
        if (wk_gpu_exec_bytes(mk->gpu, buf, used, 0x1000, &f) != WK_OK) {
            char line[200];
            wk_gpu_fault_format(&f, line, sizeof(line));
            print_error("paging buffer faulted: %s\n", line);
            fail();
        }
        if (st == STATUS_SUCCESS) {
            free(buf);
            return pass;
        }
        assert_int_equal(st, STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
        assert_true(used > 0); /* progress */
    }
    fail();
    return 0;
}

static DXGK_PTE pte(UINT segment, UINT64 page, int valid, int read_only)
{
    DXGK_PTE p;
    memset(&p, 0, sizeof(p));
    p.Valid = valid ? 1 : 0;
    p.ReadOnly = read_only ? 1 : 0;
    p.Segment = segment;
    p.PageAddress = page;
    return p;
}

/* An UPDATE_PAGE_TABLE of the table at segment 1 + table_off. */
static DXGKARG_BUILDPAGINGBUFFER update(UINT level, uint64_t table_off, UINT start, UINT count, DXGK_PTE *ptes)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_UPDATE_PAGE_TABLE;
    a.UpdatePageTable.PageTableLevel = level;
    a.UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = 1;
    a.UpdatePageTable.PageTableAddress.GpuPhysical.SegmentOffset = table_off;
    a.UpdatePageTable.pPageTableEntries = ptes;
    a.UpdatePageTable.StartIndex = start;
    a.UpdatePageTable.NumPageTableEntries = count;
    a.UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_GPU_PHYSICAL;
    return a;
}

/* Every table starts as garbage, then is set all invalid with one Repeat
 * entry (how VidMm initialises a table: 4.7), in buffers of 4 KiB: 512
 * WRITE64s take three. */
static void init_table(struct mk *mk, UINT level, uint64_t table_off)
{
    uint8_t garbage[4096];
    memset(garbage, 0xEF, sizeof(garbage));
    assert_int_equal(wk_gpu_write(mk->gpu, SEG1_BASE + table_off, garbage, sizeof(garbage)), WK_OK);
    DXGK_PTE invalid = pte(0, 0, 0, 0);
    DXGKARG_BUILDPAGINGBUFFER a = update(level, table_off, 0, 512, &invalid);
    a.UpdatePageTable.Flags.Repeat = 1;
    a.UpdatePageTable.Flags.InitialUpdate = 1;
    assert_int_equal(run_paging(mk, &a, 4096), 3);
}

/* The tree of the tests: root -> directory -> leaf for VA, and in the
 * leaf: page 0 read-only in segment 2 at +0x3000, page 1 the system page
 * SYS_PFN + 5, page 2 invalid. */
static void build_tree(struct mk *mk)
{
    init_table(mk, 2, ROOT_OFF);
    init_table(mk, 1, DIR_OFF);
    init_table(mk, 0, LEAF_OFF);
    DXGK_PTE dir = pte(1, DIR_OFF >> 12, 1, 0), leaf = pte(1, LEAF_OFF >> 12, 1, 0);
    DXGKARG_BUILDPAGINGBUFFER a = update(2, ROOT_OFF, (VA >> 30) & 511, 1, &dir);
    assert_int_equal(run_paging(mk, &a, 4096), 1);
    a = update(1, DIR_OFF, (VA >> 21) & 511, 1, &leaf);
    assert_int_equal(run_paging(mk, &a, 4096), 1);
    DXGK_PTE pages[3] = { pte(2, 3, 1, 1), pte(0, SYS_PFN + 5, 1, 0), pte(2, 9, 0, 0) };
    a = update(0, LEAF_OFF, (VA >> 12) & 511, 3, pages);
    assert_int_equal(run_paging(mk, &a, 24), 3); /* one WRITE64 (20 bytes) a buffer */
}

static struct wk_va_space *space(struct mk *mk)
{
    struct wk_va_space_config cfg = {
        .mem = wk_gpu_mem(mk->gpu), .mem_ops = wk_gpu_mem_ops(), .geometry = wk_gpu_mmu_geometry(),
        .decode = wk_gpu_mmu_decode, .root = SEG1_BASE + ROOT_OFF,
    };
    struct wk_va_space *s = NULL;
    char why[128];
    assert_int_equal(wk_va_space_create(&cfg, &s, why, sizeof(why)), WK_OK);
    return s;
}

static bool maps(struct wk_va_space *s, uint64_t va, uint64_t want_pa, uint32_t want_ro)
{
    uint64_t pa = 0;
    uint32_t ro = 9;
    struct wk_mem_fault f;
    if (wk_va_translate(s, va, &pa, &ro, &f) != 0) {
        print_error("0x%llx: fault %u at 0x%llx\n", (unsigned long long)va, f.reason, (unsigned long long)f.addr);
        return false;
    }
    if (pa != want_pa || ro != want_ro) {
        print_error("0x%llx: 0x%llx ro %u, expected 0x%llx ro %u\n", (unsigned long long)va, (unsigned long long)pa,
                    ro, (unsigned long long)want_pa, want_ro);
        return false;
    }
    return true;
}

static void test_update_page_table_builds_a_tree(void **state)
{
    struct mk *mk = *state;
    build_tree(mk);
    struct wk_va_space *s = space(mk);
    assert_true(maps(s, VA_PAGE(0) + 0x123, SEG2_BASE + 0x3123, 1));
    assert_true(maps(s, VA_PAGE(1) + 8, ((SYS_PFN + 5) << 12) + 8, 0));
    uint64_t pa;
    uint32_t ro;
    struct wk_mem_fault f;
    assert_int_equal(wk_va_translate(s, VA_PAGE(2), &pa, &ro, &f), -1); /* written invalid */
    assert_int_equal(f.reason, WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(wk_va_translate(s, VA_PAGE(3), &pa, &ro, &f), -1); /* initialised invalid */
    assert_int_equal(f.reason, WK_GPU_FAULT_VA_UNMAPPED);
    assert_int_equal(wk_va_translate(s, VA + (1ull << 30), &pa, &ro, &f), -1); /* another root entry */
    assert_int_equal(f.reason, WK_GPU_FAULT_VA_UNMAPPED);
    wk_va_space_destroy(s);
}

/* Repeat: pPageTableEntries[0] alone, in every slot, whatever follows it. */
static void test_update_repeat(void **state)
{
    struct mk *mk = *state;
    build_tree(mk);
    DXGK_PTE ptes[4] = { pte(2, 0x20, 1, 0), pte(2, 0x30, 1, 1), pte(0, SYS_PFN, 1, 0), pte(2, 0x40, 0, 0) };
    DXGKARG_BUILDPAGINGBUFFER a = update(0, LEAF_OFF, ((VA >> 12) & 511) + 4, 4, ptes);
    a.UpdatePageTable.Flags.Repeat = 1;
    assert_int_equal(run_paging(mk, &a, 4096), 1);
    struct wk_va_space *s = space(mk);
    for (int i = 4; i < 8; i++)
        assert_true(maps(s, VA_PAGE(i) + 4, SEG2_BASE + 0x20004, 0));
    uint64_t pa;
    uint32_t ro;
    assert_int_equal(wk_va_translate(s, VA_PAGE(8), &pa, &ro, NULL), -1);
    wk_va_space_destroy(s);
}

/* A FLUSH_TLB buffer flushes the stale line of an attached space whose
 * root it names; before it, the GPU still uses the line. */
static void test_flush_tlb(void **state)
{
    struct mk *mk = *state;
    build_tree(mk);
    struct wk_va_space *s = space(mk);
    assert_int_equal(wk_gpu_va_attach(mk->gpu, s), WK_OK);
    uint8_t cmds[64];
    struct wk_gpu_writer w;
    struct wk_exec_fault f;
    wk_gpu_writer_init(&w, cmds, sizeof(cmds));
    assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(1) + 0x10, 0x11111111u), WK_OK);
    assert_int_equal(wk_gpu_exec_processor_va(mk->gpu, s, wk_gpu_kit_processor(), NULL, 0x7000000000ull, 0, w.used,
                                              cmds, 0, 1, &f, NULL),
                     WK_OK);
    /* Page 1 moves to segment 2 + 0x7000: the line is stale. */
    DXGK_PTE moved = pte(2, 7, 1, 0);
    DXGKARG_BUILDPAGINGBUFFER a = update(0, LEAF_OFF, ((VA >> 12) & 511) + 1, 1, &moved);
    assert_int_equal(run_paging(mk, &a, 4096), 1);
    struct wk_va_counters c;
    for (int round = 0; round < 2; round++) {
        wk_gpu_writer_init(&w, cmds, sizeof(cmds));
        assert_int_equal(wk_gpu_emit_write32(&w, VA_PAGE(1) + 0x20 + 4 * (uint64_t)round, 0x22222222u), WK_OK);
        assert_int_equal(wk_gpu_exec_processor_va(mk->gpu, s, wk_gpu_kit_processor(), NULL, 0x7000000000ull, 0,
                                                  w.used, cmds, 0, 1, &f, NULL),
                         WK_OK);
        uint8_t got[4];
        uint64_t at = round == 0 ? ((SYS_PFN + 5) << 12) + 0x20 : SEG2_BASE + 0x7024; /* stale, then fresh */
        assert_int_equal(wk_gpu_read(mk->gpu, at, got, 4), WK_OK);
        assert_int_equal(got[0] | got[1] << 8 | got[2] << 16 | (uint32_t)got[3] << 24, 0x22222222u);
        if (round == 1)
            break;
        memset(&a, 0, sizeof(a));
        a.Operation = DXGK_OPERATION_FLUSH_TLB;
        a.FlushTlb.RootPageTableAddress.SegmentId = 1;
        a.FlushTlb.RootPageTableAddress.SegmentOffset = ROOT_OFF;
        a.FlushTlb.StartVirtualAddress = VA_PAGE(1);
        a.FlushTlb.EndVirtualAddress = VA_PAGE(2);
        assert_int_equal(run_paging(mk, &a, 4096), 1);
        wk_va_counters(s, &c);
        assert_int_equal(c.flushes, 1);
    }
    wk_va_counters(s, &c);
    assert_int_equal(c.stale_accesses, 1);
    /* A FLUSH_TLB that fits no buffer of 8 bytes asks for another. */
    uint8_t tiny[8];
    a.pDmaBuffer = tiny;
    a.DmaSize = sizeof(tiny);
    a.MultipassOffset = 0;
    assert_int_equal(mk->ddi.DxgkDdiBuildPagingBuffer(mk->adapter, &a), STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    assert_int_equal(a.DmaSize, sizeof(tiny));
    assert_int_equal(wk_gpu_va_detach(mk->gpu, s), WK_OK);
    wk_va_space_destroy(s);
}

/* The paging process's tables at start-up: CPU_VIRTUAL and no DMA buffer,
 * written at once through the CPU's view of the table (4.2). */
static void test_update_by_cpu(void **state)
{
    struct mk *mk = *state;
    void *view = NULL;
    assert_int_equal(wk_gpu_segment_map(mk->gpu, 1, LEAF_OFF, 4096, &view), WK_OK);
    memset(view, 0xEF, 4096);
    DXGK_PTE ptes[2] = { pte(2, 0x11, 1, 1), pte(0, SYS_PFN + 2, 1, 0) };
    DXGKARG_BUILDPAGINGBUFFER a = update(0, 0, 10, 2, ptes);
    a.UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_CPU_VIRTUAL;
    a.UpdatePageTable.PageTableAddress.CpuVirtual = view;
    a.pDmaBuffer = NULL;
    a.DmaSize = 0;
    assert_int_equal(mk->ddi.DxgkDdiBuildPagingBuffer(mk->adapter, &a), STATUS_SUCCESS);
    assert_null(a.pDmaBuffer);
    uint8_t got[24];
    assert_int_equal(wk_gpu_read(mk->gpu, SEG1_BASE + LEAF_OFF + 10 * 8, got, sizeof(got)), WK_OK);
    uint64_t e[3];
    memcpy(e, got, sizeof(e)); /* the host is little-endian, as the kit's builds are */
    assert_int_equal(e[0], wk_gpu_mmu_entry(SEG2_BASE + 0x11000, WK_GPU_PTE_VALID | WK_GPU_PTE_READ_ONLY));
    assert_int_equal(e[1], wk_gpu_mmu_entry((SYS_PFN + 2) << 12, WK_GPU_PTE_VALID));
    assert_int_equal(e[2], 0xEFEFEFEFEFEFEFEFull); /* untouched */
    assert_int_equal(wk_gpu_segment_unmap(mk->gpu, view), WK_OK);
}

/* What the kernel must not send is traced and nothing written (the DDI
 * cannot fail): Reserved0, a reserved flag, GPU_VIRTUAL (not the caps'
 * mode), a page outside its segment, a table past its end. */
static void test_update_refuses_bad_input(void **state)
{
    struct mk *mk = *state;
    DXGK_PTE p = pte(2, 3, 1, 0), outside = pte(2, 0x100, 1, 0); /* segment 2 is 1 MiB: page 0x100 is past it */
    uint8_t buf[256];
    for (int k = 0; k < 6; k++) {
        DXGKARG_BUILDPAGINGBUFFER a = update(0, LEAF_OFF, 0, 1, &p);
        switch (k) {
        case 0: a.UpdatePageTable.Reserved0 = 1; break;
        case 1: memset(&a.UpdatePageTable.Flags, 0x10, 1); break; /* bit 4: reserved at 2.2 */
        case 2: a.UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_GPU_VIRTUAL; break;
        case 3: a.UpdatePageTable.pPageTableEntries = &outside; break;
        case 4: a.UpdatePageTable.StartIndex = 512; break;
        default: a.UpdatePageTable.PageTableLevel = 3; break;
        }
        a.pDmaBuffer = buf;
        a.DmaSize = sizeof(buf);
        assert_int_equal(mk->ddi.DxgkDdiBuildPagingBuffer(mk->adapter, &a), STATUS_SUCCESS);
        if (a.DmaSize != sizeof(buf)) {
            print_error("case %d: %u bytes written\n", k, (unsigned)(sizeof(buf) - a.DmaSize));
            fail();
        }
    }
    /* The same update, well formed, writes one WRITE64. */
    DXGKARG_BUILDPAGINGBUFFER a = update(0, LEAF_OFF, 0, 1, &p);
    a.pDmaBuffer = buf;
    a.DmaSize = sizeof(buf);
    assert_int_equal(mk->ddi.DxgkDdiBuildPagingBuffer(mk->adapter, &a), STATUS_SUCCESS);
    assert_int_equal(a.DmaSize, sizeof(buf) - 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_driver_caps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpummu_caps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_level_desc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_processes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_root_page_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_submit_command_virtual, setup, teardown),
        cmocka_unit_test_setup_teardown(test_update_page_table_builds_a_tree, setup, teardown),
        cmocka_unit_test_setup_teardown(test_update_repeat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flush_tlb, setup, teardown),
        cmocka_unit_test_setup_teardown(test_update_by_cpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_update_refuses_bad_input, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
