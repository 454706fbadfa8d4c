/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/vidmm.h - the reference video memory manager and scheduler.
 *
 * A wk_vidmm plays the Windows graphics kernel for one adapter: it loads a
 * driver, starts it, and drives it through every DDI the kit covers, the way
 * dxgkrnl would. Every value the driver hands back is checked against the
 * contract-rule catalogue (docs/contract-rules.md); a broken rule becomes a
 * violation with a stable rule ID, what was expected and what was seen. The
 * GPU is the model of gpu.h, which runs the DMA buffers the driver built.
 *
 * Objects the caller creates (devices, contexts, allocations) are named by
 * small integer handles, 1-based, never reused within one wk_vidmm: what a
 * step program or a fuzz input can refer to by index.
 *
 * A wk_vidmm has no global state and is deterministic under its seed. A
 * driver that crashes or hangs inside a DDI is reported (DRV-CRASH-001,
 * DRV-HANG-001) and leaves the adapter "dead": later calls fail with
 * WK_E_DEAD, and the process goes on. Buffers handed to the driver sit
 * against an inaccessible guard page, so a write past their end is caught at
 * the faulting instruction (MEM-GUARD-001).
 */
#ifndef WDDMKIT_VIDMM_H
#define WDDMKIT_VIDMM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wddmkit/d3dkmddi.h"
#include "wddmkit/driver.h"
#include "wddmkit/gpu.h"
#include "wddmkit/status.h"
#include "wddmkit/umd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The DDIs and callbacks the kit drives. X(name, real name). New ones go
 * at the end: a DDI's number is kept in journals (ddi_calls) and read from
 * fuzz inputs (conformance/prog/prog_codec.c). */
#define WK_DDI_MAP(X)                                                      \
    X(WK_DDI_NONE, "none")                                                 \
    X(WK_DDI_DRIVER_ENTRY, "DriverEntry")                                  \
    X(WK_DDI_ADD_DEVICE, "DxgkDdiAddDevice")                               \
    X(WK_DDI_START_DEVICE, "DxgkDdiStartDevice")                           \
    X(WK_DDI_STOP_DEVICE, "DxgkDdiStopDevice")                             \
    X(WK_DDI_REMOVE_DEVICE, "DxgkDdiRemoveDevice")                         \
    X(WK_DDI_QUERY_ADAPTER_INFO, "DxgkDdiQueryAdapterInfo")                \
    X(WK_DDI_CREATE_DEVICE, "DxgkDdiCreateDevice")                         \
    X(WK_DDI_DESTROY_DEVICE, "DxgkDdiDestroyDevice")                       \
    X(WK_DDI_CREATE_ALLOCATION, "DxgkDdiCreateAllocation")                 \
    X(WK_DDI_DESTROY_ALLOCATION, "DxgkDdiDestroyAllocation")               \
    X(WK_DDI_CREATE_CONTEXT, "DxgkDdiCreateContext")                       \
    X(WK_DDI_DESTROY_CONTEXT, "DxgkDdiDestroyContext")                     \
    X(WK_DDI_BUILD_PAGING_BUFFER, "DxgkDdiBuildPagingBuffer")              \
    X(WK_DDI_RENDER, "DxgkDdiRender")                                      \
    X(WK_DDI_PATCH, "DxgkDdiPatch")                                        \
    X(WK_DDI_SUBMIT_COMMAND, "DxgkDdiSubmitCommand")                       \
    X(WK_DDI_CANCEL_COMMAND, "DxgkDdiCancelCommand")                       \
    X(WK_DDI_INTERRUPT_ROUTINE, "DxgkDdiInterruptRoutine")                 \
    X(WK_DDI_DPC_ROUTINE, "DxgkDdiDpcRoutine")                             \
    X(WK_DDI_CB_CREATE_CONTEXT_ALLOCATION, "DxgkCbCreateContextAllocation") \
    X(WK_DDI_CB_DESTROY_CONTEXT_ALLOCATION, "DxgkCbDestroyContextAllocation") \
    X(WK_DDI_CB_MAP_CONTEXT_ALLOCATION, "DxgkCbMapContextAllocation")      \
    X(WK_DDI_CB_UPDATE_CONTEXT_ALLOCATION, "DxgkCbUpdateContextAllocation") \
    X(WK_DDI_CB_NOTIFY_INTERRUPT, "DxgkCbNotifyInterrupt")                \
    X(WK_DDI_KDPC_ROUTINE, "KDEFERRED_ROUTINE")                            \
    X(WK_DDI_UNLOAD, "DxgkDdiUnload")                                      \
    X(WK_DDI_OPEN_ALLOCATION, "DxgkDdiOpenAllocation")                     \
    X(WK_DDI_CLOSE_ALLOCATION, "DxgkDdiCloseAllocation")                   \
    X(WK_DDI_CREATE_PROCESS, "DxgkDdiCreateProcess")                       \
    X(WK_DDI_DESTROY_PROCESS, "DxgkDdiDestroyProcess")                     \
    X(WK_DDI_SET_ROOT_PAGE_TABLE, "DxgkDdiSetRootPageTable")               \
    X(WK_DDI_SUBMIT_COMMAND_VIRTUAL, "DxgkDdiSubmitCommandVirtual")        \
    X(WK_DDI_RESET_ENGINE, "DxgkDdiResetEngine")                          \
    X(WK_DDI_RESET_FROM_TIMEOUT, "DxgkDdiResetFromTimeout")                \
    X(WK_DDI_RESTART_FROM_TIMEOUT, "DxgkDdiRestartFromTimeout")            \
    X(WK_DDI_GET_ROOT_PAGE_TABLE_SIZE, "DxgkDdiGetRootPageTableSize")

enum wk_ddi {
#define WK_DDI_ENUM_(name, real) name,
    WK_DDI_MAP(WK_DDI_ENUM_)
#undef WK_DDI_ENUM_
    WK_DDI_COUNT
};

const char *wk_ddi_name(enum wk_ddi ddi);

/* ------------------------------------------------------------------ */
/* Configuration and lifetime                                           */
/* ------------------------------------------------------------------ */

/* How long a DDI call may take before it is DRV-HANG-001 (ddi_timeout_ms
 * 0). The command line holds loading a module and its DriverEntry to it too
 * (cli/driver_probe.c): a driver's load-time code is driver code. */
#define WK_VIDMM_DDI_TIMEOUT_MS 5000u

/*
 * A failure the kit plays as Windows may: the Nth pool allocation
 * (ExAllocatePool2, ExAllocatePoolWithTag ... without
 * POOL_FLAG_RAISE_ON_FAILURE) the driver makes inside a call of `ddi`
 * returns NULL, or the Nth DxgkCbCreateContextAllocation it makes there
 * returns STATUS_NO_MEMORY (the callback returns "any ntstatus.h error",
 * facts §2.2). Counted across the run, within that DDI only. The driver
 * may then fail the call (NO_MEMORY: CreateContext's one legitimate
 * failure, facts §5.7 X6) or succeed; what it must not do is break a rule
 * or leak (POOL-LEAK-001, CTXALLOC-LEAK-001 at teardown).
 */
enum wk_vidmm_fail_what {
    WK_VIDMM_FAIL_NONE,
    WK_VIDMM_FAIL_POOL,                      /* a pool allocation returns NULL */
    WK_VIDMM_FAIL_CREATE_CONTEXT_ALLOCATION  /* the callback returns NO_MEMORY */
};
struct wk_vidmm_injection {
    enum wk_vidmm_fail_what what;
    enum wk_ddi ddi;                         /* inside calls of this DDI */
    uint32_t nth;                            /* 1-based */
};

/* How many times the context's PatchLocationListSize grown_patch_list
 * hands Render: enough that the DMA buffer, not the list, runs out first in
 * a driver whose every command takes a patch location. */
#define WK_VIDMM_PATCH_LIST_GROWTH 4u

