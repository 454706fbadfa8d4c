/* SPDX-License-Identifier: MIT */
/*
 * gpummu.c - the GpuMmu build of the reference driver (RD_GPUMMU, module
 * wk_refdriver_gpummu; docs/refdriver.md, "The GpuMmu build").
 *
 * The same miniport, which also tells the kernel that the kit's GPU has an
 * MMU (docs/wddm-gpummu-facts.md 1.4: VirtualAddressingSupported and
 * GpuMmuSupported), describes its page tables (GPUMMUCAPS, one
 * PAGETABLELEVELDESC per level: its sections 1 and 2), keeps processes and
 * root tables (section 3) and writes page-table entries and TLB flushes in
 * paging buffers (UPDATE_PAGE_TABLE and FLUSH_TLB: docs/wddm-gpummu-facts.md 4.2, 4.3). Contexts still
 * run physical-mode buffers through Render/Patch/SubmitCommand, as an
 * engine may (docs/wddm-gpummu-facts.md 5.1 M4); a virtual context (VirtualAddressing)
 * runs its buffers through SubmitCommandVirtual under the root SetRootPageTable named.
 *
 * Every number the driver reports of the tree comes from the kit's GPU's
 * own description (gpu.h): three levels of 512 eight-byte entries over
 * 4 KiB pages (wk_gpu_mmu_geometry), or, in the two-level build
 * (RD_TWO_LEVEL, module wk_refdriver_gpummu2), a leaf of 512 under a root
 * the kernel sizes by asking GetRootPageTableSize, which the driver
 * programs with its entry count (RING_ROOT_ENTRIES) before each virtual
 * submission (wk_gpu_mmu_geometry_two_level; docs/wddm-gpummu-facts.md
 * 3.3, 3.4).
 */
#include "refdriver.h"

#define RD_MAGIC_PROCESS 0x50644B57u   /* 'WKdP' */
#define RD_PTE_BYTES 8u                /* the kit's GPU's entries (gpu.h) */
/* DXGK_CREATEPROCESSFLAGS bits of WDDM 2.2 (the driver's version): System,
 * Gdi, VirtualMachine; bit 3 and up came later or are reserved
 * (docs/wddm-gpummu-facts.md 3.2). */
#define RD_PROCESS_FLAGS_KNOWN 0x7u
/* DXGK_UPDATEPAGETABLEFLAGS bits the driver takes: Repeat, InitialUpdate,
 * NotifyEviction (docs/wddm-gpummu-facts.md 4.2); Use64KBPages names 64 KiB tables the GPU has not. */
#define RD_UPDATE_FLAGS_TAKEN 0x7u

/* The tree of the kit's GPU this build drives. */
static const struct wk_mmu_geometry *rd_geometry(void)
{
#ifdef RD_TWO_LEVEL
    return wk_gpu_mmu_geometry_two_level();
#else
    return wk_gpu_mmu_geometry();
#endif
}

/* A process (DxgkDdiCreateProcess): nothing but its identity yet; the
 * kernel allocates and fills its tables (section 3, step 3). */
struct rd_process {
    ULONG magic;
    DXGK_CREATEPROCESSFLAGS flags;
    HANDLE dxgk_process;
};

static struct rd_process *rd_process_from(HANDLE h)
{
    struct rd_process *p = (struct rd_process *)h;
    return p && p->magic == RD_MAGIC_PROCESS ? p : NULL;
}

/* ------------------------------------------------------------------ */
/* Processes and root tables                                            */
/* ------------------------------------------------------------------ */

/* Only the WDDM 2.2 part of DXGKARG_CREATEPROCESS is read (32 bytes,
 * docs/wddm-gpummu-facts.md 3.2):
 * the 2.4 fields are not there for a 2.2 driver. */
static NTSTATUS wk_rd_create_process(const HANDLE hAdapter, DXGKARG_CREATEPROCESS *args)
{
    if (!rd_adapter_from(hAdapter) || !args)
        return STATUS_INVALID_PARAMETER;
    if (args->Flags.Value & ~RD_PROCESS_FLAGS_KNOWN) {
        RD_TRACE("refdriver: CreateProcess: reserved flag bits 0x%x\n", args->Flags.Value & ~RD_PROCESS_FLAGS_KNOWN);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->NumPasid && !args->pPasid)
        return STATUS_INVALID_PARAMETER;
    struct rd_process *p = rd_alloc(sizeof(*p));
    if (!p)
        return STATUS_NO_MEMORY;
    p->magic = RD_MAGIC_PROCESS;
    p->flags = args->Flags;
    p->dxgk_process = args->hDxgkProcess;
    args->hKmdProcess = p;
    return STATUS_SUCCESS;
}

