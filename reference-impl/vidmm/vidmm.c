/* SPDX-License-Identifier: MIT */
/*
 * vidmm.c - creating and destroying the reference video memory manager, and
 * host access to allocations for expectations.
 *
 * Everything a wk_vidmm owns hangs off it: the GPU model, the driver it
 * loaded, the segment heaps, the system-page heap and the object tables. Two
 * instances share nothing, and the same seed gives the same run.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

static void apply_defaults(struct wk_vidmm_config *c)
{
    /* max_passes 0 stays 0: the guard of each operation's own size
     * (paging.c, guard_passes), not a bound a case chose */
    if (!c->ddi_timeout_ms)
        c->ddi_timeout_ms = WK_VIDMM_DDI_TIMEOUT_MS;
    if (c->query_segment_version != 4)
        c->query_segment_version = 3;
    if (!c->first_fence)
        c->first_fence = 1; /* 0 is never a fence id (submit.c, fence_next) */
}

static wk_status build(struct wk_vidmm *vm)
{
    char why[256];
    const struct wk_gpu_desc *d = vm->cfg.gpu ? vm->cfg.gpu : wk_gpu_reference_desc();
    /* A binding's segments are its hardware's: the driver reports them,
     * and its processor runs there (binding.h). System memory is the
     * host's, not the GPU's: its pages and the budgets stay the caller's
     * (a case's `system:`), the binding's only when the caller gives none. */
    struct wk_gpu_desc merged;
    if (vm->cfg.binding && vm->cfg.binding->memory) {
        merged = vm->cfg.gpu ? *vm->cfg.gpu : *vm->cfg.binding->memory;
        merged.segment_count = vm->cfg.binding->memory->segment_count;
        merged.segments = vm->cfg.binding->memory->segments;
        d = &merged;
    }
    /* Segments a BAR shows to the CPU are built mappable: MmMapIoSpace of
     * the BAR maps the segment's own bytes (bars.c, regwin.c). */
    struct wk_gpu_options opt = { .mappable_segments = bars_cpu_view_segments(vm->cfg.binding) };
    if (wk_gpu_create_ex(d, &opt, &vm->gpu, why, sizeof(why)) != WK_OK)
        return fail(vm, WK_E_INVALID_ARGUMENT, "bad adapter description: %s", why);
    vm->gpu_desc = *wk_gpu_description(vm->gpu);
    vm->cfg.gpu = NULL; /* the caller's description need not outlive create */
    if (wk_place_create(vm->gpu_desc.sysmem_pages * PAGE, &vm->sys_heap) != WK_OK ||
        !(vm->kit_run = calloc(vm->gpu_desc.sysmem_pages, sizeof(*vm->kit_run))))
        return fail(vm, WK_E_NO_MEMORY, "out of memory for the system-page heap");
    sysmem_rewind(vm);
    uint64_t dummy;
    if (sysmem_pages_alloc(vm, 1, 1, &dummy) != WK_OK)
        return fail(vm, WK_E_NO_SPACE, "no system page for the dummy page");
    vm->dummy_pfn = dummy;
    return WK_OK;
}

/* The guarded buffers a case's adapter takes for its DDI arguments, by
 * size (data pages + the guard), as counted over the suite (strace -k of
 * `conform -j 1 specs/contexts.yaml`: per case up to 11 mappings of 8 KiB
 * and 3 of 12 KiB, 7.6 and 2.3 on average). One more is mapped as before
 * when these run out. */
static const struct {
    uint64_t map_len;
    uint32_t count;
} ahead[] = { { 2 * WK_GPU_PAGE_SIZE, 12 }, { 3 * WK_GPU_PAGE_SIZE, 4 } };

void wk_vidmm_prepare_process(void)
{
    call_install_handlers();
    wk_gpu_prepare_process();
    for (size_t i = 0; i < sizeof(ahead) / sizeof(ahead[0]); i++)
        gbuf_park_ahead(ahead[i].map_len, ahead[i].count);
}

static uint64_t adapters_created; /* atomic: adapters may be made on several threads */

