/* SPDX-License-Identifier: MIT */
/*
 * prog_yaml.c - a step program back to a YAML spec case (docs/spec-format.md):
 * what `wddmkit promote` writes to specs/regressions/, so that a fuzzer's
 * finding becomes a reviewable, hand-editable regression case.
 *
 * The writer is the loader's inverse. For every program the loader can
 * produce, loading what it writes gives the same program (encoded with
 * wk_prog_encode, byte for byte; tests/test_fuzztools.c checks every spec
 * of the repository). Objects are named by creation index, the loader's
 * default names (device0, context0, alloc0...), counting the create steps
 * expected to succeed as the loader and the interpreter do.
 *
 * Programs decoded from fuzz inputs may hold what YAML cannot say. Two
 * cases are rewritten into an equivalent form: a render whose records the
 * `commands:` form cannot express (a list index past the list, a size of
 * 0...) is written as the `raw:` command buffer the interpreter would build,
 * and fields a step ignores are left out. Everything else (a reference to an
 * object no step creates, a value outside the loader's range) is a problem
 * that wk_prog_yaml_check reports by step, and wk_prog_write_yaml refuses to
 * write anything for such a program.
 *
 * The word tables below mirror the loader's (spec_steps.c, spec_checks.c);
 * the round-trip test keeps them in step.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"
#include "spec/spec_internal.h"

enum { OBJ_DEVICE, OBJ_CONTEXT, OBJ_ALLOC, OBJ_KINDS };

/* The writer's state: `out` NULL is a dry run that only finds problems. */
struct yw {
    const struct wk_prog *p;
    FILE *out;
    uint32_t created[OBJ_KINDS];
    uint32_t problems;
    int32_t first;               /* step of the first problem; -1: the case itself */
    char *why;
    size_t why_size;
    int32_t step;                /* the step being written; -1: case keys */
    char line[2048];             /* one flow mapping being built */
    size_t len;
    uint32_t items;
};

