/* SPDX-License-Identifier: MIT */
/*
 * paging_ops.c - one function per paging operation: the arguments exactly
 * as the seeds describe them, then the semantic check of the effect on the
 * GPU model (the semantic level of docs/verdicts.md, "Two levels of checks":
 * the bytes moved, the pattern filled, the pages mapped, the fence stored).
 *
 * Segment addresses are absolute (segment base + offset, P6). Transfers may
 * be split into sub-transfers (config transfer_chunk): each carries the same
 * allocation, TransferOffset = the chunk's byte offset on the segment side,
 * MdlOffset = the chunk's first page on the MDL side, and TransferStart /
 * TransferEnd on the first and last (P5, P7).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wddmkit/processor.h"

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)
#define NEIGHBOUR 256u /* bytes watched on each side of a destination */

static void init_args(DXGKARG_BUILDPAGINGBUFFER *a, DXGK_BUILDPAGINGBUFFER_OPERATION op)
{
    memset(a, 0, sizeof(*a));
    a->Operation = op;
}

static uint64_t seg_addr(struct wk_vidmm *vm, uint32_t seg, uint64_t offset)
{
    return segment_get(vm, seg)->base + offset;
}

/* One side of a copy: a segment range or an allocation's MDL pages. */
struct side {
    uint64_t address;         /* segment side */
    const uint64_t *pfns;     /* MDL side when non-NULL */
};

static uint64_t side_address(const struct side *s, uint64_t off)
{
    return s->pfns ? (s->pfns[off / PAGE] << WK_GPU_PAGE_SHIFT) + off % PAGE : s->address + off;
}

/* Compares `len` bytes of two sides page by page through copies;
 * UINT64_MAX when equal. The definition of the transfer check's answer: a
 * chunk either side cannot read is reported at its first byte. What
 * first_difference falls back to when a side cannot be viewed whole. */
static uint64_t first_difference_copying(struct wk_vidmm *vm, const struct side *x,
                                         const struct side *y, uint64_t len)
{
    uint8_t a[PAGE], b[PAGE];
    for (uint64_t off = 0; off < len; off += PAGE) {
        uint64_t n = len - off < PAGE ? len - off : PAGE;
        if (wk_gpu_read(vm->gpu, side_address(x, off), a, n) != WK_OK ||
            wk_gpu_read(vm->gpu, side_address(y, off), b, n) != WK_OK)
            return off;
        if (memcmp(a, b, n) != 0)
            for (uint64_t i = 0; i < n; i++)
                if (a[i] != b[i])
                    return off + i;
    }
    return UINT64_MAX;
}

/* What unbacked memory reads as, to compare against in place; also the
 * pattern page of a zero FILL at any phase (hence the 4 more bytes). */
static const uint8_t zero_page[PAGE + 4];

/* First byte of p[0..n) that is not zero, or UINT64_MAX. */
static uint64_t first_nonzero(const uint8_t *p, uint64_t n)
{
    for (uint64_t j = 0; j < n; j += PAGE) {
        uint64_t m = n - j < PAGE ? n - j : PAGE;
        if (memcmp(p + j, zero_page, m) == 0)
            continue;
        for (uint64_t i = 0; i < m; i++)
            if (p[j + i])
                return j + i;
    }
    return UINT64_MAX;
}

/* First differing byte of two spans' first n bytes, or UINT64_MAX; a span
 * without data reads as zeroes. */
static uint64_t span_difference(const struct wk_gpu_span *a, const struct wk_gpu_span *b, uint64_t n)
{
    if (!a->data || !b->data)
        return a->data ? first_nonzero(a->data, n) : b->data ? first_nonzero(b->data, n) : UINT64_MAX;
    if (a->data == b->data || memcmp(a->data, b->data, n) == 0)
        return UINT64_MAX;
    for (uint64_t i = 0; i < n; i++)
        if (a->data[i] != b->data[i])
            return i;
    return UINT64_MAX;
}

/* One side of a copy seen in place: a view of the segment range, or views
 * of the MDL's runs of consecutive frames one after the other. */
struct side_view {
    struct wk_gpu *gpu;
    const struct side *side;
    uint64_t len;
    uint64_t next_page;       /* MDL side: first page not viewed yet */
    struct wk_gpu_view view;
    struct wk_gpu_span span;  /* what is left of the current span */
};

static int side_view_begin(struct side_view *sv, struct wk_gpu *gpu, const struct side *side,
                           uint64_t len)
{
    memset(sv, 0, sizeof(*sv));
    sv->gpu = gpu;
    sv->side = side;
    sv->len = len;
    return side->pfns ? 0 : wk_gpu_view_begin(gpu, side->address, len, &sv->view) == WK_OK ? 0 : -1;
}

/* Views the next run of consecutive frames on the MDL side. */
static int side_view_next_run(struct side_view *sv)
{
    const uint64_t *pfns = sv->side->pfns;
    uint64_t first = sv->next_page, pages = (sv->len + PAGE - 1) / PAGE, end = first + 1;
    while (end < pages && pfns[end] == pfns[end - 1] + 1)
        end++;
    uint64_t bytes = (end * PAGE < sv->len ? end * PAGE : sv->len) - first * PAGE;
    sv->next_page = end;
    return wk_gpu_view_begin(sv->gpu, pfns[first] << WK_GPU_PAGE_SHIFT, bytes, &sv->view) == WK_OK
               ? 0 : -1;
}

/* Makes sure sv->span holds bytes (the caller stops at len); -1 when the
 * next part of the side cannot be viewed. */
static int side_view_fill(struct side_view *sv)
{
    while (!sv->span.length) {
        if (wk_gpu_view_next(&sv->view, &sv->span))
            continue;
        if (!sv->side->pfns || side_view_next_run(sv) != 0)
            return -1;
    }
    return 0;
}

static void side_view_consume(struct side_view *sv, uint64_t n)
{
    sv->span.addr += n;
    sv->span.length -= n;
    if (sv->span.data)
        sv->span.data += n;
}

/* first_difference_copying's answer in *bad, from both sides compared
 * where they live: memcmp over the longest runs both sides have in one
 * piece, and a zero check for memory never written. -1 when a side cannot
 * be viewed (the answer then depends on which chunk fails first). */
static int first_difference_in_place(struct wk_vidmm *vm, const struct side *x,
                                     const struct side *y, uint64_t len, uint64_t *bad)
{
    struct side_view a, b;
    if (side_view_begin(&a, vm->gpu, x, len) != 0 || side_view_begin(&b, vm->gpu, y, len) != 0)
        return -1;
    for (uint64_t off = 0; off < len;) {
        if (side_view_fill(&a) != 0 || side_view_fill(&b) != 0)
            return -1;
        uint64_t n = a.span.length < b.span.length ? a.span.length : b.span.length;
        if (n > len - off)
            n = len - off;
        uint64_t d = span_difference(&a.span, &b.span, n);
        if (d != UINT64_MAX) {
            *bad = off + d;
            return 0;
        }
        side_view_consume(&a, n);
        side_view_consume(&b, n);
        off += n;
    }
    *bad = UINT64_MAX;
    return 0;
}

/* Debug builds answer each check both ways, in place and through copies,
 * and stop on a difference: a bug in the kit, which must never pass for a
 * driver verdict (as in invariants.c). Release builds answer once. */
#ifdef NDEBUG
#define SAME_ANSWER(in_place, copied, what) (in_place)
#else
#define SAME_ANSWER(in_place, copied, what) same_answer((in_place), (copied), (what))
static uint64_t same_answer(uint64_t in_place, uint64_t copied, const char *what)
{
    if (in_place != copied) {
        fprintf(stderr, "wddmkit internal invariant broken: %s check in place says %llu, "
                        "through copies %llu\n", what, (unsigned long long)in_place,
                (unsigned long long)copied);
        abort();
    }
    return in_place;
}
#endif

/*
 * The source of a transfer as it was before the operation, to hold the
 * destination to afterwards: a TRANSFER is right when the destination then
 * holds what the source held, which comparing the two afterwards cannot
 * tell from a copy that ran the other way (both then hold the destination's
 * old bytes). Kept chunk by chunk (4 KiB, counted from the start) in the
 * adapter's `before` buffer: a byte per chunk says whether it was all zero
 * (memory never written reads so: no copy), else the chunk's bytes follow.
 * memcpy and memcmp only, about what the transfer check itself costs.
 */