uint64_t wk_vidmm_adapters_created(void)
{
    return __atomic_load_n(&adapters_created, __ATOMIC_RELAXED);
}

wk_status wk_vidmm_create(const struct wk_vidmm_config *cfg, struct wk_vidmm **out)
{
    *out = NULL;
    struct wk_vidmm *vm = calloc(1, sizeof(*vm));
    if (!vm)
        return WK_E_NO_MEMORY;
    vm->magic = VIDMM_MAGIC;
    objects_init(vm); /* empty tables that grow as objects come (handles.h) */
    km_register(vm);
    if (cfg)
        vm->cfg = *cfg;
    if (vm->cfg.registry) /* the caller's map need not outlive create */
        vm->registry = *vm->cfg.registry;
    vm->cfg.registry = NULL;
    if (vm->cfg.pci_config)
        memcpy(vm->pci_config, vm->cfg.pci_config, sizeof(vm->pci_config));
    else
        wk_vidmm_default_pci_config(vm->pci_config);
    vm->cfg.pci_config = NULL;
    apply_defaults(&vm->cfg);
    vm->next_fence = vm->cfg.first_fence - 1; /* the id last handed out, before the first */
    pthread_mutex_init(&vm->bind_lock, NULL);
    call_install_handlers();
    wk_status st = build(vm);
    if (st == WK_OK)
        st = binding_attach(vm);
    if (st != WK_OK) {
        wk_vidmm_destroy(vm);
        return st;
    }
    __atomic_fetch_add(&adapters_created, 1, __ATOMIC_RELAXED);
    *out = vm;
    return WK_OK;
}

/* StopDevice when the adapter started; RemoveDevice whenever AddDevice
 * gave a context, as Windows removes a device whose start failed: the
 * driver frees its AddDevice context there, which otherwise leaked. */
static void stop_driver(struct wk_vidmm *vm)
{
    if (!vm->added || vm->dead)
        return;
    wk_status crashed;
    NTSTATUS st;
    if (vm->started)
        (void)km_run_queued_dpcs(vm); /* what the driver queued runs before it stops */
    if (!vm->dead && vm->started && vm->ddi.DxgkDdiStopDevice)
        DDI_CALL(vm, WK_DDI_STOP_DEVICE, crashed, st = vm->ddi.DxgkDdiStopDevice(vm->miniport));
    if (!vm->dead && vm->ddi.DxgkDdiRemoveDevice)
        DDI_CALL(vm, WK_DDI_REMOVE_DEVICE, crashed, st = vm->ddi.DxgkDdiRemoveDevice(vm->miniport));
    (void)crashed;
    (void)st;
}

/* DxgkDdiUnload once the last device is gone, as Windows unloads a
 * miniport; then THREAD-LEAK-001 for system threads still running
 * (R_THREAD_LEAK), POOL-LEAK-001 for the pool left (R_POOL_LEAK) and
 * MEM-LEAK-001 for I/O space mappings and contiguous blocks left
 * (R_MEM_LEAK): what DriverEntry started counts only when there was an
 * Unload to end it. A driver other adapters share (driver_once.c) stays
 * loaded: Windows calls Unload once, after the last adapter of the load,
 * and the next DriverEntry would be a fresh image's. */
static void unload_driver(struct wk_vidmm *vm)
{
    if (!vm->have_ddi || vm->dead)
        return;
    int unloaded = 0;
    if (vm->ddi.DxgkDdiUnload && !vm->driver_shared) {
        wk_status crashed;
        DDI_CALL(vm, WK_DDI_UNLOAD, crashed, vm->ddi.DxgkDdiUnload());
        unloaded = crashed == WK_OK;
    }
    if (!vm->dead) {
        km_check_thread_leaks(vm, unloaded); /* first: a worker may still free pool */
        km_check_pool_leaks(vm, unloaded);
        km_check_memory_leaks(vm, unloaded);
    }
}

/* Every live device destroyed through its DDIs, oldest first (it takes
 * its contexts and allocations with it), until the adapter dies. */
