/* SPDX-License-Identifier: MIT */
/*
 * gpuva.c - GPU virtual address spaces of a GpuMmu driver: the page
 * tables the memory manager owns, written by the driver.
 *
 * In the GpuMmu model the kernel's memory manager owns every process's GPU
 * address space: it places the page tables (in the segments the levels
 * name), and asks the driver to write their entries, in the hardware's
 * format, from the generic DXGK_PTE it gives: UPDATE_PAGE_TABLE; it asks
 * for FLUSH_TLB where a translation the GPU may cache changes
 * (docs/wddm-gpummu-facts.md 4.2, 4.3, 5.2; the step-by-step table's
 * steps 3 to 7). The kit does the same, and judges each answer by the
 * hardware's own reading, after the paging buffer ran:
 *   - PAGING-UPDATEPT-001: every entry the operation names reads, through
 *     the GPU's entry reader, as the DXGK_PTE given (valid or not, the page
 *     or table it points at, read-only);
 *   - PAGING-FLUSHTLB-001: after FLUSH_TLB the GPU holds no translation of
 *     the range it named (the kit's GPU counts its flushes of the space).
 *
 * An address space here: CreateProcess (when the driver has it) for the
 * driver's hKmdProcess, a root table placed and made all invalid. Mapping
 * a range of an allocation places the lower tables it needs (each made
 * invalid, then linked into its parent) and writes the leaf entries;
 * unmapping writes them invalid and flushes the range.
 *
 * Whose reading: the kit's GPU's (wk_gpu_mmu_decode), or a hardware
 * binding's (processor.h mmu_decode; a binding without one: the cases are
 * skips). Tables go in a memory segment or in system memory (a page each);
 * updates come in the driver's mode: GPU_PHYSICAL, CPU_VIRTUAL (through a
 * CPU view of the table) or GPU_VIRTUAL (at the table's address in the
 * paging process: update_through_window). A limit of the kit, said and
 * never blamed: tables in an aperture. A mapping follows its allocation
 * (gpuva_follow, gpuva_forget: residency.c calls them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TABLE_NONE 0u

struct gpuva *va_state(struct wk_vidmm *vm)
{
    if (!vm->va)
        vm->va = calloc(1, sizeof(*vm->va));
    return vm->va;
}

static uint32_t levels(const struct wk_vidmm *vm)
{
    return vm->mmu.geometry.levels;
}

/* A two-level tree's root is resizable: the driver sizes it
 * (DxgkDdiGetRootPageTableSize, root_size.c) and the kit grows it as the
 * process maps higher (docs/wddm-gpummu-facts.md 2.2, 5.2 T3). */
static int root_resizable(const struct wk_vidmm *vm)
{
    return levels(vm) == 2;
}

/* What stops the kit from driving this adapter's address spaces: NULL, or
 * the reason (a limit of the kit, or a driver that is not GpuMmu). */
static const char *gpuva_unavailable(const struct wk_vidmm *vm)
{
    if (!vm->mmu.asked)
        return "the driver is not a GpuMmu driver (DXGK_VIDMMCAPS VirtualAddressingSupported, GpuMmuSupported)";
    if (!vm->mmu.answered)
        return "the driver's GpuMmu answers broke the rules (GPUMMU-*)";
    if (!vm->mmu.modelled)
        return vm->mmu.why;
    if (vm->cfg.no_model)
        return "nothing executes the driver's buffers (--gpu none): no GPU reads its page tables";
    if (vm->binding && !binding_mmu_geometry(vm))
        return "the hardware binding says nothing of its GPU's MMU (wk_processor_ops.mmu_geometry and mmu_decode, "
               "processor.h): no GPU reads the driver's page tables";
    if (vm->mmu.caps.PageTableUpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL && binding_executes(vm) &&
        !binding_has_registers(vm))
        return "a limit of the kit: the GPU_VIRTUAL update mode runs every update in the paging process, and a "
               "binding without a register model leaves the kit to choose where each buffer runs";
    for (uint32_t l = 0; l < levels(vm); l++) {
        const DXGK_PAGE_TABLE_LEVEL_DESC *d = &vm->mmu.level[l];
        const uint32_t ids[2] = { d->PageTableSegmentId, d->PagingProcessPageTableSegmentId };
        for (int i = 0; i < 2; i++)
            if (ids[i] && (ids[i] > vm->nseg || !vm->seg[ids[i]].memory))
                return "a limit of the kit: it places page tables in a memory segment or in system memory only (a "
                       "level names an aperture)";
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Tables                                                               */
/* ------------------------------------------------------------------ */

/* Where a table's segment starts on the GPU: a driver segment's base, or
 * 0 for system memory, where a table's offset is its page's address
 * (D3DGPU_PHYSICAL_ADDRESS with SegmentId 0 read as a DXGK_PTE's Segment 0
 * is: "for Segment 0, a system physical address", wddm-gpummu-facts.md 6;
 * that the kernel numbers a system-memory table this way is inferred). */
static uint64_t table_base(const struct wk_vidmm *vm, const struct va_table *t)
{
    return t->segment ? vm->seg[t->segment].base : 0;
}

static uint64_t table_gpu_address(const struct wk_vidmm *vm, const struct va_table *t)
{
    return table_base(vm, t) + t->offset;
}

/* The table's pages as a mapping takes them. */
static struct va_pages table_pages(const struct va_table *t)
{
    return t->segment ? (struct va_pages){ t->segment, t->offset, NULL } : (struct va_pages){ 0, 0, &t->pfn };
}

/* The hardware's reading of one entry: the binding's, or the kit's GPU's. */
static wk_mmu_decode_fn *hw_decode(struct wk_vidmm *vm, void **self)
{
    *self = vm->binding ? (void *)vm : NULL;
    return vm->binding ? binding_mmu_decode : wk_gpu_mmu_decode;
}

static uint32_t entry_bytes(const struct wk_vidmm *vm, uint32_t level)
{
    return vm->mmu.geometry.level[level].entry_bytes;
}

/* The VA bit where a level's index starts. */
static uint32_t level_shift(const struct wk_vidmm *vm, uint32_t level)
{
    uint32_t shift = vm->mmu.geometry.page_shift;
    for (uint32_t l = 0; l < level; l++)
        shift += vm->mmu.geometry.level[l].index_bits;
    return shift;
}

static uint64_t level_index(const struct wk_vidmm *vm, uint32_t level, uint64_t va)
{
    return (va >> level_shift(vm, level)) & ((1ull << vm->mmu.geometry.level[level].index_bits) - 1);
}

/* A fresh table holds whatever its memory held: the kernel makes every
 * entry invalid before use (docs/wddm-gpummu-facts.md 4.7, "New page
 * table"). Zeroed memory reads as invalid entries on most GPUs, so a
 * driver that wrote one entry of a Repeat, or none, would pass on it: the
 * kit fills a new table with 0xA5 bytes first, as memory last used for
 * something else holds, and the check after the update then sees every
 * entry the driver left. */
static void table_poison(struct wk_vidmm *vm, const struct va_table *t)
{
    uint8_t junk[WK_GPU_PAGE_SIZE];
    memset(junk, 0xA5, sizeof(junk));
    for (uint64_t off = 0; off < t->bytes; off += sizeof(junk)) {
        uint64_t n = t->bytes - off < sizeof(junk) ? t->bytes - off : sizeof(junk);
        (void)wk_gpu_write(vm->gpu, table_gpu_address(vm, t) + off, junk, n);
    }
}

/* The segment a table of `level` goes in: the paging process's own
 * tables where the level says they go (PagingProcessPageTableSegmentId,
 * docs/wddm-gpummu-facts.md 5.2 T2). */
static uint32_t table_segment(const struct wk_vidmm *vm, uint32_t space, uint32_t level)
{
    const DXGK_PAGE_TABLE_LEVEL_DESC *d = &vm->mmu.level[level];
    return space == GPUVA_PAGING_SPACE ? d->PagingProcessPageTableSegmentId : d->PageTableSegmentId;
}

/* A table in system memory (PageTableSegmentId 0): one page of the kit's
 * system memory, as an integrated GPU keeps its tables; "a table in system
 * memory may be at most 4 KB" (wddm-gpummu-facts.md 5.2 T4: GPUMMU-LEVEL-001
 * holds a level to it, and a two-level root the driver sizes past it is the
 * kit's limit). */
static uint32_t table_place_system(struct wk_vidmm *vm, uint32_t space, uint32_t level, uint64_t bytes,
                                   uint32_t entries, uint32_t id, wk_status *st)
{
    if (bytes > WK_GPU_PAGE_SIZE) {
        *st = fail(vm, WK_E_NOT_SUPPORTED, "a limit of the kit: a %llu-byte page table of level %u in system "
                   "memory, where it places tables of one 4 KiB page", (unsigned long long)bytes, level);
        return TABLE_NONE;
    }
    uint64_t pfn = 0;
    if (sysmem_pages_alloc(vm, 1, 1, &pfn) != WK_OK) {
        *st = fail(vm, WK_E_NO_SPACE, "no system page left for a page table of level %u", level);
        return TABLE_NONE;
    }
    vm->va->table[id] = (struct va_table){ .live = 1, .space = space, .level = level, .segment = 0,
                                           .offset = pfn << WK_GPU_PAGE_SHIFT, .pfn = pfn, .bytes = bytes,
                                           .entries = entries, .parent = TABLE_NONE };
    vm->va->table_events++;
    table_poison(vm, &vm->va->table[id]);
    return id;
}

/* A table of `level`, `bytes` long and walked over `entries`, placed in
 * its segment, top down (away from the allocations, which the kit places
 * bottom up): its id, or TABLE_NONE with WK_E_NO_SPACE in *st. */
static uint32_t table_place_sized(struct wk_vidmm *vm, uint32_t space, uint32_t level, uint64_t bytes,
                                  uint32_t entries, wk_status *st)
{
    struct gpuva *g = vm->va;
    uint32_t id = TABLE_NONE;
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES && id == TABLE_NONE; i++)
        if (!g->table[i].live)
            id = i;
    if (id == TABLE_NONE) {
        *st = fail(vm, WK_E_LIMIT, "a limit of the kit: more than %u page tables", GPUVA_MAX_TABLES - 1);
        return TABLE_NONE;
    }
    uint32_t segment = table_segment(vm, space, level);
    if (segment == 0)
        return table_place_system(vm, space, level, bytes, entries, id, st);
    const DXGK_PAGE_TABLE_LEVEL_DESC *d = &vm->mmu.level[level];
    struct segment *s = &vm->seg[segment];
    if (bytes > s->size) { /* a two-level root for high addresses: the adapter's size, not the case's use */
        *st = fail(vm, WK_E_NOT_SUPPORTED, "a limit of the adapter: a %llu-byte page table of level %u (%u entries) "
                   "is larger than segment %u (%llu bytes)", (unsigned long long)bytes, level, entries, s->id,
                   (unsigned long long)s->size);
        return TABLE_NONE;
    }
    uint64_t align = d->PageTableAlignmentInBytes ? d->PageTableAlignmentInBytes : WK_GPU_PAGE_SIZE;
    struct wk_place_request req = { bytes, align, 0, 0, 1 };
    uint64_t offset;
    if ((align & (align - 1)) != 0 || wk_place_alloc(s->heap, &req, &offset) != WK_OK) {
        *st = fail(vm, WK_E_NO_SPACE, "no room for a %llu-byte page table of level %u in segment %u",
                   (unsigned long long)bytes, level, s->id);
        return TABLE_NONE;
    }
    g->table[id] = (struct va_table){ .live = 1, .space = space, .level = level, .segment = s->id, .offset = offset,
                                      .bytes = bytes, .entries = entries, .parent = TABLE_NONE };
    g->table_events++;
    table_poison(vm, &g->table[id]);
    return id;
}

/* A table of a level whose tables have a fixed size. */
static uint32_t table_place(struct wk_vidmm *vm, uint32_t space, uint32_t level, wk_status *st)
{
    return table_place_sized(vm, space, level, vm->mmu.level[level].PageTableSizeInBytes,
                             1u << vm->mmu.geometry.level[level].index_bits, st);
}

/* Root entries the geometry's address bits allow: a sized root's ceiling. */
static uint32_t root_entries_max(const struct wk_vidmm *vm)
{
    return 1u << vm->mmu.geometry.level[levels(vm) - 1].index_bits;
}

/* A root of at least `need` entries: of a fixed size, or, for a two-level
 * tree, of the size the driver gives (GPUMMU-ROOTSIZE-001), walked over
 * the entries it says the size holds, up to what the address bits index. */
static uint32_t root_place(struct wk_vidmm *vm, uint32_t space, uint32_t need, wk_status *st)
{
    uint32_t level = levels(vm) - 1;
    if (!root_resizable(vm))
        return table_place(vm, space, level, st);
    uint64_t bytes;
    uint32_t entries;
    *st = gpuva_root_size(vm, table_segment(vm, space, level), need, entry_bytes(vm, level), &bytes, &entries);
    if (*st != WK_OK)
        return TABLE_NONE;
    return table_place_sized(vm, space, level, bytes, entries < root_entries_max(vm) ? entries : root_entries_max(vm),
                             st);
}

/* The entries the kit asks of a new process's root: the root level's own
 * count, an initial one for a resizable root ("give an initial count, may
 * be 0", docs/wddm-gpummu-facts.md 2.3), at least one. */
static uint32_t root_first_need(const struct wk_vidmm *vm)
{
    UINT bits = vm->mmu.level[levels(vm) - 1].PageTableIndexBitCount;
    uint32_t need = bits < 31 ? 1u << bits : 1u;
    return need < root_entries_max(vm) ? need : root_entries_max(vm);
}

uint64_t gpuva_table_events(const struct wk_vidmm *vm)
{
    return vm->va ? vm->va->table_events : 0;
}

static void table_free(struct wk_vidmm *vm, uint32_t id)
{
    struct va_table *t = &vm->va->table[id];
    if (!t->live)
        return;
    vm->va->table_events++;
    if (t->segment)
        wk_place_free(vm->seg[t->segment].heap, t->offset);
    else
        sysmem_pages_free(vm, &t->pfn, 1);
    memset(t, 0, sizeof(*t));
}

/* The table below `parent` at entry `index`, TABLE_NONE when none yet. */
static uint32_t table_child(const struct wk_vidmm *vm, uint32_t parent, uint32_t index)
{
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES; i++) {
        const struct va_table *t = &vm->va->table[i];
        if (t->live && t->parent == parent && t->parent_index == index)
            return i;
    }
    return TABLE_NONE;
}