struct wk_vidmm_config {
    const struct wk_gpu_desc *gpu;   /* the hardware; NULL: wk_gpu_reference_desc() */
    uint32_t paging_buffer_size;     /* bytes per paging buffer; 0: the driver's PagingBufferSize */
    uint32_t max_passes;             /* multipass bound per operation; 0: 4096, or for an
                                        UPDATE_PAGE_TABLE of more entries, twice its entries */
    uint32_t ddi_timeout_ms;         /* per DDI call; 0: WK_VIDMM_DDI_TIMEOUT_MS; UINT32_MAX: no timer */
    uint32_t query_segment_version;  /* 3 (QUERYSEGMENT3) or 4; 0: 3 */
    uint64_t seed;                   /* scatters system pages; same seed, same run */
    int no_guard_pages;              /* 1: plain heap buffers, no read-only pages for
                                        const inputs or Patch's DMA tail (every check
                                        then reads; no MEM-GUARD fault at the write) */
    uint64_t transfer_chunk;         /* split transfers into sub-transfers of this many
                                        bytes (a page multiple; 0: whole), exercising
                                        TransferOffset, MdlOffset, TransferStart/End */
    int split_submissions;           /* 1: execute render DMA buffers in pieces cut at
                                        the drivers' split offsets, each patched and
                                        submitted with its own patch-list range */
    int move_before_patch;           /* 1: before each render submission, move every
                                        listed allocation resident in a memory segment
                                        to another place (evicted, then paged in away
                                        from where it was), as the kernel may between
                                        Render and submission (facts §5.3: why Patch
                                        exists): the prepatched addresses are then
                                        stale, and only a patch location the driver
                                        listed is rewritten */
    int grown_patch_list;            /* 1: hand Render a patch-location list
                                        WK_VIDMM_PATCH_LIST_GROWTH times the
                                        context's PatchLocationListSize (a starting
                                        size the kernel may grow, facts §5.7 X3) */
    int no_model;                    /* 1: the driver does not target the GPU model
                                        (`--gpu none`): its paging and DMA buffers are
                                        never executed, a submission is retired by the
                                        kit once SubmitCommand accepts it, and every
                                        check of what a buffer did (the semantic
                                        checks: bytes moved and filled, GART entries,
                                        fences, the patched address encoding) is
                                        skipped and counted (wk_vidmm_semantic_skipped);
                                        the contract checks all run. Also settable after
                                        loading, before start: wk_vidmm_set_no_model */
    const uint8_t *pci_config;       /* WK_VIDMM_PCI_CONFIG_SIZE bytes of PCI configuration
                                        space DxgkCbReadDeviceSpace answers with; copied at
                                        create; NULL: wk_vidmm_default_pci_config */
    const struct wk_binding *binding; /* the hardware binding (binding.h), checked by
                                        wk_vidmm_binding_check; NULL: none. With a
                                        memory layout, the adapter's memory system is
                                        built from it instead of `gpu`; with a
                                        processor, it runs the driver's buffers */
    const struct wk_vidmm_registry *registry; /* the values under the driver's service key
                                        (WK_VIDMM_SERVICE_KEY) that km.h's registry reads
                                        answer from; copied at create; NULL: none */
    int check_ddi_table;             /* 1: at start, the driver's table fills every DDI
                                        the kernel calls on an adapter that renders
                                        (DDI-TABLE-001); one case asks (adapter.ddi-table),
                                        so a driver that leaves one out fails there once,
                                        and the cases that call it are skipped; for a NULL
                                        Patch the start makes a device and a context to ask
                                        their caps (context_caps.c) */
    uint32_t device_error_at;        /* N > 0: the Nth render or virtual submission fails on the GPU
                                        model as a device error of its own (not the
                                        buffer's: wk_gpu_device_error_next_doorbell), so
                                        that the driver's fault report runs; 0: none */
    struct wk_vidmm_injection inject; /* a failure the kit plays (fail_what 0: none) */
    uint32_t map_chunk;              /* map an aperture allocation with MAP_APERTURE_SEGMENT
                                        operations of at most this many pages, each from
                                        its first page's entry of the MDL (MdlOffset,
                                        facts P13); 0: one operation */
    uint32_t first_fence;            /* the SubmissionFenceId of the adapter's first
                                        submission (paging or render; 0: 1), each next
                                        one 1 higher. The id is a UINT (facts §4.4,
                                        §4.5): a driver must carry all 32 bits, and a
                                        start above 0xFFFF shows one that does not. The
                                        facts say nothing of what follows 0xFFFFFFFF; the
                                        kit goes on at 1 (0 is never an id: submit.c,
                                        fence_next). Only a new adapter changes it */
    uint32_t paging_buffer_largest;  /* the largest paging_buffer_size a later
                                        wk_vidmm_reconfigure sets (0: none beyond the
                                        driver's own): the paging buffer's block is that
                                        large from the start, so that no reconfigure maps
                                        one (a fuzz harness's steady state, issue 26); the
                                        buffer's own pages do not move (paging.c) */
    int contiguous_pages;            /* an allocation's system pages in one run of
                                        consecutive frames where there is one, not
                                        scattered (sysmem.c): what a driver gets for
                                        such an allocation, an MDL whose PFNs follow each
                                        other, a contiguous ADL, is as real */
};

/* The adapter's device BARs, as DxgkCbGetDeviceInformation's
 * TranslatedResourceList lists them (docs/writing-a-driver.md, "Registers
 * and resources"). Without a binding: for a driver of the kit's GPU model,
 * BAR0 holds the model's registers (WK_GPU_REG_SIZE bytes) at
 * WK_VIDMM_BAR0_ADDRESS, and READ_REGISTER_ULONG through its MmMapIoSpace
 * window reaches them as WkReadRegister32 does; for a driver of other
 * hardware (no_model), BAR0 is WK_VIDMM_PLAIN_BAR_SIZE bytes at the same
 * address with nothing behind it (MmMapIoSpace gives plain memory), so that
 * a WDK driver that maps its BAR still starts. */
#define WK_VIDMM_BAR0_ADDRESS 0xF0000000ull
#define WK_VIDMM_PLAIN_BAR_SIZE (16ull << 20)

/* The registry key the kit names in DriverEntry's RegistryPath, and under
 * which it answers the driver's registry reads (km.h: ZwOpenKey,
 * ZwQueryValueKey, RtlQueryRegistryValues) from a case's `registry:` map. */
#define WK_VIDMM_SERVICE_KEY "\\Registry\\Machine\\System\\CurrentControlSet\\Services\\wddmkit"
/* The PCI configuration space of the kit's adapter (DxgkCbReadDeviceSpace,
 * DXGK_WHICHSPACE_CONFIG): a type-0 header of a display controller, class
 * 03h subclass 80h, vendor 1414h device 5744h, unless a case gives its
 * own (`pci_config:`). DxgkCbWriteDeviceSpace stores what the driver writes,
 * but for the read-only identification bytes (00h-03h, 08h-0Bh). */
#define WK_VIDMM_PCI_CONFIG_SIZE 256u
void wk_vidmm_default_pci_config(uint8_t out[WK_VIDMM_PCI_CONFIG_SIZE]);

/* DriverEntry's RegistryPath: WK_VIDMM_SERVICE_KEY in UTF-16, in a buffer
 * of the calling thread's that the call rewrites. */
void wk_vidmm_service_key(UNICODE_STRING *path);
#define WK_VIDMM_REGISTRY_MAX 16
#define WK_VIDMM_REGISTRY_DATA_MAX 256
struct wk_vidmm_registry_value {
    char name[96];  /* "Name", or "Subkey\\Name" for a value of a subkey (ASCII; matched
                       without regard to case, as Windows matches names) */
    uint32_t type;  /* REG_SZ 1, REG_BINARY 3, REG_DWORD 4, REG_QWORD 11 */
    uint32_t size;  /* bytes of data (REG_SZ: UTF-16LE with its terminator) */
    uint8_t data[WK_VIDMM_REGISTRY_DATA_MAX];
};
struct wk_vidmm_registry {
    uint32_t count;
    struct wk_vidmm_registry_value values[WK_VIDMM_REGISTRY_MAX];
};

struct wk_vidmm;

/* Rules of the reference driver's own choices (wk_rule_is_choice): no
 * documentation requires them, so only the reference profile holds a
 * driver to them. With skip_choice_rules set (the contract profile) a
 * breach of one is counted (wk_vidmm_choice_skipped), never recorded as a
 * violation. Settable at any time. */
void wk_vidmm_skip_choice_rules(struct wk_vidmm *vm, int skip);
uint64_t wk_vidmm_choice_skipped(const struct wk_vidmm *vm);

/* Adapters this process has made (wk_vidmm_create calls that succeeded):
 * how many builds a run of fuzz inputs took (bench/fuzz_speed --floor
 * tells the mapping changes of inputs that built one from the others'). */
uint64_t wk_vidmm_adapters_created(void);

/* What the first adapter of a process sets up for the process, done ahead
 * and without an adapter: the kit's signal handlers and their alternate
 * stack (call.c), the host facts the GPU model asks once
 * (wk_gpu_prepare_process), and a few untouched guarded buffers parked for
 * the first adapter's DDI arguments (guard.c). For a process that forks a
 * child per case (the runner's slot processes, conformance/runner/zygote.c):
 * each child inherits them instead of making them again, some forty system
 * calls a case. No driver code runs; nothing of it is an adapter's, so
 * nothing of one case reaches the next (the buffers are private and
 * anonymous: each child writes its own copy). */
void wk_vidmm_prepare_process(void);
wk_status wk_vidmm_create(const struct wk_vidmm_config *cfg, struct wk_vidmm **out);
/* Tears the adapter down the way Windows does: destroys the devices left
 * (with their contexts and allocations, checking context-allocation
 * leaks), then DxgkDdiStopDevice (when it started) and
 * DxgkDdiRemoveDevice (whenever DxgkDdiAddDevice gave a context, a failed
 * start included). Counters and violations stay readable;
 * wk_vidmm_destroy calls it when needed. */
wk_status wk_vidmm_stop(struct wk_vidmm *vm);
void wk_vidmm_destroy(struct wk_vidmm *vm);

