/* SPDX-License-Identifier: MIT */
/*
 * tests/vidmm_test_util.c - shared helpers for the reference video memory
 * manager tests; see vidmm_test_util.h.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

#include "vidmm_test_util.h"

/* ------------------------------------------------------------------ */
/* Seeds                                                                */
/* ------------------------------------------------------------------ */

uint64_t vt_seed(uint64_t fallback)
{
    const char *s = getenv("WK_TEST_SEED");
    if (!s || !*s)
        return fallback;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end) {
        fprintf(stderr, "WK_TEST_SEED=\"%s\" is not a number; using %" PRIu64 "\n", s, fallback);
        return fallback;
    }
    return (uint64_t)v;
}

uint64_t vt_rand(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

void vt_random_bytes(uint64_t *state, void *buf, size_t len)
{
    uint8_t *p = buf;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t r = vt_rand(state);
        size_t n = len - i < 8 ? len - i : 8;
        memcpy(p + i, &r, n);
    }
}

/* ------------------------------------------------------------------ */
/* Checks                                                               */
/* ------------------------------------------------------------------ */

void vt_print_violations(const struct wk_vidmm *vm, const char *indent)
{
    enum { SHOWN = 32 };
    struct wk_violation v[SHOWN];
    uint64_t total = 0;
    if (!vm) {
        fprintf(stderr, "%s(no wk_vidmm)\n", indent);
        return;
    }
    uint32_t n = wk_vidmm_violations(vm, v, SHOWN, &total);
    if (total == 0)
        fprintf(stderr, "%s(no violation recorded)\n", indent);
    for (uint32_t i = 0; i < n; i++)
        fprintf(stderr, "%s%s\n", indent, v[i].message);
    if (total > n)
        fprintf(stderr, "%s... and %" PRIu64 " more\n", indent, total - n);
}

bool vt_expect_status_(struct wk_vidmm *vm, wk_status got, wk_status want, const char *what,
                       const char *file, int line)
{
    if (got == want)
        return true;
    fprintf(stderr, "%s:%d: %s: expected %s, got %s\n", file, line, what, wk_status_name(want),
            wk_status_name(got));
    if (vm) {
        fprintf(stderr, "  last error: %s\n", wk_vidmm_last_error(vm));
        fprintf(stderr, "  violations:\n");
        vt_print_violations(vm, "    ");
    }
    return false;
}

bool vt_expect_violation_(const struct wk_vidmm *vm, const char *id, const char *file, int line)
{
    if (!wk_rule_find(id)) {
        fprintf(stderr, "%s:%d: %s is not a rule of the catalogue\n", file, line, id);
        return false;
    }
    if (wk_vidmm_violated(vm, id))
        return true;
    fprintf(stderr, "%s:%d: expected a violation of %s; recorded instead:\n", file, line, id);
    vt_print_violations(vm, "  ");
    fprintf(stderr, "  last error: %s\n", wk_vidmm_last_error(vm));
    return false;
}

bool vt_expect_not_violated_(const struct wk_vidmm *vm, const char *id, const char *file, int line)
{
    if (!wk_vidmm_violated(vm, id))
        return true;
    fprintf(stderr, "%s:%d: %s was violated on a correct answer:\n", file, line, id);
    vt_print_violations(vm, "  ");
    return false;
}

bool vt_expect_no_violations_(const struct wk_vidmm *vm, const char *file, int line)
{
    uint64_t total = 0;
    wk_vidmm_violations(vm, NULL, 0, &total);
    if (total == 0)
        return true;
    fprintf(stderr, "%s:%d: expected no violation, %" PRIu64 " recorded:\n", file, line, total);
    vt_print_violations(vm, "  ");
    return false;
}

bool vt_expect_u64_(uint64_t got, uint64_t want, const char *what, const char *file, int line)
{
    if (got == want)
        return true;
    fprintf(stderr,
            "%s:%d: %s: expected 0x%" PRIx64 " (%" PRIu64 "), got 0x%" PRIx64 " (%" PRIu64 ")\n",
            file, line, what, want, want, got, got);
    return false;
}

bool vt_expect_placed_(struct wk_vidmm *vm, uint32_t allocation, uint32_t segment,
                       uint64_t offset, uint32_t bank, const char *file, int line)
{
    struct wk_vidmm_allocation_state s;
    wk_status st = wk_vidmm_allocation_state(vm, allocation, &s);
    if (st != WK_OK) {
        fprintf(stderr, "%s:%d: allocation %u: wk_vidmm_allocation_state returned %s (%s)\n", file,
                line, allocation, wk_status_name(st), wk_vidmm_last_error(vm));
        return false;
    }
    if (s.resident && s.segment_id == segment && s.segment_offset == offset && s.bank == bank)
        return true;
    fprintf(stderr,
            "%s:%d: allocation %u: expected resident in segment %u at offset 0x%" PRIx64
            " (bank %u), got resident=%d segment %u offset 0x%" PRIx64 " bank %u (size 0x%" PRIx64 ")\n",
            file, line, allocation, segment, offset, bank, s.resident, s.segment_id,
            s.segment_offset, s.bank, s.size);
    return false;
}

