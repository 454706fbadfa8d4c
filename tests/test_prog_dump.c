/* SPDX-License-Identifier: MIT */
/*
 * test_prog_dump.c - `wddmkit spec dump` shows what will run
 * (conformance/prog/prog.c, wk_prog_dump): every field a check compares, the
 * allocation a relative touch names, stats and paging operations by the
 * words the spec loader reads (each of them read back), no max where the
 * case set no upper bound, a render record with its own fields only, and
 * each step's kind of check (wk_step_check_kind, prog.c: the table of
 * docs/verdicts.md, "Kinds of check"), a placement's offset marked a choice.
 *
 * Each case is loaded from YAML, dumped into memory, and the lines are
 * checked whole: the dump is one line per step (its kind as a tag padded to
 * 10 columns, the step's keyword padded to 22), which nothing parses back, so the exact text is the
 * contract a reader relies on.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

static char text[1 << 16];

/* Loads one YAML document (it must load without an error) and dumps its
 * only case into text. */
static void dump_yaml(const char *yaml)
{
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 8);
    wk_status st = wk_spec_load_buffer(&set, "dump.yaml", (const uint8_t *)yaml, strlen(yaml), &d);
    if (st != WK_OK || set.count != 1)
        fail_msg("the case did not load: %s", d.count ? d.messages[0] : "no message");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    wk_prog_dump(set.progs[0], f);
    fclose(f);
    assert_true(len < sizeof(text));
    memcpy(text, buf, len + 1);
    free(buf);
    wk_spec_set_free(&set);
    wk_diag_free(&d);
}

/* Whether the dump has a line that is exactly `line` (without its '\n'). */
static int has_line(const char *line)
{
    size_t n = strlen(line);
    for (const char *at = text; (at = strstr(at, line)) != NULL; at++)
        if ((at == text || at[-1] == '\n') && (at[n] == '\n' || at[n] == '\0'))
            return 1;
    return 0;
}

static void expect_line(const char *line)
{
    if (!has_line(line))
        fail_msg("no line '%s' in the dump:\n%s", line, text);
}

/* A file with one case; the test appends its steps (and expect:). */
#define HEAD                                        \
    "area: dump\n"                                  \
    "cases:\n"                                      \
    "  - id: dump.case\n"                           \
    "    describe: What the dump shows.\n"          \
    "    covers: [PAGING-FILL-001]\n"               \
    "    steps:\n"

static void test_placement_and_pattern(void **state)
{
    (void)state;
    dump_yaml(HEAD "      - create_device\n"
                   "      - create_allocation: {as: a, size: 16KiB, preferred: [{segment: 2}]}\n"
                   "      - page_in: {allocation: a}\n"
                   "      - touch_physical: {allocation: a, offset: 0x100}\n"
                   "      - touch_physical: {segment: 1, offset: 0x2000, write: true}\n"
                   "      - expect_placement: {allocation: a, segment: 2, offset: 0x1000, bank: 1}\n"
                   "      - expect_placement: {allocation: a}\n"
                   "      - evict: {allocation: a}\n"
                   "      - expect_placement: {allocation: a, resident: false}\n"
                   "    expect:\n"
                   "      - pattern: {allocation: a, pattern: 0x11223344, offset: 0x10, size: 32}\n"
                   "      - pattern: {allocation: a, pattern: 0}\n");
    expect_line("    3: [contract] touch_physical         alloc0+0x100 read");
    expect_line("    4: [contract] touch_physical         segment=1 offset=0x2000 write");
    expect_line("    5: [contract] expect_placement       alloc0 resident=true segment=2 offset=0x1000 (choice) bank=1");
    expect_line("    6: [contract] expect_placement       alloc0 resident=true");
    expect_line("    8: [contract] expect_placement       alloc0 resident=false");
    expect_line("    9: [semantic] expect_pattern         alloc0 value=0x11223344 offset=0x10 size=32");
    expect_line("   10: [semantic] expect_pattern         alloc0 value=0x0");
}

/* {stat: gpu_faults} has no upper bound, {stat: gpu_faults, max: 0} has
 * one: the dump must tell them apart. */