static void destroy_devices(struct wk_vidmm *vm)
{
    struct ht_iter it;
    for (uint32_t d = ht_iter_first(&vm->devices, &it); d && !vm->dead; d = ht_iter_next(&vm->devices, &it))
        if (device_get(vm, d)->live)
            wk_vidmm_destroy_device(vm, d);
}

/* residency_release of every live allocation, oldest first (an aperture's
 * UNMAP is a DDI call: the order is the driver's to see); a stop leaves
 * them once the adapter is dead, a reset gives every block back. */
static void release_residency(struct wk_vidmm *vm, int unless_dead)
{
    struct ht_iter it;
    for (uint32_t h = ht_iter_first(&vm->allocs, &it); h; h = ht_iter_next(&vm->allocs, &it)) {
        struct allocation *a = allocation_get(vm, h);
        if (a && !(unless_dead && vm->dead))
            residency_release(vm, a);
    }
}

static void release_objects(struct wk_vidmm *vm)
{
    gpuva_release_processes(vm, !vm->dead && vm->started); /* the address spaces, before the devices */
    if (!vm->dead && vm->started) {
        destroy_devices(vm);
        gpuva_end_processes(vm, !vm->dead); /* the processes, after their devices */
        system_context_destroy(vm); /* the kernel's own, last: before StopDevice (stop_driver) */
    }
    dmaq_drain(vm, 0); /* judged when the last device went; dead: nothing is */
    release_residency(vm, 1);
    /* The paging process after the last paging operation (an aperture's
     * UNMAP above), which a driver may run in it. */
    gpuva_release(vm, !vm->dead && vm->started);
    gpuva_end_processes(vm, !vm->dead && vm->started);
    for (uint32_t c = 1; c <= vm->contexts.top; c++) { /* every slot: a dead one holds nothing */
        struct context *x = ht_slot(&vm->contexts, c);
        patch_view_free(vm, x);
        dma_unplace(vm, x); /* already done for a context destroyed through its DDI */
        gbuf_free(vm, &x->dma);
        gbuf_free(vm, &x->dma_private);
        gbuf_free(vm, &x->alloc_list);
        gbuf_free(vm, &x->patch_list);
    }
    for (uint32_t a = 1; a <= vm->allocs.top; a++) {
        struct allocation *x = ht_slot(&vm->allocs, a);
        mdl_release(vm, &x->mdl);
        free(x->pfns);
        x->pfns = NULL;
    }
    paging_unplace(vm, 0);
    paging_view_free(vm);
    gbuf_free(vm, &vm->paging);
    gbuf_free(vm, &vm->paging_private);
}

/* Every heap's trees in the shape their contents give (wk_place_rebuild),
 * at the end of a start, a reset and a reconfigure: where an allocation
 * lands, and how the search gets there, then depend on the input alone,
 * not on whether the adapter is fresh or on what the inputs before freed
 * in which order. */
void heaps_rebuild(struct wk_vidmm *vm)
{
    for (uint32_t i = 1; i <= vm->nseg && i <= MAX_SEGMENTS; i++) { /* the driver's segments: the others have no heap */
        wk_place_rebuild(vm->seg[i].heap);
        free(vm->seg[i].mapped_once); /* as after start: no page mapped yet */
        vm->seg[i].mapped_once = NULL;
    }
    wk_place_rebuild(vm->sys_heap);
}

/*
 * Back to "started, with no objects": destroys every device (contexts and
 * allocations with it) through the DDIs, drains the GPU, resets the model,
 * and puts the counters back where the start left them. Costs the objects
 * and pages the last run created, so a fuzz harness can keep one started
 * adapter for millions of inputs.
 */
