/* SPDX-License-Identifier: MIT */
/*
 * contiguous.c - physically contiguous memory a device can reach: what
 * MmAllocateContiguousMemory[SpecifyCache] gives a driver inside a DDI
 * (kmservices.h AllocateContiguous, FreeContiguous; facts 5.10 M8, M9).
 *
 * A driver puts its ring, fences or descriptors in contiguous memory and
 * programs MmGetPhysicalAddress of it into its GPU. For that to mean
 * anything here, the block must be where the GPU reads: so it is a
 * contiguous run of the adapter's system pool (sysmem.c, marked as the
 * kit's own so no test step writes it), mapped for the driver through
 * wk_gpu_sysmem_map, and its address is pfn << 12, the address the GPU
 * model (or a binding's processor) reads those pages at.
 *
 * Only for an adapter whose GPU reads system memory: the kit's model, or a
 * binding with registers. A driver of other hardware with no binding keeps
 * km.h's host memory (0: not taken), so nothing changes for it.
 *
 * The table of live blocks is process-wide, as a block may be freed from
 * a thread of the driver's own; a block names its adapter by km_serial.
 */
#include <pthread.h>
#include <stdlib.h>

#include "internal.h"

#define PAGE 4096ull
#define MAX_BLOCKS 256u

struct block {
    uint8_t *va;            /* NULL: the slot is free */
    uint64_t pfn, pages;
    uint64_t serial;
    struct wk_vidmm *vm;    /* for contiguous_forget only */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct block blocks[MAX_BLOCKS];

/* Whether a GPU reads the adapter's system memory: the kit's model unless
 * no_model; else a binding that brought a register model (bars.c). */
static int gpu_reads_sysmem(struct wk_vidmm *vm)
{
    return !vm->cfg.no_model || bars_of(vm)->regs != NULL;
}

/* The run [first, first + pages) of pages satisfies the driver's limits. */
static int within(uint64_t first_pfn, uint64_t pages, uint64_t lowest, uint64_t highest, uint64_t boundary)
{
    uint64_t start = first_pfn * PAGE, last = (first_pfn + pages) * PAGE - 1;
    return start >= lowest && last <= highest && (!boundary || start / boundary == last / boundary);
}

static int keep(const struct block *b)
{
    int kept = 0;
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < MAX_BLOCKS && !kept; i++)
        if (!blocks[i].va) {
            blocks[i] = *b;
            kept = 1;
        }
    pthread_mutex_unlock(&lock);
    return kept;
}

int contiguous_alloc(size_t bytes, uint64_t lowest, uint64_t highest, uint64_t boundary, void **va,
                     uint64_t *physical)
{
    struct wk_vidmm *vm = call_current_vm();
    if (!vm || !vm->km_serial || !vm->gpu || !gpu_reads_sysmem(vm) || bytes == 0)
        return 0;
    uint64_t pages = (bytes + PAGE - 1) / PAGE;
    if (pages > vm->gpu_desc.sysmem_pages)
        return 2;
    uint64_t *pfns = malloc(pages * sizeof(*pfns));
    if (!pfns)
        return 2;
    struct block b = { .pages = pages, .serial = vm->km_serial, .vm = vm };
    void *mapped = NULL;
    int got = 2;
    if (sysmem_pages_alloc(vm, pages, 1, pfns) == WK_OK) {
        b.pfn = pfns[0];
        if (within(b.pfn, pages, lowest, highest, boundary) &&
            wk_gpu_sysmem_map(vm->gpu, pfns, pages, &mapped) == WK_OK) {
            b.va = mapped;
            if (keep(&b))
                got = 1;
            else
                wk_gpu_sysmem_unmap(vm->gpu, mapped, pages);
        }
        if (got != 1)
            sysmem_pages_free(vm, &b.pfn, 1);
    }
    free(pfns);
    if (got == 1) {
        *va = b.va;
        *physical = b.pfn * PAGE;
    }
    return got;
}

/* Takes the block at va out of the table (NULL va: none found). */
static struct block take(const void *va)
{
    struct block b = { 0 };
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < MAX_BLOCKS; i++)
        if (blocks[i].va && blocks[i].va == va) {
            b = blocks[i];
            blocks[i].va = NULL;
            break;
        }
    pthread_mutex_unlock(&lock);
    return b;
}

void contiguous_free(void *va)
{
    struct block b = take(va);
    struct wk_vidmm *vm = b.va ? km_live_adapter(b.serial) : NULL;
    if (!vm)
        return; /* the adapter is gone, and its pool with it */
    wk_gpu_sysmem_unmap(vm->gpu, b.va, b.pages);
    sysmem_pages_free(vm, &b.pfn, 1);
}

/* The adapter is going: its pool goes with it (wk_gpu_destroy unmaps the
 * blocks); a later free of one of them finds nothing to give back. */
void contiguous_forget(struct wk_vidmm *vm)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < MAX_BLOCKS; i++)
        if (blocks[i].va && blocks[i].vm == vm)
            blocks[i].va = NULL;
    pthread_mutex_unlock(&lock);
}