static void test_stats_words_and_max(void **state)
{
    (void)state;
    dump_yaml(HEAD "      - create_device\n"
                   "    expect:\n"
                   "      - stats: {stat: gpu_faults}\n"
                   "      - stats: {stat: gpu_faults, max: 0}\n"
                   "      - stats: {stat: paging_op, op: fill, min: 2, max: 2}\n"
                   "      - stats: {stat: ddi_calls, ddi: BuildPagingBuffer, min: 3}\n"
                   "      - stats: {stat: ddi_calls, ddi: DxgkCbNotifyInterrupt, max: 9}\n");
    expect_line("    1: [semantic] expect_stats           stat=gpu_faults min=0");
    expect_line("    2: [semantic] expect_stats           stat=gpu_faults min=0 max=0");
    expect_line("    3: [choice]   expect_stats           stat=paging_op op=fill min=2 max=2");
    expect_line("    4: [choice]   expect_stats           stat=ddi_calls ddi=BuildPagingBuffer min=3");
    expect_line("    5: [choice]   expect_stats           stat=ddi_calls ddi=DxgkCbNotifyInterrupt min=0 max=9");
}

/* Every stat word and paging-operation word the loader reads comes back
 * as itself. */
static void test_every_word_reads_back(void **state)
{
    (void)state;
    static char yaml[16384];
    char want[160];
    for (uint32_t i = 0; wk_stat_words[i]; i++) {
        const char *extra = i == WK_STAT_DDI_CALLS ? ", ddi: Render" : i == WK_STAT_PAGING_OP ? ", op: transfer" : "";
        snprintf(yaml, sizeof(yaml), HEAD "      - create_device\n    expect:\n      - stats: {stat: %s%s}\n",
                 wk_stat_words[i], extra);
        dump_yaml(yaml);
        const char *kind = i == WK_STAT_GPU_FAULTS                              ? "[semantic]"
                           : i == WK_STAT_VIOLATIONS || i == WK_STAT_CANCELLED ? "[contract]"
                                                                              : "[choice]";
        snprintf(want, sizeof(want), "    1: %-10s expect_stats           stat=%s%s min=0", kind, wk_stat_words[i],
                 i == WK_STAT_DDI_CALLS ? " ddi=Render" : i == WK_STAT_PAGING_OP ? " op=transfer" : "");
        expect_line(want);
    }
    for (uint32_t i = 0; wk_paging_op_words[i]; i++) {
        snprintf(yaml, sizeof(yaml),
                 HEAD "      - create_device\n    expect:\n      - stats: {stat: paging_op, op: %s}\n",
                 wk_paging_op_words[i]);
        dump_yaml(yaml);
        snprintf(want, sizeof(want), "    1: [choice]   expect_stats           stat=paging_op op=%s min=0",
                 wk_paging_op_words[i]);
        expect_line(want);
    }
}

static void test_render_records(void **state)
{
    (void)state;
    dump_yaml(HEAD "      - create_device\n"
                   "      - create_context: {as: ctx}\n"
                   "      - create_allocation: {as: a, size: 16KiB}\n"
                   "      - create_allocation: {as: b, size: 16KiB}\n"
                   "      - render:\n"
                   "          context: ctx\n"
                   "          list: [{allocation: a}, {allocation: b, write: true}]\n"
                   "          commands:\n"
                   "            - {nop: {}}\n"
                   "            - {copy: {src: [0, 0], dst: [1, 0x10], size: 64}}\n"
                   "            - {fill: {dst: [1, 0], size: 32, pattern: 0xabcd}}\n"
                   "            - {write32: {dst: [1, 4], value: 7}}\n"
                   "            - {blit: {src: [0, 0], dst: [1, 0], width: 8, height: 2, src_pitch: 16, dst_pitch: 8}}\n");
    expect_line("      nop");
    expect_line("      copy src=[0,0x0] dst=[1,0x10] size=64");
    expect_line("      fill dst=[1,0x0] size=32 value=0xabcd");
    expect_line("      write32 dst=[1,0x4] value=0x7");
    expect_line("      blit src=[0,0x0] dst=[1,0x0] width=8 height=2 src_pitch=16 dst_pitch=8");
}

/* Each step's kind of check (prog.h, docs/verdicts.md "Kinds of check"),
 * derived from the step: the table of the docs, row by row. */