/* Back to "started, with no objects and no violations", the counters where
 * the start left them (its DDI calls): what a fuzz harness calls between
 * inputs. Costs the objects and GPU pages the
 * last input created (handles start again at 1). Afterwards the kit's side
 * behaves exactly as on a freshly started adapter: the same placements,
 * system pages (PFNs) and contents for the same calls; fence ids keep
 * rising, and the driver is not reloaded. WK_E_DEAD when a driver crash
 * left the adapter unusable: create a new one. */
wk_status wk_vidmm_reset(struct wk_vidmm *vm);

/* Changes the knobs a fuzz harness varies per input (paging_buffer_size,
 * transfer_chunk, split_submissions, grown_patch_list, max_passes, seed) on a
 * started adapter
 * with no objects, right after wk_vidmm_reset: cheaper than building a new
 * adapter, and afterwards the adapter behaves exactly as a fresh one built
 * with `cfg`. `cfg->gpu` must be NULL (the adapter keeps its GPU).
 * WK_E_NOT_SUPPORTED when any other field differs or `gpu` is set (a new
 * adapter is needed), WK_E_STATE when objects exist. */
wk_status wk_vidmm_reconfigure(struct wk_vidmm *vm, const struct wk_vidmm_config *cfg);

/* Loads a driver shared object and calls its DriverEntry; or takes a
 * DriverEntry linked into the process. WK_E_IO when the object cannot be
 * loaded (the message is in wk_vidmm_last_error). */
wk_status wk_vidmm_load(struct wk_vidmm *vm, const char *path);

/* A driver loaded once for every adapter of a process (driver_once.c):
 * Windows calls a miniport's DriverEntry once per load of its image, then
 * AddDevice per adapter, so global state DriverEntry sets is set once. A
 * process that builds adapter after adapter from one module (`conform
 * --no-fork`) runs DriverEntry on the first and hands the table it gave to
 * the others; DxgkDdiUnload is never called (the image stays loaded until
 * the process ends). */
struct wk_vidmm_driver;
wk_status wk_vidmm_driver_new(struct wk_vidmm_driver **out);
void wk_vidmm_driver_free(struct wk_vidmm_driver *d);
/* wk_vidmm_load (path) or wk_vidmm_attach (path NULL: entry, linked in),
 * but DriverEntry runs only on the first adapter given d; the same path or
 * entry every time. A later adapter gets the first one's table, or its
 * failure again (the same status, the message saying where it came from). */
wk_status wk_vidmm_load_once(struct wk_vidmm *vm, struct wk_vidmm_driver *d, const char *path,
                             DRIVER_INITIALIZE *entry);
/* Why an adapter configured with `registry` (NULL: none) cannot share d's
 * DriverEntry, which read another registry (a driver reads its settings
 * there: what it read cannot be read again); NULL when it can, or when
 * DriverEntry has not run yet. The PCI configuration is no reason: only an
 * adapter's own DxgkCbReadDeviceSpace reads it, after its StartDevice. */
const char *wk_vidmm_driver_mismatch(const struct wk_vidmm_driver *d, const struct wk_vidmm_registry *registry);

/* Whether the loaded driver module declares that it targets the GPU model
 * (it exports WK_DRIVER_GPU_MODEL_SYMBOL: WK_DRIVER_TARGETS_GPU_MODEL in
 * driver.h): 1 yes, 0 no, -1 no module (a DriverEntry attached in-process,
 * which the caller knows). */
int wk_vidmm_driver_declares_model(const struct wk_vidmm *vm);
/* The same for WK_DRIVER_READS_KIT_UMD (its Render reads umd.h's format). */
int wk_vidmm_driver_declares_kit_umd(const struct wk_vidmm *vm);

/* Sets the no_model mode of wk_vidmm_config after the driver is loaded and
 * before wk_vidmm_start (where --gpu auto decides from the module). */
void wk_vidmm_set_no_model(struct wk_vidmm *vm, int no_model);

/* ------------------------------------------------------------------ */
/* Hardware bindings (binding.h)                                        */
/* ------------------------------------------------------------------ */

struct wk_binding;

/* Whether the kit takes binding b (found at `where`, for the message):
 * 0, or -1 with the reason in why ("binding 'heron' 1.0 (libheron.so) was
 * built for binding ABI 2; this kit takes ABI 1"). Runs none of its code. */
int wk_vidmm_binding_check(const struct wk_binding *b, const char *where, char *why, size_t cap);
/* The binding exported by the module at path (`--binding PATH`), checked:
 * WK_OK; WK_E_IO (not loadable), WK_E_NOT_FOUND (no WK_BINDING_SYMBOL),
 * WK_E_INVALID_ARGUMENT (refused); why says it. */
wk_status wk_vidmm_binding_open(const char *path, const struct wk_binding **out, char *why, size_t cap);
/* The binding the driver module itself exports, checked: as
 * wk_vidmm_binding_open, WK_E_NOT_FOUND (quietly) when it exports none.
 * The module is opened, not started (no DriverEntry). */
wk_status wk_vidmm_binding_exported(const char *driver_path, const struct wk_binding **out, char *why,
                                    size_t cap);
/* One line saying what the binding provides, for `driver check` and the
 * run's header ("binding 'heron' 1.0, binding ABI 1: memory (3 segments,
 * ...), processor (address decoding, fault text), encoder (NOP COPY FILL),
 * registers, BAR0 registers ..., disassembler"). */
void wk_vidmm_binding_describe(const struct wk_binding *b, char *buf, size_t cap);
/* A binding on its own (binding_check.c, `wddmkit binding check`): its
 * processor on `inputs` seeded random buffers (input i of seed s is the
 * same everywhere), each run twice on a freshly reset memory system of the
 * binding's layout, the disassembler listing each. Counts what happened
 * and notes the first input that broke processor.h (an answer outside the
 * interface, a budget ignored, a second run that differs). A crash or a
 * hang is the caller's to see: run it in a child and watch *progress (the
 * input running). WK_OK clean; WK_E_BINDING a problem (first_bad says
 * which); WK_E_NOT_SUPPORTED no processor; WK_E_INVALID_ARGUMENT a
 * layout wk_gpu_create refuses. */
enum {
    WK_BINDING_CHECK_INPUTS, WK_BINDING_CHECK_RAN_TO_END, WK_BINDING_CHECK_MISBEHAVED,
    WK_BINDING_CHECK_NONDETERMINISTIC, WK_BINDING_CHECK_FAULT_BASE, /* + enum wk_fault_class */
    /* The encoder's commands (a FILL, a COPY) run by the processor at
     * physical addresses: did as asked, did otherwise, or could not be
     * judged (the encoder skipped the operation, or the processor stopped
     * short of its end: hardware may run user commands only in a space). */
    WK_BINDING_CHECK_ENCODED_AGREED = WK_BINDING_CHECK_FAULT_BASE + 6, WK_BINDING_CHECK_ENCODED_WRONG,
    WK_BINDING_CHECK_ENCODED_UNJUDGED,
    WK_BINDING_CHECK_COUNTS
};
struct wk_binding_check_report {
    volatile uint64_t *progress;     /* in: where to write the input running (NULL: nowhere) */
    uint64_t counts[WK_BINDING_CHECK_COUNTS];
    uint64_t first_bad_input;        /* UINT64_MAX: none */
    char first_bad[160];
    char first_unjudged[160];        /* why the first encoder trial not judged was not, or "" */
};
wk_status wk_vidmm_binding_selfcheck(const struct wk_binding *b, uint64_t first, uint64_t inputs, uint64_t seed,
                                     struct wk_binding_check_report *r);

/* The semantic checks the binding left out so far: fences the kit retired
 * because no interrupt reports them (a processor without a register
 * model), and patch addresses it cannot read (no read_address). */
void wk_vidmm_binding_skipped(const struct wk_vidmm *vm, uint64_t *unreported_fences, uint64_t *undecoded_addresses);

/* The adapter's binding (NULL: none). */
const struct wk_binding *wk_vidmm_binding(const struct wk_vidmm *vm);
/* Whether the binding has a render encoder, and the encoding of the kit's
 * abstract render operations into the driver's own pCommand and
 * pPatchLocationListIn (binding.h, struct wk_encode_render: the caller
 * fills the inputs and the room). WK_OK; WK_E_NOT_SUPPORTED when the
 * encoder cannot say an operation (the reason in wk_vidmm_last_error: a
 * skip, never a failure); WK_E_BINDING when the encoder failed (BIND-*). */
struct wk_encode_render;
struct wk_encode_commands;
int wk_vidmm_binding_encodes(const struct wk_vidmm *vm);
/* Whether the binding encodes allocation requests (binding.h: the
 * encoder's `allocation`): then CreateAllocation's pPrivateDriverData is
 * in the driver's own format; else it is the kit's WK_ALLOCATION_REQUEST
 * (umd.h), whatever encodes Render's bytes. */
int wk_vidmm_binding_encodes_allocations(const struct wk_vidmm *vm);
/* WK_E_NOT_SUPPORTED with `why` as the last error: what a caller of the
 * kit's tells a case it cannot run a step here (a skip, not a failure). */
