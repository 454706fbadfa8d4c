/* SPDX-License-Identifier: MIT */
/*
 * spec_steps.c - a case's `steps:` and `expect:` to program steps.
 *
 * One table row per step keyword (the order of WK_STEP_MAP) gives the
 * argument keys it takes, those it requires, and its loader. Objects are
 * named in the spec and by creation index in the program: a create step
 * that is expected to succeed takes the next index of its kind (the
 * interpreter's numbering: only successful creations count) and a name,
 * `as:` or the default device0/context0/alloc0...; every reference must
 * name an object of the right kind created by an earlier step of the case.
 * Segment ids, banks and aperture sets are checked against the case's own
 * adapter. The render step is in spec_render.c, the checks in spec_checks.c.
 */
#include <stdlib.h>
#include <string.h>

#include "spec_internal.h"

#define PAGE 4096ull

/* ------------------------------------------------------------------ */
/* Names                                                                */
/* ------------------------------------------------------------------ */

static const char *const kind_words[] = { "device", "context", "allocation" };
static const char *const default_prefix[] = { "device", "context", "alloc" };

static const struct wk_spec_name *find_name(const struct wk_spec_ctx *c, const char *name)
{
    for (uint32_t i = 0; i < c->name_count; i++)
        if (strcmp(c->names[i].name, name) == 0)
            return &c->names[i];
    return NULL;
}

static int name_syntax(const struct wk_ynode *n)
{
    if (!n || n->kind != WK_Y_SCALAR || spec_is_null(n) || n->length >= WK_SPEC_NAME_MAX ||
        strlen(n->text) != n->length)
        return 0;
    for (uint32_t i = 0; i < n->length; i++) {
        char ch = n->text[i];
        int alpha = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
        if (!alpha && (i == 0 || !((ch >= '0' && ch <= '9') || ch == '-' || ch == '.')))
            return 0;
    }
    return 1;
}

/* A create step: the object's index, and its name from `as` or the default. */
static uint32_t define(struct wk_spec_ctx *c, const struct wk_ynode *args, const struct wk_ynode *at,
                       enum wk_obj_kind kind, wk_status expect)
{
    const struct wk_ynode *as = wk_ymap_get(args, "as");
    char seen[160];
    if (expect != WK_OK) {
        if (as)
            spec_error(c, as, "key 'as': a step expected to fail creates nothing to name");
        return UINT32_MAX;
    }
    uint32_t index = c->created[kind];
    if (index >= WK_PROG_MAX_OBJECTS) {
        spec_error(c, at, "too many %ss: at most %u per case", kind_words[kind], WK_PROG_MAX_OBJECTS);
        return index;
    }
    c->created[kind]++;
    struct wk_spec_name *n = &c->names[c->name_count];
    if (as && !name_syntax(as)) {
        spec_error(c, as, "key 'as': expected a name of at most %u characters from [A-Za-z0-9_.-] "
                          "starting with a letter or '_', saw %s",
                   WK_SPEC_NAME_MAX - 1, spec_seen(as, seen, sizeof(seen)));
        return index;
    }
    if (as)
        memcpy(n->name, as->text, as->length + 1);
    else
        snprintf(n->name, sizeof(n->name), "%s%u", default_prefix[kind], index);
    const struct wk_spec_name *old = find_name(c, n->name);
    if (old) {
        spec_error(c, as ? as : at, "%sthe name '%s' is taken (%s %u, created at %u:%u)%s", as ? "key 'as': " : "",
                   n->name, kind_words[old->kind], old->index, old->line, old->column,
                   as ? "" : "; name this one with 'as'");
        return index;
    }
    n->kind = kind;
    n->index = index;
    n->line = (as ? as : at)->line;
    n->column = (as ? as : at)->column;
    c->name_count++;
    return index;
}

/* A reference by name. When the key is absent and `first_by_default` is
 * set, the case's first object of that kind (index 0) is meant. */
