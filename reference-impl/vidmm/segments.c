/* SPDX-License-Identifier: MIT */
/*
 * segments.c - the segment query at adapter start and the checks on every
 * descriptor (facts §4.8, §5.5, §5.6).
 *
 * The query is the two-call protocol of G9, in the QUERYSEGMENT3 shape (with
 * banks) or the QUERYSEGMENT4 shape (stride-addressed, no banks), as the
 * configuration asks. Both shapes are read into one normalised form, then
 * checked rule by rule; every broken rule is reported, not just the first,
 * so a driver author sees the whole picture in one run. Bank tables are
 * driver memory: they are copied inside a guarded frame, so a bad pointer is
 * reported as a driver crash, not suffered as one.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* What the kit puts in PagingBufferSegmentId before the query that must
 * write it (an [out] member of DXGK_QUERYSEGMENTOUT3/4): handed 0, a driver
 * that forgets it would pass, since 0 is a valid answer (facts §5.5 G10). */
#define UNWRITTEN_SEGMENT_ID 0xA5A5A5A5u

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

struct report {
    DXGK_SEGMENTFLAGS flags;
    uint64_t base, cpu, size, commit;
    uint32_t banks;
    const SIZE_T *bank_table;
};

/* The names of a query's guarded buffers (guard_args.c), by shape. */
struct query_names {
    const char *in, *out;
};
static const struct query_names names_v3 = { "DXGK_QUERYSEGMENTIN input (pInputData)",
                                              "DXGK_QUERYSEGMENTOUT3 output (pOutputData)" };
static const struct query_names names_v4 = { "DXGK_QUERYSEGMENTIN4 input (pInputData)",
                                              "DXGK_QUERYSEGMENTOUT4 output (pOutputData)" };

/* One QueryAdapterInfo call (query_adapter.c); the output's
 * pSegmentDescriptor, when set, already points at a guarded array. */
static wk_status query(struct wk_vidmm *vm, void *in, UINT in_size, void *out, UINT out_size,
                       DXGK_QUERYADAPTERINFOTYPE type, const struct query_names *names, NTSTATUS *status)
{
    return query_adapter_info(vm, type, in, in_size, names->in, out, out_size, names->out, status);
}

static wk_status check_call(struct wk_vidmm *vm, NTSTATUS st, const char *which)
{
    if (st == STATUS_SUCCESS)
        return WK_OK;
    return violate(vm, R_SEG_STATUS, WK_DDI_QUERY_ADAPTER_INFO,
                   "%s call returned 0x%08x, expected STATUS_SUCCESS", which, (unsigned)st);
}

static wk_status check_count(struct wk_vidmm *vm, UINT first, UINT second)
{
    if (first < 1 || first > MAX_SEGMENTS || first != second)
        return violate(vm, R_SEG_COUNT, WK_DDI_QUERY_ADAPTER_INFO,
                       "NbSegment %u on the first call and %u on the second, expected the same "
                       "value in 1..31", first, second);
    return WK_OK;
}

/* QUERYSEGMENT3: first call with pSegmentDescriptor NULL. */
static wk_status query_v3(struct wk_vidmm *vm, struct report *r, uint32_t *n)
{
    DXGK_QUERYSEGMENTIN in;
    memset(&in, 0, sizeof(in)); /* no AGP aperture on this bus */
    DXGK_QUERYSEGMENTOUT3 out;
    memset(&out, 0, sizeof(out));
    NTSTATUS st;
    wk_status w = query(vm, &in, sizeof(in), &out, sizeof(out), DXGKQAITYPE_QUERYSEGMENT3, &names_v3, &st);
    if (w != WK_OK || check_call(vm, st, "first QUERYSEGMENT3") != WK_OK)
        return w != WK_OK ? w : WK_E_CONTRACT;
    UINT count = out.NbSegment;
    if (count < 1 || count > MAX_SEGMENTS)
        return check_count(vm, count, count);
    DXGK_SEGMENTDESCRIPTOR3 desc[MAX_SEGMENTS];
    memset(desc, 0, sizeof(desc));
    memset(&out, 0, sizeof(out));
    out.NbSegment = count;
    out.PagingBufferSegmentId = UNWRITTEN_SEGMENT_ID;
    /* exactly NbSegment descriptors: one more is past the guard */
    struct garg g_desc;
    out.pSegmentDescriptor = garg_in(vm, &g_desc, desc, count * sizeof(desc[0]),
                                     "DXGK_SEGMENTDESCRIPTOR3 array (pSegmentDescriptor[NbSegment])");
    w = query(vm, &in, sizeof(in), &out, sizeof(out), DXGKQAITYPE_QUERYSEGMENT3, &names_v3, &st);
    wk_status guard = garg_out(vm, &g_desc, WK_DDI_QUERY_ADAPTER_INFO, w == WK_E_CONTRACT ? WK_OK : w);
    w = w != WK_OK ? w : guard;
    if (w != WK_OK || check_call(vm, st, "second QUERYSEGMENT3") != WK_OK)
        return w != WK_OK ? w : WK_E_CONTRACT;
    if (check_count(vm, count, out.NbSegment) != WK_OK)
        return WK_E_CONTRACT;
    for (uint32_t i = 0; i < count; i++) {
        struct report *x = &r[i];
        x->flags = desc[i].Flags;
        x->base = (uint64_t)desc[i].BaseAddress.QuadPart;
        x->cpu = (uint64_t)desc[i].CpuTranslatedAddress.QuadPart;
        x->size = desc[i].Size;
        x->commit = desc[i].CommitLimit;
        x->banks = desc[i].NbOfBanks;
        x->bank_table = desc[i].pBankRangeTable;
    }
    *n = count;
    vm->paging_segment = out.PagingBufferSegmentId;
    vm->paging_buffer_size = out.PagingBufferSize;
    vm->paging_private_size = out.PagingBufferPrivateDataSize;
    return WK_OK;
}

