/* SPDX-License-Identifier: MIT */
/*
 * guard_args.c - the structs and arrays a DDI gets by pointer, handed to
 * the driver on guarded buffers.
 *
 * Why: the kit used to pass its own stack variables (DXGKARG_CREATEDEVICE,
 * the DRIVERCAPS output, the segment descriptor array, pAllocationInfo ...).
 * A driver writing past one wrote over the kit's frame: 88 bytes past
 * pAllocationInfo[NumAllocations] or 64 past *pCreateDevice went unseen
 * (issue 22, item 2), 512 past the DRIVERCAPS output crashed the kit with
 * no name, and under ASan overwrote its vm pointer. Now each one is a
 * gbuf (guard.c): it ends exactly at a PROT_NONE page, so a read or a
 * write past it faults at the instruction and call.c reports MEM-GUARD-001
 * with the DDI, the argument (the buffer's name says which) and the
 * offset, read told from write; the slack before it is a canary, checked
 * after the call.
 *
 * Alignment: the struct's end is the page boundary, and a struct's size is
 * a multiple of its alignment (8 or 16), so its start keeps that alignment.
 *
 * Speed: gbuf_alloc takes a spare mapping from the adapter's pool (the
 * guard page stays PROT_NONE, no system call) and rewrites only the canary
 * bytes where the last user of that spare was; the check after the call
 * reads the slack once (one page at most). No mmap, mprotect or munmap
 * per call once the pool holds a spare of each size.
 *
 * The kit keeps its own copy of each struct (where it reads results and
 * builds the next call): garg_in copies it in before the call, garg_out
 * copies the driver's bytes back after it. When no guarded buffer can be
 * had (out of memory), the kit's copy is handed over unguarded, as before:
 * a resource shortage of the kit is no reason to fail the driver.
 */
#include <string.h>

#include "internal.h"

void *garg_in(struct wk_vidmm *vm, struct garg *g, void *kit, uint64_t size, const char *what)
{
    g->kit = kit;
    g->size = size;
    if (gbuf_alloc(vm, &g->b, size, what) != WK_OK) { /* last_error says why; the call goes on */
        memset(&g->b, 0, sizeof(g->b));
        return kit;
    }
    memcpy(g->b.ptr, kit, size);
    return g->b.ptr;
}

wk_status garg_out(struct wk_vidmm *vm, struct garg *g, enum wk_ddi ddi, wk_status crashed)
{
    if (!g->b.map)
        return WK_OK;
    if (crashed != WK_OK) { /* the fault is reported; what the driver left is not read */
        gbuf_free(vm, &g->b);
        return WK_OK;
    }
    if (g->kit) /* NULL: an input the kit keeps as it made it */
        memcpy(g->kit, g->b.ptr, g->size);
    return gbuf_check_free(vm, &g->b, ddi);
}
