/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_fuzzapi.c - the two wk_vidmm entry points the fuzz
 * harnesses stand on (reference-impl/vidmm/vidmm.h):
 *
 *   - wk_vidmm_reset: back to a started, empty adapter between inputs:
 *     every object gone, handles from 1 again, no violations, GPU memory
 *     zero, resident host pages back to the count of an idle adapter (one
 *     reset after start: the paging buffer, kept for the adapter's life, is
 *     zeroed when it is made and its pages released by the first reset), and
 *     1000 resets in a row with work between them do not grow anything;
 *   - wk_vidmm_patch: DxgkDdiPatch on a caller's DMA buffer and lists: a
 *     correct patch passes its checks, inputs that do not fit the
 *     context's buffers are rejected with WK_E_INVALID_ARGUMENT before the
 *     driver sees them; the confinement check reports the first changed
 *     byte outside the listed slots, wherever it is;
 *   - the per-call costs the harnesses pay, made cheap without weakening a
 *     check: a guarded buffer's mapping is reused (an overrun still hits
 *     the guard page, a write anywhere into Patch's read-only lists
 *     faults, also through a pointer kept past the call, a forked child
 *     maps its own, and reset and destroy unmap the spares), and DDI
 *     frames that do not save the signal mask still catch crash after
 *     crash and hang after hang;
 *   - the one-stream scans of the checks name every changed byte exactly,
 *     and what wk_vidmm_patch knows between calls (the DMA buffer and the
 *     patch list zero past the last clean call's input and slots, a spare
 *     list mapping's canary) never outlives what can write them: any DDI
 *     call, a GPU execution, a violation, a reset, a write past the list,
 *     a forked child.
 *
 * If the harnesses' speed or soundness depends on it, it is pinned here.
 */
#define _POSIX_C_SOURCE 200809L /* sigprocmask, msync */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wddmkit/gpu.h"
#include "reference.h"

#include <malloc.h>

/* Present when a sanitizer allocator is linked, whether this file is
 * instrumented or not (WK_SANITIZE_SCOPE=driver links the runtime into
 * uninstrumented code): weak, so the test asks at run time. */
size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

#include "vidmm_test_util.h"

#define KIB 1024u
#define MAX_SHOWN 16u

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static struct wk_vidmm_config fuzz_config(uint32_t paging_buffer_size)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.ddi_timeout_ms = UINT32_MAX; /* as the harnesses run */
    cfg.paging_buffer_size = paging_buffer_size;
    return cfg;
}

struct workload {
    uint32_t device, context, a, b;
    uint64_t a_address;
};

/* What an input typically does: objects, paging, a render. */
static void run_workload(struct wk_vidmm *vm, struct workload *w)
{
    WK_ALLOCATION_REQUEST req;
    VT_OK(vm, wk_vidmm_create_device(vm, 0, &w->device));
    VT_OK(vm, wk_vidmm_create_context(vm, w->device, 0, &w->context));
    vt_request_at(&req, 16 * KIB, 0, VT_PREF(0, VT_SEG1, 0), 0);
    w->a = vt_alloc(vm, w->device, &req);
    vt_request_at(&req, 8 * KIB, VT_SET(VT_APER), 0, 0);
    w->b = vt_alloc(vm, w->device, &req);
    VT_OK(vm, wk_vidmm_page_in(vm, w->a));
    VT_OK(vm, wk_vidmm_fill(vm, w->a, 0x5A5AA5A5u));
    VT_OK(vm, wk_vidmm_page_in(vm, w->b));
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_copy(&cmd, 0, 0, 1, 0, 4 * KIB);
    struct wk_vidmm_list_entry list[2] = { { w->a, 0 }, { w->b, 1 } };
    struct wk_vidmm_render_result res;
    VT_OK(vm, vt_render(vm, w->context, &cmd, list, 2, 0, &res));
    VT_OK(vm, wk_vidmm_evict(vm, w->b));
    struct wk_vidmm_allocation_state st;
    VT_OK(vm, wk_vidmm_allocation_state(vm, w->a, &st));
    w->a_address = st.gpu_address;
}

/* Host pages backing GPU memory on a started adapter that did nothing since
 * a reset: what every reset must come back to. */
static uint64_t idle_resident_pages(struct wk_vidmm *vm)
{
    VT_OK(vm, wk_vidmm_reset(vm));
    return wk_gpu_resident_pages(wk_vidmm_gpu(vm));
}

static bool all_zero(struct wk_vidmm *vm, uint64_t addr, uint64_t len)
{
    uint8_t buf[4096];
    for (uint64_t at = 0; at < len; at += sizeof(buf)) {
        uint64_t n = len - at < sizeof(buf) ? len - at : sizeof(buf);
        assert_int_equal(wk_gpu_read(wk_vidmm_gpu(vm), addr + at, buf, n), WK_OK);
        for (uint64_t i = 0; i < n; i++)
            if (buf[i]) {
                fprintf(stderr, "GPU byte 0x%" PRIx64 " is 0x%02x after reset\n", addr + at + i, buf[i]);
                return false;
            }
    }
    return true;
}

/* Bytes of live heap blocks (ASan's allocator when it is in). */
static uint64_t heap_bytes(void)
{
    if (__sanitizer_get_current_allocated_bytes)
        return __sanitizer_get_current_allocated_bytes();
    struct mallinfo2 m = mallinfo2();
    return (uint64_t)m.uordblks + m.hblkhd;
}

/* Resident set of the process, in pages (/proc/self/statm); meaningless
 * under ASan, whose quarantine keeps freed memory resident. */
static long rss_pages(void)
{
    long size = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss;
}

/* ------------------------------------------------------------------ */
/* wk_vidmm_reset                                                       */
/* ------------------------------------------------------------------ */

static void other_segv_handler(int signo)
{
    (void)signo;
    _exit(99);
}

/* A process that aborts outside any DDI call dies of SIGABRT, also when
 * another handler took SIGSEGV between two adapters' creations (AFL++'s
 * runtime does): the kit's handlers, installed again, never chain to
 * themselves (they did, and such a process spun in the handler). */
static void test_abort_outside_a_call_still_kills(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct wk_vidmm *vm = NULL;
        if (wk_vidmm_create(NULL, &vm) != WK_OK)
            _exit(2);
        wk_vidmm_destroy(vm);
        signal(SIGSEGV, other_segv_handler);
        if (wk_vidmm_create(NULL, &vm) != WK_OK)
            _exit(3);
        abort();
    }
    int st = 0;
    pid_t done = 0;
    for (int ms = 0; ms < 10000 && (done = waitpid(pid, &st, WNOHANG)) == 0; ms += 10)
        nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
    if (done != pid) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        fail_msg("the child did not die of its abort within 10 s (a handler that calls itself)");
    }
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGABRT);
}

static void test_reset_forgets_objects(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    struct workload w;
    run_workload(f->vm, &w);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    DXGK_CONTEXTINFO info;
    assert_true(expect_status(f->vm, wk_vidmm_page_in(f->vm, w.a), WK_E_NOT_FOUND));
    assert_true(expect_status(f->vm, wk_vidmm_context_info(f->vm, w.context, &info), WK_E_NOT_FOUND));
    assert_true(expect_status(f->vm, wk_vidmm_destroy_device(f->vm, w.device), WK_E_NOT_FOUND));
    assert_true(expect_no_violations(f->vm));
}