/* QUERYSEGMENT4: first call with NbSegment 0; descriptors at a stride. */
static wk_status query_v4(struct wk_vidmm *vm, struct report *r, uint32_t *n)
{
    DXGK_QUERYSEGMENTIN4 in;
    memset(&in, 0, sizeof(in));
    DXGK_QUERYSEGMENTOUT4 out;
    memset(&out, 0, sizeof(out));
    NTSTATUS st;
    wk_status w = query(vm, &in, sizeof(in), &out, sizeof(out), DXGKQAITYPE_QUERYSEGMENT4, &names_v4, &st);
    if (w != WK_OK || check_call(vm, st, "first QUERYSEGMENT4") != WK_OK)
        return w != WK_OK ? w : WK_E_CONTRACT;
    UINT count = out.NbSegment;
    if (count < 1 || count > MAX_SEGMENTS)
        return check_count(vm, count, count);
    static const size_t stride = sizeof(DXGK_SEGMENTDESCRIPTOR4);
    DXGK_SEGMENTDESCRIPTOR4 desc[MAX_SEGMENTS];
    memset(desc, 0, sizeof(desc));
    memset(&out, 0, sizeof(out));
    out.NbSegment = count;
    out.PagingBufferSegmentId = UNWRITTEN_SEGMENT_ID;
    struct garg g_desc; /* exactly NbSegment descriptors at the stride */
    out.pSegmentDescriptor = garg_in(vm, &g_desc, desc, count * stride,
                                     "DXGK_SEGMENTDESCRIPTOR4 array (pSegmentDescriptor[NbSegment])");
    out.SegmentDescriptorStride = stride;
    w = query(vm, &in, sizeof(in), &out, sizeof(out), DXGKQAITYPE_QUERYSEGMENT4, &names_v4, &st);
    wk_status guard = garg_out(vm, &g_desc, WK_DDI_QUERY_ADAPTER_INFO, w == WK_E_CONTRACT ? WK_OK : w);
    w = w != WK_OK ? w : guard;
    if (w != WK_OK || check_call(vm, st, "second QUERYSEGMENT4") != WK_OK)
        return w != WK_OK ? w : WK_E_CONTRACT;
    if (check_count(vm, count, out.NbSegment) != WK_OK)
        return WK_E_CONTRACT;
    if (out.SegmentDescriptorStride != stride)
        return violate(vm, R_SEG_STRIDE, WK_DDI_QUERY_ADAPTER_INFO,
                       "SegmentDescriptorStride changed to %llu, expected the %zu the kernel set",
                       (unsigned long long)out.SegmentDescriptorStride, stride);
    for (uint32_t i = 0; i < count; i++) {
        r[i].flags = desc[i].Flags;
        r[i].base = (uint64_t)desc[i].BaseAddress.QuadPart;
        r[i].cpu = (uint64_t)desc[i].CpuTranslatedAddress.QuadPart;
        r[i].size = desc[i].Size;
        r[i].commit = desc[i].CommitLimit;
        r[i].banks = 0;
        r[i].bank_table = NULL;
    }
    *n = count;
    vm->paging_segment = out.PagingBufferSegmentId;
    vm->paging_buffer_size = out.PagingBufferSize;
    vm->paging_private_size = out.PagingBufferPrivateDataSize;
    return WK_OK;
}