int spec_use(struct wk_spec_ctx *c, const struct wk_ynode *args, const struct wk_ynode *at, const char *key,
               enum wk_obj_kind kind, int first_by_default, uint32_t *out)
{
    const struct wk_ynode *v = wk_ymap_get(args, key);
    const char *article = kind == WK_OBJ_ALLOCATION ? "an" : "a";
    char seen[160];
    if (!v && !first_by_default)
        return -1; /* reported as a missing required key */
    if (!v) {
        if (c->created[kind]) {
            *out = 0;
            return 1;
        }
        spec_error(c, at, "key '%s' (default: the first %s): expected %s %s created by an earlier step, saw none",
                   key, kind_words[kind], article, kind_words[kind]);
        return -1;
    }
    const struct wk_spec_name *n = name_syntax(v) ? find_name(c, v->text) : NULL;
    if (n && n->kind == kind) {
        *out = n->index;
        return 1;
    }
    if (n)
        spec_error(c, v, "key '%s': expected the name of %s %s, saw '%s' (%s %s)", key, article, kind_words[kind],
                   n->name, n->kind == WK_OBJ_ALLOCATION ? "an" : "a", kind_words[n->kind]);
    else
        spec_error(c, v, "key '%s': expected the name of %s %s created by an earlier step, saw %s", key, article,
                   kind_words[kind], spec_seen(v, seen, sizeof(seen)));
    return -1;
}

/* ------------------------------------------------------------------ */
/* Segments                                                             */
/* ------------------------------------------------------------------ */

/* A segment id of the case's adapter. */
int spec_segment_id(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint32_t *out)
{
    uint64_t v = 0;
    return spec_u64(c, n, what, 1, c->p->gpu.segment_count, &v) == 1 ? (*out = (uint32_t)v, 1) : -1;
}

/* supported / eviction: segment ids as a set, bit (id - 1). */
static void segment_set(struct wk_spec_ctx *c, const struct wk_ynode *list, const char *key, uint32_t *out)
{
    char what[40];
    snprintf(what, sizeof(what), "key '%s'", key);
    if (spec_seq(c, list, what, 8, 0) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "%s[%u]", key, i), id = 0;
        if (spec_segment_id(c, e, NULL, &id) == 1)
            *out |= 1u << (id - 1);
        spec_scope_pop(c, mark);
    }
}

/* ------------------------------------------------------------------ */
/* Device, context, allocation steps                                    */
/* ------------------------------------------------------------------ */

static const char *const device_flags[] = { "system", "gdi", NULL };
/* DXGK_CREATECONTEXTFLAGS bits 0 to 2: SystemContext, GdiContext, VirtualAddressing. */
static const char *const context_flags[] = { "system", "gdi", "virtual", NULL };

/* process: 1 to WK_PROG_MAX_PROCESSES, the case's process a step is of
 * (default 1); stored from 0. */
void spec_ld_process(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    uint32_t n = 1;
    spec_get_u32(c, a, "process", 1, WK_PROG_MAX_PROCESSES, &n);
    s->process = n - 1;
}

/* move_root_table: {process, copy}: `copy: true` has the new root's links
 * copied from the old one with COPY_PAGE_TABLE_ENTRIES. */
static void ld_move_root_table(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    int copy = 0, shrink = 0;
    spec_ld_process(c, a, s);
    spec_get_bool(c, a, "copy", &copy);
    spec_get_bool(c, a, "shrink", &shrink);
    s->flags = (copy ? WK_PROG_ROOT_BY_COPY : 0) | (shrink ? WK_PROG_ROOT_SHRINK : 0);
}

static void ld_end_process(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_ld_process(c, a, s);
}

static void ld_create_device(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_get_word_set(c, a, "flags", device_flags, "a device flag", &s->flags);
    spec_ld_process(c, a, s);
    s->device = define(c, a, a, WK_OBJ_DEVICE, s->expect_status);
}

static void ld_destroy_device(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_use(c, a, a, "device", WK_OBJ_DEVICE, 0, &s->device);
}

static void ld_create_context(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_use(c, a, a, "device", WK_OBJ_DEVICE, 1, &s->device);
    spec_get_word_set(c, a, "flags", context_flags, "a context flag", &s->flags);
    uint32_t node = 0; /* the engine: DXGKARG_CREATECONTEXT.NodeOrdinal (prog.h) */
    if (spec_get_u32(c, a, "node", 0, WK_PROG_CONTEXT_NODE_MAX, &node) == 1)
        s->flags |= node << WK_PROG_CONTEXT_NODE_SHIFT;
    s->context = define(c, a, a, WK_OBJ_CONTEXT, s->expect_status);
}

