/* SPDX-License-Identifier: MIT */
/*
 * allocation.c - the checks on a driver's DXGK_ALLOCATIONINFO (facts §3.2,
 * §4.9, §5.6): what CreateAllocation answers for one allocation.
 *
 * All rules are checked and reported, so a driver author sees every problem
 * of one answer at once; the allocation is refused if any was broken.
 */
#include "internal.h"

static int pow2_or_zero(uint64_t v)
{
    return (v & (v - 1)) == 0;
}

/* The five (id, direction) slots of a segment preference, id 0 = none. */
static uint32_t pref_id(D3DDDI_SEGMENTPREFERENCE p, int slot)
{
    return (p.Value >> (6 * slot)) & 0x1F;
}

static void check_preferences(struct wk_vidmm *vm, const DXGK_ALLOCATIONINFO *i, enum wk_ddi d)
{
    for (int slot = 0; slot < 5; slot++) {
        uint32_t id = pref_id(i->PreferredSegment, slot);
        if (id == 0)
            continue;
        if (id > vm->nseg)
            violate(vm, R_ALLOC_PREF_EXISTS, d, "PreferredSegment slot %d names segment %u, but %u are reported",
                    slot, id, vm->nseg);
        else if (!(i->SupportedWriteSegmentSet & (1u << (id - 1))))
            violate(vm, R_ALLOC_PREF_SUPPORTED, d,
                    "PreferredSegment slot %d names segment %u, outside SupportedWriteSegmentSet 0x%x",
                    slot, id, i->SupportedWriteSegmentSet);
    }
    if (i->PreferredSegment.Value & 0xC0000000u)
        violate(vm, R_ALLOC_PREF_EXISTS, d, "PreferredSegment reserved bits 0x%x",
                i->PreferredSegment.Value & 0xC0000000u);
}

/* HintedBank applies to SegmentId0 (facts §5.6 B4, B5). */
static void check_banks(struct wk_vidmm *vm, const DXGK_ALLOCATIONINFO *i, enum wk_ddi d)
{
    uint32_t v = i->HintedBank.Value;
    if (v == 0)
        return;
    uint32_t seg = pref_id(i->PreferredSegment, 0);
    const struct segment *s = seg ? segment_get(vm, seg) : NULL;
    int zero_seen = 0;
    for (int slot = 0; slot < 4; slot++) {
        uint32_t bank = (v >> (8 * slot)) & 0x7F;
        if (bank == 0) {
            zero_seen = 1;
            continue;
        }
        if (zero_seen)
            violate(vm, R_ALLOC_BANK_ORDER, d, "HintedBank slot %d names bank %u after an empty slot",
                    slot, bank);
        if (!s || s->banks == 0 || bank > s->banks)
            violate(vm, R_ALLOC_BANK_RANGE, d,
                    "HintedBank slot %d names bank %u of segment %u, which has %u banks", slot,
                    bank, seg, s ? s->banks : 0);
    }
}

wk_status allocation_check_info(struct wk_vidmm *vm, const DXGK_ALLOCATIONINFO *i, enum wk_ddi d)
{
    uint64_t before = vm->violation_total;
    uint32_t all = segment_mask(vm);
    if (!i->hAllocation)
        violate(vm, R_ALLOC_STATUS, d, "hAllocation is NULL");
    if (i->Size == 0)
        violate(vm, R_ALLOC_SIZE, d, "Size is 0");
    if (!pow2_or_zero(i->Alignment))
        violate(vm, R_ALLOC_ALIGN, d, "Alignment %u is not a power of two", i->Alignment);
    if (i->PitchAlignedSize != 0 && i->PitchAlignedSize < i->Size)
        violate(vm, R_ALLOC_PITCH, d, "PitchAlignedSize 0x%llx below Size 0x%llx",
                (unsigned long long)i->PitchAlignedSize, (unsigned long long)i->Size);
    if (i->SupportedWriteSegmentSet == 0 || (i->SupportedWriteSegmentSet & ~all))
        violate(vm, R_ALLOC_SEGSET, d, "SupportedWriteSegmentSet 0x%x, expected a non-empty subset of 0x%x",
                i->SupportedWriteSegmentSet, all);
    check_preferences(vm, i, d);
    check_banks(vm, i, d);
    if (i->EvictionSegmentSet & ~aperture_mask(vm))
        violate(vm, R_ALLOC_EVICT_SET, d, "EvictionSegmentSet 0x%x names non-aperture segments (apertures 0x%x)",
                i->EvictionSegmentSet, aperture_mask(vm));
    if (i->AllocationPriority == 0)
        violate(vm, R_ALLOC_PRIORITY, d, "AllocationPriority is 0");
    return vm->violation_total == before ? WK_OK : WK_E_CONTRACT;
}