#define BEFORE_MAX (64ull << 20) /* larger sources are not kept: the check after is skipped */

/* Bytes [off, off + want) of side view v, in one piece: a pointer into the
 * view when they lie in one span (NULL: never written), else copied into
 * buf. -1 when a part cannot be viewed. */
static int side_chunk(struct side_view *v, uint64_t want, uint8_t *buf, const uint8_t **out)
{
    uint64_t got = 0;
    while (got < want) {
        if (side_view_fill(v) != 0)
            return -1;
        uint64_t n = v->span.length < want - got ? v->span.length : want - got;
        if (got == 0 && n == want) {
            *out = v->span.data;
            side_view_consume(v, n);
            return 0;
        }
        if (v->span.data)
            memcpy(buf + got, v->span.data, n);
        else
            memset(buf + got, 0, n);
        side_view_consume(v, n);
        got += n;
    }
    *out = buf;
    return 0;
}

static int all_zero(const uint8_t *p, uint64_t n)
{
    return !p || memcmp(p, zero_page, n) == 0;
}

/* Keeps the source's first len bytes; 1 when kept. */
static int keep_source(struct wk_vidmm *vm, const struct side *x, uint64_t len)
{
    uint64_t chunks = (len + PAGE - 1) / PAGE, need = chunks + chunks * PAGE;
    if (len == 0 || len > BEFORE_MAX)
        return 0;
    if (need > vm->before_size) {
        uint8_t *p = realloc(vm->before, need);
        if (!p)
            return 0;
        vm->before = p;
        vm->before_size = need;
    }
    struct side_view v;
    if (side_view_begin(&v, vm->gpu, x, len) != 0)
        return 0;
    uint8_t *flags = vm->before, *data = vm->before + chunks;
    for (uint64_t c = 0; c < chunks; c++) {
        uint64_t want = len - c * PAGE < PAGE ? len - c * PAGE : PAGE;
        const uint8_t *bytes;
        if (side_chunk(&v, want, data + c * PAGE, &bytes) != 0)
            return 0;
        flags[c] = all_zero(bytes, want);
        if (!flags[c] && bytes != data + c * PAGE)
            memcpy(data + c * PAGE, bytes, want);
    }
    return 1;
}

/* The first byte of the side's first len bytes that differs from what
 * keep_source kept, UINT64_MAX when none (or it cannot be viewed). */
static uint64_t differs_from_kept(struct wk_vidmm *vm, const struct side *x, uint64_t len)
{
    uint8_t chunk[PAGE];
    uint64_t chunks = (len + PAGE - 1) / PAGE;
    const uint8_t *flags = vm->before, *data = vm->before + chunks;
    struct side_view v;
    if (side_view_begin(&v, vm->gpu, x, len) != 0)
        return UINT64_MAX;
    for (uint64_t c = 0; c < chunks; c++) {
        uint64_t want = len - c * PAGE < PAGE ? len - c * PAGE : PAGE;
        const uint8_t *bytes;
        if (side_chunk(&v, want, chunk, &bytes) != 0)
            return UINT64_MAX;
        const uint8_t *was = flags[c] ? zero_page : data + c * PAGE;
        if (all_zero(bytes, want) ? !flags[c] : memcmp(bytes, was, want) != 0) {
            for (uint64_t i = 0; i < want; i++)
                if ((bytes ? bytes[i] : 0) != was[i])
                    return c * PAGE + i;
        }
    }
    return UINT64_MAX;
}

/* The transfer check's answer: the first byte where the sides differ, or
 * UINT64_MAX. */
static uint64_t first_difference(struct wk_vidmm *vm, const struct side *x, const struct side *y,
                                 uint64_t len)
{
    uint64_t bad;
    if (first_difference_in_place(vm, x, y, len, &bad) != 0)
        return first_difference_copying(vm, x, y, len);
    return SAME_ANSWER(bad, first_difference_copying(vm, x, y, len), "transfer");
}

/* The bytes around a destination, to prove a paging op stayed inside it. */
struct neighbours {
    uint64_t lo_addr, hi_addr;
    uint32_t lo_len, hi_len;
    uint8_t lo[NEIGHBOUR], hi[NEIGHBOUR];
};

static void watch(struct wk_vidmm *vm, uint32_t seg, uint64_t offset, uint64_t len, struct neighbours *n)
{
    struct segment *s = segment_get(vm, seg);
    if (s->memory && s->flags.Use64KBPages) {
        /* the destination's 64 KiB pages are its allocation's alone
         * (residency.c places in whole pages there, facts 5.5 G12): a
         * driver that writes the rest of its page changes nothing of
         * anyone else's (outsider 26) */
        uint64_t end = (offset + len + 0xFFFFu) & ~0xFFFFull;
        offset &= ~0xFFFFull;
        len = (end < s->size ? end : s->size) - offset;
    }
    n->lo_len = (uint32_t)(offset < NEIGHBOUR ? offset : NEIGHBOUR);
    n->lo_addr = s->base + offset - n->lo_len;
    uint64_t end = offset + len;
    n->hi_len = (uint32_t)(s->size - end < NEIGHBOUR ? s->size - end : NEIGHBOUR);
    n->hi_addr = s->base + end;
    if (s->aperture) { /* apertures may be unmapped around the range */
        n->lo_len = n->hi_len = 0;
        return;
    }
    /* A page table next to it changes by the operation's own mapping in
     * the paging process (paging_process.c), judged there. */
    if (gpuva_table_overlaps(vm, n->lo_addr, n->lo_len))
        n->lo_len = 0;
    if (gpuva_table_overlaps(vm, n->hi_addr, n->hi_len))
        n->hi_len = 0;
    wk_gpu_read(vm->gpu, n->lo_addr, n->lo, n->lo_len);
    wk_gpu_read(vm->gpu, n->hi_addr, n->hi, n->hi_len);
}

static void check_neighbours(struct wk_vidmm *vm, const struct neighbours *n, const char *op)
{
    uint8_t now[NEIGHBOUR];
    if (!semantic_check(vm))
        return;
    if (n->lo_len && wk_gpu_read(vm->gpu, n->lo_addr, now, n->lo_len) == WK_OK &&
        memcmp(now, n->lo, n->lo_len) != 0)
        violate(vm, R_PAGING_CONFINE, WK_DDI_BUILD_PAGING_BUFFER,
                "%s changed bytes before its destination (within %u bytes below 0x%llx)", op,
                n->lo_len, (unsigned long long)(n->lo_addr + n->lo_len));
    if (n->hi_len && wk_gpu_read(vm->gpu, n->hi_addr, now, n->hi_len) == WK_OK &&
        memcmp(now, n->hi, n->hi_len) != 0)
        violate(vm, R_PAGING_CONFINE, WK_DDI_BUILD_PAGING_BUFFER,
                "%s changed bytes after its destination (within %u bytes from 0x%llx)", op,
                n->hi_len, (unsigned long long)n->hi_addr);
}

/* ------------------------------------------------------------------ */
/* Fill                                                                 */
/* ------------------------------------------------------------------ */

/* The FILL pattern repeated from phase 0, built only as far as a check
 * needs it (a page and 3 bytes at most, so that any phase has a page of it
 * at bytes + phase), by doubling: a few memcpy calls, not 1,024 stores. A
 * page-in fills with zero on every op, and mostly over memory never
 * written: its check needs no pattern page at all, and a zero pattern is
 * the zero page. */
struct fill_want {
    uint32_t pattern;
    uint64_t built;               /* valid bytes in buf */
    uint8_t buf[PAGE + 4];
};

static const uint8_t *want_bytes(struct fill_want *w, uint64_t need)
{
    if (w->pattern == 0)
        return zero_page;
    if (w->built < 4) {
        const uint8_t b[4] = { (uint8_t)w->pattern, (uint8_t)(w->pattern >> 8),
                               (uint8_t)(w->pattern >> 16), (uint8_t)(w->pattern >> 24) };
        memcpy(w->buf, b, 4);
        w->built = 4;
    }
    while (w->built < need) { /* byte k is pattern byte k % 4, also from a ragged end */
        uint64_t from = w->built & 3, room = w->built - from;
        uint64_t n = room < need - w->built ? room : need - w->built;
        memcpy(w->buf + w->built, w->buf + from, n);
        w->built += n;
    }
    return w->buf;
}

