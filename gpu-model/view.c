/* SPDX-License-Identifier: MIT */
/*
 * view.c - read-only views of model memory (wk_gpu_view_begin/_next).
 *
 * A checker that compares memory after every operation (the video memory
 * manager's FILL and transfer checks) paid for copying it out page by page
 * with wk_gpu_read, and for writing zeroes for every page never written. A
 * view hands out the bytes where they live instead: the range is checked
 * whole exactly as a read checks it, then walked page by page through the
 * same translation a read uses (space_page_for_read), and consecutive pages
 * are merged into maximal spans: pages contiguous on the host (the pool
 * carves pages in address order, system memory is one mapping) form one
 * span, untouched pages one zero span without a pointer. A view never backs,
 * counts or changes anything, so a span's pointer stays valid until the
 * model itself changes.
 */
#include <string.h>

#include "internal.h"

wk_status wk_gpu_view_begin(struct wk_gpu *gpu, uint64_t addr, uint64_t len, struct wk_gpu_view *v)
{
    struct region *r = NULL;
    memset(v, 0, sizeof(*v));
    wk_status st = space_host_check(gpu, addr, len, &r);
    if (st != WK_OK || len == 0)
        return st;
    v->gpu = gpu;
    v->region = r;
    v->offset = addr - r->base;
    v->left = len;
    return WK_OK;
}

/* The next piece of the range, up to the next page boundary: where a read
 * would take its bytes from. */
static void take_piece(struct wk_gpu_view *v, struct wk_gpu_span *out)
{
    struct region *r = v->region;
    uint64_t room = WK_GPU_PAGE_SIZE - (v->offset & (WK_GPU_PAGE_SIZE - 1));
    uint32_t po = 0;
    const uint8_t *page = space_page_for_read(v->gpu, r, v->offset, 0, &po);
    out->addr = r->base + v->offset;
    out->length = v->left < room ? v->left : room;
    out->data = page ? page + po : NULL;
    v->offset += out->length;
    v->left -= out->length;
}

static int continues(const struct wk_gpu_span *span, const struct wk_gpu_span *piece)
{
    if (!span->data || !piece->data)
        return !span->data && !piece->data;
    return span->data + span->length == piece->data;
}

int wk_gpu_view_next(struct wk_gpu_view *v, struct wk_gpu_span *out)
{
    if (v->next.length) { /* the piece that ended the last span starts this one */
        *out = v->next;
        v->next.length = 0;
    } else if (v->left) {
        take_piece(v, out);
    } else {
        return 0;
    }
    while (v->left) {
        struct wk_gpu_span piece;
        take_piece(v, &piece);
        if (!continues(out, &piece)) {
            v->next = piece;
            break;
        }
        out->length += piece.length;
    }
    return 1;
}
