/* SPDX-License-Identifier: MIT */
/*
 * tests/test_refdriver.c - the reference driver (reference-impl/refdriver)
 * against a mini-kernel.
 *
 * The mini-kernel is the least of dxgkrnl that the DDIs need: a
 * DRIVER_OBJECT whose wk_initialize captures the DDI table, a
 * DXGKRNL_INTERFACE whose register callbacks reach a wk_gpu built from
 * wk_gpu_reference_desc(), a recorder for DxgkCbNotifyInterrupt/NotifyDpc,
 * and context-allocation callbacks that place the allocation at a fixed GPU
 * address and run the InitContextResource / UpdateContextAllocation paging
 * operations through the driver, as VidMm does. The real kernel
 * (reference-impl/vidmm) checks far more; these tests prove the driver's
 * own behaviour: every DMA buffer it builds is executed on the model and
 * its effect compared with what the DDI asked for.
 *
 * Checks are bool-returning helpers that print what differs (drm_mm_test
 * style). Buffers handed to the driver are followed by a canary, checked
 * after every call. The randomised render test takes its seed from
 * WK_TEST_SEED when set.
 */
#include <inttypes.h>
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
#include "reference.h"
#include "wddmkit/umd.h"

/* The reference adapter (docs/gpu-model.md). */
#define SEG1_BASE 0x100000ull
#define SEG2_BASE 0x400000ull
#define APER_BASE 0x800000ull
#define APER_ID 3u
#define SYS_PFN 0x10000ull
#define PFN_ADDR(pfn) ((uint64_t)(pfn) << 12)

#define CANARY 64u
#define CANARY_BYTE 0xA5u
#define MAX_IRQ 16u
#define MAX_CTXALLOC 16u
/* Where the mini-kernel puts context allocations: the top of segment 1. */
#define CTXALLOC_BASE 0x1E0000ull

/* ------------------------------------------------------------------ */
/* Mini-kernel                                                          */
/* ------------------------------------------------------------------ */

struct ctxalloc {
    DXGKARGCB_CREATECONTEXTALLOCATION args; /* as the driver asked */
    uint64_t gpu_address;
    int live;
};

struct mk {
    struct wk_gpu *gpu;
    DRIVER_OBJECT driver;
    DRIVER_INITIALIZATION_DATA ddi;
    int initialized;
    DEVICE_OBJECT pdo;
    DXGKRNL_INTERFACE dxgk;
    void *adapter;
    int started;
    uint32_t id_override;           /* non-zero: the ID register reads this */
    int no_description;
    UINT paging_private_size;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA irq[MAX_IRQ];
    unsigned irq_count, dpc_count, dpc_queued;
    struct ctxalloc ca[MAX_CTXALLOC];
    unsigned ca_count, updates, destroys;
    int fail_create_ctxalloc;
};

static struct mk *mk_of(HANDLE h)
{
    return (struct mk *)h;
}

static NTSTATUS mk_initialize(PDRIVER_OBJECT self, PUNICODE_STRING path,
                              const DRIVER_INITIALIZATION_DATA *init, ULONG driver_abi)
{
    (void)path;
    (void)driver_abi;
    struct mk *mk = self->wk_owner;
    mk->ddi = *init;
    mk->initialized = 1;
    return STATUS_SUCCESS;
}

static ULONG mk_read_reg(const HANDLE h, ULONG offset)
{
    struct mk *mk = mk_of(h);
    if (offset == WK_GPU_REG_ID && mk->id_override)
        return mk->id_override;
    return wk_gpu_mmio_read32(mk->gpu, offset);
}

static VOID mk_write_reg(const HANDLE h, ULONG offset, ULONG value)
{
    wk_gpu_mmio_write32(mk_of(h)->gpu, offset, value);
}

static const struct wk_gpu_desc *mk_description(const HANDLE h)
{
    return mk_of(h)->no_description ? NULL : wk_gpu_reference_desc();
}

static VOID mk_notify_interrupt(const HANDLE h, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *n)
{
    struct mk *mk = mk_of(h);
    if (mk->irq_count < MAX_IRQ)
        mk->irq[mk->irq_count] = *n;
    mk->irq_count++;
}

static VOID mk_notify_dpc(const HANDLE h)
{
    mk_of(h)->dpc_count++;
}

static BOOLEAN mk_queue_dpc(HANDLE h)
{
    mk_of(h)->dpc_queued++;
    return 1; /* TRUE */
}

static bool run_paging(struct mk *mk, DXGKARG_BUILDPAGINGBUFFER *args, UINT dma_size,
                       unsigned *passes);

static HANDLE ca_handle(unsigned index)
{
    return (HANDLE)(uintptr_t)(0xCA000 + index);
}

static struct ctxalloc *ca_find(struct mk *mk, HANDLE h)
{
    for (unsigned i = 0; i < mk->ca_count; i++)
        if (ca_handle(i) == h && mk->ca[i].live)
            return &mk->ca[i];
    return NULL;
}

/* VidMm makes the allocation resident and initialises it (facts 5.1 P19).
 * Device allocations are named by the kernel handle, GPU context ones by
 * the driver's: the driver must find both. */
static bool mk_init_context_resource(struct mk *mk, unsigned index)
{
    struct ctxalloc *ca = &mk->ca[index];
    uint8_t garbage[4096];
    memset(garbage, 0xEE, sizeof(garbage));
    if (wk_gpu_write(mk->gpu, ca->gpu_address, garbage, sizeof(garbage)) != WK_OK)
        return false;
    DXGKARG_BUILDPAGINGBUFFER args;
    memset(&args, 0, sizeof(args));
    args.Operation = DXGK_OPERATION_INIT_CONTEXT_RESOURCE;
    args.InitContextResource.hAllocation = ca->args.ContextAllocationFlags.SharedAcrossContexts
                                               ? ca_handle(index)
                                               : ca->args.hDriverAllocation;
    args.InitContextResource.Destination.SegmentId = 1;
    args.InitContextResource.Destination.SegmentAddress.QuadPart = (LONGLONG)ca->gpu_address;
    return run_paging(mk, &args, 4096, NULL);
}

static NTSTATUS mk_create_ctxalloc(const HANDLE h, DXGKARGCB_CREATECONTEXTALLOCATION *args)
{
    struct mk *mk = mk_of(h);
    if (mk->fail_create_ctxalloc || mk->ca_count == MAX_CTXALLOC)
        return STATUS_NO_MEMORY;
    unsigned i = mk->ca_count++;
    mk->ca[i].args = *args;
    mk->ca[i].gpu_address = CTXALLOC_BASE + 0x1000ull * i;
    mk->ca[i].live = 1;
    args->hAllocation = ca_handle(i);
    if (!mk_init_context_resource(mk, i))
        return STATUS_UNSUCCESSFUL;
    return STATUS_SUCCESS;
}

static NTSTATUS mk_destroy_ctxalloc(const HANDLE h, const HANDLE hAllocation)
{
    struct mk *mk = mk_of(h);
    struct ctxalloc *ca = ca_find(mk, hAllocation);
    if (!ca)
        return STATUS_INVALID_PARAMETER;
    ca->live = 0;
    mk->destroys++;
    return STATUS_SUCCESS;
}

/* A6: the update runs as paging operation 13 before the callback returns. */
static NTSTATUS mk_update_ctxalloc(const HANDLE h, const DXGKARGCB_UPDATECONTEXTALLOCATION *upd)
{
    struct mk *mk = mk_of(h);
    struct ctxalloc *ca = ca_find(mk, upd->hAllocation);
    if (!ca)
        return STATUS_INVALID_PARAMETER;
    DXGKARG_BUILDPAGINGBUFFER args;
    memset(&args, 0, sizeof(args));
    args.Operation = DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION;
    args.UpdateContextAllocation.ContextAllocation = ca->gpu_address;
    args.UpdateContextAllocation.ContextAllocationSize = ca->args.Size;
    args.UpdateContextAllocation.pDriverPrivateData = upd->pPrivateDriverData;
    args.UpdateContextAllocation.DriverPrivateDataSize = upd->PrivateDriverDataSize;
    mk->updates++;
    return run_paging(mk, &args, 4096, NULL) ? STATUS_SUCCESS : STATUS_UNSUCCESSFUL;
}

static void mk_fill_interface(struct mk *mk)
{
    memset(&mk->dxgk, 0, sizeof(mk->dxgk));
    mk->dxgk.Size = sizeof(mk->dxgk);
    mk->dxgk.Version = DXGKDDI_INTERFACE_VERSION;
    mk->dxgk.DeviceHandle = mk;
    mk->dxgk.DxgkCbNotifyInterrupt = mk_notify_interrupt;
    mk->dxgk.DxgkCbNotifyDpc = mk_notify_dpc;
    mk->dxgk.DxgkCbQueueDpc = mk_queue_dpc;
    mk->dxgk.DxgkCbCreateContextAllocation = mk_create_ctxalloc;
    mk->dxgk.DxgkCbDestroyContextAllocation = mk_destroy_ctxalloc;
    mk->dxgk.DxgkCbUpdateContextAllocation = mk_update_ctxalloc;
    mk->dxgk.WkReadRegister32 = mk_read_reg;
    mk->dxgk.WkWriteRegister32 = mk_write_reg;
    mk->dxgk.WkGetGpuDescription = mk_description;
}

/* DriverEntry + AddDevice; StartDevice is separate (some tests fail it). */
static bool mk_load(struct mk *mk)
{
    char why[160] = "";
    if (wk_gpu_create(wk_gpu_reference_desc(), &mk->gpu, why, sizeof(why)) != WK_OK) {
        print_error("wk_gpu_create: %s\n", why);
        return false;
    }
    mk->driver.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    mk->driver.wk_initialize = mk_initialize;
    mk->driver.wk_owner = mk;
    mk->pdo.wk_magic = 0x4F445050u;
    mk_fill_interface(mk);
    if (wk_refdriver_DriverEntry(&mk->driver, NULL) != STATUS_SUCCESS || !mk->initialized)
        return false;
    return mk->ddi.DxgkDdiAddDevice(&mk->pdo, &mk->adapter) == STATUS_SUCCESS && mk->adapter;
}

