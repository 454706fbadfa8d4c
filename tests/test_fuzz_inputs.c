/* SPDX-License-Identifier: MIT */
/*
 * test_fuzz_inputs.c - the input parsing shared by fuzz_patch and the
 * conversion of its inputs to step programs (fuzz/inputs/seeds_lib.h): the byte
 * cursor, wk_patch_parse and wk_patch_fold.
 *
 * Why: they run once per fuzz input, so they are written for speed (one
 * masked load per field, no clearing of the whole input, each entry's
 * judgement computed once), and a slip there would not crash: it would
 * silently make the harness call Patch with other arguments than the
 * promoted program, or flag a correct driver. Each test below fails when
 * one of those shortcuts changes what the slow, obvious code gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fuzz.h"

/* The cursor as the obvious loop reads it: byte by byte, zeroes past the end. */
static uint64_t slow_le(const uint8_t *data, size_t size, size_t *at, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++, (*at)++)
        if (*at < size)
            v |= (uint64_t)data[*at] << (8 * i);
    return v;
}

/* Every width at every position of inputs of every length up to 24 bytes
 * (the fast path, the tail where fewer than 8 bytes are left, and past
 * the end) reads what the byte loop reads. */
static void test_cursor_matches_the_byte_loop(void **state)
{
    (void)state;
    uint8_t data[24];
    for (unsigned i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)(0x11 * i + 0x80);
    static const unsigned widths[] = { 1, 2, 4, 8, 1, 8, 2, 2, 4, 1, 8 };
    for (size_t size = 0; size <= sizeof(data); size++) {
        struct wk_cursor c = { data, size, 0 };
        size_t at = 0;
        for (unsigned k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
            uint64_t want = slow_le(data, size, &at, widths[k]);
            assert_int_equal(wk_cursor_le(&c, widths[k]), want);
            assert_int_equal(c.at, at);
        }
        assert_int_equal(wk_cursor_left(&c), 0);
    }
}

/* A fuzz_patch input: header, list entries, patch entries, DMA bytes. */
static size_t build_input(uint8_t *b, uint8_t lists, uint8_t patches, uint16_t end, uint16_t start,
                          const uint16_t *offsets)
{
    size_t n = 0;
    b[n++] = lists;
    b[n++] = patches;
    b[n++] = (uint8_t)end, b[n++] = (uint8_t)(end >> 8);
    b[n++] = (uint8_t)start, b[n++] = (uint8_t)(start >> 8);
    b[n++] = 0;       /* patch_start */
    b[n++] = patches; /* patch_count */
    for (uint8_t i = 0; i < lists; i++) {
        b[n++] = (uint8_t)(1 + i); /* handle */
        b[n++] = 1;                /* SegmentId 1 */
        for (unsigned k = 0; k < 8; k++)
            b[n++] = (uint8_t)(0x10 * i + k);
    }
    for (uint8_t i = 0; i < patches; i++) {
        b[n++] = 0;                   /* AllocationIndex */
        b[n++] = (uint8_t)(i << 1);   /* SlotId, no wrap-around */
        b[n++] = (uint8_t)offsets[i], b[n++] = (uint8_t)(offsets[i] >> 8);
        b[n++] = 0x20, b[n++] = 0, b[n++] = 0, b[n++] = 0; /* AllocationOffset */
        b[n++] = 0, b[n++] = 0;       /* SplitOffset */
        b[n++] = (uint8_t)i, b[n++] = 0; /* DriverId */
    }
    for (unsigned k = 0; k < 40; k++)
        b[n++] = (uint8_t)(0xA0 + k);
    return n;
}

/* Parsing into a struct that held a longer input gives what parsing into
 * a cleared one gives, for every field Patch is handed. */
