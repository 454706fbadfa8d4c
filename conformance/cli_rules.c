/*
 * cli_rules.c - `wddmkit rules [--markdown]`: the contract-rule catalogue,
 * as a list (ID, DDI, rule) or as docs/contract-rules.md.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "wddmkit/vidmm.h"

int wk_cli_rules(int argc, char **argv)
{
    if (wk_cli_parse_only && (argc == 0 || (argc == 1 && strcmp(argv[0], "--markdown") == 0)))
        return 0;
    if (argc == 1 && strcmp(argv[0], "--markdown") == 0) {
        wk_rules_write_markdown(stdout);
        return 0;
    }
    if (argc != 0) {
        fprintf(stderr, "usage: wddmkit rules [--markdown]\n");
        return 2;
    }
    uint32_t n = 0;
    const struct wk_rule *r = wk_rules(&n);
    for (uint32_t i = 0; i < n; i++)
        printf("%-22s %-32s %s\n", r[i].id, r[i].ddi == WK_DDI_NONE ? "(any DDI)" : wk_ddi_name(r[i].ddi),
               r[i].text);
    return 0;
}