static NTSTATUS wk_rd_destroy_process(const HANDLE hAdapter, const HANDLE hKmdProcess)
{
    struct rd_process *p = rd_process_from(hKmdProcess);
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !p)
        return STATUS_INVALID_PARAMETER;
#ifdef RD_PLANTED_ANY_PROCESS_DROPS_ROOT /* the planted bug of wk_test_gpummu_any_process_drops_root (CMakeLists.txt) */
    if (1) {
#else
    if (p->flags.SystemProcess) { /* the paging process gone: its root with it, until the next one's */
#endif
        KIRQL irql = rd_lock_acquire(&a->lock);
        RtlZeroMemory(&a->paging_root, sizeof(a->paging_root));
        a->paging_root_entries = 0;
        rd_lock_release(&a->lock, irql);
    }
    p->magic = 0;
    rd_free(p);
    return STATUS_SUCCESS;
}

/* VOID: it cannot fail (docs/wddm-gpummu-facts.md 3.1), so a handle that is not a context is traced
 * and ignored. The context is idle during the call; the root takes effect
 * when a virtual submission runs it (not done yet). */
static VOID wk_rd_set_root_page_table(const HANDLE hAdapter, const DXGKARG_SETROOTPAGETABLE *args)
{
    struct rd_context *c = args ? rd_context_from(args->hContext) : NULL;
    if (!rd_adapter_from(hAdapter) || !c) {
        RD_TRACE("refdriver: SetRootPageTable: not a context of this driver\n");
        return;
    }
#ifdef RD_PLANTED_ROOT_KEPT /* the planted bug of wk_test_gpummu_root_kept (CMakeLists.txt) */
    if (c->root_entries)
        return;
#endif
    c->root = args->Address;
#ifdef RD_PLANTED_ROOT_ENTRIES_KEPT /* the planted bug of wk_test_gpummu2_entries_kept (CMakeLists.txt) */
    if (!c->root_entries)
#endif
#ifdef RD_PLANTED_ROOT_ENTRIES_GROW_ONLY /* the planted bug of wk_test_gpummu2_entries_grow_only (CMakeLists.txt) */
    if (args->NumEntries > c->root_entries)
#endif
        c->root_entries = args->NumEntries;
    if (c->flags.SystemContext) { /* the paging process's: its paging buffers run there */
        struct rd_adapter *a = c->device->adapter;
        KIRQL irql = rd_lock_acquire(&a->lock);
        a->paging_root = args->Address;
        a->paging_root_entries = args->NumEntries;
        rd_lock_release(&a->lock, irql);
    }
}

static BOOLEAN segment_address(const struct rd_adapter *a, UINT segment_id, UINT64 offset, UINT64 *gpu);

/*
 * docs/wddm-gpummu-facts.md 3.5: the driver makes the context's address
 * space active before the buffer runs. On the kit's GPU that is RING_ROOT,
 * the GPU physical address of the root SetRootPageTable last named; the
 * ring address is then the buffer's virtual address in that space. The
 * doorbell latches the root, so the register goes back to 0 after it: a
 * later SubmitCommand runs physically, as it always did. A context that
 * never learnt its root has a malformed submission (INVALID_PARAMETER, the
 * one failure 3.1 allows).
 */
static NTSTATUS wk_rd_submit_command_virtual(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMANDVIRTUAL *args)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    struct rd_context *c = args ? rd_context_from(args->hContext) : NULL;
    UINT64 root = 0;
    if (!a || !c || !a->started || !c->root_entries ||
        !segment_address(a, c->root.SegmentId, c->root.SegmentOffset, &root)) {
        RD_TRACE("refdriver: SubmitCommandVirtual: no context of this driver, or no root table yet\n");
        return STATUS_INVALID_PARAMETER;
    }
    UINT64 va = args->DmaBufferVirtualAddress;
#ifdef RD_PLANTED_NO_ROOT /* the planted bug of wk_test_gpummu_no_root (CMakeLists.txt) */
    root = 0;
