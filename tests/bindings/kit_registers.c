/* SPDX-License-Identifier: MIT */
/*
 * kit_registers.c - the kit's GPU's ring registers as a binding's register
 * model (kit_registers.h). A submission's flags are 0: the registers do not
 * say whether a buffer is a paging buffer, and the kit's command set runs
 * the same either way.
 */
#include "kit_registers.h"

#include <stdlib.h>
#include <string.h>

#define QUEUE 64u

/* A queued submission and the root latched with it. */
struct queued {
    struct wk_submission s;
    uint64_t root;
};

struct regs {
    uint64_t ring_addr, ring_root;
    uint32_t ring_length, ring_tag;
    struct queued queue[QUEUE];
    uint64_t current_root;                 /* of the submission next() handed out last */
    uint32_t head, count;
    uint32_t irq_status, completed_tag, fault_tag, fault_reason;
};

void *wk_test_regs_create(const struct wk_binding_host *host)
{
    (void)host;
    return calloc(1, sizeof(struct regs));
}

void wk_test_regs_destroy(void *self)
{
    free(self);
}

void wk_test_regs_reset(void *self)
{
    memset(self, 0, sizeof(struct regs));
}

uint32_t wk_test_regs_read32(void *self, uint32_t bar, uint64_t offset)
{
    const struct regs *r = self;
    (void)bar;
    switch (offset) {
    case WK_GPU_REG_ID: return WK_GPU_ID;
    case WK_GPU_REG_QUEUE_DEPTH: return r->count;
    case WK_GPU_REG_IRQ_STATUS: return r->irq_status;
    case WK_GPU_REG_COMPLETED_TAG: return r->completed_tag;
    case WK_GPU_REG_FAULT_TAG: return r->fault_tag;
    case WK_GPU_REG_FAULT_REASON: return r->fault_reason;
    case WK_GPU_REG_RING_ROOT_LO: return (uint32_t)r->ring_root;
    case WK_GPU_REG_RING_ROOT_HI: return (uint32_t)(r->ring_root >> 32);
    default: return 0;
    }
}

static void set_lo(uint64_t *v, uint32_t lo)
{
    *v = (*v & ~0xFFFFFFFFull) | lo;
}

static void set_hi(uint64_t *v, uint32_t hi)
{
    *v = (*v & 0xFFFFFFFFull) | (uint64_t)hi << 32;
}

static void doorbell(struct regs *r)
{
    if (r->count == QUEUE)
        return; /* dropped, as a ring that wraps onto unfinished work */
    struct queued *q = &r->queue[(r->head + r->count++) % QUEUE];
    memset(q, 0, sizeof(*q));
    q->s.buffer_addr = r->ring_addr;
    q->s.end = r->ring_length;
    q->s.tag = r->ring_tag;
    q->root = r->ring_root;
}

void wk_test_regs_write32(void *self, uint32_t bar, uint64_t offset, uint32_t value)
{
    struct regs *r = self;
    (void)bar;
    switch (offset) {
    case WK_GPU_REG_RING_ADDR_LO: set_lo(&r->ring_addr, value); break;
    case WK_GPU_REG_RING_ADDR_HI: set_hi(&r->ring_addr, value); break;
    case WK_GPU_REG_RING_LENGTH: r->ring_length = value; break;
    case WK_GPU_REG_RING_TAG: r->ring_tag = value; break;
    case WK_GPU_REG_RING_ROOT_LO: set_lo(&r->ring_root, value); break;
    case WK_GPU_REG_RING_ROOT_HI: set_hi(&r->ring_root, value); break;
    case WK_GPU_REG_DOORBELL: doorbell(r); break;
    case WK_GPU_REG_IRQ_ACK: r->irq_status &= ~value; break;
    default: break;
    }
}

int wk_test_regs_next(void *self, struct wk_submission *out)
{
    struct regs *r = self;
    if (!r->count)
        return 0;
    *out = r->queue[r->head].s;
    r->current_root = r->queue[r->head].root;
    r->head = (r->head + 1) % QUEUE;
    r->count--;
    return 1;
}

void wk_test_regs_done(void *self, const struct wk_submission *s, const struct wk_exec_fault *fault)
{
    struct regs *r = self;
    if (fault) {
        r->irq_status |= WK_GPU_IRQ_FAULT;
        r->fault_tag = s->tag;
        r->fault_reason = fault->mem_reason;
    }
    r->completed_tag = s->tag;
    r->irq_status |= WK_GPU_IRQ_COMPLETED;
}

int wk_test_regs_irq_pending(void *self)
{
    return ((const struct regs *)self)->irq_status != 0;
}

uint64_t wk_test_regs_root(void *self, const struct wk_submission *s)
{
    (void)s;
    return ((const struct regs *)self)->current_root;
}
