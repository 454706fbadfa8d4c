/* SPDX-License-Identifier: MIT */
/*
 * gpummu_caps.c - a GpuMmu driver's page tables, asked at start.
 *
 * A driver that sets DXGK_VIDMMCAPS.VirtualAddressingSupported and
 * GpuMmuSupported describes its GPU's MMU in two queries: DXGK_GPUMMUCAPS,
 * then one DXGK_PAGE_TABLE_LEVEL_DESC per level, level 0 the leaf
 * (docs/wddm-gpummu-facts.md 1.1, 2.1). The kit asks them right after the
 * segments (a level names segments), checks what the documentation states
 * of them, and keeps the answer as the tree the kit walks (vm->mmu): the
 * geometry of processor.h, each level's entry size the table's bytes over
 * its entries.
 *
 * A 2-level tree's root is resizable: it indexes the address bits above
 * the leaf's (VirtualAddressBitCount), and its size is what
 * DxgkDdiGetRootPageTableSize answers when a process needs one
 * (root_size.c, gpuva.c).
 *
 * What the kit cannot walk is a limit of the kit, never the driver's fault:
 * entries of a size other than 4, 8 or 16 bytes, a level of more than 20
 * address bits. The page-table cases are then skips that say so.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The bits every DXGK_GPUMMUCAPS version leaves Reserved (facts 1.3 of
 * wddm-gpummu-facts.md: 13 named bits up to WDDM 3.1), and LegacyBehaviors'
 * (bit 0 named). */
#define GPUMMU_FLAGS_RESERVED 0xFFFFE000u
#define GPUMMU_LEGACY_RESERVED 0xFFFFFFFEu
#define CPU_PAGE 4096u

static int gpummu_asked(const struct wk_vidmm *vm)
{
    DXGK_VIDMMCAPS m = vm->caps.MemoryManagementCaps;
    return adapter_wddm2(vm) && m.VirtualAddressingSupported && m.GpuMmuSupported;
}