#endif
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_LO, (ULONG)root);
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_HI, (ULONG)(root >> 32));
#if defined(RD_TWO_LEVEL) && !defined(RD_PLANTED_NO_ROOT_ENTRIES) /* wk_test_gpummu2_no_entries (CMakeLists.txt) */
#ifdef RD_PLANTED_ROOT_ENTRIES_MAX /* the planted bug of wk_test_gpummu2_entries_max (CMakeLists.txt) */
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_ENTRIES, 1u << WK_GPU_MMU_ROOT_BITS_MAX);
#elif defined(RD_PLANTED_ROOT_ENTRIES_SHORT) /* ... of wk_test_gpummu2_entries_short: the last entry left out */
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_ENTRIES, c->root_entries - 1);
#else
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_ENTRIES, c->root_entries); /* where the GPU must stop (3.4) */
#endif
#endif
    rd_write_reg(a, WK_GPU_REG_RING_ADDR_LO, (ULONG)va);
    rd_write_reg(a, WK_GPU_REG_RING_ADDR_HI, (ULONG)(va >> 32));
    rd_write_reg(a, WK_GPU_REG_RING_LENGTH, args->DmaBufferSize);
    rd_write_reg(a, WK_GPU_REG_RING_TAG, args->SubmissionFenceId);
    rd_write_reg(a, WK_GPU_REG_DOORBELL, 1);
#ifndef RD_PLANTED_ROOT_LEFT /* the planted bug of wk_test_gpummu_root_left (CMakeLists.txt) */
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_LO, 0);
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_HI, 0);
#endif
    KIRQL irql = rd_lock_acquire(&a->lock);
    a->submitted_fence[args->NodeOrdinal % RD_MAX_NODES] = args->SubmissionFenceId;
    a->node_of_fence[args->SubmissionFenceId & 255u] = (UCHAR)(args->NodeOrdinal % RD_MAX_NODES);
    rd_lock_release(&a->lock, irql);
    return STATUS_SUCCESS;
}

/*
 * Seed "Context allocation": a virtual context's allocation (the blob
 * UpdateContextAllocation wrote: its magic and the context's id) mapped
 * read-only into the application address space of its context, where the
 * memory manager chooses, so that the process's buffers can read which
 * context they run on. Nothing privileged is in it (the seed's note). A
 * mapping the kernel refuses (0) fails the context.
 */
NTSTATUS wk_rd_gpummu_map_context(struct rd_context *ctx)
{
    struct rd_adapter *a = ctx->device->adapter;
    if (!ctx->flags.VirtualAddressing || !ctx->context_allocation || !a->dxgk.DxgkCbMapContextAllocation)
        return STATUS_SUCCESS;
    DXGKARGCB_MAPCONTEXTALLOCATION m;
    RtlZeroMemory(&m, sizeof(m));
    m.hAllocation = ctx->context_allocation->kernel_handle;
    m.SizeInPages = ctx->context_allocation->size / 4096; /* 4 KB pages (facts 4.10) */
    m.Protection.Write = 0;
    ctx->context_va = a->dxgk.DxgkCbMapContextAllocation(a->dxgk.DeviceHandle, &m);
    if (!ctx->context_va) {
        RD_TRACE("refdriver: DxgkCbMapContextAllocation refused the context allocation\n");
        return STATUS_NO_MEMORY;
    }
    return STATUS_SUCCESS;
}

#ifdef RD_TWO_LEVEL
/*
 * docs/wddm-gpummu-facts.md 3.3: the bytes of a root of at least
 * NumberOfPte entries, "a multiple of the page size of the GPU memory
 * segment where page table is located" (the driver's memory segments are
 * managed in 4 KiB pages), and the entries that size holds written back:
 * whole pages of 512 eight-byte entries, up to the 2^18 the GPU walks.
 */
static SIZE_T wk_rd_get_root_page_table_size(const HANDLE hAdapter, DXGKARG_GETROOTPAGETABLESIZE *args)
{
    if (!rd_adapter_from(hAdapter) || !args)
        return 0;
    const UINT per_page = WK_GPU_PAGE_SIZE / RD_PTE_BYTES, most = 1u << WK_GPU_MMU_ROOT_BITS_MAX;
    UINT want = args->NumberOfPte ? args->NumberOfPte : 1;
    UINT entries = want >= most ? most : (want + per_page - 1) / per_page * per_page;
#ifdef RD_PLANTED_ROOT_SHORT /* the planted bug of wk_test_gpummu2_root_short (CMakeLists.txt) */
    entries = entries > per_page ? entries / 2 : entries;
#endif
#ifndef RD_LEGAL_COUNT_AS_ASKED /* wk_test_gpummu2_count_as_asked: the count left as asked, which is allowed */
    args->NumberOfPte = entries;
#endif
    return (SIZE_T)entries * RD_PTE_BYTES;
}
#endif

