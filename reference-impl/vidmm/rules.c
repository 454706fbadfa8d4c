/* SPDX-License-Identifier: MIT */
/*
 * rules.c - the contract-rule catalogue (rules.h) and the violation log.
 *
 * A violation message always starts with the rule ID, then names the DDI and
 * says what was expected and what was seen, so a failure line in a CI log is
 * enough to find the rule, its source and the test that proves it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

_Static_assert(WK_RULE_COUNT <= WK_RULE_CAPACITY, "a report keeps a bit per rule in WK_RULE_WORDS words (vidmm.h)");

static const struct wk_rule catalogue[WK_RULE_COUNT] = {
#define WK_RULE_ROW_(name, id, ddi, text, source, where) { id, ddi, text, source, where },
    WK_RULE_MAP(WK_RULE_ROW_)
#undef WK_RULE_ROW_
};

const struct wk_rule *wk_rules(uint32_t *count)
{
    if (count)
        *count = WK_RULE_COUNT;
    return catalogue;
}

const struct wk_rule *wk_rule_find(const char *id)
{
    for (uint32_t i = 0; i < WK_RULE_COUNT; i++)
        if (strcmp(catalogue[i].id, id) == 0)
            return &catalogue[i];
    return NULL;
}

int wk_rule_needs_model(const char *id)
{
    static const enum wk_rule_id semantic[] = {
        R_PAGING_FILL, R_PAGING_TRANSFER, R_PAGING_MAP, R_PAGING_UNMAP, R_PAGING_FENCE, R_PAGING_CONFINE,
        R_PAGING_GPU,  R_SUBMIT_GPU,      R_SUBMIT_FENCE, R_RENDER_PREPATCH, R_PATCH_VALUE,
    };
    for (size_t i = 0; i < sizeof(semantic) / sizeof(semantic[0]); i++)
        if (strcmp(catalogue[semantic[i]].id, id) == 0)
            return 1;
    return 0;
}

const char *rule_id(enum wk_rule_id rule)
{
    return catalogue[rule].id;
}

const char *wk_ddi_name(enum wk_ddi ddi)
{
    switch (ddi) {
#define WK_DDI_NAME_(name, real) case name: return real;
        WK_DDI_MAP(WK_DDI_NAME_)
#undef WK_DDI_NAME_
    default: return "unknown DDI";
    }
}

/* The rules of the reference driver's own choices (wk_rule_is_choice). */
static int choice_rule(enum wk_rule_id rule)
{
    return rule == R_RENDER_FAIL_OUTPUTS;
}

int wk_rule_is_choice(const char *id)
{
    const struct wk_rule *r = wk_rule_find(id);
    return r && choice_rule((enum wk_rule_id)(r - catalogue));
}

/* The hardware binding's rules (BIND-*): a case that trips one is an
 * `error` of the kit's setup, never the driver's failure. */
int wk_rule_is_binding(const char *id)
{
    const struct wk_rule *r = wk_rule_find(id);
    if (!r)
        return 0;
    enum wk_rule_id rule = (enum wk_rule_id)(r - catalogue);
    return rule == R_BIND_CRASH || rule == R_BIND_HANG || rule == R_BIND_BUDGET || rule == R_BIND_RESULT;
}

void wk_vidmm_skip_choice_rules(struct wk_vidmm *vm, int skip)
{
    vm->skip_choice_rules = skip != 0;
}

uint64_t wk_vidmm_choice_skipped(const struct wk_vidmm *vm)
{
    return vm->choice_skipped;
}

void wk_vidmm_text_cut(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size);
    if (n < size) { /* it fits */
        memcpy(dst, src, n + 1);
        return;
    }
    /* Cut at the last space that leaves room for "...": a message cut
     * mid-word ("... in buffer 0x1007c000 depth") read as if it meant it
     * (outsider 27). */
    size_t end = size > 4 ? size - 4 : 0;
    while (end > 0 && src[end] != ' ')
        end--;
    if (end == 0)
        end = size > 4 ? size - 4 : 0;
    memcpy(dst, src, end);
    snprintf(dst + end, size - end, "%s", size > 4 ? "..." : "");
}


