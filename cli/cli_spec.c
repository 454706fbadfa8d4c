/* SPDX-License-Identifier: MIT */
/*
 * cli_spec.c - `wddmkit spec lint|dump|mutations`: the spec loader and the
 * mutation catalogue from the command line.
 *
 *   spec lint FILE|DIR...      load without running; every error is printed
 *                              as file:line:col: ... (exit 0 all valid, 2 not)
 *   spec dump ID [FILE|DIR...] print a case as the step program it compiles
 *                              to (default: the kit's specs/); ID may
 *                              be a glob, matched as `conform --filter`
 *                              matches (fnmatch), and every match is printed
 *   spec mutations             the answer corruptions negative cases name
 *
 * Errors go to stderr as they are found (the diagnostics echo), so a lint
 * run shows all of them however many there are.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_options.h"
#include "conformance.h"


static const struct wk_cli_command lint_command = {
    "spec lint", "FILE|DIR...", NULL,
    "Loads the specs without running them; every error as file:line:col: ... (exit 0 all valid,\n"
    "2 not). The format: docs/spec-format.md.",
    NULL,
};
static const struct wk_cli_command dump_command = {
    "spec dump", "ID|GLOB [FILE|DIR...]   (default: the kit's specs/)", NULL,
    "Prints each case whose id matches, an ID or a glob as in 'paging-fill*', as the step\n"
    "program it runs. The format: docs/spec-format.md.",
    NULL,
};
static const struct wk_cli_command mutations_command = {
    "spec mutations", "", NULL, "Lists the answer corruptions negative cases name.", NULL,
};

/* Operands, kept in argv's first slots (never more than its arguments). */
struct operands {
    int count;
    char **list;
};

static int take_operand(void *ctx, const struct wk_cli_arg *a)
{
    struct operands *o = ctx;
    o->list[o->count++] = (char *)a->value; /* no option but --help: an operand */
    return 0;
}

/* Loads files and folders; the first failing status (after loading all). */
static wk_status load_paths(struct wk_spec_set *set, int argc, char **argv, struct wk_diag *d)
{
    wk_status first = WK_OK;
    for (int i = 0; i < argc; i++) {
        struct stat st;
        wk_status s = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? wk_spec_load_dir(set, argv[i], d)
                                                                       : wk_spec_load_file(set, argv[i], d);
        if (first == WK_OK)
            first = s;
    }
    return first;
}

/* A fresh set loaded from the paths, every error and warning printed to
 * stderr as it is found; the first failing load's status. */
static wk_status load_reporting(struct wk_spec_set *set, struct wk_diag *d, int count, char **paths)
{
    wk_spec_set_init(set);
    wk_diag_init(d, 1);
    d->echo = stderr;
    d->warn = stderr;
    return load_paths(set, count, paths, d);
}

static int lint(int argc, char **argv)
{
    struct operands o = { 0, argv };
    int rc = wk_cli_parse(&lint_command, argc, argv, take_operand, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (o.count < 1)
        return wk_cli_usage_error(&lint_command, "expected a FILE or DIR");
    if (wk_cli_parse_only)
        return 0;
    struct wk_spec_set set;
    struct wk_diag d;
    wk_status st = load_reporting(&set, &d, o.count, argv);
    printf("wddmkit spec lint: %u case%s valid, %u error%s", set.count, set.count == 1 ? "" : "s", d.errors,
           d.errors == 1 ? "" : "s");
    if (d.warnings) /* a warning is no error: the exit code stays */
        printf(", %u warning%s", d.warnings, d.warnings == 1 ? "" : "s");
    putchar('\n');
    rc = st == WK_OK && d.errors == 0 ? 0 : 2;
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    return rc;
}

/* Every case whose id matches the glob, in load order, a blank line
 * between two; the number printed. */
static uint32_t dump_matches(const struct wk_spec_set *set, const char *glob)
{
    uint32_t printed = 0;
    for (uint32_t i = 0; i < set->count; i++) {
        if (fnmatch(glob, set->progs[i]->id, 0) != 0)
            continue;
        if (printed++)
            fputc('\n', stdout);
        wk_prog_dump(set->progs[i], stdout);
    }
    return printed;
}

static int dump(int argc, char **argv)
{
    struct operands o = { 0, argv };
    int rc = wk_cli_parse(&dump_command, argc, argv, take_operand, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (o.count < 1)
        return wk_cli_usage_error(&dump_command, "expected a case ID or glob");
    if (wk_cli_parse_only)
        return 0;
    argc = o.count;
    char *fallback[] = { (char *)wk_cli_specs_dir() };
    struct wk_spec_set set;
    struct wk_diag d;
    load_reporting(&set, &d, argc > 1 ? argc - 1 : 1, argc > 1 ? argv + 1 : fallback);
    uint32_t printed = dump_matches(&set, argv[0]);
    if (!printed)
        fprintf(stderr, "wddmkit spec dump: no case matches '%s'%s\n", argv[0],
                d.errors ? " (or it has errors)" : "");
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    return printed ? 0 : 2;
}

static int mutations(int argc, char **argv)
{
    struct operands o = { 0, argv };
    int rc = wk_cli_parse(&mutations_command, argc, argv, take_operand, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (o.count)
        return wk_cli_usage_error(&mutations_command, "takes no arguments, saw '%s'", o.list[0]);
    if (wk_cli_parse_only)
        return 0;
    printf("%-36s %-28s %-20s %s\n", "mutation", "DDI", "rule", "what it does");
    const struct wk_mutation *m;
    for (uint32_t i = 0; (m = wk_mutation_at(i)) != NULL; i++) {
        const char *ddi = m->ddi == WK_DDI_NONE ? "any" : wk_ddi_name(m->ddi);
        if (strncmp(ddi, "DxgkDdi", 7) == 0)
            ddi += 7;
        printf("%-36s %-28s %-20s %s\n", m->name, ddi, m->rule, m->describe);
    }
    return 0;
}

int wk_cli_spec(int argc, char **argv)
{
    static const struct wk_cli_subcommand subs[] = {
        { "lint", &lint_command, lint },
        { "dump", &dump_command, dump },
        { "mutations", &mutations_command, mutations },
    };
    return wk_cli_dispatch("spec", "Dump prints each case whose id matches, an ID or a glob as in 'paging-fill*', as "
                                   "the step\nprogram it runs. The format: docs/spec-format.md.",
                           subs, sizeof(subs) / sizeof(subs[0]), argc, argv);
}