static void ld_destroy_context(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_use(c, a, a, "context", WK_OBJ_CONTEXT, 0, &s->context);
}

static void ld_allocation(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_use(c, a, a, "allocation", WK_OBJ_ALLOCATION, 0, &s->allocation);
}

/* preferred: up to 5 {segment, top_down}, 6 bits each (D3DDDI_SEGMENTPREFERENCE). */
static void load_preferred(struct wk_spec_ctx *c, const struct wk_ynode *list, struct wk_prog_allocation *al)
{
    static const char *const keys[] = { "segment", "top_down", NULL };
    static const char *const required[] = { "segment", NULL };
    if (spec_seq(c, list, "key 'preferred'", 5, 0) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "preferred[%u]", i), id = 0;
        int down = 0;
        if (spec_map(c, e, NULL) == 1 && spec_check_keys(c, e, keys, required) == 0 &&
            spec_segment_id(c, wk_ymap_get(e, "segment"), "key 'segment'", &id) == 1 &&
            spec_get_bool(c, e, "top_down", &down) >= 0)
            al->preferred |= (id | (uint32_t)down << 5) << (6 * i);
        spec_scope_pop(c, mark);
    }
}

/* banks: up to 4 {bank, top_down} of preferred[0]'s segment, 8 bits each.
 * A bank past the segment's count is a request the kit's format allows
 * (the driver leaves it out, umd.h): any 7-bit bank id loads. */
static void load_hinted_banks(struct wk_spec_ctx *c, const struct wk_ynode *a, const struct wk_ynode *list,
                              struct wk_prog_allocation *al)
{
    static const char *const keys[] = { "bank", "top_down", NULL };
    static const char *const required[] = { "bank", NULL };
    uint32_t seg = al->preferred & 0x1F;
    if (!wk_ymap_get(a, "preferred")) {
        spec_error(c, list, "key 'banks': needs key 'preferred' (banks are hints for preferred[0]'s segment)");
        return;
    }
    if (seg == 0 || spec_seq(c, list, "key 'banks'", 4, 0) < 0)
        return;
    uint32_t count = c->p->gpu.segments[seg - 1].bank_count;
    if (count < 2) {
        spec_error(c, list, "key 'banks': preferred[0] is segment %u, which has no banks", seg);
        return;
    }
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "banks[%u]", i), bank = 0;
        int down = 0;
        if (spec_map(c, e, NULL) == 1 && spec_check_keys(c, e, keys, required) == 0 &&
            spec_get_u32(c, e, "bank", 1, 127, &bank) == 1 && spec_get_bool(c, e, "top_down", &down) >= 0)
            al->hinted_bank |= (bank | (uint32_t)down << 7) << (8 * i);
        spec_scope_pop(c, mark);
    }
}

/* DXGK_ALLOCATIONINFOFLAGS bit names, bit 0 first. */
static const char *const allocation_flags[] = {
    "cpu_visible", "permanent_sys_mem", "cached", "protected", "existing_sys_mem", "existing_kernel_sys_mem",
    "from_end_of_segment", "swizzled", "overlay", "capture", "use_alternate_va", "synchronous_paging",
    "link_mirrored", "link_instanced", "history_buffer", "accessed_physically",
    "explicit_residency_notification", "hardware_protected", "cpu_visible_on_demand", NULL,
};

/* size: bytes, or {paging_buffers: N}: sized from the driver when the case
 * runs (prog.h, wk_prog_sized_pages), for multipass at its own
 * PagingBufferSize. */
static void load_allocation_size(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_prog_allocation *al)
{
    static const char *const keys[] = { "paging_buffers", NULL };
    const struct wk_ynode *v = wk_ymap_get(a, "size");
    if (!v || v->kind != WK_Y_MAPPING) {
        /* 0 is a request the kit's format calls invalid (umd.h): the
         * case holds the driver to refusing it (an encoder check). */
        spec_get_size(c, a, "size", 0, WK_PROG_MAX_ALLOCATION, &al->size);
        return;
    }
    uint32_t mark = spec_scope_push(c, "size");
    if (spec_check_keys(c, v, keys, keys) == 0)
        spec_get_u32(c, v, "paging_buffers", 1, WK_PROG_MAX_PAGING_BUFFERS, &al->paging_buffers);
    spec_scope_pop(c, mark);
}