static void test_reset_restarts_handles(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    struct workload first, again;
    run_workload(f->vm, &first);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    run_workload(f->vm, &again);
    assert_int_equal(again.device, first.device);
    assert_int_equal(again.context, first.context);
    assert_int_equal(again.a, first.a);
    assert_int_equal(again.b, first.b);
    assert_int_equal(again.device, 1);
    assert_true(expect_u64(again.a_address, first.a_address)); /* the same placement: deterministic */
    assert_true(expect_no_violations(f->vm));
}

static void test_reset_clears_violations_and_memory(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    uint64_t idle = idle_resident_pages(f->vm);
    struct workload w;
    run_workload(f->vm, &w);
    assert_true(all_zero(f->vm, w.a_address, 16 * KIB) == false); /* the fill landed */
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    uint64_t total = 1;
    assert_int_equal(wk_vidmm_violations(f->vm, NULL, 0, &total), 0);
    assert_true(expect_u64(total, 0));
    assert_true(all_zero(f->vm, VT_SEG1_BASE, VT_SEG1_SIZE));
    assert_true(all_zero(f->vm, VT_SEG2_BASE, VT_SEG2_SIZE));
    assert_true(expect_u64(wk_gpu_resident_pages(wk_vidmm_gpu(f->vm)), idle));
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(f->vm, &st);
    assert_true(expect_u64(st.paging_passes + st.evictions + st.fences_completed, 0));
}

static void fail_patch(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    (void)args;
    if (ddi == WK_DDI_PATCH)
        *status = STATUS_UNSUCCESSFUL; /* Patch has no failure status: PATCH-STATUS-001 */
}

/* A violation recorded before the reset is gone after it. */
static void test_reset_clears_a_recorded_violation(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    uint8_t dma[16] = { 0 };
    D3DDDI_PATCHLOCATIONLIST p;
    DXGK_ALLOCATIONLIST l;
    memset(&p, 0, sizeof(p));
    memset(&l, 0, sizeof(l));
    struct wk_vidmm_patch a = { f->context, dma, sizeof(dma), &l, 1, &p, 1, 0, 16, 0, 1 };
    wk_vidmm_set_rewriter(f->vm, fail_patch, NULL);
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &a), WK_E_CONTRACT));
    assert_true(expect_violation(f->vm, "PATCH-STATUS-001"));
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    assert_true(expect_no_violations(f->vm));
    assert_true(expect_not_violated(f->vm, "PATCH-STATUS-001"));
}

static void test_reset_1000_times_without_growth(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, 0));
    uint64_t idle = idle_resident_pages(f->vm), heap_before = 0;
    long rss_before = 0;
    for (int i = 0; i < 1000; i++) {
        struct workload w;
        run_workload(f->vm, &w);
        VT_OK(f->vm, wk_vidmm_reset(f->vm));
        assert_true(expect_u64(wk_gpu_resident_pages(wk_vidmm_gpu(f->vm)), idle));
        if (i == 99) { /* after warm-up: allocator pools are in place */
            rss_before = rss_pages();
            heap_before = heap_bytes();
        }
    }
    /* Live heap: exactly what it was (every block of an input freed). */
    assert_true(expect_u64(heap_bytes(), heap_before));
    long grown = rss_pages() - rss_before; /* mappings (guarded buffers) too */
    /* 1 MiB of slack for allocator noise; a leak per reset would be far
     * more. Not with a sanitizer's allocator, whose quarantine keeps freed
     * blocks resident. */
    if (!__sanitizer_get_current_allocated_bytes && grown > 256)
        fail_msg("the resident set grew by %ld pages over 900 resets", grown);
    assert_true(expect_no_violations(f->vm));
}

/* A paging buffer that does not end on a page boundary carries a canary in
 * the rest of its last page; reset must not leave it broken. */
static void test_reset_with_small_paging_buffer(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(28);
    assert_true(vt_open(f, &cfg, NULL, 0));
    struct workload w;
    run_workload(f->vm, &w);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    run_workload(f->vm, &w);
    assert_true(expect_no_violations(f->vm));
}

/* ------------------------------------------------------------------ */
/* wk_vidmm_patch                                                       */
/* ------------------------------------------------------------------ */

struct patch_case {
    uint8_t dma[64];
    DXGK_ALLOCATIONLIST list[2];
    D3DDDI_PATCHLOCATIONLIST patch[3];
    struct wk_vidmm_patch args;
};

/* A COPY from allocation a to allocation b, both addresses left for Patch,
 * and the lists the kernel would hand with it. */
static void build_patch_case(struct vt_fixture *f, struct patch_case *c)
{
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8 * KIB, 0, VT_PREF(0, VT_SEG1, 0), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req), b = vt_alloc(f->vm, f->device, &req);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, b));
    struct wk_vidmm_allocation_state sa, sb;
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, a, &sa));
    VT_OK(f->vm, wk_vidmm_allocation_state(f->vm, b, &sb));
    memset(c, 0, sizeof(*c));
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, c->dma, sizeof(c->dma));
    VT_OK(f->vm, wk_gpu_emit_copy(&w, 0, 0, 256));
    /* The driver's handles, as the kernel lists them: an entry with a
     * NULL handle is an unbind, whose value PATCH-VALUE-001 does not judge. */
    c->list[0].hDeviceSpecificAllocation = sa.device_handle;
    c->list[1].hDeviceSpecificAllocation = sb.device_handle;
    c->list[0].SegmentId = sa.segment_id;
    c->list[0].PhysicalAddress.QuadPart = (LONGLONG)sa.gpu_address;
    c->list[1].SegmentId = sb.segment_id;
    c->list[1].PhysicalAddress.QuadPart = (LONGLONG)sb.gpu_address;
    c->patch[0].AllocationIndex = 0;
    c->patch[0].PatchOffset = wk_gpu_operand_offset(WK_GPU_OP_COPY, 0);
    c->patch[0].AllocationOffset = 0x100;
    c->patch[1].AllocationIndex = 1;
    c->patch[1].PatchOffset = wk_gpu_operand_offset(WK_GPU_OP_COPY, 1);
    c->patch[1].SlotId = 1;
    c->args = (struct wk_vidmm_patch){ f->context, c->dma, (uint32_t)w.used, c->list, 2, c->patch, 2,
                                       0, (uint32_t)w.used, 0, 2 };
}

static void test_patch_correct(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    /* A sub-range, and an entry outside it that Patch must skip. */
    c.patch[2] = c.patch[1];
    c.patch[2].PatchOffset = 40;
    c.args.patch_length = 3;
    c.args.patch_count = 3;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    c.args.start = 12;
    c.args.patch_start = 1;
    c.args.patch_count = 1;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    assert_true(expect_no_violations(f->vm));
}

