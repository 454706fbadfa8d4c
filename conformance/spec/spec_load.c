/* SPDX-License-Identifier: MIT */
/*
 * spec_load.c - a parsed spec document to programs: the file's keys, each
 * case's keys, the adapter and the rewrite (steps are in spec_steps.c).
 *
 * A case is compiled into a fresh program that starts as a copy of the
 * file's template (the reference adapter with the file's `adapter:` keys
 * applied); the case's own `adapter:` keys then override it key by key.
 * An adapter that names segments or system memory is judged by the GPU
 * model's own check (wk_gpu_check_desc, the one wk_gpu_create runs), so an
 * overlap or a bad bank table is reported at the spec's position with the
 * model's reason, not later by the runner.
 *
 * Errors never stop the load: a case with an error is reported and dropped,
 * and the next case is compiled; a file-level error (area, adapter) drops
 * every case of the file but their own errors are still reported.
 */
#include <stdlib.h>
#include <string.h>

#include "spec_internal.h"

#define PAGE 4096ull

/* ------------------------------------------------------------------ */
/* Adapter                                                              */
/* ------------------------------------------------------------------ */

static const char *const adapter_keys[] = { "segments", "system", "paging_buffer", "query_segment",
                                            "transfer_chunk", "map_chunk", "max_passes", "split_submissions", "grown_patch_list", "move_before_patch",
                                            "ddi_timeout_ms", "seed", "check_ddi_table", "contiguous_pages",
                                            "device_error_at", "fail", "first_fence", NULL };
static const char *const segment_keys[] = { "kind", "base", "size", "banks", "role", NULL };
static const char *const role_words[] = { "banked", "cpu_visible", NULL }; /* WK_ROLE_* bit order */
static const char *const segment_required[] = { "kind", "base", "size", NULL };
static const char *const segment_kinds[] = { "memory", "aperture", NULL };
static const char *const system_keys[] = { "first_pfn", "pages", NULL };

#define MAX_BANK_ENDS (WK_PROG_MAX_BANKS - 1u)

static int page_multiple(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, uint64_t v)
{
    if (v % PAGE == 0)
        return 1;
    char seen[160];
    spec_error(c, wk_ymap_get(map, key), "key '%s': expected a multiple of 4KiB, saw %s", key,
               spec_seen(wk_ymap_get(map, key), seen, sizeof(seen)));
    return -1;
}

/* banks: end offsets of banks 1..N-1, strictly increasing inside the segment. */
static void load_banks(struct wk_spec_ctx *c, const struct wk_ynode *list, uint64_t size,
                       struct wk_gpu_segment_desc *s, uint64_t *ends)
{
    if (spec_seq(c, list, "key 'banks'", MAX_BANK_ENDS, 0) < 0)
        return;
    uint64_t prev = 0;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "banks[%u]", i);
        uint64_t end = 0;
        char a[32], b[32], form[128];
        snprintf(form, sizeof(form), "a bank end above %s and below the segment size %s, a multiple of 4KiB",
                 spec_format_size(prev, a, sizeof(a)), spec_format_size(size, b, sizeof(b)));
        int r = spec_size(c, e, NULL, 0, UINT64_MAX, &end);
        if (r == 1 && (end <= prev || end >= size || end % PAGE)) {
            char seen[160];
            spec_error(c, e, "expected %s, saw %s", form, spec_seen(e, seen, sizeof(seen)));
        }
        prev = end > prev ? end : prev;
        ends[i] = end;
        spec_scope_pop(c, mark);
    }
    s->bank_count = list->count + 1;
}

/*
 * role: what the case needs of the driver's segment that plays this one on
 * a driver with a layout of its own (prog.h, "Segment roles"): banks, CPU
 * visibility. Only a memory segment has either, and `banked` describes a
 * segment with banks, so the case means the same on the reference adapter.
 */
static void load_role(struct wk_spec_ctx *c, const struct wk_ynode *m, const struct wk_gpu_segment_desc *s,
                      uint32_t *roles)
{
    const struct wk_ynode *role = wk_ymap_get(m, "role");
    if (!role)
        return;
    spec_get_word_set(c, m, "role", role_words, "a segment role", roles);
    if (*roles && s->kind == WK_GPU_SEGMENT_APERTURE)
        spec_error(c, role, "key 'role': roles are for memory segments, this one is an aperture");
    else if ((*roles & WK_ROLE_BANKED) && s->bank_count < 2)
        spec_error(c, role, "key 'role': 'banked' needs key 'banks' (a segment with banks)");
}