/* The definition of the FILL check's answer: every page of a FILL holds the
 * same bytes (a page is a whole number of 4-byte patterns), so one model
 * page is copied out and compared with memcmp, the byte loop only naming
 * the first wrong byte; a chunk that cannot be read is reported at its
 * first byte. What first_not_pattern falls back to when the range cannot
 * be viewed whole. */
static uint64_t first_not_pattern_copying(struct wk_vidmm *vm, uint64_t addr, uint64_t len,
                                          struct fill_want *w)
{
    uint8_t buf[PAGE];
    const uint8_t *want = want_bytes(w, len < PAGE ? len : PAGE);
    for (uint64_t off = 0; off < len; off += PAGE) {
        uint64_t n = len - off < PAGE ? len - off : PAGE;
        if (wk_gpu_read(vm->gpu, addr + off, buf, n) != WK_OK)
            return off;
        if (memcmp(buf, want, n) == 0)
            continue;
        for (uint64_t i = 0; i < n; i++)
            if (buf[i] != want[i])
                return off + i;
    }
    return UINT64_MAX;
}

/* First byte of a span (at offset `at` of the FILL) that does not hold the
 * pattern, relative to the span, or UINT64_MAX. A span without data reads
 * as zeroes: wrong at the first non-zero pattern byte, if any. */
static uint64_t span_not_pattern(const struct wk_gpu_span *s, uint64_t at, struct fill_want *w)
{
    if (!s->data) {
        for (uint64_t i = 0; i < 4 && i < s->length; i++)
            if ((w->pattern >> (8 * ((at + i) & 3))) & 0xFF)
                return i;
        return UINT64_MAX;
    }
    for (uint64_t j = 0; j < s->length; j += PAGE) {
        uint64_t n = s->length - j < PAGE ? s->length - j : PAGE, phase = (at + j) & 3;
        const uint8_t *want = want_bytes(w, phase + n) + phase;
        if (memcmp(s->data + j, want, n) == 0)
            continue;
        for (uint64_t i = 0; i < n; i++)
            if (s->data[j + i] != want[i])
                return j + i;
    }
    return UINT64_MAX;
}

/* TRANSFER and FILL are WDDM 1.x operations: the header marks them
 * "WDDMv1 Only", and a GpuMmu driver gets TRANSFER_VIRTUAL and
 * FILL_VIRTUAL in their place (docs/wddm-gpummu-facts.md 4.1). The kit
 * asks them of a GpuMmu driver where it cannot make the paging process:
 * one that leaves them undone breaks no rule of its model, so the content
 * that did not move is the kit's limit, said and not blamed. One that does
 * them is judged on them as any driver (an outsider's one-page-short
 * TRANSFER passed every case while this held for any GpuMmu driver).
 * Undone: the driver wrote nothing in the paging buffer for it, or, on the
 * kit's GPU, what it wrote moved no byte (a binding's processor that moves
 * bytes with its own loads and stores counts none moved, so only the first
 * is asked there: the GPU's count alone would have blamed such a GpuMmu
 * driver for a FILL it need not do). */
struct v1_mark {
    uint64_t moved, built;
};

static struct v1_mark v1_mark_take(const struct wk_vidmm *vm)
{
    struct wk_gpu_counters c;
    wk_gpu_get_counters(vm->gpu, &c);
    return (struct v1_mark){ c.bytes_copied + c.bytes_filled, vm->paging_built };
}

static int v1_left_undone(const struct wk_vidmm *vm, struct v1_mark before)
{
    struct v1_mark now = v1_mark_take(vm);
    int undone = now.built == before.built || (!binding_executes(vm) && now.moved == before.moved);
    return vm->mmu.asked && !paging_process_live(vm) && undone;
}

static wk_status v1_operation_of_gpummu(struct wk_vidmm *vm, const char *what, const char *op, const char *instead)
{
    return fail(vm, WK_E_NOT_SUPPORTED,
                "a limit of the kit: the %s did not move the content, and a GpuMmu driver need not do %s (a WDDM 1.x "
                "operation; it gets %s in the paging process, which the kit could not make here: %s)", what, op,
                instead, paging_process_why_none(vm));
}

/* The FILL check's answer: the first byte that does not hold the pattern,
 * or UINT64_MAX; compared in place through a view when the range can be
 * viewed whole. */
static uint64_t first_not_pattern(struct wk_vidmm *vm, uint64_t addr, uint64_t len, uint32_t pattern)
{
    struct fill_want w;
    w.pattern = pattern;
    w.built = 0;
    struct wk_gpu_view v;
    if (wk_gpu_view_begin(vm->gpu, addr, len, &v) != WK_OK)
        return first_not_pattern_copying(vm, addr, len, &w);
    uint64_t bad = UINT64_MAX;
    struct wk_gpu_span s;
    for (uint64_t at = 0; bad == UINT64_MAX && wk_gpu_view_next(&v, &s); at += s.length) {
        bad = span_not_pattern(&s, at, &w);
        bad = bad == UINT64_MAX ? bad : at + bad;
    }
    return SAME_ANSWER(bad, first_not_pattern_copying(vm, addr, len, &w), "FILL");
}

wk_status op_fill(struct wk_vidmm *vm, struct allocation *a, uint32_t pattern)
{
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, DXGK_OPERATION_FILL);
    args.Fill.hAllocation = a->driver_handle;
    args.Fill.FillSize = a->size;
    args.Fill.FillPattern = pattern;
    args.Fill.Destination.SegmentId = a->segment;
    args.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)seg_addr(vm, a->segment, a->offset);
    wk_status st;
    int virt = paging_process_use(vm, &st); /* first: making it places tables */
    if (virt < 0)
        return st;
    struct neighbours n;
    watch(vm, a->segment, a->offset, a->size, &n);
    struct v1_mark moved = v1_mark_take(vm);
    st = virt ? paging_fill_virtual(vm, a, pattern) : paging_run(vm, &args, NULL);
    if (st != WK_OK)
        return st;
    a->has_content = 1;
    if (!semantic_check(vm))
        return WK_OK;
    uint64_t bad = first_not_pattern(vm, seg_addr(vm, a->segment, a->offset), a->size, pattern);
    if (bad != UINT64_MAX && v1_left_undone(vm, moved))
        return v1_operation_of_gpummu(vm, "FILL", "FILL", "FILL_VIRTUAL");
    char hint[200];
    if (bad != UINT64_MAX && virt)
        paging_process_hint(vm, hint, sizeof(hint));
    if (bad != UINT64_MAX)
        return violate(vm, R_PAGING_FILL, WK_DDI_BUILD_PAGING_BUFFER,
                       "%s of 0x%08x over %llu bytes: byte +%llu does not hold the pattern%s",
                       virt ? "FILL_VIRTUAL" : "FILL", pattern, (unsigned long long)a->size,
                       (unsigned long long)bad, virt ? hint : "");
    check_neighbours(vm, &n, "FILL");
    return WK_OK;
}

/* ------------------------------------------------------------------ */
/* Transfers                                                            */
/* ------------------------------------------------------------------ */

static void set_location(struct wk_vidmm *vm, UINT *segment_id, LARGE_INTEGER *address, MDL **mdl,
                         struct allocation *a, uint32_t seg, uint64_t offset, int system)
{
    if (system) {
        *segment_id = 0;
        *mdl = &a->mdl;
    } else {
        *segment_id = seg;
        address->QuadPart = (LONGLONG)seg_addr(vm, seg, offset);
    }
}

