/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/gpu.h - the simulated GPU ("GPU model").
 *
 * The model is what a driver under test programs: a GPU physical address
 * space holding memory segments, aperture segments and system memory, and a
 * command processor that executes DMA buffers written in the kit's command
 * set (docs/gpu-model.md gives every byte). It knows nothing of WDDM, of the
 * video memory manager or of specs; those sit on top of it.
 *
 * Address space. Every address is a 64-bit GPU physical address:
 *   - segment N (1-based, in the order of wk_gpu_desc.segments) covers
 *     [base, base + size);
 *   - a memory segment holds bytes, optionally divided into banks;
 *   - an aperture segment holds no bytes: its 4 KiB pages are redirected by
 *     a GART-style page table to pages of system memory;
 *   - system memory is a pool of 4 KiB pages with page-frame numbers (PFNs),
 *     the numbers an MDL lists. Page `pfn` lives at GPU address pfn << 12, so
 *     the pool covers [first_pfn << 12, (first_pfn + pages) << 12) and the GPU
 *     reaches it directly, as a bus master reaches host RAM.
 * Regions never overlap (wk_gpu_create rejects overlaps).
 *
 * Memory is sparse and lazy: an untouched page costs no host memory and reads
 * as zero; a 4 GiB segment costs a few KiB until it is written. Every page
 * written since the last reset is on a dirty list (a system page the host can
 * write through a pointer or mapping counts as written), so wk_gpu_reset
 * costs time proportional to what was touched, never to segment sizes. This
 * is what lets a fuzz harness reset the GPU between inputs at full speed.
 *
 * GART. Each aperture page has a page-table entry (PTE). GART_MAP/GART_UNMAP
 * write entries, but the GPU translates through its TLB, which still holds
 * the old translation until a TLB_FLUSH of that segment: a driver that maps
 * and forgets to flush sees stale translations, and the counter
 * stale_tlb_accesses says so. Host-side wk_gpu_gart_set() is the MMIO path: it
 * writes the entry and its TLB line at once.
 *
 * Faults. Execution stops at the first fault, as a real command processor
 * halts, and the fault is recorded with the byte offset of the faulting
 * command, the opcode, the buffer and the reason. On any byte sequence the
 * executor neither crashes nor loops: CALL depth, command count and bytes
 * moved are bounded by the budgets in wk_gpu_desc.
 *
 * Threading: a wk_gpu is single-threaded; separate instances are independent.
 * There is no global state.
 */
#ifndef WDDMKIT_GPU_H
#define WDDMKIT_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "wddmkit/processor.h"
#include "wddmkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WK_GPU_PAGE_SIZE 4096u
#define WK_GPU_PAGE_SHIFT 12u

/* Limits the model enforces on an adapter description. */
#define WK_GPU_MAX_SEGMENTS 31u            /* WDDM segment ids are 5 bits */
#define WK_GPU_MAX_BANKS 127u              /* DXGK_SEGMENTBANKPREFERENCE ids are 7 bits */
#define WK_GPU_MAX_REGION_SIZE (1ull << 40) /* 1 TiB per segment / system pool */
#define WK_GPU_MAX_CALL_DEPTH 16u
#define WK_GPU_MAX_OPERANDS 8u
#define WK_GPU_FAULT_LOG_SIZE 32u

/* ------------------------------------------------------------------ */
/* Adapter description                                                  */
/* ------------------------------------------------------------------ */

enum wk_gpu_segment_kind {
    WK_GPU_SEGMENT_MEMORY = 0,   /* holds bytes */
    WK_GPU_SEGMENT_APERTURE = 1, /* redirects 4 KiB pages to system memory */
};

struct wk_gpu_segment_desc {
    enum wk_gpu_segment_kind kind;
    uint64_t base;             /* GPU physical address, page aligned */
    uint64_t size;             /* bytes, a non-zero multiple of 4 KiB */
    /* Banking (memory segments only): bank_count banks; bank_ends lists the
     * end offset of banks 0 .. bank_count-2, strictly increasing, inside the
     * segment; the last bank ends at the segment end (the WDDM
     * pBankRangeTable convention). bank_count 0 or 1 means "not banked". */
    uint32_t bank_count;
    const uint64_t *bank_ends;
};

struct wk_gpu_desc {
    uint32_t segment_count;
    const struct wk_gpu_segment_desc *segments;
    uint64_t sysmem_first_pfn;    /* PFN of the first system page */
    uint64_t sysmem_pages;        /* size of the system pool, in pages */
    /* Budgets (0 = the documented default). */
    uint32_t max_call_depth;      /* default 4, at most WK_GPU_MAX_CALL_DEPTH */
    uint64_t max_commands;        /* per wk_gpu_exec call; default 1,000,000 */
    uint64_t max_bytes_moved;     /* per wk_gpu_exec call; default 4 GiB */
    uint64_t max_dma_length;      /* largest DMA buffer fetched; default 64 MiB */
    uint64_t max_resident_pages;  /* host pages backing the model; default 1 Mi (4 GiB) */
};

/*
 * The reference adapter: what the kit's tools and harnesses model when no
 * other description is given (docs/gpu-model.md, "Reference adapter"):
 *   segment 1: memory, 1 MiB at 0x100000
 *   segment 2: memory, 1 MiB at 0x400000, 4 banks of 256 KiB
 *   segment 3: aperture, 256 KiB (64 pages) at 0x800000
 *   system memory: 256 pages from PFN 0x10000 (GPU address 0x10000000)
 * Budgets are the defaults. The returned object is constant and shared.
 */
const struct wk_gpu_desc *wk_gpu_reference_desc(void);

/*
 * Whether two descriptions make the same model, whatever buffers hold them
 * (a bank count of 0 and of 1 both mean "not banked"):
 *   wk_gpu_segments_equal: the segments (kinds, bases, sizes, banks);
 *   wk_gpu_desc_equal: the segments, system memory and the budgets as
 *     written (0 and the default value differ).
 */
int wk_gpu_segments_equal(const struct wk_gpu_desc *a, const struct wk_gpu_desc *b);
int wk_gpu_desc_equal(const struct wk_gpu_desc *a, const struct wk_gpu_desc *b);

/* ------------------------------------------------------------------ */
/* Lifetime                                                             */
/* ------------------------------------------------------------------ */

struct wk_gpu;

/*
 * Whether wk_gpu_create takes this description, without building anything
 * (it runs first in wk_gpu_create): the same status and the same reason.
 *   why: OUT, optional, as for wk_gpu_create
 * Returns: WK_OK; WK_E_INVALID_ARGUMENT for a bad description.
 */
wk_status wk_gpu_check_desc(const struct wk_gpu_desc *desc, char *why, size_t why_size);

/*
 * Builds a model from an adapter description (copied; the caller may free
 * it afterwards).
 *   desc: IN, the adapter
 *   out:  OUT, the new model
 *   why:  OUT, optional, receives a one-line reason when the description is
 *         rejected (at least 128 bytes; NULL to skip)
 * Returns: WK_OK; WK_E_INVALID_ARGUMENT for a bad description (unaligned,
 * overlapping, bank table out of order, ...: wk_gpu_check_desc) or a NULL
 * out; WK_E_NO_MEMORY.
 */
wk_status wk_gpu_create(const struct wk_gpu_desc *desc, struct wk_gpu **out,
                        char *why, size_t why_size);

void wk_gpu_destroy(struct wk_gpu *gpu);

