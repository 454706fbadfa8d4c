/* SPDX-License-Identifier: MIT */
/*
 * wdk_surface_scan.c - the header scanner of tests/wdk_surface.c: cuts a
 * header of include/wddmkit/ into tokens and finds the Windows names it
 * defines, each with the comment above it (tests/wdk_surface.h says why a
 * scanner and what it knows).
 *
 * A comment stands above every definition that follows it until a blank
 * line or the next comment, so one comment over a block of #defines is
 * the note of each (the headers group SAL macros and typedefs that way).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "wdk_surface.h"

#define HEADER_LIMIT (4u << 20) /* the largest header is about 80 KB */
#define NOTE_MAX 280            /* bytes of a note before it is cut at a word */

/* ------------------------------------------------------------------ */
/* Tokens                                                               */
/* ------------------------------------------------------------------ */

static void push_tok(struct surf_toks *t, enum surf_tok_kind kind, const char *s, size_t n, int first)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        struct surf_tok *v = realloc(t->v, cap * sizeof(*v));
        if (!v) {
            fprintf(stderr, "wdk_surface: out of memory\n");
            exit(2);
        }
        t->v = v;
        t->cap = cap;
    }
    t->v[t->n++] = (struct surf_tok){ kind, s, n, first };
}

/* The end of the comment that starts at p ("/ *" or "//"). */
static const char *comment_end(const char *p, const char *end)
{
    if (p[1] == '/') {
        while (p < end && *p != '\n')
            p++;
        return p;
    }
    for (p += 2; p + 1 < end; p++)
        if (p[0] == '*' && p[1] == '/')
            return p + 2;
    return end;
}

/* The end of a directive line: continuations and comments are part of it. */
static const char *directive_end(const char *p, const char *end)
{
    while (p < end && *p != '\n') {
        if (*p == '\\' && p + 1 < end && p[1] == '\n')
            p += 2;
        else if (*p == '/' && p + 1 < end && (p[1] == '*' || p[1] == '/'))
            p = comment_end(p, end);
        else
            p++;
    }
    return p;
}

static const char *string_end(const char *p, const char *end)
{
    char quote = *p++;
    while (p < end && *p != quote && *p != '\n')
        p += (*p == '\\' && p + 1 < end) ? 2 : 1;
    return p < end && *p == quote ? p + 1 : p;
}

static const char *word_end(const char *p, const char *end)
{
    while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '.'))
        p++;
    return p;
}

/* One token at p (p is not a blank); its end. */
static const char *lex_one(struct surf_toks *out, const char *p, const char *end, int first)
{
    const char *q;
    enum surf_tok_kind kind = SURF_PUNCT;
    if (*p == '/' && p + 1 < end && (p[1] == '*' || p[1] == '/')) {
        q = comment_end(p, end);
        size_t delimiters = p[1] == '*' ? 4 : 2, len = (size_t)(q - p);
        push_tok(out, SURF_COMMENT, p + 2, len >= delimiters ? len - delimiters : 0, first);
        return q;
    }
    if (*p == '#' && first) {
        q = directive_end(p, end);
        kind = SURF_DIRECTIVE;
    } else if (*p == '"' || *p == '\'') {
        q = string_end(p, end);
        kind = SURF_STRING;
    } else if (isalpha((unsigned char)*p) || *p == '_') {
        q = p;
        while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
            q++;
        kind = SURF_IDENT;
    } else if (isdigit((unsigned char)*p)) {
        q = word_end(p, end);
        kind = SURF_NUMBER;
    } else {
        q = p + 1;
    }
    push_tok(out, kind, p, (size_t)(q - p), first);
    return q;
}

static void lex(const char *text, size_t len, struct surf_toks *out)
{
    const char *p = text, *end = text + len;
    int line_has_token = 0;
    while (p < end) {
        if (*p == '\n') {
            if (!line_has_token)
                push_tok(out, SURF_BLANK, p, 0, 1);
            line_has_token = 0;
            p++;
        } else if (isspace((unsigned char)*p)) {
            p++;
        } else {
            p = lex_one(out, p, end, !line_has_token);
            line_has_token = 1;
        }
    }
}

