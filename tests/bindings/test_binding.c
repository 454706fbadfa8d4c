/* SPDX-License-Identifier: MIT */
/*
 * test_binding.c - hardware bindings for the kit's tests of binding.h,
 * one module per variant (tests/binding_tests.cmake):
 *
 *   TB_GOOD           a binding of the kit's own memory layout whose
 *                     processor runs the kit's command set (decoded with
 *                     gpu.h's decoder, run through processor.h alone, as
 *                     a binding of other hardware would), so the reference
 *                     driver's buffers run through the binding path;
 *   TB_BAD_MAGIC, TB_ABI_2, TB_SMALL, TB_NO_EXEC, TB_BAD_BAR, TB_NO_MEMORY
 *                     refused when loaded, each for its reason;
 *   TB_CRASH_EXEC     its processor dereferences NULL (BIND-CRASH-001);
 *   TB_LOOP_EXEC      its processor never returns (BIND-HANG-001);
 *   TB_BAD_FAULT      it reports a fault of class 99 (BIND-RESULT-001);
 *   TB_IGNORE_BUDGET  it runs on after spend() said the budget is gone
 *                     (BIND-BUDGET-001);
 *   TB_CRASH_REGWRITE a register model on BAR0 at the kit's BAR0 address
 *                     whose write32 dereferences NULL: the reference
 *                     driver built with RD_MMIO writes it from its DDIs
 *                     (BIND-CRASH-001; the driver's call unwound, unblamed);
 *   TB_NONDET         runs the kit's format, but every other run also
 *                     writes a word of its own (global state: not
 *                     deterministic, which `binding check` finds);
 *   TB_FAULTS         every buffer faults at its first command (a DECODE
 *                     fault: the driver's, PAGING-GPU-001), worded by its
 *                     fault_text and listed by its disassembler;
 *   TB_GREEDY_OPAQUE  TB_GOOD with an encoder that says it took one opaque
 *                     byte more than it was given (BIND-RESULT-001);
 *   TB_OVERREAD_OPAQUE TB_GOOD with an encoder that reads the byte past its
 *                     opaque bytes, without counting it (BIND-CRASH-001:
 *                     the kit hands them with a guard page after them);
 *   TB_RENDER_ENCODER TB_GOOD with a render encoder that can say nothing
 *                     (every render step a skip) and no allocation
 *                     encoder: CreateAllocation still gets the kit's
 *                     request, whose format's checks then run;
 *   TB_NODE_ENCODER   TB_GOOD with a render encoder that says which node it
 *                     got (wk_encode_render.node) and encodes nothing;
 *   TB_SLOT5          TB_GOOD whose patch slots are 5 bytes at any offset
 *   TB_SLOT12         the same with 12-byte slots (an address and 4 bytes of flags)
 *   TB_GPUMMU         TB_GOOD whose processor also says its GPU's MMU:
 *                     the kit's GPU's tree and entry reading (processor.h
 *                     mmu_geometry, mmu_decode), so a GpuMmu driver's page
 *                     tables are judged through the binding path; its
 *                     encoder writes a virtual context's buffers
 *                     (encoder.commands) in the kit's command set;
 *   TB_GPUMMU2        TB_GPUMMU whose GPU walks the kit's two-level tree: a
 *                     leaf of 512 under a root the driver sizes, which the
 *                     kit bounds by the NumEntries it gave (no registers);
 *   TB_ENC_FILL_WRONG TB_GPUMMU whose encoder's FILL says another pattern than
 *                     the one asked: `binding check` finds the encoder and
 *                     the processor disagree;
 *   TB_GPUMMU_REGS    TB_GPUMMU with a register model, the kit's GPU's ring
 *                     registers (kit_registers.c): a virtual submission
 *                     runs under the root the driver wrote (RING_ROOT);
 *   TB_MMU_MISREAD    TB_GPUMMU whose hardware reads every leaf entry one
 *                     page on: the reference driver's entries then do not
 *                     say what the hardware reads (PAGING-UPDATEPT-001);
 *   TB_MMU_HALF       a geometry without an entry reader: refused;
 *   TB_SPEND_BUDGET   TB_GOOD, but every render buffer spends the kit's
 *                     whole budget and stops with a BUDGET fault, as
 *                     processor.h asks: a limit of the kit's, never the
 *                     driver's
 *                     (read_address: a 40-bit little-endian address), as
 *                     an outsider's Finch F1 has them: with the driver
 *                     tests/driver_build/patch_five_byte_slots.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "kit_format.h"
#include "kit_registers.h"
#include "wddmkit/binding.h"

#ifdef TB_ENC_FILL_WRONG /* TB_GPUMMU whose encoder's FILL writes another pattern */
#define TB_GPUMMU 1
#endif
#ifdef TB_GPUMMU2 /* TB_GPUMMU whose GPU walks the kit's two-level tree */
#define TB_GPUMMU 1
#endif

