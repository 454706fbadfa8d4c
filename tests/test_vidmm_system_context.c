/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_system_context.c - the system context the kit creates at
 * adapter start, and the node paging runs on
 * (reference-impl/vidmm/system_context.c, paging_node.c,
 * objects.c adapter_paging_node), with the reference driver wrapped: a
 * test-only DriverEntry takes its DDI table and replaces a few DDIs.
 *
 *   - hSystemContext is the handle the driver returned for the system
 *     context (CreateContext with Flags.SystemContext, on a device created
 *     with Flags.SystemDevice): a driver that reads its context object
 *     through it pages cleanly (a fake handle made it crash, DRV-CRASH-001);
 *     the context survives a reset and goes, with its device, before
 *     StopDevice;
 *   - a MultiEngineAware WDDM 2.x driver of two nodes that names node 1 in
 *     DXGK_PHYSICALADAPTERCAPS.PagingNodeIndex gets its system context and
 *     every paging submission on node 1, its renders on node 0; an
 *     interrupt routine that reports node 0 for them is INTR-ORDINAL-001;
 *   - a WDDM 1.x driver names it in DXGK_VIDMMCAPS.PagingNode instead;
 *   - a driver that fails the query, or names a node it did not report,
 *     pages on node 0, unblamed;
 *   - a driver that fails the system context's creation fails the start,
 *     the result saying so.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "reference.h"

#include "vidmm_test_util.h"

#define MAX_FENCES 1024u

/* What the wrapped driver reports, and what it saw. A DriverEntry takes no
 * user pointer: test-only state, reset by each test. */
static struct {
    /* knobs */
    UINT nodes;                 /* NbAsymetricProcessingNodes (0: the reference driver's) */
    UINT paging_node;           /* PagingNodeIndex it answers */
    int query_fails;            /* PHYSICALADAPTERCAPS: STATUS_INVALID_PARAMETER */
    int wddm1;                  /* WDDMVersion 1.3, PagingNode in DXGK_VIDMMCAPS */
    int isr_right_node;         /* reports each fence on the node it was submitted to */
    int system_context_fails;   /* CreateContext with SystemContext: STATUS_INVALID_PARAMETER */
    /* seen */
    uint32_t physical_queries;
    uint32_t system_devices, system_contexts;
    HANDLE system_device;       /* what CreateDevice returned for the system device */
    HANDLE system_context;      /* what CreateContext returned for it */
    ULONG system_context_word;  /* the first word of the driver's context object */
    UINT system_node, system_affinity;
    uint32_t builds, builds_on_system_context;
    uint32_t paging_on[4], render_on[4];
    UINT fence_node[MAX_FENCES];
    int destroyed_system_context, destroyed_system_device, stopped_after_both, stopped_after_device;
} W;

static DRIVER_INITIALIZATION_DATA ref;
static DXGKCB_NOTIFY_INTERRUPT kit_notify;

static NTSTATUS w_query(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (q->Type == DXGKQAITYPE_PHYSICALADAPTERCAPS) {
        W.physical_queries++;
        if (W.query_fails || q->OutputDataSize < sizeof(DXGK_PHYSICALADAPTERCAPS))
            return STATUS_INVALID_PARAMETER;
        DXGK_PHYSICALADAPTERCAPS *c = q->pOutputData;
        memset(c, 0, sizeof(*c));
        c->NumExecutionNodes = (USHORT)W.nodes;
        c->PagingNodeIndex = (USHORT)W.paging_node;
        return STATUS_SUCCESS;
    }
    NTSTATUS st = ref.DxgkDdiQueryAdapterInfo(hAdapter, q);
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_DRIVERCAPS) {
        DXGK_DRIVERCAPS *caps = q->pOutputData;
        if (W.nodes)
            caps->GpuEngineTopology.NbAsymetricProcessingNodes = W.nodes; /* MultiEngineAware already */
        if (W.wddm1) {
            caps->WDDMVersion = DXGKDDI_WDDMv1_3;
            caps->MemoryManagementCaps.PagingNode = W.paging_node;
        }
    }
    return st;
}

static NTSTATUS w_create_device(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *args)
{
    int system = args->Flags.SystemDevice;
    NTSTATUS st = ref.DxgkDdiCreateDevice(hAdapter, args);
    if (system && NT_SUCCESS(st)) {
        W.system_devices++;
        W.system_device = args->hDevice;
    }
    return st;
}

