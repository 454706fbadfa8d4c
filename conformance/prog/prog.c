/* SPDX-License-Identifier: MIT */
/*
 * prog.c - step programs: keywords, the kinds of check (derived from the
 * steps, never stored: docs/verdicts.md, "Kinds of check"), lifetime and the
 * text dump (`wddmkit spec dump`), one line per step with objects by index,
 * each tagged with its kind.
 */
#include <stdlib.h>
#include <string.h>

#include "conform.h"
#include "wddmkit/umd.h"

const char *wk_step_keyword(enum wk_step_kind kind)
{
    switch (kind) {
#define KW_(name, kw) case name: return kw;
        WK_STEP_MAP(KW_)
#undef KW_
    default: return "unknown_step";
    }
}

int wk_step_is_check(enum wk_step_kind kind)
{
    return (kind >= WK_STEP_EXPECT_BYTES && kind <= WK_STEP_EXPECT_CONTEXT_INFO) || kind == WK_STEP_EXPECT_MULTIPASS ||
           kind == WK_STEP_EXPECT_VA;
}

const char *wk_check_kind_name(enum wk_check_kind kind)
{
    switch (kind) {
#define CK_(name, word) case name: return word;
        WK_CHECK_KIND_MAP(CK_)
#undef CK_
    default: return "unknown";
    }
}

enum wk_check_kind wk_check_kind_find(const char *word)
{
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++)
        if (strcmp(word, wk_check_kind_name((enum wk_check_kind)k)) == 0)
            return (enum wk_check_kind)k;
    return WK_CHECK_KIND_COUNT;
}

/*
 * The rule (docs/verdicts.md, "Kinds of check", which has the table and the
 * reasons): a render step is encoder (the driver gets user-mode data in the
 * kit's own command format); every other action is contract (its status,
 * the in/out fields the kit checks as it calls, no rule violated). Data
 * checks (bytes, pattern, digest) and the GART mapping are semantic: they
 * look at what executing the driver's buffers did. A placement is contract
 * (resident, segment, bank: what the allocation asked for); its offset is a
 * choice sub-check (wk_step_checks). Context-info values are choice. A stat
 * by stat: violations and cancellations are contract, GPU faults semantic,
 * every other count (calls, operations, passes, buffers, fences,
 * evictions, submissions) follows from the driver's choices.
 */
enum wk_check_kind wk_step_check_kind(const struct wk_step *s)
{
    switch (s->kind) {
    case WK_STEP_RENDER: return WK_CHECK_ENCODER;
    /* A request of Size 0 is invalid in the kit's format (umd.h): that the
     * driver refuses it is a check of a driver that reads the format. */
    case WK_STEP_CREATE_ALLOCATION:
        return s->alloc.size == 0 && s->alloc.paging_buffers == 0 ? WK_CHECK_ENCODER : WK_CHECK_CONTRACT;
    case WK_STEP_EXPECT_BYTES:
    case WK_STEP_EXPECT_PATTERN:
    case WK_STEP_EXPECT_DIGEST:
    case WK_STEP_EXPECT_GART:
    case WK_STEP_EXPECT_VA: return WK_CHECK_SEMANTIC;
    case WK_STEP_EXPECT_PLACEMENT: return WK_CHECK_CONTRACT;
    case WK_STEP_EXPECT_CONTEXT_INFO: return WK_CHECK_CHOICE;
    case WK_STEP_EXPECT_STATS:
        if (s->stat == WK_STAT_VIOLATIONS || s->stat == WK_STAT_CANCELLED)
            return WK_CHECK_CONTRACT;
        return s->stat == WK_STAT_GPU_FAULTS ? WK_CHECK_SEMANTIC : WK_CHECK_CHOICE;
    default: return WK_CHECK_CONTRACT;
    }
}

int wk_step_names_kept_fields(const struct wk_step *s)
{
    return s->kind == WK_STEP_CREATE_ALLOCATION &&
           (s->alloc.preferred || s->alloc.hinted_bank || s->alloc.eviction_set || s->alloc.flags);
}

uint32_t wk_step_checks(const struct wk_step *s, enum wk_check_kind kinds[WK_STEP_MAX_CHECKS])
{
    kinds[0] = wk_step_check_kind(s);
    if (s->kind == WK_STEP_EXPECT_PLACEMENT && s->has_offset) {
        kinds[1] = WK_CHECK_CHOICE;
        return 2;
    }
    /* that the driver kept the request's placement fields and flags (umd.h) */
    if (wk_step_names_kept_fields(s)) {
        kinds[1] = WK_CHECK_ENCODER;
        return 2;
    }
    return 1;
}

