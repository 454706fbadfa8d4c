/* SPDX-License-Identifier: MIT */
/*
 * seeds_lib.c - seed corpora for the driver harnesses, generated from the
 * YAML specs (seeds_lib.h says which file holds what).
 *
 * Why from the specs: they are the kit's catalogue of meaningful driver
 * conversations (every DDI area, its edge cases, its multipass and
 * eviction paths), so a fuzzer seeded with them starts deep instead of
 * rediscovering the command format byte by byte.
 *
 * fuzz_prog seeds are the cases themselves. The other three formats need
 * what a case makes the driver see, so each case is run once on the
 * reference driver, step by step, with an answer rewriter that only
 * observes: the render steps are turned into fuzz_render inputs as they
 * run (knowing where each allocation is), the DxgkDdiPatch calls the
 * reference receives become fuzz_patch inputs, and the paging steps
 * become a fuzz_paging input.
 */
#define _POSIX_C_SOURCE 200809L /* mkdir, opendir */

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conformance.h"
#include "seeds_lib.h"
#include "util.h"
#include "reference.h"

#define MAX_PATCH_SEEDS_PER_CASE 4u

/* ------------------------------------------------------------------ */
/* Byte buffers                                                         */
/* ------------------------------------------------------------------ */

static void bytes_reserve(struct wk_bytes *b, size_t n)
{
    if (b->failed || b->size + n <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->size + n)
        cap *= 2;
    uint8_t *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = 1;
        return;
    }
    b->data = grown;
    b->cap = cap;
}

void wk_bytes_append(struct wk_bytes *b, const void *p, size_t n)
{
    bytes_reserve(b, n);
    if (b->failed || !n)
        return;
    memcpy(b->data + b->size, p, n);
    b->size += n;
}

void wk_bytes_put(struct wk_bytes *b, uint64_t v, unsigned bytes)
{
    uint8_t le[8];
    for (unsigned i = 0; i < bytes && i < 8; i++)
        le[i] = (uint8_t)(v >> (8 * i));
    wk_bytes_append(b, le, bytes < 8 ? bytes : 8);
}

void wk_bytes_free(struct wk_bytes *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------ */
/* User command buffers                                                 */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Files                                                                */
/* ------------------------------------------------------------------ */

/* A seed already written: two cases can give a harness the same input
 * (the same Patch call, the same paging operations), and a second file of
 * the same bytes only weighs that input twice. */
struct written_seed {
    const char *harness;
    uint64_t digest;
    size_t size;
};

struct gen {
    const char *out_dir;
    FILE *log;
    long written, duplicates;
    int failed;
    struct written_seed *seen;
    size_t nseen, cap;
};

static int make_dirs(const char *path)
{
    char buf[1200];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Removes the generated files of a seeds folder (not READMEs or notes). */
static void clean_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".bin") != 0)
            continue;
        char path[1200];
        if (wk_path_join(path, sizeof(path), dir, e->d_name))
            remove(path);
    }
    closedir(d);
}


/* Whether `harness` has a seed of these bytes already (then 1); records
 * them otherwise. Equal FNV-1a digest and size count as the same bytes: a
 * collision among a few thousand seeds would only drop one seed. */
static int seen_before(struct gen *g, const char *harness, const struct wk_bytes *b)
{
    uint64_t d = wk_fnv1a64(WK_FNV1A64_START, b->data, b->size);
    for (size_t i = 0; i < g->nseen; i++)
        if (g->seen[i].digest == d && g->seen[i].size == b->size && strcmp(g->seen[i].harness, harness) == 0)
            return 1;
    if (g->nseen == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1024;
        struct written_seed *v = realloc(g->seen, cap * sizeof(*v));
        if (!v)
            return 0; /* written again: harmless */
        g->seen = v;
        g->cap = cap;
    }
    g->seen[g->nseen++] = (struct written_seed){ harness, d, b->size };
    return 0;
}

