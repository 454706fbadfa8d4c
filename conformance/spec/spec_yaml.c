/* SPDX-License-Identifier: MIT */
/*
 * spec_yaml.c - one YAML document to a small node tree with positions.
 *
 * libyaml's event parser (not its document loader) is used so that every
 * limit is enforced as the input streams in, before anything is kept:
 * anchors and aliases are refused outright (the loader never expands a
 * document: a "billion laughs" input is an error, not a gigabyte), as are
 * explicit tags, nesting deeper than WK_SPEC_MAX_DEPTH, more than
 * WK_SPEC_MAX_NODES nodes and scalars longer than WK_SPEC_MAX_SCALAR bytes.
 * Each node keeps its line and column, which every later message quotes.
 *
 * Nodes and scalar texts are carved out of a few large blocks, so a tree is
 * freed in a handful of calls whatever its size (the spec fuzzer loads one
 * tree per input). libyaml's 1/0 answers are turned into wk_status here, and
 * its own errors are reported with its problem mark and context.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "spec_internal.h"

#define BLOCK_SIZE (64u * 1024u)

struct wk_yblock {
    struct wk_yblock *next;
    size_t used, capacity;
    _Alignas(max_align_t) unsigned char data[];
};

struct builder {
    struct wk_ytree *t;
    const char *name;
    struct wk_diag *d;
    const uint8_t *input;
    size_t input_size;
    struct wk_ynode *stack[WK_SPEC_MAX_DEPTH];
    uint32_t depth;
    uint32_t documents;
};

/* ------------------------------------------------------------------ */
/* Storage                                                              */
/* ------------------------------------------------------------------ */

