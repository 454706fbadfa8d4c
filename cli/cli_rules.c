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
#include "cli_options.h"
#include "reference.h"

/* Explanations start at column 0: harnesses/gen_dicts.c takes the first
 * word of an indented line, and every lower-case word of a usage line, as
 * command words of fuzz_cli's dictionary. */
enum { OPT_MARKDOWN = WK_CLI_LONG_ONLY };
static const struct wk_cli_option rules_options[] = {
    { "markdown", OPT_MARKDOWN, WK_CLI_FLAG, NULL, "print docs/contract-rules.md (no rule IDs)" },
    { 0 },
};

static const struct wk_cli_command rules_command = {
    "rules", "[--markdown | ID|GLOB...]", rules_options,
    "Without arguments: every contract rule (ID, DDI, rule). With rule IDs or globs, as in\n"
    "PAGING-FILL-001 or 'PAGING-*': those rules' full rows (rule, source, where checked, proved\n"
    "by). With --markdown: docs/contract-rules.md.\n"
    "Sources: \"facts §N.N\" is section N.N of docs/wddm-facts.md; \"seed:\" names the\n"
    "WDDM documentation page the rule restates.",
    NULL,
};

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

struct rules_args {
    int markdown;
    int count;    /* rule IDs and globs, kept in argv's first slots */
    char **ids;
};

static int rules_arg(void *ctx, const struct wk_cli_arg *a)
{
    struct rules_args *r = ctx;
    if (a->key == WK_CLI_OPERAND)
        r->ids[r->count++] = (char *)a->value;
    else
        r->markdown = 1;
    return 0;
}

int wk_cli_rules(int argc, char **argv)
{
    struct rules_args r = { 0, 0, argv }; /* never more operands than arguments */
    int rc = wk_cli_parse(&rules_command, argc, argv, rules_arg, &r);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (r.markdown && r.count)
        return wk_cli_usage_error(&rules_command, "--markdown takes no rule IDs");
    if (wk_cli_parse_only)
        return 0;
    if (r.markdown) {
        wk_rules_write_markdown(stdout);
        return 0;
    }
    if (r.count == 0) {
        list_all();
        return 0;
    }
    return show(r.count, r.ids);
}
