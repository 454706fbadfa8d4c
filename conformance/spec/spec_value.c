/* SPDX-License-Identifier: MIT */
/*
 * spec_value.c - typed reads of YAML nodes, and the loader's messages.
 *
 * Every message has one shape, so that a reader (or a test) can rely on it:
 *
 *   file:line:col: <scope><label>: expected <form>, saw <what was there>
 *
 * where the scope names the case and the step ("case 'x': step 3 (fill): "),
 * the label the key ("key 'pattern'"), the form the type and range
 * ("an unsigned 32-bit integer", "a size in 1..16MiB") and the seen part
 * quotes the value as written ('0x1FFFFFFFF' for a plain scalar, "..." for
 * a quoted one, "a mapping", "nothing"). Numbers are only plain scalars:
 * decimal without leading zeros, or 0x hex; sizes also take B, KiB, MiB,
 * GiB; booleans are true and false. Nothing is truncated or wrapped: a
 * value that overflows is out of range.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "spec_internal.h"

/* ------------------------------------------------------------------ */
/* Scope and messages                                                   */
/* ------------------------------------------------------------------ */

uint32_t spec_scope_push(struct wk_spec_ctx *c, const char *fmt, ...)
{
    uint32_t old = c->scope_length;
    size_t room = sizeof(c->scope) - old;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->scope + old, room, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
    if (len + 2 < room) {
        memcpy(c->scope + old + len, ": ", 3);
        len += 2;
    }
    c->scope_length = old + (uint32_t)len;
    return old;
}

void spec_scope_pop(struct wk_spec_ctx *c, uint32_t length)
{
    c->scope_length = length;
    c->scope[length] = '\0';
}

void spec_error(struct wk_spec_ctx *c, const struct wk_ynode *at, const char *fmt, ...)
{
    char msg[WK_DIAG_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    wk_diag_addf(c->d, "%s:%u:%u: %s%s", c->file, at ? at->line : 1, at ? at->column : 1, c->scope, msg);
    c->errors++;
}

void spec_warning(struct wk_spec_ctx *c, const struct wk_ynode *at, const char *msg)
{
    wk_diag_warnf(c->d, "%s:%u:%u: warning: %s", c->file, at ? at->line : 1, at ? at->column : 1, msg);
}

int spec_is_null(const struct wk_ynode *n)
{
    if (!n)
        return 1;
    if (n->kind != WK_Y_SCALAR || !n->plain)
        return 0;
    return n->length == 0 || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
           strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0;
}

/* Quotes at most 48 characters of a scalar, escaping what is not printable. */
const char *spec_seen(const struct wk_ynode *n, char *buf, size_t size)
{
    if (!n || (n->kind == WK_Y_SCALAR && n->plain && n->length == 0))
        return "nothing";
    if (n->kind == WK_Y_MAPPING)
        return "a mapping";
    if (n->kind == WK_Y_SEQUENCE)
        return "a sequence";
    char q = n->plain ? '\'' : '"';
    size_t at = 0;
    buf[at++] = q;
    for (uint32_t i = 0; i < n->length && at + 8 < size; i++) {
        unsigned char ch = (unsigned char)n->text[i];
        if (i == 48) {
            at += (size_t)snprintf(buf + at, size - at, "...");
            break;
        }
        if (ch >= 0x20 && ch < 0x7F && ch != '\\')
            buf[at++] = (char)ch;
        else
            at += (size_t)snprintf(buf + at, size - at, "\\x%02x", ch);
    }
    buf[at++] = q;
    buf[at] = '\0';
    return buf;
}

/* "what: expected FORM, saw X" */
static int bad(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, const char *form)
{
    char seen[160];
    spec_error(c, n, "%s%sexpected %s, saw %s", what && *what ? what : "", what && *what ? ": " : "", form,
               spec_seen(n, seen, sizeof(seen)));
    return -1;
}

const char *spec_format_size(uint64_t v, char *buf, size_t size)
{
    static const char *const units[] = { "GiB", "MiB", "KiB" };
    for (int i = 0; i < 3; i++) {
        uint64_t unit = 1ull << (30 - 10 * i);
        if (v && v % unit == 0) {
            snprintf(buf, size, "%llu%s", (unsigned long long)(v / unit), units[i]);
            return buf;
        }
    }
    snprintf(buf, size, "%llu", (unsigned long long)v);
    return buf;
}

/* ------------------------------------------------------------------ */
/* Numbers                                                              */
/* ------------------------------------------------------------------ */

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Decimal (no leading zero) or 0x hex at s[0..len); 0 ok, -1 not a number,
 * -2 too large. *used receives the characters read (decimal stops early). */
static int parse_number(const char *s, size_t len, uint64_t *out, size_t *used)
{
    uint64_t v = 0;
    size_t i = 0, first = 0;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (i = first = 2; i < len && hexval(s[i]) >= 0; i++) {
            if (v >> 60)
                return -2;
            v = v << 4 | (uint64_t)hexval(s[i]);
        }
    } else {
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            if (i == 1 && s[0] == '0')
                return -1; /* 007: YAML 1.1 reads octal; refuse the ambiguity */
            uint64_t digit = (uint64_t)(s[i] - '0');
            if (v > (UINT64_MAX - digit) / 10)
                return -2;
            v = v * 10 + digit;
        }
    }
    if (i == first)
        return -1;
    *out = v;
    *used = i;
    return 0;
}

