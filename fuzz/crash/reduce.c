/* SPDX-License-Identifier: MIT */
/*
 * reduce.c - the reduction of a program while its signature holds (and,
 * with a driver, while the reference keeps passing): steps removed by
 * delta debugging, each removal renumbering the objects later steps refer
 * to; then render records and list entries, patch locations, list entries
 * and DMA bytes; then every field tried at zero. A candidate with more
 * YAML problems than the best so far is never kept, so that what promote
 * writes stays writable.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash_internal.h"

enum { K_DEV, K_CTX, K_ALLOC };

/* The kind a step creates when it succeeds (-1: none). */
static int creates(const struct wk_step *s)
{
    if (s->expect_status != WK_OK)
        return -1;
    return s->kind == WK_STEP_CREATE_DEVICE ? K_DEV : s->kind == WK_STEP_CREATE_CONTEXT ? K_CTX
         : s->kind == WK_STEP_CREATE_ALLOCATION ? K_ALLOC : -1;
}

static void shift(uint32_t *ref, uint32_t gone)
{
    if (*ref > gone)
        (*ref)--;
}

/* After object `gone` of `kind` disappears, later ones move down by one. */
static void shift_refs(struct wk_step *s, int kind, uint32_t gone)
{
    struct wk_prog_render *r = s->render;
    if (kind == K_DEV && (s->kind == WK_STEP_DESTROY_DEVICE || s->kind == WK_STEP_CREATE_CONTEXT))
        shift(&s->device, gone);
    if (kind == K_DEV && s->kind == WK_STEP_CREATE_ALLOCATION)
        shift(&s->alloc.device, gone);
    if (kind == K_CTX && (s->kind == WK_STEP_DESTROY_CONTEXT || s->kind == WK_STEP_EXPECT_CONTEXT_INFO))
        shift(&s->context, gone);
    if (kind == K_CTX && r)
        shift(&r->context, gone);
    if (kind == K_CTX && s->patch)
        shift(&s->patch->context, gone);
    if (kind != K_ALLOC)
        return;
    int uses = s->kind == WK_STEP_TOUCH_PHYSICAL || s->kind == WK_STEP_SIGNAL_FENCE ? s->relative
             : s->kind >= WK_STEP_DESTROY_ALLOCATION && s->kind != WK_STEP_RENDER && s->kind != WK_STEP_HOLD &&
                   s->kind != WK_STEP_QUEUE && s->kind != WK_STEP_END_PROCESS && s->kind != WK_STEP_CANCEL && s->kind != WK_STEP_WAIT_IDLE && s->kind != WK_STEP_EXPECT_STATS &&
                   s->kind != WK_STEP_EXPECT_CONTEXT_INFO && s->kind != WK_STEP_PATCH &&
                   s->kind != WK_STEP_EXPECT_MULTIPASS && s->kind != WK_STEP_VA_UNMAP &&
                   !(s->kind == WK_STEP_EXPECT_VA && s->fault != WK_VA_FAULT_NONE);
    if (uses)
        shift(&s->allocation, gone);
    for (uint32_t i = 0; r && i < r->list_length; i++)
        if (r->list_alloc[i] > gone + 1)
            r->list_alloc[i]--;
    for (uint32_t i = 0; s->patch && i < s->patch->list_length; i++)
        if (s->patch->list[i].allocation > gone + 1)
            s->patch->list[i].allocation--;
}

static void remove_step(struct wk_prog *p, uint32_t at)
{
    int kind = creates(&p->steps[at]);
    if (kind >= 0) {
        uint32_t index = 0;
        for (uint32_t i = 0; i < at; i++)
            index += creates(&p->steps[i]) == kind;
        for (uint32_t i = at + 1; i < p->step_count; i++)
            shift_refs(&p->steps[i], kind, index);
    }
    free(p->steps[at].render);
    free(p->steps[at].patch);
    memmove(&p->steps[at], &p->steps[at + 1], (p->step_count - at - 1) * sizeof(p->steps[0]));
    p->step_count--;
    memset(&p->steps[p->step_count], 0, sizeof(p->steps[0]));
}