static void load_segment(struct wk_spec_ctx *c, const struct wk_ynode *m, struct wk_gpu_segment_desc *s,
                         uint64_t *ends, uint32_t *roles)
{
    if (spec_map(c, m, NULL) < 0 || spec_check_keys(c, m, segment_keys, segment_required))
        return;
    uint32_t kind = 0;
    if (spec_get_word(c, m, "kind", segment_kinds, "a segment kind", &kind) == 1)
        s->kind = kind ? WK_GPU_SEGMENT_APERTURE : WK_GPU_SEGMENT_MEMORY;
    if (spec_get_u64(c, m, "base", 0, UINT64_MAX, &s->base) == 1)
        page_multiple(c, m, "base", s->base);
    if (spec_get_size(c, m, "size", PAGE, WK_PROG_MAX_SEGMENT, &s->size) == 1)
        page_multiple(c, m, "size", s->size);
    const struct wk_ynode *banks = wk_ymap_get(m, "banks");
    if (banks && s->kind == WK_GPU_SEGMENT_APERTURE)
        spec_error(c, banks, "key 'banks': only memory segments have banks, this one is an aperture");
    else if (banks)
        load_banks(c, banks, s->size, s, ends);
    load_role(c, m, s, roles);
}

static void load_segments(struct wk_spec_ctx *c, const struct wk_ynode *list)
{
    if (spec_seq(c, list, "key 'segments'", WK_PROG_MAX_SEGMENTS, 0) < 0)
        return;
    struct wk_gpu_segment_desc segs[WK_PROG_MAX_SEGMENTS];
    uint64_t ends[WK_PROG_MAX_SEGMENTS][WK_PROG_MAX_BANKS];
    uint32_t roles[WK_PROG_MAX_SEGMENTS];
    memset(segs, 0, sizeof(segs));
    memset(ends, 0, sizeof(ends));
    memset(roles, 0, sizeof(roles));
    uint32_t before = c->errors, i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "segments[%u]", i);
        load_segment(c, e, &segs[i], ends[i], &roles[i]);
        spec_scope_pop(c, mark);
    }
    if (c->errors != before)
        return; /* keep the old adapter: later checks would only echo these errors */
    struct wk_prog *p = c->p;
    p->gpu.segment_count = list->count;
    memcpy(p->segment_roles, roles, sizeof(roles));
    for (i = 0; i < list->count; i++) {
        p->segments[i] = segs[i];
        memcpy(p->bank_ends[i], ends[i], sizeof(ends[i]));
        p->segments[i].bank_ends = p->bank_ends[i];
    }
}

static void load_system(struct wk_spec_ctx *c, const struct wk_ynode *m)
{
    uint32_t mark = spec_scope_push(c, "system");
    if (spec_map(c, m, NULL) == 1 && spec_check_keys(c, m, system_keys, NULL) == 0) {
        spec_get_u64(c, m, "first_pfn", 0, (1ull << 40) - 1, &c->p->gpu.sysmem_first_pfn);
        spec_get_u64(c, m, "pages", 1, 65536, &c->p->gpu.sysmem_pages);
    }
    spec_scope_pop(c, mark);
}

/* The DDIs a step calls, where a failure may end the case: the adapter's
 * own start and teardown (DriverEntry, AddDevice, StartDevice, the queries,
 * StopDevice, RemoveDevice, Unload) have no step to end, and a callback or
 * a DPC is not a call the driver may fail. */
static const enum wk_ddi fail_ddis[] = { WK_DDI_CREATE_DEVICE, WK_DDI_DESTROY_DEVICE, WK_DDI_CREATE_ALLOCATION,
                                         WK_DDI_DESTROY_ALLOCATION, WK_DDI_CREATE_CONTEXT, WK_DDI_DESTROY_CONTEXT,
                                         WK_DDI_BUILD_PAGING_BUFFER, WK_DDI_RENDER, WK_DDI_PATCH,
                                         WK_DDI_SUBMIT_COMMAND, WK_DDI_CANCEL_COMMAND };

