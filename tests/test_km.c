/* SPDX-License-Identifier: MIT */
/*
 * test_km.c - checks wddmkit/km.h, the kernel-mode API subset drivers
 * compile against.
 *
 * Three kinds of check. Behaviour: pool fill patterns and size limits, IRQL
 * bookkeeping, lock exclusion from two threads, interlocked results, Rtl,
 * MDL mapping, page arithmetic, debug output. Misuse: every driver bug the
 * header promises to catch (wrong tag, double free, self-deadlock, waits at
 * raised IRQL, a failed NT_ASSERT, ...) runs in a forked child whose stderr
 * is captured; the case passes only if the child dies of SIGABRT and printed
 * the rule ID it is expected to print. Compilation: the SAL, SEH and helper
 * macros are used the way miniport code uses them.
 *
 * The file is built three ways: as C11 (test_km), as C++11 through
 * test_km_cxx.cpp (so it avoids designated initializers and implicit void*
 * conversions), and, with WK_KM_TEST_TU2 defined, as a second C translation
 * unit linked into both, which proves the header links cleanly from several
 * units and that they share one modelled IRQL.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid */
#endif

#ifdef WK_KM_TEST_TU2
/* ------------------------------------------------------------------------ */
/* Second translation unit: two helpers, nothing else                        */
/* ------------------------------------------------------------------------ */
#include "wddmkit/km.h"

KIRQL wk_test_tu2_irql(void);
VOID wk_test_tu2_acquire(PKSPIN_LOCK lock, PKIRQL old_irql);

/* KeGetCurrentIrql as seen from this unit. */
KIRQL wk_test_tu2_irql(void)
{
    return KeGetCurrentIrql();
}

/* KeAcquireSpinLock called from this unit. */
VOID wk_test_tu2_acquire(PKSPIN_LOCK lock, PKIRQL old_irql)
{
    KeAcquireSpinLock(lock, old_irql);
}

#else /* the tests */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
/* cmocka 1.1 has no extern "C" of its own. */
#ifdef __cplusplus
extern "C" {
#endif
#include <cmocka.h>
#ifdef __cplusplus
}
#endif

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wddmkit/km.h"

#ifdef __cplusplus
/* In C++ the header leaves the SAL 1 names alone by default, so a standard
 * C++ header may follow it; this include proves it. */
#include <utility>
#endif

#ifdef __cplusplus
extern "C" {
#endif
KIRQL wk_test_tu2_irql(void);
VOID wk_test_tu2_acquire(PKSPIN_LOCK lock, PKIRQL old_irql);
#ifdef __cplusplus
}
#endif

/* A pool tag from its four characters in memory order ("kmA1" prints as
 * kmA1), avoiding multi-character literals, which GCC warns about. */
#define TAG4(a, b, c, d) \
    ((ULONG)(UCHAR)(a) | (ULONG)(UCHAR)(b) << 8 | (ULONG)(UCHAR)(c) << 16 | (ULONG)(UCHAR)(d) << 24)
#define TAG_A TAG4('k', 'm', 'A', '1')
#define TAG_B TAG4('k', 'm', 'B', '2')

/* True when every one of n bytes at p equals v; prints the first mismatch. */
static bool all_bytes(const void *p, size_t n, unsigned v)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        if (b[i] != v) {
            print_error("byte %zu is 0x%02x, expected 0x%02x\n", i, b[i], v);
            return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Child processes: run a function, capture stderr, report how it ended     */
/* ------------------------------------------------------------------------ */

#include "child_test.h"
typedef wk_child_fn child_fn;
#define dies_with wk_child_dies_with
#define run_child wk_child_run
#define child_result wk_child_result

/* ------------------------------------------------------------------------ */
/* Pool                                                                      */
/* ------------------------------------------------------------------------ */

/* ExAllocatePoolWithTag fills with 0xCD, aligns to 16, frees by tag. */
static void test_pool_with_tag_fills_cd(void **state)
{
    const POOL_TYPE types[] = {NonPagedPool, PagedPool, NonPagedPoolNx};
    size_t i;
    (void)state;
    for (i = 0; i < RTL_NUMBER_OF(types); i++) {
        UCHAR *p = (UCHAR *)ExAllocatePoolWithTag(types[i], 100, TAG_A);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        assert_true(all_bytes(p, 100, 0xCD));
        memset(p, 0x11, 100);
        if (i % 2)
            ExFreePool(p);
        else
            ExFreePoolWithTag(p, TAG_A);
    }
}

/* ExAllocatePool2 zeroes unless POOL_FLAG_UNINITIALIZED, which gives 0xCD. */
static void test_pool2_zeroes(void **state)
{
    UCHAR *z = (UCHAR *)ExAllocatePool2(POOL_FLAG_NON_PAGED, 4096, TAG_A);
    UCHAR *pz = (UCHAR *)ExAllocatePool2(POOL_FLAG_PAGED, 64, TAG_A);
    UCHAR *u = (UCHAR *)ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_UNINITIALIZED, 64, TAG_B);
    (void)state;
    assert_non_null(z);
    assert_non_null(pz);
    assert_non_null(u);
    assert_true(all_bytes(z, 4096, 0));
    assert_true(all_bytes(pz, 64, 0));
    assert_true(all_bytes(u, 64, 0xCD));
    ExFreePoolWithTag(z, TAG_A);
    ExFreePoolWithTag(pz, TAG_A);
    ExFreePoolWithTag(u, TAG_B);
}

/* ExAllocatePool2 refuses what Windows refuses: tag 0, no or two pool types,
 * an unknown requirement flag; unknown optional (high) flags are ignored. */
static void test_pool2_rejects_bad_flags(void **state)
{
    PVOID p;
    (void)state;
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED, 16, 0));
    assert_null(ExAllocatePool2(POOL_FLAG_UNINITIALIZED, 16, TAG_A));
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_PAGED, 16, TAG_A));
    assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED | 0x4ull /* session */, 16, TAG_A));
    p = ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_CACHE_ALIGNED | POOL_FLAG_USE_QUOTA |
                            0x0000000100000000ull,
                        16, TAG_A);
    assert_non_null(p);
    ExFreePoolWithTag(p, TAG_A);
}

