/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the model's state, shared by the files of gpu-model only.
 *
 * One file per job: gpu.c (lifetime, description checks, counters),
 * space.c (address resolution and host access), gart.c (page table and
 * TLB), digest.c, opcodes.c (the command table), decode.c, encode.c,
 * validate.c, operands.c (the operand rules validator and executor share),
 * disasm.c, exec.c (the command processor), mem_ops.c (the memory system
 * as processor.h's table), processor.c (running a processor on it), faults.c,
 * sysmem.c (system memory and the set of its pages that may hold data),
 * sysmap.c (host mappings of system pages), segmap.c (host mappings of
 * mappable segments: the CPU view of video memory).
 */
#ifndef WK_GPU_INTERNAL_H
#define WK_GPU_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "wddmkit/gpu.h"
#include "wddmkit/processor.h"

#include "page_pool.h"
#include "sparse.h"

/* A region of the address space: a segment or the system pool. */
struct region {
    uint32_t segment_id;          /* 1..N; 0 = system memory */
    enum wk_gpu_segment_kind kind;
    uint64_t base;
    uint64_t size;
    uint32_t bank_count;          /* >= 2 when banked */
    uint64_t *bank_ends;          /* bank_count-1 offsets (owned) */
    struct sparse bytes;          /* memory segments */
    struct sparse ptes;           /* apertures: struct pte blocks */
    uint8_t *host;                /* system memory, or a mappable segment: the model's
                                   * mapping of its bytes, in the memfd behind system memory */
    uint64_t pool_off;            /* where byte 0 of `host` is in that memfd (0: system memory) */
};

/* One aperture page: its page-table entry and the TLB line the GPU uses. */
struct pte {
    uint64_t entry;               /* PFN | PTE_VALID, 0 = invalid */
    uint64_t tlb;                 /* what the GPU translates through */
};
#define PTE_VALID (1ull << 63)
#define PTES_PER_BLOCK (WK_GPU_PAGE_SIZE / sizeof(struct pte))

/* Per-exec budget accounting. */
struct budget {
    uint64_t units_left;
    uint64_t bytes_left;
};

/* The register front end: ring registers, the submission queue, IRQ latch. */
struct submission {
    uint64_t addr;
    uint32_t length;
    uint32_t tag;
    uint64_t root;      /* root table of the space it runs in; 0: physical */
    uint32_t root_entries; /* RING_ROOT_ENTRIES: a sized root's entries */
    int device_error;   /* fails as a device error instead of running */
    uint64_t seq;       /* its DOORBELL's number: counters.submissions once queued */
};

/* The faulted submissions the front end remembers (wk_gpu_doorbell_faulted). */
#define FAULTED_TAGS 64u

struct frontend {
    uint64_t ring_addr;
    uint32_t ring_length;
    uint32_t ring_tag;
    uint64_t ring_root;
    uint32_t ring_root_entries;
    uint32_t head;
    uint32_t count;
    uint32_t irq_status;
    uint32_t completed_tag;
    uint32_t fault_tag;
    uint32_t fault_reason;
    uint64_t fault_addr;
    uint64_t last_root;    /* RING_ROOT of the last submission run (0: a physical one) */
    uint32_t last_root_entries; /* ... and its RING_ROOT_ENTRIES */
    uint32_t faulted_count;    /* how many faulted since the reset */
    uint32_t gart_segment;
    uint32_t gart_page;
    uint64_t gart_pfn;
    int device_error_next; /* the next DOORBELL's submission fails as a device error */
    /* Last, so that reset clears everything before them: only the first
     * min(faulted_count, FAULTED_TAGS) seqs and the `count` entries from
     * `head` are ever read, so stale ones are unobservable. Clearing the
     * 512 bytes of seqs too was a `rep stos`, a tenth of a fuzz_gpu_decode
     * input's reset. */
    uint64_t faulted_seqs[FAULTED_TAGS]; /* the doorbells' numbers (struct submission.seq) of the last
                                            submissions that faulted (a ring) */
    struct submission queue[WK_GPU_QUEUE_SIZE];
};

/* A set of system pages (page indexes in the pool): the bitmap answers
 * membership, the list walks the set in time proportional to its size.
 * The dirty set also keeps, per list entry, the span of the page that may be
 * non-zero (PAGE_DIRT, page_pool.h), so that reset zeroes what was written
 * rather than whole pages (a 4-byte write through the aperture cost a 4 KiB
 * memset per fuzz input). A span is widened in place when the page written is
 * the last one added (writes come in runs on one page); any other write to a
 * page already in the set sets spans_lost, and the next reset zeroes whole
 * pages, as it always did. */
struct page_set {
    uint64_t *bits;
    uint64_t *list;
    uint32_t *spans;              /* with_spans: one per list entry */
    uint64_t count;
    uint64_t capacity;
    int with_spans;
    int spans_lost;
};

/* One host mapping of system pages made by wk_gpu_sysmem_map: live (the host
 * holds it), or idle (kept for the next map of the same pages): PROT_NONE
 * after wk_gpu_sysmem_unmap, still as the host left it (read-write, or a
 * read-only tail) after wk_gpu_sysmem_retire. */
struct sysmap {
    uint8_t *va;                  /* count pages, then the PROT_NONE guard page */
    uint64_t count;
    uint64_t *pages;              /* the pages of the file mapped, in order (owned):
                                   * file pages, not frames, so that a parked pool's
                                   * mappings serve a model whose system memory
                                   * starts at another frame */
    uint64_t last_use;            /* sysmem.clock when last unmapped */
    uint64_t writable;            /* accessible: pages [0, writable) read-write, the
                                   * rest read-only (wk_gpu_sysmem_set_writable) */
    int live;
    int closed;                   /* idle and PROT_NONE (wk_gpu_sysmem_unmap) */
};

/* One host mapping of a mappable segment's pages (wk_gpu_segment_map). */
struct segmap {
    uint8_t *va;                  /* what the host was given (the byte at its offset) */
    uint8_t *guard;               /* the reservation: guard, pages, guard */
    uint64_t pages;
    uint64_t first_page;          /* in the memfd */
};

/* System memory's host side: the memfd, which pages may hold data, and the
 * host's ways to write them (sysmem.c, sysmap.c, segmap.c). The memfd holds
 * system memory, then each mappable segment (region.pool_off): "pages"
 * below are pages of the whole file. */
struct sysmem {
    int fd;                       /* memfd behind system memory, -1: anonymous */
    uint64_t file_size;           /* system memory and the mappable segments, bytes */
    uint64_t pool_size;           /* the memfd and the model's mapping of it: file_size
                                   * rounded up (sysmem.c, pool_size_for) */
    int untracked;                /* `dirty` is unknown (out of host memory): any
                                   * page may hold data; reset punches it all */
    struct page_set dirty;        /* pages that may be non-zero: written since the
                                   * reset, or writable by the host */
    struct page_set pinned;       /* pages wk_gpu_sysmem_page handed out */
    struct sysmap *maps;          /* live and idle host mappings */
    uint32_t map_count;
    uint32_t map_capacity;
    uint64_t clock;               /* counts unmaps: the oldest idle map goes first */
    uint64_t made;                /* host mappings made (wk_gpu_sysmem_mappings) */
    /* Pages [host_lo, host_hi) of the file: the hull of every segment
     * mapping live since the last reset. The host may have written any of
     * them, unseen: they read through the mapping, and reset punches them
     * out (segmap.c explains why a hull, not the set). */
    uint64_t host_lo, host_hi;
    struct segmap *segmaps;       /* live segment mappings (WK_GPU_MAX_SEGMENT_MAPS) */
    uint32_t segmap_count;
};

/* The memory system's handle (processor.h): a member of struct wk_gpu,
 * which mem_gpu finds from it. */
struct wk_mem {
    uint32_t unused;
};

/* Fields every fuzz input touches come first and together (a reset, a
 * lookup, an exec each read a handful): fewer cache lines to bring back after
 * an input's own traffic (a FILL of a few KiB) evicted them. Bulky arrays of
 * which an input uses one entry or none go last. */
struct wk_gpu {
    struct wk_gpu_desc desc;                /* segments point at `segdescs` */
    struct wk_gpu_segment_desc *segdescs;   /* copy, with bank tables */
    struct region *regions;                 /* segments 1..N then system */
    uint32_t region_count;
    struct region **by_base;                /* regions sorted by base */
    uint64_t *bases;                        /* by_base[i]->base: what space_find compares */
    uint64_t *ends;                         /* by_base[i]->base + size (no region ends at 2^64);
                                             * in the allocation of `bases`, right after it, so
                                             * that a lookup reads one cache line or two */
    struct page_pool pool;
    struct wk_gpu_counters counters;
    uint64_t last_fence;
    uint64_t fault_total;
    uint64_t stream_threshold;              /* fills this large use streaming stores */
    wk_gpu_interrupt_fn *irq_fn;
    void *irq_user;
    struct wk_va_space *va_spaces[WK_GPU_MAX_VA_SPACES]; /* attached: what VA_FLUSH flushes */
    uint32_t va_space_count;
    uint64_t va_flushes;                    /* VA_FLUSH runs since the model was made */
    uint64_t last_flush_root;               /* ... and the root the last one named */
    struct sysmem sys;                      /* system memory's host side (sysmem.c) */
    struct frontend fe;                     /* its queue last */
    uint8_t *fetch[WK_GPU_MAX_CALL_DEPTH + 1]; /* snapshot buffer per depth */
    uint64_t fetch_cap[WK_GPU_MAX_CALL_DEPTH + 1];
    uint64_t zero_chunk_digest;             /* digest of 4096 zero bytes */
    struct wk_gpu_fault fault_log[WK_GPU_FAULT_LOG_SIZE];
    struct wk_mem mem;                      /* what wk_gpu_mem hands out: only its address
                                             * is used, so last, off the hot fields' lines */
};

/* host.c ------------------------------------------------------------------ */

uint64_t host_stream_threshold(void);

/* sysmem.c --------------------------------------------------------------- */

/* Maps the system pool (memfd when available) at region r; 0 or -1. */
int sysmem_init(struct wk_gpu *gpu, struct region *r);
void sysmem_fini(struct wk_gpu *gpu, struct region *r);
/* Zeroes every page that may hold data; pages the host can still write
 * (live mappings, pinned pages) stay in the dirty set. */
void sysmem_reset(struct wk_gpu *gpu, struct region *r);
/* Host address of the system page holding byte `sys_off`, for a GPU access:
 * a read (write_len 0), or a write of the write_len bytes from sys_off (inside
 * the page). NULL for a read of a page that holds nothing since the last
 * reset (it reads as zeroes, and is not backed for it). */
uint8_t *sysmem_page_for(struct wk_gpu *gpu, uint64_t sys_off, uint64_t write_len);
/* Pages that may hold data (the dirty set), or the memfd's block count when
 * untracked. */
uint64_t sysmem_resident(const struct wk_gpu *gpu, const struct region *r);
/* Records that pool page `page` may now be written (by the model or the
 * host); on failure drops to the untracked mode, which is always correct. */
void sysmem_mark(struct wk_gpu *gpu, uint64_t page);
/* Gives [off, off+len) of the memfd back to the kernel: it reads as zeroes,
 * through every mapping. */
void sysmem_release(struct wk_gpu *gpu, uint64_t off, uint64_t len);
/* Whether memfd page `page` is in the set of pages that may hold data. */
int sysmem_has(const struct wk_gpu *gpu, uint64_t page);

/* segmap.c --------------------------------------------------------------- */

/* After a reset punched the hull out: the hull of the live mappings. */
void segmap_mark_live(struct wk_gpu *gpu);
/* Unmaps every segment mapping (their pointers die with the model). */
void segmap_fini(struct wk_gpu *gpu);
/* Pages of the hull the kernel holds that are not in the set (the host
 * wrote them, or read them through the model): for wk_gpu_resident_pages. */
uint64_t segmap_resident(const struct wk_gpu *gpu);

/* sysmap.c --------------------------------------------------------------- */

/* Marks the pages of every live mapping dirty (after reset zeroed them: the
 * host may write through them at any time). */
void sysmap_mark_live(struct wk_gpu *gpu);
/* Unmaps every mapping, live or idle. */
void sysmap_fini(struct wk_gpu *gpu);
/* For a pool parked with its mappings (sysmem.c): unmaps the live ones
 * (their pointers die with the model), keeps the idle ones; moves the
 * mapping list from one sysmem to another; unmaps and frees a list. */
void sysmap_keep_idle(struct wk_gpu *gpu);
void sysmap_hand_over(struct sysmem *from, struct sysmem *to);
void sysmap_release(struct sysmem *s);
/* The system region (always the last one). */
static inline struct region *sysmem_region(const struct wk_gpu *gpu)
{
    return &gpu->regions[gpu->region_count - 1];
}

/* space.c ---------------------------------------------------------------- */

/* The region holding addr, or NULL. */
struct region *space_find(const struct wk_gpu *gpu, uint64_t addr);

/* The segment with that id (1..N), or NULL. */
struct region *space_segment(const struct wk_gpu *gpu, uint32_t segment_id);

/* Checks only that [addr, addr+len) lies in one region (no GART lookups). */
struct region *space_check_region(const struct wk_gpu *gpu, uint64_t addr, uint64_t len,
                                  enum wk_gpu_fault_reason *reason, uint64_t *fault_addr);

/*
 * Checks that [addr, addr+len) is one reachable range: inside one region,
 * every aperture page translated. `via_tlb` selects the GPU view (TLB) or
 * the host view (entries). On failure fills *reason and *fault_addr.
 * Returns the region, or NULL.
 */
struct region *space_check(struct wk_gpu *gpu, uint64_t addr, uint64_t len, int via_tlb,
                           enum wk_gpu_fault_reason *reason, uint64_t *fault_addr);

/*
 * Host page holding the byte at `off` of region r (after GART translation for
 * apertures). For reads, NULL means "untouched: zeroes". For writes the page
 * is backed (the caller overwrites the `len` bytes at `off` at once, which a
 * fresh page then does not zero; len stays inside the page) and NULL means
 * the memory limit was reached. `*page_off` receives the offset in the page.
 * The range must have passed space_check.
 */
uint8_t *space_page_for_read(struct wk_gpu *gpu, struct region *r, uint64_t off, int via_tlb,
                             uint32_t *page_off);
uint8_t *space_page_for_write(struct wk_gpu *gpu, struct region *r, uint64_t off, int via_tlb,
                              uint64_t len, uint32_t *page_off);

/* The host's check of [addr, addr+len) (entries, not the TLB) as a status:
 * what wk_gpu_read, wk_gpu_digest and wk_gpu_view_begin report. WK_OK for
 * len 0 without looking (and *r untouched). */
wk_status space_host_check(struct wk_gpu *gpu, uint64_t addr, uint64_t len, struct region **r);

/* Bulk operations on a checked range; 0 on success, -1 when the memory limit
 * was reached (bytes before that point are written). */
int space_copy(struct wk_gpu *gpu, struct region *dr, uint64_t doff, struct region *sr,
               uint64_t soff, uint64_t len, int via_tlb);
/* pattern: 8 bytes, byte 0 at off (a 4-byte pattern p is p | p << 32). */
int space_fill(struct wk_gpu *gpu, struct region *r, uint64_t off, uint64_t len,
               uint64_t pattern, int via_tlb);
int space_store(struct wk_gpu *gpu, struct region *r, uint64_t off, const void *src, uint64_t len,
                int via_tlb);
void space_load(struct wk_gpu *gpu, struct region *r, uint64_t off, void *dst, uint64_t len,
                int via_tlb);

/* Adds one bank crossing when [off, off+len) of a banked segment spans
 * more than one bank. */
void space_count_banks(struct wk_gpu *gpu, const struct region *r, uint64_t off, uint64_t len);

/* mem_ops.c -------------------------------------------------------------- */

/* A description's or geometry's rejection: `why` formatted, then
 * WK_E_INVALID_ARGUMENT (desc.c); the attribute checks every call's
 * format string against its arguments. */
__attribute__((format(printf, 3, 4))) wk_status gpu_reject(char *why, size_t size, const char *fmt, ...);

/* A memory access's failure, as processor.h says it: -1 and *f (if any). */
static inline int mem_fault_set(struct wk_mem_fault *f, uint32_t reason, uint64_t addr)
{
    if (f) {
        f->reason = reason;
        f->reserved = 0;
        f->addr = addr;
    }
    return -1;
}

static inline struct wk_gpu *mem_gpu(const struct wk_mem *m)
{
    return (struct wk_gpu *)(void *)((char *)(uintptr_t)m - offsetof(struct wk_gpu, mem));
}

/* The memory system's table (wk_gpu_mem_ops). */
extern const struct wk_mem_ops mem_ops_table;

/* The table's copy of len bytes (len > 0) already known to lie in their
 * regions and to be reachable: the limit, the banks, the move, the count.
 * The kit's BLIT calls it row by row on the model's own memory (exec.c):
 * the same code as the table's copy without two region look-ups a row. */
int mem_copy_in(struct wk_gpu *gpu, struct region *dr, uint64_t dst, struct region *sr, uint64_t src, uint64_t len,
                struct wk_mem_fault *f);

/* processor.c ------------------------------------------------------------ */

/* A fence that landed: the model's last fence, its interrupt latched and
 * raised, counted (FENCE, and a processor's fence call). */
void fence_signal(struct wk_gpu *gpu, uint64_t addr, uint64_t value);

/* va_space.c ------------------------------------------------------------- */

/* VA_FLUSH on this GPU: [start, end) of every attached space whose root is
 * `root` (a FLUSH_TLB, docs/wddm-gpummu-facts.md 4.3); none such is no fault. */
void gpu_va_flush(struct wk_gpu *gpu, uint64_t root, uint64_t start, uint64_t end);
/* The attached space a submission with this root runs in (the first found
 * when several share it), or NULL. */
struct wk_va_space *gpu_va_find(const struct wk_gpu *gpu, uint64_t root);

/* exec.c ----------------------------------------------------------------- */

/* wk_gpu_exec with every address virtual, through s (built on this model's
 * memory): the buffer is fetched and its commands reach memory through the
 * space and its TLB; faults are logged as wk_gpu_exec logs them, at virtual
 * addresses. What a submission with a RING_ROOT runs (mmio.c). */
/* A sized root's entries set to `entries` for one run (the submission's
 * RING_ROOT_ENTRIES); returns what they were, to put back. */
uint32_t va_root_entries_swap(struct wk_va_space *s, uint32_t entries);
wk_status exec_virtual(struct wk_gpu *gpu, struct wk_va_space *s, uint64_t addr, uint64_t len,
                       struct wk_gpu_fault *fault);

/* gart.c ----------------------------------------------------------------- */

/* The PTE of aperture page `page` for reading (NULL: invalid, never written)
 * or for writing (NULL: memory limit). */
const struct pte *gart_peek(const struct region *r, uint64_t page);
struct pte *gart_touch(struct region *r, uint64_t page);

/* System PFN an aperture page translates to; 0 when it does not. */
int gart_translate(struct wk_gpu *gpu, struct region *r, uint64_t page, int via_tlb,
                   uint64_t *pfn);

/* TLB_FLUSH: every TLB line of the aperture to its entry. */
void gart_flush(struct wk_gpu *gpu, struct region *r);

/* opcodes.c -------------------------------------------------------------- */

/* Every name in the command table (mnemonics, operand names) is stored in
 * a zero-padded array of OPCODE_NAME_BYTES (opcodes.c), so the disassembler
 * may copy one with a single fixed-size move and find its end without a
 * byte loop. Names are shorter than that (tests/test_gpu_codec.c). */
#define OPCODE_NAME_BYTES 16u
struct opcode_name {
    char text[OPCODE_NAME_BYTES];
};

/* The command table, indexed by opcode (wk_gpu_opcode_info checks the index;
 * the decoder, which runs for every command of every input, indexes it
 * directly after its own check). */
extern const struct wk_gpu_opcode_info opcode_table[WK_GPU_OP_COUNT];

/* Width in bytes of an operand kind. */
static inline uint32_t opcode_operand_width(enum wk_gpu_operand_kind kind)
{
    switch (kind) {
    case WK_GPU_OPND_U64:
    case WK_GPU_OPND_ADDR:
    case WK_GPU_OPND_PFN:
        return 8;
    default:
        return 4;
    }
}

/*
 * The hot readers' view of the command table (decoder, validator): what
 * they need of an opcode in 24 bytes, where a public entry takes 304 and a
 * decode touched 4 or 5 of its cache lines (rarely all still in L1 between
 * two fuzz inputs). Derived from opcode_table once per process (decode.c),
 * so the table stays the single source. Offsets and lengths fit a byte
 * (tests/test_gpu_codec.c checks the table).
 */
struct opcode_view {
    uint8_t fixed_bytes;
    uint8_t operand_count;
    uint8_t wide;                /* bit i: operand i is 8 bytes wide */
    uint8_t limited;             /* bit i: operand i has a max_value */
    uint8_t segment;             /* bit i: operand i is a segment id */
    uint8_t has_list;
    uint8_t list_count_operand;
    uint8_t list_element_bytes;
    uint8_t offset[WK_GPU_MAX_OPERANDS];
    uint32_t max_list_count;
};

/* The views, indexed by opcode; built by the first call of the process
 * (whatever thread: call_once). */
const struct opcode_view *opcode_views(void);

/* A memory range a command touches. */
struct extent {
    uint64_t addr;
    uint64_t len;
};

/* The non-empty ranges a decoded command reads or writes (at most 2): what
 * both the executor and the validator check against the regions. BLIT's are
 * its bounding extents, first row start to last row end. */
uint32_t opcode_extents(const struct wk_gpu_cmd *c, struct extent out[2]);

/* decode.c --------------------------------------------------------------- */

/* The fault a wk_gpu_decode status stands for (NONE for WK_OK). */
enum wk_gpu_fault_reason decode_fault_reason(wk_status st);

/* Which rule the command at buf[offset], refused by the decoder with
 * WK_E_BAD_OPERAND, broke: the decoder's own checks in its own order, run
 * again on the fault path only, so decoding stays as fast as it was. */
void decode_explain(const struct opcode_view *views, const uint8_t *buf, uint64_t len, uint64_t offset,
                    struct wk_gpu_fault_detail *d);

/* disasm.c --------------------------------------------------------------- */

/* The words of a detail at p, without printf (the disassembler's fault line
 * and wk_gpu_fault_format share them); at most FAULT_DETAIL_BYTES, and may
 * write 16 bytes past the end it returns. */
#define FAULT_DETAIL_BYTES 176u
char *fault_put_detail(char *p, uint32_t opcode, const struct wk_gpu_fault_detail *d);

/* digest.c --------------------------------------------------------------- */

uint64_t digest_chunk(const uint8_t *buf, uint64_t n);
uint64_t digest_mix(uint64_t z);

/* faults.c --------------------------------------------------------------- */

/* A fault detail from its values; element 0 (a list element's caller sets
 * it after). */
static inline void detail_set(struct wk_gpu_fault_detail *d, enum wk_gpu_operand_rule rule, uint32_t operand,
                              uint64_t value, uint64_t arg0, uint64_t arg1)
{
    d->rule = rule;
    d->operand = operand;
    d->element = 0;
    d->value = value;
    d->arg[0] = arg0;
    d->arg[1] = arg1;
}

/* A detail that names no rule: what every fault but BAD_OPERAND carries. */
extern const struct wk_gpu_fault_detail fault_no_detail;

/* Fills a fault record member by member, the detail too. Why not build one
 * and copy it: the copy reads it back 16 bytes at a time right after it was
 * written in 4- and 8-byte pieces, which the CPU cannot forward from its
 * store buffer (a stall on every faulting exec, i.e. on most fuzz inputs);
 * a detail was likewise just written by decode_explain or operands.c.
 * top_offset is the command's own offset (right at depth 0; the executor
 * moves it to the CALL for a fault inside one); no flags. d: the detail of
 * a BAD_OPERAND (never NULL then), ignored for other reasons. */
static inline void fault_fill(struct wk_gpu_fault *f, enum wk_gpu_fault_reason why, uint32_t opcode,
                              uint64_t offset, uint64_t buffer_addr, uint32_t depth, uint64_t fault_addr,
                              const struct wk_gpu_fault_detail *d)
{
    const struct wk_gpu_fault_detail *src = why == WK_GPU_FAULT_BAD_OPERAND ? d : &fault_no_detail;
    f->reason = why;
    f->opcode = opcode;
    f->offset = offset;
    f->buffer_addr = buffer_addr;
    f->depth = depth;
    f->fault_addr = fault_addr;
    f->top_offset = offset;
    f->flags = 0;
    detail_set(&f->detail, src->rule, src->operand, src->value, src->arg[0], src->arg[1]);
    f->detail.element = src->element;
}

/* Appends a fault to the log (the first WK_GPU_FAULT_LOG_SIZE are kept) and
 * counts it. */
void fault_record(struct wk_gpu *gpu, enum wk_gpu_fault_reason why, uint32_t opcode, uint64_t offset,
                  uint64_t buffer_addr, uint32_t depth, uint64_t fault_addr, const struct wk_gpu_fault_detail *d);
/* Appends a whole record, as fault_record does. */
void fault_record_copy(struct wk_gpu *gpu, const struct wk_gpu_fault *f);

/* util ------------------------------------------------------------------- */

static inline uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
    put_le32(p, (uint32_t)v);
    put_le32(p + 4, (uint32_t)(v >> 32));
}