#if defined(TB_GOOD) || defined(TB_CRASH_EXEC) || defined(TB_LOOP_EXEC) || defined(TB_BAD_FAULT) || \
    defined(TB_IGNORE_BUDGET) || defined(TB_NO_MEMORY) || defined(TB_FAULTS) || defined(TB_CRASH_REGWRITE) || \
    defined(TB_NONDET) || defined(TB_GREEDY_OPAQUE) || defined(TB_OVERREAD_OPAQUE) || defined(TB_RENDER_ENCODER) || \
    defined(TB_SLOT5) || defined(TB_SLOT12) || defined(TB_SPEND_BUDGET) || defined(TB_GPUMMU) ||            \
    defined(TB_MMU_MISREAD) || defined(TB_MMU_HALF) || defined(TB_GPUMMU_REGS) || defined(TB_NODE_ENCODER)
#define TB_RUNS 1
#endif

/* The kit's reference adapter, as gpu.h describes it: the memory the
 * reference driver reports. */
static const uint64_t bank_ends[4] = { 0x40000, 0x80000, 0xC0000, 0x100000 };
static const struct wk_gpu_segment_desc segments[3] = {
    { WK_GPU_SEGMENT_MEMORY, 0x100000, 0x100000, 0, NULL },
    { WK_GPU_SEGMENT_MEMORY, 0x400000, 0x100000, 4, bank_ends },
    { WK_GPU_SEGMENT_APERTURE, 0x800000, 0x40000, 0, NULL },
};
__attribute__((unused)) static const struct wk_gpu_desc memory = { 3, segments, 0x10000, 256, 0, 0, 0, 0, 0 };

#ifdef TB_FAULTS
static void fault_text(void *self, const struct wk_exec_fault *f, char *buf, size_t size)
{
    (void)self;
    snprintf(buf, size, "test fault %u", f->code);
}

/* One line per 4 bytes: "0x0000: TESTOP 0x..". */
static uint64_t list(void *self, const uint8_t *buf, uint64_t len, uint64_t start, wk_binding_line_fn *sink,
                     void *user)
{
    (void)self;
    uint64_t n = 0;
    for (uint64_t at = start; at + 4 <= len; at += 4, n++) {
        char line[64];
        snprintf(line, sizeof(line), "0x%04llx: TESTOP 0x%02x", (unsigned long long)at, buf[at]);
        sink(user, line);
    }
    return n;
}

static const struct wk_disasm_ops disasm = { sizeof(struct wk_disasm_ops), 0, list };
#define TB_DISASM &disasm
#define TB_FAULT_TEXT fault_text
#else
#define TB_DISASM NULL
#define TB_FAULT_TEXT NULL
#endif