static void remove_record(struct wk_prog_render *r, uint32_t at)
{
    memmove(&r->records[at], &r->records[at + 1], (r->record_count - at - 1) * sizeof(r->records[0]));
    r->record_count--;
}

static void remove_entry(struct wk_prog_render *r, uint32_t at)
{
    memmove(&r->list_alloc[at], &r->list_alloc[at + 1], (r->list_length - at - 1) * sizeof(r->list_alloc[0]));
    memmove(&r->list_write[at], &r->list_write[at + 1], (r->list_length - at - 1) * sizeof(r->list_write[0]));
    r->list_length--;
    for (uint32_t i = 0; i < r->record_count; i++) {
        shift(&r->records[i].src.list_index, at);
        shift(&r->records[i].dst.list_index, at);
    }
}
static int yaml_problems(const struct wk_prog *p)
{
    int32_t first = 0;
    char why[8];
    return wk_prog_yaml_check(p, &first, why, sizeof(why));
}

/* Whether a candidate keeps the signature (and the reference passing). */
int wk_crash_keeps(struct mini *m, const struct wk_prog *cand)
{
    if (m->tests >= MINIMIZE_MAX_TESTS)
        return 0;
    int problems = yaml_problems(cand);
    if (problems > m->problems)
        return 0;
    m->tests++;
    static struct outcome o;
    wk_crash_run_program(cand, m->o->driver, m->o, &o);
    if (!wk_crash_same_result(&o, &m->want))
        return 0;
    if (m->need_ref_pass) {
        wk_crash_run_program(cand, NULL, m->o, &o);
        if (o.cls != CLS_PASS)
            return 0;
    }
    m->problems = problems;
    return 1;
}

/* An edit of a copy of *best; the copy replaces *best when it keeps. */
typedef void edit_fn(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t count);

int wk_crash_try_edit(struct mini *m, struct wk_prog **best, edit_fn *edit, uint32_t where, uint32_t at, uint32_t n)
{
    struct wk_prog *cand = wk_crash_prog_dup(*best);
    if (!cand)
        return 0;
    edit(cand, where, at, n);
    if (!wk_crash_keeps(m, cand)) {
        wk_crash_prog_del(cand);
        return 0;
    }
    wk_crash_prog_del(*best);
    *best = cand;
    return 1;
}

void wk_crash_cut_steps(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    (void)where;
    while (n--)
        remove_step(p, at + n);
}

static void cut_records(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    while (n--)
        remove_record(p->steps[where].render, at + n);
}

static void cut_entries(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    while (n--)
        remove_entry(p->steps[where].render, at + n);
}

/* How many things `edit` works on in *p (steps, records, entries). */
typedef uint32_t count_fn(const struct wk_prog *p, uint32_t where);

uint32_t wk_crash_count_steps(const struct wk_prog *p, uint32_t where)
{
    (void)where;
    return p->step_count;
}

static uint32_t count_records(const struct wk_prog *p, uint32_t where)
{
    const struct wk_prog_render *r = p->steps[where].render;
    return r && !r->raw ? r->record_count : 0;
}

static uint32_t count_entries(const struct wk_prog *p, uint32_t where)
{
    const struct wk_prog_render *r = p->steps[where].render;
    return r ? r->list_length : 0;
}

/* Chunked removal, halving the chunk (delta debugging's complement tests). */
void wk_crash_ddmin(struct mini *m, struct wk_prog **best, count_fn *count, edit_fn *cut, uint32_t where)
{
    uint32_t chunk = count(*best, where) / 2;
    chunk = chunk ? chunk : 1;
    while (count(*best, where) > 0 && m->tests < MINIMIZE_MAX_TESTS) {
        int removed = 0;
        for (uint32_t at = 0; at < count(*best, where);) {
            uint32_t n = count(*best, where) - at < chunk ? count(*best, where) - at : chunk;
            if (wk_crash_try_edit(m, best, cut, where, at, n))
                removed = 1;
            else
                at += n;
        }
        if (chunk == 1 && !removed)
            break;
        if (!removed || chunk > count(*best, where))
            chunk = chunk / 2 ? chunk / 2 : 1;
    }
}