UINT64 wk_rd_gpummu_submit_root(struct rd_adapter *a, UINT kind)
{
    UINT64 root = 0;
#ifdef RD_PLANTED_PAGING_PHYSICAL /* the planted bug of wk_test_gpummu_paging_physical (CMakeLists.txt) */
    kind = RD_DMA_PAGING;
#endif
#if defined(RD_LEGAL_ALL_IN_PP) || defined(RD_LEGAL_MOST_IN_PP)
    /* wk_test_gpummu_gpuva_all_in_pp: "all paging operation will occur in the virtual address space of the
     * system context" (DXGK_GPUMMUCAPS), read to the letter; wk_test_gpummu_most_in_pp: "Most paging
     * operations occur in a context of the system paging process" (System paging process), all but
     * READ/WRITE_PHYSICAL (RD_DMA_PAGING_PHYSICAL) */
    if (kind == RD_DMA_PAGING && a->paging_root_entries)
        kind = RD_DMA_PAGING_VIRTUAL;
#endif
    if (kind != RD_DMA_PAGING_VIRTUAL)
        return 0;
    KIRQL irql = rd_lock_acquire(&a->lock);
    D3DGPU_PHYSICAL_ADDRESS at = a->paging_root;
    UINT entries = a->paging_root_entries;
    rd_lock_release(&a->lock, irql);
    if (!entries || !segment_address(a, at.SegmentId, at.SegmentOffset, &root))
        RD_TRACE("refdriver: SubmitCommand: the paging process's operations, and no root for them\n");
#ifdef RD_TWO_LEVEL
    else
        rd_write_reg(a, WK_GPU_REG_RING_ROOT_ENTRIES, entries);
#else
    UNREFERENCED_PARAMETER(entries);
#endif
    return root;
}

void wk_rd_gpummu_ddis(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiCreateProcess = wk_rd_create_process;
    init->DxgkDdiDestroyProcess = wk_rd_destroy_process;
    init->DxgkDdiSetRootPageTable = wk_rd_set_root_page_table;
    init->DxgkDdiSubmitCommandVirtual = wk_rd_submit_command_virtual;
#ifdef RD_TWO_LEVEL
    init->DxgkDdiGetRootPageTableSize = wk_rd_get_root_page_table_size;
#endif
#ifndef RD_NO_ENGINE_RESET /* that build's page faults take the adapter-wide reset (timeout.c) */
    wk_rd_engine_reset_ddis(init, NULL);
#endif
}

/* docs/wddm-gpummu-facts.md 1.4: VirtualAddressingSupported needs GpuMmuSupported or IoMmuSupported. */
void wk_rd_gpummu_caps(DXGK_DRIVERCAPS *caps)
{
    caps->MemoryManagementCaps.VirtualAddressingSupported = 1;
    caps->MemoryManagementCaps.GpuMmuSupported = 1;
#ifndef RD_NO_ENGINE_RESET
    wk_rd_engine_reset_ddis(NULL, caps); /* the engine reset after a page fault */
#endif
}

/* ------------------------------------------------------------------ */
/* QueryAdapterInfo: GPUMMUCAPS (13), PAGETABLELEVELDESC (14)           */
/* ------------------------------------------------------------------ */

/* Bytes of one table of level l: every level of the kit's GPU fills one
 * 4 KiB page. */
static UINT table_bytes(const struct wk_mmu_geometry *g, UINT l)
{
    return (UINT)((1u << g->level[l].index_bits) * g->level[l].entry_bytes);
}

/* Where the tables go: the first memory segment the driver reports (a
 * local segment, never an aperture, whose pages the GPU reads directly).
 * 0 only if there is none, which StartDevice would not have let pass. */
static UINT table_segment(const struct rd_adapter *a)
{
#ifdef RD_SYSMEM_TABLES /* an integrated GPU's way: the tables in system memory (segment 0, 4 KiB each) */
    UNREFERENCED_PARAMETER(a);
    return 0;
#endif
    for (UINT i = 0; i < a->segment_count; i++)
        if (a->memory_set & (1u << i))
            return i + 1;
    return 0;
}

/* A query's input, when the type has one: whole, or INVALID_PARAMETER as
 * for the segment queries. */
static BOOLEAN input_ok(const DXGKARG_QUERYADAPTERINFO *q, UINT needed)
{
    return q->pInputData && q->InputDataSize >= needed;
}

/* docs/wddm-gpummu-facts.md 1.2, 1.3: ReadOnly is what the entries hold besides VALID; no 64 KiB,
 * large, dual or zero entries. GPU_PHYSICAL: the tables are in local
 * memory, which rules CPU_VIRTUAL out (docs/wddm-gpummu-facts.md 5.6 R2), and the paging buffers run
 * with physical addresses. */