static void write_seed(struct gen *g, const char *harness, const char *name, const struct wk_bytes *b)
{
    if (!b->failed && seen_before(g, harness, b)) {
        g->duplicates++;
        return;
    }
    char path[1200];
    snprintf(path, sizeof(path), "%s/%s/seeds/%s.bin", g->out_dir, harness, name);
    FILE *f = b->failed ? NULL : fopen(path, "wb");
    if (!f || fwrite(b->data, 1, b->size, f) != b->size || fclose(f) != 0) {
        if (g->log)
            fprintf(g->log, "wk_gen_seeds: cannot write %s\n", path);
        g->failed = 1;
        return;
    }
    g->written++;
}

/* ------------------------------------------------------------------ */
/* fuzz_prog                                                            */
/* ------------------------------------------------------------------ */

/* The case as a program input of `harness`, its answer corruption kept or
 * stripped. */
static void program_seed(struct gen *g, const char *harness, const struct wk_prog *p, int keep_rewrite)
{
    struct wk_prog *copy = malloc(sizeof(*copy));
    if (!copy) {
        g->failed = 1;
        return;
    }
    memcpy(copy, p, sizeof(*copy)); /* shallow: render payloads stay shared, encode only reads them */
    if (!keep_rewrite) {
        copy->has_rewrite = 0;
        memset(&copy->rewrite, 0, sizeof(copy->rewrite));
        copy->trips[0] = '\0';
    }
    struct wk_bytes b = { 0 };
    size_t n = wk_prog_encode(copy, NULL, 0);
    bytes_reserve(&b, n);
    if (!b.failed) {
        b.size = wk_prog_encode(copy, b.data, n);
        write_seed(g, harness, p->id, &b);
    }
    wk_bytes_free(&b);
    free(copy);
}

/* fuzz_prog looks for bugs in the driver: every case, uncorrupted. */
static void prog_seed(struct gen *g, const struct wk_prog *p)
{
    program_seed(g, "fuzz_prog", p, 0);
}

/* Whether a case drives a GPU virtual address space: it needs a GpuMmu
 * driver, which the harnesses' reference driver is not. */
static int uses_gpu_va(const struct wk_prog *p)
{
    for (uint32_t i = 0; i < p->step_count; i++)
        if (p->steps[i].kind == WK_STEP_VA_MAP || p->steps[i].kind == WK_STEP_VA_UNMAP)
            return 1;
    return 0;
}

/* fuzz_hostile looks for bugs in the kit under a hostile driver: the
 * negative cases, each with the corruption it is about; not those of GPU
 * virtual addressing, whose corruption only a GpuMmu driver's answers
 * reach (the harness's reference driver would skip them). */
static void hostile_seed(struct gen *g, const struct wk_prog *p)
{
    if (p->has_rewrite && !uses_gpu_va(p))
        program_seed(g, "fuzz_hostile", p, 1);
}

/* ------------------------------------------------------------------ */
/* fuzz_render                                                          */
/* ------------------------------------------------------------------ */

/* The slot standing for an allocation of `size` bytes in `segment` (0:
 * none known): one of that very size first (a reference's bounds are
 * checked against the size, so a bug at the end of an allocation shows
 * only at the same size), in the same segment when one is; else the
 * smallest that holds it, in the same segment when one does. */
static uint32_t slot_for(uint64_t size, uint32_t segment)
{
    uint32_t exact = 0, best = 0, any = 0;
    for (uint32_t s = 1; s <= WK_RENDER_SLOTS; s++) {
        const struct wk_render_slot *w = &wk_render_slots[s];
        if (w->size < size)
            continue;
        if (w->size == size && (!exact || (segment && w->segment == segment)))
            exact = s;
        if (!any || w->size < wk_render_slots[any].size)
            any = s;
        if (segment && w->segment == segment && (!best || w->size < wk_render_slots[best].size))
            best = s;
    }
    return exact ? exact : best ? best : any ? any : 5; /* 5: the largest */
}

/* Where an allocation is, or where it asked to be when it is not resident
 * (its first preferred segment; 0: none): a render step before the first
 * page-in found it nowhere, and segment 0 matched the slots that may go
 * anywhere, so a 16 KiB aperture allocation became the 32 KiB slot and the
 * seed lost the case's bug (an outsider's promoted off-by-one). */
static uint32_t segment_of(const struct wk_vidmm_allocation_state *st)
{
    return st->resident ? st->segment_id : st->preferred & 0x1Fu;
}

