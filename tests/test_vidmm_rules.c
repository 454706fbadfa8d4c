/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_rules.c - every rule of the contract catalogue, tripped.
 *
 * For each rule ID of wk_rules() there is one row in `cases`: a scenario
 * (the steps that make the kit call the DDI the rule checks) and a bad
 * answer. Each row runs twice in a fresh wk_vidmm:
 *   - good: the reference driver answers; no violation may be recorded at
 *     all, and every step of the scenario must succeed;
 *   - bad:  the answer is corrupted; the rule must be recorded by ID (and
 *     the corruption must have happened, or the scenario missed its DDI).
 * test_every_rule_has_a_case keeps the table and the catalogue equal, which
 * is what lets docs/contract-rules.md say every rule is covered here.
 *
 * Two ways to produce a bad answer:
 *   - the rewriter knob (wk_vidmm_set_rewriter), preferred: after a DDI
 *     returns (or when the driver calls back), the rewriter edits the
 *     argument struct or status before the kit checks it ("advance
 *     pDmaBuffer by DmaSize + 16", "report fence id + 1000");
 *   - a mutant driver, for what a rewrite cannot express (the bytes of a
 *     paging or DMA buffer, a crash, a hang, a write past a buffer, a
 *     callback never made): mutant_DriverEntry hands the kit a copy of the
 *     reference driver's DDI table with a few entries wrapped, and gives the
 *     reference driver a copy of the kit's DXGKRNL_INTERFACE with
 *     DxgkCbDestroyContextAllocation wrapped. In pass-through mode (the good
 *     runs) the wrappers only forward, so the good runs also prove the
 *     mutant is transparent.
 *
 * Test-only state: a DriverEntry takes no user pointer, so the mutant's
 * configuration lives in one static struct (M), reset before every run; the
 * tests run one after another in one process. Rewriters and mutants act only
 * once the scenario has "armed" them, right before the step under test, so
 * adapter start and object creation stay correct.
 *
 * The crash, hang and guard-page cases end with a dead adapter: the test
 * checks the next call returns WK_E_DEAD, then releases what the reference
 * driver still holds (the kit cannot call a dead driver), and the later rows
 * and test_adapter_works_after_driver_death prove the process went on.
 *
 * WK_TEST_SEED=<n> sets the manager's seed (system-page scatter);
 * WK_TEST_VERBOSE=1 prints every violation each bad run recorded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wddmkit/gpu.h"
#include "wddmkit/km.h"
#include "reference.h"
#include "bindings/kit_format.h"
#include "wddmkit/binding.h"

#include "under_asan.h"

#include "vidmm_test_util.h"

/* ------------------------------------------------------------------ */
/* The mutant driver                                                    */
/* ------------------------------------------------------------------ */

enum mutation {
    MUT_NONE = 0,
    MUT_PAGING_STALL,         /* FILL: INSUFFICIENT_DMA_BUFFER, nothing written, no progress */
    MUT_PAGING_BAD_OPCODE,    /* FILL: the command's opcode byte is garbage */
    MUT_FILL_PATTERN,         /* FILL: one byte of the pattern operand flipped */
    MUT_FILL_OUTSIDE,         /* FILL: plus a WRITE32 just past the destination */
    MUT_TRANSFER_SHORT,       /* TRANSFER: the first COPY moves half its bytes */
    MUT_TRANSFER_SWAPPED,     /* TRANSFER: every COPY runs from the destination to the source */
    MUT_NOTIFY_NULL,          /* the interrupt routine: DxgkCbNotifyInterrupt(NULL) */
    MUT_MAP_WRONG_PFN,        /* MAP_APERTURE_SEGMENT: the first frame is a neighbour */
    MUT_UNMAP_WRONG_DUMMY,    /* UNMAP_APERTURE_SEGMENT: a neighbour of DummyPage */
    MUT_FENCE_WRONG_VALUE,    /* SIGNAL_MONITORED_FENCE: the value off by one */
    MUT_RENDER_NO_PREPATCH,   /* Render: address operands left 0 despite SegmentId */
    MUT_RENDER_NO_PROGRESS,   /* Render: INSUFFICIENT_DMA_BUFFER, nothing written */
    MUT_RENDER_BAD_OPCODE,    /* Render: the first opcode byte is garbage */
    MUT_RENDER_CRASH,         /* Render: writes through a NULL struct pointer */
    MUT_RENDER_HANG,          /* Render: spins forever */
    MUT_RENDER_OVERRUN,       /* Render: writes 1 byte past the end of the DMA buffer */
    MUT_PATCH_OUTSIDE,        /* Patch: also flips a byte past the submission */
    MUT_PATCH_WRONG_VALUE,    /* Patch: the first location one page off */
    MUT_SYSTEM_CONTEXT_ALLOC, /* ignores SystemContext: a GPU context allocation for it */
    MUT_CTXALLOC_LEAK,        /* DxgkCbDestroyContextAllocation never called */
    /* Render misuses the kernel API (km.h), one rule each */
    MUT_KM_POOL_TAG,          /* frees a block with another tag */
    MUT_KM_POOL_LIVE,         /* frees what the pool never gave out */
    MUT_KM_POOL_NULL,         /* frees NULL */
    MUT_KM_POOL_RAISE,        /* a RAISE_ON_FAILURE allocation fails */
    MUT_KM_IRQL_RAISE,        /* KeRaiseIrql below the current IRQL */
    MUT_KM_IRQL_LOWER,        /* KeLowerIrql above the current IRQL */
    MUT_KM_IRQL_MAX,          /* paged pool under a spin lock */
    MUT_KM_IRQL_DPC,          /* queues a DPC that returns at PASSIVE_LEVEL */
    MUT_KM_LOCK_TWICE,        /* a spin lock taken twice */
    MUT_KM_LOCK_UNHELD,       /* a spin lock released unheld */
    MUT_KM_MUTEX_OWNER,       /* a mutex released by a non-owner */
    MUT_KM_MUTEX_INIT,        /* an uninitialised mutex released */
    MUT_KM_LIST,              /* removes from a corrupt list */
    MUT_KM_EVENT,             /* sets an uninitialised event */
    MUT_KM_DPC,               /* queues an uninitialised DPC */
    MUT_KM_UNKNOWN,           /* a km.h line with an id the catalogue lacks */
    MUT_ASSERT,               /* a failed NT_ASSERT */
    MUT_POOL_LEAK,            /* a pool block never freed */
    MUT_DPC_FREES,            /* not a rule: a DPC frees Render's pool block */
    MUT_THREAD_LEAK,          /* a system thread that outlives the teardown by 3 s */
    MUT_KM_BUGCHECK,          /* KeBugCheckEx */
    MUT_KM_MDL,               /* unmaps an MDL that was never mapped */
    MUT_MEM_LEAK,             /* an I/O space mapping and a contiguous block never released */
    /* The hardware binding's rules (binding.h): the driver is the
     * reference, the binding's processor misbehaves once armed. */
    MUT_BIND_CRASH,           /* its exec dereferences NULL */
    MUT_BIND_HANG,            /* its exec never returns */
    MUT_BIND_BUDGET,          /* it runs on after spend() said no */
    MUT_BIND_RESULT,          /* it reports a fault of class 99 */
    /* The DDI table */
    MUT_NO_STOP_DEVICE,       /* DRIVER_INITIALIZATION_DATA leaves DxgkDdiStopDevice NULL */
    MUT_START_NO_CHILDREN,    /* StartDevice succeeds and leaves *NumberOfChildren as handed */
    MUT_CTXALLOC_UNINIT,      /* DxgkCbCreateContextAllocation's arguments on the stack, never zeroed */
    MUT_DMA_STALE,            /* keeps Render's pDmaBuffer and writes through it after DestroyContext */
    MUT_NOTIFY_DPC_IN_ISR,    /* the interrupt routine calls DxgkCbNotifyDpc itself */
    MUT_COMPLETE_IN_SUBMIT,   /* SubmitCommand reports its own fence complete before returning */
    MUT_NOTIFY_IN_DPC,        /* the DPC routine calls DxgkCbNotifyInterrupt (a vsync) */
    MUT_CPU_VIEW_STALE,       /* a WDDM 3.0 driver of MAP_APERTURE_SEGMENT2 that keeps CpuVisibleAddress
                                 and writes through it after the allocation's unmap */
};

#define MAX_TRACKED 32u

struct mutant {
    DRIVER_INITIALIZATION_DATA ref;   /* the reference driver's own table */
    int have_ref;
    enum mutation mode;
    volatile int armed;               /* the scenario reached the step under test */
    unsigned fired;                   /* bad answers produced (rewrites included) */
    VOID *miniport;                   /* the reference adapter context */
    DXGKRNL_INTERFACE kit;            /* the kit's callbacks */
    /* Driver objects alive, released by hand when the adapter died. */
    HANDLE devices[MAX_TRACKED];
    HANDLE contexts[MAX_TRACKED];
    HANDLE allocations[MAX_TRACKED];
    volatile uintptr_t null_base;     /* 0: the crash writes through it */
    KDPC dpc;
    struct {
        int runs;
        KIRQL irql;
        void *arg1;
    } dpc_seen;
    /* The IRQL each DDI ran at, as km.h's KeGetCurrentIrql saw it (0xFF:
     * not called). */
    KIRQL submit_irql, isr_irql, dpc_irql, render_irql;
    volatile uint64_t spins;
    BYTE *kept_dma;                   /* MUT_DMA_STALE: the first Render's pDmaBuffer */
    BYTE *kept_view;                  /* MUT_CPU_VIEW_STALE: the first CpuVisibleAddress */
};

static struct mutant M;

static NTSTATUS capture_table(DRIVER_OBJECT *self, PUNICODE_STRING path,
                              const DRIVER_INITIALIZATION_DATA *init, ULONG driver_abi)
{
    (void)self;
    (void)path;
    (void)driver_abi;
    M.ref = *init;
    M.have_ref = 1;
    return STATUS_SUCCESS;
}

/* Runs the reference DriverEntry against a fake DRIVER_OBJECT to learn its table. */
static bool capture_reference(void)
{
    DRIVER_OBJECT fake;
    memset(&fake, 0, sizeof(fake));
    fake.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    fake.wk_initialize = capture_table;
    return NT_SUCCESS(wk_refdriver_DriverEntry(&fake, NULL)) && M.have_ref;
}

static void mutant_reset(enum mutation mode)
{
    DRIVER_INITIALIZATION_DATA ref = M.ref;
    int have = M.have_ref;
    memset(&M, 0, sizeof(M));
    M.ref = ref;
    M.have_ref = have;
    M.mode = mode;
}

static void arm(void)
{
    M.armed = 1;
}

static bool armed_for(enum mutation mode)
{
    return M.armed && M.mode == mode;
}

static void track(HANDLE *set, HANDLE h)
{
    for (uint32_t i = 0; h && i < MAX_TRACKED; i++)
        if (!set[i]) {
            set[i] = h;
            return;
        }
}

static void untrack(HANDLE *set, HANDLE h)
{
    for (uint32_t i = 0; h && i < MAX_TRACKED; i++)
        if (set[i] == h)
            set[i] = NULL;
}

/* --- callbacks the reference driver gets ---------------------------- */

/* The arguments rebuilt in a local that is never zeroed, every field set
 * but the preference slots after the first and the bank hints: what a
 * driver without its RtlZeroMemory hands the kernel. The kit fills the
 * stack before each DDI call (call.c, poison_stack), so the unset slots
 * read 0xA5... and name no segment, whatever the stack held before. */
static __attribute__((noinline)) NTSTATUS create_from_uninitialised(const HANDLE hAdapter,
                                                                     const DXGKARGCB_CREATECONTEXTALLOCATION *args)
{
    DXGKARGCB_CREATECONTEXTALLOCATION fresh;
    fresh.ContextAllocationFlags = args->ContextAllocationFlags;
    fresh.hAdapter = args->hAdapter;
    fresh.hDevice = args->hDevice;
    fresh.hContext = args->hContext;
    fresh.hDriverAllocation = args->hDriverAllocation;
    fresh.Size = args->Size;
    fresh.Alignment = args->Alignment;
    fresh.SupportedSegmentSet = args->SupportedSegmentSet;
    fresh.EvictionSegmentSet = args->EvictionSegmentSet;
    fresh.PreferredSegment.SegmentId0 = args->PreferredSegment.SegmentId0;
    fresh.PreferredSegment.Direction0 = args->PreferredSegment.Direction0;
    fresh.Flags = args->Flags;
    fresh.hAllocation = NULL;
    return M.kit.DxgkCbCreateContextAllocation(hAdapter, &fresh);
}

static NTSTATUS shim_create_context_allocation(const HANDLE hAdapter, DXGKARGCB_CREATECONTEXTALLOCATION *args)
{
    if (!armed_for(MUT_CTXALLOC_UNINIT))
        return M.kit.DxgkCbCreateContextAllocation(hAdapter, args);
    M.fired++;
    return create_from_uninitialised(hAdapter, args);
}

static NTSTATUS shim_destroy_context_allocation(const HANDLE hAdapter, const HANDLE hAllocation)
{
    if (armed_for(MUT_CTXALLOC_LEAK)) {
        M.fired++;
        return STATUS_SUCCESS; /* the driver "forgot" the call */
    }
    return M.kit.DxgkCbDestroyContextAllocation(hAdapter, hAllocation);
}

/* --- DDIs ------------------------------------------------------------ */

static NTSTATUS m_add_device(const PDEVICE_OBJECT pdo, VOID **context)
{
    NTSTATUS st = M.ref.DxgkDdiAddDevice(pdo, context);
    if (NT_SUCCESS(st) && context)
        M.miniport = *context;
    return st;
}

static NTSTATUS m_start_device(VOID *const context, DXGK_START_INFO *info, DXGKRNL_INTERFACE *iface,
                               ULONG *sources, ULONG *children)
{
    M.kit = *iface;
    DXGKRNL_INTERFACE shim = *iface;
    shim.DxgkCbDestroyContextAllocation = shim_destroy_context_allocation;
    shim.DxgkCbCreateContextAllocation = shim_create_context_allocation;
    ULONG handed = children ? *children : 0;
    NTSTATUS st = M.ref.DxgkDdiStartDevice(context, info, &shim, sources, children);
    if (M.mode == MUT_START_NO_CHILDREN && children) {
        M.fired++;
        *children = handed;
    }
    return st;
}

static NTSTATUS m_create_device(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *args)
{
    NTSTATUS st = M.ref.DxgkDdiCreateDevice(hAdapter, args);
    if (NT_SUCCESS(st))
        track(M.devices, args->hDevice);
    return st;
}

static NTSTATUS m_destroy_device(const HANDLE hDevice)
{
    untrack(M.devices, hDevice);
    return M.ref.DxgkDdiDestroyDevice(hDevice);
}

static NTSTATUS m_create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *args)
{
    DXGK_CREATECONTEXTFLAGS asked = args->Flags;
    if (armed_for(MUT_SYSTEM_CONTEXT_ALLOC) && args->Flags.SystemContext) {
        M.fired++;
        args->Flags.SystemContext = 0; /* the driver takes it for an ordinary context */
    }
    if (armed_for(MUT_DMA_STALE) && M.kept_dma) {
        M.fired++;
        M.kept_dma[24] = 0x5A; /* the destroyed context's buffer, byte 24 */
    }
    NTSTATUS st = M.ref.DxgkDdiCreateContext(hDevice, args);
    args->Flags = asked;
    if (NT_SUCCESS(st))
        track(M.contexts, args->hContext);
    return st;
}

static NTSTATUS m_destroy_context(const HANDLE hContext)
{
    untrack(M.contexts, hContext);
    return M.ref.DxgkDdiDestroyContext(hContext);
}

static NTSTATUS m_create_allocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = M.ref.DxgkDdiCreateAllocation(hAdapter, args);
    for (UINT i = 0; NT_SUCCESS(st) && i < args->NumAllocations; i++)
        track(M.allocations, args->pAllocationInfo[i].hAllocation);
    return st;
}

static NTSTATUS m_destroy_allocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *args)
{
    for (UINT i = 0; args && i < args->NumAllocations; i++)
        untrack(M.allocations, args->pAllocationList[i]);
    return M.ref.DxgkDdiDestroyAllocation(hAdapter, args);
}