static void problem(struct yw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void problem(struct yw *w, const char *fmt, ...)
{
    if (w->problems++ == 0) {
        w->first = w->step;
        if (w->why && w->why_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(w->why, w->why_size, fmt, ap);
            va_end(ap);
        }
    }
}

static void out(struct yw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out(struct yw *w, const char *fmt, ...)
{
    if (!w->out)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(w->out, fmt, ap);
    va_end(ap);
}

/* One "key: value" item of the flow mapping under construction. */
static void kv(struct yw *w, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void kv(struct yw *w, const char *key, const char *fmt, ...)
{
    if (w->len < sizeof(w->line))
        w->len += (size_t)snprintf(w->line + w->len, sizeof(w->line) - w->len, "%s%s: ", w->items ? ", " : "", key);
    if (w->len < sizeof(w->line)) {
        va_list ap;
        va_start(ap, fmt);
        w->len += (size_t)vsnprintf(w->line + w->len, sizeof(w->line) - w->len, fmt, ap);
        va_end(ap);
    }
    w->items++;
}

static void flow_begin(struct yw *w)
{
    w->len = 0;
    w->items = 0;
    w->line[0] = '\0';
}

/* Ends a step written as one line: "- kw: {items}" or a bare "- kw". */
static void flow_step(struct yw *w, const char *kw)
{
    if (w->len >= sizeof(w->line))
        problem(w, "step %d (%s): its arguments do not fit one line", w->step, kw);
    else if (w->items)
        out(w, "      - %s: {%s}\n", kw, w->line);
    else
        out(w, "      - %s\n", kw);
}

/* ------------------------------------------------------------------ */
/* Words and values                                                     */
/* ------------------------------------------------------------------ */

static const char *const kind_prefix[OBJ_KINDS] = { "device", "context", "alloc" };
static const char *const kind_word[OBJ_KINDS] = { "device", "context", "allocation" };

static const char *const allocation_flags[] = {
    "cpu_visible", "permanent_sys_mem", "cached", "protected", "existing_sys_mem", "existing_kernel_sys_mem",
    "from_end_of_segment", "swizzled", "overlay", "capture", "use_alternate_va", "synchronous_paging",
    "link_mirrored", "link_instanced", "history_buffer", "accessed_physically",
    "explicit_residency_notification", "hardware_protected", "cpu_visible_on_demand",
};
#define ALLOCATION_FLAG_COUNT (sizeof(allocation_flags) / sizeof(allocation_flags[0]))

static const char *const context_fields[5] = { "dma_buffer_size", "allocation_list_size",
                                               "patch_location_list_size", "dma_buffer_segment_set",
                                               "dma_buffer_private_data_size" };

/* `status:` words: the enumerator in lower case without WK_ / WK_E_. */
static const char *status_word(wk_status st, char *buf, size_t size)
{
    const char *n = wk_status_name(st);
    n += strncmp(n, "WK_E_", 5) == 0 ? 5 : 3;
    size_t i = 0;
    for (; n[i] && i + 1 < size; i++)
        buf[i] = (char)(n[i] >= 'A' && n[i] <= 'Z' ? n[i] - 'A' + 'a' : n[i]);
    buf[i] = '\0';
    return buf;
}

static const char *size_text(uint64_t v, char *buf)
{
    return spec_format_size(v, buf, 32);
}

/* A reference by creation index: the loader's default name, which must
 * have been created by an earlier step. */
static const char *ref(struct yw *w, int kind, uint32_t index, char *buf)
{
    snprintf(buf, 32, "%s%u", kind_prefix[kind], index);
    if (index >= w->created[kind])
        problem(w, "step %d (%s) names %s %u, which no earlier step creates", w->step,
                wk_step_keyword(w->p->steps[w->step].kind), kind_word[kind], index);
    return buf;
}

static void kv_ref(struct yw *w, const char *key, int kind, uint32_t index)
{
    char name[32];
    kv(w, key, "%s", ref(w, kind, index, name));
}

/* A size key with the loader's bounds [lo, hi]. */
static void kv_size(struct yw *w, const char *key, uint64_t v, uint64_t lo, uint64_t hi)
{
    char buf[32];
    if (v < lo || v > hi)
        problem(w, "step %d: %s %llu is outside %llu..%llu", w->step, key, (unsigned long long)v,
                (unsigned long long)lo, (unsigned long long)hi);
    kv(w, key, "%s", size_text(v, buf));
}

static void kv_hex_bytes(struct yw *w, const char *key, const uint8_t *b, uint32_t n)
{
    char hex[2 * WK_PROG_MAX_BYTES + 1];
    for (uint32_t i = 0; i < n && i < WK_PROG_MAX_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", b[i]);
    hex[2 * (n < WK_PROG_MAX_BYTES ? n : WK_PROG_MAX_BYTES)] = '\0';
    if (n == 0)
        problem(w, "step %d: %s is empty (the loader takes 1..64 bytes)", w->step, key);
    kv(w, key, "\"%s\"", hex);
}

static void kv_segment(struct yw *w, const char *key, uint32_t id)
{
    if (id == 0 || id > w->p->gpu.segment_count)
        problem(w, "step %d: %s %u is not a segment of the adapter (1..%u)", w->step, key, id,
                w->p->gpu.segment_count);
    kv(w, key, "%u", id);
}

static void kv_status(struct yw *w, const struct wk_step *s)
{
    char word[32];
    if (s->expect_status != WK_OK)
        kv(w, "status", "%s", status_word(s->expect_status, word, sizeof(word)));
}

/* A create step expected to succeed takes the next index of its kind. */
static void created(struct yw *w, const struct wk_step *s, int kind)
{
    if (s->expect_status == WK_OK)
        w->created[kind]++;
}

/* ------------------------------------------------------------------ */
/* Devices, contexts, allocations                                       */
/* ------------------------------------------------------------------ */

static void kv_device_flags(struct yw *w, uint32_t flags)
{
    if (flags & ~3u)
        problem(w, "step %d: flags 0x%x (only system and gdi have names)", w->step, flags);
    if (flags & 3u)
        kv(w, "flags", "[%s%s%s]", flags & 1u ? "system" : "", flags == 3u ? ", " : "", flags & 2u ? "gdi" : "");
}

/* `process: N` of a step of a process other than the first. */
static void kv_process(struct yw *w, const struct wk_step *s)
{
    if (s->process >= WK_PROG_MAX_PROCESSES)
        problem(w, "step %d: process %u is outside 1..%u", w->step, s->process + 1, WK_PROG_MAX_PROCESSES);
    if (s->process)
        kv(w, "process", "%u", s->process + 1);
}

/* DXGK_CREATECONTEXTFLAGS bits 0 to 2, as the spec loader names them. */
static void kv_context_flags(struct yw *w, uint32_t flags)
{
    static const char *const names[] = { "system", "gdi", "virtual" };
    uint32_t node = (flags >> WK_PROG_CONTEXT_NODE_SHIFT) & WK_PROG_CONTEXT_NODE_MAX;
    flags &= ~(WK_PROG_CONTEXT_NODE_MAX << WK_PROG_CONTEXT_NODE_SHIFT);
    if (node)
        kv(w, "node", "%u", node);
    if (flags & ~7u)
        problem(w, "step %d: context flags 0x%x (only system, gdi and virtual have names)", w->step, flags);
    char list[64] = "";
    size_t at = 0;
    for (uint32_t b = 0; b < 3; b++)
        if (flags & (1u << b))
            at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", names[b]);
    if (at)
        kv(w, "flags", "[%s]", list);
}

/* preferred: 5 entries of 6 bits (segment id, top_down), no gaps. */
static void kv_preferred(struct yw *w, uint32_t v, uint32_t *first_segment)
{
    char list[256] = "";
    size_t at = 0;
    uint32_t i = 0;
    *first_segment = v & 0x1F;
    for (; i < 5; i++) {
        uint32_t e = (v >> (6 * i)) & 0x3F, id = e & 0x1F;
        if (id == 0)
            break;
        if (id > w->p->gpu.segment_count)
            problem(w, "step %d: preferred[%u] names segment %u, not one of the adapter's", w->step, i, id);
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s{segment: %u%s}", i ? ", " : "", id,
                               e & 0x20 ? ", top_down: true" : "");
    }
    if (i < 5 && (v >> (6 * i)) != 0)
        problem(w, "step %d: preferred 0x%x has bits no `preferred:` list can set", w->step, v);
    if (i)
        kv(w, "preferred", "[%s]", list);
}

/* banks: 4 entries of 8 bits (bank, top_down) for preferred[0]'s segment. */
static void kv_banks(struct yw *w, uint32_t v, uint32_t segment)
{
    if (v == 0)
        return;
    uint32_t count = segment ? w->p->gpu.segments[segment - 1].bank_count : 0;
    if (count < 2)
        problem(w, "step %d: bank hints 0x%x without a banked preferred[0]", w->step, v);
    char list[256] = "";
    size_t at = 0;
    uint32_t i = 0;
    for (; i < 4; i++) {
        uint32_t e = (v >> (8 * i)) & 0xFF, bank = e & 0x7F;
        if (e == 0)
            break;
        if (bank == 0) /* past the segment's count loads: the driver leaves it out (umd.h) */
            problem(w, "step %d: banks[%u] is bank 0", w->step, i);
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s{bank: %u%s}", i ? ", " : "", bank,
                               e & 0x80 ? ", top_down: true" : "");
    }
    if (i < 4 && (v >> (8 * i)) != 0)
        problem(w, "step %d: bank hints 0x%x have a gap", w->step, v);
    kv(w, "banks", "[%s]", list);
}

/* supported / eviction: segment ids as a set (bit id - 1). */
static void kv_segment_set(struct yw *w, const char *key, uint32_t set)
{
    if (set == 0)
        return;
    char list[128] = "";
    size_t at = 0;
    const struct wk_gpu_desc *g = &w->p->gpu;
    for (uint32_t id = 1; id <= 32; id++) {
        if (!(set & (1u << (id - 1))))
            continue;
        if (id > g->segment_count)
            problem(w, "step %d: %s names segment %u, not a segment of the adapter", w->step, key, id);
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%u", at ? ", " : "", id);
    }
    kv(w, key, "[%s]", list);
}

static void kv_allocation_flags(struct yw *w, uint32_t flags)
{
    if (flags == 0)
        return;
    char list[512] = "";
    size_t at = 0;
    for (uint32_t b = 0; b < 32; b++) {
        if (!(flags & (1u << b)))
            continue;
        if (b >= ALLOCATION_FLAG_COUNT) {
            problem(w, "step %d: allocation flag bit %u has no name", w->step, b);
            continue;
        }
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", allocation_flags[b]);
    }
    kv(w, "flags", "[%s]", list);
}

static void write_create_allocation(struct yw *w, const struct wk_step *s)
{
    const struct wk_prog_allocation *a = &s->alloc;
    uint32_t seg0 = 0;
    kv_ref(w, "device", OBJ_DEVICE, a->device);
    if (a->paging_buffers > WK_PROG_MAX_PAGING_BUFFERS)
        problem(w, "step %d: paging_buffers %u (the loader takes 1..%u)", w->step, a->paging_buffers,
                WK_PROG_MAX_PAGING_BUFFERS);
    if (a->paging_buffers)
        kv(w, "size", "{paging_buffers: %u}", a->paging_buffers);
    else
        kv_size(w, "size", a->size, 0, WK_PROG_MAX_ALLOCATION);
    if (a->alignment) {
        if (a->alignment & (a->alignment - 1) || a->alignment > WK_PROG_MAX_ALLOCATION)
            problem(w, "step %d: alignment %u is not a power of two up to 16MiB", w->step, a->alignment);
        kv_size(w, "alignment", a->alignment, 0, UINT32_MAX);
    }
    kv_preferred(w, a->preferred, &seg0);
    kv_banks(w, a->hinted_bank, seg0);
    kv_segment_set(w, "supported", a->supported_set);
    kv_segment_set(w, "eviction", a->eviction_set);
    kv_allocation_flags(w, a->flags);
    if (a->priority)
        kv(w, "priority", "%u", a->priority);
}

/* ------------------------------------------------------------------ */
/* Render                                                               */
/* ------------------------------------------------------------------ */

static int ref_ok(const struct wk_prog_render *r, const struct wk_prog_ref *x)
{
    return x->list_index < r->list_length && x->offset < WK_PROG_MAX_ALLOCATION;
}

static int size_ok(uint32_t v, uint32_t lo)
{
    return v >= lo && v <= WK_PROG_MAX_ALLOCATION;
}

/* Whether a record has a `commands:` form (the loader's checks). */
static int record_ok(const struct wk_prog_render *r, const struct wk_prog_record *c)
{
    switch (c->op) {
    case WK_USER_OP_NOP: return 1;
    case WK_USER_OP_COPY: return ref_ok(r, &c->src) && ref_ok(r, &c->dst) && size_ok(c->size, 0);
    case WK_USER_OP_FILL: return ref_ok(r, &c->dst) && size_ok(c->size, 0);
    case WK_USER_OP_WRITE32: return ref_ok(r, &c->dst);
    case WK_USER_OP_BLIT:
        return ref_ok(r, &c->src) && ref_ok(r, &c->dst) && size_ok(c->width, 0) &&
               c->height <= 65536 && size_ok(c->src_pitch, 0) && size_ok(c->dst_pitch, 0);
    default: return 0;
    }
}

static void write_hex(struct yw *w, const uint8_t *b, uint32_t n)
{
    out(w, "\"");
    for (uint32_t i = 0; i < n; i++)
        out(w, "%s%02x", i && i % 4 == 0 ? " " : "", b[i]);
    out(w, "\"");
}

/* Up to 512 bytes as one hex string (as always); an empty buffer as `[]`;
 * a longer one as 1 KiB hex strings the loader concatenates (each stays
 * inside one scalar). */
static void write_raw(struct yw *w, const uint8_t *b, uint32_t n)
{
    if (n > WK_PROG_MAX_COMMAND) {
        problem(w, "step %d (render): a %u-byte command buffer has no `raw:` form (0..%u bytes)", w->step, n,
                WK_PROG_MAX_COMMAND);
        return;
    }
    if (n == 0) {
        out(w, "          raw: []\n");
        return;
    }
    if (n <= 512) {
        out(w, "          raw: ");
        write_hex(w, b, n);
        out(w, "\n");
        return;
    }
    out(w, "          raw:\n");
    for (uint32_t at = 0; at < n; at += 1024) {
        out(w, "            - ");
        write_hex(w, b + at, n - at < 1024 ? n - at : 1024);
        out(w, "\n");
    }
}

/* One record as a `commands:` entry, after `lead` ("- " or a comment's "#   "). */
static void write_record(struct yw *w, const struct wk_prog_record *c, const char *lead)
{
    static const char *const ops[WK_USER_OP_COUNT] = { "nop", "copy", "fill", "write32", "blit" };
    char a[32], b[32], x[32];
    flow_begin(w);
    if (c->op == WK_USER_OP_COPY || c->op == WK_USER_OP_BLIT)
        kv(w, "src", "[%u, %s]", c->src.list_index, size_text(c->src.offset, a));
    if (c->op != WK_USER_OP_NOP)
        kv(w, "dst", "[%u, %s]", c->dst.list_index, size_text(c->dst.offset, b));
    if (c->op == WK_USER_OP_COPY || c->op == WK_USER_OP_FILL)
        kv(w, "size", "%s", size_text(c->size, x));
    if (c->op == WK_USER_OP_FILL)
        kv(w, "pattern", "0x%x", c->value);
    if (c->op == WK_USER_OP_WRITE32)
        kv(w, "value", "0x%x", c->value);
    if (c->op == WK_USER_OP_BLIT) {
        kv(w, "width", "%s", size_text(c->width, x));
        kv(w, "height", "%u", c->height);
        kv(w, "src_pitch", "%s", size_text(c->src_pitch, a));
        kv(w, "dst_pitch", "%s", size_text(c->dst_pitch, b));
    }
    out(w, "          %s{%s: {%s}}\n", lead, ops[c->op % WK_USER_OP_COUNT], w->line);
}

static void write_list(struct yw *w, const struct wk_prog_render *r)
{
    if (r->list_length == 0)
        return;
    out(w, "          list:\n");
    for (uint32_t i = 0; i < r->list_length && i < WK_PROG_MAX_LIST; i++) {
        char name[32];
        if (r->list_alloc[i] == 0) /* a NULL entry's write flag is never read */
            out(w, "            - {null: true}\n");
        else
            out(w, "            - {allocation: %s%s}\n", ref(w, OBJ_ALLOC, r->list_alloc[i] - 1, name),
                r->list_write[i] ? ", write: true" : "");
    }
}

static void write_commands(struct yw *w, const struct wk_prog_render *r)
{
    if (r->raw) {
        write_raw(w, r->raw_bytes, r->raw_length);
        return;
    }
    int all_ok = 1;
    for (uint32_t i = 0; i < r->record_count; i++)
        all_ok &= record_ok(r, &r->records[i]);
    if (!all_ok) { /* the same bytes reach the driver */
        uint8_t buf[4096]; /* more than 32 records of umd.h take */
        uint32_t n = wk_prog_render_command(r, buf, sizeof(buf));
        if (n == 0) {
            problem(w, "step %d (render): records the loader refuses, and no `raw:` form of them", w->step);
            return;
        }
        out(w, "          # the user command buffer of these records, which `commands:` cannot say:\n");
        for (uint32_t i = 0; i < r->record_count; i++)
            write_record(w, &r->records[i], "#   ");
        write_raw(w, buf, n);
        return;
    }
    if (r->record_count)
        out(w, "          commands:\n");
    for (uint32_t i = 0; i < r->record_count; i++)
        write_record(w, &r->records[i], "  - ");
}

/* One patch-location entry in flow form (a render's user list or a patch
 * step's, both with `reserved`); fields at 0 are left out but
 * allocation_index and patch_offset (the loader requires them). */
static void write_location(struct yw *w, const struct wk_prog_patch_location *l)
{
    flow_begin(w);
    kv(w, "allocation_index", "%u", l->allocation_index);
    kv(w, "patch_offset", "0x%x", l->patch_offset);
    if (l->allocation_offset)
        kv(w, "allocation_offset", "0x%x", l->allocation_offset);
    if (l->slot_id)
        kv(w, "slot_id", "%u", l->slot_id & 0xFFFFFF);
    if (l->split_offset)
        kv(w, "split_offset", "0x%x", l->split_offset);
    if (l->driver_id)
        kv(w, "driver_id", "%u", l->driver_id);
    if (l->reserved)
        kv(w, "reserved", "0x%x", l->reserved & 0xFF);
    out(w, "            - {%s}\n", w->line);
}

static void write_user_patches(struct yw *w, const struct wk_prog_render *r)
{
    if (r->patch_length > WK_PROG_MAX_USER_PATCHES)
        problem(w, "step %d (render): %u user patch locations, more than the loader takes (%u)", w->step,
                r->patch_length, WK_PROG_MAX_USER_PATCHES);
    if (r->patch_length)
        out(w, "          patches:\n");
    for (uint32_t i = 0; i < r->patch_length && i < WK_PROG_MAX_USER_PATCHES; i++) {
        write_location(w, &r->patch[i]);
    }
}

static void write_render(struct yw *w, const struct wk_step *s)
{
    const struct wk_prog_render *r = s->render;
    if (!r) {
        problem(w, "step %d (render) has no payload", w->step);
        return;
    }
    char name[32], word[32];
    out(w, "      - render:\n");
    out(w, "          context: %s\n", ref(w, OBJ_CONTEXT, r->context, name));
    write_list(w, r);
    if (r->no_prepatch_info)
        out(w, "          no_prepatch_info: true\n");
    write_user_patches(w, r);
    write_commands(w, r);
    if (s->expect_status != WK_OK)
        out(w, "          status: %s\n", status_word(s->expect_status, word, sizeof(word)));
}

/* ------------------------------------------------------------------ */
/* Patch                                                                */
/* ------------------------------------------------------------------ */

/* Fields the interpreter ignores are left out: a NULL entry's `resident`,
 * a resident entry's segment and address. */
static void write_patch_list(struct yw *w, const struct wk_prog_patch *g)
{
    if (g->list_length)
        out(w, "          list:\n");
    for (uint32_t i = 0; i < g->list_length && i < WK_PROG_MAX_PATCH_LIST; i++) {
        const struct wk_prog_patch_entry *e = &g->list[i];
        char name[32];
        flow_begin(w);
        if (e->allocation)
            kv(w, "allocation", "%s", ref(w, OBJ_ALLOC, e->allocation - 1, name));
        else
            kv(w, "null", "true");
        if (e->write)
            kv(w, "write", "true");
        if (e->allocation && e->resident) {
            kv(w, "resident", "true");
        } else {
            kv(w, "segment", "%u", e->segment_id & 0x1F);
            kv(w, "address", "0x%llx", (unsigned long long)e->address);
        }
        out(w, "            - {%s}\n", w->line);
    }
}

static void write_patch_locations(struct yw *w, const struct wk_prog_patch *g)
{
    if (g->patch_length)
        out(w, "          patches:\n");
    for (uint32_t i = 0; i < g->patch_length && i < WK_PROG_MAX_PATCHES; i++) {
        write_location(w, &g->patch[i]);
    }
}

/* The DMA content in 1 KiB blocks, zero blocks left out and each trimmed
 * of its zero ends: at most 64 entries, each a scalar the loader takes. */
static void write_dma(struct yw *w, const struct wk_prog_patch *g)
{
    int any = 0;
    for (uint32_t at = 0; at < g->dma_length; at += 1024) {
        uint32_t lo = at, hi = at + 1024 < g->dma_length ? at + 1024 : g->dma_length;
        while (lo < hi && g->dma[lo] == 0)
            lo++;
        while (hi > lo && g->dma[hi - 1] == 0)
            hi--;
        if (lo == hi)
            continue;
        if (!any++)
            out(w, "          dma:\n");
        out(w, "            - {offset: 0x%x, bytes: \"", lo);
        for (uint32_t i = lo; i < hi; i++)
            out(w, "%s%02x", i > lo && (i - lo) % 4 == 0 ? " " : "", g->dma[i]);
        out(w, "\"}\n");
    }
}

static void write_patch(struct yw *w, const struct wk_step *s)
{
    const struct wk_prog_patch *g = s->patch;
    char name[32], word[32];
    if (!g) {
        problem(w, "step %d (patch) has no payload", w->step);
        return;
    }
    if (g->start > g->end || g->patch_start > g->patch_length || g->patch_count > g->patch_length - g->patch_start ||
        g->dma_length > WK_PROG_MAX_DMA)
        problem(w, "step %d (patch): ranges the loader refuses (start 0x%x > end 0x%x, or entries [%u, +%u) of %u)",
                w->step, g->start, g->end, g->patch_start, g->patch_count, g->patch_length);
    out(w, "      - patch:\n");
    out(w, "          context: %s\n", ref(w, OBJ_CONTEXT, g->context, name));
    write_patch_list(w, g);
    write_patch_locations(w, g);
    if (g->start)
        out(w, "          start: 0x%x\n", g->start);
    out(w, "          end: 0x%x\n", g->end);
    if (g->patch_start)
        out(w, "          patch_start: %u\n", g->patch_start);
    if (g->patch_start <= g->patch_length && g->patch_count != g->patch_length - g->patch_start)
        out(w, "          patch_count: %u\n", g->patch_count);
    write_dma(w, g);
    if (s->expect_status != WK_OK)
        out(w, "          status: %s\n", status_word(s->expect_status, word, sizeof(word)));
}

/* ------------------------------------------------------------------ */
/* Other steps                                                          */
/* ------------------------------------------------------------------ */

static void write_touch(struct yw *w, const struct wk_step *s)
{
    if (s->relative) {
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        if (s->offset)
            kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_ALLOCATION - 1);
    } else {
        kv_segment(w, "segment", s->segment);
        if (s->offset)
            kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_SEGMENT - 1);
    }
    if (s->write)
        kv(w, "write", "true");
}