/* Render records and list entries of every render step. */
static void reduce_renders(struct mini *m, struct wk_prog **best)
{
    for (uint32_t i = 0; i < (*best)->step_count; i++) {
        if ((*best)->steps[i].kind != WK_STEP_RENDER || !(*best)->steps[i].render)
            continue;
        wk_crash_ddmin(m, best, count_records, cut_records, i);
        wk_crash_ddmin(m, best, count_entries, cut_entries, i);
    }
}

/* Patch payloads: locations, list entries and DMA bytes, each removal
 * keeping the others' meaning (ranges and indices follow). */
static void remove_location(struct wk_prog_patch *g, uint32_t at)
{
    memmove(&g->patch[at], &g->patch[at + 1], (g->patch_length - at - 1) * sizeof(g->patch[0]));
    g->patch_length--;
    if (at < g->patch_start)
        g->patch_start--;
    else if (at < g->patch_start + g->patch_count)
        g->patch_count--;
}

static void remove_patch_entry(struct wk_prog_patch *g, uint32_t at)
{
    memmove(&g->list[at], &g->list[at + 1], (g->list_length - at - 1) * sizeof(g->list[0]));
    g->list_length--;
    for (uint32_t i = 0; i < g->patch_length; i++)
        shift(&g->patch[i].allocation_index, at);
}

#define DMA_BLOCK 16u

/* The k-th 16-byte block of the DMA content holding a non-zero byte. */
static uint32_t nonzero_block(const struct wk_prog_patch *g, uint32_t k)
{
    for (uint32_t b = 0; b * DMA_BLOCK < g->dma_length; b++) {
        uint32_t end = (b + 1) * DMA_BLOCK < g->dma_length ? (b + 1) * DMA_BLOCK : g->dma_length;
        int any = 0;
        for (uint32_t i = b * DMA_BLOCK; i < end && !any; i++)
            any = g->dma[i] != 0;
        if (any && k-- == 0)
            return b;
    }
    return UINT32_MAX;
}

static uint32_t count_dma_blocks(const struct wk_prog *p, uint32_t where)
{
    const struct wk_prog_patch *g = p->steps[where].patch;
    uint32_t n = 0;
    while (g && nonzero_block(g, n) != UINT32_MAX)
        n++;
    return n;
}

/* "Removing" a block zeroes it: offsets in the buffer keep their meaning. */
static void cut_dma_blocks(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    struct wk_prog_patch *g = p->steps[where].patch;
    uint32_t blocks[WK_PROG_MAX_DMA / DMA_BLOCK], k = 0;
    for (; k < n; k++)
        blocks[k] = nonzero_block(g, at + k);
    while (k--) {
        uint32_t from = blocks[k] * DMA_BLOCK, to = from + DMA_BLOCK < g->dma_length ? from + DMA_BLOCK : g->dma_length;
        if (blocks[k] != UINT32_MAX)
            memset(g->dma + from, 0, to - from);
    }
    wk_prog_patch_trim(g);
}

static uint32_t count_locations(const struct wk_prog *p, uint32_t where)
{
    return p->steps[where].patch ? p->steps[where].patch->patch_length : 0;
}

static void cut_locations(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    while (n--)
        remove_location(p->steps[where].patch, at + n);
}

static uint32_t count_patch_entries(const struct wk_prog *p, uint32_t where)
{
    return p->steps[where].patch ? p->steps[where].patch->list_length : 0;
}

static void cut_patch_entries(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    while (n--)
        remove_patch_entry(p->steps[where].patch, at + n);
}

static void reduce_patch(struct mini *m, struct wk_prog **best, uint32_t i)
{
    wk_crash_ddmin(m, best, count_locations, cut_locations, i);
    wk_crash_ddmin(m, best, count_patch_entries, cut_patch_entries, i);
    wk_crash_ddmin(m, best, count_dma_blocks, cut_dma_blocks, i);
}

