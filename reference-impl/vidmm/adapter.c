/* SPDX-License-Identifier: MIT */
/*
 * adapter.c - bringing a driver up: DriverEntry and DxgkInitialize, then
 * AddDevice, StartDevice and the driver caps (facts §1.3, §3.3, §4.11).
 */

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* What the kit puts in an output count before the call that must write it:
 * no adapter has 2.8 billion video present sources or children. */
#define UNWRITTEN_COUNT 0xA5A5A5A5u

/* A module compiled against another driver ABI (driver.h,
 * WK_DRIVER_ABI_VERSION): its tables would be read at the wrong offsets,
 * so the kit takes nothing from it and says why. */
static NTSTATUS refuse_abi(struct wk_vidmm *vm, ULONG abi)
{
    snprintf(vm->abi_error, sizeof(vm->abi_error),
             "the driver was compiled against wddmkit driver ABI %u; this kit's is %u, and it takes %u to %u "
             "(WK_DRIVER_ABI_VERSION in include/wddmkit/driver.h): rebuild it against this kit's include/wddmkit/",
             (unsigned)abi, WK_DRIVER_ABI_VERSION, WK_DRIVER_ABI_OLDEST, WK_DRIVER_ABI_VERSION);
    return STATUS_REVISION_MISMATCH;
}

/* Where a module of driver ABI 1 calls DxgkInitialize. */
static NTSTATUS kit_initialize_abi1(DRIVER_OBJECT *self, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init)
{
    (void)path;
    (void)init;
    if (!self->wk_owner)
        return STATUS_UNSUCCESSFUL; /* after DriverEntry (a shared driver object: driver_once.c) */
    return refuse_abi(self->wk_owner, 1);
}

/* DxgkInitialize lands here through DRIVER_OBJECT.wk_initialize. */
static NTSTATUS kit_initialize(DRIVER_OBJECT *self, PUNICODE_STRING path,
                               const DRIVER_INITIALIZATION_DATA *init, ULONG driver_abi)
{
    (void)path;
    struct wk_vidmm *vm = self->wk_owner;
    /* DxgkInitialize belongs in DriverEntry: a driver object that outlives
     * its DriverEntry (driver_once.c) has no adapter to give a table to. */
    if (!vm)
        return STATUS_UNSUCCESSFUL;
    if (!WK_DRIVER_ABI_TAKEN(driver_abi))
        return refuse_abi(vm, driver_abi);
    if (!init)
        return STATUS_INVALID_PARAMETER;
    if (!wk_dxgk_version_supported(init->Version, vm->abi_error, sizeof(vm->abi_error)))
        return STATUS_REVISION_MISMATCH;
    wk_dxgk_table_copy(&vm->ddi, init); /* what its Version defines; the rest absent */
    vm->have_ddi = 1;
    return STATUS_SUCCESS;
}

void wk_vidmm_service_key(UNICODE_STRING *path)
{
    static _Thread_local WCHAR text[sizeof(WK_VIDMM_SERVICE_KEY)];
    static const char key[] = WK_VIDMM_SERVICE_KEY;
    for (size_t i = 0; i < sizeof(key); i++) /* ASCII: UTF-16 is the same code */
        text[i] = (WCHAR)key[i];
    path->Length = (USHORT)((sizeof(key) - 1) * sizeof(WCHAR));
    path->MaximumLength = (USHORT)sizeof(text);
    path->Buffer = text; /* fresh each call: a driver may have written into the last one */
}

/* DriverEntry's RegistryPath, the string and its characters, on guarded
 * buffers for the call: both used to be the kit's (a stack variable and a
 * thread-local array), so a write past either hit the kit. The driver
 * copies what it needs: the string is freed once DriverEntry returns
 * (DRIVER_INITIALIZE, "RegistryPath"). */
struct registry_path {
    struct garg string, text;
};

static PUNICODE_STRING registry_path_in(struct wk_vidmm *vm, struct registry_path *g, UNICODE_STRING *path)
{
    path->Buffer = garg_in(vm, &g->text, path->Buffer, path->MaximumLength,
                           "registry path characters (RegistryPath->Buffer[MaximumLength / 2])");
    g->text.kit = NULL; /* an input: nothing to read back */
    PUNICODE_STRING p = garg_in(vm, &g->string, path, sizeof(*path), "UNICODE_STRING argument (*RegistryPath)");
    g->string.kit = NULL;
    return p;
}