wk_status wk_vidmm_skip(struct wk_vidmm *vm, const char *why);
wk_status wk_vidmm_encode_render(struct wk_vidmm *vm, struct wk_encode_render *r);

/* The segments the driver reported (after wk_vidmm_start), 1-based id
 * order: how many, and up to max of them into out. */
struct wk_vidmm_segment_info {
    uint32_t id;
    int aperture;             /* 1: an aperture segment, 0: memory */
    uint64_t base, size;      /* as the driver reported them */
    uint32_t banks;           /* NbOfBanks, 0 when not banked */
    int cpu_visible;          /* Flags.CpuVisible */
    const uint64_t *bank_ends; /* end offset of bank i + 1 for i < banks (valid while vm is) */
    int pages_64k;            /* a memory segment with Flags.Use64KBPages: placed in whole 64 KiB pages */
};
uint32_t wk_vidmm_segments(const struct wk_vidmm *vm, struct wk_vidmm_segment_info *out, uint32_t max);
/* What a GpuMmu driver (DXGK_VIDMMCAPS VirtualAddressingSupported and
 * GpuMmuSupported, WDDM 2.0) said of its page tables at start
 * (docs/wddm-gpummu-facts.md 1, 2): asked 0 for every other driver;
 * answered once the answers followed GPUMMU-QUERY/CAPS/LEVEL-001; modelled
 * once the kit can also walk the tree (geometry, level 0 the leaf), else
 * why says which limit of the kit stops it. */
struct wk_vidmm_gpummu_info {
    int asked, answered, modelled;
    uint32_t queries;          /* the DxgkDdiQueryAdapterInfo calls these questions took */
    DXGK_GPUMMUCAPS caps;
    DXGK_PAGE_TABLE_LEVEL_DESC level[DXGK_MAX_PAGE_TABLE_LEVEL_COUNT];
    struct wk_mmu_geometry geometry;
    char why[200];
};
void wk_vidmm_gpummu(const struct wk_vidmm *vm, struct wk_vidmm_gpummu_info *out);

/*
 * GPU virtual address spaces of a GpuMmu driver the kit can walk
 * (reference-impl/vidmm/gpuva.c; docs/wddm-gpummu-facts.md 4, 5): the kit
 * owns the page tables, the driver writes them (UPDATE_PAGE_TABLE,
 * FLUSH_TLB), each write checked by the GPU's reading of the entries
 * (PAGING-UPDATEPT-001, PAGING-FLUSHTLB-001).
 *   create_space: DxgkDdiCreateProcess and a root table, all invalid; *space
 *     its id. WK_E_NOT_SUPPORTED, with the reason in the last error, when
 *     the driver is not GpuMmu or the kit cannot drive its tables (a limit
 *     of the kit: wk_vidmm_gpummu's why, a binding, an update mode other
 *     than GPU_PHYSICAL, tables outside a memory segment).
 *   map: pages [offset, offset + bytes) of an allocation that has memory
 *     (resident in a memory segment, or its system pages) at va, whole
 *     pages; the tables on the way placed, made invalid and linked. The
 *     mapping follows the allocation: paged in, evicted, relocated or
 *     discarded, its entries are written again (invalid without pages) and
 *     flushed; destroyed, made invalid and flushed. Mapping over a mapped
 *     range replaces it and flushes it.
 *   unmap: the entries of [va, va + bytes) invalid, then FLUSH_TLB of it.
 *   read, write: the GPU reading or writing va through its MMU and TLB:
 *     WK_E_GPU_FAULT with *fault (VA_UNMAPPED, VA_READ_ONLY, BAD_PTE) when
 *     it faults, nothing moved (the whole range is checked first).
 *   counters: the GPU's view of the space (walks, TLB hits, stale
 *     accesses, flushes).
 * wk_vidmm_reset and wk_vidmm_stop destroy every space (DestroyProcess).
 */
wk_status wk_vidmm_va_create_space(struct wk_vidmm *vm, uint32_t *space);
wk_status wk_vidmm_va_destroy_space(struct wk_vidmm *vm, uint32_t space);
/* The process of `space` ends while the adapter goes on: its devices
 * destroyed (wk_vidmm_destroy_device), then the space
 * (wk_vidmm_va_destroy_space: its tables freed, DxgkDdiDestroyProcess).
 * WK_E_NOT_FOUND for no such space or the paging process's. */
wk_status wk_vidmm_va_end_process(struct wk_vidmm *vm, uint32_t space);
wk_status wk_vidmm_va_map(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint32_t allocation, uint64_t offset,
                          uint64_t bytes, int read_only);
wk_status wk_vidmm_va_unmap(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes);
wk_status wk_vidmm_va_read(struct wk_vidmm *vm, uint32_t space, uint64_t va, void *buf, uint64_t len,
                           struct wk_mem_fault *fault);
wk_status wk_vidmm_va_write(struct wk_vidmm *vm, uint32_t space, uint64_t va, const void *buf, uint64_t len,
                            struct wk_mem_fault *fault);
wk_status wk_vidmm_va_counters(struct wk_vidmm *vm, uint32_t space, struct wk_va_counters *out);
/* wk_vidmm_va_move_root, the lower tables' links copied from the old root
 * to the new one with COPY_PAGE_TABLE_ENTRIES in the paging process
 * (PAGING-COPYPTE-001) rather than written with UPDATE_PAGE_TABLE. A driver
 * that builds nothing for it: WK_E_NOT_SUPPORTED (the kernel asks it of a
 * resizable 2-level root, which the driver may never have). */
wk_status wk_vidmm_va_move_root_copying(struct wk_vidmm *vm, uint32_t space);
/* A resizable 2-level root shrunk to the fewest entries (a power of two)
 * that hold the process's mappings: DxgkDdiGetRootPageTableSize asked for
 * them, a new root linked (copy: the links copied with
 * COPY_PAGE_TABLE_ENTRIES, "copy a portion of old root"), the tables past
 * it freed, DxgkDdiSetRootPageTable of each virtual context with the new
 * NumEntries. WK_E_NOT_SUPPORTED for another tree, or a root already that
 * small. */
wk_status wk_vidmm_va_shrink_root(struct wk_vidmm *vm, uint32_t space, int copy);
/* Whether a callback of the driver's was refused since the last call for
 * a limit of the kit's (a context allocation it could not place or update
 * for want of room the driver did not cause): 1 and why in buf, then
 * forgotten. A DDI the driver failed after it failed for the kit's reason. */
int wk_vidmm_take_kit_refusal(struct wk_vidmm *vm, char *buf, size_t size);
/* Bytes of the adapter's memory the kit's page tables take (every address
 * space's, the paging process's too; in segments, or system pages for a
 * driver that keeps its tables there): room a physical driver's adapter
 * keeps free. */
uint64_t wk_vidmm_page_table_bytes(struct wk_vidmm *vm);
/* Whether the calls the driver gets now are the kit's own paging work for
 * a GpuMmu driver's system paging process (its set-up, the page tables of
 * its scratch area): no step of a case asked them. */
int wk_vidmm_kit_paging_work(const struct wk_vidmm *vm);
/* The CPU's write, as a user-mode driver writes a command buffer: len bytes
 * into the allocations the kit mapped at [va, va + len) (its own record,
 * read-only mappings included), not through the GPU's MMU; a range the kit
 * did not map all of is WK_E_INVALID_ARGUMENT, as wk_vidmm_va_covered. */
wk_status wk_vidmm_va_put(struct wk_vidmm *vm, uint32_t space, uint64_t va, const void *buf, uint64_t len);
/* Whether the kit mapped all of [va, va + bytes) in the space (writable
 * when `write`), to an allocation with pages: WK_OK, or
 * WK_E_INVALID_ARGUMENT saying the first address that is not. The kit's
 * own record, not the driver's entries: what a step's buffer may use
 * without its fault being the case's mistake. */
wk_status wk_vidmm_va_covered(struct wk_vidmm *vm, uint32_t space, uint64_t va, uint64_t bytes, int write);

/*
 * Devices and contexts of a process (gpuva_context.c; wddm-gpummu-facts.md
 * 3.4 to 3.6):
 *   create_device_in: CreateDevice of a device of space's process (its
 *     hKmdProcess in DXGKARG_CREATEDEVICE); space 0 is create_device. A
 *     context of it created with DXGK_CREATECONTEXTFLAGS VirtualAddressing
 *     is told its process's root table (DxgkDdiSetRootPageTable) once made,
 *     and again whenever the root moves; a virtual context of a device of
 *     no process, or a driver without SetRootPageTable: WK_E_NOT_SUPPORTED.
 *   submit_virtual: DxgkDdiSubmitCommandVirtual of the `size` bytes at va in
 *     the context's process's space (kit-GPU commands, written there by the
 *     caller, wk_vidmm_virtual_commands), then waits for them:
 *     SUBMITV-STATUS-001, SUBMITV-GPU-001. --gpu none, or a binding whose
 *     encoder writes no command buffers: WK_E_NOT_SUPPORTED.
 *   va_move_root: the space's root table moves (its contexts idle): a new
 *     root, the lower tables linked into it, SetRootPageTable for each
 *     virtual context, the old root's memory poisoned and freed.
 *   A space with live devices cannot be destroyed (WK_E_STATE).
 */