static void test_kinds_of_check(void **state)
{
    (void)state;
    struct wk_step s;
    enum wk_check_kind kinds[WK_STEP_MAX_CHECKS];
    for (int k = 0; k < WK_STEP_KIND_COUNT; k++) {
        memset(&s, 0, sizeof(s));
        s.kind = (enum wk_step_kind)k;
        s.alloc.size = 4096; /* a create_allocation of Size 0 is encoder (below) */
        enum wk_check_kind want = WK_CHECK_CONTRACT;
        if (k == WK_STEP_RENDER)
            want = WK_CHECK_ENCODER;
        else if (k == WK_STEP_EXPECT_BYTES || k == WK_STEP_EXPECT_PATTERN || k == WK_STEP_EXPECT_DIGEST ||
                 k == WK_STEP_EXPECT_GART || k == WK_STEP_EXPECT_VA)
            want = WK_CHECK_SEMANTIC;
        else if (k == WK_STEP_EXPECT_CONTEXT_INFO || k == WK_STEP_EXPECT_STATS) /* stat 0: paging passes */
            want = WK_CHECK_CHOICE;
        if (wk_step_check_kind(&s) != want)
            fail_msg("%s is %s, expected %s", wk_step_keyword(s.kind), wk_check_kind_name(wk_step_check_kind(&s)),
                     wk_check_kind_name(want));
        assert_int_equal(wk_step_checks(&s, kinds), 1);
        assert_int_equal(kinds[0], want);
    }
    s.kind = WK_STEP_EXPECT_STATS;
    for (int st = 0; st < WK_STAT_COUNT; st++) {
        s.stat = (enum wk_prog_stat)st;
        enum wk_check_kind want = st == WK_STAT_GPU_FAULTS                              ? WK_CHECK_SEMANTIC
                                  : st == WK_STAT_VIOLATIONS || st == WK_STAT_CANCELLED ? WK_CHECK_CONTRACT
                                                                                        : WK_CHECK_CHOICE;
        assert_int_equal(wk_step_check_kind(&s), want);
    }
    /* a placement is contract; its offset a choice sub-check */
    memset(&s, 0, sizeof(s));
    s.kind = WK_STEP_EXPECT_PLACEMENT;
    s.has_offset = 1;
    assert_int_equal(wk_step_checks(&s, kinds), 2);
    assert_int_equal(kinds[0], WK_CHECK_CONTRACT);
    assert_int_equal(kinds[1], WK_CHECK_CHOICE);
    /* a request of Size 0 is invalid in the kit's format: encoder; the
     * request's placement fields kept, an encoder sub-check */
    memset(&s, 0, sizeof(s));
    s.kind = WK_STEP_CREATE_ALLOCATION;
    assert_int_equal(wk_step_checks(&s, kinds), 1);
    assert_int_equal(kinds[0], WK_CHECK_ENCODER);
    s.alloc.size = 4096;
    s.alloc.preferred = 1;
    assert_int_equal(wk_step_checks(&s, kinds), 2);
    assert_int_equal(kinds[0], WK_CHECK_CONTRACT);
    assert_int_equal(kinds[1], WK_CHECK_ENCODER);
    s.alloc.size = 0;
    s.alloc.paging_buffers = 2; /* sized from the driver: not a request of 0 */
    assert_int_equal(wk_step_check_kind(&s), WK_CHECK_CONTRACT);
    /* names and back */
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++)
        assert_int_equal(wk_check_kind_find(wk_check_kind_name((enum wk_check_kind)k)), k);
    assert_string_equal(wk_check_kind_name(WK_CHECK_ENCODER), "encoder");
    assert_int_equal(wk_check_kind_find("model"), WK_CHECK_KIND_COUNT);
}

/* The dump tags every step with its kind: a render step is encoder. */
static void test_render_is_tagged_encoder(void **state)
{
    (void)state;
    dump_yaml(HEAD "      - create_device\n"
                   "      - create_context: {as: ctx}\n"
                   "      - create_allocation: {as: a, size: 4KiB}\n"
                   "      - render: {context: ctx, list: [{allocation: a, write: true}], commands: [{nop: {}}]}\n"
                   "      - expect_context_info: {context: ctx, field: dma_buffer_size, value: 4KiB}\n");
    expect_line("    3: [encoder]  render                 context=0 list=[alloc0(w)]");
    expect_line("    4: [choice]   expect_context_info    context=0 field=0 value=4096");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_placement_and_pattern),
        cmocka_unit_test(test_stats_words_and_max),
        cmocka_unit_test(test_every_word_reads_back),
        cmocka_unit_test(test_render_records),
        cmocka_unit_test(test_kinds_of_check),
        cmocka_unit_test(test_render_is_tagged_encoder),
    };
    return cmocka_run_group_tests_name("prog_dump", tests, NULL, NULL);
}