/* Little-endian operand access in a DMA buffer. */
static uint64_t get_le64(const BYTE *p)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put_le64(BYTE *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (BYTE)(v >> (8 * i));
}

/* The 64-bit operand `index` of the command at `cmd`, when it is `opcode`. */
static BYTE *operand64(BYTE *cmd, enum wk_gpu_opcode opcode, uint32_t index)
{
    if (cmd[0] != (BYTE)opcode)
        return NULL;
    return cmd + wk_gpu_operand_offset(opcode, index);
}

static void xor_operand64(BYTE *cmd, enum wk_gpu_opcode opcode, uint32_t index, uint64_t x)
{
    BYTE *p = operand64(cmd, opcode, index);
    if (p) {
        put_le64(p, get_le64(p) ^ x);
        M.fired++;
    }
}

/* What the paging mutants do to [start, args->pDmaBuffer), written by the
 * reference driver for one call; each changes the first command only. */
static void mutate_paging(DXGKARG_BUILDPAGINGBUFFER *args, BYTE *start)
{
    DXGK_BUILDPAGINGBUFFER_OPERATION op = args->Operation;
    if (M.fired)
        return;
    switch (M.mode) {
    case MUT_PAGING_BAD_OPCODE:
        if (op == DXGK_OPERATION_FILL) {
            start[0] = 0xEE;
            M.fired++;
        }
        break;
    case MUT_FILL_PATTERN:
        if (op == DXGK_OPERATION_FILL && start[0] == WK_GPU_OP_FILL) {
            start[wk_gpu_operand_offset(WK_GPU_OP_FILL, 2)] ^= 0xFF;
            M.fired++;
        }
        break;
    case MUT_FILL_OUTSIDE:
        if (op == DXGK_OPERATION_FILL) {
            struct wk_gpu_writer w;
            wk_gpu_writer_init(&w, args->pDmaBuffer, args->DmaSize);
            uint64_t past = (uint64_t)args->Fill.Destination.SegmentAddress.QuadPart +
                            args->Fill.FillSize;
            if (wk_gpu_emit_write32(&w, past, 0xDEADBEEFu) == WK_OK) {
                args->pDmaBuffer = (BYTE *)args->pDmaBuffer + w.used;
                args->DmaSize -= (UINT)w.used;
                M.fired++;
            }
        }
        break;
    case MUT_TRANSFER_SHORT:
        if (op == DXGK_OPERATION_TRANSFER) {
            BYTE *bytes = operand64(start, WK_GPU_OP_COPY, 2);
            if (bytes) {
                put_le64(bytes, get_le64(bytes) / 2);
                M.fired++;
            }
        }
        break;
    case MUT_TRANSFER_SWAPPED:
        if (op == DXGK_OPERATION_TRANSFER) {
            BYTE *src = operand64(start, WK_GPU_OP_COPY, 0), *dst = operand64(start, WK_GPU_OP_COPY, 1);
            if (src && dst) {
                UINT64 s0 = get_le64(src);
                put_le64(src, get_le64(dst));
                put_le64(dst, s0);
                M.fired++;
            }
        }
        break;
    case MUT_MAP_WRONG_PFN:
        if (op == DXGK_OPERATION_MAP_APERTURE_SEGMENT && start[0] == WK_GPU_OP_GART_MAP) {
            BYTE *pfn = start + wk_gpu_opcode_info(WK_GPU_OP_GART_MAP)->fixed_bytes;
            put_le64(pfn, get_le64(pfn) ^ 1u); /* a neighbour inside the pool */
            M.fired++;
        }
        break;
    case MUT_UNMAP_WRONG_DUMMY:
        if (op == DXGK_OPERATION_UNMAP_APERTURE_SEGMENT)
            xor_operand64(start, WK_GPU_OP_GART_UNMAP, 3, 1u);
        break;
    case MUT_FENCE_WRONG_VALUE:
        if (op == DXGK_OPERATION_SIGNAL_MONITORED_FENCE)
            xor_operand64(start, WK_GPU_OP_FENCE, 1, 1u);
        break;
    default:
        break;
    }
}

static NTSTATUS m_build_paging_buffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *args)
{
    if (armed_for(MUT_PAGING_STALL) && args->Operation == DXGK_OPERATION_FILL) {
        M.fired++;
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    }
    if (M.mode == MUT_CPU_VIEW_STALE && args->Operation == DXGK_OPERATION_MAP_APERTURE_SEGMENT2 && !M.kept_view)
        M.kept_view = args->MapApertureSegment2.CpuVisibleAddress;
    else if (armed_for(MUT_CPU_VIEW_STALE) && M.kept_view) {
        M.fired++;
        M.kept_view[8] = 0x5A; /* past the unmap that ended it */
    }
    BYTE *start = args->pDmaBuffer;
    NTSTATUS st = M.ref.DxgkDdiBuildPagingBuffer(hAdapter, args);
    if (M.armed && (BYTE *)args->pDmaBuffer > start)
        mutate_paging(args, start);
    return st;
}

/* The blocks KM cases leave behind, kept reachable for LeakSanitizer (M
 * is reset between runs). */
static void *kept_blocks[64];
static unsigned nkept;

static void keep(void *block)
{
    if (block && nkept < sizeof(kept_blocks) / sizeof(kept_blocks[0]))
        kept_blocks[nkept++] = block;
}

/* What MUT_MEM_LEAK maps and allocates in Render and never releases: a
 * range in no BAR of the adapter (km.h's own memory) and a contiguous
 * block (the kit's system pool). run_close gives both back once the
 * verdict is in, so no later case of this process finds them. */
#define LEAK_MAP_BYTES 0x2000u
#define LEAK_BLOCK_BYTES (3u * PAGE_SIZE - 100u)
static struct {
    PVOID map;
    PVOID block;
} leaked;

static void leak_kernel_memory(void)
{
    PHYSICAL_ADDRESS at, highest;
    at.QuadPart = 0x7F000000ll; /* below BAR0 (WK_VIDMM_BAR0_ADDRESS): no BAR of the adapter */
    highest.QuadPart = -1;
    if (leaked.map || leaked.block)
        return; /* once per run */
    leaked.map = MmMapIoSpace(at, LEAK_MAP_BYTES, MmNonCached);
    leaked.block = MmAllocateContiguousMemory(LEAK_BLOCK_BYTES, highest);
}

static void release_leaked_memory(void)
{
    if (leaked.map)
        MmUnmapIoSpace(leaked.map, LEAK_MAP_BYTES);
    if (leaked.block)
        MmFreeContiguousMemory(leaked.block);
    memset(&leaked, 0, sizeof(leaked));
}

/* A DPC routine that drops to PASSIVE_LEVEL and returns there. */
static VOID dpc_returns_low(PKDPC dpc, PVOID context, PVOID a1, PVOID a2)
{
    (void)dpc, (void)context, (void)a1, (void)a2;
    KeLowerIrql(PASSIVE_LEVEL);
}

/* A worker that waits 3 s for an event nobody sets: it outlives the
 * teardown's second of grace, then ends on its own. */
static KEVENT never_set;

static VOID lingering_worker(PVOID context)
{
    LARGE_INTEGER three_seconds;
    (void)context;
    three_seconds.QuadPart = -3LL * 10000000;
    KeWaitForSingleObject(&never_set, Executive, KernelMode, FALSE, &three_seconds);
}

/* A well-behaved DPC: records how it ran, frees Render's block. */
static VOID dpc_frees_block(PKDPC dpc, PVOID context, PVOID a1, PVOID a2)
{
    (void)dpc, (void)a2;
    M.dpc_seen.runs++;
    M.dpc_seen.irql = KeGetCurrentIrql();
    M.dpc_seen.arg1 = a1;
    ExFreePoolWithTag(context, 0x574B4D64u);
}

/* The kernel-API misuse of a MUT_KM_* mode, inside Render: km.h reports it
 * and the kit ends the call (all but MUT_KM_IRQL_DPC, whose DPC runs at the
 * kit's DPC point, and MUT_POOL_LEAK, seen at teardown). */
static void misuse_kernel_api(void)
{
    static uint64_t not_pool[16];
    KSPIN_LOCK lock;
    KIRQL old, older;
    KMUTEX mutex;
    KEVENT event;
    KDPC dpc;
    LIST_ENTRY head, a, b;
    KeInitializeSpinLock(&lock);
    switch (M.mode) {
    case MUT_KM_POOL_TAG:
        keep(ExAllocatePoolWithTag(NonPagedPoolNx, 16, 0x574B4D61u));
        ExFreePoolWithTag(kept_blocks[nkept - 1], 0x574B4D62u);
        break;
    case MUT_KM_POOL_LIVE: ExFreePool(&not_pool[8]); break;
    case MUT_KM_POOL_NULL: ExFreePool(NULL); break;
    case MUT_KM_POOL_RAISE:
        keep(ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_RAISE_ON_FAILURE, WK_KM_POOL_MAX_BYTES + 1, 0x574B4D72u));
        break;
    case MUT_KM_IRQL_RAISE:
        KeRaiseIrql(DISPATCH_LEVEL, &old);
        KeRaiseIrql(PASSIVE_LEVEL, &older);
        break;
    case MUT_KM_IRQL_LOWER: KeLowerIrql(DISPATCH_LEVEL); break;
    case MUT_KM_IRQL_MAX:
        KeAcquireSpinLock(&lock, &old);
        keep(ExAllocatePoolWithTag(PagedPool, 16, 0x574B4D70u));
        break;
    case MUT_KM_IRQL_DPC:
        KeInitializeDpc(&M.dpc, dpc_returns_low, NULL);
        KeInsertQueueDpc(&M.dpc, NULL, NULL);
        return; /* runs at the DPC point */
    case MUT_KM_LOCK_TWICE:
        KeAcquireSpinLock(&lock, &old);
        KeAcquireSpinLock(&lock, &older);
        break;
    case MUT_KM_LOCK_UNHELD: KeReleaseSpinLock(&lock, PASSIVE_LEVEL); break;
    case MUT_KM_MUTEX_OWNER:
        KeInitializeMutex(&mutex, 0);
        KeReleaseMutex(&mutex, FALSE);
        break;
    case MUT_KM_MUTEX_INIT:
        memset(&mutex, 0, sizeof(mutex));
        KeReleaseMutex(&mutex, FALSE);
        break;
    case MUT_KM_LIST:
        InitializeListHead(&head);
        InsertTailList(&head, &a);
        InsertTailList(&head, &b);
        b.Blink = &head;
        RemoveEntryList(&a);
        break;
    case MUT_KM_EVENT:
        memset(&event, 0, sizeof(event));
        KeSetEvent(&event, 0, FALSE);
        break;
    case MUT_KM_DPC:
        memset(&dpc, 0, sizeof(dpc));
        KeInsertQueueDpc(&dpc, NULL, NULL);
        break;
    case MUT_KM_BUGCHECK: KeBugCheckEx(0xEA, 1, 2, 3, 4); break;
    case MUT_KM_MDL: {
        static MDL never_mapped;
        static UCHAR page[16];
        MmUnmapLockedPages(page, &never_mapped);
        break;
    }
    case MUT_KM_UNKNOWN: wk_km_fail("KM-FUTURE-999: a check this kit has no rule for"); break;
    case MUT_ASSERT: NT_ASSERT(M.mode != MUT_ASSERT); break;
    case MUT_POOL_LEAK:
        keep(ExAllocatePoolWithTag(NonPagedPoolNx, 24, 0x574B4D6Cu));
        return;
    case MUT_MEM_LEAK:
        leak_kernel_memory();
        return;
    case MUT_THREAD_LEAK: {
        HANDLE thread = NULL;
        KeInitializeEvent(&never_set, NotificationEvent, FALSE);
        if (NT_SUCCESS(PsCreateSystemThread(&thread, 0, NULL, NULL, NULL, lingering_worker, NULL)))
            ZwClose(thread);
        return;
    }
    case MUT_DPC_FREES:
        KeInitializeDpc(&M.dpc, dpc_frees_block, ExAllocatePoolWithTag(NonPagedPoolNx, 8, 0x574B4D64u));
        KeInsertQueueDpc(&M.dpc, &M.dpc_seen, NULL);
        if (KeInsertQueueDpc(&M.dpc, NULL, NULL)) /* queued already: FALSE, as on Windows */
            M.dpc_seen.runs = 100;
        return;
    default: return;
    }
    fprintf(stderr, "misuse_kernel_api: mode %d came back\n", (int)M.mode); /* the kit should have ended the call */
}

/* Render mutants that act before the reference driver runs; 1 when the
 * call is over (*st holds its status). */
static int render_before(DXGKARG_RENDER *args, NTSTATUS *st)
{
    if (!M.armed)
        return 0;
    switch (M.mode) {
    case MUT_RENDER_CRASH:
        M.fired++;
        /* A member of a NULL struct pointer: the address is computed as an
         * integer, so only the hardware (not a sanitizer) sees the write. */
        *(volatile uint32_t *)(M.null_base + 0x10) = 1;
        break;
    case MUT_RENDER_HANG:
        M.fired++;
        while (M.armed)
            M.spins++;
        break;
    case MUT_RENDER_OVERRUN:
        M.fired++;
        ((volatile BYTE *)args->pDmaBuffer)[args->DmaSize] = 0x5A;
        break;
    case MUT_RENDER_NO_PROGRESS:
        M.fired++;
        *st = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        return 1;
    default:
        if (M.mode >= MUT_KM_POOL_TAG && M.mode <= MUT_MEM_LEAK) {
            M.fired++;
            misuse_kernel_api();
        }
        break;
    }
    return 0;
}

static NTSTATUS m_render(const HANDLE hContext, DXGKARG_RENDER *args)
{
    M.render_irql = KeGetCurrentIrql();
    NTSTATUS st = STATUS_SUCCESS;
    if (render_before(args, &st))
        return st;
    BYTE *dma = args->pDmaBuffer;
    if (M.mode == MUT_DMA_STALE && !M.kept_dma)
        M.kept_dma = dma; /* a pointer into the kernel's buffer, kept past the call */
    D3DDDI_PATCHLOCATIONLIST *out = args->pPatchLocationListOut;
    st = M.ref.DxgkDdiRender(hContext, args);
    if (!M.armed || (BYTE *)args->pDmaBuffer <= dma)
        return st;
    if (M.mode == MUT_RENDER_BAD_OPCODE) {
        dma[0] = 0xEE;
        M.fired++;
    }
    if (M.mode == MUT_RENDER_NO_PREPATCH) {
        for (D3DDDI_PATCHLOCATIONLIST *p = out; p < args->pPatchLocationListOut; p++) {
            memset(dma + p->PatchOffset, 0, 8);
            M.fired++;
        }
    }
    return st;
}

static NTSTATUS m_patch(const HANDLE hAdapter, const DXGKARG_PATCH *args)
{
    NTSTATUS st = M.ref.DxgkDdiPatch(hAdapter, args);
    if (!M.armed || !args || args->Flags.Paging || !args->pDmaBuffer)
        return st;
    BYTE *dma = args->pDmaBuffer;
    if (M.mode == MUT_PATCH_OUTSIDE && args->DmaBufferSubmissionEndOffset < args->DmaBufferSize) {
        dma[args->DmaBufferSubmissionEndOffset] ^= 0xFF;
        M.fired++;
    }
    if (M.mode == MUT_PATCH_WRONG_VALUE && args->PatchLocationListSubmissionLength) {
        const D3DDDI_PATCHLOCATIONLIST *p =
            &args->pPatchLocationList[args->PatchLocationListSubmissionStart];
        const DXGK_ALLOCATIONLIST *e = &args->pAllocationList[p->AllocationIndex];
        if (e->SegmentId) {
            uint64_t right = (uint64_t)e->PhysicalAddress.QuadPart + p->AllocationOffset;
            put_le64(dma + p->PatchOffset, right + VT_PAGE);
            M.fired++;
        }
    }
    return st;
}

static NTSTATUS m_submit(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *args)
{
    M.submit_irql = KeGetCurrentIrql();
    NTSTATUS st = M.ref.DxgkDdiSubmitCommand(hAdapter, args);
    if (M.armed && M.mode == MUT_COMPLETE_IN_SUBMIT && !args->Flags.Paging) {
        M.fired++;
        DXGKARGCB_NOTIFY_INTERRUPT_DATA d;
        memset(&d, 0, sizeof(d));
        d.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
        d.DmaCompleted.SubmissionFenceId = args->SubmissionFenceId;
        d.DmaCompleted.NodeOrdinal = args->NodeOrdinal;
        d.DmaCompleted.EngineOrdinal = args->EngineOrdinal;
        M.kit.DxgkCbNotifyInterrupt(M.kit.DeviceHandle, &d);
    }
    return st;
}

