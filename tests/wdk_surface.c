/* SPDX-License-Identifier: MIT */
/*
 * wdk_surface.c - prints docs/wdk-surface.md: every WDK name a miniport's
 * DDI code touches (the DDIs of DRIVER_INITIALIZATION_DATA, the callbacks
 * of DXGKRNL_INTERFACE, the kernel routines and macros of km*.h, and the
 * kernel names docs/data/wdk-kernel-names.txt lists) with what the kit
 * does with each.
 *
 *     wk_wdk_surface ROOT > ROOT/docs/wdk-surface.md
 *
 * Why generated: each answer already lives in the code - which DDIs the
 * kit calls in reference-impl/vidmm/ddi_table.c (wk_dxgk_undriven), which
 * callbacks are counted stubs in callbacks_unmodelled.c
 * (wk_vidmm_unmodelled_callback), which names a header defines in the
 * header - so the page is printed from there and the test
 * surface.doc_current keeps the committed copy equal to it. A name added
 * to a header, or a DDI the kit starts to call, moves on the page by
 * itself.
 *
 * Why here and not in `wddmkit`: the page is built from the source tree
 * (the headers' text and comments, the list of names), which an installed
 * kit does not need; tests/ may use any module (docs/architecture.md), so
 * it links the vidmm library for the two tables.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "reference.h"
#include "util.h"
#include "wdk_surface.h"

#define MAX_HEADERS 32
#define MAX_MEMBERS 256
#define LIST_LIMIT (1u << 20)

struct page {
    struct surf_header headers[MAX_HEADERS];
    size_t nheaders;
    size_t nkm; /* headers[0..nkm) are the km*.h ones */
    struct surf_defs defs;
    const struct surf_header *dispmprt;
};

/* ------------------------------------------------------------------ */
/* Markdown                                                             */
/* ------------------------------------------------------------------ */

/* Prints s as the text of a table cell: "|" escaped everywhere, and
 * outside `code` the characters Markdown would take for emphasis or HTML. */
static void put_cell(FILE *out, const char *s)
{
    int code = 0;
    for (; *s; s++) {
        if (*s == '`')
            code = !code;
        if (*s == '|')
            fputs("\\|", out);
        else if (!code && (*s == '*' || *s == '_' || *s == '\\'))
            fprintf(out, "\\%c", *s);
        else if (!code && *s == '<')
            fputs("&lt;", out);
        else
            fputc(*s, out);
    }
}

/* ------------------------------------------------------------------ */
/* Interface versions                                                   */
/* ------------------------------------------------------------------ */

/* The DXGKDDI_INTERFACE_VERSION_* constants in order, by the suffix the
 * headers' guards use (dispmprt.h, "0x1F0 >= WIN7"). */
static const struct version {
    ULONG value;
    const char *name;
} versions[] = {
    { DXGKDDI_INTERFACE_VERSION_VISTA, "VISTA" },     { DXGKDDI_INTERFACE_VERSION_VISTA_SP1, "VISTA_SP1" },
    { DXGKDDI_INTERFACE_VERSION_WIN7, "WIN7" },       { DXGKDDI_INTERFACE_VERSION_WIN8, "WIN8" },
    { DXGKDDI_INTERFACE_VERSION_WDDM1_3, "WDDM1_3" }, { DXGKDDI_INTERFACE_VERSION_WDDM2_0, "WDDM2_0" },
    { DXGKDDI_INTERFACE_VERSION_WDDM2_1, "WDDM2_1" }, { DXGKDDI_INTERFACE_VERSION_WDDM2_2, "WDDM2_2" },
    { DXGKDDI_INTERFACE_VERSION_WDDM2_3, "WDDM2_3" },
};
#define NVERSIONS (sizeof(versions) / sizeof(versions[0]))

static void put_version(FILE *out, const struct version *v)
{
    fprintf(out, "%s (0x%04X)", v->name, (unsigned)v->value);
}

