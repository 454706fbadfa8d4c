/* SPDX-License-Identifier: MIT */
/*
 * heron_gpu.h - the model of the Heron HR-2 render engine, as a wddmkit
 * binding (wddmkit/binding.h): what its parts share.
 *
 * The hardware is the one its miniport programs
 * (examples/drivers/wdkstyle/heron_hw.h: registers, ring, packets) and the
 * user-mode stream its UMD writes (heron_umd.h there). This folder
 * includes those two headers and nothing of the driver: a binding is the
 * GPU side, and it never calls driver code.
 *
 *   memory.c      the memory map (segments, system-memory window)
 *   packets.c     the packet table and the decoder every other part uses
 *   processor.c   runs one buffer of packets against the memory system
 *   faults.c      fault codes, their classes and their words
 *   registers.c   the MMIO register file, the ring walk and the interrupt line
 *   encoder.c     the kit's abstract render operations as Heron's UMD stream
 *   disasm.c      one line per packet
 *   binding.c     the exported wk_binding, per-adapter state
 *
 * Everything is deterministic and free of global mutable state: the only
 * state is a struct heron_adapter per adapter (create/destroy/reset).
 */
#ifndef HERON_GPU_H
#define HERON_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "wddmkit/binding.h"

/* heron_hw.h is written against the Windows types (ULONG, C_ASSERT);
 * wddmkit/d3dkmddi.h gives the types, and C_ASSERT is ntdef.h's. */
#ifndef C_ASSERT
#define C_ASSERT(e) WK_STATIC_ASSERT(e, "C_ASSERT(" #e ")")
#endif
#include "heron_hw.h"
#include "heron_umd.h"

/* ------------------------------------------------------------------ */
/* Memory (memory.c)                                                    */
/* ------------------------------------------------------------------ */

/* The system memory Heron's 40-bit DMA reaches, as the kit models it: 64
 * MiB of pages from PFN 0x300000 (bus address 0x3_0000_0000), above the
 * local memory and the aperture, so that every system address has a
 * non-zero high dword. */
#define HERON_SYSMEM_FIRST_PFN 0x300000ull
#define HERON_SYSMEM_PAGES 16384ull

extern const struct wk_gpu_desc heron_memory;

/* ------------------------------------------------------------------ */
/* Faults (faults.c)                                                    */
/* ------------------------------------------------------------------ */

/* X(name, class, words): the reasons Heron's command processor halts.
 * The number is wk_exec_fault.code; the class is the kit's. */
#define HERON_FAULT_MAP(X)                                                                       \
    X(HERON_FAULT_NONE, WK_FAULT_NONE, "no fault")                                               \
    X(HERON_FAULT_TRUNCATED_HEADER, WK_FAULT_DECODE, "fewer than 4 bytes left for a header")     \
    X(HERON_FAULT_UNKNOWN_OPCODE, WK_FAULT_DECODE, "unknown opcode")                             \
    X(HERON_FAULT_ZERO_LENGTH, WK_FAULT_DECODE, "packet length 0")                               \
    X(HERON_FAULT_PAST_END, WK_FAULT_DECODE, "packet runs past the end of the buffer")           \
    X(HERON_FAULT_BAD_LENGTH, WK_FAULT_DECODE, "packet length is not its opcode's")              \
    X(HERON_FAULT_RESERVED_FLAGS, WK_FAULT_OPERAND, "reserved header flags set")                 \
    X(HERON_FAULT_TRANSFER_TOO_LARGE, WK_FAULT_OPERAND, "transfer over the engine's 1 MiB")      \
    X(HERON_FAULT_TOO_MANY_PAGES, WK_FAULT_OPERAND, "GART_WRITE of more than 64 pages")          \
    X(HERON_FAULT_BAD_SEGMENT, WK_FAULT_OPERAND, "segment operand names no aperture")            \
    X(HERON_FAULT_PAGES_PAST_APERTURE, WK_FAULT_OPERAND, "page range runs past the aperture")    \
    X(HERON_FAULT_PFN_OUTSIDE_SYSMEM, WK_FAULT_OPERAND, "frame number outside system memory")    \
    X(HERON_FAULT_MEMORY, WK_FAULT_MEMORY, "memory access refused")                              \
    X(HERON_FAULT_BUDGET, WK_FAULT_BUDGET, "the kit's budget ran out")                           \
    X(HERON_FAULT_BAD_RUN, WK_FAULT_STATE, "the run has no usable memory system or no bytes")

enum heron_fault_code {
#define HERON_FAULT_ENUM_(name, cls, words) name,
    HERON_FAULT_MAP(HERON_FAULT_ENUM_)
#undef HERON_FAULT_ENUM_
    HERON_FAULT_CODE_COUNT
};