static void test_patch_rejects_bad_ranges(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    DXGK_CONTEXTINFO info;
    VT_OK(f->vm, wk_vidmm_context_info(f->vm, f->context, &info));
    struct patch_case c;
    build_patch_case(f, &c);
    struct wk_vidmm_stats before, after; /* paging buffers go through Patch too */
    wk_vidmm_get_stats(f->vm, &before);
    static uint8_t big[VT_RD_DMA_BUFFER_SIZE + 1];
    struct wk_vidmm_patch bad[8];
    for (int i = 0; i < 8; i++)
        bad[i] = c.args;
    bad[0].start = 20, bad[0].end = 10;                       /* start after end */
    bad[1].end = info.DmaBufferSize + 1;                      /* past the DMA buffer */
    bad[2].dma = big, bad[2].dma_length = sizeof(big);         /* more bytes than the buffer */
    bad[3].patch_start = 1, bad[3].patch_count = 2;           /* entries past the list */
    bad[4].patch_start = 3;                                   /* start past the list */
    bad[5].patch_length = info.PatchLocationListSize + 1;     /* longer than the context's list */
    bad[6].list = NULL;                                       /* a list of 2 without entries */
    bad[7].patch = NULL;
    for (int i = 0; i < 8; i++)
        if (!expect_status(f->vm, wk_vidmm_patch(f->vm, &bad[i]), WK_E_INVALID_ARGUMENT))
            fail_msg("bad patch input %d was not rejected", i);
    c.args.context = 999;
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_NOT_FOUND));
    wk_vidmm_get_stats(f->vm, &after);
    assert_true(expect_u64(after.ddi_calls[WK_DDI_PATCH], before.ddi_calls[WK_DDI_PATCH])); /* never seen */
    assert_true(expect_no_violations(f->vm));
}

/* ------------------------------------------------------------------ */
/* Pooled guarded buffers and the Patch check                           */
/* ------------------------------------------------------------------ */

/*
 * The reference driver with its objects tracked (vidmm_test_util.h,
 * vt_track). A test that kills the adapter (a crash, a guard-page hit, a
 * hang) leaves the driver's objects behind, since the kit never calls a
 * dead driver again; release_dead frees them, so the leak checker stays
 * meaningful.
 */
static DRIVER_INITIALIZATION_DATA reference_table;

static NTSTATUS t_capture(DRIVER_OBJECT *self, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init, ULONG driver_abi)
{
    (void)driver_abi;
    (void)self;
    (void)path;
    reference_table = *init;
    return STATUS_SUCCESS;
}

static NTSTATUS tracked_DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_OBJECT fake;
    memset(&fake, 0, sizeof(fake));
    fake.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    fake.wk_initialize = t_capture;
    NTSTATUS st = wk_refdriver_DriverEntry(&fake, NULL);
    if (!NT_SUCCESS(st))
        return st;
    DRIVER_INITIALIZATION_DATA t = reference_table;
    vt_track(&t);
    return DxgkInitialize(DriverObject, RegistryPath, &t);
}

/* Frees what the tracked driver still holds after its adapter died; before
 * wk_vidmm_destroy, since the driver calls back into the adapter. */
static void release_dead(void)
{
    vt_release_dead();
}

/* What the Patch rewriter does inside the DDI frame, like a driver would. */
enum poke {
    POKE_NONE,
    POKE_AT,            /* flips byte `at` (signed: before its start) of the allocation list */
    POKE_PAST,          /* the first byte past the allocation list */
    POKE_READ,          /* reads byte `at` of the allocation list */
    POKE_DMA,           /* flips DMA-buffer byte `at` */
    POKE_NULL,          /* writes through a NULL struct pointer */
    POKE_HANG,          /* spins until the hang timer fires */
};

struct poker {
    enum poke what;
    int64_t at;
    const BYTE *list;   /* the allocation list Patch got */
    volatile int spinning;
    volatile uintptr_t null_base;   /* 0: computed as an integer, only the hardware sees the write */
};

static void poke_patch(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct poker *p = user;
    DXGKARG_PATCH *a = args;
    if (ddi != WK_DDI_PATCH)
        return;
    volatile BYTE *list = (volatile BYTE *)a->pAllocationList;
    p->list = (const BYTE *)a->pAllocationList;
    switch (p->what) {
    case POKE_AT: list[p->at] ^= 0x01; break;
    case POKE_PAST: list[a->AllocationListSize * sizeof(DXGK_ALLOCATIONLIST)] = 0x5A; break;
    case POKE_READ: p->spinning = list[p->at]; break;
    case POKE_DMA: ((volatile BYTE *)a->pDmaBuffer)[p->at] ^= 0xFF; break;
    case POKE_NULL: *(volatile uint32_t *)(p->null_base + 0x10) = 1; break;
    case POKE_HANG:
        p->spinning = 1;
        while (p->spinning)
            ;
        break;
    default: break;
    }
}

/* The last violation's message contains every string of `want`. */
static bool last_violation_says(struct wk_vidmm *vm, const char *rule, const char *want1, const char *want2)
{
    struct wk_violation v[MAX_SHOWN];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(vm, v, MAX_SHOWN, &total);
    if (n == 0 || total > n) {
        fprintf(stderr, "expected a %s violation, %" PRIu64 " recorded\n", rule, total);
        return false;
    }
    const char *m = v[n - 1].message;
    if (strcmp(v[n - 1].rule, rule) != 0 || !strstr(m, want1) || (want2 && !strstr(m, want2))) {
        fprintf(stderr, "expected %s naming \"%s\" and \"%s\", got: %s\n", rule, want1, want2 ? want2 : "",
                m);
        return false;
    }
    return true;
}

/* Whether `st` is a driver crash (WK_E_DRIVER_CRASH) the last violation
 * reports as `rule`, naming want1 and want2 (NULL: anything); then frees
 * what the dead driver left and closes the adapter either way. */
static int crash_reported(struct vt_fixture *f, wk_status st, const char *rule, const char *want1, const char *want2)
{
    int said = expect_status(f->vm, st, WK_E_DRIVER_CRASH) && last_violation_says(f->vm, rule, want1, want2);
    release_dead(); /* before destroy: the driver calls back into the adapter */
    vt_close(f);
    return said;
}

static uint64_t violation_total(struct wk_vidmm *vm)
{
    uint64_t total = 0;
    wk_vidmm_violations(vm, NULL, 0, &total);
    return total;
}

/* Whether the page holding p is mapped at all (msync fails with ENOMEM
 * on an address range with no mapping). */
static bool mapped(const void *p)
{
    uintptr_t page = (uintptr_t)p & ~(uintptr_t)(VT_PAGE - 1);
    return msync((void *)page, VT_PAGE, MS_ASYNC) == 0 || errno != ENOMEM;
}

struct dma_poke {
    BYTE *end;     /* the DMA buffer's end, as the last Render saw it */
    int64_t at;    /* the byte Render writes, from the end; 0: none */
};

/* Render's pDmaBuffer + DmaSize after the driver ran is the end of the
 * DMA buffer (no multipass here): the byte at[-size]... is where it starts. */
static void poke_dma(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    struct dma_poke *p = user;
    const DXGKARG_RENDER *r = args;
    (void)status;
    if (ddi != WK_DDI_RENDER)
        return;
    p->end = (BYTE *)r->pDmaBuffer + r->DmaSize;
    if (p->at)
        ((volatile BYTE *)p->end)[p->at - 1] = 0x5A;
}

static wk_status render_empty(struct vt_fixture *f)
{
    static WK_USER_COMMAND_HEADER h = { WK_USER_COMMAND_MAGIC, WK_USER_COMMAND_VERSION, 0, 0 };
    struct wk_vidmm_render args = { f->context, &h, sizeof(h), NULL, 0, NULL, 0, 0 };
    struct wk_vidmm_render_result result;
    return wk_vidmm_render(f->vm, &args, &result);
}

/* A DMA buffer recycled across a reset (its mapping retired, not made
 * inaccessible, and taken back with no system call: the same address)
 * keeps its fixed guard pages: a write one past its end or one before its
 * start still faults at the instruction, MEM-GUARD-001 naming the buffer. */