/*
 * Options of wk_gpu_create_ex; zeroed, they make what wk_gpu_create makes.
 *   mappable_segments: bit N-1 set for each memory segment N the host will
 *     map (wk_gpu_segment_map: the CPU view of video memory a BAR gives).
 *     Such a segment is backed flat, in the memfd behind system memory,
 *     instead of by sparse pool pages: its pages cost no host memory until
 *     written, as before, but count against their own size, not
 *     max_resident_pages (docs/gpu-model.md, "The CPU view of a segment").
 *     Segments left out stay sparse, exactly as before.
 * Fields are only ever appended.
 */
struct wk_gpu_options {
    uint32_t mappable_segments;
};

/*
 * wk_gpu_create with options (NULL: none). WK_E_INVALID_ARGUMENT, with the
 * reason, for a mappable bit that names no segment or an aperture.
 */
wk_status wk_gpu_create_ex(const struct wk_gpu_desc *desc, const struct wk_gpu_options *opt,
                           struct wk_gpu **out, char *why, size_t why_size);

/*
 * Asks the host now what every model's creation asks once per process (the
 * size of the last-level cache, which tunes large fills: a file read), so
 * that processes forked from this one inherit the answer. For a host that
 * forks a child per model (the conformance runner's slot processes); no
 * model need exist, and none is made.
 */
void wk_gpu_prepare_process(void);

/* Back to the freshly created state: memory zero, every PTE and TLB line
 * invalid, counters, fences and the fault log cleared. Costs time in
 * proportion to the pages and PTE blocks touched since the last reset,
 * counting as touched the system pages the host can still write (those of
 * live wk_gpu_sysmem_map mappings and of wk_gpu_sysmem_page pointers).
 * Host pointers and mappings stay valid; their pages read zero. */
void wk_gpu_reset(struct wk_gpu *gpu);

/* Number of host pages currently backing memory, PTEs and system memory
 * (for tests of the reset cost and of laziness): segment pages and PTE blocks
 * backed since the last reset, and the system pages that may hold data:
 * written since the last reset, or writable by the host since then (in a
 * wk_gpu_sysmem_map mapping live at the reset or made since; handed out by
 * wk_gpu_sysmem_page, which stays writable until wk_gpu_destroy). Right
 * after a reset it counts the pages of live mappings and of those pointers
 * (docs/gpu-model.md, "Address space"). Pages a reset released may stay
 * allocated for reuse. max_resident_pages bounds segments and PTEs; system
 * memory is bounded by its own size. */
uint64_t wk_gpu_resident_pages(const struct wk_gpu *gpu);

/* ------------------------------------------------------------------ */
/* Host (CPU-side) access                                               */
/* ------------------------------------------------------------------ */

/* Read/write len bytes at a GPU address, through the GART for apertures
 * (using the current PTEs, not the TLB). Fail without partial effect when
 * any byte is unreachable: WK_E_BAD_ADDRESS, WK_E_UNMAPPED,
 * WK_E_CROSSES_SEGMENT, WK_E_LIMIT (model memory budget). */
wk_status wk_gpu_read(struct wk_gpu *gpu, uint64_t addr, void *buf, uint64_t len);
wk_status wk_gpu_write(struct wk_gpu *gpu, uint64_t addr, const void *buf, uint64_t len);

/*
 * 64-bit digest of [addr, addr+len), for expectations on memory contents.
 * The algorithm is fixed and documented in docs/gpu-model.md ("Digest"), so a
 * spec can carry a digest computed elsewhere. Same reachability rules as
 * wk_gpu_read.
 */
wk_status wk_gpu_digest(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint64_t *out);

/* Digest of a host buffer with the same algorithm, as if it were stored at
 * a page-aligned GPU address. */
uint64_t wk_gpu_digest_bytes(const void *buf, uint64_t len);

/* The same digest fed chunk by chunk, for a caller that holds the bytes in
 * pieces (an allocation read page by page): every chunk is 4096 bytes but
 * the last, which may be shorter. wk_gpu_digest_chunk is a chunk's value (a
 * caller may reuse it for an equal chunk); wk_gpu_digest_add folds one in;
 * wk_gpu_digest_end gives the digest of the `len` bytes fed. */
uint64_t wk_gpu_digest_chunk(const void *chunk, uint64_t n);
uint64_t wk_gpu_digest_add(uint64_t state, uint64_t chunk_value);
uint64_t wk_gpu_digest_end(uint64_t state, uint64_t len);
#define WK_GPU_DIGEST_START 0xCBF29CE484222325ull

/*
 * Read-only view of [addr, addr+len) without copying: what a checker uses to
 * compare model memory in place. The range is resolved exactly as
 * wk_gpu_read resolves it (regions, banks, apertures through the current
 * PTEs, system memory) and checked whole first, with wk_gpu_read's statuses:
 * WK_E_BAD_ADDRESS, WK_E_UNMAPPED, WK_E_CROSSES_SEGMENT; then
 * wk_gpu_view_next hands out the range in order as maximal spans:
 *   data != NULL: `length` bytes of model memory, contiguous on the host;
 *   data == NULL: `length` bytes that read as zeroes (never written since the
 *                 last reset, so not backed: nothing to look at).
 * Consecutive spans never both have data == NULL, nor data that would be
 * contiguous. Nothing is backed, counted or changed; a zero-length view
 * succeeds with no spans, as a zero-length read does.
 * The struct is the caller's (no allocation); its fields are the model's.
 * Pointers are valid until the model next changes (a write, exec, GART
 * change or reset); a view must not be continued across such a change.
 */
struct wk_gpu_span {
    uint64_t addr;           /* GPU address of the first byte */
    uint64_t length;
    const uint8_t *data;     /* NULL: reads as zeroes */
};

struct wk_gpu_view {
    struct wk_gpu *gpu;      /* private to the model from here on */
    void *region;
    uint64_t offset;
    uint64_t left;
    struct wk_gpu_span next; /* the first page-sized piece of the next span */
};

wk_status wk_gpu_view_begin(struct wk_gpu *gpu, uint64_t addr, uint64_t len, struct wk_gpu_view *v);
/* 1 and the next span in *out, or 0 when the range is exhausted. */
int wk_gpu_view_next(struct wk_gpu_view *v, struct wk_gpu_span *out);

/* Aperture page-table entries, host side. `pfn` is a system page frame
 * number. wk_gpu_gart_set writes PTE and TLB line together (the MMIO path);
 * wk_gpu_gart_get returns the PTE (valid=0 when never mapped) and whether the
 * TLB holds a different, stale translation. Both return
 * WK_E_INVALID_ARGUMENT (and change nothing) for a segment that is not an
 * aperture, a page beyond it, or a frame outside system memory; gart_set
 * returns WK_E_LIMIT when the PTE block cannot be backed. */
wk_status wk_gpu_gart_set(struct wk_gpu *gpu, uint32_t segment_id, uint64_t page, uint64_t pfn);
/* wk_gpu_gart_set for `count` consecutive pages: page first_page + i gets
 * frame first_pfn + i. The whole range is checked before anything changes
 * (WK_E_INVALID_ARGUMENT); WK_E_LIMIT leaves the entries before the PTE block
 * that could not be backed set. What a fuzz harness uses to map an aperture
 * after every reset at a fraction of the per-page calls' cost. */
wk_status wk_gpu_gart_set_range(struct wk_gpu *gpu, uint32_t segment_id, uint64_t first_page,
                                uint64_t count, uint64_t first_pfn);
wk_status wk_gpu_gart_get(struct wk_gpu *gpu, uint32_t segment_id, uint64_t page,
                          int *valid, uint64_t *pfn, int *tlb_stale);