wk_status wk_vidmm_create_device_in(struct wk_vidmm *vm, uint32_t flags, uint32_t space, uint32_t *device);
wk_status wk_vidmm_submit_virtual(struct wk_vidmm *vm, uint32_t context, uint64_t va, uint32_t size);
/* The same, for a buffer the caller made to page-fault at an address in
 * [fault_lo, fault_hi), unmapped in the context's process's space (or,
 * with write_to_read_only, mapped read-only for its write: a driver
 * without DXGK_GPUMMUCAPS.ReadOnlyMemorySupported never makes a page
 * read-only, WK_E_NOT_SUPPORTED): the GPU must fault there, and the driver
 * report it as a page fault (PAGEFAULT-NOTIFY-001, PAGEFAULT-FENCE-001,
 * PAGEFAULT-FLAGS-001); a run to its end ran in another space
 * (SUBMITV-GPU-001). The context is in error afterwards, as after any
 * page fault: a later submission to it is WK_E_INVALID_ARGUMENT. */
wk_status wk_vidmm_submit_virtual_to_fault(struct wk_vidmm *vm, uint32_t context, uint64_t va, uint32_t size,
                                           uint64_t fault_lo, uint64_t fault_hi, int write_to_read_only);
/* A virtual context's command buffer (one FILL or COPY at virtual
 * addresses) in the command set of the GPU that runs it: the kit's, or a
 * binding's encoder.commands (WK_E_NOT_SUPPORTED without one). */
wk_status wk_vidmm_virtual_commands(struct wk_vidmm *vm, struct wk_encode_commands *c);
wk_status wk_vidmm_va_move_root(struct wk_vidmm *vm, uint32_t space);
/* The address space of a context's device's process (WK_E_INVALID_ARGUMENT
 * for a device of no process). */
wk_status wk_vidmm_context_space(struct wk_vidmm *vm, uint32_t context, uint32_t *space);

/* Whether the driver reported segment id as an aperture (0 for no such
 * segment). */
int wk_vidmm_segment_is_aperture(const struct wk_vidmm *vm, uint32_t id);
/* The room left in a segment: its free bytes and its largest free run,
 * whoever took the rest (the case's allocations, the driver's own context
 * allocations, DMA buffers). WK_E_INVALID_ARGUMENT for an id the driver
 * did not report. */
wk_status wk_vidmm_segment_room(const struct wk_vidmm *vm, uint32_t segment_id, uint64_t *free_bytes,
                                uint64_t *largest);

/*
 * The room the kit's placement gives a case's allocations in a segment:
 * the first `bytes` of it (WK_VIDMM_NO_BUDGET, the default, or anything
 * from the segment's size up: all of it; 0: none). A memory manager may
 * use as much of a segment as it likes; a case written for a smaller
 * segment than the driver's runs as it was written in the first `bytes` of
 * the driver's, and what the driver asks for itself (context allocations,
 * DMA buffers in an aperture) goes above them while there is room there.
 * WK_E_INVALID_ARGUMENT for an id the driver did not report. Kept across
 * resets.
 */
#define WK_VIDMM_NO_BUDGET UINT64_MAX
wk_status wk_vidmm_set_segment_budget(struct wk_vidmm *vm, uint32_t segment_id, uint64_t bytes);

/*
 * The DDI table by interface version (ddi_table.c). The bytes of
 * DRIVER_INITIALIZATION_DATA that `version` defines (a member newer than
 * the driver's Version is absent: never read, never called; 0 below
 * Vista's); whether the kit takes that version (WDDM 1.3 to 2.3 and later,
 * read as 2.3), the reason in why when not; the table with the members its
 * Version lacks zeroed; and the DDIs a driver fills that the kit never
 * calls (up to max names, the count returned).
 */
size_t wk_dxgk_table_size(ULONG version);
int wk_dxgk_version_supported(ULONG version, char *why, size_t size);
void wk_dxgk_table_copy(DRIVER_INITIALIZATION_DATA *to, const DRIVER_INITIALIZATION_DATA *from);
uint32_t wk_dxgk_undriven(const DRIVER_INITIALIZATION_DATA *t, const char **names, uint32_t max);
/* The DDIs the kernel calls on every adapter that renders that the table
 * leaves NULL (DDI-TABLE-001, facts §5.11): their names into names[0..max),
 * in table order; returns how many (which may exceed max). DxgkDdiPatch is
 * among them only for a table whose version has no DXGK_CONTEXTINFO.Caps:
 * from WDDM 2.0 a context that reports Caps.NoPatchingRequired is never
 * patched, so whether Patch is needed is the contexts' to say
 * (wk_dxgk_patch_left_to_contexts). */
uint32_t wk_dxgk_missing_required(const DRIVER_INITIALIZATION_DATA *t, const char **names, uint32_t max);
/* Whether interface version `version` has DXGK_CONTEXTINFO.Caps (WDDM 2.0,
 * 0x5023: the field's guard in d3dkmddi.h); the kit reads Caps as 0 for a
 * driver of an older version, whatever its bytes hold. */
int wk_dxgk_has_context_caps(ULONG version);
/* 1 when the table leaves DxgkDdiPatch NULL and its version has
 * DXGK_CONTEXTINFO.Caps: Patch is then needed for every context that does
 * not report NoPatchingRequired, which only a context can say (the adapter
 * asks one when it checks the table, DDI-TABLE-001). */
int wk_dxgk_patch_left_to_contexts(const DRIVER_INITIALIZATION_DATA *t);

/* The PagingBufferSize the driver reported in QUERYSEGMENT (after start). */
uint32_t wk_vidmm_driver_paging_buffer_size(const struct wk_vidmm *vm);

/* The order in which placement tries the supported segments an allocation
 * did not prefer: ids[0..n) first, then the rest by id (n 0: by id, the
 * default). Which segment VidMm falls back to is its own policy; a case
 * run on a driver's own layout keeps its description's order. Ids the
 * driver did not report are ignored. Kept across resets. */
void wk_vidmm_set_segment_order(struct wk_vidmm *vm, const uint32_t *ids, uint32_t n);

/* The semantic checks the no_model mode skipped so far (each a check of
 * what a buffer did that the kit would have made on the model). */
uint64_t wk_vidmm_semantic_skipped(const struct wk_vidmm *vm);

/* A driver module is named by its file: a path without a '/' is the file
 * in the working directory, not a library for the loader to search for,
 * which is what dlopen makes of it and what nobody typing
 * `--driver mydriver.so` means. wk_vidmm_module_path writes the path to
 * hand the loader ("./" prepended to such a name) into out[0, cap) and
 * returns out, or returns path itself when it does not fit;
 * wk_vidmm_module_open is dlopen(wk_vidmm_module_path(path), flags).
 * Every load of a driver module goes through them, so that all see the
 * same object (RTLD_NOLOAD looks a module up by the name it was loaded
 * with). */
const char *wk_vidmm_module_path(const char *path, char *out, size_t cap);
void *wk_vidmm_module_open(const char *path, int flags);

/* Whether the file at path is an ELF object for another machine or word
 * size than this kit's, from its header (e_machine, EI_CLASS): what to say
 * when dlopen refused it, whose own message for such a file is "cannot open
 * shared object file: No such file or directory". 1 with "built for aarch64
 * (EM_AARCH64), this kit runs x86-64" in why; 0 (why untouched) when it is
 * not (no ELF file, or one for this host). module_arch.c. */
int wk_vidmm_module_foreign(const char *path, char *why, size_t cap);

/*
 * The crash slot: what a case's process leaves, in memory it shares with
 * the process that forked it (the case runner, `repro` and the other crash
 * tools), for a report on a death no frame of the kit sees.
 *
 *   - Every DDI call and return stores the DDI of the frame then active
 *     (enum wk_ddi; WK_DDI_NONE between calls) into `ddi`: one store, no
 *     system call. A driver that calls exit() or _exit() inside a DDI ends
 *     the process past every frame, and the parent names the DDI from it.
 *   - A fatal signal raised on a thread of the driver's (not the one that
 *     calls the DDIs, where it ends the DDI call instead) is noted in
 *     `thread_*` by the kit's signal handler on that thread before the
 *     process dies: a system thread the kit started for the driver
 *     (PsCreateSystemThread: its StartRoutine and the DDI that created it)
 *     or a thread the driver started itself. The parent then names the
 *     thread, not whichever DDI the kit's thread was waiting in.
 *
 * The driver shares the process and may scribble here: every reader
 * checks what it reads (crash_slot.c).
 */
