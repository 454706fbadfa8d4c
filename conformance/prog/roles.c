/* SPDX-License-Identifier: MIT */
/*
 * roles.c - which of the driver's segments plays each segment a case names.
 *
 * A case names segments by their id in its adapter description. A driver
 * of the GPU model reports that description; a driver for other hardware
 * reports its own layout, as it must (facts §4.8, §5.5: the segments are
 * the driver's answer to QUERYSEGMENT), and a verdict never blames it for
 * that. So the kit casts: every description segment a step names is played
 * by a distinct segment of the driver's that can play it - the same kind
 * (memory or aperture), at least as large (the case was written for that
 * size, and the kit keeps the case's allocations in that much of it:
 * wk_vidmm_set_segment_budget), and with what the description's `role:`
 * asks (banks, CPU visibility). Segments no step names need no player: a
 * case about one memory segment and an aperture runs on a driver with one
 * of each, whatever the rest of the description says. The segments it does
 * not name are cast too where the driver has segments left for them, so
 * that the case's world is its description's as far as the driver's
 * layout allows (an allocation "too large for every segment" is so on the
 * driver's too).
 *
 * Casting is a bipartite matching (at most 31 x 31): a segment whose first
 * candidate is taken may take it from another that has an alternative
 * (Kuhn's augmenting paths), so a case is skipped only when no casting
 * exists. Candidates are tried in id order, so the casting is the same on
 * every run.
 */
#include <stdio.h>
#include <string.h>

#include "conform.h"

/* Bit n - 1: description segment n. */
static void name(uint32_t *named, const struct wk_prog *p, uint32_t id)
{
    if (id >= 1 && id <= p->gpu.segment_count && id <= WK_PROG_MAX_SEGMENTS)
        *named |= 1u << (id - 1);
}

static void name_set(uint32_t *named, const struct wk_prog *p, uint32_t set)
{
    for (uint32_t id = 1; id <= 32; id++)
        if (set & (1u << (id - 1)))
            name(named, p, id);
}

/* The description segment holding an absolute GPU address, 0 for none. */
static uint32_t segment_at(const struct wk_prog *p, uint64_t address)
{
    for (uint32_t i = 0; i < p->gpu.segment_count && i < WK_PROG_MAX_SEGMENTS; i++) {
        const struct wk_gpu_segment_desc *s = &p->segments[i];
        if (address >= s->base && address - s->base < s->size)
            return i + 1;
    }
    return 0;
}

uint32_t wk_roles_named_by(const struct wk_prog *p, const struct wk_step *s)
{
    uint32_t named = 0;
    switch (s->kind) {
    case WK_STEP_CREATE_ALLOCATION:
        name_set(&named, p, s->alloc.supported_set | s->alloc.eviction_set);
        for (uint32_t f = 0; f < 5; f++)
            name(&named, p, (s->alloc.preferred >> (6 * f)) & 0x1Fu);
        break;
    case WK_STEP_SIGNAL_FENCE:
        if (!s->relative)
            name(&named, p, segment_at(p, s->address));
        break;
    case WK_STEP_RELOCATE:
    case WK_STEP_EXPECT_PLACEMENT:
        name(&named, p, s->segment);
        break;
    case WK_STEP_TOUCH_PHYSICAL:
        if (!s->relative)
            name(&named, p, s->segment);
        break;
    default:
        break;
    }
    return named;
}

uint32_t wk_roles_named(const struct wk_prog *p)
{
    uint32_t named = 0;
    for (uint32_t i = 0; i < p->step_count; i++)
        named |= wk_roles_named_by(p, &p->steps[i]);
    return named;
}

/*
 * What a case needs of description segment n's player: the roles its
 * `role:` names, and CPU visibility where an allocation the case creates
 * with the CpuVisible flag names it (such an allocation can live only in a
 * CPU-visible segment or an aperture; a driver rightly leaves the others
 * out of its supported set, include/wddmkit/umd.h).
 */
uint32_t wk_roles_needed(const struct wk_prog *p, uint32_t n)
{
    if (n < 1 || n > p->gpu.segment_count || n > WK_PROG_MAX_SEGMENTS)
        return 0;
    uint32_t roles = p->segment_roles[n - 1];
    if (p->segments[n - 1].kind == WK_GPU_SEGMENT_APERTURE)
        return roles;
    for (uint32_t i = 0; i < p->step_count; i++) {
        const struct wk_step *s = &p->steps[i];
        if (s->kind == WK_STEP_CREATE_ALLOCATION && (s->alloc.flags & 1u) && /* DXGK_ALLOCATIONINFOFLAGS.CpuVisible */
            (wk_roles_named_by(p, s) & (1u << (n - 1))))
            roles |= WK_ROLE_CPU_VISIBLE;
    }
    return roles;
}

