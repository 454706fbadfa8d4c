/* SPDX-License-Identifier: MIT */
/*
 * test_vidmm_handles.c - the memory manager's object tables and driver-handle
 * map (reference-impl/vidmm/handles.h, internal to wk_vidmm), alone and on
 * a real adapter with the reference driver:
 *
 *   - a table: the first handles are 1, 2, 3 (what they were as plain
 *     indices); a freed slot comes back with its generation bumped, after
 *     the quarantine; a stale handle, kit or runtime form, names nothing;
 *     the generation wraps (the documented limit); storage grows without
 *     moving an object; the ceiling is at least 1M and a full table reuses
 *     its quarantined slots; creation order survives reuse, and a loop
 *     that frees and creates while it walks visits what it should;
 *   - the map: duplicates, removal in the middle of a probe run, and a
 *     random sequence against a plain array;
 *   - an adapter: more than 4096 allocations alive, 100k churn operations,
 *     more than 4096 contexts and 64 devices one after another, a stale kit
 *     handle refused after its slot was reused, and a driver passing a
 *     stale runtime handle after reuse caught by CTXALLOC-HANDLE-001 and
 *     CTXALLOC-ARGS-001.
 */
#define _GNU_SOURCE /* sigjmp_buf in internal.h */

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* before cmocka.h, whose fail() macro would rename internal.h's fail */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "under_asan.h"
#include "vidmm_test_util.h"

struct item {
    uint64_t tag;
};

static struct item *item(struct handle_table *t, uint32_t h)
{
    return ht_get(t, h);
}

/* ------------------------------------------------------------------ */
/* The table                                                            */
/* ------------------------------------------------------------------ */

static void test_first_handles_are_plain_indices(void **state)
{
    (void)state;
    struct handle_table t;
    ht_init(&t, sizeof(struct item));
    for (uint32_t i = 1; i <= 100; i++)
        assert_int_equal(ht_new(&t), i);
    /* freed slots wait: the next ones are still new indices */
    for (uint32_t i = 1; i <= 50; i++)
        ht_release(&t, i);
    assert_int_equal(ht_new(&t), 101);
    ht_free(&t);
}

static void test_freed_slot_comes_back_after_the_quarantine(void **state)
{
    (void)state;
    struct handle_table t;
    ht_init(&t, sizeof(struct item));
    assert_true(t.quarantine >= 4096);
    t.quarantine = 3;
    uint32_t h[5];
    for (int i = 0; i < 5; i++)
        h[i] = ht_new(&t);
    for (int i = 0; i < 4; i++)
        ht_release(&t, h[i]); /* 4 waiting > 3: the first freed comes back */
    uint32_t again = ht_new(&t);
    assert_int_equal(ht_slot_of(again), ht_slot_of(h[0]));
    assert_int_equal(again >> HT_SLOT_BITS, 1);
    assert_null(ht_get(&t, h[0]));
    assert_non_null(ht_get(&t, again));
    /* 3 waiting, not more: a new slot */
    assert_int_equal(ht_slot_of(ht_new(&t)), 6);
    ht_free(&t);
}

static void test_stale_handles_name_nothing(void **state)
{
    (void)state;
    struct handle_table t;
    ht_init(&t, sizeof(struct item));
    t.quarantine = 0;
    uint32_t old = ht_new(&t);
    item(&t, old)->tag = 1;
    uint32_t old_runtime = ht_runtime_bits(old);
    assert_int_equal(ht_from_runtime_bits(&t, old_runtime), old);
    ht_release(&t, old);
    assert_null(ht_get(&t, old));
    assert_int_equal(ht_from_runtime_bits(&t, old_runtime), 0);
    uint32_t now = ht_new(&t); /* the same slot, the next generation */
    assert_int_equal(ht_slot_of(now), ht_slot_of(old));
    assert_int_not_equal(now, old);
    assert_int_equal(item(&t, now)->tag, 0); /* zeroed for its new object */
    assert_null(ht_get(&t, old));
    assert_int_equal(ht_from_runtime_bits(&t, old_runtime), 0);
    assert_int_equal(ht_from_runtime_bits(&t, ht_runtime_bits(now)), now);
    /* garbage: slot 0, past the table, bits above the runtime generation */
    assert_null(ht_get(&t, 0));
    assert_null(ht_get(&t, 77));
    assert_int_equal(ht_from_runtime_bits(&t, 0), 0);
    assert_int_equal(ht_from_runtime_bits(&t, ht_runtime_bits(now) | 0x10000000u), 0);
    ht_free(&t);
}