#define WK_VIDMM_ROUTINE_NAME 96
enum wk_vidmm_thread_kind {
    WK_VIDMM_THREAD_NONE = 0,   /* no driver thread died of a signal */
    WK_VIDMM_THREAD_SYSTEM = 1, /* a system thread the kit started (kmthread.h) */
    WK_VIDMM_THREAD_OWN = 2,    /* a thread the driver started itself */
};
struct wk_vidmm_crash_slot {
    uint32_t ddi;                         /* enum wk_ddi of the active frame */
    uint32_t thread_kind;                 /* enum wk_vidmm_thread_kind */
    int32_t thread_signo;                 /* the signal the thread died of */
    uint32_t thread_created_in;           /* system thread: enum wk_ddi that created it */
    uint32_t thread_fault_has_addr;       /* the signal carries a fault address */
    uint32_t thread_claimed;              /* the first thread to die took the note */
    uint64_t thread_fault_addr;
    char thread_routine[WK_VIDMM_ROUTINE_NAME]; /* system thread: "worker" or "module.so+0x1a2b" */
    uint32_t descriptors_taken;           /* a replay binary found its standard error closed (1) or
                                             another file (2) at its end: wk_vidmm_note_descriptors_taken */
};

/* A slot with no DDI and no thread noted. */
void wk_vidmm_crash_slot_init(volatile struct wk_vidmm_crash_slot *slot);

/* Where this process publishes (NULL: nowhere, the default). Call it on
 * the thread that will call the DDIs: a signal on any other thread is a
 * thread of the driver's. */
void wk_vidmm_publish_crash_slot(volatile struct wk_vidmm_crash_slot *slot);

/* The DDI a slot names (WK_DDI_NONE: none, or not a DDI). */
enum wk_ddi wk_vidmm_crash_slot_ddi(const volatile struct wk_vidmm_crash_slot *slot);

/* What the slot says about a process that ended with wait status `status`,
 * as one violation message starting with DRV-CRASH-001 (the driver's crash,
 * not the kit's), into out: "DRV-CRASH-001: crashed with signal 11
 * (Segmentation fault) at address (nil) in the driver's system thread
 * (StartRoutine worker, started during DxgkDdiRender)", "... in a thread
 * the driver started itself (not a DDI)", or "DRV-CRASH-001: DxgkDdiRender:
 * the driver exited the process (exit status 3)": WK_VIDMM_CRASH_THREAD or
 * WK_VIDMM_CRASH_EXIT. 0 (out empty) when it says neither: no slot, a
 * signal on the kit's thread, or an exit outside any DDI. */
#define WK_VIDMM_CRASH_THREAD 1
#define WK_VIDMM_CRASH_EXIT 2
#define WK_VIDMM_CRASH_DESCRIPTORS 3 /* "DRV-CRASH-001: the driver closed ..." */

/* Notes in the published slot that the process's standard error, where a
 * replay binary reports its findings, was closed (how 1) or replaced by
 * another file (how 2) by the time it ended: a driver that takes the
 * kit's descriptors loses the run's findings, which is no pass. */
void wk_vidmm_note_descriptors_taken(int how);
/* sanitizer: a sanitizer report came before the exit (the exit is the
 * sanitizer's, "a sanitizer report ended the process", not the driver's). */
int wk_vidmm_crash_slot_describe(const volatile struct wk_vidmm_crash_slot *slot, int status, int sanitizer,
                                 char *out, size_t cap);

/* The symbol of an instrumentation runtime (a sanitizer's, SanitizerCoverage's,
 * AFL++'s, ...) that a loader message (dlerror) names as undefined, into
 * sym[0, cap); 0 when it names no such symbol. */
int wk_vidmm_missing_runtime_symbol(const char *loader_message, char *sym, size_t cap);
wk_status wk_vidmm_attach(struct wk_vidmm *vm, DRIVER_INITIALIZE *entry);

/* AddDevice, StartDevice, driver caps and the segment query, each checked. */
wk_status wk_vidmm_start(struct wk_vidmm *vm);

/* The last error or violation, as one line (empty when none). A call that
 * succeeds leaves it as it was; wk_vidmm_reset and
 * wk_vidmm_clear_last_error empty it (a fuzz harness that keeps an adapter
 * across inputs clears it per input, so that a finding's report never
 * quotes an earlier input's error). */
const char *wk_vidmm_last_error(const struct wk_vidmm *vm);
/* Whether cfg.device_error_at's submission came (the error was armed on
 * the GPU), and in words why it did not. */
int wk_vidmm_device_error_armed(const struct wk_vidmm *vm);
const char *wk_vidmm_device_error_why_not(const struct wk_vidmm *vm);
/* Sets the last error to what a request the caller refuses before any
 * DDI says (a case's step the runner finds wrong) and returns st. */
