/* SPDX-License-Identifier: MIT */
/*
 * spec_render.c - the `render` step: the allocation list, the user command
 * records of umd.h (or a raw command buffer in hex) and the pre-patch flag.
 *
 * Records refer to memory as (allocation-list index, offset), the way the
 * kit's UMD format does, so each index is checked against the list the same
 * step declares. A raw buffer is taken as is: it is how a spec hands the
 * driver a malformed command buffer on purpose (one hex string, or a
 * sequence of them for a buffer of up to 16 KiB, fuzz_render's largest).
 * `patches` is the user patch-location list (pPatchLocationListIn), every
 * field as user mode may write it.
 */
#include <stdlib.h>
#include <string.h>

#include "spec_internal.h"

/* Bytes per `raw` hex string: 1 KiB in hex with a space every 4 bytes
 * (2,303 characters) stays inside one scalar (WK_SPEC_MAX_SCALAR). */
#define RAW_CHUNK_MAX 1024u
#define RAW_CHUNK_MIN 1u

static void load_entry(struct wk_spec_ctx *c, const struct wk_ynode *e, struct wk_prog_render *r, uint32_t i)
{
    static const char *const keys[] = { "allocation", "write", "null", NULL };
    if (spec_map(c, e, NULL) < 0 || spec_check_keys(c, e, keys, NULL))
        return;
    const struct wk_ynode *null = wk_ymap_get(e, "null");
    int is_null = 0, write = 0;
    if (null && spec_bool(c, null, "key 'null'", &is_null) == 1 && !is_null) {
        spec_error(c, null, "key 'null': expected true (an unbinding entry; leave the key out otherwise), saw 'false'");
        return;
    }
    if (is_null) {
        static const char *const other[] = { "allocation", "write", NULL };
        for (int k = 0; other[k]; k++)
            if (wk_ymap_key(e, other[k]))
                spec_error(c, wk_ymap_key(e, other[k]), "key '%s': not with null: true", other[k]);
        r->list_alloc[i] = 0;
        return;
    }
    if (!wk_ymap_key(e, "allocation")) {
        spec_error(c, e, "missing key 'allocation' (or null: true)");
        return;
    }
    uint32_t index = 0;
    if (spec_use(c, e, e, "allocation", WK_OBJ_ALLOCATION, 0, &index) == 1)
        r->list_alloc[i] = index + 1;
    if (spec_get_bool(c, e, "write", &write) == 1)
        r->list_write[i] = (uint8_t)write;
}

static void load_list(struct wk_spec_ctx *c, const struct wk_ynode *list, struct wk_prog_render *r)
{
    if (spec_seq(c, list, "key 'list'", WK_PROG_MAX_LIST, 1) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "list[%u]", i);
        load_entry(c, e, r, i);
        spec_scope_pop(c, mark);
    }
    r->list_length = list->count;
}

/* [list index, offset] */
static void load_ref(struct wk_spec_ctx *c, const struct wk_ynode *a, const char *key, uint32_t list_length,
                     struct wk_prog_ref *ref)
{
    const struct wk_ynode *v = wk_ymap_get(a, key);
    char seen[160], what[48];
    if (!v)
        return;
    if (v->kind != WK_Y_SEQUENCE || v->count != 2) {
        if (v->kind == WK_Y_SEQUENCE)
            snprintf(seen, sizeof(seen), "a sequence of %u entr%s", v->count, v->count == 1 ? "y" : "ies");
        spec_error(c, v, "key '%s': expected [list index, offset], saw %s", key,
                   v->kind == WK_Y_SEQUENCE ? seen : spec_seen(v, seen, sizeof(seen)));
        return;
    }
    uint64_t index = 0, offset = 0;
    snprintf(what, sizeof(what), "key '%s', list index", key);
    if (list_length == 0)
        spec_error(c, v->child, "%s: expected an index into the allocation list, which is empty, saw %s", what,
                   spec_seen(v->child, seen, sizeof(seen)));
    else if (spec_u64(c, v->child, what, 0, list_length - 1, &index) == 1)
        ref->list_index = (uint32_t)index;
    snprintf(what, sizeof(what), "key '%s', offset", key);
    if (spec_size(c, v->child->next, what, 0, WK_PROG_MAX_ALLOCATION - 1, &offset) == 1)
        ref->offset = (uint32_t)offset;
}

static uint32_t get_size32(struct wk_spec_ctx *c, const struct wk_ynode *a, const char *key, uint64_t lo)
{
    uint64_t v = 0;
    spec_get_size(c, a, key, lo, WK_PROG_MAX_ALLOCATION, &v);
    return (uint32_t)v;
}

#define K(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Keys of each record, by WK_USER_OP; all of them are required. */
static const char *const *const record_keys[WK_USER_OP_COUNT] = {
    [WK_USER_OP_NOP] = K(NULL),
    [WK_USER_OP_COPY] = K("src", "dst", "size"),
    [WK_USER_OP_FILL] = K("dst", "size", "pattern"),
    [WK_USER_OP_WRITE32] = K("dst", "value"),
    [WK_USER_OP_BLIT] = K("src", "dst", "width", "height", "src_pitch", "dst_pitch"),
};