/*
 * System memory from the host (CPU) side. Pages live in shared memory, so a
 * page has one host address for its lifetime and can also be mapped again
 * elsewhere:
 *   wk_gpu_sysmem_page: the host address of page `pfn` (NULL outside the
 *     pool); valid until wk_gpu_destroy, contents zeroed by wk_gpu_reset;
 *     the page counts as written from then on (every reset zeroes it);
 *   wk_gpu_sysmem_map: maps `count` pages, in list order, at one contiguous
 *     host range (what MmGetSystemAddressForMdlSafe does with an MDL's
 *     scattered pages), between two inaccessible guard pages, so a write
 *     past the end or before the start faults at once; undo with wk_gpu_sysmem_unmap (same va
 *     and count), after which the range is inaccessible: the model keeps it
 *     that way and may return it for a later map of the same list.
 *     WK_E_INVALID_ARGUMENT for a frame outside the pool, WK_E_NOT_SUPPORTED
 *     without memfd, WK_E_NO_MEMORY.
 *   wk_gpu_sysmem_retire: ends a mapping like wk_gpu_sysmem_unmap, with no
 *     system call: the range stays readable and writable (its guard pages
 *     stay inaccessible), and a later map of the same list returns it, again
 *     with no system call. For a host that recycles the same buffers on
 *     every input (the video memory manager's DMA buffers: a page-protection
 *     change costs ~120 us on a shared mapping) and checks for stale writes
 *     itself. Its pages are zeroed by the next wk_gpu_reset and from then on
 *     count as zero: a write through a retired range after that reset is
 *     not seen by the model (the caller's contract: nothing writes there).
 */
uint8_t *wk_gpu_sysmem_page(struct wk_gpu *gpu, uint64_t pfn);
wk_status wk_gpu_sysmem_map(struct wk_gpu *gpu, const uint64_t *pfns, uint64_t count, void **va);
void wk_gpu_sysmem_unmap(struct wk_gpu *gpu, void *va, uint64_t count);
void wk_gpu_sysmem_retire(struct wk_gpu *gpu, void *va);
/*
 * wk_gpu_sysmem_mappings: the host mappings the model has made
 * (wk_gpu_sysmem_map and _map_writable) since it was created, idle ones
 * taken back not counted: what a host's test of its own steady state
 * counts.
 */
uint64_t wk_gpu_sysmem_mappings(const struct wk_gpu *gpu);
/*
 * A mapping with a read-only tail, for a host that hands out a view of
 * pages it must not see written past a point (the video memory manager's
 * DxgkDdiPatch and paging-buffer views: a write there faults at the
 * instruction):
 *   wk_gpu_sysmem_map_writable: wk_gpu_sysmem_map whose first `writable`
 *     pages are read-write and the rest read-only (writable <= count;
 *     wk_gpu_sysmem_map is writable == count). An idle mapping of the same
 *     list already laid out so is preferred: taking a retired one back then
 *     makes no system call at all;
 *   wk_gpu_sysmem_set_writable: lays a live mapping out again (a system
 *     call for the pages that change, none when none do).
 *     WK_E_INVALID_ARGUMENT: no live mapping at va, or writable > its count;
 *     WK_E_NO_MEMORY: the kernel refused, and the mapping is then
 *     inaccessible until it is unmapped.
 * wk_gpu_sysmem_retire keeps a mapping's layout for the next map that asks
 * for it.
 */
wk_status wk_gpu_sysmem_map_writable(struct wk_gpu *gpu, const uint64_t *pfns, uint64_t count, uint64_t writable,
                                     void **va);
wk_status wk_gpu_sysmem_set_writable(struct wk_gpu *gpu, void *va, uint64_t writable);

/*
 * The CPU view of a memory segment made mappable at create time
 * (wk_gpu_options.mappable_segments): a host mapping of the segment's own
 * bytes [offset, offset + bytes), so what the host writes there is what
 * wk_gpu_read, views and the GPU's commands see, and the other way round;
 * wk_gpu_reset zeroes both. The mapping covers the pages of the range
 * between two inaccessible guard pages; *va is the byte at `offset` (a
 * range need not be page aligned, as MmMapIoSpace's need not). Until the
 * next reset after its unmap, every page a live mapping covers may hold
 * data (wk_gpu_resident_pages counts those the host did write).
 * WK_E_INVALID_ARGUMENT: no such segment, bytes 0, or a NULL va;
 * WK_E_CROSSES_SEGMENT: the range runs past the segment;
 * WK_E_NOT_SUPPORTED: the segment is not mappable; WK_E_LIMIT: more than
 * WK_GPU_MAX_SEGMENT_MAPS live mappings; WK_E_NO_MEMORY.
 * wk_gpu_segment_unmap takes the address map returned: the whole mapping
 * goes (a stale pointer faults); WK_E_NOT_FOUND for any other address.
 * wk_gpu_destroy unmaps what is left.
 */
#define WK_GPU_MAX_SEGMENT_MAPS 64u
wk_status wk_gpu_segment_map(struct wk_gpu *gpu, uint32_t segment_id, uint64_t offset, uint64_t bytes,
                             void **va);
wk_status wk_gpu_segment_unmap(struct wk_gpu *gpu, void *va);

/*
 * The model's memory system as processor.h's table: what a command
 * processor (a binding's, or the kit's own) reaches memory through, by
 * spans. The handle is valid as long as the model; the table is constant
 * and shared (docs/gpu-model.md, "The memory system and command processors").
 */
struct wk_mem;
struct wk_mem_ops;
struct wk_mem *wk_gpu_mem(struct wk_gpu *gpu);
const struct wk_mem_ops *wk_gpu_mem_ops(void);

/* ------------------------------------------------------------------ */
/* Segment table                                                        */
/* ------------------------------------------------------------------ */

struct wk_gpu_location {
    uint32_t segment_id;   /* 1..N, or 0 for system memory */
    uint64_t offset;       /* byte offset inside the segment / system pool */
    uint32_t bank;         /* 0-based bank in a banked memory segment, else 0 */
};

/* Which region holds addr. WK_E_BAD_ADDRESS when none does. */
wk_status wk_gpu_locate(const struct wk_gpu *gpu, uint64_t addr, struct wk_gpu_location *loc);

/* The description the model was built from (segments copied, ids 1..N). */
const struct wk_gpu_desc *wk_gpu_description(const struct wk_gpu *gpu);

/* ------------------------------------------------------------------ */
/* Command set: the opcode table drives decoder, encoder, validator and   */
/* disassembler. Byte layouts: docs/gpu-model.md.                        */
/* ------------------------------------------------------------------ */

/* X(name, opcode, mnemonic); opcodes in lower-case hex, as the disassembler
 * prints them (gpu-model/disasm.c stringizes them). */
#define WK_GPU_OPCODE_MAP(X)                   \
    X(WK_GPU_OP_NOP, 0x00, "NOP")              \
    X(WK_GPU_OP_COPY, 0x01, "COPY")            \
    X(WK_GPU_OP_FILL, 0x02, "FILL")            \
    X(WK_GPU_OP_WRITE32, 0x03, "WRITE32")      \
    X(WK_GPU_OP_WRITE64, 0x04, "WRITE64")      \
    X(WK_GPU_OP_FENCE, 0x05, "FENCE")          \
    X(WK_GPU_OP_GART_MAP, 0x06, "GART_MAP")    \
    X(WK_GPU_OP_GART_UNMAP, 0x07, "GART_UNMAP") \
    X(WK_GPU_OP_TLB_FLUSH, 0x08, "TLB_FLUSH")  \
    X(WK_GPU_OP_CALL, 0x09, "CALL")            \
    X(WK_GPU_OP_BLIT, 0x0a, "BLIT")            \
    X(WK_GPU_OP_VA_FLUSH, 0x0b, "VA_FLUSH")