static int number_scalar(const struct wk_ynode *n)
{
    return n && n->kind == WK_Y_SCALAR && n->plain && !spec_is_null(n);
}

/* A plain "007" is refused for its leading zero (YAML 1.1 reads it as
 * octal); the expected form says so, or the message would only repeat
 * "an integer" to someone who wrote one. */
static const char *leading_zero_hint(const struct wk_ynode *n, char *form, size_t size)
{
    if (number_scalar(n) && n->length > 1 && n->text[0] == '0' && n->text[1] >= '0' && n->text[1] <= '9') {
        size_t len = strlen(form);
        snprintf(form + len, size - len, ", without leading zeros (YAML 1.1 reads 007 as octal)");
    }
    return form;
}

static void int_form(uint64_t lo, uint64_t hi, char *buf, size_t size)
{
    if (lo == 0 && hi == UINT32_MAX)
        snprintf(buf, size, "an unsigned 32-bit integer");
    else if (lo == 0 && hi == UINT64_MAX)
        snprintf(buf, size, "an unsigned 64-bit integer");
    else
        snprintf(buf, size, "an integer in %llu..%llu", (unsigned long long)lo, (unsigned long long)hi);
}

int spec_u64(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint64_t lo,
             uint64_t hi, uint64_t *out)
{
    char form[160];
    int_form(lo, hi, form, sizeof(form));
    uint64_t v;
    size_t used;
    if (!number_scalar(n) || parse_number(n->text, n->length, &v, &used) != 0 || used != n->length || v < lo ||
        v > hi)
        return bad(c, n, what, leading_zero_hint(n, form, sizeof(form)));
    *out = v;
    return 1;
}

int spec_i64(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, int64_t *out)
{
    static const char form[] = "a signed 64-bit integer";
    if (!number_scalar(n))
        return bad(c, n, what, form);
    int neg = n->text[0] == '-';
    size_t skip = neg || n->text[0] == '+';
    uint64_t v;
    size_t used;
    if (parse_number(n->text + skip, n->length - skip, &v, &used) != 0 || used != n->length - skip ||
        v > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
        return bad(c, n, what, form);
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 1;
}

/* A decimal number with a unit, or a plain number; 0 ok, -1 bad form,
 * -2 overflows. */
static int parse_size(const char *s, size_t len, uint64_t *out)
{
    static const struct { const char *name; unsigned shift; } units[] = {
        { "B", 0 }, { "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 },
    };
    uint64_t v;
    size_t used;
    int r = parse_number(s, len, &v, &used);
    if (r != 0 || used == len) {
        *out = v;
        return r;
    }
    if (s[1] == 'x' || s[1] == 'X')
        return -1; /* no units after hex: 0x10B is a number */
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strlen(units[i].name) == len - used && memcmp(s + used, units[i].name, len - used) == 0) {
            if (v > (UINT64_MAX >> units[i].shift))
                return -2;
            *out = v << units[i].shift;
            return 0;
        }
    }
    return -1;
}

/* A bound in a message: spec_format_size, or one below a unit as
 * "256MiB - 1" rather than 268435455 (not for the YAML writer: no loader
 * reads that form back). */
static const char *bound_text(uint64_t v, char *buf, size_t size)
{
    spec_format_size(v, buf, size);
    if (v != UINT64_MAX && (v + 1) % 1024 == 0 && strspn(buf, "0123456789") == strlen(buf)) {
        char up[24];
        spec_format_size(v + 1, up, sizeof(up));
        snprintf(buf, size, "%.23s - 1", up);
    }
    return buf;
}