wk_status violate(struct wk_vidmm *vm, enum wk_rule_id rule, enum wk_ddi ddi, const char *fmt, ...)
{
    if (vm->skip_choice_rules && choice_rule(rule)) { /* the contract profile: not the driver's duty */
        vm->choice_skipped++;
        return WK_OK;
    }
    char detail[sizeof(((struct wk_violation *)0)->message)]; /* the message's own room: a binding's words and
                                                                   a hint cut at 256 (outsider 17) */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    char line[sizeof(detail) + 96]; /* the rule ID and the DDI's name before it */
    if (ddi == WK_DDI_NONE) /* no DDI to name (a binding's rule between calls) */
        snprintf(line, sizeof(line), "%s: %s", catalogue[rule].id, detail);
    else
        snprintf(line, sizeof(line), "%s: %s: %s", catalogue[rule].id, wk_ddi_name(ddi), detail);
    if (vm->violation_total < MAX_VIOLATIONS_KEPT) {
        struct wk_violation *v = &vm->violations[vm->violation_total];
        snprintf(v->rule, sizeof(v->rule), "%s", catalogue[rule].id);
        v->ddi = ddi;
        wk_vidmm_text_cut(v->message, sizeof(v->message), line);
    }
    vm->violation_total++;
    vm->rule_hits[rule]++;
    wk_vidmm_text_cut(vm->last_error, sizeof(vm->last_error), line);
    return WK_E_CONTRACT;
}

static wk_status set_last_error(struct wk_vidmm *vm, wk_status st, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static wk_status set_last_error(struct wk_vidmm *vm, wk_status st, const char *fmt, va_list ap)
{
    vsnprintf(vm->last_error, sizeof(vm->last_error), fmt, ap);
    return st;
}

wk_status fail(struct wk_vidmm *vm, wk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    st = set_last_error(vm, st, fmt, ap);
    va_end(ap);
    return st;
}

/* The same, for a caller outside the adapter (the conformance runner). */
wk_status wk_vidmm_refuse(struct wk_vidmm *vm, wk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    st = set_last_error(vm, st, fmt, ap);
    va_end(ap);
    return st;
}

uint32_t wk_vidmm_violations(const struct wk_vidmm *vm, struct wk_violation *out, uint32_t max,
                             uint64_t *total)
{
    uint64_t kept = vm->violation_total < MAX_VIOLATIONS_KEPT ? vm->violation_total
                                                               : MAX_VIOLATIONS_KEPT;
    uint32_t n = kept < max ? (uint32_t)kept : max;
    if (n)
        memcpy(out, vm->violations, n * sizeof(*out));
    if (total)
        *total = vm->violation_total;
    return n;
}

int wk_vidmm_violated(const struct wk_vidmm *vm, const char *id)
{
    for (uint32_t i = 0; i < WK_RULE_COUNT; i++)
        if (strcmp(catalogue[i].id, id) == 0)
            return vm->rule_hits[i] != 0;
    return 0;
}

int wk_vidmm_rule_violated(const struct wk_vidmm *vm, uint32_t index)
{
    return index < WK_RULE_COUNT && vm->rule_hits[index] != 0;
}

const char *wk_vidmm_last_error(const struct wk_vidmm *vm)
{
    return vm->last_error;
}

void wk_vidmm_clear_last_error(struct wk_vidmm *vm)
{
    vm->last_error[0] = '\0';
}

/* Pipes would break a Markdown table cell. */
static void cell(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++)
        fputs(*p == '|' ? "\\|" : (char[2]){ *p, 0 }, out);
}

void wk_rules_write_markdown(FILE *out)
{
    fputs("# Contract rules\n\n"
          "The catalogue of every check the reference video memory manager makes on a driver's\n"
          "answers. Generated from `reference-impl/vidmm/rules.h` by `wddmkit rules --markdown`;\n"
          "the test `rules.doc_current` fails when this file and the table differ, and\n"
          "`vidmm.rules` (tests/test_vidmm_rules.c) proves each rule twice: a correct answer\n"
          "passes, and a hand-made bad answer (the answer-rewriting knob, or a mutant driver) is\n"
          "flagged with exactly that rule ID. A violation message always starts with the ID.\n\n"
          "Sources: \"facts §N.N\" is section N.N of `docs/wddm-facts.md`; \"seed:\" names the WDDM\n"
          "documentation page the rule restates.\n\n",
          out);
    fprintf(out, "%u rules.\n\n", (unsigned)WK_RULE_COUNT);
    fputs("| ID | checks | rule | source | checked in | proved by |\n"
          "| --- | --- | --- | --- | --- | --- |\n",
          out);
    for (uint32_t i = 0; i < WK_RULE_COUNT; i++) {
        const struct wk_rule *r = &catalogue[i];
        fprintf(out, "| `%s` | %s | ", r->id, r->ddi == WK_DDI_NONE ? "any DDI" : wk_ddi_name(r->ddi));
        cell(out, r->text);
        fputs(" | ", out);
        cell(out, r->source);
        fputs(" | ", out);
        cell(out, r->where);
        fprintf(out, " | `vidmm.rules` case `%s` |\n", r->id);
    }
}