/* Sizes whose header arithmetic would overflow, and sizes over the kit's
 * limit, fail with NULL rather than wrapping or exhausting the host. */
static void test_pool_size_limits(void **state)
{
    const SIZE_T bad[] = {SIZE_MAX, SIZE_MAX - 8, SIZE_MAX - sizeof(wk_km_pool_header) + 1,
                          (SIZE_T)WK_KM_POOL_MAX_BYTES + 1};
    size_t i;
    (void)state;
    for (i = 0; i < RTL_NUMBER_OF(bad); i++) {
        assert_null(ExAllocatePoolWithTag(NonPagedPoolNx, bad[i], TAG_A));
        assert_null(ExAllocatePool2(POOL_FLAG_NON_PAGED, bad[i], TAG_A));
    }
}

/* A zero-byte request gives a valid, unique, freeable block. */
static void test_pool_zero_size(void **state)
{
    PVOID a = ExAllocatePoolWithTag(NonPagedPoolNx, 0, TAG_A);
    PVOID b = ExAllocatePoolWithTag(NonPagedPoolNx, 0, TAG_A);
    PVOID c = ExAllocatePool2(POOL_FLAG_PAGED, 0, TAG_B);
    (void)state;
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_ptr_not_equal(a, b);
    ExFreePoolWithTag(a, TAG_A);
    ExFreePool(b);
    ExFreePoolWithTag(c, TAG_B);
}

/* ------------------------------------------------------------------------ */
/* Misuse the header must turn into an abort (one child each)                */
/* ------------------------------------------------------------------------ */

static void free_with_wrong_tag(void)
{
    ExFreePoolWithTag(ExAllocatePoolWithTag(NonPagedPoolNx, 32, TAG_A), TAG_B);
}

/* The double free is the point: gcc 12 and later see it through the
 * inlined free path at -O3 and, rightly, warn. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuse-after-free"
#endif
static void free_twice(void)
{
    PVOID p = ExAllocatePool2(POOL_FLAG_NON_PAGED, 32, TAG_A);
    ExFreePoolWithTag(p, TAG_A);
    ExFreePoolWithTag(p, TAG_A);
}
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif

static void free_null(void)
{
    ExFreePool(NULL);
}

static void paged_pool_at_dispatch(void)
{
    KSPIN_LOCK lock;
    KIRQL old;
    KeInitializeSpinLock(&lock);
    KeAcquireSpinLock(&lock, &old);
    (void)ExAllocatePool2(POOL_FLAG_PAGED, 32, TAG_A);
}

static void raise_on_failure(void)
{
    (void)ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_RAISE_ON_FAILURE, SIZE_MAX, TAG_A);
}

static void spin_lock_twice(void)
{
    KSPIN_LOCK lock;
    KIRQL old, old2;
    KeInitializeSpinLock(&lock);
    KeAcquireSpinLock(&lock, &old);
    KeAcquireSpinLock(&lock, &old2);
}

static void spin_lock_twice_at_dpc_level(void)
{
    KSPIN_LOCK lock;
    KeInitializeSpinLock(&lock);
    KeAcquireSpinLockAtDpcLevel(&lock);
    KeAcquireSpinLockAtDpcLevel(&lock);
}

static void release_unheld_spin_lock(void)
{
    KSPIN_LOCK lock;
    KeInitializeSpinLock(&lock);
    KeReleaseSpinLock(&lock, PASSIVE_LEVEL);
}

static void fast_mutex_twice(void)
{
    FAST_MUTEX m;
    ExInitializeFastMutex(&m);
    ExAcquireFastMutex(&m);
    ExAcquireFastMutex(&m);
}

static void fast_mutex_uninitialised(void)
{
    FAST_MUTEX m;
    memset(&m, 0, sizeof m);
    ExAcquireFastMutex(&m);
}

static void release_unowned_mutex(void)
{
    KMUTEX m;
    KeInitializeMutex(&m, 0);
    (void)KeReleaseMutex(&m, FALSE);
}

static void wait_under_spin_lock(void)
{
    KSPIN_LOCK lock;
    KMUTEX m;
    KIRQL old;
    KeInitializeSpinLock(&lock);
    KeInitializeMutex(&m, 0);
    KeAcquireSpinLock(&lock, &old);
    (void)KeWaitForSingleObject(&m, Executive, KernelMode, FALSE, NULL);
}

static void lower_irql_upwards(void)
{
    KeLowerIrql(DISPATCH_LEVEL);
}

static void raise_irql_downwards(void)
{
    KIRQL old;
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    KeRaiseIrql(APC_LEVEL, &old);
}

static void nt_assert_false(void)
{
    int value = 2;
    NT_ASSERT(value == 3);
}

static void nt_assertmsg_false(void)
{
    NT_ASSERTMSG("ring index in range", sizeof(int) == 3);
}

static void old_assert_false(void)
{
    ASSERT(sizeof(int) == 3);
}

static void remove_from_corrupt_list(void)
{
    LIST_ENTRY head, a, b;
    InitializeListHead(&head);
    InsertTailList(&head, &a);
    InsertTailList(&head, &b);
    b.Blink = &head; /* a stray write: b no longer points back at a */
    RemoveEntryList(&a);
}

static void paged_code_at_dispatch(void)
{
    KSPIN_LOCK lock;
    KIRQL old;
    KeInitializeSpinLock(&lock);
    KeAcquireSpinLock(&lock, &old);
    PAGED_CODE();
}

static void set_uninitialised_event(void)
{
    KEVENT e;
    memset(&e, 0, sizeof e);
    KeSetEvent(&e, 0, FALSE);
}

/* One misuse: what the child runs and what its stderr must contain. */
struct crash_case {
    child_fn fn;
    const char *want;
    const char *want2;
};

/* Under ASan the second free's read of the freed header is reported by ASan
 * before the header check runs; either report is a detected double free. */
#ifdef WK_TEST_ASAN
#define DOUBLE_FREE_REPORT "heap-use-after-free"
#else
#define DOUBLE_FREE_REPORT "KM-POOL-002"
#endif

