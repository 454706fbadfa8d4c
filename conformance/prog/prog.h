/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/prog.h - the step program: the one form every test input takes.
 *
 * YAML specs compile to it, fuzz inputs decode into it, crash files are
 * stored as it, `wddmkit spec dump` prints it, and one interpreter runs it
 * against a wk_vidmm, whoever produced it (docs/architecture.md, "One case, end to end").
 *
 * A program is the adapter to build, an optional answer rewrite (negative
 * cases), and a flat list of typed steps. Objects are named by index in
 * creation order (device 0, context 0, allocation 3...), never by pointer or
 * handle, so any prefix of a program is still a valid program and a fuzzer
 * can mutate steps without breaking references: a step that names an object
 * that does not exist (yet) fails with WK_E_NOT_FOUND, and that is its result.
 *
 * Expectations are steps too (WK_STEP_EXPECT_*): a spec's end-state checks
 * are appended after its actions, and a check may also sit between actions.
 */
#ifndef WDDMKIT_PROG_H
#define WDDMKIT_PROG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wddmkit/gpu.h"
#include "wddmkit/status.h"
#include "reference.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits every producer (spec compiler, fuzz decoder) enforces. */
#define WK_PROG_MAX_STEPS 256u
#define WK_PROG_MAX_OBJECTS 64u          /* devices, contexts, allocations each */
#define WK_PROG_MAX_RECORDS 32u          /* user-command records per render */
#define WK_PROG_MAX_LIST 32u             /* allocation-list entries per render (fuzz_render's) */
#define WK_PROG_MAX_BYTES 64u            /* bytes in a write/expect-bytes step */
#define WK_PROG_MAX_RULES 8u             /* rules a case covers */
#define WK_PROG_MAX_ALLOCATION (16ull << 20) /* bytes per allocation */
#define WK_PROG_MAX_SEGMENT (256ull << 20)   /* bytes per modelled segment */
#define WK_PROG_MAX_SEGMENTS WK_GPU_MAX_SEGMENTS /* segments in an adapter description (ids are 5 bits) */
#define WK_PROG_MAX_BANKS 16u            /* banks per described segment */
#define WK_PROG_MAX_PATCH_LIST 16u       /* allocation-list entries per patch step */
#define WK_PROG_MAX_PATCHES 32u          /* patch locations per patch step */
#define WK_PROG_MAX_DMA 65536u           /* DMA-buffer bytes a patch step sets */
#define WK_PROG_MAX_COMMAND 16384u       /* raw user command-buffer bytes per render (fuzz_render's) */
#define WK_PROG_MAX_USER_PATCHES 32u     /* user patch-location entries per render (fuzz_render's) */

/* X(name, "spec keyword") */
#define WK_STEP_MAP(X)                                      \
    X(WK_STEP_CREATE_DEVICE, "create_device")               \
    X(WK_STEP_DESTROY_DEVICE, "destroy_device")             \
    X(WK_STEP_CREATE_CONTEXT, "create_context")             \
    X(WK_STEP_DESTROY_CONTEXT, "destroy_context")           \
    X(WK_STEP_CREATE_ALLOCATION, "create_allocation")       \
    X(WK_STEP_DESTROY_ALLOCATION, "destroy_allocation")     \
    X(WK_STEP_PAGE_IN, "page_in")                           \
    X(WK_STEP_EVICT, "evict")                               \
    X(WK_STEP_DISCARD, "discard")                           \
    X(WK_STEP_FILL, "fill")                                 \
    X(WK_STEP_RELOCATE, "relocate")                         \
    X(WK_STEP_WRITE, "write")                               \
    X(WK_STEP_TOUCH_PHYSICAL, "touch_physical")             \
    X(WK_STEP_SPECIAL_LOCK_TRANSFER, "special_lock_transfer") \
    X(WK_STEP_SIGNAL_FENCE, "signal_fence")                 \
    X(WK_STEP_RENDER, "render")                             \
    X(WK_STEP_HOLD, "hold")                                 \
    X(WK_STEP_CANCEL, "cancel")                             \
    X(WK_STEP_WAIT_IDLE, "wait_idle")                       \
    X(WK_STEP_EXPECT_BYTES, "expect_bytes")                 \
    X(WK_STEP_EXPECT_PATTERN, "expect_pattern")             \
    X(WK_STEP_EXPECT_DIGEST, "expect_digest")               \
    X(WK_STEP_EXPECT_PLACEMENT, "expect_placement")         \
    X(WK_STEP_EXPECT_STATS, "expect_stats")                 \
    X(WK_STEP_EXPECT_GART, "expect_gart")                   \
    X(WK_STEP_EXPECT_CONTEXT_INFO, "expect_context_info")   \
    X(WK_STEP_PATCH, "patch")                               \
    X(WK_STEP_EXPECT_MULTIPASS, "expect_multipass")         \
    X(WK_STEP_VA_MAP, "va_map")                             \
    X(WK_STEP_VA_UNMAP, "va_unmap")                         \
    X(WK_STEP_EXPECT_VA, "expect_va")                       \
    X(WK_STEP_SUBMIT_VIRTUAL, "submit_virtual")             \
    X(WK_STEP_MOVE_ROOT_TABLE, "move_root_table")         \
    X(WK_STEP_END_PROCESS, "end_process")                 \
    X(WK_STEP_QUEUE, "queue")