struct wk_prog_patch *wk_prog_patch_new(uint32_t dma_length)
{
    struct wk_prog_patch *p = calloc(1, sizeof(*p) + dma_length);
    if (p)
        p->dma_length = dma_length;
    return p;
}

size_t wk_prog_patch_size(const struct wk_prog_patch *p)
{
    return sizeof(*p) + p->dma_length;
}

struct wk_prog_patch *wk_prog_patch_dup(const struct wk_prog_patch *p)
{
    struct wk_prog_patch *q = malloc(wk_prog_patch_size(p));
    if (q)
        memcpy(q, p, wk_prog_patch_size(p));
    return q;
}

void wk_prog_patch_trim(struct wk_prog_patch *p)
{
    while (p->dma_length && p->dma[p->dma_length - 1] == 0)
        p->dma_length--;
}

const char *wk_verdict_name(enum wk_verdict v)
{
    switch (v) {
#define VN_(name, word) case name: return word;
        WK_VERDICT_MAP(VN_)
#undef VN_
    default: return "unknown";
    }
}

uint64_t wk_prog_sized_pages(uint32_t paging_buffers, uint32_t paging_buffer_size)
{
    uint64_t pages = (uint64_t)paging_buffers * paging_buffer_size / 8u;
    return pages ? pages : 1u;
}

const char *wk_role_word(uint32_t bit_index)
{
    static const char *const words[WK_ROLE_COUNT] = { "banked", "cpu_visible" };
    return bit_index < WK_ROLE_COUNT ? words[bit_index] : NULL;
}

void wk_prog_init(struct wk_prog *p)
{
    memset(p, 0, sizeof(*p));
    p->gpu = *wk_gpu_reference_desc();
    for (uint32_t i = 0; i < WK_PROG_MAX_SEGMENTS; i++) {
        if (i < p->gpu.segment_count) {
            p->segments[i] = p->gpu.segments[i];
            for (uint32_t b = 0; b + 1 < p->segments[i].bank_count && b < WK_PROG_MAX_BANKS; b++)
                p->bank_ends[i][b] = p->segments[i].bank_ends[b];
        }
        p->segments[i].bank_ends = p->bank_ends[i]; /* every segment's ends are the program's own */
    }
    p->gpu.segments = p->segments;
}

void wk_prog_free(struct wk_prog *p)
{
    for (uint32_t i = 0; i < p->step_count; i++) {
        free(p->steps[i].render);
        p->steps[i].render = NULL;
        free(p->steps[i].patch);
        p->steps[i].patch = NULL;
    }
}

/* The raw command buffer's size and its first bytes (enough to see the
 * header and the first record of umd.h's format). */
static void dump_raw(const struct wk_prog_render *r, FILE *out)
{
    fprintf(out, " raw=%u bytes", r->raw_length);
    for (uint32_t i = 0; i < r->raw_length && i < 64; i++)
        fprintf(out, "%s%02x", i == 0 ? " [" : i % 4 == 0 ? " " : "", r->raw_bytes[i]);
    fprintf(out, "%s", r->raw_length > 64 ? " ...]" : r->raw_length ? "]" : "");
}

static void dump_ref(const char *key, const struct wk_prog_ref *ref, FILE *out)
{
    fprintf(out, " %s=[%u,0x%x]", key, ref->list_index, ref->offset);
}

/* One user record with the fields of its op only (spec_render.c's keys):
 * a COPY has no value, a NOP nothing at all. An op outside umd.h (a
 * decoded input may carry one) shows every field, since the driver is
 * handed them all. */
