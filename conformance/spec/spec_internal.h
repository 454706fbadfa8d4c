/* SPDX-License-Identifier: MIT */
/*
 * spec_internal.h - the pieces of the spec loader shared between its files:
 *
 *   spec_yaml.c   libyaml events -> a small node tree that keeps positions
 *   spec_value.c  typed accessors over that tree, units, error messages
 *   spec_load.c   file, case, adapter and rewrite keys
 *   spec_steps.c  steps, checks and the names they create and use
 *   spec_render.c the render step's list and command records
 *   spec_patch.c  the patch step's lists, ranges and DMA content
 *   spec_checks.c the expect_* checks
 *   spec_set.c    sets, diagnostics, files and folders
 *
 * Not part of the kit's API; spec.h is.
 */
#ifndef WK_SPEC_INTERNAL_H
#define WK_SPEC_INTERNAL_H

#include <stdint.h>

#include "prog/conform.h"
#include "spec.h"

/* ------------------------------------------------------------------ */
/* The node tree (spec_yaml.c)                                          */
/* ------------------------------------------------------------------ */

enum wk_ykind { WK_Y_SCALAR, WK_Y_SEQUENCE, WK_Y_MAPPING };

/*
 * One YAML node. A sequence's children are its items; a mapping's children
 * alternate key, value, key, value. Scalars keep their text (NUL-terminated,
 * at most WK_SPEC_MAX_SCALAR bytes) and whether they were written plain:
 * only plain scalars can be numbers, booleans or null.
 */
struct wk_ynode {
    enum wk_ykind kind;
    uint32_t line, column;       /* 1-based */
    uint32_t count;              /* sequence items; mapping pairs */
    int plain;
    uint32_t length;
    const char *text;
    struct wk_ynode *child, *last, *next;
};

struct wk_yblock;

struct wk_ytree {
    struct wk_ynode *root;       /* NULL for an empty document */
    struct wk_yblock *blocks;    /* node and text storage */
    uint32_t nodes;
};

/* Parses one YAML document; reports problems to `d` as "name:line:col: ...".
 * WK_E_INVALID_ARGUMENT after a reported error; WK_E_NO_MEMORY. */
wk_status wk_ytree_parse(struct wk_ytree *t, const char *name, const uint8_t *data, size_t size,
                         struct wk_diag *d);
void wk_ytree_free(struct wk_ytree *t);

/* The value of `key` in a mapping (the first, if repeated), or NULL. */
const struct wk_ynode *wk_ymap_get(const struct wk_ynode *map, const char *key);
/* The key node of `key`, or NULL. */
const struct wk_ynode *wk_ymap_key(const struct wk_ynode *map, const char *key);

/* ------------------------------------------------------------------ */
/* Loader context and messages (spec_value.c)                           */
/* ------------------------------------------------------------------ */

#define WK_SPEC_NAME_MAX 32u     /* object names: bytes with the NUL */

enum wk_obj_kind { WK_OBJ_DEVICE, WK_OBJ_CONTEXT, WK_OBJ_ALLOCATION, WK_OBJ_KINDS };

struct wk_spec_name {
    char name[WK_SPEC_NAME_MAX];
    enum wk_obj_kind kind;
    uint32_t index;              /* creation index of its kind */
    uint32_t line, column;
};

/* Everything one load needs: where messages go, the scope they name, the
 * case under construction and the names its steps created so far. */
struct wk_spec_ctx {
    struct wk_diag *d;
    const char *file;
    char scope[256];             /* "case 'x': step 3 (fill): " */
    uint32_t scope_length;
    uint32_t errors;             /* errors since the counter was last cleared */
    struct wk_prog *p;
    uint32_t created[WK_OBJ_KINDS];
    uint32_t name_count;
    struct wk_spec_name names[3 * WK_PROG_MAX_OBJECTS];
};