/* Runs the (possibly chunked) transfer from one place to another. */
static wk_status run_transfer(struct wk_vidmm *vm, struct allocation *a, DXGK_BUILDPAGINGBUFFER_OPERATION op,
                              uint32_t src_seg, uint64_t src_off, int src_sys, uint32_t dst_seg,
                              uint64_t dst_off, int dst_sys)
{
    if (op == DXGK_OPERATION_TRANSFER && paging_process_live(vm)) /* TRANSFER_VIRTUAL in its place */
        return paging_transfer_virtual(vm, a, src_seg, src_off, src_sys, dst_seg, dst_off, dst_sys);
    /* SpecialLockTransfer has no MdlOffset (its arm puts SwizzlingRangeId
     * there): it always moves the allocation whole. */
    uint64_t chunk = op == DXGK_OPERATION_TRANSFER && vm->cfg.transfer_chunk &&
                             vm->cfg.transfer_chunk % PAGE == 0
                         ? vm->cfg.transfer_chunk
                         : a->size;
    for (uint64_t done = 0; done < a->size; done += chunk) {
        DXGKARG_BUILDPAGINGBUFFER args;
        init_args(&args, op);
        args.Transfer.hAllocation = a->driver_handle;
        args.Transfer.TransferOffset = (UINT)done;
        args.Transfer.TransferSize = a->size - done < chunk ? a->size - done : chunk;
        set_location(vm, &args.Transfer.Source.SegmentId, &args.Transfer.Source.SegmentAddress,
                     &args.Transfer.Source.pMdl, a, src_seg, src_off, src_sys);
        set_location(vm, &args.Transfer.Destination.SegmentId, &args.Transfer.Destination.SegmentAddress,
                     &args.Transfer.Destination.pMdl, a, dst_seg, dst_off, dst_sys);
        if (op == DXGK_OPERATION_TRANSFER)
            args.Transfer.MdlOffset = (UINT)(done / PAGE);
        args.Transfer.Flags.TransferStart = done == 0;
        args.Transfer.Flags.TransferEnd = done + chunk >= a->size;
        wk_status st = paging_run(vm, &args, NULL);
        if (st != WK_OK)
            return st;
    }
    return WK_OK;
}

/* Whether the source was kept before a transfer (keep_source), to check
 * the destination against afterwards (check_copy). */
struct source_before {
    int known;
    struct v1_mark moved;   /* the work done before the transfer (v1_left_undone) */
};

static struct source_before source_before(struct wk_vidmm *vm, const struct allocation *a, const struct side *src)
{
    struct source_before b = { 0, v1_mark_take(vm) };
    if (semantic_check(vm))
        b.known = keep_source(vm, src, a->size);
    return b;
}

/* A GpuMmu driver's transfer runs in the paging process (run_transfer):
 * made before the transfer is watched, as making it places tables. */
static wk_status paging_process_first(struct wk_vidmm *vm)
{
    wk_status st;
    return paging_process_use(vm, &st) < 0 ? st : WK_OK;
}

/* PAGING-TRANSFER-001: the destination holds what the source held before
 * the operation (seed DXGKARG_BUILDPAGINGBUFFER, Transfer: the content
 * moves from Source to Destination). */
static wk_status check_copy(struct wk_vidmm *vm, struct allocation *a, const struct side *src,
                            const struct side *dst, const struct source_before *before, const char *what)
{
    if (!semantic_check(vm))
        return WK_OK;
    /* Against the source as it was when kept (one comparison, which also
     * holds for a source the copy overwrote); else against the source now. */
    uint64_t bad = before->known ? differs_from_kept(vm, dst, a->size) : first_difference(vm, src, dst, a->size);
    if (bad != UINT64_MAX && v1_left_undone(vm, before->moved))
        return v1_operation_of_gpummu(vm, what, "TRANSFER", "TRANSFER_VIRTUAL");
    char hint[200];
    if (bad != UINT64_MAX)
        paging_process_hint(vm, hint, sizeof(hint));
    if (bad != UINT64_MAX)
    {
        int virt = paging_process_live(vm) && strncmp(what, "TRANSFER ", 9) == 0; /* TRANSFER_VIRTUAL ran */
        return violate(vm, R_PAGING_TRANSFER, WK_DDI_BUILD_PAGING_BUFFER,
                       "%s%s of %llu bytes: destination differs from the source at byte +%llu%s",
                       virt ? "TRANSFER_VIRTUAL" : "", virt ? what + 8 : what, (unsigned long long)a->size,
                       (unsigned long long)bad, hint);
    }
    return WK_OK;
}

wk_status op_transfer_to_system(struct wk_vidmm *vm, struct allocation *a)
{
    wk_status first = paging_process_first(vm);
    if (first != WK_OK)
        return first;
    struct side src = { seg_addr(vm, a->segment, a->offset), NULL }, dst = { 0, a->pfns };
    struct source_before before = source_before(vm, a, &src);
    wk_status st = run_transfer(vm, a, DXGK_OPERATION_TRANSFER, a->segment, a->offset, 0, 0, 0, 1);
    if (st != WK_OK)
        return st;
    return check_copy(vm, a, &src, &dst, &before, "TRANSFER to system memory");
}

wk_status op_transfer_from_system(struct wk_vidmm *vm, struct allocation *a)
{
    wk_status first = paging_process_first(vm);
    if (first != WK_OK)
        return first;
    struct neighbours n;
    watch(vm, a->segment, a->offset, a->size, &n);
    struct side src = { 0, a->pfns }, dst = { seg_addr(vm, a->segment, a->offset), NULL };
    struct source_before before = source_before(vm, a, &src);
    wk_status st = run_transfer(vm, a, DXGK_OPERATION_TRANSFER, 0, 0, 1, a->segment, a->offset, 0);
    if (st != WK_OK)
        return st;
    st = check_copy(vm, a, &src, &dst, &before, "TRANSFER from system memory");
    check_neighbours(vm, &n, "TRANSFER");
    return st;
}

wk_status op_transfer_segment(struct wk_vidmm *vm, struct allocation *a, uint32_t seg, uint64_t offset)
{
    wk_status first = paging_process_first(vm);
    if (first != WK_OK)
        return first;
    struct neighbours n;
    watch(vm, seg, offset, a->size, &n);
    struct side src = { seg_addr(vm, a->segment, a->offset), NULL }, dst = { seg_addr(vm, seg, offset), NULL };
    struct source_before before = source_before(vm, a, &src);
    wk_status st = run_transfer(vm, a, DXGK_OPERATION_TRANSFER, a->segment, a->offset, 0, seg, offset, 0);
    if (st != WK_OK)
        return st;
    st = check_copy(vm, a, &src, &dst, &before, "TRANSFER between segments");
    check_neighbours(vm, &n, "TRANSFER");
    return st;
}

/* A special-lock transfer out to system memory; the allocation stays put. */
wk_status op_special_lock_transfer(struct wk_vidmm *vm, struct allocation *a)
{
    struct side src = { seg_addr(vm, a->segment, a->offset), NULL }, dst = { 0, a->pfns };
    struct source_before before = source_before(vm, a, &src);
    wk_status st = run_transfer(vm, a, DXGK_OPERATION_SPECIAL_LOCK_TRANSFER, a->segment, a->offset, 0, 0, 0, 1);
    if (st != WK_OK)
        return st;
    return check_copy(vm, a, &src, &dst, &before, "SPECIAL_LOCK_TRANSFER");
}

wk_status op_discard(struct wk_vidmm *vm, struct allocation *a)
{
    /* DISCARD_CONTENT is "WDDMv1 Only" (docs/wddm-gpummu-facts.md 4.1): a
     * GpuMmu driver, whose content moves run in the paging process, is
     * not asked it; the content is simply gone. */
    wk_status st;
    int virt = paging_process_use(vm, &st);
    if (virt != 0)
        return virt < 0 ? st : WK_OK;
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, DXGK_OPERATION_DISCARD_CONTENT);
    args.DiscardContent.hAllocation = a->driver_handle;
    args.DiscardContent.SegmentId = a->segment;
    args.DiscardContent.SegmentAddress.QuadPart = (LONGLONG)seg_addr(vm, a->segment, a->offset);
    return paging_run(vm, &args, NULL);
}

/* ------------------------------------------------------------------ */
/* Aperture mapping                                                     */
/* ------------------------------------------------------------------ */

static HANDLE device_handle_of(struct wk_vidmm *vm, const struct allocation *a)
{
    struct device *d = a ? device_get(vm, a->device) : NULL;
    return d ? d->driver_handle : NULL;
}

