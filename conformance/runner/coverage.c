/* SPDX-License-Identifier: MIT */
/*
 * coverage.c - `wddmkit conform --coverage`: what the run exercised.
 *
 * A contract rule counts as exercised when the run showed both that its
 * check can pass and can fire, as far as one case can show it: a passing
 * case that `covers` the rule, or a passing negative case whose run tripped
 * it (the rules_tripped bitmap the child sends back). Failing cases prove
 * nothing about a rule, so they do not count. Paging operations and DDIs
 * count when any finished case drove them (vidmm's stats).
 *
 * The kit issues every paging operation, but not every one to every
 * driver: a GpuMmu driver gets its own (UPDATE_PAGE_TABLE, FLUSH_TLB,
 * COPY_PAGE_TABLE_ENTRIES, NOTIFY_RESIDENCY, and TRANSFER_VIRTUAL and
 * FILL_VIRTUAL in place of TRANSFER and FILL, with no DISCARD_CONTENT), a
 * driver that opted into MAP_APERTURE_SEGMENT2 gets it in place of
 * MAP_APERTURE_SEGMENT (outsider 19: the report said 17 was "not issued by
 * the kit" in a run that built it 424 times). What the run built tells
 * which kind of driver it was; the operations the other kind gets are
 * listed apart, so "unexercised" only names work the suites could do.
 */
#include <string.h>

#include "runner.h"

static const char *const op_names[WK_COVERAGE_PAGING_OPS] = {
    "TRANSFER", "FILL", "DISCARD_CONTENT", "READ_PHYSICAL", "WRITE_PHYSICAL",
    "MAP_APERTURE_SEGMENT", "UNMAP_APERTURE_SEGMENT", "SPECIAL_LOCK_TRANSFER",
    "VIRTUAL_TRANSFER", "VIRTUAL_FILL", "INIT_CONTEXT_RESOURCE", "UPDATE_PAGE_TABLE",
    "FLUSH_TLB", "UPDATE_CONTEXT_ALLOCATION", "COPY_PAGE_TABLE_ENTRIES", "NOTIFY_RESIDENCY",
    "SIGNAL_MONITORED_FENCE", "MAP_APERTURE_SEGMENT2",
};

/* Whether the run's driver can get operation `op`: a GpuMmu driver (it
 * built UPDATE_PAGE_TABLE) or not, one that takes MAP_APERTURE_SEGMENT2 (it
 * built one) or not. */
static int op_for_driver(const struct wk_coverage *c, uint32_t op)
{
    const int gpummu = c->paging_ops[DXGK_OPERATION_UPDATE_PAGE_TABLE] > 0;
    const int map2 = c->paging_ops[DXGK_OPERATION_MAP_APERTURE_SEGMENT2] > 0;
    switch (op) {
    case DXGK_OPERATION_TRANSFER:
    case DXGK_OPERATION_FILL: /* a GpuMmu driver gets them only where no paging process is made */
        return !gpummu || c->paging_ops[op] > 0;
    case DXGK_OPERATION_DISCARD_CONTENT: return !gpummu;
    case DXGK_OPERATION_VIRTUAL_TRANSFER:
    case DXGK_OPERATION_VIRTUAL_FILL:
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
    case DXGK_OPERATION_FLUSH_TLB:
    case DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES:
    case DXGK_OPERATION_NOTIFY_RESIDENCY: return gpummu;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT: return !map2;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2: return map2;
    default: return 1;
    }
}

static void mark_rule(struct wk_coverage *c, uint32_t i)
{
    if (i < c->rule_count)
        c->rules[i / 64] |= 1ull << (i % 64);
}

static int rule_marked(const struct wk_coverage *c, uint32_t i)
{
    return (c->rules[i / 64] >> (i % 64)) & 1;
}

static void cover_case(struct wk_coverage *c, const struct wk_case_report *k, const struct wk_rule *rules)
{
    int passed = k->verdict == WK_VERDICT_PASS || k->verdict == WK_VERDICT_UNEXPECTED_PASS;
    if (passed && k->prog->has_rewrite) {
        for (uint32_t i = 0; i < c->rule_count; i++)
            if ((k->result.rules_tripped[i / 64] >> (i % 64)) & 1)
                mark_rule(c, i);
    } else if (passed) {
        for (uint32_t r = 0; r < k->prog->cover_count && r < WK_PROG_MAX_RULES; r++)
            for (uint32_t i = 0; i < c->rule_count; i++)
                if (strncmp(rules[i].id, k->prog->covers[r], sizeof(k->prog->covers[r])) == 0)
                    mark_rule(c, i);
    }
    for (uint32_t op = 0; op < WK_COVERAGE_PAGING_OPS; op++)
        c->paging_ops[op] += k->result.stats.paging_ops[op];
    for (uint32_t d = 0; d < WK_DDI_COUNT; d++)
        c->ddi_calls[d] += k->result.stats.ddi_calls[d];
    for (uint32_t u = 0; u < WK_VIDMM_UNMODELLED_CALLBACKS; u++)
        c->unmodelled_calls[u] += k->result.stats.unmodelled_calls[u];
}