static void ld_create_allocation(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    struct wk_prog_allocation *al = &s->alloc;
    const struct wk_ynode *v;
    spec_use(c, a, a, "device", WK_OBJ_DEVICE, 1, &al->device);
    s->device = al->device;
    load_allocation_size(c, a, al);
    uint64_t align = 0;
    if (spec_get_size(c, a, "alignment", 0, WK_PROG_MAX_ALLOCATION, &align) == 1) {
        if (align & (align - 1)) {
            char seen[160];
            spec_error(c, wk_ymap_get(a, "alignment"), "key 'alignment': expected 0 or a power of two, saw %s",
                       spec_seen(wk_ymap_get(a, "alignment"), seen, sizeof(seen)));
        }
        al->alignment = (uint32_t)align;
    }
    if ((v = wk_ymap_get(a, "preferred")))
        load_preferred(c, v, al);
    if ((v = wk_ymap_get(a, "banks")))
        load_hinted_banks(c, a, v, al);
    if ((v = wk_ymap_get(a, "supported")))
        segment_set(c, v, "supported", &al->supported_set);
    if ((v = wk_ymap_get(a, "eviction")))
        segment_set(c, v, "eviction", &al->eviction_set); /* a memory id too: the driver drops it (umd.h) */
    spec_get_word_set(c, a, "flags", allocation_flags, "an allocation flag", &al->flags);
    spec_get_u32(c, a, "priority", 0, UINT32_MAX, &al->priority);
    s->allocation = define(c, a, a, WK_OBJ_ALLOCATION, s->expect_status);
}

/* ------------------------------------------------------------------ */
/* Paging and host steps                                                */
/* ------------------------------------------------------------------ */

static void ld_fill(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    ld_allocation(c, a, s);
    spec_get_u64(c, a, "pattern", 0, UINT32_MAX, &s->value);
}

static void ld_relocate(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    ld_allocation(c, a, s);
    const struct wk_ynode *v = wk_ymap_get(a, "segment");
    if (v)
        spec_segment_id(c, v, "key 'segment'", &s->segment);
}

void spec_load_bytes(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_get_size(c, a, "offset", 0, WK_PROG_MAX_ALLOCATION - 1, &s->offset);
    const struct wk_ynode *v = wk_ymap_get(a, "bytes");
    if (v)
        spec_hex(c, v, "key 'bytes'", s->data, WK_PROG_MAX_BYTES, &s->length);
}

static void ld_write(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    ld_allocation(c, a, s);
    spec_load_bytes(c, a, s);
}

/* Exactly one of two keys; reports both-or-neither at `at`. */
static int one_of(struct wk_spec_ctx *c, const struct wk_ynode *a, const struct wk_ynode *at, const char *x,
                  const char *y)
{
    const struct wk_ynode *kx = wk_ymap_key(a, x), *ky = wk_ymap_key(a, y);
    if (kx && ky)
        spec_error(c, spec_later(kx, ky), "keys '%s' and '%s' exclude each other", x, y);
    else if (!kx && !ky)
        spec_error(c, at, "missing key '%s' or '%s'", x, y);
    else
        return kx ? 0 : 1;
    return -1;
}

static void ld_touch_physical(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    int which = one_of(c, a, a, "segment", "allocation");
    if (which == 0) {
        spec_segment_id(c, wk_ymap_get(a, "segment"), "key 'segment'", &s->segment);
        spec_get_size(c, a, "offset", 0, WK_PROG_MAX_SEGMENT - 1, &s->offset);
    } else if (which == 1) {
        s->relative = 1;
        ld_allocation(c, a, s);
        spec_get_size(c, a, "offset", 0, WK_PROG_MAX_ALLOCATION - 1, &s->offset);
    }
    spec_get_bool(c, a, "write", &s->write);
}