wk_status wk_vidmm_refuse(struct wk_vidmm *vm, wk_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void wk_vidmm_clear_last_error(struct wk_vidmm *vm);

/* ------------------------------------------------------------------ */
/* Answer rewriting (negative tests)                                    */
/* ------------------------------------------------------------------ */

/*
 * Called after every DDI returns and before its answer is checked, with the
 * DDI's argument struct (e.g. DXGKARG_BUILDPAGINGBUFFER*) and its status:
 * the knob that lets a test turn a correct driver's answer into a bad one
 * ("advance pDmaBuffer by DmaSize + 16") and prove the check notices. For
 * QueryAdapterInfo `args` is the DXGKARG_QUERYADAPTERINFO; for CreateDevice
 * the DXGKARG_CREATEDEVICE, and so on; StartDevice gets the DXGK_START_INFO;
 * InterruptRoutine gets NULL and its BOOLEAN answer in *status. For the
 * callbacks the driver calls: DxgkCbCreateContextAllocation's argument,
 * a copy of DxgkCbNotifyInterrupt's data, and a HANDLE* holding
 * DxgkCbDestroyContextAllocation's handle. The rewriter runs inside the
 * DDI's guarded frame: if it crashes or hangs, that is reported as the
 * driver's crash or hang.
 */
typedef void wk_vidmm_rewrite_fn(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status);
void wk_vidmm_set_rewriter(struct wk_vidmm *vm, wk_vidmm_rewrite_fn *fn, void *user);

/* ------------------------------------------------------------------ */
/* Objects                                                              */
/* ------------------------------------------------------------------ */

wk_status wk_vidmm_create_device(struct wk_vidmm *vm, uint32_t flags, uint32_t *device);
wk_status wk_vidmm_destroy_device(struct wk_vidmm *vm, uint32_t device);

/* flags: a DXGK_CREATECONTEXTFLAGS value (GdiContext, SystemContext, ...). */
wk_status wk_vidmm_create_context(struct wk_vidmm *vm, uint32_t device, uint32_t flags,
                                  uint32_t *context);
/* The same on engine `node` (DXGKARG_CREATECONTEXT.NodeOrdinal; the kit's
 * own contexts are on node 0): its buffers are submitted there, and their
 * completions must name it (INTR-ORDINAL-001). WK_E_NOT_SUPPORTED for a node
 * the driver does not report. */
wk_status wk_vidmm_create_context_on(struct wk_vidmm *vm, uint32_t device, uint32_t flags, uint32_t node,
                                     uint32_t *context);
wk_status wk_vidmm_destroy_context(struct wk_vidmm *vm, uint32_t context);
/* The DXGK_CONTEXTINFO the driver returned. */
wk_status wk_vidmm_context_info(struct wk_vidmm *vm, uint32_t context, DXGK_CONTEXTINFO *info);
/* The NodeOrdinal a context was created on (0 for no such context). */
uint32_t wk_vidmm_context_node(struct wk_vidmm *vm, uint32_t context);

wk_status wk_vidmm_create_allocation(struct wk_vidmm *vm, uint32_t device,
                                     const WK_ALLOCATION_REQUEST *request, uint32_t *allocation);
wk_status wk_vidmm_destroy_allocation(struct wk_vidmm *vm, uint32_t allocation);

/* Where an allocation is. */
struct wk_vidmm_allocation_state {
    int resident;             /* 1: in a segment */
    uint32_t segment_id;      /* when resident */
    uint64_t segment_offset;  /* when resident */
    uint64_t gpu_address;     /* segment base + offset when resident */
    uint32_t bank;            /* 1-based bank in a banked segment, else 0 */
    uint64_t size;            /* the driver's Size, page rounded */
    uint64_t alignment;       /* the driver's Alignment (0: none asked) */
    uint64_t system_pages;    /* backing pages in system memory (0 before first eviction) */
    HANDLE driver_handle;     /* the driver's hAllocation, as the kit checked and kept it */
    HANDLE device_handle;     /* what an allocation list names it by (DXGK_ALLOCATIONLIST.
                                 hDeviceSpecificAllocation): DxgkDdiOpenAllocation's handle for
                                 its device, driver_handle for a driver without that DDI */
    /* What the driver answered in its DXGK_ALLOCATIONINFO (checked copy) */
    uint32_t preferred;       /* PreferredSegment.Value */
    uint32_t hinted_bank;     /* HintedBank.Value */
    uint32_t supported_write; /* SupportedWriteSegmentSet */
    uint32_t eviction;        /* EvictionSegmentSet */
    uint32_t flags;           /* Flags.Value */
};
wk_status wk_vidmm_allocation_state(struct wk_vidmm *vm, uint32_t allocation,
                                    struct wk_vidmm_allocation_state *state);
/* The system frame behind page `page` of an allocation that has system
 * pages (evicted, or resident in an aperture: system_pages of its state). */
wk_status wk_vidmm_allocation_frame(struct wk_vidmm *vm, uint32_t allocation, uint64_t page, uint64_t *pfn);
/* A count that changes whenever any allocation is placed, moved, evicted or
 * released, and at every reset (and never goes back): while it stays the
 * same, every allocation_state's placement is what it was. For fixtures
 * that must know nothing moved without asking about each allocation. */
uint64_t wk_vidmm_placement_epoch(const struct wk_vidmm *vm);
/* How many failures the case's injection (cfg.inject) played so far: 0 or 1. */
uint32_t wk_vidmm_injected(const struct wk_vidmm *vm);

/* ------------------------------------------------------------------ */
/* Residency and paging (each through DxgkDdiBuildPagingBuffer)         */
/* ------------------------------------------------------------------ */

/* Makes an allocation resident: placement by its preferences (segments in
 * order, banks in order, their directions), a FILL of zero the first time,
 * a TRANSFER from system memory after an eviction. Evicts others when full. */
wk_status wk_vidmm_page_in(struct wk_vidmm *vm, uint32_t allocation);
/* Moves an allocation out to system memory (TRANSFER segment → MDL). */
wk_status wk_vidmm_evict(struct wk_vidmm *vm, uint32_t allocation);
/* FILL a resident allocation with a 32-bit pattern. */
wk_status wk_vidmm_fill(struct wk_vidmm *vm, uint32_t allocation, uint32_t pattern);
/* DISCARD_CONTENT: evict without copying back. */
wk_status wk_vidmm_discard(struct wk_vidmm *vm, uint32_t allocation);
/* TRANSFER a resident allocation to another place in segment `segment_id`. */
wk_status wk_vidmm_relocate(struct wk_vidmm *vm, uint32_t allocation, uint32_t segment_id);
/* READ_PHYSICAL / WRITE_PHYSICAL at a segment address. */
wk_status wk_vidmm_touch_physical(struct wk_vidmm *vm, uint32_t segment_id, uint64_t offset,
                                  int write);
/* SPECIAL_LOCK_TRANSFER of a resident allocation to system memory and back. */
wk_status wk_vidmm_special_lock_transfer(struct wk_vidmm *vm, uint32_t allocation);
/* SIGNAL_MONITORED_FENCE at a GPU address: WK_E_INVALID_ARGUMENT when it is
 * no GPU address or its 8 bytes touch a system page of the kit's own DMA and
 * paging buffers, WK_E_STATE when the GPU cannot reach them. The operation
 * is WDDM 2.2's (facts §1.1, P24): a driver that reports an older
 * WDDMVersion is not asked it. For such a driver the kit writes the value
 * itself, on the GPU's side, through the GPU's own translation (the
 * aperture's TLB), when the address is in an aperture: the write then lands
 * where the driver's MAP_APERTURE_SEGMENT put the page, which is what the
 * cases that aim a fence at an aperture allocation prove. It calls no DDI
 * and counts in stats.kit_fence_writes, not as a paging operation;
 * WK_E_STATE when the GPU's translation (a TLB line the driver's buffers
 * left unflushed) refuses the write or sends it elsewhere. Elsewhere, or
 * when wk_vidmm_allow_kit_fences(vm, 0) said so, WK_E_NOT_SUPPORTED with
 * the reason. */
wk_status wk_vidmm_signal_monitored_fence(struct wk_vidmm *vm, uint64_t gpu_address,
                                          uint64_t value);
/* Whether the kit may write a fence itself for a driver older than WDDM
 * 2.2 (above); 1 unless told. A negative case says 0: its corruption counts
 * the driver's calls, and the kit's write would leave out the calls the
 * driver's fence makes. */
void wk_vidmm_allow_kit_fences(struct wk_vidmm *vm, int allow);

/* Host access to an allocation's bytes wherever it lives (for specs). */
wk_status wk_vidmm_read(struct wk_vidmm *vm, uint32_t allocation, uint64_t offset, void *buf,
                        uint64_t len);
wk_status wk_vidmm_write(struct wk_vidmm *vm, uint32_t allocation, uint64_t offset,
                         const void *buf, uint64_t len);
wk_status wk_vidmm_digest(struct wk_vidmm *vm, uint32_t allocation, uint64_t *digest);
/* The same over the allocation's first `bytes` (0 or past its size: all of
 * it): a case's digest of the bytes it asked for, when the driver answered
 * a larger Size. */
wk_status wk_vidmm_digest_first(struct wk_vidmm *vm, uint32_t allocation, uint64_t bytes, uint64_t *digest);
/* Read-only look at bytes [offset, offset + len) of an allocation, all
 * within one 4 KiB page of it (WK_E_OUT_OF_RANGE otherwise), without a
 * copy: *data points where the model keeps them, valid until the adapter
 * next changes anything (a DDI call, a write, a reset), or at `scratch`
 * (len bytes) when they had to be copied, or is NULL when they read as
 * zeroes. The statuses are wk_vidmm_read's. */
wk_status wk_vidmm_peek(struct wk_vidmm *vm, uint32_t allocation, uint64_t offset, uint64_t len,
                        void *scratch, const uint8_t **data);


/* ------------------------------------------------------------------ */
/* Command submission                                                   */
/* ------------------------------------------------------------------ */

/* One entry of the allocation list a render refers to. */
struct wk_vidmm_list_entry {
    uint32_t allocation;      /* handle, or 0 for a NULL (unbind) entry */
    int write;                /* WriteOperation */
};

struct wk_vidmm_render {
    uint32_t context;
    const void *command;                      /* user command buffer */
    uint32_t command_length;
    const struct wk_vidmm_list_entry *list;   /* allocation list */
    uint32_t list_length;
    const D3DDDI_PATCHLOCATIONLIST *patch_in; /* user patch list (may be NULL) */
    uint32_t patch_in_length;
    int no_prepatch_info;                     /* 1: every SegmentId 0 in the list */
};

struct wk_vidmm_render_result {
    NTSTATUS status;          /* the driver's final Render status */
    uint32_t passes;          /* Render calls (multipass) */
    uint32_t submissions;     /* DMA buffers submitted */
    uint32_t last_fence;      /* fence id of the last submission */
};

/* Render (with multipass) → page in the referenced allocations → Patch →
 * SubmitCommand → run the GPU → interrupts → fence completion. The
 * allocation list is the DMA buffer's working set: its members are never
 * evicted for each other, and when they cannot all be resident at once the
 * render fails with WK_E_NO_SPACE before anything is submitted. */
wk_status wk_vidmm_render(struct wk_vidmm *vm, const struct wk_vidmm_render *args,
                          struct wk_vidmm_render_result *result);

/*
 * Calls DxgkDdiPatch directly on a DMA buffer the caller provides (copied
 * into the context's guarded DMA buffer), as the kernel does before a
 * submission: `list` and `patch` are the allocation and patch-location
 * lists, [start, end) the submission range, [patch_start, +patch_count) the
 * entries to process. The answer is checked like any Patch (PATCH-STATUS-001,
 * PATCH-CONFINE-001, PATCH-VALUE-001, MEM-GUARD-001); nothing is submitted.
 * WK_E_INVALID_ARGUMENT when the inputs do not fit the context's buffers.
 */
struct wk_vidmm_patch {
    uint32_t context;
    const uint8_t *dma;
    uint32_t dma_length;               /* bytes copied to the start of the DMA buffer */
    const DXGK_ALLOCATIONLIST *list;
    uint32_t list_length;
    const D3DDDI_PATCHLOCATIONLIST *patch;
    uint32_t patch_length;
    uint32_t start, end;               /* submission range in the DMA buffer */
    uint32_t patch_start, patch_count; /* entries to process */
};
wk_status wk_vidmm_patch(struct wk_vidmm *vm, const struct wk_vidmm_patch *args);

/*
 * Where the GPU's encoding has patch slots, as a harness that builds bare
 * Patch calls must know it (fuzz_patch; a `patch` step): `align`, the
 * step between offsets where a slot can start, and `bytes`, the width of
 * one. The kit's GPU: 1 and 8 (an ADDR operand may sit at any byte). A
 * binding's processor is asked (read_address at offsets 0 to 31 of a
 * buffer of zeroes, then of 0xff bytes, since an encoding may need a valid
 * bit): the gcd of the offsets that decode and the widest slot seen (Heron,
 * OtherGPU: 4 and 8; an outsider's Finch F1: 1 and 5, 40-bit addresses at
 * packet offsets 2 and 7). A binding that decodes none of them, or only
 * offset 0 (no step known), or has no read_address (the kit then judges
 * no patched value): align 1, no offset is rounded; bytes 8 when nothing
 * decoded.
 */
struct wk_vidmm_patch_slots {
    uint32_t align;
    uint32_t bytes;
};
void wk_vidmm_patch_slots(struct wk_vidmm *vm, struct wk_vidmm_patch_slots *out);

/* Runs the GPU and delivers interrupts until every submitted fence has been
 * reported complete (or a bound is hit: SUBMIT-FENCE-001). */
wk_status wk_vidmm_wait_idle(struct wk_vidmm *vm);

/* Holds the next `count` render submissions in the software queue instead
 * of submitting them, then wk_vidmm_cancel_held cancels them as after a TDR
 * (DxgkDdiCancelCommand when the driver is CancelCommandAware). */
void wk_vidmm_hold_submissions(struct wk_vidmm *vm, uint32_t count);

/* Lets the next `count` render submissions reach DxgkDdiSubmitCommand
 * without a wait in between, as Windows' scheduler queues DMA buffers on
 * the hardware (facts §5.12 N4); after the last of them the GPU runs them
 * all. `each`: an interrupt after every buffer, the later ones still
 * queued; else one for each run of one node's buffers (a DMA completion
 * report names "the latest completed DMA buffer", N5). Anything that needs
 * the GPU idle drains the queue first (reference-impl/vidmm/queue.c). */
void wk_vidmm_queue_renders(struct wk_vidmm *vm, uint32_t count, int each);

/* Runs the render submissions left queued, delivers their interrupts and
 * judges their faults; ends the batch. WK_OK when nothing is queued. */
wk_status wk_vidmm_drain(struct wk_vidmm *vm);
wk_status wk_vidmm_cancel_held(struct wk_vidmm *vm, uint32_t *cancelled);

/* ------------------------------------------------------------------ */
/* Results                                                              */
/* ------------------------------------------------------------------ */

struct wk_violation {
    char rule[24];            /* e.g. "PAGING-ADVANCE-001" */
    enum wk_ddi ddi;
    char message[320];        /* starts with the rule ID */
};

/* Violations since creation: the first `max` copied, *total counts all. */
uint32_t wk_vidmm_violations(const struct wk_vidmm *vm, struct wk_violation *out, uint32_t max,
                             uint64_t *total);
/* Whether rule `id` was violated at least once. */
int wk_vidmm_violated(const struct wk_vidmm *vm, const char *rule_id);
/* The same for the catalogue's rule number `index` (wk_rules' order): no
 * string compares, for a caller that walks the whole catalogue. 0 for an
 * index past it. */
int wk_vidmm_rule_violated(const struct wk_vidmm *vm, uint32_t index);

/* Counters for expectations and coverage. */
/* The DXGKRNL_INTERFACE callbacks the kit does not model (they answer
 * STATUS_NOT_SUPPORTED, nothing, NULL or FALSE): how many, and the name of
 * each by index (NULL past the last). */
#define WK_VIDMM_UNMODELLED_CALLBACKS 33u
const char *wk_vidmm_unmodelled_callback(uint32_t index);

struct wk_vidmm_stats {
    uint64_t ddi_calls[WK_DDI_COUNT];
    uint64_t paging_ops[18];          /* by DXGK_BUILDPAGINGBUFFER_OPERATION */
    uint64_t paging_multipass[18];    /* ... of those, the operations that asked for more room
                                         (STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) at least once */
    uint64_t paging_passes;           /* BuildPagingBuffer calls */
    uint64_t paging_buffers;          /* paging buffers submitted */
    uint64_t evictions;
    uint64_t fences_completed;
    uint64_t gpu_faults;              /* faults while running the driver's buffers */
    uint64_t kit_fence_writes;        /* fence values the kit wrote itself for a driver older
                                         than WDDM 2.2 (wk_vidmm_signal_monitored_fence): no
                                         paging operation, pass, buffer or fence counted */
    uint32_t unmodelled_calls[WK_VIDMM_UNMODELLED_CALLBACKS]; /* calls of each callback the kit
                                         does not model (wk_vidmm_unmodelled_callback) */
    uint32_t paging_process_setups;   /* a GpuMmu driver's system paging process made (or its
                                         making begun): its transfers and fills are
                                         TRANSFER_VIRTUAL and FILL_VIRTUAL, with other calls
                                         around them (reference-impl/vidmm/paging_process.c) */
    uint32_t root_grows;              /* a two-level tree's root grown: the process mapped past
                                         its end (reference-impl/vidmm/gpuva.c, grow_root) */
    uint32_t root_shrinks;            /* ... and shrunk (wk_vidmm_va_shrink_root) */
};
void wk_vidmm_get_stats(const struct wk_vidmm *vm, struct wk_vidmm_stats *out);

/* src into dst's `size` bytes; one too long is cut at a word, "..."
 * marking the cut (violation messages, reports). */
void wk_vidmm_text_cut(char *dst, size_t size, const char *src);

/* The render submissions with patch locations that VidMm did not patch
 * because their context reported DXGK_CONTEXTINFO.Caps.NoPatchingRequired,
 * since the adapter started or was reset; *context (may be NULL) gets the
 * last such context, 0 when none. A failed data check names them: a driver
 * whose buffers did need patching is told why Patch was not called. */
uint32_t wk_vidmm_unpatched(const struct wk_vidmm *vm, uint32_t *context);

/* The GPU model under the adapter. */
struct wk_gpu *wk_vidmm_gpu(struct wk_vidmm *vm);
/* Whether the started driver's GPU reaches all of the adapter's system
 * memory: NULL, or why not in why (the top of system memory above its
 * DXGK_DRIVERCAPS.HighestAcceptableAddress, facts §4.11). VidMm backs what
 * it hands a driver (the MDLs of transfers, the frames of aperture maps,
 * DMA buffers in system memory) with pages below that address, so such an
 * adapter asks what no VidMm asks of that driver: `conform` skips the case,
 * the fuzz harnesses take the description as refused by the driver. */
const char *wk_vidmm_system_unreachable(const struct wk_vidmm *vm, char *why, size_t size);

/* What the started driver declared: its caps, and whether it provides a DDI
 * (an optional DDI left NULL means "not supported"). */
void wk_vidmm_driver_caps(const struct wk_vidmm *vm, DXGK_DRIVERCAPS *caps);
int wk_vidmm_has_ddi(const struct wk_vidmm *vm, enum wk_ddi ddi);

/* ------------------------------------------------------------------ */
/* The floor: time spent in the driver's code and the GPU's (floor.c)    */
/* ------------------------------------------------------------------ */

/*
 * In a build with WK_FLOOR_TIMING (the bench-floor preset) this thread's
 * time inside DDI calls into the driver (from just before the call to just
 * after it returns) and inside the
 * command processor executing DMA buffers (the GPU model's wk_gpu_run, a
 * binding's processor) is summed, each outermost interval once, less the
 * time of the kernel callbacks and kernel-mode services the driver calls
 * inside them (the kit's work; register accesses stay in): the floor
 * of an input, the work no harness can avoid (bench/fuzz_speed --floor,
 * docs/performance.md). Read with the monotonic clock (vDSO: no system
 * call); each interval costs two reads, which the benchmark measures and
 * subtracts. Without the option, nothing is timed and wk_floor_enabled is 0.
 */
struct wk_floor {
    uint64_t driver_ns, gpu_ns;         /* summed intervals */
    uint64_t driver_calls, gpu_runs;    /* intervals summed */
    uint64_t callbacks;                 /* kit callbacks taken out of them (two clock reads each) */
};
int wk_floor_enabled(void);
void wk_floor_read(struct wk_floor *out);
void wk_floor_reset(void);

/* ------------------------------------------------------------------ */
/* The contract-rule catalogue                                          */
/* ------------------------------------------------------------------ */

struct wk_rule {
    const char *id;           /* stable, e.g. "PAGING-ADVANCE-001" */
    enum wk_ddi ddi;          /* the DDI whose answer it checks */
    const char *text;         /* the rule */
    const char *source;       /* seed sentence or facts section */
    const char *where;        /* the source files that check it */
};

/* The whole catalogue, in table order. */
const struct wk_rule *wk_rules(uint32_t *count);
/* The most rules the catalogue may hold: reports keep a bit per rule in
 * WK_RULE_WORDS 64-bit words (rules.c asserts the catalogue fits). */
#define WK_RULE_WORDS 4u
#define WK_RULE_CAPACITY (64u * WK_RULE_WORDS)
const struct wk_rule *wk_rule_find(const char *id);
/* Whether rule `id` is checked only by executing the driver's buffers on the
 * GPU model (the semantic level: what was filled, moved, mapped, signalled,
 * patched; GPU faults; fences the GPU completed). With no_model nothing can
 * violate it, and a negative case that trips it cannot be judged. */
int wk_rule_needs_model(const char *id);
/* Whether rule `id` holds a driver to a choice the documentation leaves
 * open, made as the reference driver makes it (the reference profile only). */
int wk_rule_is_choice(const char *id);
/* Whether rule `id` is one of the hardware binding's (BIND-*): tripped, it
 * makes the case an `error`, never the driver's failure. */
int wk_rule_is_binding(const char *id);

/* Writes docs/contract-rules.md: the catalogue as Markdown. */
void wk_rules_write_markdown(FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_VIDMM_H */
