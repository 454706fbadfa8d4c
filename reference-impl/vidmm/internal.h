/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the reference video memory manager's state, shared by the
 * files of reference-impl/vidmm only.
 *
 * One file per job: vidmm.c (lifetime, handles, stats), rules.c (catalogue,
 * violations), call.c (guarded DDI calls: crash, hang), guard.c (guard-paged
 * buffers), loader.c (DriverEntry, DxgkInitialize), adapter.c (start, caps),
 * driver_once.c (one DriverEntry for the adapters of a process),
 * segments.c (segment query and checks), callbacks.c (DXGKRNL_INTERFACE),
 * objects.c (devices, contexts), paging_node.c (the paging node query),
 * system_context.c (the kernel's system device and context), allocation.c
 * (CreateAllocation checks),
 * sysmem.c (system pages, MDLs), residency.c (placement, eviction),
 * paging.c (the BuildPagingBuffer loop), paging_ops.c (one function per
 * operation, with its semantic check), render.c, submit.c (patch, submit,
 * fences, interrupts, cancel).
 */
#ifndef WK_VIDMM_INTERNAL_H
#define WK_VIDMM_INTERNAL_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>

#include "vidmm.h"
#include "wddmkit/binding.h"

#include "handles.h"
#include "placement.h"
#include "wddmkit/binding.h"
#include "rules.h"

#define MAX_VIOLATIONS_KEPT 256u
#define MAX_SEGMENTS 31u
#define MAX_GBUFS 1024u            /* guarded buffers a fault report can name (4 per context) */
#define GBUF_SPARES 256u           /* unused guarded mappings kept for reuse, per pool */
#define GBUF_SPARE_MAX (1ull << 20) /* larger mappings are not kept */
#define GBUF_SPARE_BYTES (16ull << 20) /* nor more than this in one pool */

/* ------------------------------------------------------------------ */
/* Guarded buffers (guard.c)                                            */
/* ------------------------------------------------------------------ */

/* A buffer handed to the driver: its end abuts an inaccessible page, and the
 * slack between the end and that page holds a canary. */
struct gbuf {
    uint8_t *ptr;        /* what the driver gets */
    uint64_t size;
    uint8_t *map;        /* the whole mapping (or heap block) */
    uint64_t map_len;
    const char *what;    /* "DMA buffer", "patch-location list", ... */
    /* GPU-visible buffers: the last `pages` of a block of contiguous system
     * pages (map_pfn, mapped at map; map_len / 4 KiB of them) */
    uint64_t first_pfn;  /* the buffer's first page, 0 when not GPU-visible */
    uint64_t pages;
    uint64_t map_pfn;    /* the block's first page (what gbuf_free gives back) */
    /* Inputs (gbuf_alloc_input): the kit's writable view of the pages the
     * driver sees read-only at map; NULL for every other buffer. */
    uint8_t *kit;
    /* Inputs: PROT_NONE bytes reserved past the guard page (guard_input.c:
     * a read at any 32-bit offset past the end faults in them); 0 when
     * the address space had no room for them. */
    uint64_t moat;
    /* A Patch view (patch_view.c): bytes [ro_start, ro_end) of the
     * mapping are read-only to the driver (ro_end 0: none are). */
    uint64_t ro_start, ro_end;
    uint32_t reg;        /* its slot in the registry + 1 (0: none; guard.c) */
};

/* An unused guarded mapping kept for the next buffer of the same page-rounded
 * size: data pages, then the PROT_NONE guard page, already set up. */
struct gbuf_spare {
    uint8_t *map;
    uint64_t map_len;
    /* [map, map + canary_end) still holds the canary its last user's check
     * read intact, as long as no DDI call ran since (ddi_serial): the
     * driver reaches a freed buffer only from inside one (guard.c) */
    uint64_t canary_end;
    uint64_t ddi_serial;
    uint8_t *kit;        /* inputs only (guard_input.c): the kit's writable view */
    uint64_t moat;       /* inputs only: PROT_NONE bytes past the guard page */
};

/* Spare mappings and their bytes (kept current, so that a put does not
 * sum the pool: a fuzz program with many contexts leaves hundreds). */
struct gbuf_pool {
    struct gbuf_spare s[GBUF_SPARES];
    uint32_t count;
    uint64_t bytes;
};

/* ------------------------------------------------------------------ */
/* Objects                                                              */
/* ------------------------------------------------------------------ */

struct segment {
    uint32_t id;
    int aperture;
    int memory;                 /* a memory segment the kit places allocations in */
    uint64_t base;
    uint64_t size;
    uint32_t banks;             /* NbOfBanks when UseBanking, else 0 */
    uint64_t bank_end[128];     /* end offset of bank i (1-based index i-1) */
    struct wk_place_heap *heap;
    int budgeted;               /* the case's allocations stay in [0, budget), the driver's own
                                   go above it first (wk_vidmm_set_segment_budget) */
    uint64_t budget;
    DXGK_SEGMENTFLAGS flags;
    uint32_t lru_head, lru_tail;    /* resident allocations, oldest first (slots: ht_slot) */
    uint8_t *mapped_once;           /* no_model, aperture: a bit per page some MAP covered
                                       (paging_ops.c, record_mapped); NULL: none yet */
};

struct device {
    int live;
    HANDLE driver_handle;
    uint32_t flags;
    uint32_t space;             /* the address space of its process (gpuva.c), 0 for none */
};

/* What can write memory the driver was handed, counted: DDI calls (the
 * driver runs only inside one) and the GPU model's executions (a queued
 * run, or an exec from the host). Equal counts: nothing of either ran. */
struct activity {
    uint64_t ddi_serial;                    /* wk_vidmm.ddi_serial */
    struct wk_gpu_counters gpu;
};

/* What the last wk_vidmm_patch whose checks all passed proved about its
 * context's DMA buffer: zero from dma_end on, as long as the adapter's
 * activity is still `seen` (submit.c, known_take and known_keep). */
struct patch_known {
    int valid;
    uint64_t dma_end;
    struct activity seen;
};

/* A destroyed context's DMA buffer held back, poisoned (dma_quarantine.c). */
struct dmaq_entry {
    uint8_t *map;                /* the block's mapping (still read-write) */
    uint64_t map_len;
    uint64_t map_pfn;            /* its first frame: what goes back to the pool */
    uint64_t size;               /* the buffer's size, as the driver had it */
    uint64_t buf_off;            /* where the buffer started in the block */
    uint32_t context;            /* the kit's handle of the destroyed context */
    uint64_t ddi_serial;         /* wk_vidmm.ddi_serial at the destroy */
};

/* At most DMAQ_SLOTS blocks and DMAQ_BYTES bytes out of the system-page
 * pool at once: enough for the contexts a fuzz program destroys between two
 * checks, little beside the pool (a larger block is judged at once). */
#define DMAQ_SLOTS 8u
#define DMAQ_BYTES (1ull << 20)
struct dma_quarantine {
    struct dmaq_entry e[DMAQ_SLOTS];
    uint32_t head, count;        /* the oldest entry, and how many */
    uint64_t bytes;
};

/* A CpuVisibleAddress the kit ended at its allocation's unmap, its range
 * left inaccessible (aperture_view.c): what a fault there is said to be. */
struct aperture_view_ended {
    const uint8_t *va;
    uint64_t bytes;
    uint32_t allocation;         /* the kit's handle */
    uint64_t ddi_serial;         /* wk_vidmm.ddi_serial at the unmap */
};
#define APERTURE_VIEWS_ENDED 8u

struct context {
    int live;
    uint32_t device;
    HANDLE driver_handle;
    uint32_t flags;
    uint32_t node;              /* the NodeOrdinal it was created on: its buffers go there */
    DXGK_CONTEXTINFO info;
    uint32_t caps;              /* info.Caps as the kit reads it (context_caps.c): 0 for a
                                   driver whose interface version has no such field */
    struct gbuf dma;            /* current DMA buffer (GPU-visible) */
    struct gbuf dma_private;
    struct gbuf alloc_list;
    struct gbuf patch_list;
    uint32_t patch_entries;     /* the entries of patch_list: info.PatchLocationListSize,
                                   or more with cfg.grown_patch_list */
    uint32_t dma_segment;       /* 0: system memory; else aperture id (dma_place.c) */
    uint64_t dma_offset;        /* in that aperture */
    uint64_t dma_gpu_address;
    uint64_t *dma_pfns;         /* the pages the aperture maps, and their MDL */
    MDL dma_mdl;
    uint32_t last_alloc_list_size;  /* of the last render (for CancelCommand) */
    uint32_t last_patch_count;
    /* wk_vidmm_patch's proof about dma, dropped by any DDI call or GPU
     * execution since: code that writes dma outside both must clear
     * known.valid (today none does: Render clears it for its DDI call) */
    struct patch_known known;
    /* What wk_vidmm_patch hands the driver as pDmaBuffer (patch_view.c):
     * a second mapping of dma's pages whose tail, where no call has had
     * a slot for a while, is read-only. */
    struct gbuf patch_view;
    int page_faulted;           /* its buffer page-faulted: in error, nothing more is submitted
                                   to it (page_fault.c) */
};

/* An allocation's content lives in exactly one place at a time. */
struct allocation {
    int live;
    int context_allocation;     /* created through DxgkCbCreateContextAllocation */
    uint32_t device;
    uint32_t owner_context;     /* GPU context allocations */
    HANDLE driver_handle;
    HANDLE device_handle;       /* DXGK_ALLOCATIONLIST.hDeviceSpecificAllocation: what
                                   DxgkDdiOpenAllocation returned, else driver_handle */
    int opened;                 /* device_handle came from DxgkDdiOpenAllocation: closed
                                   through DxgkDdiCloseAllocation before the destroy */
    DXGK_ALLOCATIONINFO info;   /* the driver's answer (checked copy) */
    uint64_t size;              /* page rounded */
    int resident;
    uint32_t segment;           /* when resident */
    uint64_t offset;            /* in the segment when resident */
    int has_content;            /* was filled or written once */
    int pinned;                 /* in the working set being built: not a victim */
    uint32_t lru_prev, lru_next; /* neighbours in the segment's LRU list (slots: ht_slot) */
    uint32_t handle;            /* its own kit handle */
    uint32_t ctx_prev, ctx_next; /* context allocations: neighbours in creation order (handles) */
    uint64_t *pfns;             /* system backing, when evicted (or aperture-resident) */
    uint64_t pfn_count;
    MDL mdl;
    void *aperture_view;             /* MapApertureSegment2.CpuVisibleAddress while mapped (aperture_view.c) */
};

/* ------------------------------------------------------------------ */
/* Submissions and fences                                               */
/* ------------------------------------------------------------------ */

struct pending {
    uint32_t fence;
    int paging;
    int held;                   /* kept in the software queue (cancel tests) */
    uint32_t context;
    uint32_t node, engine;      /* the NodeOrdinal and EngineOrdinal it was submitted to
                                   (its completion must name them: INTR-ORDINAL-001) */
    uint32_t start, end;        /* submission range in the DMA buffer */
    uint64_t dma_gpu_address;   /* the DMA buffer's GPU address (a binding's processor
                                   without registers runs [start, end) from it) */
    uint32_t space;             /* a virtual submission: its context's address space
                                   (dma_gpu_address is virtual there); 0: physical */
    uint64_t doorbell;          /* the kit GPU's DOORBELL its SubmitCommand rang, when it rang
                                   exactly one; 0: unknown (fence_complete: run yet?) */
};

#define MAX_PENDING 256u

/*
 * Whether fence a was handed out after fence b. SubmissionFenceId is a
 * 32-bit UINT (facts §4.4, §4.5) that a case may start anywhere
 * (cfg.first_fence); the facts say nothing of what follows 0xFFFFFFFF, but
 * a kept fuzz adapter counts on across resets and can get there, and the
 * kit goes on at 1 (submit.c, fence_next). So fences are compared by their
 * distance mod 2^32 (serial-number arithmetic, RFC 1982), not by value:
 * right while fewer than 2^31 ids separate them, and at most MAX_PENDING
 * are pending at once.
 */
static inline int fence_after(uint32_t a, uint32_t b)
{
    return a != b && (uint32_t)(a - b) < 0x80000000u;
}

/* The node of the kit's own contexts and their render submissions, and the
 * engine of every submission: the kit's adapter is not part of a link (so
 * its engine ordinal is 0). Paging goes to adapter_paging_node. */
#define VIDMM_NODE 0u
#define VIDMM_ENGINE 0u

/* ------------------------------------------------------------------ */
/* The manager                                                          */
/* ------------------------------------------------------------------ */

#define VIDMM_MAGIC 0x4D4D4456u /* 'VDMM' */
#define DEVICE_HANDLE_TAG 0xD0000000u  /* runtime handles the driver sees: tag | ht_runtime_bits */
#define CONTEXT_HANDLE_TAG 0xC0000000u
#define CTXALLOC_HANDLE_TAG 0xA0000000u
#define ALLOCATION_HANDLE_TAG 0xB0000000u /* an allocation's D3DKMT_HANDLE (openalloc.c) */
#define HANDLE_INDEX_MASK 0x0FFFFFFFu

/* km_services.c: pool blocks of one tag counted for an adapter (those
 * DriverEntry allocated apart), and a queued KDPC. */
#define KM_POOL_TAGS 32
#define KM_DPC_QUEUE 64
#define MAX_LIVE_ADAPTERS 64
struct km_pool_tag {
    uint32_t tag;
    int used;
    uint64_t blocks, bytes;             /* allocated in DDIs since DriverEntry */
    uint64_t entry_blocks, entry_bytes; /* allocated in DriverEntry */
    uint32_t by_ddi[WK_DDI_COUNT];      /* of `blocks`, live ones by the DDI that made them */
};
struct km_dpc {
    void *dpc;
    void (*run)(void *dpc);
};
/* km_services.c: live I/O space mappings and contiguous blocks counted for
 * an adapter by what names them in MEM-LEAK-001: their kind (kmservices.h
 * WK_KM_MEMORY_*), the DDI that made them and the size asked for. Past
 * KM_MEM_SLOTS such keys, four more slots count the rest together, by kind
 * and by whether DriverEntry made them, their bytes summed. */
/* The bytes of contiguous memory the driver holds from its DDIs, which
 * take the adapter's system pages (DriverEntry's are the process's). */
uint64_t km_contiguous_bytes(struct wk_vidmm *vm);
#define KM_MEM_SLOTS 32
#define KM_MEM_ALL_SLOTS (KM_MEM_SLOTS + 4)
struct km_mem_slot {
    uint32_t kind;  /* 0: the slot is free */
    uint32_t ddi;   /* enum wk_ddi; in the four others WK_DDI_NONE or WK_DDI_DRIVER_ENTRY */
    uint64_t size;  /* bytes each (the four others: 0, sizes vary) */
    uint64_t live;  /* mappings or blocks still live */
    uint64_t bytes; /* their bytes */
};

/* bars.c: the adapter's device BARs and the register model behind them,
 * and the CM_RESOURCE_LIST DxgkCbGetDeviceInformation hands out. */
struct bar_table {
    int set;                                /* bars_attach ran (else bars_of writes the kit's own) */
    uint32_t count;
    struct wk_binding_bar bar[WK_BINDING_MAX_BARS];
    const struct wk_registers_ops *regs;    /* NULL: nothing answers behind the BARs */
    void *self;
    union {                                 /* one memory descriptor per BAR */
        CM_RESOURCE_LIST list;
        uint8_t bytes[sizeof(CM_RESOURCE_LIST) +
                      (WK_BINDING_MAX_BARS - 1) * sizeof(CM_PARTIAL_RESOURCE_DESCRIPTOR)];
    } resources;
};

/* What a GpuMmu driver said of its MMU at start (gpummu_caps.c). */
struct gpummu {
    int asked;                              /* the caps say GpuMmu: the queries were made */
    int answered;                           /* ... and every answer followed the rules */
    int modelled;                           /* ... and the kit walks the tree (geometry) */
    uint32_t queries;                       /* QueryAdapterInfo calls the queries made */
    char why[200];                          /* when asked and not modelled: why not */
    DXGK_GPUMMUCAPS caps;
    DXGK_PAGE_TABLE_LEVEL_DESC level[DXGK_MAX_PAGE_TABLE_LEVEL_COUNT];
    struct wk_mmu_geometry geometry;        /* level[0] the leaf, as WDDM numbers them */
};

/* GPU virtual address spaces of a GpuMmu driver (gpuva.c): the page
 * tables the kit placed, and the spaces they make. Index 0 is "none". */
#define GPUVA_MAX_TABLES 256u
#define GPUVA_MAX_SPACES 16u
#define GPUVA_PAGING_SPACE (GPUVA_MAX_SPACES - 1) /* the system paging process's (paging_process.c) */
#define GPUVA_MAX_HELD 16u
struct va_table {
    uint32_t live;
    uint32_t space;                         /* the space it belongs to */
    uint32_t level;                         /* 0: a leaf table */
    uint32_t segment;                       /* PageTableSegmentId of its level; 0: system memory */
    uint64_t offset;                        /* in the segment; for system memory, the page's address */
    uint64_t pfn;                           /* system memory: the page's frame (offset >> 12) */
    uint64_t bytes;
    uint32_t entries;                       /* entries walked: 2^index bits, or a sized root's count */
    uint64_t mirror;                        /* a paging-process table's own address there (the GPU_VIRTUAL
                                               mode's "system page table"), 0: none */
    uint32_t parent;                        /* the table one level up, 0 for a root */
    uint32_t parent_index;                  /* its entry there */
    uint32_t retired;                       /* an old root kept placed (move_root), made invalid
                                               when the driver asks ExplicitPageTableInvalidation */
};
struct va_space {
    int live;
    HANDLE kmd;                             /* DxgkDdiCreateProcess's hKmdProcess, or NULL */
    uint32_t root;                          /* its root table */
    struct wk_va_space *gpu;                /* the GPU's view: walks, TLB, flushes */
};
/* A range of an allocation mapped in a space: what the kit rewrites when
 * the allocation moves (gpuva_follow). */
#define GPUVA_MAX_MAPPINGS 256u
struct va_mapping {
    uint32_t live;
    uint32_t space;
    uint32_t allocation;                    /* the kit's handle */
    int read_only;
    uint64_t va, offset, bytes;             /* [va, va + bytes) maps [offset, offset + bytes) */
};
/* Pages to map: `segment`'s from `offset`, or (segment 0) the system
 * pages pfns[] lists. */
struct va_pages {
    uint32_t segment;
    uint64_t offset;
    const uint64_t *pfns;
};
/* The system paging process (paging_process.c): its space is
 * GPUVA_PAGING_SPACE once made. */
struct paging_process {
    int tried;                              /* made, or found impossible (why) until the next reset */
    char why[384];                          /* why there is none: a limit of the kit or of the adapter */
    uint64_t buffer_va, buffer_bytes;       /* the paging buffer, mapped where the GPU reaches it */
    uint64_t scratch, window;               /* the scratch area: [scratch, scratch + 2 window) */
    int kit_work;                           /* mapping the scratch area: cfg.max_passes does not bound it */
    int in_op;                              /* a TRANSFER_VIRTUAL or FILL_VIRTUAL is being built: its
                                               buffers run in the paging process (paging_flush) */
    uint32_t last_op;                       /* the last of them */
    uint64_t op_start_built;                /* paging_built when it began */
    int flush_has_op;                       /* the buffer being submitted holds commands of it */
    int gva_updates;                        /* ... or GPU_VIRTUAL page-table updates (gpuva.c) */
    uint64_t other_va;                      /* the paging buffer's second address (an aperture's) */
    int in_place;                           /* an operation's bytes mapped at their own address in the
                                               process (paging_run_in_place): a fault is the driver's;
                                               -1: given physical only, where the kernel gives a VA */
    uint64_t place_lo, place_hi;            /* ... those bytes' pages */
    uint64_t init_lo, init_hi;              /* GPU_VIRTUAL INIT_CONTEXT_RESOURCE being run: its physical
                                               SegmentAddress range (paging_process_physical_exempt) */
    uint64_t op_root;                       /* ... and the root its last buffer ran under */
    uint32_t idle_ops;                      /* ... of the current transfer or fill, those for which the
                                               GPU moved no byte (paging_process_hint) */
};
struct gpuva {
    struct va_table table[GPUVA_MAX_TABLES];
    struct va_space space[GPUVA_MAX_SPACES];
    struct va_mapping map[GPUVA_MAX_MAPPINGS];
    int cpu_updates;                        /* UPDATE_PAGE_TABLE by the CPU, no paging buffer (the
                                               paging process's set-up) */
    uint64_t table_events;                  /* tables placed or freed so far (gpuva_table_events) */
    int hold;                               /* updates held in the paging buffer for the next
                                               operation, judged after it ran (gpuva_hold) */
    uint32_t window_table;                  /* GPU_VIRTUAL: the table mapped in the paging process's
                                               scratch window for its update, at window_va */
    uint64_t window_va;
    struct held *held;                      /* ... those updates (gpuva.c), GPUVA_MAX_HELD */
    uint32_t nheld;
    struct paging_process pp;
};

struct wk_vidmm {
    uint32_t magic;
    struct wk_vidmm_config cfg;
    struct wk_gpu *gpu;
    struct wk_gpu_desc gpu_desc;
    char last_error[384];
    char space_refused[384];                /* why the kit could not make the last address space
                                               it was asked for (gpuva.c), "" when it could */
    char kit_refused[480];                  /* a callback the kit refused for a limit of its own
                                               (ctxalloc.c): a driver's failure after it is no verdict
                                               (wk_vidmm_take_kit_refusal); "" when none */
    /* The hardware binding (binding.h; binding.c): NULL, or cfg.binding,
     * which then built the memory system; bself is its per-adapter object. */
    const struct wk_binding *binding;
    void *bself;
    pthread_mutex_t bind_lock;              /* serialises calls into the binding object */
    pthread_t bind_holder;
    int bind_held;
    char bind_fault_text[240];              /* the first fault of the binding's processor since
                                               the last check, in its words (gpu_fault_check) */
    uint64_t binding_skipped[2];            /* semantic checks a binding left out: fences no
                                               interrupt reported (no register model), addresses
                                               it cannot decode (no read_address) */
    int irq_ignored;                        /* a binding's line stayed asserted after a violation:
                                               not delivered again until the GPU runs again */

    /* Driver */
    void *so;                               /* dlopen handle */
    uint64_t semantic_skipped;              /* checks cfg.no_model left out (semantic_check) */
    struct wk_vidmm_patch_slots patch_slots; /* binding.c, wk_vidmm_patch_slots: bytes 0 until asked */
    int skip_choice_rules;                  /* wk_vidmm_skip_choice_rules */
    int kit_fences_refused;                 /* wk_vidmm_allow_kit_fences(vm, 0) */
    uint64_t choice_skipped;                /* breaches of choice rules not recorded */
    DRIVER_OBJECT driver_object;
    /* The physical device object AddDevice gets and the driver keeps: on a
     * guarded buffer for the adapter's life (pdo_buf; pdo_fallback when
     * none can be had), as every struct the kit hands a driver (issue 22). */
    DEVICE_OBJECT *pdo;
    struct gbuf pdo_buf;
    DEVICE_OBJECT pdo_fallback;
    DRIVER_INITIALIZATION_DATA ddi;
    int have_ddi;
    int driver_shared;                      /* the table came from a DriverEntry other adapters
                                               share (driver_once.c): no DxgkDdiUnload here */
    char abi_error[256];                    /* set when DxgkInitialize came from another driver ABI */
    VOID *miniport;                         /* MiniportDeviceContext */
    DXGKRNL_INTERFACE kernel_iface;
    DXGK_DRIVERCAPS caps;
    int added;                              /* AddDevice gave a context: RemoveDevice owed */
    int started;
    int stopped;                            /* wk_vidmm_stop ran */
    int dead;                               /* a DDI crashed or hung */

    /* Segments */
    struct segment seg[MAX_SEGMENTS + 1];   /* 1-based */
    uint32_t seg_order[MAX_SEGMENTS];       /* placement step 3 tries these ids first, in this
                                               order (wk_vidmm_set_segment_order) */
    uint32_t seg_order_count;
    uint32_t nseg;
    uint32_t seg_top;           /* segments [1, seg_top] may hold a heap or a mapped_once map: the
                                   ones wk_vidmm_destroy frees (the rest of seg[] is never touched) */
    uint32_t paging_segment;                /* PagingBufferSegmentId as reported */
    uint32_t paging_seg;                    /* where the buffer's block is mapped (paging_place.c), */
    uint64_t paging_seg_offset;             /* 0: system memory */
    uint64_t paging_seg_pages;
    uint64_t *paging_pfns;                  /* the block's pages, and their MDL */
    MDL paging_mdl;
    uint32_t paging_buffer_size;
    uint32_t paging_private_size;

    /* System memory: a page heap over the PFN range */
    struct wk_place_heap *sys_heap;
    uint32_t *kit_run;           /* per system page: 1 + the index of the first page of
                                    the kit's own contiguous run holding it (DMA and
                                    paging buffers, the dummy page); 0: not the kit's */
    uint64_t dummy_pfn;
    uint64_t scatter_state;

    /* Objects: handle tables (handles.h) */
    struct handle_table devices;            /* struct device */
    struct handle_table contexts;           /* struct context */
    struct handle_table allocs;             /* struct allocation */
    struct handle_map alloc_by_driver;      /* live allocations by driver handle */
    uint32_t ctxalloc_head, ctxalloc_tail;  /* live context allocations, oldest first (handles) */

    /* Paging */
    struct gbuf paging;                     /* the current paging buffer */
    struct gbuf paging_view;                /* its block again, read-only: what Patch gets (patch_view.c) */
    uint64_t paging_used;                   /* bytes filled in it */
    uint64_t paging_built;                  /* bytes the driver's paging operations wrote, ever */
    uint64_t paging_flushed_at;             /* paging_built when the buffer was last submitted */
    uint64_t paging_private_used;
    struct gbuf paging_private;
    int paging_kept;                        /* allocated at start, kept across resets */
    uint32_t physical_paging_node;          /* DXGK_PHYSICALADAPTERCAPS.PagingNodeIndex, 0 when not
                                               asked or not answered (paging_node.c) */
    struct gpummu mmu;                      /* a GpuMmu driver's page tables (gpummu_caps.c) */
    struct gpuva *va;                       /* its address spaces (gpuva.c), NULL until one */
    HANDLE process_ended[GPUVA_MAX_SPACES]; /* released spaces whose DestroyProcess waits for
                                               their devices to go (gpuva_end_processes) */
    uint32_t nprocess_ended;

    /* The kernel's system device and context (system_context.c): outside
     * the handle tables, created at start and kept until stop */
    struct device sys_device;
    struct context sys_context;
    int system_setup;                       /* creating them: cfg.inject does not count (inject.c) */

    /* Fences and the software queue */
    uint32_t next_fence;
    uint32_t render_submits;        /* render and virtual submissions handed to the driver (arm_device_error) */
    int device_error_armed;         /* cfg.device_error_at's submission came */
    uint32_t inject_seen;           /* calls cfg.inject counted so far (inject.c) */
    uint32_t injected;              /* failures played: 0 or 1 */
    uint32_t unpatched;             /* render submissions with patch locations left unpatched:
                                       their context reported NoPatchingRequired (wk_vidmm_unpatched) */
    uint32_t unpatched_context;     /* the last such context */
    uint32_t last_completed;
    struct pending pending[MAX_PENDING];
    uint32_t npending;
    uint64_t buffers_run;                   /* submissions whatever executes them ran (submit_wait) */
    uint64_t bind_last_root;                /* the root a binding's registers ran the last one under */
    uint64_t submitv_root;                  /* the root of the virtual submission being judged, 0: none */
    uint32_t bind_faulted[64];              /* fences of the last submissions a binding's processor
                                               faulted on (a ring; page_fault.c) */
    uint32_t bind_faulted_count;
    uint32_t sync_depth;                    /* routines DxgkCbSynchronizeExecution is running */
    uint32_t ignored_interrupt;             /* the last DxgkCbNotifyInterrupt type the kit takes no
                                               fence from (12: a hardware queue's page fault) */
    uint32_t submitting_fence;              /* the fence a SubmitCommand(Virtual) call in progress hands the
                                               driver, 0 outside one (complete_fence) */
    struct {                                /* the virtual submission being watched (page_fault.c) */
        uint32_t fence;                     /* 0: none */
        DXGK_INTERRUPT_TYPE how;            /* the report that ended it; 0: none yet */
        uint32_t reports;                   /* DMA_PAGE_FAULTED reports while watched */
        DXGKARGCB_NOTIFY_INTERRUPT_DATA report; /* the first of them */
    } pfw;
    struct {                                /* which of the kit GPU's doorbells each fence's submission
                                               rang (page_fault.c): the driver's RING_TAG is its own */
        uint32_t fence;
        uint64_t seq;                       /* wk_gpu_doorbell_faulted's number; 0: none */
    } doorbell[64];
    uint32_t doorbells;                     /* noted so far (a ring of 64) */
    struct {                                /* the engine reset a page fault asks for (page_fault.c) */
        int pending;                        /* a page fault was reported: reset after the wait */
        uint32_t node, engine;
        int missing;                        /* one the kit could not do: the engine may stay stopped */
        int done;                           /* a reset the driver did */
        int adapter;                        /* ... the adapter-wide one (tdr.c) */
        int adapter_asked;                  /* the report said DXGK_PAGE_FAULT_ADAPTER_RESET_REQUIRED */
        char why[120];                      /* why no engine reset: missing, or the adapter's reset */
    } pf_reset;
    uint32_t hold;                          /* submissions still to hold */
    struct {                                /* render submissions let queue on the GPU (queue.c) */
        uint32_t left;                      /* still to queue before the GPU runs them */
        int each;                           /* an interrupt after each buffer, not one for a node's run */
        uint32_t count;                     /* queued and not yet run: drained by queue_drain */
        struct wk_gpu_counters before;      /* the GPU's counters before the first of them */
        int draining;                       /* submit_wait runs the GPU in the batch's steps */
    } queue;
    struct {                                /* fences a later report of their node completed with it
                                               (fence_reported: a report that names one then says so) */
        uint32_t fence, by;
    } implied[8];
    uint32_t implied_next;                  /* a ring */
    int dpc_requested;
    uint64_t km_serial;                     /* km_services.c: 0 when not counted */
    struct km_pool_tag km_pool[KM_POOL_TAGS];
    struct km_pool_tag km_pool_other;       /* tags past KM_POOL_TAGS */
    struct km_dpc kdpc[KM_DPC_QUEUE];       /* KeInsertQueueDpc, in order */
    uint32_t nkdpc;
    uint64_t km_threads, km_entry_threads;  /* system threads running: of DDIs, of DriverEntry */
    struct km_mem_slot km_mem[KM_MEM_ALL_SLOTS]; /* live I/O space mappings and contiguous blocks */
    char km_failure[512];                   /* the km.h line that ended a call */
    unsigned char (*set_irql)(unsigned char); /* a loaded module's wk_km_set_irql, or NULL */
    struct wk_vidmm_registry registry;      /* cfg.registry, copied */
    uint8_t pci_config[WK_VIDMM_PCI_CONFIG_SIZE]; /* cfg.pci_config, copied (callbacks.c) */
    struct bar_table bars;                  /* bars.c */

    /* Checks */
    wk_vidmm_rewrite_fn *rewrite;
    void *rewrite_user;
    struct wk_violation violations[MAX_VIOLATIONS_KEPT];
    uint64_t violation_total;
    uint64_t rule_hits[WK_RULE_COUNT];
    struct wk_vidmm_stats stats;
    struct wk_vidmm_stats stats_at_start; /* what the start counted (its DDI calls): a reset goes back to it */
    uint64_t ddi_serial;                    /* DDI frames entered since create: never reset (DDI_FRAME_) */
    enum wk_ddi last_ddi;                   /* the last DDI called (call.c): what a late report names */
    struct dma_quarantine dmaq;             /* destroyed contexts' DMA buffers (dma_quarantine.c) */
    struct aperture_view_ended views_ended[APERTURE_VIEWS_ENDED]; /* the latest CpuVisibleAddress ranges ended */
    uint32_t views_ended_next;
    struct allocation *view_ending; /* its CpuVisibleAddress ends when the UNMAP's last call returns (paging.c) */
    uint64_t placement_epoch;               /* placements made or undone since create: never reset
                                               (lru_add, lru_remove; wk_vidmm_placement_epoch) */
    struct gbuf *gbufs[MAX_GBUFS];          /* live guarded buffers, for fault reports */
    uint32_t gbuf_hint;                     /* every slot below it is taken (guard.c) */
    struct gbuf_pool spares;        /* guarded mappings to reuse (guard.c) */
    uint8_t *scratch;                       /* gbuf_scratch_take's buffer */
    uint64_t scratch_size;
    int scratch_busy;
    uint8_t *before;                        /* a transfer's source as it was (paging_ops.c) */
    uint64_t before_size;
};

/* invariants.c ----------------------------------------------------------- */

/* Debug builds: re-check the manager's own state, abort on a kit bug. */
void vidmm_check_invariants(struct wk_vidmm *vm);

/* The last statement of every public operation. */
#define RETURN_CHECKED(vm, expr)             \
    do {                                     \
        wk_status checked_st_ = (expr);      \
        vidmm_check_invariants(vm);          \
        return checked_st_;                  \
    } while (0)

/* rules.c ---------------------------------------------------------------- */

/* Records a violation of `rule` and returns WK_E_CONTRACT. */
wk_status violate(struct wk_vidmm *vm, enum wk_rule_id rule, enum wk_ddi ddi, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Records an error that is not a rule (bad caller input, resources). */
wk_status fail(struct wk_vidmm *vm, wk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *rule_id(enum wk_rule_id rule);

/* context_caps.c --------------------------------------------------------- */

/* DXGK_CONTEXTINFO.Caps as the kit reads it: the driver's answer when its
 * interface version has the field (wk_dxgk_has_context_caps), else 0. */
uint32_t context_caps_read(const struct wk_vidmm *vm, const DXGK_CONTEXTINFO *info);
/* Whether VidMm patches context c's DMA buffers: not when c reported
 * Caps.NoPatchingRequired. */
int context_patched(const struct context *c);
/* WK_OK, or WK_E_NOT_SUPPORTED with the reason, when the kit cannot judge a
 * render on context `id`: a cap it does not model (DriverManagesResidency,
 * UseIoMmu), or a context VidMm must patch on a driver without Patch. */
wk_status context_render_judgeable(struct wk_vidmm *vm, const struct context *c, uint32_t id);
/* WK_OK, or WK_E_NOT_SUPPORTED with the reason, for a direct Patch call on
 * context `id` (wk_vidmm_patch): none for a context that reported
 * NoPatchingRequired, nor for a driver without Patch. */
wk_status context_patch_callable(struct wk_vidmm *vm, const struct context *c, uint32_t id);
/* What SUBMIT-GPU-001 calls a render piece of context `id` that faulted:
 * who built it and who patched it, or why nobody did. */
const char *context_dma_origin(const struct wk_vidmm *vm, uint32_t id, char *buf, size_t cap);
/* DDI-TABLE-001 for DxgkDdiPatch, once the adapter started, when the table
 * leaves it to the contexts (wk_dxgk_patch_left_to_contexts): asks a
 * context of a new device whether it reports NoPatchingRequired. */
void context_caps_check_patch(struct wk_vidmm *vm);

/* adapter.c -------------------------------------------------------------- */

/* dlopen a driver module into vm->so, hand its km.h the kit's services,
 * and find its DriverEntry (*entry); WK_E_IO with the loader's reason. */
wk_status vidmm_open_module(struct wk_vidmm *vm, const char *path, DRIVER_INITIALIZE **entry);
/* The km.h services of a DriverEntry linked into this program. */
void vidmm_link_in_process(struct wk_vidmm *vm);
/* Calls DriverEntry with `object` as its DRIVER_OBJECT (the adapter's own,
 * or one that outlives it: driver_once.c) and checks that it handed vm a
 * DDI table through DxgkInitialize. */
wk_status vidmm_enter(struct wk_vidmm *vm, DRIVER_INITIALIZE *entry, DRIVER_OBJECT *object);

/* call.c ----------------------------------------------------------------- */

/*
 * Every call into the driver goes through DDI_CALL: it arms the hang timer,
 * catches a crash (any fatal signal, including a guard-page hit) and turns
 * it into a violation and marks the adapter dead. The statements (the DDI
 * call, then ddi_rewrite of its answer) run inside the frame, so an answer
 * rewrite that crashes, hangs or writes past a guard page is caught exactly
 * like the driver doing it on its way back.
 */
struct ddi_frame {
    sigjmp_buf env;
    struct wk_vidmm *vm;
    enum wk_ddi ddi;
    volatile int signo;
    void *volatile fault_addr;
    volatile int fault_access;      /* FAULT_READ, FAULT_WRITE or FAULT_UNKNOWN (call.c) */
    volatile int fault_has_addr;    /* 1: fault_addr is where the CPU faulted (call.c) */
    volatile int fault_on_stack;    /* 1: it faulted next to its stack pointer (call.c) */
    int timed;                      /* it armed the hang timer (outermost frames, call.c) */
    const char *binding_op;         /* non-NULL: a call into the hardware binding's code
                                       ("processor.exec"), not the driver's (BIND_CALL) */
    struct ddi_frame *outer;
};

/* count: 1 for a call into the driver, 0 for the kit's guarded read of
 * driver memory (not a DDI call, not counted in the stats). */
int ddi_enter(struct wk_vidmm *vm, enum wk_ddi ddi, struct ddi_frame *f, int count);
void ddi_leave(struct ddi_frame *f);
wk_status ddi_crashed(struct ddi_frame *f);
void ddi_rewrite(struct wk_vidmm *vm, enum wk_ddi ddi, void *args, NTSTATUS *status);

/* The floor (vidmm.h, floor.c): with WK_FLOOR_TIMING, the time of each
 * outermost DDI call (count 1: not the kit's own guarded reads) and GPU run
 * is summed; without it these are nothing. A driver that crashes ends its
 * interval on the way out through the frame. */
enum floor_kind { FLOOR_DRIVER, FLOOR_GPU };
#ifdef WK_FLOOR_TIMING
void floor_begin(void);
void floor_end(enum floor_kind kind);
void floor_unwind(void); /* a crash jumped out of every interval inside the frame */
/* A kernel callback or kernel-mode service the driver calls inside a DDI is
 * the kit's work (the kernel's), not the driver's: FLOOR_CALLBACK() at its
 * top takes its time out of the interval, until it returns. Register
 * accesses are not paused: they are the hardware's. */
struct floor_pause {
    uint64_t at, serial;
    int on;
};
struct floor_pause floor_pause_begin(void);
void floor_pause_end(struct floor_pause *p);
#define FLOOR_CALLBACK() \
    struct floor_pause floor_pause_ __attribute__((cleanup(floor_pause_end), unused)) = floor_pause_begin()
#define FLOOR_BEGIN(on)                                             \
    do {                                                            \
        if (on)                                                     \
            floor_begin();                                          \
    } while (0)
#define FLOOR_END(on, kind)                                         \
    do {                                                            \
        if (on)                                                     \
            floor_end(kind);                                        \
    } while (0)
#define FLOOR_UNWIND(on)                                            \
    do {                                                            \
        if (on)                                                     \
            floor_unwind();                                         \
    } while (0)
#else
#define FLOOR_BEGIN(on) ((void)0)
#define FLOOR_END(on, kind) ((void)0)
#define FLOOR_UNWIND(on) ((void)0)
#define FLOOR_CALLBACK() ((void)0)
#endif

/* sigsetjmp(env, 0): saving the signal mask costs a sigprocmask system call
 * per DDI call, and there is nothing to restore. The handlers run with
 * SA_NODEFER and an empty sa_mask, so jumping out of one leaves the mask
 * as it was at the call, and ddi_crashed unblocks the caught signal anyway:
 * the next crash or hang is caught like the first (test
 * test_repeated_crashes_are_caught). */
#define DDI_FRAME_(vm, ddi_id, crashed_st, count, ...)              \
    do {                                                            \
        struct ddi_frame ddi_f_;                                    \
        (crashed_st) = WK_OK;                                       \
        (vm)->ddi_serial++;                                         \
        if (ddi_enter((vm), (ddi_id), &ddi_f_, (count)) != 0) {     \
            (crashed_st) = WK_E_DEAD;                               \
        } else if (sigsetjmp(ddi_f_.env, 0) == 0) {                 \
            FLOOR_BEGIN(count);                                     \
            __VA_ARGS__;                                            \
            FLOOR_END(count, FLOOR_DRIVER);                         \
            ddi_leave(&ddi_f_);                                     \
        } else {                                                    \
            FLOOR_UNWIND(count);                                    \
            (crashed_st) = ddi_crashed(&ddi_f_);                    \
        }                                                           \
    } while (0)

#define DDI_CALL(vm, ddi_id, crashed_st, ...) DDI_FRAME_(vm, ddi_id, crashed_st, 1, __VA_ARGS__)
/* A call into the hardware binding's code (binding.c): caught like a DDI
 * call, reported as the binding's (BIND-CRASH-001, BIND-HANG-001), never the
 * driver's; inside a DDI call (a register write from SubmitCommand) the
 * driver's call is unwound too, unblamed. crashed_st: WK_OK or WK_E_BINDING. */
int bind_enter(struct wk_vidmm *vm, const char *op, struct ddi_frame *f, int timed);
#define BIND_CALL_(vm, op, timed, crashed_st, ...)                  \
    do {                                                            \
        struct ddi_frame bind_f_;                                   \
        (crashed_st) = WK_OK;                                       \
        if (bind_enter((vm), (op), &bind_f_, (timed)) != 0) {       \
            (crashed_st) = WK_E_DEAD;                               \
        } else if (sigsetjmp(bind_f_.env, 0) == 0) {                \
            __VA_ARGS__;                                            \
            ddi_leave(&bind_f_);                                    \
        } else {                                                    \
            (crashed_st) = ddi_crashed(&bind_f_);                   \
        }                                                           \
    } while (0)
#define BIND_CALL(vm, op, crashed_st, ...) BIND_CALL_(vm, op, 1, crashed_st, __VA_ARGS__)
/* A register access: inside a DDI call its timer covers it; on a driver's
 * own thread nothing times it (the run's total timeout does). */
#define BIND_REGISTER_CALL(vm, op, crashed_st, ...) BIND_CALL_(vm, op, 0, crashed_st, __VA_ARGS__)
/* The kit reading memory the driver pointed it at (a bank table, a blob). */
#define DDI_GUARD(vm, ddi_id, crashed_st, ...) DDI_FRAME_(vm, ddi_id, crashed_st, 0, __VA_ARGS__)
/* The copy to make inside DDI_GUARD: n bytes from where the driver says,
 * on its word. The driver may claim more than it has (NbOfBanks past its
 * bank table): an unmapped byte faults and DDI_GUARD reports the driver,
 * a mapped one is read as it is, even in an ASan build, which would
 * otherwise abort in the kit on the driver's lie (call.c). */
void guarded_copy(void *dst, const void *src, size_t n);

void call_install_handlers(void);
/* The DDI the frame active on this thread calls (WK_DDI_NONE: none). */
enum wk_ddi call_current_ddi(void);
/* km.h's Fail: ends the active frame as a violation of the rule `line`
 * names (km_rule_of_line); returns only when no frame is active. */
void call_end_with_km_failure(const char *line);

/* crash_slot.c: the calling thread is a system thread the kit started for
 * the driver, running `routine`, created during `created_in` (WK_DDI_NONE:
 * outside any DDI); and, in the signal handler of a thread of the
 * driver's, that thread's death noted in the slot (async-signal-safe:
 * stores only). */
void crash_slot_mark_system_thread(void (*routine)(void *), enum wk_ddi created_in);
void crash_slot_note_thread(volatile struct wk_vidmm_crash_slot *slot, int signo, const siginfo_t *info,
                            int has_addr);

/* km_services.c ---------------------------------------------------------- */

/* The IRQLs Windows calls DDIs at above PASSIVE_LEVEL (facts §5.3 T9:
 * SubmitCommand at DISPATCH_LEVEL; the interrupt routine at the device's
 * IRQL, the DPC routine at DISPATCH_LEVEL). */
#define KM_DISPATCH_LEVEL 2
#define KM_DEVICE_IRQL 5
/* Sets the module's modelled IRQL on this thread for a DDI call (no-op for
 * a driver linked into the program); returns the old one for km_irql_leave. */
unsigned char km_irql_enter(struct wk_vidmm *vm, unsigned char irql);
void km_irql_leave(struct wk_vidmm *vm, unsigned char old);

extern const WK_KM_SERVICES wk_km_services_of_kit;
void km_register(struct wk_vidmm *vm);
void km_unregister(struct wk_vidmm *vm);
/* The live adapter with this km_serial, or NULL (a thread of the driver's
 * own names its adapter by serial: the adapter may be gone). */
struct wk_vidmm *km_live_adapter(uint64_t serial);
enum wk_rule_id km_rule_of_line(const char *line);
/* POOL-LEAK-001 for every tag with blocks left; DriverEntry's count only
 * when the driver was unloaded (DxgkDdiUnload). */
void km_check_pool_leaks(struct wk_vidmm *vm, int unloaded);
/* THREAD-LEAK-001: waits up to a second for the system threads the driver
 * created to end, then reports those still running. */
void km_check_thread_leaks(struct wk_vidmm *vm, int unloaded);
/* MEM-LEAK-001 for every kind, DDI and size with I/O space mappings or
 * contiguous blocks still live; DriverEntry's only when the driver was
 * unloaded (DxgkDdiUnload). */
void km_check_memory_leaks(struct wk_vidmm *vm, int unloaded);
/* The adapter's DPC point for KDPC objects: runs the queued ones. */
wk_status km_run_queued_dpcs(struct wk_vidmm *vm);

/* bars.c ------------------------------------------------------------------ */

/* The BARs of the device and the register model behind its WK_BAR_REGISTERS
 * ones (regs may be NULL: nothing answers); at most WK_BINDING_MAX_BARS are
 * kept. Called by the binding loader; without it bars_of gives the kit's
 * own, as cfg.no_model says at the time. */
void bars_attach(struct wk_vidmm *vm, const struct wk_binding_bar *bars, uint32_t count,
                 const struct wk_registers_ops *regs, void *self);
const struct bar_table *bars_of(struct wk_vidmm *vm);
/* The CM_RESOURCE_LIST of the BARs (facts 5.10 M1-M3), written afresh. */
CM_RESOURCE_LIST *bars_resource_list(struct wk_vidmm *vm);
/* The register BAR holding all of [physical, physical + bytes): 1 and *bar. */
int bars_find_registers(struct wk_vidmm *vm, uint64_t physical, uint64_t bytes, uint32_t *bar);
/* The segment BAR where [physical, physical + bytes) starts: 1 and *bar
 * when all of it lies in the BAR and in the segment behind it, 2 (and
 * *bar) when it runs past either, 0 when it starts in none. */
int bars_find_segment(struct wk_vidmm *vm, uint64_t physical, uint64_t bytes, uint32_t *bar);
/* wk_gpu_options.mappable_segments for a binding: the segments its BARs
 * show to the CPU (0 without a binding). */
uint32_t bars_cpu_view_segments(const struct wk_binding *b);
/* The one way into a register model (a binding's calls are guarded here):
 * offset in bytes from the BAR's start, 4-aligned. A read past the BAR or
 * with no model gives all ones (no device decodes it); such a write is
 * dropped. */
uint32_t bars_read32(struct wk_vidmm *vm, uint32_t bar, uint64_t offset);
void bars_write32(struct wk_vidmm *vm, uint32_t bar, uint64_t offset, uint32_t value);

/* regwin.c: register windows (kmservices.h MapIoSpace, UnmapIoSpace,
 * RegisterRead, RegisterWrite), and what a fault in one means. */
int regwin_map(uint64_t physical, size_t bytes, void **va);
void regwin_unmap(void *va, size_t bytes);
int regwin_read(const volatile void *reg, uint32_t width, uint64_t *value);
int regwin_write(volatile void *reg, uint32_t width, uint64_t value);
/* "read the register window of BAR0 at +0x30 without READ_REGISTER_ULONG"
 * for a fault at addr in a window of vm's (write: 0 a read, 1 a write, 2
 * not known); NULL when addr is in none. */
const char *regwin_describe_fault(struct wk_vidmm *vm, const void *addr, int write, char *buf, size_t size);
/* The adapter is going: its windows are unmapped and forgotten. */
void regwin_forget(struct wk_vidmm *vm);

/* contiguous.c: contiguous memory of the system pool (kmservices.h
 * AllocateContiguous, FreeContiguous). */
int contiguous_alloc(size_t bytes, uint64_t lowest, uint64_t highest, uint64_t boundary, void **va,
                     uint64_t *physical);
void contiguous_free(void *va);
void contiguous_forget(struct wk_vidmm *vm);

/* guard.c ---------------------------------------------------------------- */

/* A CPU buffer of `size` zero bytes against a guard page, the slack before it
 * a canary. Reuses a spare mapping of the same page-rounded size when there
 * is one (its own, else one a stopped adapter left: no system call); freeing
 * keeps the mapping as a spare. The spares and the scratch buffer outlive
 * wk_vidmm_reset; wk_vidmm_stop (and so wk_vidmm_destroy) hands the spares
 * to the process-wide pool and frees the scratch buffer:
 * gbuf_release_spares. */
wk_status gbuf_alloc(struct wk_vidmm *vm, struct gbuf *b, uint64_t size, const char *what);
/* A buffer the DDI gets as const (DXGKARG_PATCH's lists, DXGKARG_RENDER's
 * pCommand: facts §4.3, §4.4), holding a copy of content[0, size):
 * the driver's view of its pages is read-only, so a write anywhere in them
 * faults at the instruction (MEM-GUARD-001), and a guard page follows it.
 * Nothing to check after the call. Falls back to gbuf_alloc and a copy
 * (canary-checked) when the views cannot be made. guard_input.c. */
wk_status gbuf_alloc_input(struct wk_vidmm *vm, struct gbuf *b, const void *content, uint64_t size,
                           const char *what);
/* guard_input.c's part of gbuf_free: the views go to the process's pool of
 * spare inputs, which every adapter shares and outlives them. */
void gbuf_input_release(struct wk_vidmm *vm, struct gbuf *b);
/* A fault at addr in a kept (freed) input: a pointer kept past its call. */
const char *gbuf_input_describe_spare(const void *addr, char *buf, size_t size);
/* The spare of exactly map_len bytes kept last in the pool, taken out (map
 * NULL: none). The last one: its bytes are the likeliest to be in the
 * cache, and its canary the likeliest to be known (no DDI call since: a
 * harness frees and takes one buffer per input). guard.c. */
struct gbuf_spare gbuf_spare_take(struct gbuf_pool *pool, uint64_t map_len);
/* Keeps a spare; 0 when the pool has no room for it (GBUF_SPARES,
 * GBUF_SPARE_MAX, GBUF_SPARE_BYTES): the caller unmaps it. */
int gbuf_spare_put(struct gbuf_pool *pool, const struct gbuf_spare *s);
/* Empties the pool (the caller has unmapped its spares). */
void gbuf_pool_clear(struct gbuf_pool *pool);
/* The live-buffer registry that fault reports read (guard.c). */
void gbuf_register(struct wk_vidmm *vm, struct gbuf *b);
void gbuf_unregister(struct wk_vidmm *vm, struct gbuf *b);
/* The canary byte written before CPU buffers (guard.c). */
#define GBUF_CANARY 0xA5u
/* A GPU-visible buffer: contiguous system pages, page aligned start. */
wk_status gbuf_alloc_gpu(struct wk_vidmm *vm, struct gbuf *b, uint64_t size, const char *what);
/* The same at the end of a block of at least `reserve` pages (just the
 * buffer's pages when it needs more), so that it can change size in place
 * (gbuf_resize_gpu), placed from the top of the kit's half of system
 * memory (SYSMEM_RUN_HIGH, sysmem.c): the paging buffer's. */
wk_status gbuf_alloc_gpu_in(struct wk_vidmm *vm, struct gbuf *b, uint64_t size, uint64_t reserve,
                            const char *what);
/* Makes a GPU-visible buffer `size` bytes long in its own block, without a
 * system call: the last pages of the block, zero, new canaries; 0 when the
 * block is too small (the caller frees it and allocates another). */
int gbuf_resize_gpu(struct gbuf *b, uint64_t size);
/* Writes a GPU-visible buffer's canaries again (a GPU reset zeroed them). */
void gbuf_rewrite_canaries(struct gbuf *b);
void gbuf_free(struct wk_vidmm *vm, struct gbuf *b);
/* gbuf_check right after a DDI call, then gbuf_free: a CPU buffer whose
 * canary is intact gives a spare that the next user need not write the
 * canary into again, only where this buffer was. */
wk_status gbuf_check_free(struct wk_vidmm *vm, struct gbuf *b, enum wk_ddi ddi);
/* Checks the canary after a DDI; 0 or a violation (MEM-GUARD-001). */
wk_status gbuf_check(struct wk_vidmm *vm, const struct gbuf *b, enum wk_ddi ddi);
/* What the driver did when it faulted at addr in a guarded buffer (a guard
 * page, an input's read-only page, the read-only tail of a Patch view), for
 * the report, and the rule it broke; NULL when in none. */
enum fault_access { FAULT_UNKNOWN, FAULT_READ, FAULT_WRITE };
const char *gbuf_describe_fault(struct wk_vidmm *vm, const void *addr, enum fault_access access, char *buf,
                                size_t size, enum wk_rule_id *rule);
/* The offset of the first byte of p[0, n) that is not `value`, n when all
 * are: one read of the run (the post-call checks' scan, guard.c). */
uint64_t gbuf_first_not(const uint8_t *p, uint64_t n, uint8_t value);

/* dma_quarantine.c -------------------------------------------------------- */

/* Takes a destroyed context's DMA buffer (b is emptied): poisoned, held out
 * of the pool, judged when it leaves (MEM-STALE-001). */
void dmaq_put(struct wk_vidmm *vm, struct gbuf *b, uint32_t context);
/* Every block out, oldest first: its poison checked when judge (and the
 * adapter alive), its mapping retired, its frames back in the pool.
 * Whether there was any. */
int dmaq_drain(struct wk_vidmm *vm, int judge);
/* After a device is destroyed: drains, judged, when it was the last one. */
void dmaq_device_gone(struct wk_vidmm *vm);
/* Unmaps the spare mappings and frees the scratch buffer. */
void gbuf_release_spares(struct wk_vidmm *vm);
/* Parks `count` guarded mappings of map_len bytes (data pages, then the
 * guard page) in the process-wide pool, made with one mmap and an mprotect
 * per guard, untouched: wk_vidmm_prepare_process. */
void gbuf_park_ahead(uint64_t map_len, uint32_t count);
/* At least `size` bytes for the kit's own copy of a guarded buffer (the
 * Patch check's snapshot): the adapter's scratch buffer, kept between calls,
 * or a heap block when it is in use (a driver callback inside Patch can page
 * in, and paging runs a Patch check of its own). NULL when out of memory.
 * Only while the guarded buffer being copied is alive; give it back with
 * gbuf_scratch_put. */
uint8_t *gbuf_scratch_take(struct wk_vidmm *vm, uint64_t size);
void gbuf_scratch_put(struct wk_vidmm *vm, uint8_t *p);

/* guard_args.c ------------------------------------------------------------ */

/* A struct or array a DDI gets by pointer (its argument struct, an output
 * buffer, a list), on a guarded buffer named `what` (the type and the
 * argument: the fault report's words): ends at a guard page, canary
 * before. The kit keeps its own copy at `kit`. */
struct garg {
    struct gbuf b;
    void *kit;
    uint64_t size;
};
/* query_adapter.c: one DxgkDdiQueryAdapterInfo call of `type`, its
 * argument, input (none when in_size is 0: pInputData NULL) and output on
 * guarded buffers, copied back to in and out after it. The driver's status
 * in *status; the call's own result: a crash, or MEM-GUARD-001 of the
 * checks after it. */
wk_status query_adapter_info(struct wk_vidmm *vm, DXGK_QUERYADAPTERINFOTYPE type, void *in, UINT in_size,
                             const char *in_name, void *out, UINT out_size, const char *out_name, NTSTATUS *status);
/* What to hand the driver: a guarded copy of kit[0, size), or kit itself
 * when none can be made (unguarded, as before). Before the DDI call. */
void *garg_in(struct wk_vidmm *vm, struct garg *g, void *kit, uint64_t size, const char *what);
/* After the DDI call (crashed: its DDI_CALL status): copies the driver's
 * bytes back to the kit's copy (unless g->kit was set NULL) and checks the canary (MEM-GUARD-001),
 * unless it crashed; frees the buffer either way. */
wk_status garg_out(struct wk_vidmm *vm, struct garg *g, enum wk_ddi ddi, wk_status crashed);

/* adapter / segments ------------------------------------------------------ */

wk_status segments_query(struct wk_vidmm *vm);
struct segment *segment_get(struct wk_vidmm *vm, uint32_t id);
uint32_t aperture_mask(const struct wk_vidmm *vm);
uint32_t adapter_nodes(const struct wk_vidmm *vm);
/* objects.c: the node paging runs on (the system context's, every paging
 * submission's): 0 unless a MultiEngineAware driver of several nodes names
 * another it reported. */
uint32_t adapter_paging_node(const struct wk_vidmm *vm);
/* paging_node.c: whether the driver is WDDM 2.x (caps, else interface
 * version), and the PHYSICALADAPTERCAPS query at start
 * (vm->physical_paging_node). */
int adapter_wddm2(const struct wk_vidmm *vm);
wk_status paging_node_query(struct wk_vidmm *vm);
/* gpummu_caps.c: a GpuMmu driver's caps and levels, asked after the
 * segments, checked (GPUMMU-*) and kept in vm->mmu. */
wk_status gpummu_query(struct wk_vidmm *vm);
/* gpuva.c: every address space goes, its tables with it; DestroyProcess
 * for each when tell_driver (a reset, a stop: not after a crash).
 * gpuva_release_processes: all but the system paging process's, which
 * stays while the kit still asks paging operations (the kernel's lives as
 * long as the adapter: a driver may run every paging buffer in it). */
void gpuva_release_processes(struct wk_vidmm *vm, int tell_driver);
void gpuva_release(struct wk_vidmm *vm, int tell_driver);
/* For the paging process (paging_process.c): the state (made on first
 * use), a space made in slot `id`, pages mapped and unmapped with no
 * mapping record, leaf tables placed ahead, and the VA one leaf covers. */
struct gpuva *va_state(struct wk_vidmm *vm);
wk_status gpuva_space_make(struct wk_vidmm *vm, uint32_t id);
wk_status gpuva_map_pages(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes,
                          const struct va_pages *pages, const struct allocation *a, uint64_t offset);
wk_status gpuva_unmap_pages(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes);
wk_status gpuva_place_leaves(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes);
/* Which tables are live, and, after a mapping made for one operation was
 * undone, those of `space` placed since then unlinked and freed: the
 * adapter's room as before the mapping (paging_run_in_place). */
void gpuva_tables_live(const struct wk_vidmm *vm, uint8_t live[GPUVA_MAX_TABLES]);
wk_status gpuva_tables_drop_new(struct wk_vidmm *vm, uint32_t space, const uint8_t was_live[GPUVA_MAX_TABLES]);
uint64_t gpuva_leaf_span(const struct wk_vidmm *vm);
void gpuva_paging_release(struct wk_vidmm *vm);
/* Tables placed or freed so far: memory that changed under an operation
 * for the kit's own mapping when it moved (its neighbours are not the
 * driver's to answer for then). */
uint64_t gpuva_table_events(const struct wk_vidmm *vm);
/* Whether [addr, addr + len) touches a page table the kit placed. */
int gpuva_table_overlaps(const struct wk_vidmm *vm, uint64_t addr, uint64_t len);
/* gpuva.c: the hint of a GPU page fault at `va` in the space of `root`
 * that the kit's walk translates, where the root is sized: 1 and out. */
int gpuva_root_end_hint(struct wk_vidmm *vm, uint64_t root, uint64_t va, char *out, size_t size);
/* gpuva.c, for the paging process in the GPU_VIRTUAL mode: its scratch
 * area's leaf tables [va, va + bytes) mapped from `at` on, each table at
 * its own address in the process (the "system page table" that mirrors
 * them). */
wk_status gpuva_mirror_tables(struct wk_vidmm *vm, uint64_t va, uint64_t bytes, uint64_t at);
/* paging_process.c: a table of another process (its pages, `bytes`)
 * mapped in the paging process's second scratch window for a GPU_VIRTUAL
 * update, the map held for that update: its address there in *va. Then
 * paging_table_window_done(vm, bytes, st): the buffer runs, both are
 * judged, the window unmapped. */
/* An operation whose address names bytes of a memory segment as the GPU
 * reaches them physically (SIGNAL_MONITORED_FENCE, INIT_CONTEXT_RESOURCE
 * outside GPU_VIRTUAL), run with those bytes mapped at the same address in
 * the paging process, when it is made and the address is free there. */
wk_status paging_run_in_place(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *args, uint64_t addr, uint64_t bytes);
wk_status paging_table_window(struct wk_vidmm *vm, const struct va_pages *pages, uint64_t bytes, uint64_t *va);
wk_status paging_table_window_done(struct wk_vidmm *vm, uint64_t bytes, wk_status st);
/* root_size.c: a two-level tree's root, sized by the driver
 * (GPUMMU-ROOTSIZE-001). gpuva_root_size_present: whether it has the DDI
 * (a violation when not); gpuva_root_size: its answer for `asked` entries
 * of `entry_bytes` each in `segment`, judged. */
int gpuva_root_size_present(struct wk_vidmm *vm);
wk_status gpuva_root_size(struct wk_vidmm *vm, uint32_t segment, uint32_t asked, uint32_t entry_bytes,
                          uint64_t *bytes, uint32_t *entries);
/* gpuva_context.c: DxgkDdiSetRootPageTable of context `c` with space's root. */
wk_status gpuva_set_root(struct wk_vidmm *vm, struct context *c, uint32_t space);
/* gpuva_hold(vm, 1): the page-table updates that follow stay in the paging
 * buffer for the operation after them (gpuva_hold(vm, 0) before it), and
 * gpuva_held_checks judges them once that buffer ran (judge 0: drops
 * them, the operation having failed). */
void gpuva_hold(struct wk_vidmm *vm, int on);
wk_status gpuva_held_checks(struct wk_vidmm *vm, int judge);
void gpuva_end_processes(struct wk_vidmm *vm, int tell_driver);
/* The allocation moved (paged in, evicted, relocated, discarded): every
 * range of it mapped in a space is written again where it is now, or
 * invalid when it has no pages (UPDATE_PAGE_TABLE), then flushed
 * (FLUSH_TLB). gpuva_forget: it is going; its ranges are made invalid,
 * flushed and forgotten. WK_OK at once when it is mapped nowhere. */
wk_status gpuva_follow(struct wk_vidmm *vm, struct allocation *a);
/* gpuva.c: a space's process and root table (0 or NULL for no such space);
 * *gpu_address is the root's GPU physical address. */
int gpuva_space_live(struct wk_vidmm *vm, uint32_t space);
/* Why the adapter has no address spaces at all, NULL when it may. */
const char *gpuva_why_none(const struct wk_vidmm *vm);
/* The GPU's view of a space (NULL for none), and the space whose root
 * table is at GPU physical address `root` (0 for none). */
struct wk_va_space *gpuva_space_gpu(struct wk_vidmm *vm, uint32_t space);
uint32_t gpuva_space_by_root(struct wk_vidmm *vm, uint64_t root);
HANDLE gpuva_space_process(struct wk_vidmm *vm, uint32_t space);
int gpuva_space_root(struct wk_vidmm *vm, uint32_t space, D3DGPU_PHYSICAL_ADDRESS *at, uint32_t *entries,
                     uint64_t *gpu_address);
/* gpuva_context.c: a virtual context (DXGK_CREATECONTEXTFLAGS
 * VirtualAddressing) needs a device of a process and a driver that runs
 * them (creatable: WK_E_NOT_SUPPORTED with the reason otherwise); once
 * made, and whenever its process's root table moves, it is told where the
 * root is (DxgkDdiSetRootPageTable). Devices of a space: how many are live. */
/* gpuva.c: the lowest free range of `bytes` in [lo, hi) of a space (hi 0:
 * no limit), 0 for none; whether [va, va + bytes) is free
 * (DxgkCbMapContextAllocation, ctxalloc.c). */
uint64_t gpuva_free_range(struct wk_vidmm *vm, uint32_t space, uint64_t bytes, uint64_t lo, uint64_t hi);
int gpuva_range_free(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes);
wk_status gpuva_context_creatable(struct wk_vidmm *vm, uint32_t device, uint32_t flags);
wk_status gpuva_context_created(struct wk_vidmm *vm, uint32_t context);
wk_status gpuva_root_moved(struct wk_vidmm *vm, uint32_t space);
uint32_t gpuva_space_devices(struct wk_vidmm *vm, uint32_t space);
wk_status gpuva_forget(struct wk_vidmm *vm, struct allocation *a);

/* system_context.c -------------------------------------------------------- */

/* At start, after the queries: the system device and context (a failure
 * fails the start, saying why); at stop, before StopDevice, their end. */
wk_status system_context_create(struct wk_vidmm *vm);
void system_context_destroy(struct wk_vidmm *vm);
/* BuildPagingBuffer's hSystemContext: the driver's handle of the system
 * context, NULL when there is none. */
HANDLE system_context_driver_handle(const struct wk_vidmm *vm);
/* Whether a runtime handle the driver passed back names the system device
 * or the system context. */
int system_device_runtime(HANDLE h);
int system_context_runtime(HANDLE h);
uint32_t segment_mask(const struct wk_vidmm *vm);

/* callbacks.c ------------------------------------------------------------- */

void callbacks_fill(struct wk_vidmm *vm, DXGKRNL_INTERFACE *iface);
void callbacks_fill_unmodelled(DXGKRNL_INTERFACE *iface);
/* The adapter whose DDI is running on this thread, NULL outside one (call.c). */
struct wk_vidmm *call_current_vm(void);
struct wk_vidmm *callbacks_vm(HANDLE hAdapter);
/* inject.c: whether the call now being made (a pool allocation, a
 * DxgkCbCreateContextAllocation) is the one cfg.inject fails; counts it. */
int inject_fails(struct wk_vidmm *vm, enum wk_vidmm_fail_what what);

/* ctxalloc.c -------------------------------------------------------------- */

NTSTATUS ctxalloc_create(const HANDLE hAdapter, DXGKARGCB_CREATECONTEXTALLOCATION *args);
NTSTATUS ctxalloc_destroy(const HANDLE hAdapter, const HANDLE hAllocation);
D3DGPU_VIRTUAL_ADDRESS ctxalloc_map(const HANDLE hAdapter, const DXGKARGCB_MAPCONTEXTALLOCATION *args);
NTSTATUS ctxalloc_update(const HANDLE hAdapter, const DXGKARGCB_UPDATECONTEXTALLOCATION *args);
/* CTXALLOC-LEAK-001 when a context (device) goes with allocations alive. */
void ctxalloc_check_leaks(struct wk_vidmm *vm, uint32_t device, uint32_t context);

/* openalloc.c ------------------------------------------------------------- */

/* The D3DKMT_HANDLE of allocation `handle` (its kit handle under
 * ALLOCATION_HANDLE_TAG): DXGK_OPENALLOCATIONINFO.hAllocation. */
D3DKMT_HANDLE allocation_kernel_handle(uint32_t handle);
/* DxgkDdiOpenAllocation of allocation a on its device, Flags.Create set,
 * with the private data CreateAllocation got: sets a->device_handle (to
 * a->driver_handle for a driver without it). An error (the driver's
 * failure, ALLOC-OPEN-001, a crash) leaves the allocation to be destroyed;
 * a->opened says whether it must be closed first. */
wk_status allocation_open(struct wk_vidmm *vm, struct allocation *a, const void *data, uint32_t size);
/* DxgkDdiCloseAllocation of an opened allocation's device-specific handle
 * (a no-op otherwise); its crash or MEM-GUARD-001 status, else WK_OK. */
wk_status allocation_close(struct wk_vidmm *vm, struct allocation *a);
/* DxgkCbGetHandleData for an allocation's D3DKMT_HANDLE; NULL otherwise. */
void *allocation_handle_data(struct wk_vidmm *vm, const DXGKARGCB_GETHANDLEDATA *args);

/* objects.c --------------------------------------------------------------- */

struct device *device_get(struct wk_vidmm *vm, uint32_t handle);
struct context *context_get(struct wk_vidmm *vm, uint32_t handle);
struct allocation *allocation_get(struct wk_vidmm *vm, uint32_t handle);
/* A zeroed, live allocation and its handle; 0 when the table is full. */
uint32_t allocation_new(struct wk_vidmm *vm);
/* Records the driver's handle of allocation a (allocation_by_driver_handle,
 * context allocations' creation-order list); WK_E_NO_MEMORY when it cannot. */
wk_status allocation_adopt(struct wk_vidmm *vm, struct allocation *a, HANDLE driver_handle);
/* The end of an allocation: no longer live, out of the map and lists, its
 * slot freed (its handle names nothing from now on). */
void allocation_free(struct wk_vidmm *vm, struct allocation *a);
/* A live allocation whose driver handle is h, 0 when none: O(1). */
uint32_t allocation_by_driver_handle(struct wk_vidmm *vm, HANDLE h);
/* The runtime handle the driver sees for kit handle `handle`, and back:
 * the live object's kit handle, 0 for anything else (another tag, a
 * stale generation, garbage). */
HANDLE runtime_handle(uint32_t tag, uint32_t handle);
uint32_t runtime_resolve(const struct handle_table *t, HANDLE h, uint32_t tag);
/* CreateDevice of device d under runtime handle `runtime`, and
 * CreateContext of context c on the driver's device hdev, with the checks
 * of their answers: d or c is live when the driver made one. The kit's
 * objects (with their table slots) and the system ones come here. */
wk_status device_call_create(struct wk_vidmm *vm, uint32_t flags, HANDLE runtime, struct device *d);
wk_status context_call_create(struct wk_vidmm *vm, HANDLE hdev, uint32_t flags, uint32_t node, uint32_t affinity,
                              HANDLE runtime, struct context *c);
/* The object tables of a new adapter, and their end. */
void objects_init(struct wk_vidmm *vm);
void objects_free(struct wk_vidmm *vm);

/* allocation.c ------------------------------------------------------------ */

wk_status allocation_check_info(struct wk_vidmm *vm, const DXGK_ALLOCATIONINFO *info,
                                enum wk_ddi ddi);

/* submit.c: the bytes of the hardware's address field at a PatchOffset
 * (8 on the kit's GPU; a binding's widest decoded slot), asked once per
 * adapter. */
uint32_t patch_slot_width(struct wk_vidmm *vm);

/* sysmem.c ---------------------------------------------------------------- */

/* contiguous: 0 (SYSMEM_SCATTERED) for an allocation's backing pages,
 * else one run in the kit's half of system memory (sysmem.c), from its
 * bottom (SYSMEM_RUN) or its top (SYSMEM_RUN_HIGH: the paging buffer). */
enum { SYSMEM_SCATTERED = 0, SYSMEM_RUN = 1, SYSMEM_RUN_HIGH = 2 };
wk_status sysmem_pages_alloc(struct wk_vidmm *vm, uint64_t count, int contiguous, uint64_t *pfns);
/* The pages at the bottom of system memory the kit's runs prefer. */
uint64_t sysmem_kit_pages(const struct wk_vidmm *vm);
/* Back to the first scattered page of a fresh adapter (create, reset). */
void sysmem_rewind(struct wk_vidmm *vm);
/* vidmm.c: every placement heap in the shape its contents give, as a start,
 * a reset and a reconfigure leave them (wk_place_rebuild). */
void heaps_rebuild(struct wk_vidmm *vm);
void sysmem_pages_free(struct wk_vidmm *vm, const uint64_t *pfns, uint64_t count);
/* Whether system page `pfn` belongs to one of the kit's own buffers (a DMA
 * or paging buffer, the dummy page): memory no test step may write. */
int sysmem_is_kit_page(const struct wk_vidmm *vm, uint64_t pfn);
void mdl_init(struct wk_vidmm *vm, MDL *mdl, uint64_t *pfns, uint64_t count, uint64_t bytes);
void mdl_release(struct wk_vidmm *vm, MDL *mdl);

/* residency.c ------------------------------------------------------------- */

wk_status residency_place(struct wk_vidmm *vm, struct allocation *a);
wk_status residency_evict(struct wk_vidmm *vm, struct allocation *a, int keep_content);
wk_status residency_release(struct wk_vidmm *vm, struct allocation *a);

/* paging.c ---------------------------------------------------------------- */

/* paging_process.c: the system paging process of a GpuMmu driver.
 * paging_process_use: 1 when TRANSFER and FILL go as TRANSFER_VIRTUAL and
 * FILL_VIRTUAL in it (made on first use), 0 when they go as WDDM 1.x
 * operations (paging_process_why_none says why), -1 when making it failed
 * on the driver's side (*st). */
int paging_process_use(struct wk_vidmm *vm, wk_status *st);
int paging_process_live(const struct wk_vidmm *vm);
const char *paging_process_why_none(const struct wk_vidmm *vm);
wk_status paging_transfer_virtual(struct wk_vidmm *vm, struct allocation *a, uint32_t src_seg, uint64_t src_off,
                                  int src_sys, uint32_t dst_seg, uint64_t dst_off, int dst_sys);
wk_status paging_fill_virtual(struct wk_vidmm *vm, struct allocation *a, uint32_t pattern);
wk_status paging_update_context_virtual(struct wk_vidmm *vm, struct allocation *a, DXGKARG_BUILDPAGINGBUFFER *args);
wk_status paging_init_context_virtual(struct wk_vidmm *vm, struct allocation *a, DXGKARG_BUILDPAGINGBUFFER *args);
wk_status paging_copy_entries(struct wk_vidmm *vm, const struct va_pages *src, const struct va_pages *dst,
                              uint64_t table_bytes, DXGK_BUILDPAGINGBUFFER_COPY_RANGE *ranges, uint32_t n, int *idle);
void paging_process_hint(struct wk_vidmm *vm, char *buf, size_t size);
int paging_process_fault_hint(struct wk_vidmm *vm, uint32_t reason, uint64_t addr, char *buf, size_t size);
/* GPU_VIRTUAL: a paging buffer of operations the kit gave physical
 * addresses, run under a root, faulted on a translation: not judged (the
 * mode runs "all paging operation" in the system context's space, where the
 * kit maps none of those addresses). 1 and why. */
int paging_process_physical_exempt(struct wk_vidmm *vm, uint32_t reason, uint64_t addr, char *why, size_t size);

/* One operation with no paging buffer, done by the CPU before it returns
 * (the paging process's set-up: PAGING-CPUUPDATE-001). */
wk_status paging_run_cpu(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a);
/* paging_run, the buffer left unsubmitted when the operation ends: the
 * next operation goes in after it (gpuva_hold). */
wk_status paging_run_held(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a);
/* Runs one paging operation through BuildPagingBuffer with multipass and
 * submits every buffer it fills; `args` holds the operation and its
 * arguments (MultipassOffset and the buffer fields are the loop's). */
wk_status paging_run(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *args, uint32_t *passes);
/* MAP_APERTURE_SEGMENT2 (map_aperture2.c): whether the driver opted in
 * (WDDM 3.0 and DXGK_VIDMMCAPS.MapAperture2Supported), and operation 17's
 * arguments for the MDL's pages from mdl_offset on. `pages` holds the ADL's
 * page array when it has one: gbuf_free it after the call. */
int map2_wanted(const struct wk_vidmm *vm);
wk_status map2_args(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *args, struct allocation *a, MDL *mdl,
                    uint64_t mdl_offset, struct gbuf *pages);
/* MapApertureSegment2.CpuVisibleAddress (aperture_view.c): a mapping of the
 * allocation's pages of its own, made at its first MAP_APERTURE_SEGMENT2
 * (NULL when the mapping fails); aperture_view_end ends it after the
 * allocation's UNMAP_APERTURE_SEGMENT (its range made inaccessible and
 * remembered), aperture_view_forget at a reset; aperture_view_report_fault
 * reports a fault in an ended range (MEM-STALE-002) and returns 1, else 0. */
void *aperture_view_get(struct wk_vidmm *vm, struct allocation *a, const MDL *mdl);
void aperture_view_end(struct wk_vidmm *vm, struct allocation *a);
void aperture_view_forget(struct wk_vidmm *vm);
int aperture_view_report_fault(struct wk_vidmm *vm, enum wk_ddi ddi, const void *addr, enum fault_access access);
/* Submits and runs what is in the paging buffer (no-op when empty). */
wk_status paging_flush(struct wk_vidmm *vm);
/* At start: the paging buffer, allocated once for the adapter's life when
 * system memory allows (else on first use and freed by every reset). */
void paging_start(struct wk_vidmm *vm);
/* A reset's GPU part: resets the GPU model, the kept paging buffer with it
 * (empty, zero, its guard canary intact). */
void paging_reset_gpu(struct wk_vidmm *vm);
/* Replaces the kept paging buffer by one of the configured size. */
void paging_resize(struct wk_vidmm *vm);

/* paging_ops.c ------------------------------------------------------------ */

wk_status op_fill(struct wk_vidmm *vm, struct allocation *a, uint32_t pattern);
wk_status op_transfer_to_system(struct wk_vidmm *vm, struct allocation *a);
wk_status op_transfer_from_system(struct wk_vidmm *vm, struct allocation *a);
wk_status op_transfer_segment(struct wk_vidmm *vm, struct allocation *a, uint32_t seg,
                              uint64_t offset);
wk_status op_discard(struct wk_vidmm *vm, struct allocation *a);
/* dma_place.c: the DMA buffer in system memory or in an aperture of the
 * context's DmaBufferSegmentSet (mapped by the driver's paging buffer). */
wk_status dma_place(struct wk_vidmm *vm, struct context *c);
wk_status dma_unplace(struct wk_vidmm *vm, struct context *c);

/* paging_place.c: the paging buffer in the driver's PagingBufferSegmentId
 * aperture (no_model only), and what Patch and SubmitCommand are told. */
void paging_place(struct wk_vidmm *vm);
void paging_unplace(struct wk_vidmm *vm, int tell_driver);
/* After the GPU's reset: the block's GART entries written again. */
void paging_place_restore(struct wk_vidmm *vm);
uint32_t paging_dma_segment(const struct wk_vidmm *vm);
uint64_t paging_dma_address(const struct wk_vidmm *vm);

wk_status op_map_aperture(struct wk_vidmm *vm, uint32_t seg, uint64_t first_page,
                          struct allocation *a, MDL *mdl, uint64_t pages);
/* a: the allocation whose pages these are (its handle goes to the driver,
 * its CpuVisibleAddress ends with the unmap); NULL for the kit's buffers. */
wk_status op_unmap_aperture(struct wk_vidmm *vm, uint32_t seg, uint64_t first_page,
                            uint64_t pages, struct allocation *a);
wk_status op_init_context_resource(struct wk_vidmm *vm, struct allocation *a);

/* paging_ops.c: NOTIFY_RESIDENCY of an allocation that asked for it
 * (notify_residency_wanted): committed (resident, where it is now) or
 * evicted from a memory segment. */
int notify_residency_wanted(const struct wk_vidmm *vm, const struct allocation *a);
wk_status op_notify_residency(struct wk_vidmm *vm, struct allocation *a, int resident);

/* callbacks.c: a fence reported complete (DMA_COMPLETED, DMA_FAULTED, a
 * page fault's FaultedFenceId) by the node and engine named. */
void fence_complete(struct wk_vidmm *vm, UINT fence, UINT node, UINT engine);
/* ... for a report of another kind: `how` names it ("faulted"). */
void fence_reported(struct wk_vidmm *vm, UINT fence, UINT node, UINT engine, const char *how);

/* page_fault.c: a DMA_PAGE_FAULTED report (PAGEFAULT-FENCE-001,
 * PAGEFAULT-FLAGS-001), as the kernel takes it; page_fault_note, any other
 * report of a fence; page_fault_watch, the virtual submission whose end is
 * watched (0: none); page_fault_judge, after it ran: 1 when the GPU met a
 * translation fault in it (*fault), the context now in error, and
 * PAGEFAULT-NOTIFY-001 / PAGEFAULT-FENCE-001 judged; 0 when it met none. */
void page_fault_reported(struct wk_vidmm *vm, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *d);
void page_fault_note(struct wk_vidmm *vm, DXGK_INTERRUPT_TYPE type, UINT fence);
void page_fault_watch(struct wk_vidmm *vm, uint32_t fence);
void page_fault_note_binding(struct wk_vidmm *vm, uint32_t fence);
/* Whether the submission of `fence` faulted on whatever ran it (the kit's
 * GPU, a binding's processor behind registers), as far as the kit knows:
 * 1 faulted, 0 ran clean, -1 not known (nothing runs the buffers, or a
 * binding without registers, whose fences the kit retires itself). */
int page_fault_submission_faulted(struct wk_vidmm *vm, uint32_t fence);
/* After the wait in which a page fault was reported: DxgkDdiResetEngine of
 * the faulting engine, as the kernel does (a driver with
 * SupportPerEngineTDR); WK_OK, or what the call's guard said. */
wk_status page_fault_reset_engine(struct wk_vidmm *vm);
/* After a SubmitCommand(Virtual) of `fence`: the kit GPU's doorbells before
 * the call, so the one it rang is known (page_fault_submission_faulted).
 * Returns that doorbell's number when the call rang exactly one, else 0. */
uint64_t page_fault_note_doorbell(struct wk_vidmm *vm, uint32_t fence, uint64_t doorbells_before);
/* The kit GPU's doorbells so far (its submissions counter), for the above. */
uint64_t page_fault_doorbells(struct wk_vidmm *vm);
/* The adapter-wide reset after a page fault no engine reset recovered
 * (pf_reset.why says why): DxgkDdiResetFromTimeout, then
 * DxgkDdiRestartFromTimeout, TDR-RESET-001 (tdr.c). */
wk_status tdr_reset_adapter(struct wk_vidmm *vm);
int page_fault_judge(struct wk_vidmm *vm, struct context *c, uint32_t fence, const struct wk_gpu_counters *before,
                     struct wk_gpu_fault *fault);
wk_status op_touch_physical(struct wk_vidmm *vm, uint32_t seg, uint64_t offset, int write);
wk_status op_special_lock_transfer(struct wk_vidmm *vm, struct allocation *a);
wk_status op_signal_monitored_fence(struct wk_vidmm *vm, uint64_t address, uint64_t value);
wk_status op_update_context_allocation(struct wk_vidmm *vm, struct allocation *a,
                                       const void *blob, uint32_t blob_size);

/* submit.c ---------------------------------------------------------------- */

/* Patch (when lists are given) + SubmitCommand of [start, end) of a DMA
 * buffer; the GPU runs it at the next wk_vidmm_wait_idle/submit_wait. */
struct submission {
    uint32_t context;                       /* 0 for paging */
    uint32_t space;                         /* SubmitCommandVirtual: the context's address space */
    int paging;
    const struct gbuf *dma;
    uint32_t dma_segment;
    uint64_t dma_gpu_address;
    const struct gbuf *dma_private;
    uint32_t private_start, private_end;
    uint32_t start, end;
    DXGK_ALLOCATIONLIST *alloc_list;
    uint32_t alloc_list_size;
    D3DDDI_PATCHLOCATIONLIST *patch_list;
    uint32_t patch_list_size;
    uint32_t patch_start, patch_length;
    uint8_t *driver_dma;    /* the driver's pDmaBuffer when not dma->ptr (a Patch view) */
    int dma_readonly;       /* driver_dma is read-only throughout: nothing to snapshot or compare */
    int lists_writable;     /* alloc_list and patch_list are not read-only views: Patch's writes to
                               them (const to it) are found by a compare after the call */
    uint64_t check_end;     /* the driver cannot write dma past this (0: dma->size) */
};
wk_status submit_buffer(struct wk_vidmm *vm, const struct submission *s, uint32_t *fence);
wk_status submit_track(struct wk_vidmm *vm, const struct submission *s, uint32_t *fence);
void submit_untrack(struct wk_vidmm *vm, uint32_t fence);

/* patch_view.c ------------------------------------------------------------ */

/* The pDmaBuffer for a wk_vidmm_patch call on context c whose slots end at
 * `need` bytes (0: none): the context's Patch view, its first max(1 page,
 * need) writable and the rest read-only, or c->dma.ptr when no view can be
 * made. *check_end: where the
 * post-call checks may stop reading, the driver being unable to write
 * past it (c->dma.size when nothing is read-only). */
uint8_t *patch_view_for(struct wk_vidmm *vm, struct context *c, uint64_t need, uint64_t *check_end);
void patch_view_free(struct wk_vidmm *vm, struct context *c);
/* The pDmaBuffer for Patch of the paging buffer: the same bytes through a
 * mapping of its block that is read-only to the driver (a paging buffer
 * has no patch locations, so Patch may change nothing), or NULL when none
 * can be made (the caller hands the buffer itself and checks after). */
uint8_t *paging_view_for(struct wk_vidmm *vm);
void paging_view_free(struct wk_vidmm *vm);
/* Runs the GPU and interrupts until `fence` (0: every pending) completes. */
wk_status submit_wait(struct wk_vidmm *vm, uint32_t fence);
/* Reports `rule` when the GPU faulted since `before` (with the fault):
 * WK_OK, or WK_E_NOT_SUPPORTED when the fault was the kit's budget
 * running out, a limit of the kit that no rule blames on the driver. */
wk_status gpu_fault_check(struct wk_vidmm *vm, const struct wk_gpu_counters *before,
                          enum wk_rule_id rule, enum wk_ddi ddi, const char *what);

/* queue.c ---------------------------------------------------------------- */

/* Whether the next render submission is left queued (not held, not waited). */
int queue_active(const struct wk_vidmm *vm);
/* Whether a render of `context` is queued and not yet run. */
int queue_has_context(const struct wk_vidmm *vm, uint32_t context);
/* How many buffers the GPU runs before the kit plays its interrupt (0: all). */
uint32_t queue_run_limit(const struct wk_vidmm *vm);
/* A render submission left queued (`before`: the GPU's counters before
 * it); the last of the batch drains the queue. */
wk_status queue_submitted(struct wk_vidmm *vm, const struct wk_gpu_counters *before);
/* Runs what is queued and judges its faults (SUBMIT-GPU-001). */
wk_status queue_drain(struct wk_vidmm *vm);

/* Whether to check what a buffer did on the GPU model (the semantic
 * level, docs/verdicts.md "Kinds of check"): 1, or in the no_model mode 0
 * after counting the check as skipped. Every check that reads the model's
 * memory or GART after a buffer ran asks first. */
/* binding.c ------------------------------------------------------------- */

/* The most bytes of allocation private data a binding's encoder writes. */
#define WK_VIDMM_MAX_PRIVATE_DATA 4096u

struct wk_exec_fault;
struct wk_submission;
/* The per-adapter object (create), at wk_vidmm_create; destroy at
 * wk_vidmm_destroy. wk_vidmm_reset resets the memory, not the binding: the
 * driver is not restarted, and what it programmed (a ring's base) stays. */
wk_status binding_attach(struct wk_vidmm *vm);
void binding_detach(struct wk_vidmm *vm);
/* Releases the binding lock when this thread holds it (call.c, before it
 * unwinds a driver's call past the binding call that took it). */
void binding_release_lock(struct wk_vidmm *vm);
/* Whether the binding runs the driver's buffers (a processor), and
 * whether a register model queues them (else the kit runs each
 * accepted submission itself, in order, and retires its fence). */
static inline int binding_executes(const struct wk_vidmm *vm)
{
    return vm->binding && vm->bself != NULL ? 1 : 0;
}
int binding_has_registers(const struct wk_vidmm *vm);
/* The binding's GPU MMU (processor.h mmu_geometry, mmu_decode): the tree,
 * NULL when the binding gives none (or does not execute); and its reading
 * of one entry as a wk_mmu_decode_fn whose self is the adapter, called in
 * a binding frame (a crash there is the binding's: -1, adapter dead). */
const struct wk_mmu_geometry *binding_mmu_geometry(const struct wk_vidmm *vm);
int binding_mmu_decode(void *vm, uint32_t level, const uint8_t *entry, uint32_t entry_bytes,
                       struct wk_mmu_entry *out);
/* Runs [start, end) of the buffer at buffer_addr on the binding's processor:
 * WK_OK (ran to its end), WK_E_GPU_FAULT (*fault, logged in the memory
 * system's fault log), WK_E_BINDING (the binding failed: BIND-* recorded,
 * adapter dead). */
wk_status binding_exec(struct wk_vidmm *vm, uint64_t buffer_addr, uint64_t start, uint64_t end, uint32_t flags,
                       uint32_t fence, struct wk_exec_fault *fault);
/* binding_exec in an address space (a virtual submission): the buffer is
 * fetched at its virtual address and every address is virtual (space
 * NULL: binding_exec). */
wk_status binding_exec_va(struct wk_vidmm *vm, struct wk_va_space *space, uint64_t buffer_addr, uint64_t start,
                          uint64_t end, uint32_t flags, uint32_t fence, struct wk_exec_fault *fault);
/* Whether the binding's register model says each submission's root
 * (wk_registers_ops.root), and the root of the one next() just gave (0:
 * physical, or a model that does not say). */
int binding_knows_roots(const struct wk_vidmm *vm);
uint64_t binding_root(struct wk_vidmm *vm, const struct wk_submission *s);
/* The encoder's commands member when its table is large enough to have it. */
static inline int (*binding_commands_of(const struct wk_binding *b))(void *, struct wk_encode_commands *)
{
    const struct wk_encoder_ops *e = b ? b->encoder : NULL;
    if (!e || e->size < offsetof(struct wk_encoder_ops, commands) + sizeof(e->commands))
        return NULL;
    return e->commands;
}
/* A virtual context's command buffer in the binding's command set
 * (encoder.commands): WK_OK, WK_E_NOT_SUPPORTED (none, or a SKIP),
 * WK_E_BINDING (it broke: BIND-*). */
wk_status binding_encode_commands(struct wk_vidmm *vm, struct wk_encode_commands *c);
/* The binding's encoding of an allocation request (pPrivateDriverData):
 * WK_OK and *size, WK_E_NOT_SUPPORTED (it cannot say it: a skip),
 * WK_E_BINDING. */
int binding_encodes_allocation(const struct wk_vidmm *vm);
wk_status binding_encode_allocation(struct wk_vidmm *vm, const WK_ALLOCATION_REQUEST *req, uint8_t *buf,
                                    uint32_t cap, uint32_t *size);
/* The register model's queue and interrupt line (binding_has_registers). */
int binding_next(struct wk_vidmm *vm, struct wk_submission *s);
void binding_done(struct wk_vidmm *vm, const struct wk_submission *s, const struct wk_exec_fault *fault);
int binding_irq_pending(struct wk_vidmm *vm);
/* A register access of the driver's, for the register path: 0, or -1 when
 * the binding failed (the adapter is dead). */
int binding_read32(struct wk_vidmm *vm, uint32_t bar, uint64_t offset, uint32_t *value);
int binding_write32(struct wk_vidmm *vm, uint32_t bar, uint64_t offset, uint32_t value);
/* The GPU address the driver's encoding holds at dma[offset] (a patch
 * slot): 1 and *address (and *slot_bytes), 0 when none is encoded there,
 * -1 when nothing can decode addresses (no binding decoder). The kit's own
 * GPU: 8 little-endian bytes. */
int patch_slot_address(struct wk_vidmm *vm, const uint8_t *dma, uint64_t len, uint64_t offset, uint64_t *address,
                       uint32_t *slot_bytes);

static inline int semantic_check(struct wk_vidmm *vm)
{
    if (!vm->cfg.no_model)
        return 1;
    vm->semantic_skipped++;
    return 0;
}

/* The semantic checks of the addresses the driver wrote in its buffers
 * (PATCH-VALUE-001, RENDER-PREPATCH-001): they read the driver's encoding,
 * so they need the kit's GPU or a binding whose processor decodes addresses
 * (read_address); else, as semantic_check, 0 after counting the skip. */
static inline int address_check(struct wk_vidmm *vm)
{
    if (!semantic_check(vm))
        return 0;
    if (!vm->binding || (binding_executes(vm) && vm->binding->processor->read_address))
        return 1;
    vm->semantic_skipped++;
    vm->binding_skipped[1]++;
    return 0;
}

#endif