static NTSTATUS query_gpummu_caps(const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!input_ok(q, sizeof(DXGK_QUERYGPUMMUCAPSIN)))
        return STATUS_INVALID_PARAMETER;
    if (q->OutputDataSize < sizeof(DXGK_GPUMMUCAPS))
        return STATUS_BUFFER_TOO_SMALL;
    if (((const DXGK_QUERYGPUMMUCAPSIN *)q->pInputData)->PhysicalAdapterIndex != 0)
        return STATUS_INVALID_PARAMETER; /* one GPU, no linked adapters */
    const struct wk_mmu_geometry *g = rd_geometry();
    DXGK_GPUMMUCAPS *caps = q->pOutputData;
    RtlZeroMemory(caps, sizeof(*caps));
    caps->ReadOnlyMemorySupported = 1;
#ifdef RD_CPU_VIRTUAL /* tables in system memory, written by the CPU (docs/wddm-gpummu-facts.md 1.2) */
    caps->PageTableUpdateMode = DXGK_PAGETABLEUPDATE_CPU_VIRTUAL;
#elif defined(RD_GPU_VIRTUAL) /* written by the GPU in the paging process, at the tables' addresses there */
    caps->PageTableUpdateMode = DXGK_PAGETABLEUPDATE_GPU_VIRTUAL;
#else
    caps->PageTableUpdateMode = DXGK_PAGETABLEUPDATE_GPU_PHYSICAL;
#endif
    caps->VirtualAddressBitCount = wk_mmu_va_bits(g);
#ifdef RD_LEGAL_VA32 /* wk_test_gpummu2_va32: a 4 GiB space, which a two-level driver may choose */
    caps->VirtualAddressBitCount = 32;
#endif
    /* A leaf of 64 KiB entries covers the same range with 16 times fewer;
     * its size must be a multiple of 4096 (docs/wddm-gpummu-facts.md 1.2). */
    UINT leaf64k = table_bytes(g, 0) / 16;
    caps->LeafPageTableSizeFor64KPagesInBytes = (leaf64k + WK_GPU_PAGE_SIZE - 1) & ~(WK_GPU_PAGE_SIZE - 1);
    caps->PageTableLevelCount = g->levels;
    return STATUS_SUCCESS;
}

/* docs/wddm-gpummu-facts.md 2.1, 2.3: level 0 is the leaf. Every table is one page in the first
 * memory segment, for ordinary processes and the paging process alike;
 * alignment 0 = the segment's page size. */
static NTSTATUS query_level_desc(const struct rd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!input_ok(q, sizeof(DXGK_QUERYPAGETABLELEVELDESCIN)))
        return STATUS_INVALID_PARAMETER;
    if (q->OutputDataSize < sizeof(DXGK_PAGE_TABLE_LEVEL_DESC))
        return STATUS_BUFFER_TOO_SMALL;
    const DXGK_QUERYPAGETABLELEVELDESCIN *in = q->pInputData;
    const struct wk_mmu_geometry *g = rd_geometry();
    if (in->LevelIndex >= g->levels || in->PhysicalAdapterIndex != 0)
        return STATUS_INVALID_PARAMETER;
    DXGK_PAGE_TABLE_LEVEL_DESC *d = q->pOutputData;
    RtlZeroMemory(d, sizeof(*d));
    d->PageTableIndexBitCount = g->level[in->LevelIndex].index_bits;
    d->PageTableSegmentId = table_segment(a);
    d->PagingProcessPageTableSegmentId = table_segment(a);
    d->PageTableSizeInBytes = table_bytes(g, in->LevelIndex);
    d->PageTableAlignmentInBytes = 0;
#ifdef RD_TWO_LEVEL
    if (in->LevelIndex == 1) { /* a resizable root: an initial count and size of 0, as 2.3 allows */
        d->PageTableIndexBitCount = 0;
        d->PageTableSizeInBytes = 0;
    }
#endif
    return STATUS_SUCCESS;
}

BOOLEAN wk_rd_gpummu_query(struct rd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q, NTSTATUS *st)
{
    switch (q->Type) {
    case DXGKQAITYPE_GPUMMUCAPS: *st = query_gpummu_caps(q); return TRUE;
    case DXGKQAITYPE_PAGETABLELEVELDESC: *st = query_level_desc(a, q); return TRUE;
    default: return FALSE;
    }
}

/* ------------------------------------------------------------------ */
/* Paging: UPDATE_PAGE_TABLE (11), FLUSH_TLB (12)                       */
/* ------------------------------------------------------------------ */

/* The GPU address of a segment-relative place (D3DGPU_PHYSICAL_ADDRESS,
 * a DXGK_PTE's Segment and address): the offset is from the start of the
 * segment (docs/wddm-gpummu-facts.md 6), whose base the driver reported as
 * BaseAddress; segment 0 is system memory, the offset its physical address,
 * which the GPU reaches as is (paging.c, MDL pages). FALSE for no such
 * segment or an offset past its end. */