static struct crash_case case_wrong_tag = {free_with_wrong_tag, "KM-POOL-001",
                                           "ExFreePoolWithTag(0x"};
static struct crash_case case_wrong_tag_names = {free_with_wrong_tag, "'kmB2'",
                                                 "allocated with tag 'kmA1'"};
static struct crash_case case_double_free = {free_twice, DOUBLE_FREE_REPORT, NULL};
static struct crash_case case_free_null = {free_null, "KM-POOL-003", NULL};
static struct crash_case case_paged_at_dispatch = {paged_pool_at_dispatch, "KM-IRQL-003",
                                                   "paged pool"};
static struct crash_case case_raise_on_failure = {raise_on_failure, "KM-POOL-004", NULL};
static struct crash_case case_spin_twice = {spin_lock_twice, "KM-LOCK-001", "KeAcquireSpinLock"};
static struct crash_case case_spin_twice_dpc = {spin_lock_twice_at_dpc_level, "KM-LOCK-001",
                                                NULL};
static struct crash_case case_release_unheld = {release_unheld_spin_lock, "KM-LOCK-002",
                                                "not held"};
static struct crash_case case_fast_mutex_twice = {fast_mutex_twice, "KM-LOCK-001",
                                                  "ExAcquireFastMutex"};
static struct crash_case case_fast_mutex_uninit = {fast_mutex_uninitialised, "KM-MUTEX-003",
                                                   NULL};
static struct crash_case case_release_unowned = {release_unowned_mutex, "KM-MUTEX-001", NULL};
static struct crash_case case_wait_at_dispatch = {wait_under_spin_lock, "KM-IRQL-003",
                                                  "KeWaitForSingleObject"};
static struct crash_case case_lower_upwards = {lower_irql_upwards, "KM-IRQL-002", NULL};
static struct crash_case case_raise_downwards = {raise_irql_downwards, "KM-IRQL-001", NULL};
static struct crash_case case_nt_assert = {nt_assert_false, "NT_ASSERT failed: value == 3 at ",
                                           "test_km.c:"};
static struct crash_case case_nt_assertmsg = {nt_assertmsg_false,
                                              "NT_ASSERT failed: sizeof(int) == 3 at ",
                                              "(ring index in range)"};
static struct crash_case case_corrupt_list = {remove_from_corrupt_list, "KM-LIST-001",
                                              "RemoveEntryList"};
static struct crash_case case_paged_code = {paged_code_at_dispatch, "KM-IRQL-003", "PAGED_CODE()"};
static struct crash_case case_event_uninit = {set_uninitialised_event, "KM-EVENT-001", "KeSetEvent"};
static struct crash_case case_assert = {old_assert_false, "ASSERT failed: sizeof(int) == 3 at ",
                                        NULL};

/* The child aborts and says what the case expects. */
static void test_misuse_aborts(void **state)
{
    const struct crash_case *c = (const struct crash_case *)*state;
    assert_true(dies_with(c->fn, c->want, c->want2));
}

/* ------------------------------------------------------------------------ */
/* Locks from two threads                                                    */
/* ------------------------------------------------------------------------ */

#define ROUNDS 100000

/* What the workers share: the locks, the counter they protect, and a count
 * of IRQL readings that were not what the model promises. */
struct shared {
    KSPIN_LOCK spin;
    FAST_MUTEX fast;
    KMUTEX mutex;
    long counter;
    LONG irql_errors;
};

/* Read, pause, write: a lost update shows if exclusion ever fails. */
static void bump(struct shared *s)
{
    long v = s->counter;
    if ((v & 1023) == 0)
        sched_yield();
    s->counter = v + 1;
}

static void *spin_worker(void *arg)
{
    struct shared *s = (struct shared *)arg;
    int i;
    for (i = 0; i < ROUNDS; i++) {
        KIRQL old;
        KeAcquireSpinLock(&s->spin, &old);
        if (old != PASSIVE_LEVEL || KeGetCurrentIrql() != DISPATCH_LEVEL)
            InterlockedIncrement(&s->irql_errors);
        bump(s);
        KeReleaseSpinLock(&s->spin, old);
        if (KeGetCurrentIrql() != PASSIVE_LEVEL)
            InterlockedIncrement(&s->irql_errors);
    }
    return NULL;
}

static void *fast_mutex_worker(void *arg)
{
    struct shared *s = (struct shared *)arg;
    int i;
    for (i = 0; i < ROUNDS; i++) {
        ExAcquireFastMutex(&s->fast);
        if (KeGetCurrentIrql() != APC_LEVEL)
            InterlockedIncrement(&s->irql_errors);
        bump(s);
        ExReleaseFastMutex(&s->fast);
        if (KeGetCurrentIrql() != PASSIVE_LEVEL)
            InterlockedIncrement(&s->irql_errors);
    }
    return NULL;
}

static void *mutex_worker(void *arg)
{
    struct shared *s = (struct shared *)arg;
    int i;
    for (i = 0; i < ROUNDS; i++) {
        if (KeWaitForSingleObject(&s->mutex, Executive, KernelMode, FALSE, NULL) !=
            STATUS_SUCCESS)
            InterlockedIncrement(&s->irql_errors);
        bump(s);
        (void)KeReleaseMutex(&s->mutex, FALSE);
    }
    return NULL;
}

/* Runs worker on two threads over a fresh shared block; checks the total. */
static void run_two(void *(*worker)(void *))
{
    static struct shared s; /* one run at a time */
    pthread_t t1, t2;
    memset(&s, 0, sizeof s);
    KeInitializeSpinLock(&s.spin);
    ExInitializeFastMutex(&s.fast);
    KeInitializeMutex(&s.mutex, 0);
    assert_int_equal(pthread_create(&t1, NULL, worker, &s), 0);
    assert_int_equal(pthread_create(&t2, NULL, worker, &s), 0);
    assert_int_equal(pthread_join(t1, NULL), 0);
    assert_int_equal(pthread_join(t2, NULL), 0);
    assert_int_equal(s.counter, 2 * ROUNDS);
    assert_int_equal(s.irql_errors, 0);
}