/*
 * The no_model mode: nothing executes a MAP_APERTURE_SEGMENT the driver
 * built, and the driver's segments need not be the model's, so the kit
 * keeps its own record of the aperture pages some MAP covered (an UNMAP
 * points them at DummyPage: still reachable). Its choice of addresses for
 * touches and fences reads it (reachable, below). Nothing here is a check
 * of the driver.
 */
static void record_mapped(struct wk_vidmm *vm, uint32_t seg, uint64_t first_page, uint64_t pages)
{
    struct segment *s = segment_get(vm, seg);
    uint64_t total = s ? s->size / PAGE : 0;
    if (!s || !s->aperture || first_page >= total)
        return;
    if (!s->mapped_once && !(s->mapped_once = calloc((size_t)(total + 7) / 8, 1)))
        return; /* no record: the pages read as never mapped */
    for (uint64_t p = first_page; p < first_page + pages && p < total; p++)
        s->mapped_once[p / 8] |= (uint8_t)(1u << (p % 8));
}

/*
 * The aperture pages beside an operation's: a MAP or UNMAP names its pages
 * by OffsetInPages and NumberOfPages (seed 003: "The offset, in pages, from
 * the beginning of the segment to the first pages to map", "The size of the
 * range being mapped ... in pages"), and an entry it writes past them
 * re-points another allocation's page (outsider 19: one page too many,
 * mapped or unmapped, passed every case). EDGE_PAGES on each side are read
 * before and after; the TLB bit may change (a flush covers the segment).
 */
#define EDGE_PAGES 8u

struct gart_edges {
    uint64_t page[2 * EDGE_PAGES];
    uint64_t pfn[2 * EDGE_PAGES];
    int valid[2 * EDGE_PAGES];
    uint32_t n;
};

static void gart_edges_read(struct wk_vidmm *vm, uint32_t seg, uint64_t first, uint64_t pages, struct gart_edges *e)
{
    const struct segment *s = segment_get(vm, seg);
    uint64_t total = s ? s->size / PAGE : 0;
    e->n = 0;
    for (uint64_t k = 1; k <= EDGE_PAGES && k <= first; k++)
        e->page[e->n++] = first - k;
    for (uint64_t p = first + pages; p < first + pages + EDGE_PAGES && p < total; p++)
        e->page[e->n++] = p;
    for (uint32_t i = 0; i < e->n; i++) {
        int stale = 0;
        e->valid[i] = 0, e->pfn[i] = 0;
        wk_gpu_gart_get(vm->gpu, seg, e->page[i], &e->valid[i], &e->pfn[i], &stale);
    }
}

/* WK_OK, or the violation of `rule` for the first edge page that changed. */
static wk_status gart_edges_check(struct wk_vidmm *vm, uint32_t seg, uint64_t first, uint64_t pages,
                                  const struct gart_edges *e, enum wk_rule_id rule, const char *op)
{
    for (uint32_t i = 0; i < e->n; i++) {
        int valid = 0, stale = 0;
        uint64_t pfn = 0;
        wk_gpu_gart_get(vm->gpu, seg, e->page[i], &valid, &pfn, &stale);
        if (valid == e->valid[i] && (!valid || pfn == e->pfn[i]))
            continue;
        char was[40], now[40];
        snprintf(was, sizeof(was), e->valid[i] ? "PFN 0x%llx" : "not mapped", (unsigned long long)e->pfn[i]);
        snprintf(now, sizeof(now), valid ? "PFN 0x%llx" : "not mapped", (unsigned long long)pfn);
        return violate(vm, rule, WK_DDI_BUILD_PAGING_BUFFER,
                       "%s of pages [%llu, %llu) of segment %u changed page %llu outside them: it pointed at %s, "
                       "now at %s (another allocation's page, or a free one, re-pointed)",
                       op, (unsigned long long)first, (unsigned long long)(first + pages), seg,
                       (unsigned long long)e->page[i], was, now);
    }
    return WK_OK;
}

/* One MAP_APERTURE_SEGMENT: `pages` pages of the MDL from entry
 * mdl_offset, at first_page of the aperture (facts P13); for a driver that
 * opted in, MAP_APERTURE_SEGMENT2 of the same pages as an ADL
 * (map_aperture2.c), whose first five fields are operation 5's. */
static wk_status map_aperture_part(struct wk_vidmm *vm, uint32_t seg, uint64_t first_page, struct allocation *a,
                                   MDL *mdl, uint64_t mdl_offset, uint64_t pages)
{
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, DXGK_OPERATION_MAP_APERTURE_SEGMENT);
    args.MapApertureSegment.hDevice = device_handle_of(vm, a);
    args.MapApertureSegment.hAllocation = a ? a->driver_handle : NULL;
    args.MapApertureSegment.SegmentId = seg;
    args.MapApertureSegment.OffsetInPages = first_page;
    args.MapApertureSegment.NumberOfPages = pages;
    const int map2 = map2_wanted(vm);
    struct gbuf adl_pages = { .map = NULL };
    wk_status st = WK_OK;
    if (map2)
        st = map2_args(vm, &args, a, mdl, mdl_offset, &adl_pages);
    else {
        args.MapApertureSegment.pMdl = mdl;
        args.MapApertureSegment.MdlOffset = (ULONG)mdl_offset;
    }
    const int contiguous = map2 && args.MapApertureSegment2.Adl.Flags.Contiguous; /* before the driver's call */
    struct gart_edges edges = { .n = 0 };
    if (!vm->cfg.no_model)
        gart_edges_read(vm, seg, first_page, pages, &edges);
    if (st == WK_OK)
        st = paging_run(vm, &args, NULL);
    gbuf_free(vm, &adl_pages);
    if (st != WK_OK)
        return st;
    if (!semantic_check(vm)) {
        record_mapped(vm, seg, first_page, pages);
        return WK_OK;
    }
    for (uint64_t i = 0; i < pages; i++) {
        int valid = 0, stale = 0;
        uint64_t pfn = 0;
        wk_gpu_gart_get(vm->gpu, seg, first_page + i, &valid, &pfn, &stale);
        if (!valid || pfn != mdl->wk_pfns[mdl_offset + i] || stale)
            return violate(vm, R_PAGING_MAP, WK_DDI_BUILD_PAGING_BUFFER,
                           "%s: page %llu of segment %u %s (expected PFN 0x%llx, the %s's entry %llu: "
                           "%s %llu + %llu%s)",
                           map2 ? "MAP_APERTURE_SEGMENT2" : "MAP_APERTURE_SEGMENT",
                           (unsigned long long)(first_page + i), seg,
                           !valid ? "is not mapped" : stale ? "is mapped but the TLB was not flushed"
                                                            : "points at the wrong page",
                           (unsigned long long)mdl->wk_pfns[mdl_offset + i], map2 ? "ADL" : "MDL",
                           (unsigned long long)(mdl_offset + i), map2 ? "AdlOffset" : "MdlOffset",
                           (unsigned long long)mdl_offset, (unsigned long long)i,
                           !map2 ? "" : contiguous ? "; a contiguous ADL: BasePageNumber + entry"
                                                   : "; a page array: Pages[entry]");
    }
    return gart_edges_check(vm, seg, first_page, pages, &edges, R_PAGING_MAP,
                            map2 ? "MAP_APERTURE_SEGMENT2" : "MAP_APERTURE_SEGMENT");
}

/*
 * The MDL's pages at first_page of the aperture: one operation, or with
 * cfg.map_chunk operations of that many pages, each naming its first page's
 * MDL entry in MdlOffset. "MapApertureSegment maps NumberOfPages pages of
 * the MDL, from page MdlOffset" (facts P13): a driver that maps from the
 * MDL's start whatever MdlOffset says maps the wrong pages, which no
 * operation of the whole MDL shows (outsider 7 planted that bug, and no
 * case caught it).
 */
wk_status op_map_aperture(struct wk_vidmm *vm, uint32_t seg, uint64_t first_page,
                          struct allocation *a, MDL *mdl, uint64_t pages)
{
    uint64_t chunk = vm->cfg.map_chunk ? vm->cfg.map_chunk : pages;
    wk_status st = WK_OK;
    for (uint64_t done = 0; done < pages && st == WK_OK; done += chunk) {
        uint64_t n = pages - done < chunk ? pages - done : chunk;
        st = map_aperture_part(vm, seg, first_page + done, a, mdl, done, n);
    }
    return st;
}