static void render_seed(struct gen *g, const struct wk_prog_exec *x, const struct wk_step *s, uint32_t step)
{
    const struct wk_prog_render *r = s->render;
    struct wk_bytes b = { 0 };
    wk_bytes_put(&b, r->no_prepatch_info ? WK_RENDER_NO_PREPATCH : 0, 1);
    wk_bytes_put(&b, r->list_length, 1);
    wk_bytes_put(&b, r->patch_length, 1); /* the step's user patch list, as is */
    wk_bytes_put(&b, 0, 1);
    for (uint32_t i = 0; i < r->list_length; i++) {
        uint32_t slot = 0, index = r->list_alloc[i];
        struct wk_vidmm_allocation_state st;
        if (index && index - 1 < x->nallocs && wk_vidmm_allocation_state(x->vm, x->allocs[index - 1], &st) == WK_OK)
            slot = slot_for(st.size, segment_of(&st));
        else if (index)
            slot = 1;
        wk_bytes_put(&b, slot | (r->list_write[i] ? WK_RENDER_WRITE : 0), 1);
    }
    for (uint32_t i = 0; i < r->patch_length; i++) {
        const struct wk_prog_patch_location *l = &r->patch[i];
        wk_bytes_put(&b, l->allocation_index, 4);
        wk_bytes_put(&b, (l->slot_id & 0xFFFFFFu) | (l->reserved & 0xFFu) << 24, 4);
        wk_bytes_put(&b, l->driver_id, 4);
        wk_bytes_put(&b, l->allocation_offset, 4);
        wk_bytes_put(&b, l->patch_offset, 4);
        wk_bytes_put(&b, l->split_offset, 4);
    }
    static uint8_t cmd[WK_RENDER_MAX_COMMAND];
    wk_bytes_append(&b, cmd, wk_prog_render_command(r, cmd, sizeof(cmd)));
    char name[160];
    snprintf(name, sizeof(name), "%s.%u", x->p->id, step);
    write_seed(g, "fuzz_render", name, &b);
    wk_bytes_free(&b);
}

/* ------------------------------------------------------------------ */
/* fuzz_patch: observed DxgkDdiPatch calls                              */
/* ------------------------------------------------------------------ */

struct observer {
    struct gen *g;
    const struct wk_prog *p;
    uint32_t patches;
};

static void patch_lists(struct wk_bytes *b, const DXGKARG_PATCH *a, uint32_t list_length, uint32_t count)
{
    for (uint32_t i = 0; i < list_length; i++) {
        const DXGK_ALLOCATIONLIST *e = &a->pAllocationList[i];
        wk_bytes_put(b, e->hDeviceSpecificAllocation ? 1 + i % WK_RENDER_SLOTS : 0, 1);
        wk_bytes_put(b, e->SegmentId | (e->WriteOperation ? 0x20u : 0), 1);
        wk_bytes_put(b, (uint64_t)e->PhysicalAddress.QuadPart, 8);
    }
    for (uint32_t i = 0; i < count; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &a->pPatchLocationList[a->PatchLocationListSubmissionStart + i];
        wk_bytes_put(b, p->AllocationIndex, 1);
        wk_bytes_put(b, (uint64_t)p->SlotId << 1, 1);
        wk_bytes_put(b, p->PatchOffset, 2);
        wk_bytes_put(b, p->AllocationOffset, 4);
        wk_bytes_put(b, p->SplitOffset, 2);
        wk_bytes_put(b, p->DriverId, 2);
    }
}

static void observe_patch(struct observer *o, const DXGKARG_PATCH *a)
{
    uint32_t list_length = a->AllocationListSize < WK_PATCH_MAX_LIST ? a->AllocationListSize : WK_PATCH_MAX_LIST;
    uint32_t count = a->PatchLocationListSubmissionLength;
    count = count < WK_PATCH_MAX_PATCH ? count : WK_PATCH_MAX_PATCH;
    if (a->Flags.Paging || o->patches >= MAX_PATCH_SEEDS_PER_CASE || a->DmaBufferSubmissionEndOffset > 0xFFFF)
        return;
    struct wk_bytes b = { 0 };
    wk_bytes_put(&b, list_length, 1);
    wk_bytes_put(&b, count, 1);
    wk_bytes_put(&b, a->DmaBufferSubmissionEndOffset, 2);
    wk_bytes_put(&b, a->DmaBufferSubmissionStartOffset, 2);
    wk_bytes_put(&b, 0, 1);     /* patch_start: the list starts at the submission's first entry */
    wk_bytes_put(&b, count, 1);
    patch_lists(&b, a, list_length, count);
    wk_bytes_append(&b, a->pDmaBuffer, a->DmaBufferSubmissionEndOffset);
    char name[160];
    snprintf(name, sizeof(name), "%s.%u", o->p->id, o->patches++);
    write_seed(o->g, "fuzz_patch", name, &b);
    wk_bytes_free(&b);
}