static NTSTATUS mk_start(struct mk *mk)
{
    ULONG sources = 99, children = 99;
    NTSTATUS st = mk->ddi.DxgkDdiStartDevice(mk->adapter, NULL, &mk->dxgk, &sources, &children);
    if (st == STATUS_SUCCESS) {
        mk->started = 1;
        assert_int_equal(sources, 0);
        assert_int_equal(children, 0);
    }
    return st;
}

static NTSTATUS query(struct mk *mk, DXGK_QUERYADAPTERINFOTYPE type, void *out, UINT size)
{
    DXGKARG_QUERYADAPTERINFO q;
    memset(&q, 0, sizeof(q));
    q.Type = type;
    q.pOutputData = out;
    q.OutputDataSize = size;
    return mk->ddi.DxgkDdiQueryAdapterInfo(mk->adapter, &q);
}

static int setup(void **state)
{
    struct mk *mk = calloc(1, sizeof(*mk));
    if (!mk)
        return -1;
    *state = mk;
    if (!mk_load(mk) || mk_start(mk) != STATUS_SUCCESS)
        return -1;
    DXGK_QUERYSEGMENTOUT3 out;
    memset(&out, 0, sizeof(out));
    if (query(mk, DXGKQAITYPE_QUERYSEGMENT3, &out, sizeof(out)) != STATUS_SUCCESS)
        return -1;
    DXGK_SEGMENTDESCRIPTOR3 d[3];
    out.pSegmentDescriptor = d;
    if (query(mk, DXGKQAITYPE_QUERYSEGMENT3, &out, sizeof(out)) != STATUS_SUCCESS)
        return -1;
    mk->paging_private_size = out.PagingBufferPrivateDataSize;
    return 0;
}