static void dump_record(const struct wk_prog_record *c, FILE *out)
{
    static const char *const ops[WK_USER_OP_COUNT] = { "nop", "copy", "fill", "write32", "blit" };
    if (c->op >= WK_USER_OP_COUNT) {
        fprintf(out, "\n      op=%u", c->op);
        dump_ref("src", &c->src, out);
        dump_ref("dst", &c->dst, out);
        fprintf(out, " size=%u value=0x%x width=%u height=%u src_pitch=%u dst_pitch=%u", c->size, c->value,
                c->width, c->height, c->src_pitch, c->dst_pitch);
        return;
    }
    fprintf(out, "\n      %s", ops[c->op]);
    if (c->op == WK_USER_OP_COPY || c->op == WK_USER_OP_BLIT)
        dump_ref("src", &c->src, out);
    if (c->op != WK_USER_OP_NOP)
        dump_ref("dst", &c->dst, out);
    if (c->op == WK_USER_OP_COPY || c->op == WK_USER_OP_FILL)
        fprintf(out, " size=%u", c->size);
    if (c->op == WK_USER_OP_FILL || c->op == WK_USER_OP_WRITE32) /* a FILL's pattern: value=, as a fill step */
        fprintf(out, " value=0x%x", c->value);
    if (c->op == WK_USER_OP_BLIT)
        fprintf(out, " width=%u height=%u src_pitch=%u dst_pitch=%u", c->width, c->height, c->src_pitch,
                c->dst_pitch);
}

static void dump_render(const struct wk_prog_render *r, FILE *out)
{
    fprintf(out, " context=%u list=[", r->context);
    for (uint32_t i = 0; i < r->list_length; i++) {
        if (r->list_alloc[i])
            fprintf(out, "%salloc%u%s", i ? " " : "", r->list_alloc[i] - 1, r->list_write[i] ? "(w)" : "");
        else
            fprintf(out, "%snull", i ? " " : "");
    }
    fprintf(out, "]%s", r->no_prepatch_info ? " no_prepatch_info" : "");
    for (uint32_t i = 0; i < r->patch_length && i < WK_PROG_MAX_USER_PATCHES; i++) {
        const struct wk_prog_patch_location *l = &r->patch[i];
        fprintf(out, "\n      user patch index=%u offset=0x%x allocation_offset=0x%x slot=%u reserved=0x%x split=0x%x "
                     "driver_id=%u", l->allocation_index, l->patch_offset, l->allocation_offset, l->slot_id,
                l->reserved, l->split_offset, l->driver_id);
    }
    if (r->raw) {
        dump_raw(r, out);
        return;
    }
    for (uint32_t i = 0; i < r->record_count; i++)
        dump_record(&r->records[i], out);
}

static void dump_patch(const struct wk_prog_patch *g, FILE *out)
{
    /* dma_length counts the bytes the input gives, from the buffer's start;
     * the rest of the context's DMA buffer is zero (prog.h) */
    fprintf(out, " context=%u range=[0x%x,0x%x) entries=[%u,+%u) dma=%u bytes given (the rest zero) list=[", g->context,
            g->start, g->end, g->patch_start, g->patch_count, g->dma_length);
    for (uint32_t i = 0; i < g->list_length && i < WK_PROG_MAX_PATCH_LIST; i++) {
        const struct wk_prog_patch_entry *e = &g->list[i];
        fprintf(out, "%s", i ? " " : "");
        if (e->allocation)
            fprintf(out, "alloc%u", e->allocation - 1);
        else
            fprintf(out, "null");
        if (e->resident)
            fprintf(out, "@resident");
        else
            fprintf(out, "@%u:0x%llx", e->segment_id, (unsigned long long)e->address);
        fprintf(out, "%s", e->write ? "(w)" : "");
    }
    fprintf(out, "]");
    for (uint32_t i = 0; i < g->patch_length && i < WK_PROG_MAX_PATCHES; i++) {
        const struct wk_prog_patch_location *l = &g->patch[i];
        fprintf(out, "\n      index=%u offset=0x%x allocation_offset=0x%x slot=%u reserved=0x%x split=0x%x driver_id=%u",
                l->allocation_index, l->patch_offset, l->allocation_offset, l->slot_id, l->reserved, l->split_offset,
                l->driver_id);
    }
}

#define PAGING_OPS 18u /* DXGK_BUILDPAGINGBUFFER_OPERATION values: wk_paging_op_words */

/* A stat as its spec spells it, in the loader's own words (wk_stat_words,
 * wk_paging_op_words): `ddi`/`op` only for the stat that counts one, and
 * no max when the check has no upper bound. A decoded input's value out of
 * range prints as its number. */