/* Appends "text: " to the scope; returns the old length for spec_scope_pop. */
uint32_t spec_scope_push(struct wk_spec_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void spec_scope_pop(struct wk_spec_ctx *c, uint32_t length);

/* "file:line:col: <scope><message>" at node `at` (file:1:1 when NULL). */
void spec_error(struct wk_spec_ctx *c, const struct wk_ynode *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A warning at `at` (wk_diag_warnf): the spec still loads. */
void spec_warning(struct wk_spec_ctx *c, const struct wk_ynode *at, const char *msg);

/* How a node reads in a message: 'text', "text", a mapping, nothing... */
const char *spec_seen(const struct wk_ynode *n, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Typed accessors (spec_value.c)                                       */
/* ------------------------------------------------------------------ */

/*
 * Every accessor reads one value: `what` labels it in messages ("key
 * 'size'"; NULL or "" for a sequence entry, whose path is in the scope).
 * They return 1 when the value was read, -1 after reporting an error; the
 * spec_get_* forms look `key` up in a mapping and return 0 when it is
 * absent and not required (output untouched: pre-set the default).
 */
/* A case id or area: [a-z0-9] first, then [a-z0-9.-], no "..", no final
 * '.' (spec_load.c; the YAML writer checks names by it too). */
int spec_dotted_name(const char *s);
int spec_is_null(const struct wk_ynode *n);
int spec_u64(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint64_t lo,
             uint64_t hi, uint64_t *out);
int spec_i64(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, int64_t *out);
int spec_size(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint64_t lo,
              uint64_t hi, uint64_t *out);
int spec_bool(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, int *out);
/* A one-line string of 1..max-1 bytes. */
int spec_string(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, char *out,
                size_t max);
/* Hex bytes ("00 ff 1234"), 1..max of them. */
int spec_hex(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint8_t *out,
             uint32_t max, uint32_t *length);
/* One word of `words` (NULL-terminated); *out is its index. `form` names
 * the set in messages ("a stat name"). */
int spec_word(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what,
              const char *const *words, const char *form, uint32_t *out);
/* A sequence of at most `max` entries (an empty one only if `empty_ok`). */
int spec_seq(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint32_t max,
             int empty_ok);
int spec_map(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what);
/* Of two nodes, the one written later (where "x and y exclude each other" goes). */
const struct wk_ynode *spec_later(const struct wk_ynode *a, const struct wk_ynode *b);

/* Reports unknown, duplicate and non-scalar keys of a mapping (`allowed`
 * is NULL-terminated) and every required key missing (`required`, a
 * NULL-terminated subset, may be NULL). Returns the errors reported. */
uint32_t spec_check_keys(struct wk_spec_ctx *c, const struct wk_ynode *map,
                         const char *const *allowed, const char *const *required);

int spec_get_u64(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, uint64_t lo,
                 uint64_t hi, uint64_t *out);
int spec_get_u32(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, uint32_t lo,
                 uint32_t hi, uint32_t *out);
int spec_get_size(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, uint64_t lo,
                  uint64_t hi, uint64_t *out);
int spec_get_bool(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, int *out);
int spec_get_word(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key,
                  const char *const *words, const char *form, uint32_t *out);
/* `key: Name`: a DDI without its "DxgkDdi" prefix (callbacks keep theirs). */
int spec_get_ddi(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, enum wk_ddi *out);
/* `key: [word, ...]`: bit i of *out for words[i] (NULL-terminated). */
void spec_get_word_set(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key,
                       const char *const *words, const char *form, uint32_t *out);

/* Writes a size the way specs spell it: "16MiB", "4KiB", "100". */
const char *spec_format_size(uint64_t v, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Cases, adapters and steps (spec_load.c, spec_steps.c)                */
/* ------------------------------------------------------------------ */

/* Fills c->p's adapter from an `adapter:` mapping, key by key over what is
 * there already; returns the errors reported. */
uint32_t spec_load_adapter(struct wk_spec_ctx *c, const struct wk_ynode *map);
/* Fills c->p's registry map from a case's `registry:` mapping
 * (spec_registry.c). */
void spec_load_registry(struct wk_spec_ctx *c, const struct wk_ynode *map);
/* Fills c->p's PCI configuration space from a case's `pci_config:` hex
 * bytes, over the kit's default (spec_registry.c). */
void spec_load_pci_config(struct wk_spec_ctx *c, const struct wk_ynode *n);
/* Whether the GPU model takes c->p's adapter (wk_gpu_check_desc); reports its refusal at `at`. */
uint32_t spec_check_gpu(struct wk_spec_ctx *c, const struct wk_ynode *at);

/* Compiles `steps:` and `expect:` into c->p->steps; returns the errors. */
uint32_t spec_load_steps(struct wk_spec_ctx *c, const struct wk_ynode *steps,
                         const struct wk_ynode *expect);

/* A reference by name to an object of `kind` (`key` of `args`; `at` for
 * messages about an absent key). When the key is absent and
 * `first_by_default` is set, the case's first object of the kind is meant. */
int spec_use(struct wk_spec_ctx *c, const struct wk_ynode *args, const struct wk_ynode *at, const char *key,
             enum wk_obj_kind kind, int first_by_default, uint32_t *out);
/* A segment id of the case's adapter. */
int spec_segment_id(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint32_t *out);
/* `offset` and `bytes` of write / expect_bytes. */
void spec_load_bytes(struct wk_spec_ctx *c, const struct wk_ynode *args, struct wk_step *s);

/* One step's arguments into *s (keys already checked against its table). */
typedef void spec_step_loader(struct wk_spec_ctx *c, const struct wk_ynode *args, struct wk_step *s);
spec_step_loader spec_load_render;          /* spec_render.c */
spec_step_loader spec_load_patch;           /* spec_patch.c */
/* One patch-location entry, `reserved` included (spec_patch.c): render's
 * user patch lists and patch steps' lists alike. */
void spec_load_location(struct wk_spec_ctx *c, const struct wk_ynode *e, struct wk_prog_patch_location *l);
spec_step_loader spec_ld_expect_bytes;      /* spec_checks.c */
spec_step_loader spec_ld_expect_pattern;
spec_step_loader spec_ld_expect_digest;
spec_step_loader spec_ld_expect_placement;
spec_step_loader spec_ld_expect_stats;
spec_step_loader spec_ld_expect_gart;
spec_step_loader spec_ld_expect_context_info;
spec_step_loader spec_ld_expect_multipass;
spec_step_loader spec_ld_expect_va;
spec_step_loader spec_ld_process; /* `process:` of a step (spec_steps.c) */

/* Loads the cases of one parsed document into `set`. */
wk_status spec_load_tree(struct wk_spec_set *set, const char *name, const struct wk_ytree *t,
                         struct wk_diag *d);

/* Adds a program to a set (taking it), or reports why it cannot (the id
 * is taken, the set is full) and frees it. `at` is the case's id node. */
wk_status spec_set_add(struct wk_spec_set *set, struct wk_spec_ctx *c, struct wk_prog *p,
                       const struct wk_ynode *at);

#endif /* WK_SPEC_INTERNAL_H */