/* ------------------------------------------------------------------ */
/* UPDATE_PAGE_TABLE and its check                                      */
/* ------------------------------------------------------------------ */

/* One update: `count` entries of table `table` from `start`, each entries[i]
 * (or entries[0] for all of them, repeat). */
struct update {
    uint32_t table;
    uint32_t start, count;
    const DXGK_PTE *entries;
    int repeat, initial;
    const struct allocation *alloc; /* the allocation the leaf entries map, or NULL */
    uint64_t alloc_offset;
    uint64_t first_va;
};

/* The GPU address a DXGK_PTE names: segment-relative for a driver segment,
 * a system page for segment 0 (docs/wddm-gpummu-facts.md 6). */
static uint64_t pte_address(const struct wk_vidmm *vm, const DXGK_PTE *p)
{
    uint64_t off = (uint64_t)p->PageAddress << WK_GPU_PAGE_SHIFT;
    return p->Segment ? vm->seg[p->Segment].base + off : off;
}

static const char *entry_text(char *buf, size_t size, uint32_t valid, uint64_t address, uint32_t read_only)
{
    if (!valid)
        snprintf(buf, size, "not valid");
    else
        snprintf(buf, size, "valid, 0x%llx%s", (unsigned long long)address, read_only ? ", read-only" : "");
    return buf;
}

/* PAGING-UPDATEPT-001: each entry written reads, as the GPU reads it, as
 * the DXGK_PTE given. */
static wk_status check_entries(struct wk_vidmm *vm, const struct update *u)
{
    const struct va_table *t = &vm->va->table[u->table];
    uint32_t eb = entry_bytes(vm, t->level);
    for (uint32_t i = 0; i < u->count; i++) {
        const DXGK_PTE *p = &u->entries[u->repeat ? 0 : i];
        uint8_t raw[16];
        uint64_t at = table_gpu_address(vm, t) + (uint64_t)(u->start + i) * eb;
        struct wk_mmu_entry got;
        void *self;
        wk_mmu_decode_fn *decode = hw_decode(vm, &self);
        int readable = wk_gpu_read(vm->gpu, at, raw, eb) == WK_OK && decode(self, t->level, raw, eb, &got) == 0;
        uint32_t want_ro = t->level == 0 && p->ReadOnly;
        if (readable && got.valid == p->Valid &&
            (!p->Valid || (got.address == pte_address(vm, p) && (t->level != 0 || got.read_only == want_ro))))
            continue;
        char want_s[64], got_s[160], hex[40];
        size_t h = 0;
        for (uint32_t b = eb; b-- > 0 && h + 3 < sizeof(hex);) /* the entry's bytes, most significant first */
            h += (size_t)snprintf(hex + h, sizeof(hex) - h, "%02x", raw[b]);
        if (!readable)
            snprintf(got_s, sizeof(got_s), "as nothing the GPU can read (0x%s: a reserved bit set, or an address "
                     "it cannot hold)", hex);
        return violate(vm, R_PAGING_UPDATEPT, WK_DDI_BUILD_PAGING_BUFFER,
                       "UPDATE_PAGE_TABLE of level %u (%u entries from %u, table at 0x%llx): entry %u reads %s, "
                       "where its DXGK_PTE says %s", t->level, u->count, u->start,
                       (unsigned long long)table_gpu_address(vm, t), u->start + i,
                       readable ? entry_text(got_s, sizeof(got_s), got.valid, got.address, got.read_only) : got_s,
                       entry_text(want_s, sizeof(want_s), (uint32_t)p->Valid, pte_address(vm, p), want_ro));
    }
    return WK_OK;
}

/* What an update may not touch: the table's other entries and 64 bytes
 * either side of it (in its segment), as they were before the update. */
struct around {
    uint64_t lo, len;                       /* GPU address and bytes of the snapshot */
    uint64_t keep_lo, keep_hi;              /* the entries the update names: [keep_lo, keep_hi) */
    uint8_t *bytes;
};

static void around_take(struct wk_vidmm *vm, const struct update *u, struct around *w)
{
    const struct va_table *t = &vm->va->table[u->table];
    /* An update held for a later buffer (update_held) is judged after other
     * operations of that buffer ran, which may write next to the table: the
     * table alone is watched then; and a table in system memory alone too
     * (the pages around it are anyone's). */
    uint64_t margin = vm->va->hold || !t->segment ? 0 : 64, base = table_gpu_address(vm, t);
    uint64_t seg_size = t->segment ? vm->seg[t->segment].size : t->offset + t->bytes;
    uint64_t lo = t->offset >= margin ? base - margin : table_base(vm, t);
    uint64_t hi = base + t->bytes + (seg_size - t->offset - t->bytes >= margin ? margin : 0);
    uint32_t eb = entry_bytes(vm, t->level);
    uint64_t keep_lo = base + (uint64_t)u->start * eb, keep_hi = base + (uint64_t)(u->start + u->count) * eb;
    /* A table as large as a driver may say (its size is its answer) is
     * watched 32 KiB either side of the update, not whole. */
    const uint64_t window = 32u << 10;
    lo = keep_lo - lo > window ? keep_lo - window : lo;
    hi = hi - keep_hi > window ? keep_hi + window : hi;
    *w = (struct around){ lo, hi - lo, keep_lo, keep_hi, malloc(hi - lo) };
    if (w->bytes && wk_gpu_read(vm->gpu, lo, w->bytes, w->len) != WK_OK) {
        free(w->bytes);
        w->bytes = NULL;
    }
}

/* An entry's bytes, most significant first, as hex. */
static void entry_hex(const uint8_t *e, uint32_t bytes, char *out, size_t size)
{
    size_t h = 0;
    out[0] = '\0';
    for (uint32_t b = bytes; b-- > 0 && h + 3 < size;)
        h += (size_t)snprintf(out + h, size - h, "%02x", e[b]);
}

/* PAGING-CONFINE-001 (facts §5.1 P2: an operation changes nothing
 * outside its destination): the update wrote only its own entries. */
static wk_status around_check(struct wk_vidmm *vm, const struct update *u, struct around *w)
{
    wk_status st = WK_OK;
    uint8_t *now = w->bytes ? malloc(w->len) : NULL;
    if (now && wk_gpu_read(vm->gpu, w->lo, now, w->len) == WK_OK) {
        for (uint64_t i = 0; i < w->len; i++) {
            uint64_t at = w->lo + i;
            if ((at >= w->keep_lo && at < w->keep_hi) || now[i] == w->bytes[i])
                continue;
            const struct va_table *t = &vm->va->table[u->table];
            uint64_t base = table_gpu_address(vm, t);
            uint32_t eb = entry_bytes(vm, t->level);
            char where[96];
            uint64_t e0 = at >= base ? base + (at - base) / eb * eb : 0;
            if (at >= base && at < base + t->bytes && e0 >= w->lo && e0 + eb <= w->lo + w->len) {
                char now_hex[40], was_hex[40]; /* the whole entry, as the GPU reads it (outsider 22) */
                entry_hex(now + (e0 - w->lo), eb, now_hex, sizeof(now_hex));
                entry_hex(w->bytes + (e0 - w->lo), eb, was_hex, sizeof(was_hex));
                st = violate(vm, R_PAGING_CONFINE, WK_DDI_BUILD_PAGING_BUFFER,
                             "UPDATE_PAGE_TABLE of level %u (%u entries from %u, table at 0x%llx) changed entry %llu "
                             "of the table (0x%s, was 0x%s), outside the entries it was asked to write", t->level,
                             u->count, u->start, (unsigned long long)base, (unsigned long long)((at - base) / eb),
                             now_hex, was_hex);
                break;
            }
            if (at >= base && at < base + t->bytes)
                snprintf(where, sizeof(where), "entry %llu of the table", (unsigned long long)((at - base) / eb));
            else
                snprintf(where, sizeof(where), "byte 0x%llx %s the table", (unsigned long long)at,
                         at < base ? "before" : "after");
            st = violate(vm, R_PAGING_CONFINE, WK_DDI_BUILD_PAGING_BUFFER,
                         "UPDATE_PAGE_TABLE of level %u (%u entries from %u, table at 0x%llx) changed %s "
                         "(0x%02x, was 0x%02x), outside the entries it was asked to write", t->level, u->count,
                         u->start, (unsigned long long)base, where, now[i], w->bytes[i]);
            break;
        }
    }
    free(now);
    free(w->bytes);
    w->bytes = NULL;
    return st;
}

