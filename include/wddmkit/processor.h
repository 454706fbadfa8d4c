/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/processor.h - the memory system every GPU shares, and what a
 * command processor (the part of a GPU that runs DMA buffers of one
 * command format) is to the kit.
 *
 * The kit's GPU is two things: a memory system (memory and aperture
 * segments, the GART and its TLB, system pages, banks, the fault log) and a
 * command processor for the kit's own command set (gpu.h). A driver for
 * other hardware brings its own processor in a binding (binding.h); it runs
 * the driver's buffers against the same memory system, so the kit's checks
 * read where the processor wrote (FILL landed, TRANSFER moved the right
 * bytes, UNMAP pointed the pages at the dummy page, fences fired).
 *
 * Memory is reached through a table (struct wk_mem_ops), never through
 * symbols: a binding is a module of its own, and a copy of the kit linked
 * into it would run on the kit's private structures. Access is by spans (a
 * host pointer and a length per run of memory contiguous on the host), so
 * a processor moves bytes at memcpy speed, never one at a time.
 *
 * Addresses are GPU physical addresses, as in gpu.h: segment N covers
 * [base, base + size) of its description, aperture pages are translated
 * through the GART, system page `pfn` is at pfn << 12.
 *
 * Every access is checked whole before it has any effect: a copy that would
 * cross a segment end or touch an unmapped aperture page moves nothing and
 * says which address failed. What a processor does with that is its own
 * hardware's business (most halt, as the kit's does: the fault goes back to
 * the kit in struct wk_exec_fault).
 *
 * Threading: a memory system is single-threaded; the kit calls a processor
 * from one thread at a time per adapter.
 *
 * The tables grow only at their end; `size` says how much of a table its
 * maker has, and no member past it is read or called.
 */
#ifndef WDDMKIT_PROCESSOR_H
#define WDDMKIT_PROCESSOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct wk_mem;                /* one adapter's memory system (the kit's) */
struct wk_gpu_desc;           /* gpu.h: the layout it was built from */
struct wk_gpu_location;       /* gpu.h: segment, offset and bank of an address */

/* ------------------------------------------------------------------ */
/* The memory system                                                    */
/* ------------------------------------------------------------------ */

/* How a span walk reaches memory (wk_mem_ops.begin `how`). */
#define WK_MEM_READ 0x1u   /* spans are read: data NULL means "never written, reads as zeroes" */
#define WK_MEM_WRITE 0x2u  /* spans are written: every span is backed and counts as written;
                            * the caller writes all of it (what it leaves keeps its bytes) */
#define WK_MEM_HOST 0x4u   /* the host's view: apertures through the current GART entries,
                            * nothing counted. Without it the access is the GPU's: through
                            * the TLB (a stale line is counted), and a write's bank
                            * crossing counted (reads, as a command fetch, count none). */