static void test_recycled_dma_buffer_keeps_its_guards(void **state)
{
    struct vt_fixture *f = *state;
    const int64_t at[2] = { 1, -(int64_t)(16 * KIB) };
    const char *want[2] = { "past the end of the DMA buffer (16384 bytes) at offset +16384",
                            "before the start of the DMA buffer at offset -1" };
    for (int k = 0; k < 2; k++) {
        struct wk_vidmm_config cfg = fuzz_config(0);
        assert_true(vt_open(f, &cfg, tracked_DriverEntry, VT_CONTEXT));
        struct dma_poke p = { NULL, 0 };
        wk_vidmm_set_rewriter(f->vm, poke_dma, &p);
        VT_OK(f->vm, render_empty(f));
        BYTE *first = p.end;
        VT_OK(f->vm, wk_vidmm_reset(f->vm));
        VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
        VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &f->context));
        VT_OK(f->vm, render_empty(f));
        assert_ptr_equal(p.end, first); /* the same mapping, recycled */
        p.at = at[k];
        assert_true(crash_reported(f, render_empty(f), "MEM-GUARD-001", want[k], "guard page hit"));
    }
}

/* A write past the end of a reused allocation list still hits the guard
 * page at the instruction: MEM-GUARD-001 with the buffer and the offset. */
static void test_pooled_buffer_overrun_after_reuse(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, tracked_DriverEntry, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    struct poker p = { POKE_NONE, 0, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    const BYTE *first = p.list;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    assert_ptr_equal(p.list, first); /* the mapping was reused */
    p.what = POKE_PAST;
    wk_status st = wk_vidmm_patch(f->vm, &c.args);
    assert_ptr_equal(p.list, first);
    assert_true(crash_reported(f, st, "MEM-GUARD-001", "allocation list (48 bytes) at offset +48", "guard page hit"));
}

/* On a fresh adapter with a driver whose leftovers release_dead frees:
 * `clean` correct Patch calls, then one whose rewriter pokes (what, at)
 * must kill the driver with `rule` naming want1 and want2. */
static void expect_patch_fault(struct vt_fixture *f, int clean, enum poke what, int64_t at, const char *rule,
                               const char *want1, const char *want2)
{
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, tracked_DriverEntry, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    c.args.end = VT_RD_DMA_BUFFER_SIZE; /* no slot past the input: all but the first page read-only */
    struct poker p = { POKE_NONE, 0, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    for (int k = 0; k < clean; k++)
        VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    p.what = what;
    p.at = at;
    if (!crash_reported(f, wk_vidmm_patch(f->vm, &c.args), rule, want1, want2))
        fail_msg("poke %d at %+" PRId64, (int)what, at);
}

/* Patch gets its lists as const (facts §4.4): a write anywhere in the
 * pages the driver sees of them (before the allocation list, at its first
 * byte of the page, inside it) faults at that instruction and is
 * MEM-GUARD-001 naming the list and the signed offset; the adapter is dead
 * after it, as after any fault. 100 clean calls first: the next list takes
 * the same mapping, and the registry (64 slots) still names it after 200
 * buffers. */
static void test_list_writes_fault_anywhere(void **state)
{
    const int64_t slack = (int64_t)(VT_PAGE - 2 * sizeof(DXGK_ALLOCATIONLIST));
    const int64_t at[] = { -1, -8, -9, -slack, 0, 47 };
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        char want[64];
        snprintf(want, sizeof(want), "at offset %+" PRId64 " (read-only page hit)", at[i]);
        expect_patch_fault(*state, 100, POKE_AT, at[i], "MEM-GUARD-001",
                           "allocation list (48 bytes), which the DDI gets as const", want);
    }
}

/* A read far past a const list (a 32-bit count from the bytes added to
 * the pointer) lands in the PROT_NONE moat after its guard page, on every
 * machine, and is MEM-GUARD-001 naming the list and the offset, not a
 * crash that depends on what else the process mapped there
 * (guard_input.c). Heron's planted UMD_SKIP bug reads at +0x42434b57. */
static void test_list_reads_far_past_fault(void **state)
{
    const int64_t list = (int64_t)(2 * sizeof(DXGK_ALLOCATIONLIST));
    const int64_t at[] = { list + (int64_t)VT_PAGE, list + 0x42434b57, list + 0xFFFFFFFFll + 16 };
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        char want[96];
        snprintf(want, sizeof(want), "past the end of the allocation list (48 bytes) at offset +%" PRId64, at[i]);
        expect_patch_fault(*state, 1, POKE_READ, at[i], "MEM-GUARD-001", want, "(guard page hit)");
    }
}

/* Spares outlive a reset (a differential harness resets per input) and
 * the adapter: they are the process's (guard_input.c), and the next
 * adapter's list of the same size takes the same mapping back. */
static void test_pooled_buffers_released(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    struct poker p = { POKE_NONE, 0, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    assert_true(mapped(p.list)); /* kept as a spare */
    const BYTE *before_reset = p.list;
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    assert_true(mapped(before_reset)); /* still a spare */
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &f->context));
    build_patch_case(f, &c);
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    const BYTE *spare = p.list;
    vt_close(f);
    assert_true(mapped(spare)); /* parked for the next adapter */
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    build_patch_case(f, &c);
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    assert_ptr_equal(p.list, spare);
}

/* PATCH-CONFINE-001 names the first changed byte outside the listed slots
 * of the range: before the range, right after a slot, between two slots,
 * at and past the end of the range, past the bytes the input gave (the
 * zeroes) and at the buffer's last byte. */
static void test_patch_confinement_offsets(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    c.patch[2] = c.patch[1];
    c.patch[2].PatchOffset = 48; /* a third slot, past the command: a gap before it */
    c.args.patch_length = c.args.patch_count = 3;
    c.args.start = 2;
    c.args.end = 64;
    uint32_t after1 = c.patch[1].PatchOffset + 8;
    assert_true(after1 < 48);
    /* 4095: the last byte Patch can write here (the rest of the buffer is
     * read-only to it: test_patch_view_tail_write_faults) */
    const uint64_t at[] = { 0, 1, after1, (after1 + 48) / 2, 47, 56, 64, 164, VT_PAGE - 1 };
    struct poker p = { POKE_DMA, 0, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        p.at = at[i];
        assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_CONTRACT));
        char want[48];
        snprintf(want, sizeof(want), "changed byte +%" PRIu64 " ", at[i]);
        assert_true(last_violation_says(f->vm, "PATCH-CONFINE-001", want, NULL));
    }
    /* Inside a listed slot of the range: allowed, but the value is judged. */
    p.at = 48 + 7;
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_CONTRACT));
    assert_true(last_violation_says(f->vm, "PATCH-VALUE-001", "patch location 2", NULL));
    p.what = POKE_NONE;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
}

/* Slots listed out of order (the list is the driver's, in any order) are
 * sorted before the confinement check: a correct Patch of entries listed
 * last-first passes, and a byte between two of them is still flagged. */
static void test_patch_slots_in_any_order(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    c.patch[2] = c.patch[1];
    c.patch[2].PatchOffset = 48; /* past the command: a third slot */
    D3DDDI_PATCHLOCATIONLIST first = c.patch[0];
    c.patch[0] = c.patch[2]; /* offsets 48, second, first: descending */
    c.patch[2] = first;
    c.args.patch_length = c.args.patch_count = 3;
    c.args.end = 64;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    struct poker p = { POKE_DMA, 44, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_CONTRACT));
    assert_true(last_violation_says(f->vm, "PATCH-CONFINE-001", "changed byte +44 ", NULL));
}

/* The adapter's last error (the last violation's message, however many
 * came before) names the rule and both strings. */