static int fail_ddi_ok(struct wk_spec_ctx *c, const struct wk_ynode *f, enum wk_ddi ddi)
{
    char list[320] = "";
    size_t at = 0;
    for (size_t i = 0; i < sizeof(fail_ddis) / sizeof(fail_ddis[0]); i++) {
        if (fail_ddis[i] == ddi)
            return 1;
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", wk_ddi_name(fail_ddis[i]) + 7);
    }
    spec_error(c, wk_ymap_get(f, "ddi"), "key 'ddi': expected a DDI a step calls (%s), saw '%s'", list,
               wk_ddi_name(ddi) + (strncmp(wk_ddi_name(ddi), "DxgkDdi", 7) == 0 ? 7 : 0));
    return 0;
}

/* fail: {what: pool | create_context_allocation, ddi: Name, nth: N}: the
 * failure the kit plays (vidmm.h, struct wk_vidmm_injection). */
static void load_fail(struct wk_spec_ctx *c, const struct wk_ynode *map)
{
    static const char *const keys[] = { "what", "ddi", "nth", NULL };
    static const char *const whats[] = { "pool", "create_context_allocation", NULL };
    const struct wk_ynode *f = wk_ymap_get(map, "fail");
    if (!f)
        return;
    uint32_t mark = spec_scope_push(c, "fail");
    struct wk_vidmm_injection *in = &c->p->vidmm.inject;
    uint32_t what = 0;
    if (spec_map(c, f, NULL) == 1 && spec_check_keys(c, f, keys, keys) == 0 &&
        spec_get_word(c, f, "what", whats, "what fails", &what) == 1 &&
        spec_get_ddi(c, f, "ddi", &in->ddi) == 1 && fail_ddi_ok(c, f, in->ddi) &&
        spec_get_u32(c, f, "nth", 1, 65536, &in->nth) == 1)
        in->what = what == 0 ? WK_VIDMM_FAIL_POOL : WK_VIDMM_FAIL_CREATE_CONTEXT_ALLOCATION;
    spec_scope_pop(c, mark);
}

static void load_tuning(struct wk_spec_ctx *c, const struct wk_ynode *map)
{
    struct wk_vidmm_config *v = &c->p->vidmm;
    uint64_t size = 0;
    if (spec_get_size(c, map, "paging_buffer", 0, 64ull << 20, &size) == 1)
        v->paging_buffer_size = (uint32_t)size;
    spec_get_u32(c, map, "query_segment", 3, 4, &v->query_segment_version);
    if (spec_get_size(c, map, "transfer_chunk", 0, WK_PROG_MAX_SEGMENT, &size) == 1 &&
        page_multiple(c, map, "transfer_chunk", size) == 1)
        v->transfer_chunk = size;
    spec_get_u32(c, map, "map_chunk", 1, 65536, &v->map_chunk);
    spec_get_u32(c, map, "max_passes", 1, 65536, &v->max_passes);
    spec_get_bool(c, map, "split_submissions", &v->split_submissions);
    spec_get_bool(c, map, "grown_patch_list", &v->grown_patch_list);
    spec_get_bool(c, map, "move_before_patch", &v->move_before_patch);
    spec_get_u64(c, map, "seed", 0, UINT64_MAX, &v->seed);
    spec_get_u32(c, map, "ddi_timeout_ms", 1, 60000, &v->ddi_timeout_ms);
    spec_get_bool(c, map, "check_ddi_table", &v->check_ddi_table);
    spec_get_bool(c, map, "contiguous_pages", &v->contiguous_pages);
    load_fail(c, map);
    spec_get_u32(c, map, "device_error_at", 1, 65536, &v->device_error_at);
    /* any UINT but 0, which is no fence id (vidmm.h, first_fence) */
    spec_get_u32(c, map, "first_fence", 1, UINT32_MAX, &v->first_fence);
}

uint32_t spec_load_adapter(struct wk_spec_ctx *c, const struct wk_ynode *map)
{
    uint32_t before = c->errors;
    uint32_t mark = spec_scope_push(c, "adapter");
    if (spec_map(c, map, NULL) == 1 && spec_check_keys(c, map, adapter_keys, NULL) == 0) {
        const struct wk_ynode *segs = wk_ymap_get(map, "segments"), *sys = wk_ymap_get(map, "system");
        if (segs)
            load_segments(c, segs);
        if (sys)
            load_system(c, sys);
        load_tuning(c, map);
        if (c->errors == before && (segs || sys))
            spec_check_gpu(c, map);
    }
    spec_scope_pop(c, mark);
    return c->errors - before;
}