static void reduce_patches(struct mini *m, struct wk_prog **best)
{
    for (uint32_t i = 0; i < (*best)->step_count; i++)
        if ((*best)->steps[i].kind == WK_STEP_PATCH && (*best)->steps[i].patch)
            reduce_patch(m, best, i);
}

/* ------------------------------------------------------------------ */
/* Minimizing: clearing fields                                          */
/* ------------------------------------------------------------------ */

struct field {
    void *ptr;
    size_t size;
};

#define F(x) (struct field){ &(x), sizeof(x) }

static uint32_t render_fields(struct wk_prog_render *r, struct field *f, uint32_t n)
{
    f[n++] = F(r->no_prepatch_info);
    for (uint32_t i = 0; i < r->list_length && i < WK_PROG_MAX_LIST; i++)
        f[n++] = F(r->list_write[i]);
    for (uint32_t i = 0; !r->raw && i < r->record_count && i < WK_PROG_MAX_RECORDS; i++) {
        struct wk_prog_record *c = &r->records[i];
        struct field more[] = { F(c->src.list_index), F(c->src.offset), F(c->dst.list_index), F(c->dst.offset),
                                F(c->size), F(c->value), F(c->width), F(c->height), F(c->src_pitch),
                                F(c->dst_pitch) };
        memcpy(f + n, more, sizeof(more));
        n += (uint32_t)(sizeof(more) / sizeof(more[0]));
    }
    return n;
}

static uint32_t patch_fields(struct wk_prog_patch *g, struct field *f, uint32_t n)
{
    f[n++] = F(g->start);
    for (uint32_t i = 0; i < g->list_length && i < WK_PROG_MAX_PATCH_LIST; i++) {
        struct wk_prog_patch_entry *e = &g->list[i];
        struct field more[] = { F(e->allocation), F(e->write), F(e->resident), F(e->segment_id), F(e->address) };
        memcpy(f + n, more, sizeof(more));
        n += (uint32_t)(sizeof(more) / sizeof(more[0]));
    }
    for (uint32_t i = 0; i < g->patch_length && i < WK_PROG_MAX_PATCHES; i++) {
        struct wk_prog_patch_location *l = &g->patch[i];
        struct field more[] = { F(l->allocation_index), F(l->slot_id), F(l->reserved), F(l->driver_id),
                                F(l->allocation_offset), F(l->patch_offset), F(l->split_offset) };
        memcpy(f + n, more, sizeof(more));
        n += (uint32_t)(sizeof(more) / sizeof(more[0]));
    }
    return n;
}

/* The fields of a step worth trying at zero (not its kind or status). */
static uint32_t step_fields(struct wk_step *s, struct field *f)
{
    struct field all[] = { F(s->device), F(s->context), F(s->allocation), F(s->flags), F(s->segment),
                           F(s->offset), F(s->value), F(s->address), F(s->relative), F(s->write),
                           F(s->alloc.device), F(s->alloc.size), F(s->alloc.alignment), F(s->alloc.preferred),
                           F(s->alloc.hinted_bank), F(s->alloc.supported_set), F(s->alloc.eviction_set),
                           F(s->alloc.flags), F(s->alloc.priority), F(s->expect_resident), F(s->expect_bank),
                           F(s->has_offset), F(s->has_bank), F(s->op), F(s->min), F(s->max), F(s->has_max),
                           F(s->field), F(s->size), F(s->has_count), F(s->count) };
    uint32_t n = (uint32_t)(sizeof(all) / sizeof(all[0]));
    memcpy(f, all, sizeof(all));
    if (s->render)
        n = render_fields(s->render, f, n);
    if (s->patch)
        n = patch_fields(s->patch, f, n);
    return n;
}

static int is_zero(const struct field *f)
{
    const unsigned char *b = f->ptr;
    for (size_t i = 0; i < f->size; i++)
        if (b[i])
            return 0;
    return 1;
}