static void observe(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    if (ddi == WK_DDI_PATCH && args)
        observe_patch(user, args);
}

/* ------------------------------------------------------------------ */
/* fuzz_paging                                                          */
/* ------------------------------------------------------------------ */

static uint32_t template_for(const struct wk_prog_allocation *a)
{
    for (uint32_t t = 0; t < WK_PAGING_TEMPLATES; t++)
        if (wk_paging_templates[t].preferred == a->preferred && wk_paging_templates[t].supported == a->supported_set)
            return t;
    uint32_t first = a->preferred & 0x1F;
    if (first == 3 || a->supported_set == 0x4)
        return 2;
    return first == 1 ? 0 : first == 2 ? 1 : 3;
}

static uint32_t paging_buffer_index(uint32_t size)
{
    if (!size)
        return 0;
    for (uint32_t i = 1; i < WK_PAGING_BUFFER_SIZES; i++)
        if (wk_paging_buffer_sizes[i] >= size)
            return i;
    return 0;
}

/* The operation kind of a step, or -1 when it has none. */
static int paging_kind(const struct wk_step *s)
{
    switch (s->kind) {
    case WK_STEP_PAGE_IN: return WK_PAGING_OP_PAGE_IN;
    case WK_STEP_EVICT: return WK_PAGING_OP_EVICT;
    case WK_STEP_FILL: return WK_PAGING_OP_FILL;
    case WK_STEP_RELOCATE: return WK_PAGING_OP_RELOCATE;
    case WK_STEP_DISCARD: return WK_PAGING_OP_DISCARD;
    case WK_STEP_SPECIAL_LOCK_TRANSFER: return WK_PAGING_OP_LOCK;
    case WK_STEP_TOUCH_PHYSICAL: return s->relative ? WK_PAGING_OP_TOUCH : -1;
    case WK_STEP_SIGNAL_FENCE: return s->relative ? WK_PAGING_OP_FENCE : -1;
    case WK_STEP_WRITE: return WK_PAGING_OP_WRITE;
    default: return -1;
    }
}

/* The 16-bit argument that reproduces the step's own as closely as the
 * format allows (fuzz_paging.c derives values from it). */
static uint32_t paging_arg(const struct wk_step *s, int kind)
{
    switch (kind) {
    case WK_PAGING_OP_FILL: return (uint32_t)(s->value >> 16) & 0xFFFF;
    case WK_PAGING_OP_RELOCATE: return s->segment ? s->segment - 1 : 0;
    case WK_PAGING_OP_TOUCH: return (uint32_t)(((s->offset / 8) << 1 | (s->write ? 1u : 0u)) & 0xFFFF);
    default: return (uint32_t)(s->offset / 8) & 0xFFFF;
    }
}

static void paging_ops(struct wk_bytes *b, const struct wk_prog *p, uint32_t nallocs, uint32_t *ops)
{
    for (uint32_t i = 0; i < p->step_count && *ops < WK_PAGING_MAX_OPS; i++) {
        const struct wk_step *s = &p->steps[i];
        int kind = paging_kind(s);
        if (kind < 0 || s->allocation >= nallocs)
            continue;
        wk_bytes_put(b, (uint64_t)kind, 1);
        wk_bytes_put(b, s->allocation, 1);
        wk_bytes_put(b, paging_arg(s, kind), 2);
        ++*ops;
    }
}