/*
 * The paging process's tables are set up "via UpdatePageTable paging
 * operation. For these operations, the PageTableUpdateMode is forced to
 * CPU_VIRTUAL and must be done immediately using the CPU (paging buffer
 * should not be used)" (System paging process; docs/wddm-gpummu-facts.md
 * 4.2, step 2). The driver gets the table through a CPU view of it: a
 * guarded copy of the table's bytes, written back where the table is once
 * the call returned, as a mapping of the memory would have written them.
 * The entries are then judged as any update's (check_entries), with
 * nothing submitted: an update put off to a paging buffer, which has none
 * here, shows as entries not written.
 */
static wk_status cpu_view_open(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a, const struct va_table *t,
                               struct gbuf *view)
{
    uint64_t at = table_gpu_address(vm, t);
    wk_status st = gbuf_alloc(vm, view, t->bytes, "page table's CPU view (UpdatePageTable.PageTableAddress.CpuVirtual)");
    if (st != WK_OK)
        return st;
    if (wk_gpu_read(vm->gpu, at, view->ptr, t->bytes) != WK_OK) {
        gbuf_free(vm, view);
        return fail(vm, WK_E_LIMIT, "a limit of the kit: the page table at 0x%llx cannot be read for a CPU view",
                    (unsigned long long)at);
    }
    a->UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_CPU_VIRTUAL;
    a->UpdatePageTable.PageTableAddress.CpuVirtual = view->ptr;
    return WK_OK;
}

/* What the driver wrote through the view reaches the table (st: the
 * call's result; nothing is written back after a failure). */
static wk_status cpu_view_close(struct wk_vidmm *vm, const struct va_table *t, struct gbuf *view, wk_status st)
{
    uint64_t at = table_gpu_address(vm, t);
    if (st == WK_OK && wk_gpu_write(vm->gpu, at, view->ptr, t->bytes) != WK_OK)
        st = fail(vm, WK_E_LIMIT, "a limit of the kit: the page table at 0x%llx cannot be written back",
                  (unsigned long long)at);
    gbuf_free(vm, view);
    return st;
}

static wk_status update_by_cpu(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a, const struct va_table *t)
{
    struct gbuf view;
    wk_status st = cpu_view_open(vm, a, t, &view);
    return st != WK_OK ? st : cpu_view_close(vm, t, &view, paging_run_cpu(vm, a));
}

/*
 * A driver whose PageTableUpdateMode is CPU_VIRTUAL gets every other
 * update that way too ("All other processes' page table entries updates
 * are done using the driver-specified PageTableUpdateMode", System paging
 * process), in a paging buffer as any operation: the table through the
 * same CPU view, which the CPU writes when the driver does, so the view is
 * written back once the call returned, before the buffer runs (a driver
 * that waits for the buffer to write the entries leaves them unwritten:
 * PAGING-UPDATEPT-001). Only a table in system memory has such a view (a
 * table in a memory segment may not be CPU_VIRTUAL, GPUMMU-LEVEL-001).
 */
static wk_status update_by_cpu_in_buffer(struct wk_vidmm *vm, DXGKARG_BUILDPAGINGBUFFER *a, const struct va_table *t,
                                         int held)
{
    struct gbuf view;
    wk_status st = cpu_view_open(vm, a, t, &view);
    if (st != WK_OK)
        return st;
    return cpu_view_close(vm, t, &view, held ? paging_run_held(vm, a) : paging_run(vm, a, NULL));
}

static wk_status update_held(struct wk_vidmm *vm, const struct update *u, struct around *w);
static wk_status update_run(struct wk_vidmm *vm, uint32_t space, const struct update *u);

/* GPU_VIRTUAL: the table's address in the paging process, where "every
 * paging operation runs in the system context's GPU VA space"
 * (wddm-gpummu-facts.md 1.2): a paging-process table's mirror, or the
 * scratch window another process's table is mapped in for its update. */
static int table_virtual(const struct wk_vidmm *vm, uint32_t table, uint64_t *va)
{
    const struct va_table *t = &vm->va->table[table];
    if (t->mirror)
        *va = t->mirror;
    else if (vm->va->window_table == table)
        *va = vm->va->window_va;
    return t->mirror || vm->va->window_table == table;
}

/*
 * A GPU_VIRTUAL update of a table of another process: "All other
 * processes' page table entries updates are done using the driver-specified
 * PageTableUpdateMode ... in the context of the paging process" (System
 * paging process): the kit maps the table in the paging process's second
 * scratch window (an update of the scratch area's leaf table, at its
 * mirror), asks the update at that address in the same paging buffer, and
 * unmaps the window once both ran and were judged. How the kernel maps the
 * table there is not documented; that it is mapped is the mode's meaning.
 */
static wk_status update_through_window(struct wk_vidmm *vm, uint32_t space, const struct update *u)
{
    if (vm->va->hold)
        return fail(vm, WK_E_LIMIT, "a limit of the kit: a GPU_VIRTUAL update of another process's table while the "
                    "paging process's scratch area holds an operation's pages");
    const struct va_table *t = &vm->va->table[u->table];
    struct va_pages pages = table_pages(t);
    uint64_t bytes = (t->bytes + WK_GPU_PAGE_SIZE - 1) & ~(uint64_t)(WK_GPU_PAGE_SIZE - 1), va = 0;
    wk_status st = paging_table_window(vm, &pages, bytes, &va);
    if (st != WK_OK)
        return st;
    vm->va->window_table = u->table;
    vm->va->window_va = va;
    st = update_run(vm, space, u); /* held: the window's map comes first in the buffer */
    vm->va->window_table = TABLE_NONE;
    return paging_table_window_done(vm, bytes, st);
}

static wk_status update_run(struct wk_vidmm *vm, uint32_t space, const struct update *u)
{
    const struct va_table *t = &vm->va->table[u->table];
    uint64_t gpu_va = 0;
    int gpu_virtual = vm->mmu.caps.PageTableUpdateMode == DXGK_PAGETABLEUPDATE_GPU_VIRTUAL && !vm->va->cpu_updates;
    if (gpu_virtual && !table_virtual(vm, u->table, &gpu_va)) {
        if (space == GPUVA_PAGING_SPACE)
            return fail(vm, WK_E_LIMIT, "a limit of the kit: a table of the paging process outside its scratch "
                        "area's mirror, updated in the GPU_VIRTUAL mode");
        return update_through_window(vm, space, u);
    }
    uint32_t n = u->repeat ? 1 : u->count;
    struct gbuf entries;
    wk_status st = gbuf_alloc_input(vm, &entries, u->entries, (uint64_t)n * sizeof(DXGK_PTE),
                                    "DXGK_PTE array (UpdatePageTable.pPageTableEntries)");
    if (st != WK_OK)
        return st;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_UPDATE_PAGE_TABLE;
    DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *p = &a.UpdatePageTable;
    p->PageTableLevel = t->level;
    p->hAllocation = u->alloc ? u->alloc->driver_handle : NULL; /* NULL: the entries point at tables (5.2 T1) */
    if (gpu_virtual) {
        p->PageTableAddress.GpuVirtual = gpu_va;
    } else {
        p->PageTableAddress.GpuPhysical.SegmentId = t->segment;
        p->PageTableAddress.GpuPhysical.SegmentOffset = t->offset;
    }
    p->pPageTableEntries = (DXGK_PTE *)(void *)entries.ptr;
    p->StartIndex = u->start;
    p->NumPageTableEntries = u->count;
    p->Flags.Repeat = u->repeat != 0;
    p->Flags.InitialUpdate = u->initial != 0;
    p->AllocationOffsetInBytes = u->alloc_offset;
    p->hProcess = vm->va->space[space].kmd;
    p->UpdateMode = vm->mmu.caps.PageTableUpdateMode;
    p->FirstPteVirtualAddress = u->first_va;
    struct around w;
    around_take(vm, u, &w);
    int by_cpu = p->UpdateMode == DXGK_PAGETABLEUPDATE_CPU_VIRTUAL;
    if (gpu_virtual)
        vm->va->pp.gva_updates = 1; /* this buffer's work is the paging process's (paging_process_physical_exempt) */
    if (vm->va->hold && !vm->va->cpu_updates) {
        st = by_cpu ? update_by_cpu_in_buffer(vm, &a, t, 1) : paging_run_held(vm, &a);
        gbuf_free(vm, &entries);
        return st == WK_OK ? update_held(vm, u, &w) : (free(w.bytes), st);
    }
    st = vm->va->cpu_updates ? update_by_cpu(vm, &a, t)
         : by_cpu            ? update_by_cpu_in_buffer(vm, &a, t, 0)
                             : paging_run(vm, &a, NULL);
    gbuf_free(vm, &entries);
    if (st == WK_OK)
        st = check_entries(vm, u);
    wk_status confined = around_check(vm, u, &w);
    return st != WK_OK ? st : confined;
}

struct held {
    struct update u;                        /* its entries a copy of the caller's */
    struct around w;
};

/*
 * Updates held in the paging buffer for the operation that comes next
 * (gpuva_hold: the paging process's scratch mappings and the operation
 * that uses them, in one buffer, as the kernel may build them; a driver
 * must then keep apart what its GPU cannot run together, outsiders 16 and
 * 17). Each is judged once that buffer ran (gpuva_held_checks).
 */
static wk_status update_held(struct wk_vidmm *vm, const struct update *u, struct around *w)
{
    struct gpuva *g = vm->va;
    uint32_t n = u->repeat ? 1 : u->count;
    DXGK_PTE *copy = malloc((size_t)n * sizeof(*copy));
    if (!g->held)
        g->held = calloc(GPUVA_MAX_HELD, sizeof(*g->held));
    if (!copy || !g->held || g->nheld == GPUVA_MAX_HELD) {
        free(copy);
        free(w->bytes);
        return fail(vm, WK_E_LIMIT, "a limit of the kit: more than %u page-table updates held for one buffer",
                    GPUVA_MAX_HELD);
    }
    memcpy(copy, u->entries, (size_t)n * sizeof(*copy));
    g->held[g->nheld].u = *u;
    g->held[g->nheld].u.entries = copy;
    g->held[g->nheld++].w = *w;
    return WK_OK;
}

void gpuva_hold(struct wk_vidmm *vm, int on)
{
    vm->va->hold = on;
}