static void dump_stats(const struct wk_step *s, FILE *out)
{
    if ((unsigned)s->stat < WK_STAT_COUNT)
        fprintf(out, " stat=%s", wk_stat_words[s->stat]);
    else
        fprintf(out, " stat=%u", (unsigned)s->stat);
    if (s->stat == WK_STAT_DDI_CALLS) {
        const char *name = wk_ddi_name(s->ddi); /* the spec omits "DxgkDdi" */
        if (s->ddi == WK_DDI_NONE || (unsigned)s->ddi >= WK_DDI_COUNT)
            fprintf(out, " ddi=%u", (unsigned)s->ddi);
        else
            fprintf(out, " ddi=%s", strncmp(name, "DxgkDdi", 7) == 0 ? name + 7 : name);
    }
    if (s->stat == WK_STAT_PAGING_OP) {
        if (s->op < PAGING_OPS)
            fprintf(out, " op=%s", wk_paging_op_words[s->op]);
        else
            fprintf(out, " op=%u", s->op);
    }
    fprintf(out, " min=%llu", (unsigned long long)s->min);
    if (s->has_max)
        fprintf(out, " max=%llu", (unsigned long long)s->max);
}

/* What check_placement compares: residency, then segment (0: any), offset
 * and bank only when the case gave them. */
static void dump_placement(const struct wk_step *s, FILE *out)
{
    fprintf(out, " alloc%u resident=%s", s->allocation, s->expect_resident ? "true" : "false");
    if (!s->expect_resident)
        return;
    if (s->segment)
        fprintf(out, " segment=%u", s->segment);
    if (s->has_offset)
        fprintf(out, " offset=0x%llx (%s)", (unsigned long long)s->offset, wk_check_kind_name(WK_CHECK_CHOICE));
    if (s->has_bank)
        fprintf(out, " bank=%u", s->expect_bank);
}

/* An address inside an allocation (where it is resident when the step
 * runs) or an absolute one. */
static void dump_touch(const struct wk_step *s, FILE *out)
{
    if (s->relative)
        fprintf(out, " alloc%u+0x%llx", s->allocation, (unsigned long long)s->offset);
    else
        fprintf(out, " segment=%u offset=0x%llx", s->segment, (unsigned long long)s->offset);
    fprintf(out, " %s", s->write ? "write" : "read");
}

/* Steps on one allocation: fill, relocate, write, page_in... and the
 * checks of its bytes. expect_pattern's range is all of it unless the case
 * gave an offset or a size (0: to the end). */
static void dump_allocation_step(const struct wk_step *s, FILE *out)
{
    fprintf(out, " alloc%u", s->allocation);
    if (s->kind == WK_STEP_FILL || s->kind == WK_STEP_EXPECT_PATTERN || s->kind == WK_STEP_EXPECT_DIGEST)
        fprintf(out, " value=0x%llx", (unsigned long long)s->value);
    if (s->kind == WK_STEP_EXPECT_PATTERN && s->offset)
        fprintf(out, " offset=0x%llx", (unsigned long long)s->offset);
    if (s->kind == WK_STEP_EXPECT_PATTERN && s->size)
        fprintf(out, " size=%llu", (unsigned long long)s->size);
    if (s->kind == WK_STEP_RELOCATE)
        fprintf(out, " segment=%u", s->segment);
    if (s->length) {
        fprintf(out, " offset=0x%llx bytes=", (unsigned long long)s->offset);
        for (uint32_t b = 0; b < s->length && b < WK_PROG_MAX_BYTES; b++)
            fprintf(out, "%02x", s->data[b]);
    }
}