static int teardown(void **state)
{
    struct mk *mk = *state;
    if (!mk)
        return 0;
    if (mk->adapter) {
        if (mk->started)
            mk->ddi.DxgkDdiStopDevice(mk->adapter);
        mk->ddi.DxgkDdiRemoveDevice(mk->adapter);
    }
    if (mk->gpu)
        wk_gpu_destroy(mk->gpu);
    free(mk);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Checks                                                               */
/* ------------------------------------------------------------------ */

static bool expect_u64(uint64_t got, uint64_t want, const char *what, int line)
{
    if (got == want)
        return true;
    print_error("line %d: %s: expected 0x%" PRIx64 " (%" PRIu64 "), got 0x%" PRIx64 " (%" PRIu64
                ")\n", line, what, want, want, got, got);
    return false;
}
#define EXPECT_U64(got, want) \
    assert_true(expect_u64((uint64_t)(got), (uint64_t)(want), #got, __LINE__))
#define EXPECT_STATUS(got, want) \
    assert_true(expect_u64((uint32_t)(got), (uint32_t)(want), #got, __LINE__))

/* Memory at addr equals expected; prints the first difference. */
static bool expect_mem(struct mk *mk, uint64_t addr, const void *expected, size_t len)
{
    uint8_t *got = malloc(len ? len : 1);
    if (!got)
        return false;
    wk_status st = wk_gpu_read(mk->gpu, addr, got, len);
    bool ok = st == WK_OK;
    if (!ok)
        print_error("read 0x%" PRIx64 "+%zu: %s\n", addr, len, wk_status_name(st));
    for (size_t i = 0; ok && i < len; i++) {
        if (got[i] != ((const uint8_t *)expected)[i]) {
            print_error("memory 0x%" PRIx64 " (+0x%zx): expected 0x%02x, got 0x%02x\n", addr + i,
                        i, ((const uint8_t *)expected)[i], got[i]);
            ok = false;
        }
    }
    free(got);
    return ok;
}

static bool expect_fill(struct mk *mk, uint64_t addr, size_t len, uint32_t pattern)
{
    uint8_t *want = malloc(len);
    if (!want)
        return false;
    for (size_t i = 0; i < len; i++)
        want[i] = (uint8_t)(pattern >> (8 * (i % 4)));
    bool ok = expect_mem(mk, addr, want, len);
    free(want);
    return ok;
}

static bool canary_intact(const uint8_t *p, size_t len, const char *what)
{
    for (size_t i = 0; i < len; i++) {
        if (p[i] != CANARY_BYTE) {
            print_error("%s: canary byte %zu overwritten (0x%02x)\n", what, i, p[i]);
            return false;
        }
    }
    return true;
}

static void pattern_bytes(uint8_t *buf, size_t len, uint32_t seed)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = (uint8_t)((i * 131u + seed * 7u + (i >> 8)) | 1u);
}

static void write_mem(struct mk *mk, uint64_t addr, const void *buf, size_t len)
{
    assert_int_equal(wk_gpu_write(mk->gpu, addr, buf, len), WK_OK);
}

static bool exec_ok(struct mk *mk, const uint8_t *buf, uint64_t len)
{
    struct wk_gpu_fault f;
    if (wk_gpu_exec_bytes(mk->gpu, buf, len, 0x1000, &f) == WK_OK)
        return true;
    char line[200];
    wk_gpu_fault_format(&f, line, sizeof(line));
    print_error("DMA buffer faulted: %s\n", line);
    return false;
}

/* ------------------------------------------------------------------ */
/* Paging: the multipass loop the kernel runs                           */
/* ------------------------------------------------------------------ */

/*
 * Calls BuildPagingBuffer with fresh buffers of dma_size bytes until it
 * returns SUCCESS, executing each partial buffer, exactly as VidMm does
 * (facts 5.1 P3, P4): the same arguments each time, MultipassOffset as the
 * driver left it. Checks after every call: status allowed, pDmaBuffer and
 * DmaSize moved together within the buffer, canary intact, the operation's
 * [in] fields unchanged, progress made.
 */
static bool paging_pass(struct mk *mk, DXGKARG_BUILDPAGINGBUFFER *args, UINT dma_size,
                        NTSTATUS *st)
{
    uint8_t *buf = malloc(dma_size + CANARY);
    uint8_t *priv = calloc(1, mk->paging_private_size + 1);
    if (!buf || !priv)
        return false;
    memset(buf, CANARY_BYTE, dma_size + CANARY);
    DXGKARG_BUILDPAGINGBUFFER before;
    args->pDmaBuffer = buf;
    args->DmaSize = dma_size;
    args->pDmaBufferPrivateData = priv;
    args->DmaBufferPrivateDataSize = mk->paging_private_size;
    memcpy(&before, args, sizeof(before));
    *st = mk->ddi.DxgkDdiBuildPagingBuffer(mk->adapter, args);
    uint64_t used = (uint64_t)((uint8_t *)args->pDmaBuffer - buf);
    bool ok = (*st == STATUS_SUCCESS || *st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) &&
              used <= dma_size && args->DmaSize == dma_size - used &&
              canary_intact(buf + dma_size, CANARY, "paging buffer") &&
              memcmp(&before.Reserved, &args->Reserved, sizeof(args->Reserved)) == 0 &&
              args->Operation == before.Operation && args->pDmaBufferPrivateData == priv;
    if (!ok)
        print_error("paging op %d: status 0x%08x, used %" PRIu64 " of %u, DmaSize %u\n",
                    (int)args->Operation, (unsigned)*st, used, dma_size, args->DmaSize);
    if (ok && *st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER && used == 0 &&
        args->MultipassOffset == before.MultipassOffset) {
        print_error("paging op %d stalls (no progress in a fresh buffer)\n", (int)args->Operation);
        ok = false;
    }
    ok = ok && exec_ok(mk, buf, used);
    free(buf);
    free(priv);
    return ok;
}

static bool run_paging(struct mk *mk, DXGKARG_BUILDPAGINGBUFFER *args, UINT dma_size,
                       unsigned *passes)
{
    args->MultipassOffset = 0;
    for (unsigned pass = 1; pass <= 4096; pass++) {
        NTSTATUS st;
        if (!paging_pass(mk, args, dma_size, &st))
            return false;
        if (st == STATUS_SUCCESS) {
            if (passes)
                *passes = pass;
            return true;
        }
    }
    print_error("paging op %d did not finish in 4096 passes\n", (int)args->Operation);
    return false;
}

/* One call into a big buffer: what the driver writes for an operation. */
static NTSTATUS build_once(struct mk *mk, DXGKARG_BUILDPAGINGBUFFER *args, uint8_t *buf,
                           UINT size, uint64_t *used)
{
    args->pDmaBuffer = buf;
    args->DmaSize = size;
    args->MultipassOffset = 0;
    NTSTATUS st = mk->ddi.DxgkDdiBuildPagingBuffer(mk->adapter, args);
    *used = (uint64_t)((uint8_t *)args->pDmaBuffer - buf);
    return st;
}

/* An MDL over scattered system pages. */
struct test_mdl {
    MDL mdl;
    PFN_NUMBER pfns[16];
};

static void make_mdl(struct test_mdl *m, const unsigned *page_numbers, unsigned count)
{
    memset(m, 0, sizeof(*m));
    for (unsigned i = 0; i < count; i++)
        m->pfns[i] = SYS_PFN + page_numbers[i];
    m->mdl.wk_byte_count = count * 4096u;
    m->mdl.wk_page_count = count;
    m->mdl.wk_pfns = m->pfns;
}

static const unsigned scattered[8] = { 7, 3, 12, 5, 30, 1, 22, 9 };

/* ------------------------------------------------------------------ */
/* Objects                                                              */
/* ------------------------------------------------------------------ */

static WK_ALLOCATION_REQUEST request(UINT64 size)
{
    WK_ALLOCATION_REQUEST r;
    memset(&r, 0, sizeof(r));
    r.Magic = WK_ALLOCATION_REQUEST_MAGIC;
    r.Version = WK_ALLOCATION_REQUEST_VERSION;
    r.Size = size;
    return r;
}

static NTSTATUS create_allocation(struct mk *mk, const WK_ALLOCATION_REQUEST *r,
                                  DXGK_ALLOCATIONINFO *info)
{
    memset(info, 0, sizeof(*info));
    info->pPrivateDriverData = (void *)r;
    info->PrivateDriverDataSize = sizeof(*r);
    DXGKARG_CREATEALLOCATION args;
    memset(&args, 0, sizeof(args));
    args.NumAllocations = 1;
    args.pAllocationInfo = info;
    return mk->ddi.DxgkDdiCreateAllocation(mk->adapter, &args);
}

static void destroy_allocation(struct mk *mk, HANDLE h)
{
    DXGKARG_DESTROYALLOCATION args;
    memset(&args, 0, sizeof(args));
    args.NumAllocations = 1;
    args.pAllocationList = &h;
    assert_int_equal(mk->ddi.DxgkDdiDestroyAllocation(mk->adapter, &args), STATUS_SUCCESS);
}

static HANDLE new_allocation(struct mk *mk, UINT64 size)
{
    WK_ALLOCATION_REQUEST r = request(size);
    DXGK_ALLOCATIONINFO info;
    assert_int_equal(create_allocation(mk, &r, &info), STATUS_SUCCESS);
    assert_non_null(info.hAllocation);
    return info.hAllocation;
}

static HANDLE new_device(struct mk *mk, int system)
{
    DXGKARG_CREATEDEVICE args;
    memset(&args, 0, sizeof(args));
    args.hDevice = (HANDLE)(uintptr_t)0xD0;
    args.Flags.SystemDevice = system ? 1 : 0;
    assert_int_equal(mk->ddi.DxgkDdiCreateDevice(mk->adapter, &args), STATUS_SUCCESS);
    assert_non_null(args.hDevice);
    return args.hDevice;
}

static HANDLE new_context(struct mk *mk, HANDLE device, UINT flags, DXGK_CONTEXTINFO *info)
{
    DXGKARG_CREATECONTEXT args;
    memset(&args, 0, sizeof(args));
    args.hContext = (HANDLE)(uintptr_t)0xC0;
    args.Flags.Value = flags;
    assert_int_equal(mk->ddi.DxgkDdiCreateContext(device, &args), STATUS_SUCCESS);
    assert_non_null(args.hContext);
    if (info)
        *info = args.ContextInfo;
    return args.hContext;
}

/* ------------------------------------------------------------------ */
/* Initialisation and queries                                           */
/* ------------------------------------------------------------------ */

static void test_init_flow(void **state)
{
    struct mk *mk = *state;
    const DRIVER_INITIALIZATION_DATA *d = &mk->ddi;
    EXPECT_U64(d->Version, DXGKDDI_INTERFACE_VERSION);
    const void *ddis[] = {
        (void *)d->DxgkDdiAddDevice, (void *)d->DxgkDdiStartDevice, (void *)d->DxgkDdiStopDevice,
        (void *)d->DxgkDdiRemoveDevice, (void *)d->DxgkDdiInterruptRoutine,
        (void *)d->DxgkDdiDpcRoutine, (void *)d->DxgkDdiQueryAdapterInfo,
        (void *)d->DxgkDdiCreateDevice, (void *)d->DxgkDdiCreateAllocation,
        (void *)d->DxgkDdiDestroyAllocation, (void *)d->DxgkDdiPatch,
        (void *)d->DxgkDdiSubmitCommand, (void *)d->DxgkDdiBuildPagingBuffer,
        (void *)d->DxgkDdiDestroyDevice, (void *)d->DxgkDdiRender, (void *)d->DxgkDdiCreateContext,
        (void *)d->DxgkDdiDestroyContext, (void *)d->DxgkDdiCancelCommand,
    };
    for (size_t i = 0; i < sizeof(ddis) / sizeof(ddis[0]); i++)
        assert_non_null(ddis[i]);
    /* A second StartDevice without StopDevice is refused. */
    ULONG s, c;
    assert_int_not_equal(d->DxgkDdiStartDevice(mk->adapter, NULL, &mk->dxgk, &s, &c),
                         STATUS_SUCCESS);
    /* Stop, start again. */
    assert_int_equal(d->DxgkDdiStopDevice(mk->adapter), STATUS_SUCCESS);
    mk->started = 0;
    assert_int_equal(mk_start(mk), STATUS_SUCCESS);
    /* DxgkInitialize refuses a foreign driver object. */
    DRIVER_OBJECT foreign;
    memset(&foreign, 0, sizeof(foreign));
    EXPECT_STATUS(wk_refdriver_DriverEntry(&foreign, NULL), STATUS_INVALID_PARAMETER);
}

static void test_start_rejects_foreign_hardware(void **state)
{
    struct mk *mk = *state;
    mk->ddi.DxgkDdiStopDevice(mk->adapter);
    mk->started = 0;
    mk->no_description = 1;
    EXPECT_STATUS(mk_start(mk), STATUS_UNSUCCESSFUL);
    mk->no_description = 0;
    mk->id_override = 0x12345678u;
    EXPECT_STATUS(mk_start(mk), STATUS_UNSUCCESSFUL);
    mk->id_override = 0;
    DXGKRNL_INTERFACE partial = mk->dxgk;
    partial.WkReadRegister32 = NULL;
    ULONG s, c;
    EXPECT_STATUS(mk->ddi.DxgkDdiStartDevice(mk->adapter, NULL, &partial, &s, &c),
                  STATUS_INVALID_PARAMETER);
    EXPECT_STATUS(mk_start(mk), STATUS_SUCCESS);
}

static void test_query_driver_caps(void **state)
{
    struct mk *mk = *state;
    DXGK_DRIVERCAPS caps;
    memset(&caps, 0xFF, sizeof(caps));
    EXPECT_STATUS(query(mk, DXGKQAITYPE_DRIVERCAPS, &caps, sizeof(caps)), STATUS_SUCCESS);
    EXPECT_U64(caps.MaxAllocationListSlotId, 16);
    EXPECT_U64(caps.ApertureSegmentCommitLimit, 0x40000);
    EXPECT_U64(caps.SchedulingCaps.MultiEngineAware, 1);
    EXPECT_U64(caps.SchedulingCaps.CancelCommandAware, 1);
    EXPECT_U64(caps.SchedulingCaps.PreemptionAware, 0);
    EXPECT_U64(caps.MemoryManagementCaps.Value, 0);
    EXPECT_U64(caps.HighestAcceptableAddress.QuadPart, PFN_ADDR(SYS_PFN + 256) - 1);
    EXPECT_STATUS(query(mk, DXGKQAITYPE_DRIVERCAPS, &caps, sizeof(caps) - 1),
                  STATUS_BUFFER_TOO_SMALL);
    EXPECT_STATUS(query(mk, DXGKQAITYPE_GPUMMUCAPS, &caps, sizeof(caps)), STATUS_INVALID_PARAMETER);
    EXPECT_STATUS(query(mk, DXGKQAITYPE_DRIVERCAPS, NULL, sizeof(caps)), STATUS_INVALID_PARAMETER);
}

static void check_segment3(const DXGK_SEGMENTDESCRIPTOR3 *d)
{
    /* 1: memory, 2: banked memory, 3: aperture (docs/gpu-model.md). */
    EXPECT_U64(d[0].Flags.Value, 0);
    EXPECT_U64(d[0].BaseAddress.QuadPart, SEG1_BASE);
    EXPECT_U64(d[0].Size, 0x100000);
    EXPECT_U64(d[0].CommitLimit, 0x100000);
    EXPECT_U64(d[0].NbOfBanks, 0);
    assert_null(d[0].pBankRangeTable);
    EXPECT_U64(d[1].Flags.Value, 0x8); /* UseBanking only */
    EXPECT_U64(d[1].BaseAddress.QuadPart, SEG2_BASE);
    EXPECT_U64(d[1].NbOfBanks, 4);
    assert_non_null(d[1].pBankRangeTable);
    for (unsigned i = 0; i < 4; i++)
        EXPECT_U64(d[1].pBankRangeTable[i], 0x40000ull * (i + 1)); /* last = segment size */
    EXPECT_U64(d[1].CommitLimit, d[1].Size);
    EXPECT_U64(d[2].Flags.Value, 0x1); /* Aperture only */
    EXPECT_U64(d[2].BaseAddress.QuadPart, APER_BASE);
    EXPECT_U64(d[2].Size, 0x40000);
    EXPECT_U64(d[2].CommitLimit, 0x40000);
}

static void test_query_segment3(void **state)
{
    struct mk *mk = *state;
    DXGK_QUERYSEGMENTOUT3 out;
    memset(&out, 0, sizeof(out));
    EXPECT_STATUS(query(mk, DXGKQAITYPE_QUERYSEGMENT3, &out, sizeof(out)), STATUS_SUCCESS);
    EXPECT_U64(out.NbSegment, 3);
    EXPECT_U64(out.PagingBufferSize, 0); /* first call: NbSegment only */
    DXGK_SEGMENTDESCRIPTOR3 d[3];
    memset(d, 0xFF, sizeof(d));
    out.pSegmentDescriptor = d;
    EXPECT_STATUS(query(mk, DXGKQAITYPE_QUERYSEGMENT3, &out, sizeof(out)), STATUS_SUCCESS);
    check_segment3(d);
    EXPECT_U64(out.PagingBufferSegmentId, 0);
    assert_true(out.PagingBufferSize >= 4096);
    assert_true(out.PagingBufferPrivateDataSize > 0);
    EXPECT_STATUS(query(mk, DXGKQAITYPE_QUERYSEGMENT3, &out, sizeof(out) - 1),
                  STATUS_BUFFER_TOO_SMALL);
    out.NbSegment = 2; /* room for two only */
    EXPECT_STATUS(query(mk, DXGKQAITYPE_QUERYSEGMENT3, &out, sizeof(out)), STATUS_BUFFER_TOO_SMALL);
}

static void test_query_segment4(void **state)
{
    struct mk *mk = *state;
    DXGK_QUERYSEGMENTOUT4 out;
    memset(&out, 0, sizeof(out));
    EXPECT_STATUS(query(mk, DXGKQAITYPE_QUERYSEGMENT4, &out, sizeof(out)), STATUS_SUCCESS);
    EXPECT_U64(out.NbSegment, 3);
    /* A stride larger than the kit's descriptor (a newer kernel). */
    const size_t stride = sizeof(DXGK_SEGMENTDESCRIPTOR4) + 24;
    uint8_t raw[3 * (sizeof(DXGK_SEGMENTDESCRIPTOR4) + 24)];
    memset(raw, 0xFF, sizeof(raw));
    out.pSegmentDescriptor = raw;
    out.SegmentDescriptorStride = stride;
    EXPECT_STATUS(query(mk, DXGKQAITYPE_QUERYSEGMENT4, &out, sizeof(out)), STATUS_SUCCESS);
    const uint64_t bases[3] = { SEG1_BASE, SEG2_BASE, APER_BASE };
    const uint32_t flags[3] = { 0, 0, 1 }; /* no banks in v4 */
    for (unsigned i = 0; i < 3; i++) {
        DXGK_SEGMENTDESCRIPTOR4 d;
        memcpy(&d, raw + i * stride, sizeof(d));
        EXPECT_U64(d.BaseAddress.QuadPart, bases[i]);
        EXPECT_U64(d.Flags.Value, flags[i]);
        EXPECT_U64(d.CommitLimit, d.Size);
        for (size_t k = sizeof(d); k < stride; k++)
            EXPECT_U64(raw[i * stride + k], 0);
    }
    EXPECT_U64(out.PagingBufferSegmentId, 0);
    /* The kernel now knows no banks (B7): bank hints are dropped. */
    WK_ALLOCATION_REQUEST r = request(4096);
    r.PreferredSegment.SegmentId0 = 2;
    r.HintedBank.Bank0 = 2;
    DXGK_ALLOCATIONINFO info;
    EXPECT_STATUS(create_allocation(mk, &r, &info), STATUS_SUCCESS);
    EXPECT_U64(info.HintedBank.Value, 0);
    destroy_allocation(mk, info.hAllocation);
    out.SegmentDescriptorStride = sizeof(DXGK_SEGMENTDESCRIPTOR4) - 8;
    EXPECT_STATUS(query(mk, DXGKQAITYPE_QUERYSEGMENT4, &out, sizeof(out)),
                  STATUS_INVALID_PARAMETER);
}

/* ------------------------------------------------------------------ */
/* Devices, contexts, context allocations                               */
/* ------------------------------------------------------------------ */

static void test_device_context_allocation(void **state)
{
    struct mk *mk = *state;
    HANDLE sys = new_device(mk, 1);
    EXPECT_U64(mk->ca_count, 0); /* A2: none for the system device */
    HANDLE dev = new_device(mk, 0);
    EXPECT_U64(mk->ca_count, 1);
    const DXGKARGCB_CREATECONTEXTALLOCATION *a = &mk->ca[0].args;
    EXPECT_U64(a->ContextAllocationFlags.SharedAcrossContexts, 1);
    assert_null(a->hContext);
    EXPECT_U64((uintptr_t)a->hDevice, 0xD0);
    EXPECT_U64(a->Flags.AccessedPhysically, 1);
    /* InitContextResource (named by the kernel handle) zeroed it. */
    uint8_t zero[4096] = { 0 };
    assert_true(expect_mem(mk, mk->ca[0].gpu_address, zero, sizeof(zero)));
    assert_int_equal(mk->ddi.DxgkDdiDestroyDevice(dev), STATUS_SUCCESS);
    EXPECT_U64(mk->destroys, 1);
    assert_int_equal(mk->ddi.DxgkDdiDestroyDevice(sys), STATUS_SUCCESS);
}

static void check_context_info(const DXGK_CONTEXTINFO *i, UINT list_size)
{
    assert_true(i->DmaBufferSize >= 4096 && i->DmaBufferSize % 4096 == 0);
    EXPECT_U64(i->DmaBufferSegmentSet, 0);
    assert_true(i->DmaBufferPrivateDataSize > 0);
    EXPECT_U64(i->AllocationListSize, list_size);
    assert_true(i->PatchLocationListSize >= 2);
    EXPECT_U64(i->Reserved, 0);
    EXPECT_U64(i->Caps.Value, 0);
    EXPECT_U64(i->PagingCompanionNodeId, 0);
}

static void test_create_context(void **state)
{
    struct mk *mk = *state;
    HANDLE dev = new_device(mk, 0);
    DXGK_CONTEXTINFO info;
    HANDLE ctx = new_context(mk, dev, 0, &info);
    check_context_info(&info, 64);
    EXPECT_U64(mk->ca_count, 2); /* device + context */
    const struct ctxalloc *ca = &mk->ca[1];
    EXPECT_U64(ca->args.ContextAllocationFlags.SharedAcrossContexts, 0);
    EXPECT_U64((uintptr_t)ca->args.hContext, 0xC0);
    EXPECT_U64(ca->args.Flags.AccessedPhysically, 1);
    EXPECT_U64(ca->args.Size, 4096);
    EXPECT_U64(mk->updates, 1);
    /* The blob {magic 'RDCX', context id}, the rest zeroed by Init. */
    uint8_t blob[4096] = { 0 };
    memcpy(blob, "RDCX", 4);
    blob[4] = 1; /* first context id */
    assert_true(expect_mem(mk, ca->gpu_address, blob, sizeof(blob)));
    HANDLE gdi = new_context(mk, dev, 0x2 /* GdiContext */, &info);
    check_context_info(&info, 256);
    HANDLE system = new_context(mk, dev, 0x1 /* SystemContext */, &info);
    EXPECT_U64(mk->ca_count, 3); /* X5, A2: nothing for the system context */
    EXPECT_U64(mk->updates, 2);
    assert_int_equal(mk->ddi.DxgkDdiDestroyContext(system), STATUS_SUCCESS);
    assert_int_equal(mk->ddi.DxgkDdiDestroyContext(gdi), STATUS_SUCCESS);
    assert_int_equal(mk->ddi.DxgkDdiDestroyContext(ctx), STATUS_SUCCESS);
    EXPECT_U64(mk->destroys, 2);
    assert_int_equal(mk->ddi.DxgkDdiDestroyDevice(dev), STATUS_SUCCESS);
    EXPECT_U64(mk->destroys, 3);
}

/* X6: any number of contexts; the only failure is NO_MEMORY. */
static void test_many_contexts_and_no_memory(void **state)
{
    struct mk *mk = *state;
    HANDLE dev = new_device(mk, 1);
    HANDLE ctx[100];
    for (unsigned i = 0; i < 100; i++)
        ctx[i] = new_context(mk, dev, 0x1, NULL);
    for (unsigned i = 0; i < 100; i++)
        assert_int_equal(mk->ddi.DxgkDdiDestroyContext(ctx[i]), STATUS_SUCCESS);
    mk->fail_create_ctxalloc = 1;
    DXGKARG_CREATECONTEXT args;
    memset(&args, 0, sizeof(args));
    EXPECT_STATUS(mk->ddi.DxgkDdiCreateContext(dev, &args), STATUS_NO_MEMORY);
    DXGKARG_CREATEDEVICE d;
    memset(&d, 0, sizeof(d));
    EXPECT_STATUS(mk->ddi.DxgkDdiCreateDevice(mk->adapter, &d), STATUS_NO_MEMORY);
    assert_int_equal(mk->ddi.DxgkDdiDestroyDevice(dev), STATUS_SUCCESS);
}

/* ------------------------------------------------------------------ */
/* Allocations                                                          */
/* ------------------------------------------------------------------ */

static void test_create_allocation(void **state)
{
    struct mk *mk = *state;
    WK_ALLOCATION_REQUEST r = request(5000);
    r.Alignment = 0x10000;
    r.SupportedSegmentSet = 0x1 | 0x4 | 0x80; /* seg 1, seg 3, a segment that does not exist */
    r.PreferredSegment.SegmentId0 = 2;        /* not in the set: dropped */
    r.PreferredSegment.SegmentId1 = 3;
    r.PreferredSegment.Direction1 = 1;
    r.PreferredSegment.SegmentId2 = 1;
    r.EvictionSegmentSet = 0x5;
    r.HintedBank.Bank0 = 2;                   /* SegmentId0 becomes 3: no banks */
    r.Flags.CpuVisible = 1;
    DXGK_ALLOCATIONINFO info;
    EXPECT_STATUS(create_allocation(mk, &r, &info), STATUS_SUCCESS);
    EXPECT_U64(info.Size, 8192);
    EXPECT_U64(info.Alignment, 0x10000);
    EXPECT_U64(info.SupportedWriteSegmentSet, 0x5);
    EXPECT_U64(info.SupportedReadSegmentSet, 0x5);
    EXPECT_U64(info.PreferredSegment.SegmentId0, 3);
    EXPECT_U64(info.PreferredSegment.Direction0, 1);
    EXPECT_U64(info.PreferredSegment.SegmentId1, 1);
    EXPECT_U64(info.PreferredSegment.SegmentId2, 0);
    EXPECT_U64(info.HintedBank.Value, 0);
    EXPECT_U64(info.EvictionSegmentSet, 0x4);
    EXPECT_U64(info.PitchAlignedSize, 0);
    EXPECT_U64(info.Flags.CpuVisible, 1);
    assert_true(info.AllocationPriority != 0);
    destroy_allocation(mk, info.hAllocation);
}

static void test_allocation_banks_and_defaults(void **state)
{
    struct mk *mk = *state;
    WK_ALLOCATION_REQUEST r = request(4096);
    r.PreferredSegment.SegmentId0 = 2;
    r.HintedBank.Bank0 = 3;
    r.HintedBank.Direction0 = 1;
    r.HintedBank.Bank1 = 9; /* segment 2 has 4 banks: dropped */
    r.HintedBank.Bank2 = 1;
    r.Priority = 0x1234;
    DXGK_ALLOCATIONINFO info;
    EXPECT_STATUS(create_allocation(mk, &r, &info), STATUS_SUCCESS);
    EXPECT_U64(info.SupportedWriteSegmentSet, 0x7); /* 0: every segment */
    EXPECT_U64(info.Alignment, 4096);
    EXPECT_U64(info.HintedBank.Bank0, 3);
    EXPECT_U64(info.HintedBank.Direction0, 1);
    EXPECT_U64(info.HintedBank.Bank1, 1);
    EXPECT_U64(info.HintedBank.Bank2, 0);
    EXPECT_U64(info.AllocationPriority, 0x1234);
    EXPECT_U64(info.EvictionSegmentSet, 0);
    destroy_allocation(mk, info.hAllocation);
}

static void test_allocation_rejects(void **state)
{
    struct mk *mk = *state;
    DXGK_ALLOCATIONINFO info;
    WK_ALLOCATION_REQUEST bad[8];
    for (unsigned i = 0; i < 8; i++)
        bad[i] = request(4096);
    bad[0].Magic ^= 1;
    bad[1].Version = 2;
    bad[2].Size = 0;
    bad[3].Alignment = 3000;
    bad[4].Reserved = 1;
    bad[5].SupportedSegmentSet = 0x80; /* no segment of ours */
    bad[6].Size = UINT64_MAX - 100;     /* would wrap when rounded */
    bad[7].Flags.Reserved = 1;
    for (unsigned i = 0; i < 8; i++) {
        EXPECT_STATUS(create_allocation(mk, &bad[i], &info), STATUS_INVALID_PARAMETER);
        assert_null(info.hAllocation);
    }
    WK_ALLOCATION_REQUEST good = request(4096);
    memset(&info, 0, sizeof(info));
    info.pPrivateDriverData = &good;
    info.PrivateDriverDataSize = sizeof(good) - 1;
    DXGKARG_CREATEALLOCATION args;
    memset(&args, 0, sizeof(args));
    args.NumAllocations = 1;
    args.pAllocationInfo = &info;
    EXPECT_STATUS(mk->ddi.DxgkDdiCreateAllocation(mk->adapter, &args), STATUS_INVALID_PARAMETER);
    /* All or nothing: the good first allocation is undone (ASan sees leaks). */
    DXGK_ALLOCATIONINFO two[2];
    memset(two, 0, sizeof(two));
    two[0].pPrivateDriverData = &good;
    two[0].PrivateDriverDataSize = sizeof(good);
    two[1].pPrivateDriverData = &bad[0];
    two[1].PrivateDriverDataSize = sizeof(bad[0]);
    args.NumAllocations = 2;
    args.pAllocationInfo = two;
    EXPECT_STATUS(mk->ddi.DxgkDdiCreateAllocation(mk->adapter, &args), STATUS_INVALID_PARAMETER);
    assert_null(two[0].hAllocation);
}

/* ------------------------------------------------------------------ */
/* Paging                                                               */
/* ------------------------------------------------------------------ */

static void fill_args(DXGKARG_BUILDPAGINGBUFFER *a, uint64_t addr, SIZE_T size, UINT pattern)
{
    memset(a, 0, sizeof(*a));
    a->Operation = DXGK_OPERATION_FILL;
    a->Fill.FillSize = size;
    a->Fill.FillPattern = pattern;
    a->Fill.Destination.SegmentId = 1;
    a->Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)addr;
}

static void test_paging_fill_multipass(void **state)
{
    struct mk *mk = *state;
    const uint64_t at = SEG1_BASE + 0x1000, size = 200 * 1024;
    DXGKARG_BUILDPAGINGBUFFER a;
    unsigned passes = 0;
    fill_args(&a, at, size, 0xDEADBEEF);
    assert_true(run_paging(mk, &a, 16384, &passes));
    EXPECT_U64(passes, 1);
    assert_true(expect_fill(mk, at, size, 0xDEADBEEF));
    uint8_t zero[16] = { 0 };
    assert_true(expect_mem(mk, at - 16, zero, 16));
    assert_true(expect_mem(mk, at + size, zero, 16));
    uint64_t one_pass;
    assert_int_equal(wk_gpu_digest(mk->gpu, SEG1_BASE, 0x100000, &one_pass), WK_OK);
    /* The same fill, one 24-byte FILL per buffer: 64 KiB chunks → 4 passes. */
    wk_gpu_reset(mk->gpu);
    fill_args(&a, at, size, 0xDEADBEEF);
    assert_true(run_paging(mk, &a, 24, &passes));
    EXPECT_U64(passes, 4);
    uint64_t multi;
    assert_int_equal(wk_gpu_digest(mk->gpu, SEG1_BASE, 0x100000, &multi), WK_OK);
    EXPECT_U64(multi, one_pass);
}

static void transfer_args(DXGKARG_BUILDPAGINGBUFFER *a, SIZE_T size, UINT offset)
{
    memset(a, 0, sizeof(*a));
    a->Operation = DXGK_OPERATION_TRANSFER;
    a->Transfer.TransferSize = size;
    a->Transfer.TransferOffset = offset;
    a->Transfer.Flags.TransferStart = 1;
    a->Transfer.Flags.TransferEnd = 1;
}

static void set_seg(DXGKARG_BUILDPAGINGBUFFER *a, int dst, UINT id, uint64_t addr)
{
    if (dst) {
        a->Transfer.Destination.SegmentId = id;
        a->Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)addr;
    } else {
        a->Transfer.Source.SegmentId = id;
        a->Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)addr;
    }
}

static void test_paging_transfer_segments(void **state)
{
    struct mk *mk = *state;
    static uint8_t src[150 * 1024];
    pattern_bytes(src, sizeof(src), 1);
    write_mem(mk, SEG1_BASE, src, sizeof(src));
    DXGKARG_BUILDPAGINGBUFFER a;
    transfer_args(&a, 100 * 1024, 0x2000); /* TransferOffset on both segment sides */
    set_seg(&a, 0, 1, SEG1_BASE);
    set_seg(&a, 1, 2, SEG2_BASE + 0x10000);
    unsigned passes = 0;
    assert_true(run_paging(mk, &a, 16384, &passes));
    assert_true(expect_mem(mk, SEG2_BASE + 0x12000, src + 0x2000, 100 * 1024));
    /* Overlapping move up inside segment 1 (a relocation): copied from the
     * end, or the source would be overwritten before it is read. */
    transfer_args(&a, 150 * 1024, 0);
    set_seg(&a, 0, 1, SEG1_BASE);
    set_seg(&a, 1, 1, SEG1_BASE + 0x8000);
    assert_true(run_paging(mk, &a, 28, &passes));
    EXPECT_U64(passes, 3); /* 64 + 64 + 22 KiB */
    assert_true(expect_mem(mk, SEG1_BASE + 0x8000, src, sizeof(src)));
}

/* Segment → MDL with scattered pages and MdlOffset: byte k of the transfer
 * goes to page MdlOffset + k/4096 of the MDL (P5). */
static void test_paging_transfer_to_mdl(void **state)
{
    struct mk *mk = *state;
    static uint8_t src[0x8000];
    pattern_bytes(src, sizeof(src), 2);
    write_mem(mk, SEG2_BASE, src, sizeof(src));
    struct test_mdl m;
    make_mdl(&m, scattered, 8);
    DXGKARG_BUILDPAGINGBUFFER a;
    transfer_args(&a, 5 * 4096 + 100, 0x1000);
    set_seg(&a, 0, 2, SEG2_BASE);
    a.Transfer.Destination.pMdl = &m.mdl;
    a.Transfer.MdlOffset = 2;
    unsigned passes = 0;
    assert_true(run_paging(mk, &a, 28, &passes)); /* one COPY per buffer */
    EXPECT_U64(passes, 6);                         /* one per page */
    for (unsigned p = 0; p < 6; p++) {
        size_t len = p < 5 ? 4096 : 100;
        assert_true(expect_mem(mk, PFN_ADDR(m.pfns[2 + p]), src + 0x1000 + 4096 * p, len));
    }
}

static void test_paging_transfer_from_mdl(void **state)
{
    struct mk *mk = *state;
    struct test_mdl m;
    make_mdl(&m, scattered, 8);
    static uint8_t page[4][4096];
    for (unsigned p = 0; p < 4; p++) {
        pattern_bytes(page[p], 4096, 10 + p);
        write_mem(mk, PFN_ADDR(m.pfns[1 + p]), page[p], 4096);
    }
    DXGKARG_BUILDPAGINGBUFFER a;
    transfer_args(&a, 4 * 4096, 0x3000);
    a.Transfer.Source.pMdl = &m.mdl;
    a.Transfer.MdlOffset = 1;
    set_seg(&a, 1, 1, SEG1_BASE + 0x40000);
    assert_true(run_paging(mk, &a, 16384, NULL));
    for (unsigned p = 0; p < 4; p++)
        assert_true(expect_mem(mk, SEG1_BASE + 0x43000 + 4096 * p, page[p], 4096));
    /* SPECIAL_LOCK_TRANSFER: the same without MdlOffset (page 0 of the MDL). */
    uint8_t first[4096];
    pattern_bytes(first, sizeof(first), 20);
    write_mem(mk, PFN_ADDR(m.pfns[0]), first, sizeof(first));
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_SPECIAL_LOCK_TRANSFER;
    a.SpecialLockTransfer.TransferSize = 4096;
    a.SpecialLockTransfer.Source.pMdl = &m.mdl;
    a.SpecialLockTransfer.Destination.SegmentId = 2;
    a.SpecialLockTransfer.Destination.SegmentAddress.QuadPart = (LONGLONG)SEG2_BASE;
    assert_true(run_paging(mk, &a, 16384, NULL));
    assert_true(expect_mem(mk, SEG2_BASE, first, 4096));
}

static void check_gart(struct mk *mk, uint64_t page, uint64_t want_pfn)
{
    int valid = 0, stale = 1;
    uint64_t pfn = 0;
    assert_int_equal(wk_gpu_gart_get(mk->gpu, APER_ID, page, &valid, &pfn, &stale), WK_OK);
    assert_true(valid);
    EXPECT_U64(pfn, want_pfn);
    EXPECT_U64(stale, 0); /* the driver flushed the TLB */
}

static void test_paging_map_unmap(void **state)
{
    struct mk *mk = *state;
    struct test_mdl m;
    make_mdl(&m, scattered, 8);
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
    a.MapApertureSegment.SegmentId = APER_ID;
    a.MapApertureSegment.OffsetInPages = 2;
    a.MapApertureSegment.NumberOfPages = 5;
    a.MapApertureSegment.pMdl = &m.mdl;
    a.MapApertureSegment.MdlOffset = 1;
    unsigned passes = 0;
    assert_true(run_paging(mk, &a, 16 + 2 * 8, &passes)); /* two PFNs per buffer */
    EXPECT_U64(passes, 3);                                /* 2 + 2 + (1 + flush) */
    for (unsigned p = 0; p < 5; p++)
        check_gart(mk, 2 + p, m.pfns[1 + p]);
    /* The GPU reaches the MDL pages through the aperture. */
    uint8_t bytes[64];
    pattern_bytes(bytes, sizeof(bytes), 3);
    write_mem(mk, PFN_ADDR(m.pfns[3]), bytes, sizeof(bytes));
    assert_true(expect_mem(mk, APER_BASE + 4 * 4096, bytes, sizeof(bytes)));
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_UNMAP_APERTURE_SEGMENT;
    a.UnmapApertureSegment.SegmentId = APER_ID;
    a.UnmapApertureSegment.OffsetInPages = 2;
    a.UnmapApertureSegment.NumberOfPages = 5;
    a.UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)PFN_ADDR(SYS_PFN + 0xFF);
    assert_true(run_paging(mk, &a, 24, &passes)); /* GART_UNMAP, then TLB_FLUSH */
    EXPECT_U64(passes, 2);
    for (unsigned p = 0; p < 5; p++)
        check_gart(mk, 2 + p, SYS_PFN + 0xFF); /* P14: DummyPage, never invalid */
}