int surf_header_load(struct surf_header *h, const char *path, const char *name)
{
    uint8_t *data = NULL;
    size_t size = 0;
    char why[256];
    memset(h, 0, sizeof(*h));
    if (wk_file_read(path, HEADER_LIMIT, &data, &size, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "wdk_surface: %s: %s\n", path, why);
        return -1;
    }
    snprintf(h->name, sizeof(h->name), "%s", name);
    h->text = realloc(data, size + 1); /* a terminator, for the string searches below */
    if (!h->text) {
        free(data);
        fprintf(stderr, "wdk_surface: out of memory\n");
        return -1;
    }
    h->text[size] = '\0';
    h->len = size;
    lex(h->text, h->len, &h->toks);
    return 0;
}

void surf_header_free(struct surf_header *h)
{
    free(h->text);
    free(h->toks.v);
    memset(h, 0, sizeof(*h));
}

/* ------------------------------------------------------------------ */
/* Comments as notes                                                    */
/* ------------------------------------------------------------------ */

/* Appends c to out unless it repeats a blank; leading blanks dropped. */
static void put_char(char *out, size_t cap, size_t *n, char c)
{
    if (isspace((unsigned char)c)) {
        if (*n == 0 || out[*n - 1] == ' ')
            return;
        c = ' ';
    }
    if (*n + 1 < cap)
        out[(*n)++] = c;
}

void surf_comment_text(const struct surf_tok *t, char *out, size_t cap)
{
    size_t n = 0;
    int line_start = 1;
    for (size_t i = 0; i < t->n; i++) {
        char c = t->s[i];
        if (c == '\n')
            line_start = 1;
        else if (line_start && c == '*')
            continue; /* the decoration at the start of a comment line */
        else if (!isspace((unsigned char)c))
            line_start = 0;
        put_char(out, cap, &n, c);
    }
    while (n && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

/* A sentence ends at '.', '!' or '?' before a blank and a capital (or the
 * end): "e.g. the" and "0x1.5" do not end one. */
static size_t sentence_len(const char *s)
{
    size_t i = 0;
    for (; s[i]; i++) {
        if ((s[i] == '.' || s[i] == '!' || s[i] == '?') &&
            (s[i + 1] == '\0' || (s[i + 1] == ' ' && (isupper((unsigned char)s[i + 2]) || s[i + 2] == '\0'))))
            return i + 1;
    }
    return i;
}

/* Whether s[0..n) holds word as a whole word. */
static int has_word(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, word, k) == 0 && (i == 0 || !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')) &&
            (i + k == n || !(isalnum((unsigned char)s[i + k]) || s[i + k] == '_')))
            return 1;
    return 0;
}

static int has_letters(const char *s)
{
    for (; *s; s++)
        if (isalpha((unsigned char)*s))
            return 1;
    return 0;
}

/* Cuts s at a word boundary to at most NOTE_MAX bytes, marking the cut. */
static void cap_note(char *s)
{
    size_t n = strlen(s);
    if (n <= NOTE_MAX)
        return;
    n = NOTE_MAX - 4;
    while (n && s[n] != ' ')
        n--;
    memcpy(s + n, " ...", 5);
}

/* The first sentence of text after its first that holds word, or NULL;
 * its length in *n. */
static const char *later_sentence_with(const char *text, const char *word, size_t *n)
{
    const char *s = text + sentence_len(text);
    while (*s) {
        while (*s == ' ')
            s++;
        *n = sentence_len(s);
        if (*n && has_word(s, *n, word))
            return s;
        s += *n;
    }
    return NULL;
}

/*
 * The note a comment gives a name: its first sentence, which says what the
 * name is, and then the sentence that says how the kit differs, where the
 * header says so - for a comment above one definition, the first later
 * sentence about the kit (else about Windows, when the first sentence is
 * not); for a comment above a group, the later sentence that names this
 * member. NULL for a comment without words.
 */
static char *note_of(const struct surf_tok *comment, const char *name, int shared)
{
    char text[4096];
    surf_comment_text(comment, text, sizeof(text));
    if (!has_letters(text))
        return NULL;
    size_t first = sentence_len(text), extra_len = 0;
    const char *extra = NULL;
    if (shared)
        extra = later_sentence_with(text, name, &extra_len);
    else if (!has_word(text, first, "kit") &&
             !(extra = later_sentence_with(text, "kit", &extra_len)) && !has_word(text, first, "Windows"))
        extra = later_sentence_with(text, "Windows", &extra_len);
    char *note = malloc(first + extra_len + 2);
    if (!note)
        return NULL;
    memcpy(note, text, first);
    note[first] = '\0';
    if (extra) {
        note[first] = ' ';
        memcpy(note + first + 1, extra, extra_len);
        note[first + 1 + extra_len] = '\0';
    }
    cap_note(note);
    return note;
}

/* ------------------------------------------------------------------ */
/* Definitions                                                          */
/* ------------------------------------------------------------------ */

static int tok_is(const struct surf_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->n == n && memcmp(t->s, s, n) == 0;
}

static int punct_is(const struct surf_tok *t, char c)
{
    return t->kind == SURF_PUNCT && t->s[0] == c;
}

/* The kit's own names, the compiler's and C's: not Windows names. */
static int not_windows(const char *name, const char *kind)
{
    static const char *const prefixes[] = { "wk_", "WK_", "Wk", "WDDMKIT_" };
    static const char *const words[] = { "_Static_assert", "static_assert", "__asm__", "__attribute__",
                                         "sizeof", "template", "alignas" };
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strcmp(name, words[i]) == 0)
            return 1;
    /* A double underscore names the compiler's and its runtime's functions;
     * the macros so named (__try, __in) are the Windows dialect's. */
    return strncmp(name, "__", 2) == 0 && strcmp(kind, "macro") != 0;
}