static void dump_step(const struct wk_step *s, uint32_t i, FILE *out)
{
    char tag[16];
    snprintf(tag, sizeof(tag), "[%s]", wk_check_kind_name(wk_step_check_kind(s)));
    fprintf(out, "  %3u: %-10s %-22s", i, tag, wk_step_keyword(s->kind));
    switch (s->kind) {
    case WK_STEP_CREATE_DEVICE: fprintf(out, " flags=0x%x", s->flags); break;
    case WK_STEP_DESTROY_DEVICE: fprintf(out, " device=%u", s->device); break;
    case WK_STEP_CREATE_CONTEXT: fprintf(out, " device=%u flags=0x%x", s->device, s->flags); break;
    case WK_STEP_DESTROY_CONTEXT: fprintf(out, " context=%u", s->context); break;
    case WK_STEP_CREATE_ALLOCATION:
        fprintf(out, " device=%u size=%llu align=%u preferred=0x%x banks=0x%x supported=0x%x eviction=0x%x flags=0x%x priority=%u",
                s->alloc.device, (unsigned long long)s->alloc.size, s->alloc.alignment, s->alloc.preferred,
                s->alloc.hinted_bank, s->alloc.supported_set, s->alloc.eviction_set, s->alloc.flags, s->alloc.priority);
        if (s->alloc.paging_buffers)
            fprintf(out, " sized=%u-paging-buffers", s->alloc.paging_buffers);
        break;
    case WK_STEP_RENDER: if (s->render) dump_render(s->render, out); break;
    case WK_STEP_PATCH: if (s->patch) dump_patch(s->patch, out); break;
    case WK_STEP_TOUCH_PHYSICAL: dump_touch(s, out); break;
    case WK_STEP_SIGNAL_FENCE:
        if (s->relative)
            fprintf(out, " alloc%u+0x%llx value=0x%llx", s->allocation, (unsigned long long)s->offset, (unsigned long long)s->value);
        else
            fprintf(out, " address=0x%llx value=0x%llx", (unsigned long long)s->address, (unsigned long long)s->value);
        break;
    case WK_STEP_HOLD: fprintf(out, " count=%llu", (unsigned long long)s->value); break;
    case WK_STEP_CANCEL: if (s->has_count) fprintf(out, " count=%u", s->count); break;
    case WK_STEP_QUEUE:
        fprintf(out, " count=%llu interrupts=%s", (unsigned long long)s->value,
                wk_prog_queue_interrupt_words[s->flags & WK_PROG_QUEUE_EACH]);
        break;
    case WK_STEP_WAIT_IDLE: break;
    case WK_STEP_EXPECT_STATS: dump_stats(s, out); break;
    case WK_STEP_EXPECT_PLACEMENT: dump_placement(s, out); break;
    case WK_STEP_EXPECT_CONTEXT_INFO:
        fprintf(out, " context=%u field=%u value=%llu", s->context, s->field, (unsigned long long)s->value);
        break;
    case WK_STEP_EXPECT_MULTIPASS: fprintf(out, " op=%s", wk_paging_op_words[s->op % 18]); break;
    case WK_STEP_VA_MAP:
        fprintf(out, " va=0x%llx alloc%u+0x%llx size=0x%llx%s", (unsigned long long)s->address, s->allocation,
                (unsigned long long)s->offset, (unsigned long long)s->size, s->read_only ? " read-only" : "");
        break;
    case WK_STEP_VA_UNMAP:
        fprintf(out, " va=0x%llx size=0x%llx", (unsigned long long)s->address, (unsigned long long)s->size);
        break;
    case WK_STEP_SUBMIT_VIRTUAL:
        if (s->op == WK_VIRTUAL_COPY)
            fprintf(out, " context=%u buffer=0x%llx copy 0x%llx to 0x%llx size=0x%llx", s->context,
                    (unsigned long long)s->address, (unsigned long long)s->value, (unsigned long long)s->offset,
                    (unsigned long long)s->size);
        else
            fprintf(out, " context=%u buffer=0x%llx fill 0x%llx size=0x%llx pattern=0x%08llx", s->context,
                    (unsigned long long)s->address, (unsigned long long)s->offset, (unsigned long long)s->size,
                    (unsigned long long)s->value);
        if (s->fault != WK_VA_FAULT_NONE)
            fprintf(out, " fault=%s", wk_prog_va_fault_words[s->fault % WK_VA_FAULT_COUNT]);
        break;
    case WK_STEP_END_PROCESS: if (!s->process) fprintf(out, " process=1"); break; /* any other: below */
    case WK_STEP_MOVE_ROOT_TABLE:
        if (s->flags & WK_PROG_ROOT_BY_COPY)
            fprintf(out, " copy");
        if (s->flags & WK_PROG_ROOT_SHRINK)
            fprintf(out, " shrink");
        break;
    case WK_STEP_EXPECT_VA:
        if (s->fault != WK_VA_FAULT_NONE)
            fprintf(out, " va=0x%llx fault=%s", (unsigned long long)s->address, wk_prog_va_fault_words[s->fault % WK_VA_FAULT_COUNT]);
        else
            fprintf(out, " va=0x%llx alloc%u+0x%llx size=0x%llx", (unsigned long long)s->address, s->allocation,
                    (unsigned long long)s->offset, (unsigned long long)s->size);
        break;
    default: dump_allocation_step(s, out); break;
    }
    if (s->process)
        fprintf(out, " process=%u", s->process + 1);
    if (s->expect_status != WK_OK)
        fprintf(out, " status=%s", wk_status_name(s->expect_status));
    fputc('\n', out);
}