static BOOLEAN segment_address(const struct rd_adapter *a, UINT segment_id, UINT64 offset, UINT64 *gpu)
{
    if (segment_id == 0) {
#ifdef RD_PLANTED_SYSMEM_AS_SEGMENT /* the planted bug of wk_test_gpummu_sysmem_as_segment (CMakeLists.txt) */
        offset += a->segment_count ? a->segments[0].base : 0;
#endif
        *gpu = offset;
        return TRUE;
    }
    const struct rd_segment *seg = rd_segment(a, segment_id);
    if (!seg || offset >= seg->size) {
        RD_TRACE("refdriver: segment %u offset 0x%llx is in no segment\n", segment_id, (unsigned long long)offset);
        return FALSE;
    }
    *gpu = seg->base + offset;
    return TRUE;
}

/* What a DXGK_PTE points at, as a GPU address: Segment 0 is system memory,
 * the address a page frame number, which the GPU reaches at pfn << 12 as
 * for an MDL's pages (paging.c); else segment-relative (6). */
static BOOLEAN pte_target(const struct rd_adapter *a, const DXGK_PTE *p, UINT64 *gpu)
{
    UINT64 page = p->PageAddress;
    if (page > (WK_GPU_PTE_ADDRESS_MASK >> WK_GPU_PAGE_SHIFT)) {
        RD_TRACE("refdriver: UpdatePageTable: page address 0x%llx beyond the GPU's\n", (unsigned long long)page);
        return FALSE;
    }
    if (p->Segment == 0) {
        *gpu = page << WK_GPU_PAGE_SHIFT;
        return TRUE;
    }
    return segment_address(a, (UINT)p->Segment, page << WK_GPU_PAGE_SHIFT, gpu);
}

/* One generic entry as the kit's GPU's (gpu.h): VALID, READ_ONLY at the
 * leaf (the cap the driver reports), the address; an invalid entry is 0.
 * FALSE for what the caps ruled out (Zero, LargePage) or no place. */
static BOOLEAN hw_entry(const struct rd_adapter *a, UINT level, const DXGK_PTE *p, UINT64 *out)
{
    UINT64 target = 0;
    *out = 0;
    if (!p->Valid)
        return TRUE;
    if (p->Zero || p->LargePage) {
        RD_TRACE("refdriver: UpdatePageTable: Zero or LargePage, which the caps do not offer\n");
        return FALSE;
    }
    if (!pte_target(a, p, &target))
        return FALSE;
    *out = wk_gpu_mmu_entry(target, WK_GPU_PTE_VALID | (level == 0 && p->ReadOnly ? WK_GPU_PTE_READ_ONLY : 0));
    return TRUE;
}

/* Entry i of the update: with Repeat only pPageTableEntries[0] is read
 * (docs/wddm-gpummu-facts.md 4.2, 5.6 R4). */
static const DXGK_PTE *update_pte(const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u, UINT i)
{
    return u->Flags.Repeat ? &u->pPageTableEntries[0] : &u->pPageTableEntries[i];
}

/* What the kernel should never send, checked before anything is written:
 * the driver cannot fail the DDI (facts 2.2 allows SUCCESS,
 * INSUFFICIENT_DMA_BUFFER, ALLOCATION_BUSY), so it traces and writes
 * nothing, as paging.c does with an argument out of range. */
static BOOLEAN update_ok(const struct rd_adapter *a, const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u)
{
    const struct wk_mmu_geometry *g = rd_geometry();
    DXGK_UPDATEPAGETABLEFLAGS flags = u->Flags;
    UINT flag_bits = 0;
    RtlCopyMemory(&flag_bits, &flags, sizeof(flag_bits));
    if (u->Reserved0 != 0 || (flag_bits & ~RD_UPDATE_FLAGS_TAKEN)) {
        RD_TRACE("refdriver: UpdatePageTable: Reserved0 0x%x, flags 0x%x\n", u->Reserved0, flag_bits);
        return FALSE;
    }
    if (u->PageTableLevel >= g->levels || (u->NumPageTableEntries && !u->pPageTableEntries) ||
        u->StartIndex > (1u << g->level[u->PageTableLevel].index_bits) ||
        u->NumPageTableEntries > (1u << g->level[u->PageTableLevel].index_bits) - u->StartIndex) {
        RD_TRACE("refdriver: UpdatePageTable: level %u entries %u+%u outside a table\n", u->PageTableLevel,
                 u->StartIndex, u->NumPageTableEntries);
        return FALSE;
    }
    UINT64 entry;
    for (UINT i = 0; i < u->NumPageTableEntries && (i == 0 || !u->Flags.Repeat); i++)
        if (!hw_entry(a, u->PageTableLevel, update_pte(u, i), &entry))
            return FALSE;
    return TRUE;
}