/* decode (inline part) ------------------------------------------------- */

/* Operands above their max_value (the rare opcodes that have one). */
int decode_over_limit(const struct wk_gpu_cmd *cmd, uint32_t limited);

/* wk_gpu_decode, given the views: inlined into the loops of the
 * disassembler, the validator and the executor (each decodes every command
 * of every input), which fetch the views once per buffer. */
static inline wk_status decode_cmd(const struct opcode_view *views, const uint8_t *buf, uint64_t len,
                                   uint64_t offset, struct wk_gpu_cmd *cmd)
{
    if (offset >= len || len - offset < 4)
        return WK_E_TRUNCATED;
    const uint8_t *p = buf + offset;
    uint64_t avail = len - offset;
    uint32_t header = le32(p);
    if ((header & 0xFF) >= WK_GPU_OP_COUNT)
        return WK_E_UNKNOWN_OPCODE;
    const struct opcode_view *op = &views[header & 0xFF];
    if (header >> 8)
        return WK_E_BAD_OPERAND; /* reserved header bits */
    if (avail < op->fixed_bytes)
        return WK_E_TRUNCATED;
    cmd->opcode = (enum wk_gpu_opcode)(header & 0xFF);
    /* All operands at once: a constant size the compiler writes inline,
     * where clearing only the unused tail was a memset call per command. */
    memset(cmd->operands, 0, sizeof(cmd->operands));
    for (uint32_t i = 0; i < op->operand_count; i++) {
        const uint8_t *at = p + op->offset[i];
        cmd->operands[i] = op->wide >> i & 1 ? le64(at) : le32(at);
    }
    if (op->limited && decode_over_limit(cmd, op->limited))
        return WK_E_BAD_OPERAND;
    cmd->list_count = 0;
    cmd->list = NULL;
    cmd->length = op->fixed_bytes;
    if (op->has_list) {
        uint64_t count = cmd->operands[op->list_count_operand];
        if (count > op->max_list_count)
            return WK_E_BAD_OPERAND;
        uint64_t bytes = count * op->list_element_bytes;
        if (avail - op->fixed_bytes < bytes)
            return WK_E_TRUNCATED;
        cmd->list_count = (uint32_t)count;
        cmd->list = count ? p + op->fixed_bytes : NULL;
        cmd->length = op->fixed_bytes + (uint32_t)bytes;
    }
    return WK_OK;
}