static void ld_signal_fence(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_get_u64(c, a, "value", 0, UINT64_MAX, &s->value);
    int which = one_of(c, a, a, "address", "allocation");
    if (which == 0) {
        spec_get_u64(c, a, "address", 0, UINT64_MAX, &s->address);
        if (wk_ymap_key(a, "offset"))
            spec_error(c, wk_ymap_key(a, "offset"),
                       "key 'offset': only with key 'allocation' (an address is absolute)");
    } else if (which == 1) {
        s->relative = 1;
        ld_allocation(c, a, s);
        spec_get_size(c, a, "offset", 0, WK_PROG_MAX_ALLOCATION - 1, &s->offset);
    }
}

static void ld_hold(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_get_u64(c, a, "count", 1, WK_PROG_MAX_STEPS, &s->value);
}

const char *const wk_prog_queue_interrupt_words[] = { "once", "each", NULL };

/* queue: {count, interrupts}: the next `count` render submissions left
 * queued on the GPU, which runs them after the last (wk_vidmm_queue_renders). */
static void ld_queue(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    uint32_t each = 0;
    spec_get_u64(c, a, "count", 1, WK_PROG_MAX_QUEUE, &s->value);
    spec_get_word(c, a, "interrupts", wk_prog_queue_interrupt_words, "once or each", &each);
    s->flags = each ? WK_PROG_QUEUE_EACH : 0;
}

static void ld_cancel(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    if (spec_get_u32(c, a, "count", 0, WK_PROG_MAX_STEPS, &s->count) == 1)
        s->has_count = 1;
}

/* va_map: {allocation, va, offset, size, read_only}: pages of an
 * allocation mapped in the case's GPU address space (size 0: the rest of
 * the allocation from offset, sized when the step runs). */
static void ld_va_map(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    ld_allocation(c, a, s);
    spec_get_u64(c, a, "va", 0, UINT64_MAX, &s->address);
    spec_get_size(c, a, "offset", 0, WK_PROG_MAX_ALLOCATION - 1, &s->offset);
    spec_get_size(c, a, "size", 1, WK_PROG_MAX_ALLOCATION, &s->size);
    spec_get_bool(c, a, "read_only", &s->read_only);
    spec_ld_process(c, a, s);
}

/* va_unmap: {va, size}. */
static void ld_va_unmap(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_get_u64(c, a, "va", 0, UINT64_MAX, &s->address);
    spec_get_size(c, a, "size", 1, WK_PROG_MAX_ALLOCATION, &s->size);
    spec_ld_process(c, a, s);
}

/* submit_virtual: {context, buffer, fill, pattern, size} or {context,
 * buffer, copy, to, size}: one kit-GPU command written at `buffer` in the
 * case's address space and run by a virtual context; with `fault:
 * unmapped` or `read_only` the command is to page-fault on the operand
 * the case left unmapped, or mapped read-only for the write. */
static void ld_submit_virtual(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_use(c, a, a, "context", WK_OBJ_CONTEXT, 0, &s->context);
    spec_get_u64(c, a, "buffer", 0, UINT64_MAX, &s->address);
    spec_get_size(c, a, "size", 1, WK_PROG_MAX_ALLOCATION, &s->size);
    spec_get_word(c, a, "fault", wk_prog_va_fault_words, "none, unmapped or read_only", &s->fault);
    int fill = wk_ymap_get(a, "fill") != NULL, copy = wk_ymap_get(a, "copy") != NULL;
    if (fill == copy) {
        spec_error(c, a, "submit_virtual: needs one of key 'fill' (with 'pattern') or key 'copy' (with 'to')");
        return;
    }
    if (fill) {
        s->op = WK_VIRTUAL_FILL;
        spec_get_u64(c, a, "fill", 0, UINT64_MAX, &s->offset);
        if (spec_get_u64(c, a, "pattern", 0, UINT32_MAX, &s->value) == 0)
            spec_error(c, a, "submit_virtual: key 'fill' needs key 'pattern'");
        if (wk_ymap_get(a, "to"))
            spec_error(c, a, "submit_virtual: key 'to' goes with key 'copy', not 'fill'");
        return;
    }
    s->op = WK_VIRTUAL_COPY;
    spec_get_u64(c, a, "copy", 0, UINT64_MAX, &s->value);
    if (spec_get_u64(c, a, "to", 0, UINT64_MAX, &s->offset) == 0)
        spec_error(c, a, "submit_virtual: key 'copy' needs key 'to'");
    if (wk_ymap_get(a, "pattern"))
        spec_error(c, a, "submit_virtual: key 'pattern' goes with key 'fill', not 'copy'");
}