/* pDmaBuffer NULL: the paging process's own tables at start (docs/wddm-gpummu-facts.md 4.2),
 * written
 * now by the CPU through PageTableAddress.CpuVirtual; nothing emitted. */
static NTSTATUS update_by_cpu(const struct rd_adapter *a, const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u)
{
    BYTE *table = u->PageTableAddress.CpuVirtual;
    if (!table) {
        RD_TRACE("refdriver: UpdatePageTable: CPU_VIRTUAL without an address\n");
        return STATUS_SUCCESS;
    }
    for (UINT i = 0; i < u->NumPageTableEntries; i++) {
        UINT64 entry = 0;
        hw_entry(a, u->PageTableLevel, update_pte(u, i), &entry);
#ifdef RD_PLANTED_CPU_NO_START /* the planted bug of wk_test_gpummu_cpu_no_start (CMakeLists.txt) */
        rd_put_le64(table + (SIZE_T)i * RD_PTE_BYTES, entry);
#else
        rd_put_le64(table + (SIZE_T)(u->StartIndex + i) * RD_PTE_BYTES, entry);
#endif
    }
    return STATUS_SUCCESS;
}

/* GPU_PHYSICAL: one WRITE64 per entry into the table at its segment
 * address; MultipassOffset = entries written, so a buffer that runs out
 * resumes in the next (facts 5.1 P4). */
static NTSTATUS update_at(const struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w,
                          UINT64 table)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &args->UpdatePageTable;
    UINT done = args->MultipassOffset < u->NumPageTableEntries ? args->MultipassOffset : u->NumPageTableEntries;
    enum rd_emit_result r = RD_EMIT_OK;
    for (; done < u->NumPageTableEntries; done++) {
        UINT64 entry = 0;
        hw_entry(a, u->PageTableLevel, update_pte(u, done), &entry);
        UINT64 slot = table + (UINT64)(u->StartIndex + done) * RD_PTE_BYTES;
        if ((r = rd_emit_result_of(wk_gpu_emit_write64(w, slot, entry))) != RD_EMIT_OK)
            break;
    }
    args->MultipassOffset = done;
    return rd_status_of(r);
}

static NTSTATUS update_by_gpu(const struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
    UINT64 table = 0;
    const D3DGPU_PHYSICAL_ADDRESS *at = &args->UpdatePageTable.PageTableAddress.GpuPhysical;
    if (!segment_address(a, at->SegmentId, at->SegmentOffset, &table))
        return STATUS_SUCCESS;
    return update_at(a, args, w, table);
}

static NTSTATUS op_update_page_table(const struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                                     struct wk_gpu_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &args->UpdatePageTable;
    if (!update_ok(a, u))
        return STATUS_SUCCESS;
    switch (u->UpdateMode) {
    case DXGK_PAGETABLEUPDATE_CPU_VIRTUAL:
#ifdef RD_CPU_VIRTUAL /* the mode it reports: every update by the CPU, now, nothing in the buffer */
        return update_by_cpu(a, u);
#else
        if (!args->pDmaBuffer)
            return update_by_cpu(a, u);
        break; /* only the paging process's start-up has it, without a buffer */
#endif
    case DXGK_PAGETABLEUPDATE_GPU_PHYSICAL:
        if (args->pDmaBuffer)
            return update_by_gpu(a, args, w);
        break;
    case DXGK_PAGETABLEUPDATE_GPU_VIRTUAL: /* the table's address in the paging process, where the buffer runs */
#ifdef RD_GPU_VIRTUAL /* only the mode the caps report */
        if (args->pDmaBuffer)
#ifdef RD_PLANTED_GPUVA_AS_PHYSICAL /* the planted bug of wk_test_gpummu_gpuva_physical (CMakeLists.txt) */
            return update_by_gpu(a, args, w);
#else
            return update_at(a, args, w, u->PageTableAddress.GpuVirtual);
#endif
#endif
        break;
    default:
        break;
    }
    RD_TRACE("refdriver: UpdatePageTable: mode %d with%s a DMA buffer not supported\n", (int)u->UpdateMode,
             args->pDmaBuffer ? "" : "out");
    return STATUS_SUCCESS;
}

/* docs/wddm-gpummu-facts.md 4.3: one VA_FLUSH of the root's GPU address and the range (0, 0: all);
 * no progress to keep, a full buffer repeats the call. */