static void write_fence(struct yw *w, const struct wk_step *s)
{
    kv(w, "value", "0x%llx", (unsigned long long)s->value);
    if (s->relative) {
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        if (s->offset)
            kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_ALLOCATION - 1);
    } else {
        kv(w, "address", "0x%llx", (unsigned long long)s->address);
    }
}

static void write_placement(struct yw *w, const struct wk_step *s)
{
    kv(w, "resident", "%s", s->expect_resident ? "true" : "false");
    if (!s->expect_resident) /* where is not checked then */
        return;
    if (s->segment)
        kv_segment(w, "segment", s->segment);
    if (s->has_offset)
        kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_SEGMENT - 1);
    if (s->has_bank) {
        uint32_t banks = s->segment && s->segment <= w->p->gpu.segment_count
                             ? w->p->gpu.segments[s->segment - 1].bank_count : WK_GPU_MAX_BANKS;
        uint32_t lo = s->segment && banks >= 2 ? 1 : 0, hi = banks >= 2 ? banks : 0;
        if (s->expect_bank < lo || s->expect_bank > hi)
            problem(w, "step %d: bank %u is outside %u..%u", w->step, s->expect_bank, lo, hi);
        kv(w, "bank", "%u", s->expect_bank);
    }
}

static void write_stats(struct yw *w, const struct wk_step *s)
{
    if ((unsigned)s->stat >= WK_STAT_COUNT) {
        problem(w, "step %d: unknown stat %u", w->step, (unsigned)s->stat);
        return;
    }
    kv(w, "stat", "%s", wk_stat_words[s->stat]);
    if (s->stat == WK_STAT_DDI_CALLS) {
        const char *name = wk_ddi_name(s->ddi);
        if (s->ddi == WK_DDI_NONE || (unsigned)s->ddi >= WK_DDI_COUNT)
            problem(w, "step %d: ddi_calls of no DDI", w->step);
        kv(w, "ddi", "%s", strncmp(name, "DxgkDdi", 7) == 0 ? name + 7 : name);
    }
    if (s->stat == WK_STAT_PAGING_OP) {
        if (s->op >= 18)
            problem(w, "step %d: paging operation %u has no name", w->step, s->op);
        kv(w, "op", "%s", wk_paging_op_words[s->op % 18]);
    }
    if (s->min)
        kv(w, "min", "%llu", (unsigned long long)s->min);
    if (s->has_max) {
        if (s->max < s->min)
            problem(w, "step %d: max %llu below min", w->step, (unsigned long long)s->max);
        kv(w, "max", "%llu", (unsigned long long)s->max);
    }
}