/* The documented limit: a slot reused 4096 times hands out the first
 * handle again (256 times for the runtime form); every reuse before that
 * gives a handle no earlier one had. */
static void test_generation_wraps(void **state)
{
    (void)state;
    struct handle_table t;
    ht_init(&t, sizeof(struct item));
    t.quarantine = 0;
    uint32_t first = ht_new(&t), h = first;
    for (uint32_t reuse = 1; reuse <= HT_GEN_MASK + 1u; reuse++) {
        ht_release(&t, h);
        h = ht_new(&t);
        assert_int_equal(ht_slot_of(h), ht_slot_of(first));
        assert_int_equal(h >> HT_SLOT_BITS, reuse & HT_GEN_MASK);
        if (reuse % (HT_RUNTIME_GEN_MASK + 1u) != 0)
            assert_int_not_equal(ht_runtime_bits(h), ht_runtime_bits(first));
        else
            assert_int_equal(ht_runtime_bits(h), ht_runtime_bits(first));
    }
    assert_int_equal(h, first);
    ht_free(&t);
}

static void test_growth_keeps_objects_in_place(void **state)
{
    (void)state;
    struct handle_table t;
    ht_init(&t, sizeof(struct item));
    assert_int_equal(t.capacity, 0); /* nothing up front */
    uint32_t h1 = ht_new(&t);
    assert_int_equal(t.capacity, HT_FIRST_CHUNK);
    struct item *p1 = item(&t, h1);
    p1->tag = 0xABCD;
    const uint32_t n = 200000;
    for (uint32_t i = 2; i <= n; i++)
        item(&t, ht_new(&t))->tag = i;
    assert_ptr_equal(item(&t, h1), p1);
    assert_int_equal(p1->tag, 0xABCD);
    for (uint32_t i = 2; i <= n; i++)
        assert_int_equal(item(&t, i)->tag, i);
    assert_true(t.capacity >= n && t.capacity < 2 * n + HT_FIRST_CHUNK);
    ht_free(&t);
}

static void test_ceiling(void **state)
{
    (void)state;
    struct handle_table t;
    ht_init(&t, sizeof(struct item));
    assert_true(t.limit >= 1000000u);
    /* the real ceiling: every slot in use, then none */
    for (uint32_t i = 1; i <= t.limit; i++)
        if (ht_new(&t) != i)
            fail_msg("slot %u refused below the ceiling", i);
    assert_int_equal(t.live, HT_MAX_SLOTS);
    assert_int_equal(ht_new(&t), 0);
    /* at the ceiling a freed slot comes back at once (no quarantine) */
    ht_release(&t, 12345);
    uint32_t again = ht_new(&t);
    assert_int_equal(ht_slot_of(again), 12345);
    assert_int_equal(again >> HT_SLOT_BITS, 1);
    assert_int_equal(ht_new(&t), 0);
    ht_free(&t);
}

static uint32_t walk(struct handle_table *t, uint32_t *out, uint32_t max)
{
    struct ht_iter it;
    uint32_t n = 0;
    for (uint32_t h = ht_iter_first(t, &it); h && n < max; h = ht_iter_next(t, &it))
        out[n++] = h;
    return n;
}