#define WK_MEM_PROBE 0x8u  /* with READ or WRITE: check only, as that walk would check
                            * (through the TLB without HOST), counting nothing; the walk
                            * has no span. What a command that checks all its accesses
                            * before the first (a BLIT's rows) checks them with. */

/* One run of memory, contiguous on the host. */
struct wk_mem_span {
    uint64_t addr;            /* GPU address of the first byte */
    uint64_t length;          /* bytes */
    uint8_t *data;            /* host bytes; NULL (reads only): zeroes */
};

/* A walk over a range, span by span. The struct is the caller's (no
 * allocation); its contents are the memory system's. Spans stay valid
 * until the memory next changes through another call (a write, a GART
 * change, a reset); a walk is not continued across such a change. */
struct wk_mem_cursor {
    uint64_t opaque[8];
};

/* Why a memory access failed: reason is an enum wk_gpu_fault_reason of
 * gpu.h (BAD_ADDRESS, UNMAPPED_APERTURE, CROSSES_SEGMENT, MEMORY_LIMIT),
 * addr the first address that failed. */
struct wk_mem_fault {
    uint32_t reason;
    uint32_t reserved;
    uint64_t addr;
};

#define WK_MEM_OPS_VERSION 1u

struct wk_mem_ops {
    uint32_t size;            /* sizeof the memory system's table */
    uint32_t version;         /* WK_MEM_OPS_VERSION */
    /* Checks [addr, addr + len) whole (one region, every aperture page
     * mapped, within the host-memory limit for a write): 0 and a cursor,
     * or -1 and *f with nothing changed. len 0 succeeds with no span. */
    int (*begin)(struct wk_mem *m, uint64_t addr, uint64_t len, uint32_t how,
                 struct wk_mem_cursor *c, struct wk_mem_fault *f);
    /* 1 and the next maximal span in *out; 0 when the range is done. */
    int (*next)(struct wk_mem_cursor *c, struct wk_mem_span *out);
    /* The GPU's bulk moves, each checked whole (both sides) first: 0, or
     * -1 and *f with nothing changed. copy handles overlap as memmove
     * does; fill repeats a pattern of 1, 2, 4 or 8 bytes from dst on (the
     * pattern's byte 0 at dst); store and load move host bytes. */
    int (*copy)(struct wk_mem *m, uint64_t dst, uint64_t src, uint64_t len, struct wk_mem_fault *f);
    int (*fill)(struct wk_mem *m, uint64_t dst, uint64_t len, const void *pattern,
                uint32_t pattern_bytes, struct wk_mem_fault *f);
    int (*store)(struct wk_mem *m, uint64_t dst, const void *src, uint64_t len, struct wk_mem_fault *f);
    int (*load)(struct wk_mem *m, uint64_t src, void *dst, uint64_t len, struct wk_mem_fault *f);
    /* GART entries of an aperture segment, as a GPU command writes them:
     * the TLB keeps the old translation of each page until gart_flush.
     * Page first_page + i gets pfns[i], or pfn + i when pfns is NULL;
     * pfn WK_MEM_GART_INVALID (with pfns NULL) clears the entries. The
     * whole range is checked first: 0, or -1 and *f (reason BAD_OPERAND
     * for a segment that is no aperture, a page past it or a frame
     * outside system memory; MEMORY_LIMIT when the entries cannot be
     * backed) with nothing changed. Counted as pages mapped (cleared:
     * unmapped). */
    int (*gart_write)(struct wk_mem *m, uint32_t segment_id, uint64_t first_page, uint64_t count,
                      const uint64_t *pfns, uint64_t pfn, struct wk_mem_fault *f);
    /* Drops the TLB lines of an aperture segment: 0, or -1 and *f. */
    int (*gart_flush)(struct wk_mem *m, uint32_t segment_id, struct wk_mem_fault *f);
    /* The layout the memory system was built from (segments, system pages). */
    const struct wk_gpu_desc *(*layout)(const struct wk_mem *m);
    /* Which region holds addr: 0 and *loc, or -1. */
    int (*locate)(const struct wk_mem *m, uint64_t addr, struct wk_gpu_location *loc);
    /* Every page of [first_page, first_page + count) gets the same frame
     * pfn, as gart_write writes entries: how a GPU unmaps, pointing pages
     * at a dummy page (WDDM's UNMAP to DummyPage), without a list of count
     * copies of one frame. Checked and counted as gart_write, but as pages
     * unmapped. */
    int (*gart_write_same)(struct wk_mem *m, uint32_t segment_id, uint64_t first_page, uint64_t count,
                           uint64_t pfn, struct wk_mem_fault *f);
};

#define WK_MEM_GART_INVALID UINT64_MAX

/* ------------------------------------------------------------------ */
/* GPU virtual addresses: a GPU's page tables                           */
/* ------------------------------------------------------------------ */

/*
 * A GPU with an MMU (WDDM 2.0's GpuMmu model) reaches memory through
 * page tables it keeps in memory: a tree of tables, one level per step of
 * the walk, each entry pointing at the next level's table or, at the
 * leaf, at a page. What the tree looks like is the hardware's, and the
 * driver says it to the kernel (the levels' sizes: docs/wddm-gpummu-facts.md); how an
 * entry's bits read is the hardware's alone. So a walk is the kit's code
 * over two things: the geometry (struct wk_mmu_geometry) and the
 * hardware's reading of one entry (wk_mmu_decode_fn). gpu.h gives the
 * kit's GPU's and runs a processor in such an address space
 * (wk_va_space): every address the processor uses is then virtual.
 */
#define WK_MMU_MAX_LEVELS 6u

/* One level of the tree: a table of (1 << index_bits) entries of
 * entry_bytes each; the table is index_bits bits of the address. */
struct wk_mmu_level {
    uint32_t index_bits;      /* 1 to 20 */
    uint32_t entry_bytes;     /* 4, 8 or 16 */
};

/* The tree, numbered as WDDM numbers it (DXGK_PAGE_TABLE_LEVEL_DESC,
 * UpdatePageTable.PageTableLevel): level[0] the leaf tables, whose
 * entries map pages of 1 << page_shift bytes, up to the root,
 * level[levels - 1]. A virtual address has page_shift + the index_bits of
 * every level bits; the root table's index is the highest. */
struct wk_mmu_geometry {
    uint32_t levels;          /* 1 to WK_MMU_MAX_LEVELS */
    uint32_t page_shift;      /* 12: 4 KiB pages */
    struct wk_mmu_level level[WK_MMU_MAX_LEVELS];
};

/* What one entry says, as the hardware reads it. */
struct wk_mmu_entry {
    uint64_t address;         /* GPU physical address of the next table, or of the page */
    uint32_t valid;           /* 0: the walk faults here (nothing else is read) */
    uint32_t leaf;            /* 1: address is a page's (always at the leaf level) */
    uint32_t read_only;       /* leaf: writes fault */
    uint32_t reserved;
};

/* The hardware's reading of the entry `entry` (entry_bytes bytes, as in
 * memory) of a table at `level` (0: a leaf table): 0 and *out, or -1 when the
 * hardware cannot read it (a reserved bit set, an address it cannot
 * hold): the walk then faults with BAD_PTE. */
typedef int wk_mmu_decode_fn(void *self, uint32_t level, const uint8_t *entry, uint32_t entry_bytes,
                             struct wk_mmu_entry *out);

/* ------------------------------------------------------------------ */
/* Command processors                                                   */
/* ------------------------------------------------------------------ */

/* What kind of fault stopped a buffer; a processor's own reason is in
 * wk_exec_fault.code and its words in wk_processor_ops.fault_text. */
enum wk_fault_class {
    WK_FAULT_NONE = 0,
    WK_FAULT_DECODE = 1,      /* an unknown command, a command cut by the buffer's end */
    WK_FAULT_OPERAND = 2,     /* a value the hardware refuses */
    WK_FAULT_MEMORY = 3,      /* a memory access failed (mem_reason, fault_addr) */
    WK_FAULT_BUDGET = 4,      /* the kit's budget ran out (spend returned -1) */
    WK_FAULT_STATE = 5,       /* a command invalid in the processor's state */
    WK_FAULT_CLASS_COUNT
};

struct wk_exec_fault {
    uint32_t cls;             /* enum wk_fault_class */
    uint32_t code;            /* the processor's own reason */
    uint32_t mem_reason;      /* WK_FAULT_MEMORY: wk_mem_fault.reason */
    uint32_t depth;           /* 0: the submitted buffer; n: n chained buffers down */
    uint64_t offset;          /* byte offset in the buffer of the command that faulted
                               * (at depth > 0: of the depth-0 command that led there) */
    uint64_t fault_addr;      /* WK_FAULT_MEMORY: wk_mem_fault.addr, the address the command
                               * used: a GPU virtual one for a buffer run in an address space
                               * (the translation faulted there), else a physical one */
    uint32_t opcode;          /* the command's opcode as the processor numbers it,
                               * 0xFFFFFFFF: none read */
    uint32_t reserved;
};

struct wk_exec;

/* What the kit offers a running buffer. Both take the run as exec has it
 * (const): the kit's own state is behind x->kit. */
struct wk_exec_ops {
    uint32_t size;
    uint32_t reserved;
    /* Charges commands and bytes moved to the budget of this run: 0, or -1
     * (charging nothing) when the budget cannot pay; the processor then
     * stops with WK_FAULT_BUDGET (ending "ran to the end" after a -1 is the
     * binding's fault, BIND-BUDGET-001). Call it before the work it charges. */
    int (*spend)(const struct wk_exec *x, uint64_t commands, uint64_t bytes);
    /* A fence the processor has just written (value at addr, already in
     * memory): the kit records it as the GPU's last fence and raises the
     * fence interrupt. */
    void (*fence)(const struct wk_exec *x, uint64_t addr, uint64_t value);
    /* A TLB flush of GPU virtual address spaces (a FLUSH_TLB paging
     * operation, docs/wddm-gpummu-facts.md 4.3): the kit drops the TLB lines
     * of pages in [start, end) (start == end == 0: every line) of each
     * address space on this GPU whose root table is at GPU physical address
     * `root`. None such is no error. Appended: check size covers it. */
    void (*va_flush)(const struct wk_exec *x, uint64_t root, uint64_t start, uint64_t end);
};

/* Flags of a run (wk_exec.flags). */
#define WK_EXEC_PAGING 0x1u   /* a paging buffer (built by BuildPagingBuffer) */
#define WK_EXEC_VIRTUAL 0x2u  /* every address is a GPU virtual address: mem_ops translates
                               * it through the context's page tables (gpu.h, wk_va_space);
                               * buffer_addr too. Which region an address is in says
                               * nothing of the next page's. */

/* One run of one buffer; read-only to the processor. */
struct wk_exec {
    struct wk_mem *mem;
    const struct wk_mem_ops *mem_ops;
    const struct wk_exec_ops *ops;
    uint64_t buffer_addr;     /* GPU address of the buffer's byte 0 */
    uint64_t start, end;      /* the submitted range: offsets in the buffer */
    const uint8_t *bytes;     /* the buffer as the kit fetched it: bytes[start, end) */
    uint32_t flags;           /* WK_EXEC_* */
    uint32_t fence_id;        /* the submission's fence (SubmissionFenceId) */
    uint32_t max_depth;       /* chained buffers the kit allows below this one */
    uint32_t reserved;
    void *kit;                /* the kit's; not for the processor */
};

/*
 * A command processor. `self` is the binding's per-adapter object
 * (binding.h, create). Everything but exec is optional (NULL).
 *   exec: runs x's range to its end (returns 0) or to the first fault
 *     (returns 1 and fills *fault). It ends on ANY bytes within the budget,
 *     touches memory only through x->mem_ops, and is deterministic: the
 *     same bytes on the same memory after the same reset give the same
 *     result (no clocks, threads, randomness or global state).
 *   read_address: the GPU address the driver's encoding holds at
 *     dma[offset] (a patch location's slot, facts 5.3 T3: "encoding and
 *     width are hardware-specific"): 0 and *address, or -1 when no address
 *     is encoded there (the kit then reports that the slot "holds no
 *     address the hardware decodes": RENDER-PREPATCH-001, PATCH-VALUE-001);
 *     slot_bytes (out) the bytes it spans, 1 to 16.
 *   fault_text: a fault in the processor's words ("PKT3 type 9 unknown").
 *   mmu_geometry, mmu_decode (appended; both or neither): a GPU with an
 *     MMU (WDDM 2.0's GpuMmu model) says its page-table tree, level 0 the
 *     leaf (the levels its driver must report in DXGK_PAGE_TABLE_LEVEL_DESC),
 *     and how it reads one entry (wk_mmu_decode_fn, self the binding's
 *     object). With them the kit drives a GpuMmu driver's page tables on
 *     this GPU and judges every entry it writes by this reading (docs/
 *     drivers-for-other-hardware.md, "GPU virtual addressing"); without
 *     them those cases are skips. mmu_decode is the hardware's reading: a
 *     pure function of the entry's bytes, as exec is deterministic.
 */
struct wk_processor_ops {
    uint32_t size;
    uint32_t reserved;
    int (*exec)(void *self, const struct wk_exec *x, struct wk_exec_fault *fault);
    int (*read_address)(void *self, const uint8_t *dma, uint64_t len, uint64_t offset,
                        uint64_t *address, uint32_t *slot_bytes);
    void (*fault_text)(void *self, const struct wk_exec_fault *f, char *buf, size_t size);
    const struct wk_mmu_geometry *mmu_geometry;
    wk_mmu_decode_fn *mmu_decode;
};

/* The name of a fault class ("MEMORY"); "?" outside the enum. */
static inline const char *wk_fault_class_name(uint32_t cls)
{
    static const char *const names[WK_FAULT_CLASS_COUNT] = { "NONE", "DECODE", "OPERAND",
                                                             "MEMORY", "BUDGET", "STATE" };
    return cls < WK_FAULT_CLASS_COUNT ? names[cls] : "?";
}

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_PROCESSOR_H */