static BOOLEAN m_interrupt(const PVOID ctx, ULONG message)
{
    M.isr_irql = KeGetCurrentIrql();
    BOOLEAN claimed = M.ref.DxgkDdiInterruptRoutine(ctx, message);
    if (M.armed && M.mode == MUT_NOTIFY_DPC_IN_ISR && claimed) {
        M.fired++;
        M.kit.DxgkCbNotifyDpc(M.kit.DeviceHandle);
    }
    if (M.armed && M.mode == MUT_NOTIFY_NULL && claimed) {
        M.fired++;
        M.kit.DxgkCbNotifyInterrupt(M.kit.DeviceHandle, NULL);
    }
    return claimed;
}

static VOID m_dpc(const PVOID ctx)
{
    M.dpc_irql = KeGetCurrentIrql();
    if (M.armed && M.mode == MUT_NOTIFY_IN_DPC) {
        M.fired++;
        DXGKARGCB_NOTIFY_INTERRUPT_DATA d;
        memset(&d, 0, sizeof(d));
        d.InterruptType = DXGK_INTERRUPT_CRTC_VSYNC;
        M.kit.DxgkCbNotifyInterrupt(M.kit.DeviceHandle, &d);
    }
    M.ref.DxgkDdiDpcRoutine(ctx);
}

/* MUT_CPU_VIEW_STALE's driver opts into MAP_APERTURE_SEGMENT2 (WDDM 3.0
 * and the cap, as wk_refdriver_map2 does). */
static NTSTATUS m_query_adapter_info(const HANDLE h, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = M.ref.DxgkDdiQueryAdapterInfo(h, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_DRIVERCAPS && M.mode == MUT_CPU_VIEW_STALE)
        ((DXGK_DRIVERCAPS *)q->pOutputData)->MemoryManagementCaps.MapAperture2Supported = 1;
    return st;
}

/* The reference driver with the wrappers above in its table. */
static NTSTATUS mutant_DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA t = M.ref;
    t.DxgkDdiAddDevice = m_add_device;
    t.DxgkDdiStartDevice = m_start_device;
    t.DxgkDdiCreateDevice = m_create_device;
    t.DxgkDdiDestroyDevice = m_destroy_device;
    t.DxgkDdiCreateContext = m_create_context;
    t.DxgkDdiDestroyContext = m_destroy_context;
    t.DxgkDdiCreateAllocation = m_create_allocation;
    t.DxgkDdiDestroyAllocation = m_destroy_allocation;
    t.DxgkDdiBuildPagingBuffer = m_build_paging_buffer;
    t.DxgkDdiRender = m_render;
    t.DxgkDdiPatch = m_patch;
    t.DxgkDdiSubmitCommand = m_submit;
    t.DxgkDdiInterruptRoutine = m_interrupt;
    t.DxgkDdiDpcRoutine = m_dpc;
    t.DxgkDdiQueryAdapterInfo = m_query_adapter_info;
    if (M.mode == MUT_CPU_VIEW_STALE)
        t.Version = DXGKDDI_INTERFACE_VERSION_WDDM3_0;
    if (M.mode == MUT_NO_STOP_DEVICE)
        t.DxgkDdiStopDevice = NULL, M.fired++; /* the table itself is the bad answer: no step arms it */
    return DxgkInitialize(DriverObject, RegistryPath, &t);
}

/* After the adapter died the kit calls the driver no more: destroy what the
 * reference driver still holds (while the wk_vidmm that answers its
 * callbacks is alive), so nothing leaks. */
static void mutant_release(void)
{
    M.armed = 0;
    for (uint32_t i = 0; i < MAX_TRACKED; i++)
        if (M.contexts[i])
            m_destroy_context(M.contexts[i]);
    for (uint32_t i = 0; i < MAX_TRACKED; i++) {
        HANDLE h = M.allocations[i];
        if (!h || !M.miniport)
            continue;
        DXGKARG_DESTROYALLOCATION d;
        memset(&d, 0, sizeof(d));
        d.NumAllocations = 1;
        d.pAllocationList = &h;
        m_destroy_allocation(M.miniport, &d);
    }
    for (uint32_t i = 0; i < MAX_TRACKED; i++)
        if (M.devices[i])
            m_destroy_device(M.devices[i]);
    if (M.miniport)
        M.ref.DxgkDdiRemoveDevice(M.miniport);
    M.miniport = NULL;
}

/* ------------------------------------------------------------------ */
/* Rewriters                                                            */
/* ------------------------------------------------------------------ */

struct rw {
    enum wk_ddi ddi;
    void *args;
    NTSTATUS *status;
};

/* A rewriter acts only once armed; its body sees the call as `w`. */
#define REWRITER(name)                                                          \
    static void name##_body(const struct rw *w);                                \
    static void name(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status) \
    {                                                                           \
        (void)user;                                                             \
        struct rw call = { ddi, args, status };                                 \
        if (M.armed)                                                            \
            name##_body(&call);                                                 \
    }                                                                           \
    static void name##_body(const struct rw *w)

static void *rw_args(const struct rw *w, enum wk_ddi ddi)
{
    return w->ddi == ddi ? w->args : NULL;
}

static DXGK_DRIVERCAPS *rw_caps(const struct rw *w)
{
    DXGKARG_QUERYADAPTERINFO *q = rw_args(w, WK_DDI_QUERY_ADAPTER_INFO);
    return q && q->Type == DXGKQAITYPE_DRIVERCAPS ? q->pOutputData : NULL;
}

/* The first (count) or second (descriptors) call of QUERYSEGMENT3. */
static DXGK_QUERYSEGMENTOUT3 *rw_segments(const struct rw *w, int second)
{
    DXGKARG_QUERYADAPTERINFO *q = rw_args(w, WK_DDI_QUERY_ADAPTER_INFO);
    if (!q || q->Type != DXGKQAITYPE_QUERYSEGMENT3)
        return NULL;
    DXGK_QUERYSEGMENTOUT3 *o = q->pOutputData;
    return (o->pSegmentDescriptor != NULL) == (second != 0) ? o : NULL;
}

static DXGK_QUERYSEGMENTOUT4 *rw_segments4(const struct rw *w, int second)
{
    DXGKARG_QUERYADAPTERINFO *q = rw_args(w, WK_DDI_QUERY_ADAPTER_INFO);
    if (!q || q->Type != DXGKQAITYPE_QUERYSEGMENT4)
        return NULL;
    DXGK_QUERYSEGMENTOUT4 *o = q->pOutputData;
    return (o->pSegmentDescriptor != NULL) == (second != 0) ? o : NULL;
}

/* Descriptor of segment `id` in the second QUERYSEGMENT3 call. */
static DXGK_SEGMENTDESCRIPTOR3 *rw_segment(const struct rw *w, uint32_t id)
{
    DXGK_QUERYSEGMENTOUT3 *o = rw_segments(w, 1);
    return o && id >= 1 && id <= o->NbSegment ? &o->pSegmentDescriptor[id - 1] : NULL;
}

static DXGK_CONTEXTINFO *rw_context_info(const struct rw *w)
{
    DXGKARG_CREATECONTEXT *c = rw_args(w, WK_DDI_CREATE_CONTEXT);
    return c ? &c->ContextInfo : NULL;
}

static DXGK_ALLOCATIONINFO *rw_allocation(const struct rw *w)
{
    DXGKARG_CREATEALLOCATION *a = rw_args(w, WK_DDI_CREATE_ALLOCATION);
    return a && a->NumAllocations ? &a->pAllocationInfo[0] : NULL;
}

static DXGKARG_BUILDPAGINGBUFFER *rw_paging(const struct rw *w, DXGK_BUILDPAGINGBUFFER_OPERATION op)
{
    DXGKARG_BUILDPAGINGBUFFER *a = rw_args(w, WK_DDI_BUILD_PAGING_BUFFER);
    return a && a->Operation == op ? a : NULL;
}

static DXGKARG_RENDER *rw_render(const struct rw *w)
{
    return rw_args(w, WK_DDI_RENDER);
}

/* The last patch location Render emitted (the scenarios emit at least one). */
static D3DDDI_PATCHLOCATIONLIST *rw_last_patch(const struct rw *w)
{
    DXGKARG_RENDER *r = rw_render(w);
    return r ? r->pPatchLocationListOut - 1 : NULL;
}

#define CHANGE(ptr, edit)  \
    do {                   \
        if (!(ptr))        \
            return;        \
        edit;              \
        M.fired++;         \
    } while (0)

/* Adapter start and caps. The kit removes an adapter whose StartDevice
 * failed (RemoveDevice, which also stops the reference driver's), so
 * mutant_release must not remove it again. */
REWRITER(rw_start_status)
{
    CHANGE(rw_args(w, WK_DDI_START_DEVICE) && M.miniport ? M.miniport : NULL,
           (M.miniport = NULL, *w->status = STATUS_UNSUCCESSFUL));
}
REWRITER(rw_caps_status) { CHANGE(rw_caps(w), *w->status = STATUS_UNSUCCESSFUL); }
REWRITER(rw_caps_preempt)
{
    DXGK_DRIVERCAPS *c = rw_caps(w);
    CHANGE(c, (c->SchedulingCaps.PreemptionAware = 1, c->SchedulingCaps.MultiEngineAware = 0,
               c->SchedulingCaps.CancelCommandAware = 0));
}
REWRITER(rw_caps_cancel)
{
    DXGK_DRIVERCAPS *c = rw_caps(w);
    CHANGE(c, c->SchedulingCaps.MultiEngineAware = 0);
}
/* Per-engine reset claimed by a driver (the physical reference) that has
 * none of its DDIs. */
REWRITER(rw_caps_tdr)
{
    DXGK_DRIVERCAPS *c = rw_caps(w);
    CHANGE(c, c->SupportPerEngineTDR = TRUE);
}
REWRITER(rw_caps_nodmapatch)
{
    DXGK_DRIVERCAPS *c = rw_caps(w);
    CHANGE(c, c->SchedulingCaps.NoDmaPatching = 1);
}
REWRITER(rw_caps_reserved)
{
    DXGK_DRIVERCAPS *c = rw_caps(w);
    CHANGE(c, c->SchedulingCaps.Reserved = 1);
}

/* GpuMmu (docs/wddm-gpummu-facts.md 1, 2): the reference driver made a
 * GpuMmu driver of the kit's GPU by rewriting its answers. The caps say
 * VirtualAddressingSupported and GpuMmuSupported; GPUMMUCAPS and each
 * PAGETABLELEVELDESC (which the reference driver refuses) succeed with the
 * kit's GPU's tree (3 levels of 512 eight-byte entries in segment 1),
 * unless gpummu_answer_edit changes them first. */
static struct {
    unsigned levels;          /* PageTableLevelCount answered */
    unsigned edit;            /* enum below */
} G;
enum { G_NONE, G_CAPS_ONLY, G_LEVEL_COUNT, G_LEAF64K, G_UPDATE_MODE, G_RESERVED, G_LEVEL_SIZE, G_LEVEL_SEGMENT,
       G_LEVEL_STATUS, G_SYSMEM_BIG, G_NOT_THE_GPUS, G_ROOMY_TABLE, G_CPU_VIRTUAL_LOCAL };

static void gpummu_caps_answer(const struct rw *w, DXGKARG_QUERYADAPTERINFO *q)
{
    DXGK_GPUMMUCAPS *m = q->pOutputData;
    memset(m, 0, sizeof(*m));
    m->ReadOnlyMemorySupported = 1;
    m->PageTableUpdateMode = DXGK_PAGETABLEUPDATE_GPU_PHYSICAL;
    m->VirtualAddressBitCount = 39;
    m->LeafPageTableSizeFor64KPagesInBytes = 4096;
    m->PageTableLevelCount = G.levels ? G.levels : 3;
    if (G.edit == G_LEVEL_COUNT)
        m->PageTableLevelCount = 7;
    if (G.edit == G_LEAF64K)
        m->LeafPageTableSizeFor64KPagesInBytes = 2048;
    if (G.edit == G_UPDATE_MODE)
        m->PageTableUpdateMode = (DXGK_PAGETABLEUPDATEMODE)3;
    if (G.edit == G_RESERVED)
        m->Value |= 0x80000000u;
    if (G.edit == G_CPU_VIRTUAL_LOCAL) /* the levels' tables stay in segment 1, a memory segment */
        m->PageTableUpdateMode = DXGK_PAGETABLEUPDATE_CPU_VIRTUAL;
    *w->status = STATUS_SUCCESS;
}

static void gpummu_level_answer(const struct rw *w, DXGKARG_QUERYADAPTERINFO *q)
{
    const DXGK_QUERYPAGETABLELEVELDESCIN *in = q->pInputData;
    DXGK_PAGE_TABLE_LEVEL_DESC *d = q->pOutputData;
    memset(d, 0, sizeof(*d));
    d->PageTableIndexBitCount = 9;
    d->PageTableSegmentId = 1;
    d->PagingProcessPageTableSegmentId = 1;
    d->PageTableSizeInBytes = 4096;
    *w->status = STATUS_SUCCESS;
    if (in->LevelIndex != 1)
        return;
    if (G.edit == G_LEVEL_SIZE)
        d->PageTableSizeInBytes = 4096 + 512;
    if (G.edit == G_LEVEL_SEGMENT)
        d->PagingProcessPageTableSegmentId = 31;
    if (G.edit == G_SYSMEM_BIG) {
        d->PageTableSegmentId = 0;
        d->PageTableSizeInBytes = 8192;
        d->PageTableIndexBitCount = 10;
    }
    if (G.edit == G_LEVEL_STATUS)
        *w->status = STATUS_NOT_SUPPORTED;
    if (G.edit == G_ROOMY_TABLE) /* the GPU's 512 entries in a table of two pages: room to spare, no fault */
        d->PageTableSizeInBytes = 8192;
    if (G.edit == G_NOT_THE_GPUS) { /* 1024 entries of 8 bytes: lawful, and not the kit's GPU's level */
        d->PageTableIndexBitCount = 10;
        d->PageTableSizeInBytes = 8192;
    }
}

static void rw_gpummu(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    const struct rw call = { ddi, args, status }, *w = &call;
    DXGKARG_QUERYADAPTERINFO *q = rw_args(w, WK_DDI_QUERY_ADAPTER_INFO);
    if (!M.armed || !q)
        return;
    DXGK_DRIVERCAPS *c = rw_caps(w);
    if (c) {
        c->MemoryManagementCaps.VirtualAddressingSupported = 1;
        c->MemoryManagementCaps.GpuMmuSupported = 1;
        M.fired++;
    } else if (G.edit != G_CAPS_ONLY && q->Type == DXGKQAITYPE_GPUMMUCAPS) {
        gpummu_caps_answer(w, q);
        M.fired++;
    } else if (G.edit != G_CAPS_ONLY && q->Type == DXGKQAITYPE_PAGETABLELEVELDESC) {
        gpummu_level_answer(w, q);
        M.fired++;
    }
}

#define GPUMMU_REWRITER(name, what)                                                  \
    static void name(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)     \
    {                                                                                \
        G.edit = (what);                                                             \
        rw_gpummu(user, ddi, args, status);                                          \
    }
GPUMMU_REWRITER(rw_gpummu_refused, G_CAPS_ONLY)
GPUMMU_REWRITER(rw_gpummu_level_refused, G_LEVEL_STATUS)
GPUMMU_REWRITER(rw_gpummu_level_count, G_LEVEL_COUNT)
GPUMMU_REWRITER(rw_gpummu_leaf64k, G_LEAF64K)
GPUMMU_REWRITER(rw_gpummu_update_mode, G_UPDATE_MODE)
GPUMMU_REWRITER(rw_gpummu_reserved, G_RESERVED)
GPUMMU_REWRITER(rw_gpummu_level_size, G_LEVEL_SIZE)
GPUMMU_REWRITER(rw_gpummu_level_segment, G_LEVEL_SEGMENT)
GPUMMU_REWRITER(rw_gpummu_sysmem_big, G_SYSMEM_BIG)
GPUMMU_REWRITER(rw_gpummu_correct, G_NONE)
GPUMMU_REWRITER(rw_gpummu_not_the_gpus, G_NOT_THE_GPUS)
GPUMMU_REWRITER(rw_gpummu_roomy_table, G_ROOMY_TABLE)
GPUMMU_REWRITER(rw_gpummu_cpu_virtual_local, G_CPU_VIRTUAL_LOCAL)