#ifdef TB_RUNS
static int run(void *self, const struct wk_exec *x, struct wk_exec_fault *fault)
{
    (void)self;
#if defined(TB_CRASH_EXEC)
    volatile int *nowhere = NULL;
    (void)x;
    (void)fault;
    return *nowhere;
#elif defined(TB_LOOP_EXEC)
    (void)x;
    (void)fault;
    for (volatile int spin = 1; spin;) {
    }
    return 0;
#elif defined(TB_BAD_FAULT)
    memset(fault, 0, sizeof(*fault));
    fault->cls = 99;
    fault->offset = x->start;
    return 1;
#elif defined(TB_NONDET)
    static uint32_t runs;
    if (runs++ % 2) {
        struct wk_mem_fault mf;
        uint32_t word = runs;
        (void)x->mem_ops->store(x->mem, 0x100000, &word, 4, &mf);
    }
    return wk_test_kit_format_exec(x, fault);
#elif defined(TB_FAULTS)
    memset(fault, 0, sizeof(*fault));
    fault->cls = WK_FAULT_DECODE;
    fault->code = 7;
    fault->offset = x->start;
    fault->opcode = x->bytes[x->start];
    return 1;
#elif defined(TB_IGNORE_BUDGET)
    while (x->ops->spend(x, 1u << 20, 0) == 0) {
    }
    (void)fault;
    return 0;
#elif defined(TB_SPEND_BUDGET)
    if (x->flags & WK_EXEC_PAGING)
        return wk_test_kit_format_exec(x, fault);
    while (x->ops->spend(x, 1u << 20, 0) == 0) {
    }
    memset(fault, 0, sizeof(*fault));
    fault->cls = WK_FAULT_BUDGET;
    fault->offset = x->start;
    fault->opcode = x->bytes[x->start];
    return 1;
#else
    return wk_test_kit_format_exec(x, fault);
#endif
}

#if defined(TB_SLOT5) || defined(TB_SLOT12)
#ifdef TB_SLOT5
#define TB_SLOT_BYTES 5u /* a 40-bit address */
#else
#define TB_SLOT_BYTES 12u /* a 64-bit address and 4 bytes of the field's own (flags) */
#endif
/* An address slot of TB_SLOT_BYTES at any offset (no dword alignment):
 * its first bytes, up to 8, little-endian, are the address. */
static int read_address(void *self, const uint8_t *dma, uint64_t len, uint64_t offset, uint64_t *address,
                        uint32_t *slot_bytes)
{
    (void)self;
    if (offset > len || len - offset < TB_SLOT_BYTES)
        return -1;
    *address = 0;
    for (unsigned k = 0; k < TB_SLOT_BYTES && k < 8; k++)
        *address |= (uint64_t)dma[offset + k] << (8 * k);
    *slot_bytes = TB_SLOT_BYTES;
    return 0;
}
#define TB_READ_ADDRESS read_address
#else
#define TB_READ_ADDRESS wk_test_kit_format_read_address
#endif

#if defined(TB_GPUMMU) || defined(TB_GPUMMU_REGS) || defined(TB_MMU_MISREAD) || defined(TB_MMU_HALF)
/* The kit's GPU's MMU (docs/gpu-model.md, "GPU virtual addresses"): 3
 * levels of 512 eight-byte entries over 4 KiB pages. */
#ifdef TB_GPUMMU2 /* a leaf of 512 under a root of up to 2^18, sized by the driver */
static const struct wk_mmu_geometry mmu_tree = { 2, 12, { { 9, 8 }, { 18, 8 } } };
#else
static const struct wk_mmu_geometry mmu_tree = { 3, 12, { { 9, 8 }, { 9, 8 }, { 9, 8 } } };
#endif
#endif
#if defined(TB_GPUMMU) || defined(TB_GPUMMU_REGS) || defined(TB_MMU_MISREAD)
static int mmu_read(void *self, uint32_t level, const uint8_t *entry, uint32_t entry_bytes, struct wk_mmu_entry *out)
{
    (void)self;
    int got = wk_gpu_mmu_decode(NULL, level, entry, entry_bytes, out);
#ifdef TB_MMU_MISREAD
    if (got == 0 && out->valid && level == 0)
        out->address += 0x1000;
#endif
    return got;
}
#define TB_MMU .mmu_geometry = &mmu_tree, .mmu_decode = mmu_read
#elif defined(TB_MMU_HALF)
#define TB_MMU .mmu_geometry = &mmu_tree
#else
#define TB_MMU .reserved = 0
#endif