static bool last_error_says(struct wk_vidmm *vm, const char *rule, const char *want1, const char *want2)
{
    const char *m = wk_vidmm_last_error(vm);
    if (strncmp(m, rule, strlen(rule)) == 0 && strstr(m, want1) && (!want2 || strstr(m, want2)))
        return true;
    fprintf(stderr, "expected %s naming \"%s\" and \"%s\", got: %s\n", rule, want1, want2 ? want2 : "", m);
    return false;
}

/* Every offset class of the one-stream scan (guard.c, gbuf_first_not):
 * a changed DMA byte at each offset of a few 256-byte blocks past the
 * input and of the buffer's last ones is named exactly. (The lists are
 * read-only to Patch: test_list_writes_fault_anywhere.) */
static void test_scans_name_every_offset(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    cfg.no_guard_pages = 1; /* no read-only DMA tail: every byte is found by the scan (patch_view.c) */
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    c.args.end = VT_RD_DMA_BUFFER_SIZE; /* no allowed slot past the input */
    struct poker p = { POKE_DMA, 0, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    uint64_t slots = wk_gpu_operand_offset(WK_GPU_OP_COPY, 0), slots_end = c.patch[1].PatchOffset + 8;
    for (uint64_t at = 0; at < VT_RD_DMA_BUFFER_SIZE; at++) {
        if (at == 600)
            at = VT_RD_DMA_BUFFER_SIZE - 600;
        if (at >= slots && at < slots_end) /* the COPY's two address slots: allowed */
            continue;
        p.at = at;
        assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_CONTRACT));
        char want[48];
        snprintf(want, sizeof(want), "changed byte +%" PRIu64 " ", at);
        if (!last_error_says(f->vm, "PATCH-CONFINE-001", want, NULL))
            fail_msg("DMA byte %" PRIu64, at);
    }
}

/* Patch's view of the DMA buffer (patch_view.c): past the pages the
 * call's slots need (at least the first), it is read-only to the driver
 * from the very first call, so a write there faults at once
 * (PATCH-CONFINE-001 with the offset) and the check need not read it. */
static void test_patch_view_tail_write_faults(void **state)
{
    const int64_t at[] = { VT_PAGE, 5000, VT_RD_DMA_BUFFER_SIZE - 1 };
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        char want[48];
        snprintf(want, sizeof(want), "changed byte +%" PRId64 " of the DMA buffer", at[i]);
        expect_patch_fault(*state, 0, POKE_DMA, at[i], "PATCH-CONFINE-001", want, "(read-only page hit)");
    }
}

/* A slot past the first page makes the pages up to it writable for that
 * call: the driver's correct write passes, a stray byte in the now
 * writable pages is found by the scan (the adapter lives on); the next
 * call without that slot has them read-only again, and the same stray
 * byte faults. */
static void test_patch_view_follows_the_slots(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, tracked_DriverEntry, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    c.args.end = VT_RD_DMA_BUFFER_SIZE;
    struct poker p = { POKE_NONE, 0, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &c.args));
    struct patch_case far = c;
    far.patch[2] = far.patch[1];
    far.patch[2].PatchOffset = 9000; /* page 2 */
    far.args.patch = far.patch;
    far.args.list = far.list;
    far.args.dma = far.dma;
    far.args.patch_length = far.args.patch_count = 3;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &far.args));
    p.what = POKE_DMA;
    p.at = 5000; /* page 1: writable now, so read */
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &far.args), WK_E_CONTRACT));
    assert_true(last_violation_says(f->vm, "PATCH-CONFINE-001", "changed byte +5000 ", NULL));
    assert_true(crash_reported(f, wk_vidmm_patch(f->vm, &c.args), "PATCH-CONFINE-001", "changed byte +5000 ",
                               "(read-only page hit)"));
}

static void write_paging_buffer(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    const int64_t *at = user;
    DXGKARG_PATCH *a = args;
    if (ddi == WK_DDI_PATCH && a->Flags.Paging)
        ((volatile BYTE *)a->pDmaBuffer)[*at] ^= 0x01;
}

/* Patch of a paging buffer may change nothing (it has no patch
 * locations): the driver gets it read-only, so a write faults at the
 * instruction, PATCH-CONFINE-001 naming the paging buffer and the offset,
 * or MEM-GUARD-001 just past its end. */
static void test_paging_patch_view_write_faults(void **state)
{
    struct vt_fixture *f = *state;
    const int64_t at[] = { 0, 100, (int64_t)VT_PAGE + 5 };
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        struct wk_vidmm_config cfg = fuzz_config(0);
        assert_true(vt_open(f, &cfg, tracked_DriverEntry, VT_DEVICE));
        WK_ALLOCATION_REQUEST req;
        vt_request_at(&req, 8 * KIB, VT_SET(VT_SEG1), VT_PREF(0, VT_SEG1, 0), 0);
        uint32_t a = vt_alloc(f->vm, f->device, &req);
        wk_vidmm_set_rewriter(f->vm, write_paging_buffer, (void *)&at[i]);
        wk_status st = wk_vidmm_page_in(f->vm, a);
        char want[64];
        snprintf(want, sizeof(want), "changed byte +%" PRId64 " of the paging buffer", at[i]);
        assert_true(crash_reported(f, st, "PATCH-CONFINE-001", want, "(read-only page hit)"));
    }
}

/* guard.c's scan, internal to wk_vidmm (reference-impl/vidmm/internal.h):
 * declared here to pin it directly. */
uint64_t gbuf_first_not(const uint8_t *p, uint64_t n, uint8_t value);

/* The scan's three levels (1 KiB blocks, 128-byte steps, vectors, then
 * bytes) at every length class and alignment: each byte that differs is
 * found where it is, none gives n, and a byte just past n is not read as
 * inside. */
static void test_first_not_every_position(void **state)
{
    (void)state;
    static uint8_t buf[4096 + 64];
    const uint64_t lengths[] = { 0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025, 1151, 2125, 4096 };
    const uint8_t values[] = { 0x00, 0xA5 };
    const uint64_t starts[] = { 0, 1, 7, 31 };
    for (size_t v = 0; v < 2; v++)
        for (size_t s0 = 0; s0 < 4; s0++)
            for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++) {
                uint8_t *p = buf + starts[s0];
                uint64_t n = lengths[l];
                memset(buf, values[v], sizeof(buf));
                p[n] ^= 0x40; /* past the run */
                assert_int_equal(gbuf_first_not(p, n, values[v]), n);
                for (uint64_t d = 0; d < n; d++) {
                    p[d] ^= 0x01;
                    if (gbuf_first_not(p, n, values[v]) != d)
                        fail_msg("value 0x%02x, start %" PRIu64 ", length %" PRIu64 ": byte %" PRIu64 " not found",
                                 values[v], starts[s0], n, d);
                    p[d] ^= 0x01;
                }
            }
}

/* ------------------------------------------------------------------ */
/* What wk_vidmm_patch knows between calls (submit.c, known_take)       */
/* ------------------------------------------------------------------ */

/*
 * A clean Patch lets the next one zero only the bytes that may not be zero,
 * and a clean allocation list lets the next one on its mapping write the
 * canary only where the list was. Each test below leaves bytes where that
 * knowledge would be wrong if it outlived what can write them (another
 * DDI, a GPU execution, a violation, a reset, a longer input or a slot
 * past it), then looks at what the next Patch hands the driver: the input
 * and zeroes everywhere else in the DMA buffer, as a full rewrite gives,
 * a patch-location list of exactly the input's entries, and no violation.
 */
