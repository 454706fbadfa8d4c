/* SPDX-License-Identifier: MIT */
/*
 * patch_view.c - what DxgkDdiPatch gets as pDmaBuffer from wk_vidmm_patch:
 * a second host mapping of the context's DMA-buffer pages whose tail is
 * read-only when no recent call needed it.
 *
 * Why: Patch may change only the listed patch locations inside the
 * submitted range (facts §5.3; PATCH-CONFINE-001), so after every call
 * the kit reads the whole DMA buffer for a byte that changed elsewhere: 16
 * KiB for the reference driver's contexts, a third of fuzz_patch's time,
 * although its inputs almost never list a slot past the first page
 * (docs/performance.md). A page the driver cannot write need not be read:
 * a write there faults at the instruction, reported as PATCH-CONFINE-001
 * with the offset (guard.c, gbuf_describe_fault). The check reads up to
 * where the read-only part starts (submission.check_end).
 *
 * How: the pages are mapped a second time (wk_gpu_sysmem_map_writable,
 * with its guard page after them) when wk_vidmm_patch first runs on a
 * context; the
 * kit keeps reading and writing the first mapping (c->dma.ptr), so no kit
 * code can fault on the read-only pages, and Render, CancelCommand and the
 * GPU see the buffer as before. Each call gets exactly the pages up to its
 * last slot writable (at least the first: inputs without any slot would
 * otherwise protect and unprotect it all the time) and the rest read-only,
 * whatever the calls before it had: the outcome of a call depends on the
 * call alone, so a finding replays alike on a fresh adapter. Changing
 * protection is a system call (2.4 µs on an untouched mapping, ~120 µs on
 * a touched one on the VMs the kit runs in), paid only when a call needs
 * other pages writable than the last one: for fuzz_patch's inputs almost
 * never (their slots and bytes sit in the first page; bench/fuzz_speed,
 * docs/performance.md), and never to make or end a view (view_free).
 */
#include <string.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

static uint64_t pages_of(uint64_t bytes)
{
    return (bytes + PAGE - 1) / PAGE;
}

/* v: a second host mapping of the `count` contiguous system pages from
 * first_pfn (with the model's guard page after them), registered for
 * fault reports, its first `writable` pages writable and the rest
 * read-only, its buffer `size` bytes at the start; 0 or an error (v
 * untouched). Both views are made this way; the model hands back a retired
 * view of the same pages laid out so with no system call (view_free). */
static wk_status view_map(struct wk_vidmm *vm, struct gbuf *v, uint64_t first_pfn, uint64_t count,
                          uint64_t writable, uint64_t size, const char *what)
{
    uint64_t pfns[256];
    if (count == 0 || count > sizeof(pfns) / sizeof(pfns[0]))
        return WK_E_NOT_SUPPORTED; /* larger buffers keep the plain path */
    for (uint64_t i = 0; i < count; i++)
        pfns[i] = first_pfn + i;
    void *va = NULL;
    wk_status st = wk_gpu_sysmem_map_writable(vm->gpu, pfns, count, writable, &va);
    if (st != WK_OK)
        return st;
    memset(v, 0, sizeof(*v));
    v->what = what;
    v->ptr = v->map = va;
    v->size = size;
    v->map_len = count * PAGE;
    v->pages = count;
    v->map_pfn = v->first_pfn = first_pfn;
    v->ro_start = writable * PAGE;
    v->ro_end = v->map_len;
    gbuf_register(vm, v);
    return WK_OK;
}

/*
 * A view ends retired, not unmapped (wk_gpu_sysmem_retire): its writable
 * pages stay writable and its read-only tail read-only, and the next view
 * of the same pages (the next context whose DMA buffer gets the same
 * frames, the paging buffer of the next adapter built on the same pool)
 * takes it back with no system call. Unmapping made it PROT_NONE and the
 * next view read-write again, then read-only in part: three protection
 * changes (~120 us each on a touched shared mapping on this kind of VM)
 * per patched context and per adapter build. What a stale pointer into it
 * does now: a write to its read-only tail still faults; a write to its
 * writable part lands in the DMA buffer's pages, which the quarantine holds
 * poisoned (dma_quarantine.c: MEM-STALE-001), as a write through the DMA
 * buffer's own old pointer does.
 */