const struct surf_def *surf_find_def(const struct surf_defs *defs, const char *name)
{
    for (size_t i = 0; i < defs->n; i++)
        if (strcmp(defs->v[i].name, name) == 0)
            return &defs->v[i];
    return NULL;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) {
        fprintf(stderr, "wdk_surface: out of memory\n");
        exit(2);
    }
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

struct scan {
    struct surf_defs *defs;
    size_t header;
    const struct surf_tok *comment; /* the comment standing above, or NULL */
};

static void add_def(struct scan *sc, const char *name, size_t n, const char *kind)
{
    char buf[128];
    if (n == 0 || n >= sizeof(buf))
        return;
    memcpy(buf, name, n);
    buf[n] = '\0';
    if (not_windows(buf, kind) || surf_find_def(sc->defs, buf))
        return;
    struct surf_defs *d = sc->defs;
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 256;
        struct surf_def *v = realloc(d->v, cap * sizeof(*v));
        if (!v) {
            fprintf(stderr, "wdk_surface: out of memory\n");
            exit(2);
        }
        d->v = v;
        d->cap = cap;
    }
    d->v[d->n++] = (struct surf_def){ dup_n(buf, n), kind, NULL, sc->header, sc->comment };
}

/* `#define NAME...`: NAME, with the comment ending the line, if any, as
 * its note (the headers put a constant's meaning there). */
static void scan_directive(struct scan *sc, const struct surf_tok *t)
{
    const char *p = t->s + 1, *end = t->s + t->n;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p < 7 || memcmp(p, "define", 6) != 0 || !isspace((unsigned char)p[6]))
        return;
    p += 6;
    while (p < end && isspace((unsigned char)*p))
        p++;
    const char *name = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
        p++;
    const char *trailing = NULL;
    for (const char *q = p; q + 1 < end && !trailing; q++)
        if (q[0] == '/' && q[1] == '*')
            trailing = q + 2;
    size_t before = sc->defs->n;
    add_def(sc, name, (size_t)(p - name), "macro");
    if (trailing && sc->defs->n > before) {
        const char *stop = trailing;
        while (stop + 1 < end && !(stop[0] == '*' && stop[1] == '/'))
            stop++;
        struct surf_tok comment = { SURF_COMMENT, trailing, (size_t)(stop - trailing), 0 };
        struct surf_def *d = &sc->defs->v[before];
        d->note = note_of(&comment, d->name, 0);
        d->comment = NULL;
    }
}