struct watch {
    int armed;                  /* look at the next non-paging Patch's buffers */
    int64_t stale_dma;          /* first non-zero DMA byte past the input, -1: none */
    int list_differs;           /* the patch-location list is not the input's entries */
    int64_t slack_bad;          /* how far before the allocation list a byte is not the canary, -1: none */
    uint32_t dma_length;        /* the input's */
    const D3DDDI_PATCHLOCATIONLIST *entries; /* the input's */
    uint32_t entry_count;
    volatile BYTE *dma;         /* what the last Patch was handed */
    volatile BYTE *alloc_list;
    uint64_t dma_address;
    enum wk_ddi stray_ddi;      /* in this DDI (once), write 0x77 at dma[stray_at] */
    uint64_t stray_at;
    int stray_in_list;          /* at alloc_list[-stray_at] instead */
};

static int64_t first_set(const volatile BYTE *p, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++)
        if (p[i])
            return (int64_t)i;
    return -1;
}

/* How far before p a byte of p's page (the page of p[-1]) is not the
 * canary guard.c writes before CPU buffers, -1 when none: what a driver
 * reading before its list would see must not depend on earlier inputs. */
static int64_t first_not_canary_before(const volatile BYTE *p)
{
    uintptr_t page = ((uintptr_t)p - 1) & ~(uintptr_t)(VT_PAGE - 1);
    for (const volatile BYTE *q = p - 1; (uintptr_t)q >= page; q--)
        if (*q != 0xA5)
            return (int64_t)(p - q);
    return -1;
}

static void stray_write(struct watch *w)
{
    if (w->stray_in_list)
        w->alloc_list[-(ptrdiff_t)w->stray_at] = 0x77;
    else
        w->dma[w->stray_at] = 0x77;
    w->stray_ddi = WK_DDI_NONE;
}

static void watch_ddi(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct watch *w = user;
    if (ddi == w->stray_ddi && w->dma)
        stray_write(w);
    const DXGKARG_PATCH *a = args;
    if (ddi != WK_DDI_PATCH || a->Flags.Paging)
        return;
    w->dma = a->pDmaBuffer;
    w->alloc_list = (volatile BYTE *)(uintptr_t)a->pAllocationList;
    w->dma_address = (uint64_t)a->DmaBufferPhysicalAddress.QuadPart;
    if (!w->armed)
        return;
    w->armed = 0;
    w->stale_dma = first_set(a->pDmaBuffer, w->dma_length, a->DmaBufferSize);
    w->list_differs = a->PatchLocationListSize != w->entry_count ||
                      (w->entry_count && memcmp(a->pPatchLocationList, w->entries,
                                                w->entry_count * sizeof(D3DDDI_PATCHLOCATIONLIST)) != 0);
    w->slack_bad = first_not_canary_before(w->alloc_list);
}

/* The reference driver (entry NULL) or tracked_DriverEntry's, for a test
 * whose driver dies (release_dead). */
static void open_watched_with(struct vt_fixture *f, struct patch_case *c, struct watch *w,
                              DRIVER_INITIALIZE *entry)
{
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, entry, VT_CONTEXT));
    build_patch_case(f, c);
    DXGK_CONTEXTINFO info;
    VT_OK(f->vm, wk_vidmm_context_info(f->vm, f->context, &info));
    memset(w, 0, sizeof(*w));
    w->stray_ddi = WK_DDI_NONE;
    wk_vidmm_set_rewriter(f->vm, watch_ddi, w);
}

static void open_watched(struct vt_fixture *f, struct patch_case *c, struct watch *w)
{
    open_watched_with(f, c, w, NULL);
}

/* A Patch of `args` that must pass, handed nothing but its input. */
static void patch_sees_only_its_input(struct vt_fixture *f, struct watch *w, const struct wk_vidmm_patch *args)
{
    w->armed = 1;
    w->dma_length = args->dma_length;
    w->entries = args->patch;
    w->entry_count = args->patch_length;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, args));
    assert_false(w->armed);
    if (w->stale_dma != -1 || w->list_differs || w->slack_bad != -1)
        fail_msg("stale bytes handed to Patch: DMA +%" PRId64 ", patch list %s, allocation list -%" PRId64,
                 w->stale_dma, w->list_differs ? "not the input's entries" : "as given", w->slack_bad);
}

/* A watched context whose first clean Patch has left its state known. */
static void open_known(struct vt_fixture *f, struct patch_case *c, struct watch *w)
{
    open_watched(f, c, w);
    patch_sees_only_its_input(f, w, &c->args);
}

/* The same case with a longer input (the command, then 0xAB up to 600
 * bytes) and a third patch entry: more to clear after it. */
static struct wk_vidmm_patch longer(struct patch_case *c, uint8_t *dma)
{
    memset(dma, 0xAB, 600);
    memcpy(dma, c->dma, c->args.dma_length);
    c->patch[2] = c->patch[1];
    /* c->patch[1] again: the same slot and value */
    struct wk_vidmm_patch a = c->args;
    a.dma = dma;
    a.dma_length = 600;
    a.patch_length = a.patch_count = 3;
    return a;
}

static void test_known_patch_clears_what_the_last_left(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_watched(f, &c, &w);
    uint8_t dma[600];
    struct wk_vidmm_patch big = longer(&c, dma);
    patch_sees_only_its_input(f, &w, &big);
    patch_sees_only_its_input(f, &w, &c.args); /* [input, 600) and entry 2 zeroed */
    patch_sees_only_its_input(f, &w, &big);
    patch_sees_only_its_input(f, &w, &c.args);
    /* The bytes not rewritten are still compared: a change is named (the
     * last byte of the page Patch can write; past it, a write faults). */
    struct poker p = { POKE_DMA, VT_PAGE - 1, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_CONTRACT));
    assert_true(last_violation_says(f->vm, "PATCH-CONFINE-001", "changed byte +4095 ", NULL));
    assert_true(expect_u64(violation_total(f->vm), 1));
}

/* A slot past the input holds the address the driver patched in: the next
 * Patch, without that slot, must get zeroes there. */
static void test_known_patch_counts_slots_past_the_input(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_watched(f, &c, &w);
    struct wk_vidmm_patch with_slot = c.args;
    c.patch[2] = c.patch[1];
    c.patch[2].PatchOffset = 48;
    with_slot.end = 64;
    with_slot.patch_length = with_slot.patch_count = 3;
    VT_OK(f->vm, wk_vidmm_patch(f->vm, &with_slot));
    assert_int_not_equal(first_set(w.dma, 48, 56), -1); /* patched in */
    patch_sees_only_its_input(f, &w, &c.args);
    assert_true(expect_no_violations(f->vm));
}

/* Patch writing past the patch-location list it was handed: the list
 * ends at a guard page, so the write faults at the instruction
 * (MEM-GUARD-001 naming the list and the offset), and the next Patch is
 * handed exactly its own entries again. */
static void write_past_the_list(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    const DXGKARG_PATCH *a = args;
    if (ddi == WK_DDI_PATCH && !a->Flags.Paging)
        ((volatile BYTE *)(uintptr_t)a->pPatchLocationList)[a->PatchLocationListSize *
                                                           sizeof(D3DDDI_PATCHLOCATIONLIST) + 100] = 0x77;
    watch_ddi(user, ddi, args, status);
}