static void test_spin_lock_two_threads(void **state)
{
    (void)state;
    run_two(spin_worker);
}

static void test_fast_mutex_two_threads(void **state)
{
    (void)state;
    run_two(fast_mutex_worker);
}

static void test_kmutex_two_threads(void **state)
{
    (void)state;
    run_two(mutex_worker);
}

/* ------------------------------------------------------------------------ */
/* Mutex semantics, IRQL model                                               */
/* ------------------------------------------------------------------------ */

/* Tries the mutex from a second thread with the given timeout. */
struct try_wait {
    PKMUTEX mutex;
    LONGLONG timeout;
    NTSTATUS status;
};

static void *try_wait_worker(void *arg)
{
    struct try_wait *w = (struct try_wait *)arg;
    LARGE_INTEGER t;
    t.QuadPart = w->timeout;
    w->status = KeWaitForSingleObject(w->mutex, Executive, KernelMode, FALSE, &t);
    if (w->status == STATUS_SUCCESS)
        (void)KeReleaseMutex(w->mutex, FALSE);
    return NULL;
}

static NTSTATUS wait_from_other_thread(PKMUTEX m, LONGLONG timeout)
{
    struct try_wait w;
    pthread_t t;
    w.mutex = m;
    w.timeout = timeout;
    w.status = STATUS_UNSUCCESSFUL;
    assert_int_equal(pthread_create(&t, NULL, try_wait_worker, &w), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    return w.status;
}

/* KMUTEX: recursive for its owner, timeouts for others, NOT_SUPPORTED for
 * objects it is not. */
static void test_kmutex_semantics(void **state)
{
    KMUTEX m;
    FAST_MUTEX f;
    LARGE_INTEGER zero;
    (void)state;
    zero.QuadPart = 0;
    KeInitializeMutex(&m, 0);
    assert_int_equal(KeWaitForSingleObject(&m, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    assert_int_equal(KeWaitForSingleObject(&m, Executive, KernelMode, FALSE, &zero),
                     STATUS_SUCCESS);
    assert_int_equal(wait_from_other_thread(&m, 0), STATUS_TIMEOUT);
    assert_int_equal(wait_from_other_thread(&m, -20 * 10000), STATUS_TIMEOUT); /* 20 ms */
    assert_int_equal(wait_from_other_thread(&m, 1), STATUS_TIMEOUT); /* absolute, 1601 */
    assert_int_equal(KeReleaseMutex(&m, FALSE), -1); /* still owned once */
    assert_int_equal(KeReleaseMutex(&m, FALSE), 0);  /* now free */
    assert_int_equal(wait_from_other_thread(&m, 0), STATUS_SUCCESS);
    assert_int_equal(wait_from_other_thread(&m, -10000000), STATUS_SUCCESS);

    ExInitializeFastMutex(&f);
    assert_int_equal(KeWaitForSingleObject(&f, Executive, KernelMode, FALSE, NULL),
                     STATUS_NOT_SUPPORTED);
    assert_int_equal(KeWaitForSingleObject(NULL, Executive, KernelMode, FALSE, NULL),
                     STATUS_NOT_SUPPORTED);
}

/* A thread that waits on an event, for the wake-up tests. */
struct event_wait {
    PRKEVENT event;
    NTSTATUS status;
};

static void *event_wait_worker(void *arg)
{
    struct event_wait *w = (struct event_wait *)arg;
    LARGE_INTEGER five_seconds;
    five_seconds.QuadPart = -5LL * 10000000;
    w->status = KeWaitForSingleObject(w->event, Executive, KernelMode, FALSE, &five_seconds);
    return NULL;
}

/* Events: a notification event stays signaled for every waiter until reset,
 * a synchronization event lets one wait through and resets itself, an
 * unsignaled one times out, and a set from another thread wakes a waiter. */
static void test_event_semantics(void **state)
{
    KEVENT note, sync;
    LARGE_INTEGER zero, ten_ms;
    struct event_wait w;
    pthread_t t;
    (void)state;
    zero.QuadPart = 0;
    ten_ms.QuadPart = -10 * 10000;

    KeInitializeEvent(&note, NotificationEvent, FALSE);
    assert_int_equal(KeReadStateEvent(&note), 0);
    assert_int_equal(KeWaitForSingleObject(&note, Executive, KernelMode, FALSE, &zero), STATUS_TIMEOUT);
    assert_int_equal(KeWaitForSingleObject(&note, Executive, KernelMode, FALSE, &ten_ms), STATUS_TIMEOUT);
    assert_int_equal(KeSetEvent(&note, 0, FALSE), 0);
    assert_int_equal(KeSetEvent(&note, 0, FALSE), 1); /* previous state */
    assert_int_equal(KeWaitForSingleObject(&note, Executive, KernelMode, FALSE, NULL), STATUS_SUCCESS);
    assert_int_equal(KeWaitForSingleObject(&note, Executive, KernelMode, FALSE, &zero), STATUS_SUCCESS);
    assert_int_equal(KeReadStateEvent(&note), 1); /* a wait does not reset it */
    assert_int_equal(KeResetEvent(&note), 1);
    assert_int_equal(KeWaitForSingleObject(&note, Executive, KernelMode, FALSE, &zero), STATUS_TIMEOUT);
    KeSetEvent(&note, 0, FALSE);
    KeClearEvent(&note);
    assert_int_equal(KeReadStateEvent(&note), 0);

    KeInitializeEvent(&sync, SynchronizationEvent, TRUE);
    assert_int_equal(KeWaitForSingleObject(&sync, Executive, KernelMode, FALSE, &zero), STATUS_SUCCESS);
    assert_int_equal(KeReadStateEvent(&sync), 0); /* the wait took it */
    assert_int_equal(KeWaitForSingleObject(&sync, Executive, KernelMode, FALSE, &zero), STATUS_TIMEOUT);

    /* A waiter on another thread wakes when this one sets the event. */
    KeInitializeEvent(&sync, SynchronizationEvent, FALSE);
    w.event = &sync;
    w.status = STATUS_UNSUCCESSFUL;
    assert_int_equal(pthread_create(&t, NULL, event_wait_worker, &w), 0);
    {
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    KeSetEvent(&sync, 0, FALSE);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(w.status, STATUS_SUCCESS);
    assert_int_equal(KeReadStateEvent(&sync), 0);
}

/* An entry in a test list: the link lives inside it, as in a driver. */
struct item {
    int value;
    LIST_ENTRY link;
    SINGLE_LIST_ENTRY next;
};

/* The values of a doubly linked list, head to tail, checked both ways. */
static int list_values(PLIST_ENTRY head, int *out, int room)
{
    int n = 0;
    PLIST_ENTRY e;
    for (e = head->Flink; e != head && n < room; e = e->Flink) {
        assert_ptr_equal(e->Flink->Blink, e);
        out[n++] = CONTAINING_RECORD(e, struct item, link)->value;
    }
    return n;
}

/* LIST_ENTRY and SINGLE_LIST_ENTRY: the Windows order of every routine,
 * and the interlocked forms' return values. */
static void test_lists(void **state)
{
    struct item items[4];
    LIST_ENTRY head;
    SINGLE_LIST_ENTRY stack;
    KSPIN_LOCK lock;
    int v[8], i;
    (void)state;
    for (i = 0; i < 4; i++)
        items[i].value = i;

    InitializeListHead(&head);
    assert_true(IsListEmpty(&head));
    InsertTailList(&head, &items[1].link);
    InsertTailList(&head, &items[2].link);
    InsertHeadList(&head, &items[0].link);
    assert_int_equal(list_values(&head, v, 8), 3);
    assert_int_equal(v[0], 0);
    assert_int_equal(v[1], 1);
    assert_int_equal(v[2], 2);
    assert_false(RemoveEntryList(&items[1].link)); /* not empty after */
    assert_ptr_equal(RemoveTailList(&head), &items[2].link);
    assert_ptr_equal(RemoveHeadList(&head), &items[0].link);
    assert_true(IsListEmpty(&head));
    InsertTailList(&head, &items[3].link);
    assert_true(RemoveEntryList(&items[3].link)); /* empty after */

    KeInitializeSpinLock(&lock);
    assert_null(ExInterlockedInsertTailList(&head, &items[0].link, &lock));
    assert_ptr_equal(ExInterlockedInsertTailList(&head, &items[1].link, &lock), &items[0].link);
    assert_ptr_equal(ExInterlockedInsertHeadList(&head, &items[2].link, &lock), &items[0].link);
    assert_int_equal(list_values(&head, v, 8), 3);
    assert_int_equal(v[0], 2);
    assert_int_equal(v[2], 1);
    assert_ptr_equal(ExInterlockedRemoveHeadList(&head, &lock), &items[2].link);
    assert_ptr_equal(ExInterlockedRemoveHeadList(&head, &lock), &items[0].link);
    assert_ptr_equal(ExInterlockedRemoveHeadList(&head, &lock), &items[1].link);
    assert_null(ExInterlockedRemoveHeadList(&head, &lock));
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);

    stack.Next = NULL;
    PushEntryList(&stack, &items[0].next);
    PushEntryList(&stack, &items[1].next);
    assert_ptr_equal(PopEntryList(&stack), &items[1].next);
    assert_ptr_equal(PopEntryList(&stack), &items[0].next);
    assert_null(PopEntryList(&stack));
}

/* The IRQL model: raises and lowers, nested locks, the DPC-level variants
 * and try-acquire, and one value shared with another translation unit. */
static void test_irql_model(void **state)
{
    KSPIN_LOCK a, b;
    FAST_MUTEX f;
    KIRQL old_a, old_b, old;
    (void)state;
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    KeRaiseIrql(APC_LEVEL, &old);
    assert_int_equal(old, PASSIVE_LEVEL);
    assert_int_equal(KeGetCurrentIrql(), APC_LEVEL);
    KeLowerIrql(old);

    KeInitializeSpinLock(&a);
    KeInitializeSpinLock(&b);
    KeAcquireSpinLock(&a, &old_a);
    KeAcquireSpinLock(&b, &old_b);
    assert_int_equal(old_a, PASSIVE_LEVEL);
    assert_int_equal(old_b, DISPATCH_LEVEL);
    KeReleaseSpinLock(&b, old_b);
    assert_int_equal(KeGetCurrentIrql(), DISPATCH_LEVEL);
    KeReleaseSpinLock(&a, old_a);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);

    KeAcquireSpinLockAtDpcLevel(&a);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);
    KeReleaseSpinLockFromDpcLevel(&a);

    ExInitializeFastMutex(&f);
    assert_true(ExTryToAcquireFastMutex(&f));
    assert_int_equal(KeGetCurrentIrql(), APC_LEVEL);
    ExReleaseFastMutex(&f);
    assert_int_equal(KeGetCurrentIrql(), PASSIVE_LEVEL);

    /* Taken in the other unit, seen here; released here, seen there. */
    wk_test_tu2_acquire(&a, &old_a);
    assert_int_equal(KeGetCurrentIrql(), DISPATCH_LEVEL);
    KeReleaseSpinLock(&a, old_a);
    assert_int_equal(wk_test_tu2_irql(), PASSIVE_LEVEL);
}

/* ------------------------------------------------------------------------ */
/* Interlocked, Rtl                                                          */
/* ------------------------------------------------------------------------ */

static void test_interlocked(void **state)
{
    LONG v = 5;
    LONG64 w = (LONG64)1 << 40;
    int x = 0, y = 0;
    PVOID p = &x;
    (void)state;
    assert_int_equal(InterlockedIncrement(&v), 6);
    assert_int_equal(InterlockedDecrement(&v), 5);
    assert_int_equal(InterlockedExchange(&v, 9), 5);
    assert_int_equal(InterlockedCompareExchange(&v, 1, 8), 9); /* no match */
    assert_int_equal(v, 9);
    assert_int_equal(InterlockedCompareExchange(&v, 1, 9), 9); /* match */
    assert_int_equal(v, 1);
    assert_int_equal(InterlockedAdd(&v, -3), -2);
    assert_int_equal(InterlockedExchangeAdd(&v, 10), -2);
    assert_int_equal(v, 8);

    assert_true(InterlockedIncrement64(&w) == ((LONG64)1 << 40) + 1);
    assert_true(InterlockedDecrement64(&w) == (LONG64)1 << 40);
    assert_true(InterlockedExchange64(&w, -7) == (LONG64)1 << 40);
    assert_true(InterlockedCompareExchange64(&w, 3, 0) == -7);
    assert_true(InterlockedCompareExchange64(&w, 3, -7) == -7);
    assert_true(InterlockedAdd64(&w, (LONG64)1 << 33) == ((LONG64)1 << 33) + 3);
    assert_true(InterlockedExchangeAdd64(&w, -3) == ((LONG64)1 << 33) + 3);
    assert_true(w == (LONG64)1 << 33);

    assert_ptr_equal(InterlockedExchangePointer(&p, &y), &x);
    assert_ptr_equal(InterlockedCompareExchangePointer(&p, &x, &x), &y); /* no match */
    assert_ptr_equal(InterlockedCompareExchangePointer(&p, &x, &y), &y); /* match */
    assert_ptr_equal(p, &x);

    KeMemoryBarrier();
    KeMemoryBarrierWithoutFence();
    _ReadWriteBarrier();
    KeStallExecutionProcessor(10);
}

static void test_rtl_memory(void **state)
{
    UCHAR a[16], b[16];
    UCHAR m[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    (void)state;
    RtlFillMemory(a, sizeof a, 0xAB);
    assert_true(all_bytes(a, sizeof a, 0xAB));
    RtlZeroMemory(a, 8);
    assert_true(all_bytes(a, 8, 0));
    assert_true(all_bytes(a + 8, 8, 0xAB));
    RtlCopyMemory(b, a, sizeof a);
    assert_int_equal(RtlCompareMemory(a, b, sizeof a), sizeof a);
    assert_true(RtlEqualMemory(a, b, sizeof a));
    b[5] = 7;
    assert_int_equal(RtlCompareMemory(a, b, sizeof a), 5);
    assert_false(RtlEqualMemory(a, b, sizeof a));
    assert_true(RtlEqualMemory(a, b, 5));

    RtlMoveMemory(m + 2, m, 6); /* overlapping, forwards */
    assert_int_equal(m[2], 1);
    assert_int_equal(m[7], 6);
    RtlMoveMemory(m, m + 2, 6); /* overlapping, backwards */
    assert_int_equal(m[0], 1);
    assert_int_equal(m[5], 6);

    /* Zero lengths never reach the C library, so NULL is fine. */
    RtlZeroMemory(NULL, 0);
    RtlCopyMemory(NULL, NULL, 0);
    RtlMoveMemory(NULL, NULL, 0);
    RtlFillMemory(NULL, 0, 1);
    assert_int_equal(RtlCompareMemory(NULL, NULL, 0), 0);
    assert_true(RtlEqualMemory(NULL, NULL, 0));
}

/* ------------------------------------------------------------------------ */
/* MDL mapping and page arithmetic                                           */
/* ------------------------------------------------------------------------ */

/* What the fake mapping hook records and returns. */
struct map_probe {
    int calls;
    int fail; /* return NULL while set */
    UCHAR pages[64];
};

static PVOID map_hook(PMDL mdl)
{
    struct map_probe *probe = (struct map_probe *)mdl->wk_map_context;
    probe->calls++;
    return probe->fail ? NULL : probe->pages;
}

static void test_mdl_mapping(void **state)
{
    MDL mdl;
    struct map_probe probe;
    (void)state;
    memset(&mdl, 0, sizeof mdl);
    memset(&probe, 0, sizeof probe);
    assert_null(MmGetSystemAddressForMdlSafe(&mdl, NormalPagePriority)); /* no hook */

    mdl.wk_map = map_hook;
    mdl.wk_map_context = &probe;
    probe.fail = 1;
    assert_null(MmGetSystemAddressForMdlSafe(&mdl, NormalPagePriority));
    assert_null(mdl.wk_mapped_va); /* a failure is not cached */
    assert_int_equal(mdl.MdlFlags & MDL_MAPPED_TO_SYSTEM_VA, 0);
    probe.fail = 0;
    probe.calls = 0;
    assert_ptr_equal(MmGetSystemAddressForMdlSafe(&mdl, NormalPagePriority | MdlMappingNoExecute),
                     probe.pages);
    assert_int_equal(probe.calls, 1);
    assert_ptr_equal(MmGetSystemAddressForMdlSafe(&mdl, HighPagePriority), probe.pages);
    assert_int_equal(probe.calls, 1); /* cached */
    assert_ptr_equal(mdl.wk_mapped_va, probe.pages);
    assert_int_equal(mdl.MdlFlags & MDL_MAPPED_TO_SYSTEM_VA, MDL_MAPPED_TO_SYSTEM_VA);
}

static void test_page_macros(void **state)
{
    PVOID va = (PVOID)(uintptr_t)0x12345678u;
    (void)state;
    assert_ptr_equal(PAGE_ALIGN(va), (PVOID)(uintptr_t)0x12345000u);
    assert_int_equal(BYTE_OFFSET(va), 0x678);
    assert_int_equal(BYTE_OFFSET((PVOID)(uintptr_t)0x5000), 0);
    assert_int_equal(ROUND_TO_PAGES(0), 0);
    assert_int_equal(ROUND_TO_PAGES(1), PAGE_SIZE);
    assert_int_equal(ROUND_TO_PAGES(PAGE_SIZE), PAGE_SIZE);
    assert_int_equal(ROUND_TO_PAGES(PAGE_SIZE + 1), 2 * PAGE_SIZE);
    assert_int_equal(BYTES_TO_PAGES(0), 0);
    assert_int_equal(BYTES_TO_PAGES(1), 1);
    assert_int_equal(BYTES_TO_PAGES(PAGE_SIZE), 1);
    assert_int_equal(BYTES_TO_PAGES(PAGE_SIZE + 1), 2);
    assert_int_equal(BYTES_TO_PAGES((SIZE_T)3 << 32), (ULONG)(((SIZE_T)3 << 32) >> PAGE_SHIFT));
    assert_int_equal(ADDRESS_AND_SIZE_TO_SPAN_PAGES((PVOID)(uintptr_t)0x5000, 0), 0);
    assert_int_equal(ADDRESS_AND_SIZE_TO_SPAN_PAGES(va, 0), 1); /* Windows' formula */
    assert_int_equal(ADDRESS_AND_SIZE_TO_SPAN_PAGES(va, 1), 1);
    assert_int_equal(ADDRESS_AND_SIZE_TO_SPAN_PAGES(va, PAGE_SIZE - 0x678), 1);
    assert_int_equal(ADDRESS_AND_SIZE_TO_SPAN_PAGES(va, PAGE_SIZE - 0x677), 2);
    assert_int_equal(ADDRESS_AND_SIZE_TO_SPAN_PAGES(va, PAGE_SIZE), 2);
    assert_int_equal(ADDRESS_AND_SIZE_TO_SPAN_PAGES((PVOID)(uintptr_t)0x5000, PAGE_SIZE), 1);
}

/* ------------------------------------------------------------------------ */
/* Macros that only have to compile (and run their obvious way)             */
/* ------------------------------------------------------------------------ */

/* The SEH shapes miniport code uses: the try block runs, __except blocks
 * never do, __finally blocks run after a try block that completes. */
static int seh_shapes(int *except_ran, int *finally_ran)
{
    int tried = 0;
    __try {
        tried = 1;
    } __except (EXCEPTION_EXECUTE_HANDLER) {
        NTSTATUS code = GetExceptionCode();
        *except_ran = code == STATUS_UNSUCCESSFUL ? 1 : 2;
    }
    __try {
        tried++;
    } __finally {
        (*finally_ran)++;
    }
    __try {
        __try {
            tried++;
        } __finally {
            (*finally_ran)++;
        }
    } __except (GetExceptionCode() == STATUS_UNSUCCESSFUL ? EXCEPTION_EXECUTE_HANDLER
                                                          : EXCEPTION_CONTINUE_SEARCH) {
        *except_ran = 3;
    }
    return tried;
}

static void test_seh_macros(void **state)
{
    int except_ran = 0, finally_ran = 0;
    (void)state;
    assert_int_equal(seh_shapes(&except_ran, &finally_ran), 3);
    assert_int_equal(except_ran, 0);
    assert_int_equal(finally_ran, 2);
    assert_int_equal(EXCEPTION_EXECUTE_HANDLER, 1);
    assert_int_equal(EXCEPTION_CONTINUE_SEARCH, 0);
}

/* A struct and a DDI-like function annotated the way WDK samples are. */
typedef struct annotated_ring {
    ULONG count;
    _Field_size_(count) ULONG *entries;
    _Field_size_bytes_(count) UCHAR *bytes;
} annotated_ring;

typedef NTSTATUS APIENTRY ANNOTATED_DDI(_In_ ULONG a, _Out_ ULONG *b);

_Function_class_(ANNOTATED_DDI) _IRQL_requires_max_(DISPATCH_LEVEL) _Must_inspect_result_
    _Success_(return >= 0) NTSTATUS APIENTRY
    annotated_ddi(_In_ ULONG a, _Out_ ULONG *b);

_Use_decl_annotations_ NTSTATUS APIENTRY annotated_ddi(ULONG a, ULONG *b)
{
    *b = a + 1;
    return STATUS_SUCCESS;
}

static _Check_return_ _IRQL_requires_(PASSIVE_LEVEL) _When_(n > 0, _Success_(return != 0))
ULONG NTAPI __stdcall annotated_sum(_In_reads_(n) const ULONG *in,
                                    _In_reads_bytes_(nb) const VOID *raw, _In_ ULONG n,
                                    _In_ ULONG nb, _Out_writes_(n) ULONG *out,
                                    _Out_writes_bytes_(nb) VOID *out_raw, _Inout_ ULONG *acc,
                                    _In_opt_ const ULONG *bias, _Out_opt_ ULONG *count,
                                    _Inout_opt_ ULONG *spare, _Outptr_ ULONG **first,
                                    _Outptr_result_maybenull_ ULONG **last, IN ULONG scale,
                                    OUT ULONG *scaled, IN OPTIONAL PVOID unused, CONST ULONG one)
{
    ULONG i, sum = 0;
    UNREFERENCED_PARAMETER(unused);
    PAGED_CODE();
    for (i = 0; i < n; i++) {
        out[i] = in[i];
        sum += in[i];
    }
    RtlCopyMemory(out_raw, raw, nb);
    *acc += sum + (bias ? *bias : 0);
    if (count)
        *count = n;
    if (spare)
        *spare = 0;
    *first = out;
    *last = n ? out + n - 1 : NULL;
    *scaled = sum * scale * one;
    return sum;
}

#if WK_KM_LEGACY_SAL
static ULONG sal1_add(__in ULONG a, __inout ULONG *b, __out ULONG *c)
{
    *b += a;
    *c = *b;
    return *c;
}
#endif

FORCEINLINE ULONG forced_twice(ULONG x)
{
    return 2 * x;
}

static void test_sal_annotations_compile(void **state)
{
    ULONG in[3] = {1, 2, 3}, out[3], acc = 10, bias = 1, count = 0, spare = 9, scaled = 0;
    UCHAR raw[2] = {7, 8}, raw_out[2];
    ULONG *first = NULL, *last = NULL, b = 0;
    annotated_ring ring;
    (void)state;
    ring.count = 3;
    ring.entries = out;
    ring.bytes = raw_out;
    assert_int_equal(annotated_sum(in, raw, 3, 2, out, raw_out, &acc, &bias, &count, &spare, &first,
                                   &last, 2, &scaled, NULL, 1),
                     6);
    assert_int_equal(acc, 17);
    assert_int_equal(count, 3);
    assert_int_equal(scaled, 12);
    assert_ptr_equal(last, ring.entries + 2);
    assert_int_equal(ring.bytes[1], 8);
    assert_int_equal(annotated_ddi(4, &b), STATUS_SUCCESS);
    assert_int_equal(b, 5);
    assert_int_equal(forced_twice(21), 42);
#if WK_KM_LEGACY_SAL
    assert_int_equal(sal1_add(2, &b, &count), 7);
#endif
#ifdef __cplusplus
    assert_int_equal(WK_KM_LEGACY_SAL, 0);
#else
    assert_int_equal(WK_KM_LEGACY_SAL, 1);
#endif
}

/* A file-scope build-time check. */
C_ASSERT(sizeof(KSPIN_LOCK) == 8);

struct with_list {
    ULONG head;
    ULONG64 link;
    UCHAR tail[6];
};

static void test_helper_macros(void **state)
{
    struct with_list w;
    ULONG table[7];
    int value = 4;
    (void)state;
    C_ASSERT(sizeof(KIRQL) == 1); /* block scope */
    assert_int_equal(FIELD_OFFSET(struct with_list, link), 8);
    assert_int_equal(FIELD_OFFSET(struct with_list, tail), 16);
    assert_int_equal(RTL_NUMBER_OF(table), 7);
    assert_int_equal(ARRAYSIZE(w.tail), 6);
    assert_ptr_equal(CONTAINING_RECORD(&w.link, struct with_list, link), &w);
    assert_ptr_equal(CONTAINING_RECORD(&w.tail[0], struct with_list, tail), &w);
    NT_ASSERT(value == 4);
    NT_ASSERTMSG("value is four", value == 4);
    ASSERT(value > 0);
    assert_int_equal(NT_VERIFY(value == 4), TRUE);
    assert_int_equal(TRUE, 1);
    assert_int_equal(FALSE, 0);
#ifdef __cplusplus
    {
        std::pair<int, int> pr(1, 2); /* <utility> came after km.h */
        assert_int_equal(pr.second, 2);
    }
#endif
}

/* ------------------------------------------------------------------------ */
/* Debug output                                                              */
/* ------------------------------------------------------------------------ */

static void print_some(void)
{
    (void)DbgPrint("hello %d\n", 42);
    (void)DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_ERROR_LEVEL, "error %s\n", "text");
    KdPrint(("kd %u\n", 7u));
    KdPrintEx((DPFLTR_IHVVIDEO_ID, DPFLTR_TRACE_LEVEL, "kdex %x\n", 0xabu));
}

static void print_long(void)
{
    static char big[3000];
    memset(big, 'x', sizeof big - 1);
    (void)DbgPrint("%s|end\n", big);
}

static void test_dbgprint(void **state)
{
    static struct child_result r;
    (void)state;
    assert_int_equal(DbgPrint("DbgPrint from the test process: %s\n", "ok"), STATUS_SUCCESS);
    assert_int_equal(DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_INFO_LEVEL, "DbgPrintEx %d\n", 1),
                     STATUS_SUCCESS);

    assert_true(run_child(print_some, &r));
    assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
    assert_string_equal(r.out, "[driver] hello 42\n"
                               "[driver] error text\n"
                               "[driver] kd 7\n"
                               "[driver] kdex ab\n");

    assert_true(run_child(print_long, &r));
    assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
    assert_int_equal(strlen(r.out), strlen("[driver] ") + 2999 + strlen("|end\n"));
    assert_int_equal(strncmp(r.out, "[driver] xxx", 12), 0);
}