static wk_status registry_path_out(struct wk_vidmm *vm, struct registry_path *g, wk_status crashed)
{
    wk_status string = garg_out(vm, &g->string, WK_DDI_DRIVER_ENTRY, crashed);
    wk_status text = garg_out(vm, &g->text, WK_DDI_DRIVER_ENTRY, crashed);
    return string != WK_OK ? string : text;
}

void vidmm_link_in_process(struct wk_vidmm *vm)
{
    /* A DriverEntry linked into this program shares its km.h state with
     * the kit's own objects (kmservices.h: weak, one per link unit): the
     * same two functions a loaded module exports reach it. */
    wk_km_set_services(&wk_km_services_of_kit);
    vm->set_irql = wk_km_set_irql;
}

wk_status vidmm_enter(struct wk_vidmm *vm, DRIVER_INITIALIZE *entry, DRIVER_OBJECT *object)
{
    UNICODE_STRING path;
    wk_vidmm_service_key(&path);
    object->wk_magic = WK_DRIVER_OBJECT_MAGIC;
    object->wk_initialize_abi1 = kit_initialize_abi1;
    object->wk_initialize = kit_initialize;
    object->wk_owner = vm;
    object->wk_km_services = &wk_km_services_of_kit;
    vm->abi_error[0] = '\0';
    if (!vm->so)
        vidmm_link_in_process(vm);
    NTSTATUS st = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    struct registry_path guarded;
    PUNICODE_STRING ppath = registry_path_in(vm, &guarded, &path);
    DDI_CALL(vm, WK_DDI_DRIVER_ENTRY, crashed, st = entry(object, ppath));
    wk_status guard = registry_path_out(vm, &guarded, crashed);
    if (crashed != WK_OK)
        return crashed;
    if (guard != WK_OK)
        return guard;
    if (vm->abi_error[0]) /* whatever DriverEntry then returned */
        return fail(vm, WK_E_DRIVER_FAILED, "%s", vm->abi_error);
    if (!NT_SUCCESS(st))
        return fail(vm, WK_E_DRIVER_FAILED, "DriverEntry returned 0x%08x", (unsigned)st);
    if (!vm->have_ddi)
        return fail(vm, WK_E_DRIVER_FAILED, "DriverEntry returned without calling DxgkInitialize");
    return WK_OK;
}

wk_status wk_vidmm_attach(struct wk_vidmm *vm, DRIVER_INITIALIZE *entry)
{
    return vidmm_enter(vm, entry, &vm->driver_object);
}

/* A module built with sanitizers or fuzzer instrumentation (the libfuzzer
 * and asan presets) needs their runtime in the process: the commonest
 * reason a driver that loads in a harness does not load in a tool. */
static const char *instrumentation_hint(const char *why)
{
    char sym[128];
    if (wk_vidmm_missing_runtime_symbol(why, sym, sizeof(sym)))
        return " (an instrumented driver: use the wddmkit of its build, e.g. build/libfuzzer/cli/wddmkit)";
    return "";
}

const char *wk_vidmm_module_path(const char *path, char *out, size_t cap)
{
    if (path && !strchr(path, '/') && snprintf(out, cap, "./%s", path) < (int)cap)
        return out;
    return path;
}

void *wk_vidmm_module_open(const char *path, int flags)
{
    char local[4096];
    return dlopen(wk_vidmm_module_path(path, local, sizeof(local)), flags);
}

wk_status vidmm_open_module(struct wk_vidmm *vm, const char *path, DRIVER_INITIALIZE **entry)
{
    /* RTLD_NODELETE: a driver stays mapped after dlclose. Fuzz harnesses
     * re-create adapters, and a coverage-instrumented module must not be
     * unmapped under the engine's counters. */
    vm->so = wk_vidmm_module_open(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!vm->so) {
        const char *why = dlerror();
        char arch[512];
        if (wk_vidmm_module_foreign(path, arch, sizeof(arch)))
            return fail(vm, WK_E_IO, "cannot load driver %s", arch);
        return fail(vm, WK_E_IO, "cannot load driver %s: %s%s", path, why ? why : "",
                    instrumentation_hint(why));
    }
    void *sym = dlsym(vm->so, "DriverEntry");
    if (!sym)
        return fail(vm, WK_E_IO, "driver %s exports no DriverEntry", path);
    /* km.h's services before DriverEntry (kmservices.h): a driver may read
     * the registry there, before its DxgkInitialize. */
    void *set = dlsym(vm->so, "wk_km_set_services");
    if (set) {
        void (*set_services)(const WK_KM_SERVICES *);
        memcpy(&set_services, &set, sizeof(set_services));
        set_services(&wk_km_services_of_kit);
    }
    /* ... and the IRQL the DDIs Windows calls above PASSIVE_LEVEL run at. */
    void *irql = dlsym(vm->so, "wk_km_set_irql");
    if (irql)
        memcpy(&vm->set_irql, &irql, sizeof(vm->set_irql));
    memcpy(entry, &sym, sizeof(*entry)); /* object to function pointer, as dlsym requires */
    return WK_OK;
}

