/* SPDX-License-Identifier: MIT */
/*
 * kit_format.c - a command processor for the kit's own command set
 * (docs/gpu-model.md), written against processor.h alone: the commands
 * decoded with gpu.h's decoder, memory reached only through the memory
 * system's table. What the test bindings run (tests/bindings/
 * test_binding.c, and the binding rows of tests/test_vidmm_rules.c), so
 * the reference driver's buffers go through the binding path unchanged.
 * CALL is not this processor's: a STATE fault.
 */
#include <stddef.h>
#include <string.h>

#include "kit_format.h"

/* Stops with a fault of class cls at the command at `at`. */
static int stop(struct wk_exec_fault *f, uint32_t cls, uint64_t at, uint32_t opcode, const struct wk_mem_fault *m)
{
    memset(f, 0, sizeof(*f));
    f->cls = cls;
    f->offset = at;
    f->opcode = opcode;
    if (m) {
        f->mem_reason = m->reason;
        f->fault_addr = m->addr;
    }
    return 1;
}

/* One command of the kit's format (docs/gpu-model.md), on the memory
 * through processor.h only: 0 done, 1 a fault in *f. */
static int one(const struct wk_exec *x, const struct wk_gpu_cmd *c, uint64_t at, struct wk_exec_fault *f)
{
    const struct wk_mem_ops *m = x->mem_ops;
    struct wk_mem_fault mf = { 0, 0, 0 };
    const uint64_t *o = c->operands;
    int bad = 0;
    switch (c->opcode) {
    case WK_GPU_OP_NOP: break;
    case WK_GPU_OP_COPY:
        if (x->ops->spend(x, 1, o[2]) != 0)
            return stop(f, WK_FAULT_BUDGET, at, c->opcode, NULL);
        bad = m->copy(x->mem, o[1], o[0], o[2], &mf);
        break;
    case WK_GPU_OP_FILL: {
        uint32_t pattern = (uint32_t)o[2];
        if (x->ops->spend(x, 1, o[1]) != 0)
            return stop(f, WK_FAULT_BUDGET, at, c->opcode, NULL);
        bad = m->fill(x->mem, o[0], o[1], &pattern, 4, &mf);
        break;
    }
    case WK_GPU_OP_WRITE32: {
        uint32_t v = (uint32_t)o[1];
        bad = m->store(x->mem, o[0], &v, 4, &mf);
        break;
    }
    case WK_GPU_OP_WRITE64: bad = m->store(x->mem, o[0], &o[1], 8, &mf); break;
    case WK_GPU_OP_FENCE:
        bad = m->store(x->mem, o[0], &o[1], 8, &mf);
        if (!bad)
            x->ops->fence(x, o[0], o[1]);
        break;
    case WK_GPU_OP_GART_MAP: {
        uint64_t pfns[64];
        for (uint32_t done = 0; done < c->list_count && !bad;) {
            uint32_t n = c->list_count - done < 64 ? c->list_count - done : 64;
            memcpy(pfns, c->list + (uint64_t)done * 8, (size_t)n * 8);
            bad = m->gart_write(x->mem, (uint32_t)o[0], o[1] + done, n, pfns, 0, &mf);
            done += n;
        }
        break;
    }
    case WK_GPU_OP_GART_UNMAP: bad = m->gart_write_same(x->mem, (uint32_t)o[0], o[1], o[2], o[3], &mf); break;
    case WK_GPU_OP_TLB_FLUSH: bad = m->gart_flush(x->mem, (uint32_t)o[0], &mf); break;
    case WK_GPU_OP_VA_FLUSH: /* the kit's, as a binding's processor flushes: if its table has the call */
        if (x->ops->size >= offsetof(struct wk_exec_ops, va_flush) + sizeof x->ops->va_flush && x->ops->va_flush)
            x->ops->va_flush(x, o[0], o[1], o[2]);
        break;
    case WK_GPU_OP_BLIT:
        if (x->ops->spend(x, o[3], o[2] * o[3]) != 0)
            return stop(f, WK_FAULT_BUDGET, at, c->opcode, NULL);
        for (uint64_t r = 0; r < o[3] && !bad; r++)
            bad = m->copy(x->mem, o[1] + r * o[5], o[0] + r * o[4], o[2], &mf);
        break;
    default: return stop(f, WK_FAULT_STATE, at, c->opcode, NULL); /* CALL: not this processor's */
    }
    if (bad)
        return stop(f, mf.reason == WK_GPU_FAULT_BAD_OPERAND ? WK_FAULT_OPERAND : WK_FAULT_MEMORY, at, c->opcode, &mf);
    return 0;
}

/* The kit's command set, decoded with gpu.h's decoder and run through
 * processor.h alone: a binding written against the interface. */
int wk_test_kit_format_exec(const struct wk_exec *x, struct wk_exec_fault *fault)
{
    for (uint64_t at = x->start; at < x->end;) {
        struct wk_gpu_cmd c;
        if (wk_gpu_decode(x->bytes, x->end, at, &c) != WK_OK)
            return stop(fault, WK_FAULT_DECODE, at, x->bytes[at], NULL);
        if (x->ops->spend(x, 1, 0) != 0)
            return stop(fault, WK_FAULT_BUDGET, at, c.opcode, NULL);
        if (one(x, &c, at, fault))
            return 1;
        at += c.length;
    }
    return 0;
}

int wk_test_kit_format_read_address(void *self, const uint8_t *dma, uint64_t len, uint64_t offset,
                                    uint64_t *address, uint32_t *slot_bytes)
{
    (void)self;
    if (offset > len || len - offset < 8)
        return -1;
    memcpy(address, dma + offset, 8);
    *slot_bytes = 8;
    return 0;
}