wk_status wk_vidmm_reset(struct wk_vidmm *vm)
{
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash: create a new one");
    if (!vm->started)
        return fail(vm, WK_E_STATE, "the adapter is not started");
    submit_wait(vm, 0);
    gpuva_release_processes(vm, 1);
    destroy_devices(vm);
    gpuva_end_processes(vm, !vm->dead);
    if (vm->dead)
        return WK_E_DEAD;
    dmaq_drain(vm, 0); /* the pool as after start: the same frames for the same input */
    release_residency(vm, 0);
    gpuva_release(vm, 1); /* the paging process after the last paging operation, which may run in it */
    gpuva_end_processes(vm, !vm->dead);
    if (vm->dead)
        return WK_E_DEAD;
    aperture_view_forget(vm);
    for (uint32_t a = 1; a <= vm->allocs.top; a++)
        free(((struct allocation *)ht_slot(&vm->allocs, a))->pfns);
    /* handles from 1 again, as on a fresh adapter */
    ht_clear(&vm->devices);
    ht_clear(&vm->contexts);
    ht_clear(&vm->allocs);
    hmap_clear(&vm->alloc_by_driver);
    vm->ctxalloc_head = vm->ctxalloc_tail = 0;
    vm->placement_epoch++; /* handles are reused after a reset */
    vm->npending = 0;
    vm->hold = 0;
    memset(&vm->queue, 0, sizeof(vm->queue));
    vm->implied_next = 0;
    vm->render_submits = 0, vm->device_error_armed = 0;
    memset(&vm->pfw, 0, sizeof(vm->pfw));
    memset(&vm->pf_reset, 0, sizeof(vm->pf_reset));
    vm->doorbells = 0; /* the GPU's reset numbers its doorbells anew */
    vm->bind_faulted_count = 0, vm->bind_last_root = 0, vm->ignored_interrupt = 0, vm->sync_depth = 0;
    vm->unpatched = vm->unpatched_context = 0;
    vm->irq_ignored = 0;
    paging_reset_gpu(vm);
    sysmem_rewind(vm); /* the system-page heap is as after start: so is the scatter */
    heaps_rebuild(vm);
    vm->stats = vm->stats_at_start; /* a fresh adapter has counted its start */
    vm->semantic_skipped = 0;
    vm->binding_skipped[0] = vm->binding_skipped[1] = 0;
    vm->choice_skipped = 0;
    memset(vm->rule_hits, 0, sizeof(vm->rule_hits));
    vm->violation_total = 0;
    vm->last_error[0] = '\0';
    return WK_OK;
}

/* The fields wk_vidmm_reconfigure may change: each is read per operation
 * (paging.c, paging_ops.c, render.c), or only by the paging buffer's size
 * and the scatter, which it rebuilds. */
static int same_fixed_fields(const struct wk_vidmm_config *a, const struct wk_vidmm_config *b)
{
    return a->ddi_timeout_ms == b->ddi_timeout_ms && a->query_segment_version == b->query_segment_version &&
           a->no_guard_pages == b->no_guard_pages && a->no_model == b->no_model &&
           a->binding == b->binding && a->paging_buffer_largest == b->paging_buffer_largest &&
           a->first_fence == b->first_fence; /* fence ids keep rising across a reset: only a new adapter starts anew */
}

wk_status wk_vidmm_reconfigure(struct wk_vidmm *vm, const struct wk_vidmm_config *cfg)
{
    struct wk_vidmm_config want = *cfg;
    apply_defaults(&want);
    want.gpu = NULL;
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash: create a new one");
    if (!vm->started || vm->stopped || vm->devices.top || vm->allocs.top || vm->npending)
        return fail(vm, WK_E_STATE, "reconfigure a started adapter right after wk_vidmm_reset");
    if (cfg->gpu || !same_fixed_fields(&vm->cfg, &want))
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "only the paging knobs, max_passes and the seed can change without a new adapter (gpu must be NULL)");
    vm->cfg = want;
    paging_resize(vm);
    sysmem_rewind(vm);
    heaps_rebuild(vm);
    return WK_OK;
}

wk_status wk_vidmm_stop(struct wk_vidmm *vm)
{
    if (vm->stopped)
        return WK_OK;
    release_objects(vm);
    gbuf_release_spares(vm);
    stop_driver(vm);
    unload_driver(vm);
    vm->stopped = 1;
    return vm->dead ? WK_E_DEAD : WK_OK;
}