static void unmodelled(struct wk_vidmm *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void unmodelled(struct wk_vidmm *vm, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vm->mmu.modelled = 0;
    vsnprintf(vm->mmu.why, sizeof(vm->mmu.why), fmt, ap);
    va_end(ap);
}

/* GPUMMU-CAPS-001: what wddm-gpummu-facts.md 1.2 and 1.3 state of the
 * caps. Returns whether the levels can be asked (a level count the
 * documentation allows). */
static int check_caps(struct wk_vidmm *vm, const DXGK_GPUMMUCAPS *c)
{
    int levels_ok = 1;
    if (c->PageTableLevelCount < DXGK_MIN_PAGE_TABLE_LEVEL_COUNT ||
        c->PageTableLevelCount > DXGK_MAX_PAGE_TABLE_LEVEL_COUNT) {
        violate(vm, R_GPUMMU_CAPS, WK_DDI_QUERY_ADAPTER_INFO,
                "DXGK_GPUMMUCAPS.PageTableLevelCount %u, expected %u to %u (DXGK_MIN/MAX_PAGE_TABLE_LEVEL_COUNT)",
                c->PageTableLevelCount, DXGK_MIN_PAGE_TABLE_LEVEL_COUNT, DXGK_MAX_PAGE_TABLE_LEVEL_COUNT);
        levels_ok = 0;
    }
    if (c->LeafPageTableSizeFor64KPagesInBytes % CPU_PAGE)
        violate(vm, R_GPUMMU_CAPS, WK_DDI_QUERY_ADAPTER_INFO,
                "DXGK_GPUMMUCAPS.LeafPageTableSizeFor64KPagesInBytes %u is not a multiple of 4096",
                c->LeafPageTableSizeFor64KPagesInBytes);
    if ((UINT)c->PageTableUpdateMode > (UINT)DXGK_PAGETABLEUPDATE_GPU_PHYSICAL)
        violate(vm, R_GPUMMU_CAPS, WK_DDI_QUERY_ADAPTER_INFO,
                "DXGK_GPUMMUCAPS.PageTableUpdateMode %u names no DXGK_PAGETABLEUPDATEMODE (0 CPU_VIRTUAL, "
                "1 GPU_VIRTUAL, 2 GPU_PHYSICAL)", (unsigned)c->PageTableUpdateMode);
    if (c->Value & GPUMMU_FLAGS_RESERVED)
        violate(vm, R_GPUMMU_CAPS, WK_DDI_QUERY_ADAPTER_INFO,
                "DXGK_GPUMMUCAPS reserved flag bits 0x%08x set, expected 0", c->Value & GPUMMU_FLAGS_RESERVED);
    UINT legacy;
    memcpy(&legacy, &c->LegacyBehaviors, sizeof(legacy));
    if (legacy & GPUMMU_LEGACY_RESERVED)
        violate(vm, R_GPUMMU_CAPS, WK_DDI_QUERY_ADAPTER_INFO,
                "DXGK_GPUMMUCAPS.LegacyBehaviors reserved bits 0x%08x set, expected 0",
                legacy & GPUMMU_LEGACY_RESERVED);
    return levels_ok;
}

/* A segment id of a level descriptor: 0 is system memory, 1..N the
 * driver's segments (wddm-gpummu-facts.md 2.3, "Gotcha"). */
static int level_segment_ok(const struct wk_vidmm *vm, UINT id)
{
    return id <= vm->nseg;
}

/* GPUMMU-LEVEL-001: wddm-gpummu-facts.md 2.3 and 5.2 T4 of one level. A
 * 2-level tree's root may give 0 bytes (it is resizable). */
static void check_level(struct wk_vidmm *vm, UINT index, UINT count, const DXGK_PAGE_TABLE_LEVEL_DESC *d)
{
    int resizable_root = count == 2 && index == 1;
    if (d->PageTableSizeInBytes % CPU_PAGE || (d->PageTableSizeInBytes == 0 && !resizable_root))
        violate(vm, R_GPUMMU_LEVEL, WK_DDI_QUERY_ADAPTER_INFO,
                "level %u: PageTableSizeInBytes %u is not a non-zero multiple of the 4096-byte CPU page", index,
                d->PageTableSizeInBytes);
    const UINT ids[2] = { d->PageTableSegmentId, d->PagingProcessPageTableSegmentId };
    static const char *const names[2] = { "PageTableSegmentId", "PagingProcessPageTableSegmentId" };
    for (int i = 0; i < 2; i++) {
        if (!level_segment_ok(vm, ids[i]))
            violate(vm, R_GPUMMU_LEVEL, WK_DDI_QUERY_ADAPTER_INFO,
                    "level %u: %s %u names no segment (0 is system memory, the driver reported %u)", index,
                    names[i], ids[i], vm->nseg);
        else if (ids[i] == 0 && d->PageTableSizeInBytes > CPU_PAGE)
            violate(vm, R_GPUMMU_LEVEL, WK_DDI_QUERY_ADAPTER_INFO,
                    "level %u: %s 0 puts %u-byte tables in system memory, where a table is at most 4096 bytes",
                    index, names[i], d->PageTableSizeInBytes);
    }
    if (d->PageTableIndexBitCount == 0 && !resizable_root)
        violate(vm, R_GPUMMU_LEVEL, WK_DDI_QUERY_ADAPTER_INFO,
                "level %u: PageTableIndexBitCount 0: a table of one entry indexes no address bit", index);
    /* wddm-gpummu-facts.md 1.2 (PageTableUpdateMode) and 5.6 R2: "if page tables live
     * in a local-memory segment the mode may not be CPU_VIRTUAL":
     * the CPU has no view of them to write through. */
    UINT seg = d->PageTableSegmentId;
    if (vm->mmu.caps.PageTableUpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL && seg && seg <= vm->nseg &&
        vm->seg[seg].memory)
        violate(vm, R_GPUMMU_LEVEL, WK_DDI_QUERY_ADAPTER_INFO,
                "level %u: PageTableSegmentId %u is a memory segment, where the CPU_VIRTUAL update mode the caps "
                "name may not be used (the CPU writes a table through its kernel address)", index, seg);
}

/* One level of the tree the kit walks, or 0 with vm->mmu.why. Its entry
 * size is the hardware's (hw: the GPU's tree, when the kit has it): a
 * level may hold fewer entries than its table's bytes, which are a
 * multiple of the CPU page (GPUMMU-LEVEL-001), so the size over the count
 * says nothing of an entry's width (an outsider's root of 256 four-byte
 * entries in a 4 KiB table). Without the hardware's tree the kit assumes
 * the table is all entries. */
static int model_level(struct wk_vidmm *vm, UINT index, const DXGK_PAGE_TABLE_LEVEL_DESC *d,
                       const struct wk_mmu_geometry *hw)
{
    UINT bits = d->PageTableIndexBitCount;
    if (bits == 0 || bits > 20) {
        unmodelled(vm, "level %u indexes %u address bits; the kit walks 1 to 20 a level", index, bits);
        return 0;
    }
    uint64_t entries = 1ull << bits;
    uint64_t entry = hw && index < hw->levels ? hw->level[index].entry_bytes : d->PageTableSizeInBytes / entries;
    if (!hw && (entry * entries != d->PageTableSizeInBytes || (entry != 4 && entry != 8 && entry != 16))) {
        unmodelled(vm, "level %u: %u bytes over its 2^n entries is not an entry of 4, 8 or 16 bytes, the sizes the "
                   "kit walks", index, d->PageTableSizeInBytes);
        return 0;
    }
    vm->mmu.geometry.level[index] = (struct wk_mmu_level){ bits, (uint32_t)entry };
    return 1;
}

/* The GPU's own tree: the kit's GPU's, a binding's (processor.h
 * mmu_geometry), or NULL when nothing executes the driver's buffers or
 * the binding does not say. */
static const struct wk_mmu_geometry *hardware_geometry(const struct wk_vidmm *vm)
{
    if (vm->cfg.no_model)
        return NULL;
    if (vm->binding)
        return binding_mmu_geometry(vm);
    return vm->mmu.caps.PageTableLevelCount == 2 ? wk_gpu_mmu_geometry_two_level() : wk_gpu_mmu_geometry();
}

/* The kit's GPU's entries hold an address below 2^52 (WK_GPU_PTE_ADDRESS_MASK):
 * an adapter whose memory lies above (a fuzzed description) has no tables
 * that could map it, a limit of that adapter, not the driver's doing (a
 * fuzzed segment at 2^56 drew PAGING-UPDATEPT-001). A binding's MMU says
 * what it cannot hold through its decoder (BAD_PTE). */
static int hw_reaches_memory(struct wk_vidmm *vm)
{
    if (vm->binding || vm->cfg.no_model)
        return 1;
    const uint64_t limit = (WK_GPU_PTE_ADDRESS_MASK | 0xFFFull) + 1;
    const struct wk_gpu_desc *d = wk_gpu_description(vm->gpu);
    for (uint32_t i = 0; i < d->segment_count; i++) {
        const struct wk_gpu_segment_desc *sg = &d->segments[i];
        if (sg->base >= limit || sg->size > limit - sg->base) {
            unmodelled(vm, "a limit of the adapter: segment %u lies at 0x%llx, past the 52 bits of address its GPU's "
                       "page-table entries hold", i + 1, (unsigned long long)sg->base);
            return 0;
        }
    }
    if (d->sysmem_first_pfn >= (limit >> 12) || d->sysmem_pages > (limit >> 12) - d->sysmem_first_pfn) {
        unmodelled(vm, "a limit of the adapter: its system memory from frame 0x%llx lies past the 52 bits of address "
                   "its GPU's page-table entries hold", (unsigned long long)d->sysmem_first_pfn);
        return 0;
    }
    return 1;
}

/* GPUMMU-HW-001: the levels the driver reported are its GPU's. A driver
 * that describes other tables than its hardware walks makes the kernel
 * place and size tables the GPU reads otherwise (wddm-gpummu-facts.md
 * 2.3: each descriptor is one level of the GPU's page tables). */
static int same_as_hardware(struct wk_vidmm *vm, const struct wk_mmu_geometry *hw)
{
    const struct wk_mmu_geometry *g = &vm->mmu.geometry;
    int same = g->levels == hw->levels;
    for (uint32_t l = 0; same && l < g->levels; l++) {
        if (g->levels == 2 && l == 1) { /* a resizable root: up to the GPU's bits, sized when placed */
            same = g->level[l].index_bits <= hw->level[l].index_bits;
            continue;
        }
        same = g->level[l].index_bits == hw->level[l].index_bits &&
               (uint64_t)vm->mmu.level[l].PageTableSizeInBytes >= (1ull << hw->level[l].index_bits) * hw->level[l].entry_bytes;
    }
    if (same)
        return 1;
    char want[128] = "", got[160] = "";
    size_t w = 0, r = 0;
    for (uint32_t l = 0; l < hw->levels && w < sizeof(want); l++)
        w += (size_t)snprintf(want + w, sizeof(want) - w, "%s%u x %u B", l ? ", " : "", 1u << hw->level[l].index_bits,
                              hw->level[l].entry_bytes);
    for (uint32_t l = 0; l < g->levels && r < sizeof(got); l++)
        r += g->levels == 2 && l == 1
                 ? (size_t)snprintf(got + r, sizeof(got) - r, ", a root of up to %u entries (VirtualAddressBitCount %u)",
                                    1u << g->level[l].index_bits, vm->mmu.caps.VirtualAddressBitCount)
                 : (size_t)snprintf(got + r, sizeof(got) - r, "%s%u entries in %u B", l ? ", " : "",
                                    1u << g->level[l].index_bits, vm->mmu.level[l].PageTableSizeInBytes);
    violate(vm, R_GPUMMU_HW, WK_DDI_QUERY_ADAPTER_INFO,
            "the driver reports %u page-table levels (leaf first: %s) where its GPU walks %u (%s entries)", g->levels,
            got, hw->levels, want);
    return 0;
}

/* The root of a 2-level tree indexes the address bits above the leaf's
 * ("in 2-level mode the root index bits are whatever lies above the leaf
 * index bits", wddm-gpummu-facts.md 5.3 A4); its size is not the
 * descriptor's but the driver's answer for the entries a process needs
 * (root_size.c). Its entries are the hardware's width; without a GPU the
 * kit takes the leaf's (no GPU walks the tables then). */
static int model_resizable_root(struct wk_vidmm *vm, const struct wk_mmu_geometry *hw)
{
    uint32_t below = vm->mmu.geometry.page_shift + vm->mmu.geometry.level[0].index_bits;
    UINT va_bits = vm->mmu.caps.VirtualAddressBitCount;
    if (va_bits <= below || va_bits - below > 20) {
        unmodelled(vm, "a 2-level tree of %u address bits: its root indexes the bits above the leaf's %u, and the "
                   "kit walks 1 to 20 a level", va_bits, below);
        return 0;
    }
    uint32_t entry = hw && hw->levels == 2 ? hw->level[1].entry_bytes : vm->mmu.geometry.level[0].entry_bytes;
    vm->mmu.geometry.level[1] = (struct wk_mmu_level){ va_bits - below, entry };
    return 1;
}

/* The tree from the answers, when the kit can walk it. */
static void model_geometry(struct wk_vidmm *vm)
{
    const DXGK_GPUMMUCAPS *c = &vm->mmu.caps;
    UINT n = c->PageTableLevelCount;
    const struct wk_mmu_geometry *hw = hardware_geometry(vm);
    memset(&vm->mmu.geometry, 0, sizeof(vm->mmu.geometry));
    vm->mmu.geometry.levels = n;
    vm->mmu.geometry.page_shift = 12; /* every leaf entry covers 4 KiB (wddm-gpummu-facts.md 2.3) */
    for (UINT l = 0; l < n; l++) {
        int ok = n == 2 && l == 1 ? model_resizable_root(vm, hw) : model_level(vm, l, &vm->mmu.level[l], hw);
        if (!ok)
            return;
    }
    if (hw && !same_as_hardware(vm, hw)) {
        snprintf(vm->mmu.why, sizeof(vm->mmu.why), "the levels the driver reports are not its GPU's (GPUMMU-HW-001)");
        return;
    }
    if (!hw_reaches_memory(vm))
        return;
    char why[160];
    if (wk_mmu_check_geometry(&vm->mmu.geometry, why, sizeof(why)) != WK_OK) {
        snprintf(vm->mmu.why, sizeof(vm->mmu.why), "the kit cannot walk the levels: %s", why);
        return;
    }
    uint32_t bits = wk_mmu_va_bits(&vm->mmu.geometry);
    if (bits > c->VirtualAddressBitCount) {
        unmodelled(vm, "the levels index %u address bits, more than VirtualAddressBitCount %u: the kit does not "
                   "guess which it ignores", bits, c->VirtualAddressBitCount);
        return;
    }
    vm->mmu.modelled = 1;
}

static wk_status ask_caps(struct wk_vidmm *vm, NTSTATUS *st)
{
    DXGK_QUERYGPUMMUCAPSIN in = { 0 }; /* physical adapter 0: the kit links none */
    memset(&vm->mmu.caps, 0, sizeof(vm->mmu.caps));
    return query_adapter_info(vm, DXGKQAITYPE_GPUMMUCAPS, &in, sizeof(in),
                              "DXGK_QUERYGPUMMUCAPSIN input (pInputData)", &vm->mmu.caps, sizeof(vm->mmu.caps),
                              "DXGK_GPUMMUCAPS output (pOutputData)", st);
}

static wk_status ask_level(struct wk_vidmm *vm, UINT index, NTSTATUS *st)
{
    DXGK_QUERYPAGETABLELEVELDESCIN in = { (USHORT)index, 0 };
    memset(&vm->mmu.level[index], 0, sizeof(vm->mmu.level[index]));
    return query_adapter_info(vm, DXGKQAITYPE_PAGETABLELEVELDESC, &in, sizeof(in),
                              "DXGK_QUERYPAGETABLELEVELDESCIN input (pInputData)", &vm->mmu.level[index],
                              sizeof(vm->mmu.level[index]), "DXGK_PAGE_TABLE_LEVEL_DESC output (pOutputData)", st);
}

wk_status gpummu_query(struct wk_vidmm *vm)
{
    memset(&vm->mmu, 0, sizeof(vm->mmu));
    if (!gpummu_asked(vm))
        return WK_OK;
    vm->mmu.asked = 1;
    snprintf(vm->mmu.why, sizeof(vm->mmu.why), "the driver's answers are wrong (GPUMMU-QUERY-001, -CAPS-001, "
             "-LEVEL-001, -ROOTSIZE-001)");
    NTSTATUS st;
    vm->mmu.queries++;
    wk_status call = ask_caps(vm, &st);
    if (call != WK_OK)
        return call;
    if (st != STATUS_SUCCESS)
        return violate(vm, R_GPUMMU_QUERY, WK_DDI_QUERY_ADAPTER_INFO,
                       "GPUMMUCAPS returned 0x%08x from a driver that sets GpuMmuSupported, expected STATUS_SUCCESS",
                       (unsigned)st);
    uint64_t before = vm->violation_total;
    if (!check_caps(vm, &vm->mmu.caps))
        return WK_E_CONTRACT;
    for (UINT l = 0; l < vm->mmu.caps.PageTableLevelCount; l++) {
        vm->mmu.queries++;
        call = ask_level(vm, l, &st);
        if (call != WK_OK)
            return call;
        if (st != STATUS_SUCCESS)
            return violate(vm, R_GPUMMU_QUERY, WK_DDI_QUERY_ADAPTER_INFO,
                           "PAGETABLELEVELDESC of level %u (of %u) returned 0x%08x, expected STATUS_SUCCESS", l,
                           vm->mmu.caps.PageTableLevelCount, (unsigned)st);
        check_level(vm, l, vm->mmu.caps.PageTableLevelCount, &vm->mmu.level[l]);
    }
    if (vm->mmu.caps.PageTableLevelCount == 2)
        (void)gpuva_root_size_present(vm); /* the DDI that sizes such a tree's root */
    if (vm->violation_total != before)
        return WK_E_CONTRACT;
    vm->mmu.answered = 1;
    model_geometry(vm);
    return WK_OK;
}

void wk_vidmm_gpummu(const struct wk_vidmm *vm, struct wk_vidmm_gpummu_info *out)
{
    memset(out, 0, sizeof(*out));
    out->asked = vm->mmu.asked;
    out->answered = vm->mmu.answered;
    out->modelled = vm->mmu.modelled;
    out->queries = vm->mmu.queries;
    out->caps = vm->mmu.caps;
    memcpy(out->level, vm->mmu.level, sizeof(out->level));
    out->geometry = vm->mmu.geometry;
    snprintf(out->why, sizeof(out->why), "%s", vm->mmu.modelled ? "" : vm->mmu.why);
}