static void ld_nothing(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    (void)c, (void)a, (void)s;
}

static void ld_render(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_use(c, a, a, "context", WK_OBJ_CONTEXT, 1, &s->context);
    spec_load_render(c, a, s);
    if (s->render)
        s->render->context = s->context;
}

static void ld_patch(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_use(c, a, a, "context", WK_OBJ_CONTEXT, 1, &s->context);
    spec_load_patch(c, a, s);
}

/* ------------------------------------------------------------------ */
/* The table                                                            */
/* ------------------------------------------------------------------ */

#define K(...) ((const char *const[]){ __VA_ARGS__, NULL })

struct step_def {
    const char *const *keys;
    const char *const *required;
    spec_step_loader *load;
};

static const struct step_def defs[WK_STEP_KIND_COUNT] = {
    [WK_STEP_CREATE_DEVICE] = { K("as", "flags", "process", "status"), NULL, ld_create_device },
    [WK_STEP_DESTROY_DEVICE] = { K("device", "status"), K("device"), ld_destroy_device },
    [WK_STEP_CREATE_CONTEXT] = { K("as", "device", "flags", "node", "status"), NULL, ld_create_context },
    [WK_STEP_DESTROY_CONTEXT] = { K("context", "status"), K("context"), ld_destroy_context },
    [WK_STEP_CREATE_ALLOCATION] = { K("as", "device", "size", "alignment", "preferred", "banks", "supported",
                                      "eviction", "flags", "priority", "status"),
                                    K("size"), ld_create_allocation },
    [WK_STEP_DESTROY_ALLOCATION] = { K("allocation", "status"), K("allocation"), ld_allocation },
    [WK_STEP_PAGE_IN] = { K("allocation", "status"), K("allocation"), ld_allocation },
    [WK_STEP_EVICT] = { K("allocation", "status"), K("allocation"), ld_allocation },
    [WK_STEP_DISCARD] = { K("allocation", "status"), K("allocation"), ld_allocation },
    [WK_STEP_FILL] = { K("allocation", "pattern", "status"), K("allocation", "pattern"), ld_fill },
    [WK_STEP_RELOCATE] = { K("allocation", "segment", "status"), K("allocation", "segment"), ld_relocate },
    [WK_STEP_WRITE] = { K("allocation", "offset", "bytes", "status"), K("allocation", "bytes"), ld_write },
    [WK_STEP_TOUCH_PHYSICAL] = { K("segment", "allocation", "offset", "write", "status"), NULL, ld_touch_physical },
    [WK_STEP_SPECIAL_LOCK_TRANSFER] = { K("allocation", "status"), K("allocation"), ld_allocation },
    [WK_STEP_SIGNAL_FENCE] = { K("value", "address", "allocation", "offset", "status"), K("value"), ld_signal_fence },
    [WK_STEP_RENDER] = { K("context", "list", "patches", "commands", "raw", "no_prepatch_info", "status"), NULL,
                         ld_render },
    [WK_STEP_HOLD] = { K("count", "status"), K("count"), ld_hold },
    [WK_STEP_CANCEL] = { K("count", "status"), NULL, ld_cancel },
    [WK_STEP_WAIT_IDLE] = { K("status"), NULL, ld_nothing },
    [WK_STEP_EXPECT_BYTES] = { K("allocation", "offset", "bytes"), K("allocation", "bytes"), spec_ld_expect_bytes },
    [WK_STEP_EXPECT_PATTERN] = { K("allocation", "pattern", "offset", "size"), K("allocation", "pattern"),
                                 spec_ld_expect_pattern },
    [WK_STEP_EXPECT_DIGEST] = { K("allocation", "digest"), K("allocation", "digest"), spec_ld_expect_digest },
    [WK_STEP_EXPECT_PLACEMENT] = { K("allocation", "resident", "segment", "offset", "bank"), K("allocation"),
                                   spec_ld_expect_placement },
    [WK_STEP_EXPECT_STATS] = { K("stat", "min", "max", "ddi", "op"), K("stat"), spec_ld_expect_stats },
    [WK_STEP_EXPECT_GART] = { K("allocation"), K("allocation"), spec_ld_expect_gart },
    [WK_STEP_EXPECT_CONTEXT_INFO] = { K("context", "field", "value"), K("context", "field", "value"),
                                      spec_ld_expect_context_info },
    [WK_STEP_PATCH] = { K("context", "list", "patches", "start", "end", "patch_start", "patch_count", "dma", "status"),
                        K("end"), ld_patch },
    [WK_STEP_EXPECT_MULTIPASS] = { K("op"), K("op"), spec_ld_expect_multipass },
    [WK_STEP_VA_MAP] = { K("allocation", "va", "offset", "size", "read_only", "process", "status"), K("allocation", "va"),
                         ld_va_map },
    [WK_STEP_VA_UNMAP] = { K("va", "size", "process", "status"), K("va", "size"), ld_va_unmap },
    [WK_STEP_EXPECT_VA] = { K("va", "allocation", "offset", "size", "fault", "process"), K("va"), spec_ld_expect_va },
    [WK_STEP_SUBMIT_VIRTUAL] = { K("context", "buffer", "fill", "pattern", "copy", "to", "size", "fault", "status"),
                                 K("context", "buffer", "size"), ld_submit_virtual },
    [WK_STEP_MOVE_ROOT_TABLE] = { K("process", "copy", "shrink", "status"), NULL, ld_move_root_table },
    [WK_STEP_END_PROCESS] = { K("process", "status"), K("process"), ld_end_process },
    [WK_STEP_QUEUE] = { K("count", "interrupts", "status"), K("count"), ld_queue },
};

