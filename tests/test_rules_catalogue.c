/* SPDX-License-Identifier: MIT */
/*
 * test_rules_catalogue.c - the contract-rule table keeps its promises:
 * IDs are unique and well formed (AREA-NAME-NNN), every rule has its text
 * and source, and every rule is really checked where the table says (the
 * named source files contain a check of that rule).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "reference.h"

static const char *const enum_names[WK_RULE_COUNT] = {
#define NAME_(name, id, ddi, text, source, where) #name,
    WK_RULE_MAP(NAME_)
#undef NAME_
};

static int well_formed(const char *id)
{
    size_t n = strlen(id);
    if (n < 7 || strchr(id, ' ') || id[n - 4] != '-')
        return 0;
    for (size_t i = n - 3; i < n; i++)
        if (id[i] < '0' || id[i] > '9')
            return 0;
    for (size_t i = 0; i < n - 4; i++)
        if (!((id[i] >= 'A' && id[i] <= 'Z') || (id[i] >= '0' && id[i] <= '9') || id[i] == '-'))
            return 0;
    return 1;
}

static void test_ids_unique_and_well_formed(void **state)
{
    (void)state;
    uint32_t n = 0;
    const struct wk_rule *r = wk_rules(&n);
    assert_int_equal(n, WK_RULE_COUNT);
    assert_true(n > 50);
    for (uint32_t i = 0; i < n; i++) {
        if (!well_formed(r[i].id))
            fail_msg("rule %u: ID '%s' is not AREA-NAME-NNN", i, r[i].id);
        if (!r[i].text[0] || !r[i].source[0] || !r[i].where[0])
            fail_msg("rule %s: empty text, source or where", r[i].id);
        if (wk_rule_find(r[i].id) != &r[i])
            fail_msg("rule %s: wk_rule_find finds another entry", r[i].id);
        for (uint32_t j = i + 1; j < n; j++)
            if (strcmp(r[i].id, r[j].id) == 0)
                fail_msg("rule ID %s appears twice (entries %u and %u)", r[i].id, i, j);
    }
    assert_null(wk_rule_find("NO-SUCH-RULE-999"));
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    if (buf && fread(buf, 1, (size_t)len, f) == (size_t)len)
        buf[len] = 0;
    fclose(f);
    return buf;
}

/* "a.c, b.c": each file must mention the rule's enum name outside rules.h. */
static void test_checked_where_the_table_says(void **state)
{
    (void)state;
    uint32_t n = 0;
    const struct wk_rule *r = wk_rules(&n);
    for (uint32_t i = 0; i < n; i++) {
        char where[512];
        snprintf(where, sizeof(where), "%s", r[i].where);
        for (char *tok = where; tok && *tok;) {
            char *comma = strchr(tok, ',');
            if (comma)
                *comma = 0;
            while (*tok == ' ')
                tok++;
            char path[1024];
            snprintf(path, sizeof(path), "%s/%s", WK_SOURCE_DIR, tok);
            char *text = slurp(path);
            if (!text)
                fail_msg("rule %s: cannot read %s", r[i].id, path);
            int found = strstr(text, enum_names[i]) != NULL;
            free(text);
            if (!found)
                fail_msg("rule %s: %s does not check %s", r[i].id, tok, enum_names[i]);
            tok = comma ? comma + 1 : NULL;
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_unique_and_well_formed),
        cmocka_unit_test(test_checked_where_the_table_says),
    };
    return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