static void test_creation_order_survives_reuse(void **state)
{
    (void)state;
    struct handle_table t;
    ht_init(&t, sizeof(struct item));
    t.quarantine = 0;
    uint32_t h[6], got[8];
    for (int i = 0; i < 6; i++)
        h[i] = ht_new(&t);
    ht_release(&t, h[1]);
    ht_release(&t, h[3]);
    uint32_t a = ht_new(&t), b = ht_new(&t); /* slots 2 and 4 again, created last */
    assert_int_equal(ht_slot_of(a), 2);
    assert_int_equal(ht_slot_of(b), 4);
    uint32_t want[] = { h[0], h[2], h[4], h[5], a, b };
    assert_int_equal(walk(&t, got, 8), 6);
    assert_memory_equal(got, want, sizeof(want));
    ht_clear(&t);
    assert_int_equal(walk(&t, got, 8), 0);
    assert_int_equal(ht_new(&t), 1); /* as after init */
    ht_free(&t);
}

/* A loop body that frees what it visits, frees the object that comes
 * next, and creates objects: everything alive all along is visited once,
 * in order, and so are objects created before the loop gets there. */
static void test_iteration_while_changing(void **state)
{
    (void)state;
    struct handle_table t;
    ht_init(&t, sizeof(struct item));
    t.quarantine = 0;
    uint32_t h[8];
    for (int i = 0; i < 8; i++) {
        h[i] = ht_new(&t);
        item(&t, h[i])->tag = (uint64_t)i;
    }
    uint64_t seen[16];
    uint32_t n = 0;
    struct ht_iter it;
    for (uint32_t x = ht_iter_first(&t, &it); x; x = ht_iter_next(&t, &it)) {
        uint64_t tag = item(&t, x)->tag;
        seen[n++] = tag;
        if (tag == 1) {
            ht_release(&t, x);    /* itself */
            ht_release(&t, h[2]); /* and the next one */
        } else if (tag == 4) {
            ht_release(&t, x);
            ht_release(&t, h[5]);
            uint32_t y = ht_new(&t); /* reuses a freed slot, created last */
            item(&t, y)->tag = 100;
        } else if (tag == 7) {
            ht_release(&t, x); /* the last one goes, a new one comes */
            item(&t, ht_new(&t))->tag = 101;
        }
    }
    uint64_t want[] = { 0, 1, 3, 4, 6, 7, 100, 101 };
    assert_int_equal(n, sizeof(want) / sizeof(want[0]));
    assert_memory_equal(seen, want, sizeof(want));
    ht_free(&t);
}

/* ------------------------------------------------------------------ */
/* The map                                                              */
/* ------------------------------------------------------------------ */

static void test_map_duplicates_and_removal(void **state)
{
    (void)state;
    struct handle_map m;
    hmap_init(&m);
    assert_int_equal(hmap_find(&m, 0x1000), 0);
    assert_int_equal(hmap_insert(&m, 0x1000, 7), 0);
    assert_int_equal(hmap_insert(&m, 0x1000, 9), 0); /* two live allocations, one driver handle */
    assert_int_equal(hmap_insert(&m, 0, 3), 0);      /* a NULL handle is a key like any other */
    hmap_remove(&m, 0x1000, 7);
    assert_int_equal(hmap_find(&m, 0x1000), 9);
    hmap_remove(&m, 0x1000, 7); /* not there: nothing */
    assert_int_equal(hmap_find(&m, 0x1000), 9);
    hmap_remove(&m, 0x1000, 9);
    assert_int_equal(hmap_find(&m, 0x1000), 0);
    assert_int_equal(hmap_find(&m, 0), 3);
    assert_int_equal(m.count, 1);
    hmap_clear(&m);
    assert_int_equal(hmap_find(&m, 0), 0);
    hmap_free(&m);
}

/* Random inserts and removals against a plain array, keys drawn from a
 * small range (long probe runs, removals in their middle) and from
 * pointer-like values. */