enum wk_step_kind {
#define WK_STEP_ENUM_(name, kw) name,
    WK_STEP_MAP(WK_STEP_ENUM_)
#undef WK_STEP_ENUM_
    WK_STEP_KIND_COUNT
};

/* Kinds are appended, never reordered: binary programs store the number
 * (a version-1 program knows the first 27, a version-2 or version-3 one
 * 33, a version-4 one 34). Checks are the expect_* kinds;
 * every other kind is an action. */
const char *wk_step_keyword(enum wk_step_kind kind);
int wk_step_is_check(enum wk_step_kind kind);

/*
 * The kind of a check: what the kit needs to judge it, and so when it must
 * be skipped rather than failed (docs/verdicts.md, "Kinds of check"). Every
 * step is a check of one kind (an action: its status and that it broke no
 * rule); a step may hold a sub-check of another kind (a placement's offset).
 * Derived from the step by wk_step_check_kind, never written in a spec nor
 * stored in a binary program. X(name, "word"); appended, never reordered.
 *
 *   contract  what any driver must do whatever its hardware: statuses, in/out
 *             fields, bounds, multipass progress, patch confinement, list
 *             indices, guard pages, segments, banks, rule violations
 *   semantic  what executing a built buffer did: bytes, patterns, digests,
 *             GART mappings, GPU faults, fences (needs a command processor
 *             for the driver's command format)
 *   encoder   the step hands the driver user-mode data in the kit's own
 *             format (a render step's user-command records or raw bytes)
 *   choice    the reference driver's own choices: placement offsets, counts
 *             of calls, operations, passes, buffers, fences and evictions,
 *             context-info values (the reference profile only)
 */
#define WK_CHECK_KIND_MAP(X)                  \
    X(WK_CHECK_CONTRACT, "contract")          \
    X(WK_CHECK_SEMANTIC, "semantic")          \
    X(WK_CHECK_ENCODER, "encoder")            \
    X(WK_CHECK_CHOICE, "choice")

enum wk_check_kind {
#define WK_CHECK_ENUM_(name, word) name,
    WK_CHECK_KIND_MAP(WK_CHECK_ENUM_)
#undef WK_CHECK_ENUM_
    WK_CHECK_KIND_COUNT
};

#define WK_CHECK_BIT(kind) (1u << (kind))   /* a kind in a uint32_t set of kinds */

/* "contract", "semantic"...; "unknown" out of range. */
const char *wk_check_kind_name(enum wk_check_kind kind);
/* WK_CHECK_KIND_COUNT when `word` names no kind. */
enum wk_check_kind wk_check_kind_find(const char *word);