static NTSTATUS w_create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *args)
{
    int system = args->Flags.SystemContext;
    if (system && W.system_context_fails)
        return STATUS_INVALID_PARAMETER;
    UINT node = args->NodeOrdinal, affinity = args->EngineAffinity;
    NTSTATUS st = ref.DxgkDdiCreateContext(hDevice, args);
    if (system && NT_SUCCESS(st)) {
        W.system_contexts++;
        W.system_context = args->hContext;
        W.system_context_word = *(const ULONG *)args->hContext;
        W.system_node = node;
        W.system_affinity = affinity;
    }
    return st;
}

/* The driver looks its context object up from hSystemContext, as a
 * driver that builds for the engine its system context runs on does. */
static NTSTATUS w_build(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *args)
{
    W.builds++;
    if (args->hSystemContext == W.system_context &&
        *(const volatile ULONG *)args->hSystemContext == W.system_context_word)
        W.builds_on_system_context++;
    return ref.DxgkDdiBuildPagingBuffer(hAdapter, args);
}

static NTSTATUS w_submit(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *args)
{
    uint32_t n = args->NodeOrdinal < 4 ? args->NodeOrdinal : 3;
    if (args->Flags.Paging)
        W.paging_on[n]++;
    else
        W.render_on[n]++;
    W.fence_node[args->SubmissionFenceId % MAX_FENCES] = args->NodeOrdinal;
    return ref.DxgkDdiSubmitCommand(hAdapter, args);
}

/* The reference driver's interrupt routine reports each fence on the node
 * it was submitted to; the planted driver of (b) reports every one on node
 * 0 (isr_right_node 0), the one of (a) on the node that ran it. */
static VOID w_notify(const HANDLE hAdapter, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *d)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n = *d;
    if (n.InterruptType == DXGK_INTERRUPT_DMA_COMPLETED)
        n.DmaCompleted.NodeOrdinal = W.isr_right_node ? W.fence_node[n.DmaCompleted.SubmissionFenceId % MAX_FENCES] : 0;
    else if (n.InterruptType == DXGK_INTERRUPT_DMA_FAULTED)
        n.DmaFaulted.NodeOrdinal = W.isr_right_node ? W.fence_node[n.DmaFaulted.FaultedFenceId % MAX_FENCES] : 0;
    kit_notify(hAdapter, &n);
}

static NTSTATUS w_start(VOID *const ctx, DXGK_START_INFO *info, DXGKRNL_INTERFACE *iface, ULONG *sources,
                        ULONG *children)
{
    if (!W.isr_right_node && !W.nodes)
        return ref.DxgkDdiStartDevice(ctx, info, iface, sources, children);
    DXGKRNL_INTERFACE mine = *iface; /* the driver keeps its own copy */
    kit_notify = iface->DxgkCbNotifyInterrupt;
    mine.DxgkCbNotifyInterrupt = w_notify;
    return ref.DxgkDdiStartDevice(ctx, info, &mine, sources, children);
}

static NTSTATUS w_destroy_context(const HANDLE hContext)
{
    if (hContext == W.system_context)
        W.destroyed_system_context = 1;
    return ref.DxgkDdiDestroyContext(hContext);
}

static NTSTATUS w_destroy_device(const HANDLE hDevice)
{
    if (hDevice == W.system_device)
        W.destroyed_system_device = 1;
    return ref.DxgkDdiDestroyDevice(hDevice);
}

static NTSTATUS w_stop(VOID *const ctx)
{
    W.stopped_after_both = W.destroyed_system_context && W.destroyed_system_device;
    W.stopped_after_device = W.destroyed_system_device;
    return ref.DxgkDdiStopDevice(ctx);
}

static NTSTATUS capture(PDRIVER_OBJECT o, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init, ULONG abi)
{
    (void)o, (void)path, (void)abi;
    ref = *init;
    return STATUS_SUCCESS;
}