static void paging_seed(struct gen *g, const struct wk_prog *p)
{
    struct wk_bytes b = { 0 };
    uint32_t nallocs = 0, ops = 0;
    for (uint32_t i = 0; i < p->step_count; i++)
        nallocs += p->steps[i].kind == WK_STEP_CREATE_ALLOCATION;
    nallocs = nallocs < WK_PAGING_MAX_ALLOCS ? nallocs : WK_PAGING_MAX_ALLOCS;
    if (!nallocs)
        return;
    wk_bytes_put(&b, paging_buffer_index(p->vidmm.paging_buffer_size), 1);
    uint64_t chunk = p->vidmm.transfer_chunk / WK_GPU_PAGE_SIZE;
    wk_bytes_put(&b, chunk < WK_PAGING_MAX_CHUNK ? chunk : WK_PAGING_MAX_CHUNK, 1);
    wk_bytes_put(&b, nallocs - 1, 1);
    wk_bytes_put(&b, 0, 1);
    for (uint32_t i = 0, n = 0; i < p->step_count && n < nallocs; i++) {
        const struct wk_prog_allocation *a = &p->steps[i].alloc;
        if (p->steps[i].kind != WK_STEP_CREATE_ALLOCATION)
            continue;
        uint64_t pages = (a->size + WK_GPU_PAGE_SIZE - 1) / WK_GPU_PAGE_SIZE;
        uint32_t bank = a->hinted_bank & 0x7F; /* Bank0; the format reads 1 + byte % 4 */
        pages = pages < 1 ? 1 : pages > WK_PAGING_MAX_PAGES ? WK_PAGING_MAX_PAGES : pages;
        wk_bytes_put(&b, template_for(a), 1);
        wk_bytes_put(&b, pages - 1, 1);
        wk_bytes_put(&b, bank && bank <= 4 ? bank + 3 : 0, 1);
        wk_bytes_put(&b, a->flags & 1, 1);
        n++;
    }
    paging_ops(&b, p, nallocs, &ops);
    if (ops)
        write_seed(g, "fuzz_paging", p->id, &b);
    wk_bytes_free(&b);
}

/* ------------------------------------------------------------------ */
/* Running a case on the reference                                      */
/* ------------------------------------------------------------------ */

static struct wk_vidmm *reference_adapter(const struct wk_prog *p)
{
    struct wk_vidmm_config cfg = p->vidmm;
    cfg.gpu = &p->gpu;
    cfg.ddi_timeout_ms = UINT32_MAX;
    struct wk_vidmm *vm = NULL;
    if (wk_vidmm_create(&cfg, &vm) != WK_OK)
        return NULL;
    if (wk_vidmm_attach(vm, wk_refdriver_DriverEntry) != WK_OK || wk_vidmm_start(vm) != WK_OK) {
        wk_vidmm_destroy(vm);
        return NULL;
    }
    return vm;
}

static void observe_case(struct gen *g, const struct wk_prog *p)
{
    struct wk_vidmm *vm = reference_adapter(p);
    if (!vm) {
        if (g->log)
            fprintf(g->log, "wk_gen_seeds: %s: the reference adapter does not start; no render/patch seeds\n", p->id);
        return;
    }
    struct observer o = { g, p, 0 };
    struct wk_case_result r;
    struct wk_prog_exec x;
    wk_vidmm_set_rewriter(vm, observe, &o);
    wk_prog_exec_init(&x, p, vm, &r);
    for (uint32_t i = 0; i < p->step_count; i++) {
        int failed = 0;
        if (p->steps[i].kind == WK_STEP_RENDER && p->steps[i].render)
            render_seed(g, &x, &p->steps[i], i);
        wk_prog_exec_step(&x, &p->steps[i], &failed);
    }
    wk_vidmm_destroy(vm);
}

/* ------------------------------------------------------------------ */
/* Everything                                                           */
/* ------------------------------------------------------------------ */

const char *const wk_seeded_harnesses[] = { "fuzz_prog", "fuzz_render", "fuzz_patch", "fuzz_paging",
                                            "fuzz_hostile", NULL };
#define SEEDED_HARNESSES (sizeof(wk_seeded_harnesses) / sizeof(wk_seeded_harnesses[0]) - 1)