/* What held update i may not touch leaves out what the other held updates
 * wrote (the source and destination windows share a leaf table): their
 * entries are taken as they are now into i's snapshot. */
static void allow_held_neighbours(struct wk_vidmm *vm, uint32_t i)
{
    struct around *w = &vm->va->held[i].w;
    for (uint32_t j = 0; w->bytes && j < vm->va->nheld; j++) {
        const struct around *o = &vm->va->held[j].w;
        uint64_t lo = o->keep_lo > w->lo ? o->keep_lo : w->lo;
        uint64_t hi = o->keep_hi < w->lo + w->len ? o->keep_hi : w->lo + w->len;
        if (j != i && lo < hi)
            (void)wk_gpu_read(vm->gpu, lo, w->bytes + (lo - w->lo), hi - lo);
    }
}

wk_status gpuva_held_checks(struct wk_vidmm *vm, int judge)
{
    struct gpuva *g = vm->va;
    wk_status st = WK_OK;
    for (uint32_t i = 0; i < g->nheld; i++) {
        struct held *h = &g->held[i];
        if (judge && st == WK_OK && !vm->dead) {
            allow_held_neighbours(vm, i);
            st = check_entries(vm, &h->u);
            wk_status confined = around_check(vm, &h->u, &h->w);
            st = st != WK_OK ? st : confined;
        } else {
            free(h->w.bytes);
        }
        free((void *)h->u.entries);
    }
    g->nheld = 0;
    return st;
}

/* A fresh table: every entry invalid (docs/wddm-gpummu-facts.md 4.7, "New
 * page table"), with Repeat and InitialUpdate. */
static wk_status table_invalidate(struct wk_vidmm *vm, uint32_t space, uint32_t table, int initial)
{
    static const DXGK_PTE invalid; /* Valid 0, everything else 0 too */
    struct update u = { table, 0, vm->va->table[table].entries, &invalid, 1, initial, NULL, 0, 0 };
    return update_run(vm, space, &u);
}

/* The directory entry at `index` of `parent` pointing at `child`. */
static wk_status table_link(struct wk_vidmm *vm, uint32_t space, uint32_t parent, uint32_t index, uint32_t child)
{
    const struct va_table *c = &vm->va->table[child];
    DXGK_PTE e;
    memset(&e, 0, sizeof(e));
    e.Valid = 1;
    e.Segment = c->segment;
    e.PageTableAddress = c->offset >> WK_GPU_PAGE_SHIFT;
    struct update u = { parent, index, 1, &e, 0, 0, NULL, 0, 0 };
    return update_run(vm, space, &u);
}

/* ------------------------------------------------------------------ */
/* Spaces                                                               */
/* ------------------------------------------------------------------ */

static struct va_space *space_get(struct wk_vidmm *vm, uint32_t id)
{
    if (!vm->va || id == 0 || id >= GPUVA_MAX_SPACES || !vm->va->space[id].live)
        return NULL;
    return &vm->va->space[id];
}

static wk_status create_process(struct wk_vidmm *vm, uint32_t id, HANDLE *kmd)
{
    *kmd = NULL;
    if (!vm->ddi.DxgkDdiCreateProcess)
        return WK_OK; /* the driver keeps no per-process state: hProcess is NULL */
    DXGKARG_CREATEPROCESS c;
    memset(&c, 0, sizeof(c));
    c.hDxgkProcess = (HANDLE)(uintptr_t)(0xD7000000u + id); /* the kernel's own handle: any token */
    /* The paging process is the kernel's "system process"
     * (DXGK_CREATEPROCESSFLAGS.SystemProcess: "a system process is being
     * created"; that the kernel makes it through this DDI is inferred,
     * docs/wddm-gpummu-facts.md 3.2: a driver gets its handle back in the
     * paging process's UPDATE_PAGE_TABLE and FLUSH_TLB, hProcess). */
    c.Flags.SystemProcess = id == GPUVA_PAGING_SPACE;
    struct garg g;
    DXGKARG_CREATEPROCESS *pc = garg_in(vm, &g, &c, sizeof(c), "DXGKARG_CREATEPROCESS argument (*pArgs)");
    NTSTATUS st = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_CREATE_PROCESS, crashed, st = vm->ddi.DxgkDdiCreateProcess(vm->miniport, pc);
             ddi_rewrite(vm, WK_DDI_CREATE_PROCESS, pc, &st));
    wk_status guard = garg_out(vm, &g, WK_DDI_CREATE_PROCESS, crashed);
    if (crashed != WK_OK || guard != WK_OK)
        return crashed != WK_OK ? crashed : guard;
    if (!NT_SUCCESS(st)) /* any ntstatus.h error is allowed (wddm-gpummu-facts.md 3.1): no space, no blame */
        return fail(vm, WK_E_NOT_SUPPORTED, "DxgkDdiCreateProcess returned 0x%08x, which it may: no address space "
                    "to run the case in", (unsigned)st);
    *kmd = c.hKmdProcess;
    return WK_OK;
}

static void destroy_process(struct wk_vidmm *vm, HANDLE kmd)
{
    if (!kmd || !vm->ddi.DxgkDdiDestroyProcess || vm->dead)
        return;
    wk_status crashed;
    NTSTATUS st = STATUS_SUCCESS;
    DDI_CALL(vm, WK_DDI_DESTROY_PROCESS, crashed, st = vm->ddi.DxgkDdiDestroyProcess(vm->miniport, kmd));
    (void)crashed;
    (void)st; /* nothing the kernel could do about a failure */
}

static wk_status gpu_view(struct wk_vidmm *vm, struct va_space *s)
{
    void *self;
    wk_mmu_decode_fn *decode = hw_decode(vm, &self);
    struct wk_va_space_config c = { wk_gpu_mem(vm->gpu), wk_gpu_mem_ops(), &vm->mmu.geometry, decode, self,
                                    table_gpu_address(vm, &vm->va->table[s->root]) };
    char why[160];
    if (wk_va_space_create(&c, &s->gpu, why, sizeof(why)) != WK_OK)
        return fail(vm, WK_E_NO_MEMORY, "the GPU's view of the address space: %s", why);
    if (root_resizable(vm))
        wk_va_space_set_root_entries(s->gpu, vm->va->table[s->root].entries);
    if (wk_gpu_va_attach(vm->gpu, s->gpu) != WK_OK) {
        wk_va_space_destroy(s->gpu);
        s->gpu = NULL;
        return fail(vm, WK_E_LIMIT, "a limit of the kit: the GPU runs too many address spaces");
    }
    return WK_OK;
}

/* "VidMm must explicitly invalidate all entries of a page table / directory
 * with UpdatePageTable before freeing it" when the driver sets
 * ExplicitPageTableInvalidation (DXGK_GPUMMUCAPS, docs/wddm-gpummu-facts.md
 * 1.3; "Table freed", 4.7): every table of an ending space made invalid,
 * the root first, so no link outlives what it names (outsider 28: a
 * driver that keeps its tables in software asserted in DestroyProcess that
 * the kit freed tables with valid entries). An old root a move left was
 * made invalid then, and its bytes are the kit's poison since: not again.
 * The paging process's own tables by the CPU, as its set-up wrote them. A
 * failed update is judged as any is, and the tables are freed all the same. */
static void space_invalidate_tables(struct wk_vidmm *vm, uint32_t id)
{
    if (!vm->mmu.caps.ExplicitPageTableInvalidation || vm->dead)
        return;
    int cpu = vm->va->cpu_updates;
    vm->va->cpu_updates = cpu || id == GPUVA_PAGING_SPACE;
    for (uint32_t level = levels(vm); level-- > 0 && vm->va && !vm->dead;)
        for (uint32_t i = 1; i < GPUVA_MAX_TABLES && vm->va && !vm->dead; i++) {
            const struct va_table *t = &vm->va->table[i];
            if (t->live && !t->retired && t->space == id && t->level == level)
                (void)table_invalidate(vm, id, i, 0);
        }
    if (vm->va)
        vm->va->cpu_updates = cpu;
}

static void space_release(struct wk_vidmm *vm, uint32_t id, int tell_driver)
{
    struct va_space *s = &vm->va->space[id];
    if (tell_driver)
        space_invalidate_tables(vm, id);
    if (!vm->va)
        return;
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES; i++)
        if (vm->va->table[i].live && vm->va->table[i].space == id)
            table_free(vm, i);
    for (uint32_t i = 0; i < GPUVA_MAX_MAPPINGS; i++) /* no entries left to follow an allocation's moves */
        if (vm->va->map[i].live && vm->va->map[i].space == id)
            vm->va->map[i].live = 0;
    if (s->gpu) {
        wk_gpu_va_detach(vm->gpu, s->gpu);
        wk_va_space_destroy(s->gpu);
    }
    if (tell_driver == 1)
        destroy_process(vm, s->kmd);
    else if (tell_driver && s->kmd && vm->nprocess_ended < GPUVA_MAX_SPACES)
        vm->process_ended[vm->nprocess_ended++] = s->kmd; /* after its devices (gpuva_end_processes) */
    memset(s, 0, sizeof(*s));
}

/* Space `id` made: its process (DxgkDdiCreateProcess), its root placed
 * and made invalid, and the GPU's view of it. */
wk_status gpuva_space_make(struct wk_vidmm *vm, uint32_t id)
{
    struct va_space *s = &vm->va->space[id];
    wk_status st = create_process(vm, id, &s->kmd);
    if (st != WK_OK)
        return st;
    s->live = 1;
    s->root = root_place(vm, id, root_first_need(vm), &st);
    if (s->root != TABLE_NONE)
        st = table_invalidate(vm, id, s->root, 1);
    if (st == WK_OK)
        st = gpu_view(vm, s);
    if (st != WK_OK)
        space_release(vm, id, 1);
    return st;
}

wk_status wk_vidmm_va_create_space(struct wk_vidmm *vm, uint32_t *out)
{
    *out = 0;
    const char *why = gpuva_unavailable(vm);
    if (why)
        return fail(vm, WK_E_NOT_SUPPORTED, "no GPU virtual address space: %s", why);
    struct gpuva *g = va_state(vm);
    if (!g)
        return fail(vm, WK_E_NO_MEMORY, "no memory for the address spaces");
    uint32_t id = 0;
    for (uint32_t i = 1; i < GPUVA_PAGING_SPACE && !id; i++) /* the last slot is the paging process's */
        if (!g->space[i].live)
            id = i;
    if (!id)
        return fail(vm, WK_E_LIMIT, "a limit of the kit: %u address spaces at once", GPUVA_PAGING_SPACE - 1);
    wk_status st = gpuva_space_make(vm, id);
    if (st == WK_OK)
        *out = id;
    /* kept for what needs the space later (a virtual context of a device
     * that got none: gpuva_context.c says why) */
    snprintf(vm->space_refused, sizeof(vm->space_refused), "%s", st == WK_OK ? "" : vm->last_error);
    return st;
}

wk_status wk_vidmm_va_destroy_space(struct wk_vidmm *vm, uint32_t id)
{
    if (!space_get(vm, id))
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", id);
    if (gpuva_space_devices(vm, id))
        return fail(vm, WK_E_STATE, "address space %u still has devices: a process goes after its devices", id);
    space_release(vm, id, 1);
    return vm->dead ? WK_E_DEAD : WK_OK;
}