wk_status op_unmap_aperture(struct wk_vidmm *vm, uint32_t seg, uint64_t first_page, uint64_t pages,
                            struct allocation *a)
{
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, DXGK_OPERATION_UNMAP_APERTURE_SEGMENT);
    args.UnmapApertureSegment.hAllocation = a ? a->driver_handle : NULL;
    args.UnmapApertureSegment.SegmentId = seg;
    args.UnmapApertureSegment.OffsetInPages = first_page;
    args.UnmapApertureSegment.NumberOfPages = pages;
    args.UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)(vm->dummy_pfn << WK_GPU_PAGE_SHIFT);
    struct gart_edges edges = { .n = 0 };
    if (!vm->cfg.no_model)
        gart_edges_read(vm, seg, first_page, pages, &edges);
    /* a's CpuVisibleAddress ends when the operation's last call returns
     * (paging.c), or here whatever the driver answered (aperture_view.c) */
    vm->view_ending = a;
    wk_status st = paging_run(vm, &args, NULL);
    vm->view_ending = NULL;
    if (a)
        aperture_view_end(vm, a);
    if (st != WK_OK)
        return st;
    if (!semantic_check(vm))
        return WK_OK; /* the pages keep their mapped_once bit: they point at DummyPage */
    for (uint64_t i = 0; i < pages; i++) {
        int valid = 0, stale = 0;
        uint64_t pfn = 0;
        wk_gpu_gart_get(vm->gpu, seg, first_page + i, &valid, &pfn, &stale);
        if (!valid || pfn != vm->dummy_pfn || stale)
            return violate(vm, R_PAGING_UNMAP, WK_DDI_BUILD_PAGING_BUFFER,
                           "UNMAP_APERTURE_SEGMENT: page %llu of segment %u %s, expected DummyPage PFN 0x%llx",
                           (unsigned long long)(first_page + i), seg,
                           !valid ? "is left invalid" : stale ? "has a stale TLB line" : "points elsewhere",
                           (unsigned long long)vm->dummy_pfn);
    }
    return gart_edges_check(vm, seg, first_page, pages, &edges, R_PAGING_UNMAP, "UNMAP_APERTURE_SEGMENT");
}

/* ------------------------------------------------------------------ */
/* Physical touches, context resources, monitored fences                */
/* ------------------------------------------------------------------ */

wk_status op_touch_physical(struct wk_vidmm *vm, uint32_t seg, uint64_t offset, int write)
{
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, write ? DXGK_OPERATION_WRITE_PHYSICAL : DXGK_OPERATION_READ_PHYSICAL);
    args.ReadPhysical.SegmentId = seg; /* the two arms share their layout */
    args.ReadPhysical.PhysicalAddress.QuadPart = (LONGLONG)seg_addr(vm, seg, offset);
    return paging_run(vm, &args, NULL);
}

wk_status op_init_context_resource(struct wk_vidmm *vm, struct allocation *a)
{
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, DXGK_OPERATION_INIT_CONTEXT_RESOURCE);
    args.InitContextResource.hAllocation = a->driver_handle;
    args.InitContextResource.Destination.SegmentId = a->segment;
    args.InitContextResource.Destination.SegmentAddress.QuadPart =
        (LONGLONG)seg_addr(vm, a->segment, a->offset);
    args.InitContextResource.Destination.GpuVirtualAddress = seg_addr(vm, a->segment, a->offset);
    if (vm->mmu.asked && vm->mmu.caps.PageTableUpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL) {
        wk_status st;
        int virt = paging_process_use(vm, &st); /* GPU_VIRTUAL: at its address in the paging process */
        if (virt != 0)
            return virt > 0 ? paging_init_context_virtual(vm, a, &args) : st;
    }
    if (!segment_get(vm, a->segment)->memory)
        return paging_run(vm, &args, NULL);
    /* "a paging operation changes no memory outside its destination"
     * (PAGING-CONFINE-001): the resource's size is the driver's own, from
     * DxgkCbCreateContextAllocation (outsider 27: one initialized a page
     * past it, over the next context allocation, and no rule fired) */
    struct neighbours n;
    watch(vm, a->segment, a->offset, a->size, &n);
    uint64_t tables = gpuva_table_events(vm);
    /* its GpuVirtualAddress holds in the paging process too */
    wk_status st = paging_run_in_place(vm, &args, args.InitContextResource.Destination.GpuVirtualAddress, a->size);
    if (st == WK_OK && gpuva_table_events(vm) == tables)
        check_neighbours(vm, &n, "INIT_CONTEXT_RESOURCE");
    return st;
}

wk_status op_update_context_allocation(struct wk_vidmm *vm, struct allocation *a, const void *blob,
                                       uint32_t blob_size)
{
    struct gbuf priv;
    wk_status st = gbuf_alloc(vm, &priv, blob_size, "context-allocation update data");
    if (st != WK_OK)
        return st;
    if (blob_size)
        memcpy(priv.ptr, blob, blob_size);
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION);
    /* A physical-addressing driver has no paging process: the
     * "scratch-area" address is the allocation's GPU address. */
    args.UpdateContextAllocation.ContextAllocation = seg_addr(vm, a->segment, a->offset);
    args.UpdateContextAllocation.ContextAllocationSize = a->size;
    args.UpdateContextAllocation.pDriverPrivateData = priv.ptr;
    args.UpdateContextAllocation.DriverPrivateDataSize = blob_size;
    int virt = paging_process_use(vm, &st);
    if (virt > 0)
        st = paging_update_context_virtual(vm, a, &args);
    else if (virt == 0)
        st = paging_run(vm, &args, NULL);
    if (st == WK_OK)
        st = gbuf_check(vm, &priv, WK_DDI_BUILD_PAGING_BUFFER);
    gbuf_free(vm, &priv);
    return st;
}

/*
 * NOTIFY_RESIDENCY (WDDM 2.0, facts P23; the DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY
 * page): issued only for an allocation its driver flagged both
 * ExplicitResidencyNotification and AccessedPhysically, in a GpuMmu
 * driver's memory manager, once when it is committed to a memory segment
 * (after the content operations: Resident 1, its segment and offset) and
 * once when it is evicted from one (before them: Resident 0, address 0, 0).
 */
int notify_residency_wanted(const struct wk_vidmm *vm, const struct allocation *a)
{
    const UINT both = 0x8000u | 0x10000u; /* AccessedPhysically, ExplicitResidencyNotification */
    return vm->mmu.asked && (a->info.Flags.Value & both) == both;
}

wk_status op_notify_residency(struct wk_vidmm *vm, struct allocation *a, int resident)
{
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, DXGK_OPERATION_NOTIFY_RESIDENCY);
    args.NotifyResidency.hAllocation = a->driver_handle;
    if (resident) {
        args.NotifyResidency.PhysicalAddress.SegmentId = a->segment;
        args.NotifyResidency.PhysicalAddress.SegmentOffset = a->offset; /* from the segment's start */
    }
    args.NotifyResidency.Resident = resident ? 1u : 0u;
    return paging_run(vm, &args, NULL);
}

wk_status op_signal_monitored_fence(struct wk_vidmm *vm, uint64_t address, uint64_t value)
{
    DXGKARG_BUILDPAGINGBUFFER args;
    init_args(&args, DXGK_OPERATION_SIGNAL_MONITORED_FENCE);
    args.SignalMonitoredFence.MonitoredFenceGpuVa = address;
    args.SignalMonitoredFence.MonitoredFenceValue = value;
    wk_status st = paging_run_in_place(vm, &args, address, sizeof(value));
    if (st != WK_OK || !semantic_check(vm))
        return st;
    uint64_t seen = 0;
    if (wk_gpu_read(vm->gpu, address, &seen, sizeof(seen)) != WK_OK || seen != value)
        return violate(vm, R_PAGING_FENCE, WK_DDI_BUILD_PAGING_BUFFER,
                       "SIGNAL_MONITORED_FENCE: 0x%llx holds 0x%llx, expected 0x%llx",
                       (unsigned long long)address, (unsigned long long)seen, (unsigned long long)value);
    return WK_OK;
}

/* ------------------------------------------------------------------ */
/* Public wrappers                                                      */
/* ------------------------------------------------------------------ */