/* Flag rules of one descriptor (facts §3.2, §5.5 G6-G8). */
static void check_flags(struct wk_vidmm *vm, uint32_t id, const struct report *r)
{
    DXGK_SEGMENTFLAGS f = r->flags;
    enum wk_ddi q = WK_DDI_QUERY_ADAPTER_INFO;
    if (f.Agp && (f.Value & ~0x2u))
        violate(vm, R_SEG_AGP_ALONE, q, "segment %u: Agp with other flags (0x%08x)", id, f.Value);
    if (f.Agp)
        violate(vm, R_SEG_AGP_APERTURE, q, "segment %u: an AGP segment while QUERYSEGMENTIN reports no AGP aperture", id);
    if (f.CacheCoherent && !f.Aperture)
        violate(vm, R_SEG_CACHE_COHERENT, q, "segment %u: CacheCoherent on a memory segment", id);
    if (f.ReservedSysMem)
        violate(vm, R_SEG_RESERVED_SYSMEM, q, "segment %u: ReservedSysMem set by the driver", id);
    if ((f.SupportsCpuHostAperture && f.CpuVisible) ||
        (f.SupportsCachedCpuHostAperture && !f.SupportsCpuHostAperture))
        violate(vm, R_SEG_HOST_APERTURE, q, "segment %u: SupportsCpuHostAperture=%u CpuVisible=%u SupportsCachedCpuHostAperture=%u",
                id, f.SupportsCpuHostAperture, f.CpuVisible, f.SupportsCachedCpuHostAperture);
    unsigned triple = f.PreservedDuringStandby << 2 | f.PreservedDuringHibernate << 1 |
                      f.PartiallyPreservedDuringHibernate;
    if (triple != 6 && triple != 5 && triple != 4 && triple != 0) /* (1,1,0) (1,0,1) (1,0,0) (0,0,0) */
        violate(vm, R_SEG_STANDBY, q, "segment %u: standby/hibernate/partial = (%u,%u,%u), not a valid combination",
                id, f.PreservedDuringStandby, f.PreservedDuringHibernate, f.PartiallyPreservedDuringHibernate);
    if (f.Reserved)
        violate(vm, R_SEG_RESERVED_BITS, q, "segment %u: reserved flag bits set (0x%08x)", id, f.Value & 0xFFC00000u);
}

/* Where the hardware shows a CPU-visible memory segment: the bus address
 * of offset 0 of the driver's segment in the device's BAR for the memory
 * that holds it (a binding's WK_BAR_SEGMENT: "BAR offset = segment
 * offset"); 0 when no BAR of the hardware shows that memory (the kit's GPU,
 * a binding without a segment BAR), and nothing is compared. The driver's
 * segment may be part of the hardware's (verdicts.md, "Segments by
 * role"): its offset in it is added. */
static uint64_t bar_view_of(struct wk_vidmm *vm, const struct report *r, uint32_t *hw_segment, uint64_t *bar)
{
    const struct bar_table *t = vm->binding ? bars_of(vm) : NULL;
    for (uint32_t i = 0; t && i < t->count; i++) {
        const struct wk_binding_bar *b = &t->bar[i];
        if (b->kind != WK_BAR_SEGMENT || b->segment_id < 1 || b->segment_id > vm->gpu_desc.segment_count)
            continue;
        const struct wk_gpu_segment_desc *hw = &vm->gpu_desc.segments[b->segment_id - 1];
        if (r->base < hw->base || r->base - hw->base >= hw->size)
            continue;
        *hw_segment = b->segment_id;
        *bar = b->physical;
        return b->physical + (r->base - hw->base);
    }
    return 0;
}