/* A process ends while the adapter goes on: its devices first (their
 * contexts and allocations with them: a device is its process's,
 * DXGKARG_CREATEDEVICE.hKmdProcess), then its address space, its page
 * tables freed, and DxgkDdiDestroyProcess. The paging process and the
 * other processes stay, and paging goes on in them: what the driver keeps
 * for them must outlive this process (wddm-gpummu-facts.md 3.2: the paging
 * process's handle comes back in its UPDATE_PAGE_TABLE and FLUSH_TLB). */
wk_status wk_vidmm_va_end_process(struct wk_vidmm *vm, uint32_t id)
{
    if (id == GPUVA_PAGING_SPACE || !space_get(vm, id))
        return fail(vm, WK_E_NOT_FOUND, "no process of address space %u", id);
    struct ht_iter it;
    for (uint32_t d = ht_iter_first(&vm->devices, &it); d; d = ht_iter_next(&vm->devices, &it)) {
        const struct device *dev = device_get(vm, d);
        wk_status st = dev && dev->live && dev->space == id ? wk_vidmm_destroy_device(vm, d) : WK_OK;
        if (st != WK_OK)
            return st;
    }
    return wk_vidmm_va_destroy_space(vm, id);
}

void gpuva_release_processes(struct wk_vidmm *vm, int tell_driver)
{
    for (uint32_t i = 1; vm->va && i < GPUVA_PAGING_SPACE; i++) /* the last slot is the paging process's */
        if (vm->va->space[i].live)
            space_release(vm, i, tell_driver ? 2 : 0);
}

void gpuva_release(struct wk_vidmm *vm, int tell_driver)
{
    if (!vm->va)
        return;
    for (uint32_t i = 1; i < GPUVA_MAX_SPACES; i++)
        if (vm->va->space[i].live)
            space_release(vm, i, tell_driver ? 2 : 0);
    (void)gpuva_held_checks(vm, 0);
    free(vm->va->held);
    free(vm->va);
    vm->va = NULL;
}

uint64_t wk_vidmm_page_table_bytes(struct wk_vidmm *vm)
{
    uint64_t bytes = 0;
    for (uint32_t i = 1; vm->va && i < GPUVA_MAX_TABLES; i++)
        bytes += vm->va->table[i].live ? vm->va->table[i].bytes : 0;
    return bytes;
}

int gpuva_table_overlaps(const struct wk_vidmm *vm, uint64_t addr, uint64_t len)
{
    for (uint32_t i = 1; vm->va && len && i < GPUVA_MAX_TABLES; i++) {
        const struct va_table *t = &vm->va->table[i];
        uint64_t at = t->live ? table_gpu_address(vm, t) : 0;
        if (t->live && at < addr + len && addr < at + t->bytes)
            return 1;
    }
    return 0;
}

void gpuva_paging_release(struct wk_vidmm *vm)
{
    if (vm->va && vm->va->space[GPUVA_PAGING_SPACE].live)
        space_release(vm, GPUVA_PAGING_SPACE, 1);
}

const char *gpuva_why_none(const struct wk_vidmm *vm)
{
    return gpuva_unavailable(vm);
}

/* A process goes after its devices: the DestroyProcess calls gpuva_release
 * put off, made once the devices are gone (or dropped, tell_driver 0). */
void gpuva_end_processes(struct wk_vidmm *vm, int tell_driver)
{
    for (uint32_t i = 0; i < vm->nprocess_ended && tell_driver; i++)
        destroy_process(vm, vm->process_ended[i]);
    vm->nprocess_ended = 0;
}

/* What a device and its contexts need of their process's space
 * (gpuva_context.c): the driver's process handle, and where the root table
 * is, as DxgkDdiSetRootPageTable gives it. 0 for no such space. */
int gpuva_space_live(struct wk_vidmm *vm, uint32_t space)
{
    return space_get(vm, space) != NULL;
}

struct wk_va_space *gpuva_space_gpu(struct wk_vidmm *vm, uint32_t space)
{
    struct va_space *s = space_get(vm, space);
    return s ? s->gpu : NULL;
}

uint32_t gpuva_space_by_root(struct wk_vidmm *vm, uint64_t root)
{
    for (uint32_t i = 1; vm->va && i < GPUVA_MAX_SPACES; i++)
        if (vm->va->space[i].live && table_gpu_address(vm, &vm->va->table[vm->va->space[i].root]) == root)
            return i;
    return 0;
}

HANDLE gpuva_space_process(struct wk_vidmm *vm, uint32_t space)
{
    const struct va_space *s = space_get(vm, space);
    return s ? s->kmd : NULL;
}

int gpuva_space_root(struct wk_vidmm *vm, uint32_t space, D3DGPU_PHYSICAL_ADDRESS *at, uint32_t *entries,
                     uint64_t *gpu_address)
{
    const struct va_space *s = space_get(vm, space);
    if (!s)
        return 0;
    const struct va_table *t = &vm->va->table[s->root];
    at->SegmentId = t->segment;
    at->SegmentOffset = t->offset;
    *entries = t->entries;
    *gpu_address = table_gpu_address(vm, t);
    return 1;
}

/* A translation fault of the kit's GPU at `va`, in the space whose root is
 * `root`, that the kit's own walk of the same tables translates: for a
 * sized root, a GPU bounded by fewer entries than the kernel gave. */
int gpuva_root_end_hint(struct wk_vidmm *vm, uint64_t root, uint64_t va, char *out, size_t size)
{
    const struct va_space *s = space_get(vm, gpuva_space_by_root(vm, root));
    uint64_t pa;
    uint32_t ro;
    if (!s || !root_resizable(vm) || wk_va_translate(s->gpu, va, &pa, &ro, NULL) != 0)
        return 0;
    snprintf(out, size, " (0x%llx is mapped, at root entry %llu of the %u the kernel gave as NumEntries: the GPU "
             "stopped at a shorter root, RING_ROOT_ENTRIES)", (unsigned long long)va,
             (unsigned long long)level_index(vm, levels(vm) - 1, va), vm->va->table[s->root].entries);
    return 1;
}

/*
 * The root table moves, as the memory manager moves it while the process's
 * contexts are idle (docs/wddm-gpummu-facts.md 4.7, "Page table moved", and
 * 3.4: "Called per context ... when the root is relocated"): a new root is
 * placed and made invalid, each lower table is linked into it at its old
 * index (UPDATE_PAGE_TABLE, judged as every other), the GPU's view follows
 * the new root, every context of the process is told
 * (DxgkDdiSetRootPageTable, gpuva_root_moved), and the old root's memory
 * is filled with 0xA5 bytes and stays the space's until the space goes: a
 * driver that still runs a context on it reads no table there, and no
 * later move puts the root back where an old one was (an outsider saw a
 * driver that kept its first root pass again after a second move, the
 * root back at its first place).
 */
/* The old root's valid entries, its children's links, as runs of
 * consecutive indices: one COPY_RANGE each, sorted. */
static uint32_t child_runs(const struct wk_vidmm *vm, uint32_t old, DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r, uint32_t max)
{
    uint32_t entries = vm->va->table[old].entries, n = 0;
    for (uint32_t i = 0; i < entries && n < max; i++) {
        if (table_child(vm, old, i) == TABLE_NONE)
            continue;
        if (n && r[n - 1].SrcStartPteIndex + r[n - 1].NumPageTableEntries == i) {
            r[n - 1].NumPageTableEntries++;
            continue;
        }
        memset(&r[n], 0, sizeof(r[n]));
        r[n].SrcStartPteIndex = r[n].DstStartPteIndex = i;
        r[n++].NumPageTableEntries = 1;
    }
    return n;
}

static int in_runs(const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r, uint32_t n, uint32_t i)
{
    for (uint32_t k = 0; k < n; k++)
        if (i >= r[k].DstStartPteIndex && i - r[k].DstStartPteIndex < r[k].NumPageTableEntries)
            return 1;
    return 0;
}

/*
 * PAGING-COPYPTE-001: the new root's entries in the ranges hold the bytes
 * the old root's held before the operation (a copy of the hardware's own
 * entries: whatever their format, the same bytes), and its others are as
 * they were (invalid, as made). `before` and `fresh`: the two tables' bytes
 * before it ran.
 */
static wk_status check_copied(struct wk_vidmm *vm, const struct va_table *old_t, const struct va_table *new_t,
                              const uint8_t *before, const uint8_t *fresh, const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *r,
                              uint32_t n)
{
    uint32_t eb = entry_bytes(vm, new_t->level);
    uint8_t *now = malloc(new_t->bytes);
    if (!now || wk_gpu_read(vm->gpu, table_gpu_address(vm, new_t), now, new_t->bytes) != WK_OK) {
        free(now);
        return fail(vm, WK_E_LIMIT, "a limit of the kit: the new root table cannot be read back");
    }
    uint32_t entries = (uint32_t)(new_t->bytes / eb);
    wk_status st = WK_OK;
    for (uint32_t i = 0; i < entries && st == WK_OK; i++) {
        int copied = in_runs(r, n, i);
        const uint8_t *want = copied ? before + (uint64_t)i * eb : fresh + (uint64_t)i * eb;
        if (memcmp(now + (uint64_t)i * eb, want, eb) == 0)
            continue;
        char ranges[80], got_hex[40], want_hex[40];
        size_t k = 0;
        for (uint32_t j = 0; j < n && k + 24 < sizeof(ranges); j++)
            k += (size_t)snprintf(ranges + k, sizeof(ranges) - k, "%s%u+%u", j ? ", " : "", r[j].SrcStartPteIndex,
                                  r[j].NumPageTableEntries);
        entry_hex(now + (uint64_t)i * eb, eb, got_hex, sizeof(got_hex));
        entry_hex(want, eb, want_hex, sizeof(want_hex));
        st = violate(vm, R_PAGING_COPYPTE, WK_DDI_BUILD_PAGING_BUFFER,
                     "COPY_PAGE_TABLE_ENTRIES (ranges from, count: %s) from the root at 0x%llx to the one at 0x%llx: "
                     "entry %u holds 0x%s, %s 0x%s", ranges, (unsigned long long)table_gpu_address(vm, old_t),
                     (unsigned long long)table_gpu_address(vm, new_t), i, got_hex,
                     copied ? "where the source entry held" : "outside every range, where it held", want_hex);
    }
    free(now);
    return st;
}

/* The lower tables' links copied from the old root to the new one with
 * COPY_PAGE_TABLE_ENTRIES, in the paging process. */