static NTSTATUS op_flush_tlb(const struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_FLUSHTLB *f = &args->FlushTlb;
    UINT64 root = 0;
    if (!segment_address(a, f->RootPageTableAddress.SegmentId, f->RootPageTableAddress.SegmentOffset, &root))
        return STATUS_SUCCESS;
#ifdef RD_PLANTED_FLUSH_NO_BASE /* the planted bug of wk_test_gpummu_flush_no_base (CMakeLists.txt) */
    root = f->RootPageTableAddress.SegmentOffset;
#endif
    return rd_status_of(rd_emit_result_of(wk_gpu_emit_va_flush(w, root, f->StartVirtualAddress,
                                                               f->EndVirtualAddress)));
}

/* docs/wddm-gpummu-facts.md 4.5: the addresses are the paging process's,
 * where the kernel mapped the allocation's bytes for this operation; they
 * point at the bytes already (AllocationOffsetInBytes says where in the
 * allocation those are, "not to be added"). The buffer runs under the
 * paging process's root (submit.c). */
static NTSTATUS op_transfer_virtual(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL *t = &args->TransferVirtual;
    UINT64 src = t->SourceVirtualAddress, dst = t->DestinationVirtualAddress;
#ifdef RD_PLANTED_OFFSET_ADDED /* the planted bug of wk_test_gpummu_offset_added (CMakeLists.txt) */
    src += t->AllocationOffsetInBytes;
    dst += t->AllocationOffsetInBytes;
#endif
    return rd_copy_range(args, w, src, dst, t->TransferSizeInBytes);
}

static NTSTATUS op_fill_virtual(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL *f = &args->FillVirtual;
    UINT64 dst = f->DestinationVirtualAddress;
#ifdef RD_PLANTED_OFFSET_ADDED
    dst += f->AllocationOffsetInBytes;
#endif
    return rd_fill_range(args, w, dst, f->FillSizeInBytes, f->FillPattern);
}

/* docs/wddm-gpummu-facts.md 4.4: each range one COPY of its entries, from
 * the source table's address in the paging process to the destination's
 * (the tables' addresses there; the entries are 8 bytes). MultipassOffset:
 * the ranges done. */
static NTSTATUS op_copy_page_table_entries(DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w)
{
    const DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *c = &args->CopyPageTableEntries;
    if (c->NumRanges && !c->pRanges)
        return STATUS_SUCCESS;
    UINT done = args->MultipassOffset < c->NumRanges ? args->MultipassOffset : c->NumRanges;
    enum rd_emit_result r = RD_EMIT_OK;
    for (; done < c->NumRanges; done++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *g = &c->pRanges[done];
        UINT64 bytes = (UINT64)g->NumPageTableEntries * RD_PTE_BYTES;
#ifdef RD_PLANTED_COPY_ONE_SHORT /* the planted bug of wk_test_gpummu_copy_one_short (CMakeLists.txt) */
        bytes -= bytes ? RD_PTE_BYTES : 0;
#endif
        if (!bytes)
            continue;
        UINT64 src = g->SrcPageTableAddress + (UINT64)g->SrcStartPteIndex * RD_PTE_BYTES;
        UINT64 dst = g->DstPageTableAddress + (UINT64)g->DstStartPteIndex * RD_PTE_BYTES;
        if ((r = rd_emit_result_of(wk_gpu_emit_copy(w, src, dst, bytes))) != RD_EMIT_OK)
            break;
    }
    args->MultipassOffset = done;
    return rd_status_of(r);
}

BOOLEAN wk_rd_gpummu_paging(struct rd_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args, struct wk_gpu_writer *w,
                            NTSTATUS *st)
{
    switch (args->Operation) {
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES: *st = op_copy_page_table_entries(args, w); return TRUE;
    case DXGK_OPERATION_VIRTUAL_TRANSFER: *st = op_transfer_virtual(args, w); return TRUE;
    case DXGK_OPERATION_VIRTUAL_FILL: *st = op_fill_virtual(args, w); return TRUE;
    case DXGK_OPERATION_UPDATE_PAGE_TABLE: *st = op_update_page_table(a, args, w); return TRUE;
    case DXGK_OPERATION_FLUSH_TLB: *st = op_flush_tlb(a, args, w); return TRUE;
    /* Sent only for an allocation flagged AccessedPhysically and
     * ExplicitResidencyNotification (facts P23), which this driver never
     * asks for: nothing of its hardware needs the address. */
    case DXGK_OPERATION_NOTIFY_RESIDENCY: *st = STATUS_SUCCESS; return TRUE;
    default: return FALSE;
    }
}