static int prepare_dirs(struct gen *g)
{
    for (size_t i = 0; i < SEEDED_HARNESSES; i++) {
        char dir[1024];
        snprintf(dir, sizeof(dir), "%s/%s/seeds", g->out_dir, wk_seeded_harnesses[i]);
        if (make_dirs(dir) != 0) {
            if (g->log)
                fprintf(g->log, "wk_gen_seeds: cannot create %s: %s\n", dir, strerror(errno));
            return -1;
        }
        clean_dir(dir);
    }
    return 0;
}

long wk_seeds_generate(const char *specs_dir, const char *out_dir, FILE *log)
{
    struct gen g = { out_dir, log, 0, 0, 0, NULL, 0, 0 };
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 0);
    wk_status st = wk_spec_load_dir(&set, specs_dir, &d);
    if (st != WK_OK || prepare_dirs(&g) != 0) {
        if (log && st != WK_OK)
            wk_diag_print(&d, log);
        g.failed = 1;
    }
    for (uint32_t i = 0; i < set.count && !g.failed; i++) {
        const struct wk_prog *p = set.progs[i];
        prog_seed(&g, p);
        hostile_seed(&g, p);
        paging_seed(&g, p);
        observe_case(&g, p);
    }
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    free(g.seen);
    return g.failed ? -1 : g.written;
}

/* ------------------------------------------------------------------ */
/* Checking committed seeds                                             */
/* ------------------------------------------------------------------ */

static int is_seed_file(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n >= 5 && strcmp(name + n - 4, ".bin") == 0;
}


static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The seed files of `from` that `other` lacks (reported as `missing`) or,
 * when `contents`, holds with other bytes; each named by its path in the
 * committed folder (`from` when from_committed, else `other`). The count. */
static long compare_seeds(const char *from, const char *other, int from_committed, const char *missing, int contents,
                          FILE *log)
{
    long bad = 0;
    DIR *d = opendir(from);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!is_seed_file(e->d_name))
            continue;
        char a[1200], b[1200];
        snprintf(a, sizeof(a), "%s/%s", from, e->d_name);
        snprintf(b, sizeof(b), "%s/%s", other, e->d_name);
        int present = exists(b);
        if (present && (!contents || wk_file_same(a, b)))
            continue;
        if (log)
            fprintf(log, "%s: %s\n", from_committed ? a : b, present ? "differs from what the specs give" : missing);
        bad++;
    }
    if (d)
        closedir(d);
    return bad;
}

long wk_seeds_check(const char *specs_dir, const char *corpus_dir, const char *scratch_dir, FILE *log)
{
    if (wk_seeds_generate(specs_dir, scratch_dir, log) < 0)
        return -1;
    long bad = 0;
    for (size_t i = 0; i < SEEDED_HARNESSES; i++) {
        char have[1024], want[1024];
        snprintf(have, sizeof(have), "%s/%s/seeds", corpus_dir, wk_seeded_harnesses[i]);
        snprintf(want, sizeof(want), "%s/%s/seeds", scratch_dir, wk_seeded_harnesses[i]);
        bad += compare_seeds(want, have, 0, "missing (a spec gives it)", 0, log);
        bad += compare_seeds(have, want, 1, "no spec gives it", 1, log);
    }
    return bad;
}

/* Removes a scratch tree of --check: root/<harness>/seeds/<files>. */
static void remove_tree(const char *root)
{
    for (size_t h = 0; wk_seeded_harnesses[h]; h++) {
        char dir[1300], sub[1200];
        snprintf(sub, sizeof(sub), "%s/%s", root, wk_seeded_harnesses[h]);
        snprintf(dir, sizeof(dir), "%s/seeds", sub);
        DIR *d = opendir(dir);
        for (struct dirent *e; d && (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char path[2500];
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            unlink(path);
        }
        if (d)
            closedir(d);
        rmdir(dir);
        rmdir(sub);
    }
    rmdir(root);
}

long wk_seeds_check_fresh(const char *specs_dir, const char *corpus_dir, FILE *log)
{
    const char *tmp = getenv("TMPDIR");
    char scratch[1024];
    snprintf(scratch, sizeof(scratch), "%s/wddmkit-seeds-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
        if (log)
            fprintf(log, "wddmkit corpus seed: cannot make a scratch folder: %s\n", strerror(errno));
        return -1;
    }
    long bad = wk_seeds_check(specs_dir, corpus_dir, scratch, log);
    remove_tree(scratch);
    return bad;
}