static void test_paging_small_ops(void **state)
{
    struct mk *mk = *state;
    uint8_t buf[256];
    uint64_t used;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_DISCARD_CONTENT; /* P11: nothing to write */
    EXPECT_STATUS(build_once(mk, &a, buf, sizeof(buf), &used), STATUS_SUCCESS);
    EXPECT_U64(used, 0);
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_WRITE_PHYSICAL;
    a.WritePhysical.SegmentId = 1;
    a.WritePhysical.PhysicalAddress.QuadPart = (LONGLONG)(SEG1_BASE + 0x500);
    write_mem(mk, SEG1_BASE + 0x500, "\x11\x22\x33\x44", 4);
    EXPECT_STATUS(build_once(mk, &a, buf, sizeof(buf), &used), STATUS_SUCCESS);
    EXPECT_U64(used, wk_gpu_cmd_size(WK_GPU_OP_COPY, 0));
    assert_true(exec_ok(mk, buf, used));
    assert_true(expect_mem(mk, SEG1_BASE + 0x500, "\x11\x22\x33\x44", 4)); /* unchanged data */
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_SIGNAL_MONITORED_FENCE;
    a.SignalMonitoredFence.MonitoredFenceGpuVa = SEG1_BASE + 0x600;
    a.SignalMonitoredFence.MonitoredFenceValue = 0x1122334455667788ull;
    EXPECT_STATUS(build_once(mk, &a, buf, sizeof(buf), &used), STATUS_SUCCESS);
    assert_true(exec_ok(mk, buf, used));
    EXPECT_U64(wk_gpu_last_fence(mk->gpu), 0x1122334455667788ull);
    assert_true(expect_mem(mk, SEG1_BASE + 0x600, "\x88\x77\x66\x55\x44\x33\x22\x11", 8));
    /* Operations of GPU-VA drivers: never sent to this one; nothing written. */
    const DXGK_BUILDPAGINGBUFFER_OPERATION other[] = { 8, 9, 11, 12, 14, 15, 17 };
    for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
        memset(&a, 0, sizeof(a));
        a.Operation = other[i];
        EXPECT_STATUS(build_once(mk, &a, buf, sizeof(buf), &used), STATUS_SUCCESS);
        EXPECT_U64(used, 0);
    }
    memset(&a, 0, sizeof(a)); /* P22: pDmaBuffer may be NULL for page tables */
    a.Operation = DXGK_OPERATION_UPDATE_PAGE_TABLE;
    EXPECT_STATUS(mk->ddi.DxgkDdiBuildPagingBuffer(mk->adapter, &a), STATUS_SUCCESS);
    assert_null(a.pDmaBuffer);
}