static void clear_list(struct mini *m, struct wk_prog *best, const struct field *list, uint32_t n)
{
    for (uint32_t k = 0; k < n && m->tests < MINIMIZE_MAX_TESTS; k++) {
        unsigned char saved[8];
        if (is_zero(&list[k]))
            continue;
        memcpy(saved, list[k].ptr, list[k].size);
        memset(list[k].ptr, 0, list[k].size);
        if (!wk_crash_keeps(m, best))
            memcpy(list[k].ptr, saved, list[k].size);
    }
}

#define MAX_FIELDS (64 + WK_PROG_MAX_LIST + 10 * WK_PROG_MAX_RECORDS + 5 * WK_PROG_MAX_PATCH_LIST + \
                    7 * WK_PROG_MAX_PATCHES + 1)

/* Each non-zero field set to 0, kept at 0 when the signature holds. */
static void clear_fields(struct mini *m, struct wk_prog *best)
{
    static struct field f[MAX_FIELDS];
    struct field head[] = { F(best->has_rewrite), F(best->vidmm.paging_buffer_size), F(best->vidmm.transfer_chunk),
                            F(best->vidmm.split_submissions), F(best->vidmm.query_segment_version),
                            F(best->vidmm.grown_patch_list) };
    clear_list(m, best, head, (uint32_t)(sizeof(head) / sizeof(head[0])));
    for (uint32_t i = 0; i < best->step_count && m->tests < MINIMIZE_MAX_TESTS; i++)
        clear_list(m, best, f, step_fields(&best->steps[i], f));
}

/* fuzz_patch inputs: the patch step's entries, bytes and fields only, so
 * the program keeps the harness's shape (wk_patch_input_from_prog). */
void wk_crash_minimize_patch_step(struct mini *m, struct wk_prog **best)
{
    static struct field f[MAX_FIELDS];
    uint32_t last = (*best)->step_count - 1;
    m->problems = yaml_problems(*best);
    reduce_patch(m, best, last);
    struct wk_prog_patch *g = (*best)->steps[last].patch;
    clear_list(m, *best, f, patch_fields(g, f, 0));
    wk_prog_patch_trim(g);
}

/* fuzz_render inputs: the render step's user patch locations, list
 * entries and command-buffer words, then its fields, so the program keeps
 * the harness's shape (wk_render_input_from_prog). */
static uint32_t count_user_patches(const struct wk_prog *p, uint32_t where)
{
    return p->steps[where].render ? p->steps[where].render->patch_length : 0;
}

static void cut_user_patches(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    struct wk_prog_render *r = p->steps[where].render;
    memmove(&r->patch[at], &r->patch[at + n], (r->patch_length - at - n) * sizeof(r->patch[0]));
    r->patch_length -= n;
}

/* The raw command buffer in 4-byte words (umd.h's records are made of
 * them); the last word may be short. */
static uint32_t count_words(const struct wk_prog *p, uint32_t where)
{
    const struct wk_prog_render *r = p->steps[where].render;
    return r && r->raw ? (r->raw_length + 3) / 4 : 0;
}

static void cut_words(struct wk_prog *p, uint32_t where, uint32_t at, uint32_t n)
{
    struct wk_prog_render *r = p->steps[where].render;
    uint32_t from = 4 * at, to = 4 * (at + n) < r->raw_length ? 4 * (at + n) : r->raw_length;
    memmove(r->raw_bytes + from, r->raw_bytes + to, r->raw_length - to);
    r->raw_length -= to - from;
}

#define RENDER_FIELDS (2 + 2 * WK_PROG_MAX_LIST + 7 * WK_PROG_MAX_USER_PATCHES + WK_PROG_MAX_COMMAND / 4)