int spec_size(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint64_t lo,
              uint64_t hi, uint64_t *out)
{
    uint64_t v = 0;
    int r = number_scalar(n) ? parse_size(n->text, n->length, &v) : -1;
    if (r == -1) {
        char form[160] = "a size (a number with an optional unit B, KiB, MiB or GiB)";
        return bad(c, n, what, leading_zero_hint(n, form, sizeof(form)));
    }
    if (r == -2 || v < lo || v > hi) {
        char form[96], a[32], b[32];
        snprintf(form, sizeof(form), "a size in %.31s..%.31s", bound_text(lo, a, sizeof(a)), bound_text(hi, b, sizeof(b)));
        return bad(c, n, what, form);
    }
    *out = v;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Other scalars                                                        */
/* ------------------------------------------------------------------ */

int spec_bool(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, int *out)
{
    if (number_scalar(n) && strcmp(n->text, "true") == 0)
        *out = 1;
    else if (number_scalar(n) && strcmp(n->text, "false") == 0)
        *out = 0;
    else
        return bad(c, n, what, "true or false");
    return 1;
}

int spec_string(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, char *out,
                size_t max)
{
    char form[80];
    snprintf(form, sizeof(form), "a non-empty one-line string of at most %zu characters", max - 1);
    if (!n || n->kind != WK_Y_SCALAR || spec_is_null(n))
        return bad(c, n, what, form);
    uint32_t len = n->length;
    if (len && n->text[len - 1] == '\n' && !n->plain) /* a folded block scalar's final newline */
        len--;
    if (len == 0 || len >= max)
        return bad(c, n, what, form);
    for (uint32_t i = 0; i < len; i++)
        if ((unsigned char)n->text[i] < 0x20 || n->text[i] == 0x7F)
            return bad(c, n, what, form);
    memcpy(out, n->text, len);
    out[len] = '\0';
    return 1;
}

int spec_hex(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint8_t *out,
             uint32_t max, uint32_t *length)
{
    static const char form[] = "hex bytes (pairs of hex digits, spaces allowed between bytes)";
    if (!n || n->kind != WK_Y_SCALAR || spec_is_null(n))
        return bad(c, n, what, form);
    uint32_t count = 0;
    for (uint32_t i = 0; i < n->length;) {
        char ch = n->text[i];
        if (ch == ' ' || ch == '\t' || ch == '\n') {
            i++;
            continue;
        }
        if (i + 1 >= n->length || hexval(ch) < 0 || hexval(n->text[i + 1]) < 0)
            return bad(c, n, what, form);
        if (count < max)
            out[count] = (uint8_t)(hexval(ch) << 4 | hexval(n->text[i + 1]));
        count++;
        i += 2;
    }
    if (count == 0)
        return bad(c, n, what, form);
    if (count > max) {
        char f[64];
        snprintf(f, sizeof(f), "at most %u hex bytes", max);
        spec_error(c, n, "%s%sexpected %s, saw %u", what && *what ? what : "", what && *what ? ": " : "", f, count);
        return -1;
    }
    *length = count;
    return 1;
}

int spec_word(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what,
              const char *const *words, const char *form, uint32_t *out)
{
    if (n && n->kind == WK_Y_SCALAR && !spec_is_null(n)) {
        for (uint32_t i = 0; words[i]; i++) {
            if (strlen(words[i]) == n->length && strcmp(words[i], n->text) == 0) {
                *out = i;
                return 1;
            }
        }
    }
    char list[1024];
    size_t at = (size_t)snprintf(list, sizeof(list), "%s (one of:", form);
    for (uint32_t i = 0; words[i] && at < sizeof(list); i++)
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s %s", i ? "," : "", words[i]);
    if (at < sizeof(list))
        snprintf(list + at, sizeof(list) - at, ")");
    return bad(c, n, what, list);
}

/* ------------------------------------------------------------------ */
/* Collections                                                          */
/* ------------------------------------------------------------------ */

int spec_seq(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint32_t max,
             int empty_ok)
{
    const char *w = what && *what ? what : "";
    const char *sep = what && *what ? ": " : "";
    if (!n || n->kind != WK_Y_SEQUENCE)
        return bad(c, n, what, "a sequence");
    if (n->count == 0 && !empty_ok) {
        spec_error(c, n, "%s%sexpected at least one entry, saw an empty sequence", w, sep);
        return -1;
    }
    if (n->count > max) {
        const struct wk_ynode *extra = n->child;
        for (uint32_t i = 0; i < max; i++)
            extra = extra->next;
        spec_error(c, extra, "%s%sexpected at most %u entr%s, saw %u", w, sep, max, max == 1 ? "y" : "ies", n->count);
        return -1;
    }
    return 1;
}

const struct wk_ynode *spec_later(const struct wk_ynode *a, const struct wk_ynode *b)
{
    return b->line > a->line || (b->line == a->line && b->column > a->column) ? b : a;
}

int spec_map(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what)
{
    return n && n->kind == WK_Y_MAPPING ? 1 : bad(c, n, what, "a mapping");
}

static int key_index(const struct wk_ynode *k, const char *const *allowed)
{
    for (int i = 0; allowed[i]; i++)
        if (strlen(allowed[i]) == k->length && strcmp(allowed[i], k->text) == 0)
            return i;
    return -1;
}

static void unknown_key(struct wk_spec_ctx *c, const struct wk_ynode *k, const char *const *allowed)
{
    char seen[160], list[512];
    size_t at = 0;
    list[0] = '\0';
    for (int i = 0; allowed[i] && at < sizeof(list); i++)
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", allowed[i]);
    spec_error(c, k, "unknown key %s (expected one of: %s)", spec_seen(k, seen, sizeof(seen)), list);
}

uint32_t spec_check_keys(struct wk_spec_ctx *c, const struct wk_ynode *map,
                         const char *const *allowed, const char *const *required)
{
    uint32_t before = c->errors;
    const struct wk_ynode *first[64] = { NULL };
    for (const struct wk_ynode *k = map->child; k && k->next; k = k->next->next) {
        if (k->kind != WK_Y_SCALAR) {
            char seen[160];
            spec_error(c, k, "expected a key name, saw %s", spec_seen(k, seen, sizeof(seen)));
            continue;
        }
        int i = key_index(k, allowed);
        if (i < 0 || i >= 64) {
            unknown_key(c, k, allowed);
        } else if (first[i]) {
            spec_error(c, k, "duplicate key '%s' (first at %u:%u)", allowed[i], first[i]->line, first[i]->column);
        } else {
            first[i] = k;
        }
    }
    for (int r = 0; required && required[r]; r++)
        if (!wk_ymap_key(map, required[r]))
            spec_error(c, map, "missing required key '%s'", required[r]);
    return c->errors - before;
}

/* ------------------------------------------------------------------ */
/* Keyed forms                                                          */
/* ------------------------------------------------------------------ */

#define KEYED(map, key, call)                              \
    do {                                                   \
        const struct wk_ynode *v_ = wk_ymap_get(map, key); \
        if (!v_)                                           \
            return 0;                                      \
        char what_[80];                                    \
        snprintf(what_, sizeof(what_), "key '%s'", key);   \
        return call;                                       \
    } while (0)

int spec_get_u64(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, uint64_t lo,
                 uint64_t hi, uint64_t *out)
{
    KEYED(map, key, spec_u64(c, v_, what_, lo, hi, out));
}

int spec_get_u32(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, uint32_t lo,
                 uint32_t hi, uint32_t *out)
{
    uint64_t v = 0;
    int r = spec_get_u64(c, map, key, lo, hi, &v);
    if (r == 1)
        *out = (uint32_t)v;
    return r;
}

int spec_get_size(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, uint64_t lo,
                  uint64_t hi, uint64_t *out)
{
    KEYED(map, key, spec_size(c, v_, what_, lo, hi, out));
}

int spec_get_bool(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, int *out)
{
    KEYED(map, key, spec_bool(c, v_, what_, out));
}

int spec_get_word(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key,
                  const char *const *words, const char *form, uint32_t *out)
{
    KEYED(map, key, spec_word(c, v_, what_, words, form, out));
}

/* A list of words, each a bit of *out (the word's index in `words`):
 * `flags: [cpu_visible, cached]`. Words already set stay set. */
void spec_get_word_set(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key,
                       const char *const *words, const char *form, uint32_t *out)
{
    const struct wk_ynode *list = wk_ymap_get(map, key);
    char what[48];
    snprintf(what, sizeof(what), "key '%s'", key);
    if (!list || spec_seq(c, list, what, 32, 1) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "%s[%u]", key, i), bit = 0;
        if (spec_word(c, e, NULL, words, form, &bit) == 1)
            *out |= 1u << bit;
        spec_scope_pop(c, mark);
    }
}