static void test_map_random_against_array(void **state)
{
    (void)state;
    enum { N = 20000, KEYS = 5000 };
    static uintptr_t key[N];
    static uint32_t live[N];
    struct handle_map m;
    hmap_init(&m);
    uint64_t rng = vt_seed(2026);
    uint32_t count = 0;
    for (uint32_t step = 0; step < 200000; step++) {
        uint32_t i = (uint32_t)(vt_rand(&rng) % N);
        if (!live[i]) {
            key[i] = step & 1 ? (uintptr_t)(vt_rand(&rng) % 64) * 16 : 0x7f0000000000ull + (vt_rand(&rng) % KEYS) * 48;
            assert_int_equal(hmap_insert(&m, key[i], i + 1), 0);
            live[i] = 1;
            count++;
        } else {
            hmap_remove(&m, key[i], i + 1);
            live[i] = 0;
            count--;
        }
        if (step % 1000 == 0) {
            for (uint32_t j = 0; j < N; j++) {
                if (!live[j])
                    continue;
                uint32_t v = hmap_find(&m, key[j]);
                assert_int_not_equal(v, 0);
                assert_int_equal(key[v - 1], key[j]);
                assert_true(live[v - 1]);
            }
        }
    }
    assert_int_equal(m.count, count);
    hmap_free(&m);
}

/* ------------------------------------------------------------------ */
/* On an adapter                                                        */
/* ------------------------------------------------------------------ */

static uint32_t alloc_page(struct wk_vidmm *vm, uint32_t device)
{
    WK_ALLOCATION_REQUEST r;
    vt_request(&r, VT_PAGE);
    return vt_alloc(vm, device, &r);
}

/* More allocations alive than the old table held (4096 of each kind). */
static void test_more_than_4096_allocations(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
    enum { N = 6000 };
    static uint32_t h[N];
    for (uint32_t i = 0; i < N; i++) {
        h[i] = alloc_page(f->vm, f->device);
        assert_int_equal(h[i], h[0] + i); /* no reuse: the handles of old (slot 1: the device's context allocation) */
    }
    struct wk_vidmm_allocation_state a, b;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, h[0], &a));
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, h[N - 1], &b));
    assert_ptr_not_equal(a.driver_handle, b.driver_handle);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, h[N - 1]));
    for (uint32_t i = 0; i < N; i++)
        VT_OK(f->vm, wk_vidmm_destroy_allocation(f->vm, h[i]));
    assert_true(expect_no_violations(f->vm));
}

/* A long churn of random destroys and creates, some paged in, on an adapter
 * whose tables must reuse slots; every destroyed handle stays refused after
 * its slot holds another allocation. */
static void test_long_churn(void **state)
{
    struct vt_fixture *f = *state;
    /* a small memory segment (evictions) and system memory for what they save */
    static const struct wk_gpu_segment_desc seg = { WK_GPU_SEGMENT_MEMORY, 0x100000, 64 * VT_PAGE, 0, NULL };
    struct wk_gpu_desc gpu = { .segment_count = 1, .segments = &seg, .sysmem_first_pfn = 0x10000, .sysmem_pages = 2048 };
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.gpu = &gpu;
    assert_true(vt_open(f, &cfg, NULL, VT_DEVICE));
#ifdef UNDER_ASAN
    const uint32_t ops = 10000;
#else
    const uint32_t ops = 100000;
#endif
    enum { LIVE = 5000 };
    static uint32_t h[LIVE];
    for (uint32_t i = 0; i < LIVE; i++)
        h[i] = alloc_page(f->vm, f->device);
    uint64_t rng = vt_seed(26);
    uint32_t stale = 0, reused = 0;
    for (uint32_t k = 0; k < ops; k++) {
        uint32_t i = (uint32_t)(vt_rand(&rng) % LIVE);
        uint32_t old = h[i];
        VT_OK(f->vm, wk_vidmm_destroy_allocation(f->vm, old));
        h[i] = alloc_page(f->vm, f->device);
        if (vt_rand(&rng) % 16 == 0)
            VT_OK(f->vm, wk_vidmm_page_in(f->vm, h[i])); /* the segments fill: evictions too */
        if (k % 97 == 0)
            stale = old;
        struct wk_vidmm_allocation_state s;
        if (stale && wk_vidmm_allocation_state(f->vm, stale, &s) == WK_OK) {
            /* only possible if the handle came back: a live one equal to it */
            int found = 0;
            for (uint32_t j = 0; j < LIVE && !found; j++)
                found = h[j] == stale;
            assert_true(found);
        }
        reused += ht_slot_of(h[i]) != h[i]; /* a generation above 0: a reused slot */
    }
    assert_true(reused > ops / 2);
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(f->vm, &st);
    assert_true(st.evictions > 0);
    assert_true(expect_no_violations(f->vm));
    VT_OK(f->vm, wk_vidmm_reset(f->vm)); /* destroys the 5000 through the device */
    assert_true(expect_no_violations(f->vm));
}