/* The index just past the token that closes the bracket at i. */
static size_t skip_group(const struct surf_toks *t, size_t i, char open, char close)
{
    int depth = 0;
    for (; i < t->n; i++) {
        if (t->v[i].kind != SURF_PUNCT)
            continue;
        if (t->v[i].s[0] == open)
            depth++;
        else if (t->v[i].s[0] == close && --depth == 0)
            return i + 1;
    }
    return t->n;
}

/* The first identifier of each item of the enum body [i, end). */
static void scan_enumerators(struct scan *sc, const struct surf_toks *t, size_t i, size_t end)
{
    int want = 1;
    for (; i < end; i++) {
        const struct surf_tok *k = &t->v[i];
        if (k->kind == SURF_IDENT && want) {
            add_def(sc, k->s, k->n, "enumerator");
            want = 0;
        } else if (punct_is(k, ',')) {
            want = 1;
        }
    }
}

/* A statement without its bodies: the indices of its tokens. */
struct stmt {
    size_t idx[512];
    size_t n;
    int has_body;
};

static void stmt_push(struct stmt *s, size_t i)
{
    if (s->n < sizeof(s->idx) / sizeof(s->idx[0]))
        s->idx[s->n++] = i;
}

/* The index in s just past the ")" that closes the "(" at s index j. */
static size_t group_end(const struct surf_toks *t, const struct stmt *s, size_t j, size_t to)
{
    size_t depth = 0;
    for (; j < to; j++) {
        if (punct_is(&t->v[s->idx[j]], '('))
            depth++;
        else if (punct_is(&t->v[s->idx[j]], ')') && --depth == 0)
            return j + 1;
    }
    return to;
}

/* The name of the declarator [from, to) of a typedef. In `RET (*NAME)(...)`
 * the first parenthesised group is followed by the parameters and holds
 * the name last; in a function type `RET NAME(...)` the name comes before
 * the only group; otherwise the name is the last identifier (before any
 * array bound). */
static void typedef_declarator(struct scan *sc, const struct surf_toks *t, const struct stmt *s, size_t from,
                               size_t to)
{
    const struct surf_tok *last = NULL;
    for (size_t j = from; j < to; j++) {
        const struct surf_tok *k = &t->v[s->idx[j]];
        if (punct_is(k, '[')) {
            break;
        } else if (punct_is(k, '(')) {
            size_t close = group_end(t, s, j, to);
            if (close < to && punct_is(&t->v[s->idx[close]], '('))
                for (size_t m = j + 1; m + 1 < close; m++)
                    if (t->v[s->idx[m]].kind == SURF_IDENT)
                        last = &t->v[s->idx[m]];
            break;
        } else if (k->kind == SURF_IDENT) {
            last = k;
        }
    }
    if (last)
        add_def(sc, last->s, last->n, "type");
}

/* typedef ... NAME, *PNAME;: each declarator after the body (or after the
 * base type when there is none) names a type. */
static void scan_typedef(struct scan *sc, const struct surf_toks *t, const struct stmt *s, size_t after_body)
{
    size_t from = after_body, depth = 0;
    for (size_t j = after_body; j <= s->n; j++) {
        if (j == s->n || (depth == 0 && punct_is(&t->v[s->idx[j]], ','))) {
            typedef_declarator(sc, t, s, from, j);
            from = j + 1;
        } else if (punct_is(&t->v[s->idx[j]], '(')) {
            depth++;
        } else if (punct_is(&t->v[s->idx[j]], ')') && depth) {
            depth--;
        }
    }
}

/* A function definition or declaration: the identifier before the first
 * "(" outside __attribute__((...)), or "operator new[]" and the like. */