wk_status wk_vidmm_load(struct wk_vidmm *vm, const char *path)
{
    DRIVER_INITIALIZE *entry = NULL;
    wk_status st = vidmm_open_module(vm, path, &entry);
    return st != WK_OK ? st : wk_vidmm_attach(vm, entry);
}

int wk_vidmm_driver_declares_model(const struct wk_vidmm *vm)
{
    if (!vm->so)
        return -1;
    return dlsym(vm->so, WK_DRIVER_GPU_MODEL_SYMBOL) != NULL;
}

int wk_vidmm_driver_declares_kit_umd(const struct wk_vidmm *vm)
{
    if (!vm->so)
        return -1;
    return dlsym(vm->so, WK_DRIVER_KIT_UMD_SYMBOL) != NULL;
}

void wk_vidmm_set_no_model(struct wk_vidmm *vm, int no_model)
{
    vm->cfg.no_model = no_model != 0;
}

uint32_t wk_vidmm_segments(const struct wk_vidmm *vm, struct wk_vidmm_segment_info *out, uint32_t max)
{
    uint32_t n = vm->nseg < MAX_SEGMENTS ? vm->nseg : MAX_SEGMENTS;
    for (uint32_t i = 0; i < n && i < max; i++) {
        const struct segment *s = &vm->seg[i + 1];
        out[i] = (struct wk_vidmm_segment_info){ i + 1, s->aperture != 0, s->base, s->size, s->banks,
                                                 s->flags.CpuVisible != 0, s->bank_end,
                                                 s->memory && s->flags.Use64KBPages };
    }
    return n;
}

int wk_vidmm_segment_is_aperture(const struct wk_vidmm *vm, uint32_t id)
{
    return id >= 1 && id <= vm->nseg && id <= MAX_SEGMENTS && vm->seg[id].aperture;
}

wk_status wk_vidmm_segment_room(const struct wk_vidmm *vm, uint32_t segment_id, uint64_t *free_bytes,
                                uint64_t *largest)
{
    if (segment_id < 1 || segment_id > vm->nseg || segment_id > MAX_SEGMENTS || !vm->seg[segment_id].heap)
        return WK_E_INVALID_ARGUMENT;
    *free_bytes = wk_place_free_bytes(vm->seg[segment_id].heap);
    *largest = wk_place_largest_free(vm->seg[segment_id].heap);
    return WK_OK;
}

uint32_t wk_vidmm_driver_paging_buffer_size(const struct wk_vidmm *vm)
{
    return vm->paging_buffer_size;
}

void wk_vidmm_set_segment_order(struct wk_vidmm *vm, const uint32_t *ids, uint32_t n)
{
    vm->seg_order_count = 0;
    for (uint32_t i = 0; i < n && vm->seg_order_count < MAX_SEGMENTS; i++)
        if (ids[i] >= 1 && ids[i] <= vm->nseg)
            vm->seg_order[vm->seg_order_count++] = ids[i];
}

wk_status wk_vidmm_set_segment_budget(struct wk_vidmm *vm, uint32_t segment_id, uint64_t bytes)
{
    if (segment_id < 1 || segment_id > vm->nseg || segment_id > MAX_SEGMENTS)
        return WK_E_INVALID_ARGUMENT;
    struct segment *s = &vm->seg[segment_id];
    s->budgeted = bytes < s->size;
    s->budget = s->budgeted ? bytes : s->size;
    return WK_OK;
}

uint64_t wk_vidmm_semantic_skipped(const struct wk_vidmm *vm)
{
    return vm->semantic_skipped;
}