bool vt_expect_bytes_(struct wk_vidmm *vm, uint32_t allocation, uint64_t offset, const void *want,
                      uint64_t len, const char *file, int line)
{
    uint8_t *got = malloc(len ? len : 1);
    if (!got) {
        fprintf(stderr, "%s:%d: out of memory\n", file, line);
        return false;
    }
    wk_status st = wk_vidmm_read(vm, allocation, offset, got, len);
    bool ok = st == WK_OK;
    if (!ok)
        fprintf(stderr,
                "%s:%d: allocation %u: wk_vidmm_read(+0x%" PRIx64 ", %" PRIu64 ") returned %s (%s)\n",
                file, line, allocation, offset, len, wk_status_name(st), wk_vidmm_last_error(vm));
    const uint8_t *w = want;
    uint64_t differ = 0;
    for (uint64_t i = 0; st == WK_OK && i < len; i++) {
        if (got[i] == w[i])
            continue;
        if (differ == 0)
            fprintf(stderr, "%s:%d: allocation %u differs from the expected bytes:\n", file, line,
                    allocation);
        if (differ < 8)
            fprintf(stderr, "  byte +0x%" PRIx64 ": expected 0x%02x, got 0x%02x\n", offset + i,
                    w[i], got[i]);
        differ++;
    }
    if (differ > 8)
        fprintf(stderr, "  ... %" PRIu64 " bytes differ in all\n", differ);
    ok = ok && differ == 0;
    free(got);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Fixture                                                              */
/* ------------------------------------------------------------------ */

static bool step_ok(struct wk_vidmm *vm, wk_status st, const char *step, const char *file, int line)
{
    if (st == WK_OK)
        return true;
    fprintf(stderr, "%s:%d: fixture: %s returned %s: %s\n", file, line, step, wk_status_name(st),
            vm ? wk_vidmm_last_error(vm) : "");
    if (vm)
        vt_print_violations(vm, "  ");
    return false;
}

bool vt_open_(struct vt_fixture *f, const struct wk_vidmm_config *cfg, DRIVER_INITIALIZE *entry,
              unsigned what, const char *file, int line)
{
    memset(f, 0, sizeof(*f));
    wk_status st = wk_vidmm_create(cfg, &f->vm);
    if (!step_ok(NULL, st, "wk_vidmm_create", file, line))
        return false;
    st = wk_vidmm_attach(f->vm, entry ? entry : wk_refdriver_DriverEntry);
    if (!step_ok(f->vm, st, "wk_vidmm_attach", file, line))
        return false;
    if (!step_ok(f->vm, wk_vidmm_start(f->vm), "wk_vidmm_start", file, line))
        return false;
    if (what & (VT_DEVICE | VT_CONTEXT)) {
        st = wk_vidmm_create_device(f->vm, 0, &f->device);
        if (!step_ok(f->vm, st, "wk_vidmm_create_device", file, line))
            return false;
    }
    if (what & VT_CONTEXT) {
        st = wk_vidmm_create_context(f->vm, f->device, 0, &f->context);
        if (!step_ok(f->vm, st, "wk_vidmm_create_context", file, line))
            return false;
    }
    return true;
}

void vt_close(struct vt_fixture *f)
{
    wk_vidmm_destroy(f->vm);
    memset(f, 0, sizeof(*f));
}

int vt_fixture_setup(void **state)
{
    struct vt_fixture *f = calloc(1, sizeof(*f));
    if (!f)
        return -1;
    *state = f;
    return 0;
}

int vt_fixture_teardown(void **state)
{
    struct vt_fixture *f = *state;
    if (f) {
        vt_close(f);
        free(f);
    }
    *state = NULL;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Allocation requests                                                  */
/* ------------------------------------------------------------------ */

void vt_request(WK_ALLOCATION_REQUEST *r, uint64_t size)
{
    memset(r, 0, sizeof(*r));
    r->Magic = WK_ALLOCATION_REQUEST_MAGIC;
    r->Version = WK_ALLOCATION_REQUEST_VERSION;
    r->Size = size;
}

void vt_request_at(WK_ALLOCATION_REQUEST *r, uint64_t size, uint32_t set, uint32_t preferred,
                   uint32_t banks)
{
    vt_request(r, size);
    r->SupportedSegmentSet = set;
    r->PreferredSegment.Value = preferred;
    r->HintedBank.Value = banks;
}

uint32_t vt_alloc_(struct wk_vidmm *vm, uint32_t device, const WK_ALLOCATION_REQUEST *r,
                   const char *file, int line)
{
    uint32_t h = 0;
    wk_status st = wk_vidmm_create_allocation(vm, device, r, &h);
    assert_true(vt_expect_status_(vm, st, WK_OK, "wk_vidmm_create_allocation", file, line));
    return h;
}

/* ------------------------------------------------------------------ */
/* User command buffers                                                 */
/* ------------------------------------------------------------------ */

WK_USER_COMMAND_HEADER *vt_cmd_header(struct vt_cmd *c)
{
    return (WK_USER_COMMAND_HEADER *)(void *)c->bytes;
}

void vt_cmd_init(struct vt_cmd *c)
{
    memset(c, 0, sizeof(*c));
    WK_USER_COMMAND_HEADER h = { WK_USER_COMMAND_MAGIC, WK_USER_COMMAND_VERSION, 0, 0 };
    memcpy(c->bytes, &h, sizeof(h));
    c->length = sizeof(h);
}

static void append(struct vt_cmd *c, const void *record, uint32_t size)
{
    if (c->length + size > VT_CMD_MAX)
        fail_msg("user command buffer full (%u + %u bytes > %u)", c->length, size, VT_CMD_MAX);
    memcpy(c->bytes + c->length, record, size);
    c->length += size;
    c->records++;
    WK_USER_COMMAND_HEADER h;
    memcpy(&h, c->bytes, sizeof(h));
    h.RecordCount = c->records;
    memcpy(c->bytes, &h, sizeof(h));
}

void vt_cmd_copy(struct vt_cmd *c, uint32_t src_index, uint32_t src_offset, uint32_t dst_index,
                 uint32_t dst_offset, uint32_t size)
{
    WK_USER_COPY r;
    memset(&r, 0, sizeof(r));
    r.Record.Op = WK_USER_OP_COPY;
    r.Record.Length = sizeof(r);
    r.Source.AllocationIndex = src_index;
    r.Source.Offset = src_offset;
    r.Destination.AllocationIndex = dst_index;
    r.Destination.Offset = dst_offset;
    r.Size = size;
    append(c, &r, sizeof(r));
}

void vt_cmd_fill(struct vt_cmd *c, uint32_t dst_index, uint32_t dst_offset, uint32_t size,
                 uint32_t pattern)
{
    WK_USER_FILL r;
    memset(&r, 0, sizeof(r));
    r.Record.Op = WK_USER_OP_FILL;
    r.Record.Length = sizeof(r);
    r.Destination.AllocationIndex = dst_index;
    r.Destination.Offset = dst_offset;
    r.Size = size;
    r.Pattern = pattern;
    append(c, &r, sizeof(r));
}

void vt_cmd_write32(struct vt_cmd *c, uint32_t dst_index, uint32_t dst_offset, uint32_t value)
{
    WK_USER_WRITE32 r;
    memset(&r, 0, sizeof(r));
    r.Record.Op = WK_USER_OP_WRITE32;
    r.Record.Length = sizeof(r);
    r.Destination.AllocationIndex = dst_index;
    r.Destination.Offset = dst_offset;
    r.Value = value;
    append(c, &r, sizeof(r));
}

void vt_cmd_blit(struct vt_cmd *c, uint32_t src_index, uint32_t src_offset, uint32_t dst_index,
                 uint32_t dst_offset, uint32_t width, uint32_t height, uint32_t src_pitch,
                 uint32_t dst_pitch)
{
    WK_USER_BLIT r;
    memset(&r, 0, sizeof(r));
    r.Record.Op = WK_USER_OP_BLIT;
    r.Record.Length = sizeof(r);
    r.Source.AllocationIndex = src_index;
    r.Source.Offset = src_offset;
    r.Destination.AllocationIndex = dst_index;
    r.Destination.Offset = dst_offset;
    r.Width = width;
    r.Height = height;
    r.SourcePitch = src_pitch;
    r.DestinationPitch = dst_pitch;
    append(c, &r, sizeof(r));
}

void vt_cmd_nop(struct vt_cmd *c)
{
    WK_USER_RECORD r = { WK_USER_OP_NOP, sizeof(WK_USER_RECORD) };
    append(c, &r, sizeof(r));
}

wk_status vt_render(struct wk_vidmm *vm, uint32_t context, const struct vt_cmd *c,
                    const struct wk_vidmm_list_entry *list, uint32_t list_length,
                    int no_prepatch_info, struct wk_vidmm_render_result *result)
{
    struct wk_vidmm_render r;
    memset(&r, 0, sizeof(r));
    r.context = context;
    r.command = c->bytes;
    r.command_length = c->length;
    r.list = list;
    r.list_length = list_length;
    r.no_prepatch_info = no_prepatch_info;
    return wk_vidmm_render(vm, &r, result);
}

void vt_model_fill(uint8_t *dst, uint64_t len, uint32_t pattern)
{
    for (uint64_t i = 0; i < len; i++)
        dst[i] = (uint8_t)(pattern >> (8 * (i % 4)));
}

/* ------------------------------------------------------------------ */
/* A driver's objects, destroyed by hand after its adapter died          */
/* ------------------------------------------------------------------ */

#define TRACKED 16u

static struct {
    DRIVER_INITIALIZATION_DATA own;   /* the table's functions before vt_track */
    VOID *miniport;
    HANDLE devices[TRACKED], contexts[TRACKED], allocations[TRACKED];
} tracked;

static void hold(HANDLE *set, HANDLE h)
{
    for (uint32_t i = 0; h && i < TRACKED; i++)
        if (!set[i]) {
            set[i] = h;
            return;
        }
}

static void drop(HANDLE *set, HANDLE h)
{
    for (uint32_t i = 0; h && i < TRACKED; i++)
        if (set[i] == h)
            set[i] = NULL;
}

static NTSTATUS tr_add_device(const PDEVICE_OBJECT pdo, VOID **context)
{
    NTSTATUS st = tracked.own.DxgkDdiAddDevice(pdo, context);
    tracked.miniport = NT_SUCCESS(st) ? *context : NULL;
    return st;
}

static NTSTATUS tr_create_device(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *args)
{
    NTSTATUS st = tracked.own.DxgkDdiCreateDevice(hAdapter, args);
    if (NT_SUCCESS(st))
        hold(tracked.devices, args->hDevice);
    return st;
}

static NTSTATUS tr_destroy_device(const HANDLE hDevice)
{
    drop(tracked.devices, hDevice);
    return tracked.own.DxgkDdiDestroyDevice(hDevice);
}

static NTSTATUS tr_create_context(const HANDLE hDevice, DXGKARG_CREATECONTEXT *args)
{
    NTSTATUS st = tracked.own.DxgkDdiCreateContext(hDevice, args);
    if (NT_SUCCESS(st))
        hold(tracked.contexts, args->hContext);
    return st;
}

static NTSTATUS tr_destroy_context(const HANDLE hContext)
{
    drop(tracked.contexts, hContext);
    return tracked.own.DxgkDdiDestroyContext(hContext);
}

static NTSTATUS tr_create_allocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = tracked.own.DxgkDdiCreateAllocation(hAdapter, args);
    for (UINT i = 0; NT_SUCCESS(st) && i < args->NumAllocations; i++)
        hold(tracked.allocations, args->pAllocationInfo[i].hAllocation);
    return st;
}

static NTSTATUS tr_destroy_allocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *args)
{
    for (UINT i = 0; i < args->NumAllocations; i++)
        drop(tracked.allocations, args->pAllocationList[i]);
    return tracked.own.DxgkDdiDestroyAllocation(hAdapter, args);
}

