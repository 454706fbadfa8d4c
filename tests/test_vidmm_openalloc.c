/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_openalloc.c - an allocation bound to its device
 * (reference-impl/vidmm/openalloc.c, facts §5.13): what the kit hands
 * DxgkDdiOpenAllocation and DxgkDdiCloseAllocation, when, and what its
 * allocation lists then carry.
 *
 * The driver is the reference driver wrapped in this process: its
 * OpenAllocation returns a heap object of its own per allocation (struct
 * wrap), its CloseAllocation frees it, its Render reads every list handle
 * as that object, and every Create/Open/Close/Destroy is logged, so a test
 * can say in which order the kit called them and with which handles. A
 * mode makes OpenAllocation fail, succeed with a NULL handle, or be absent.
 *
 *   - lists carry OpenAllocation's handle, and Render and Patch run on it
 *     (before the kit called OpenAllocation, the wrapped Render read
 *     CreateAllocation's handle as its object and crashed);
 *   - OpenAllocation gets Flags.Create, the creating device, the
 *     allocation's kernel handle, which DxgkCbGetHandleData resolves to
 *     CreateAllocation's handle (with DeviceSpecific, to OpenAllocation's),
 *     and the private data CreateAllocation got;
 *   - CloseAllocation comes once per opened allocation, right before its
 *     DestroyAllocation: for a destroy, a device's destroy and the
 *     adapter's teardown; nothing the wrapper made is left;
 *   - an OpenAllocation that fails ends the creation with the driver's
 *     status, the allocation destroyed again; one that succeeds with a NULL
 *     handle is ALLOC-OPEN-001;
 *   - a driver without OpenAllocation gets CreateAllocation's handle in its
 *     lists, as before.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refdriver/refdriver.h"
#include "refdriver/refdriver_entry.h"
#include "vidmm_test_util.h"

/* ------------------------------------------------------------------ */
/* The wrapped reference driver                                         */
/* ------------------------------------------------------------------ */

enum mode { OPEN_BINDS, OPEN_FAILS, OPEN_NULL, NO_OPEN };
enum event { EV_CREATE, EV_OPEN, EV_CLOSE, EV_DESTROY };

struct wrap {
    uint32_t magic;
    HANDLE global;      /* the reference's allocation */
};
#define WRAP_MAGIC 0x50415257u

#define MAX_EVENTS 64u
static struct {
    enum mode mode;
    DRIVER_INITIALIZATION_DATA ref;
    DXGKCB_GETHANDLEDATA get_handle_data;
    struct { enum event what; HANDLE h; } log[MAX_EVENTS];
    uint32_t nlog;
    uint32_t live;                      /* wraps made and not yet freed */
    /* the last OpenAllocation */
    D3DKMT_HANDLE kernel_handle;
    DXGK_OPENALLOCATIONFLAGS flags;
    UINT num;
    HANDLE device;
    WK_ALLOCATION_REQUEST private_data;
    UINT private_size;
    HANDLE resolved;                    /* DxgkCbGetHandleData(kernel_handle) in the open */
    /* the last CloseAllocation: GetHandleData without and with DeviceSpecific */
    HANDLE close_plain, close_specific;
    /* the first handle of the last Render's list */
    HANDLE rendered;
} W;

static void note(enum event what, HANDLE h)
{
    if (W.nlog < MAX_EVENTS)
        W.log[W.nlog].what = what, W.log[W.nlog++].h = h;
}

static HANDLE handle_data(D3DKMT_HANDLE h, int device_specific)
{
    DXGKARGCB_GETHANDLEDATA q;
    memset(&q, 0, sizeof(q));
    q.hObject = h;
    q.Type = DXGK_HANDLE_ALLOCATION;
    q.Flags.DeviceSpecific = device_specific ? 1 : 0;
    return W.get_handle_data(&q);
}

static NTSTATUS w_start(const PVOID ctx, DXGK_START_INFO *info, DXGKRNL_INTERFACE *k, PULONG sources, PULONG children)
{
    W.get_handle_data = k->DxgkCbGetHandleData;
    return W.ref.DxgkDdiStartDevice(ctx, info, k, sources, children);
}

static NTSTATUS w_create(const HANDLE a, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = W.ref.DxgkDdiCreateAllocation(a, args);
    if (NT_SUCCESS(st))
        note(EV_CREATE, args->pAllocationInfo[0].hAllocation);
    return st;
}