static void view_free(struct wk_vidmm *vm, struct gbuf *v)
{
    if (!v->map)
        return;
    gbuf_unregister(vm, v);
    wk_gpu_sysmem_retire(vm->gpu, v->map);
    memset(v, 0, sizeof(*v));
}

/* Pages [0, want) writable, the rest read-only: exactly what this call
 * needs, whatever came before (the same input meets the same protection,
 * so a finding replays alike on a fresh adapter). 0 when a protection
 * change failed (the model has then made the view inaccessible). */
static int settle(struct wk_vidmm *vm, struct gbuf *v, uint64_t want)
{
    uint64_t pages = v->map_len / PAGE;
    want = want < pages ? want : pages;
    if (want * PAGE == v->ro_start)
        return 1;
    if (wk_gpu_sysmem_set_writable(vm->gpu, v->map, want) != WK_OK)
        return 0;
    v->ro_start = want * PAGE;
    return 1;
}

/* The pages up to the last patch slot, at least the first: inputs without
 * any slot would otherwise protect and unprotect it all the time. */
static uint64_t writable_for(const struct context *c, uint64_t need)
{
    uint64_t want = pages_of(need), pages = c->dma.pages;
    want = want ? want : 1;
    return want < pages ? want : pages;
}

uint8_t *patch_view_for(struct wk_vidmm *vm, struct context *c, uint64_t need, uint64_t *check_end)
{
    *check_end = c->dma.size;
    uint64_t want = writable_for(c, need);
    if (vm->cfg.no_guard_pages ||
        (!c->patch_view.map && view_map(vm, &c->patch_view, c->dma.first_pfn, c->dma.pages, want, c->dma.size,
                                        "DMA buffer") != WK_OK))
        return c->dma.ptr;
    if (!settle(vm, &c->patch_view, want)) {
        view_free(vm, &c->patch_view); /* inaccessible now: the next call maps it again */
        return c->dma.ptr; /* the kit's own mapping: everything writable, everything read */
    }
    if (c->patch_view.ro_start < *check_end)
        *check_end = c->patch_view.ro_start;
    return c->patch_view.ptr;
}

void patch_view_free(struct wk_vidmm *vm, struct context *c)
{
    view_free(vm, &c->patch_view);
}

/*
 * The paging buffer's view. A paging buffer has no patch locations, so
 * its Patch may change nothing (PATCH-CONFINE-001): the view is read-only
 * as a whole, made once per block of the buffer (paging.c keeps the block
 * across resets and sizes), and Patch of a paging buffer needs no snapshot
 * and no comparison afterwards: a write faults at the instruction.
 */
static void paging_view_make(struct wk_vidmm *vm)
{
    struct gbuf *v = &vm->paging_view;
    (void)view_map(vm, v, vm->paging.map_pfn, vm->paging.map_len / PAGE, 0, vm->paging.size, "paging buffer");
}

uint8_t *paging_view_for(struct wk_vidmm *vm)
{
    struct gbuf *v = &vm->paging_view;
    if (vm->cfg.no_guard_pages || !vm->paging.map)
        return NULL;
    if (v->map && (v->map_pfn != vm->paging.map_pfn || v->map_len != vm->paging.map_len))
        paging_view_free(vm); /* another block */
    if (!v->map)
        paging_view_make(vm);
    if (!v->map)
        return NULL;
    v->ptr = v->map + (vm->paging.ptr - vm->paging.map); /* the buffer moves inside its block */
    v->size = vm->paging.size;
    return v->ptr;
}

void paging_view_free(struct wk_vidmm *vm)
{
    view_free(vm, &vm->paging_view);
}
