/* SPDX-License-Identifier: MIT */
/*
 * othergpu_gpu.h - OtherGPU as a wddmkit binding (wddmkit/binding.h): what
 * its parts share.
 *
 * The hardware is the one its miniport programs
 * (examples/drivers/othergpu/othergpu_hw.h: 16-byte command records, the
 * address encoding with its valid bit, the segment layout) and the render
 * format its UMD writes (othergpu_umd.h there). This folder includes those
 * two headers and nothing else of the driver: a binding is the GPU side,
 * and it never calls driver code.
 *
 *   memory.c      the memory map (the driver's two segments, a system window)
 *   records.c     the record table and the one decoder every part uses
 *   faults.c      fault codes, their classes and their words
 *   processor.c   runs one buffer of records against the memory system
 *   encoder.c     the kit's abstract render operations as OtherGPU's UMD format
 *   disasm.c      one line per record
 *   binding.c     the exported wk_binding, per-adapter state
 *
 * OtherGPU has no registers the kit can reach: its driver keeps a software
 * ring and lets the kit retire what it submitted, so the binding has no
 * register model and no register BAR.
 *
 * Deterministic and free of global mutable state: the only state is a
 * struct og_adapter per adapter (create/destroy/reset), and the operand
 * latches of one run (SRC, PATTERN, FENCE_VALUE), which start empty with
 * every buffer (the driver never splits a pair across two buffers).
 */
#ifndef OTHERGPU_GPU_H
#define OTHERGPU_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "wddmkit/binding.h"

#include "othergpu_hw.h"
#include "othergpu_umd.h"

/* ------------------------------------------------------------------ */
/* Memory (memory.c)                                                    */
/* ------------------------------------------------------------------ */

/* The system memory OtherGPU's 40-bit DMA reaches: 64 MiB of pages from
 * PFN 0x300000 (bus address 0x3_0000_0000), clear of local memory (64 GiB)
 * and the aperture (128 GiB), and above 4 GiB so that every system address
 * has a non-zero high word (a driver that drops word b faults at once).
 * Only where nothing else gives system memory: the unit tests, a tool
 * without a case. `wddmkit conform` keeps each case's system memory, which
 * is the reference adapter's (256 pages from PFN 0x10000, below 4 GiB)
 * unless the case's `system:` says otherwise (OUTSIDER-NOTES.md). */
#define OGB_SYSMEM_FIRST_PFN 0x300000ull
#define OGB_SYSMEM_PAGES 16384ull

extern const struct wk_gpu_desc og_memory;

/* ------------------------------------------------------------------ */
/* Faults (faults.c)                                                    */
/* ------------------------------------------------------------------ */

/* X(name, class, words): why OtherGPU's command processor halts. The
 * number is wk_exec_fault.code; the class is the kit's. */
#define OGB_FAULT_MAP(X)                                                                         \
    X(OGB_FAULT_NONE, WK_FAULT_NONE, "no fault")                                                 \
    X(OGB_FAULT_CUT, WK_FAULT_DECODE, "fewer than 16 bytes left for a record")                   \
    X(OGB_FAULT_UNKNOWN_OP, WK_FAULT_DECODE, "unknown op")                                       \
    X(OGB_FAULT_NO_ADDRESS, WK_FAULT_OPERAND, "address operand without its valid bit (unpatched)") \
    X(OGB_FAULT_UNALIGNED_PAGE, WK_FAULT_OPERAND, "page address not 4 KiB aligned")              \
    X(OGB_FAULT_BAD_SEGMENT, WK_FAULT_OPERAND, "segment operand names no aperture")              \
    X(OGB_FAULT_PAGE_PAST_APERTURE, WK_FAULT_OPERAND, "page past the aperture's end")            \
    X(OGB_FAULT_FRAME_OUTSIDE_SYSMEM, WK_FAULT_OPERAND, "page address outside system memory")    \
    X(OGB_FAULT_BAD_FLUSH_MODE, WK_FAULT_OPERAND, "CACHE_FLUSH mode is neither 0 nor 1")          \
    X(OGB_FAULT_NO_SRC, WK_FAULT_STATE, "COPY without a SRC before it")                          \
    X(OGB_FAULT_NO_PATTERN, WK_FAULT_STATE, "FILL without a PATTERN before it")                  \
    X(OGB_FAULT_NO_FENCE_VALUE, WK_FAULT_STATE, "FENCE without a FENCE_VALUE before it")         \
    X(OGB_FAULT_MEMORY, WK_FAULT_MEMORY, "memory access refused")                                \
    X(OGB_FAULT_BUDGET, WK_FAULT_BUDGET, "the kit's budget ran out")                             \
    X(OGB_FAULT_BAD_RUN, WK_FAULT_STATE, "the run has no usable memory system or no bytes")

