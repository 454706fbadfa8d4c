/* SPDX-License-Identifier: MIT */
/*
 * registers.c - Heron's MMIO window (heron_hw.h) as the kit's register
 * model (wk_registers_ops of wddmkit/binding.h): the register file, the
 * walk of the ring of submission descriptors, and the interrupt line.
 *
 * The driver programs the ring's bus address and size, writes descriptors
 * into it (host memory the kit hands it, which the GPU reaches at that
 * address) and rings the doorbell by writing the write pointer. The kit
 * then asks next() for the descriptor at the read pointer, runs it, and
 * tells done(): the read pointer advances, FENCE_COMPLETED takes the
 * descriptor's fence, and INT_STATUS latches HERON_INT_FENCE when the
 * descriptor asked for an interrupt (HERON_RING_FLAG_INTERRUPT). A buffer
 * that faulted latches HERON_INT_FAULT and FAULT_FENCE, always; the CP
 * then moves on to the next descriptor (and FENCE_COMPLETED covers the
 * faulted one too, which it retired). INT_STATUS shows every latched
 * event; INT_ENABLE decides which assert the line (irq_pending), and
 * writing 1s to INT_ACK clears them.
 *
 * Nothing a driver writes makes this loop or crash: a write pointer or
 * read pointer outside the ring, a ring of 0 entries, or a ring the memory
 * system will not read leaves the engine idle (the last said once in the
 * case's log); a descriptor with reserved bits set, or whose buffer would
 * wrap the address space, is handed out as an empty buffer and faults.
 */
#include <stdio.h>
#include <string.h>

#include "heron_gpu.h"

#define HERON_RING_FLAGS_KNOWN (HERON_RING_FLAG_PAGING | HERON_RING_FLAG_INTERRUPT)

void heron_registers_power_on(struct heron_registers *r)
{
    memset(r, 0, sizeof *r);
}

/* ENGINE_RESET: the command processor drops what is queued and what it
 * latched; the ring's place and size, the enables and the last fences
 * stay (the driver programs the ring again from empty). */
static void engine_reset(struct heron_registers *r)
{
    r->wptr = 0;
    r->rptr = 0;
    r->int_status = 0;
    r->in_flight = 0;
    r->resets++;
}

static uint32_t heron_read32(void *self, uint32_t bar, uint64_t offset)
{
    const struct heron_registers *r = &((const struct heron_adapter *)self)->regs;
    if (bar != HERON_BAR_REGISTERS || offset >= HERON_MMIO_SIZE || offset % 4 != 0) {
        return 0;
    }
    switch (offset) {
    case HERON_REG_CHIP_ID: return HERON_CHIP_ID_HR2;
    case HERON_REG_INT_STATUS: return r->int_status;
    case HERON_REG_INT_ENABLE: return r->int_enable;
    case HERON_REG_RING_BASE_LO: return r->ring_base_lo;
    case HERON_REG_RING_BASE_HI: return r->ring_base_hi;
    case HERON_REG_RING_ENTRIES: return r->ring_entries;
    case HERON_REG_RING_WPTR: return r->wptr;
    case HERON_REG_RING_RPTR: return r->rptr;
    case HERON_REG_FENCE_COMPLETED: return r->fence_completed;
    case HERON_REG_FAULT_FENCE: return r->fault_fence;
    default: return 0; /* INT_ACK and ENGINE_RESET are write-only; the rest decodes nothing */
    }
}

static void heron_write32(void *self, uint32_t bar, uint64_t offset, uint32_t value)
{
    struct heron_registers *r = &((struct heron_adapter *)self)->regs;
    if (bar != HERON_BAR_REGISTERS || offset >= HERON_MMIO_SIZE || offset % 4 != 0) {
        return;
    }
    switch (offset) {
    case HERON_REG_INT_ACK: r->int_status &= ~value; break;
    case HERON_REG_INT_ENABLE: r->int_enable = value & HERON_INT_ALL; break;
    case HERON_REG_RING_BASE_LO: r->ring_base_lo = value; r->ring_error_logged = 0; break;
    case HERON_REG_RING_BASE_HI: r->ring_base_hi = value; r->ring_error_logged = 0; break;
    case HERON_REG_RING_ENTRIES: r->ring_entries = value; break;
    case HERON_REG_RING_WPTR: r->wptr = value; r->ring_error_logged = 0; break;
    case HERON_REG_ENGINE_RESET:
        if (value & 1u) {
            engine_reset(r);
        }
        break;
    default: break; /* read-only registers and holes ignore writes */
    }
}