/* What a driver that writes nothing for one paging operation does: the
 * bytes its call wrote taken back (pDmaBuffer and DmaSize as the kit handed
 * them; the buffer is the driver's PagingBufferSize, DmaBufferWriteOffset
 * bytes of it used before the call). */
static void undo_paging_write(const struct rw *w, DXGK_BUILDPAGINGBUFFER_OPERATION op)
{
    DXGKARG_BUILDPAGINGBUFFER *a = rw_args(w, WK_DDI_BUILD_PAGING_BUFFER);
    if (!a || a->Operation != op)
        return;
    UINT before = 0x4000u - a->DmaBufferWriteOffset; /* RD_PAGING_BUFFER_SIZE */
    UINT wrote = before - a->DmaSize;
    a->pDmaBuffer = (BYTE *)a->pDmaBuffer - wrote;
    a->DmaSize += wrote;
    M.fired++;
}
REWRITER(rw_updatept_nothing) { undo_paging_write(w, DXGK_OPERATION_UPDATE_PAGE_TABLE); }
/* The paging process's set-up (a GpuMmu driver's first FILL_VIRTUAL makes
 * it): an UPDATE_PAGE_TABLE with no paging buffer answered as if it had
 * one to go multipass in. */
REWRITER(rw_cpu_update_deferred)
{
    DXGKARG_BUILDPAGINGBUFFER *a = rw_paging(w, DXGK_OPERATION_UPDATE_PAGE_TABLE);
    CHANGE(a && !a->pDmaBuffer ? a : NULL, *w->status = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
}
REWRITER(rw_flushtlb_nothing) { undo_paging_write(w, DXGK_OPERATION_FLUSH_TLB); }
/* COPY_PAGE_TABLE_ENTRIES whose first COPY moves one 8-byte entry too few
 * (the driver's commands start where the call began: the buffer is
 * RD_PAGING_BUFFER_SIZE, DmaBufferWriteOffset of it used before). */
REWRITER(rw_copypte_short)
{
    DXGKARG_BUILDPAGINGBUFFER *a = rw_paging(w, DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES);
    BYTE *start = a ? (BYTE *)a->pDmaBuffer - ((0x4000u - a->DmaBufferWriteOffset) - a->DmaSize) : NULL;
    BYTE *bytes = start && start < (BYTE *)a->pDmaBuffer ? operand64(start, WK_GPU_OP_COPY, 2) : NULL;
    CHANGE(bytes && get_le64(bytes) >= 8 ? bytes : NULL, put_le64(bytes, get_le64(bytes) - 8));
}

/* Segment query */
REWRITER(rw_seg_status) { CHANGE(rw_segments(w, 0), *w->status = STATUS_UNSUCCESSFUL); }
REWRITER(rw_seg_count)
{
    DXGK_QUERYSEGMENTOUT3 *o = rw_segments(w, 1);
    CHANGE(o, o->NbSegment -= 1);
}
REWRITER(rw_seg_stride)
{
    DXGK_QUERYSEGMENTOUT4 *o = rw_segments4(w, 1);
    CHANGE(o, o->SegmentDescriptorStride = 8);
}
REWRITER(rw_seg_size)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, d->Size += 0x800);
}
REWRITER(rw_seg_base)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, d->BaseAddress.QuadPart += 0x10);
}
REWRITER(rw_seg_overlap)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG2);
    CHANGE(d, d->BaseAddress.QuadPart = (LONGLONG)(VT_SEG1_BASE + 0x80000));
}
REWRITER(rw_seg_agp_alone)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_APER);
    CHANGE(d, d->Flags.Agp = 1);
}
REWRITER(rw_seg_agp_aperture)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_APER);
    CHANGE(d, d->Flags.Value = 0x2u);
}
REWRITER(rw_seg_commit_memory)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, d->CommitLimit = d->Size / 2);
}
REWRITER(rw_seg_commit_aperture)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_APER);
    CHANGE(d, d->CommitLimit = 0);
}
REWRITER(rw_seg_cpu_visible)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, (d->Flags.CpuVisible = 1, d->CpuTranslatedAddress.QuadPart = 0));
}
REWRITER(rw_seg_cache_coherent)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, d->Flags.CacheCoherent = 1);
}
REWRITER(rw_seg_reserved_sysmem)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, d->Flags.ReservedSysMem = 1);
}
REWRITER(rw_seg_host_aperture)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, (d->Flags.SupportsCpuHostAperture = 1, d->Flags.CpuVisible = 1,
               d->CpuTranslatedAddress.QuadPart = 0xE0000000ll));
}
REWRITER(rw_seg_standby)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, d->Flags.PreservedDuringHibernate = 1);
}
REWRITER(rw_seg_reserved_bits)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG1);
    CHANGE(d, d->Flags.Reserved = 1);
}
REWRITER(rw_seg_paging_segment)
{
    DXGK_QUERYSEGMENTOUT3 *o = rw_segments(w, 1);
    CHANGE(o, o->PagingBufferSegmentId = VT_SEG1);
}
REWRITER(rw_seg_paging_size)
{
    DXGK_QUERYSEGMENTOUT3 *o = rw_segments(w, 1);
    CHANGE(o, o->PagingBufferSize = 0);
}
REWRITER(rw_seg_bank_kind)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_APER);
    CHANGE(d, d->Flags.UseBanking = 1);
}
REWRITER(rw_seg_bank_table)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG2);
    CHANGE(d, d->NbOfBanks = 200);
}
/* Bank 2 ends before bank 1. */
static SIZE_T bad_bank_ends[VT_BANKS] = { 0x80000, 0x40000, 0xC0000, 0x100000 };
REWRITER(rw_seg_bank_order)
{
    DXGK_SEGMENTDESCRIPTOR3 *d = rw_segment(w, VT_SEG2);
    CHANGE(d, d->pBankRangeTable = bad_bank_ends);
}

/* Devices and contexts: a failure status after the driver made the
 * object is undone first (as a driver that fails must), so the test leaks
 * nothing. */
REWRITER(rw_dev_status)
{
    DXGKARG_CREATEDEVICE *a = rw_args(w, WK_DDI_CREATE_DEVICE);
    CHANGE(a, (m_destroy_device(a->hDevice), *w->status = STATUS_UNSUCCESSFUL));
}
REWRITER(rw_ctx_status)
{
    DXGKARG_CREATECONTEXT *a = rw_args(w, WK_DDI_CREATE_CONTEXT);
    CHANGE(a, (m_destroy_context(a->hContext), *w->status = STATUS_UNSUCCESSFUL));
}
REWRITER(rw_ctx_handle)
{
    DXGKARG_CREATECONTEXT *a = rw_args(w, WK_DDI_CREATE_CONTEXT);
    CHANGE(a, (m_destroy_context(a->hContext), a->hContext = NULL));
}
/* The runtime's handle given back as the driver's own (hDevice and
 * hContext are in/out): what a driver that succeeds without writing its
 * handle returns. The first device's and first context's runtime handles
 * (reference-impl/vidmm/internal.h: DEVICE_HANDLE_TAG | 1,
 * CONTEXT_HANDLE_TAG | 1). */
#define RUNTIME_DEVICE_1 ((HANDLE)(uintptr_t)0xD0000001u)
#define RUNTIME_CONTEXT_1 ((HANDLE)(uintptr_t)0xC0000001u)
REWRITER(rw_dev_runtime_handle)
{
    DXGKARG_CREATEDEVICE *a = rw_args(w, WK_DDI_CREATE_DEVICE);
    CHANGE(a, (m_destroy_device(a->hDevice), a->hDevice = RUNTIME_DEVICE_1));
}
REWRITER(rw_ctx_runtime_handle)
{
    DXGKARG_CREATECONTEXT *a = rw_args(w, WK_DDI_CREATE_CONTEXT);
    CHANGE(a, (m_destroy_context(a->hContext), a->hContext = RUNTIME_CONTEXT_1));
}
REWRITER(rw_ctx_segset)
{
    DXGK_CONTEXTINFO *i = rw_context_info(w);
    CHANGE(i, i->DmaBufferSegmentSet = VT_SET(VT_SEG1));
}
REWRITER(rw_ctx_gdi)
{
    DXGK_CONTEXTINFO *i = rw_context_info(w);
    CHANGE(i, i->AllocationListSize = 64);
}
REWRITER(rw_ctx_reserved)
{
    DXGK_CONTEXTINFO *i = rw_context_info(w);
    CHANGE(i, i->Reserved = 1);
}
REWRITER(rw_ctx_size)
{
    DXGK_CONTEXTINFO *i = rw_context_info(w);
    CHANGE(i, i->DmaBufferSize = 0);
}
REWRITER(rw_ctx_companion)
{
    DXGK_CONTEXTINFO *i = rw_context_info(w);
    CHANGE(i, i->PagingCompanionNodeId = 1);
}
/* A driver of two engines (MultiEngineAware, as the reference driver is)
 * whose contexts page on the second: no violation. Not armed by a
 * scenario: the caps are answered at adapter start, before any step. */
static void rw_two_nodes_companion(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    const struct rw call = { ddi, args, status }, *w = &call;
    DXGK_DRIVERCAPS *c = rw_caps(w);
    if (c) {
        c->GpuEngineTopology.NbAsymetricProcessingNodes = 2;
        M.fired++;
    }
    DXGK_CONTEXTINFO *i = rw_context_info(w);
    CHANGE(i, i->PagingCompanionNodeId = 1);
}
REWRITER(rw_ctx_caps)
{
    DXGK_CONTEXTINFO *i = rw_context_info(w);
    CHANGE(i, i->Caps.Value |= 0x8u);
}

/* Allocations */
REWRITER(rw_alloc_status)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    if (!i || !M.miniport)
        return;
    DXGKARG_DESTROYALLOCATION d;
    memset(&d, 0, sizeof(d));
    d.NumAllocations = 1;
    d.pAllocationList = &i->hAllocation;
    m_destroy_allocation(M.miniport, &d);
    *w->status = STATUS_UNSUCCESSFUL;
    M.fired++;
}
REWRITER(rw_alloc_size)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->Size = 0);
}
REWRITER(rw_alloc_align)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->Alignment = 0x3000);
}
REWRITER(rw_alloc_pitch)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->PitchAlignedSize = i->Size - 1);
}
REWRITER(rw_alloc_set)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->SupportedWriteSegmentSet |= 1u << 9);
}
REWRITER(rw_alloc_pref_exists)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->PreferredSegment.SegmentId1 = 9);
}
REWRITER(rw_alloc_pref_supported)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->SupportedWriteSegmentSet = VT_SET(VT_SEG1) | VT_SET(VT_APER));
}
REWRITER(rw_alloc_bank_range)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->HintedBank.Value = VT_BANK(0, VT_BANKS + 1, 0));
}
REWRITER(rw_alloc_bank_order)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->HintedBank.Value = VT_BANK(1, 2, 0));
}
REWRITER(rw_alloc_evict_set)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->EvictionSegmentSet = VT_SET(VT_SEG1));
}
REWRITER(rw_alloc_priority)
{
    DXGK_ALLOCATIONINFO *i = rw_allocation(w);
    CHANGE(i, i->AllocationPriority = 0);
}
/* OpenAllocation succeeds and leaves the device-specific handle NULL. */
REWRITER(rw_open_null)
{
    DXGKARG_OPENALLOCATION *o = rw_args(w, WK_DDI_OPEN_ALLOCATION);
    CHANGE(o, o->pOpenAllocation[0].hDeviceSpecificAllocation = NULL);
}

/* Paging (each on the FILL the scenario's page-in builds) */
REWRITER(rw_paging_status)
{
    CHANGE(rw_paging(w, DXGK_OPERATION_FILL), *w->status = STATUS_UNSUCCESSFUL);
}
REWRITER(rw_paging_advance)
{
    DXGKARG_BUILDPAGINGBUFFER *a = rw_paging(w, DXGK_OPERATION_FILL);
    CHANGE(a, a->pDmaBuffer = (BYTE *)a->pDmaBuffer + a->DmaSize + 16);
}
REWRITER(rw_paging_private)
{
    DXGKARG_BUILDPAGINGBUFFER *a = rw_paging(w, DXGK_OPERATION_FILL);
    CHANGE(a, a->pDmaBufferPrivateData =
                  (BYTE *)a->pDmaBufferPrivateData + a->DmaBufferPrivateDataSize + 1);
}
/* Always "more room, please", forgetting its progress: never finishes. */
REWRITER(rw_paging_progress)
{
    DXGKARG_BUILDPAGINGBUFFER *a = rw_paging(w, DXGK_OPERATION_FILL);
    CHANGE(a, (a->MultipassOffset = 0, *w->status = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER));
}
REWRITER(rw_paging_busy)
{
    CHANGE(rw_paging(w, DXGK_OPERATION_FILL), *w->status = STATUS_GRAPHICS_ALLOCATION_BUSY);
}
REWRITER(rw_paging_input)
{
    DXGKARG_BUILDPAGINGBUFFER *a = rw_paging(w, DXGK_OPERATION_FILL);
    CHANGE(a, a->Fill.FillPattern ^= 1u);
}

/* Render */
REWRITER(rw_render_status) { CHANGE(rw_render(w), *w->status = STATUS_UNSUCCESSFUL); }
REWRITER(rw_render_advance)
{
    DXGKARG_RENDER *r = rw_render(w);
    CHANGE(r, r->pDmaBuffer = (BYTE *)r->pDmaBuffer + r->DmaSize + 16);
}
REWRITER(rw_render_patch_advance)
{
    DXGKARG_RENDER *r = rw_render(w);
    CHANGE(r, r->pPatchLocationListOut += r->PatchLocationListOutSize + 1);
}
/* A failure status after output was written (the outside sample's
 * STATUS_INVALID_PARAMETER with pPatchLocationListOut advanced). */
REWRITER(rw_render_fail_outputs)
{
    DXGKARG_RENDER *r = rw_render(w);
    CHANGE(r, (r->pPatchLocationListOut += 1, *w->status = STATUS_INVALID_PARAMETER));
}
REWRITER(rw_render_patch_index)
{
    D3DDDI_PATCHLOCATIONLIST *p = rw_last_patch(w);
    CHANGE(p, p->AllocationIndex = 7);
}
REWRITER(rw_render_patch_offset)
{
    D3DDDI_PATCHLOCATIONLIST *p = rw_last_patch(w);
    CHANGE(p, p->PatchOffset = 0x3FF0);
}
REWRITER(rw_render_split)
{
    D3DDDI_PATCHLOCATIONLIST *p = rw_last_patch(w);
    CHANGE(p, p->SplitOffset = 0x3000);
}
REWRITER(rw_render_slot)
{
    D3DDDI_PATCHLOCATIONLIST *p = rw_last_patch(w);
    CHANGE(p, p->SlotId = 16); /* the reference driver's MaxAllocationListSlotId */
}

/* Patch, submit, cancel (render submissions only, not paging buffers) */
REWRITER(rw_patch_status)
{
    DXGKARG_PATCH *a = rw_args(w, WK_DDI_PATCH);
    CHANGE(a && !a->Flags.Paging ? a : NULL, *w->status = STATUS_UNSUCCESSFUL);
}
REWRITER(rw_submit_status)
{
    DXGKARG_SUBMITCOMMAND *a = rw_args(w, WK_DDI_SUBMIT_COMMAND);
    CHANGE(a && !a->Flags.Paging ? a : NULL, *w->status = STATUS_UNSUCCESSFUL);
}
REWRITER(rw_submitv_status)
{
    CHANGE(rw_args(w, WK_DDI_SUBMIT_COMMAND_VIRTUAL), *w->status = STATUS_UNSUCCESSFUL);
}
/* A page fault (DMA_PAGE_FAULTED) reported as DMA_FAULTED, naming another
 * fence, or with FENCE_INVALID and no reset flag. */