/* UPDATE_CONTEXT_ALLOCATION with an odd-sized blob, one WRITE32 per pass. */
static void test_paging_update_context_allocation(void **state)
{
    struct mk *mk = *state;
    const uint8_t blob[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION;
    a.UpdateContextAllocation.ContextAllocation = SEG2_BASE + 0x800;
    a.UpdateContextAllocation.ContextAllocationSize = 4096;
    a.UpdateContextAllocation.pDriverPrivateData = (void *)blob;
    a.UpdateContextAllocation.DriverPrivateDataSize = sizeof(blob);
    write_mem(mk, SEG2_BASE + 0x800, "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 13);
    unsigned passes = 0;
    assert_true(run_paging(mk, &a, 16, &passes));
    EXPECT_U64(passes, 3);
    const uint8_t want[13] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0xFF };
    assert_true(expect_mem(mk, SEG2_BASE + 0x800, want, sizeof(want)));
}

/* ------------------------------------------------------------------ */
/* Render and Patch                                                     */
/* ------------------------------------------------------------------ */

struct cmdbuf {
    uint8_t bytes[1024];
    UINT len;
    UINT records;
};

static void cmd_begin(struct cmdbuf *c)
{
    memset(c, 0, sizeof(*c));
    c->len = sizeof(WK_USER_COMMAND_HEADER);
}

static void cmd_add(struct cmdbuf *c, const void *rec, UINT len)
{
    memcpy(c->bytes + c->len, rec, len);
    c->len += len;
    c->records++;
    WK_USER_COMMAND_HEADER h = { WK_USER_COMMAND_MAGIC, WK_USER_COMMAND_VERSION, c->records, 0 };
    memcpy(c->bytes, &h, sizeof(h));
}

#define REC(op, type) { (op), sizeof(type) }

/* Allocation list: [0] NULL (unbind convention, R8), [1] A, [2] B. */
#define A_ADDR (SEG1_BASE + 0x10000)
#define B_ADDR (SEG2_BASE + 0x20000)

struct scene {
    HANDLE a, b;
    DXGK_ALLOCATIONLIST list[3];
    struct cmdbuf cmd;
    HANDLE device, context;
    uint8_t a_bytes[8192];
};

static void scene_list(struct scene *s, int resident)
{
    memset(s->list, 0, sizeof(s->list));
    s->list[1].hDeviceSpecificAllocation = s->a;
    s->list[2].hDeviceSpecificAllocation = s->b;
    if (resident) {
        s->list[1].SegmentId = 1;
        s->list[1].PhysicalAddress.QuadPart = (LONGLONG)A_ADDR;
        s->list[2].SegmentId = 2;
        s->list[2].PhysicalAddress.QuadPart = (LONGLONG)B_ADDR;
    }
}

/* COPY, FILL, WRITE32, a long NOP, BLIT: 6 address operands. */
static void scene_commands(struct cmdbuf *c)
{
    cmd_begin(c);
    WK_USER_COPY copy = { REC(WK_USER_OP_COPY, WK_USER_COPY), { 1, 0x100 }, { 2, 0 }, 256, 0 };
    WK_USER_FILL fill = { REC(WK_USER_OP_FILL, WK_USER_FILL), { 2, 0x1000 }, 512, 0x11223344 };
    WK_USER_WRITE32 w32 = { REC(WK_USER_OP_WRITE32, WK_USER_WRITE32), { 1, 0x1FFC }, 0xCAFEBABE,
                            0 };
    uint8_t nop[16] = { 0 };
    WK_USER_RECORD nop_header = { WK_USER_OP_NOP, sizeof(nop) };
    memcpy(nop, &nop_header, sizeof(nop_header));
    WK_USER_BLIT blit = { REC(WK_USER_OP_BLIT, WK_USER_BLIT), { 1, 0 }, { 2, 0x2000 },
                          16, 4, 64, 32 };
    cmd_add(c, &copy, sizeof(copy));
    cmd_add(c, &fill, sizeof(fill));
    cmd_add(c, &w32, sizeof(w32));
    cmd_add(c, nop, sizeof(nop));
    cmd_add(c, &blit, sizeof(blit));
}

static void scene_setup(struct mk *mk, struct scene *s)
{
    memset(s, 0, sizeof(*s));
    s->a = new_allocation(mk, 8192);
    s->b = new_allocation(mk, 0x10000);
    s->device = new_device(mk, 1);
    s->context = new_context(mk, s->device, 0, NULL);
    scene_commands(&s->cmd);
    pattern_bytes(s->a_bytes, sizeof(s->a_bytes), 4);
    write_mem(mk, A_ADDR, s->a_bytes, sizeof(s->a_bytes));
}

static void scene_teardown(struct mk *mk, struct scene *s)
{
    assert_int_equal(mk->ddi.DxgkDdiDestroyContext(s->context), STATUS_SUCCESS);
    assert_int_equal(mk->ddi.DxgkDdiDestroyDevice(s->device), STATUS_SUCCESS);
    destroy_allocation(mk, s->a);
    destroy_allocation(mk, s->b);
}

/* The memory effect of scene_commands. */
static void scene_check(struct mk *mk, const struct scene *s)
{
    assert_true(expect_mem(mk, B_ADDR, s->a_bytes + 0x100, 256));
    assert_true(expect_fill(mk, B_ADDR + 0x1000, 512, 0x11223344));
    uint8_t w[4] = { 0xBE, 0xBA, 0xFE, 0xCA };
    assert_true(expect_mem(mk, A_ADDR + 0x1FFC, w, 4));
    for (unsigned r = 0; r < 4; r++)
        assert_true(expect_mem(mk, B_ADDR + 0x2000 + 32 * r, s->a_bytes + 64 * r, 16));
}

/* One Render call into a buffer of dma_size (+ canary) and a patch list of
 * patch_room (+ canary). */
struct render_call {
    uint8_t dma[4096 + CANARY];
    D3DDDI_PATCHLOCATIONLIST patches[64 + 2];
    uint8_t priv[64];
    UINT used, patch_count;
    NTSTATUS status;
};

static void render_call(struct mk *mk, struct scene *s, const struct cmdbuf *c, UINT dma_size,
                        UINT patch_room, UINT *multipass, struct render_call *out)
{
    memset(out->dma, CANARY_BYTE, sizeof(out->dma));
    memset(out->patches, CANARY_BYTE, sizeof(out->patches));
    DXGKARG_RENDER r = { c->bytes,     c->len,     out->dma, dma_size,   out->priv,
                         sizeof(out->priv), s->list, 3,       NULL,       0,
                         out->patches, patch_room, *multipass, 0,        { { 0, 0 } } };
    out->status = mk->ddi.DxgkDdiRender(s->context, &r);
    out->used = (UINT)((uint8_t *)r.pDmaBuffer - out->dma);
    out->patch_count = (UINT)(r.pPatchLocationListOut - out->patches);
    *multipass = r.MultipassOffset;
    assert_true(out->used <= dma_size);
    assert_true(out->patch_count <= patch_room);
    assert_true(canary_intact(out->dma + dma_size, CANARY, "render DMA buffer"));
    assert_true(canary_intact((uint8_t *)(out->patches + patch_room), 2 * sizeof(out->patches[0]),
                              "patch list"));
}

static NTSTATUS patch(struct mk *mk, const struct scene *s, struct render_call *rc, UINT flags)
{
    DXGKARG_PATCH p;
    memset(&p, 0, sizeof(p));
    p.pDmaBuffer = rc->dma;
    p.DmaBufferSize = 4096;
    p.DmaBufferSubmissionStartOffset = 0;
    p.DmaBufferSubmissionEndOffset = rc->used;
    p.pAllocationList = s->list;
    p.AllocationListSize = 3;
    p.pPatchLocationList = rc->patches;
    p.PatchLocationListSize = rc->patch_count;
    p.PatchLocationListSubmissionLength = rc->patch_count;
    p.SubmissionFenceId = 1;
    p.Flags.Value = flags;
    return mk->ddi.DxgkDdiPatch(mk->adapter, &p);
}

/* Patch-location conventions (docs/refdriver.md): per command, operands in
 * order, SlotId = rank, SplitOffset = command start, PatchOffset = start +
 * operand offset; split offsets never decrease. */
static void check_patch_list(const struct render_call *rc)
{
    static const struct { UINT index, slot, offset, opnd; } want[6] = {
        { 1, 0, 0x100, 4 }, { 2, 1, 0, 12 },   /* COPY src, dst */
        { 2, 0, 0x1000, 4 },                   /* FILL dst */
        { 1, 0, 0x1FFC, 4 },                   /* WRITE32 addr */
        { 1, 0, 0, 4 }, { 2, 1, 0x2000, 12 },  /* BLIT src, dst */
    };
    EXPECT_U64(rc->patch_count, 6);
    UINT prev_split = 0;
    for (unsigned i = 0; i < 6; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &rc->patches[i];
        EXPECT_U64(p->AllocationIndex, want[i].index);
        EXPECT_U64(p->SlotId, want[i].slot);
        EXPECT_U64(p->Reserved, 0);
        EXPECT_U64(p->DriverId, 0);
        EXPECT_U64(p->AllocationOffset, want[i].offset);
        EXPECT_U64(p->PatchOffset, p->SplitOffset + want[i].opnd);
        assert_true(p->SplitOffset >= prev_split);
        assert_true(p->PatchOffset + 8 <= rc->used);
        prev_split = p->SplitOffset;
    }
}

static void test_render_patch_execute(void **state)
{
    struct mk *mk = *state;
    struct scene s;
    scene_setup(mk, &s);
    scene_list(&s, 0); /* no pre-patch information */
    struct render_call rc;
    UINT mp = 0;
    render_call(mk, &s, &s.cmd, 4096, 64, &mp, &rc);
    EXPECT_STATUS(rc.status, STATUS_SUCCESS);
    EXPECT_U64(rc.used, 28 + 24 + 16 + 36);
    check_patch_list(&rc);
    for (unsigned i = 0; i < 6; i++) { /* not resident: operands are 0 until Patch */
        uint64_t operand;
        memcpy(&operand, rc.dma + rc.patches[i].PatchOffset, sizeof(operand));
        EXPECT_U64(operand, 0);
    }
    /* Patch with the allocations' places, then run. */
    scene_list(&s, 1);
    EXPECT_STATUS(patch(mk, &s, &rc, 0), STATUS_SUCCESS);
    assert_true(exec_ok(mk, rc.dma, rc.used));
    scene_check(mk, &s);
    /* Patching again writes the same bytes (T6). */
    uint8_t before[4096];
    memcpy(before, rc.dma, sizeof(before));
    EXPECT_STATUS(patch(mk, &s, &rc, 0), STATUS_SUCCESS);
    assert_memory_equal(before, rc.dma, sizeof(before));
    scene_teardown(mk, &s);
}

static void test_render_prepatch(void **state)
{
    struct mk *mk = *state;
    struct scene s;
    scene_setup(mk, &s);
    scene_list(&s, 1); /* R6: SegmentId != 0 → addresses written now */
    struct render_call rc;
    UINT mp = 0;
    render_call(mk, &s, &s.cmd, 4096, 64, &mp, &rc);
    EXPECT_STATUS(rc.status, STATUS_SUCCESS);
    check_patch_list(&rc); /* R7: listed even when pre-patched */
    assert_true(exec_ok(mk, rc.dma, rc.used));
    scene_check(mk, &s);
    scene_teardown(mk, &s);
}

/* A 40-byte DMA buffer and 3 patch slots: COPY | FILL + WRITE32 | NOP + BLIT.
 * Each partial buffer is patched and run on its own, as the kernel does. */
static void test_render_multipass(void **state)
{
    struct mk *mk = *state;
    struct scene s;
    scene_setup(mk, &s);
    scene_list(&s, 0);
    UINT mp = 0, passes = 0, offsets[4] = { 0 };
    struct render_call rc;
    do {
        render_call(mk, &s, &s.cmd, 40, 3, &mp, &rc);
        assert_true(rc.status == STATUS_SUCCESS ||
                    rc.status == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
        assert_true(rc.used > 0);
        scene_list(&s, 1);
        EXPECT_STATUS(patch(mk, &s, &rc, 0), STATUS_SUCCESS);
        scene_list(&s, 0);
        assert_true(exec_ok(mk, rc.dma, rc.used));
        offsets[passes++] = mp;
    } while (rc.status != STATUS_SUCCESS && passes < 4);
    EXPECT_STATUS(rc.status, STATUS_SUCCESS);
    EXPECT_U64(passes, 3);
    EXPECT_U64(offsets[0], 16 + 32);                /* FILL record */
    EXPECT_U64(offsets[1], 16 + 32 + 24 + 24 + 16); /* BLIT record: the NOP went with pass 2 */
    scene_check(mk, &s);
    scene_teardown(mk, &s);
}

/* Each case: status, and the DMA buffer and patch list untouched. */
static void expect_rejected(struct mk *mk, struct scene *s, const struct cmdbuf *c, UINT mp,
                            NTSTATUS want, int line)
{
    struct render_call rc;
    render_call(mk, s, c, 4096, 64, &mp, &rc);
    if (rc.status != want)
        print_error("line %d: Render returned 0x%08x, expected 0x%08x\n", line,
                    (unsigned)rc.status, (unsigned)want);
    assert_int_equal(rc.status, want);
    EXPECT_U64(rc.used, 0);
    EXPECT_U64(rc.patch_count, 0);
    assert_true(canary_intact(rc.dma, 4096, "rejected render: DMA buffer"));
}
#define EXPECT_REJECTED(c, mp, want) expect_rejected(mk, &s, (c), (mp), (want), __LINE__)

static void set_record_field(struct cmdbuf *c, UINT record_offset, UINT field_offset, UINT value)
{
    memcpy(c->bytes + record_offset + field_offset, &value, sizeof(value));
}

static void test_render_rejects(void **state)
{
    struct mk *mk = *state;
    struct scene s;
    scene_setup(mk, &s);
    scene_list(&s, 1);
    struct cmdbuf c;
    const UINT copy_at = 16; /* the first record (COPY) */
    c = s.cmd; c.len -= 10;  /* truncated: the BLIT runs past CommandLength */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_USER_BUFFER);
    c = s.cmd; set_record_field(&c, copy_at, 4, 4096); /* Length beyond the buffer */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_USER_BUFFER);
    c = s.cmd; set_record_field(&c, copy_at, 4, 16); /* shorter than a COPY */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_USER_BUFFER);
    c = s.cmd; set_record_field(&c, copy_at, 8, 3); /* AllocationIndex 3 of 3 */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_PARAMETER);
    c = s.cmd; set_record_field(&c, copy_at, 0, 77); /* unknown op */
    EXPECT_REJECTED(&c, 0, STATUS_ILLEGAL_INSTRUCTION);
    c = s.cmd; set_record_field(&c, copy_at, 8, 0); /* the NULL (unbind) entry */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_HANDLE);
    c = s.cmd; set_record_field(&c, copy_at, 12, 0xFFFFFF00u); /* offset + size wraps 32 bits */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_PARAMETER);
    c = s.cmd; set_record_field(&c, copy_at, 24, 8192); /* 0x100 + 8192 > 8 KiB allocation */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_PARAMETER);
    c = s.cmd; set_record_field(&c, copy_at, 28, 1); /* Reserved */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_PARAMETER);
    c = s.cmd; set_record_field(&c, 0, 0, 0x12345678); /* header magic */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_PARAMETER);
    c = s.cmd; set_record_field(&c, 0, 4, 2); /* header version */
    EXPECT_REJECTED(&c, 0, STATUS_GRAPHICS_DRIVER_MISMATCH);
    c = s.cmd; set_record_field(&c, 0, 8, 9); /* more records than bytes */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_USER_BUFFER);
    c = s.cmd; c.len += 4; /* bytes after the last record */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_USER_BUFFER);
    c = s.cmd; c.len = 12; /* shorter than the header */
    EXPECT_REJECTED(&c, 0, STATUS_INVALID_USER_BUFFER);
    EXPECT_REJECTED(&s.cmd, 20, STATUS_INVALID_PARAMETER); /* resume mid-record */
    scene_teardown(mk, &s);
}