static wk_status copy_links(struct wk_vidmm *vm, uint32_t old, uint32_t root)
{
    wk_status st;
    int use = paging_process_use(vm, &st);
    if (use < 0)
        return st;
    if (use == 0)
        return fail(vm, WK_E_NOT_SUPPORTED, "COPY_PAGE_TABLE_ENTRIES runs in the paging process, which the kit "
                    "could not make here: %s", paging_process_why_none(vm));
    DXGK_BUILDPAGINGBUFFER_COPY_RANGE r[GPUVA_MAX_TABLES];
    uint32_t n = child_runs(vm, old, r, GPUVA_MAX_TABLES);
    if (n == 0)
        return WK_OK; /* nothing linked yet: the new root is all invalid, as the old */
    const struct va_table *o = &vm->va->table[old], *t = &vm->va->table[root];
    uint8_t *before = malloc(o->bytes), *fresh = malloc(t->bytes);
    if (!before || !fresh || wk_gpu_read(vm->gpu, table_gpu_address(vm, o), before, o->bytes) != WK_OK ||
        wk_gpu_read(vm->gpu, table_gpu_address(vm, t), fresh, t->bytes) != WK_OK) {
        free(before);
        free(fresh);
        return fail(vm, WK_E_LIMIT, "a limit of the kit: the root tables cannot be read");
    }
    struct va_pages src = table_pages(o), dst = table_pages(t);
    int idle = 0;
    st = paging_copy_entries(vm, &src, &dst, t->bytes, r, n, &idle);
    if (st == WK_OK && idle)
        st = fail(vm, WK_E_NOT_SUPPORTED,
                  "the driver built nothing for COPY_PAGE_TABLE_ENTRIES; the kernel asks it when it "
                  "resizes a 2-level root (inferred, docs/wddm-gpummu-facts.md 4.4), so a driver of %u levels may "
                  "never be asked it: the root cannot move this way", levels(vm));
    if (st == WK_OK)
        st = check_copied(vm, o, t, before, fresh, r, n);
    free(before);
    free(fresh);
    return st;
}

/* The lower tables' links written into the new root, one UPDATE_PAGE_TABLE each. */
static wk_status relink(struct wk_vidmm *vm, uint32_t space, uint32_t old, uint32_t root)
{
    wk_status st = WK_OK;
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES && st == WK_OK; i++) {
        const struct va_table *t = &vm->va->table[i];
        if (t->live && t->parent == old)
            st = table_link(vm, space, root, t->parent_index, i);
    }
    return st;
}

/* The root moved (`need` 0: the same size elsewhere) or grown to at least
 * `need` entries. */
static wk_status move_root(struct wk_vidmm *vm, uint32_t space, int copy, uint32_t need)
{
    struct va_space *s = space_get(vm, space);
    if (!s)
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", space);
    wk_status st = submit_wait(vm, 0); /* the contexts idle, as SetRootPageTable expects (3.1) */
    if (st != WK_OK)
        return st;
    uint32_t old = s->root;
    const struct va_table *o = &vm->va->table[old];
    uint32_t root = need ? root_place(vm, space, need, &st)
                         : table_place_sized(vm, space, o->level, o->bytes, o->entries, &st);
    if (root == TABLE_NONE)
        return st;
    st = table_invalidate(vm, space, root, 1);
    if (st == WK_OK)
        st = copy ? copy_links(vm, old, root) : relink(vm, space, old, root);
    if (st != WK_OK) {
        table_free(vm, root);
        return st;
    }
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES; i++)
        if (vm->va->table[i].live && vm->va->table[i].parent == old)
            vm->va->table[i].parent = root;
    s->root = root;
    wk_va_space_set_root(s->gpu, table_gpu_address(vm, &vm->va->table[root]));
    if (root_resizable(vm))
        wk_va_space_set_root_entries(s->gpu, vm->va->table[root].entries);
    /* "destroy old" (wddm-gpummu-facts.md 4.7): its entries made invalid
     * first where the driver asks it (space_invalidate_tables; a failed
     * update is judged, and the move goes on: the new root is the
     * space's), then the bytes poisoned, kept placed: freed with the space
     * (space_release) */
    wk_status old_invalid = vm->mmu.caps.ExplicitPageTableInvalidation ? table_invalidate(vm, space, old, 0) : WK_OK;
    if (vm->dead || !vm->va)
        return WK_E_DEAD;
    vm->va->table[old].retired = 1;
    table_poison(vm, &vm->va->table[old]);
    st = gpuva_root_moved(vm, space);
    if (st == WK_OK && space == GPUVA_PAGING_SPACE && vm->sys_context.live && !vm->va->cpu_updates)
        st = gpuva_set_root(vm, &vm->sys_context, space); /* the paging process's context: the system one */
    return st != WK_OK ? st : old_invalid;
}

wk_status wk_vidmm_va_move_root(struct wk_vidmm *vm, uint32_t space)
{
    return move_root(vm, space, 0, 0);
}

/* The root entries the live mappings of `space` use: one past the highest
 * index any of them reaches, at least 1. */
static uint32_t root_used(struct wk_vidmm *vm, uint32_t space)
{
    uint64_t end = 1;
    for (uint32_t i = 0; i < GPUVA_MAX_MAPPINGS; i++) {
        const struct va_mapping *m = &vm->va->map[i];
        if (!m->live || m->space != space || !m->bytes)
            continue;
        uint64_t past = level_index(vm, levels(vm) - 1, m->va + m->bytes - 1) + 1;
        end = past > end ? past : end;
    }
    return end < UINT32_MAX ? (uint32_t)end : UINT32_MAX;
}

/* Table `id` and every table below it freed (their links go with the
 * root that held them). */
static void subtree_free(struct wk_vidmm *vm, uint32_t id)
{
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES; i++)
        if (vm->va->table[i].live && vm->va->table[i].parent == id && i != id)
            subtree_free(vm, i);
    table_free(vm, id);
}

/*
 * "Shrink root: new root, make resident, copy a portion of old root,
 * destroy old; then SetRootPageTable" (docs/wddm-gpummu-facts.md 4.7): a
 * resizable 2-level root ("the root page table is dynamically resizable",
 * DXGK_GPUMMUCAPS) cut to the smallest power of two of entries that holds
 * the process's mappings. The lower tables past it hold none: they are
 * detached before the move (so neither its UPDATE_PAGE_TABLE links nor its
 * copied ranges name them) and freed after it; back in place when the move
 * fails.
 */
wk_status wk_vidmm_va_shrink_root(struct wk_vidmm *vm, uint32_t space, int copy)
{
    struct va_space *s = space_get(vm, space);
    if (!s)
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", space);
    if (!root_resizable(vm))
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver's tree has %u levels: only a 2-level tree's root is resizable "
                    "(DXGK_GPUMMUCAPS), so it never shrinks", levels(vm));
    uint32_t used = root_used(vm, space), need = 1, old = s->root;
    while (need < used && need < root_entries_max(vm))
        need <<= 1;
    if (need >= vm->va->table[old].entries)
        return fail(vm, WK_E_NOT_SUPPORTED, "the root's %u entries are the fewest that hold the process's mappings "
                    "(up to entry %u): it cannot shrink", vm->va->table[old].entries, used - 1);
    uint8_t detached[GPUVA_MAX_TABLES];
    for (uint32_t i = 0; i < GPUVA_MAX_TABLES; i++) {
        struct va_table *t = &vm->va->table[i];
        detached[i] = i && t->live && t->parent == old && t->parent_index >= need;
        if (detached[i])
            t->parent = TABLE_NONE;
    }
    wk_status st = move_root(vm, space, copy, need);
    if (st == WK_OK)
        vm->stats.root_shrinks++;
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES && vm->va; i++) {
        if (!detached[i])
            continue;
        if (st == WK_OK)
            subtree_free(vm, i);
        else
            vm->va->table[i].parent = old; /* the move failed: the old root still links it */
    }
    return st;
}

/* The same, the links copied from the old root to the new one with
 * COPY_PAGE_TABLE_ENTRIES (the documentation's "Shrink root: ... copy a
 * portion of the old page table"; that the kernel copies with this
 * operation is inferred, docs/wddm-gpummu-facts.md 4.4, 4.7). */
wk_status wk_vidmm_va_move_root_copying(struct wk_vidmm *vm, uint32_t space)
{
    return move_root(vm, space, 1, 0);
}

/*
 * A two-level tree's root grown to hold `index` ("Grow root: new root
 * allocation, make resident, init entries, destroy old; then
 * SetRootPageTable", docs/wddm-gpummu-facts.md 4.7): the kit asks the
 * driver the size of a root of at least the next power of two of entries,
 * places it, makes it invalid, links the lower tables into it
 * (UPDATE_PAGE_TABLE) and gives each context of the process the new root
 * and its NumEntries, as for a move.
 */
static wk_status grow_root(struct wk_vidmm *vm, uint32_t space, uint64_t index)
{
    uint32_t need = 1;
    while (need <= index && need < root_entries_max(vm))
        need <<= 1;
    vm->stats.root_grows++;
    return move_root(vm, space, 0, need);
}

/* ------------------------------------------------------------------ */
/* Mapping                                                              */
/* ------------------------------------------------------------------ */

/* The leaf table of va, placing and linking the tables on the way. */
static wk_status leaf_table(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint32_t *leaf)
{
    uint64_t root_index = level_index(vm, levels(vm) - 1, va);
    if (root_index >= vm->va->table[vm->va->space[space].root].entries) {
        wk_status st = grow_root(vm, space, root_index);
        if (st != WK_OK)
            return st;
    }
    uint32_t t = vm->va->space[space].root;
    for (uint32_t l = levels(vm) - 1; l > 0; l--) {
        uint32_t index = (uint32_t)level_index(vm, l, va);
        uint32_t child = table_child(vm, t, index);
        if (child == TABLE_NONE) {
            wk_status st;
            child = table_place(vm, space, l - 1, &st);
            if (child == TABLE_NONE)
                return st;
            vm->va->table[child].parent = t;
            vm->va->table[child].parent_index = index;
            st = table_invalidate(vm, space, child, 1);
            if (st == WK_OK)
                st = table_link(vm, space, t, index, child);
            if (st != WK_OK)
                return st;
        }
        t = child;
    }
    *leaf = t;
    return WK_OK;
}

/* The DXGK_PTE of byte `off` of the pages: in their segment, or a system
 * page (docs/wddm-gpummu-facts.md 6). */
static DXGK_PTE page_entry(const struct wk_vidmm *vm, const struct va_pages *p, uint64_t off, int read_only)
{
    DXGK_PTE e;
    memset(&e, 0, sizeof(e));
    e.Valid = 1;
    e.ReadOnly = read_only != 0 && vm->mmu.caps.ReadOnlyMemorySupported;
    e.Segment = p->segment;
    e.PageAddress = p->segment ? (p->offset + off) >> WK_GPU_PAGE_SHIFT : p->pfns[off >> WK_GPU_PAGE_SHIFT];
    return e;
}

/* Where the allocation's pages are now: in a memory segment, or in
 * system memory (evicted, or behind an aperture). */
static struct va_pages pages_of(const struct wk_vidmm *vm, const struct allocation *a)
{
    if (a->resident && !vm->seg[a->segment].aperture)
        return (struct va_pages){ a->segment, a->offset, NULL };
    return (struct va_pages){ 0, 0, a->pfns };
}