static const struct wk_processor_ops processor = { .size = sizeof(struct wk_processor_ops), .exec = run,
                                                   .read_address = TB_READ_ADDRESS, .fault_text = TB_FAULT_TEXT,
                                                   TB_MMU };
#endif

#if defined(TB_NO_EXEC)
static const struct wk_processor_ops processor = { .size = sizeof(struct wk_processor_ops) };
#define TB_PROCESSOR &processor
#elif defined(TB_RUNS)
#define TB_PROCESSOR &processor
#else
#define TB_PROCESSOR NULL
#endif

#ifdef TB_BAD_BAR
static const struct wk_binding_bar bars[1] = { { WK_BAR_SEGMENT, 3, 0xE0000000, 0x40000 } };
#define TB_BARS bars, 1
#elif defined(TB_CRASH_REGWRITE) || defined(TB_GPUMMU_REGS)
static const struct wk_binding_bar bars[1] = { { WK_BAR_REGISTERS, 0, 0xF0000000, 0x1000 } };
#define TB_BARS bars, 1
#else
#define TB_BARS NULL, 0
#endif

#ifdef TB_NO_MEMORY
#define TB_MEMORY NULL
#else
#define TB_MEMORY &memory
#endif

#if defined(TB_BAD_MAGIC)
#define TB_HEADER 0x12345678u, WK_BINDING_ABI_VERSION, (uint32_t)sizeof(struct wk_binding), 0u, "test", "1.0"
#elif defined(TB_ABI_2)
#define TB_HEADER WK_BINDING_MAGIC, 2u, (uint32_t)sizeof(struct wk_binding), 0u, "test", "2.0"
#elif defined(TB_SMALL)
#define TB_HEADER WK_BINDING_MAGIC, WK_BINDING_ABI_VERSION, 24u, 0u, "test", "1.0"
#else
#define TB_HEADER WK_BINDING_HEADER("test", "1.0")
#endif

#ifdef TB_CRASH_REGWRITE
/* The kit's GPU's id register, so the driver takes the device for its own. */
static uint32_t read32(void *self, uint32_t bar, uint64_t offset)
{
    (void)self;
    (void)bar;
    return offset == WK_GPU_REG_ID ? WK_GPU_ID : 0;
}

static void write32(void *self, uint32_t bar, uint64_t offset, uint32_t value)
{
    (void)self;
    (void)bar;
    (void)offset;
    *(volatile uint32_t *)(uintptr_t)(value & 0) = value;
}

static int next(void *self, struct wk_submission *out)
{
    (void)self;
    (void)out;
    return 0;
}

static void done(void *self, const struct wk_submission *s, const struct wk_exec_fault *f)
{
    (void)self;
    (void)s;
    (void)f;
}

static int irq_pending(void *self)
{
    (void)self;
    return 0;
}

static const struct wk_registers_ops registers = { sizeof(struct wk_registers_ops), 0, read32, write32, next, done,
                                                   irq_pending, NULL };
#define TB_REGISTERS &registers
#elif defined(TB_GPUMMU_REGS)
static const struct wk_registers_ops registers = { sizeof(struct wk_registers_ops), 0, wk_test_regs_read32,
                                                   wk_test_regs_write32, wk_test_regs_next, wk_test_regs_done,
                                                   wk_test_regs_irq_pending, wk_test_regs_root };
#define TB_REGISTERS &registers
#else
#define TB_REGISTERS NULL
#endif