static void load_record_args(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_prog_record *rec,
                             uint32_t list_length)
{
    uint64_t v = 0;
    load_ref(c, a, "src", list_length, &rec->src);
    load_ref(c, a, "dst", list_length, &rec->dst);
    if (rec->op == WK_USER_OP_COPY || rec->op == WK_USER_OP_FILL)
        rec->size = get_size32(c, a, "size", 0); /* 0 does nothing (umd.h) */
    if (spec_get_u64(c, a, rec->op == WK_USER_OP_FILL ? "pattern" : "value", 0, UINT32_MAX, &v) == 1)
        rec->value = (uint32_t)v;
    if (rec->op != WK_USER_OP_BLIT)
        return;
    rec->width = get_size32(c, a, "width", 0); /* a BLIT of Width or Height 0 does nothing (umd.h) */
    spec_get_u32(c, a, "height", 0, 65536, &rec->height);
    rec->src_pitch = get_size32(c, a, "src_pitch", 0);
    rec->dst_pitch = get_size32(c, a, "dst_pitch", 0);
}

static void load_record(struct wk_spec_ctx *c, const struct wk_ynode *n, struct wk_prog_record *rec,
                        uint32_t list_length)
{
    static const char *const ops[] = { "nop", "copy", "fill", "write32", "blit", NULL };
    char seen[160];
    if (n->kind != WK_Y_MAPPING || n->count != 1) {
        spec_error(c, n, "expected a command (a one-key mapping such as "
                         "copy: {src: [0, 0], dst: [1, 0], size: 4KiB}), saw %s",
                   spec_seen(n, seen, sizeof(seen)));
        return;
    }
    uint32_t op = 0;
    if (spec_word(c, n->child, NULL, ops, "a command", &op) < 0)
        return;
    rec->op = op;
    const struct wk_ynode *a = n->child->next;
    if (spec_is_null(a) && op == WK_USER_OP_NOP)
        return;
    uint32_t mark = spec_scope_push(c, "%s", ops[op]);
    /* The arguments are read even when a key is missing or unknown: their
     * own errors are reported too (the case is dropped either way). */
    if (spec_map(c, a, "arguments") == 1) {
        spec_check_keys(c, a, record_keys[op], record_keys[op]);
        load_record_args(c, a, rec, list_length);
    }
    spec_scope_pop(c, mark);
}

static void load_commands(struct wk_spec_ctx *c, const struct wk_ynode *list, struct wk_prog_render *r)
{
    if (spec_seq(c, list, "key 'commands'", WK_PROG_MAX_RECORDS, 1) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "commands[%u]", i);
        load_record(c, e, &r->records[i], r->list_length);
        spec_scope_pop(c, mark);
    }
    r->record_count = list->count;
}

/* pPatchLocationListIn: what user mode hands Render besides the command
 * buffer. Values are taken as they are (the driver must validate each
 * entry against its lists, RENDER-PATCH-*); only the count is bounded. */
static void load_user_patches(struct wk_spec_ctx *c, const struct wk_ynode *list, struct wk_prog_render *r)
{
    if (spec_seq(c, list, "key 'patches'", WK_PROG_MAX_USER_PATCHES, 1) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "patches[%u]", i);
        spec_load_location(c, e, &r->patch[i]);
        spec_scope_pop(c, mark);
    }
    r->patch_length = list->count;
}

/* `raw` as a sequence of hex strings, concatenated: a command buffer longer
 * than one scalar holds (WK_SPEC_MAX_SCALAR), up to WK_PROG_MAX_COMMAND. */
static void load_raw_chunks(struct wk_spec_ctx *c, const struct wk_ynode *list, struct wk_prog_render *r)
{
    if (spec_seq(c, list, "key 'raw'", WK_PROG_MAX_COMMAND / RAW_CHUNK_MIN, 0) < 0)
        return;
    uint32_t at = 0, i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        char what[32];
        uint8_t chunk[RAW_CHUNK_MAX]; /* decoded apart: only what fits is copied */
        uint32_t n = 0;
        snprintf(what, sizeof(what), "key 'raw', entry %u", i);
        if (spec_hex(c, e, what, chunk, RAW_CHUNK_MAX, &n) < 0)
            return;
        if (n > WK_PROG_MAX_COMMAND - at) {
            spec_error(c, e, "key 'raw': expected at most %u bytes in all, saw %u by entry %u",
                       WK_PROG_MAX_COMMAND, at + n, i);
            return;
        }
        memcpy(r->raw_bytes + at, chunk, n);
        at += n;
    }
    r->raw_length = at;
    r->raw = 1;
}

static void load_raw(struct wk_spec_ctx *c, const struct wk_ynode *v, struct wk_prog_render *r)
{
    if (v && v->kind == WK_Y_SEQUENCE)
        load_raw_chunks(c, v, r);
    else if (spec_hex(c, v, "key 'raw'", r->raw_bytes, RAW_CHUNK_MAX, &r->raw_length) == 1)
        r->raw = 1;
}

void spec_load_render(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    struct wk_prog_render *r = calloc(1, sizeof(*r));
    if (!r) {
        spec_error(c, a, "out of host memory");
        return;
    }
    s->render = r;
    const struct wk_ynode *v;
    if ((v = wk_ymap_get(a, "list")))
        load_list(c, v, r);
    if ((v = wk_ymap_get(a, "patches")))
        load_user_patches(c, v, r);
    if (spec_get_bool(c, a, "no_prepatch_info", &r->no_prepatch_info) < 0)
        return;
    const struct wk_ynode *commands = wk_ymap_key(a, "commands"), *raw = wk_ymap_key(a, "raw");
    if (commands && raw) /* then the commands' own errors as well */
        spec_error(c, spec_later(commands, raw), "keys 'commands' and 'raw' exclude each other");
    if (commands)
        load_commands(c, commands->next, r);
    else if (raw)
        load_raw(c, raw->next, r);
}