void vt_track(DRIVER_INITIALIZATION_DATA *table)
{
    memset(&tracked, 0, sizeof(tracked));
    tracked.own = *table;
    table->DxgkDdiAddDevice = tr_add_device;
    table->DxgkDdiCreateDevice = tr_create_device;
    table->DxgkDdiDestroyDevice = tr_destroy_device;
    table->DxgkDdiCreateContext = tr_create_context;
    table->DxgkDdiDestroyContext = tr_destroy_context;
    table->DxgkDdiCreateAllocation = tr_create_allocation;
    table->DxgkDdiDestroyAllocation = tr_destroy_allocation;
}

void vt_release_dead(void)
{
    for (uint32_t i = 0; i < TRACKED; i++)
        if (tracked.contexts[i])
            tracked.own.DxgkDdiDestroyContext(tracked.contexts[i]);
    for (uint32_t i = 0; i < TRACKED && tracked.miniport; i++)
        if (tracked.allocations[i]) {
            DXGKARG_DESTROYALLOCATION d;
            memset(&d, 0, sizeof(d));
            d.NumAllocations = 1;
            d.pAllocationList = &tracked.allocations[i];
            tracked.own.DxgkDdiDestroyAllocation(tracked.miniport, &d);
        }
    for (uint32_t i = 0; i < TRACKED; i++)
        if (tracked.devices[i])
            tracked.own.DxgkDdiDestroyDevice(tracked.devices[i]);
    if (tracked.miniport)
        tracked.own.DxgkDdiRemoveDevice(tracked.miniport);
    DRIVER_INITIALIZATION_DATA own = tracked.own;
    memset(&tracked, 0, sizeof(tracked));
    tracked.own = own;
}