REWRITER(rw_page_fault_as_dma_faulted)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = rw_args(w, WK_DDI_CB_NOTIFY_INTERRUPT);
    CHANGE(d && d->InterruptType == DXGK_INTERRUPT_DMA_PAGE_FAULTED ? d : NULL,
           (d->InterruptType = DXGK_INTERRUPT_DMA_FAULTED, d->DmaFaulted.Status = STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE));
}
REWRITER(rw_page_fault_other_fence)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = rw_args(w, WK_DDI_CB_NOTIFY_INTERRUPT);
    CHANGE(d && d->InterruptType == DXGK_INTERRUPT_DMA_PAGE_FAULTED ? d : NULL,
           d->DmaPageFaulted.FaultedFenceId += 1000);
}
REWRITER(rw_page_fault_no_reset)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = rw_args(w, WK_DDI_CB_NOTIFY_INTERRUPT);
    CHANGE(d && d->InterruptType == DXGK_INTERRUPT_DMA_PAGE_FAULTED ? d : NULL,
           d->DmaPageFaulted.PageFaultFlags = DXGK_PAGE_FAULT_FENCE_INVALID);
}
/* A two-level root's size comes with a count written back below the
 * entries asked. */
REWRITER(rw_rootsize_count_short)
{
    DXGKARG_GETROOTPAGETABLESIZE *a = rw_args(w, WK_DDI_GET_ROOT_PAGE_TABLE_SIZE);
    CHANGE(a, a->NumberOfPte = 0);
}
/* The page fault's engine reset fails, so the kernel resets the adapter,
 * and the driver's DxgkDdiResetFromTimeout fails too. */
REWRITER(rw_tdr_reset_fails)
{
    if (w->ddi == WK_DDI_RESET_ENGINE)
        *w->status = STATUS_UNSUCCESSFUL; /* the way to the adapter's reset, no rule of its own */
    else if (w->ddi == WK_DDI_RESET_FROM_TIMEOUT)
        *w->status = STATUS_UNSUCCESSFUL, M.fired++;
}
static void completion_as_page_fault(DXGKARGCB_NOTIFY_INTERRUPT_DATA *d)
{
    UINT fence = d->DmaCompleted.SubmissionFenceId;
    memset(&d->DmaPageFaulted, 0, sizeof(d->DmaPageFaulted));
    d->InterruptType = DXGK_INTERRUPT_DMA_PAGE_FAULTED;
    d->DmaPageFaulted.FaultedFenceId = fence;
}
REWRITER(rw_completion_as_page_fault)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = rw_args(w, WK_DDI_CB_NOTIFY_INTERRUPT);
    CHANGE(d && d->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED ? d : NULL, completion_as_page_fault(d));
}
REWRITER(rw_page_fault_iommu_only)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = rw_args(w, WK_DDI_CB_NOTIFY_INTERRUPT);
    CHANGE(d && d->InterruptType == DXGK_INTERRUPT_DMA_PAGE_FAULTED ? d : NULL,
           d->DmaPageFaulted.PageFaultFlags = DXGK_PAGE_FAULT_FENCE_INVALID | DXGK_PAGE_FAULT_IOMMU);
}
/* A context that asked for no DMA buffer private data, whose virtual
 * submission is refused as malformed: only the buffer could be, and it is
 * the GPU's own commands. */
REWRITER(rw_submitv_invalid_no_private)
{
    DXGKARG_CREATECONTEXT *c = rw_args(w, WK_DDI_CREATE_CONTEXT);
    if (c)
        c->ContextInfo.DmaBufferPrivateDataSize = 0;
    CHANGE(rw_args(w, WK_DDI_SUBMIT_COMMAND_VIRTUAL), *w->status = STATUS_INVALID_PARAMETER);
}
REWRITER(rw_cancel_status)
{
    CHANGE(rw_args(w, WK_DDI_CANCEL_COMMAND), *w->status = STATUS_UNSUCCESSFUL);
}

/* Interrupts: InterruptRoutine's BOOLEAN answer is in *status; the
 * rewriter sees a copy of DxgkCbNotifyInterrupt's data. */
REWRITER(rw_isr_unclaimed)
{
    CHANGE(w->ddi == WK_DDI_INTERRUPT_ROUTINE ? w->status : NULL, *w->status = 0);
}
/* DMA_COMPLETED turned into an event the scheduler ignores: the fence is
 * never reported. */
REWRITER(rw_notify_dropped)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = rw_args(w, WK_DDI_CB_NOTIFY_INTERRUPT);
    CHANGE(d && d->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED ? d : NULL,
           d->InterruptType = DXGK_INTERRUPT_CRTC_VSYNC);
}
REWRITER(rw_notify_wrong_node)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = rw_args(w, WK_DDI_CB_NOTIFY_INTERRUPT);
    CHANGE(d && d->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED ? d : NULL, d->DmaCompleted.NodeOrdinal = 3);
}
REWRITER(rw_notify_bad_fence)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA *d = rw_args(w, WK_DDI_CB_NOTIFY_INTERRUPT);
    CHANGE(d && d->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED ? d : NULL,
           d->DmaCompleted.SubmissionFenceId += 1000);
}

/* Context allocations: the create callback's argument before it is
 * checked; the destroy callback's handle. */
REWRITER(rw_ctxalloc_args)
{
    DXGKARGCB_CREATECONTEXTALLOCATION *a = rw_args(w, WK_DDI_CB_CREATE_CONTEXT_ALLOCATION);
    CHANGE(a, a->Size = 0);
}
/* A context allocation's placement fields are DXGK_ALLOCATIONINFO's: a
 * preference naming no segment, and a NULL hDriverAllocation. */
REWRITER(rw_ctxalloc_pref)
{
    DXGKARGCB_CREATECONTEXTALLOCATION *a = rw_args(w, WK_DDI_CB_CREATE_CONTEXT_ALLOCATION);
    CHANGE(a, a->PreferredSegment.SegmentId1 = 29);
}
REWRITER(rw_ctxalloc_null_handle)
{
    DXGKARGCB_CREATECONTEXTALLOCATION *a = rw_args(w, WK_DDI_CB_CREATE_CONTEXT_ALLOCATION);
    CHANGE(a, a->hDriverAllocation = NULL);
}
REWRITER(rw_ctxalloc_handle)
{
    HANDLE *h = rw_args(w, WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION);
    CHANGE(h, *h = (HANDLE)((uintptr_t)*h ^ 0x0ABC0000u));
}

/* ------------------------------------------------------------------ */
/* Scenarios                                                            */
/* ------------------------------------------------------------------ */

struct run {
    struct wk_vidmm *vm;
    uint32_t device, context, alloc;
    wk_status first_error;     /* of the first step that failed */
    const char *first_step;
    char first_message[384];
};

/* The run in progress, so a failed assertion's teardown can release it. */
static struct run RUN;

static wk_status step(struct run *r, wk_status st, const char *what)
{
    if (st != WK_OK && r->first_error == WK_OK) {
        r->first_error = st;
        r->first_step = what;
        snprintf(r->first_message, sizeof(r->first_message), "%s", wk_vidmm_last_error(r->vm));
    }
    return st;
}

