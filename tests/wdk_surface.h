/* SPDX-License-Identifier: MIT */
/*
 * wdk_surface.h - what tests/wdk_surface.c needs from the header scanner
 * (tests/wdk_surface_scan.c): the headers of include/wddmkit/ cut into
 * tokens, the Windows names each defines, the members of a struct and the
 * return type of a function-pointer typedef.
 *
 * Why a scanner and not the compiler: the page lists what a header *says*
 * (its names and the comment above each), which the preprocessor throws
 * away. The scanner knows only the shapes these headers use: #define,
 * typedef (struct, enum, function types), static inline functions, C++
 * operators; a shape it does not know is skipped, never guessed at.
 */
#ifndef WK_TESTS_WDK_SURFACE_H
#define WK_TESTS_WDK_SURFACE_H

#include <stddef.h>

enum surf_tok_kind {
    SURF_IDENT,
    SURF_PUNCT,     /* one character */
    SURF_STRING,    /* "..." or '...' */
    SURF_NUMBER,
    SURF_COMMENT,   /* the text between the delimiters */
    SURF_DIRECTIVE, /* a whole preprocessor line, continuations included */
    SURF_BLANK,     /* an empty line: it ends the reach of a comment */
};

struct surf_tok {
    enum surf_tok_kind kind;
    const char *s;
    size_t n;
    int first_on_line; /* nothing but blanks before it on its line */
};

struct surf_toks {
    struct surf_tok *v;
    size_t n, cap;
};

/* One header: its file name, its text and its tokens (which point into it). */
struct surf_header {
    char name[64];
    char *text;
    size_t len;
    struct surf_toks toks;
};

/* A Windows name a header defines, and the note of the comment above it. */
struct surf_def {
    char *name;
    const char *kind; /* "function", "macro", "type", "enumerator", "C++ operator" */
    char *note;       /* one sentence, or NULL */
    size_t header;    /* index into the caller's array of headers */
    const struct surf_tok *comment; /* the comment standing above it, or NULL */
};

struct surf_defs {
    struct surf_def *v;
    size_t n, cap;
};

/* A member of a struct: its type's first word, its name, and the comment
 * that ends its line (NULL when none). */
struct surf_member {
    char type[96];
    char name[96];
    const struct surf_tok *comment;
};

/* Reads path into h and cuts it into tokens; 0 on success, -1 with a
 * message on stderr. */
int surf_header_load(struct surf_header *h, const char *path, const char *name);
void surf_header_free(struct surf_header *h);

/* Adds to defs every Windows name h defines that defs does not hold yet
 * (the kit's own wk_ and WK_ names and the compiler's are left out). */
void surf_scan_defs(const struct surf_header *h, size_t header_index, struct surf_defs *defs);
const struct surf_def *surf_find_def(const struct surf_defs *defs, const char *name);
void surf_defs_free(struct surf_defs *defs);

/* The members of `struct tag { ... }` in h, up to max; the count found,
 * -1 when h has no such struct. */
long surf_struct_members(const struct surf_header *h, const char *tag, struct surf_member *out, size_t max);

/* The return type of `typedef RET (*name)(...)` in h, spelled with single
 * spaces, into out; 0 when found. */
int surf_fnptr_return(const struct surf_header *h, const char *name, char *out, size_t cap);

/* The text of a comment token as one line (decoration and runs of blanks
 * removed) into out, of at most cap bytes. */
void surf_comment_text(const struct surf_tok *t, char *out, size_t cap);

#endif /* WK_TESTS_WDK_SURFACE_H */