void wk_coverage_compute(const struct wk_run_report *rep, struct wk_coverage *out)
{
    uint32_t n = 0;
    const struct wk_rule *rules = wk_rules(&n);
    memset(out, 0, sizeof(*out));
    out->rule_count = n < WK_RULE_CAPACITY ? n : WK_RULE_CAPACITY;
    for (size_t i = 0; i < rep->count; i++)
        if (rep->cases[i].finished)
            cover_case(out, &rep->cases[i], rules);
}

/* Prints the names whose flag equals `want`, wrapped; returns how many. */
static uint32_t print_list(FILE *out, const char *title, const char *const *names, const int *flags, uint32_t n,
                           int want)
{
    uint32_t count = 0, column = 0;
    for (uint32_t i = 0; i < n; i++)
        count += names[i] && flags[i] == want;
    fprintf(out, "  %s (%u):", title, count);
    column = 6;
    for (uint32_t i = 0; i < n; i++) {
        if (!names[i] || flags[i] != want)
            continue;
        size_t len = strlen(names[i]);
        if (column + len + 1 > 100) {
            fputs("\n   ", out);
            column = 3;
        }
        fprintf(out, " %s", names[i]);
        column += (uint32_t)len + 1;
    }
    fputs(count ? "\n" : " none\n", out);
    return count;
}

static uint32_t print_rules(const struct wk_coverage *c, FILE *out)
{
    uint32_t n = 0, left = 0;
    const struct wk_rule *rules = wk_rules(&n);
    const char *names[WK_RULE_CAPACITY];
    int flags[WK_RULE_CAPACITY];
    for (uint32_t i = 0; i < c->rule_count; i++) {
        names[i] = rules[i].id;
        flags[i] = rule_marked(c, i);
        left += !flags[i];
    }
    fprintf(out, "contract rules: %u of %u exercised\n", c->rule_count - left, c->rule_count);
    print_list(out, "unexercised", names, flags, c->rule_count, 0);
    print_list(out, "exercised", names, flags, c->rule_count, 1);
    return left;
}

static void print_ops(const struct wk_coverage *c, FILE *out)
{
    const char *names[WK_COVERAGE_PAGING_OPS];
    int flags[WK_COVERAGE_PAGING_OPS];
    uint32_t modelled = 0, ran = 0;
    for (uint32_t op = 0; op < WK_COVERAGE_PAGING_OPS; op++) {
        names[op] = op_names[op];
        flags[op] = c->paging_ops[op] ? 1 : !op_for_driver(c, op) ? 2 : 0;
        modelled += flags[op] != 2;
        ran += flags[op] == 1;
    }
    fprintf(out, "paging operations: %u of %u the kit issues to this kind of driver were built\n", ran, modelled);
    print_list(out, "unexercised", names, flags, WK_COVERAGE_PAGING_OPS, 0);
    print_list(out, "exercised", names, flags, WK_COVERAGE_PAGING_OPS, 1);
    print_list(out, "issued to another kind of driver (GpuMmu or not, MAP_APERTURE_SEGMENT2 or not)", names, flags,
               WK_COVERAGE_PAGING_OPS, 2);
}

static void print_ddis(const struct wk_coverage *c, FILE *out)
{
    const char *names[WK_DDI_COUNT];
    int flags[WK_DDI_COUNT];
    uint32_t called = 0;
    for (uint32_t d = 0; d < WK_DDI_COUNT; d++) {
        names[d] = d == WK_DDI_NONE ? NULL : wk_ddi_name((enum wk_ddi)d);
        flags[d] = c->ddi_calls[d] != 0;
        called += d != WK_DDI_NONE && flags[d];
    }
    fprintf(out, "DDIs and callbacks: %u of %u called\n", called, WK_DDI_COUNT - 1);
    print_list(out, "never called", names, flags, WK_DDI_COUNT, 0);
    print_list(out, "called", names, flags, WK_DDI_COUNT, 1);
}

/* The callbacks the kit does not model that the driver called anyway: each
 * answered "not available" (callbacks_unmodelled.c), so a driver that
 * depends on one was not judged on what it then did. */
void wk_coverage_print_unmodelled(const uint64_t *calls, FILE *out)
{
    uint32_t n = 0;
    for (uint32_t u = 0; u < WK_VIDMM_UNMODELLED_CALLBACKS; u++)
        n += calls[u] != 0;
    if (!n)
        return;
    fprintf(out, "callbacks the kit does not model, called (%u; each answered STATUS_NOT_SUPPORTED, nothing, NULL or FALSE):\n", n);
    for (uint32_t u = 0; u < WK_VIDMM_UNMODELLED_CALLBACKS; u++)
        if (calls[u])
            fprintf(out, "  %5llu  %s\n", (unsigned long long)calls[u], wk_vidmm_unmodelled_callback(u));
}

uint32_t wk_coverage_print(const struct wk_coverage *c, FILE *out)
{
    fputs("\ncoverage:\n", out);
    uint32_t left = print_rules(c, out);
    print_ops(c, out);
    print_ddis(c, out);
    wk_coverage_print_unmodelled(c->unmodelled_calls, out);
    return left;
}