static void write_check(struct yw *w, const struct wk_step *s)
{
    switch (s->kind) {
    case WK_STEP_EXPECT_BYTES:
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        if (s->offset)
            kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_ALLOCATION - 1);
        kv_hex_bytes(w, "bytes", s->data, s->length);
        break;
    case WK_STEP_EXPECT_PATTERN:
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        kv(w, "pattern", "0x%x", (uint32_t)s->value); /* only 4 bytes of it are compared */
        if (s->offset)
            kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_ALLOCATION - 1);
        if (s->size)
            kv_size(w, "size", s->size, 1, WK_PROG_MAX_ALLOCATION);
        break;
    case WK_STEP_EXPECT_DIGEST:
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        kv(w, "digest", "0x%016llx", (unsigned long long)s->value);
        break;
    case WK_STEP_EXPECT_PLACEMENT:
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        write_placement(w, s);
        break;
    case WK_STEP_EXPECT_STATS: write_stats(w, s); break;
    case WK_STEP_EXPECT_GART: kv_ref(w, "allocation", OBJ_ALLOC, s->allocation); break;
    case WK_STEP_EXPECT_CONTEXT_INFO:
        kv_ref(w, "context", OBJ_CONTEXT, s->context);
        if (s->field >= 5)
            problem(w, "step %d: context-info field %u has no name", w->step, s->field);
        kv(w, "field", "%s", context_fields[s->field % 5]);
        kv_size(w, "value", s->value, 0, UINT32_MAX);
        break;
    case WK_STEP_EXPECT_MULTIPASS: kv(w, "op", "%s", wk_paging_op_words[s->op % 18]); break;
    case WK_STEP_EXPECT_VA:
        kv(w, "va", "0x%llx", (unsigned long long)s->address);
        kv_process(w, s);
        if (s->fault != WK_VA_FAULT_NONE) {
            if (s->fault >= WK_VA_FAULT_COUNT)
                problem(w, "step %d: expect_va fault %u has no name", w->step, s->fault);
            kv(w, "fault", "%s", wk_prog_va_fault_words[s->fault % WK_VA_FAULT_COUNT]);
            break;
        }
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        if (s->offset)
            kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_ALLOCATION - 1);
        kv_size(w, "size", s->size, 1, WK_PROG_MAX_VA_COMPARE);
        break;
    default: problem(w, "step %d: a step kind (%u) the writer does not know", w->step, (unsigned)s->kind); break;
    }
}