static NTSTATUS entry(PDRIVER_OBJECT o, PUNICODE_STRING path)
{
    DRIVER_OBJECT stand_in;
    memset(&stand_in, 0, sizeof(stand_in));
    stand_in.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    stand_in.wk_initialize = capture;
    NTSTATUS st = wk_refdriver_DriverEntry(&stand_in, path);
    if (!NT_SUCCESS(st))
        return st;
    static DRIVER_INITIALIZATION_DATA init;
    init = ref;
    init.DxgkDdiQueryAdapterInfo = w_query;
    init.DxgkDdiCreateDevice = w_create_device;
    init.DxgkDdiCreateContext = w_create_context;
    init.DxgkDdiBuildPagingBuffer = w_build;
    init.DxgkDdiSubmitCommand = w_submit;
    init.DxgkDdiStartDevice = w_start;
    init.DxgkDdiDestroyContext = w_destroy_context;
    init.DxgkDdiDestroyDevice = w_destroy_device;
    init.DxgkDdiStopDevice = w_stop;
    return o->wk_initialize(o, path, &init, WK_DRIVER_ABI_VERSION);
}

static void reset_knobs(void)
{
    memset(&W, 0, sizeof(W));
}

/* A resident allocation filled, a render that writes it, then evicted and
 * paged in again: every kind of paging submission, and a render one. */
static void page_and_render(struct vt_fixture *f)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8192, 0, VT_PREF(0, VT_SEG1, 1), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    VT_OK(f->vm, wk_vidmm_fill(f->vm, a, 0x5A5A5A5Au));
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_write32(&cmd, 0, 8, 0x600DF00Du);
    struct wk_vidmm_list_entry list[1] = { { a, 1 } };
    struct wk_vidmm_render_result res;
    VT_OK(f->vm, vt_render(f->vm, f->context, &cmd, list, 1, 0, &res));
    VT_OK(f->vm, wk_vidmm_wait_idle(f->vm));
    VT_OK(f->vm, wk_vidmm_evict(f->vm, a));
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    VT_OK(f->vm, wk_vidmm_wait_idle(f->vm));
}

static void print_violations(const struct wk_vidmm *vm)
{
    vt_print_violations(vm, "  ");
}

/* (a) hSystemContext is the driver's handle of the system context: a
 * driver that reads its context object through it pages cleanly. With a
 * fake handle it crashed at its first BuildPagingBuffer (DRV-CRASH-001). */
static void test_paging_runs_on_the_system_context(void **state)
{
    struct vt_fixture *f = *state;
    reset_knobs();
    assert_true(vt_open(f, NULL, entry, VT_CONTEXT));
    assert_true(expect_u64(W.system_devices, 1));
    assert_true(expect_u64(W.system_contexts, 1));
    assert_true(expect_u64(W.system_node, 0));     /* one node: paging on node 0 */
    assert_true(expect_u64(W.system_affinity, 1)); /* engine 0 of it */
    assert_true(expect_u64(W.physical_queries, 0)); /* nothing to choose on one node */
    page_and_render(f);
    assert_true(W.builds > 0);
    assert_true(expect_u64(W.builds_on_system_context, W.builds));
    /* A reset keeps it: the kernel's system context lives with the adapter. */
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &f->context));
    page_and_render(f);
    assert_true(expect_u64(W.system_contexts, 1));
    assert_true(expect_u64(W.builds_on_system_context, W.builds));
    print_violations(f->vm);
    assert_true(expect_no_violations(f->vm));
    /* Destroyed at teardown, context then device, before StopDevice. */
    VT_OK(f->vm, wk_vidmm_stop(f->vm));
    assert_true(W.destroyed_system_context);
    assert_true(W.destroyed_system_device);
    assert_true(W.stopped_after_both);
    assert_true(expect_no_violations(f->vm));
}

/* (b) Two nodes, PagingNodeIndex 1, an interrupt routine that reports
 * each fence on its node: the system context and every paging submission
 * on node 1, the renders on node 0, no violation. The kit used to submit
 * every paging buffer to node 0. */
static void test_paging_on_the_reported_node(void **state)
{
    struct vt_fixture *f = *state;
    reset_knobs();
    W.nodes = 2;
    W.paging_node = 1;
    W.isr_right_node = 1;
    assert_true(vt_open(f, NULL, entry, VT_CONTEXT));
    assert_true(expect_u64(W.physical_queries, 1));
    assert_true(expect_u64(W.system_node, 1));
    page_and_render(f);
    assert_true(W.paging_on[1] > 0);
    assert_true(expect_u64(W.paging_on[0], 0));
    assert_true(W.render_on[0] > 0);
    assert_true(expect_u64(W.render_on[1], 0));
    print_violations(f->vm);
    assert_true(expect_no_violations(f->vm));
}

