/* SPDX-License-Identifier: MIT */
/*
 * test_roles.c - segment casting (conformance/prog/roles.c): which of the
 * driver's segments plays each segment a case names, and why none does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "conformance.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

/* A description of memory/aperture segments (sizes), ids 1..n. */
static void describe(struct wk_prog *p, const char *kinds, const uint64_t *sizes)
{
    wk_prog_init(p);
    uint32_t n = (uint32_t)strlen(kinds);
    for (uint32_t i = 0; i < n; i++) {
        p->segments[i].kind = kinds[i] == 'a' ? WK_GPU_SEGMENT_APERTURE : WK_GPU_SEGMENT_MEMORY;
        p->segments[i].base = (uint64_t)(i + 1) << 32;
        p->segments[i].size = sizes[i];
        p->segments[i].bank_count = 0;
    }
    p->gpu.segment_count = n;
}

static struct wk_vidmm_segment_info seg(uint32_t id, int aperture, uint64_t size, uint32_t banks, int cpu)
{
    return (struct wk_vidmm_segment_info){ id, aperture, (uint64_t)id << 36, size, banks, cpu, NULL, 0 };
}

static uint32_t bits(uint32_t a, uint32_t b, uint32_t c)
{
    return (a ? 1u << (a - 1) : 0) | (b ? 1u << (b - 1) : 0) | (c ? 1u << (c - 1) : 0);
}

/* The same layout is cast id for id, named or not. */
static void same_layout_id_for_id(void **state)
{
    (void)state;
    static struct wk_prog p;
    const uint64_t sizes[] = { MIB, MIB, 256 * KIB };
    describe(&p, "mma", sizes);
    struct wk_vidmm_segment_info d[] = { seg(1, 0, MIB, 0, 0), seg(2, 0, MIB, 0, 0), seg(3, 1, 256 * KIB, 0, 0) };
    uint32_t player[WK_PROG_MAX_SEGMENTS + 1];
    assert_int_equal(wk_roles_cast(&p, d, 3, bits(2, 0, 0), player, NULL, 0), 0);
    assert_int_equal(player[1], 1);
    assert_int_equal(player[2], 2);
    assert_int_equal(player[3], 3);
}

/* Kinds and sizes decide; ids do not: a driver with its aperture first and
 * a small memory segment before a large one. */
static void kind_and_size_decide(void **state)
{
    (void)state;
    static struct wk_prog p;
    const uint64_t sizes[] = { MIB, 64 * KIB };
    describe(&p, "ma", sizes);
    struct wk_vidmm_segment_info d[] = { seg(1, 1, 8 * MIB, 0, 0), seg(2, 0, 512 * KIB, 0, 1), seg(3, 0, 32 * MIB, 0, 1) };
    uint32_t player[WK_PROG_MAX_SEGMENTS + 1];
    assert_int_equal(wk_roles_cast(&p, d, 3, bits(1, 2, 0), player, NULL, 0), 0);
    assert_int_equal(player[1], 3); /* 512 KiB is smaller than the case's 1 MiB */
    assert_int_equal(player[2], 1);
}

/* A segment whose first choice another needs moves to its alternative
 * (an augmenting path), so the case runs instead of being skipped. */
static void a_taken_player_moves(void **state)
{
    (void)state;
    static struct wk_prog p;
    const uint64_t sizes[] = { 64 * KIB, 2 * MIB };
    describe(&p, "mm", sizes);
    struct wk_vidmm_segment_info d[] = { seg(1, 0, 4 * MIB, 0, 0), seg(2, 0, MIB, 0, 0) };
    uint32_t player[WK_PROG_MAX_SEGMENTS + 1];
    assert_int_equal(wk_roles_cast(&p, d, 2, bits(1, 2, 0), player, NULL, 0), 0);
    assert_int_equal(player[1], 2);
    assert_int_equal(player[2], 1);
}

