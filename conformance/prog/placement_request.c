/* SPDX-License-Identifier: MIT */
/*
 * placement_request.c - whether a driver that reads the kit's allocation
 * format kept the placement fields of a request (include/wddmkit/umd.h:
 * the driver "copies the placement fields when they are valid for its
 * segments"): an encoder sub-check of create_allocation.
 *
 * A preference list is read as VidMm reads it, slot by slot up to the first
 * empty one (facts §5.6 B6 for segments; B4, B5 for banks). The driver's
 * list must be the request's with only the invalid entries left out: every
 * (id, direction) it lists is the request's, in the request's order, each
 * at most once; and every entry valid for its segments (a segment it
 * supports for the allocation; a bank the preferred segment has) is there.
 */
#include <stdio.h>

#include "conform.h"

/* D3DDDI_SEGMENTPREFERENCE: five 6-bit slots (SegmentId:5, Direction:1). */
static uint32_t segment_slot(uint32_t v, uint32_t i)
{
    return (v >> (6 * i)) & 0x3Fu;
}

/* DXGK_SEGMENTBANKPREFERENCE: four 8-bit slots (Bank:7, Direction:1). */
static uint32_t bank_slot(uint32_t v, uint32_t i)
{
    return (v >> (8 * i)) & 0xFFu;
}

struct prefs {
    uint32_t entry[5]; /* (id | direction << id_bits) as the slot holds it */
    uint32_t n;
};

static struct prefs read_prefs(uint32_t v, int banks)
{
    struct prefs p = { { 0 }, 0 };
    for (uint32_t i = 0; i < (banks ? 4u : 5u); i++) {
        uint32_t e = banks ? bank_slot(v, i) : segment_slot(v, i);
        if ((e & (banks ? 0x7Fu : 0x1Fu)) == 0)
            break;
        p.entry[p.n++] = e;
    }
    return p;
}

static void entry_text(uint32_t e, int banks, char *buf, size_t cap)
{
    uint32_t id = e & (banks ? 0x7Fu : 0x1Fu);
    int top_down = (e >> (banks ? 7 : 5)) & 1;
    snprintf(buf, cap, "%s %u%s", banks ? "bank" : "segment", id, top_down ? " top-down" : "");
}

/* Whether the driver may leave entry e out: a segment outside its mask of
 * valid ids, a bank above its count. */
static int entry_valid(uint32_t e, int banks, uint32_t valid_mask_or_count)
{
    uint32_t id = e & (banks ? 0x7Fu : 0x1Fu);
    return banks ? id <= valid_mask_or_count : id <= 32 && ((valid_mask_or_count >> (id - 1)) & 1);
}

static int left_out(uint32_t e, uint32_t j, int banks, char *why, size_t cap)
{
    char text[48];
    entry_text(e, banks, text, sizeof(text));
    snprintf(why, cap, "the request's %s (its entry %u), valid here, is left out", text, j);
    return 0;
}

/* The common walk: answer a subsequence of request, and every request
 * entry valid(id) matched. */
static int kept(uint32_t request, uint32_t answer, int banks, uint32_t valid_mask_or_count, char *why, size_t cap)
{
    struct prefs q = read_prefs(request, banks), a = read_prefs(answer, banks);
    uint32_t j = 0;
    char e[48];
    for (uint32_t i = 0; i < a.n; i++) {
        while (j < q.n && q.entry[j] != a.entry[i]) {
            uint32_t id_mask = banks ? 0x7Fu : 0x1Fu;
            if ((q.entry[j] & id_mask) == (a.entry[i] & id_mask)) { /* same entry, the other direction */
                entry_text(a.entry[i], banks, e, sizeof(e));
                snprintf(why, cap, "slot %u lists %s: the request's entry %u has the other direction", i, e, j);
                return 0;
            }
            if (entry_valid(q.entry[j], banks, valid_mask_or_count))
                return left_out(q.entry[j], j, banks, why, cap);
            j++;
        }
        if (j == q.n) {
            entry_text(a.entry[i], banks, e, sizeof(e));
            snprintf(why, cap, "slot %u lists %s, which is not the request's next entry", i, e);
            return 0;
        }
        j++;
    }
    for (; j < q.n; j++)
        if (entry_valid(q.entry[j], banks, valid_mask_or_count))
            return left_out(q.entry[j], j, banks, why, cap);
    return 1;
}

int wk_preference_kept(uint32_t request, uint32_t answer, uint32_t supported, char *why, size_t cap)
{
    return kept(request, answer, 0, supported, why, cap);
}

int wk_banks_kept(uint32_t request, uint32_t answer, uint32_t bank_count, char *why, size_t cap)
{
    return kept(request, answer, 1, bank_count, why, cap);
}
