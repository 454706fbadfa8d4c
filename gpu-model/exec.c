/* SPDX-License-Identifier: MIT */
/*
 * exec.c - the command processor.
 *
 * A buffer is decoded command by command from a snapshot; each command is
 * one handler below, which checks its whole access before any effect and
 * returns the fault reason (NONE to go on). Termination on any input is by
 * construction: there are no jumps, CALL nests at most max_call_depth
 * levels, and every command, BLIT row and GART list entry spends one unit of
 * a per-exec budget, every byte copied, filled or fetched one byte of another.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct exec {
    struct wk_gpu *gpu;
    uint64_t units_left;
    uint64_t bytes_left;
    uint32_t depth;
    int nested_fault;            /* a CALL target faulted: its fault is in `held` */
    struct wk_gpu_fault *out;    /* the caller's record of the fault that stops it (or NULL) */
    struct wk_gpu_fault_detail detail; /* set by whatever returns BAD_OPERAND */
    struct wk_gpu_fault held;    /* a fault inside a CALL, until its depth-0 CALL is known */
};

typedef enum wk_gpu_fault_reason handler_fn(struct exec *x, const struct wk_gpu_cmd *c,
                                            uint64_t *fault_addr);

static wk_status run(struct exec *x, const uint8_t *buf, uint64_t len, uint64_t buffer_addr);

static int spend_bytes(struct exec *x, uint64_t n)
{
    if (n > x->bytes_left)
        return -1;
    x->bytes_left -= n;
    return 0;
}

static int spend_units(struct exec *x, uint64_t n)
{
    if (n > x->units_left)
        return -1;
    x->units_left -= n;
    return 0;
}

/* The GPU view of an access: through the TLB. */
static struct region *gpu_access(struct exec *x, uint64_t addr, uint64_t len,
                                 enum wk_gpu_fault_reason *why, uint64_t *fault_addr)
{
    return space_check(x->gpu, addr, len, 1, why, fault_addr);
}

static enum wk_gpu_fault_reason op_nop(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    (void)x, (void)c, (void)fa;
    return WK_GPU_FAULT_NONE;
}

/* A failed access of the memory table as the command's fault: the reason
 * and the address that failed, but for MEMORY_LIMIT, which names the
 * command's own address (the access as a whole did not fit). */
static enum wk_gpu_fault_reason mem_failed(const struct wk_mem_fault *mf, uint64_t addr, uint64_t *fa)
{
    *fa = mf->reason == WK_GPU_FAULT_MEMORY_LIMIT ? addr : mf->addr;
    return (enum wk_gpu_fault_reason)mf->reason;
}