struct wk_step;
/* The kind of a step's own check (for an action, of its status). */
enum wk_check_kind wk_step_check_kind(const struct wk_step *s);
/* Every check a step makes, its own first: the kinds in kinds[0..n), n
 * returned (1, or 2 for a placement that names an offset: a choice). */
#define WK_STEP_MAX_CHECKS 2u
uint32_t wk_step_checks(const struct wk_step *s, enum wk_check_kind kinds[WK_STEP_MAX_CHECKS]);
/* Whether a create_allocation step names fields a driver reading the kit's
 * format must keep (umd.h): preferences, bank hints, eviction set, flags.
 * Such a step carries an encoder sub-check. */
int wk_step_names_kept_fields(const struct wk_step *s);

/* A memory reference inside a render: allocation-list index + offset. */
struct wk_prog_ref {
    uint32_t list_index;
    uint32_t offset;
};

/* One user-command record (umd.h), with references by list index. */
struct wk_prog_record {
    uint32_t op;                 /* WK_USER_OP */
    struct wk_prog_ref src, dst;
    uint32_t size;               /* COPY, FILL */
    uint32_t value;              /* FILL pattern, WRITE32 value */
    uint32_t width, height, src_pitch, dst_pitch; /* BLIT */
};

/*
 * A patch step: DxgkDdiPatch called directly (wk_vidmm_patch) with inputs
 * of the step's choosing, as the kernel calls it before a submission and as
 * fuzz_patch calls it with hostile ones. Everything fuzz_patch feeds the
 * driver has a field here, so each of its inputs is a program too.
 */
struct wk_prog_patch_entry {     /* one DXGK_ALLOCATIONLIST entry */
    uint32_t allocation;         /* allocation index + 1; 0: a NULL handle */
    int write;                   /* WriteOperation */
    int resident;                /* 1: SegmentId and PhysicalAddress from where the
                                    allocation is when the step runs (0 and 0 when
                                    it is not resident) */
    uint32_t segment_id;         /* SegmentId (0..31), when !resident */
    uint64_t address;            /* PhysicalAddress, when !resident */
};

struct wk_prog_patch_location {  /* one D3DDDI_PATCHLOCATIONLIST entry */
    uint32_t allocation_index;
    uint32_t slot_id;            /* 24 bits */
    uint32_t driver_id;
    uint32_t allocation_offset;
    uint32_t patch_offset;
    uint32_t split_offset;
    uint32_t reserved;           /* the 8 bits above SlotId ("must be 0"): what user mode
                                    wrote there (render), what Patch is handed (patch) */
};

/*
 * A render step: DxgkDdiRender with a user command buffer (records, or raw
 * bytes), an allocation list and a user patch-location list
 * (pPatchLocationListIn), as user mode hands them to the kernel. Everything
 * fuzz_render feeds the driver has a field here, so each of its inputs is a
 * program too (fuzz/inputs/render_input.c).
 */
struct wk_prog_render {
    uint32_t context;
    uint32_t record_count;
    struct wk_prog_record records[WK_PROG_MAX_RECORDS];
    uint32_t list_length;
    uint32_t list_alloc[WK_PROG_MAX_LIST];   /* allocation index + 1; 0: NULL entry */
    uint8_t list_write[WK_PROG_MAX_LIST];
    int no_prepatch_info;
    int raw;                                 /* 1: `raw` holds the whole command buffer */
    uint32_t raw_length;
    uint8_t raw_bytes[WK_PROG_MAX_COMMAND];
    uint32_t patch_length;                   /* user patch-location entries (0: none, NULL) */
    struct wk_prog_patch_location patch[WK_PROG_MAX_USER_PATCHES];
    /* 1: a fuzz_render input's Render (fuzz/inputs/render_input.c). Under a
     * binding's encoder it runs as the harness runs it: the raw bytes'
     * records are encoded (bytes that are no records are a skip) and the
     * user patch list's bytes are the encoder's opaque bytes. Not in the
     * program formats: such a step goes back to fuzz_render's bytes. */
    int harness_input;
};

