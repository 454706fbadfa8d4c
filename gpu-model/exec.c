/* SPDX-License-Identifier: MIT */
/*
 * exec.c - the kit's command processor: the command set of
 * docs/gpu-model.md ("Command encoding"), run against a memory system.
 *
 * A buffer is decoded command by command from a snapshot; each command is
 * one handler below, which reaches memory only through the memory table
 * (processor.h, mem_ops.c), which checks every access whole before any
 * effect; the handler returns the fault reason (NONE to go on).
 * Termination on any input is by construction: there are no jumps, CALL
 * nests at most max_call_depth levels, and every command, BLIT row and GART
 * list entry spends one unit of a per-exec budget, every byte copied,
 * filled or fetched one byte of another.
 *
 * Two ways in, one source: wk_gpu_exec and wk_gpu_exec_bytes run it on the
 * model with the model's own budget and its rich fault records (operand
 * detail, the buffer of a CALL, top_offset), and so does exec_virtual, in
 * an address space over the model (a submission with a RING_ROOT, mmio.c);
 * wk_gpu_kit_processor is the same code as a processor.h processor, run
 * like a binding's (wk_gpu_exec_processor), whose budget and fences go
 * through the kit's wk_exec_ops and whose fault is a wk_exec_fault. Only
 * what those two differ in is looked up through `struct exec` (the table,
 * the budget, the fence, where faults go, the fetch buffers, whether
 * addresses are virtual).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct exec {
    struct wk_gpu *gpu;          /* the model's own run; NULL in the kit's processor */
    struct wk_mem *mem;
    const struct wk_mem_ops *mops;
    const struct wk_gpu_desc *desc; /* the layout: operand checks, max_dma_length */
    const struct wk_exec *wx;    /* the kit's processor: budget and fences through it */
    uint64_t units_left;         /* the model's own budget (wx NULL) */
    uint64_t bytes_left;
    uint32_t depth;
    uint32_t max_depth;
    int virt;                    /* every address is virtual: mem is an address space */
    int nested_fault;            /* a CALL target faulted: its fault is in `held` */
    struct wk_gpu_fault *out;    /* the caller's record of the fault that stops it (or NULL) */
    struct wk_gpu_fault_detail detail; /* set by whatever returns BAD_OPERAND */
    struct wk_gpu_fault held;    /* a fault inside a CALL, until its depth-0 CALL is known */
    uint8_t **fetch;             /* snapshot buffer per depth, and its size */
    uint64_t *fetch_cap;
};

typedef enum wk_gpu_fault_reason handler_fn(struct exec *x, const struct wk_gpu_cmd *c,
                                            uint64_t *fault_addr);

static wk_status run(struct exec *x, const uint8_t *buf, uint64_t len, uint64_t buffer_addr);

/* The budget: the model's own counters, or the kit's spend (a spend that
 * cannot pay charges nothing, as here). Inlined: every command spends. */
__attribute__((always_inline)) static inline int spend(struct exec *x, uint64_t units, uint64_t bytes)
{
    if (__builtin_expect(x->wx != NULL, 0))
        return x->wx->ops->spend(x->wx, units, bytes);
    if (units > x->units_left || bytes > x->bytes_left)
        return -1;
    x->units_left -= units;
    x->bytes_left -= bytes;
    return 0;
}

static int spend_bytes(struct exec *x, uint64_t n)
{
    return spend(x, 0, n);
}

static int spend_units(struct exec *x, uint64_t n)
{
    return spend(x, n, 0);
}

/* The most of n units the budget pays for, paid: a run of NOPs runs as far
 * as it can. The model's own budget says at once; the kit's spend is asked
 * for halves until it pays (each refusal charges nothing). */
static uint64_t spend_up_to(struct exec *x, uint64_t n)
{
    if (!x->wx) {
        uint64_t k = n < x->units_left ? n : x->units_left;
        x->units_left -= k;
        return k;
    }
    uint64_t paid = 0;
    for (uint64_t chunk = n; chunk && paid < n;) {
        if (spend_units(x, chunk) == 0)
            paid += chunk, chunk = chunk < n - paid ? chunk : n - paid;
        else
            chunk /= 2;
    }
    return paid;
}