void wk_vidmm_destroy(struct wk_vidmm *vm)
{
    if (!vm)
        return;
    wk_vidmm_stop(vm);
    gbuf_free(vm, &vm->pdo_buf); /* the driver had it until RemoveDevice and Unload */
    gbuf_release_spares(vm);
    km_unregister(vm);
    /* Not every slot of seg[]: 31 segments are 9 pages, which a case's
     * process, fresh, faulted in only to read zeroes (6 faults a case). */
    for (uint32_t i = 1; i <= vm->seg_top && i <= MAX_SEGMENTS; i++) {
        wk_place_destroy(vm->seg[i].heap);
        free(vm->seg[i].mapped_once);
    }
    wk_place_destroy(vm->sys_heap);
    free(vm->kit_run);
    binding_detach(vm);
    wk_gpu_destroy(vm->gpu);
    objects_free(vm);
    if (vm->so && !vm->dead)
        dlclose(vm->so); /* a dead driver may have left state pointing into itself */
    pthread_mutex_destroy(&vm->bind_lock);
    vm->magic = 0;
    free(vm);
}

void wk_vidmm_set_rewriter(struct wk_vidmm *vm, wk_vidmm_rewrite_fn *fn, void *user)
{
    vm->rewrite = fn;
    vm->rewrite_user = user;
}

struct wk_gpu *wk_vidmm_gpu(struct wk_vidmm *vm)
{
    return vm->gpu;
}

void wk_vidmm_get_stats(const struct wk_vidmm *vm, struct wk_vidmm_stats *out)
{
    *out = vm->stats;
}

void wk_vidmm_driver_caps(const struct wk_vidmm *vm, DXGK_DRIVERCAPS *caps)
{
    *caps = vm->caps;
}

/* 0 is read as no limit: a driver that left DRIVERCAPS zeroed would
 * otherwise be refused every adapter. An outsider's 32-bit GPU, which
 * reports 0xFFFFFFFF, failed a transfer to system pages at 6 GiB. */
const char *wk_vidmm_system_unreachable(const struct wk_vidmm *vm, char *why, size_t size)
{
    uint64_t first = vm->gpu_desc.sysmem_first_pfn * WK_GPU_PAGE_SIZE;
    uint64_t end = first + vm->gpu_desc.sysmem_pages * WK_GPU_PAGE_SIZE;
    uint64_t highest = (uint64_t)vm->caps.HighestAcceptableAddress.QuadPart;
    if (!highest || end <= first || end - 1 <= highest)
        return NULL;
    snprintf(why, size,
             "the adapter's system memory reaches 0x%llx, above the driver's DXGK_DRIVERCAPS.HighestAcceptableAddress "
             "0x%llx: VidMm hands a driver only system pages below it",
             (unsigned long long)(end - 1), (unsigned long long)highest);
    return why;
}

int wk_vidmm_has_ddi(const struct wk_vidmm *vm, enum wk_ddi ddi)
{
    const DRIVER_INITIALIZATION_DATA *d = &vm->ddi;
    switch (ddi) {
    case WK_DDI_CREATE_DEVICE: return d->DxgkDdiCreateDevice != NULL;
    case WK_DDI_CREATE_CONTEXT: return d->DxgkDdiCreateContext != NULL;
    case WK_DDI_CREATE_ALLOCATION: return d->DxgkDdiCreateAllocation != NULL;
    case WK_DDI_BUILD_PAGING_BUFFER: return d->DxgkDdiBuildPagingBuffer != NULL;
    case WK_DDI_RENDER: return d->DxgkDdiRender != NULL;
    case WK_DDI_PATCH: return d->DxgkDdiPatch != NULL;
    case WK_DDI_SUBMIT_COMMAND: return d->DxgkDdiSubmitCommand != NULL;
    case WK_DDI_CANCEL_COMMAND: return d->DxgkDdiCancelCommand != NULL;
    case WK_DDI_INTERRUPT_ROUTINE: return d->DxgkDdiInterruptRoutine != NULL;
    case WK_DDI_DPC_ROUTINE: return d->DxgkDdiDpcRoutine != NULL;
    default: return vm->have_ddi;
    }
}