struct wk_prog_patch {
    uint32_t context;
    uint32_t list_length;
    struct wk_prog_patch_entry list[WK_PROG_MAX_PATCH_LIST];
    uint32_t patch_length;
    struct wk_prog_patch_location patch[WK_PROG_MAX_PATCHES];
    uint32_t start, end;         /* DmaBufferSubmissionStart/EndOffset */
    uint32_t patch_start;        /* PatchLocationListSubmissionStart (<= patch_length) */
    uint32_t patch_count;        /* ...SubmissionLength (<= patch_length - patch_start) */
    uint32_t dma_length;         /* bytes of `dma`, never ending on a zero byte: the */
    uint8_t dma[];               /* buffer's first bytes; the rest is zero */
};

/* A zeroed patch payload with room for `dma_length` bytes (NULL: no memory). */
struct wk_prog_patch *wk_prog_patch_new(uint32_t dma_length);
/* A copy (NULL: no memory), and its size in bytes. */
struct wk_prog_patch *wk_prog_patch_dup(const struct wk_prog_patch *p);
size_t wk_prog_patch_size(const struct wk_prog_patch *p);
/* Drops trailing zero bytes of the DMA content (the canonical form). */
void wk_prog_patch_trim(struct wk_prog_patch *p);

struct wk_prog_allocation {
    uint32_t device;
    uint64_t size;
    uint32_t alignment;
    uint32_t preferred;          /* D3DDDI_SEGMENTPREFERENCE value */
    uint32_t hinted_bank;        /* DXGK_SEGMENTBANKPREFERENCE value */
    uint32_t supported_set;
    uint32_t eviction_set;
    uint32_t flags;              /* DXGK_ALLOCATIONINFOFLAGS value */
    uint32_t priority;
    uint32_t paging_buffers;     /* 0: `size` bytes. N: sized from the driver at run time,
                                    N x PagingBufferSize / 8 pages of 4 KiB: their addresses
                                    alone, 8 bytes each, fill N of its paging buffers, so
                                    with any command around them they overflow them
                                    (wk_prog_sized_pages) */
};

#define WK_PROG_MAX_PAGING_BUFFERS 16u   /* an allocation's paging_buffers */
#define WK_PROG_MAX_SIZED (256ull << 20) /* bytes an allocation sized from the driver may take */

/* The pages of an allocation sized from a driver whose PagingBufferSize is
 * `paging_buffer_size`: paging_buffers x paging_buffer_size / 8 (at least 1). */
uint64_t wk_prog_sized_pages(uint32_t paging_buffers, uint32_t paging_buffer_size);

/* Statistics an expect_stats step bounds (min, and max when has_max). */
enum wk_prog_stat {
    WK_STAT_PAGING_PASSES,
    WK_STAT_PAGING_BUFFERS,
    WK_STAT_EVICTIONS,
    WK_STAT_FENCES,
    WK_STAT_GPU_FAULTS,
    WK_STAT_VIOLATIONS,
    WK_STAT_RENDER_PASSES,       /* of the last render step */
    WK_STAT_RENDER_SUBMISSIONS,
    WK_STAT_CANCELLED,           /* of the last cancel step */
    WK_STAT_DDI_CALLS,           /* of `ddi` */
    WK_STAT_PAGING_OP,           /* BuildPagingBuffer calls of operation `op` */
    WK_STAT_COUNT
};