/* Size, base, commit and CPU-visibility rules of one descriptor. */
static void check_geometry(struct wk_vidmm *vm, uint32_t id, const struct report *r)
{
    enum wk_ddi q = WK_DDI_QUERY_ADAPTER_INFO;
    if (r->size == 0 || r->size % PAGE)
        violate(vm, R_SEG_SIZE, q, "segment %u: Size 0x%llx, expected a non-zero multiple of 4096", id,
                (unsigned long long)r->size);
    if (r->base % PAGE || r->base + r->size < r->base)
        violate(vm, R_SEG_BASE, q, "segment %u: BaseAddress 0x%llx with Size 0x%llx", id,
                (unsigned long long)r->base, (unsigned long long)r->size);
    if (!r->flags.Aperture && !r->flags.Agp && r->commit != r->size)
        violate(vm, R_SEG_COMMIT_MEMORY, q, "segment %u: CommitLimit 0x%llx, expected Size 0x%llx", id,
                (unsigned long long)r->commit, (unsigned long long)r->size);
    if (r->flags.Aperture && (r->commit == 0 || r->commit > r->size))
        violate(vm, R_SEG_COMMIT_APERTURE, q, "segment %u: CommitLimit 0x%llx, expected 1..Size 0x%llx", id,
                (unsigned long long)r->commit, (unsigned long long)r->size);
    if (r->flags.CpuVisible && !r->flags.Aperture && (r->cpu == 0 || r->cpu % PAGE)) {
        violate(vm, R_SEG_CPU_VISIBLE, q, "segment %u: CpuVisible with CpuTranslatedAddress 0x%llx", id,
                (unsigned long long)r->cpu);
        return;
    }
    /* "the CPU reaches the segment linearly at CpuTranslatedAddress (an
     * offset in the segment is the same offset in the PCI BAR)", facts
     * §5.5 G6: where the hardware says which BAR shows it, that is where
     * (outsider 24's driver reported it 1 MiB off, and nothing saw it). */
    uint32_t hw = 0;
    uint64_t bar = 0, want = r->flags.CpuVisible && !r->flags.Aperture ? bar_view_of(vm, r, &hw, &bar) : 0;
    if (want && r->cpu != want)
        violate(vm, R_SEG_CPU_VISIBLE, q, "segment %u: CpuTranslatedAddress 0x%llx, but the device's BAR for that "
                "memory (segment %u of the hardware, bus address 0x%llx) shows the segment's offset 0 at 0x%llx", id,
                (unsigned long long)r->cpu, hw, (unsigned long long)bar, (unsigned long long)want);
}

/* Banks (facts §5.6 B1, B2): NbOfBanks-1 explicit ends, the last implied. */
static wk_status read_banks(struct wk_vidmm *vm, uint32_t id, const struct report *r,
                            struct segment *s)
{
    enum wk_ddi q = WK_DDI_QUERY_ADAPTER_INFO;
    if (!r->flags.UseBanking)
        return WK_OK;
    if (r->flags.Aperture || r->flags.Agp)
        return violate(vm, R_SEG_BANK_KIND, q, "segment %u: UseBanking on an aperture segment", id);
    if (r->banks < 1 || r->banks > 127 || (r->banks > 1 && !r->bank_table))
        return violate(vm, R_SEG_BANK_TABLE, q, "segment %u: UseBanking with NbOfBanks %u and table %p",
                       id, r->banks, (const void *)r->bank_table);
    SIZE_T ends[127];
    wk_status crashed;
    DDI_GUARD(vm, WK_DDI_QUERY_ADAPTER_INFO, crashed,
              guarded_copy(ends, r->bank_table, (r->banks - 1) * sizeof(SIZE_T)));
    if (crashed != WK_OK)
        return crashed;
    uint64_t prev = 0;
    for (uint32_t b = 0; b + 1 < r->banks; b++) {
        if (ends[b] <= prev || ends[b] >= r->size)
            return violate(vm, R_SEG_BANK_ORDER, q,
                           "segment %u: bank %u ends at 0x%llx, expected in (0x%llx, 0x%llx)", id,
                           b + 1, (unsigned long long)ends[b], (unsigned long long)prev,
                           (unsigned long long)r->size);
        s->bank_end[b] = ends[b];
        prev = ends[b];
    }
    s->bank_end[r->banks - 1] = r->size;
    s->banks = r->banks;
    return WK_OK;
}

static void check_overlaps(struct wk_vidmm *vm, const struct report *r, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (r[i].base < r[j].base + r[j].size && r[j].base < r[i].base + r[i].size &&
                !r[i].flags.Agp && !r[j].flags.Agp)
                violate(vm, R_SEG_OVERLAP, WK_DDI_QUERY_ADAPTER_INFO,
                        "segments %u [0x%llx, 0x%llx) and %u [0x%llx, 0x%llx) overlap", i + 1,
                        (unsigned long long)r[i].base, (unsigned long long)(r[i].base + r[i].size),
                        j + 1, (unsigned long long)r[j].base,
                        (unsigned long long)(r[j].base + r[j].size));
}