/* A handle of a destroyed allocation is refused once its slot holds a new
 * one (the kit's API), with the quarantine off so the reuse is immediate. */
static void test_stale_kit_handle_after_reuse(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
    f->vm->allocs.quarantine = 0;
    uint32_t old = alloc_page(f->vm, f->device);
    VT_OK(f->vm, wk_vidmm_destroy_allocation(f->vm, old));
    uint32_t now = alloc_page(f->vm, f->device);
    assert_int_equal(ht_slot_of(now), ht_slot_of(old));
    struct wk_vidmm_allocation_state s;
    assert_true(expect_status(f->vm, wk_vidmm_allocation_state(f->vm, old, &s), WK_E_NOT_FOUND));
    assert_true(expect_status(f->vm, wk_vidmm_destroy_allocation(f->vm, old), WK_E_NOT_FOUND));
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, now, &s));
    assert_true(expect_no_violations(f->vm));
}

/* Contexts and devices past the old limits (4096 contexts, 64 devices),
 * one after another: slots reused past the quarantine. */
static void test_many_contexts_and_devices(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
#ifdef UNDER_ASAN
    const uint32_t contexts = 600;
    f->vm->contexts.quarantine = 64;
#else
    const uint32_t contexts = 5000;
#endif
    uint32_t max_slot = 0;
    for (uint32_t i = 0; i < contexts; i++) {
        uint32_t c;
        VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &c));
        max_slot = ht_slot_of(c) > max_slot ? ht_slot_of(c) : max_slot;
        VT_OK(f->vm, wk_vidmm_destroy_context(f->vm, c));
    }
    assert_true(max_slot <= f->vm->contexts.quarantine + 1u); /* reused, not grown */
    for (uint32_t i = 0; i < 200; i++) {
        uint32_t d;
        VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &d));
        VT_OK(f->vm, wk_vidmm_destroy_device(f->vm, d));
    }
    uint32_t d[100];
    for (uint32_t i = 0; i < 100; i++)
        VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &d[i])); /* 101 alive with the fixture's */
    assert_true(expect_no_violations(f->vm));
}

/* The driver passes back a stale runtime handle whose slot holds a live
 * object again: the generation tells them apart. The stand-in driver is
 * the reference driver, its callback arguments rewritten. */
static struct {
    HANDLE first_ctxalloc;  /* the first context allocation's handle, as the kit gave it */
    HANDLE first_context;   /* the first runtime context handle the driver named */
    int swap_ctxalloc, swap_context;
} STALE;

static void rewrite_stale(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    (void)status;
    if (ddi == WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION) {
        HANDLE *h = args;
        if (!STALE.first_ctxalloc)
            STALE.first_ctxalloc = *h;
        else if (STALE.swap_ctxalloc)
            *h = STALE.first_ctxalloc;
    } else if (ddi == WK_DDI_CB_CREATE_CONTEXT_ALLOCATION) {
        DXGKARGCB_CREATECONTEXTALLOCATION *a = args;
        if (a->hContext && !STALE.first_context)
            STALE.first_context = a->hContext;
        else if (a->hContext && STALE.swap_context)
            a->hContext = STALE.first_context;
    }
}