/* A descriptor as it sits in memory (HERON_RING_ENTRY, little-endian). */
struct ring_entry {
    uint64_t dma_address;
    uint32_t dma_length, fence_id, flags;
    uint32_t reserved[3];
};

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void parse_entry(const uint8_t raw[sizeof(HERON_RING_ENTRY)], struct ring_entry *e)
{
    e->dma_address = (uint64_t)le32(raw) | (uint64_t)le32(raw + 4) << 32;
    e->dma_length = le32(raw + 8);
    e->fence_id = le32(raw + 12);
    e->flags = le32(raw + 16);
    for (int i = 0; i < 3; i++) {
        e->reserved[i] = le32(raw + 20 + 4 * i);
    }
}

static int entry_is_garbage(const struct ring_entry *e)
{
    return (e->flags & ~HERON_RING_FLAGS_KNOWN) != 0 || e->reserved[0] != 0 || e->reserved[1] != 0 ||
           e->reserved[2] != 0 || e->dma_address > UINT64_MAX - e->dma_length;
}

static void log_ring_error(struct heron_adapter *a, uint64_t at, const struct wk_mem_fault *f)
{
    char line[160];
    if (a->regs.ring_error_logged) {
        return;
    }
    a->regs.ring_error_logged = 1;
    snprintf(line, sizeof line, "ring descriptor %u at 0x%llx unreadable (%s at 0x%llx): the engine stays idle",
             a->regs.rptr, (unsigned long long)at, heron_mem_reason_words(f->reason),
             (unsigned long long)f->addr);
    heron_log(a, line);
}

/* Reads the descriptor at the read pointer: 1 and *e, or 0 (idle). */
static int fetch_entry(struct heron_adapter *a, struct ring_entry *e)
{
    struct heron_registers *r = &a->regs;
    uint8_t raw[sizeof(HERON_RING_ENTRY)];
    struct wk_mem_fault f = { 0 };
    uint64_t base = (uint64_t)r->ring_base_hi << 32 | r->ring_base_lo;
    uint64_t at = base + (uint64_t)r->rptr * sizeof raw;

    if (r->rptr == r->wptr || r->rptr >= r->ring_entries || r->wptr >= r->ring_entries ||
        at < base || a->mem_ops == NULL) {
        return 0;
    }
    if (a->mem_ops->load(a->mem, at, raw, sizeof raw, &f) != 0) {
        log_ring_error(a, at, &f);
        return 0;
    }
    parse_entry(raw, e);
    return 1;
}

/* The descriptor at the read pointer, until done() retires it. */
static int heron_next(void *self, struct wk_submission *out)
{
    struct heron_adapter *a = self;
    struct ring_entry e;

    if (out == NULL || !fetch_entry(a, &e)) {
        return 0;
    }
    memset(out, 0, sizeof *out);
    a->regs.in_flight = 1;
    a->regs.in_flight_refused = entry_is_garbage(&e);
    a->regs.in_flight_flags = e.flags;
    a->regs.in_flight_fence = e.fence_id;
    out->buffer_addr = e.dma_address;
    out->start = 0;
    out->end = a->regs.in_flight_refused ? 0 : e.dma_length; /* garbage runs nothing, then faults */
    out->flags = (e.flags & HERON_RING_FLAG_PAGING) ? WK_EXEC_PAGING : 0;
    out->tag = e.fence_id;
    return 1;
}

static void heron_done(void *self, const struct wk_submission *s, const struct wk_exec_fault *fault)
{
    struct heron_registers *r = &((struct heron_adapter *)self)->regs;

    (void)s; /* the descriptor's own fence and flags, kept by next(), are what the CP latches */
    if (!r->in_flight) {
        return;
    }
    r->in_flight = 0;
    r->rptr = r->rptr + 1 < r->ring_entries ? r->rptr + 1 : 0;
    r->fence_completed = r->in_flight_fence;
    if ((fault != NULL && fault->cls != WK_FAULT_NONE) || r->in_flight_refused) {
        r->fault_fence = r->in_flight_fence;
        r->int_status |= HERON_INT_FAULT;
    } else if (r->in_flight_flags & HERON_RING_FLAG_INTERRUPT) {
        r->int_status |= HERON_INT_FENCE;
    }
}

static int heron_irq_pending(void *self)
{
    const struct heron_registers *r = &((const struct heron_adapter *)self)->regs;
    return (r->int_status & r->int_enable) != 0;
}

const struct wk_registers_ops heron_registers = {
    .size = sizeof(struct wk_registers_ops),
    .read32 = heron_read32,
    .write32 = heron_write32,
    .next = heron_next,
    .done = heron_done,
    .irq_pending = heron_irq_pending,
};