/* operands.c ------------------------------------------------------------- */

/*
 * The operand rules that need a model, for the validator and the executor
 * alike, so both refuse the same operands in the same words. They read
 * the layout only (a description: the model's own, or the one a memory
 * table's layout() gives the kit's processor). Each check is an inline
 * test (it runs for every GART command and CALL of every input) that,
 * when it fails, hands over to operands.c to say which rule broke: it
 * returns non-zero (or the segment) when the operands pass, else 0 (NULL)
 * with *d filled.
 */
const struct wk_gpu_segment_desc *operand_gart_refused(const struct wk_gpu_desc *desc, const struct wk_gpu_cmd *c,
                                                       struct wk_gpu_fault_detail *d);
int operand_frame_refused(const struct wk_gpu_desc *desc, uint64_t pfn, uint32_t operand, uint32_t element,
                          struct wk_gpu_fault_detail *d);
int operand_dma_refused(const struct wk_gpu_desc *desc, uint64_t len, uint32_t operand,
                        struct wk_gpu_fault_detail *d);

/* The segment with that id (1..N), or NULL. */
static inline const struct wk_gpu_segment_desc *desc_segment(const struct wk_gpu_desc *desc, uint64_t id)
{
    return id >= 1 && id <= desc->segment_count ? &desc->segments[id - 1] : NULL;
}