static enum wk_gpu_fault_reason op_copy(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    uint64_t src = c->operands[0], dst = c->operands[1], n = c->operands[2];
    struct wk_mem_fault mf;
    if (n == 0)
        return WK_GPU_FAULT_NONE;
    if (spend_bytes(x, n) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (mem_ops_table.copy(&x->gpu->mem, dst, src, n, &mf) != 0)
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
    if (mem_ops_table.fill(&x->gpu->mem, dst, n, pattern, 4, &mf) != 0)
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
    if (mem_ops_table.store(&x->gpu->mem, addr, bytes, size, &mf) != 0)
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
    fence_signal(x->gpu, c->operands[0], c->operands[1]);
    return why;
}

/* The operand checks are the validator's (operands.c); the budget is spent
 * between them, as before, so that a long list is paid for before its
 * frames are read. */
static enum wk_gpu_fault_reason op_gart_map(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    struct region *r = operand_gart_target(x->gpu, c, &x->detail);
    if (!r)
        return WK_GPU_FAULT_BAD_OPERAND;
    if (spend_units(x, c->list_count) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (!operand_gart_frames(x->gpu, c, &x->detail))
        return WK_GPU_FAULT_BAD_OPERAND;
    if (gart_map(x->gpu, r, c->operands[1], c->list_count, c->list) != 0) {
        *fa = r->base + (c->operands[1] << WK_GPU_PAGE_SHIFT);
        return WK_GPU_FAULT_MEMORY_LIMIT;
    }
    return WK_GPU_FAULT_NONE;
}

static enum wk_gpu_fault_reason op_gart_unmap(struct exec *x, const struct wk_gpu_cmd *c,
                                              uint64_t *fa)
{
    struct region *r = operand_gart_target(x->gpu, c, &x->detail);
    if (!r || !operand_gart_frames(x->gpu, c, &x->detail))
        return WK_GPU_FAULT_BAD_OPERAND;
    if (spend_units(x, c->operands[2]) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (gart_unmap(x->gpu, r, c->operands[1], c->operands[2], c->operands[3]) != 0) {
        *fa = r->base + (c->operands[1] << WK_GPU_PAGE_SHIFT);
        return WK_GPU_FAULT_MEMORY_LIMIT;
    }
    return WK_GPU_FAULT_NONE;
}

static enum wk_gpu_fault_reason op_tlb_flush(struct exec *x, const struct wk_gpu_cmd *c,
                                             uint64_t *fa)
{
    (void)fa;
    struct region *r = operand_gart_target(x->gpu, c, &x->detail);
    if (!r)
        return WK_GPU_FAULT_BAD_OPERAND;
    gart_flush(x->gpu, r);
    return WK_GPU_FAULT_NONE;
}

/* The fetch buffer of `depth`, grown to len bytes; NULL when out of host
 * memory. Apart from fetch so that fuzzing builds can leave it without
 * coverage (fuzz/coverage-ignorelist.txt): whether it grows depends on
 * earlier inputs. Never inlined: inlined into fetch, its branch would be
 * fetch's and counted (bench/fuzz_stability found it so). */
__attribute__((noinline)) static uint8_t *fetch_room(struct wk_gpu *gpu, uint32_t depth, uint64_t len)
{
    if (gpu->fetch_cap[depth] < len) {
        uint8_t *b = realloc(gpu->fetch[depth], len);
        if (!b)
            return NULL;
        gpu->fetch[depth] = b;
        gpu->fetch_cap[depth] = len;
    }
    return gpu->fetch[depth];
}

/* A snapshot of [addr, addr+len) in the fetch buffer of `depth` (whose
 * length the caller checked against max_dma_length). */
static enum wk_gpu_fault_reason fetch(struct exec *x, uint64_t addr, uint64_t len, uint32_t depth,
                                      const uint8_t **out, uint64_t *fa)
{
    struct wk_gpu *gpu = x->gpu;
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    struct region *r = gpu_access(x, addr, len, &why, fa);
    if (!r)
        return why;
    uint8_t *room = fetch_room(gpu, depth, len);
    if (!room) {
        *fa = addr;
        return WK_GPU_FAULT_MEMORY_LIMIT;
    }
    space_load(gpu, r, addr - r->base, room, len, 1);
    *out = room;
    return why;
}

static enum wk_gpu_fault_reason op_call(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    uint64_t addr = c->operands[0], len = c->operands[1];
    const uint8_t *buf = NULL;
    if (x->depth + 1 > x->gpu->desc.max_call_depth)
        return WK_GPU_FAULT_CALL_DEPTH;
    if (len == 0)
        return WK_GPU_FAULT_NONE;
    if (spend_bytes(x, len) != 0)
        return WK_GPU_FAULT_BUDGET;
    if (!operand_dma_length(x->gpu, len, 1, &x->detail)) /* operand 1: `bytes` */
        return WK_GPU_FAULT_BAD_OPERAND;
    enum wk_gpu_fault_reason why = fetch(x, addr, len, x->depth + 1, &buf, fa);
    if (why != WK_GPU_FAULT_NONE)
        return why;
    x->gpu->counters.calls++;
    x->depth++;
    wk_status st = run(x, buf, len, addr);
    x->depth--;
    if (st != WK_OK)
        x->nested_fault = 1;
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

/* One BLIT row reachable: as gpu_access, without the region lookup when
 * the side's region is known. */
static struct region *row_access(struct exec *x, struct region *known, uint64_t addr, uint64_t len,
                                 enum wk_gpu_fault_reason *why, uint64_t *fa)
{
    return known ? space_check_in(x->gpu, known, addr, len, 1, why, fa) : gpu_access(x, addr, len, why, fa);
}

/* Up to 16,384 rows: the regions are looked up once per side, not twice a
 * row (a fuzzer's BLIT of many short rows cost milliseconds). */
static enum wk_gpu_fault_reason op_blit(struct exec *x, const struct wk_gpu_cmd *c, uint64_t *fa)
{
    uint64_t src = c->operands[0], dst = c->operands[1], w = c->operands[2], h = c->operands[3];
    uint64_t sp = c->operands[4], dp = c->operands[5];
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    if (w == 0 || h == 0)
        return why;
    if (spend_units(x, h) != 0 || spend_bytes(x, w * h) != 0)
        return WK_GPU_FAULT_BUDGET;
    struct extent ext[2];
    struct region *side[2] = { NULL, NULL };
    uint32_t n = opcode_extents(c, ext); /* 2: source, then destination */
    for (uint32_t i = 0; i < n; i++) /* each side lies in one region */
        if (!(side[i] = space_check_region(x->gpu, ext[i].addr, ext[i].len, &why, fa)))
            return why;
    struct region *src_region = extent_exact(w, h, sp) ? side[0] : NULL;
    struct region *dst_region = extent_exact(w, h, dp) ? side[1] : NULL;
    for (uint64_t row = 0; row < h; row++) { /* and every row is mapped, before any effect */
        if (!row_access(x, src_region, src + row * sp, w, &why, fa) ||
            !row_access(x, dst_region, dst + row * dp, w, &why, fa))
            return why;
    }
    for (uint64_t row = 0; row < h; row++) {
        uint64_t s = src + row * sp, d = dst + row * dp;
        struct region *sr = src_region ? src_region : space_find(x->gpu, s);
        struct region *dr = dst_region ? dst_region : space_find(x->gpu, d);
        space_count_banks(x->gpu, sr, s - sr->base, w);
        space_count_banks(x->gpu, dr, d - dr->base, w);
        if (space_copy(x->gpu, dr, d - dr->base, sr, s - sr->base, w, 1) != 0) {
            *fa = d;
            return WK_GPU_FAULT_MEMORY_LIMIT;
        }
    }
    x->gpu->counters.bytes_copied += w * h;
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
    if (x->depth)
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
    uint64_t k = n < x->units_left ? n : x->units_left;
    x->units_left -= k;
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
    x->out = fault;
    x->units_left = gpu->desc.max_commands;
    x->bytes_left = gpu->desc.max_bytes_moved;
    x->depth = 0;
    x->nested_fault = 0;
    x->detail.rule = WK_GPU_RULE_NONE;
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

wk_status wk_gpu_exec(struct wk_gpu *gpu, uint64_t addr, uint64_t len, struct wk_gpu_fault *fault)
{
    struct exec x;
    const uint8_t *buf = NULL;
    uint64_t fa = 0;
    begin(&x, gpu, fault);
    if (len == 0)
        return finish(WK_OK, fault);
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_BAD_OPERAND;
    if (operand_dma_length(gpu, len, WK_GPU_DETAIL_NO_OPERAND, &x.detail))
        why = fetch(&x, addr, len, 0, &buf, &fa);
    if (why != WK_GPU_FAULT_NONE)
        return finish(stop(&x, why, UINT32_MAX, 0, addr, fa), fault);
    return finish(run(&x, buf, len, addr), fault);
}