static NTSTATUS w_destroy(const HANDLE a, const DXGKARG_DESTROYALLOCATION *args)
{
    note(EV_DESTROY, args->pAllocationList[0]);
    return W.ref.DxgkDdiDestroyAllocation(a, args);
}

static NTSTATUS w_open(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *args)
{
    W.num = args->NumAllocations;
    W.flags = args->Flags;
    W.device = hDevice;
    DXGK_OPENALLOCATIONINFO *i = &args->pOpenAllocation[0];
    W.kernel_handle = i->hAllocation;
    W.private_size = i->PrivateDriverDataSize;
    if (i->pPrivateDriverData && i->PrivateDriverDataSize == sizeof(W.private_data))
        memcpy(&W.private_data, i->pPrivateDriverData, sizeof(W.private_data));
    W.resolved = handle_data(i->hAllocation, 0);
    if (W.mode == OPEN_FAILS)
        return STATUS_NO_MEMORY;
    NTSTATUS st = W.ref.DxgkDdiOpenAllocation(hDevice, args);
    if (!NT_SUCCESS(st) || W.mode == OPEN_NULL) {
        i->hDeviceSpecificAllocation = NULL;
        return st;
    }
    struct wrap *w = malloc(sizeof(*w));
    if (!w)
        return STATUS_NO_MEMORY;
    w->magic = WRAP_MAGIC;
    w->global = i->hDeviceSpecificAllocation;
    i->hDeviceSpecificAllocation = w;
    W.live++;
    note(EV_OPEN, w);
    return STATUS_SUCCESS;
}

static NTSTATUS w_close(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *args)
{
    struct wrap *w = args->pOpenHandleList[0];
    note(EV_CLOSE, w);
    W.close_plain = handle_data(W.kernel_handle, 0);
    W.close_specific = handle_data(W.kernel_handle, 1);
    assert_int_equal(args->NumAllocations, 1);
    assert_int_equal(w->magic, WRAP_MAGIC);
    w->magic = 0;
    free(w);
    W.live--;
    return W.ref.DxgkDdiCloseAllocation(hDevice, args);
}

/* Every list handle read as the wrapper's object (no check: the kernel
 * hands the driver what it returned), the reference's handle passed on. */
static DXGK_ALLOCATIONLIST global_list[256];

static NTSTATUS w_render(const HANDLE hContext, DXGKARG_RENDER *r)
{
    W.rendered = r->AllocationListSize ? r->pAllocationList[0].hDeviceSpecificAllocation : NULL;
    if (W.mode == NO_OPEN)
        return W.ref.DxgkDdiRender(hContext, r);
    assert_true(r->AllocationListSize <= 256);
    for (UINT i = 0; i < r->AllocationListSize; i++) {
        const struct wrap *w = r->pAllocationList[i].hDeviceSpecificAllocation;
        global_list[i] = r->pAllocationList[i];
        global_list[i].hDeviceSpecificAllocation = w ? w->global : NULL;
    }
    DXGK_ALLOCATIONLIST *given = r->pAllocationList;
    r->pAllocationList = global_list;
    NTSTATUS st = W.ref.DxgkDdiRender(hContext, r);
    r->pAllocationList = given;
    return st;
}

static NTSTATUS capture(PDRIVER_OBJECT self, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init, ULONG abi)
{
    (void)self, (void)path, (void)abi;
    W.ref = *init;
    return STATUS_SUCCESS;
}

static NTSTATUS wrap_DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_OBJECT stand_in = { WK_DRIVER_OBJECT_MAGIC, NULL, NULL, capture, NULL };
    NTSTATUS st = wk_refdriver_DriverEntry(&stand_in, RegistryPath);
    if (!NT_SUCCESS(st))
        return st;
    DRIVER_INITIALIZATION_DATA t = W.ref;
    t.DxgkDdiStartDevice = w_start;
    t.DxgkDdiCreateAllocation = w_create;
    t.DxgkDdiDestroyAllocation = w_destroy;
    t.DxgkDdiRender = w_render;
    t.DxgkDdiOpenAllocation = W.mode == NO_OPEN ? NULL : w_open;
    t.DxgkDdiCloseAllocation = W.mode == NO_OPEN ? NULL : w_close;
    return DxgkInitialize(DriverObject, RegistryPath, &t);
}