/* ------------------------------------------------------------------------ */

/* A misuse case named after what it checks. */
#define MISUSE(name, c) {name, test_misuse_aborts, NULL, NULL, (void *)&(c)}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_with_tag_fills_cd),
        cmocka_unit_test(test_pool2_zeroes),
        cmocka_unit_test(test_pool2_rejects_bad_flags),
        cmocka_unit_test(test_pool_size_limits),
        cmocka_unit_test(test_pool_zero_size),
        MISUSE("misuse_free_wrong_tag", case_wrong_tag),
        MISUSE("misuse_free_wrong_tag_names_both_tags", case_wrong_tag_names),
        MISUSE("misuse_double_free", case_double_free),
        MISUSE("misuse_free_null", case_free_null),
        MISUSE("misuse_paged_pool_at_dispatch", case_paged_at_dispatch),
        MISUSE("misuse_pool2_raise_on_failure", case_raise_on_failure),
        MISUSE("misuse_spin_lock_self_deadlock", case_spin_twice),
        MISUSE("misuse_spin_lock_self_deadlock_dpc", case_spin_twice_dpc),
        MISUSE("misuse_spin_lock_release_unheld", case_release_unheld),
        MISUSE("misuse_fast_mutex_recursion", case_fast_mutex_twice),
        MISUSE("misuse_fast_mutex_uninitialised", case_fast_mutex_uninit),
        MISUSE("misuse_kmutex_release_unowned", case_release_unowned),
        MISUSE("misuse_wait_at_dispatch", case_wait_at_dispatch),
        MISUSE("misuse_lower_irql_upwards", case_lower_upwards),
        MISUSE("misuse_raise_irql_downwards", case_raise_downwards),
        MISUSE("misuse_nt_assert", case_nt_assert),
        MISUSE("misuse_nt_assertmsg", case_nt_assertmsg),
        MISUSE("misuse_assert", case_assert),
        MISUSE("misuse_list_corrupt", case_corrupt_list),
        MISUSE("misuse_event_uninitialised", case_event_uninit),
        MISUSE("misuse_paged_code_at_dispatch", case_paged_code),
        cmocka_unit_test(test_spin_lock_two_threads),
        cmocka_unit_test(test_fast_mutex_two_threads),
        cmocka_unit_test(test_kmutex_two_threads),
        cmocka_unit_test(test_kmutex_semantics),
        cmocka_unit_test(test_event_semantics),
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_irql_model),
        cmocka_unit_test(test_interlocked),
        cmocka_unit_test(test_rtl_memory),
        cmocka_unit_test(test_mdl_mapping),
        cmocka_unit_test(test_page_macros),
        cmocka_unit_test(test_seh_macros),
        cmocka_unit_test(test_sal_annotations_compile),
        cmocka_unit_test(test_helper_macros),
        cmocka_unit_test(test_dbgprint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif /* WK_KM_TEST_TU2 */