static void test_parse_owes_nothing_to_the_last_input(void **state)
{
    (void)state;
    uint8_t big[512], small[512];
    const uint16_t offsets[] = { 8, 40, 72, 104, 136, 168 };
    size_t nb = build_input(big, 6, 6, 400, 4, offsets);
    size_t ns = build_input(small, 2, 3, 300, 2, offsets);
    static struct wk_patch_input reused, fresh;
    wk_patch_parse(big, nb, &reused);
    wk_patch_parse(small, ns, &reused);
    memset(&fresh, 0, sizeof(fresh));
    wk_patch_parse(small, ns, &fresh);
    assert_int_equal(reused.list_length, 2);
    assert_int_equal(reused.patch_length, 3);
    assert_int_equal(reused.end, 300);
    assert_int_equal(reused.start, 2);
    assert_int_equal(reused.patch_count, fresh.patch_count);
    assert_int_equal(reused.dma_length, 40);
    assert_ptr_equal(reused.dma, fresh.dma);
    for (uint32_t i = 0; i < fresh.list_length; i++) {
        assert_int_equal(reused.list[i].handle, fresh.list[i].handle);
        assert_int_equal(reused.list[i].segment_id, fresh.list[i].segment_id);
        assert_int_equal(reused.list[i].write, fresh.list[i].write);
        assert_true(reused.list[i].physical_address == fresh.list[i].physical_address);
    }
    assert_memory_equal(reused.patch, fresh.patch, fresh.patch_length * sizeof(fresh.patch[0]));
    assert_int_equal(fresh.patch[2].patch_offset, 72);
    assert_int_equal(fresh.patch[1].slot_id, 1);
}

/* Of two entries a correct driver writes whose 8-byte slots (the kit's
 * GPU) overlap, the later one is made a bad entry (AllocationIndex past
 * the list); an entry made bad no longer counts for the ones after it;
 * entries outside the range are left alone. */
static void test_fold_unjudges_overlaps_as_adjusted(void **state)
{
    (void)state;
    uint8_t b[512];
    /* 16 and 20 overlap; 26 overlaps only 20, which is no longer judged;
     * 30 overlaps 26; 200 is past `end` (not judged) and 203 overlaps it */
    const uint16_t offsets[] = { 16, 20, 26, 30, 200, 203 };
    size_t n = build_input(b, 1, 6, 120, 0, offsets);
    static struct wk_patch_input in;
    wk_patch_parse(b, n, &in);
    wk_patch_fold(&in, 16384, 64, WK_PATCH_SLOTS_KIT);
    assert_int_equal(in.end, 120);
    assert_int_equal(in.patch[0].allocation_index, 0);
    assert_int_equal(in.patch[1].allocation_index, in.list_length + 1); /* overlaps 16 */
    assert_int_equal(in.patch[2].allocation_index, 0);                  /* 20 was made bad */
    assert_int_equal(in.patch[3].allocation_index, in.list_length + 3); /* overlaps 26 */
    assert_int_equal(in.patch[4].allocation_index, 0);                  /* past end: not written */
    assert_int_equal(in.patch[5].allocation_index, 0);
    for (uint32_t i = 0; i < in.patch_length; i++)
        for (uint32_t j = 0; j < i; j++) {
            uint32_t a = in.patch[i].patch_offset, c = in.patch[j].patch_offset;
            if (wk_patch_judged(&in, i) && wk_patch_judged(&in, j))
                assert_true((a > c ? a - c : c - a) >= 8);
        }
}

/* No two entries a correct driver may write keep overlapping `bytes`-wide
 * slots, whatever the kit judges (the slow, obvious pairwise check). */
static void assert_no_written_overlap(const struct wk_patch_input *in, uint32_t bytes)
{
    for (uint32_t i = in->patch_start; i < in->patch_start + in->patch_count; i++)
        for (uint32_t j = in->patch_start; j < i; j++) {
            uint32_t a = in->patch[i].patch_offset, c = in->patch[j].patch_offset;
            if (wk_patch_written(in, i, bytes) && wk_patch_written(in, j, bytes))
                assert_true((a > c ? a - c : c - a) >= bytes);
        }
}

/* Outsider 7's Finch F1: 5-byte address slots at any byte. Offsets are
 * not rounded to dwords (5 and 6 stayed 5 and 6, not 4), and of entries
 * at 0, 4, 5, 6 in a range ending at 11 those at 0 and 5 are kept: the
 * one at 4 is not judged by the kit (4 + 8 > 11) but the driver writes it
 * (4 + 5 <= 11), over byte 4 of the slot at 0, which the kit judges: the
 * correct driver failed PATCH-VALUE-001 there before; 6 overlaps 5. 40 is
 * past the range and left alone; 16, 21 and 26 are side by side. */