/* The first version whose table holds the byte at offset: the version
 * that added the member there (ddi_table.c: members are appended). */
static const struct version *version_adding(size_t offset)
{
    for (size_t i = 0; i < NVERSIONS; i++)
        if (wk_dxgk_table_size(versions[i].value) > offset)
            return &versions[i];
    return NULL;
}

/* The version a guard comment ("0x0B8 >= WIN8", "0x010 base") names. */
static const struct version *version_of_guard(const struct surf_tok *comment)
{
    char text[128];
    if (!comment)
        return NULL;
    surf_comment_text(comment, text, sizeof(text));
    if (strstr(text, "base"))
        return &versions[0];
    const char *ge = strstr(text, ">= ");
    for (size_t i = 0; ge && i < NVERSIONS; i++)
        if (strcmp(ge + 3, versions[i].name) == 0)
            return &versions[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* DDIs                                                                 */
/* ------------------------------------------------------------------ */

struct tally {
    unsigned a, b, c;
};

/* What the kit does with the DDI in slot i (at `offset`): it calls it
 * unless ddi_table.c names it among the DDIs a driver fills that the kit
 * never calls. Checks that ddi_table.c and dispmprt.h agree on the name. */
static const char *ddi_status(const char *name, size_t offset, struct tally *t)
{
    DRIVER_INITIALIZATION_DATA init;
    const char *undriven[2] = { NULL, NULL };
    void *filled = &init;
    memset(&init, 0, sizeof(init));
    init.Version = DXGKDDI_INTERFACE_VERSION_WDDM2_3;
    memcpy((char *)&init + offset, &filled, sizeof(filled));
    uint32_t n = wk_dxgk_undriven(&init, undriven, 2);
    if (n == 1 && strcmp(undriven[0], name) != 0) {
        fprintf(stderr, "wdk_surface: dispmprt.h has %s at 0x%zx, ddi_table.c has %s\n", name, offset, undriven[0]);
        exit(1);
    }
    if (n == 1) {
        t->b++;
        return "accepted, never called";
    }
    if (strncmp(name, "Reserved", 8) == 0)
        return "reserved slot, not a DDI";
    t->a++;
    return "called by the kit";
}

/* The versions wk_dxgk_version_supported takes, as "A to B". */
static void put_supported_versions(FILE *out)
{
    const struct version *lo = NULL, *hi = NULL;
    for (size_t i = 0; i < NVERSIONS; i++)
        if (wk_dxgk_version_supported(versions[i].value, NULL, 0)) {
            if (!lo)
                lo = &versions[i];
            hi = &versions[i];
        }
    if (!lo) {
        fprintf(out, "none of the versions above");
        return;
    }
    put_version(out, lo);
    fprintf(out, " to ");
    put_version(out, hi);
}

static int print_ddis(FILE *out, const struct page *pg, struct tally *t)
{
    struct surf_member m[MAX_MEMBERS];
    long n = surf_struct_members(pg->dispmprt, "_DRIVER_INITIALIZATION_DATA", m, MAX_MEMBERS);
    if (n < 2 || (size_t)n * 8 != sizeof(DRIVER_INITIALIZATION_DATA)) {
        fprintf(stderr, "wdk_surface: dispmprt.h's DRIVER_INITIALIZATION_DATA: %ld members for %zu bytes\n", n,
                sizeof(DRIVER_INITIALIZATION_DATA));
        return -1;
    }
    fprintf(out, "## DDIs: DRIVER_INITIALIZATION_DATA\n\n");
    fprintf(out, "Every member up to DXGKDDI_INTERFACE_VERSION_WDDM2_3, in its Windows order (offsets and\n"
           "sources: `docs/wddm-ddi-tables.md`). \"Added in\" is the first interface version whose table\n"
           "holds the member, and \"the kit\" says whether the kit ever calls it, both as\n"
           "`reference-impl/vidmm/ddi_table.c` has them. A DDI the kit never calls may be filled: it is\n"
           "accepted, `wddmkit driver check` lists it, and no case needs it. `Version` must be ");
    put_supported_versions(out);
    fprintf(out, ";\na later one is read as WDDM2_3.\n\n");
    fprintf(out, "| member | added in | the kit |\n| --- | --- | --- |\n");
    fprintf(out, "| `%s` | ", m[0].name);
    put_version(out, &versions[0]);
    fprintf(out, " | read: the interface version |\n");
    for (long i = 1; i < n; i++) {
        size_t offset = (size_t)i * 8; /* Version and its padding fill the first 8 bytes */
        const struct version *v = version_adding(offset);
        fprintf(out, "| `%s` | ", m[i].name);
        if (v)
            put_version(out, v);
        fprintf(out, " | %s |\n", ddi_status(m[i].name, offset, t));
    }
    fprintf(out, "\n");
    return 0;
}

/* ------------------------------------------------------------------ */
/* Callbacks                                                            */
/* ------------------------------------------------------------------ */

static int is_stub(const char *name)
{
    for (uint32_t i = 0; i < WK_VIDMM_UNMODELLED_CALLBACKS; i++)
        if (strcmp(wk_vidmm_unmodelled_callback(i), name) == 0)
            return 1;
    return 0;
}

/* What a stub answers: "not available" for its return type, the rule
 * callbacks_unmodelled.c states and follows. */
static const char *stub_answer(const struct page *pg, const char *type)
{
    char ret[96];
    if (surf_fnptr_return(pg->dispmprt, type, ret, sizeof(ret)) != 0)
        return NULL;
    if (strcmp(ret, "NTSTATUS") == 0)
        return "`STATUS_NOT_SUPPORTED`";
    if (strcmp(ret, "VOID") == 0)
        return "nothing (`VOID`)";
    if (strcmp(ret, "BOOLEAN") == 0)
        return "`FALSE`";
    if (strchr(ret, '*'))
        return "`NULL`";
    return "0";
}

/* A callback the kit answers for some arguments and counts as a stub for
 * the others (callbacks_unmodelled.c): what the page says of it. */
static const char *partly_modelled(const char *name)
{
    if (strcmp(name, "DxgkCbGetHandleData") == 0)
        return "modelled for an allocation's handle (`reference-impl/vidmm/openalloc.c`); for any other, a stub "
               "that answers `NULL` and is counted";
    return NULL;
}

static void print_callback(FILE *out, const struct page *pg, const struct surf_member *m, struct tally *t)
{
    const struct version *v = version_of_guard(m->comment);
    fprintf(out, "| `%s` | ", m->name);
    if (v)
        put_version(out, v);
    else
        fprintf(out, "the kit's");
    if (strncmp(m->name, "Wk", 2) == 0) {
        t->c++;
        fprintf(out, " | the kit's own service, after the Windows members |\n");
    } else if (strncmp(m->name, "DxgkCb", 6) != 0) {
        fprintf(out, " | a value the kit fills in |\n");
    } else if (partly_modelled(m->name)) {
        t->a++;
        fprintf(out, " | %s |\n", partly_modelled(m->name));
    } else if (is_stub(m->name)) {
        const char *answer = stub_answer(pg, m->type);
        t->b++;
        fprintf(out, " | stub: answers %s and is counted |\n", answer ? answer : "its failure value");
    } else {
        t->a++;
        fprintf(out, " | modelled |\n");
    }
}

/* Every stub the kit counts must be a member of the struct the page lists. */
static int stubs_are_members(const struct surf_member *m, long n)
{
    for (uint32_t i = 0; i < WK_VIDMM_UNMODELLED_CALLBACKS; i++) {
        long j = 0;
        while (j < n && strcmp(m[j].name, wk_vidmm_unmodelled_callback(i)) != 0)
            j++;
        if (j == n) {
            fprintf(stderr, "wdk_surface: callbacks_unmodelled.c counts %s, which DXGKRNL_INTERFACE lacks\n",
                    wk_vidmm_unmodelled_callback(i));
            return 0;
        }
    }
    return 1;
}

static int print_callbacks(FILE *out, const struct page *pg, struct tally *t)
{
    struct surf_member m[MAX_MEMBERS];
    long n = surf_struct_members(pg->dispmprt, "_DXGKRNL_INTERFACE", m, MAX_MEMBERS);
    if (n < 1 || !stubs_are_members(m, n)) {
        fprintf(stderr, "wdk_surface: dispmprt.h: no usable DXGKRNL_INTERFACE\n");
        return -1;
    }
    fprintf(out, "## Callbacks: DXGKRNL_INTERFACE\n\n");
    fprintf(out, "What `DxgkDdiStartDevice` receives: every member up to WDDM2_3, then the kit's own services.\n"
           "No callback is NULL. \"Modelled\" callbacks do what the kernel's do and check their arguments\n"
           "like an answer (`reference-impl/vidmm/callbacks.c`, `ctxalloc.c`); a stub answers what\n"
           "\"not available\" is for its return type and counts the call, which the summary of `wddmkit\n"
           "conform` and `--coverage` list (`reference-impl/vidmm/callbacks_unmodelled.c`). \"Added in\"\n"
           "is the guard `include/wddmkit/dispmprt.h` gives the member.\n\n");
    fprintf(out, "| member | added in | the kit |\n| --- | --- | --- |\n");
    for (long i = 0; i < n; i++)
        print_callback(out, pg, &m[i], t);
    fprintf(out, "\n");
    return 0;
}

/* ------------------------------------------------------------------ */
/* Kernel names                                                         */
/* ------------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
    const struct surf_def *x = *(const struct surf_def *const *)a, *y = *(const struct surf_def *const *)b;
    int c = strcasecmp(x->name, y->name);
    return c ? c : strcmp(x->name, y->name);
}

/* The definitions of the km*.h headers, sorted by name (free the array). */
static const struct surf_def **km_defs(const struct page *pg, size_t *count)
{
    const struct surf_def **v = calloc(pg->defs.n + 1, sizeof(*v));
    size_t n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < pg->defs.n; i++)
        if (pg->defs.v[i].header < pg->nkm)
            v[n++] = &pg->defs.v[i];
    qsort(v, n, sizeof(*v), by_name);
    *count = n;
    return v;
}

static int print_kernel_names(FILE *out, const struct page *pg, size_t *count)
{
    const struct surf_def **v = km_defs(pg, count);
    if (!v)
        return -1;
    fprintf(out, "## Kernel routines and macros\n\n");
    fprintf(out, "Every Windows name the kernel-mode headers define (`km.h` and the `km*.h` headers it\n"
           "includes or that sit beside it; the kit's own `wk_` and `WK_` names left out), the header\n"
           "it lives in and the note its header gives: the first sentence of the comment above it that\n"
           "speaks of the kit or of Windows, else the first sentence. `km.h`'s header comment says how\n"
           "all of them behave (header only, stricter than Windows). The Windows types the DDI headers\n"
           "define (`NTSTATUS`, `UNICODE_STRING`, `MDL`, ...) are in `driver.h` and `d3dkmddi.h`, not\n"
           "here.\n\n");
    fprintf(out, "| name | kind | header | note |\n| --- | --- | --- | --- |\n");
    for (size_t i = 0; i < *count; i++) {
        fprintf(out, "| `%s` | %s | `%s` | ", v[i]->name, v[i]->kind, pg->headers[v[i]->header].name);
        if (v[i]->note)
            put_cell(out, v[i]->note);
        fprintf(out, " |\n");
    }
    fprintf(out, "\n");
    free(v);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The listed names                                                     */
/* ------------------------------------------------------------------ */

/* The next name of the list at *p (a line that is not a comment), or NULL. */
static const char *next_listed(char **p, size_t *len)
{
    while (**p) {
        char *line = *p, *eol = strchr(line, '\n');
        *p = eol ? eol + 1 : line + strlen(line);
        while (*line == ' ' || *line == '\t')
            line++;
        size_t n = (size_t)(*p - line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == ' ' || line[n - 1] == '\r' || line[n - 1] == '\t'))
            n--;
        if (n && line[0] != '#') {
            *len = n;
            return line;
        }
    }
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The listed names, sorted and without repeats (free each and the array). */
static char **read_list(const char *path, size_t *count)
{
    uint8_t *data = NULL;
    size_t size = 0, n = 0;
    char why[256];
    if (wk_file_read(path, LIST_LIMIT, &data, &size, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "wdk_surface: %s: %s\n", path, why);
        return NULL;
    }
    char *text = realloc(data, size + 1); /* a terminator for next_listed */
    if (!text) {
        free(data);
        return NULL;
    }
    text[size] = '\0';
    char **names = calloc(size / 2 + 1, sizeof(*names)), *p = text;
    const char *name;
    size_t len;
    while (names && (name = next_listed(&p, &len)) != NULL)
        if ((names[n] = strndup(name, len)) != NULL)
            n++;
    free(text);
    if (names)
        qsort(names, n, sizeof(*names), cmp_str);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (kept && strcmp(names[kept - 1], names[i]) == 0)
            free(names[i]);
        else
            names[kept++] = names[i];
    *count = kept;
    return names;
}

static void print_present_listed(FILE *out, const struct page *pg, char **names, size_t n)
{
    int any = 0;
    fprintf(out, "Listed and defined now, so not in the table (`name` (header)): ");
    for (size_t i = 0; i < n; i++) {
        const struct surf_def *d = surf_find_def(&pg->defs, names[i]);
        if (!d)
            continue;
        fprintf(out, "%s`%s` (`%s`)", any ? ", " : "", d->name, pg->headers[d->header].name);
        any = 1;
    }
    fprintf(out, "%s.\n\n", any ? "" : "none");
}

static int print_absent(FILE *out, const struct page *pg, const char *list_path, struct tally *t)
{
    size_t n = 0;
    char **names = read_list(list_path, &n);
    if (!names)
        return -1;
    fprintf(out, "## Absent kernel names\n\n");
    fprintf(out, "Kernel routines, types and macros that display miniports commonly use and no header of\n"
           "`include/wddmkit/` defines: code that uses one does not compile against the kit, by design\n"
           "(`km.h`: a port fails at compile time rather than at run time against a guess). The list,\n"
           "`docs/data/wdk-kernel-names.txt`, says where its names come from (the names the public\n"
           "RosKmd sample uses, and the WDK reference pages for `wdm.h`); the page marks each name by\n"
           "whether a header defines it now, so one a header gains leaves this table by itself.\n\n");
    fprintf(out, "| name |\n| --- |\n");
    for (size_t i = 0; i < n; i++)
        if (!surf_find_def(&pg->defs, names[i])) {
            fprintf(out, "| `%s` |\n", names[i]);
            t->b++;
        } else {
            t->a++;
        }
    fprintf(out, "\n");
    print_present_listed(out, pg, names, n);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Headers and the page                                                 */
/* ------------------------------------------------------------------ */

static int is_header(const char *name)
{
    size_t n = strlen(name);
    return n > 2 && strcmp(name + n - 2, ".h") == 0;
}

static int is_km(const char *name)
{
    return strncmp(name, "km", 2) == 0;
}

/* The header names of dir, the km*.h ones first (their definitions win
 * over a repeated typedef elsewhere), each group sorted. */
static size_t header_names(const char *dir, char names[][64], size_t max)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL && n < max) {
        size_t len = strlen(e->d_name);
        if (is_header(e->d_name) && len < 64)
            memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(d);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            int a = is_km(names[j - 1]), b = is_km(names[j]);
            if (a > b || (a == b && strcmp(names[j - 1], names[j]) < 0))
                break;
            char tmp[64];
            memcpy(tmp, names[j], 64);
            memcpy(names[j], names[j - 1], 64);
            memcpy(names[j - 1], tmp, 64);
        }
    return n;
}

static int load_headers(struct page *pg, const char *root)
{
    char dir[4096], path[4096], names[MAX_HEADERS][64];
    if (!wk_path_join(dir, sizeof(dir), root, "include/wddmkit"))
        return -1;
    size_t n = header_names(dir, names, MAX_HEADERS);
    for (size_t i = 0; i < n; i++) {
        if (!wk_path_join(path, sizeof(path), dir, names[i]) ||
            surf_header_load(&pg->headers[pg->nheaders], path, names[i]) != 0)
            return -1;
        if (is_km(names[i]))
            pg->nkm = pg->nheaders + 1;
        if (strcmp(names[i], "dispmprt.h") == 0)
            pg->dispmprt = &pg->headers[pg->nheaders];
        surf_scan_defs(&pg->headers[pg->nheaders], pg->nheaders, &pg->defs);
        pg->nheaders++;
    }
    if (!pg->dispmprt || !pg->nkm) {
        fprintf(stderr, "wdk_surface: %s: no dispmprt.h or no km*.h\n", dir);
        return -1;
    }
    return 0;
}

static void print_intro(FILE *out)
{
    fprintf(out, "# The WDK surface: what the kit does with each name a miniport touches\n\n");
    fprintf(out, "Generated by `tests/wdk_surface.c` from the kit's headers, its DDI and callback tables and\n"
           "`docs/data/wdk-kernel-names.txt`; do not edit. Regenerate it with\n"
           "`build/default/tests/wk_wdk_surface . > docs/wdk-surface.md` (the test `surface.doc_current`\n"
           "fails when this page and the code differ). Porting a miniport: look a name up here, then see\n"
           "`docs/writing-a-driver.md`, \"Porting an existing miniport\".\n\n");
}

/* The summary comes first on the page but needs the counts, so the
 * sections are printed into memory first. */
static int print_page(FILE *out, struct page *pg, const char *root)
{
    struct tally ddis = { 0, 0, 0 }, cbs = { 0, 0, 0 }, listed = { 0, 0, 0 };
    size_t kernel = 0, body_len = 0;
    char list[4096], *body = NULL;
    if (!wk_path_join(list, sizeof(list), root, "docs/data/wdk-kernel-names.txt"))
        return -1;
    FILE *sections = open_memstream(&body, &body_len);
    if (!sections)
        return -1;
    int rc = print_ddis(sections, pg, &ddis) || print_callbacks(sections, pg, &cbs) ||
             print_kernel_names(sections, pg, &kernel) || print_absent(sections, pg, list, &listed);
    fclose(sections);
    if (rc == 0) {
        print_intro(out);
        fprintf(out, "| section | what the kit does |\n| --- | --- |\n");
        fprintf(out, "| DDIs | %u called by the kit, %u accepted and never called |\n", ddis.a, ddis.b);
        fprintf(out, "| callbacks | %u modelled, %u stubs that answer their failure value and are counted; %u of the "
                "kit's own |\n", cbs.a, cbs.b, cbs.c);
        fprintf(out, "| kernel names | %zu defined by the `km*.h` headers |\n", kernel);
        fprintf(out, "| listed kernel names | %u absent, %u defined now |\n\n", listed.b, listed.a);
        fwrite(body, 1, body_len, out);
    }
    free(body);
    return rc ? -1 : 0;
}

int main(int argc, char **argv)
{
    static struct page pg;
    if (argc != 2) {
        fprintf(stderr, "usage: wk_wdk_surface ROOT > ROOT/docs/wdk-surface.md\n");
        return 2;
    }
    int rc = load_headers(&pg, argv[1]) == 0 && print_page(stdout, &pg, argv[1]) == 0 ? 0 : 1;
    surf_defs_free(&pg.defs);
    for (size_t i = 0; i < pg.nheaders; i++)
        surf_header_free(&pg.headers[i]);
    return rc;
}