static void write_submit_virtual(struct yw *w, const struct wk_step *s)
{
    kv_ref(w, "context", OBJ_CONTEXT, s->context);
    kv(w, "buffer", "0x%llx", (unsigned long long)s->address);
    if (s->op == WK_VIRTUAL_COPY) {
        kv(w, "copy", "0x%llx", (unsigned long long)s->value);
        kv(w, "to", "0x%llx", (unsigned long long)s->offset);
    } else {
        kv(w, "fill", "0x%llx", (unsigned long long)s->offset);
        kv(w, "pattern", "0x%x", (uint32_t)s->value);
    }
    kv_size(w, "size", s->size, 1, WK_PROG_MAX_ALLOCATION);
    if (s->fault != WK_VA_FAULT_NONE) {
        if (s->fault >= WK_VA_FAULT_COUNT)
            problem(w, "step %d: submit_virtual fault %u has no name", w->step, s->fault);
        kv(w, "fault", "%s", wk_prog_va_fault_words[s->fault % WK_VA_FAULT_COUNT]);
    }
}

static void write_action(struct yw *w, const struct wk_step *s)
{
    switch (s->kind) {
    case WK_STEP_CREATE_DEVICE:
        kv_device_flags(w, s->flags);
        kv_process(w, s);
        break;
    case WK_STEP_DESTROY_DEVICE: kv_ref(w, "device", OBJ_DEVICE, s->device); break;
    case WK_STEP_CREATE_CONTEXT:
        kv_ref(w, "device", OBJ_DEVICE, s->device);
        kv_context_flags(w, s->flags);
        break;
    case WK_STEP_DESTROY_CONTEXT: kv_ref(w, "context", OBJ_CONTEXT, s->context); break;
    case WK_STEP_CREATE_ALLOCATION: write_create_allocation(w, s); break;
    case WK_STEP_FILL:
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        kv(w, "pattern", "0x%x", (uint32_t)s->value); /* the interpreter passes 32 bits */
        break;
    case WK_STEP_RELOCATE:
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        kv_segment(w, "segment", s->segment);
        break;
    case WK_STEP_WRITE:
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        if (s->offset)
            kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_ALLOCATION - 1);
        kv_hex_bytes(w, "bytes", s->data, s->length);
        break;
    case WK_STEP_TOUCH_PHYSICAL: write_touch(w, s); break;
    case WK_STEP_SIGNAL_FENCE: write_fence(w, s); break;
    case WK_STEP_HOLD:
        if (s->value < 1 || s->value > WK_PROG_MAX_STEPS)
            problem(w, "step %d: hold %llu is outside 1..256", w->step, (unsigned long long)s->value);
        kv(w, "count", "%llu", (unsigned long long)s->value);
        break;
    case WK_STEP_QUEUE:
        if (s->value < 1 || s->value > WK_PROG_MAX_QUEUE)
            problem(w, "step %d: queue %llu is outside 1..%u", w->step, (unsigned long long)s->value,
                    WK_PROG_MAX_QUEUE);
        kv(w, "count", "%llu", (unsigned long long)s->value);
        if (s->flags & WK_PROG_QUEUE_EACH)
            kv(w, "interrupts", "each");
        break;
    case WK_STEP_CANCEL:
        if (s->has_count)
            kv(w, "count", "%u", s->count);
        if (s->has_count && s->count > WK_PROG_MAX_STEPS)
            problem(w, "step %d: cancel count %u is outside 0..256", w->step, s->count);
        break;
    case WK_STEP_WAIT_IDLE: break;
    case WK_STEP_VA_MAP:
        kv_ref(w, "allocation", OBJ_ALLOC, s->allocation);
        kv(w, "va", "0x%llx", (unsigned long long)s->address);
        if (s->offset)
            kv_size(w, "offset", s->offset, 0, WK_PROG_MAX_ALLOCATION - 1);
        if (s->size)
            kv_size(w, "size", s->size, 1, WK_PROG_MAX_ALLOCATION);
        if (s->read_only)
            kv(w, "read_only", "true");
        kv_process(w, s);
        break;
    case WK_STEP_VA_UNMAP:
        kv(w, "va", "0x%llx", (unsigned long long)s->address);
        kv_size(w, "size", s->size, 1, WK_PROG_MAX_ALLOCATION);
        kv_process(w, s);
        break;
    case WK_STEP_SUBMIT_VIRTUAL: write_submit_virtual(w, s); break;
    case WK_STEP_MOVE_ROOT_TABLE:
        kv_process(w, s);
        if (s->flags & WK_PROG_ROOT_BY_COPY)
            kv(w, "copy", "true");
        if (s->flags & WK_PROG_ROOT_SHRINK)
            kv(w, "shrink", "true");
        break;
    case WK_STEP_END_PROCESS: /* its key is required: written even for process 1 */
        if (s->process >= WK_PROG_MAX_PROCESSES)
            problem(w, "step %d: process %u is outside 1..%u", w->step, s->process + 1, WK_PROG_MAX_PROCESSES);
        kv(w, "process", "%u", s->process + 1);
        break;
    default: kv_ref(w, "allocation", OBJ_ALLOC, s->allocation); break; /* one-allocation steps */
    }
    kv_status(w, s);
}