static uint64_t rand_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1Dull;
}

static bool status_allowed(NTSTATUS st)
{
    return st == STATUS_SUCCESS || st == STATUS_INVALID_PARAMETER ||
           st == STATUS_INVALID_USER_BUFFER || st == STATUS_ILLEGAL_INSTRUCTION ||
           st == STATUS_INVALID_HANDLE || st == STATUS_GRAPHICS_DRIVER_MISMATCH;
}

/* Mutated command buffers: only allowed statuses, nothing written past the
 * buffers, every emitted patch location inside what was written. */
static void test_render_mutations(void **state)
{
    struct mk *mk = *state;
    struct scene s;
    scene_setup(mk, &s);
    scene_list(&s, 1);
    const char *env = getenv("WK_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 0) : 0x5EED5EEDull;
    uint64_t x = seed ? seed : 1;
    for (unsigned iter = 0; iter < 3000; iter++) {
        struct cmdbuf c = s.cmd;
        unsigned flips = 1 + (unsigned)(rand_next(&x) % 4);
        for (unsigned k = 0; k < flips; k++)
            c.bytes[rand_next(&x) % c.len] ^= (uint8_t)(1u << (rand_next(&x) % 8));
        if (rand_next(&x) % 4 == 0)
            c.len = (UINT)(rand_next(&x) % (c.len + 1));
        struct render_call rc;
        UINT mp = 0;
        render_call(mk, &s, &c, 4096, 64, &mp, &rc);
        if (!status_allowed(rc.status))
            print_error("seed 0x%" PRIx64 " iteration %u: status 0x%08x\n", seed, iter,
                        (unsigned)rc.status);
        assert_true(status_allowed(rc.status));
        for (unsigned i = 0; i < rc.patch_count; i++) {
            assert_true(rc.patches[i].AllocationIndex < 3);
            assert_true(rc.patches[i].PatchOffset + 8 <= rc.used);
        }
    }
    scene_teardown(mk, &s);
}

static void test_patch_skips_bad_entries(void **state)
{
    struct mk *mk = *state;
    struct scene s;
    scene_setup(mk, &s);
    scene_list(&s, 0);
    struct render_call rc;
    UINT mp = 0;
    render_call(mk, &s, &s.cmd, 4096, 64, &mp, &rc);
    EXPECT_STATUS(rc.status, STATUS_SUCCESS);
    scene_list(&s, 1);
    rc.patches[0].AllocationIndex = 3;       /* outside the allocation list */
    rc.patches[1].PatchOffset = rc.used - 4; /* 8 bytes would cross the end */
    rc.patches[2].PatchOffset = 0xFFFFFFFCu; /* would wrap */
    uint8_t before[4096];
    memcpy(before, rc.dma, sizeof(before));
    EXPECT_STATUS(patch(mk, &s, &rc, 0x1 /* Paging: no lists, nothing to do */), STATUS_SUCCESS);
    assert_memory_equal(before, rc.dma, sizeof(before));
    EXPECT_STATUS(patch(mk, &s, &rc, 0), STATUS_SUCCESS);
    assert_memory_equal(before, rc.dma, 28 + 24);                 /* COPY, FILL untouched */
    assert_memory_equal(before + rc.used - 4, rc.dma + rc.used - 4, 4); /* no write at the end */
    uint64_t w32;
    memcpy(&w32, rc.dma + rc.patches[3].PatchOffset, 8);
    EXPECT_U64(w32, A_ADDR + 0x1FFC); /* good entries still patched */
    scene_teardown(mk, &s);
}

/* ------------------------------------------------------------------ */
/* Submission and interrupts                                            */
/* ------------------------------------------------------------------ */

#define DMA_PFN (SYS_PFN + 0x80)

/* Builds a FILL into system page DMA_PFN at `offset`; returns its length. */
static UINT place_fill(struct mk *mk, UINT offset, uint64_t dst, UINT pattern)
{
    uint8_t buf[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    assert_int_equal(wk_gpu_emit_fill(&w, dst, 256, pattern), WK_OK);
    write_mem(mk, PFN_ADDR(DMA_PFN) + offset, buf, w.used);
    return (UINT)w.used;
}

static void submit(struct mk *mk, UINT start, UINT end, UINT fence)
{
    DXGKARG_SUBMITCOMMAND sc;
    memset(&sc, 0, sizeof(sc));
    sc.DmaBufferSegmentId = 0; /* contiguous system memory (T5) */
    sc.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)PFN_ADDR(DMA_PFN);
    sc.DmaBufferSize = 4096;
    sc.DmaBufferSubmissionStartOffset = start;
    sc.DmaBufferSubmissionEndOffset = end;
    sc.SubmissionFenceId = fence;
    sc.Flags.Paging = 1;
    EXPECT_STATUS(mk->ddi.DxgkDdiSubmitCommand(mk->adapter, &sc), STATUS_SUCCESS);
}

static BOOLEAN isr(struct mk *mk)
{
    return mk->ddi.DxgkDdiInterruptRoutine(mk->adapter, 0);
}

static void test_submit_and_interrupt(void **state)
{
    struct mk *mk = *state;
    UINT first = place_fill(mk, 0, SEG1_BASE, 0x01010101);
    UINT second = place_fill(mk, first, SEG1_BASE + 0x1000, 0x02020202);
    submit(mk, first, first + second, 7); /* only the second command (T4: start offset) */
    EXPECT_U64(wk_gpu_mmio_read32(mk->gpu, WK_GPU_REG_QUEUE_DEPTH), 1);
    assert_false(isr(mk)); /* nothing pending: not ours */
    EXPECT_U64(wk_gpu_run(mk->gpu, 0), 1);
    assert_true(isr(mk));
    EXPECT_U64(mk->irq_count, 1);
    EXPECT_U64(mk->irq[0].InterruptType, DXGK_INTERRUPT_DMA_COMPLETED);
    EXPECT_U64(mk->irq[0].DmaCompleted.SubmissionFenceId, 7);
    /* The interrupt asks for the DPC; the DPC tells the scheduler
     * (INTR-DPC-001: DxgkCbNotifyDpc from the DPC routine only). */
    EXPECT_U64(mk->dpc_queued, 1);
    EXPECT_U64(mk->dpc_count, 0);
    assert_false(isr(mk)); /* acknowledged */
    assert_false(wk_gpu_irq_asserted(mk->gpu));
    mk->ddi.DxgkDdiDpcRoutine(mk->adapter);
    EXPECT_U64(mk->dpc_count, 1);
    assert_true(expect_fill(mk, SEG1_BASE + 0x1000, 256, 0x02020202));
    uint8_t zero[256] = { 0 };
    assert_true(expect_mem(mk, SEG1_BASE, zero, sizeof(zero)));
}

static void test_fault_interrupt(void **state)
{
    struct mk *mk = *state;
    const uint8_t bad[4] = { 0xEE, 0, 0, 0 }; /* unknown opcode */
    write_mem(mk, PFN_ADDR(DMA_PFN) + 512, bad, sizeof(bad));
    UINT good = place_fill(mk, 0, SEG1_BASE, 0x03030303);
    submit(mk, 512, 516, 10);
    submit(mk, 0, good, 11);
    EXPECT_U64(wk_gpu_run(mk->gpu, 0), 2);
    assert_true(isr(mk));
    EXPECT_U64(mk->irq_count, 2);
    EXPECT_U64(mk->irq[0].InterruptType, DXGK_INTERRUPT_DMA_FAULTED);
    EXPECT_U64(mk->irq[0].DmaFaulted.FaultedFenceId, 10);
    EXPECT_STATUS(mk->irq[0].DmaFaulted.Status, STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE);
    EXPECT_U64(mk->irq[1].InterruptType, DXGK_INTERRUPT_DMA_COMPLETED);
    EXPECT_U64(mk->irq[1].DmaCompleted.SubmissionFenceId, 11);
    /* A faulted last submission is not also reported complete. */
    submit(mk, 512, 516, 12);
    EXPECT_U64(wk_gpu_run(mk->gpu, 0), 1);
    assert_true(isr(mk));
    EXPECT_U64(mk->irq_count, 3);
    EXPECT_U64(mk->irq[2].InterruptType, DXGK_INTERRUPT_DMA_FAULTED);
    EXPECT_U64(mk->irq[2].DmaFaulted.FaultedFenceId, 12);
}

static void test_cancel_command(void **state)
{
    struct mk *mk = *state;
    struct scene s;
    scene_setup(mk, &s);
    scene_list(&s, 1);
    struct render_call rc;
    UINT mp = 0;
    memset(rc.priv, 0, sizeof(rc.priv));
    render_call(mk, &s, &s.cmd, 4096, 64, &mp, &rc);
    EXPECT_STATUS(rc.status, STATUS_SUCCESS);
    DXGKARG_CANCELCOMMAND cc;
    memset(&cc, 0, sizeof(cc));
    cc.hContext = s.context;
    cc.pDmaBuffer = rc.dma;
    cc.DmaBufferSize = 4096;
    cc.DmaBufferSubmissionEndOffset = rc.used;
    cc.pDmaBufferPrivateData = rc.priv;
    cc.DmaBufferPrivateDataSize = sizeof(rc.priv);
    cc.DmaBufferPrivateDataSubmissionEndOffset = sizeof(rc.priv);
    cc.pAllocationList = s.list;
    cc.AllocationListSize = 3;
    cc.pPatchLocationList = rc.patches;
    cc.PatchLocationListSize = rc.patch_count;
    cc.PatchLocationListSubmissionLength = rc.patch_count;
    EXPECT_STATUS(mk->ddi.DxgkDdiCancelCommand(mk->adapter, &cc), STATUS_SUCCESS);
    UINT kind;
    memcpy(&kind, rc.priv + 4, sizeof(kind));
    EXPECT_U64(kind, 3); /* released: marked cancelled */
    scene_teardown(mk, &s);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_init_flow),
        T(test_start_rejects_foreign_hardware),
        T(test_query_driver_caps),
        T(test_query_segment3),
        T(test_query_segment4),
        T(test_device_context_allocation),
        T(test_create_context),
        T(test_many_contexts_and_no_memory),
        T(test_create_allocation),
        T(test_allocation_banks_and_defaults),
        T(test_allocation_rejects),
        T(test_paging_fill_multipass),
        T(test_paging_transfer_segments),
        T(test_paging_transfer_to_mdl),
        T(test_paging_transfer_from_mdl),
        T(test_paging_map_unmap),
        T(test_paging_small_ops),
        T(test_paging_update_context_allocation),
        T(test_render_patch_execute),
        T(test_render_prepatch),
        T(test_render_multipass),
        T(test_render_rejects),
        T(test_render_mutations),
        T(test_patch_skips_bad_entries),
        T(test_submit_and_interrupt),
        T(test_fault_interrupt),
        T(test_cancel_command),
    };
    return cmocka_run_group_tests_name("refdriver", tests, NULL, NULL);
}