/* ------------------------------------------------------------------ */
/* Host access to allocations                                           */
/* ------------------------------------------------------------------ */

/* The GPU address of byte `off` of an allocation, wherever it lives; 0 when
 * it has no storage yet (never paged in: it reads as zero). */
/* Where byte `off` of an allocation lives: in its memory segment, or in
 * the system page that holds it; 0 when it has no place (never written).
 * GPU address 0 is a place like any other (a segment may start there), so
 * the answer is the return value, the address in *addr. */
static int byte_address(struct wk_vidmm *vm, const struct allocation *a, uint64_t off, uint64_t *addr)
{
    if (a->resident && segment_get(vm, a->segment)->memory) {
        *addr = segment_get(vm, a->segment)->base + a->offset + off;
        return 1;
    }
    if (a->pfns) {
        *addr = (a->pfns[off / PAGE] << WK_GPU_PAGE_SHIFT) + off % PAGE;
        return 1;
    }
    return 0;
}

static wk_status access_allocation(struct wk_vidmm *vm, uint32_t h, uint64_t off, void *buf,
                                   uint64_t len, int write)
{
    struct allocation *a = allocation_get(vm, h);
    if (!a)
        return fail(vm, WK_E_NOT_FOUND, "no allocation %u", h);
    if (off > a->size || len > a->size - off)
        return fail(vm, WK_E_OUT_OF_RANGE, "bytes [%llu, +%llu) are outside allocation %u (%llu bytes)",
                    (unsigned long long)off, (unsigned long long)len, h, (unsigned long long)a->size);
    if (write && !a->resident && !a->pfns) {
        wk_status st = residency_place(vm, a);
        if (st != WK_OK)
            return st;
    }
    /* no_model: the bytes of an allocation are what the driver's own GPU
     * made of them, which nothing here models; the driver's segments need
     * not be the model's. A write is placed (that is the contract's part)
     * and its bytes dropped; a read sees zeroes. Only semantic checks read
     * them, and those are skipped. */
    if (vm->cfg.no_model) {
        if (write)
            a->has_content = 1;
        else
            memset(buf, 0, len);
        (void)semantic_check(vm);
        return WK_OK;
    }
    uint8_t *p = buf;
    for (uint64_t done = 0; done < len;) {
        uint64_t at = off + done, n = PAGE - at % PAGE;
        n = n < len - done ? n : len - done;
        uint64_t addr = 0;
        wk_status st = WK_OK;
        if (!byte_address(vm, a, at, &addr))
            memset(p + done, 0, n);
        else
            st = write ? wk_gpu_write(vm->gpu, addr, p + done, n) : wk_gpu_read(vm->gpu, addr, p + done, n);
        if (st != WK_OK)
            return fail(vm, st, "allocation %u byte %llu is not reachable (%s)", h,
                        (unsigned long long)at, wk_status_str(st));
        done += n;
    }
    if (write)
        a->has_content = 1;
    return WK_OK;
}

wk_status wk_vidmm_read(struct wk_vidmm *vm, uint32_t allocation, uint64_t offset, void *buf, uint64_t len)
{
    return access_allocation(vm, allocation, offset, buf, len, 0);
}

/*
 * Bytes of one page of an allocation where the model keeps them, for
 * comparing two adapters' allocations without copying either (the fuzz
 * harnesses' differential check reads every allocation of both sides after
 * every input: through wk_vidmm_read that was a copy per page per side, and
 * the compare ran over the copies). NULL: the bytes read as zeroes (no
 * storage yet, or model memory never written). A view that is not one
 * contiguous host span (never within a page today) is copied into
 * `scratch` instead, so the answer is always whole.
 */