struct wk_step {
    enum wk_step_kind kind;
    wk_status expect_status;     /* what the step must return (WK_OK by default) */
    uint32_t line;               /* spec line, 0 when not from a spec */
    uint32_t device, context, allocation;   /* object indices the step names */
    uint32_t flags;              /* create_device/create_context flags */
    uint32_t segment;
    uint64_t offset;
    uint64_t value;              /* fill pattern, fence value, digest, hold count ... */
    uint64_t address;            /* signal_fence: absolute GPU address when not relative */
    int relative;                /* signal_fence: address = allocation's GPU address + offset */
    int write;                   /* touch_physical */
    uint32_t length;             /* bytes in data, pages in expect_gart */
    uint8_t data[WK_PROG_MAX_BYTES];
    struct wk_prog_allocation alloc;
    struct wk_prog_render *render;          /* render steps (owned by the program) */
    struct wk_prog_patch *patch;            /* patch steps (owned by the program) */
    /* expect_placement */
    int expect_resident;
    uint32_t expect_bank;
    int has_offset, has_bank;
    /* expect_stats, expect_multipass (op: a paging operation) */
    enum wk_prog_stat stat;
    enum wk_ddi ddi;
    uint32_t op;
    uint64_t min, max;           /* max applies when has_max is set */
    int has_max;
    /* expect_context_info: field index and value */
    uint32_t field;
    /* expect_pattern: bytes from `offset` (0: to the end) */
    uint64_t size;
    /* cancel: the number of submissions expected cancelled */
    int has_count;
    uint32_t count;
    /* va_map, va_unmap, expect_va (a GpuMmu driver's address space): the
     * virtual address is `address`; va_map maps `size` bytes of
     * `allocation` from `offset`, read-only when read_only; expect_va reads
     * `size` bytes of the allocation from `offset` at `address` through the
     * GPU's MMU, or expects `fault` there (enum wk_prog_va_fault). */
    int read_only;
    uint32_t fault;
    /* create_device, va_map, va_unmap, expect_va, move_root_table: the
     * case's process they belong to or act in, 0 to WK_PROG_MAX_PROCESSES
     * - 1 (YAML `process: 1` is 0, the default). submit_virtual acts in
     * its context's device's. */
    uint32_t process;
    /* submit_virtual: a buffer of kit-GPU commands written at `address` in
     * the case's address space, run by virtual context `context`: op
     * WK_VIRTUAL_FILL fills `size` bytes at VA `offset` with the 32-bit
     * `value`; WK_VIRTUAL_COPY copies `size` bytes from VA `value` to VA
     * `offset`. (op is shared with expect_stats and expect_multipass.) */
};

enum wk_prog_virtual_op { WK_VIRTUAL_FILL, WK_VIRTUAL_COPY, WK_VIRTUAL_OP_COUNT };

/* The processes (GPU address spaces) a case may have. */
#define WK_PROG_MAX_PROCESSES 4u

/* create_context's flags are DXGK_CREATECONTEXTFLAGS: VirtualAddressing;
 * bits 4-6 the engine (NodeOrdinal) the context is created on, 0 to 7
 * (`node:`; a program's one byte of flags carries both, so programs
 * written before it keep their meaning: node 0). */
#define WK_PROG_CONTEXT_VIRTUAL 0x4u
#define WK_PROG_CONTEXT_FLAGS 0xFu
#define WK_PROG_CONTEXT_NODE_SHIFT 4u
#define WK_PROG_CONTEXT_NODE_MAX 7u

/* move_root_table's flags: the links copied with COPY_PAGE_TABLE_ENTRIES
 * (`copy: true`), not written with UPDATE_PAGE_TABLE. */
#define WK_PROG_ROOT_BY_COPY 0x1u
/* ... and the root shrunk to what the process's mappings use (`shrink:
 * true`, wk_vidmm_va_shrink_root). */
#define WK_PROG_ROOT_SHRINK 0x2u
#define WK_PROG_ROOT_FLAGS (WK_PROG_ROOT_BY_COPY | WK_PROG_ROOT_SHRINK)

/* queue's count (its value) is 1 to WK_PROG_MAX_QUEUE render submissions
 * left queued on the GPU (wk_vidmm_queue_renders); its flags: an interrupt
 * after each buffer (`interrupts: each`), not one for a node's run. */
#define WK_PROG_MAX_QUEUE 32u
#define WK_PROG_QUEUE_EACH 0x1u

/* What an expect_va step expects the GPU to meet at its address. */
enum wk_prog_va_fault {
    WK_VA_FAULT_NONE,            /* it reads the allocation's bytes */
    WK_VA_FAULT_UNMAPPED,        /* a read faults VA_UNMAPPED */
    WK_VA_FAULT_READ_ONLY,       /* a read works and a write faults VA_READ_ONLY */
    WK_VA_FAULT_COUNT
};
#define WK_PROG_MAX_VA_COMPARE (64u << 10) /* bytes an expect_va compares */