/* GART_MAP and GART_UNMAP: the aperture operand 0 names, with the page
 * range [first_page, first_page + count) inside it (operand 1; GART_MAP's
 * count is its list's length, GART_UNMAP's operand 2); TLB_FLUSH: the
 * aperture only. */
static inline const struct wk_gpu_segment_desc *operand_gart_target(const struct wk_gpu_desc *desc,
                                                                    const struct wk_gpu_cmd *c,
                                                                    struct wk_gpu_fault_detail *d)
{
    const struct wk_gpu_segment_desc *r = desc_segment(desc, c->operands[0]);
    if (r && r->kind == WK_GPU_SEGMENT_APERTURE) {
        uint64_t pages = r->size >> WK_GPU_PAGE_SHIFT, first = c->operands[1];
        uint64_t count = c->opcode == WK_GPU_OP_GART_MAP ? c->list_count : c->operands[2];
        if (c->opcode == WK_GPU_OP_TLB_FLUSH || (first <= pages && count <= pages - first))
            return r;
    }
    return operand_gart_refused(desc, c, d);
}

static inline int operand_pfn_ok(const struct wk_gpu_desc *desc, uint64_t pfn)
{
    return pfn >= desc->sysmem_first_pfn && pfn - desc->sysmem_first_pfn < desc->sysmem_pages;
}

/* The frames a GART command installs: GART_MAP's list, GART_UNMAP's
 * dummy_pfn (operand 3). */
static inline int operand_gart_frames(const struct wk_gpu_desc *desc, const struct wk_gpu_cmd *c,
                                      struct wk_gpu_fault_detail *d)
{
    if (c->opcode == WK_GPU_OP_GART_UNMAP)
        return operand_pfn_ok(desc, c->operands[3]) || operand_frame_refused(desc, c->operands[3], 3, 0, d);
    for (uint32_t i = 0; i < c->list_count; i++) {
        uint64_t pfn = le64(c->list + 8 * (uint64_t)i);
        if (!operand_pfn_ok(desc, pfn))
            return operand_frame_refused(desc, pfn, WK_GPU_DETAIL_LIST, i, d);
    }
    return 1;
}

/* A DMA buffer length: CALL's `bytes` (operand 1), or the submitted
 * buffer's (WK_GPU_DETAIL_NO_OPERAND). */
static inline int operand_dma_length(const struct wk_gpu_desc *desc, uint64_t len, uint32_t operand,
                                     struct wk_gpu_fault_detail *d)
{
    return len <= desc->max_dma_length || operand_dma_refused(desc, len, operand, d);
}

#endif