static int is_check(enum wk_step_kind k)
{
    return wk_step_is_check(k);
}

/* ------------------------------------------------------------------ */
/* Status names                                                         */
/* ------------------------------------------------------------------ */

static const wk_status all_status[] = {
#define ST_(name, num, msg) name,
    WK_STATUS_MAP(ST_)
#undef ST_
};
#define STATUS_COUNT (sizeof(all_status) / sizeof(all_status[0]))

/* `status:` names: the enumerator in lower case without WK_E_ (WK_OK: ok). */
static void load_status(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    if (!wk_ymap_key(a, "status"))
        return;
    char names[STATUS_COUNT][32];
    const char *words[STATUS_COUNT + 1];
    for (size_t i = 0; i < STATUS_COUNT; i++) {
        const char *n = wk_status_name(all_status[i]);
        n += strncmp(n, "WK_E_", 5) == 0 ? 5 : 3;
        size_t j = 0;
        for (; n[j] && j + 1 < sizeof(names[i]); j++)
            names[i][j] = (char)(n[j] >= 'A' && n[j] <= 'Z' ? n[j] - 'A' + 'a' : n[j]);
        names[i][j] = '\0';
        words[i] = names[i];
    }
    words[STATUS_COUNT] = NULL;
    uint32_t i = 0;
    if (spec_get_word(c, a, "status", words, "a status name", &i) == 1)
        s->expect_status = all_status[i];
}

/* ------------------------------------------------------------------ */
/* Steps                                                                */
/* ------------------------------------------------------------------ */