static void test_stale_driver_handles_after_reuse(void **state)
{
    struct vt_fixture *f = *state;
    memset(&STALE, 0, sizeof(STALE));
    assert_true(vt_open(f, NULL, NULL, VT_DEVICE));
    f->vm->allocs.quarantine = 0;
    f->vm->contexts.quarantine = 0;
    wk_vidmm_set_rewriter(f->vm, rewrite_stale, NULL);
    uint32_t c1, c2, c3;
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &c1));
    VT_OK(f->vm, wk_vidmm_destroy_context(f->vm, c1)); /* its context allocation goes */
    assert_non_null(STALE.first_ctxalloc);
    assert_non_null(STALE.first_context);
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &c2));
    /* c2 and its context allocation sit in the slots c1 and its had */
    assert_int_equal(ht_slot_of(c2), ht_slot_of(c1));
    assert_int_equal(runtime_resolve(&f->vm->contexts, STALE.first_context, CONTEXT_HANDLE_TAG), 0);
    uint32_t stale_slot = (uint32_t)(uintptr_t)STALE.first_ctxalloc & HT_SLOT_MASK;
    struct allocation *in_slot = ht_slot(&f->vm->allocs, stale_slot);
    assert_true(in_slot->live && in_slot->context_allocation);
    assert_true(expect_no_violations(f->vm));
    /* DestroyContextAllocation with the stale handle: CTXALLOC-HANDLE-001 */
    STALE.swap_ctxalloc = 1;
    wk_vidmm_destroy_context(f->vm, c2);
    assert_true(expect_violation(f->vm, "CTXALLOC-HANDLE-001"));
    STALE.swap_ctxalloc = 0;
    assert_true(expect_not_violated(f->vm, "CTXALLOC-ARGS-001"));
    /* CreateContextAllocation naming the stale context: CTXALLOC-ARGS-001 */
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &c3));
    STALE.swap_context = 1;
    uint32_t c4;
    wk_vidmm_create_context(f->vm, f->device, 0, &c4);
    assert_true(expect_violation(f->vm, "CTXALLOC-ARGS-001"));
}


/* The software queue's fence order (internal.h, fence_after): by distance
 * mod 2^32, so that ids handed out across 0xFFFFFFFF (the kit goes on at 1)
 * keep their order; by value, 1 would come before 0xFFFFFFFF. */
static void test_fence_order_past_the_top(void **state)
{
    (void)state;
    assert_true(fence_after(2, 1));
    assert_false(fence_after(1, 2));
    assert_false(fence_after(7, 7));
    assert_true(fence_after(0x10000u, 0xFFFFu));
    assert_true(fence_after(0x80000000u, 0x7FFFFFFFu));
    assert_true(fence_after(1, 0xFFFFFFFFu));
    assert_false(fence_after(0xFFFFFFFFu, 1));
    assert_true(fence_after(0x100u, 0xFFFFFF00u));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_handles_are_plain_indices),
        cmocka_unit_test(test_freed_slot_comes_back_after_the_quarantine),
        cmocka_unit_test(test_stale_handles_name_nothing),
        cmocka_unit_test(test_generation_wraps),
        cmocka_unit_test(test_growth_keeps_objects_in_place),
        cmocka_unit_test(test_ceiling),
        cmocka_unit_test(test_creation_order_survives_reuse),
        cmocka_unit_test(test_iteration_while_changing),
        cmocka_unit_test(test_map_duplicates_and_removal),
        cmocka_unit_test(test_map_random_against_array),
        VT_TEST(test_more_than_4096_allocations),
        VT_TEST(test_long_churn),
        VT_TEST(test_stale_kit_handle_after_reuse),
        VT_TEST(test_many_contexts_and_devices),
        VT_TEST(test_stale_driver_handles_after_reuse),
        cmocka_unit_test(test_fence_order_past_the_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
