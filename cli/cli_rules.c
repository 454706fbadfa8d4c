/* SPDX-License-Identifier: MIT */
/*
 * cli_rules.c - `wddmkit rules [--markdown | ID|GLOB...]`: the contract-rule
 * catalogue, as a list (ID, DDI, rule), as docs/contract-rules.md, or the
 * full rows of the rules a failure message named.
 *
 * A failure starts with its rule ID, so the ID is what a user has in hand:
 * `wddmkit rules PAGING-FILL-001` answers "what does this rule say, where
 * does it come from, where is it checked and what proves it" without
 * opening the Markdown. IDs match as globs (fnmatch, as `conform --filter`
 * matches case IDs) and ignore case: no two rules differ only in case.
 */
#define _GNU_SOURCE /* FNM_CASEFOLD */

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "reference.h"

/* Explanations start at column 0: fuzz/gen_dicts.c takes the first word of
 * an indented line, and every lower-case word of a usage line, as command
 * words of fuzz_cli's dictionary. */
static void usage(FILE *out)
{
    fputs("usage: wddmkit rules [--markdown | ID|GLOB...]\n"
          "Without arguments: every contract rule (ID, DDI, rule). With rule IDs or globs, as in\n"
          "PAGING-FILL-001 or 'PAGING-*': those rules' full rows (rule, source, where checked, proved\n"
          "by). With --markdown: docs/contract-rules.md.\n"
          "Sources: \"facts §N.N\" is section N.N of docs/wddm-facts.md; \"seed:\" names the\n"
          "WDDM documentation page the rule restates.\n",
          out);
}

static const char *ddi_of(const struct wk_rule *r)
{
    return r->ddi == WK_DDI_NONE ? "(any DDI)" : wk_ddi_name(r->ddi);
}

static void list_all(void)
{
    uint32_t n = 0;
    const struct wk_rule *r = wk_rules(&n);
    for (uint32_t i = 0; i < n; i++)
        printf("%-22s %-32s %s\n", r[i].id, ddi_of(&r[i]), r[i].text);
}

/* One rule's whole row of docs/contract-rules.md, a field a line. */
static void print_row(const struct wk_rule *r)
{
    printf("%s\n", r->id);
    printf("  checks:     %s\n", ddi_of(r));
    printf("  rule:       %s\n", r->text);
    printf("  source:     %s\n", r->source);
    printf("  checked in: %s\n", r->where);
    printf("  proved by:  vidmm.rules case %s (tests/test_vidmm_rules.c)\n", r->id);
}

static int matches(const char *pattern, const struct wk_rule *r)
{
    return fnmatch(pattern, r->id, FNM_CASEFOLD) == 0;
}

/* Prints every rule a pattern matches, each once, in catalogue order;
 * says which patterns match none. 0, or 2 when one matched nothing. */
static int show(int argc, char **argv)
{
    uint32_t n = 0, printed = 0;
    const struct wk_rule *r = wk_rules(&n);
    for (uint32_t i = 0; i < n; i++) {
        int a = 0;
        while (a < argc && !matches(argv[a], &r[i]))
            a++;
        if (a == argc)
            continue;
        printf("%s", printed++ ? "\n" : "");
        print_row(&r[i]);
    }
    int rc = 0;
    for (int a = 0; a < argc; a++) {
        uint32_t i = 0;
        while (i < n && !matches(argv[a], &r[i]))
            i++;
        if (i == n) {
            fprintf(stderr, "wddmkit rules: no rule '%s' (wddmkit rules lists them)\n", argv[a]);
            rc = 2;
        }
    }
    return rc;
}

int wk_cli_rules(int argc, char **argv)
{
    if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    int markdown = argc == 1 && strcmp(argv[0], "--markdown") == 0;
    for (int a = 0; a < argc && !markdown; a++) {
        if (argv[a][0] == '-') { /* no rule ID starts with '-': an option this command lacks */
            fprintf(stderr, "wddmkit rules: %s\n", strcmp(argv[a], "--markdown") == 0
                                                        ? "--markdown takes no rule IDs"
                                                        : "the options are --markdown and --help");
            usage(stderr);
            return 2;
        }
    }
    if (wk_cli_parse_only)
        return 0;
    if (markdown) {
        wk_rules_write_markdown(stdout);
        return 0;
    }
    if (argc == 0) {
        list_all();
        return 0;
    }
    return show(argc, argv);
}