static wk_status range_check(struct wk_vidmm *vm, struct va_space **s, uint32_t space, uint64_t va, uint64_t bytes)
{
    *s = space_get(vm, space);
    if (!*s)
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", space);
    uint32_t bits = wk_mmu_va_bits(&vm->mmu.geometry);
    if (bytes == 0 || (va | bytes) & (WK_GPU_PAGE_SIZE - 1))
        return fail(vm, WK_E_INVALID_ARGUMENT, "the range 0x%llx + 0x%llx is not whole 4 KiB pages",
                    (unsigned long long)va, (unsigned long long)bytes);
    if (va + bytes < va || (bits < 64 && va + bytes > (1ull << bits)))
        return fail(vm, WK_E_INVALID_ARGUMENT, "the range 0x%llx + 0x%llx runs past the %u address bits the "
                    "driver's page-table levels index", (unsigned long long)va, (unsigned long long)bytes, bits);
    return WK_OK;
}

/* Whether the allocation has pages to map: resident in a memory segment,
 * or pages in system memory (evicted, or behind an aperture). */
static int has_pages(const struct wk_vidmm *vm, const struct allocation *a)
{
    return (a->resident && !vm->seg[a->segment].aperture) || a->pfns;
}

/* The leaf entries of [va, va + bytes): byte `offset` on of the pages
 * (NULL: invalid entries), one UPDATE_PAGE_TABLE per leaf table the range
 * crosses, naming allocation `a` (may be NULL) and where in it. */
static wk_status write_pages(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes,
                             const struct va_pages *pages, const struct allocation *a, uint64_t offset, int read_only)
{
    static const DXGK_PTE invalid; /* Valid 0 */
    uint32_t leaf_entries = 1u << vm->mmu.geometry.level[0].index_bits;
    DXGK_PTE *e = pages ? malloc(leaf_entries * sizeof(*e)) : NULL;
    if (pages && !e)
        return fail(vm, WK_E_NO_MEMORY, "no memory for %u entries", leaf_entries);
    wk_status st = WK_OK;
    for (uint64_t done = 0; done < bytes && st == WK_OK;) {
        uint64_t at = va + done;
        uint32_t first = (uint32_t)level_index(vm, 0, at);
        uint64_t n_pages = (bytes - done) >> WK_GPU_PAGE_SHIFT;
        uint32_t n = n_pages < leaf_entries - first ? (uint32_t)n_pages : leaf_entries - first;
        uint32_t leaf = TABLE_NONE;
        st = leaf_table(vm, space, at, &leaf);
        for (uint32_t i = 0; pages && i < n && st == WK_OK; i++)
            e[i] = page_entry(vm, pages, offset + done + ((uint64_t)i << WK_GPU_PAGE_SHIFT), read_only);
        struct update u = pages ? (struct update){ leaf, first, n, e, 0, 0, a, offset + done, at }
                                : (struct update){ leaf, first, n, &invalid, 1, 0, NULL, 0, at };
        if (st == WK_OK)
            st = update_run(vm, space, &u);
        done += (uint64_t)n << WK_GPU_PAGE_SHIFT;
    }
    free(e);
    return st;
}

/* The allocation's pages from `offset` at [va, va + bytes) (a NULL
 * allocation, or one without pages: invalid entries). */
static wk_status write_leaves(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes,
                              const struct allocation *a, uint64_t offset, int read_only)
{
    struct va_pages p = a && has_pages(vm, a) ? pages_of(vm, a) : (struct va_pages){ 0, 0, NULL };
    return write_pages(vm, space, va, bytes, p.segment || p.pfns ? &p : NULL, p.segment || p.pfns ? a : NULL,
                       offset, read_only);
}

/* The GPU reads a byte of up to 64 pages of [va, va + bytes) (the first
 * and the last 32), so its TLB holds their translations, as it would
 * after any work through them: what a FLUSH_TLB of the range must then
 * drop. Pages that fault are simply not cached. */
static void tlb_prime(struct va_space *s, uint64_t va, uint64_t bytes)
{
    uint64_t pages = bytes >> WK_GPU_PAGE_SHIFT;
    for (uint64_t i = 0; i < pages; i++) {
        if (i == 32 && pages > 64)
            i = pages - 32;
        uint8_t b;
        struct wk_mem_fault f;
        (void)wk_va_mem_ops()->load(wk_va_mem(s->gpu), va + (i << WK_GPU_PAGE_SHIFT), &b, 1, &f);
    }
}

/* PAGING-FLUSHTLB-001: FLUSH_TLB of the space's root over [va, va + bytes).
 * Afterwards the GPU holds no translation of the range (tlb_prime made it
 * hold some before the entries changed), and it flushed at all. */
static wk_status flush_tlb(struct wk_vidmm *vm, struct va_space *s, uint64_t va, uint64_t bytes)
{
    const struct va_table *root = &vm->va->table[s->root];
    struct wk_va_counters before, after;
    wk_va_counters(s->gpu, &before);
    uint64_t named = 0, gpu_flushes = wk_gpu_va_flushes(vm->gpu, &named);
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof(a));
    a.Operation = DXGK_OPERATION_FLUSH_TLB;
    a.FlushTlb.RootPageTableAddress.SegmentId = root->segment;
    a.FlushTlb.RootPageTableAddress.SegmentOffset = root->offset;
    a.FlushTlb.hProcess = s->kmd;
    a.FlushTlb.StartVirtualAddress = va;
    a.FlushTlb.EndVirtualAddress = va + bytes;
    wk_status st = paging_run(vm, &a, NULL);
    if (st != WK_OK)
        return st;
    wk_va_counters(s->gpu, &after);
    uint64_t first = 0;
    uint32_t kept = wk_va_cached(s->gpu, va, va + bytes, &first);
    if (after.flushes != before.flushes && !kept)
        return WK_OK;
    char what[200];
    if (after.flushes == before.flushes && wk_gpu_va_flushes(vm->gpu, &named) != gpu_flushes)
        snprintf(what, sizeof(what), "flushed none of that space's translations: its flush named root 0x%llx, %s%s",
                 (unsigned long long)named, gpuva_space_by_root(vm, named) ? "another address space's" : "no address space's",
                 named == root->offset && root->segment ? " (the root's offset in its segment, without the segment's base)"
                                                        : "");
    else if (after.flushes == before.flushes)
        snprintf(what, sizeof(what), "flushed none of that space's translations");
    else
        snprintf(what, sizeof(what), "still holds %u translation%s of it (the lowest: the page at 0x%llx): the flush "
                 "did not cover the range", kept, kept == 1 ? "" : "s", (unsigned long long)first);
    return violate(vm, R_PAGING_FLUSHTLB, WK_DDI_BUILD_PAGING_BUFFER,
                   "FLUSH_TLB of the space whose root is at 0x%llx, range 0x%llx..0x%llx, ran, and the GPU %s",
                   (unsigned long long)table_gpu_address(vm, root), (unsigned long long)va,
                   (unsigned long long)(va + bytes), what);
}

/* For the paging process (paging_process.c): pages mapped, and unmapped,
 * where no mapping record follows them (the scratch area maps one
 * operation's pages and forgets them), and the leaf tables of a range
 * placed ahead of use. */
wk_status gpuva_map_pages(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes,
                          const struct va_pages *pages, const struct allocation *a, uint64_t offset)
{
    return write_pages(vm, space, va, bytes, pages, a, offset, 0);
}

wk_status gpuva_unmap_pages(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes)
{
    struct va_space *s = space_get(vm, space);
    if (!s)
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", space);
    tlb_prime(s, va, bytes);
    wk_status st = write_pages(vm, space, va, bytes, NULL, NULL, 0, 0);
    return st == WK_OK ? flush_tlb(vm, s, va, bytes) : st;
}

void gpuva_tables_live(const struct wk_vidmm *vm, uint8_t live[GPUVA_MAX_TABLES])
{
    for (uint32_t i = 0; i < GPUVA_MAX_TABLES; i++)
        live[i] = vm->va && vm->va->table[i].live;
}

static int table_has_child(const struct wk_vidmm *vm, uint32_t id)
{
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES; i++)
        if (vm->va->table[i].live && vm->va->table[i].parent == id)
            return 1;
    return 0;
}

/* A table of `space` placed since `was_live` and with no table below it:
 * its link in its parent made invalid, then freed. Its entries went
 * invalid and were flushed with the range they mapped. */
static int drop_one_new(struct wk_vidmm *vm, uint32_t space, const uint8_t was_live[GPUVA_MAX_TABLES], wk_status *st)
{
    for (uint32_t i = 1; i < GPUVA_MAX_TABLES; i++) {
        const struct va_table *t = &vm->va->table[i];
        if (!t->live || was_live[i] || t->space != space || i == vm->va->space[space].root || table_has_child(vm, i))
            continue;
        DXGK_PTE e;
        memset(&e, 0, sizeof(e));
        struct update u = { t->parent, t->parent_index, 1, &e, 0, 0, NULL, 0, 0 };
        *st = update_run(vm, space, &u);
        if (*st == WK_OK)
            table_free(vm, i);
        return *st == WK_OK;
    }
    return 0;
}

wk_status gpuva_tables_drop_new(struct wk_vidmm *vm, uint32_t space, const uint8_t was_live[GPUVA_MAX_TABLES])
{
    wk_status st = WK_OK;
    while (vm->va && space_get(vm, space) && drop_one_new(vm, space, was_live, &st))
        ;
    return st;
}

wk_status gpuva_place_leaves(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes)
{
    uint64_t step = 1ull << level_shift(vm, 1);
    wk_status st = WK_OK;
    for (uint64_t at = va & ~(step - 1); st == WK_OK && at < va + bytes; at += step) {
        uint32_t t;
        st = leaf_table(vm, space, at, &t);
    }
    return st;
}

wk_status gpuva_mirror_tables(struct wk_vidmm *vm, uint64_t va, uint64_t bytes, uint64_t at)
{
    const uint64_t span = gpuva_leaf_span(vm), page = WK_GPU_PAGE_SIZE;
    const uint32_t bits = wk_mmu_va_bits(&vm->mmu.geometry);
    wk_status st = WK_OK;
    for (uint64_t v = va & ~(span - 1); v < va + bytes && st == WK_OK; v += span) {
        uint32_t id = TABLE_NONE;
        st = leaf_table(vm, GPUVA_PAGING_SPACE, v, &id);
        if (st != WK_OK)
            break;
        const uint64_t n = (vm->va->table[id].bytes + page - 1) & ~(page - 1);
        if (bits < 64 && at + n > (1ull << bits))
            return fail(vm, WK_E_NOT_SUPPORTED, "a limit of the kit: no room for the paging process's mirror of its "
                        "scratch tables in the addresses the driver's levels index");
        struct va_pages p = table_pages(&vm->va->table[id]);
        st = write_pages(vm, GPUVA_PAGING_SPACE, at, n, &p, NULL, 0, 0);
        vm->va->table[id].mirror = at; /* after: mapping the mirror may place tables, the array stays */
        at += n;
    }
    return st;
}

/* The VA one leaf table covers. */
uint64_t gpuva_leaf_span(const struct wk_vidmm *vm)
{
    return 1ull << level_shift(vm, 1);
}

/* ------------------------------------------------------------------ */
/* The mappings the kit keeps                                           */
/* ------------------------------------------------------------------ */