/* Negative cases: corrupt one answer on its way back (vidmm's rewriter). */
struct wk_prog_rewrite {
    char mutation[48];           /* name in the mutation catalogue (wk_mutation_find) */
    uint32_t call;               /* corrupt the Nth matching call (1-based); 0: every one */
    int64_t param;               /* the mutation's parameter */
};

struct wk_prog {
    char id[96];
    char area[48];
    char describe[256];
    char covers[WK_PROG_MAX_RULES][24];
    uint32_t cover_count;
    char trips[24];              /* negative cases: the rule that must fire */
    uint32_t requires;           /* WK_REQ_* bits */
    /* Adapter */
    struct wk_gpu_desc gpu;
    struct wk_gpu_segment_desc segments[WK_PROG_MAX_SEGMENTS];
    uint64_t bank_ends[WK_PROG_MAX_SEGMENTS][WK_PROG_MAX_BANKS];
    uint32_t segment_roles[WK_PROG_MAX_SEGMENTS]; /* WK_ROLE_* bits a case needs of the driver's
                                                     segment that plays description segment i + 1 */
    struct wk_vidmm_config vidmm;
    /* The case's `registry:` values (spec_registry.c). Not part of the binary
     * format: a fuzz input or a promoted program runs with none. */
    struct wk_vidmm_registry registry;
    /* The case's `pci_config:` (spec_registry.c): the adapter's PCI
     * configuration space, when has_pci_config. Not in the binary format. */
    int has_pci_config;
    uint8_t pci_config[WK_VIDMM_PCI_CONFIG_SIZE];
    /* Rewrite */
    int has_rewrite;
    struct wk_prog_rewrite rewrite;
    /* Steps */
    uint32_t step_count;
    struct wk_step steps[WK_PROG_MAX_STEPS];
    /* Where it came from */
    char file[256];
    uint32_t line;
};

/* What a case needs from the driver (missing ⇒ skip). */
#define WK_REQ_CANCEL 0x1u          /* CancelCommandAware and DxgkDdiCancelCommand */
#define WK_REQ_RENDER 0x2u          /* DxgkDdiRender + Patch + SubmitCommand */
#define WK_REQ_MODEL 0x4u           /* deprecated, never checked: the kind of each check says
                                       what needs the GPU model (the loader warns) */
#define WK_REQ_BANKS 0x8u           /* the driver reports banks (QUERYSEGMENT3) */
#define WK_REQ_REFERENCE 0x10u      /* the case pins choices the DDI leaves to the driver, made
                                       as the reference driver makes them (its context
                                       allocations and the room they take, its call order):
                                       skipped in the contract profile */
#define WK_REQ_MODEL_LIMITS 0x20u   /* the case holds the driver to the kit's GPU model's own
                                       command limits (docs/gpu-model.md): skipped where other
                                       hardware runs the driver's buffers, or none does */
#define WK_REQ_COUNT 6u

/*
 * Segment roles (docs/spec-format.md, "Segment roles"). A case names
 * segments by their id in its adapter description; on a driver that reports
 * a layout of its own, each segment a case names is played by a distinct
 * segment of the driver's of the same kind, at least as large, with these
 * properties when the description asks for them (`role:`).
 */
#define WK_ROLE_BANKED 0x1u        /* the driver reports banks for it (UseBanking) */
#define WK_ROLE_CPU_VISIBLE 0x2u   /* the driver reports it CpuVisible */
#define WK_ROLE_COUNT 2u
/* The spec word of role bit i (0-based), NULL past the last. */
const char *wk_role_word(uint32_t bit_index);

void wk_prog_init(struct wk_prog *p);
void wk_prog_free(struct wk_prog *p);   /* frees render and patch payloads */

/* Prints a program, one step per line (`wddmkit spec dump`). */
void wk_prog_dump(const struct wk_prog *p, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_PROG_H */
