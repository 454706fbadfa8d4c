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
 * How: the pages are mapped a second time (wk_gpu_sysmem_map, with its
 * guard page after them) when wk_vidmm_patch first runs on a context; the
 * kit keeps reading and writing the first mapping (c->dma.ptr), so no kit
 * code can fault on the read-only pages, and Render, CancelCommand and the
 * GPU see the buffer as before. Changing protection is a system call (2.4
 * µs on the development VM, several fuzz_patch inputs), so it changes
 * rarely: a call whose slots reach into the read-only part makes what they
 * need writable at once; the read-only part grows back only after
 * PATCH_VIEW_CALM calls in a row that needed less. A conformance run's few
 * Patch calls never get there; a fuzz harness's millions settle at once.
 * The first page always stays writable: inputs without any slot would
 * otherwise protect and unprotect it all the time.
 */
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)
#define PATCH_VIEW_CALM 64u

static uint64_t pages_of(uint64_t bytes)
{
    return (bytes + PAGE - 1) / PAGE;
}

/* The view: all pages writable; 0 or an error. */
static wk_status view_map(struct wk_vidmm *vm, struct context *c)
{
    struct gbuf *v = &c->patch_view;
    uint64_t count = c->dma.pages, pfns[64];
    if (count == 0 || count > sizeof(pfns) / sizeof(pfns[0]))
        return WK_E_NOT_SUPPORTED; /* larger buffers keep the plain path */
    for (uint64_t i = 0; i < count; i++)
        pfns[i] = c->dma.first_pfn + i;
    void *va = NULL;
    wk_status st = wk_gpu_sysmem_map(vm->gpu, pfns, count, &va);
    if (st != WK_OK)
        return st;
    memset(v, 0, sizeof(*v));
    v->what = "DMA buffer";
    v->ptr = v->map = va;
    v->size = c->dma.size;
    v->map_len = count * PAGE;
    v->pages = count;
    v->first_pfn = c->dma.first_pfn;
    v->map_pfn = c->dma.first_pfn;
    v->ro_from = v->map_len; /* nothing read-only yet */
    gbuf_register(vm, v);
    c->patch_calm = c->patch_calm_need = 0;
    return WK_OK;
}

static int protect(struct gbuf *v, uint64_t from_page, uint64_t to_page, int prot)
{
    return mprotect(v->map + from_page * PAGE, (to_page - from_page) * PAGE, prot) == 0;
}

/* Pages [0, want) writable now; the read-only part grows back to `want`
 * pages after PATCH_VIEW_CALM calls that needed no more. 0 when a
 * protection change failed (the view is then left as it was). */
static int settle(struct context *c, uint64_t want)
{
    struct gbuf *v = &c->patch_view;
    uint64_t ro = v->ro_from / PAGE;
    if (want > ro) {
        c->patch_calm = c->patch_calm_need = 0;
        if (!protect(v, ro, want, PROT_READ | PROT_WRITE))
            return 0;
        v->ro_from = want * PAGE;
        return 1;
    }
    if (want == ro) {
        c->patch_calm = c->patch_calm_need = 0;
        return 1;
    }
    c->patch_calm_need = want > c->patch_calm_need ? want : c->patch_calm_need;
    if (++c->patch_calm < PATCH_VIEW_CALM)
        return 1;
    uint64_t from = c->patch_calm_need;
    c->patch_calm = c->patch_calm_need = 0;
    if (protect(v, from, ro, PROT_READ))
        v->ro_from = from * PAGE;
    return 1;
}

uint8_t *patch_view_for(struct wk_vidmm *vm, struct context *c, uint64_t need, uint64_t *check_end)
{
    *check_end = c->dma.size;
    if (vm->cfg.no_guard_pages || (!c->patch_view.map && view_map(vm, c) != WK_OK))
        return c->dma.ptr;
    uint64_t want = pages_of(need);
    if (!settle(c, want ? want : 1))
        return c->dma.ptr; /* the kit's own mapping: everything writable, everything read */
    if (c->patch_view.ro_from < *check_end)
        *check_end = c->patch_view.ro_from;
    return c->patch_view.ptr;
}

void patch_view_free(struct wk_vidmm *vm, struct context *c)
{
    struct gbuf *v = &c->patch_view;
    if (!v->map)
        return;
    gbuf_unregister(vm, v);
    wk_gpu_sysmem_unmap(vm->gpu, v->map, v->pages); /* the model makes it inaccessible */
    memset(v, 0, sizeof(*v));
}