static void write_step(struct yw *w, const struct wk_step *s)
{
    if (s->kind == WK_STEP_RENDER) {
        write_render(w, s);
        return;
    }
    if (s->kind == WK_STEP_PATCH) {
        write_patch(w, s);
        return;
    }
    flow_begin(w);
    if (wk_step_is_check(s->kind))
        write_check(w, s); /* checks take no status: theirs is never read */
    else
        write_action(w, s);
    flow_step(w, wk_step_keyword(s->kind));
    if (s->kind == WK_STEP_CREATE_DEVICE)
        created(w, s, OBJ_DEVICE);
    else if (s->kind == WK_STEP_CREATE_CONTEXT)
        created(w, s, OBJ_CONTEXT);
    else if (s->kind == WK_STEP_CREATE_ALLOCATION)
        created(w, s, OBJ_ALLOC);
}

/* ------------------------------------------------------------------ */
/* The adapter                                                          */
/* ------------------------------------------------------------------ */

static uint32_t banks_of(const struct wk_gpu_segment_desc *s)
{
    return s->bank_count >= 2 && s->kind == WK_GPU_SEGMENT_MEMORY ? s->bank_count : 0;
}

/* Whether the case needs a role of some segment (then its segments are
 * written even when they are the reference adapter's). */
static int any_role(const struct wk_prog *p)
{
    for (uint32_t i = 0; i < WK_PROG_MAX_SEGMENTS; i++)
        if (p->segment_roles[i])
            return 1;
    return 0;
}

/* role: what loads back (spec_load.c, load_role): memory segments only,
 * `banked` on a segment with banks. */