/* A failed access of the memory table as the command's fault: the reason
 * and the address that failed, but for MEMORY_LIMIT, which names the
 * command's own address (the access as a whole did not fit). */
static enum wk_gpu_fault_reason mem_failed(const struct wk_mem_fault *mf, uint64_t addr, uint64_t *fa)
{
    *fa = mf->reason == WK_GPU_FAULT_MEMORY_LIMIT ? addr : mf->addr;
    return (enum wk_gpu_fault_reason)mf->reason;
}

static enum wk_gpu_fault_reason op_nop(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    (void)x, (void)c, (void)fa;
    return WK_GPU_FAULT_NONE;
}

static enum wk_gpu_fault_reason op_copy(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    uint64_t src = c->operands[0], dst = c->operands[1], n = c->operands[2];
    struct wk_mem_fault mf;
    if (n == 0)
        return WK_GPU_FAULT_NONE;
    if (spend_bytes(x, n) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (x->mops->copy(x->mem, dst, src, n, &mf) != 0)
        return mem_failed(&mf, dst, fa);
    return WK_GPU_FAULT_NONE;
}

static enum wk_gpu_fault_reason op_fill(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    uint64_t dst = c->operands[0], n = c->operands[1];
    struct wk_mem_fault mf;
    uint8_t pattern[4];
    if (n == 0)
        return WK_GPU_FAULT_NONE;
    if (spend_bytes(x, n) != 0)
        return WK_GPU_FAULT_BUDGET;
    put_le32(pattern, (uint32_t)c->operands[2]);
    if (x->mops->fill(x->mem, dst, n, pattern, 4, &mf) != 0)
        return mem_failed(&mf, dst, fa);
    return WK_GPU_FAULT_NONE;
}

/* WRITE32, WRITE64 and FENCE: a little-endian store of `size` bytes. */
static enum wk_gpu_fault_reason store(struct exec *x, uint64_t addr, uint64_t value,
                                      uint32_t size, uint64_t *fa)
{
    struct wk_mem_fault mf;
    uint8_t bytes[8];
    put_le64(bytes, value);
    if (x->mops->store(x->mem, addr, bytes, size, &mf) != 0)
        return mem_failed(&mf, addr, fa);
    return WK_GPU_FAULT_NONE;
}

static enum wk_gpu_fault_reason op_write32(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    return store(x, c->operands[0], c->operands[1], 4, fa);
}

static enum wk_gpu_fault_reason op_write64(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    return store(x, c->operands[0], c->operands[1], 8, fa);
}

static enum wk_gpu_fault_reason op_fence(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    enum wk_gpu_fault_reason why = store(x, c->operands[0], c->operands[1], 8, fa);
    if (why != WK_GPU_FAULT_NONE)
        return why;
    if (x->wx)
        x->wx->ops->fence(x->wx, c->operands[0], c->operands[1]);
    else
        fence_signal(x->gpu, c->operands[0], c->operands[1]);
    return why;
}

/* The GPU address of a GART command's first page, where a fault of its
 * entries is reported. */
static uint64_t gart_addr(const struct wk_gpu_segment_desc *r, const struct wk_gpu_cmd *c)
{
    return r->base + (c->operands[1] << WK_GPU_PAGE_SHIFT);
}

/* GART_MAP's list (little-endian frames in the buffer) as the table's
 * array of frames, a block at a time. */
#define GART_BLOCK 256u
static enum wk_gpu_fault_reason map_list(struct exec *x, const struct wk_gpu_segment_desc *r,
                                         const struct wk_gpu_cmd *c, uint64_t *fa)
{
    uint64_t pfns[GART_BLOCK];
    struct wk_mem_fault mf;
    for (uint32_t done = 0; done < c->list_count;) {
        uint32_t n = c->list_count - done < GART_BLOCK ? c->list_count - done : GART_BLOCK;
        for (uint32_t i = 0; i < n; i++)
            pfns[i] = le64(c->list + 8 * (uint64_t)(done + i));
        if (x->mops->gart_write(x->mem, (uint32_t)c->operands[0], c->operands[1] + done, n, pfns, 0, &mf) != 0)
            return mem_failed(&mf, gart_addr(r, c), fa);
        done += n;
    }
    return WK_GPU_FAULT_NONE;
}

/* The operand checks are the validator's (operands.c); the budget is spent
 * between them, as before, so that a long list is paid for before its
 * frames are read. */
static enum wk_gpu_fault_reason op_gart_map(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    const struct wk_gpu_segment_desc *r = operand_gart_target(x->desc, c, &x->detail);
    if (!r)
        return WK_GPU_FAULT_BAD_OPERAND;
    if (spend_units(x, c->list_count) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (!operand_gart_frames(x->desc, c, &x->detail))
        return WK_GPU_FAULT_BAD_OPERAND;
    return map_list(x, r, c, fa);
}

/* Every page to the dummy frame: the table's gart_write_same. */
static enum wk_gpu_fault_reason op_gart_unmap(struct exec *x, const struct wk_gpu_cmd *c,
                                              uint64_t *fa)
{
    struct wk_mem_fault mf;
    const struct wk_gpu_segment_desc *r = operand_gart_target(x->desc, c, &x->detail);
    if (!r || !operand_gart_frames(x->desc, c, &x->detail))
        return WK_GPU_FAULT_BAD_OPERAND;
    if (spend_units(x, c->operands[2]) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (x->mops->gart_write_same(x->mem, (uint32_t)c->operands[0], c->operands[1], c->operands[2], c->operands[3],
                                 &mf) != 0)
        return mem_failed(&mf, gart_addr(r, c), fa);
    return WK_GPU_FAULT_NONE;
}

static enum wk_gpu_fault_reason op_tlb_flush(struct exec *x, const struct wk_gpu_cmd *c,
                                             uint64_t *fa)
{
    struct wk_mem_fault mf;
    if (!operand_gart_target(x->desc, c, &x->detail))
        return WK_GPU_FAULT_BAD_OPERAND;
    if (x->mops->gart_flush(x->mem, (uint32_t)c->operands[0], &mf) != 0)
        return mem_failed(&mf, 0, fa);
    return WK_GPU_FAULT_NONE;
}

/* VA_FLUSH: the model's own run flushes the spaces attached to it; the
 * kit's processor asks its run (a table too old to have va_flush: no
 * space to flush, so nothing). Never a fault: a root no space has is an
 * idle space (docs/wddm-gpummu-facts.md 4.3). */
static enum wk_gpu_fault_reason op_va_flush(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    const uint64_t *o = c->operands;
    const struct wk_exec_ops *ops = x->wx ? x->wx->ops : NULL;
    (void)fa;
    if (x->gpu)
        gpu_va_flush(x->gpu, o[0], o[1], o[2]);
    else if (ops && ops->size >= offsetof(struct wk_exec_ops, va_flush) + sizeof(ops->va_flush) && ops->va_flush)
        ops->va_flush(x->wx, o[0], o[1], o[2]);
    return WK_GPU_FAULT_NONE;
}

/* The fetch buffer of `depth`, grown to len bytes; NULL when out of host
 * memory. Apart from fetch so that fuzzing builds can leave it without
 * coverage (fuzz/coverage-ignorelist.txt): whether it grows depends on
 * earlier inputs. Never inlined: inlined into fetch, its branch would be
 * fetch's and counted (bench/fuzz_stability found it so). */
__attribute__((noinline)) static uint8_t *fetch_room(struct exec *x, uint32_t depth, uint64_t len)
{
    if (x->fetch_cap[depth] < len) {
        uint8_t *b = realloc(x->fetch[depth], len);
        if (!b)
            return NULL;
        x->fetch[depth] = b;
        x->fetch_cap[depth] = len;
    }
    return x->fetch[depth];
}

/* A snapshot of [addr, addr+len) in the fetch buffer of `depth` (whose
 * length the caller checked against max_dma_length): a GPU read through
 * the table. */
static enum wk_gpu_fault_reason fetch(struct exec *x, uint64_t addr, uint64_t len, uint32_t depth,
                                      const uint8_t **out, uint64_t *fa)
{
    struct wk_mem_fault mf;
    struct wk_mem_cursor probe;
    uint8_t *room = NULL;
    /* A buffer grows only for an access that can succeed. */
    if (x->fetch_cap[depth] < len &&
        x->mops->begin(x->mem, addr, len, WK_MEM_READ | WK_MEM_PROBE, &probe, &mf) != 0)
        return mem_failed(&mf, addr, fa);
    if (!(room = fetch_room(x, depth, len))) {
        *fa = addr;
        return WK_GPU_FAULT_MEMORY_LIMIT;
    }
    if (x->mops->load(x->mem, addr, room, len, &mf) != 0)
        return mem_failed(&mf, addr, fa);
    *out = room;
    return WK_GPU_FAULT_NONE;
}

static enum wk_gpu_fault_reason op_call(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    uint64_t addr = c->operands[0], len = c->operands[1];
    const uint8_t *buf = NULL;
    if (x->depth + 1 > x->max_depth)
        return WK_GPU_FAULT_CALL_DEPTH;
    if (len == 0)
        return WK_GPU_FAULT_NONE;
    if (spend_bytes(x, len) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (!operand_dma_length(x->desc, len, 1, &x->detail)) /* operand 1: `bytes` */
        return WK_GPU_FAULT_BAD_OPERAND;
    enum wk_gpu_fault_reason why = fetch(x, addr, len, x->depth + 1, &buf, fa);
    if (why != WK_GPU_FAULT_NONE)
        return why;
    if (x->gpu)
        x->gpu->counters.calls++;
    x->depth++;
    wk_status st = run(x, buf, len, addr);
    x->depth--;
    if (st != WK_OK)
        x->nested_fault = 1;
    return WK_GPU_FAULT_NONE;
}

/* Whether [addr, addr+len) lies in one region, from the layout: what a
 * BLIT's extents are checked against (the rows, not the gaps between them,
 * must be mapped). *aperture: whether that region is an aperture, whose
 * rows must then be checked one by one. */
static enum wk_gpu_fault_reason extent_check(struct exec *x, uint64_t addr, uint64_t len, int *aperture,
                                             uint64_t *fa)
{
    struct wk_gpu_location loc;
    if (x->virt) {
        /* Virtual pages map anywhere: every row is checked by itself, as
         * an aperture's are. */
        *aperture = 1;
        if (len > UINT64_MAX - addr) {
            *fa = addr;
            return WK_GPU_FAULT_BAD_ADDRESS;
        }
        return WK_GPU_FAULT_NONE;
    }
    if (x->mops->locate(x->mem, addr, &loc) != 0 || len > UINT64_MAX - addr) {
        *fa = addr;
        return WK_GPU_FAULT_BAD_ADDRESS;
    }
    const struct wk_gpu_segment_desc *seg = desc_segment(x->desc, loc.segment_id);
    uint64_t size = seg ? seg->size : x->desc->sysmem_pages << WK_GPU_PAGE_SHIFT;
    *aperture = seg && seg->kind == WK_GPU_SEGMENT_APERTURE;
    if (len > size - loc.offset) {
        *fa = addr - loc.offset + size;
        return WK_GPU_FAULT_CROSSES_SEGMENT;
    }
    return WK_GPU_FAULT_NONE;
}

/* A BLIT row reachable, for the check of every row before the first is
 * copied: a probe, which counts nothing (the copy counts). */
static enum wk_gpu_fault_reason row_check(struct exec *x, uint64_t addr, uint64_t len, uint64_t *fa)
{
    struct wk_mem_fault mf;
    struct wk_mem_cursor c;
    if (x->mops->begin(x->mem, addr, len, WK_MEM_READ | WK_MEM_PROBE, &c, &mf) != 0)
        return mem_failed(&mf, addr, fa);
    return WK_GPU_FAULT_NONE;
}

/* Whether a BLIT side's extent as opcode_extents computes it, (h - 1) *
 * pitch + w bytes, is its true length (no wrap): then the region that
 * holds the extent holds every row of the side. */
static int extent_exact(uint64_t w, uint64_t h, uint64_t pitch)
{
    uint64_t span;
    return !__builtin_mul_overflow(h - 1, pitch, &span) && !__builtin_add_overflow(span, w, &span);
}

/* A BLIT on the model's own memory: what the table path below does, with
 * the table's own code for each row's move (mem_ops.c, mem_copy_in: the
 * same limit, banks, move and count) but the regions looked up once per
 * side, from the extent check, and every row checked where it is, as the
 * GPU reads it (a stale TLB line counts here, where the table path's
 * copy counts it): a BLIT of many short rows runs on every fuzz input,
 * and four region checks a row doubled its cost. */
static enum wk_gpu_fault_reason blit_own(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    struct wk_gpu *gpu = x->gpu;
    uint64_t src = c->operands[0], dst = c->operands[1], w = c->operands[2], h = c->operands[3];
    uint64_t sp = c->operands[4], dp = c->operands[5];
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    struct wk_mem_fault mf;
    struct extent ext[2];
    struct region *side[2] = { NULL, NULL };
    uint32_t n = opcode_extents(c, ext); /* 2: source, then destination */
    for (uint32_t i = 0; i < n; i++) /* each side lies in one region */
        if (!(side[i] = space_check_region(gpu, ext[i].addr, ext[i].len, &why, fa)))
            return why;
    struct region *sr = extent_exact(w, h, sp) ? side[0] : NULL;
    struct region *dr = extent_exact(w, h, dp) ? side[1] : NULL;
    int check_src = !sr || sr->kind == WK_GPU_SEGMENT_APERTURE, check_dst = !dr || dr->kind == WK_GPU_SEGMENT_APERTURE;
    for (uint64_t row = 0; row < h && (check_src || check_dst); row++) /* every row mapped, before any effect */
        if ((check_src && !space_check(gpu, src + row * sp, w, 1, &why, fa)) ||
            (check_dst && !space_check(gpu, dst + row * dp, w, 1, &why, fa)))
            return why;
    for (uint64_t row = 0; row < h; row++) {
        uint64_t s = src + row * sp, d = dst + row * dp;
        if (mem_copy_in(gpu, dr ? dr : space_find(gpu, d), d, sr ? sr : space_find(gpu, s), s, w, &mf) != 0)
            return mem_failed(&mf, d, fa);
    }
    return why;
}

/* Up to 16,384 rows, each side of each row checked before the first row
 * is copied, then copied row by row through the table. A side whose exact
 * extent lies in a region without pages to map (memory, system memory) has
 * every row reachable already: its rows are not probed one by one. */
static enum wk_gpu_fault_reason op_blit(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    uint64_t src = c->operands[0], dst = c->operands[1], w = c->operands[2], h = c->operands[3];
    uint64_t sp = c->operands[4], dp = c->operands[5];
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    struct wk_mem_fault mf;
    if (w == 0 || h == 0)
        return why;
    if (spend_units(x, h) != 0 || spend_bytes(x, w * h) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (x->gpu && !x->virt) /* blit_own reads the model's regions: physical addresses only */
        return blit_own(x, c, fa);
    struct extent ext[2];
    int aperture[2] = { 1, 1 };
    uint32_t n = opcode_extents(c, ext); /* 2: source, then destination */
    for (uint32_t i = 0; i < n; i++) /* each side lies in one region */
        if ((why = extent_check(x, ext[i].addr, ext[i].len, &aperture[i], fa)) != WK_GPU_FAULT_NONE)
            return why;
    int probe_src = aperture[0] || !extent_exact(w, h, sp), probe_dst = aperture[1] || !extent_exact(w, h, dp);
    for (uint64_t row = 0; row < h && (probe_src || probe_dst); row++) /* every row mapped, before any effect */
        if ((probe_src && (why = row_check(x, src + row * sp, w, fa)) != WK_GPU_FAULT_NONE) ||
            (probe_dst && (why = row_check(x, dst + row * dp, w, fa)) != WK_GPU_FAULT_NONE))
            return why;
    for (uint64_t row = 0; row < h; row++)
        if (x->mops->copy(x->mem, dst + row * dp, src + row * sp, w, &mf) != 0)
            return mem_failed(&mf, dst + row * dp, fa);
    return why;
}

static handler_fn *const handlers[WK_GPU_OP_COUNT] = {
    [WK_GPU_OP_NOP] = op_nop,
    [WK_GPU_OP_COPY] = op_copy,
    [WK_GPU_OP_FILL] = op_fill,
    [WK_GPU_OP_WRITE32] = op_write32,
    [WK_GPU_OP_WRITE64] = op_write64,
    [WK_GPU_OP_FENCE] = op_fence,
    [WK_GPU_OP_GART_MAP] = op_gart_map,
    [WK_GPU_OP_GART_UNMAP] = op_gart_unmap,
    [WK_GPU_OP_TLB_FLUSH] = op_tlb_flush,
    [WK_GPU_OP_CALL] = op_call,
    [WK_GPU_OP_BLIT] = op_blit,
    [WK_GPU_OP_VA_FLUSH] = op_va_flush,
};

/*
 * The fault that ends this exec. At most one stop per exec: a CALL target's
 * fault ends its callers without another (nested_fault). At depth 0 it is
 * recorded at once; inside a CALL it is held until the run of depth 0 adds
 * the offset of the CALL that led there (commit_held), the place in the
 * submitted buffer a reader looks for.
 */
__attribute__((noinline)) static wk_status hold(struct exec *x, enum wk_gpu_fault_reason why, uint32_t opcode,
                                                uint64_t offset, uint64_t buffer_addr, uint64_t fault_addr)
{
    fault_fill(&x->held, why, opcode, offset, buffer_addr, x->depth, fault_addr, &x->detail);
    return WK_E_GPU_FAULT;
}

static wk_status stop(struct exec *x, enum wk_gpu_fault_reason why, uint32_t opcode,
                      uint64_t offset, uint64_t buffer_addr, uint64_t fault_addr)
{
    if (x->depth || !x->gpu) /* the kit's processor: its caller reads `held` */
        return hold(x, why, opcode, offset, buffer_addr, fault_addr);
    fault_record(x->gpu, why, opcode, offset, buffer_addr, 0, fault_addr, &x->detail);
    if (x->out)
        fault_fill(x->out, why, opcode, offset, buffer_addr, 0, fault_addr, &x->detail);
    return WK_E_GPU_FAULT;
}

/* The held fault of a CALL at `top_offset` of the submitted buffer. */
static wk_status commit_held(struct exec *x, uint64_t top_offset)
{
    x->held.top_offset = top_offset;
    if (!x->gpu)
        return WK_E_GPU_FAULT;
    fault_record_copy(x->gpu, &x->held);
    if (x->out)
        *x->out = x->held;
    return WK_E_GPU_FAULT;
}

/* Whole zero 32-bit words at p (at most len bytes): NOP commands. */
static uint64_t zero_words(const uint8_t *p, uint64_t len)
{
    uint64_t n = 0, w, block[4];
    while (n + 32 <= len) { /* 32 bytes a step: a CALL into zeroes can ask for 16 KiB of NOPs */
        memcpy(block, p + n, sizeof(block));
        if (block[0] | block[1] | block[2] | block[3])
            break;
        n += 32;
    }
    while (n + 8 <= len) {
        memcpy(&w, p + n, 8);
        if (w)
            break;
        n += 8;
    }
    while (n + 4 <= len && le32(p + n) == 0)
        n += 4;
    return n / 4;
}

/*
 * A run of NOPs at buf+off, executed at once: each is a command that spends
 * one unit, exactly as the loop below would run them one by one, and the one
 * that finds the budget empty faults at its own offset. Zero-filled memory is
 * all NOPs, and a CALL into it can ask for thousands: without this, decoding
 * and dispatching them one at a time was most of a fuzz input's time.
 * Returns the NOPs run; sets *st when the budget stopped them.
 */
static uint64_t run_nops(struct exec *x, const uint8_t *buf, uint64_t len, uint64_t off,
                         uint64_t buffer_addr, wk_status *st)
{
    uint64_t n = zero_words(buf + off, len - off);
    uint64_t k = spend_up_to(x, n);
    if (x->gpu)
        x->gpu->counters.commands += k;
    if (k < n)
        *st = stop(x, WK_GPU_FAULT_BUDGET, WK_GPU_OP_NOP, off + 4 * k, buffer_addr, 0);
    return k;
}

static wk_status run(struct exec *x, const uint8_t *buf, uint64_t len, uint64_t buffer_addr)
{
    const struct opcode_view *views = opcode_views();
    for (uint64_t off = 0; off < len;) {
        struct wk_gpu_cmd cmd;
        uint64_t fa = 0;
        if (len - off >= 4 && le32(buf + off) == 0) {
            wk_status st = WK_OK;
            off += 4 * run_nops(x, buf, len, off, buffer_addr, &st);
            if (st != WK_OK)
                return st;
            continue;
        }
        wk_status st = decode_cmd(views, buf, len, off, &cmd);
        if (st == WK_E_BAD_OPERAND)
            decode_explain(views, buf, len, off, &x->detail);
        if (st != WK_OK)
            return stop(x, decode_fault_reason(st), buf[off], off, buffer_addr, 0);
        if (spend_units(x, 1) != 0)
            return stop(x, WK_GPU_FAULT_BUDGET, buf[off], off, buffer_addr, 0);
        enum wk_gpu_fault_reason why = handlers[cmd.opcode](x, &cmd, &fa);
        if (x->nested_fault)
            return x->depth ? WK_E_GPU_FAULT : commit_held(x, off);
        if (why != WK_GPU_FAULT_NONE)
            return stop(x, why, buf[off], off, buffer_addr, fa);
        if (x->gpu)
            x->gpu->counters.commands++;
        off += cmd.length;
    }
    return WK_OK;
}

/* Field by field: `held` and the detail's values are written before they
 * are read (whatever returns BAD_OPERAND fills the detail), and clearing
 * them on every exec would be a cost for the rare fault that uses them. */
static void begin(struct exec *x, struct wk_gpu *gpu, struct wk_gpu_fault *fault)
{
    x->gpu = gpu;
    x->mem = &gpu->mem;
    x->mops = &mem_ops_table;
    x->desc = &gpu->desc;
    x->wx = NULL;
    x->out = fault;
    x->units_left = gpu->desc.max_commands;
    x->bytes_left = gpu->desc.max_bytes_moved;
    x->depth = 0;
    x->max_depth = gpu->desc.max_call_depth;
    x->virt = 0;
    x->nested_fault = 0;
    x->detail.rule = WK_GPU_RULE_NONE;
    x->fetch = gpu->fetch;
    x->fetch_cap = gpu->fetch_cap;
    gpu->counters.execs++;
}

/* The fault record of a clean run; stop() wrote the others. */
static wk_status finish(wk_status st, struct wk_gpu_fault *fault)
{
    if (fault && st == WK_OK)
        fault_fill(fault, WK_GPU_FAULT_NONE, UINT32_MAX, 0, 0, 0, 0, NULL);
    return st;
}

wk_status wk_gpu_exec_bytes(struct wk_gpu *gpu, const uint8_t *buf, uint64_t len,
                            uint64_t buffer_addr, struct wk_gpu_fault *fault)
{
    struct exec x;
    begin(&x, gpu, fault);
    return finish(run(&x, buf, len, buffer_addr), fault);
}

/* The submitted buffer [addr, addr+len) fetched through x's memory and
 * run. Inlined into both callers, so the physical one, which every fuzz
 * input takes, is the code it was before virtual runs shared it. */
__attribute__((always_inline)) static inline wk_status fetch_and_run(struct exec *x, uint64_t addr, uint64_t len,
                                                                     struct wk_gpu_fault *fault)
{
    const uint8_t *buf = NULL;
    uint64_t fa = 0;
    if (len == 0)
        return finish(WK_OK, fault);
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_BAD_OPERAND;
    if (operand_dma_length(x->desc, len, WK_GPU_DETAIL_NO_OPERAND, &x->detail))
        why = fetch(x, addr, len, 0, &buf, &fa);
    if (why != WK_GPU_FAULT_NONE)
        return finish(stop(x, why, UINT32_MAX, 0, addr, fa), fault);
    return finish(run(x, buf, len, addr), fault);
}

wk_status wk_gpu_exec(struct wk_gpu *gpu, uint64_t addr, uint64_t len, struct wk_gpu_fault *fault)
{
    struct exec x;
    begin(&x, gpu, fault);
    return fetch_and_run(&x, addr, len, fault);
}

/* The model's own run (its budget, counters, fences, VA_FLUSH and rich
 * fault records) on the space's memory instead of the model's: the same
 * handlers, which reach memory through the table only, but for BLIT's
 * shortcut over the model's regions, which `virt` turns off. */
wk_status exec_virtual(struct wk_gpu *gpu, struct wk_va_space *s, uint64_t addr, uint64_t len,
                       struct wk_gpu_fault *fault)
{
    struct exec x;
    begin(&x, gpu, fault);
    x.mem = wk_va_mem(s);
    x.mops = wk_va_mem_ops();
    x.virt = 1;
    return fetch_and_run(&x, addr, len, fault);
}

/* ------------------------------------------------------------------ */
/* The kit's command set as a processor (processor.h)                   */
/* ------------------------------------------------------------------ */

/* The class of a model fault reason; the reason itself is the code. */
static uint32_t class_of(enum wk_gpu_fault_reason why)
{
    switch (why) {
    case WK_GPU_FAULT_UNKNOWN_OPCODE:
    case WK_GPU_FAULT_TRUNCATED: return WK_FAULT_DECODE;
    case WK_GPU_FAULT_BUDGET: return WK_FAULT_BUDGET;
    case WK_GPU_FAULT_CALL_DEPTH: return WK_FAULT_STATE;
    case WK_GPU_FAULT_BAD_OPERAND: return WK_FAULT_OPERAND;
    default: return WK_FAULT_MEMORY;
    }
}

/* The held record as the processor's fault: offsets in the buffer (the run
 * was of bytes[start, end)), the depth-0 command's at depth > 0. */
static void to_exec_fault(const struct wk_gpu_fault *h, uint64_t start, struct wk_exec_fault *f)
{
    memset(f, 0, sizeof(*f));
    f->cls = class_of(h->reason);
    f->code = h->reason;
    f->depth = h->depth;
    f->offset = start + h->top_offset;
    f->opcode = h->opcode;
    if (f->cls == WK_FAULT_MEMORY) {
        f->mem_reason = h->reason;
        f->fault_addr = h->fault_addr;
    }
}

/* Runs x's range with the memory, budget and fences x offers: the same
 * handlers as wk_gpu_exec, only the model's own counters of commands and
 * calls are not reached (they are no memory system's). CALL targets are
 * fetched into buffers of this run's own. */
static int kit_exec(void *self, const struct wk_exec *wx, struct wk_exec_fault *fault)
{
    uint8_t *fetch[WK_GPU_MAX_CALL_DEPTH + 1] = { NULL };
    uint64_t fetch_cap[WK_GPU_MAX_CALL_DEPTH + 1] = { 0 };
    struct exec x;
    (void)self;
    memset(&x, 0, sizeof(x));
    x.mem = wx->mem;
    x.mops = wx->mem_ops;
    x.desc = wx->mem_ops->layout(wx->mem);
    x.wx = wx;
    x.virt = (wx->flags & WK_EXEC_VIRTUAL) != 0;
    x.max_depth = wx->max_depth < WK_GPU_MAX_CALL_DEPTH ? wx->max_depth : WK_GPU_MAX_CALL_DEPTH;
    x.fetch = fetch;
    x.fetch_cap = fetch_cap;
    wk_status st = run(&x, wx->bytes + wx->start, wx->end - wx->start, wx->buffer_addr + wx->start);
    for (uint32_t i = 0; i <= WK_GPU_MAX_CALL_DEPTH; i++)
        free(fetch[i]);
    if (st == WK_OK)
        return 0;
    to_exec_fault(&x.held, wx->start, fault);
    return 1;
}

/* The kit's disassembler's words for a fault. */
static void kit_fault_text(void *self, const struct wk_exec_fault *f, char *buf, size_t size)
{
    struct wk_gpu_fault g;
    (void)self;
    fault_fill(&g, f->code < WK_GPU_FAULT_REASON_COUNT ? (enum wk_gpu_fault_reason)f->code : WK_GPU_FAULT_NONE,
               f->opcode, f->offset, 0, f->depth, f->fault_addr, &fault_no_detail);
    g.flags = WK_GPU_FAULT_STATIC;
    wk_gpu_fault_format(&g, buf, size);
}

static const struct wk_processor_ops kit_processor = {
    .size = sizeof(struct wk_processor_ops),
    .exec = kit_exec,
    .fault_text = kit_fault_text,
};

const struct wk_processor_ops *wk_gpu_kit_processor(void)
{
    return &kit_processor;
}