enum wk_gpu_opcode {
#define WK_GPU_OPCODE_ENUM_(name, code, mnem) name = (code),
    WK_GPU_OPCODE_MAP(WK_GPU_OPCODE_ENUM_)
#undef WK_GPU_OPCODE_ENUM_
    WK_GPU_OP_COUNT
};

/* What an operand means; drives printing, validation and patching. */
enum wk_gpu_operand_kind {
    WK_GPU_OPND_U32 = 0,   /* 32-bit value */
    WK_GPU_OPND_U64,       /* 64-bit value */
    WK_GPU_OPND_ADDR,      /* 64-bit GPU address: what a patch location fills */
    WK_GPU_OPND_SEGMENT,   /* 32-bit aperture segment id */
    WK_GPU_OPND_COUNT,     /* 32-bit element count of the trailing list */
    WK_GPU_OPND_PFN,       /* 64-bit system page frame number */
};

struct wk_gpu_operand_info {
    const char *name;              /* as the disassembler prints it */
    enum wk_gpu_operand_kind kind;
    uint32_t byte_offset;          /* from the start of the command */
    uint64_t max_value;            /* largest value decode accepts; 0 = any */
    int print_hex;                 /* the disassembler prints it in hex */
};

struct wk_gpu_opcode_info {
    enum wk_gpu_opcode opcode;
    const char *mnemonic;
    uint32_t fixed_bytes;          /* header + fixed operands */
    uint32_t operand_count;        /* fixed operands */
    struct wk_gpu_operand_info operands[WK_GPU_MAX_OPERANDS];
    /* Trailing list: list_count_operand names the COUNT operand, each element
     * is list_element_bytes wide and of kind list_kind. has_list 0: none. */
    int has_list;
    uint32_t list_count_operand;
    enum wk_gpu_operand_kind list_kind;
    uint32_t list_element_bytes;
    uint32_t max_list_count;
};

/* The table entry for an opcode, or NULL when the opcode is undefined. */
const struct wk_gpu_opcode_info *wk_gpu_opcode_info(uint32_t opcode);

/* A decoded command. `list` points into the decoded buffer (not copied). */
struct wk_gpu_cmd {
    enum wk_gpu_opcode opcode;
    uint64_t operands[WK_GPU_MAX_OPERANDS];
    uint32_t list_count;
    const uint8_t *list;           /* list_count little-endian elements */
    uint32_t length;               /* total bytes of the command */
};

/* Bytes a command takes, given the length of its trailing list (0 for
 * commands without one). 0 for an undefined opcode or a list too long. */
uint32_t wk_gpu_cmd_size(enum wk_gpu_opcode opcode, uint32_t list_count);

/*
 * Decodes the command at buf[offset] into *cmd (filled only on success).
 * Returns: WK_OK; WK_E_TRUNCATED (the command runs past len);
 * WK_E_UNKNOWN_OPCODE; WK_E_BAD_OPERAND (reserved header bits set, list count
 * over its maximum).
 */
wk_status wk_gpu_decode(const uint8_t *buf, uint64_t len, uint64_t offset,
                        struct wk_gpu_cmd *cmd);

/* Buffer writer used by drivers to build DMA buffers. */
struct wk_gpu_writer {
    uint8_t *buf;
    uint64_t capacity;
    uint64_t used;
};

static inline void wk_gpu_writer_init(struct wk_gpu_writer *w, void *buf, uint64_t capacity)
{
    w->buf = (uint8_t *)buf;
    w->capacity = capacity;
    w->used = 0;
}

/*
 * Encodes one command: cmd->opcode, cmd->operands (the COUNT operand is
 * taken from cmd->list_count) and cmd->list (list_count elements, little
 * endian, may be NULL when list_count is 0). Writes nothing and returns
 * WK_E_NO_SPACE when the command does not fit; WK_E_UNKNOWN_OPCODE,
 * WK_E_BAD_OPERAND (a 32-bit operand above 0xFFFFFFFF, a list too long).
 * *at (optional) receives the byte offset the command starts at.
 */
wk_status wk_gpu_emit(struct wk_gpu_writer *w, const struct wk_gpu_cmd *cmd, uint64_t *at);

/* Convenience encoders over wk_gpu_emit. */
wk_status wk_gpu_emit_nop(struct wk_gpu_writer *w);
wk_status wk_gpu_emit_copy(struct wk_gpu_writer *w, uint64_t src, uint64_t dst, uint64_t bytes);
wk_status wk_gpu_emit_fill(struct wk_gpu_writer *w, uint64_t dst, uint64_t bytes, uint32_t pattern);
wk_status wk_gpu_emit_write32(struct wk_gpu_writer *w, uint64_t addr, uint32_t value);
wk_status wk_gpu_emit_write64(struct wk_gpu_writer *w, uint64_t addr, uint64_t value);
wk_status wk_gpu_emit_fence(struct wk_gpu_writer *w, uint64_t addr, uint64_t value);
wk_status wk_gpu_emit_gart_map(struct wk_gpu_writer *w, uint32_t segment_id, uint32_t first_page,
                               uint32_t count, const uint64_t *pfns);
wk_status wk_gpu_emit_gart_unmap(struct wk_gpu_writer *w, uint32_t segment_id, uint32_t first_page,
                                 uint32_t count, uint64_t dummy_pfn);
wk_status wk_gpu_emit_tlb_flush(struct wk_gpu_writer *w, uint32_t segment_id);
wk_status wk_gpu_emit_call(struct wk_gpu_writer *w, uint64_t addr, uint32_t bytes);
wk_status wk_gpu_emit_blit(struct wk_gpu_writer *w, uint64_t src, uint64_t dst, uint32_t width,
                           uint32_t height, uint32_t src_pitch, uint32_t dst_pitch);
/* VA_FLUSH: the TLB lines of [start, end) of every address space whose root
 * table is at `root` (a GPU physical address); start == end == 0: all of
 * them (DXGK_BUILDPAGINGBUFFER_FLUSHTLB, docs/wddm-gpummu-facts.md 4.3). */
wk_status wk_gpu_emit_va_flush(struct wk_gpu_writer *w, uint64_t root, uint64_t start, uint64_t end);

/* Byte offset of operand `index` inside a command of that opcode, e.g. where
 * a patch location must point to fill BLIT's destination address. UINT32_MAX
 * for an undefined opcode or operand. */
uint32_t wk_gpu_operand_offset(enum wk_gpu_opcode opcode, uint32_t index);

/* ------------------------------------------------------------------ */
/* Faults                                                               */
/* ------------------------------------------------------------------ */

/* X(name, number, message) */
#define WK_GPU_FAULT_MAP(X)                                                         \
    X(WK_GPU_FAULT_NONE, 0, "no fault")                                             \
    X(WK_GPU_FAULT_UNKNOWN_OPCODE, 1, "unknown opcode")                             \
    X(WK_GPU_FAULT_TRUNCATED, 2, "command truncated by the end of the buffer")      \
    X(WK_GPU_FAULT_BAD_ADDRESS, 3, "address outside every segment")                 \
    X(WK_GPU_FAULT_UNMAPPED_APERTURE, 4, "unmapped aperture page")                  \
    X(WK_GPU_FAULT_CROSSES_SEGMENT, 5, "access crosses a segment end")              \
    X(WK_GPU_FAULT_CALL_DEPTH, 6, "call depth exceeded")                            \
    X(WK_GPU_FAULT_BUDGET, 7, "command budget exceeded")                            \
    X(WK_GPU_FAULT_BAD_OPERAND, 8, "operand holds a forbidden value")               \
    X(WK_GPU_FAULT_MEMORY_LIMIT, 9, "model memory limit reached")                  \
    X(WK_GPU_FAULT_DEVICE_ERROR, 10, "device error (the kit's, not the buffer's)")  \
    X(WK_GPU_FAULT_VA_UNMAPPED, 11, "GPU virtual address not mapped")               \
    X(WK_GPU_FAULT_VA_READ_ONLY, 12, "write to a read-only GPU virtual page")        \
    X(WK_GPU_FAULT_BAD_PTE, 13, "page-table entry the MMU cannot read")              \
    X(WK_GPU_FAULT_NO_ADDRESS_SPACE, 14, "no attached address space has the submission's root")