/* DXGK_VIDSCHCAPS dependencies (facts §3.3, §5.9 K2). */
static wk_status check_caps(struct wk_vidmm *vm)
{
    DXGK_VIDSCHCAPS s = vm->caps.SchedulingCaps;
    wk_status st = WK_OK;
    if (s.PreemptionAware && !s.MultiEngineAware)
        st = violate(vm, R_CAPS_PREEMPT, WK_DDI_QUERY_ADAPTER_INFO,
                     "PreemptionAware=1 with MultiEngineAware=0");
    if (s.CancelCommandAware && (!s.MultiEngineAware || !vm->ddi.DxgkDdiCancelCommand))
        st = violate(vm, R_CAPS_CANCEL, WK_DDI_QUERY_ADAPTER_INFO,
                     "CancelCommandAware=1 with MultiEngineAware=%u and %s DxgkDdiCancelCommand",
                     s.MultiEngineAware, vm->ddi.DxgkDdiCancelCommand ? "a" : "no");
    if (s.NoDmaPatching && (!s.PreemptionAware || !s.MultiEngineAware))
        st = violate(vm, R_CAPS_NODMAPATCH, WK_DDI_QUERY_ADAPTER_INFO,
                     "NoDmaPatching=1 with PreemptionAware=%u MultiEngineAware=%u",
                     s.PreemptionAware, s.MultiEngineAware);
    if (s.Reserved)
        st = violate(vm, R_CAPS_RESERVED, WK_DDI_QUERY_ADAPTER_INFO,
                     "SchedulingCaps reserved bits 0x%x, expected 0", s.Value & 0xFFFFF800u);
    if (vm->caps.SupportPerEngineTDR &&
        (!vm->ddi.DxgkDdiResetEngine || !vm->ddi.DxgkDdiQueryEngineStatus || !vm->ddi.DxgkDdiQueryDependentEngineGroup))
        st = violate(vm, R_CAPS_TDR, WK_DDI_QUERY_ADAPTER_INFO,
                     "SupportPerEngineTDR=1 with%s%s%s left NULL", vm->ddi.DxgkDdiResetEngine ? "" : " DxgkDdiResetEngine",
                     vm->ddi.DxgkDdiQueryEngineStatus ? "" : " DxgkDdiQueryEngineStatus",
                     vm->ddi.DxgkDdiQueryDependentEngineGroup ? "" : " DxgkDdiQueryDependentEngineGroup");
    return st;
}

static wk_status query_caps(struct wk_vidmm *vm)
{
    DXGK_DRIVERCAPS caps;
    memset(&caps, 0, sizeof(caps));
    NTSTATUS st;
    wk_status call = query_adapter_info(vm, DXGKQAITYPE_DRIVERCAPS, NULL, 0, NULL, &caps, sizeof(caps),
                                        "DXGK_DRIVERCAPS output (pOutputData)", &st);
    if (call != WK_OK)
        return call;
    if (st != STATUS_SUCCESS)
        return violate(vm, R_CAPS_STATUS, WK_DDI_QUERY_ADAPTER_INFO,
                       "DRIVERCAPS returned 0x%08x, expected STATUS_SUCCESS", (unsigned)st);
    vm->caps = caps;
    return check_caps(vm);
}

/* The PDO on a guarded buffer that lives as long as the adapter (the
 * driver keeps the pointer: IoGetDeviceProperty, DxgkCbGetDeviceInformation
 * hand it back), so a write past it is MEM-GUARD-001 naming the DDI that
 * made it, where it used to land on the kit's own state (vm's fields after
 * it). Freed in wk_vidmm_destroy. */
static void pdo_place(struct wk_vidmm *vm)
{
    if (!vm->pdo_buf.map &&
        gbuf_alloc(vm, &vm->pdo_buf, sizeof(DEVICE_OBJECT), "DEVICE_OBJECT (PhysicalDeviceObject)") != WK_OK)
        memset(&vm->pdo_buf, 0, sizeof(vm->pdo_buf)); /* a shortage of the kit: unguarded, as before */
    vm->pdo = vm->pdo_buf.map ? (DEVICE_OBJECT *)(void *)vm->pdo_buf.ptr : &vm->pdo_fallback;
    vm->pdo->wk_magic = WK_DEVICE_OBJECT_MAGIC;
    vm->pdo->wk_owner = vm;
}