#define DO(expr)                                  \
    do {                                          \
        if (step(r, (expr), #expr) != WK_OK)      \
            return;                               \
    } while (0)

/* 64 KiB, preferring segment 2 with a hint for bank 2 (offset 0x40000), so
 * every placement field has something to say and the neighbours of the
 * destination are inside the segment. */
static void default_request(WK_ALLOCATION_REQUEST *req)
{
    vt_request_at(req, 0x10000, 0, VT_PREF(0, VT_SEG2, 0), VT_BANK(0, 2, 0));
}

/* Start, device and (with `context`) context; 0 when a step failed. */
static int up(struct run *r, int context)
{
    if (step(r, wk_vidmm_start(r->vm), "wk_vidmm_start") != WK_OK)
        return 0;
    if (step(r, wk_vidmm_create_device(r->vm, 0, &r->device), "wk_vidmm_create_device") != WK_OK)
        return 0;
    if (context && step(r, wk_vidmm_create_context(r->vm, r->device, 0, &r->context),
                        "wk_vidmm_create_context") != WK_OK)
        return 0;
    return 1;
}

/* Up (with a context when asked) and one allocation made from `req`. */
static int up_with(struct run *r, int context, const WK_ALLOCATION_REQUEST *req, int page_in)
{
    if (!up(r, context))
        return 0;
    if (step(r, wk_vidmm_create_allocation(r->vm, r->device, req, &r->alloc),
             "wk_vidmm_create_allocation") != WK_OK)
        return 0;
    return !page_in || step(r, wk_vidmm_page_in(r->vm, r->alloc), "wk_vidmm_page_in") == WK_OK;
}

static void sc_start(struct run *r)
{
    arm();
    DO(wk_vidmm_start(r->vm));
}

static void sc_device(struct run *r)
{
    DO(wk_vidmm_start(r->vm));
    arm();
    DO(wk_vidmm_create_device(r->vm, 0, &r->device));
}

static void create_context(struct run *r, uint32_t flags)
{
    if (!up(r, 0))
        return;
    arm();
    DO(wk_vidmm_create_context(r->vm, r->device, flags, &r->context));
}

static void sc_context(struct run *r)
{
    create_context(r, 0);
}

static void sc_gdi_context(struct run *r)
{
    DXGK_CREATECONTEXTFLAGS f = { .Value = 0 };
    f.GdiContext = 1;
    create_context(r, f.Value);
}

static void sc_system_context(struct run *r)
{
    DXGK_CREATECONTEXTFLAGS f = { .Value = 0 };
    f.SystemContext = 1;
    create_context(r, f.Value);
}

static void sc_destroy_context(struct run *r)
{
    if (!up(r, 1))
        return;
    arm();
    DO(wk_vidmm_destroy_context(r->vm, r->context));
}

static void sc_allocation(struct run *r)
{
    WK_ALLOCATION_REQUEST req;
    default_request(&req);
    if (!up(r, 0))
        return;
    arm();
    DO(wk_vidmm_create_allocation(r->vm, r->device, &req, &r->alloc));
}

static void aperture_request(WK_ALLOCATION_REQUEST *req)
{
    vt_request_at(req, 0x10000, VT_SET(VT_APER), 0, 0);
}

enum paging_op { OP_PAGE_IN, OP_FILL, OP_EVICT };

/* One allocation (the default request or an aperture-only one), paged in
 * and filled first when asked, then one armed paging operation on it. */
static void paging_scenario(struct run *r, int aperture, int paged_in, int filled, enum paging_op op)
{
    WK_ALLOCATION_REQUEST req;
    if (aperture)
        aperture_request(&req);
    else
        default_request(&req);
    if (!up_with(r, 0, &req, paged_in))
        return;
    if (filled)
        DO(wk_vidmm_fill(r->vm, r->alloc, 0x5A5AA5A5u));
    arm();
    switch (op) {
    case OP_PAGE_IN: DO(wk_vidmm_page_in(r->vm, r->alloc)); break;
    case OP_FILL: DO(wk_vidmm_fill(r->vm, r->alloc, 0x5A5AA5A5u)); break;
    case OP_EVICT: DO(wk_vidmm_evict(r->vm, r->alloc)); break;
    }
}

/* A fresh allocation paged in: a FILL of zero. */
static void sc_page_in(struct run *r) { paging_scenario(r, 0, 0, 0, OP_PAGE_IN); }
static void sc_fill(struct run *r) { paging_scenario(r, 0, 1, 0, OP_FILL); }
/* A TRANSFER of filled content to system memory. */
static void sc_evict(struct run *r) { paging_scenario(r, 0, 1, 1, OP_EVICT); }
static void sc_aperture_map(struct run *r) { paging_scenario(r, 1, 0, 0, OP_PAGE_IN); }
static void sc_aperture_unmap(struct run *r) { paging_scenario(r, 1, 1, 0, OP_EVICT); }

/* A GpuMmu driver's address space (CASE_GPUMMU: the GpuMmu build of the
 * reference driver): a filled allocation mapped at a VA that crosses two
 * leaf tables, read by the GPU through it, unmapped (FLUSH_TLB). */
static void sc_gpu_va(struct run *r)
{
    WK_ALLOCATION_REQUEST req;
    default_request(&req);
    if (!up_with(r, 0, &req, 1))
        return;
    DO(wk_vidmm_fill(r->vm, r->alloc, 0x5A5AA5A5u));
    arm();
    uint32_t space;
    DO(wk_vidmm_va_create_space(r->vm, &space));
    const uint64_t va = 0x40000000ull - 0x2000; /* two pages in one leaf table, the rest in the next */
    DO(wk_vidmm_va_map(r->vm, space, va, r->alloc, 0, 0x4000, 0));
    uint32_t word = 0;
    DO(wk_vidmm_va_read(r->vm, space, va + 0x2ffc, &word, 4, NULL));
    DO(word == 0x5A5AA5A5u ? WK_OK : WK_E_CONTRACT);
    DO(wk_vidmm_va_unmap(r->vm, space, va, 0x4000));
}

/* A root with two mappings (root entries 1 and 3) moved, its links copied
 * with COPY_PAGE_TABLE_ENTRIES in the paging process; both still read. */
static void sc_gpu_va_root_copy(struct run *r)
{
    WK_ALLOCATION_REQUEST req;
    default_request(&req);
    if (!up_with(r, 0, &req, 1))
        return;
    DO(wk_vidmm_fill(r->vm, r->alloc, 0x5A5AA5A5u));
    uint32_t space;
    DO(wk_vidmm_va_create_space(r->vm, &space));
    DO(wk_vidmm_va_map(r->vm, space, 0x40000000ull, r->alloc, 0, 0x1000, 0));
    DO(wk_vidmm_va_map(r->vm, space, 0xC0000000ull, r->alloc, 0, 0x1000, 0));
    arm();
    DO(wk_vidmm_va_move_root_copying(r->vm, space));
    uint32_t word = 0;
    DO(wk_vidmm_va_read(r->vm, space, 0xC0000ffcull, &word, 4, NULL));
    DO(word == 0x5A5AA5A5u ? WK_OK : WK_E_CONTRACT);
}

/* A virtual context of a device of the space's process runs a FILL written
 * at a mapped virtual address (SubmitCommandVirtual), the root moves, and
 * it runs another: under the root SetRootPageTable last named, no fault. */
/* A started adapter, an address space, a device of its process, a virtual
 * context (arm() just before it when arm_first: its DXGK_CONTEXTINFO is then
 * part of what a rewrite may change) and a paged-in allocation. */
static wk_status virtual_context_up(struct run *r, uint32_t *space, int arm_first)
{
    WK_ALLOCATION_REQUEST req;
    default_request(&req);
    DXGK_CREATECONTEXTFLAGS f = { .Value = 0 };
    f.VirtualAddressing = 1;
    wk_status st = wk_vidmm_start(r->vm);
    if (st == WK_OK)
        st = wk_vidmm_va_create_space(r->vm, space);
    if (st == WK_OK)
        st = wk_vidmm_create_device_in(r->vm, 0, *space, &r->device);
    if (st == WK_OK && arm_first)
        arm();
    if (st == WK_OK)
        st = wk_vidmm_create_context(r->vm, r->device, f.Value, &r->context);
    if (st == WK_OK)
        st = wk_vidmm_create_allocation(r->vm, r->device, &req, &r->alloc);
    return st == WK_OK ? wk_vidmm_page_in(r->vm, r->alloc) : st;
}

static void sc_gpu_va_submit(struct run *r)
{
    uint32_t space;
    DO(virtual_context_up(r, &space, 1));
    DO(wk_vidmm_va_map(r->vm, space, 0x40000000ull, r->alloc, 0, 0x2000, 0));
    uint8_t cmd[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, cmd, sizeof(cmd));
    DO(wk_gpu_emit_fill(&w, 0x40000000ull, 0x1000, 0x600dcafeu));
    DO(wk_vidmm_va_write(r->vm, space, 0x40001000ull, cmd, w.used, NULL));
    DO(wk_vidmm_submit_virtual(r->vm, r->context, 0x40001000ull, (uint32_t)w.used));
    DO(wk_vidmm_va_move_root(r->vm, space));
    DO(wk_vidmm_submit_virtual(r->vm, r->context, 0x40001000ull, (uint32_t)w.used));
    uint32_t word = 0;
    DO(wk_vidmm_va_read(r->vm, space, 0x40000ffcull, &word, 4, NULL));
    DO(word == 0x600dcafeu ? WK_OK : WK_E_CONTRACT);
}

/* A virtual context's FILL at an address nothing is mapped at: the GPU
 * page-faults, the driver reports it (DMA_PAGE_FAULTED), and the context is
 * in error afterwards (a second submission is refused). */
static void sc_gpu_va_page_fault(struct run *r)
{
    uint32_t space;
    DO(virtual_context_up(r, &space, 0));
    DO(wk_vidmm_va_map(r->vm, space, 0x50000000ull, r->alloc, 0, 0x1000, 0));
    uint8_t cmd[64];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, cmd, sizeof(cmd));
    DO(wk_gpu_emit_fill(&w, 0x40000000ull, 0x1000, 0xbad0bad0u));
    DO(wk_vidmm_va_write(r->vm, space, 0x50000000ull, cmd, w.used, NULL));
    arm();
    DO(wk_vidmm_submit_virtual_to_fault(r->vm, r->context, 0x50000000ull, (uint32_t)w.used, 0x40000000ull,
                                        0x40001000ull, 0));
    DO(wk_vidmm_submit_virtual(r->vm, r->context, 0x50000000ull, (uint32_t)w.used) == WK_E_INVALID_ARGUMENT
           ? WK_OK
           : WK_E_CONTRACT);
}

static void sc_fence(struct run *r)
{
    WK_ALLOCATION_REQUEST req;
    default_request(&req);
    if (!up_with(r, 0, &req, 1))
        return;
    struct wk_vidmm_allocation_state s;
    DO(wk_vidmm_allocation_state(r->vm, r->alloc, &s));
    arm();
    DO(wk_vidmm_signal_monitored_fence(r->vm, s.gpu_address + 0x100, 42));
}

/* One FILL record on a resident allocation: one patch location, and the
 * allocation list says where it is (pre-patching). */
static void sc_render(struct run *r)
{
    WK_ALLOCATION_REQUEST req;
    default_request(&req);
    if (!up_with(r, 1, &req, 1))
        return;
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_fill(&cmd, 0, 0, 0x1000, 0x11223344u);
    struct wk_vidmm_list_entry list[1] = { { r->alloc, 1 } };
    struct wk_vidmm_render_result res;
    arm();
    DO(vt_render(r->vm, r->context, &cmd, list, 1, 0, &res));
}

/* sc_render, the context destroyed, another one created (where
 * MUT_DMA_STALE writes through the first one's DMA buffer), and the
 * device destroyed: the teardown step that judges the quarantine
 * (MEM-STALE-001, reference-impl/vidmm/dma_quarantine.c). */
static void sc_render_destroy_context(struct run *r)
{
    sc_render(r);
    if (r->first_error != WK_OK)
        return;
    M.armed = 0;
    DO(wk_vidmm_destroy_context(r->vm, r->context));
    arm();
    DO(wk_vidmm_create_context(r->vm, r->device, 0, &r->context));
    DO(wk_vidmm_destroy_device(r->vm, r->device));
}

/* An aperture allocation with MapApertureCpuVisible mapped (where
 * MUT_CPU_VIEW_STALE keeps CpuVisibleAddress) and evicted, then another
 * one paged in: its BuildPagingBuffer is where the mutant writes through
 * the ended address (MEM-STALE-002, reference-impl/vidmm/aperture_view.c). */
static void sc_cpu_view_after_unmap(struct run *r)
{
    WK_ALLOCATION_REQUEST req;
    aperture_request(&req);
    DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 flags = { .Value = 0 };
    flags.MapApertureCpuVisible = 1;
    req.Flags.Value = flags.Value;
    if (!up_with(r, 0, &req, 1))
        return;
    DO(wk_vidmm_evict(r->vm, r->alloc));
    aperture_request(&req);
    DO(wk_vidmm_create_allocation(r->vm, r->device, &req, &r->alloc));
    arm();
    DO(wk_vidmm_page_in(r->vm, r->alloc));
}

/* sc_render, then the teardown (what POOL-LEAK-001 judges). */
static void sc_render_then_stop(struct run *r)
{
    sc_render(r);
    if (r->vm)
        (void)wk_vidmm_stop(r->vm);
}

static void sc_cancel(struct run *r)
{
    WK_ALLOCATION_REQUEST req;
    default_request(&req);
    if (!up_with(r, 1, &req, 1))
        return;
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_fill(&cmd, 0, 0, 0x1000, 0x11223344u);
    struct wk_vidmm_list_entry list[1] = { { r->alloc, 1 } };
    struct wk_vidmm_render_result res;
    wk_vidmm_hold_submissions(r->vm, 1);
    DO(vt_render(r->vm, r->context, &cmd, list, 1, 0, &res));
    uint32_t cancelled = 0;
    arm();
    DO(wk_vidmm_cancel_held(r->vm, &cancelled));
    DO(cancelled == 1 ? WK_OK : WK_E_STATE);
}

/* ------------------------------------------------------------------ */
/* The table: one row per rule of the catalogue, in catalogue order     */
/* ------------------------------------------------------------------ */

#define CASE_QUERY_V4 0x1u      /* QUERYSEGMENT4 instead of 3 */
#define CASE_FEW_PASSES 0x2u    /* max_passes 8 */
#define CASE_SHORT_TIMEOUT 0x4u /* ddi_timeout_ms 300 in the bad run */
#define CASE_KILLS 0x8u         /* the bad run leaves the adapter dead */
#define CASE_BINDING 0x10u      /* the adapter has the test binding (binding_of_case) */
#define CASE_DDI_TABLE 0x20u    /* the adapter checks the DDI table at start (check_ddi_table) */
#define CASE_GPUMMU 0x40u       /* the GpuMmu build of the reference driver, loaded as a module:
                                 * no mutant (the bad answer is a rewrite) */
#define CASE_ROOT_KEPT 0x80u    /* with CASE_GPUMMU: the bad run loads its planted twin that keeps
                                 * the first root SetRootPageTable named (the bad answer) */
#define CASE_TWO_LEVEL 0x100u   /* with CASE_GPUMMU: its two-level build (wk_refdriver_gpummu2) */

struct rule_case {
    const char *id;
    void (*scenario)(struct run *r);
    wk_vidmm_rewrite_fn *rewrite;   /* the bad answer as a rewrite... */
    enum mutation mutation;         /* ...or as a mutant driver */
    unsigned flags;
};

#define RW(id, scenario, fn) { id, scenario, fn, MUT_NONE, 0 }
#define MUT(id, scenario, m) { id, scenario, NULL, m, 0 }
/* A kernel-API misuse in Render: the call ends, the adapter with it. */
#define KM(id, m) { id, sc_render, NULL, m, CASE_KILLS }

static const struct rule_case cases[] = {
    /* Adapter start, driver caps and the segment query */
    RW("START-STATUS-001", sc_start, rw_start_status),
    RW("CAPS-QUERY-001", sc_start, rw_caps_status),
    RW("CAPS-SCHED-001", sc_start, rw_caps_preempt),
    RW("CAPS-SCHED-002", sc_start, rw_caps_cancel),
    RW("CAPS-SCHED-003", sc_start, rw_caps_nodmapatch),
    RW("CAPS-SCHED-004", sc_start, rw_caps_reserved),
    RW("SEG-QUERY-001", sc_start, rw_seg_status),
    RW("SEG-QUERY-002", sc_start, rw_seg_count),
    { "SEG-QUERY-003", sc_start, rw_seg_stride, MUT_NONE, CASE_QUERY_V4 },
    RW("SEG-SIZE-001", sc_start, rw_seg_size),
    RW("SEG-BASE-001", sc_start, rw_seg_base),
    RW("SEG-OVERLAP-001", sc_start, rw_seg_overlap),
    RW("SEG-AGP-001", sc_start, rw_seg_agp_alone),
    RW("SEG-AGP-002", sc_start, rw_seg_agp_aperture),
    RW("SEG-COMMIT-001", sc_start, rw_seg_commit_memory),
    RW("SEG-COMMIT-002", sc_start, rw_seg_commit_aperture),
    RW("SEG-CPU-001", sc_start, rw_seg_cpu_visible),
    RW("SEG-FLAGS-001", sc_start, rw_seg_cache_coherent),
    RW("SEG-FLAGS-002", sc_start, rw_seg_reserved_sysmem),
    RW("SEG-FLAGS-003", sc_start, rw_seg_host_aperture),
    RW("SEG-FLAGS-004", sc_start, rw_seg_standby),
    RW("SEG-FLAGS-005", sc_start, rw_seg_reserved_bits),
    RW("SEG-PAGING-001", sc_start, rw_seg_paging_segment),
    RW("SEG-PAGING-002", sc_start, rw_seg_paging_size),
    RW("SEG-BANK-001", sc_start, rw_seg_bank_kind),
    RW("SEG-BANK-002", sc_start, rw_seg_bank_table),
    RW("SEG-BANK-003", sc_start, rw_seg_bank_order),
    /* Devices and contexts */
    RW("DEV-CREATE-001", sc_device, rw_dev_status),
    RW("CTX-CREATE-001", sc_context, rw_ctx_status),
    RW("CTX-CREATE-002", sc_context, rw_ctx_handle),
    RW("CTX-SEGSET-001", sc_context, rw_ctx_segset),
    RW("CTX-GDI-001", sc_gdi_context, rw_ctx_gdi),
    RW("CTX-RESERVED-001", sc_context, rw_ctx_reserved),
    RW("CTX-SIZE-001", sc_context, rw_ctx_size),
    RW("CTX-COMPANION-001", sc_context, rw_ctx_companion),
    RW("CTX-CAPS-001", sc_context, rw_ctx_caps),
    /* Allocations */
    RW("ALLOC-CREATE-001", sc_allocation, rw_alloc_status),
    RW("ALLOC-SIZE-001", sc_allocation, rw_alloc_size),
    RW("ALLOC-ALIGN-001", sc_allocation, rw_alloc_align),
    RW("ALLOC-PITCH-001", sc_allocation, rw_alloc_pitch),
    RW("ALLOC-SET-001", sc_allocation, rw_alloc_set),
    RW("ALLOC-PREF-001", sc_allocation, rw_alloc_pref_exists),
    RW("ALLOC-PREF-002", sc_allocation, rw_alloc_pref_supported),
    RW("ALLOC-BANK-001", sc_allocation, rw_alloc_bank_range),
    RW("ALLOC-BANK-002", sc_allocation, rw_alloc_bank_order),
    RW("ALLOC-EVICT-001", sc_allocation, rw_alloc_evict_set),
    RW("ALLOC-PRIO-001", sc_allocation, rw_alloc_priority),
    RW("ALLOC-OPEN-001", sc_allocation, rw_open_null),
    RW("GPUMMU-QUERY-001", sc_start, rw_gpummu_refused),
    RW("GPUMMU-CAPS-001", sc_start, rw_gpummu_level_count),
    RW("GPUMMU-LEVEL-001", sc_start, rw_gpummu_level_size),
    RW("GPUMMU-HW-001", sc_start, rw_gpummu_not_the_gpus),
    { "PAGING-UPDATEPT-001", sc_gpu_va, rw_updatept_nothing, MUT_NONE, CASE_GPUMMU },
    { "PAGING-FLUSHTLB-001", sc_gpu_va, rw_flushtlb_nothing, MUT_NONE, CASE_GPUMMU },
    { "PAGING-CPUUPDATE-001", sc_page_in, rw_cpu_update_deferred, MUT_NONE, CASE_GPUMMU },
    { "PAGING-COPYPTE-001", sc_gpu_va_root_copy, rw_copypte_short, MUT_NONE, CASE_GPUMMU },
    { "SUBMITV-STATUS-001", sc_gpu_va_submit, rw_submitv_status, MUT_NONE, CASE_GPUMMU },
    { "SUBMITV-GPU-001", sc_gpu_va_submit, NULL, MUT_NONE, CASE_GPUMMU | CASE_ROOT_KEPT },
    { "PAGEFAULT-NOTIFY-001", sc_gpu_va_page_fault, rw_page_fault_as_dma_faulted, MUT_NONE, CASE_GPUMMU },
    { "PAGEFAULT-FENCE-001", sc_gpu_va_page_fault, rw_page_fault_other_fence, MUT_NONE, CASE_GPUMMU },
    { "PAGEFAULT-FLAGS-001", sc_gpu_va_page_fault, rw_page_fault_no_reset, MUT_NONE, CASE_GPUMMU },
    RW("CAPS-TDR-001", sc_start, rw_caps_tdr),
    /* Paging */
    RW("PAGING-STATUS-001", sc_page_in, rw_paging_status),
    RW("PAGING-ADVANCE-001", sc_page_in, rw_paging_advance),
    RW("PAGING-PRIVATE-001", sc_page_in, rw_paging_private),
    { "PAGING-PROGRESS-001", sc_page_in, rw_paging_progress, MUT_NONE, CASE_FEW_PASSES },
    MUT("PAGING-PROGRESS-002", sc_page_in, MUT_PAGING_STALL),
    RW("PAGING-BUSY-001", sc_page_in, rw_paging_busy),
    RW("PAGING-INPUT-001", sc_page_in, rw_paging_input),
    MUT("PAGING-GPU-001", sc_page_in, MUT_PAGING_BAD_OPCODE),
    MUT("PAGING-FILL-001", sc_fill, MUT_FILL_PATTERN),
    MUT("PAGING-TRANSFER-001", sc_evict, MUT_TRANSFER_SHORT),
    MUT("PAGING-MAP-001", sc_aperture_map, MUT_MAP_WRONG_PFN),
    MUT("PAGING-UNMAP-001", sc_aperture_unmap, MUT_UNMAP_WRONG_DUMMY),
    MUT("PAGING-FENCE-001", sc_fence, MUT_FENCE_WRONG_VALUE),
    MUT("PAGING-CONFINE-001", sc_fill, MUT_FILL_OUTSIDE),
    /* Render */
    RW("RENDER-STATUS-001", sc_render, rw_render_status),
    RW("RENDER-ADVANCE-001", sc_render, rw_render_advance),
    RW("RENDER-PATCH-001", sc_render, rw_render_patch_advance),
    RW("RENDER-FAIL-001", sc_render, rw_render_fail_outputs),
    RW("RENDER-PATCH-002", sc_render, rw_render_patch_index),
    RW("RENDER-PATCH-003", sc_render, rw_render_patch_offset),
    RW("RENDER-PATCH-004", sc_render, rw_render_split),
    RW("RENDER-PATCH-005", sc_render, rw_render_slot),
    MUT("RENDER-PREPATCH-001", sc_render, MUT_RENDER_NO_PREPATCH),
    MUT("RENDER-PROGRESS-001", sc_render, MUT_RENDER_NO_PROGRESS),
    /* Patch, submit, interrupts, cancel */
    RW("PATCH-STATUS-001", sc_render, rw_patch_status),
    MUT("PATCH-CONFINE-001", sc_render, MUT_PATCH_OUTSIDE),
    MUT("PATCH-VALUE-001", sc_render, MUT_PATCH_WRONG_VALUE),
    RW("SUBMIT-STATUS-001", sc_render, rw_submit_status),
    MUT("SUBMIT-GPU-001", sc_render, MUT_RENDER_BAD_OPCODE),
    RW("SUBMIT-FENCE-001", sc_render, rw_notify_dropped),
    RW("INTR-FENCE-001", sc_render, rw_notify_bad_fence),
    RW("INTR-ORDINAL-001", sc_render, rw_notify_wrong_node),
    RW("INTR-CLAIM-001", sc_render, rw_isr_unclaimed),
    RW("CANCEL-STATUS-001", sc_cancel, rw_cancel_status),
    /* Context allocations */
    RW("CTXALLOC-ARGS-001", sc_device, rw_ctxalloc_args),
    MUT("CTXALLOC-ARGS-002", sc_system_context, MUT_SYSTEM_CONTEXT_ALLOC),
    RW("CTXALLOC-HANDLE-001", sc_destroy_context, rw_ctxalloc_handle),
    MUT("CTXALLOC-LEAK-001", sc_destroy_context, MUT_CTXALLOC_LEAK),
    /* Robustness: the adapter dies, the process goes on */
    { "MEM-GUARD-001", sc_render, NULL, MUT_RENDER_OVERRUN, CASE_KILLS },
    { "DRV-CRASH-001", sc_render, NULL, MUT_RENDER_CRASH, CASE_KILLS },
    { "DRV-HANG-001", sc_render, NULL, MUT_RENDER_HANG, CASE_KILLS | CASE_SHORT_TIMEOUT },
    /* RENDER-FAIL-001 has its row above; the kernel API (km.h) */
    KM("KM-API-001", MUT_KM_UNKNOWN),
    KM("KM-POOL-001", MUT_KM_POOL_TAG),
    KM("KM-POOL-002", MUT_KM_POOL_LIVE),
    KM("KM-POOL-003", MUT_KM_POOL_NULL),
    KM("KM-POOL-004", MUT_KM_POOL_RAISE),
    KM("KM-IRQL-001", MUT_KM_IRQL_RAISE),
    KM("KM-IRQL-002", MUT_KM_IRQL_LOWER),
    KM("KM-IRQL-003", MUT_KM_IRQL_MAX),
    KM("KM-IRQL-004", MUT_KM_IRQL_DPC),
    KM("KM-LOCK-001", MUT_KM_LOCK_TWICE),
    KM("KM-LOCK-002", MUT_KM_LOCK_UNHELD),
    KM("KM-MUTEX-001", MUT_KM_MUTEX_OWNER),
    KM("KM-MUTEX-003", MUT_KM_MUTEX_INIT),
    KM("KM-LIST-001", MUT_KM_LIST),
    KM("KM-EVENT-001", MUT_KM_EVENT),
    KM("KM-DPC-001", MUT_KM_DPC),
    KM("DRV-ASSERT-001", MUT_ASSERT),
    MUT("POOL-LEAK-001", sc_render_then_stop, MUT_POOL_LEAK),
    MUT("THREAD-LEAK-001", sc_render_then_stop, MUT_THREAD_LEAK),
    KM("KM-BUGCHECK-001", MUT_KM_BUGCHECK),
    KM("KM-MDL-001", MUT_KM_MDL),
    /* The hardware binding's: the case an error, the driver unblamed */
    { "BIND-CRASH-001", sc_render, NULL, MUT_BIND_CRASH, CASE_KILLS | CASE_BINDING },
    { "BIND-HANG-001", sc_render, NULL, MUT_BIND_HANG, CASE_KILLS | CASE_BINDING | CASE_SHORT_TIMEOUT },
    { "BIND-BUDGET-001", sc_render, NULL, MUT_BIND_BUDGET, CASE_KILLS | CASE_BINDING },
    { "BIND-RESULT-001", sc_render, NULL, MUT_BIND_RESULT, CASE_KILLS | CASE_BINDING },
    { "DDI-TABLE-001", sc_start, NULL, MUT_NO_STOP_DEVICE, CASE_DDI_TABLE },
    MUT("START-OUT-001", sc_start, MUT_START_NO_CHILDREN),
    MUT("MEM-LEAK-001", sc_render_then_stop, MUT_MEM_LEAK),
    MUT("MEM-STALE-001", sc_render_destroy_context, MUT_DMA_STALE),
    MUT("INTR-DPC-001", sc_render, MUT_NOTIFY_DPC_IN_ISR),
    MUT("CB-NULL-001", sc_render, MUT_NOTIFY_NULL),
    { "TDR-RESET-001", sc_gpu_va_page_fault, rw_tdr_reset_fails, MUT_NONE, CASE_GPUMMU },
    { "GPUMMU-ROOTSIZE-001", sc_gpu_va, rw_rootsize_count_short, MUT_NONE, CASE_GPUMMU | CASE_TWO_LEVEL },
    MUT("INTR-IRQL-001", sc_render, MUT_NOTIFY_IN_DPC),
    { "MEM-STALE-002", sc_cpu_view_after_unmap, NULL, MUT_CPU_VIEW_STALE, CASE_KILLS },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ------------------------------------------------------------------ */
/* The test binding                                                     */
/* ------------------------------------------------------------------ */

/* Runs the kit's command set through processor.h (tests/bindings/
 * kit_format.c) and, armed in a bad run, misbehaves as the mutation says. */
static int binding_exec(void *self, const struct wk_exec *x, struct wk_exec_fault *fault)
{
    (void)self;
    if (M.armed && M.mode >= MUT_BIND_CRASH && M.mode <= MUT_BIND_RESULT) {
        M.fired++;
        switch (M.mode) {
        case MUT_BIND_CRASH: return *(volatile int *)M.null_base;
        case MUT_BIND_HANG:
            for (;;)
                M.spins++;
        case MUT_BIND_BUDGET:
            while (x->ops->spend(x, 1u << 20, 0) == 0)
                M.spins++;
            return 0;
        default:
            memset(fault, 0, sizeof(*fault));
            fault->cls = 99;
            fault->offset = x->start;
            return 1;
        }
    }
    return wk_test_kit_format_exec(x, fault);
}

static const struct wk_processor_ops binding_processor = { .size = sizeof(struct wk_processor_ops),
                                                           .exec = binding_exec,
                                                           .read_address = wk_test_kit_format_read_address };

/* The reference adapter's memory, and the processor above. */
static const struct wk_binding *binding_of_case(void)
{
    static struct wk_binding b = { WK_BINDING_HEADER("rules", "1.0"), NULL, NULL, 0, 0, NULL, NULL, NULL,
                                   &binding_processor, NULL, NULL, NULL };
    b.memory = wk_gpu_reference_desc();
    return &b;
}

/* ------------------------------------------------------------------ */
/* Running a case                                                       */
/* ------------------------------------------------------------------ */

static uint64_t seed(void)
{
    return vt_seed(0x5EEDu);
}

static bool adapter_dead(struct wk_vidmm *vm)
{
    return wk_vidmm_wait_idle(vm) == WK_E_DEAD;
}

static void run_close(struct run *r)
{
    if (!r->vm)
        return;
    M.armed = 0;
    wk_vidmm_set_rewriter(r->vm, NULL, NULL);
    if (adapter_dead(r->vm))
        mutant_release();
    release_leaked_memory(); /* MUT_MEM_LEAK's, while the adapter that lent the block lives */
    wk_vidmm_destroy(r->vm);
    r->vm = NULL;
    mutant_reset(MUT_NONE);
}

static bool judge_good(const struct rule_case *c, struct run *r)
{
    bool ok = true;
    if (r->first_error != WK_OK) {
        fprintf(stderr, "%s, good run: %s returned %s: %s\n", c->id, r->first_step,
                wk_status_name(r->first_error), r->first_message);
        ok = false;
    }
    if (!expect_not_violated(r->vm, c->id)) {
        fprintf(stderr, "%s, good run: the reference driver's answer broke the rule\n", c->id);
        ok = false;
    } else if (!expect_no_violations(r->vm)) {
        fprintf(stderr, "%s, good run: the reference driver's answers broke other rules\n", c->id);
        ok = false;
    }
    return ok;
}

static bool judge_bad(const struct rule_case *c, struct run *r)
{
    bool ok = true;
    if (M.fired == 0) {
        fprintf(stderr, "%s, bad run: the bad answer was never produced (the scenario did not reach "
                        "the DDI; first failed step: %s)\n",
                c->id, r->first_step ? r->first_step : "none");
        ok = false;
    }
    if (!expect_violation(r->vm, c->id)) {
        fprintf(stderr, "%s, bad run: the kit did not notice\n", c->id);
        ok = false;
    }
    if (c->flags & CASE_KILLS) {
        uint32_t device = 0;
        wk_status st = wk_vidmm_create_device(r->vm, 0, &device);
        if (!expect_status(r->vm, st, WK_E_DEAD)) {
            fprintf(stderr, "%s, bad run: the adapter should be dead after the driver died\n", c->id);
            ok = false;
        }
    }
    return ok;
}

/* Whether a rule was violated, asked by its number (what the runner's
 * rule coverage uses) and by its ID, agree for every rule: every bad run
 * trips its own. */
static bool by_number_as_by_name(const struct wk_vidmm *vm)
{
    uint32_t n = 0;
    const struct wk_rule *rules = wk_rules(&n);
    bool same = vm != NULL && wk_vidmm_rule_violated(vm, n) == 0;
    for (uint32_t i = 0; vm && i < n; i++)
        if (wk_vidmm_rule_violated(vm, i) != wk_vidmm_violated(vm, rules[i].id)) {
            fprintf(stderr, "rule %u (%s): by number %d, by ID %d\n", i, rules[i].id, wk_vidmm_rule_violated(vm, i),
                    wk_vidmm_violated(vm, rules[i].id));
            same = false;
        }
    return same || vm == NULL;
}

static bool run_once(const struct rule_case *c, int bad)
{
    struct run *r = &RUN;
    memset(r, 0, sizeof(*r));
    mutant_reset(bad ? c->mutation : MUT_NONE);
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.seed = seed();
    if (c->flags & CASE_QUERY_V4)
        cfg.query_segment_version = 4;
    if (c->flags & CASE_FEW_PASSES)
        cfg.max_passes = 8;
    if ((c->flags & CASE_SHORT_TIMEOUT) && bad)
        cfg.ddi_timeout_ms = 300; /* the good run keeps the default: no timer race */
    if (c->flags & CASE_BINDING)
        cfg.binding = binding_of_case();
    if (c->flags & CASE_DDI_TABLE)
        cfg.check_ddi_table = 1;
    if (!expect_status(NULL, wk_vidmm_create(&cfg, &r->vm), WK_OK))
        return false;
    if (bad && c->rewrite)
        wk_vidmm_set_rewriter(r->vm, c->rewrite, NULL);
    int planted = bad && (c->flags & CASE_ROOT_KEPT);
    const char *gpummu = planted ? WK_TEST_GPUMMU_ROOT_KEPT_DRIVER
                         : (c->flags & CASE_TWO_LEVEL) ? WK_TEST_GPUMMU2_DRIVER : WK_TEST_GPUMMU_DRIVER;
    wk_status attached = !(c->flags & CASE_GPUMMU) ? wk_vidmm_attach(r->vm, mutant_DriverEntry)
                                                   : wk_vidmm_load(r->vm, gpummu);
    M.fired += planted; /* the planted driver is the bad answer */
    if (step(r, attached, "wk_vidmm_attach") == WK_OK)
        c->scenario(r);
    bool ok = bad ? judge_bad(c, r) : judge_good(c, r);
    ok = by_number_as_by_name(r->vm) && ok;
    if (bad && getenv("WK_TEST_VERBOSE")) {
        fprintf(stderr, "  %s, bad run (%u bad answers):\n", c->id, M.fired);
        vt_print_violations(r->vm, "    ");
    }
    run_close(r);
    return ok;
}

static void run_rule_case(void **state)
{
    const struct rule_case *c = *state;
    assert_non_null(wk_rule_find(c->id));
    bool good = run_once(c, 0);
    bool bad = run_once(c, 1);
    assert_true(good);
    assert_true(bad);
}

/* RUN on a fresh adapter of the mutant driver in c's mode, with c's
 * rewriter from the start when it has one, through c's scenario (its
 * mutation armed where the scenario arms it). */
static struct run *run_armed_scenario(const struct rule_case *c)
{
    struct run *r = &RUN;
    memset(r, 0, sizeof(*r));
    mutant_reset(c->mutation);
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.seed = seed();
    assert_true(expect_status(NULL, wk_vidmm_create(&cfg, &r->vm), WK_OK));
    if (c->rewrite)
        wk_vidmm_set_rewriter(r->vm, c->rewrite, NULL);
    if (step(r, wk_vidmm_attach(r->vm, mutant_DriverEntry), "wk_vidmm_attach") == WK_OK)
        c->scenario(r);
    return r;
}

/* A DPC object queued in Render runs once, at the DPC point, at
 * DISPATCH_LEVEL with its arguments; the block it frees is not a leak, and
 * the adapter tears down clean. */
static void test_kdpc_runs_at_the_dpc_point(void **state)
{
    (void)state;
    struct rule_case c = { "POOL-LEAK-001", sc_render_then_stop, NULL, MUT_DPC_FREES, 0 };
    memset(&M.dpc_seen, 0, sizeof(M.dpc_seen));
    struct run *r = run_armed_scenario(&c);
    assert_int_equal(r->first_error, WK_OK);
    assert_int_equal(M.fired, 1);
    assert_int_equal(M.dpc_seen.runs, 1);
    assert_int_equal(M.dpc_seen.irql, DISPATCH_LEVEL);
    assert_ptr_equal(M.dpc_seen.arg1, &M.dpc_seen);
    assert_true(expect_no_violations(r->vm));
    run_close(r);
}

/* POOL-LEAK-001 names the DDI whose blocks are left, as MEM-LEAK-001 does:
 * an outsider's leak said only the tag and the size, and they searched
 * every DDI that allocates with that tag. */
static void test_pool_leak_names_the_ddi(void **state)
{
    (void)state;
    struct rule_case c = { "POOL-LEAK-001", sc_render_then_stop, NULL, MUT_POOL_LEAK, 0 };
    struct run *r = run_armed_scenario(&c);
    struct wk_violation v[4];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(r->vm, v, 4, &total);
    assert_int_equal(n, 1);
    assert_non_null(strstr(v[0].message, "1 pool block (24 bytes) tagged 'lMKW'"));
    assert_non_null(strstr(v[0].message, "still allocated after DxgkDdiRemoveDevice, made by DxgkDdiRender (1)"));
    run_close(r);
}

/* The MEM-LEAK-001 line names each kind apart, with the count, the size the
 * driver asked for, the routine and the DDI that made it and what was the
 * last chance to release it: one line for the mapping (km.h's own memory:
 * the range is in no BAR) and one for the block (the kit's pool). */
static void test_mem_leak_names_what_and_where(void **state)
{
    (void)state;
    struct rule_case c = { "MEM-LEAK-001", sc_render_then_stop, NULL, MUT_MEM_LEAK, 0 };
    struct run *r = run_armed_scenario(&c);
    assert_int_equal(M.fired, 1);
    assert_non_null(leaked.map);
    assert_non_null(leaked.block);
    struct wk_violation v[8];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(r->vm, v, 8, &total);
    assert_int_equal(total, 2);
    assert_int_equal(n, 2);
    char want_map[320], want_block[320];
    snprintf(want_map, sizeof(want_map),
             "MEM-LEAK-001: DxgkDdiRemoveDevice: 1 I/O space mapping (%u bytes) made by MmMapIoSpace[Ex] in "
             "DxgkDdiRender still mapped after DxgkDdiRemoveDevice; MmUnmapIoSpace releases it",
             LEAK_MAP_BYTES);
    snprintf(want_block, sizeof(want_block),
             "MEM-LEAK-001: DxgkDdiRemoveDevice: 1 contiguous memory block (%u bytes) made by "
             "MmAllocateContiguousMemory[SpecifyCache] in DxgkDdiRender still allocated after "
             "DxgkDdiRemoveDevice; MmFreeContiguousMemory[SpecifyCache] releases it",
             (unsigned)LEAK_BLOCK_BYTES);
    assert_string_equal(v[0].message, want_map);
    assert_string_equal(v[1].message, want_block);
    run_close(r);
}

/* The stack under a DDI call holds 0xA5 bytes (call.c, poison_stack): a
 * field of the callback's arguments the driver never set reads 0xA5, so
 * the unset HintedBank names bank 0x25 (37), whatever the stack held
 * before; left as it was, it held whatever earlier frames wrote there,
 * often zeroes, which pass. Not under AddressSanitizer: its frames are
 * larger and may live on its fake stack, out of the fill's reach, so the
 * fields hold whatever was there (a violation still, of another value). */
static void test_unset_fields_read_as_the_fill(void **state)
{
    (void)state;
#ifdef UNDER_ASAN
    skip();
#endif
    struct rule_case c = { "ALLOC-BANK-001", sc_device, NULL, MUT_CTXALLOC_UNINIT, 0 };
    struct run *r = run_armed_scenario(&c);
    assert_int_equal(M.fired, 1);
    struct wk_violation v[8];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(r->vm, v, 8, &total);
    bool fill_seen = false;
    for (uint32_t i = 0; i < n; i++)
        fill_seen |= strstr(v[i].message, "HintedBank slot 0 names bank 37 ") != NULL;
    if (!fill_seen)
        fail_msg("no violation names bank 37 (0xA5 & 0x7F): %u recorded, first: %s", n, n ? v[0].message : "-");
    run_close(r);
}

/* The kit calls each DDI at the IRQL Windows calls it at: Render at
 * PASSIVE_LEVEL, SubmitCommand and the DPC routine at DISPATCH_LEVEL, the
 * interrupt routine above it (facts §5.3 T9), so km.h's IRQL checks see
 * what Windows would; and the thread is back at PASSIVE_LEVEL after. */
static void test_ddis_run_at_their_irql(void **state)
{
    (void)state;
    struct run *r = &RUN;
    memset(r, 0, sizeof(*r));
    mutant_reset(MUT_NONE);
    M.submit_irql = M.isr_irql = M.dpc_irql = M.render_irql = 0xFF;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.seed = seed();
    assert_true(expect_status(NULL, wk_vidmm_create(&cfg, &r->vm), WK_OK));
    if (step(r, wk_vidmm_attach(r->vm, mutant_DriverEntry), "wk_vidmm_attach") == WK_OK)
        sc_render(r);
    assert_int_equal(r->first_error, WK_OK);
    assert_true(expect_status(r->vm, wk_vidmm_wait_idle(r->vm), WK_OK));
    assert_int_equal(M.render_irql, PASSIVE_LEVEL);
    assert_int_equal(M.submit_irql, DISPATCH_LEVEL);
    assert_true(M.isr_irql > DISPATCH_LEVEL && M.isr_irql != 0xFF);
    assert_int_equal(M.dpc_irql, DISPATCH_LEVEL);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    assert_true(expect_no_violations(r->vm));
    run_close(r);
}

/* A rule of the reference driver's own choices (wk_rule_is_choice) is not
 * held in the contract profile: with wk_vidmm_skip_choice_rules the same
 * bad answer is counted, never recorded, and the scenario goes on; the
 * contract rules stay as they are. */
static void test_choice_rule_skipped(void **state)
{
    (void)state;
    const struct rule_case *c = NULL;
    for (size_t i = 0; i < NCASES; i++)
        if (strcmp(cases[i].id, "RENDER-FAIL-001") == 0)
            c = &cases[i];
    assert_non_null(c);
    assert_true(wk_rule_is_choice("RENDER-FAIL-001"));
    assert_false(wk_rule_is_choice("RENDER-PATCH-001"));
    assert_false(wk_rule_is_choice("NO-SUCH-RULE-001"));
    struct run *r = &RUN;
    memset(r, 0, sizeof(*r));
    mutant_reset(MUT_NONE);
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.seed = seed();
    assert_int_equal(wk_vidmm_create(&cfg, &r->vm), WK_OK);
    wk_vidmm_skip_choice_rules(r->vm, 1);
    wk_vidmm_set_rewriter(r->vm, c->rewrite, NULL);
    if (step(r, wk_vidmm_attach(r->vm, mutant_DriverEntry), "wk_vidmm_attach") == WK_OK)
        c->scenario(r);
    assert_true(M.fired > 0);
    assert_false(wk_vidmm_violated(r->vm, "RENDER-FAIL-001"));
    assert_true(wk_vidmm_choice_skipped(r->vm) >= 1);
    run_close(r);
}

/* CTX-COMPANION-001 judges PagingCompanionNodeId against the nodes the
 * driver reported (DXGK_GPUENGINETOPOLOGY, facts §4.11): a context of a
 * two-engine driver that pages on engine 1 is no violation, where the kit
 * once blamed every companion but 0 (its own GPU model has one engine). The
 * rule's own case (companion 1 on the reference driver's one node) still
 * fires: test_every_rule_has_a_case. */
static void test_companion_on_a_reported_node(void **state)
{
    (void)state;
    struct rule_case c = { "CTX-COMPANION-001", sc_context, rw_two_nodes_companion, MUT_NONE, 0 };
    struct run *r = run_armed_scenario(&c);
    assert_true(M.fired >= 2); /* the caps and the context were both rewritten */
    struct wk_violation v[4];
    uint32_t n = wk_vidmm_violations(r->vm, v, 4, NULL);
    for (uint32_t i = 0; i < n; i++)
        print_message("violation: %s %s\n", v[i].rule, v[i].message);
    assert_int_equal(n, 0);
    run_close(r);
}

/* A GpuMmu driver that answers right: no violation, and the tree the kit
 * walks is the one it described, level 0 the leaf. The same answers with
 * a 2-level tree from a driver without DxgkDdiGetRootPageTableSize, which
 * sizes such a tree's root: GPUMMU-ROOTSIZE-001, and not modelled. */
static void test_gpummu_answers_kept(void **state)
{
    (void)state;
    for (unsigned levels = 2; levels <= 3; levels++) {
        G.levels = levels;
        struct rule_case c = { "GPUMMU-CAPS-001", sc_start, rw_gpummu_correct, MUT_NONE, 0 };
        struct run *r = run_armed_scenario(&c);
        assert_int_equal(M.fired, 2 + levels); /* the caps, GPUMMUCAPS, each level */
        struct wk_violation v[2];
        assert_int_equal(wk_vidmm_violations(r->vm, v, 2, NULL), levels == 2);
        if (levels == 2)
            assert_string_equal(v[0].rule, "GPUMMU-ROOTSIZE-001");
        struct wk_vidmm_gpummu_info info;
        wk_vidmm_gpummu(r->vm, &info);
        assert_true(info.asked && info.answered == (levels == 3));
        assert_int_equal(info.caps.PageTableLevelCount, levels);
        if (levels == 2) {
            assert_false(info.modelled);
            assert_non_null(strstr(info.why, "ROOTSIZE"));
        } else {
            assert_true(info.modelled);
            assert_int_equal(info.geometry.levels, 3);
            for (unsigned l = 0; l < 3; l++) {
                assert_int_equal(info.geometry.level[l].index_bits, 9);
                assert_int_equal(info.geometry.level[l].entry_bytes, 8);
            }
            assert_int_equal(wk_mmu_va_bits(&info.geometry), 39);
        }
        run_close(r);
    }
    G.levels = 0;
}

/* A level's table may be larger than its entries take (its size is a
 * multiple of the CPU page, GPUMMU-LEVEL-001): the entry's width is the
 * GPU's, not the size over the count (an outsider's root of 256 four-byte
 * entries had to report 4096 bytes and was read as 16-byte entries). */
static void test_gpummu_roomy_table_is_the_gpus(void **state)
{
    (void)state;
    struct rule_case c = { "GPUMMU-HW-001", sc_start, rw_gpummu_roomy_table, MUT_NONE, 0 };
    struct run *r = run_armed_scenario(&c);
    assert_int_equal(wk_vidmm_violations(r->vm, NULL, 0, NULL), 0);
    struct wk_vidmm_gpummu_info info;
    wk_vidmm_gpummu(r->vm, &info);
    assert_true(info.modelled);
    assert_int_equal(info.level[1].PageTableSizeInBytes, 8192);
    assert_int_equal(info.geometry.level[1].entry_bytes, 8);
    run_close(r);
}

/* A driver that does not say GpuMmu is not asked. */
static void test_gpummu_not_asked(void **state)
{
    (void)state;
    struct run *r = run_armed_scenario(&(struct rule_case){ "CAPS-QUERY-001", sc_start, NULL, MUT_NONE, 0 });
    struct wk_vidmm_gpummu_info info;
    wk_vidmm_gpummu(r->vm, &info);
    assert_false(info.asked);
    assert_false(info.modelled);
    run_close(r);
}

/* MEM-GUARD-001 says whether the driver wrote or read past a buffer (the
 * page-fault error code, x86-64): the mutant that writes one byte past the
 * DMA buffer "wrote past the end"; reads are named "read past the end"
 * (the planted bug buggy_render_index, test bugs.render_index.guard_read). */
static void test_guard_hit_names_the_write(void **state)
{
    (void)state;
    struct run *r = &RUN;
    memset(r, 0, sizeof(*r));
    mutant_reset(MUT_RENDER_OVERRUN);
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.seed = seed();
    assert_int_equal(wk_vidmm_create(&cfg, &r->vm), WK_OK);
    if (step(r, wk_vidmm_attach(r->vm, mutant_DriverEntry), "wk_vidmm_attach") == WK_OK)
        sc_render(r);
    struct wk_violation v;
    uint64_t total = 0;
    assert_int_equal(wk_vidmm_violations(r->vm, &v, 1, &total), 1);
    assert_string_equal(v.rule, "MEM-GUARD-001");
#if defined(__x86_64__)
    assert_non_null(strstr(v.message, "wrote past the end of the DMA buffer"));
#else
    assert_non_null(strstr(v.message, "past the end of the DMA buffer"));
#endif
    run_close(r);
}

/* Second ways of breaking a rule the table already covers, run the same
 * way (a good run passes, the bad one trips the rule): the runtime's
 * handle returned as the driver's (found by fuzz_hostile: the kit kept
 * it, and handed the reference driver 0xD0000001 as its own device). */
static const struct rule_case second_ways[] = {
    RW("DEV-CREATE-001", sc_device, rw_dev_runtime_handle),
    RW("CTX-CREATE-002", sc_context, rw_ctx_runtime_handle),
    /* A copy the other way leaves source and destination alike: only what
     * the source held before the operation tells it (paging_ops.c). */
    MUT("PAGING-TRANSFER-001", sc_evict, MUT_TRANSFER_SWAPPED),
    RW("ALLOC-PREF-001", sc_device, rw_ctxalloc_pref),
    RW("CTXALLOC-ARGS-001", sc_device, rw_ctxalloc_null_handle),
#ifndef UNDER_ASAN /* ASan's frames may sit past the fill (test_unset_fields_read_as_the_fill) */
    MUT("ALLOC-BANK-001", sc_device, MUT_CTXALLOC_UNINIT), /* HintedBank never set: 0xA5 bytes */
#endif
    /* GpuMmu answers (docs/wddm-gpummu-facts.md 1.2, 1.3, 2.3) */
    RW("GPUMMU-QUERY-001", sc_start, rw_gpummu_level_refused),
    RW("GPUMMU-CAPS-001", sc_start, rw_gpummu_leaf64k),
    RW("GPUMMU-CAPS-001", sc_start, rw_gpummu_update_mode),
    RW("GPUMMU-CAPS-001", sc_start, rw_gpummu_reserved),
    RW("GPUMMU-LEVEL-001", sc_start, rw_gpummu_level_segment),
    RW("GPUMMU-LEVEL-001", sc_start, rw_gpummu_sysmem_big),
    RW("GPUMMU-LEVEL-001", sc_start, rw_gpummu_cpu_virtual_local),
    /* A fence reported inside the SubmitCommand that submitted it: nothing
     * has run its buffer yet (callbacks.c, complete_fence). */
    MUT("SUBMIT-FENCE-001", sc_render, MUT_COMPLETE_IN_SUBMIT),
    { "SUBMITV-STATUS-001", sc_gpu_va_submit, rw_submitv_invalid_no_private, MUT_NONE, CASE_GPUMMU },
    /* A page fault of a buffer that ran clean (two outsiders' drivers),
     * and FENCE_INVALID with IOMMU, which asks for no recovery. */
    { "PAGEFAULT-FENCE-001", sc_gpu_va_submit, rw_completion_as_page_fault, MUT_NONE, CASE_GPUMMU },
    { "PAGEFAULT-FLAGS-001", sc_gpu_va_page_fault, rw_page_fault_iommu_only, MUT_NONE, CASE_GPUMMU },
};
#define NSECOND (sizeof(second_ways) / sizeof(second_ways[0]))

static int release_run(void **state)
{
    (void)state;
    run_close(&RUN);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The table against the catalogue                                      */
/* ------------------------------------------------------------------ */

static void test_every_rule_has_a_case(void **state)
{
    (void)state;
    uint32_t n = 0;
    const struct wk_rule *rules = wk_rules(&n);
    unsigned missing = 0, unknown = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < NCASES && strcmp(cases[k].id, rules[i].id) != 0)
            k++;
        if (k == NCASES) {
            fprintf(stderr, "rule %s (%s) has no case in tests/test_vidmm_rules.c\n", rules[i].id,
                    wk_ddi_name(rules[i].ddi));
            missing++;
        }
    }
    for (size_t k = 0; k < NCASES; k++) {
        if (!wk_rule_find(cases[k].id)) {
            fprintf(stderr, "case %s names no rule of the catalogue\n", cases[k].id);
            unknown++;
        }
    }
    assert_int_equal(missing, 0);
    assert_int_equal(unknown, 0);
    assert_int_equal(NCASES, n);
}

/* A message too long for its room is cut at a word, "..." marking the cut;
 * one that fits, or a word longer than the room, is copied as it fits. */
static void test_text_cut_at_a_word(void **state)
{
    (void)state;
    char out[16];
    wk_vidmm_text_cut(out, sizeof(out), "short");
    assert_string_equal(out, "short");
    wk_vidmm_text_cut(out, sizeof(out), "fifteen chars!!");
    assert_string_equal(out, "fifteen chars!!");
    wk_vidmm_text_cut(out, sizeof(out), "in buffer 0x1007c000 depth 0");
    assert_string_equal(out, "in buffer...");
    wk_vidmm_text_cut(out, sizeof(out), "0123456789abcdefghij");
    assert_string_equal(out, "0123456789ab...");
}

static void test_case_table_is_sound(void **state)
{
    (void)state;
    unsigned bad = 0;
    for (size_t k = 0; k < NCASES; k++) {
        const struct rule_case *c = &cases[k];
        int planted = (c->flags & CASE_ROOT_KEPT) != 0; /* the bad answer is a planted driver */
        if ((c->rewrite != NULL) + (c->mutation != MUT_NONE) + planted != 1) {
            fprintf(stderr, "case %s: exactly one of rewrite, mutation and planted driver must be given\n", c->id);
            bad++;
        }
        for (size_t j = 0; j < k; j++)
            if (strcmp(cases[j].id, c->id) == 0) {
                fprintf(stderr, "case %s appears twice\n", c->id);
                bad++;
            }
    }
    assert_int_equal(bad, 0);
}

/* Runs after the crash, hang and guard-page rows: a fresh adapter with the
 * reference driver in the same process does real work without a hitch. */
static void test_adapter_works_after_driver_death(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_CONTEXT));
    WK_ALLOCATION_REQUEST req;
    default_request(&req);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_fill(&cmd, 0, 0x100, 0x40, 0xCAFEF00Du);
    struct wk_vidmm_list_entry list[1] = { { a, 1 } };
    struct wk_vidmm_render_result res;
    VT_OK(f->vm, vt_render(f->vm, f->context, &cmd, list, 1, 0, &res));
    uint8_t want[0x40];
    vt_model_fill(want, sizeof(want), 0xCAFEF00Du);
    assert_true(expect_bytes(f->vm, a, 0x100, want, sizeof(want)));
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    if (!capture_reference()) {
        fprintf(stderr, "cannot read the reference driver's DDI table\n");
        return 1;
    }
    struct CMUnitTest tests[NCASES + NSECOND + 16]; /* 16: room for the tests named below */
    size_t n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_every_rule_has_a_case);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_choice_rule_skipped);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_companion_on_a_reported_node);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_gpummu_answers_kept);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_gpummu_not_asked);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_gpummu_roomy_table_is_the_gpus);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_kdpc_runs_at_the_dpc_point);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_mem_leak_names_what_and_where);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_pool_leak_names_the_ddi);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_ddis_run_at_their_irql);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_unset_fields_read_as_the_fill);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_guard_hit_names_the_write);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_text_cut_at_a_word);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_case_table_is_sound);
    for (size_t k = 0; k < NCASES; k++)
        tests[n++] = (struct CMUnitTest){ cases[k].id, run_rule_case, NULL, release_run,
                                          (void *)(uintptr_t)&cases[k] };
    for (size_t k = 0; k < NSECOND; k++)
        tests[n++] = (struct CMUnitTest){ "second way to break a rule", run_rule_case, NULL, release_run,
                                          (void *)(uintptr_t)&second_ways[k] };
    tests[n++] = (struct CMUnitTest)VT_TEST(test_adapter_works_after_driver_death);
    if (n > sizeof(tests) / sizeof(tests[0])) { /* written past the array already: say so, at least */
        fprintf(stderr, "test_vidmm_rules: %zu tests in an array of %zu: make it larger\n", n,
                sizeof(tests) / sizeof(tests[0]));
        abort();
    }
    return _cmocka_run_group_tests("vidmm.rules", tests, n, NULL, NULL); /* the n filled, not the array */
}