enum wk_gpu_fault_reason {
#define WK_GPU_FAULT_ENUM_(name, num, msg) name = (num),
    WK_GPU_FAULT_MAP(WK_GPU_FAULT_ENUM_)
#undef WK_GPU_FAULT_ENUM_
    WK_GPU_FAULT_REASON_COUNT
};

const char *wk_gpu_fault_name(enum wk_gpu_fault_reason r);   /* "UNKNOWN_OPCODE" */
const char *wk_gpu_fault_message(enum wk_gpu_fault_reason r);

/* Whether a fault of this reason is about memory, i.e. fault_addr holds the
 * address that faulted (BAD_ADDRESS, UNMAPPED_APERTURE, CROSSES_SEGMENT,
 * MEMORY_LIMIT, and the virtual ones: VA_UNMAPPED, VA_READ_ONLY, BAD_PTE),
 * or, for NO_ADDRESS_SPACE, the root table address the submission asked
 * for (RING_ROOT); an address of 0 is an address like any other. */
int wk_gpu_fault_has_address(enum wk_gpu_fault_reason r);

/* Whether the fault is the MMU's: an address of an address space it could
 * not use (VA_UNMAPPED, VA_READ_ONLY, BAD_PTE), what a GpuMmu driver
 * reports as a page fault (DXGK_INTERRUPT_DMA_PAGE_FAULTED). */
int wk_gpu_fault_is_translation(enum wk_gpu_fault_reason r);

/* X(name, number, message): the operand rules a BAD_OPERAND fault can break
 * (docs/gpu-model.md, "Command encoding" and "Faults"). */
#define WK_GPU_OPERAND_RULE_MAP(X)                                                   \
    X(WK_GPU_RULE_NONE, 0, "no operand rule broken")                                 \
    X(WK_GPU_RULE_HEADER_RESERVED, 1, "reserved header bits set")                    \
    X(WK_GPU_RULE_OVER_MAXIMUM, 2, "operand over its maximum")                       \
    X(WK_GPU_RULE_NO_SEGMENT, 3, "segment operand names no segment")                 \
    X(WK_GPU_RULE_NOT_APERTURE, 4, "segment operand names a memory segment")         \
    X(WK_GPU_RULE_PAGES_PAST_APERTURE, 5, "page range runs past the aperture")       \
    X(WK_GPU_RULE_PFN_OUTSIDE_SYSMEM, 6, "frame number outside system memory")       \
    X(WK_GPU_RULE_DMA_TOO_LONG, 7, "DMA buffer longer than max_dma_length")

enum wk_gpu_operand_rule {
#define WK_GPU_RULE_ENUM_(name, num, msg) name = (num),
    WK_GPU_OPERAND_RULE_MAP(WK_GPU_RULE_ENUM_)
#undef WK_GPU_RULE_ENUM_
    WK_GPU_RULE_COUNT
};

const char *wk_gpu_operand_rule_name(enum wk_gpu_operand_rule r);   /* "NOT_APERTURE" */
const char *wk_gpu_operand_rule_message(enum wk_gpu_operand_rule r);

/* wk_gpu_fault_detail.operand when the rule is about no operand of the
 * table (the header, the length of the submitted buffer), or about an
 * element of the trailing list. */
#define WK_GPU_DETAIL_NO_OPERAND 0xFFFFFFFFu
#define WK_GPU_DETAIL_LIST 0xFFFFFFFEu

/*
 * Which operand a BAD_OPERAND fault refused, and why, as values: recording
 * it costs no formatting (a fuzzer's inputs fault on most runs);
 * wk_gpu_fault_detail_text words it. The validator and the executor fill it
 * from the same checks, so the same command gets the same detail from both.
 *   rule                 value            arg[0]               arg[1]
 *   HEADER_RESERVED      header & ~0xFF   -                    -
 *   OVER_MAXIMUM         the operand      its maximum          -
 *   NO_SEGMENT           segment id       segment count        -
 *   NOT_APERTURE         segment id       -                    -
 *   PAGES_PAST_APERTURE  first_page       page count           aperture pages
 *   PFN_OUTSIDE_SYSMEM   the frame        first system PFN     system pages
 *   DMA_TOO_LONG         the length       max_dma_length       -
 */
struct wk_gpu_fault_detail {
    enum wk_gpu_operand_rule rule;   /* WK_GPU_RULE_NONE: no detail (other reasons) */
    uint32_t operand;     /* index in the opcode's table entry, or WK_GPU_DETAIL_* */
    uint32_t element;     /* WK_GPU_DETAIL_LIST: which list element */
    uint64_t value;
    uint64_t arg[2];
};

/* Flags of a fault record. */
#define WK_GPU_FAULT_STATIC 0x1u   /* found by wk_gpu_validate: no buffer was fetched, so
                                    * buffer_addr and depth say nothing */

struct wk_gpu_fault {
    enum wk_gpu_fault_reason reason;
    uint32_t opcode;          /* first byte of the faulting command (0xFFFFFFFF: none read) */
    uint64_t offset;          /* byte offset of the command in its buffer */
    uint64_t buffer_addr;     /* GPU address of the buffer holding it */
    uint32_t depth;           /* 0 = the submitted buffer, 1 = first CALL level, ... */
    uint64_t fault_addr;      /* the address that faulted (wk_gpu_fault_has_address), else 0;
                               * NO_ADDRESS_SPACE: the root asked for */
    /* Appended fields: initializers of the fields above still compile. */
    uint64_t top_offset;      /* offset in the submitted buffer of the depth-0 command that
                               * led here: `offset` at depth 0, else the CALL that nests it */
    uint32_t flags;           /* WK_GPU_FAULT_STATIC */
    struct wk_gpu_fault_detail detail; /* BAD_OPERAND: the operand and the rule */
};

/* Faults recorded since the last reset: the first WK_GPU_FAULT_LOG_SIZE are
 * kept, *total counts them all. Returns the number copied to out (<= max). */
uint32_t wk_gpu_faults(const struct wk_gpu *gpu, struct wk_gpu_fault *out, uint32_t max,
                       uint64_t *total);

/* Writes "UNMAPPED_APERTURE at +0x40 (COPY) in buffer 0x1000 depth 0: address 0x...":
 * the address for memory faults, the detail for BAD_OPERAND ("... depth 0:
 * segment 1 is not an aperture"); a static fault (WK_GPU_FAULT_STATIC) has
 * no buffer nor depth ("BAD_OPERAND at +0x0 (GART_MAP): segment 1 is ..."). */
void wk_gpu_fault_format(const struct wk_gpu_fault *f, char *buf, size_t size);

/* The detail alone ("pfns[2] 0x5 outside system memory (256 pages from PFN
 * 0x10000)"; "" when the fault has none). Fits 192 bytes. */