enum ogb_fault_code {
#define OGB_FAULT_ENUM_(name, cls, words) name,
    OGB_FAULT_MAP(OGB_FAULT_ENUM_)
#undef OGB_FAULT_ENUM_
    OGB_FAULT_CODE_COUNT
};

uint32_t ogb_fault_class(uint32_t code);            /* WK_FAULT_STATE outside the table */
const char *ogb_fault_words(uint32_t code);         /* "?" outside the table */
const char *ogb_mem_reason_words(uint32_t reason);  /* a memory system's refusal */
void ogb_fault_text(void *self, const struct wk_exec_fault *f, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Records (records.c)                                                  */
/* ------------------------------------------------------------------ */

#define OGB_OPCODE_NONE 0xFFFFFFFFu   /* wk_exec_fault.opcode: no record read */

/* What words a, b and c of a record hold, for the disassembler. */
enum ogb_operands {
    OGB_NONE,          /* NOP */
    OGB_ADDRESS,       /* a, b: an address (SRC, FENCE, CACHE_FLUSH: c a mode) */
    OGB_ADDRESS_BYTES, /* a, b: an address; c: bytes (COPY, FILL) */
    OGB_PATTERN,       /* a: a 32-bit pattern */
    OGB_PAGE,          /* a, b: a page address; c: segment << 24 | page */
    OGB_SEGMENT,       /* c: a segment */
    OGB_VALUE64,       /* a, b: a 64-bit value, low word first */
};

struct ogb_record_info {
    uint32_t op;
    const char *mnemonic;
    enum ogb_operands operands;
};

/* One decoded record: its words, and its address operand when word b
 * carries the valid bit. */
struct ogb_record {
    const struct ogb_record_info *info;
    uint32_t op, a, b, c;
    int has_address;
    uint64_t address;
};

/* The table entry of an op, or NULL. */
const struct ogb_record_info *ogb_record_info(uint32_t op);
/* Decodes the record at buf[offset], the buffer ending at buf[end]:
 * OGB_FAULT_NONE and *r, or OGB_FAULT_CUT / OGB_FAULT_UNKNOWN_OP (r->op is
 * what was read, OGB_OPCODE_NONE for a cut record). */
uint32_t ogb_decode(const uint8_t *buf, uint64_t end, uint64_t offset, struct ogb_record *r);
/* OtherGPU's address encoding at `at` (8 bytes): 1 and the address when
 * the valid bit is set, else 0. */
int ogb_read_encoded_address(const uint8_t *at, uint64_t *address);
uint32_t ogb_le32(const uint8_t *at);

/* ------------------------------------------------------------------ */
/* The adapter (binding.c)                                              */
/* ------------------------------------------------------------------ */

struct og_adapter_model {
    struct wk_mem *mem;
    const struct wk_mem_ops *mem_ops;
    void *kit;
    void (*log)(void *kit, const char *line);
    /* The last FENCE the processor ran (no register shows it). */
    uint64_t fence_addr, fence_value, fences_written;
};

/* Whether a memory system's table has every member OtherGPU calls. */
int ogb_mem_ops_usable(const struct wk_mem_ops *ops);

extern const struct wk_processor_ops og_processor;
extern const struct wk_encoder_ops og_encoder;
extern const struct wk_disasm_ops og_disasm;

/* The exported object (binding.c), for the tests that link the static
 * library. */
extern __attribute__((visibility("default"))) const struct wk_binding wk_binding;

#endif /* OTHERGPU_GPU_H */