static bool open_adapter(struct vt_fixture *f, enum mode mode)
{
    memset(&W, 0, sizeof(W));
    W.mode = mode;
    return vt_open(f, NULL, wrap_DriverEntry, VT_CONTEXT);
}

/* The i-th logged event is `what` on `h`. */
static bool logged(uint32_t i, enum event what, HANDLE h)
{
    if (i < W.nlog && W.log[i].what == what && W.log[i].h == h)
        return true;
    print_message("event %u: want %d on %p, log has %u events:", i, what, h, W.nlog);
    for (uint32_t k = 0; k < W.nlog; k++)
        print_message(" %d:%p", W.log[k].what, W.log[k].h);
    print_message("\n");
    return false;
}

static uint64_t calls(struct wk_vidmm *vm, enum wk_ddi ddi)
{
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(vm, &st);
    return st.ddi_calls[ddi];
}

/* A render that fills the first 256 bytes of allocation a, patched and run. */
static wk_status fill(struct vt_fixture *f, uint32_t a, uint32_t pattern)
{
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_fill(&cmd, 0, 0, 256, pattern);
    struct wk_vidmm_list_entry list = { a, 1 };
    struct wk_vidmm_render_result res;
    return vt_render(f->vm, f->context, &cmd, &list, 1, 1, &res);
}

/* ------------------------------------------------------------------ */
/* Tests                                                                */
/* ------------------------------------------------------------------ */

static void test_lists_carry_the_open_handle(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_adapter(f, OPEN_BINDS));
    WK_ALLOCATION_REQUEST req;
    vt_request(&req, 0x4000);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    struct wk_vidmm_allocation_state st;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &st));
    assert_true(logged(0, EV_CREATE, st.driver_handle));
    assert_true(logged(1, EV_OPEN, st.device_handle));
    assert_ptr_not_equal(st.device_handle, st.driver_handle);
    /* Render (no pre-patch information: Patch writes every address) */
    VT_OK(f->vm, fill(f, a, 0xA11CE000u));
    assert_ptr_equal(W.rendered, st.device_handle);
    assert_true(expect_no_violations(f->vm));
    uint8_t want[256];
    vt_model_fill(want, sizeof(want), 0xA11CE000u);
    assert_true(expect_bytes(f->vm, a, 0, want, sizeof(want)));
}

static void test_open_gets_what_the_creation_got(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_adapter(f, OPEN_BINDS));
    WK_ALLOCATION_REQUEST req;
    vt_request(&req, 0x3000);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    struct wk_vidmm_allocation_state st;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &st));
    assert_int_equal(W.num, 1);
    assert_int_equal(W.flags.Value, 1); /* Create, nothing else */
    assert_non_null(rd_device_from(W.device)); /* the driver's own device handle */
    assert_int_not_equal(W.kernel_handle, 0);
    assert_ptr_equal(W.resolved, st.driver_handle); /* DxgkCbGetHandleData: CreateAllocation's handle */
    assert_int_equal(W.private_size, sizeof(req));
    assert_memory_equal(&W.private_data, &req, sizeof(req));
    VT_OK(f->vm, wk_vidmm_destroy_allocation(f->vm, a));
    assert_ptr_equal(W.close_plain, st.driver_handle);
    assert_ptr_equal(W.close_specific, st.device_handle);
    /* gone: the kernel handle names nothing now */
    assert_null(handle_data(W.kernel_handle, 0));
    assert_true(expect_no_violations(f->vm));
}