/* The adapter: its summary line, each segment, and the knobs a case set
 * (a dumped fuzz input shows the whole adapter it ran on). */
static void dump_adapter(const struct wk_prog *p, FILE *out)
{
    const struct wk_vidmm_config *v = &p->vidmm;
    fprintf(out, "  adapter: %u segments, system %llu pages at PFN 0x%llx, paging buffer %u, QUERYSEGMENT%u\n",
            p->gpu.segment_count, (unsigned long long)p->gpu.sysmem_pages,
            (unsigned long long)p->gpu.sysmem_first_pfn, v->paging_buffer_size,
            v->query_segment_version ? v->query_segment_version : 3);
    for (uint32_t i = 0; i < p->gpu.segment_count && i < WK_PROG_MAX_SEGMENTS; i++) {
        const struct wk_gpu_segment_desc *s = &p->gpu.segments[i];
        fprintf(out, "    segment %u: %s [0x%llx, 0x%llx)", i + 1, s->kind == WK_GPU_SEGMENT_APERTURE ? "aperture" : "memory",
                (unsigned long long)s->base, (unsigned long long)(s->base + s->size));
        for (uint32_t b = 0; s->bank_count >= 2 && b + 1 < s->bank_count && b + 1 < WK_PROG_MAX_BANKS; b++)
            fprintf(out, "%s0x%llx", b ? ", " : ", bank ends ", (unsigned long long)s->bank_ends[b]);
        for (uint32_t r = 0; r < WK_ROLE_COUNT; r++)
            if (p->segment_roles[i] & (1u << r))
                fprintf(out, ", role %s", wk_role_word(r));
        fputc('\n', out);
    }
    if (v->transfer_chunk || v->split_submissions || v->max_passes || v->ddi_timeout_ms || v->seed)
        fprintf(out, "    transfer chunk %llu, split submissions %s, max passes %u, DDI timeout %u ms, seed %llu\n",
                (unsigned long long)v->transfer_chunk, v->split_submissions ? "on" : "off", v->max_passes,
                v->ddi_timeout_ms, (unsigned long long)v->seed);
    if (v->grown_patch_list)
        fprintf(out, "    Render gets a patch-location list %u times the context's\n", WK_VIDMM_PATCH_LIST_GROWTH);
    if (v->move_before_patch)
        fprintf(out, "    moves the listed allocations between each Render and its submission\n");
    if (v->check_ddi_table)
        fprintf(out, "    checks the DDI table (DDI-TABLE-001)\n");
    if (v->map_chunk)
        fprintf(out, "    maps an aperture allocation %u pages per operation\n", v->map_chunk);
    if (v->contiguous_pages)
        fprintf(out, "    an allocation's system pages in one run of frames where there is one\n");
    if (v->inject.what)
        fprintf(out, "    %s %u inside %s fails (counted from the case's start)\n",
                v->inject.what == WK_VIDMM_FAIL_POOL ? "pool allocation" : "DxgkCbCreateContextAllocation",
                v->inject.nth, wk_ddi_name(v->inject.ddi));
    if (v->device_error_at)
        fprintf(out, "    render submission %u fails as a device error\n", v->device_error_at);
    if (v->first_fence)
        fprintf(out, "    submission fence ids start at 0x%x\n", v->first_fence);
}

void wk_prog_dump(const struct wk_prog *p, FILE *out)
{
    fprintf(out, "case %s (%s:%u)\n", p->id, p->file[0] ? p->file : "-", p->line);
    if (p->describe[0])
        fprintf(out, "  describe: %s\n", p->describe);
    for (uint32_t i = 0; i < p->cover_count; i++)
        fprintf(out, "  covers: %s\n", p->covers[i]);
    dump_adapter(p, out);
    if (p->has_rewrite)
        fprintf(out, "  rewrite: %s call %u param %lld, trips %s\n", p->rewrite.mutation, p->rewrite.call,
                (long long)p->rewrite.param, p->trips);
    for (uint32_t i = 0; i < p->step_count; i++)
        dump_step(&p->steps[i], i, out);
}