/* (b) The same driver whose interrupt routine reports node 0 for the
 * copy engine's completions: INTR-ORDINAL-001, which never fired while the
 * kit paged on node 0. */
static void test_paging_completion_on_the_wrong_node(void **state)
{
    struct vt_fixture *f = *state;
    reset_knobs();
    W.nodes = 2;
    W.paging_node = 1;
    assert_true(vt_open(f, NULL, entry, VT_CONTEXT));
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8192, 0, VT_PREF(0, VT_SEG1, 1), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    (void)wk_vidmm_page_in(f->vm, a);
    (void)wk_vidmm_fill(f->vm, a, 0x5A5A5A5Au);
    assert_true(W.paging_on[1] > 0);
    assert_true(expect_violation(f->vm, "INTR-ORDINAL-001"));
}

/* A WDDM 1.x driver names its paging node in DXGK_VIDMMCAPS.PagingNode
 * (which "applies to WDDM 1.x only"), and is not asked the WDDM 2.0
 * query. */
static void test_wddm1_paging_node(void **state)
{
    struct vt_fixture *f = *state;
    reset_knobs();
    W.nodes = 2;
    W.paging_node = 1;
    W.wddm1 = 1;
    W.isr_right_node = 1;
    assert_true(vt_open(f, NULL, entry, VT_CONTEXT));
    assert_true(expect_u64(W.physical_queries, 0));
    assert_true(expect_u64(W.system_node, 1));
    page_and_render(f);
    assert_true(W.paging_on[1] > 0);
    assert_true(expect_u64(W.paging_on[0], 0));
    print_violations(f->vm);
    assert_true(expect_no_violations(f->vm));
}

/* (c) A two-node driver that fails the PHYSICALADAPTERCAPS query still
 * runs, paging on node 0, unblamed; so does one that names a node it did
 * not report. */
static void test_unanswered_paging_node_is_node_0(void **state)
{
    struct vt_fixture *f = *state;
    for (int way = 0; way < 2; way++) {
        reset_knobs();
        W.nodes = 2;
        W.paging_node = way ? 5 : 1;
        W.query_fails = !way;
        assert_true(vt_open(f, NULL, entry, VT_CONTEXT));
        assert_true(expect_u64(W.physical_queries, 1));
        assert_true(expect_u64(W.system_node, 0));
        page_and_render(f);
        assert_true(W.paging_on[0] > 0);
        assert_true(expect_u64(W.paging_on[1], 0));
        print_violations(f->vm);
        assert_true(expect_no_violations(f->vm));
        vt_close(f);
    }
}

/* A driver that fails the system context's creation fails the start, as
 * on Windows, and the start's error says it was the system context. */
static void test_system_context_refused_fails_the_start(void **state)
{
    struct vt_fixture *f = *state;
    reset_knobs();
    W.system_context_fails = 1;
    VT_OK(NULL, wk_vidmm_create(NULL, &f->vm));
    VT_OK(f->vm, wk_vidmm_attach(f->vm, entry));
    assert_int_equal(wk_vidmm_start(f->vm), WK_E_CONTRACT);
    assert_true(expect_violation(f->vm, "CTX-CREATE-001"));
    const char *why = wk_vidmm_last_error(f->vm);
    print_message("start: %s\n", why);
    assert_non_null(strstr(why, "system context"));
    assert_non_null(strstr(why, "the adapter does not start"));
    /* The system device it did create goes at teardown. */
    VT_OK(f->vm, wk_vidmm_stop(f->vm));
    assert_true(expect_u64(W.system_devices, 1));
    assert_true(W.stopped_after_device);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_paging_runs_on_the_system_context),
        VT_TEST(test_paging_on_the_reported_node),
        VT_TEST(test_paging_completion_on_the_wrong_node),
        VT_TEST(test_wddm1_paging_node),
        VT_TEST(test_unanswered_paging_node_is_node_0),
        VT_TEST(test_system_context_refused_fails_the_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