static void write_role(struct yw *w, const struct wk_gpu_segment_desc *s, uint32_t i, uint32_t roles)
{
    if (roles >> WK_ROLE_COUNT || (roles && s->kind == WK_GPU_SEGMENT_APERTURE) ||
        ((roles & WK_ROLE_BANKED) && !banks_of(s)))
        problem(w, "segment %u has roles 0x%x the loader refuses", i + 1, roles);
    for (uint32_t r = 0; r < WK_ROLE_COUNT; r++)
        if (roles & (1u << r))
            out(w, "%s%s", roles & ((1u << r) - 1) ? ", " : ", role: [", wk_role_word(r));
    out(w, "%s", roles ? "]" : "");
}

static void write_segments(struct yw *w, const struct wk_prog *p)
{
    const struct wk_gpu_desc *g = &p->gpu;
    if (wk_gpu_segments_equal(g, wk_gpu_reference_desc()) && !any_role(p))
        return;
    if (g->segment_count == 0 || g->segment_count > WK_PROG_MAX_SEGMENTS)
        problem(w, "the adapter has %u segments (the loader takes 1..%u)", g->segment_count, WK_PROG_MAX_SEGMENTS);
    out(w, "      segments:\n");
    for (uint32_t i = 0; i < g->segment_count && i < WK_PROG_MAX_SEGMENTS; i++) {
        const struct wk_gpu_segment_desc *s = &g->segments[i];
        char size[32];
        out(w, "        - {kind: %s, base: 0x%llx, size: %s", s->kind == WK_GPU_SEGMENT_APERTURE ? "aperture" : "memory",
            (unsigned long long)s->base, size_text(s->size, size));
        if (banks_of(s) > WK_PROG_MAX_BANKS)
            problem(w, "segment %u has %u banks (the loader takes up to %u)", i + 1, banks_of(s), WK_PROG_MAX_BANKS);
        for (uint32_t b = 0; b + 1 < banks_of(s) && b + 1 < WK_PROG_MAX_BANKS; b++)
            out(w, "%s%s", b ? ", " : ", banks: [", size_text(s->bank_ends[b], size));
        out(w, "%s", banks_of(s) ? "]" : "");
        write_role(w, s, i, p->segment_roles[i]);
        out(w, "}\n");
    }
}

/* What the loader demands of an adapter it builds (spec_load.c): bank ends
 * of memory segments only, 4 KiB multiples, strictly increasing inside the
 * segment; and a description the GPU model accepts. A decoded fuzz input
 * may describe anything, and the writer writes only what loads back. */
static void check_gpu(struct yw *w, const struct wk_gpu_desc *g)
{
    for (uint32_t i = 0; i < g->segment_count && i < WK_PROG_MAX_SEGMENTS; i++) {
        const struct wk_gpu_segment_desc *s = &g->segments[i];
        uint64_t prev = 0;
        if (s->bank_count >= 2 && s->kind == WK_GPU_SEGMENT_APERTURE)
            problem(w, "segment %u is an aperture with %u banks (only memory segments have banks)", i + 1, s->bank_count);
        for (uint32_t b = 0; s->bank_count >= 2 && b + 1 < s->bank_count && b + 1 < WK_PROG_MAX_BANKS; prev = s->bank_ends[b++])
            if (s->bank_ends[b] <= prev || s->bank_ends[b] >= s->size || s->bank_ends[b] % 4096)
                problem(w, "segment %u: bank end %u (0x%llx) is not a 4KiB multiple above 0x%llx and below the segment size",
                        i + 1, b + 1, (unsigned long long)s->bank_ends[b], (unsigned long long)prev);
    }
    if (w->problems)
        return;
    char why[256] = "";
    if (wk_gpu_check_desc(g, why, sizeof(why)) != WK_OK)
        problem(w, "the GPU model refuses the adapter: %s", why);
}

/* Adapter keys that differ from the loader's defaults, at the case level. */
static void write_adapter(struct yw *w)
{
    const struct wk_prog *p = w->p;
    const struct wk_gpu_desc *g = &p->gpu, *r = wk_gpu_reference_desc();
    const struct wk_vidmm_config *v = &p->vidmm;
    if (g->max_call_depth != r->max_call_depth || g->max_commands != r->max_commands ||
        g->max_bytes_moved != r->max_bytes_moved || g->max_dma_length != r->max_dma_length ||
        g->max_resident_pages != r->max_resident_pages || v->no_guard_pages || v->no_model)
        problem(w, "the adapter sets GPU budgets or kit knobs that specs cannot set");
    char a[32], b[32];
    int sys = g->sysmem_first_pfn != r->sysmem_first_pfn || g->sysmem_pages != r->sysmem_pages;
    int any = sys || v->paging_buffer_size || v->query_segment_version || v->transfer_chunk || v->max_passes ||
              v->split_submissions || v->grown_patch_list || v->move_before_patch || v->ddi_timeout_ms || v->seed || v->check_ddi_table ||
              v->device_error_at || v->inject.what || v->first_fence || v->map_chunk || v->contiguous_pages;
    int segs = !wk_gpu_segments_equal(g, r) || any_role(p);
    if (!any && !segs)
        return;
    if (segs || sys)
        check_gpu(w, g);
    out(w, "    adapter:\n");
    write_segments(w, p);
    if (sys)
        out(w, "      system: {first_pfn: 0x%llx, pages: %llu}\n", (unsigned long long)g->sysmem_first_pfn,
            (unsigned long long)g->sysmem_pages);
    if (v->paging_buffer_size)
        out(w, "      paging_buffer: %s\n", size_text(v->paging_buffer_size, a));
    if (v->query_segment_version && v->query_segment_version != 3 && v->query_segment_version != 4)
        problem(w, "query_segment %u (3 or 4)", v->query_segment_version);
    if (v->query_segment_version)
        out(w, "      query_segment: %u\n", v->query_segment_version);
    if (v->transfer_chunk % 4096 || v->transfer_chunk > WK_PROG_MAX_SEGMENT)
        problem(w, "transfer_chunk %llu is not a page multiple up to 256MiB", (unsigned long long)v->transfer_chunk);
    if (v->transfer_chunk)
        out(w, "      transfer_chunk: %s\n", size_text(v->transfer_chunk, b));
    if (v->max_passes)
        out(w, "      max_passes: %u\n", v->max_passes);
    if (v->max_passes > 65536 || v->ddi_timeout_ms > 60000 || v->paging_buffer_size > (64u << 20))
        problem(w, "max_passes, ddi_timeout_ms or paging_buffer beyond the loader's limits");
    if (v->split_submissions)
        out(w, "      split_submissions: true\n");
    if (v->grown_patch_list)
        out(w, "      grown_patch_list: true\n");
    if (v->move_before_patch)
        out(w, "      move_before_patch: true\n");
    if (v->ddi_timeout_ms)
        out(w, "      ddi_timeout_ms: %u\n", v->ddi_timeout_ms);
    if (v->seed)
        out(w, "      seed: %llu\n", (unsigned long long)v->seed);
    if (v->check_ddi_table)
        out(w, "      check_ddi_table: true\n");
    if (v->map_chunk > 65536)
        problem(w, "map_chunk %u beyond the loader's 65536", v->map_chunk);
    if (v->map_chunk)
        out(w, "      map_chunk: %u\n", v->map_chunk);
    if (v->contiguous_pages)
        out(w, "      contiguous_pages: true\n");
    if (v->device_error_at)
        out(w, "      device_error_at: %u\n", v->device_error_at);
    if (v->first_fence)
        out(w, "      first_fence: 0x%x\n", v->first_fence);
    if (v->inject.what) {
        const char *ddi = wk_ddi_name(v->inject.ddi);
        out(w, "      fail: {what: %s, ddi: %s, nth: %u}\n",
            v->inject.what == WK_VIDMM_FAIL_POOL ? "pool" : "create_context_allocation",
            strncmp(ddi, "DxgkDdi", 7) == 0 ? ddi + 7 : ddi, v->inject.nth);
    }
}