/* Forgets [va, va + bytes) of a space's mappings: a mapping inside it
 * goes, one across an end keeps the part outside (in two when the range
 * is inside it). *cut (may be NULL): whether any mapping overlapped. */
static wk_status mappings_cut(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes, int *cut)
{
    struct gpuva *g = vm->va;
    uint64_t end = va + bytes;
    for (uint32_t i = 0; i < GPUVA_MAX_MAPPINGS; i++) {
        struct va_mapping *m = &g->map[i];
        uint64_t m_end = m->va + m->bytes;
        if (!m->live || m->space != space || m_end <= va || m->va >= end)
            continue;
        if (cut)
            *cut = 1;
        struct va_mapping tail = *m;
        if (m->va < va) { /* keeps its head */
            m->bytes = va - m->va;
        } else {
            m->live = 0;
        }
        if (m_end > end) { /* and its tail, in a slot of its own */
            tail.offset += end - tail.va;
            tail.bytes = m_end - end;
            tail.va = end;
            uint32_t j = 0;
            while (j < GPUVA_MAX_MAPPINGS && g->map[j].live)
                j++;
            if (j == GPUVA_MAX_MAPPINGS)
                return fail(vm, WK_E_LIMIT, "a limit of the kit: more than %u mapped ranges", GPUVA_MAX_MAPPINGS);
            g->map[j] = tail;
        }
    }
    return WK_OK;
}

/* The first mapping of `space` that overlaps [va, va + bytes), or NULL. */
static const struct va_mapping *mapping_overlapping(const struct wk_vidmm *vm, uint32_t space, uint64_t va,
                                                    uint64_t bytes)
{
    for (uint32_t i = 0; i < GPUVA_MAX_MAPPINGS; i++) {
        const struct va_mapping *m = &vm->va->map[i];
        if (m->live && m->space == space && m->va < va + bytes && va < m->va + m->bytes)
            return m;
    }
    return NULL;
}

/*
 * A free range of `bytes` (whole pages) in the space, within [lo, hi)
 * (hi 0: the top of the address bits), above page 0 (0 names no address:
 * DxgkCbMapContextAllocation's failure): the lowest that fits, first fit
 * from lo, stepping past each mapping in the way. 0 when none fits.
 */
uint64_t gpuva_free_range(struct wk_vidmm *vm, uint32_t space, uint64_t bytes, uint64_t lo, uint64_t hi)
{
    uint32_t bits = wk_mmu_va_bits(&vm->mmu.geometry);
    uint64_t top = bits < 64 ? 1ull << bits : UINT64_MAX;
    if (!space_get(vm, space) || bytes == 0 || (bytes & (WK_GPU_PAGE_SIZE - 1)))
        return 0;
    hi = hi == 0 || hi > top ? top : hi;
    uint64_t va = (lo + WK_GPU_PAGE_SIZE - 1) & ~(uint64_t)(WK_GPU_PAGE_SIZE - 1);
    va = va ? va : WK_GPU_PAGE_SIZE;
    while (va >= lo && va + bytes > va && va + bytes <= hi) {
        const struct va_mapping *m = mapping_overlapping(vm, space, va, bytes);
        if (!m)
            return va;
        va = m->va + m->bytes; /* whole pages: still aligned */
    }
    return 0;
}

int gpuva_range_free(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes)
{
    return space_get(vm, space) && !mapping_overlapping(vm, space, va, bytes);
}

/* The mapping of `space` that holds va, or NULL. */
static const struct va_mapping *mapping_at(const struct wk_vidmm *vm, uint32_t space, uint64_t va)
{
    return mapping_overlapping(vm, space, va, 1);
}

wk_status wk_vidmm_va_covered(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes, int write)
{
    if (!space_get(vm, space))
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", space);
    uint64_t at = va, end = va + bytes;
    if (end < va)
        return fail(vm, WK_E_INVALID_ARGUMENT, "the range 0x%llx + 0x%llx wraps", (unsigned long long)va,
                    (unsigned long long)bytes);
    while (at < end) {
        const struct va_mapping *m = mapping_at(vm, space, at);
        const struct allocation *a = m ? allocation_get(vm, m->allocation) : NULL;
        const char *why = !m ? "is not mapped" : write && m->read_only ? "is mapped read-only"
                                                : !a || !has_pages(vm, a) ? "maps an allocation with no pages"
                                                                          : NULL;
        if (why)
            return fail(vm, WK_E_INVALID_ARGUMENT, "the case's range 0x%llx + 0x%llx: 0x%llx %s in its address space",
                        (unsigned long long)va, (unsigned long long)bytes, (unsigned long long)at, why);
        at = m->va + m->bytes;
    }
    return WK_OK;
}

static wk_status mapping_add(struct wk_vidmm *vm, const struct va_mapping *m)
{
    for (uint32_t i = 0; i < GPUVA_MAX_MAPPINGS; i++)
        if (!vm->va->map[i].live) {
            vm->va->map[i] = *m;
            return WK_OK;
        }
    return fail(vm, WK_E_LIMIT, "a limit of the kit: more than %u mapped ranges", GPUVA_MAX_MAPPINGS);
}

wk_status wk_vidmm_va_map(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint32_t allocation, uint64_t offset,
                          uint64_t bytes, int read_only)
{
    struct va_space *s;
    wk_status st = range_check(vm, &s, space, va, bytes);
    if (st != WK_OK)
        return st;
    struct allocation *a = allocation_get(vm, allocation);
    if (!a)
        return fail(vm, WK_E_NOT_FOUND, "no allocation %u", allocation);
    if ((offset & (WK_GPU_PAGE_SIZE - 1)) || offset + bytes > a->size || offset + bytes < offset)
        return fail(vm, WK_E_INVALID_ARGUMENT, "bytes 0x%llx + 0x%llx are not whole pages of allocation %u",
                    (unsigned long long)offset, (unsigned long long)bytes, allocation);
    if (!has_pages(vm, a))
        return fail(vm, WK_E_STATE, "allocation %u has no memory to map yet: page it in first", allocation);
    /* What was mapped there before is replaced: a translation the GPU may
     * have cached changes, so the range is flushed when it was mapped. */
    int remapped = 0;
    st = mappings_cut(vm, space, va, bytes, &remapped);
    if (st == WK_OK && remapped)
        tlb_prime(s, va, bytes);
    if (st == WK_OK)
        st = write_leaves(vm, space, va, bytes, a, offset, read_only);
    if (st == WK_OK) {
        struct va_mapping m = { 1, space, allocation, read_only, va, offset, bytes };
        st = mapping_add(vm, &m);
    }
    return st == WK_OK && remapped ? flush_tlb(vm, s, va, bytes) : st;
}

wk_status wk_vidmm_va_unmap(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes)
{
    struct va_space *s;
    wk_status st = range_check(vm, &s, space, va, bytes);
    if (st == WK_OK)
        st = mappings_cut(vm, space, va, bytes, NULL);
    if (st == WK_OK) {
        tlb_prime(s, va, bytes);
        st = write_leaves(vm, space, va, bytes, NULL, 0, 0);
    }
    /* A translation the GPU may have cached went invalid: flushed before
     * the memory is used again (4.3). */
    return st == WK_OK ? flush_tlb(vm, s, va, bytes) : st;
}

/* Every mapping of `a`: written where it is now (or invalid, gone), then
 * flushed, as VidMm updates a process's entries when an allocation
 * moves and flushes before the old memory is used again
 * (docs/wddm-gpummu-facts.md, step-by-step table, steps 7 and 10). */
static wk_status follow(struct wk_vidmm *vm, struct allocation *a, int gone)
{
    if (!vm->va || vm->dead)
        return WK_OK;
    wk_status st = WK_OK;
    for (uint32_t i = 0; i < GPUVA_MAX_MAPPINGS && st == WK_OK; i++) {
        struct va_mapping *m = &vm->va->map[i];
        if (!m->live || m->allocation != a->handle)
            continue;
        struct va_space *s = space_get(vm, m->space);
        tlb_prime(s, m->va, m->bytes);
        st = write_leaves(vm, m->space, m->va, m->bytes, gone ? NULL : a, m->offset, m->read_only);
        if (st == WK_OK)
            st = flush_tlb(vm, s, m->va, m->bytes);
        if (gone)
            m->live = 0;
    }
    return st;
}

wk_status gpuva_follow(struct wk_vidmm *vm, struct allocation *a)
{
    return follow(vm, a, 0);
}

wk_status gpuva_forget(struct wk_vidmm *vm, struct allocation *a)
{
    return follow(vm, a, 1);
}

/* The GPU's access through the space: a load into buf, or a store of it. */
static wk_status va_access(struct wk_vidmm *vm, uint32_t space, uint64_t va, void *buf, uint64_t len, int store,
                           struct wk_mem_fault *fault)
{
    struct va_space *s = space_get(vm, space);
    if (!s)
        return fail(vm, WK_E_NOT_FOUND, "no address space %u", space);
    struct wk_mem_fault f;
    memset(&f, 0, sizeof(f));
    const struct wk_mem_ops *o = wk_va_mem_ops();
    int r = store ? o->store(wk_va_mem(s->gpu), va, buf, len, &f) : o->load(wk_va_mem(s->gpu), va, buf, len, &f);
    if (fault)
        *fault = f;
    return r == 0 ? WK_OK : WK_E_GPU_FAULT;
}

wk_status wk_vidmm_va_read(struct wk_vidmm *vm, uint32_t space, uint64_t va, void *buf, uint64_t len,
                           struct wk_mem_fault *fault)
{
    return va_access(vm, space, va, buf, len, 0, fault);
}

wk_status wk_vidmm_va_write(struct wk_vidmm *vm, uint32_t space, uint64_t va, const void *buf, uint64_t len,
                            struct wk_mem_fault *fault)
{
    return va_access(vm, space, va, (void *)(uintptr_t)buf, len, 1, fault); /* store reads it only */
}

/* What the user-mode driver writes with the CPU where the allocations are
 * mapped at [va, va + len): into the allocations, by the kit's own record,
 * whatever the GPU's protection (a command buffer mapped read-only for the
 * GPU is one the CPU still writes: outsider 13) and wherever the driver's
 * entries point (a wrong entry is found by the GPU's reading, not hidden by
 * a write through it). */
wk_status wk_vidmm_va_put(struct wk_vidmm *vm, uint32_t space, uint64_t va, const void *buf, uint64_t len)
{
    wk_status st = wk_vidmm_va_covered(vm, space, va, len, 0);
    const uint8_t *b = buf;
    for (uint64_t at = va; st == WK_OK && at < va + len;) {
        const struct va_mapping *m = mapping_at(vm, space, at);
        uint64_t end = m->va + m->bytes < va + len ? m->va + m->bytes : va + len;
        st = wk_vidmm_write(vm, m->allocation, m->offset + (at - m->va), b + (at - va), end - at);
        at = end;
    }
    return st;
}

wk_status wk_vidmm_va_counters(struct wk_vidmm *vm, uint32_t space, struct wk_va_counters *out)
{
    struct va_space *s = space_get(vm, space);
    if (!s)
        return WK_E_NOT_FOUND;
    wk_va_counters(s->gpu, out);
    return WK_OK;
}