static void scan_function(struct scan *sc, const struct surf_toks *t, const struct stmt *s)
{
    for (size_t j = 0; j < s->n; j++) {
        const struct surf_tok *k = &t->v[s->idx[j]];
        if (tok_is(k, "__attribute__")) {
            size_t depth = 0;
            for (j++; j < s->n; j++) {
                if (punct_is(&t->v[s->idx[j]], '('))
                    depth++;
                else if (punct_is(&t->v[s->idx[j]], ')') && --depth == 0)
                    break;
            }
            continue;
        }
        if (!punct_is(k, '(') || j == 0)
            continue;
        size_t at = j - 1;
        int array = at >= 2 && punct_is(&t->v[s->idx[at]], ']') && punct_is(&t->v[s->idx[at - 1]], '[');
        if (array)
            at -= 2;
        const struct surf_tok *name = &t->v[s->idx[at]];
        if (name->kind != SURF_IDENT)
            return;
        if (at > 0 && tok_is(&t->v[s->idx[at - 1]], "operator")) {
            char op[64];
            snprintf(op, sizeof(op), "operator %.*s%s", (int)name->n, name->s, array ? "[]" : "");
            add_def(sc, op, strlen(op), "C++ operator");
            return;
        }
        add_def(sc, name->s, name->n, "function");
        return;
    }
}

/* Whether the statement so far is a function's head (a body follows). */
static int is_function_head(const struct surf_toks *t, const struct stmt *s)
{
    if (s->n == 0)
        return 0;
    const struct surf_tok *first = &t->v[s->idx[0]];
    if (tok_is(first, "typedef") || tok_is(first, "struct") || tok_is(first, "enum") ||
        tok_is(first, "union") || tok_is(first, "template"))
        return 0;
    for (size_t j = 0; j < s->n && !tok_is(&t->v[s->idx[j]], "operator"); j++)
        if (punct_is(&t->v[s->idx[j]], '='))
            return 0; /* an initialiser; "operator==" is a name */
    for (size_t j = 0; j < s->n; j++)
        if (punct_is(&t->v[s->idx[j]], '('))
            return 1;
    return 0;
}

static void classify(struct scan *sc, const struct surf_toks *t, const struct stmt *s, size_t after_body)
{
    if (s->n == 0)
        return;
    if (tok_is(&t->v[s->idx[0]], "typedef"))
        scan_typedef(sc, t, s, s->has_body ? after_body : 1);
    else if (!s->has_body || is_function_head(t, s))
        scan_function(sc, t, s);
}

/* Whether the body opening at index i belongs to an enum of statement s. */
static int body_is_enum(const struct surf_toks *t, const struct stmt *s)
{
    for (size_t j = 0; j < s->n; j++)
        if (tok_is(&t->v[s->idx[j]], "enum"))
            return 1;
    return 0;
}

/* One statement from index i: a declaration ending at ";", or a function
 * with its body; returns the index after it. */
static size_t scan_statement(struct scan *sc, const struct surf_toks *t, size_t i)
{
    struct stmt s = { .n = 0, .has_body = 0 };
    size_t after_body = 0, parens = 0;
    for (; i < t->n; i++) {
        const struct surf_tok *k = &t->v[i];
        if (k->kind == SURF_COMMENT || k->kind == SURF_DIRECTIVE || k->kind == SURF_BLANK)
            continue;
        if (punct_is(k, '('))
            parens++;
        else if (punct_is(k, ')') && parens)
            parens--;
        if (parens == 0 && punct_is(k, ';')) {
            classify(sc, t, &s, after_body);
            return i + 1;
        }
        if (parens == 0 && punct_is(k, '{')) {
            size_t end = skip_group(t, i, '{', '}');
            if (is_function_head(t, &s)) {
                scan_function(sc, t, &s);
                return end;
            }
            if (body_is_enum(t, &s))
                scan_enumerators(sc, t, i + 1, end - 1);
            s.has_body = 1;
            after_body = s.n;
            i = end - 1;
            continue;
        }
        stmt_push(&s, i);
    }
    classify(sc, t, &s, after_body);
    return i;
}

/* The notes of the definitions from index `from` on, once all are known:
 * whether a comment stands above one definition or a group decides which
 * of its sentences a note takes (note_of). */
static void assign_notes(struct surf_defs *defs, size_t from)
{
    for (size_t i = from; i < defs->n; i++) {
        struct surf_def *d = &defs->v[i];
        if (!d->comment || d->note)
            continue;
        size_t sharing = 0;
        for (size_t j = from; j < defs->n; j++)
            sharing += defs->v[j].comment == d->comment;
        d->note = note_of(d->comment, d->name, sharing > 1);
    }
}