uint32_t spec_check_gpu(struct wk_spec_ctx *c, const struct wk_ynode *at)
{
    char why[256];
    if (wk_gpu_check_desc(&c->p->gpu, why, sizeof(why)) == WK_OK)
        return 0;
    spec_error(c, at, "the GPU model refuses this adapter: %s", why);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Names, rules, rewrite                                                */
/* ------------------------------------------------------------------ */

/* [a-z0-9] first, then [a-z0-9.-], no "..", no final '.'. */
int spec_dotted_name(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
        return 0;
    for (const char *q = s; *q; q++) {
        int ok = (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '-' || *q == '.';
        if (!ok || (q[0] == '.' && (q[1] == '.' || q[1] == '\0')))
            return 0;
    }
    return 1;
}

static int load_dotted(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, char *out, size_t max)
{
    const struct wk_ynode *v = wk_ymap_get(map, key);
    char what[32], form[192];
    snprintf(what, sizeof(what), "key '%s'", key);
    snprintf(form, sizeof(form),
             "an %s of at most %zu characters from [a-z0-9.-], starting with a letter or digit, with no '..' and "
             "no final '.'",
             key, max - 1);
    if (v && v->kind == WK_Y_SCALAR && !spec_is_null(v) && v->length < max && strlen(v->text) == v->length &&
        spec_dotted_name(v->text)) {
        memcpy(out, v->text, v->length + 1);
        return 1;
    }
    char seen[160];
    spec_error(c, v, "%s: expected %s, saw %s", what, form, spec_seen(v, seen, sizeof(seen)));
    return -1;
}

static int load_rule(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, char *out)
{
    if (n && n->kind == WK_Y_SCALAR && strlen(n->text) == n->length && wk_rule_find(n->text) &&
        n->length < 24) {
        memcpy(out, n->text, n->length + 1);
        return 1;
    }
    char seen[160];
    spec_error(c, n, "%s%sexpected a rule ID of the catalogue (see `wddmkit rules`), saw %s", what ? what : "",
               what ? ": " : "", spec_seen(n, seen, sizeof(seen)));
    return -1;
}

static void load_covers(struct wk_spec_ctx *c, const struct wk_ynode *list)
{
    if (spec_seq(c, list, "key 'covers'", WK_PROG_MAX_RULES, 0) < 0)
        return;
    struct wk_prog *p = c->p;
    for (const struct wk_ynode *e = list->child; e; e = e->next) {
        uint32_t mark = spec_scope_push(c, "covers[%u]", p->cover_count);
        char rule[24];
        if (load_rule(c, e, NULL, rule) == 1) {
            for (uint32_t i = 0; i < p->cover_count; i++)
                if (strcmp(p->covers[i], rule) == 0)
                    spec_error(c, e, "rule %s is listed twice", rule);
            memcpy(p->covers[p->cover_count], rule, sizeof(rule));
        }
        p->cover_count++;
        spec_scope_pop(c, mark);
    }
}

const char *const wk_requires_words[] = { "cancel", "render", "model", "banks", "reference-driver", "gpu-model-limits", NULL };

static void load_requires(struct wk_spec_ctx *c, const struct wk_ynode *list)
{
    const char *const *words = wk_requires_words;
    if (spec_seq(c, list, "key 'requires'", WK_REQ_COUNT, 0) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "requires[%u]", i), w = 0;
        if (spec_word(c, e, NULL, words, "a capability", &w) == 1) {
            if (c->p->requires & (1u << w))
                spec_error(c, e, "capability %s is listed twice", words[w]);
            c->p->requires |= 1u << w; /* the order of the WK_REQ_* bits */
            if ((1u << w) == WK_REQ_MODEL) /* never checked; kept so that old specs load */
                spec_warning(c, e, "requires: model is deprecated: the kind of each check says what needs "
                                   "the GPU model (docs/verdicts.md)");
        }
        spec_scope_pop(c, mark);
    }
}

static void load_rewrite(struct wk_spec_ctx *c, const struct wk_ynode *m)
{
    static const char *const keys[] = { "mutation", "call", "param", NULL };
    static const char *const required[] = { "mutation", NULL };
    uint32_t mark = spec_scope_push(c, "rewrite");
    struct wk_prog *p = c->p;
    if (spec_map(c, m, NULL) == 1 && spec_check_keys(c, m, keys, required) == 0) {
        const struct wk_ynode *v = wk_ymap_get(m, "mutation");
        if (v->kind == WK_Y_SCALAR && strlen(v->text) == v->length && wk_mutation_find(v->text) &&
            v->length < sizeof(p->rewrite.mutation)) {
            memcpy(p->rewrite.mutation, v->text, v->length + 1);
        } else {
            char seen[160];
            spec_error(c, v, "key 'mutation': expected a mutation of the catalogue "
                             "(see `wddmkit spec mutations`), saw %s",
                       spec_seen(v, seen, sizeof(seen)));
        }
        p->rewrite.call = 1;
        spec_get_u32(c, m, "call", 0, UINT32_MAX, &p->rewrite.call);
        const struct wk_ynode *param = wk_ymap_get(m, "param");
        if (param)
            spec_i64(c, param, "key 'param'", &p->rewrite.param);
        p->has_rewrite = 1;
    }
    spec_scope_pop(c, mark);
}

/* rewrite and trips come together: a negative case names what it corrupts
 * and the rule that must notice. */
static void load_negative(struct wk_spec_ctx *c, const struct wk_ynode *m)
{
    const struct wk_ynode *rewrite = wk_ymap_get(m, "rewrite"), *trips = wk_ymap_get(m, "trips");
    if (rewrite)
        load_rewrite(c, rewrite);
    if (trips)
        load_rule(c, trips, "key 'trips'", c->p->trips);
    if (rewrite && !trips)
        spec_error(c, wk_ymap_key(m, "rewrite"),
                   "key 'rewrite' needs key 'trips' (the rule the corrupted answer must trip)");
    if (trips && !rewrite)
        spec_error(c, wk_ymap_key(m, "trips"), "key 'trips' needs key 'rewrite' (only a negative case trips a rule)");
}

/* ------------------------------------------------------------------ */
/* Cases and files                                                      */
/* ------------------------------------------------------------------ */

static const char *const case_keys[] = { "id", "describe", "covers", "requires", "adapter", "registry", "pci_config",
                                         "rewrite", "trips", "steps", "expect", NULL };
static const char *const case_required[] = { "id", "describe", NULL };

/* The program's adapter points into the program itself. */
static void fix_pointers(struct wk_prog *p)
{
    p->gpu.segments = p->segments;
    for (uint32_t i = 0; i < WK_PROG_MAX_SEGMENTS; i++)
        p->segments[i].bank_ends = p->bank_ends[i];
}

/* The id: well formed and inside the file's area; the scope then names it. */
static int load_id(struct wk_spec_ctx *c, const struct wk_ynode *m, const char *area)
{
    struct wk_prog *p = c->p;
    if (load_dotted(c, m, "id", p->id, sizeof(p->id)) < 0)
        return -1;
    size_t n = strlen(area);
    if (area[0] && (strncmp(p->id, area, n) != 0 || p->id[n] != '.')) {
        spec_error(c, wk_ymap_get(m, "id"), "key 'id': expected an id starting with the area '%s.', saw '%s'", area,
                   p->id);
        return -1;
    }
    return 1;
}

static void load_case_body(struct wk_spec_ctx *c, const struct wk_ynode *m)
{
    struct wk_prog *p = c->p;
    const struct wk_ynode *v;
    if ((v = wk_ymap_get(m, "describe")))
        spec_string(c, v, "key 'describe'", p->describe, sizeof(p->describe));
    if ((v = wk_ymap_get(m, "covers")))
        load_covers(c, v);
    if ((v = wk_ymap_get(m, "requires")))
        load_requires(c, v);
    if ((v = wk_ymap_get(m, "adapter")))
        spec_load_adapter(c, v);
    if ((v = wk_ymap_get(m, "registry")))
        spec_load_registry(c, v);
    if ((v = wk_ymap_get(m, "pci_config")))
        spec_load_pci_config(c, v);
    load_negative(c, m);
    const struct wk_ynode *steps = wk_ymap_get(m, "steps"), *expect = wk_ymap_get(m, "expect");
    if (steps || expect)
        spec_load_steps(c, steps, expect);
}

struct file_state {
    struct wk_spec_set *set;
    const struct wk_prog *tmpl;  /* reference adapter + the file's adapter */
    const char *area;            /* "" when the area is invalid */
    int file_ok;
    wk_status status;
};

static void load_case(struct wk_spec_ctx *c, struct file_state *f, const struct wk_ynode *m, uint32_t index)
{
    uint32_t mark = spec_scope_push(c, "cases[%u]", index);
    c->errors = 0;
    if (spec_map(c, m, NULL) < 0) {
        spec_scope_pop(c, mark);
        return;
    }
    struct wk_prog *p = malloc(sizeof(*p));
    if (!p) {
        spec_error(c, m, "out of host memory");
        f->status = WK_E_NO_MEMORY;
        spec_scope_pop(c, mark);
        return;
    }
    memcpy(p, f->tmpl, sizeof(*p));
    fix_pointers(p);
    c->p = p;
    c->name_count = 0;
    memset(c->created, 0, sizeof(c->created));
    snprintf(p->file, sizeof(p->file), "%s", c->file);
    snprintf(p->area, sizeof(p->area), "%s", f->area);
    p->line = m->line;
    if (wk_ymap_get(m, "id") && load_id(c, m, f->area) == 1) {
        spec_scope_pop(c, mark);
        spec_scope_push(c, "case '%s'", p->id);
    }
    spec_check_keys(c, m, case_keys, case_required); /* and go on: report every error of the case */
    load_case_body(c, m);
    c->p = NULL;
    if (c->errors == 0 && f->file_ok) {
        wk_status st = spec_set_add(f->set, c, p, wk_ymap_get(m, "id"));
        if (st != WK_OK && f->status != WK_E_NO_MEMORY)
            f->status = st;
    } else {
        wk_prog_free(p);
        free(p);
    }
    spec_scope_pop(c, mark);
}

static const char *const file_keys[] = { "area", "adapter", "cases", NULL };
static const char *const file_required[] = { "area", "cases", NULL };

/* The file's keys; fills the area and the template. */
static void load_file_keys(struct wk_spec_ctx *c, struct file_state *f, const struct wk_ynode *root, char *area,
                           size_t area_size)
{
    if (spec_check_keys(c, root, file_keys, file_required))
        f->file_ok = 0;
    if (wk_ymap_get(root, "area") && load_dotted(c, root, "area", area, area_size) == 1)
        f->area = area;
    else
        f->file_ok = 0;
    const struct wk_ynode *adapter = wk_ymap_get(root, "adapter");
    if (adapter && spec_load_adapter(c, adapter))
        f->file_ok = 0;
}

wk_status spec_load_tree(struct wk_spec_set *set, const char *name, const struct wk_ytree *t, struct wk_diag *d)
{
    struct wk_spec_ctx *c = calloc(1, sizeof(*c));
    struct wk_prog *tmpl = malloc(sizeof(*tmpl));
    if (!c || !tmpl) {
        free(c);
        free(tmpl);
        wk_diag_addf(d, "%s: out of host memory", name);
        return WK_E_NO_MEMORY;
    }
    uint32_t errors_before = d->errors;
    c->d = d;
    c->file = name;
    wk_prog_init(tmpl);
    c->p = tmpl;
    char area[sizeof(tmpl->area)] = "";
    struct file_state f = { set, tmpl, "", 1, WK_OK };
    const struct wk_ynode *root = t->root;
    if (!root || root->kind != WK_Y_MAPPING) {
        char seen[160];
        spec_error(c, root, "expected a mapping with the keys 'area' and 'cases', saw %s",
                   spec_seen(root, seen, sizeof(seen)));
    } else {
        load_file_keys(c, &f, root, area, sizeof(area));
        const struct wk_ynode *cases = wk_ymap_get(root, "cases");
        if (cases && spec_seq(c, cases, "key 'cases'", WK_SPEC_MAX_CASES_PER_FILE, 0) == 1) {
            uint32_t i = 0;
            for (const struct wk_ynode *m = cases->child; m && f.status != WK_E_NO_MEMORY; m = m->next, i++)
                load_case(c, &f, m, i);
        }
    }
    free(c);
    free(tmpl);
    if (f.status != WK_OK)
        return f.status;
    return d->errors != errors_before ? WK_E_INVALID_ARGUMENT : WK_OK;
}