static void test_fold_unaligned_five_byte_slots(void **state)
{
    (void)state;
    uint8_t b[512];
    const uint16_t offsets[] = { 0, 4, 5, 6, 40 };
    size_t n = build_input(b, 1, 5, 11, 0, offsets);
    static struct wk_patch_input in;
    wk_patch_parse(b, n, &in);
    wk_patch_fold(&in, 16384, 64, (struct wk_patch_slots){ 1, 5 });
    assert_int_equal(in.patch[1].patch_offset, 4);
    assert_int_equal(in.patch[2].patch_offset, 5);
    assert_int_equal(in.patch[3].patch_offset, 6);
    assert_int_equal(in.patch[0].allocation_index, 0);
    assert_int_equal(in.patch[1].allocation_index, in.list_length + 1);
    assert_int_equal(in.patch[2].allocation_index, 0);
    assert_int_equal(in.patch[3].allocation_index, in.list_length + 3);
    assert_int_equal(in.patch[4].allocation_index, 0);
    assert_no_written_overlap(&in, 5);

    const uint16_t apart[] = { 16, 21, 26 };
    n = build_input(b, 1, 3, 120, 0, apart);
    wk_patch_parse(b, n, &in);
    wk_patch_fold(&in, 16384, 64, (struct wk_patch_slots){ 1, 5 });
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(in.patch[i].allocation_index, 0);
}

/* A GPU whose slots start on dwords (Heron, OtherGPU: { 4, 8 }): offsets
 * rounded down, then the overlaps of what Patch is handed. A slot wider
 * than the kit's 8 bytes that runs past `end` is not written by a correct
 * driver, so an entry the kit would judge there is made bad too. */
static void test_fold_rounds_to_the_slot_step(void **state)
{
    (void)state;
    uint8_t b[512];
    const uint16_t offsets[] = { 17, 27, 30, 101 };
    size_t n = build_input(b, 1, 4, 112, 0, offsets);
    static struct wk_patch_input in;
    wk_patch_parse(b, n, &in);
    wk_patch_fold(&in, 16384, 64, (struct wk_patch_slots){ 4, 8 });
    assert_int_equal(in.patch[0].patch_offset, 16);
    assert_int_equal(in.patch[1].patch_offset, 24);
    assert_int_equal(in.patch[2].patch_offset, 28);
    assert_int_equal(in.patch[3].patch_offset, 100);
    assert_int_equal(in.patch[0].allocation_index, 0);
    assert_int_equal(in.patch[1].allocation_index, 0);
    assert_int_equal(in.patch[2].allocation_index, in.list_length + 2); /* 28 overlaps 24 */
    assert_int_equal(in.patch[3].allocation_index, 0);                  /* 100 + 8 <= 112 */
    assert_no_written_overlap(&in, 8);

    wk_patch_parse(b, n, &in);
    wk_patch_fold(&in, 16384, 64, (struct wk_patch_slots){ 4, 16 });
    assert_int_equal(in.patch[0].allocation_index, 0);
    assert_int_equal(in.patch[1].allocation_index, in.list_length + 1); /* 24 overlaps 16 */
    assert_int_equal(in.patch[2].allocation_index, in.list_length + 2);
    assert_int_equal(in.patch[3].allocation_index, in.list_length + 3); /* judged, 100 + 16 > 112 */
    assert_no_written_overlap(&in, 16);
}

/* The ranges folded into the context's buffers. */
static void test_fold_ranges(void **state)
{
    (void)state;
    uint8_t b[512];
    const uint16_t offsets[] = { 8, 16 };
    size_t n = build_input(b, 1, 2, 50000, 40000, offsets);
    static struct wk_patch_input in;
    wk_patch_parse(b, n, &in);
    wk_patch_fold(&in, 16384, 1, WK_PATCH_SLOTS_KIT);
    assert_int_equal(in.end, 50000 % 16385);
    assert_int_equal(in.start, 40000 % (50000 % 16385 + 1));
    assert_int_equal(in.patch_length, 1);
    assert_int_equal(in.patch_count, 1);
    wk_patch_fold(&in, 8, 1, WK_PATCH_SLOTS_KIT);
    assert_int_equal(in.dma_length, 8);
    assert_true(in.end <= 8);
    assert_true(in.start <= in.end);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cursor_matches_the_byte_loop),
        cmocka_unit_test(test_parse_owes_nothing_to_the_last_input),
        cmocka_unit_test(test_fold_unjudges_overlaps_as_adjusted),
        cmocka_unit_test(test_fold_unaligned_five_byte_slots),
        cmocka_unit_test(test_fold_rounds_to_the_slot_step),
        cmocka_unit_test(test_fold_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