void surf_scan_defs(const struct surf_header *h, size_t header_index, struct surf_defs *defs)
{
    size_t from = defs->n;
    const struct surf_toks *t = &h->toks;
    struct scan sc = { defs, header_index, NULL };
    int extern_c = 0;
    for (size_t i = 0; i < t->n;) {
        const struct surf_tok *k = &t->v[i];
        if (k->kind == SURF_BLANK) {
            sc.comment = NULL;
            i++;
        } else if (k->kind == SURF_COMMENT) {
            if (k->first_on_line)
                sc.comment = k;
            i++;
        } else if (k->kind == SURF_DIRECTIVE) {
            scan_directive(&sc, k);
            i++;
        } else if (tok_is(k, "extern") && i + 2 < t->n && t->v[i + 1].kind == SURF_STRING &&
                   punct_is(&t->v[i + 2], '{')) {
            extern_c++; /* extern "C" { ... }: its braces hold declarations */
            i += 3;
        } else if (tok_is(k, "extern") && i + 1 < t->n && t->v[i + 1].kind == SURF_STRING) {
            i += 2;
        } else if (punct_is(k, '}') && extern_c) {
            extern_c--;
            i++;
        } else {
            i = scan_statement(&sc, t, i);
        }
    }
    assign_notes(defs, from);
}

void surf_defs_free(struct surf_defs *defs)
{
    for (size_t i = 0; i < defs->n; i++) {
        free(defs->v[i].name);
        free(defs->v[i].note);
    }
    free(defs->v);
    memset(defs, 0, sizeof(*defs));
}

/* ------------------------------------------------------------------ */
/* Structs and function-pointer typedefs                               */
/* ------------------------------------------------------------------ */

static void copy_tok(char *out, size_t cap, const struct surf_tok *t)
{
    snprintf(out, cap, "%.*s", (int)t->n, t->s);
}

/* The index of the "{" of `struct tag {`, or t->n. */
static size_t struct_body(const struct surf_toks *t, const char *tag)
{
    for (size_t i = 0; i + 2 < t->n; i++)
        if (tok_is(&t->v[i], "struct") && tok_is(&t->v[i + 1], tag) && punct_is(&t->v[i + 2], '{'))
            return i + 2;
    return t->n;
}

long surf_struct_members(const struct surf_header *h, const char *tag, struct surf_member *out, size_t max)
{
    const struct surf_toks *t = &h->toks;
    size_t i = struct_body(t, tag);
    if (i == t->n)
        return -1;
    size_t end = skip_group(t, i, '{', '}') - 1, n = 0;
    const struct surf_tok *first = NULL, *last = NULL;
    for (i++; i < end; i++) {
        const struct surf_tok *k = &t->v[i];
        if (k->kind == SURF_IDENT) {
            if (!first)
                first = k;
            last = k;
        } else if (punct_is(k, ';') && first && n < max) {
            copy_tok(out[n].type, sizeof(out[n].type), first);
            copy_tok(out[n].name, sizeof(out[n].name), last);
            out[n].comment = i + 1 < end && t->v[i + 1].kind == SURF_COMMENT && !t->v[i + 1].first_on_line
                                 ? &t->v[i + 1]
                                 : NULL;
            n++;
            first = last = NULL;
        }
    }
    return (long)n;
}

int surf_fnptr_return(const struct surf_header *h, const char *name, char *out, size_t cap)
{
    const struct surf_toks *t = &h->toks;
    for (size_t i = 2; i < t->n; i++) {
        if (!tok_is(&t->v[i], name) || !punct_is(&t->v[i - 1], '*') || !punct_is(&t->v[i - 2], '('))
            continue;
        size_t from = i - 2;
        while (from > 0 && !tok_is(&t->v[from], "typedef"))
            from--;
        size_t n = 0;
        out[0] = '\0';
        for (size_t j = from + 1; j < i - 2 && n < cap; j++)
            n += (size_t)snprintf(out + n, cap - n, "%s%.*s", n ? " " : "", (int)t->v[j].n, t->v[j].s);
        return n < cap ? 0 : -1;
    }
    return -1;
}
