/* SPDX-License-Identifier: MIT */
/*
 * dma_quarantine.c - a destroyed context's DMA buffer, held back and
 * poisoned, so that a driver still writing through its old pointer is
 * caught (MEM-STALE-001), without a page-table change per input.
 *
 * Why not PROT_NONE: the DMA buffer is system pages mapped into the kit
 * (wk_gpu_sysmem_map). Making the mapping inaccessible at DestroyContext,
 * and accessible again at the next CreateContext of the same frames, cost
 * two mprotect calls of ~120 us each on the VMs the kit runs in (a touched
 * shared mapping): 5-7 ms for a fuzz program of sixteen contexts, most of
 * the steady state's system calls (issue 26). Now the mapping stays
 * read-write for good (wk_gpu_sysmem_retire, gpu-model/sysmap.c) and keeps
 * its fixed guard pages before and after (an overrun still faults at the
 * instruction, MEM-GUARD-001).
 *
 * What replaces the fault: at DestroyContext the block (the buffer, its
 * canaries, its whole mapping) is filled with POISON and put in a ring of
 * at most DMAQ_SLOTS blocks and DMAQ_BYTES bytes whose frames stay out of
 * the system-page pool, so no one else gets them. When a block leaves the
 * ring its poison is checked: any other byte is a write after the context
 * was destroyed, reported with the context, the offset from the start of
 * the buffer the driver had, and the last DDI call before the check (the
 * write happened between the DestroyContext and it). A block leaves:
 *   - when the ring is over DMAQ_SLOTS or DMAQ_BYTES (the oldest first);
 *   - when the last device is destroyed (dmaq_device_gone): a harness's or
 *     a case's teardown destroys its devices and judges each step, so a
 *     finding lands inside the input that made it;
 *   - when system pages run out (sysmem_pages_alloc drains and retries: the
 *     quarantine never makes an allocation fail that would have succeeded);
 *   - at wk_vidmm_reset (after its DDI calls: nothing is reported then, as
 *     nothing a reset finds is) and when the adapter stops.
 * Then its mapping is retired (still read-write, kept for the next
 * CreateContext that gets the same frames, no system call) and its frames
 * go back to the pool holding the poison ("recycled system pages hold their
 * last user's bytes": whoever takes them writes what it needs first).
 *
 * Determinism: the ring is empty at every reset and on a fresh adapter, and
 * what it holds depends only on the calls made since: the frames a
 * CreateContext gets, so the addresses the driver and the GPU see, are the
 * same whether an input runs first in a process or after ten thousand
 * others. Only the host address of the mapping depends on history (it did
 * before too: a fresh mmap lands anywhere).
 *
 * What is not caught: a write through the old pointer after the block left
 * the ring. Before the next reset it lands in frames that are back in the
 * pool (maybe another buffer or allocation's backing store now); after a
 * reset the model counts those frames as zero and does not see it
 * (docs/performance.md, "DMA buffers"). Before this file such a write
 * faulted as long as the mapping was idle and kept (256 of them).
 */
#include <string.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

/* Not GBUF_CANARY (0xA5): a report says which of the two it found. */
#define POISON 0xDBu

/* Checks entry e's poison (unless the adapter is dead: nothing is judged
 * then), retires its mapping and gives its frames back. */
static void leave(struct wk_vidmm *vm, const struct dmaq_entry *e, int judge)
{
    uint64_t at = judge && !vm->dead ? gbuf_first_not(e->map, e->map_len, POISON) : e->map_len;
    if (at < e->map_len) {
        long long off = (long long)at - (long long)e->buf_off;
        violate(vm, R_MEM_STALE, vm->last_ddi,
                "wrote into the DMA buffer (%llu bytes) of context %u after DxgkDdiDestroyContext: offset %+lld "
                "holds 0x%02x, not the kit's poison 0x%02x (found when the buffer left the kit's quarantine: "
                "written in one of the %llu DDI calls since the destroy, the last %s)",
                (unsigned long long)e->size, e->context, off, e->map[at], POISON,
                (unsigned long long)(vm->ddi_serial - e->ddi_serial), wk_ddi_name(vm->last_ddi));
    }
    wk_gpu_sysmem_retire(vm->gpu, e->map);
    uint64_t pfn = e->map_pfn;
    sysmem_pages_free(vm, &pfn, 1); /* the run is one block */
}

/* The oldest entry out of the ring. */
static void pop(struct wk_vidmm *vm, int judge)
{
    struct dma_quarantine *q = &vm->dmaq;
    struct dmaq_entry e = q->e[q->head];
    q->head = (q->head + 1) % DMAQ_SLOTS;
    q->count--;
    q->bytes -= e.map_len;
    leave(vm, &e, judge);
}

void dmaq_put(struct wk_vidmm *vm, struct gbuf *b, uint32_t context)
{
    struct dma_quarantine *q = &vm->dmaq;
    if (!b->map || !b->first_pfn)
        return;
    gbuf_unregister(vm, b); /* fault reports name live buffers only */
    struct dmaq_entry e = { b->map, b->map_len, b->map_pfn, b->size, (uint64_t)(b->ptr - b->map), context,
                            vm->ddi_serial };
    memset(b, 0, sizeof(*b));
    memset(e.map, POISON, e.map_len);
    if (e.map_len > DMAQ_BYTES) { /* held alone it would crowd out the pool: judged at once */
        leave(vm, &e, 1);
        return;
    }
    while (q->count && (q->count == DMAQ_SLOTS || q->bytes + e.map_len > DMAQ_BYTES))
        pop(vm, 1);
    q->e[(q->head + q->count) % DMAQ_SLOTS] = e;
    q->count++;
    q->bytes += e.map_len;
}

int dmaq_drain(struct wk_vidmm *vm, int judge)
{
    int any = vm->dmaq.count != 0;
    while (vm->dmaq.count)
        pop(vm, judge);
    return any;
}

void dmaq_device_gone(struct wk_vidmm *vm)
{
    if (vm->devices.live == 0)
        dmaq_drain(vm, 1);
}