static void test_patch_list_overrun_hits_the_guard(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, tracked_DriverEntry, VT_CONTEXT));
    struct patch_case c;
    build_patch_case(f, &c);
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    memset(&w, 0, sizeof(w));
    w.stray_ddi = WK_DDI_NONE;
    wk_vidmm_set_rewriter(f->vm, write_past_the_list, &w);
    wk_status st = wk_vidmm_patch(f->vm, &c.args);
    uint64_t bytes = (uint64_t)c.args.patch_length * sizeof(D3DDDI_PATCHLOCATIONLIST);
    char where[96];
    snprintf(where, sizeof(where), "patch-location list (%" PRIu64 " bytes) at offset +%" PRIu64, bytes,
             bytes + 100);
    assert_true(crash_reported(f, st, "MEM-GUARD-001", where, "guard page hit"));
}

/* A shorter list after a longer one: the driver is handed only the
 * shorter list's entries (PatchLocationListSize is their count). */
static void test_known_patch_list_is_exactly_the_entries(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_watched(f, &c, &w);
    uint8_t dma[600];
    struct wk_vidmm_patch big = longer(&c, dma);
    patch_sees_only_its_input(f, &w, &big);
    patch_sees_only_its_input(f, &w, &c.args);
    assert_true(expect_no_violations(f->vm));
}

/* A Render on the context writes its DMA buffer and patch list. */
static void test_known_patch_dropped_by_render(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_known(f, &c, &w);
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8 * KIB, 0, VT_PREF(0, VT_SEG1, 0), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req), b = vt_alloc(f->vm, f->device, &req);
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    for (int i = 0; i < 8; i++)
        vt_cmd_fill(&cmd, 0, 0, 4 * KIB, 0x11223344u);
    vt_cmd_copy(&cmd, 0, 0, 1, 0, 4 * KIB);
    struct wk_vidmm_list_entry list[2] = { { a, 1 }, { b, 1 } };
    struct wk_vidmm_render_result res;
    VT_OK(f->vm, vt_render(f->vm, f->context, &cmd, list, 2, 0, &res));
    VT_OK(f->vm, wk_vidmm_wait_idle(f->vm));
    assert_int_not_equal(first_set(w.dma, c.args.dma_length, VT_RD_DMA_BUFFER_SIZE), -1); /* Render wrote */
    patch_sees_only_its_input(f, &w, &c.args);
    assert_true(expect_no_violations(f->vm));
}

/* Any DDI call: a driver that kept the DMA buffer's address writes it
 * while building a paging buffer. */
static void test_known_patch_dropped_by_any_ddi(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_known(f, &c, &w);
    w.stray_ddi = WK_DDI_BUILD_PAGING_BUFFER;
    w.stray_at = 3000; /* past the input, in the page Patch can write (past it, a write faults) */
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8 * KIB, 0, VT_PREF(0, VT_SEG1, 0), 0);
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, vt_alloc(f->vm, f->device, &req)));
    assert_int_equal(w.stray_ddi, WK_DDI_NONE); /* written */
    patch_sees_only_its_input(f, &w, &c.args);
    assert_true(expect_no_violations(f->vm));
}

/* A GPU execution from the host that fills part of the DMA buffer. */
static void test_known_patch_dropped_by_gpu_execution(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_known(f, &c, &w);
    uint8_t cmd[64];
    struct wk_gpu_writer gw;
    wk_gpu_writer_init(&gw, cmd, sizeof(cmd));
    VT_OK(f->vm, wk_gpu_emit_fill(&gw, w.dma_address + 3 * VT_PAGE, 64, 0x5A5A5A5Au));
    struct wk_gpu_fault fault;
    VT_OK(f->vm, wk_gpu_exec_bytes(wk_vidmm_gpu(f->vm), cmd, gw.used, 0, &fault));
    assert_int_equal(w.dma[3 * VT_PAGE], 0x5A);
    patch_sees_only_its_input(f, &w, &c.args);
    assert_true(expect_no_violations(f->vm));
}

/* A violation in the call: nothing is known after it. */
static void test_known_patch_dropped_by_a_violation(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_known(f, &c, &w);
    struct poker p = { POKE_DMA, 3000, NULL, 0, 0 };
    wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
    assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_CONTRACT));
    assert_true(last_violation_says(f->vm, "PATCH-CONFINE-001", "changed byte +3000 ", NULL));
    wk_vidmm_set_rewriter(f->vm, watch_ddi, &w);
    patch_sees_only_its_input(f, &w, &c.args);
    assert_true(expect_u64(violation_total(f->vm), 1));
}

/* A reset, and a new context in the same slot. */
static void test_known_patch_dropped_by_reset(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_watched(f, &c, &w);
    uint8_t dma[600];
    struct wk_vidmm_patch big = longer(&c, dma);
    patch_sees_only_its_input(f, &w, &big);
    VT_OK(f->vm, wk_vidmm_reset(f->vm));
    VT_OK(f->vm, wk_vidmm_create_device(f->vm, 0, &f->device));
    VT_OK(f->vm, wk_vidmm_create_context(f->vm, f->device, 0, &f->context));
    build_patch_case(f, &c);
    patch_sees_only_its_input(f, &w, &c.args);
    assert_true(expect_no_violations(f->vm));
}

/* The allocation list's mapping, reused with lists of 2, 1, 0 and 2
 * entries: the canary follows (the bytes before each list are the canary
 * however long the last one was), written only where the last list was. */
static void test_known_canary_follows_the_list(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_watched(f, &c, &w);
    const uint32_t lengths[] = { 2, 1, 0, 2, 0, 1, 2 };
    for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
        struct wk_vidmm_patch a = c.args;
        a.list_length = lengths[i];
        patch_sees_only_its_input(f, &w, &a);
    }
    assert_true(expect_no_violations(f->vm));
}

/* A driver that kept the last allocation list's address writes through it
 * in another DDI: the kept mapping is still read-only, so the write faults
 * there, MEM-GUARD-001 naming an input of an earlier call. */
static void test_stale_list_pointer_write_faults(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_watched_with(f, &c, &w, tracked_DriverEntry);
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8 * KIB, 0, VT_PREF(0, VT_SEG1, 0), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req);
    patch_sees_only_its_input(f, &w, &c.args);
    w.stray_ddi = WK_DDI_BUILD_PAGING_BUFFER;
    w.stray_in_list = 1;
    w.stray_at = 100;
    assert_true(crash_reported(f, wk_vidmm_page_in(f->vm, a), "MEM-GUARD-001", "into an input of an earlier DDI call",
                               NULL));
}

static void write_command(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)user;
    (void)status;
    const DXGKARG_RENDER *r = args;
    if (ddi == WK_DDI_RENDER)
        ((volatile BYTE *)(uintptr_t)r->pCommand)[4] ^= 1;
}

/* Render gets the user command buffer as `const void *const` (facts §4.3):
 * a write into it faults, MEM-GUARD-001 naming it and the offset. */
static void test_render_command_write_faults(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, tracked_DriverEntry, VT_CONTEXT));
    WK_USER_COMMAND_HEADER h = { WK_USER_COMMAND_MAGIC, WK_USER_COMMAND_VERSION, 0, 0 };
    struct wk_vidmm_render args = { f->context, &h, sizeof(h), NULL, 0, NULL, 0, 0 };
    struct wk_vidmm_render_result result;
    VT_OK(f->vm, wk_vidmm_render(f->vm, &args, &result));
    wk_vidmm_set_rewriter(f->vm, write_command, NULL);
    wk_status st = wk_vidmm_render(f->vm, &args, &result);
    char want[96];
    snprintf(want, sizeof(want), "user command buffer (%zu bytes), which the DDI gets as const, at offset +4",
             sizeof(h));
    assert_true(crash_reported(f, st, "MEM-GUARD-001", want, "read-only page hit"));
}