#ifdef TB_GPUMMU_REGS
#define TB_LIFE wk_test_regs_create, wk_test_regs_destroy, wk_test_regs_reset
#else
#define TB_LIFE NULL, NULL, NULL
#endif

#if defined(TB_GREEDY_OPAQUE) || defined(TB_OVERREAD_OPAQUE)
/* The kit's format, empty (a header and no record): the kit must refuse
 * the answer before Render sees it. */
static int misbehaving_render(void *self, struct wk_encode_render *r)
{
    static const uint8_t empty[16] = { 'W', 'K', 'C', 'B', 1 };
    (void)self;
    if (r->command_cap < sizeof(empty))
        return WK_ENCODE_SKIP;
    memcpy(r->command, empty, sizeof(empty));
    r->command_length = sizeof(empty);
#ifdef TB_GREEDY_OPAQUE
    r->opaque_used = r->opaque_length + 1;
#else
    if (r->opaque && r->opaque_length)
        r->command[15] = ((const volatile uint8_t *)r->opaque)[r->opaque_length]; /* one past the end */
    r->command[15] = 0;
#endif
    return WK_ENCODE_OK;
}

static const struct wk_encoder_ops encoder = { sizeof(struct wk_encoder_ops),
                                               (1u << WK_USER_OP_NOP) | (1u << WK_USER_OP_FILL) |
                                                   (1u << WK_USER_OP_COPY) | (1u << WK_USER_OP_WRITE32) |
                                                   (1u << WK_USER_OP_BLIT),
                                               misbehaving_render, NULL, NULL };
#define TB_ENCODER &encoder
#elif defined(TB_RENDER_ENCODER)
static int says_nothing(void *self, struct wk_encode_render *r)
{
    (void)self;
    snprintf(r->why, sizeof(r->why), "the test binding's encoder says no operation");
    return WK_ENCODE_SKIP;
}

static const struct wk_encoder_ops encoder = { sizeof(struct wk_encoder_ops), 1u << WK_USER_OP_NOP, says_nothing,
                                               NULL, NULL };
#define TB_ENCODER &encoder
#elif defined(TB_NODE_ENCODER)
static int says_node(void *self, struct wk_encode_render *r)
{
    (void)self;
    snprintf(r->why, sizeof(r->why), "the test binding's encoder got node %u", r->node);
    return WK_ENCODE_SKIP;
}

static const struct wk_encoder_ops encoder = { sizeof(struct wk_encoder_ops), 1u << WK_USER_OP_FILL, says_node, NULL,
                                               NULL };
#define TB_ENCODER &encoder
#elif defined(TB_GPUMMU) || defined(TB_GPUMMU_REGS)
/* A virtual context's command buffer: the kit's own command set, which
 * this binding's processor runs (encoder.commands). */
static int write_commands(void *self, struct wk_encode_commands *c)
{
    (void)self;
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, c->buf, c->cap);
    uint32_t value = c->value;
#ifdef TB_ENC_FILL_WRONG
    value ^= 0x01010101u;
#endif
    wk_status st = c->op == WK_USER_OP_COPY ? wk_gpu_emit_copy(&w, c->src, c->dst, c->size)
                                            : wk_gpu_emit_fill(&w, c->dst, c->size, value);
    c->length = (uint32_t)w.used;
    return st == WK_OK ? WK_ENCODE_OK : WK_ENCODE_SKIP;
}

static const struct wk_encoder_ops encoder = { .size = sizeof(struct wk_encoder_ops), .commands = write_commands };
#define TB_ENCODER &encoder
#else
#define TB_ENCODER NULL
#endif

WK_BINDING_DEFINE = { TB_HEADER,    TB_MEMORY, TB_BARS,      0,        TB_LIFE, TB_PROCESSOR,
                      TB_ENCODER, TB_REGISTERS, TB_DISASM };