/* The kit's class of a code (WK_FAULT_STATE outside the table). */
uint32_t heron_fault_class(uint32_t code);
/* "unknown opcode"; "?" outside the table. */
const char *heron_fault_words(uint32_t code);
/* The words of a memory system's refusal (wk_mem_fault.reason). */
const char *heron_mem_reason_words(uint32_t reason);
/* wk_processor_ops.fault_text: "COPY at +0x18: transfer over the ..." */
void heron_fault_text(void *self, const struct wk_exec_fault *f, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Packets (packets.c)                                                  */
/* ------------------------------------------------------------------ */

#define HERON_OPCODE_NONE 0xFFFFFFFFu   /* wk_exec_fault.opcode: no header read */
#define HERON_MAX_FIELDS 5u

/* How an operand is read and printed. A 64-bit operand is two dwords,
 * low first. */
enum heron_field_kind {
    HERON_FIELD_U32,        /* a count or a page number, decimal */
    HERON_FIELD_BYTES,      /* a transfer length, at most HERON_MAX_TRANSFER_BYTES */
    HERON_FIELD_PATTERN,    /* a 32-bit fill pattern, hex */
    HERON_FIELD_SEGMENT,    /* a segment id */
    HERON_FIELD_ADDRESS,    /* a 64-bit GPU address */
    HERON_FIELD_U64,        /* a 64-bit value or frame number, hex */
};

struct heron_field {
    const char *name;            /* as the disassembler prints it */
    enum heron_field_kind kind;
    uint32_t dword;              /* index in the packet, header = 0 */
};

struct heron_packet_info {
    uint32_t opcode;             /* HERON_OP_* */
    const char *mnemonic;
    uint32_t dwords;             /* its length; GART_WRITE: the part before its frames */
    uint32_t allowed_flags;      /* header bits 16..31 it takes */
    uint32_t field_count;
    struct heron_field fields[HERON_MAX_FIELDS];
    int has_frames;              /* GART_WRITE: count (dword 3) x (pfn lo, pfn hi) follow */
};

/* The table entry of an opcode, or NULL. */
const struct heron_packet_info *heron_packet_info(uint32_t opcode);

/* One decoded packet: bytes points at its header in the caller's buffer. */
struct heron_packet {
    const struct heron_packet_info *info;
    const uint8_t *bytes;
    uint32_t opcode;             /* HERON_OPCODE_NONE when no header was read */
    uint32_t dwords;
    uint32_t flags;
};

/*
 * Decodes the packet at buf[offset], the buffer ending at buf[end]: its
 * header, its length against the opcode's and the buffer's end, its flags
 * and the operand limits the packet alone shows (transfer size, frame
 * count). HERON_FAULT_NONE and *p, or the code of the first thing wrong
 * (p->opcode says what was read).
 */
uint32_t heron_decode(const uint8_t *buf, uint64_t end, uint64_t offset, struct heron_packet *p);

/* Dword `index` of a packet, and the 64-bit operand at dwords index and
 * index + 1 (little-endian, low first). */
uint32_t heron_dword(const struct heron_packet *p, uint32_t index);
uint64_t heron_qword(const struct heron_packet *p, uint32_t index);

/* ------------------------------------------------------------------ */
/* Registers (registers.c)                                              */
/* ------------------------------------------------------------------ */

/* The register file and the ring walk (heron_hw.h's registers). */
struct heron_registers {
    uint32_t int_status;         /* latched HERON_INT_* events */
    uint32_t int_enable;         /* which of them drive the line */
    uint32_t ring_base_lo, ring_base_hi;
    uint32_t ring_entries;
    uint32_t wptr, rptr;
    uint32_t fence_completed, fault_fence;
    uint32_t resets;             /* ENGINE_RESET writes, for the log */
    /* The entry next() handed out and done() retires. */
    int in_flight;
    int in_flight_refused;       /* a garbage entry: done() latches a fault */
    uint32_t in_flight_flags, in_flight_fence;
    int ring_error_logged;       /* said once per doorbell that the ring is unreadable */
};

/* The register model's index of the MMIO BAR in wk_binding.bars. */
#define HERON_BAR_REGISTERS 0u
#define HERON_BAR_LOCAL_MEMORY 1u

/* ------------------------------------------------------------------ */
/* The adapter (binding.c)                                              */
/* ------------------------------------------------------------------ */

struct heron_adapter {
    struct wk_mem *mem;
    const struct wk_mem_ops *mem_ops;
    void *kit;
    void (*log)(void *kit, const char *line);
    struct heron_registers regs;
    /* The last FENCE_WRITE the processor ran: the register model's view
     * of the monitored fences (no register shows it). */
    uint64_t fence_addr, fence_value, fences_written;
};

/* A line in the case's log, when the kit gave a sink. */
void heron_log(const struct heron_adapter *a, const char *line);
/* Power-on state of the registers (ENGINE_RESET does less: registers.c). */
void heron_registers_power_on(struct heron_registers *r);
/* Whether a memory system's table has every member Heron calls. */
int heron_mem_ops_usable(const struct wk_mem_ops *ops);

extern const struct wk_processor_ops heron_processor;
extern const struct wk_registers_ops heron_registers;
extern const struct wk_encoder_ops heron_encoder;
extern const struct wk_disasm_ops heron_disasm;

/* The exported object (binding.c); binding.h names it but declares no
 * object, so the tests that link the static library reach it here. */
extern __attribute__((visibility("default"))) const struct wk_binding wk_binding;

#endif /* HERON_GPU_H */