/* A forked child does not reuse its parent's kept input mappings (they
 * are shared memory): a child's longer list would otherwise overwrite the
 * canary the parent knows is before its next, shorter one. */
static void test_forked_child_maps_its_own_inputs(void **state)
{
    struct vt_fixture *f = *state;
    struct patch_case c;
    static struct watch w; /* the teardown's DDI calls still reach watch_ddi */
    open_watched(f, &c, &w);
    struct wk_vidmm_patch one = c.args;
    one.list_length = 1;
    patch_sees_only_its_input(f, &w, &one); /* a spare whose canary ends 24 bytes before the page end */
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        wk_vidmm_patch(f->vm, &c.args); /* two entries: 48 bytes */
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    patch_sees_only_its_input(f, &w, &one);
    assert_true(expect_no_violations(f->vm));
}

/* The frame does not save the signal mask (no system call per DDI): after
 * each caught crash and hang the signals are unblocked and the next one,
 * on the next adapter, is caught the same way. */
static void test_repeated_crashes_are_caught(void **state)
{
    struct vt_fixture *f = *state;
    static const struct {
        enum poke what;
        wk_status st;
        const char *rule;
    } kinds[] = {
        { POKE_PAST, WK_E_DRIVER_CRASH, "MEM-GUARD-001" },
        { POKE_NULL, WK_E_DRIVER_CRASH, "DRV-CRASH-001" },
        { POKE_HANG, WK_E_DRIVER_HANG, "DRV-HANG-001" },
    };
    for (int round = 0; round < 2; round++)
        for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
            struct wk_vidmm_config cfg = fuzz_config(0);
            cfg.ddi_timeout_ms = 50;
            assert_true(vt_open(f, &cfg, tracked_DriverEntry, VT_CONTEXT));
            struct patch_case c;
            build_patch_case(f, &c);
            struct poker p = { kinds[k].what, 0, NULL, 0, 0 };
            wk_vidmm_set_rewriter(f->vm, poke_patch, &p);
            assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), kinds[k].st));
            assert_true(expect_violation(f->vm, kinds[k].rule));
            sigset_t blocked;
            sigprocmask(SIG_BLOCK, NULL, &blocked);
            assert_false(sigismember(&blocked, SIGSEGV));
            assert_false(sigismember(&blocked, SIGALRM));
            assert_true(expect_status(f->vm, wk_vidmm_patch(f->vm, &c.args), WK_E_DEAD));
            release_dead();
            vt_close(f);
        }
}

/* Something inside Patch that pages (a driver callback such as
 * DxgkCbCreateContextAllocation places, fills and flushes the paging
 * buffer, whose own Patch is checked) runs a second Patch check while the
 * first one's snapshot is held: each keeps its own copy. Modelled by
 * paging in from inside the frame of a Render submission's Patch. */
struct nested {
    struct wk_vidmm *vm;
    uint32_t allocation;    /* never paged in: the page-in fills it */
    int done;
    wk_status st;
};

static void page_in_inside_patch(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct nested *n = user;
    const DXGKARG_PATCH *a = args;
    if (ddi != WK_DDI_PATCH || a->Flags.Paging || n->done)
        return;
    n->done = 1;
    n->st = wk_vidmm_page_in(n->vm, n->allocation);
}

static void test_nested_patch_checks_keep_their_snapshots(void **state)
{
    struct vt_fixture *f = *state;
    struct wk_vidmm_config cfg = fuzz_config(0);
    assert_true(vt_open(f, &cfg, NULL, VT_CONTEXT));
    WK_ALLOCATION_REQUEST req;
    vt_request_at(&req, 8 * KIB, 0, VT_PREF(0, VT_SEG1, 0), 0);
    uint32_t a = vt_alloc(f->vm, f->device, &req), b = vt_alloc(f->vm, f->device, &req);
    struct nested n = { f->vm, vt_alloc(f->vm, f->device, &req), 0, WK_OK };
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, a));
    VT_OK(f->vm, wk_vidmm_page_in(f->vm, b));
    struct vt_cmd cmd;
    vt_cmd_init(&cmd);
    vt_cmd_fill(&cmd, 0, 0, 4 * KIB, 0x11223344u);
    vt_cmd_copy(&cmd, 0, 0, 1, 0, 4 * KIB);
    struct wk_vidmm_list_entry list[2] = { { a, 1 }, { b, 1 } };
    struct wk_vidmm_render_result res;
    wk_vidmm_set_rewriter(f->vm, page_in_inside_patch, &n);
    VT_OK(f->vm, vt_render(f->vm, f->context, &cmd, list, 2, 1, &res));
    assert_true(n.done);
    VT_OK(f->vm, n.st);
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(f->vm, &st);
    assert_true(st.ddi_calls[WK_DDI_PATCH] >= 2); /* the paging buffer's Patch ran inside */
    assert_true(expect_no_violations(f->vm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        VT_TEST(test_reset_forgets_objects),
        VT_TEST(test_reset_restarts_handles),
        VT_TEST(test_recycled_dma_buffer_keeps_its_guards),
        VT_TEST(test_reset_clears_violations_and_memory),
        VT_TEST(test_reset_clears_a_recorded_violation),
        VT_TEST(test_reset_1000_times_without_growth),
        VT_TEST(test_reset_with_small_paging_buffer),
        VT_TEST(test_patch_correct),
        VT_TEST(test_patch_rejects_bad_ranges),
        VT_TEST(test_pooled_buffer_overrun_after_reuse),
        VT_TEST(test_list_writes_fault_anywhere),
        VT_TEST(test_list_reads_far_past_fault),
        VT_TEST(test_pooled_buffers_released),
        VT_TEST(test_patch_confinement_offsets),
        VT_TEST(test_nested_patch_checks_keep_their_snapshots),
        VT_TEST(test_patch_slots_in_any_order),
        VT_TEST(test_scans_name_every_offset),
        VT_TEST(test_patch_view_tail_write_faults),
        VT_TEST(test_patch_view_follows_the_slots),
        VT_TEST(test_paging_patch_view_write_faults),
        cmocka_unit_test(test_first_not_every_position),
        cmocka_unit_test(test_abort_outside_a_call_still_kills),
        VT_TEST(test_known_patch_clears_what_the_last_left),
        VT_TEST(test_known_patch_counts_slots_past_the_input),
        VT_TEST(test_patch_list_overrun_hits_the_guard),
        VT_TEST(test_known_patch_list_is_exactly_the_entries),
        VT_TEST(test_known_patch_dropped_by_render),
        VT_TEST(test_known_patch_dropped_by_any_ddi),
        VT_TEST(test_known_patch_dropped_by_gpu_execution),
        VT_TEST(test_known_patch_dropped_by_a_violation),
        VT_TEST(test_known_patch_dropped_by_reset),
        VT_TEST(test_known_canary_follows_the_list),
        VT_TEST(test_stale_list_pointer_write_faults),
        VT_TEST(test_render_command_write_faults),
        VT_TEST(test_forked_child_maps_its_own_inputs),
        VT_TEST(test_repeated_crashes_are_caught),
    };
    return cmocka_run_group_tests_name("vidmm.fuzzapi", tests, NULL, NULL);
}