/* Whether the GPU can access all 8 bytes at gpu_address (an unmapped
 * aperture page or a segment's end stops it): a probe read. The kit picks
 * the addresses of touches and fences; one the GPU cannot reach would
 * blame the driver for the kit's choice. */
static int gpu_reaches(struct wk_vidmm *vm, uint64_t gpu_address)
{
    uint64_t probe;
    return wk_gpu_read(vm->gpu, gpu_address, &probe, sizeof(probe)) == WK_OK;
}

/* no_model: whether the 8 bytes at segment seg, offset off lie in one of
 * the driver's segments and, in an aperture, on pages some MAP covered. */
static int kit_reaches(struct wk_vidmm *vm, uint32_t seg, uint64_t off)
{
    struct segment *s = segment_get(vm, seg);
    if (!s || off + 8 > s->size || off + 8 < off)
        return 0;
    if (!s->aperture)
        return 1;
    for (uint64_t p = off / PAGE; p <= (off + 7) / PAGE; p++)
        if (!s->mapped_once || !(s->mapped_once[p / 8] & (1u << (p % 8))))
            return 0;
    return 1;
}

/* The driver's segment holding gpu_address, 0 when none (no_model: the
 * addresses are the driver's, from its segment descriptors). */
static uint32_t driver_segment_of(struct wk_vidmm *vm, uint64_t gpu_address, uint64_t *off)
{
    for (uint32_t i = 1; i <= vm->nseg && i <= MAX_SEGMENTS; i++) {
        struct segment *s = &vm->seg[i];
        if (s->size && gpu_address >= s->base && gpu_address - s->base < s->size) {
            *off = gpu_address - s->base;
            return i;
        }
    }
    return 0;
}

/* READ_PHYSICAL, WRITE_PHYSICAL and SPECIAL_LOCK_TRANSFER are "WDDMv1
 * Only" (the header's enum comments; docs/wddm-gpummu-facts.md 4.1: a
 * GpuMmu driver does not receive them), so the contract profile asks them
 * of a physical-addressing driver only (outsider 29: a GpuMmu driver for
 * its own hardware answered STATUS_NOT_SUPPORTED and was failed for it).
 * The reference profile asks them of any driver, as it pins the reference
 * driver's own behaviour. */
static wk_status v1_only_allowed(struct wk_vidmm *vm, const char *op)
{
    if (!vm->skip_choice_rules || !vm->mmu.asked)
        return WK_OK;
    return fail(vm, WK_E_NOT_SUPPORTED,
                "%s is for a driver that addresses memory physically (\"WDDMv1 Only\", docs/wddm-gpummu-facts.md "
                "4.1): the kernel does not ask it of a GpuMmu driver, so the kit does not", op);
}

wk_status wk_vidmm_touch_physical(struct wk_vidmm *vm, uint32_t segment_id, uint64_t offset, int write)
{
    struct segment *s = segment_get(vm, segment_id);
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash");
    wk_status allowed = v1_only_allowed(vm, write ? "WRITE_PHYSICAL" : "READ_PHYSICAL");
    if (allowed != WK_OK)
        return allowed;
    /* A budgeted segment is as large as its budget to a case (the case's
     * own description: wk_vidmm_set_segment_budget). */
    uint64_t size = s ? (s->budgeted ? s->budget : s->size) : 0;
    if (!s || offset + 8 > size)
        return fail(vm, WK_E_INVALID_ARGUMENT, "segment %u offset 0x%llx is outside the segment%s",
                    segment_id, (unsigned long long)offset, s && s->budgeted ? " (as large as the case's description)" : "");
    /* All 8 bytes a driver's touch may cover, so both aperture pages when
     * they straddle two. Checking only the first page let an unmapped
     * second one fault the GPU and blamed the driver (PAGING-GPU-001 on the
     * reference driver, found by fuzz_prog under AFL++). */
    if (vm->cfg.no_model ? !kit_reaches(vm, segment_id, offset) : !gpu_reaches(vm, seg_addr(vm, segment_id, offset)))
        return fail(vm, WK_E_STATE, "segment %u offset 0x%llx: the GPU cannot reach the 8 bytes there (an unmapped aperture page)",
                    segment_id, (unsigned long long)offset);
    return op_touch_physical(vm, segment_id, offset, write);
}

/* "SpecialLockTransfer happens only to drivers that use UseAlternateVA,
 * when such a CPU-visible allocation is evicted or brought back" (facts
 * P16), and the flag is UseAlternateVA only before WDDM 2.1, where its bit
 * became CreateInVpr (facts §3.4, DXGK_ALLOCATIONINFOFLAGS bit 10). The
 * contract profile asks it only so (WK_E_NOT_SUPPORTED, the case skipped
 * with this reason): a driver asked what no kernel asks it was failed for
 * its answer (outsider 7: a WDDM 1.3 driver that never sets the flag and
 * built nothing for the operation). The reference profile asks it of any
 * allocation, as it pins the reference driver's own behaviour. */
static wk_status special_lock_allowed(struct wk_vidmm *vm, const struct allocation *a, uint32_t allocation)
{
    UINT v = (UINT)vm->caps.WDDMVersion;
    if (!vm->skip_choice_rules)
        return WK_OK;
    wk_status v1 = v1_only_allowed(vm, "SPECIAL_LOCK_TRANSFER");
    if (v1 != WK_OK)
        return v1;
    if (v != 0 && v >= (UINT)DXGKDDI_WDDMv2_1)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "the driver reports WDDMVersion 0x%x (DXGK_DRIVERCAPS): SPECIAL_LOCK_TRANSFER happens only to "
                    "allocations with UseAlternateVA, a flag WDDM 2.1 replaced, so the kit does not ask it", v);
    if (!a->info.Flags.UseAlternateVA)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "allocation %u was created without UseAlternateVA (DXGK_ALLOCATIONINFOFLAGS): "
                    "SPECIAL_LOCK_TRANSFER happens only to such allocations, so the kit does not ask it",
                    allocation);
    return WK_OK;
}

wk_status wk_vidmm_special_lock_transfer(struct wk_vidmm *vm, uint32_t allocation)
{
    struct allocation *a = allocation_get(vm, allocation);
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash");
    if (!a)
        return fail(vm, WK_E_NOT_FOUND, "no allocation %u", allocation);
    wk_status st = residency_place(vm, a);
    if (st != WK_OK)
        return st;
    if (!segment_get(vm, a->segment)->memory)
        return fail(vm, WK_E_NOT_SUPPORTED, "allocation %u is not in a memory segment", allocation);
    st = special_lock_allowed(vm, a, allocation);
    if (st != WK_OK)
        return st;
    int had = a->pfns != NULL;
    uint64_t n = a->size / PAGE;
    if (!had) {
        a->pfns = calloc(n ? n : 1, sizeof(*a->pfns));
        if (!a->pfns || sysmem_pages_alloc(vm, n, 0, a->pfns) != WK_OK) {
            free(a->pfns);
            a->pfns = NULL;
            return fail(vm, WK_E_NO_SPACE, "no system memory for a special-lock transfer");
        }
        a->pfn_count = n;
        mdl_init(vm, &a->mdl, a->pfns, n, a->size);
    }
    st = op_special_lock_transfer(vm, a);
    if (!had) {
        mdl_release(vm, &a->mdl);
        sysmem_pages_free(vm, a->pfns, a->pfn_count);
        free(a->pfns);
        a->pfns = NULL;
        a->pfn_count = 0;
    }
    return st;
}

/* Whether any of the 8 fence bytes at gpu_address is in a system page of
 * the kit's own buffers (both pages when they straddle two). */
static int fence_in_kit_pages(const struct wk_vidmm *vm, uint64_t gpu_address)
{
    for (uint64_t a = gpu_address; a - gpu_address < 8; a += 7) {
        struct wk_gpu_location where;
        if (wk_gpu_locate(vm->gpu, a, &where) == WK_OK && where.segment_id == 0 &&
            sysmem_is_kit_page(vm, vm->gpu_desc.sysmem_first_pfn + where.offset / WK_GPU_PAGE_SIZE))
            return 1;
    }
    return 0;
}