/* Whether driver segment d can play description segment n. */
static int can_play(const struct wk_prog *p, uint32_t n, const struct wk_vidmm_segment_info *d)
{
    const struct wk_gpu_segment_desc *r = &p->segments[n - 1];
    uint32_t roles = wk_roles_needed(p, n);
    if (d->aperture != (r->kind == WK_GPU_SEGMENT_APERTURE) || d->size < r->size)
        return 0;
    if ((roles & WK_ROLE_BANKED) && d->banks < 2)
        return 0;
    return !(roles & WK_ROLE_CPU_VISIBLE) || d->cpu_visible;
}

struct matching {
    const struct wk_prog *p;
    const struct wk_vidmm_segment_info *d;
    uint32_t nd;
    uint32_t holder[WK_PROG_MAX_SEGMENTS + 1];   /* driver id -> description id holding it */
    uint32_t seen;                               /* driver segments visited on this path (bit id - 1) */
};

/* Kuhn's augmenting path from description segment n: the driver's segment
 * of the same id when it is free and can play it (a layout like the
 * description's is cast id for id), then any free one, then one whose
 * holder can move to another. */
static int augment(struct matching *m, uint32_t n)
{
    for (int pass = 0; pass < 3; pass++)
        for (uint32_t i = 0; i < m->nd && i < WK_PROG_MAX_SEGMENTS; i++) {
            uint32_t id = m->d[i].id, bit = id >= 1 && id <= 32 ? 1u << (id - 1) : 0;
            if (!bit || id > WK_PROG_MAX_SEGMENTS || (m->seen & bit) || !can_play(m->p, n, &m->d[i]))
                continue;
            if ((pass == 0 && id != n) || (pass < 2 && m->holder[id]))
                continue;
            m->seen |= bit;
            if (!m->holder[id] || augment(m, m->holder[id])) {
                m->holder[id] = n;
                return 1;
            }
        }
    return 0;
}

/* Why nobody can play description segment n, for the skip reason: the
 * driver has no segment that could, or the others the case names took
 * every one that could. */
static void say_why(const struct matching *m, uint32_t n, char *why, size_t size)
{
    const struct wk_gpu_segment_desc *r = &m->p->segments[n - 1];
    uint32_t roles = wk_roles_needed(m->p, n);
    int any = 0;
    for (uint32_t i = 0; i < m->nd && !any; i++)
        any = can_play(m->p, n, &m->d[i]);
    char bytes[32];
    if (r->size % (1u << 20) == 0)
        snprintf(bytes, sizeof(bytes), "%lluMiB", (unsigned long long)(r->size >> 20));
    else
        snprintf(bytes, sizeof(bytes), "%lluKiB", (unsigned long long)(r->size >> 10));
    if (any) /* one reason for every such case, whatever the sizes: they group in the summary */
        snprintf(why, size, "the case names more %s segments than the driver has that can play them",
                 r->kind == WK_GPU_SEGMENT_APERTURE ? "aperture" : "memory");
    else
        snprintf(why, size, "the case needs %s%s%s%s segment of at least %s; the driver has none",
                 r->kind == WK_GPU_SEGMENT_APERTURE ? "an aperture" : "a",
                 (roles & WK_ROLE_BANKED) ? " banked" : "", (roles & WK_ROLE_CPU_VISIBLE) ? " CPU-visible" : "",
                 r->kind == WK_GPU_SEGMENT_APERTURE ? "" : " memory", bytes);
}

uint32_t wk_roles_cast(const struct wk_prog *p, const struct wk_vidmm_segment_info *d, uint32_t nd, uint32_t named,
                       uint32_t player[WK_PROG_MAX_SEGMENTS + 1], char *why, size_t why_size)
{
    struct matching m;
    memset(&m, 0, sizeof(m));
    m.p = p;
    m.d = d;
    m.nd = nd;
    memset(player, 0, (WK_PROG_MAX_SEGMENTS + 1) * sizeof(player[0]));
    uint32_t missing = 0, count = p->gpu.segment_count < WK_PROG_MAX_SEGMENTS ? p->gpu.segment_count : WK_PROG_MAX_SEGMENTS;
    for (uint32_t n = 1; n <= count; n++) {
        if (!(named & (1u << (n - 1))))
            continue;
        m.seen = 0;
        if (!augment(&m, n) && !missing)
            missing = n;
    }
    /* Then the rest, where the driver has room for them: an augmenting
     * path never unseats a cast segment, it only moves it. */
    for (uint32_t n = 1; n <= count; n++)
        if (!(named & (1u << (n - 1)))) {
            m.seen = 0;
            augment(&m, n);
        }
    for (uint32_t id = 1; id <= WK_PROG_MAX_SEGMENTS; id++)
        if (m.holder[id])
            player[m.holder[id]] = id;
    if (missing && why && why_size)
        say_why(&m, missing, why, why_size);
    return missing;
}