/* AddDevice, its MiniportDeviceContext output on a guarded buffer (a
 * write past it hit the kit's own state: vm->miniport's neighbours).
 * *crashed: the call's status, or a MEM-GUARD-001 of the check after it. */
static NTSTATUS add_device(struct wk_vidmm *vm, wk_status *crashed)
{
    NTSTATUS st = STATUS_UNSUCCESSFUL;
    struct garg g;
    VOID **ctx = garg_in(vm, &g, &vm->miniport, sizeof(vm->miniport),
                         "MiniportDeviceContext output (*MiniportDeviceContext)");
    DDI_CALL(vm, WK_DDI_ADD_DEVICE, *crashed, st = vm->ddi.DxgkDdiAddDevice(vm->pdo, ctx));
    wk_status guard = garg_out(vm, &g, WK_DDI_ADD_DEVICE, *crashed);
    /* The PDO stays the driver's to keep: its canary is read, not freed. */
    wk_status guard_pdo = *crashed == WK_OK && vm->pdo_buf.map ? gbuf_check(vm, &vm->pdo_buf, WK_DDI_ADD_DEVICE) : WK_OK;
    if (*crashed == WK_OK)
        *crashed = guard != WK_OK ? guard : guard_pdo;
    return st;
}

/* START-OUT-001: what a successful StartDevice left in its two outputs. */
static void check_start_outputs(struct wk_vidmm *vm, ULONG sources, ULONG children)
{
    if (sources == UNWRITTEN_COUNT || children == UNWRITTEN_COUNT)
        violate(vm, R_START_OUT, WK_DDI_START_DEVICE,
                "StartDevice returned SUCCESS and left %s%s%s unwritten (the kit handed 0x%08x there)",
                sources == UNWRITTEN_COUNT ? "*NumberOfVideoPresentSources" : "",
                sources == UNWRITTEN_COUNT && children == UNWRITTEN_COUNT ? " and " : "",
                children == UNWRITTEN_COUNT ? "*NumberOfChildren" : "", UNWRITTEN_COUNT);
}

/* StartDevice with guarded copies of DXGK_START_INFO, DXGKRNL_INTERFACE
 * (the driver keeps a copy of its own: facts, StartDevice; the kit's copy
 * stays in vm->kernel_iface) and the two counts. */
static NTSTATUS start_device(struct wk_vidmm *vm, wk_status *crashed)
{
    DXGK_START_INFO info = { DXGKDDI_INTERFACE_VERSION, 0 };
    /* The two outputs are handed holding a value no driver reports, so
     * that one left unwritten shows (START-OUT-001): handed zeroed, a
     * driver that forgets them would pass with "0 sources". */
    ULONG sources = UNWRITTEN_COUNT, children = UNWRITTEN_COUNT;
    struct garg g[4];
    DXGK_START_INFO *pinfo = garg_in(vm, &g[0], &info, sizeof(info), "DXGK_START_INFO argument (*DxgkStartInfo)");
    DXGKRNL_INTERFACE *piface = garg_in(vm, &g[1], &vm->kernel_iface, sizeof(vm->kernel_iface),
                                        "DXGKRNL_INTERFACE argument (*DxgkInterface)");
    ULONG *psources = garg_in(vm, &g[2], &sources, sizeof(sources),
                              "ULONG output (*NumberOfVideoPresentSources)");
    ULONG *pchildren = garg_in(vm, &g[3], &children, sizeof(children), "ULONG output (*NumberOfChildren)");
    NTSTATUS st = STATUS_UNSUCCESSFUL;
    DDI_CALL(vm, WK_DDI_START_DEVICE, *crashed,
             st = vm->ddi.DxgkDdiStartDevice(vm->miniport, pinfo, piface, psources, pchildren);
             ddi_rewrite(vm, WK_DDI_START_DEVICE, pinfo, &st));
    /* The kit's interface stays as the kit made it: not copied back. */
    g[1].kit = NULL;
    wk_status guard = WK_OK;
    for (int i = 3; i >= 0; i--) {
        wk_status one = garg_out(vm, &g[i], WK_DDI_START_DEVICE, *crashed);
        guard = guard != WK_OK ? guard : one;
    }
    if (*crashed == WK_OK)
        *crashed = guard;
    if (*crashed == WK_OK && NT_SUCCESS(st))
        check_start_outputs(vm, sources, children);
    return st;
}