/* The context's kind (plain or GDI), then the render's fields and words. */
static uint32_t render_input_fields(struct wk_prog *p, struct field *f)
{
    struct wk_prog_render *r = p->steps[p->step_count - 1].render;
    uint32_t n = 0;
    f[n++] = F(p->steps[1].flags);
    f[n++] = F(r->no_prepatch_info);
    for (uint32_t i = 0; i < r->list_length; i++) {
        f[n++] = F(r->list_alloc[i]);
        f[n++] = F(r->list_write[i]);
    }
    for (uint32_t i = 0; i < r->patch_length; i++) {
        struct wk_prog_patch_location *l = &r->patch[i];
        struct field more[] = { F(l->allocation_index), F(l->slot_id), F(l->reserved), F(l->driver_id),
                                F(l->allocation_offset), F(l->patch_offset), F(l->split_offset) };
        memcpy(f + n, more, sizeof(more));
        n += (uint32_t)(sizeof(more) / sizeof(more[0]));
    }
    for (uint32_t at = 0; at < r->raw_length; at += 4)
        f[n++] = (struct field){ r->raw_bytes + at, r->raw_length - at < 4 ? r->raw_length - at : 4 };
    return n;
}

void wk_crash_minimize_render_step(struct mini *m, struct wk_prog **best)
{
    static struct field f[RENDER_FIELDS];
    uint32_t last = (*best)->step_count - 1;
    m->problems = yaml_problems(*best);
    wk_crash_ddmin(m, best, count_user_patches, cut_user_patches, last);
    wk_crash_ddmin(m, best, count_entries, cut_entries, last);
    wk_crash_ddmin(m, best, count_words, cut_words, last);
    clear_list(m, *best, f, render_input_fields(*best, f));
}

/* The whole reduction; *best is replaced by the smallest program found. */
void wk_crash_minimize_prog(struct mini *m, struct wk_prog **best)
{
    m->problems = yaml_problems(*best);
    wk_crash_ddmin(m, best, wk_crash_count_steps, wk_crash_cut_steps, 0);
    reduce_renders(m, best);
    reduce_patches(m, best);
    wk_crash_ddmin(m, best, wk_crash_count_steps, wk_crash_cut_steps, 0);
    clear_fields(m, *best);
}

/* Sets up the reduction of p: its signature on the driver, and whether the
 * reference must keep passing. Returns -1 (printed) when p passes. */
int wk_crash_mini_init(struct mini *m, const struct wk_crash_options *o, const struct wk_prog *p)
{
    memset(m, 0, sizeof(*m));
    m->o = o;
    const char *harness = wk_crash_harness_of(o, o->path);
    if (wk_crash_judged_by_harness(o, harness)) {
        /* The finding must be the harness's (harness.c says why): a
         * program that fails only on a status the reference's placement
         * explains is not reduced into a regression. */
        static struct outcome judged;
        wk_crash_run_replay(harness, o->path, o->driver, o->timeout_ms, &judged);
        if (judged.cls == CLS_PASS) {
            fprintf(stderr, "wddmkit: %s passes on %s as %s judges it (its comparison with the reference driver): "
                            "no finding to keep while reducing\n", o->path, o->driver, harness);
            return -1;
        }
        /* What repro, triage and the campaign call it; the reduction keeps
         * the calibrated program's failure, printed next (its own words) */
        printf("judged by %s_replay: %s\n", harness, judged.sig);
    }
    wk_crash_run_program(p, o->driver, o, &m->want);
    if (m->want.cls == CLS_PASS && wk_crash_judged_by_harness(o, harness)) {
        /* the harness finds it, the calibrated program (what is reduced and
         * written as a case) does not: say which, not "passes" */
        fprintf(stderr, "wddmkit: %s_replay finds this input on %s, but its calibrated program passes there (the "
                        "program form cannot say what the harness did: a bare patch step, a differential of "
                        "statuses): nothing to reduce. The input reproduces as it is: wddmkit repro %s --driver %s\n",
                harness, o->driver, o->path, o->driver);
        return -1;
    }
    if (m->want.cls == CLS_PASS) {
        fprintf(stderr, "wddmkit: %s passes on %s: no finding to keep while reducing\n", o->path,
                o->driver ? o->driver : "the reference driver");
        return -1;
    }
    if (o->driver) {
        static struct outcome ref;
        wk_crash_run_program(p, NULL, o, &ref);
        m->need_ref_pass = ref.cls == CLS_PASS;
    }
    return 0;
}