wk_status wk_vidmm_peek(struct wk_vidmm *vm, uint32_t allocation, uint64_t offset, uint64_t len,
                        void *scratch, const uint8_t **data)
{
    *data = NULL;
    struct allocation *a = allocation_get(vm, allocation);
    if (!a)
        return fail(vm, WK_E_NOT_FOUND, "no allocation %u", allocation);
    if (offset > a->size || len > a->size - offset || offset % PAGE + len > PAGE)
        return fail(vm, WK_E_OUT_OF_RANGE, "bytes [%llu, +%llu) are not within one page of allocation %u (%llu bytes)",
                    (unsigned long long)offset, (unsigned long long)len, allocation, (unsigned long long)a->size);
    uint64_t addr = 0;
    if (!byte_address(vm, a, offset, &addr) || len == 0)
        return WK_OK;
    struct wk_gpu_view v;
    struct wk_gpu_span span;
    wk_status st = wk_gpu_view_begin(vm->gpu, addr, len, &v);
    if (st != WK_OK)
        return fail(vm, st, "allocation %u byte %llu is not reachable (%s)", allocation,
                    (unsigned long long)offset, wk_status_str(st));
    if (wk_gpu_view_next(&v, &span) && span.length >= len) {
        *data = span.data;
        return WK_OK;
    }
    st = wk_vidmm_read(vm, allocation, offset, scratch, len);
    *data = st == WK_OK ? scratch : NULL;
    return st;
}

wk_status wk_vidmm_write(struct wk_vidmm *vm, uint32_t allocation, uint64_t offset, const void *buf,
                         uint64_t len)
{
    return access_allocation(vm, allocation, offset, (void *)(uintptr_t)buf, len, 1);
}

/*
 * The digest of docs/gpu-model.md ("Digest"), page by page from where the
 * allocation lives: the same value as wk_gpu_digest_bytes over its bytes
 * (tests/test_vidmm_kitgaps.c checks the two agree), without copying the
 * allocation into one buffer, and with the chunk value of a page of zeros
 * known in advance: most pages of an input's allocations were filled with
 * zero at page-in and never written, and cost a memcmp instead of 512
 * rounds of the mixer.
 */
#define ZERO_PAGE_CHUNK 0x1E44884E4DCED808ull /* wk_gpu_digest_chunk of 4096 zeros */

static uint64_t chunk_value(const uint8_t *b, uint64_t n)
{
    static const uint8_t zeros[PAGE];
    if (n == PAGE && memcmp(b, zeros, PAGE) == 0)
        return ZERO_PAGE_CHUNK;
    return wk_gpu_digest_chunk(b, n);
}

/* Pages are read into two buffers in turn, so that a page equal to the one
 * before it (an allocation filled with one pattern) reuses its chunk value:
 * a memcmp instead of 512 rounds of the mixer. */
wk_status wk_vidmm_digest(struct wk_vidmm *vm, uint32_t allocation, uint64_t *digest)
{
    return wk_vidmm_digest_first(vm, allocation, 0, digest);
}

wk_status wk_vidmm_digest_first(struct wk_vidmm *vm, uint32_t allocation, uint64_t bytes, uint64_t *digest)
{
    struct allocation *a = allocation_get(vm, allocation);
    if (!a)
        return fail(vm, WK_E_NOT_FOUND, "no allocation %u", allocation);
    uint64_t size = bytes && bytes < a->size ? bytes : a->size;
    uint8_t page[2][PAGE];
    uint64_t h = WK_GPU_DIGEST_START, c = 0;
    for (uint64_t at = 0, k = 0; at < size; at += PAGE, k ^= 1) {
        uint64_t n = size - at < PAGE ? size - at : PAGE;
        wk_status st = wk_vidmm_read(vm, allocation, at, page[k], n);
        if (st != WK_OK)
            return st;
        if (at == 0 || n != PAGE || memcmp(page[k], page[k ^ 1], PAGE) != 0)
            c = chunk_value(page[k], n);
        h = wk_gpu_digest_add(h, c);
    }
    *digest = wk_gpu_digest_end(h, size);
    return WK_OK;
}