/* DDI-TABLE-001: the DDIs the kernel calls on every adapter that renders
 * (facts §5.11), all filled. A violation, not a refusal: the adapter still
 * starts, so the run goes on and the cases that need none of them judge
 * what the driver has. DxgkDdiPatch, from WDDM 2.0, is judged once the
 * adapter started, by a context (context_caps_check_patch). */
static void check_ddi_table(struct wk_vidmm *vm)
{
    const char *names[32];
    uint32_t n = wk_dxgk_missing_required(&vm->ddi, names, 32);
    if (n == 0)
        return;
    char list[768];
    int at = 0;
    for (uint32_t i = 0; i < n && i < 32 && at >= 0 && (size_t)at < sizeof(list); i++)
        at += snprintf(list + at, sizeof(list) - (size_t)at, "%s%s", i ? ", " : "", names[i]);
    violate(vm, R_DDI_TABLE, WK_DDI_DRIVER_ENTRY,
            "the table handed to DxgkInitialize leaves NULL %u DDI%s the kernel calls on an adapter that renders: %s",
            n, n == 1 ? "" : "s", list);
}

wk_status wk_vidmm_start(struct wk_vidmm *vm)
{
    if (!vm->have_ddi)
        return fail(vm, WK_E_STATE, "no driver: call wk_vidmm_load or wk_vidmm_attach first");
    if (vm->started)
        return fail(vm, WK_E_STATE, "the adapter is already started");
    const DRIVER_INITIALIZATION_DATA *d = &vm->ddi;
    if (!d->DxgkDdiAddDevice || !d->DxgkDdiStartDevice || !d->DxgkDdiQueryAdapterInfo)
        return violate(vm, R_START_STATUS, WK_DDI_ADD_DEVICE,
                       "the driver lacks AddDevice, StartDevice or QueryAdapterInfo");
    if (vm->cfg.check_ddi_table)
        check_ddi_table(vm);
    pdo_place(vm);
    NTSTATUS st = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    st = add_device(vm, &crashed);
    if (crashed != WK_OK)
        return crashed;
    if (!NT_SUCCESS(st) || !vm->miniport)
        return violate(vm, R_START_STATUS, WK_DDI_ADD_DEVICE,
                       "returned 0x%08x with context %p, expected SUCCESS and a context",
                       (unsigned)st, vm->miniport);
    vm->added = 1;
    callbacks_fill(vm, &vm->kernel_iface);
    st = start_device(vm, &crashed);
    if (crashed != WK_OK)
        return crashed;
    if (!NT_SUCCESS(st))
        return violate(vm, R_START_STATUS, WK_DDI_START_DEVICE, "returned 0x%08x, expected SUCCESS",
                       (unsigned)st);
    vm->started = 1;
    wk_status s1 = query_caps(vm);
    if (vm->dead)
        return s1;
    wk_status s2 = segments_query(vm);
    if (s1 == WK_OK && s2 == WK_OK && !vm->dead)
        s2 = gpummu_query(vm); /* its levels name segments */
    if (vm->dead)
        return s2;
    if (s1 == WK_OK && s2 == WK_OK)
        paging_start(vm);
    /* After the queries, what the kernel creates before any work: the
     * system device and context paging runs on, on the paging node. Not
     * after a query failed: the start fails with its reason, and a context
     * made without segments was judged against none (CTX-SEGSET-001 named
     * as the reason a WDDM 1.3 driver was not asked QUERYSEGMENT4, where
     * its aperture DmaBufferSegmentSet was right: outsider 7). */
    wk_status s3 = vm->dead ? WK_E_DEAD : WK_OK;
    if (s3 == WK_OK && s1 == WK_OK && s2 == WK_OK) {
        s3 = paging_node_query(vm);
        if (s3 == WK_OK)
            s3 = system_context_create(vm);
    }
    if (vm->dead)
        return s3;
    heaps_rebuild(vm); /* as a reset leaves them */
    if (vm->cfg.check_ddi_table && s1 == WK_OK && s2 == WK_OK && s3 == WK_OK)
        context_caps_check_patch(vm); /* DxgkDdiPatch: a context says whether it is needed */
    vm->stats_at_start = vm->stats;
    return s2 != WK_OK ? s2 : s1 != WK_OK ? s1 : s3;
}