/* The keyword of a step node, or -1 after reporting; *args its arguments. */
static int step_kind(struct wk_spec_ctx *c, const struct wk_ynode *n, int in_expect, const struct wk_ynode **key,
                     const struct wk_ynode **args)
{
    char seen[160];
    *key = n;
    *args = NULL;
    if (n->kind == WK_Y_MAPPING && n->count == 1) {
        *key = n->child;
        *args = n->child->next;
    } else if (n->kind != WK_Y_SCALAR || n->length == 0) {
        /* "- wait_idle:" with its arguments not indented under it: */
        int flat = n->kind == WK_Y_MAPPING && n->count > 1 && n->child->kind == WK_Y_SCALAR &&
                   spec_is_null(n->child->next);
        if (n->kind == WK_Y_MAPPING)
            snprintf(seen, sizeof(seen), "a mapping with %u keys%s%.48s%s", n->count,
                     flat ? " (indent the arguments under '" : "", flat ? n->child->text : "", flat ? "')" : "");
        spec_error(c, n, "expected a %s (a one-key mapping, keyword: arguments), saw %s", in_expect ? "check" : "step",
                   n->kind == WK_Y_MAPPING ? seen : spec_seen(n, seen, sizeof(seen)));
        return -1;
    }
    const struct wk_ynode *k = *key;
    if (k->kind == WK_Y_SCALAR && strlen(k->text) == k->length) {
        for (int i = 0; i < WK_STEP_KIND_COUNT; i++) {
            const char *kw = wk_step_keyword((enum wk_step_kind)i);
            if (in_expect ? (is_check((enum wk_step_kind)i) && strcmp(kw + 7, k->text) == 0)
                          : strcmp(kw, k->text) == 0)
                return i;
        }
    }
    char list[640];
    size_t at = 0;
    for (int pass = in_expect; pass < 2; pass++) /* actions, then checks */
        for (int i = 0; i < WK_STEP_KIND_COUNT && at < sizeof(list); i++)
            if (is_check((enum wk_step_kind)i) == pass)
                at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "",
                                       wk_step_keyword((enum wk_step_kind)i) + (in_expect ? 7 : 0));
    spec_error(c, k, "unknown %s %s (expected one of: %s)", in_expect ? "check" : "step",
               spec_seen(k, seen, sizeof(seen)), list);
    return -1;
}

static void load_step(struct wk_spec_ctx *c, const struct wk_ynode *n, uint32_t index, int in_expect)
{
    const struct wk_ynode *key, *args;
    int kind = step_kind(c, n, in_expect, &key, &args);
    if (kind < 0)
        return;
    struct wk_step *s = &c->p->steps[c->p->step_count - 1];
    s->kind = (enum wk_step_kind)kind;
    s->line = n->line;
    const char *kw = wk_step_keyword(s->kind);
    uint32_t mark = in_expect ? spec_scope_push(c, "expect[%u] (%s)", index, kw + 7)
                              : spec_scope_push(c, "step %u (%s)", index, kw);
    const struct step_def *def = &defs[kind];
    /* no arguments: an empty mapping where the keyword is, for positions */
    const struct wk_ynode none = { WK_Y_MAPPING, key->line, key->column, 0, 0, 0, NULL, NULL, NULL, NULL };
    if (args && spec_is_null(args))
        args = NULL;
    if (args && args->kind != WK_Y_MAPPING) {
        char seen[160];
        spec_error(c, args, "expected a mapping of arguments, saw %s", spec_seen(args, seen, sizeof(seen)));
    } else {
        const struct wk_ynode *a = args ? args : &none;
        if (!args) { /* report a missing key at the keyword */
            for (int r = 0; def->required && def->required[r]; r++)
                spec_error(c, key, "missing required key '%s'", def->required[r]);
        } else {
            spec_check_keys(c, a, def->keys, def->required); /* and go on: names still count */
        }
        if (!is_check(s->kind))
            load_status(c, a, s);
        def->load(c, a, s);
    }
    spec_scope_pop(c, mark);
}

uint32_t spec_load_steps(struct wk_spec_ctx *c, const struct wk_ynode *steps, const struct wk_ynode *expect)
{
    uint32_t before = c->errors;
    const struct wk_ynode *lists[2] = { steps, expect };
    static const char *const keys[2] = { "key 'steps'", "key 'expect'" };
    for (int l = 0; l < 2; l++) {
        if (!lists[l] || spec_seq(c, lists[l], keys[l], UINT32_MAX, 1) < 0)
            continue;
        uint32_t i = 0;
        for (const struct wk_ynode *n = lists[l]->child; n; n = n->next, i++) {
            if (c->p->step_count == WK_PROG_MAX_STEPS) {
                spec_error(c, n, "too many steps: at most %u (steps and expect together)", WK_PROG_MAX_STEPS);
                return c->errors - before;
            }
            c->p->step_count++;
            load_step(c, n, l ? i : c->p->step_count - 1, l);
        }
    }
    return c->errors - before;
}