static void check_paging(struct wk_vidmm *vm)
{
    uint32_t p = vm->paging_segment;
    if (p == UNWRITTEN_SEGMENT_ID)
        violate(vm, R_SEG_PAGING_SEGMENT, WK_DDI_QUERY_ADAPTER_INFO,
                "PagingBufferSegmentId left unwritten by the segment query (the kit handed 0x%08x there): "
                "the driver names 0 or an aperture segment", UNWRITTEN_SEGMENT_ID);
    else if (p != 0 && (p > vm->nseg || !vm->seg[p].aperture))
        violate(vm, R_SEG_PAGING_SEGMENT, WK_DDI_QUERY_ADAPTER_INFO,
                "PagingBufferSegmentId %u, expected 0 or an aperture segment", p);
    if (vm->paging_buffer_size == 0)
        violate(vm, R_SEG_PAGING_SIZE, WK_DDI_QUERY_ADAPTER_INFO, "PagingBufferSize is 0");
}

static wk_status adopt(struct wk_vidmm *vm, const struct report *r, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct segment *s = &vm->seg[i + 1];
        memset(s, 0, sizeof(*s));
        s->id = i + 1;
        if (s->id > vm->seg_top)
            vm->seg_top = s->id;
        s->flags = r[i].flags;
        s->aperture = r[i].flags.Aperture;
        s->memory = !r[i].flags.Aperture && !r[i].flags.Agp;
        s->base = r[i].base;
        s->size = r[i].size;
        uint64_t before = vm->violation_total;
        check_flags(vm, s->id, &r[i]);
        check_geometry(vm, s->id, &r[i]);
        wk_status st = read_banks(vm, s->id, &r[i], s);
        if (st == WK_E_DRIVER_CRASH || st == WK_E_DRIVER_HANG)
            return st;
        int usable = vm->violation_total == before || (s->size && s->size % PAGE == 0);
        if (usable && s->size && wk_place_create(s->size, &s->heap) != WK_OK)
            return fail(vm, WK_E_NO_MEMORY, "out of memory for segment %u", s->id);
    }
    vm->nseg = n;
    return WK_OK;
}

/*
 * QUERYSEGMENT4 came with WDDM 2.0: a driver whose caps say it is an older
 * one (DXGK_DRIVERCAPS.WDDMVersion below DXGKDDI_WDDMv2) is not asked for
 * it, and a case that needs it cannot run (WK_E_NOT_SUPPORTED: the runner
 * skips it with this reason). WDDMVersion 0, which the documentation
 * allows a WIN7+ driver to leave (docs/wddm-ddi-tables.md, open question
 * 5), says nothing, and the kit asks what the case says.
 */
static wk_status version_allows(struct wk_vidmm *vm)
{
    UINT v = (UINT)vm->caps.WDDMVersion;
    if (vm->cfg.query_segment_version != 4 || v == 0 || v >= (UINT)DXGKDDI_WDDMv2)
        return WK_OK;
    return fail(vm, WK_E_NOT_SUPPORTED,
                "the driver reports WDDMVersion 0x%x (DXGK_DRIVERCAPS): QUERYSEGMENT4 is WDDM 2.0's, so the kit "
                "does not ask it", v);
}

wk_status segments_query(struct wk_vidmm *vm)
{
    struct report r[MAX_SEGMENTS];
    memset(r, 0, sizeof(r));
    uint32_t n = 0;
    uint64_t before = vm->violation_total;
    wk_status allowed = version_allows(vm);
    if (allowed != WK_OK)
        return allowed;
    wk_status st = vm->cfg.query_segment_version == 4 ? query_v4(vm, r, &n) : query_v3(vm, r, &n);
    if (st != WK_OK)
        return st;
    st = adopt(vm, r, n);
    if (st != WK_OK)
        return st;
    check_overlaps(vm, r, n);
    check_paging(vm);
    return vm->violation_total == before ? WK_OK : WK_E_CONTRACT;
}

struct segment *segment_get(struct wk_vidmm *vm, uint32_t id)
{
    return id >= 1 && id <= vm->nseg ? &vm->seg[id] : NULL;
}

uint32_t aperture_mask(const struct wk_vidmm *vm)
{
    uint32_t m = 0;
    for (uint32_t i = 1; i <= vm->nseg; i++)
        if (vm->seg[i].aperture)
            m |= 1u << (i - 1);
    return m;
}

uint32_t segment_mask(const struct wk_vidmm *vm)
{
    return vm->nseg >= 32 ? 0xFFFFFFFFu : (1u << vm->nseg) - 1;
}
