/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/binding.h - a hardware binding: what a driver project hands the
 * kit so that the kit can play its GPU, not only the kernel.
 *
 * Without a binding the kit judges a driver for other hardware by the DDI
 * contract alone: nothing executes its DMA buffers, so whether a FILL
 * landed, a TRANSFER moved the right bytes or a fence fired is skipped
 * (docs/verdicts.md, "Kinds of check"). A binding supplies, for one GPU:
 *
 *   - its memory: the segments and system-memory window of the hardware,
 *     as its driver reports them (the kit builds its memory system from it);
 *   - a command processor (processor.h): runs one paging or render buffer of
 *     the driver's format against that memory;
 *   - a UMD encoder: turns the kit's abstract render operations and
 *     allocation requests into the driver's own user-mode formats (what
 *     Render's pCommand and CreateAllocation's pPrivateDriverData hold);
 *   - registers: the register BARs the driver maps with MmMapIoSpace and
 *     reads with READ_REGISTER_ULONG, and the queue and interrupt line
 *     behind them;
 *   - a disassembler, so reports show the driver's buffers in its own
 *     mnemonics.
 * Every part but the header is optional; what is missing is skipped with
 * its reason, never failed.
 *
 * Where the kit finds it: `--binding PATH` (a module exporting the object
 * below), else the driver module's own export of it, else none. The kit
 * refuses, by name and before any case runs, a binding whose magic, ABI
 * version or sizes it does not take.
 *
 * A binding is code the kit runs, not code it judges: a binding that
 * crashes, loops, overruns its budget or answers outside this interface
 * ends the case as an `error` with a BIND-* rule, never as the driver's
 * failure. It never calls driver code, and the driver never calls it but
 * through the kit (registers).
 *
 * Threading: the kit calls one adapter's binding from one thread at a time
 * (a driver's own threads reach registers through the kit, serialised).
 */
#ifndef WDDMKIT_BINDING_H
#define WDDMKIT_BINDING_H

#include <stddef.h>
#include <stdint.h>

#include "wddmkit/gpu.h"
#include "wddmkit/processor.h"
#include "wddmkit/umd.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WK_BINDING_MAGIC 0x444E4942u     /* 'BIND' */
#define WK_BINDING_ABI_VERSION 1u        /* members appended at the end keep it */
#define WK_BINDING_SYMBOL "wk_binding"   /* the exported object's name */
#define WK_BINDING_MAX_BARS 6u           /* PCI base address registers */

/* What create() is handed: the adapter's memory system, and a log line
 * sink (lines appear in the case's log, prefixed with the binding's name). */
struct wk_binding_host {
    uint32_t size;                       /* sizeof the kit's struct */
    uint32_t abi;                        /* WK_BINDING_ABI_VERSION of the kit */
    struct wk_mem *mem;
    const struct wk_mem_ops *mem_ops;
    void *kit;
    void (*log)(void *kit, const char *line);
};

/* A memory range the device decodes on the bus. */
enum wk_bar_kind {
    WK_BAR_REGISTERS = 1,                /* registers: read32/write32 below */
    WK_BAR_SEGMENT = 2,                  /* the CPU view of a memory segment: BAR offset =
                                          * segment offset (the segment's
                                          * CpuTranslatedAddress, facts 5.5 G6) */
};

struct wk_binding_bar {
    uint32_t kind;                       /* enum wk_bar_kind */
    uint32_t segment_id;                 /* WK_BAR_SEGMENT: which (1-based, of `memory`) */
    uint64_t physical;                   /* bus address, as DxgkCbGetDeviceInformation's
                                          * TranslatedResourceList gives it */
    uint64_t size;                       /* bytes, page-aligned */
};

/* ------------------------------------------------------------------ */
/* Registers                                                            */
/* ------------------------------------------------------------------ */

/* A buffer the register model queued (the driver rang its doorbell). */
struct wk_submission {
    uint64_t buffer_addr;                /* GPU address of the buffer's byte 0 */
    uint64_t start, end;                 /* the range to run: offsets in the buffer */
    uint32_t flags;                      /* WK_EXEC_* */
    uint32_t tag;                        /* the register model's own (a fence id, a ring slot) */
    uint64_t reserved;                   /* 0, never read: room for the `root` member one kit
                                            version had here, so that a binding built against it
                                            writes inside the struct (wk_registers_ops.root is
                                            where the root comes from) */
};

/*
 * The register model. `bar` is the index in wk_binding.bars of a
 * WK_BAR_REGISTERS entry, `offset` the byte offset in it (4-aligned).
 *   read32/write32: a register access by the driver (READ_REGISTER_ULONG,
 *     WRITE_REGISTER_ULONG; a 64-bit access is two 32-bit ones, low first);
 *   next: 1 and the next queued buffer the GPU would run now, 0 when idle;
 *   done: the kit ran s (fault NULL: to its end; else where it faulted):
 *     the register model latches completion, fault and interrupt state;
 *   irq_pending: whether the interrupt line is asserted (the kit calls the
 *     driver's DxgkDdiInterruptRoutine while it is);
 *   root (optional, read when `size` covers it; a GpuMmu driver's virtual
 *     contexts need it): for the submission next() just handed out, the GPU
 *     physical address of the root page table your registers latched for
 *     it (the address space the driver made active), or 0 for a physical
 *     submission. Its buffer_addr and every address it uses are then
 *     virtual, in the space whose root table is there (none: the
 *     submission faults NO_ADDRESS_SPACE, nothing of it runs). A model
 *     without it says nothing of roots: the kit cannot run a virtual
 *     submission from its queue, and virtual contexts are skips.
 * The kit's loop after a doorbell: while next(): root, exec, done; then the
 * interrupt routine while irq_pending(). It drains the queue so after each
 * call of the driver that may have rung: work queued behind a submission
 * never waits while the driver reprograms what it uses.
 */
struct wk_registers_ops {
    uint32_t size;
    uint32_t reserved;
    uint32_t (*read32)(void *self, uint32_t bar, uint64_t offset);
    void (*write32)(void *self, uint32_t bar, uint64_t offset, uint32_t value);
    int (*next)(void *self, struct wk_submission *out);
    void (*done)(void *self, const struct wk_submission *s, const struct wk_exec_fault *fault);
    int (*irq_pending)(void *self);
    uint64_t (*root)(void *self, const struct wk_submission *s);
};

/* ------------------------------------------------------------------ */
/* The UMD encoder                                                      */
/* ------------------------------------------------------------------ */

/* A memory reference of an abstract operation: an entry of the allocation
 * list Render is handed, and a byte offset inside that allocation. */
struct wk_encode_ref {
    uint32_t list_index;
    uint32_t offset;
};

/* One abstract render operation; op is a WK_USER_OP_* of umd.h and the
 * fields are those of its WK_USER_* record: COPY src, dst, size; FILL dst,
 * size, value (a 32-bit pattern, byte 0 first); WRITE32 dst, value; BLIT
 * src, dst, width, height, src_pitch, dst_pitch. */
struct wk_encode_op {
    uint32_t op;
    uint32_t reserved;
    struct wk_encode_ref src, dst;
    uint32_t size, value;
    uint32_t width, height, src_pitch, dst_pitch;
};

/* One Render call's user-mode input. The kit passes Render the allocation
 * list it describes (list_length entries, in that order) and the command
 * and patch-location list the encoder writes.
 *
 * opaque: raw bytes for the fields of the format that the operations do not
 * say and that user mode may write as it likes: reserved words, flags, a
 * header's spare fields, and the operand fields an operation leaves unused
 * (a FILL's source): where a driver that trusts user mode goes wrong. The
 * encoder decides which fields those are and fills them in a fixed order
 * from these bytes (4 per 32-bit field, byte 0 first, is the convention);
 * a field the bytes do not reach gets what its UMD writes (0 for a
 * reserved word). It sets opaque_used to how many bytes it took (the kit
 * sets it to 0 before the call and ignores it on WK_ENCODE_SKIP; with
 * opaque NULL it stays 0).
 *   Who hands bytes: fuzz_render, the raw bytes of its input's user
 * patch-location entries (up to 32 D3DDDI_PATCHLOCATIONLIST entries of 24
 * bytes, so at most 768; many inputs have none), and repro, minimize and
 * promote of its inputs. Conformance cases and fuzz_prog hand none, and
 * the encoder writes what its UMD writes.
 *   The kit hands the bytes on read-only pages with a guard page right
 * after them: reading past opaque_length, or writing them, crashes the
 * encoder (BIND-CRASH-001); claiming more than opaque_length in
 * opaque_used is BIND-RESULT-001. */
struct wk_encode_render {
    const struct wk_encode_op *ops;      /* in */
    uint32_t op_count;                   /* in */
    uint32_t list_length;                /* in: allocation-list entries */
    const uint64_t *list_size;           /* in: each entry's allocation size in bytes */
    uint8_t *command;                    /* out: pCommand's bytes */
    uint32_t command_cap;                /* in: room at command */
    uint32_t command_length;             /* out */
    D3DDDI_PATCHLOCATIONLIST *patch;     /* out: pPatchLocationListIn, when the format has one */
    uint32_t patch_cap;                  /* in: room at patch */
    uint32_t patch_length;               /* out */
    uint32_t skipped_op;                 /* out, WK_ENCODE_SKIP: the index in ops of the one it cannot encode */
    char why[160];                       /* out, WK_ENCODE_SKIP: why ("no BLIT on this GPU") */
    const uint8_t *opaque;               /* in: raw bytes for the opaque fields, or NULL */
    uint32_t opaque_length;              /* in */
    uint32_t opaque_used;                /* out: how many of them the encoder took */
    uint32_t node;                       /* in: the NodeOrdinal of the context Render builds for
                                            (DXGKARG_CREATECONTEXT): an operation that engine does
                                            not run is WK_ENCODE_SKIP, as its user-mode driver never
                                            writes it there (a BLIT on a copy engine) */
};

/* One allocation's pPrivateDriverData for CreateAllocation. */
struct wk_encode_allocation {
    const WK_ALLOCATION_REQUEST *request; /* in: the kit's abstract request */
    void *private_data;                   /* out */
    uint32_t private_cap;                 /* in: room at private_data */
    uint32_t private_size;                /* out */
    char why[160];                        /* out, WK_ENCODE_SKIP */
};

/*
 * One command buffer of a virtual context (DxgkDdiSubmitCommandVirtual,
 * docs/drivers-for-other-hardware.md "Virtual contexts"), as your GPU's
 * user-mode driver writes it: commands of your GPU whose every address is
 * a GPU virtual address of the context's process. op is WK_USER_OP_FILL
 * (dst, size, value: a 32-bit pattern, byte 0 first) or WK_USER_OP_COPY
 * (src, dst, size). The kit writes the bytes at a mapped virtual address
 * and hands that address to the driver.
 */
struct wk_encode_commands {
    uint32_t op;                          /* in */
    uint32_t value;                       /* in: FILL's pattern */
    uint64_t src, dst, size;              /* in: virtual addresses, bytes */
    uint8_t *buf;                         /* out: the commands */
    uint32_t cap;                         /* in: room at buf */
    uint32_t length;                      /* out */
    char why[160];                        /* out, WK_ENCODE_SKIP */
};

#define WK_ENCODE_OK 0
#define WK_ENCODE_SKIP 1                  /* the format cannot say this: the case is skipped */

/*
 * render, allocation, commands: WK_ENCODE_OK, or WK_ENCODE_SKIP with `why`; anything
 * else, or lengths past the caps, is the binding's fault (BIND-RESULT-001).
 * ops_supported: a bit (1u << WK_USER_OP_*) per operation it encodes; an
 * operation without its bit is skipped without a call.
 */
struct wk_encoder_ops {
    uint32_t size;
    uint32_t ops_supported;
    int (*render)(void *self, struct wk_encode_render *r);
    int (*allocation)(void *self, struct wk_encode_allocation *a);
    /* Optional (read when size covers it): a virtual context's command
     * buffer; without it a GpuMmu driver's virtual contexts are skips. */
    int (*commands)(void *self, struct wk_encode_commands *c);
};

/* ------------------------------------------------------------------ */
/* The disassembler                                                     */
/* ------------------------------------------------------------------ */

typedef void wk_binding_line_fn(void *user, const char *line);

/* One line per command of buf[start, len) ("0x0040: PT_WRITE seg=2 ...");
 * undecodable bytes end the listing with a line saying so. Returns the
 * number of commands listed. `self` may be NULL (no adapter: `wddmkit gpu
 * disasm --binding`). */
struct wk_disasm_ops {
    uint32_t size;
    uint32_t reserved;
    uint64_t (*list)(void *self, const uint8_t *buf, uint64_t len, uint64_t start,
                     wk_binding_line_fn *sink, void *user);
};

/* ------------------------------------------------------------------ */
/* The binding                                                          */
/* ------------------------------------------------------------------ */

/* wk_binding.flags: each engine (node) of the register model keeps its own
 * completion state (a fence register and an interrupt bit per engine), so
 * the kit may run buffers of several nodes before it plays one interrupt,
 * as two engines finishing together would (renders a `queue` step left
 * queued: docs/drivers-for-other-hardware.md, "Registers"). Without it the
 * kit plays the interrupt whenever the node changes, as for its own GPU,
 * whose one completion register serves every node. */
#define WK_BINDING_ENGINES_APART 0x1u

struct wk_binding {
    uint32_t magic;                      /* WK_BINDING_MAGIC */
    uint32_t abi;                        /* WK_BINDING_ABI_VERSION it was built for */
    uint32_t size;                       /* sizeof(struct wk_binding) it was built with */
    uint32_t flags;                      /* WK_BINDING_* (0: none) */
    const char *name;                    /* "lark": the GPU, in reports */
    const char *version;                 /* the binding's own version, in reports */
    /* The hardware's memory (gpu.h): its segments at the addresses its
     * driver reports, the system-memory window, budgets (0: defaults).
     * Required with a processor. */
    const struct wk_gpu_desc *memory;
    const struct wk_binding_bar *bars;   /* bar_count entries */
    uint32_t bar_count;
    uint32_t reserved;
    /* Per adapter: create (NULL result: the binding failed), destroy, and
     * reset to power-on (the kit resets the memory itself). Optional when
     * no part needs state (self is NULL then). */
    void *(*create)(const struct wk_binding_host *host);
    void (*destroy)(void *self);
    void (*reset)(void *self);
    const struct wk_processor_ops *processor;
    const struct wk_encoder_ops *encoder;
    const struct wk_registers_ops *registers;
    const struct wk_disasm_ops *disasm;
};

/* The binding a module exports (WK_BINDING_DEFINE defines it): declared
 * here so that a test or a program that links the binding's sources
 * statically can reach it by name. */
extern const struct wk_binding wk_binding;

/* The header of a binding's definition (C11 and C++11, positional):
 *   WK_BINDING_DEFINE = { WK_BINDING_HEADER("lark", "1.0"), &lark_memory, ... };
 * In C++ the definition goes inside extern "C" { }. */
#define WK_BINDING_HEADER(name, version) WK_BINDING_HEADER_FLAGS(name, version, 0u)
/* ... with wk_binding.flags (WK_BINDING_ENGINES_APART). */
#define WK_BINDING_HEADER_FLAGS(name, version, flags) \
    WK_BINDING_MAGIC, WK_BINDING_ABI_VERSION, (uint32_t)sizeof(struct wk_binding), (uint32_t)(flags), (name), \
        (version)
#define WK_BINDING_DEFINE __attribute__((visibility("default"))) const struct wk_binding wk_binding

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_BINDING_H */