/* ------------------------------------------------------------------ */
/* The case                                                             */
/* ------------------------------------------------------------------ */

/* The loader's rule for a case id or area (spec_dotted_name), within the
 * field's size. */
static int dotted(const char *s, size_t max)
{
    return strlen(s) < max && spec_dotted_name(s);
}

static void write_names(struct yw *w, const char *area, const char *id, const char *describe)
{
    size_t n = strlen(area);
    if (!dotted(area, sizeof(w->p->area)) || !dotted(id, sizeof(w->p->id)) || strncmp(id, area, n) != 0 ||
        id[n] != '.')
        problem(w, "id '%.96s' is not a well-formed id of area '%.48s'", id, area);
    size_t dn = strlen(describe);
    if (dn == 0 || dn >= sizeof(w->p->describe))
        problem(w, "describe must be 1..%zu characters", sizeof(w->p->describe) - 1);
    for (size_t i = 0; i < dn; i++)
        if ((unsigned char)describe[i] < 0x20 || describe[i] == 0x7F)
            problem(w, "describe holds a control character");
    out(w, "area: %s\n\ncases:\n  - id: %s\n    describe: \"", area, id);
    for (size_t i = 0; i < dn; i++)
        out(w, "%s%c", describe[i] == '"' || describe[i] == '\\' ? "\\" : "", describe[i]);
    out(w, "\"\n");
}

static void write_case_keys(struct yw *w)
{
    const struct wk_prog *p = w->p;
    for (uint32_t i = 0; i < p->cover_count && i < WK_PROG_MAX_RULES; i++) {
        if (!wk_rule_find(p->covers[i]))
            problem(w, "covers: '%.24s' is not a rule of the catalogue", p->covers[i]);
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(p->covers[i], p->covers[j]) == 0)
                problem(w, "covers: %.24s is listed twice", p->covers[i]);
        out(w, "%s%s", i ? ", " : "    covers: [", p->covers[i]);
    }
    if (p->cover_count)
        out(w, "]\n");
    if (p->requires & ~((1u << WK_REQ_COUNT) - 1))
        problem(w, "requires 0x%x has unknown bits", p->requires);
    uint32_t words = 0;
    for (uint32_t b = 0; b < WK_REQ_COUNT; b++)
        if (p->requires & (1u << b))
            out(w, "%s%s", words++ ? ", " : "    requires: [", wk_requires_words[b]);
    if (words)
        out(w, "]\n");
    write_adapter(w);
    if (p->has_rewrite) {
        if (!wk_mutation_find(p->rewrite.mutation) || !wk_rule_find(p->trips))
            problem(w, "rewrite '%.48s' / trips '%.24s': not in the catalogues", p->rewrite.mutation, p->trips);
        out(w, "    rewrite: {mutation: %s, call: %u, param: %lld}\n    trips: %s\n", p->rewrite.mutation,
            p->rewrite.call, (long long)p->rewrite.param, p->trips);
    }
}

static void write_case(struct yw *w, const char *area, const char *id, const char *describe)
{
    w->step = -1;
    write_names(w, area, id, describe);
    write_case_keys(w);
    if (w->p->step_count > WK_PROG_MAX_STEPS)
        problem(w, "%u steps (at most %u)", w->p->step_count, WK_PROG_MAX_STEPS);
    if (w->p->step_count)
        out(w, "    steps:\n");
    for (uint32_t i = 0; i < w->p->step_count && i < WK_PROG_MAX_STEPS; i++) {
        w->step = (int32_t)i;
        write_step(w, &w->p->steps[i]);
    }
}

int wk_prog_yaml_check(const struct wk_prog *p, int32_t *first, char *why, size_t size)
{
    struct yw *w = calloc(1, sizeof(*w));
    if (!w) {
        if (why && size)
            snprintf(why, size, "out of host memory");
        return 1;
    }
    w->p = p;
    w->why = why;
    w->why_size = size;
    w->first = -1;
    /* names are the caller's; check only the program with valid stand-ins */
    write_case(w, "x", "x.x", "x");
    int problems = (int)w->problems;
    if (first)
        *first = w->first;
    free(w);
    return problems;
}

int wk_prog_write_yaml(const struct wk_prog *p, const char *area, const char *id, const char *describe, FILE *out)
{
    area = area ? area : p->area;
    id = id ? id : p->id;
    describe = describe ? describe : p->describe;
    struct yw *w = calloc(1, sizeof(*w));
    if (!w)
        return -1;
    w->p = p;
    w->first = -1;
    write_case(w, area, id, describe); /* dry run: write nothing for a program with problems */
    int ok = w->problems == 0;
    if (ok) {
        memset(w, 0, sizeof(*w));
        w->p = p;
        w->first = -1;
        w->out = out;
        write_case(w, area, id, describe);
        ok = w->problems == 0 && !ferror(out);
    }
    free(w);
    return ok ? 0 : -1;
}