/* Roles: banks and CPU visibility, and the reason when nothing plays one. */
static void roles_and_reasons(void **state)
{
    (void)state;
    static struct wk_prog p;
    const uint64_t sizes[] = { MIB, MIB, 256 * KIB };
    describe(&p, "mma", sizes);
    p.segments[1].bank_count = 2;
    p.segment_roles[1] = WK_ROLE_BANKED;
    struct wk_vidmm_segment_info d[] = { seg(1, 0, 32 * MIB, 0, 1), seg(2, 1, 8 * MIB, 0, 0) };
    uint32_t player[WK_PROG_MAX_SEGMENTS + 1];
    char why[160];
    assert_int_equal(wk_roles_cast(&p, d, 2, bits(2, 3, 0), player, why, sizeof(why)), 2);
    assert_string_equal(why, "the case needs a banked memory segment of at least 1MiB; the driver has none");
    assert_int_equal(player[3], 2); /* the others are still cast */
    d[0].banks = 4;
    assert_int_equal(wk_roles_cast(&p, d, 2, bits(2, 3, 0), player, why, sizeof(why)), 0);
    assert_int_equal(player[2], 1);

    p.segment_roles[1] = WK_ROLE_CPU_VISIBLE;
    d[0].cpu_visible = 0;
    assert_int_equal(wk_roles_cast(&p, d, 2, bits(2, 0, 0), player, why, sizeof(why)), 2);
    assert_string_equal(why, "the case needs a CPU-visible memory segment of at least 1MiB; the driver has none");

    p.segment_roles[1] = 0;
    assert_int_equal(wk_roles_cast(&p, d, 2, bits(1, 2, 0), player, why, sizeof(why)), 2);
    assert_string_equal(why, "the case names more memory segments than the driver has that can play them");
    assert_int_equal(wk_roles_cast(&p, d, 2, bits(3, 0, 0), player, why, sizeof(why)), 0);
}

/* Segments no step names are cast where the driver has some left, never
 * at the cost of a named one. */
static void unnamed_cast_where_room(void **state)
{
    (void)state;
    static struct wk_prog p;
    const uint64_t sizes[] = { MIB, MIB, 256 * KIB };
    describe(&p, "mma", sizes);
    struct wk_vidmm_segment_info d[] = { seg(1, 0, 32 * MIB, 0, 1), seg(2, 1, 8 * MIB, 0, 0) };
    uint32_t player[WK_PROG_MAX_SEGMENTS + 1];
    assert_int_equal(wk_roles_cast(&p, d, 2, bits(2, 0, 0), player, NULL, 0), 0);
    assert_int_equal(player[2], 1);
    assert_int_equal(player[1], 0);
    assert_int_equal(player[3], 2);
}

/* An allocation created CpuVisible needs a CPU-visible player for every
 * memory segment it names (umd.h: a driver keeps it out of the others). */
static void cpu_visible_allocations_need_cpu_visible_players(void **state)
{
    (void)state;
    static struct wk_prog p;
    const uint64_t sizes[] = { MIB, MIB, 256 * KIB };
    describe(&p, "mma", sizes);
    p.step_count = 1;
    p.steps[0].kind = WK_STEP_CREATE_ALLOCATION;
    p.steps[0].alloc.preferred = 2;
    p.steps[0].alloc.flags = 1; /* CpuVisible */
    assert_int_equal(wk_roles_needed(&p, 2), WK_ROLE_CPU_VISIBLE);
    assert_int_equal(wk_roles_needed(&p, 1), 0);
    struct wk_vidmm_segment_info d[] = { seg(1, 1, 16 * MIB, 0, 0), seg(2, 0, 64 * MIB, 4, 0), seg(3, 0, 2 * MIB, 0, 1) };
    uint32_t player[WK_PROG_MAX_SEGMENTS + 1];
    assert_int_equal(wk_roles_cast(&p, d, 3, wk_roles_named(&p), player, NULL, 0), 0);
    assert_int_equal(player[2], 3); /* not 2, the same id: it is not CPU visible */
}

/* What names a segment: sets, preferences, placements, relocations,
 * absolute fence addresses. */
static void what_names_a_segment(void **state)
{
    (void)state;
    static struct wk_prog p;
    const uint64_t sizes[] = { MIB, MIB, 256 * KIB };
    describe(&p, "mma", sizes);
    struct wk_step s;
    memset(&s, 0, sizeof(s));
    s.kind = WK_STEP_CREATE_ALLOCATION;
    s.alloc.supported_set = 0x4;
    s.alloc.preferred = 2u | (1u << 6);
    assert_int_equal(wk_roles_named_by(&p, &s), bits(1, 2, 3));
    memset(&s, 0, sizeof(s));
    s.kind = WK_STEP_SIGNAL_FENCE;
    s.address = p.segments[1].base + 0x10;
    assert_int_equal(wk_roles_named_by(&p, &s), bits(2, 0, 0));
    s.relative = 1;
    assert_int_equal(wk_roles_named_by(&p, &s), 0);
    memset(&s, 0, sizeof(s));
    s.kind = WK_STEP_EXPECT_PLACEMENT;
    s.segment = 9; /* not in the description */
    assert_int_equal(wk_roles_named_by(&p, &s), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_layout_id_for_id),
        cmocka_unit_test(kind_and_size_decide),
        cmocka_unit_test(a_taken_player_moves),
        cmocka_unit_test(roles_and_reasons),
        cmocka_unit_test(unnamed_cast_where_room),
        cmocka_unit_test(cpu_visible_allocations_need_cpu_visible_players),
        cmocka_unit_test(what_names_a_segment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