void wk_gpu_fault_detail_text(const struct wk_gpu_fault *f, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Execution                                                            */
/* ------------------------------------------------------------------ */

/* Called when a FENCE command completes: the GPU raises an interrupt. */
typedef void wk_gpu_interrupt_fn(void *user, uint64_t fence_addr, uint64_t fence_value);

void wk_gpu_set_interrupt_handler(struct wk_gpu *gpu, wk_gpu_interrupt_fn *fn, void *user);

/*
 * Executes the DMA buffer [addr, addr+len), fetched through whatever region
 * holds it (a snapshot is taken before the first command runs, as a command
 * processor prefetches; CALL fetches its target when it runs).
 *   fault: OUT, optional: the fault that stopped execution (reason NONE when
 *          the buffer ran to its end). Also appended to the fault log.
 * Returns: WK_OK when the buffer ran to its end; WK_E_GPU_FAULT otherwise.
 */
wk_status wk_gpu_exec(struct wk_gpu *gpu, uint64_t addr, uint64_t len, struct wk_gpu_fault *fault);

/* Executes commands from a host buffer, as if it had been fetched from
 * buffer_addr (which is only used in fault records and for no other purpose). */
wk_status wk_gpu_exec_bytes(struct wk_gpu *gpu, const uint8_t *buf, uint64_t len,
                            uint64_t buffer_addr, struct wk_gpu_fault *fault);

/* ------------------------------------------------------------------ */
/* Command processors (processor.h)                                     */
/* ------------------------------------------------------------------ */

struct wk_processor_ops;
struct wk_exec_fault;

/* What wk_gpu_exec_processor found wrong with a processor's answer: the
 * binding's fault (BIND-* rules), never the driver's. */
enum wk_exec_misbehaved {
    WK_EXEC_MISBEHAVED_NONE = 0,
    WK_EXEC_MISBEHAVED_RESULT = 1,   /* exec returned other than 0 or 1, a fault class outside
                                      * the enum, or an offset outside [start, end) */
    WK_EXEC_MISBEHAVED_BUDGET = 2,   /* ran to the end after spend returned -1 (BIND-BUDGET-001) */
};

/*
 * Runs bytes[start, end) of the buffer at buffer_addr with processor p
 * (self: its per-adapter object) on this model's memory: what the kit does
 * with a binding's buffer (docs/gpu-model.md, "The memory system and
 * command processors"). The run's budget is the description's
 * max_commands and max_bytes_moved; a fence the processor signals becomes
 * the model's last fence and raises its interrupt, as FENCE does.
 *   fault:      OUT, optional: where it faulted (cls NONE when it ran to the end)
 *   misbehaved: OUT, optional: a WK_EXEC_MISBEHAVED_* code
 * Returns: WK_OK (ran to the end); WK_E_GPU_FAULT (faulted: the fault is
 * also in the fault log, its class mapped to a wk_gpu_fault_reason);
 * WK_E_INVALID_ARGUMENT for bad arguments or a processor that misbehaved
 * (*misbehaved says how; nothing is logged).
 */
wk_status wk_gpu_exec_processor(struct wk_gpu *gpu, const struct wk_processor_ops *p, void *self,
                                uint64_t buffer_addr, uint64_t start, uint64_t end, const uint8_t *bytes,
                                uint32_t flags, uint32_t fence_id, struct wk_exec_fault *fault,
                                uint32_t *misbehaved);

/*
 * The kit's own command set as a processor: the code wk_gpu_exec runs,
 * reaching memory through the run's table only, its budget and fences
 * through the run's wk_exec_ops, so it runs on any memory system as a
 * binding's processor does. Its fault classes: DECODE (UNKNOWN_OPCODE,
 * TRUNCATED), OPERAND (BAD_OPERAND), MEMORY, BUDGET, STATE (CALL_DEPTH);
 * code is the wk_gpu_fault_reason. The model's commands and calls
 * counters, which are no memory system's, count wk_gpu_exec's runs only.
 * self is unused (NULL).
 */
const struct wk_processor_ops *wk_gpu_kit_processor(void);

/* Appends a fault record to the log and counts it, as an exec's fault is
 * (for a caller that runs buffers outside the model). WK_E_INVALID_ARGUMENT
 * for a reason outside the enum. */
wk_status wk_gpu_fault_record(struct wk_gpu *gpu, const struct wk_gpu_fault *f);

/* ------------------------------------------------------------------ */
/* GPU virtual addresses (docs/gpu-model.md, "GPU virtual addresses")   */
/* ------------------------------------------------------------------ */

/*
 * The kit's GPU's MMU. Page tables of 512 entries of 8 bytes (one 4 KiB
 * page each), WK_GPU_MMU_LEVELS levels, 4 KiB pages: a 39-bit virtual
 * address. An entry, little-endian:
 *   bit 0        VALID
 *   bit 1        READ_ONLY (leaf entries: a write faults VA_READ_ONLY)
 *   bits 12..51  the GPU physical address of the next table or the page
 *   other bits   reserved, 0: an entry with one set faults BAD_PTE
 * wk_gpu_mmu_geometry() is that tree (struct wk_mmu_geometry, processor.h);
 * wk_gpu_mmu_decode reads an entry (wk_mmu_decode_fn: self unused) and
 * wk_gpu_mmu_entry makes one (address page aligned, below 2^52).
 */
#define WK_GPU_MMU_LEVELS 3u
#define WK_GPU_PTE_VALID 0x1ull
#define WK_GPU_PTE_READ_ONLY 0x2ull
#define WK_GPU_PTE_ADDRESS_MASK 0x000FFFFFFFFFF000ull
const struct wk_mmu_geometry *wk_gpu_mmu_geometry(void);
/* The kit's GPU walks a two-level tree too: leaf tables of 512 such
 * entries under one root of up to 2^18 (a 39-bit address), whose size the
 * driver chooses and programs in RING_ROOT_ENTRIES (the root of
 * DXGK_GPUMMUCAPS.PageTableLevelCount 2, which the kernel sizes through
 * DxgkDdiGetRootPageTableSize). This is that tree at its widest. */
#define WK_GPU_MMU_ROOT_BITS_MAX 18u
const struct wk_mmu_geometry *wk_gpu_mmu_geometry_two_level(void);
int wk_gpu_mmu_decode(void *self, uint32_t level, const uint8_t *entry, uint32_t entry_bytes,
                      struct wk_mmu_entry *out);
uint64_t wk_gpu_mmu_entry(uint64_t address, uint64_t flags);

/* Whether a geometry is one the kit walks: 1 to WK_MMU_MAX_LEVELS levels,
 * index_bits 1 to 20, entry_bytes 4, 8 or 16, page_shift 12 to 21, and at
 * most 64 address bits in all. WK_E_INVALID_ARGUMENT and why otherwise. */
wk_status wk_mmu_check_geometry(const struct wk_mmu_geometry *g, char *why, size_t why_size);
/* Bits of a virtual address in the geometry (page_shift + every level's). */
uint32_t wk_mmu_va_bits(const struct wk_mmu_geometry *g);

/*
 * An address space: the tree whose root table is at `root` (a GPU
 * physical address), read from a memory system by a geometry and an entry
 * reader, with a TLB. It is itself a memory system (wk_va_mem with
 * wk_va_mem_ops): a processor given it runs with virtual addresses, every
 * access translated page by page and checked whole before any effect, as
 * processor.h asks. Spans, copies and fills are cut at page boundaries.
 *
 * The TLB: a GPU access translates through a line of the TLB when it has
 * one for the page, and fills one when it walks; the lines outlive a run
 * and a change of the tables, until wk_va_flush drops them, as a GPU's
 * TLB keeps translations until its driver invalidates them (FLUSH_TLB,
 * facts P21). An access through a line the tables no longer agree with
 * uses the line (the hardware's stale translation) and is counted
 * (stale_accesses). Host accesses (WK_MEM_HOST) walk the tables, no TLB.
 *
 * Faults (wk_mem_fault.reason, .addr the virtual address): VA_UNMAPPED
 * (an entry not VALID), VA_READ_ONLY (a write to a read-only page),
 * BAD_PTE (an entry the reader refused, or a table the walk cannot read:
 * .addr still the virtual address), BAD_ADDRESS (beyond the geometry's
 * bits); a physical fault of the page's own access keeps its reason, at
 * the virtual address.
 *
 * The space holds no reference to the memory system: it must not outlive
 * it. GART operations and the layout go to the physical memory system.
 */
struct wk_va_space;
struct wk_va_space_config {
    struct wk_mem *mem;                     /* the physical memory system */
    const struct wk_mem_ops *mem_ops;
    const struct wk_mmu_geometry *geometry; /* copied */
    wk_mmu_decode_fn *decode;
    void *decode_self;
    uint64_t root;                          /* GPU physical address of the root table */
};
wk_status wk_va_space_create(const struct wk_va_space_config *cfg, struct wk_va_space **out, char *why,
                             size_t why_size);
void wk_va_space_destroy(struct wk_va_space *s);
/* A new root table (DxgkDdiSetRootPageTable); the TLB is kept: a root
 * change is not a flush. */
void wk_va_space_set_root(struct wk_va_space *s, uint64_t root);
/* The root holds `entries` entries (a resizable root, the root of a
 * two-level tree: DXGKARG_SETROOTPAGETABLE.NumEntries): from now on a
 * virtual address whose root index is at or past the count faults
 * VA_UNMAPPED, before the TLB, in every walk. A submission of the kit's
 * GPU (wk_gpu_run) runs under the count it latched from
 * RING_ROOT_ENTRIES instead, what the driver programmed. A space whose
 * root was never sized has no such bound. */
void wk_va_space_set_root_entries(struct wk_va_space *s, uint32_t entries);
int wk_va_space_root_sized(const struct wk_va_space *s);
/* Drops the TLB lines of pages in [start, end); start == end == 0: every
 * line (FLUSH_TLB's "entire VA range", facts P21). */
void wk_va_flush(struct wk_va_space *s, uint64_t start, uint64_t end);
/* The TLB lines that hold a page of [start, end): how many, and the
 * lowest such page's address in *first (when not NULL and some do). What
 * a FLUSH_TLB of the range must leave at 0. */
uint32_t wk_va_cached(const struct wk_va_space *s, uint64_t start, uint64_t end, uint64_t *first);
/* What the tables say of va now, through no TLB: 0 and *pa (the GPU
 * physical address of va's byte) and *read_only, or -1 and *f. */
int wk_va_translate(const struct wk_va_space *s, uint64_t va, uint64_t *pa, uint32_t *read_only,
                    struct wk_mem_fault *f);
struct wk_mem *wk_va_mem(struct wk_va_space *s);
const struct wk_mem_ops *wk_va_mem_ops(void);

struct wk_va_counters {
    uint64_t walks;            /* tables walked for a GPU access (TLB misses) */
    uint64_t tlb_hits;
    uint64_t stale_accesses;   /* pages reached through a line the tables no longer give */
    uint64_t flushes;
};
void wk_va_counters(const struct wk_va_space *s, struct wk_va_counters *out);

/*
 * The address spaces that run on a GPU: what its VA_FLUSH command flushes
 * (docs/gpu-model.md, "GPU virtual addresses"). VA_FLUSH root start end drops the lines
 * of [start, end) (0, 0: every line) of each attached space whose root
 * (wk_va_space_set_root) is `root`; none matching is no fault, as a GPU
 * flushing a space no engine runs. The GPU holds the pointers only: a space
 * is detached before it is destroyed. Attachments outlive wk_gpu_reset,
 * as the interrupt callback does. A submission whose RING_ROOT is a space's
 * root runs in it (wk_gpu_run).
 *   wk_gpu_va_attach: WK_OK (also when already attached); WK_E_LIMIT when
 *     WK_GPU_MAX_VA_SPACES are attached; WK_E_INVALID_ARGUMENT for NULL.
 *   wk_gpu_va_detach: WK_OK; WK_E_NOT_FOUND when s is not attached.
 */
#define WK_GPU_MAX_VA_SPACES 64u
wk_status wk_gpu_va_attach(struct wk_gpu *gpu, struct wk_va_space *s);
wk_status wk_gpu_va_detach(struct wk_gpu *gpu, struct wk_va_space *s);

/* wk_gpu_exec_processor with the processor's memory the address space s
 * (built on this model's memory): every address it uses is virtual. */
wk_status wk_gpu_exec_processor_va(struct wk_gpu *gpu, struct wk_va_space *s, const struct wk_processor_ops *p,
                                   void *self, uint64_t buffer_addr, uint64_t start, uint64_t end,
                                   const uint8_t *bytes, uint32_t flags, uint32_t fence_id,
                                   struct wk_exec_fault *fault, uint32_t *misbehaved);

/* ------------------------------------------------------------------ */
/* Register interface (the adapter's BAR, as a driver sees it)          */
/* ------------------------------------------------------------------ */

/*
 * 32-bit registers, docs/gpu-model.md ("Registers"). A driver submits a DMA
 * buffer by writing RING_ADDR_LO/HI, RING_LENGTH and RING_TAG, then
 * DOORBELL; the submission waits in a queue of WK_GPU_QUEUE_SIZE until the
 * GPU runs (wk_gpu_run, called by whoever plays time: the kit's scheduler).
 * Each finished submission sets IRQ_STATUS bits, which stay set until
 * written back to IRQ_ACK.
 *
 * RING_ROOT picks the address space a submission runs in, as a GpuMmu
 * driver makes its context's root page table (DxgkDdiSetRootPageTable)
 * active before a DxgkDdiSubmitCommandVirtual buffer runs: 0, a physical
 * submission (every address a GPU physical address); otherwise the GPU
 * physical address of a root table, and the submission runs in the
 * attached space (wk_gpu_va_attach) with that root, RING_ADDR and every
 * address of its commands virtual. DOORBELL latches it with the rest.
 *
 * RING_ROOT_ENTRIES bounds the root of a two-level tree, whose size the
 * driver chose (DxgkDdiGetRootPageTableSize): a virtual address whose
 * root index is at or past it faults VA_UNMAPPED, as the GPU must for
 * DXGKARG_SETROOTPAGETABLE.NumEntries. DOORBELL latches it too; the
 * GPU reads it for a space with a sized root only (wk_va_space_set_root_entries),
 * so a three-level tree's submissions never need it.
 *
 * A faulted submission leaves FAULT_TAG, FAULT_REASON and FAULT_ADDR: for
 * VA_UNMAPPED, VA_READ_ONLY and BAD_PTE the GPU virtual address the MMU
 * could not use (VA_READ_ONLY: a write), as a GpuMmu driver reports it in
 * a DMA_PAGE_FAULTED interrupt.
 */
#define WK_GPU_REG_ID 0x000            /* RO: WK_GPU_ID */
#define WK_GPU_REG_RING_ADDR_LO 0x010  /* RW */
#define WK_GPU_REG_RING_ADDR_HI 0x014  /* RW */
#define WK_GPU_REG_RING_LENGTH 0x018   /* RW: bytes */
#define WK_GPU_REG_RING_TAG 0x01C      /* RW: reported back as COMPLETED_TAG */
#define WK_GPU_REG_DOORBELL 0x020      /* WO: queue {addr, length, tag, root} */
#define WK_GPU_REG_QUEUE_DEPTH 0x024   /* RO: submissions waiting */
#define WK_GPU_REG_IRQ_STATUS 0x030    /* RO: WK_GPU_IRQ_* bits */
#define WK_GPU_REG_IRQ_ACK 0x034       /* WO: write 1s to clear */
#define WK_GPU_REG_COMPLETED_TAG 0x038 /* RO: tag of the last finished submission */
#define WK_GPU_REG_FAULT_TAG 0x03C     /* RO: tag of the last faulted submission */
#define WK_GPU_REG_FAULT_REASON 0x040  /* RO: enum wk_gpu_fault_reason */
#define WK_GPU_REG_FENCE_LO 0x044      /* RO: last FENCE value */
#define WK_GPU_REG_FENCE_HI 0x048
#define WK_GPU_REG_GART_SEGMENT 0x050  /* RW: MMIO GART path */
#define WK_GPU_REG_GART_PAGE 0x054     /* RW */
#define WK_GPU_REG_GART_PFN_LO 0x058   /* RW */
#define WK_GPU_REG_GART_PFN_HI 0x05C   /* RW */
#define WK_GPU_REG_GART_COMMIT 0x060   /* WO: entry and TLB line of (segment, page) = pfn */
#define WK_GPU_REG_RING_ROOT_LO 0x064  /* RW: root table of the submission's address space (0: physical) */
#define WK_GPU_REG_RING_ROOT_HI 0x068  /* RW */
#define WK_GPU_REG_FAULT_ADDR_LO 0x06C /* RO: the address the last fault struck (0: none had one) */
#define WK_GPU_REG_FAULT_ADDR_HI 0x070 /* RO */
#define WK_GPU_REG_RING_ROOT_ENTRIES 0x074 /* RW: a two-level root's entries (a root index at or past faults) */
#define WK_GPU_REG_SIZE 0x1000

#define WK_GPU_ID 0x574B4750u          /* 'WKGP' */
#define WK_GPU_QUEUE_SIZE 64u

#define WK_GPU_IRQ_COMPLETED 0x1u      /* a submission finished (ran or faulted) */
#define WK_GPU_IRQ_FAULT 0x2u          /* a submission faulted */
#define WK_GPU_IRQ_FENCE 0x4u          /* a FENCE command ran */
#define WK_GPU_IRQ_OVERFLOW 0x8u       /* DOORBELL with a full queue: dropped */
#define WK_GPU_IRQ_GART_ERROR 0x10u    /* GART_COMMIT with a bad segment, page or pfn */

/* Register access. Unknown offsets read 0 and ignore writes. */
uint32_t wk_gpu_mmio_read32(struct wk_gpu *gpu, uint32_t offset);
void wk_gpu_mmio_write32(struct wk_gpu *gpu, uint32_t offset, uint32_t value);

/* Runs up to `max` queued submissions in order (0: all), latching their
 * interrupts. Returns how many ran. A submission with a root runs as
 * wk_gpu_exec would in the attached space with that root (the first one
 * found when several share it: they read the same tables); when no
 * attached space has it, nothing of it runs and it faults
 * NO_ADDRESS_SPACE (fault_addr the root, buffer_addr RING_ADDR). */
uint32_t wk_gpu_run(struct wk_gpu *gpu, uint32_t max);

/* The RING_ROOT the last submission wk_gpu_run ran was latched with: the
 * root table of the space it ran in, or 0 for a physical one (0 before
 * any ran since the last reset). */
uint64_t wk_gpu_last_root(const struct wk_gpu *gpu);
/* ... and the RING_ROOT_ENTRIES it was latched with (0 likewise). */
uint32_t wk_gpu_last_root_entries(const struct wk_gpu *gpu);
/* How many VA_FLUSH commands ran since the model was made (any processor's,
 * through wk_exec_ops.va_flush), and the root the last one named. */
uint64_t wk_gpu_va_flushes(const struct wk_gpu *gpu, uint64_t *last_root);

/* Whether the submission a DOORBELL write queued faulted when wk_gpu_run
 * ran it (or failed as a device error), among the last 64 that did since
 * the reset: `seq` is the value counters.submissions had right after that
 * write (1 for the first since the GPU was made). Not by RING_TAG: the tag
 * is the driver's own to choose, so a caller that knows which doorbell was
 * whose asks this. */
int wk_gpu_doorbell_faulted(const struct wk_gpu *gpu, uint64_t seq);

/* The submission the next DOORBELL queues does not run: it finishes with
 * FAULT, FAULT_TAG its tag and FAULT_REASON WK_GPU_FAULT_DEVICE_ERROR, as
 * hardware reports an error of its own (the cause of a TDR), so that a
 * driver's fault path runs on a buffer that is not to blame. Counted in
 * device_errors, not in faults. */
void wk_gpu_device_error_next_doorbell(struct wk_gpu *gpu);

/* IRQ_STATUS != 0: the interrupt line is asserted. */
int wk_gpu_irq_asserted(const struct wk_gpu *gpu);

/* Counters since the last reset. */
struct wk_gpu_counters {
    uint64_t commands;            /* commands executed (faulting one excluded) */
    uint64_t bytes_copied;        /* by COPY and BLIT */
    uint64_t bytes_filled;        /* by FILL */
    uint64_t bytes_written;       /* by WRITE32/WRITE64/FENCE */
    uint64_t bank_crossings;      /* accesses spanning a bank boundary */
    uint64_t fences;              /* FENCE commands completed */
    uint64_t interrupts;          /* interrupts raised */
    uint64_t gart_pages_mapped;
    uint64_t gart_pages_unmapped;
    uint64_t tlb_flushes;
    uint64_t stale_tlb_accesses;  /* aperture pages reached through a stale TLB line */
    uint64_t calls;
    uint64_t execs;               /* wk_gpu_exec/_bytes calls */
    uint64_t faults;
    uint64_t submissions;         /* DOORBELL writes queued */
    uint64_t submissions_run;     /* queued submissions run by wk_gpu_run */
    uint64_t device_errors;       /* submissions failed by wk_gpu_device_error_next_doorbell */
};

void wk_gpu_get_counters(const struct wk_gpu *gpu, struct wk_gpu_counters *out);

/* Last fence value stored by a FENCE command (0 when none ran). */
uint64_t wk_gpu_last_fence(const struct wk_gpu *gpu);

/* ------------------------------------------------------------------ */
/* Static validation and disassembly                                    */
/* ------------------------------------------------------------------ */

/*
 * Checks a DMA buffer without running it: every command decodes and fits,
 * and, when gpu is not NULL, every address operand lies in a region with
 * its whole access, every segment operand names an aperture and every page
 * range fits it. Stops at the first problem and describes it in *fault
 * (depth 0, buffer_addr 0, flags WK_GPU_FAULT_STATIC; for BAD_OPERAND the
 * detail the executor would give). CALL targets are checked as ranges, not
 * followed.
 * Returns: WK_OK or WK_E_GPU_FAULT.
 */
wk_status wk_gpu_validate(const struct wk_gpu *gpu, const uint8_t *buf, uint64_t len,
                          struct wk_gpu_fault *fault);

/* Sink for the disassembler: one call per output line, without newline. */
typedef void wk_gpu_line_fn(void *user, const char *line);

/*
 * Prints one line per command: "0x0000: COPY src=0x... dst=0x... bytes=4096".
 * Undecodable bytes end the listing with a line naming the fault, the
 * command and the reason: "0x001c: <TRUNCATED: COPY (opcode byte 0x01)
 * needs 28 bytes, 20 bytes left>", "0x0000: <BAD_OPERAND: BLIT (opcode
 * byte 0x0a): height 16385 over its maximum 16384, 36 bytes left>".
 * Returns the number of commands printed.
 */
uint64_t wk_gpu_disasm(const uint8_t *buf, uint64_t len, wk_gpu_line_fn *sink, void *user);

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_GPU_H */