static void *carve(struct wk_ytree *t, size_t size)
{
    size = (size + _Alignof(max_align_t) - 1) & ~(size_t)(_Alignof(max_align_t) - 1);
    struct wk_yblock *b = t->blocks;
    if (!b || b->capacity - b->used < size) {
        size_t capacity = size > BLOCK_SIZE ? size : BLOCK_SIZE;
        b = malloc(sizeof(*b) + capacity);
        if (!b)
            return NULL;
        b->next = t->blocks;
        b->used = 0;
        b->capacity = capacity;
        t->blocks = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

void wk_ytree_free(struct wk_ytree *t)
{
    while (t->blocks) {
        struct wk_yblock *next = t->blocks->next;
        free(t->blocks);
        t->blocks = next;
    }
    t->root = NULL;
    t->nodes = 0;
}

/* ------------------------------------------------------------------ */
/* Messages                                                             */
/* ------------------------------------------------------------------ */

static void at_mark(struct builder *b, yaml_mark_t m, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void at_mark(struct builder *b, yaml_mark_t m, const char *fmt, ...)
{
    char msg[WK_DIAG_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    wk_diag_addf(b->d, "%s:%zu:%zu: %s", b->name, m.line + 1, m.column + 1, msg);
}

/* Reader errors carry a byte offset, not a mark: count lines up to it. */
static yaml_mark_t mark_of_offset(const struct builder *b, size_t offset)
{
    yaml_mark_t m = { offset, 0, 0 };
    for (size_t i = 0; i < offset && i < b->input_size; i++) {
        if (b->input[i] == '\n') {
            m.line++;
            m.column = 0;
        } else if ((b->input[i] & 0xC0) != 0x80) { /* count characters, not UTF-8 tails */
            m.column++;
        }
    }
    return m;
}

/* libyaml's word for a tab is "found character that cannot start any
 * token"; name it, and the rule, when the line holds one up to the error. */
static const char *tab_hint(const struct builder *b, const yaml_parser_t *p)
{
    size_t at = p->problem_mark.index, start = at;
    if (at > b->input_size)
        return "";
    while (start > 0 && b->input[start - 1] != '\n')
        start--;
    for (size_t i = start; i <= at && i < b->input_size; i++)
        if (b->input[i] == '\t')
            return " (a tab on this line: YAML indents with spaces only)";
    return "";
}

static wk_status parser_error(struct builder *b, const yaml_parser_t *p)
{
    const char *problem = p->problem ? p->problem : "unknown problem";
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        wk_diag_addf(b->d, "%s: out of memory while parsing", b->name);
        return WK_E_NO_MEMORY;
    case YAML_READER_ERROR:
        if (p->problem_value != -1)
            at_mark(b, mark_of_offset(b, p->problem_offset), "YAML syntax error: %s (byte 0x%02x)", problem,
                    (unsigned)p->problem_value & 0xFFu);
        else
            at_mark(b, mark_of_offset(b, p->problem_offset), "YAML syntax error: %s", problem);
        return WK_E_INVALID_ARGUMENT;
    default:
        if (p->context)
            at_mark(b, p->problem_mark, "YAML syntax error: %s (%s at %zu:%zu)%s", problem, p->context,
                    p->context_mark.line + 1, p->context_mark.column + 1, tab_hint(b, p));
        else
            at_mark(b, p->problem_mark, "YAML syntax error: %s%s", problem, tab_hint(b, p));
        return WK_E_INVALID_ARGUMENT;
    }
}

/* libyaml's 1/0 as a wk_status, with its error reported. */
static wk_status next_event(struct builder *b, yaml_parser_t *p, yaml_event_t *e)
{
    if (yaml_parser_parse(p, e))
        return WK_OK;
    return parser_error(b, p);
}

/* ------------------------------------------------------------------ */
/* Building                                                             */
/* ------------------------------------------------------------------ */

/* Anchors, aliases and explicit tags are refused wherever they appear. */
static wk_status refuse_extras(struct builder *b, const yaml_event_t *e, const yaml_char_t *anchor,
                               const yaml_char_t *tag)
{
    if (anchor) {
        at_mark(b, e->start_mark, "anchors are not allowed (anchor '&%.64s'): write the value out",
                (const char *)anchor);
        return WK_E_INVALID_ARGUMENT;
    }
    if (tag) {
        at_mark(b, e->start_mark, "tags are not allowed (tag '%.64s')", (const char *)tag);
        return WK_E_INVALID_ARGUMENT;
    }
    return WK_OK;
}

static wk_status add_node(struct builder *b, const yaml_event_t *e, enum wk_ykind kind,
                          struct wk_ynode **out)
{
    if (b->t->nodes >= WK_SPEC_MAX_NODES) {
        at_mark(b, e->start_mark, "too many YAML nodes: at most %u per file", WK_SPEC_MAX_NODES);
        return WK_E_LIMIT;
    }
    struct wk_ynode *n = carve(b->t, sizeof(*n));
    if (!n)
        return WK_E_NO_MEMORY;
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    n->line = (uint32_t)e->start_mark.line + 1;
    n->column = (uint32_t)e->start_mark.column + 1;
    b->t->nodes++;
    if (b->depth == 0) {
        b->t->root = n;
    } else {
        struct wk_ynode *parent = b->stack[b->depth - 1];
        if (parent->last)
            parent->last->next = n;
        else
            parent->child = n;
        parent->last = n;
        parent->count++;
    }
    *out = n;
    return WK_OK;
}

static wk_status on_scalar(struct builder *b, const yaml_event_t *e)
{
    wk_status st = refuse_extras(b, e, e->data.scalar.anchor, e->data.scalar.tag);
    if (st != WK_OK)
        return st;
    size_t len = e->data.scalar.length;
    if (len > WK_SPEC_MAX_SCALAR) {
        at_mark(b, e->start_mark, "scalar of %zu bytes, longer than the %u-byte limit", len, WK_SPEC_MAX_SCALAR);
        return WK_E_LIMIT;
    }
    struct wk_ynode *n;
    st = add_node(b, e, WK_Y_SCALAR, &n);
    if (st != WK_OK)
        return st;
    char *text = carve(b->t, len + 1);
    if (!text)
        return WK_E_NO_MEMORY;
    memcpy(text, e->data.scalar.value, len);
    text[len] = '\0';
    n->text = text;
    n->length = (uint32_t)len;
    n->plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    return WK_OK;
}

static wk_status on_start(struct builder *b, const yaml_event_t *e, enum wk_ykind kind)
{
    const yaml_char_t *anchor = kind == WK_Y_MAPPING ? e->data.mapping_start.anchor : e->data.sequence_start.anchor;
    const yaml_char_t *tag = kind == WK_Y_MAPPING ? e->data.mapping_start.tag : e->data.sequence_start.tag;
    wk_status st = refuse_extras(b, e, anchor, tag);
    if (st != WK_OK)
        return st;
    if (b->depth == WK_SPEC_MAX_DEPTH) {
        at_mark(b, e->start_mark, "nesting deeper than %u levels", WK_SPEC_MAX_DEPTH);
        return WK_E_LIMIT;
    }
    struct wk_ynode *n;
    st = add_node(b, e, kind, &n);
    if (st == WK_OK)
        b->stack[b->depth++] = n;
    return st;
}

/* One event; *done set at the end of the stream. */
static wk_status on_event(struct builder *b, const yaml_event_t *e, int *done)
{
    switch (e->type) {
    case YAML_STREAM_END_EVENT: *done = 1; return WK_OK;
    case YAML_DOCUMENT_START_EVENT:
        if (++b->documents > 1) {
            at_mark(b, e->start_mark, "a spec file holds one YAML document; a second one starts here");
            return WK_E_INVALID_ARGUMENT;
        }
        return WK_OK;
    case YAML_ALIAS_EVENT:
        at_mark(b, e->start_mark, "aliases are not allowed (alias '*%.64s'): write the value out",
                (const char *)e->data.alias.anchor);
        return WK_E_INVALID_ARGUMENT;
    case YAML_SCALAR_EVENT: return on_scalar(b, e);
    case YAML_SEQUENCE_START_EVENT: return on_start(b, e, WK_Y_SEQUENCE);
    case YAML_MAPPING_START_EVENT: return on_start(b, e, WK_Y_MAPPING);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (b->depth) {
            struct wk_ynode *n = b->stack[--b->depth];
            if (n->kind == WK_Y_MAPPING)
                n->count /= 2; /* children were counted one by one: keys and values */
        }
        return WK_OK;
    default: return WK_OK; /* stream start, document end, none */
    }
}

wk_status wk_ytree_parse(struct wk_ytree *t, const char *name, const uint8_t *data, size_t size,
                         struct wk_diag *d)
{
    memset(t, 0, sizeof(*t));
    struct builder b;
    memset(&b, 0, sizeof(b));
    b.t = t;
    b.name = name;
    b.d = d;
    b.input = data;
    b.input_size = size;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        wk_diag_addf(d, "%s: out of memory while parsing", name);
        return WK_E_NO_MEMORY;
    }
    yaml_parser_set_input_string(&parser, data ? data : (const uint8_t *)"", data ? size : 0);
    wk_status st = WK_OK;
    for (int done = 0; st == WK_OK && !done;) {
        yaml_event_t e;
        st = next_event(&b, &parser, &e);
        if (st != WK_OK)
            break;
        st = on_event(&b, &e, &done);
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&parser);
    if (st != WK_OK)
        wk_ytree_free(t);
    return st;
}

/* ------------------------------------------------------------------ */
/* Lookups                                                              */
/* ------------------------------------------------------------------ */

const struct wk_ynode *wk_ymap_key(const struct wk_ynode *map, const char *key)
{
    if (!map || map->kind != WK_Y_MAPPING)
        return NULL;
    size_t len = strlen(key);
    for (const struct wk_ynode *k = map->child; k && k->next; k = k->next->next)
        if (k->kind == WK_Y_SCALAR && k->length == len && memcmp(k->text, key, len) == 0)
            return k;
    return NULL;
}

const struct wk_ynode *wk_ymap_get(const struct wk_ynode *map, const char *key)
{
    const struct wk_ynode *k = wk_ymap_key(map, key);
    return k ? k->next : NULL;
}