static void test_close_once_right_before_destroy(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_adapter(f, OPEN_BINDS));
    WK_ALLOCATION_REQUEST req;
    vt_request(&req, 0x2000);
    struct wk_vidmm_allocation_state st[3];
    uint32_t a[3];
    for (int i = 0; i < 3; i++) {
        a[i] = vt_alloc(f->vm, f->device, &req);
        VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a[i], &st[i]));
    }
    uint32_t at = W.nlog;
    VT_OK(f->vm, wk_vidmm_destroy_allocation(f->vm, a[1]));
    assert_true(logged(at, EV_CLOSE, st[1].device_handle));
    assert_true(logged(at + 1, EV_DESTROY, st[1].driver_handle));
    assert_int_equal(W.nlog, at + 2);
    /* the device's destroy takes the other two, each closed first */
    at = W.nlog;
    VT_OK(f->vm, wk_vidmm_destroy_device(f->vm, f->device));
    assert_true(logged(at, EV_CLOSE, st[0].device_handle));
    assert_true(logged(at + 1, EV_DESTROY, st[0].driver_handle));
    assert_true(logged(at + 2, EV_CLOSE, st[2].device_handle));
    assert_true(logged(at + 3, EV_DESTROY, st[2].driver_handle));
    assert_int_equal(W.live, 0);
    assert_true(expect_u64(calls(f->vm, WK_DDI_OPEN_ALLOCATION), 3));
    assert_true(expect_u64(calls(f->vm, WK_DDI_CLOSE_ALLOCATION), 3));
    assert_true(expect_no_violations(f->vm));
}

/* The adapter's teardown with allocations alive closes them too. */
static void test_teardown_closes(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_adapter(f, OPEN_BINDS));
    WK_ALLOCATION_REQUEST req;
    vt_request(&req, 0x2000);
    for (int i = 0; i < 4; i++)
        (void)vt_alloc(f->vm, f->device, &req);
    assert_int_equal(W.live, 4);
    VT_OK(f->vm, wk_vidmm_stop(f->vm));
    assert_true(expect_no_violations(f->vm));
    assert_int_equal(W.live, 0);
}

static void test_failed_open_destroys_the_allocation(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_adapter(f, OPEN_FAILS));
    WK_ALLOCATION_REQUEST req;
    vt_request(&req, 0x2000);
    uint32_t a = 0;
    assert_true(expect_status(f->vm, wk_vidmm_create_allocation(f->vm, f->device, &req, &a), WK_E_DRIVER_FAILED));
    assert_true(expect_no_violations(f->vm));
    assert_non_null(strstr(wk_vidmm_last_error(f->vm), "DxgkDdiOpenAllocation returned 0xc0000017"));
    assert_non_null(strstr(wk_vidmm_last_error(f->vm), "destroyed again"));
    assert_int_equal(W.nlog, 2);
    assert_true(logged(1, EV_DESTROY, W.log[0].h)); /* no close: nothing was bound */
    /* the adapter goes on */
    W.mode = OPEN_BINDS;
    a = vt_alloc(f->vm, f->device, &req);
    VT_OK(f->vm, fill(f, a, 0x5u));
    assert_true(expect_no_violations(f->vm));
}

static void test_open_null_handle_is_a_violation(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_adapter(f, OPEN_NULL));
    WK_ALLOCATION_REQUEST req;
    vt_request(&req, 0x2000);
    uint32_t a = 0;
    assert_true(expect_status(f->vm, wk_vidmm_create_allocation(f->vm, f->device, &req, &a), WK_E_CONTRACT));
    assert_true(expect_violation(f->vm, "ALLOC-OPEN-001"));
    assert_int_equal(W.nlog, 2);
    assert_true(logged(1, EV_DESTROY, W.log[0].h));
}

static void test_without_open_lists_carry_the_create_handle(void **state)
{
    struct vt_fixture *f = *state;
    assert_true(open_adapter(f, NO_OPEN));
    WK_ALLOCATION_REQUEST req;
    vt_request(&req, 0x4000);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    struct wk_vidmm_allocation_state st;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &st));
    assert_ptr_equal(st.device_handle, st.driver_handle);
    VT_OK(f->vm, fill(f, a, 0xB0B0u));
    assert_ptr_equal(W.rendered, st.driver_handle);
    VT_OK(f->vm, wk_vidmm_destroy_allocation(f->vm, a));
    assert_true(expect_u64(calls(f->vm, WK_DDI_OPEN_ALLOCATION), 0));
    assert_true(expect_u64(calls(f->vm, WK_DDI_CLOSE_ALLOCATION), 0));
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_lists_carry_the_open_handle),
        VT_TEST(test_open_gets_what_the_creation_got),
        VT_TEST(test_close_once_right_before_destroy),
        VT_TEST(test_teardown_closes),
        VT_TEST(test_failed_open_destroys_the_allocation),
        VT_TEST(test_open_null_handle_is_a_violation),
        VT_TEST(test_without_open_lists_carry_the_create_handle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