/* SIGNAL_MONITORED_FENCE came with WDDM 2.2 (facts §1.1, P24): a driver
 * whose caps say it is older never receives it. Asking it anyway failed a
 * WDDM 1.3 driver in 38 cases, whatever it answered (outsider 7).
 * WDDMVersion 0 says nothing (segments.c). */
static int driver_signals_fences(const struct wk_vidmm *vm)
{
    UINT v = (UINT)vm->caps.WDDMVersion;
    return v == 0 || v >= (UINT)DXGKDDI_WDDMv2_2;
}

void wk_vidmm_allow_kit_fences(struct wk_vidmm *vm, int allow)
{
    vm->kit_fences_refused = !allow;
}

/* Whether the GPU reaches gpu_address through an aperture, so through the
 * page tables the driver's MAP_APERTURE_SEGMENT wrote: the GPU's own
 * segments with the model or a binding, the driver's (seg) without. */
static int through_aperture(struct wk_vidmm *vm, uint64_t gpu_address, uint32_t seg)
{
    if (vm->cfg.no_model) {
        const struct segment *s = segment_get(vm, seg);
        return s && s->aperture;
    }
    struct wk_gpu_location where;
    const struct wk_gpu_desc *d = wk_gpu_description(vm->gpu);
    return wk_gpu_locate(vm->gpu, gpu_address, &where) == WK_OK && where.segment_id >= 1 &&
           where.segment_id <= d->segment_count && d->segments[where.segment_id - 1].kind == WK_GPU_SEGMENT_APERTURE;
}

/* For a driver older than WDDM 2.2, whether the kit may write the value
 * itself (kit_fence_write), else WK_E_NOT_SUPPORTED saying why: the runner
 * skips the case with that reason. Only through an aperture: there the
 * write proves the driver's mapping (facts P13, P14: the aperture cases use
 * the fence for that); anywhere else it would prove only the kit's own
 * write, and the case is about the fence operation itself. Not in a
 * negative case (wk_vidmm_allow_kit_fences): its corruption counts the
 * driver's calls, and the calls the driver's fence would have made are
 * not there. */
static wk_status kit_fence_allowed(struct wk_vidmm *vm, uint64_t gpu_address, uint32_t seg)
{
    UINT v = (UINT)vm->caps.WDDMVersion;
    if (vm->kit_fences_refused)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "the driver reports WDDMVersion 0x%x (DXGK_DRIVERCAPS): SIGNAL_MONITORED_FENCE is WDDM 2.2's, so "
                    "the kit does not ask it; nor does it write the value itself in a negative case, whose "
                    "corruption counts the driver's calls", v);
    if (!through_aperture(vm, gpu_address, seg))
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "the driver reports WDDMVersion 0x%x (DXGK_DRIVERCAPS): SIGNAL_MONITORED_FENCE is WDDM 2.2's, so "
                    "the kit does not ask it; it writes the value itself only through an aperture, where the write "
                    "tests the driver's mapping (0x%llx is not in one: there it would test only the kit's own write)",
                    v, (unsigned long long)gpu_address);
    return WK_OK;
}

/*
 * The fence value written by the kit, for a driver that is not asked
 * SIGNAL_MONITORED_FENCE: the 8 bytes, little-endian as the GPU's fence
 * writes them, stored through the memory system a command processor uses
 * (processor.h), the kit's GPU's or a binding's alike. That is the GPU's
 * own translation: an aperture page through its TLB, as the driver's
 * buffers last mapped and flushed it. It lands in the allocation's system
 * pages only if the driver's MAP_APERTURE_SEGMENT put them there, which
 * the case's content checks then read; no DDI is called and no paging
 * operation, pass, buffer or fence is counted (stats.kit_fence_writes
 * says it happened, so the interpreter skips the counts it changed).
 * Without a GPU (no_model) nothing executes, and nothing is written.
 */
static wk_status kit_fence_write(struct wk_vidmm *vm, uint64_t address, uint64_t value)
{
    vm->stats.kit_fence_writes++;
    if (vm->cfg.no_model)
        return WK_OK;
    uint8_t bytes[8];
    for (unsigned i = 0; i < sizeof(bytes); i++)
        bytes[i] = (uint8_t)(value >> (8 * i));
    struct wk_mem_fault f = { 0, 0, 0 };
    uint64_t seen = 0;
    /* The entries were reachable (the caller's probe reads them); the TLB
     * is what the driver's buffers left: a line they changed and never
     * flushed refuses the write, or sends it elsewhere. */
    if (wk_gpu_mem_ops()->store(wk_gpu_mem(vm->gpu), address, bytes, sizeof(bytes), &f) != 0)
        return fail(vm, WK_E_STATE,
                    "the kit's own fence write (the driver is older than WDDM 2.2) at 0x%llx: the GPU's translation "
                    "refuses 0x%llx (%s), though the aperture's entries map it: a TLB line the driver's buffers "
                    "left unflushed",
                    (unsigned long long)address, (unsigned long long)f.addr,
                    wk_gpu_fault_name((enum wk_gpu_fault_reason)f.reason));
    if (wk_gpu_read(vm->gpu, address, &seen, sizeof(seen)) != WK_OK || memcmp(&seen, bytes, sizeof(bytes)) != 0)
        return fail(vm, WK_E_STATE,
                    "the kit's own fence write (the driver is older than WDDM 2.2) at 0x%llx landed elsewhere than "
                    "the aperture's entries say: a TLB line the driver's buffers left unflushed",
                    (unsigned long long)address);
    return WK_OK;
}

wk_status wk_vidmm_signal_monitored_fence(struct wk_vidmm *vm, uint64_t gpu_address, uint64_t value)
{
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash");
    uint64_t seg_off = 0;
    uint32_t seg = vm->cfg.no_model ? driver_segment_of(vm, gpu_address, &seg_off) : 0;
    if (vm->cfg.no_model) { /* the driver's segments, not the model's map */
        if (!seg && wk_gpu_locate(vm->gpu, gpu_address, &(struct wk_gpu_location){ 0, 0, 0 }) != WK_OK)
            return fail(vm, WK_E_INVALID_ARGUMENT, "0x%llx is not a GPU address", (unsigned long long)gpu_address);
    } else if (wk_gpu_locate(vm->gpu, gpu_address, &(struct wk_gpu_location){ 0, 0, 0 }) != WK_OK) {
        return fail(vm, WK_E_INVALID_ARGUMENT, "0x%llx is not a GPU address",
                    (unsigned long long)gpu_address);
    }
    /* A test step's fence never lands in the kit's own buffers: a write
     * into the paging buffer's block or a DMA buffer would be found by the
     * kit's canary checks after the driver's next call, and blamed on the
     * driver (fuzz_prog, a seed's adapter with system memory at PFN 0 and
     * a fence at 0x46ae: a KIT INVARIANT on the reference driver). */
    if (fence_in_kit_pages(vm, gpu_address))
        return fail(vm, WK_E_INVALID_ARGUMENT, "0x%llx: system memory the kit holds for its own DMA and paging buffers",
                    (unsigned long long)gpu_address);
    /* ... nor in the page tables the kit placed for a GpuMmu driver (a
     * case's address spaces, the paging process's): a case calibrated on a
     * physical driver wrote over the paging process's root (outsider 16). */
    if (gpuva_table_overlaps(vm, gpu_address, 8))
        return fail(vm, WK_E_NOT_SUPPORTED, "0x%llx: a page table the kit placed there for an address space (the "
                    "paging process's, or the case's), which the case was calibrated without",
                    (unsigned long long)gpu_address);
    /* The fence value is checked by reading it back, and the GPU must not
     * fault on the write. */
    if (seg ? !kit_reaches(vm, seg, seg_off) : !gpu_reaches(vm, gpu_address))
        return fail(vm, WK_E_STATE, "0x%llx: the GPU cannot access the 8 fence bytes there",
                    (unsigned long long)gpu_address);
    if (driver_signals_fences(vm))
        return op_signal_monitored_fence(vm, gpu_address, value);
    /* Checked as for a driver that is asked (the same statuses for the same
     * addresses), then written by the kit where that proves something. */
    wk_status allowed = kit_fence_allowed(vm, gpu_address, seg);
    return allowed != WK_OK ? allowed : kit_fence_write(vm, gpu_address, value);
}
